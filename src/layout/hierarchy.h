// The group tree, cleaned up, and what is visible in it.
#pragma once

#include <cstdint>
#include <vector>

#include "layout.h"

namespace etviz::layout {

// "Items" are what a level of the layout places: ids [0, N) are nodes, [N, N + G) groups.
struct Hierarchy {
  uint32_t node_count = 0;
  // Per node, kNone when the input index was invalid; empty where there are no groups.
  std::vector<uint32_t> node_group;
  std::vector<uint32_t> group_parent;  // invalid or cyclic parents cut to kNone
  std::vector<uint32_t> group_depth;   // 0 for top-level groups
  // Outermost collapsed group among g and its ancestors, or kNone if g is expanded and
  // visible, i.e. its content is laid out.
  std::vector<uint32_t> collapsed_rep;

  uint32_t group_item(uint32_t g) const { return node_count + g; }
  bool is_group_item(uint32_t item) const { return item >= node_count; }
  uint32_t group_of_item(uint32_t item) const { return item - node_count; }

  // The item a node is drawn as: itself, or the collapsed group hiding it.
  uint32_t visible_item(uint32_t node) const {
    const uint32_t g = group_of_node(node);
    if (g != kNone && collapsed_rep[g] != kNone) return group_item(collapsed_rep[g]);
    return node;
  }
  // The group whose content an item is part of (kNone: the top level).
  uint32_t parent_of_item(uint32_t item) const {
    return is_group_item(item) ? group_parent[group_of_item(item)] : group_of_node(item);
  }
  uint32_t group_of_node(uint32_t node) const {
    return node_group.empty() ? kNone : node_group[node];
  }
  bool is_laid_out(uint32_t g) const { return collapsed_rep[g] == kNone; }
  bool is_visible_group(uint32_t g) const {
    return collapsed_rep[g] == kNone || collapsed_rep[g] == g;
  }
};

Hierarchy build_hierarchy(const Graph& graph);

}  // namespace etviz::layout
