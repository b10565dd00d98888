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

// With the program's ETRecord, operators are named by the edge-dialect ops their instructions
// came from (debug_handle_map for kernels, delegate_map for the delegate call), as ExecuTorch's
// get_delegation_info names them. A generated program (mm kernel, an opaque delegate call that
// took two ops, relu kernel) and a generated ETRecord whose edge graph carries the handles.
#include "export_model.h"
#include "export_writer.h"
#include "program_builder.h"

namespace etviz {
namespace {

TEST(Delegation, EtrecordNamesOperatorsByTheirEdgeOps) {
  gen::ProgramBuilder builder;
  gen::MethodBuilder& m = builder.method("forward");
  auto x = m.tensor(gen::ScalarType::kFloat32, {1, 8});
  auto w = m.constant(gen::ScalarType::kFloat32, {8, 8}, "fc.weight");
  auto y = m.tensor(gen::ScalarType::kFloat32, {1, 8});
  auto z = m.tensor(gen::ScalarType::kFloat32, {1, 8});
  auto out = m.tensor(gen::ScalarType::kFloat32, {1, 8});
  m.input(x);
  m.kernel("aten::mm.out", {x, w, y});
  const int32_t npu = m.add_delegate("ExampleNpuBackend", {}, std::vector<uint8_t>(64, 7));
  m.delegate_call(npu, {y, z});
  m.kernel("aten::relu.out", {z, out});
  m.output(out);
  const std::string pte = test::scratch_dir("delegates") + "/etrecord_pair.pte";
  std::string error;
  ASSERT_TRUE(builder.write(pte, {}, error)) << error;

  gen::ExportModelSpec spec;
  spec.blocks = 1;
  spec.dim = 8;
  spec.hidden = 16;
  spec.debug_handles = true;
  gen::ExportETRecord record;
  record.programs.push_back({"edge_dialect_exported_program", gen::build_export_transformer(spec)});
  record.debug_handle_map_json = R"({"forward": {"0": [1], "1": [2, 3], "2": [4]}})";
  record.delegate_map_json =
      R"({"forward": {"1": {"name": "ExampleNpuBackend", "delegate_map": {"0": [2], "1": [3]}}}})";
  const std::string etrecord_path = test::scratch_dir("delegates") + "/etrecord_pair.etrecord";
  ASSERT_EQ(gen::write_etrecord(etrecord_path, record), "");

  const Document program = test::load(pte);
  const Document etrecord = test::load(etrecord_path);
  // The expected names, read from the edge graph's nodes independently of the analysis.
  const Graph* edge = etrecord.find_stage(StageRole::kEdgeDialect, "forward");
  ASSERT_NE(edge, nullptr);
  std::map<int64_t, std::string> op_of;
  for (const Node& n : edge->nodes)
    for (int64_t h : n.provenance.debug_handles) op_of[h] = n.op;
  ASSERT_EQ(op_of.count(1) + op_of.count(2) + op_of.count(3) + op_of.count(4), 4u);

  auto plain = analysis::delegation_info(program);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->num_delegated_nodes, 0);  // the payload is opaque
  EXPECT_EQ(plain->num_opaque_subgraphs, 1);
  EXPECT_EQ(plain->op_names, "");

  auto named = analysis::delegation_info(program, "", &etrecord);
  ASSERT_TRUE(named) << named.error().message();
  EXPECT_EQ(named->op_names, "edge dialect (ETRecord)");
  EXPECT_EQ(named->num_delegated_subgraphs, 1);
  EXPECT_EQ(named->num_delegated_nodes, 2);                     // handles 2 and 3
  EXPECT_EQ(named->num_non_delegated_nodes, 2);                 // handles 1 (mm) and 4 (relu)
  EXPECT_EQ(named->num_opaque_subgraphs, 0);                    // its nodes are counted now
  std::map<std::string, std::pair<int64_t, int64_t>> expected;  // op -> delegated, not
  ++expected[op_of[2]].first;
  ++expected[op_of[3]].first;
  ++expected[op_of[1]].second;
  ++expected[op_of[4]].second;
  std::map<std::string, std::pair<int64_t, int64_t>> got;
  for (const auto& op : named->operators) got[op.op_type] = {op.delegated, op.non_delegated};
  EXPECT_EQ(got, expected);
  ASSERT_EQ(named->delegates.size(), 1u);
  EXPECT_EQ(named->delegates[0].nodes, 2);
  EXPECT_NE(render::delegation_report("p.pte", *named, render::DelegationFormat::kTable)
                .find("Operators named by: edge dialect (ETRecord)"),
            std::string::npos);
}

}  // namespace
}  // namespace etviz
