#pragma once
// The graph IR: plain data that readers fill and everything else only reads.
// Ids are indices into the owning Graph's vectors.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/blob_ref.h"
#include "core/tensor_info.h"

namespace etviz {

using NodeId = int32_t;
using ValueId = int32_t;
using GroupId = int32_t;
inline constexpr int32_t kNoId = -1;

// What kind of thing a value is. Tensors are edges; the rest are arguments shown on nodes.
enum class ValueKind : uint8_t {
  kNull,
  kInt,
  kBool,
  kDouble,
  kString,
  kTensor,
  kIntList,
  kDoubleList,
  kBoolList,
  kTensorList,
  kOptionalTensorList,
  kSymInt,
  kSymFloat,
  kSymBool,
  kOther,
};

// A 1M-op program holds 2.2M values and 1.25M nodes: fields most records leave empty are held
// out of line (core/boxed.h), texts many records share are shared.
struct Value {
  std::string name;
  ValueKind kind = ValueKind::kTensor;
  NodeId producer = kNoId;        // node writing this value, if any
  TensorInfo tensor;              // meaningful for kTensor
  SharedString literal;           // text of a scalar or list value, e.g. "3", "[1, 2]", "True"
  SmallVector<ValueId> elements;  // members of a tensor list (kNoId for a None slot)
  SmallVector<NodeId> consumers;  // nodes reading it, in execution order
};

enum class NodeKind : uint8_t {
  kInput,      // graph input
  kOutput,     // graph output
  kConstant,   // parameter, buffer or constant tensor
  kKernel,     // an operator call
  kDelegate,   // a call into a backend's compiled payload
  kMove,       // ExecuTorch MoveCall
  kJumpFalse,  // ExecuTorch JumpFalseCall
  kFree,       // ExecuTorch FreeCall
  kCallModule,
  kGetAttr,
  kOther,
};

// One argument slot of a node: which value, under which schema name (may be empty).
struct Argument {
  SharedString name;
  ValueId value = kNoId;
};

struct Attribute {
  std::string name;
  std::string value;
};

struct StackFrame {
  std::string file;
  int64_t line = 0;
  std::string function;
  std::string context;  // source line
};

// Where a node came from, in the user's terms.
struct Provenance {
  int32_t chain = -1;        // ExecuTorch chain index
  int32_t instruction = -1;  // ExecuTorch instruction index within its chain (< --max-nodes)
  SmallVector<int64_t> debug_handles;
  RareVector<StackFrame> stack;  // innermost last
  SharedString module_path;      // "layers.3.self_attn.q_proj"
};

struct Node {
  std::string name;
  SharedString op;  // "aten::add.out", "XnnpackBackend", "input", ...
  NodeKind kind = NodeKind::kKernel;
  std::vector<Argument> inputs;
  std::vector<Argument> outputs;
  RareVector<Attribute> attributes;
  GroupId group = kNoId;
  Provenance provenance;
  int32_t delegate = -1;  // index into Document::delegates for kDelegate nodes
  int32_t subgraph =
      -1;  // index into Document::graphs of a nested graph (decoded payload, HOP body)
};

// Where a tensor's bytes are, and the layout facts ExecuTorch states that are almost always
// their defaults: one entry per constant (and per tensor with a storage offset or layout of its
// own), not a field of every Value (a 1M-op program holds 2.2M values; docs/limits.md).
struct TensorStorage {
  ValueId value = kNoId;
  int32_t storage_offset = 0;  // in elements, as the program states it
  int8_t layout = 0;           // torch.layout: 0 strided
  BlobRef data;                // the constant's bytes; invalid when not reachable
};

enum class GroupKind { kModule, kDelegate, kControlFlow, kQdqCluster, kPartition, kRepeat, kOther };

// What a graph is. Only kMethod and kExportedProgram graphs are "top level" (a user asks for
// them by name); kDelegate (a decoded backend payload) and kSubgraph (a higher-order op's
// body) are reached through the node that calls them (Document::subgraph_of).
// kImported: a graph another tool wrote (Model Explorer graph JSON), ops as that tool names them.
enum class GraphKind { kMethod, kDelegate, kExportedProgram, kSubgraph, kImported };

// Where a graph sits in the lowering pipeline PyTorch -> ExecuTorch. Readers set it once; a
// diff, a trace or the delegation report asks for "the edge-dialect stage of method M"
// through Document::find_stage instead of guessing from names.
enum class StageRole {
  kNone,         // not a pipeline stage (delegate payloads, nested bodies keep their owner's)
  kExported,     // torch.export's ExportedProgram (ATen ops): a .pt2, an ETRecord's
                 // "exported_program"
  kAtenDialect,  // an ETRecord's aten_dialect_output
  kEdgeDialect,  // to_edge / to_edge_transform_and_lower output (edge ops, lowered calls)
  kExtraModule,  // another graph an ETRecord keeps (its graph_map entries)
  kExecuTorch,   // a method of an ExecuTorch program (.pte / .bpte)
  kPass,         // a compiler-pass snapshot of a trace
};
struct Stage {
  StageRole role = StageRole::kNone;
  std::string method;  // the method the stage belongs to ("forward" when a format has one)
};

// The role of a constant node (NodeKind::kConstant): its Node::op is to_string(role), so text
// and pages read "parameter", "buffer", ... and code compares roles, not strings.
enum class ConstantRole { kParameter, kBuffer, kConstantTensor, kCustomObject, kConstantInput };

// A collapsible box. Nodes name their innermost group; groups name their parent.
struct Group {
  std::string name;   // full path, e.g. "layers.3.self_attn"
  std::string label;  // what a box shows, e.g. "self_attn (Attention)"
  GroupKind kind = GroupKind::kModule;
  GroupId parent = kNoId;
};

struct Graph {
  std::string name;  // method or stage name
  GraphKind kind = GraphKind::kMethod;
  Stage stage;
  // A delegate payload that could only be summarised (QNN context binaries, unknown
  // backends): one informative node, not the backend's real ops.
  bool opaque = false;
  std::vector<Node> nodes;
  std::vector<Value> values;
  std::vector<Group> groups;
  std::vector<ValueId> inputs;
  std::vector<ValueId> outputs;
  std::vector<Attribute> attributes;
  std::vector<int64_t> memory_buffer_sizes;  // planned arena size per memory id (index = id)
  std::vector<TensorStorage> storage;        // sorted by value: see TensorStorage

  NodeId add_node(Node node) {
    nodes.push_back(std::move(node));
    return static_cast<NodeId>(nodes.size() - 1);
  }
  ValueId add_value(Value value) {
    values.push_back(std::move(value));
    return static_cast<ValueId>(values.size() - 1);
  }
  GroupId add_group(Group group) {
    groups.push_back(std::move(group));
    return static_cast<GroupId>(groups.size() - 1);
  }
  // The storage entry of value `v`, or null (a tensor with default layout and no bytes).
  const TensorStorage* storage_of(ValueId v) const;
  TensorStorage& storage_for(ValueId v);  // found or inserted in order
  // Fills Value::producer/consumers from the nodes' argument lists.
  void link_values();
  // A method or exported program, as opposed to a nested graph reached through a node.
  bool is_top_level() const {
    return kind == GraphKind::kMethod || kind == GraphKind::kExportedProgram ||
           kind == GraphKind::kImported;
  }
};

// What a value that is not a tensor shows wherever it appears (panel, reports, diffs, exports):
// its literal ("3", "[1, 1]", "None"), or, for one known only at run time (a symbolic size
// another instruction computes, a method input), its name ("v45", "s0").
std::string value_text(const Value& v);
// Symbolic scalars: computed while the program runs, so they have a name but no literal.
bool is_symbolic(ValueKind k);

const char* to_string(ValueKind k);
const char* to_string(NodeKind k);
const char* to_string(GroupKind k);
const char* to_string(GraphKind k);
const char* to_string(StageRole r);
const char* to_string(ConstantRole r);
// The role of a constant node from its op text; nullopt for other nodes.
std::optional<ConstantRole> constant_role(const Node& node);

}  // namespace etviz
