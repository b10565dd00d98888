// Counting edge crossings between adjacent layers.
#pragma once

#include <cstdint>

#include "layered_graph.h"

namespace etviz::layout {

// Crossings between layer l and l + 1, each weighted by the product of the segments' weights
// (Barth, Jünger, Mutzel: inversion counting with an accumulator tree), O(E log V).
uint64_t count_crossings_between(const LayeredGraph& graph, const Order& order, uint32_t l);

uint64_t count_crossings(const LayeredGraph& graph, const Order& order);

}  // namespace etviz::layout
