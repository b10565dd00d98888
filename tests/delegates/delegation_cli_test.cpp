// `etviz delegation` end to end: formats, --graph, --method, exit codes and messages.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

struct CliRun {
  int status = -1;
  std::string out, err;
};

CliRun etviz(const std::string& args) {
  // CTest runs tests in parallel, each in its own process: one stderr file per test.
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string err_file = std::string(ETVIZ_BINARY_DIR) + "/delegation_cli_stderr_" +
                               info->test_suite_name() + "_" + info->name() + ".txt";
  const std::string cmd =
      std::string(ETVIZ_BINARY_DIR) + "/src/cli/etviz " + args + " 2>" + err_file;
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int raw = pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream e(err_file);
  std::stringstream ss;
  ss << e.rdbuf();
  r.err = ss.str();
  return r;
}

std::string corpus(const std::string& name) {
  return std::string(ETVIZ_CORPUS_DIR) + "/" + name;
}

const char* kDnf = "pte/berndporr__dnf_executorch__dnf.47145c4a.pte";

TEST(DelegationCli, TableCsvJsonMarkdown) {
  CliRun table = etviz("delegation " + corpus(kDnf));
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("Total delegated subgraphs: 4\n"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("Number of delegated nodes: 10\n"), std::string::npos);
  EXPECT_NE(table.out.find("Number of non-delegated nodes: 8\n"), std::string::npos);
  EXPECT_NE(table.out.find("XNNStaticTranspose"), std::string::npos);

  CliRun csv = etviz("delegation --format csv " + corpus(kDnf));
  ASSERT_EQ(csv.status, 0);
  EXPECT_EQ(csv.out.rfind(
                "op_type,occurrences_in_delegated_graphs,occurrences_in_non_delegated_graphs\n", 0),
            0u)
      << csv.out;
  EXPECT_NE(csv.out.find("\nTotal,10,8\n"), std::string::npos) << csv.out;

  CliRun json = etviz("delegation --format json " + corpus(kDnf));
  ASSERT_EQ(json.status, 0);
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["num_delegated_subgraphs"], 4);
  EXPECT_EQ(j["num_delegated_nodes"], 10);
  EXPECT_EQ(j["delegates"].size(), 4u);
  EXPECT_EQ(j["delegates"][2]["nodes"], 5);

  CliRun md = etviz("delegation --format markdown " + corpus(kDnf));
  ASSERT_EQ(md.status, 0);
  EXPECT_NE(md.out.find("| op_type | occurrences_in_delegated_graphs |"), std::string::npos);
}

TEST(DelegationCli, GraphAndErrors) {
  CliRun graph =
      etviz("delegation --graph " + corpus("pte/corey-cole__simple-torch-model__model.pte"));
  ASSERT_EQ(graph.status, 0) << graph.err;
  EXPECT_NE(graph.out.find("[XnnpackBackend subgraph: forward/XnnpackBackend#1 (segment 2)]"),
            std::string::npos)
      << graph.out;

  CliRun missing = etviz("delegation " + corpus("pte/does-not-exist.pte"));
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("does-not-exist.pte"), std::string::npos) << missing.err;

  CliRun method = etviz("delegation --method nope " + corpus(kDnf));
  EXPECT_EQ(method.status, 1);
  EXPECT_NE(method.err.find("no method 'nope'"), std::string::npos) << method.err;
  EXPECT_NE(method.err.find("forward"), std::string::npos) << method.err;

  CliRun format = etviz("delegation --format xml " + corpus(kDnf));
  EXPECT_NE(format.status, 0);
}

}  // namespace
