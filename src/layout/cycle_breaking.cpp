#include "cycle_breaking.h"

#include <utility>

namespace etviz::layout {

std::vector<uint8_t> break_cycles(const FlatGraph& graph, const Adjacency& adjacency) {
  const auto n = static_cast<uint32_t>(graph.nodes.size());
  std::vector<uint8_t> reversed(graph.edges.size(), 0);
  enum : uint8_t { kUnseen, kOnStack, kDone };
  std::vector<uint8_t> state(n, kUnseen);
  // (node, index of the next out-edge to follow)
  std::vector<std::pair<uint32_t, uint32_t>> stack;
  for (uint32_t root = 0; root < n; ++root) {
    if (state[root] != kUnseen) continue;
    state[root] = kOnStack;
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      const auto out = adjacency.out(v);
      if (next == out.size()) {
        state[v] = kDone;
        stack.pop_back();
        continue;
      }
      const uint32_t e = out[next++];
      const uint32_t w = graph.edges[e].target;
      if (state[w] == kOnStack) {
        reversed[e] = 1;
      } else if (state[w] == kUnseen) {
        state[w] = kOnStack;
        stack.emplace_back(w, 0);  // invalidates v/next; they are not used after this
      }
    }
  }
  return reversed;
}

}  // namespace etviz::layout
