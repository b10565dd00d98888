// layout_dump GRAPH.json: lays out a graph given in the WebAssembly module's input form
// (wasm_api.js: nodeWidth, nodeHeight, nodeGroup, edgeSource, edgeTarget, edgeSourcePort,
// edgeTargetPort, edgeSkip, groupParent, groupExpanded, groupCollapsedWidth,
// groupCollapsedHeight, options) with the native engine and prints the result in the module's
// output form (layout/viewer_form.h) as JSON with round-trip precision. The WebAssembly test
// compares the two field by field.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "layout.h"
#include "viewer_form.h"

namespace lo = etviz::layout;

namespace {

template <typename T>
void print_array(const char* name, const std::vector<T>& values, bool last = false) {
  std::printf("\"%s\":[", name);
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) std::printf(",");
    if constexpr (std::is_floating_point_v<T>)
      std::printf("%.17g", static_cast<double>(values[i]));
    else
      std::printf("%lld", static_cast<long long>(values[i]));
  }
  std::printf("]%s", last ? "" : ",");
}

uint32_t index_or_none(int64_t v) {
  return v < 0 ? lo::kNone : static_cast<uint32_t>(v);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: layout_dump GRAPH.json\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  const nlohmann::json j = nlohmann::json::parse(in);
  const auto w = j["nodeWidth"].get<std::vector<double>>();
  const auto h = j["nodeHeight"].get<std::vector<double>>();
  const auto group = j["nodeGroup"].get<std::vector<int64_t>>();
  lo::Graph g;
  for (size_t v = 0; v < w.size(); ++v) g.nodes.push_back({w[v], h[v], index_or_none(group[v])});
  const auto src = j["edgeSource"].get<std::vector<int64_t>>();
  const auto dst = j["edgeTarget"].get<std::vector<int64_t>>();
  const auto sp = j["edgeSourcePort"].get<std::vector<int64_t>>();
  const auto tp = j["edgeTargetPort"].get<std::vector<int64_t>>();
  const auto skip = j["edgeSkip"].get<std::vector<int64_t>>();
  std::vector<bool> laid(src.size());
  std::vector<uint32_t> sources;
  for (size_t e = 0; e < src.size(); ++e) {
    if (skip[e]) continue;
    laid[e] = true;
    sources.push_back(index_or_none(src[e]));
    g.edges.push_back(
        {index_or_none(src[e]), index_or_none(dst[e]), index_or_none(sp[e]), index_or_none(tp[e])});
  }
  const auto parent = j["groupParent"].get<std::vector<int64_t>>();
  const auto expanded = j["groupExpanded"].get<std::vector<int>>();
  const auto cw = j["groupCollapsedWidth"].get<std::vector<double>>();
  const auto ch = j["groupCollapsedHeight"].get<std::vector<double>>();
  for (size_t i = 0; i < parent.size(); ++i)
    g.groups.push_back({index_or_none(parent[i]), expanded[i] != 0, cw[i], ch[i]});
  const auto options = j["options"].get<std::vector<double>>();
  const lo::Layout layout = lo::compute_layout(g, lo::decode_options(options));
  const lo::ViewerForm f = lo::viewer_form(layout, laid, sources);

  std::printf("{");
  print_array("nodeX", f.node_x);
  print_array("nodeY", f.node_y);
  print_array("nodeW", f.node_w);
  print_array("nodeH", f.node_h);
  print_array("groupX", f.group_x);
  print_array("groupY", f.group_y);
  print_array("groupW", f.group_w);
  print_array("groupH", f.group_h);
  print_array("labelX", f.label_x);
  print_array("labelY", f.label_y);
  print_array("share", f.routes.share);
  print_array("shareCount", f.routes.share_count);
  print_array("offsets", f.routes.offsets);
  print_array("points", f.routes.coords);
  print_array("bounds",
              std::vector<double>{layout.bounds.x, layout.bounds.y, layout.bounds.width,
                                  layout.bounds.height},
              true);
  std::printf("}\n");
  return 0;
}
