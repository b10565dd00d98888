#pragma once
// Element-wise comparison of two tensors' bytes: how many elements differ, by how much, and
// where (docs/diff.md, "Values and weights"). One pass over both buffers, read where they are
// (mapped files, never copied): the statistics a user would compute with numpy, without its
// temporaries.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace etviz::analysis {

// How an element's bytes read as a number. kBytes: no numeric reading (sub-byte, float8,
// complex or unknown dtypes): elements are bytes, counted as differing or not.
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
// The reading of a canonical dtype name ("float32", "qint8": int8, "quint8": uint8, ...).
ElementType element_type(std::string_view dtype);
int64_t element_size(ElementType t);
bool is_floating(ElementType t);
// The number one element holds (before any dequantization).
double read_element(ElementType t, const uint8_t* p);

// Real value of a stored integer: (q - zero_point) * scale, per tensor (one scale) or per
// channel along `axis` (one scale and zero point per channel; one zero point for all allowed).
struct Affine {
  std::vector<double> scales;
  std::vector<double> zero_points;
  int64_t axis = -1;  // per channel: the logical dimension the channels run along
};

struct ElementDiff {
  int64_t flat = 0;            // position in memory (elements)
  std::vector<int64_t> index;  // logical multi-index (dim order applied)
  double a = 0, b = 0;
};

struct ElementStats {
  int64_t elements = 0;   // compared: the shape's count, cut to what both buffers hold
  int64_t differing = 0;  // elements whose bytes differ
  // Non-finite elements per side; pairs where either is not finite are left out of the
  // statistics below (one NaN would make every mean NaN) but still count as differing.
  int64_t nan_a = 0, nan_b = 0, inf_a = 0, inf_b = 0;
  int64_t finite_pairs = 0;
  double max_abs = 0;   // max |b - a|
  double mean_abs = 0;  // mean |b - a| over the finite pairs
  double max_rel = 0;   // max |b - a| / |a| over pairs with a != 0
  double cosine = 1;    // a.b / (|a| |b|); 1 when both are all zeros, 0 when only one is
  double snr_db = 0;    // 10 log10(sum a^2 / sum (b - a)^2); +inf when equal
  std::vector<ElementDiff> first;  // the first differences in memory order, at most first_k
};

struct CompareInput {
  std::span<const uint8_t> a, b;
  ElementType type = ElementType::kBytes;
  std::vector<int64_t> shape;      // logical sizes
  std::vector<uint8_t> dim_order;  // empty: contiguous
  size_t first_k = 10;
  const Affine* affine_a = nullptr;  // dequantize: compare real values, not integers
  const Affine* affine_b = nullptr;
};

ElementStats compare_elements(const CompareInput& in);

}  // namespace etviz::analysis
