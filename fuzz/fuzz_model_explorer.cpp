// libFuzzer entry: any bytes into the Model Explorer graph JSON reader (GraphCollection roots,
// namespaces, subgraph links, edges, metadata) and `etviz info`'s summary of what it reads: a
// Document or an Error, never a crash (docs/export.md, "Model Explorer JSON").
#include <cstddef>
#include <cstdint>
#include <span>

#include "analysis/summary.h"
#include "core/mapped_file.h"
#include "formats/model_explorer/model_explorer_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = etviz::MappedFile::from_bytes("fuzz.json", std::span<const uint8_t>(data, size));
  auto doc = etviz::model_explorer::read_model_explorer_json(file);
  if (doc) (void)etviz::analysis::summarize(*doc, "");
  return 0;
}
