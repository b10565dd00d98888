#include "coordinate_sweeps.h"

#include "spacing.h"

namespace etviz::layout {
namespace {

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
  return x;
}

}  // namespace etviz::layout
