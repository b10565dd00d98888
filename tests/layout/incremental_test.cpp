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
