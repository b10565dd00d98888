#include "analysis/profile_etrecord.h"

namespace etviz::analysis {
namespace {

bool is_edge_dialect(const Graph& g) {
  for (const Attribute& a : g.attributes)
    if (a.name == "etrecord_role" && a.value == "edge_dialect") return true;
  return false;
}

// "edge_dialect_exported_program/<method>"; older records have one graph for forward.
std::string method_of(const Graph& g) {
  const auto slash = g.name.find('/');
  return slash == std::string::npos ? "forward" : g.name.substr(slash + 1);
}

}  // namespace

EtrecordMaps etrecord_maps_from_document(const Document& etrecord, const std::string& method) {
  EtrecordMaps maps;
  if (!etrecord.etrecord) return maps;
  const ETRecordMaps& in = *etrecord.etrecord;
  maps.debug_handle_map = in.debug_handles;
  for (const auto& [m, per] : in.delegates)
    for (const auto& [instruction, entry] : per) {
      EtrecordMaps::DelegateEntry& out = maps.delegate_map[m][instruction];
      out.backend = entry.backend;
      out.ids = entry.debug_ids;
    }
  // The method's own graph first, so its handles win over another method's equal numbers.
  std::vector<const Graph*> graphs;
  for (const Graph& g : etrecord.graphs)
    if (is_edge_dialect(g) && method_of(g) == method) graphs.push_back(&g);
  for (const Graph& g : etrecord.graphs)
    if (is_edge_dialect(g) && method_of(g) != method) graphs.push_back(&g);
  for (const Graph* g : graphs)
    for (const Node& node : g->nodes)
      for (int64_t h : node.provenance.debug_handles)
        maps.handles.try_emplace(h, EtrecordMaps::HandleInfo{node.op, node.provenance.module_path,
                                                             node.provenance.stack});
  return maps;
}

}  // namespace etviz::analysis
