#pragma once
// What changed between two graphs: node matching and the facts of a diff (docs/diff.md).
//
// Matching, in order of trust, each step only among nodes the previous ones left unmatched:
//   1. debug handle: a handle carried by exactly one node on each side;
//   2. name: equal node names (exported programs keep names across passes; .pte constants
//      and inputs are named by fqn / position);
//   3. module scope: the same module path, the same op (base name) and the same position
//      among that module's nodes of that op;
//   4. structure: a node whose inputs' producers are matched is matched to the one node on the
//      other side with the same op (base name) fed by their counterparts (and likewise from
//      matched consumers), repeated until nothing changes: one changed op in a chain does not
//      unmatch the rest of the chain;
//   5. order: where as many unmatched nodes of one op are left on each side, they pair in
//      graph order (an op that moved keeps its identity).
// A matched pair is changed when its op (overload included), output shapes, dtypes or dim
// orders, literal arguments, delegate backend or quantization parameters differ. Unmatched
// nodes are added (only in B) or removed (only in A). Near-linear: hashing and a worklist.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/document.h"

namespace etviz::analysis {

enum class DiffStatus : uint8_t { kSame, kChanged, kAdded, kRemoved };
const char* to_string(DiffStatus s);

enum class MatchReason : uint8_t { kNone, kDebugHandle, kName, kModuleScope, kStructure, kOrder };
const char* to_string(MatchReason r);

struct NodeChange {
  NodeId a = kNoId, b = kNoId;
  std::vector<std::string> what;  // "op aten::add.Tensor -> aten::add.out", "output 0 shape ..."
};

struct OpDelta {
  std::string op;
  int64_t a = 0, b = 0;  // operator calls in each graph
};

struct TensorChange {
  NodeId a = kNoId, b = kNoId;  // producers
  std::string name;             // the tensor's name in B
  std::string before, after;    // "float32[1, 16]"
};

struct ValueDiff;  // value_diff.h

struct GraphDiff {
  std::string a_name, b_name;
  // Per node: its counterpart (kNoId: none) and status.
  std::vector<NodeId> a_to_b, b_to_a;
  std::vector<DiffStatus> a_status, b_status;
  std::vector<MatchReason> b_reason;  // how each B node was matched
  std::map<MatchReason, int64_t> matched_by;
  int64_t same = 0, changed = 0, added = 0, removed = 0;
  std::vector<NodeChange> changes;           // matched pairs that differ, in B order
  std::vector<OpDelta> op_deltas;            // operators whose count differs, by op
  std::vector<TensorChange> tensor_changes;  // outputs of matched nodes whose type changed
  // Delegation: calls per backend on each side.
  std::map<std::string, std::pair<int64_t, int64_t>> delegates;
  int64_t constant_bytes_a = 0, constant_bytes_b = 0;  // constants the graphs read
  int64_t payload_bytes_a = 0, payload_bytes_b = 0;    // delegate payloads they call
  std::vector<int64_t> arena_a, arena_b;               // planned memory per memory id
  // Values, weights and counts (add_value_diff, value_diff.h); null when not compared.
  std::shared_ptr<const ValueDiff> values;
};

GraphDiff diff_graphs(const Document& da, const Graph& a, const Document& db, const Graph& b);

// "aten::convolution.out" / "aten.convolution.default" / "convolution" / "F.conv2d"-style
// live-trace names ("F.relu" -> "relu") -> "convolution":
// what an op is called across stages (namespace, overload and _copy variants dropped), for
// structural matching and op-count deltas across dialects.
std::string op_base(const std::string& op);

}  // namespace etviz::analysis

namespace etviz::analysis {

// The top-level graphs of a document in pipeline order: exported program, ATen dialect, edge
// dialect, other ETRecord modules, pass snapshots (in trace order), ExecuTorch methods. An
// ETRecord read this way is a trace of the stages a user lowered through.
std::vector<int32_t> pipeline_graphs(const Document& doc);

// The graph of `doc` a user means by `name` (`diff FILE#GRAPH`, `export --method`, `memory
// --method`): a graph name, a stage role ("edge_dialect") or a pass name or index; with no
// name Document::default_graph(), the graph the page opens on. Fails with the names there
// are.
Result<int32_t> select_graph(const Document& doc, const std::string& name);

}  // namespace etviz::analysis
