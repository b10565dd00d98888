#pragma once
// The decoders behind the registry, plus the helper that builds "opaque but informative"
// graphs. Internal to src/formats/delegates.
#include <string>
#include <vector>

#include "core/graph.h"
#include "formats/delegates/delegate_decoder.h"

namespace etviz::delegates {

Result<Graph> decode_xnnpack(const DecodeInput& in);
Result<Graph> decode_generic(const DecodeInput& in);
Result<Graph> decode_qnn(const DecodeInput& in);
Result<Graph> decode_ethosu(const DecodeInput& in);
Result<Graph> decode_vgf(const DecodeInput& in);
Result<Graph> decode_coreml(const DecodeInput& in);
Result<Graph> decode_vulkan(const DecodeInput& in);
Result<Graph> decode_openvino(const DecodeInput& in);
Result<Graph> decode_tosa(const DecodeInput& in);

// A graph of one node standing for the whole payload, its facts as attributes, fed by copies
// of the call's argument tensors. Marked opaque. `op` names the node ("QNN context binary").
Graph make_opaque_graph(const DecodeInput& in, const std::string& op, std::vector<Attribute> facts);

// Facts every opaque view starts with: backend, payload size and location, compile specs.
std::vector<Attribute> basic_payload_facts(const DecodeInput& in);

// Recognises well-known containers at the start of a payload ("zip archive", "FlatBuffer
// with identifier 'XN01'", ...); empty when nothing is recognised.
std::string recognise_container(std::span<const uint8_t> payload);

}  // namespace etviz::delegates
