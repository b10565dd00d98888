// Repeated-block folding (analysis/repeats.h) on generated programs whose repeat count is
// known, on real corpus files, and on hand-made graphs where one instance differs.
#include "analysis/repeats.h"

#include <gtest/gtest.h>

#include <set>

#include "export_model.h"
#include "export_writer.h"
#include "generated_program.h"
#include "program_builder.h"
#include "test_support.h"

namespace etviz {
namespace {

std::string write_program(int blocks, bool delegates) {
  gen::TransformerSpec spec;
  spec.blocks = blocks;
  spec.delegates = delegates;
  spec.dim = 64;
  spec.hidden = 128;
  spec.vocab = 256;
  return test::write_transformer_program(
      spec, "structure",
      "blocks_" + std::to_string(blocks) + (delegates ? "_delegates" : "") + ".pte");
}

TEST(Repeats, FlatProgramFoldsIntoItsGeneratedBlocks) {
  for (bool delegates : {false, true})
    for (int blocks : {3, 12, 25}) {
      const Document doc = test::load(write_program(blocks, delegates));
      ASSERT_FALSE(doc.graphs.empty());
      const auto runs = analysis::find_repeats(doc.graphs[0]);
      ASSERT_FALSE(runs.empty()) << blocks;
      EXPECT_EQ(runs[0].instances(), static_cast<size_t>(blocks)) << blocks << delegates;
      EXPECT_EQ(runs[0].identical, static_cast<size_t>(blocks)) << blocks;
      EXPECT_TRUE(runs[0].differences.empty());
      EXPECT_EQ(runs[0].label, "block \u00d7" + std::to_string(blocks));
      // Every instance holds the same number of calls, and no call is in two instances.
      std::set<NodeId> seen;
      for (const auto& range : runs[0].ranges) {
        EXPECT_EQ(range.size(), runs[0].ranges[0].size());
        for (NodeId n : range) EXPECT_TRUE(seen.insert(n).second);
      }
    }
}

}  // namespace
}  // namespace etviz

namespace etviz {
namespace {

// A flat program whose block 5 lacks one op: still one run of 12, with that instance named.
TEST(Repeats, FlatInstanceThatLacksAnOpStaysInTheRun) {
  Document doc = test::load(write_program(12, false));
  Graph& g = doc.graphs[0];
  const auto before = analysis::find_repeats(g);
  ASSERT_EQ(before.at(0).instances(), 12u);
  // Remove the softmax of block 5: an op that occurs once per block, so the instance boundary
  // it marks must be inferred from the period.
  const auto& block5 = before[0].ranges[5];
  NodeId victim = kNoId;
  for (NodeId n : block5)
    if (g.nodes[static_cast<size_t>(n)].op == "aten::_softmax.out") victim = n;
  ASSERT_NE(victim, kNoId);
  g.nodes.erase(g.nodes.begin() + victim);
  // Node ids after the victim shift by one: relink producers and consumers.
  g.link_values();
  const auto runs = analysis::find_repeats(g);
  ASSERT_FALSE(runs.empty());
  EXPECT_EQ(runs[0].instances(), 12u);
  EXPECT_EQ(runs[0].identical, 11u);
  ASSERT_EQ(runs[0].differences.size(), 1u);
  EXPECT_EQ(runs[0].differences[0].first, 5u);
  EXPECT_EQ(runs[0].differences[0].second, "lacks 1 aten::_softmax.out");
}

Document exported(int blocks) {
  gen::ExportModelSpec spec;
  spec.blocks = blocks;
  const std::string path =
      test::scratch_dir("structure") + "/export_" + std::to_string(blocks) + ".pt2";
  EXPECT_EQ(gen::write_pt2(path, {{"model", gen::build_export_transformer(spec)}}, true), "");
  return test::load(path);
}

TEST(Repeats, ModuleInstancesFoldByClass) {
  const Document doc = exported(6);
  ASSERT_FALSE(doc.graphs.empty());
  const Graph& g = doc.graphs[0];
  const auto runs = analysis::find_repeats(g);
  ASSERT_FALSE(runs.empty());
  const analysis::RepeatRun& run = runs[0];
  ASSERT_EQ(run.instances(), 6u);
  EXPECT_EQ(run.identical, 6u);
  EXPECT_TRUE(run.differences.empty());
  // The instances are the groups layers.0 ... layers.5 in order, under one parent.
  for (size_t i = 0; i < run.groups.size(); ++i) {
    const Group& grp = g.groups[static_cast<size_t>(run.groups[i])];
    EXPECT_EQ(grp.name, "layers." + std::to_string(i));
    EXPECT_EQ(grp.parent, run.parent);
  }
  EXPECT_EQ(run.name, "layers.0-5");
  EXPECT_NE(run.label.find("\u00d76"), std::string::npos) << run.label;
  EXPECT_EQ(run.label.find("layers"), std::string::npos) << "named by class: " << run.label;
}

TEST(Repeats, ModuleInstanceThatDiffersIsReported) {
  Document doc = exported(4);
  Graph& g = doc.graphs[0];
  // Drop one op of layers.3 (the last layer lacks one op).
  GroupId last = kNoId;
  for (size_t i = 0; i < g.groups.size(); ++i)
    if (g.groups[i].name == "layers.3") last = static_cast<GroupId>(i);
  ASSERT_NE(last, kNoId);
  auto inside = [&](const Node& n) {
    for (GroupId grp = n.group; grp >= 0; grp = g.groups[static_cast<size_t>(grp)].parent)
      if (grp == last) return true;
    return false;
  };
  auto victim = std::find_if(g.nodes.begin(), g.nodes.end(), [&](const Node& n) {
    return inside(n) && n.kind == NodeKind::kKernel && n.op.find("silu") != std::string::npos;
  });
  ASSERT_NE(victim, g.nodes.end());
  const std::string op = victim->op;
  g.nodes.erase(victim);
  g.link_values();
  const auto runs = analysis::find_repeats(g);
  ASSERT_FALSE(runs.empty());
  EXPECT_EQ(runs[0].instances(), 4u);
  EXPECT_EQ(runs[0].identical, 3u);
  ASSERT_EQ(runs[0].differences.size(), 1u);
  EXPECT_EQ(runs[0].differences[0].first, 3u);
  EXPECT_EQ(runs[0].differences[0].second, "lacks 1 " + op);
}

// Real files: the corpus programs that repeat blocks; and files with nothing to fold.
TEST(Repeats, CorpusPrograms) {
  for (const std::string& f : test::corpus_files("pte")) {
    auto opened = open_document(f);
    if (!opened) continue;  // the corpus keeps one refused format (ET02)
    const Document& doc = *opened;
    for (const Graph& g : doc.graphs) {
      if (!g.is_top_level()) continue;
      for (const auto& run : analysis::find_repeats(g)) {
        // Whatever is found is well formed: instances of one run never overlap.
        std::set<NodeId> seen;
        for (const auto& range : run.ranges)
          for (NodeId n : range) EXPECT_TRUE(seen.insert(n).second) << f;
        EXPECT_GE(run.instances(), run.groups.empty() ? 3u : 2u) << f;
        EXPECT_EQ(run.identical + run.differences.size(), run.instances()) << f;
      }
    }
  }
}

}  // namespace
}  // namespace etviz
