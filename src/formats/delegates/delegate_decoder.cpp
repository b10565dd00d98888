#include "formats/delegates/delegate_decoder.h"

#include <fmt/format.h>

#include <array>

#include "formats/delegates/delegate_decoders.h"

namespace etviz::delegates {
namespace {

constexpr std::array kDecoders = {
    DelegateDecoder{"XnnpackBackend", "XNNPACK graph flatbuffer (XH00/XN01/XN00)", &decode_xnnpack},
    DelegateDecoder{"EthosUBackend", "Arm Vela bin stream", &decode_ethosu},
    DelegateDecoder{"ArmBackend", "Arm Vela bin stream (legacy backend id)", &decode_ethosu},
    DelegateDecoder{"VgfBackend", "Arm VGF container (SPIR-V TOSA graph)", &decode_vgf},
    DelegateDecoder{"CoreMLBackend", "Core ML package (inmemoryfs, ML Program)", &decode_coreml},
    DelegateDecoder{"VulkanBackend", "Vulkan graph flatbuffer (VH00/VK00)", &decode_vulkan},
    DelegateDecoder{"QnnBackend", "QNN context binary", &decode_qnn},
    DelegateDecoder{"OpenvinoBackend", "OpenVINO compiled model (CPU IR export)", &decode_openvino},
    DelegateDecoder{"TOSABackend", "TOSA flatbuffer", &decode_tosa},
};

constexpr DelegateDecoder kGeneric{"", "opaque payload summary", &decode_generic};

struct CallSite {
  int32_t graph = -1;
  int32_t node = -1;
};

// Splits the call's arguments (inputs then outputs, as ExecuTorch lists them) to match the
// decoded graph: the method reader had to guess where the outputs start.
void rewire_call(Graph& method, Node& call, const Graph& sub) {
  std::vector<Argument> args = call.inputs;
  args.insert(args.end(), call.outputs.begin(), call.outputs.end());
  const size_t n_in = sub.inputs.size();
  if (args.size() != n_in + sub.outputs.size() || call.inputs.size() == n_in) return;
  call.inputs.assign(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(n_in));
  call.outputs.assign(args.begin() + static_cast<std::ptrdiff_t>(n_in), args.end());
  method.link_values();
}

}  // namespace

std::span<const DelegateDecoder> decoder_registry() {
  return kDecoders;
}

const DelegateDecoder& find_decoder(std::string_view backend_id) {
  for (const DelegateDecoder& d : kDecoders)
    if (d.backend_id == backend_id) return d;
  return kGeneric;
}

const NamedBlob* find_named_blob(const Document& doc, std::string_view key) {
  for (const NamedBlob& b : doc.named_data)
    if (b.key == key) return &b;
  return nullptr;
}

std::string compile_spec_value(const Delegate& delegate, std::string_view key) {
  for (const CompileSpec& s : delegate.compile_specs)
    if (s.key == key) return s.display();
  return "";
}

std::string delegate_label(const Delegate& delegate) {
  return fmt::format("{}/{}#{}", delegate.method, delegate.backend_id, delegate.index_in_method);
}

namespace {

// Every call node of each delegate, found in one pass: looking them up per delegate costs
// delegates x nodes (2,500 delegates in a 100k-node program: a quarter of `etviz`'s time).
// Decoded subgraphs (GraphKind::kDelegate) hold no calls to revisit.
std::vector<std::vector<CallSite>> find_call_sites(const Document& doc) {
  std::vector<std::vector<CallSite>> all_calls(doc.delegates.size());
  for (size_t g = 0; g < doc.graphs.size(); ++g) {
    if (doc.graphs[g].kind == GraphKind::kDelegate) continue;
    const auto& nodes = doc.graphs[g].nodes;
    for (size_t n = 0; n < nodes.size(); ++n) {
      const int32_t d = nodes[n].delegate;
      if (nodes[n].kind != NodeKind::kDelegate || d < 0 ||
          static_cast<size_t>(d) >= all_calls.size())
        continue;
      all_calls[d].push_back({static_cast<int32_t>(g), static_cast<int32_t>(n)});
    }
  }
  return all_calls;
}

void install(Document& doc, size_t d, std::vector<Graph> graphs,
             const std::vector<CallSite>& calls) {
  if (graphs.empty()) return;
  // A payload belongs to the stage of the method that calls it.
  if (!calls.empty())
    for (Graph& g : graphs) g.stage = doc.graphs[calls.front().graph].stage;
  Delegate& del = doc.delegates[d];
  const bool replace = del.subgraph >= 0 && static_cast<size_t>(del.subgraph) < doc.graphs.size();
  const auto index = replace ? del.subgraph : static_cast<int32_t>(doc.graphs.size());
  // graphs[k] for k >= 1 lands at base + k - 1.
  const auto base = static_cast<int32_t>(doc.graphs.size() + (replace ? 0 : 1));
  for (Graph& g : graphs)
    for (Node& n : g.nodes)
      if (n.subgraph >= 0)
        n.subgraph = n.subgraph == 0 || static_cast<size_t>(n.subgraph) >= graphs.size()
                         ? -1
                         : base + n.subgraph - 1;
  if (replace)
    doc.graphs[static_cast<size_t>(index)] = std::move(graphs[0]);
  else
    doc.graphs.push_back(std::move(graphs[0]));
  for (size_t k = 1; k < graphs.size(); ++k) doc.graphs.push_back(std::move(graphs[k]));
  doc.delegates[d].subgraph = index;
  // Every call of this delegate (normally one) opens the same subgraph.
  for (const CallSite& site : calls) {
    Graph& m = doc.graphs[site.graph];
    Node& c = m.nodes[site.node];
    c.subgraph = index;
    if (!doc.graphs[index].opaque) rewire_call(m, c, doc.graphs[index]);
  }
}

}  // namespace

void install_delegate_graphs(Document& doc, size_t d, std::vector<Graph> graphs) {
  if (d >= doc.delegates.size()) return;
  install(doc, d, std::move(graphs), find_call_sites(doc)[d]);
}

void decode_delegates(Document& doc) {
  const std::vector<std::vector<CallSite>> all_calls = find_call_sites(doc);
  for (size_t d = 0; d < doc.delegates.size(); ++d) {
    if (doc.delegates[d].subgraph >= 0) continue;
    const Delegate& del = doc.delegates[d];
    const DelegateDecoder& decoder = find_decoder(del.backend_id);
    const std::string name = delegate_label(del);
    const CallSite* site = all_calls[d].empty() ? nullptr : &all_calls[d].front();
    const Graph* method = site ? &doc.graphs[site->graph] : nullptr;
    const Node* call = method ? &method->nodes[site->node] : nullptr;
    const auto payload = doc.bytes(del.payload);
    std::vector<Graph> graphs(1);
    Result<Graph> graph = Error("unreachable");
    if (payload.size() != del.payload.size) {
      graph = Error(fmt::format("payload [{}, +{}) lies outside the file", del.payload.offset,
                                del.payload.size));
    } else {
      DecodeInput input{doc, del, payload, name, method, call};
      input.nested = &graphs;
      graph = decoder.decode(input);
    }
    if (!graph) {
      Delegate& target = doc.delegates[d];
      target.decoder_note =
          fmt::format("{} could not be decoded: {}", decoder.format, graph.error().message());
      doc.warn(fmt::format("method '{}' delegate {} ({}): {}; shown as an opaque delegate",
                           del.method, del.index_in_method, del.backend_id, target.decoder_note));
      continue;
    }
    graphs[0] = std::move(*graph);
    const bool opaque = graphs[0].opaque;
    install(doc, d, std::move(graphs), all_calls[d]);
    Delegate& target = doc.delegates[d];
    if (opaque && target.decoder_note.empty())
      target.decoder_note =
          fmt::format("{}: summary only, the backend's ops are not recoverable", decoder.format);
  }
}

}  // namespace etviz::delegates
