#pragma once
#include <cstdint>
#include <string>

namespace etviz::executorch {

// Canonical dtype name for an ExecuTorch/c10 ScalarType code ("float32", "qint8", ...).
// Unknown codes give "scalar_type(N)" so the rest of the tensor still shows.
std::string scalar_type_name(int code);

}  // namespace etviz::executorch
