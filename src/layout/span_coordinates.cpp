#include "span_coordinates.h"

#include <algorithm>
#include <cmath>

#include "coordinate_common.h"
#include "spacing.h"

namespace etviz::layout {
namespace {

constexpr double kWidthTolerance = 0.5;  // px a sweep may widen the drawing

// The spans passing the current layer, as a Fenwick tree over their index in the span order.
class ActiveSpans {
 public:
  explicit ActiveSpans(uint32_t size) : tree_(size + 1, 0) {
    while (top_bit_ * 2 <= size) top_bit_ *= 2;
  }
  void add(uint32_t index, int delta) {
    count_ += delta;
    for (uint32_t k = index + 1; k < tree_.size(); k += k & (~k + 1)) tree_[k] += delta;
  }
  // Active spans before `index`.
  uint32_t before(uint32_t index) const {
    int sum = 0;
    for (uint32_t k = index; k > 0; k -= k & (~k + 1)) sum += tree_[k];
    return static_cast<uint32_t>(sum);
  }
  // Index of the k-th active span (1-based k, 1 <= k <= count()).
  uint32_t kth(uint32_t k) const {
    uint32_t at = 0;
    int rest = static_cast<int>(k);
    for (uint32_t bit = top_bit_; bit > 0; bit /= 2) {
      if (at + bit < tree_.size() && tree_[at + bit] < rest) {
        at += bit;
        rest -= tree_[at];
      }
    }
    return at;  // the 0-based index is the 1-based position minus one
  }
  uint32_t count() const { return static_cast<uint32_t>(count_); }

 private:
  std::vector<int> tree_;
  uint32_t top_bit_ = 1;
  int count_ = 0;
};

// Pairs (a, b) of items that are neighbours, a left of b, in some layer, as lists per item.
struct Constraints {
  std::vector<uint32_t> left_begin, lefts, right_begin, rights;

  std::span<const uint32_t> left_of(uint32_t v) const {
    return {lefts.data() + left_begin[v], lefts.data() + left_begin[v + 1]};
  }
  std::span<const uint32_t> right_of(uint32_t v) const {
    return {rights.data() + right_begin[v], rights.data() + right_begin[v + 1]};
  }
};

Constraints find_constraints(const LayeredGraph& g, const Order& order) {
  const uint32_t n = g.node_count();
  const auto spans = static_cast<uint32_t>(order.segment_order.size());
  std::vector<uint32_t> starting_begin(g.layer_count + 1, 0), ending_begin(g.layer_count + 2, 0);
  for (const uint32_t s : order.segment_order) {
    ++starting_begin[g.layer[s] + 1];
    ++ending_begin[g.last_layer[s] + 2];  // leaves the active set at layer last + 1
  }
  for (uint32_t l = 0; l < g.layer_count; ++l) starting_begin[l + 1] += starting_begin[l];
  for (uint32_t l = 0; l <= g.layer_count; ++l) ending_begin[l + 1] += ending_begin[l];
  std::vector<uint32_t> starting(spans), ending(spans);
  {
    std::vector<uint32_t> a(starting_begin.begin(), starting_begin.end() - 1);
    std::vector<uint32_t> b(ending_begin.begin(), ending_begin.end() - 1);
    for (const uint32_t s : order.segment_order) {
      starting[a[g.layer[s]]++] = s;
      ending[b[g.last_layer[s] + 1]++] = s;
    }
  }

  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  pairs.reserve(2 * static_cast<size_t>(n) + spans);
  ActiveSpans active(spans);
  auto span_at = [&](uint32_t k) { return order.segment_order[active.kth(k)]; };
  // The active spans on either side of span s's index (s itself not active).
  auto neighbours = [&](uint32_t s, uint32_t& left, uint32_t& right) {
    const uint32_t k = active.before(order.pos[s]);
    left = k > 0 ? span_at(k) : kNone;
    right = k < active.count() ? span_at(k + 1) : kNone;
  };
  for (uint32_t l = 0; l < g.layer_count; ++l) {
    for (uint32_t i = ending_begin[l]; i < ending_begin[l + 1]; ++i) {
      const uint32_t s = ending[i];
      active.add(order.pos[s], -1);
      uint32_t left, right;
      neighbours(s, left, right);
      if (left != kNone && right != kNone) pairs.push_back({left, right});
    }
    for (uint32_t i = starting_begin[l]; i < starting_begin[l + 1]; ++i) {
      const uint32_t s = starting[i];
      uint32_t left, right;
      neighbours(s, left, right);
      active.add(order.pos[s], 1);
      if (left != kNone) pairs.push_back({left, s});
      if (right != kNone) pairs.push_back({s, right});
    }
    const auto nodes = order.layer(l);
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      const uint32_t v = nodes[i], gap = order.gap[v];
      const uint32_t gap_before = i > 0 ? order.gap[nodes[i - 1]] : 0;
      if (gap > gap_before) {
        pairs.push_back({span_at(gap), v});
      } else if (i > 0) {
        pairs.push_back({nodes[i - 1], v});
      }
      const bool next_adjacent = i + 1 < nodes.size() && order.gap[nodes[i + 1]] == gap;
      if (!next_adjacent && gap < active.count()) pairs.push_back({v, span_at(gap + 1)});
    }
  }

  Constraints c;
  c.left_begin.assign(n + 1, 0);
  c.right_begin.assign(n + 1, 0);
  for (const auto& [a, b] : pairs) {
    ++c.right_begin[a + 1];
    ++c.left_begin[b + 1];
  }
  for (uint32_t v = 0; v < n; ++v) {
    c.left_begin[v + 1] += c.left_begin[v];
    c.right_begin[v + 1] += c.right_begin[v];
  }
  c.lefts.resize(pairs.size());
  c.rights.resize(pairs.size());
  std::vector<uint32_t> left_fill(c.left_begin.begin(), c.left_begin.end() - 1);
  std::vector<uint32_t> right_fill(c.right_begin.begin(), c.right_begin.end() - 1);
  for (const auto& [a, b] : pairs) {
    c.rights[right_fill[a]++] = b;
    c.lefts[left_fill[b]++] = a;
  }
  return c;
}

class SpanPlacer {
 public:
  SpanPlacer(const LayeredGraph& g, const Order& order, const Options& options,
             const Constraints& constraints, std::vector<double>& x)
      : g_(g), order_(order), options_(options), c_(constraints), x_(x) {}

  double sep(uint32_t a, uint32_t b) const { return separation(g_, options_, a, b); }

  // Where item v may go with its neighbours fixed.
  void bounds(uint32_t v, double& lo, double& hi) const {
    lo = -INFINITY;
    hi = INFINITY;
    for (const uint32_t a : c_.left_of(v)) lo = std::max(lo, x_[a] + sep(a, v));
    for (const uint32_t b : c_.right_of(v)) hi = std::min(hi, x_[b] - sep(v, b));
  }

  // Weighted mean of where v's neighbours want it; false if it has none.
  bool wanted(uint32_t v, double& weight, double& sum) const {
    return neighbour_pull(g_, x_, v, weight, sum);
  }

  // Places layer l's nodes, run by run between the spans that bound them.
  void place_layer(uint32_t l) {
    const auto nodes = order_.layer(l);
    for (uint32_t begin = 0; begin < nodes.size();) {
      uint32_t end = begin + 1;
      while (end < nodes.size() && order_.gap[nodes[end]] == order_.gap[nodes[begin]]) ++end;
      place_run(nodes.subspan(begin, end - begin));
      begin = end;
    }
  }

  // Moves every span, in span order (or reversed), towards the mean of its ends.
  void place_spans(bool right_to_left) {
    const auto& spans = order_.segment_order;
    for (size_t k = 0; k < spans.size(); ++k) {
      const uint32_t s = spans[right_to_left ? spans.size() - 1 - k : k];
      double weight, sum, lo, hi;
      if (!wanted(s, weight, sum)) continue;
      bounds(s, lo, hi);
      if (lo > hi) continue;  // cannot happen for a valid placement; keep it
      x_[s] = std::clamp(sum / weight, lo, hi);
    }
  }

 private:
  // Isotonic regression (as LayerPlacer in coordinate_sweeps.cpp) of nodes that are direct
  // neighbours, clamped between the spans (or nothing) left and right of the run. With
  // y = x - prefix the constraints are y non-decreasing and lo <= y <= hi - last prefix;
  // the bounded optimum is the unbounded one clamped.
  void place_run(std::span<const uint32_t> nodes) {
    double lo, hi, unused;
    bounds_outside(nodes.front(), true, lo, unused);
    bounds_outside(nodes.back(), false, unused, hi);
    blocks_.clear();
    double prefix = 0;
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      const uint32_t v = nodes[i];
      if (i > 0) prefix += sep(nodes[i - 1], v);
      double weight, sum;
      if (!wanted(v, weight, sum)) {
        weight = kLooseWeight;
        sum = weight * x_[v];
      }
      const IsotonicBlock b{weight, sum / weight - prefix, 1};
      pool_adjacent(blocks_, b);
    }
    hi -= prefix;
    if (lo > hi) return;  // cannot happen for a valid placement; keep it
    uint32_t i = 0;
    prefix = 0;
    for (const IsotonicBlock& b : blocks_) {
      const double mean = std::clamp(b.mean, lo, hi);
      for (uint32_t k = 0; k < b.count; ++k, ++i) {
        if (i > 0) prefix += sep(nodes[i - 1], nodes[i]);
        x_[nodes[i]] = mean + prefix;
      }
    }
  }

  // The bound a run's first (last) node gets from the span left (right) of it, if any.
  void bounds_outside(uint32_t v, bool left, double& lo, double& hi) const {
    lo = -INFINITY;
    hi = INFINITY;
    if (left) {
      for (const uint32_t a : c_.left_of(v))
        if (g_.is_span(a)) lo = std::max(lo, x_[a] + sep(a, v));
    } else {
      for (const uint32_t b : c_.right_of(v))
        if (g_.is_span(b)) hi = std::min(hi, x_[b] - sep(v, b));
    }
  }

  const LayeredGraph& g_;
  const Order& order_;
  const Options& options_;
  const Constraints& c_;
  std::vector<double>& x_;
  std::vector<IsotonicBlock> blocks_;
};

// Items in an order where every item comes after the items left of it (Kahn); items on a
// cycle, which a valid order does not have, go last.
std::vector<uint32_t> left_to_right(const LayeredGraph& g, const Constraints& c) {
  const uint32_t n = g.node_count();
  std::vector<uint32_t> pending(n), sorted;
  sorted.reserve(n);
  for (uint32_t v = 0; v < n; ++v) {
    pending[v] = c.left_begin[v + 1] - c.left_begin[v];
    if (pending[v] == 0) sorted.push_back(v);
  }
  for (size_t head = 0; head < sorted.size(); ++head) {
    for (const uint32_t b : c.right_of(sorted[head]))
      if (--pending[b] == 0) sorted.push_back(b);
  }
  for (uint32_t v = 0; v < n; ++v)
    if (pending[v] != 0) sorted.push_back(v);
  return sorted;
}

// Runs of dummies (down a chain or a trunk, spans included) set to one x where that fits
// between their neighbours (coordinate_common.h, as the coordinate sweeps do): first in node
// order, then left to right and right to left (each run after the items left of its start).
void straighten_runs(const LayeredGraph& g, const SpanPlacer& placer,
                     const std::vector<uint32_t>& sorted, std::vector<double>& x) {
  std::vector<uint32_t> starts = dummy_run_starts(g);
  const auto bounds = [&](uint32_t d, double& lo, double& hi) { placer.bounds(d, lo, hi); };
  auto straighten = [&](const std::vector<uint32_t>& runs) {
    straighten_dummy_runs(g, runs, bounds, x);
  };
  straighten(starts);
  std::vector<uint32_t> rank(g.node_count());
  for (uint32_t i = 0; i < sorted.size(); ++i) rank[sorted[i]] = i;
  std::stable_sort(starts.begin(), starts.end(),
                   [&](uint32_t a, uint32_t b) { return rank[a] < rank[b]; });
  straighten(starts);
  std::reverse(starts.begin(), starts.end());
  straighten(starts);
}

}  // namespace

std::vector<double> span_sweep_x(const LayeredGraph& g, const Order& order,
                                 const Options& options) {
  const Constraints constraints = find_constraints(g, order);
  const std::vector<uint32_t> sorted = left_to_right(g, constraints);
  std::vector<double> x(g.node_count(), 0);
  SpanPlacer placer(g, order, options, constraints, x);
  // Start halfway between every item packed left and every item packed right.
  std::vector<double> right(g.node_count(), 0);
  double width = 0;
  for (const uint32_t v : sorted) {
    double lo, hi;
    placer.bounds(v, lo, hi);
    x[v] = std::isfinite(lo) ? lo : 0;
    width = std::max(width, x[v]);
  }
  for (auto it = sorted.rbegin(); it != sorted.rend(); ++it) {
    double hi = width;
    for (const uint32_t b : constraints.right_of(*it))
      hi = std::min(hi, right[b] - placer.sep(*it, b));
    right[*it] = hi;
  }
  for (uint32_t v = 0; v < g.node_count(); ++v) x[v] = (x[v] + right[v]) / 2;
  // The start is as narrow as the constraints allow; sweeps that widen it (each step of an
  // unrolled U-Net shifting the next one sideways) are undone and end the sweeping.
  const double start_width = drawing_width(g, x);
  std::vector<double> previous = x;
  for (int sweep = 0; sweep < kCoordinateSweeps; ++sweep) {
    if (sweep % 2 == 0) {
      for (uint32_t l = 0; l < g.layer_count; ++l) placer.place_layer(l);
    } else {
      for (uint32_t l = g.layer_count; l-- > 0;) placer.place_layer(l);
    }
    placer.place_spans(sweep % 2 == 1);
    if (drawing_width(g, x) > start_width + kWidthTolerance) {
      x = previous;
      break;
    }
    previous = x;
  }
  straighten_runs(g, placer, sorted, x);
  return x;
}

}  // namespace etviz::layout
