// One level of the compound graph: the direct content of a group (or of the top level),
// with child groups already reduced to boxes. Everything here is in the top-to-bottom
// frame; left-to-right layouts are transposed by the caller.
#pragma once

#include <cstdint>
#include <vector>

#include "layout.h"

namespace etviz::layout {

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

struct FlatLayout {
  std::vector<Point> centers;         // per node
  std::vector<uint32_t> route_begin;  // per edge, into points; size edges + 1
  std::vector<Point> points;          // source end first
  Rect bounds;                        // nodes and routes
};

// Runs the layered pipeline on one level. Node and edge order only matter as tie-breakers,
// which makes the result deterministic.
FlatLayout layout_flat(const FlatGraph& graph, const Options& options);

}  // namespace etviz::layout
