// layout_dump GRAPH.json: lays out a graph given as plain arrays and prints the layout as
// JSON with round-trip precision; the WebAssembly test compares it with the module's output.
//
// Input: {"nodeSizes": [w, h, ...], "nodeGroups": [...], "edges": [s, t, sp, tp, ...],
//         "groupParents": [...], "groupExpanded": [0|1, ...], "groupCollapsedSizes": [...],
//         "direction": "TB" | "LR"}
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "layout.h"

namespace lo = etviz::layout;

namespace {

void print_array(const char* name, const std::vector<double>& values, bool last = false) {
  std::printf("\"%s\":[", name);
  for (size_t i = 0; i < values.size(); ++i) std::printf(i ? ",%.17g" : "%.17g", values[i]);
  std::printf("]%s", last ? "" : ",");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: layout_dump GRAPH.json\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  const nlohmann::json j = nlohmann::json::parse(in);
  lo::Graph g;
  const auto sizes = j["nodeSizes"].get<std::vector<double>>();
  const auto groups = j["nodeGroups"].get<std::vector<uint32_t>>();
  for (size_t v = 0; v < sizes.size() / 2; ++v)
    g.nodes.push_back({sizes[2 * v], sizes[2 * v + 1], groups[v]});
  const auto edges = j["edges"].get<std::vector<uint32_t>>();
  for (size_t e = 0; e < edges.size() / 4; ++e) {
    g.edges.push_back({edges[4 * e], edges[4 * e + 1], edges[4 * e + 2], edges[4 * e + 3]});
  }
  const auto parents = j["groupParents"].get<std::vector<uint32_t>>();
  const auto expanded = j["groupExpanded"].get<std::vector<int>>();
  const auto collapsed = j["groupCollapsedSizes"].get<std::vector<double>>();
  for (size_t i = 0; i < parents.size(); ++i) {
    g.groups.push_back({parents[i], expanded[i] != 0, collapsed[2 * i], collapsed[2 * i + 1]});
  }
  lo::Options options;
  if (j.value("direction", "TB") == "LR") options.direction = lo::Direction::kLeftToRight;
  const lo::Layout layout = lo::compute_layout(g, options);

  std::vector<double> nodes, group_rects, points, labels, ranges;
  for (const lo::Rect& r : layout.nodes) nodes.insert(nodes.end(), {r.x, r.y, r.width, r.height});
  for (const lo::Rect& r : layout.groups)
    group_rects.insert(group_rects.end(), {r.x, r.y, r.width, r.height});
  for (const lo::Point& p : layout.points) points.insert(points.end(), {p.x, p.y});
  for (const lo::EdgeRoute& e : layout.edges) {
    ranges.insert(ranges.end(), {double(e.first_point), double(e.point_count)});
    labels.insert(labels.end(), {e.label.x, e.label.y});
  }
  std::printf("{");
  print_array("nodes", nodes);
  print_array("groups", group_rects);
  print_array("edgeRanges", ranges);
  print_array("points", points);
  print_array("labels", labels);
  print_array("bounds",
              {layout.bounds.x, layout.bounds.y, layout.bounds.width, layout.bounds.height}, true);
  std::printf("}\n");
  return 0;
}
