// Sizes from files are checked before arithmetic (the hostile-input issue, item 7): a tensor
// whose element count times element size overflows has an unknown byte size, never a
// negative or wrapped one (and no undefined behaviour: UBSan runs this suite).
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/budget.h"
#include "core/checked_math.h"
#include "export_model.h"
#include "export_writer.h"
#include "formats/open_document.h"
#include "test_support.h"

namespace etviz {
namespace {

TEST(HostileParse, TensorSizesThatOverflowAreUnknown) {
  gen::ExportModelSpec spec;
  spec.blocks = 1;
  spec.dim = 16;
  spec.hidden = 32;
  spec.symbolic_seq = false;
  gen::ExportProgram program = gen::build_export_transformer(spec);
  ASSERT_FALSE(program.graph.tensors.empty());
  // Near INT64_MAX elements of float32: 4 x that overflows int64.
  program.graph.tensors[0].sizes = {{INT64_MAX / 2, {}}, {1, {}}};
  const std::string path = test::scratch_dir("hostile") + "/huge.pt2";
  ASSERT_EQ(gen::write_pt2(path, {{"model", program}}, true), "");
  const Document doc = test::load(path);
  ASSERT_FALSE(doc.graphs.empty());
  bool found = false;
  for (const Value& v : doc.graphs[0].values) {
    if (v.kind != ValueKind::kTensor) continue;
    EXPECT_GE(v.tensor.nbytes, -1) << v.name;
    if (v.name == program.graph.tensors[0].name) {
      found = true;
      EXPECT_EQ(v.tensor.nbytes, -1) << "unknown, not wrapped";
      EXPECT_EQ(v.tensor.numel(), INT64_MAX / 2);
    }
  }
  EXPECT_TRUE(found);
}

TEST(HostileParse, CheckedArithmetic) {
  EXPECT_EQ(checked_mul(int64_t{INT64_MAX / 2}, int64_t{4}), std::nullopt);
  EXPECT_EQ(checked_mul(int64_t{1} << 31, int64_t{4}), int64_t{1} << 33);
  EXPECT_EQ(checked_add(uint64_t{UINT64_MAX}, uint64_t{1}), std::nullopt);
  EXPECT_EQ(checked_add(int64_t{-5}, int64_t{7}), 2);
  TensorInfo t;
  t.dtype = "float32";
  t.shape = {{3, {}}, {5, {}}};
  EXPECT_EQ(t.byte_size(), 60);
  t.dtype = "unknown_type";
  EXPECT_EQ(t.byte_size(), std::nullopt);
  EXPECT_EQ(t.byte_size(2), 30);
}

// A FlatTensor file whose header gives the flatbuffer zero bytes (found by fuzz_open_document:
// the root-table check read before the buffer) is an error, not a read past the end.
TEST(HostileParse, FlatTensorWithAnEmptyFlatbuffer) {
  std::vector<uint8_t> b(48, 0);
  std::memcpy(b.data() + 4, "FT01", 4);
  std::memcpy(b.data() + 8, "FH01", 4);
  const uint32_t length = 40;
  std::memcpy(b.data() + 12, &length, 4);
  for (uint64_t fb_size : {uint64_t{0}, uint64_t{3}}) {
    std::vector<uint8_t> bytes = b;
    std::memcpy(bytes.data() + 24, &fb_size, 8);
    auto doc = read_document(MappedFile::from_bytes("empty.ptd", bytes));
    ASSERT_FALSE(doc);
    EXPECT_NE(doc.error().message().find("too short for a root table"), std::string::npos)
        << doc.error().message();
  }
}

// A pass trace names snapshot files: only files in its own folder are read (absolute paths,
// `..` that climbs out and links out of the folder are refused with a warning), and no warning
// quotes the bytes of a file etviz did not recognise.
TEST(HostileParse, TraceSnapshotsStayInTheTracesFolder) {
  namespace fs = std::filesystem;
  const std::string root = test::scratch_dir("hostile_trace");
  const std::string dir = root + "/trace";
  fs::create_directories(dir + "/sub");
  std::ofstream(root + "/secret.txt") << "SECRET-BYTES root:x:0:0";
  std::ofstream(dir + "/junk.txt") << "JUNK-BYTES not a model";
  fs::copy_file(test::corpus("pte/pytorch__executorch__examples__arduino__examples__"
                             "KeywordSpotting__model.pte"),
                dir + "/sub/model.pte", fs::copy_options::overwrite_existing);
  fs::remove(dir + "/out_link.txt");
  fs::create_symlink(root + "/secret.txt", dir + "/out_link.txt");
  const std::string trace = dir + "/trace.json";
  std::ofstream(trace) << R"J({"format": "etviz.trace/1", "passes": [
    {"name": "abs", "file": ")J"
                       << root << R"J(/secret.txt"},
    {"name": "passwd", "file": "/etc/passwd"},
    {"name": "up", "file": "../secret.txt"},
    {"name": "sneaky", "file": "sub/../../secret.txt"},
    {"name": "link", "file": "out_link.txt"},
    {"name": "junk", "file": "junk.txt"},
    {"name": "inside", "file": "sub/../sub/model.pte"}]})J";
  auto doc = open_document(trace);
  ASSERT_TRUE(doc) << doc.error().message();
  ASSERT_EQ(doc->graphs.size(), 7u);
  std::string all;
  for (const Diagnostic& d : doc->diagnostics) all += d.message + "\n";
  for (const Graph& g : doc->graphs)
    if (g.failure) all += g.failure->message + "\n";
  EXPECT_EQ(all.find("SECRET-BYTES"), std::string::npos) << all;
  EXPECT_EQ(all.find("JUNK-BYTES"), std::string::npos) << all;
  EXPECT_EQ(all.find("root:"), std::string::npos) << all;
  EXPECT_NE(all.find("'/etc/passwd': an absolute path"), std::string::npos) << all;
  EXPECT_NE(all.find("'../secret.txt': outside the trace's folder"), std::string::npos) << all;
  EXPECT_NE(all.find("'sub/../../secret.txt': outside the trace's folder"), std::string::npos)
      << all;
  EXPECT_NE(all.find("'out_link.txt': a link out of the trace's folder"), std::string::npos) << all;
  EXPECT_NE(all.find("junk.txt: not a file etviz recognises"), std::string::npos) << all;
  // Only the program inside the folder was read and shown.
  EXPECT_FALSE(doc->graphs[6].failure) << doc->graphs[6].failure->message;
  EXPECT_GT(doc->graphs[6].nodes.size(), 0u);
  for (size_t k = 0; k < 6; ++k) EXPECT_EQ(doc->graphs[k].nodes.size(), 0u) << k;
}

// A trace naming one program 5,000 times reads it once (it mapped and parsed it per pass: 25 s
// and 4 GB for a 4 MB program), and the copies each pass holds count against --max-nodes
// before they are made.
TEST(HostileParse, TraceNamingOneProgramManyTimesReadsItOnce) {
  namespace fs = std::filesystem;
  const std::string dir = test::scratch_dir("hostile_trace_many");
  gen::ExportModelSpec spec;
  spec.blocks = 4;
  spec.dim = 64;
  spec.hidden = 128;
  ASSERT_EQ(
      gen::write_pt2(dir + "/model.pt2", {{"model", gen::build_export_transformer(spec)}}, true),
      "");
  fs::remove(dir + "/alias.pt2");
  fs::create_hard_link(dir + "/model.pt2", dir + "/alias.pt2");
  std::string passes;
  for (int k = 0; k < 5000; ++k)
    passes += std::string(k ? "," : "") + R"({"name": "p", "file": ")" +
              (k % 2 ? "alias.pt2" : "model.pt2") + "\"}";
  const std::string trace = dir + "/trace.json";
  std::ofstream(trace) << R"({"format": "etviz.trace/1", "passes": [)" << passes << "]}";
  const auto start = std::chrono::steady_clock::now();
  auto doc = open_document(trace);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(doc) << doc.error().message();
  EXPECT_EQ(doc->graphs.size(), 5000u);
  EXPECT_LT(seconds, 30.0);
  // Over the node budget: the usual error naming --max-nodes, before the copies are made.
  const uint64_t saved = run_budget().nodes;
  run_budget().nodes = 100000;
  auto over = open_document(trace);
  run_budget().nodes = saved;
  ASSERT_FALSE(over);
  EXPECT_NE(over.error().message().find("--max-nodes"), std::string::npos)
      << over.error().message();
}

}  // namespace
}  // namespace etviz
