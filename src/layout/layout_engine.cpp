// Compound layout: lays out each level bottom-up (a group's box and border ports are known
// before its parent is laid out), places levels top-down, then joins each edge's pieces.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "containers.h"
#include "hierarchy.h"
#include "layout.h"
#include "layout_cache.h"
#include "polyline.h"

namespace etviz::layout {
namespace {

// A level's layout moved into its own box: (0, 0) is the box's top-left corner.
struct PlacedLevel {
  const FlatLayout* layout = nullptr;
  Point shift;  // add to layout coordinates to get box coordinates
  double width = 0, height = 0;
  Point origin;  // absolute position of the box's top-left corner
};

double port_offset(uint32_t slot, uint32_t ports, double width) {
  if (slot == kNone || ports == 0) return 0;
  return width * (slot + 1.0) / (ports + 1.0) - width / 2;
}

// Fills in group sizes and port offsets from the levels below, which are already placed.
void complete_level(Container& c, const ContainerSet& set, const Hierarchy& h,
                    const std::vector<PlacedLevel>& placed) {
  for (uint32_t i = 0; i < c.item_count; ++i) {
    const uint32_t item = c.item(i);
    if (!h.is_group_item(item)) continue;
    const uint32_t child = set.container_of_group[h.group_of_item(item)];
    if (child == kNone) continue;  // collapsed: size set already
    c.flat.nodes[i].width = placed[child].width;
    c.flat.nodes[i].height = placed[child].height;
  }
  auto offset = [&](uint32_t local, uint32_t slot, bool outgoing) {
    if (slot == kNone || local >= c.item_count) return 0.0;
    const uint32_t item = c.item(local);
    if (!h.is_group_item(item)) {
      const uint32_t ports = outgoing ? set.out_ports[item] : set.in_ports[item];
      return port_offset(slot, ports, c.flat.nodes[local].width);
    }
    const PlacedLevel& child = placed[set.container_of_group[h.group_of_item(item)]];
    return child.layout->centers[slot].x + child.shift.x - child.width / 2;
  };
  c.flat.port_offsets.assign(1, 0.0);
  PortTable port(c.flat.port_offsets);
  for (size_t e = 0; e < c.flat.edges.size(); ++e) {
    FlatGraph::Edge& edge = c.flat.edges[e];
    edge.source_port = port(offset(edge.source, c.ends[e].source_slot, true));
    edge.target_port = port(offset(edge.target, c.ends[e].target_slot, false));
  }
}

// The group box: content plus padding; sides with border ports get no vertical padding,
// since the port layers are the box's top and bottom.
PlacedLevel place_level(const Container& c, const FlatLayout& layout, const Options& options) {
  PlacedLevel p;
  p.layout = &layout;
  const Rect& b = layout.bounds;
  if (c.group == kNone) {
    p.shift = {-b.x, -b.y};
    p.width = b.width;
    p.height = b.height;
    return p;
  }
  const double pad = options.group_padding;
  // The title band is at the top of the drawn box: the computed box's left side when the
  // layout is transposed afterwards (left to right).
  const double titled =
      options.group_title > 0 ? std::fmax(pad, options.group_title + pad / 2) : pad;
  const bool transposed = options.direction == Direction::kLeftToRight;
  const double top = c.has_entry_ports ? 0 : transposed ? pad : titled;
  const double bottom = c.has_exit_ports ? 0 : pad;
  const double left = transposed ? titled : pad;
  p.shift = {left - b.x, top - b.y};
  p.width = b.width + left + pad;
  p.height = b.height + top + bottom;
  return p;
}

Point add(Point a, Point b) {
  return {a.x + b.x, a.y + b.y};
}

// sqrt is correctly rounded everywhere, std::hypot is not: native and WebAssembly builds
// must agree to the last bit.
double distance(Point a, Point b) {
  return std::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
}

// `point(i)` gives the route's i-th point (the route may be stored in two pieces).
template <typename PointAt>
Point halfway_along_at(const PointAt& point, uint32_t count) {
  if (count == 0) return {};
  double total = 0;
  for (uint32_t i = 1; i < count; ++i) {
    total += distance(point(i - 1), point(i));
  }
  double remaining = total / 2;
  for (uint32_t i = 1; i < count; ++i) {
    const Point a = point(i - 1), b = point(i);
    const double len = distance(a, b);
    if (len >= remaining && len > 0) {
      const double t = remaining / len;
      return {a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
    }
    remaining -= len;
  }
  return point(count - 1);
}

Point halfway_along(const Point* points, uint32_t count) {
  return halfway_along_at([points](size_t i) { return points[i]; }, count);
}

void transpose(Layout& layout) {
  for (Rect& r : layout.nodes) r = {r.y, r.x, r.height, r.width};
  for (Rect& r : layout.groups) r = {r.y, r.x, r.height, r.width};
  for (Point& p : layout.points) p = {p.y, p.x};
  for (EdgeRoute& e : layout.edges) e.label = {e.label.y, e.label.x};
  layout.bounds = {layout.bounds.y, layout.bounds.x, layout.bounds.height, layout.bounds.width};
}

Layout run_layout(const Graph& graph, const Options& options, LayoutCache* cache,
                  LayoutEngine::Stats& stats) {
  stats = {};
  Hierarchy h = build_hierarchy(graph);
  const bool transposed = options.direction == Direction::kLeftToRight;
  ContainerSet set = build_containers(graph, h, transposed);

  // Bottom-up: deepest levels first.
  const auto count = static_cast<uint32_t>(set.containers.size());
  std::vector<uint32_t> by_depth(count);
  std::iota(by_depth.begin(), by_depth.end(), 0u);
  std::stable_sort(by_depth.begin(), by_depth.end(), [&](uint32_t a, uint32_t b) {
    return set.containers[a].depth > set.containers[b].depth;
  });
  std::vector<PlacedLevel> placed(count);
  std::vector<FlatLayout> owned(cache ? 0 : count);
  for (const uint32_t c : by_depth) {
    Container& container = set.containers[c];
    complete_level(container, set, h, placed);
    // What only complete_level reads goes before the level is laid out: the edges' port
    // slots, and once the last level (the top) is complete, the nodes' port counts.
    release(container.ends);
    if (c == by_depth.back()) {
      release(set.out_ports);
      release(set.in_ports);
    }
    const FlatLayout* layout;
    if (cache) {
      LayoutCache::Hit hit = LayoutCache::Hit::kMiss;
      layout = &cache->get(container.flat, options, hit);
      ++(hit == LayoutCache::Hit::kLayout ? stats.reused : stats.laid_out);
      if (hit == LayoutCache::Hit::kStructure) ++stats.structure_reused;
    } else {
      owned[c] = layout_flat(container.flat, options);
      layout = &owned[c];
      ++stats.laid_out;
    }
    placed[c] = place_level(container, *layout, options);
  }

  // Top-down: a group's box sits where its parent level put the group's item.
  for (auto it = by_depth.rbegin(); it != by_depth.rend(); ++it) {
    const Container& container = set.containers[*it];
    const PlacedLevel& level = placed[*it];
    for (uint32_t i = 0; i < container.item_count; ++i) {
      const uint32_t item = container.item(i);
      if (!h.is_group_item(item)) continue;
      const uint32_t child = set.container_of_group[h.group_of_item(item)];
      if (child == kNone) continue;
      const Point center = add(add(level.layout->centers[i], level.shift), level.origin);
      placed[child].origin = {center.x - placed[child].width / 2,
                              center.y - placed[child].height / 2};
    }
  }

  Layout out;
  // Rectangle of a visible item, in absolute coordinates.
  auto item_rect = [&](uint32_t item) -> Rect {
    const uint32_t c = set.container_of(item);
    const uint32_t i = set.local_of(item);
    const PlacedLevel& level = placed[c];
    const Point center = add(add(level.layout->centers[i], level.shift), level.origin);
    const FlatGraph::Node& node = set.containers[c].flat.nodes[i];
    return {center.x - node.width / 2, center.y - node.height / 2, node.width, node.height};
  };
  auto center_point = [](const Rect& r) {
    return Rect{r.x + r.width / 2, r.y + r.height / 2, 0, 0};
  };
  out.groups.resize(graph.groups.size());
  for (uint32_t g = 0; g < graph.groups.size(); ++g) {
    if (h.is_visible_group(g)) out.groups[g] = item_rect(h.group_item(g));
  }
  for (uint32_t g = 0; g < graph.groups.size(); ++g) {
    if (!h.is_visible_group(g)) out.groups[g] = center_point(out.groups[h.collapsed_rep[g]]);
  }
  out.nodes.resize(graph.nodes.size());
  for (uint32_t v = 0; v < graph.nodes.size(); ++v) {
    const uint32_t item = h.visible_item(v);
    out.nodes[v] = item == v ? item_rect(v) : center_point(out.groups[h.group_of_item(item)]);
  }

  // The routes below read the edge chains and the levels' routes only. What else the levels
  // hold (their graphs, the nodes' centres of the levels laid out here, the hierarchy) goes
  // first, so that the routes reuse its memory: the output phase was as high as the layout's
  // peak (per-head attention at 200k nodes: 75 MB of heap, a quarter of it this).
  h = {};
  for (Container& container : set.containers) {
    container.flat = {};
    release(container.items);
  }
  release(set.item_container);
  release(set.item_local);
  for (FlatLayout& layout : owned) release(layout.centers);

  // Each edge's route is its level edges' routes joined end to end. An edge whose first level
  // edge shares a bundle trunk's points with a leader (FlatLayout::shared_edge) shares them
  // with the model edge that starts with the leader; leaders are routed first.
  std::vector<std::vector<uint32_t>> starts_at(count);  // model edge starting with a level edge
  for (uint32_t e = 0; e < graph.edges.size(); ++e) {
    const ChainLinks links = set.chain_of(e);
    if (links.empty()) continue;
    const auto [c, fe] = links[0];
    std::vector<uint32_t>& starts = starts_at[c];
    if (starts.empty()) starts.assign(placed[c].layout->route_begin.size() - 1, kNone);
    if (starts[fe] == kNone) starts[fe] = e;
  }
  auto leader_of = [&](uint32_t e) {
    const ChainLinks links = set.chain_of(e);
    if (links.empty()) return kNone;
    const auto [c, fe] = links[0];
    const uint32_t lead = placed[c].layout->shared_edge[fe];
    return lead == kNone ? kNone : starts_at[c][lead];
  };
  // A leader's route is built once into out.points. A follower's route is the leader's up to
  // where the trunk's shared points end, then its own; building it whole (the trunk again for
  // every branch) is what per-head attention's drawing is made of (llm_heads_200000: 69 M
  // drawn points, 0.76 M stored). Instead the leader's build is traced over its first level
  // edge (how many points it had after each of its shared points, and the last one, which
  // later points may still replace), and a follower continues from that state: the points
  // before its last one are the leader's, unchanged since.
  std::vector<uint8_t> followed(graph.edges.size(), 0);
  for (uint32_t e = 0; e < graph.edges.size(); ++e) {
    const uint32_t lead = leader_of(e);
    if (lead != kNone && lead != e) followed[lead] = 1;
  }
  std::vector<uint32_t> trace_begin(graph.edges.size(), kNone);
  RouteTrace trace;
  std::vector<Point> level_route;
  // Appends a chain link's level route to `points` (a route that starts at `start`): whole,
  // or only its own points (those after the prefix it shares with its level's trunk leader);
  // with `traced`, records the build state after each point.
  auto append_level = [&](LevelEdgeRef link, std::vector<Point>& points, size_t start,
                          bool own_only, bool traced) {
    const auto [c, fe] = link;
    const PlacedLevel& level = placed[c];
    const FlatLayout& flat = *level.layout;
    const Point shift = add(level.shift, level.origin);
    level_route.clear();
    if (own_only) {
      level_route.assign(flat.points.begin() + flat.route_begin[fe],
                         flat.points.begin() + flat.route_begin[fe + 1]);
    } else {
      flat.append_route(fe, level_route);
    }
    for (const Point& p : level_route) {
      append_point(points, start, add(p, shift));
      if (traced) trace.record(points, start);
    }
  };
  // out.points exactly reserved from a bound (joining level routes only removes points): a
  // leader stores its level routes whole; a follower at most the two points it continues
  // from, its first level route's own points and the rest of its chain whole.
  size_t bound = 0;
  for (uint32_t e = 0; e < graph.edges.size(); ++e) {
    const uint32_t lead = leader_of(e);
    const ChainLinks links = set.chain_of(e);
    for (uint32_t k = 0; k < links.size(); ++k) {
      const auto [c, fe] = links[k];
      const FlatLayout& flat = *placed[c].layout;
      bound += flat.route_begin[fe + 1] - flat.route_begin[fe];
      if (lead != kNone && lead != e && k == 0)
        bound += 2;
      else if (flat.shared_edge[fe] != kNone)
        bound += flat.shared_count[fe];
    }
  }
  out.points.reserve(bound);
  out.edges.resize(graph.edges.size());
  for (uint32_t e = 0; e < graph.edges.size(); ++e) {
    const uint32_t lead = leader_of(e);
    if (lead != kNone && lead != e) continue;
    const auto start = static_cast<uint32_t>(out.points.size());
    if (followed[e]) trace_begin[e] = static_cast<uint32_t>(trace.count.size());
    const ChainLinks links = set.chain_of(e);
    for (uint32_t k = 0; k < links.size(); ++k)
      append_level(links[k], out.points, start, false, followed[e] && k == 0);
    EdgeRoute& route = out.edges[e];
    route.first_point = start;
    route.point_count = static_cast<uint32_t>(out.points.size()) - start;
    route.label = halfway_along(out.points.data() + start, route.point_count);
  }
  std::vector<Point> tail, stored;
  for (uint32_t e = 0; e < graph.edges.size(); ++e) {
    const uint32_t lead = leader_of(e);
    if (lead == kNone || lead == e) continue;
    const ChainLinks links = set.chain_of(e);
    const auto [c, fe] = links[0];
    const EdgeRoute& leader = out.edges[lead];
    const Point* lead_points = out.points.data() + leader.first_point;
    // From the leader's state after their shared points, continued with the follower's own
    // points and the rest of its chain.
    const FollowerRoute drawn =
        follow(lead_points, trace, trace_begin[lead], placed[c].layout->shared_count[fe], tail);
    append_level(links[0], tail, 0, true, false);
    for (uint32_t k = 1; k < links.size(); ++k) append_level(links[k], tail, 0, false, false);
    EdgeRoute& route = out.edges[e];
    route.point_count = static_cast<uint32_t>(drawn.size());
    route.label = halfway_along_at(drawn, route.point_count);
    // The points it has in common with the leader's route are the leader's.
    const size_t common = drawn.common_with_leader(leader.point_count);
    if (common > 0) {
      route.shared_edge = lead;
      route.shared_count = static_cast<uint32_t>(common);
    }
    stored.clear();  // out.points holds the leader's points: copy before it grows
    for (size_t i = common; i < route.point_count; ++i) stored.push_back(drawn(i));
    route.first_point = static_cast<uint32_t>(out.points.size());
    out.points.insert(out.points.end(), stored.begin(), stored.end());
  }
  out.bounds = {0, 0, placed[0].width, placed[0].height};
  if (transposed) transpose(out);
  return out;
}

}  // namespace

struct LayoutEngine::Cache {
  LayoutCache levels;
  std::vector<uint64_t> options;
  Stats stats;
};

LayoutEngine::LayoutEngine() : cache_(std::make_unique<Cache>()) {}
LayoutEngine::~LayoutEngine() = default;

Layout LayoutEngine::run(const Graph& graph, const Options& options) {
  std::vector<uint64_t> fingerprint = options_fingerprint(options);
  if (fingerprint != cache_->options) {
    cache_->levels.clear();
    cache_->options = std::move(fingerprint);
  }
  Layout layout = run_layout(graph, options, &cache_->levels, cache_->stats);
  cache_->levels.finish_run();
  return layout;
}

LayoutEngine::Stats LayoutEngine::last_run_stats() const {
  return cache_->stats;
}

Point route_point(const Layout& layout, uint32_t edge, uint32_t i) {
  const EdgeRoute& r = layout.edges[edge];
  if (i < r.shared_count) return layout.points[layout.edges[r.shared_edge].first_point + i];
  return layout.points[r.first_point + (i - r.shared_count)];
}

void append_route(const Layout& layout, uint32_t edge, std::vector<Point>& out) {
  const EdgeRoute& r = layout.edges[edge];
  if (r.shared_count > 0) {
    const auto lead = layout.points.begin() + layout.edges[r.shared_edge].first_point;
    out.insert(out.end(), lead, lead + r.shared_count);
  }
  const auto own = layout.points.begin() + r.first_point;
  out.insert(out.end(), own, own + (r.point_count - r.shared_count));
}

Layout compute_layout(const Graph& graph, const Options& options) {
  LayoutEngine::Stats stats;
  return run_layout(graph, options, nullptr, stats);
}

}  // namespace etviz::layout
