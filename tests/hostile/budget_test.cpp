// The run's budget (core/budget.h, docs/limits.md) and long strings in reports (the
// hostile-input issue, item 8): each limit stops a file with an error that names the limit and
// the --max-* flag raising it, the defaults let real files through, and a model string longer
// than kMaxShownText is shown cut with a visible marker instead of whole.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "core/text.h"
#include "export_model.h"
#include "export_writer.h"
#include "test_support.h"

namespace etviz {
namespace {

const char* kKws =
    "pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte";

// A small generated exported program; `long_op` bytes of op name on its first aten node.
std::string write_program(const std::string& name, size_t long_op = 0) {
  gen::ExportModelSpec spec;
  spec.blocks = 1;
  spec.dim = 16;
  spec.hidden = 32;
  gen::ExportProgram program = gen::build_export_transformer(spec);
  if (long_op > 0)
    for (auto& n : program.graph.nodes)
      if (n.target.rfind("torch.ops.aten.", 0) == 0) {
        n.target = "torch.ops.aten." + std::string(long_op, 'x') + ".default";
        break;
      }
  const std::string path = test::scratch_dir("budget") + "/" + name;
  EXPECT_EQ(gen::write_pt2(path, {{"model", program}}, true), "");
  return path;
}

void expect_over(const test::CliRun& r, const std::string& flag) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("over this run's limit of"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(raise it with " + flag + ")"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
}

TEST(Budget, EachLimitNamesItsFlagAndTheDefaultsLetRealFilesThrough) {
  const std::string pt2 = write_program("small.pt2");
  const std::string kws = test::corpus(kKws);
  ASSERT_EQ(test::run_etviz("info " + pt2).exit_code, 0);
  ASSERT_EQ(test::run_etviz("info " + kws).exit_code, 0);

  // Inflating stops before the member is inflated: its declared size is over the budget.
  const auto inflated = test::run_etviz("info " + pt2 + " --max-inflated 4K");
  expect_over(inflated, "--max-inflated");
  EXPECT_NE(inflated.err.find("4.0 KiB"), std::string::npos) << inflated.err;
  expect_over(test::run_etviz("size " + pt2 + " --max-inflated 4K"), "--max-inflated");

  EXPECT_EQ(test::run_etviz("info " + pt2 + " --max-json-depth 3").exit_code, 1);
  EXPECT_NE(test::run_etviz("info " + pt2 + " --max-json-depth 3").err.find("--max-json-depth"),
            std::string::npos);

  // A .pte's method is refused from its instruction count, before its graph is built.
  const auto nodes = test::run_etviz("info " + kws + " --max-nodes 5");
  expect_over(nodes, "--max-nodes");
  EXPECT_NE(nodes.err.find("instructions"), std::string::npos) << nodes.err;
  // Every other format once read.
  expect_over(test::run_etviz("view " + pt2 + " -o - --max-nodes 5"), "--max-nodes");
  expect_over(test::run_etviz("delegation " + kws + " --max-nodes 5"), "--max-nodes");
  // Raised, the same file passes.
  EXPECT_EQ(test::run_etviz("info " + kws + " --max-nodes 1000000").exit_code, 0);
  EXPECT_EQ(test::run_etviz("info " + pt2 + " --max-inflated 1G").exit_code, 0);
}

// A Model Explorer JSON of `graphs` graphs, each with `links` nodes linking to the next graph
// and `plain` nodes more: inlined at every link, the view fans out to links^(graphs-1) copies.
std::string write_fan_out(const std::string& name, int graphs, int links, int plain) {
  nlohmann::json list = nlohmann::json::array();
  for (int g = 0; g < graphs; ++g) {
    nlohmann::json nodes = nlohmann::json::array();
    for (int k = 0; k < links + plain; ++k) {
      nlohmann::json n = {{"id", std::to_string(k)}, {"label", "op"}};
      if (k < links && g + 1 < graphs)
        n["subgraphIds"] = nlohmann::json::array({"g" + std::to_string(g + 1)});
      nodes.push_back(n);
    }
    list.push_back({{"id", "g" + std::to_string(g)}, {"nodes", nodes}});
  }
  const std::string path = test::scratch_dir("budget") + "/" + name;
  std::ofstream(path) << nlohmann::json{{"label", "fan"}, {"graphs", list}}.dump();
  return path;
}

// Boxes a DOT picture draws: its node statements ("  n12 [label=...").
size_t dot_boxes(const std::string& dot) {
  size_t boxes = 0;
  for (size_t at = dot.find("\n"); at != std::string::npos; at = dot.find("\n", at + 1)) {
    size_t k = at + 1;
    while (k < dot.size() && dot[k] == ' ') ++k;
    if (k < dot.size() && dot[k] == 'n' && dot.compare(k, 1, "n") == 0) {
      size_t d = k + 1;
      while (d < dot.size() && std::isdigit(static_cast<unsigned char>(dot[d]))) ++d;
      if (d > k + 1 && dot.compare(d, 8, " [label=") == 0) ++boxes;
    }
  }
  return boxes;
}

// The 10 KB file of the hostile-input campaign (17 graphs, each linking 4 times to the next)
// ended view and export in std::bad_alloc after 20 s. Inlined at every link it would be 4^16
// copies; the view draws each nested graph once instead (its first link), and later links point
// there: 68 boxes, in every output.
TEST(Budget, SubgraphLinksFanningOutAreDrawnOnce) {
  const std::string fan = write_fan_out("fan.json", 17, 4, 0);
  ASSERT_LT(std::filesystem::file_size(fan), 12000u);
  const std::string dir = test::scratch_dir("budget");
  for (const std::string& cmd :
       {"view " + fan + " -q -o " + dir + "/fan.html", "export " + fan + " -o " + dir + "/fan.svg",
        "export " + fan + " -o " + dir + "/fan.png"}) {
    const auto r = test::run_shell("timeout 20 " + test::etviz_binary() + " " + cmd);
    EXPECT_EQ(r.exit_code, 0) << cmd << ": " << r.err;
  }
  const auto dot = test::run_etviz("export " + fan + " --format dot -o -");
  ASSERT_EQ(dot.exit_code, 0) << dot.err;
  EXPECT_EQ(dot_boxes(dot.out), 17u * 4u) << "each graph's 4 nodes drawn once";
  // A fan-out that at most doubles the view is inlined at every link (two graphs of 4 nodes,
  // two of the first linking to the second: 4 + 2 x 4 boxes inlined against 8 drawn once).
  const std::string small = write_fan_out("small_fan.json", 2, 2, 2);
  const auto ok = test::run_etviz("export " + small + " --format dot -o -");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(dot_boxes(ok.out), 12u);
  // The file's graphs are still read and listed once each.
  const auto info = test::run_etviz("info " + fan);
  EXPECT_EQ(info.exit_code, 0) << info.err;
}

// Out of memory is the one error line naming the budget options (exit 1), not an abort: a
// budget raised far past what the memory holds (a 100,000-node chain needs ~140 MiB).
TEST(Budget, OutOfMemoryIsOneErrorLine) {
  nlohmann::json nodes = nlohmann::json::array();
  for (int k = 0; k < 100000; ++k) {
    nlohmann::json n = {{"id", std::to_string(k)}, {"label", "op"}};
    if (k > 0)
      n["incomingEdges"] = nlohmann::json::array({{{"sourceNodeId", std::to_string(k - 1)},
                                                   {"sourceNodeOutputId", "0"},
                                                   {"targetNodeInputId", "0"}}});
    nodes.push_back(std::move(n));
  }
  const std::string dir = test::scratch_dir("budget");
  const std::string chain = dir + "/oom_chain.json";
  std::ofstream(chain) << nlohmann::json{{"graphs", {{{"id", "g0"}, {"nodes", nodes}}}}}.dump();
  const auto r = test::run_shell("ulimit -v 110000; timeout 60 " + test::etviz_binary() + " view " +
                                 chain + " --max-nodes 200000000 -q -o " + dir + "/oom.html");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("etviz: error: out of memory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--max-nodes"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(Budget, LongJsonStringsAreRefusedPastTheLimit) {
  const std::string pt2 = write_program("long_string.pt2", 200 * 1024);
  const auto r = test::run_etviz("info " + pt2 + " --max-json-string 64K");
  expect_over(r, "--max-json-string");
  EXPECT_NE(r.err.find("JSON string at byte"), std::string::npos) << r.err;
}

// Fault 8: a 100 MB node name made `info` print 314 MB. Any string over kMaxShownText is cut.
TEST(Budget, ReportsCutLongStringsWithAVisibleMarker) {
  const size_t long_op = 200 * 1024;
  const std::string pt2 = write_program("long_op.pt2", long_op);
  const auto text = test::run_etviz("info " + pt2);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_LT(text.out.size(), long_op) << "the op name is not printed whole";
  EXPECT_NE(text.out.find("\u2026[+"), std::string::npos) << "marker shown";
  EXPECT_NE(text.out.find(std::string(1000, 'x')), std::string::npos) << "the start is kept";

  const auto json = test::run_etviz("info " + pt2 + " --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_LT(json.out.size(), long_op);
  const auto parsed = nlohmann::json::parse(json.out);  // still valid JSON
  EXPECT_NE(json.out.find("\u2026[+"), std::string::npos);
  EXPECT_FALSE(parsed.empty());

  EXPECT_EQ(shown_text(std::string(10, 'a'), 4), "aaaa\u2026[+6 bytes]");
  // Cut on a character boundary: "é" is two bytes.
  EXPECT_EQ(shown_text("a\xC3\xA9"
                       "bcdef",
                       2),
            "a\u2026[+7 bytes]");
  EXPECT_EQ(shown_text(std::string(1234567, 'a'), 0), "\u2026[+1,234,567 bytes]");
}

}  // namespace
}  // namespace etviz
