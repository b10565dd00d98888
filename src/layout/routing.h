// Phase 6: edge routes as polylines.
#pragma once

#include <vector>

#include "layered_graph.h"

namespace etviz::layout {

// Vertical extent of each layer: every node of layer l is centred on top[l] + height[l] / 2.
struct LayerBands {
  std::vector<double> top;
  std::vector<double> height;
  double center(uint32_t l) const { return top[l] + height[l] / 2; }
  double bottom(uint32_t l) const { return top[l] + height[l]; }
};

// Routes leave the source's bottom at its port and enter the target's top. Inside a layer
// band a route runs vertically through its dummy node, which coordinate assignment kept
// clear of boxes; between bands there are no boxes, so diagonals are safe there. Collinear
// points are dropped, so straight long edges have two points. Edges reversed to break cycles
// also leave the bottom and enter the top, looping round the sides of their end nodes
// through the gaps between layers. Self-loops go round the node's right side, which the
// caller reserved. Appends to layout.points / route_begin.
void route_edges(const FlatGraph& flat, const LayeredGraph& g, const std::vector<uint8_t>& reversed,
                 const std::vector<double>& x, const LayerBands& bands, const Options& options,
                 FlatLayout& layout);

}  // namespace etviz::layout
