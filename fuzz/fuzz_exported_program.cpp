// libFuzzer entry: any bytes into the exported-program reader must give a Document or an Error,
// never a crash, a hang or an unbounded allocation.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "formats/torch_export/exported_program_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  etviz::Document doc;
  auto r = etviz::torch_export::read_exported_program(
      std::string_view(reinterpret_cast<const char*>(data), size), doc);
  if (r.ok()) {
    // Touch what readers produced so sanitizers see every reference.
    for (const auto& g : doc.graphs)
      for (const auto& n : g.nodes) {
        for (const auto& a : n.inputs)
          if (a.value >= static_cast<int32_t>(g.values.size())) __builtin_trap();
        if (n.group >= static_cast<int32_t>(g.groups.size())) __builtin_trap();
        if (n.subgraph >= static_cast<int32_t>(doc.graphs.size())) __builtin_trap();
      }
  }
  return 0;
}
