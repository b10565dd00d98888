#include "xnnpack_payload.h"

#include <cstring>

#include "xnnpack_generated.h"

namespace etviz::gen {
namespace {

namespace xnn = etviz::xnn;

constexpr uint32_t kExternalInput = 1;  // XNNPACK value flag bits
constexpr uint32_t kExternalOutput = 2;
constexpr uint32_t kInternal = 0xFFFFFFFFu;  // external_id of a value the runtime does not bind

size_t align16(size_t n) {
  return (n + 15) / 16 * 16;
}

}  // namespace

std::vector<uint8_t> xnnpack_mlp_payload(int seq, int dim, int hidden,
                                         uint32_t first_debug_handle) {
  flatbuffers::FlatBufferBuilder b(4096);
  const auto u = [](int v) { return static_cast<uint32_t>(v); };

  // Values: id_out is the id nodes refer to; constant_buffer_idx 0 means "not constant".
  std::vector<flatbuffers::Offset<xnn::Value>> values;
  auto tensor = [&](std::vector<uint32_t> dims, uint32_t constant, uint32_t external,
                    uint32_t flags) {
    const uint32_t id = static_cast<uint32_t>(values.size());
    auto t = xnn::CreateTensorValue(b, xnn::DataType::fp32, static_cast<uint32_t>(dims.size()),
                                    b.CreateVector(dims), constant, external, flags, id);
    values.push_back(xnn::CreateValue(b, xnn::ValueUnion::TensorValue, t.Union()));
    return id;
  };
  const uint32_t x = tensor({1, u(seq), u(dim)}, 0, 0, kExternalInput);
  const uint32_t w1 = tensor({u(hidden), u(dim)}, 1, kInternal, 0);
  const uint32_t w3 = tensor({u(hidden), u(dim)}, 2, kInternal, 0);
  const uint32_t w2 = tensor({u(dim), u(hidden)}, 3, kInternal, 0);
  const uint32_t gate = tensor({1, u(seq), u(hidden)}, 0, kInternal, 0);
  const uint32_t up = tensor({1, u(seq), u(hidden)}, 0, kInternal, 0);
  const uint32_t sig = tensor({1, u(seq), u(hidden)}, 0, kInternal, 0);
  const uint32_t silu = tensor({1, u(seq), u(hidden)}, 0, kInternal, 0);
  const uint32_t gated = tensor({1, u(seq), u(hidden)}, 0, kInternal, 0);
  const uint32_t out = tensor({1, u(seq), u(dim)}, 0, 1, kExternalOutput);

  std::vector<flatbuffers::Offset<xnn::Node>> nodes;
  uint32_t handle = first_debug_handle;
  auto fc = [&](uint32_t in, uint32_t w, uint32_t o) {
    auto n = xnn::CreateFullyConnected(b, in, w, kInternal, o, 0);
    nodes.push_back(xnn::CreateNode(b, xnn::NodeUnion::FullyConnected, n.Union(), handle++));
  };
  fc(x, w1, gate);
  fc(x, w3, up);
  nodes.push_back(xnn::CreateNode(b, xnn::NodeUnion::Sigmoid,
                                  xnn::CreateNode1x1(b, gate, sig, 0).Union(), handle++));
  nodes.push_back(xnn::CreateNode(b, xnn::NodeUnion::Multiply,
                                  xnn::CreateNode2x1(b, gate, sig, silu, 0).Union(), handle++));
  nodes.push_back(xnn::CreateNode(b, xnn::NodeUnion::Multiply,
                                  xnn::CreateNode2x1(b, silu, up, gated, 0).Union(), handle++));
  fc(gated, w2, out);

  // Constant data: entry 0 is reserved; weights follow, each 16-aligned, zero-filled.
  const uint64_t weight_bytes[] = {uint64_t(hidden) * dim * 4, uint64_t(hidden) * dim * 4,
                                   uint64_t(dim) * hidden * 4};
  std::vector<flatbuffers::Offset<xnn::ConstantDataOffset>> constants = {
      xnn::CreateConstantDataOffset(b, 0, 0)};
  uint64_t constant_size = 0;
  for (uint64_t bytes : weight_bytes) {
    constants.push_back(xnn::CreateConstantDataOffset(b, constant_size, bytes));
    constant_size = align16(constant_size + bytes);
  }
  auto graph =
      xnn::CreateGraph(b, b.CreateString("0"), b.CreateVector(nodes), b.CreateVector(values), 2,
                       b.CreateVector(std::vector<uint32_t>{x}),
                       b.CreateVector(std::vector<uint32_t>{out}), 0, 0, b.CreateVector(constants));
  b.Finish(graph, "XN01");

  // XH00 header (30 bytes, padded to 32), the flatbuffer (padded to 16), then constants.
  const size_t fb_offset = 32;
  const size_t fb_size = b.GetSize();
  const size_t constant_offset = fb_offset + align16(fb_size);
  std::vector<uint8_t> payload(constant_offset + constant_size, 0);
  std::memcpy(payload.data() + 4, "XH00", 4);
  const uint16_t header_length = 30;
  const uint32_t fb_off32 = static_cast<uint32_t>(fb_offset),
                 fb_size32 = static_cast<uint32_t>(fb_size);
  const uint32_t constant_off32 = static_cast<uint32_t>(constant_offset);
  std::memcpy(payload.data() + 8, &header_length, 2);
  std::memcpy(payload.data() + 10, &fb_off32, 4);
  std::memcpy(payload.data() + 14, &fb_size32, 4);
  std::memcpy(payload.data() + 18, &constant_off32, 4);
  std::memcpy(payload.data() + 22, &constant_size, 8);
  std::memcpy(payload.data() + fb_offset, b.GetBufferPointer(), fb_size);
  return payload;
}

}  // namespace etviz::gen
