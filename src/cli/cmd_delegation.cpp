// `etviz delegation FILE`: what each backend took and what stayed on the CPU, in the shape
// of ExecuTorch's get_delegation_info; `--graph` prints the program with every delegate's
// subgraph inlined under its call.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/delegation.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "formats/open_document.h"
#include "render/delegation_report.h"

namespace etviz::cli {
namespace {

struct DelegationOptions {
  std::string file;
  std::vector<std::string> data;
  std::vector<std::string> tosa;
  std::string method;
  std::string etrecord;
  render::DelegationFormat format = render::DelegationFormat::kTable;
  bool graph = false;
  std::string output;
};

int run_delegation(const DelegationOptions& opt) {
  OpenOptions open;
  open.data_files = opt.data;
  open.tosa_files = opt.tosa;
  auto doc = open_input(opt.file, open);
  if (!doc) return report_error(doc.error());
  for (const Diagnostic& d : doc->diagnostics)
    if (d.severity == Severity::kWarning && !printed_on_open(*doc, d)) warn(d.message);
  if (opt.graph) {
    if (!opt.method.empty() && !doc->find_graph(opt.method))
      return report_error(Error(fmt::format("{}: no method '{}'", opt.file, opt.method)));
    return write_output(opt.output, render::format_delegated_graph(*doc, opt.method));
  }
  std::optional<Document> etrecord;
  if (!opt.etrecord.empty()) {
    auto rec = open_input(opt.etrecord);
    if (!rec) return report_error(rec.error());
    if (!rec->etrecord)
      return report_error(Error(
          fmt::format("{}: --etrecord expects an ETRecord (a zip with ETRECORD_V0); this is {}",
                      opt.etrecord, to_string(rec->format))));
    etrecord = std::move(*rec);
  }
  auto info = analysis::delegation_info(*doc, opt.method, etrecord ? &*etrecord : nullptr);
  if (!info) return report_error(info.error().within(opt.file));
  return write_output(
      opt.output, render::delegation_report(opt.file, *info, opt.format),
      opt.format == render::DelegationFormat::kJson ? OutputKind::kJson : OutputKind::kText);
}

}  // namespace

void register_delegation(CLI::App& app) {
  auto opt = std::make_shared<DelegationOptions>();
  CLI::App* cmd = app.add_subcommand(
      "delegation",
      "What each backend took and what stayed on the CPU (ExecuTorch's get_delegation_info)");
  cmd->add_option("file", opt->file, "Program (.pte) or bundled program (.bpte)")->required();
  add_program_files(cmd, &opt->data, &opt->tosa);
  cmd->add_option("--method", opt->method, "Only this method");
  cmd->add_option("--etrecord", opt->etrecord,
                  "The program's ETRecord: name operators by the edge-dialect ops they came "
                  "from, as ExecuTorch's get_delegation_info does");
  cmd->add_option("--format", opt->format, "table, csv (operator table), json or markdown")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, render::DelegationFormat>{
              {"table", render::DelegationFormat::kTable},
              {"csv", render::DelegationFormat::kCsv},
              {"json", render::DelegationFormat::kJson},
              {"markdown", render::DelegationFormat::kMarkdown}},
          CLI::ignore_case));
  cmd->add_flag("--graph", opt->graph,
                "Print the program as indented text with each delegate's subgraph inlined");
  cmd->add_option("-o,--output", opt->output, "Write to this file instead of stdout");
  add_budget_options(cmd);
  cmd->callback([opt] { set_exit_code(run_delegation(*opt)); });
}

}  // namespace etviz::cli
