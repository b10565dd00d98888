// Splits a compound graph into levels ("containers"): the top level and every expanded,
// visible group. Each level holds its direct items (nodes, and child groups as boxes) plus
// port nodes on its border, and the edges between them. An input edge that crosses group
// borders becomes a chain of level edges: up through exit ports, across at the lowest common
// level, down through entry ports.
#pragma once

#include <cstdint>
#include <vector>

#include "flat_graph.h"
#include "hierarchy.h"

namespace etviz::layout {

// Where a level edge attaches to an item: for a node, the input port index; for an expanded
// group, the id of the port node inside the group's own level; kNone for the centre.
struct LevelEdgeEnds {
  uint32_t source_slot = kNone;
  uint32_t target_slot = kNone;
};

struct Container {
  uint32_t group = kNone;       // kNone for the top level
  uint32_t depth = 0;           // 0 for the top level
  std::vector<uint32_t> items;  // flat node i < items.size() is items[i]; port nodes follow
  bool has_entry_ports = false;
  bool has_exit_ports = false;
  // Sizes of group items and port offsets of edges are filled in bottom-up, once the
  // levels below are laid out.
  FlatGraph flat;
  std::vector<LevelEdgeEnds> ends;  // per flat edge; emptied once complete_level read them
};

struct LevelEdgeRef {
  uint32_t container;
  uint32_t edge;
  friend bool operator==(const LevelEdgeRef&, const LevelEdgeRef&) = default;
};

struct ContainerSet {
  std::vector<Container> containers;         // [0] is the top level
  std::vector<uint32_t> container_of_group;  // kNone unless the group is laid out
  std::vector<uint32_t> item_container;      // per item; kNone if not visible
  std::vector<uint32_t> item_local;          // per item: flat node id in its container
  // Per input edge, its level edges from source to target (CSR). Empty: hidden or invalid.
  std::vector<uint32_t> chain_begin;
  std::vector<LevelEdgeRef> chain;
  // Per node: number of ports on the outgoing / incoming side (emptied once every level is
  // complete).
  std::vector<uint32_t> out_ports, in_ports;
};

// Sizes are taken in the top-to-bottom frame (width and height swapped for left-to-right).
ContainerSet build_containers(const Graph& graph, const Hierarchy& hierarchy, bool transposed);

}  // namespace etviz::layout
