// Crossing minimisation with long edges held as segments (LongEdgeOrdering::kSegments), after
// Eiglsperger, Siebenhaller and Kaufmann, "An Efficient Implementation of Sugiyama's
// Algorithm for Layered Graph Drawing" (2005).
//
// A run of three or more dummies in which each has one neighbour above and one below (a long
// edge, or a bundle trunk between two branches) keeps its first dummy p and last dummy q as
// items of their layers; the dummies between them form its *inner segment*, which is one
// item however many layers it passes. Contract, on top of order_layers():
//
// - Inner segments never cross each other: two segments that pass the same layers keep one
//   left-to-right order in all of them (what Brandes–Köpf draws anyway: a segment is one
//   block, so it is straight).
// - A sweep from layer i to i + 1 places the nodes of i + 1 (real nodes, p and q dummies,
//   dummies of short runs and trunk branches) by the median or barycenter of their
//   neighbours' positions in i, and the segments passing i + 1 by their position in i:
//   segments that pass i as well keep their order, a segment starting below a p sits where p
//   is. Positions are those of the expanded layer (each segment counts as one slot), so keys
//   mean what they mean in the per-dummy sweeps.
// - Crossings are the per-dummy graph's crossings, weighted as there: node-to-node segments
//   by inversion counting, and each node-to-node segment against the inner segments between
//   its ends' places among them (segments are ordered, so that is a prefix-weight difference).
// - No adjacent transpositions (Options::transpose is ignored): a sweep costs
//   O((N + S) log(N + S)) for N nodes other than inner dummies and S segments, not the
//   number of dummies, and so do the breadth-first initial orders (a segment is one hop);
//   only finding the segments and the final expansion into an Order touch every dummy, once,
//   and on a graph with spans (LayeredForm::kSpans) there is neither: each span is a
//   segment, and the order is handed over with gaps.
// - Deterministic: ties are broken by the previous order, as in the per-dummy sweeps, and
//   the segment sequence is a treap whose priorities are a fixed hash of segment ids.
#pragma once

#include <cstdint>

#include "layered_graph.h"

namespace etviz::layout {

// Whether order_layers() orders `graph` by segments: it has spans (which are segments
// already), Options::long_edges says so, or is kAuto and the dummies exceed three times the
// input edges. Under kAuto, an order by
// segments that leaves more crossings than the graph has edges is compared with the
// per-dummy one, and the one with fewer crossings is kept (order_layers in ordering.cpp).
bool orders_by_segments(const LayeredGraph& graph, const Options& options);

// dot's mincross schedule (as the per-dummy ordering runs it, without transpositions) over
// segments, with `keys` kMedian or kBarycenter; `crossings` receives the result's.
Order order_by_segments(const LayeredGraph& graph, const Options& options, OrderingStrategy keys,
                        uint64_t& crossings);

}  // namespace etviz::layout
