#include "core/graph.h"

#include <algorithm>

namespace etviz {

const ConstantData* Graph::constant_data_of(ValueId v) const {
  auto it = std::lower_bound(constant_data.begin(), constant_data.end(), v,
                             [](const ConstantData& c, ValueId id) { return c.value < id; });
  return it != constant_data.end() && it->value == v ? &*it : nullptr;
}

const BlobRef* Graph::constant_blob(ValueId v) const {
  const ConstantData* c = constant_data_of(v);
  return c && c->blob.valid() ? &c->blob : nullptr;
}

ConstantData& Graph::constant_data_for(ValueId v) {
  // Readers add entries in value order, so this appends; a later pass (named data resolved
  // after reading) may insert.
  if (constant_data.empty() || constant_data.back().value < v) {
    constant_data.push_back(ConstantData{v, {}, 0, 0});
    return constant_data.back();
  }
  auto it = std::lower_bound(constant_data.begin(), constant_data.end(), v,
                             [](const ConstantData& c, ValueId id) { return c.value < id; });
  if (it != constant_data.end() && it->value == v) return *it;
  return *constant_data.insert(it, ConstantData{v, {}, 0, 0});
}

void Graph::link_values() {
  for (Value& v : values) {
    v.producer = kNoId;
    v.consumers.clear();
  }
  auto valid = [&](ValueId id) { return id >= 0 && static_cast<size_t>(id) < values.size(); };
  // A list argument links its members too, one level deep (lists of lists do not occur).
  auto for_value_and_members = [&](ValueId v, auto&& fn) {
    if (!valid(v)) return;
    fn(v);
    for (ValueId e : values[v].elements)
      if (valid(e) && e != v) fn(e);
  };
  for (size_t n = 0; n < nodes.size(); ++n) {
    const auto id = static_cast<NodeId>(n);
    for (const Argument& a : nodes[n].inputs)
      for_value_and_members(a.value, [&](ValueId v) {
        auto& c = values[v].consumers;
        if (c.empty() || c.back() != id) c.push_back(id);
      });
    for (const Argument& a : nodes[n].outputs)
      for_value_and_members(a.value, [&](ValueId v) { values[v].producer = id; });
  }
}

bool is_symbolic(ValueKind k) {
  return k == ValueKind::kSymInt || k == ValueKind::kSymFloat || k == ValueKind::kSymBool;
}

std::string value_text(const Value& v) {
  if (!v.literal.empty()) return v.literal.str();
  if (!v.name.empty()) return v.name;
  return to_string(v.kind);
}

std::vector<Attribute> with_failure(const Node& node) {
  std::vector<Attribute> out;
  out.reserve(node.attributes.size() + 1);
  if (node.failure) out.push_back({"error", node.failure->message});
  out.insert(out.end(), node.attributes.begin(), node.attributes.end());
  return out;
}

std::vector<Attribute> with_failure(const Graph& graph) {
  std::vector<Attribute> out = graph.attributes;
  if (graph.failure) {
    out.push_back({"error", graph.failure->message});
    if (!graph.failure->traceback.empty()) out.push_back({"traceback", graph.failure->traceback});
  }
  return out;
}

const char* to_string(ValueKind k) {
  switch (k) {
    case ValueKind::kNull:
      return "null";
    case ValueKind::kInt:
      return "int";
    case ValueKind::kBool:
      return "bool";
    case ValueKind::kDouble:
      return "double";
    case ValueKind::kString:
      return "string";
    case ValueKind::kTensor:
      return "tensor";
    case ValueKind::kIntList:
      return "int_list";
    case ValueKind::kDoubleList:
      return "double_list";
    case ValueKind::kBoolList:
      return "bool_list";
    case ValueKind::kTensorList:
      return "tensor_list";
    case ValueKind::kOptionalTensorList:
      return "optional_tensor_list";
    case ValueKind::kSymInt:
      return "sym_int";
    case ValueKind::kSymFloat:
      return "sym_float";
    case ValueKind::kSymBool:
      return "sym_bool";
    case ValueKind::kOther:
      return "other";
  }
  return "other";
}

const char* to_string(NodeKind k) {
  switch (k) {
    case NodeKind::kInput:
      return "input";
    case NodeKind::kOutput:
      return "output";
    case NodeKind::kConstant:
      return "constant";
    case NodeKind::kKernel:
      return "kernel";
    case NodeKind::kDelegate:
      return "delegate";
    case NodeKind::kMove:
      return "move";
    case NodeKind::kJumpFalse:
      return "jump_false";
    case NodeKind::kFree:
      return "free";
    case NodeKind::kCallModule:
      return "call_module";
    case NodeKind::kGetAttr:
      return "get_attr";
    case NodeKind::kOther:
      return "other";
  }
  return "other";
}

const char* to_string(GroupKind k) {
  switch (k) {
    case GroupKind::kModule:
      return "module";
    case GroupKind::kDelegate:
      return "delegate";
    case GroupKind::kControlFlow:
      return "control_flow";
    case GroupKind::kQdqCluster:
      return "qdq_cluster";
    case GroupKind::kPartition:
      return "partition";
    case GroupKind::kRepeat:
      return "repeat";
    case GroupKind::kOther:
      return "other";
  }
  return "other";
}

const char* to_string(GraphKind k) {
  switch (k) {
    case GraphKind::kMethod:
      return "method";
    case GraphKind::kDelegate:
      return "delegate";
    case GraphKind::kExportedProgram:
      return "exported_program";
    case GraphKind::kSubgraph:
      return "subgraph";
    case GraphKind::kImported:
      return "imported";
  }
  return "method";
}

const char* to_string(StageRole r) {
  switch (r) {
    case StageRole::kNone:
      return "none";
    case StageRole::kExported:
      return "exported_program";
    case StageRole::kAtenDialect:
      return "aten_dialect";
    case StageRole::kEdgeDialect:
      return "edge_dialect";
    case StageRole::kExtraModule:
      return "extra_module";
    case StageRole::kExecuTorch:
      return "executorch";
    case StageRole::kPass:
      return "pass";
  }
  return "none";
}

const char* to_string(ConstantRole r) {
  switch (r) {
    case ConstantRole::kParameter:
      return "parameter";
    case ConstantRole::kBuffer:
      return "buffer";
    case ConstantRole::kConstantTensor:
      return "tensor_constant";
    case ConstantRole::kCustomObject:
      return "custom_obj";
    case ConstantRole::kConstantInput:
      return "constant_input";
  }
  return "parameter";
}

std::optional<ConstantRole> constant_role(const Node& node) {
  if (node.kind != NodeKind::kConstant) return std::nullopt;
  for (ConstantRole r :
       {ConstantRole::kParameter, ConstantRole::kBuffer, ConstantRole::kConstantTensor,
        ConstantRole::kCustomObject, ConstantRole::kConstantInput})
    if (node.op == to_string(r)) return r;
  return std::nullopt;
}

}  // namespace etviz
