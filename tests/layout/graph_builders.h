// Deterministic graph generators for the layout tests.
#pragma once

#include <cstdint>

#include "layout.h"

namespace etviz::layout::testing {

// splitmix64: the same sequence on every platform (std distributions are not).
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
  bool chance(uint32_t percent) { return below(100) < percent; }

 private:
  uint64_t state_;
};

Node box(double width = 60, double height = 30, uint32_t group = kNone);

// Nodes in input order 0..n-1; each node gets 1-3 inputs from earlier nodes, mostly recent
// ones, sometimes far back (long edges).
Graph random_dag(uint32_t n, uint64_t seed);

// random_dag plus some edges pointing backwards (cycles), self-loops and duplicates.
Graph random_messy_graph(uint32_t n, uint64_t seed);

// random_dag with nodes spread over a tree of nested groups, some collapsed; edges between
// arbitrary groups. With ports on some edges.
Graph random_compound_graph(uint32_t n, uint64_t seed, bool collapse_some);

// 0 → 1 → ... → n-1.
Graph chain(uint32_t n);

}  // namespace etviz::layout::testing
