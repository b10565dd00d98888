#pragma once
// What the viewer shows for one root graph (Document::root_graphs): its nodes plus every nested
// graph (decoded delegate payloads, control-flow bodies) inlined as a group, the edges between
// them, the size of every box, the initial expand state, and the layout of that state. The
// page (render/html) and pictures (render/export) both draw this, so they show the same boxes.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis/categories.h"
#include "analysis/qdq_clusters.h"
#include "core/document.h"
#include "layout/layout.h"

namespace etviz::view {

struct ViewNode {
  int32_t graph = 0;    // Document::graphs index the node comes from
  NodeId node = kNoId;  // index in that graph
  int32_t group = -1;   // ViewModel::groups index of the innermost box, -1 for none
  analysis::Category category = analysis::Category::kOther;
  std::string label;  // what the box shows
  double width = 0, height = 0;
  // A call whose nested graph is drawn at another call (the rule above view_within_budget): that
  // call's ViewModel::nodes index; -1 when the graph is inlined here or the node calls none.
  int32_t drawn_at = -1;
};

struct ViewGroup {
  std::string name;
  std::string label;
  GroupKind kind = GroupKind::kModule;
  int32_t parent = -1;
  int32_t depth = 0;
  int32_t owner = -1;      // ViewModel::nodes index of the node whose subgraph this is, or -1
  int32_t node_count = 0;  // nodes inside, at any depth
  // What the collapsed box says of its size: "168 ops" for a delegate (the operators its
  // payload holds, counted as `etviz delegation` counts them), else the nodes inside.
  std::string badge;
  bool expanded = true;  // initial state
  // Starts collapsed whatever the depth (QDQ clusters: the quantized op is what one reads).
  bool prefer_collapsed = false;
  // The label already says how many ("13 inputs"): the box shows no count beside it.
  bool count_in_label = false;
  double collapsed_width = 0, collapsed_height = 0;
  // What the panel shows about a group the IR does not have (repeat runs: instances and how
  // they differ; QDQ clusters: the quantization parameters; partitions: their source).
  std::vector<Attribute> attributes;
  // What the group holds, so a collapsed box still tells its cost (the group panel): its
  // operators by op, most frequent first (kernels and delegate calls inside it at any depth,
  // counted as `etviz delegation` counts them; a delegate box's own call is the box, not an op
  // in it), and the constant tensors its nodes read (parameters, buffers, constants), each
  // once by where its bytes are, even when several nodes or instances read it.
  std::vector<std::pair<std::string, int32_t>> ops;
  int64_t constant_tensors = 0;
  int64_t parameters = 0;       // elements of those tensors (known shapes only)
  int64_t parameter_bytes = 0;  // bytes of those tensors (known sizes only)
};

struct ViewEdge {
  int32_t source = 0, target = 0;  // ViewModel::nodes indices
  int32_t value = -1;              // global value id (see ViewModel::value_base)
  uint32_t source_port = layout::kNone, target_port = layout::kNone;
  bool structural = false;  // owner node -> its subgraph's inputs, not a tensor
  // Left out of the layout: one of many edges from a broadcast source (a model input such
  // as a mask or rotary table feeding every block). Laid out, such edges cost a route through
  // every layer each (quadratic in the model's depth) and bury the drawing; the viewer draws
  // them when an end is selected.
  bool detached = false;
};

struct ViewModel {
  int32_t root_graph = 0;
  std::vector<int32_t> graphs;      // Document::graphs indices included (root first)
  std::vector<int32_t> value_base;  // per entry of `graphs`: offset of its values
  std::vector<ViewNode> nodes;
  std::vector<ViewGroup> groups;
  std::vector<ViewEdge> edges;
  std::vector<analysis::QdqCluster> qdq_clusters;  // members are ViewModel::nodes indices
  int32_t root_node_count = 0;                     // nodes of the root graph alone (the IR's count)
  layout::Layout layout;                           // of the initial expand state
  // What the stub of a broadcast source (a node with detached edges) says of the uses it does
  // not draw: how many and where they go, "41 uses → layers.0 … layers.11 (12 boxes)". By
  // source node, in node order.
  std::vector<std::pair<int32_t, std::string>> stubs;
};

struct ViewOptions {
  // Boxes derived from the graph's structure (docs/viewer.md, "Structure"): runs of repeated
  // blocks, QDQ clusters and partitions become groups.
  bool fold_repeats = true;
  bool group_qdq_clusters = true;
  // User-supplied grouping (`--groups FILE.json`, the visualize_with_clusters contract): node
  // name -> partition name. Nodes of one partition become one group.
  std::map<std::string, std::string> partitions;
  // Sources with more outgoing edges than this keep them out of the layout (see detached).
  int32_t max_laid_out_fan_out = 32;
  // Groups start expanded down to the deepest level that keeps this many boxes visible.
  int32_t initial_visible_budget = 400;
};

// The view of `graph` inlines each nested graph (a delegate's payload, a control-flow body) at
// every node that links to it. Graphs that link to the next several times fan out
// exponentially: when inlining at every link would draw more than twice the nodes of drawing
// each reachable graph once, each nested graph is drawn once, at its first link in reading
// order, and every later link is a plain box pointing there (ViewNode::drawn_at). The choice
// is made by walks bounded by the run's --max-nodes.

// Counts the nodes the view of `graph` would hold (under the rule above), before any is built,
// and returns the usual budget error when they exceed the run's --max-nodes (core/budget.h).
// Its cost is bounded by the limit.
Status view_within_budget(const Document& doc, int32_t graph);

ViewModel build_view_model(const Document& doc, int32_t graph,
                           const analysis::CategoryConfig& categories,
                           const ViewOptions& options = {});

// The layout engine's input for a given expand state (one flag per ViewModel::groups entry).
// Detached edges are left out: layout edge k is the k-th edge that is not detached.
layout::Graph layout_input(const ViewModel& model, const std::vector<bool>& expanded);
layout::Options layout_options();

// What a node's box says: the op's base name for kernels, the name of inputs, outputs and
// constants, else the op.
std::string node_label(const Node& n);

// Estimated width of `text` in the viewer's 12px node font, in layout units.
double text_width(const std::string& text);

}  // namespace etviz::view
