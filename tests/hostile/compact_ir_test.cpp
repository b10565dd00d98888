// The IR stays compact at scale (issue 14: a 1M-op program holds 2.2M values and 1.25M nodes):
// rare fields out of line with value semantics kept, node arrays reserved instead of doubled.
#include <gtest/gtest.h>

#include <string>
#include <unordered_map>
#include <vector>

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

TEST(CompactIr, SharedStringKeepsOneCopyOfATextAndReadsAsAString) {
  const std::string text = "aten::convolution.out";  // past std::string's inline 15 bytes
  SharedString a = text;
  SharedString b = std::string("aten::") + "convolution.out";
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.data(), b.data()) << "two holders of one text share its bytes";
  EXPECT_EQ(a, "aten::convolution.out");
  EXPECT_EQ("aten::convolution.out", b);
  EXPECT_TRUE(a.starts_with("aten::"));
  EXPECT_EQ(a.substr(6), "convolution.out");
  EXPECT_EQ(a + "!", "aten::convolution.out!");
  const std::string& read = a;
  EXPECT_EQ(read, text);
  SharedString c = a;
  c = "aten::add.out";
  EXPECT_EQ(a, text) << "reassigning a copy leaves the original";
  EXPECT_LT(c, a);
  SharedString empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.str(), "");
  empty = "";
  EXPECT_TRUE(empty.empty());
}

TEST(CompactIr, SharedStringTableIsBoundedAgainstDistinctNames) {
  // A hostile file naming every one of a million nodes differently must not grow the
  // process-wide table past its cap; texts past the cap still read back exactly.
  std::vector<SharedString> held;
  for (size_t i = 0; i < SharedString::kMaxInterned + 1000; ++i)
    held.emplace_back("distinct_name_" + std::to_string(i));
  EXPECT_LE(SharedString::interned_count(), SharedString::kMaxInterned);
  EXPECT_EQ(held.back(), "distinct_name_" + std::to_string(SharedString::kMaxInterned + 999));
  const std::string long_text(SharedString::kMaxInternedLength + 1, 'x');
  const size_t before = SharedString::interned_count();
  SharedString long_one = long_text;
  EXPECT_EQ(SharedString::interned_count(), before) << "long texts are never interned";
  EXPECT_EQ(long_one, long_text);
}

TEST(CompactIr, SmallVectorHoldsFewItemsInlineAndManyOnTheHeap) {
  SmallVector<int32_t> v;
  EXPECT_TRUE(v.empty());
  v.push_back(7);
  v.push_back(8);
  EXPECT_EQ(v.capacity(), 2u) << "two ids fit in the vector itself";
  v.push_back(v[0]);  // an item of the vector itself, while it moves to the heap
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[2], 7);
  SmallVector<int32_t> copy = v;
  copy[0] = 1;
  EXPECT_EQ(v[0], 7) << "copies are deep";
  v.erase(v.begin());
  EXPECT_EQ(std::vector<int32_t>(v.begin(), v.end()), (std::vector<int32_t>{8, 7}));
  const int32_t more[] = {1, 2, 3};
  v.insert(v.begin() + 1, std::begin(more), std::end(more));
  EXPECT_EQ(std::vector<int32_t>(v.begin(), v.end()), (std::vector<int32_t>{8, 1, 2, 3, 7}));
  SmallVector<int32_t> moved = std::move(v);
  EXPECT_EQ(moved.size(), 5u);
  SmallVector<uint8_t> order{0, 2, 3, 1};
  EXPECT_EQ(order.capacity(), 8u) << "a dim order of up to 8 dimensions is inline";
  order.assign(order.begin() + 1, order.end());
  EXPECT_EQ(std::vector<uint8_t>(order.begin(), order.end()), (std::vector<uint8_t>{2, 3, 1}));
}

TEST(CompactIr, RareVectorHoldsNothingWhenEmpty) {
  Node n;
  EXPECT_TRUE(n.attributes.empty());
  EXPECT_TRUE(n.provenance.stack.empty());
  n.attributes.push_back({"k", "v"});
  Node m = n;
  m.attributes[0].value = "w";
  EXPECT_EQ(n.attributes[0].value, "v") << "copies are deep";
  int seen = 0;
  for (const Attribute& a : m.attributes) seen += a.name == "k";
  EXPECT_EQ(seen, 1);
  m.attributes.clear();
  EXPECT_TRUE(m.attributes.empty());
}

// Sizes on LP64 (Debian amd64/arm64). Before issue 14's slimming a value was 416 bytes, a node
// 256, an argument 40 and a dimension 40; each 8 bytes back on a value costs ~17 MiB on a
// 1M-op program (2.2M values, 1.25M nodes, ~4M arguments).
TEST(CompactIr, RecordsStayWithinTheirBudget) {
  static_assert(sizeof(void*) == 8, "budgets are for 64-bit targets");
  EXPECT_EQ(sizeof(Dim), 16u);
  EXPECT_EQ(sizeof(Argument), 16u);
  EXPECT_LE(sizeof(TensorInfo), 120u);
  EXPECT_LE(sizeof(Value), 200u);
  EXPECT_LE(sizeof(Node), 168u);
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
  // Every call of one operator shares its name's bytes (interned), and a value's consumers and
  // a tensor's dim order sit inside the value when few.
  std::unordered_map<std::string, const char*> first;
  size_t calls = 0;
  for (const Node& n : g.nodes) {
    if (n.kind != NodeKind::kKernel) continue;
    ++calls;
    const auto [it, fresh] = first.try_emplace(n.op.str(), n.op.data());
    EXPECT_EQ(it->second, n.op.data()) << n.op << " is held twice";
  }
  EXPECT_GT(calls, 8000u);
  EXPECT_LT(first.size(), 40u);
  size_t inline_consumers = 0, inline_orders = 0, tensors = 0;
  for (const Value& v : g.values) {
    inline_consumers += v.consumers.size() <= 2 && v.consumers.capacity() == 2;
    if (v.kind != ValueKind::kTensor) continue;
    ++tensors;
    inline_orders += !v.tensor.dim_order.empty() && v.tensor.dim_order.capacity() == 8;
  }
  EXPECT_GT(inline_consumers, g.values.size() * 9 / 10);
  EXPECT_GT(inline_orders, tensors * 9 / 10);
}

}  // namespace
}  // namespace etviz
