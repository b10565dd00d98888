// C entry point of the WebAssembly module: one call over the arrays the viewer already holds
// (structure of arrays, -1 for "none", as web/src/data.js keeps them), results as structure
// of arrays in the shape the viewer draws (per model edge, routes with shared trunks stored
// once, every number at the page's 0.1 precision). wasm_api.js only copies arrays in and out.
// One engine instance lives for the module's lifetime, so expanding or collapsing a group
// re-lays out only what changed.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <span>
#include <vector>

#include "layout.h"
#include "viewer_form.h"

namespace {

using namespace etviz::layout;

LayoutEngine& engine() {
  static LayoutEngine instance;
  return instance;
}

// The last result, for the JS side to copy out.
struct Result {
  ViewerForm form;
  uint32_t structure_reused = 0;
  double bounds[4] = {0, 0, 0, 0};
};
Result& result() {
  static Result instance;
  return instance;
}

uint32_t index_or_none(int32_t v) {
  return v < 0 ? kNone : static_cast<uint32_t>(v);
}

}  // namespace

extern "C" {

// Nodes: width, height, group (-1: top level). Edges: source, target, source port, target
// port (-1: none), skip (non-zero: not laid out, e.g. the viewer's detached broadcast edges;
// such edges get no route). Groups: parent (-1: top level), expanded, collapsed width and
// height. options: encode_options() values (layout.h), option_count of them.
// Returns how many containers were laid out (not taken from the cache).
EMSCRIPTEN_KEEPALIVE int etviz_layout_run(
    uint32_t node_count, const double* node_w, const double* node_h, const int32_t* node_group,
    uint32_t edge_count, const int32_t* edge_src, const int32_t* edge_dst,
    const int32_t* edge_sport, const int32_t* edge_tport, const int32_t* edge_skip,
    uint32_t group_count, const int32_t* group_parent, const uint8_t* group_expanded,
    const double* group_cw, const double* group_ch, const double* options, uint32_t option_count) {
  Graph graph;
  graph.nodes.resize(node_count);
  for (uint32_t v = 0; v < node_count; ++v)
    graph.nodes[v] = {node_w[v], node_h[v], index_or_none(node_group[v])};
  std::vector<uint32_t> laid_to_model;
  for (uint32_t e = 0; e < edge_count; ++e) {
    if (edge_skip[e]) continue;
    laid_to_model.push_back(e);
    graph.edges.push_back({index_or_none(edge_src[e]), index_or_none(edge_dst[e]),
                           index_or_none(edge_sport[e]), index_or_none(edge_tport[e])});
  }
  graph.groups.resize(group_count);
  for (uint32_t g = 0; g < group_count; ++g)
    graph.groups[g] = {index_or_none(group_parent[g]), group_expanded[g] != 0, group_cw[g],
                       group_ch[g]};
  const Options o = decode_options(std::span<const double>(options, option_count));

  const Layout layout = engine().run(graph, o);
  std::vector<bool> laid(edge_count);
  for (uint32_t e : laid_to_model) laid[e] = true;
  std::vector<uint32_t> sources(graph.edges.size());
  for (size_t k = 0; k < graph.edges.size(); ++k) sources[k] = graph.edges[k].source;
  Result& r = result();
  r.form = viewer_form(layout, laid, sources);
  r.bounds[0] = layout.bounds.x;
  r.bounds[1] = layout.bounds.y;
  r.bounds[2] = layout.bounds.width;
  r.bounds[3] = layout.bounds.height;
  r.structure_reused = static_cast<uint32_t>(engine().last_run_stats().structure_reused);
  return static_cast<int>(engine().last_run_stats().laid_out);
}

// Pointers into the last result (valid until the next run); the array lengths are the
// counts passed to the run, except etviz_layout_point_count() points.
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_node_x() {
  return result().form.node_x.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_node_y() {
  return result().form.node_y.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_node_w() {
  return result().form.node_w.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_node_h() {
  return result().form.node_h.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_group_x() {
  return result().form.group_x.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_group_y() {
  return result().form.group_y.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_group_w() {
  return result().form.group_w.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_group_h() {
  return result().form.group_h.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_label_x() {
  return result().form.label_x.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_label_y() {
  return result().form.label_y.data();
}
EMSCRIPTEN_KEEPALIVE const int32_t* etviz_layout_share() {
  return result().form.routes.share.data();
}
EMSCRIPTEN_KEEPALIVE const int32_t* etviz_layout_share_count() {
  return result().form.routes.share_count.data();
}
EMSCRIPTEN_KEEPALIVE const uint32_t* etviz_layout_offsets() {
  return result().form.routes.offsets.data();
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_points() {
  return result().form.routes.coords.data();
}
EMSCRIPTEN_KEEPALIVE uint32_t etviz_layout_point_count() {
  return static_cast<uint32_t>(result().form.routes.coords.size() / 2);
}
EMSCRIPTEN_KEEPALIVE const double* etviz_layout_bounds() {
  return result().bounds;
}
EMSCRIPTEN_KEEPALIVE uint32_t etviz_layout_structure_reused() {
  return result().structure_reused;
}

}  // extern "C"
