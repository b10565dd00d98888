// Bundled programs (.bpte) and FlatTensor data (.ptd) from the corpus.
#include <gtest/gtest.h>

#include "corpus.h"

namespace etviz::test {
namespace {

TEST(BundledProgram, TutorialCnnTestSuite) {
  Document doc = load(corpus(
      "bpte/pytorch__executorch__docs__source__tutorials_source__bundled_program.a59a06e0.bp"));
  EXPECT_EQ(doc.format, DocumentFormat::kBundledProgram);
  ASSERT_EQ(doc.test_suites.size(), 1u);
  const TestSuite& suite = doc.test_suites[0];
  EXPECT_EQ(suite.method, "forward");
  ASSERT_EQ(suite.cases.size(), 2u);
  ASSERT_EQ(suite.cases[0].inputs.size(), 1u);
  EXPECT_EQ(suite.cases[0].inputs[0].tensor.dtype, "float32");
  EXPECT_EQ(suite.cases[0].inputs[0].tensor.shape_string(), "[1, 1, 32, 32]");
  EXPECT_EQ(suite.cases[0].inputs[0].tensor.nbytes, 4096);
  EXPECT_EQ(suite.cases[0].expected_outputs[0].tensor.shape_string(), "[1, 10]");
  // The embedded program is the small CNN the tutorial ETDump was recorded from.
  const Graph* forward = doc.find_graph("forward");
  ASSERT_TRUE(forward);
  EXPECT_EQ(instruction_kinds(*forward), (std::map<std::string, int>{{"kernel", 14}}));
  EXPECT_EQ(kernel_ops(*forward).count("aten::convolution.out"), 1u);
}

TEST(BundledProgram, TenInt32Cases) {
  Document doc = load(
      corpus("bpte/pytorch__executorch__extension__module__test__resources__bundled_program.bpte"));
  ASSERT_EQ(doc.test_suites.size(), 1u);
  EXPECT_EQ(doc.test_suites[0].cases.size(), 10u);
  const TestCase& first = doc.test_suites[0].cases[0];
  ASSERT_EQ(first.inputs.size(), 2u);
  EXPECT_EQ(first.inputs[1].tensor.dtype, "int32");
  EXPECT_EQ(first.inputs[1].tensor.shape_string(), "[2, 2]");
  ASSERT_EQ(first.expected_outputs.size(), 1u);
  ASSERT_EQ(doc.graphs.size(), 1u);
  EXPECT_EQ(doc.graphs[0].name, "forward");
}

TEST(FlatTensor, CurrentLayout) {
  Document doc =
      load(corpus("ptd/"
                  "pytorch__executorch__extension__android__executorch_android__src__androidTest__"
                  "resources__xor.9c80c531.ptd"));
  EXPECT_EQ(doc.format, DocumentFormat::kFlatTensor);
  ASSERT_EQ(doc.named_data.size(), 4u);
  EXPECT_EQ(doc.named_data[0].key, "net.linear.weight");
  ASSERT_TRUE(doc.named_data[0].tensor);
  EXPECT_EQ(doc.named_data[0].tensor->shape_string(), "[10, 2]");
  EXPECT_EQ(doc.named_data[0].blob.size, 80u);
  EXPECT_EQ(doc.named_data[3].key, "net.linear2.bias");
  EXPECT_EQ(doc.named_data[3].tensor->shape_string(), "[2]");
}

TEST(FlatTensor, Early2025Layout) {
  Document doc = load(
      corpus("ptd/pytorch__executorch__extension__module__test__resources__linear.29d0a214.ptd"));
  ASSERT_EQ(doc.named_data.size(), 2u);
  EXPECT_EQ(doc.named_data[0].key, "linear.weight");
  EXPECT_EQ(doc.named_data[0].tensor->shape_string(), "[3, 3]");
  EXPECT_EQ(doc.named_data[0].blob.size, 36u);
  EXPECT_EQ(doc.named_data[1].key, "linear.bias");
  EXPECT_EQ(doc.named_data[1].blob.offset - doc.named_data[0].blob.offset, 48u);
}

TEST(FlatTensor, ResolvesTheLinearProgram) {
  OpenOptions options;
  options.data_files = {
      corpus("ptd/pytorch__executorch__extension__module__test__resources__linear.29d0a214.ptd")};
  Document doc = load(
      corpus("pte/pytorch__executorch__extension__module__test__resources__linear.29d0a214.pte"),
      options);
  for (const Diagnostic& d : doc.diagnostics)
    EXPECT_NE(d.severity, Severity::kWarning) << d.message;
  EXPECT_EQ(doc.sources.size(), 2u);
}

}  // namespace
}  // namespace etviz::test
