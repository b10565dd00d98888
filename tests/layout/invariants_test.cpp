// Layout invariants on many generated graphs.
#include "invariants.h"

#include <gtest/gtest.h>

#include "graph_builders.h"

namespace etviz::layout::testing {
namespace {

struct Case {
  uint32_t nodes;
  uint64_t seed;
  Direction direction;
};

std::vector<Case> cases() {
  std::vector<Case> all;
  for (const uint32_t n : {1u, 2u, 5u, 17u, 60u, 250u, 900u}) {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      all.push_back({n, seed, seed % 2 ? Direction::kTopToBottom : Direction::kLeftToRight});
    }
  }
  return all;
}

class GeneratedGraphs : public ::testing::TestWithParam<Case> {
 protected:
  Options options() const {
    Options o;
    o.direction = GetParam().direction;
    return o;
  }
};

TEST_P(GeneratedGraphs, DagIsValidAndFlowsDownstream) {
  const Graph g = random_dag(GetParam().nodes, GetParam().seed);
  const Layout layout = compute_layout(g, options());
  EXPECT_TRUE(IsValidLayout(g, layout));
  EXPECT_TRUE(EdgesPointDownstream(g, layout, GetParam().direction));
}

TEST_P(GeneratedGraphs, GraphWithCyclesLoopsAndDuplicatesIsValid) {
  const Graph g = random_messy_graph(GetParam().nodes, GetParam().seed);
  EXPECT_TRUE(IsValidLayout(g, compute_layout(g, options())));
}

TEST_P(GeneratedGraphs, CompoundGraphIsValidAndFlowsDownstream) {
  const Graph g = random_compound_graph(GetParam().nodes, GetParam().seed, false);
  const Layout layout = compute_layout(g, options());
  EXPECT_TRUE(IsValidLayout(g, layout));
  EXPECT_TRUE(EdgesPointDownstream(g, layout, GetParam().direction));
}

TEST_P(GeneratedGraphs, PartlyCollapsedCompoundGraphIsValid) {
  const Graph g = random_compound_graph(GetParam().nodes, GetParam().seed, true);
  const Layout layout = compute_layout(g, options());
  EXPECT_TRUE(IsValidLayout(g, layout));
  EXPECT_TRUE(EdgesPointDownstream(g, layout, GetParam().direction));
}

TEST_P(GeneratedGraphs, OrderingBySegmentsGivesValidLayouts) {
  Options o = options();
  o.long_edges = LongEdgeOrdering::kSegments;
  const Graph dag = random_dag(GetParam().nodes, GetParam().seed);
  const Layout layout = compute_layout(dag, o);
  EXPECT_TRUE(IsValidLayout(dag, layout));
  EXPECT_TRUE(EdgesPointDownstream(dag, layout, GetParam().direction));
  const Graph messy = random_messy_graph(GetParam().nodes, GetParam().seed);
  EXPECT_TRUE(IsValidLayout(messy, compute_layout(messy, o)));
  const Graph compound = random_compound_graph(GetParam().nodes, GetParam().seed, true);
  EXPECT_TRUE(IsValidLayout(compound, compute_layout(compound, o)));
  EXPECT_TRUE(SameLayout(compute_layout(compound, o), compute_layout(compound, o)));
}

TEST_P(GeneratedGraphs, IsDeterministic) {
  const Graph g = random_compound_graph(GetParam().nodes, GetParam().seed, true);
  EXPECT_TRUE(SameLayout(compute_layout(g, options()), compute_layout(g, options())));
  LayoutEngine engine;
  EXPECT_TRUE(SameLayout(engine.run(g, options()), compute_layout(g, options())));
}

INSTANTIATE_TEST_SUITE_P(Layout, GeneratedGraphs, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& param) {
                           return std::to_string(param.param.nodes) + "_nodes_seed_" +
                                  std::to_string(param.param.seed);
                         });

TEST(Strategies, EveryCombinationGivesValidLayouts) {
  const Graph g = random_compound_graph(300, 7, true);
  for (const auto layering :
       {LayeringStrategy::kLongestPath, LayeringStrategy::kLongestPathBalanced}) {
    for (const auto ordering : {OrderingStrategy::kMedian, OrderingStrategy::kBarycenter,
                                OrderingStrategy::kMedianAndBarycenter}) {
      for (const auto coords : {CoordinateStrategy::kBrandesKoepf, CoordinateStrategy::kLayerSweeps,
                                CoordinateStrategy::kAuto}) {
        for (const bool bundle : {false, true}) {
          for (const auto long_edges : {LongEdgeOrdering::kPerDummy, LongEdgeOrdering::kSegments}) {
            Options o;
            o.long_edges = long_edges;
            o.layering = layering;
            o.ordering = ordering;
            o.coordinates = coords;
            o.bundle_fan_out = bundle;
            const Layout layout = compute_layout(g, o);
            EXPECT_TRUE(IsValidLayout(g, layout));
            EXPECT_TRUE(EdgesPointDownstream(g, layout, o.direction));
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace etviz::layout::testing
