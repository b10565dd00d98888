#pragma once
// Helpers for the delegate decoder tests: open corpus files, find decoded subgraphs, count ops.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "test_support.h"

namespace etviz::test {

inline Document open_or_die(const std::string& path) {
  return load(path);
}

// Decoded subgraphs of the delegates with this backend id, in delegate order.
inline std::vector<const Graph*> subgraphs(const Document& doc, const std::string& backend) {
  std::vector<const Graph*> out;
  for (const Delegate& d : doc.delegates)
    if (d.backend_id == backend && d.subgraph >= 0) out.push_back(&doc.graphs[d.subgraph]);
  return out;
}

inline std::map<std::string, int> op_histogram(const Graph& g) {
  std::map<std::string, int> h;
  for (const Node& n : g.nodes)
    if (n.kind == NodeKind::kKernel || n.kind == NodeKind::kOther) ++h[n.op];
  return h;
}

inline int op_count(const Graph& g) {
  int n = 0;
  for (const auto& [op, count] : op_histogram(g)) n += count;
  return n;
}

}  // namespace etviz::test
