#pragma once
// `etviz diff` output: per consecutive pair of graphs, the match summary, operator-count
// deltas, nodes only in A / only in B, changed nodes and tensors, delegates gained or lost,
// constant, payload and memory-plan deltas; as text, Markdown or JSON ("etviz.diff/1",
// docs/cli.md).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/diff.h"
#include "core/document.h"

namespace etviz::render {

// One graph of the comparison: the file it came from and which graph of it.
struct DiffOperand {
  std::string file;
  const Document* doc = nullptr;
  int32_t graph = -1;
  const Graph& g() const { return doc->graphs[static_cast<size_t>(graph)]; }
};

enum class DiffFormat { kTable, kJson, kMarkdown };

// `diffs[k]` compares operands[k] with operands[k + 1]. `limit`: rows listed per section in
// text and Markdown (JSON lists everything).
std::string diff_report(const std::vector<DiffOperand>& operands,
                        const std::vector<analysis::GraphDiff>& diffs, DiffFormat format,
                        size_t limit = 40);

// One pair of the report, for reports that pair graphs otherwise (whole programs, method by
// method: value_diff_report.h). JSON: `a_index`/`b_index` are indices into the report's graphs.
std::string diff_pair_text(const DiffOperand& a, const DiffOperand& b, const analysis::GraphDiff& d,
                           size_t limit, bool markdown);
nlohmann::ordered_json diff_pair_json(size_t a_index, size_t b_index, const DiffOperand& a,
                                      const DiffOperand& b, const analysis::GraphDiff& d);

}  // namespace etviz::render
