#pragma once
// Where a constant tensor's bytes are in the files a Document was read from: the program's
// constant segment, its legacy inline constant_buffer, or a named blob (the program's named
// data, an attached .ptd). The IR keeps only where each constant lives (TensorInfo's
// data_location, data_index, data_key); statistics of weights (`etviz tensors`) need the bytes.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/document.h"

namespace etviz::executorch {

class ConstantLocator {
 public:
  // Reads the program's tables once (a .pte, or the program a .bpte embeds); a document
  // without one (a .ptd alone) locates named blobs only.
  explicit ConstantLocator(const Document& doc);

  // The bytes of a constant (TensorInfo::nbytes of them), or empty with `why` set.
  std::span<const uint8_t> bytes(const TensorInfo& tensor, std::string* why) const;

 private:
  const Document& doc_;
  std::span<const uint8_t> program_;  // the program's bytes (segments included)
  uint64_t segment_base_ = 0;
  std::vector<std::pair<uint64_t, uint64_t>> segments_;  // offset from segment base, size
  int64_t constant_segment_ = -1;
  std::vector<uint64_t> constant_offsets_;
  std::vector<std::span<const uint8_t>> inline_buffers_;  // legacy constant_buffer
  std::string note_;  // why the program's tables could not be read
};

}  // namespace etviz::executorch
