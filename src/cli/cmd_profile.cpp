// `etviz profile RUN.etdp`: where the time went, like ExecuTorch's Inspector, without Python.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "cli/output.h"
#include "render/profile_report.h"
#include "session/profile_session.h"

namespace etviz::cli {
namespace {

struct ProfileOptions {
  std::string file;
  std::string pte;
  std::vector<std::string> tosa;
  std::string debug_buffer;
  // --etrecord, --method and the units, as the page takes them (session/page_options.h).
  view::ProfileRequest profile;
  std::string by = "event";
  bool module_totals = false;
  bool wide = false;
  std::string format = "table";
  std::string output;
};

int run_profile(const ProfileOptions& opt) {
  if (!opt.tosa.empty() && opt.pte.empty())
    return report_error(Error("--tosa describes delegates of the program: give it with --pte"));
  session::ProfileSessionOptions load;
  static_cast<view::ProfileRequest&>(load) = opt.profile;
  load.etdump = opt.file;
  load.debug_buffer = opt.debug_buffer;
  load.program = opt.pte;
  load.tosa_files = opt.tosa;
  auto s = session::load_profile_session(load);
  if (!s) return report_error(s.error());
  if (s->program) report_damage(*s->program, opt.pte);
  if (s->etrecord) report_damage(*s->etrecord, load.etrecord);

  session::ProfileReportOptions shown;
  shown.by_name = opt.by == "name";
  shown.module_totals = opt.module_totals;
  shown.wide = opt.wide;
  if (opt.output.empty() || opt.output == "-") shown.max_width = terminal_width();
  shown.program_path = opt.pte;
  shown.etrecord_path = load.etrecord;
  const render::ProfileReport report = session::profile_report(*s, shown);

  for (const auto& w : report.warnings)
    if (opt.format != "table") warn(w);
  std::string text;
  if (opt.format == "json")
    text = render::profile_json(report);
  else if (opt.format == "csv")
    text = render::profile_csv(report);
  else
    text = render::profile_text(report);
  return write_output(opt.output, text,
                      opt.format == "json" ? OutputKind::kJson : OutputKind::kText);
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
  add_profile_options(cmd, opt->profile);
  add_program_files(cmd, nullptr, &opt->tosa);
  cmd->add_option("--debug-buffer", opt->debug_buffer,
                  "Debug buffer file holding intermediate tensors");
  cmd->add_option("--by", opt->by, "Rows per event (name + instruction) or per event name")
      ->check(CLI::IsMember({"event", "name"}));
  cmd->add_flag("--module-totals", opt->module_totals, "Time per nn.Module (needs --etrecord)");
  cmd->add_flag("--wide", opt->wide,
                "Table: every statistic (p10, min, max too) and no fitting to the terminal width");
  cmd->add_option("--format", opt->format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  cmd->add_option("-o,--output", opt->output, "Write to this file instead of stdout");
  add_budget_options(cmd);
  cmd->callback([opt] { set_exit_code(run_profile(*opt)); });
}

}  // namespace etviz::cli
