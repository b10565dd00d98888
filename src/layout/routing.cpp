#include "routing.h"

#include <algorithm>

namespace etviz::layout {
namespace {

// Appends p unless it repeats the last point or extends a straight run (then it replaces
// the run's end).
void push_point(std::vector<Point>& points, size_t route_start, Point p) {
  const size_t count = points.size() - route_start;
  if (count >= 1 && points.back() == p) return;
  if (count >= 2) {
    const Point a = points[points.size() - 2], b = points.back();
    const double cross = (b.x - a.x) * (p.y - b.y) - (b.y - a.y) * (p.x - b.x);
    const bool forward = (b.x - a.x) * (p.x - b.x) + (b.y - a.y) * (p.y - b.y) >= 0;
    if (cross == 0 && forward) {
      points.back() = p;
      return;
    }
  }
  points.push_back(p);
}

void route_self_loop(const FlatGraph::Node& node, Point c, const Options& options,
                     std::vector<Point>& points) {
  const double hw = node.width / 2, hh = node.height / 2;
  const double attach = c.x + hw - std::min(hw / 2, options.edge_spacing);
  const double out = c.x + hw + options.edge_spacing;
  const double reach = options.layer_spacing / 2;
  points.push_back({attach, c.y + hh});
  points.push_back({attach, c.y + hh + reach});
  points.push_back({out, c.y + hh + reach});
  points.push_back({out, c.y - hh - reach});
  points.push_back({attach, c.y - hh - reach});
  points.push_back({attach, c.y - hh});
}

}  // namespace

void route_edges(const FlatGraph& flat, const LayeredGraph& g, const std::vector<uint8_t>& reversed,
                 const std::vector<double>& x, const LayerBands& bands, const Options& options,
                 FlatLayout& layout) {
  std::vector<Point>& points = layout.points;
  for (uint32_t e = 0; e < flat.edges.size(); ++e) {
    const FlatGraph::Edge& edge = flat.edges[e];
    const size_t start = points.size();
    if (edge.source == edge.target) {
      const uint32_t v = edge.source;
      route_self_loop(flat.nodes[v], {x[v], bands.center(g.layer[v])}, options, points);
    } else {
      const auto path = g.path(e);
      const uint32_t upper = path.front(), lower = path.back();
      const double upper_x = x[upper] + (reversed[e] ? edge.target_offset : edge.source_offset);
      const double lower_x = x[lower] + (reversed[e] ? edge.source_offset : edge.target_offset);
      const uint32_t ul = g.layer[upper], ll = g.layer[lower];
      push_point(points, start, {upper_x, bands.center(ul) + g.height[upper] / 2});
      push_point(points, start, {upper_x, bands.bottom(ul)});
      for (size_t i = 1; i + 1 < path.size(); ++i) {
        const uint32_t d = path[i], l = g.layer[d];
        push_point(points, start, {x[d], bands.top[l]});
        push_point(points, start, {x[d], bands.bottom(l)});
      }
      push_point(points, start, {lower_x, bands.top[ll]});
      push_point(points, start, {lower_x, bands.center(ll) - g.height[lower] / 2});
      if (points.size() - start == 1) points.push_back(points.back());  // zero-length edge
      if (reversed[e])
        std::reverse(points.begin() + static_cast<std::ptrdiff_t>(start), points.end());
    }
    layout.route_begin.push_back(static_cast<uint32_t>(points.size()));
  }
}

}  // namespace etviz::layout
