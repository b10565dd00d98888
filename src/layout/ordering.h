// Phase 4: crossing minimisation, i.e. the left-to-right order of nodes in each layer.
#pragma once

#include <vector>

#include "layered_graph.h"

namespace etviz::layout {

// Modelled on Graphviz dot's mincross: two initial orders (breadth-first from the sources
// and from the sinks, which keeps the chains of a model together), a few sweeps from each,
// then up to options.ordering_sweeps sweeps from the better one. A sweep sorts each layer by
// the median (or barycenter) of its neighbours in the previous layer and then swaps
// neighbours while that removes crossings (weighted by how many edges a bundle trunk
// carries). The best order seen wins.
//
// Long edges are ordered per dummy or as segments (Options::long_edges, see
// segment_ordering.h). On a graph with a dummy per layer the result is an Order of every
// node, dummies included, whichever ran; on a graph with spans it is made by segments and
// comes in the form with gaps (Order). `crossings`, if given, receives the order's crossings
// (those of the graph with a dummy per layer).
Order order_layers(const LayeredGraph& graph, const Options& options,
                   uint64_t* crossings = nullptr);

// The mincross schedule's bounds, shared by the sweeps per dummy (ordering.cpp) and by
// segments (segment_ordering.cpp): sweeps from each start, then sweeps until kPatience in a
// row leave more than kConvergence of the best crossings; sifting rounds (ordering.cpp) stop
// on the same share.
constexpr int kInitialSweeps = 4;
constexpr int kPatience = 4;
constexpr double kConvergence = 0.995;

// A node's sort key from its neighbours' positions (sorted ascending, not empty): their
// weighted median (kMedian) or their mean (kBarycenter).
double neighbour_key(const std::vector<double>& sorted_positions, OrderingStrategy keys);

}  // namespace etviz::layout
