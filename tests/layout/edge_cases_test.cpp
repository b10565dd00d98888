// The edge cases the engine must survive (issue 7, "Handles").
#include <gtest/gtest.h>

#include <cmath>

#include "graph_builders.h"
#include "invariants.h"

namespace etviz::layout::testing {
namespace {

TEST(EdgeCases, EmptyGraph) {
  const Layout layout = compute_layout(Graph{});
  EXPECT_TRUE(layout.nodes.empty());
  EXPECT_TRUE(layout.points.empty());
  EXPECT_EQ(layout.bounds, Rect{});
}

TEST(EdgeCases, IsolatedNodesArePackedIntoRows) {
  Graph g;
  for (int i = 0; i < 1000; ++i) g.nodes.push_back(box(40, 20));
  const Layout layout = compute_layout(g);
  EXPECT_TRUE(IsValidLayout(g, layout));
  // Packed roughly square rather than in one endless row.
  EXPECT_LT(layout.bounds.width, 4 * layout.bounds.height);
  EXPECT_LT(layout.bounds.height, 4 * layout.bounds.width);
}

TEST(EdgeCases, SelfLoopGoesAroundTheNode) {
  Graph g;
  g.nodes = {box(), box()};
  g.edges = {{0, 0}, {0, 1}, {1, 1}};
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  const EdgeRoute& loop = layout.edges[0];
  ASSERT_GE(loop.point_count, 4u);
  const Rect& n = layout.nodes[0];
  EXPECT_DOUBLE_EQ(route_point(layout, 0, 0).y, n.y + n.height);          // leaves the bottom
  EXPECT_DOUBLE_EQ(route_point(layout, 0, loop.point_count - 1).y, n.y);  // enters the top
}

TEST(EdgeCases, MultiEdgesShareARoute) {
  Graph g;
  g.nodes = {box(), box()};
  g.edges = {{0, 1}, {0, 1}, {0, 1}};
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  EXPECT_EQ(layout.edges[0].point_count, layout.edges[2].point_count);
  EXPECT_EQ(route_point(layout, 0, 0), route_point(layout, 2, 0));
}

TEST(EdgeCases, MultiEdgesOnDifferentPortsGetDifferentRoutes) {
  Graph g;
  g.nodes = {box(90), box(90)};
  g.edges = {{0, 1, 0, 0}, {0, 1, 1, 1}};
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  const Point a = route_point(layout, 0, 0);
  const Point b = route_point(layout, 1, 0);
  EXPECT_LT(a.x, b.x);  // port 0 left of port 1
}

// Parallel edges are drawn as one route wherever they meet, not only where they are listed
// one after another: into a collapsed group (two hidden targets, one box) and into an
// expanded group through one entry port (that they share one level edge there is
// Containers.ParallelEdgesAcrossGroupBordersShareLinks).
TEST(EdgeCases, ParallelEdgesAcrossGroupBordersShareRoutes) {
  Graph g;
  g.groups = {{kNone, true, 0, 0}, {kNone, false, 80, 30}};
  g.nodes = {box(), box(60, 30, 0), box(60, 30, 0), box(60, 30, 1), box(60, 30, 1), box()};
  g.edges = {{0, 1}, {0, 3}, {0, 2}, {0, 4}, {0, 1}, {1, 5}, {2, 5}};
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  auto route = [&](uint32_t e) {
    std::vector<Point> points;
    append_route(layout, e, points);
    return points;
  };
  EXPECT_EQ(route(1), route(3));  // both into the collapsed group's box
  EXPECT_EQ(route(0), route(4));  // the same edge twice, across the group's border
  EXPECT_NE(route(0), route(2));  // one entry port, then apart inside the group
  EXPECT_EQ(route(0).front(), route(2).front());
  EXPECT_GT(route(1).size(), 1u);
}

TEST(EdgeCases, CyclesAreBroken) {
  Graph g = chain(50);
  g.edges.push_back({49, 0});
  g.edges.push_back({30, 10});
  const Layout layout = compute_layout(g);
  EXPECT_TRUE(IsValidLayout(g, layout));
}

TEST(EdgeCases, DisconnectedComponentsSitSideBySide) {
  Graph g;
  for (int c = 0; c < 3; ++c) {
    const auto base = static_cast<uint32_t>(g.nodes.size());
    for (int i = 0; i < 10; ++i) g.nodes.push_back(box());
    for (uint32_t i = 1; i < 10; ++i) g.edges.push_back({base + i - 1, base + i});
  }
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  // Same height as one chain: the components are next to each other, not stacked.
  EXPECT_DOUBLE_EQ(layout.nodes[0].y, layout.nodes[10].y);
  EXPECT_DOUBLE_EQ(layout.nodes[0].y, layout.nodes[20].y);
  EXPECT_LT(layout.nodes[0].x, layout.nodes[10].x);
}

// A deep model whose broadcast inputs the page leaves out: one tall component and many small
// chains. Packed in rows of the square root of the total area, the small chains stretched
// one row of the tall component's height across the page (a 200k-node U-Net: 15,119 px for
// an 837 px model); they now form a block beside it.
TEST(EdgeCases, SmallComponentsBesideATallOneFormACompactBlock) {
  Graph g = chain(2000);
  const double chain_width = 120;
  for (Node& n : g.nodes) n.width = chain_width;
  for (int c = 0; c < 100; ++c) {
    const auto base = static_cast<uint32_t>(g.nodes.size());
    for (int i = 0; i < 3; ++i) g.nodes.push_back(box(60, 20));
    g.edges.push_back({base, base + 1});
    g.edges.push_back({base + 1, base + 2});
  }
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  // The chain sits left, from the top; every small chain lies to its right.
  EXPECT_DOUBLE_EQ(layout.nodes[0].x, 0);
  EXPECT_DOUBLE_EQ(layout.nodes[0].y, 0);
  double small_area = 0, block_right = 0, block_bottom = 0;
  for (uint32_t v = 2000; v < g.nodes.size(); ++v) {
    const Rect& r = layout.nodes[v];
    EXPECT_GT(r.x, chain_width) << v;
    small_area += r.width * r.height;
    block_right = std::max(block_right, r.x + r.width);
    block_bottom = std::max(block_bottom, r.y + r.height);
  }
  // The block is roughly square, not one row: no wider than the square root of the small
  // components' area with their spacing (a few times the boxes' own area) plus the chain.
  const double side = std::sqrt(small_area);
  EXPECT_LT(block_right, chain_width + 4 * side);
  EXPECT_LT(block_bottom, 4 * side);
  EXPECT_LT(layout.bounds.width, 4 * side + chain_width);
}
TEST(EdgeCases, HugeFanOutAndFanIn) {
  Graph g;
  g.nodes.push_back(box(60, 30));  // a constant feeding 1000 ops
  for (uint32_t i = 1; i <= 1000; ++i) {
    g.nodes.push_back(box(40, 20));
    g.edges.push_back({0, i});
  }
  g.nodes.push_back(box(60, 30));  // and an op consuming all of them
  for (uint32_t i = 1; i <= 1000; ++i) g.edges.push_back({i, 1001});
  const Layout layout = compute_layout(g);
  EXPECT_TRUE(IsValidLayout(g, layout));
  EXPECT_TRUE(EdgesPointDownstream(g, layout, Direction::kTopToBottom));
}

TEST(EdgeCases, EdgeSkipping80LayersRunsStraight) {
  Graph g = chain(81);
  g.edges.push_back({0, 80});  // a residual stream skipping 80 layers
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  const EdgeRoute& skip = layout.edges.back();
  // Straight after leaving the source: a handful of points, not one per layer.
  EXPECT_LE(skip.point_count, 6u);
}

TEST(EdgeCases, SharedInputFeedingEveryLayerIsBundled) {
  Graph g = chain(200);
  g.nodes.push_back(box());  // node 200: e.g. rotary cos, consumed every 10 layers
  for (uint32_t v = 10; v < 200; v += 10) g.edges.push_back({200, v});
  Options bundled, separate;
  separate.bundle_fan_out = false;
  const Layout a = compute_layout(g, bundled);
  const Layout b = compute_layout(g, separate);
  EXPECT_TRUE(IsValidLayout(g, a));
  EXPECT_TRUE(IsValidLayout(g, b));
  EXPECT_LT(a.bounds.width, b.bounds.width);  // one trunk instead of 19 parallel lines
}

TEST(EdgeCases, GroupsNestedTenDeep) {
  Graph g;
  for (uint32_t d = 0; d < 10; ++d) g.groups.push_back({d == 0 ? kNone : d - 1, true, 80, 30});
  for (uint32_t d = 0; d < 10; ++d) {
    g.nodes.push_back(box(50, 20, d));
    g.nodes.push_back(box(50, 20, d));
  }
  for (uint32_t v = 1; v < g.nodes.size(); ++v) g.edges.push_back({v - 1, v});
  g.edges.push_back({19, 0});  // back out of all ten levels
  g.edges.push_back({0, 19});
  const Layout layout = compute_layout(g);
  EXPECT_TRUE(IsValidLayout(g, layout));
  for (uint32_t d = 1; d < 10; ++d) {
    EXPECT_LT(layout.groups[d].width, layout.groups[d - 1].width);
  }
}

TEST(EdgeCases, CollapsedGroupHidesItsContent) {
  Graph g;
  g.groups = {{kNone, false, 100, 40}, {0, true, 10, 10}};
  g.nodes = {box(), box(60, 30, 0), box(60, 30, 1), box()};
  g.edges = {{0, 1}, {1, 2}, {2, 3}};
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  EXPECT_EQ(layout.groups[0].width, 100);
  EXPECT_EQ(layout.nodes[1].width, 0);         // hidden
  EXPECT_EQ(layout.edges[1].point_count, 0u);  // inside the collapsed group
  EXPECT_GT(layout.edges[0].point_count, 0u);
}

// Options::group_title keeps the top band of every expanded group free for its title: a group
// whose nodes have no inputs (the viewer's "4 constants" boxes: no entry ports), one entered
// from above, and a nested group, top to bottom and left to right.
TEST(EdgeCases, GroupTitleBandsStayFree) {
  Graph g;
  g.groups = {{kNone, true, 0, 0}, {kNone, true, 0, 0}, {1, true, 0, 0}};
  g.nodes = {box(),          box(40, 20, 0), box(40, 20, 0), box(40, 20, 0),
             box(60, 30, 1), box(60, 30, 2), box(60, 30, 2), box()};
  g.edges = {{0, 4}, {1, 4}, {2, 4}, {3, 5}, {4, 5}, {5, 6}, {6, 7}};
  for (const Direction d : {Direction::kTopToBottom, Direction::kLeftToRight}) {
    Options o;
    o.direction = d;
    o.group_title = 18;
    const Layout layout = compute_layout(g, o);
    ASSERT_TRUE(IsValidLayout(g, layout));
    EXPECT_TRUE(TitleBandsAreFree(g, layout, 18)) << (d == Direction::kTopToBottom ? "TB" : "LR");
    // Without a title band the constants' group starts its nodes a padding below its top.
    o.group_title = 0;
    if (d == Direction::kTopToBottom) {
      EXPECT_FALSE(TitleBandsAreFree(g, compute_layout(g, o), 18)) << "the check can fail";
    }
  }
}

TEST(EdgeCases, InvalidReferencesAreIgnored) {
  Graph g;
  g.groups = {{1, true, 0, 0}, {0, true, 0, 0}, {77, true, 0, 0}};  // cyclic and dangling parents
  g.nodes = {box(60, 30, 0), box(60, 30, 1), box(60, 30, 99), Node{-5, NAN, 2}};
  g.edges = {{0, 1}, {1, 2}, {2, 7}, {9, 0}};
  const Layout layout = compute_layout(g);
  EXPECT_EQ(layout.edges[2].point_count, 0u);
  EXPECT_EQ(layout.edges[3].point_count, 0u);
  ASSERT_EQ(layout.nodes.size(), 4u);
  EXPECT_EQ(layout.nodes[3].width, 0);  // negative and NaN sizes count as 0
  for (const Point& p : layout.points) EXPECT_TRUE(std::isfinite(p.x) && std::isfinite(p.y));
}

TEST(EdgeCases, HundredThousandNodeChainNeedsNoDeepRecursion) {
  const Graph g = chain(100000);
  const Layout layout = compute_layout(g);
  ASSERT_EQ(layout.nodes.size(), 100000u);
  for (uint32_t v = 1; v < g.nodes.size(); ++v) ASSERT_GT(layout.nodes[v].y, layout.nodes[v - 1].y);
}

TEST(EdgeCases, DeepCompoundChainNeedsNoDeepRecursion) {
  Graph g = chain(20000);
  for (uint32_t d = 0; d < 2000; ++d) g.groups.push_back({d == 0 ? kNone : d - 1, true, 10, 10});
  for (uint32_t v = 0; v < g.nodes.size(); ++v) g.nodes[v].group = v / 10 % 2000;
  const Layout layout = compute_layout(g);
  EXPECT_TRUE(GroupsContainChildren(g, layout));
}

}  // namespace
}  // namespace etviz::layout::testing
