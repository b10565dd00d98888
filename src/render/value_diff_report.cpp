#include "render/value_diff_report.h"

#include <fmt/format.h>

#include <cmath>

#include "render/figures.h"
#include "render/json_text.h"
#include "render/table.h"

namespace etviz::render {
namespace {

using analysis::DataStatus;
using analysis::TensorComparison;
using analysis::TensorDiff;
using analysis::ValueDiff;
using nlohmann::ordered_json;

std::string index_text(const std::vector<int64_t>& index) {
  std::string s = "[";
  for (size_t i = 0; i < index.size(); ++i) s += (i ? ", " : "") + std::to_string(index[i]);
  return s + "]";
}

std::string readers_text(const std::vector<analysis::ValueReader>& readers, int64_t total) {
  if (readers.empty()) return "read by no node";
  std::string s = "read by ";
  for (size_t i = 0; i < readers.size(); ++i) {
    const auto& r = readers[i];
    s += (i ? ", " : "") + fmt::format("{} ({}{}{})", r.node_name, r.op,
                                       r.argument.empty() ? "" : " arg ", r.argument);
  }
  if (total > static_cast<int64_t>(readers.size()))
    s += fmt::format(" and {} more", total - static_cast<int64_t>(readers.size()));
  return s;
}

std::string stats_line(const TensorComparison& s, analysis::Domain domain) {
  const double share =
      s.positions ? 100.0 * static_cast<double>(s.differing) / static_cast<double>(s.positions) : 0;
  const char* in = domain == analysis::Domain::kInteger ? " (integers)"
                   : domain == analysis::Domain::kBytes ? " (bytes)"
                                                        : "";
  std::string line = fmt::format(
      "{} of {} elements differ ({:.3g}%){}; max |diff| {}, mean |diff| {}, max rel {}, cosine "
      "{}, SNR {} dB",
      s.differing, s.positions, share, in, figure_text(s.max_abs), figure_text(s.mean_abs),
      figure_text(s.max_rel), figure_text(s.cosine), figure_text(s.snr_db));
  if (s.has_nonfinite())
    line += fmt::format("; NaN A {} B {}, Inf A {} B {} (left out of the figures)", s.nan_reference,
                        s.nan_run, s.inf_reference, s.inf_run);
  return line;
}

std::string first_text(const TensorComparison& s) {
  if (s.first.empty()) return "";
  std::string line = "first: ";
  for (size_t i = 0; i < s.first.size(); ++i)
    line += (i ? "; " : "") + fmt::format("{} {} -> {}", index_text(s.first[i].index),
                                          figure_text(s.first[i].reference),
                                          figure_text(s.first[i].run));
  if (s.differing > s.first.size())
    line += fmt::format("; ... {} more", s.differing - s.first.size());
  return line;
}

std::string field_text(const std::vector<analysis::FieldChange>& fields) {
  std::string s;
  for (const auto& f : fields)
    s += (s.empty() ? "" : "; ") + fmt::format("{} {} -> {}", f.field, f.a, f.b);
  return s;
}

std::string counts_line(const ValueDiff& v) {
  auto pair = [](int64_t a, int64_t b) {
    return a == b ? std::to_string(a) : fmt::format("{} -> {}", a, b);
  };
  auto list = [](const std::vector<int64_t>& xs) {
    std::string s = "[";
    for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + std::to_string(xs[i]);
    return s + "]";
  };
  std::string s = fmt::format("{} values, {} instructions", pair(v.values_a, v.values_b),
                              pair(v.instructions_a, v.instructions_b));
  if (!v.buffers_a.empty() || !v.buffers_b.empty())
    s += ", non_const_buffer_sizes " + (v.buffers_a == v.buffers_b
                                            ? list(v.buffers_a)
                                            : list(v.buffers_a) + " -> " + list(v.buffers_b));
  return s;
}

std::string constants_line(const ValueDiff& v) {
  std::string s = fmt::format("{} constants compared: {} equal, {} differ", v.constants_paired,
                              v.constants_equal, v.constants_differ);
  if (v.constants_unavailable) s += fmt::format(", {} not reachable", v.constants_unavailable);
  s += fmt::format(" ({} read)", human_bytes(v.bytes_compared));
  return s;
}

void text_sections(const ValueDiff& v, const Document& da, const Graph& /*a*/, const Document& db,
                   const Graph& b, size_t limit, bool markdown, const std::string& title,
                   std::string& out) {
  const std::string h3 = markdown ? "\n### " : "\n";
  const std::string item = markdown ? "- " : "  ";
  const std::string more = markdown ? "  - " : "    ";
  out += h3 + title + "\n";
  out += item + counts_line(v) + "\n";
  out += item + constants_line(v) + "\n";
  std::vector<const TensorDiff*> data, meta, unavailable;
  for (const TensorDiff& t : v.tensors) {
    if (t.data == DataStatus::kDiffer)
      data.push_back(&t);
    else if (t.data == DataStatus::kUnavailable && t.metadata.empty())
      unavailable.push_back(&t);
    if (!t.metadata.empty()) meta.push_back(&t);
  }
  auto header = [&](const std::string& what, size_t n) {
    out += h3 + fmt::format("{} ({})\n", what, n);
  };
  auto cut = [&](size_t n) {
    if (n > limit) out += item + fmt::format("... {} more (--format json lists all)\n", n - limit);
  };
  if (!data.empty()) {
    header("Constant data that differs", data.size());
    for (size_t i = 0; i < data.size() && i < limit; ++i) {
      const TensorDiff& t = *data[i];
      out += item + fmt::format("{} {}{} ({}), {}\n", t.name, t.dtype, t.shape, t.location,
                                readers_text(t.readers, t.readers_total));
      out += more + stats_line(t.stats, t.domain) + "\n";
      if (auto f = first_text(t.stats); !f.empty()) out += more + f + "\n";
      if (t.has_dequantized)
        out += more + "dequantized (" + t.dequantized_by +
               "): " + stats_line(t.dequantized, analysis::Domain::kDequantized) + "\n";
      if (!t.data_note.empty()) out += more + t.data_note + "\n";
    }
    cut(data.size());
  }
  if (!meta.empty()) {
    header("Tensor metadata that differs", meta.size());
    for (size_t i = 0; i < meta.size() && i < limit; ++i) {
      const TensorDiff& t = *meta[i];
      out += item + fmt::format("{} {}{}: {}; {}\n", t.name, t.dtype, t.shape,
                                field_text(t.metadata), readers_text(t.readers, t.readers_total));
    }
    cut(meta.size());
  }
  if (!unavailable.empty()) {
    header("Constants not compared", unavailable.size());
    for (size_t i = 0; i < unavailable.size() && i < limit; ++i)
      out += item + fmt::format("{}: {}\n", unavailable[i]->name, unavailable[i]->data_note);
    cut(unavailable.size());
  }
  if (!v.scalars.empty()) {
    header("Values that differ (not tensors)", v.scalars.size());
    for (size_t i = 0; i < v.scalars.size() && i < limit; ++i) {
      const auto& c = v.scalars[i];
      const std::string kinds =
          c.kind_a == c.kind_b ? c.kind_a : fmt::format("{} -> {}", c.kind_a, c.kind_b);
      out += item + fmt::format("{} ({}): {} -> {}; {}\n", c.name, kinds, c.text_a, c.text_b,
                                readers_text(c.readers, c.readers_total));
    }
    cut(v.scalars.size());
  }
  auto only = [&](const char* what, const std::vector<analysis::ConstantOnly>& list) {
    if (list.empty()) return;
    header(what, list.size());
    for (size_t i = 0; i < list.size() && i < limit; ++i)
      out += item + fmt::format("{} {}{} ({})\n", list[i].name, list[i].dtype, list[i].shape,
                                list[i].nbytes >= 0
                                    ? human_bytes(static_cast<uint64_t>(list[i].nbytes))
                                    : "size unknown");
    cut(list.size());
  };
  only("Constants only in A", v.constants_only_a);
  only("Constants only in B", v.constants_only_b);
  if (!v.payloads_differ.empty()) {
    header("Delegate payloads whose bytes differ (same size)", v.payloads_differ.size());
    for (const auto& [na, nb] : v.payloads_differ)
      out += item + b.nodes[static_cast<size_t>(nb)].name + "\n";
  }
  for (const auto& n : v.nested) {
    if (!n.diff.values) continue;
    const bool structural = n.diff.changed + n.diff.added + n.diff.removed > 0;
    if (!structural && n.diff.values->empty()) continue;
    const Graph& ga = da.graphs[static_cast<size_t>(n.graph_a)];
    const Graph& gb = db.graphs[static_cast<size_t>(n.graph_b)];
    out += h3 + fmt::format("Delegate payload {}: {} same, {} changed, {} added, {} removed\n",
                            n.label, n.diff.same, n.diff.changed, n.diff.added, n.diff.removed);
    text_sections(*n.diff.values, da, ga, db, gb, limit, markdown,
                  fmt::format("Values of {}", n.label), out);
  }
}

ordered_json readers_json(const std::vector<analysis::ValueReader>& readers) {
  ordered_json out = ordered_json::array();
  for (const auto& r : readers)
    out.push_back({{"node", r.node_name}, {"op", r.op}, {"argument", r.argument}});
  return out;
}

}  // namespace

ordered_json element_stats_json(const TensorComparison& s) {
  ordered_json j;
  j["positions"] = s.positions;  // compared
  j["elements"] = s.elements;    // of them, finite on both sides: the figures' n
  j["differing"] = s.differing;
  j["max_abs"] = figure_json<ordered_json>(s.max_abs);
  j["mean_abs"] = figure_json<ordered_json>(s.mean_abs);
  j["max_rel"] = figure_json<ordered_json>(s.max_rel);
  j["cosine"] = figure_json<ordered_json>(s.cosine);
  j["snr_db"] = figure_json<ordered_json>(s.snr_db);
  j["mse"] = figure_json<ordered_json>(s.mse);
  j["l1"] = figure_json<ordered_json>(s.l1);
  j["nan"] = {{"a", s.nan_reference}, {"b", s.nan_run}};
  j["inf"] = {{"a", s.inf_reference}, {"b", s.inf_run}};
  ordered_json first = ordered_json::array();
  for (const auto& e : s.first)
    first.push_back({{"index", e.index},
                     {"flat", e.flat},
                     {"a", figure_json<ordered_json>(e.reference)},
                     {"b", figure_json<ordered_json>(e.run)}});
  j["first"] = std::move(first);
  return j;
}

std::string value_diff_text(const ValueDiff& v, const Document& da, const Graph& a,
                            const Document& db, const Graph& b, size_t limit, bool markdown) {
  std::string out;
  text_sections(v, da, a, db, b, limit, markdown, "Values", out);
  return out;
}

ordered_json value_diff_json(const ValueDiff& v, const Document& da, const Graph& a,
                             const Document& db, const Graph& b) {
  ordered_json j;
  j["counts"] = {{"values", {{"a", v.values_a}, {"b", v.values_b}}},
                 {"instructions", {{"a", v.instructions_a}, {"b", v.instructions_b}}},
                 {"values_paired", v.values_paired}};
  j["non_const_buffer_sizes"] = {{"a", v.buffers_a}, {"b", v.buffers_b}};
  j["constants"] = {{"compared", v.constants_paired},
                    {"equal", v.constants_equal},
                    {"differ", v.constants_differ},
                    {"unavailable", v.constants_unavailable},
                    {"bytes_read", v.bytes_compared}};
  ordered_json tensors = ordered_json::array();
  for (const TensorDiff& t : v.tensors) {
    ordered_json x;
    x["name"] = t.name;
    x["a"] = t.a;
    x["b"] = t.b;
    x["dtype"] = t.dtype;
    x["shape"] = t.shape;
    x["location"] = t.location;
    ordered_json meta = ordered_json::array();
    for (const auto& f : t.metadata) meta.push_back({{"field", f.field}, {"a", f.a}, {"b", f.b}});
    x["metadata"] = std::move(meta);
    x["readers"] = readers_json(t.readers);
    x["readers_total"] = t.readers_total;
    x["data"] = analysis::to_string(t.data);
    if (!t.data_note.empty()) x["note"] = t.data_note;
    if (t.data == DataStatus::kDiffer || t.data == DataStatus::kUnavailable) {
      x["bytes"] = {{"a", t.bytes_a}, {"b", t.bytes_b}};
      x["expected_bytes"] = {{"a", t.expected_a}, {"b", t.expected_b}};
    }
    if (t.data == DataStatus::kDiffer) {
      ordered_json stats = element_stats_json(t.stats);
      stats["domain"] = analysis::to_string(t.domain);
      x["stats"] = std::move(stats);
      if (t.has_dequantized) {
        ordered_json deq = element_stats_json(t.dequantized);
        deq["domain"] = "dequantized";
        deq["by"] = t.dequantized_by;
        x["dequantized"] = std::move(deq);
      }
    }
    tensors.push_back(std::move(x));
  }
  j["tensors"] = std::move(tensors);
  ordered_json scalars = ordered_json::array();
  for (const auto& c : v.scalars)
    scalars.push_back({{"name", c.name},
                       {"a", c.a},
                       {"b", c.b},
                       {"kind", {{"a", c.kind_a}, {"b", c.kind_b}}},
                       {"value", {{"a", c.text_a}, {"b", c.text_b}}},
                       {"readers", readers_json(c.readers)},
                       {"readers_total", c.readers_total}});
  j["scalars"] = std::move(scalars);
  auto only = [](const std::vector<analysis::ConstantOnly>& list) {
    ordered_json out = ordered_json::array();
    for (const auto& c : list)
      out.push_back(
          {{"name", c.name}, {"dtype", c.dtype}, {"shape", c.shape}, {"nbytes", c.nbytes}});
    return out;
  };
  j["constants_only_in_a"] = only(v.constants_only_a);
  j["constants_only_in_b"] = only(v.constants_only_b);
  ordered_json payloads = ordered_json::array();
  for (const auto& [na, nb] : v.payloads_differ)
    payloads.push_back({{"a", a.nodes[static_cast<size_t>(na)].name},
                        {"b", b.nodes[static_cast<size_t>(nb)].name}});
  j["payloads_differ"] = std::move(payloads);
  ordered_json nested = ordered_json::array();
  for (const auto& n : v.nested) {
    const Graph& ga = da.graphs[static_cast<size_t>(n.graph_a)];
    const Graph& gb = db.graphs[static_cast<size_t>(n.graph_b)];
    DiffOperand oa{da.path(), &da, n.graph_a}, ob{db.path(), &db, n.graph_b};
    ordered_json x = diff_pair_json(0, 0, oa, ob, n.diff);
    x.erase("a");
    x.erase("b");
    ordered_json head;
    head["label"] = n.label;
    head["call"] = {{"a", a.nodes[static_cast<size_t>(n.call_a)].name},
                    {"b", b.nodes[static_cast<size_t>(n.call_b)].name}};
    head["graph"] = {{"a", ga.name}, {"b", gb.name}};
    head.update(x);
    nested.push_back(std::move(head));
  }
  j["nested"] = std::move(nested);
  return j;
}

namespace {

nlohmann::json panel_stats(const TensorComparison& s) {
  auto num = figure_json<nlohmann::json>;
  nlohmann::json j;
  j["elements"] = s.positions;
  j["differing"] = s.differing;
  j["maxAbs"] = num(s.max_abs);
  j["meanAbs"] = num(s.mean_abs);
  j["maxRel"] = num(s.max_rel);
  j["cosine"] = num(s.cosine);
  j["snrDb"] = num(s.snr_db);
  j["nan"] = {s.nan_reference, s.nan_run};
  j["inf"] = {s.inf_reference, s.inf_run};
  nlohmann::json first = nlohmann::json::array();
  for (const auto& e : s.first)
    first.push_back({index_text(e.index), num(e.reference), num(e.run)});
  j["first"] = std::move(first);
  return j;
}

void panels(const ValueDiff& v, const Graph& b, NodeId call, const std::string& prefix,
            std::vector<std::pair<NodeId, nlohmann::json>>& out) {
  for (const TensorDiff& t : v.tensors) {
    if (t.data != DataStatus::kDiffer) continue;
    NodeId at = call;
    if (at == kNoId) {
      const Value& y = b.values[static_cast<size_t>(t.b)];
      at = y.producer != kNoId ? y.producer : (y.consumers.empty() ? kNoId : y.consumers.front());
    }
    if (at == kNoId) continue;
    nlohmann::json j;
    j["name"] = prefix + t.name;
    j["dtype"] = t.dtype;
    j["shape"] = t.shape;
    j["location"] = t.location;
    j["readers"] = readers_text(t.readers, t.readers_total);
    j["integer"] = t.domain == analysis::Domain::kInteger;
    j["stats"] = panel_stats(t.stats);
    if (t.has_dequantized) {
      j["dequantized"] = panel_stats(t.dequantized);
      j["dequantizedBy"] = t.dequantized_by;
    }
    if (!t.data_note.empty()) j["note"] = t.data_note;
    out.emplace_back(at, std::move(j));
  }
  for (const auto& n : v.nested)
    if (n.diff.values)
      panels(*n.diff.values, b, call == kNoId ? n.call_b : call, prefix + n.label + ": ", out);
}

}  // namespace

std::vector<std::pair<NodeId, nlohmann::json>> tensor_panels(const ValueDiff& v, const Graph& b) {
  std::vector<std::pair<NodeId, nlohmann::json>> out;
  panels(v, b, kNoId, "", out);
  return out;
}

bool is_whole_program(const Document& doc) {
  return doc.format == DocumentFormat::kExecuTorchProgram ||
         doc.format == DocumentFormat::kBundledProgram;
}

std::vector<ProgramComparison> compare_programs(const std::vector<DiffOperand>& files,
                                                const analysis::ValueDiffOptions& options) {
  std::vector<ProgramComparison> out;
  for (size_t k = 0; k + 1 < files.size(); ++k) {
    const DiffOperand& a = files[k];
    const DiffOperand& b = files[k + 1];
    ProgramComparison c;
    c.program = analysis::diff_programs(a.file, *a.doc, b.file, *b.doc);
    analysis::ValueDiffOptions o = options;
    if (c.program.bitwise_equal) o.compare_data = false;  // the same bytes: nothing to read
    for (const analysis::MethodPair& m : c.program.methods) {
      c.operands.push_back({a.file, a.doc, m.a});
      c.operands.push_back({b.file, b.doc, m.b});
      const Graph& ga = a.doc->graphs[static_cast<size_t>(m.a)];
      const Graph& gb = b.doc->graphs[static_cast<size_t>(m.b)];
      analysis::GraphDiff d = analysis::diff_graphs(*a.doc, ga, *b.doc, gb);
      analysis::add_value_diff(*a.doc, ga, *b.doc, gb, d, o);
      c.diffs.push_back(std::move(d));
    }
    std::vector<const analysis::GraphDiff*> diffs;
    for (const auto& d : c.diffs) diffs.push_back(&d);
    analysis::summarize(c.program, diffs);
    out.push_back(std::move(c));
  }
  return out;
}

std::string program_diff_report(const std::vector<ProgramComparison>& comparisons,
                                DiffFormat format, size_t limit) {
  if (format == DiffFormat::kJson) {
    ordered_json j;
    j["format"] = "etviz.diff/1";
    ordered_json files = ordered_json::array(), graphs = ordered_json::array(),
                 pairs = ordered_json::array(), programs = ordered_json::array();
    for (size_t k = 0; k < comparisons.size(); ++k) {
      const auto& p = comparisons[k].program;
      if (k == 0) files.push_back({{"file", p.file_a}, {"bytes", p.size_a}});
      files.push_back({{"file", p.file_b}, {"bytes", p.size_b}});
    }
    for (size_t k = 0; k < comparisons.size(); ++k) {
      const ProgramComparison& c = comparisons[k];
      const auto& p = c.program;
      ordered_json methods = ordered_json::array();
      for (size_t m = 0; m < c.diffs.size(); ++m) {
        const size_t ia = graphs.size();
        for (size_t s = 0; s < 2; ++s) {
          const DiffOperand& o = c.operands[2 * m + s];
          graphs.push_back({{"file", o.file},
                            {"graph", o.g().name},
                            {"stage", to_string(o.g().stage.role)},
                            {"nodes", o.g().nodes.size()},
                            {"operand", k + s}});
        }
        ordered_json d =
            diff_pair_json(ia, ia + 1, c.operands[2 * m], c.operands[2 * m + 1], c.diffs[m]);
        d["method"] = p.methods[m].name;
        methods.push_back({{"name", p.methods[m].name}, {"diff", pairs.size()}});
        pairs.push_back(std::move(d));
      }
      ordered_json named = ordered_json::array();
      for (const auto& n : p.named_data)
        named.push_back({{"key", n.key},
                         {"change", n.change},
                         {"bytes", {{"a", n.bytes_a}, {"b", n.bytes_b}}}});
      programs.push_back({{"a", k},
                          {"b", k + 1},
                          {"summary", p.summary},
                          {"bitwise_equal", p.bitwise_equal},
                          {"same_program", p.same_program},
                          {"bytes", {{"a", p.size_a}, {"b", p.size_b}}},
                          {"version", {{"a", p.version_a}, {"b", p.version_b}}},
                          {"methods", std::move(methods)},
                          {"methods_only_in_a", p.methods_only_a},
                          {"methods_only_in_b", p.methods_only_b},
                          {"named_data", std::move(named)},
                          {"damaged", p.damaged}});
    }
    j["files"] = std::move(files);
    j["programs"] = std::move(programs);
    j["graphs"] = std::move(graphs);
    j["diffs"] = std::move(pairs);
    return json_report(j);
  }
  const bool markdown = format == DiffFormat::kMarkdown;
  const std::string item = markdown ? "- " : "  ";
  std::string out = markdown ? "# Diff\n\n" : "";
  for (size_t k = 0; k < comparisons.size(); ++k) {
    const ProgramComparison& c = comparisons[k];
    const auto& p = c.program;
    if (k) out += "\n";
    out += fmt::format("{}{} -> {}: {}\n", markdown ? "## " : "", p.file_a, p.file_b, p.summary);
    if (markdown) out += "\n";
    out += item + fmt::format("A: {} ({} bytes), {}\n", p.file_a, p.size_a, p.version_a);
    out += item + fmt::format("B: {} ({} bytes), {}\n", p.file_b, p.size_b, p.version_b);
    if (p.bitwise_equal) continue;
    std::string both;
    for (const auto& m : p.methods) both += (both.empty() ? "" : ", ") + m.name;
    out += item + "methods in both: " + (both.empty() ? "none" : both) + "\n";
    auto names = [](const std::vector<std::string>& v) {
      std::string s;
      for (const auto& n : v) s += (s.empty() ? "" : ", ") + n;
      return s;
    };
    if (!p.methods_only_a.empty())
      out += item + "methods only in A: " + names(p.methods_only_a) + "\n";
    if (!p.methods_only_b.empty())
      out += item + "methods only in B: " + names(p.methods_only_b) + "\n";
    for (const auto& d : p.damaged) out += item + "damaged: " + d + "\n";
    if (!p.named_data.empty()) {
      out += (markdown ? "\n### " : "\n") +
             fmt::format("Named data that differs ({})\n", p.named_data.size());
      for (size_t i = 0; i < p.named_data.size() && i < limit; ++i) {
        const auto& n = p.named_data[i];
        const std::string key = n.key.size() > 40 ? n.key.substr(0, 16) + "..." : n.key;
        out += item + fmt::format("{}: {}\n", key, n.change);
      }
      if (p.named_data.size() > limit)
        out += item +
               fmt::format("... {} more (--format json lists all)\n", p.named_data.size() - limit);
    }
    for (size_t m = 0; m < c.diffs.size(); ++m) {
      const analysis::GraphDiff& d = c.diffs[m];
      const bool same = d.changed + d.added + d.removed == 0 && (!d.values || d.values->empty());
      if (same) {
        out += fmt::format("\n{}method {}: same ({} nodes; every value and constant equal)\n",
                           markdown ? "## " : "", p.methods[m].name, d.same);
        continue;
      }
      out += "\n" + diff_pair_text(c.operands[2 * m], c.operands[2 * m + 1], d, limit, markdown);
    }
  }
  return out;
}

}  // namespace etviz::render
