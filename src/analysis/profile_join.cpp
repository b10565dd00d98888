#include "analysis/profile_join.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace etviz::analysis {
namespace {

void add_unique(std::vector<std::string>& to, const std::string& s) {
  if (!s.empty() && std::find(to.begin(), to.end(), s) == to.end()) to.push_back(s);
}

// "native_call_convolution.out" names the kernel "aten::convolution.out" (or any namespace).
bool native_call_matches(const std::string& event, const std::string& op) {
  static const std::string prefix = "native_call_";
  if (event.rfind(prefix, 0) != 0) return true;  // not a kernel-name event: nothing to check
  const std::string called = event.substr(prefix.size());
  const auto colons = op.rfind("::");
  const std::string bare = colons == std::string::npos ? op : op.substr(colons + 2);
  return bare == called;
}

std::string short_stack(const std::vector<StackFrame>& stack) {
  if (stack.empty()) return {};
  const StackFrame& f = stack.back();  // innermost last
  std::string file = f.file;
  if (auto slash = file.find_last_of('/'); slash != std::string::npos)
    file = file.substr(slash + 1);
  if (f.function.empty()) return fmt::format("{}:{}", file, f.line);
  return fmt::format("{}:{} in {}", file, f.line, f.function);
}

// The method `wanted`, else the program's default graph (Document::default_graph: forward,
// else the largest method), the one the page opens on and `etviz export` draws. `guessed` is
// set when the program has several methods and none is forward: the ETDump does not say which
// ran, so the report says which was taken.
const Graph* choose_method(const Document& doc, const std::string& wanted, std::string& error,
                           bool& guessed) {
  std::vector<const Graph*> methods;
  for (const Graph& g : doc.graphs)
    if (g.kind == GraphKind::kMethod) methods.push_back(&g);
  std::vector<std::string> names;
  for (const Graph* g : methods) names.push_back(g->name);
  if (!wanted.empty()) {
    for (const Graph* g : methods)
      if (g->name == wanted) return g;
    error =
        fmt::format("the program has no method '{}' (methods: {})", wanted, fmt::join(names, ", "));
    return nullptr;
  }
  if (methods.empty()) {
    error = "the program has no methods to join the profile with";
    return nullptr;
  }
  const int32_t shown = doc.default_graph();
  const Graph* chosen =
      shown >= 0 && doc.graphs[static_cast<size_t>(shown)].kind == GraphKind::kMethod
          ? &doc.graphs[static_cast<size_t>(shown)]
          : methods.front();
  guessed = methods.size() > 1 && chosen->name != "forward";
  return chosen;
}

// Resolves debug handles into ops, module paths and the innermost stack frame.
void apply_handles(const Document& etrecord, const std::string& method,
                   const std::vector<int64_t>& handles, EventJoin& join, bool replace_ops) {
  if (handles.empty()) return;
  if (replace_ops) join.op_types.clear();
  for (int64_t h : handles) {
    join.debug_handles.push_back(h);
    const NodeRef* ref = etrecord.etrecord->node_for(method, h);
    if (!ref) continue;
    const Node& node =
        etrecord.graphs[static_cast<size_t>(ref->graph)].nodes[static_cast<size_t>(ref->node)];
    add_unique(join.op_types, node.op);
    add_unique(join.module_paths, node.provenance.module_path);
    if (join.stack.empty()) join.stack = short_stack(node.provenance.stack);
  }
}

template <typename Map>
auto find_instruction(const Map& by_method, const std::string& method, int64_t instruction) -> const
    typename Map::mapped_type::mapped_type* {
  auto m = by_method.find(method);
  if (m == by_method.end()) return nullptr;
  auto i = m->second.find(instruction);
  return i == m->second.end() ? nullptr : &i->second;
}

}  // namespace

Result<JoinReport> join_profile(ProfileStats& stats, const JoinSources& sources) {
  JoinReport report;
  const Graph* graph = nullptr;
  const Document* doc = sources.program;
  std::map<std::pair<int32_t, int64_t>, NodeId> by_instruction;
  if (doc) {
    std::string error;
    bool guessed = false;
    graph = choose_method(*doc, sources.method, error, guessed);
    if (!graph) return Error(error);
    report.method = graph->name;
    if (guessed)
      report.warnings.push_back(fmt::format(
          "an ETDump does not record which method ran: joined with '{}', the program's largest "
          "method (choose another with --method)",
          graph->name));
    for (NodeId n = 0; n < static_cast<NodeId>(graph->nodes.size()); ++n) {
      const Provenance& p = graph->nodes[static_cast<size_t>(n)].provenance;
      if (p.instruction >= 0) by_instruction.emplace(std::pair{p.chain, p.instruction}, n);
    }
  } else if (!sources.method.empty()) {
    report.method = sources.method;
  } else if (sources.etrecord) {
    report.method = "forward";  // what the Inspector resolves
  }

  std::set<std::pair<int32_t, int32_t>> reported_missing;
  auto join_row = [&](EventRow& row) {
    EventJoin& join = row.join;
    join.method = report.method;
    if (row.is_framework()) return;
    if (graph) {
      auto it = by_instruction.find({row.chain, row.instruction});
      if (it == by_instruction.end()) {
        ++report.out_of_range;
        if (reported_missing.insert({row.chain, row.instruction}).second &&
            reported_missing.size() <= 5)
          report.warnings.push_back(fmt::format(
              "event '{}' names chain {} instruction {}, which method '{}' does not have: is this "
              "the program that was profiled?",
              row.name, row.chain, row.instruction, graph->name));
      } else {
        ++report.joined;
        const Node& node = graph->nodes[static_cast<size_t>(it->second)];
        join.node = it->second;
        join.delegated = node.kind == NodeKind::kDelegate;
        if (node.kind == NodeKind::kDelegate) {
          if (node.delegate >= 0 && static_cast<size_t>(node.delegate) < doc->delegates.size())
            join.backend = doc->delegates[static_cast<size_t>(node.delegate)].backend_id;
          else
            join.backend = node.op;
          // Events logged inside a delegate are identified by their debug id; the ops they
          // cover come from the ETRecord's delegate map below.
          if (!row.has_delegate_debug_id()) add_unique(join.op_types, join.backend);
        } else {
          add_unique(join.op_types, node.op);
          if (!native_call_matches(row.name, node.op)) {
            ++report.name_mismatches;
            if (report.name_mismatches <= 5)
              report.warnings.push_back(fmt::format(
                  "event '{}' at chain {} instruction {} does not match the program's op '{}' "
                  "there: is this the program that was profiled?",
                  row.name, row.chain, row.instruction, node.op));
          }
        }
        if (join.stack.empty()) join.stack = short_stack(node.provenance.stack);
      }
    }
    if (sources.etrecord && sources.etrecord->etrecord) {
      const ETRecordMaps& maps = *sources.etrecord->etrecord;
      const std::string& method = report.method;
      const auto* delegate = find_instruction(maps.delegates, method, row.instruction);
      if (row.has_delegate_debug_id()) {
        join.delegated = true;
        if (delegate) {
          if (join.backend.empty()) join.backend = delegate->backend;
          auto id = delegate->debug_ids.find(row.delegate_debug_id());
          if (id != delegate->debug_ids.end())
            apply_handles(*sources.etrecord, method, id->second, join, true);
        }
      } else {
        if (delegate) {
          join.delegated = true;
          if (join.backend.empty()) join.backend = delegate->backend;
        }
        if (const auto* handles = find_instruction(maps.debug_handles, method, row.instruction))
          apply_handles(*sources.etrecord, method, *handles, join, true);
      }
    }
  };
  // Events inside a delegate name ops of its decoded payload: XNNPACK and Vulkan log an op's
  // debug handle as the delegate debug id, string-id backends an op's name. When no op carries
  // the id, the ops whose debug handles meet the handles the ETRecord's delegate map gives it.
  auto join_payload = [&](EventRow& row) {
    EventJoin& join = row.join;
    if (!graph || !row.has_delegate_debug_id() || join.node == kNoId) return;
    const Node& call = graph->nodes[static_cast<size_t>(join.node)];
    const Graph* payload = doc->subgraph_of(call);
    if (!payload) return;
    join.payload_graph = call.subgraph;
    for (NodeId n = 0; n < static_cast<NodeId>(payload->nodes.size()); ++n) {
      const Node& op = payload->nodes[static_cast<size_t>(n)];
      const auto& handles = op.provenance.debug_handles;
      const bool match = row.delegate_debug_id_int != -1
                             ? std::find(handles.begin(), handles.end(),
                                         row.delegate_debug_id_int) != handles.end()
                             : op.name == row.delegate_debug_id_str;
      if (match) join.payload_nodes.push_back(n);
    }
    if (join.payload_nodes.empty() && !join.debug_handles.empty()) {
      const std::set<int64_t> wanted(join.debug_handles.begin(), join.debug_handles.end());
      for (NodeId n = 0; n < static_cast<NodeId>(payload->nodes.size()); ++n)
        for (int64_t h : payload->nodes[static_cast<size_t>(n)].provenance.debug_handles)
          if (wanted.count(h)) {
            join.payload_nodes.push_back(n);
            break;
          }
    }
    // The ETRecord's edge ops say more than the backend's op names; use the payload's when
    // there is no ETRecord.
    if (join.op_types.empty())
      for (NodeId n : join.payload_nodes)
        add_unique(join.op_types, payload->nodes[static_cast<size_t>(n)].op);
  };
  for (EventRow& row : stats.events) {
    join_row(row);
    join_payload(row);
  }
  for (EventRow& row : stats.method_events) join_row(row);
  if (report.out_of_range > 5)
    report.warnings.push_back(
        fmt::format("{} event rows in all name instructions method '{}' does not have",
                    report.out_of_range, report.method));
  if (report.name_mismatches > 5)
    report.warnings.push_back(fmt::format("{} event rows in all disagree with the program's ops",
                                          report.name_mismatches));
  return report;
}

std::vector<ModuleTotal> module_totals(const std::vector<EventRow>& rows) {
  // Nested events would count the same time twice (OPERATOR_CALL around native_call_<op>,
  // DELEGATE_CALL around the backend's own events): only outermost rows count. A delegate's
  // own events count when the instruction has no event of its own.
  const std::vector<int32_t> parent = enclosing_rows(rows);
  auto counts = [&](const EventRow& row) {
    return !row.is_framework() && parent[static_cast<size_t>(&row - rows.data())] < 0;
  };
  std::map<std::pair<std::string, std::string>, ModuleTotal> totals;
  std::vector<std::pair<std::string, std::string>> order;
  for (const EventRow& row : rows) {
    if (!counts(row)) continue;
    std::set<std::string> modules;  // each event counts once per module
    for (const std::string& path : row.join.module_paths) {
      for (size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 1))
        modules.insert(path.substr(0, dot));
      modules.insert(path);
    }
    for (const std::string& m : modules) {
      auto [it, added] = totals.try_emplace({row.block, m});
      if (added) {
        it->second.block = row.block;
        it->second.module = m;
        order.push_back({row.block, m});
      }
      ++it->second.events;
      it->second.total_avg += row.stats.avg;
    }
  }
  std::vector<ModuleTotal> out;
  for (const auto& key : order) out.push_back(totals[key]);
  std::stable_sort(out.begin(), out.end(), [](const ModuleTotal& a, const ModuleTotal& b) {
    return a.total_avg > b.total_avg;
  });
  return out;
}

std::vector<NodeTiming> node_timings(const ProfileStats& stats, const Graph& graph,
                                     const std::string& block) {
  std::vector<NodeTiming> out(graph.nodes.size());
  for (NodeId n = 0; n < static_cast<NodeId>(out.size()); ++n) out[static_cast<size_t>(n)].node = n;
  std::map<std::pair<int32_t, int64_t>, NodeId> by_instruction;
  for (NodeId n = 0; n < static_cast<NodeId>(graph.nodes.size()); ++n) {
    const Provenance& p = graph.nodes[static_cast<size_t>(n)].provenance;
    if (p.instruction >= 0) by_instruction.emplace(std::pair{p.chain, p.instruction}, n);
  }
  // A node's time is its instruction's outermost event, so nested events do not count twice;
  // events inside a delegate are not node time (the DELEGATE_CALL that encloses them is).
  const std::vector<int32_t> parent = enclosing_rows(stats.events);
  double node_sum = 0;
  for (size_t i = 0; i < stats.events.size(); ++i) {
    const EventRow& row = stats.events[i];
    if (row.block != block || row.has_delegate_debug_id() || parent[i] >= 0) continue;
    auto it = by_instruction.find({row.chain, row.instruction});
    if (it == by_instruction.end()) continue;
    NodeTiming& t = out[static_cast<size_t>(it->second)];
    node_sum += row.stats.total;
    t.event = row.name;
    t.stats = row.stats;
  }
  const double execute = stats.execute_total(block);
  const double denominator = execute > 0 ? execute : node_sum;
  if (denominator > 0)
    for (NodeTiming& t : out) t.share = t.stats.total / denominator;
  return out;
}

}  // namespace etviz::analysis
