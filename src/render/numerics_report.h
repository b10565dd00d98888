#pragma once
// `etviz numerics` output: one row per compared event as a text table or CSV, or one JSON object
// (layout in docs/numerics.md), and `etviz tensors`' statistics of constants.
#include <string>
#include <vector>

#include "analysis/numerics.h"
#include "core/document.h"

namespace etviz::render {

struct NumericsReportView {
  const analysis::NumericsReport* report = nullptr;
  std::string run_path, run_label;  // the file, and "RUN.etdp (run 1)"
  std::string reference_path, reference_label, reference_kind;
  std::string program_path;  // empty without a program
  std::string method;
  std::vector<std::string> warnings;
  size_t max_width = 0;  // text: fit the table into this many columns (0: no limit)
};

std::string numerics_text(const NumericsReportView& v);
std::string numerics_csv(const NumericsReportView& v);
std::string numerics_json(const NumericsReportView& v);

// `etviz tensors PROGRAM`: statistics of the constants whose bytes are in the file.
struct ConstantStatsRow {
  std::string graph;  // method (or graph) that reads the constant
  std::string name;   // fully qualified name, else the value's name
  std::string dtype;
  std::string shape;
  int64_t nbytes = 0;
  std::string location;      // constant_segment, inline, named_data, ...
  std::string quantization;  // "per_tensor scale 0.02 zp 3", empty when none
  std::string missing;       // why there are no statistics (bytes not in the file, dtype)
  analysis::TensorStats stats;
};
std::string constant_stats_text(const std::vector<ConstantStatsRow>& rows, const std::string& file,
                                size_t max_width);
std::string constant_stats_csv(const std::vector<ConstantStatsRow>& rows);
std::string constant_stats_json(const std::vector<ConstantStatsRow>& rows, const std::string& file,
                                const std::vector<std::string>& warnings);

}  // namespace etviz::render
