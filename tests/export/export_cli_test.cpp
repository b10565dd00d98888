// `etviz export` as a user runs it, the outputs read back by real parsers: Python's XML parser
// for SVG, Graphviz's `dot -Tjson` for DOT, poppler's pdfinfo/pdftotext for PDF (text stays
// text), and the bad-input paths.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "cli_run.h"
#include "test_support.h"

namespace etviz::test {
namespace {

const char* kSimple = "pte/corey-cole__simple-torch-model__model.pte";

std::string out_path(const std::string& name) {
  return scratch_dir("export_cli") + "/" + name;
}

// "etviz: wrote X (..., 21 boxes, 2 groups, 20 edges, 942 x 1064 px)" -> the numbers.
struct Wrote {
  int boxes = -1, groups = -1, edges = -1;
  double width = -1, height = -1;
};
Wrote wrote(const std::string& err) {
  Wrote w;
  std::smatch m;
  if (std::regex_search(err, m, std::regex(R"((\d+) boxes, (\d+) groups, (\d+) edges)"))) {
    w.boxes = std::stoi(m[1]);
    w.groups = std::stoi(m[2]);
    w.edges = std::stoi(m[3]);
  }
  if (std::regex_search(err, m, std::regex(R"(, (\d+) x (\d+) (px|pt)\))"))) {
    w.width = std::stod(m[1]);
    w.height = std::stod(m[2]);
  }
  return w;
}

TEST(ExportCli, SvgParsesAsXmlWithOneElementPerBox) {
  const std::string svg = out_path("simple.svg");
  auto r = run_etviz("export " + corpus(kSimple) + " --expand all -o " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Wrote w = wrote(r.err);
  ASSERT_GT(w.boxes, 0) << r.err;
  // Python's XML parser (expat) reads it; count the node and group elements and the texts.
  auto py = run_shell(
      "/usr/bin/python3 -c \"import sys, xml.etree.ElementTree as E; "
      "r = E.parse(sys.argv[1]).getroot(); ns = '{http://www.w3.org/2000/svg}'; "
      "gs = [g.get('class', '') for g in r.iter(ns + 'g')]; "
      "print(sum(c.startswith('node') for c in gs), sum(c.startswith('group') for c in gs), "
      "r.get('width'), r.get('height')); "
      "print('|'.join(t.text or '' for t in r.iter(ns + 'text')))\" " +
      svg);
  ASSERT_EQ(py.exit_code, 0) << py.err;
  std::istringstream lines(py.out);
  int nodes = 0, groups = 0;
  double width = 0, height = 0;
  lines >> nodes >> groups >> width >> height;
  EXPECT_EQ(nodes, w.boxes);
  EXPECT_EQ(groups, w.groups);
  EXPECT_EQ(width, w.width);
  EXPECT_EQ(height, w.height);
  // The delegate payloads' operators (facts of tests/delegates/xnnpack_test.cpp) are there.
  for (const char* op : {"XNNDepthwiseConv2d", "XNNConv2d", "XNNGlobalAvgPooling2d",
                         "XNNFullyConnected", "XNNStaticTranspose"})
    EXPECT_NE(py.out.find(std::string("|") + op + "|"), std::string::npos) << op;
}

TEST(ExportCli, DotIsReadByGraphvizWithClustersForOpenGroups) {
  const std::string dot = out_path("simple.dot");
  auto r = run_etviz("export " + corpus(kSimple) + " --expand all --shapes -o " + dot);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Wrote w = wrote(r.err);
  auto gv = run_shell("dot -Tjson " + dot);
  ASSERT_EQ(gv.exit_code, 0) << gv.err;
  const auto j = nlohmann::json::parse(gv.out);
  int clusters = 0, nodes = 0;
  for (const auto& o : j["objects"]) {
    const std::string name = o.value("name", "");
    if (name.rfind("cluster_", 0) == 0)
      ++clusters;
    else
      ++nodes;
  }
  EXPECT_EQ(clusters, 2);  // the two XNNPACK payloads
  EXPECT_EQ(nodes, w.boxes);
  EXPECT_GT(j["edges"].size(), 0u);
  // Shapes label the edges.
  bool shaped = false;
  for (const auto& e : j["edges"])
    shaped = shaped || e.value("label", "").find("float32") != std::string::npos;
  EXPECT_TRUE(shaped);
  // Collapsed, each payload is one node and no cluster.
  auto c = run_etviz("export " + corpus(kSimple) + " --expand none --format dot -o -");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(c.out.find("subgraph cluster_"), std::string::npos);
  EXPECT_NE(c.out.find("peripheries=2"), std::string::npos);
}

TEST(ExportCli, PdfKeepsTextAsTextAtTheReportedPageSize) {
  const std::string pdf = out_path("simple.pdf");
  auto r = run_etviz("export " + corpus(kSimple) + " --expand all -o " + pdf);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Wrote w = wrote(r.err);
  auto info = run_shell("pdfinfo " + pdf);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(info.out, m, std::regex(R"(Page size:\s+([\d.]+) x ([\d.]+) pts)")))
      << info.out;
  EXPECT_NEAR(std::stod(m[1]), w.width, 1);
  EXPECT_NEAR(std::stod(m[2]), w.height, 1);
  auto text = run_shell("pdftotext " + pdf + " -");
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("XNNFullyConnected"), std::string::npos) << text.out;
}

TEST(ExportCli, FormatFromExtensionAndPngMagic) {
  const std::string png = out_path("simple.png");
  auto r = run_etviz("export " + corpus(kSimple) + " -o " + png);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto bytes = read_bytes(png);
  ASSERT_GT(bytes.size(), 8u);
  EXPECT_EQ(std::string(bytes.begin() + 1, bytes.begin() + 4), "PNG");
  // Default output name: the input's stem + .svg, in the working directory.
  const std::string dir = scratch_dir("export_cli_default");
  auto d = run_shell("cd " + dir + " && " + etviz_binary() + " export -q " + corpus(kSimple));
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/corey-cole__simple-torch-model__model.svg"));
}

// Without --method, export draws the graph the page opens on (Document::default_graph): in a
// program whose first method is `double`, `forward`; --method names another.
TEST(ExportCli, DrawsTheDefaultGraphUnlessTold) {
  const std::string multi =
      corpus("pte/corey-cole__executorch-numpy-runtime__tests__models__multi.pte");
  auto d = run_etviz("export " + multi + " --format dot -o - -q");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_EQ(d.out.rfind("digraph \"forward\" {", 0), 0u) << d.out.substr(0, 80);
  auto named = run_etviz("export " + multi + " --method double --format dot -o - -q");
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(named.out.rfind("digraph \"double\" {", 0), 0u) << named.out.substr(0, 80);
}

TEST(ExportCli, BadRequestsAreRefusedWithTheReason) {
  struct Case {
    std::string args, message;
  };
  const std::string f = corpus(kSimple);
  for (const Case& c : std::vector<Case>{
           {"export " + f + " --expand sideways -o x.svg", "--expand sideways"},
           {"export " + f + " --format gif",
            "--format gif: expected svg, png, pdf, dot, me-json or graph-json"},
           {"export " + f + " -o out.txt", "cannot tell the format from '.txt'"},
           {"export " + f + " --method nope -o x.svg", "no graph 'nope'"},
           {"export /nonexistent/model.pte -o x.svg", "/nonexistent/model.pte"},
           {"export " + f + " --format svg -o " + f, "refusing to overwrite an input"},
           {"export " + f + " --theme blue", "--theme"},
       }) {
    auto r = run_etviz(c.args);
    EXPECT_EQ(r.exit_code, c.message == "--theme" ? 105 : 1) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args;
  }
  auto help = run_etviz("export --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--expand"), std::string::npos);
}

TEST(ExportCli, AHugeDrawingIsCappedWithAWarning) {
  const std::string pte = out_path("tall.pte");
  auto gen = run_shell(std::string(ETVIZ_BINARY_DIR) +
                       "/tools/gen/etviz-gen program --blocks 60 --dim 8 --hidden 8 --vocab 4 "
                       "--seq 1 -o " +
                       pte);
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  const std::string png = out_path("tall.png");
  auto r = run_etviz("export " + pte + " --expand all -o " + png);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: the drawing is"), std::string::npos) << r.err;
  const Wrote w = wrote(r.err);
  EXPECT_LE(w.height, 16384);
  EXPECT_LE(w.width * w.height, 64.0 * 1024 * 1024);
}

}  // namespace
}  // namespace etviz::test
