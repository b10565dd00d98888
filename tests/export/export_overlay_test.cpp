// Overlays in `etviz export` (node data, the profile's heat), multi-page PDF and `etviz info`
// on Model Explorer graph JSON, run as a user runs them and read back by real parsers.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "analysis/heat_scale.h"
#include "cli_run.h"
#include "test_support.h"

namespace etviz::test {
namespace {

using Json = nlohmann::json;
const char* kSimple = "pte/corey-cole__simple-torch-model__model.pte";
const char* kBundled =
    "bpte/pytorch__executorch__docs__source__tutorials_source__bundled_program.a59a06e0.bp";
const char* kEtdump = "etdp/pytorch__executorch__docs__source__tutorials_source__etdump.etdp";
const char* kCoco =
    "json/google-ai-edge__model-explorer__src__example_node_data_providers__my_ndp__coco-ssd.json";
const char* kArmVgf =
    "json/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
    "mobilenet_v2_vgf__expected.json";

std::string out_path(const std::string& name) {
  return scratch_dir("export_overlay") + "/" + name;
}

// Node name -> the fill of its box, read from the SVG by Python's XML parser (the node's
// <title> is "name (op)" or "name").
std::map<std::string, std::string> svg_fills(const std::string& svg) {
  auto py = run_shell(
      "/usr/bin/python3 -c \"import sys, xml.etree.ElementTree as E; "
      "r = E.parse(sys.argv[1]).getroot(); ns = '{http://www.w3.org/2000/svg}'; "
      "[print(g.find(ns + 'title').text.split(' (')[0] + '\\t' + g.find(ns + 'rect').get('fill')) "
      "for g in r.iter(ns + 'g') if g.get('class', '').startswith('node')]\" " +
      svg);
  EXPECT_EQ(py.exit_code, 0) << py.err;
  std::map<std::string, std::string> out;
  std::istringstream lines(py.out);
  for (std::string line; std::getline(lines, line);) {
    const size_t tab = line.find('\t');
    if (tab != std::string::npos) out[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return out;
}

// Kernel and delegate nodes of every graph of the file (the method and its payloads), in
// graph order, names unique.
std::vector<std::string> kernel_names(const std::string& file) {
  const Document doc = load(file);
  std::vector<std::string> out;
  for (const Graph& g : doc.graphs)
    for (const Node& n : g.nodes)
      if ((n.kind == NodeKind::kKernel || n.kind == NodeKind::kDelegate) &&
          std::find(out.begin(), out.end(), n.name) == out.end())
        out.push_back(n.name);
  return out;
}

// "Pages:   12" of pdfinfo.
int pdf_pages(const std::string& pdf) {
  auto info = run_shell("pdfinfo " + pdf);
  std::smatch m;
  if (info.exit_code != 0 || !std::regex_search(info.out, m, std::regex(R"(Pages:\s+(\d+))")))
    return -1;
  return std::stoi(m[1]);
}

TEST(ExportNodeData, SvgBoxesTakeTheThresholdColoursAndTheLegendIsDrawn) {
  const auto names = kernel_names(corpus(kSimple));
  ASSERT_GE(names.size(), 3u);
  Json j;
  for (size_t k = 0; k < names.size(); ++k) j["results"][names[k]]["value"] = static_cast<int>(k);
  j["results"]["ghost_node"]["value"] = 7;
  j["thresholds"] = Json::array(
      {{{"value", 0}, {"bgColor", "#2e7d32"}}, {{"value", 1000}, {"bgColor", "orange"}}});
  const std::string nd = out_path("thresholds.json");
  const std::string body = j.dump();
  write_bytes(nd, std::vector<uint8_t>(body.begin(), body.end()));
  const std::string svg = out_path("nd.svg");
  auto r =
      run_etviz("export " + corpus(kSimple) + " --expand all --node-data " + nd + " -o " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("1 of " + std::to_string(names.size() + 1) + " keys name no node"),
            std::string::npos)
      << "unmatched keys are reported: " << r.err;
  EXPECT_NE(r.err.find("ghost_node"), std::string::npos) << r.err;
  const auto fills = svg_fills(svg);
  ASSERT_TRUE(fills.count(names[0])) << "the first op is drawn";
  EXPECT_EQ(fills.at(names[0]), "#2e7d32") << "value 0 <= 0: the first threshold";
  for (size_t k = 1; k < names.size(); ++k)
    if (fills.count(names[k])) {
      EXPECT_EQ(fills.at(names[k]), "#ffa500") << names[k];
    }
  const std::string text = read_text(svg);
  EXPECT_NE(text.find("class=\"legend\""), std::string::npos);
  EXPECT_NE(text.find("Node data \u00b7 thresholds.json"), std::string::npos);
  EXPECT_NE(text.find("\u2264 1000"), std::string::npos) << "threshold labels in the legend";

  // DOT carries the same fills.
  auto dot = run_etviz("export " + corpus(kSimple) + " --node-data " + nd + " --format dot -o -");
  ASSERT_EQ(dot.exit_code, 0) << dot.err;
  EXPECT_NE(dot.out.find("fillcolor=\"#2e7d32\""), std::string::npos);
}

TEST(ExportNodeData, BadNodeDataAndConflictingOverlaysAreRefused) {
  const std::string bad = out_path("bad_nd.json");
  const std::string text = R"({"results": {"x": {"value": 1, "bgColor": "blurple"}}})";
  write_bytes(bad, std::vector<uint8_t>(text.begin(), text.end()));
  struct Case {
    std::string args, message;
  };
  const std::string f = corpus(kSimple);
  for (const Case& c : std::vector<Case>{
           {"export " + f + " --node-data " + bad + " -o x.svg",
            bad + ": result 'x' bgColor: colour 'blurple'"},
           {"export " + f + " --node-data /nonexistent/nd.json -o x.svg", "/nonexistent/nd.json"},
           {"export " + f + " --node-data " + bad + " --etdump " + corpus(kEtdump) + " -o x.svg",
            "--etdump and --node-data both colour the nodes"},
           {"export " + f + " --node-data " + bad + " -o x.json",
            "Model Explorer loads a node data file itself"},
           {"export " + f + " --etrecord x.bin -o x.svg", "they need --etdump"},
           {"view " + f + " --node-data " + bad + " -o x.html", "colour 'blurple'"},
       }) {
    auto r = run_etviz(c.args);
    EXPECT_EQ(r.exit_code, 1) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
  }
}

TEST(ExportProfile, HeatColoursAreThePagesScaleAndTheHottestNodeIsTheHottestStep) {
  const std::string svg = out_path("heat.svg");
  auto r = run_etviz("export " + corpus(kBundled) + " --etdump " + corpus(kEtdump) + " -o " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto fills = svg_fills(svg);
  std::set<std::string> heat(analysis::kHeatLight.begin(), analysis::kHeatLight.end());
  int heated = 0;
  for (const auto& [name, fill] : fills) heated += heat.count(fill) > 0;
  EXPECT_GE(heated, 2) << "timed nodes are drawn in heat colours";
  // The largest average (etviz profile's own figures: instruction 3, the second
  // convolution) is the hottest step, and the only node in it.
  auto prof =
      run_etviz("profile " + corpus(kEtdump) + " --pte " + corpus(kBundled) + " --format json");
  ASSERT_EQ(prof.exit_code, 0) << prof.err;
  const Json p = Json::parse(prof.out);
  int64_t hottest = -1;
  double best = -1;
  for (const auto& e : p["events"])
    if (e["block"] == "Execute" && e.contains("node") && e["avg"].get<double>() > best) {
      best = e["avg"];
      hottest = e["instruction"];
    }
  EXPECT_EQ(hottest, 3);
  std::vector<std::string> hot;
  for (const auto& [name, fill] : fills)
    if (fill == analysis::kHeatLight.back()) hot.push_back(name);
  EXPECT_EQ(hot, std::vector<std::string>{"convolution_3"});
  const std::string text = read_text(svg);
  EXPECT_NE(text.find("Time \u00b7 avg per occurrence"), std::string::npos);

  // Dark theme, p90, log: the dark palette.
  const std::string dark = out_path("heat_dark.svg");
  auto d = run_etviz("export " + corpus(kBundled) + " --etdump " + corpus(kEtdump) +
                     " --theme dark --heat p90 --heat-scale log -o " + dark);
  ASSERT_EQ(d.exit_code, 0) << d.err;
  std::set<std::string> heat_dark(analysis::kHeatDark.begin(), analysis::kHeatDark.end());
  int dark_heated = 0;
  for (const auto& [name, fill] : svg_fills(dark)) dark_heated += heat_dark.count(fill) > 0;
  EXPECT_EQ(dark_heated, heated) << "the same nodes are timed in either theme";
  EXPECT_NE(read_text(dark).find("log scale"), std::string::npos);
}

TEST(ExportProfile, MeJsonWithAProfileWritesModelExplorerNodeDataNamingItsIds) {
  const std::string json = out_path("bp.json");
  auto r = run_etviz("export " + corpus(kBundled) + " --etdump " + corpus(kEtdump) + " -o " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string nd = out_path("bp.node_data.json");
  EXPECT_NE(r.err.find("wrote " + nd + " (Model Explorer node data: 14 nodes, avg in ticks)"),
            std::string::npos)
      << r.err;
  // Every key is a node id of its graph in the graph JSON, and the values are etviz
  // profile's averages: the largest is instruction 3's convolution.
  const Json graph = Json::parse(read_text(json));
  const Json data = Json::parse(read_text(nd));
  ASSERT_TRUE(data.contains("forward"));
  std::set<std::string> ids;
  for (const auto& g : graph["graphs"])
    if (g["id"] == "forward")
      for (const auto& n : g["nodes"]) ids.insert(n["id"]);
  std::string hottest;
  double best = -1;
  for (const auto& [key, result] : data["forward"]["results"].items()) {
    EXPECT_TRUE(ids.count(key)) << key;
    if (result["value"].get<double>() > best) {
      best = result["value"];
      hottest = key;
    }
  }
  EXPECT_EQ(data["forward"]["results"].size(), 14u);
  EXPECT_EQ(hottest, "convolution_3");
  EXPECT_EQ(data["forward"]["gradient"].size(), analysis::kHeatLight.size());
  // etviz reads both back: the graph JSON as a graph, the node data over it, every key matched.
  const std::string svg = out_path("bp_roundtrip.svg");
  auto back = run_etviz("export " + json + " --node-data " + nd + " -o " + svg);
  ASSERT_EQ(back.exit_code, 0) << back.err;
  EXPECT_EQ(back.err.find("name no node"), std::string::npos) << back.err;
  EXPECT_EQ(svg_fills(svg).at("convolution_3"), std::string(analysis::kHeatLight.back()));
  // To stdout there is no "beside": refused.
  auto out = run_etviz("export " + corpus(kBundled) + " --etdump " + corpus(kEtdump) +
                       " --format me-json -o -");
  EXPECT_EQ(out.exit_code, 1);
  EXPECT_NE(out.err.find("name the graph JSON with -o FILE.json"), std::string::npos) << out.err;
}

TEST(ExportPdf, ATallGraphIsSplitOverA4PagesWithLabelsAndOnePageWhenAsked) {
  const std::string pte = out_path("tall.pte");
  auto gen = run_shell(std::string(ETVIZ_BINARY_DIR) +
                       "/tools/gen/etviz-gen program --blocks 30 --dim 8 --hidden 8 --vocab 4 "
                       "--seq 1 -o " +
                       pte);
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  const std::string pdf = out_path("tall.pdf");
  auto r = run_etviz("export " + pte + " --expand all -o " + pdf);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex(R"((\d+) pages of 595 x 842 pt)"))) << r.err;
  const int pages = std::stoi(m[1]);
  EXPECT_GT(pages, 1);
  EXPECT_EQ(pdf_pages(pdf), pages);
  auto info = run_shell("pdfinfo " + pdf);
  EXPECT_NE(info.out.find("595.28 x 841.89 pts (A4)"), std::string::npos) << info.out;
  auto last = run_shell("pdftotext -f " + std::to_string(pages) + " -l " + std::to_string(pages) +
                        " " + pdf + " -");
  ASSERT_EQ(last.exit_code, 0);
  EXPECT_NE(last.out.find("page " + std::to_string(pages) + " of " + std::to_string(pages)),
            std::string::npos)
      << last.out;
  // The ops are text on the pages (not pictures of text).
  auto all = run_shell("pdftotext " + pdf + " -");
  EXPECT_NE(all.out.find("linear"), std::string::npos);

  const std::string letter = out_path("tall_letter.pdf");
  ASSERT_EQ(run_etviz("export " + pte + " --expand all --paper letter -q -o " + letter).exit_code,
            0);
  EXPECT_NE(run_shell("pdfinfo " + letter).out.find("612 x 792 pts (letter)"), std::string::npos);

  const std::string one = out_path("tall_one.pdf");
  auto o = run_etviz("export " + pte + " --expand all --pages one -o " + one);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.err.find("warning: the drawing is"), std::string::npos) << "scaled, and says so";
  EXPECT_EQ(pdf_pages(one), 1);

  // A small graph stays one page of its own size.
  auto small = run_etviz("export " + corpus(kSimple) + " -o " + out_path("small.pdf"));
  ASSERT_EQ(small.exit_code, 0) << small.err;
  EXPECT_EQ(small.err.find("pages of"), std::string::npos) << small.err;
}

// Operator nodes of one graph of a GraphCollection file: every node but Model Explorer's own
// input and output nodes (which become the graph's boundary), and its subgraph links.
std::pair<int, int> file_ops_and_links(const Json& graph) {
  int ops = 0, links = 0;
  for (const auto& n : graph["nodes"]) {
    const std::string id = n.value("id", ""), label = n.value("label", ""),
                      ns = n.value("namespace", "");
    const bool io = ns == "GraphInputs" || ns == "GraphOutputs" || label == "GraphInputs" ||
                    label == "Graph Inputs" || label == "GraphOutputs" ||
                    label == "Graph Outputs" || id == "GraphInputs" || id == "GraphOutputs";
    ops += !io;
    if (n.contains("subgraphIds")) links += static_cast<int>(n["subgraphIds"].size());
  }
  return {ops, links};
}

// `etviz info --json FILE` against the file itself: the same graphs in order, operator node
// counts and subgraph links; returns the info JSON.
Json expect_info_matches_file(const std::string& path) {
  auto j = run_etviz("info --json " + path);
  EXPECT_EQ(j.exit_code, 0) << j.err;
  const Json s = Json::parse(j.out);
  const Json file = Json::parse(read_text(path));
  const Json& graphs = file.is_array() ? file : file["graphs"];
  EXPECT_TRUE(s.contains("graphs")) << path;
  if (!s.contains("graphs")) return s;
  EXPECT_EQ(s["graphs"].size(), graphs.size()) << path;
  for (size_t k = 0; k < graphs.size() && k < s["graphs"].size(); ++k) {
    const auto [ops, links] = file_ops_and_links(graphs[k]);
    EXPECT_EQ(s["graphs"][k]["name"], graphs[k]["id"]) << path;
    EXPECT_EQ(s["graphs"][k]["nodes"], ops) << path << " " << graphs[k]["id"];
    EXPECT_EQ(static_cast<int>(s["graphs"][k]["subgraph_links"].size()), links) << path;
  }
  return s;
}

TEST(InfoModelExplorer, ListsEveryCorpusFilesGraphsWithTheirNodeCounts) {
  int files = 0;
  for (const std::string& path : corpus_files("json")) {
    expect_info_matches_file(path);
    ++files;
  }
  EXPECT_EQ(files, 6);
  // Model Explorer's own example: one graph, 302 operators, namespaces six deep.
  const Json coco = expect_info_matches_file(corpus(kCoco));
  ASSERT_EQ(coco["graphs"].size(), 1u);
  EXPECT_EQ(coco["graphs"][0]["nodes"], 302);
  EXPECT_EQ(coco["graphs"][0]["namespace_depth"], 6);
  EXPECT_EQ(coco["graphs"][0]["nested"], false);
  auto text = run_etviz("info " + corpus(kArmVgf));
  EXPECT_NE(text.out.find("Graphs (1, 0 linked as subgraphs; 186 operator nodes)"),
            std::string::npos)
      << text.out;
}

TEST(InfoModelExplorer, SubgraphLinksOfOurOwnExportAreListed) {
  // .pte -> me-json: the two XNNPACK payloads are linked from their delegate calls.
  const std::string json = out_path("simple_me.json");
  ASSERT_EQ(run_etviz("export -q " + corpus(kSimple) + " -o " + json).exit_code, 0);
  const Json s = expect_info_matches_file(json);
  ASSERT_EQ(s["graphs"].size(), 3u);
  EXPECT_EQ(s["graphs"][0]["name"], "forward");
  EXPECT_EQ(s["graphs"][0]["subgraph_links"].size(), 2u);
  EXPECT_EQ(s["graphs"][0]["nested"], false);
  EXPECT_EQ(s["graphs"][1]["nested"], true);
  EXPECT_EQ(s["graphs"][2]["nested"], true);
  EXPECT_EQ(s["graphs"][0]["subgraph_links"][0]["graph"], s["graphs"][1]["name"]);
  auto text = run_etviz("info " + json);
  EXPECT_NE(text.out.find("subgraph links (node -> graph)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("inside its caller"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace etviz::test
