// Edge routes with shared trunks stored once. The engine bundles long edges that leave one
// source at one port into a trunk, so their polylines start with the same points (a model
// input feeding every block: thousands of edges repeating hundreds of points each). Both the
// page writer and the WebAssembly module hand routes to the viewer in this form, so the page
// never copies or compares points in JavaScript.
#pragma once

#include <cstdint>
#include <vector>

#include "layout.h"

namespace etviz::layout {

// The precision the viewer holds coordinates and sizes in (0.1 px; non-finite values are 0).
// The page writer and the WebAssembly module both round with this, so a re-layout in the page
// reproduces the embedded layout exactly.
// Never negative zero (the text columns could not say it).
double round_tenth(double v);

struct SharedRoutes {
  // Edge e's route is the first share_count[e] points of edge share[e]'s route (when
  // share[e] >= 0), followed by points[offsets[e] .. offsets[e + 1]).
  std::vector<int32_t> share;
  std::vector<int32_t> share_count;
  std::vector<uint32_t> offsets;  // edges + 1
  std::vector<double> coords;     // x, y per point, rounded to 0.1
};

// `edge_source[e]` groups edges by source (only edges of one source are compared: each with
// the last 8 edges of its source, sharing the longest common prefix of at least 3 points but
// never an edge's last point). Points are rounded to 0.1 first, which is what the viewer
// draws. Linear in the number of points.
SharedRoutes share_routes(const Layout& layout, const std::vector<uint32_t>& edge_source);

// The same routes per model edge, when only some of the model's edges were laid out: `laid[e]`
// says whether model edge e was, and the laid-out edges are the model's in order. Trunk
// references become model edge indices; edges left out have no points. The page writer and
// the WebAssembly module both hand routes to the viewer in this form.
SharedRoutes spread_routes(const SharedRoutes& laid_out, const std::vector<bool>& laid);

}  // namespace etviz::layout
