#include "analysis/delegation.h"

#include <fmt/format.h>

#include <algorithm>

namespace etviz::analysis {

bool is_call_delegate(const Node& node) {
  return node.kind == NodeKind::kDelegate ||
         node.op.find("executorch_call_delegate") != std::string::npos;
}

bool counts_as_operator(const Node& node) {
  return node.kind == NodeKind::kKernel && !is_call_delegate(node);
}

Result<DelegationInfo> delegation_info(const Document& doc, const std::string& method) {
  if (!method.empty() && !doc.find_graph(method))
    return Error(fmt::format("no method '{}' (methods: {})", method, doc.top_level_names()));
  DelegationInfo info;
  std::map<std::string, OperatorDelegation> ops;
  std::map<std::string, BackendDelegation> backends;
  // An ETRecord holds several stages of one program; get_delegation_info is run on the
  // lowered (edge dialect) one, so that is the default when present.
  const bool prefer_edge =
      method.empty() && std::any_of(doc.graphs.begin(), doc.graphs.end(), [](const Graph& g) {
        return g.is_top_level() && g.stage.role == StageRole::kEdgeDialect;
      });
  const auto selected = [&](const Graph& g) {
    if (g.kind == GraphKind::kDelegate) return false;
    if (!method.empty()) return g.name == method;
    return !prefer_edge || g.stage.role == StageRole::kEdgeDialect;
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
    if (!sub || sub->opaque) {
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

}  // namespace etviz::analysis
