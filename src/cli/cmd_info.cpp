// `etviz info FILE`: what a program contains, in one screen (or one JSON object).
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "analysis/summary.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "formats/open_document.h"
#include "render/summary_report.h"
#include "session/profile_session.h"

namespace etviz::cli {
namespace {

struct InfoOptions {
  std::string file;
  std::vector<std::string> data;
  std::vector<std::string> tosa;
  std::string method;
  bool json = false;
  std::string output;
  bool quiet = false;
};

int run_info(const InfoOptions& opt) {
  const Progress progress(opt.quiet);
  progress("reading " + opt.file);
  // An ETDump is a run, not a graph: its runs, events and time spans (`etviz profile` joins it
  // with the program for time per operator).
  auto profile = session::profile_info(opt.file, opt.json);
  if (!profile) return report_error(profile.error());
  if (*profile)
    return write_output(opt.output, **profile, opt.json ? OutputKind::kJson : OutputKind::kText);
  OpenOptions open;
  open.data_files = opt.data;
  open.tosa_files = opt.tosa;
  auto doc = open_input(opt.file, open);
  if (!doc) return report_error(doc.error());
  size_t nodes = 0;
  for (const Graph& g : doc->graphs) nodes += g.nodes.size();
  progress(fmt::format("summarising {} graphs ({} nodes)", doc->graphs.size(), nodes));
  auto summary = analysis::summarize(*doc, opt.method);
  if (!summary) return report_error(summary.error().within(opt.file));
  const std::string text =
      opt.json ? render::summary_json(*summary) : render::summary_text(*summary);
  return write_output(opt.output, text, opt.json ? OutputKind::kJson : OutputKind::kText);
}

}  // namespace

void register_info(CLI::App& app) {
  auto opt = std::make_shared<InfoOptions>();
  CLI::App* cmd = app.add_subcommand(
      "info", "Summarise a program: methods, operators, delegates, constants, memory plan, sizes");
  cmd->add_option(
         "file", opt->file,
         "Program (.pte), bundled program (.bpte), data file (.ptd), .pt2, ETRecord, trace, "
         "Model Explorer JSON, TOSA graph, or runtime profile (.etdp)")
      ->required();
  add_program_files(cmd, &opt->data, &opt->tosa);
  cmd->add_option("--method", opt->method, "Only this method");
  cmd->add_flag("--json", opt->json, "Print one JSON object (see docs/cli.md)");
  cmd->add_option("-o,--output", opt->output, "Write to this file instead of stdout");
  cmd->add_flag("-q,--quiet", opt->quiet, "No progress on stderr");
  add_budget_options(cmd);
  cmd->callback([opt] { set_exit_code(run_info(*opt)); });
}

}  // namespace etviz::cli
