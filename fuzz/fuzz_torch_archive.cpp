// libFuzzer entry: any bytes as a .pt2 / .etrecord archive.
#include <cstddef>
#include <cstdint>

#include "formats/torch_export/archive_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = etviz::MappedFile::from_bytes("fuzz.zip", {data, size});
  auto doc = etviz::torch_export::read_torch_archive(file);
  (void)doc;
  return 0;
}
