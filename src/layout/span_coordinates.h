// Phase 5 on a graph with spans (LayeredForm::kSpans): horizontal coordinates where each span
// is one item with one x in every layer it passes, so long edges are straight by
// construction and the work per sweep is O(nodes + spans), not O(dummies).
#pragma once

#include <vector>

#include "layered_graph.h"

namespace etviz::layout {

// Contract:
// - Input: a graph with spans and its Order in the form with gaps (order_layers()).
// - Separation: items that are neighbours in some layer (nodes, and spans in every layer
//   they pass) are at least separation() apart, in the order's left-to-right order. These
//   constraints are few: per node its neighbours in its layer, per span its neighbours in
//   the layers where it starts or ends or where a node sits next to it, found with one
//   sweep over the layers that keeps the spans passing the current layer in a Fenwick tree
//   over the span order.
// - Start: halfway between every item packed left and every item packed right (longest
//   paths over the constraints, in topological order and back), which is as narrow as the
//   constraints allow.
// - Sweeps (as sweep_x, same weights): down and up over the layers, each layer's nodes
//   placed by isotonic regression (pool-adjacent-violators) on the weighted mean of their
//   neighbours, between the spans that bound them, which stay put; after each layer sweep
//   every span moves, in span order, to the mean of its two ends, as far as its neighbours
//   allow. Every step keeps the constraints, so the result is always a valid placement. A
//   sweep that makes the drawing wider than the start is undone and ends the sweeps (an
//   unrolled U-Net's steps otherwise drift sideways: 837 -> 888 px at 20k nodes).
// - End: runs of dummies (and spans) are straightened as in sweep_x, within the same
//   constraints.
std::vector<double> span_sweep_x(const LayeredGraph& graph, const Order& order,
                                 const Options& options);

}  // namespace etviz::layout
