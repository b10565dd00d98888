#include "crossings.h"

#include <algorithm>
#include <vector>

namespace etviz::layout {

uint64_t count_crossings_between(const LayeredGraph& graph, const Order& order, uint32_t l) {
  const auto upper = order.layer(l);
  const auto lower_size = static_cast<uint32_t>(order.layer(l + 1).size());
  if (lower_size < 2 || upper.size() < 1) return 0;
  // Fenwick tree over lower positions; edges visited by upper position then lower position.
  // Targets as (lower position, weight); a crossing costs the product of the weights.
  thread_local std::vector<uint64_t> tree;
  thread_local std::vector<std::pair<uint32_t, uint32_t>> targets;
  tree.assign(lower_size + 1, 0);
  uint64_t crossings = 0;
  uint64_t inserted = 0;
  for (const uint32_t u : upper) {
    targets.clear();
    for (const uint32_t s : graph.downs(u)) {
      targets.push_back({order.pos[graph.segments[s].lower], graph.segments[s].weight});
    }
    std::sort(targets.begin(), targets.end());
    for (const auto& [p, w] : targets) {
      // Weight of already inserted segments ending strictly right of p.
      uint64_t at_most_p = 0;
      for (uint32_t i = p + 1; i > 0; i -= i & (~i + 1)) at_most_p += tree[i];
      crossings += w * (inserted - at_most_p);
    }
    for (const auto& [p, w] : targets) {
      for (uint32_t i = p + 1; i <= lower_size; i += i & (~i + 1)) tree[i] += w;
      inserted += w;
    }
  }
  return crossings;
}

uint64_t count_crossings(const LayeredGraph& graph, const Order& order) {
  uint64_t total = 0;
  for (uint32_t l = 0; l + 1 < graph.layer_count; ++l) {
    total += count_crossings_between(graph, order, l);
  }
  return total;
}

}  // namespace etviz::layout
