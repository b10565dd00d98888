#pragma once
// The graph IR: plain data that readers fill and everything else only reads.
// Ids are indices into the owning Graph's vectors.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

// What failed where a graph or a node records it: a pass of a trace that did not run (its
// graph), the op a live trace's forward pass raised at (etviz.trace_model). One typed field,
// read by the timeline, the node's label (a cross) and the page's banner; pages and exports
// still list it as the attributes "error" and "traceback" (with_failure).
struct Failure {
  std::string message;
  std::string traceback;  // Python's, when the trace kept it
};

struct Node {
  std::string name;
  SharedString op;  // "aten::add.out", "XnnpackBackend", "input", ...
  NodeKind kind = NodeKind::kKernel;
  GroupId group = kNoId;  // beside `kind`: the two share what would be padding
  std::vector<Argument> inputs;
  std::vector<Argument> outputs;
  RareVector<Attribute> attributes;
  Boxed<Failure> failure;  // almost always empty: 8 bytes, not a std::optional's 72
  Provenance provenance;
  int32_t delegate = -1;  // index into Document::delegates for kDelegate nodes
  int32_t subgraph =
      -1;  // index into Document::graphs of a nested graph (decoded payload, HOP body)
};

// A byte range of one of the document's source files (Document::sources), read only when
// someone asks (Document::bytes).
struct BlobRef {
  int32_t source = -1;  // index into Document::sources
  uint64_t offset = 0;
  uint64_t size = 0;
  bool valid() const { return source >= 0; }
};

// Where a constant tensor's bytes are, for readers that know (ExecuTorch constants wherever
// they live, XNNPACK payload constants, TOSA constants), and the layout facts ExecuTorch states
// that are almost always their defaults. Kept beside the values, not in TensorInfo: millions of
// activations would carry an empty one each. One entry per constant, and per tensor with a
// storage offset or layout of its own (its blob invalid).
struct ConstantData {
  ValueId value = kNoId;
  BlobRef blob;                // the constant's bytes; invalid when not reachable
  int32_t storage_offset = 0;  // in elements, as the program states it
  int8_t layout = 0;           // torch.layout: 0 strided
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
  std::optional<Failure> failure;            // a pass that did not run (Failure)
  std::vector<int64_t> memory_buffer_sizes;  // planned arena size per memory id (index = id)
  std::vector<ConstantData> constant_data;   // sorted by value; see constant_blob()

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
  // The bytes of constant `v` when the reader recorded where they are, else null.
  const BlobRef* constant_blob(ValueId v) const;
  // The entry of value `v` (bytes, storage offset, layout), or null: a tensor with default
  // layout and no bytes.
  const ConstantData* constant_data_of(ValueId v) const;
  ConstantData& constant_data_for(ValueId v);  // found or inserted in order
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

// The attributes as pages and exports list them, with a failure where the trace reader used
// to put it as text: a node's "error" first, a graph's "error" and "traceback" last.
std::vector<Attribute> with_failure(const Node& node);
std::vector<Attribute> with_failure(const Graph& graph);

const char* to_string(ValueKind k);
const char* to_string(NodeKind k);
const char* to_string(GroupKind k);
const char* to_string(GraphKind k);
const char* to_string(StageRole r);
const char* to_string(ConstantRole r);
// The role of a constant node from its op text; nullopt for other nodes.
std::optional<ConstantRole> constant_role(const Node& node);

}  // namespace etviz
