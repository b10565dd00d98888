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

// Moves whole groups of nodes by one layer where that shortens the edges in total, which
// single-node moves cannot do: e.g. pulling a node down also pulls the successors that sit
// right below it (a chain down to a node with slack). Starting from node v, the group is v
// plus, transitively, every successor (for a move down) or predecessor (up) in the adjacent
// layer; moving it changes the total edge length by sum(in - out) (down) or sum(out - in)
// (up). Groups are capped so a pass stays linear; this approximates network-simplex ranking
// (Nikolov & Tarassov's promote heuristic, both ways).
class GroupMover {
 public:
  GroupMover(const DirectedView& view, std::vector<uint32_t>& layer)
      : view_(view), layer_(layer), in_group_(layer.size(), 0) {}

  // Returns true if a move was made.
  bool try_move(uint32_t v, bool down) {
    group_.assign(1, v);
    stack_.assign(1, v);
    in_group_[v] = 1;
    int64_t delta = 0;
    bool too_big = false;
    while (!stack_.empty() && !too_big) {
      const uint32_t x = stack_.back();
      stack_.pop_back();
      int64_t ins = 0, outs = 0;
      view_.for_each_predecessor(x, [&](uint32_t u) {
        ++ins;
        if (!down && layer_[u] + 1 == layer_[x]) visit(u);
      });
      view_.for_each_successor(x, [&](uint32_t w) {
        ++outs;
        if (down && layer_[x] + 1 == layer_[w]) visit(w);
      });
      delta += down ? ins - outs : outs - ins;
      too_big = group_.size() > kMaxGroup;
    }
    // Moving up from layer 0 would need a layer above; layers are renormalised later, but
    // keep them unsigned by refusing.
    bool blocked = too_big || delta >= 0;
    if (!blocked && !down) {
      for (const uint32_t x : group_) blocked |= layer_[x] == 0;
    }
    for (const uint32_t x : group_) {
      in_group_[x] = 0;
      if (!blocked) layer_[x] = down ? layer_[x] + 1 : layer_[x] - 1;
    }
    return !blocked;
  }

 private:
  static constexpr size_t kMaxGroup = 64;

  void visit(uint32_t x) {
    if (in_group_[x]) return;
    in_group_[x] = 1;
    group_.push_back(x);
    stack_.push_back(x);
  }

  const DirectedView& view_;
  std::vector<uint32_t>& layer_;
  std::vector<uint8_t> in_group_;
  std::vector<uint32_t> group_, stack_;
};

void move_groups(const DirectedView& view, const std::vector<uint32_t>& topo,
                 std::vector<uint32_t>& layer) {
  GroupMover mover(view, layer);
  constexpr int kMaxPasses = 8;
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    bool moved = false;
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
      uint32_t ins = 0, outs = 0;
      view.for_each_predecessor(*it, [&](uint32_t) { ++ins; });
      view.for_each_successor(*it, [&](uint32_t) { ++outs; });
      if (outs > ins) moved |= mover.try_move(*it, true);
    }
    for (const uint32_t v : topo) {
      uint32_t ins = 0, outs = 0;
      view.for_each_predecessor(v, [&](uint32_t) { ++ins; });
      view.for_each_successor(v, [&](uint32_t) { ++outs; });
      if (ins > outs) moved |= mover.try_move(v, false);
    }
    if (!moved) break;
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
  if (strategy == LayeringStrategy::kLongestPathBalanced) {
    balance_layers(view, topo, layer);
    move_groups(view, topo, layer);
  }

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
