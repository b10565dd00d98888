#include "core/etrecord_maps.h"

namespace etviz {

void ETRecordMaps::index_handles(const std::vector<Graph>& graphs) {
  handle_nodes.clear();
  for (size_t g = 0; g < graphs.size(); ++g) {
    const Graph& graph = graphs[g];
    if (graph.stage.role != StageRole::kEdgeDialect) continue;
    auto& by_handle = handle_nodes[graph.stage.method];
    for (size_t n = 0; n < graph.nodes.size(); ++n)
      for (int64_t h : graph.nodes[n].provenance.debug_handles)
        by_handle.try_emplace(h, NodeRef{static_cast<int32_t>(g), static_cast<NodeId>(n)});
  }
}

const NodeRef* ETRecordMaps::node_for(const std::string& method, int64_t handle) const {
  if (auto m = handle_nodes.find(method); m != handle_nodes.end())
    if (auto h = m->second.find(handle); h != m->second.end()) return &h->second;
  for (const auto& [other, by_handle] : handle_nodes) {
    if (other == method) continue;
    if (auto h = by_handle.find(handle); h != by_handle.end()) return &h->second;
  }
  return nullptr;
}

}  // namespace etviz
