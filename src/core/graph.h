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
enum class ValueKind {
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

struct Value {
  std::string name;
  ValueKind kind = ValueKind::kTensor;
  TensorInfo tensor;              // meaningful for kTensor
  std::string literal;            // text of a scalar or list value, e.g. "3", "[1, 2]", "True"
  std::vector<ValueId> elements;  // members of a tensor list (kNoId for a None slot)
  NodeId producer = kNoId;        // node writing this value, if any
  std::vector<NodeId> consumers;  // nodes reading it, in execution order
};

enum class NodeKind {
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
  std::string name;
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
  int64_t instruction = -1;  // ExecuTorch instruction index within its chain
  std::vector<int64_t> debug_handles;
  std::vector<StackFrame> stack;  // innermost last
  std::string module_path;        // "layers.3.self_attn.q_proj"
};

struct Node {
  std::string name;
  std::string op;  // "aten::add.out", "XnnpackBackend", "input", ...
  NodeKind kind = NodeKind::kKernel;
  std::vector<Argument> inputs;
  std::vector<Argument> outputs;
  std::vector<Attribute> attributes;
  GroupId group = kNoId;
  Provenance provenance;
  int32_t delegate = -1;  // index into Document::delegates for kDelegate nodes
  int32_t subgraph =
      -1;  // index into Document::graphs of a nested graph (decoded payload, HOP body)
};

enum class GroupKind { kModule, kDelegate, kControlFlow, kQdqCluster, kPartition, kRepeat, kOther };

// A collapsible box. Nodes name their innermost group; groups name their parent.
struct Group {
  std::string name;   // full path, e.g. "layers.3.self_attn"
  std::string label;  // what a box shows, e.g. "self_attn (Attention)"
  GroupKind kind = GroupKind::kModule;
  GroupId parent = kNoId;
};

struct Graph {
  std::string name;  // method or stage name
  std::string kind;  // "method", "delegate", "exported_program", ...
  std::vector<Node> nodes;
  std::vector<Value> values;
  std::vector<Group> groups;
  std::vector<ValueId> inputs;
  std::vector<ValueId> outputs;
  std::vector<Attribute> attributes;
  std::vector<int64_t> memory_buffer_sizes;  // planned arena size per memory id (index = id)

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
  // Fills Value::producer/consumers from the nodes' argument lists.
  void link_values();
};

const char* to_string(ValueKind k);
const char* to_string(NodeKind k);
const char* to_string(GroupKind k);

}  // namespace etviz
