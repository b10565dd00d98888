// Programs written by the generator (tools/gen) read back with the facts they were built with.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "corpus.h"
#include "transformer_model.h"

namespace etviz::test {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("etviz_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

Document generate(const gen::TransformerSpec& spec, const std::string& name, uint64_t pad = 0) {
  gen::ProgramBuilder builder;
  gen::build_transformer(builder, spec);
  gen::WriteOptions options;
  options.min_constant_segment_bytes = pad;
  std::string error;
  const std::string path = temp_path(name);
  EXPECT_TRUE(builder.write(path, options, error)) << error;
  Document doc = load(path);
  std::filesystem::remove(path);
  return doc;
}

TEST(GeneratedProgram, TransformerBlocksHaveTheExpectedOps) {
  gen::TransformerSpec spec;
  spec.blocks = 3;
  Document doc = generate(spec, "blocks.pte");
  ASSERT_EQ(doc.graphs.size(), 1u);
  const auto ops = kernel_ops(doc.graphs[0]);
  EXPECT_EQ(ops.at("aten::linear.out"), 3 * 7 + 1);
  EXPECT_EQ(ops.at("aten::rms_norm.out"), 3 * 2 + 1);
  EXPECT_EQ(ops.at("aten::_softmax.out"), 3);
  EXPECT_EQ(ops.at("quantized_decomposed::quantize_per_tensor.out"), 3 * 2);
  EXPECT_EQ(instruction_kinds(doc.graphs[0]).at("kernel"), 3 * 41 + 3);
}

TEST(GeneratedProgram, DelegatesAndMethods) {
  gen::TransformerSpec spec;
  spec.blocks = 2;
  spec.delegates = true;
  spec.methods = 3;
  Document doc = generate(spec, "delegates.pte");
  std::vector<std::string> methods;
  for (const Graph& g : doc.graphs)
    if (g.kind == GraphKind::kMethod) methods.push_back(g.name);
  EXPECT_EQ(methods, (std::vector<std::string>{"forward", "prefill_1", "prefill_2"}));
  EXPECT_EQ(doc.delegates.size(), 6u);
  EXPECT_EQ(instruction_kinds(doc.graphs[1]).at("delegate"), 2);
  for (const Delegate& d : doc.delegates) {
    EXPECT_EQ(d.backend_id, "ExampleNpuBackend");
    EXPECT_EQ(d.payload_location, "segment");
    EXPECT_GE(d.payload.size, 4096u);
  }
  // Weights are shared across methods: stored once.
  size_t constants = 0;
  for (const Value& v : doc.graphs[0].values) constants += v.tensor.is_constant();
  EXPECT_EQ(constants,
            2u * 6 + 3);  // per block: q, k, v, o and two norms; MLP weights are in the payload
}

TEST(GeneratedProgram, XnnpackDelegatesDecodeIntoTheirMlp) {
  gen::TransformerSpec spec;
  spec.blocks = 2;
  spec.delegates = true;
  spec.delegate_backend = "xnnpack";
  Document doc = generate(spec, "xnnpack.pte");
  ASSERT_EQ(doc.delegates.size(), 2u);
  for (const Delegate& d : doc.delegates) {
    EXPECT_EQ(d.backend_id, "XnnpackBackend");
    ASSERT_GE(d.subgraph, 0) << d.decoder_note;
    const Graph& mlp = doc.graphs[static_cast<size_t>(d.subgraph)];
    std::map<std::string, int> ops;
    for (const Node& n : mlp.nodes)
      if (n.kind == NodeKind::kKernel) ++ops[n.op];
    EXPECT_EQ(ops, (std::map<std::string, int>{
                       {"XNNFullyConnected", 3}, {"XNNSigmoid", 1}, {"XNNMultiply", 2}}));
    ASSERT_EQ(mlp.inputs.size(), 1u);
    ASSERT_EQ(mlp.outputs.size(), 1u);
    EXPECT_EQ(mlp.values[static_cast<size_t>(mlp.outputs[0])].tensor.shape_string(), "[1, 1, 256]");
  }
  for (const Diagnostic& d : doc.diagnostics)
    EXPECT_NE(d.severity, Severity::kWarning) << d.message;
}

TEST(GeneratedProgram, HostileNamesSurviveVerbatim) {
  gen::TransformerSpec spec;
  spec.blocks = 1;
  spec.hostile_names = true;
  Document doc = generate(spec, "hostile.pte");
  bool op_found = false, tensor_found = false;
  for (const Node& n : doc.graphs[0].nodes) {
    if (n.op.find("</script><img src=x onerror=alert(1)>") != std::string::npos) op_found = true;
    if (n.kind == NodeKind::kConstant && n.name.find("</script>") != std::string::npos)
      tensor_found = true;
  }
  EXPECT_TRUE(op_found);
  EXPECT_TRUE(tensor_found);
}

TEST(GeneratedProgram, LargeConstantSegmentIsNotRead) {
  gen::TransformerSpec spec;
  spec.blocks = 1;
  Document doc = generate(spec, "padded.pte", 256ull << 20);
  ASSERT_FALSE(doc.graphs.empty());
  EXPECT_GE(doc.sources[0]->size(), 256ull << 20);
}

}  // namespace
}  // namespace etviz::test
