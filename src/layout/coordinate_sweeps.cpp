#include "coordinate_sweeps.h"

#include <algorithm>
#include <cmath>

#include "coordinate_common.h"
#include "spacing.h"

namespace etviz::layout {
namespace {

class LayerPlacer {
 public:
  LayerPlacer(const LayeredGraph& g, const Order& order, const Options& options,
              std::vector<double>& x)
      : g_(g), order_(order), options_(options), x_(x) {}

  void place(uint32_t l) {
    const auto nodes = order_.layer(l);
    blocks_.clear();
    double prefix = 0;  // sum of separations left of node i
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      const uint32_t v = nodes[i];
      if (i > 0) prefix += separation(g_, options_, nodes[i - 1], v);
      double weight = 0, sum = 0;
      neighbour_pull(g_, x_, v, weight, sum);
      if (weight == 0) {
        weight = kLooseWeight;
        sum = weight * x_[v];
      }
      // In y = x - prefix the constraints become y non-decreasing.
      const IsotonicBlock b{weight, sum / weight - prefix, 1};
      pool_adjacent(blocks_, b);
    }
    uint32_t i = 0;
    prefix = 0;
    for (const IsotonicBlock& b : blocks_) {
      for (uint32_t k = 0; k < b.count; ++k, ++i) {
        if (i > 0) prefix += separation(g_, options_, nodes[i - 1], nodes[i]);
        x_[nodes[i]] = b.mean + prefix;
      }
    }
  }

 private:
  const LayeredGraph& g_;
  const Order& order_;
  const Options& options_;
  std::vector<double>& x_;
  std::vector<IsotonicBlock> blocks_;
};

// Runs packed side by side (a U-Net's skips, ordered by segments) drift together, and a run
// between two drifting neighbours fits nowhere. Taken left to right (a run after every run
// directly left of it in some layer), each run's left neighbour is straight already, so it
// fits unless its right side is what pushes it; right to left is the mirror case. Runs that
// are left of each other somewhere (their ends may cross) go last, by first dummy.
template <typename NextDummy>
void left_to_right(const LayeredGraph& g, const Order& order, const NextDummy& next_dummy,
                   std::vector<uint32_t>& starts) {
  std::vector<uint32_t> run_of(g.node_count(), kNone);
  for (uint32_t r = 0; r < starts.size(); ++r) {
    for (uint32_t d = starts[r]; d != kNone; d = next_dummy(d)) run_of[d] = r;
  }
  std::vector<uint32_t> right_begin(starts.size() + 1, 0), rights, pending(starts.size(), 0);
  auto neighbours = [&](auto&& visit) {
    for (uint32_t l = 0; l < g.layer_count; ++l) {
      const auto nodes = order.layer(l);
      for (uint32_t i = 1; i < nodes.size(); ++i) {
        const uint32_t a = run_of[nodes[i - 1]], b = run_of[nodes[i]];
        if (a != kNone && b != kNone && a != b) visit(a, b);
      }
    }
  };
  neighbours([&](uint32_t a, uint32_t) { ++right_begin[a + 1]; });
  for (uint32_t r = 0; r < starts.size(); ++r) right_begin[r + 1] += right_begin[r];
  rights.resize(right_begin.back());
  std::vector<uint32_t> fill(right_begin.begin(), right_begin.end() - 1);
  neighbours([&](uint32_t a, uint32_t b) {
    rights[fill[a]++] = b;
    ++pending[b];
  });
  std::vector<uint32_t> sorted;
  sorted.reserve(starts.size());
  for (uint32_t r = 0; r < starts.size(); ++r) {
    if (pending[r] == 0) sorted.push_back(r);
  }
  for (size_t head = 0; head < sorted.size(); ++head) {
    const uint32_t r = sorted[head];
    for (uint32_t k = right_begin[r]; k < right_begin[r + 1]; ++k) {
      if (--pending[rights[k]] == 0) sorted.push_back(rights[k]);
    }
  }
  for (uint32_t r = 0; r < starts.size(); ++r) {
    if (pending[r] != 0) sorted.push_back(r);
  }
  std::vector<uint32_t> by_order(starts.size());
  for (uint32_t i = 0; i < sorted.size(); ++i) by_order[i] = starts[sorted[i]];
  starts = std::move(by_order);
}

// Layer sweeps leave long edges and bundle trunks wiggling by a few pixels per layer (each
// layer is placed on its own), and every wiggle is a bend in the route of every edge drawn
// along it: a cos table feeding every head of 44 decoder layers made 3.4 M route points.
// Each run of dummies (down a chain, or down a trunk past its branches) is set to one x
// wherever that fits between its neighbours in every layer it passes; where it does not,
// the run is cut and the next piece gets its own x. Neighbours keep their places and every
// dummy stays between them, so order and spacing (and crossings) are unchanged.
void straighten_runs(const LayeredGraph& g, const Order& order, const Options& options,
                     std::vector<double>& x) {
  const auto next_dummy = [&](uint32_t v) { return next_run_dummy(g, v); };
  const auto bounds = [&](uint32_t v, double& lo, double& hi) {
    const auto nodes = order.layer(g.layer[v]);
    const uint32_t i = order.pos[v];
    lo = i > 0 ? x[nodes[i - 1]] + separation(g, options, nodes[i - 1], v) : -INFINITY;
    hi =
        i + 1 < nodes.size() ? x[nodes[i + 1]] - separation(g, options, v, nodes[i + 1]) : INFINITY;
  };
  std::vector<uint32_t> starts = dummy_run_starts(g);
  auto straighten = [&](const std::vector<uint32_t>& runs) {
    straighten_dummy_runs(g, runs, bounds, x);
  };
  straighten(starts);
  if (!order.by_segments) return;
  // A straight run always fits where it is, so later passes only join pieces: left to right
  // for runs packed against a free left side, then right to left for the mirror case.
  left_to_right(g, order, next_dummy, starts);
  straighten(starts);
  std::reverse(starts.begin(), starts.end());
  straighten(starts);
}

}  // namespace

std::vector<double> sweep_x(const LayeredGraph& g, const Order& order, const Options& options) {
  std::vector<double> x(g.node_count(), 0);
  for (uint32_t l = 0; l < g.layer_count; ++l) {
    const auto nodes = order.layer(l);
    double cursor = 0;
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      if (i > 0) cursor += separation(g, options, nodes[i - 1], nodes[i]);
      x[nodes[i]] = cursor;
    }
    for (const uint32_t v : nodes) x[v] -= cursor / 2;
  }
  LayerPlacer placer(g, order, options, x);
  for (int sweep = 0; sweep < kCoordinateSweeps; ++sweep) {
    if (sweep % 2 == 0) {
      for (uint32_t l = 0; l < g.layer_count; ++l) placer.place(l);
    } else {
      for (uint32_t l = g.layer_count; l-- > 0;) placer.place(l);
    }
  }
  straighten_runs(g, order, options, x);
  return x;
}

}  // namespace etviz::layout
