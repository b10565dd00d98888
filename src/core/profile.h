#pragma once
// A runtime profile (ExecuTorch ETDump) as plain data. A profile is a list of runs, each a
// list of timed events; it is not a graph, so it has its own struct. Analysis code joins it
// with a program's graphs by (chain, instruction) and with an ETRecord by debug handles.
//
// Times are the raw values the runtime logged (`et_pal_current_ticks()` or a delegate's own
// clock): their unit is not stored in the file. See docs/profile.md.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/mapped_file.h"

namespace etviz {

// An intermediate tensor logged by a debug event. Its bytes are not in the ETDump; they live
// in a separate debug buffer at `offset` (see Profile::tensor_bytes).
struct ProfileTensor {
  int32_t scalar_type = -1;  // ExecuTorch ScalarType code
  std::string dtype;         // canonical name ("float32"), or "scalar_type(N)"
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t offset = -1;  // byte offset in the debug buffer
  int64_t nbytes = -1;  // numel x element size; -1 when unknown (bad dtype or shape)
};

// What a debug event logged: a scalar, a tensor or a tensor list.
struct ProfileValue {
  enum class Kind { kNull, kInt, kBool, kFloat, kDouble, kTensor, kTensorList, kString, kUnknown };
  Kind kind = Kind::kNull;
  int64_t int_value = 0;
  bool bool_value = false;
  double float_value = 0;              // kFloat and kDouble
  std::vector<ProfileTensor> tensors;  // one for kTensor, any number for kTensorList
  bool is_output = false;              // a program output rather than an intermediate
};

// "Null", "Int", ... for reports.
const char* to_string(ProfileValue::Kind kind);

struct ProfileEvent {
  std::string name;
  int32_t chain = -1;                  // -1: a framework event (Method::execute, Method::init, ...)
  int32_t instruction = -1;            // index into ExecutionPlan.chains[chain].instructions
  int32_t delegate_debug_id_int = -1;  // -1 when unset
  std::string delegate_debug_id_str;   // empty when unset
  std::vector<uint8_t> delegate_debug_metadata;
  uint64_t start = 0;
  uint64_t end = 0;

  bool is_framework() const { return chain < 0; }
  bool has_delegate_debug_id() const {
    return delegate_debug_id_int != -1 || !delegate_debug_id_str.empty();
  }
  // end - start; 0 when the clock went backwards (a corrupt or wrapped record).
  uint64_t duration() const { return end >= start ? end - start : 0; }
};

struct AllocationEvent {
  int32_t allocator = -1;  // index into ProfileRun::allocators
  uint64_t size = 0;       // bytes
};

struct DebugEvent {
  std::string name;
  int64_t chain = 0;
  int32_t instruction = -1;
  int32_t delegate_debug_id_int = -1;
  std::string delegate_debug_id_str;
  ProfileValue value;
};

// One RunData block: what the runtime logged between two resets (e.g. "Default" for loading,
// "Execute" for one inference).
struct ProfileRun {
  std::string name;
  int32_t bundled_input_index = -1;  // the bundled-program test case used, -1 if none
  std::vector<std::string> allocators;
  std::vector<ProfileEvent> profile_events;
  std::vector<AllocationEvent> allocations;
  std::vector<DebugEvent> debug_events;
};

struct Profile {
  std::string path;
  uint32_t version = 0;        // ETDump schema version
  bool size_prefixed = false;  // the runtime writes a u32 size prefix; Python tools do not
  std::vector<ProfileRun> runs;
  std::vector<std::string> warnings;  // what the reader skipped or could not resolve

  // The debug buffer given with --debug-buffer; null when none was given.
  std::shared_ptr<const MappedFile> debug_buffer;

  // The tensor's bytes in the debug buffer; empty when there is no buffer, the size is
  // unknown or the range lies outside it.
  std::span<const uint8_t> tensor_bytes(const ProfileTensor& tensor) const;
  size_t event_count() const;
};

}  // namespace etviz
