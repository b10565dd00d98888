#include "render/export/picture.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "render/export/cairo_painter.h"
#include "render/export/svg_painter.h"

namespace etviz::render::picture {
namespace {

std::string dot_colour(const Colour& c) {
  if (c.a >= 1) return c.hex();
  return fmt::format("{}{:02x}", c.hex(), static_cast<int>(std::lround(c.a * 255)));
}

std::vector<std::string> node_titles(const Document& doc, const view::ViewModel& model) {
  std::vector<std::string> out;
  out.reserve(model.nodes.size());
  for (const view::ViewNode& vn : model.nodes) {
    const Node& n = doc.graphs[static_cast<size_t>(vn.graph)].nodes[static_cast<size_t>(vn.node)];
    out.push_back(n.op.empty() || n.op == n.name ? n.name : n.name + " (" + n.op + ")");
  }
  return out;
}

}  // namespace

const char* to_string(ExportFormat f) {
  switch (f) {
    case ExportFormat::kSvg:
      return "svg";
    case ExportFormat::kPng:
      return "png";
    case ExportFormat::kPdf:
      return "pdf";
    case ExportFormat::kDot:
      return "dot";
    case ExportFormat::kMeJson:
      return "me-json";
    case ExportFormat::kGraphJson:
      return "graph-json";
  }
  return "?";
}

const char* file_extension(ExportFormat f) {
  return f == ExportFormat::kMeJson || f == ExportFormat::kGraphJson ? "json" : to_string(f);
}

bool parse_export_format(std::string_view name, ExportFormat& out) {
  const bool extension = !name.empty() && name.front() == '.';
  if (extension) name.remove_prefix(1);
  for (ExportFormat f : kExportFormats) {
    if (name == (extension ? file_extension(f) : to_string(f))) {
      out = f;
      return true;
    }
  }
  if (name == "gv") {
    out = ExportFormat::kDot;
    return true;
  }
  return false;
}

std::string export_format_list() {
  std::string s;
  const size_t n = std::size(kExportFormats);
  for (size_t i = 0; i < n; ++i)
    s += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + to_string(kExportFormats[i]);
  return s;
}

std::string dot_quote(std::string_view text) {
  const std::string valid = invisible_as_references(printable_utf8(text));
  std::string out = "\"";
  for (char c : valid) {
    if (c == '"' || c == '\\')
      out += {'\\', c};
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out + "\"";
}

std::string dot_text(const Document& doc, const view::ViewModel& model,
                     const std::vector<bool>& expanded, const Palette& pal, bool edge_labels,
                     const PictureOverlay* overlay) {
  const size_t ng = model.groups.size();
  // The outermost collapsed group around each group (itself included), or -1: what stands
  // for everything inside it.
  std::vector<int32_t> folded(ng, -1);
  for (size_t g = 0; g < ng; ++g)
    for (int32_t p = static_cast<int32_t>(g), steps = 0;
         p >= 0 && steps <= static_cast<int32_t>(ng);
         p = model.groups[static_cast<size_t>(p)].parent, ++steps)
      if (!expanded[static_cast<size_t>(p)]) folded[g] = p;
  auto node_id = [&](int32_t n) {
    const int32_t g = model.nodes[static_cast<size_t>(n)].group;
    const int32_t f = g >= 0 ? folded[static_cast<size_t>(g)] : -1;
    return f >= 0 ? fmt::format("g{}", f) : fmt::format("n{}", n);
  };

  std::vector<std::vector<int32_t>> child_groups(ng + 1), child_nodes(ng + 1);
  auto slot = [&](int32_t g) { return g < 0 ? ng : static_cast<size_t>(g); };
  for (size_t g = 0; g < ng; ++g) child_groups[slot(model.groups[g].parent)].push_back(g);
  for (size_t i = 0; i < model.nodes.size(); ++i)
    child_nodes[slot(model.nodes[i].group)].push_back(static_cast<int32_t>(i));
  const auto titles = node_titles(doc, model);

  std::string out;
  out.reserve(model.nodes.size() * 120 + 256);
  const Graph& root = doc.graphs[static_cast<size_t>(model.root_graph)];
  out += fmt::format("digraph {} {{\n", dot_quote(root.name));
  out += fmt::format(
      "  graph [rankdir=TB, bgcolor=\"{}\", fontname=\"Helvetica\", fontsize=11, "
      "fontcolor=\"{}\", nodesep=0.25, ranksep=0.35];\n",
      dot_colour(pal.canvas_bg), dot_colour(pal.muted));
  out += fmt::format(
      "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=12, "
      "fontcolor=\"{}\", height=0.35];\n",
      dot_colour(pal.text));
  out += fmt::format(
      "  edge [color=\"{}\", arrowsize=0.6, fontname=\"Helvetica\", fontsize=9, "
      "fontcolor=\"{}\"];\n",
      dot_colour(pal.edge), dot_colour(pal.muted));

  auto emit_node = [&](int32_t i, const std::string& indent) {
    const view::ViewNode& n = model.nodes[static_cast<size_t>(i)];
    const auto c = static_cast<size_t>(n.category);
    Palette::CategoryStyle st =
        c < pal.categories.size() ? pal.categories[c] : Palette::CategoryStyle{};
    std::string font;
    if (overlay && overlay->active()) {
      const auto k = static_cast<size_t>(i);
      const NodeStyle& o = k < overlay->node_styles.size() && overlay->node_styles[k]
                               ? *overlay->node_styles[k]
                               : overlay->unstyled;
      st = {o.fill, o.stroke};
      font = fmt::format(", fontcolor=\"{}\"", dot_colour(o.text));
    }
    out += fmt::format("{}n{} [label={}, tooltip={}, fillcolor=\"{}\", color=\"{}\"{}];\n", indent,
                       i, dot_quote(n.label), dot_quote(titles[static_cast<size_t>(i)]),
                       dot_colour(st.fill), dot_colour(st.stroke), font);
  };
  std::function<void(size_t, const std::string&)> emit_group = [&](size_t g,
                                                                   const std::string& indent) {
    const view::ViewGroup& vg = model.groups[g];
    if (!expanded[g]) {
      const std::string label = vg.badge.empty() ? vg.label : vg.label + "\n" + vg.badge;
      const Colour fill =
          vg.owner >= 0 ? pal.categories[static_cast<size_t>(
                                             model.nodes[static_cast<size_t>(vg.owner)].category)]
                              .fill
                        : pal.collapsed_fill;
      out += fmt::format(
          "{}g{} [label={}, tooltip={}, fillcolor=\"{}\", color=\"{}\", peripheries=2, "
          "fontname=\"Helvetica-Bold\", fontsize=11];\n",
          indent, g, dot_quote(label), dot_quote(vg.name), dot_colour(fill),
          dot_colour(pal.collapsed_stroke));
      return;
    }
    out += fmt::format("{}subgraph cluster_g{} {{\n", indent, g);
    const std::string inner = indent + "  ";
    out += fmt::format(
        "{}label={}; tooltip={}; labeljust=l; style=\"rounded,filled\"; fillcolor=\"{}\"; "
        "color=\"{}\"; fontname=\"Helvetica-Bold\";\n",
        inner, dot_quote(vg.label), dot_quote(vg.name),
        dot_colour(vg.owner >= 0 ? pal.delegate_fill : pal.frame_fill),
        dot_colour(pal.frame_stroke));
    for (int32_t i : child_nodes[g]) emit_node(i, inner);
    for (int32_t c : child_groups[g]) emit_group(static_cast<size_t>(c), inner);
    out += indent + "}\n";
  };
  for (int32_t i : child_nodes[ng]) emit_node(i, "  ");
  for (int32_t g : child_groups[ng]) emit_group(static_cast<size_t>(g), "  ");

  const std::vector<std::string> labels =
      edge_labels ? value_labels(doc, model) : std::vector<std::string>{};
  std::set<std::tuple<std::string, std::string, int32_t>> seen;
  for (const view::ViewEdge& e : model.edges) {
    const std::string a = node_id(e.source), b = node_id(e.target);
    if (a == b || !seen.insert({a, b, e.value}).second) continue;
    std::string attrs;
    if (e.structural) attrs += "style=dashed, arrowhead=none";
    if (e.detached) attrs += std::string(attrs.empty() ? "" : ", ") + "style=dotted";
    if (edge_labels && e.value >= 0 && static_cast<size_t>(e.value) < labels.size() &&
        !labels[static_cast<size_t>(e.value)].empty())
      attrs += std::string(attrs.empty() ? "" : ", ") +
               "label=" + dot_quote(labels[static_cast<size_t>(e.value)]);
    out += fmt::format("  {} -> {}{};\n", a, b, attrs.empty() ? "" : " [" + attrs + "]");
  }
  out += "}\n";
  return out;
}

Result<PictureResult> write_picture(const Document& doc, const view::ViewModel& model,
                                    const analysis::CategoryConfig& categories,
                                    const PictureOptions& options) {
  PictureResult result;
  Scene scene = make_scene(model, options.expand);
  const Palette pal = palette(options.theme, categories);
  const layout::Layout& L = scene.layout;
  for (size_t i = 0; i < model.nodes.size() && i < L.nodes.size(); ++i)
    result.nodes += drawn(L.nodes[i]) ? 1 : 0;
  for (size_t g = 0; g < model.groups.size() && g < L.groups.size(); ++g) {
    const int32_t p = model.groups[g].parent;
    result.groups += drawn(L.groups[g]) && (p < 0 || scene.expanded[static_cast<size_t>(p)]);
  }
  for (const layout::EdgeRoute& e : L.edges) result.edges += e.point_count >= 2 ? 1 : 0;

  if (options.format == ExportFormat::kDot) {
    result.bytes = dot_text(doc, model, scene.expanded, pal, options.edge_labels, options.overlay);
    return result;
  }
  DrawOptions draw_options;
  draw_options.overlay = options.overlay;
  draw_options.theme = options.theme;
  draw_options.edge_labels = options.edge_labels;
  if (options.edge_labels) draw_options.value_labels = value_labels(doc, model);
  draw_options.node_titles = node_titles(doc, model);
  const double w = picture_width(L, draw_options);
  const double h = picture_height(L, draw_options);
  std::unique_ptr<Painter> painter;
  switch (options.format) {
    case ExportFormat::kSvg:
      draw_options.scale = options.scale;
      painter = make_svg_painter();
      break;
    case ExportFormat::kPng:
      draw_options.scale = fit_scale(CairoTarget::kPng, w, h, options.scale);
      painter = make_cairo_painter(CairoTarget::kPng);
      break;
    case ExportFormat::kPdf: {
      draw_options.scale = fit_scale(CairoTarget::kPdf, w, h, options.scale);
      const bool paged = options.pages == PictureOptions::Pages::kPaged ||
                         (options.pages == PictureOptions::Pages::kAuto &&
                          draw_options.scale < 0.5 * options.scale);
      if (paged) {
        // As large as asked, narrowed so the drawing fills a whole number of columns, the
        // fewest that keep it at half size or more (no column is left mostly empty).
        PdfPaging paging = pdf_paging(options.paper, 1, 1);
        double s = options.scale;
        for (int columns = 1; columns < 1000; ++columns) {
          const double fit =
              (columns * paging.tile_width() - (columns - 1) * paging.overlap) / std::max(w, 1.0);
          s = std::min(options.scale, fit);
          if (s >= 0.5 * options.scale) break;
        }
        paging = pdf_paging(options.paper, w * s, h * s);
        const int wanted = paging.pages();
        // Too many pages at half size: smaller, down to what fits the page limit, which is
        // still far larger than one page could show.
        while (paging.pages() > kMaxPdfPages && s > draw_options.scale) {
          s = std::max(s * 0.9, draw_options.scale);
          paging = pdf_paging(options.paper, w * s, h * s);
        }
        if (paging.pages() <= kMaxPdfPages && s > draw_options.scale) {
          if (wanted != paging.pages())
            result.note = fmt::format(
                "at half size the drawing would need {} pages (the limit is {}); drawn at scale "
                "{:.3g} on {} pages (for every detail use SVG, or --expand a smaller part)",
                wanted, kMaxPdfPages, s, paging.pages());
          paging.title = options.title;
          draw_options.scale = s;
          painter = make_paged_pdf_painter(paging);
          result.pages = paging.pages();
          result.width = paging.page_width;
          result.height = paging.page_height;
          break;
        }
      }
      painter = make_cairo_painter(CairoTarget::kPdf);
      break;
    }
    case ExportFormat::kDot:
    case ExportFormat::kMeJson:
    case ExportFormat::kGraphJson:
      return Error(fmt::format("{} is not a picture", to_string(options.format)));
  }
  auto bytes = draw(scene, pal, draw_options, *painter);
  if (!bytes) return bytes.error();
  result.bytes = std::move(*bytes);
  result.scale = draw_options.scale;
  if (result.pages == 1) {
    result.width = std::ceil(w * draw_options.scale);
    result.height = std::ceil(h * draw_options.scale);
  }
  return result;
}

}  // namespace etviz::render::picture
