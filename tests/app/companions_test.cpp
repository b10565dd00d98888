// How files dropped together on the app page pair (session/companions.h): roles from the
// bytes, as the CLI's --data, --etdump and --etrecord give them, on corpus files.
#include "session/companions.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/mapped_file.h"
#include "formats/open_document.h"
#include "test_support.h"

namespace etviz::session {
namespace {

using test::corpus;

const std::string kLinearPte =
    corpus("pte/pytorch__executorch__extension__module__test__resources__linear.29d0a214.pte");
const std::string kLinearPtd =
    corpus("ptd/pytorch__executorch__extension__module__test__resources__linear.29d0a214.ptd");
const std::string kBundled =
    corpus("bpte/pytorch__executorch__docs__source__tutorials_source__bundled_program.a59a06e0.bp");
const std::string kETDump =
    corpus("etdp/pytorch__executorch__docs__source__tutorials_source__etdump.etdp");
const std::string kETRecord =
    corpus("etrecord/pytorch__executorch__examples__devtools__scripts__etrecord.bin");
const std::string kPt2 =
    corpus("pt2/pytorch__executorch__extension__pt2_archive__test__linear.6f89131a.pt2");

TEST(Companions, WeightsJoinTheProgramWhateverTheOrder) {
  auto r = pair_companions({kLinearPtd, kLinearPte});
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->shown, std::vector<std::string>{kLinearPte}) << "the program is the page's file";
  EXPECT_EQ(r->data, std::vector<std::string>{kLinearPtd}) << "the .ptd is its --data";
  EXPECT_TRUE(r->etdump.empty());
  ASSERT_EQ(r->notes.size(), 1u);
  EXPECT_NE(r->notes[0].find("external weights of"), std::string::npos) << r->notes[0];
}

TEST(Companions, WeightsAloneAreAFileToLookAt) {
  auto r = pair_companions({kLinearPtd});
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->shown, std::vector<std::string>{kLinearPtd});
  EXPECT_TRUE(r->data.empty());
}

const std::string kEthosU = corpus(
    "pte/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
    "mobilenet_v2_ethosu__input.pte");
const std::string kEthosUTosa = corpus(
    "tosa/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
    "mobilenet_v2_ethosu__output_tag1_TOSA-1.0+INT+int16+u55.tosa");

// A TOSA file beside a program is a graph for one of its delegates (--tosa), alone a graph.
TEST(Companions, TosaGraphsJoinTheProgram) {
  auto r = pair_companions({kEthosUTosa, kEthosU});
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->shown, std::vector<std::string>{kEthosU});
  EXPECT_EQ(r->tosa, std::vector<std::string>{kEthosUTosa});
  ASSERT_EQ(r->notes.size(), 1u);
  EXPECT_EQ(r->notes[0], std::filesystem::path(kEthosUTosa).filename().string() +
                             ": TOSA graph for a delegate of " +
                             std::filesystem::path(kEthosU).filename().string());
  auto alone = pair_companions({kEthosUTosa});
  ASSERT_TRUE(alone) << alone.error().message();
  EXPECT_EQ(alone->shown, std::vector<std::string>{kEthosUTosa});
  EXPECT_TRUE(alone->tosa.empty());
  // The page the app writes for them shows the delegate's TOSA operators.
  PageSettings plain;
  plain.compress = false;
  auto page = page_from_files({kEthosUTosa, kEthosU}, {}, plain);
  ASSERT_TRUE(page) << page.error().message();
  EXPECT_NE(page->html.find("tosa_operations"), std::string::npos);
}

TEST(Companions, ProfileAndRecordJoinTheProgram) {
  auto r = pair_companions({kETRecord, kETDump, kBundled});
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->shown, std::vector<std::string>{kBundled}) << "only the program is shown";
  EXPECT_EQ(r->etdump, kETDump);
  EXPECT_EQ(r->etrecord, kETRecord) << "an ETRecord beside an ETDump is its --etrecord";
}

TEST(Companions, RecordWithoutProfileIsShownAndArchivesAreNotRecords) {
  auto r = pair_companions({kETRecord, kPt2, kLinearPte});
  ASSERT_TRUE(r) << r.error().message();
  ASSERT_EQ(r->shown.size(), 3u);
  EXPECT_EQ(r->shown[0], kLinearPte) << "the program goes first";
  EXPECT_TRUE(r->etrecord.empty());
}

TEST(Companions, ProfileWithoutProgramSaysWhatIsMissing) {
  auto r = pair_companions({kETDump});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("open it together with the program it ran"), std::string::npos)
      << r.error().message();
  auto two = pair_companions({kBundled, kETDump, kETDump});
  ASSERT_FALSE(two);
  EXPECT_NE(two.error().message().find("are both ETDumps"), std::string::npos);
}

TEST(Companions, PageFromFilesEqualsTheCliWiring) {
  PageSettings settings;
  settings.compress = false;
  auto paired = page_from_files({kLinearPtd, kLinearPte}, {}, settings);
  ASSERT_TRUE(paired) << paired.error().message();
  EXPECT_NE(paired->html.find("id=\"etviz-data\""), std::string::npos);
  EXPECT_EQ(paired->html.find("id=\"etviz-data-2\""), std::string::npos)
      << "the weights are not a second file";
  auto bad = page_from_files({kETDump}, {}, settings);
  EXPECT_FALSE(bad);
}

// A scratch JSON file for the pairing tests.
std::string json_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("etviz_companions_" + name);
  std::ofstream(path) << text;
  return path.string();
}

TEST(Companions, CategoriesAndGroupsFilesAreThePagesOptions) {
  const std::string cats =
      json_file("cats.json", R"({"rules": [{"match": "*linear*", "category": "compute"}]})");
  const std::string groups = json_file("groups.json", R"({"input_0": "front end"})");
  auto r = pair_companions({groups, kLinearPte, cats});
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->shown, std::vector<std::string>{kLinearPte}) << "the JSON files are not shown";
  EXPECT_EQ(r->categories, cats) << "read by side_files::parse_categories: --categories";
  EXPECT_EQ(r->groups, groups) << "{node: group}: --groups";
  EXPECT_EQ(r->notes.size(), 2u);
  // The page takes them as the CLI's options: the group is a box in the page data.
  PageSettings plain;
  plain.compress = false;
  const std::string kws =
      corpus("pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte");
  auto page = page_from_files({groups, kws}, {}, plain);
  ASSERT_TRUE(page) << page.error().message();
  EXPECT_NE(page->html.find("\"front end\""), std::string::npos) << "the group is in the page";
}

TEST(Companions, NodeDataIsThePagesNodeData) {
  const std::string values =
      json_file("values.json", R"({"results": {"input_0": {"value": 1.5}}})");
  const std::string kws =
      corpus("pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte");
  auto r = pair_companions({values, kws});
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->shown, std::vector<std::string>{kws});
  EXPECT_EQ(r->node_data, values) << "read by parse_node_data: --node-data";
  EXPECT_TRUE(r->groups.empty()) << "results are objects, not group names";
}

TEST(Companions, OtherJsonIsAFileAndOptionsAloneAreRefused) {
  const std::string not_groups = json_file("numbers.json", R"({"a": 1})");
  auto r = pair_companions({not_groups, kLinearPte});
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->shown.size(), 2u) << "neither categories nor groups: a file of the page";
  EXPECT_TRUE(r->groups.empty());
  const std::string cats = json_file("alone.json", R"({"colors": {"compute": "#112233"}})");
  auto alone = pair_companions({cats});
  ASSERT_FALSE(alone) << "a categories file colours another file";
  EXPECT_NE(alone.error().message().find("open it together with"), std::string::npos)
      << alone.error().message();
  const std::string cats2 = json_file("two.json", R"({"rules": []})");
  auto two = pair_companions({cats, kLinearPte, cats2});
  ASSERT_FALSE(two) << "one categories file per page";
}

}  // namespace
}  // namespace etviz::session

namespace etviz {
namespace {

// The app registers programs it read in part under their names; the readers open them as files.
TEST(MemoryFiles, RegisteredBytesOpenByPathWithoutACopy) {
  const std::string pte = test::corpus(
      "pte/pytorch__executorch__extension__module__test__resources__linear.29d0a214.pte");
  auto mapped = MappedFile::open(pte);
  ASSERT_TRUE(mapped) << mapped.error().message();
  register_memory_file(
      "linear-in-memory.pte",
      MappedFile::over_memory("linear-in-memory.pte", (*mapped)->bytes(), *mapped));
  auto again = MappedFile::open("linear-in-memory.pte");
  ASSERT_TRUE(again) << again.error().message();
  EXPECT_EQ((*again)->bytes().data(), (*mapped)->bytes().data()) << "the same bytes, not a copy";
  auto doc = open_document("linear-in-memory.pte");
  ASSERT_TRUE(doc) << doc.error().message();
  EXPECT_EQ(doc->format, DocumentFormat::kExecuTorchProgram);
  unregister_memory_file("linear-in-memory.pte");
  EXPECT_FALSE(MappedFile::open("linear-in-memory.pte")) << "gone once unregistered";
}

}  // namespace
}  // namespace etviz
