#pragma once
// The maps an ETRecord keeps to tie a running program back to its graphs, as plain data.
//
// Read by the .etrecord reader (src/formats/torch_export), used by the profile and numerics
// overlays: an ETDump event names a method and an instruction id (or, inside a delegate, a
// delegate debug id); these maps turn that into the debug handles that the edge-dialect graph's
// nodes carry (Provenance::debug_handles).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/graph.h"

namespace etviz {

// A node of one of a Document's graphs.
struct NodeRef {
  int32_t graph = -1;  // Document::graphs index
  NodeId node = kNoId;
};

struct ETRecordMaps {
  // debug_handle_map: method -> instruction id -> debug handles of the graph nodes that the
  // instruction came from (one handle for a plain kernel; several for a fused or delegated op).
  std::map<std::string, std::map<int64_t, std::vector<int64_t>>> debug_handles;

  // delegate_map: method -> instruction id of a DelegateCall -> what the backend reported.
  struct DelegateEntry {
    std::string backend;  // "XnnpackBackend", ...
    // Delegate debug identifier (an integer or a string, as the backend chose; kept as text)
    // -> debug handles of the edge nodes it covers.
    std::map<std::string, std::vector<int64_t>> debug_ids;
  };
  std::map<std::string, std::map<int64_t, DelegateEntry>> delegates;

  // instruction_id_to_num_outs_map: method -> instruction id -> number of outputs (how many
  // ETDump debug events belong to that instruction).
  std::map<std::string, std::map<int64_t, int64_t>> instruction_num_outs;

  bool has_representative_inputs = false;
  bool has_reference_outputs = false;
  int64_t export_graph_id = -1;  // -1 when absent

  // method -> debug handle -> the edge-dialect node that carries it, so an event's handles
  // resolve to ops, module paths and stack traces. Filled by index_handles().
  std::map<std::string, std::map<int64_t, NodeRef>> handle_nodes;

  bool empty() const {
    return debug_handles.empty() && delegates.empty() && instruction_num_outs.empty();
  }
  // Indexes the handles of every edge-dialect stage in `graphs` (StageRole::kEdgeDialect), per
  // the stage's method. Handles are only unique within one method's graph.
  void index_handles(const std::vector<Graph>& graphs);
  // The node carrying `handle` in `method`'s edge-dialect graph, else in another method's
  // (older records keep one graph for all), else null.
  const NodeRef* node_for(const std::string& method, int64_t handle) const;
  // Debug handles of one instruction; empty when unknown.
  const std::vector<int64_t>* handles_for(const std::string& method, int64_t instruction) const {
    auto m = debug_handles.find(method);
    if (m == debug_handles.end()) return nullptr;
    auto i = m->second.find(instruction);
    return i == m->second.end() ? nullptr : &i->second;
  }
};

}  // namespace etviz
