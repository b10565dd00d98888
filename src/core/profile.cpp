#include "core/profile.h"

namespace etviz {

const char* to_string(ProfileValue::Kind kind) {
  switch (kind) {
    case ProfileValue::Kind::kNull:
      return "Null";
    case ProfileValue::Kind::kInt:
      return "Int";
    case ProfileValue::Kind::kBool:
      return "Bool";
    case ProfileValue::Kind::kFloat:
      return "Float";
    case ProfileValue::Kind::kDouble:
      return "Double";
    case ProfileValue::Kind::kTensor:
      return "Tensor";
    case ProfileValue::Kind::kTensorList:
      return "TensorList";
    case ProfileValue::Kind::kString:
      return "String";
    case ProfileValue::Kind::kUnknown:
      return "Unknown";
  }
  return "Unknown";
}

std::span<const uint8_t> Profile::tensor_bytes(const ProfileTensor& tensor) const {
  if (!debug_buffer || tensor.offset < 0 || tensor.nbytes < 0) return {};
  const auto bytes = debug_buffer->bytes();
  const auto offset = static_cast<uint64_t>(tensor.offset);
  const auto size = static_cast<uint64_t>(tensor.nbytes);
  if (offset > bytes.size() || size > bytes.size() - offset) return {};
  return bytes.subspan(offset, size);
}

size_t Profile::event_count() const {
  size_t n = 0;
  for (const auto& run : runs)
    n += run.profile_events.size() + run.allocations.size() + run.debug_events.size();
  return n;
}

}  // namespace etviz
