// Routes with shared trunks stored once (route_sharing.h): compact, and every route rebuilds
// exactly; also on a real layout with a bundled fan-out.
#include "route_sharing.h"

#include <gtest/gtest.h>

#include <cmath>

#include "graph_builders.h"

namespace etviz::layout::testing {
namespace {

// Edge e's full route from the shared form.
std::vector<Point> rebuild(const SharedRoutes& s, uint32_t e) {
  std::vector<Point> own;
  for (uint32_t k = s.offsets[e]; k < s.offsets[e + 1]; ++k)
    own.push_back({s.coords[2 * k], s.coords[2 * k + 1]});
  if (s.share[e] < 0) return own;
  std::vector<Point> head = rebuild(s, static_cast<uint32_t>(s.share[e]));
  head.resize(static_cast<size_t>(s.share_count[e]));
  head.insert(head.end(), own.begin(), own.end());
  return head;
}

std::vector<Point> rounded_route(const Layout& l, uint32_t e) {
  std::vector<Point> out;
  const EdgeRoute& r = l.edges[e];
  for (uint32_t k = 0; k < r.point_count; ++k) {
    const Point p = route_point(l, e, k);
    out.push_back({std::round(p.x * 10) / 10, std::round(p.y * 10) / 10});
  }
  return out;
}

TEST(RouteSharing, SharedPrefixesAreStoredOnceAndRebuildExactly) {
  // Three edges from source 0 down a zigzag trunk, leaving it at different depths; one edge
  // from another source; a hidden edge (no points).
  std::vector<Point> trunk;
  for (int k = 0; k < 10; ++k) trunk.push_back({k % 2 ? 5.0 : 0.0, 10.0 * k});
  std::vector<std::vector<Point>> routes = {{trunk.begin(), trunk.begin() + 6},
                                            {trunk.begin(), trunk.begin() + 8},
                                            {{100, 0}, {130, 10}, {100, 20}},
                                            {trunk.begin(), trunk.end()},
                                            {}};
  routes[0].push_back({40, 60});
  routes[1].push_back({50, 80});
  Layout l;
  for (const auto& r : routes) {
    l.edges.push_back(
        {static_cast<uint32_t>(l.points.size()), static_cast<uint32_t>(r.size()), {}});
    l.points.insert(l.points.end(), r.begin(), r.end());
  }
  const SharedRoutes s = share_routes(l, {0, 0, 1, 0, 0});
  EXPECT_LT(s.coords.size(), 2 * l.points.size());
  EXPECT_EQ(s.share[0], -1);
  EXPECT_EQ(s.share[1], 0);
  EXPECT_EQ(s.share_count[1], 6);
  EXPECT_EQ(s.share[2], -1);
  EXPECT_EQ(s.share[3], 1);  // the longest common prefix: 8 points of edge 1
  EXPECT_EQ(s.share[4], -1);
  for (uint32_t e = 0; e < routes.size(); ++e) EXPECT_EQ(rebuild(s, e), routes[e]) << e;
}

TEST(RouteSharing, BundledFanOutOfARealLayout) {
  // One source feeding every 10th node of a 600-node chain: bundled into one trunk, which
  // coordinate assignment keeps straight, so each route is a few points already (a shared
  // prefix needs 3); every route still rebuilds exactly.
  Graph g = chain(600);
  g.nodes.push_back(box());
  const auto source = static_cast<uint32_t>(g.nodes.size() - 1);
  for (uint32_t v = 20; v < 600; v += 10) g.edges.push_back({source, v});
  const Layout l = compute_layout(g);
  std::vector<uint32_t> sources;
  for (const Edge& e : g.edges) sources.push_back(e.source);
  const SharedRoutes s = share_routes(l, sources);
  for (uint32_t e = 0; e < g.edges.size(); ++e) {
    EXPECT_EQ(rebuild(s, e), rounded_route(l, e)) << e;
    if (e >= 599) {
      EXPECT_LE(l.edges[e].point_count, 6u) << e;  // fan-out edges stay short
    }
  }
  EXPECT_LE(s.coords.size(), 2 * l.points.size());
}

}  // namespace
}  // namespace etviz::layout::testing

namespace etviz::layout {
namespace {

TEST(RouteSharing, RoundingToATenthNeverGivesNegativeZero) {
  // The page writes coordinates as text, where -0.0 becomes "0"; a node left a hair of 0 by
  // the engine (-0.04) must come back from the page's engine as the same +0.
  for (const double v : {-0.04, -0.0, -1e-12}) {
    const double r = round_tenth(v);
    EXPECT_EQ(r, 0.0) << v;
    EXPECT_FALSE(std::signbit(r)) << v;
  }
  EXPECT_EQ(round_tenth(-0.06), -0.1);
  EXPECT_EQ(round_tenth(12.34), 12.3);
}

}  // namespace
}  // namespace etviz::layout
