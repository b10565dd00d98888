#include "layering.h"

#include <algorithm>
#include <limits>

namespace etviz::layout {
namespace {

// The graph with reversed edges turned around and pinned nodes left out.
struct DirectedView {
  const FlatGraph& graph;
  const Adjacency& adjacency;
  const std::vector<uint8_t>& reversed;

  bool free(uint32_t v) const { return graph.nodes[v].pin == Pin::kFree; }

  template <typename F>
  void for_each_successor(uint32_t v, F&& f) const {
    for (uint32_t e : adjacency.out(v)) {
      if (!reversed[e] && free(graph.edges[e].target)) f(graph.edges[e].target);
    }
    for (uint32_t e : adjacency.in(v)) {
      if (reversed[e] && free(graph.edges[e].source)) f(graph.edges[e].source);
    }
  }
  template <typename F>
  void for_each_predecessor(uint32_t v, F&& f) const {
    for (uint32_t e : adjacency.in(v)) {
      if (!reversed[e] && free(graph.edges[e].source)) f(graph.edges[e].source);
    }
    for (uint32_t e : adjacency.out(v)) {
      if (reversed[e] && free(graph.edges[e].target)) f(graph.edges[e].target);
    }
  }
};

// Kahn's algorithm over the free nodes, sources taken in id order.
std::vector<uint32_t> topological_order(const DirectedView& view) {
  const auto n = static_cast<uint32_t>(view.graph.nodes.size());
  std::vector<uint32_t> pending(n, 0);
  for (uint32_t v = 0; v < n; ++v) {
    if (view.free(v)) view.for_each_successor(v, [&](uint32_t w) { ++pending[w]; });
  }
  std::vector<uint32_t> order;
  order.reserve(n);
  for (uint32_t v = 0; v < n; ++v) {
    if (view.free(v) && pending[v] == 0) order.push_back(v);
  }
  for (size_t head = 0; head < order.size(); ++head) {
    view.for_each_successor(order[head], [&](uint32_t w) {
      if (--pending[w] == 0) order.push_back(w);
    });
  }
  return order;
}

// Greedy, linear approximation of network-simplex ranking: a node with more outgoing than
// incoming edges moves down next to its closest successor (sources such as weights and
// constants end up beside their consumer), then a node with more incoming than outgoing
// edges moves up next to its lowest predecessor.
void balance_layers(const DirectedView& view, const std::vector<uint32_t>& topo,
                    std::vector<uint32_t>& layer) {
  for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
    const uint32_t v = *it;
    uint32_t outs = 0, ins = 0, lowest_successor = std::numeric_limits<uint32_t>::max();
    view.for_each_successor(v, [&](uint32_t w) {
      ++outs;
      lowest_successor = std::min(lowest_successor, layer[w]);
    });
    view.for_each_predecessor(v, [&](uint32_t) { ++ins; });
    if (outs > ins && lowest_successor - 1 > layer[v]) layer[v] = lowest_successor - 1;
  }
  for (const uint32_t v : topo) {
    uint32_t outs = 0, ins = 0, highest_predecessor = 0;
    view.for_each_predecessor(v, [&](uint32_t u) {
      ++ins;
      highest_predecessor = std::max(highest_predecessor, layer[u] + 1);
    });
    view.for_each_successor(v, [&](uint32_t) { ++outs; });
    if (ins > outs && highest_predecessor < layer[v]) layer[v] = highest_predecessor;
  }
}

}  // namespace

std::vector<uint32_t> assign_layers(const FlatGraph& graph, const Adjacency& adjacency,
                                    const std::vector<uint8_t>& reversed,
                                    LayeringStrategy strategy) {
  const auto n = static_cast<uint32_t>(graph.nodes.size());
  const DirectedView view{graph, adjacency, reversed};
  const std::vector<uint32_t> topo = topological_order(view);

  std::vector<uint32_t> layer(n, 0);
  for (const uint32_t v : topo) {
    view.for_each_successor(v, [&](uint32_t w) { layer[w] = std::max(layer[w], layer[v] + 1); });
  }
  if (strategy == LayeringStrategy::kLongestPathBalanced) balance_layers(view, topo, layer);

  uint32_t lowest = std::numeric_limits<uint32_t>::max(), highest = 0;
  for (const uint32_t v : topo) {
    lowest = std::min(lowest, layer[v]);
    highest = std::max(highest, layer[v]);
  }
  if (topo.empty()) lowest = highest = 0;

  bool has_first = false;
  for (const FlatGraph::Node& node : graph.nodes) has_first |= node.pin == Pin::kFirstLayer;
  const uint32_t shift = has_first ? 1 : 0;
  for (const uint32_t v : topo) layer[v] = layer[v] - lowest + shift;
  const uint32_t last = topo.empty() ? shift : highest - lowest + shift + 1;
  for (uint32_t v = 0; v < n; ++v) {
    if (graph.nodes[v].pin == Pin::kFirstLayer) layer[v] = 0;
    if (graph.nodes[v].pin == Pin::kLastLayer) layer[v] = last;
  }
  return layer;
}

}  // namespace etviz::layout
