#include "render/numerics_report.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "render/figures.h"
#include "render/json_text.h"
#include "render/table.h"

namespace etviz::render {
namespace {

using analysis::NumericsRow;
using analysis::RowStatus;
using nlohmann::json;

const analysis::DebugEntry& entry_of(const NumericsRow& r) {
  return r.has_run ? r.run : r.reference;
}

std::string where(const NumericsRow& r) {
  const auto& e = entry_of(r);
  if (e.is_output) return fmt::format("output {}", r.occurrence);
  std::string s =
      e.chain > 0 ? fmt::format("{}:{}", e.chain, e.instruction) : std::to_string(e.instruction);
  if (e.has_delegate_debug_id()) s += " [" + e.delegate_debug_id() + "]";
  return s;
}

std::string op_text(const NumericsRow& r) {
  std::string ops;
  for (const auto& op : r.join.op_types) ops += (ops.empty() ? "" : ", ") + op;
  if (ops.empty()) ops = r.join.backend;
  if (ops.empty()) ops = entry_of(r).name;
  return ops;
}

std::string tensor_text(const analysis::DebugEntry& e) {
  if (e.kind == ProfileValue::Kind::kNull) return "";
  if (e.kind != ProfileValue::Kind::kTensor && e.kind != ProfileValue::Kind::kTensorList)
    return fmt::format("{} {}", to_string(e.kind), figure_text(e.scalar));
  return fmt::format("{}[{}]", e.dtype, fmt::join(e.sizes, ", "));
}

std::string nonfinite_text(const analysis::TensorComparison& m) {
  if (!m.has_nonfinite()) return "";
  return fmt::format("{}/{} | {}/{}{}", m.nan_reference, m.inf_reference, m.nan_run, m.inf_run,
                     m.nonfinite_mismatch ? fmt::format(" ({} differ)", m.nonfinite_mismatch) : "");
}

json side_json(const analysis::DebugEntry& e) {
  json j = {{"kind", to_string(e.kind)}};
  if (e.kind == ProfileValue::Kind::kTensor || e.kind == ProfileValue::Kind::kTensorList) {
    j["dtype"] = e.dtype;
    j["shape"] = e.sizes;
    if (e.offset >= 0) j["offset"] = e.offset;
    if (e.nbytes >= 0) j["nbytes"] = e.nbytes;
    if (e.data && e.data->quant) {
      const auto& q = *e.data->quant;
      j["quantization"] = {{"scales", q.scales},
                           {"zero_points", q.zero_points},
                           {"axis", q.axis},
                           {"source", q.source}};
    }
  } else if (e.kind != ProfileValue::Kind::kNull) {
    j["value"] = figure_json<json>(e.scalar);
  }
  if (!e.name.empty()) j["name"] = e.name;
  if (!e.missing.empty()) j["missing"] = e.missing;
  return j;
}

json stats_json(const analysis::TensorStats& s) {
  json j = {{"count", s.count},
            {"finite", s.finite},
            {"nan", s.nan},
            {"inf", s.inf},
            {"zeros", s.zeros},
            {"min", figure_json<json>(s.min)},
            {"max", figure_json<json>(s.max)},
            {"mean", figure_json<json>(s.mean)},
            {"std", figure_json<json>(s.std)},
            {"abs_max", figure_json<json>(s.abs_max)},
            {"histogram", s.histogram}};
  if (s.qmin) {
    j["qmin"] = *s.qmin;
    j["at_qmin"] = s.at_qmin;
  }
  if (s.qmax) {
    j["qmax"] = *s.qmax;
    j["at_qmax"] = s.at_qmax;
  }
  if (s.dequantized) j["dequantized"] = true;
  return j;
}

json row_json(const NumericsRow& r, size_t index) {
  const auto& e = entry_of(r);
  json j = {{"index", index},
            {"name", e.name},
            {"chain", e.chain},
            {"instruction", e.instruction},
            {"output", e.is_output},
            {"tensor", e.tensor_index},
            {"occurrence", r.occurrence},
            {"status", to_string(r.status)}};
  if (e.has_delegate_debug_id()) j["delegate_debug_id"] = e.delegate_debug_id();
  if (!r.note.empty()) j["note"] = r.note;
  if (!r.join.op_types.empty())
    j["op"] = r.join.op_types.size() == 1 ? json(r.join.op_types.front()) : json(r.join.op_types);
  if (r.join.node != kNoId) j["node"] = r.join.node;
  if (!r.join.backend.empty()) j["backend"] = r.join.backend;
  if (r.join.delegated) j["delegated"] = *r.join.delegated;
  if (!r.join.module_paths.empty()) j["module_hierarchy"] = r.join.module_paths;
  if (r.has_run) j["run"] = side_json(r.run);
  if (r.has_reference) j["reference"] = side_json(r.reference);
  if (r.status == RowStatus::kCompared) {
    const auto& m = r.metrics;
    j["domain"] = to_string(*r.domain);
    j["elements"] = m.elements;
    j["mse"] = figure_json<json>(m.mse);
    j["l1"] = figure_json<json>(m.l1);
    j["snr"] = figure_json<json>(m.snr_db);
    j["cosine"] = figure_json<json>(m.cosine);
    j["max_abs"] = figure_json<json>(m.max_abs);
    j["mean_abs"] = figure_json<json>(m.mean_abs);
    j["max_rel"] = figure_json<json>(m.max_rel);
    j["differing"] = m.differing;
    json first = json::array();
    for (const auto& d : m.first)
      first.push_back({{"index", d.index},
                       {"reference", figure_json<json>(d.reference)},
                       {"run", figure_json<json>(d.run)}});
    j["first_differences"] = std::move(first);
    j["nan_run"] = m.nan_run;
    j["inf_run"] = m.inf_run;
    j["nan_reference"] = m.nan_reference;
    j["inf_reference"] = m.inf_reference;
    j["nonfinite_mismatch"] = m.nonfinite_mismatch;
    j["nonfinite"] = m.has_nonfinite();
    j["divergent"] = r.divergent;
    if (!r.crossed.empty()) j["crossed"] = r.crossed;
  }
  if (r.run_stats) j["run"]["stats"] = stats_json(*r.run_stats);
  if (r.reference_stats) j["reference"]["stats"] = stats_json(*r.reference_stats);
  if (r.differences)
    j["differences"] = {
        {"lo", r.differences->lo}, {"hi", r.differences->hi}, {"counts", r.differences->counts}};
  return j;
}

size_t divergent_count(const analysis::NumericsReport& r) {
  size_t n = 0;
  for (const auto& row : r.rows) n += row.divergent;
  return n;
}

std::string thresholds_text(const analysis::NumericsReport& r) {
  std::string s;
  for (const auto& t : r.thresholds) s += (s.empty() ? "" : " or ") + t.describe();
  return s.empty() ? "none" : s;
}

}  // namespace

std::string numerics_text(const NumericsReportView& v) {
  const analysis::NumericsReport& r = *v.report;
  std::string out;
  out += fmt::format("Run {} vs reference {}\n", v.run_label, v.reference_label);
  if (!v.program_path.empty())
    out += fmt::format("Program {}: method '{}'\n", v.program_path, v.method);
  out += fmt::format(
      "{} matched, {} compared, {} shape/dtype/layout mismatches, {} without data, {} unmatched "
      "run events, {} unmatched reference events\n",
      r.matched, r.compared, r.mismatched, r.missing, r.unmatched_run, r.unmatched_reference);
  out += fmt::format("Divergent when {} (or NaN/Inf on one side only): {} of {} compared\n",
                     thresholds_text(r), divergent_count(r), r.compared);
  if (r.first_divergent) {
    const NumericsRow& f = r.rows[*r.first_divergent];
    out += fmt::format("First divergent: row {} at {} {} ({}): MSE {}, SNR {} dB\n",
                       *r.first_divergent, entry_of(f).is_output ? "" : "instruction", where(f),
                       op_text(f), figure_text(f.metrics.mse), figure_text(f.metrics.snr_db));
  } else {
    out += "First divergent: none\n";
  }
  for (const auto& w : v.warnings) out += "warning: " + w + "\n";
  out += "\n";
  Table t({"#", "instr", "op", "run tensor", "status", "MSE", "L1", "SNR (dB)", "cosine", "max |Δ|",
           "NaN/Inf ref | run", ""},
          {Align::kRight, Align::kRight, Align::kLeft, Align::kLeft, Align::kLeft, Align::kRight,
           Align::kRight, Align::kRight, Align::kRight, Align::kRight, Align::kLeft, Align::kLeft});
  t.set_shrinkable({2, 3});
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const NumericsRow& row = r.rows[i];
    const bool compared = row.status == RowStatus::kCompared;
    const auto& m = row.metrics;
    std::string mark;
    if (r.first_divergent && *r.first_divergent == i)
      mark = "◀ first divergent";
    else if (row.divergent)
      mark = "divergent";
    if (!compared && !row.note.empty()) mark = row.note;
    t.add_row({std::to_string(i), where(row), op_text(row),
               tensor_text(row.has_run ? row.run : row.reference),
               compared ? std::string(to_string(*row.domain)) : to_string(row.status),
               compared ? figure_text(m.mse) : "", compared ? figure_text(m.l1) : "",
               compared ? figure_text(m.snr_db) : "", compared ? figure_text(m.cosine) : "",
               compared ? figure_text(m.max_abs) : "", compared ? nonfinite_text(m) : "", mark});
  }
  out += t.to_text("", v.max_width);
  return out;
}

std::string numerics_csv(const NumericsReportView& v) {
  const analysis::NumericsReport& r = *v.report;
  Table t({"index",
           "name",
           "chain",
           "instruction",
           "delegate_debug_id",
           "output",
           "tensor",
           "occurrence",
           "op",
           "status",
           "domain",
           "run_dtype",
           "run_shape",
           "reference_dtype",
           "reference_shape",
           "elements",
           "mse",
           "l1",
           "snr",
           "cosine",
           "max_abs",
           "mean_abs",
           "max_rel",
           "differing",
           "nan_reference",
           "inf_reference",
           "nan_run",
           "inf_run",
           "nonfinite_mismatch",
           "divergent",
           "first_divergent",
           "note"});
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const NumericsRow& row = r.rows[i];
    const auto& e = entry_of(row);
    const bool c = row.status == RowStatus::kCompared;
    const auto& m = row.metrics;
    auto shape = [](const analysis::DebugEntry& x) {
      return x.kind == ProfileValue::Kind::kNull ? std::string()
                                                 : fmt::format("[{}]", fmt::join(x.sizes, ", "));
    };
    t.add_row({std::to_string(i),
               e.name,
               std::to_string(e.chain),
               std::to_string(e.instruction),
               e.delegate_debug_id(),
               e.is_output ? "1" : "0",
               std::to_string(e.tensor_index),
               std::to_string(row.occurrence),
               op_text(row),
               to_string(row.status),
               c ? to_string(*row.domain) : "",
               row.has_run ? row.run.dtype : "",
               shape(row.run),
               row.has_reference ? row.reference.dtype : "",
               shape(row.reference),
               c ? std::to_string(m.elements) : "",
               c ? figure_text(m.mse) : "",
               c ? figure_text(m.l1) : "",
               c ? figure_text(m.snr_db) : "",
               c ? figure_text(m.cosine) : "",
               c ? figure_text(m.max_abs) : "",
               c ? figure_text(m.mean_abs) : "",
               c ? figure_text(m.max_rel) : "",
               c ? std::to_string(m.differing) : "",
               c ? std::to_string(m.nan_reference) : "",
               c ? std::to_string(m.inf_reference) : "",
               c ? std::to_string(m.nan_run) : "",
               c ? std::to_string(m.inf_run) : "",
               c ? std::to_string(m.nonfinite_mismatch) : "",
               row.divergent ? "1" : "0",
               r.first_divergent && *r.first_divergent == i ? "1" : "0",
               row.note.empty() ? row.crossed : row.note});
  }
  return t.to_csv();
}

std::string numerics_json(const NumericsReportView& v) {
  const analysis::NumericsReport& r = *v.report;
  json root;
  root["schema"] = "etviz.numerics/1";
  root["run"] = v.run_path;
  root["run_label"] = v.run_label;
  root["reference"] = v.reference_path;
  root["reference_label"] = v.reference_label;
  root["reference_kind"] = v.reference_kind;
  if (!v.program_path.empty()) {
    root["program"] = v.program_path;
    root["method"] = v.method;
  }
  json thresholds = json::array();
  for (const auto& t : r.thresholds)
    thresholds.push_back(
        {{"metric", to_string(t.metric)}, {"value", t.value}, {"rule", t.describe()}});
  root["thresholds"] = std::move(thresholds);
  root["summary"] = {{"matched", r.matched},
                     {"compared", r.compared},
                     {"mismatched", r.mismatched},
                     {"missing_data", r.missing},
                     {"not_numeric", r.not_numeric},
                     {"unmatched_run", r.unmatched_run},
                     {"unmatched_reference", r.unmatched_reference},
                     {"divergent", divergent_count(r)}};
  json rows = json::array();
  for (size_t i = 0; i < r.rows.size(); ++i) rows.push_back(row_json(r.rows[i], i));
  if (r.first_divergent) {
    const NumericsRow& f = r.rows[*r.first_divergent];
    const auto& e = entry_of(f);
    json fd = {{"row", *r.first_divergent},
               {"name", e.name},
               {"chain", e.chain},
               {"instruction", e.instruction},
               {"output", e.is_output},
               {"op", op_text(f)},
               {"crossed", f.crossed},
               {"mse", figure_json<json>(f.metrics.mse)},
               {"l1", figure_json<json>(f.metrics.l1)},
               {"snr", figure_json<json>(f.metrics.snr_db)},
               {"cosine", figure_json<json>(f.metrics.cosine)},
               {"max_abs", figure_json<json>(f.metrics.max_abs)}};
    if (e.has_delegate_debug_id()) fd["delegate_debug_id"] = e.delegate_debug_id();
    if (f.join.node != kNoId) fd["node"] = f.join.node;
    root["first_divergent"] = std::move(fd);
  } else {
    root["first_divergent"] = nullptr;
  }
  root["rows"] = std::move(rows);
  root["warnings"] = v.warnings;
  return json_report(root);
}

std::string constant_stats_text(const std::vector<ConstantStatsRow>& rows, const std::string& file,
                                size_t max_width) {
  std::string out = fmt::format("Constants of {}: {} tensors\n\n", file, rows.size());
  Table t({"graph", "constant", "dtype", "shape", "min", "max", "mean", "std", "abs max", "zeros",
           "NaN", "Inf", "at qmin/qmax", "note"},
          {Align::kLeft, Align::kLeft, Align::kLeft, Align::kLeft, Align::kRight, Align::kRight,
           Align::kRight, Align::kRight, Align::kRight, Align::kRight, Align::kRight, Align::kRight,
           Align::kRight, Align::kLeft});
  t.set_shrinkable({1, 13});
  for (const auto& r : rows) {
    const auto& s = r.stats;
    const bool has = s.count > 0;
    std::string sat;
    if (has && (s.qmin || s.qmax) && s.count)
      sat = fmt::format("{:.2f}% / {:.2f}%", 100.0 * double(s.at_qmin) / double(s.count),
                        100.0 * double(s.at_qmax) / double(s.count));
    t.add_row({r.graph, r.name, r.dtype, r.shape, has ? figure_text(s.min) : "",
               has ? figure_text(s.max) : "", has ? figure_text(s.mean) : "",
               has ? figure_text(s.std) : "", has ? figure_text(s.abs_max) : "",
               has ? with_thousands(static_cast<int64_t>(s.zeros)) : "",
               has ? std::to_string(s.nan) : "", has ? std::to_string(s.inf) : "", sat,
               r.missing.empty() ? r.quantization : r.missing});
  }
  out += t.to_text("", max_width);
  return out;
}

std::string constant_stats_csv(const std::vector<ConstantStatsRow>& rows) {
  Table t({"graph", "name", "dtype", "shape",   "nbytes",  "location",     "count",
           "min",   "max",  "mean",  "std",     "abs_max", "zeros",        "nan",
           "inf",   "qmin", "qmax",  "at_qmin", "at_qmax", "quantization", "missing"});
  for (const auto& r : rows) {
    const auto& s = r.stats;
    const bool has = s.count > 0;
    t.add_row({r.graph,
               r.name,
               r.dtype,
               r.shape,
               std::to_string(r.nbytes),
               r.location,
               std::to_string(s.count),
               has ? figure_text(s.min) : "",
               has ? figure_text(s.max) : "",
               has ? figure_text(s.mean) : "",
               has ? figure_text(s.std) : "",
               has ? figure_text(s.abs_max) : "",
               std::to_string(s.zeros),
               std::to_string(s.nan),
               std::to_string(s.inf),
               s.qmin ? std::to_string(*s.qmin) : "",
               s.qmax ? std::to_string(*s.qmax) : "",
               std::to_string(s.at_qmin),
               std::to_string(s.at_qmax),
               r.quantization,
               r.missing});
  }
  return t.to_csv();
}

std::string constant_stats_json(const std::vector<ConstantStatsRow>& rows, const std::string& file,
                                const std::vector<std::string>& warnings) {
  json out = json::array();
  for (const auto& r : rows) {
    json j = {{"graph", r.graph}, {"name", r.name},     {"dtype", r.dtype},
              {"shape", r.shape}, {"nbytes", r.nbytes}, {"location", r.location}};
    if (!r.quantization.empty()) j["quantization"] = r.quantization;
    if (!r.missing.empty())
      j["missing"] = r.missing;
    else
      j["stats"] = stats_json(r.stats);
    out.push_back(std::move(j));
  }
  return json_report(json{{"file", file}, {"constants", std::move(out)}, {"warnings", warnings}});
}

}  // namespace etviz::render
