#include "adjacency.h"

namespace etviz::layout {
namespace {

// Counting sort of edge ids by one endpoint, so each list keeps edge order.
void bucket_edges(const FlatGraph& graph, bool by_source, std::vector<uint32_t>& begin,
                  std::vector<uint32_t>& edges) {
  const size_t n = graph.nodes.size();
  begin.assign(n + 1, 0);
  for (const FlatGraph::Edge& e : graph.edges) {
    if (e.source != e.target) ++begin[(by_source ? e.source : e.target) + 1];
  }
  for (size_t v = 0; v < n; ++v) begin[v + 1] += begin[v];
  edges.resize(begin[n]);
  std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
  for (uint32_t i = 0; i < graph.edges.size(); ++i) {
    const FlatGraph::Edge& e = graph.edges[i];
    if (e.source != e.target) edges[fill[by_source ? e.source : e.target]++] = i;
  }
}

}  // namespace

Adjacency::Adjacency(const FlatGraph& graph) {
  bucket_edges(graph, true, out_begin_, out_edges_);
  bucket_edges(graph, false, in_begin_, in_edges_);
}

}  // namespace etviz::layout
