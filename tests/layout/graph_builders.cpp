#include "graph_builders.h"

#include <algorithm>

namespace etviz::layout::testing {

Node box(double width, double height, uint32_t group) {
  return Node{width, height, group};
}

Graph random_dag(uint32_t n, uint64_t seed) {
  Random rng(seed);
  Graph g;
  for (uint32_t v = 0; v < n; ++v) {
    g.nodes.push_back(box(20 + rng.below(100), 20 + rng.below(30)));
    if (v == 0) continue;
    const uint32_t inputs = 1 + rng.below(3);
    for (uint32_t i = 0; i < inputs; ++i) {
      const uint32_t back = rng.chance(90) ? 1 + rng.below(std::min(v, 6u)) : 1 + rng.below(v);
      g.edges.push_back({v - back, v});
    }
  }
  return g;
}

Graph random_messy_graph(uint32_t n, uint64_t seed) {
  Graph g = random_dag(n, seed);
  Random rng(seed ^ 0xABCDEF);
  const size_t extra = n / 5 + 1;
  for (size_t i = 0; i < extra && n > 0; ++i) {
    const uint32_t a = rng.below(n), b = rng.below(n);
    switch (rng.below(3)) {
      case 0:
        g.edges.push_back({std::max(a, b), std::min(a, b)});  // backwards: closes a cycle
        break;
      case 1:
        g.edges.push_back({a, a});
        break;
      default:
        if (!g.edges.empty())
          g.edges.push_back(g.edges[rng.below(static_cast<uint32_t>(g.edges.size()))]);
    }
  }
  return g;
}

Graph random_compound_graph(uint32_t n, uint64_t seed, bool collapse_some) {
  Graph g = random_dag(n, seed);
  Random rng(seed ^ 0x5EED);
  // Groups follow the node order, like modules of a model: a new group opens now and then,
  // nested in the current one or in one of its ancestors.
  std::vector<uint32_t> open;  // stack of currently open groups
  for (uint32_t v = 0; v < n; ++v) {
    if (rng.chance(8)) {
      const uint32_t pop = open.empty() ? 0 : rng.below(static_cast<uint32_t>(open.size()) + 1);
      open.resize(open.size() - pop);
      Group grp;
      grp.parent = open.empty() ? kNone : open.back();
      grp.expanded = !(collapse_some && rng.chance(25));
      grp.collapsed_width = 80;
      grp.collapsed_height = 30;
      open.push_back(static_cast<uint32_t>(g.groups.size()));
      g.groups.push_back(grp);
    }
    g.nodes[v].group = open.empty() ? kNone : open.back();
  }
  for (Edge& e : g.edges) {
    if (rng.chance(20)) e.source_port = rng.below(3);
    if (rng.chance(20)) e.target_port = rng.below(2);
  }
  return g;
}

Graph chain(uint32_t n) {
  Graph g;
  for (uint32_t v = 0; v < n; ++v) {
    g.nodes.push_back(box(40, 20));
    if (v > 0) g.edges.push_back({v - 1, v});
  }
  return g;
}

}  // namespace etviz::layout::testing
