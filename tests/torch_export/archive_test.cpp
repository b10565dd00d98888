// Generated .pt2 (both layouts, several models) and .etrecord archives.
#include <gtest/gtest.h>

#include <algorithm>

#include "export_model.h"
#include "formats/open_document.h"
#include "test_util.h"

namespace etviz::torch_export::testing {
namespace {

gen::ExportProgram small(int blocks, bool debug_handles = false) {
  gen::ExportModelSpec spec;
  spec.blocks = blocks;
  spec.dim = 8;
  spec.hidden = 16;
  spec.debug_handles = debug_handles;
  return gen::build_export_transformer(spec);
}

TEST(Pt2Archive, Layout2024) {
  const std::string path = scratch("layout2024.pt2");
  ASSERT_EQ(gen::write_pt2(path, {{"model", small(1)}}, /*new_layout=*/false, "mymodel"), "");
  auto doc = open_document(path);
  ASSERT_TRUE(doc.ok()) << doc.error().message();
  EXPECT_EQ(doc->format, DocumentFormat::kPt2);
  EXPECT_EQ(doc->format_version, "pt2 archive (2024 layout), schema 8.12");
  ASSERT_EQ(doc->graphs.size(), 1u);
  EXPECT_EQ(doc->graphs[0].name, "exported_program");
  EXPECT_EQ(find_attr(doc->properties, "version")->value, "1");
  EXPECT_EQ(find_attr(doc->properties, "serialized_state_dict.json")->value, "64 bytes (not read)");
  // Parameters are named by their fully qualified names from the graph signature, the user
  // input and output by theirs, not by placeholder names (p_layers_0_..., arg0_1).
  const Graph& g = doc->graphs[0];
  std::vector<std::string> constants;
  for (const Node& n : g.nodes)
    if (n.kind == NodeKind::kConstant) constants.push_back(n.name);
  ASSERT_EQ(constants.size(), 9u);  // one block: 4 attention, 3 feed-forward, 2 norm weights
  for (const char* fqn : {"layers.0.attention.wq.weight", "layers.0.attention_norm.weight",
                          "layers.0.feed_forward.w2.weight"})
    EXPECT_NE(std::find(constants.begin(), constants.end(), fqn), constants.end()) << fqn;
  const auto input = std::find_if(g.nodes.begin(), g.nodes.end(),
                                  [](const Node& n) { return n.kind == NodeKind::kInput; });
  ASSERT_NE(input, g.nodes.end());
  EXPECT_EQ(input->name, "x");
}

TEST(Pt2Archive, NewLayoutWithSeveralModelsAndWeights) {
  const std::string path = scratch("two_models.pt2");
  ASSERT_EQ(gen::write_pt2(path, {{"encoder", small(1)}, {"decoder", small(2)}}, true, "pkg"), "");
  auto doc = open_document(path);
  ASSERT_TRUE(doc.ok()) << doc.error().message();
  ASSERT_EQ(doc->graphs.size(), 2u);
  ASSERT_NE(doc->find_graph("encoder"), nullptr);
  ASSERT_NE(doc->find_graph("decoder"), nullptr);
  // 9 parameters per block: encoder 9, decoder 18.
  EXPECT_EQ(doc->named_data.size(), 27u);
  const NamedBlob* w1 = nullptr;
  for (const auto& b : doc->named_data)
    if (b.key == "layers.1.feed_forward.w1.weight") w1 = &b;
  ASSERT_NE(w1, nullptr);
  ASSERT_TRUE(w1->tensor.has_value());
  EXPECT_EQ(w1->tensor->shape_string(), "[16, 8]");
  EXPECT_EQ(w1->blob.size, 16u * 8u * 4u);
  EXPECT_TRUE(w1->blob.valid());  // stored: referenced in place, not read
  EXPECT_EQ(find_attr(doc->properties, "archive_root")->value, "pkg");
}

TEST(ETRecordArchive, MapsAttachToEdgeNodes) {
  const std::string path = scratch("maps.etrecord");
  gen::ExportETRecord rec;
  rec.programs.push_back({"exported_program", small(1)});
  rec.programs.push_back({"edge_dialect_exported_program", small(1, /*debug_handles=*/true)});
  rec.debug_handle_map_json = R"({"forward": {"0": [1], "1": [2, 3]}})";
  rec.delegate_map_json =
      R"({"forward": {"5": {"name": "XnnpackBackend", "delegate_map": {"0": [4, 5], "1": [6]}}}})";
  rec.num_outs_map_json = R"({"forward": {"0": 1, "1": 2}})";
  rec.representative_inputs = true;
  ASSERT_EQ(gen::write_etrecord(path, rec), "");
  auto doc = open_document(path);
  ASSERT_TRUE(doc.ok()) << doc.error().message();
  ASSERT_EQ(doc->graphs.size(), 2u);
  ASSERT_TRUE(doc->etrecord.has_value());
  const ETRecordMaps& m = *doc->etrecord;
  EXPECT_EQ(m.debug_handles.at("forward").at(1), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(m.delegates.at("forward").at(5).backend, "XnnpackBackend");
  EXPECT_EQ(m.delegates.at("forward").at(5).debug_ids.at("0"), (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(m.instruction_num_outs.at("forward").at(1), 2);
  EXPECT_TRUE(m.has_representative_inputs);
  ASSERT_NE(m.handles_for("forward", 0), nullptr);
  EXPECT_EQ(*m.handles_for("forward", 0), std::vector<int64_t>{1});

  const Graph* edge = doc->find_graph("edge_dialect_exported_program");
  ASSERT_NE(edge, nullptr);
  const Node* h4 = nullptr;
  for (const Node& n : edge->nodes)
    if (n.provenance.debug_handles == std::vector<int64_t>{4}) h4 = &n;
  ASSERT_NE(h4, nullptr);
  EXPECT_EQ(find_attr(h4->attributes, "delegate")->value,
            "XnnpackBackend (instruction 5, delegate debug id 0)");
  const Node* h3 = nullptr;
  for (const Node& n : edge->nodes)
    if (n.provenance.debug_handles == std::vector<int64_t>{3}) h3 = &n;
  ASSERT_NE(h3, nullptr);
  EXPECT_EQ(find_attr(h3->attributes, "instruction")->value, "1");
}

}  // namespace
}  // namespace etviz::torch_export::testing
