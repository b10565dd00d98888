// Generated exported programs (tools/gen/export_writer) through the reader: nested module stacks,
// symbolic shapes, higher-order-op subgraphs, the schema-1 form, unknown fields and kinds.
#include <gtest/gtest.h>

#include <cmath>

#include "export_model.h"
#include "formats/torch_export/exported_program_reader.h"
#include "formats/torch_export/node_metadata.h"
#include "test_util.h"

namespace etviz::torch_export::testing {
namespace {

using gen::ExportArg;
using gen::ExportModelSpec;

Graph read_one(const gen::ExportProgram& p, Document& doc) {
  auto r = read_exported_program(gen::write_exported_program_json(p), doc);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() ? doc.graphs[static_cast<size_t>(*r)] : Graph{};
}

TEST(ExportedProgram, NestedModuleStackBecomesGroupTree) {
  ExportModelSpec spec;
  spec.blocks = 2;
  Document doc;
  const Graph g = read_one(gen::build_export_transformer(spec), doc);
  const Node* q = nullptr;
  for (const Node& n : g.nodes)
    if (n.provenance.module_path == "layers.1.attention.wq") q = &n;
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->op, "aten::linear");
  // Innermost first: wq -> attention -> 1 -> layers.
  std::vector<std::string> chain;
  for (GroupId id = q->group; id != kNoId; id = g.groups[id].parent)
    chain.push_back(g.groups[id].name);
  EXPECT_EQ(chain, (std::vector<std::string>{"layers.1.attention.wq", "layers.1.attention",
                                             "layers.1", "layers"}));
  EXPECT_EQ(g.groups[q->group].label, "wq (Linear)");
  EXPECT_EQ(g.groups[g.groups[q->group].parent].label, "attention (Attention)");
  // Each module appears once even though many nodes sit in it: 1 ModuleList + per block
  // (block, 2 norms, attention + 4 linears, feed_forward + 3 linears) = 1 + 2 * 12.
  EXPECT_EQ(g.groups.size(), 25u);
  ASSERT_EQ(q->provenance.stack.size(), 2u);
  EXPECT_EQ(q->provenance.stack[1].file, "/usr/lib/python3/torch/nn/modules/linear.py");
  EXPECT_EQ(q->provenance.stack[1].line, 125);
  // Parameters: per block 2 norms + 7 linears.
  int params = 0;
  for (const Node& n : g.nodes) params += n.kind == NodeKind::kConstant;
  EXPECT_EQ(params, 18);
}

TEST(ExportedProgram, SymbolicShapesAndRanges) {
  ExportModelSpec spec;
  spec.blocks = 1;
  spec.symbolic_seq = true;
  Document doc;
  const Graph g = read_one(gen::build_export_transformer(spec), doc);
  ASSERT_EQ(g.inputs.size(), 1u);
  const TensorInfo& x = g.values[g.inputs[0]].tensor;
  EXPECT_EQ(x.shape_string(), "[1, s0, 64]");
  EXPECT_EQ(x.shape[1].size, 16);  // the hint
  EXPECT_EQ(x.dynamism, ShapeDynamism::kDynamicUnbound);
  EXPECT_EQ(find_attr(g.attributes, "range.s0")->value, "[2, 2048]");
  EXPECT_EQ(find_attr(g.attributes, "schema_version")->value, "8.12");
}

TEST(ExportedProgram, CondSubgraphsBecomeGraphs) {
  ExportModelSpec spec;
  spec.blocks = 1;
  spec.with_cond = true;
  Document doc;
  auto r = read_exported_program(
      gen::write_exported_program_json(gen::build_export_transformer(spec)), doc);
  ASSERT_TRUE(r.ok()) << r.error().message();
  ASSERT_EQ(doc.graphs.size(), 3u);
  const Graph& g = doc.graphs[static_cast<size_t>(*r)];
  const Node* cond = find_op(g, "higher_order::cond");
  ASSERT_NE(cond, nullptr);
  ASSERT_GE(cond->subgraph, 0);
  const Graph& t = doc.graphs[cond->subgraph];
  EXPECT_EQ(t.kind, GraphKind::kSubgraph);
  EXPECT_EQ(t.name, "exported_program/cond/true_graph_0");
  ASSERT_NE(find_op(t, "aten::relu"), nullptr);
  EXPECT_EQ(find_attr(cond->attributes, "subgraph.false_fn")->value,
            "exported_program/cond/false_graph_0");
  EXPECT_NE(find_op(*doc.find_graph("exported_program/cond/false_graph_0"), "aten::neg"), nullptr);
  // The cond output (a tensor list) feeds the graph output.
  EXPECT_EQ(g.values[g.outputs[0]].name, "getitem");
}

TEST(ExportedProgram, Schema1FormWithNullFilledUnions) {
  ExportModelSpec spec;
  spec.blocks = 1;
  spec.schema1_style = true;
  spec.symbolic_seq = false;
  Document doc;
  const Graph g = read_one(gen::build_export_transformer(spec), doc);
  EXPECT_EQ(find_attr(g.attributes, "schema_version")->value, "1");
  EXPECT_EQ(g.values[g.inputs[0]].tensor.shape_string(), "[1, 16, 64]");
  const Node* sdpa = find_op(g, "aten::scaled_dot_product_attention");
  ASSERT_NE(sdpa, nullptr);
  EXPECT_EQ(g.values[sdpa->inputs[3].value].kind, ValueKind::kNull);
  EXPECT_EQ(g.values[sdpa->inputs[0].value].kind, ValueKind::kTensor);
  EXPECT_EQ(sdpa->name, "scaled_dot_product_attention_15");
}

TEST(ExportedProgram, UnknownKindsAndFieldsAreKeptAsText) {
  gen::ExportProgram p;
  p.graph.tensors.push_back({"x", 7, {{4, ""}}, false});
  p.graph.tensors.push_back({"y", 7, {{4, ""}}, false});
  p.graph.inputs.push_back(ExportArg::tensor("x"));
  p.inputs.push_back({"user_input", "x", ""});
  gen::ExportNode n;
  n.name = "y";
  n.target = "torch.ops.my_ns.custom.default";
  ExportArg future;
  future.kind = ExportArg::Kind::kRaw;
  future.raw_kind = "as_quantum_state";
  future.raw_json = R"({"qubits": [1, 2]})";
  n.inputs = {
      {"self", ExportArg::tensor("x")}, {"state", future}, {"neg", ExportArg::floating(-INFINITY)}};
  n.outputs.push_back(ExportArg::tensor("y"));
  n.extra_metadata["from_node"] = "[{\"name\": \"y\"}]";
  p.graph.nodes.push_back(n);
  p.graph.outputs.push_back(ExportArg::tensor("y"));
  p.outputs.push_back({"user_output", "y", ""});
  std::string json = gen::write_exported_program_json(p);
  json.insert(json.size() - 1, ", \"future_field\": {\"k\": 1}");
  Document doc;
  auto r = read_exported_program(json, doc);
  ASSERT_TRUE(r.ok()) << r.error().message();
  const Graph& g = doc.graphs[0];
  const Node* c = find_op(g, "my_ns::custom");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(g.values[c->inputs[1].value].kind, ValueKind::kOther);
  EXPECT_EQ(g.values[c->inputs[1].value].literal, R"(as_quantum_state {"qubits": [1, 2]})");
  EXPECT_EQ(g.values[c->inputs[2].value].literal, "-inf");
  EXPECT_EQ(find_attr(c->attributes, "from_node")->value, "[{\"name\": \"y\"}]");
  EXPECT_EQ(find_attr(g.attributes, "unknown.future_field")->value, "{\"k\": 1}");
}

TEST(NodeMetadata, ModuleStackForms) {
  auto frames = parse_nn_module_stack(
      "L__self__,,M;L__self___layers_0,L['self'].layers[0],Block;L__self___s,layers.slice(None, 2, "
      "None),Seq");
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].path, "");
  EXPECT_EQ(frames[1].path, "layers.0");
  EXPECT_EQ(frames[1].type, "Block");
  EXPECT_EQ(frames[2].path, "layers.slice(None, 2, None)");
  EXPECT_EQ(frames[2].type, "Seq");
  EXPECT_EQ(parse_int_list("[3, 4, -1]"), (std::vector<int64_t>{3, 4, -1}));
  EXPECT_EQ(normalize_target("torch.ops.aten.add.Tensor"), "aten::add.Tensor");
  EXPECT_EQ(normalize_target("torch.ops.higher_order.cond"), "higher_order::cond");
  EXPECT_EQ(normalize_target("_operator.getitem"), "_operator.getitem");
}

}  // namespace
}  // namespace etviz::torch_export::testing
