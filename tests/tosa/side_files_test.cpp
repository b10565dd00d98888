// TOSA side files: attached to the delegate whose inputs and outputs they match, never by their
// place in the list; ties paired in the order given and reported; files that fit nowhere listed
// with the reason; the delegation figures count the attached operators.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "analysis/delegation.h"
#include "ethosu_command.h"
#include "formats/delegates/delegate_decoder.h"
#include "program_builder.h"
#include "tosa_test_util.h"

namespace etviz::test {
namespace {

const Graph* delegate_graph(const Document& doc, size_t d) {
  const int32_t g = doc.delegates.at(d).subgraph;
  return g >= 0 ? &doc.graphs[static_cast<size_t>(g)] : nullptr;
}

const SideFile* side_file(const Document& doc, const std::string& path) {
  for (const SideFile& f : doc.side_files)
    if (f.path == path) return &f;
  return nullptr;
}

TEST(TosaSideFiles, CorpusFileAttachesToItsDelegate) {
  Document plain = load(corpus(kCorpusEthosU));
  OpenOptions options;
  options.tosa_files = {corpus(kCorpusTosa)};
  Document doc = load(corpus(kCorpusEthosU), options);
  ASSERT_EQ(doc.delegates.size(), 1u);
  ASSERT_EQ(doc.side_files.size(), 1u);
  EXPECT_EQ(doc.side_files[0].delegate, 0);
  EXPECT_FALSE(doc.side_files[0].ambiguous);
  EXPECT_EQ(doc.side_files[0].note,
            "the TOSA graph of forward/EthosUBackend#0, matched by its inputs and outputs "
            "(takes [1, 3, 224, 224] int8, returns [1, 1000] int8)");
  const Graph* g = delegate_graph(doc, 0);
  ASSERT_NE(g, nullptr);
  EXPECT_FALSE(g->opaque);
  EXPECT_EQ(g->name, "forward/EthosUBackend#0");
  EXPECT_EQ(g->kind, GraphKind::kDelegate);
  EXPECT_EQ(g->stage.role, StageRole::kExecuTorch);
  EXPECT_EQ(count_kind(*g, NodeKind::kKernel), 203);
  // The command stream's summary stays beside the TOSA operators.
  const Graph* opaque = delegate_graph(plain, 0);
  ASSERT_NE(opaque, nullptr);
  ASSERT_TRUE(opaque->opaque);
  std::string npu;
  for (const Node& n : opaque->nodes) npu += attribute(n.attributes, "npu_operations");
  ASSERT_FALSE(npu.empty());
  EXPECT_EQ(attribute(g->attributes, "npu_operations"), npu);
  EXPECT_EQ(attribute(g->attributes, "tosa_operations"),
            "Add 10, AvgPool2D 1, Clamp 35, Const 546, ConstShape 20, Conv2D 36, "
            "DepthwiseConv2D 17, Rescale 83, Reshape 20, Transpose 1");
  EXPECT_EQ(attribute(g->attributes, "backend"), "EthosUBackend");
  EXPECT_EQ(attribute(g->attributes, "tosa_file"),
            std::filesystem::path(kCorpusTosa).filename().string());
  EXPECT_EQ(attribute(g->attributes, "payload_format"), "Vela bin stream");
  // The call opens it, with the same arguments as before.
  int calls = 0;
  for (const Graph& m : doc.graphs)
    for (const Node& n : m.nodes)
      if (n.kind == NodeKind::kDelegate) {
        ++calls;
        EXPECT_EQ(doc.subgraph_of(n), g);
        EXPECT_EQ(n.inputs.size(), 1u);
        EXPECT_EQ(n.outputs.size(), 1u);
      }
  EXPECT_EQ(calls, 1);
  // Constants are read from the side file when asked.
  ASSERT_EQ(g->constant_data.size(), 566u);
  const BlobRef& blob = g->constant_data.front().blob;
  ASSERT_GE(blob.source, 1);
  EXPECT_EQ(doc.sources[static_cast<size_t>(blob.source)]->path(), corpus(kCorpusTosa));
  EXPECT_EQ(doc.bytes(blob).size(), blob.size);
}

TEST(TosaSideFiles, DelegationCountsTheTosaOperators) {
  Document plain = load(corpus(kCorpusEthosU));
  OpenOptions options;
  options.tosa_files = {corpus(kCorpusTosa)};
  Document doc = load(corpus(kCorpusEthosU), options);
  auto before = analysis::delegation_info(plain);
  auto after = analysis::delegation_info(doc);
  ASSERT_TRUE(before && after);
  EXPECT_EQ(before->num_delegated_nodes, 0);
  EXPECT_EQ(before->num_opaque_subgraphs, 1);
  EXPECT_EQ(after->num_delegated_subgraphs, 1);
  EXPECT_EQ(after->num_opaque_subgraphs, 0);
  EXPECT_EQ(after->num_delegated_nodes, 203);
  EXPECT_EQ(after->num_non_delegated_nodes, before->num_non_delegated_nodes);
  ASSERT_EQ(after->delegates.size(), 1u);
  EXPECT_EQ(after->delegates[0].status, "decoded");
  EXPECT_EQ(after->delegates[0].nodes, 203);
  EXPECT_FALSE(after->delegates[0].npu_operations.empty());
  ASSERT_EQ(after->backends.size(), 1u);
  EXPECT_EQ(after->backends[0].delegated_nodes, 203);
  std::map<std::string, int64_t> delegated;
  for (const auto& op : after->operators)
    if (op.delegated) delegated[op.op_type] = op.delegated;
  EXPECT_EQ(delegated, (std::map<std::string, int64_t>{{"Add", 10},
                                                       {"AvgPool2D", 1},
                                                       {"Clamp", 35},
                                                       {"Conv2D", 36},
                                                       {"DepthwiseConv2D", 17},
                                                       {"Rescale", 83},
                                                       {"Reshape", 20},
                                                       {"Transpose", 1}}));
}

// A program of five Ethos-U partitions with their files (tags counting down, so name order is
// not delegate order), a decoy that matches nothing and a file that is not TOSA: however the
// list is shuffled, each file lands on its own delegate.
TEST(TosaSideFiles, AttachmentByInputsAndOutputsIsOrderFree) {
  const std::string dir = scratch_dir("tosa") + "/five";
  gen::EthosuSpec spec;
  spec.delegates = 5;
  spec.layers = 2;
  spec.height = spec.width = 8;
  spec.decoy = true;
  std::string error;
  std::vector<std::string> files = gen::write_ethosu_program(dir, spec, error);
  ASSERT_EQ(files.size(), 7u) << error;
  const std::string program = files[0];
  files.erase(files.begin());
  const std::string decoy = files.back();
  const std::string not_tosa = dir + "/notes.tosa";
  write_bytes(not_tosa, {'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd'});
  files.push_back(not_tosa);
  std::mt19937 rng(7);
  for (int round = 0; round < 12; ++round) {
    std::shuffle(files.begin(), files.end(), rng);
    OpenOptions options;
    options.tosa_files = files;
    Document doc = load(program, options);
    ASSERT_EQ(doc.delegates.size(), 5u);
    ASSERT_EQ(doc.side_files.size(), files.size());
    for (int k = 0; k < 5; ++k) {
      // Delegate k's file is output_tag<5 - k>.
      const std::string path =
          dir + "/output_tag" + std::to_string(5 - k) + "_TOSA-1.0+INT+u55.tosa";
      const SideFile* f = side_file(doc, path);
      ASSERT_NE(f, nullptr) << path;
      EXPECT_EQ(f->delegate, k) << path;
      EXPECT_FALSE(f->ambiguous);
      const Graph* g = delegate_graph(doc, static_cast<size_t>(k));
      ASSERT_NE(g, nullptr);
      EXPECT_FALSE(g->opaque);
      EXPECT_EQ(attribute(g->attributes, "tosa_file"),
                std::filesystem::path(path).filename().string());
      EXPECT_EQ(count_kind(*g, NodeKind::kKernel), 3 * 2 + 2);
    }
    const SideFile* d = side_file(doc, decoy);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->delegate, -1);
    EXPECT_NE(d->note.find("not attached: its graph takes [1, 5, 7, 7] int8, returns [1, 6, 7, 7] "
                           "int8; no delegate has these inputs and outputs"),
              std::string::npos)
        << d->note;
    const SideFile* n = side_file(doc, not_tosa);
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->delegate, -1);
    EXPECT_EQ(n->note, "not attached: not a TOSA flatbuffer (bytes 4..8 are 'o wo', not 'TOSA')");
    // The same words among the document's warnings.
    int warned = 0;
    for (const Diagnostic& diag : doc.diagnostics)
      warned += diag.severity == Severity::kWarning &&
                diag.message.find("not attached") != std::string::npos;
    EXPECT_EQ(warned, 2);
  }
  // A directory means its .tosa files.
  OpenOptions options;
  options.tosa_files = {dir};
  Document doc = load(program, options);
  EXPECT_EQ(doc.side_files.size(), 7u);
  auto info = analysis::delegation_info(doc);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->num_opaque_subgraphs, 0);
  EXPECT_EQ(info->num_delegated_nodes, 5 * (3 * 2 + 2));
  // The CPU kernels between partitions stay on the CPU.
  EXPECT_EQ(info->num_non_delegated_nodes, 5);
}

// Two delegates with the same inputs and outputs, and two files that fit both: paired in the
// order the files are given, and both reported as ambiguous.
TEST(TosaSideFiles, TiesAreBrokenByOrderAndReported) {
  gen::ProgramBuilder builder;
  gen::MethodBuilder& m = builder.method("forward");
  const std::vector<int32_t> shape{1, 4, 6, 6};
  auto x = m.tensor(gen::ScalarType::kInt8, shape);
  m.input(x);
  for (int k = 0; k < 2; ++k) {
    const int32_t d = m.add_delegate("EthosUBackend", {}, gen::vela_stream({shape}, {shape}, 2));
    auto y = m.tensor(gen::ScalarType::kInt8, shape);
    m.delegate_call(d, {x, y});
    x = y;
  }
  m.output(x);
  const std::string dir = scratch_dir("tosa") + "/tie";
  std::filesystem::create_directories(dir);
  const std::string program = dir + "/tie.pte";
  std::string error;
  ASSERT_TRUE(builder.write(program, {}, error)) << error;
  // One layer and three layers: same inputs and outputs, told apart by their operators.
  const std::string a = dir + "/a.tosa", b = dir + "/b.tosa";
  write_bytes(a, gen::write_tosa(gen::conv_partition(shape, 4, 1, 1)));
  write_bytes(b, gen::write_tosa(gen::conv_partition(shape, 4, 3, 2)));
  for (const auto& order : {std::vector<std::string>{a, b}, std::vector<std::string>{b, a}}) {
    OpenOptions options;
    options.tosa_files = order;
    Document doc = load(program, options);
    ASSERT_EQ(doc.side_files.size(), 2u);
    for (int k = 0; k < 2; ++k) {
      const SideFile* f = side_file(doc, order[static_cast<size_t>(k)]);
      ASSERT_NE(f, nullptr);
      EXPECT_EQ(f->delegate, k);
      EXPECT_TRUE(f->ambiguous);
      EXPECT_NE(f->note.find("chosen by the order the files were given (ambiguous"),
                std::string::npos)
          << f->note;
    }
    const int first_ops = order[0] == a ? 3 + 2 : 3 * 3 + 2;
    EXPECT_EQ(count_kind(*delegate_graph(doc, 0), NodeKind::kKernel), first_ops);
  }
  // Three files for two delegates: the third is listed with the reason.
  OpenOptions options;
  options.tosa_files = {a, b, a};
  auto doc = open_document(program, options);
  ASSERT_TRUE(doc) << doc.error().message();
  ASSERT_EQ(doc->side_files.size(), 3u);
  EXPECT_EQ(doc->side_files[2].delegate, -1);
  EXPECT_NE(doc->side_files[2].note.find("matches only delegates that files given before it took: "
                                         "forward/EthosUBackend#0 (by a.tosa), "
                                         "forward/EthosUBackend#1 (by b.tosa)"),
            std::string::npos)
      << doc->side_files[2].note;
}

// A damaged side file is listed, and the program opens without it.
TEST(TosaSideFiles, DamagedSideFileLeavesTheProgramAlone) {
  const std::string dir = scratch_dir("tosa") + "/damaged";
  std::filesystem::create_directories(dir);
  std::vector<uint8_t> bytes = read_bytes(corpus(kCorpusTosa));
  bytes.resize(bytes.size() / 2);
  const std::string cut = dir + "/cut.tosa";
  write_bytes(cut, bytes);
  OpenOptions options;
  options.tosa_files = {cut};
  Document doc = load(corpus(kCorpusEthosU), options);
  ASSERT_EQ(doc.side_files.size(), 1u);
  EXPECT_EQ(doc.side_files[0].delegate, -1);
  EXPECT_NE(doc.side_files[0].note.find("failed flatbuffer verification"), std::string::npos)
      << doc.side_files[0].note;
  const Graph* g = delegate_graph(doc, 0);
  ASSERT_NE(g, nullptr);
  EXPECT_TRUE(g->opaque);
  EXPECT_EQ(doc.sources.size(), 1u);
  // A path that does not exist is an error, as --data's is.
  options.tosa_files = {dir + "/missing.tosa"};
  EXPECT_FALSE(open_document(corpus(kCorpusEthosU), options).ok());
}

// A decoded VGF delegate is not replaced: the file is listed with why.
TEST(TosaSideFiles, DecodedDelegatesAreNotReplaced) {
  OpenOptions options;
  options.tosa_files = {corpus(kCorpusTosa)};
  Document doc = load(corpus("pte/arm__pte-adapter-model-explorer__src__pte_adapter_model_"
                             "explorer__tests__fixtures__mobilenet_v2_vgf__input.pte"),
                      options);
  ASSERT_EQ(doc.side_files.size(), 1u);
  EXPECT_EQ(doc.side_files[0].delegate, -1);
  EXPECT_NE(doc.side_files[0].note.find(
                "it matches forward/VgfBackend#0, whose payload is already decoded"),
            std::string::npos)
      << doc.side_files[0].note;
}

}  // namespace
}  // namespace etviz::test
