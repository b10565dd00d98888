#pragma once
// Tensor figures: the one module that reads a tensor's bytes as numbers and compares two
// tensors or summarises one. Numerics (analysis/numerics.h: intermediate outputs of two runs)
// and value diffs (two programs' constants) both go through it, so a figure means the same
// everywhere. docs/numerics.md, "Figures".
//
// Tensors are read where they lie (spans into mapped files), block by block, in one pass;
// nothing is copied whole. Sums are taken in float64.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace etviz::analysis {

// How an element's bytes read as a number. kBytes: no numeric reading (sub-byte, float8,
// complex or unknown dtypes): elements are bytes, equal or not.
enum class ElementType : uint8_t {
  kBytes,
  kFloat32,
  kFloat16,
  kBFloat16,
  kFloat64,
  kInt8,
  kUInt8,
  kInt16,
  kUInt16,
  kInt32,
  kUInt32,
  kInt64,
  kUInt64,
  kBool,
};
// The reading of a canonical dtype name ("float32"; "qint8" reads as int8, "quint8" as
// uint8, "qint32" as int32); kBytes for any other.
ElementType element_type(std::string_view dtype);
int64_t element_size(ElementType t);  // 1 for kBytes
bool is_floating(ElementType t);
// The number one element holds, before any dequantization (kBytes: the byte).
double read_element(ElementType t, const uint8_t* p);

// Dtypes read as numbers: float16/32/64, bfloat16, (u)int8..64, bool, qint8, quint8, qint32.
bool numeric_dtype(std::string_view dtype);
// The integer ones among them (bool included).
bool integer_dtype(std::string_view dtype);

// Affine quantization of integer data: real = (q - zero_point) * scale, per tensor (one scale)
// or per channel along `axis` (one scale, and one zero point or one for all, per index of
// that dimension).
struct QuantParams {
  std::vector<double> scales;
  std::vector<double> zero_points;    // one, or as many as scales; none: 0
  int64_t axis = -1;                  // per channel: the logical dimension the scales run along
  std::optional<int64_t> qmin, qmax;  // the integer range, when the program states it
  std::string source;                 // where they come from, for reports ("quantize_per_tensor")
};

// A tensor's bytes with what it takes to read them as numbers.
struct TensorData {
  std::string dtype;  // canonical name ("float32", "int8", ...)
  std::vector<int64_t> sizes;
  // The layout: element strides, else a dim order (outermost dimension first), else contiguous.
  std::vector<int64_t> strides;
  std::vector<uint8_t> dim_order;
  std::span<const uint8_t> bytes;  // numel x element size, in storage order
  std::optional<QuantParams> quant;

  // Product of sizes (1 for a scalar); -1 with a negative size, INT64_MAX past int64.
  int64_t numel() const;
  // The element strides the layout gives (strides, else from dim_order, else contiguous).
  std::vector<int64_t> storage_strides() const;
  // The logical index of the element at storage position `flat`.
  std::vector<int64_t> index_of(int64_t flat) const;
};

// How a pair is read: both as stored (floats, or integers in their own domain), integers
// dequantized first, or (dtypes not read as numbers) bytes, equal or not.
enum class Domain { kFloat, kInteger, kDequantized, kBytes };
const char* to_string(Domain d);  // "float", "integer", "dequantized", "bytes"

// Why a pair cannot be compared, or nullopt and the domain it is compared in. Shapes first,
// then dtypes: equal dtypes compare as stored (integers in their integer domain unless both
// sides carry scale and zero point; dtypes not read as numbers byte by byte); an integer side
// with quantization parameters against a float side is dequantized; anything else is a dtype
// mismatch. Then layouts: the same shape in another dim order is a layout mismatch.
struct PairCheck {
  std::optional<Domain> domain;
  std::string mismatch;  // "shape [1, 8] vs [1, 16]", "dtype int8 vs float32", ...
  enum class Kind { kNone, kShape, kDtype, kLayout } kind = Kind::kNone;
};
PairCheck check_pair(const TensorData& reference, const TensorData& run);

// One position where the two tensors differ.
struct ElementDifference {
  int64_t flat = 0;               // storage position (elements)
  std::vector<int64_t> index;     // logical multi-index (the layout applied)
  double reference = 0, run = 0;  // the values compared (dequantized in that domain)
};

// The figures of one pair, a = the reference, b = the run, over the positions where both are
// finite, in float64. ExecuTorch's comparators (devtools/inspector/numerical_comparator):
//   mse     mean((a - b)^2)
//   l1      sum(|a - b|)
//   snr_db  10 log10(mean(a^2) / mean((a - b)^2)); +inf when a == b everywhere
// and ours:
//   cosine   sum(a b) / (|a| |b|); 1 when both are all zero, 0 when only one is
//   max_abs  max |a - b|;   mean_abs  l1 / compared positions
//   max_rel  max |a - b| / |a| over positions with a != 0
//   differing  positions whose values differ (NaN against NaN, +0 against -0 are equal;
//              domain kBytes: whose bytes differ), NaN/Inf positions included
// NaN and Inf are counted per side, never summed (ExecuTorch turns NaN into 0 first);
// `nonfinite_mismatch` counts positions where the sides disagree about them (one finite, the
// other not, or a different NaN/Inf). With no finite pair the means are NaN.
struct TensorComparison {
  uint64_t positions = 0;  // compared: the shape's count
  uint64_t elements = 0;   // of them, both sides finite (the figures' n)
  uint64_t differing = 0;
  double mse = 0, l1 = 0, snr_db = 0, cosine = 1, max_abs = 0;
  double mean_abs = 0, max_rel = 0;
  uint64_t nan_reference = 0, inf_reference = 0, nan_run = 0, inf_run = 0;
  uint64_t nonfinite_mismatch = 0;
  std::vector<ElementDifference> first;  // the first differences in storage order
  bool has_nonfinite() const { return nan_reference + inf_reference + nan_run + inf_run > 0; }
};

struct CompareOptions {
  size_t first_k = 10;  // differences to keep, with their multi-index
};

// The figures of one pair; `domain` from check_pair (a pair it refused yields zero positions).
// float32 and float64 pairs are read in place; other dtypes are converted (half and bfloat16
// widened, integers dequantized when the domain says so) block by block. The sums run in a
// loop of GCC/Clang vector types (SSE2, AVX2 where the CPU has it, NEON, WebAssembly SIMD).
TensorComparison compare_tensors(const TensorData& reference, const TensorData& run, Domain domain,
                                 const CompareOptions& options = {});

// Summary statistics of one tensor (an intermediate output, or a constant on request).
// Integers with quantization parameters are summarised as stored (their integer values)
// unless `dequantize`; `dequantized` says which.
struct TensorStats {
  uint64_t count = 0;  // elements
  uint64_t finite = 0, nan = 0, inf = 0, zeros = 0;
  double min = 0, max = 0, mean = 0, std = 0, abs_max = 0;  // over finite elements; std: population
  // Equal-width bins over [min, max] of the finite elements (empty when there are none); the
  // last bin holds max.
  std::vector<uint64_t> histogram;
  // Quantized data: the integer range and how many elements sit at each end (saturation).
  std::optional<int64_t> qmin, qmax;
  uint64_t at_qmin = 0, at_qmax = 0;
  bool dequantized = false;
};
TensorStats tensor_stats(const TensorData& tensor, int bins = 32, bool dequantize = false);

// A histogram of run - reference over the pair's finite positions: `bins` equal bins over
// [lo, hi] = [-max_abs, max_abs] (max_abs from compare_tensors; the page's panel draws it).
struct DiffHistogram {
  double lo = 0, hi = 0;
  std::vector<uint64_t> counts;
};
DiffHistogram diff_histogram(const TensorData& reference, const TensorData& run, Domain domain,
                             double max_abs, int bins = 24);

}  // namespace etviz::analysis
