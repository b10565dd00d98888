#include "render/delegation_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "render/json_text.h"
#include "render/table.h"

namespace etviz::render {
namespace {

Table operator_table(const analysis::DelegationInfo& info, bool per_backend) {
  std::vector<std::string> header = {"op_type", "occurrences_in_delegated_graphs",
                                     "occurrences_in_non_delegated_graphs"};
  std::vector<Align> align = {Align::kLeft, Align::kRight, Align::kRight};
  if (per_backend)
    for (const auto& b : info.backends) {
      header.push_back("delegated_to_" + b.backend);
      align.push_back(Align::kRight);
    }
  Table t(header, align);
  for (const auto& op : info.operators) {
    std::vector<std::string> row = {op.op_type, std::to_string(op.delegated),
                                    std::to_string(op.non_delegated)};
    if (per_backend)
      for (const auto& b : info.backends) {
        auto it = op.delegated_by_backend.find(b.backend);
        row.push_back(std::to_string(it == op.delegated_by_backend.end() ? 0 : it->second));
      }
    t.add_row(std::move(row));
  }
  std::vector<std::string> total = {"Total", std::to_string(info.num_delegated_nodes),
                                    std::to_string(info.num_non_delegated_nodes)};
  if (per_backend)
    for (const auto& b : info.backends) total.push_back(std::to_string(b.delegated_nodes));
  t.add_row(std::move(total));
  return t;
}

Table delegate_table(const analysis::DelegationInfo& info) {
  Table t({"method", "#", "backend", "payload", "bytes", "status", "nodes", "note"},
          {Align::kLeft, Align::kRight, Align::kLeft, Align::kLeft, Align::kRight, Align::kLeft,
           Align::kRight, Align::kLeft});
  for (const auto& d : info.delegates)
    t.add_row({d.method, std::to_string(d.index_in_method), d.backend, d.location,
               with_thousands(static_cast<int64_t>(d.payload_bytes)), d.status,
               d.nodes < 0 ? "-" : std::to_string(d.nodes), d.note});
  return t;
}

Table backend_table(const analysis::DelegationInfo& info) {
  Table t({"backend", "subgraphs", "decoded", "opaque", "delegated_nodes"},
          {Align::kLeft, Align::kRight, Align::kRight, Align::kRight, Align::kRight});
  for (const auto& b : info.backends)
    t.add_row({b.backend, std::to_string(b.subgraphs), std::to_string(b.decoded),
               std::to_string(b.opaque), std::to_string(b.delegated_nodes)});
  return t;
}

// Beside the delegates table: what a TOSA side file brought to each delegate, its operators
// next to the command stream's NPU operations.
std::string delegate_details(const analysis::DelegationInfo& info, bool markdown) {
  std::string s;
  for (const auto& d : info.delegates) {
    if (d.tosa_file.empty()) continue;
    const std::string name = fmt::format("{}/{}#{}", d.method, d.backend, d.index_in_method);
    s += markdown ? fmt::format("\n### {}\n\n", name) : fmt::format("\nDelegate {}\n", name);
    const std::pair<const char*, const std::string*> rows[] = {
        {"TOSA graph", &d.tosa_file},
        {"TOSA operators", &d.tosa_operations},
        {"NPU operations", &d.npu_operations}};
    for (const auto& [label, value] : rows)
      if (!value->empty())
        s += markdown ? fmt::format("- {}: {}\n", label, *value)
                      : fmt::format("  {:<15} {}\n", label, *value);
  }
  const bool any = !info.side_files.empty();
  if (any) s += markdown ? "\n## Side files\n\n" : "\nSide files\n";
  for (const auto& f : info.side_files)
    s += markdown ? fmt::format("- {}: {}\n", f.path, f.note)
                  : fmt::format("  {}: {}\n", f.path, f.note);
  return s;
}

std::string summary_lines(const analysis::DelegationInfo& info) {
  std::string s;
  if (info.graphs.size() == 1) s += fmt::format("Graph: {}\n", info.graphs[0]);
  s += fmt::format("Total delegated subgraphs: {}\n", info.num_delegated_subgraphs);
  s += fmt::format("Number of delegated nodes: {}\n", info.num_delegated_nodes);
  s += fmt::format("Number of non-delegated nodes: {}\n", info.num_non_delegated_nodes);
  if (info.num_opaque_subgraphs > 0)
    s += fmt::format(
        "Opaque delegated subgraphs: {} (payload not decodable to ops; their nodes are not "
        "counted above)\n",
        info.num_opaque_subgraphs);
  if (!info.op_names.empty()) s += fmt::format("Operators named by: {}\n", info.op_names);
  return s;
}

std::string to_json(const std::string& file, const analysis::DelegationInfo& info) {
  nlohmann::ordered_json j;
  j["file"] = file;
  j["graphs"] = info.graphs;
  j["num_delegated_subgraphs"] = info.num_delegated_subgraphs;
  j["num_delegated_nodes"] = info.num_delegated_nodes;
  j["num_non_delegated_nodes"] = info.num_non_delegated_nodes;
  j["num_opaque_subgraphs"] = info.num_opaque_subgraphs;
  if (!info.op_names.empty()) j["op_names"] = info.op_names;
  auto& backends = j["backends"] = nlohmann::ordered_json::array();
  for (const auto& b : info.backends)
    backends.push_back({{"backend", b.backend},
                        {"subgraphs", b.subgraphs},
                        {"decoded", b.decoded},
                        {"opaque", b.opaque},
                        {"delegated_nodes", b.delegated_nodes}});
  auto& delegates = j["delegates"] = nlohmann::ordered_json::array();
  for (const auto& d : info.delegates) {
    nlohmann::ordered_json e = {
        {"method", d.method},    {"index", d.index_in_method},       {"backend", d.backend},
        {"payload", d.location}, {"payload_bytes", d.payload_bytes}, {"status", d.status}};
    if (d.nodes >= 0) e["nodes"] = d.nodes;
    if (!d.note.empty()) e["note"] = d.note;
    if (!d.tosa_file.empty()) e["tosa_file"] = d.tosa_file;
    if (!d.tosa_operations.empty()) e["tosa_operations"] = d.tosa_operations;
    if (!d.npu_operations.empty()) e["npu_operations"] = d.npu_operations;
    delegates.push_back(std::move(e));
  }
  if (!info.side_files.empty()) {
    auto& files = j["side_files"] = nlohmann::ordered_json::array();
    for (const auto& f : info.side_files) {
      nlohmann::ordered_json o = {{"path", f.path}};
      o["delegate"] =
          f.delegate.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(f.delegate);
      o["ambiguous"] = f.ambiguous;
      o["note"] = f.note;
      files.push_back(std::move(o));
    }
  }
  auto& ops = j["operators"] = nlohmann::ordered_json::array();
  for (const auto& op : info.operators) {
    nlohmann::ordered_json o = {{"op_type", op.op_type},
                                {"occurrences_in_delegated_graphs", op.delegated},
                                {"occurrences_in_non_delegated_graphs", op.non_delegated}};
    if (!op.delegated_by_backend.empty()) o["delegated_by_backend"] = op.delegated_by_backend;
    ops.push_back(std::move(o));
  }
  return json_report(j);
}

std::string value_text(const Graph& g, ValueId id) {
  if (id < 0 || static_cast<size_t>(id) >= g.values.size()) return "?";
  const Value& v = g.values[id];
  if (v.kind == ValueKind::kTensor) {
    std::string s = fmt::format("%{}:{}{}", v.name.empty() ? std::to_string(id) : v.name,
                                v.tensor.dtype, v.tensor.shape_string());
    if (const auto& q = v.tensor.quantization) {
      s += "{" + q->scheme;
      if (q->scheme == "per_tensor" && !q->scales.empty())
        s += fmt::format(" scale={:g} zp={}", q->scales[0],
                         q->zero_points.empty() ? 0 : q->zero_points[0]);
      else if (q->axis >= 0)
        s += fmt::format(" axis={} scales={}", q->axis, q->num_scales);
      s += "}";
    }
    if (v.tensor.is_constant()) s += "=const";
    return s;
  }
  return etviz::value_text(v);
}

std::string args_text(const Graph& g, const std::vector<Argument>& args) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) s += ", ";
    if (!args[i].name.empty()) s += args[i].name + "=";
    s += value_text(g, args[i].value);
  }
  return s;
}

void format_graph(const Document& doc, const Graph& g, int depth, std::string& out,
                  int nesting_left) {
  const std::string pad(static_cast<size_t>(depth) * 2, ' ');
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (n.kind == NodeKind::kConstant) continue;  // shown inline as "=const" arguments
    out += fmt::format("{}{} {}({}) -> ({})\n", pad, n.name, n.op, args_text(g, n.inputs),
                       args_text(g, n.outputs));
    if (n.kind == NodeKind::kOther || n.kind == NodeKind::kDelegate || !n.attributes.empty()) {
      // Facts of opaque payload nodes matter most; keep other nodes to one line.
      if (g.opaque)
        for (const Attribute& a : n.attributes)
          out += fmt::format("{}    {} = {}\n", pad, a.name, a.value);
    }
    if (n.kind != NodeKind::kDelegate || n.delegate < 0 ||
        static_cast<size_t>(n.delegate) >= doc.delegates.size())
      continue;
    const Delegate& d = doc.delegates[n.delegate];
    const Graph* sub = doc.subgraph_of(n);
    if (sub && nesting_left > 0) {
      const Graph& sg = *sub;
      out += fmt::format("{}  [{} {}: {} ({})]\n", pad, d.backend_id,
                         sg.opaque ? "summary" : "subgraph", sg.name,
                         d.payload_location + " " + std::to_string(d.payload_index));
      format_graph(doc, sg, depth + 2, out, nesting_left - 1);
    } else {
      out += fmt::format("{}  [{} opaque: {}]\n", pad, d.backend_id,
                         d.decoder_note.empty() ? "not decoded" : d.decoder_note);
    }
  }
}

}  // namespace

std::string delegation_report(const std::string& file, const analysis::DelegationInfo& info,
                              DelegationFormat format) {
  const bool per_backend = info.backends.size() > 1;
  std::string text;
  switch (format) {
    case DelegationFormat::kJson:
      return to_json(file, info);
    case DelegationFormat::kCsv:
      return operator_table(info, per_backend).to_csv();
    case DelegationFormat::kMarkdown:
      text = fmt::format("# Delegation: {}\n\n", file) + summary_lines(info);
      if (!info.delegates.empty())
        text += "\n## Delegates\n\n" + delegate_table(info).to_markdown();
      text += delegate_details(info, true);
      if (per_backend) text += "\n## Backends\n\n" + backend_table(info).to_markdown();
      text += "\n## Operators\n\n" + operator_table(info, per_backend).to_markdown();
      return text;
    case DelegationFormat::kTable:
      break;
  }
  text = file + "\n" + summary_lines(info);
  if (!info.delegates.empty()) text += "\nDelegates\n" + delegate_table(info).to_text("  ");
  text += delegate_details(info, false);
  if (per_backend) text += "\nBackends\n" + backend_table(info).to_text("  ");
  text += "\nOperators\n" + operator_table(info, per_backend).to_text("  ");
  return text;
}

std::string format_delegated_graph(const Document& doc, const std::string& method) {
  std::string out;
  for (const Graph& g : doc.graphs) {
    if (g.kind == GraphKind::kDelegate || (!method.empty() && g.name != method)) continue;
    out += fmt::format("graph {} ({})\n", g.name, to_string(g.kind));
    format_graph(doc, g, 1, out, /*nesting_left=*/4);
  }
  return out;
}

}  // namespace etviz::render
