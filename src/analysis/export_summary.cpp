// `etviz info` facts for torch.export programs (.pt2 models, ETRecord stages): module tree,
// parameters, symbolic dims, and the ETRecord maps.
#include <algorithm>
#include <functional>
#include <set>

#include "analysis/summary.h"

namespace etviz::analysis {
namespace {

const std::string* attribute(const std::vector<Attribute>& attrs, const std::string& name) {
  for (const Attribute& a : attrs)
    if (a.name == name) return &a.value;
  return nullptr;
}

ProgramSummary summarize_program(const Document& doc, const Graph& g) {
  ProgramSummary p;
  p.name = g.name;
  p.role = g.stage.role;
  if (auto* v = attribute(g.attributes, "schema_version")) p.schema_version = *v;
  if (auto* d = attribute(g.attributes, "dialect")) p.dialect = *d;
  std::map<std::string, int64_t> ops;
  for (const Node& n : g.nodes) {
    if (n.kind == NodeKind::kKernel) {
      ++p.node_count;
      ++ops[n.op];
      p.nodes_with_stack_trace += !n.provenance.stack.empty();
      p.nodes_with_debug_handle += !n.provenance.debug_handles.empty();
    } else if (n.kind == NodeKind::kConstant && !n.outputs.empty()) {
      const Value& v = g.values[static_cast<size_t>(n.outputs[0].value)];
      const int64_t bytes =
          v.kind == ValueKind::kTensor && v.tensor.nbytes > 0 ? v.tensor.nbytes : 0;
      const auto role = constant_role(n);
      if (role == ConstantRole::kParameter) {
        ++p.parameters;
        p.parameter_bytes += bytes;
        if (auto e = v.tensor.numel()) p.parameter_elements += *e;
      } else if (role == ConstantRole::kBuffer) {
        ++p.buffers;
        p.buffer_bytes += bytes;
      } else {
        ++p.constants;
      }
    }
    if (n.subgraph >= 0) {
      for (const Attribute& a : n.attributes) p.subgraphs += a.name.starts_with("subgraph.");
    }
  }
  for (const auto& [op, count] : ops) p.ops.push_back({op, count});
  std::stable_sort(p.ops.begin(), p.ops.end(),
                   [](const OpCount& a, const OpCount& b) { return a.count > b.count; });
  for (ValueId id : g.inputs) p.inputs.push_back(describe_value(g, id));
  for (ValueId id : g.outputs) p.outputs.push_back(describe_value(g, id));
  for (const Attribute& a : g.attributes)
    if (a.name.starts_with("range."))
      p.symbolic_dims.push_back(a.name.substr(6) + " in " + a.value);

  // Module tree: depth per group, and operator calls per module including submodules.
  std::vector<int> depth(g.groups.size(), 0);
  std::vector<int64_t> nodes(g.groups.size(), 0);
  std::function<int(size_t)> depth_of = [&](size_t i) -> int {
    if (depth[i]) return depth[i];
    const GroupId parent = g.groups[i].parent;
    // Parents precede children (the reader adds outer modules first); guard against cycles.
    depth[i] = parent >= 0 && static_cast<size_t>(parent) < i
                   ? depth_of(static_cast<size_t>(parent)) + 1
                   : 1;
    return depth[i];
  };
  for (const Node& n : g.nodes) {
    if (n.kind != NodeKind::kKernel) continue;
    for (GroupId id = n.group; id >= 0 && static_cast<size_t>(id) < g.groups.size();
         id = g.groups[id].parent) {
      ++nodes[id];
      if (g.groups[id].parent >= id) break;
    }
  }
  std::vector<std::vector<size_t>> children(g.groups.size());
  std::vector<size_t> roots;
  for (size_t i = 0; i < g.groups.size(); ++i) {
    if (g.groups[i].kind != GroupKind::kModule) continue;
    ++p.module_count;
    p.module_depth = std::max(p.module_depth, depth_of(i));
    const GroupId parent = g.groups[i].parent;
    if (parent >= 0 && static_cast<size_t>(parent) < i)
      children[parent].push_back(i);
    else
      roots.push_back(i);
  }
  std::function<void(size_t)> walk = [&](size_t i) {
    if (p.modules.size() >= 60) return;
    p.modules.push_back({g.groups[i].name, g.groups[i].label, depth[i], nodes[i]});
    for (size_t c : children[i]) walk(c);
  };
  for (size_t r : roots) {
    p.top_modules.push_back({g.groups[r].name, g.groups[r].label, 1, nodes[r]});
    walk(r);
  }
  (void)doc;
  return p;
}

}  // namespace

void summarize_exported_programs(const Document& doc, const std::string& graph, Summary& s) {
  for (const Graph& g : doc.graphs) {
    if (g.kind != GraphKind::kExportedProgram || (!graph.empty() && g.name != graph)) continue;
    s.programs.push_back(summarize_program(doc, g));
  }
  if (!doc.etrecord) return;
  const ETRecordMaps& m = *doc.etrecord;
  ETRecordMapsSummary e;
  e.debug_handle_methods = static_cast<int64_t>(m.debug_handles.size());
  for (const auto& [method, per] : m.debug_handles) {
    e.instructions += static_cast<int64_t>(per.size());
    for (const auto& [instr, handles] : per)
      e.debug_handles += static_cast<int64_t>(handles.size());
  }
  for (const auto& [method, per] : m.delegates)
    for (const auto& [instr, entry] : per) {
      ++e.delegate_calls;
      ++e.delegate_calls_by_backend[entry.backend.empty() ? "?" : entry.backend];
      e.delegate_debug_ids += static_cast<int64_t>(entry.debug_ids.size());
    }
  for (const auto& [method, per] : m.instruction_num_outs)
    e.num_outs_entries += static_cast<int64_t>(per.size());
  e.representative_inputs = m.has_representative_inputs;
  e.reference_outputs = m.has_reference_outputs;
  s.etrecord = e;
}

}  // namespace etviz::analysis
