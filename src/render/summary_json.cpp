#include <nlohmann/json.hpp>

#include "render/json_text.h"
#include "render/summary_report.h"

namespace etviz::render {
namespace {

using analysis::TensorSummary;
using nlohmann::json;

json tensors(const std::vector<TensorSummary>& list) {
  json a = json::array();
  for (const auto& t : list) {
    json o = {{"name", t.name}, {"kind", to_string(t.kind)}};
    if (t.kind == ValueKind::kTensor) {
      o["dtype"] = t.dtype;
      o["shape"] = t.shape;
    } else {
      o["value"] = t.literal;
    }
    a.push_back(std::move(o));
  }
  return a;
}

json op_counts(const std::vector<analysis::OpCount>& ops) {
  json a = json::array();
  for (const auto& op : ops) a.push_back({{"op", op.op}, {"count", op.count}});
  return a;
}

json constants(const std::vector<analysis::ConstantSummary>& list) {
  json a = json::array();
  for (const auto& c : list)
    a.push_back({{"name", c.name},
                 {"dtype", c.dtype},
                 {"shape", c.shape},
                 {"bytes", c.bytes},
                 {"location", c.location}});
  return a;
}

}  // namespace

std::string summary_json(const analysis::Summary& s) {
  json j;
  j["schema"] = "etviz.info/1";
  j["path"] = s.path;
  j["file_size"] = s.file_size;
  j["format"] = to_string(s.format);
  j["format_version"] = s.format_version;
  json props = json::object();
  for (const auto& p : s.properties) props[p.name] = p.value;
  j["properties"] = props;
  j["sections"] = json::array();
  for (const auto& sec : s.sections)
    j["sections"].push_back(
        {{"name", sec.name}, {"kind", sec.kind}, {"offset", sec.offset}, {"size", sec.size}});
  j["methods"] = json::array();
  for (const auto& m : s.methods) {
    json mj = {{"name", m.name},
               {"instruction_count", m.instruction_count},
               {"instructions", m.instructions},
               {"value_count", m.value_count},
               {"node_count", m.node_count},
               {"ops", op_counts(m.ops)},
               {"inputs", tensors(m.inputs)},
               {"outputs", tensors(m.outputs)},
               {"memory_buffer_sizes", m.memory_buffer_sizes},
               {"delegate_calls", m.delegate_calls}};
    j["methods"].push_back(std::move(mj));
  }
  j["ops"] = op_counts(s.ops);
  j["backends"] = json::array();
  for (const auto& b : s.backends)
    j["backends"].push_back({{"backend", b.backend},
                             {"delegates", b.delegates},
                             {"calls", b.calls},
                             {"payload_bytes", b.payload_bytes},
                             {"compile_spec_keys", b.compile_spec_keys},
                             {"locations", b.locations}});
  j["delegates"] = json::array();
  for (const auto& d : s.delegates) {
    json specs = json::array();
    for (const auto& cs : d.compile_specs)
      specs.push_back({{"key", cs.key}, {"value", cs.display()}, {"bytes", cs.value.size()}});
    j["delegates"].push_back({{"backend", d.backend_id},
                              {"method", d.method},
                              {"index", d.index_in_method},
                              {"location", d.payload_location},
                              {"payload_index", d.payload_index},
                              {"payload_offset", d.payload.offset},
                              {"payload_bytes", d.payload.size},
                              {"compile_specs", specs}});
  }
  j["constants"] = {{"count", s.constant_count},
                    {"bytes", s.constant_bytes},
                    {"by_location", s.constants_by_location},
                    {"external", s.external_tensors},
                    {"largest", constants(s.largest_constants)}};
  j["named_data"] = {{"count", s.named_data_count},
                     {"bytes", s.named_data_bytes},
                     {"first", constants(s.named_data)}};
  j["test_suites"] = json::array();
  for (const auto& suite : s.test_suites)
    j["test_suites"].push_back({{"method", suite.method},
                                {"cases", suite.cases},
                                {"inputs", tensors(suite.inputs)},
                                {"expected_outputs", tensors(suite.expected_outputs)}});
  j["programs"] = json::array();
  for (const auto& p : s.programs) {
    json mods = json::array();
    for (const auto& m : p.modules)
      mods.push_back(
          {{"path", m.path}, {"label", m.label}, {"depth", m.depth}, {"calls", m.nodes}});
    json tops = json::array();
    for (const auto& m : p.top_modules)
      tops.push_back({{"path", m.path}, {"label", m.label}, {"calls", m.nodes}});
    j["programs"].push_back({{"name", p.name},
                             {"role", to_string(p.role)},
                             {"schema_version", p.schema_version},
                             {"dialect", p.dialect},
                             {"node_count", p.node_count},
                             {"ops", op_counts(p.ops)},
                             {"inputs", tensors(p.inputs)},
                             {"outputs", tensors(p.outputs)},
                             {"parameters",
                              {{"count", p.parameters},
                               {"elements", p.parameter_elements},
                               {"bytes", p.parameter_bytes}}},
                             {"buffers", {{"count", p.buffers}, {"bytes", p.buffer_bytes}}},
                             {"other_constants", p.constants},
                             {"symbolic_dims", p.symbolic_dims},
                             {"subgraphs", p.subgraphs},
                             {"nodes_with_stack_trace", p.nodes_with_stack_trace},
                             {"nodes_with_debug_handle", p.nodes_with_debug_handle},
                             {"module_tree",
                              {{"count", p.module_count},
                               {"depth", p.module_depth},
                               {"top_level", tops},
                               {"modules", mods}}}});
  }
  if (s.etrecord) {
    const auto& e = *s.etrecord;
    j["etrecord"] = {{"debug_handle_map",
                      {{"methods", e.debug_handle_methods},
                       {"instructions", e.instructions},
                       {"debug_handles", e.debug_handles}}},
                     {"delegate_map",
                      {{"delegate_calls", e.delegate_calls},
                       {"by_backend", e.delegate_calls_by_backend},
                       {"delegate_debug_ids", e.delegate_debug_ids}}},
                     {"instruction_id_to_num_outs_map", e.num_outs_entries},
                     {"representative_inputs", e.representative_inputs},
                     {"reference_outputs", e.reference_outputs}};
  }
  if (!s.imported_graphs.empty()) {
    json graphs = json::array();
    for (const auto& g : s.imported_graphs) {
      json links = json::array();
      for (const auto& l : g.links)
        links.push_back({{"node", l.node}, {"graph", l.graph}, {"missing", l.missing}});
      graphs.push_back({{"name", g.name},
                        {"nested", g.nested},
                        {"nodes", g.nodes},
                        {"edges", g.edges},
                        {"inputs", g.inputs},
                        {"outputs", g.outputs},
                        {"namespaces", g.namespaces},
                        {"namespace_depth", g.namespace_depth},
                        {"ops", op_counts(g.ops)},
                        {"subgraph_links", std::move(links)}});
    }
    j["graphs"] = std::move(graphs);
  }
  j["diagnostics"] = json::array();
  for (const auto& d : s.diagnostics)
    j["diagnostics"].push_back({{"severity", to_string(d.severity)}, {"message", d.message}});
  // Names from model files may be invalid UTF-8; replace rather than throw.
  return json_report(j);
}

}  // namespace etviz::render
