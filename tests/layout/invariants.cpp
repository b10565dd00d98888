#include "invariants.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

namespace etviz::layout::testing {
namespace {

constexpr double kEps = 1e-6;

// Visible groups: those not inside a collapsed ancestor.
std::vector<bool> visible_groups(const Graph& graph) {
  const size_t n = graph.groups.size();
  std::vector<bool> visible(n, true);
  for (size_t g = 0; g < n; ++g) {
    for (uint32_t p = graph.groups[g].parent, steps = 0; p < n && steps <= n;
         p = graph.groups[p].parent, ++steps) {
      if (!graph.groups[p].expanded) visible[g] = false;
    }
  }
  return visible;
}

// The group a node is drawn as, or kNone when it is drawn itself.
uint32_t collapsed_owner(const Graph& graph, uint32_t node) {
  uint32_t owner = kNone;
  const size_t n = graph.groups.size();
  uint32_t steps = 0;
  for (uint32_t g = graph.nodes[node].group; g < n && steps <= n;
       g = graph.groups[g].parent, ++steps) {
    if (!graph.groups[g].expanded) owner = g;
  }
  return owner;
}

// An edge whose source or target is out of range is absent (Graph's contract).
bool has_valid_ends(const Graph& graph, const Edge& edge) {
  return edge.source < graph.nodes.size() && edge.target < graph.nodes.size();
}

bool interiors_overlap(const Rect& a, const Rect& b) {
  return a.x + kEps < b.x + b.width && b.x + kEps < a.x + a.width && a.y + kEps < b.y + b.height &&
         b.y + kEps < a.y + a.height;
}

bool contains(const Rect& outer, const Rect& inner) {
  return inner.x >= outer.x - kEps && inner.y >= outer.y - kEps &&
         inner.x + inner.width <= outer.x + outer.width + kEps &&
         inner.y + inner.height <= outer.y + outer.height + kEps;
}

bool on_boundary(const Rect& r, Point p) {
  const bool inside_x = p.x >= r.x - kEps && p.x <= r.x + r.width + kEps;
  const bool inside_y = p.y >= r.y - kEps && p.y <= r.y + r.height + kEps;
  const bool on_x = std::abs(p.x - r.x) < kEps || std::abs(p.x - r.x - r.width) < kEps;
  const bool on_y = std::abs(p.y - r.y) < kEps || std::abs(p.y - r.y - r.height) < kEps;
  return (inside_x && on_y) || (inside_y && on_x);
}

// Liang–Barsky: does segment ab pass through the open interior of r?
bool segment_enters(Point a, Point b, const Rect& r) {
  const double x0 = r.x + kEps, x1 = r.x + r.width - kEps;
  const double y0 = r.y + kEps, y1 = r.y + r.height - kEps;
  if (x0 >= x1 || y0 >= y1) return false;
  double t0 = 0, t1 = 1;
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {a.x - x0, x1 - a.x, a.y - y0, y1 - a.y};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] <= 0) return false;
    } else {
      const double t = q[i] / p[i];
      if (p[i] < 0)
        t0 = std::max(t0, t);
      else
        t1 = std::min(t1, t);
    }
  }
  return t0 < t1;
}

std::string describe(const Rect& r) {
  std::ostringstream s;
  s << "[" << r.x << "," << r.y << " " << r.width << "x" << r.height << "]";
  return s.str();
}

// Rect of what an edge endpoint is drawn as.
Rect endpoint_rect(const Graph& graph, const Layout& layout, uint32_t node) {
  const uint32_t owner = collapsed_owner(graph, node);
  return owner == kNone ? layout.nodes[node] : layout.groups[owner];
}

}  // namespace

::testing::AssertionResult ItemsDoNotOverlap(const Graph& graph, const Layout& layout) {
  const std::vector<bool> visible = visible_groups(graph);
  struct Item {
    Rect rect;
    uint32_t parent;
    std::string name;
  };
  std::vector<Item> items;
  for (uint32_t v = 0; v < graph.nodes.size(); ++v) {
    if (collapsed_owner(graph, v) != kNone) continue;
    const uint32_t g = graph.nodes[v].group;
    items.push_back(
        {layout.nodes[v], g < graph.groups.size() ? g : kNone, "node " + std::to_string(v)});
  }
  for (uint32_t g = 0; g < graph.groups.size(); ++g) {
    if (visible[g])
      items.push_back({layout.groups[g], graph.groups[g].parent, "group " + std::to_string(g)});
  }
  std::sort(items.begin(), items.end(),
            [](const Item& a, const Item& b) { return a.rect.x < b.rect.x; });
  for (size_t i = 0; i < items.size(); ++i) {
    for (size_t j = i + 1;
         j < items.size() && items[j].rect.x < items[i].rect.x + items[i].rect.width; ++j) {
      if (items[i].parent == items[j].parent && interiors_overlap(items[i].rect, items[j].rect)) {
        return ::testing::AssertionFailure()
               << items[i].name << " " << describe(items[i].rect) << " overlaps " << items[j].name
               << " " << describe(items[j].rect);
      }
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult GroupsContainChildren(const Graph& graph, const Layout& layout) {
  const std::vector<bool> visible = visible_groups(graph);
  for (uint32_t v = 0; v < graph.nodes.size(); ++v) {
    const uint32_t g = graph.nodes[v].group;
    if (g >= graph.groups.size() || collapsed_owner(graph, v) != kNone) continue;
    if (!contains(layout.groups[g], layout.nodes[v])) {
      return ::testing::AssertionFailure()
             << "group " << g << " " << describe(layout.groups[g]) << " does not contain node " << v
             << " " << describe(layout.nodes[v]);
    }
  }
  for (uint32_t g = 0; g < graph.groups.size(); ++g) {
    const uint32_t p = graph.groups[g].parent;
    if (p >= graph.groups.size() || !visible[g]) continue;
    if (!contains(layout.groups[p], layout.groups[g])) {
      return ::testing::AssertionFailure() << "group " << p << " does not contain group " << g;
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult TitleBandsAreFree(const Graph& graph, const Layout& layout,
                                             double band) {
  const std::vector<bool> visible = visible_groups(graph);
  auto inside = [&](uint32_t g) {
    return g < graph.groups.size() && visible[g] && graph.groups[g].expanded;
  };
  auto check = [&](uint32_t g, const Rect& r, const std::string& what) {
    const Rect& box = layout.groups[g];
    if (r.width <= 0 || r.y >= box.y + band - kEps) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << what << " " << describe(r) << " reaches into the title band of group " << g << " "
           << describe(box);
  };
  for (uint32_t v = 0; v < graph.nodes.size(); ++v) {
    const uint32_t g = graph.nodes[v].group;
    if (!inside(g) || collapsed_owner(graph, v) != kNone) continue;
    if (auto r = check(g, layout.nodes[v], "node " + std::to_string(v)); !r) return r;
  }
  for (uint32_t c = 0; c < graph.groups.size(); ++c) {
    const uint32_t g = graph.groups[c].parent;
    if (!inside(g) || !visible[c]) continue;
    if (auto r = check(g, layout.groups[c], "group " + std::to_string(c)); !r) return r;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult EdgesPointDownstream(const Graph& graph, const Layout& layout,
                                                Direction direction) {
  for (size_t e = 0; e < graph.edges.size(); ++e) {
    const Edge& edge = graph.edges[e];
    if (!has_valid_ends(graph, edge)) continue;
    const Rect s = endpoint_rect(graph, layout, edge.source);
    const Rect t = endpoint_rect(graph, layout, edge.target);
    if (s == t) continue;
    const bool ok = direction == Direction::kTopToBottom ? t.y >= s.y + s.height - kEps
                                                         : t.x >= s.x + s.width - kEps;
    if (!ok) {
      return ::testing::AssertionFailure()
             << "edge " << e << " goes upstream: " << describe(s) << " -> " << describe(t);
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult RoutesConnectEndpoints(const Graph& graph, const Layout& layout) {
  for (size_t e = 0; e < graph.edges.size(); ++e) {
    const EdgeRoute& r = layout.edges[e];
    const Edge& edge = graph.edges[e];
    if (!has_valid_ends(graph, edge)) {  // absent: no route
      if (r.point_count != 0)
        return ::testing::AssertionFailure() << "edge " << e << " to no node has a route";
      continue;
    }
    const Rect s = endpoint_rect(graph, layout, edge.source);
    const Rect t = endpoint_rect(graph, layout, edge.target);
    const bool hidden = collapsed_owner(graph, edge.source) != kNone &&
                        collapsed_owner(graph, edge.source) == collapsed_owner(graph, edge.target);
    if (hidden) {
      if (r.point_count != 0)
        return ::testing::AssertionFailure() << "hidden edge " << e << " has a route";
      continue;
    }
    if (r.point_count < 2)
      return ::testing::AssertionFailure() << "edge " << e << " has " << r.point_count << " points";
    const auto edge_index = static_cast<uint32_t>(e);
    const Point first = route_point(layout, edge_index, 0);
    const Point last = route_point(layout, edge_index, r.point_count - 1);
    if (!on_boundary(s, first)) {
      return ::testing::AssertionFailure() << "edge " << e << " starts at (" << first.x << ","
                                           << first.y << "), off its source " << describe(s);
    }
    if (!on_boundary(t, last)) {
      return ::testing::AssertionFailure() << "edge " << e << " ends at (" << last.x << ","
                                           << last.y << "), off its target " << describe(t);
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult RoutesAvoidBoxes(const Graph& graph, const Layout& layout) {
  const std::vector<bool> visible = visible_groups(graph);
  std::vector<Rect> boxes;
  for (uint32_t v = 0; v < graph.nodes.size(); ++v) {
    if (collapsed_owner(graph, v) == kNone) boxes.push_back(layout.nodes[v]);
  }
  for (uint32_t g = 0; g < graph.groups.size(); ++g) {
    if (visible[g] && !graph.groups[g].expanded) boxes.push_back(layout.groups[g]);
  }
  std::sort(boxes.begin(), boxes.end(), [](const Rect& a, const Rect& b) { return a.y < b.y; });
  double tallest = 0;
  for (const Rect& b : boxes) tallest = std::max(tallest, b.height);
  for (size_t e = 0; e < graph.edges.size(); ++e) {
    const EdgeRoute& r = layout.edges[e];
    for (uint32_t i = 1; i < r.point_count; ++i) {
      const Point a = route_point(layout, static_cast<uint32_t>(e), i - 1);
      const Point b = route_point(layout, static_cast<uint32_t>(e), i);
      const double top = std::min(a.y, b.y) - tallest, bottom = std::max(a.y, b.y);
      auto it = std::lower_bound(boxes.begin(), boxes.end(), top,
                                 [](const Rect& box, double y) { return box.y < y; });
      for (; it != boxes.end() && it->y <= bottom; ++it) {
        if (segment_enters(a, b, *it)) {
          return ::testing::AssertionFailure()
                 << "edge " << e << " segment (" << a.x << "," << a.y << ")-(" << b.x << "," << b.y
                 << ") crosses box " << describe(*it);
        }
      }
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult SharedRoutesWellFormed(const Layout& layout) {
  for (size_t e = 0; e < layout.edges.size(); ++e) {
    const EdgeRoute& r = layout.edges[e];
    if (r.first_point + uint64_t{r.point_count - std::min(r.shared_count, r.point_count)} >
        layout.points.size())
      return ::testing::AssertionFailure() << "edge " << e << "'s points lie past the array";
    if (r.shared_edge == kNone) {
      if (r.shared_count != 0)
        return ::testing::AssertionFailure() << "edge " << e << " shares points with no edge";
      continue;
    }
    if (r.shared_edge >= layout.edges.size())
      return ::testing::AssertionFailure() << "edge " << e << " shares an edge out of range";
    const EdgeRoute& lead = layout.edges[r.shared_edge];
    if (lead.shared_edge != kNone)
      return ::testing::AssertionFailure() << "edge " << e << "'s leader shares points itself";
    if (r.shared_count < 2 || r.shared_count >= r.point_count || r.shared_count > lead.point_count)
      return ::testing::AssertionFailure()
             << "edge " << e << " shares " << r.shared_count << " of " << r.point_count
             << " points with a route of " << lead.point_count;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult SameLayout(const Layout& a, const Layout& b) {
  auto same_bits = [](const auto& x, const auto& y) {
    return x.size() == y.size() &&
           (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0);
  };
  if (!same_bits(a.nodes, b.nodes)) return ::testing::AssertionFailure() << "node boxes differ";
  if (!same_bits(a.groups, b.groups)) return ::testing::AssertionFailure() << "group boxes differ";
  if (!same_bits(a.points, b.points)) return ::testing::AssertionFailure() << "route points differ";
  if (a.edges.size() != b.edges.size())
    return ::testing::AssertionFailure() << "edge counts differ";
  for (size_t e = 0; e < a.edges.size(); ++e) {
    const EdgeRoute &x = a.edges[e], &y = b.edges[e];
    if (x.first_point != y.first_point || x.point_count != y.point_count ||
        x.shared_edge != y.shared_edge || x.shared_count != y.shared_count ||
        std::memcmp(&x.label, &y.label, sizeof(Point)) != 0) {
      return ::testing::AssertionFailure() << "route " << e << " differs";
    }
  }
  if (std::memcmp(&a.bounds, &b.bounds, sizeof(Rect)) != 0)
    return ::testing::AssertionFailure() << "bounds differ";
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult RoutesAreJoined(const Layout& layout) {
  constexpr double kSame = 1e-9;
  std::vector<Point> route;
  for (uint32_t e = 0; e < layout.edges.size(); ++e) {
    route.clear();
    append_route(layout, e, route);
    if (route.size() == 2 && route[0].x == route[1].x && route[0].y == route[1].y) continue;
    for (size_t i = 1; i < route.size(); ++i) {
      const Point a = route[i - 1], b = route[i];
      if (std::abs(a.x - b.x) < kSame && std::abs(a.y - b.y) < kSame)
        return ::testing::AssertionFailure() << "edge " << e << ": point " << i << " repeats";
      if (i < 2) continue;
      const Point o = route[i - 2];
      const double cross = (a.x - o.x) * (b.y - a.y) - (a.y - o.y) * (b.x - a.x);
      const double dot = (a.x - o.x) * (b.x - a.x) + (a.y - o.y) * (b.y - a.y);
      if (std::abs(cross) < kSame && dot >= 0)
        return ::testing::AssertionFailure()
               << "edge " << e << ": point " << i - 1 << " lies on the line through its neighbours";
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult IsValidLayout(const Graph& graph, const Layout& layout) {
  if (layout.nodes.size() != graph.nodes.size() || layout.groups.size() != graph.groups.size() ||
      layout.edges.size() != graph.edges.size()) {
    return ::testing::AssertionFailure() << "output sizes do not match the input";
  }
  for (const Rect& r : layout.nodes) {
    if (!contains(layout.bounds, r))
      return ::testing::AssertionFailure() << "node outside bounds " << describe(r);
  }
  for (const Point& p : layout.points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y))
      return ::testing::AssertionFailure() << "non-finite point";
  }
  if (auto r = SharedRoutesWellFormed(layout); !r) return r;
  if (auto r = RoutesAreJoined(layout); !r) return r;
  if (auto r = ItemsDoNotOverlap(graph, layout); !r) return r;
  if (auto r = GroupsContainChildren(graph, layout); !r) return r;
  if (auto r = RoutesConnectEndpoints(graph, layout); !r) return r;
  return RoutesAvoidBoxes(graph, layout);
}

namespace {

::testing::AssertionResult PerLayerOrderCoversEveryNodeOnce(const LayeredGraph& graph,
                                                            const Order& order) {
  const uint32_t n = graph.node_count();
  if (order.layer_begin.size() != graph.layer_count + 1 || order.nodes.size() != n ||
      order.pos.size() != n || order.layer_begin.back() != n) {
    return ::testing::AssertionFailure()
           << "order sizes: " << order.layer_begin.size() << " layer starts for "
           << graph.layer_count << " layers, " << order.nodes.size() << " nodes and "
           << order.pos.size() << " positions for " << n << " nodes";
  }
  std::vector<uint8_t> seen(n, 0);
  for (uint32_t l = 0; l < graph.layer_count; ++l) {
    const auto nodes = order.layer(l);
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      const uint32_t v = nodes[i];
      if (v >= n || seen[v] || graph.layer[v] != l || order.pos[v] != i) {
        return ::testing::AssertionFailure()
               << "layer " << l << " slot " << i << " holds node " << v
               << (v < n && seen[v] ? " a second time" : "")
               << (v < n && graph.layer[v] != l ? " of another layer" : "")
               << (v < n && order.pos[v] != i ? " whose pos differs" : "");
      }
      seen[v] = 1;
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace

::testing::AssertionResult OrderCoversEveryNodeOnce(const LayeredGraph& graph, const Order& order) {
  if (!graph.has_spans()) return PerLayerOrderCoversEveryNodeOnce(graph, order);
  // The form with gaps: every span once in segment_order, every other node once in its
  // layer, gaps non-decreasing along a layer and at most the spans passing it.
  const uint32_t n = graph.node_count();
  if (order.layer_begin.size() != graph.layer_count + 1 || order.pos.size() != n ||
      order.gap.size() != n) {
    return ::testing::AssertionFailure() << "order sizes do not match the graph";
  }
  std::vector<uint8_t> seen(n, 0);
  std::vector<uint32_t> passing(graph.layer_count + 1, 0);
  for (uint32_t i = 0; i < order.segment_order.size(); ++i) {
    const uint32_t s = order.segment_order[i];
    if (s >= n || !graph.is_span(s) || seen[s] || order.pos[s] != i)
      return ::testing::AssertionFailure() << "span order slot " << i << " holds " << s;
    seen[s] = 1;
    for (uint32_t l = graph.layer[s]; l <= graph.last_layer[s]; ++l) ++passing[l];
  }
  for (uint32_t l = 0; l < graph.layer_count; ++l) {
    const auto nodes = order.layer(l);
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      const uint32_t v = nodes[i];
      if (v >= n || seen[v] || graph.is_span(v) || graph.layer[v] != l || order.pos[v] != i ||
          order.gap[v] > passing[l] || (i > 0 && order.gap[v] < order.gap[nodes[i - 1]])) {
        return ::testing::AssertionFailure() << "layer " << l << " slot " << i << " holds " << v;
      }
      seen[v] = 1;
    }
  }
  for (uint32_t v = 0; v < n; ++v)
    if (!seen[v]) return ::testing::AssertionFailure() << "node " << v << " is not ordered";
  return ::testing::AssertionSuccess();
}

ExpandedSpans expand_spans(const LayeredGraph& graph, const Order& order) {
  ExpandedSpans e;
  if (!graph.has_spans()) {
    e.graph = graph;
    e.order = order;
    return e;
  }
  LayeredGraph& g = e.graph;
  const uint32_t n = graph.node_count();
  g.layer_count = graph.layer_count;
  g.width = graph.width;
  g.layer = graph.layer;
  g.is_dummy = graph.is_dummy;
  g.of_flat = graph.of_flat;
  // first[s] / last[s]: the dummies span s becomes (s itself is the first).
  std::vector<uint32_t> last(n, kNone);
  g.segments = graph.segments;
  g.weights = graph.weights;
  g.port_offsets = graph.port_offsets;
  for (const uint32_t s : order.segment_order) {
    uint32_t d = s;
    for (uint32_t l = graph.layer[s] + 1; l <= graph.last_layer[s]; ++l) {
      const auto next = static_cast<uint32_t>(g.width.size());
      g.width.push_back(0);
      g.layer.push_back(l);
      g.is_dummy.push_back(1);
      g.segments.push_back({d, next, 0, 0});
      if (!g.weights.empty()) g.weights.push_back(graph.weight(graph.ups(s)[0]));
      d = next;
    }
    last[s] = d;
  }
  for (uint32_t k = 0; k < graph.segments.size(); ++k) {
    if (graph.is_span(graph.segments[k].upper)) g.segments[k].upper = last[graph.segments[k].upper];
  }
  g.index_segments();
  const uint32_t count = g.node_count();
  // Positions: a node at its index plus its gap, spans' dummies in the free slots of each
  // layer, in span order.
  Order& o = e.order;
  o.by_segments = true;
  o.layer_begin.assign(g.layer_count + 1, 0);
  for (uint32_t v = 0; v < count; ++v) ++o.layer_begin[g.layer[v] + 1];
  for (uint32_t l = 0; l < g.layer_count; ++l) o.layer_begin[l + 1] += o.layer_begin[l];
  o.nodes.assign(count, kNone);
  o.pos.assign(count, 0);
  for (uint32_t l = 0; l < g.layer_count; ++l) {
    for (const uint32_t v : order.layer(l)) {
      o.nodes[o.layer_begin[l] + order.pos[v] + order.gap[v]] = v;
    }
  }
  std::vector<uint32_t> cursor(o.layer_begin.begin(), o.layer_begin.end() - 1);
  for (const uint32_t s : order.segment_order) {
    uint32_t d = s;
    for (uint32_t l = graph.layer[s]; l <= graph.last_layer[s]; ++l) {
      while (o.nodes[cursor[l]] != kNone) ++cursor[l];
      o.nodes[cursor[l]++] = d;
      d = d == last[s] ? kNone : (g.downs(d).empty() ? kNone : g.segments[g.downs(d)[0]].lower);
    }
  }
  for (uint32_t l = 0; l < g.layer_count; ++l) {
    const auto nodes = o.layer(l);
    for (uint32_t i = 0; i < nodes.size(); ++i) o.pos[nodes[i]] = i;
  }
  return e;
}

::testing::AssertionResult InnerSegmentsDoNotCross(const LayeredGraph& graph, const Order& order) {
  auto chain = [&](uint32_t v) {
    return graph.is_dummy[v] && graph.ups(v).size() == 1 && graph.downs(v).size() == 1;
  };
  auto inner = [&](uint32_t v) {
    return chain(v) && chain(graph.segments[graph.ups(v)[0]].upper) &&
           chain(graph.segments[graph.downs(v)[0]].lower);
  };
  for (uint32_t l = 0; l + 1 < graph.layer_count; ++l) {
    uint32_t last_upper = kNone, last_lower = kNone;
    for (const uint32_t u : order.layer(l)) {
      for (const uint32_t s : graph.downs(u)) {
        const uint32_t w = graph.segments[s].lower;
        if (!inner(u) && !inner(w)) continue;
        if (last_lower != kNone && order.pos[w] < order.pos[last_lower]) {
          return ::testing::AssertionFailure()
                 << "between layers " << l << " and " << l + 1 << ", segment " << u << "-" << w
                 << " crosses segment " << last_upper << "-" << last_lower;
        }
        last_upper = u;
        last_lower = w;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace etviz::layout::testing
