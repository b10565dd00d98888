// Compressed adjacency lists over a flat graph's edges.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "flat_graph.h"

namespace etviz::layout {

// Edge ids by node, in edge order: out(v) lists edges leaving v, in(v) edges entering v.
// Self-loops are left out; they take no part in layering or ordering.
class Adjacency {
 public:
  explicit Adjacency(const FlatGraph& graph);

  std::span<const uint32_t> out(uint32_t v) const {
    return {out_edges_.data() + out_begin_[v], out_edges_.data() + out_begin_[v + 1]};
  }
  std::span<const uint32_t> in(uint32_t v) const {
    return {in_edges_.data() + in_begin_[v], in_edges_.data() + in_begin_[v + 1]};
  }

 private:
  std::vector<uint32_t> out_begin_, out_edges_, in_begin_, in_edges_;
};

}  // namespace etviz::layout
