#include "analysis/delegation.h"

#include <fmt/format.h>

#include <algorithm>

namespace etviz::analysis {
namespace {

bool is_opaque(const Graph& g) {
  for (const Attribute& a : g.attributes)
    if (a.name == "opaque") return a.value == "true";
  return false;
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
  return v.literal.empty() ? std::string(to_string(v.kind)) : v.literal;
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
      if (is_opaque(g))
        for (const Attribute& a : n.attributes)
          out += fmt::format("{}    {} = {}\n", pad, a.name, a.value);
    }
    if (n.kind != NodeKind::kDelegate || n.delegate < 0 ||
        static_cast<size_t>(n.delegate) >= doc.delegates.size())
      continue;
    const Delegate& d = doc.delegates[n.delegate];
    const int32_t sub = n.subgraph >= 0 ? n.subgraph : d.subgraph;
    if (sub >= 0 && static_cast<size_t>(sub) < doc.graphs.size() && nesting_left > 0) {
      const Graph& sg = doc.graphs[sub];
      out += fmt::format("{}  [{} {}: {} ({})]\n", pad, d.backend_id,
                         is_opaque(sg) ? "summary" : "subgraph", sg.name,
                         d.payload_location + " " + std::to_string(d.payload_index));
      format_graph(doc, sg, depth + 2, out, nesting_left - 1);
    } else {
      out += fmt::format("{}  [{} opaque: {}]\n", pad, d.backend_id,
                         d.decoder_note.empty() ? "not decoded" : d.decoder_note);
    }
  }
}

}  // namespace

bool is_call_delegate(const Node& node) {
  return node.kind == NodeKind::kDelegate ||
         node.op.find("executorch_call_delegate") != std::string::npos;
}

bool counts_as_operator(const Node& node) {
  return node.kind == NodeKind::kKernel && !is_call_delegate(node);
}

Result<DelegationInfo> delegation_info(const Document& doc, const std::string& method) {
  if (!method.empty() && !doc.find_graph(method)) {
    std::string names;
    for (const Graph& g : doc.graphs)
      if (g.kind != "delegate") names += (names.empty() ? "" : ", ") + g.name;
    return Error(fmt::format("no method '{}' (methods: {})", method, names));
  }
  DelegationInfo info;
  std::map<std::string, OperatorDelegation> ops;
  std::map<std::string, BackendDelegation> backends;
  // An ETRecord holds several stages of one program; get_delegation_info is run on the
  // lowered (edge dialect) one, so that is the default when present.
  bool prefer_edge = false;
  if (method.empty())
    for (const Graph& g : doc.graphs)
      if (g.kind == "exported_program" && g.name.find("edge") != std::string::npos)
        prefer_edge = true;
  const auto selected = [&](const Graph& g) {
    if (g.kind == "delegate") return false;
    if (!method.empty()) return g.name == method;
    return !prefer_edge || g.kind != "exported_program" || g.name.find("edge") != std::string::npos;
  };
  for (const Graph& g : doc.graphs) {
    if (!selected(g)) continue;
    info.graphs.push_back(g.name);
    for (const Node& n : g.nodes) {
      if (is_call_delegate(n)) {
        // Exported programs (.pt2, ETRecord) call lowered modules whose graphs are not
        // serialized: a delegated subgraph of unknown content.
        if (n.kind == NodeKind::kDelegate) continue;  // .pte calls: counted from doc.delegates
        DelegateEntry e;
        e.method = g.name;
        e.backend = "(lowered module)";
        e.location =
            n.inputs.empty() || n.inputs[0].value < 0 ? "" : g.values[n.inputs[0].value].name;
        e.status = "undecodable";
        e.note = "exported program: the lowered module's graph is not serialized";
        auto& b = backends[e.backend];
        b.backend = e.backend;
        ++b.subgraphs;
        ++b.opaque;
        ++info.num_delegated_subgraphs;
        ++info.num_opaque_subgraphs;
        info.delegates.push_back(std::move(e));
        continue;
      }
      if (counts_as_operator(n)) {
        auto& op = ops[n.op];
        op.op_type = n.op;
        ++op.non_delegated;
        ++info.num_non_delegated_nodes;
      }
    }
  }
  for (const Delegate& d : doc.delegates) {
    if (!method.empty() && d.method != method) continue;
    const Graph* owner = doc.find_graph(d.method);
    if (owner && !selected(*owner)) continue;
    DelegateEntry e;
    e.method = d.method;
    e.index_in_method = d.index_in_method;
    e.backend = d.backend_id;
    e.location = fmt::format("{} {}", d.payload_location, d.payload_index);
    e.payload_bytes = d.payload.size;
    e.note = d.decoder_note;
    auto& b = backends[d.backend_id];
    b.backend = d.backend_id;
    ++b.subgraphs;
    ++info.num_delegated_subgraphs;
    const Graph* sub = d.subgraph >= 0 && static_cast<size_t>(d.subgraph) < doc.graphs.size()
                           ? &doc.graphs[d.subgraph]
                           : nullptr;
    if (!sub || is_opaque(*sub)) {
      e.status = sub ? "summary" : "undecodable";
      ++b.opaque;
      ++info.num_opaque_subgraphs;
    } else {
      e.status = "decoded";
      e.nodes = 0;
      ++b.decoded;
      for (const Node& n : sub->nodes) {
        if (!counts_as_operator(n) && n.kind != NodeKind::kOther) continue;
        auto& op = ops[n.op];
        op.op_type = n.op;
        ++op.delegated;
        ++op.delegated_by_backend[d.backend_id];
        ++e.nodes;
      }
      b.delegated_nodes += e.nodes;
      info.num_delegated_nodes += e.nodes;
    }
    info.delegates.push_back(std::move(e));
  }
  for (auto& [name, op] : ops) info.operators.push_back(std::move(op));
  for (auto& [name, b] : backends) info.backends.push_back(std::move(b));
  return info;
}

std::string format_delegated_graph(const Document& doc, const std::string& method) {
  std::string out;
  for (const Graph& g : doc.graphs) {
    if (g.kind == "delegate" || (!method.empty() && g.name != method)) continue;
    out += fmt::format("graph {} ({})\n", g.name, g.kind);
    format_graph(doc, g, 1, out, /*nesting_left=*/4);
  }
  return out;
}

}  // namespace etviz::analysis
