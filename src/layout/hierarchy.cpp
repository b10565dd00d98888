#include "hierarchy.h"

#include <algorithm>
#include <numeric>

namespace etviz::layout {

Hierarchy build_hierarchy(const Graph& graph) {
  Hierarchy h;
  const auto n = static_cast<uint32_t>(graph.nodes.size());
  const auto groups = static_cast<uint32_t>(graph.groups.size());
  h.node_count = n;
  if (groups == 0) return h;  // every node at the top level: no node_group (visible_item)
  h.node_group.resize(n);
  for (uint32_t v = 0; v < n; ++v) {
    const uint32_t g = graph.nodes[v].group;
    h.node_group[v] = g < groups ? g : kNone;
  }
  h.group_parent.resize(groups);
  for (uint32_t g = 0; g < groups; ++g) {
    const uint32_t p = graph.groups[g].parent;
    h.group_parent[g] = p < groups && p != g ? p : kNone;
  }

  // Depths by walking up to a known ancestor; a walk that meets itself is a cycle, cut at
  // the group where it closes.
  enum : uint8_t { kUnknown, kOnPath, kKnown };
  std::vector<uint8_t> state(groups, kUnknown);
  h.group_depth.assign(groups, 0);
  std::vector<uint32_t> path;
  for (uint32_t g = 0; g < groups; ++g) {
    path.clear();
    uint32_t v = g;
    while (v != kNone && state[v] == kUnknown) {
      state[v] = kOnPath;
      path.push_back(v);
      v = h.group_parent[v];
    }
    if (v != kNone && state[v] == kOnPath) {
      h.group_parent[path.back()] = kNone;
      v = kNone;
    }
    uint32_t depth = v == kNone ? 0 : h.group_depth[v] + 1;
    for (auto it = path.rbegin(); it != path.rend(); ++it, ++depth) {
      h.group_depth[*it] = depth;
      state[*it] = kKnown;
    }
  }

  std::vector<uint32_t> by_depth(groups);
  std::iota(by_depth.begin(), by_depth.end(), 0u);
  std::stable_sort(by_depth.begin(), by_depth.end(),
                   [&](uint32_t a, uint32_t b) { return h.group_depth[a] < h.group_depth[b]; });
  h.collapsed_rep.assign(groups, kNone);
  for (const uint32_t g : by_depth) {
    const uint32_t p = h.group_parent[g];
    if (p != kNone && h.collapsed_rep[p] != kNone) {
      h.collapsed_rep[g] = h.collapsed_rep[p];
    } else if (!graph.groups[g].expanded) {
      h.collapsed_rep[g] = g;
    }
  }
  return h;
}

}  // namespace etviz::layout
