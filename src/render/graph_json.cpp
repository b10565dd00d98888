#include "render/graph_json.h"

#include <nlohmann/json.hpp>

#include "analysis/categories.h"
#include "render/json_text.h"
#include "view/view_model.h"

namespace etviz::render {
namespace {

using Json = nlohmann::ordered_json;

Json arguments(const std::vector<Argument>& args) {
  Json a = Json::array();
  for (const Argument& arg : args) a.push_back({{"name", arg.name.str()}, {"value", arg.value}});
  return a;
}

// `blob`: where the constant's bytes are, when the reader recorded it (Graph::constant_data).
Json value_json(const Value& v, size_t index, const Document& doc, const BlobRef* blob) {
  Json o = {{"index", index}, {"name", v.name}, {"kind", to_string(v.kind)}};
  if (v.producer != kNoId) o["producer"] = v.producer;
  if (v.kind != ValueKind::kTensor) {
    o["text"] = value_text(v);
    if (!v.elements.empty()) {
      Json items = Json::array();
      for (ValueId e : v.elements) items.push_back(e);
      o["items"] = std::move(items);
    }
    return o;
  }
  const TensorInfo& t = v.tensor;
  o["dtype"] = t.dtype.str();
  Json shape = Json::array();
  for (const Dim& d : t.shape)
    if (d.is_symbolic())
      shape.push_back(d.symbol.str());
    else
      shape.push_back(d.size);
  o["shape"] = std::move(shape);
  Json order = Json::array();
  for (uint8_t d : t.dim_order) order.push_back(d);
  o["dim_order"] = std::move(order);
  o["dynamism"] = to_string(t.dynamism);
  if (t.placement) o["memory"] = {{"id", t.placement->memory_id}, {"offset", t.placement->offset}};
  if (t.nbytes >= 0) o["nbytes"] = t.nbytes;
  if (t.data_location != DataLocation::kNone) {
    Json data = {{"location", to_string(t.data_location)}};
    if (t.data_index >= 0) data["index"] = t.data_index;
    if (!t.data_key.empty()) data["key"] = t.data_key.str();
    if (blob && blob->source >= 0 && static_cast<size_t>(blob->source) < doc.sources.size())
      data["blob"] = {{"file", doc.sources[static_cast<size_t>(blob->source)]->path()},
                      {"offset", blob->offset},
                      {"size", blob->size}};
    o["data"] = std::move(data);
  }
  if (t.requires_grad) o["requires_grad"] = true;
  if (const auto& q = t.quantization) {
    Json qj = {{"scheme", q->scheme}, {"scales", q->scales}, {"zero_points", q->zero_points}};
    if (q->axis >= 0) qj["axis"] = q->axis;
    if (q->group_size > 0) qj["group_size"] = q->group_size;
    if (q->num_scales > 0) qj["num_scales"] = q->num_scales;
    o["quantization"] = std::move(qj);
  }
  return o;
}

// `label` and `category`: what the node's box says and its colour in the page
// (view::node_label, analysis::categorize with the built-in rules).
Json node_json(const Node& n, size_t index, const analysis::CategoryConfig& categories) {
  Json o = {{"index", index},
            {"name", n.name},
            {"op", n.op.str()},
            {"kind", to_string(n.kind)},
            {"label", view::node_label(n)},
            {"category", analysis::to_string(analysis::categorize(n, categories))}};
  if (n.provenance.instruction >= 0) {
    o["chain"] = n.provenance.chain;
    o["instruction"] = n.provenance.instruction;
  }
  if (n.delegate >= 0) o["delegate"] = n.delegate;
  if (n.subgraph >= 0) o["subgraph"] = n.subgraph;
  if (n.group >= 0) o["group"] = n.group;
  if (!n.provenance.module_path.empty()) o["module"] = n.provenance.module_path.str();
  if (!n.provenance.debug_handles.empty()) {
    Json h = Json::array();
    for (int64_t d : n.provenance.debug_handles) h.push_back(d);
    o["debug_handles"] = std::move(h);
  }
  o["inputs"] = arguments(n.inputs);
  o["outputs"] = arguments(n.outputs);
  if (!n.attributes.empty() || n.failure) {
    Json a = Json::array();
    for (const Attribute& attr : with_failure(n))
      a.push_back({{"name", attr.name}, {"value", attr.value}});
    o["attributes"] = std::move(a);
  }
  return o;
}

// Appends `items` as a JSON array, one element per line: a graph of a million nodes is written
// item by item, never held as one JSON tree.
template <typename T, typename F>
void append_array(std::string& out, const std::vector<T>& items, F&& to_json) {
  out += "[";
  for (size_t i = 0; i < items.size(); ++i) {
    out += i ? ",\n      " : "\n      ";
    out += json_text(to_json(items[i], i), -1);
  }
  out += items.empty() ? "]" : "\n    ]";
}

}  // namespace

std::string graph_json(const Document& doc, const GraphJsonOptions& options) {
  std::vector<int32_t> graphs = options.graphs;
  if (graphs.empty())
    for (size_t g = 0; g < doc.graphs.size(); ++g) graphs.push_back(static_cast<int32_t>(g));
  const analysis::CategoryConfig categories = analysis::default_category_config();
  Json head = {{"schema", "etviz.graph/1"},
               {"path", options.path},
               {"format", to_string(doc.format)},
               {"format_version", doc.format_version}};
  std::string out = json_text(head, 2);
  out.pop_back();  // the closing brace: graphs and delegates follow
  out += ",\n  \"graphs\": [";
  bool first = true;
  for (int32_t gi : graphs) {
    if (gi < 0 || static_cast<size_t>(gi) >= doc.graphs.size()) continue;
    const Graph& g = doc.graphs[static_cast<size_t>(gi)];
    Json info = {{"index", gi},
                 {"name", g.name},
                 {"kind", to_string(g.kind)},
                 {"stage", std::string(to_string(g.stage.role)) +
                               (g.stage.method.empty() ? "" : "/" + g.stage.method)},
                 {"opaque", g.opaque},
                 {"inputs", g.inputs},
                 {"outputs", g.outputs}};
    if (!g.memory_buffer_sizes.empty()) info["memory_buffer_sizes"] = g.memory_buffer_sizes;
    std::string text = json_text(info, -1);
    text.pop_back();
    out += first ? "\n  " : ",\n  ";
    first = false;
    out += text + ",\n    \"nodes\": ";
    append_array(out, g.nodes,
                 [&](const Node& n, size_t i) { return node_json(n, i, categories); });
    out += ",\n    \"values\": ";
    append_array(out, g.values, [&](const Value& v, size_t i) {
      return value_json(v, i, doc, g.constant_blob(static_cast<ValueId>(i)));
    });
    out += "}";
  }
  out += "\n  ],\n  \"delegates\": [";
  for (size_t d = 0; d < doc.delegates.size(); ++d) {
    const Delegate& del = doc.delegates[d];
    Json o = {{"index", d},
              {"backend", del.backend_id},
              {"method", del.method},
              {"index_in_method", del.index_in_method},
              {"payload_location", del.payload_location},
              {"payload_index", del.payload_index},
              {"payload_offset", del.payload.offset},
              {"payload_bytes", del.payload.size},
              {"subgraph", del.subgraph}};
    out += (d ? ",\n    " : "\n    ") + json_text(o, -1);
  }
  out += doc.delegates.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

}  // namespace etviz::render
