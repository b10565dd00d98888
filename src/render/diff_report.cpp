#include "render/diff_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "render/json_text.h"
#include "render/table.h"
#include "render/value_diff_report.h"

namespace etviz::render {
namespace {

using analysis::GraphDiff;

std::string operand_name(const DiffOperand& o) {
  return fmt::format("{}#{}", o.file, o.g().name);
}

std::string signed_count(int64_t v) {
  return v > 0 ? fmt::format("+{}", v) : std::to_string(v);
}

std::string bytes_delta(int64_t a, int64_t b) {
  if (a == b) return human_bytes(static_cast<uint64_t>(a));
  return fmt::format("{} -> {} ({}{})", human_bytes(static_cast<uint64_t>(a)),
                     human_bytes(static_cast<uint64_t>(b)), b > a ? "+" : "-",
                     human_bytes(static_cast<uint64_t>(b > a ? b - a : a - b)));
}

std::string matched_by(const GraphDiff& d) {
  std::string s;
  for (const auto& [reason, count] : d.matched_by)
    s += fmt::format("{}{} {}", s.empty() ? "" : ", ", count, analysis::to_string(reason));
  return s.empty() ? "nothing matched" : s;
}

// Names of nodes only on one side, in graph order.
std::vector<std::string> only_in(const Graph& g, const std::vector<analysis::DiffStatus>& status,
                                 analysis::DiffStatus which) {
  std::vector<std::string> out;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (status[i] == which) out.push_back(fmt::format("{} ({})", g.nodes[i].name, g.nodes[i].op));
  return out;
}

}  // namespace

std::string diff_pair_text(const DiffOperand& a, const DiffOperand& b, const GraphDiff& d,
                           size_t limit, bool markdown) {
  const std::string h2 = markdown ? "## " : "";
  const std::string h3 = markdown ? "\n### " : "\n";
  auto table = [&](const Table& t) { return markdown ? t.to_markdown() : t.to_text("  "); };
  std::string out = fmt::format("{}{} -> {}\n", h2, operand_name(a), operand_name(b));
  out += fmt::format("{}{} nodes -> {} nodes: {} same, {} changed, {} added, {} removed\n",
                     markdown ? "\n" : "  ", a.g().nodes.size(), b.g().nodes.size(), d.same,
                     d.changed, d.added, d.removed);
  out += fmt::format("{}matched by {}\n", markdown ? "\n" : "  ", matched_by(d));
  if (!d.op_deltas.empty()) {
    out += h3 + "Operator counts that changed\n";
    Table t({"op", "A", "B", "delta"}, {Align::kLeft, Align::kRight, Align::kRight, Align::kRight});
    for (const auto& o : d.op_deltas)
      t.add_row({o.op, std::to_string(o.a), std::to_string(o.b), signed_count(o.b - o.a)});
    out += table(t);
  }
  auto list = [&](const std::string& title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    out += h3 + fmt::format("{} ({})\n", title, items.size());
    for (size_t i = 0; i < items.size() && i < limit; ++i)
      out += (markdown ? "- " : "  ") + items[i] + "\n";
    if (items.size() > limit)
      out += fmt::format("{}... {} more (--format json lists all)\n", markdown ? "- " : "  ",
                         items.size() - limit);
  };
  list("Only in A (removed)", only_in(a.g(), d.a_status, analysis::DiffStatus::kRemoved));
  list("Only in B (added)", only_in(b.g(), d.b_status, analysis::DiffStatus::kAdded));
  std::vector<std::string> changed;
  for (const auto& c : d.changes) {
    std::string what;
    for (const auto& w : c.what) what += (what.empty() ? "" : "; ") + w;
    changed.push_back(fmt::format("{} -> {}: {}", a.g().nodes[static_cast<size_t>(c.a)].name,
                                  b.g().nodes[static_cast<size_t>(c.b)].name, what));
  }
  list("Changed", changed);
  if (!d.tensor_changes.empty()) {
    std::vector<std::string> tensors;
    for (const auto& t : d.tensor_changes)
      tensors.push_back(fmt::format("{}: {} -> {}", t.name, t.before, t.after));
    list("Tensors that changed type", tensors);
  }
  bool delegation_changed = false;
  for (const auto& [backend, c] : d.delegates) delegation_changed |= c.first != c.second;
  if (delegation_changed) {
    out += h3 + "Delegate calls\n";
    Table t({"backend", "A", "B"}, {Align::kLeft, Align::kRight, Align::kRight});
    for (const auto& [backend, c] : d.delegates)
      t.add_row({backend, std::to_string(c.first), std::to_string(c.second)});
    out += table(t);
  }
  out += h3 + "Sizes\n";
  out += fmt::format("{}constants read: {}\n", markdown ? "- " : "  ",
                     bytes_delta(d.constant_bytes_a, d.constant_bytes_b));
  if (d.payload_bytes_a || d.payload_bytes_b)
    out += fmt::format("{}delegate payloads: {}\n", markdown ? "- " : "  ",
                       bytes_delta(d.payload_bytes_a, d.payload_bytes_b));
  const size_t arenas = std::max(d.arena_a.size(), d.arena_b.size());
  for (size_t m = 1; m < arenas; ++m) {
    const int64_t x = m < d.arena_a.size() ? d.arena_a[m] : 0;
    const int64_t y = m < d.arena_b.size() ? d.arena_b[m] : 0;
    out += fmt::format("{}memory arena {}: {}\n", markdown ? "- " : "  ", m, bytes_delta(x, y));
  }
  if (d.values) out += value_diff_text(*d.values, *a.doc, a.g(), *b.doc, b.g(), limit, markdown);
  return out;
}

nlohmann::ordered_json diff_pair_json(size_t a_index, size_t b_index, const DiffOperand& a,
                                      const DiffOperand& b, const GraphDiff& d) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["a"] = a_index;
  j["b"] = b_index;
  j["same"] = d.same;
  j["changed"] = d.changed;
  j["added"] = d.added;
  j["removed"] = d.removed;
  ordered_json by = ordered_json::object();
  for (const auto& [reason, count] : d.matched_by) by[analysis::to_string(reason)] = count;
  j["matched_by"] = by;
  ordered_json ops = ordered_json::array();
  for (const auto& o : d.op_deltas) ops.push_back({{"op", o.op}, {"a", o.a}, {"b", o.b}});
  j["op_deltas"] = ops;
  auto names = [](const Graph& g, const std::vector<analysis::DiffStatus>& status,
                  analysis::DiffStatus which) {
    ordered_json out = ordered_json::array();
    for (size_t i = 0; i < g.nodes.size(); ++i)
      if (status[i] == which) out.push_back({{"name", g.nodes[i].name}, {"op", g.nodes[i].op}});
    return out;
  };
  j["only_in_a"] = names(a.g(), d.a_status, analysis::DiffStatus::kRemoved);
  j["only_in_b"] = names(b.g(), d.b_status, analysis::DiffStatus::kAdded);
  ordered_json changes = ordered_json::array();
  for (const auto& c : d.changes)
    changes.push_back({{"a", a.g().nodes[static_cast<size_t>(c.a)].name},
                       {"b", b.g().nodes[static_cast<size_t>(c.b)].name},
                       {"what", c.what}});
  j["changes"] = changes;
  ordered_json tensors = ordered_json::array();
  for (const auto& t : d.tensor_changes)
    tensors.push_back({{"name", t.name}, {"before", t.before}, {"after", t.after}});
  j["tensor_changes"] = tensors;
  ordered_json delegates = ordered_json::array();
  for (const auto& [backend, c] : d.delegates)
    delegates.push_back({{"backend", backend}, {"a", c.first}, {"b", c.second}});
  j["delegates"] = delegates;
  j["constant_bytes"] = {{"a", d.constant_bytes_a}, {"b", d.constant_bytes_b}};
  j["payload_bytes"] = {{"a", d.payload_bytes_a}, {"b", d.payload_bytes_b}};
  j["arena_bytes"] = {{"a", d.arena_a}, {"b", d.arena_b}};
  if (d.values) j["values"] = value_diff_json(*d.values, *a.doc, a.g(), *b.doc, b.g());
  return j;
}

std::string diff_report(const std::vector<DiffOperand>& operands,
                        const std::vector<analysis::GraphDiff>& diffs, DiffFormat format,
                        size_t limit) {
  if (format == DiffFormat::kJson) {
    nlohmann::ordered_json j;
    j["format"] = "etviz.diff/1";
    nlohmann::ordered_json graphs = nlohmann::ordered_json::array();
    for (const DiffOperand& o : operands)
      graphs.push_back({{"file", o.file},
                        {"graph", o.g().name},
                        {"stage", to_string(o.g().stage.role)},
                        {"nodes", o.g().nodes.size()}});
    j["graphs"] = graphs;
    nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
    for (size_t k = 0; k < diffs.size(); ++k)
      pairs.push_back(diff_pair_json(k, k + 1, operands[k], operands[k + 1], diffs[k]));
    j["diffs"] = pairs;
    return json_report(j);
  }
  const bool markdown = format == DiffFormat::kMarkdown;
  std::string out = markdown ? "# Diff\n\n" : "";
  for (size_t k = 0; k < diffs.size(); ++k) {
    if (k) out += "\n";
    out += diff_pair_text(operands[k], operands[k + 1], diffs[k], limit, markdown);
  }
  return out;
}

}  // namespace etviz::render
