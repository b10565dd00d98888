// libFuzzer entry: any bytes read as a compound graph (nodes, edges with ports, nested groups,
// expanded or collapsed) and layout options, laid out from scratch and by the incremental
// engine after a group is toggled. The graph a file yields is the reader's to shape, so its
// structure is the attacker's: invalid and repeated references, cyclic group parents,
// self-loops, parallel edges, ports far apart. The layout must be valid (the invariants the
// layout tests assert, tests/layout/invariants.h), and the engine's cached re-layout must equal
// a fresh one bit for bit; anything else aborts, and libFuzzer keeps the input.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "hierarchy.h"
#include "invariants.h"
#include "layout.h"

namespace {

namespace lo = etviz::layout;

// Small enough that a slow input is the engine's fault, not its size (-timeout catches one).
constexpr uint32_t kMaxNodes = 160;
constexpr uint32_t kMaxEdges = 320;
constexpr uint32_t kMaxGroups = 24;

// An index into `count` items, now and then out of range or kNone (what a reader that lost a
// reference could hand over; the engine treats those as absent).
uint32_t reference(FuzzedDataProvider& in, uint32_t count) {
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 0:
      return lo::kNone;
    case 1:
      return count + in.ConsumeIntegralInRange<uint32_t>(0, 3);
    default:
      return count == 0 ? lo::kNone : in.ConsumeIntegralInRange<uint32_t>(0, count - 1);
  }
}

uint32_t port(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
      return in.ConsumeIntegral<uint32_t>();  // far apart: k becomes huge, offsets tiny
    case 1:
    case 2:
    case 3:
      return in.ConsumeIntegralInRange<uint32_t>(0, 7);
    default:
      return lo::kNone;
  }
}

// Sizes the engine reads as 0 (Graph's contract): NaN, negative, infinite, absurdly large.
constexpr double kUnusable[] = {std::numeric_limits<double>::quiet_NaN(), -5,
                                std::numeric_limits<double>::infinity(), 1e31};

double size(FuzzedDataProvider& in) {
  // Whole sizes, zero included, as the page measures labels; some fractional, a few unusable.
  const int kind = in.ConsumeIntegralInRange<int>(0, 15);
  if (kind == 0) return kUnusable[in.ConsumeIntegralInRange<int>(0, 3)];
  const double whole = in.ConsumeIntegralInRange<int>(0, 400);
  return kind % 2 ? whole : whole + in.ConsumeIntegralInRange<int>(1, 99) / 100.0;
}

double usable(double size) {
  for (const double v : kUnusable) {
    if (size == v || (std::isnan(v) && std::isnan(size))) return 0;
  }
  return size;
}

// `graph` as the engine reads it: a node's invalid group and a group's invalid, self or
// cycle-closing parent become kNone, unusable sizes 0. Edges stay as they are (their indices
// are the layout's); one with an end out of range is absent from the drawing.
lo::Graph cleaned(const lo::Graph& graph) {
  lo::Graph clean = graph;
  const lo::Hierarchy h = lo::build_hierarchy(graph);
  for (uint32_t g = 0; g < clean.groups.size(); ++g) {
    lo::Group& group = clean.groups[g];
    group.parent = h.group_parent[g];
    group.collapsed_width = usable(group.collapsed_width);
    group.collapsed_height = usable(group.collapsed_height);
  }
  for (uint32_t v = 0; v < clean.nodes.size(); ++v) {
    lo::Node& node = clean.nodes[v];
    node.group = h.group_of_node(v);
    node.width = usable(node.width);
    node.height = usable(node.height);
  }
  return clean;
}

void check(const ::testing::AssertionResult& result, const char* what) {
  if (result) return;
  std::fprintf(stderr, "%s: %s\n", what, result.message());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t bytes) {
  FuzzedDataProvider in(data, bytes);
  lo::Options options;
  options.direction = in.ConsumeBool() ? lo::Direction::kLeftToRight : lo::Direction::kTopToBottom;
  options.layering = static_cast<lo::LayeringStrategy>(in.ConsumeIntegralInRange<int>(0, 2));
  options.ordering = static_cast<lo::OrderingStrategy>(in.ConsumeIntegralInRange<int>(0, 2));
  options.long_edges = static_cast<lo::LongEdgeOrdering>(in.ConsumeIntegralInRange<int>(0, 2));
  options.coordinates = static_cast<lo::CoordinateStrategy>(in.ConsumeIntegralInRange<int>(0, 2));
  options.bundle_fan_out = in.ConsumeBool();
  options.transpose = in.ConsumeBool();

  lo::Graph g;
  const uint32_t groups = in.ConsumeIntegralInRange<uint32_t>(0, kMaxGroups);
  for (uint32_t k = 0; k < groups; ++k) {
    lo::Group group;
    group.parent = reference(in, groups);  // may be itself, a cycle, or out of range
    group.expanded = in.ConsumeIntegralInRange<int>(0, 3) != 0;
    group.collapsed_width = size(in);
    group.collapsed_height = size(in);
    g.groups.push_back(group);
  }
  const uint32_t nodes = in.ConsumeIntegralInRange<uint32_t>(0, kMaxNodes);
  for (uint32_t v = 0; v < nodes; ++v) {
    lo::Node node;
    node.width = size(in);
    node.height = size(in);
    node.group = in.ConsumeBool() ? lo::kNone : reference(in, groups);
    g.nodes.push_back(node);
  }
  const uint32_t edges = in.ConsumeIntegralInRange<uint32_t>(0, kMaxEdges);
  for (uint32_t e = 0; e < edges && in.remaining_bytes() > 0; ++e) {
    lo::Edge edge;
    // Any two nodes: back edges, self-loops and parallel edges as often as forward ones.
    edge.source = reference(in, nodes);
    edge.target = reference(in, nodes);
    edge.source_port = port(in);
    edge.target_port = port(in);
    g.edges.push_back(edge);
  }

  // The invariants read the group tree as the engine's contract says it is read: invalid and
  // cyclic references cut (the engine's own cleaning, build_hierarchy, says where a cycle is
  // cut). The layout of that cleaned graph is the raw graph's, bit for bit.
  const lo::Graph clean = cleaned(g);
  const lo::Layout fresh = lo::compute_layout(g, options);
  check(etviz::layout::testing::SameLayout(fresh, lo::compute_layout(clean, options)),
        "layout of the cleaned graph");
  check(etviz::layout::testing::IsValidLayout(clean, fresh), "compute_layout");

  // The incremental engine: a first run, then one group toggled, against a fresh layout of
  // the toggled graph.
  lo::LayoutEngine engine;
  check(etviz::layout::testing::SameLayout(engine.run(g, options), fresh), "first engine run");
  if (groups > 0) {
    lo::Group& toggled = g.groups[in.ConsumeIntegralInRange<uint32_t>(0, groups - 1)];
    toggled.expanded = !toggled.expanded;
    const lo::Layout again = engine.run(g, options);
    check(etviz::layout::testing::SameLayout(again, lo::compute_layout(g, options)),
          "engine run after a toggle");
    check(etviz::layout::testing::IsValidLayout(cleaned(g), again), "engine run after a toggle");
  }
  return 0;
}
