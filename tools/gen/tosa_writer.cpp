#include "tosa_writer.h"

#include <cstring>

#include "tosa_generated.h"

namespace etviz::gen {
namespace fb = etviz::tosa::fb;

namespace {

using Builder = flatbuffers::FlatBufferBuilder;

flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>> strings(
    Builder& b, const std::vector<std::string>& v) {
  std::vector<flatbuffers::Offset<flatbuffers::String>> out;
  for (const std::string& s : v) out.push_back(b.CreateString(s));
  return b.CreateVector(out);
}

flatbuffers::Offset<flatbuffers::Vector<uint8_t>> aligned_bytes(Builder& b,
                                                                const std::vector<uint8_t>& v) {
  b.ForceVectorAlignment(v.size(), sizeof(uint8_t), 8);
  return b.CreateVector(v);
}

// The union member and its table for one operator.
std::pair<fb::Attributes, flatbuffers::Offset<void>> attributes(Builder& b, const TosaOpSpec& o) {
  const auto type = static_cast<fb::Attributes>(o.op);
  auto ints = [&](const std::vector<int32_t>& v) { return b.CreateVector(v); };
  switch (o.op) {
    case tosa_op::kConv2d:
    case tosa_op::kDepthwiseConv2d:
      return {type, fb::CreateConvAttributes(b, ints(o.pad), ints(o.stride), ints(o.dilation),
                                             false, static_cast<fb::DType>(o.acc_type))
                        .Union()};
    case tosa_op::kAvgPool2d:
      return {type, fb::CreatePoolAttributes(b, ints(o.kernel), ints(o.stride), ints(o.pad),
                                             static_cast<fb::DType>(o.acc_type))
                        .Union()};
    case tosa_op::kClamp:
      return {type, fb::CreateClampAttributes(b, aligned_bytes(b, o.min_val),
                                              aligned_bytes(b, o.max_val), fb::NanMode::PROPAGATE)
                        .Union()};
    case tosa_op::kRescale:
      return {type, fb::CreateRescaleAttributes(b, true, fb::RoundingMode::SINGLE_ROUND, true,
                                                false, false)
                        .Union()};
    case tosa_op::kTranspose:
      return {type, fb::CreateTransposeAttributes(b, ints(o.perms)).Union()};
    case tosa_op::kCondIf:
      return {type, fb::CreateCondIfAttributes(b, b.CreateString(o.then_graph),
                                               b.CreateString(o.else_graph))
                        .Union()};
    case tosa_op::kWhileLoop:
      return {type, fb::CreateWhileLoopAttributes(b, b.CreateString(o.cond_graph),
                                                  b.CreateString(o.body_graph))
                        .Union()};
    default:
      return {type, fb::CreateNoAttributes(b).Union()};
  }
}

}  // namespace

std::vector<uint8_t> write_tosa(const TosaFileSpec& spec) {
  Builder b(1 << 16);
  std::vector<flatbuffers::Offset<fb::Region>> regions;
  for (const TosaRegionSpec& r : spec.regions) {
    std::vector<flatbuffers::Offset<fb::Block>> blocks;
    for (const TosaBlockSpec& blk : r.blocks) {
      std::vector<flatbuffers::Offset<fb::Operator>> ops;
      for (const TosaOpSpec& o : blk.ops) {
        auto [type, table] = attributes(b, o);
        ops.push_back(fb::CreateOperator(b, static_cast<fb::Op>(o.op), type, table,
                                         strings(b, o.inputs), strings(b, o.outputs),
                                         fb::CreateLocation(b, b.CreateString(""))));
      }
      std::vector<flatbuffers::Offset<fb::Tensor>> tensors;
      for (const TosaTensorSpec& t : blk.tensors) {
        auto name = b.CreateString(t.name);
        auto shape = b.CreateVector(t.shape);
        flatbuffers::Offset<flatbuffers::Vector<uint8_t>> data;
        if (!t.data.empty()) data = aligned_bytes(b, t.data);
        tensors.push_back(fb::CreateTensor(b, name, shape, static_cast<fb::DType>(t.dtype), data,
                                           false, false, 0, t.offset, t.size));
      }
      std::vector<flatbuffers::Offset<fb::Shape>> shapes;
      for (const TosaShapeSpec& s : blk.shapes) {
        std::vector<uint8_t> bytes(s.values.size() * 8);
        for (size_t k = 0; k < s.values.size(); ++k)
          std::memcpy(bytes.data() + 8 * k, &s.values[k], 8);
        shapes.push_back(fb::CreateShape(b, b.CreateString(s.name),
                                         static_cast<uint32_t>(s.values.size()),
                                         aligned_bytes(b, bytes)));
      }
      blocks.push_back(fb::CreateBlock(b, b.CreateString(blk.name), b.CreateVector(ops),
                                       b.CreateVector(tensors), strings(b, blk.inputs),
                                       strings(b, blk.outputs), b.CreateVector(shapes)));
    }
    regions.push_back(fb::CreateRegion(b, b.CreateString(r.name), b.CreateVector(blocks)));
  }
  auto version = fb::CreateVersion(b, spec.major, spec.minor, spec.patch, spec.draft);
  b.Finish(fb::CreateGraph(b, version, b.CreateVector(regions)), "TOSA");
  return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

TosaFileSpec conv_partition(const std::vector<int32_t>& input_nchw, int32_t out_channels,
                            int layers, uint32_t seed) {
  TosaBlockSpec blk;
  const int32_t h = input_nchw.size() == 4 ? input_nchw[2] : 1;
  const int32_t w = input_nchw.size() == 4 ? input_nchw[3] : 1;
  int32_t c = input_nchw.size() == 4 ? input_nchw[1] : 1;
  uint32_t state = seed * 2654435761u + 1;
  auto bytes = [&](size_t n) {
    std::vector<uint8_t> v(n);
    for (uint8_t& x : v) {
      state = state * 1664525u + 1013904223u;
      x = static_cast<uint8_t>(state >> 24);
    }
    return v;
  };
  auto constant = [&](const std::string& name, uint32_t dtype, std::vector<int32_t> shape,
                      size_t element) {
    size_t n = element;
    for (int32_t d : shape) n *= static_cast<size_t>(d);
    blk.tensors.push_back({name, dtype, shape, bytes(n)});
    blk.ops.push_back({tosa_op::kConst, {}, {name}});
  };
  blk.tensors.push_back({"input", tosa_type::kInt8, input_nchw, {}});
  blk.inputs = {"input"};
  blk.tensors.push_back({"input_nhwc", tosa_type::kInt8, {1, h, w, c}, {}});
  TosaOpSpec t{tosa_op::kTranspose, {"input"}, {"input_nhwc"}};
  t.perms = {0, 2, 3, 1};
  blk.ops.push_back(t);
  std::string x = "input_nhwc";
  for (int l = 0; l < layers; ++l) {
    const int32_t co = l + 1 == layers ? out_channels : 8 + 8 * (l % 4);
    const std::string p = "layer" + std::to_string(l);
    constant(p + "_weight", tosa_type::kInt8, {co, 3, 3, c}, 1);
    constant(p + "_bias", tosa_type::kInt32, {co}, 4);
    constant(p + "_input_zp", tosa_type::kInt8, {1}, 1);
    constant(p + "_weight_zp", tosa_type::kInt8, {1}, 1);
    blk.tensors.push_back({p + "_acc", tosa_type::kInt32, {1, h, w, co}, {}});
    TosaOpSpec conv{tosa_op::kConv2d,
                    {x, p + "_weight", p + "_bias", p + "_input_zp", p + "_weight_zp"},
                    {p + "_acc"}};
    conv.pad = {1, 1, 1, 1};
    conv.stride = {1, 1};
    conv.dilation = {1, 1};
    blk.ops.push_back(conv);
    constant(p + "_multipliers", tosa_type::kInt32, {co}, 4);
    constant(p + "_shifts", tosa_type::kInt8, {co}, 1);
    constant(p + "_acc_zp", tosa_type::kInt32, {1}, 4);
    constant(p + "_out_zp", tosa_type::kInt8, {1}, 1);
    blk.tensors.push_back({p + "_scaled", tosa_type::kInt8, {1, h, w, co}, {}});
    blk.ops.push_back(
        {tosa_op::kRescale,
         {p + "_acc", p + "_multipliers", p + "_shifts", p + "_acc_zp", p + "_out_zp"},
         {p + "_scaled"}});
    blk.tensors.push_back({p, tosa_type::kInt8, {1, h, w, co}, {}});
    TosaOpSpec clamp{tosa_op::kClamp, {p + "_scaled"}, {p}};
    clamp.min_val = {static_cast<uint8_t>(-128)};
    clamp.max_val = {127};
    blk.ops.push_back(clamp);
    x = p;
    c = co;
  }
  blk.tensors.push_back({"output", tosa_type::kInt8, {1, c, h, w}, {}});
  TosaOpSpec back{tosa_op::kTranspose, {x}, {"output"}};
  back.perms = {0, 3, 1, 2};
  blk.ops.push_back(back);
  blk.outputs = {"output"};
  TosaFileSpec spec;
  spec.regions.push_back({"main", {blk}});
  return spec;
}

std::vector<uint8_t> vela_stream(const std::vector<std::vector<int32_t>>& inputs,
                                 const std::vector<std::vector<int32_t>>& outputs, int ops) {
  std::vector<uint8_t> out;
  auto u32 = [](std::vector<uint8_t>& v, uint32_t x) {
    for (int k = 0; k < 4; ++k) v.push_back(static_cast<uint8_t>(x >> (8 * k)));
  };
  auto block = [&](const std::string& name, const std::vector<uint8_t>& data) {
    std::vector<uint8_t> head(32, 0);
    std::memcpy(head.data(), name.data(), std::min<size_t>(name.size(), 15));
    const auto size = static_cast<uint32_t>(data.size());
    std::memcpy(head.data() + 16, &size, 4);
    out.insert(out.end(), head.begin(), head.end());
    out.insert(out.end(), data.begin(), data.end());
    while (out.size() % 16) out.push_back(0);
  };
  block("vela_bin_stream", {});
  // COP1: the optimizer config of an Ethos-U55-128, then one command stream: `ops` operations
  // alternating CONV and ELEMENTWISE(ADD), each after a one-word-payload register command,
  // ended by STOP.
  std::vector<uint8_t> cmd;
  cmd.insert(cmd.end(), {'C', 'O', 'P', '1'});
  u32(cmd, 1);
  u32(cmd, 0x00001807u);
  u32(cmd, 0x10066001u);
  std::vector<uint32_t> stream;
  for (int k = 0; k < ops; ++k) {
    stream.push_back(0x4000u | 0x0Fu);  // a register write with its payload word
    stream.push_back(static_cast<uint32_t>(k));
    stream.push_back(k % 2 ? (0x06u | (1u << 16)) : 0x02u);
  }
  stream.push_back(0x00u);  // STOP
  const auto words = static_cast<uint32_t>(stream.size());
  u32(cmd, 2u | (((words >> 16) & 0xFFu) << 8) | ((words & 0xFFFFu) << 16));
  for (uint32_t word : stream) u32(cmd, word);
  block("cmd_data", cmd);
  block("weight_data", std::vector<uint8_t>(64, 0));
  std::vector<uint8_t> scratch;
  u32(scratch, 4096);
  block("scratch_size", scratch);
  auto io = [&](const std::vector<std::vector<int32_t>>& shapes) {
    std::vector<uint8_t> v;
    u32(v, static_cast<uint32_t>(shapes.size()));
    uint32_t offset = 0;
    for (const auto& s : shapes) {
      // 6-D, right-aligned with leading 1s.
      std::vector<int32_t> six(6 - std::min<size_t>(6, s.size()), 1);
      six.insert(six.end(), s.begin(), s.end());
      for (int32_t d : six) u32(v, static_cast<uint32_t>(d));
      u32(v, 1);  // element size: int8
      u32(v, offset);
      u32(v, 1);  // region: scratch
      uint32_t n = 1;
      for (int32_t d : s) n *= static_cast<uint32_t>(d);
      offset += n;
    }
    return v;
  };
  block("inputs", io(inputs));
  block("outputs", io(outputs));
  block("vela_end_stream", {});
  return out;
}

}  // namespace etviz::gen
