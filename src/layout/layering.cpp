#include "layering.h"

#include <algorithm>
#include <limits>

#include "network_simplex.h"

namespace etviz::layout {
namespace {

// The graph with reversed edges turned around and pinned nodes left out: per node, the free
// nodes it leads to and comes from, in edge order (out-edges, then reversed in-edges). Held
// as lists of node ids because the layering's passes walk them many times, and reading each
// edge and its far end from the graph was two cache misses per neighbour (the group moves
// at 200k nodes).
class DirectedView {
 public:
  DirectedView(const FlatGraph& graph, const Adjacency& adjacency,
               const std::vector<uint8_t>& reversed) {
    const auto n = static_cast<uint32_t>(graph.nodes.size());
    free_.resize(n);
    for (uint32_t v = 0; v < n; ++v) free_[v] = graph.pin(v) == Pin::kFree;
    // v's successors: targets of its out-edges not reversed, then sources of its in-edges
    // reversed; predecessors the other way round. Counted first, then filled: the lists are
    // allocated once, exactly (a growing vector leaves its earlier blocks behind, which the
    // later phases' peak lands beside).
    auto fill = [&](bool successors, std::vector<uint32_t>& begin, std::vector<uint32_t>& ids) {
      auto each = [&](uint32_t v, auto&& f) {
        for (const bool out_side : {true, false}) {
          const bool want_reversed = out_side != successors;
          for (const uint32_t e : out_side ? adjacency.out(v) : adjacency.in(v)) {
            const uint32_t w = out_side ? graph.edges[e].target : graph.edges[e].source;
            if ((reversed[e] != 0) == want_reversed && free_[w]) f(w);
          }
        }
      };
      begin.assign(n + 1, 0);
      for (uint32_t v = 0; v < n; ++v) {
        uint32_t count = 0;
        each(v, [&](uint32_t) { ++count; });
        begin[v + 1] = begin[v] + count;
      }
      ids.resize(begin[n]);
      for (uint32_t v = 0; v < n; ++v) {
        uint32_t next = begin[v];
        each(v, [&](uint32_t w) { ids[next++] = w; });
      }
    };
    fill(true, succ_begin_, succ_);
    fill(false, pred_begin_, pred_);
  }

  uint32_t node_count() const { return static_cast<uint32_t>(free_.size()); }
  bool free(uint32_t v) const { return free_[v] != 0; }

  template <typename F>
  void for_each_successor(uint32_t v, F&& f) const {
    for (uint32_t i = succ_begin_[v]; i < succ_begin_[v + 1]; ++i) f(succ_[i]);
  }
  template <typename F>
  void for_each_predecessor(uint32_t v, F&& f) const {
    for (uint32_t i = pred_begin_[v]; i < pred_begin_[v + 1]; ++i) f(pred_[i]);
  }

 private:
  std::vector<uint8_t> free_;
  std::vector<uint32_t> succ_begin_, succ_, pred_begin_, pred_;
};

// Kahn's algorithm over the free nodes, sources taken in id order.
std::vector<uint32_t> topological_order(const DirectedView& view) {
  const auto n = view.node_count();
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

// Two passes: the moves are a warm start for network simplex, which finishes the ranking.
// Later passes moved the same few groups one more layer each (on a per-head LLM, the KV-cache
// inputs' groups sinking towards their consumers: 7 groups a pass for 6 more passes, each a
// full scan of ~100,000 tries that fail at 200k nodes, a fifth of the layout's time); network
// simplex makes those moves in a few pivots. Every drawing of the shared bench graphs and the
// model shapes (55 layouts, flat, grouped, left to right) is the same with 2 passes as with 8;
// with 1 the random DAGs' drawings change (+0.3-0.7 % crossings).
void move_groups(const DirectedView& view, const std::vector<uint32_t>& topo,
                 std::vector<uint32_t>& layer) {
  GroupMover mover(view, layer);
  constexpr int kMaxPasses = 2;
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

// Moves connected sets of nodes down by several layers at once where that lowers the number
// of dummy nodes, counted the way long-edge splitting makes them: with bundling, all long
// edges of one source share one trunk down to its deepest successor, so a source's cost is
// (deepest successor's layer - its layer - 1); without, every edge costs its own span - 1.
// This is what places nodes with slack next to their consumers when their producer fans out
// anyway (a diffusion U-Net's time embedding feeds every residual block through a chain
// SiLU -> Linear -> Unsqueeze: longest-path ranking leaves every chain at the top, one long
// edge each; here the chain moves down to its block and the embedding's single trunk
// carries the distance). Single-layer group moves cannot do it: moving the chain's last
// node alone is a tie (its input gets as much longer as its output gets shorter).
//
// Two kinds of set are tried from each node v, in reverse topological order:
//  - up-closure: v plus, transitively, predecessors whose successors are all in the set (the
//    in-tree hanging above v, e.g. the chain above);
//  - down-closure: v plus, transitively, successors whose predecessors are all in the set
//    (e.g. a KV-cache input and the per-head slices of it).
// Moving a set S down by k shortens edges leaving S and lengthens edges entering S; the
// change in dummies is a sum of convex piecewise-linear functions of k (one per source whose
// edges cross S's border), so the best k is found by binary search on the slope. Sets are
// capped at kMaxSet nodes, so a pass is linear.
class SlackMover {
 public:
  // Sources with fewer successors are costed per edge, as network simplex does, and have
  // no future reach: trading a node's own long edge for a branch off a neighbour's short
  // trunk saves a dummy but not a crossing, and on transformer layers it would undo the
  // ranking dot also finds (transformer_shared_2000: 278 -> 538 crossings).
  static constexpr uint32_t kMinHub = 4;

  SlackMover(const DirectedView& view, const std::vector<uint32_t>& topo,
             std::vector<uint32_t>& layer, bool bundled)
      : view_(view),
        layer_(layer),
        bundled_(bundled),
        in_set_(layer.size(), 0),
        count_(layer.size(), 0),
        source_term_(layer.size(), kNoNode),
        latest_(layer),
        successors_(layer.size(), 0),
        predecessors_(layer.size(), 0),
        deepest_(layer.size()),
        reach_(layer.size()) {
    // latest_[v]: the lowest layer v could take with everything below it as low as possible.
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
      bool first = true;
      view.for_each_successor(*it, [&](uint32_t w) {
        if (first) latest_[*it] = latest_[w] - 1;
        first = false;
        latest_[*it] = std::min(latest_[*it], latest_[w] - 1);
      });
    }
    for (uint32_t v = 0; v < layer.size(); ++v) {
      if (!view.free(v)) continue;
      view.for_each_successor(v, [&](uint32_t w) {
        ++successors_[v];
        ++predecessors_[w];
        note(deepest_[v], layer_, w);
        if (latest_[w] < layer_[w] + kMinSlack) return;
        note(reach_[v], latest_, w);
      });
    }
  }

  void run(const std::vector<uint32_t>& topo) {
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
      if (build_up(*it)) try_move();
      if (build_down(*it)) try_move();
    }
  }

 private:
  static constexpr size_t kMaxSet = 64;
  static constexpr uint32_t kNoNode = 0xFFFFFFFFu;
  static constexpr int64_t kNoLayer = -1;
  // A successor counts towards its source's future reach if it can sink at least this many
  // layers (one layer of slack, like a decoder layer's q projection beside k, is no promise
  // that the source's trunk will be long).
  static constexpr uint32_t kMinSlack = 2;
  // Moves that save fewer dummies are left alone: on crossing-heavy graphs they trade one
  // edge's dummies for another's and the order phase does no better for it (random DAG
  // 10k: three such moves, saving 7-9 dummies each, cost +0.9 % crossings and +4 % area),
  // while the moves this pass exists for save tens to thousands.
  static constexpr int64_t kMinSaving = 10;

  bool hub(uint32_t v) const { return bundled_ && successors_[v] >= kMinHub; }

  // The two deepest distinct successors of a node by some per-node key, so the reach of a
  // source outside a set is O(1). Kept up to date as nodes move down (keys only grow).
  struct Deepest {
    uint32_t first = kNoNode, second = kNoNode;
  };

  static void note(Deepest& d, const std::vector<uint32_t>& key, uint32_t w) {
    if (d.first == w) return;
    if (d.first == kNoNode || key[w] > key[d.first]) {
      d.second = d.first;
      d.first = w;
    } else if (d.second == kNoNode || d.second == w || key[w] > key[d.second]) {
      d.second = w;
    }
  }

  // Key of the deepest successor of `s` outside the set, or kNoLayer.
  int64_t deepest_outside(uint32_t s, const Deepest& d, const std::vector<uint32_t>& key) const {
    if (d.first != kNoNode && !in_set_[d.first]) return key[d.first];
    if (d.second != kNoNode && !in_set_[d.second]) return key[d.second];
    if (d.second == kNoNode) return kNoLayer;
    int64_t deepest = kNoLayer;  // both cached ones are in the set: look at all
    view_.for_each_successor(s, [&](uint32_t w) {
      if (!in_set_[w]) deepest = std::max<int64_t>(deepest, key[w]);
    });
    return deepest;
  }

  // How deep the trunk of `s` reaches without the set's nodes: where its other successors
  // are, or where they will be once they sink to their consumers too. Without that second
  // part, the first of many chains hanging from one source (a U-Net's time embedding) would
  // pay for the whole trunk and never move, and neither would the others.
  // Only called for hubs (see try_move).
  int64_t reach_outside(uint32_t s) const {
    return std::max(deepest_outside(s, deepest_[s], layer_),
                    deepest_outside(s, reach_[s], latest_));
  }

  void start(uint32_t v) {
    clear();
    add(v);
  }
  void add(uint32_t v) {
    in_set_[v] = 1;
    set_.push_back(v);
  }
  void clear() {
    for (const uint32_t x : set_) in_set_[x] = 0;
    for (const uint32_t x : counted_) count_[x] = 0;
    set_.clear();
    counted_.clear();
  }

  // Up-closure of v; false when it cannot move (no successors, or one right below v).
  bool build_up(uint32_t v) {
    bool movable = successors_[v] > 0;
    view_.for_each_successor(v, [&](uint32_t w) { movable &= layer_[w] > layer_[v] + 1; });
    if (!movable) return false;
    start(v);
    for (size_t head = 0; head < set_.size() && set_.size() < kMaxSet; ++head) {
      view_.for_each_predecessor(set_[head], [&](uint32_t u) {
        if (in_set_[u] || set_.size() >= kMaxSet) return;
        if (count_[u]++ == 0) counted_.push_back(u);
        if (count_[u] == successors_[u]) add(u);
      });
    }
    return true;
  }

  // Down-closure of v; false when it would be v alone.
  bool build_down(uint32_t v) {
    bool grows = false;
    view_.for_each_successor(v, [&](uint32_t w) { grows |= predecessors_[w] == 1; });
    if (!grows) return false;
    start(v);
    for (size_t head = 0; head < set_.size() && set_.size() < kMaxSet; ++head) {
      view_.for_each_successor(set_[head], [&](uint32_t w) {
        if (in_set_[w] || set_.size() >= kMaxSet) return;
        if (count_[w]++ == 0) counted_.push_back(w);
        if (count_[w] == predecessors_[w]) add(w);
      });
    }
    return set_.size() > 1;
  }

  // One source's cost as a function of the shift k: max(0, max(fixed, moving + k) - 1) for
  // edges whose far end moves relative to the source by +k, or with -k for edges leaving the
  // set. Without bundling each edge is its own term.
  struct Term {
    int64_t fixed;   // span of edges that keep their length (kNoLayer: none)
    int64_t moving;  // longest span of the edges that change
    int sign;        // +1: they grow with k (entering the set), -1: they shrink (leaving)
  };

  static int64_t term_cost(const Term& t, int64_t k) {
    return std::max<int64_t>(0, std::max(t.fixed, t.moving + t.sign * k) - 1);
  }

  int64_t total(int64_t k) const {
    int64_t sum = 0;
    for (const Term& t : terms_) sum += term_cost(t, k);
    return sum;
  }

  void try_move() {
    // The largest shift that keeps every edge leaving the set pointing down.
    int64_t limit = std::numeric_limits<int64_t>::max();
    terms_.clear();
    for (const uint32_t x : set_) {
      int64_t inner = kNoLayer, outer = kNoLayer;
      view_.for_each_successor(x, [&](uint32_t w) {
        const int64_t span = int64_t{layer_[w]} - layer_[x];
        if (in_set_[w]) {
          inner = std::max(inner, span);
        } else {
          limit = std::min(limit, span - 1);
          if (hub(x))
            outer = std::max(outer, span);
          else
            terms_.push_back({kNoLayer, span, -1});
        }
      });
      if (hub(x) && outer != kNoLayer) terms_.push_back({inner, outer, -1});
      view_.for_each_predecessor(x, [&](uint32_t u) {
        if (in_set_[u]) return;
        const int64_t span = int64_t{layer_[x]} - layer_[u];
        if (!hub(u)) {
          terms_.push_back({kNoLayer, span, +1});
          return;
        }
        // One term per outside source, however many of its edges enter the set.
        if (source_term_[u] == kNoNode) {
          const int64_t outside = reach_outside(u);
          source_term_[u] = static_cast<uint32_t>(terms_.size());
          terms_.push_back({outside == kNoLayer ? kNoLayer : outside - layer_[u], span, +1});
          touched_.push_back(u);
        } else {
          Term& t = terms_[source_term_[u]];
          t.moving = std::max(t.moving, span);
        }
      });
    }
    for (const uint32_t u : touched_) source_term_[u] = kNoNode;
    touched_.clear();
    if (limit == std::numeric_limits<int64_t>::max() || limit <= 0) return;
    // total(k) is convex: find the largest k in [0, limit] before it starts increasing. Of
    // equally cheap shifts the deepest is taken: the set then ends right above its
    // consumer and what it costs is a longer trunk of its source, which is drawn once for
    // all of that source's consumers (the deepest of a time embedding's chains).
    int64_t lo = 0, hi = limit;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (total(mid + 1) <= total(mid))
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo == 0 || total(0) - total(lo) < kMinSaving) return;
    for (const uint32_t x : set_) layer_[x] += static_cast<uint32_t>(lo);
    for (const uint32_t x : set_) {
      view_.for_each_predecessor(x, [&](uint32_t u) { note(deepest_[u], layer_, x); });
    }
  }

  const DirectedView& view_;
  std::vector<uint32_t>& layer_;
  bool bundled_;
  std::vector<uint8_t> in_set_;
  std::vector<uint32_t> count_;
  std::vector<uint32_t> source_term_;  // per source: its term while try_move runs
  std::vector<uint32_t> latest_;
  std::vector<uint32_t> successors_, predecessors_;  // edges, per node
  std::vector<Deepest> deepest_, reach_;             // by current layer, by latest layer
  std::vector<uint32_t> set_, counted_, touched_;
  std::vector<Term> terms_;
};

// Whether some node feeds at least SlackMover::kMinHub others. Without one (or without
// bundling), every cost the slack moves see is per edge, which the group moves above already
// minimise (up to their one-layer steps), so graphs like transformer stacks skip the pass
// and its set-up (transformer 200k: +12 % layout time otherwise).
bool has_hub(const DirectedView& view) {
  for (uint32_t v = 0; v < view.node_count(); ++v) {
    if (!view.free(v)) continue;
    uint32_t outs = 0;
    view.for_each_successor(v, [&](uint32_t) { ++outs; });
    if (outs >= SlackMover::kMinHub) return true;
  }
  return false;
}

// The free nodes' ranks made optimal in total edge length (each edge counted once, as the
// ordering's crossing counts and the drawing's length do), from the greedy ranking.
void minimise_total_length(const DirectedView& view, const std::vector<uint32_t>& topo,
                           std::vector<uint32_t>& layer) {
  std::vector<uint32_t> id(layer.size(), kNone);
  std::vector<int32_t> rank;
  rank.reserve(topo.size());
  for (const uint32_t v : topo) {
    id[v] = static_cast<uint32_t>(rank.size());
    rank.push_back(static_cast<int32_t>(layer[v]));
  }
  std::vector<RankEdge> edges;
  for (const uint32_t v : topo) {
    view.for_each_successor(v, [&](uint32_t w) {
      if (w != v && id[w] != kNone) edges.push_back({id[v], id[w]});
    });
  }
  minimise_edge_lengths(edges, rank);
  for (const uint32_t v : topo) layer[v] = static_cast<uint32_t>(rank[id[v]]);
}

}  // namespace

std::vector<uint32_t> assign_layers(const FlatGraph& graph, const Adjacency& adjacency,
                                    const std::vector<uint8_t>& reversed, LayeringStrategy strategy,
                                    bool bundled) {
  const auto n = static_cast<uint32_t>(graph.nodes.size());
  const DirectedView view{graph, adjacency, reversed};
  const std::vector<uint32_t> topo = topological_order(view);

  std::vector<uint32_t> layer(n, 0);
  for (const uint32_t v : topo) {
    view.for_each_successor(v, [&](uint32_t w) { layer[w] = std::max(layer[w], layer[v] + 1); });
  }
  if (strategy != LayeringStrategy::kLongestPath) {
    balance_layers(view, topo, layer);
    move_groups(view, topo, layer);
    if (strategy == LayeringStrategy::kNetworkSimplex) minimise_total_length(view, topo, layer);
    if (bundled && has_hub(view)) SlackMover(view, topo, layer, bundled).run(topo);
  }

  uint32_t lowest = std::numeric_limits<uint32_t>::max(), highest = 0;
  for (const uint32_t v : topo) {
    lowest = std::min(lowest, layer[v]);
    highest = std::max(highest, layer[v]);
  }
  if (topo.empty()) lowest = highest = 0;

  bool has_first = false;
  for (const Pin pin : graph.pins) has_first |= pin == Pin::kFirstLayer;
  const uint32_t shift = has_first ? 1 : 0;
  for (const uint32_t v : topo) layer[v] = layer[v] - lowest + shift;
  const uint32_t last = topo.empty() ? shift : highest - lowest + shift + 1;
  for (uint32_t v = 0; v < n; ++v) {
    if (graph.pin(v) == Pin::kFirstLayer) layer[v] = 0;
    if (graph.pin(v) == Pin::kLastLayer) layer[v] = last;
  }
  return layer;
}

}  // namespace etviz::layout
