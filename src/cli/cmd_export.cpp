// `etviz export FILE [-o OUT] [--format svg|png|pdf|dot|me-json]`: the graph as a picture drawn
// as the page draws it, as Graphviz DOT, or the file's graphs as Model Explorer graph JSON;
// headless, no browser (docs/export.md).
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "analysis/categories.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "core/text.h"
#include "formats/open_document.h"
#include "render/export/model_explorer_json.h"
#include "render/export/picture.h"
#include "render/html/view_model.h"
#include "session/page_session.h"

namespace etviz::cli {
namespace {

namespace pic = render::picture;

struct ExportOptions {
  std::string file;
  std::string output;
  std::string format;  // empty: from the output's extension, else svg
  std::string method;  // which top-level graph (default: the first)
  std::string expand = "initial";
  std::string theme = "light";
  std::optional<double> scale;
  bool shapes = false;
  std::vector<std::string> data;
  std::string categories;
  std::string groups;
  bool quiet = false;
};

Result<pic::ExpandRequest> parse_expand(const std::string& text) {
  if (text == "initial") return pic::ExpandRequest{pic::ExpandMode::kInitial, 0};
  if (text == "all") return pic::ExpandRequest{pic::ExpandMode::kAll, 0};
  if (text == "none") return pic::ExpandRequest{pic::ExpandMode::kNone, 0};
  int depth = -1;
  try {
    size_t used = 0;
    depth = std::stoi(text, &used);
    if (used != text.size()) depth = -1;
  } catch (const std::exception&) {
    depth = -1;
  }
  if (depth < 0 || depth > 64)
    return Error(fmt::format(
        "--expand {}: expected all, none, initial (the page's first view) or a depth 0..64", text));
  return pic::ExpandRequest{pic::ExpandMode::kDepth, depth};
}

int run_export(const ExportOptions& opt) {
  const Progress progress(opt.quiet);
  pic::PictureOptions options;
  const std::string ext = std::filesystem::path(opt.output).extension().string();
  if (!opt.format.empty()) {
    if (!pic::parse_export_format(opt.format, options.format))
      return report_error(
          Error(fmt::format("--format {}: expected {}", opt.format, pic::export_format_list())));
  } else if (!opt.output.empty() && opt.output != "-" &&
             !pic::parse_export_format(ext, options.format)) {
    return report_error(Error(fmt::format(
        "-o {}: cannot tell the format from '{}'; name it .svg, .png, .pdf, .dot or .json (Model "
        "Explorer), or give --format",
        opt.output, ext)));
  }
  auto expand = parse_expand(opt.expand);
  if (!expand) return report_error(expand.error());
  options.expand = *expand;
  options.theme = opt.theme == "dark" ? pic::Theme::kDark : pic::Theme::kLight;
  options.scale = opt.scale.value_or(options.format == pic::ExportFormat::kPng ? 2.0 : 1.0);
  options.edge_labels = opt.shapes;

  OpenOptions open;
  open.data_files = opt.data;
  auto doc = open_document(opt.file, open);
  if (!doc) return report_error(doc.error());
  progress("read " + opt.file);
  analysis::CategoryConfig categories = analysis::default_category_config();
  if (!opt.categories.empty()) {
    auto c = analysis::load_category_config(opt.categories);
    if (!c) return report_error(c.error());
    categories = std::move(*c);
  }
  render::html::ViewOptions view;
  if (!opt.groups.empty()) {
    auto partitions = session::load_partitions(opt.groups);
    if (!partitions) return report_error(partitions.error());
    view.partitions = std::move(*partitions);
  }
  const std::vector<int32_t> tops = render::html::top_level_graphs(*doc);
  int32_t graph = tops.empty() ? -1 : tops.front();
  if (!opt.method.empty()) {
    graph = -1;
    for (int32_t g : tops)
      if (doc->graphs[static_cast<size_t>(g)].name == opt.method) graph = g;
    if (graph < 0)
      return report_error(Error(fmt::format("{}: no graph '{}' (graphs: {})", opt.file, opt.method,
                                            doc->top_level_names())));
  }
  if (graph < 0) return report_error(Error(opt.file + ": holds no graph to draw"));
  const std::string out = opt.output.empty() ? std::filesystem::path(opt.file).stem().string() +
                                                   "." + pic::file_extension(options.format)
                                             : opt.output;
  if (options.format == pic::ExportFormat::kMeJson) {
    render::MeJsonOptions me;
    me.label = std::filesystem::path(opt.file).filename().string();
    if (!opt.method.empty()) me.graphs = {graph};
    render::MeJsonStats stats;
    const std::string json = render::model_explorer_json(*doc, me, &stats);
    if (int rc = write_output(out, json, OutputKind::kJson); rc != 0) return rc;
    if (!opt.quiet && out != "-")
      std::fprintf(
          stderr,
          "etviz: wrote %s (%s, Model Explorer graph JSON: %zu graphs, %zu nodes, %zu edges)\n",
          terminal_safe(out).c_str(), fmt::format("{:.1f} KiB", json.size() / 1024.0).c_str(),
          stats.graphs, stats.nodes, stats.edges);
    return 0;
  }
  const auto model = render::html::build_view_model(*doc, graph, categories, view);
  progress(fmt::format("laid out {} boxes", model.nodes.size()));
  auto picture = pic::write_picture(*doc, model, categories, options);
  if (!picture) return report_error(picture.error().within(opt.file));
  const bool binary =
      options.format == pic::ExportFormat::kPng || options.format == pic::ExportFormat::kPdf;
  if (binary && picture->scale < options.scale)
    warn(fmt::format(
        "the drawing is {:.0f} x {:.0f} at --scale {}; drawn at scale {:.3g} to stay within "
        "{} (for every detail use SVG, or --expand a smaller part)",
        picture->width / picture->scale * options.scale,
        picture->height / picture->scale * options.scale, options.scale, picture->scale,
        options.format == pic::ExportFormat::kPng ? "16384 px a side and 64 megapixels"
                                                  : "14400 pt a side"));
  if (int rc = write_output(out, picture->bytes, binary ? OutputKind::kBinary : OutputKind::kPage);
      rc != 0)
    return rc;
  if (!opt.quiet && out != "-")
    std::fprintf(stderr, "etviz: wrote %s (%s, %zu boxes, %zu groups, %zu edges%s)\n",
                 terminal_safe(out).c_str(),
                 fmt::format("{:.1f} KiB", picture->bytes.size() / 1024.0).c_str(), picture->nodes,
                 picture->groups, picture->edges,
                 options.format == pic::ExportFormat::kDot
                     ? ""
                     : fmt::format(", {:.0f} x {:.0f} {}", picture->width, picture->height,
                                   options.format == pic::ExportFormat::kPdf ? "pt" : "px")
                           .c_str());
  return 0;
}

}  // namespace

void register_export(CLI::App& app) {
  auto opt = std::make_shared<ExportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "export",
      "Write the graph as a picture (SVG, PNG, PDF) drawn as the page draws it, as Graphviz DOT, "
      "or as Model Explorer graph JSON");
  cmd->add_option("file", opt->file, "Program (.pte), bundled program, .pt2, .etrecord, trace")
      ->required();
  cmd->add_option("-o,--output", opt->output,
                  "File to write; its extension picks the format (default: FILE's name + "
                  ".svg; - for stdout)");
  cmd->add_option("--format", opt->format,
                  pic::export_format_list() +
                      " (Model Explorer graph JSON: every graph, delegate payloads linked); "
                      "default: from -o's extension, else svg");
  cmd->add_option("--method", opt->method,
                  "Which graph: a method or top-level graph name (default: the first; me-json: "
                  "every graph)");
  cmd->add_option("--expand", opt->expand,
                  "Open groups: initial (the page's first view; default), all, none, or a depth "
                  "N (groups less deep than N)");
  cmd->add_option("--theme", opt->theme, "light (default) or dark")
      ->check(CLI::IsMember({"light", "dark"}));
  cmd->add_option("--scale", opt->scale,
                  "Output units per layout unit (default 2 for PNG, else 1); PNG and PDF are "
                  "capped, with a warning, at 16384 px / 14400 pt a side")
      ->check(CLI::Range(0.05, 16.0));
  cmd->add_flag("--shapes", opt->shapes, "Tensor shapes on edges, as the page's shape labels");
  cmd->add_option("--data", opt->data,
                  "FlatTensor data file (.ptd) with the program's external tensors");
  cmd->add_option("--categories", opt->categories,
                  "JSON file overriding op categories and colours (see docs/viewer.md)");
  cmd->add_option("--groups", opt->groups,
                  "JSON {node name: group name}: nodes of one group become one box");
  cmd->add_flag("-q,--quiet", opt->quiet, "No progress or summary on stderr");
  add_budget_options(cmd);
  cmd->callback([opt] { set_exit_code(run_export(*opt)); });
}

}  // namespace etviz::cli
