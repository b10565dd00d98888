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

bool counts_as_payload_operator(const Node& node) {
  return counts_as_operator(node) || node.kind == NodeKind::kOther;
}

namespace {

// The edge-dialect ops that debug handles name in an ETRecord, one per distinct node.
std::vector<std::string> edge_ops(const Document& etrecord, const std::string& method,
                                  const std::vector<int64_t>& handles) {
  std::vector<std::string> out;
  std::vector<const NodeRef*> seen;
  for (int64_t h : handles) {
    const NodeRef* ref = etrecord.etrecord->node_for(method, h);
    if (!ref || std::any_of(seen.begin(), seen.end(), [&](const NodeRef* s) {
          return s->graph == ref->graph && s->node == ref->node;
        }))
      continue;
    seen.push_back(ref);
    out.push_back(
        etrecord.graphs[static_cast<size_t>(ref->graph)].nodes[static_cast<size_t>(ref->node)].op);
  }
  return out;
}

// A decoded payload's graph and the graphs its nodes open (control-flow bodies of a TOSA
// graph), each once; bounded by the document's graph count.
std::vector<const Graph*> payload_graphs(const Document& doc, const Graph* sub) {
  std::vector<const Graph*> out{sub};
  std::vector<bool> seen(doc.graphs.size(), false);
  if (sub >= doc.graphs.data() && sub < doc.graphs.data() + doc.graphs.size())
    seen[static_cast<size_t>(sub - doc.graphs.data())] = true;
  auto visit = [&](const Graph* g) {
    if (!g) return;
    const auto k = static_cast<size_t>(g - doc.graphs.data());
    if (k >= seen.size() || seen[k]) return;
    seen[k] = true;
    out.push_back(g);
  };
  for (size_t i = 0; i < out.size(); ++i)
    for (const Node& n : out[i]->nodes) {
      visit(doc.subgraph_of(n));
      for (const Attribute& a : n.attributes)
        if (a.name.rfind("subgraph.", 0) == 0) visit(doc.find_graph(a.value));
    }
  return out;
}

std::string graph_attribute(const Graph* g, std::string_view name) {
  if (!g) return {};
  for (const Attribute& a : g->attributes)
    if (a.name == name) return a.value;
  return {};
}

// The instruction of the call of delegate `index` in `method`, or -1.
int64_t call_instruction(const Graph& method, int32_t index) {
  for (const Node& n : method.nodes)
    if (n.kind == NodeKind::kDelegate && n.delegate == index) return n.provenance.instruction;
  return -1;
}

}  // namespace

Result<DelegationInfo> delegation_info(const Document& doc, const std::string& method,
                                       const Document* etrecord) {
  if (!method.empty() && !doc.find_graph(method))
    return Error(fmt::format("no method '{}' (methods: {})", method, doc.top_level_names()));
  if (etrecord && !etrecord->etrecord) etrecord = nullptr;
  DelegationInfo info;
  if (etrecord) info.op_names = "edge dialect (ETRecord)";
  std::map<std::string, OperatorDelegation> ops;
  std::map<std::string, BackendDelegation> backends;
  // An ETRecord holds several stages of one program; get_delegation_info is run on the
  // lowered one, so what the report means is a stage, not the file's default graph: the
  // edge-dialect stage of each method (with the bodies it nests), when the file has one.
  // Else every method.
  const bool prefer_edge =
      method.empty() && std::any_of(doc.graphs.begin(), doc.graphs.end(), [&](const Graph& g) {
        return doc.find_stage(StageRole::kEdgeDialect, g.stage.method) != nullptr;
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
        // serialized: a delegated subgraph of unknown content. So is a call a graph file marks
        // (Model Explorer JSON) without the payload: its op names the backend.
        if (n.kind == NodeKind::kDelegate && n.delegate >= 0) continue;  // counted from delegates
        const bool marked = n.kind == NodeKind::kDelegate;
        DelegateEntry e;
        e.method = g.name;
        e.backend = marked ? n.op.str() : "(lowered module)";
        e.location =
            n.inputs.empty() || n.inputs[0].value < 0 ? "" : g.values[n.inputs[0].value].name;
        e.status = "undecodable";
        e.note = marked ? "a graph file's delegate call: the payload is not in the file"
                        : "exported program: the lowered module's graph is not serialized";
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
        // With an ETRecord, a kernel counts as the edge-dialect ops it came from.
        std::vector<std::string> names;
        if (etrecord && g.kind == GraphKind::kMethod)
          if (const auto* handles =
                  etrecord->etrecord->handles_for(g.name, n.provenance.instruction))
            names = edge_ops(*etrecord, g.name, *handles);
        if (names.empty()) names.push_back(n.op);
        for (const std::string& name : names) {
          auto& op = ops[name];
          op.op_type = name;
          ++op.non_delegated;
          ++info.num_non_delegated_nodes;
        }
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
    e.tosa_file = graph_attribute(sub, "tosa_file");
    e.tosa_operations = graph_attribute(sub, "tosa_operations");
    e.npu_operations = graph_attribute(sub, "npu_operations");
    if (e.npu_operations.empty() && sub && sub->opaque)
      for (const Node& n : sub->nodes)
        for (const Attribute& a : n.attributes)
          if (a.name == "npu_operations") e.npu_operations = a.value;
    // With an ETRecord: the edge-dialect ops its delegate map says the call covers.
    std::vector<std::string> mapped;
    if (etrecord && owner) {
      const int64_t instruction =
          call_instruction(*owner, static_cast<int32_t>(&d - doc.delegates.data()));
      const auto& per_method = etrecord->etrecord->delegates;
      if (auto m = per_method.find(d.method); m != per_method.end())
        if (auto entry = m->second.find(instruction); entry != m->second.end()) {
          std::vector<int64_t> handles;
          for (const auto& [id, covered] : entry->second.debug_ids)
            handles.insert(handles.end(), covered.begin(), covered.end());
          mapped = edge_ops(*etrecord, d.method, handles);
        }
    }
    if (!mapped.empty()) {
      e.status = sub && !sub->opaque ? "decoded" : (sub ? "summary" : "undecodable");
      e.nodes = static_cast<int64_t>(mapped.size());
      // Its nodes are counted even when the payload itself is opaque.
      ++(sub && !sub->opaque ? b.decoded : b.opaque);
      for (const std::string& name : mapped) {
        auto& op = ops[name];
        op.op_type = name;
        ++op.delegated;
        ++op.delegated_by_backend[d.backend_id];
      }
      b.delegated_nodes += e.nodes;
      info.num_delegated_nodes += e.nodes;
    } else if (!sub || sub->opaque) {
      e.status = sub ? "summary" : "undecodable";
      ++b.opaque;
      ++info.num_opaque_subgraphs;
    } else {
      e.status = "decoded";
      e.nodes = 0;
      ++b.decoded;
      for (const Graph* pg : payload_graphs(doc, sub))
        for (const Node& n : pg->nodes) {
          if (!counts_as_payload_operator(n)) continue;
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
  for (const SideFile& f : doc.side_files) {
    SideFileEntry s{f.path, "", f.ambiguous, f.note};
    if (f.delegate >= 0 && static_cast<size_t>(f.delegate) < doc.delegates.size()) {
      const Delegate& d = doc.delegates[static_cast<size_t>(f.delegate)];
      s.delegate = fmt::format("{}/{}#{}", d.method, d.backend_id, d.index_in_method);
    }
    info.side_files.push_back(std::move(s));
  }
  for (auto& [name, op] : ops) info.operators.push_back(std::move(op));
  for (auto& [name, b] : backends) info.backends.push_back(std::move(b));
  return info;
}

}  // namespace etviz::analysis
