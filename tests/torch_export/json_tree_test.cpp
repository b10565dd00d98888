#include "formats/json/json_tree.h"

#include <gtest/gtest.h>

#include <cmath>

namespace etviz::torch_export {
namespace {

TEST(JsonTree, ParsesScalarsContainersAndEscapes) {
  const std::string text =
      R"({"a": [1, -2.5e3, true, false, null], "s": "x\"y\u00e9\ud83d\ude00", "o": {}})";
  auto t = JsonTree::parse(text);
  ASSERT_TRUE(t.ok()) << t.error().message();
  JsonRef r = t->root();
  ASSERT_TRUE(r.is_object());
  EXPECT_EQ(r.size(), 3u);
  JsonRef a = r["a"];
  ASSERT_EQ(a.size(), 5u);
  auto it = a.begin();
  EXPECT_EQ((*it).as_int(), 1);
  ++it;
  EXPECT_EQ((*it).as_double(), -2500.0);
  EXPECT_EQ((*it).as_int(), -2500);
  ++it;
  EXPECT_EQ((*it).as_bool(), true);
  ++it;
  EXPECT_EQ((*it).as_bool(), false);
  ++it;
  EXPECT_TRUE((*it).is_null());
  EXPECT_EQ(r["s"].as_string(), "x\"y\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_TRUE(r["o"].is_object());
  EXPECT_EQ(r["o"].size(), 0u);
  EXPECT_FALSE(r["missing"].valid());
  EXPECT_EQ(r["a"].raw(), "[1, -2.5e3, true, false, null]");
}

// The node store grows as a vector up to its first 64K-node chunk, then by chunks: values on
// both sides of each boundary (nodes 65,535 / 65,536 and 131,071 / 131,072) read back whole.
TEST(JsonTree, ValuesAcrossNodeChunksReadBack) {
  constexpr int kValues = 200'000;
  std::string text = "[";
  for (int i = 0; i < kValues; ++i) text += (i ? "," : "") + std::to_string(i);
  text += "]";
  auto t = JsonTree::parse(text);
  ASSERT_TRUE(t.ok()) << t.error().message();
  EXPECT_EQ(t->node_count(), size_t{kValues} + 1);
  int expected = 0;
  for (const JsonRef v : t->root()) {
    ASSERT_EQ(v.as_int(), expected) << "value " << expected;
    ++expected;
  }
  EXPECT_EQ(expected, kValues);
}

TEST(JsonTree, AcceptsPythonNonFiniteFloats) {
  auto t = JsonTree::parse("[NaN, Infinity, -Infinity]");
  ASSERT_TRUE(t.ok()) << t.error().message();
  auto it = t->root().begin();
  EXPECT_TRUE(std::isnan(*(*it).as_double()));
  ++it;
  EXPECT_EQ(*(*it).as_double(), INFINITY);
  ++it;
  EXPECT_EQ(*(*it).as_double(), -INFINITY);
}

TEST(JsonTree, ErrorsNameTheByteOffset) {
  auto t = JsonTree::parse(R"({"a": [1, 2,, 3]})");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message().find("byte 12"), std::string::npos) << t.error().message();
  auto u = JsonTree::parse(R"({"a": "unterminated)");
  ASSERT_FALSE(u.ok());
  EXPECT_NE(u.error().message().find("ends early"), std::string::npos) << u.error().message();
  EXPECT_FALSE(JsonTree::parse("").ok());
  EXPECT_FALSE(JsonTree::parse("{} trailing").ok());
  EXPECT_FALSE(JsonTree::parse("{\"a\" 1}").ok());
  EXPECT_FALSE(JsonTree::parse("[tru]").ok());
  EXPECT_FALSE(JsonTree::parse("\"raw\ncontrol\"").ok());
}

TEST(JsonTree, DepthIsBounded) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto t = JsonTree::parse(deep);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message().find("nesting of at most 256 levels"), std::string::npos)
      << t.error().message();
  const std::string ok = std::string(200, '[') + std::string(200, ']');
  EXPECT_TRUE(JsonTree::parse(ok).ok());
}

}  // namespace
}  // namespace etviz::torch_export
