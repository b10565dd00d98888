// Arm VGF payloads (inline and segment): the SPIR-V TOSA graph, cross-checked against the
// graph Arm's Model Explorer adapter extracted from the same program (expected*.json).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "analysis/delegation.h"
#include "formats/delegates/delegate_decoder.h"
#include "test_util.h"

namespace etviz::test {
namespace {

const char* kInline =
    "pte/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
    "mobilenet_v2_vgf__input.pte";
const char* kSegment =
    "pte/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
    "mobilenet_v2_vgf_segments__input.pte";

using Hist = std::map<std::string, int>;

const Hist kExpectedOps = {{"Rescale", 83},         {"Conv2D", 36},  {"Clamp", 35},
                           {"DepthwiseConv2D", 17}, {"Add", 10},     {"AvgPool2D", 1},
                           {"Reshape", 1},          {"Transpose", 1}};

// Labels of the first graph with nodes in a Model Explorer JSON file.
Hist explorer_labels(const std::string& file, size_t& total) {
  std::ifstream f(file);
  nlohmann::json j = nlohmann::json::parse(f);
  Hist h;
  std::function<bool(const nlohmann::json&)> walk = [&](const nlohmann::json& o) {
    if (o.is_object()) {
      if (o.contains("nodes") && o["nodes"].is_array() && !o["nodes"].empty()) {
        total = o["nodes"].size();
        for (const auto& n : o["nodes"]) ++h[n.value("label", "")];
        return true;
      }
      for (const auto& [k, v] : o.items())
        if (walk(v)) return true;
    } else if (o.is_array()) {
      for (const auto& v : o)
        if (walk(v)) return true;
    }
    return false;
  };
  walk(j);
  return h;
}

TEST(Vgf, InlineAndSegmentPayloads) {
  // The segment variant is not byte-identical inside: one more RESCALE (184 vs 185 TOSA ops)
  // and 23 more SPIR-V words, confirmed by a separate scan of the OpExtInst instructions.
  for (const char* file : {kInline, kSegment}) {
    const bool segment = file == kSegment;
    Hist expected = kExpectedOps;
    if (segment) expected["Rescale"] = 84;
    Document doc = open_or_die(corpus(file));
    auto subs = subgraphs(doc, "VgfBackend");
    ASSERT_EQ(subs.size(), 1u) << file;
    const Graph& g = *subs[0];
    EXPECT_TRUE(doc.diagnostics.empty());
    EXPECT_EQ(op_histogram(g), expected) << file;
    EXPECT_EQ(attribute(g.attributes, "vgf_version"), "0.4.0");
    EXPECT_EQ(attribute(g.attributes, "constant_records"), "105");
    EXPECT_EQ(attribute(g.attributes, "resources"), "107, 105 constant, 1 input, 1 output");
    EXPECT_EQ(attribute(g.attributes, "module.graph_partition_0.spirv_words"),
              segment ? "112909" : "112886");
    EXPECT_EQ(attribute(g.attributes, "segment.graph_segment_0"),
              "GRAPH module 'graph_partition_0'");
    ASSERT_EQ(g.inputs.size(), 1u);
    ASSERT_EQ(g.outputs.size(), 1u);
    EXPECT_EQ(g.values[g.inputs[0]].tensor.shape_string(), "[1, 3, 224, 224]");
    EXPECT_EQ(g.values[g.inputs[0]].tensor.dtype, "int8");
    EXPECT_EQ(g.values[g.outputs[0]].tensor.shape_string(), "[1, 1000]");
    // 105 graph constants (the VGF constant records: weights, biases, multipliers) and the
    // tensor literals the instruction set requires as inputs (zero points, shifts, shapes),
    // one per SPIR-V id, as the TOSA flatbuffer's CONST operators are constant inputs.
    int records = 0, literals = 0;
    for (const Node& n : g.nodes)
      if (n.kind == NodeKind::kConstant) ++(n.name.rfind("constant_", 0) == 0 ? records : literals);
    EXPECT_EQ(records, 105);
    EXPECT_EQ(literals, segment ? 183 : 182);
    EXPECT_EQ(g.nodes.front().kind, NodeKind::kInput);
  }
  Document seg = open_or_die(corpus(kSegment));
  EXPECT_EQ(seg.delegates[0].payload_location, "segment");
  Document inl = open_or_die(corpus(kInline));
  EXPECT_EQ(inl.delegates[0].payload_location, "inline");
}

TEST(Vgf, MatchesArmModelExplorerAdapter) {
  Document doc = open_or_die(corpus(kInline));
  const Graph& g = *subgraphs(doc, "VgfBackend").at(0);
  const Hist ours = op_histogram(g);
  for (const char* json :
       {"json/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
        "mobilenet_v2_vgf__expected.json",
        "json/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
        "mobilenet_v2_vgf__expected_delegates.json"}) {
    size_t total = 0;
    Hist theirs = explorer_labels(corpus(json), total);
    // Their extra nodes: graph input/output markers and the two I/O resources.
    size_t extra = 0;
    for (const char* label :
         {"Graph Inputs", "Graph Outputs", "GraphOutputs", "VK_DESCRIPTOR_TYPE_TENSOR_ARM"}) {
      extra += theirs[label];
      theirs.erase(label);
    }
    EXPECT_EQ(ours, theirs) << json;
    EXPECT_EQ(static_cast<size_t>(op_count(g)) + extra, total) << json;
    EXPECT_TRUE(total == 188 || total == 189) << total;
  }
}

TEST(Vgf, DelegationReportCountsTosaOps) {
  Document doc = open_or_die(corpus(kSegment));
  auto info = analysis::delegation_info(doc);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->num_delegated_subgraphs, 1);
  EXPECT_EQ(info->num_delegated_nodes, 185);
  EXPECT_EQ(info->num_opaque_subgraphs, 0);
  EXPECT_GT(info->num_non_delegated_nodes, 0);  // quantize/dequantize stay on the CPU
}

TEST(Vgf, BadHeaderOffsetsAreErrors) {
  Document doc;
  Delegate del;
  del.backend_id = "VgfBackend";
  std::vector<uint8_t> p(256, 0);
  std::memcpy(p.data(), "VGF1", 4);
  p[16] = 0x80;  // module table at 128
  p[24] = 0xFF;  // ... of 255 bytes: past the end
  auto g = delegates::find_decoder("VgfBackend").decode({doc, del, p, "m/VgfBackend#0"});
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().message().find("module section"), std::string::npos) << g.error().message();
}

}  // namespace
}  // namespace etviz::test
