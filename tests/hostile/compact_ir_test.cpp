// The IR stays compact at scale (issue 14: a 1M-op program holds 2.2M values and 1.25M nodes):
// rare fields out of line with value semantics kept, node arrays reserved instead of doubled.
#include <gtest/gtest.h>

#include <string>

#include "core/boxed.h"
#include "core/graph.h"
#include "generated_program.h"

namespace etviz {
namespace {

TEST(CompactIr, BoxedCopiesAreDeepAndIndependent) {
  TensorInfo a;
  EXPECT_FALSE(a.quantization);
  a.quantization = Quantization{"per_channel", {0.5, 0.25}, {0, 1}, 0, 0, 2};
  TensorInfo b = a;
  ASSERT_TRUE(b.quantization);
  EXPECT_NE(a.quantization.get(), b.quantization.get()) << "a copy must own its own parameters";
  b.quantization->scales[0] = 9.0;
  EXPECT_EQ(a.quantization->scales[0], 0.5);
  b.quantization.reset();
  EXPECT_TRUE(a.quantization);
  TensorInfo c = std::move(a);
  ASSERT_TRUE(c.quantization);
  EXPECT_EQ(c.quantization->scheme, "per_channel");
}

TEST(CompactIr, RareStringReadsAsAStringAndHoldsNothingWhenEmpty) {
  Dim d;
  EXPECT_TRUE(d.symbol.empty());
  EXPECT_FALSE(d.is_symbolic());
  d.symbol = std::string();
  EXPECT_TRUE(d.symbol.empty()) << "assigning empty text keeps the dimension concrete";
  d.symbol = "s0";
  EXPECT_TRUE(d.is_symbolic());
  EXPECT_EQ(d.symbol.str(), "s0");
  Dim e = d;
  e.symbol = "s1";
  EXPECT_EQ(d.symbol, std::string_view("s0"));
  const std::string& text = e.symbol;
  EXPECT_EQ(text, "s1");
  TensorInfo t;
  t.shape = {Dim{1, {}}, e, Dim{32, {}}};
  EXPECT_EQ(t.shape_string(), "[1, s1, 32]");
}

// Sizes on LP64 (Debian amd64/arm64): a value was 416 bytes and a dimension 40 before the rare
// fields moved out of line; growing them again costs ~0.25 GiB on a 1M-op program.
TEST(CompactIr, ValuesAndDimensionsStayWithinTheirBudget) {
  static_assert(sizeof(void*) == 8, "budgets are for 64-bit targets");
  EXPECT_EQ(sizeof(Dim), 16u);
  EXPECT_LE(sizeof(TensorInfo), 176u);
  EXPECT_LE(sizeof(Value), 296u);
}

TEST(CompactIr, ProgramReaderReservesNodesInsteadOfDoubling) {
  gen::TransformerSpec spec;
  spec.blocks = 200;
  spec.dim = 32;
  spec.hidden = 64;
  spec.vocab = 64;
  const Document doc =
      test::load(test::write_transformer_program(spec, "compact_ir", "blocks_200.pte"));
  ASSERT_FALSE(doc.graphs.empty());
  const Graph& g = doc.graphs[0];
  ASSERT_GT(g.nodes.size(), 8000u);
  // Reserved from the plan's counts: at most the unused constants' slots spare, never the up
  // to 2x of a doubling array.
  EXPECT_LT(static_cast<double>(g.nodes.capacity()), 1.25 * static_cast<double>(g.nodes.size()))
      << g.nodes.size() << " nodes in an array of " << g.nodes.capacity();
}

}  // namespace
}  // namespace etviz
