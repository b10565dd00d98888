#include "render/html/numerics_data.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/heat_scale.h"
#include "formats/json/json_string.h"
#include "render/json_text.h"

namespace etviz::render::html {
namespace {

using nlohmann::json;

// Non-finite figures as text ("inf", "nan"): JSON has no such numbers.
json figure(double x) {
  if (std::isfinite(x)) return x;
  if (std::isnan(x)) return "nan";
  return x > 0 ? "inf" : "-inf";
}

json stats_json(const analysis::TensorStats& s) {
  json j = {{"count", s.count},        {"nan", s.nan},         {"inf", s.inf},
            {"zeros", s.zeros},        {"min", figure(s.min)}, {"max", figure(s.max)},
            {"mean", figure(s.mean)},  {"std", figure(s.std)}, {"absMax", figure(s.abs_max)},
            {"histogram", s.histogram}};
  if (s.qmin) j["atQmin"] = s.at_qmin;
  if (s.qmax) j["atQmax"] = s.at_qmax;
  return j;
}

}  // namespace

std::string numerics_data_json(const NumericsPage& page, const Document& doc,
                               std::span<const view::ViewModel> views) {
  const analysis::NumericsReport& r = *page.report;
  json root;
  root["run"] = page.run_label;
  root["reference"] = page.reference_label;
  json thresholds = json::array();
  for (const auto& t : r.thresholds) thresholds.push_back(t.describe());
  root["thresholds"] = std::move(thresholds);
  root["warnings"] = r.warnings;
  root["firstDivergent"] = r.first_divergent ? json(*r.first_divergent) : json(nullptr);
  root["heat"] = {{"light", analysis::kHeatLight}, {"dark", analysis::kHeatDark}};

  // Per program node: the rows at it (a kernel logs each output; a delegate its events).
  std::map<std::pair<int32_t, NodeId>, std::vector<size_t>> rows_at;
  std::map<std::string, int32_t> graph_of;
  for (size_t g = 0; g < doc.graphs.size(); ++g)
    if (doc.graphs[g].kind == GraphKind::kMethod)
      graph_of.emplace(doc.graphs[g].name, static_cast<int32_t>(g));
  json rows = json::array();
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const analysis::NumericsRow& row = r.rows[i];
    const analysis::DebugEntry& e = row.has_run ? row.run : row.reference;
    json j = {{"name", e.name},
              {"instruction", e.instruction},
              {"output", e.is_output},
              {"status", analysis::to_string(row.status)},
              {"divergent", row.divergent}};
    if (e.has_delegate_debug_id()) j["delegateDebugId"] = e.delegate_debug_id();
    if (!row.join.op_types.empty()) j["op"] = row.join.op_types.front();
    if (!row.note.empty()) j["note"] = row.note;
    if (!row.crossed.empty()) j["crossed"] = row.crossed;
    j["tensor"] = fmt::format("{}[{}]", e.dtype, fmt::join(e.sizes, ", "));
    if (row.status == analysis::RowStatus::kCompared) {
      const auto& m = row.metrics;
      j["domain"] = analysis::to_string(*row.domain);
      j["mse"] = figure(m.mse);
      j["l1"] = figure(m.l1);
      j["snr"] = figure(m.snr_db);
      j["cosine"] = figure(m.cosine);
      j["maxAbs"] = figure(m.max_abs);
      j["differing"] = m.differing;
      j["nonfinite"] = {m.nan_reference, m.inf_reference, m.nan_run, m.inf_run};
      if (std::isfinite(m.mse) && m.mse > 0) {
        lo = std::min(lo, m.mse);
        hi = std::max(hi, m.mse);
      }
    }
    if (row.run_stats) j["runStats"] = stats_json(*row.run_stats);
    if (row.reference_stats) j["referenceStats"] = stats_json(*row.reference_stats);
    if (row.differences)
      j["differences"] = {{"lo", row.differences->lo},
                          {"hi", row.differences->hi},
                          {"counts", row.differences->counts}};
    rows.push_back(std::move(j));
    if (row.join.node == kNoId) continue;
    auto g = graph_of.find(row.join.method);
    if (g != graph_of.end()) rows_at[{g->second, row.join.node}].push_back(i);
  }
  root["rows"] = std::move(rows);
  root["mseRange"] = {std::isfinite(lo) ? lo : 0.0, hi};

  json graphs = json::array();
  for (size_t v = 0; v < views.size(); ++v) {
    json node = json::array(), row = json::array(), step = json::array();
    for (size_t k = 0; k < views[v].nodes.size(); ++k) {
      auto it = rows_at.find({views[v].nodes[k].graph, views[v].nodes[k].node});
      if (it == rows_at.end()) continue;
      // The node's row: its first divergent one, else its largest MSE.
      size_t best = it->second.front();
      double best_mse = -1;
      bool best_divergent = false;
      for (size_t i : it->second) {
        const auto& rr = r.rows[i];
        const double mse =
            rr.status == analysis::RowStatus::kCompared && std::isfinite(rr.metrics.mse)
                ? rr.metrics.mse
                : -1;
        if ((rr.divergent && !best_divergent) ||
            (rr.divergent == best_divergent && mse > best_mse)) {
          best = i;
          best_mse = mse;
          best_divergent = rr.divergent;
        }
      }
      node.push_back(k);
      row.push_back(best);
      // -1: compared and identical (or not compared): no heat.
      step.push_back(best_mse > 0 ? analysis::heat_step(best_mse, lo, hi, analysis::HeatScale::kLog)
                                  : -1);
    }
    if (node.empty()) continue;
    graphs.push_back({{"graph", v},
                      {"node", std::move(node)},
                      {"row", std::move(row)},
                      {"step", std::move(step)}});
  }
  root["graphs"] = std::move(graphs);
  return script_safe_json(json_text(root, -1));
}

}  // namespace etviz::render::html
