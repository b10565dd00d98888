#pragma once
// The first bytes of a .pte: flatbuffer root offset, file identifier, and the optional
// extended header that locates the segments appended after the flatbuffer.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/status.h"

namespace etviz::executorch {

struct ExtendedHeader {
  uint32_t length = 0;  // 24 (older writers) or 32
  uint64_t program_size = 0;
  uint64_t segment_base_offset = 0;
  std::optional<uint64_t> segment_data_size;  // only when length >= 32
};

struct ProgramHeader {
  std::string identifier;  // bytes 4..8, e.g. "ET12"
  std::optional<ExtendedHeader> extended;
  // The flatbuffer's extent: program_size with the extended header, else the whole input.
  uint64_t flatbuffer_size = 0;
};

// Reads the identifier and extended header, checking every size against `bytes`.
// Errors carry no file name; callers add it.
Result<ProgramHeader> read_program_header(std::span<const uint8_t> bytes);

// The identifier etviz reads. Others (ET02 from 2023 pre-releases, future ET13) are refused.
inline constexpr const char* kProgramIdentifier = "ET12";

}  // namespace etviz::executorch
