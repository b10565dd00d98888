#pragma once
// Where a file's bytes go (`etviz size`, docs/memory.md "Size"): the file split exactly into
// its sections (header, flatbuffer, each segment, padding), and inside them what is known:
// constants by fully qualified name grouped by module path, delegate payloads by backend and
// method, named data by key, mutable data. Whatever a section holds beyond what is attributed
// is an explicit "other" child, so every level sums exactly to its parent and the root to the
// file size.
#include <cstdint>
#include <string>
#include <vector>

#include "core/document.h"

namespace etviz::analysis {

struct SizeNode {
  std::string name;
  std::string kind;  // file, section, module, constant, delegate, named_data, other, padding
  uint64_t bytes = 0;
  std::vector<SizeNode> children;
};

// Only the document's main file (sources[0]) is split; side files (.ptd) are not counted.
SizeNode size_tree(const Document& doc);

}  // namespace etviz::analysis
