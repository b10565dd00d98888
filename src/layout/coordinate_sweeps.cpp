#include "coordinate_sweeps.h"

#include <algorithm>
#include <cmath>

#include "spacing.h"

namespace etviz::layout {
namespace {

constexpr uint32_t kNoDummy = 0xFFFFFFFFu;

constexpr int kSweeps = 12;
constexpr double kLooseWeight = 1e-3;  // nodes without edges stay roughly where they are

double segment_weight(const LayeredGraph& g, const Segment& s) {
  const int dummies = g.is_dummy[s.upper] + g.is_dummy[s.lower];
  return (dummies == 2 ? 8.0 : dummies == 1 ? 2.0 : 1.0) * s.weight;
}

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
      for (const uint32_t s : g_.ups(v)) {
        const Segment& seg = g_.segments[s];
        const double w = segment_weight(g_, seg);
        weight += w;
        sum += w * (x_[seg.upper] + seg.upper_offset - seg.lower_offset);
      }
      for (const uint32_t s : g_.downs(v)) {
        const Segment& seg = g_.segments[s];
        const double w = segment_weight(g_, seg);
        weight += w;
        sum += w * (x_[seg.lower] + seg.lower_offset - seg.upper_offset);
      }
      if (weight == 0) {
        weight = kLooseWeight;
        sum = weight * x_[v];
      }
      // In y = x - prefix the constraints become y non-decreasing.
      Block b{weight, sum / weight - prefix, 1};
      while (!blocks_.empty() && blocks_.back().mean >= b.mean) {
        const Block& a = blocks_.back();
        b = {a.weight + b.weight, (a.weight * a.mean + b.weight * b.mean) / (a.weight + b.weight),
             a.count + b.count};
        blocks_.pop_back();
      }
      blocks_.push_back(b);
    }
    uint32_t i = 0;
    prefix = 0;
    for (const Block& b : blocks_) {
      for (uint32_t k = 0; k < b.count; ++k, ++i) {
        if (i > 0) prefix += separation(g_, options_, nodes[i - 1], nodes[i]);
        x_[nodes[i]] = b.mean + prefix;
      }
    }
  }

 private:
  struct Block {
    double weight;
    double mean;
    uint32_t count;
  };
  const LayeredGraph& g_;
  const Order& order_;
  const Options& options_;
  std::vector<double>& x_;
  std::vector<Block> blocks_;
};

// Layer sweeps leave long edges and bundle trunks wiggling by a few pixels per layer (each
// layer is placed on its own), and every wiggle is a bend in the route of every edge drawn
// along it: a cos table feeding every head of 44 decoder layers made 3.4 M route points.
// Each run of dummies (down a chain, or down a trunk past its branches) is set to one x
// wherever that fits between its neighbours in every layer it passes; where it does not,
// the run is cut and the next piece gets its own x. Neighbours keep their places and every
// dummy stays between them, so order and spacing (and crossings) are unchanged.
void straighten_runs(const LayeredGraph& g, const Order& order, const Options& options,
                     std::vector<double>& x) {
  auto next_dummy = [&](uint32_t v) {
    uint32_t next = kNoDummy;
    for (const uint32_t s : g.downs(v)) {
      const uint32_t w = g.segments[s].lower;
      if (g.is_dummy[w] && g.ups(w).size() == 1) next = w;
    }
    return next;
  };
  auto starts_run = [&](uint32_t v) {
    if (!g.is_dummy[v] || g.ups(v).size() != 1) return false;
    const uint32_t above = g.segments[g.ups(v)[0]].upper;
    return !g.is_dummy[above] || next_dummy(above) != v;
  };
  auto allowed = [&](uint32_t v, double& lo, double& hi) {
    const auto nodes = order.layer(g.layer[v]);
    const uint32_t i = order.pos[v];
    lo = i > 0 ? x[nodes[i - 1]] + separation(g, options, nodes[i - 1], v) : -INFINITY;
    hi =
        i + 1 < nodes.size() ? x[nodes[i + 1]] - separation(g, options, v, nodes[i + 1]) : INFINITY;
    lo = std::min(lo, x[v]);  // the current place is always allowed
    hi = std::max(hi, x[v]);
  };
  std::vector<uint32_t> run;
  for (uint32_t start = 0; start < g.node_count(); ++start) {
    if (!starts_run(start)) continue;
    run.clear();
    double lo = -INFINITY, hi = INFINITY;
    auto place = [&]() {
      // The piece goes where its first dummy is, moved into the common interval: the edge
      // leaves its source as before and bends at most once where the piece ends.
      const double at = std::clamp(x[run.front()], lo, hi);
      for (const uint32_t d : run) x[d] = at;
      run.clear();
      lo = -INFINITY;
      hi = INFINITY;
    };
    for (uint32_t d = start; d != kNoDummy; d = next_dummy(d)) {
      double a, b;
      allowed(d, a, b);
      if (!run.empty() && (std::max(lo, a) > std::min(hi, b))) place();
      lo = std::max(lo, a);
      hi = std::min(hi, b);
      run.push_back(d);
    }
    place();
  }
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
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
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
