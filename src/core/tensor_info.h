#pragma once
// What the IR knows about a tensor: type, shape, layout, where its memory and data live.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/boxed.h"

namespace etviz {

// One dimension: a concrete size, or a symbol (torch.export's "s0") with an optional hint.
struct Dim {
  int64_t size = -1;  // -1 when only symbolic
  RareString symbol;  // empty when concrete (a pointer: shapes of millions of tensors are held)
  bool is_symbolic() const { return !symbol.empty(); }
};

enum class ShapeDynamism { kStatic, kDynamicBound, kDynamicUnbound };

// Where a tensor's initial bytes come from.
enum class DataLocation {
  kNone,             // produced at run time (activations, inputs)
  kInline,           // inside the file's main structure (legacy constant_buffer, XNNPACK buffers)
  kConstantSegment,  // a .pte constant segment
  kMutableSegment,   // a .pte mutable data segment (initial state, e.g. trainable weights)
  kNamedData,        // a named blob (program named_data or a .ptd key)
  kExternal,         // outside the file, looked up by fully qualified name (.ptd)
};

// Run-time placement decided by the memory planner.
struct MemoryPlacement {
  uint32_t memory_id = 0;
  uint64_t offset = 0;
};

// Quantization parameters, as delegates and quantized dtypes state them.
struct Quantization {
  std::string scheme;          // "per_tensor", "per_channel", "per_channel_group", "per_token"...
  std::vector<double> scales;  // one per tensor, channel or group (may be truncated for display)
  std::vector<int64_t> zero_points;
  int64_t axis = -1;
  int64_t group_size = 0;
  int64_t num_scales = 0;  // total count even when `scales` holds only a prefix
};

// Small fields sit together (no padding between them): a 1M-op program holds 2.2M of these.
struct TensorInfo {
  SharedString dtype;  // canonical lower-case name: "float32", "int8", "bfloat16", "qint8", ...
  std::vector<Dim> shape;
  SmallVector<uint8_t> dim_order;  // empty = contiguous / not stated
  std::optional<MemoryPlacement> placement;
  RareString data_key;      // fully qualified name or named-data key, when known
  int64_t data_index = -1;  // buffer / segment-offset index, format specific
  int64_t nbytes = -1;      // -1 when unknown (symbolic shape, unknown dtype)
  ShapeDynamism dynamism = ShapeDynamism::kStatic;
  DataLocation data_location = DataLocation::kNone;
  bool requires_grad = false;
  Boxed<Quantization> quantization;  // rare: a pointer, not 112 bytes, in every value

  bool is_constant() const { return data_location != DataLocation::kNone; }
  // Element count if every dim is concrete, else nullopt.
  std::optional<int64_t> numel() const;
  // numel() x element_size, when both are known and the product fits (no overflow on hostile
  // shapes); readers set nbytes from it. element_size defaults to the dtype's.
  std::optional<int64_t> byte_size(int64_t element_size = -1) const;
  // "[1, 3, 224, 224]" with symbols where dims are symbolic.
  std::string shape_string() const;
};

// Size in bytes of one element of a canonical dtype name; 0 for unknown or sub-byte types.
int64_t dtype_element_size(const std::string& dtype);

const char* to_string(ShapeDynamism d);
const char* to_string(DataLocation d);

// The inverse of TensorInfo::shape_string(): "[1, 3, 224, 224]" -> dims, symbols ("s0")
// symbolic; "[]" is a scalar. Empty for text that is not a bracketed list.
std::vector<Dim> parse_shape_string(std::string_view text);
// A dtype as other tools write it, in etviz's canonical name: "torch.float32" -> "float32",
// "float" -> "float32", "half" -> "float16", "long" -> "int64", "int" -> "int32"; MLIR/SPIR-V
// element types "f32", "i8", "ui8", "bf16" likewise; anything else as is.
std::string canonical_dtype(std::string_view text);

}  // namespace etviz
