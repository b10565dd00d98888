#include "segment_ordering.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "crossings.h"
#include "ordering.h"

namespace etviz::layout {
namespace {

// slot[v] of a layered node: its index among the nodes sweeps place, or, for a dummy inside
// an inner segment, the segment's index with this bit set.
constexpr uint32_t kSegmentBit = 0x80000000u;

// The inner segments passing the layer a sweep has reached, left to right: a treap keyed by
// position, holding per subtree how many of its segments are active (still passing) and
// their weight. A segment whose last layer the sweep has passed stays in it, inactive, so
// that the sequence at the end of a sweep is one left-to-right order of every segment,
// consistent with every layer (two segments that never share a layer may go either way).
// Recursion is as deep as the treap, logarithmic in the segments.
class SegmentSequence {
 public:
  // `weight` (per segment) is read, not copied; call resize() once it is filled.
  explicit SegmentSequence(const std::vector<uint32_t>& weight) : weight_(weight) {}

  void resize() {
    const size_t n = weight_.size();
    left_.assign(n, kNone);
    right_.assign(n, kNone);
    parent_.assign(n, kNone);
    count_.assign(n, 0);
    active_.assign(n, 0);
    weight_sum_.assign(n, 0);
    priority_.resize(n);
    for (uint32_t s = 0; s < n; ++s) priority_[s] = mix(s);
  }

  void clear() { root_ = kNone; }

  // Inserts segment s, active, before the index-th active segment (at the end when index is
  // the active count).
  void insert(uint32_t s, uint32_t index) {
    left_[s] = right_[s] = parent_[s] = kNone;
    active_[s] = 1;
    count_[s] = 1;
    weight_sum_[s] = weight_[s];
    uint32_t a = kNone, b = kNone;
    split(root_, index, a, b);
    root_ = merge(merge(a, s), b);
    parent_[root_] = kNone;
  }

  void deactivate(uint32_t s) {
    active_[s] = 0;
    for (uint32_t x = s; x != kNone; x = parent_[x]) pull(x);
  }

  // Active segments left of s.
  uint32_t rank(uint32_t s) const {
    uint32_t r = count(left_[s]);
    for (uint32_t x = s; parent_[x] != kNone; x = parent_[x]) {
      const uint32_t p = parent_[x];
      if (right_[p] == x) r += count(left_[p]) + active_[p];
    }
    return r;
  }

  // Weight of the first k active segments.
  uint64_t weight_before(uint32_t k) const {
    uint64_t sum = 0;
    for (uint32_t t = root_; t != kNone && k > 0;) {
      const uint32_t left = count(left_[t]);
      if (k <= left) {
        t = left_[t];
        continue;
      }
      sum += weight_sum(left_[t]) + (active_[t] ? weight_[t] : 0);
      k -= left + active_[t];
      t = right_[t];
    }
    return sum;
  }

  void append_in_order(std::vector<uint32_t>& out) {
    stack_.clear();
    for (uint32_t t = root_; t != kNone || !stack_.empty();) {
      if (t != kNone) {
        stack_.push_back(t);
        t = left_[t];
        continue;
      }
      t = stack_.back();
      stack_.pop_back();
      out.push_back(t);
      t = right_[t];
    }
  }

 private:
  static uint32_t mix(uint32_t x) {
    x += 0x9e3779b9u;
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x *= 0xc2b2ae35u;
    x ^= x >> 16;
    return x;
  }
  uint32_t count(uint32_t t) const { return t == kNone ? 0 : count_[t]; }
  uint64_t weight_sum(uint32_t t) const { return t == kNone ? 0 : weight_sum_[t]; }
  void pull(uint32_t t) {
    count_[t] = count(left_[t]) + active_[t] + count(right_[t]);
    weight_sum_[t] = weight_sum(left_[t]) + (active_[t] ? weight_[t] : 0) + weight_sum(right_[t]);
  }
  // a: the first k active segments (and inactive ones among them), b: the rest.
  void split(uint32_t t, uint32_t k, uint32_t& a, uint32_t& b) {
    if (t == kNone) {
      a = b = kNone;
      return;
    }
    if (k <= count(left_[t])) {
      uint32_t rest = kNone;
      split(left_[t], k, a, rest);
      left_[t] = rest;
      if (rest != kNone) parent_[rest] = t;
      pull(t);
      b = t;
    } else {
      uint32_t first = kNone;
      split(right_[t], k - count(left_[t]) - active_[t], first, b);
      right_[t] = first;
      if (first != kNone) parent_[first] = t;
      pull(t);
      a = t;
    }
  }
  uint32_t merge(uint32_t a, uint32_t b) {
    if (a == kNone) return b;
    if (b == kNone) return a;
    if (priority_[a] > priority_[b]) {
      right_[a] = merge(right_[a], b);
      parent_[right_[a]] = a;
      pull(a);
      return a;
    }
    left_[b] = merge(a, left_[b]);
    parent_[left_[b]] = b;
    pull(b);
    return b;
  }

  const std::vector<uint32_t>& weight_;
  std::vector<uint32_t> left_, right_, parent_, count_;
  std::vector<uint8_t> active_;
  std::vector<uint64_t> weight_sum_;
  std::vector<uint32_t> priority_;
  std::vector<uint32_t> stack_;
  uint32_t root_ = kNone;
};

// An order in compressed form: per layer, the placed nodes left to right (`nodes`, by
// index among placed nodes, in layer ranges), each with its position in the expanded layer
// and the number of inner segments left of it; and the segments left to right.
struct CompressedOrder {
  std::vector<uint32_t> nodes, pos, gap;
  std::vector<uint32_t> segment_order;
};

class SegmentSweeps {
 public:
  explicit SegmentSweeps(const LayeredGraph& g) : g_(g) {
    const uint32_t n = g.node_count();
    slot_.assign(n, 0);
    layer_size_.assign(g.layer_count, 0);
    node_begin_.assign(g.layer_count + 1, 0);
    auto add_segment = [&](uint32_t first, uint32_t last) {
      first_.push_back(first);
      top_.push_back(g.layer[first]);
      bottom_.push_back(g.bottom_layer(last));
      p_.push_back(above(first));
      q_.push_back(below(last));
      weight_.push_back(g.weight(g.ups(first)[0]));
    };
    if (g.has_spans()) {
      // Each span is a segment; layer sizes count it in every layer it passes.
      std::vector<int32_t> passing(g.layer_count + 1, 0);
      for (uint32_t v = 0; v < n; ++v) {
        if (g.is_span(v)) {
          slot_[v] = static_cast<uint32_t>(first_.size()) | kSegmentBit;
          add_segment(v, v);
          ++passing[g.layer[v]];
          --passing[g.last_layer[v] + 1];
        } else {
          ++layer_size_[g.layer[v]];
          slot_[v] = static_cast<uint32_t>(node_of_.size());
          node_of_.push_back(v);
          ++node_begin_[g.layer[v] + 1];
        }
      }
      int32_t active = 0;
      for (uint32_t l = 0; l < g.layer_count; ++l) {
        active += passing[l];
        layer_size_[l] += static_cast<uint32_t>(active);
      }
    } else {
      auto chain = [&](uint32_t v) {
        return g.is_dummy[v] && g.ups(v).size() == 1 && g.downs(v).size() == 1;
      };
      std::vector<uint8_t> inner(n, 0);
      for (uint32_t v = 0; v < n; ++v) inner[v] = chain(v) && chain(above(v)) && chain(below(v));
      for (uint32_t v = 0; v < n; ++v) {
        ++layer_size_[g.layer[v]];
        if (!inner[v]) {
          slot_[v] = static_cast<uint32_t>(node_of_.size());
          node_of_.push_back(v);
          ++node_begin_[g.layer[v] + 1];
        } else if (!inner[above(v)]) {
          // Ids are numbered layer by layer, so v is the segment's first inner dummy.
          const auto s = static_cast<uint32_t>(first_.size()) | kSegmentBit;
          uint32_t last = v;
          for (uint32_t w = v; inner[w]; w = below(w)) {
            slot_[w] = s;
            last = w;
          }
          add_segment(v, last);
        }
      }
    }
    for (uint32_t l = 0; l < g.layer_count; ++l) node_begin_[l + 1] += node_begin_[l];
    bucket(top_, by_top_begin_, by_top_);
    bucket(bottom_, by_bottom_begin_, by_bottom_);
    segment_pos_.assign(first_.size(), 0);
    sequence_.resize();
  }

  // dot's initial order (breadth-first over the undirected graph from every source, or
  // every sink, in creation order; nodes appended to their layer as they are reached) with
  // each inner segment as one hop between its ends: reaching a segment puts it right of
  // everything its layers hold so far (a Fenwick tree over layers adds it to all of them).
  CompressedOrder initial(bool from_sinks) const {
    const auto count = static_cast<uint32_t>(node_of_.size());
    const auto segments = static_cast<uint32_t>(first_.size());
    CompressedOrder c;
    c.nodes.assign(count, 0);
    c.pos.assign(count, 0);
    c.gap.assign(count, 0);
    std::vector<uint32_t> fill(node_begin_.begin(), node_begin_.end() - 1);
    std::vector<uint8_t> seen(count, 0), segment_seen(segments, 0);
    std::vector<uint32_t> passing(g_.layer_count + 1, 0);  // Fenwick tree of range adds
    auto add_from = [&](uint32_t l, uint32_t delta) {
      for (uint32_t k = l + 1; k <= g_.layer_count; k += k & (~k + 1)) passing[k] += delta;
    };
    auto passing_at = [&](uint32_t l) {
      uint32_t sum = 0;
      for (uint32_t k = l + 1; k > 0; k -= k & (~k + 1)) sum += passing[k];
      return sum;
    };
    std::vector<uint32_t> queue;
    queue.reserve(count);
    auto enqueue = [&](uint32_t n) {
      if (seen[n]) return;
      seen[n] = 1;
      queue.push_back(n);
    };
    // From v to its neighbour w; across a segment to the node at its far end.
    auto reach = [&](uint32_t w, bool downwards) {
      const uint32_t slot = slot_[w];
      if (!(slot & kSegmentBit)) return enqueue(slot);
      const uint32_t s = slot & ~kSegmentBit;
      if (!segment_seen[s]) {
        segment_seen[s] = 1;
        add_from(top_[s], 1);
        add_from(bottom_[s] + 1, static_cast<uint32_t>(-1));
      }
      enqueue(slot_[downwards ? q_[s] : p_[s]]);
    };
    for (const uint32_t root : g_.by_creation) {
      const uint32_t slot = slot_[root];
      if ((slot & kSegmentBit) || seen[slot]) continue;
      if (!(from_sinks ? g_.downs(root) : g_.ups(root)).empty()) continue;
      enqueue(slot);
      for (size_t head = queue.size() - 1; head < queue.size(); ++head) {
        const uint32_t n = queue[head];
        const uint32_t v = node_of_[n];
        const uint32_t l = g_.layer[v];
        const uint32_t index = fill[l] - node_begin_[l];
        c.nodes[fill[l]++] = n;
        c.gap[n] = passing_at(l);
        c.pos[n] = index + c.gap[n];
        const auto first = from_sinks ? g_.ups(v) : g_.downs(v);
        const auto second = from_sinks ? g_.downs(v) : g_.ups(v);
        for (const uint32_t s : first) {
          reach(from_sinks ? g_.segments[s].upper : g_.segments[s].lower, !from_sinks);
        }
        for (const uint32_t s : second) {
          reach(from_sinks ? g_.segments[s].lower : g_.segments[s].upper, from_sinks);
        }
      }
    }
    return c;
  }

  Order expand(const CompressedOrder& c) const {
    if (g_.has_spans()) return with_spans(c);
    Order order;
    order.by_segments = true;
    order.layer_begin.assign(g_.layer_count + 1, 0);
    for (uint32_t l = 0; l < g_.layer_count; ++l)
      order.layer_begin[l + 1] = order.layer_begin[l] + layer_size_[l];
    order.nodes.assign(g_.node_count(), kNone);
    order.pos.assign(g_.node_count(), 0);
    for (uint32_t l = 0; l < g_.layer_count; ++l) {
      for (uint32_t i = node_begin_[l]; i < node_begin_[l + 1]; ++i) {
        const uint32_t n = c.nodes[i];
        order.nodes[order.layer_begin[l] + c.pos[n]] = node_of_[n];
      }
    }
    // Segments fill the free slots of each layer they pass, in their left-to-right order.
    std::vector<uint32_t> cursor(order.layer_begin.begin(), order.layer_begin.end() - 1);
    for (const uint32_t s : c.segment_order) {
      uint32_t d = first_[s];
      for (uint32_t l = top_[s]; l <= bottom_[s]; ++l) {
        while (order.nodes[cursor[l]] != kNone) ++cursor[l];
        order.nodes[cursor[l]++] = d;
        d = below(d);
      }
    }
    for (uint32_t l = 0; l < g_.layer_count; ++l) {
      const auto nodes = order.layer(l);
      for (uint32_t i = 0; i < nodes.size(); ++i) order.pos[nodes[i]] = i;
    }
    return order;
  }

  // The order of a graph with spans: its nodes per layer with their gaps, and the spans.
  Order with_spans(const CompressedOrder& c) const {
    Order order;
    order.by_segments = true;
    order.layer_begin = node_begin_;
    order.nodes.resize(node_of_.size());
    order.pos.assign(g_.node_count(), 0);
    order.gap.assign(g_.node_count(), 0);
    for (uint32_t l = 0; l < g_.layer_count; ++l) {
      for (uint32_t i = node_begin_[l]; i < node_begin_[l + 1]; ++i) {
        const uint32_t n = c.nodes[i], v = node_of_[n];
        order.nodes[i] = v;
        order.pos[v] = i - node_begin_[l];
        order.gap[v] = c.gap[n];
      }
    }
    order.segment_order.reserve(first_.size());
    for (const uint32_t s : c.segment_order) {
      order.pos[first_[s]] = static_cast<uint32_t>(order.segment_order.size());
      order.segment_order.push_back(first_[s]);
    }
    return order;
  }

  // One sweep down (even iterations) or up (odd) over every layer; returns the crossings
  // of the resulting order. As in the per-dummy sweeps, ties are broken against the
  // current order in half of the sweeps.
  uint64_t sweep(CompressedOrder& c, int iteration, OrderingStrategy keys) {
    const bool down = iteration % 2 == 0;
    const bool swap_ties = iteration % 4 < 2;
    sequence_.clear();
    uint64_t crossings = 0;
    const uint32_t layers = g_.layer_count;
    for (uint32_t step = 1; step < layers; ++step) {
      const uint32_t to = down ? step : layers - 1 - step;
      const uint32_t from = down ? to - 1 : to + 1;
      crossings += place_layer(c, from, to, down, swap_ties, keys);
    }
    c.segment_order.clear();
    sequence_.append_in_order(c.segment_order);
    return crossings;
  }

 private:
  uint32_t above(uint32_t v) const { return g_.segments[g_.ups(v)[0]].upper; }
  uint32_t below(uint32_t v) const { return g_.segments[g_.downs(v)[0]].lower; }

  void bucket(const std::vector<uint32_t>& layer_of, std::vector<uint32_t>& begin,
              std::vector<uint32_t>& items) const {
    begin.assign(g_.layer_count + 1, 0);
    for (const uint32_t l : layer_of) ++begin[l + 1];
    for (uint32_t l = 0; l < g_.layer_count; ++l) begin[l + 1] += begin[l];
    items.assign(layer_of.size(), 0);
    std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
    for (uint32_t s = 0; s < layer_of.size(); ++s) items[fill[layer_of[s]]++] = s;
  }

  // Of sorted `values`, how many are below m.
  static uint32_t count_below(const std::vector<uint32_t>& values, double m) {
    return static_cast<uint32_t>(
        std::partition_point(values.begin(), values.end(),
                             [&](uint32_t v) { return static_cast<double>(v) < m; }) -
        values.begin());
  }

  // Orders layer `to` from layer `from` (placed already in this sweep) and returns the
  // crossings between them.
  uint64_t place_layer(CompressedOrder& c, uint32_t from, uint32_t to, bool down, bool swap_ties,
                       OrderingStrategy keys) {
    const uint32_t* from_nodes = c.nodes.data() + node_begin_[from];
    const uint32_t from_count = node_begin_[from + 1] - node_begin_[from];
    uint32_t* to_nodes = c.nodes.data() + node_begin_[to];
    const uint32_t to_count = node_begin_[to + 1] - node_begin_[to];

    // Segments that end in `from` (their dummy there is their last in the sweep's direction):
    // their position there places the node they lead to in `to`.
    const auto& leaving_begin = down ? by_bottom_begin_ : by_top_begin_;
    const auto& leaving_items = down ? by_bottom_ : by_top_;
    from_positions_.clear();
    for (uint32_t i = 0; i < from_count; ++i) from_positions_.push_back(c.pos[from_nodes[i]]);
    leaving_.assign(leaving_items.begin() + leaving_begin[from],
                    leaving_items.begin() + leaving_begin[from + 1]);
    leaving_pos_.clear();
    for (const uint32_t s : leaving_) {
      const uint32_t r = sequence_.rank(s);
      // Nodes of `from` left of the r-th active segment: those with at most r segments left.
      const auto nodes_left =
          static_cast<uint32_t>(std::partition_point(from_nodes, from_nodes + from_count,
                                                     [&](uint32_t n) { return c.gap[n] <= r; }) -
                                from_nodes);
      segment_pos_[s] = r + nodes_left;
      leaving_pos_.push_back(segment_pos_[s]);
    }
    std::sort(leaving_pos_.begin(), leaving_pos_.end());

    // Segments that start in `to`: they enter the sequence where the node above them (p,
    // or q in an upward sweep) is in `from`.
    const auto& entering_begin = down ? by_top_begin_ : by_bottom_begin_;
    const auto& entering_items = down ? by_top_ : by_bottom_;
    entering_.clear();
    for (uint32_t i = entering_begin[to]; i < entering_begin[to + 1]; ++i) {
      const uint32_t s = entering_items[i];
      const uint32_t end = slot_[down ? p_[s] : q_[s]];
      entering_.push_back({c.pos[end], s});
    }
    std::sort(entering_.begin(), entering_.end());
    entering_pos_.clear();
    for (uint32_t i = 0; i < entering_.size(); ++i) {
      const uint32_t s = entering_[i].second;
      sequence_.insert(s, c.gap[slot_[down ? p_[s] : q_[s]]] + i);
      entering_pos_.push_back(entering_[i].first);
    }

    // Sort keys of the nodes of `to` from their neighbours in `from`; a node without any
    // keeps its position.
    keyed_.clear();
    for (uint32_t i = 0; i < to_count; ++i) {
      const uint32_t n = to_nodes[i];
      const uint32_t v = node_of_[n];
      positions_.clear();
      for (const uint32_t s : down ? g_.ups(v) : g_.downs(v)) {
        const uint32_t w = down ? g_.segments[s].upper : g_.segments[s].lower;
        const uint32_t slot = slot_[w];
        positions_.push_back(slot & kSegmentBit ? segment_pos_[slot & ~kSegmentBit] : c.pos[slot]);
      }
      double key = c.pos[n];
      if (!positions_.empty()) {
        std::sort(positions_.begin(), positions_.end());
        key = neighbour_key(positions_, keys);
      }
      keyed_.push_back({key, c.pos[n], n});
    }
    std::sort(keyed_.begin(), keyed_.end(), [&](const Keyed& a, const Keyed& b) {
      if (a.key != b.key) return a.key < b.key;
      return swap_ties ? a.pos > b.pos : a.pos < b.pos;
    });

    // Segments passing `to` are ordered by their positions in `from` (their own, or that of
    // the node they start below), so a node goes after those positioned left of its key.
    const uint32_t from_size = layer_size_[from];
    for (uint32_t i = 0; i < to_count; ++i) {
      const Keyed& k = keyed_[i];
      const uint32_t slots_below =
          k.key <= 0 ? 0 : std::min(from_size, static_cast<uint32_t>(std::ceil(k.key)));
      const uint32_t gap = slots_below - count_below(from_positions_, k.key) -
                           count_below(leaving_pos_, k.key) + count_below(entering_pos_, k.key);
      to_nodes[i] = k.node;
      c.gap[k.node] = gap;
      c.pos[k.node] = i + gap;
    }

    // Crossings: node-to-node segments among themselves, and each against the inner
    // segments (those passing `from` or `to`, in sequence order) between its ends' places.
    leaving_end_pos_.clear();
    for (const uint32_t s : leaving_)
      leaving_end_pos_.push_back(c.pos[slot_[down ? q_[s] : p_[s]]]);
    std::sort(leaving_end_pos_.begin(), leaving_end_pos_.end());
    edges_.clear();
    uint64_t crossings = 0;
    for (uint32_t i = 0; i < to_count; ++i) {
      const uint32_t n = to_nodes[i];
      const uint32_t v = node_of_[n];
      for (const uint32_t s : down ? g_.ups(v) : g_.downs(v)) {
        const uint32_t w = down ? g_.segments[s].upper : g_.segments[s].lower;
        const uint32_t m = slot_[w];
        if (m & kSegmentBit) continue;
        const uint32_t weight = g_.weight(s);
        edges_.push_back({c.pos[m] - c.gap[m], i, weight});
        const uint64_t before_from =
            sequence_.weight_before(c.gap[m] + count_below(entering_pos_, c.pos[m]));
        const uint64_t before_to =
            sequence_.weight_before(c.gap[n] + count_below(leaving_end_pos_, c.pos[n]));
        crossings +=
            weight * (before_from > before_to ? before_from - before_to : before_to - before_from);
      }
    }
    // Grouped by upper rank; the order among one upper node's edges does not count.
    std::sort(edges_.begin(), edges_.end(),
              [](const RankedEdge& a, const RankedEdge& b) { return a.upper < b.upper; });
    crossings += count_ranked_crossings(edges_, to_count);

    for (const uint32_t s : leaving_) sequence_.deactivate(s);
    return crossings;
  }

  struct Keyed {
    double key;
    uint32_t pos;
    uint32_t node;
  };

  const LayeredGraph& g_;
  std::vector<uint32_t> slot_;
  std::vector<uint32_t> node_of_;     // placed node index -> layered node
  std::vector<uint32_t> node_begin_;  // per layer, into placed node indices
  std::vector<uint32_t> layer_size_;  // per layer, with inner dummies
  std::vector<uint32_t> first_, top_, bottom_, p_, q_, weight_;  // per segment
  std::vector<uint32_t> by_top_begin_, by_top_, by_bottom_begin_, by_bottom_;
  SegmentSequence sequence_{weight_};
  // Per sweep step.
  std::vector<uint32_t> segment_pos_, from_positions_, leaving_, leaving_pos_, entering_pos_,
      leaving_end_pos_;
  std::vector<std::pair<uint32_t, uint32_t>> entering_;
  std::vector<double> positions_;
  std::vector<Keyed> keyed_;
  std::vector<RankedEdge> edges_;
};

}  // namespace

bool orders_by_segments(const LayeredGraph& graph, const Options& options) {
  if (graph.has_spans()) return true;
  switch (options.long_edges) {
    case LongEdgeOrdering::kPerDummy:
      return false;
    case LongEdgeOrdering::kSegments:
      return true;
    case LongEdgeOrdering::kAuto:
      break;
  }
  constexpr uint64_t kDummiesPerEdge = 3;
  const uint64_t dummies = graph.node_count() - graph.of_flat.size();
  return dummies > kDummiesPerEdge * graph.paths.size();
}

Order order_by_segments(const LayeredGraph& g, const Options& options, OrderingStrategy keys,
                        uint64_t& crossings) {
  SegmentSweeps sweeps(g);
  CompressedOrder best;
  uint64_t best_crossings = UINT64_MAX;
  // An order without crossings cannot be bettered: the schedule stops at the first (a
  // U-Net's skips nest, so its first sweep usually finds one).
  for (const bool from_sinks : {false, true}) {
    if (best_crossings == 0) break;
    CompressedOrder order = sweeps.initial(from_sinks);
    uint64_t count = UINT64_MAX;
    for (int i = 0; i < kInitialSweeps && count > 0; ++i) {
      count = sweeps.sweep(order, i, keys);
      if (count <= best_crossings) {
        best_crossings = count;
        best = order;
      }
    }
  }
  if (best_crossings > 0) {
    CompressedOrder order = best;
    int since_gain = 0;
    for (int i = 0; i < options.ordering_sweeps && best_crossings > 0 && since_gain < kPatience;
         ++i) {
      ++since_gain;
      const uint64_t count = sweeps.sweep(order, i, keys);
      if (count <= best_crossings) {
        if (static_cast<double>(count) < kConvergence * static_cast<double>(best_crossings))
          since_gain = 0;
        best_crossings = count;
        best = order;
      }
    }
  }
  crossings = best_crossings;
  return sweeps.expand(best);
}

}  // namespace etviz::layout
