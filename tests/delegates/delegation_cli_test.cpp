// `etviz delegation` end to end: formats, --graph, --method, exit codes and messages.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_run.h"
#include "test_support.h"

namespace {

using etviz::test::CliRun;
using etviz::test::corpus;

CliRun etviz(const std::string& args) {
  return etviz::test::run_etviz(args);
}

const char* kDnf = "pte/berndporr__dnf_executorch__dnf.47145c4a.pte";

TEST(DelegationCli, TableCsvJsonMarkdown) {
  CliRun table = etviz("delegation " + corpus(kDnf));
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("Total delegated subgraphs: 4\n"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("Number of delegated nodes: 10\n"), std::string::npos);
  EXPECT_NE(table.out.find("Number of non-delegated nodes: 8\n"), std::string::npos);
  EXPECT_NE(table.out.find("XNNStaticTranspose"), std::string::npos);

  CliRun csv = etviz("delegation --format csv " + corpus(kDnf));
  ASSERT_EQ(csv.exit_code, 0);
  EXPECT_EQ(csv.out.rfind(
                "op_type,occurrences_in_delegated_graphs,occurrences_in_non_delegated_graphs\n", 0),
            0u)
      << csv.out;
  EXPECT_NE(csv.out.find("\nTotal,10,8\n"), std::string::npos) << csv.out;

  CliRun json = etviz("delegation --format json " + corpus(kDnf));
  ASSERT_EQ(json.exit_code, 0);
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["num_delegated_subgraphs"], 4);
  EXPECT_EQ(j["num_delegated_nodes"], 10);
  EXPECT_EQ(j["delegates"].size(), 4u);
  EXPECT_EQ(j["delegates"][2]["nodes"], 5);

  CliRun md = etviz("delegation --format markdown " + corpus(kDnf));
  ASSERT_EQ(md.exit_code, 0);
  EXPECT_NE(md.out.find("| op_type | occurrences_in_delegated_graphs |"), std::string::npos);
}

TEST(DelegationCli, GraphAndErrors) {
  CliRun graph =
      etviz("delegation --graph " + corpus("pte/corey-cole__simple-torch-model__model.pte"));
  ASSERT_EQ(graph.exit_code, 0) << graph.err;
  EXPECT_NE(graph.out.find("[XnnpackBackend subgraph: forward/XnnpackBackend#1 (segment 2)]"),
            std::string::npos)
      << graph.out;

  CliRun missing = etviz("delegation " + corpus("pte/does-not-exist.pte"));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("does-not-exist.pte"), std::string::npos) << missing.err;

  CliRun method = etviz("delegation --method nope " + corpus(kDnf));
  EXPECT_EQ(method.exit_code, 1);
  EXPECT_NE(method.err.find("no method 'nope'"), std::string::npos) << method.err;
  EXPECT_NE(method.err.find("forward"), std::string::npos) << method.err;

  CliRun format = etviz("delegation --format xml " + corpus(kDnf));
  EXPECT_NE(format.exit_code, 0);
}

}  // namespace
