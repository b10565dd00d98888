#pragma once
#include <unistd.h>
// What every test suite needs, defined once: where the shared corpus is, loading a document
// with a test failure instead of a crash, scratch files in the build tree (never next to the
// corpus), whole-file reads and writes, and attribute lookup. Suite headers add only what is
// particular to their suite.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/document.h"
#include "formats/open_document.h"

namespace etviz::test {

// A path in ../shared/corpus, read in place.
inline std::string corpus(const std::string& relative) {
  return std::string(ETVIZ_CORPUS_DIR) + "/" + relative;
}

// Every file in a corpus folder ("pte", "etrecord", ...), sorted.
inline std::vector<std::string> corpus_files(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(corpus(folder)))
    if (e.is_regular_file()) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Opens a document; a failure is a test failure (with the reader's message) and an empty
// document, so the test goes on to report what else is wrong.
inline Document load(const std::string& path, const OpenOptions& options = {}) {
  auto doc = open_document(path, options);
  EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().message());
  return doc.ok() ? std::move(*doc) : Document{};
}

// A scratch directory for one suite under the build tree.
// Per process: ctest runs a suite's tests as parallel processes, and one test rewriting a file
// another has mapped would kill that one with SIGBUS.
inline std::string scratch_dir(const std::string& suite) {
  const auto dir = std::filesystem::path(ETVIZ_BINARY_DIR) / "tests" / suite / "scratch" /
                   std::to_string(static_cast<long>(::getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
inline void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

inline const Attribute* find_attr(const std::vector<Attribute>& attrs, const std::string& name) {
  for (const auto& a : attrs)
    if (a.name == name) return &a;
  return nullptr;
}
// The attribute's value, or "" when absent.
inline std::string attribute(const std::vector<Attribute>& attrs, const std::string& name) {
  const Attribute* a = find_attr(attrs, name);
  return a ? a->value : "";
}

}  // namespace etviz::test
