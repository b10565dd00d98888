#include "crossings.h"

#include <vector>

namespace etviz::layout {

uint64_t count_ranked_crossings(std::span<const RankedEdge> edges, uint32_t lower_size) {
  if (lower_size < 2 || edges.size() < 2) return 0;
  // Fenwick tree over lower ranks; a crossing costs the product of the weights. The edges of
  // one upper node are all queried before any of them is inserted, so they never cross.
  thread_local std::vector<uint64_t> tree;
  tree.assign(lower_size + 1, 0);
  uint64_t crossings = 0;
  uint64_t inserted = 0;
  for (size_t begin = 0; begin < edges.size();) {
    size_t end = begin + 1;
    while (end < edges.size() && edges[end].upper == edges[begin].upper) ++end;
    for (size_t i = begin; i < end; ++i) {
      // Weight of already inserted edges ending strictly right of this one's lower end.
      uint64_t at_most_p = 0;
      for (uint32_t k = edges[i].lower + 1; k > 0; k -= k & (~k + 1)) at_most_p += tree[k];
      crossings += edges[i].weight * (inserted - at_most_p);
    }
    for (size_t i = begin; i < end; ++i) {
      for (uint32_t k = edges[i].lower + 1; k <= lower_size; k += k & (~k + 1))
        tree[k] += edges[i].weight;
      inserted += edges[i].weight;
    }
    begin = end;
  }
  return crossings;
}

uint64_t count_crossings_between(const LayeredGraph& graph, const Order& order, uint32_t l) {
  const auto upper = order.layer(l);
  const auto lower_size = static_cast<uint32_t>(order.layer(l + 1).size());
  if (lower_size < 2 || upper.size() < 1) return 0;
  thread_local std::vector<RankedEdge> edges;
  edges.clear();
  for (uint32_t i = 0; i < upper.size(); ++i) {
    for (const uint32_t s : graph.downs(upper[i]))
      edges.push_back({i, order.pos[graph.segments[s].lower], graph.weight(s)});
  }
  return count_ranked_crossings(edges, lower_size);
}

uint64_t count_crossings(const LayeredGraph& graph, const Order& order) {
  uint64_t total = 0;
  for (uint32_t l = 0; l + 1 < graph.layer_count; ++l) {
    total += count_crossings_between(graph, order, l);
  }
  return total;
}

}  // namespace etviz::layout
