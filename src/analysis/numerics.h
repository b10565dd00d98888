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
#include "core/document.h"
#include "core/profile.h"

namespace etviz::analysis {

// Affine quantization of integer data: real = (q - zero_point) * scale, per tensor (one scale)
// or per channel along `axis` (one scale per index of that dimension).
struct QuantParams {
  std::vector<double> scales;
  std::vector<int64_t> zero_points;   // as many as scales; missing ones are 0
  int64_t axis = -1;                  // per channel: the dimension the scales run along
  std::optional<int64_t> qmin, qmax;  // the integer range, when the program states it
  std::string source;                 // where they come from, for reports ("quantize_per_tensor")
};

// A tensor's bytes with what it takes to read them as numbers.
struct TensorData {
  std::string dtype;  // canonical name ("float32", "int8", ...)
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;    // element strides; empty: contiguous
  std::span<const uint8_t> bytes;  // numel x element size, in storage order
  std::optional<QuantParams> quant;

  int64_t numel() const;  // product of sizes (1 for a scalar)
};

// Dtypes read as numbers: float16/32/64, bfloat16, (u)int8..64, bool, qint8, quint8, qint32.
bool numeric_dtype(std::string_view dtype);
// The integer ones among them (bool included).
bool integer_dtype(std::string_view dtype);

// The gap between a reference tensor `a` and a run's tensor `b`, as ExecuTorch's comparators
// define it (devtools/inspector/numerical_comparator: a = the reference, b = the run), in
// float64 over the elements where both are finite:
//   mse     mean((a - b)^2)
//   l1      sum(|a - b|)
//   snr_db  10 log10(mean(a^2) / mean((a - b)^2)); +inf when a == b everywhere
//   cosine  sum(a b) / (|a| |b|); 1 when both are all zero, 0 when only one is
//   max_abs max(|a - b|)
// NaN and Inf are counted per side, never summed: ExecuTorch turns NaN into 0 before it
// compares; etviz leaves such positions out of the figures and counts, in
// `nonfinite_mismatch`, the positions where the two sides disagree about them (one finite,
// the other not, or a different NaN/Inf), which makes a pair divergent whatever its figures.
struct GapMetrics {
  uint64_t elements = 0;  // positions compared (both finite)
  double mse = 0, l1 = 0, snr_db = 0, cosine = 1, max_abs = 0;
  uint64_t nan_reference = 0, inf_reference = 0, nan_run = 0, inf_run = 0;
  uint64_t nonfinite_mismatch = 0;
  bool has_nonfinite() const { return nan_reference + inf_reference + nan_run + inf_run > 0; }
};

// How a pair is read: both as stored (floats, or integers in their own domain), or integers
// dequantized first. Empty when the pair cannot be compared (see pair_domain).
enum class Domain { kFloat, kInteger, kDequantized };
const char* to_string(Domain d);  // "float", "integer", "dequantized"

// Why a pair cannot be compared, or nullopt and the domain it is compared in. Shapes first,
// then dtypes: equal dtypes compare as stored (integers in their integer domain unless both
// sides carry scale and zero point); an integer side with known quantization parameters
// against a float side is dequantized; anything else is a dtype mismatch.
struct PairCheck {
  std::optional<Domain> domain;
  std::string mismatch;  // "shape [1, 8] vs [1, 16]", "dtype int8 vs float32", ...
  enum class Kind { kNone, kShape, kDtype, kLayout } kind = Kind::kNone;
};
PairCheck check_pair(const TensorData& reference, const TensorData& run);

// The metrics of one pair; `domain` from check_pair. Blocks of the two spans are read in turn,
// converted (half and bfloat16 widened, integers dequantized when the domain says so) and
// accumulated in float64 by a loop the compiler vectorises.
GapMetrics compare_tensors(const TensorData& reference, const TensorData& run, Domain domain);

// Summary statistics of one tensor (an intermediate output, or a constant on request).
// Integers with quantization parameters are summarised as stored (their integer values);
// `dequantized` says the figures were taken after dequantization instead.
struct TensorStats {
  uint64_t count = 0;  // elements
  uint64_t finite = 0, nan = 0, inf = 0, zeros = 0;
  double min = 0, max = 0, mean = 0, std = 0, abs_max = 0;  // over finite elements
  // Equal-width bins over [min, max] of the finite elements (empty when there are none).
  std::vector<uint64_t> histogram;
  // Quantized data: the integer range and how many elements sit at each end (saturation).
  std::optional<int64_t> qmin, qmax;
  uint64_t at_qmin = 0, at_qmax = 0;
  bool dequantized = false;
};
TensorStats tensor_stats(const TensorData& tensor, int bins = 32, bool dequantize = false);

// A histogram of run - reference over the pair's compared positions, `bins` equal bins over
// [lo, hi] = [-max_abs, max_abs] (the page's panel draws it).
struct DiffHistogram {
  double lo = 0, hi = 0;
  std::vector<uint64_t> counts;
};
DiffHistogram diff_histogram(const TensorData& reference, const TensorData& run, Domain domain,
                             double max_abs, int bins = 24);

// What decides that a pair has diverged: a metric past a value (mse, l1 and max_abs above it;
// snr and cosine below it).
enum class Metric { kMse, kL1, kSnr, kCosine, kMaxAbs };
const char* to_string(Metric m);  // "mse", "l1", "snr", "cosine", "max_abs"
struct Threshold {
  Metric metric = Metric::kSnr;
  double value = 20;
  bool crossed(const GapMetrics& m) const;
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
  GapMetrics metrics;
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
