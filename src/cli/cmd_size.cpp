// `etviz size FILE [--depth N] [--format table|csv|json] [-o OUT]`: where the file's bytes go
// (analysis/size_tree.h), split exactly and attributed as far as the formats say.
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/size_tree.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "formats/open_document.h"
#include "render/json_text.h"
#include "render/table.h"

namespace etviz::cli {
namespace {

enum class SizeFormat { kTable, kCsv, kJson };

struct SizeOptions {
  std::string file;
  std::vector<std::string> data;
  int depth = 3;
  SizeFormat format = SizeFormat::kTable;
  std::string output;
};

nlohmann::ordered_json to_json(const analysis::SizeNode& n) {
  nlohmann::ordered_json j = {{"name", n.name}, {"kind", n.kind}, {"bytes", n.bytes}};
  if (!n.children.empty()) {
    nlohmann::ordered_json c = nlohmann::ordered_json::array();
    for (const auto& child : n.children) c.push_back(to_json(child));
    j["children"] = std::move(c);
  }
  return j;
}

void rows(const analysis::SizeNode& n, uint64_t total, int depth, int max_depth,
          const std::string& path, render::Table& t, bool csv) {
  const std::string share = total ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(n.bytes) /
                                                               static_cast<double>(total))
                                  : "-";
  t.add_row({csv ? path : std::string(static_cast<size_t>(2 * depth), ' ') + n.name,
             csv ? std::to_string(n.bytes) : render::with_thousands(static_cast<int64_t>(n.bytes)),
             csv ? std::to_string(n.bytes * 1.0 / std::max<uint64_t>(total, 1)) : share, n.kind});
  if (depth + 1 >= max_depth && !csv) return;
  for (const auto& c : n.children)
    rows(c, total, depth + 1, max_depth, path + "/" + c.name, t, csv);
}

int run_size(const SizeOptions& opt) {
  OpenOptions open;
  open.data_files = opt.data;
  auto doc = open_input(opt.file, open);
  if (!doc) return report_error(doc.error());
  analysis::SizeNode tree = analysis::size_tree(*doc);
  tree.name = std::filesystem::path(opt.file).filename().string();
  if (opt.format == SizeFormat::kJson) {
    nlohmann::ordered_json j = {{"format", "etviz.size/1"},
                                {"file", tree.name},
                                {"bytes", tree.bytes},
                                {"tree", to_json(tree)}};
    return write_output(opt.output, render::json_report(j), OutputKind::kJson);
  }
  const bool csv = opt.format == SizeFormat::kCsv;
  render::Table t(
      {csv ? "path" : "part", "bytes", csv ? "fraction" : "share", "kind"},
      {render::Align::kLeft, render::Align::kRight, render::Align::kRight, render::Align::kLeft});
  t.set_shrinkable({0});
  rows(tree, tree.bytes, 0, opt.depth, tree.name, t, csv);
  if (csv) return write_output(opt.output, t.to_csv());
  return write_output(
      opt.output,
      t.to_text("", opt.output.empty() || opt.output == "-" ? terminal_width() : 0) +
          fmt::format("(--depth {} levels; --depth 9 or --format json for all)\n", opt.depth));
}

}  // namespace

void register_size(CLI::App& app) {
  auto opt = std::make_shared<SizeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "size",
      "Where the file's bytes go: sections, constants by module, delegate payloads, named data");
  cmd->add_option("file", opt->file, "Program (.pte), bundled program, .ptd, .pt2, ...")
      ->required();
  add_program_files(cmd, &opt->data, nullptr);
  cmd->add_option("--depth", opt->depth, "Levels of the tree in the table (default 3)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--format", opt->format, "table, csv (every part, with its path) or json")
      ->transform(
          CLI::CheckedTransformer(std::map<std::string, SizeFormat>{{"table", SizeFormat::kTable},
                                                                    {"csv", SizeFormat::kCsv},
                                                                    {"json", SizeFormat::kJson}},
                                  CLI::ignore_case));
  cmd->add_option("-o,--output", opt->output, "Write to this file instead of stdout");
  add_budget_options(cmd);
  cmd->callback([opt] { set_exit_code(run_size(*opt)); });
}

}  // namespace etviz::cli
