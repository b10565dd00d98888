#pragma once
// A graph drawn as the page draws it (web/src/render.js at full detail): expanded groups as
// framed boxes with their title, collapsed groups as a stacked box with label and size badge,
// nodes coloured by category with a strip and their label, edges as routed polylines with
// arrowheads, optionally tensor shapes on edges. One routine for every picture format; the
// Painter decides the encoding.
#include <optional>
#include <string>
#include <vector>

#include "analysis/categories.h"
#include "layout/layout.h"
#include "render/export/painter.h"
#include "view/view_model.h"

namespace etviz::render::picture {

enum class Theme : uint8_t { kLight, kDark };

// The page's colours (web/src/viewer.css custom properties of the same names; a test keeps
// the two equal) and the category colours mixed as the page mixes them.
struct Palette {
  Colour canvas_bg, text, muted, edge, frame_fill, frame_stroke, collapsed_fill, collapsed_stroke,
      delegate_fill, qdq, label_bg;
  struct CategoryStyle {
    Colour fill, stroke;
  };
  std::vector<CategoryStyle> categories;  // indexed by analysis::Category
};
// The CSS declarations of a theme ("--canvas-bg" -> "#fbfbfc"), as viewer.css writes them.
std::vector<std::pair<std::string, std::string>> theme_css(Theme theme);
Palette palette(Theme theme, const analysis::CategoryConfig& categories);

// A box the layout draws: boxes hidden inside a collapsed group have zero size.
inline bool drawn(const layout::Rect& r) {
  return r.width > 0 && r.height > 0;
}

// Which groups are open. kInitial: the page's first view.
enum class ExpandMode : uint8_t { kInitial, kAll, kNone, kDepth };
struct ExpandRequest {
  ExpandMode mode = ExpandMode::kInitial;
  int depth = 0;  // kDepth: groups less deep than this are open
};
std::vector<bool> expand_state(const view::ViewModel& model, const ExpandRequest& request);

// What a picture shows of a view model: the expand state and its layout (the model's own
// layout when the state is its initial one, else laid out anew with the page's options).
struct Scene {
  const view::ViewModel* model = nullptr;
  std::vector<bool> expanded;
  layout::Layout layout;
};
Scene make_scene(const view::ViewModel& model, const ExpandRequest& request);

// A node drawn in an overlay's colours instead of its category's (profile heat, node data).
struct NodeStyle {
  Colour fill, stroke, strip, text;
};

// What an overlay adds to a picture: a style per ViewModel node (none: the overlay has no
// figure for it, drawn as the page draws such nodes) and a legend over the graph.
struct PictureOverlay {
  std::vector<std::optional<NodeStyle>> node_styles;
  NodeStyle unstyled;  // nodes without a figure
  struct Item {
    Colour colour;
    std::string label;
  };
  std::string title;        // "Time · avg per occurrence (µs)"
  std::vector<Item> items;  // swatches, in order
  std::string note;         // "no events (12 nodes)"
  bool active() const { return !node_styles.empty(); }
};

struct DrawOptions {
  Theme theme = Theme::kLight;
  double scale = 1;          // output units per layout unit
  double margin = 16;        // around the drawing, layout units
  bool edge_labels = false;  // tensor shapes on edges, one per value, as the page's "shapes"
  // Shapes of values: ViewModel value ids (ViewEdge::value) -> "1×3×224×224 float32".
  std::vector<std::string> value_labels;
  // Tooltips (SVG <title>) per ViewModel node; empty: the node's label.
  std::vector<std::string> node_titles;
  // Colours from an overlay instead of categories, and its legend; inactive: categories.
  const PictureOverlay* overlay = nullptr;
};

// Height of the legend band an overlay adds above the graph, in layout units.
double legend_height(const DrawOptions& options);
// The whole picture in layout units: the graph, the legend band and the margins.
double picture_width(const layout::Layout& layout, const DrawOptions& options);
double picture_height(const layout::Layout& layout, const DrawOptions& options);

// Draws the scene; returns what the painter encoded.
Result<std::string> draw(const Scene& scene, const Palette& palette, const DrawOptions& options,
                         Painter& painter);

// "[1, 3, 224, 224]" + "float32" -> "1×3×224×224 float32", as the page labels edges.
std::string shape_label(const std::string& shape, const std::string& dtype);
// Every value of the model's graphs labelled as the page labels edges (ViewEdge::value ids).
std::vector<std::string> value_labels(const Document& doc, const view::ViewModel& model);

// `text` shortened with an ellipsis to fit `max_width` as the painter measures it.
std::string fit_text(Painter& painter, const std::string& text, const Font& font, double max_width);
// A node's label as the page writes it (web/src/label_fit.js): one line at 12 px when it fits,
// else two at 11 px, broken after a separator near the end of the first line; a label too long
// for two keeps its head and, after an ellipsis, its tail.
std::vector<std::string> fit_label(Painter& painter, const std::string& text, double max_width);

}  // namespace etviz::render::picture
