#include "render/html/profile_data.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis/heat_scale.h"
#include "analysis/profile_join.h"
#include "formats/json/json_string.h"
#include "render/json_text.h"

namespace etviz::render::html {
namespace {

using nlohmann::json;

// Raw ticks in the displayed unit.
double shown(double ticks, const analysis::TimeScale& scale) {
  return scale.apply(ticks);
}

}  // namespace

std::string profile_data_json(const view::ProfileOverlay& overlay, const Document& doc,
                              std::span<const view::ViewModel> views) {
  const analysis::ProfileStats& stats = *overlay.stats;
  const analysis::TimeScale& scale = overlay.scale;
  json root;
  root["file"] = overlay.file_name;
  root["block"] = overlay.block;
  root["method"] = overlay.method;
  root["unit"] = scale.label();
  root["executeTotal"] = shown(stats.execute_total(overlay.block), scale);
  root["warnings"] = overlay.warnings;
  root["blocks"] = stats.blocks;
  // The heat scale's colours (analysis/heat_scale.h): one definition for page and pictures.
  json heat_light = json::array(), heat_dark = json::array();
  for (std::string_view c : analysis::kHeatLight) heat_light.push_back(std::string(c));
  for (std::string_view c : analysis::kHeatDark) heat_dark.push_back(std::string(c));
  root["heat"] = {{"light", std::move(heat_light)}, {"dark", std::move(heat_dark)}};

  json method_events = json::array();
  for (const analysis::EventRow& row : stats.method_events) {
    if (row.block != overlay.block) continue;
    method_events.push_back({{"name", row.name},
                             {"count", row.stats.count},
                             {"avg", shown(row.stats.avg, scale)},
                             {"total", shown(row.stats.total, scale)}});
  }
  root["methodEvents"] = std::move(method_events);

  const size_t mv = view::profile_view(doc, views, overlay.method);
  std::map<int32_t, view::NodeFigures> timed = view::profile_node_figures(overlay, doc, views);
  const double execute = stats.execute_total(overlay.block);

  json rows = json::array();
  // Nested events (native_call_* in OPERATOR_CALL, a backend's events in DELEGATE_CALL) name
  // the row they are inside ("in"), so the table lists them under it and counts them once.
  const std::vector<int32_t> enclosing = analysis::enclosing_rows(stats.events);
  std::vector<int64_t> page_row(stats.events.size(), -1);
  for (size_t e = 0, k = 0; e < stats.events.size(); ++e)
    if (stats.events[e].block == overlay.block) page_row[e] = static_cast<int64_t>(k++);
  for (size_t e = 0; e < stats.events.size(); ++e) {
    const analysis::EventRow& row = stats.events[e];
    if (row.block != overlay.block) continue;
    const view::OverlayTarget target = view::overlay_target(row, doc, views, overlay.method);
    json r = {{"name", row.name},
              {"chain", row.chain},
              {"instr", row.instruction},
              {"count", row.stats.count},
              {"avg", shown(row.stats.avg, scale)},
              {"p10", shown(row.stats.p10, scale)},
              {"p50", shown(row.stats.p50, scale)},
              {"p90", shown(row.stats.p90, scale)},
              {"min", shown(row.stats.min, scale)},
              {"max", shown(row.stats.max, scale)},
              {"total", shown(row.stats.total, scale)},
              {"share", execute > 0 ? row.stats.total / execute : 0.0},
              {"graph", target.nodes.empty() ? -1 : static_cast<int64_t>(target.view)},
              {"nodes", target.nodes},
              {"inside", target.inside_delegate}};
    if (row.has_delegate_debug_id()) r["did"] = row.delegate_debug_id();
    if (enclosing[e] >= 0 && page_row[static_cast<size_t>(enclosing[e])] >= 0)
      r["in"] = page_row[static_cast<size_t>(enclosing[e])];
    std::string ops;
    for (const auto& op : row.join.op_types) ops += (ops.empty() ? "" : ", ") + op;
    r["op"] = ops;
    r["backend"] = row.join.backend;
    if (row.join.delegated) r["delegated"] = *row.join.delegated;
    std::string modules;
    for (const auto& m : row.join.module_paths) modules += (modules.empty() ? "" : ", ") + m;
    r["module"] = modules;
    // The node's figures come from this row when it is the event chosen for the node.
    for (int32_t k : target.nodes) {
      auto it = timed.find(k);
      if (it != timed.end() && it->second.row < 0 && it->second.event == row.name &&
          it->second.s.total == row.stats.total)
        it->second.row = static_cast<int32_t>(rows.size());
    }
    rows.push_back(std::move(r));
  }
  root["rows"] = std::move(rows);

  json graphs = json::array();
  if (mv < views.size() && !timed.empty()) {
    json g = {{"graph", mv}};
    json node = json::array(), event = json::array(), count = json::array(), avg = json::array(),
         p10 = json::array(), p50 = json::array(), p90 = json::array(), mn = json::array(),
         mx = json::array(), total = json::array(), share = json::array(), inside = json::array(),
         row = json::array();
    for (const auto& [k, t] : timed) {
      node.push_back(k);
      event.push_back(t.event);
      count.push_back(t.s.count);
      avg.push_back(shown(t.s.avg, scale));
      p10.push_back(shown(t.s.p10, scale));
      p50.push_back(shown(t.s.p50, scale));
      p90.push_back(shown(t.s.p90, scale));
      mn.push_back(shown(t.s.min, scale));
      mx.push_back(shown(t.s.max, scale));
      total.push_back(shown(t.s.total, scale));
      share.push_back(t.share);
      inside.push_back(t.inside ? 1 : 0);
      row.push_back(t.row);
    }
    g["node"] = std::move(node);
    g["event"] = std::move(event);
    g["count"] = std::move(count);
    g["avg"] = std::move(avg);
    g["p10"] = std::move(p10);
    g["p50"] = std::move(p50);
    g["p90"] = std::move(p90);
    g["min"] = std::move(mn);
    g["max"] = std::move(mx);
    g["total"] = std::move(total);
    g["share"] = std::move(share);
    g["inside"] = std::move(inside);
    g["row"] = std::move(row);
    graphs.push_back(std::move(g));
  }
  root["graphs"] = std::move(graphs);

  return script_safe_json(json_text(root, -1));
}

}  // namespace etviz::render::html
