#include "ordering.h"

#include <algorithm>

#include "crossings.h"

namespace etviz::layout {
namespace {

// Depth-first preorder from the sources, appending each node to its layer when reached.
Order initial_order(const LayeredGraph& g) {
  const uint32_t n = g.node_count();
  Order order;
  order.layer_begin.assign(g.layer_count + 1, 0);
  for (uint32_t v = 0; v < n; ++v) ++order.layer_begin[g.layer[v] + 1];
  for (uint32_t l = 0; l < g.layer_count; ++l) order.layer_begin[l + 1] += order.layer_begin[l];
  order.nodes.assign(n, 0);
  order.pos.assign(n, 0);
  std::vector<uint32_t> fill(order.layer_begin.begin(), order.layer_begin.end() - 1);
  std::vector<uint8_t> seen(n, 0);
  std::vector<uint32_t> stack;
  auto visit_from = [&](uint32_t root) {
    stack.push_back(root);
    while (!stack.empty()) {
      const uint32_t v = stack.back();
      stack.pop_back();
      if (seen[v]) continue;
      seen[v] = 1;
      const uint32_t l = g.layer[v];
      order.pos[v] = fill[l] - order.layer_begin[l];
      order.nodes[fill[l]++] = v;
      const auto downs = g.downs(v);
      for (auto it = downs.rbegin(); it != downs.rend(); ++it) {
        const uint32_t w = g.segments[*it].lower;
        if (!seen[w]) stack.push_back(w);
      }
    }
  };
  for (uint32_t v = 0; v < n; ++v) {
    if (g.ups(v).empty()) visit_from(v);
  }
  for (uint32_t v = 0; v < n; ++v) visit_from(v);  // unreachable only with bad layering
  return order;
}

double median_of(std::vector<double>& p) {
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

class Sweeper {
 public:
  Sweeper(const LayeredGraph& g, const Options& options, Order& order)
      : g_(g), options_(options), order_(order) {}

  // Reorders layer l by the positions of its neighbours above (use_ups) or below.
  void sort_layer(uint32_t l, bool use_ups) {
    auto nodes = order_.layer(l);
    movable_.clear();
    for (const uint32_t v : nodes) {
      positions_.clear();
      for (const uint32_t s : use_ups ? g_.ups(v) : g_.downs(v)) {
        const Segment& seg = g_.segments[s];
        positions_.push_back(order_.pos[use_ups ? seg.upper : seg.lower]);
      }
      if (positions_.empty()) continue;  // keeps its slot
      std::sort(positions_.begin(), positions_.end());
      double key;
      if (options_.ordering == OrderingStrategy::kBarycenter) {
        double sum = 0;
        for (const double p : positions_) sum += p;
        key = sum / static_cast<double>(positions_.size());
      } else {
        key = median_of(positions_);
      }
      movable_.push_back({key, order_.pos[v], v});
    }
    std::sort(movable_.begin(), movable_.end(), [](const Keyed& a, const Keyed& b) {
      return a.key != b.key ? a.key < b.key : a.pos < b.pos;
    });
    // Nodes without neighbours on that side stay where they are; the others fill the
    // remaining slots in key order.
    size_t next = 0;
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      const uint32_t v = nodes[i];
      const bool fixed = (use_ups ? g_.ups(v) : g_.downs(v)).empty();
      if (!fixed) nodes[i] = movable_[next++].node;
    }
    for (uint32_t i = 0; i < nodes.size(); ++i) order_.pos[nodes[i]] = i;
  }

  // Swaps neighbours in layer l while that removes crossings with both adjacent layers.
  void transpose_layer(uint32_t l) {
    auto nodes = order_.layer(l);
    if (nodes.size() < 2) return;
    // Sorted neighbour positions above and below, per node; fixed while l is reordered.
    list_begin_.assign(2 * nodes.size() + 1, 0);
    lists_.clear();
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      const uint32_t v = nodes[i];
      slot_[v] = i;
      for (int side = 0; side < 2; ++side) {
        const size_t start = lists_.size();
        for (const uint32_t s : side == 0 ? g_.ups(v) : g_.downs(v)) {
          const Segment& seg = g_.segments[s];
          lists_.push_back(order_.pos[side == 0 ? seg.upper : seg.lower]);
        }
        std::sort(lists_.begin() + static_cast<std::ptrdiff_t>(start), lists_.end());
        list_begin_[2 * i + side + 1] = static_cast<uint32_t>(lists_.size());
      }
    }
    for (int pass = 0; pass < 8; ++pass) {
      bool improved = false;
      for (uint32_t i = 0; i + 1 < nodes.size(); ++i) {
        const uint32_t a = slot_[nodes[i]], b = slot_[nodes[i + 1]];
        const uint64_t keep = pair_crossings(a, b), swapped = pair_crossings(b, a);
        if (swapped < keep) {
          std::swap(nodes[i], nodes[i + 1]);
          order_.pos[nodes[i]] = i;
          order_.pos[nodes[i + 1]] = i + 1;
          improved = true;
        }
      }
      if (!improved) break;
    }
  }

  void resize(uint32_t n) { slot_.assign(n, 0); }

 private:
  struct Keyed {
    double key;
    uint32_t pos;
    uint32_t node;
  };

  // Crossings among the edges of two neighbours when slot a is left of slot b.
  uint64_t pair_crossings(uint32_t a, uint32_t b) const {
    uint64_t total = 0;
    for (int side = 0; side < 2; ++side) {
      const uint32_t* pa = lists_.data() + list_begin_[2 * a + side];
      const uint32_t* ea = lists_.data() + list_begin_[2 * a + side + 1];
      const uint32_t* pb = lists_.data() + list_begin_[2 * b + side];
      const uint32_t* eb = lists_.data() + list_begin_[2 * b + side + 1];
      const uint32_t* j = pb;
      for (; pa != ea; ++pa) {
        while (j != eb && *j < *pa) ++j;
        total += static_cast<uint64_t>(j - pb);
      }
    }
    return total;
  }

  const LayeredGraph& g_;
  const Options& options_;
  Order& order_;
  std::vector<Keyed> movable_;
  std::vector<double> positions_;
  std::vector<uint32_t> slot_, list_begin_, lists_;
};

}  // namespace

Order order_layers(const LayeredGraph& g, const Options& options) {
  Order order = initial_order(g);
  if (g.layer_count < 2) return order;
  Sweeper sweeper(g, options, order);
  sweeper.resize(g.node_count());
  auto transpose_all = [&] {
    if (!options.transpose) return;
    for (uint32_t l = 0; l < g.layer_count; ++l) sweeper.transpose_layer(l);
  };
  transpose_all();
  uint64_t best = count_crossings(g, order);
  Order best_order = order;
  constexpr int kPatience = 4;
  int since_improvement = 0;
  for (int sweep = 0; sweep < options.ordering_sweeps && best > 0; ++sweep) {
    if (sweep % 2 == 0) {
      for (uint32_t l = 1; l < g.layer_count; ++l) sweeper.sort_layer(l, true);
    } else {
      for (uint32_t l = g.layer_count - 1; l-- > 0;) sweeper.sort_layer(l, false);
    }
    transpose_all();
    const uint64_t crossings = count_crossings(g, order);
    if (crossings < best) {
      best = crossings;
      best_order = order;
      since_improvement = 0;
    } else if (++since_improvement >= kPatience) {
      break;
    }
  }
  return best_order;
}

}  // namespace etviz::layout
