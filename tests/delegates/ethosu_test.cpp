// Arm Ethos-U (Vela) payloads, current EthosUBackend and legacy ArmBackend ids: I/O records,
// sizes and the NPU command-stream histogram, checked against a hand decode of the corpus
// (Vela driver_actions / ethos_u55_regs layouts, docs/delegates.md).
#include <gtest/gtest.h>

#include <cstring>

#include "analysis/delegation.h"
#include "formats/delegates/delegate_decoder.h"
#include "test_util.h"

namespace etviz::test {
namespace {

const Node& summary_node(const Graph& g) {
  for (const Node& n : g.nodes)
    if (n.op == "Ethos-U command stream") return n;
  ADD_FAILURE() << "no command stream node in " << g.name;
  return g.nodes.front();
}

const Graph& only_subgraph(const Document& doc, const std::string& backend) {
  auto subs = subgraphs(doc, backend);
  EXPECT_EQ(subs.size(), 1u);
  EXPECT_TRUE(doc.diagnostics.empty());
  return *subs.at(0);
}

TEST(EthosU, MobilenetU55) {
  Document doc = open_or_die(corpus(
      "pte/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
      "mobilenet_v2_ethosu__input.pte"));
  const Graph& g = only_subgraph(doc, "EthosUBackend");
  EXPECT_TRUE(g.opaque);
  const auto& a = summary_node(g).attributes;
  EXPECT_EQ(attribute(a, "command_data_bytes"), "29120");
  EXPECT_EQ(attribute(a, "weight_bytes"), "3349920");
  EXPECT_EQ(attribute(a, "scratch_bytes"), "1509584");
  EXPECT_EQ(attribute(a, "command_stream_words"), "7272");
  EXPECT_EQ(attribute(a, "commands"), "4832");
  EXPECT_EQ(attribute(a, "npu"), "Ethos-U55 (128 MACs/cc, 24 KB SHRAM)");
  EXPECT_EQ(attribute(a, "compile_spec.target"), "ethos-u55-128");
  EXPECT_EQ(attribute(a, "npu_operations"),
            "CONV 158, DEPTHWISE 32, DMA_START 190, DMA_WAIT 190, ELEMENTWISE(ADD) 30, "
            "ELEMENTWISE(MUL) 30, KERNEL_WAIT 127, POOL(average) 226, STOP 1");
  ASSERT_EQ(g.inputs.size(), 1u);
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.values[g.inputs[0]].tensor.shape_string(), "[1, 3, 224, 224]");
  EXPECT_EQ(g.values[g.inputs[0]].tensor.dtype, "int8");
  EXPECT_EQ(g.values[g.outputs[0]].tensor.shape_string(), "[1, 1000]");
}

TEST(EthosU, MinimalExamplesU55AndU85) {
  Document u55 = open_or_die(
      corpus("pte/Arm-Examples__CMSIS-Executorch__ai_layer__engine__model__ethos_u_minimal_example."
             "0ff7865c.pte"));
  const auto& a = summary_node(only_subgraph(u55, "EthosUBackend")).attributes;
  EXPECT_EQ(attribute(a, "command_stream_words"), "219");
  EXPECT_EQ(attribute(a, "commands"), "153");
  EXPECT_EQ(
      attribute(a, "npu_operations"),
      "DMA_START 6, DMA_WAIT 5, ELEMENTWISE(ADD) 3, ELEMENTWISE(MUL) 3, KERNEL_WAIT 2, STOP 1");
  EXPECT_EQ(attribute(a, "command_data_bytes"), "908");
  EXPECT_EQ(attribute(a, "weight_bytes"), "32");
  EXPECT_EQ(attribute(a, "scratch_bytes"), "144");
  EXPECT_EQ(summary_node(only_subgraph(u55, "EthosUBackend")).inputs.size(), 2u);

  Document u85 = open_or_die(corpus(
      "pte/Arm-Examples__CMSIS-Executorch__ai_layer__engine__model__ethos_u_minimal_example.pte"));
  const auto& b = summary_node(only_subgraph(u85, "EthosUBackend")).attributes;
  EXPECT_EQ(attribute(b, "npu"), "Ethos-U85 (256 MACs/cc)");
  EXPECT_EQ(attribute(b, "npu_config_word"), "0x20000118");
  EXPECT_EQ(attribute(b, "npu_id_word"), "0x20007000");
  EXPECT_EQ(attribute(b, "command_stream_words"), "120");
  EXPECT_EQ(attribute(b, "commands"), "85");
}

TEST(EthosU, LegacyArmBackendWithScratchData) {
  for (const char* file : {"pte/dinusha94__executorch__model-u55-128.b97f2ffe.pte",
                           "pte/dinusha94__executorch__model-u55-128.ae136a62.pte"}) {
    Document doc = open_or_die(corpus(file));
    const Graph& g = only_subgraph(doc, "ArmBackend");
    const auto& a = summary_node(g).attributes;
    EXPECT_EQ(attribute(a, "weight_bytes"), "2523424") << file;
    EXPECT_EQ(attribute(a, "scratch_bytes"), "1509392 (stored as scratch_data)") << file;
    const std::string ops = attribute(a, "npu_operations");
    EXPECT_NE(ops.find("CONV 151"), std::string::npos) << ops;
    EXPECT_NE(ops.find("DEPTHWISE 22"), std::string::npos) << ops;
    EXPECT_NE(ops.find("DMA_START 173"), std::string::npos) << ops;
    // Legacy 28-byte records: 4-D NHWC input.
    EXPECT_EQ(g.values[g.inputs[0]].tensor.shape_string(), "[1, 224, 224, 3]");
  }
}

TEST(EthosU, MnistBothFiles) {
  for (const char* file :
       {"pte/fidel-makatia__ALIF_Executorch__executorch_mnist__mnist_ethos_u55.pte",
        "pte/fidel-makatia__ALIF_Executorch__executorch_mnist__executorch_npu__mnist_ethosu_arm_"
        "delegate_ethos-u55-128.pte"}) {
    Document doc = open_or_die(corpus(file));
    const Graph& g = only_subgraph(doc, "EthosUBackend");
    const auto& a = summary_node(g).attributes;
    EXPECT_EQ(attribute(a, "command_data_bytes"), "2984") << file;
    EXPECT_EQ(attribute(a, "command_stream_words"), "738") << file;
    EXPECT_EQ(attribute(a, "scratch_bytes"), "104160") << file;
    const std::string ops = attribute(a, "npu_operations");
    EXPECT_NE(ops.find("CONV 6"), std::string::npos) << ops;
    EXPECT_NE(ops.find("DMA_START 6"), std::string::npos) << ops;
    EXPECT_EQ(g.values[g.outputs[0]].tensor.numel(), 10);
  }
}

TEST(EthosU, TruncatedStreamIsAnError) {
  Document doc;
  Delegate del;
  del.backend_id = "EthosUBackend";
  std::vector<uint8_t> p(64, 0);
  std::memcpy(p.data(), "vela_bin_stream", 15);
  std::memcpy(p.data() + 32, "cmd_data", 8);
  p[48] = 0xFF;  // 255 bytes of cmd_data, none present
  auto g = delegates::find_decoder("EthosUBackend").decode({doc, del, p, "m/EthosUBackend#0"});
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().message().find("cmd_data"), std::string::npos) << g.error().message();
}

}  // namespace
}  // namespace etviz::test
