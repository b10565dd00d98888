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
  uint32_t group = kNone;  // kNone for the top level
  uint32_t depth = 0;      // 0 for the top level
  // Flat node i < item_count is item(i); port nodes follow. `items` is empty where the graph
  // has no groups (the top level then holds every node, item i as flat node i): 4 B per node
  // less through the whole layout.
  std::vector<uint32_t> items;
  uint32_t item_count = 0;
  uint32_t item(uint32_t i) const { return items.empty() ? i : items[i]; }
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

// An input edge's level edges, from source to target (ContainerSet::chain_of): a slice of
// the stored links, or the one link a graph without groups implies.
class ChainLinks {
 public:
  ChainLinks(const LevelEdgeRef* links, uint32_t count) : links_(links), count_(count) {}
  explicit ChainLinks(LevelEdgeRef only) : count_(1), only_(only) {}
  uint32_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  LevelEdgeRef operator[](uint32_t k) const { return links_ ? links_[k] : only_; }

 private:
  const LevelEdgeRef* links_ = nullptr;
  uint32_t count_;
  LevelEdgeRef only_{};
};

struct ContainerSet {
  std::vector<Container> containers;         // [0] is the top level
  std::vector<uint32_t> container_of_group;  // kNone unless the group is laid out
  // Per item, its container (kNone if not visible) and its flat node id there. Both empty
  // where the graph has no groups: every item is a node of the top level, node i its flat
  // node i (container_of and local_of read either form).
  std::vector<uint32_t> item_container;
  std::vector<uint32_t> item_local;
  uint32_t container_of(uint32_t item) const {
    return item_container.empty() ? 0 : item_container[item];
  }
  uint32_t local_of(uint32_t item) const { return item_local.empty() ? item : item_local[item]; }
  // Per input edge, its level edges from source to target (chain_of): none where the edge is
  // hidden or invalid. CSR, chain[chain_begin[e] .. chain_begin[e + 1]), where groups are laid
  // out. Where only the top level is, a chain has one link at most: chain_begin is empty and
  // chain[e] is edge e's link, its edge kNone where it has none (4 B per edge less); and
  // where, besides, every input edge is its own level edge e (no groups, no parallel or
  // invalid edges), both are empty (8 B per edge less).
  std::vector<uint32_t> chain_begin;
  std::vector<LevelEdgeRef> chain;
  ChainLinks chain_of(uint32_t e) const {
    if (!chain_begin.empty())
      return {chain.data() + chain_begin[e], chain_begin[e + 1] - chain_begin[e]};
    if (chain.empty()) return ChainLinks(LevelEdgeRef{0, e});
    return {chain.data() + e, chain[e].edge == kNone ? 0u : 1u};
  }
  // Per node: number of ports on the outgoing / incoming side (emptied once every level is
  // complete).
  std::vector<uint32_t> out_ports, in_ports;
};

// Sizes are taken in the top-to-bottom frame (width and height swapped for left-to-right).
ContainerSet build_containers(const Graph& graph, const Hierarchy& hierarchy, bool transposed);

}  // namespace etviz::layout
