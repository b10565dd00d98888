// `etviz memory FILE [--method M] [--format table|csv|json] [-o OUT]`: a method's memory plan
// (arenas, peak live bytes, what is live at the peak, lifetimes, the plan check); docs/memory.md.
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "analysis/diff.h"
#include "analysis/memory_plan.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "formats/open_document.h"
#include "render/memory_report.h"

namespace etviz::cli {
namespace {

struct MemoryOptions {
  std::string file;
  std::string method;
  render::MemoryFormat format = render::MemoryFormat::kTable;
  size_t rows = 12;
  std::string output;
};

int run_memory(const MemoryOptions& opt) {
  auto doc = open_input(opt.file);
  if (!doc) return report_error(doc.error());
  auto index = analysis::select_graph(*doc, opt.method);
  if (!index) return report_error(index.error().within(opt.file));
  const Graph& g = doc->graphs[static_cast<size_t>(*index)];
  if (g.stage.role != StageRole::kExecuTorch)
    return report_error(Error(fmt::format(
        "{}: '{}' is not an ExecuTorch method; memory plans are in .pte and .bpte programs",
        opt.file, g.name)));
  auto plan = analysis::memory_plan(*doc, g);
  if (!plan) return report_error(plan.error().within(opt.file));
  return write_output(
      opt.output,
      render::memory_report(std::filesystem::path(opt.file).filename().string(), g, *plan,
                            opt.format, opt.rows),
      opt.format == render::MemoryFormat::kJson ? OutputKind::kJson : OutputKind::kText);
}

}  // namespace

void register_memory(CLI::App& app) {
  auto opt = std::make_shared<MemoryOptions>();
  CLI::App* cmd =
      app.add_subcommand("memory",
                         "Memory plan of a method: arenas, peak live bytes and what is live then, "
                         "lifetimes, and a check that no two live tensors share bytes");
  cmd->add_option("file", opt->file, "Program (.pte) or bundled program (.bpte)")->required();
  cmd->add_option("--method", opt->method, "Method (default: forward, else the largest)");
  cmd->add_option("--format", opt->format, "table, csv (one row per tensor) or json")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, render::MemoryFormat>{{"table", render::MemoryFormat::kTable},
                                                      {"csv", render::MemoryFormat::kCsv},
                                                      {"json", render::MemoryFormat::kJson}},
          CLI::ignore_case));
  cmd->add_option("--rows", opt->rows, "Tensors listed per arena at its peak (default 12)");
  cmd->add_option("-o,--output", opt->output, "Write to this file instead of stdout");
  add_budget_options(cmd);
  cmd->callback([opt] { set_exit_code(run_memory(*opt)); });
}

}  // namespace etviz::cli
