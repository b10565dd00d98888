#pragma once
// "What did my backend take, and what fell back to CPU?": the numbers ExecuTorch's
// get_delegation_info reports (delegated subgraphs, delegated and non-delegated nodes, and a
// per-operator breakdown), computed from a loaded Document. For a .pte, delegated nodes are
// the ops inside the decoded payloads; payloads that could not be decoded, or whose format
// only allows a summary (QNN, OpenVINO's compiled blob, unknown backends), are counted as
// opaque subgraphs and contribute no node counts.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/document.h"

namespace etviz::analysis {

struct OperatorDelegation {
  std::string op_type;
  int64_t delegated = 0;
  int64_t non_delegated = 0;
  std::map<std::string, int64_t> delegated_by_backend;
};

struct BackendDelegation {
  std::string backend;
  int64_t subgraphs = 0;
  int64_t decoded = 0;  // subgraphs whose ops are known
  int64_t opaque = 0;   // summary-only or undecodable
  int64_t delegated_nodes = 0;
};

struct DelegateEntry {
  std::string method;
  int32_t index_in_method = -1;
  std::string backend;
  std::string location;  // "segment 1", "inline 0"
  uint64_t payload_bytes = 0;
  std::string status;  // "decoded", "summary", "undecodable"
  int64_t nodes = -1;  // ops in the decoded subgraph, -1 when opaque
  std::string note;
  // What the graph says of the payload beside its operators: the TOSA side file it came from,
  // its operator histogram and, for Ethos-U, the command stream's NPU operation histogram
  // (graph attributes tosa_file, tosa_operations, npu_operations; empty when absent).
  std::string tosa_file;
  std::string tosa_operations;
  std::string npu_operations;
};

// A file given beside the program (Document::side_files), for the report.
struct SideFileEntry {
  std::string path;
  std::string delegate;  // "forward/EthosUBackend#0", empty when not attached
  bool ambiguous = false;
  std::string note;
};

struct DelegationInfo {
  int64_t num_delegated_subgraphs = 0;
  int64_t num_delegated_nodes = 0;
  int64_t num_non_delegated_nodes = 0;
  int64_t num_opaque_subgraphs = 0;
  std::vector<OperatorDelegation> operators;  // sorted by op_type
  std::vector<BackendDelegation> backends;    // sorted by backend id
  std::vector<DelegateEntry> delegates;       // in document order
  std::vector<SideFileEntry> side_files;      // in the order given
  std::vector<std::string> graphs;            // the graphs counted (methods, ETRecord stage)
  // How operators are named: the program's own ("" = kernels and backend ops), or "edge
  // dialect (ETRecord)" when an ETRecord mapped instructions to the ops they came from.
  std::string op_names;
};

// Counts over every method (or just `method` when not empty). Fails only for an unknown method.
// With the program's ETRecord, operators are named as ExecuTorch's get_delegation_info names
// them, by the edge-dialect ops they came from: a kernel instruction counts as the edge nodes
// its debug_handle_map entry names, a delegate call as the edge nodes its delegate_map entry
// covers; instructions the maps do not name keep their own op.
Result<DelegationInfo> delegation_info(const Document& doc, const std::string& method = "",
                                       const Document* etrecord = nullptr);

// True for nodes get_delegation_info counts: operator calls, not inputs, outputs, constants,
// delegate calls or ExecuTorch's move/free/jump instructions.
bool counts_as_operator(const Node& node);
// A call into a backend: a .pte DelegateCall or an exported program's executorch_call_delegate.
bool is_call_delegate(const Node& node);
// True for the nodes of a decoded delegate payload that count as delegated operators (the
// backend's ops, and the one informative node of a summary), so every place that says how
// many ops a delegate holds (the report, the page's delegate boxes) counts the same.
bool counts_as_payload_operator(const Node& node);

}  // namespace etviz::analysis
