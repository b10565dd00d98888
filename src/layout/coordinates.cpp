#include "coordinates.h"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

#include "coordinate_sweeps.h"
#include "spacing.h"
#include "span_coordinates.h"

namespace etviz::layout {
namespace {

struct View {
  bool from_bottom;  // align with lower neighbours, sweeping layers bottom-up
  bool from_right;   // sweep layers right to left (computed mirrored, then mirrored back)
};

class BrandesKoepf {
 public:
  BrandesKoepf(const LayeredGraph& g, const Order& order, const Options& options)
      : g_(g), order_(order), options_(options) {
    mark_type1_conflicts();
  }

  std::vector<double> place(View view) {
    align(view);
    return compact(view);
  }

 private:
  // Marks segments that cross a dummy-to-dummy segment, so alignment leaves them out.
  void mark_type1_conflicts() {
    conflict_.assign(g_.segments.size(), 0);
    for (uint32_t l = 1; l < g_.layer_count; ++l) {
      const auto upper_size = static_cast<uint32_t>(order_.layer(l - 1).size());
      const auto lower = order_.layer(l);
      uint32_t k0 = 0, scan = 0;
      for (uint32_t i = 0; i < lower.size(); ++i) {
        const uint32_t v = lower[i];
        uint32_t inner = std::numeric_limits<uint32_t>::max();
        if (g_.is_dummy[v]) {
          for (const uint32_t s : g_.ups(v)) {
            if (g_.is_dummy[g_.segments[s].upper]) inner = order_.pos[g_.segments[s].upper];
          }
        }
        const bool has_inner = inner != std::numeric_limits<uint32_t>::max();
        if (!has_inner && i + 1 != lower.size()) continue;
        const uint32_t k1 = has_inner ? inner : upper_size;
        for (; scan <= i; ++scan) {
          const uint32_t w = lower[scan];
          for (const uint32_t s : g_.ups(w)) {
            const uint32_t u = g_.segments[s].upper;
            const uint32_t p = order_.pos[u];
            if ((p < k0 || p > k1) && !(g_.is_dummy[u] && g_.is_dummy[w])) conflict_[s] = 1;
          }
        }
        k0 = k1;
      }
    }
  }

  uint32_t view_pos(uint32_t v, View view) const {
    if (!view.from_right) return order_.pos[v];
    return static_cast<uint32_t>(order_.layer(g_.layer[v]).size()) - 1 - order_.pos[v];
  }

  // Groups nodes into vertical blocks: each node joins the block of its median neighbour in
  // the previous layer unless that would cross an alignment made further left.
  void align(View view) {
    const uint32_t n = g_.node_count();
    root_.resize(n);
    next_.assign(n, kNone);
    shift_.assign(n, 0);
    for (uint32_t v = 0; v < n; ++v) root_[v] = v;
    const double mirror = view.from_right ? -1 : 1;
    for (uint32_t step = 1; step < g_.layer_count; ++step) {
      const uint32_t l = view.from_bottom ? g_.layer_count - 1 - step : step;
      const auto nodes = order_.layer(l);
      int64_t taken = -1;  // view position of the last neighbour aligned with
      for (uint32_t k = 0; k < nodes.size(); ++k) {
        const uint32_t v = nodes[view.from_right ? nodes.size() - 1 - k : k];
        neighbours_.clear();
        for (const uint32_t s : view.from_bottom ? g_.downs(v) : g_.ups(v)) {
          neighbours_.push_back(s);
        }
        if (neighbours_.empty()) continue;
        auto other = [&](uint32_t s) {
          return view.from_bottom ? g_.segments[s].lower : g_.segments[s].upper;
        };
        std::sort(neighbours_.begin(), neighbours_.end(), [&](uint32_t a, uint32_t b) {
          const uint32_t pa = view_pos(other(a), view), pb = view_pos(other(b), view);
          return pa != pb ? pa < pb : a < b;
        });
        const size_t d = neighbours_.size();
        for (size_t m = (d - 1) / 2; m <= d / 2; ++m) {
          const uint32_t s = neighbours_[m];
          const uint32_t u = other(s);
          if (conflict_[s] || taken >= static_cast<int64_t>(view_pos(u, view))) continue;
          const Segment& seg = g_.segments[s];
          const double own = view.from_bottom ? g_.upper_offset(seg) : g_.lower_offset(seg);
          const double theirs = view.from_bottom ? g_.lower_offset(seg) : g_.upper_offset(seg);
          root_[v] = root_[u];
          next_[u] = v;  // u is its block's last member so far: aligned with at most one node
          shift_[v] = shift_[u] + mirror * (theirs - own);
          taken = view_pos(u, view);
          break;
        }
      }
    }
  }

  // Longest-path placement of blocks (leftmost), then every block with a right neighbour
  // moves right as far as that neighbour allows, which removes the leftward pull. A block's
  // constraints (the block of each member's left and right neighbour must lie at least their
  // separation further left and right) are read from the order where they are used, by
  // block: a block's members are a chain from its root (next_), the constraints never stored
  // (with their index they were 24 B per node, a tenth of the layout's peak memory). Blocks
  // are placed depth-first, each after the blocks to its left, and moved right in the
  // reverse, each after the blocks to its right: any such order gives the same placement
  // (maxima and minima of the same gaps), whatever order a block's members are visited in,
  // and needs a byte per node and a stack as deep as the longest chain of blocks side by
  // side, where a queue of blocks with a count per node took 8 B per node.
  std::vector<double> compact(View view) {
    const uint32_t n = g_.node_count();
    // v's neighbour on the right (+1) or the left (-1) in the view's direction (kNone at a
    // layer's end).
    auto beside = [&](uint32_t v, int side) {
      const auto nodes = order_.layer(g_.layer[v]);
      const int64_t k = int64_t{view_pos(v, view)} + side;
      if (k < 0 || k >= static_cast<int64_t>(nodes.size())) return kNone;
      const auto i = static_cast<size_t>(k);
      return nodes[view.from_right ? nodes.size() - 1 - i : i];
    };
    // A block's x is kept in its root's shift, which align() leaves at 0 (a root is aligned
    // with nothing): no array of block positions beside the shifts (8 B per node at the
    // layout's peak, the fourth of these placements).
    auto shift_of = [&](uint32_t v) { return root_[v] == v ? 0.0 : shift_[v]; };
    auto gap = [&](uint32_t left, uint32_t right) {
      return separation(g_, options_, left, right) + shift_of(left) - shift_of(right);
    };
    double* block_x = shift_.data();  // valid at roots
    // Visits every block once, each after the blocks beside it on `side` (a block's own
    // neighbours are in other blocks: it has one member per layer), and calls settle(b) on
    // it. Per root: kOpen until visited, kOnStack while its neighbours' blocks are visited
    // (a cycle, which alignment does not make, would end there), `done` after.
    auto visit_blocks = [&](int side, uint8_t open, uint8_t done, auto&& settle) {
      constexpr uint8_t kOnStack = 1;
      for (uint32_t r = 0; r < n; ++r) {
        if (root_[r] != r || state_[r] != open) continue;
        state_[r] = kOnStack;
        stack_.push_back({r, r});
        while (!stack_.empty()) {
          Frame& f = stack_.back();
          uint32_t first_open = kNone;
          for (; f.member != kNone && first_open == kNone; f.member = next_[f.member]) {
            const uint32_t w = beside(f.member, side);
            if (w != kNone && state_[root_[w]] == open) first_open = root_[w];
          }
          if (first_open != kNone) {
            state_[first_open] = kOnStack;
            stack_.push_back({first_open, first_open});
            continue;
          }
          const uint32_t b = f.block;
          stack_.pop_back();
          settle(b);
          state_[b] = done;
        }
      }
    };
    constexpr uint8_t kUnplaced = 0, kPlaced = 2, kMoved = 3;
    state_.assign(n, kUnplaced);
    // Leftmost: as far right as the blocks on the left need, at least 0.
    visit_blocks(-1, kUnplaced, kPlaced, [&](uint32_t b) {
      for (uint32_t v = b; v != kNone; v = next_[v]) {
        const uint32_t u = beside(v, -1);
        if (u != kNone) block_x[b] = std::max(block_x[b], block_x[root_[u]] + gap(u, v));
      }
    });
    visit_blocks(+1, kPlaced, kMoved, [&](uint32_t b) {
      bool constrained = false;
      double limit = std::numeric_limits<double>::infinity();
      for (uint32_t v = b; v != kNone; v = next_[v]) {
        const uint32_t w = beside(v, +1);
        if (w == kNone) continue;
        constrained = true;
        limit = std::min(limit, block_x[root_[w]] - gap(v, w));
      }
      if (constrained) block_x[b] = std::max(block_x[b], limit);
    });
    // The coordinates replace the shifts (align() makes new ones for the next view): the other
    // members' first, while their roots still hold their blocks' x.
    const double mirror = view.from_right ? -1 : 1;
    for (uint32_t v = 0; v < n; ++v) {
      if (root_[v] != v) shift_[v] = mirror * (block_x[root_[v]] + shift_[v]);
    }
    for (uint32_t v = 0; v < n; ++v) {
      if (root_[v] == v) shift_[v] = mirror * (block_x[v] + 0.0);  // (+ 0.0: -0.0 as before)
    }
    return std::move(shift_);
  }

  const LayeredGraph& g_;
  const Order& order_;
  const Options& options_;
  std::vector<uint8_t> conflict_;
  std::vector<uint32_t> root_;
  std::vector<double> shift_;
  std::vector<uint32_t> neighbours_;
  std::vector<uint32_t> next_;  // per node: the next member of its block (kNone: the last)
  struct Frame {
    uint32_t block;
    uint32_t member;  // the next member whose neighbour's block to look at
  };
  std::vector<uint8_t> state_;  // per root: compact()'s visits
  std::vector<Frame> stack_;
};

}  // namespace

std::vector<double> brandes_koepf_x(const LayeredGraph& g, const Order& order,
                                    const Options& options) {
  const uint32_t n = g.node_count();
  std::array<std::vector<double>, 4> candidates;
  {
    BrandesKoepf bk(g, order, options);  // (its working memory goes before the balancing)
    for (size_t i = 0; i < 4; ++i) candidates[i] = bk.place(View{(i & 1) != 0, (i & 2) != 0});
  }
  std::array<double, 4> left{}, right{};
  size_t narrowest = 0;
  for (size_t i = 0; i < 4; ++i) {
    left[i] = std::numeric_limits<double>::infinity();
    right[i] = -left[i];
    for (uint32_t v = 0; v < n; ++v) {
      left[i] = std::min(left[i], candidates[i][v] - g.width[v] / 2);
      right[i] = std::max(right[i], candidates[i][v] + g.width[v] / 2);
    }
    if (right[i] - left[i] < right[narrowest] - left[narrowest]) narrowest = i;
  }
  // Left-swept candidates share the narrowest one's left edge, right-swept its right edge.
  for (size_t i = 0; i < 4; ++i) {
    const bool from_right = (i & 2) != 0;
    const double delta = from_right ? right[narrowest] - right[i] : left[narrowest] - left[i];
    for (double& x : candidates[i]) x += delta;
  }
  // Balance: per node, the median of the candidates. A candidate much wider than the
  // narrowest has drifted into a staircase (one sweep direction can shift every repeated
  // block of a model a little further); it would drag the median along, so it is left out.
  std::array<size_t, 4> kept{};
  size_t kept_count = 0;
  const double narrowest_width = right[narrowest] - left[narrowest];
  for (size_t i = 0; i < 4; ++i) {
    if (right[i] - left[i] <= 1.5 * narrowest_width) kept[kept_count++] = i;
  }
  std::vector<double> x(n);
  for (uint32_t v = 0; v < n; ++v) {
    std::array<double, 4> c{};
    for (size_t k = 0; k < kept_count; ++k) c[k] = candidates[kept[k]][v];
    std::sort(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(kept_count));
    x[v] = (c[(kept_count - 1) / 2] + c[kept_count / 2]) / 2;
  }
  // The median combination can, rarely, bring neighbours too close; push them apart.
  for (uint32_t l = 0; l < g.layer_count; ++l) {
    const auto nodes = order.layer(l);
    for (uint32_t k = 1; k < nodes.size(); ++k) {
      const double needed = x[nodes[k - 1]] + separation(g, options, nodes[k - 1], nodes[k]);
      if (x[nodes[k]] < needed) x[nodes[k]] = needed;
    }
  }
  return x;
}

double drawing_width(const LayeredGraph& g, const std::vector<double>& x) {
  double left = std::numeric_limits<double>::infinity(), right = -left;
  for (uint32_t v = 0; v < g.node_count(); ++v) {
    left = std::min(left, x[v] - g.width[v] / 2);
    right = std::max(right, x[v] + g.width[v] / 2);
  }
  return left <= right ? right - left : 0;
}

double widest_layer(const LayeredGraph& g, const Order& order, const Options& options) {
  double widest = 0;
  if (!g.has_spans()) {
    for (uint32_t l = 0; l < g.layer_count; ++l) {
      const auto nodes = order.layer(l);
      double w = nodes.empty() ? 0 : (g.width[nodes.front()] + g.width[nodes.back()]) / 2;
      for (uint32_t k = 1; k < nodes.size(); ++k)
        w += separation(g, options, nodes[k - 1], nodes[k]);
      widest = std::max(widest, w);
    }
    return widest;
  }
  // The same sum without visiting spans: each item adds its width and its own spacing, the
  // two outermost items half their spacing less; a span has no width.
  std::vector<int64_t> passing(g.layer_count + 1, 0);
  for (const uint32_t s : order.segment_order) {
    ++passing[g.layer[s]];
    --passing[g.last_layer[s] + 1];
  }
  int64_t spans = 0;
  auto own = [&](uint32_t v) {
    return g.is_dummy[v] ? options.edge_spacing : options.node_spacing;
  };
  for (uint32_t l = 0; l < g.layer_count; ++l) {
    spans += passing[l];
    const auto nodes = order.layer(l);
    if (nodes.empty() && spans == 0) continue;
    double w = static_cast<double>(spans) * options.edge_spacing;
    for (const uint32_t v : nodes) w += g.width[v] + own(v);
    const bool span_first = nodes.empty() || order.gap[nodes.front()] > 0;
    const bool span_last = nodes.empty() || order.gap[nodes.back()] < spans;
    w -= (span_first ? options.edge_spacing : own(nodes.front())) / 2;
    w -= (span_last ? options.edge_spacing : own(nodes.back())) / 2;
    widest = std::max(widest, w);
  }
  return widest;
}

std::vector<double> assign_x(const LayeredGraph& g, const Order& order, const Options& options) {
  if (g.node_count() == 0) return {};
  // A graph with spans (never made for kBrandesKoepf, layered_form()) has its own sweeps.
  if (g.has_spans()) return span_sweep_x(g, order, options);
  if (options.coordinates == CoordinateStrategy::kLayerSweeps) return sweep_x(g, order, options);
  if (options.coordinates == CoordinateStrategy::kBrandesKoepf)
    return brandes_koepf_x(g, order, options);
  const double widest = widest_layer(g, order, options);
  if (order.by_segments) {
    // On orders made by segments (U-Nets) Brandes–Köpf drifts (unet_20000: 62,637 px against
    // a widest layer of 837) and the straightened sweeps keep segments straight too, so the
    // sweeps go first and Brandes–Köpf only runs if they come out wide.
    std::vector<double> swept = sweep_x(g, order, options);
    const double swept_width = drawing_width(g, swept);
    if (swept_width <= 2 * widest) return swept;
    std::vector<double> x = brandes_koepf_x(g, order, options);
    return drawing_width(g, x) < swept_width ? x : swept;
  }
  // Brandes–Köpf keeps long edges straight, but on crossing-heavy graphs its blocks spread
  // the drawing to many times its widest layer; then the sweeps win if they are narrower.
  std::vector<double> x = brandes_koepf_x(g, order, options);
  const double bk_width = drawing_width(g, x);
  if (bk_width <= 2 * widest) return x;
  std::vector<double> swept = sweep_x(g, order, options);
  return drawing_width(g, swept) < bk_width ? swept : x;
}

}  // namespace etviz::layout
