#include "view/profile_figures.h"

#include <algorithm>

#include "analysis/profile_join.h"

namespace etviz::view {
namespace {

// The view whose root graph is the profiled method, or views.size().
size_t method_view(const Document& doc, std::span<const ViewModel> views,
                   const std::string& method) {
  for (size_t v = 0; v < views.size(); ++v)
    if (doc.graphs[static_cast<size_t>(views[v].root_graph)].name == method) return v;
  return views.size();
}

// View node index of (graph, node), or -1.
int32_t view_node(const ViewModel& view, int32_t graph, NodeId node) {
  for (size_t k = 0; k < view.nodes.size(); ++k)
    if (view.nodes[k].graph == graph && view.nodes[k].node == node) return static_cast<int32_t>(k);
  return -1;
}

}  // namespace

OverlayTarget overlay_target(const analysis::EventRow& row, const Document& doc,
                             std::span<const ViewModel> views, const std::string& method) {
  OverlayTarget target;
  target.view = method_view(doc, views, method);
  if (target.view >= views.size() || row.is_framework()) return target;
  const ViewModel& view = views[target.view];
  const Graph& graph = doc.graphs[static_cast<size_t>(view.root_graph)];
  NodeId call = kNoId;
  for (NodeId n = 0; n < static_cast<NodeId>(graph.nodes.size()); ++n) {
    const Provenance& p = graph.nodes[static_cast<size_t>(n)].provenance;
    if (p.instruction == row.instruction && p.chain == row.chain) {
      call = n;
      break;
    }
  }
  if (call == kNoId) return target;
  if (!row.has_delegate_debug_id()) {
    if (int32_t k = view_node(view, view.root_graph, call); k >= 0) target.nodes.push_back(k);
    return target;
  }
  // The join found the payload ops the event names (analysis/profile_join.cpp).
  const int32_t sub = row.join.payload_graph;
  if (sub < 0 || std::find(view.graphs.begin(), view.graphs.end(), sub) == view.graphs.end())
    return target;
  for (NodeId n : row.join.payload_nodes)
    if (int32_t k = view_node(view, sub, n); k >= 0) target.nodes.push_back(k);
  target.inside_delegate = !target.nodes.empty();
  return target;
}

std::map<int32_t, NodeFigures> profile_node_figures(const ProfileOverlay& overlay,
                                                    const Document& doc,
                                                    std::span<const ViewModel> views) {
  const analysis::ProfileStats& stats = *overlay.stats;
  // The method's own nodes from node_timings (the outermost event of each instruction), then
  // the ops inside decoded delegate payloads.
  const size_t mv = method_view(doc, views, overlay.method);
  std::map<int32_t, NodeFigures> timed;  // view node -> figures
  const double execute = stats.execute_total(overlay.block);
  if (mv < views.size()) {
    const ViewModel& view = views[mv];
    const Graph& graph = doc.graphs[static_cast<size_t>(view.root_graph)];
    const auto timings = analysis::node_timings(stats, graph, overlay.block);
    double node_sum = 0;
    for (const auto& t : timings) node_sum += t.stats.total;
    for (const auto& t : timings) {
      if (t.stats.count == 0) continue;
      const int32_t k = view_node(view, view.root_graph, t.node);
      if (k >= 0) timed[k] = {t.event, t.stats, t.share, false, -1};
    }
    const double denominator = execute > 0 ? execute : node_sum;
    for (const analysis::EventRow& row : stats.events) {
      if (row.block != overlay.block || !row.has_delegate_debug_id()) continue;
      const OverlayTarget target = overlay_target(row, doc, views, overlay.method);
      for (int32_t k : target.nodes) {
        NodeFigures& t = timed[k];
        if (t.s.count == 0 || row.stats.total > t.s.total)
          t = {row.name, row.stats, denominator > 0 ? row.stats.total / denominator : 0, true, -1};
      }
    }
  }
  return timed;
}

size_t profile_view(const Document& doc, std::span<const ViewModel> views,
                    const std::string& method) {
  return method_view(doc, views, method);
}

bool parse_heat_mode(std::string_view name, HeatMode& out) {
  if (name == "avg")
    out = HeatMode::kAvg;
  else if (name == "p90")
    out = HeatMode::kP90;
  else if (name == "share")
    out = HeatMode::kShare;
  else
    return false;
  return true;
}

double heat_figure(const NodeFigures& f, HeatMode mode, const analysis::TimeScale& scale) {
  switch (mode) {
    case HeatMode::kAvg:
      return scale.apply(f.s.avg);
    case HeatMode::kP90:
      return scale.apply(f.s.p90);
    case HeatMode::kShare:
      return f.share;
  }
  return 0.0;
}

}  // namespace etviz::view
