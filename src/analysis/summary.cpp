#include "analysis/summary.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace etviz::analysis {
namespace {

std::vector<OpCount> sorted_counts(const std::map<std::string, int64_t>& counts) {
  std::vector<OpCount> out;
  for (const auto& [op, n] : counts) out.push_back({op, n});
  std::stable_sort(out.begin(), out.end(),
                   [](const OpCount& a, const OpCount& b) { return a.count > b.count; });
  return out;
}

TensorSummary describe(ValueKind kind, const TensorInfo& tensor, const std::string& literal) {
  TensorSummary t;
  t.kind = kind;
  if (kind == ValueKind::kTensor) {
    t.dtype = tensor.dtype;
    t.shape = tensor.shape_string();
  } else {
    t.literal = literal;
  }
  return t;
}

TensorSummary describe(const TestValue& v) {
  return describe(v.kind, v.tensor, v.literal);
}

}  // namespace

void summarize_imported_graphs(const Document& doc, const std::string& graph, Summary& s) {
  for (size_t gi = 0; gi < doc.graphs.size(); ++gi) {
    const Graph& g = doc.graphs[gi];
    if (g.kind != GraphKind::kImported && g.kind != GraphKind::kSubgraph) continue;
    if (!graph.empty() && g.name != graph) continue;
    ImportedGraphSummary m;
    m.name = g.name;
    m.nested = g.kind == GraphKind::kSubgraph;
    m.inputs = static_cast<int64_t>(g.inputs.size());
    m.outputs = static_cast<int64_t>(g.outputs.size());
    m.namespaces = static_cast<int64_t>(g.groups.size());
    for (const Group& grp : g.groups) {
      int depth = 1;
      for (GroupId p = grp.parent; p >= 0 && depth <= static_cast<int>(g.groups.size());
           p = g.groups[static_cast<size_t>(p)].parent)
        ++depth;
      m.namespace_depth = std::max(m.namespace_depth, depth);
    }
    std::vector<bool> produced(g.values.size());
    for (ValueId v : g.inputs)
      if (v >= 0 && static_cast<size_t>(v) < produced.size())
        produced[static_cast<size_t>(v)] = true;
    for (const Node& n : g.nodes)
      for (const Argument& a : n.outputs)
        if (a.value >= 0 && static_cast<size_t>(a.value) < produced.size())
          produced[static_cast<size_t>(a.value)] = true;
    std::map<std::string, int64_t> ops;
    for (const Node& n : g.nodes) {
      // The graph's own input and output nodes are its boundary, not operators.
      if (n.kind == NodeKind::kInput || n.kind == NodeKind::kOutput) continue;
      ++m.nodes;
      ++ops[n.op];
      for (const Argument& a : n.inputs)
        m.edges += a.value >= 0 && static_cast<size_t>(a.value) < produced.size() &&
                   produced[static_cast<size_t>(a.value)];
      // Every subgraphIds link as the reader kept it; one naming no graph of the file
      // (Arm's delegates file) is listed too, marked missing.
      for (const Attribute& a : n.attributes)
        if (a.name == "subgraphId") m.links.push_back({n.name, a.value, !doc.find_graph(a.value)});
    }
    m.ops = sorted_counts(ops);
    if (m.ops.size() > 10) m.ops.resize(10);
    s.imported_ops += m.nodes;
    s.imported_graphs.push_back(std::move(m));
  }
}

TensorSummary describe_value(const Graph& g, ValueId id) {
  if (id < 0 || static_cast<size_t>(id) >= g.values.size()) return {};
  const Value& v = g.values[id];
  TensorSummary t = describe(v.kind, v.tensor, value_text(v));
  t.name = v.name;
  return t;
}

Result<Summary> summarize(const Document& doc, const std::string& method) {
  Summary s;
  s.path = doc.path();
  s.file_size = doc.sources.empty() ? 0 : doc.sources.front()->size();
  s.format = doc.format;
  s.format_version = doc.format_version;
  s.properties = doc.properties;
  s.sections = doc.sections;
  s.diagnostics = doc.diagnostics;

  if (!method.empty() && !doc.find_graph(method))
    return Error("no method named '" + method + "' (methods: " + doc.top_level_names() + ")");

  std::map<std::string, int64_t> program_ops;
  std::map<std::string, int64_t> calls_per_backend;
  // Constants can be shared by methods; count each stored blob once.
  std::set<std::tuple<int, int64_t, std::string>> seen_constants;
  std::vector<ConstantSummary> constants;
  for (const Graph& g : doc.graphs) {
    if (g.kind != GraphKind::kMethod || (!method.empty() && g.name != method)) continue;
    MethodSummary m;
    m.name = g.name;
    m.value_count = static_cast<int64_t>(g.values.size());
    m.node_count = static_cast<int64_t>(g.nodes.size());
    m.memory_buffer_sizes = g.memory_buffer_sizes;
    std::map<std::string, int64_t> ops;
    for (const Node& n : g.nodes) {
      switch (n.kind) {
        case NodeKind::kKernel:
          ++ops[n.op];
          ++program_ops[n.op];
          break;
        case NodeKind::kDelegate:
          ++m.delegate_calls;
          ++calls_per_backend[n.op];
          break;
        default:
          break;
      }
      if (n.provenance.instruction >= 0) {
        ++m.instructions[to_string(n.kind)];
        ++m.instruction_count;
      }
    }
    m.ops = sorted_counts(ops);
    for (ValueId id : g.inputs) m.inputs.push_back(describe_value(g, id));
    for (ValueId id : g.outputs) m.outputs.push_back(describe_value(g, id));
    for (const Value& v : g.values) {
      if (v.kind != ValueKind::kTensor || !v.tensor.is_constant()) continue;
      if (v.tensor.data_location == DataLocation::kExternal) ++s.external_tensors;
      const auto key = std::make_tuple(static_cast<int>(v.tensor.data_location),
                                       v.tensor.data_index, v.tensor.data_key);
      if (!seen_constants.insert(key).second) continue;
      ++s.constant_count;
      if (v.tensor.nbytes > 0) s.constant_bytes += v.tensor.nbytes;
      ++s.constants_by_location[to_string(v.tensor.data_location)];
      constants.push_back({v.name, v.tensor.dtype, v.tensor.shape_string(), v.tensor.nbytes,
                           to_string(v.tensor.data_location)});
    }
    s.methods.push_back(std::move(m));
  }
  s.ops = sorted_counts(program_ops);
  std::stable_sort(
      constants.begin(), constants.end(),
      [](const ConstantSummary& a, const ConstantSummary& b) { return a.bytes > b.bytes; });
  if (constants.size() > 10) constants.resize(10);
  s.largest_constants = std::move(constants);

  // Backends, in order of first appearance; a payload shared by several delegates counts once.
  std::set<std::tuple<int, uint64_t, uint64_t>> seen_payloads;
  for (const Delegate& d : doc.delegates) {
    if (!method.empty() && d.method != method) continue;
    s.delegates.push_back(d);
    auto it = std::find_if(s.backends.begin(), s.backends.end(),
                           [&](const BackendSummary& b) { return b.backend == d.backend_id; });
    if (it == s.backends.end()) {
      BackendSummary b;
      b.backend = d.backend_id;
      s.backends.push_back(std::move(b));
      it = s.backends.end() - 1;
      it->calls = calls_per_backend[d.backend_id];
    }
    ++it->delegates;
    if (seen_payloads.insert({d.payload.source, d.payload.offset, d.payload.size}).second)
      it->payload_bytes += d.payload.size;
    for (const CompileSpec& cs : d.compile_specs)
      if (std::find(it->compile_spec_keys.begin(), it->compile_spec_keys.end(), cs.key) ==
          it->compile_spec_keys.end())
        it->compile_spec_keys.push_back(cs.key);
    if (std::find(it->locations.begin(), it->locations.end(), d.payload_location) ==
        it->locations.end())
      it->locations.push_back(d.payload_location);
  }

  s.named_data_count = static_cast<int64_t>(doc.named_data.size());
  for (const NamedBlob& b : doc.named_data) {
    s.named_data_bytes += b.blob.size;
    if (s.named_data.size() < 20) {
      ConstantSummary c{b.key, "", "", static_cast<int64_t>(b.blob.size), "named_data"};
      if (b.tensor) {
        c.dtype = b.tensor->dtype;
        c.shape = b.tensor->shape_string();
      }
      s.named_data.push_back(std::move(c));
    }
  }

  for (const TestSuite& suite : doc.test_suites) {
    if (!method.empty() && suite.method != method) continue;
    SuiteSummary ss;
    ss.method = suite.method;
    ss.cases = static_cast<int64_t>(suite.cases.size());
    if (!suite.cases.empty()) {
      for (const TestValue& v : suite.cases.front().inputs) ss.inputs.push_back(describe(v));
      for (const TestValue& v : suite.cases.front().expected_outputs)
        ss.expected_outputs.push_back(describe(v));
    }
    s.test_suites.push_back(std::move(ss));
  }
  summarize_exported_programs(doc, method, s);
  if (doc.format == DocumentFormat::kModelExplorerJson || doc.format == DocumentFormat::kTosa)
    summarize_imported_graphs(doc, method, s);
  return s;
}

}  // namespace etviz::analysis
