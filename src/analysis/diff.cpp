#include "analysis/diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "analysis/categories.h"
#include "analysis/delegation.h"

namespace etviz::analysis {
namespace {

// Consumers scanned per value when propagating: a tensor read by hundreds of nodes (a mask fed
// to every block) would otherwise make every round quadratic; such fan-outs match by the other
// steps or by their other inputs.
constexpr size_t kMaxFanOut = 256;
constexpr int kMaxRounds = 64;

std::string tensor_text(const Value& v) {
  if (v.kind != ValueKind::kTensor) return to_string(v.kind);
  std::string s = v.tensor.dtype + v.tensor.shape_string();
  if (!v.tensor.dim_order.empty()) {
    bool contiguous = true;
    for (size_t i = 0; i < v.tensor.dim_order.size(); ++i) contiguous &= v.tensor.dim_order[i] == i;
    if (!contiguous) {
      s += " dim_order(";
      for (size_t i = 0; i < v.tensor.dim_order.size(); ++i)
        s += (i ? "," : "") + std::to_string(v.tensor.dim_order[i]);
      s += ")";
    }
  }
  return s;
}

std::string quant_text(const Value& v) {
  if (v.kind != ValueKind::kTensor || !v.tensor.quantization) return "";
  const Quantization& q = *v.tensor.quantization;
  std::string s = q.scheme;
  if (!q.scales.empty()) s += fmt::format(" scale={:g}", q.scales[0]);
  if (!q.zero_points.empty()) s += fmt::format(" zp={}", q.zero_points[0]);
  if (q.axis >= 0) s += fmt::format(" axis={}", q.axis);
  if (q.num_scales > 1) s += fmt::format(" scales={}", q.num_scales);
  return s;
}

class Matcher {
 public:
  Matcher(const Graph& a, const Graph& b, GraphDiff& d) : a_(a), b_(b), d_(d) {
    d_.a_to_b.assign(a.nodes.size(), kNoId);
    d_.b_to_a.assign(b.nodes.size(), kNoId);
    d_.b_reason.assign(b.nodes.size(), MatchReason::kNone);
    base_a_.reserve(a.nodes.size());
    for (const Node& n : a.nodes) base_a_.push_back(op_base(n.op));
    base_b_.reserve(b.nodes.size());
    for (const Node& n : b.nodes) base_b_.push_back(op_base(n.op));
  }

  void run() {
    by_unique_key(MatchReason::kDebugHandle,
                  [](const Graph&, const Node& n, std::vector<std::string>& keys) {
                    for (int64_t h : n.provenance.debug_handles) keys.push_back(std::to_string(h));
                  });
    // A .pte names its kernels by op and instruction index ("linear_5"), which says nothing
    // about which linear it is once instructions move: only its boundary (inputs, outputs,
    // constants named by fqn) matches by name there.
    by_unique_key(
        MatchReason::kName, [](const Graph& g, const Node& n, std::vector<std::string>& keys) {
          if (n.name.empty()) return;
          const bool positional = g.kind == GraphKind::kMethod && n.kind != NodeKind::kInput &&
                                  n.kind != NodeKind::kOutput && n.kind != NodeKind::kConstant;
          if (!positional) keys.push_back(n.name);
        });
    by_module_scope();
    by_structure();
    by_order();
  }

 private:
  void link(NodeId a, NodeId b, MatchReason why) {
    d_.a_to_b[static_cast<size_t>(a)] = b;
    d_.b_to_a[static_cast<size_t>(b)] = a;
    d_.b_reason[static_cast<size_t>(b)] = why;
    ++d_.matched_by[why];
  }
  bool free_a(NodeId a) const { return d_.a_to_b[static_cast<size_t>(a)] == kNoId; }
  bool free_b(NodeId b) const { return d_.b_to_a[static_cast<size_t>(b)] == kNoId; }

  // Keys that name exactly one unmatched node on each side pair those nodes.
  template <typename KeysOf>
  void by_unique_key(MatchReason why, KeysOf keys_of) {
    std::unordered_map<std::string, std::pair<NodeId, int>> in_a, in_b;
    std::vector<std::string> keys;
    auto collect = [&](const Graph& g, bool side_a, auto& into) {
      for (size_t i = 0; i < g.nodes.size(); ++i) {
        const auto id = static_cast<NodeId>(i);
        if (side_a ? !free_a(id) : !free_b(id)) continue;
        keys.clear();
        keys_of(g, g.nodes[i], keys);
        for (const std::string& k : keys) {
          auto [it, added] = into.try_emplace(k, id, 0);
          if (!added && it->second.first != id) it->second.second = 1;  // not unique
        }
      }
    };
    collect(a_, true, in_a);
    collect(b_, false, in_b);
    // B order, so the result does not depend on hash order.
    for (size_t i = 0; i < b_.nodes.size(); ++i) {
      const auto nb = static_cast<NodeId>(i);
      if (!free_b(nb)) continue;
      keys.clear();
      keys_of(b_, b_.nodes[i], keys);
      for (const std::string& k : keys) {
        auto kb = in_b.find(k);
        auto ka = in_a.find(k);
        if (kb == in_b.end() || ka == in_a.end() || kb->second.second || ka->second.second)
          continue;
        const NodeId na = ka->second.first;
        if (!free_a(na) || kb->second.first != nb) continue;
        link(na, nb, why);
        break;
      }
    }
  }

  // Same module, same op, same position among that module's nodes of that op.
  void by_module_scope() {
    std::unordered_map<std::string, NodeId> in_a;
    std::unordered_map<std::string, int> seen;
    auto key = [&](const Node& n, const std::string& base) {
      const std::string scope = n.provenance.module_path + "|" + base;
      return scope + "|" + std::to_string(seen[scope]++);
    };
    for (size_t i = 0; i < a_.nodes.size(); ++i) {
      const Node& n = a_.nodes[i];
      if (n.provenance.module_path.empty()) continue;
      const std::string k = key(n, base_a_[i]);
      if (free_a(static_cast<NodeId>(i))) in_a.emplace(k, static_cast<NodeId>(i));
    }
    seen.clear();
    for (size_t i = 0; i < b_.nodes.size(); ++i) {
      const Node& n = b_.nodes[i];
      if (n.provenance.module_path.empty()) continue;
      const std::string k = key(n, base_b_[i]);
      if (!free_b(static_cast<NodeId>(i))) continue;
      auto it = in_a.find(k);
      if (it != in_a.end() && free_a(it->second))
        link(it->second, static_cast<NodeId>(i), MatchReason::kModuleScope);
    }
  }

  // The A counterpart of B value `vb`: the same output slot of its producer's counterpart.
  ValueId counterpart(ValueId vb) const {
    if (vb < 0 || static_cast<size_t>(vb) >= b_.values.size()) return kNoId;
    const NodeId pb = b_.values[static_cast<size_t>(vb)].producer;
    if (pb < 0) return kNoId;
    const NodeId pa = d_.b_to_a[static_cast<size_t>(pb)];
    if (pa == kNoId) return kNoId;
    const auto& outs_b = b_.nodes[static_cast<size_t>(pb)].outputs;
    const auto& outs_a = a_.nodes[static_cast<size_t>(pa)].outputs;
    for (size_t k = 0; k < outs_b.size() && k < outs_a.size(); ++k)
      if (outs_b[k].value == vb) return outs_a[k].value;
    return outs_a.size() == 1 ? outs_a[0].value : kNoId;
  }

  // The unmatched A node with B node nb's op that `candidates` names most often (each entry
  // is one matched neighbour pointing at it: a node fed by the counterparts of x and of wk
  // beats one fed by x alone); kNoId when none, or when several tie for the most.
  NodeId unique_candidate(NodeId nb, std::vector<NodeId>& candidates) const {
    std::sort(candidates.begin(), candidates.end());
    NodeId found = kNoId;
    size_t best = 0;
    bool tie = false;
    for (size_t k = 0; k < candidates.size();) {
      size_t run = k;
      while (run < candidates.size() && candidates[run] == candidates[k]) ++run;
      const NodeId c = candidates[k];
      const size_t count = run - k;
      k = run;
      if (!free_a(c) || base_a_[static_cast<size_t>(c)] != base_b_[static_cast<size_t>(nb)])
        continue;
      if (count > best) {
        best = count;
        found = c;
        tie = false;
      } else if (count == best) {
        tie = true;
      }
    }
    return tie ? kNoId : found;
  }

  void by_structure() {
    std::vector<NodeId> candidates;
    std::vector<ValueId> heavy;  // matched inputs read by too many nodes to scan
    for (int round = 0; round < kMaxRounds; ++round) {
      bool progress = false;
      // Forward: from matched producers to their consumers.
      for (size_t i = 0; i < b_.nodes.size(); ++i) {
        const auto nb = static_cast<NodeId>(i);
        if (!free_b(nb)) continue;
        candidates.clear();
        heavy.clear();
        for (const Argument& arg : b_.nodes[i].inputs) {
          const ValueId va = counterpart(arg.value);
          if (va == kNoId) continue;
          const auto& consumers = a_.values[static_cast<size_t>(va)].consumers;
          if (consumers.size() > kMaxFanOut) {
            heavy.push_back(va);
            continue;
          }
          for (size_t k = 0; k < consumers.size(); ++k)
            if (k == 0 || consumers[k] != consumers[k - 1]) candidates.push_back(consumers[k]);
        }
        // A broadcast input (rotary tables, a mask) still tells q*cos from q*sin: each
        // candidate found through the other inputs scores once more when it reads it.
        if (!heavy.empty() && !candidates.empty()) {
          const size_t light = candidates.size();
          for (size_t k = 0; k < light; ++k) {
            const NodeId c = candidates[k];
            bool seen_before = false;
            for (size_t j = 0; j < k && !seen_before; ++j) seen_before = candidates[j] == c;
            if (seen_before) continue;
            for (const Argument& in : a_.nodes[static_cast<size_t>(c)].inputs)
              if (std::find(heavy.begin(), heavy.end(), in.value) != heavy.end())
                candidates.push_back(c);
          }
        }
        const NodeId na = unique_candidate(nb, candidates);
        if (na != kNoId) {
          link(na, nb, MatchReason::kStructure);
          progress = true;
        }
      }
      // Backward: from matched consumers to their producers.
      for (size_t r = b_.nodes.size(); r-- > 0;) {
        const auto nb = static_cast<NodeId>(r);
        if (!free_b(nb)) continue;
        candidates.clear();
        for (const Argument& out : b_.nodes[r].outputs) {
          if (out.value < 0 || static_cast<size_t>(out.value) >= b_.values.size()) continue;
          const auto& consumers = b_.values[static_cast<size_t>(out.value)].consumers;
          if (consumers.size() > kMaxFanOut) continue;
          for (NodeId cb : consumers) {
            const NodeId ca = d_.b_to_a[static_cast<size_t>(cb)];
            if (ca == kNoId) continue;
            for (const Argument& in : a_.nodes[static_cast<size_t>(ca)].inputs)
              if (in.value >= 0 && static_cast<size_t>(in.value) < a_.values.size()) {
                const NodeId pa = a_.values[static_cast<size_t>(in.value)].producer;
                if (pa >= 0) candidates.push_back(pa);
              }
          }
        }
        const NodeId na = unique_candidate(nb, candidates);
        if (na != kNoId) {
          link(na, nb, MatchReason::kStructure);
          progress = true;
        }
      }
      if (!progress) break;
    }
  }

  void by_order() {
    std::unordered_map<std::string, std::vector<NodeId>> left_a, left_b;
    for (size_t i = 0; i < a_.nodes.size(); ++i)
      if (free_a(static_cast<NodeId>(i))) left_a[base_a_[i]].push_back(static_cast<NodeId>(i));
    for (size_t i = 0; i < b_.nodes.size(); ++i)
      if (free_b(static_cast<NodeId>(i))) left_b[base_b_[i]].push_back(static_cast<NodeId>(i));
    for (size_t i = 0; i < b_.nodes.size(); ++i) {
      const auto nb = static_cast<NodeId>(i);
      if (!free_b(nb)) continue;
      auto& xs = left_a[base_b_[i]];
      auto& ys = left_b[base_b_[i]];
      if (xs.size() != ys.size() || xs.empty()) continue;
      for (size_t k = 0; k < xs.size(); ++k) link(xs[k], ys[k], MatchReason::kOrder);
      xs.clear();
      ys.clear();
    }
  }

  const Graph& a_;
  const Graph& b_;
  GraphDiff& d_;
  std::vector<std::string> base_a_, base_b_;
};

std::string backend_of(const Document& doc, const Node& n) {
  if (n.kind == NodeKind::kDelegate && n.delegate >= 0 &&
      static_cast<size_t>(n.delegate) < doc.delegates.size())
    return doc.delegates[static_cast<size_t>(n.delegate)].backend_id;
  if (is_call_delegate(n)) return "(lowered module)";
  return "";
}

uint64_t payload_of(const Document& doc, const Node& n) {
  if (n.kind != NodeKind::kDelegate || n.delegate < 0 ||
      static_cast<size_t>(n.delegate) >= doc.delegates.size())
    return 0;
  return doc.delegates[static_cast<size_t>(n.delegate)].payload.size;
}

// What differs between matched nodes na and nb.
std::vector<std::string> differences(const Document& da, const Graph& a, NodeId na,
                                     const Document& db, const Graph& b, NodeId nb, GraphDiff& d) {
  std::vector<std::string> what;
  const Node& x = a.nodes[static_cast<size_t>(na)];
  const Node& y = b.nodes[static_cast<size_t>(nb)];
  if (x.op != y.op) what.push_back(fmt::format("op {} -> {}", x.op, y.op));
  if (x.outputs.size() != y.outputs.size())
    what.push_back(fmt::format("outputs {} -> {}", x.outputs.size(), y.outputs.size()));
  auto value = [](const Graph& g, ValueId v) -> const Value* {
    return v >= 0 && static_cast<size_t>(v) < g.values.size() ? &g.values[static_cast<size_t>(v)]
                                                              : nullptr;
  };
  for (size_t k = 0; k < x.outputs.size() && k < y.outputs.size(); ++k) {
    const Value* vx = value(a, x.outputs[k].value);
    const Value* vy = value(b, y.outputs[k].value);
    if (!vx || !vy) continue;
    const std::string tx = tensor_text(*vx), ty = tensor_text(*vy);
    if (tx != ty) {
      what.push_back(fmt::format("output {}: {} -> {}", k, tx, ty));
      d.tensor_changes.push_back({na, nb, vy->name, tx, ty});
    }
    const std::string qx = quant_text(*vx), qy = quant_text(*vy);
    if (qx != qy)
      what.push_back(fmt::format("output {} quantization: {} -> {}", k, qx.empty() ? "none" : qx,
                                 qy.empty() ? "none" : qy));
  }
  // Literal arguments (dims, eps, strides), by position among the literals.
  std::vector<std::pair<std::string, std::string>> lx, ly;
  for (const Argument& arg : x.inputs)
    if (const Value* v = value(a, arg.value); v && v->kind != ValueKind::kTensor)
      lx.push_back({arg.name, value_text(*v)});
  for (const Argument& arg : y.inputs)
    if (const Value* v = value(b, arg.value); v && v->kind != ValueKind::kTensor)
      ly.push_back({arg.name, value_text(*v)});
  for (size_t k = 0; k < lx.size() && k < ly.size(); ++k)
    if (lx[k].second != ly[k].second)
      what.push_back(fmt::format("argument {}: {} -> {}",
                                 !ly[k].first.empty() ? ly[k].first : std::to_string(k),
                                 lx[k].second, ly[k].second));
  const std::string bx = backend_of(da, x), by = backend_of(db, y);
  if (bx != by)
    what.push_back(
        fmt::format("delegate {} -> {}", bx.empty() ? "none" : bx, by.empty() ? "none" : by));
  else if (!bx.empty() && payload_of(da, x) != payload_of(db, y))
    what.push_back(fmt::format("payload {} -> {} bytes", payload_of(da, x), payload_of(db, y)));
  return what;
}

void graph_totals(const Document& doc, const Graph& g, bool side_a, GraphDiff& d) {
  int64_t constants = 0, payloads = 0;
  for (const Value& v : g.values)
    if (v.kind == ValueKind::kTensor && v.tensor.is_constant() && v.tensor.nbytes > 0)
      constants += v.tensor.nbytes;
  for (const Node& n : g.nodes) {
    const std::string backend = backend_of(doc, n);
    if (backend.empty()) continue;
    auto& counts = d.delegates[backend];
    ++(side_a ? counts.first : counts.second);
    payloads += static_cast<int64_t>(payload_of(doc, n));
  }
  (side_a ? d.constant_bytes_a : d.constant_bytes_b) = constants;
  (side_a ? d.payload_bytes_a : d.payload_bytes_b) = payloads;
  (side_a ? d.arena_a : d.arena_b) = g.memory_buffer_sizes;
}

}  // namespace

const char* to_string(DiffStatus s) {
  switch (s) {
    case DiffStatus::kSame:
      return "same";
    case DiffStatus::kChanged:
      return "changed";
    case DiffStatus::kAdded:
      return "added";
    case DiffStatus::kRemoved:
      return "removed";
  }
  return "same";
}

const char* to_string(MatchReason r) {
  switch (r) {
    case MatchReason::kNone:
      return "none";
    case MatchReason::kDebugHandle:
      return "debug_handle";
    case MatchReason::kName:
      return "name";
    case MatchReason::kModuleScope:
      return "module_scope";
    case MatchReason::kStructure:
      return "structure";
    case MatchReason::kOrder:
      return "order";
  }
  return "none";
}

std::string op_base(const std::string& op) {
  std::string s = op;
  if (auto p = s.rfind("::"); p != std::string::npos) s = s.substr(p + 2);
  s = without_python_prefix(s);  // a live trace's "F.relu"
  // Dotted forms: "aten.convolution.default" -> "convolution"; "convolution.out" ->
  // "convolution".
  if (std::count(s.begin(), s.end(), '.') >= 2) s = s.substr(s.find('.') + 1);
  if (auto p = s.find('.'); p != std::string::npos) s = s.substr(0, p);
  if (s.size() > 5 && s.ends_with("_copy")) s.resize(s.size() - 5);
  if (s.size() > 1 && s.back() == '_') s.pop_back();  // in-place variant
  return s;
}

GraphDiff diff_graphs(const Document& da, const Graph& a, const Document& db, const Graph& b) {
  GraphDiff d;
  d.a_name = a.name;
  d.b_name = b.name;
  Matcher(a, b, d).run();
  d.a_status.assign(a.nodes.size(), DiffStatus::kRemoved);
  d.b_status.assign(b.nodes.size(), DiffStatus::kAdded);
  for (size_t i = 0; i < b.nodes.size(); ++i) {
    const NodeId na = d.b_to_a[i];
    if (na == kNoId) {
      ++d.added;
      continue;
    }
    auto what = differences(da, a, na, db, b, static_cast<NodeId>(i), d);
    const DiffStatus s = what.empty() ? DiffStatus::kSame : DiffStatus::kChanged;
    d.b_status[i] = s;
    d.a_status[static_cast<size_t>(na)] = s;
    if (what.empty()) {
      ++d.same;
    } else {
      ++d.changed;
      d.changes.push_back({na, static_cast<NodeId>(i), std::move(what)});
    }
  }
  for (size_t i = 0; i < a.nodes.size(); ++i)
    if (d.a_to_b[i] == kNoId) ++d.removed;
  std::map<std::string, std::pair<int64_t, int64_t>> ops;
  for (const Node& n : a.nodes)
    if (counts_as_operator(n)) ++ops[n.op].first;
  for (const Node& n : b.nodes)
    if (counts_as_operator(n)) ++ops[n.op].second;
  for (const auto& [op, c] : ops)
    if (c.first != c.second) d.op_deltas.push_back({op, c.first, c.second});
  graph_totals(da, a, true, d);
  graph_totals(db, b, false, d);
  return d;
}

}  // namespace etviz::analysis

namespace etviz::analysis {

std::vector<int32_t> pipeline_graphs(const Document& doc) {
  auto rank = [](StageRole r) {
    switch (r) {
      case StageRole::kExported:
        return 0;
      case StageRole::kAtenDialect:
        return 1;
      case StageRole::kEdgeDialect:
        return 2;
      case StageRole::kExtraModule:
        return 3;
      case StageRole::kPass:
        return 4;
      case StageRole::kExecuTorch:
        return 5;
      case StageRole::kNone:
        return 6;
    }
    return 6;
  };
  std::vector<int32_t> out;
  for (size_t g = 0; g < doc.graphs.size(); ++g)
    if (doc.graphs[g].is_top_level()) out.push_back(static_cast<int32_t>(g));
  std::stable_sort(out.begin(), out.end(), [&](int32_t x, int32_t y) {
    return rank(doc.graphs[static_cast<size_t>(x)].stage.role) <
           rank(doc.graphs[static_cast<size_t>(y)].stage.role);
  });
  return out;
}

Result<int32_t> select_graph(const Document& doc, const std::string& name) {
  if (name.empty()) {
    const int32_t g = doc.default_graph();
    if (g < 0) return Error("the file holds no graph");
    return g;
  }
  // A graph by its name: a root graph (what the page lists), else any method or stage.
  for (int32_t g : doc.root_graphs())
    if (doc.graphs[static_cast<size_t>(g)].name == name) return g;
  const std::vector<int32_t> top = pipeline_graphs(doc);
  for (int32_t g : top)
    if (doc.graphs[static_cast<size_t>(g)].name == name) return g;
  // A stage by its role ("edge_dialect": the stage of the file's main method when an ETRecord
  // holds several) or a pass by its name or index ("3").
  for (int32_t g : top) {
    const Graph& graph = doc.graphs[static_cast<size_t>(g)];
    if (to_string(graph.stage.role) == name) {
      const int32_t main = doc.default_graph();
      if (const Graph* stage =
              main < 0 ? nullptr
                       : doc.find_stage(graph.stage.role,
                                        doc.graphs[static_cast<size_t>(main)].stage.method))
        return static_cast<int32_t>(stage - doc.graphs.data());
      return g;
    }
    for (const Attribute& a : graph.attributes)
      if ((a.name == "pass" || a.name == "pass_index") && a.value == name) return g;
  }
  return Error(fmt::format("no graph '{}' (graphs: {})", name, doc.top_level_names()));
}

}  // namespace etviz::analysis
