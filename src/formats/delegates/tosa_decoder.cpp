// TOSABackend payloads: ExecuTorch's TOSA backend hands the runtime the TOSA flatbuffer itself
// (backends/arm/tosa/backend.py), so the payload is read like a .tosa file
// (formats/tosa/tosa_reader.h), its constants located inside the program.
#include <fmt/format.h>

#include "formats/delegates/delegate_decoders.h"
#include "formats/tosa/tosa_reader.h"

namespace etviz::delegates {

Result<Graph> decode_tosa(const DecodeInput& in) {
  tosa::ReadOptions options;
  options.graph_name = in.graph_name;
  options.kind = GraphKind::kDelegate;
  options.source = in.delegate.payload.source;
  options.base = in.delegate.payload.offset;
  auto read = tosa::read_tosa(in.payload, options);
  if (!read) return read.error();
  if (read->graphs.size() > 1 && !in.nested)
    return Error("the TOSA graph has control-flow bodies and this caller takes none");
  Graph main = std::move(read->graphs[0]);
  main.attributes.insert(main.attributes.begin(), {"backend", in.delegate.backend_id});
  for (const std::string& w : read->warnings) main.attributes.push_back({"warning", w});
  for (const std::string& n : read->notes) main.attributes.push_back({"note", n});
  for (size_t k = 1; k < read->graphs.size(); ++k) in.nested->push_back(std::move(read->graphs[k]));
  // Nested graphs keep their indices: [0] of `nested` is the decoded graph's place.
  return main;
}

}  // namespace etviz::delegates
