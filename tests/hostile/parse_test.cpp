// Sizes from files are checked before arithmetic (the hostile-input issue, item 7): a tensor
// whose element count times element size overflows has an unknown byte size, never a
// negative or wrapped one (and no undefined behaviour: UBSan runs this suite).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "core/checked_math.h"
#include "export_model.h"
#include "export_writer.h"
#include "test_support.h"

namespace etviz {
namespace {

TEST(HostileParse, TensorSizesThatOverflowAreUnknown) {
  gen::ExportModelSpec spec;
  spec.blocks = 1;
  spec.dim = 16;
  spec.hidden = 32;
  spec.symbolic_seq = false;
  gen::ExportProgram program = gen::build_export_transformer(spec);
  ASSERT_FALSE(program.graph.tensors.empty());
  // Near INT64_MAX elements of float32: 4 x that overflows int64.
  program.graph.tensors[0].sizes = {{INT64_MAX / 2, {}}, {1, {}}};
  const std::string path = test::scratch_dir("hostile") + "/huge.pt2";
  ASSERT_EQ(gen::write_pt2(path, {{"model", program}}, true), "");
  const Document doc = test::load(path);
  ASSERT_FALSE(doc.graphs.empty());
  bool found = false;
  for (const Value& v : doc.graphs[0].values) {
    if (v.kind != ValueKind::kTensor) continue;
    EXPECT_GE(v.tensor.nbytes, -1) << v.name;
    if (v.name == program.graph.tensors[0].name) {
      found = true;
      EXPECT_EQ(v.tensor.nbytes, -1) << "unknown, not wrapped";
      EXPECT_EQ(v.tensor.numel(), INT64_MAX / 2);
    }
  }
  EXPECT_TRUE(found);
}

TEST(HostileParse, CheckedArithmetic) {
  EXPECT_EQ(checked_mul(int64_t{INT64_MAX / 2}, int64_t{4}), std::nullopt);
  EXPECT_EQ(checked_mul(int64_t{1} << 31, int64_t{4}), int64_t{1} << 33);
  EXPECT_EQ(checked_add(uint64_t{UINT64_MAX}, uint64_t{1}), std::nullopt);
  EXPECT_EQ(checked_add(int64_t{-5}, int64_t{7}), 2);
  TensorInfo t;
  t.dtype = "float32";
  t.shape = {{3, {}}, {5, {}}};
  EXPECT_EQ(t.byte_size(), 60);
  t.dtype = "unknown_type";
  EXPECT_EQ(t.byte_size(), std::nullopt);
  EXPECT_EQ(t.byte_size(2), 30);
}

// A FlatTensor file whose header gives the flatbuffer zero bytes (found by fuzz_open_document:
// the root-table check read before the buffer) is an error, not a read past the end.
TEST(HostileParse, FlatTensorWithAnEmptyFlatbuffer) {
  std::vector<uint8_t> b(48, 0);
  std::memcpy(b.data() + 4, "FT01", 4);
  std::memcpy(b.data() + 8, "FH01", 4);
  const uint32_t length = 40;
  std::memcpy(b.data() + 12, &length, 4);
  for (uint64_t fb_size : {uint64_t{0}, uint64_t{3}}) {
    std::vector<uint8_t> bytes = b;
    std::memcpy(bytes.data() + 24, &fb_size, 8);
    auto doc = read_document(MappedFile::from_bytes("empty.ptd", bytes));
    ASSERT_FALSE(doc);
    EXPECT_NE(doc.error().message().find("too short for a root table"), std::string::npos)
        << doc.error().message();
  }
}

}  // namespace
}  // namespace etviz
