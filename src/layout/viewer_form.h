// A layout in the form the viewer holds it: structure of arrays per model node, group and
// edge, every coordinate at the page's 0.1 precision, routes with shared trunks stored once
// (route_sharing.h). The page writer (the embedded initial layout) and the WebAssembly module
// (every re-layout in the page) both produce this form from the engine's Layout, so a
// re-layout of the initial expand state reproduces the embedded layout exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "layout.h"
#include "route_sharing.h"

namespace etviz::layout {

struct ViewerForm {
  std::vector<double> node_x, node_y, node_w, node_h;
  std::vector<double> group_x, group_y, group_w, group_h;
  SharedRoutes routes;                   // per model edge
  std::vector<double> label_x, label_y;  // per model edge (0 for edges left out)
  Rect bounds;
};

// `laid[e]`: whether model edge e was laid out (the laid-out edges are the model's, in
// order, as layout.edges); `laid_sources[k]`: the source node of laid-out edge k.
ViewerForm viewer_form(const Layout& layout, const std::vector<bool>& laid,
                       const std::vector<uint32_t>& laid_sources);

}  // namespace etviz::layout
