// Drawing-quality metrics computed the same way for every engine (see
// ../shared/bench-graphs/RESULTS.md, "Quality figures"): crossings between adjacent levels,
// total edge length, bounding-box area.
#pragma once

#include <cstdint>
#include <vector>

namespace etviz::bench {

struct Box {
  double cx, cy, width, height;
};

struct DrawnEdge {
  uint32_t source, target;
  std::vector<std::pair<double, double>> route;  // engine's points, without the centres
};

struct Metrics {
  uint64_t crossings = 0;
  double length = 0;
  double width = 0, height = 0;
  uint32_t levels = 0;
};

// Levels are the distinct node-centre y values (1 px tolerance). Each edge is the path
// source centre → route → target centre, cut at every level line it spans; two pieces in a
// band cross iff their left-to-right order swaps strictly.
Metrics measure(const std::vector<Box>& nodes, const std::vector<DrawnEdge>& edges);

}  // namespace etviz::bench
