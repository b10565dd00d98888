// Building polylines without redundant points.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "layout.h"

namespace etviz::layout {

// Appends p to the polyline that starts at points[start], unless p (nearly) repeats the last
// point; if p continues the last segment in the same direction, the segment is extended
// instead, so straight runs keep two points.
inline void append_point(std::vector<Point>& points, std::size_t start, Point p) {
  constexpr double kSame = 1e-9;
  const std::size_t count = points.size() - start;
  if (count >= 1 && std::abs(points.back().x - p.x) < kSame &&
      std::abs(points.back().y - p.y) < kSame) {
    return;
  }
  if (count >= 2) {
    const Point a = points[points.size() - 2], b = points.back();
    const double cross = (b.x - a.x) * (p.y - b.y) - (b.y - a.y) * (p.x - b.x);
    const double dot = (b.x - a.x) * (p.x - b.x) + (b.y - a.y) * (p.y - b.y);
    if (std::abs(cross) < kSame && dot >= 0) {
      points.back() = p;
      return;
    }
  }
  points.push_back(p);
}

}  // namespace etviz::layout
