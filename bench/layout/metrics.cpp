#include "metrics.h"

#include <algorithm>
#include <cmath>

namespace etviz::bench {
namespace {

using Pt = std::pair<double, double>;

struct Piece {
  double upper_x, lower_x;
};

// Inversions of lower_x after sorting by upper_x; ties on either side never count.
uint64_t count_strict_inversions(std::vector<Piece>& pieces) {
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) {
    return a.upper_x != b.upper_x ? a.upper_x < b.upper_x : a.lower_x < b.lower_x;
  });
  std::vector<double> xs;
  xs.reserve(pieces.size());
  for (const Piece& p : pieces) xs.push_back(p.lower_x);
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  std::vector<uint32_t> tree(xs.size() + 1, 0);
  uint64_t inversions = 0, inserted = 0;
  // Pieces with equal upper_x are inserted only after the whole run is counted.
  for (size_t i = 0; i < pieces.size();) {
    size_t j = i;
    while (j < pieces.size() && pieces[j].upper_x == pieces[i].upper_x) {
      const size_t r = std::lower_bound(xs.begin(), xs.end(), pieces[j].lower_x) - xs.begin() + 1;
      uint64_t at_most = 0;
      for (size_t k = r; k > 0; k -= k & (~k + 1)) at_most += tree[k];
      inversions += inserted - at_most;
      ++j;
    }
    for (; i < j; ++i) {
      const size_t r = std::lower_bound(xs.begin(), xs.end(), pieces[i].lower_x) - xs.begin() + 1;
      for (size_t k = r; k < tree.size(); k += k & (~k + 1)) ++tree[k];
      ++inserted;
    }
  }
  return inversions;
}

}  // namespace

Metrics measure(const std::vector<Box>& nodes, const std::vector<DrawnEdge>& edges) {
  Metrics m;
  if (nodes.empty()) return m;
  double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  auto take = [&](double x, double y) {
    x0 = std::min(x0, x);
    y0 = std::min(y0, y);
    x1 = std::max(x1, x);
    y1 = std::max(y1, y);
  };
  std::vector<double> ys;
  for (const Box& b : nodes) {
    take(b.cx - b.width / 2, b.cy - b.height / 2);
    take(b.cx + b.width / 2, b.cy + b.height / 2);
    ys.push_back(b.cy);
  }
  std::sort(ys.begin(), ys.end());
  std::vector<double> levels;
  for (const double y : ys) {
    if (levels.empty() || y - levels.back() > 1) levels.push_back(y);
  }
  m.levels = static_cast<uint32_t>(levels.size());
  auto level_of = [&](double y) {  // the level a node centre belongs to
    auto it = std::upper_bound(levels.begin(), levels.end(), y);
    return static_cast<size_t>(it - levels.begin()) - 1;
  };

  std::vector<std::vector<Piece>> bands(levels.size());
  std::vector<Pt> path;
  std::vector<std::pair<size_t, double>> cuts;  // (level, x) along the path
  for (const DrawnEdge& e : edges) {
    const Box& s = nodes[e.source];
    const Box& t = nodes[e.target];
    path.assign(1, {s.cx, s.cy});
    for (const Pt& p : e.route) {
      take(p.first, p.second);
      path.push_back(p);
    }
    path.push_back({t.cx, t.cy});
    for (size_t i = 1; i < path.size(); ++i) {
      m.length +=
          std::hypot(path[i].first - path[i - 1].first, path[i].second - path[i - 1].second);
    }
    // Snap the ends to their levels, then record where the path meets each level line.
    path.front().second = levels[level_of(s.cy)];
    path.back().second = levels[level_of(t.cy)];
    cuts.clear();
    auto record = [&](size_t level, double x) {
      if (cuts.empty() || cuts.back().first != level) cuts.push_back({level, x});
    };
    for (size_t i = 1; i < path.size(); ++i) {
      const Pt a = path[i - 1], b = path[i];
      const double lo = std::min(a.second, b.second), hi = std::max(a.second, b.second);
      size_t first = std::lower_bound(levels.begin(), levels.end(), lo) - levels.begin();
      size_t last = std::upper_bound(levels.begin(), levels.end(), hi) - levels.begin();
      auto at = [&](size_t k) {
        const double y = levels[k];
        if (b.second == a.second) return a.first;
        return a.first + (b.first - a.first) * (y - a.second) / (b.second - a.second);
      };
      if (b.second >= a.second) {
        for (size_t k = first; k < last; ++k) record(k, at(k));
      } else {
        for (size_t k = last; k-- > first;) record(k, at(k));
      }
    }
    for (size_t i = 1; i < cuts.size(); ++i) {
      const auto [la, xa] = cuts[i - 1];
      const auto [lb, xb] = cuts[i];
      if (la + 1 == lb) bands[la].push_back({xa, xb});
      if (lb + 1 == la) bands[lb].push_back({xb, xa});
    }
  }
  for (auto& band : bands) m.crossings += count_strict_inversions(band);
  m.width = x1 - x0;
  m.height = y1 - y0;
  return m;
}

}  // namespace etviz::bench
