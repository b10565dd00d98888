#include "render/html/html_page.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>

#include "analysis/size_tree.h"
#include "core/text.h"
#include "formats/json/json_string.h"
#include "formats/open_document.h"
#include "generated_program.h"
#include "render/html/memory_data.h"
#include "render/html/page_data.h"
#include "view/view_model.h"

namespace etviz::render::html {
namespace {

using view::build_view_model;
using view::layout_options;

const std::string kHostile = "</script><img src=x onerror=alert(1)>";

TEST(PageData, JsonStringsAreSafeInsideScript) {
  std::string out;
  append_json_string(out, kHostile + "\xE2\x80\xA8" + "\xFF" + "\x01" + "\"\\&");
  EXPECT_EQ(out.find('<'), std::string::npos);
  EXPECT_EQ(out.find('>'), std::string::npos);
  EXPECT_EQ(out.find('&'), std::string::npos);
  const auto parsed = nlohmann::json::parse(out).get<std::string>();
  EXPECT_EQ(parsed.substr(0, kHostile.size()), kHostile);
  EXPECT_NE(parsed.find("\xEF\xBF\xBD"), std::string::npos);  // U+FFFD for the invalid byte
}

// A document with a delegate whose decoded subgraph and a module hierarchy, as the delegate
// and .pt2 readers produce them.
Document nested_document() {
  Document doc;
  doc.format = DocumentFormat::kExecuTorchProgram;
  Graph main;
  main.name = "forward";
  main.add_group({"layers", "layers", GroupKind::kModule, kNoId});
  main.add_group({"layers.0", "layers.0 (Block)", GroupKind::kModule, 0});
  for (int i = 0; i < 4; ++i) main.add_value(Value{});
  Node in;
  in.kind = NodeKind::kInput;
  in.op = "input";
  in.name = "x" + kHostile;
  in.outputs = {{"", 0}};
  main.add_node(in);
  Node add;
  add.op = "aten::add.out";
  add.name = "add";
  add.group = 1;
  add.inputs = {{"self", 0}};
  add.outputs = {{"out", 1}};
  main.add_node(add);
  Node del;
  del.kind = NodeKind::kDelegate;
  del.op = "XnnpackBackend";
  del.name = "call_delegate";
  del.delegate = 0;
  del.subgraph = 1;  // the decoded payload (decode_delegates sets it on every call)
  del.inputs = {{"", 1}};
  del.outputs = {{"", 2}};
  main.add_node(del);
  main.link_values();
  Graph sub;
  sub.name = "xnn";
  sub.kind = GraphKind::kDelegate;
  sub.add_value(Value{});
  sub.add_value(Value{});
  Node sin;
  sin.kind = NodeKind::kInput;
  sin.op = "input";
  sin.outputs = {{"", 0}};
  sub.add_node(sin);
  Node fc;
  fc.op = "XNNFullyConnected";
  fc.inputs = {{"", 0}};
  fc.outputs = {{"", 1}};
  sub.add_node(fc);
  sub.link_values();
  doc.graphs = {main, sub};
  Delegate d;
  d.backend_id = "XnnpackBackend";
  d.subgraph = 1;
  doc.delegates = {d};
  return doc;
}

TEST(ViewModel, DelegateSubgraphBecomesAGroupAndModulesNest) {
  Document doc = nested_document();
  EXPECT_EQ(doc.root_graphs(), std::vector<int32_t>{0});
  ViewModel m = build_view_model(doc, 0, analysis::default_category_config());
  EXPECT_EQ(m.root_node_count, 3);
  ASSERT_EQ(m.nodes.size(), 5u);  // 3 + the subgraph's 2
  ASSERT_EQ(m.groups.size(), 3u);
  EXPECT_EQ(m.groups[1].parent, 0);
  EXPECT_EQ(m.groups[2].kind, GroupKind::kDelegate);
  EXPECT_EQ(m.groups[2].owner, 2);
  EXPECT_EQ(m.nodes[2].group, 2);  // the delegate call heads its group
  EXPECT_EQ(m.nodes[4].group, 2);  // the decoded op is inside it
  EXPECT_EQ(m.groups[2].node_count, 3);
  // Small graph: everything starts expanded and every node has a laid-out box.
  for (const auto& g : m.groups) EXPECT_TRUE(g.expanded);
  ASSERT_EQ(m.layout.nodes.size(), m.nodes.size());
  for (const auto& r : m.layout.nodes) EXPECT_GT(r.width, 0);
  // Edges: input->add, add->delegate, sub input->fc, plus the structural delegate->sub input.
  int structural = 0;
  for (const auto& e : m.edges) structural += e.structural ? 1 : 0;
  EXPECT_EQ(m.edges.size(), 4u);
  EXPECT_EQ(structural, 1);
}

TEST(ViewModel, LargeHierarchiesStartCollapsed) {
  Document doc;
  Graph g;
  for (int k = 0; k < 20; ++k)
    g.add_group({"b" + std::to_string(k), "", GroupKind::kModule, kNoId});
  for (int i = 0; i < 1000; ++i) {
    Node n;
    n.op = "aten::relu.out";
    n.group = i % 20;
    g.add_node(n);
  }
  doc.graphs = {g};
  ViewModel m = build_view_model(doc, 0, analysis::default_category_config());
  for (const auto& vg : m.groups) EXPECT_FALSE(vg.expanded);
  // Hidden nodes get zero-size boxes; collapsed groups get their collapsed size.
  EXPECT_EQ(m.layout.nodes[0].width, 0);
  EXPECT_GT(m.layout.groups[0].width, 0);
}

TEST(HtmlPage, HostileStringsNeverAppearAsMarkup) {
  Document doc = nested_document();
  doc.graphs[0].nodes[1].op = "evil::op" + kHostile;
  PageOptions opt;
  opt.file_name = "model" + kHostile + ".pte";
  opt.allow_compression = false;
  auto page = write_html_page(doc, opt);
  ASSERT_TRUE(page.ok()) << page.error().message();
  EXPECT_EQ(page->find("<img"), std::string::npos);
  EXPECT_NE(page->find("Content-Security-Policy"), std::string::npos);
  EXPECT_NE(page->find("connect-src 'none'"), std::string::npos);
  EXPECT_NE(page->find("model&lt;/script&gt;&lt;img"), std::string::npos);
  // Exactly the viewer's own script elements close (data, viewer; with the layout module its
  // glue and its gzipped wasm); model text never does.
  size_t closes = 0;
  for (size_t p = 0; (p = page->find("</script>", p)) != std::string::npos; ++p) ++closes;
  EXPECT_EQ(closes, viewer_has_wasm_layout() ? 4u : 2u);
}

// What web/src/data.js does with the column encoding, in C++: inflate the stream, cut it by
// the directory, put each column where the head references it.
nlohmann::json decode_columns(const EncodedPageData& d) {
  std::string raw;
  z_stream zs{};
  EXPECT_EQ(inflateInit2(&zs, 15 + 16), Z_OK);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(d.compressed.data()));
  zs.avail_in = static_cast<uInt>(d.compressed.size());
  int rc = Z_OK;
  while (rc == Z_OK) {
    char buf[1 << 16];
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    raw.append(buf, sizeof buf - zs.avail_out);
  }
  inflateEnd(&zs);
  EXPECT_EQ(rc, Z_STREAM_END);
  nlohmann::json head = nlohmann::json::parse(d.head);
  std::vector<nlohmann::json> cols;
  size_t off = 0;
  for (const auto& c : head["columns"]) {
    const std::string type = c[0];
    const size_t count = c[1], bytes = c[2];
    EXPECT_LE(off + bytes, raw.size());
    const char* p = raw.data() + off;
    nlohmann::json col = nlohmann::json::array();
    if (type == "json") {
      col = nlohmann::json::parse(std::string(p, bytes));
      EXPECT_LE(bytes, kPageStringChunk + kMaxShownText * 6 + 16) << "string chunks stay small";
    } else {
      EXPECT_EQ(bytes, count * (type == "f64" ? 8 : 4)) << type;
      for (size_t i = 0; i < count; ++i) {
        int32_t v32 = 0;
        double v64 = 0;
        if (type == "f64")
          std::memcpy(&v64, p + i * 8, 8);
        else
          std::memcpy(&v32, p + i * 4, 4);
        if (type == "i32")
          col.push_back(v32);
        else if (type == "t32")
          col.push_back(v32 / 10.0);
        else
          col.push_back(v64);
      }
    }
    cols.push_back(std::move(col));
    off += bytes;
  }
  EXPECT_EQ(off, raw.size()) << "the directory covers the stream exactly";
  std::function<void(nlohmann::json&)> resolve = [&](nlohmann::json& j) {
    if (j.is_object() && j.contains("$col")) {
      j = cols.at(j["$col"].get<size_t>());
    } else if (j.is_object() && j.contains("$strings")) {
      nlohmann::json all = nlohmann::json::array();
      for (size_t k : j["$strings"].get<std::vector<size_t>>())
        for (auto& s : cols.at(k)) all.push_back(s);
      j = std::move(all);
    } else if (j.is_structured()) {
      for (auto& item : j) resolve(item);
    }
  };
  nlohmann::json data = head["data"];
  resolve(data);
  return data;
}

// The column encoding holds exactly what the JSON encoding holds, on corpus programs with
// delegates, quantization and several methods.
TEST(PageData, ColumnsDecodeToTheJsonEncoding) {
  for (const char* name :
       {"pte/pytorch__executorch__extension__android__executorch_android__src__androidTest__"
        "resources__xor.9c80c531.pte",
        "pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte"}) {
    auto doc = open_document(std::string(ETVIZ_CORPUS_DIR) + "/" + name);
    ASSERT_TRUE(doc.ok()) << name;
    std::vector<ViewModel> views;
    for (int32_t g : doc->root_graphs())
      views.push_back(build_view_model(*doc, g, analysis::default_category_config()));
    const PageSource source{"model.pte", 1};
    auto json = encode_page_data(*doc, source, analysis::default_category_config(), views, false);
    auto columns = encode_page_data(*doc, source, analysis::default_category_config(), views, true);
    ASSERT_TRUE(json.ok() && columns.ok()) << name;
    EXPECT_TRUE(json->compressed.empty());
    EXPECT_GT(columns->columns, 10u);
    EXPECT_LT(columns->head.size(), json->head.size() / 2) << "columns leave the head";
    EXPECT_EQ(decode_columns(*columns), nlohmann::json::parse(json->head)) << name;
  }
}

// Names the page stores compactly (a value "v12" as -2 - 12, a node "aten_add_3" as its prefix
// and 3, a planned tensor's place as two numbers) decode, by the rules web/src/data.js applies,
// to exactly what the IR holds, on a corpus program with planned memory and a delegate.
TEST(PageData, CompactNamesDecodeToTheIrNames) {
  auto doc = open_document(std::string(ETVIZ_CORPUS_DIR) +
                           "/pte/pytorch__executorch__examples__arduino__examples__"
                           "KeywordSpotting__model.pte");
  ASSERT_TRUE(doc.ok());
  doc->graphs[0].values[1].name = "v01";       // not canonical: stays a string
  doc->graphs[0].nodes[0].name = "input_007";  // leading zero: stays a string
  const int32_t g = doc->root_graphs().at(0);
  std::vector<ViewModel> views{build_view_model(*doc, g, analysis::default_category_config())};
  auto data =
      encode_page_data(*doc, {"m.pte", 1}, analysis::default_category_config(), views, true);
  ASSERT_TRUE(data.ok());
  const nlohmann::json page = decode_columns(*data);
  const auto& strings = page["strings"];
  const auto text = [&](int64_t id) { return id >= 0 ? strings.at(id).get<std::string>() : ""; };
  const auto& gv = page["graphs"][0];
  const Graph& graph = doc->graphs[g];
  ASSERT_EQ(gv["v"]["name"].size(), graph.values.size());
  int derived = 0, planned = 0;
  for (size_t i = 0; i < graph.values.size(); ++i) {
    const int64_t k = gv["v"]["name"][i].get<int64_t>();
    if (k <= -2) ++derived;
    EXPECT_EQ(k <= -2 ? "v" + std::to_string(-2 - k) : text(k), graph.values[i].name) << i;
    const auto& p = graph.values[i].tensor.placement;
    const int64_t mem_id = gv["v"]["memId"][i].get<int64_t>();
    EXPECT_EQ(mem_id >= 0, p.has_value()) << i;
    if (p && mem_id >= 0) {
      ++planned;
      EXPECT_EQ(mem_id, p->memory_id);
      EXPECT_EQ(gv["v"]["memOff"][i].get<double>(), static_cast<double>(p->offset));
    }
  }
  EXPECT_GT(derived, 200) << "the program's values are named by index";
  EXPECT_GT(planned, 10);
  int split = 0;
  const auto& n = gv["n"];
  for (size_t i = 0; i < views[0].nodes.size(); ++i) {
    const int64_t number = n["nameN"][i].get<int64_t>();
    const std::string name = text(n["name"][i].get<int64_t>());
    if (number >= 0) ++split;
    EXPECT_EQ(number >= 0 ? name + "_" + std::to_string(number) : name,
              doc->graphs[views[0].nodes[i].graph].nodes[views[0].nodes[i].node].name)
        << i;
  }
  EXPECT_GT(split, 10) << "kernel calls are named op_index";
  for (const auto& s : strings)
    EXPECT_NE(s.get<std::string>(), "v12") << "derived names are not in the table";
}

// A model string over kMaxShownText reaches the page cut, with the marker.
TEST(PageData, LongStringsAreCutWithAMarker) {
  Document doc = nested_document();
  doc.graphs[0].nodes[1].op = std::string(kMaxShownText + 5000, 'q');
  std::vector<ViewModel> views{build_view_model(doc, 0, analysis::default_category_config())};
  auto data = encode_page_data(doc, {"m.pte", 1}, analysis::default_category_config(), views, true);
  ASSERT_TRUE(data.ok());
  const nlohmann::json decoded = decode_columns(*data);
  bool found = false;
  for (const auto& s : decoded["strings"])
    if (s.get<std::string>().rfind("qqqq", 0) == 0) {
      found = true;
      EXPECT_EQ(s.get<std::string>(), std::string(kMaxShownText, 'q') + "\u2026[+5,000 bytes]");
    }
  EXPECT_TRUE(found);
}

TEST(HtmlPage, CompressesLargeDataAndRejectsEmptyDocuments) {
  auto doc = open_document(std::string(ETVIZ_CORPUS_DIR) +
                           "/pte/"
                           "pytorch__executorch__extension__android__executorch_android__src__"
                           "androidTest__resources__xor.9c80c531.pte");
  ASSERT_TRUE(doc.ok());
  PageStats stats;
  PageOptions opt;
  opt.file_name = "xor.pte";
  auto page = write_html_page(*doc, opt, &stats);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(stats.graphs, 4u);  // forward + 3 training helper methods
  EXPECT_GT(stats.data_bytes, 0u);
  if (stats.compressed) {
    EXPECT_LT(stats.embedded_bytes, stats.data_bytes);
  }
  EXPECT_FALSE(write_html_page(Document{}, opt).ok());
}

}  // namespace
}  // namespace etviz::render::html

namespace etviz::render::html {
namespace {

using view::build_view_model;
using view::layout_options;

// Parameters of an exported program sit outside every module scope; the view model moves
// each into the innermost group holding all its consumers, so it is drawn beside its
// consumer instead of in one row above the whole model.
TEST(ViewModel, ParametersMoveNextToTheirConsumers) {
  Document doc;
  Graph g;
  g.add_group({"layers", "", GroupKind::kModule, kNoId});   // 0
  g.add_group({"layers.0", "", GroupKind::kModule, 0});     // 1
  g.add_group({"layers.0.wq", "", GroupKind::kModule, 1});  // 2
  g.add_group({"layers.0.wk", "", GroupKind::kModule, 1});  // 3
  for (int i = 0; i < 12; ++i) g.add_value(Value{});
  auto node = [&](NodeKind kind, const std::string& name, int32_t group, std::vector<ValueId> in,
                  ValueId out) {
    Node n;
    n.kind = kind;
    n.op = kind == NodeKind::kKernel ? "aten::linear" : name;
    n.name = name;
    n.group = group;
    for (ValueId v : in) n.inputs.push_back({"", v});
    n.outputs = {{"", out}};
    return g.add_node(n);
  };
  node(NodeKind::kInput, "x", kNoId, {}, 0);               // 0
  node(NodeKind::kConstant, "wq_weight", kNoId, {}, 1);    // 1: one consumer in wq
  node(NodeKind::kConstant, "shared_bias", kNoId, {}, 2);  // 2: consumers in wq and wk
  node(NodeKind::kConstant, "scale", kNoId, {}, 3);        // 3: a consumer at top level
  node(NodeKind::kKernel, "q", 2, {0, 1, 2}, 4);           // 4
  node(NodeKind::kKernel, "k", 3, {4, 2, 3}, 5);           // 5
  node(NodeKind::kKernel, "out", kNoId, {5, 3}, 6);        // 6
  node(NodeKind::kConstant, "inner", 2, {}, 7);            // 7: already in wq
  node(NodeKind::kKernel, "q2", 2, {7, 4}, 8);             // 8
  g.link_values();
  doc.graphs = {g};
  const ViewModel m = build_view_model(doc, 0, analysis::default_category_config());
  ASSERT_EQ(m.nodes.size(), 9u);
  EXPECT_EQ(m.nodes[0].group, -1);  // graph inputs stay where they are
  EXPECT_EQ(m.nodes[1].group, 2);   // into layers.0.wq, beside q
  EXPECT_EQ(m.nodes[2].group, 1);   // where wq and wk meet: layers.0
  EXPECT_EQ(m.nodes[3].group, -1);  // used at the top level too
  EXPECT_EQ(m.nodes[7].group, 2);
  EXPECT_EQ(m.groups[2].node_count, 4);  // q, q2, inner, wq_weight
  // Laid out in the layer right above its consumer, not in a row above the whole model.
  const auto& w = m.layout.nodes[1];
  const auto& q = m.layout.nodes[4];
  EXPECT_LE(w.y + w.height, q.y);
  EXPECT_LE(q.y - (w.y + w.height), layout_options().layer_spacing + 1);
}

}  // namespace
}  // namespace etviz::render::html

namespace etviz::render::html {
namespace {

using view::build_view_model;
using view::layout_options;

// The page's size treemap keeps each level's kMaxTreemapChildren largest parts and folds the
// rest into one "N more" part: every level still sums to its parent, the root to the file.
TEST(SizeTreemap, WideLevelsKeepTheirLargestPartsAndSumExactly) {
  gen::TransformerSpec spec;
  spec.blocks = 600;
  spec.dim = 8;
  spec.hidden = 8;
  spec.vocab = 16;
  const Document doc =
      test::load(test::write_transformer_program(spec, "viewer", "wide_sizes.pte"));
  const analysis::SizeNode full = analysis::size_tree(doc);
  const auto page = nlohmann::json::parse(size_data_json(doc));
  EXPECT_EQ(page["b"].get<uint64_t>(), doc.sources[0]->size());
  int folded = 0;
  std::function<void(const analysis::SizeNode&, const nlohmann::json&)> walk =
      [&](const analysis::SizeNode& n, const nlohmann::json& j) {
        ASSERT_EQ(j["b"].get<uint64_t>(), n.bytes) << n.name;
        if (n.children.empty()) return;
        const auto& c = j["c"];
        uint64_t sum = 0;
        for (const auto& child : c) sum += child["b"].get<uint64_t>();
        EXPECT_EQ(sum, n.bytes) << n.name << ": the level sums to its parent";
        if (n.children.size() <= 400) {
          ASSERT_EQ(c.size(), n.children.size()) << n.name;
          for (size_t k = 0; k < c.size(); ++k) walk(n.children[k], c[k]);
          return;
        }
        ++folded;
        ASSERT_EQ(c.size(), 401u) << n.name << ": 400 parts and one for the rest";
        EXPECT_EQ(c.back()["n"], grouped_digits(n.children.size() - 400) + " more");
        EXPECT_EQ(c.back()["k"], "other");
        // The smallest kept part is at least the largest folded one.
        std::vector<uint64_t> sizes;
        for (const auto& child : n.children) sizes.push_back(child.bytes);
        std::sort(sizes.rbegin(), sizes.rend());
        uint64_t smallest_kept = UINT64_MAX;
        for (size_t k = 0; k + 1 < c.size(); ++k)
          smallest_kept = std::min(smallest_kept, c[k]["b"].get<uint64_t>());
        EXPECT_EQ(smallest_kept, sizes[399]);
      };
  walk(full, page);
  EXPECT_GE(folded, 1) << "the 600-block program has a level of over 400 parts";
}

}  // namespace
}  // namespace etviz::render::html
