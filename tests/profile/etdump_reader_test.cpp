// The ETDump reader against the corpus file (facts measured with flatc and the test's own
// table walker) and against files our writer makes (round trips, both framings).
#include "formats/executorch/etdump_reader.h"

#include <gtest/gtest.h>

#include <map>

#include "etdump_writer.h"
#include "formats/open_document.h"
#include "raw_etdump.h"
#include "test_files.h"

namespace etviz {
namespace {

using testing::corpus_etdump;
using testing::read_bytes;

TEST(EtdumpReader, CorpusFileRunsAndEventCounts) {
  auto profile = executorch::read_etdump_file(corpus_etdump());
  ASSERT_TRUE(profile) << profile.error().message();
  EXPECT_TRUE(profile->size_prefixed);
  EXPECT_EQ(profile->version, 0u);
  ASSERT_EQ(profile->runs.size(), 2u);
  EXPECT_EQ(profile->runs[0].name, "Default");
  EXPECT_EQ(profile->runs[1].name, "Execute");
  EXPECT_EQ(profile->runs[0].profile_events.size(), 2u);
  EXPECT_EQ(profile->runs[1].profile_events.size(), 29u);
  for (const auto& run : profile->runs) {
    EXPECT_TRUE(run.allocations.empty());
    EXPECT_TRUE(run.debug_events.empty());
    EXPECT_EQ(run.bundled_input_index, -1);
    for (const auto& e : run.profile_events) EXPECT_FALSE(e.has_delegate_debug_id()) << e.name;
  }
  EXPECT_TRUE(profile->warnings.empty());

  // Names by count, as flatc --json shows them.
  std::map<std::string, int> names;
  for (const auto& e : profile->runs[1].profile_events) ++names[e.name];
  EXPECT_EQ(names["OPERATOR_CALL"], 14);
  EXPECT_EQ(names["native_call_convolution.out"], 2);
  EXPECT_EQ(names["native_call_relu.out"], 4);
  EXPECT_EQ(names["native_call_max_pool2d_with_indices.out"], 2);
  EXPECT_EQ(names["native_call_permute_copy.out"], 3);
  EXPECT_EQ(names["native_call_addmm.out"], 3);
  EXPECT_EQ(names["Method::execute"], 1);
  EXPECT_EQ(names.size(), 7u);

  // Framework events: chain -1 with instruction 0 (not -1) in the real file.
  const auto& init = profile->runs[0].profile_events[0];
  EXPECT_EQ(init.name, "Method::init");
  EXPECT_EQ(init.chain, -1);
  EXPECT_EQ(init.instruction, 0);
  EXPECT_EQ(init.start, 399054u);
  EXPECT_EQ(init.end, 421538u);
  const auto& execute = profile->runs[1].profile_events.back();
  EXPECT_EQ(execute.name, "Method::execute");
  EXPECT_EQ(execute.duration(), 1898821u);
}

TEST(EtdumpReader, CorpusFileMatchesIndependentWalk) {
  const auto bytes = read_bytes(corpus_etdump());
  ASSERT_EQ(bytes.size(), 2320u);
  const auto raw = testing::raw_read_prefixed_etdump(bytes);
  auto profile = executorch::read_etdump(bytes);
  ASSERT_TRUE(profile) << profile.error().message();
  ASSERT_EQ(raw.size(), profile->runs.size());
  for (size_t r = 0; r < raw.size(); ++r) {
    ASSERT_EQ(raw[r].events.size(), profile->runs[r].profile_events.size());
    for (size_t e = 0; e < raw[r].events.size(); ++e) {
      const auto& a = raw[r].events[e];
      const auto& b = profile->runs[r].profile_events[e];
      EXPECT_EQ(a.name, b.name);
      EXPECT_EQ(a.chain, b.chain);
      EXPECT_EQ(a.instruction, b.instruction);
      EXPECT_EQ(a.start, b.start);
      EXPECT_EQ(a.end, b.end);
    }
  }
}

TEST(EtdumpReader, SniffedAsEtdumpAndRedirectedToProfile) {
  const auto bytes = read_bytes(corpus_etdump());
  EXPECT_TRUE(executorch::looks_like_etdump(bytes));
  EXPECT_EQ(sniff_file_kind(bytes), FileKind::kETDump);
  auto doc = open_document(corpus_etdump());
  ASSERT_FALSE(doc);
  EXPECT_NE(doc.error().message().find("etviz profile"), std::string::npos);
}

Profile sample_profile() {
  Profile p;
  p.version = 3;
  ProfileRun run;
  run.name = "Execute";
  run.bundled_input_index = 4;
  run.allocators = {"method", "temp"};
  run.profile_events.push_back({"OPERATOR_CALL", 0, 2, -1, "", {}, 100, 250});
  run.profile_events.push_back({"conv", 0, 3, 7, "", {1, 2, 3}, 300, 420});
  run.profile_events.push_back({"gemm", 0, 3, -1, "node_12", {}, 500, 510});
  run.profile_events.push_back({"Method::execute", -1, 0, -1, "", {}, 50, 600});
  run.allocations.push_back({1, 4096});
  DebugEvent d;
  d.name = "aten::add.out";
  d.chain = 0;
  d.instruction = 2;
  d.value.kind = ProfileValue::Kind::kTensor;
  ProfileTensor t;
  t.scalar_type = 6;
  t.dtype = "float32";
  t.sizes = {2, 3};
  t.strides = {3, 1};
  t.offset = 64;
  d.value.tensors.push_back(t);
  run.debug_events.push_back(d);
  DebugEvent s;
  s.name = "scalar";
  s.value.kind = ProfileValue::Kind::kInt;
  s.value.int_value = -42;
  s.value.is_output = true;
  run.debug_events.push_back(s);
  p.runs.push_back(run);
  return p;
}

void expect_same(const Profile& a, const Profile& b) {
  EXPECT_EQ(a.version, b.version);
  ASSERT_EQ(a.runs.size(), b.runs.size());
  for (size_t r = 0; r < a.runs.size(); ++r) {
    const auto &x = a.runs[r], &y = b.runs[r];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.bundled_input_index, y.bundled_input_index);
    EXPECT_EQ(x.allocators, y.allocators);
    ASSERT_EQ(x.profile_events.size(), y.profile_events.size());
    for (size_t e = 0; e < x.profile_events.size(); ++e) {
      const auto &p = x.profile_events[e], &q = y.profile_events[e];
      EXPECT_EQ(p.name, q.name);
      EXPECT_EQ(p.chain, q.chain);
      EXPECT_EQ(p.instruction, q.instruction);
      EXPECT_EQ(p.delegate_debug_id_int, q.delegate_debug_id_int);
      EXPECT_EQ(p.delegate_debug_id_str, q.delegate_debug_id_str);
      EXPECT_EQ(p.delegate_debug_metadata, q.delegate_debug_metadata);
      EXPECT_EQ(p.start, q.start);
      EXPECT_EQ(p.end, q.end);
    }
    ASSERT_EQ(x.allocations.size(), y.allocations.size());
    EXPECT_EQ(x.allocations[0].allocator, y.allocations[0].allocator);
    EXPECT_EQ(x.allocations[0].size, y.allocations[0].size);
    ASSERT_EQ(x.debug_events.size(), y.debug_events.size());
    for (size_t e = 0; e < x.debug_events.size(); ++e) {
      const auto &p = x.debug_events[e], &q = y.debug_events[e];
      EXPECT_EQ(p.name, q.name);
      EXPECT_EQ(p.instruction, q.instruction);
      EXPECT_EQ(p.value.kind, q.value.kind);
      EXPECT_EQ(p.value.int_value, q.value.int_value);
      EXPECT_EQ(p.value.is_output, q.value.is_output);
      ASSERT_EQ(p.value.tensors.size(), q.value.tensors.size());
      for (size_t t = 0; t < p.value.tensors.size(); ++t) {
        EXPECT_EQ(p.value.tensors[t].dtype, q.value.tensors[t].dtype);
        EXPECT_EQ(p.value.tensors[t].sizes, q.value.tensors[t].sizes);
        EXPECT_EQ(p.value.tensors[t].strides, q.value.tensors[t].strides);
        EXPECT_EQ(p.value.tensors[t].offset, q.value.tensors[t].offset);
      }
    }
  }
}

TEST(EtdumpReader, RoundTripsBothFramings) {
  const Profile original = sample_profile();
  for (bool prefixed : {true, false}) {
    const auto bytes = gen::write_etdump(original, prefixed);
    ASSERT_EQ(std::string(bytes.begin() + (prefixed ? 8 : 4), bytes.begin() + (prefixed ? 12 : 8)),
              "ED00");
    auto back = executorch::read_etdump(bytes);
    ASSERT_TRUE(back) << back.error().message();
    EXPECT_EQ(back->size_prefixed, prefixed);
    expect_same(original, *back);
    EXPECT_EQ(back->runs[0].debug_events[0].value.tensors[0].nbytes, 24);
  }
}

TEST(EtdumpReader, DebugBufferValuesAndBounds) {
  const std::string dir = testing::scratch_dir();
  const Profile original = sample_profile();
  testing::write_bytes(dir + "/sample.etdp", gen::write_etdump(original));
  // 64 bytes of padding, then six floats 0.5, 1.5, ... 5.5.
  std::vector<uint8_t> buffer(64, 0);
  for (int i = 0; i < 6; ++i) {
    const float v = static_cast<float>(i) + 0.5f;
    uint8_t raw[4];
    std::memcpy(raw, &v, 4);
    buffer.insert(buffer.end(), raw, raw + 4);
  }
  testing::write_bytes(dir + "/sample.bin", buffer);
  auto profile = executorch::read_etdump_file(dir + "/sample.etdp", dir + "/sample.bin");
  ASSERT_TRUE(profile) << profile.error().message();
  const auto& tensor = profile->runs[0].debug_events[0].value.tensors[0];
  const auto bytes = profile->tensor_bytes(tensor);
  ASSERT_EQ(bytes.size(), 24u);
  float last;
  std::memcpy(&last, bytes.data() + 20, 4);
  EXPECT_FLOAT_EQ(last, 5.5f);
  EXPECT_TRUE(profile->warnings.empty());

  // A buffer too short for the tensor is named in a warning; the bytes are not returned.
  buffer.resize(80);
  testing::write_bytes(dir + "/short.bin", buffer);
  auto shortened = executorch::read_etdump_file(dir + "/sample.etdp", dir + "/short.bin");
  ASSERT_TRUE(shortened);
  EXPECT_TRUE(shortened->tensor_bytes(shortened->runs[0].debug_events[0].value.tensors[0]).empty());
  ASSERT_EQ(shortened->warnings.size(), 1u);
  EXPECT_NE(shortened->warnings[0].find("1 of 1 logged tensors lie outside"), std::string::npos);

  auto missing = executorch::read_etdump_file(dir + "/sample.etdp", dir + "/does-not-exist.bin");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("does-not-exist.bin"), std::string::npos);
}

}  // namespace
}  // namespace etviz
