#include "render/export/model_explorer_json.h"

#include <fmt/format.h>

#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "formats/json/json_string.h"
#include "view/view_model.h"

namespace etviz::render {
namespace {

// "layers.3.self_attn" -> "layers/3/self_attn": Model Explorer nests namespaces at '/'.
std::string namespace_of(const Graph& g, const Node& n) {
  std::string path;
  if (n.group >= 0 && static_cast<size_t>(n.group) < g.groups.size())
    path = g.groups[static_cast<size_t>(n.group)].name;
  else
    path = n.provenance.module_path;
  switch (n.kind) {
    case NodeKind::kInput:
      return "GraphInputs";
    case NodeKind::kOutput:
      return "GraphOutputs";
    default:
      break;
  }
  for (char& c : path)
    if (c == '.') c = '/';
  return path;
}

// "float32[1,3,224,224]", as Model Explorer's own adapters write tensor_shape.
std::string tensor_shape(const TensorInfo& t) {
  std::string s = t.dtype.empty() ? "?" : t.dtype;
  s += '[';
  for (size_t i = 0; i < t.shape.size(); ++i) {
    if (i) s += ',';
    const Dim& d = t.shape[i];
    s += d.symbol.empty() ? std::to_string(d.size) : d.symbol.str();
  }
  return s + ']';
}

class Writer {
 public:
  Writer(const Document& doc, std::string& out, MeJsonStats& stats)
      : doc_(doc), out_(out), stats_(stats) {}

  // Assigns collection-unique ids to `g` and every graph nested in it, in writing order.
  void collect(int32_t g, int depth = 0) {
    if (g < 0 || static_cast<size_t>(g) >= doc_.graphs.size() || ids_.count(g) || depth > 16)
      return;
    std::string id = doc_.graphs[static_cast<size_t>(g)].name;
    if (id.empty()) id = fmt::format("graph_{}", g);
    for (int k = 2; used_.count(id); ++k)
      id = fmt::format("{}#{}", doc_.graphs[static_cast<size_t>(g)].name, k);
    used_.insert(id);
    ids_[g] = id;
    order_.push_back(g);
    for (const Node& n : doc_.graphs[static_cast<size_t>(g)].nodes) collect(n.subgraph, depth + 1);
  }

  void write_all() {
    bool first = true;
    for (int32_t g : order_) {
      out_ += first ? "\n" : ",\n";
      first = false;
      write_graph(g);
    }
  }

 private:
  void key(std::string_view k) {
    append_json_string(out_, k);
    out_ += ':';
  }
  void attr(bool& first, std::string_view k, std::string_view v) {
    out_ += first ? "{" : ",{";
    first = false;
    key("key");
    append_json_string(out_, k);
    out_ += ',';
    key("value");
    append_json_string(out_, v);
    out_ += '}';
  }

  void write_graph(int32_t gi) {
    const Graph& g = doc_.graphs[static_cast<size_t>(gi)];
    ++stats_.graphs;
    // Node ids: the node's name, made unique within the graph.
    std::vector<std::string> node_ids(g.nodes.size());
    std::unordered_set<std::string> taken;
    taken.reserve(g.nodes.size() * 2);
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      std::string id = g.nodes[i].name.empty() ? fmt::format("node_{}", i) : g.nodes[i].name;
      if (!taken.insert(id).second) {
        id = fmt::format("{}#{}", id, i);
        taken.insert(id);
      }
      node_ids[i] = std::move(id);
    }
    stats_.ids[gi] = {ids_[gi], node_ids};
    out_ += '{';
    key("id");
    append_json_string(out_, ids_[gi]);
    out_ += ",";
    key("nodes");
    out_ += '[';
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      if (i) out_ += ',';
      out_ += '\n';
      write_node(g, i, node_ids);
      ++stats_.nodes;
    }
    out_ += "]}";
  }

  void write_node(const Graph& g, size_t i, const std::vector<std::string>& node_ids) {
    const Node& n = g.nodes[i];
    out_ += '{';
    key("id");
    append_json_string(out_, node_ids[i]);
    out_ += ',';
    key("label");
    append_json_string(out_, view::node_label(n));
    out_ += ',';
    key("namespace");
    append_json_string(out_, namespace_of(g, n));
    out_ += ',';
    key("subgraphIds");
    out_ += '[';
    const int32_t sub = n.subgraph;
    if (auto it = ids_.find(sub); sub >= 0 && it != ids_.end())
      append_json_string(out_, it->second);
    out_ += "],";

    key("attrs");
    out_ += '[';
    bool first = true;
    attr(first, "op", n.op);
    attr(first, "name", n.name);
    attr(first, "kind", to_string(n.kind));
    if (!n.provenance.debug_handles.empty()) {
      std::string h;
      for (int64_t d : n.provenance.debug_handles) h += (h.empty() ? "" : ", ") + std::to_string(d);
      attr(first, "debug_handles", h);
    }
    if (n.provenance.instruction >= 0)
      attr(first, "instruction",
           n.provenance.chain > 0
               ? fmt::format("{} (chain {})", n.provenance.instruction, n.provenance.chain)
               : std::to_string(n.provenance.instruction));
    if (!n.provenance.module_path.empty()) attr(first, "module", n.provenance.module_path);
    if (n.failure) attr(first, "error", n.failure->message);
    for (const Attribute& a : n.attributes) attr(first, a.name, a.value);
    // Arguments that are not tensors (ints, lists, scalars) are attributes in Model Explorer.
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      const ValueId v = n.inputs[k].value;
      if (v < 0 || static_cast<size_t>(v) >= g.values.size()) continue;
      const Value& val = g.values[static_cast<size_t>(v)];
      if (val.kind == ValueKind::kTensor) continue;
      attr(first, n.inputs[k].name.empty() ? fmt::format("arg{}", k) : n.inputs[k].name.str(),
           value_text(val));
    }
    out_ += "],";

    // Incoming edges: tensor arguments with a producer, from that producer's output slot.
    key("incomingEdges");
    out_ += '[';
    first = true;
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      const ValueId v = n.inputs[k].value;
      if (v < 0 || static_cast<size_t>(v) >= g.values.size()) continue;
      const Value& val = g.values[static_cast<size_t>(v)];
      const NodeId p = val.producer;
      if (val.kind != ValueKind::kTensor || p < 0 || static_cast<size_t>(p) >= g.nodes.size())
        continue;
      size_t slot = 0;
      const auto& outs = g.nodes[static_cast<size_t>(p)].outputs;
      while (slot < outs.size() && outs[slot].value != v) ++slot;
      if (slot == outs.size()) continue;
      out_ += first ? "{" : ",{";
      first = false;
      key("sourceNodeId");
      append_json_string(out_, node_ids[static_cast<size_t>(p)]);
      out_ += ',';
      key("sourceNodeOutputId");
      append_json_string(out_, std::to_string(slot));
      out_ += ',';
      key("targetNodeInputId");
      append_json_string(out_, std::to_string(k));
      out_ += '}';
      ++stats_.edges;
    }
    out_ += "],";

    auto metadata = [&](const std::vector<Argument>& args, bool outputs) {
      out_ += '[';
      bool any = false;
      for (size_t k = 0; k < args.size(); ++k) {
        const ValueId v = args[k].value;
        if (v < 0 || static_cast<size_t>(v) >= g.values.size()) continue;
        const Value& val = g.values[static_cast<size_t>(v)];
        if (val.kind != ValueKind::kTensor) continue;
        out_ += any ? ",{" : "{";
        any = true;
        key("id");
        append_json_string(out_, std::to_string(k));
        out_ += ',';
        key("attrs");
        out_ += '[';
        bool f = true;
        if (!args[k].name.empty()) attr(f, "__tensor_tag", args[k].name);
        if (outputs) {
          attr(f, "tensor_index", std::to_string(v));
          attr(f, "tensor_name", val.name);
          attr(f, "tensor_shape", tensor_shape(val.tensor));
          if (val.tensor.nbytes >= 0) attr(f, "bytes", std::to_string(val.tensor.nbytes));
          if (const auto& q = val.tensor.quantization; q && !q->scheme.empty())
            attr(f, "quantization", q->scheme);
        }
        out_ += "]}";
      }
      out_ += ']';
    };
    key("outputsMetadata");
    metadata(n.outputs, true);
    out_ += ',';
    key("inputsMetadata");
    metadata(n.inputs, false);
    out_ += '}';
  }

  const Document& doc_;
  std::string& out_;
  MeJsonStats& stats_;
  std::unordered_map<int32_t, std::string> ids_;
  std::unordered_set<std::string> used_;
  std::vector<int32_t> order_;
};

}  // namespace

std::string model_explorer_json(const Document& doc, const MeJsonOptions& options,
                                MeJsonStats* stats) {
  MeJsonStats local;
  MeJsonStats& s = stats ? *stats : local;
  s = {};
  std::string out;
  out.reserve(1 << 16);
  out += '{';
  append_json_string(out, "label");
  out += ':';
  append_json_string(out, options.label);
  out += ",\"graphs\":[";
  Writer w(doc, out, s);
  const std::vector<int32_t> tops = options.graphs.empty() ? doc.root_graphs() : options.graphs;
  for (int32_t g : tops) w.collect(g);
  w.write_all();
  out += "\n]}\n";
  return out;
}

}  // namespace etviz::render
