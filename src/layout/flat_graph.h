// One level of the compound graph: the direct content of a group (or of the top level),
// with child groups already reduced to boxes. Everything here is in the top-to-bottom
// frame; left-to-right layouts are transposed by the caller.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <vector>

#include "layout.h"

namespace etviz::layout {

// A double's bit pattern, for keys that must tell every value apart (-0.0 from 0.0).
// (std::bit_cast is missing from the libc++ of Debian's Emscripten.)
inline uint64_t double_bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Nodes that stand for the border of the enclosing group: edges entering the group start at
// a port in the first layer, edges leaving it end at a port in the last layer.
enum class Pin : uint8_t { kFree, kFirstLayer, kLastLayer };

struct FlatGraph {
  struct Node {
    double width = 0;
    double height = 0;
    Pin pin = Pin::kFree;
  };
  struct Edge {
    uint32_t source = 0;
    uint32_t target = 0;
    double source_offset = 0;  // port position, relative to the node's centre
    double target_offset = 0;
  };
  std::vector<Node> nodes;
  std::vector<Edge> edges;  // self-loops allowed
};

// Edge e's route: the first shared_count[e] points of edge shared_edge[e]'s route (an edge
// drawn along the same bundle trunk, which itself shares nothing; kNone: no shared points),
// then points[route_begin[e] .. route_begin[e + 1]). The points are held in blocks (a
// deque), filled as routing makes them: copied into one exactly sized vector they were, for
// a moment, twice the level's points (the heap's peak of per-head attention and of the U-Net
// at 200k nodes).
struct FlatLayout {
  std::vector<Point> centers;         // per node
  std::vector<uint32_t> route_begin;  // per edge, into points; size edges + 1
  std::deque<Point> points;           // source end first
  std::vector<uint32_t> shared_edge;  // per edge
  std::vector<uint32_t> shared_count;
  Rect bounds;  // nodes and routes

  // Appends edge e's whole route to `out`.
  void append_route(uint32_t e, std::vector<Point>& out) const {
    if (shared_edge[e] != kNone) {
      const auto leader = points.begin() + route_begin[shared_edge[e]];
      out.insert(out.end(), leader, leader + shared_count[e]);
    }
    out.insert(out.end(), points.begin() + route_begin[e], points.begin() + route_begin[e + 1]);
  }
};

// Runs the layered pipeline on one level. Node and edge order only matter as tie-breakers,
// which makes the result deterministic.
FlatLayout layout_flat(const FlatGraph& graph, const Options& options);

}  // namespace etviz::layout
