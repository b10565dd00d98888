// `etviz profile RUN.etdp`: where the time went, like ExecuTorch's Inspector, without Python.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "analysis/profile_etrecord.h"
#include "analysis/profile_join.h"
#include "analysis/profile_stats.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "formats/executorch/etdump_reader.h"
#include "formats/open_document.h"
#include "render/profile_report.h"

namespace etviz::cli {
namespace {

struct ProfileOptions {
  std::string file;
  std::string pte;
  std::string etrecord;
  std::string debug_buffer;
  std::string method;
  std::string unit;
  std::string source_unit;
  std::string by = "event";
  bool module_totals = false;
  std::string format = "table";
  std::string output;
};

Result<std::optional<analysis::TimeUnit>> unit_option(const std::string& text, const char* flag) {
  if (text.empty()) return std::optional<analysis::TimeUnit>();
  auto unit = analysis::parse_time_unit(text);
  if (!unit) return Error(fmt::format("{} '{}': expected one of ns, us, ms, s, ticks", flag, text));
  return std::optional<analysis::TimeUnit>(*unit);
}

int run_profile(const ProfileOptions& opt) {
  auto target = unit_option(opt.unit, "--unit");
  if (!target) return report_error(target.error());
  auto source = unit_option(opt.source_unit, "--source-unit");
  if (!source) return report_error(source.error());
  auto scale = analysis::make_time_scale(*source, *target);
  if (!scale) return report_error(scale.error());

  auto profile = executorch::read_etdump_file(opt.file, opt.debug_buffer);
  if (!profile) return report_error(profile.error());
  auto stats = analysis::summarize_profile(*profile);

  render::ProfileReport report;
  report.profile = &*profile;
  report.stats = &stats;
  report.scale = *scale;
  report.warnings = profile->warnings;

  std::optional<Document> program;
  if (!opt.pte.empty()) {
    auto doc = open_document(opt.pte);
    if (!doc) return report_error(doc.error());
    if (doc->graphs.empty())
      return report_error(
          Error(opt.pte + ": --pte expects a program (.pte) or bundled program (.bpte)"));
    program = std::move(*doc);
    report.program_path = opt.pte;
  }
  std::optional<analysis::EtrecordMaps> etrecord;
  if (!opt.etrecord.empty()) {
    auto doc = open_document(opt.etrecord);
    if (!doc) return report_error(doc.error());
    if (!doc->etrecord)
      return report_error(
          Error(fmt::format("{}: --etrecord expects an ETRecord (a zip with ETRECORD_V0); "
                            "this is {}",
                            opt.etrecord, doc->format)));
    etrecord =
        analysis::etrecord_maps_from_document(*doc, opt.method.empty() ? "forward" : opt.method);
    if (etrecord->debug_handle_map.empty() && etrecord->delegate_map.empty())
      report.warnings.push_back(
          opt.etrecord +
          ": the ETRecord has no debug_handle_map or delegate_map entries, so "
          "events cannot be tied to module paths or stack traces");
    report.etrecord_path = opt.etrecord;
  }
  analysis::JoinSources sources;
  sources.etrecord = etrecord ? &*etrecord : nullptr;
  sources.program = program ? &*program : nullptr;
  sources.method = opt.method;
  analysis::JoinReport join;
  if (sources.program || sources.etrecord || !opt.method.empty()) {
    auto joined = analysis::join_profile(stats, sources);
    if (!joined) return report_error(joined.error().within(!opt.pte.empty() ? opt.pte : opt.file));
    join = std::move(*joined);
    report.join = &join;
    report.warnings.insert(report.warnings.end(), join.warnings.begin(), join.warnings.end());
  }
  report.rows = opt.by == "name" ? analysis::group_by_name(stats.events) : stats.events;
  report.module_totals = opt.module_totals;
  if (opt.module_totals) report.modules = analysis::module_totals(report.rows);

  for (const auto& w : report.warnings)
    if (opt.format != "table") fmt::print(stderr, "etviz: warning: {}\n", w);
  std::string text;
  if (opt.format == "json")
    text = render::profile_json(report);
  else if (opt.format == "csv")
    text = render::profile_csv(report);
  else
    text = render::profile_text(report);
  return write_output(opt.output, text);
}

}  // namespace

void register_profile(CLI::App& app) {
  auto opt = std::make_shared<ProfileOptions>();
  CLI::App* cmd = app.add_subcommand(
      "profile",
      "Runtime profile (ETDump .etdp): time per event like the Inspector, joined with the program");
  cmd->add_option("file", opt->file, "ETDump file (.etdp) written by the ExecuTorch runtime")
      ->required();
  cmd->add_option("--pte", opt->pte,
                  "The program that was profiled (.pte or .bpte): ops, delegates, backends");
  cmd->add_option("--etrecord", opt->etrecord,
                  "ETRecord of the program: module hierarchy and stack traces");
  cmd->add_option("--debug-buffer", opt->debug_buffer,
                  "Debug buffer file holding intermediate tensors");
  cmd->add_option("--method", opt->method,
                  "Method that ran (default: forward, or the only method)");
  cmd->add_option("--unit", opt->unit, "Show times in ns, us, ms or s (needs --source-unit)");
  cmd->add_option("--source-unit", opt->source_unit,
                  "What one tick of the file is: ns, us, ms or s (the file does not say)");
  cmd->add_option("--by", opt->by, "Rows per event (name + instruction) or per event name")
      ->check(CLI::IsMember({"event", "name"}));
  cmd->add_flag("--module-totals", opt->module_totals, "Time per nn.Module (needs --etrecord)");
  cmd->add_option("--format", opt->format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  cmd->add_option("-o,--output", opt->output, "Write to this file instead of stdout");
  cmd->callback([opt] { set_exit_code(run_profile(*opt)); });
}

}  // namespace etviz::cli
