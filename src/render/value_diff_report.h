#pragma once
// The value diff in `etviz diff` reports (analysis/value_diff.h): weights that differ with
// their statistics, tensor metadata, scalars, counts; and whole programs compared method by
// method under a one-line verdict. Text, Markdown and the `values` / `programs` members of
// etviz.diff/1 (docs/diff.md, "Values and weights").
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/value_diff.h"
#include "render/diff_report.h"

namespace etviz::render {

// The sections a pair's report gains (after the structural ones).
std::string value_diff_text(const analysis::ValueDiff& v, const Document& da, const Graph& a,
                            const Document& db, const Graph& b, size_t limit, bool markdown);
nlohmann::ordered_json value_diff_json(const analysis::ValueDiff& v, const Document& da,
                                       const Graph& a, const Document& db, const Graph& b);
// One tensor's statistics as JSON (also the page's panel data).
nlohmann::ordered_json element_stats_json(const analysis::TensorComparison& s);

// The page panel's data for constants whose bytes differ (etviz-timeline steps' `tensors`,
// docs/viewer.md): per node of `b` (the constant's node, or the delegate call whose payload
// holds it), one entry per tensor in the page's camelCase keys.
std::vector<std::pair<NodeId, nlohmann::json>> tensor_panels(const analysis::ValueDiff& v,
                                                             const Graph& b);

// Two files compared as whole programs: the file-level facts and, per method both have, the
// diff of its graphs (operands[2k] -> operands[2k + 1] is diffs[k], program.methods[k]).
struct ProgramComparison {
  analysis::ProgramDiff program;
  std::vector<DiffOperand> operands;
  std::vector<analysis::GraphDiff> diffs;
};

// Whole-program comparisons of consecutive files (each operand a file, `graph` unused): the
// file-level facts, then every method both have, diffed with their values.
std::vector<ProgramComparison> compare_programs(const std::vector<DiffOperand>& files,
                                                const analysis::ValueDiffOptions& options = {});
// Whether two operands are compared as whole programs: ExecuTorch programs named without
// #GRAPH (other formats compare their main graphs).
bool is_whole_program(const Document& doc);

// `comparisons[k]` compares file k with file k + 1.
std::string program_diff_report(const std::vector<ProgramComparison>& comparisons,
                                DiffFormat format, size_t limit = 40);

}  // namespace etviz::render
