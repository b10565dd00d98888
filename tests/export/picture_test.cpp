// The drawing routine and its encoders: colours equal to the page's CSS, what each expand
// state shows, hostile names in SVG and DOT, PNG decoded by cairo, the raster caps.
#include "render/export/picture.h"

#include <cairo.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>

#include "analysis/categories.h"
#include "render/export/cairo_painter.h"
#include "render/export/scene.h"
#include "render/export/svg_painter.h"
#include "test_support.h"
#include "view/view_model.h"

namespace etviz::test {
namespace {

namespace pic = render::picture;
const char* kSimple = "pte/corey-cole__simple-torch-model__model.pte";

// Valid UTF-8 without C0 controls (but tab and newline) or DEL.
bool printable_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) return false;
      ++i;
      continue;
    }
    const size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

struct Drawn {
  Document doc;
  view::ViewModel model;
};
Drawn simple() {
  Drawn d{load(corpus(kSimple)), {}};
  d.model = view::build_view_model(d.doc, d.doc.root_graphs().front(),
                                   analysis::default_category_config());
  return d;
}

TEST(Picture, ThemeColoursAreTheViewersCss) {
  const std::string css = read_text(std::string(ETVIZ_SOURCE_DIR) + "/web/src/viewer.css");
  // The dark block, quoted either way (Prettier writes single quotes).
  size_t dark_at = css.find("[data-theme='dark'] {");
  if (dark_at == std::string::npos) dark_at = css.find("[data-theme=\"dark\"] {");
  ASSERT_NE(dark_at, std::string::npos);
  for (pic::Theme theme : {pic::Theme::kLight, pic::Theme::kDark}) {
    const std::string block =
        theme == pic::Theme::kDark ? css.substr(dark_at) : css.substr(0, dark_at);
    for (const auto& [name, value] : pic::theme_css(theme)) {
      const std::regex decl(name + ":\\s*([^;]+);");
      std::smatch m;
      ASSERT_TRUE(std::regex_search(block, m, decl)) << name << " missing from viewer.css";
      EXPECT_EQ(m[1].str(), value) << name;
      EXPECT_TRUE(pic::parse_colour(value)) << value;
    }
  }
}

TEST(Picture, ColoursParseAndMixAsThePageDoes) {
  auto c = pic::parse_colour("rgba(70, 90, 130, 0.055)");
  ASSERT_TRUE(c);
  EXPECT_NEAR(c->r * 255, 70, 1e-9);
  EXPECT_NEAR(c->a, 0.055, 1e-9);
  EXPECT_EQ(pic::parse_colour("#4e79a7")->hex(), "#4e79a7");
  EXPECT_EQ(pic::parse_colour("#fff")->hex(), "#ffffff");
  for (const char* bad : {"", "#12345", "rgb(1,2)", "rgb(1,2,x)", "hsl(1,2,3)", "#ggg"})
    EXPECT_FALSE(pic::parse_colour(bad)) << bad;
  // mix("#4e79a7", "#fbfbfc", 0.82) as web/src/render.js computes it: rgb(220,229,237).
  EXPECT_EQ(pic::mix(*pic::parse_colour("#4e79a7"), *pic::parse_colour("#fbfbfc"), 0.82).hex(),
            "#dce4ed");
}

TEST(Picture, ExpandStatesShowWhatTheySay) {
  Drawn d = simple();
  ASSERT_EQ(d.model.groups.size(), 2u);  // the two XNNPACK payloads
  pic::PictureOptions o;
  o.expand = {pic::ExpandMode::kNone, 0};
  auto none = pic::write_picture(d.doc, d.model, analysis::default_category_config(), o);
  ASSERT_TRUE(none) << none.error().message();
  o.expand = {pic::ExpandMode::kAll, 0};
  auto all = pic::write_picture(d.doc, d.model, analysis::default_category_config(), o);
  ASSERT_TRUE(all);
  // Collapsed: the method's input, alias and output (each delegate call sits inside its
  // payload's box) and two payload boxes; expanded: every payload node too.
  EXPECT_EQ(none->nodes, 3u);
  EXPECT_EQ(all->nodes, d.model.nodes.size());
  EXPECT_EQ(none->groups, 2u);
  EXPECT_EQ(count(none->bytes, "class=\"group collapsed\""), 2u);
  EXPECT_EQ(count(all->bytes, "class=\"group\""), 2u);
  EXPECT_EQ(count(all->bytes, "<g class=\"node "), d.model.nodes.size());
  // The payload ops are labelled in the expanded picture only.
  for (const char* op :
       {"XNNDepthwiseConv2d", "XNNConv2d", "XNNGlobalAvgPooling2d", "XNNFullyConnected"}) {
    EXPECT_NE(all->bytes.find(std::string(">") + op + "<"), std::string::npos) << op;
    EXPECT_EQ(none->bytes.find(std::string(">") + op + "<"), std::string::npos) << op;
  }
  // Depth 1 opens the top-level groups: here the same as all.
  o.expand = {pic::ExpandMode::kDepth, 1};
  auto depth = pic::write_picture(d.doc, d.model, analysis::default_category_config(), o);
  ASSERT_TRUE(depth);
  EXPECT_EQ(depth->nodes, all->nodes);
}

// An open group's title is drawn after every edge (an edge entering the box crosses its title
// band), over a halo of the canvas colour: an outline-only copy of the letters first, as the
// page's canvas and its SVG writer draw it.
TEST(Picture, GroupTitlesAreDrawnOverTheEdgesOnAHalo) {
  Drawn d = simple();
  pic::PictureOptions o;
  o.expand = {pic::ExpandMode::kAll, 0};
  auto all = pic::write_picture(d.doc, d.model, analysis::default_category_config(), o);
  ASSERT_TRUE(all) << all.error().message();
  const std::string& svg = all->bytes;
  std::string canvas;
  for (const auto& [name, value] : pic::theme_css(pic::Theme::kLight))
    if (name == "--canvas-bg") canvas = pic::parse_colour(value)->hex();
  ASSERT_FALSE(canvas.empty());
  const size_t last_edge = svg.rfind("<polyline");
  ASSERT_NE(last_edge, std::string::npos);
  const std::regex title(
      "<g class=\"title\" id=\"g(\\d+)-title\"><title>[^<]*</title>\n"
      "<text ([^>]*) fill=\"none\" stroke=\"(#[0-9a-f]{6})\" "
      "stroke-width=\"3\"[^>]*>([^<]+)</text>\n"
      "<text ([^>]*) fill=\"#[0-9a-f]{6}\">([^<]+)</text>\n</g>");
  size_t titles = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), title); it != std::sregex_iterator();
       ++it) {
    const std::smatch& m = *it;
    ++titles;
    EXPECT_GT(static_cast<size_t>(m.position(0)), last_edge) << "title of g" << m[1];
    EXPECT_EQ(m[3].str(), canvas);
    EXPECT_EQ(m[2].str(), m[5].str()) << "the halo lies under the letters";
    EXPECT_EQ(m[4].str(), m[6].str());
  }
  // Every expanded group has its title, and only there.
  EXPECT_EQ(titles, count(svg, "class=\"group\""));
  EXPECT_EQ(titles, 2u);
  EXPECT_EQ(count(svg, "<g class=\"title\""), titles);
}

TEST(Picture, HostileNamesStayText) {
  Drawn d = simple();
  const std::string hostile =
      "<script>alert(1)</script>\x1b]0;pwned\x07\"quote\" \\N \xff\xfe end & more";
  Graph& g = d.doc.graphs[static_cast<size_t>(d.model.root_graph)];
  for (Node& n : g.nodes) {
    n.name = hostile;
    n.op = hostile;
  }
  g.name = hostile;
  d.model = view::build_view_model(d.doc, d.model.root_graph, analysis::default_category_config());
  for (pic::ExportFormat f : {pic::ExportFormat::kSvg, pic::ExportFormat::kDot}) {
    pic::PictureOptions o;
    o.format = f;
    o.expand = {pic::ExpandMode::kAll, 0};
    auto p = pic::write_picture(d.doc, d.model, analysis::default_category_config(), o);
    ASSERT_TRUE(p) << p.error().message();
    EXPECT_TRUE(printable_utf8(p->bytes)) << pic::to_string(f);
    if (f == pic::ExportFormat::kSvg) {
      EXPECT_EQ(p->bytes.find("<script"), std::string::npos);
      EXPECT_NE(p->bytes.find("&lt;script&gt;"), std::string::npos);
      EXPECT_NE(p->bytes.find("&quot;quote&quot;"), std::string::npos);
    } else {
      // Inside DOT strings a quote or backslash is escaped: no label ends early and no \N
      // expands to the node name.
      EXPECT_NE(p->bytes.find("\\\"quote\\\" \\\\N"), std::string::npos);
      EXPECT_EQ(p->bytes.find("label=<"), std::string::npos);  // never an HTML-like label
    }
  }
  // Cairo refuses invalid UTF-8; the PNG is drawn all the same.
  pic::PictureOptions o;
  o.format = pic::ExportFormat::kPng;
  auto png = pic::write_picture(d.doc, d.model, analysis::default_category_config(), o);
  ASSERT_TRUE(png) << png.error().message();
  EXPECT_EQ(png->bytes.substr(1, 3), "PNG");
}

TEST(Picture, XmlAndDotEscaping) {
  EXPECT_EQ(markup_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
  EXPECT_EQ(markup_escape("\x01x\xc3\x28"), "\xEF\xBF\xBDx\xEF\xBF\xBD(");
  EXPECT_EQ(markup_escape("\xed\xa0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_EQ(markup_escape("caf\xc3\xa9 \xe2\x86\x92"), "caf\xc3\xa9 \xe2\x86\x92");
  EXPECT_EQ(pic::dot_quote("a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
}

TEST(Picture, PngDecodesToTheReportedSizeWithCategoryColours) {
  Drawn d = simple();
  pic::PictureOptions o;
  o.format = pic::ExportFormat::kPng;
  o.scale = 1;
  o.expand = {pic::ExpandMode::kAll, 0};
  auto png = pic::write_picture(d.doc, d.model, analysis::default_category_config(), o);
  ASSERT_TRUE(png) << png.error().message();
  const std::string path = scratch_dir("export") + "/simple.png";
  write_bytes(path, std::vector<uint8_t>(png->bytes.begin(), png->bytes.end()));
  cairo_surface_t* s = cairo_image_surface_create_from_png(path.c_str());
  ASSERT_EQ(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
  EXPECT_EQ(cairo_image_surface_get_width(s), static_cast<int>(png->width));
  EXPECT_EQ(cairo_image_surface_get_height(s), static_cast<int>(png->height));
  // Pixels of the compute category's stroke (the nodes' strips) and of the background.
  const auto cats = analysis::default_category_config();
  const pic::Colour compute =
      *pic::parse_colour(cats.categories[static_cast<size_t>(analysis::Category::kCompute)].color);
  const unsigned char* data = cairo_image_surface_get_data(s);
  const int stride = cairo_image_surface_get_stride(s);
  std::set<uint32_t> colours;
  size_t compute_pixels = 0;
  for (int y = 0; y < cairo_image_surface_get_height(s); ++y)
    for (int x = 0; x < cairo_image_surface_get_width(s); ++x) {
      const uint32_t px = *reinterpret_cast<const uint32_t*>(data + y * stride + x * 4);
      colours.insert(px);
      const int r = (px >> 16) & 0xFF, g = (px >> 8) & 0xFF, b = px & 0xFF;
      if (std::abs(r - compute.r * 255) < 2 && std::abs(g - compute.g * 255) < 2 &&
          std::abs(b - compute.b * 255) < 2)
        ++compute_pixels;
    }
  cairo_surface_destroy(s);
  EXPECT_GT(colours.size(), 50u);          // text antialiasing, fills, strokes
  EXPECT_GT(compute_pixels, 5u * 3 * 20);  // five compute nodes' strips (3.5 x 22 px each)
}

TEST(Picture, RasterAndPageSizesAreCapped) {
  EXPECT_EQ(pic::fit_scale(pic::CairoTarget::kPng, 1000, 1000, 2), 2);
  EXPECT_NEAR(pic::fit_scale(pic::CairoTarget::kPng, 100000, 1000, 2), 16384.0 / 100000, 1e-12);
  const double s = pic::fit_scale(pic::CairoTarget::kPng, 12000, 12000, 1);
  EXPECT_LE(12000 * s * 12000 * s, pic::kMaxRasterPixels * (1 + 1e-9));
  EXPECT_NEAR(pic::fit_scale(pic::CairoTarget::kPdf, 500, 300000, 1), 14400.0 / 300000, 1e-12);
}

// A node label wider than its box, as the page writes it (web/src/label_fit.js): one line when
// it fits, else two, the second keeping the label's tail after an ellipsis when even two lines
// are too short.
// A Model Explorer graph whose input feeds the ops of `boxes` modules (`per_box` in the first,
// `grow` more in each next one; with `chained`, each module's ops a chain), written to a scratch
// file.
std::string broadcast_json(const std::string& name, int boxes, int per_box, int grow,
                           bool chained) {
  std::string nodes = R"({"id": "x", "label": "input"})";
  for (int b = 0; b < boxes; ++b)
    for (int k = 0; k < per_box + grow * b; ++k) {
      const std::string id = "m" + std::to_string(b) + "_" + std::to_string(k);
      std::string in =
          R"({"sourceNodeId": "x", "sourceNodeOutputId": "0", "targetNodeInputId": "0"})";
      if (chained && k > 0)
        in += R"(, {"sourceNodeId": "m)" + std::to_string(b) + "_" + std::to_string(k - 1) +
              R"(", "sourceNodeOutputId": "0", "targetNodeInputId": "1"})";
      nodes += R"(, {"id": ")" + id + R"(", "label": "aten.mm", "namespace": "layers.)" +
               std::to_string(b) + R"(", "incomingEdges": [)" + in + "]}";
    }
  const std::string path = scratch_dir("picture") + "/" + name;
  std::ofstream(path) << R"({"graphs": [{"id": "g", "nodes": [)" << nodes << "]}]}";
  return path;
}

// A broadcast source's stub (its uses left out of the layout) says where they go where that
// text fits beside it, else how many, as the page writes it (render_marks.js stubLabel).
TEST(Picture, StubsSayWhereTheirUsesGoWhereThatFits) {
  auto svg_of = [](const std::string& path) {
    Drawn d{load(path), {}};
    d.model = view::build_view_model(d.doc, d.doc.root_graphs().front(),
                                     analysis::default_category_config());
    pic::PictureOptions o;
    o.format = pic::ExportFormat::kSvg;
    auto p = pic::write_picture(d.doc, d.model, analysis::default_category_config(), o);
    EXPECT_TRUE(p) << p.error().message();
    return p ? p->bytes : std::string();
  };
  // Two equal chains of 20 fold into one repeat box below the input: room for the whole text.
  const std::string fits = svg_of(broadcast_json("stub_fits.json", 2, 20, 0, true));
  EXPECT_NE(fits.find(">40 uses \u2192 layers \u00d72<"), std::string::npos) << fits;
  // Four different boxes of loose ops laid out beside the input: the text would run over the
  // first box.
  const std::string crowded = svg_of(broadcast_json("stub_crowded.json", 4, 10, 1, false));
  EXPECT_EQ(crowded.find("uses \u2192"), std::string::npos);
  EXPECT_NE(crowded.find(">46 u"), std::string::npos) << "the count, cut to the box";
}

TEST(Picture, LongLabelsKeepTheirHeadAndTail) {
  auto painter = pic::make_svg_painter();
  EXPECT_EQ(pic::fit_label(*painter, "relu", 226), std::vector<std::string>{"relu"});
  const std::string pair = "0:quantized_decomposed_quantize_per_tensor_default";
  const auto two = pic::fit_label(*painter, pair, 226);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0] + two[1], pair);
  const std::string longer =
      "2:aten_convolution_default_quantized_decomposed_dequantize_per_channel_group_default_7";
  const auto cut = pic::fit_label(*painter, longer, 226);
  ASSERT_EQ(cut.size(), 2u);
  EXPECT_EQ(longer.rfind(cut[0], 0), 0u);
  ASSERT_EQ(cut[1].rfind("\u2026", 0), 0u);
  const std::string tail = cut[1].substr(std::string("\u2026").size());
  EXPECT_GE(tail.size(), 12u);
  EXPECT_TRUE(longer.ends_with(tail)) << cut[1];
}

}  // namespace
}  // namespace etviz::test
