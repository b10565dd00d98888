#pragma once
// Small helper the decoders share to build a delegate Graph in the same shape the method
// graphs have: input nodes, constant nodes created where first read, op nodes, output nodes.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/graph.h"

namespace etviz::delegates {

class SubgraphBuilder {
 public:
  SubgraphBuilder(std::string name, std::string backend) {
    graph_.name = std::move(name);
    graph_.kind = "delegate";
    graph_.attributes.push_back({"backend", std::move(backend)});
  }

  Graph& graph() { return graph_; }

  ValueId add_tensor(std::string name, TensorInfo info) {
    Value v;
    v.name = std::move(name);
    v.kind = ValueKind::kTensor;
    v.tensor = std::move(info);
    return add_value(std::move(v));
  }

  // Any value (scalars and lists too); always add values through the builder.
  ValueId add_value(Value v) {
    constant_node_.push_back(kNoId);
    return graph_.add_value(std::move(v));
  }

  void add_input(ValueId id) {
    Node n;
    n.name = fmt::format("input_{}", graph_.inputs.size());
    n.op = "input";
    n.kind = NodeKind::kInput;
    n.outputs.push_back({"", id});
    graph_.add_node(std::move(n));
    graph_.inputs.push_back(id);
  }

  void add_output(ValueId id) {
    use(id);
    Node n;
    n.name = fmt::format("output_{}", graph_.outputs.size());
    n.op = "output";
    n.kind = NodeKind::kOutput;
    n.inputs.push_back({"", id});
    graph_.add_node(std::move(n));
    graph_.outputs.push_back(id);
  }

  // Call before an op reads `id`: gives a constant its producer node the first time.
  void use(ValueId id) {
    if (id < 0 || static_cast<size_t>(id) >= graph_.values.size()) return;
    const Value& v = graph_.values[id];
    if (!v.tensor.is_constant() || constant_node_[id] != kNoId) return;
    Node n;
    n.name = v.tensor.data_key.empty() ? v.name : v.tensor.data_key;
    n.op = "parameter";
    n.kind = NodeKind::kConstant;
    n.outputs.push_back({"", id});
    n.attributes.push_back({"data_location", to_string(v.tensor.data_location)});
    constant_node_[id] = graph_.add_node(std::move(n));
  }

  NodeId add_op(Node node) {
    for (const Argument& a : node.inputs) use(a.value);
    return graph_.add_node(std::move(node));
  }

  // Input nodes first (decoders may learn the inputs only after reading the ops); node ids
  // are not referenced anywhere before link_values(), so reordering here is safe.
  Graph finish() {
    std::stable_partition(graph_.nodes.begin(), graph_.nodes.end(),
                          [](const Node& n) { return n.kind == NodeKind::kInput; });
    graph_.link_values();
    return std::move(graph_);
  }

 private:
  Graph graph_;
  std::vector<NodeId> constant_node_;
};

}  // namespace etviz::delegates
