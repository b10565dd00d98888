// LayoutEngine re-lays out only the levels that changed.
#include <gtest/gtest.h>

#include "graph_builders.h"
#include "invariants.h"

namespace etviz::layout::testing {
namespace {

// Top level: input → group A (two nested groups A0, A1) → group B → output.
Graph model() {
  Graph g;
  g.groups = {{kNone, true, 90, 30}, {0, true, 90, 30}, {0, true, 90, 30}, {kNone, true, 90, 30}};
  g.nodes.push_back(box());
  for (uint32_t grp : {1u, 1u, 2u, 2u, 3u, 3u, 3u}) g.nodes.push_back(box(60, 30, grp));
  g.nodes.push_back(box());
  for (uint32_t v = 1; v < g.nodes.size(); ++v) g.edges.push_back({v - 1, v});
  g.edges.push_back({0, 5});  // from the input straight into B
  g.edges.push_back({1, 6});  // from inside A0 into B
  return g;
}

TEST(Incremental, FirstRunLaysOutEveryLevel) {
  LayoutEngine engine;
  const Graph g = model();
  engine.run(g);
  EXPECT_EQ(engine.last_run_stats().laid_out, 5u);  // top level + 4 groups
  EXPECT_EQ(engine.last_run_stats().reused, 0u);
}

TEST(Incremental, CollapsingAGroupOnlyTouchesItsAncestors) {
  LayoutEngine engine;
  Graph g = model();
  const Layout before = engine.run(g);
  g.groups[1].expanded = false;  // collapse A0, inside A
  const Layout after = engine.run(g);
  EXPECT_TRUE(IsValidLayout(g, after));
  // A and the top level change; A1 and B come from the cache.
  EXPECT_EQ(engine.last_run_stats().laid_out, 2u);
  EXPECT_EQ(engine.last_run_stats().reused, 2u);
  // B's content is unchanged relative to B's box.
  const Rect b0 = before.groups[3], b1 = after.groups[3];
  EXPECT_DOUBLE_EQ(before.nodes[5].x - b0.x, after.nodes[5].x - b1.x);
  EXPECT_DOUBLE_EQ(before.nodes[5].y - b0.y, after.nodes[5].y - b1.y);
}

TEST(Incremental, ExpandingAgainReusesEverything) {
  LayoutEngine engine;
  Graph g = model();
  const Layout first = engine.run(g);
  g.groups[1].expanded = false;
  engine.run(g);
  g.groups[1].expanded = true;
  const Layout again = engine.run(g);
  EXPECT_EQ(engine.last_run_stats().laid_out, 0u);
  EXPECT_TRUE(SameLayout(first, again));
}

TEST(Incremental, CachedAndFreshLayoutsAreIdentical) {
  LayoutEngine engine;
  Graph g = random_compound_graph(400, 3, false);
  engine.run(g);
  for (size_t i = 0; i < g.groups.size(); i += 3) g.groups[i].expanded = false;
  EXPECT_TRUE(SameLayout(engine.run(g), compute_layout(g)));
}

// A flat program with one group per block at the top level (delegate calls of a generated
// program): toggling any group changes only sizes and port positions in the top level, whose
// layering and order are kept; the result still equals a fresh layout bit for bit.
TEST(Incremental, TogglingAChildKeepsTheParentsStructure) {
  Graph g;
  constexpr uint32_t kBlocks = 40;
  uint32_t previous = kNone;
  for (uint32_t b = 0; b < kBlocks; ++b) {
    g.groups.push_back({kNone, false, 120, 34});
    const auto first = static_cast<uint32_t>(g.nodes.size());
    for (uint32_t k = 0; k < 4; ++k) g.nodes.push_back(box(60 + 10 * k, 28, b));
    for (uint32_t k = 1; k < 4; ++k) g.edges.push_back({first + k - 1, first + k, 0, k % 2});
    const auto outside = static_cast<uint32_t>(g.nodes.size());
    g.nodes.push_back(box(80, 28));  // a node between blocks, with a constant beside it
    g.nodes.push_back(box(50, 28));
    g.edges.push_back({outside + 1, outside, kNone, 1});
    g.edges.push_back({first + 3, outside, 0, 0});
    if (previous != kNone) {
      g.edges.push_back({previous, first, 0, 0});
      g.edges.push_back({previous, first + 2, 0, 1});  // into the middle of the block
    }
    previous = outside;
  }
  LayoutEngine engine;
  engine.run(g);
  for (uint32_t b : {0u, 7u, 39u, 7u, 20u}) {
    g.groups[b].expanded = !g.groups[b].expanded;
    const Layout incremental = engine.run(g);
    EXPECT_GE(engine.last_run_stats().structure_reused, 1u) << "group " << b;
    EXPECT_TRUE(SameLayout(incremental, compute_layout(g))) << "group " << b;
    EXPECT_TRUE(IsValidLayout(g, incremental));
  }
}

// Structure reuse on random compound graphs (ports, cycles, nesting): every toggle gives
// exactly the fresh layout.
TEST(Incremental, RandomTogglesEqualFreshLayouts) {
  for (uint64_t seed : {3u, 11u, 29u}) {
    Graph g = random_compound_graph(300, seed, true);
    LayoutEngine engine;
    engine.run(g);
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int step = 0; step < 12 && !g.groups.empty(); ++step) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const size_t i = (state >> 33) % g.groups.size();
      g.groups[i].expanded = !g.groups[i].expanded;
      EXPECT_TRUE(SameLayout(engine.run(g), compute_layout(g)))
          << "seed " << seed << " step " << step;
    }
  }
}

TEST(Incremental, ChangedOptionsInvalidateTheCache) {
  LayoutEngine engine;
  const Graph g = model();
  engine.run(g);
  Options lr;
  lr.direction = Direction::kLeftToRight;
  EXPECT_TRUE(SameLayout(engine.run(g, lr), compute_layout(g, lr)));
  EXPECT_EQ(engine.last_run_stats().reused, 0u);
}

}  // namespace
}  // namespace etviz::layout::testing
