// `etviz diff A B [C ...]`: what changed between graphs (docs/diff.md). Each operand is a file
// etviz reads, optionally `FILE#GRAPH` (a method, stage, pass name or index); `--stages` takes
// every stage of one ETRecord (or every pass of one trace) in pipeline order.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/diff.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "formats/open_document.h"
#include "formats/trace/trace_reader.h"
#include "render/diff_report.h"
#include "render/html/html_page.h"
#include "render/json_text.h"
#include "render/value_diff_report.h"

namespace etviz::cli {
namespace {

struct DiffOptions {
  std::vector<std::string> operands;
  bool stages = false;
  render::DiffFormat format = render::DiffFormat::kTable;
  size_t limit = 40;
  std::string output;
  // .ptd weights: for every operand, for the first (A) only, for the second (B) only.
  std::vector<std::string> data, data_a, data_b;
};

// "model.pte#forward" -> ("model.pte", "forward"); a '#' that is part of an existing path is
// the path's.
std::pair<std::string, std::string> split_operand(const std::string& operand) {
  const auto hash = operand.rfind('#');
  if (hash == std::string::npos) return {operand, ""};
  std::error_code ec;
  if (std::filesystem::exists(operand, ec)) return {operand, ""};
  return {operand.substr(0, hash), operand.substr(hash + 1)};
}

// `-o PAGE.html`: one page that steps through the operands over their union (and shows them
// side by side in panes), coloured by what changed.
int write_page(const DiffOptions& opt, const std::vector<render::DiffOperand>& operands,
               bool name_by_file = false) {
  Document combined;
  combined.format = operands.front().doc->format;
  combined.format_version = operands.front().doc->format_version;
  std::vector<int32_t> steps;
  std::string files;
  for (const render::DiffOperand& o : operands) {
    const std::string file = std::filesystem::path(o.file).filename().string();
    if (files.find(file) == std::string::npos) files += (files.empty() ? "" : " \u2194 ") + file;
    // Name the step by file and graph when several files take part.
    const int32_t g = combined.absorb_graph(*o.doc, o.graph);
    Graph& graph = combined.graphs[static_cast<size_t>(g)];
    if (name_by_file)
      graph.name = std::filesystem::path(o.file).stem().string();
    else if (opt.operands.size() > 1 && !opt.stages)
      graph.name = file + "#" + graph.name;
    steps.push_back(g);
  }
  combined.properties.push_back({"compared", files});
  render::html::PageOptions page;
  page.file_name = files;
  // The header's size is that of the one file compared with itself (passes, stages, FILE#a
  // FILE#b); two files have no one size, and the page leaves it out.
  const bool one_file =
      std::all_of(operands.begin(), operands.end(),
                  [&](const render::DiffOperand& o) { return o.file == operands.front().file; });
  std::error_code ec;
  if (one_file) page.file_size = std::filesystem::file_size(operands.front().file, ec);
  if (ec) page.file_size = 0;
  auto html = render::html::write_timeline_page(combined, steps, page);
  if (!html) return report_error(html.error());
  return write_output(opt.output, *html, OutputKind::kPage);
}

using Documents = std::map<std::string, std::unique_ptr<Document>>;

// The graphs the operands name; documents by file, so FILE#a FILE#b reads FILE once.
Result<std::vector<render::DiffOperand>> load_operands(const DiffOptions& opt, Documents& docs) {
  std::vector<render::DiffOperand> operands;
  for (const std::string& operand : opt.operands) {
    auto [file, graph] = split_operand(operand);
    // Operands with other weights (--data-a/--data-b) are other documents of the same file.
    OpenOptions open;
    open.data_files = opt.data;
    const auto& side = operands.empty()       ? opt.data_a
                       : operands.size() == 1 ? opt.data_b
                                              : std::vector<std::string>{};
    open.data_files.insert(open.data_files.end(), side.begin(), side.end());
    std::string key = file;
    for (const std::string& d : open.data_files) key += "\n" + d;
    auto& slot = docs[key];
    if (!slot) {
      auto doc = open_input(file, open);
      if (!doc) return doc.error();
      slot = std::make_unique<Document>(std::move(*doc));
    }
    if (opt.stages) {
      for (int32_t g : analysis::pipeline_graphs(*slot)) operands.push_back({file, slot.get(), g});
      continue;
    }
    auto index = analysis::select_graph(*slot, graph);
    if (!index) return index.error().within(file);
    operands.push_back({file, slot.get(), *index});
  }
  if (operands.size() < 2)
    return Error(opt.stages
                     ? fmt::format("{}: --stages found {} graph{}; a diff needs two",
                                   opt.operands.front(), operands.size(),
                                   operands.size() == 1 ? "" : "s")
                     : std::string("a diff needs two graphs: etviz diff A B (or one ETRecord with "
                                   "--stages)"));
  return operands;
}

int run_diff(const DiffOptions& opt) {
  Documents docs;
  auto loaded = load_operands(opt, docs);
  if (!loaded) return report_error(loaded.error());
  const std::vector<render::DiffOperand>& operands = *loaded;
  // Whole programs (files named without #GRAPH): every method, values and the file's facts.
  bool whole = !opt.stages;
  for (size_t k = 0; k < operands.size() && whole; ++k)
    whole =
        split_operand(opt.operands[k]).second.empty() && render::is_whole_program(*operands[k].doc);
  if (std::filesystem::path(opt.output).extension() == ".html") return write_page(opt, operands);
  if (whole)
    return write_output(
        opt.output,
        render::program_diff_report(render::compare_programs(operands), opt.format, opt.limit),
        opt.format == render::DiffFormat::kJson ? OutputKind::kJson : OutputKind::kText);
  std::vector<analysis::GraphDiff> diffs;
  for (size_t k = 0; k + 1 < operands.size(); ++k) {
    diffs.push_back(analysis::diff_graphs(*operands[k].doc, operands[k].g(), *operands[k + 1].doc,
                                          operands[k + 1].g()));
    analysis::add_value_diff(*operands[k].doc, operands[k].g(), *operands[k + 1].doc,
                             operands[k + 1].g(), diffs.back());
  }
  return write_output(
      opt.output, render::diff_report(operands, diffs, opt.format, opt.limit),
      opt.format == render::DiffFormat::kJson ? OutputKind::kJson : OutputKind::kText);
}

struct TraceOptions {
  std::vector<std::string> files;
  std::string name;
  std::string output;
};

// `etviz trace A B C -o passes.json`: our trace format naming the snapshots in order (paths
// relative to the trace); `-o passes.html`: the page that steps through them.
int run_trace(const TraceOptions& opt) {
  if (opt.output.empty())
    return report_error(
        Error("name the trace with -o passes.json (a trace file) or -o "
              "passes.html (a page that steps through the snapshots)"));
  DiffOptions as_diff;
  as_diff.operands = opt.files;
  as_diff.output = opt.output;  // the page goes where -o says, as every command's output
  Documents docs;
  auto loaded = load_operands(as_diff, docs);  // every snapshot must open
  if (!loaded) return report_error(loaded.error());
  if (std::filesystem::path(opt.output).extension() == ".html")
    return write_page(as_diff, *loaded, /*name_by_file=*/true);
  namespace fs = std::filesystem;
  const fs::path base =
      opt.output == "-" ? fs::current_path() : fs::absolute(opt.output).parent_path();
  nlohmann::ordered_json trace;
  trace["format"] = std::string(trace::kTraceFormat);
  trace["model"] = opt.name.empty()
                       ? fs::path(split_operand(opt.files.front()).first).stem().string()
                       : opt.name;
  nlohmann::ordered_json passes = nlohmann::ordered_json::array();
  for (const std::string& operand : opt.files) {
    auto [file, graph] = split_operand(operand);
    std::error_code ec;
    const fs::path rel = fs::relative(fs::absolute(file), base, ec);
    // A trace reads only files in its folder (docs/limits.md), so it is written beside them.
    if (ec || rel.empty() || rel.is_absolute() || *rel.begin() == "..")
      return report_error(Error(fmt::format(
          "{}: outside the trace's folder {}; a trace reads only the files in its folder "
          "(docs/limits.md): write the trace beside its snapshots",
          terminal_safe(file), terminal_safe(base.string()))));
    nlohmann::ordered_json pass;
    pass["name"] = graph.empty() ? fs::path(file).stem().string() : graph;
    pass["file"] = rel.generic_string();
    if (!graph.empty()) pass["graph"] = graph;
    passes.push_back(std::move(pass));
  }
  trace["passes"] = std::move(passes);
  return write_output(opt.output, render::json_report(trace), OutputKind::kJson);
}

}  // namespace

void register_trace(CLI::App& app) {
  auto opt = std::make_shared<TraceOptions>();
  CLI::App* cmd = app.add_subcommand(
      "trace", "A pass trace from snapshots in order (.pt2, .pte, ETRecord, FILE#GRAPH)");
  cmd->add_option("snapshots", opt->files, "Two or more snapshots, in pass order")
      ->required()
      ->expected(2, -1);
  cmd->add_option("--name", opt->name, "The model's name in the trace (default: the first file's)");
  cmd->add_option("-o,--output", opt->output,
                  "passes.json: a trace file (etviz.trace/1, docs/diff.md) that names the "
                  "snapshots; passes.html: a page that steps through them")
      ->required();
  add_budget_options(cmd);
  cmd->callback([opt] { set_exit_code(run_trace(*opt)); });
}

void register_diff(CLI::App& app) {
  auto opt = std::make_shared<DiffOptions>();
  CLI::App* cmd = app.add_subcommand(
      "diff", "What changed between graphs: files, FILE#graph, or every stage of an ETRecord");
  cmd->add_option("graphs", opt->operands,
                  "Two or more of FILE or FILE#GRAPH (method, stage, pass name or index); "
                  "consecutive pairs are compared")
      ->required();
  cmd->add_flag("--stages", opt->stages,
                "Compare every stage of each file in pipeline order (an ETRecord: exported "
                "program -> ATen -> edge -> ...; a trace: its passes)");
  cmd->add_option("--format", opt->format, "table, json or markdown")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, render::DiffFormat>{{"table", render::DiffFormat::kTable},
                                                    {"json", render::DiffFormat::kJson},
                                                    {"markdown", render::DiffFormat::kMarkdown}},
          CLI::ignore_case));
  cmd->add_option("--limit", opt->limit, "Rows listed per section in table/markdown (default 40)");
  cmd->add_option("--data", opt->data,
                  "A .ptd with external weights, for every operand (repeatable)");
  cmd->add_option("--data-a", opt->data_a, "A .ptd with the first operand's weights (repeatable)");
  cmd->add_option("--data-b", opt->data_b, "A .ptd with the second operand's weights (repeatable)");
  cmd->add_option("-o,--output", opt->output,
                  "Write to this file instead of stdout; PAGE.html writes a page that steps "
                  "through the graphs and shows them side by side");
  add_budget_options(cmd);
  cmd->callback([opt] { set_exit_code(run_diff(*opt)); });
}

}  // namespace etviz::cli
