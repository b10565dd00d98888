#pragma once
// Statistics of a program's constants (weights, buffers) on request: `etviz tensors`, the
// Python module. Each constant once (methods share them), read where its bytes lie.
// docs/numerics.md, "Constants".
#include <string>
#include <vector>

#include "analysis/numerics.h"
#include "core/document.h"
#include "render/numerics_report.h"

namespace etviz::session {

struct ConstantStatsOptions {
  std::string name_glob;  // only constants whose name matches (analysis::glob_match); empty: all
  int bins = 32;
  bool dequantize = false;  // quantized weights after dequantization
};

struct ConstantStat {
  std::string graph, name, dtype, shape, location, quantization, missing;
  int64_t nbytes = 0;
  analysis::TensorStats stats;
};

struct ConstantStatsResult {
  std::vector<ConstantStat> constants;
  std::vector<std::string> warnings;
};

ConstantStatsResult constant_stats(const Document& doc, const ConstantStatsOptions& options);

// The rows `etviz tensors` and Python's tensor_stats print.
std::vector<render::ConstantStatsRow> constant_stats_rows(ConstantStatsResult&& stats);

}  // namespace etviz::session
