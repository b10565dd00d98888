#pragma once
// Numerics: where accuracy is lost. The intermediate outputs two runs of one program logged
// (ETDump debug events, their bytes in debug buffers) are matched event for event and compared
// with the metrics of ExecuTorch's Inspector comparators (MSE, L1, SNR), plus cosine similarity
// and the largest absolute difference; errors propagate downstream, so the report names the
// first operator, in execution order, whose gap crosses a threshold. docs/numerics.md.
//
// The same comparison serves other references: a bundled program's expected outputs against the
// run's method outputs (session/numerics_session.h builds those entries). Tensors are read where
// they lie (spans into mapped debug buffers), block by block; nothing is copied whole.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/profile_stats.h"
#include "analysis/tensor_compare.h"
#include "core/document.h"
#include "core/profile.h"

namespace etviz::analysis {

// What decides that a pair has diverged: a metric past a value (mse, l1 and max_abs above it;
// snr and cosine below it).
enum class Metric { kMse, kL1, kSnr, kCosine, kMaxAbs };
const char* to_string(Metric m);  // "mse", "l1", "snr", "cosine", "max_abs"
struct Threshold {
  Metric metric = Metric::kSnr;
  double value = 20;
  bool crossed(const TensorComparison& m) const;
  std::string describe() const;  // "snr < 20 dB"
};
// The default: SNR below 20 dB, the error's power over 1% of the signal's. int8 quantization
// noise stays well above it (~40 dB), float runs on different kernels far above (>100 dB).
std::vector<Threshold> default_thresholds();
// "snr=20", "mse=1e-4", "l1=3", "cosine=0.999", "max_abs=0.5" (also "max-abs"); an error
// names the text.
Result<Threshold> parse_threshold(std::string_view text);

// One logged value to compare: a tensor of a debug event (one entry per tensor of a tensor
// list) or a scalar; or an expected output of a bundled program's test case.
struct DebugEntry {
  std::string name;
  int64_t chain = 0;
  int32_t instruction = -1;
  int32_t delegate_debug_id_int = -1;
  std::string delegate_debug_id_str;
  bool is_output = false;
  int32_t tensor_index = 0;  // position in the event's tensor list (0 for a single tensor)
  ProfileValue::Kind kind = ProfileValue::Kind::kTensor;
  std::string dtype;  // canonical, or "scalar_type(N)"
  std::vector<int64_t> sizes, strides;
  int64_t offset = -1, nbytes = -1;  // where the bytes are in the debug buffer
  std::optional<TensorData> data;    // the bytes, when they could be read
  std::string missing;               // why not ("outside the debug buffer (1,024 bytes)")
  double scalar = 0;                 // kInt, kBool, kFloat, kDouble

  bool has_delegate_debug_id() const {
    return delegate_debug_id_int != -1 || !delegate_debug_id_str.empty();
  }
  std::string delegate_debug_id() const;  // "17", "conv_0" or ""
};

// The entries of one run of `profile` (ProfileRun index), in the order the runtime logged them
// (execution order). Tensors whose bytes lie outside the debug buffer (or that have no buffer)
// keep `missing` and no data; `warnings` names the first few and counts the rest.
std::vector<DebugEntry> debug_entries(const Profile& profile, size_t run,
                                      std::vector<std::string>* warnings);
// The runs of `profile` that logged debug events (ProfileRun indices).
std::vector<size_t> debug_runs(const Profile& profile);

enum class RowStatus {
  kCompared,
  kShapeMismatch,
  kDtypeMismatch,
  kLayoutMismatch,  // same shape, different strides (dim order)
  kMissingData,     // a side's bytes are not in its buffer (or no buffer was given)
  kNotNumeric,      // a dtype etviz does not read as numbers, or a kind without a value
  kUnmatched,       // no counterpart on the other side
};
const char* to_string(RowStatus s);  // "compared", "shape_mismatch", ...

struct NumericsRow {
  DebugEntry run, reference;  // reference.kind == kNull when unmatched on that side
  bool has_run = true, has_reference = true;
  int32_t occurrence = 0;  // k-th entry of its key (chain, instruction, delegate id) in the run
  RowStatus status = RowStatus::kCompared;
  std::string note;  // the mismatch or what is missing
  std::optional<Domain> domain;
  TensorComparison metrics;
  bool divergent = false;
  std::string crossed;  // the threshold that made it divergent ("snr < 20 dB", "non-finite")
  EventJoin join;       // what the program says of the instruction (join_numerics)
  // With NumericsOptions::statistics: both sides' statistics and the differences' histogram.
  std::optional<TensorStats> run_stats, reference_stats;
  std::optional<DiffHistogram> differences;
};

struct NumericsOptions {
  std::vector<Threshold> thresholds = default_thresholds();
  bool statistics = false;  // per row: TensorStats of both sides and a DiffHistogram
  int histogram_bins = 24;
  size_t first_differences = 5;  // per row: the first differing elements kept (CompareOptions)
};

struct NumericsReport {
  // The run's entries in execution order, each with its reference counterpart; then the
  // reference entries no run entry matched.
  std::vector<NumericsRow> rows;
  std::optional<size_t> first_divergent;  // index into rows
  std::vector<Threshold> thresholds;
  size_t matched = 0, compared = 0, mismatched = 0, missing = 0, not_numeric = 0;
  size_t unmatched_run = 0, unmatched_reference = 0;
  std::vector<std::string> warnings;
};

// Pairs the two lists. Entries match by (chain, instruction, delegate debug id, or the event's
// name inside a delegate when it has no id) and, among entries with the same key, by order;
// method outputs (is_output) match by their order among outputs. Unmatched entries on either
// side are rows of their own (the run's in place, the reference's at the end) and counted,
// with a warning that the runs may come from different programs.
NumericsReport match_entries(const std::vector<DebugEntry>& reference,
                             const std::vector<DebugEntry>& run);

// Ties the rows to the program that ran: ops, delegate backends and payload ops of each row's
// instruction (join_profile's join, so the same rules and warnings as `etviz profile`), and
// the quantization parameters of integer outputs (value_quant_params), which make an integer
// output comparable with a float one. `method` empty: forward, or the only method. Call before
// compare_rows.
Status join_numerics(NumericsReport& report, const Document& program, const std::string& method);

// Checks and compares every matched pair, marks the divergent ones and the first of them in
// execution order.
void compare_rows(NumericsReport& report, const NumericsOptions& options);

// match_entries then compare_rows: two lists without a program.
NumericsReport compare_entries(const std::vector<DebugEntry>& reference,
                               const std::vector<DebugEntry>& run, const NumericsOptions& options);

// Quantization parameters the program states for value `v` of `graph`: the tensor's own
// (delegates, quantized dtypes), else the arguments of the quantize call that writes it, else
// those of a dequantize call that reads it.
std::optional<QuantParams> value_quant_params(const Graph& graph, ValueId v);

}  // namespace etviz::analysis
