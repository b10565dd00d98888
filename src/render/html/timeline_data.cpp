#include "render/html/timeline_data.h"

#include <nlohmann/json.hpp>

#include "render/html/page_data.h"
#include "render/json_text.h"

namespace etviz::render::html {

using nlohmann::json;

std::string timeline_data_json(const analysis::Timeline& timeline, const Document& doc,
                               int32_t merged_graph, const ViewModel& view, size_t page_graph) {
  const size_t nodes = view.nodes.size();
  // The union node each view node stands for: itself for the union graph's nodes, the node
  // whose subgraph it is inlined in for payload and body nodes (they come and go with it).
  std::vector<NodeId> root(nodes, kNoId);
  for (size_t k = 0; k < nodes; ++k) {
    int32_t v = static_cast<int32_t>(k);
    for (int hops = 0; hops < 64 && v >= 0; ++hops) {
      const ViewNode& n = view.nodes[static_cast<size_t>(v)];
      if (n.graph == merged_graph) {
        root[k] = n.node;
        break;
      }
      // Up to the group that inlines this graph; its owner is the calling node.
      int32_t g = n.group, owner = -1;
      for (int up = 0; g >= 0 && up < 256 && owner < 0; ++up) {
        owner = view.groups[static_cast<size_t>(g)].owner;
        g = view.groups[static_cast<size_t>(g)].parent;
      }
      v = owner;
    }
  }
  std::vector<int32_t> view_of(timeline.merged.nodes.size(), -1);
  for (size_t k = 0; k < nodes; ++k)
    if (view.nodes[k].graph == merged_graph)
      view_of[static_cast<size_t>(view.nodes[k].node)] = static_cast<int32_t>(k);

  json steps = json::array();
  for (size_t s = 0; s < timeline.steps.size(); ++s) {
    const analysis::TimelineStep& step = timeline.steps[s];
    const Graph& g = doc.graphs[static_cast<size_t>(step.graph)];
    // Union node of each node of this step's graph and of its base step's graph.
    std::vector<NodeId> union_of(g.nodes.size(), kNoId), base_union;
    for (size_t u = 0; u < step.member.size(); ++u)
      if (step.member[u] != kNoId)
        union_of[static_cast<size_t>(step.member[u])] = static_cast<NodeId>(u);
    const analysis::TimelineStep* base =
        step.base >= 0 ? &timeline.steps[static_cast<size_t>(step.base)] : nullptr;
    auto present = [&](const analysis::TimelineStep& st, NodeId u) {
      return u != kNoId && st.member[static_cast<size_t>(u)] != kNoId;
    };
    json absent = json::array(), removed = json::array(), added = json::array(),
         changed = json::array(), labels = json::object(), changes = json::object(),
         hidden_edges = json::array();
    for (size_t k = 0; k < nodes; ++k) {
      const NodeId u = root[k];
      if (u == kNoId) continue;
      if (!present(step, u)) {
        absent.push_back(k);
        // Removed (and drawn as a ghost), with what a removed delegate call had inlined.
        if (base && present(*base, u)) removed.push_back(k);
        continue;
      }
      if (base && !present(*base, u)) added.push_back(k);
      if (view.nodes[k].graph != merged_graph) continue;
      const Node& mine = g.nodes[static_cast<size_t>(step.member[static_cast<size_t>(u)])];
      const std::string label = node_label(mine);
      if (label != view.nodes[k].label) labels[std::to_string(k)] = label;
    }
    for (const analysis::NodeChange& c : step.diff.changes) {
      const NodeId u = c.b >= 0 && static_cast<size_t>(c.b) < union_of.size()
                           ? union_of[static_cast<size_t>(c.b)]
                           : kNoId;
      if (u == kNoId || view_of[static_cast<size_t>(u)] < 0) continue;
      const int32_t k = view_of[static_cast<size_t>(u)];
      changed.push_back(k);
      changes[std::to_string(k)] = c.what;
    }
    // Edges: hidden when an end is absent or, between union nodes, when the step does not
    // read that value (an edge another step has).
    for (size_t e = 0; e < view.edges.size(); ++e) {
      const ViewEdge& edge = view.edges[e];
      const NodeId a = root[static_cast<size_t>(edge.source)],
                   b = root[static_cast<size_t>(edge.target)];
      bool shown = (a == kNoId || present(step, a)) && (b == kNoId || present(step, b));
      const ViewNode& target = view.nodes[static_cast<size_t>(edge.target)];
      if (shown && !edge.structural && edge.value >= 0 && target.graph == merged_graph &&
          view.nodes[static_cast<size_t>(edge.source)].graph == merged_graph)
        shown =
            timeline.reads(s, target.node, static_cast<ValueId>(edge.value - view.value_base[0]));
      if (!shown) hidden_edges.push_back(e);
    }
    json j;
    j["name"] = step.name;
    j["graph"] = g.name;
    j["nodes"] = g.nodes.size();
    if (!step.error.empty()) j["error"] = step.error;
    j["base"] = step.base;
    j["counts"] = {{"same", step.diff.same},
                   {"changed", step.diff.changed},
                   {"added", step.diff.added},
                   {"removed", step.diff.removed}};
    j["absent"] = std::move(absent);
    j["removed"] = std::move(removed);
    j["added"] = std::move(added);
    j["changed"] = std::move(changed);
    j["changes"] = std::move(changes);
    j["labels"] = std::move(labels);
    j["hiddenEdges"] = std::move(hidden_edges);
    steps.push_back(std::move(j));
  }
  // The step whose facts each view node's panel shows (the last step holding it).
  json source = json::array();
  for (size_t k = 0; k < nodes; ++k)
    source.push_back(root[k] == kNoId ? -1 : timeline.source_step[static_cast<size_t>(root[k])]);
  json root_json;
  root_json["graph"] = page_graph;
  root_json["source"] = std::move(source);
  root_json["steps"] = std::move(steps);
  return script_safe_json(json_text(root_json, -1));
}

}  // namespace etviz::render::html
