// Building polylines without redundant points.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
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

// A leader's route built with append_point, traced: after each point added, the route's point
// count and its last point (which a later point may still replace). Routes of a bundle trunk
// share their leader's first points; a follower continues from the state after them instead
// of adding them again (per-head attention's branches would walk their trunk once each).
struct RouteTrace {
  std::vector<uint32_t> count;
  std::vector<Point> last;
  void record(const std::vector<Point>& points, std::size_t start) {
    count.push_back(static_cast<uint32_t>(points.size() - start));
    last.push_back(points.back());
  }
};

// A follower's route: its first `kept` points are the leader's (final there), the rest are in
// `tail`, which starts from the leader's state after their shared points; its first `same`
// points are the leader's.
struct FollowerRoute {
  const Point* leader = nullptr;
  uint32_t kept = 0;
  uint32_t same = 0;
  std::vector<Point>* tail = nullptr;

  std::size_t size() const { return kept + tail->size(); }
  Point operator()(std::size_t i) const { return i < kept ? leader[i] : (*tail)[i - kept]; }

  // The leader's first points that this route shares as drawn (never its last point; fewer
  // than two share nothing).
  std::size_t common_with_leader(std::size_t leader_count) const {
    const std::size_t limit = std::min(leader_count, size() - 1);
    std::size_t common = std::min<std::size_t>(same, limit);
    while (common < limit && leader[common].x == (*this)(common).x &&
           leader[common].y == (*this)(common).y)
      ++common;
    return common < 2 ? 0 : common;
  }
};

// The follower of `leader` (traced from `trace_at`, its first index in `trace`) whose first
// `shared` points added were the leader's, with `tail` set to the state after them; the
// follower's own points are then added to `tail` with append_point(tail, 0, p).
inline FollowerRoute follow(const Point* leader, const RouteTrace& trace, std::size_t trace_at,
                            uint32_t shared, std::vector<Point>& tail) {
  const uint32_t after = shared == 0 ? 0 : trace.count[trace_at + shared - 1];
  FollowerRoute route{leader, after >= 2 ? after - 2 : 0, after >= 2 ? after - 1 : 0, &tail};
  tail.clear();
  if (after >= 2) tail.push_back(leader[route.kept]);
  if (after >= 1) tail.push_back(trace.last[trace_at + shared - 1]);
  return route;
}

}  // namespace etviz::layout
