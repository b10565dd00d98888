#include "core/document.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace etviz {

std::string CompileSpec::display() const {
  // A single trailing NUL is common (C strings written as bytes); it is not part of the text.
  const size_t text_size = !value.empty() && value.back() == 0 ? value.size() - 1 : value.size();
  const bool printable =
      text_size > 0 && std::all_of(value.begin(), value.begin() + static_cast<long>(text_size),
                                   [](uint8_t c) { return c >= 0x20 && c <= 0x7e; });
  if (printable) return std::string(value.begin(), value.begin() + static_cast<long>(text_size));
  std::string hex;
  const size_t shown = std::min<size_t>(value.size(), 16);
  for (size_t i = 0; i < shown; ++i) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%02x", value[i]);
    hex += buf;
  }
  if (value.size() > shown) hex += "...";
  return "<" + std::to_string(value.size()) + " bytes: " + hex + ">";
}

const std::string& Document::path() const {
  static const std::string empty;
  return sources.empty() ? empty : sources.front()->path();
}

std::span<const uint8_t> Document::bytes(const BlobRef& blob) const {
  if (blob.source < 0 || static_cast<size_t>(blob.source) >= sources.size()) return {};
  auto all = sources[blob.source]->bytes();
  if (blob.offset > all.size() || blob.size > all.size() - blob.offset) return {};
  return all.subspan(blob.offset, blob.size);
}

const Graph* Document::find_graph(const std::string& name) const {
  for (const Graph& g : graphs)
    if (g.name == name) return &g;
  return nullptr;
}

const Graph* Document::find_stage(StageRole role, std::string_view method) const {
  for (const Graph& g : graphs)
    if (g.is_top_level() && g.stage.role == role && g.stage.method == method) return &g;
  return nullptr;
}

std::vector<int32_t> Document::root_graphs() const {
  std::vector<bool> nested(graphs.size(), false);
  auto mark = [&](int32_t g) {
    if (g >= 0 && static_cast<size_t>(g) < graphs.size()) nested[static_cast<size_t>(g)] = true;
  };
  for (const Graph& g : graphs)
    for (const Node& n : g.nodes) mark(n.subgraph);
  for (const Delegate& d : delegates) mark(d.subgraph);
  std::vector<int32_t> out;
  for (size_t i = 0; i < graphs.size(); ++i)
    if (!nested[i]) out.push_back(static_cast<int32_t>(i));
  if (out.empty() && !graphs.empty()) out.push_back(0);  // everything nested: a cycle
  return out;
}

int32_t Document::default_graph() const {
  const std::vector<int32_t> roots = root_graphs();
  if (roots.empty()) return -1;
  auto size = [&](int32_t g) { return graphs[static_cast<size_t>(g)].nodes.size(); };
  const auto forward = std::find_if(roots.begin(), roots.end(), [&](int32_t g) {
    return graphs[static_cast<size_t>(g)].name == "forward";
  });
  if (forward != roots.end() && size(*forward) > 0) return *forward;
  int32_t largest = roots.front();
  for (int32_t g : roots)
    if (size(g) > size(largest)) largest = g;
  return largest;
}

const Graph* Document::subgraph_of(const Node& node) const {
  if (node.subgraph < 0 || static_cast<size_t>(node.subgraph) >= graphs.size()) return nullptr;
  return &graphs[static_cast<size_t>(node.subgraph)];
}

std::string Document::top_level_names() const {
  std::string names;
  for (const Graph& g : graphs)
    if (g.is_top_level()) names += (names.empty() ? "" : ", ") + g.name;
  return names;
}

void Document::resolve_named_constants() {
  if (named_data.empty()) return;
  std::unordered_map<std::string_view, const BlobRef*> by_key;
  for (const NamedBlob& b : named_data) by_key.emplace(b.key, &b.blob);  // the first one wins
  for (Graph& g : graphs)
    for (size_t v = 0; v < g.values.size(); ++v) {
      const TensorInfo& t = g.values[v].tensor;
      if (g.values[v].kind != ValueKind::kTensor || t.data_key.empty() ||
          (t.data_location != DataLocation::kNamedData &&
           t.data_location != DataLocation::kExternal))
        continue;
      const auto id = static_cast<ValueId>(v);
      if (const ConstantData* s = g.constant_data_of(id); s && s->blob.valid()) continue;
      auto it = by_key.find(std::string_view(t.data_key));
      if (it != by_key.end() && it->second->valid()) g.constant_data_for(id).blob = *it->second;
    }
}

int32_t Document::absorb_graph(const Document& from, int32_t graph) {
  // The source files `from` has: shared, so blob references stay valid.
  std::vector<int32_t> source_map(from.sources.size(), -1);
  auto map_source = [&](int32_t s) {
    if (s < 0 || static_cast<size_t>(s) >= from.sources.size()) return -1;
    if (source_map[static_cast<size_t>(s)] < 0) {
      source_map[static_cast<size_t>(s)] = static_cast<int32_t>(sources.size());
      sources.push_back(from.sources[static_cast<size_t>(s)]);
    }
    return source_map[static_cast<size_t>(s)];
  };
  std::vector<int32_t> graph_map(from.graphs.size(), -1);
  std::vector<int32_t> delegate_map(from.delegates.size(), -1);
  // Breadth first over the graphs reachable from `graph`; bounded by the graph count.
  std::vector<int32_t> order{graph};
  graph_map[static_cast<size_t>(graph)] = static_cast<int32_t>(graphs.size());
  for (size_t k = 0; k < order.size(); ++k) {
    const Graph& g = from.graphs[static_cast<size_t>(order[k])];
    for (const Node& n : g.nodes) {
      auto reach = [&](int32_t sub) {
        if (sub < 0 || static_cast<size_t>(sub) >= from.graphs.size() ||
            graph_map[static_cast<size_t>(sub)] >= 0)
          return;
        graph_map[static_cast<size_t>(sub)] = static_cast<int32_t>(graphs.size() + order.size());
        order.push_back(sub);
      };
      reach(n.subgraph);
      if (n.delegate >= 0 && static_cast<size_t>(n.delegate) < from.delegates.size())
        reach(from.delegates[static_cast<size_t>(n.delegate)].subgraph);
    }
  }
  auto copy_delegate = [&](int32_t d) {
    if (d < 0 || static_cast<size_t>(d) >= from.delegates.size()) return -1;
    if (delegate_map[static_cast<size_t>(d)] < 0) {
      Delegate copy = from.delegates[static_cast<size_t>(d)];
      copy.payload.source = map_source(copy.payload.source);
      const int32_t sub = copy.subgraph;
      copy.subgraph = sub >= 0 && static_cast<size_t>(sub) < graph_map.size()
                          ? graph_map[static_cast<size_t>(sub)]
                          : -1;
      delegate_map[static_cast<size_t>(d)] = static_cast<int32_t>(delegates.size());
      delegates.push_back(std::move(copy));
    }
    return delegate_map[static_cast<size_t>(d)];
  };
  const auto first = static_cast<int32_t>(graphs.size());
  for (int32_t g : order) {
    Graph copy = from.graphs[static_cast<size_t>(g)];
    for (ConstantData& c : copy.constant_data) c.blob.source = map_source(c.blob.source);
    for (Node& n : copy.nodes) {
      if (n.subgraph >= 0)
        n.subgraph = static_cast<size_t>(n.subgraph) < graph_map.size()
                         ? graph_map[static_cast<size_t>(n.subgraph)]
                         : -1;
      if (n.delegate >= 0) n.delegate = copy_delegate(n.delegate);
    }
    graphs.push_back(std::move(copy));
  }
  // Named data the delegates read (XNNPACK weights in a .ptd): blobs of the same sources.
  for (const NamedBlob& b : from.named_data) {
    NamedBlob copy = b;
    copy.blob.source = map_source(b.blob.source);
    named_data.push_back(std::move(copy));
  }
  return first;
}

const char* to_string(Severity s) {
  switch (s) {
    case Severity::kInfo:
      return "note";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "note";
}

bool Document::is_damaged() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::kError; });
}

const char* to_string(DocumentFormat f) {
  switch (f) {
    case DocumentFormat::kUnknown:
      return "unknown";
    case DocumentFormat::kExecuTorchProgram:
      return "executorch_program";
    case DocumentFormat::kBundledProgram:
      return "bundled_program";
    case DocumentFormat::kFlatTensor:
      return "flat_tensor";
    case DocumentFormat::kPt2:
      return "torch_export_pt2";
    case DocumentFormat::kETRecord:
      return "etrecord";
    case DocumentFormat::kTrace:
      return "pass_trace";
    case DocumentFormat::kModelExplorerJson:
      return "model_explorer_json";
    case DocumentFormat::kTosa:
      return "tosa_flatbuffer";
  }
  return "unknown";
}

}  // namespace etviz
