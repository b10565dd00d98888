// etviz_layout_driver: runs the layout engine on a bench-graphs JSON file and prints one
// JSON line with timing and quality metrics; or measures Graphviz dot's -Tjson output of
// the same graph with the same metrics (--dot-json).
//
//   etviz_layout_driver GRAPH.json [--groups] [--collapse-depth D] [--lr] [--repeat N]
//                       [--no-bundle] [--greedy-layering] [--barycenter | --median] [--segments |
//                       --per-dummy]
//                       [--bk | --layer-sweeps] [--no-transpose]
//                       [--dump LAYOUT.json]
//   etviz_layout_driver --dot-json DOT_OUTPUT.json GRAPH.json
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <new>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "flat_graph.h"
#include "layout.h"
#include "level_topology.h"
#include "metrics.h"

// Heap in use, counted by this binary's operator new and delete (the layout engine allocates
// only through them): the layout's own peak, apart from how many of the pages the allocator
// freed stay resident (etviz_peak_bytes counts those). Over-aligned allocations are not
// counted; the engine makes none.
namespace {
namespace heap {
std::atomic<size_t> in_use{0};
std::atomic<size_t> peak{0};
void* allocate(size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  const size_t size_held = malloc_usable_size(p);
  const size_t now = in_use.fetch_add(size_held) + size_held;
  size_t seen = peak.load();
  while (now > seen && !peak.compare_exchange_weak(seen, now)) {
  }
  return p;
}
void release(void* p) noexcept {
  if (p == nullptr) return;
  in_use.fetch_sub(malloc_usable_size(p));
  std::free(p);
}
}  // namespace heap
}  // namespace

void* operator new(size_t size) {
  return heap::allocate(size);
}
void* operator new[](size_t size) {
  return heap::allocate(size);
}
void operator delete(void* p) noexcept {
  heap::release(p);
}
void operator delete[](void* p) noexcept {
  heap::release(p);
}
void operator delete(void* p, size_t) noexcept {
  heap::release(p);
}
void operator delete[](void* p, size_t) noexcept {
  heap::release(p);
}

namespace {

using json = nlohmann::json;
namespace lo = etviz::layout;
namespace eb = etviz::bench;

json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "cannot open " << path << "\n";
    std::exit(2);
  }
  return json::parse(in);
}

struct Input {
  lo::Graph graph;
  std::vector<std::string> ids;
  std::unordered_map<std::string, uint32_t> index;
};

// Groups come from the dotted module paths: "model.layers.0" nests in "model.layers",
// which nests in "model".
Input read_graph(const json& j, bool with_groups, int collapse_depth) {
  Input in;
  std::map<std::string, uint32_t> group_ids;
  std::vector<int> depth;
  auto group_of = [&](const std::string& path) {
    uint32_t parent = lo::kNone;
    size_t start = 0;
    int d = 0;
    while (true) {
      const size_t dot = path.find('.', start);
      const std::string prefix = path.substr(0, dot);
      auto [it, added] =
          group_ids.try_emplace(prefix, static_cast<uint32_t>(in.graph.groups.size()));
      if (added) {
        lo::Group g;
        g.parent = parent;
        g.expanded = collapse_depth < 0 || d < collapse_depth;
        g.collapsed_width = 120;
        g.collapsed_height = 30;
        in.graph.groups.push_back(g);
      }
      parent = it->second;
      ++d;
      if (dot == std::string::npos) return parent;
      start = dot + 1;
    }
  };
  for (const json& n : j["nodes"]) {
    lo::Node node;
    node.width = n["w"].get<double>();
    node.height = n["h"].get<double>();
    if (with_groups && n.contains("group")) node.group = group_of(n["group"].get<std::string>());
    if (!in.index.emplace(n["id"].get<std::string>(), static_cast<uint32_t>(in.ids.size()))
             .second) {
      // A repeated id would merge two operators (dot does so) or leave one unconnected.
      std::cerr << "duplicate node id " << n["id"].get<std::string>() << "\n";
      std::exit(2);
    }
    in.ids.push_back(n["id"].get<std::string>());
    in.graph.nodes.push_back(node);
  }
  for (const json& e : j["edges"]) {
    lo::Edge edge;
    edge.source = in.index.at(e["source"].get<std::string>());
    edge.target = in.index.at(e["target"].get<std::string>());
    in.graph.edges.push_back(edge);
  }
  return in;
}

void print_metrics(json& out, const eb::Metrics& m, const char* prefix) {
  const std::string p = prefix;
  out[p + "crossings"] = m.crossings;
  out[p + "area"] = m.width * m.height;
  out[p + "width"] = m.width;
  out[p + "height"] = m.height;
  out[p + "length"] = m.length;
  out[p + "levels"] = m.levels;
}

int measure_dot(const std::string& dot_path, const std::string& graph_path) {
  const json dot = read_json(dot_path);
  const Input in = read_graph(read_json(graph_path), false, -1);
  std::vector<eb::Box> boxes(in.graph.nodes.size());
  std::unordered_map<int, uint32_t> by_gvid;
  for (const json& o : dot["objects"]) {
    auto it = in.index.find(o["name"].get<std::string>());
    if (it == in.index.end() || !o.contains("pos")) continue;
    by_gvid[o["_gvid"].get<int>()] = it->second;
    double x = 0, y = 0;
    std::sscanf(o["pos"].get<std::string>().c_str(), "%lf,%lf", &x, &y);
    boxes[it->second] = {x, y, std::stod(o["width"].get<std::string>()) * 72,
                         std::stod(o["height"].get<std::string>()) * 72};
  }
  std::vector<eb::DrawnEdge> edges;
  if (dot.contains("edges")) {
    for (const json& e : dot["edges"]) {
      eb::DrawnEdge d{by_gvid.at(e["tail"].get<int>()), by_gvid.at(e["head"].get<int>()), {}};
      if (e.contains("_draw_")) {
        for (const json& op : e["_draw_"]) {
          if (op["op"] != "b" && op["op"] != "B") continue;
          const json& pts = op["points"];
          for (size_t i = 0; i < pts.size(); i += 3) {  // on-curve points of the Béziers
            d.route.push_back({pts[i][0].get<double>(), pts[i][1].get<double>()});
          }
        }
      }
      edges.push_back(std::move(d));
    }
  }
  json out;
  out["graph"] = graph_path;
  print_metrics(out, eb::measure(boxes, edges), "dot_");
  std::cout << out.dump() << "\n";
  return 0;
}

// Peak resident memory of the layout call alone: the heap freed after reading the input is
// handed back to the system (malloc_trim, else the layout would reuse it unseen) and the
// kernel's high-water mark is reset (clear_refs 5), so the JSON parse does not count.
// Returns bytes above the resident size before the call, or -1 where /proc does not offer
// this.
struct PeakMemory {
  long before = -1;
  size_t heap_before = 0;

  static long status_kb(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::string prefix = std::string(field) + ":";
    while (std::getline(in, line)) {
      if (line.rfind(prefix, 0) == 0) return std::stol(line.substr(prefix.size()));
    }
    return -1;
  }
  void start() {
    malloc_trim(0);
    std::ofstream("/proc/self/clear_refs") << "5";
    before = status_kb("VmRSS");
    heap_before = heap::in_use.load();
    heap::peak.store(heap_before);
  }
  // The layout's heap at its peak above what was in use at start().
  size_t heap_above_start() const { return heap::peak.load() - heap_before; }
  long bytes_above_start() const {
    const long peak = status_kb("VmHWM");
    return before < 0 || peak < 0 ? -1 : (peak - before) * 1024;
  }
};

// Dummies of the flat layout's layered graphs, from the same phases the layout runs, outside
// the timed call: `items` as stored (a dummy, or a span holding a long edge's middle, counts
// once) and `layers` one per layer a long edge or bundle trunk passes (what a layered graph
// with a dummy per layer would store).
struct Dummies {
  uint64_t items = 0, layers = 0;
};
Dummies dummy_nodes(const lo::Graph& graph, const lo::Options& options) {
  lo::FlatGraph flat;
  for (const lo::Node& n : graph.nodes) flat.add_node(n.width, n.height);
  for (const lo::Edge& e : graph.edges) flat.edges.push_back({e.source, e.target, 0, 0});
  const lo::LevelTopology topology = lo::level_topology(flat, options);
  Dummies dummies;
  for (const lo::ComponentTopology& part : topology.parts) {
    const lo::LayeredGraph& g = part.layered;
    for (uint32_t v = 0; v < g.node_count(); ++v) {
      if (!g.is_dummy[v]) continue;
      ++dummies.items;
      dummies.layers += g.bottom_layer(v) - g.layer[v] + 1;
    }
  }
  return dummies;
}

template <typename T>
size_t held(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}
size_t output_bytes(const lo::Layout& layout) {
  return held(layout.nodes) + held(layout.groups) + held(layout.edges) + held(layout.points);
}

json layout_to_json(const Input& in, const lo::Layout& layout) {
  json nodes = json::array(), groups = json::array(), edges = json::array();
  for (const lo::Rect& r : layout.nodes) nodes.push_back({r.x, r.y, r.width, r.height});
  for (const lo::Rect& r : layout.groups) groups.push_back({r.x, r.y, r.width, r.height});
  for (uint32_t k = 0; k < layout.edges.size(); ++k) {
    const lo::EdgeRoute& e = layout.edges[k];
    json pts = json::array();
    for (uint32_t i = 0; i < e.point_count; ++i) {
      const lo::Point p = lo::route_point(layout, k, i);
      pts.push_back({p.x, p.y});
    }
    edges.push_back({{"points", pts}, {"label", {e.label.x, e.label.y}}});
  }
  return {
      {"ids", in.ids},
      {"nodes", nodes},
      {"groups", groups},
      {"edges", edges},
      {"bounds", {layout.bounds.x, layout.bounds.y, layout.bounds.width, layout.bounds.height}}};
}

}  // namespace

int main(int argc, char** argv) {
  std::string graph_path, dot_json, dump;
  bool groups = false;
  int collapse_depth = -1, repeat = 0;
  lo::Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--groups")
      groups = true;
    else if (a == "--collapse-depth")
      collapse_depth = std::stoi(next());
    else if (a == "--lr")
      options.direction = lo::Direction::kLeftToRight;
    else if (a == "--repeat")
      repeat = std::stoi(next());
    else if (a == "--no-bundle")
      options.bundle_fan_out = false;
    else if (a == "--greedy-layering")
      options.layering = lo::LayeringStrategy::kLongestPathBalanced;
    else if (a == "--barycenter")
      options.ordering = lo::OrderingStrategy::kBarycenter;
    else if (a == "--median")
      options.ordering = lo::OrderingStrategy::kMedian;
    else if (a == "--segments")
      options.long_edges = lo::LongEdgeOrdering::kSegments;
    else if (a == "--per-dummy")
      options.long_edges = lo::LongEdgeOrdering::kPerDummy;
    else if (a == "--no-transpose")
      options.transpose = false;
    else if (a == "--bk")
      options.coordinates = lo::CoordinateStrategy::kBrandesKoepf;
    else if (a == "--layer-sweeps")
      options.coordinates = lo::CoordinateStrategy::kLayerSweeps;
    else if (a == "--sweeps")
      options.ordering_sweeps = std::stoi(next());
    else if (a == "--dot-json")
      dot_json = next();
    else if (a == "--dump")
      dump = next();
    else
      graph_path = a;
  }
  if (graph_path.empty()) {
    std::cerr
        << "usage: etviz_layout_driver GRAPH.json [options] | --dot-json OUT.json GRAPH.json\n";
    return 2;
  }
  if (!dot_json.empty()) return measure_dot(dot_json, graph_path);

  const Input in = read_graph(read_json(graph_path), groups || collapse_depth >= 0, collapse_depth);
  if (repeat <= 0) repeat = in.graph.nodes.size() <= 5000 ? 3 : 1;
  std::vector<double> times, cpu_times;
  lo::Layout layout;
  PeakMemory memory;
  for (int r = 0; r < repeat; ++r) {
    layout = {};
    if (r == 0) memory.start();
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    layout = lo::compute_layout(in.graph, options);
    cpu_times.push_back(static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC);
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  const long peak_bytes = memory.bytes_above_start();
  const size_t heap_peak_bytes = memory.heap_above_start();
  std::sort(times.begin(), times.end());
  std::sort(cpu_times.begin(), cpu_times.end());

  std::vector<eb::Box> boxes;
  for (const lo::Rect& r : layout.nodes)
    boxes.push_back({r.x + r.width / 2, r.y + r.height / 2, r.width, r.height});
  std::vector<eb::DrawnEdge> edges;
  for (size_t e = 0; e < in.graph.edges.size(); ++e) {
    eb::DrawnEdge d{in.graph.edges[e].source, in.graph.edges[e].target, {}};
    const lo::EdgeRoute& route = layout.edges[e];
    for (uint32_t i = 0; i < route.point_count; ++i) {
      const lo::Point p = lo::route_point(layout, static_cast<uint32_t>(e), i);
      d.route.push_back({p.x, p.y});
    }
    edges.push_back(std::move(d));
  }
  json out;
  out["graph"] = graph_path;
  out["nodes"] = in.graph.nodes.size();
  out["edges"] = in.graph.edges.size();
  out["groups"] = in.graph.groups.size();
  out["etviz_s"] = times[times.size() / 2];
  out["etviz_cpu_s"] = cpu_times[cpu_times.size() / 2];  // differs from etviz_s under load
  out["etviz_peak_bytes"] = peak_bytes;
  out["etviz_heap_peak_bytes"] = heap_peak_bytes;
  out["etviz_points"] = layout.points.size();  // route points stored by Layout
  // What the returned Layout itself holds (its arrays as allocated): part of the heap's peak
  // wherever the peak comes once the result is built, and a floor under it in any case.
  out["etviz_output_bytes"] = output_bytes(layout);
  size_t drawn = 0;  // route points drawn: shared trunk points count once per edge
  for (const lo::EdgeRoute& r : layout.edges) drawn += r.point_count;
  out["etviz_drawn_points"] = drawn;
  if (!groups && collapse_depth < 0) {
    const Dummies dummies = dummy_nodes(in.graph, options);
    out["etviz_dummies"] = dummies.items;
    out["etviz_dummy_layers"] = dummies.layers;
  }
  print_metrics(out, eb::measure(boxes, edges), "etviz_");
  std::cout << out.dump() << "\n";
  if (!dump.empty()) std::ofstream(dump) << layout_to_json(in, layout).dump() << "\n";
  return 0;
}
