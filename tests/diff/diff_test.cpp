// Node matching and diff facts (analysis/diff.h) on real corpus pairs, an ETRecord's stages,
// and generated programs with known edits.
#include "analysis/diff.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "analysis/delegation.h"
#include "analysis/value_diff.h"
#include "generated_program.h"
#include "program_builder.h"
#include "render/diff_report.h"
#include "test_support.h"

namespace etviz {
namespace {

const char* kEtrecord2023 =
    "etrecord/pytorch__executorch__examples__devtools__scripts__etrecord.bin";
const char* kEtrecordRenamed =
    "etrecord/pytorch__executorch__examples__dev_tools__scripts__etrecord.747f30de.bin";
const char* kDnfDelegated = "pte/berndporr__dnf_executorch__dnf.47145c4a.pte";
const char* kDnfPortable = "pte/berndporr__dnf_executorch__dnf.d1aa57fe.pte";

// Facts every diff must satisfy, whatever it matched.
void expect_consistent(const Graph& a, const Graph& b, const analysis::GraphDiff& d) {
  EXPECT_EQ(d.same + d.changed + d.added, static_cast<int64_t>(b.nodes.size()));
  EXPECT_EQ(d.same + d.changed + d.removed, static_cast<int64_t>(a.nodes.size()));
  for (size_t i = 0; i < b.nodes.size(); ++i) {
    const NodeId x = d.b_to_a[i];
    if (x != kNoId) {
      EXPECT_EQ(d.a_to_b[static_cast<size_t>(x)], static_cast<NodeId>(i));
    }
  }
  // Operator deltas are the difference of the two op histograms, computed here apart.
  std::map<std::string, int64_t> delta;
  for (const Node& n : a.nodes)
    if (analysis::counts_as_operator(n)) --delta[n.op];
  for (const Node& n : b.nodes)
    if (analysis::counts_as_operator(n)) ++delta[n.op];
  std::map<std::string, int64_t> reported;
  for (const auto& o : d.op_deltas) reported[o.op] = o.b - o.a;
  for (auto it = delta.begin(); it != delta.end();)
    it = it->second == 0 ? delta.erase(it) : std::next(it);
  EXPECT_EQ(reported, delta);
}

TEST(Diff, TheSameEtrecordWrittenByTwoExecuTorchVersionsIsTheSame) {
  const Document a = test::load(test::corpus(kEtrecord2023));
  const Document b = test::load(test::corpus(kEtrecordRenamed));
  for (StageRole role : {StageRole::kAtenDialect, StageRole::kEdgeDialect}) {
    const Graph* ga = a.find_stage(role, "forward");
    const Graph* gb = b.find_stage(role, "forward");
    ASSERT_NE(ga, nullptr);
    ASSERT_NE(gb, nullptr);
    const auto d = analysis::diff_graphs(a, *ga, b, *gb);
    expect_consistent(*ga, *gb, d);
    EXPECT_EQ(d.same, 4);  // two inputs, mul, output
    EXPECT_EQ(d.changed + d.added + d.removed, 0);
  }
}

TEST(Diff, AnEtrecordsAtenAndEdgeStagesMatchDespiteRenamedNodes) {
  const Document doc = test::load(test::corpus(kEtrecord2023));
  const auto order = analysis::pipeline_graphs(doc);
  ASSERT_EQ(order.size(), 2u);
  const Graph& aten = doc.graphs[static_cast<size_t>(order[0])];
  const Graph& edge = doc.graphs[static_cast<size_t>(order[1])];
  EXPECT_EQ(aten.stage.role, StageRole::kAtenDialect);
  EXPECT_EQ(edge.stage.role, StageRole::kEdgeDialect);
  const auto d = analysis::diff_graphs(doc, aten, doc, edge);
  expect_consistent(aten, edge, d);
  // The mul is "mul" in ATen and "aten_mul_tensor" in edge: matched by structure, not name.
  const Node* mul = nullptr;
  for (const Node& n : edge.nodes)
    if (n.kind == NodeKind::kKernel) mul = &n;
  ASSERT_NE(mul, nullptr);
  const auto b = static_cast<size_t>(mul - edge.nodes.data());
  ASSERT_NE(d.b_to_a[b], kNoId);
  EXPECT_EQ(aten.nodes[static_cast<size_t>(d.b_to_a[b])].name, "mul");
  EXPECT_EQ(d.b_reason[b], analysis::MatchReason::kStructure);
  EXPECT_EQ(d.added + d.removed, 0);
}

TEST(Diff, TheSameModelLoweredToXnnpackAndLeftPortable) {
  const Document a = test::load(test::corpus(kDnfDelegated));
  const Document b = test::load(test::corpus(kDnfPortable));
  const Graph& ga = a.graphs[static_cast<size_t>(*analysis::select_graph(a, ""))];
  const Graph& gb = b.graphs[static_cast<size_t>(*analysis::select_graph(b, ""))];
  const auto d = analysis::diff_graphs(a, ga, b, gb);
  expect_consistent(ga, gb, d);
  // Delegate calls per backend, counted here from the documents.
  int64_t xnn_a = 0, xnn_b = 0;
  for (const Node& n : ga.nodes) xnn_a += n.kind == NodeKind::kDelegate;
  for (const Node& n : gb.nodes) xnn_b += n.kind == NodeKind::kDelegate;
  ASSERT_EQ(d.delegates.count("XnnpackBackend"), 1u);
  EXPECT_EQ(d.delegates.at("XnnpackBackend"), std::make_pair(xnn_a, xnn_b));
  EXPECT_EQ(xnn_a, 4);
  EXPECT_EQ(xnn_b, 0);
  // Every delegate call is gone: none of them can be matched in the portable program.
  for (size_t i = 0; i < ga.nodes.size(); ++i)
    if (ga.nodes[i].kind == NodeKind::kDelegate) {
      EXPECT_EQ(d.a_status[i], analysis::DiffStatus::kRemoved);
    }
  // The boundary (the input and output by position) is matched by name.
  EXPECT_GE(d.matched_by.at(analysis::MatchReason::kName), 2);
}

std::string write_program(int blocks) {
  gen::TransformerSpec spec;
  spec.blocks = blocks;
  spec.dim = 16;
  spec.hidden = 32;
  spec.vocab = 64;
  return test::write_transformer_program(spec, "diff", "blocks_" + std::to_string(blocks) + ".pte");
}

TEST(Diff, KnownEditsToAGeneratedProgram) {
  const Document doc = test::load(write_program(8));
  const Graph& a = doc.graphs[0];
  Graph b = a;
  // 1. Every linear gets another overload (the op is still a linear: changed, not replaced).
  int overloads = 0;
  for (Node& n : b.nodes)
    if (n.op == "aten::linear.out") {
      n.op = "aten::linear.default";
      ++overloads;
    }
  // 2. Every softmax output gets another dtype.
  int dtypes = 0;
  for (Node& n : b.nodes)
    if (n.op == "aten::_softmax.out") {
      b.values[static_cast<size_t>(n.outputs[0].value)].tensor.dtype = "float16";
      ++dtypes;
    }
  ASSERT_GT(overloads, 0);
  ASSERT_EQ(dtypes, 8);
  const auto d = analysis::diff_graphs(doc, a, doc, b);
  expect_consistent(a, b, d);
  EXPECT_EQ(d.added + d.removed, 0);
  EXPECT_EQ(d.changed, overloads + dtypes);
  EXPECT_EQ(d.tensor_changes.size(), static_cast<size_t>(dtypes));
  for (const auto& c : d.changes) {
    ASSERT_EQ(c.what.size(), 1u);
    const std::string& w = c.what[0];
    EXPECT_TRUE(w == "op aten::linear.out -> aten::linear.default" ||
                w.find("output 0: float32") == 0)
        << w;
  }
  // Nothing moved: every node is paired with itself.
  for (size_t i = 0; i < a.nodes.size(); ++i) EXPECT_EQ(d.a_to_b[i], static_cast<NodeId>(i));
}

// A convolution as ExecuTorch emits one: its IntList arguments name Int values of the table.
// `shift` values are added first, so every index after them moves; `stride` is the stride.
std::string conv_program(int shift, int64_t stride, const std::string& name,
                         const gen::WriteOptions& options = {}) {
  gen::ProgramBuilder b;
  auto& m = b.method("forward");
  for (int k = 0; k < shift; ++k) m.integer(1000 + k);
  const auto f32 = gen::ScalarType::kFloat32;
  const auto x = m.tensor(f32, {1, 3, 8, 8});
  m.input(x);
  const auto w = m.constant(f32, {4, 3, 3, 3}, "conv.weight");
  const auto y = m.tensor(f32, {1, 4, 6, 6});
  m.kernel("aten::convolution.out",
           {x, w, m.none(), m.int_list({stride, stride}), m.int_list({0, 0}), m.int_list({1, 1}),
            m.boolean(false), m.int_list({0, 0}), m.integer(1), y});
  const auto z = m.tensor(f32, {1, 4, 6, 6});
  m.kernel("aten::relu.out", {y, z});
  m.output(z);
  const std::string path = test::scratch_dir("diff") + "/" + name;
  std::string error;
  EXPECT_TRUE(b.write(path, options, error)) << error;
  return path;
}

TEST(Diff, RenumberedValuesAreNoChangeAndARealOneIsNamed) {
  // The same program written with every value index moved is the same program; a stride that
  // changes is one change, said with the argument's name and both values.
  const Document a = test::load(conv_program(0, 1, "a.pte"));
  const Document renumbered = test::load(conv_program(5, 1, "renumbered.pte"));
  const Document strided = test::load(conv_program(0, 2, "strided.pte"));
  const auto same = analysis::diff_graphs(a, a.graphs[0], renumbered, renumbered.graphs[0]);
  expect_consistent(a.graphs[0], renumbered.graphs[0], same);
  EXPECT_EQ(same.changed + same.added + same.removed, 0);
  const auto d = analysis::diff_graphs(a, a.graphs[0], strided, strided.graphs[0]);
  expect_consistent(a.graphs[0], strided.graphs[0], d);
  EXPECT_EQ(d.added + d.removed, 0);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].what, (std::vector<std::string>{"argument stride: [1, 1] -> [2, 2]"}));
}

TEST(Diff, ValuesPairThroughTheMatchingAndWeightsCompare) {
  // Values renumbered: nothing differs but the value count (docs/diff.md, "Values and
  // weights"). The stride: one list value, named with both readings.
  const Document a = test::load(conv_program(0, 1, "va.pte"));
  const Document renumbered = test::load(conv_program(5, 1, "vrenumbered.pte"));
  const Document strided = test::load(conv_program(0, 2, "vstrided.pte"));
  auto same = analysis::diff_graphs(a, a.graphs[0], renumbered, renumbered.graphs[0]);
  analysis::add_value_diff(a, a.graphs[0], renumbered, renumbered.graphs[0], same);
  ASSERT_TRUE(same.values);
  EXPECT_TRUE(same.values->tensors.empty());
  EXPECT_TRUE(same.values->scalars.empty());
  EXPECT_EQ(same.values->data_changes() + same.values->metadata_changes(), 0);
  EXPECT_EQ(same.values->constants_paired, 1);
  EXPECT_EQ(same.values->constants_equal, 1);
  EXPECT_EQ(same.values->values_b - same.values->values_a, 5);
  auto d = analysis::diff_graphs(a, a.graphs[0], strided, strided.graphs[0]);
  analysis::add_value_diff(a, a.graphs[0], strided, strided.graphs[0], d);
  ASSERT_EQ(d.values->scalars.size(), 1u);
  EXPECT_EQ(d.values->scalars[0].text_a, "[1, 1]");
  EXPECT_EQ(d.values->scalars[0].text_b, "[2, 2]");
  EXPECT_TRUE(d.values->tensors.empty());
  // Weights: the generator's edit adds 0.25 to every 61st element of conv.weight (108
  // elements: 0 and 61), so 2 differ by exactly 0.25.
  gen::WriteOptions filled;
  filled.fill_constants = true;
  gen::WriteOptions edited = filled;
  edited.edit_weights = 1;
  const Document fa = test::load(conv_program(0, 1, "vfilled.pte", filled));
  const Document fb = test::load(conv_program(3, 1, "vedited.pte", edited));
  auto w = analysis::diff_graphs(fa, fa.graphs[0], fb, fb.graphs[0]);
  analysis::add_value_diff(fa, fa.graphs[0], fb, fb.graphs[0], w);
  ASSERT_EQ(w.values->tensors.size(), 1u);
  const analysis::TensorDiff& t = w.values->tensors[0];
  EXPECT_EQ(t.name, "conv.weight");
  EXPECT_EQ(t.data, analysis::DataStatus::kDiffer);
  EXPECT_EQ(t.stats.positions, 108u);
  EXPECT_EQ(t.stats.differing, 2u);
  EXPECT_FLOAT_EQ(static_cast<float>(t.stats.max_abs), 0.25f);
  ASSERT_EQ(t.stats.first.size(), 2u);
  EXPECT_EQ(t.stats.first[0].index, (std::vector<int64_t>{0, 0, 0, 0}));
  EXPECT_EQ(t.stats.first[1].index, (std::vector<int64_t>{2, 0, 2, 1}));  // 61 = 2*27 + 2*3 + 1
  // The constant's node is the one marked changed, with the figures.
  ASSERT_EQ(w.changes.size(), 1u);
  EXPECT_EQ(w.changed, 1);
  EXPECT_EQ(w.values->nodes_marked, 1);
  EXPECT_TRUE(w.changes[0].what[0].starts_with("data: 2 of 108 elements differ"))
      << w.changes[0].what[0];
}

TEST(Diff, RemovedBlockAndGraphsWithNothingInCommon) {
  const Document small = test::load(write_program(3));
  const Document large = test::load(write_program(4));
  const Graph& a = large.graphs[0];
  const Graph& b = small.graphs[0];
  const auto d = analysis::diff_graphs(large, a, small, b);
  expect_consistent(a, b, d);
  // One block (41 calls) and its weights are gone; the rest is matched.
  int64_t calls_a = 0, calls_b = 0;
  for (const Node& n : a.nodes) calls_a += n.provenance.instruction >= 0;
  for (const Node& n : b.nodes) calls_b += n.provenance.instruction >= 0;
  EXPECT_EQ(calls_a - calls_b, 41);
  // Everything B has is matched (linears reading the same input are told apart by their
  // weights); exactly the missing block is removed.
  EXPECT_EQ(d.added, 0);
  EXPECT_EQ(d.removed, static_cast<int64_t>(a.nodes.size() - b.nodes.size()));
  // Two unrelated graphs: a corpus ETRecord stage against the generated program.
  const Document other = test::load(test::corpus(kEtrecord2023));
  const Graph& edge = *other.find_stage(StageRole::kEdgeDialect, "forward");
  const auto apart = analysis::diff_graphs(other, edge, small, b);
  expect_consistent(edge, b, apart);
  // Nothing but the boundary can pair up (a graph output is an output in both).
  for (size_t i = 0; i < b.nodes.size(); ++i)
    if (apart.b_to_a[i] != kNoId) {
      EXPECT_TRUE(b.nodes[i].kind == NodeKind::kInput || b.nodes[i].kind == NodeKind::kOutput)
          << b.nodes[i].name << " matched " << edge.nodes[static_cast<size_t>(apart.b_to_a[i])].name
          << " by " << analysis::to_string(apart.b_reason[i]);
    }
  EXPECT_LE(apart.same + apart.changed, 2);
}

TEST(Diff, BroadcastInputsStillTellNodesApart) {
  // 300 blocks: the rotary tables feed more nodes than the structural step scans (256), yet
  // q*cos and q*sin of each block pair with their own counterparts.
  const Document large = test::load(write_program(300));
  const Document small = test::load(write_program(299));
  const auto d = analysis::diff_graphs(large, large.graphs[0], small, small.graphs[0]);
  expect_consistent(large.graphs[0], small.graphs[0], d);
  EXPECT_EQ(d.added, 0);
  EXPECT_EQ(d.removed,
            static_cast<int64_t>(large.graphs[0].nodes.size() - small.graphs[0].nodes.size()));
}

TEST(Diff, JsonReportIsStable) {
  const Document a = test::load(test::corpus(kDnfDelegated));
  const Document b = test::load(test::corpus(kDnfPortable));
  std::vector<render::DiffOperand> ops = {{"a.pte", &a, *analysis::select_graph(a, "")},
                                          {"b.pte", &b, *analysis::select_graph(b, "")}};
  std::vector<analysis::GraphDiff> diffs = {analysis::diff_graphs(a, ops[0].g(), b, ops[1].g())};
  const auto j = nlohmann::json::parse(render::diff_report(ops, diffs, render::DiffFormat::kJson));
  EXPECT_EQ(j["format"], "etviz.diff/1");
  ASSERT_EQ(j["graphs"].size(), 2u);
  ASSERT_EQ(j["diffs"].size(), 1u);
  const auto& p = j["diffs"][0];
  for (const char* key :
       {"same", "changed", "added", "removed", "matched_by", "op_deltas", "only_in_a", "only_in_b",
        "changes", "tensor_changes", "delegates", "constant_bytes", "payload_bytes", "arena_bytes"})
    EXPECT_TRUE(p.contains(key)) << key;
  EXPECT_EQ(p["only_in_a"].size(), static_cast<size_t>(diffs[0].removed));
  EXPECT_EQ(p["only_in_b"].size(), static_cast<size_t>(diffs[0].added));
}

}  // namespace
}  // namespace etviz
