// Minimum distance between the centres of neighbours in a layer.
#pragma once

#include "layered_graph.h"

namespace etviz::layout {

inline double separation(const LayeredGraph& g, const Options& options, uint32_t a, uint32_t b) {
  auto own = [&](uint32_t v) {
    return g.is_dummy[v] ? options.edge_spacing : options.node_spacing;
  };
  return (g.width[a] + g.width[b]) / 2 + (own(a) + own(b)) / 2;
}

// Width of the drawing for centres x: leftmost left edge to rightmost right edge.
double drawing_width(const LayeredGraph& g, const std::vector<double>& x);

// Width of the widest layer of `order` with every item packed at its separations (spans
// included, each once per layer it passes).
double widest_layer(const LayeredGraph& g, const Order& order, const Options& options);

}  // namespace etviz::layout
