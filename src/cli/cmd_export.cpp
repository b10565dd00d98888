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

#include "cli/commands.h"
#include "cli/output.h"
#include "core/text.h"
#include "formats/open_document.h"
#include "render/export/model_explorer_json.h"
#include "render/export/overlays.h"
#include "render/export/picture.h"
#include "render/graph_json.h"
#include "session/page_options.h"
#include "session/view_session.h"
#include "view/view_model.h"

namespace etviz::cli {
namespace {

namespace pic = render::picture;

struct ExportOptions {
  std::string file;
  std::string output;
  std::string format;  // empty: from the output's extension, else svg
  std::string expand = "initial";
  std::string theme = "light";
  std::optional<double> scale;
  bool shapes = false;
  bool quiet = false;
  // What the picture shows, as the page takes it (session/page_options.h: --data, categories,
  // groups, node data and the profile drawn in); --method is its graph (Request::graph).
  view::Request request;
  std::string heat = "avg";
  std::string heat_scale = "linear";
  // PDF pagination.
  std::string pages = "auto";
  std::string paper = "a4";
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

// The session reports through a plain function, as `etviz view`'s does.
Progress g_progress;
void progress(const std::string& what) {
  g_progress(what);
}

// Where the node data beside a graph JSON goes: model.json -> model.node_data.json.
std::string node_data_path(const std::string& graph_json) {
  std::filesystem::path p(graph_json);
  if (p.extension() == ".json") p.replace_extension();
  return p.string() + ".node_data.json";
}

int run_export(const ExportOptions& opt) {
  g_progress = Progress(opt.quiet);
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
  options.pages = opt.pages == "one"     ? pic::PictureOptions::Pages::kOne
                  : opt.pages == "paged" ? pic::PictureOptions::Pages::kPaged
                                         : pic::PictureOptions::Pages::kAuto;
  if (!pic::parse_paper(opt.paper, options.paper))
    return report_error(Error(fmt::format("--paper {}: expected a4, letter or a3", opt.paper)));

  OpenOptions open;
  open.data_files = opt.request.data;
  open.tosa_files = opt.request.tosa;
  auto doc = open_input(opt.file, open);
  if (!doc) return report_error(doc.error());
  g_progress("read " + opt.file);
  // What the options ask for is checked before any side file is read.
  const bool profile = !opt.request.profile.etdump.empty();
  const bool node_data = !opt.request.node_data.empty();
  if (profile && node_data)
    return report_error(Error(
        "--etdump and --node-data both colour the nodes; a picture shows one of them (the page "
        "shows both: `etviz view`)"));
  if (options.format == pic::ExportFormat::kMeJson && node_data)
    return report_error(
        Error("--node-data colours pictures (svg, png, pdf, dot); Model Explorer loads a node data "
              "file itself, beside the graph JSON"));
  view::HeatMode heat{};
  if (!view::parse_heat_mode(opt.heat, heat))
    return report_error(Error(fmt::format("--heat {}: expected avg, p90 or share", opt.heat)));
  if (options.format == pic::ExportFormat::kGraphJson && (profile || node_data))
    return report_error(Error(
        "graph-json writes the file's graphs as read; --etdump and --node-data colour pictures"));
  auto shown =
      session::resolve_view({{&*doc, std::filesystem::path(opt.file).filename().string(), 0}},
                            opt.request, session::kExportCommand, &progress);
  if (!shown) return report_error(shown.error());
  if (!opt.quiet)
    for (const auto& w : shown->warnings) warn(w);
  const int32_t graph = shown->graph;
  if (graph < 0) return report_error(Error(opt.file + ": holds no graph to draw"));
  if (auto fits = view::view_within_budget(*doc, graph); !fits)
    return report_error(fits.error().within(opt.file));
  const analysis::CategoryConfig& categories = shown->categories;
  const std::string out = opt.output.empty() ? std::filesystem::path(opt.file).stem().string() +
                                                   "." + pic::file_extension(options.format)
                                             : opt.output;
  if (options.format == pic::ExportFormat::kGraphJson) {
    render::GraphJsonOptions gj;
    gj.path = opt.file;
    if (!opt.request.graph.empty()) gj.graphs = {graph};
    const std::string json = render::graph_json(*doc, gj);
    if (int rc = write_output(out, json, OutputKind::kJson); rc != 0) return rc;
    report_written(out, json.size(), "etviz graph JSON", opt.quiet);
    return 0;
  }
  if (options.format == pic::ExportFormat::kMeJson) {
    render::MeJsonOptions me;
    me.label = std::filesystem::path(opt.file).filename().string();
    if (!opt.request.graph.empty()) me.graphs = {graph};
    render::MeJsonStats stats;
    const std::string json = render::model_explorer_json(*doc, me, &stats);
    if (int rc = write_output(out, json, OutputKind::kJson); rc != 0) return rc;
    report_written(out, json.size(),
                   fmt::format("Model Explorer graph JSON: {} graphs, {} nodes, {} edges",
                               stats.graphs, stats.nodes, stats.edges),
                   opt.quiet);
    if (!profile) return 0;
    // The profile as Model Explorer node data beside the graph JSON, naming its ids.
    if (out == "-")
      return report_error(
          Error("--etdump with me-json writes the profile as node data beside the graph JSON: name "
                "the graph JSON with -o FILE.json"));
    const auto model = view::build_view_model(*doc, graph, categories, shown->options);
    size_t valued = 0;
    const std::string nd =
        pic::profile_me_node_data(shown->profile->overlay, *doc, model, heat, stats.ids, &valued);
    const std::string nd_path = node_data_path(out);
    if (int rc = write_output(nd_path, nd, OutputKind::kJson); rc != 0) return rc;
    if (!opt.quiet)
      std::fprintf(stderr, "etviz: wrote %s (Model Explorer node data: %zu nodes, %s%s)\n",
                   terminal_safe(nd_path).c_str(), valued, opt.heat.c_str(),
                   heat == view::HeatMode::kShare
                       ? " share of Method::execute"
                       : fmt::format(" in {}", shown->profile->overlay.scale.label()).c_str());
    return 0;
  }
  const auto model = view::build_view_model(*doc, graph, categories, shown->options);
  g_progress(fmt::format("laid out {} boxes", model.nodes.size()));
  const pic::Palette palette = pic::palette(options.theme, categories);
  pic::PictureOverlay overlay;
  if (shown->node_data) overlay = pic::node_data_picture_overlay(*shown->node_data, model, palette);
  if (profile) {
    overlay = pic::profile_picture_overlay(
        shown->profile->overlay, *doc, model, heat,
        opt.heat_scale == "log" ? analysis::HeatScale::kLog : analysis::HeatScale::kLinear,
        options.theme, palette);
  }
  if (overlay.active()) options.overlay = &overlay;
  options.title = std::filesystem::path(opt.file).filename().string() + " \u00b7 " +
                  doc->graphs[static_cast<size_t>(graph)].name;
  auto picture = pic::write_picture(*doc, model, categories, options);
  if (!picture) return report_error(picture.error().within(opt.file));
  const bool binary =
      options.format == pic::ExportFormat::kPng || options.format == pic::ExportFormat::kPdf;
  if (!picture->note.empty()) warn(picture->note);
  if (binary && picture->pages == 1 && picture->scale < options.scale)
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
  report_written(
      out, picture->bytes.size(),
      fmt::format("{} boxes, {} groups, {} edges{}", picture->nodes, picture->groups,
                  picture->edges,
                  options.format == pic::ExportFormat::kDot ? ""
                  : picture->pages > 1
                      ? fmt::format(", {} pages of {:.0f} x {:.0f} pt at scale {:.3g}",
                                    picture->pages, picture->width, picture->height, picture->scale)
                      : fmt::format(", {:.0f} x {:.0f} {}", picture->width, picture->height,
                                    options.format == pic::ExportFormat::kPdf ? "pt" : "px")),
      opt.quiet);
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
                      " (me-json: Model Explorer graph JSON, every graph, delegate payloads "
                      "linked; graph-json: etviz's own, every node, value and tensor as read, "
                      "docs/cli.md); default: from -o's extension (.json: me-json), else svg");
  cmd->add_option("--method", opt->request.graph,
                  "Which graph: a method, stage or graph name (default: the graph the page "
                  "opens on: forward, else the largest; me-json and graph-json: every graph)");
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
  add_page_options(cmd, opt->request, session::kExportCommand);
  cmd->add_option("--heat", opt->heat,
                  "What the heat colours measure: avg (default), p90 or share of "
                  "Method::execute")
      ->check(CLI::IsMember({"avg", "p90", "share"}));
  cmd->add_option("--heat-scale", opt->heat_scale,
                  "linear (default) or log (each colour step the same factor)")
      ->check(CLI::IsMember({"linear", "log"}));
  cmd->add_option("--pages", opt->pages,
                  "PDF: auto (default: pages of --paper when one page would shrink the "
                  "drawing below half size), one, or paged")
      ->check(CLI::IsMember({"auto", "one", "paged"}));
  cmd->add_option("--paper", opt->paper, "PDF page size when paged: a4 (default), letter, a3")
      ->check(CLI::IsMember({"a4", "letter", "a3"}));
  cmd->add_flag("-q,--quiet", opt->quiet, "No progress or summary on stderr");
  add_budget_options(cmd);
  cmd->callback([opt] { set_exit_code(run_export(*opt)); });
}

}  // namespace etviz::cli
