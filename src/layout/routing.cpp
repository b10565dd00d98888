#include "routing.h"

#include <algorithm>
#include <deque>

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
void route_reversed(const FlatGraph& flat, const FlatGraph::Edge& edge,
                    const LayeredGraph::Path& path, const LayeredGraph& g,
                    const std::vector<double>& x, const LayerBands& bands, const Options& options,
                    std::vector<Point>& points) {
  const size_t start = points.size();
  const uint32_t source = g.of_flat[edge.source], target = g.of_flat[edge.target];
  const uint32_t sl = g.layer[source], tl = g.layer[target];
  const double source_x = x[source] + flat.source_offset(edge);
  const double target_x = x[target] + flat.target_offset(edge);
  const double aside = std::min(options.node_spacing, options.edge_spacing) / 2;
  const double source_side = x[source] + g.width[source] / 2 + aside;
  const double target_side = x[target] + g.width[target] / 2 + aside;
  const double below = bands.bottom(sl) + options.layer_spacing / 2;
  const double above = bands.top[tl] - options.layer_spacing / 2;
  append_point(points, start, {source_x, bands.center(sl) + flat.nodes[edge.source].height / 2});
  append_point(points, start, {source_x, below});
  append_point(points, start, {source_side, below});
  append_point(points, start, {source_side, bands.top[sl]});
  // The dummies bottom-up: collected top-down first (reversed edges are rare and short).
  std::vector<uint32_t> dummies;
  for (uint32_t i = 0, d = path.first_dummy; i < path.dummies; ++i, d = g.dummy_below(d))
    dummies.push_back(d);
  for (auto it = dummies.rbegin(); it != dummies.rend(); ++it) {
    const uint32_t d = *it;
    append_point(points, start, {x[d], bands.bottom(g.bottom_layer(d))});
    append_point(points, start, {x[d], bands.top[g.layer[d]]});
  }
  append_point(points, start, {target_side, bands.bottom(tl)});
  append_point(points, start, {target_side, above});
  append_point(points, start, {target_x, above});
  append_point(points, start, {target_x, bands.center(tl) - flat.nodes[edge.target].height / 2});
}

// The last two points of a forward edge's route: into its lower node.
template <typename Append>
void points_into_lower(const FlatGraph& flat, const FlatGraph::Edge& edge, const LayeredGraph& g,
                       const std::vector<double>& x, const LayerBands& bands, Append&& append) {
  const uint32_t lower = g.of_flat[edge.target], ll = g.layer[lower];
  const double lower_x = x[lower] + flat.target_offset(edge);
  append(Point{lower_x, bands.top[ll]});
  append(Point{lower_x, bands.center(ll) - flat.nodes[edge.target].height / 2});
}

// A forward edge's route before joining (append_point), point by point: down from its upper
// node, through each dummy's band (a span's from its first layer to its last), into its lower
// node. Edges that share a trunk share its first 2 + 2 * dummies points when they leave their
// common upper node at the same x.
template <typename Append>
void forward_points(const FlatGraph& flat, const FlatGraph::Edge& edge,
                    const LayeredGraph::Path& path, const LayeredGraph& g,
                    const std::vector<double>& x, const LayerBands& bands, Append&& append) {
  const uint32_t upper = g.of_flat[edge.source];
  const double upper_x = x[upper] + flat.source_offset(edge);
  const uint32_t ul = g.layer[upper];
  append(Point{upper_x, bands.center(ul) + flat.nodes[edge.source].height / 2});
  append(Point{upper_x, bands.bottom(ul)});
  for (uint32_t i = 0, d = path.first_dummy; i < path.dummies; ++i, d = g.dummy_below(d)) {
    append(Point{x[d], bands.top[g.layer[d]]});
    append(Point{x[d], bands.bottom(g.bottom_layer(d))});
  }
  points_into_lower(flat, edge, g, x, bands, append);
}

// Appends edge e's route to `points`.
void route_edge(const FlatGraph& flat, const LayeredGraph& g, const std::vector<uint8_t>& reversed,
                const std::vector<double>& x, const LayerBands& bands, const Options& options,
                uint32_t e, std::vector<Point>& points) {
  const FlatGraph::Edge& edge = flat.edges[e];
  const size_t start = points.size();
  if (edge.source == edge.target) {
    const uint32_t v = g.of_flat[edge.source];
    route_self_loop(flat.nodes[edge.source], {x[v], bands.center(g.layer[v])}, options, points);
    return;
  }
  const LayeredGraph::Path& path = g.paths[e];
  if (reversed[e]) {
    route_reversed(flat, edge, path, g, x, bands, options, points);
  } else {
    forward_points(flat, edge, path, g, x, bands, [&](Point p) { append_point(points, start, p); });
  }
  if (points.size() - start == 1) points.push_back(points.back());  // zero-length edge
}

}  // namespace

void route_edges(const FlatGraph& flat, const LayeredGraph& g, const std::vector<uint8_t>& reversed,
                 const std::vector<double>& x, const LayerBands& bands, const Options& options,
                 FlatLayout& layout) {
  const auto m = static_cast<uint32_t>(flat.edges.size());
  // Forward edges that enter the same first dummy run down one bundle trunk. Each bundle's
  // deepest edge (the first of equals) leads: its route is stored whole, and the others
  // store only what follows the points they have in common with it.
  constexpr uint32_t kFollowed = 0x80000000u;  // flag on a leader with at least one follower
  std::vector<uint32_t> leader_at(g.node_count(), kNone);
  auto trunk_of = [&](uint32_t e) {
    if (reversed[e] || flat.edges[e].source == flat.edges[e].target) return kNone;
    return g.paths[e].first_dummy;
  };
  for (uint32_t e = 0; e < m; ++e) {
    const uint32_t d = trunk_of(e);
    if (d == kNone) continue;
    uint32_t& leader = leader_at[d];
    if (leader == kNone) {
      leader = e;
      continue;
    }
    const uint32_t current = leader & ~kFollowed;
    leader = (g.paths[e].dummies > g.paths[current].dummies ? e : current) | kFollowed;
  }
  // Leaders' routes first, so followers can be compared with them. A leader's build is
  // traced (its point count after each point added, and its last point, which later points
  // may still replace), so a follower that leaves the upper node where the leader does
  // continues from the state after their shared points instead of walking the trunk again:
  // per-head attention's branches would otherwise walk it once each (llm_heads_200000: 69 M
  // points walked for 0.76 M stored).
  std::vector<uint32_t> lead_begin(m, kNone), lead_end(m, kNone), trace_begin(m, kNone);
  std::vector<Point> lead_points;
  RouteTrace trace;
  auto followed_leader = [&](uint32_t e) {  // the leaders whose builds are traced
    const uint32_t d = trunk_of(e);
    return d != kNone && leader_at[d] == (e | kFollowed);
  };
  // A leader's trace holds a state per point its route adds: 4 + 2 per dummy. Reserved
  // exactly, not grown by doubling (up to half of it spare, 20 B per state).
  size_t states = 0;
  for (uint32_t e = 0; e < m; ++e) {
    if (followed_leader(e)) states += 4 + 2 * size_t{g.paths[e].dummies};
  }
  trace.count.reserve(states);
  trace.last.reserve(states);
  for (uint32_t e = 0; e < m; ++e) {
    if (!followed_leader(e)) continue;
    const auto start = static_cast<uint32_t>(lead_points.size());
    lead_begin[e] = start;
    trace_begin[e] = static_cast<uint32_t>(trace.count.size());
    forward_points(flat, flat.edges[e], g.paths[e], g, x, bands, [&](Point p) {
      append_point(lead_points, start, p);
      trace.record(lead_points, start);
    });
    if (lead_points.size() - start == 1) lead_points.push_back(lead_points.back());
    lead_end[e] = static_cast<uint32_t>(lead_points.size());
  }

  // Routes are collected in blocks (layout.points): a vector grown by doubling holds up to
  // three times the points while it moves them, and keeps up to twice them afterwards.
  std::deque<Point>& points = layout.points;
  layout.shared_edge.assign(m, kNone);
  layout.shared_count.assign(m, 0);
  layout.route_begin.reserve(m + 1);
  std::vector<Point> route;
  for (uint32_t e = 0; e < m; ++e) {
    const uint32_t d = trunk_of(e);
    const uint32_t leader = d == kNone ? kNone : leader_at[d] & ~kFollowed;
    if (leader == kNone || lead_begin[leader] == kNone) {
      route.clear();
      route_edge(flat, g, reversed, x, bands, options, e, route);
      points.insert(points.end(), route.begin(), route.end());
    } else if (leader == e) {
      points.insert(points.end(), lead_points.begin() + lead_begin[e],
                    lead_points.begin() + lead_end[e]);
    } else {
      // From the leader's state after their shared points when the edge leaves the upper node
      // where the leader does, else whole.
      const Point* lead = lead_points.data() + lead_begin[leader];
      FollowerRoute drawn{lead, 0, 0, &route};
      if (flat.source_offset(flat.edges[e]) == flat.source_offset(flat.edges[leader])) {
        drawn = follow(lead, trace, trace_begin[leader], 2 + 2 * g.paths[e].dummies, route);
        points_into_lower(flat, flat.edges[e], g, x, bands,
                          [&](Point p) { append_point(route, 0, p); });
        if (drawn.size() == 1) route.push_back(route.back());  // zero-length edge
      } else {
        route.clear();
        route_edge(flat, g, reversed, x, bands, options, e, route);
      }
      // Points equal to the leader's, up to where the edge leaves the trunk.
      const size_t common = drawn.common_with_leader(lead_end[leader] - lead_begin[leader]);
      if (common > 0) {
        layout.shared_edge[e] = leader;
        layout.shared_count[e] = static_cast<uint32_t>(common);
      }
      for (size_t i = common; i < drawn.size(); ++i) points.push_back(drawn(i));
    }
    layout.route_begin.push_back(static_cast<uint32_t>(points.size()));
  }
}

}  // namespace etviz::layout
