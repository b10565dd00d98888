// Corrupt and hostile ETDumps: every failure is an Error naming what and where; nothing
// crashes, reads out of bounds (the sanitizer build reruns this) or allocates without bound.
#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include "analysis/profile_stats.h"
#include "etdump_generated.h"
#include "etdump_writer.h"
#include "formats/executorch/etdump_reader.h"
#include "render/profile_report.h"
#include "test_files.h"

namespace etviz {
namespace {

// Whatever the reader makes of the bytes must survive the statistics and every report.
void exercise(std::span<const uint8_t> bytes) {
  auto profile = executorch::read_etdump(bytes);
  if (!profile) {
    EXPECT_FALSE(profile.error().message().empty());
    return;
  }
  const auto stats = analysis::summarize_profile(*profile);
  render::ProfileReport report;
  report.profile = &*profile;
  report.stats = &stats;
  report.rows = stats.events;
  EXPECT_FALSE(render::profile_text(report).empty());
  EXPECT_FALSE(render::profile_json(report).empty());
}

TEST(EtdumpCorrupt, EveryTruncationOfTheCorpusFile) {
  const auto bytes = testing::read_bytes(testing::corpus_etdump());
  ASSERT_EQ(bytes.size(), 2320u);
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto profile = executorch::read_etdump(std::span(bytes).first(n));
    ASSERT_FALSE(profile) << "truncated to " << n << " bytes was accepted";
  }
  // A truncation past the identifier is diagnosed through the size prefix.
  auto cut = executorch::read_etdump(std::span(bytes).first(1000));
  ASSERT_FALSE(cut);
  EXPECT_NE(
      cut.error().message().find("size prefix says the ETDump is 2316 bytes, but only 996 follow"),
      std::string::npos)
      << cut.error().message();
}

TEST(EtdumpCorrupt, BitFlipsAnywhere) {
  const auto original = testing::read_bytes(testing::corpus_etdump());
  size_t rejected = 0;
  for (size_t i = 0; i < original.size(); ++i) {
    for (int bit : {0, 5}) {
      auto bytes = original;
      bytes[i] ^= static_cast<uint8_t>(1u << bit);
      auto profile = executorch::read_etdump(bytes);
      if (!profile) ++rejected;
      exercise(bytes);
    }
  }
  EXPECT_GT(rejected, 0u);
}

TEST(EtdumpCorrupt, ClearMessages) {
  auto tiny = executorch::read_etdump(std::vector<uint8_t>{1, 2, 3});
  ASSERT_FALSE(tiny);
  EXPECT_NE(tiny.error().message().find("too short"), std::string::npos);

  std::vector<uint8_t> other(64, 0);
  std::memcpy(other.data() + 4, "ET12", 4);
  auto wrong = executorch::read_etdump(other);
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().message().find("expected identifier 'ED00'"), std::string::npos);
  EXPECT_NE(wrong.error().message().find("ET12"), std::string::npos);

  // Identifier right, tables garbage.
  std::vector<uint8_t> garbage(64, 0xff);
  std::memcpy(garbage.data() + 4, "ED00", 4);
  auto bad = executorch::read_etdump(garbage);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("failed flatbuffer verification"), std::string::npos);

  // The file-level entry point names the file.
  const std::string path = testing::scratch_dir() + "/garbage.etdp";
  testing::write_bytes(path, garbage);
  auto named = executorch::read_etdump_file(path);
  ASSERT_FALSE(named);
  EXPECT_EQ(named.error().message().rfind(path + ": ", 0), 0u) << named.error().message();
}

TEST(EtdumpCorrupt, TrailingBytesAfterSizePrefixedBufferAreNoted) {
  auto bytes = testing::read_bytes(testing::corpus_etdump());
  bytes.resize(bytes.size() + 100, 0xAB);
  auto profile = executorch::read_etdump(bytes);
  ASSERT_TRUE(profile) << profile.error().message();
  ASSERT_FALSE(profile->warnings.empty());
  EXPECT_NE(profile->warnings[0].find("100 bytes after the end"), std::string::npos);
}

TEST(EtdumpCorrupt, SharedSubtablesCannotExplodeMemory) {
  // One tensor with a 200k-element shape referenced by 100k debug events: a 1 MB file that
  // would expand to 20 G elements if copied naively.
  flatbuffers::FlatBufferBuilder b;
  std::vector<int64_t> sizes(200000, 1);
  auto tensor = etdump::CreateTensor(b, 6, b.CreateVector(sizes), 0, 0);
  auto value = etdump::CreateValue(b, etdump::ValueType::Tensor, tensor);
  auto debug = etdump::CreateDebugEvent(b, 0, 1, value);
  auto event = etdump::CreateEvent(b, 0, 0, debug);
  std::vector<flatbuffers::Offset<etdump::Event>> events(100000, event);
  auto run = etdump::CreateRunData(b, b.CreateString("Execute"), -1, 0, b.CreateVector(events));
  std::vector<flatbuffers::Offset<etdump::RunData>> runs{run};
  b.Finish(etdump::CreateETDump(b, 0, b.CreateVector(runs)), "ED00");
  auto profile = executorch::read_etdump({b.GetBufferPointer(), b.GetSize()});
  ASSERT_FALSE(profile);
  EXPECT_NE(profile.error().message().find("far more data than its size"), std::string::npos)
      << profile.error().message();
}

TEST(EtdumpCorrupt, HostileValuesStayHarmless) {
  Profile p;
  ProfileRun run;
  run.name = std::string("\xff\xfe<script>alert(1)</script>", 27);
  run.profile_events.push_back({"backwards clock", 0, 5, -1, "", {}, 1000, 10});  // end < start
  run.profile_events.push_back({"\xc3", 7, INT32_MAX, INT32_MIN, "", {}, 0, UINT64_MAX});
  run.allocations.push_back({99, UINT64_MAX});  // allocator out of range
  DebugEvent d;
  d.value.kind = ProfileValue::Kind::kTensor;
  ProfileTensor huge;
  huge.scalar_type = 6;
  huge.sizes = {INT64_MAX, INT64_MAX, -5};
  huge.offset = INT64_MAX;
  d.value.tensors.push_back(huge);
  ProfileTensor unknown;
  unknown.scalar_type = 120;  // not a dtype
  unknown.sizes = {4};
  d.value.tensors.push_back(unknown);
  d.value.kind = ProfileValue::Kind::kTensorList;
  run.debug_events.push_back(d);
  p.runs.push_back(run);
  const auto bytes = gen::write_etdump(p);
  auto profile = executorch::read_etdump(bytes);
  ASSERT_TRUE(profile) << profile.error().message();
  const auto& r = profile->runs[0];
  EXPECT_EQ(r.profile_events[0].duration(), 0u);
  EXPECT_EQ(r.debug_events[0].value.tensors[0].nbytes, -1);  // overflow: size unknown
  EXPECT_EQ(r.debug_events[0].value.tensors[1].dtype, "scalar_type(120)");
  EXPECT_EQ(r.debug_events[0].value.tensors[1].nbytes, -1);
  ASSERT_EQ(profile->warnings.size(), 1u);
  EXPECT_NE(profile->warnings[0].find("allocator 99"), std::string::npos);
  exercise(bytes);
}

}  // namespace
}  // namespace etviz
