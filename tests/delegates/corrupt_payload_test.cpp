// Damaged payloads: a program whose delegate payload has flipped bytes still loads; the
// delegate becomes opaque with a note and the document carries a warning. Runs under ASan.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "formats/delegates/delegate_decoder.h"
#include "test_util.h"

namespace etviz::test {
namespace {

std::vector<uint8_t> read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::string write_temp(const std::vector<uint8_t>& bytes, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "etviz_delegates_test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return path;
}

const char* kSimple = "pte/corey-cole__simple-torch-model__model.pte";

TEST(CorruptPayload, FlippedFlatbufferBytesLeaveAnOpaqueDelegate) {
  Document clean = open_or_die(corpus(kSimple));
  ASSERT_EQ(clean.delegates.size(), 2u);
  const BlobRef payload = clean.delegates[0].payload;
  auto bytes = read_all(corpus(kSimple));
  // Flip the flatbuffer's root offset and a run of bytes after the XH00 header.
  for (uint64_t i = 32; i < 48; ++i) bytes[payload.offset + i] ^= 0xFF;
  const auto path = write_temp(bytes, "flipped.pte");
  auto doc = open_document(path);
  ASSERT_TRUE(doc) << doc.error().message();
  EXPECT_EQ(doc->delegates[0].subgraph, -1);
  EXPECT_NE(doc->delegates[0].decoder_note.find("could not be decoded"), std::string::npos)
      << doc->delegates[0].decoder_note;
  ASSERT_FALSE(doc->diagnostics.empty());
  EXPECT_EQ(doc->diagnostics[0].severity, Severity::kWarning);
  EXPECT_NE(doc->diagnostics[0].message.find("XnnpackBackend"), std::string::npos);
  // The other delegate and the method graph are unaffected.
  EXPECT_GE(doc->delegates[1].subgraph, 0);
  EXPECT_EQ(doc->graphs[0].name, "forward");
}

TEST(CorruptPayload, HeaderPointingOutsideThePayload) {
  auto bytes = read_all(corpus(kSimple));
  Document clean = open_or_die(corpus(kSimple));
  const uint64_t at = clean.delegates[1].payload.offset;
  bytes[at + 14] = 0xFF;  // flatbuffer size
  bytes[at + 15] = 0xFF;
  auto doc = open_document(write_temp(bytes, "header.pte"));
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->delegates[1].subgraph, -1);
  EXPECT_NE(doc->delegates[1].decoder_note.find("outside"), std::string::npos)
      << doc->delegates[1].decoder_note;
}

TEST(CorruptPayload, RandomFlipsNeverCrash) {
  const auto original = read_all(corpus(kSimple));
  Document clean = open_or_die(corpus(kSimple));
  std::mt19937 rng(1234);
  int opaque = 0;
  for (int round = 0; round < 200; ++round) {
    auto bytes = original;
    const Delegate& d = clean.delegates[round % 2];
    for (int k = 0; k < 4; ++k) {
      const uint64_t i = d.payload.offset + rng() % d.payload.size;
      bytes[i] ^= static_cast<uint8_t>(1u << (rng() % 8));
    }
    auto doc = open_document(write_temp(bytes, "random.pte"));
    ASSERT_TRUE(doc) << doc.error().message();
    for (const Delegate& del : doc->delegates) opaque += del.subgraph < 0;
  }
  EXPECT_GT(opaque, 0);  // some flips must be caught, not silently accepted
}

TEST(CorruptPayload, SyntheticTruncatedHeaders) {
  Document doc;
  Delegate del;
  del.backend_id = "XnnpackBackend";
  const delegates::DelegateDecoder& decoder = delegates::find_decoder("XnnpackBackend");
  const std::vector<std::vector<uint8_t>> payloads = {
      {},
      {0, 0, 0, 0, 'X', 'H', '0', '0'},
      {0, 0, 0, 0, 'X', 'H', '0', '0', 30, 0, 32, 0, 0, 0},
      {8, 0, 0, 0, 'X', 'N', '0', '1', 0, 0, 0, 0},
      {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
  };
  for (const auto& p : payloads) {
    auto g = decoder.decode({doc, del, p, "m/XnnpackBackend#0"});
    EXPECT_FALSE(g) << "payload of " << p.size() << " bytes decoded";
  }
}

}  // namespace
}  // namespace etviz::test
