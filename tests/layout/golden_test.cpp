// Exact coordinates for a few small graphs; a change here is a visible change in drawings.
#include <gtest/gtest.h>

#include "graph_builders.h"
#include "invariants.h"

namespace etviz::layout::testing {
namespace {

std::vector<Point> route(const Layout& layout, size_t e) {
  std::vector<Point> points;
  append_route(layout, static_cast<uint32_t>(e), points);
  return points;
}

TEST(Golden, TwoNodeChain) {
  Graph g;
  g.nodes = {box(40, 20), box(60, 30)};
  g.edges = {{0, 1}};
  const Layout layout = compute_layout(g);
  EXPECT_EQ(layout.nodes[0], (Rect{10, 0, 40, 20}));
  EXPECT_EQ(layout.nodes[1], (Rect{0, 40, 60, 30}));
  EXPECT_EQ(route(layout, 0), (std::vector<Point>{{30, 20}, {30, 40}}));
  EXPECT_EQ(layout.edges[0].label, (Point{30, 30}));
  EXPECT_EQ(layout.bounds, (Rect{0, 0, 60, 70}));
}

TEST(Golden, TwoNodeChainLeftToRight) {
  Graph g;
  g.nodes = {box(40, 20), box(60, 30)};
  g.edges = {{0, 1}};
  Options o;
  o.direction = Direction::kLeftToRight;
  const Layout layout = compute_layout(g, o);
  EXPECT_EQ(layout.nodes[0], (Rect{0, 5, 40, 20}));
  EXPECT_EQ(layout.nodes[1], (Rect{60, 0, 60, 30}));
  EXPECT_EQ(route(layout, 0), (std::vector<Point>{{40, 15}, {60, 15}}));
}

TEST(Golden, Diamond) {
  Graph g;
  g.nodes = {box(40, 20), box(40, 20), box(40, 20), box(40, 20)};
  g.edges = {{0, 1}, {0, 2}, {1, 3}, {2, 3}};
  const Layout layout = compute_layout(g);
  EXPECT_EQ(layout.nodes[0], (Rect{30, 0, 40, 20}));
  EXPECT_EQ(layout.nodes[1], (Rect{0, 40, 40, 20}));
  EXPECT_EQ(layout.nodes[2], (Rect{60, 40, 40, 20}));
  EXPECT_EQ(layout.nodes[3], (Rect{30, 80, 40, 20}));
  EXPECT_EQ(route(layout, 0), (std::vector<Point>{{50, 20}, {20, 40}}));
}

TEST(Golden, SkipEdgeStaysStraight) {
  Graph g = chain(4);
  g.edges.push_back({0, 3});
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  const std::vector<Point> skip = route(layout, 3);
  ASSERT_EQ(skip.size(), 4u);  // out of the source, one straight run, into the target
  EXPECT_EQ(skip[1].x, skip[2].x);
}

TEST(Golden, GroupBoxWithPorts) {
  Graph g;
  g.groups = {{kNone, true, 0, 0}};
  g.nodes = {box(40, 20), box(40, 20, 0), box(40, 20)};
  g.edges = {{0, 1}, {1, 2}};
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  // padding 10 left and right; the border ports are the box's top and bottom.
  EXPECT_EQ(layout.groups[0], (Rect{0, 40, 60, 60}));
  EXPECT_EQ(layout.nodes[1], (Rect{10, 60, 40, 20}));
  EXPECT_EQ(route(layout, 0), (std::vector<Point>{{30, 20}, {30, 60}}));
}

}  // namespace
}  // namespace etviz::layout::testing
