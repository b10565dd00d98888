#pragma once
// Joins profile rows with what the program and the ETRecord know about each instruction.
//
// Program (.pte / .bpte): (chain, instruction) of an event -> the node of that instruction in
// the method's graph: its op, whether it is a delegate call and to which backend.
// ETRecord (core/etrecord_maps.h): debug_handle_map (instruction -> debug handles of the
// edge-dialect nodes it came from) and delegate_map (delegate instruction -> backend and, per
// delegate debug id, the handles that id covers); handles resolve to ops, module paths and
// stack traces.
// Any subset works: with neither, rows keep only what the ETDump says.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/profile_stats.h"
#include "core/document.h"

namespace etviz::analysis {

struct JoinSources {
  const Document* program = nullptr;  // .pte or .bpte document
  std::string method;  // empty: the program's Document::default_graph() (forward, else the
                       // largest method)
  // An ETRecord document (Document::etrecord set): its debug_handle_map and delegate_map tie
  // instructions and delegate debug ids to debug handles, which resolve to the edge-dialect
  // nodes of the method (ops, module paths, stack traces).
  const Document* etrecord = nullptr;
};

struct JoinReport {
  std::string method;          // method joined against ("" when no program)
  size_t joined = 0;           // rows matched to a node
  size_t out_of_range = 0;     // rows whose instruction the method does not have
  size_t name_mismatches = 0;  // native_call_<op> whose op differs from the node's
  std::vector<std::string> warnings;
};

// Fills EventRow::join for every row (operator and method events). Framework events get the
// method name only.
Result<JoinReport> join_profile(ProfileStats& stats, const JoinSources& sources);

// Time per module path like the Inspector's find_total_for_module: an event counts once for
// every module on its path (and each ancestor), with its average time. Unlike the Inspector,
// nested events are not added twice: per instruction only the outermost event counts
// (OPERATOR_CALL, not also native_call_<op>; DELEGATE_CALL, not also the events inside it).
// Needs module paths.
struct ModuleTotal {
  std::string block;
  std::string module;  // "features" / "features.0"
  size_t events = 0;
  double total_avg = 0;  // raw ticks: sum of the events' averages
};
std::vector<ModuleTotal> module_totals(const std::vector<EventRow>& rows);

// Per-node timing for one method's graph, for heat colouring and the viewer's details panel.
// Index = NodeId; nodes without events have occurrences == 0. When several events name the
// same instruction (OPERATOR_CALL around native_call_<op>), the one with the largest total is
// the node's time, so nested events are not counted twice. Events with a delegate debug id
// (work inside a delegate) are not node time: the DELEGATE_CALL that encloses them is.
struct NodeTiming {
  NodeId node = kNoId;
  std::string event;    // the event the figures come from
  DurationStats stats;  // raw ticks
  double share = 0;     // stats.total / Method::execute total of the block (or sum of nodes)
};
std::vector<NodeTiming> node_timings(const ProfileStats& stats, const Graph& graph,
                                     const std::string& block = "Execute");

}  // namespace etviz::analysis
