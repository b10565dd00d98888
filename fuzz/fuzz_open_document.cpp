// libFuzzer entry: any bytes through the one document opener (every reader: .pte, .bpte, .ptd,
// .pt2, .etrecord, pass traces; delegate payloads decoded), then the analyses every page and
// report runs (summary, memory plan, size tree, a diff with itself): a Document or an Error,
// never a crash, a hang or an unbounded allocation.
#include <cstddef>
#include <cstdint>
#include <span>

#include "analysis/diff.h"
#include "analysis/memory_plan.h"
#include "analysis/size_tree.h"
#include "analysis/summary.h"
#include "core/mapped_file.h"
#include "formats/open_document.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = etviz::MappedFile::from_bytes("fuzz.bin", std::span<const uint8_t>(data, size));
  auto doc = etviz::read_document(file);
  if (!doc) return 0;
  (void)etviz::analysis::summarize(*doc);
  (void)etviz::analysis::size_tree(*doc);
  for (const auto& g : doc->graphs) {
    for (const auto& n : g.nodes)
      for (const auto& a : n.inputs)
        if (a.value >= static_cast<int32_t>(g.values.size())) __builtin_trap();
    if (g.stage.role == etviz::StageRole::kExecuTorch) (void)etviz::analysis::memory_plan(*doc, g);
  }
  const auto graphs = etviz::analysis::pipeline_graphs(*doc);
  if (graphs.size() >= 2) {
    const auto& a = doc->graphs[static_cast<size_t>(graphs[0])];
    const auto& b = doc->graphs[static_cast<size_t>(graphs[1])];
    (void)etviz::analysis::diff_graphs(*doc, a, *doc, b);
  }
  return 0;
}
