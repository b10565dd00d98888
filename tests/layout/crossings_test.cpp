// Crossing counts between two adjacent layers against the definition: two edges cross when
// their upper ends and their lower ends are in opposite orders (neither end shared).
#include "crossings.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace etviz::layout::testing {
namespace {

uint64_t crossings_by_definition(const std::vector<RankedEdge>& edges) {
  uint64_t total = 0;
  for (size_t i = 0; i < edges.size(); ++i) {
    for (size_t j = i + 1; j < edges.size(); ++j) {
      const RankedEdge& a = edges[i];
      const RankedEdge& b = edges[j];
      if ((a.upper < b.upper && a.lower > b.lower) || (a.upper > b.upper && a.lower < b.lower))
        total += uint64_t{a.weight} * b.weight;
    }
  }
  return total;
}

// Edges come grouped by upper rank; within one upper node's edges any order counts the same
// (count_crossings_between hands them over unsorted).
TEST(Crossings, RankedCountEqualsTheDefinitionInAnyOrderWithinAnUpperNode) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    const uint32_t upper = 1 + rng() % 12, lower = 2 + rng() % 12;
    std::vector<RankedEdge> edges;
    for (uint32_t u = 0; u < upper; ++u) {
      const uint32_t degree = rng() % 5;
      for (uint32_t k = 0; k < degree; ++k)
        edges.push_back(
            {u, static_cast<uint32_t>(rng() % lower), 1 + static_cast<uint32_t>(rng() % 3)});
    }
    const uint64_t expected = crossings_by_definition(edges);
    EXPECT_EQ(count_ranked_crossings(edges, lower), expected) << "trial " << trial;
    // The same edges with each upper node's edges sorted by lower rank, and reversed.
    std::stable_sort(edges.begin(), edges.end(), [](const RankedEdge& a, const RankedEdge& b) {
      return a.upper != b.upper ? a.upper < b.upper : a.lower < b.lower;
    });
    EXPECT_EQ(count_ranked_crossings(edges, lower), expected) << "trial " << trial;
    for (size_t begin = 0; begin < edges.size();) {
      size_t end = begin;
      while (end < edges.size() && edges[end].upper == edges[begin].upper) ++end;
      std::reverse(edges.begin() + static_cast<std::ptrdiff_t>(begin),
                   edges.begin() + static_cast<std::ptrdiff_t>(end));
      begin = end;
    }
    EXPECT_EQ(count_ranked_crossings(edges, lower), expected) << "trial " << trial;
  }
}

}  // namespace
}  // namespace etviz::layout::testing
