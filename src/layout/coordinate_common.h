#pragma once
// What the two coordinate placements share (phase 5: coordinate_sweeps.cpp with a dummy per
// layer, span_coordinates.cpp with spans): how many sweeps, how strongly an edge pulls, where a
// node's neighbours pull it, and runs of dummies set to one x. One definition, so both forms
// place the same graph the same way where they can.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "layered_graph.h"
#include "layout.h"

namespace etviz::layout {

inline constexpr int kCoordinateSweeps = 12;
inline constexpr double kLooseWeight = 1e-3;  // nodes without edges stay roughly where they are

// How strongly a segment pulls its ends together: long edges (dummy to dummy) most, so they
// run straight.
inline double segment_weight(const LayeredGraph& g, uint32_t s) {
  const Segment& seg = g.segments[s];
  const int dummies = g.is_dummy[seg.upper] + g.is_dummy[seg.lower];
  return (dummies == 2 ? 8.0 : dummies == 1 ? 2.0 : 1.0) * g.weight(s);
}

// Where v's neighbours pull it: the total weight of its segments and the weighted sum of the
// x each wants v at (the other end's x, shifted by both ports' offsets). False when v has no
// segment.
inline bool neighbour_pull(const LayeredGraph& g, const std::vector<double>& x, uint32_t v,
                           double& weight, double& sum) {
  weight = 0;
  sum = 0;
  for (const uint32_t s : g.ups(v)) {
    const Segment& seg = g.segments[s];
    const double w = segment_weight(g, s);
    weight += w;
    sum += w * (x[seg.upper] + g.upper_offset(seg) - g.lower_offset(seg));
  }
  for (const uint32_t s : g.downs(v)) {
    const Segment& seg = g.segments[s];
    const double w = segment_weight(g, s);
    weight += w;
    sum += w * (x[seg.lower] + g.lower_offset(seg) - g.upper_offset(seg));
  }
  return weight > 0;
}

// Isotonic regression by pool-adjacent-violators, one item at a time: a layer's items, left
// to right, each wanting position `mean` (with separations subtracted, so the constraint is
// "non-decreasing"), merged into blocks that share one mean, weighted.
struct IsotonicBlock {
  double weight;
  double mean;
  uint32_t count;  // items in the block
};
inline void pool_adjacent(std::vector<IsotonicBlock>& blocks, IsotonicBlock b) {
  while (!blocks.empty() && blocks.back().mean >= b.mean) {
    const IsotonicBlock& a = blocks.back();
    b = {a.weight + b.weight, (a.weight * a.mean + b.weight * b.mean) / (a.weight + b.weight),
         a.count + b.count};
    blocks.pop_back();
  }
  blocks.push_back(b);
}

// The next dummy down v's run: the dummy below v whose only upper neighbour is v; kNone at
// the run's end.
inline uint32_t next_run_dummy(const LayeredGraph& g, uint32_t v) {
  uint32_t next = kNone;
  for (const uint32_t s : g.downs(v)) {
    const uint32_t w = g.segments[s].lower;
    if (g.is_dummy[w] && g.ups(w).size() == 1) next = w;
  }
  return next;
}

// The dummies that start a run (their one upper neighbour is a node, or a dummy whose run
// goes on elsewhere), in id order.
inline std::vector<uint32_t> dummy_run_starts(const LayeredGraph& g) {
  std::vector<uint32_t> starts;
  for (uint32_t v = 0; v < g.node_count(); ++v) {
    if (!g.is_dummy[v] || g.ups(v).size() != 1) continue;
    const uint32_t above = g.segments[g.ups(v)[0]].upper;
    if (!g.is_dummy[above] || next_run_dummy(g, above) != v) starts.push_back(v);
  }
  return starts;
}

// Each run from `starts`, in that order, set to one x wherever that fits: `bounds(d, lo, hi)`
// says where dummy d may go between its neighbours (its current place is always allowed).
// Where a dummy's interval does not meet the run's so far, the run is cut and the next piece
// gets its own x. A piece goes where its first dummy is, moved into the common interval: the
// edge leaves its source as before and bends at most once where the piece ends. Neighbours
// keep their places, so order, spacing and crossings are unchanged.
template <typename Bounds>
void straighten_dummy_runs(const LayeredGraph& g, const std::vector<uint32_t>& starts,
                           const Bounds& bounds, std::vector<double>& x) {
  std::vector<uint32_t> run;
  for (const uint32_t start : starts) {
    run.clear();
    double lo = -INFINITY, hi = INFINITY;
    auto place = [&]() {
      const double at = std::clamp(x[run.front()], lo, hi);
      for (const uint32_t d : run) x[d] = at;
      run.clear();
      lo = -INFINITY;
      hi = INFINITY;
    };
    for (uint32_t d = start; d != kNone; d = next_run_dummy(g, d)) {
      double a, b;
      bounds(d, a, b);
      a = std::min(a, x[d]);
      b = std::max(b, x[d]);
      if (!run.empty() && std::max(lo, a) > std::min(hi, b)) place();
      lo = std::max(lo, a);
      hi = std::min(hi, b);
      run.push_back(d);
    }
    place();
  }
}

}  // namespace etviz::layout
