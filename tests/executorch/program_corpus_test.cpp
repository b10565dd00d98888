// Facts about real programs, learned independently with `flatc --json` (see docs/testing.md).
#include <gtest/gtest.h>

#include "corpus.h"

namespace etviz::test {
namespace {

using Kinds = std::map<std::string, int>;
using Ops = std::map<std::string, int>;
using Sigs = std::vector<std::string>;

TEST(ProgramCorpus, EveryProgramLoadsExceptThePreReleaseOne) {
  int loaded = 0;
  for (const std::string& path : corpus_files("pte")) {
    auto doc = open_document(path);
    if (path.find("add_mul.be659019.ff") != std::string::npos) {
      ASSERT_FALSE(doc.ok());
      EXPECT_NE(doc.error().message().find("ET02"), std::string::npos);
      EXPECT_NE(doc.error().message().find(path), std::string::npos);
      continue;
    }
    ASSERT_TRUE(doc.ok()) << doc.error().message();
    EXPECT_FALSE(doc->graphs.empty()) << path;
    ++loaded;
  }
  EXPECT_EQ(loaded, 59);
}

TEST(ProgramCorpus, AddModelPortable) {
  Document doc =
      load(corpus("pte/pytorch__executorch__examples__arduino__examples__AddModel__model.pte"));
  ASSERT_EQ(doc.graphs.size(), 1u);
  const Graph& g = doc.graphs[0];
  EXPECT_EQ(g.name, "forward");
  EXPECT_EQ(instruction_kinds(g), (Kinds{{"kernel", 1}}));
  EXPECT_EQ(kernel_ops(g), (Ops{{"aten::add.out", 1}}));
  EXPECT_EQ(g.values.size(), 4u);
  EXPECT_EQ(input_sigs(g), (Sigs{"float32[3]"}));
  EXPECT_EQ(output_sigs(g), (Sigs{"float32[3]"}));
  EXPECT_TRUE(doc.delegates.empty());
}

TEST(ProgramCorpus, KeywordSpottingCortexM) {
  Document doc = load(
      corpus("pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte"));
  const Graph& g = doc.graphs.at(0);
  EXPECT_EQ(instruction_kinds(g), (Kinds{{"kernel", 16}}));
  EXPECT_EQ(g.values.size(), 289u);
  EXPECT_EQ(kernel_ops(g), (Ops{{"cortex_m::quantize_per_tensor.out", 1},
                                {"cortex_m::quantized_depthwise_conv2d.out", 5},
                                {"dim_order_ops::_clone_dim_order.out", 2},
                                {"cortex_m::quantized_conv2d.out", 4},
                                {"cortex_m::pad.out", 1},
                                {"cortex_m::quantized_avg_pool2d.out", 1},
                                {"cortex_m::quantized_linear.out", 1},
                                {"cortex_m::dequantize_per_tensor.out", 1}}));
  EXPECT_EQ(input_sigs(g), (Sigs{"float32[1, 1, 49, 10]"}));
  EXPECT_EQ(output_sigs(g), (Sigs{"float32[1, 12]"}));
}

TEST(ProgramCorpus, QnnLlamaHas29MethodsSharingOnePayload) {
  Document doc =
      load(corpus("pte/"
                  "pytorch__executorch__examples__qualcomm__oss_scripts__llama__artifacts__"
                  "stories260k_hybrid_llama_qnn.pte"));
  std::vector<const Graph*> methods;
  for (const Graph& g : doc.graphs)
    if (g.kind == GraphKind::kMethod) methods.push_back(&g);
  ASSERT_EQ(methods.size(), 29u);
  const Graph* kv = doc.find_graph("kv_forward");
  const Graph* prefill = doc.find_graph("prefill_forward");
  ASSERT_TRUE(kv && prefill);
  EXPECT_EQ(instruction_kinds(*kv), (Kinds{{"delegate", 1}}));
  EXPECT_EQ(kv->values.size(), 24u);
  EXPECT_EQ(kv->inputs.size(), 13u);
  EXPECT_EQ(kv->outputs.size(), 11u);
  EXPECT_EQ(tensor_sig(*kv, kv->inputs[0]), "int32[1, 1]");
  EXPECT_EQ(tensor_sig(*kv, kv->inputs[1]), "uint16[1, 1, 1, 128]");
  EXPECT_EQ(tensor_sig(*kv, kv->inputs[3]), "uint8[1, 4, 8, 127]");
  EXPECT_EQ(tensor_sig(*prefill, prefill->outputs[0]), "uint16[1, 32, 512]");
  // Both delegates reference the same segment.
  std::vector<const Delegate*> qnn;
  for (const Delegate& d : doc.delegates)
    if (d.backend_id == "QnnBackend") qnn.push_back(&d);
  ASSERT_EQ(qnn.size(), 2u);
  EXPECT_EQ(qnn[0]->payload_location, "segment");
  EXPECT_EQ(qnn[0]->payload.offset, qnn[1]->payload.offset);
  EXPECT_EQ(qnn[0]->payload.size, 1331456u);  // 256-byte wrapper + 1,331,200-byte context binary
  // The delegate node consumes all 13 inputs and produces all 11 outputs.
  for (const Node& n : kv->nodes)
    if (n.kind == NodeKind::kDelegate) {
      EXPECT_EQ(n.op, "QnnBackend");
      EXPECT_EQ(n.inputs.size(), 13u);
      EXPECT_EQ(n.outputs.size(), 11u);
    }
}

TEST(ProgramCorpus, XnnpackStressMlpMixesKernelsAndDelegates) {
  Document doc =
      load(corpus("pte/"
                  "corey-cole__djl-executorch-engine__src__test__resources__models__stress__stress_"
                  "mlp.6d3450d6.pte"));
  const Graph& g = doc.graphs.at(0);
  EXPECT_EQ(instruction_kinds(g), (Kinds{{"kernel", 12}, {"delegate", 2}}));
  EXPECT_EQ(g.values.size(), 44u);
  EXPECT_EQ(kernel_ops(g), (Ops{{"dim_order_ops::_to_dim_order_copy.out", 4},
                                {"aten::select_copy.int_out", 4},
                                {"aten::clamp.out", 2},
                                {"aten::index_select.out", 2}}));
  ASSERT_EQ(doc.delegates.size(), 2u);
  EXPECT_EQ(doc.delegates[0].backend_id, "XnnpackBackend");
  EXPECT_EQ(doc.delegates[0].payload_location, "segment");
  EXPECT_EQ(doc.named_data.size(), 20u);
  EXPECT_EQ(input_sigs(g), (Sigs{"float32[32, 256]", "float32[32, 256]"}));
}

TEST(ProgramCorpus, EthosUMinimalExampleCompileSpecs) {
  Document doc = load(corpus(
      "pte/Arm-Examples__CMSIS-Executorch__ai_layer__engine__model__ethos_u_minimal_example.pte"));
  const Graph& g = doc.graphs.at(0);
  EXPECT_EQ(instruction_kinds(g), (Kinds{{"kernel", 3}, {"delegate", 1}}));
  EXPECT_EQ(g.values.size(), 22u);
  EXPECT_EQ(kernel_ops(g), (Ops{{"quantized_decomposed::quantize_per_tensor.out", 2},
                                {"quantized_decomposed::dequantize_per_tensor.out", 1}}));
  ASSERT_EQ(doc.delegates.size(), 1u);
  EXPECT_EQ(doc.delegates[0].backend_id, "EthosUBackend");
  EXPECT_EQ(doc.delegates[0].payload_location, "inline");
  bool has_target = false;
  for (const CompileSpec& cs : doc.delegates[0].compile_specs)
    if (cs.key == "target") has_target = cs.display().find("ethos-u85") != std::string::npos;
  EXPECT_TRUE(has_target);
}

TEST(ProgramCorpus, LegacyArmBackendId) {
  Document doc = load(corpus("pte/dinusha94__executorch__model-u55-128.b97f2ffe.pte"));
  EXPECT_EQ(instruction_kinds(doc.graphs.at(0)), (Kinds{{"kernel", 2}, {"delegate", 1}}));
  EXPECT_EQ(doc.graphs.at(0).values.size(), 15u);
  ASSERT_EQ(doc.delegates.size(), 1u);
  EXPECT_EQ(doc.delegates[0].backend_id, "ArmBackend");
  EXPECT_EQ(output_sigs(doc.graphs[0]), (Sigs{"float32[1, 512]"}));
}

TEST(ProgramCorpus, VgfPayloadInlineAndInSegment) {
  Document inline_doc =
      load(corpus("pte/"
                  "arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__"
                  "fixtures__mobilenet_v2_vgf__input.pte"));
  Document segment_doc =
      load(corpus("pte/"
                  "arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__"
                  "fixtures__mobilenet_v2_vgf_segments__input.pte"));
  ASSERT_EQ(inline_doc.delegates.size(), 1u);
  ASSERT_EQ(segment_doc.delegates.size(), 1u);
  EXPECT_EQ(inline_doc.delegates[0].backend_id, "VgfBackend");
  EXPECT_EQ(inline_doc.delegates[0].payload_location, "inline");
  EXPECT_EQ(segment_doc.delegates[0].payload_location, "segment");
  EXPECT_EQ(inline_doc.delegates[0].payload.size, 4003940u);
  // Both payloads are VGF containers: magic "VGF1" at byte 0.
  for (const Document* d : {&inline_doc, &segment_doc}) {
    auto payload = d->bytes(d->delegates[0].payload);
    ASSERT_GE(payload.size(), 4u);
    EXPECT_EQ(std::string(payload.begin(), payload.begin() + 4), "VGF1");
  }
  EXPECT_EQ(input_sigs(inline_doc.graphs[0]), (Sigs{"float32[1, 3, 224, 224]"}));
}

TEST(ProgramCorpus, CoreMlAndOpenVinoDelegates) {
  Document coreml =
      load(corpus("pte/kadu-v__yolox-executorch-ios__engine__models__yolox_nano_coreml.pte"));
  ASSERT_EQ(coreml.delegates.size(), 1u);
  EXPECT_EQ(coreml.delegates[0].backend_id, "CoreMLBackend");
  EXPECT_EQ(coreml.delegates[0].payload.size, 2571360u);
  EXPECT_EQ(output_sigs(coreml.graphs.at(0)), (Sigs{"float32[1, 3549, 85]"}));
  Document ov =
      load(corpus("pte/"
                  "corey-cole__djl-executorch-engine__src__test__resources__models__openvino__"
                  "openvino_tiny.pte"));
  ASSERT_EQ(ov.delegates.size(), 1u);
  EXPECT_EQ(ov.delegates[0].backend_id, "OpenvinoBackend");
  EXPECT_EQ(ov.delegates[0].payload.size, 3769u);
  ASSERT_EQ(ov.delegates[0].compile_specs.size(), 1u);
  EXPECT_EQ(ov.delegates[0].compile_specs[0].key, "device");
  EXPECT_EQ(ov.delegates[0].compile_specs[0].display(), "CPU");
}

TEST(ProgramCorpus, TrainingProgramWithExternalWeights) {
  Document doc =
      load(corpus("pte/"
                  "pytorch__executorch__extension__android__executorch_android__src__androidTest__"
                  "resources__xor.9c80c531.pte"));
  ASSERT_EQ(doc.graphs.size(), 4u);
  const Graph* forward = doc.find_graph("forward");
  ASSERT_TRUE(forward);
  EXPECT_EQ(instruction_kinds(*forward), (Kinds{{"kernel", 66}}));
  EXPECT_EQ(forward->values.size(), 155u);
  EXPECT_EQ(kernel_ops(*forward).at("aten::alias_copy.out"), 11);
  EXPECT_EQ(kernel_ops(*forward).at("aten::permute_copy.out"), 9);
  int external = 0;
  for (const Value& v : forward->values)
    if (v.tensor.data_location == DataLocation::kExternal) {
      ++external;
      EXPECT_TRUE(v.tensor.data_key.rfind("net.linear", 0) == 0) << v.tensor.data_key;
    }
  EXPECT_EQ(external, 4);
  const Graph* gradients = doc.find_graph("__et_training_gradients_index_forward");
  ASSERT_TRUE(gradients);
  EXPECT_EQ(instruction_kinds(*gradients), Kinds{});
  EXPECT_EQ(output_sigs(*gradients), (Sigs{"int"}));
}

TEST(ProgramCorpus, ExternalWeightsResolveAgainstPtd) {
  OpenOptions options;
  options.data_files = {
      corpus("ptd/"
             "pytorch__executorch__extension__android__executorch_android__src__androidTest__"
             "resources__xor.9c80c531.ptd")};
  Document doc = load(corpus("pte/"
                             "pytorch__executorch__extension__android__executorch_android__src__"
                             "androidTest__resources__xor.9c80c531.pte"),
                      options);
  for (const Diagnostic& d : doc.diagnostics)
    EXPECT_NE(d.severity, Severity::kWarning) << d.message;
  // A .ptd for another program leaves the weights unresolved, and says which.
  options.data_files = {corpus(
      "ptd/barakugav__executorch-rs__examples__data_map__model___default_external_constant.ptd")};
  Document wrong = load(corpus("pte/"
                               "pytorch__executorch__extension__android__executorch_android__src__"
                               "androidTest__resources__xor.9c80c531.pte"),
                        options);
  int warnings = 0;
  for (const Diagnostic& d : wrong.diagnostics)
    if (d.severity == Severity::kWarning) {
      ++warnings;
      EXPECT_NE(d.message.find("net.linear"), std::string::npos);
    }
  EXPECT_EQ(warnings, 4);
}

TEST(ProgramCorpus, LegacyConstantBuffer) {
  Document doc = load(corpus(
      "pte/pytorch__executorch__test__models__deprecated__ModuleLinear-no-constant-segment.pte"));
  const Graph& g = doc.graphs.at(0);
  EXPECT_EQ(kernel_ops(g), (Ops{{"aten::mul.out", 1}, {"aten::add.out", 1}}));
  int inline_constants = 0;
  for (const Value& v : g.values)
    if (v.tensor.data_location == DataLocation::kInline) ++inline_constants;
  EXPECT_GT(inline_constants, 0);
}

TEST(ProgramCorpus, MultiOutputKernelsSplitByOutVariantRule) {
  // max_pool2d_with_indices.out writes `out` and `indices`.
  Document pool = load(corpus(
      "pte/"
      "pytorch__executorch__operator_and_model_testing__maxpool2d__pte__maxpool2d.5bc4c1db.pte"));
  for (const Node& n : pool.graphs.at(0).nodes) {
    if (n.kind != NodeKind::kKernel) continue;
    EXPECT_EQ(n.op, "aten::max_pool2d_with_indices.out");
    EXPECT_EQ(n.outputs.size(), 2u);
  }
  // etnp::lstm.out produces output, h and c.
  Document lstm =
      load(corpus("pte/corey-cole__djl-executorch-engine__src__test__resources__lstm__lstm.pte"));
  for (const Node& n : lstm.graphs.at(0).nodes) {
    if (n.kind == NodeKind::kKernel) {
      EXPECT_EQ(n.outputs.size(), 3u);
    }
  }
}

TEST(ProgramCorpus, IdentityMethodWiresInputToOutput) {
  Document doc = load(corpus("pte/kadu-v__berry-executorch__resource__model__simple__id.pte"));
  const Graph& g = doc.graphs.at(0);
  EXPECT_EQ(instruction_kinds(g), Kinds{});
  ASSERT_EQ(g.values.size(), 1u);
  EXPECT_EQ(g.inputs, g.outputs);
  const Value& v = g.values[0];
  ASSERT_NE(v.producer, kNoId);
  EXPECT_EQ(g.nodes[v.producer].kind, NodeKind::kInput);
  ASSERT_EQ(v.consumers.size(), 1u);
  EXPECT_EQ(g.nodes[v.consumers[0]].kind, NodeKind::kOutput);
}

TEST(ProgramCorpus, EveryTensorEdgeHasAProducer) {
  // Inputs, constants and instruction outputs all become nodes, so every consumed tensor that
  // holds bytes has a producer: the viewer never draws a dangling edge. (A zero-byte tensor, a
  // kernel's empty scratch area, holds nothing to come from anywhere.)
  for (const std::string& path : corpus_files("pte")) {
    if (path.find("add_mul.be659019") != std::string::npos) continue;
    Document doc = load(path);
    for (const Graph& g : doc.graphs)
      for (const Value& v : g.values)
        if (v.kind == ValueKind::kTensor && !v.consumers.empty() && v.tensor.nbytes != 0) {
          EXPECT_NE(v.producer, kNoId) << path << " " << g.name << " " << v.name;
        }
  }
}

TEST(ProgramCorpus, SizeSectionsCoverTheWholeFile) {
  for (const std::string& path : corpus_files("pte")) {
    if (path.find("add_mul.be659019") != std::string::npos) continue;
    Document doc = load(path);
    uint64_t total = 0, cursor = 0;
    for (const Section& s : doc.sections) {
      EXPECT_EQ(s.offset, cursor) << path << " " << s.name;
      cursor = s.offset + s.size;
      total += s.size;
    }
    EXPECT_EQ(total, doc.sources[0]->size()) << path;
  }
}

}  // namespace
}  // namespace etviz::test
