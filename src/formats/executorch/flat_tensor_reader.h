#pragma once
// Reads FlatTensor named-data files (".ptd", identifier "FT01"), both the early-2025 layout
// and the current one, into Document::named_data.
#include <cstdint>
#include <memory>
#include <span>

#include "core/document.h"

namespace etviz::executorch {

struct FlatTensorHeader {
  uint32_t length = 0;
  uint64_t flatbuffer_offset = 0;
  uint64_t flatbuffer_size = 0;
  uint64_t segment_base_offset = 0;
  uint64_t segment_data_size = 0;     // as the header declares it
  uint64_t segment_data_present = 0;  // what the file holds of it (less when it is cut off)
};

// The header at the start of a .ptd, checked against `bytes` (the whole file: the app reads
// only the header and flatbuffer of a large one, docs/app.md). Segment data cut off by the end
// of the file is not an error here: the names and layouts are in the flatbuffer, and the reader
// reports the missing bytes as damage.
Result<FlatTensorHeader> read_flat_tensor_header(std::span<const uint8_t> bytes);

Result<Document> read_flat_tensor_file(std::shared_ptr<const MappedFile> file);

// Adds a .ptd to a program's document: its blobs join doc.named_data, and every external
// tensor of the program is checked against them. Missing ones become warnings.
Status attach_flat_tensor(Document& program, std::shared_ptr<const MappedFile> ptd);

}  // namespace etviz::executorch
