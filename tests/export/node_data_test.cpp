// Model Explorer node data (`--node-data`): the file shapes Model Explorer writes (GraphNodeData,
// ModelNodeData), keys matched to corpus nodes by name and by output tensor name, the colours
// of gradients and thresholds, and bad files refused with what was expected.
#include "analysis/node_data.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/colour.h"
#include "formats/side_files/node_data_file.h"
#include "render/html/html_page.h"
#include "test_support.h"

namespace etviz::test {
namespace {

using Json = nlohmann::json;
using side_files::parse_node_data;
const char* kSimple = "pte/corey-cole__simple-torch-model__model.pte";
const char* kCoco =
    "json/google-ai-edge__model-explorer__src__example_node_data_providers__my_ndp__coco-ssd.json";

std::string hex(std::string_view css) {
  return parse_colour(css)->hex();
}

// Kernel and delegate nodes of the document's graph `name` (empty: of every graph: the method
// and its two XNNPACK payloads), names unique.
std::vector<std::string> op_names(const Document& doc, const std::string& name) {
  std::vector<std::string> out;
  for (const Graph& g : doc.graphs)
    if (name.empty() || g.name == name)
      for (const Node& n : g.nodes)
        if (n.kind == NodeKind::kKernel || n.kind == NodeKind::kDelegate) out.push_back(n.name);
  return out;
}

// The page `etviz view --node-data` writes for `doc`.
std::string render_page_with_node_data(const Document& doc, const side_files::NodeData& data) {
  const auto join = analysis::join_node_data(data, doc);
  render::html::PageOptions options;
  options.file_name = "model.pte";
  options.allow_compression = false;
  options.node_data = &join;
  auto page = render::html::write_html_page(doc, options);
  EXPECT_TRUE(page) << page.error().message();
  return page ? *page : "";
}

TEST(Colour, CssNamesAreTheBrowsersAndUnknownNamesAreRefused) {
  EXPECT_EQ(hex("red"), "#ff0000");
  EXPECT_EQ(hex("Green"), "#008000");  // CSS green, not X11's #00ff00
  EXPECT_EQ(hex("rebeccapurple"), "#663399");
  EXPECT_EQ(hex("grey"), hex("gray"));
  EXPECT_TRUE(parse_colour("transparent")->none());
  for (const char* bad : {"redd", "navy blue", "", "#12", "url(x)"}) {
    auto c = parse_colour(bad);
    ASSERT_FALSE(c) << bad;
    EXPECT_NE(c.error().message().find("CSS colour name"), std::string::npos);
  }
}

TEST(NodeDataReader, GraphNodeDataAndModelNodeDataShapes) {
  auto one = parse_node_data(
      R"({"results": {"a": {"value": 3}, "b": {"value": "conv", "bgColor": "red"}},
          "thresholds": [{"value": 10, "bgColor": "#00ff00"}, {"value": 5, "bgColor": "blue"}]})",
      "one.json");
  ASSERT_TRUE(one) << one.error().message();
  ASSERT_EQ(one->graphs.size(), 1u);
  const auto& g = one->graphs[0];
  EXPECT_TRUE(g.graph.empty());
  ASSERT_EQ(g.results.size(), 2u);
  EXPECT_EQ(*g.results[0].number, 3);
  EXPECT_EQ(g.results[1].text, "conv");
  EXPECT_EQ(g.results[1].bg->hex(), "#ff0000");
  ASSERT_EQ(g.thresholds.size(), 2u);
  EXPECT_EQ(g.thresholds[0].value, 5) << "thresholds are sorted by value";

  auto model = parse_node_data(
      R"({"main": {"results": {"x": {"value": 1}}}, "sub": {"results": {},
          "gradient": [{"stop": 1, "bgColor": "red"}, {"stop": 0, "bgColor": "white"}]}})",
      "model.json");
  ASSERT_TRUE(model) << model.error().message();
  ASSERT_EQ(model->graphs.size(), 2u);
  EXPECT_EQ(model->graphs[0].graph, "main");
  EXPECT_EQ(model->graphs[1].graph, "sub");
  EXPECT_EQ(model->graphs[1].gradient.front().stop, 0) << "stops are sorted";

  auto wrapped = parse_node_data(R"({"graphsData": {"main": {"results": {}}}})", "w.json");
  ASSERT_TRUE(wrapped) << wrapped.error().message();
  EXPECT_EQ(wrapped->graphs.at(0).graph, "main");
}

TEST(NodeDataReader, BadFilesNameTheFileTheKeyAndWhatWasExpected) {
  struct Case {
    const char* text;
    const char* says;
  };
  for (const Case& c : {
           Case{"[1, 2]", "expected Model Explorer node data"}, Case{"{}", "the object is empty"},
           Case{R"({"results": [1]})", "expected 'results', an object"},
           Case{R"({"results": {"n1": {"bgColor": "red"}}})", "result 'n1' has no 'value'"},
           Case{R"({"results": {"n1": {"value": 1, "bgColor": "reddish"}}})",
                "result 'n1' bgColor: colour 'reddish'"},
           Case{R"({"results": {"n1": {"value": 1, "bgColor": 7}}})", "is not a string"},
           Case{R"({"results": {}, "thresholds": [{"bgColor": "red"}]})",
                "threshold 0 has no numeric 'value'"},
           Case{R"({"results": {}, "thresholds": [{"value": 1}]})", "threshold 0 has no 'bgColor'"},
           Case{R"({"results": {}, "gradient": [{"stop": 1.5, "bgColor": "red"}]})",
                "gradient stop 0 has no 'stop' between 0 and 1"},
           Case{R"({"results": {}, "gradient": [{"stop": 0}, {"stop": 1}]})",
                "no stop with a 'bgColor'"},
           Case{R"({"g": {"nodes": []}})", "member 'g' has no 'results'"},
           Case{R"({"results": {"a": {"value": 1}})", "bad.json"},  // truncated JSON
       }) {
    auto r = parse_node_data(c.text, "bad.json");
    ASSERT_FALSE(r) << c.text;
    EXPECT_EQ(r.error().message().rfind("bad.json", 0), 0u) << r.error().message();
    EXPECT_NE(r.error().message().find(c.says), std::string::npos)
        << c.text << " -> " << r.error().message();
  }
  auto missing = side_files::read_node_data("/nonexistent/values.json");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("/nonexistent/values.json"), std::string::npos);
}

TEST(NodeDataJoin, GradientEndsTakeTheStopColoursOnCorpusNodes) {
  const Document doc = load(corpus(kSimple));
  const auto names = op_names(doc, "");
  ASSERT_GE(names.size(), 8u);
  Json j;
  for (size_t k = 0; k < names.size(); ++k)
    j["results"][names[k]]["value"] = static_cast<double>(k);
  j["results"]["not_a_node"]["value"] = 1000;  // matches nothing: must not stretch the scale
  j["gradient"] =
      Json::array({{{"stop", 0}, {"bgColor", "#0000ff"}}, {{"stop", 1}, {"bgColor", "#ff0000"}}});
  auto data = parse_node_data(j.dump(), "grad.json");
  ASSERT_TRUE(data) << data.error().message();
  const auto join = analysis::join_node_data(*data, doc);
  ASSERT_EQ(join.sets.size(), 1u);
  const auto& set = join.sets[0];
  EXPECT_EQ(set.scale, analysis::NodeDataScale::kGradient);
  EXPECT_EQ(set.matched, names.size()) << "every op name matches its node";
  EXPECT_EQ(set.unmatched, std::vector<std::string>{"not_a_node"});
  EXPECT_EQ(set.min, 0);
  EXPECT_EQ(set.max, static_cast<double>(names.size() - 1)) << "the scale spans matched keys";
  ASSERT_EQ(join.warnings.size(), 1u);
  EXPECT_NE(join.warnings[0].find("grad.json: 1 of " + std::to_string(names.size() + 1) +
                                  " keys name no node"),
            std::string::npos)
      << join.warnings[0];
  std::map<std::string, const analysis::NodeDatum*> by_key;
  for (const auto& d : join.nodes) by_key[d.key] = &d;
  ASSERT_EQ(by_key.size(), names.size());
  EXPECT_EQ(by_key[names.front()]->style->fill.hex(), "#0000ff") << "min value: stop 0";
  EXPECT_EQ(by_key[names.back()]->style->fill.hex(), "#ff0000") << "max value: stop 1";
  // In between: a mix of the two, with less red for smaller values.
  const auto& mid = by_key[names[names.size() / 2]]->style->fill;
  EXPECT_GT(mid.r, 0);
  EXPECT_GT(mid.b, 0);
  EXPECT_EQ(by_key[names.front()]->style->text.hex(), "#f5f7fa") << "light text on dark blue";
}

TEST(NodeDataJoin, ThresholdsOwnColoursAndStringLabels) {
  const Document doc = load(corpus(kSimple));
  const auto names = op_names(doc, "");
  ASSERT_GE(names.size(), 3u);
  Json j;
  j["results"][names[0]]["value"] = 1;
  j["results"][names[1]]["value"] = 50;  // above every threshold: no colour
  j["results"][names[2]] = {{"value", 2}, {"bgColor", "gold"}};
  j["thresholds"] = Json::array({{{"value", 10}, {"bgColor", "green"}}});
  auto data = parse_node_data(j.dump(), "t.json");
  ASSERT_TRUE(data);
  const auto join = analysis::join_node_data(*data, doc);
  std::map<std::string, const analysis::NodeDatum*> by_key;
  for (const auto& d : join.nodes) by_key[d.key] = &d;
  EXPECT_EQ(by_key[names[0]]->style->fill.hex(), "#008000");
  EXPECT_FALSE(by_key[names[1]]->style) << "above the last threshold: no colour (Model Explorer)";
  EXPECT_EQ(by_key[names[1]]->text, "50");
  EXPECT_EQ(by_key[names[2]]->style->fill.hex(), "#ffd700") << "the result's own bgColor wins";

  Json s;
  s["results"][names[0]]["value"] = "cpu";
  s["results"][names[1]]["value"] = "npu";
  s["results"][names[2]]["value"] = "cpu";
  auto labels = parse_node_data(s.dump(), "s.json");
  ASSERT_TRUE(labels);
  const auto lj = analysis::join_node_data(*labels, doc);
  EXPECT_EQ(lj.sets[0].scale, analysis::NodeDataScale::kLabels);
  ASSERT_EQ(lj.sets[0].legend.size(), 2u) << "one legend entry per distinct value";
  by_key.clear();
  for (const auto& d : lj.nodes) by_key[d.key] = &d;
  EXPECT_EQ(by_key[names[0]]->style->fill, by_key[names[2]]->style->fill);
  EXPECT_NE(by_key[names[0]]->style->fill.hex(), by_key[names[1]]->style->fill.hex());
}

TEST(NodeDataJoin, GraphIdsSelectTheirGraphAndUnknownOnesAreReported) {
  const Document doc = load(corpus(kSimple));
  const auto names = op_names(doc, "forward");
  Json j;
  j["forward"]["results"][names[0]]["value"] = 1;
  j["no_such_graph"]["results"][names[0]]["value"] = 2;
  auto data = parse_node_data(j.dump(), "m.json");
  ASSERT_TRUE(data);
  const auto join = analysis::join_node_data(*data, doc);
  ASSERT_EQ(join.nodes.size(), 1u);
  EXPECT_EQ(join.nodes[0].text, "1");
  EXPECT_EQ(doc.graphs[static_cast<size_t>(join.nodes[0].graph)].name, "forward");
  bool reported = false;
  for (const auto& w : join.warnings)
    reported =
        reported || (w.find("graph 'no_such_graph' is not a graph of") != std::string::npos &&
                     w.find("forward") != std::string::npos);
  EXPECT_TRUE(reported) << "the warning names the graph and lists the document's graphs";
}

TEST(NodeDataJoin, OutputTensorNamesMatchTheirProducerInModelExplorersOwnExample) {
  // Model Explorer's coco-ssd graph JSON names output tensors (tensor_name); node data keyed by
  // those names lands on the producing node, as Model Explorer matches them.
  const Document doc = load(corpus(kCoco));
  std::vector<std::pair<std::string, std::string>> tensor_to_node;  // value name -> node name
  for (const Graph& g : doc.graphs)
    for (const Node& n : g.nodes)
      for (const Argument& a : n.outputs) {
        const std::string& v = g.values[static_cast<size_t>(a.value)].name;
        if (!v.empty() && v != n.name && v.find(':') == std::string::npos &&
            tensor_to_node.size() < 20)
          tensor_to_node.push_back({v, n.name});
      }
  ASSERT_FALSE(tensor_to_node.empty()) << "the example names its output tensors";
  Json j;
  for (size_t k = 0; k < tensor_to_node.size(); ++k)
    j["results"][tensor_to_node[k].first]["value"] = static_cast<double>(k);
  auto data = parse_node_data(j.dump(), "coco_nd.json");
  ASSERT_TRUE(data);
  const auto join = analysis::join_node_data(*data, doc);
  EXPECT_EQ(join.sets[0].matched, tensor_to_node.size());
  std::set<std::string> nodes;
  for (const auto& d : join.nodes)
    nodes.insert(doc.graphs[static_cast<size_t>(d.graph)].nodes[static_cast<size_t>(d.node)].name);
  for (const auto& [tensor, node] : tensor_to_node) EXPECT_TRUE(nodes.count(node)) << tensor;
}

TEST(NodeDataHostile, OddValuesManyKeysAndMarkupInKeysStayData) {
  const Document doc = load(corpus(kSimple));
  const auto names = op_names(doc, "");
  ASSERT_GE(names.size(), 4u);
  // NaN and infinities (Python's json.dumps writes them), a duplicate key, markup in keys and
  // values, and 200,000 keys that name nothing.
  std::string text = "{\"results\": {";
  text += "\"" + names[0] + "\": {\"value\": NaN},";
  text += "\"" + names[1] + "\": {\"value\": Infinity},";
  text += "\"" + names[2] + "\": {\"value\": -Infinity},";
  text += "\"" + names[3] + "\": {\"value\": \"</script><b>x</b>\"},";
  text += "\"" + names[3] + "\": {\"value\": 5},";
  for (int k = 0; k < 200000; ++k) text += fmt::format("\"</script>{}\": {{\"value\": {}}},", k, k);
  text +=
      "\"last\": {\"value\": 1}}, \"gradient\": [{\"stop\": 0, \"bgColor\": \"white\"}, "
      "{\"stop\": 1, \"bgColor\": \"black\"}]}";
  auto data = parse_node_data(text, "hostile.json");
  ASSERT_TRUE(data) << data.error().message();
  const auto join = analysis::join_node_data(*data, doc);
  const auto& set = join.sets.at(0);
  EXPECT_EQ(set.unmatched.size(), 200001u);
  EXPECT_EQ(set.matched, 5u) << "the duplicate key counts as a result of its own";
  EXPECT_EQ(join.nodes.size(), 4u) << "one value per node: the first key wins";
  std::map<std::string, const analysis::NodeDatum*> by_key;
  for (const auto& d : join.nodes) by_key[d.key] = &d;
  EXPECT_EQ(by_key[names[0]]->text, "NaN");
  EXPECT_FALSE(by_key[names[0]]->style) << "NaN takes no colour";
  EXPECT_EQ(by_key[names[3]]->text, "</script><b>x</b>");
  // Infinite values do not stretch the scale (only finite ones span it).
  EXPECT_TRUE(std::isfinite(set.min) && std::isfinite(set.max));
  ASSERT_EQ(join.warnings.size(), 1u);
  EXPECT_LT(join.warnings[0].size(), 600u) << "the warning names a few keys, not 200,000";
  // In a page, the markup stays inside the JSON element.
  const std::string html_page = render_page_with_node_data(doc, *data);
  const size_t start = html_page.find("id=\"etviz-node-data\">");
  ASSERT_NE(start, std::string::npos);
  const size_t end = html_page.find("</script>", start);
  ASSERT_NE(end, std::string::npos);
  EXPECT_NE(html_page.substr(start, end - start).find("x"), std::string::npos);
  EXPECT_EQ(html_page.substr(start, end - start).find("<b>"), std::string::npos)
      << "markup in keys and values is escaped";
  const auto parsed = Json::parse(html_page.substr(start + 21, end - start - 21));
  EXPECT_EQ(parsed["sets"][0]["unmatchedCount"], 200001);
  EXPECT_EQ(parsed["sets"][0]["unmatched"].size(), 200u) << "the page lists the first 200";
}

}  // namespace
}  // namespace etviz::test
