#include "core/tensor_info.h"

#include <cstdlib>
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
    s += shape[i].is_symbolic() ? shape[i].symbol.str() : std::to_string(shape[i].size);
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

std::vector<Dim> parse_shape_string(std::string_view text) {
  std::vector<Dim> dims;
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') return dims;
  size_t i = 1;
  while (i < text.size() - 1) {
    while (i < text.size() - 1 && (text[i] == ' ' || text[i] == ',')) ++i;
    size_t j = i;
    while (j < text.size() - 1 && text[j] != ',') ++j;
    std::string item(text.substr(i, j - i));
    while (!item.empty() && item.back() == ' ') item.pop_back();
    if (!item.empty()) {
      Dim d;
      char* end = nullptr;
      const long long v = std::strtoll(item.c_str(), &end, 10);
      if (end && *end == 0)
        d.size = v;
      else
        d.symbol = item;
      dims.push_back(std::move(d));
    }
    i = j + 1;
  }
  return dims;
}

std::string canonical_dtype(std::string_view text) {
  if (text.starts_with("torch.")) text.remove_prefix(6);
  static const std::pair<std::string_view, std::string_view> kNames[] = {
      {"float", "float32"}, {"half", "float16"}, {"long", "int64"},    {"int", "int32"},
      {"f32", "float32"},   {"f16", "float16"},  {"bf16", "bfloat16"}, {"f64", "float64"},
      {"i1", "bool"},       {"i8", "int8"},      {"i16", "int16"},     {"i32", "int32"},
      {"i64", "int64"},     {"ui8", "uint8"},    {"si8", "int8"},      {"si32", "int32"},
      {"u8", "uint8"}};
  for (const auto& [from, to] : kNames)
    if (text == from) return std::string(to);
  return std::string(text);
}

}  // namespace etviz
