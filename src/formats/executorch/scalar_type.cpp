#include "formats/executorch/scalar_type.h"

#include <array>

namespace etviz::executorch {

std::string scalar_type_name(int code) {
  // The numbering is c10's ScalarType, which ExecuTorch's schema mirrors.
  static constexpr std::array<const char*, 30> kNames = {
      "uint8",           "int8",
      "int16",           "int32",
      "int64",           "float16",
      "float32",         "float64",
      "complex32",       "complex64",
      "complex128",      "bool",
      "qint8",           "quint8",
      "qint32",          "bfloat16",
      "quint4x2",        "quint2x4",
      "bits1x8",         "bits2x4",
      "bits4x2",         "bits8",
      "bits16",          "float8_e5m2",
      "float8_e4m3fn",   "float8_e5m2fnuz",
      "float8_e4m3fnuz", "uint16",
      "uint32",          "uint64",
  };
  if (code >= 0 && static_cast<size_t>(code) < kNames.size()) return kNames[code];
  return "scalar_type(" + std::to_string(code) + ")";
}

}  // namespace etviz::executorch
