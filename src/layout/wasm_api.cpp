// C entry points of the WebAssembly module; wasm_api.js wraps them in a JS API that takes
// and returns typed arrays. One engine instance lives for the module's lifetime, so
// expanding or collapsing a group re-lays out only what changed.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <vector>

#include "layout.h"
#include "route_sharing.h"

namespace {

using namespace etviz::layout;

LayoutEngine& engine() {
  static LayoutEngine instance;
  return instance;
}

// The last result, flattened for the JS side to copy out.
struct Result {
  std::vector<double> node_rects, group_rects, points, labels;
  std::vector<uint32_t> edge_ranges;
  SharedRoutes shared;  // the routes with shared trunks stored once (what the viewer takes)
  double bounds[4] = {0, 0, 0, 0};
};
Result& result() {
  static Result instance;
  return instance;
}

void append_rect(std::vector<double>& out, const Rect& r) {
  out.insert(out.end(), {r.x, r.y, r.width, r.height});
}

}  // namespace

extern "C" {

// node_sizes: width, height per node. node_groups: group per node (0xFFFFFFFF: none).
// edges: source, target, source port, target port per edge (0xFFFFFFFF: no port).
// group_parents / group_expanded / group_collapsed_sizes (width, height): per group.
// options: direction (0 top-to-bottom, 1 left-to-right), node spacing, layer spacing,
// edge spacing, group padding, component spacing, bundle fan-out (0/1).
EMSCRIPTEN_KEEPALIVE int etviz_layout_run(
    uint32_t node_count, const double* node_sizes, const uint32_t* node_groups, uint32_t edge_count,
    const uint32_t* edges, uint32_t group_count, const uint32_t* group_parents,
    const uint8_t* group_expanded, const double* group_collapsed_sizes, const double* options) {
  Graph graph;
  graph.nodes.resize(node_count);
  for (uint32_t v = 0; v < node_count; ++v) {
    graph.nodes[v] = {node_sizes[2 * v], node_sizes[2 * v + 1],
                      node_groups ? node_groups[v] : kNone};
  }
  graph.edges.resize(edge_count);
  for (uint32_t e = 0; e < edge_count; ++e) {
    graph.edges[e] = {edges[4 * e], edges[4 * e + 1], edges[4 * e + 2], edges[4 * e + 3]};
  }
  graph.groups.resize(group_count);
  for (uint32_t g = 0; g < group_count; ++g) {
    graph.groups[g] = {group_parents[g], group_expanded[g] != 0, group_collapsed_sizes[2 * g],
                       group_collapsed_sizes[2 * g + 1]};
  }
  Options o;
  o.direction = options[0] == 1 ? Direction::kLeftToRight : Direction::kTopToBottom;
  o.node_spacing = options[1];
  o.layer_spacing = options[2];
  o.edge_spacing = options[3];
  o.group_padding = options[4];
  o.component_spacing = options[5];
  o.bundle_fan_out = options[6] != 0;

  const Layout layout = engine().run(graph, o);
  Result& r = result();
  r = Result{};
  for (const Rect& rect : layout.nodes) append_rect(r.node_rects, rect);
  for (const Rect& rect : layout.groups) append_rect(r.group_rects, rect);
  for (const Point& p : layout.points) r.points.insert(r.points.end(), {p.x, p.y});
  for (const EdgeRoute& e : layout.edges) {
    r.edge_ranges.insert(r.edge_ranges.end(), {e.first_point, e.point_count});
    r.labels.insert(r.labels.end(), {e.label.x, e.label.y});
  }
  std::vector<uint32_t> sources(edge_count);
  for (uint32_t e = 0; e < edge_count; ++e) sources[e] = graph.edges[e].source;
  r.shared = share_routes(layout, sources);
  r.bounds[0] = layout.bounds.x;
  r.bounds[1] = layout.bounds.y;
  r.bounds[2] = layout.bounds.width;
  r.bounds[3] = layout.bounds.height;
  return static_cast<int>(engine().last_run_stats().laid_out);
}

EMSCRIPTEN_KEEPALIVE const double* etviz_layout_node_rects() {
  return result().node_rects.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_group_rects() {
  return result().group_rects.data();
}
EMSCRIPTEN_KEEPALIVE const uint32_t* etviz_layout_edge_ranges() {
  return result().edge_ranges.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_points() {
  return result().points.data();
}
EMSCRIPTEN_KEEPALIVE uint32_t etviz_layout_point_count() {
  return static_cast<uint32_t>(result().points.size() / 2);
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_labels() {
  return result().labels.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_bounds() {
  return result().bounds;
}
EMSCRIPTEN_KEEPALIVE const int32_t* etviz_layout_share() {
  return result().shared.share.data();
}
EMSCRIPTEN_KEEPALIVE const int32_t* etviz_layout_share_count() {
  return result().shared.share_count.data();
}
EMSCRIPTEN_KEEPALIVE const uint32_t* etviz_layout_shared_offsets() {
  return result().shared.offsets.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_shared_points() {
  return result().shared.coords.data();
}
EMSCRIPTEN_KEEPALIVE uint32_t etviz_layout_shared_point_count() {
  return static_cast<uint32_t>(result().shared.coords.size() / 2);
}
EMSCRIPTEN_KEEPALIVE uint32_t etviz_layout_structure_reused() {
  return static_cast<uint32_t>(engine().last_run_stats().structure_reused);
}

}  // extern "C"
