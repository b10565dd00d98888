// Model shapes that used to blow the layered graph up or tangle it (issue 15): a shared
// input reaching every block through its own small chain (a diffusion U-Net's time
// embedding), a fan-out into one layer (a mixture-of-experts router's input reaching every
// expert), and a source whose consumers sit far below (a KV-cache input sliced per head).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "crossings.h"
#include "flat_graph.h"
#include "graph_builders.h"
#include "invariants.h"
#include "level_topology.h"
#include "ordering.h"
#include "segment_ordering.h"
#include "spacing.h"

namespace etviz::layout::testing {
namespace {

// `g` as one level of the flat pipeline (no groups).
FlatGraph flat_of(const Graph& g) {
  FlatGraph flat;
  for (const Node& n : g.nodes) flat.add_node(n.width, n.height);
  for (const Edge& e : g.edges) flat.edges.push_back({e.source, e.target, 0, 0});
  return flat;
}

// The flat pipeline's structure for `g` (no groups).
LevelTopology topology_of(const Graph& g, const Options& options = {}) {
  return level_topology(flat_of(g), options);
}

// Dummies of a layered graph counted one per layer they pass (a span counts once per layer),
// whichever form the graph has.
uint64_t dummy_layers(const LayeredGraph& g) {
  uint64_t dummies = 0;
  for (uint32_t v = 0; v < g.node_count(); ++v)
    if (g.is_dummy[v]) dummies += g.bottom_layer(v) - g.layer[v] + 1;
  return dummies;
}

// Dummy nodes (one per layer) the flat pipeline inserts for `g` (no groups).
uint64_t dummy_nodes(const Graph& g, const Options& options = {}) {
  const LevelTopology topology = topology_of(g, options);
  uint64_t dummies = 0;
  for (const ComponentTopology& part : topology.parts) dummies += dummy_layers(part.layered);
  return dummies;
}

// Every node here has chain()'s size, so consecutive layers are one pitch apart.
Node op() {
  return box(40, 20);
}
const double kPitch = 20 + Options{}.layer_spacing;

double center_y(const Layout& layout, uint32_t v) {
  return layout.nodes[v].y + layout.nodes[v].height / 2;
}

// A backbone of `blocks` blocks of `depth` nodes; an embedding computed from the first node
// feeds block b through its own chain of `chain` nodes that ends in the block's middle node.
struct TimeEmbeddingGraph {
  Graph graph;
  uint32_t embedding = 0;
  std::vector<uint32_t> chain_ends, consumers;
};

TimeEmbeddingGraph time_embedding_graph(uint32_t blocks, uint32_t depth, uint32_t chain) {
  TimeEmbeddingGraph t;
  t.graph = testing::chain(blocks * depth);
  t.embedding = static_cast<uint32_t>(t.graph.nodes.size());
  t.graph.nodes.push_back(op());
  t.graph.edges.push_back({0, t.embedding});
  for (uint32_t b = 0; b < blocks; ++b) {
    uint32_t previous = t.embedding;
    for (uint32_t i = 0; i < chain; ++i) {
      const auto v = static_cast<uint32_t>(t.graph.nodes.size());
      t.graph.nodes.push_back(op());
      t.graph.edges.push_back({previous, v});
      previous = v;
    }
    const uint32_t consumer = b * depth + depth / 2;
    t.graph.edges.push_back({previous, consumer});
    t.chain_ends.push_back(previous);
    t.consumers.push_back(consumer);
  }
  return t;
}

TEST(ModelShapes, ChainsFromASharedEmbeddingSitRightAboveTheirConsumers) {
  const TimeEmbeddingGraph t = time_embedding_graph(40, 12, 4);
  const Layout layout = compute_layout(t.graph);
  ASSERT_TRUE(IsValidLayout(t.graph, layout));
  for (size_t b = 0; b < t.chain_ends.size(); ++b) {
    const double gap = center_y(layout, t.consumers[b]) - center_y(layout, t.chain_ends[b]);
    EXPECT_DOUBLE_EQ(gap, kPitch) << "chain " << b << " does not end right above its block";
  }
  // The embedding reaches every block through one bundled trunk: the layered graph stays a
  // small multiple of the input (every chain at the top: ~40 * 240 = 9,600 dummies).
  const uint64_t dummies = dummy_nodes(t.graph);
  EXPECT_LE(dummies, 3 * t.graph.edges.size()) << dummies << " dummy nodes";
  // ...and the drawing stays a column, not one lane per chain.
  EXPECT_LT(layout.bounds.width, 8 * op().width);
}

TEST(ModelShapes, ChainsStayAtTheTopWithoutASharedSource) {
  // Each chain hangs from its own source on the backbone: moving it down would lengthen
  // that source's edge as much as it shortens the chain's, so nothing gains and the
  // ranking is left as it is (a transformer's v projection beside q and k).
  Graph g = chain(30);
  for (uint32_t b = 0; b < 3; ++b) {
    const auto a = static_cast<uint32_t>(g.nodes.size());
    g.nodes.push_back(op());
    g.nodes.push_back(op());
    g.edges.push_back({b * 10, a});
    g.edges.push_back({a, a + 1});
    g.edges.push_back({a + 1, b * 10 + 8});
  }
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  for (uint32_t b = 0; b < 3; ++b) {
    EXPECT_DOUBLE_EQ(center_y(layout, 30 + 2 * b) - center_y(layout, b * 10), kPitch);
  }
}

TEST(ModelShapes, SlicedCacheInputSinksToItsConsumers) {
  // A cache input sliced per head, each slice concatenated deep below with the head's new
  // key: the input and its slices move down as one (16 long edges -> none).
  Graph g = chain(60);
  const auto cache = static_cast<uint32_t>(g.nodes.size());
  g.nodes.push_back(op());
  std::vector<uint32_t> slices;
  for (uint32_t h = 0; h < 16; ++h) {
    const auto slice = static_cast<uint32_t>(g.nodes.size());
    g.nodes.push_back(op());
    const auto cat = static_cast<uint32_t>(g.nodes.size());
    g.nodes.push_back(op());
    g.edges.push_back({cache, slice});
    g.edges.push_back({slice, cat});
    g.edges.push_back({50, cat});
    g.edges.push_back({cat, 52});
    slices.push_back(slice);
  }
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  for (const uint32_t slice : slices) {
    EXPECT_DOUBLE_EQ(center_y(layout, slice), center_y(layout, 50));
  }
  EXPECT_EQ(dummy_nodes(g), 0u);
}

TEST(ModelShapes, FanOutIntoOneLayerIsDrawnAsSeparateEdges) {
  // A router: x -> gate -> softmax -> topk -> 8 selects; expert e reads x and select e. The
  // 8 long edges from x all end in one layer; bundled they would leave one trunk point and
  // fan out across every select edge.
  Graph g;
  for (int i = 0; i < 4; ++i) g.nodes.push_back(op());  // x, gate, softmax, topk
  g.edges = {{0, 1}, {1, 2}, {2, 3}};
  std::vector<uint32_t> experts;
  for (uint32_t e = 0; e < 8; ++e) {
    const auto select = static_cast<uint32_t>(g.nodes.size());
    g.nodes.push_back(op());
    g.nodes.push_back(op());
    g.edges.push_back({3, select});
    g.edges.push_back({select, select + 1});
    g.edges.push_back({0, select + 1});
    experts.push_back(select + 1);
  }
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  // Where each edge from x enters its expert's layer band, it comes from its own point.
  std::set<double> entry_x;
  for (size_t e = 0; e < g.edges.size(); ++e) {
    if (g.edges[e].source != 0 || g.edges[e].target == 1) continue;
    const EdgeRoute& r = layout.edges[e];
    ASSERT_GE(r.point_count, 2u);
    entry_x.insert(route_point(layout, static_cast<uint32_t>(e), r.point_count - 2).x);
  }
  EXPECT_EQ(entry_x.size(), experts.size()) << "edges into one layer share a trunk";
}

TEST(ModelShapes, FanOutAcrossLayersKeepsItsTrunk) {
  // The same source feeding targets in many layers (rotary tables) stays bundled: one trunk
  // of dummies, so far fewer of them than separate edges.
  Graph g = chain(200);
  g.nodes.push_back(op());
  for (uint32_t v = 10; v < 200; v += 10) g.edges.push_back({200, v});
  Options separate;
  separate.bundle_fan_out = false;
  EXPECT_LT(3 * dummy_nodes(g), dummy_nodes(g, separate));
  // Held as spans, separate edges cost a few items each, whatever their length.
  separate.long_edges = LongEdgeOrdering::kSegments;
  const LevelTopology spans = topology_of(g, separate);
  EXPECT_LE(spans.parts[0].layered.node_count() - g.nodes.size(), 3 * 19u);
}

}  // namespace
}  // namespace etviz::layout::testing

namespace etviz::layout::testing {
namespace {

TEST(ModelShapes, TrunksRunStraightUnderLayerSweeps) {
  // Layer sweeps place each layer on its own; a trunk that wiggled by a pixel per layer gave
  // every edge drawn along it a bend per layer (per-head LLM 20k: 3.4 M route points).
  Graph g = chain(200);
  for (uint32_t v = 0; v < 200; v += 3) {  // side nodes, so layers differ in width
    g.nodes.push_back(op());
    g.edges.push_back({v, static_cast<uint32_t>(g.nodes.size() - 1)});
  }
  const auto shared = static_cast<uint32_t>(g.nodes.size());
  g.nodes.push_back(op());
  for (uint32_t v = 10; v < 200; v += 10) g.edges.push_back({shared, v});
  Options sweeps;
  sweeps.coordinates = CoordinateStrategy::kLayerSweeps;
  const Layout layout = compute_layout(g, sweeps);
  ASSERT_TRUE(IsValidLayout(g, layout));
  uint32_t most = 0;
  for (size_t e = 0; e < g.edges.size(); ++e) {
    if (g.edges[e].source == shared) most = std::max(most, layout.edges[e].point_count);
  }
  EXPECT_LE(most, 12u) << "the trunk bends at every layer";
}

}  // namespace
}  // namespace etviz::layout::testing

namespace etviz::layout::testing {
namespace {

TEST(ModelShapes, BundledRoutesStoreTheirTrunkOnce) {
  // A shared input feeding every 5th node of a 300-node chain, with side nodes so layer
  // sweeps give the trunk bends: every edge drawn along the trunk repeats its points, which
  // Layout keeps once (per-head LLM 200k: 63 M route points stored per edge, 0.85 M shared).
  Graph g = chain(300);
  for (uint32_t v = 0; v < 300; v += 2) {
    g.nodes.push_back(op());
    g.edges.push_back({v, static_cast<uint32_t>(g.nodes.size() - 1)});
  }
  const auto shared = static_cast<uint32_t>(g.nodes.size());
  g.nodes.push_back(op());
  for (uint32_t v = 10; v < 300; v += 5) g.edges.push_back({shared, v});
  for (const CoordinateStrategy strategy :
       {CoordinateStrategy::kLayerSweeps, CoordinateStrategy::kBrandesKoepf}) {
    Options options;
    options.coordinates = strategy;
    const Layout layout = compute_layout(g, options);
    ASSERT_TRUE(IsValidLayout(g, layout));
    size_t drawn = 0, sharing = 0;
    for (uint32_t e = 0; e < g.edges.size(); ++e) {
      const EdgeRoute& r = layout.edges[e];
      drawn += r.point_count;
      if (r.shared_edge == kNone) continue;
      ++sharing;
      EXPECT_EQ(g.edges[r.shared_edge].source, shared) << "edge " << e << " shares another source";
    }
    const size_t fan_out = (300 - 10) / 5;
    // All but the deepest edge (which stores the trunk) and the first one or two (the input
    // sits right above its first consumers: no trunk to share).
    EXPECT_GE(sharing, fan_out - 3) << "edges along the trunk store it again";
    EXPECT_LT(layout.points.size(), drawn);
  }
}

}  // namespace
}  // namespace etviz::layout::testing

namespace etviz::layout::testing {
namespace {

// A diffusion sampler in miniature: `steps` U-Nets in a row, each of `levels` down blocks
// and as many up blocks of `depth` nodes, a skip from each down block to the mirrored up
// block (nested long edges from distinct sources, which no layering shortens), and per step
// a time embedding feeding every block through a node of its own.
Graph unet_graph(uint32_t steps, uint32_t levels, uint32_t depth) {
  Graph g;
  auto add = [&]() {  // widths vary, as a model's ops do
    g.nodes.push_back(box(40 + 25 * static_cast<double>(g.nodes.size() % 4), 20));
    return static_cast<uint32_t>(g.nodes.size() - 1);
  };
  uint32_t previous = add();
  for (uint32_t step = 0; step < steps; ++step) {
    const uint32_t time = add();
    g.edges.push_back({previous, time});
    std::vector<uint32_t> skips;
    for (uint32_t b = 0; b < 2 * levels; ++b) {
      const uint32_t first = add();
      g.edges.push_back({previous, first});
      if (b >= levels) g.edges.push_back({skips[2 * levels - 1 - b], first});
      uint32_t v = first;
      for (uint32_t i = 1; i < depth; ++i) {
        const uint32_t w = add();
        g.edges.push_back({v, w});
        if (i == depth / 2) {
          const uint32_t projection = add();
          g.edges.push_back({time, projection});
          g.edges.push_back({projection, w});
        }
        v = w;
      }
      if (b < levels) skips.push_back(v);
      previous = v;
    }
  }
  return g;
}

uint64_t dummies_of(const ComponentTopology& part) {
  return dummy_layers(part.layered);
}

TEST(ModelShapes, UNetIsOrderedBySegmentsThatNeverCross) {
  const Graph g = unet_graph(3, 8, 6);
  const LevelTopology segments = topology_of(g);
  ASSERT_EQ(segments.parts.size(), 1u);
  const ComponentTopology& part = segments.parts[0];
  // The shape the strategy is for: the skips alone make the dummies outnumber the edges.
  ASSERT_GT(dummies_of(part), 3 * g.edges.size());
  EXPECT_TRUE(orders_by_segments(part.layered, Options{}));
  // Held as spans: a long edge's middle is one item, however many layers it passes.
  ASSERT_TRUE(part.layered.has_spans());
  EXPECT_LT(part.layered.node_count() - g.nodes.size(), g.edges.size());
  EXPECT_TRUE(OrderCoversEveryNodeOnce(part.layered, part.order));
  const ExpandedSpans expanded = expand_spans(part.layered, part.order);
  EXPECT_TRUE(OrderCoversEveryNodeOnce(expanded.graph, expanded.order));
  EXPECT_TRUE(InnerSegmentsDoNotCross(expanded.graph, expanded.order));
  // No more crossings than ordering every dummy on its own (0 vs 42 before the per-dummy
  // orders were sifted: transpositions of single dummies leave skips crossing where moving
  // whole segments does not; sifting now reaches 0 too).
  Options per_dummy;
  per_dummy.long_edges = LongEdgeOrdering::kPerDummy;
  const LevelTopology dummies = topology_of(g, per_dummy);
  const uint64_t by_segments = count_crossings(expanded.graph, expanded.order);
  const uint64_t by_dummies = count_crossings(dummies.parts[0].layered, dummies.parts[0].order);
  EXPECT_LE(by_segments, by_dummies);
  const Layout layout = compute_layout(g);
  EXPECT_TRUE(IsValidLayout(g, layout));
  EXPECT_TRUE(EdgesPointDownstream(g, layout, Direction::kTopToBottom));
}

TEST(ModelShapes, UNetWithSpansIsAsNarrowAsItsWidestLayer) {
  // Coordinates with spans start as narrow as the separation constraints allow and undo any
  // sweep that widens the drawing; with a span fixed to one x in every layer it passes, the
  // sweeps shifted each U-Net step sideways (unet_20000: 888 px against a widest layer of
  // 837, and as wide again as it is deep at 200k).
  const Graph g = unet_graph(6, 8, 6);
  const LevelTopology topology = topology_of(g);
  const ComponentTopology& part = topology.parts[0];
  ASSERT_TRUE(part.layered.has_spans());
  const ExpandedSpans e = expand_spans(part.layered, part.order);
  const Options options;
  double widest = 0;
  for (uint32_t l = 0; l < e.graph.layer_count; ++l) {
    const auto nodes = e.order.layer(l);
    double w = (e.graph.width[nodes.front()] + e.graph.width[nodes.back()]) / 2;
    for (uint32_t i = 1; i < nodes.size(); ++i) {
      const auto spacing = [&](uint32_t v) {
        return e.graph.is_dummy[v] ? options.edge_spacing : options.node_spacing;
      };
      w += (e.graph.width[nodes[i - 1]] + e.graph.width[nodes[i]]) / 2 +
           (spacing(nodes[i - 1]) + spacing(nodes[i])) / 2;
    }
    widest = std::max(widest, w);
  }
  const Layout layout = compute_layout(g);
  ASSERT_TRUE(IsValidLayout(g, layout));
  double left = INFINITY, right = -INFINITY;
  for (const Rect& r : layout.nodes) {
    left = std::min(left, r.x);
    right = std::max(right, r.x + r.width);
  }
  EXPECT_LE(right - left, widest + 1);
  // Long edges are straight: a skip is its source's bottom, p, the span, q and its
  // target's top, collinear points dropped.
  size_t most = 0;
  for (uint32_t k = 0; k < g.edges.size(); ++k)
    most = std::max<size_t>(most, layout.edges[k].point_count);
  EXPECT_LE(most, 6u);
}

TEST(ModelShapes, WidestLayerCountsSpansInEveryLayerTheyPass) {
  Options options;
  options.long_edges = LongEdgeOrdering::kSegments;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    for (const Graph& g : {random_dag(400, seed), unet_graph(3, 8, 6)}) {
      for (const ComponentTopology& part : topology_of(g, options).parts) {
        ASSERT_TRUE(part.layered.has_spans());
        const ExpandedSpans e = expand_spans(part.layered, part.order);
        EXPECT_DOUBLE_EQ(widest_layer(part.layered, part.order, options),
                         widest_layer(e.graph, e.order, options))
            << "seed " << seed;
      }
    }
  }
}

TEST(ModelShapes, CrossingHeavyGraphsWithSpansStayNarrow) {
  // Straight spans chain the separations across layers where the order puts many nodes on
  // alternating sides of long edges; such a drawing (random DAGs: 9x the widest layer) is
  // placed with a dummy per layer instead, in the same order.
  Options spans;
  spans.long_edges = LongEdgeOrdering::kSegments;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const Graph g = random_dag(900, seed);
    const Layout layout = compute_layout(g, spans);
    ASSERT_TRUE(IsValidLayout(g, layout));
    const LevelTopology topology = topology_of(g, spans);
    double widest = 0;
    for (const ComponentTopology& part : topology.parts)
      widest = std::max(widest, widest_layer(part.layered, part.order, spans));
    double left = INFINITY, right = -INFINITY;
    for (const Rect& r : layout.nodes) {
      left = std::min(left, r.x);
      right = std::max(right, r.x + r.width);
    }
    EXPECT_LE(right - left, 2 * widest + 1) << "seed " << seed;
  }
}

TEST(ModelShapes, SkipsSideBySideRunStraightUnderLayerSweeps) {
  // Long edges from distinct sources passing a column of ops of varying widths side by side
  // (a U-Net's skips, ordered by segments): layer sweeps shift them together with the
  // column, and a run between two shifting neighbours fits nowhere. Straightened left to
  // right and right to left, each run's neighbour on one side is straight already
  // (unet_2000: 91,373 route points -> 5,584).
  Graph g;
  for (uint32_t k = 0; k < 40; ++k) g.nodes.push_back(op());  // the skips' sources
  for (uint32_t v = 0; v < 300; ++v) {
    g.nodes.push_back(box(40 + 60 * static_cast<double>(v % 5 == 0), 20));
    if (v > 0) g.edges.push_back({40 + v - 1, 40 + v});
  }
  for (uint32_t k = 0; k < 40; ++k) {
    g.edges.push_back({40 + k, k});
    g.edges.push_back({k, 40 + 259 + k});
  }
  Options sweeps;
  sweeps.coordinates = CoordinateStrategy::kLayerSweeps;
  const Layout layout = compute_layout(g, sweeps);
  ASSERT_TRUE(IsValidLayout(g, layout));
  size_t drawn = 0, most = 0;
  for (uint32_t e = 0; e < g.edges.size(); ++e) {
    drawn += layout.edges[e].point_count;
    most = std::max<size_t>(most, layout.edges[e].point_count);
  }
  // Without the left-to-right and right-to-left passes: 9,062 points, one skip with 232.
  EXPECT_LE(most, 12u) << "a skip bends at every layer";
  EXPECT_LT(drawn, 3 * g.edges.size());
}

TEST(ModelShapes, OtherShapesKeepPerDummyOrdering) {
  // Where the dummies stay within three times the edges, the per-dummy sweeps (with their
  // transpositions) keep the orders they always had.
  for (const Graph& g : {time_embedding_graph(40, 12, 4).graph, chain(50)}) {
    for (const ComponentTopology& part : topology_of(g).parts) {
      EXPECT_LE(dummies_of(part), 3 * part.layered.paths.size());
      EXPECT_FALSE(orders_by_segments(part.layered, Options{}));
    }
  }
}

TEST(ModelShapes, SegmentOrdersAreCompleteAndSegmentsNeverCross) {
  // Both forms of the layered graph: spans (the default coordinates) and a dummy per layer
  // (Brandes–Köpf, which places every dummy).
  for (const auto coordinates : {CoordinateStrategy::kAuto, CoordinateStrategy::kBrandesKoepf}) {
    Options options;
    options.long_edges = LongEdgeOrdering::kSegments;
    options.coordinates = coordinates;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      for (const Graph& g : {random_dag(400, seed), random_messy_graph(300, seed)}) {
        for (const ComponentTopology& part : topology_of(g, options).parts) {
          EXPECT_EQ(part.layered.has_spans(), coordinates == CoordinateStrategy::kAuto);
          EXPECT_TRUE(OrderCoversEveryNodeOnce(part.layered, part.order)) << "seed " << seed;
          const ExpandedSpans expanded = expand_spans(part.layered, part.order);
          EXPECT_TRUE(OrderCoversEveryNodeOnce(expanded.graph, expanded.order)) << "seed " << seed;
          EXPECT_TRUE(InnerSegmentsDoNotCross(expanded.graph, expanded.order)) << "seed " << seed;
          // The sweeps count crossings without expanding the segments; the count is the
          // expanded order's, weights included (trunks carry several edges).
          for (const auto keys : {OrderingStrategy::kMedian, OrderingStrategy::kBarycenter}) {
            if (part.layered.layer_count < 2) continue;
            uint64_t counted = 0;
            const Order order = order_by_segments(part.layered, options, keys, counted);
            const ExpandedSpans e = expand_spans(part.layered, order);
            EXPECT_EQ(counted, count_crossings(e.graph, e.order)) << "seed " << seed;
          }
        }
      }
    }
  }
}

TEST(ModelShapes, SpansOrderLikeADummyPerLayer) {
  // Spans change what the layered graph stores, not the order: each node sits where it sits
  // when every dummy is stored (runs of three or more dummies are the same segments).
  Options spans, per_layer;
  spans.long_edges = per_layer.long_edges = LongEdgeOrdering::kSegments;
  per_layer.coordinates = CoordinateStrategy::kBrandesKoepf;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    for (const Graph& g : {random_dag(400, seed), unet_graph(3, 8, 6)}) {
      const LevelTopology a = topology_of(g, spans), b = topology_of(g, per_layer);
      ASSERT_EQ(a.parts.size(), b.parts.size());
      for (size_t c = 0; c < a.parts.size(); ++c) {
        const LayeredGraph& ga = a.parts[c].layered;
        const LayeredGraph& gb = b.parts[c].layered;
        ASSERT_TRUE(ga.has_spans());
        ASSERT_FALSE(gb.has_spans());
        const ExpandedSpans e = expand_spans(ga, a.parts[c].order);
        EXPECT_EQ(dummy_layers(ga), dummy_layers(gb));
        for (uint32_t v = 0; v < ga.of_flat.size(); ++v) {
          EXPECT_EQ(e.order.pos[ga.of_flat[v]], b.parts[c].order.pos[gb.of_flat[v]])
              << "seed " << seed << " node " << v;
        }
      }
    }
  }
}

}  // namespace
}  // namespace etviz::layout::testing

namespace etviz::layout::testing {
namespace {

// bench/layout/gen_model_graphs.py's llm_heads: decoder layers with attention unrolled per
// head, rotary tables and a causal mask shared by every head of every layer, KV-cache
// inputs sliced per head.
Graph per_head_decoder(uint32_t layers, uint32_t heads) {
  Graph g;
  auto op_of = [&](std::initializer_list<uint32_t> inputs) {
    g.nodes.push_back(op());
    const auto v = static_cast<uint32_t>(g.nodes.size() - 1);
    for (const uint32_t u : inputs) g.edges.push_back({u, v});
    return v;
  };
  uint32_t h = op_of({op_of({})});
  const uint32_t rot = op_of({op_of({})});
  const uint32_t cos = op_of({rot}), sin = op_of({rot}), mask = op_of({op_of({})});
  auto rope = [&](uint32_t x) {
    const uint32_t by_cos = op_of({x, cos});
    const uint32_t rotated = op_of({op_of({op_of({x})}), op_of({x})});
    return op_of({by_cos, op_of({rotated, sin})});
  };
  for (uint32_t layer = 0; layer < layers; ++layer) {
    const uint32_t k_cache = op_of({}), v_cache = op_of({});
    const uint32_t norm = op_of({h});
    const uint32_t q = op_of({norm}), k = op_of({norm}), v = op_of({norm});
    std::vector<uint32_t> outs, keys, values;
    for (uint32_t head = 0; head < heads; ++head) {
      const uint32_t qh = rope(op_of({q}));
      const uint32_t kh = op_of({op_of({k_cache}), rope(op_of({k}))});
      const uint32_t vh = op_of({op_of({v_cache}), op_of({v})});
      keys.push_back(kh);
      values.push_back(vh);
      const uint32_t scores = op_of({op_of({op_of({qh, op_of({kh})})}), mask});
      outs.push_back(op_of({op_of({scores}), vh}));
    }
    for (const auto* stack : {&keys, &values}) {
      const uint32_t s = op_of({});
      for (const uint32_t x : *stack) g.edges.push_back({x, s});
      op_of({s});
    }
    const uint32_t cat = op_of({});
    for (const uint32_t x : outs) g.edges.push_back({x, cat});
    const uint32_t attn = op_of({op_of({cat}), h});
    const uint32_t norm2 = op_of({attn});
    const uint32_t mlp = op_of({op_of({op_of({norm2})}), op_of({norm2})});
    h = op_of({op_of({mlp}), attn});
  }
  return g;
}

TEST(ModelShapes, PerHeadAttentionIsDrawnWithoutTrunksWhereThatCrossesLess) {
  // Branches leaving the rotary tables' and the mask's trunks cross every head between the
  // trunk and their target; drawn on their own, the edges cross less (the 2k-node bench
  // graph: 21,327 crossings with trunks, 19,978 without, dot 19,621).
  const Graph g = per_head_decoder(4, 16);
  const LevelTopology topology = topology_of(g);
  ASSERT_EQ(topology.parts.size(), 1u);
  const ComponentTopology& part = topology.parts[0];
  EXPECT_FALSE(part.bundled);
  EXPECT_FALSE(part.layered.has_spans());
  const LayeredGraph with_trunks =
      build_layered_graph(flat_of(g), part.layer, part.reversed, true, LayeredForm::kPerLayer);
  uint64_t trunk_crossings = 0;
  order_layers(with_trunks, Options{}, &trunk_crossings);
  const uint64_t chosen = count_crossings(part.layered, part.order);
  EXPECT_LT(chosen, trunk_crossings);
  const Layout layout = compute_layout(g);
  EXPECT_TRUE(IsValidLayout(g, layout));
  EXPECT_TRUE(EdgesPointDownstream(g, layout, Direction::kTopToBottom));
}

TEST(ModelShapes, DeepPerHeadAttentionKeepsItsTrunks) {
  // Deeper, the trunks win: separate edges from the shared tables pass every layer below
  // (the 20k-node bench graph: 0.71 M crossings with trunks, 1.58 M without, and 1.8 M
  // dummies, past what the flat pipeline orders without trunks at all).
  const Graph g = per_head_decoder(24, 16);
  const LevelTopology topology = topology_of(g);
  ASSERT_EQ(topology.parts.size(), 1u);
  EXPECT_TRUE(topology.parts[0].bundled);
}

}  // namespace
}  // namespace etviz::layout::testing
