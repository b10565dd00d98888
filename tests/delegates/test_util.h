#pragma once
// Helpers for the delegate decoder tests: open corpus files, find decoded subgraphs, count ops.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/document.h"
#include "formats/open_document.h"

namespace etviz::test {

inline std::string corpus(const std::string& name) {
  return std::string(ETVIZ_CORPUS_DIR) + "/" + name;
}

inline Document open_or_die(const std::string& path) {
  auto doc = open_document(path);
  if (!doc) {
    ADD_FAILURE() << doc.error().message();
    return Document{};
  }
  return std::move(*doc);
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

inline std::string attribute(const std::vector<Attribute>& attrs, const std::string& name) {
  for (const Attribute& a : attrs)
    if (a.name == name) return a.value;
  return "";
}

}  // namespace etviz::test
