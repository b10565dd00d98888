#include "analysis/timeline.h"

#include <algorithm>
#include <unordered_map>

#include "analysis/value_diff.h"

namespace etviz::analysis {
namespace {

uint64_t read_key(NodeId consumer, ValueId value) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(consumer)) << 32) |
         static_cast<uint32_t>(value);
}

// Builds the union graph from the chains of matched nodes.
class Merger {
 public:
  Merger(const Document& doc, Timeline& t) : doc_(doc), t_(t) {}

  void run() {
    const size_t steps = t_.steps.size();
    // Union nodes: chains of matches between consecutive steps.
    std::vector<std::vector<NodeId>> to_union(steps);
    int32_t count = 0;
    for (size_t s = 0; s < steps; ++s) {
      const Graph& g = graph(s);
      to_union[s].assign(g.nodes.size(), kNoId);
      for (size_t i = 0; i < g.nodes.size(); ++i) {
        const int32_t base = t_.steps[s].base;
        const NodeId prev = base >= 0 ? t_.steps[s].diff.b_to_a[i] : kNoId;
        to_union[s][i] = prev != kNoId
                             ? to_union[static_cast<size_t>(base)][static_cast<size_t>(prev)]
                             : count++;
      }
    }
    for (size_t s = 0; s < steps; ++s) {
      t_.steps[s].member.assign(static_cast<size_t>(count), kNoId);
      t_.steps[s].values.assign(graph(s).values.size(), kNoId);
    }
    t_.source_step.assign(static_cast<size_t>(count), -1);
    for (size_t s = 0; s < steps; ++s)
      for (size_t i = 0; i < to_union[s].size(); ++i) {
        const auto u = static_cast<size_t>(to_union[s][i]);
        t_.steps[s].member[u] = static_cast<NodeId>(i);
        t_.source_step[u] = static_cast<int32_t>(s);  // the last step wins
      }

    Graph& m = t_.merged;
    const Graph& last = graph(steps - 1);
    m.name = last.name;
    m.kind = last.kind;
    m.stage = last.stage;
    m.nodes.resize(static_cast<size_t>(count));
    // Nodes copy their source step's node; values are (union producer, output slot) so that
    // every step's reads of one producer's output land on one value.
    for (size_t u = 0; u < static_cast<size_t>(count); ++u) {
      const auto s = static_cast<size_t>(t_.source_step[u]);
      const Graph& g = graph(s);
      const Node& src = g.nodes[static_cast<size_t>(t_.steps[s].member[u])];
      Node n = src;
      n.group = map_group(g, src.group);
      n.inputs.clear();
      n.outputs.clear();
      for (size_t k = 0; k < src.outputs.size(); ++k)
        n.outputs.push_back({src.outputs[k].name, output_value(s, to_union, src.outputs[k].value,
                                                               static_cast<NodeId>(u), k)});
      m.nodes[u] = std::move(n);
    }
    // Inputs: the source step's first, then reads only other steps make.
    t_.source_inputs.assign(static_cast<size_t>(count), 0);
    for (size_t u = 0; u < static_cast<size_t>(count); ++u) {
      const auto src_step = static_cast<size_t>(t_.source_step[u]);
      add_inputs(src_step, to_union, u, true);
      t_.source_inputs[u] = static_cast<int32_t>(m.nodes[u].inputs.size());
      for (size_t s = 0; s < steps; ++s)
        if (s != src_step && t_.steps[s].member[u] != kNoId) add_inputs(s, to_union, u, false);
    }
    // Outputs no step reads still have a union value: the step's node shows them.
    for (size_t s = 0; s < steps; ++s) {
      const Graph& g = graph(s);
      for (size_t u = 0; u < static_cast<size_t>(count); ++u) {
        const NodeId i = t_.steps[s].member[u];
        if (i == kNoId) continue;
        const Node& n = g.nodes[static_cast<size_t>(i)];
        for (size_t k = 0; k < n.outputs.size(); ++k)
          output_value(s, to_union, n.outputs[k].value, static_cast<NodeId>(u), k);
      }
    }
    for (auto& step : t_.steps) std::sort(step.reads.begin(), step.reads.end());
    m.link_values();
  }

 private:
  const Graph& graph(size_t s) const { return doc_.graphs[static_cast<size_t>(t_.steps[s].graph)]; }

  GroupId map_group(const Graph& g, GroupId id, int depth = 0) {
    if (id < 0 || static_cast<size_t>(id) >= g.groups.size() || depth > 64) return kNoId;
    const Group& src = g.groups[static_cast<size_t>(id)];
    auto it = groups_.find(src.name);
    if (it != groups_.end()) return it->second;
    // Parents first; the depth of a group path is bounded by the groups there are.
    const GroupId parent = src.parent != id ? map_group(g, src.parent, depth + 1) : kNoId;
    Group copy = src;
    copy.parent = parent;
    const GroupId mine = t_.merged.add_group(std::move(copy));
    groups_.emplace(src.name, mine);
    return mine;
  }

  // The union value of output slot k of union node u (created on first use).
  ValueId output_value(size_t s, const std::vector<std::vector<NodeId>>&, ValueId v, NodeId u,
                       size_t k) {
    const uint64_t key = read_key(u, static_cast<ValueId>(k));
    const Graph& g = graph(s);
    const bool valid = v >= 0 && static_cast<size_t>(v) < g.values.size();
    ValueId mine = kNoId;
    if (auto it = outputs_.find(key); it != outputs_.end()) {
      mine = it->second;
    } else {
      Value copy = valid ? g.values[static_cast<size_t>(v)] : Value{};
      copy.producer = kNoId;
      copy.consumers.clear();
      copy.elements.clear();
      mine = t_.merged.add_value(std::move(copy));
      outputs_.emplace(key, mine);
    }
    if (valid) t_.steps[s].values[static_cast<size_t>(v)] = mine;
    return mine;
  }

  // The union value a step's value stands for: its producer's output slot, or a copy for a
  // value without a producer (a literal argument).
  ValueId union_value(size_t s, const std::vector<std::vector<NodeId>>& to_union, ValueId v,
                      int depth = 0) {
    const Graph& g = graph(s);
    if (v < 0 || static_cast<size_t>(v) >= g.values.size()) return kNoId;
    const Value& val = g.values[static_cast<size_t>(v)];
    const NodeId p = val.producer;
    if (p >= 0 && static_cast<size_t>(p) < g.nodes.size()) {
      const Node& producer = g.nodes[static_cast<size_t>(p)];
      for (size_t k = 0; k < producer.outputs.size(); ++k)
        if (producer.outputs[k].value == v)
          return output_value(s, to_union, v, to_union[s][static_cast<size_t>(p)], k);
    }
    // No producer (a literal), or a list whose members have producers: a copy per step value.
    const uint64_t key = (static_cast<uint64_t>(s) << 32) | static_cast<uint32_t>(v);
    auto it = loose_.find(key);
    if (it != loose_.end()) return it->second;
    Value copy = val;
    copy.producer = kNoId;
    copy.consumers.clear();
    copy.elements.clear();
    const ValueId mine = t_.merged.add_value(std::move(copy));
    loose_.emplace(key, mine);
    t_.steps[s].values[static_cast<size_t>(v)] = mine;
    if (depth < 2)
      for (ValueId e : val.elements) {
        const ValueId ue = e == v ? kNoId : union_value(s, to_union, e, depth + 1);
        t_.merged.values[static_cast<size_t>(mine)].elements.push_back(ue);
      }
    return mine;
  }

  void add_inputs(size_t s, const std::vector<std::vector<NodeId>>& to_union, size_t u,
                  bool source) {
    const Graph& g = graph(s);
    const Node& src = g.nodes[static_cast<size_t>(t_.steps[s].member[u])];
    Node& n = t_.merged.nodes[u];
    for (const Argument& arg : src.inputs) {
      const ValueId uv = union_value(s, to_union, arg.value);
      if (uv == kNoId) continue;
      auto note = [&](ValueId x) {
        t_.steps[s].reads.push_back(read_key(static_cast<NodeId>(u), x));
      };
      note(uv);
      for (ValueId e : t_.merged.values[static_cast<size_t>(uv)].elements)
        if (e != kNoId) note(e);
      const bool have = std::any_of(n.inputs.begin(), n.inputs.end(),
                                    [&](const Argument& a) { return a.value == uv; });
      // Literals are per step copies: only the source step's are kept as arguments.
      if (!have && (source || !is_literal(g, arg.value))) n.inputs.push_back({arg.name, uv});
    }
  }

  const Document& doc_;
  Timeline& t_;
  std::unordered_map<std::string, GroupId> groups_;
  std::unordered_map<uint64_t, ValueId> outputs_;
  std::unordered_map<uint64_t, ValueId> loose_;
};

}  // namespace

bool is_literal(const Graph& g, ValueId v) {
  auto produced = [&](ValueId x) {
    return x >= 0 && static_cast<size_t>(x) < g.values.size() &&
           g.values[static_cast<size_t>(x)].producer != kNoId;
  };
  if (v < 0 || static_cast<size_t>(v) >= g.values.size() || produced(v)) return false;
  const Value& val = g.values[static_cast<size_t>(v)];
  return std::none_of(val.elements.begin(), val.elements.end(), produced);
}

bool Timeline::reads(size_t step, NodeId consumer, ValueId value) const {
  const auto& r = steps[step].reads;
  return std::binary_search(r.begin(), r.end(), read_key(consumer, value));
}

std::string step_name(const Graph& g) {
  return g.name;
}

Timeline build_timeline(const Document& doc, const std::vector<int32_t>& graphs) {
  Timeline t;
  for (int32_t gi : graphs) {
    if (gi < 0 || static_cast<size_t>(gi) >= doc.graphs.size()) continue;
    const Graph& g = doc.graphs[static_cast<size_t>(gi)];
    TimelineStep step;
    step.graph = gi;
    step.name = step_name(g);
    step.error = g.failure ? g.failure->message : "";
    // A failed pass without a graph is not a step back to nothing: the next step is compared
    // with the last step that has nodes.
    for (size_t k = t.steps.size(); k-- > 0;) {
      const Graph& prev = doc.graphs[static_cast<size_t>(t.steps[k].graph)];
      if (prev.nodes.empty() && k > 0) continue;
      step.base = static_cast<int32_t>(k);
      step.diff = diff_graphs(doc, prev, doc, g);
      // Weights and values too: a step whose constants changed shows those nodes changed.
      add_value_diff(doc, prev, doc, g, step.diff);
      break;
    }
    t.steps.push_back(std::move(step));
  }
  if (t.steps.empty()) return t;
  Merger(doc, t).run();
  return t;
}

}  // namespace etviz::analysis
