// Facts about the real .pt2 and .etrecord files in the shared corpus, learned independently
// (unzip + python -m json.tool on the entries).
#include <gtest/gtest.h>

#include "formats/open_document.h"
#include "test_util.h"

namespace etviz::torch_export::testing {
namespace {

TEST(Pt2Corpus, LinearArchiveNewLayout) {
  auto doc = open_document(corpus(kPt2Linear));
  ASSERT_TRUE(doc.ok()) << doc.error().message();
  EXPECT_EQ(doc->format, DocumentFormat::kPt2);
  EXPECT_EQ(doc->format_version, "pt2 archive v0, schema 8.12");
  ASSERT_NE(find_attr(doc->properties, "archive_root"), nullptr);
  EXPECT_EQ(find_attr(doc->properties, "archive_root")->value, "linear_3");
  EXPECT_EQ(find_attr(doc->properties, "byteorder")->value, "little");
  EXPECT_EQ(find_attr(doc->properties, "data_version")->value, "6");
  EXPECT_EQ(find_attr(doc->properties, "sample_inputs.model")->value, "present (pickled)");

  ASSERT_EQ(doc->graphs.size(), 1u);
  const Graph& g = doc->graphs[0];
  EXPECT_EQ(g.name, "model");
  EXPECT_EQ(g.kind, GraphKind::kExportedProgram);
  EXPECT_EQ(find_attr(g.attributes, "torch_version")->value, "2.9.0a0+fb");
  EXPECT_EQ(find_attr(g.attributes, "dialect")->value, "TRAINING");
  EXPECT_EQ(find_attr(g.attributes, "opset.aten")->value, "10");
  // 2 parameters + 1 user input, 1 linear call, 1 output.
  ASSERT_EQ(g.nodes.size(), 5u);
  EXPECT_EQ(g.nodes[0].kind, NodeKind::kConstant);
  EXPECT_EQ(g.nodes[0].op, "parameter");
  EXPECT_EQ(find_attr(g.nodes[0].attributes, "target")->value, "linear.weight");
  EXPECT_EQ(g.nodes[0].name, "linear.weight");  // parameters are named by their fqn
  EXPECT_EQ(find_attr(g.nodes[1].attributes, "target")->value, "linear.bias");
  EXPECT_EQ(g.nodes[2].kind, NodeKind::kInput);
  EXPECT_EQ(g.nodes[2].name, "x");

  const Node& linear = g.nodes[3];
  EXPECT_EQ(linear.op, "aten::linear");
  EXPECT_EQ(find_attr(linear.attributes, "target"), nullptr);  // spelled out by the op name
  EXPECT_EQ(linear.name, "linear");
  ASSERT_EQ(linear.inputs.size(), 3u);
  EXPECT_EQ(linear.inputs[0].name, "input");
  EXPECT_EQ(g.values[linear.inputs[0].value].name, "x");
  EXPECT_EQ(g.values[linear.inputs[1].value].name, "p_linear_weight");
  EXPECT_EQ(g.values[linear.inputs[1].value].tensor.shape_string(), "[3, 3]");
  EXPECT_EQ(g.values[linear.inputs[1].value].tensor.dtype, "float32");
  EXPECT_EQ(g.values[linear.inputs[1].value].tensor.nbytes, 36);
  EXPECT_TRUE(g.values[linear.inputs[1].value].tensor.requires_grad);
  EXPECT_EQ(find_attr(linear.attributes, "torch_fn")->value,
            "linear_1;builtin_function_or_method.linear");

  // nn_module_stack "L__self__,,...M;L__self__linear,linear,torch.nn.modules.linear.Linear".
  ASSERT_EQ(g.groups.size(), 1u);
  EXPECT_EQ(g.groups[0].name, "linear");
  EXPECT_EQ(g.groups[0].label, "linear (Linear)");
  EXPECT_EQ(g.groups[0].kind, GroupKind::kModule);
  EXPECT_EQ(linear.group, 0);
  EXPECT_EQ(linear.provenance.module_path, "linear");
  ASSERT_EQ(linear.provenance.stack.size(), 2u);
  EXPECT_TRUE(linear.provenance.stack[0].file.ends_with("caffe2/test/export/test_serialize.py"));
  EXPECT_EQ(linear.provenance.stack[0].line, 694);
  EXPECT_EQ(linear.provenance.stack[0].context, "self.linear(x)");
  EXPECT_TRUE(linear.provenance.stack[1].file.ends_with("torch/nn/modules/linear.py"));
  EXPECT_EQ(linear.provenance.stack[1].line, 134);
  EXPECT_EQ(linear.provenance.stack[1].function, "forward");

  ASSERT_EQ(g.inputs.size(), 1u);
  EXPECT_EQ(g.values[g.inputs[0]].tensor.shape_string(), "[3]");
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.values[g.outputs[0]].name, "linear");
  EXPECT_EQ(g.values[g.outputs[0]].producer, 3);

  // Weights config: linear.weight -> weight_0 (36 bytes, stored), linear.bias -> weight_1.
  ASSERT_EQ(doc->named_data.size(), 2u);
  EXPECT_EQ(doc->named_data[0].key, "linear.weight");
  EXPECT_EQ(doc->named_data[0].blob.size, 36u);
  ASSERT_TRUE(doc->named_data[0].blob.valid());
  EXPECT_EQ(doc->bytes(doc->named_data[0].blob).size(), 36u);
  ASSERT_TRUE(doc->named_data[0].tensor.has_value());
  EXPECT_EQ(doc->named_data[0].tensor->shape_string(), "[3, 3]");
  EXPECT_EQ(doc->named_data[1].key, "linear.bias");
  EXPECT_EQ(doc->named_data[1].blob.size, 12u);
  EXPECT_EQ(doc->sections.size(), 11u);
}

void expect_2023_etrecord(const Document& doc) {
  EXPECT_EQ(doc.format, DocumentFormat::kETRecord);
  ASSERT_EQ(doc.graphs.size(), 2u);
  const Graph* aten = doc.find_graph("aten_dialect_output/forward");
  const Graph* edge = doc.find_graph("edge_dialect_exported_program");
  ASSERT_NE(aten, nullptr);
  ASSERT_NE(edge, nullptr);
  EXPECT_EQ(aten->stage.role, StageRole::kAtenDialect);
  EXPECT_EQ(edge->stage.role, StageRole::kEdgeDialect);
  EXPECT_EQ(aten->stage.method, "forward");
  EXPECT_EQ(edge->stage.method, "forward");
  EXPECT_EQ(doc.find_stage(StageRole::kEdgeDialect, "forward"), edge);
  EXPECT_EQ(find_attr(edge->attributes, "schema_version")->value, "1");
  EXPECT_EQ(find_attr(edge->attributes, "siblings")->value,
            "edge_dialect_exported_program_state_dict (864 bytes)");
  for (const Graph* g : {aten, edge}) {
    ASSERT_EQ(g->nodes.size(), 4u);  // 2 inputs, mul, output
    ASSERT_EQ(g->inputs.size(), 2u);
    EXPECT_EQ(g->values[g->inputs[0]].name, "arg0_1");
    EXPECT_EQ(g->values[g->inputs[0]].tensor.shape_string(), "[3, 2]");
    EXPECT_EQ(g->values[g->inputs[1]].name, "arg1_1");
    EXPECT_EQ(g->nodes[2].op, "aten::mul.Tensor");
    EXPECT_EQ(find_attr(g->nodes[2].attributes, "source_fn_stack")->value, "mul,_operator.mul");
    ASSERT_EQ(g->nodes[2].provenance.stack.size(), 1u);
    EXPECT_TRUE(g->nodes[2].provenance.stack[0].file.ends_with(
        "executorch/examples/models/toy_model/model.py"));
    EXPECT_EQ(g->nodes[2].provenance.stack[0].line, 18);
    EXPECT_EQ(g->nodes[2].provenance.stack[0].context, "return input * other");
    EXPECT_TRUE(g->groups.empty());
  }
  EXPECT_EQ(aten->nodes[2].name, "mul");
  EXPECT_EQ(edge->nodes[2].name, "aten_mul_tensor");
  EXPECT_EQ(find_attr(edge->nodes[2].attributes, "target")->value,
            "executorch.exir.dialects.edge.ops.aten.mul.Tensor");
  EXPECT_EQ(edge->nodes[2].provenance.debug_handles, std::vector<int64_t>{2});
  EXPECT_TRUE(aten->nodes[2].provenance.debug_handles.empty());
  ASSERT_TRUE(doc.etrecord.has_value());
  EXPECT_TRUE(doc.etrecord->empty());  // debug_handle_map = {} and delegate_map = {}
  EXPECT_FALSE(doc.etrecord->has_representative_inputs);
}

TEST(ETRecordCorpus, Record2023) {
  auto doc = open_document(corpus(kETRecord));
  ASSERT_TRUE(doc.ok()) << doc.error().message();
  expect_2023_etrecord(*doc);
  EXPECT_EQ(doc->sections.size(), 7u);
}

// The "12 junk bytes" of this file are really two 6-byte insertions inside the stored JSON
// entries (a repository-wide rename of examples/sdk to examples/dev_tools that also rewrote the
// stack-trace paths inside this binary file), so the central directory sits 12 bytes late and
// both entries are 6 bytes longer than their headers say. Both programs still load.
TEST(ETRecordCorpus, TwelveBytesInsertedIntoTheArchive) {
  auto doc = open_document(corpus(kETRecordJunk));
  ASSERT_TRUE(doc.ok()) << doc.error().message();
  expect_2023_etrecord(*doc);
  int salvaged = 0;
  bool shifted = false;
  for (const auto& d : doc->diagnostics) {
    shifted |= d.message.starts_with("the zip central directory sits 12 bytes later");
    salvaged +=
        d.message.find("read the 6565 bytes stored between its local header") != std::string::npos;
  }
  EXPECT_TRUE(shifted);
  EXPECT_EQ(salvaged, 1);  // aten_dialect_output/forward: 6559 declared
  const Graph* aten = doc->find_graph("aten_dialect_output/forward");
  EXPECT_TRUE(aten->nodes[2].provenance.stack[0].file.find("/dev_tools/") != std::string::npos);
}

TEST(ETRecordCorpus, EmptyRecordSaysSo) {
  auto doc = open_document(corpus(kETRecordEmpty));
  ASSERT_TRUE(doc.ok()) << doc.error().message();
  EXPECT_EQ(doc->format, DocumentFormat::kETRecord);
  EXPECT_TRUE(doc->graphs.empty());
  ASSERT_EQ(doc->diagnostics.size(), 1u);
  EXPECT_NE(doc->diagnostics[0].message.find("only the ETRECORD_V0 marker"), std::string::npos);
  EXPECT_EQ(find_attr(doc->properties, "programs")->value, "0");
}

TEST(ZipSniffing, JunkPrefixedZipIsAZip) {
  auto f = MappedFile::open(corpus(kETRecordJunk));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(sniff_file_kind((*f)->bytes()), FileKind::kZip);
}

}  // namespace
}  // namespace etviz::torch_export::testing
