// Pass traces (formats/trace): ExecuTorch's trace_passes.py shape and our own, written by
// etviz-gen; bad input shown as far as it goes.
#include <gtest/gtest.h>

#include <fstream>

#include "analysis/diff.h"
#include "formats/open_document.h"
#include "test_support.h"

namespace etviz {
namespace {

std::string write(const std::string& name, const std::string& text) {
  const std::string path = test::scratch_dir("diff") + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// A small trace in the trace_passes.py shape: export, a pass that fuses two nodes, a failed
// pass with no graph.
const char* kPr18027Trace = R"J({
  "model_name": "tiny (xnnpack)",
  "passes": [
    {"metadata": {"model_name": "1_post_export", "source_type": "trace", "total_nodes": 4, "error": null},
     "nodes": [
       {"id": "x", "label": "input", "category": "placeholder", "op_name": "placeholder", "details": {"op": "placeholder", "target": "x", "shape": "[1, 8]", "dtype": "torch.float32"}},
       {"id": "linear", "label": "linear", "category": "aten_compute", "op_name": "aten.linear.default", "details": {"op": "call_function", "target": "aten.linear.default", "shape": "[1, 4]", "dtype": "torch.float32"}},
       {"id": "relu", "label": "relu", "category": "aten_compute", "op_name": "aten.relu.default", "details": {"op": "call_function", "shape": "[1, 4]", "dtype": "torch.float32"}},
       {"id": "output", "label": "output", "category": "placeholder", "op_name": "output", "details": {"op": "output"}}],
     "edges": [{"source": "x", "target": "linear"}, {"source": "linear", "target": "relu"}, {"source": "relu", "target": "output"}]},
    {"metadata": {"model_name": "2_FuseActivationPass", "total_nodes": 3, "error": null},
     "nodes": [
       {"id": "x", "op_name": "placeholder", "details": {"op": "placeholder", "shape": "[1, 8]", "dtype": "torch.float32"}},
       {"id": "linear", "op_name": "aten.linear.default", "details": {"op": "call_function", "shape": "[1, 4]", "dtype": "torch.float32"}},
       {"id": "output", "op_name": "output", "details": {"op": "output"}},
       {"id": "linear", "op_name": "aten.linear.default", "details": {"op": "call_function"}}],
     "edges": [{"source": "x", "target": "linear"}, {"source": "linear", "target": "output"}, {"source": "ghost", "target": "output"}],
     "future_field": {"kept": true}},
    {"metadata": {"model_name": "3_ChannelsLastTaggedReshapePass_ERROR", "total_nodes": 0,
                  "error": {"pass_name": "3_ChannelsLastTaggedReshapePass", "message": "boom", "traceback": "Traceback ..."}}}
  ]
})J";

// A "param" placeholder is a constant with its ConstantRole; a live trace's failed op carries
// a Failure (a cross on its box), not an attribute.
TEST(Trace, ParametersAndFailedOpsAreTyped) {
  auto doc =
      open_document(write("typed.json", R"J({"passes": [{"metadata": {"model_name": "forward"},
    "nodes": [
      {"id": "w", "category": "param", "details": {"op": "placeholder", "shape": "[4]"}},
      {"id": "x", "details": {"op": "placeholder"}},
      {"id": "add", "op_name": "aten.add.Tensor", "details": {"op": "call_function", "error": "RuntimeError: sizes"}},
      {"id": "out", "details": {"op": "output"}}],
    "edges": [{"source": "w", "target": "add"}, {"source": "x", "target": "add"},
              {"source": "add", "target": "out"}]}]})J"));
  ASSERT_TRUE(doc) << doc.error().message();
  const Graph& g = doc->graphs.at(0);
  ASSERT_EQ(g.nodes.size(), 4u);
  EXPECT_EQ(g.nodes[0].kind, NodeKind::kConstant);
  EXPECT_EQ(constant_role(g.nodes[0]), ConstantRole::kParameter);
  EXPECT_EQ(g.nodes[0].name, "w");
  EXPECT_EQ(g.inputs.size(), 1u) << "a parameter is not a graph input";
  ASSERT_TRUE(g.nodes[2].failure);
  EXPECT_EQ(g.nodes[2].failure->message, "RuntimeError: sizes");
  EXPECT_TRUE(g.nodes[2].attributes.empty());
  EXPECT_EQ(with_failure(g.nodes[2]).at(0).name, "error") << "pages still list it as before";
  EXPECT_EQ(g.nodes[2].inputs.size(), 2u);
}

TEST(Trace, ReadsExecuTorchsPassTraceAsFarAsItGoes) {
  auto doc = open_document(write("pr18027.json", kPr18027Trace));
  ASSERT_TRUE(doc) << doc.error().message();
  EXPECT_EQ(doc->format, DocumentFormat::kTrace);
  ASSERT_EQ(doc->graphs.size(), 3u);
  const Graph& first = doc->graphs[0];
  EXPECT_EQ(first.name, "1: 1_post_export");
  EXPECT_EQ(first.stage.role, StageRole::kPass);
  EXPECT_EQ(first.stage.method, "tiny (xnnpack)");
  ASSERT_EQ(first.nodes.size(), 4u);
  EXPECT_EQ(first.nodes[1].op, "aten::linear");  // named as the .pt2 reader names ops
  EXPECT_EQ(
      first.values[static_cast<size_t>(first.nodes[1].outputs[0].value)].tensor.shape_string(),
      "[1, 4]");
  EXPECT_EQ(first.values[static_cast<size_t>(first.nodes[1].outputs[0].value)].tensor.dtype,
            "float32");
  EXPECT_EQ(first.nodes[1].inputs.size(), 1u);
  // The boundary is GraphBuilder's (core/graph_builder.h): input and output nodes named as the
  // trace names them, the graph's inputs and outputs their values.
  EXPECT_EQ(first.nodes[0].kind, NodeKind::kInput);
  EXPECT_EQ(first.nodes[0].op, "input");
  EXPECT_EQ(first.inputs, std::vector<ValueId>{first.nodes[0].outputs[0].value});
  EXPECT_EQ(first.nodes[3].kind, NodeKind::kOutput);
  EXPECT_EQ(first.nodes[3].name, "output");
  EXPECT_EQ(first.outputs, std::vector<ValueId>{first.nodes[2].outputs[0].value});
  // The second pass: a duplicate id is renamed, a dangling edge is left out, with warnings.
  const Graph& second = doc->graphs[1];
  EXPECT_EQ(second.nodes.size(), 4u);
  EXPECT_EQ(second.nodes[3].name, "linear#2");
  std::string warnings;
  for (const auto& w : doc->diagnostics) warnings += w.message + "\n";
  EXPECT_NE(warnings.find("duplicate node id"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("name a node id the pass does not have"), std::string::npos);
  // The failed pass is there, empty, with its error.
  const Graph& failed = doc->graphs[2];
  EXPECT_TRUE(failed.nodes.empty());
  ASSERT_TRUE(failed.failure);
  EXPECT_EQ(failed.failure->message, "boom");
  EXPECT_NE(warnings.find("failed: boom"), std::string::npos);
  // Diffing consecutive passes: the relu is gone.
  const auto d = analysis::diff_graphs(*doc, first, *doc, second);
  EXPECT_EQ(d.removed, 1);
  EXPECT_EQ(first
                .nodes[static_cast<size_t>(std::find(d.a_status.begin(), d.a_status.end(),
                                                     analysis::DiffStatus::kRemoved) -
                                           d.a_status.begin())]
                .name,
            "relu");
}

TEST(Trace, BadTracesGiveClearErrorsOrPartialGraphs) {
  for (const char* text :
       {R"J({"passes": 3})J", R"J({"passes": [1, "x", {"nodes": 7}]})J",
        R"J({"passes": [{"nodes": [{"id": 1}], "edges": [{}]}]})J", R"J({"passes": [)J",
        R"J({"format": "etviz.trace/1", "passes": [{"file": "missing.pt2"}]})J"}) {
    auto doc = open_document(write("bad.json", text));
    if (doc) {
      EXPECT_FALSE(doc->diagnostics.empty()) << text;
    } else {
      EXPECT_NE(doc.error().message().find("bad.json"), std::string::npos) << doc.error().message();
    }
  }
  // 1,000 passes open quickly and completely.
  std::string many = R"J({"model_name": "m", "passes": [)J";
  for (int i = 0; i < 1000; ++i)
    many +=
        (i ? "," : "") +
        std::string(
            R"J({"metadata": {"model_name": "p"}, "nodes": [{"id": "a", "details": {"op": "placeholder"}}, {"id": "b", "op_name": "aten.relu.default"}], "edges": [{"source": "a", "target": "b"}]})J");
  many += "]}";
  auto doc = open_document(write("many.json", many));
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->graphs.size(), 1000u);
}

}  // namespace
}  // namespace etviz
