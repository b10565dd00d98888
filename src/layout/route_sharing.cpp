#include "route_sharing.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace etviz::layout {

double round_tenth(double v) {
  if (!std::isfinite(v)) return 0;
  const double r = std::round(v * 10) / 10;
  // No negative zero: the page's text columns write -0.0 as "0", and a value the engine
  // leaves a hair left of 0 (-0.04) must read back equal to what the page's engine gives.
  return r == 0 ? 0.0 : r;
}

SharedRoutes share_routes(const Layout& layout, const std::vector<uint32_t>& edge_source) {
  const size_t m = layout.edges.size();
  SharedRoutes out;
  out.share.assign(m, -1);
  out.share_count.assign(m, 0);
  out.offsets.assign(m + 1, 0);
  // Routes are read in place (the engine already stores a bundle's common points once), with
  // what lies outside the points array (a hand-made layout) treated as absent.
  const size_t stored = layout.points.size();
  auto own_count = [&](const EdgeRoute& r) {
    const size_t begin = std::min<size_t>(r.first_point, stored);
    const size_t own = r.point_count - std::min(r.shared_count, r.point_count);
    return std::min(own, stored - begin);
  };
  auto shared_count = [&](const EdgeRoute& r) -> size_t {
    if (r.shared_count == 0 || r.shared_edge >= m) return 0;
    const EdgeRoute& lead = layout.edges[r.shared_edge];
    return std::min<size_t>(r.shared_count, stored - std::min<size_t>(lead.first_point, stored));
  };
  auto length = [&](size_t e) {
    return shared_count(layout.edges[e]) + own_count(layout.edges[e]);
  };
  auto rounded = [&](size_t e, size_t i) {
    const EdgeRoute& r = layout.edges[e];
    const size_t shared = shared_count(r);
    const Point& p = i < shared ? layout.points[layout.edges[r.shared_edge].first_point + i]
                                : layout.points[r.first_point + (i - shared)];
    return Point{round_tenth(p.x), round_tenth(p.y)};
  };
  // The last (up to) 8 edges seen per source, in a ring.
  constexpr size_t kRecent = 8;
  uint32_t sources = 0;
  for (size_t e = 0; e < m; ++e)
    if (e < edge_source.size()) sources = std::max(sources, edge_source[e] + 1);
  std::vector<std::array<int32_t, kRecent>> recent(sources);
  std::vector<uint8_t> seen(sources, 0);
  for (size_t e = 0; e < m; ++e) {
    const size_t route_length = length(e);
    int32_t best = -1;
    size_t best_n = 0;
    const uint32_t src = e < edge_source.size() ? edge_source[e] : kNone;
    if (src != kNone && route_length > 0) {
      auto& ring = recent[src];
      for (size_t k = 0; k < seen[src]; ++k) {
        const auto f = static_cast<size_t>(ring[k]);
        const size_t limit = std::min(length(f), route_length - 1);
        size_t n = 0;
        while (n < limit && rounded(f, n) == rounded(e, n)) ++n;
        if (n > best_n) {
          best_n = n;
          best = static_cast<int32_t>(f);
        }
      }
      if (seen[src] < kRecent)
        ring[seen[src]++] = static_cast<int32_t>(e);
      else
        ring[kRecent - 1] = static_cast<int32_t>(e);
    }
    const size_t start = best_n >= 3 ? best_n : 0;
    if (start) {
      out.share[e] = best;
      out.share_count[e] = static_cast<int32_t>(start);
    }
    for (size_t k = start; k < route_length; ++k) {
      const Point p = rounded(e, k);
      out.coords.push_back(p.x);
      out.coords.push_back(p.y);
    }
    out.offsets[e + 1] = static_cast<uint32_t>(out.coords.size() / 2);
  }
  return out;
}

SharedRoutes spread_routes(const SharedRoutes& laid_out, const std::vector<bool>& laid) {
  const size_t m = laid.size();
  SharedRoutes out;
  out.share.assign(m, -1);
  out.share_count.assign(m, 0);
  out.offsets.assign(m + 1, 0);
  std::vector<int32_t> model_edge;  // laid-out edge -> model edge
  for (size_t e = 0; e < m; ++e)
    if (laid[e]) model_edge.push_back(static_cast<int32_t>(e));
  const size_t k_count = std::min(model_edge.size(), laid_out.share.size());
  for (size_t e = 0, k = 0; e < m; ++e) {
    uint32_t count = 0;
    if (laid[e] && k < k_count) {
      count = laid_out.offsets[k + 1] - laid_out.offsets[k];
      const int32_t s = laid_out.share[k];
      if (s >= 0 && static_cast<size_t>(s) < model_edge.size()) {
        out.share[e] = model_edge[static_cast<size_t>(s)];
        out.share_count[e] = laid_out.share_count[k];
      }
      ++k;
    }
    out.offsets[e + 1] = out.offsets[e] + count;
  }
  // Laid-out edges keep the model's order, so their points do too.
  out.coords.assign(laid_out.coords.begin(),
                    laid_out.coords.begin() + 2 * static_cast<std::ptrdiff_t>(out.offsets[m]));
  return out;
}

}  // namespace etviz::layout
