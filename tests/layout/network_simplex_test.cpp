// Network-simplex ranking (network_simplex.h): optimal total edge length, checked against
// every ranking of small graphs, and the move the greedy layering misses in per-head
// attention.
#include "network_simplex.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>

#include "graph_builders.h"
#include "layout.h"

namespace etviz::layout::testing {
namespace {

int64_t total_length(const std::vector<RankEdge>& edges, const std::vector<int32_t>& rank) {
  int64_t sum = 0;
  for (const RankEdge& e : edges) sum += rank[e.head] - rank[e.tail];
  return sum;
}

::testing::AssertionResult Feasible(const std::vector<RankEdge>& edges,
                                    const std::vector<int32_t>& rank) {
  for (const RankEdge& e : edges) {
    if (rank[e.head] - rank[e.tail] < 1)
      return ::testing::AssertionFailure()
             << "edge " << e.tail << " -> " << e.head << " spans " << rank[e.head] - rank[e.tail]
             << " ranks (at least 1 expected)";
  }
  return ::testing::AssertionSuccess();
}

// The least total length over every feasible ranking with ranks 0 .. n-1 (enough: each
// connected part of an optimal ranking spans fewer than n ranks), enumerated node by node in
// id order (a topological order here), each node below its predecessors.
int64_t brute_force_minimum(uint32_t n, const std::vector<RankEdge>& edges) {
  std::vector<int32_t> rank(n, 0);
  int64_t best = INT64_MAX;
  auto place = [&](auto&& self, uint32_t v) -> void {
    if (v == n) {
      best = std::min(best, total_length(edges, rank));
      return;
    }
    int32_t lowest = 0;
    for (const RankEdge& e : edges)
      if (e.head == v) lowest = std::max(lowest, rank[e.tail] + 1);
    for (int32_t r = lowest; r < static_cast<int32_t>(n); ++r) {
      rank[v] = r;
      self(self, v + 1);
    }
  };
  place(place, 0);
  return best;
}

// Random DAG on n nodes (edges from lower to higher id) with a random feasible ranking: each
// node 0-2 ranks below its lowest predecessor, so the pivots have work to do.
struct RankedDag {
  std::vector<RankEdge> edges;
  std::vector<int32_t> rank;
};
RankedDag random_ranked_dag(uint32_t n, uint32_t edge_count, std::mt19937& rng) {
  RankedDag d;
  std::uniform_int_distribution<uint32_t> pick(0, n - 1);
  for (uint32_t i = 0; i < edge_count; ++i) {
    uint32_t a = pick(rng), b = pick(rng);
    if (a == b) continue;
    if (a > b) std::swap(a, b);
    d.edges.push_back({a, b});  // repeats allowed: they count once each
  }
  std::uniform_int_distribution<int32_t> gap(0, 2);
  d.rank.assign(n, 0);
  for (uint32_t v = 0; v < n; ++v) {
    for (const RankEdge& e : d.edges)
      if (e.head == v) d.rank[v] = std::max(d.rank[v], d.rank[e.tail] + 1);
    d.rank[v] += gap(rng);
  }
  return d;
}

TEST(NetworkSimplex, ReachesTheLeastTotalLengthOnEverySmallGraph) {
  std::mt19937 rng(15);
  uint64_t pivots = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const uint32_t n = 4 + trial % 5;  // 4 .. 8 nodes
    RankedDag d = random_ranked_dag(n, 3 + trial % 12, rng);
    const int64_t before = total_length(d.edges, d.rank);
    pivots += minimise_edge_lengths(d.edges, d.rank).pivots;
    ASSERT_TRUE(Feasible(d.edges, d.rank)) << "trial " << trial;
    EXPECT_EQ(total_length(d.edges, d.rank), brute_force_minimum(n, d.edges))
        << "trial " << trial << " (the start had " << before << ")";
  }
  // The tight-tree start alone solves many small graphs; the pivots must have run too.
  EXPECT_GE(pivots, 10u);  // 19 with this seed
}

// Each pivot keeps the tree's numbering up to date piece by piece (the block that moved and the
// two paths to the common ancestor); after every pivot it must equal a fresh depth-first
// search's, or the pivots (which scan subtrees by number) would choose differently.
TEST(NetworkSimplex, EveryPivotLeavesTheNumberingOfAFreshSearch) {
  std::mt19937 rng(27);
  uint64_t pivots = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const uint32_t n = 10 + trial % 120;
    RankedDag d = random_ranked_dag(n, n + trial % (2 * n), rng);
    const int64_t before = total_length(d.edges, d.rank);
    const NetworkSimplexStats stats =
        minimise_edge_lengths(d.edges, d.rank, /*work_budget=*/0, /*check_numbering=*/true);
    pivots += stats.pivots;
    ASSERT_EQ(stats.numbering_errors, 0u) << "trial " << trial;
    ASSERT_TRUE(Feasible(d.edges, d.rank)) << "trial " << trial;
    EXPECT_LE(total_length(d.edges, d.rank), before) << "trial " << trial;
  }
  EXPECT_GE(pivots, 1000u);  // the check must have seen many pivots
  std::cout << pivots << " pivots checked\n";
}

TEST(NetworkSimplex, StaysFeasibleAndNoLongerWhenTheBudgetRunsOut) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    RankedDag d = random_ranked_dag(200, 400, rng);
    const int64_t before = total_length(d.edges, d.rank);
    const NetworkSimplexStats stats = minimise_edge_lengths(d.edges, d.rank, /*work_budget=*/1);
    ASSERT_TRUE(Feasible(d.edges, d.rank));
    EXPECT_LE(total_length(d.edges, d.rank), before);
    EXPECT_LE(stats.pivots, 1u);
  }
}

TEST(NetworkSimplex, KeepsTheSmallestRank) {
  // Long edge 0 -> 3 plus chain 0 -> 1 -> 2 -> 3 and a source 4 feeding 3: node 4 moves down.
  std::vector<RankEdge> edges = {{0, 1}, {1, 2}, {2, 3}, {0, 3}, {4, 3}};
  std::vector<int32_t> rank = {5, 6, 7, 8, 5};
  minimise_edge_lengths(edges, rank);
  EXPECT_EQ(*std::min_element(rank.begin(), rank.end()), 5);
  EXPECT_EQ(rank[4], 7);
  EXPECT_EQ(total_length(edges, rank), 7);  // the chain 3, the long edge 3, 4 -> 3 one
}

// Per-head attention's value path: one projection feeds a slice per head, each slice is
// concatenated with a slice of the cache input, and the concatenation is consumed deep
// below, next to the end of a long chain. Moving the value path down next to its consumers
// needs the projection, the slices, the cache slices and the cache input to move together:
// a set closed neither upwards nor downwards, which the greedy moves do not find.
TEST(NetworkSimplex, PlacesPerHeadValuePathNextToItsConsumers) {
  constexpr uint32_t kHeads = 4, kDepth = 8;
  Graph g;
  auto add = [&] {
    g.nodes.push_back(box(40, 20));
    return static_cast<uint32_t>(g.nodes.size() - 1);
  };
  const uint32_t norm = add();
  uint32_t deep = norm;
  for (uint32_t i = 0; i < kDepth; ++i) {
    const uint32_t next = add();
    g.edges.push_back({deep, next});
    deep = next;
  }
  const uint32_t v_proj = add(), cache = add();
  g.edges.push_back({norm, v_proj});
  std::vector<uint32_t> cats;
  for (uint32_t h = 0; h < kHeads; ++h) {
    const uint32_t slice = add(), cache_slice = add(), cat = add(), matmul = add();
    g.edges.push_back({v_proj, slice});
    g.edges.push_back({cache, cache_slice});
    g.edges.push_back({slice, cat});
    g.edges.push_back({cache_slice, cat});
    g.edges.push_back({cat, matmul});
    g.edges.push_back({deep, matmul});
    cats.push_back(cat);
  }
  auto layer_gap = [&](const Layout& layout, uint32_t upper, uint32_t lower) {
    const double pitch = 20 + Options{}.layer_spacing;
    return std::lround((layout.nodes[lower].y - layout.nodes[upper].y) / pitch);
  };
  Options simplex;
  simplex.layering = LayeringStrategy::kNetworkSimplex;
  Options greedy;
  greedy.layering = LayeringStrategy::kLongestPathBalanced;
  const Layout by_simplex = compute_layout(g, simplex);
  const Layout by_greedy = compute_layout(g, greedy);
  for (const uint32_t cat : cats) {
    // Each concatenation sits right above its matmul (the node after it), and the
    // projection three layers above the concatenation would otherwise be (matmul - 3).
    EXPECT_EQ(layer_gap(by_simplex, cat, cat + 1), 1);
    EXPECT_EQ(layer_gap(by_simplex, v_proj, cat), 2);
  }
  // The greedy ranking leaves the value path at the top (what this test exists to catch).
  EXPECT_GT(layer_gap(by_greedy, cats[0], cats[0] + 1), 1);
}

}  // namespace
}  // namespace etviz::layout::testing
