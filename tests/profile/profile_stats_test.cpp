// Inspector-style statistics: the corpus profile against figures the test derives itself from
// the raw events, percentiles against numpy's definition, and units.
#include "analysis/profile_stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "etdump_writer.h"
#include "formats/executorch/etdump_reader.h"
#include "raw_etdump.h"
#include "render/profile_report.h"
#include "test_files.h"

namespace etviz {
namespace {

using analysis::compute_stats;

TEST(ProfileStats, PercentilesFollowNumpyLinearInterpolation) {
  // Values numpy.percentile(x, [10, 50, 90]) gives (linear method, the default).
  auto s = compute_stats({1, 2, 3, 4, 10});
  EXPECT_DOUBLE_EQ(s.p10, 1.4);
  EXPECT_DOUBLE_EQ(s.p50, 3);
  EXPECT_DOUBLE_EQ(s.p90, 7.6);
  EXPECT_DOUBLE_EQ(s.avg, 4);
  EXPECT_DOUBLE_EQ(s.total, 20);
  s = compute_stats({20, 10});
  EXPECT_DOUBLE_EQ(s.p10, 11);
  EXPECT_DOUBLE_EQ(s.p50, 15);
  EXPECT_DOUBLE_EQ(s.p90, 19);
  s = compute_stats({3, 1, 2, 7});
  EXPECT_DOUBLE_EQ(s.p10, 1.3);
  EXPECT_DOUBLE_EQ(s.p50, 2.5);
  EXPECT_NEAR(s.p90, 5.8, 1e-12);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 7);
  s = compute_stats({5});
  EXPECT_EQ(s.count, 1u);
  EXPECT_EQ(s.p10, 5);
  EXPECT_EQ(s.p90, 5);
  EXPECT_EQ(compute_stats({}).count, 0u);
}

TEST(ProfileStats, CorpusRowsMatchRawEvents) {
  const auto bytes = testing::read_bytes(testing::corpus_etdump());
  auto profile = executorch::read_etdump(bytes);
  ASSERT_TRUE(profile);
  const auto stats = analysis::summarize_profile(*profile);
  EXPECT_EQ(stats.runs, 2u);
  EXPECT_EQ(stats.blocks, (std::vector<std::string>{"Default", "Execute"}));
  ASSERT_EQ(stats.method_events.size(), 3u);
  EXPECT_EQ(stats.method_events[0].name, "Method::init");
  EXPECT_EQ(stats.method_events[1].name, "Program::load_method");
  EXPECT_EQ(stats.method_events[2].name, "Method::execute");
  // 14 instructions x (OPERATOR_CALL + native_call_*) in the Execute block.
  ASSERT_EQ(stats.events.size(), 28u);

  // Independent figures: durations straight from the test's own table walk.
  std::map<std::pair<std::string, int32_t>, uint64_t> expected;
  double execute = 0;
  for (const auto& run : testing::raw_read_prefixed_etdump(bytes))
    for (const auto& e : run.events) {
      if (e.chain == -1) {
        if (e.name == "Method::execute") execute = static_cast<double>(e.end - e.start);
        continue;
      }
      expected[{e.name, e.instruction}] = e.end - e.start;
    }
  EXPECT_EQ(execute, 1898821);
  EXPECT_DOUBLE_EQ(stats.execute_total("Execute"), execute);
  ASSERT_EQ(expected.size(), 28u);
  for (const auto& row : stats.events) {
    auto it = expected.find({row.name, row.instruction});
    ASSERT_NE(it, expected.end()) << row.name << " " << row.instruction;
    const auto d = static_cast<double>(it->second);
    EXPECT_EQ(row.block, "Execute");
    EXPECT_EQ(row.stats.count, 1u);
    EXPECT_EQ(row.stats.min, d);
    EXPECT_EQ(row.stats.max, d);
    EXPECT_EQ(row.stats.p50, d);
    EXPECT_EQ(row.stats.total, d);
  }
  // Sorted by total: the second convolution (instruction 3) leads, 1,032,230 ticks.
  EXPECT_EQ(stats.events[0].name, "OPERATOR_CALL");
  EXPECT_EQ(stats.events[0].instruction, 3);
  EXPECT_EQ(stats.events[0].stats.total, 1032230);
  EXPECT_EQ(stats.events[1].name, "native_call_convolution.out");
  for (size_t i = 1; i < stats.events.size(); ++i)
    EXPECT_GE(stats.events[i - 1].stats.total, stats.events[i].stats.total);

  // Grouped by name: all four relu calls pool into one row.
  const auto by_name = analysis::group_by_name(stats.events);
  auto relu = std::find_if(by_name.begin(), by_name.end(),
                           [](const auto& r) { return r.name == "native_call_relu.out"; });
  ASSERT_NE(relu, by_name.end());
  EXPECT_EQ(relu->stats.count, 4u);
  EXPECT_EQ(relu->stats.total, 8394 + 971 + 151 + 100);
  EXPECT_EQ(relu->stats.min, 100);
  EXPECT_EQ(relu->stats.max, 8394);
  auto op = std::find_if(by_name.begin(), by_name.end(),
                         [](const auto& r) { return r.name == "OPERATOR_CALL"; });
  ASSERT_NE(op, by_name.end());
  EXPECT_EQ(op->stats.count, 14u);
}

TEST(ProfileStats, RepeatedRunsPoolIntoOccurrences) {
  Profile p;
  const std::vector<uint64_t> durations = {40, 10, 30, 20, 100};
  for (uint64_t d : durations) {
    ProfileRun run;
    run.name = "Execute";
    run.profile_events.push_back({"OPERATOR_CALL", 0, 0, -1, "", {}, 1000, 1000 + d});
    run.profile_events.push_back({"DELEGATE_CALL", 0, 1, -1, "", {}, 2000, 2000 + 2 * d});
    run.profile_events.push_back({"Method::execute", -1, 0, -1, "", {}, 0, 5000});
    p.runs.push_back(run);
  }
  // Written and read back, so the pooling is checked on what a file holds.
  auto back = executorch::read_etdump(gen::write_etdump(p, false));
  ASSERT_TRUE(back);
  const auto stats = analysis::summarize_profile(*back);
  ASSERT_EQ(stats.events.size(), 2u);
  EXPECT_EQ(stats.events[0].name, "DELEGATE_CALL");
  const auto& op = stats.events[1];
  EXPECT_EQ(op.stats.count, 5u);
  EXPECT_DOUBLE_EQ(op.stats.p10, 14);  // sorted 10,20,30,40,100: rank 0.4
  EXPECT_DOUBLE_EQ(op.stats.p50, 30);
  EXPECT_DOUBLE_EQ(op.stats.p90, 76);  // rank 3.6: 40 + 0.6 * 60
  EXPECT_DOUBLE_EQ(op.stats.avg, 40);
  EXPECT_DOUBLE_EQ(stats.execute_total("Execute"), 25000);
  ASSERT_EQ(stats.method_events.size(), 1u);
  EXPECT_EQ(stats.method_events[0].stats.count, 5u);
}

TEST(ProfileStats, TimeUnits) {
  auto ticks = analysis::make_time_scale(std::nullopt, std::nullopt);
  ASSERT_TRUE(ticks);
  EXPECT_STREQ(ticks->label(), "ticks");
  EXPECT_EQ(ticks->apply(1234), 1234);
  auto refused = analysis::make_time_scale(std::nullopt, analysis::TimeUnit::kMilliseconds);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find("--source-unit"), std::string::npos);
  auto us = analysis::make_time_scale(analysis::TimeUnit::kNanoseconds,
                                      analysis::TimeUnit::kMicroseconds);
  ASSERT_TRUE(us);
  EXPECT_DOUBLE_EQ(us->apply(1898821), 1898.821);
  EXPECT_STREQ(us->label(), "us");
  auto same = analysis::make_time_scale(analysis::TimeUnit::kMicroseconds, std::nullopt);
  ASSERT_TRUE(same);
  EXPECT_EQ(same->target, analysis::TimeUnit::kMicroseconds);
  auto s =
      analysis::make_time_scale(analysis::TimeUnit::kMilliseconds, analysis::TimeUnit::kSeconds);
  EXPECT_DOUBLE_EQ(s->apply(1500), 1.5);
  EXPECT_FALSE(analysis::parse_time_unit("fortnights"));
}

TEST(ProfileStats, ReportsLabelUnitsAndKeepNumbers) {
  auto profile = executorch::read_etdump_file(testing::corpus_etdump());
  ASSERT_TRUE(profile);
  const auto stats = analysis::summarize_profile(*profile);
  render::ProfileReport report;
  report.profile = &*profile;
  report.stats = &stats;
  report.rows = stats.events;
  const std::string text = render::profile_text(report);
  EXPECT_NE(text.find("p50 (ticks)"), std::string::npos);
  EXPECT_NE(text.find("1,898,821"), std::string::npos);  // Method::execute
  EXPECT_NE(text.find("Method-level"), std::string::npos);
  EXPECT_NE(text.find("54.4%"), std::string::npos);  // 1,032,230 / 1,898,821

  report.scale = *analysis::make_time_scale(analysis::TimeUnit::kNanoseconds,
                                            analysis::TimeUnit::kMilliseconds);
  const std::string json = render::profile_json(report);
  EXPECT_NE(json.find("\"unit\": \"ms\""), std::string::npos);
  EXPECT_NE(json.find("1.03223"), std::string::npos) << json.substr(0, 2000);
  const std::string csv = render::profile_csv(report);
  EXPECT_NE(csv.find("p90 (ms)"), std::string::npos);
  EXPECT_NE(csv.find("OPERATOR_CALL,3,1,1.03223,1.03223,"), std::string::npos)
      << csv;  // plain numbers
  // One header, three method rows and 28 event rows.
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 32);
}

}  // namespace
}  // namespace etviz
