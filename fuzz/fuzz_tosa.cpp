// libFuzzer entry: any bytes into the TOSA reader, as a .tosa file (a Document of its graphs,
// then `etviz info`'s summary) and as a TOSABackend-style payload at an offset inside a larger
// source: graphs or an Error, never a crash (docs/delegates.md, "TOSA graphs").
#include <cstddef>
#include <cstdint>
#include <span>

#include "analysis/summary.h"
#include "core/mapped_file.h"
#include "formats/open_document.h"
#include "formats/tosa/tosa_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  etviz::tosa::ReadOptions options;
  options.kind = etviz::GraphKind::kDelegate;
  options.base = 4096;  // as if the payload sat in a program's segment
  options.file_size = size + 8192;
  auto graphs = etviz::tosa::read_tosa(bytes, options);
  if (graphs)
    for (const etviz::Graph& g : graphs->graphs)
      for (const etviz::ConstantData& c : g.constant_data) (void)g.constant_blob(c.value);
  auto doc = etviz::read_document(etviz::MappedFile::from_bytes("fuzz.tosa", bytes));
  if (doc) {
    for (const etviz::Graph& g : doc->graphs)
      for (const etviz::ConstantData& c : g.constant_data) (void)doc->bytes(c.blob);
    (void)etviz::analysis::summarize(*doc, "");
  }
  return 0;
}
