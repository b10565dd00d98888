// OpenVINO payloads: CompiledModel::export_model() of the device named in compile spec
// "device". For the CPU plugin's StreamSerialize layout (six u64: custom data, constants and
// model offset/size, contiguous and running to the payload's end) the model is OpenVINO IR
// XML, XOR-obfuscated with a published 12-byte key; its layers and edges become the subgraph.
// Any other layout (GPU/NPU exports, newer CPU serializers) is shown as an opaque summary.
// See docs/delegates.md.
#include <fmt/format.h>

#include <array>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string_view>

#include "core/bytes.h"
#include "formats/delegates/delegate_decoders.h"
#include "formats/delegates/subgraph_builder.h"

namespace etviz::delegates {
namespace {

constexpr uint8_t kXorKey[12] = {0x30, 0x60, 0x70, 0x02, 0x04, 0x08,
                                 0x3F, 0x6F, 0x72, 0x74, 0x78, 0x7F};
constexpr size_t kHeaderSize = 48;
constexpr size_t kMaxLayers = 1 << 20;

// One XML tag: name, attributes, and whether it opens, closes or is self-contained.
struct Tag {
  std::string name;
  std::map<std::string, std::string> attrs;
  bool closing = false;
  bool self_closing = false;
  std::string text_after;  // character data up to the next tag
};

// A forgiving scanner for the IR's plain XML (no DTD, no CDATA in practice). Stops at the
// first malformed tag; returns what it read.
std::vector<Tag> scan_xml(std::string_view xml, size_t limit) {
  std::vector<Tag> tags;
  size_t i = 0;
  while (tags.size() < limit) {
    const size_t open = xml.find('<', i);
    if (open == std::string_view::npos) break;
    const size_t close = xml.find('>', open);
    if (close == std::string_view::npos) break;
    std::string_view body = xml.substr(open + 1, close - open - 1);
    i = close + 1;
    if (body.empty() || body[0] == '?' || body[0] == '!') continue;
    Tag t;
    if (body[0] == '/') {
      t.closing = true;
      body.remove_prefix(1);
    }
    if (!body.empty() && body.back() == '/') {
      t.self_closing = true;
      body.remove_suffix(1);
    }
    size_t k = 0;
    while (k < body.size() && !std::isspace(static_cast<unsigned char>(body[k]))) ++k;
    t.name = std::string(body.substr(0, k));
    while (k < body.size()) {
      while (k < body.size() && std::isspace(static_cast<unsigned char>(body[k]))) ++k;
      const size_t eq = body.find('=', k);
      if (eq == std::string_view::npos || eq + 1 >= body.size()) break;
      const char quote = body[eq + 1];
      const size_t end = body.find(quote, eq + 2);
      if ((quote != '"' && quote != '\'') || end == std::string_view::npos) break;
      t.attrs[std::string(body.substr(k, eq - k))] = std::string(body.substr(eq + 2, end - eq - 2));
      k = end + 1;
    }
    const size_t next = xml.find('<', i);
    t.text_after =
        std::string(xml.substr(i, (next == std::string_view::npos ? xml.size() : next) - i));
    tags.push_back(std::move(t));
  }
  return tags;
}

std::string attr_of(const Tag& t, const char* name) {
  auto it = t.attrs.find(name);
  return it == t.attrs.end() ? "" : it->second;
}

std::string ov_dtype(const std::string& precision) {
  static const std::map<std::string, std::string> names = {
      {"FP32", "float32"}, {"FP16", "float16"}, {"BF16", "bfloat16"}, {"FP64", "float64"},
      {"I8", "int8"},      {"U8", "uint8"},     {"I16", "int16"},     {"U16", "uint16"},
      {"I32", "int32"},    {"U32", "uint32"},   {"I64", "int64"},     {"U64", "uint64"},
      {"BOOL", "bool"},    {"BOOLEAN", "bool"}, {"U1", "bool"},       {"I4", "int4"},
      {"U4", "uint4"},     {"F32", "float32"},  {"F16", "float16"}};
  auto it = names.find(precision);
  return it != names.end() ? it->second : precision;
}

struct Port {
  int64_t id = -1;
  TensorInfo tensor;
  std::string names;
};

struct Layer {
  int64_t id = -1;
  std::string name, type, version;
  std::vector<Attribute> data;
  std::vector<Port> inputs, outputs;
  std::string fused_names;
};

Result<std::vector<Layer>> parse_layers(const std::vector<Tag>& tags,
                                        std::vector<std::array<int64_t, 4>>& edges,
                                        std::string& net_name, std::string& ir_version) {
  std::vector<Layer> layers;
  Layer* layer = nullptr;
  std::vector<Port>* ports = nullptr;
  Port* port = nullptr;
  for (const Tag& t : tags) {
    if (t.name == "net" && !t.closing) {
      net_name = attr_of(t, "name");
      ir_version = attr_of(t, "version");
    } else if (t.name == "layer") {
      // Ports belong to one layer: a new layer (or its end) ends them, also when the XML left
      // them open (pointers into the last layer would not survive the vector growing).
      ports = nullptr;
      port = nullptr;
      if (t.closing) {
        layer = nullptr;
        continue;
      }
      if (layers.size() >= kMaxLayers) return Error("more than a million layers");
      layers.push_back({});
      layer = &layers.back();
      layer->id = std::strtoll(attr_of(t, "id").c_str(), nullptr, 10);
      layer->name = attr_of(t, "name");
      layer->type = attr_of(t, "type");
      layer->version = attr_of(t, "version");
      if (t.self_closing) layer = nullptr;
    } else if (layer && t.name == "data" && !t.closing) {
      for (const auto& [k, v] : t.attrs) layer->data.push_back({k, v});
    } else if (layer && t.name == "attribute" && attr_of(t, "name") == "fused_names") {
      layer->fused_names = attr_of(t, "value");
    } else if (layer && (t.name == "input" || t.name == "output")) {
      ports = t.closing || t.self_closing ? nullptr
                                          : (t.name == "input" ? &layer->inputs : &layer->outputs);
    } else if (ports && t.name == "port") {
      if (t.closing) {
        port = nullptr;
        continue;
      }
      ports->push_back({});
      port = &ports->back();
      port->id = std::strtoll(attr_of(t, "id").c_str(), nullptr, 10);
      port->tensor.dtype = ov_dtype(attr_of(t, "precision"));
      port->names = attr_of(t, "names");
      if (t.self_closing) port = nullptr;
    } else if (port && t.name == "dim" && !t.closing) {
      const std::string& text = t.text_after;
      Dim d;
      if (!text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-'))
        d.size = std::strtoll(text.c_str(), nullptr, 10);
      else
        d.symbol = text;
      if (d.size < 0 && d.symbol.empty()) d.symbol = "?";
      port->tensor.shape.push_back(d);
    } else if (t.name == "edge" && !t.closing) {
      edges.push_back({std::strtoll(attr_of(t, "from-layer").c_str(), nullptr, 10),
                       std::strtoll(attr_of(t, "from-port").c_str(), nullptr, 10),
                       std::strtoll(attr_of(t, "to-layer").c_str(), nullptr, 10),
                       std::strtoll(attr_of(t, "to-port").c_str(), nullptr, 10)});
    }
  }
  return layers;
}

}  // namespace

Result<Graph> decode_openvino(const DecodeInput& in) {
  const auto p = in.payload;
  auto facts = basic_payload_facts(in);
  auto opaque = [&](const std::string& why) {
    facts.push_back({"note", why});
    const std::string container = recognise_container(p);
    if (!container.empty()) facts.push_back({"recognised_container", container});
    return make_opaque_graph(in, "OpenVINO compiled model", std::move(facts));
  };
  if (p.size() < kHeaderSize) return opaque("payload too short for the CPU plugin's export header");
  uint64_t h[6];
  for (int i = 0; i < 6; ++i) h[i] = load_le<uint64_t>(p.data() + 8 * i);
  const bool contiguous = h[0] == kHeaderSize && h[1] <= p.size() && h[2] == h[0] + h[1] &&
                          h[3] <= p.size() && h[4] == h[2] + h[3] && h[5] <= p.size() &&
                          h[4] + h[5] == p.size();
  if (!contiguous)
    return opaque(
        "not the CPU plugin's StreamSerialize layout (another device or OpenVINO "
        "version); the compiled blob is shown as is");
  std::string xml(reinterpret_cast<const char*>(p.data() + h[4]), h[5]);
  for (size_t i = 0; i < xml.size(); ++i) xml[i] = static_cast<char>(xml[i] ^ kXorKey[i % 12]);
  if (xml.find("<net") == std::string::npos) {
    // Plain IR (no obfuscation) is possible too.
    xml.assign(reinterpret_cast<const char*>(p.data() + h[4]), h[5]);
    if (xml.find("<net") == std::string::npos)
      return opaque("model section is neither XOR-obfuscated nor plain IR XML (encrypted cache?)");
  }
  std::vector<std::array<int64_t, 4>> edges;
  std::string net_name, ir_version;
  auto layers = parse_layers(scan_xml(xml, 4 * kMaxLayers), edges, net_name, ir_version);
  if (!layers) return layers.error();
  if (layers->empty()) return Error("IR XML has no layers");

  SubgraphBuilder b(in.graph_name, in.delegate.backend_id);
  Graph& g = b.graph();
  g.attributes.push_back({"format", "OpenVINO IR (CPU plugin export)"});
  g.attributes.push_back({"ir_version", ir_version});
  g.attributes.push_back({"net", net_name});
  g.attributes.push_back({"constants_bytes", std::to_string(h[3])});
  for (const CompileSpec& s : in.delegate.compile_specs)
    g.attributes.push_back({"compile_spec." + s.key, s.display()});
  // One value per (layer, output port).
  std::map<std::pair<int64_t, int64_t>, ValueId> produced;
  for (const Layer& l : *layers)
    for (const Port& port : l.outputs) {
      TensorInfo t = port.tensor;
      if (l.type == "Const") {
        t.data_location = DataLocation::kInline;
        for (const Attribute& a : l.data)
          if (a.name == "size") t.nbytes = std::strtoll(a.value.c_str(), nullptr, 10);
      }
      std::string name = port.names.empty() ? fmt::format("{}:{}", l.name, port.id)
                                            : port.names.substr(port.names.rfind(',') + 1);
      produced[{l.id, port.id}] = b.add_tensor(std::move(name), std::move(t));
    }
  std::map<std::pair<int64_t, int64_t>, ValueId> consumed;
  for (const auto& e : edges) {
    auto it = produced.find({e[0], e[1]});
    if (it == produced.end())
      return Error(fmt::format("edge from layer {} port {}, which does not exist", e[0], e[1]));
    consumed[{e[2], e[3]}] = it->second;
  }
  std::vector<ValueId> outputs;
  for (const Layer& l : *layers) {
    if (l.type == "Parameter") {
      for (const Port& port : l.outputs) b.add_input(produced[{l.id, port.id}]);
      continue;
    }
    if (l.type == "Result") {
      for (const Port& port : l.inputs)
        if (auto it = consumed.find({l.id, port.id}); it != consumed.end())
          outputs.push_back(it->second);
      continue;
    }
    if (l.type == "Const") continue;  // constant nodes appear where first read
    Node n;
    n.name = l.name;
    n.op = l.type;
    n.kind = NodeKind::kKernel;
    n.attributes = l.data;
    n.attributes.push_back({"opset", l.version});
    if (!l.fused_names.empty()) n.attributes.push_back({"fused_names", l.fused_names});
    for (const Port& port : l.inputs)
      if (auto it = consumed.find({l.id, port.id}); it != consumed.end())
        n.inputs.push_back({std::to_string(port.id), it->second});
    for (const Port& port : l.outputs)
      n.outputs.push_back({std::to_string(port.id), produced[{l.id, port.id}]});
    b.add_op(std::move(n));
  }
  for (ValueId v : outputs) b.add_output(v);
  return b.finish();
}

}  // namespace etviz::delegates
