// The etviz binary as a user runs it: exit codes, stdout vs stderr, --json.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "test_support.h"

namespace {

using etviz::test::CliRun;
using etviz::test::corpus;

CliRun run(const std::string& args) {
  return etviz::test::run_etviz(args);
}

TEST(Cli, Version) {
  CliRun r = run("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("etviz "), std::string::npos);
}

TEST(Cli, InfoHelp) {
  CliRun r = run("info --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--json"), std::string::npos);
}

TEST(Cli, InfoTable) {
  CliRun r = run(
      "info " +
      corpus("pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("cortex_m::quantized_conv2d.out"), std::string::npos);
  EXPECT_NE(r.out.find("memory id 1"), std::string::npos);
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(Cli, InfoJsonIsOneDocumentedObject) {
  CliRun r = run("info --json " + corpus("pte/"
                                         "corey-cole__djl-executorch-engine__src__test__resources__"
                                         "models__stress__stress_mlp.6d3450d6.pte"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "etviz.info/1");
  EXPECT_EQ(j["format"], "executorch_program");
  ASSERT_EQ(j["methods"].size(), 1u);
  EXPECT_EQ(j["methods"][0]["name"], "forward");
  EXPECT_EQ(j["methods"][0]["instruction_count"], 14);
  EXPECT_EQ(j["methods"][0]["instructions"]["delegate"], 2);
  EXPECT_EQ(j["backends"][0]["backend"], "XnnpackBackend");
  EXPECT_EQ(j["backends"][0]["delegates"], 2);
  EXPECT_EQ(j["named_data"]["count"], 20);
  uint64_t total = 0;
  for (const auto& s : j["sections"]) total += s["size"].get<uint64_t>();
  EXPECT_EQ(total, j["file_size"].get<uint64_t>());
}

TEST(Cli, InfoMethodFilterAndUnknownMethod) {
  const std::string qnn = corpus(
      "pte/"
      "pytorch__executorch__examples__qualcomm__oss_scripts__llama__artifacts__stories260k_hybrid_"
      "llama_qnn.pte");
  CliRun ok = run("info --json --method kv_forward " + qnn);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(nlohmann::json::parse(ok.out)["methods"].size(), 1u);
  CliRun bad = run("info --method nope " + qnn);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("no method named 'nope'"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("kv_forward"), std::string::npos);
  EXPECT_EQ(bad.err.find("QnnBackend#"), std::string::npos) << "decoded payloads are not methods";
}

TEST(Cli, BundledProgramTestCases) {
  CliRun r = run(
      "info " +
      corpus(
          "bpte/pytorch__executorch__docs__source__tutorials_source__bundled_program.a59a06e0.bp"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("method 'forward': 2 test cases"), std::string::npos) << r.out;
}

TEST(Cli, PreReleaseProgramIsRefusedWithAReason) {
  const std::string path =
      corpus("pte/pytorch__executorch__exir__backend__test__add_mul.be659019.ff");
  CliRun r = run("info " + path);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find(path), std::string::npos);
  EXPECT_NE(r.err.find("ET02"), std::string::npos);
}

TEST(Cli, MissingFile) {
  CliRun r = run("info /nonexistent/model.pte");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/nonexistent/model.pte"), std::string::npos);
}

TEST(Cli, MissingExternalTensorsAreReported) {
  CliRun r = run(
      "info --data " +
      corpus(
          "ptd/"
          "barakugav__executorch-rs__examples__data_map__model___default_external_constant.ptd") +
      " " +
      corpus("pte/pytorch__executorch__extension__module__test__resources__linear.29d0a214.pte"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("external tensor 'linear.weight' is not in"), std::string::npos) << r.out;
}

TEST(Cli, WritesToOutputFile) {
  const std::string out = std::string(ETVIZ_BINARY_DIR) + "/cli_test_info.json";
  CliRun r =
      run("info --json -o " + out + " " +
          corpus("pte/pytorch__executorch__examples__arduino__examples__AddModel__model.pte"));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.out.empty());
  FILE* f = fopen(out.c_str(), "r");
  ASSERT_TRUE(f);
  fclose(f);
}

}  // namespace

namespace {

TEST(Cli, UnknownCommandIsRefusedWithTheList) {
  // A mistyped command must not be taken for a file to view (it used to print view's help).
  CliRun help = run("diffx --help");
  EXPECT_EQ(help.exit_code, 2);
  EXPECT_EQ(help.out, "");
  EXPECT_NE(help.err.find("unknown command 'diffx'"), std::string::npos) << help.err;
  EXPECT_NE(help.err.find("info"), std::string::npos);
  EXPECT_NE(help.err.find("delegation"), std::string::npos);
  CliRun two = run("diffx a b");
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.err.find("unknown command"), std::string::npos) << two.err;
  // A word spelt like a path is a file to view, and a missing one says so.
  CliRun missing = run("no_such_model.pte");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("no_such_model.pte"), std::string::npos) << missing.err;
}

TEST(Cli, ViewRefusesPictureExtensions) {
  const std::string out = std::string(ETVIZ_BINARY_DIR) + "/cli_view_refused.svg";
  std::remove(out.c_str());
  CliRun r = run(corpus("pte/pytorch__executorch__add.42766462.pte") + " -o " + out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("etviz export"), std::string::npos) << r.err;
  EXPECT_FALSE(std::ifstream(out).good());  // nothing written
}

}  // namespace

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every command that writes takes -o the same way: the result goes to the file, not stdout, and
// is what the command prints to stdout without -o (commands whose output is a page or picture
// only check the file).
TEST(Cli, EveryCommandThatWritesHonoursDashO) {
  const std::string dir = std::string(ETVIZ_BINARY_DIR) + "/tests/cli_dash_o";
  std::filesystem::create_directories(dir);
  const std::string tutorial = corpus(
      "bpte/pytorch__executorch__docs__source__tutorials_source__bundled_program.a59a06e0.bp");
  const std::string kws =
      corpus("pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte");
  const std::string dnf = corpus("pte/berndporr__dnf_executorch__dnf.47145c4a.pte");
  const std::string dnf2 = corpus("pte/berndporr__dnf_executorch__dnf.d1aa57fe.pte");
  const std::string etdump =
      corpus("etdp/pytorch__executorch__docs__source__tutorials_source__etdump.etdp");
  struct Case {
    std::string args, file;
    bool same_as_stdout;  // export writes a file by default: its stdout form is `-o -`
  };
  const std::vector<Case> cases = {
      {"info " + kws, "info.txt", true},
      {"info " + kws + " --json", "info.json", true},
      {"delegation " + dnf, "delegation.txt", true},
      {"delegation " + tutorial + " --graph", "graph.txt", true},
      {"profile " + etdump + " --pte " + tutorial + " --format csv", "profile.csv", true},
      {"diff " + dnf + " " + dnf2 + " --format json", "diff.json", true},
      {"memory " + kws, "memory.txt", true},
      {"size " + kws + " --format json", "size.json", true},
      {"export " + tutorial + " --format graph-json -q", "graph.json", true},
      {"export " + tutorial + " -q", "picture.svg", true},
      {"view " + kws + " -q", "page.html", false},
      {"diff " + dnf + " " + dnf2, "diff.html", false},
      {"trace " + dnf + " " + dnf2, "passes.html", false},
      // A trace file is written beside its snapshots (Timeline.TraceCommandWritesATraceThat...
      // writes one with -o); these are outside the scratch folder, so only the page form here.
      {"app -q", "app.html", false},
  };
  for (const Case& c : cases) {
    const std::string out = dir + "/" + c.file;
    std::filesystem::remove(out);
    const CliRun written = run(c.args + " -o " + out);
    EXPECT_EQ(written.exit_code, 0) << c.args << ": " << written.err;
    EXPECT_EQ(written.out, "") << c.args << " -o " << c.file << " wrote to stdout";
    ASSERT_TRUE(std::filesystem::exists(out)) << c.args << " -o " << c.file << " wrote no file";
    const std::string text = slurp(out);
    EXPECT_GT(text.size(), 20u) << c.args;
    if (c.same_as_stdout) {
      const bool export_cmd = c.args.rfind("export ", 0) == 0;
      const CliRun printed = run(c.args + (export_cmd ? " -o -" : ""));
      EXPECT_EQ(printed.exit_code, 0) << c.args;
      EXPECT_EQ(text, printed.out) << c.args;
    }
  }
}

}  // namespace
