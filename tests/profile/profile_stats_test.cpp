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
  EXPECT_NE(text.find("p90 (ticks)"), std::string::npos);
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

// The runtime logs native_call_<op> inside OPERATOR_CALL for the same instruction: the report
// nests it and counts its time once, so the outermost rows' shares add up to at most 100%.
TEST(ProfileStats, NestedEventsAreCountedOnce) {
  auto profile = executorch::read_etdump_file(testing::corpus_etdump());
  ASSERT_TRUE(profile);
  const auto stats = analysis::summarize_profile(*profile);
  const std::vector<int32_t> parent = analysis::enclosing_rows(stats.events);
  double outer_total = 0, all_total = 0;
  int nested = 0;
  for (size_t i = 0; i < stats.events.size(); ++i) {
    const auto& row = stats.events[i];
    all_total += row.stats.total;
    if (parent[i] < 0) {
      outer_total += row.stats.total;
      continue;
    }
    ++nested;
    const auto& outer = stats.events[static_cast<size_t>(parent[i])];
    EXPECT_EQ(row.name.rfind("native_call_", 0), 0u) << row.name;
    EXPECT_EQ(outer.name, "OPERATOR_CALL");
    EXPECT_EQ(outer.instruction, row.instruction);
    EXPECT_GE(outer.stats.total, row.stats.total);
  }
  EXPECT_EQ(nested, 14);  // every one of the 14 kernel instructions logs both events
  const double execute = stats.execute_total("Execute");
  EXPECT_LE(outer_total, execute);      // counted once: within Method::execute
  EXPECT_GT(all_total, 1.9 * execute);  // counted twice, as before: ~200%

  render::ProfileReport report;
  report.profile = &*profile;
  report.stats = &stats;
  report.rows = stats.events;
  const std::string text = render::profile_text(report);
  // The nested row follows its OPERATOR_CALL, marked and without a share of its own.
  const auto figure = text.find("1,032,230");  // OPERATOR_CALL at instruction 3
  ASSERT_NE(figure, std::string::npos) << text;
  const auto outer_line = text.rfind('\n', figure) + 1;
  ASSERT_EQ(text.substr(outer_line, 15), "  OPERATOR_CALL");
  const auto next = text.find('\n', outer_line) + 1;
  const std::string line = text.substr(next, text.find('\n', next) - next);
  EXPECT_NE(line.find("\u2514 native_call_convolution.out"), std::string::npos) << line;
  EXPECT_EQ(line.find('%'), std::string::npos) << line;
  // By name: every native_call_* row nests in the merged OPERATOR_CALL row.
  const auto by_name = analysis::group_by_name(stats.events);
  const auto name_parent = analysis::enclosing_rows(by_name);
  for (size_t i = 0; i < by_name.size(); ++i)
    if (by_name[i].name.rfind("native_call_", 0) == 0) {
      ASSERT_GE(name_parent[i], 0) << by_name[i].name;
      EXPECT_EQ(by_name[static_cast<size_t>(name_parent[i])].name, "OPERATOR_CALL");
    }
}

// The terminal table fits the width it is given by cutting names, not numbers.
TEST(ProfileStats, TextTableFitsTheTerminal) {
  auto profile = executorch::read_etdump_file(testing::corpus_etdump());
  ASSERT_TRUE(profile);
  const auto stats = analysis::summarize_profile(*profile);
  render::ProfileReport report;
  report.profile = &*profile;
  report.stats = &stats;
  report.rows = stats.events;
  report.max_width = 100;
  const std::string text = render::profile_text(report);
  bool in_table = false;
  for (size_t start = 0; start < text.size();) {
    const size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.rfind("  event", 0) == 0 || line.rfind("  block", 0) == 0) in_table = true;
    if (line.empty()) in_table = false;
    if (!in_table) continue;
    size_t columns = 0;  // display columns (UTF-8 code points)
    for (char c : line) columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    EXPECT_LE(columns, 100u) << line;
  }
  EXPECT_NE(text.find("1,032,230"), std::string::npos);  // numbers are never cut
  report.wide = true;
  report.max_width = 0;
  EXPECT_NE(render::profile_text(report).find("p10 (ticks)"), std::string::npos);
}

}  // namespace
}  // namespace etviz
