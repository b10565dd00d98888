#include "components.h"

#include <numeric>

namespace etviz::layout {

Components find_components(const FlatGraph& graph) {
  const auto n = static_cast<uint32_t>(graph.nodes.size());
  Components result;
  result.of_node.assign(n, 0);
  if (n == 0) return result;
  for (uint32_t v = 0; v < n; ++v) {
    if (graph.pin(v) != Pin::kFree) {
      result.count = 1;
      return result;
    }
  }
  std::vector<uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (const FlatGraph::Edge& e : graph.edges) {
    const uint32_t a = find(e.source), b = find(e.target);
    if (a != b) parent[a < b ? b : a] = a < b ? a : b;  // smaller id wins: deterministic
  }
  std::vector<uint32_t> number(n, UINT32_MAX);
  for (uint32_t v = 0; v < n; ++v) {
    const uint32_t r = find(v);
    if (number[r] == UINT32_MAX) number[r] = result.count++;
    result.of_node[v] = number[r];
  }
  return result;
}

}  // namespace etviz::layout
