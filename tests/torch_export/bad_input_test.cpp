// Hostile and broken input: clear errors, no crash, bounded memory.
#include <gtest/gtest.h>

#include <cstring>

#include "export_model.h"
#include "formats/open_document.h"
#include "formats/torch_export/exported_program_reader.h"
#include "test_util.h"

namespace etviz::torch_export::testing {
namespace {

// Cut before its model JSON ends, a .pt2 fails naming the file and what was lost; cut after
// it, it opens from its members' local headers, marked damaged (tests/hostile/damage_test.cpp).
TEST(BadInput, TruncatedArchivesFailClearlyOrOpenDamaged) {
  const std::string bytes = read_all(corpus(kPt2Linear));
  for (size_t keep : {size_t{10}, bytes.size() / 2}) {
    auto doc = open_bytes(bytes.substr(0, keep), "cut.pt2");
    ASSERT_FALSE(doc.ok()) << keep;
    EXPECT_NE(doc.error().message().find("cut.pt2"), std::string::npos) << doc.error().message();
  }
  EXPECT_NE(open_bytes(bytes.substr(0, bytes.size() / 2), "cut.pt2")
                .error()
                .message()
                .find("central directory is missing"),
            std::string::npos);
  auto tail_cut = open_bytes(bytes.substr(0, bytes.size() - 30), "cut.pt2");
  ASSERT_TRUE(tail_cut.ok()) << tail_cut.error().message();
  EXPECT_TRUE(tail_cut->is_damaged());
  EXPECT_FALSE(tail_cut->graphs.empty());
}

TEST(BadInput, BitFlipsNeverCrash) {
  const std::string bytes = read_all(corpus(kETRecord));
  // Every 7th byte flipped in turn: each load either succeeds or fails with a message.
  for (size_t i = 0; i < bytes.size(); i += 7) {
    std::string b = bytes;
    b[i] = static_cast<char>(b[i] ^ 0x5a);
    auto doc = open_bytes(b, "flip.etrecord");
    if (!doc.ok()) {
      EXPECT_FALSE(doc.error().message().empty());
    }
  }
}

// Rewrites the declared uncompressed size of every entry (local and central headers).
std::string with_declared_size(std::string zip, uint32_t size) {
  for (size_t i = 0; i + 46 <= zip.size(); ++i) {
    if (std::memcmp(zip.data() + i, "PK\x03\x04", 4) == 0)
      std::memcpy(zip.data() + i + 22, &size, 4);
    if (std::memcmp(zip.data() + i, "PK\x01\x02", 4) == 0)
      std::memcpy(zip.data() + i + 24, &size, 4);
  }
  return zip;
}

TEST(BadInput, DeclaredZipBombIsRefused) {
  const std::string path = scratch("bomb_src.pt2");
  ASSERT_EQ(gen::write_pt2(path, {{"model", gen::build_export_transformer({})}}, true), "");
  const std::string bomb = with_declared_size(read_all(path), 0xfffffff0u);
  auto doc = open_bytes(bomb, "bomb.pt2");
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.error().message().find("bomb.pt2"), std::string::npos) << doc.error().message();
}

TEST(BadInput, ActualInflationPastTheDeclaredSizeIsRefused) {
  const std::string path = scratch("understated.pt2");
  ASSERT_EQ(gen::write_pt2(path, {{"model", gen::build_export_transformer({})}}, true), "");
  const std::string lie = with_declared_size(read_all(path), 100);
  auto doc = open_bytes(lie, "understated.pt2");
  ASSERT_FALSE(doc.ok());
}

TEST(BadInput, WrongJsonTypesAreErrorsWithAPath) {
  Document doc;
  auto r = read_exported_program(R"({"graph_module": []})", doc);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("graph_module"), std::string::npos);
  r = read_exported_program(R"({"graph_module": {"graph": {"nodes": "x"}}})", doc);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("graph_module.graph.nodes"), std::string::npos)
      << r.error().message();
  r = read_exported_program(
      R"({"graph_module": {"graph": {"nodes": [], "tensor_values": {"a": 3}}}})", doc);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("tensor_values.a"), std::string::npos) << r.error().message();
  r = read_exported_program("[1, 2]", doc);
  ASSERT_FALSE(r.ok());
  // Wrong types below the structure are tolerated: sizes as a string, target as a number.
  r = read_exported_program(
      R"({"graph_module": {"graph": {"nodes": [{"target": 5, "inputs": 7, "outputs": {}, "metadata": []}],
          "tensor_values": {"a": {"dtype": "x", "sizes": "y"}}, "inputs": [{"as_tensor": 3}]}}})",
      doc);
  ASSERT_TRUE(r.ok()) << r.error().message();
}

TEST(BadInput, DeepJsonIsRefused) {
  std::string json = R"({"graph_module": {"graph": {"nodes": [], "inputs": )" +
                     std::string(5000, '[') + std::string(5000, ']') + "}}}";
  Document doc;
  auto r = read_exported_program(json, doc);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("nesting"), std::string::npos) << r.error().message();
}

TEST(BadInput, ZipThatIsNeitherPt2NorETRecord) {
  const std::string path = scratch("other.zip");
  gen::ExportETRecord rec;  // write, then rename the marker so it is no ETRecord
  ASSERT_EQ(gen::write_etrecord(path, rec), "");
  std::string bytes = read_all(path);
  for (size_t i = 0; i + 11 <= bytes.size(); ++i)
    if (std::memcmp(bytes.data() + i, "ETRECORD_V0", 11) == 0)
      std::memcpy(bytes.data() + i, "NOTRECORD_0", 11);
  auto doc = open_bytes(bytes, "other.zip");
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.error().message().find("neither a .pt2 archive"), std::string::npos)
      << doc.error().message();
}

}  // namespace
}  // namespace etviz::torch_export::testing
