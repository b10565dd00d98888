// Backends etviz has no reader for (and the shared pieces of every opaque view): never fails,
// shows what the delegate entry states and what the payload's first bytes reveal.
#include <fmt/format.h>

#include <cstring>

#include "core/bytes.h"
#include "formats/delegates/delegate_decoders.h"
#include "formats/delegates/subgraph_builder.h"

namespace etviz::delegates {

std::vector<Attribute> basic_payload_facts(const DecodeInput& in) {
  std::vector<Attribute> facts;
  facts.push_back({"backend", in.delegate.backend_id});
  facts.push_back({"payload_bytes", std::to_string(in.payload.size())});
  facts.push_back({"payload_location",
                   fmt::format("{} {}", in.delegate.payload_location, in.delegate.payload_index)});
  for (const CompileSpec& spec : in.delegate.compile_specs)
    facts.push_back({"compile_spec." + spec.key, spec.display()});
  return facts;
}

std::string recognise_container(std::span<const uint8_t> p) {
  auto at = [&](size_t offset, const char* magic, size_t n) {
    return p.size() >= offset + n && std::memcmp(p.data() + offset, magic, n) == 0;
  };
  if (p.empty()) return "empty payload";
  if (at(0, "PK\x03\x04", 4)) return "zip archive";
  if (at(0, "VGF1", 4)) return "Arm VGF container";
  if (at(0, "\x89HDF", 4)) return "HDF5 file";
  if (at(4, "XH00", 4)) return "XNNPACK payload (XH00 header)";
  if (at(4, "VH00", 4)) return "Vulkan payload (VH00 header)";
  if (at(4, "MP00", 4)) return "MPS payload (MP00 header)";
  if (at(0, "vela_bin_stream", 15)) return "Arm Vela bin stream";
  if (p.size() >= 4 && load_le<uint32_t>(p.data()) == 0x5678ABCDu) return "QNN context wrapper";
  if (at(0, "<?xml", 5)) return "XML document";
  if (at(0,
         "\x7f"
         "ELF",
         4))
    return "ELF binary";
  if (at(0, "\x03\x02\x23\x07", 4)) return "SPIR-V module";
  if (p.size() >= 8) {
    // A flatbuffer with a printable 4-character identifier: root offset inside the buffer.
    const uint32_t root = load_le<uint32_t>(p.data());
    bool printable = true;
    for (size_t i = 4; i < 8; ++i) printable = printable && p[i] >= 0x20 && p[i] < 0x7f;
    if (printable && root >= 8 && root < p.size())
      return fmt::format("FlatBuffer with identifier '{}'", printable_tag(p.subspan(4, 4)));
  }
  return "";
}

Graph make_opaque_graph(const DecodeInput& in, const std::string& op,
                        std::vector<Attribute> facts) {
  SubgraphBuilder b(in.graph_name, in.delegate.backend_id);
  b.graph().opaque = true;
  Node n;
  n.name = in.graph_name;
  n.op = op;
  n.kind = NodeKind::kOther;
  n.attributes = std::move(facts);
  // The call's tensors stand in for the payload's unknown inputs and outputs.
  auto copy = [&](const Argument& a) -> ValueId {
    if (!in.method || a.value < 0 || static_cast<size_t>(a.value) >= in.method->values.size())
      return kNoId;
    const Value& src = in.method->values[a.value];
    if (src.kind != ValueKind::kTensor) return kNoId;
    TensorInfo t = src.tensor;
    t.placement.reset();
    return b.add_tensor(src.name, std::move(t));
  };
  if (in.call) {
    for (const Argument& a : in.call->inputs)
      if (ValueId v = copy(a); v != kNoId) {
        b.add_input(v);
        n.inputs.push_back({"", v});
      }
    std::vector<ValueId> outs;
    for (const Argument& a : in.call->outputs)
      if (ValueId v = copy(a); v != kNoId) {
        outs.push_back(v);
        n.outputs.push_back({"", v});
      }
    b.add_op(std::move(n));
    for (ValueId v : outs) b.add_output(v);
  } else {
    b.add_op(std::move(n));
  }
  return b.finish();
}

Result<Graph> decode_generic(const DecodeInput& in) {
  auto facts = basic_payload_facts(in);
  const std::string container = recognise_container(in.payload);
  if (!container.empty()) facts.push_back({"recognised_container", container});
  facts.push_back({"note", "no decoder for this backend; payload shown as one opaque node"});
  return make_opaque_graph(in, in.delegate.backend_id + " payload", std::move(facts));
}

}  // namespace etviz::delegates
