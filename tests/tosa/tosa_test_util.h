#pragma once
// Shared by the TOSA suites: the corpus files, and small TOSA graphs built in memory.
#include <map>
#include <string>
#include <vector>

#include "core/mapped_file.h"
#include "formats/open_document.h"
#include "test_support.h"
#include "tosa_writer.h"

namespace etviz::test {

inline const char* kCorpusTosa =
    "tosa/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
    "mobilenet_v2_ethosu__output_tag1_TOSA-1.0+INT+int16+u55.tosa";
inline const char* kCorpusEthosU =
    "pte/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
    "mobilenet_v2_ethosu__input.pte";

// Kernel nodes per op of a graph.
inline std::map<std::string, int> kernel_ops(const Graph& g) {
  std::map<std::string, int> h;
  for (const Node& n : g.nodes)
    if (n.kind == NodeKind::kKernel) ++h[n.op];
  return h;
}

inline int count_kind(const Graph& g, NodeKind kind) {
  int n = 0;
  for (const Node& node : g.nodes) n += node.kind == kind;
  return n;
}

// Reads TOSA bytes as a file named `name`.
inline Result<Document> read_tosa_bytes(const std::vector<uint8_t>& bytes,
                                        const std::string& name = "test.tosa") {
  return read_document(MappedFile::from_bytes(name, bytes));
}

// A one-block graph: input x [1, 4] int8 -> Add(x, c) -> Clamp -> output, c a CONST.
inline gen::TosaFileSpec small_graph() {
  using namespace gen;
  TosaBlockSpec b;
  b.tensors = {{"x", tosa_type::kInt8, {1, 4}, {}},
               {"c", tosa_type::kInt8, {1, 4}, {1, 2, 3, 0xFF}},
               {"sum", tosa_type::kInt8, {1, 4}, {}},
               {"y", tosa_type::kInt8, {1, 4}, {}}};
  TosaOpSpec clamp{tosa_op::kClamp, {"sum"}, {"y"}};
  clamp.min_val = {0x80};
  clamp.max_val = {0x7F};
  b.ops = {{tosa_op::kConst, {}, {"c"}}, {tosa_op::kAdd, {"x", "c"}, {"sum"}}, clamp};
  b.inputs = {"x"};
  b.outputs = {"y"};
  TosaFileSpec f;
  f.regions.push_back({"main", {b}});
  return f;
}

}  // namespace etviz::test
