// Truncated, bit-flipped and hostile inputs: always a clear error or a (partial) document,
// never a crash, hang or unbounded allocation. Run under ASan+UBSan (label `parser`).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "core/mapped_file.h"
#include "corpus.h"

namespace etviz::test {
namespace {

std::vector<uint8_t> read_bytes(const std::string& path) {
  auto file = MappedFile::open(path);
  EXPECT_TRUE(file.ok());
  auto b = (*file)->bytes();
  return {b.begin(), b.end()};
}

Result<Document> read_mutated(const std::string& name, const std::vector<uint8_t>& bytes) {
  OpenOptions options;
  return read_document(MappedFile::from_bytes(name, bytes), options);
}

std::vector<std::string> all_inputs() {
  std::vector<std::string> files;
  for (const char* folder : {"pte", "bpte", "ptd"})
    for (auto& f : corpus_files(folder)) files.push_back(f);
  return files;
}

TEST(BadInput, EverySmallFileTruncatedAtEveryOffset) {
  int files = 0;
  for (const std::string& path : all_inputs()) {
    const auto bytes = read_bytes(path);
    if (bytes.size() > 16384) continue;
    ++files;
    for (size_t n = 0; n < bytes.size(); ++n) {
      std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<long>(n));
      auto doc = read_mutated("truncated.pte", cut);
      // Only a cut inside trailing padding can leave a valid file.
      if (!doc.ok()) {
        EXPECT_EQ(doc.error().message().rfind("truncated.pte", 0), 0u) << doc.error().message();
      }
    }
  }
  EXPECT_GE(files, 40);
}

TEST(BadInput, EveryFileBitFlipped) {
  std::mt19937_64 rng(20261121);
  for (const std::string& path : all_inputs()) {
    const auto bytes = read_bytes(path);
    // Flip bits where the structure is: the flatbuffer, not megabytes of weights.
    const size_t span = std::min<size_t>(bytes.size(), 1 << 16);
    const int rounds = bytes.size() > (1 << 20) ? 20 : 200;
    for (int r = 0; r < rounds; ++r) {
      auto copy = bytes;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int f = 0; f < flips; ++f) copy[rng() % span] ^= static_cast<uint8_t>(1u << (rng() % 8));
      auto doc = read_mutated("flipped.pte", copy);
      if (!doc.ok()) {
        EXPECT_FALSE(doc.error().message().empty());
      }
    }
  }
}

TEST(BadInput, UnknownIdentifiersAreNamed) {
  auto bytes = read_bytes(
      corpus("pte/pytorch__executorch__examples__arduino__examples__AddModel__model.pte"));
  bytes[6] = '9';
  bytes[7] = '9';
  auto doc = read_mutated("future.pte", bytes);
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.error().message().find("'ET99'"), std::string::npos) << doc.error().message();
  EXPECT_NE(doc.error().message().find("ET12"), std::string::npos);
}

TEST(BadInput, RandomBytesAreNotRecognised) {
  std::vector<uint8_t> junk(100, 0x5a);
  auto doc = read_mutated("junk.bin", junk);
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.error().message().find("not a file etviz recognises"), std::string::npos);
}

TEST(BadInput, EmptyFile) {
  auto doc = read_mutated("empty.pte", {});
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.error().message().find("empty.pte"), std::string::npos);
}

TEST(BadInput, SegmentPastTheEndIsShownAsDamage) {
  // Cut a program with segments right after its flatbuffer: the segment table now points
  // outside the file. The program is shown (its methods are in the flatbuffer) and the damage
  // is an error diagnostic saying which segment and where (tests/hostile/damage_test.cpp).
  const auto bytes = read_bytes(corpus("pte/corey-cole__simple-torch-model__model.pte"));
  uint64_t program_size;
  std::memcpy(&program_size, bytes.data() + 16, 8);
  std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<long>(program_size));
  auto doc = read_mutated("cut.pte", cut);
  ASSERT_TRUE(doc.ok()) << doc.error().message();
  ASSERT_TRUE(doc->is_damaged());
  ASSERT_FALSE(doc->graphs.empty());
  std::string errors;
  for (const Diagnostic& d : doc->diagnostics)
    if (d.severity == Severity::kError) errors += d.message;
  EXPECT_NE(errors.find("segment"), std::string::npos) << errors;
  EXPECT_NE(errors.find("past the end"), std::string::npos) << errors;
}

TEST(BadInput, ExtendedHeaderLies) {
  auto bytes = read_bytes(corpus("pte/corey-cole__simple-torch-model__model.pte"));
  const uint64_t huge = 1ull << 40;
  std::memcpy(bytes.data() + 16, &huge, 8);
  auto doc = read_mutated("header.pte", bytes);
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.error().message().find("program size"), std::string::npos) << doc.error().message();
}

}  // namespace
}  // namespace etviz::test
