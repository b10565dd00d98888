// libFuzzer entry: any bytes into the pass-trace reader (ExecuTorch's trace and
// "etviz.trace/1", inline snapshots through GraphBuilder) and `etviz info`'s summary: a
// Document or an Error, never a crash (docs/diff.md, "Traces"). The trace sits in a folder that
// does not exist, so a snapshot it names is a warning, never a file of the machine running the
// fuzzer.
#include <cstddef>
#include <cstdint>
#include <span>

#include "analysis/summary.h"
#include "core/mapped_file.h"
#include "formats/trace/trace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = etviz::MappedFile::from_bytes("/nonexistent-etviz-fuzz/trace.json",
                                            std::span<const uint8_t>(data, size));
  auto doc = etviz::trace::read_trace(file);
  if (doc) (void)etviz::analysis::summarize(*doc, "");
  return 0;
}
