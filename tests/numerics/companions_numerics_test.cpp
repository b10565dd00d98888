// Files dropped together on the app page (session/companions.h) with two runs: the first
// ETDump is the run, the second the reference, files of no known kind their debug buffers in
// the same order; the page they make carries the numerics overlay. Runs from etviz-gen.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "session/companions.h"

namespace etviz::session {
namespace {

namespace fs = std::filesystem;

class TwoRuns : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("etviz_companions_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    const std::string gen = ETVIZ_BINARY_DIR "/tools/gen/etviz-gen";
    const auto run = [&](const std::string& args) {
      ASSERT_EQ(std::system((gen + " " + args + " > /dev/null 2>&1").c_str()), 0) << args;
    };
    const std::string p = (dir_ / "p.pte").string();
    run("program --blocks 1 --dim 16 --hidden 32 --vocab 32 --heads 2 -o " + p);
    run("etdump --program " + p + " --runs 1 --debug-buffer " + path("ref.bin") + " -o " +
        path("ref.etdp"));
    run("etdump --program " + p + " --runs 1 --drift-from 9 --debug-buffer " + path("run.bin") +
        " -o " + path("run.etdp"));
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static std::string path(const char* name) { return (dir_ / name).string(); }
  static fs::path dir_;
};
fs::path TwoRuns::dir_;

TEST_F(TwoRuns, SortIntoRunReferenceAndBuffers) {
  auto r = pair_companions(
      {path("run.bin"), path("run.etdp"), path("p.pte"), path("ref.etdp"), path("ref.bin")});
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->shown, std::vector<std::string>{path("p.pte")});
  EXPECT_EQ(r->etdump, path("run.etdp"));
  EXPECT_EQ(r->reference, path("ref.etdp"));
  EXPECT_EQ(r->debug_buffer, path("run.bin"));
  EXPECT_EQ(r->reference_debug_buffer, path("ref.bin"));
  // One ETDump: a file of no known kind stays a file of its own.
  auto one = pair_companions({path("p.pte"), path("run.etdp"), path("run.bin")});
  ASSERT_TRUE(one) << one.error().message();
  EXPECT_TRUE(one->reference.empty());
  EXPECT_EQ(one->shown.size(), 2u);
}

TEST_F(TwoRuns, ThePageCarriesTheNumerics) {
  PageSettings plain;
  plain.compress = false;
  auto page = page_from_files(
      {path("p.pte"), path("run.etdp"), path("ref.etdp"), path("run.bin"), path("ref.bin")}, {},
      plain);
  ASSERT_TRUE(page) << page.error().message();
  EXPECT_NE(page->html.find("id=\"etviz-numerics\""), std::string::npos);
  EXPECT_NE(page->html.find("\"firstDivergent\""), std::string::npos);
}

TEST_F(TwoRuns, ThreeRunsAreTooMany) {
  auto r = pair_companions({path("p.pte"), path("run.etdp"), path("ref.etdp"), path("run.etdp")});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("are all ETDumps"), std::string::npos);
}

}  // namespace
}  // namespace etviz::session
