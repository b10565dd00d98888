// Core ML payload (inmemoryfs + ML Program protobuf): package files, metadata, the MIL
// operation census and weights, checked against a hand decode of the corpus file.
#include <gtest/gtest.h>

#include "analysis/delegation.h"
#include "formats/delegates/delegate_decoder.h"
#include "test_util.h"

namespace etviz::test {
namespace {

const char* kYolox = "pte/kadu-v__yolox-executorch-ios__engine__models__yolox_nano_coreml.pte";

TEST(CoreMl, YoloxNanoMlProgram) {
  Document doc = open_or_die(corpus(kYolox));
  auto subs = subgraphs(doc, "CoreMLBackend");
  ASSERT_EQ(subs.size(), 1u);
  const Graph& g = *subs[0];
  EXPECT_TRUE(doc.diagnostics.empty());
  EXPECT_FALSE(g.opaque);
  const auto& a = g.attributes;
  EXPECT_EQ(attribute(a, "specification_version"), "6");
  EXPECT_EQ(attribute(a, "model_type"), "mlProgram");
  EXPECT_EQ(attribute(a, "function"), "main");
  EXPECT_EQ(attribute(a, "opset"), "CoreML5");
  EXPECT_EQ(attribute(a, "operations"), "1147 (878 const)");
  EXPECT_EQ(attribute(a, "debug_symbols"), "1147");
  EXPECT_EQ(attribute(a, "inputNames"), "[\"x\"]");
  EXPECT_EQ(attribute(a, "outputNames"), "[\"aten_permute_copy_default\"]");
  EXPECT_EQ(attribute(a, "file:lowered_module/model.mlpackage/Data/com.apple.CoreML/model.mlmodel"),
            "240981");
  EXPECT_EQ(
      attribute(a, "file:lowered_module/model.mlpackage/Data/com.apple.CoreML/weights/weight.bin"),
      "1823424");
  EXPECT_EQ(attribute(a, "compile_spec.compute_units"), "all");
  EXPECT_EQ(op_histogram(g), (std::map<std::string, int>{{"conv", 113},
                                                         {"silu", 104},
                                                         {"concat", 18},
                                                         {"add", 7},
                                                         {"slice_by_index", 6},
                                                         {"sigmoid", 6},
                                                         {"transpose", 5},
                                                         {"max_pool", 3},
                                                         {"reshape", 3},
                                                         {"cast", 2},
                                                         {"gather_nd", 2}}));
  ASSERT_EQ(g.inputs.size(), 1u);
  EXPECT_EQ(g.values[g.inputs[0]].name, "x");
  EXPECT_EQ(g.values[g.inputs[0]].tensor.shape_string(), "[1, 3, 416, 416]");
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.values[g.outputs[0]].name, "aten_permute_copy_default");
  // The first weight blob: fp16, 3,456 bytes, metadata at 64 in weight.bin.
  bool found = false;
  int blobs = 0;
  for (const Value& v : g.values) {
    if (v.tensor.data_key.find("weight.bin@") == std::string::npos) continue;
    ++blobs;
    if (v.tensor.data_key.ends_with("weight.bin@64")) {
      found = true;
      EXPECT_EQ(v.tensor.nbytes, 3456);
      EXPECT_EQ(v.tensor.dtype, "float16");
    }
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(blobs, 220);
  // Debug handles come from debug_info.json.
  int with_handles = 0;
  for (const Node& n : g.nodes) with_handles += !n.provenance.debug_handles.empty();
  EXPECT_GT(with_handles, 200);

  auto info = analysis::delegation_info(doc);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->num_delegated_nodes, 269);
}

TEST(CoreMl, BrokenIndexIsAnError) {
  Document doc;
  Delegate del;
  del.backend_id = "CoreMLBackend";
  const std::string reversed_garbage = "}]{:\"sedon\"{";  // '{"nodes":[}' reversed: bad JSON
  std::vector<uint8_t> p(reversed_garbage.begin(), reversed_garbage.end());
  auto g = delegates::find_decoder("CoreMLBackend").decode({doc, del, p, "m/CoreMLBackend#0"});
  ASSERT_FALSE(g);
  std::vector<uint8_t> q = {'x', 'y', 'z'};
  EXPECT_FALSE(delegates::find_decoder("CoreMLBackend").decode({doc, del, q, "m/CoreMLBackend#0"}));
}

}  // namespace
}  // namespace etviz::test
