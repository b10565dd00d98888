#include "core/tensor_info.h"

#include <string_view>
#include <unordered_map>

#include "core/checked_math.h"

namespace etviz {

std::optional<int64_t> TensorInfo::numel() const {
  int64_t n = 1;
  for (const Dim& d : shape) {
    if (d.is_symbolic() || d.size < 0) return std::nullopt;
    if (d.size != 0 && n > INT64_MAX / d.size) return std::nullopt;
    n *= d.size;
  }
  return n;
}

std::optional<int64_t> TensorInfo::byte_size(int64_t element_size) const {
  if (element_size < 0) element_size = dtype_element_size(dtype);
  const auto n = numel();
  if (!n || element_size <= 0) return std::nullopt;
  return checked_mul(*n, element_size);
}

std::string TensorInfo::shape_string() const {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += shape[i].is_symbolic() ? shape[i].symbol : std::to_string(shape[i].size);
  }
  return s + "]";
}

int64_t dtype_element_size(const std::string& dtype) {
  static const std::unordered_map<std::string_view, int64_t> sizes = {
      {"uint8", 1},           {"int8", 1},
      {"int16", 2},           {"int32", 4},
      {"int64", 8},           {"float16", 2},
      {"float32", 4},         {"float64", 8},
      {"complex32", 4},       {"complex64", 8},
      {"complex128", 16},     {"bool", 1},
      {"qint8", 1},           {"quint8", 1},
      {"qint32", 4},          {"bfloat16", 2},
      {"quint4x2", 1},        {"quint2x4", 1},
      {"bits1x8", 1},         {"bits2x4", 1},
      {"bits4x2", 1},         {"bits8", 1},
      {"bits16", 2},          {"float8_e5m2", 1},
      {"float8_e4m3fn", 1},   {"float8_e5m2fnuz", 1},
      {"float8_e4m3fnuz", 1}, {"uint16", 2},
      {"uint32", 4},          {"uint64", 8},
  };
  auto it = sizes.find(dtype);
  return it == sizes.end() ? 0 : it->second;
}

const char* to_string(ShapeDynamism d) {
  switch (d) {
    case ShapeDynamism::kStatic:
      return "static";
    case ShapeDynamism::kDynamicBound:
      return "dynamic_bound";
    case ShapeDynamism::kDynamicUnbound:
      return "dynamic_unbound";
  }
  return "unknown";
}

const char* to_string(DataLocation d) {
  switch (d) {
    case DataLocation::kNone:
      return "none";
    case DataLocation::kInline:
      return "inline";
    case DataLocation::kConstantSegment:
      return "constant_segment";
    case DataLocation::kMutableSegment:
      return "mutable_segment";
    case DataLocation::kNamedData:
      return "named_data";
    case DataLocation::kExternal:
      return "external";
  }
  return "unknown";
}

}  // namespace etviz
