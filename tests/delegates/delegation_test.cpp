// The delegation report over corpus programs: get_delegation_info's numbers from decoded
// payloads, opaque payloads counted apart, and the --graph text.
#include "analysis/delegation.h"

#include <gtest/gtest.h>

#include "render/delegation_report.h"
#include "test_util.h"

namespace etviz::test {
namespace {

TEST(Delegation, SimpleTorchModelIsFullyDelegated) {
  Document doc = open_or_die(corpus("pte/corey-cole__simple-torch-model__model.pte"));
  auto info = analysis::delegation_info(doc);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->num_delegated_subgraphs, 2);
  EXPECT_EQ(info->num_delegated_nodes, 6);
  EXPECT_EQ(info->num_non_delegated_nodes, 0);
  EXPECT_EQ(info->num_opaque_subgraphs, 0);
  ASSERT_EQ(info->backends.size(), 1u);
  EXPECT_EQ(info->backends[0].backend, "XnnpackBackend");
  ASSERT_EQ(info->delegates.size(), 2u);
  EXPECT_EQ(info->delegates[0].nodes, 5);
  EXPECT_EQ(info->delegates[0].status, "decoded");
  EXPECT_EQ(info->delegates[0].location, "segment 1");
  // Sorted by op type, like the DataFrame.
  ASSERT_EQ(info->operators.size(), 5u);
  EXPECT_EQ(info->operators[0].op_type, "XNNConv2d");
  EXPECT_EQ(info->operators[4].op_type, "XNNStaticTranspose");
  EXPECT_EQ(info->operators[4].delegated, 2);
}

TEST(Delegation, MixedProgramCountsCpuKernels) {
  Document doc = open_or_die(corpus("pte/berndporr__dnf_executorch__dnf.47145c4a.pte"));
  auto info = analysis::delegation_info(doc);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->num_delegated_subgraphs, 4);
  EXPECT_EQ(info->num_delegated_nodes, 1 + 2 + 5 + 2);
  EXPECT_GT(info->num_non_delegated_nodes, 0);
  int64_t cpu = 0;
  for (const auto& op : info->operators) {
    cpu += op.non_delegated;
    if (op.non_delegated > 0) {
      EXPECT_NE(op.op_type.find("::"), std::string::npos) << op.op_type;
    }
  }
  EXPECT_EQ(cpu, info->num_non_delegated_nodes);
}

TEST(Delegation, UnknownMethodIsAnError) {
  Document doc = open_or_die(corpus("pte/corey-cole__simple-torch-model__model.pte"));
  auto info = analysis::delegation_info(doc, "nope");
  ASSERT_FALSE(info);
  EXPECT_NE(info.error().message().find("forward"), std::string::npos);
}

TEST(Delegation, GraphTextInlinesSubgraphs) {
  Document doc = open_or_die(corpus("pte/corey-cole__simple-torch-model__model.pte"));
  const std::string text = render::format_delegated_graph(doc);
  EXPECT_EQ(text.rfind("graph forward (method)\n", 0), 0u) << text;
  EXPECT_NE(text.find("  XnnpackBackend_0 XnnpackBackend("), std::string::npos) << text;
  EXPECT_NE(text.find("[XnnpackBackend subgraph: forward/XnnpackBackend#0 (segment 1)]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("      XNNConv2d_2 XNNConv2d(input="), std::string::npos) << text;
  EXPECT_NE(text.find("filter=%"), std::string::npos);
  EXPECT_NE(text.find("=const"), std::string::npos);
  // Deterministic.
  EXPECT_EQ(text, render::format_delegated_graph(doc));
}

}  // namespace
}  // namespace etviz::test

namespace etviz::test {
namespace {

TEST(Delegation, GraphTextShowsQuantization) {
  Document doc =
      open_or_die(corpus("pte/corey-cole__executorch-numpy-runtime__tests__models__quantized.pte"));
  const std::string text = render::format_delegated_graph(doc);
  EXPECT_NE(
      text.find("XNNFullyConnected_1 XNNFullyConnected(input=%v1:qint8[2, 8]{per_tensor scale="),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("XNNConvert_2 XNNConvert("), std::string::npos) << text;
}

TEST(Delegation, OpaquePayloadsAreSaidSo) {
  Document doc = open_or_die(corpus("pte/dinusha94__executorch__model-u55-128.b97f2ffe.pte"));
  auto info = analysis::delegation_info(doc);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->num_opaque_subgraphs, 1);
  EXPECT_EQ(info->num_delegated_nodes, 0);
  ASSERT_EQ(info->delegates.size(), 1u);
  EXPECT_EQ(info->delegates[0].status, "summary");
  EXPECT_NE(info->delegates[0].note.find("summary only"), std::string::npos);
  const std::string text = render::format_delegated_graph(doc);
  EXPECT_NE(text.find("[ArmBackend summary: forward/ArmBackend#0"), std::string::npos) << text;
  EXPECT_NE(text.find("npu_operations = CONV 151"), std::string::npos) << text;
}

}  // namespace
}  // namespace etviz::test

namespace etviz::test {
namespace {

TEST(Delegation, EtrecordDefaultsToTheEdgeDialectStage) {
  Document doc = open_or_die(
      corpus("etrecord/pytorch__executorch__examples__devtools__scripts__etrecord.bin"));
  auto info = analysis::delegation_info(doc);
  ASSERT_TRUE(info);
  ASSERT_EQ(info->graphs, std::vector<std::string>{"edge_dialect_exported_program"});
  EXPECT_EQ(info->num_delegated_subgraphs, 0);
  EXPECT_EQ(info->num_non_delegated_nodes, 1);
  ASSERT_EQ(info->operators.size(), 1u);
  EXPECT_EQ(info->operators[0].op_type, "aten::mul.Tensor");
  // Another stage on request.
  auto aten = analysis::delegation_info(doc, "aten_dialect_output/forward");
  ASSERT_TRUE(aten);
  EXPECT_EQ(aten->num_non_delegated_nodes, 1);
}

TEST(Delegation, ExportedProgramDelegateCallsAreOpaque) {
  // A synthetic edge graph: x -> executorch_call_delegate(lowered_module_0, x) -> getitem.
  Document doc;
  Graph g;
  g.name = "edge";
  g.kind = GraphKind::kExportedProgram;
  Value lowered;
  lowered.name = "lowered_module_0";
  lowered.kind = ValueKind::kOther;
  const ValueId lm = g.add_value(lowered);
  Value xv;
  xv.name = "x";
  Value yv;
  yv.name = "y";
  const ValueId x = g.add_value(xv);
  const ValueId y = g.add_value(yv);
  Node call;
  call.op = "torch.ops.higher_order.executorch_call_delegate";
  call.inputs = {{"", lm}, {"", x}};
  call.outputs = {{"", y}};
  g.add_node(call);
  Node add;
  add.op = "aten::add.Tensor";
  add.inputs = {{"", y}, {"", y}};
  g.add_node(add);
  doc.graphs.push_back(g);
  auto info = analysis::delegation_info(doc);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->num_delegated_subgraphs, 1);
  EXPECT_EQ(info->num_opaque_subgraphs, 1);
  EXPECT_EQ(info->num_non_delegated_nodes, 1);
  ASSERT_EQ(info->delegates.size(), 1u);
  EXPECT_EQ(info->delegates[0].location, "lowered_module_0");
  EXPECT_EQ(info->delegates[0].status, "undecodable");
}

}  // namespace
}  // namespace etviz::test
