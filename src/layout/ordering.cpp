#include "ordering.h"

#include <algorithm>

#include "crossings.h"
#include "segment_ordering.h"

namespace etviz::layout {
namespace {

// An order filled as nodes are reached: each appended at the end of its layer so far.
struct LayerFiller {
  const LayeredGraph& g;
  Order order;
  std::vector<uint32_t> fill;  // per layer: where its next node goes
  explicit LayerFiller(const LayeredGraph& graph) : g(graph) {
    const uint32_t n = g.node_count();
    order.layer_begin.assign(g.layer_count + 1, 0);
    for (uint32_t v = 0; v < n; ++v) ++order.layer_begin[g.layer[v] + 1];
    for (uint32_t l = 0; l < g.layer_count; ++l) order.layer_begin[l + 1] += order.layer_begin[l];
    order.nodes.assign(n, 0);
    order.pos.assign(n, 0);
    fill.assign(order.layer_begin.begin(), order.layer_begin.end() - 1);
  }
  void append(uint32_t v) {
    const uint32_t l = g.layer[v];
    order.pos[v] = fill[l] - order.layer_begin[l];
    order.nodes[fill[l]++] = v;
  }
};

// Depth-first over the undirected graph (down first, then up), started at every source in
// input order, appending nodes to their layer as they are reached: what one branch reaches
// (a head's query path, down to where its key path joins it, and up that key path) ends up
// side by side in every layer, where breadth-first puts the fan-out's members in a row and
// then their whole next layer in a row (all queries, then all keys).
Order depth_first_order(const LayeredGraph& g) {
  const uint32_t n = g.node_count();
  LayerFiller filler(g);
  std::vector<uint8_t> seen(n, 0);
  struct Frame {
    uint32_t node;
    uint32_t next;  // index into downs then ups
  };
  std::vector<Frame> stack;
  auto visit = [&](uint32_t v) {
    seen[v] = 1;
    filler.append(v);
    stack.push_back({v, 0});
  };
  for (const uint32_t root : g.by_creation) {
    if (!g.ups(root).empty() || seen[root]) continue;
    visit(root);
    while (!stack.empty()) {
      Frame& f = stack.back();
      const auto downs = g.downs(f.node);
      const auto ups = g.ups(f.node);
      uint32_t w = kNone;
      while (w == kNone && f.next < downs.size() + ups.size()) {
        const uint32_t i = f.next++;
        const uint32_t candidate =
            i < downs.size() ? g.segments[downs[i]].lower : g.segments[ups[i - downs.size()]].upper;
        if (!seen[candidate]) w = candidate;
      }
      if (w == kNone)
        stack.pop_back();
      else
        visit(w);
    }
  }
  return std::move(filler.order);
}

// Breadth-first over the undirected graph, started at every source (or every sink) in input
// order, appending nodes to their layer as they are reached.
Order initial_order(const LayeredGraph& g, bool from_sinks) {
  const uint32_t n = g.node_count();
  LayerFiller filler(g);
  std::vector<uint8_t> seen(n, 0);
  std::vector<uint32_t> queue;
  queue.reserve(n);
  auto enqueue = [&](uint32_t v) {
    if (seen[v]) return;
    seen[v] = 1;
    queue.push_back(v);
  };
  for (const uint32_t root : g.by_creation) {
    if (!(from_sinks ? g.downs(root) : g.ups(root)).empty() || seen[root]) continue;
    enqueue(root);
    for (size_t head = queue.size() - 1; head < queue.size(); ++head) {
      const uint32_t v = queue[head];
      filler.append(v);
      const auto first = from_sinks ? g.ups(v) : g.downs(v);
      const auto second = from_sinks ? g.downs(v) : g.ups(v);
      for (const uint32_t s : first)
        enqueue(from_sinks ? g.segments[s].upper : g.segments[s].lower);
      for (const uint32_t s : second)
        enqueue(from_sinks ? g.segments[s].lower : g.segments[s].upper);
    }
  }
  return std::move(filler.order);
}

double median_of(const std::vector<double>& p) {
  const size_t n = p.size();
  const size_t m = n / 2;
  if (n % 2 == 1) return p[m];
  if (n == 2) return (p[0] + p[1]) / 2;
  // Weighted median (Gansner et al.): lean towards the side where neighbours are denser.
  const double left = p[m - 1] - p[0];
  const double right = p[n - 1] - p[m];
  if (left + right == 0) return (p[m - 1] + p[m]) / 2;
  return (p[m - 1] * right + p[m] * left) / (left + right);
}

}  // namespace

double neighbour_key(const std::vector<double>& p, OrderingStrategy keys) {
  if (keys != OrderingStrategy::kBarycenter) return median_of(p);
  double sum = 0;
  for (const double v : p) sum += v;
  return sum / static_cast<double>(p.size());
}

namespace {

// Transposition rounds are bounded; sweeps get a few, the first and last orders more.
constexpr int kRoundsPerSweep = 8;
constexpr int kRoundsAtEnds = 16;

class Sweeper {
  struct Neighbour {  // an edge's other end and the edges it carries
    uint32_t pos;
    uint32_t weight;
    bool operator<(const Neighbour& o) const { return pos < o.pos; }
  };

 public:
  Sweeper(const LayeredGraph& g, const Options& options, OrderingStrategy keys, Order& order)
      : g_(g),
        options_(options),
        keys_(keys),
        order_(order),
        stale_(g.layer_count, kUpsStale | kDownsStale | kCountStale),
        counted_(g.layer_count, 0) {
    const uint32_t n = g.node_count();
    lists_.resize(size_t{g.up_begin[n]} + g.down_begin[n]);
  }

  // One sweep down (even) or up (odd), then transpositions. As in dot, ties are broken
  // against the current order in half of the sweeps, which lets the search leave plateaus.
  void sweep(int iteration) {
    const bool swap_ties = iteration % 4 < 2;
    if (iteration % 2 == 0) {
      for (uint32_t l = 1; l < g_.layer_count; ++l) sort_layer(l, true, swap_ties);
    } else {
      for (uint32_t l = g_.layer_count - 1; l-- > 0;) sort_layer(l, false, swap_ties);
    }
    transpose(!swap_ties, kRoundsPerSweep);
  }

  // Adjacent exchanges until no layer improves; `swap_ties` also exchanges neighbours whose
  // order makes no difference. Layers next to a changed layer are revisited.
  void transpose(bool swap_ties, int max_rounds) {
    if (!options_.transpose) return;
    candidate_.assign(g_.layer_count, 1);
    for (int round = 0; round < max_rounds; ++round) {
      uint64_t gained = 0;
      for (uint32_t l = 0; l < g_.layer_count; ++l) {
        if (candidate_[l]) gained += transpose_layer(l, swap_ties);
      }
      if (gained == 0) break;
    }
  }

  // Crossings of the order as it stands. Those between two adjacent layers are counted
  // again only where either layer changed since they were last counted.
  uint64_t crossings() {
    uint64_t total = 0;
    for (uint32_t l = 0; l + 1 < g_.layer_count; ++l) {
      if (stale_[l] & kCountStale) {
        counted_[l] = count_crossings_between(g_, order_, l);
        stale_[l] &= ~kCountStale;
      }
      total += counted_[l];
    }
    return total;
  }

  // Sifting (Matuszewski, Schönfeld and Molitor): each node of layer l in turn is taken out
  // and put back where its edges to both neighbouring layers cross the fewest of the
  // others', with those layers fixed. Returns the crossings removed.
  //
  // Each node v tries every slot, so a layer of k nodes costs k times the layer's edges. The
  // counts are pair_crossings', found faster: the layer's neighbour lists are copied into one
  // array, both sides of a node together (the layer below's positions numbered after the
  // layer above's), and per v a table of slots says, for an edge ending there, how many more
  // of v's edges it crosses with v on its right than with v on its left, so that what moving
  // v past another node changes is one lookup per edge of that node (per-head attention at
  // 2k nodes: 1.84 billion instructions of sifting per layout before, 0.58 billion after).
  uint64_t sift_layer(uint32_t l) {
    auto nodes = order_.layer(l);
    const auto k = static_cast<uint32_t>(nodes.size());
    if (k < 3) return 0;
    prepare_lists(l);
    const auto above = static_cast<uint32_t>(l > 0 ? order_.layer(l - 1).size() : 0);
    const auto below =
        static_cast<uint32_t>(l + 1 < g_.layer_count ? order_.layer(l + 1).size() : 0);
    const uint32_t slots = above + 1 + below;  // slot `above` is no position
    // Local index j (the node's place when the layer is entered) -> its edges.
    sift_begin_.assign(1, 0);
    sift_entries_.clear();
    for (const uint32_t v : nodes) {
      for (int side = 0; side < 2; ++side) {
        const uint32_t shift = side == 0 ? 0 : above + 1;
        const Neighbour* e = lists_.data() + list_begin(v, side + 1);
        for (const Neighbour* q = lists_.data() + list_begin(v, side); q != e; ++q)
          sift_entries_.push_back({q->pos + shift, q->weight});
      }
      sift_begin_.push_back(static_cast<uint32_t>(sift_entries_.size()));
    }
    // weight_before_[x]: the weight of the layer's edges ending on slot x's side before x.
    weight_before_.assign(size_t{slots} + 1, 0);
    for (const Neighbour& q : sift_entries_) weight_before_[q.pos + 1] += q.weight;
    for (uint32_t x = 1; x <= slots; ++x)
      weight_before_[x] += x == above + 1 ? 0 : weight_before_[x - 1];
    sift_gain_.resize(slots);
    std::vector<uint32_t> row(k);  // local indices in the current order
    for (uint32_t j = 0; j < k; ++j) row[j] = j;
    std::vector<int64_t> step(k);
    uint64_t gained = 0;
    for (uint32_t v = 0; v < k; ++v) {
      const auto at = static_cast<uint32_t>(std::find(row.begin(), row.end(), v) - row.begin());
      row.erase(row.begin() + at);
      // cost(p): v placed before row[p].
      int64_t cost = lay_out_sift_gain(v, above, slots);
      for (uint32_t i = 0; i + 1 < k; ++i) {
        const uint32_t u = row[i];
        int64_t change = 0;  // crossings with u left of v minus with v left of u
        const Neighbour* e = sift_entries_.data() + sift_begin_[u + 1];
        for (const Neighbour* q = sift_entries_.data() + sift_begin_[u]; q != e; ++q)
          change += int64_t{q->weight} * sift_gain_[q->pos];
        step[i] = change;
      }
      int64_t best = cost, current = 0;
      uint32_t best_p = 0;
      for (uint32_t p = 0; p < k; ++p) {
        if (p == at) current = cost;
        if (cost < best || (cost == best && p == at)) {
          best = cost;
          best_p = p;
        }
        if (p + 1 < k) cost += step[p];
      }
      if (best < current)
        gained += static_cast<uint64_t>(current - best);
      else
        best_p = at;
      row.insert(row.begin() + best_p, v);
    }
    bool moved = false;
    const std::vector<uint32_t> entered(nodes.begin(), nodes.end());
    for (uint32_t i = 0; i < k; ++i) {
      moved |= row[i] != i;
      nodes[i] = entered[row[i]];
      order_.pos[nodes[i]] = i;
    }
    if (moved) changed(l);
    return gained;
  }

 private:
  // For the node with local index j of the layer being sifted (sift_layer's slots):
  // sift_gain_[x], for one edge ending at slot x, how many more of j's edges on that side it
  // crosses with j on its right than on its left (j's weight ending before x minus after x).
  // Returns the crossings of j's edges with j leftmost: every other edge of the layer ending
  // before one of j's crosses it.
  int64_t lay_out_sift_gain(uint32_t j, uint32_t above, uint32_t slots) {
    const Neighbour* first = sift_entries_.data() + sift_begin_[j];
    const Neighbour* end = sift_entries_.data() + sift_begin_[j + 1];
    const Neighbour* split = first;
    while (split != end && split->pos < above) ++split;  // the layer above's entries
    int64_t leftmost = 0;
    auto side = [&](const Neighbour* from, const Neighbour* to, uint32_t x, uint32_t stop) {
      int64_t total = 0;
      for (const Neighbour* q = from; q != to; ++q) total += q->weight;
      int64_t before = 0;  // j's weight ending before slot x
      for (const Neighbour* q = from; q != to;) {
        const uint32_t at = q->pos;
        int64_t here = 0;
        for (; q != to && q->pos == at; ++q) here += q->weight;
        std::fill(sift_gain_.begin() + x, sift_gain_.begin() + at, before - (total - before));
        sift_gain_[at] = before - (total - before - here);
        leftmost += here * (static_cast<int64_t>(weight_before_[at]) - before);
        before += here;
        x = at + 1;
      }
      std::fill(sift_gain_.begin() + x, sift_gain_.begin() + stop, total);
    };
    side(first, split, 0, above);
    side(split, end, above + 1, slots);
    return leftmost;
  }

  // Each node's neighbour positions above and below, sorted (lists_, per node and side from
  // list_begin_), for the nodes of layer l. A side's lists depend only on the order of the
  // layer on that side (segments join adjacent layers: the sweeper runs on graphs without
  // spans), so they are rebuilt only where that layer changed since they were built
  // (per-head attention at 20k nodes: rebuilding every list for every layer pass was a
  // quarter of the layout's time, now a ninth).
  void prepare_lists(uint32_t l) {
    const auto nodes = order_.layer(l);
    if (l > 0 && (stale_[l] & kUpsStale)) fill_lists(nodes, 0);
    if (l + 1 < g_.layer_count && (stale_[l] & kDownsStale)) fill_lists(nodes, 1);
    stale_[l] &= ~(kUpsStale | kDownsStale);
  }

  void fill_lists(std::span<const uint32_t> nodes, int side) {
    constexpr uint32_t kInsertionSortUpTo = 16;  // most lists hold one or two entries
    for (const uint32_t v : nodes) {
      const uint32_t first = list_begin(v, side), end = list_begin(v, side + 1);
      const auto segs = side == 0 ? g_.ups(v) : g_.downs(v);
      auto entry_of = [&](uint32_t k) {
        const Segment& seg = g_.segments[segs[k]];
        return Neighbour{order_.pos[side == 0 ? seg.upper : seg.lower], g_.weight(segs[k])};
      };
      if (end - first > kInsertionSortUpTo) {
        for (uint32_t i = first; i < end; ++i) lists_[i] = entry_of(i - first);
        std::sort(lists_.begin() + first, lists_.begin() + end);
        continue;
      }
      for (uint32_t i = first; i < end; ++i) {
        const Neighbour entry = entry_of(i - first);
        uint32_t j = i;
        for (; j > first && entry.pos < lists_[j - 1].pos; --j) lists_[j] = lists_[j - 1];
        lists_[j] = entry;
      }
    }
  }

  // Where v's ups list (part 0), its downs list (1) and the next node's lists (2) start.
  uint32_t list_begin(uint32_t v, int part) const {
    const uint32_t* up = g_.up_begin.data() + v;
    const uint32_t* down = g_.down_begin.data() + v;
    return part == 0 ? up[0] + down[0] : part == 1 ? up[1] + down[0] : up[1] + down[1];
  }

  // Layer l's order changed: the lists of the layers beside it and the crossings on both
  // sides of it are out of date.
  void changed(uint32_t l) {
    if (l > 0) stale_[l - 1] |= kDownsStale | kCountStale;
    if (l + 1 < g_.layer_count) stale_[l + 1] |= kUpsStale;
    stale_[l] |= kCountStale;
  }

  // Reorders layer l by the positions of its neighbours above (use_ups) or below. Nodes
  // without neighbours on that side keep their slot.
  void sort_layer(uint32_t l, bool use_ups, bool swap_ties) {
    auto nodes = order_.layer(l);
    movable_.clear();
    for (const uint32_t v : nodes) {
      positions_.clear();
      for (const uint32_t s : use_ups ? g_.ups(v) : g_.downs(v)) {
        const Segment& seg = g_.segments[s];
        positions_.push_back(order_.pos[use_ups ? seg.upper : seg.lower]);
      }
      if (positions_.empty()) continue;
      std::sort(positions_.begin(), positions_.end());
      movable_.push_back({neighbour_key(positions_, keys_), order_.pos[v], v});
    }
    std::sort(movable_.begin(), movable_.end(), [&](const Keyed& a, const Keyed& b) {
      if (a.key != b.key) return a.key < b.key;
      return swap_ties ? a.pos > b.pos : a.pos < b.pos;
    });
    size_t next = 0;
    bool moved = false;
    for (uint32_t& v : nodes) {
      if ((use_ups ? g_.ups(v) : g_.downs(v)).empty()) continue;
      moved |= v != movable_[next].node;
      v = movable_[next++].node;
    }
    if (!moved) return;
    changed(l);
    for (uint32_t i = 0; i < nodes.size(); ++i) order_.pos[nodes[i]] = i;
  }

  // One pass of adjacent exchanges over layer l; returns the crossings removed.
  uint64_t transpose_layer(uint32_t l, bool swap_ties) {
    candidate_[l] = 0;
    auto nodes = order_.layer(l);
    if (nodes.size() < 2) return 0;
    prepare_lists(l);
    uint64_t gained = 0;
    bool swapped_any = false;
    for (uint32_t i = 0; i + 1 < nodes.size(); ++i) {
      const auto [keep, swapped] = pair_crossings(nodes[i], nodes[i + 1]);
      if (keep == 0) continue;
      if (swapped < keep || (swap_ties && swapped == keep)) {
        std::swap(nodes[i], nodes[i + 1]);
        order_.pos[nodes[i]] = i;
        order_.pos[nodes[i + 1]] = i + 1;
        gained += keep - swapped;
        swapped_any = true;
      }
    }
    if (swapped_any) {
      changed(l);
      if (l > 0) candidate_[l - 1] = 1;
      if (l + 1 < g_.layer_count) candidate_[l + 1] = 1;
      if (gained > 0) candidate_[l] = 1;
    }
    return gained;
  }

  // Weighted crossings among the edges of nodes a and b (of one layer, its lists prepared):
  // {with a left of b, with b left of a}, in one merge of their neighbour lists.
  std::pair<uint64_t, uint64_t> pair_crossings(uint32_t a, uint32_t b) const {
    const Neighbour* l = lists_.data();
    const uint32_t a_downs = list_begin(a, 1), b_downs = list_begin(b, 1);
    uint64_t a_left = 0, b_left = 0;
    side_crossings(l + list_begin(a, 0), l + a_downs, l + list_begin(b, 0), l + b_downs, a_left,
                   b_left);
    side_crossings(l + a_downs, l + list_begin(a, 2), l + b_downs, l + list_begin(b, 2), a_left,
                   b_left);
    return {a_left, b_left};
  }

  // pair_crossings on one side: a's list [pa, ea), b's [first_b, eb).
  static void side_crossings(const Neighbour* pa, const Neighbour* ea, const Neighbour* first_b,
                             const Neighbour* eb, uint64_t& a_left, uint64_t& b_left) {
    if (ea - pa == 1 && eb - first_b == 1) {  // most nodes: one edge on a side
      const uint64_t w = uint64_t{pa->weight} * first_b->weight;
      a_left += first_b->pos < pa->pos ? w : 0;
      b_left += first_b->pos > pa->pos ? w : 0;
      return;
    }
    uint64_t b_total = 0;
    for (const Neighbour* j = first_b; j != eb; ++j) b_total += j->weight;
    const Neighbour* below = first_b;  // first of b's entries at or after pa->pos
    const Neighbour* upto = first_b;   // first of b's entries after pa->pos
    uint64_t weight_below = 0, weight_upto = 0;
    for (; pa != ea; ++pa) {
      for (; below != eb && below->pos < pa->pos; ++below) weight_below += below->weight;
      if (upto < below) {
        upto = below;
        weight_upto = weight_below;
      }
      for (; upto != eb && upto->pos <= pa->pos; ++upto) weight_upto += upto->weight;
      a_left += pa->weight * weight_below;             // a left of b: b's lower ends cross
      b_left += pa->weight * (b_total - weight_upto);  // b left of a: b's higher ends cross
    }
  }

  struct Keyed {
    double key;
    uint32_t pos;
    uint32_t node;
  };

  const LayeredGraph& g_;
  const Options& options_;
  OrderingStrategy keys_;  // kMedian or kBarycenter
  Order& order_;
  std::vector<Keyed> movable_;
  std::vector<double> positions_;
  // Per layer l, what changed since it was last brought up to date: the layer above (its ups
  // lists are out of date), the layer below (its downs lists), l or l + 1 (counted_[l], the
  // crossings between them). One byte per layer, where the versions compared took 28 B (a
  // transformer of 200k nodes has 114k layers).
  static constexpr uint8_t kUpsStale = 1, kDownsStale = 2, kCountStale = 4;
  std::vector<uint8_t> stale_;
  std::vector<uint64_t> counted_;
  // Per node v, its ups list then its downs list, nodes in id order: v's lists start after
  // every list of the nodes before it, so where they start follows from the graph's CSR
  // offsets (see list_begin) and needs no array of its own (8 B per item at the ordering's
  // peak).
  std::vector<Neighbour> lists_;
  std::vector<uint8_t> candidate_;
  // sift_layer's copy of its layer's neighbour lists (local index -> sift_begin_ range) and
  // the weights per slot of the layer's edges and of the node being placed
  std::vector<uint32_t> sift_begin_;
  std::vector<Neighbour> sift_entries_;
  std::vector<uint64_t> weight_before_;
  std::vector<int64_t> sift_gain_;
};

// Where the depth-first start, sifting and a second schedule with barycenters
// (order_with_keys) pay for their time: graphs with more crossings than input edges (random
// DAGs, per-head attention), up to 50,000 items in the layered graph. Model stacks drawn
// with a fraction of a crossing per edge (transformer 0.09, mixture of experts 0.17) never
// gain from them, and at 200k nodes they would cost 10-30 % of the layout; the per-head LLM
// at 200k gains 0.8 % fewer crossings for 35 % more time.
bool worth_refining(const LayeredGraph& g, uint64_t crossings) {
  constexpr uint32_t kMaxRefinedItems = 50'000;
  return crossings > g.paths.size() && g.node_count() <= kMaxRefinedItems;
}

// An order kept aside (the best so far, or the one to go back to) needs its sequence only:
// keep_sequence copies it without the positions, which fill_positions restores (4 B per
// item, not 8, at the ordering's peak).
void keep_sequence(const Order& from, Order& to) {
  to.layer_begin = from.layer_begin;
  to.nodes = from.nodes;
}

void fill_positions(Order& order) {
  order.pos.resize(order.nodes.size());
  for (size_t l = 0; l + 1 < order.layer_begin.size(); ++l) {
    for (uint32_t i = order.layer_begin[l]; i < order.layer_begin[l + 1]; ++i)
      order.pos[order.nodes[i]] = i - order.layer_begin[l];
  }
}

// dot's mincross schedule with one kind of sort key; `best` receives the crossings.
Order run_schedule(const LayeredGraph& g, const Options& options, OrderingStrategy keys,
                   uint64_t& best) {
  Order best_order;  // its sequence only, until the end (keep_sequence)
  best = UINT64_MAX;
  // Three starts: breadth-first from the sources, from the sinks, and, where that is
  // worth it (see worth_refining), depth-first. The depth-first start is kept only where it
  // leaves strictly fewer crossings (random DAG 2k: 4,682 -> 4,342; per-head LLM 2k: 22,003
  // -> 21,327); at a tie the breadth-first orders stay, which are the more compact (an
  // Inception stack with no crossings either way is 663 px wide from them, 810 px from the
  // depth-first one).
  enum class Start { kFromSources, kFromSinks, kDepthFirst };
  for (const Start start : {Start::kFromSources, Start::kFromSinks, Start::kDepthFirst}) {
    if (start == Start::kDepthFirst && !worth_refining(g, best)) continue;
    Order order = start == Start::kDepthFirst ? depth_first_order(g)
                                              : initial_order(g, start == Start::kFromSinks);
    auto better = [&](uint64_t c) { return start == Start::kDepthFirst ? c < best : c <= best; };
    Sweeper sweeper(g, options, keys, order);
    sweeper.transpose(false, kRoundsAtEnds);
    uint64_t crossings = sweeper.crossings();
    if (better(crossings)) {
      best = crossings;
      keep_sequence(order, best_order);
    }
    for (int i = 0; i < kInitialSweeps && crossings > 0; ++i) {
      sweeper.sweep(i);
      crossings = sweeper.crossings();
      if (better(crossings)) {
        best = crossings;
        keep_sequence(order, best_order);
      }
    }
  }

  {
    // (Scoped: one sweeper's neighbour lists, a tenth of the layout's peak memory, are alive
    // at a time.)
    Order order = best_order;
    fill_positions(order);
    Sweeper sweeper(g, options, keys, order);
    int since_gain = 0;
    for (int i = 0; i < options.ordering_sweeps && best > 0 && since_gain < kPatience; ++i) {
      ++since_gain;
      sweeper.sweep(i);
      const uint64_t crossings = sweeper.crossings();
      if (crossings <= best) {
        if (static_cast<double>(crossings) < kConvergence * static_cast<double>(best))
          since_gain = 0;
        best = crossings;
        keep_sequence(order, best_order);
      }
    }
  }
  fill_positions(best_order);
  if (best > 0) {
    Sweeper final_pass(g, options, keys, best_order);
    final_pass.transpose(false, kRoundsAtEnds);
    best = final_pass.crossings();
  }
  return best_order;
}

// Medians and barycenters only differ for nodes with three or more neighbours on a side,
// and only materially where such fan-outs are wide and common (at least 1 % of the nodes
// with 8 neighbours or more on a side: a mixture-of-experts layer or per-head attention has
// several per block; a random DAG of 10,000 nodes has ~20, and running both schedules
// there would cost time for nothing).
bool has_wide_fans(const LayeredGraph& g) {
  constexpr uint32_t kWide = 8;
  constexpr uint32_t kPerHundred = 1;
  uint32_t wide = 0, real = 0;
  for (uint32_t v = 0; v < g.node_count(); ++v) {
    real += g.is_dummy[v] ? 0 : 1;
    if (g.ups(v).size() >= kWide || g.downs(v).size() >= kWide) ++wide;
  }
  return uint64_t{wide} * 100 >= uint64_t{real} * kPerHundred;
}

// Sifting rounds (Sweeper::sift_layer over every layer, down and up)
// on an order made by the sweeps, kept if they remove crossings. Only where worth_refining
// says so, and a round costs the squares of the layers' sizes in pairs compared, so only where
// that stays small: per-head attention at 2k nodes (21,327 -> 20,868 crossings), random
// DAGs (2k: 4,342 -> 4,141, below dot's 4,425), not the widest layers of 200k-node graphs.
void sift(const LayeredGraph& g, const Options& options, OrderingStrategy keys, Order& order,
          uint64_t& crossings) {
  constexpr uint64_t kMaxPairsPerRound = 20'000'000;
  constexpr int kMaxRounds = 4;
  if (!worth_refining(g, crossings) || !options.transpose) return;
  uint64_t pairs = 0;
  for (uint32_t l = 0; l < g.layer_count; ++l) {
    const uint64_t k = order.layer_begin[l + 1] - order.layer_begin[l];
    pairs += k * k;
  }
  if (pairs > kMaxPairsPerRound) return;
  Order entered;  // gone back to where sifting does not pay
  keep_sequence(order, entered);
  Sweeper sifter(g, options, keys, order);
  uint64_t left = crossings;
  for (int round = 0; round < kMaxRounds; ++round) {
    uint64_t gained = 0;
    for (uint32_t l = 0; l < g.layer_count; ++l) gained += sifter.sift_layer(l);
    for (uint32_t l = g.layer_count; l-- > 0;) gained += sifter.sift_layer(l);
    // Later rounds gain little: at per-head attention's 2k and 20k nodes the first removes
    // 2.2 % and 0.7 % of the crossings, the second 6 of 21,564 and 6 of 720,224, and a third
    // only confirms that nothing moves.
    left -= std::min(left, gained);
    if (static_cast<double>(left) >= kConvergence * static_cast<double>(left + gained)) break;
  }
  const uint64_t after = count_crossings(g, order);
  if (after < crossings) {
    crossings = after;
    return;
  }
  order.nodes = std::move(entered.nodes);
  fill_positions(order);
}

// The ordering with the keys Options::ordering asks for, per dummy or by segments;
// `crossings` receives the result's.
Order order_with_keys(const LayeredGraph& g, const Options& options, bool segments,
                      uint64_t& crossings) {
  auto schedule = [&](OrderingStrategy keys, uint64_t& count) {
    return segments ? order_by_segments(g, options, keys, count)
                    : run_schedule(g, options, keys, count);
  };
  if (options.ordering != OrderingStrategy::kMedianAndBarycenter) {
    Order order = schedule(options.ordering, crossings);
    if (!segments) sift(g, options, options.ordering, order, crossings);
    return order;
  }
  // Medians keep transformer and random-DAG orders as dot finds them; barycenters untangle
  // per-head attention drawn with every edge (each projection feeding 16 heads, 16 heads
  // feeding one concatenation, shared tables feeding them all: 711,528 crossings vs 714,946
  // at 20k nodes, 52.1 M vs 52.4 M at 200k), so where fan-outs are wide both schedules run
  // and the order with fewer crossings is kept. Only where the refinements are worth their
  // time (worth_refining), though: where the medians leave fewer crossings than edges
  // (mixture-of-experts layers, per-head attention as the page lays it out, without its
  // broadcast edges) the barycenters never did better and the second schedule cost a third
  // of the layout; above 50,000 layered items it gained 0.5 % (per-head attention at 200k
  // nodes: 52.36 M -> 52.09 M crossings) for 40 % of the layout's time. Below, it gains as
  // little (per-head attention at 2k nodes 19,994 -> 19,978, at 20k 0.5 %) for a quarter of
  // the layout, so medians alone are the default (Options::ordering) and this is asked for.
  uint64_t by_median = 0, by_barycenter = 0;
  Order order = schedule(OrderingStrategy::kMedian, by_median);
  crossings = by_median;
  OrderingStrategy keys = OrderingStrategy::kMedian;
  if (has_wide_fans(g) && worth_refining(g, by_median)) {
    Order other = schedule(OrderingStrategy::kBarycenter, by_barycenter);
    if (by_barycenter < by_median) {
      crossings = by_barycenter;
      order = std::move(other);
      keys = OrderingStrategy::kBarycenter;
    }
  }
  if (!segments) sift(g, options, keys, order, crossings);
  return order;
}

}  // namespace

Order order_layers(const LayeredGraph& g, const Options& options, uint64_t* crossings_out) {
  uint64_t unused = 0;
  uint64_t& crossings = crossings_out ? *crossings_out : unused;
  crossings = 0;
  if (g.layer_count < 2) {
    if (!g.has_spans()) return initial_order(g, false);
    return order_by_segments(g, options, OrderingStrategy::kMedian, crossings);
  }
  if (!orders_by_segments(g, options)) return order_with_keys(g, options, false, crossings);
  Order order = order_with_keys(g, options, true, crossings);
  // A graph with spans has no dummies to order one by one: the caller decides (flat_layout).
  if (g.has_spans() || options.long_edges == LongEdgeOrdering::kSegments ||
      crossings <= g.paths.size())
    return order;
  // Segments that must not cross each other cost crossings where long edges have to cross
  // many others (the top level of a per-head LLM drawn with its decoder layers as groups:
  // 5.5 M crossings vs 2.6 M per dummy at 20k nodes). Where the segments leave more
  // crossings than edges, the per-dummy sweeps run too, and the better order is kept.
  uint64_t per_dummy = 0;
  Order other = order_with_keys(g, options, false, per_dummy);
  if (per_dummy >= crossings) return order;
  crossings = per_dummy;
  return other;
}

}  // namespace etviz::layout
