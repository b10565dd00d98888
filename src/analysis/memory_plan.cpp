#include "analysis/memory_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <queue>

#include "core/op_schema.h"

namespace etviz::analysis {
namespace {

bool valid(const Graph& g, ValueId v) {
  return v >= 0 && static_cast<size_t>(v) < g.values.size();
}

// Peak live bytes of one arena and where it is first reached.
void find_peak(ArenaUse& arena, const std::vector<PlannedTensor>& tensors,
               const std::vector<int32_t>& members) {
  std::vector<std::pair<int64_t, int64_t>> events;  // (time, +bytes at first / -bytes after last)
  events.reserve(members.size() * 2);
  for (int32_t k : members) {
    const PlannedTensor& t = tensors[static_cast<size_t>(k)];
    events.push_back({t.first, t.bytes});
    events.push_back({t.last + 1, -t.bytes});
  }
  // At one time, frees (negative) before allocations: a tensor ending at t - 1 is gone at t.
  std::sort(events.begin(), events.end());
  int64_t live = 0;
  for (size_t i = 0; i < events.size();) {
    const int64_t time = events[i].first;
    for (; i < events.size() && events[i].first == time; ++i) live += events[i].second;
    if (live > arena.peak_bytes) {
      arena.peak_bytes = live;
      arena.peak_at = time;
    }
  }
  for (int32_t k : members) {
    const PlannedTensor& t = tensors[static_cast<size_t>(k)];
    if (t.first <= arena.peak_at && arena.peak_at <= t.last) arena.live_at_peak.push_back(k);
  }
  std::sort(arena.live_at_peak.begin(), arena.live_at_peak.end(), [&](int32_t a, int32_t b) {
    const auto &x = tensors[static_cast<size_t>(a)], &y = tensors[static_cast<size_t>(b)];
    return x.bytes != y.bytes ? x.bytes > y.bytes : x.offset < y.offset;
  });
}

// Tensors of one arena live at the same time whose byte ranges meet. A sweep over time with
// the live tensors ordered by offset; each new tensor looks only at live ones that can reach it.
void find_overlaps(MemoryPlan& plan, const std::vector<int32_t>& members) {
  const auto& T = plan.tensors;
  std::vector<int32_t> order;
  int64_t widest = 0;
  for (int32_t k : members)
    if (T[static_cast<size_t>(k)].bytes > 0) {
      order.push_back(k);
      widest = std::max(widest, T[static_cast<size_t>(k)].bytes);
    }
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    const auto &x = T[static_cast<size_t>(a)], &y = T[static_cast<size_t>(b)];
    return x.first != y.first ? x.first < y.first : x.offset < y.offset;
  });
  std::multimap<uint64_t, int32_t> live;  // offset -> tensor
  using Expiry = std::pair<int64_t, std::multimap<uint64_t, int32_t>::iterator>;
  auto later = [](const Expiry& a, const Expiry& b) { return a.first > b.first; };
  std::priority_queue<Expiry, std::vector<Expiry>, decltype(later)> expiry(later);
  for (int32_t k : order) {
    const PlannedTensor& t = T[static_cast<size_t>(k)];
    while (!expiry.empty() && expiry.top().first < t.first) {
      live.erase(expiry.top().second);
      expiry.pop();
    }
    const uint64_t end = t.offset + static_cast<uint64_t>(t.bytes);
    const uint64_t from = t.offset > static_cast<uint64_t>(widest) ? t.offset - widest : 0;
    for (auto it = live.lower_bound(from); it != live.end() && it->first < end; ++it) {
      const PlannedTensor& o = T[static_cast<size_t>(it->second)];
      if (o.offset + static_cast<uint64_t>(o.bytes) <= t.offset) continue;
      ++plan.overlap_count;
      if (plan.overlaps.size() < kMaxOverlaps)
        plan.overlaps.push_back({it->second, k, t.first, std::min(t.last, o.last)});
    }
    expiry.push({t.last, live.emplace(t.offset, k)});
  }
}

// The input whose storage a kernel's only output views, or kNoId: the op is a view (by its
// schema's alias annotations, or executorch_prim::et_view) and the plan places the output
// exactly on that input's bytes. An op that merely writes where an input lives is not one.
ValueId view_base(const Graph& g, const Node& n) {
  if (n.outputs.size() != 1 || !valid(g, n.outputs[0].value)) return kNoId;
  const Value& out = g.values[static_cast<size_t>(n.outputs[0].value)];
  if (out.kind != ValueKind::kTensor || !out.tensor.placement) return kNoId;
  const OpSchema* schema = find_op_schema(n.op.str());
  const bool et_view = is_view_op(n.op.str());
  if (!schema && !et_view) return kNoId;
  for (size_t k = 0; k < n.inputs.size(); ++k) {
    const ValueId id = n.inputs[k].value;
    if (!valid(g, id) || id == n.outputs[0].value) continue;
    const Value& in = g.values[static_cast<size_t>(id)];
    if (in.kind != ValueKind::kTensor || !in.tensor.placement) continue;
    const auto& p = *in.tensor.placement;
    if (p.memory_id != out.tensor.placement->memory_id || p.offset != out.tensor.placement->offset)
      continue;
    if (et_view && k == 0) return id;
    // The schema position of input k: its name (a call lists the schema's arguments in order).
    if (schema)
      for (size_t a = 0; a < schema->arguments.size(); ++a)
        if (schema->arguments[a].name == n.inputs[k].name.str() && returns_alias_of(*schema, 0, a))
          return id;
  }
  return kNoId;
}

}  // namespace

bool is_planned(const Value& v) {
  return v.kind == ValueKind::kTensor && v.tensor.placement &&
         (v.tensor.data_location == DataLocation::kNone ||
          v.tensor.data_location == DataLocation::kMutableSegment);
}

Result<MemoryPlan> memory_plan(const Document& doc, const Graph& g) {
  (void)doc;
  MemoryPlan plan;
  plan.method = g.name;
  plan.non_const_buffer_sizes = g.memory_buffer_sizes;
  // Execution order: chains in order, instructions in order within each.
  std::vector<NodeId> order;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].provenance.instruction >= 0) order.push_back(static_cast<NodeId>(i));
  std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId b) {
    const auto &x = g.nodes[static_cast<size_t>(a)].provenance,
               &y = g.nodes[static_cast<size_t>(b)].provenance;
    return x.chain != y.chain ? x.chain < y.chain : x.instruction < y.instruction;
  });
  std::vector<int64_t> pos(g.nodes.size(), -1);
  for (size_t k = 0; k < order.size(); ++k)
    pos[static_cast<size_t>(order[k])] = static_cast<int64_t>(k);
  plan.instructions = static_cast<int64_t>(order.size());
  plan.instruction_nodes = order;
  const int64_t end = std::max<int64_t>(plan.instructions - 1, 0);

  // Storage: a folded view (alias node) is its source's storage; so is a view the runtime
  // makes (executorch_prim::et_view, or an op whose schema says its return aliases an
  // argument) when the plan puts it on that argument's bytes, as ExecuTorch's planner does.
  const size_t nv = g.values.size();
  std::vector<ValueId> storage(nv);
  for (size_t v = 0; v < nv; ++v) storage[v] = static_cast<ValueId>(v);
  for (const Node& n : g.nodes)
    if (n.op == "alias" && n.provenance.instruction < 0 && n.inputs.size() == 1 &&
        n.outputs.size() == 1 && valid(g, n.inputs[0].value) && valid(g, n.outputs[0].value)) {
      storage[static_cast<size_t>(n.outputs[0].value)] = n.inputs[0].value;
      ++plan.aliases;
    } else if (n.kind == NodeKind::kKernel) {
      const ValueId base = view_base(g, n);
      if (base != kNoId) {
        storage[static_cast<size_t>(n.outputs[0].value)] = base;
        ++plan.aliases;
      }
    }
  auto root = [&](ValueId v) {
    for (int hops = 0; hops < 64 && storage[static_cast<size_t>(v)] != v; ++hops)
      v = storage[static_cast<size_t>(v)];
    return v;
  };
  // Lifetimes per storage root: first write, last read (list members are read with their list).
  std::vector<int64_t> first(nv, INT64_MAX), last(nv, -1);
  std::vector<uint8_t> forever(nv, 0), input(nv, 0);
  std::vector<NodeId> producer(nv, kNoId);
  auto read_at = [&](ValueId v, int64_t p) {
    if (!valid(g, v)) return;
    const ValueId r = root(v);
    last[static_cast<size_t>(r)] = std::max(last[static_cast<size_t>(r)], p);
  };
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const int64_t p = pos[i];
    if (p < 0) continue;
    const Node& n = g.nodes[i];
    for (const Argument& a : n.inputs) {
      read_at(a.value, p);
      if (valid(g, a.value))
        for (ValueId e : g.values[static_cast<size_t>(a.value)].elements) read_at(e, p);
    }
    auto write = [&](ValueId v) {
      if (!valid(g, v)) return;
      const ValueId r = root(v);
      auto& f = first[static_cast<size_t>(r)];
      if (p < f) {
        f = p;
        if (r == v) producer[static_cast<size_t>(r)] = static_cast<NodeId>(i);
      }
      last[static_cast<size_t>(r)] = std::max(last[static_cast<size_t>(r)], p);
    };
    for (const Argument& a : n.outputs) {
      write(a.value);
      if (valid(g, a.value))
        for (ValueId e : g.values[static_cast<size_t>(a.value)].elements) write(e);
    }
  }
  for (ValueId v : g.inputs)
    if (valid(g, v)) {
      input[static_cast<size_t>(root(v))] = 1;
      first[static_cast<size_t>(root(v))] = 0;
    }
  for (ValueId v : g.outputs)
    if (valid(g, v)) forever[static_cast<size_t>(root(v))] = 1;
  for (size_t v = 0; v < nv; ++v)
    if (g.values[v].tensor.data_location == DataLocation::kMutableSegment) {
      forever[static_cast<size_t>(root(static_cast<ValueId>(v)))] = 1;
      first[static_cast<size_t>(root(static_cast<ValueId>(v)))] = 0;
    }

  std::map<uint32_t, std::vector<int32_t>> by_arena;
  for (size_t v = 0; v < nv; ++v) {
    const Value& val = g.values[v];
    if (!is_planned(val) || root(static_cast<ValueId>(v)) != static_cast<ValueId>(v)) continue;
    if (val.tensor.nbytes < 0) {
      ++plan.unsized;
      continue;
    }
    PlannedTensor t;
    t.value = static_cast<ValueId>(v);
    t.name = val.name.empty() ? fmt::format("v{}", v) : val.name;
    t.arena = val.tensor.placement->memory_id;
    t.offset = val.tensor.placement->offset;
    t.bytes = val.tensor.nbytes;
    t.producer = producer[v];
    t.input = input[v];
    t.never_freed = forever[v];
    t.first = first[v] == INT64_MAX ? (last[v] >= 0 ? last[v] : 0) : first[v];
    t.last = t.never_freed ? end : std::max(last[v], t.first);
    by_arena[t.arena].push_back(static_cast<int32_t>(plan.tensors.size()));
    plan.tensors.push_back(std::move(t));
  }
  bool any_arena = false;
  for (size_t id = 1; id < plan.non_const_buffer_sizes.size(); ++id)
    any_arena |= plan.non_const_buffer_sizes[id] > 0;
  if (plan.tensors.empty() && !any_arena)
    return Error(
        fmt::format("method '{}' has no planned memory: no tensor has a memory id and every "
                    "non_const_buffer_size is 0 (a delegate may hold its tensors itself)",
                    g.name));
  for (size_t id = 1; id < plan.non_const_buffer_sizes.size(); ++id)
    if (plan.non_const_buffer_sizes[id] > 0) by_arena[static_cast<uint32_t>(id)];
  for (auto& [id, members] : by_arena) {
    ArenaUse a;
    a.id = id;
    a.planned_bytes = id < plan.non_const_buffer_sizes.size() ? plan.non_const_buffer_sizes[id] : 0;
    a.tensors = static_cast<int64_t>(members.size());
    for (int32_t k : members) {
      const PlannedTensor& t = plan.tensors[static_cast<size_t>(k)];
      a.highest_end = std::max(a.highest_end, static_cast<int64_t>(t.offset) + t.bytes);
    }
    find_peak(a, plan.tensors, members);
    find_overlaps(plan, members);
    plan.arenas.push_back(std::move(a));
  }
  return plan;
}

}  // namespace etviz::analysis
