#include "view/view_model.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "analysis/delegation.h"
#include "analysis/repeats.h"
#include "core/budget.h"
#include "layout/route_sharing.h"

namespace etviz::view {
namespace {

constexpr double kNodeHeight = 28;
constexpr double kGroupHeight = 34;
// The band at the top of an expanded group where its title is drawn and a click toggles it:
// layout_options().group_title, which the pictures (render/export/scene.cpp) and the page (its
// data's layout option "groupTitle", web/src/data.js frameHeader) read.
constexpr double kFrameHeader = 18;
constexpr int kMaxNesting = 16;  // subgraphs inside subgraphs; deeper references are ignored

// Sizes are held at the page's precision from the start, so the layout computed here is the
// one the page's WebAssembly engine reproduces from the embedded sizes.
double box_width(const std::string& label, double extra, double min_w, double max_w) {
  return layout::round_tenth(std::clamp(text_width(label) + extra, min_w, max_w));
}

std::string last_segment(const std::string& path) {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

class Builder {
 public:
  Builder(const Document& doc, const analysis::CategoryConfig& cats, const ViewOptions& options,
          ViewModel& m, bool draw_once)
      : doc_(doc), cats_(cats), options_(options), m_(m), draw_once_(draw_once) {}

  void add_graph(int32_t g, int32_t parent_group, int depth) {
    const Graph& graph = doc_.graphs[g];
    const int32_t slot = static_cast<int32_t>(m_.graphs.size());
    m_.graphs.push_back(g);
    m_.value_base.push_back(value_count_);
    value_count_ += static_cast<int32_t>(graph.values.size());
    active_.insert(g);

    // The graph's own groups, re-parented under the group that holds the graph.
    const int32_t group_base = static_cast<int32_t>(m_.groups.size());
    for (const Group& src : graph.groups) {
      ViewGroup vg;
      vg.name = src.name;
      vg.label = src.label.empty() ? last_segment(src.name) : src.label;
      vg.kind = src.kind;
      vg.owner = -1;
      m_.groups.push_back(std::move(vg));
    }
    for (size_t i = 0; i < graph.groups.size(); ++i) {
      const GroupId p = graph.groups[i].parent;
      const bool valid = p >= 0 && static_cast<size_t>(p) < graph.groups.size() && p != GroupId(i);
      m_.groups[group_base + i].parent = valid ? group_base + p : parent_group;
    }

    const int32_t node_base = static_cast<int32_t>(m_.nodes.size());
    // Exact for the first (usually the largest) graph: a doubled array of a million view nodes
    // held ~50 MiB it never used; nested graphs after it grow it by half.
    if (const size_t need = m_.nodes.size() + graph.nodes.size(); m_.nodes.capacity() < need)
      m_.nodes.reserve(std::max(need, m_.nodes.capacity() + m_.nodes.capacity() / 2));
    for (const Node& n : graph.nodes) {
      ViewNode vn;
      vn.graph = g;
      vn.node = static_cast<NodeId>(&n - graph.nodes.data());
      const bool valid_group = n.group >= 0 && static_cast<size_t>(n.group) < graph.groups.size();
      vn.group = valid_group ? group_base + n.group : parent_group;
      vn.category = analysis::categorize(n, cats_);
      vn.label = node_label(n);
      vn.width = box_width(vn.label, 24, 44, 240);
      vn.height = kNodeHeight;
      m_.nodes.push_back(std::move(vn));
    }
    const size_t edges_begin = m_.edges.size();
    add_edges(slot, graph, node_base);

    // Boxes from the graph's structure: partitions, repeated blocks, QDQ clusters. Before the
    // nested graphs, so a delegate's payload nests in the block that calls it.
    fold_boundaries(graph, node_base, parent_group);
    fold_constants(graph, node_base);
    add_partitions(graph, node_base);
    if (options_.fold_repeats) add_repeats(graph, node_base, group_base, parent_group);
    add_qdq_clusters(graph, node_base);

    // Nested graphs: a delegate's decoded payload, a higher-order op's body.
    if (depth < kMaxNesting) {
      // This graph's edges by source node, for retargeting a call's results below.
      std::vector<std::vector<size_t>> edges_from(graph.nodes.size());
      for (size_t k = edges_begin; k < m_.edges.size(); ++k) {
        const int32_t src = m_.edges[k].source - node_base;
        if (src >= 0 && static_cast<size_t>(src) < graph.nodes.size() &&
            graph.nodes[static_cast<size_t>(src)].subgraph >= 0)
          edges_from[static_cast<size_t>(src)].push_back(k);
      }
      for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const Node& n = graph.nodes[i];
        const int32_t sub = n.subgraph;
        if (!doc_.subgraph_of(n) || active_.count(sub)) continue;
        const int32_t owner_node = node_base + static_cast<int32_t>(i);
        if (draw_once_) {
          const auto [at, first_link] = drawn_.try_emplace(sub, owner_node);
          if (!first_link) {
            m_.nodes[owner_node].drawn_at = at->second;
            continue;
          }
        }
        ViewGroup vg;
        const Graph& sg = doc_.graphs[sub];
        vg.name = n.name + "/" + sg.name;
        vg.label =
            n.kind == NodeKind::kDelegate ? n.op.str() : (sg.name.empty() ? n.name : sg.name);
        vg.kind = n.kind == NodeKind::kDelegate ? GroupKind::kDelegate : GroupKind::kControlFlow;
        // What the decoder said of the payload (format, target, the Ethos-U command stream's
        // NPU operations beside a TOSA graph's operators) shows in the group's panel, above
        // what the group holds.
        if (n.kind == NodeKind::kDelegate) vg.attributes = sg.attributes;
        vg.parent = m_.nodes[owner_node].group;
        vg.owner = owner_node;
        const int32_t gid = static_cast<int32_t>(m_.groups.size());
        m_.groups.push_back(std::move(vg));
        // The owner node sits at the top of its own group, so collapsing hides the decoded ops
        // and leaves one box in the owner's place.
        m_.nodes[owner_node].group = gid;
        const int32_t first = static_cast<int32_t>(m_.nodes.size());
        add_graph(sub, gid, depth + 1);
        // Structural edges owner -> each subgraph input (or first node) keep it below the owner.
        const Graph& subg = doc_.graphs[sub];
        bool linked = false;
        for (size_t k = 0; k < subg.nodes.size(); ++k) {
          if (subg.nodes[k].kind != NodeKind::kInput) continue;
          m_.edges.push_back({owner_node, first + static_cast<int32_t>(k), -1, layout::kNone,
                              layout::kNone, true});
          linked = true;
        }
        if (!linked && !subg.nodes.empty())
          m_.edges.push_back({owner_node, first, -1, layout::kNone, layout::kNone, true});
        // The call's results leave from the payload's output nodes, so an expanded delegate
        // shows where each result comes from (and a collapsed one still sends them from its
        // box); the i-th output of the call is the payload's i-th graph output.
        std::vector<int32_t> output_node;
        for (size_t k = 0; k < subg.nodes.size(); ++k)
          if (subg.nodes[k].kind == NodeKind::kOutput)
            output_node.push_back(first + static_cast<int32_t>(k));
        if (output_node.size() == n.outputs.size()) {
          const int32_t base = m_.value_base[slot];
          for (size_t index : edges_from[i]) {
            ViewEdge& e = m_.edges[index];
            if (e.structural) continue;
            for (size_t k = 0; k < n.outputs.size(); ++k)
              if (base + n.outputs[k].value == e.value) {
                e.source = output_node[k];
                e.source_port = layout::kNone;
              }
          }
        }
      }
    }
    active_.erase(g);
  }

  int32_t value_count() const { return value_count_; }

 private:
  int32_t add_group(ViewGroup vg) {
    m_.groups.push_back(std::move(vg));
    return static_cast<int32_t>(m_.groups.size() - 1);
  }

  // Many graph inputs or outputs (a QNN method takes 84) would open the page on one row wider
  // than the screen: more than kFoldBoundary of them fold into one box, "84 inputs", collapsed
  // to start with.
  static constexpr size_t kFoldBoundary = 8;
  void fold_boundaries(const Graph& graph, int32_t node_base, int32_t parent_group) {
    for (NodeKind kind : {NodeKind::kInput, NodeKind::kOutput}) {
      std::vector<int32_t> members;
      for (size_t i = 0; i < graph.nodes.size(); ++i)
        if (graph.nodes[i].kind == kind && m_.nodes[node_base + i].group == parent_group)
          members.push_back(node_base + static_cast<int32_t>(i));
      if (members.size() <= kFoldBoundary) continue;
      const std::string what = kind == NodeKind::kInput ? "inputs" : "outputs";
      ViewGroup vg;
      vg.name = graph.name + "/" + what;
      vg.label = std::to_string(members.size()) + " " + what;
      vg.kind = GroupKind::kOther;
      vg.parent = parent_group;
      vg.prefer_collapsed = true;
      vg.count_in_label = true;
      vg.attributes.push_back({what, std::to_string(members.size())});
      const int32_t gid = add_group(std::move(vg));
      for (int32_t v : members) m_.nodes[v].group = gid;
    }
  }

  // An op fed by several constants of its own (a quantized conv's weight, bias, scales and
  // zero points) would draw a row of boxes with an edge each, and in a flat program those
  // rows push the chain sideways: at least kFoldConstants constants that feed only that op
  // fold into one box above it ("4 constants"), collapsed to start with.
  static constexpr size_t kFoldConstants = 3;
  void fold_constants(const Graph& graph, int32_t node_base) {
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
      const Node& n = graph.nodes[i];
      if (n.kind != NodeKind::kKernel && n.kind != NodeKind::kDelegate) continue;
      const int32_t home = m_.nodes[node_base + i].group;
      std::vector<int32_t> own;
      for (const Argument& a : n.inputs) {
        if (a.value < 0 || static_cast<size_t>(a.value) >= graph.values.size()) continue;
        const Value& v = graph.values[static_cast<size_t>(a.value)];
        const NodeId p = v.producer;
        if (p < 0 || graph.nodes[static_cast<size_t>(p)].kind != NodeKind::kConstant) continue;
        if (v.consumers.size() != 1 || graph.nodes[static_cast<size_t>(p)].outputs.size() != 1)
          continue;
        const int32_t vp = node_base + p;
        if (m_.nodes[vp].group != home || std::find(own.begin(), own.end(), vp) != own.end())
          continue;
        own.push_back(vp);
      }
      if (own.size() < kFoldConstants) continue;
      ViewGroup vg;
      vg.name = n.name + "/constants";
      vg.label = std::to_string(own.size()) + " constants";
      vg.kind = GroupKind::kOther;
      vg.parent = home;
      vg.prefer_collapsed = true;
      vg.count_in_label = true;
      vg.attributes.push_back({"feeding", n.name + " (" + n.op + ")"});
      const int32_t gid = add_group(std::move(vg));
      for (int32_t v : own) m_.nodes[v].group = gid;
    }
  }

  // The user's partitions (node name -> partition), in an ETRecord's edge-dialect graph what
  // each delegate call took (the "delegate" attribute its maps left on the nodes), and in a
  // pre-lowering graph the partitioner's delegation_tag: one group per partition, in the
  // innermost group all its members share, as Model Explorer's visualize_with_clusters makes
  // the partition the members' namespace.
  void add_partitions(const Graph& graph, int32_t node_base) {
    // Partition name -> its nodes and where the grouping came from.
    std::map<std::string, std::pair<std::vector<int32_t>, const char*>> members;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
      const Node& n = graph.nodes[i];
      std::string partition;
      const char* source = "";
      if (auto it = options_.partitions.find(n.name); it != options_.partitions.end()) {
        partition = it->second;
        source = "--groups";
      } else {
        for (const Attribute& a : n.attributes)
          if (a.name == "delegate") {
            partition = a.value.substr(0, a.value.find(" (instruction"));
            source = "the ETRecord's delegate map";
          } else if (a.name == "delegation_tag" && partition.empty()) {
            // A partitioner's tag in the pre-lowering graph's node metadata
            // (node.meta["delegation_tag"]): what one delegate call will take.
            partition = a.value;
            source = "the partitioner's delegation_tag";
          }
      }
      if (partition.empty()) continue;
      auto& [nodes, from] = members[partition];
      nodes.push_back(node_base + static_cast<int32_t>(i));
      from = source;
    }
    std::vector<int32_t> path;
    for (auto& [name, entry] : members) {
      const auto& [nodes, from] = entry;
      int32_t parent = m_.nodes[nodes[0]].group;
      for (int32_t v : nodes) parent = common(parent, m_.nodes[v].group, path);
      ViewGroup vg;
      vg.name = "partition/" + name;
      vg.label = name;
      vg.kind = GroupKind::kPartition;
      vg.parent = parent;
      vg.attributes.push_back({"partition", name});
      vg.attributes.push_back({"from", from});
      const int32_t gid = add_group(std::move(vg));
      for (int32_t v : nodes) m_.nodes[v].group = gid;
    }
  }

  int32_t common(int32_t a, int32_t b, std::vector<int32_t>& path) const {
    const auto bound = m_.groups.size();
    path.clear();
    for (int32_t g = a; g >= 0 && path.size() <= bound; g = m_.groups[g].parent) path.push_back(g);
    size_t steps = 0;
    for (int32_t g = b; g >= 0 && steps <= bound; g = m_.groups[g].parent, ++steps)
      if (std::find(path.begin(), path.end(), g) != path.end()) return g;
    return -1;
  }

  // Runs of repeated blocks (analysis/repeats.h) become one box, "DecoderLayer ×32", holding
  // the instances: module instances move under it; in a flat program each stretch of the
  // repeated op sequence becomes an instance box.
  void add_repeats(const Graph& graph, int32_t node_base, int32_t group_base,
                   int32_t parent_group) {
    for (const analysis::RepeatRun& run : analysis::find_repeats(graph)) {
      ViewGroup vg;
      vg.name = "repeat/" + run.name;
      vg.label = run.label;
      vg.kind = GroupKind::kRepeat;
      vg.parent = run.parent == kNoId ? parent_group : group_base + run.parent;
      vg.attributes.push_back({"instances", std::to_string(run.instances())});
      vg.attributes.push_back({"identical", std::to_string(run.identical)});
      for (const auto& [index, what] : run.differences) {
        const std::string who = run.groups.empty()
                                    ? "block " + std::to_string(index)
                                    : graph.groups[static_cast<size_t>(run.groups[index])].name;
        vg.attributes.push_back({"differs: " + who, what});
      }
      const int32_t rid = add_group(std::move(vg));
      for (GroupId g : run.groups) m_.groups[static_cast<size_t>(group_base + g)].parent = rid;
      for (size_t k = 0; k < run.ranges.size(); ++k) {
        ViewGroup instance;
        instance.name = run.name + "/" + std::to_string(k);
        instance.label = "block " + std::to_string(k);
        instance.kind = GroupKind::kModule;
        instance.parent = rid;
        const int32_t iid = add_group(std::move(instance));
        for (NodeId n : run.ranges[k]) {
          ViewNode& vn = m_.nodes[static_cast<size_t>(node_base + n)];
          if (vn.group == parent_group) vn.group = iid;
        }
      }
    }
  }

  // A quantized op as the exporter left it, dequantize -> op -> quantize, becomes one box named
  // by its op (collapsed to start with); the page also keeps the clusters for highlighting.
  void add_qdq_clusters(const Graph& graph, int32_t node_base) {
    std::vector<analysis::Category> node_cats;
    node_cats.reserve(graph.nodes.size());
    for (size_t i = 0; i < graph.nodes.size(); ++i)
      node_cats.push_back(m_.nodes[node_base + i].category);
    for (auto c : analysis::find_qdq_clusters(graph, node_cats)) {
      if (options_.group_qdq_clusters) group_qdq_cluster(graph, node_base, c);
      c.anchor += node_base;
      for (auto& member : c.members) member += node_base;
      m_.qdq_clusters.push_back(std::move(c));
    }
  }

  void group_qdq_cluster(const Graph& graph, int32_t node_base, const analysis::QdqCluster& c) {
    const int32_t parent = m_.nodes[node_base + c.anchor].group;
    for (NodeId n : c.members)
      if (m_.nodes[node_base + n].group != parent) return;  // crosses a box: stays a highlight
    const Node& anchor = graph.nodes[static_cast<size_t>(c.anchor)];
    ViewGroup vg;
    vg.name = "qdq/" + anchor.name;
    vg.label = m_.nodes[node_base + c.anchor].label + " \u00b7q";
    vg.kind = GroupKind::kQdqCluster;
    vg.parent = parent;
    vg.prefer_collapsed = true;
    vg.attributes.push_back({"op", anchor.op});
    // Each quantize/dequantize with its parameters (scale, zero point, range, dtype) as the
    // node's non-tensor arguments say them.
    for (NodeId n : c.members) {
      if (n == c.anchor) continue;
      const Node& q = graph.nodes[static_cast<size_t>(n)];
      std::string params;
      for (const Argument& a : q.inputs) {
        if (a.value < 0 || static_cast<size_t>(a.value) >= graph.values.size()) continue;
        const Value& v = graph.values[static_cast<size_t>(a.value)];
        if (v.kind == ValueKind::kTensor) continue;
        params +=
            (params.empty() ? "" : ", ") + (a.name.empty() ? "" : a.name + "=") + value_text(v);
      }
      vg.attributes.push_back({q.name + " (" + analysis::op_base_name(q.op) + ")", params});
    }
    const int32_t gid = add_group(std::move(vg));
    for (NodeId n : c.members) m_.nodes[node_base + n].group = gid;
  }

  void add_edges(int32_t slot, const Graph& graph, int32_t node_base) {
    const auto nv = graph.values.size();
    auto valid = [&](ValueId v) { return v >= 0 && static_cast<size_t>(v) < nv; };
    // Output slot of each value at its producer (list members share their list's slot).
    std::vector<uint32_t> out_port(nv, layout::kNone);
    for (const Node& n : graph.nodes)
      for (size_t k = 0; k < n.outputs.size(); ++k) {
        const ValueId v = n.outputs[k].value;
        if (!valid(v)) continue;
        out_port[v] = static_cast<uint32_t>(k);
        for (ValueId e : graph.values[v].elements)
          if (valid(e)) out_port[e] = static_cast<uint32_t>(k);
      }
    const int32_t base = m_.value_base[slot];
    std::vector<std::pair<int32_t, int32_t>> seen;  // (producer, value) per target, to dedupe
    {
      // At most one edge per produced input value: reserved, so a million-node graph's edge
      // array is not doubled past its size (48 MiB at a million ops).
      size_t need = m_.edges.size();
      const auto produced = [&](ValueId id) { return valid(id) && graph.values[id].producer >= 0; };
      for (const Node& n : graph.nodes)
        for (const Argument& a : n.inputs) {
          need += produced(a.value);
          if (valid(a.value))
            for (ValueId e : graph.values[a.value].elements) need += e != a.value && produced(e);
        }
      if (need > m_.edges.capacity())
        m_.edges.reserve(std::max(need, m_.edges.capacity() + m_.edges.capacity() / 2));
    }
    for (size_t t = 0; t < graph.nodes.size(); ++t) {
      const Node& n = graph.nodes[t];
      seen.clear();
      for (size_t k = 0; k < n.inputs.size(); ++k) {
        const ValueId v = n.inputs[k].value;
        if (!valid(v)) continue;
        auto link = [&](ValueId id) {
          const NodeId p = graph.values[id].producer;
          if (p < 0 || static_cast<size_t>(p) >= graph.nodes.size() || p == NodeId(t)) return;
          const std::pair<int32_t, int32_t> key{p, id};
          if (std::find(seen.begin(), seen.end(), key) != seen.end()) return;
          seen.push_back(key);
          m_.edges.push_back({node_base + p, node_base + static_cast<int32_t>(t), base + id,
                              out_port[id], static_cast<uint32_t>(k), false});
        };
        link(v);
        for (ValueId e : graph.values[v].elements)
          if (valid(e) && e != v) link(e);
      }
    }
  }

  const Document& doc_;
  const analysis::CategoryConfig& cats_;
  const ViewOptions& options_;
  ViewModel& m_;
  int32_t value_count_ = 0;
  std::unordered_set<int32_t> active_;  // graphs on the current nesting path (cycle guard)
  const bool draw_once_;
  std::unordered_map<int32_t, int32_t> drawn_;  // nested graph -> the call it is drawn at
};

// The group a node's consumers see it in: a call node that owns an inlined subgraph sits at
// the top of its own group, but its inputs belong next to the call, outside that group.
int32_t home_group(const ViewModel& m, int32_t node) {
  const int32_t g = m.nodes[node].group;
  return g >= 0 && m.groups[g].owner == node ? m.groups[g].parent : g;
}

// Innermost group containing both a and b (-1: the top level). Walks are bounded by the group
// count, so a malformed parent chain cannot loop.
int32_t common_group(const ViewModel& m, int32_t a, int32_t b, std::vector<int32_t>& path) {
  const auto bound = m.groups.size();
  path.clear();
  for (int32_t g = a; g >= 0 && path.size() <= bound; g = m.groups[g].parent) path.push_back(g);
  size_t steps = 0;
  for (int32_t g = b; g >= 0 && steps <= bound; g = m.groups[g].parent, ++steps)
    if (std::find(path.begin(), path.end(), g) != path.end()) return g;
  return -1;
}

bool is_inside(const ViewModel& m, int32_t inner, int32_t outer) {
  if (outer < 0) return true;
  size_t steps = 0;
  for (int32_t g = inner; g >= 0 && steps <= m.groups.size(); g = m.groups[g].parent, ++steps)
    if (g == outer) return true;
  return false;
}

// Parameters, buffers and constants are sources: an exported program declares them all up
// front, outside every module scope, so laid out where they are declared they form one row
// as wide as the model above the first layer, each with an edge down to its one consumer.
// A constant with no inputs moves into the innermost group holding all its consumers, where
// the layering puts it in the layer right above its consumer (`layers.0.attention.wq`'s
// weight beside its linear). Detached (broadcast) edges count too: such a source stays
// where its consumers meet, usually the top level.
void place_parameters_with_consumers(ViewModel& m) {
  const auto n = m.nodes.size();
  std::vector<uint8_t> has_input(n, 0);
  for (const ViewEdge& e : m.edges) has_input[e.target] = 1;
  constexpr int32_t kUnset = -2;
  std::vector<int32_t> target_group(n, kUnset);
  std::vector<int32_t> path;
  for (const ViewEdge& e : m.edges) {
    const auto s = e.source;
    if (e.structural || has_input[s] || m.nodes[s].category != analysis::Category::kConstant)
      continue;
    const int32_t g = home_group(m, e.target);
    target_group[s] = target_group[s] == kUnset ? g : common_group(m, target_group[s], g, path);
  }
  for (size_t v = 0; v < n; ++v) {
    const int32_t g = target_group[v];
    if (g < 0 || g == m.nodes[v].group) continue;
    if (is_inside(m, g, m.nodes[v].group)) m.nodes[v].group = g;
  }
}

// Calls `f(g)` for every group holding view node `node`, innermost first, except a group whose
// call node `node` is (a delegate's call is the box itself, not something inside it). Bounded
// by the group count, so a malformed parent chain cannot loop.
template <typename F>
void for_each_enclosing_group(const ViewModel& m, int32_t node, F&& f) {
  size_t steps = 0;
  for (int32_t g = m.nodes[static_cast<size_t>(node)].group; g >= 0 && steps <= m.groups.size();
       g = m.groups[static_cast<size_t>(g)].parent, ++steps)
    if (m.groups[static_cast<size_t>(g)].owner != node) f(g);
}

// Where a constant tensor's bytes are, as a key: two values with one key are one tensor (a
// weight tied between layers, a constant two methods share). Inline buffers are numbered per
// graph (an XNNPACK payload's buffer 3 is not another payload's), so their key names the graph;
// a constant the file places nowhere (an exported program's parameter without stored data) is
// its own value.
std::string constant_key(int32_t graph, ValueId id, const TensorInfo& t) {
  std::string key = std::to_string(static_cast<int>(t.data_location)) + ":";
  if (t.data_location == DataLocation::kNone)
    key += "value " + std::to_string(graph) + "/" + std::to_string(id);
  else if (t.data_location == DataLocation::kInline)
    key += "graph " + std::to_string(graph) + "#" + std::to_string(t.data_index) + ":" + t.data_key;
  else
    key += std::to_string(t.data_index) + ":" + t.data_key;
  return key;
}

// ViewGroup::ops and the constants each group reads (see view_model.h).
void add_group_contents(const Document& doc, ViewModel& m) {
  const size_t ng = m.groups.size();
  // Operators: op names interned, per group a short (op, count) list.
  std::unordered_map<std::string_view, int32_t> op_id;
  std::vector<std::string_view> op_name;
  std::vector<std::vector<std::pair<int32_t, int32_t>>> hist(ng);
  // Constants: one id per storage key, and every (constant, reader) pair.
  std::unordered_map<std::string, int32_t> constant_id;
  std::vector<int64_t> numel, nbytes;
  std::vector<std::pair<int32_t, int32_t>> reads;  // (constant, view node)
  for (size_t i = 0; i < m.nodes.size(); ++i) {
    const ViewNode& vn = m.nodes[i];
    const Graph& graph = doc.graphs[static_cast<size_t>(vn.graph)];
    const Node& node = graph.nodes[static_cast<size_t>(vn.node)];
    const int32_t self = static_cast<int32_t>(i);
    const bool payload = graph.kind == GraphKind::kDelegate;
    if (node.kind == NodeKind::kDelegate || (payload ? analysis::counts_as_payload_operator(node)
                                                     : analysis::counts_as_operator(node))) {
      // A named variable, not a structured binding: clang 14 (the app's WebAssembly build)
      // cannot capture bindings in a lambda.
      const auto inserted = op_id.try_emplace(node.op, static_cast<int32_t>(op_name.size()));
      if (inserted.second) op_name.push_back(node.op);
      const int32_t op = inserted.first->second;
      for_each_enclosing_group(m, self, [&](int32_t g) {
        auto& h = hist[static_cast<size_t>(g)];
        auto at = std::find_if(h.begin(), h.end(), [&](const auto& e) { return e.first == op; });
        if (at == h.end())
          h.emplace_back(op, 1);
        else
          ++at->second;
      });
    }
    auto read = [&](ValueId id) {
      if (id < 0 || static_cast<size_t>(id) >= graph.values.size()) return;
      const Value& v = graph.values[static_cast<size_t>(id)];
      const bool from_constant =
          v.producer >= 0 && static_cast<size_t>(v.producer) < graph.nodes.size() &&
          graph.nodes[static_cast<size_t>(v.producer)].kind == NodeKind::kConstant;
      if (v.kind != ValueKind::kTensor || (!v.tensor.is_constant() && !from_constant)) return;
      const auto [it, fresh] = constant_id.try_emplace(constant_key(vn.graph, id, v.tensor),
                                                       static_cast<int32_t>(numel.size()));
      if (fresh) {
        numel.push_back(v.tensor.numel().value_or(0));
        nbytes.push_back(std::max<int64_t>(v.tensor.nbytes, 0));
      }
      reads.emplace_back(it->second, self);
    };
    for (const Argument& a : node.inputs) {
      read(a.value);
      if (a.value >= 0 && static_cast<size_t>(a.value) < graph.values.size())
        for (ValueId e : graph.values[static_cast<size_t>(a.value)].elements)
          if (e != a.value) read(e);
    }
  }
  for (size_t g = 0; g < ng; ++g) {
    auto& h = hist[g];
    std::sort(h.begin(), h.end(), [&](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : op_name[a.first] < op_name[b.first];
    });
    for (const auto& [id, count] : h) m.groups[g].ops.emplace_back(std::string(op_name[id]), count);
  }
  // Grouped by constant, a stamp per group counts each constant once per group however many
  // of the group's nodes read it.
  std::sort(reads.begin(), reads.end());
  std::vector<int32_t> stamp(ng, -1);
  for (const auto& read : reads) {
    const int32_t c = read.first;
    for_each_enclosing_group(m, read.second, [&](int32_t g) {
      if (stamp[static_cast<size_t>(g)] == c) return;
      stamp[static_cast<size_t>(g)] = c;
      ViewGroup& vg = m.groups[static_cast<size_t>(g)];
      ++vg.constant_tensors;
      vg.parameters += numel[static_cast<size_t>(c)];
      vg.parameter_bytes += nbytes[static_cast<size_t>(c)];
    });
  }
}

}  // namespace

std::string node_label(const Node& n) {
  switch (n.kind) {
    case NodeKind::kKernel: {
      std::string base = analysis::op_base_name(n.op);
      if (base.empty()) base = n.op;
      // An op that failed (a live trace whose forward pass raised there) says so.
      return n.failure ? "\u2715 " + base : base;
    }
    case NodeKind::kInput:
    case NodeKind::kOutput:
    case NodeKind::kConstant:
    case NodeKind::kGetAttr:
      return n.name.empty() ? n.op.str() : n.name;
    default:
      return n.op.empty() ? n.name : n.op.str();
  }
}

double text_width(const std::string& text) {
  // Average advance of a 12px sans-serif: narrow letters ~5px, capitals and digits ~7.5px.
  double w = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) == 0x80) continue;  // UTF-8 continuation byte
    if (c == 'i' || c == 'l' || c == 'j' || c == 't' || c == 'f' || c == 'r' || c == '.' ||
        c == '_')
      w += 4.6;
    else if (c >= 'A' && c <= 'Z')
      w += 8.2;
    else if (c == 'm' || c == 'w' || c == 'M' || c == 'W')
      w += 9.5;
    else
      w += 6.9;
  }
  return w;
}

layout::Options layout_options() {
  layout::Options o;
  o.node_spacing = 22;
  o.layer_spacing = 34;
  o.edge_spacing = 10;
  o.group_padding = 12;
  o.group_title = kFrameHeader;
  o.component_spacing = 48;
  return o;
}

layout::Graph layout_input(const ViewModel& model, const std::vector<bool>& expanded) {
  layout::Graph g;
  g.nodes.reserve(model.nodes.size());
  for (const ViewNode& n : model.nodes)
    g.nodes.push_back(
        {n.width, n.height, n.group < 0 ? layout::kNone : static_cast<uint32_t>(n.group)});
  g.edges.reserve(model.edges.size());
  for (const ViewEdge& e : model.edges)
    if (!e.detached)
      g.edges.push_back({static_cast<uint32_t>(e.source), static_cast<uint32_t>(e.target),
                         e.source_port, e.target_port});
  g.groups.reserve(model.groups.size());
  for (size_t i = 0; i < model.groups.size(); ++i) {
    const ViewGroup& vg = model.groups[i];
    g.groups.push_back({vg.parent < 0 ? layout::kNone : static_cast<uint32_t>(vg.parent),
                        i < expanded.size() ? static_cast<bool>(expanded[i]) : true,
                        vg.collapsed_width, vg.collapsed_height});
  }
  return g;
}

namespace {

// The walk Builder::add_graph makes (same nesting bound, same cycle rule, same order), counting
// nodes only and stopping once past `limit`. With `once`, a nested graph is counted at its
// first link only, as Builder draws it in that mode.
struct InlineCounter {
  const Document& doc;
  uint64_t limit;
  bool once;
  uint64_t total = 0;
  std::unordered_set<int32_t> active;
  std::unordered_set<int32_t> drawn;

  bool add(int32_t g, int depth) {
    const Graph& graph = doc.graphs[static_cast<size_t>(g)];
    total += graph.nodes.size();
    if (total > limit) return false;
    if (depth >= kMaxNesting) return true;
    active.insert(g);
    for (const Node& n : graph.nodes) {
      if (!doc.subgraph_of(n) || active.count(n.subgraph)) continue;
      if (once && !drawn.insert(n.subgraph).second) continue;
      if (!add(n.subgraph, depth + 1)) return false;
    }
    active.erase(g);
    return true;
  }
};

uint64_t drawn_once_count(const Document& doc, int32_t graph, uint64_t limit) {
  InlineCounter once{doc, limit, true, 0, {}, {}};
  once.add(graph, 0);
  return once.total;
}

// The rule of view_model.h, stated above view_within_budget.
bool nested_graphs_drawn_once(const Document& doc, int32_t graph) {
  if (graph < 0 || static_cast<size_t>(graph) >= doc.graphs.size()) return false;
  const uint64_t once = drawn_once_count(doc, graph, run_budget().nodes);
  InlineCounter every{doc, 2 * once, false, 0, {}, {}};
  return !every.add(graph, 0);
}

}  // namespace

Status view_within_budget(const Document& doc, int32_t graph) {
  if (graph < 0 || static_cast<size_t>(graph) >= doc.graphs.size()) return Status::Ok();
  const uint64_t limit = run_budget().nodes;
  const bool once = nested_graphs_drawn_once(doc, graph);
  InlineCounter counter{doc, limit, once, 0, {}, {}};
  if (counter.add(graph, 0)) return Status::Ok();
  // The count stops just past the limit: the amount named is what was counted by then.
  return over_budget("graph '" + doc.graphs[static_cast<size_t>(graph)].name +
                         (once ? "' with each nested graph drawn once"
                               : "' with its nested graphs inlined at each link"),
                     counter.total, limit, "--max-nodes", false);
}

namespace {

// The uses of node `i` left out of the layout, and where they go: the box (or the first and
// last of the boxes, in group order) holding each consumer at the source's own level, else the
// consumers' labels (up to two) or their count.
std::string stub_text(const ViewModel& m, int32_t i,
                      const std::vector<std::vector<int32_t>>& uses) {
  const int32_t own = m.nodes[i].group;
  const auto groups = static_cast<int32_t>(m.groups.size());
  std::vector<int32_t> boxes;
  std::vector<std::string> ops;
  int32_t loose = 0;
  for (const int32_t d : uses[static_cast<size_t>(i)]) {
    int32_t box = -1, steps = 0;
    for (int32_t g = m.nodes[d].group; g >= 0 && g != own && steps <= groups;
         g = m.groups[g].parent, ++steps)
      box = g;
    if (box >= 0) {
      boxes.push_back(box);
      continue;
    }
    ++loose;
    if (std::find(ops.begin(), ops.end(), m.nodes[d].label) == ops.end() && ops.size() < 3)
      ops.push_back(m.nodes[d].label);
  }
  std::sort(boxes.begin(), boxes.end());
  boxes.erase(std::unique(boxes.begin(), boxes.end()), boxes.end());
  // A module box is drawn with its last segment ("3"); the stub names it whole ("layers.3").
  auto name = [&](int32_t g) {
    const ViewGroup& vg = m.groups[static_cast<size_t>(g)];
    return vg.kind == GroupKind::kModule && !vg.name.empty() ? vg.name : vg.label;
  };
  std::string where;
  if (!boxes.empty()) {
    where = name(boxes.front());
    if (boxes.size() > 1)
      where += " \u2026 " + name(boxes.back()) + " (" + std::to_string(boxes.size()) + " boxes)";
  }
  if (loose > 0) {
    if (!where.empty()) where += ", ";
    if (ops.size() <= 2) {
      for (size_t k = 0; k < ops.size(); ++k) where += (k ? ", " : "") + ops[k];
    } else {
      where += std::to_string(loose) + " ops";
    }
  }
  return std::to_string(uses[static_cast<size_t>(i)].size()) + " uses \u2192 " + where;
}

}  // namespace

ViewModel build_view_model(const Document& doc, int32_t graph,
                           const analysis::CategoryConfig& categories, const ViewOptions& options) {
  ViewModel m;
  if (graph < 0 || static_cast<size_t>(graph) >= doc.graphs.size()) return m;
  m.root_graph = graph;
  m.root_node_count = static_cast<int32_t>(doc.graphs[graph].nodes.size());
  Builder b(doc, categories, options, m, nested_graphs_drawn_once(doc, graph));
  b.add_graph(graph, -1, 0);

  {
    std::vector<int32_t> fan_out(m.nodes.size(), 0);
    for (const ViewEdge& e : m.edges) fan_out[e.source] += e.structural ? 0 : 1;
    for (ViewEdge& e : m.edges)
      e.detached = !e.structural && fan_out[e.source] > options.max_laid_out_fan_out;
  }
  place_parameters_with_consumers(m);
  add_group_contents(doc, m);

  // Depth, size and label of every group; groups nest, so walk parents with a step bound.
  const auto ng = m.groups.size();
  for (size_t i = 0; i < ng; ++i) {
    int32_t d = 0;
    for (int32_t p = m.groups[i].parent; p >= 0 && d <= static_cast<int32_t>(ng);
         p = m.groups[p].parent)
      ++d;
    m.groups[i].depth = d;
  }
  for (const ViewNode& n : m.nodes) {
    int32_t steps = 0;
    for (int32_t p = n.group; p >= 0 && steps <= static_cast<int32_t>(ng);
         p = m.groups[p].parent, ++steps)
      ++m.groups[p].node_count;
  }
  std::vector<int32_t> payload_ops(ng, 0);
  for (const ViewNode& n : m.nodes) {
    const Node& node = doc.graphs[static_cast<size_t>(n.graph)].nodes[static_cast<size_t>(n.node)];
    if (n.graph == graph || !analysis::counts_as_payload_operator(node)) continue;
    int32_t steps = 0;
    for (int32_t p = n.group; p >= 0 && steps <= static_cast<int32_t>(ng);
         p = m.groups[p].parent, ++steps)
      ++payload_ops[static_cast<size_t>(p)];
  }
  for (size_t i = 0; i < ng; ++i) {
    ViewGroup& vg = m.groups[i];
    vg.badge = vg.count_in_label                 ? ""
               : vg.kind == GroupKind::kDelegate ? std::to_string(payload_ops[i]) + " ops"
                                                 : std::to_string(vg.node_count);
  }
  for (ViewGroup& vg : m.groups) {
    const std::string text = vg.badge.empty() ? vg.label : vg.label + "  " + vg.badge;
    vg.collapsed_width = box_width(text, 44, 80, 320);
    vg.collapsed_height = kGroupHeight;
  }

  // Initial state: expand every group shallower than the deepest level whose visible box
  // count still fits the budget. Boxes visible at level d = nodes in groups of depth < d plus
  // groups of depth exactly d.
  int32_t max_depth = 0;
  for (const ViewGroup& vg : m.groups) max_depth = std::max(max_depth, vg.depth);
  auto node_depth = [&](const ViewNode& n) {
    return n.group < 0 ? 0 : m.groups[n.group].depth + 1;
  };
  int32_t chosen = 0;
  for (int32_t level = 0; level <= max_depth + 1; ++level) {
    int64_t visible = 0;
    for (const ViewNode& n : m.nodes) visible += node_depth(n) <= level ? 1 : 0;
    for (const ViewGroup& vg : m.groups) visible += vg.depth == level ? 1 : 0;
    if (level > 0 && visible > options.initial_visible_budget) break;
    chosen = level;
  }
  std::vector<bool> expanded(ng);
  for (size_t i = 0; i < ng; ++i) {
    m.groups[i].expanded = m.groups[i].depth < chosen && !m.groups[i].prefer_collapsed;
    expanded[i] = m.groups[i].expanded;
  }
  {
    std::vector<std::vector<int32_t>> uses(m.nodes.size());
    for (const ViewEdge& e : m.edges)
      if (e.detached) uses[static_cast<size_t>(e.source)].push_back(e.target);
    for (size_t i = 0; i < uses.size(); ++i)
      if (!uses[i].empty())
        m.stubs.emplace_back(static_cast<int32_t>(i), stub_text(m, static_cast<int32_t>(i), uses));
  }
  m.layout = layout::compute_layout(layout_input(m, expanded), layout_options());
  return m;
}

}  // namespace etviz::view
