// etviz layout engine: layered (Sugiyama-style), compound, deterministic.
//
// Input is a graph of boxes (nodes with a size), directed edges between them (optionally
// attached to ordered ports) and nested groups that are either expanded (laid out as a box
// around their content) or collapsed (drawn as a single box). Output is a rectangle per node
// and group, a polyline per edge and a label anchor per edge.
//
// The engine is standard-library only so the same sources build natively and with
// Emscripten. See docs/layout.md for the pipeline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace etviz::layout {

// "No group" / "no port" / "no parent" marker for the index fields below.
inline constexpr uint32_t kNone = 0xFFFFFFFFu;

enum class Direction : uint8_t { kTopToBottom, kLeftToRight };

struct Point {
  double x = 0;
  double y = 0;
  friend bool operator==(const Point&, const Point&) = default;
};

struct Rect {
  double x = 0;  // left
  double y = 0;  // top
  double width = 0;
  double height = 0;
  friend bool operator==(const Rect&, const Rect&) = default;
};

struct Node {
  double width = 0;
  double height = 0;
  uint32_t group = kNone;  // innermost group containing the node, or kNone
};

// Ports are ordered slots on the node's outgoing side (bottom for top-to-bottom) and
// incoming side (top); port i of k is placed at (i + 1) / (k + 1) of the side, where k is
// one more than the largest port index used on that side of that node.
struct Edge {
  uint32_t source = 0;
  uint32_t target = 0;
  uint32_t source_port = kNone;
  uint32_t target_port = kNone;
};

struct Group {
  uint32_t parent = kNone;  // enclosing group, or kNone for top level
  bool expanded = true;
  double collapsed_width = 0;  // size of the box drawn when collapsed
  double collapsed_height = 0;
};

struct Graph {
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::vector<Group> groups;
};

// Each phase of the pipeline is a swappable strategy.
enum class LayeringStrategy : uint8_t {
  kLongestPath,          // every node as high as possible
  kLongestPathBalanced,  // then pull nodes towards their consumers where it shortens edges
  // then network simplex (network_simplex.h): the least total edge length, as dot ranks
  kNetworkSimplex,
};
enum class OrderingStrategy : uint8_t {
  kMedian,
  kBarycenter,
  // Where fan-outs are wide and crossings many, a second schedule with barycenters, the
  // order with fewer crossings kept: at most 0.5 % fewer on the model shapes, for a quarter
  // to a third more time (ordering.cpp, order_with_keys), so not the default.
  kMedianAndBarycenter,
};
// How crossing minimisation treats long edges. Per dummy, every dummy node is an item of its
// layer and can move on its own; as segments (Eiglsperger, Siebenhaller and Kaufmann's
// "efficient Sugiyama"), each run of a long edge's dummies between its first and last one is
// a single item that never crosses another such segment, so a sweep costs the real nodes and
// the segments' ends rather than every dummy. kAuto takes segments where the dummies would
// exceed three times the edges (a diffusion U-Net's skips and time embedding), which leaves
// transformers, random DAGs and the other model shapes to the per-dummy sweeps; where the
// segments then leave more crossings than edges, it also runs the per-dummy sweeps and keeps
// the order with fewer crossings.
enum class LongEdgeOrdering : uint8_t {
  kAuto,
  kPerDummy,
  kSegments,
};
enum class CoordinateStrategy : uint8_t {
  kBrandesKoepf,  // straight long edges, compact on model graphs
  kLayerSweeps,   // iterated per-layer optimal placement; compact on crossing-heavy graphs
  kAuto,          // Brandes–Köpf, unless it is much wider than the widest layer
};

struct Options {
  Direction direction = Direction::kTopToBottom;
  double node_spacing = 20;   // between neighbouring boxes in a layer
  double layer_spacing = 20;  // between consecutive layers
  double edge_spacing = 10;   // between an edge passing a layer and its neighbours
  double group_padding = 10;  // between a group's border and its content
  // A band at the top of each group box kept free of its content for the group's title (the
  // viewer's frame header); content starts half a padding below it. With entry ports at the
  // top the port layer is the border and the first layer sits a layer spacing lower.
  double group_title = 0;
  double component_spacing = 40;  // between disconnected components
  LayeringStrategy layering = LayeringStrategy::kNetworkSimplex;
  OrderingStrategy ordering = OrderingStrategy::kMedian;
  int ordering_sweeps = 24;  // upper bound on layer sweeps in crossing minimisation
  bool transpose = true;     // adjacent-exchange refinement after each sweep
  CoordinateStrategy coordinates = CoordinateStrategy::kAuto;
  // Long edges leaving the same source share one trunk and branch off where their
  // targets are (the answer to one input feeding every layer of a model).
  bool bundle_fan_out = true;
  LongEdgeOrdering long_edges = LongEdgeOrdering::kAuto;
};

// Every Options field once, in a fixed order: the numeric encoding that the WebAssembly ABI
// (wasm_api.cpp) and the page (which passes the options C++ chose back to the engine when it
// re-lays out) use, and the layout cache's fingerprint. A new Options field is added here and
// nowhere else; the encoding of an enum or bool is its integer value.
struct OptionField {
  const char* name;
  double (*get)(const Options&);
  void (*set)(Options&, double);
};
std::span<const OptionField> option_fields();
std::vector<double> encode_options(const Options& options);
// Values beyond the given ones keep their defaults; extra values are ignored.
Options decode_options(std::span<const double> values);

// An edge's route has point_count points. Routes of edges bundled into one trunk start with
// the same points (a shared input feeding every decoder layer: thousands of edges repeating
// thousands of points each), which are stored once: the first shared_count points are those
// of edge shared_edge's route (which itself shares nothing), the remaining
// point_count - shared_count are Layout::points[first_point ...]. Read routes through
// route_point() / append_route().
struct EdgeRoute {
  uint32_t first_point = 0;  // index into Layout::points of the first point not shared
  uint32_t point_count = 0;  // 0 when the edge is hidden inside a collapsed group
  Point label;               // anchor at half the route's length
  uint32_t shared_edge = kNone;
  uint32_t shared_count = 0;  // < point_count; 0 when shared_edge is kNone
};

// All coordinates are absolute, in the same unit as the input sizes, with the drawing's
// top-left corner at (0, 0).
struct Layout {
  std::vector<Rect> nodes;   // nodes hidden in a collapsed group: zero-size at its centre
  std::vector<Rect> groups;  // groups hidden in a collapsed group: zero-size at its centre
  std::vector<EdgeRoute> edges;
  std::vector<Point> points;  // route polylines, source end first (shared prefixes once)
  Rect bounds;
};

// Point i (< point_count) of edge e's route.
Point route_point(const Layout& layout, uint32_t edge, uint32_t i);
// Appends edge e's whole route to `out`.
void append_route(const Layout& layout, uint32_t edge, std::vector<Point>& out);

// Lays out `graph` from scratch. Invalid references (edge endpoints or groups out of
// range, cyclic group parents) are treated as absent; they never cause undefined behaviour.
Layout compute_layout(const Graph& graph, const Options& options = {});

// Same as compute_layout, but remembers the layout of each group's content so that a later
// call after expanding or collapsing one group only lays out that group and its ancestors.
class LayoutEngine {
 public:
  LayoutEngine();
  ~LayoutEngine();
  LayoutEngine(const LayoutEngine&) = delete;
  LayoutEngine& operator=(const LayoutEngine&) = delete;

  Layout run(const Graph& graph, const Options& options = {});

  // How many containers (the top level and expanded groups) the last run laid out vs. took
  // from the cache. Of those laid out, `structure_reused` kept their layering and order from
  // an earlier run (only sizes or port positions changed: a child group was toggled) and
  // only recomputed coordinates and routes.
  struct Stats {
    std::size_t laid_out = 0;
    std::size_t reused = 0;
    std::size_t structure_reused = 0;
  };
  Stats last_run_stats() const;

 private:
  struct Cache;
  std::unique_ptr<Cache> cache_;
};

}  // namespace etviz::layout
