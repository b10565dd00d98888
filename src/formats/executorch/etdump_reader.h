#pragma once
// Reads ExecuTorch ETDump runtime profiles (".etdp", identifier "ED00"), with or without the
// u32 size prefix the runtime writes, into a plain Profile. An optional debug buffer file
// holds the bytes of the intermediate tensors that debug events describe.
#include <memory>
#include <span>
#include <string>

#include "core/profile.h"

namespace etviz::executorch {

// Whether these bytes look like an ETDump: "ED00" at bytes 4..8 (plain) or 8..12 (size-prefixed).
bool looks_like_etdump(std::span<const uint8_t> head);

// Parses an ETDump held in `bytes`. Errors name what and where, but no file; callers add it.
Result<Profile> read_etdump(std::span<const uint8_t> bytes);

// Opens, maps and parses `path`; `debug_buffer_path` (may be empty) is mapped and attached so
// Profile::tensor_bytes() can return the logged tensors. Errors name the file.
Result<Profile> read_etdump_file(const std::string& path,
                                 const std::string& debug_buffer_path = "");

}  // namespace etviz::executorch
