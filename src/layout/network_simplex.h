// Phase 2 refinement: network-simplex ranking (Gansner, Koutsofios, North and Vo, "A
// Technique for Drawing Directed Graphs", 1993; the ranking dot uses).
//
// Contract: given a feasible ranking of a directed acyclic graph (every edge's head at least
// one rank below its tail), moves nodes so that the total edge length, sum over edges of
// rank(head) - rank(tail), is minimal, keeping every edge at least one rank long. Multiple
// edges between the same pair count once each. The result is optimal unless the work budget
// runs out or the pivots stall on a plateau first (then it is the last ranking reached, which
// is still feasible and never longer in total than the input). Deterministic: the same input gives
// the same ranks on every platform (integer arithmetic only).
//
// Where the greedy moves of layering.cpp stop (a set of nodes must move together, and the
// set is closed neither upwards nor downwards: a value projection with its per-head slices,
// the cache slices they are concatenated with and the cache input above those), the
// simplex pivots find the move, as they do for dot.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace etviz::layout {

struct RankEdge {
  uint32_t tail = 0;
  uint32_t head = 0;
};

struct NetworkSimplexStats {
  uint64_t pivots = 0;
  // With check_numbering: pivots after which the tree's numbering (kept up to date piece by
  // piece) differed from a fresh depth-first search's. Always 0 unless there is a bug.
  uint64_t numbering_errors = 0;
};

// `rank` holds one rank per node (node ids are 0 .. rank.size() - 1) and is updated in
// place (left as it is when it is not feasible or an edge names no node); ranks are shifted so the
// smallest is what it was before. `work_budget` bounds the node and edge visits of the pivots (0: a
// default proportional to the graph's size). `check_numbering` (tests) compares the tree's
// numbering with a fresh search after every pivot, which makes each pivot cost O(nodes).
NetworkSimplexStats minimise_edge_lengths(std::span<const RankEdge> edges,
                                          std::vector<int32_t>& rank, uint64_t work_budget = 0,
                                          bool check_numbering = false);

}  // namespace etviz::layout
