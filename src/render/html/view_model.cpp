#include "render/html/view_model.h"

#include <algorithm>
#include <unordered_set>

#include "layout/route_sharing.h"

namespace etviz::render::html {
namespace {

constexpr double kNodeHeight = 28;
constexpr double kGroupHeight = 34;
constexpr int kMaxNesting = 16;  // subgraphs inside subgraphs; deeper references are ignored

std::string node_label(const Node& n) {
  switch (n.kind) {
    case NodeKind::kKernel: {
      std::string base = analysis::op_base_name(n.op);
      return base.empty() ? n.op : base;
    }
    case NodeKind::kInput:
    case NodeKind::kOutput:
    case NodeKind::kConstant:
    case NodeKind::kGetAttr:
      return n.name.empty() ? n.op : n.name;
    default:
      return n.op.empty() ? n.name : n.op;
  }
}

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
  Builder(const Document& doc, const analysis::CategoryConfig& cats, ViewModel& m)
      : doc_(doc), cats_(cats), m_(m) {}

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
    add_edges(slot, graph, node_base);

    // Per-graph QDQ clusters, translated to view indices.
    std::vector<analysis::Category> node_cats;
    node_cats.reserve(graph.nodes.size());
    for (size_t i = 0; i < graph.nodes.size(); ++i)
      node_cats.push_back(m_.nodes[node_base + i].category);
    for (auto c : analysis::find_qdq_clusters(graph, node_cats)) {
      c.anchor += node_base;
      for (auto& member : c.members) member += node_base;
      m_.qdq_clusters.push_back(std::move(c));
    }

    // Nested graphs: a delegate's decoded payload, a higher-order op's body.
    if (depth < kMaxNesting) {
      for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const Node& n = graph.nodes[i];
        const int32_t sub = n.subgraph;
        if (!doc_.subgraph_of(n) || active_.count(sub)) continue;
        const int32_t owner_node = node_base + static_cast<int32_t>(i);
        ViewGroup vg;
        const Graph& sg = doc_.graphs[sub];
        vg.name = n.name + "/" + sg.name;
        vg.label = n.kind == NodeKind::kDelegate ? n.op : (sg.name.empty() ? n.name : sg.name);
        vg.kind = n.kind == NodeKind::kDelegate ? GroupKind::kDelegate : GroupKind::kControlFlow;
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
      }
    }
    active_.erase(g);
  }

  int32_t value_count() const { return value_count_; }

 private:
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
  ViewModel& m_;
  int32_t value_count_ = 0;
  std::unordered_set<int32_t> active_;  // graphs on the current nesting path (cycle guard)
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

}  // namespace

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

std::vector<int32_t> top_level_graphs(const Document& doc) {
  std::vector<bool> nested(doc.graphs.size(), false);
  auto mark = [&](int32_t g) {
    if (g >= 0 && static_cast<size_t>(g) < doc.graphs.size()) nested[g] = true;
  };
  for (const Graph& g : doc.graphs)
    for (const Node& n : g.nodes) mark(n.subgraph);
  for (const Delegate& d : doc.delegates) mark(d.subgraph);
  std::vector<int32_t> out;
  for (size_t i = 0; i < doc.graphs.size(); ++i)
    if (!nested[i]) out.push_back(static_cast<int32_t>(i));
  if (out.empty() && !doc.graphs.empty()) out.push_back(0);  // everything nested: a cycle
  return out;
}

layout::Options layout_options() {
  layout::Options o;
  o.node_spacing = 22;
  o.layer_spacing = 34;
  o.edge_spacing = 10;
  o.group_padding = 12;
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

ViewModel build_view_model(const Document& doc, int32_t graph,
                           const analysis::CategoryConfig& categories, const ViewOptions& options) {
  ViewModel m;
  if (graph < 0 || static_cast<size_t>(graph) >= doc.graphs.size()) return m;
  m.root_graph = graph;
  m.root_node_count = static_cast<int32_t>(doc.graphs[graph].nodes.size());
  Builder b(doc, categories, m);
  b.add_graph(graph, -1, 0);

  {
    std::vector<int32_t> fan_out(m.nodes.size(), 0);
    for (const ViewEdge& e : m.edges) fan_out[e.source] += e.structural ? 0 : 1;
    for (ViewEdge& e : m.edges)
      e.detached = !e.structural && fan_out[e.source] > options.max_laid_out_fan_out;
  }
  place_parameters_with_consumers(m);

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
  for (ViewGroup& vg : m.groups) {
    const std::string text = vg.label + "  " + std::to_string(vg.node_count);
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
    m.groups[i].expanded = m.groups[i].depth < chosen;
    expanded[i] = m.groups[i].expanded;
  }
  m.layout = layout::compute_layout(layout_input(m, expanded), layout_options());
  return m;
}

}  // namespace etviz::render::html
