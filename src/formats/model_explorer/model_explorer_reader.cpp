#include "formats/model_explorer/model_explorer_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/expansion_budget.h"
#include "core/graph_builder.h"
#include "formats/executorch/scalar_type.h"
#include "formats/json/json_tree.h"

namespace etviz::model_explorer {
namespace {

constexpr size_t kMaxText = 4096;  // longest attribute value or name kept

std::string text_of(JsonRef v) {
  std::string s = v.is_string() ? v.string_or("") : std::string(v.valid() ? v.raw() : "");
  if (s.size() > kMaxText) s.resize(kMaxText);
  return s;
}

bool is_input_node(const std::string& id, const std::string& label, const std::string& ns) {
  return ns == "GraphInputs" || label == "GraphInputs" || label == "Graph Inputs" ||
         id == "GraphInputs";
}
bool is_output_node(const std::string& id, const std::string& label, const std::string& ns) {
  return ns == "GraphOutputs" || label == "GraphOutputs" || label == "Graph Outputs" ||
         id == "GraphOutputs";
}

// A call into a backend's payload, as Model Explorer adapters mark it: Arm's .pte adapter
// writes the instruction's type ("Instruction Type": "DelegateCall"), etviz's own export the
// node's kind ("kind": "delegate"). A label naming executorch_call_delegate (an exported
// program's call) needs no mark: analysis::is_call_delegate reads the op.
bool marks_delegate_call(const Attribute& a) {
  return (a.name == "Instruction Type" && a.value == "DelegateCall") ||
         (a.name == "kind" && a.value == "delegate");
}

// A tensor's shape and dtype from one output's metadata, in the forms adapters write:
// tensor_shape "float32[1,-1,3]" (TFLite, etviz), "!spirv.arm.tensor<1x224x3xi8>" (Arm VGF),
// or sizes "[1, 3]" with an ExecuTorch scalarType (Arm .pte).
void read_tensor(JsonRef attrs, Value& v) {
  std::string sizes, scalar_type, shape_text, dtype;
  for (JsonRef a : attrs) {
    const std::string key = a["key"].string_or("");
    const std::string value = text_of(a["value"]);
    if (key == "tensor_shape" || key == "shape")
      shape_text = value;
    else if (key == "sizes")
      sizes = value;
    else if (key == "scalarType")
      scalar_type = value;
    else if (key == "tensor_name" && !value.empty())
      v.name = value;
    else if (key == "dtype")
      dtype = value;
  }
  TensorInfo& t = v.tensor;
  if (!sizes.empty()) t.shape = parse_shape_string(sizes);
  if (!scalar_type.empty()) t.dtype = executorch::scalar_type_name(std::atoi(scalar_type.c_str()));
  if (!dtype.empty()) t.dtype = canonical_dtype(dtype);
  if (shape_text.empty()) return;
  const size_t lt = shape_text.find('<'), bracket = shape_text.find('[');
  if (lt != std::string::npos && shape_text.back() == '>') {
    // MLIR tensor type: dims and element type separated by 'x'.
    std::string body = shape_text.substr(lt + 1, shape_text.size() - lt - 2);
    std::vector<std::string> parts;
    size_t at = 0;
    for (size_t x; (x = body.find('x', at)) != std::string::npos; at = x + 1)
      parts.push_back(body.substr(at, x - at));
    parts.push_back(body.substr(at));
    t.shape.clear();
    for (size_t k = 0; k + 1 < parts.size(); ++k) {
      char* end = nullptr;
      const long long d = std::strtoll(parts[k].c_str(), &end, 10);
      t.shape.push_back(end && *end == 0 && !parts[k].empty() ? Dim{d, {}} : Dim{-1, parts[k]});
    }
    t.dtype = canonical_dtype(parts.back());
  } else if (bracket != std::string::npos && shape_text.back() == ']') {
    t.shape.clear();
    std::string list = "[" + shape_text.substr(bracket + 1);
    for (Dim& d : parse_shape_string(list)) {
      if (d.symbol.empty() && d.size < 0) d.symbol = "?";
      t.shape.push_back(d);
    }
    if (bracket > 0) t.dtype = canonical_dtype(shape_text.substr(0, bracket));
  }
  if (auto b = t.byte_size()) t.nbytes = *b;
}

struct PendingLink {
  int32_t graph;
  NodeId node;
  std::string target;
};

class Reader {
 public:
  Reader(Document& doc, uint64_t bytes) : doc_(doc), budget_(bytes) {}

  Status read_graph(JsonRef jg, size_t index) {
    std::string id = text_of(jg["id"]);
    if (id.empty()) id = fmt::format("graph_{}", index);
    const std::string where = fmt::format("graph '{}'", id);
    GraphBuilder b(id, GraphKind::kImported);
    Graph& g = b.graph();
    JsonRef nodes = jg["nodes"];
    if (!nodes.is_array()) {
      doc_.warn(where + ": no 'nodes' array; the graph is empty");
      add_graph(id, b.finish());
      return Status::Ok();
    }
    if (!budget_.charge(nodes.size())) return ExpansionBudget::exhausted_error();
    // First pass: ids, so edges may name nodes defined later.
    std::unordered_map<std::string, size_t> by_id;
    std::vector<JsonRef> list;
    size_t duplicates = 0;
    for (JsonRef jn : nodes) {
      if (!jn.is_object()) continue;
      std::string nid = text_of(jn["id"]);
      if (nid.empty()) nid = fmt::format("node_{}", list.size());
      if (!by_id.emplace(nid, list.size()).second) ++duplicates;
      list.push_back(jn);
    }
    if (duplicates)
      doc_.warn(fmt::format("{}: {} duplicate node id(s); edges go to the first node of an id",
                            where, duplicates));
    // Values: one per (node, output id), created on first mention.
    std::map<std::pair<size_t, std::string>, ValueId> values;
    auto value_of = [&](size_t k, const std::string& out) {
      auto [it, fresh] = values.try_emplace({k, out}, kNoId);
      if (fresh) {
        Value v;
        v.kind = ValueKind::kTensor;
        v.name = fmt::format("{}:{}", text_of(list[k]["id"]), out);
        for (JsonRef m : list[k]["outputsMetadata"])
          if (text_of(m["id"]) == out) read_tensor(m["attrs"], v);
        it->second = b.add_value(std::move(v));
      }
      return it->second;
    };
    size_t dangling = 0;
    std::vector<Node> built(list.size());
    for (size_t k = 0; k < list.size(); ++k) {
      JsonRef jn = list[k];
      Node& n = built[k];
      n.name = text_of(jn["id"]);
      if (n.name.empty()) n.name = fmt::format("node_{}", k);
      const std::string label = text_of(jn["label"]);
      const std::string ns = text_of(jn["namespace"]);
      n.op = label.empty() ? n.name : label;
      if (is_input_node(n.name, label, ns)) n.kind = NodeKind::kInput;
      if (is_output_node(n.name, label, ns)) n.kind = NodeKind::kOutput;
      for (JsonRef a : jn["attrs"]) {
        n.attributes.push_back({text_of(a["key"]), text_of(a["value"])});
        if (n.kind == NodeKind::kKernel && marks_delegate_call(n.attributes.back()))
          n.kind = NodeKind::kDelegate;
      }
      if (!budget_.charge(n.attributes.size())) return ExpansionBudget::exhausted_error();
      if (n.kind == NodeKind::kKernel && !ns.empty()) {
        n.provenance.module_path = ns;
        n.group = b.module_group(ns, '/');
      }
      // Inputs in target-port order, named by the port's __tensor_tag.
      std::map<std::string, std::string> tags;
      for (JsonRef m : jn["inputsMetadata"])
        for (JsonRef a : m["attrs"])
          if (a["key"].string_or("") == "__tensor_tag")
            tags[text_of(m["id"])] = text_of(a["value"]);
      std::vector<std::pair<long long, Argument>> ins;
      for (JsonRef e : jn["incomingEdges"]) {
        auto src = by_id.find(text_of(e["sourceNodeId"]));
        if (src == by_id.end()) {
          ++dangling;
          continue;
        }
        const std::string port = text_of(e["targetNodeInputId"]);
        const long long order = std::strtoll(port.c_str(), nullptr, 10);
        ins.push_back({order, Argument{tags.count(port) ? tags[port] : "",
                                       value_of(src->second, text_of(e["sourceNodeOutputId"]))}});
      }
      if (!budget_.charge(ins.size())) return ExpansionBudget::exhausted_error();
      std::stable_sort(ins.begin(), ins.end(),
                       [](const auto& a, const auto& c) { return a.first < c.first; });
      for (auto& [order, arg] : ins) n.inputs.push_back(std::move(arg));
      for (JsonRef m : jn["outputsMetadata"]) {
        std::string tag;
        for (JsonRef a : m["attrs"])
          if (a["key"].string_or("") == "__tensor_tag") tag = text_of(a["value"]);
        n.outputs.push_back({tag, value_of(k, text_of(m["id"]))});
      }
    }
    // Outputs referenced by edges but absent from outputsMetadata still belong to their node.
    for (const auto& entry : values) {
      const ValueId v = entry.second;
      auto& outs = built[entry.first.first].outputs;
      if (std::none_of(outs.begin(), outs.end(), [v](const Argument& a) { return a.value == v; }))
        outs.push_back({"", v});
    }
    if (dangling)
      doc_.warn(fmt::format("{}: {} edge(s) name a node the graph does not hold; left out", where,
                            dangling));
    // Nodes in file order; Model Explorer's IO nodes become the graph's inputs and outputs.
    const int32_t graph_index = static_cast<int32_t>(doc_.graphs.size());
    for (size_t k = 0; k < list.size(); ++k) {
      Node& n = built[k];
      NodeId nid = kNoId;
      if (n.kind == NodeKind::kInput) {
        for (const Argument& a : n.outputs) b.add_input(a.value, g.values[a.value].name);
      } else if (n.kind == NodeKind::kOutput) {
        for (const Argument& a : n.inputs) b.add_output(a.value, g.values[a.value].name);
      } else {
        nid = b.add_node(std::move(n));
      }
      for (JsonRef sub : list[k]["subgraphIds"]) links_.push_back({graph_index, nid, text_of(sub)});
    }
    add_graph(id, b.finish());
    return Status::Ok();
  }

  // subgraphIds -> Node::subgraph; linked graphs are nested, not top-level.
  void resolve_links() {
    for (const PendingLink& l : links_) {
      // Kept as written, so a link to a graph of another file (Arm writes a program's
      // delegates to a file of their own) is still listed (`etviz info`, the panel).
      if (l.node >= 0)
        doc_.graphs[static_cast<size_t>(l.graph)]
            .nodes[static_cast<size_t>(l.node)]
            .attributes.push_back({"subgraphId", l.target});
      auto it = graph_by_id_.find(l.target);
      if (it == graph_by_id_.end()) {
        doc_.warn(fmt::format("subgraph '{}' is not a graph of the file; the link is left out",
                              l.target));
        continue;
      }
      if (l.node < 0 || it->second == l.graph) continue;
      Node& n = doc_.graphs[static_cast<size_t>(l.graph)].nodes[static_cast<size_t>(l.node)];
      if (n.subgraph < 0) n.subgraph = it->second;
      doc_.graphs[static_cast<size_t>(it->second)].kind = GraphKind::kSubgraph;
    }
  }

 private:
  void add_graph(const std::string& id, Graph g) {
    graph_by_id_.emplace(id, static_cast<int32_t>(doc_.graphs.size()));
    doc_.graphs.push_back(std::move(g));
  }

  Document& doc_;
  ExpansionBudget budget_;
  std::vector<PendingLink> links_;
  std::unordered_map<std::string, int32_t> graph_by_id_;
};

}  // namespace

bool looks_like_model_explorer_json(std::string_view text) {
  size_t i = 0;
  while (i < text.size() &&
         (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t'))
    ++i;
  if (i >= text.size() || (text[i] != '{' && text[i] != '[')) return false;
  const std::string_view head = text.substr(i, 8192);
  return head.find("\"nodes\"") != std::string_view::npos &&
         (head.find("\"graphs\"") != std::string_view::npos ||
          head.find("\"incomingEdges\"") != std::string_view::npos ||
          head.find("\"graphCollections\"") != std::string_view::npos);
}

Result<Document> read_model_explorer_json(std::shared_ptr<const MappedFile> file) {
  const std::string& path = file->path();
  auto bytes = file->bytes();
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  auto tree = JsonTree::parse(text);
  if (!tree) return tree.error().within(path);
  JsonRef root = tree->root();
  Document doc;
  doc.sources.push_back(file);
  doc.format = DocumentFormat::kModelExplorerJson;
  doc.format_version = "Model Explorer graph JSON";
  std::vector<JsonRef> graphs;
  auto take = [&](JsonRef collection) {
    if (collection.is_array()) {
      for (JsonRef g : collection) graphs.push_back(g);
      return;
    }
    const std::string label = text_of(collection["label"]);
    if (!label.empty()) doc.properties.push_back({"label", label});
    for (JsonRef g : collection["graphs"]) graphs.push_back(g);
  };
  if (root.is_object() && root["graphCollections"].is_array()) {
    for (JsonRef c : root["graphCollections"]) take(c);
  } else if (root.is_array() || (root.is_object() && root["graphs"].is_array())) {
    take(root);
  } else {
    return Error(path +
                 ": expected Model Explorer graph JSON: an object with a 'graphs' array, a list "
                 "of graphs, or 'graphCollections'");
  }
  Reader reader(doc, bytes.size());
  for (size_t k = 0; k < graphs.size(); ++k) {
    if (!graphs[k].is_object()) {
      doc.warn(fmt::format("graph {} is not an object; left out", k));
      continue;
    }
    if (auto s = reader.read_graph(graphs[k], k); !s) return s.error().within(path);
  }
  reader.resolve_links();
  doc.properties.push_back({"graphs", std::to_string(doc.graphs.size())});
  if (doc.graphs.empty()) doc.warn(path + ": the file holds no graph");
  return doc;
}

}  // namespace etviz::model_explorer
