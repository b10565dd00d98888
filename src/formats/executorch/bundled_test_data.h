#pragma once
// The bytes of a bundled program's test data (expected outputs), where they lie in the file:
// the Document keeps only their dtype and shape (bundled_program_reader.cpp), the numerics
// comparison needs the values themselves.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"

namespace etviz::executorch {

struct BundledTensor {
  std::string dtype;  // canonical name ("float32"), or "scalar_type(N)"
  std::vector<int64_t> sizes;
  std::vector<uint8_t> dim_order;
  std::span<const uint8_t> bytes;  // into the bundle's bytes
  bool is_tensor = true;           // false: a scalar (Int, Bool, Double) in `scalar`
  double scalar = 0;
};

struct BundledCases {
  size_t cases = 0;                    // test cases of the method
  std::vector<BundledTensor> outputs;  // the chosen case's expected outputs, in order
};

// The expected outputs of test case `index` of `method`'s suite in a bundled program's bytes
// (identifier BP08). Errors name the method, the case and what the bundle has.
Result<BundledCases> bundled_expected_outputs(std::span<const uint8_t> bundle,
                                              const std::string& method, int64_t index);

}  // namespace etviz::executorch
