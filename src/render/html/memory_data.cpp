#include "render/html/memory_data.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analysis/memory_plan.h"
#include "analysis/size_tree.h"
#include "core/mapped_file.h"
#include "core/text.h"
#include "formats/json/json_string.h"
#include "render/json_text.h"

namespace etviz::render::html {

using nlohmann::json;

std::string memory_data_json(const Document& doc, const std::vector<ViewModel>& views,
                             std::vector<std::string>* left_out) {
  json graphs = json::array();
  for (size_t k = 0; k < views.size(); ++k) {
    const ViewModel& view = views[k];
    const Graph& g = doc.graphs[static_cast<size_t>(view.root_graph)];
    if (g.stage.role != StageRole::kExecuTorch) continue;
    // Counted before the plan is made: the plan of a million tensors is ~200 MiB, more than
    // anything else alive when the page is assembled, only to be left out.
    const size_t planned = static_cast<size_t>(std::count_if(
        g.values.begin(), g.values.end(), [](const Value& v) { return analysis::is_planned(v); }));
    if (planned > kMaxMemoryTensors) {
      if (left_out)
        left_out->push_back(fmt::format(
            "the page leaves out the memory timeline of '{}' ({} planned tensors, over the {} it "
            "draws); `etviz memory` reports it",
            g.name, planned, kMaxMemoryTensors));
      continue;
    }
    auto plan = analysis::memory_plan(doc, g);
    if (!plan || plan->tensors.empty()) continue;
    std::vector<int32_t> view_of(g.nodes.size(), -1);
    for (size_t v = 0; v < view.nodes.size(); ++v)
      if (view.nodes[v].graph == view.root_graph)
        view_of[static_cast<size_t>(view.nodes[v].node)] = static_cast<int32_t>(v);
    json j;
    j["graph"] = k;
    j["method"] = g.name;
    j["instructions"] = plan->instructions;
    json instr = json::array();
    for (NodeId n : plan->instruction_nodes) instr.push_back(view_of[static_cast<size_t>(n)]);
    j["instrNodes"] = std::move(instr);
    json arenas = json::array();
    for (const auto& a : plan->arenas)
      arenas.push_back({{"id", a.id},
                        {"planned", a.planned_bytes},
                        {"peak", a.peak_bytes},
                        {"peakAt", a.peak_at},
                        {"reached", a.highest_end},
                        {"tensors", a.tensors}});
    j["arenas"] = std::move(arenas);
    json name = json::array(), node = json::array(), value = json::array(), arena = json::array(),
         offset = json::array(), bytes = json::array(), first = json::array(), last = json::array(),
         forever = json::array();
    const int32_t base = view.value_base.empty() ? 0 : view.value_base[0];
    for (const auto& t : plan->tensors) {
      name.push_back(t.name);
      node.push_back(t.producer >= 0 ? view_of[static_cast<size_t>(t.producer)] : -1);
      value.push_back(base + t.value);
      arena.push_back(t.arena);
      offset.push_back(t.offset);
      bytes.push_back(t.bytes);
      first.push_back(t.first);
      last.push_back(t.last);
      forever.push_back(t.never_freed ? 1 : 0);
    }
    j["tensors"] = {{"name", std::move(name)},      {"node", std::move(node)},
                    {"value", std::move(value)},    {"arena", std::move(arena)},
                    {"offset", std::move(offset)},  {"bytes", std::move(bytes)},
                    {"first", std::move(first)},    {"last", std::move(last)},
                    {"forever", std::move(forever)}};
    j["overlaps"] = plan->overlap_count;
    graphs.push_back(std::move(j));
  }
  if (graphs.empty()) return "";
  json root;
  root["graphs"] = std::move(graphs);
  return script_safe_json(json_text(root, -1));
}

namespace {

// The treemap draws two levels of a few hundred boxes: a level of 25,000 modules would be
// 25,000 sub-pixel boxes (and, at a million ops, 19 MiB of JSON built through ~180 MiB of
// temporaries). Each node keeps its kMaxTreemapChildren largest children, in their order; the
// rest become one "N more" child holding their bytes, so every level still sums to its parent.
// `etviz size` reports the whole tree.
constexpr size_t kMaxTreemapChildren = 400;

void write_size_node(std::string& out, const analysis::SizeNode& n) {
  out += "{\"n\":";
  append_json_string(out, n.name);
  out += ",\"k\":";
  append_json_string(out, n.kind);
  out += ",\"b\":";
  out += std::to_string(n.bytes);
  if (!n.children.empty()) {
    std::vector<bool> kept(n.children.size(), true);
    uint64_t rest_bytes = 0;
    size_t rest = 0;
    if (n.children.size() > kMaxTreemapChildren) {
      std::vector<size_t> order(n.children.size());
      for (size_t k = 0; k < order.size(); ++k) order[k] = k;
      std::nth_element(order.begin(), order.begin() + kMaxTreemapChildren, order.end(),
                       [&](size_t a, size_t b) {
                         return n.children[a].bytes != n.children[b].bytes
                                    ? n.children[a].bytes > n.children[b].bytes
                                    : a < b;
                       });
      for (size_t k = kMaxTreemapChildren; k < order.size(); ++k) {
        kept[order[k]] = false;
        rest_bytes += n.children[order[k]].bytes;
        ++rest;
      }
    }
    out += ",\"c\":[";
    bool first = true;
    for (size_t k = 0; k < n.children.size(); ++k) {
      if (!kept[k]) continue;
      if (!first) out += ',';
      first = false;
      write_size_node(out, n.children[k]);
    }
    if (rest > 0)
      out += fmt::format(R"({}{{"n":"{} more","k":"other","b":{}}})", first ? "" : ",",
                         grouped_digits(rest), rest_bytes);
    out += ']';
  }
  out += '}';
}

}  // namespace

std::string size_data_json(const Document& doc) {
  if (doc.sections.empty() || doc.sources.empty()) return "";
  analysis::SizeNode tree = analysis::size_tree(doc);
  const std::string& path = doc.sources[0]->path();
  tree.name =
      path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  // Strings through append_json_string, which makes them safe inside a <script> element.
  std::string out;
  write_size_node(out, tree);
  return out;
}

}  // namespace etviz::render::html
