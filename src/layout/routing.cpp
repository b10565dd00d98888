#include "routing.h"

#include <algorithm>

#include "polyline.h"

namespace etviz::layout {
namespace {

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

// An edge turned around by cycle breaking still leaves its source's bottom and enters its
// target's top: out of the source into the gap below, round the source's right side (the
// spacing to its neighbour is at least min(node, edge spacing)), up through the dummies,
// round the target's right side into the gap above it, and down into the target.
void route_reversed(const FlatGraph::Edge& edge, std::span<const uint32_t> path,
                    const LayeredGraph& g, const std::vector<double>& x, const LayerBands& bands,
                    const Options& options, std::vector<Point>& points) {
  const size_t start = points.size();
  const uint32_t source = path.back(), target = path.front();
  const uint32_t sl = g.layer[source], tl = g.layer[target];
  const double source_x = x[source] + edge.source_offset;
  const double target_x = x[target] + edge.target_offset;
  const double aside = std::min(options.node_spacing, options.edge_spacing) / 2;
  const double source_side = x[source] + g.width[source] / 2 + aside;
  const double target_side = x[target] + g.width[target] / 2 + aside;
  const double below = bands.bottom(sl) + options.layer_spacing / 2;
  const double above = bands.top[tl] - options.layer_spacing / 2;
  append_point(points, start, {source_x, bands.center(sl) + g.height[source] / 2});
  append_point(points, start, {source_x, below});
  append_point(points, start, {source_side, below});
  append_point(points, start, {source_side, bands.top[sl]});
  for (size_t i = path.size() - 2; i >= 1; --i) {
    const uint32_t d = path[i], l = g.layer[d];
    append_point(points, start, {x[d], bands.bottom(l)});
    append_point(points, start, {x[d], bands.top[l]});
  }
  append_point(points, start, {target_side, bands.bottom(tl)});
  append_point(points, start, {target_side, above});
  append_point(points, start, {target_x, above});
  append_point(points, start, {target_x, bands.center(tl) - g.height[target] / 2});
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
      const uint32_t v = g.of_flat[edge.source];
      route_self_loop(flat.nodes[edge.source], {x[v], bands.center(g.layer[v])}, options, points);
    } else {
      const auto path = g.path(e);
      if (reversed[e]) {
        route_reversed(edge, path, g, x, bands, options, points);
      } else {
        const uint32_t upper = path.front(), lower = path.back();
        const double upper_x = x[upper] + edge.source_offset;
        const double lower_x = x[lower] + edge.target_offset;
        const uint32_t ul = g.layer[upper], ll = g.layer[lower];
        append_point(points, start, {upper_x, bands.center(ul) + g.height[upper] / 2});
        append_point(points, start, {upper_x, bands.bottom(ul)});
        for (size_t i = 1; i + 1 < path.size(); ++i) {
          const uint32_t d = path[i], l = g.layer[d];
          append_point(points, start, {x[d], bands.top[l]});
          append_point(points, start, {x[d], bands.bottom(l)});
        }
        append_point(points, start, {lower_x, bands.top[ll]});
        append_point(points, start, {lower_x, bands.center(ll) - g.height[lower] / 2});
      }
      if (points.size() - start == 1) points.push_back(points.back());  // zero-length edge
    }
    layout.route_begin.push_back(static_cast<uint32_t>(points.size()));
  }
}

}  // namespace etviz::layout
