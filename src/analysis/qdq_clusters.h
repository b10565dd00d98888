#pragma once
// QDQ clusters: a quantized op as the exporter left it, dequantize -> op -> quantize.
// The same grouping ExecuTorch's visualize_with_clusters draws: one box per compute op whose
// inputs come from dequantize nodes and whose outputs feed quantize nodes.
#include <vector>

#include "analysis/categories.h"
#include "core/graph.h"

namespace etviz::analysis {

struct QdqCluster {
  NodeId anchor = kNoId;        // the op in the middle
  std::vector<NodeId> members;  // anchor plus its dequantize producers and quantize consumers,
                                // ascending
};

// `categories[n]` is node n's category (see categorize()). A cluster needs the anchor to be a
// compute, backend or memory op with at least one dequantize input or one quantize output;
// a quantize/dequantize node joins at most one cluster (the first anchor that claims it).
std::vector<QdqCluster> find_qdq_clusters(const Graph& graph,
                                          const std::vector<Category>& categories);

}  // namespace etviz::analysis
