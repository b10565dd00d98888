// The part of a level's layout that depends only on its structure: components, cycle
// breaking, layering and the order within layers. Node sizes and port offsets only enter
// coordinate assignment and routing, so when a group is expanded or collapsed, its parent
// level keeps its topology and only recomputes coordinates (the engine's cache keeps both).
#pragma once

#include <cstdint>
#include <vector>

#include "components.h"
#include "flat_graph.h"
#include "layered_graph.h"

namespace etviz::layout {

struct ComponentTopology {
  std::vector<uint8_t> reversed;  // per component edge: turned around to break a cycle
  std::vector<uint32_t> layer;    // per component node
  Order order;                    // of the layered graph built from `layer` and `reversed`
  // The layered graph as built for the graph the topology was computed from (sizes and
  // offsets included), handed to that graph's layout_flat so it is not built twice; taken
  // (left empty) by it, so a stored topology never carries stale sizes.
  LayeredGraph layered;
  bool has_layered = false;
  bool spans = false;  // `order` is of the graph with spans (LayeredForm::kSpans)
  // Whether long edges from one source share a trunk (Options::bundle_fan_out, unless the
  // graph drawn without trunks crossed less: see component_topology in flat_layout.cpp).
  bool bundled = true;
};

struct LevelTopology {
  Components components;
  std::vector<ComponentTopology> parts;  // per component
};

LevelTopology level_topology(const FlatGraph& graph, const Options& options);

// layout_flat with a topology computed by level_topology() for a graph of the same structure
// (same nodes, pins and edges; sizes and port offsets may differ, as long as the offsets at
// each node keep their order). Equal, bit for bit, to layout_flat on the same graph. Takes
// the topology's prebuilt layered graphs, which are only present right after
// level_topology(graph) on this very graph.
FlatLayout layout_flat(const FlatGraph& graph, const Options& options, LevelTopology& topology);

// Words that identify a level's structure: node count and pins, edges, and per edge end the
// rank of its port offset among the offsets at that node (which decides how long edges are
// bundled and in which order). Two graphs with equal keys have the same LevelTopology.
std::vector<uint64_t> topology_key(const FlatGraph& graph);

}  // namespace etviz::layout
