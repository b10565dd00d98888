// Damaged files (the hostile-input issue, "one bad part never loses the rest"): a program or
// weights file whose segment data is cut off by the end of the file opens with everything the
// flatbuffer says (methods, graphs, tensor names and layouts), the damage named as an error
// diagnostic; a truncation never opens silently as a whole file. Runs again under ASan+UBSan
// (label parser).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_support.h"

namespace etviz {
namespace {

Result<Document> read_cut(const std::string& name, const std::vector<uint8_t>& bytes, size_t n) {
  std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<long>(n));
  return read_document(MappedFile::from_bytes(name, cut), OpenOptions{});
}

// The last byte of the file that is not padding: a cut past it loses nothing.
uint64_t end_of_content(const Document& doc) {
  uint64_t end = 0;
  for (const Section& s : doc.sections)
    if (s.kind != "padding" && s.size > 0) end = std::max(end, s.offset + s.size);
  return end;
}

const Section* last_segment(const Document& doc) {
  const Section* last = nullptr;
  for (const Section& s : doc.sections)
    if (s.kind == "segment" && s.size > 0 && (!last || s.offset > last->offset)) last = &s;
  return last;
}

std::string error_text(const Document& doc) {
  std::string all;
  for (const Diagnostic& d : doc.diagnostics)
    if (d.severity == Severity::kError) all += d.message + "\n";
  return all;
}

// The program's own methods: name and node count each. (A delegate payload in the cut segment
// loses its decoded subgraph, and says so; the call into it stays.)
std::vector<std::pair<std::string, size_t>> methods(const Document& doc) {
  std::vector<std::pair<std::string, size_t>> out;
  for (const Graph& g : doc.graphs)
    if (g.kind == GraphKind::kMethod) out.emplace_back(g.name, g.nodes.size());
  return out;
}

// Every corpus program and weights file with segment data, cut in the middle of its last
// segment: the same methods and nodes as the whole file, the named data all listed, and an
// error diagnostic that says which segment and how many bytes are missing.
TEST(DamagedFiles, ACutOffSegmentLosesOnlyItsMissingBytes) {
  int files = 0;
  for (const char* folder : {"pte", "ptd"})
    for (const std::string& path : test::corpus_files(folder)) {
      const auto bytes = test::read_bytes(path);
      if (bytes.size() > (64u << 20)) continue;  // the cut copies the file
      auto whole = read_document(MappedFile::from_bytes("whole", bytes), OpenOptions{});
      if (!whole.ok() || whole->is_damaged()) continue;
      const Section* seg = last_segment(*whole);
      if (!seg || seg->size < 2 || seg->offset + seg->size > bytes.size()) continue;
      ++files;
      const size_t cut_at = seg->offset + seg->size / 2;
      auto doc = read_cut("cut.pte", bytes, cut_at);
      ASSERT_TRUE(doc.ok()) << path << ": " << doc.error().message();
      EXPECT_TRUE(doc->is_damaged()) << path << ": a cut-off segment is reported";
      const std::string errors = error_text(*doc);
      EXPECT_NE(errors.find("extends past the end"), std::string::npos) << path << errors;
      EXPECT_NE(errors.find(std::to_string(seg->offset + seg->size - cut_at)), std::string::npos)
          << path << ": the missing byte count is named\n"
          << errors;
      EXPECT_EQ(methods(*doc), methods(*whole)) << path << ": every method and node is shown";
      EXPECT_EQ(doc->named_data.size(), whole->named_data.size()) << path;
      EXPECT_EQ(doc->delegates.size(), whole->delegates.size()) << path;
      for (const NamedBlob& b : doc->named_data)
        EXPECT_LE(b.blob.offset + b.blob.size, cut_at) << path << ": no blob reaches past the cut";
    }
  EXPECT_GE(files, 20) << "programs and weights files with segment data in the corpus";
}

// A .pt2 or ETRecord cut anywhere in its central directory (a download that stopped near the
// end) opens from its members' local headers with every graph of the whole file, and says the
// directory is missing; cut inside a member, the members before it are kept.
TEST(DamagedFiles, ACutOffArchiveKeepsItsWholeMembers) {
  int files = 0;
  for (const char* folder : {"pt2", "etrecord"})
    for (const std::string& path : test::corpus_files(folder)) {
      const auto bytes = test::read_bytes(path);
      auto whole = read_document(MappedFile::from_bytes("whole", bytes), OpenOptions{});
      if (!whole.ok() || whole->graphs.empty()) continue;
      ++files;
      std::vector<std::pair<std::string, size_t>> graphs;
      for (const Graph& g : whole->graphs) graphs.emplace_back(g.name, g.nodes.size());
      for (const size_t cut : {bytes.size() - 1, bytes.size() - 22, bytes.size() * 99 / 100}) {
        auto doc = read_cut("cut.pt2", bytes, cut);
        ASSERT_TRUE(doc.ok()) << path << " cut at " << cut << ": " << doc.error().message();
        EXPECT_TRUE(doc->is_damaged()) << path << " cut at " << cut;
        EXPECT_NE(error_text(*doc).find("central directory is missing"), std::string::npos)
            << error_text(*doc);
        std::vector<std::pair<std::string, size_t>> got;
        for (const Graph& g : doc->graphs) got.emplace_back(g.name, g.nodes.size());
        EXPECT_EQ(got, graphs) << path << " cut at " << cut << ": every graph is shown";
      }
    }
  EXPECT_GE(files, 2) << "the corpus's .pt2 and ETRecord files with graphs";
}

// A truncation at any offset of a small file is an error, or shown as damaged, or cuts only
// trailing padding: never a silently partial document. Archives every 3rd offset (each cut
// parses the members' JSON again).
TEST(DamagedFiles, TruncationIsNeverSilent) {
  int files = 0;
  for (const char* folder : {"pte", "bpte", "ptd", "pt2", "etrecord"})
    for (const std::string& path : test::corpus_files(folder)) {
      const auto bytes = test::read_bytes(path);
      if (bytes.size() > 16384) continue;
      auto whole = read_document(MappedFile::from_bytes("whole", bytes), OpenOptions{});
      if (!whole.ok()) continue;
      ++files;
      const uint64_t content = end_of_content(*whole);
      const bool archive = std::string(folder) == "pt2" || std::string(folder) == "etrecord";
      for (size_t n = 0; n < bytes.size(); n += archive ? 3 : 1) {
        auto doc = read_cut("truncated.pte", bytes, n);
        if (!doc.ok()) {
          EXPECT_EQ(doc.error().message().rfind("truncated.pte", 0), 0u) << doc.error().message();
          continue;
        }
        if (!doc->is_damaged()) {
          EXPECT_GE(n, content) << path << " cut at " << n
                                << " opened as a whole file; content ends at " << content;
        }
      }
    }
  EXPECT_GE(files, 43);
}

}  // namespace
}  // namespace etviz
