#pragma once
// The one way readers build a graph's boundary: input, output and constant nodes, with one
// naming rule for all of them (docs/architecture.md, "One naming rule").
//
//   inputs     the name the format gives the input, else "input_<k>" (k = position)
//   outputs    the name the format gives the output, else "output_<k>"
//   constants  the tensor's fully qualified name (TensorInfo::data_key, e.g.
//              "layers.0.attention.wq.weight") when the file states it, else the value's name
//              ("v12" in a .pte, the placeholder name in an exported program)
//   op         "input", "output", or the constant's role (to_string(ConstantRole))
//
// Readers of every format (.pte methods, exported programs, delegate payloads) go through it,
// so the page, search, diff and reports see the same names whatever the file was.
#include <string>
#include <vector>

#include "core/graph.h"

namespace etviz {

class GraphBuilder {
 public:
  GraphBuilder(std::string name, GraphKind kind, Stage stage = {});

  Graph& graph() { return graph_; }
  const Graph& graph() const { return graph_; }

  // Values may also be pushed onto graph().values directly (bulk readers); the builder only
  // needs them to exist before a node names them.
  ValueId add_value(Value value) { return graph_.add_value(std::move(value)); }
  ValueId add_tensor(std::string name, TensorInfo info);

  // A graph input node producing `id`, appended to Graph::inputs.
  NodeId add_input(ValueId id, std::string name = {});
  // A graph output node reading `id`; appended to Graph::outputs unless `user` is false (an
  // exported program's buffer mutations are outputs of the graph but not of the model).
  NodeId add_output(ValueId id, std::string name = {}, bool user = true);
  // One output node reading several values, each appended to Graph::outputs: an FX graph's
  // single output node as a pass trace draws it.
  NodeId add_output(const std::vector<ValueId>& ids, std::string name = {});
  // A constant node producing `id`. Each value gets at most one; a second call returns the
  // first node.
  NodeId add_constant(ValueId id, ConstantRole role);
  // The role of a constant the format does not name: ExecuTorch's mutable segments hold
  // buffers (state), everything else is a parameter.
  static ConstantRole default_role(const TensorInfo& tensor);
  // Call before a node reads `id`: a constant tensor gets its producer node the first time,
  // with the default role, unless a node already wrote it (a mutable buffer updated in
  // place). Values that are not constant tensors are left alone.
  void use(ValueId id);
  // Appends an operator (or any other) node; its inputs are use()d first and its outputs
  // count as written.
  NodeId add_node(Node node);

  // The module group of a dotted path ("layers.0.mlp"), created with its ancestors
  // ("layers", "layers.0") on first use; kNoId for an empty path. For formats that give a
  // node's module as a path only (pass traces); exported programs also know module types.
  // `separator`: '/' for namespaces written as paths (Model Explorer).
  GroupId module_group(const std::string& path, char separator = '.');

  // Links producers and consumers and hands the graph over.
  Graph finish();

 private:
  NodeId& constant_slot(ValueId id);
  void mark_written(const Node& node);

  Graph graph_;
  std::vector<NodeId> constant_node_;  // per value, grown on demand
  std::vector<bool> written_;          // per value: some node outputs it
  int32_t output_count_ = 0;
  std::vector<std::pair<std::string, GroupId>> module_groups_;  // path -> group, sorted
};

}  // namespace etviz
