// `etviz info` facts for exported programs and ETRecords (analysis::summarize + renderers).
#include "analysis/summary.h"

#include <gtest/gtest.h>

#include "export_model.h"
#include "formats/open_document.h"
#include "render/summary_report.h"
#include "test_util.h"

namespace etviz::torch_export::testing {
namespace {

TEST(ExportSummary, ModuleTreeParametersAndSymbolicDims) {
  const std::string path = scratch("summary.pt2");
  gen::ExportModelSpec spec;
  spec.blocks = 3;
  spec.dim = 8;
  spec.hidden = 16;
  ASSERT_EQ(gen::write_pt2(path, {{"model", gen::build_export_transformer(spec)}}, true), "");
  auto doc = open_document(path);
  ASSERT_TRUE(doc.ok()) << doc.error().message();
  auto s = analysis::summarize(*doc);
  ASSERT_TRUE(s.ok()) << s.error().message();
  ASSERT_EQ(s->programs.size(), 1u);
  const auto& p = s->programs[0];
  // Per block: 2 norms of [8] + 4 attention linears of [8, 8] + w1, w3 [16, 8] + w2 [8, 16].
  EXPECT_EQ(p.parameters, 27);
  EXPECT_EQ(p.parameter_elements, 3 * (2 * 8 + 4 * 64 + 3 * 128));
  EXPECT_EQ(p.parameter_bytes, 4 * p.parameter_elements);
  EXPECT_EQ(p.symbolic_dims, std::vector<std::string>{"s0 in [2, 2048]"});
  EXPECT_EQ(p.inputs.at(0).shape, "[1, s0, 8]");
  EXPECT_EQ(p.module_depth, 4);  // layers > layers.N > attention > wq
  EXPECT_EQ(p.module_count, 1 + 3 * 12);
  ASSERT_EQ(p.top_modules.size(), 1u);
  EXPECT_EQ(p.top_modules[0].path, "layers");
  EXPECT_EQ(p.top_modules[0].nodes, p.node_count);  // every call sits inside `layers`
  EXPECT_EQ(p.node_count, 3 * 32);
  const std::string text = render::summary_text(*s);
  EXPECT_NE(text.find("module tree: 37 modules, depth 4, 1 top-level"), std::string::npos) << text;
  EXPECT_NE(text.find("symbolic dims: s0 in [2, 2048]"), std::string::npos);
  const std::string json = render::summary_json(*s);
  EXPECT_NE(json.find("\"module_tree\""), std::string::npos);
}

TEST(ExportSummary, ETRecordMaps) {
  auto doc = open_document(corpus(kETRecord));
  ASSERT_TRUE(doc.ok());
  auto s = analysis::summarize(*doc);
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE(s->etrecord.has_value());
  EXPECT_EQ(s->etrecord->instructions, 0);
  ASSERT_EQ(s->programs.size(), 2u);
  EXPECT_EQ(s->programs[1].role, StageRole::kEdgeDialect);
  EXPECT_EQ(s->programs[1].nodes_with_debug_handle, 1);
  const std::string text = render::summary_text(*s);
  EXPECT_NE(text.find("ETRecord maps"), std::string::npos);
  auto one = analysis::summarize(*doc, "edge_dialect_exported_program");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->programs.size(), 1u);
}

}  // namespace
}  // namespace etviz::torch_export::testing
