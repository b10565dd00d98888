#include "render/html/timeline_data.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>

#include "formats/json/json_string.h"
#include "render/html/page_data.h"
#include "render/json_text.h"
#include "render/value_diff_report.h"

namespace etviz::render::html {

using nlohmann::json;

namespace {

// What the page shows of a value (web/src/data.js, GraphModel.value), in the page's words.
struct ValueFacts {
  std::string name, kind, dtype, shape, dim_order, location, key, literal, quant;
  int64_t nbytes = -1;
  int64_t mem_id = -1;  // -1: not planned
  uint64_t mem_offset = 0;
  bool operator==(const ValueFacts&) const = default;

  explicit ValueFacts(const Value& v)
      : name(v.name),
        kind(to_string(v.kind)),
        dim_order(dim_order_text(v.tensor.dim_order)),
        key(v.tensor.data_key.str()),
        literal(v.literal.str()),
        quant(quant_text(v.tensor.quantization)),
        nbytes(v.tensor.nbytes) {
    if (v.kind == ValueKind::kTensor) {
      dtype = v.tensor.dtype.str();
      shape = v.tensor.shape_string();
    }
    if (v.tensor.data_location != DataLocation::kNone) location = to_string(v.tensor.data_location);
    if (v.tensor.placement) {
      mem_id = v.tensor.placement->memory_id;
      mem_offset = v.tensor.placement->offset;
    }
  }

  // The fields of this that differ from `other`, keyed as GraphModel.value() names them
  // (`mem`: [memory id, offset], or null for a value that is not planned).
  json differences(const ValueFacts& other) const {
    json out = json::object();
    auto text = [&](const char* k, const std::string& mine, const std::string& theirs) {
      if (mine != theirs) out[k] = mine;
    };
    text("name", name, other.name);
    text("kind", kind, other.kind);
    text("dtype", dtype, other.dtype);
    text("shape", shape, other.shape);
    text("dimOrder", dim_order, other.dim_order);
    text("location", location, other.location);
    text("key", key, other.key);
    text("literal", literal, other.literal);
    text("quant", quant, other.quant);
    if (nbytes != other.nbytes) out["nbytes"] = nbytes;
    if (mem_id != other.mem_id || mem_offset != other.mem_offset)
      out["mem"] = mem_id < 0 ? json() : json::array({mem_id, mem_offset});
    return out;
  }
};

// What the panel shows of a node besides its label and arguments (web/src/panel.js showNode).
struct NodeFacts {
  std::string op, name, kind, module, handles, stack;
  int32_t instr = -1, chain = -1, delegate = -1;
  std::vector<std::pair<std::string, std::string>> attrs;

  explicit NodeFacts(const Node& n)
      : op(n.op.str()),
        name(n.name),
        kind(to_string(n.kind)),
        module(n.provenance.module_path.str()),
        handles(join_ints(n.provenance.debug_handles)),
        stack(stack_text(n.provenance.stack)),
        instr(n.provenance.instruction),
        chain(n.provenance.chain),
        delegate(n.delegate) {
    for (const Attribute& a : with_failure(n)) attrs.emplace_back(a.name, a.value);
  }

  // The fields of this that differ from `other` (the keys web/src/timeline_overlay.js reads).
  json differences(const NodeFacts& other) const {
    json out = json::object();
    auto text = [&](const char* k, const std::string& mine, const std::string& theirs) {
      if (mine != theirs) out[k] = mine;
    };
    text("op", op, other.op);
    text("name", name, other.name);
    text("kind", kind, other.kind);
    text("module", module, other.module);
    text("handles", handles, other.handles);
    text("stack", stack, other.stack);
    if (instr != other.instr) out["instr"] = instr;
    if (chain != other.chain) out["chain"] = chain;
    if (delegate != other.delegate) out["delegate"] = delegate;
    if (attrs != other.attrs) {
      json list = json::array();
      for (const auto& [k, v] : attrs) list.push_back({k, v});
      out["attrs"] = std::move(list);
    }
    return out;
  }
};

// A step's own node and value data, written where it differs from the union's copy (the union
// node carries the data of the last step holding it): `values` lists the view values per index
// into the shared table of their differences (`valueFacts`), `nodeFacts` per view node the
// node's differing fields and arguments. A precision pass shows float32 before it and float16
// after.
class StepFacts {
 public:
  StepFacts(const analysis::Timeline& timeline, const Document& doc, const ViewModel& view,
            const std::vector<int32_t>& view_of)
      : t_(timeline), doc_(doc), view_of_(view_of), value_base_(view.value_base[0]) {
    union_values_.resize(timeline.merged.values.size());
    union_nodes_.resize(timeline.merged.nodes.size());
  }

  void write(size_t s, json& step) {
    const analysis::TimelineStep& st = t_.steps[s];
    const Graph& g = doc_.graphs[static_cast<size_t>(st.graph)];
    const Graph& m = t_.merged;
    // Grouped by difference: a precision pass's values all read {"dtype": "float32"} before it.
    json values = json::object();
    for (size_t v = 0; v < st.values.size(); ++v) {
      const ValueId uv = st.values[v];
      if (uv == kNoId) continue;
      const json d = ValueFacts(g.values[v]).differences(union_facts(uv));
      if (d.empty()) continue;
      values[std::to_string(intern(d))].push_back(value_base_ + uv);
    }
    json nodes = json::object();
    for (size_t u = 0; u < st.member.size(); ++u) {
      const NodeId i = st.member[u];
      if (i == kNoId || view_of_[u] < 0) continue;
      const Node& mine = g.nodes[static_cast<size_t>(i)];
      const Node& theirs = m.nodes[u];
      json d = NodeFacts(mine).differences(union_node_facts(u));
      // The union's own arguments are the source step's, the first source_inputs of its
      // inputs (the page reads only those where a step lists none of its own).
      const auto own = static_cast<size_t>(t_.source_inputs[u]);
      if (!same_arguments(st, g, mine.inputs, std::span(theirs.inputs).first(own)))
        d["inputs"] = arguments(st, mine.inputs);
      if (!same_arguments(st, g, mine.outputs, theirs.outputs))
        d["outputs"] = arguments(st, mine.outputs);
      if (!d.empty()) nodes[std::to_string(view_of_[u])] = std::move(d);
    }
    step["values"] = std::move(values);
    step["nodeFacts"] = std::move(nodes);
  }

  json facts() && { return std::move(facts_); }

 private:
  const NodeFacts& union_node_facts(size_t u) {
    auto& f = union_nodes_[u];
    if (!f) f.emplace(t_.merged.nodes[u]);
    return *f;
  }

  const ValueFacts& union_facts(ValueId uv) {
    auto& f = union_values_[static_cast<size_t>(uv)];
    if (!f) f.emplace(t_.merged.values[static_cast<size_t>(uv)]);
    return *f;
  }

  // Index of `d` in the shared table: a precision pass's thousands of values differ in a few
  // ways ({"dtype": "float32", "nbytes": 256}), each written once.
  int64_t intern(const json& d) {
    const std::string key = d.dump();
    const auto [it, fresh] = interned_.try_emplace(key, static_cast<int64_t>(facts_.size()));
    if (fresh) facts_.push_back(d);
    return it->second;
  }

  ValueId union_value(const analysis::TimelineStep& st, ValueId v) const {
    return v >= 0 && static_cast<size_t>(v) < st.values.size() ? st.values[static_cast<size_t>(v)]
                                                               : kNoId;
  }

  // The step's arguments as the page lists them: [name, view value id (-1: none)].
  json arguments(const analysis::TimelineStep& st, const std::vector<Argument>& args) const {
    json list = json::array();
    for (const Argument& a : args) {
      const ValueId uv = union_value(st, a.value);
      list.push_back({a.name.str(), uv == kNoId ? -1 : value_base_ + uv});
    }
    return list;
  }

  // The step's arguments against the union node's: the same values, or, for a literal (a
  // copy per step), one that reads the same.
  bool same_arguments(const analysis::TimelineStep& st, const Graph& g,
                      std::span<const Argument> mine, std::span<const Argument> theirs) {
    if (mine.size() != theirs.size()) return false;
    const Graph& m = t_.merged;
    for (size_t k = 0; k < mine.size(); ++k) {
      if (mine[k].name != theirs[k].name) return false;
      const ValueId uv = union_value(st, mine[k].value), tv = theirs[k].value;
      if (uv == tv) continue;
      if (uv == kNoId || tv < 0 || static_cast<size_t>(tv) >= m.values.size()) return false;
      if (!analysis::is_literal(g, mine[k].value) || !analysis::is_literal(m, tv)) return false;
      if (!(ValueFacts(g.values[static_cast<size_t>(mine[k].value)]) == union_facts(tv)))
        return false;
    }
    return true;
  }

  const analysis::Timeline& t_;
  const Document& doc_;
  const std::vector<int32_t>& view_of_;
  const int32_t value_base_;
  std::vector<std::optional<ValueFacts>> union_values_;
  std::vector<std::optional<NodeFacts>> union_nodes_;
  std::unordered_map<std::string, int64_t> interned_;
  json facts_ = json::array();
};

}  // namespace

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

  StepFacts facts(timeline, doc, view, view_of);
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
      const std::string label = view::node_label(mine);
      if (label != view.nodes[k].label) labels[std::to_string(k)] = label;
    }
    // Constants whose bytes differ, with their statistics, for the panel.
    json tensors = json::object();
    if (step.diff.values)
      for (auto& [n, panel] : tensor_panels(*step.diff.values, g)) {
        const NodeId u =
            static_cast<size_t>(n) < union_of.size() ? union_of[static_cast<size_t>(n)] : kNoId;
        if (u != kNoId && view_of[static_cast<size_t>(u)] >= 0)
          tensors[std::to_string(view_of[static_cast<size_t>(u)])].push_back(std::move(panel));
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
    if (!tensors.empty()) j["tensors"] = std::move(tensors);
    j["labels"] = std::move(labels);
    j["hiddenEdges"] = std::move(hidden_edges);
    facts.write(s, j);
    steps.push_back(std::move(j));
  }
  // The step whose facts each view node's panel shows (the last step holding it).
  json source = json::array();
  for (size_t k = 0; k < nodes; ++k)
    source.push_back(root[k] == kNoId ? -1 : timeline.source_step[static_cast<size_t>(root[k])]);
  // Union nodes whose inputs include other steps' reads (rewired edges): how many are the
  // source step's own arguments.
  json own_inputs = json::object();
  for (size_t u = 0; u < view_of.size(); ++u)
    if (view_of[u] >= 0 &&
        static_cast<size_t>(timeline.source_inputs[u]) < timeline.merged.nodes[u].inputs.size())
      own_inputs[std::to_string(view_of[u])] = timeline.source_inputs[u];
  json root_json;
  root_json["graph"] = page_graph;
  root_json["source"] = std::move(source);
  root_json["ownInputs"] = std::move(own_inputs);
  root_json["steps"] = std::move(steps);
  root_json["valueFacts"] = std::move(facts).facts();
  return script_safe_json(json_text(root_json, -1));
}

}  // namespace etviz::render::html
