#include "core/graph_builder.h"

#include <algorithm>
#include <string>

namespace etviz {

GraphBuilder::GraphBuilder(std::string name, GraphKind kind, Stage stage) {
  graph_.name = std::move(name);
  graph_.kind = kind;
  graph_.stage = std::move(stage);
}

ValueId GraphBuilder::add_tensor(std::string name, TensorInfo info) {
  Value v;
  v.name = std::move(name);
  v.kind = ValueKind::kTensor;
  v.tensor = std::move(info);
  return add_value(std::move(v));
}

NodeId GraphBuilder::add_input(ValueId id, std::string name) {
  Node n;
  n.name = name.empty() ? "input_" + std::to_string(graph_.inputs.size()) : std::move(name);
  n.op = "input";
  n.kind = NodeKind::kInput;
  n.outputs.push_back({"", id});
  graph_.inputs.push_back(id);
  return graph_.add_node(std::move(n));
}

NodeId GraphBuilder::add_output(ValueId id, std::string name, bool user) {
  use(id);
  Node n;
  n.name = name.empty() ? "output_" + std::to_string(output_count_) : std::move(name);
  ++output_count_;
  n.op = "output";
  n.kind = NodeKind::kOutput;
  n.inputs.push_back({"", id});
  if (user) graph_.outputs.push_back(id);
  return graph_.add_node(std::move(n));
}

NodeId GraphBuilder::add_output(const std::vector<ValueId>& ids, std::string name) {
  Node n;
  n.name = name.empty() ? "output_" + std::to_string(output_count_) : std::move(name);
  ++output_count_;
  n.op = "output";
  n.kind = NodeKind::kOutput;
  for (ValueId id : ids) {
    use(id);
    n.inputs.push_back({"", id});
    graph_.outputs.push_back(id);
  }
  return graph_.add_node(std::move(n));
}

NodeId& GraphBuilder::constant_slot(ValueId id) {
  if (constant_node_.size() < graph_.values.size())
    constant_node_.resize(graph_.values.size(), kNoId);
  return constant_node_[static_cast<size_t>(id)];
}

NodeId GraphBuilder::add_constant(ValueId id, ConstantRole role) {
  NodeId& slot = constant_slot(id);
  if (slot != kNoId) return slot;
  const Value& v = graph_.values[static_cast<size_t>(id)];
  Node n;
  n.name =
      v.kind == ValueKind::kTensor && !v.tensor.data_key.empty() ? v.tensor.data_key.str() : v.name;
  if (n.name.empty()) n.name = "const_" + std::to_string(id);
  n.op = to_string(role);
  n.kind = NodeKind::kConstant;
  n.outputs.push_back({"", id});
  if (v.kind == ValueKind::kTensor && v.tensor.data_location != DataLocation::kNone)
    n.attributes.push_back({"data_location", to_string(v.tensor.data_location)});
  slot = graph_.add_node(std::move(n));
  return slot;
}

ConstantRole GraphBuilder::default_role(const TensorInfo& tensor) {
  return tensor.data_location == DataLocation::kMutableSegment ? ConstantRole::kBuffer
                                                               : ConstantRole::kParameter;
}

void GraphBuilder::use(ValueId id) {
  if (id < 0 || static_cast<size_t>(id) >= graph_.values.size()) return;
  const Value& v = graph_.values[static_cast<size_t>(id)];
  if (v.kind != ValueKind::kTensor || !v.tensor.is_constant()) return;
  if (constant_slot(id) != kNoId) return;
  if (static_cast<size_t>(id) < written_.size() && written_[static_cast<size_t>(id)]) return;
  add_constant(id, default_role(v.tensor));
}

void GraphBuilder::mark_written(const Node& node) {
  auto mark = [&](ValueId id) {
    if (id < 0 || static_cast<size_t>(id) >= graph_.values.size()) return;
    if (written_.size() < graph_.values.size()) written_.resize(graph_.values.size(), false);
    written_[static_cast<size_t>(id)] = true;
  };
  for (const Argument& a : node.outputs) {
    mark(a.value);
    if (a.value >= 0 && static_cast<size_t>(a.value) < graph_.values.size())
      for (ValueId e : graph_.values[static_cast<size_t>(a.value)].elements) mark(e);
  }
}

NodeId GraphBuilder::add_node(Node node) {
  for (const Argument& a : node.inputs) use(a.value);
  mark_written(node);
  return graph_.add_node(std::move(node));
}

Graph GraphBuilder::finish() {
  graph_.link_values();
  return std::move(graph_);
}

GroupId GraphBuilder::module_group(const std::string& path, char separator) {
  if (path.empty()) return kNoId;
  auto it = std::lower_bound(module_groups_.begin(), module_groups_.end(), path,
                             [](const auto& e, const std::string& p) { return e.first < p; });
  if (it != module_groups_.end() && it->first == path) return it->second;
  const auto dot = path.rfind(separator);
  const GroupId parent =
      dot == std::string::npos ? kNoId : module_group(path.substr(0, dot), separator);
  Group g;
  g.name = path;
  g.label = dot == std::string::npos ? path : path.substr(dot + 1);
  g.kind = GroupKind::kModule;
  g.parent = parent;
  const GroupId id = graph_.add_group(std::move(g));
  it = std::lower_bound(module_groups_.begin(), module_groups_.end(), path,
                        [](const auto& e, const std::string& p) { return e.first < p; });
  module_groups_.insert(it, {path, id});
  return id;
}

}  // namespace etviz
