// The TOSA reader on the corpus file (a MobileNetV2 partition for Ethos-U55, TOSA 1.0) and on
// small graphs built in memory: operators, attributes, tensors, constants, control flow.
// Every figure about the corpus file is what Debian's flatc decodes from it with our schema
// (test_tosa_oracle.py checks them field by field).
#include "formats/tosa/tosa_reader.h"

#include <gtest/gtest.h>

#include <numeric>

#include "formats/delegates/delegate_decoder.h"
#include "program_builder.h"
#include "tosa_test_util.h"

namespace etviz::test {
namespace {

const Node* node_named(const Graph& g, const std::string& name) {
  for (const Node& n : g.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

std::vector<std::string> attribute_names(const Node& n) {
  std::vector<std::string> out;
  for (const Attribute& a : n.attributes) out.push_back(a.name);
  return out;
}

std::vector<std::string> input_names(const Node& n) {
  std::vector<std::string> out;
  for (const Argument& a : n.inputs) out.push_back(a.name.str());
  return out;
}

TEST(TosaReader, CorpusFileOpensOnItsOwn) {
  Document doc = load(corpus(kCorpusTosa));
  ASSERT_EQ(doc.graphs.size(), 1u);
  EXPECT_EQ(doc.format, DocumentFormat::kTosa);
  EXPECT_EQ(doc.format_version, "TOSA 1.0.0");
  // One note: 53 per-channel weight zero points stored with one byte per channel under a [1]
  // shape (flatc shows the same).
  ASSERT_EQ(doc.diagnostics.size(), 1u);
  EXPECT_EQ(doc.diagnostics[0].severity, Severity::kInfo);
  EXPECT_EQ(doc.diagnostics[0].message,
            "block 'main': 53 constant tensors hold more bytes than their shape and type need "
            "(e.g. 'layer-1_weight_zp': [1] int8, 32 bytes); the shape's are shown");
  const Graph& g = doc.graphs[0];
  EXPECT_EQ(g.name, "main");
  EXPECT_EQ(g.kind, GraphKind::kImported);
  // 769 operators: 546 CONST and 20 CONST_SHAPE (constant nodes), 203 others.
  const std::map<std::string, int> expected = {
      {"Rescale", 83},         {"Conv2D", 36}, {"Clamp", 35},    {"Reshape", 20},
      {"DepthwiseConv2D", 17}, {"Add", 10},    {"AvgPool2D", 1}, {"Transpose", 1}};
  EXPECT_EQ(kernel_ops(g), expected);
  EXPECT_EQ(count_kind(g, NodeKind::kConstant), 546 + 20);
  EXPECT_EQ(attribute(g.attributes, "operators"), "769");
  EXPECT_EQ(attribute(g.attributes, "tosa_version"), "1.0.0");
  // 750 tensors and 20 shapes.
  EXPECT_EQ(g.values.size(), 770u);
  ASSERT_EQ(g.inputs.size(), 1u);
  ASSERT_EQ(g.outputs.size(), 1u);
  const Value& in = g.values[static_cast<size_t>(g.inputs[0])];
  EXPECT_EQ(in.name, "quantized_decomposed_quantize_per_tensor_default");
  EXPECT_EQ(in.tensor.dtype, "int8");
  EXPECT_EQ(in.tensor.shape_string(), "[1, 3, 224, 224]");
  const Value& out = g.values[static_cast<size_t>(g.outputs[0])];
  EXPECT_EQ(out.name, "aten_view_copy_default_2");
  EXPECT_EQ(out.tensor.shape_string(), "[1, 1000]");
  EXPECT_EQ(g.nodes.front().kind, NodeKind::kInput);
  EXPECT_EQ(g.nodes.front().name, in.name);
}

TEST(TosaReader, ConstantsAreLocatedNotCopied) {
  Document doc = load(corpus(kCorpusTosa));
  ASSERT_EQ(doc.graphs.size(), 1u);
  const Graph& g = doc.graphs[0];
  // Every CONST tensor and CONST_SHAPE shape: 3,650,940 bytes of tensors, 608 of shapes.
  ASSERT_EQ(g.constant_data.size(), 566u);
  uint64_t bytes = 0;
  for (const ConstantData& c : g.constant_data) {
    bytes += c.blob.size;
    EXPECT_EQ(c.blob.source, 0);
    EXPECT_EQ(doc.bytes(c.blob).size(), c.blob.size);
    EXPECT_TRUE(g.values[static_cast<size_t>(c.value)].tensor.is_constant());
  }
  EXPECT_EQ(bytes, 3650940u + 608u);
  const Node* w = node_named(g, "b__frozen_param0");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->kind, NodeKind::kConstant);
  EXPECT_EQ(w->op, "parameter");
  const ValueId v = w->outputs.at(0).value;
  EXPECT_EQ(g.values[static_cast<size_t>(v)].tensor.shape_string(), "[32, 3, 3, 3]");
  EXPECT_EQ(g.values[static_cast<size_t>(v)].tensor.nbytes, 864);
  ASSERT_NE(g.constant_blob(v), nullptr);
  EXPECT_EQ(g.constant_blob(v)->size, 864u);
  // Small constants show their value: a zero point (241 as int8) and a shape (int64s).
  const Node* zp = node_named(g, "layer-1_input_zp");
  ASSERT_NE(zp, nullptr);
  EXPECT_EQ(attribute(zp->attributes, "value"), "[-15]");
  const Node* shape = node_named(g, "layer-3_shape");
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(attribute(shape->attributes, "value"), "[3, 3, 32, 1]");
  EXPECT_EQ(g.values[static_cast<size_t>(shape->outputs.at(0).value)].tensor.dtype, "shape");
}

TEST(TosaReader, AttributesInTheSpecificationsOrder) {
  Document doc = load(corpus(kCorpusTosa));
  ASSERT_EQ(doc.graphs.size(), 1u);
  const Graph& g = doc.graphs[0];
  const Node* conv = node_named(g, "layer-1");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->op, "Conv2D");
  // The file's table holds pad, stride, dilation, local_bound (absent: false), acc_type; shown
  // in the specification's order, every field, as the VGF decoder shows SPIR-V operands.
  EXPECT_EQ(attribute_names(*conv),
            (std::vector<std::string>{"pad", "stride", "dilation", "acc_type", "local_bound"}));
  EXPECT_EQ(attribute(conv->attributes, "pad"), "[1, 0, 1, 0]");
  EXPECT_EQ(attribute(conv->attributes, "stride"), "[2, 2]");
  EXPECT_EQ(attribute(conv->attributes, "acc_type"), "INT32");
  EXPECT_EQ(attribute(conv->attributes, "local_bound"), "false");
  EXPECT_EQ(input_names(*conv),
            (std::vector<std::string>{"input", "weight", "bias", "input_zp", "weight_zp"}));
  const Node* clamp = node_named(g, "aten_clamp_default");
  ASSERT_NE(clamp, nullptr);
  // min_val/max_val are one int8 each: 244 and 24.
  EXPECT_EQ(attribute(clamp->attributes, "min_val"), "-12");
  EXPECT_EQ(attribute(clamp->attributes, "max_val"), "24");
  EXPECT_EQ(attribute(clamp->attributes, "nan_mode"), "PROPAGATE");
  const Node* rescale = node_named(g, "aten_convolution_default");
  ASSERT_NE(rescale, nullptr);
  EXPECT_EQ(rescale->op, "Rescale");
  EXPECT_EQ(attribute_names(*rescale),
            (std::vector<std::string>{"scale32", "rounding_mode", "per_channel", "input_unsigned",
                                      "output_unsigned"}));
  EXPECT_EQ(attribute(rescale->attributes, "rounding_mode"), "SINGLE_ROUND");
  EXPECT_EQ(input_names(*rescale),
            (std::vector<std::string>{"input", "multiplier", "shift", "input_zp", "output_zp"}));
}

// The same model compiled for VGF (SPIR-V) reads like the Ethos-U TOSA graph: same op names,
// same attribute names in the same order, same input names, same enum spellings.
TEST(TosaReader, VgfAndTosaReadAlike) {
  Document tosa = load(corpus(kCorpusTosa));
  Document vgf = load(corpus(
      "pte/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
      "mobilenet_v2_vgf__input.pte"));
  ASSERT_EQ(tosa.graphs.size(), 1u);
  const Graph* vg = nullptr;
  for (const Delegate& d : vgf.delegates)
    if (d.backend_id == "VgfBackend" && d.subgraph >= 0) vg = &vgf.graphs[d.subgraph];
  ASSERT_NE(vg, nullptr);
  std::map<std::string, const Node*> first_tosa, first_vgf;
  for (const Node& n : tosa.graphs[0].nodes)
    if (n.kind == NodeKind::kKernel) first_tosa.emplace(n.op, &n);
  for (const Node& n : vg->nodes)
    if (n.kind == NodeKind::kKernel) first_vgf.emplace(n.op, &n);
  int compared = 0;
  for (const auto& [op, n] : first_vgf) {
    auto t = first_tosa.find(op);
    ASSERT_NE(t, first_tosa.end()) << op << " is in the VGF graph, not in the TOSA graph";
    EXPECT_EQ(attribute_names(*n), attribute_names(*t->second)) << op;
    EXPECT_EQ(input_names(*n), input_names(*t->second)) << op;
    // Same model, same first operator of each type: the same values, spelled alike.
    for (const Attribute& a : n->attributes)
      EXPECT_EQ(a.value, attribute(t->second->attributes, a.name)) << op << " " << a.name;
    ++compared;
  }
  EXPECT_EQ(compared, 8);  // Add AvgPool2D Clamp Conv2D DepthwiseConv2D Rescale Reshape Transpose
}

TEST(TosaReader, SmallGraphFromMemory) {
  auto doc = read_tosa_bytes(gen::write_tosa(small_graph()));
  ASSERT_TRUE(doc) << doc.error().message();
  ASSERT_EQ(doc->graphs.size(), 1u);
  const Graph& g = doc->graphs[0];
  EXPECT_EQ(kernel_ops(g), (std::map<std::string, int>{{"Add", 1}, {"Clamp", 1}}));
  const Node* c = node_named(g, "c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(attribute(c->attributes, "value"), "[1, 2, 3, -1]");
  const Node* clamp = node_named(g, "y");
  ASSERT_NE(clamp, nullptr);
  EXPECT_EQ(attribute(clamp->attributes, "min_val"), "-128");
  EXPECT_EQ(attribute(clamp->attributes, "max_val"), "127");
  const Node* add = node_named(g, "sum");
  ASSERT_NE(add, nullptr);
  ASSERT_EQ(add->inputs.size(), 2u);
  EXPECT_EQ(add->inputs[0].name, "input1");
  EXPECT_EQ(add->inputs[1].name, "input2");
  // The constant's node precedes its reader: the Add reads the CONST's value.
  EXPECT_EQ(g.values[static_cast<size_t>(add->inputs[1].value)].producer,
            static_cast<NodeId>(c - g.nodes.data()));
}

// COND_IF names two regions: the node opens the then-branch, the else-branch is named in an
// attribute; both are graphs of the document, the bodies of the node.
TEST(TosaReader, ControlFlowRegionsBecomeBodies) {
  using namespace gen;
  TosaBlockSpec main;
  main.tensors = {{"p", tosa_type::kBool, {1}, {}},
                  {"x", tosa_type::kInt8, {4}, {}},
                  {"y", tosa_type::kInt8, {4}, {}}};
  TosaOpSpec cond{tosa_op::kCondIf, {"p", "x"}, {"y"}};
  cond.then_graph = "then_region";
  cond.else_graph = "else_region";
  main.ops = {cond};
  main.inputs = {"p", "x"};
  main.outputs = {"y"};
  auto body = [](const char* name, uint32_t op) {
    TosaBlockSpec b;
    b.name = name;
    b.tensors = {{"a", tosa_type::kInt8, {4}, {}}, {"b", tosa_type::kInt8, {4}, {}}};
    b.ops = {{op, {"a"}, {"b"}}};
    b.inputs = {"a"};
    b.outputs = {"b"};
    return b;
  };
  TosaFileSpec f;
  f.regions = {{"main", {main}},
               {"then_region", {body("then_region", tosa_op::kIdentity)}},
               {"else_region", {body("else_region", tosa_op::kIdentity)}}};
  auto doc = read_tosa_bytes(write_tosa(f));
  ASSERT_TRUE(doc) << doc.error().message();
  ASSERT_EQ(doc->graphs.size(), 3u);
  const Graph& g = doc->graphs[0];
  const Node* n = node_named(g, "y");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->op, "CondIf");
  EXPECT_EQ(input_names(*n), (std::vector<std::string>{"condition", "input_list"}));
  EXPECT_EQ(attribute(n->attributes, "then_graph"), "then_region");
  EXPECT_EQ(attribute(n->attributes, "else_graph"), "else_region");
  const Graph* then = doc->subgraph_of(*n);
  ASSERT_NE(then, nullptr);
  EXPECT_EQ(then->name, "main/then_region");
  EXPECT_EQ(then->kind, GraphKind::kSubgraph);
  EXPECT_EQ(attribute(n->attributes, "subgraph.else_graph"), "main/else_region");
  const Graph* other = doc->find_graph("main/else_region");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->kind, GraphKind::kSubgraph);
  EXPECT_EQ(kernel_ops(*other), (std::map<std::string, int>{{"Identity", 1}}));
}

// TOSABackend payloads are TOSA flatbuffers: decoded into the delegate's graph, constants
// located inside the program.
TEST(TosaReader, TosaBackendPayload) {
  gen::ProgramBuilder builder;
  gen::MethodBuilder& m = builder.method("forward");
  const auto x = m.tensor(gen::ScalarType::kInt8, {1, 4});
  const auto y = m.tensor(gen::ScalarType::kInt8, {1, 4});
  m.input(x);
  const int32_t d =
      m.add_delegate("TOSABackend", {{"output_format", "tosa"}}, gen::write_tosa(small_graph()));
  m.delegate_call(d, {x, y});
  m.output(y);
  const std::string path = scratch_dir("tosa") + "/tosa_backend.pte";
  std::string error;
  ASSERT_TRUE(builder.write(path, {}, error)) << error;
  Document doc = load(path);
  ASSERT_EQ(doc.delegates.size(), 1u);
  ASSERT_GE(doc.delegates[0].subgraph, 0);
  const Graph& g = doc.graphs[static_cast<size_t>(doc.delegates[0].subgraph)];
  EXPECT_FALSE(g.opaque);
  EXPECT_EQ(g.name, "forward/TOSABackend#0");
  EXPECT_EQ(kernel_ops(g), (std::map<std::string, int>{{"Add", 1}, {"Clamp", 1}}));
  ASSERT_EQ(g.constant_data.size(), 1u);
  EXPECT_EQ(std::vector<uint8_t>(doc.bytes(g.constant_data[0].blob).begin(),
                                 doc.bytes(g.constant_data[0].blob).end()),
            (std::vector<uint8_t>{1, 2, 3, 0xFF}));
}

}  // namespace
}  // namespace etviz::test
