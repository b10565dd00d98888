// The layered pipeline for one level of the compound graph (layout_flat in flat_graph.h):
// cycle breaking → layering → long-edge splitting → ordering → coordinates → routing, per
// connected component, with components packed in rows.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "adjacency.h"
#include "components.h"
#include "coordinates.h"
#include "cycle_breaking.h"
#include "flat_graph.h"
#include "layering.h"
#include "level_topology.h"
#include "ordering.h"
#include "routing.h"
#include "spacing.h"

namespace etviz::layout {
namespace {

Rect bounds_of(const FlatGraph& graph, const FlatLayout& layout) {
  double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  auto take = [&](double left, double top, double right, double bottom) {
    x0 = std::min(x0, left);
    y0 = std::min(y0, top);
    x1 = std::max(x1, right);
    y1 = std::max(y1, bottom);
  };
  for (size_t v = 0; v < graph.nodes.size(); ++v) {
    const Point c = layout.centers[v];
    const double hw = graph.nodes[v].width / 2, hh = graph.nodes[v].height / 2;
    take(c.x - hw, c.y - hh, c.x + hw, c.y + hh);
  }
  for (const Point& p : layout.points) take(p.x, p.y, p.x, p.y);
  if (x0 > x1) return {};
  return {x0, y0, x1 - x0, y1 - y0};
}

// Dummies the graph would have without trunks: each edge's own, one per layer it passes (what
// a per-layer graph's paths count, trunks or not).
uint64_t unbundled_dummies(const LayeredGraph& g) {
  uint64_t dummies = 0;
  for (const LayeredGraph::Path& p : g.paths) dummies += p.dummies;
  return dummies;
}

bool has_trunks(const LayeredGraph& g) {
  for (const uint32_t w : g.weights)
    if (w > 1) return true;
  return false;
}

ComponentTopology component_topology(const FlatGraph& graph, const Options& options) {
  ComponentTopology t;
  t.bundled = options.bundle_fan_out;
  {
    const Adjacency adjacency(graph);  // gone before the layered graph is built
    t.reversed = break_cycles(graph, adjacency);
    t.layer = assign_layers(graph, adjacency, t.reversed, options.layering, options.bundle_fan_out);
  }
  t.layered = build_layered_graph(graph, t.layer, t.reversed, options.bundle_fan_out,
                                  layered_form(options));
  t.has_layered = true;
  uint64_t crossings = 0;
  t.order = order_layers(t.layered, options, &crossings);
  t.spans = t.layered.has_spans();
  // Orders the graph with a dummy per layer, with or without trunks, as `with` says, and
  // keeps that order where it crosses less.
  auto keep_if_fewer = [&](bool bundled, const Options& with) {
    LayeredGraph alternative =
        build_layered_graph(graph, t.layer, t.reversed, bundled, LayeredForm::kPerLayer);
    uint64_t other_crossings = 0;
    Order other = order_layers(alternative, with, &other_crossings);
    if (other_crossings >= crossings) return;
    t.layered = std::move(alternative);
    t.order = std::move(other);
    t.spans = false;
    t.bundled = bundled;
    crossings = other_crossings;
  };
  if (t.spans && options.long_edges == LongEdgeOrdering::kAuto &&
      crossings > t.layered.paths.size()) {
    // Segments that must not cross each other cost crossings where long edges have to cross
    // many others (the top level of a per-head LLM drawn with its decoder layers as groups:
    // 5.5 M crossings vs 2.6 M per dummy at 20k nodes). Where they leave more crossings than
    // edges, the per-dummy sweeps run on the graph with a dummy per layer, and the order
    // with fewer crossings is kept.
    Options per_dummy = options;
    per_dummy.long_edges = LongEdgeOrdering::kPerDummy;
    keep_if_fewer(t.bundled, per_dummy);
  }
  // Trunks save dummies and, mostly, crossings (shared rope tables feeding every layer), but
  // where the branches leaving a trunk must cross what lies between it and their targets,
  // edges drawn on their own can do better (per-head attention at 2k nodes: 21,327 vs
  // 19,978 crossings; dot 19,621). Where the graph without trunks is small enough to order
  // cheaply, it is ordered too, and the drawing with fewer crossings is kept; past that size
  // (the same graph at 20k nodes: 1.8 M dummies without trunks, 30 s) trunks stay. Orders
  // by segments (asked for, or chosen for a graph with spans) are kept as they are.
  constexpr uint64_t kMaxUnbundledDummies = 20'000;
  if (t.bundled && !t.spans && options.long_edges == LongEdgeOrdering::kAuto && crossings > 0 &&
      has_trunks(t.layered) && unbundled_dummies(t.layered) <= kMaxUnbundledDummies) {
    Options separate = options;
    separate.bundle_fan_out = false;
    separate.long_edges = LongEdgeOrdering::kPerDummy;
    keep_if_fewer(false, separate);
  }
  return t;
}

FlatLayout layout_component(const FlatGraph& graph, const Options& options, ComponentTopology& t) {
  const std::vector<uint32_t>& layer = t.layer;
  LayeredGraph g =
      t.has_layered ? std::move(t.layered)
                    : build_layered_graph(graph, layer, t.reversed, t.bundled,
                                          t.spans ? LayeredForm::kSpans : LayeredForm::kPerLayer);
  t.layered = {};
  t.has_layered = false;
  release(g.by_creation);  // the ordering's tie-breaks, done
  // Room for self-loops, which go round the right side.
  auto room_for_self_loops = [&](LayeredGraph& lg) {
    for (const FlatGraph::Edge& e : graph.edges) {
      if (e.source == e.target)
        lg.width[lg.of_flat[e.source]] = graph.nodes[e.source].width + 2 * options.edge_spacing;
    }
  };
  room_for_self_loops(g);
  std::vector<double> x = assign_x(g, t.order, options);
  constexpr double kWideSpans = 2;  // times the widest layer, as assign_x's kAuto rule
  if (g.has_spans() && drawing_width(g, x) > kWideSpans * widest_layer(g, t.order, options)) {
    // Spans are straight from end to end, so where the order puts many nodes on alternating
    // sides of long edges (a crossing-heavy graph), the separations chain across layers
    // and the drawing drifts wide (random_dag_10000 with kSegments: 27,445 px against 3,055
    // with a dummy per layer). Then the graph with a dummy per layer, in the same order
    // (both forms order alike), is placed as well, and the narrower drawing is kept.
    LayeredGraph per_layer =
        build_layered_graph(graph, layer, t.reversed, t.bundled, LayeredForm::kPerLayer);
    room_for_self_loops(per_layer);
    Options by_segments = options;
    by_segments.long_edges = LongEdgeOrdering::kSegments;
    const Order order = order_layers(per_layer, by_segments);
    std::vector<double> other = assign_x(per_layer, order, options);
    if (drawing_width(per_layer, other) < drawing_width(g, x)) {
      g = std::move(per_layer);
      x = std::move(other);
    }
  }

  g.release_segments();
  LayerBands bands;
  bands.height.assign(g.layer_count, 0);
  bands.top.assign(g.layer_count, 0);
  for (uint32_t f = 0; f < graph.nodes.size(); ++f) {
    const uint32_t l = g.layer[g.of_flat[f]];
    bands.height[l] = std::max(bands.height[l], graph.nodes[f].height);
  }
  for (uint32_t l = 1; l < g.layer_count; ++l) {
    bands.top[l] = bands.top[l - 1] + bands.height[l - 1] + options.layer_spacing;
  }

  FlatLayout layout;
  layout.centers.resize(graph.nodes.size());
  for (uint32_t v = 0; v < graph.nodes.size(); ++v) {
    layout.centers[v] = {x[g.of_flat[v]], bands.center(layer[v])};
  }
  layout.route_begin.push_back(0);
  route_edges(graph, g, t.reversed, x, bands, options, layout);
  layout.bounds = bounds_of(graph, layout);
  return layout;
}

// Where each component's layout goes (added to its coordinates): in rows of about the square
// root of their total area (at least the widest), in first-seen order. A component taller
// than that row width would make its row as tall as itself, the rest of the row nearly empty
// and the drawing wide: a deep model whose broadcast inputs the page leaves out keeps each
// input's little chain as a component of its own (a 200k-node U-Net with 101 such chains:
// 15,119 px wide, its main component 837). Such tall components stand side by side, left,
// and the others are packed in rows in a block to their right.
std::vector<Point> pack_components(const std::vector<FlatLayout>& laid, const Options& options) {
  const double gap = options.component_spacing;
  // Rows about as wide as the square root of the components' area, at least the widest.
  auto row_width = [&](auto&& included) {
    double area = 0, widest = 0;
    for (const FlatLayout& part : laid) {
      if (!included(part.bounds)) continue;
      area += (part.bounds.width + gap) * (part.bounds.height + gap);
      widest = std::max(widest, part.bounds.width);
    }
    return std::max(widest, std::sqrt(area));
  };
  const double square = row_width([](const Rect&) { return true; });
  auto tall = [&](const Rect& b) { return b.height > square; };
  std::vector<Point> offset(laid.size());
  double left = 0;  // where the block of the others starts
  for (size_t c = 0; c < laid.size(); ++c) {
    const Rect& b = laid[c].bounds;
    if (!tall(b)) continue;
    offset[c] = {left - b.x, -b.y};
    left += b.width + gap;
  }
  // With no tall component this is `square` again: the whole drawing in rows.
  const double width = row_width([&](const Rect& b) { return !tall(b); });
  double cursor_x = 0, cursor_y = 0, row_height = 0;
  for (size_t c = 0; c < laid.size(); ++c) {
    const Rect& b = laid[c].bounds;
    if (tall(b)) continue;
    if (cursor_x > 0 && cursor_x + b.width > width) {
      cursor_x = 0;
      cursor_y += row_height + gap;
      row_height = 0;
    }
    offset[c] = {left + cursor_x - b.x, cursor_y - b.y};
    cursor_x += b.width + gap;
    row_height = std::max(row_height, b.height);
  }
  return offset;
}

// The graph of each component, with nodes and edges renumbered in their original order.
std::vector<FlatGraph> split_components(const FlatGraph& graph, const Components& components,
                                        std::vector<uint32_t>& local) {
  std::vector<FlatGraph> parts(components.count);
  // Each part has its own table of port offsets: (part, index in graph's) -> index in part's.
  std::unordered_map<uint64_t, uint32_t> part_port;
  auto port_in = [&](uint32_t c, uint32_t p) {
    if (p == 0) return 0u;
    const auto [it, added] = part_port.try_emplace(
        (uint64_t{c} << 32) | p, static_cast<uint32_t>(parts[c].port_offsets.size()));
    if (added) parts[c].port_offsets.push_back(graph.port_offsets[p]);
    return it->second;
  };
  // Each part's lists exactly sized: grown by push_back, a graph whose main component holds
  // nearly everything (per-head attention as the page lays it out, 200k nodes) kept 5.6 MB of
  // spare capacity through every phase of its layout.
  std::vector<uint32_t> node_count(components.count, 0), edge_count(components.count, 0);
  for (uint32_t v = 0; v < graph.nodes.size(); ++v) ++node_count[components.of_node[v]];
  for (const FlatGraph::Edge& e : graph.edges) ++edge_count[components.of_node[e.source]];
  for (uint32_t c = 0; c < components.count; ++c) {
    parts[c].nodes.reserve(node_count[c]);
    parts[c].edges.reserve(edge_count[c]);
  }
  local.assign(graph.nodes.size(), 0);
  for (uint32_t v = 0; v < graph.nodes.size(); ++v) {
    FlatGraph& part = parts[components.of_node[v]];
    local[v] = static_cast<uint32_t>(part.nodes.size());
    part.add_node(graph.nodes[v].width, graph.nodes[v].height, graph.pin(v));
  }
  for (const FlatGraph::Edge& e : graph.edges) {
    const uint32_t c = components.of_node[e.source];
    parts[c].edges.push_back(
        {local[e.source], local[e.target], port_in(c, e.source_port), port_in(c, e.target_port)});
  }
  return parts;
}

}  // namespace

LevelTopology level_topology(const FlatGraph& graph, const Options& options) {
  LevelTopology t;
  t.components = find_components(graph);
  if (t.components.count <= 1) {
    release(t.components.of_node);  // one part: the graph itself (4 B per node less)
    t.parts.push_back(component_topology(graph, options));
    return t;
  }
  std::vector<uint32_t> local;
  const std::vector<FlatGraph> parts = split_components(graph, t.components, local);
  t.parts.reserve(parts.size());
  for (const FlatGraph& part : parts) t.parts.push_back(component_topology(part, options));
  return t;
}

FlatLayout layout_flat(const FlatGraph& graph, const Options& options) {
  LevelTopology topology = level_topology(graph, options);
  return layout_flat(graph, options, topology);
}

FlatLayout layout_flat(const FlatGraph& graph, const Options& options, LevelTopology& topology) {
  const Components& components = topology.components;
  if (components.count <= 1) return layout_component(graph, options, topology.parts[0]);

  // Lay out each component on its own, then pack them (pack_components).
  std::vector<uint32_t> local;
  const std::vector<FlatGraph> parts = split_components(graph, components, local);
  std::vector<FlatLayout> laid(components.count);
  for (uint32_t c = 0; c < components.count; ++c)
    laid[c] = layout_component(parts[c], options, topology.parts[c]);
  const std::vector<Point> offset = pack_components(laid, options);

  FlatLayout layout;
  layout.centers.resize(graph.nodes.size());
  for (uint32_t v = 0; v < graph.nodes.size(); ++v) {
    const uint32_t c = components.of_node[v];
    const Point p = laid[c].centers[local[v]];
    layout.centers[v] = {p.x + offset[c].x, p.y + offset[c].y};
  }
  for (FlatLayout& part : laid) release(part.centers);
  // Edge indices of each component's edges, for the leaders of shared routes.
  std::vector<std::vector<uint32_t>> edge_of(components.count);
  for (uint32_t e = 0; e < graph.edges.size(); ++e)
    edge_of[components.of_node[graph.edges[e].source]].push_back(e);
  std::vector<uint32_t> next_edge(components.count, 0);
  layout.route_begin.reserve(graph.edges.size() + 1);
  layout.route_begin.push_back(0);
  layout.shared_edge.assign(graph.edges.size(), kNone);
  layout.shared_count.assign(graph.edges.size(), 0);
  for (uint32_t e = 0; e < graph.edges.size(); ++e) {
    const uint32_t c = components.of_node[graph.edges[e].source];
    const FlatLayout& part = laid[c];
    const uint32_t i = next_edge[c]++;
    if (part.shared_edge[i] != kNone) {
      layout.shared_edge[e] = edge_of[c][part.shared_edge[i]];
      layout.shared_count[e] = part.shared_count[i];
    }
    for (uint32_t p = part.route_begin[i]; p < part.route_begin[i + 1]; ++p) {
      layout.points.push_back({part.points[p].x + offset[c].x, part.points[p].y + offset[c].y});
    }
    layout.route_begin.push_back(static_cast<uint32_t>(layout.points.size()));
  }
  layout.bounds = bounds_of(graph, layout);
  return layout;
}

}  // namespace etviz::layout
