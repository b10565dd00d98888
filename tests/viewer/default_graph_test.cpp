// Document::default_graph: the one answer to "which graph does a command mean" when none is
// named (core/document.h). The browser test default_graph.test.mjs checks that the page opens
// on it for every corpus file; these pin the rule itself.
#include <gtest/gtest.h>

#include "analysis/diff.h"
#include "core/document.h"
#include "test_support.h"

namespace etviz {
namespace {

Graph graph(const std::string& name, size_t nodes, GraphKind kind = GraphKind::kMethod) {
  Graph g;
  g.name = name;
  g.kind = kind;
  g.nodes.resize(nodes);
  return g;
}

TEST(DefaultGraph, ForwardWhenItHasNodes) {
  Document doc;
  doc.graphs = {graph("get_scale", 9), graph("forward", 3)};
  EXPECT_EQ(doc.default_graph(), 1);
  EXPECT_EQ(*analysis::select_graph(doc, ""), 1) << "diff and memory mean the same graph";
}

TEST(DefaultGraph, ElseTheLargestTheFirstOfEquals) {
  Document doc;
  doc.graphs = {graph("forward", 0), graph("encode", 4), graph("decode", 7), graph("step", 7)};
  EXPECT_EQ(doc.default_graph(), 2) << "an empty forward is not shown first";
  doc.graphs[0].name = "init";
  EXPECT_EQ(doc.default_graph(), 2);
}

TEST(DefaultGraph, NestedGraphsAreNotCandidates) {
  Document doc;
  doc.graphs = {graph("main", 2), graph("payload", 50, GraphKind::kDelegate)};
  doc.graphs[0].nodes[1].subgraph = 1;
  EXPECT_EQ(doc.root_graphs(), std::vector<int32_t>{0});
  EXPECT_EQ(doc.default_graph(), 0) << "a delegate's payload is inside its call, not a choice";
}

TEST(DefaultGraph, NoneInAnEmptyDocument) {
  const Document doc;
  EXPECT_EQ(doc.default_graph(), -1);
  EXPECT_FALSE(analysis::select_graph(doc, ""));
}

// Every corpus file with a graph has a default among the graphs the page lists.
TEST(DefaultGraph, OneOfThePagesGraphsOnTheCorpus) {
  size_t checked = 0;
  for (const char* folder : {"pte", "bpte", "pt2", "etrecord", "json"})
    for (const std::string& path : test::corpus_files(folder)) {
      auto doc = open_document(path);
      if (!doc || doc->graphs.empty()) continue;
      const std::vector<int32_t> roots = doc->root_graphs();
      const int32_t g = doc->default_graph();
      EXPECT_NE(std::find(roots.begin(), roots.end(), g), roots.end()) << path;
      ++checked;
    }
  EXPECT_GT(checked, 40u);
}

}  // namespace
}  // namespace etviz
