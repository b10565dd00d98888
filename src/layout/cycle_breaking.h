// Phase 1: make the graph acyclic by reversing a set of edges.
#pragma once

#include <cstdint>
#include <vector>

#include "adjacency.h"

namespace etviz::layout {

// Depth-first search from the nodes in id order; edges closing a cycle (back edges) are
// reversed. Iterative, so deep graphs cannot overflow the stack. Returns one flag per edge.
std::vector<uint8_t> break_cycles(const FlatGraph& graph, const Adjacency& adjacency);

}  // namespace etviz::layout
