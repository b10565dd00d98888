// Model Explorer graph JSON out: compared with what Arm's pte-adapter-model-explorer wrote for
// the same .pte files (its test expectations in the corpus), and structural promises every
// reader of the format relies on: unique node ids, edges that name nodes of their graph,
// subgraph links that name graphs of the collection, valid JSON whatever the names hold.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "render/export/model_explorer_json.h"
#include "test_support.h"

namespace etviz::test {
namespace {

using Json = nlohmann::json;
const std::string kArm =
    "arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__";

Json me_json(const Document& doc) {
  const std::string text = render::model_explorer_json(doc, {"input.pte", {}});
  return Json::parse(text);  // throws (failing the test) on invalid JSON
}

std::string attr(const Json& node, const std::string& key) {
  for (const auto& a : node["attrs"])
    if (a["key"] == key) return a["value"];
  return "";
}

// Every promise of the format, for any collection we write.
void expect_well_formed(const Json& j) {
  std::set<std::string> graph_ids;
  for (const auto& g : j["graphs"]) EXPECT_TRUE(graph_ids.insert(g["id"]).second) << g["id"];
  for (const auto& g : j["graphs"]) {
    std::set<std::string> ids;
    for (const auto& n : g["nodes"]) EXPECT_TRUE(ids.insert(n["id"]).second) << n["id"];
    for (const auto& n : g["nodes"]) {
      for (const auto& e : n["incomingEdges"])
        EXPECT_TRUE(ids.count(e["sourceNodeId"])) << g["id"] << ": " << e["sourceNodeId"];
      for (const auto& s : n["subgraphIds"]) EXPECT_TRUE(graph_ids.count(s)) << s;
    }
  }
}

// Operators of a graph by label, Model Explorer's own IO nodes and Vulkan descriptor nodes
// (Arm's) and our inputs, outputs and constants left out.
std::map<std::string, int> operators(const Json& g, bool ours) {
  std::map<std::string, int> h;
  for (const auto& n : g["nodes"]) {
    const std::string label = n["label"];
    if (ours) {
      const std::string kind = attr(n, "kind");
      if (kind == "input" || kind == "output" || kind == "constant") continue;
    } else if (label == "Graph Inputs" || label == "Graph Outputs" ||
               label == "VK_DESCRIPTOR_TYPE_TENSOR_ARM") {
      continue;
    }
    ++h[label];
  }
  return h;
}

TEST(MeJson, VgfProgramMatchesArmsAdapter) {
  Document doc = load(corpus("pte/" + kArm + "mobilenet_v2_vgf__input.pte"));
  const Json ours = me_json(doc);
  expect_well_formed(ours);
  const Json main =
      Json::parse(read_text(corpus("json/" + kArm + "mobilenet_v2_vgf__expected_main.json")));
  const Json delegates =
      Json::parse(read_text(corpus("json/" + kArm + "mobilenet_v2_vgf__expected.json")));
  ASSERT_EQ(ours["graphs"].size(), 2u);
  // The method: the same five nodes in the same order (Arm labels ops by their full name,
  // which we keep in the `op` attribute).
  const Json& m = ours["graphs"][0];
  EXPECT_EQ(m["id"], main["graphs"][0]["id"]);
  ASSERT_EQ(m["nodes"].size(), main["graphs"][0]["nodes"].size());
  const std::vector<std::string> arm_ops = {"quantized_decomposed::quantize_per_tensor",
                                            "VgfBackend",
                                            "quantized_decomposed::dequantize_per_tensor"};
  for (size_t k = 0; k < arm_ops.size(); ++k) {
    EXPECT_EQ(main["graphs"][0]["nodes"][k + 1]["label"], arm_ops[k]);
    EXPECT_NE(attr(m["nodes"][k + 1], "op").find(arm_ops[k].substr(arm_ops[k].find(':') + 2)),
              std::string::npos)
        << attr(m["nodes"][k + 1], "op");
  }
  // The delegate call links its payload's graph, as Arm's does.
  EXPECT_EQ(m["nodes"][2]["subgraphIds"].size(), 1u);
  EXPECT_EQ(m["nodes"][2]["subgraphIds"][0], ours["graphs"][1]["id"]);
  // The payload: the same 184 operators, label by label.
  const auto arm = operators(delegates["graphs"][0], false);
  EXPECT_EQ(operators(ours["graphs"][1], true), arm);
  int total = 0;
  for (const auto& [op, n] : arm) total += n;
  EXPECT_EQ(total, 184);
  // Arm's edges name SPIR-V constants it does not emit as nodes (1337 of 1534 dangle); ours
  // are nodes, so every edge resolves (expect_well_formed) and shapes travel on outputs.
  int dangling = 0;
  std::set<std::string> ids;
  for (const auto& n : delegates["graphs"][0]["nodes"]) ids.insert(n["id"].get<std::string>());
  for (const auto& n : delegates["graphs"][0]["nodes"])
    for (const auto& e : n["incomingEdges"]) dangling += ids.count(e["sourceNodeId"]) ? 0 : 1;
  EXPECT_EQ(dangling, 1337);
  bool shaped = false;
  for (const auto& n : ours["graphs"][1]["nodes"])
    for (const auto& o : n["outputsMetadata"])
      for (const auto& a : o["attrs"]) shaped = shaped || a["key"] == "tensor_shape";
  EXPECT_TRUE(shaped);
}

TEST(MeJson, EthosUProgramsMethodMatchesArmsAdapter) {
  for (const char* name : {"mobilenet_v2_ethosu", "mobilenet_v2_vgf_segments"}) {
    Document doc = load(corpus("pte/" + kArm + name + "__input.pte"));
    const Json ours = me_json(doc);
    expect_well_formed(ours);
    const Json main =
        Json::parse(read_text(corpus("json/" + kArm + name + "__expected_main.json")));
    const Json& a = main["graphs"][0];
    const Json& m = ours["graphs"][0];
    EXPECT_EQ(m["id"], a["id"]) << name;
    ASSERT_EQ(m["nodes"].size(), a["nodes"].size()) << name;
    // Node by node: Arm's op label is our `op` attribute's base (Graph Inputs/Outputs are our
    // input and output nodes).
    for (size_t k = 1; k + 1 < a["nodes"].size(); ++k) {
      std::string label = a["nodes"][k]["label"];
      label = label.substr(label.rfind(':') == std::string::npos ? 0 : label.rfind(':') + 1);
      EXPECT_NE(attr(m["nodes"][k], "op").find(label), std::string::npos) << name << " " << k;
    }
    EXPECT_EQ(attr(m["nodes"][0], "kind"), "input");
    EXPECT_EQ(attr(m["nodes"][m["nodes"].size() - 1], "kind"), "output");
  }
}

TEST(MeJson, HostileNamesStayValidJson) {
  Document doc = load(corpus("pte/corey-cole__simple-torch-model__model.pte"));
  for (Graph& g : doc.graphs)
    for (Node& n : g.nodes) n.name = "a\"b\\c\x01\xff</script>" + n.name;
  const Json j = me_json(doc);  // parses
  expect_well_formed(j);
  EXPECT_GT(j["graphs"].size(), 1u);
}

TEST(MeJson, ModulePathsBecomeNamespaces) {
  // Exported programs carry module scopes (nn_module_stack): they become '/'-separated
  // namespaces. A generated transformer (two blocks, a cond with two bodies) and the corpus's
  // ETRecords.
  const std::string pt2 = scratch_dir("me_json") + "/two_blocks.pt2";
  ASSERT_EQ(std::system((std::string(ETVIZ_BINARY_DIR) +
                         "/tools/gen/etviz-gen export --blocks 2 --dim 8 --hidden 8 --cond -o " +
                         pt2 + " 2>/dev/null")
                            .c_str()),
            0);
  std::vector<std::string> files = corpus_files("etrecord");
  files.push_back(pt2);
  size_t nested = 0;
  for (const std::string& f : files) {
    auto doc = open_document(f);
    if (!doc) continue;
    const Json j = me_json(*doc);
    expect_well_formed(j);
    for (const auto& g : j["graphs"])
      for (const auto& n : g["nodes"]) {
        const std::string ns = n["namespace"];
        EXPECT_EQ(ns.find('.'), std::string::npos) << ns;
        nested += ns.find('/') != std::string::npos ? 1 : 0;
      }
  }
  EXPECT_GT(nested, 0u);
}

// Round trip: .pte -> Model Explorer JSON -> etviz reads it back as a first-class input: the
// same graphs, operator nodes and tensor edges; the payload stays linked to its call.
TEST(MeJson, RoundTripThroughTheReader) {
  for (const std::string& name : {"pte/" + kArm + "mobilenet_v2_vgf__input.pte",
                                  std::string("pte/corey-cole__simple-torch-model__model.pte")}) {
    Document doc = load(corpus(name));
    const std::string path = scratch_dir("me_json") + "/round_trip.json";
    const std::string text = render::model_explorer_json(doc, {"x", {}});
    write_bytes(path, std::vector<uint8_t>(text.begin(), text.end()));
    Document back = load(path);
    EXPECT_EQ(back.format, DocumentFormat::kModelExplorerJson);
    auto ops = [](const Graph& g) {
      size_t n = 0, edges = 0;
      for (const Node& node : g.nodes)
        if (node.kind != NodeKind::kInput && node.kind != NodeKind::kOutput) ++n;
      for (const Value& v : g.values)
        if (v.producer >= 0 && g.nodes[static_cast<size_t>(v.producer)].kind != NodeKind::kInput)
          edges += v.consumers.size();
      return std::pair{n, edges};
    };
    std::vector<std::pair<size_t, size_t>> a, b;
    size_t linked_a = 0, linked_b = 0;
    for (const Graph& g : doc.graphs) {
      a.push_back(ops(g));
      for (const Node& n : g.nodes) linked_a += n.subgraph >= 0;
    }
    for (const Graph& g : back.graphs) {
      b.push_back(ops(g));
      for (const Node& n : g.nodes) linked_b += n.subgraph >= 0;
    }
    EXPECT_EQ(a, b) << name;
    EXPECT_EQ(linked_a, linked_b) << name;
    EXPECT_GT(linked_b, 0u) << name;
  }
}

TEST(MeJson, BadGraphJsonIsAClearErrorOrAPartialGraph) {
  const std::string dir = scratch_dir("me_json");
  auto open_text = [&](const std::string& text) {
    const std::string path = dir + "/bad.json";
    write_bytes(path, std::vector<uint8_t>(text.begin(), text.end()));
    return open_document(path);
  };
  // Truncated: an error naming the file and the byte offset.
  auto truncated = open_text(R"({"graphs": [{"id": "g", "nodes": [{"id": "a", "incomingEdges": [)");
  ASSERT_FALSE(truncated);
  EXPECT_NE(truncated.error().message().find("bad.json"), std::string::npos);
  // Dangling edge, duplicate id, missing subgraph, unknown fields: a graph with warnings.
  auto partial = open_text(
      R"({"label": "x", "extra": 1, "graphs": [{"id": "g", "nodes": [)"
      R"({"id": "a", "label": "relu", "namespace": "m/n", "subgraphIds": ["nope"], "what": [1]},)"
      R"({"id": "a", "label": "dup"},)"
      R"({"id": "b", "label": "add", "incomingEdges": [{"sourceNodeId": "a", "sourceNodeOutputId": "0",)"
      R"( "targetNodeInputId": "0"}, {"sourceNodeId": "ghost", "sourceNodeOutputId": "0", "targetNodeInputId": "1"}]}]}]})");
  ASSERT_TRUE(partial) << partial.error().message();
  ASSERT_EQ(partial->graphs.size(), 1u);
  EXPECT_EQ(partial->graphs[0].nodes.size(), 3u);
  EXPECT_EQ(partial->diagnostics.size(), 3u);       // duplicate, dangling edge, missing subgraph
  EXPECT_EQ(partial->graphs[0].groups.size(), 2u);  // m, m/n
  // Wrong shape of root: an error that says what was expected.
  auto wrong = open_text(R"({"nodes": [], "graphs": 3})");
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().message().find("expected Model Explorer graph JSON"), std::string::npos)
      << wrong.error().message();
  // Many nodes: read within the budget.
  std::string big = R"({"graphs": [{"id": "g", "nodes": [)";
  for (int i = 0; i < 200000; ++i)
    big += (i ? "," : "") + std::string(R"({"id":")") + std::to_string(i) + R"("})";
  big += "]}]}";
  auto many = open_text(big);
  ASSERT_TRUE(many) << many.error().message();
  EXPECT_EQ(many->graphs[0].nodes.size(), 200000u);
}

}  // namespace
}  // namespace etviz::test
