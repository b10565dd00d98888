#include "formats/executorch/program_header.h"

#include <cstring>

#include "core/bytes.h"

namespace etviz::executorch {

Result<ProgramHeader> read_program_header(std::span<const uint8_t> bytes) {
  if (bytes.size() < 8)
    return Error("file is " + std::to_string(bytes.size()) +
                 " bytes, too short for an ExecuTorch program (needs at least 8)");
  ProgramHeader header;
  header.identifier = printable_tag(bytes.subspan(4, 4));
  header.flatbuffer_size = bytes.size();
  if (bytes.size() >= 16 && std::memcmp(bytes.data() + 8, "eh00", 4) == 0) {
    ExtendedHeader ext;
    ext.length = load_le<uint32_t>(bytes.data() + 12);
    if (ext.length < 24)
      return Error("extended header at offset 8 declares length " + std::to_string(ext.length) +
                   ", expected 24 or more");
    if (8 + static_cast<uint64_t>(ext.length) > bytes.size())
      return Error("extended header at offset 8 declares length " + std::to_string(ext.length) +
                   " but the file ends at " + std::to_string(bytes.size()));
    ext.program_size = load_le<uint64_t>(bytes.data() + 16);
    ext.segment_base_offset = load_le<uint64_t>(bytes.data() + 24);
    if (ext.length >= 32) ext.segment_data_size = load_le<uint64_t>(bytes.data() + 32);
    if (ext.program_size > bytes.size() || ext.program_size < 16)
      return Error("extended header: program size " + std::to_string(ext.program_size) +
                   " does not fit the file size " + std::to_string(bytes.size()));
    if (ext.segment_base_offset != 0 && ext.segment_base_offset < ext.program_size)
      return Error("extended header: segment base offset " +
                   std::to_string(ext.segment_base_offset) + " lies inside the program (size " +
                   std::to_string(ext.program_size) + ")");
    header.flatbuffer_size = ext.program_size;
    header.extended = ext;
  }
  return header;
}

}  // namespace etviz::executorch
