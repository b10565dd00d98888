#include "render/export/scene.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "render/export/svg_painter.h"

namespace etviz::render::picture {
namespace {

// web/src/render.js's constants.
constexpr Font kNodeFont{12, false};
constexpr Font kTwoLineFont{11, false};  // a label on two lines (web/src/label_fit.js)
constexpr double kTwoLinePitch = 12.5;
constexpr Font kSmallFont{10.5, false};
constexpr Font kGroupFont{11, true};

// Near-linear "is this rectangle free" test over labels and boxes already placed (the page's
// Occupancy): a grid of buckets holding the rectangles that touch them.
class Occupancy {
 public:
  explicit Occupancy(double cell) : cell_(cell) {}
  void add(const layout::Rect& r) {
    const size_t id = rects_.size();
    rects_.push_back(r);
    for_cells(r, [&](int64_t key) {
      cells_[key].push_back(id);
      return true;
    });
  }
  bool try_add(const layout::Rect& r) {
    const bool free = for_cells(r, [&](int64_t key) {
      auto it = cells_.find(key);
      if (it == cells_.end()) return true;
      for (size_t id : it->second) {
        const layout::Rect& o = rects_[id];
        if (!(r.x >= o.x + o.width || r.x + r.width <= o.x || r.y >= o.y + o.height ||
              r.y + r.height <= o.y))
          return false;
      }
      return true;
    });
    if (free) add(r);
    return free;
  }

 private:
  template <typename F>
  bool for_cells(const layout::Rect& r, F&& f) {
    const auto x0 = static_cast<int64_t>(std::floor(r.x / cell_));
    const auto x1 = static_cast<int64_t>(std::floor((r.x + r.width) / cell_));
    const auto y0 = static_cast<int64_t>(std::floor(r.y / cell_));
    const auto y1 = static_cast<int64_t>(std::floor((r.y + r.height) / cell_));
    for (int64_t gx = x0; gx <= x1; ++gx)
      for (int64_t gy = y0; gy <= y1; ++gy)
        if (!f(gx * 1000003 + gy)) return false;
    return true;
  }
  double cell_;
  std::vector<layout::Rect> rects_;
  std::unordered_map<int64_t, std::vector<size_t>> cells_;
};

Colour css(std::string_view text) {
  auto c = parse_colour(text);
  return c ? *c : Colour{0.5, 0.5, 0.5, 1};
}

// The legend an overlay adds above the graph: a title, swatches with labels flowing in rows
// as wide as the picture, and a note. Widths are estimated, so the band's height is known
// before a painter measures anything.
constexpr double kLegendRow = 16;
constexpr double kSwatch = 14;
constexpr Font kLegendFont{11, false};
constexpr Font kLegendTitleFont{11, true};
// The page's width estimate (svg_painter.h), with room for fonts a little wider than it.
double estimated_width(std::string_view text, const Font& font) {
  return estimated_text_width(text, font) * 1.1;
}
double legend_item_width(const PictureOverlay::Item& item) {
  return kSwatch + 4 + estimated_width(item.label, kLegendFont) + 12;
}
double legend_width(const PictureOverlay& o) {
  double w = estimated_width(o.title, kLegendTitleFont);
  double row = 0;
  for (const auto& item : o.items) row += legend_item_width(item);
  return std::max({w, std::min(row, 640.0), estimated_width(o.note, kLegendFont)});
}
// Rows of items within `width`.
std::vector<std::vector<size_t>> legend_rows(const PictureOverlay& o, double width) {
  std::vector<std::vector<size_t>> rows(1);
  double x = 0;
  for (size_t k = 0; k < o.items.size(); ++k) {
    const double w = legend_item_width(o.items[k]);
    if (x > 0 && x + w > width) {
      rows.emplace_back();
      x = 0;
    }
    rows.back().push_back(k);
    x += w;
  }
  return rows;
}
const PictureOverlay* active_overlay(const DrawOptions& options) {
  return options.overlay && options.overlay->active() ? options.overlay : nullptr;
}
// The legend's width: at least the graph's, at least what the legend needs on one row.
double content_width(const layout::Layout& L, const DrawOptions& options) {
  const PictureOverlay* o = active_overlay(options);
  return std::max(L.bounds.width, o ? std::min(legend_width(*o), 640.0) : 0.0);
}

}  // namespace

double legend_height(const DrawOptions& options) {
  const PictureOverlay* o = active_overlay(options);
  if (!o) return 0;
  // Rows at the narrowest the legend may be (640 units, or its one-row width).
  const double width = std::min(legend_width(*o), 640.0);
  const size_t rows = o->items.empty() ? 0 : legend_rows(*o, width).size();
  return kLegendRow * (1 + static_cast<double>(rows) + (o->note.empty() ? 0 : 1)) + 10;
}

double picture_width(const layout::Layout& L, const DrawOptions& options) {
  return content_width(L, options) + 2 * options.margin;
}
double picture_height(const layout::Layout& L, const DrawOptions& options) {
  return L.bounds.height + legend_height(options) + 2 * options.margin;
}

std::vector<std::pair<std::string, std::string>> theme_css(Theme theme) {
  if (theme == Theme::kDark)
    return {{"--canvas-bg", "#1b1f27"},
            {"--text", "#e3e7ee"},
            {"--muted", "#9aa4b5"},
            {"--edge", "#6c7687"},
            {"--frame-fill", "rgba(150, 170, 210, 0.06)"},
            {"--frame-stroke", "#3d4656"},
            {"--collapsed-fill", "#2a313d"},
            {"--collapsed-stroke", "#465063"},
            {"--delegate-fill", "rgba(217, 83, 79, 0.09)"},
            {"--qdq", "#f0a04b"},
            {"--label-bg", "rgba(27, 31, 39, 0.85)"}};
  return {{"--canvas-bg", "#fbfbfc"},
          {"--text", "#1d2330"},
          {"--muted", "#5d6676"},
          {"--edge", "#9aa3b2"},
          {"--frame-fill", "rgba(70, 90, 130, 0.055)"},
          {"--frame-stroke", "#c3cad6"},
          {"--collapsed-fill", "#e9edf4"},
          {"--collapsed-stroke", "#b7c0ce"},
          {"--delegate-fill", "rgba(217, 83, 79, 0.06)"},
          {"--qdq", "#e8871e"},
          {"--label-bg", "rgba(251, 251, 252, 0.85)"}};
}

Palette palette(Theme theme, const analysis::CategoryConfig& categories) {
  std::unordered_map<std::string, Colour> v;
  for (const auto& [name, value] : theme_css(theme)) v[name] = css(value);
  Palette p;
  p.canvas_bg = v["--canvas-bg"];
  p.text = v["--text"];
  p.muted = v["--muted"];
  p.edge = v["--edge"];
  p.frame_fill = v["--frame-fill"];
  p.frame_stroke = v["--frame-stroke"];
  p.collapsed_fill = v["--collapsed-fill"];
  p.collapsed_stroke = v["--collapsed-stroke"];
  p.delegate_fill = v["--delegate-fill"];
  p.qdq = v["--qdq"];
  p.label_bg = v["--label-bg"];
  for (const analysis::CategoryInfo& c : categories.categories) {
    const Colour colour = css(c.color);
    p.categories.push_back({mix(colour, p.canvas_bg, theme == Theme::kDark ? 0.72 : 0.82), colour});
  }
  return p;
}

std::vector<bool> expand_state(const view::ViewModel& model, const ExpandRequest& request) {
  std::vector<bool> expanded(model.groups.size());
  for (size_t g = 0; g < model.groups.size(); ++g) {
    const view::ViewGroup& vg = model.groups[g];
    switch (request.mode) {
      case ExpandMode::kInitial:
        expanded[g] = vg.expanded;
        break;
      case ExpandMode::kAll:
        expanded[g] = true;
        break;
      case ExpandMode::kNone:
        expanded[g] = false;
        break;
      case ExpandMode::kDepth:
        expanded[g] = vg.depth < request.depth && !vg.prefer_collapsed;
        break;
    }
  }
  return expanded;
}

Scene make_scene(const view::ViewModel& model, const ExpandRequest& request) {
  Scene s;
  s.model = &model;
  s.expanded = expand_state(model, request);
  bool initial = true;
  for (size_t g = 0; g < model.groups.size(); ++g)
    initial = initial && s.expanded[g] == model.groups[g].expanded;
  s.layout = initial ? model.layout
                     : layout::compute_layout(view::layout_input(model, s.expanded),
                                              view::layout_options());
  return s;
}

std::string shape_label(const std::string& shape, const std::string& dtype) {
  std::string s = shape;
  if (!s.empty() && s.front() == '[') s.erase(0, 1);
  if (!s.empty() && s.back() == ']') s.pop_back();
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, ", ") == 0) {
      out += "\u00d7";
      ++i;
    } else {
      out += s[i];
    }
  }
  if (!dtype.empty()) out += (out.empty() ? "" : " ") + dtype;
  return out;
}

std::vector<std::string> value_labels(const Document& doc, const view::ViewModel& model) {
  std::vector<std::string> out;
  for (size_t k = 0; k < model.graphs.size(); ++k) {
    const Graph& g = doc.graphs[static_cast<size_t>(model.graphs[k])];
    out.resize(static_cast<size_t>(model.value_base[k]) + g.values.size());
    for (size_t v = 0; v < g.values.size(); ++v) {
      const Value& value = g.values[v];
      if (value.kind == ValueKind::kTensor)
        out[model.value_base[k] + v] = shape_label(value.tensor.shape_string(), value.tensor.dtype);
    }
  }
  return out;
}

// Where each character of UTF-8 `text` starts.
std::vector<size_t> char_starts(const std::string& text) {
  std::vector<size_t> cuts;
  for (size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) cuts.push_back(i);
  return cuts;
}

// The largest k in [0, max] with fits(k), for fits true up to some k and false after.
template <typename Fits>
size_t largest(size_t max, Fits fits) {
  size_t lo = 0, hi = max;
  while (lo < hi) {
    const size_t mid = (lo + hi + 1) / 2;
    if (fits(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

std::string fit_text(Painter& painter, const std::string& text, const Font& font,
                     double max_width) {
  if (max_width <= 0) return "";
  if (painter.text_width(text, font) <= max_width) return text;
  // Longest prefix (on a UTF-8 boundary) that fits with the ellipsis (the whole text does not).
  const std::vector<size_t> cuts = char_starts(text);
  const size_t n = largest(cuts.empty() ? 0 : cuts.size() - 1, [&](size_t chars) {
    return painter.text_width(text.substr(0, cuts[chars]) + "\u2026", font) <= max_width;
  });
  if (n == 0) return "";
  return text.substr(0, cuts[n]) + "\u2026";
}

std::vector<std::string> fit_label(Painter& painter, const std::string& text, double max_width) {
  if (max_width <= 0) return {};
  if (painter.text_width(text, kNodeFont) <= max_width) return {text};
  // Where each character starts, and the widths of heads and tails by bisection.
  std::vector<size_t> cuts = char_starts(text);
  cuts.push_back(text.size());
  const size_t chars = cuts.size() - 1;
  if (chars < 4) return {fit_text(painter, text, kNodeFont, max_width)};
  auto width = [&](const std::string& s) { return painter.text_width(s, kTwoLineFont); };
  auto separator = [&](size_t k) {  // the character ending at cut k is a separator
    const char c = text[cuts[k] - 1];
    return c == '_' || c == '.' || c == ':' || c == '/' || c == '-' || c == ' ';
  };
  size_t head =
      largest(chars - 1, [&](size_t k) { return width(text.substr(0, cuts[k])) <= max_width; });
  for (size_t k = head; k > 0 && 3 * k > 2 * head; --k)
    if (separator(k)) {
      head = k;
      break;
    }
  if (head == 0) return {fit_text(painter, text, kTwoLineFont, max_width)};
  const std::string first = text.substr(0, cuts[head]);
  const std::string rest = text.substr(cuts[head]);
  if (width(rest) <= max_width) return {first, rest};
  // The tail that fits after an ellipsis, from just after a separator in its first third.
  const size_t rest_chars = chars - head;
  auto tail = [&](size_t n) { return text.substr(cuts[chars - n]); };
  size_t n = largest(rest_chars, [&](size_t k) { return width("\u2026" + tail(k)) <= max_width; });
  for (size_t k = n; k > 0 && 3 * k > 2 * n; --k)
    if (chars - k > head && separator(chars - k)) {
      n = k;
      break;
    }
  return {first, "\u2026" + tail(n)};
}

// What each broadcast source's stub writes (web/src/render_marks.js stubLabel, the same rule):
// the view model's text (how many uses, where they go) where it runs over no box, no frame the
// source is not in and no other stub's text (each writes at least its count), else "N uses" within
// the box's half width. In node order; empty for nodes without a stub.
template <typename At, typename Visible>
std::vector<std::string> stub_texts(const Scene& scene, Painter& painter, const At& at,
                                    const Visible& group_visible) {
  const view::ViewModel& m = *scene.model;
  const layout::Layout& L = scene.layout;
  std::vector<std::string> out(m.nodes.size());
  std::vector<int32_t> uses(m.nodes.size(), 0);
  for (const view::ViewEdge& e : m.edges)
    if (e.detached) ++uses[static_cast<size_t>(e.source)];
  // Every stub writes at least its count; a longer text goes around those and the longer
  // texts placed before it.
  auto short_text = [&](size_t i, const layout::Rect& r) {
    return fit_text(painter, fmt::format("{} uses", uses[i]), kSmallFont, r.width / 2 + 6);
  };
  std::vector<std::pair<size_t, layout::Rect>> counts;
  for (const auto& [node, full] : m.stubs) {
    const auto i = static_cast<size_t>(node);
    if (i >= L.nodes.size() || !drawn(L.nodes[i])) continue;
    const layout::Rect r = at(L.nodes[i]);
    counts.push_back({i,
                      {r.x + r.width / 2 + 3, r.y + r.height + 2,
                       painter.text_width(short_text(i, r), kSmallFont), 12}});
  }
  std::vector<layout::Rect> taken;
  for (const auto& [node, full] : m.stubs) {
    const auto i = static_cast<size_t>(node);
    if (i >= L.nodes.size() || !drawn(L.nodes[i])) continue;
    const layout::Rect r = at(L.nodes[i]);
    const layout::Rect text{r.x + r.width / 2 + 3, r.y + r.height + 2,
                            painter.text_width(full, kSmallFont), 12};
    auto over = [&](const layout::Rect& b) {
      return text.x < b.x + b.width && text.x + text.width > b.x && text.y < b.y + b.height &&
             text.y + text.height > b.y;
    };
    std::unordered_set<int32_t> holders;
    for (int32_t g = m.nodes[i].group, k = 0; g >= 0 && k <= static_cast<int32_t>(m.groups.size());
         g = m.groups[static_cast<size_t>(g)].parent, ++k)
      holders.insert(g);
    bool clear = std::none_of(taken.begin(), taken.end(), over);
    for (const auto& [k, count] : counts) clear = clear && (k == i || !over(count));
    for (size_t j = 0; clear && j < m.nodes.size() && j < L.nodes.size(); ++j)
      clear = j == i || !drawn(L.nodes[j]) || !over(at(L.nodes[j]));
    for (size_t g = 0; clear && g < m.groups.size(); ++g) {
      if (!group_visible(g) || (scene.expanded[g] && holders.count(static_cast<int32_t>(g))))
        continue;
      const int32_t parent = m.groups[g].parent;
      if (!scene.expanded[g] && parent >= 0 && !scene.expanded[static_cast<size_t>(parent)])
        continue;
      clear = !over(at(L.groups[g]));
    }
    if (clear) taken.push_back(text);
    out[i] = clear ? full : short_text(i, r);
  }
  return out;
}

Result<std::string> draw(const Scene& scene, const Palette& pal, const DrawOptions& options,
                         Painter& painter) {
  const view::ViewModel& m = *scene.model;
  const layout::Layout& L = scene.layout;
  const PictureOverlay* overlay = active_overlay(options);
  const double band = legend_height(options);
  const double dx = options.margin - L.bounds.x, dy = options.margin + band - L.bounds.y;
  auto at = [&](layout::Rect r) {
    r.x += dx;
    r.y += dy;
    return r;
  };
  auto pt = [&](layout::Point p) { return layout::Point{p.x + dx, p.y + dy}; };
  painter.begin(picture_width(L, options), picture_height(L, options), options.scale,
                pal.canvas_bg);

  // A node's colours: the overlay's when one is active, else its category's.
  auto style_of = [&](int32_t node) -> NodeStyle {
    const auto k = static_cast<size_t>(node);
    if (overlay) {
      if (k < overlay->node_styles.size() && overlay->node_styles[k])
        return *overlay->node_styles[k];
      return overlay->unstyled;
    }
    const auto c = static_cast<size_t>(m.nodes[k].category);
    static const Palette::CategoryStyle kGrey{{0.9, 0.9, 0.9, 1}, {0.5, 0.5, 0.5, 1}};
    const Palette::CategoryStyle& st = c < pal.categories.size() ? pal.categories[c] : kGrey;
    return {st.fill, st.stroke, st.stroke, pal.text};
  };

  if (overlay) {
    painter.open_item("legend", "legend", overlay->title);
    const double x0 = options.margin;
    double y = options.margin + kLegendRow / 2;
    painter.text(x0, y, overlay->title, kLegendTitleFont, Anchor::kStart, pal.text);
    const double width = std::max(content_width(L, options), 1.0);
    for (const auto& row : overlay->items.empty() ? std::vector<std::vector<size_t>>{}
                                                  : legend_rows(*overlay, std::min(width, 640.0))) {
      y += kLegendRow;
      double x = x0;
      for (size_t k : row) {
        const PictureOverlay::Item& item = overlay->items[k];
        painter.box({x, y - 5, kSwatch, 10}, 2, item.colour,
                    {mix(item.colour, Colour{0, 0, 0, 1}, 0.3), 0.8, false});
        painter.text(x + kSwatch + 4, y, item.label, kLegendFont, Anchor::kStart, pal.muted);
        x += legend_item_width(item);
      }
    }
    if (!overlay->note.empty()) {
      y += kLegendRow;
      painter.box({x0, y - 5, kSwatch, 10}, 2, overlay->unstyled.fill,
                  {overlay->unstyled.stroke, 0.8, false});
      painter.text(x0 + kSwatch + 4, y, overlay->note, kLegendFont, Anchor::kStart, pal.muted);
    }
    painter.close_item();
  }
  auto group_visible = [&](size_t g) { return g < L.groups.size() && drawn(L.groups[g]); };

  // Expanded groups, outermost first.
  std::vector<size_t> frames;
  for (size_t g = 0; g < m.groups.size(); ++g)
    if (scene.expanded[g] && group_visible(g)) frames.push_back(g);
  std::stable_sort(frames.begin(), frames.end(),
                   [&](size_t a, size_t b) { return m.groups[a].depth < m.groups[b].depth; });
  for (size_t g : frames) {
    const view::ViewGroup& vg = m.groups[g];
    const layout::Rect r = at(L.groups[g]);
    painter.open_item("group", fmt::format("g{}", g), vg.name);
    painter.box(r, 6, vg.owner >= 0 ? pal.delegate_fill : pal.frame_fill,
                {pal.frame_stroke, 1, false});
    painter.close_item();
  }

  // Edges, then their arrowheads.
  std::vector<size_t> layout_edge(m.edges.size(), SIZE_MAX);
  for (size_t e = 0, k = 0; e < m.edges.size(); ++e)
    if (!m.edges[e].detached) layout_edge[e] = k++;
  std::vector<layout::Point> route;
  for (size_t e = 0; e < m.edges.size(); ++e) {
    const size_t k = layout_edge[e];
    if (k >= L.edges.size()) continue;
    const layout::EdgeRoute& er = L.edges[k];
    if (er.point_count < 2) continue;
    route.clear();
    for (uint32_t i = 0; i < er.point_count; ++i)
      route.push_back(pt(layout::route_point(L, static_cast<uint32_t>(k), i)));
    painter.polyline(route, {pal.edge, 1.1, false});
    if (m.edges[e].structural) continue;
    const layout::Point tip = route.back(), prev = route[route.size() - 2];
    double ux = tip.x - prev.x, uy = tip.y - prev.y;
    const double len = std::hypot(ux, uy);
    if (len <= 0) continue;
    ux /= len;
    uy /= len;
    const double size = 6;
    const layout::Point tri[3] = {
        tip,
        {tip.x - ux * size - uy * size * 0.45, tip.y - uy * size + ux * size * 0.45},
        {tip.x - ux * size + uy * size * 0.45, tip.y - uy * size - ux * size * 0.45}};
    painter.triangle(tri, pal.edge);
  }

  // The frames' titles over the edges that enter their boxes, as the page draws them: the
  // layout keeps the title band free of boxes, a halo of the canvas colour keeps edges crossing
  // it off the letters.
  for (size_t g : frames) {
    const view::ViewGroup& vg = m.groups[g];
    const layout::Rect r = at(L.groups[g]);
    const std::string title = fit_text(painter, vg.label, kGroupFont, r.width - 12);
    if (title.empty()) continue;
    painter.open_item("title", fmt::format("g{}-title", g), vg.name);
    painter.haloed_text(r.x + 6, r.y + view::layout_options().group_title / 2 + 1, title,
                        kGroupFont, Anchor::kStart, pal.muted, pal.canvas_bg);
    painter.close_item();
  }

  // Collapsed groups: a second sheet behind ("there is more inside"), label and size.
  for (size_t g = 0; g < m.groups.size(); ++g) {
    if (scene.expanded[g] || !group_visible(g)) continue;
    const view::ViewGroup& vg = m.groups[g];
    // Collapsed inside a collapsed parent: not drawn (the layout gives it the parent's centre).
    if (vg.parent >= 0 && !scene.expanded[static_cast<size_t>(vg.parent)]) continue;
    const layout::Rect r = at(L.groups[g]);
    painter.open_item("group collapsed", fmt::format("g{}", g), vg.name);
    painter.box({r.x + 3, r.y + 3, r.width, r.height}, 5, pal.collapsed_stroke, {{}, 0, false});
    const std::optional<NodeStyle> owner =
        vg.owner >= 0 ? std::optional<NodeStyle>(style_of(vg.owner)) : std::nullopt;
    painter.box(r, 5, owner ? owner->fill : pal.collapsed_fill,
                {owner ? owner->stroke : pal.collapsed_stroke, 1, false});
    const double badge_w = painter.text_width(vg.badge, kGroupFont);
    const std::string label = fit_text(painter, vg.label, kGroupFont, r.width - badge_w - 26);
    painter.text(r.x + 8, r.y + r.height / 2, label, kGroupFont, Anchor::kStart,
                 owner ? owner->text : pal.text);
    if (!vg.badge.empty())
      painter.text(r.x + r.width - 8, r.y + r.height / 2, vg.badge, kGroupFont, Anchor::kEnd,
                   pal.muted);
    painter.close_item();
  }

  // Nodes.
  const std::vector<std::string> stub_text = stub_texts(scene, painter, at, group_visible);
  for (size_t i = 0; i < m.nodes.size(); ++i) {
    if (i >= L.nodes.size() || !drawn(L.nodes[i])) continue;
    const view::ViewNode& n = m.nodes[i];
    const layout::Rect r = at(L.nodes[i]);
    const NodeStyle st = style_of(static_cast<int32_t>(i));
    painter.open_item(fmt::format("node {}", analysis::to_string(n.category)),
                      fmt::format("n{}", i),
                      i < options.node_titles.size() ? options.node_titles[i] : n.label);
    painter.box(r, 4, st.fill, {st.stroke, 1, false});
    painter.box({r.x, r.y + 3, 3.5, r.height - 6}, 0, st.strip, {{}, 0, false});
    const std::vector<std::string> lines = fit_label(painter, n.label, r.width - 14);
    const double top =
        r.y + r.height / 2 + 0.5 - (lines.size() > 1 ? kTwoLinePitch * (lines.size() - 1) / 2 : 0);
    for (size_t k = 0; k < lines.size(); ++k)
      if (!lines[k].empty())
        painter.text(r.x + r.width / 2 + 1.5, top + kTwoLinePitch * k, lines[k],
                     lines.size() > 1 ? kTwoLineFont : kNodeFont, Anchor::kMiddle, st.text);
    // A broadcast source whose many uses are not drawn: a stub, the count and where they go
    // (stub_texts: the page's rule).
    if (!stub_text[i].empty()) {
      const double cx = r.x + r.width / 2, by = r.y + r.height;
      const layout::Point stub[2] = {{cx, by}, {cx, by + 12}};
      painter.polyline(stub, {pal.edge, 1, true});
      painter.text(cx + 3, by + 8, stub_text[i], kSmallFont, Anchor::kStart, pal.muted);
    }
    painter.close_item();
  }

  // Tensor shapes on edges: one label per value, none over a box or another label.
  if (options.edge_labels) {
    Occupancy taken(16);
    for (size_t i = 0; i < m.nodes.size(); ++i)
      if (i < L.nodes.size() && drawn(L.nodes[i])) taken.add(at(L.nodes[i]));
    std::unordered_set<int32_t> labelled;
    for (size_t e = 0; e < m.edges.size(); ++e) {
      const size_t k = layout_edge[e];
      const int32_t v = m.edges[e].value;
      if (k >= L.edges.size() || L.edges[k].point_count < 1 || v < 0 || labelled.count(v) ||
          static_cast<size_t>(v) >= options.value_labels.size())
        continue;
      const std::string& text = options.value_labels[static_cast<size_t>(v)];
      if (text.empty()) continue;
      const layout::Point p = pt(L.edges[k].label);
      const double tw = painter.text_width(text, kSmallFont);
      const layout::Rect box{p.x + 3, p.y - 6.5, tw + 4, 13};
      if (!taken.try_add(box)) continue;
      labelled.insert(v);
      painter.box(box, 0, pal.label_bg, {{}, 0, false});
      painter.text(p.x + 5, p.y, text, kSmallFont, Anchor::kStart, pal.muted);
    }
  }
  return painter.finish();
}

}  // namespace etviz::render::picture
