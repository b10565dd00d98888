#pragma once
// A byte range of one of a Document's source files, read only when someone asks
// (Document::bytes). Its own header so the graph IR can name constants' bytes without the
// Document.
#include <cstdint>

namespace etviz {

struct BlobRef {
  int32_t source = -1;  // index into Document::sources
  uint64_t offset = 0;
  uint64_t size = 0;
  bool valid() const { return source >= 0; }
};

}  // namespace etviz
