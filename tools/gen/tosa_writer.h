#pragma once
// Writes TOSA flatbuffers (through etviz's own schema, formats/tosa/schemas/tosa.fbs) from a
// typed description, and Vela bin streams (the Ethos-U payload layout
// formats/delegates/ethosu_decoder.cpp reads): what tests need that the corpus lacks (control
// flow, hostile references, decoys) and what `etviz-gen ethosu` writes for benchmarks.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace etviz::gen {

// Wire numbers of the TOSA enums the writer's callers use (the schema's Op and DType).
namespace tosa_op {
inline constexpr uint32_t kConv2d = 3, kDepthwiseConv2d = 5, kAvgPool2d = 2, kClamp = 11, kAdd = 15,
                          kReshape = 57, kTranspose = 61, kRescale = 66, kConst = 67,
                          kIdentity = 68, kCondIf = 70, kWhileLoop = 71, kConstShape = 75;
}
namespace tosa_type {
inline constexpr uint32_t kBool = 1, kInt8 = 3, kInt16 = 4, kInt32 = 5, kFp32 = 7;
}

struct TosaTensorSpec {
  TosaTensorSpec() = default;
  TosaTensorSpec(std::string n, uint32_t t, std::vector<int32_t> s, std::vector<uint8_t> d = {})
      : name(std::move(n)), dtype(t), shape(std::move(s)), data(std::move(d)) {}
  std::string name;
  uint32_t dtype = tosa_type::kInt8;
  std::vector<int32_t> shape;
  std::vector<uint8_t> data;      // a constant's bytes (inside the flatbuffer)
  uint64_t offset = 0, size = 0;  // data outside the flatbuffer (files over 2 GiB)
};

struct TosaShapeSpec {
  std::string name;
  std::vector<int64_t> values;
};

struct TosaOpSpec {
  TosaOpSpec() = default;
  TosaOpSpec(uint32_t o, std::vector<std::string> in, std::vector<std::string> out)
      : op(o), inputs(std::move(in)), outputs(std::move(out)) {}
  uint32_t op = 0;
  std::vector<std::string> inputs, outputs;
  // Attributes, written into the table the operator's union member takes; unused fields are
  // left out.
  std::vector<int32_t> pad, stride, dilation, kernel, perms;
  uint32_t acc_type = tosa_type::kInt32;
  std::vector<uint8_t> min_val, max_val;
  std::string then_graph, else_graph, cond_graph, body_graph;
};

struct TosaBlockSpec {
  std::string name = "main";
  std::vector<TosaOpSpec> ops;
  std::vector<TosaTensorSpec> tensors;
  std::vector<TosaShapeSpec> shapes;
  std::vector<std::string> inputs, outputs;
};

struct TosaRegionSpec {
  std::string name = "main";
  std::vector<TosaBlockSpec> blocks;
};

struct TosaFileSpec {
  int32_t major = 1, minor = 0, patch = 0;
  bool draft = false;
  std::vector<TosaRegionSpec> regions;
};

std::vector<uint8_t> write_tosa(const TosaFileSpec& spec);

// A partition of a convolutional network as the Arm backend lowers it: an NCHW int8 input
// transposed to NHWC, `layers` x (Conv2D, Rescale, Clamp) with their constants (weights,
// bias, zero points, multipliers, shifts: 8 CONST operators per layer), transposed back to
// NCHW: output [1, out_channels, H, W]. 11 operators per layer plus 2. `seed` varies the
// weights.
TosaFileSpec conv_partition(const std::vector<int32_t>& input_nchw, int32_t out_channels,
                            int layers, uint32_t seed);

// A Vela bin stream for a delegate taking `inputs` and returning `outputs` (int8 shapes,
// written as 6-D records), with a command stream of `ops` NPU operations.
std::vector<uint8_t> vela_stream(const std::vector<std::vector<int32_t>>& inputs,
                                 const std::vector<std::vector<int32_t>>& outputs, int ops);

}  // namespace etviz::gen
