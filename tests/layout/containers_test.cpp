// Levels and chains (containers.h): how input edges become level edges, and which of them
// share one (and so one route).
#include "containers.h"

#include <gtest/gtest.h>

#include <vector>

#include "graph_builders.h"
#include "hierarchy.h"

namespace etviz::layout::testing {
namespace {

std::vector<LevelEdgeRef> chain_of(const ContainerSet& set, uint32_t e) {
  const ChainLinks links = set.chain_of(e);
  std::vector<LevelEdgeRef> out;
  for (uint32_t k = 0; k < links.size(); ++k) out.push_back(links[k]);
  return out;
}

// Parallel edges (same level, same ends, same ports) become one level edge wherever they are
// listed; the level's edges are numbered in the order the input first mentions them.
TEST(Containers, ParallelEdgesShareOneLevelEdgeInFirstMetOrder) {
  Graph g;
  g.nodes = {box(90), box(90), box(90)};
  g.edges = {{0, 1}, {1, 2}, {0, 1}, {0, 1, 0, kNone}, {1, 2}, {0, 1, 0, kNone}};
  const ContainerSet set = build_containers(g, build_hierarchy(g), false);
  ASSERT_EQ(set.containers.size(), 1u);
  const Container& top = set.containers[0];
  ASSERT_EQ(top.flat.edges.size(), 3u);  // 0->1, 1->2, 0->1 from port 0
  ASSERT_EQ(top.ends.size(), 3u);
  const uint32_t expected[] = {0, 1, 0, 2, 1, 2};
  for (uint32_t e = 0; e < g.edges.size(); ++e) {
    const std::vector<LevelEdgeRef> chain = chain_of(set, e);
    ASSERT_EQ(chain.size(), 1u) << "edge " << e;
    EXPECT_EQ(chain[0].edge, expected[e]) << "edge " << e;
  }
  EXPECT_EQ(top.flat.edges[2].source, 0u);
  EXPECT_EQ(top.ends[2].source_slot, 0u);
  EXPECT_EQ(top.ends[0].source_slot, kNone);
}

// Where only the top level is laid out, each input edge has one link or none: an invalid
// edge and one inside a collapsed group have none, and without groups item i is flat node i.
TEST(Containers, OneLevelChainsHoldOneLinkOrNone) {
  Graph flat;
  flat.nodes = {box(90), box(90), box(90)};
  flat.edges = {{0, 1}, {1, 7}, {2, 2}, {0, 1}};
  const ContainerSet plain = build_containers(flat, build_hierarchy(flat), false);
  ASSERT_EQ(plain.containers.size(), 1u);
  EXPECT_EQ(plain.containers[0].item_count, 3u);
  for (uint32_t v = 0; v < 3; ++v) {
    EXPECT_EQ(plain.containers[0].item(v), v);
    EXPECT_EQ(plain.container_of(v), 0u);
    EXPECT_EQ(plain.local_of(v), v);
  }
  EXPECT_EQ(chain_of(plain, 0), chain_of(plain, 3));  // parallel: one level edge
  EXPECT_EQ(chain_of(plain, 0).size(), 1u);
  EXPECT_TRUE(chain_of(plain, 1).empty()) << "target out of range";
  ASSERT_EQ(chain_of(plain, 2).size(), 1u) << "a self-loop is a level edge";
  EXPECT_EQ(plain.containers[0].flat.edges[chain_of(plain, 2)[0].edge].source, 2u);

  // Every edge its own level edge: no links stored, each implied.
  Graph simple;
  simple.nodes = flat.nodes;
  simple.edges = {{0, 1}, {1, 2}, {0, 2}, {2, 2}};
  const ContainerSet implied = build_containers(simple, build_hierarchy(simple), false);
  EXPECT_TRUE(implied.chain.empty());
  for (uint32_t e = 0; e < simple.edges.size(); ++e) {
    const std::vector<LevelEdgeRef> chain = chain_of(implied, e);
    ASSERT_EQ(chain.size(), 1u) << "edge " << e;
    EXPECT_EQ(chain[0], (LevelEdgeRef{0, e}));
    EXPECT_EQ(implied.containers[0].flat.edges[e].source, simple.edges[e].source);
  }

  Graph grouped;
  grouped.groups = {{kNone, false, 80, 30}};
  grouped.nodes = {box(), box(60, 30, 0), box(60, 30, 0), box()};
  grouped.edges = {{0, 1}, {1, 2}, {2, 3}, {0, 2}};
  const ContainerSet set = build_containers(grouped, build_hierarchy(grouped), false);
  ASSERT_EQ(set.containers.size(), 1u);
  const Container& top = set.containers[0];
  EXPECT_EQ(top.item_count, 3u);  // node 0, the collapsed group, node 3
  EXPECT_TRUE(chain_of(set, 1).empty()) << "inside the collapsed group";
  EXPECT_EQ(chain_of(set, 0), chain_of(set, 3));  // both into the group's box
  ASSERT_EQ(chain_of(set, 2).size(), 1u);
  const FlatGraph::Edge& out = top.flat.edges[chain_of(set, 2)[0].edge];
  EXPECT_EQ(top.item(out.source), 4u);  // the group's item: nodes, then groups
  EXPECT_EQ(set.local_of(3), out.target);
}

// Across group borders: two edges into one collapsed group's box are one level edge; the same
// edge twice into an expanded group shares every link; two edges from one source into the
// same expanded group share the entry port's level edge, then part inside the group.
TEST(Containers, ParallelEdgesAcrossGroupBordersShareLinks) {
  Graph g;
  g.groups = {{kNone, true, 0, 0}, {kNone, false, 80, 30}};
  g.nodes = {box(), box(60, 30, 0), box(60, 30, 0), box(60, 30, 1), box(60, 30, 1), box()};
  g.edges = {{0, 1}, {0, 3}, {0, 2}, {0, 4}, {0, 1}, {1, 5}, {2, 5}};
  const ContainerSet set = build_containers(g, build_hierarchy(g), false);
  EXPECT_EQ(chain_of(set, 1), chain_of(set, 3));
  EXPECT_EQ(chain_of(set, 1).size(), 1u);
  EXPECT_EQ(chain_of(set, 0), chain_of(set, 4));
  ASSERT_EQ(chain_of(set, 0).size(), 2u);
  ASSERT_EQ(chain_of(set, 2).size(), 2u);
  EXPECT_TRUE(chain_of(set, 0)[0] == chain_of(set, 2)[0]);
  EXPECT_FALSE(chain_of(set, 0)[1] == chain_of(set, 2)[1]);
  // Every level edge is some input edge's link, and no two are between the same ends.
  for (uint32_t c = 0; c < set.containers.size(); ++c) {
    const Container& level = set.containers[c];
    std::vector<uint8_t> used(level.flat.edges.size(), 0);
    for (const LevelEdgeRef& link : set.chain)
      if (link.container == c) used[link.edge] = 1;
    for (uint32_t e = 0; e < level.flat.edges.size(); ++e) {
      EXPECT_TRUE(used[e]) << "level " << c << " edge " << e;
      for (uint32_t f = 0; f < e; ++f) {
        const bool same = level.flat.edges[e].source == level.flat.edges[f].source &&
                          level.flat.edges[e].target == level.flat.edges[f].target &&
                          level.ends[e].source_slot == level.ends[f].source_slot &&
                          level.ends[e].target_slot == level.ends[f].target_slot;
        EXPECT_FALSE(same) << "level " << c << " edges " << f << " and " << e;
      }
    }
  }
}

}  // namespace
}  // namespace etviz::layout::testing
