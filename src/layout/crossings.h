// Counting edge crossings between adjacent layers.
#pragma once

#include <cstdint>
#include <span>

#include "layered_graph.h"

namespace etviz::layout {

// An edge between two adjacent layers by the ranks of its ends within them.
struct RankedEdge {
  uint32_t upper = 0;
  uint32_t lower = 0;
  uint32_t weight = 1;
};

// Crossings among `edges`, in order of upper rank (any order among one upper node's edges;
// all lower < lower_size), each weighted by the product of the two edges' weights; edges
// sharing an end do not cross (Barth, Jünger, Mutzel: inversion counting with an
// accumulator tree), O(E log V).
uint64_t count_ranked_crossings(std::span<const RankedEdge> edges, uint32_t lower_size);

// Crossings between layer l and l + 1 of `order`.
uint64_t count_crossings_between(const LayeredGraph& graph, const Order& order, uint32_t l);

uint64_t count_crossings(const LayeredGraph& graph, const Order& order);

}  // namespace etviz::layout
