#pragma once
// The graph builder every decoder uses: core's GraphBuilder (one naming rule for inputs,
// outputs and constants across formats) set up for a delegate payload.
#include <algorithm>
#include <string>
#include <utility>

#include "core/graph_builder.h"

namespace etviz::delegates {

class SubgraphBuilder : public GraphBuilder {
 public:
  SubgraphBuilder(std::string name, std::string backend)
      : GraphBuilder(std::move(name), GraphKind::kDelegate) {
    graph().attributes.push_back({"backend", std::move(backend)});
  }

  NodeId add_op(Node node) { return add_node(std::move(node)); }

  // Input nodes first (decoders may learn the inputs only after reading the ops); node ids
  // are not referenced anywhere before link_values(), so reordering here is safe.
  Graph finish() {
    std::stable_partition(graph().nodes.begin(), graph().nodes.end(),
                          [](const Node& n) { return n.kind == NodeKind::kInput; });
    return GraphBuilder::finish();
  }
};

}  // namespace etviz::delegates
