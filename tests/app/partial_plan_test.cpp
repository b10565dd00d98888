// Which large files the app reads in part (src/wasm/partial_plan.h), decided from a file's head
// and tail before any memory is set aside: corpus files whole and cut off.
#include "wasm/partial_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_support.h"

namespace etviz::wasm {
namespace {

std::vector<uint8_t> corpus_bytes(const std::string& rel) {
  return test::read_bytes(test::corpus(rel));
}

bool reads_in_part(const std::vector<uint8_t>& file) {
  const std::span<const uint8_t> bytes(file);
  const size_t head = std::min<size_t>(PartialPlan::kHeadBytes, bytes.size());
  const size_t tail = std::min<size_t>(PartialPlan::kTailBytes, bytes.size());
  return PartialPlan::reads_in_part(bytes.first(head), bytes.last(tail));
}

const char* const kPt2 =
    "pt2/pytorch__executorch__extension__pt2_archive__test__linear.6f89131a.pt2";
const char* const kETRecord =
    "etrecord/pytorch__executorch__examples__devtools__scripts__etrecord.bin";
const char* const kProgram =
    "pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte";

TEST(PartialPlan, ArchivesWithTheirDirectoryAreReadInPart) {
  for (const char* rel : {kPt2, kETRecord}) {
    const std::vector<uint8_t> file = corpus_bytes(rel);
    ASSERT_FALSE(file.empty()) << rel;
    EXPECT_TRUE(reads_in_part(file)) << rel;
  }
}

TEST(PartialPlan, CutOffArchivesAreReadWhole) {
  // Without the end-of-central-directory record there is no directory to plan by: the app
  // reads the file whole and the readers find the members from their local headers, as the
  // CLI does (the app used to set the file's memory aside first, then fail to plan and need
  // the memory a second time to read it whole). The corpus .pt2 holds a second archive in a
  // member whose record sits 1,619 bytes before the end: not the file's own.
  for (const char* rel : {kPt2, kETRecord}) {
    std::vector<uint8_t> file = corpus_bytes(rel);
    ASSERT_GT(file.size(), 1u) << rel;
    file.pop_back();
    EXPECT_FALSE(reads_in_part(file)) << rel;
  }
}

TEST(PartialPlan, ProgramsAreReadInPartWholeOrCut) {
  std::vector<uint8_t> file = corpus_bytes(kProgram);
  ASSERT_FALSE(file.empty());
  EXPECT_TRUE(reads_in_part(file));
  file.resize(file.size() - 1000);  // its segments cut: the header and flatbuffer are there
  EXPECT_TRUE(reads_in_part(file));
}

}  // namespace
}  // namespace etviz::wasm
