// Damaged and hostile TOSA files: every one is an error naming the file (and, where the file
// says, the block and operator), never a crash (this suite reruns under ASan+UBSan).
#include <gtest/gtest.h>

#include <random>

#include "formats/tosa/tosa_reader.h"
#include "tosa_generated.h"
#include "tosa_test_util.h"

namespace etviz::test {
namespace {

using namespace gen;

std::string error_of(const std::vector<uint8_t>& bytes, const std::string& name = "bad.tosa") {
  auto doc = read_tosa_bytes(bytes, name);
  return doc ? std::string() : doc.error().message();
}

TEST(TosaHostile, TruncatedAtManyOffsets) {
  const std::vector<uint8_t> full = read_bytes(corpus(kCorpusTosa));
  ASSERT_EQ(full.size(), 3807416u);
  // The file ends with a one-byte vector (a Clamp bound, 244) and 7 bytes of alignment padding
  // no table references: a file cut in the padding is whole. Every earlier cut loses
  // something the verifier finds.
  constexpr size_t kPadding = 7;
  std::vector<size_t> cuts;
  for (size_t k = 0; k < 512; ++k) cuts.push_back(k);
  for (size_t k = 512; k < full.size(); k += 7919) cuts.push_back(k);
  for (size_t k = 1; k <= 64; ++k) cuts.push_back(full.size() - k);
  for (size_t cut : cuts) {
    // Over the bytes in place: a million-byte copy per cut would be most of the test's time.
    auto doc = read_document(
        MappedFile::over_memory("cut.tosa", std::span<const uint8_t>(full.data(), cut), nullptr));
    if (cut >= full.size() - kPadding) {
      ASSERT_TRUE(doc) << "cut at " << cut << ": " << doc.error().message();
      EXPECT_EQ(attribute(doc->properties, "operators"), "769");
      continue;
    }
    ASSERT_FALSE(doc) << "cut at " << cut << " read without error";
    EXPECT_EQ(doc.error().message().rfind("cut.tosa: ", 0), 0u) << doc.error().message();
  }
  // Small generated files, at every offset.
  const std::vector<uint8_t> small = write_tosa(small_graph());
  for (size_t cut = 0; cut < small.size(); ++cut)
    EXPECT_FALSE(
        error_of({small.begin(), small.begin() + static_cast<std::ptrdiff_t>(cut)}).empty())
        << cut;
}

TEST(TosaHostile, BitFlipsNeverCrash) {
  const std::vector<uint8_t> full = read_bytes(corpus(kCorpusTosa));
  ASSERT_FALSE(full.empty());
  std::mt19937 rng(43);
  // The tables sit before and after the constant bytes; flips land anywhere.
  std::uniform_int_distribution<size_t> pos(0, full.size() - 1);
  int rejected = 0;
  std::vector<uint8_t> bytes = full;
  for (int k = 0; k < 150; ++k) {
    // Flipped in place and back: one copy of the file, not one per round.
    size_t at[4];
    uint8_t mask[4];
    for (int j = 0; j < 4; ++j) {
      at[j] = pos(rng);
      mask[j] = static_cast<uint8_t>(1u << (rng() % 8));
      bytes[at[j]] ^= mask[j];
    }
    auto doc = read_document(MappedFile::over_memory(
        "flip.tosa", std::span<const uint8_t>(bytes.data(), bytes.size()), nullptr));
    rejected += !doc.ok();
    for (int j = 3; j >= 0; --j) bytes[at[j]] ^= mask[j];
  }
  const std::vector<uint8_t> small = write_tosa(small_graph());
  for (size_t at = 0; at < small.size(); ++at)
    for (int bit = 0; bit < 8; ++bit) {
      std::vector<uint8_t> flipped = small;
      flipped[at] ^= static_cast<uint8_t>(1u << bit);
      rejected += !error_of(flipped).empty();
    }
  EXPECT_GT(rejected, 0);
}

TEST(TosaHostile, ConstantLargerThanItsFile) {
  TosaFileSpec f = small_graph();
  TosaTensorSpec& c = f.regions[0].blocks[0].tensors[1];
  c.data.clear();
  c.offset = 64;
  c.size = 1u << 30;  // stored outside the flatbuffer, as files over 2 GiB do
  const std::vector<uint8_t> bytes = write_tosa(f);
  const std::string e = error_of(bytes, "huge.tosa");
  EXPECT_NE(e.find("huge.tosa: block 'main': tensor 'c' (written by operator 0, Const)"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("past the end of the " + std::to_string(bytes.size()) + "-byte file"),
            std::string::npos)
      << e;
  // Inside the file, the same placement reads.
  c.size = 4;
  auto doc = read_tosa_bytes(write_tosa(f));
  ASSERT_TRUE(doc) << doc.error().message();
  ASSERT_EQ(doc->graphs[0].constant_data.size(), 1u);
  EXPECT_EQ(doc->graphs[0].constant_data[0].blob.offset, 64u);
}

TEST(TosaHostile, MissingTensor) {
  TosaFileSpec f = small_graph();
  f.regions[0].blocks[0].ops[1].inputs[1] = "nope";
  EXPECT_EQ(error_of(write_tosa(f)),
            "bad.tosa: block 'main': operator 1 (Add) reads input 1 'nope', which is no tensor "
            "or shape of the block");
  f = small_graph();
  f.regions[0].blocks[0].outputs = {"gone"};
  EXPECT_EQ(error_of(write_tosa(f)),
            "bad.tosa: block 'main': output 0 names 'gone', which is no tensor or shape of the "
            "block");
}

TosaFileSpec with_regions(const std::vector<std::pair<std::string, std::string>>& branches) {
  // Region k holds a COND_IF whose branches name the regions given.
  TosaFileSpec f;
  for (size_t k = 0; k < branches.size(); ++k) {
    TosaBlockSpec b;
    b.name = k == 0 ? "main" : "r" + std::to_string(k);
    b.tensors = {{"p", tosa_type::kBool, {1}, {}}, {"y", tosa_type::kInt8, {1}, {}}};
    TosaOpSpec op{tosa_op::kCondIf, {"p"}, {"y"}};
    op.then_graph = branches[k].first;
    op.else_graph = branches[k].second;
    b.ops = {op};
    b.inputs = {"p"};
    b.outputs = {"y"};
    f.regions.push_back({b.name, {b}});
  }
  return f;
}

TEST(TosaHostile, CyclicRegionReference) {
  // main -> r1 -> r2 -> r1.
  EXPECT_EQ(error_of(write_tosa(with_regions({{"r1", "r2"}, {"r2", "r2"}, {"r1", "r1"}}))),
            "bad.tosa: block 'r2', operator 0 (CondIf): then_graph names region 'r1', which "
            "leads back to this operator (a cyclic region reference)");
  // A region that names itself.
  const std::string self = error_of(write_tosa(with_regions({{"main", "main"}})));
  EXPECT_NE(self.find("block 'main', operator 0 (CondIf): then_graph names region 'main'"),
            std::string::npos)
      << self;
  // A region that does not exist.
  const std::string missing = error_of(write_tosa(with_regions({{"nowhere", "nowhere"}})));
  EXPECT_EQ(missing,
            "bad.tosa: block 'main', operator 0 (CondIf): then_graph names region 'nowhere', "
            "which the file does not have");
}

// One vector of names shared by thousands of operators: small on disk, huge when expanded.
TEST(TosaHostile, SharedVectorsHitTheExpansionBudget) {
  flatbuffers::FlatBufferBuilder b;
  namespace fb = etviz::tosa::fb;
  auto name = b.CreateString("x");
  std::vector<flatbuffers::Offset<flatbuffers::String>> names(10000, name);
  auto shared = b.CreateVector(names);
  std::vector<flatbuffers::Offset<fb::Operator>> ops;
  for (int k = 0; k < 1000; ++k)
    ops.push_back(fb::CreateOperator(b, fb::Op::ADD, fb::Attributes::NONE, 0, shared, shared));
  std::vector<flatbuffers::Offset<fb::Tensor>> tensors{
      fb::CreateTensor(b, name, b.CreateVector(std::vector<int32_t>{1}), fb::DType::INT8)};
  auto block =
      fb::CreateBlock(b, b.CreateString("main"), b.CreateVector(ops), b.CreateVector(tensors));
  std::vector<flatbuffers::Offset<fb::Block>> blocks{block};
  std::vector<flatbuffers::Offset<fb::Region>> regions{
      fb::CreateRegion(b, b.CreateString("main"), b.CreateVector(blocks))};
  b.Finish(fb::CreateGraph(b, fb::CreateVersion(b, 1, 0, 0, false), b.CreateVector(regions)),
           "TOSA");
  const std::vector<uint8_t> bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  ASSERT_LT(bytes.size(), 300000u);
  const std::string e = error_of(bytes);
  EXPECT_NE(e.find("far more data than its size can hold"), std::string::npos) << e;
}

TEST(TosaHostile, NotTosaOrEmpty) {
  TosaFileSpec empty;
  EXPECT_EQ(error_of(write_tosa(empty)), "bad.tosa: the file holds no region (no graph)");
  std::vector<uint8_t> bytes = write_tosa(small_graph());
  bytes[4] = 'X';  // no longer sniffed as TOSA
  EXPECT_NE(error_of(bytes).find("not a file etviz recognises"), std::string::npos);
}

}  // namespace
}  // namespace etviz::test
