#pragma once
// Runs of dummies down a chain or a trunk, and setting each run to one x: one definition for
// the coordinate sweeps (a dummy per layer, coordinate_sweeps.cpp) and the coordinates with
// spans (span_coordinates.cpp), which straighten the same way.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "layered_graph.h"
#include "layout.h"

namespace etviz::layout {

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
