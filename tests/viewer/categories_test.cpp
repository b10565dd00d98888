#include "analysis/categories.h"

#include <gtest/gtest.h>

#include "analysis/qdq_clusters.h"
#include "formats/open_document.h"

namespace etviz::analysis {
namespace {

const CategoryConfig kDefaults = default_category_config();

TEST(Categories, BuiltInRules) {
  EXPECT_EQ(categorize_op("aten::convolution.out", kDefaults), Category::kCompute);
  EXPECT_EQ(categorize_op("aten::permute_copy.out", kDefaults), Category::kMemory);
  EXPECT_EQ(categorize_op("aten::view_copy.out", kDefaults), Category::kMemory);
  EXPECT_EQ(categorize_op("dim_order_ops::_to_dim_order_copy.out", kDefaults), Category::kMemory);
  EXPECT_EQ(categorize_op("quantized_decomposed::dequantize_per_tensor.out", kDefaults),
            Category::kQuantize);
  EXPECT_EQ(categorize_op("cortex_m::quantize_per_tensor.out", kDefaults), Category::kQuantize);
  EXPECT_EQ(categorize_op("cortex_m::quantized_conv2d.out", kDefaults), Category::kBackend);
  EXPECT_EQ(categorize_op("llama::sdpa_with_kv_cache.out", kDefaults), Category::kBackend);
  EXPECT_EQ(categorize_op("aten::addmm.out", kDefaults), Category::kCompute);
  EXPECT_EQ(op_base_name("aten::add.out"), "add");
  EXPECT_EQ(op_namespace("aten::add.out"), "aten");
}

TEST(Categories, NodeKindsComeFirst) {
  Node n;
  n.op = "aten::add.out";
  n.kind = NodeKind::kDelegate;
  EXPECT_EQ(categorize(n, kDefaults), Category::kDelegate);
  n.kind = NodeKind::kInput;
  EXPECT_EQ(categorize(n, kDefaults), Category::kIo);
  n.kind = NodeKind::kConstant;
  EXPECT_EQ(categorize(n, kDefaults), Category::kConstant);
  n.kind = NodeKind::kFree;
  EXPECT_EQ(categorize(n, kDefaults), Category::kControl);
}

TEST(Categories, DelegateCallsAndFailuresHaveTheirOwn) {
  // An exported program's call into a lowered module is a delegate call whatever its kind, as
  // the delegation report counts it (analysis::is_call_delegate).
  Node call;
  call.op = "torch.ops.higher_order.executorch_call_delegate";
  EXPECT_EQ(categorize(call, kDefaults), Category::kDelegate);
  // The op a live trace's forward pass raised in: error, before every other rule.
  Node failed;
  failed.op = "F.linear";
  failed.failure = Failure{"RuntimeError: mat1 and mat2 shapes cannot be multiplied", ""};
  EXPECT_EQ(categorize(failed, kDefaults), Category::kError);
  EXPECT_STREQ(to_string(Category::kError), "error");
  // One table: the error category has its entry (id, label, colour, rule), indexed by its value.
  ASSERT_EQ(kDefaults.categories.size(), static_cast<size_t>(kCategoryCount));
  for (int c = 0; c < kCategoryCount; ++c) {
    const CategoryInfo& info = kDefaults.categories[static_cast<size_t>(c)];
    EXPECT_EQ(static_cast<int>(info.category), c);
    EXPECT_EQ(info.id, to_string(info.category));
  }
  const std::string& colour = kDefaults.categories[static_cast<size_t>(Category::kError)].color;
  for (const CategoryInfo& other : kDefaults.categories) {
    if (other.category != Category::kError) {
      EXPECT_NE(other.color, colour) << other.id;
    }
  }
}

// A --categories file as the session reads it: parsed by its reader, its ids checked here.
Result<CategoryConfig> parse_category_config(const std::string& text) {
  auto file = side_files::parse_categories(text);
  if (!file) return file.error();
  return category_config(*file);
}

TEST(Categories, JsonOverridesRulesAndColours) {
  auto c = parse_category_config(
      R"({"rules": [{"match": "llama::*", "category": "compute"}, {"match": "*conv*", "category": "memory"}],
          "colors": {"backend": "#123456"}})");
  ASSERT_TRUE(c.ok()) << c.error().message();
  EXPECT_EQ(categorize_op("llama::sdpa_with_kv_cache.out", *c), Category::kCompute);
  EXPECT_EQ(categorize_op("aten::convolution.out", *c), Category::kMemory);
  EXPECT_EQ(c->categories[static_cast<int>(Category::kBackend)].color, "#123456");
}

TEST(Categories, BadJsonNamesTheProblem) {
  EXPECT_NE(parse_category_config("{").error().message().find("not valid JSON"), std::string::npos);
  EXPECT_NE(parse_category_config(R"({"rules": [{"match": "x", "category": "nope"}]})")
                .error()
                .message()
                .find("rules[0]"),
            std::string::npos);
  EXPECT_NE(parse_category_config(R"({"colors": {"compute": "blue"}})")
                .error()
                .message()
                .find("colors.compute"),
            std::string::npos);
  EXPECT_NE(parse_category_config(R"({"colour": {}})").error().message().find("unknown key"),
            std::string::npos);
  EXPECT_FALSE(side_files::read_categories("/nonexistent/categories.json").ok());
}

TEST(Categories, GlobMatch) {
  EXPECT_TRUE(glob_match("aten::*", "aten::add.out"));
  EXPECT_TRUE(glob_match("*quant*", "cortex_m::quantized_linear.out"));
  EXPECT_TRUE(glob_match("a*b*c", "aXbYbZc"));
  EXPECT_FALSE(glob_match("a*b", "ac"));
  EXPECT_TRUE(glob_match("*", ""));
}

// KeywordSpotting (corpus) runs int8 kernels end to end: one quantize at the start, one
// dequantize at the end, nothing in between to cluster.
TEST(QdqClusters, KeywordSpottingHasNone) {
  auto doc = open_document(
      std::string(ETVIZ_CORPUS_DIR) +
      "/pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte");
  ASSERT_TRUE(doc.ok()) << doc.error().message();
  const Graph& g = doc->graphs[0];
  std::vector<Category> cats;
  for (const Node& n : g.nodes) cats.push_back(categorize(n, kDefaults));
  EXPECT_TRUE(find_qdq_clusters(g, cats).empty());
}

// dq(x), dq(w) -> linear -> q, then a second linear reading that q through its own dq.
TEST(QdqClusters, DequantizeOpQuantizeChains) {
  Graph g;
  for (int i = 0; i < 8; ++i) g.add_value(Value{});
  auto node = [&](const char* op, std::vector<ValueId> in, std::vector<ValueId> out) {
    Node n;
    n.op = op;
    for (auto v : in) n.inputs.push_back({"", v});
    for (auto v : out) n.outputs.push_back({"", v});
    return g.add_node(n);
  };
  const NodeId dqx = node("quantized_decomposed::dequantize_per_tensor.out", {0}, {1});
  const NodeId dqw = node("quantized_decomposed::dequantize_per_channel.out", {2}, {3});
  const NodeId lin = node("aten::linear.out", {1, 3}, {4});
  const NodeId q = node("quantized_decomposed::quantize_per_tensor.out", {4}, {5});
  const NodeId dq2 = node("quantized_decomposed::dequantize_per_tensor.out", {5}, {6});
  const NodeId relu = node("aten::relu.out", {6}, {7});
  g.link_values();
  std::vector<Category> cats;
  for (const Node& n : g.nodes) cats.push_back(categorize(n, kDefaults));
  const auto clusters = find_qdq_clusters(g, cats);
  ASSERT_EQ(clusters.size(), 2u);
  EXPECT_EQ(clusters[0].anchor, lin);
  EXPECT_EQ(clusters[0].members, (std::vector<NodeId>{dqx, dqw, lin, q}));
  EXPECT_EQ(clusters[1].anchor, relu);
  EXPECT_EQ(clusters[1].members, (std::vector<NodeId>{dq2, relu}));
}

}  // namespace
}  // namespace etviz::analysis
