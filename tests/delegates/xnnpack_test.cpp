// XNNPACK payloads from the corpus: node counts, op kinds, tensors, quantization, constants
// and the wiring to the delegate call, checked against facts read with flatc and the
// upstream schema (docs/delegates.md).
#include <gtest/gtest.h>

#include "formats/delegates/delegate_decoder.h"
#include "test_util.h"
#include "xnnpack_generated.h"

namespace etviz::test {
namespace {

using Hist = std::map<std::string, int>;

TEST(Xnnpack, SimpleTorchModelSegmentsAndNamedData) {
  Document doc = open_or_die(corpus("pte/corey-cole__simple-torch-model__model.pte"));
  auto subs = subgraphs(doc, "XnnpackBackend");
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(op_histogram(*subs[0]), (Hist{{"XNNStaticTranspose", 2},
                                          {"XNNConv2d", 1},
                                          {"XNNDepthwiseConv2d", 1},
                                          {"XNNGlobalAvgPooling2d", 1}}));
  EXPECT_EQ(op_histogram(*subs[1]), (Hist{{"XNNFullyConnected", 1}}));
  EXPECT_EQ(subs[0]->values.size(), 10u);
  EXPECT_EQ(subs[1]->values.size(), 4u);
  EXPECT_EQ(subs[0]->kind, GraphKind::kDelegate);
  EXPECT_EQ(subs[0]->name, "forward/XnnpackBackend#0");
  EXPECT_EQ(attribute(subs[0]->attributes, "format"), "XN01");
  EXPECT_EQ(attribute(subs[0]->attributes, "header"), "XH00");
  // Weights come through named data whose keys the program carries.
  int named = 0;
  for (const Graph* g : subs)
    for (const Value& v : g->values)
      if (v.tensor.data_location == DataLocation::kNamedData) {
        ++named;
        EXPECT_EQ(v.tensor.data_key.size(), 64u);
        EXPECT_NE(delegates::find_named_blob(doc, v.tensor.data_key), nullptr);
      }
  EXPECT_EQ(named, 6);
  EXPECT_EQ(attribute(subs[0]->attributes, "missing_named_data"), "");
  // Every delegate call points at its subgraph and the split matches the payload's I/O.
  for (const Graph& g : doc.graphs) {
    if (g.kind == GraphKind::kDelegate) continue;
    for (const Node& n : g.nodes) {
      if (n.kind != NodeKind::kDelegate) continue;
      ASSERT_GE(n.subgraph, 0);
      const Graph& sub = doc.graphs[n.subgraph];
      EXPECT_EQ(n.inputs.size(), sub.inputs.size());
      EXPECT_EQ(n.outputs.size(), sub.outputs.size());
      for (size_t i = 0; i < n.inputs.size(); ++i)
        EXPECT_EQ(g.values[n.inputs[i].value].tensor.shape_string(),
                  sub.values[sub.inputs[i]].tensor.shape_string());
    }
  }
  EXPECT_EQ(doc.graphs[doc.delegates[0].subgraph].values[subs[0]->inputs[0]].tensor.shape_string(),
            "[1, 1, 1024, 1024]");
}

TEST(Xnnpack, StressMlp) {
  Document doc = open_or_die(corpus(
      "pte/corey-cole__djl-executorch-engine__src__test__resources__models__stress__stress_mlp."
      "6d3450d6.pte"));
  auto subs = subgraphs(doc, "XnnpackBackend");
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(op_histogram(*subs[0]), (Hist{{"XNNMultiply", 2}}));
  EXPECT_EQ(op_histogram(*subs[1]), (Hist{{"XNNFullyConnected", 10}, {"XNNAdd", 3}}));
  EXPECT_EQ(subs[1]->values.size(), 37u);
  int constants = 0;
  for (const Value& v : subs[1]->values) constants += v.tensor.is_constant();
  EXPECT_EQ(constants, 20);

  Document other = open_or_die(corpus(
      "pte/corey-cole__djl-executorch-engine__src__test__resources__models__stress__stress_mlp."
      "d66ae531.pte"));
  auto subs2 = subgraphs(other, "XnnpackBackend");
  ASSERT_EQ(subs2.size(), 2u);
  EXPECT_EQ(op_histogram(*subs2[1]), (Hist{{"XNNFullyConnected", 8}, {"XNNAdd", 3}}));
  EXPECT_EQ(subs2[1]->values.size(), 31u);
}

TEST(Xnnpack, QuantizedPerTensor) {
  Document doc =
      open_or_die(corpus("pte/corey-cole__executorch-numpy-runtime__tests__models__quantized.pte"));
  auto subs = subgraphs(doc, "XnnpackBackend");
  ASSERT_EQ(subs.size(), 1u);
  EXPECT_EQ(op_histogram(*subs[0]), (Hist{{"XNNConvert", 2}, {"XNNFullyConnected", 1}}));
  Hist quantized;
  for (const Value& v : subs[0]->values)
    if (v.tensor.quantization) {
      EXPECT_EQ(v.tensor.quantization->scheme, "per_tensor");
      ASSERT_EQ(v.tensor.quantization->scales.size(), 1u);
      EXPECT_GT(v.tensor.quantization->scales[0], 0.0);
      ++quantized[v.tensor.dtype];
    }
  EXPECT_EQ(quantized, (Hist{{"qint8", 3}, {"qint32", 1}}));
}

TEST(Xnnpack, HeaderlessInline2023Payload) {
  Document doc = open_or_die(corpus("pte/pytorch__executorch__xnnpack_add.c6a44d59.ff"));
  ASSERT_EQ(doc.delegates.size(), 1u);
  EXPECT_EQ(doc.delegates[0].payload_location, "inline");
  auto subs = subgraphs(doc, "XnnpackBackend");
  ASSERT_EQ(subs.size(), 1u);
  EXPECT_EQ(op_histogram(*subs[0]), (Hist{{"XNNAdd", 1}}));
  EXPECT_EQ(subs[0]->values.size(), 2u);
  EXPECT_EQ(attribute(subs[0]->attributes, "format"), "XN00");
  EXPECT_EQ(attribute(subs[0]->attributes, "header"), "none (pre-2024 payload)");
}

TEST(Xnnpack, DnfFourPayloadsAndSmallSpikes) {
  Document doc = open_or_die(corpus("pte/berndporr__dnf_executorch__dnf.47145c4a.pte"));
  auto subs = subgraphs(doc, "XnnpackBackend");
  ASSERT_EQ(subs.size(), 4u);
  EXPECT_EQ(op_count(*subs[0]), 1);
  EXPECT_EQ(op_histogram(*subs[1]), (Hist{{"XNNSubtract", 1}, {"XNNMultiply", 1}}));
  EXPECT_EQ(op_count(*subs[2]), 5);
  EXPECT_EQ(op_histogram(*subs[2])["XNNMultiply"], 2);
  EXPECT_EQ(op_count(*subs[3]), 2);
  const std::pair<const char*, int> spikes[] = {
      {"pte/corey-cole__djl-executorch-engine__native__spike__conv.pte", 3},
      {"pte/corey-cole__djl-executorch-engine__native__spike__lin129.pte", 1},
      {"pte/corey-cole__djl-executorch-engine__native__spike__lin129_planned.pte", 1},
      {"pte/corey-cole__djl-executorch-engine__native__spike__add.pte", 1},
      {"pte/corey-cole__djl-executorch-engine__native__spike__clamp5.pte", 1},
  };
  for (const auto& [file, nodes] : spikes) {
    Document d = open_or_die(corpus(file));
    auto s = subgraphs(d, "XnnpackBackend");
    ASSERT_EQ(s.size(), 1u) << file;
    EXPECT_EQ(op_count(*s[0]), nodes) << file;
    EXPECT_TRUE(d.diagnostics.empty() || d.diagnostics[0].severity == Severity::kInfo) << file;
  }
}

// A flatbuffer union whose type is set but whose table is absent passes the verifier (found by
// fuzz_open_document in CI): an x + y graph, with one of the three unions left empty each time.
enum class EmptyUnion { kNone, kValue, kQuantParams, kNode };
std::vector<uint8_t> xnnpack_add_graph(EmptyUnion empty) {
  namespace xnn = etviz::xnn;
  flatbuffers::FlatBufferBuilder fbb;
  auto tensor = [&](uint32_t id, uint32_t flags) {
    return xnn::CreateTensorValue(fbb, xnn::DataType::qint8, 2, fbb.CreateVector<uint32_t>({1, 4}),
                                  0, 0, flags, id);
  };
  std::vector<flatbuffers::Offset<xnn::Value>> values;
  for (uint32_t id = 0; id < 3; ++id) {
    const uint32_t flags = id < 2 ? 1 : 2;
    if (id == 1 && empty == EmptyUnion::kValue) {
      values.push_back(xnn::CreateValue(fbb, xnn::ValueUnion::QuantizedTensorValue, 0));
      continue;
    }
    auto t = tensor(id, flags);
    auto params = empty == EmptyUnion::kQuantParams
                      ? flatbuffers::Offset<void>(0)
                      : xnn::CreatePerTensorQuant(fbb, 0.5f, 3).Union();
    auto q = xnn::CreateQuantizedTensorValue(fbb, t, xnn::QuantParams::PerTensorQuant, params);
    values.push_back(xnn::CreateValue(fbb, xnn::ValueUnion::QuantizedTensorValue, q.Union()));
  }
  auto add = empty == EmptyUnion::kNode ? flatbuffers::Offset<void>(0)
                                        : xnn::CreateNode2x1(fbb, 0, 1, 2, 0).Union();
  auto node = xnn::CreateNode(fbb, xnn::NodeUnion::Add, add, 1);
  auto graph = xnn::CreateGraph(fbb, fbb.CreateString("0"), fbb.CreateVector(std::vector{node}),
                                fbb.CreateVector(values), 0, fbb.CreateVector<uint32_t>({0, 1}),
                                fbb.CreateVector<uint32_t>({2}));
  fbb.Finish(graph, "XN01");
  return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

TEST(Xnnpack, UnionTypeWithoutItsTableIsAnErrorNotACrash) {
  Document doc;
  Delegate del;
  del.backend_id = "XnnpackBackend";
  const auto& decoder = delegates::find_decoder("XnnpackBackend");
  const auto whole = xnnpack_add_graph(EmptyUnion::kNone);
  auto g = decoder.decode({doc, del, whole, "forward/XnnpackBackend#0"});
  ASSERT_TRUE(g) << g.error().message();
  EXPECT_EQ(op_histogram(*g), (Hist{{"XNNAdd", 1}}));
  ASSERT_TRUE(g->values[g->inputs[0]].tensor.quantization);
  EXPECT_EQ(g->values[g->inputs[0]].tensor.quantization->zero_points, std::vector<int64_t>{3});

  const auto no_value = xnnpack_add_graph(EmptyUnion::kValue);
  auto bad_value = decoder.decode({doc, del, no_value, "forward/XnnpackBackend#0"});
  ASSERT_FALSE(bad_value);
  EXPECT_NE(bad_value.error().message().find("value 1 has no table"), std::string::npos)
      << bad_value.error().message();

  // Missing quantization parameters lose only the quantization.
  const auto no_params = xnnpack_add_graph(EmptyUnion::kQuantParams);
  auto plain = decoder.decode({doc, del, no_params, "forward/XnnpackBackend#0"});
  ASSERT_TRUE(plain) << plain.error().message();
  EXPECT_FALSE(plain->values[plain->inputs[0]].tensor.quantization);

  const auto no_node = xnnpack_add_graph(EmptyUnion::kNode);
  auto bad_node = decoder.decode({doc, del, no_node, "forward/XnnpackBackend#0"});
  ASSERT_FALSE(bad_node);
  EXPECT_NE(bad_node.error().message().find("without its table"), std::string::npos)
      << bad_node.error().message();
}

}  // namespace
}  // namespace etviz::test
