#include "analysis/qdq_clusters.h"

#include <algorithm>

namespace etviz::analysis {

std::vector<QdqCluster> find_qdq_clusters(const Graph& graph,
                                          const std::vector<Category>& categories) {
  std::vector<QdqCluster> clusters;
  if (categories.size() != graph.nodes.size()) return clusters;
  std::vector<bool> claimed(graph.nodes.size(), false);
  auto valid_value = [&](ValueId v) {
    return v >= 0 && static_cast<size_t>(v) < graph.values.size();
  };
  auto is_q = [&](NodeId n) {
    return n >= 0 && static_cast<size_t>(n) < graph.nodes.size() &&
           categories[n] == Category::kQuantize;
  };
  auto op_has = [&](NodeId n, const char* word) {
    return graph.nodes[n].op.find(word) != std::string::npos;
  };
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Category c = categories[i];
    if (c != Category::kCompute && c != Category::kBackend && c != Category::kMemory) continue;
    const Node& node = graph.nodes[i];
    QdqCluster cluster;
    cluster.anchor = static_cast<NodeId>(i);
    bool has_dq = false, has_q = false;
    for (const Argument& a : node.inputs) {
      if (!valid_value(a.value)) continue;
      const NodeId p = graph.values[a.value].producer;
      if (is_q(p) && op_has(p, "dequantize") && !claimed[p]) {
        cluster.members.push_back(p);
        has_dq = true;
      }
    }
    for (const Argument& a : node.outputs) {
      if (!valid_value(a.value)) continue;
      for (NodeId consumer : graph.values[a.value].consumers) {
        if (is_q(consumer) && !op_has(consumer, "dequantize") && !claimed[consumer]) {
          cluster.members.push_back(consumer);
          has_q = true;
        }
      }
    }
    if (!has_dq && !has_q) continue;
    cluster.members.push_back(cluster.anchor);
    std::sort(cluster.members.begin(), cluster.members.end());
    cluster.members.erase(std::unique(cluster.members.begin(), cluster.members.end()),
                          cluster.members.end());
    for (NodeId m : cluster.members) claimed[m] = true;
    clusters.push_back(std::move(cluster));
  }
  return clusters;
}

}  // namespace etviz::analysis
