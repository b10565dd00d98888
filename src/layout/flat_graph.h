// One level of the compound graph: the direct content of a group (or of the top level),
// with child groups already reduced to boxes. Everything here is in the top-to-bottom
// frame; left-to-right layouts are transposed by the caller.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <unordered_map>
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

// Port positions relative to a node's centre are stored once per distinct value (bit
// pattern) in a table whose entry 0 is the centre, and edge ends refer to them by index: a
// model's ports take few values, so an end costs 4 B, not a double's 8. A PortTable adds to
// such a table while a graph is built (and its index goes with it).
class PortTable {
 public:
  explicit PortTable(std::vector<double>& values) : values_(values) {}
  uint32_t operator()(double offset) {
    const uint64_t key = double_bits(offset);
    if (key == 0) return 0;  // the centre: most ends, and every dummy's
    const auto [it, added] = index_.try_emplace(key, static_cast<uint32_t>(values_.size()));
    if (added) values_.push_back(offset);
    return it->second;
  }

 private:
  std::vector<double>& values_;
  std::unordered_map<uint64_t, uint32_t> index_;
};

// Gives a vector's memory back. (`v = {}` would not: it assigns an empty initializer list,
// which keeps the capacity.)
template <typename T>
void release(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

// Nodes that stand for the border of the enclosing group: edges entering the group start at
// a port in the first layer, edges leaving it end at a port in the last layer.
enum class Pin : uint8_t { kFree, kFirstLayer, kLastLayer };

struct FlatGraph {
  struct Node {
    double width = 0;
    double height = 0;
  };
  struct Edge {
    uint32_t source = 0;
    uint32_t target = 0;
    // Port positions relative to the nodes' centres, as indices into port_offsets (see
    // PortTable; 0: the centre). source_offset() and target_offset() read them.
    uint32_t source_port = 0;
    uint32_t target_port = 0;
  };
  std::vector<Node> nodes;
  std::vector<Edge> edges;  // self-loops allowed
  std::vector<double> port_offsets{0.0};
  // Per node, where it is pinned; empty while every node is free (a level without border
  // ports, the whole graph where there are no groups): 1 B per node where there are pins,
  // none where there are not (a pin in Node was 8 B of padding per node).
  std::vector<Pin> pins;

  Pin pin(uint32_t v) const { return pins.empty() ? Pin::kFree : pins[v]; }
  void add_node(double width, double height, Pin pin = Pin::kFree) {
    nodes.push_back({width, height});
    if (pin == Pin::kFree && pins.empty()) return;
    pins.resize(nodes.size(), Pin::kFree);
    pins.back() = pin;
  }
  double source_offset(const Edge& e) const { return port_offsets[e.source_port]; }
  double target_offset(const Edge& e) const { return port_offsets[e.target_port]; }
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
