// `etviz numerics RUN.etdp --reference REF.etdp`: where accuracy is lost, per operator, like the
// Inspector's calculate_numeric_gap but between two runs (or a run and a bundled program's
// expected outputs), without Python. And `etviz tensors PROGRAM`: statistics of constants.
// docs/numerics.md.
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/output.h"
#include "render/numerics_report.h"
#include "session/constant_stats.h"
#include "session/numerics_session.h"

namespace etviz::cli {
namespace {

struct NumericsCommandOptions {
  std::string file;
  std::string debug_buffer;
  std::string reference;
  std::string reference_debug_buffer;
  std::string pte;
  std::string method;
  std::vector<std::string> thresholds;
  int run = -1;
  int test_case = -1;
  std::string format = "table";
  std::string output;
};

int run_numerics(const NumericsCommandOptions& opt) {
  session::NumericsSessionOptions load;
  load.run = opt.file;
  load.debug_buffer = opt.debug_buffer;
  load.reference = opt.reference;
  load.reference_debug_buffer = opt.reference_debug_buffer;
  load.program = opt.pte;
  load.method = opt.method;
  load.run_index = opt.run;
  load.test_case = opt.test_case;
  if (!opt.thresholds.empty()) {
    load.analysis.thresholds.clear();
    for (const std::string& t : opt.thresholds) {
      auto parsed = analysis::parse_threshold(t);
      if (!parsed) return report_error(parsed.error());
      load.analysis.thresholds.push_back(*parsed);
    }
  }
  auto s = session::load_numerics_session(load);
  if (!s) return report_error(s.error());
  if (s->own_program) report_damage(*s->own_program, s->own_program->path());

  render::NumericsReportView view;
  view.report = &s->report;
  view.run_path = opt.file;
  view.run_label =
      fmt::format("{} (run {})", std::filesystem::path(opt.file).filename().string(), s->run_used);
  view.reference_path = opt.reference;
  view.reference_label = s->reference_label;
  view.reference_kind = s->reference_kind;
  if (s->program) {
    view.program_path = s->program->path();
    view.method = opt.method.empty() ? "forward" : opt.method;
    for (const auto& row : s->report.rows)
      if (!row.join.method.empty()) {
        view.method = row.join.method;
        break;
      }
  }
  view.warnings = s->warnings;
  if (opt.output.empty() || opt.output == "-") view.max_width = terminal_width();
  if (opt.format != "table")
    for (const auto& w : s->warnings) warn(w);
  std::string text;
  if (opt.format == "json")
    text = render::numerics_json(view);
  else if (opt.format == "csv")
    text = render::numerics_csv(view);
  else
    text = render::numerics_text(view);
  return write_output(opt.output, text,
                      opt.format == "json" ? OutputKind::kJson : OutputKind::kText);
}

struct TensorsCommandOptions {
  std::string file;
  std::vector<std::string> data;
  std::string name;
  int bins = 32;
  bool dequantize = false;
  std::string format = "table";
  std::string output;
};

int run_tensors(const TensorsCommandOptions& opt) {
  OpenOptions open;
  open.data_files = opt.data;
  auto doc = open_input(opt.file, open);
  if (!doc) return report_error(doc.error());
  session::ConstantStatsOptions options;
  options.name_glob = opt.name;
  options.bins = opt.bins;
  options.dequantize = opt.dequantize;
  auto stats = session::constant_stats(*doc, options);
  const std::vector<std::string> warnings = stats.warnings;
  std::vector<render::ConstantStatsRow> rows = session::constant_stats_rows(std::move(stats));
  if (opt.format != "json")
    for (const auto& w : warnings) warn(w);
  std::string text;
  if (opt.format == "json")
    text = render::constant_stats_json(rows, opt.file, warnings);
  else if (opt.format == "csv")
    text = render::constant_stats_csv(rows);
  else
    text = render::constant_stats_text(
        rows, opt.file, opt.output.empty() || opt.output == "-" ? terminal_width() : 0);
  return write_output(opt.output, text,
                      opt.format == "json" ? OutputKind::kJson : OutputKind::kText);
}

}  // namespace

void register_numerics(CLI::App& app) {
  auto opt = std::make_shared<NumericsCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "numerics",
      "Where accuracy is lost: a run's intermediate outputs (ETDump debug events) against a "
      "reference run's or a bundled program's, per operator (MSE, L1, SNR, cosine, max |Δ|), "
      "and the first divergent operator");
  cmd->add_option("file", opt->file, "The run's ETDump (.etdp) with debug events")->required();
  cmd->add_option("--debug-buffer", opt->debug_buffer,
                  "The run's debug buffer (the intermediate tensors' bytes)");
  cmd->add_option("--reference", opt->reference,
                  "The reference: another run's ETDump (.etdp), or a bundled program (.bpte) "
                  "whose expected outputs the run's method outputs are compared with")
      ->required();
  cmd->add_option("--reference-debug-buffer", opt->reference_debug_buffer,
                  "The reference run's debug buffer");
  cmd->add_option("--pte", opt->pte,
                  "The program both ran (.pte or .bpte): ops per row, scale and zero point of "
                  "quantized outputs");
  cmd->add_option("--method", opt->method,
                  "Method that ran (default: forward, or the only method)");
  cmd->add_option("--threshold", opt->thresholds,
                  "Divergent when METRIC crosses VALUE: snr=20 (the default: SNR below 20 dB), "
                  "mse=1e-4, l1=..., max_abs=..., cosine=0.999; repeat for several (any crossed "
                  "counts)");
  cmd->add_option("--run", opt->run,
                  "Which run of each ETDump to compare: the index among runs with debug events "
                  "(default: the first)")
      ->check(CLI::Range(0, 1 << 30));
  cmd->add_option("--test-case", opt->test_case,
                  "A bundled reference's test case (default: the run's bundled_input_index)")
      ->check(CLI::Range(0, 1 << 30));
  cmd->add_option("--format", opt->format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  cmd->add_option("-o,--output", opt->output, "Write to this file instead of stdout");
  add_budget_options(cmd);
  cmd->callback([opt] { set_exit_code(run_numerics(*opt)); });

  auto topt = std::make_shared<TensorsCommandOptions>();
  CLI::App* tensors = app.add_subcommand(
      "tensors",
      "Statistics of a program's constants (weights): min, max, mean, std, abs max, zeros, "
      "NaN/Inf, a histogram; for quantized weights the share at qmin/qmax");
  tensors->add_option("file", topt->file, "Program (.pte, .bpte) or weights file (.ptd)")
      ->required();
  tensors->add_option("--data", topt->data, "External weights (.ptd) of the program");
  tensors->add_option("--name", topt->name,
                      "Only constants whose name matches this glob (* matches any run)");
  tensors->add_option("--bins", topt->bins, "Histogram bins (JSON)")->check(CLI::Range(1, 4096));
  tensors->add_flag("--dequantize", topt->dequantize,
                    "Statistics of quantized weights after dequantization (scale, zero point)");
  tensors->add_option("--format", topt->format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  tensors->add_option("-o,--output", topt->output, "Write to this file instead of stdout");
  add_budget_options(tensors);
  tensors->callback([topt] { set_exit_code(run_tensors(*topt)); });
}

}  // namespace etviz::cli
