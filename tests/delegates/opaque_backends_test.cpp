// Backends whose payloads are summarised, not decoded to ops (QNN, unknown ids), and
// OpenVINO's CPU export, whose IR XML is decoded. Facts checked against the corpus files by
// hand (python + the published formats, docs/delegates.md).
#include <gtest/gtest.h>

#include <cstring>

#include "analysis/delegation.h"
#include "formats/delegates/delegate_decoder.h"
#include "test_util.h"

namespace etviz::test {
namespace {

const char* kQnn =
    "pte/pytorch__executorch__examples__qualcomm__oss_scripts__llama__artifacts__stories260k_"
    "hybrid_llama_qnn.pte";

TEST(Qnn, MultiMethodContextSummary) {
  Document doc = open_or_die(corpus(kQnn));
  ASSERT_EQ(doc.delegates.size(), 2u);
  for (const Delegate& d : doc.delegates) {
    EXPECT_EQ(d.backend_id, "QnnBackend");
    ASSERT_GE(d.subgraph, 0) << d.decoder_note;
    const Graph& g = doc.graphs[d.subgraph];
    EXPECT_TRUE(g.opaque);
    EXPECT_EQ(d.payload.offset, doc.delegates[0].payload.offset);  // one shared segment
    const Node* summary = nullptr;
    for (const Node& n : g.nodes)
      if (n.op == "QNN context binary") summary = &n;
    ASSERT_NE(summary, nullptr);
    const auto& a = summary->attributes;
    EXPECT_EQ(attribute(a, "context_binary_bytes"), "1331200");
    EXPECT_EQ(attribute(a, "context_binary_offset"), "256");
    EXPECT_EQ(attribute(a, "qnn_sdk_version"), "v2.37.0.250724175447_124859");
    EXPECT_EQ(attribute(a, "soc"), "SM8650");
    EXPECT_EQ(attribute(a, "htp_arch"), "V75");
    EXPECT_EQ(attribute(a, "vtcm_mb"), "8");
    EXPECT_EQ(attribute(a, "qnn_backend"), "kHtpBackend");
    EXPECT_EQ(attribute(a, "htp_performance_mode"), "kHtpBurst");
    EXPECT_EQ(attribute(a, "context_graphs (heuristic)"), "prefill_forward, kv_forward");
    const std::string inputs = attribute(a, "graph." + d.method + ".inputs (13)");
    EXPECT_NE(inputs.find("input_1_tokens@0"), std::string::npos) << inputs;
    EXPECT_NE(attribute(a, "graph." + d.method + ".outputs (11)")
                  .find("output_aten_squeeze_copy_dims_15@0"),
              std::string::npos);
    EXPECT_EQ(attribute(a, "distinct_node_names (heuristic)"), "1512");
    // The opaque node carries the call's tensors: 13 inputs, 11 outputs.
    EXPECT_EQ(summary->inputs.size(), 13u);
    EXPECT_EQ(summary->outputs.size(), 11u);
  }
  auto info = analysis::delegation_info(doc);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->num_delegated_subgraphs, 2);
  EXPECT_EQ(info->num_opaque_subgraphs, 2);
  EXPECT_EQ(info->num_delegated_nodes, 0);
  EXPECT_EQ(info->delegates[0].status, "summary");
}

TEST(Qnn, DamagedWrapperIsOpaqueWithNote) {
  Document doc;
  Delegate del;
  del.backend_id = "QnnBackend";
  std::vector<uint8_t> p(64, 0);
  p[0] = 0xCD, p[1] = 0xAB, p[2] = 0x78, p[3] = 0x56;
  p[12] = 0xFF;  // context size 255 > 44 bytes that follow
  auto g = delegates::find_decoder("QnnBackend").decode({doc, del, p, "m/QnnBackend#0"});
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().message().find("255-byte context binary"), std::string::npos)
      << g.error().message();
}

TEST(OpenVino, CpuExportIrLayers) {
  Document doc = open_or_die(corpus(
      "pte/corey-cole__djl-executorch-engine__src__test__resources__models__openvino__openvino_"
      "tiny.pte"));
  auto subs = subgraphs(doc, "OpenvinoBackend");
  ASSERT_EQ(subs.size(), 1u);
  const Graph& g = *subs[0];
  EXPECT_FALSE(g.opaque);
  EXPECT_EQ(attribute(g.attributes, "ir_version"), "11");
  EXPECT_EQ(attribute(g.attributes, "net"), "Model0");
  EXPECT_EQ(attribute(g.attributes, "constants_bytes"), "288");
  EXPECT_EQ(op_histogram(g), (std::map<std::string, int>{{"FullyConnected", 1}, {"ReLU", 1}}));
  // 6 IR layers: Parameter, 2 Const, FullyConnected, ReLU, Result.
  int inputs = 0, constants = 0, outputs = 0;
  for (const Node& n : g.nodes) {
    inputs += n.kind == NodeKind::kInput;
    constants += n.kind == NodeKind::kConstant;
    outputs += n.kind == NodeKind::kOutput;
  }
  EXPECT_EQ(inputs, 1);
  EXPECT_EQ(constants, 2);
  EXPECT_EQ(outputs, 1);
  ASSERT_EQ(g.inputs.size(), 1u);
  EXPECT_EQ(g.values[g.inputs[0]].name, "arg_0");
  EXPECT_EQ(g.values[g.inputs[0]].tensor.shape_string(), "[1, 8]");
  EXPECT_EQ(g.values[g.inputs[0]].tensor.dtype, "float32");
  for (const Node& n : g.nodes)
    if (n.op == "FullyConnected") {
      EXPECT_EQ(n.name, "aten_addmm_default/aten.addmm.default/Add");
      EXPECT_EQ(attribute(n.attributes, "opset"), "ie_internal_opset");
      EXPECT_EQ(n.inputs.size(), 3u);
    }
}

TEST(OpenVino, UnknownLayoutStaysOpaque) {
  Document doc;
  Delegate del;
  del.backend_id = "OpenvinoBackend";
  std::vector<uint8_t> p(100, 7);
  auto g = delegates::find_decoder("OpenvinoBackend").decode({doc, del, p, "m/OpenvinoBackend#0"});
  ASSERT_TRUE(g);
  EXPECT_TRUE(g->opaque);
}

TEST(Generic, UnknownBackendNeverFails) {
  Document doc;
  Delegate del;
  del.backend_id = "SomeFutureBackend";
  del.compile_specs.push_back({"target", {'n', 'p', 'u'}});
  const std::vector<uint8_t> p = {'P', 'K', 3, 4, 0, 0, 0, 0};
  auto g = delegates::find_decoder("SomeFutureBackend").decode({doc, del, p, "m/x#0"});
  ASSERT_TRUE(g);
  EXPECT_TRUE(g->opaque);
  ASSERT_FALSE(g->nodes.empty());
  EXPECT_EQ(attribute(g->nodes[0].attributes, "recognised_container"), "zip archive");
  EXPECT_EQ(attribute(g->nodes[0].attributes, "compile_spec.target"), "npu");
}

// An IR whose <input> is never closed before further layers follow: the ports of the first
// layer must not be written to once more layers exist (found by fuzz_open_document: a
// use-after-free when the layer list grew).
TEST(Openvino, PortsLeftOpenAcrossLayersAreIgnored) {
  std::string xml = R"(<net name="n" version="11"><layers>)"
                    R"(<layer id="0" name="x" type="Parameter" version="opset1"><output>)"
                    R"(<port id="0" precision="FP32"><dim>1</dim></port>)";
  for (int i = 1; i < 40; ++i)
    xml += R"(<layer id=")" + std::to_string(i) + R"(" name="l)" + std::to_string(i) +
           R"(" type="Relu" version="opset1">)";
  xml += R"(<port id="1" precision="FP32"><dim>2</dim></port></layers><edges/></net>)";
  std::vector<uint8_t> p(48 + xml.size());
  const uint64_t h[6] = {48, 0, 48, 0, 48, xml.size()};
  std::memcpy(p.data(), h, sizeof h);
  std::memcpy(p.data() + 48, xml.data(), xml.size());
  Document doc;
  Delegate del;
  del.backend_id = "OpenvinoBackend";
  auto g = delegates::find_decoder("OpenvinoBackend").decode({doc, del, p, "forward/ov#0"});
  ASSERT_TRUE(g) << g.error().message();
  EXPECT_EQ(op_histogram(*g)["Relu"], 39);
}

}  // namespace
}  // namespace etviz::test
