#include "analysis/numerics.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <tuple>
#include <type_traits>
#include <unordered_set>

#include "analysis/profile_join.h"
#include "core/number_text.h"
#include "core/tensor_info.h"

// The kernels below are written with GCC/Clang vector types so the compiler emits SIMD code
// whatever the target; on x86-64 Linux with GCC a second copy is built for AVX2+FMA machines
// and picked at load time (target_clones), since the default target is plain SSE2.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(__SANITIZE_ADDRESS__)
#define ETVIZ_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define ETVIZ_SIMD_CLONES
#endif
#if defined(__GNUC__) && !defined(__clang__)
// The 32-byte vector helpers are always inlined: no vector crosses a call, so the ABI note GCC
// gives for them without AVX does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace etviz::analysis {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Elements per block: the converted block of each side stays in L1/L2 (2 x 32 KiB).
constexpr size_t kBlock = 4096;
// Float32 pairs are read in place, in blocks this long (the fast sums are checked per block).
constexpr size_t kDirectBlock = 16384;

enum class Elem {
  kF32,
  kF64,
  kF16,
  kBF16,
  kI8,
  kU8,
  kI16,
  kU16,
  kI32,
  kU32,
  kI64,
  kU64,
  kBool,
  kNone
};

Elem elem_of(std::string_view dtype) {
  static const std::map<std::string_view, Elem> kinds = {
      {"float32", Elem::kF32},   {"float64", Elem::kF64}, {"float16", Elem::kF16},
      {"bfloat16", Elem::kBF16}, {"int8", Elem::kI8},     {"qint8", Elem::kI8},
      {"uint8", Elem::kU8},      {"quint8", Elem::kU8},   {"int16", Elem::kI16},
      {"uint16", Elem::kU16},    {"int32", Elem::kI32},   {"qint32", Elem::kI32},
      {"uint32", Elem::kU32},    {"int64", Elem::kI64},   {"uint64", Elem::kU64},
      {"bool", Elem::kBool},
  };
  auto it = kinds.find(dtype);
  return it == kinds.end() ? Elem::kNone : it->second;
}

size_t elem_size(Elem e) {
  switch (e) {
    case Elem::kF64:
    case Elem::kI64:
    case Elem::kU64:
      return 8;
    case Elem::kF32:
    case Elem::kI32:
    case Elem::kU32:
      return 4;
    case Elem::kF16:
    case Elem::kBF16:
    case Elem::kI16:
    case Elem::kU16:
      return 2;
    case Elem::kI8:
    case Elem::kU8:
    case Elem::kBool:
      return 1;
    case Elem::kNone:
      return 0;
  }
  return 0;
}

float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);  // Inf or NaN
  } else if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      exp = 113;
      while (!(mant & 0x400u)) {
        mant <<= 1;
        --exp;
      }
      bits = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
    }
  } else {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

template <typename T>
T load_at(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// The element strides of a tensor: its own, or the contiguous ones.
std::vector<int64_t> strides_of(const TensorData& t) {
  if (t.strides.size() == t.sizes.size()) return t.strides;
  std::vector<int64_t> s(t.sizes.size(), 1);
  int64_t stride = 1;
  for (size_t k = t.sizes.size(); k-- > 0;) {
    s[k] = stride;
    stride *= std::max<int64_t>(t.sizes[k], 1);
  }
  return s;
}

// Reads elements [start, start + count) of `t` (storage order) as doubles; dequantizes them
// when asked and the tensor carries parameters. `raw`, when given, receives the values before
// dequantization (statistics count saturation on them).
class BlockReader {
 public:
  BlockReader(const TensorData& t, bool dequantize) : t_(t), elem_(elem_of(t.dtype)) {
    if (dequantize && t.quant && !t.quant->scales.empty()) {
      quant_ = &*t.quant;
      if (quant_->scales.size() > 1 && quant_->axis >= 0 &&
          static_cast<size_t>(quant_->axis) < t.sizes.size()) {
        const auto strides = strides_of(t);
        channel_stride_ = std::max<int64_t>(strides[static_cast<size_t>(quant_->axis)], 1);
        channels_ = std::max<int64_t>(t.sizes[static_cast<size_t>(quant_->axis)], 1);
      }
    }
  }

  void read(size_t start, size_t count, double* out, double* raw = nullptr) const {
    const uint8_t* p = t_.bytes.data() + start * elem_size(elem_);
    switch (elem_) {
      case Elem::kF32:
        for (size_t i = 0; i < count; ++i) out[i] = load_at<float>(p + 4 * i);
        break;
      case Elem::kF64:
        for (size_t i = 0; i < count; ++i) out[i] = load_at<double>(p + 8 * i);
        break;
      case Elem::kF16:
        for (size_t i = 0; i < count; ++i) out[i] = half_to_float(load_at<uint16_t>(p + 2 * i));
        break;
      case Elem::kBF16:
        for (size_t i = 0; i < count; ++i) {
          const uint32_t bits = static_cast<uint32_t>(load_at<uint16_t>(p + 2 * i)) << 16;
          float f;
          std::memcpy(&f, &bits, 4);
          out[i] = f;
        }
        break;
      case Elem::kI8:
        for (size_t i = 0; i < count; ++i) out[i] = static_cast<int8_t>(p[i]);
        break;
      case Elem::kU8:
        for (size_t i = 0; i < count; ++i) out[i] = p[i];
        break;
      case Elem::kBool:
        for (size_t i = 0; i < count; ++i) out[i] = p[i] != 0;
        break;
      case Elem::kI16:
        for (size_t i = 0; i < count; ++i) out[i] = load_at<int16_t>(p + 2 * i);
        break;
      case Elem::kU16:
        for (size_t i = 0; i < count; ++i) out[i] = load_at<uint16_t>(p + 2 * i);
        break;
      case Elem::kI32:
        for (size_t i = 0; i < count; ++i) out[i] = load_at<int32_t>(p + 4 * i);
        break;
      case Elem::kU32:
        for (size_t i = 0; i < count; ++i) out[i] = load_at<uint32_t>(p + 4 * i);
        break;
      case Elem::kI64:
        for (size_t i = 0; i < count; ++i)
          out[i] = static_cast<double>(load_at<int64_t>(p + 8 * i));
        break;
      case Elem::kU64:
        for (size_t i = 0; i < count; ++i)
          out[i] = static_cast<double>(load_at<uint64_t>(p + 8 * i));
        break;
      case Elem::kNone:
        std::fill(out, out + count, 0.0);
        break;
    }
    if (raw) std::copy(out, out + count, raw);
    if (!quant_) return;
    if (channels_ == 0) {
      const double scale = quant_->scales[0];
      const double zp = quant_->zero_points.empty() ? 0.0 : double(quant_->zero_points[0]);
      for (size_t i = 0; i < count; ++i) out[i] = (out[i] - zp) * scale;
      return;
    }
    for (size_t i = 0; i < count; ++i) {
      const auto c =
          static_cast<size_t>((static_cast<int64_t>(start + i) / channel_stride_) % channels_);
      const double scale = c < quant_->scales.size() ? quant_->scales[c] : quant_->scales.back();
      const double zp = c < quant_->zero_points.size() ? double(quant_->zero_points[c]) : 0.0;
      out[i] = (out[i] - zp) * scale;
    }
  }

 private:
  const TensorData& t_;
  Elem elem_;
  const QuantParams* quant_ = nullptr;
  int64_t channel_stride_ = 1, channels_ = 0;
};

// Running sums of one pair (a = reference, b = run) over positions where both are finite.
struct Sums {
  double dd = 0, ad = 0, aa = 0, bb = 0, ab = 0, max_abs = 0;
  uint64_t n = 0;
  void add(const Sums& o) {
    dd += o.dd;
    ad += o.ad;
    aa += o.aa;
    bb += o.bb;
    ab += o.ab;
    max_abs = std::max(max_abs, o.max_abs);
    n += o.n;
  }
  // A NaN or Inf in either input makes aa or bb non-finite: finite float32 or float16 values
  // cannot overflow a float64 sum of squares, so this tells a clean block from one to recount.
  bool finite() const { return std::isfinite(aa) && std::isfinite(bb) && std::isfinite(dd); }
};

using v4d = double __attribute__((vector_size(32)));
using v4f = float __attribute__((vector_size(16)));
using v4l = int64_t __attribute__((vector_size(32)));

// Inlined into each target clone of the kernels, so compiled for its instruction set.
#define ETVIZ_INLINE inline __attribute__((always_inline))

ETVIZ_INLINE v4d vabs(v4d x) {
  const v4l mask = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX};
  return reinterpret_cast<v4d>(reinterpret_cast<v4l>(x) & mask);
}
ETVIZ_INLINE v4d vmax(v4d a, v4d b) {
  const v4l gt = reinterpret_cast<v4l>(a > b);
  return reinterpret_cast<v4d>((reinterpret_cast<v4l>(a) & gt) | (reinterpret_cast<v4l>(b) & ~gt));
}
ETVIZ_INLINE double hsum(v4d x) {
  return (x[0] + x[1]) + (x[2] + x[3]);
}
ETVIZ_INLINE double hmax(v4d x) {
  return std::max(std::max(x[0], x[1]), std::max(x[2], x[3]));
}
template <typename T>
ETVIZ_INLINE v4d load4(const T* p) {
  if constexpr (std::is_same_v<T, float>) {
    v4f f;
    std::memcpy(&f, p, sizeof f);
    return __builtin_convertvector(f, v4d);
  } else {
    v4d d;
    std::memcpy(&d, p, sizeof d);
    return d;
  }
}

// The fast sums: no NaN/Inf tests in the loop (Sums::finite tells afterwards). One set of
// four lanes: six accumulators and their operands fit the sixteen vector registers, and the
// loop is bound by memory, not by the adds' latency. The tail goes one by one.
template <typename T>
ETVIZ_INLINE void sums_loop(const T* a, const T* b, size_t n, Sums& s) {
  v4d dd = {}, ad = {}, aa = {}, bb = {}, ab = {}, mx = {};
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const v4d x = load4(a + i), y = load4(b + i);
    const v4d d = x - y;
    const v4d m = vabs(d);
    dd += d * d;
    ad += m;
    aa += x * x;
    bb += y * y;
    ab += x * y;
    mx = vmax(mx, m);
  }
  s.dd += hsum(dd);
  s.ad += hsum(ad);
  s.aa += hsum(aa);
  s.bb += hsum(bb);
  s.ab += hsum(ab);
  s.max_abs = std::max(s.max_abs, hmax(mx));
  for (; i < n; ++i) {
    const double x = a[i], y = b[i], d = x - y;
    s.dd += d * d;
    s.ad += std::fabs(d);
    s.aa += x * x;
    s.bb += y * y;
    s.ab += x * y;
    s.max_abs = std::max(s.max_abs, std::fabs(d));
  }
  s.n += n;
}

ETVIZ_SIMD_CLONES void sums_f32(const float* a, const float* b, size_t n, Sums& s) {
  sums_loop(a, b, n, s);
}

ETVIZ_SIMD_CLONES void sums_f64(const double* a, const double* b, size_t n, Sums& s) {
  sums_loop(a, b, n, s);
}

// The careful sums of a block the fast ones found NaN or Inf in: each position is tested,
// counted and left out unless both sides are finite.
template <typename T>
void sums_checked(const T* a, const T* b, size_t n, Sums& s, GapMetrics& m) {
  for (size_t i = 0; i < n; ++i) {
    const double x = a[i], y = b[i];
    const bool fx = std::isfinite(x), fy = std::isfinite(y);
    if (!fx) ++(std::isnan(x) ? m.nan_reference : m.inf_reference);
    if (!fy) ++(std::isnan(y) ? m.nan_run : m.inf_run);
    if (fx && fy) {
      const double d = x - y;
      s.dd += d * d;
      s.ad += std::fabs(d);
      s.aa += x * x;
      s.bb += y * y;
      s.ab += x * y;
      s.max_abs = std::max(s.max_abs, std::fabs(d));
      ++s.n;
    } else if (!((std::isnan(x) && std::isnan(y)) || x == y)) {
      ++m.nonfinite_mismatch;
    }
  }
}

template <typename T>
void sums_block(const T* a, const T* b, size_t n, Sums& total, GapMetrics& m) {
  Sums s;
  if constexpr (std::is_same_v<T, float>)
    sums_f32(a, b, n, s);
  else
    sums_f64(a, b, n, s);
  if (!s.finite()) {
    s = Sums{};
    sums_checked(a, b, n, s, m);
  }
  total.add(s);
}

bool aligned_for(const void* p, size_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

GapMetrics finish(const Sums& s, GapMetrics m) {
  m.elements = s.n;
  m.l1 = s.ad;
  m.max_abs = s.max_abs;
  if (s.n == 0) {
    m.mse = m.snr_db = m.cosine = kNaN;
    return m;
  }
  m.mse = s.dd / static_cast<double>(s.n);
  // 10 log10(mean(a^2) / mean((a-b)^2)): the means' n cancels.
  if (s.dd == 0)
    m.snr_db = kInf;  // identical: no noise at all (ExecuTorch gets NaN for 0/0 all-zero pairs)
  else
    m.snr_db = 10.0 * std::log10(s.aa / s.dd);
  const double na = std::sqrt(s.aa), nb = std::sqrt(s.bb);
  if (na == 0 && nb == 0)
    m.cosine = 1;
  else if (na == 0 || nb == 0)
    m.cosine = 0;
  else
    m.cosine = std::clamp(s.ab / na / nb, -1.0, 1.0);
  return m;
}

std::string shape_text(const std::vector<int64_t>& sizes) {
  return fmt::format("[{}]", fmt::join(sizes, ", "));
}

}  // namespace

int64_t TensorData::numel() const {
  int64_t n = 1;
  for (int64_t d : sizes) n *= d;
  return n;
}

bool numeric_dtype(std::string_view dtype) {
  return elem_of(dtype) != Elem::kNone;
}

bool integer_dtype(std::string_view dtype) {
  const Elem e = elem_of(dtype);
  return e != Elem::kNone && e != Elem::kF32 && e != Elem::kF64 && e != Elem::kF16 &&
         e != Elem::kBF16;
}

const char* to_string(Domain d) {
  switch (d) {
    case Domain::kFloat:
      return "float";
    case Domain::kInteger:
      return "integer";
    case Domain::kDequantized:
      return "dequantized";
  }
  return "float";
}

PairCheck check_pair(const TensorData& reference, const TensorData& run) {
  PairCheck c;
  if (reference.sizes != run.sizes) {
    c.kind = PairCheck::Kind::kShape;
    c.mismatch = fmt::format("shape {} vs {}", shape_text(reference.sizes), shape_text(run.sizes));
    return c;
  }
  const bool ri = integer_dtype(reference.dtype), ui = integer_dtype(run.dtype);
  const bool rq = ri && reference.quant && !reference.quant->scales.empty();
  const bool uq = ui && run.quant && !run.quant->scales.empty();
  if (!numeric_dtype(reference.dtype) || !numeric_dtype(run.dtype)) {
    c.kind = PairCheck::Kind::kDtype;
    c.mismatch = fmt::format("dtype {} vs {}: not read as numbers", reference.dtype, run.dtype);
    return c;
  }
  if (reference.dtype == run.dtype) {
    c.domain = ri ? (rq && uq ? Domain::kDequantized : Domain::kInteger) : Domain::kFloat;
  } else if ((!ri || rq) && (!ui || uq)) {
    // Floats of different widths, or an integer side with scale and zero point.
    c.domain = (rq || uq) ? Domain::kDequantized : Domain::kFloat;
  } else {
    c.kind = PairCheck::Kind::kDtype;
    c.mismatch = fmt::format("dtype {} vs {}{}", reference.dtype, run.dtype,
                             ri != ui ? " (no scale and zero point to dequantize with)" : "");
    return c;
  }
  // Same shape, different layout: storage orders differ, so position k is not the same element.
  if (!reference.sizes.empty() && strides_of(reference) != strides_of(run)) {
    c.domain.reset();
    c.kind = PairCheck::Kind::kLayout;
    c.mismatch = fmt::format("strides {} vs {} (another dim order)",
                             shape_text(strides_of(reference)), shape_text(strides_of(run)));
  }
  return c;
}

GapMetrics compare_tensors(const TensorData& reference, const TensorData& run, Domain domain) {
  GapMetrics m;
  Sums total;
  const size_t n = static_cast<size_t>(std::min<int64_t>(std::max<int64_t>(reference.numel(), 0),
                                                         std::max<int64_t>(run.numel(), 0)));
  const Elem ea = elem_of(reference.dtype), eb = elem_of(run.dtype);
  if (n * elem_size(ea) > reference.bytes.size() || n * elem_size(eb) > run.bytes.size())
    return finish(total, m);  // the caller checked; never read past a span
  const bool dequantize = domain == Domain::kDequantized;
  if (!dequantize && ea == Elem::kF32 && eb == Elem::kF32 &&
      aligned_for(reference.bytes.data(), 4) && aligned_for(run.bytes.data(), 4)) {
    const auto* a = reinterpret_cast<const float*>(reference.bytes.data());
    const auto* b = reinterpret_cast<const float*>(run.bytes.data());
    for (size_t i = 0; i < n; i += kDirectBlock)
      sums_block(a + i, b + i, std::min(kDirectBlock, n - i), total, m);
    return finish(total, m);
  }
  if (!dequantize && ea == Elem::kF64 && eb == Elem::kF64 &&
      aligned_for(reference.bytes.data(), 8) && aligned_for(run.bytes.data(), 8)) {
    const auto* a = reinterpret_cast<const double*>(reference.bytes.data());
    const auto* b = reinterpret_cast<const double*>(run.bytes.data());
    for (size_t i = 0; i < n; i += kDirectBlock)
      sums_block(a + i, b + i, std::min(kDirectBlock, n - i), total, m);
    return finish(total, m);
  }
  const BlockReader ra(reference, dequantize), rb(run, dequantize);
  std::vector<double> a(kBlock), b(kBlock);
  for (size_t i = 0; i < n; i += kBlock) {
    const size_t count = std::min(kBlock, n - i);
    ra.read(i, count, a.data());
    rb.read(i, count, b.data());
    sums_block(a.data(), b.data(), count, total, m);
  }
  return finish(total, m);
}

TensorStats tensor_stats(const TensorData& tensor, int bins, bool dequantize) {
  TensorStats s;
  const Elem e = elem_of(tensor.dtype);
  const int64_t numel = tensor.numel();
  if (e == Elem::kNone || numel <= 0 ||
      static_cast<uint64_t>(numel) * elem_size(e) > tensor.bytes.size())
    return s;
  const auto n = static_cast<size_t>(numel);
  s.count = n;
  const bool dq = dequantize && tensor.quant && !tensor.quant->scales.empty();
  s.dequantized = dq;
  if (integer_dtype(tensor.dtype) && tensor.quant) {
    s.qmin = tensor.quant->qmin;
    s.qmax = tensor.quant->qmax;
  }
  const BlockReader reader(tensor, dq);
  std::vector<double> x(kBlock), raw(kBlock);
  double lo = kInf, hi = -kInf, sum = 0;
  for (size_t i = 0; i < n; i += kBlock) {
    const size_t count = std::min(kBlock, n - i);
    reader.read(i, count, x.data(), raw.data());
    for (size_t k = 0; k < count; ++k) {
      const double v = x[k];
      if (s.qmin && raw[k] == double(*s.qmin)) ++s.at_qmin;
      if (s.qmax && raw[k] == double(*s.qmax)) ++s.at_qmax;
      if (!std::isfinite(v)) {
        ++(std::isnan(v) ? s.nan : s.inf);
        continue;
      }
      ++s.finite;
      if (v == 0) ++s.zeros;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
    }
  }
  if (s.finite == 0) return s;
  s.min = lo;
  s.max = hi;
  s.abs_max = std::max(std::fabs(lo), std::fabs(hi));
  s.mean = sum / static_cast<double>(s.finite);
  // Second pass: the spread around the mean (no cancellation) and the histogram.
  s.histogram.assign(static_cast<size_t>(std::max(bins, 1)), 0);
  const double width = (hi - lo) / static_cast<double>(s.histogram.size());
  double m2 = 0;
  for (size_t i = 0; i < n; i += kBlock) {
    const size_t count = std::min(kBlock, n - i);
    reader.read(i, count, x.data());
    for (size_t k = 0; k < count; ++k) {
      const double v = x[k];
      if (!std::isfinite(v)) continue;
      m2 += (v - s.mean) * (v - s.mean);
      size_t bin = width > 0 ? static_cast<size_t>((v - lo) / width) : 0;
      s.histogram[std::min(bin, s.histogram.size() - 1)]++;
    }
  }
  s.std = std::sqrt(m2 / static_cast<double>(s.finite));
  return s;
}

DiffHistogram diff_histogram(const TensorData& reference, const TensorData& run, Domain domain,
                             double max_abs, int bins) {
  DiffHistogram h;
  h.counts.assign(static_cast<size_t>(std::max(bins, 1)), 0);
  if (!std::isfinite(max_abs)) return h;
  h.lo = -max_abs;
  h.hi = max_abs;
  const size_t n = static_cast<size_t>(std::max<int64_t>(reference.numel(), 0));
  if (n * elem_size(elem_of(reference.dtype)) > reference.bytes.size() ||
      n * elem_size(elem_of(run.dtype)) > run.bytes.size() || run.numel() != reference.numel())
    return h;
  const bool dq = domain == Domain::kDequantized;
  const BlockReader ra(reference, dq), rb(run, dq);
  std::vector<double> a(kBlock), b(kBlock);
  const double width = (h.hi - h.lo) / static_cast<double>(h.counts.size());
  for (size_t i = 0; i < n; i += kBlock) {
    const size_t count = std::min(kBlock, n - i);
    ra.read(i, count, a.data());
    rb.read(i, count, b.data());
    for (size_t k = 0; k < count; ++k) {
      if (!std::isfinite(a[k]) || !std::isfinite(b[k])) continue;
      const double d = b[k] - a[k];
      size_t bin =
          width > 0 ? static_cast<size_t>(std::max(0.0, (d - h.lo) / width)) : h.counts.size() / 2;
      h.counts[std::min(bin, h.counts.size() - 1)]++;
    }
  }
  return h;
}

const char* to_string(Metric m) {
  switch (m) {
    case Metric::kMse:
      return "mse";
    case Metric::kL1:
      return "l1";
    case Metric::kSnr:
      return "snr";
    case Metric::kCosine:
      return "cosine";
    case Metric::kMaxAbs:
      return "max_abs";
  }
  return "snr";
}

bool Threshold::crossed(const GapMetrics& m) const {
  // NaN figures (nothing compared) never cross; the comparisons below are false for them.
  switch (metric) {
    case Metric::kMse:
      return m.mse > value;
    case Metric::kL1:
      return m.l1 > value;
    case Metric::kMaxAbs:
      return m.max_abs > value;
    case Metric::kSnr:
      return m.snr_db < value;
    case Metric::kCosine:
      return m.cosine < value;
  }
  return false;
}

std::string Threshold::describe() const {
  switch (metric) {
    case Metric::kSnr:
      return fmt::format("snr < {:g} dB", value);
    case Metric::kCosine:
      return fmt::format("cosine < {:g}", value);
    default:
      return fmt::format("{} > {:g}", to_string(metric), value);
  }
}

std::vector<Threshold> default_thresholds() {
  return {Threshold{Metric::kSnr, 20}};
}

Result<Threshold> parse_threshold(std::string_view text) {
  const auto eq = text.find('=');
  const auto bad = [&] {
    return Error(fmt::format(
        "--threshold '{}': expected METRIC=VALUE with METRIC one of snr, mse, l1, cosine, "
        "max_abs (e.g. snr=20, mse=1e-4)",
        text));
  };
  if (eq == std::string_view::npos) return bad();
  std::string name(text.substr(0, eq));
  std::replace(name.begin(), name.end(), '-', '_');
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  Threshold t;
  if (name == "snr")
    t.metric = Metric::kSnr;
  else if (name == "mse")
    t.metric = Metric::kMse;
  else if (name == "l1")
    t.metric = Metric::kL1;
  else if (name == "cosine" || name == "cos")
    t.metric = Metric::kCosine;
  else if (name == "max_abs" || name == "maxabs")
    t.metric = Metric::kMaxAbs;
  else
    return bad();
  if (parse_double(text.substr(eq + 1), t.value) != NumberText::kOk || !std::isfinite(t.value))
    return bad();
  return t;
}

std::string DebugEntry::delegate_debug_id() const {
  if (delegate_debug_id_int != -1) return std::to_string(delegate_debug_id_int);
  return delegate_debug_id_str;
}

std::vector<size_t> debug_runs(const Profile& profile) {
  std::vector<size_t> out;
  for (size_t r = 0; r < profile.runs.size(); ++r)
    if (!profile.runs[r].debug_events.empty()) out.push_back(r);
  return out;
}

std::vector<DebugEntry> debug_entries(const Profile& profile, size_t run,
                                      std::vector<std::string>* warnings) {
  std::vector<DebugEntry> out;
  if (run >= profile.runs.size()) return out;
  const std::string buffer = profile.debug_buffer ? profile.debug_buffer->path() : "";
  const uint64_t buffer_size = profile.debug_buffer ? profile.debug_buffer->size() : 0;
  size_t outside = 0;
  for (const DebugEvent& e : profile.runs[run].debug_events) {
    DebugEntry base;
    base.name = e.name;
    base.chain = e.chain;
    base.instruction = e.instruction;
    base.delegate_debug_id_int = e.delegate_debug_id_int;
    base.delegate_debug_id_str = e.delegate_debug_id_str;
    base.is_output = e.value.is_output;
    base.kind = e.value.kind;
    using K = ProfileValue::Kind;
    if (e.value.kind != K::kTensor && e.value.kind != K::kTensorList) {
      base.dtype = e.value.kind == K::kInt    ? "int64"
                   : e.value.kind == K::kBool ? "bool"
                                              : "float64";
      base.scalar = e.value.kind == K::kInt    ? static_cast<double>(e.value.int_value)
                    : e.value.kind == K::kBool ? (e.value.bool_value ? 1.0 : 0.0)
                                               : e.value.float_value;
      out.push_back(std::move(base));
      continue;
    }
    for (size_t k = 0; k < e.value.tensors.size(); ++k) {
      const ProfileTensor& t = e.value.tensors[k];
      DebugEntry d = base;
      d.tensor_index = static_cast<int32_t>(k);
      d.dtype = t.dtype;
      d.sizes = t.sizes;
      d.strides = t.strides;
      d.offset = t.offset;
      d.nbytes = t.nbytes;
      const std::string where =
          fmt::format("event '{}' (chain {} instruction {}{}{})", e.name.empty() ? "?" : e.name,
                      e.chain, e.instruction,
                      d.has_delegate_debug_id() ? ", delegate debug id " + d.delegate_debug_id()
                                                : std::string(),
                      e.value.tensors.size() > 1 ? fmt::format(", tensor {}", k) : std::string());
      if (!numeric_dtype(t.dtype) || t.nbytes < 0) {
        d.missing = t.nbytes < 0 ? "size unknown (dtype or shape)" : "dtype not read as numbers";
      } else if (!profile.debug_buffer) {
        d.missing = "no debug buffer";
      } else {
        auto bytes = profile.tensor_bytes(t);
        if (bytes.empty() && t.nbytes > 0) {
          d.missing = fmt::format("bytes {}..{} lie outside the debug buffer ({} bytes)", t.offset,
                                  t.offset + t.nbytes, buffer_size);
          if (warnings && ++outside <= 5)
            warnings->push_back(fmt::format(
                "{}: {} tensor {}: bytes {}..{} lie outside it ({} bytes); skipped", buffer, where,
                d.dtype + shape_text(t.sizes), t.offset, t.offset + t.nbytes, buffer_size));
        } else {
          TensorData data;
          data.dtype = t.dtype;
          data.sizes = t.sizes;
          data.strides = t.strides;
          data.bytes = bytes;
          d.data = std::move(data);
        }
      }
      out.push_back(std::move(d));
    }
  }
  if (warnings && outside > 5)
    warnings->push_back(fmt::format(
        "{}: {} logged tensors in all lie outside the debug buffer ({} bytes): a buffer shorter "
        "than the ETDump says, or another run's",
        buffer, outside, buffer_size));
  return out;
}

const char* to_string(RowStatus s) {
  switch (s) {
    case RowStatus::kCompared:
      return "compared";
    case RowStatus::kShapeMismatch:
      return "shape_mismatch";
    case RowStatus::kDtypeMismatch:
      return "dtype_mismatch";
    case RowStatus::kLayoutMismatch:
      return "layout_mismatch";
    case RowStatus::kMissingData:
      return "missing_data";
    case RowStatus::kNotNumeric:
      return "not_numeric";
    case RowStatus::kUnmatched:
      return "unmatched";
  }
  return "compared";
}

namespace {

// What pairs two entries: outputs by their order among outputs; the rest by where they were
// logged and, inside a delegate, the id the backend gave (or the event's name without one).
struct MatchKey {
  bool output = false;
  int64_t chain = 0;
  int32_t instruction = -1;
  std::string id;
  int32_t tensor = 0;
  auto operator<=>(const MatchKey&) const = default;
};

MatchKey key_of(const DebugEntry& e) {
  MatchKey k;
  k.tensor = e.tensor_index;
  if (e.is_output) {
    k.output = true;
    return k;
  }
  k.chain = e.chain;
  k.instruction = e.instruction;
  k.id = e.has_delegate_debug_id() ? e.delegate_debug_id() : e.name;
  return k;
}

// The entries with their occurrence (k-th of their key; outputs: k-th output).
std::vector<std::pair<MatchKey, int32_t>> keyed(const std::vector<DebugEntry>& entries) {
  std::vector<std::pair<MatchKey, int32_t>> out;
  std::map<MatchKey, int32_t> seen;
  for (const DebugEntry& e : entries) {
    MatchKey k = key_of(e);
    const int32_t n = seen[k]++;
    out.emplace_back(std::move(k), n);
  }
  return out;
}

std::string entry_label(const DebugEntry& e) {
  if (e.is_output) return "method output";
  return fmt::format("chain {} instruction {}{}", e.chain, e.instruction,
                     e.has_delegate_debug_id() ? " id " + e.delegate_debug_id() : std::string());
}

}  // namespace

NumericsReport match_entries(const std::vector<DebugEntry>& reference,
                             const std::vector<DebugEntry>& run) {
  NumericsReport report;
  const auto ref_keys = keyed(reference);
  const auto run_keys = keyed(run);
  std::map<std::pair<MatchKey, int32_t>, size_t> ref_index;
  for (size_t i = 0; i < ref_keys.size(); ++i) ref_index.emplace(ref_keys[i], i);
  std::vector<bool> used(reference.size(), false);
  std::vector<std::string> unmatched_names;
  for (size_t i = 0; i < run.size(); ++i) {
    NumericsRow row;
    row.run = run[i];
    row.occurrence = run_keys[i].second;
    auto it = ref_index.find(run_keys[i]);
    if (it == ref_index.end()) {
      row.has_reference = false;
      row.reference.kind = ProfileValue::Kind::kNull;
      row.status = RowStatus::kUnmatched;
      row.note = "no reference event at " + entry_label(run[i]);
      ++report.unmatched_run;
    } else {
      row.reference = reference[it->second];
      used[it->second] = true;
      ++report.matched;
    }
    report.rows.push_back(std::move(row));
  }
  for (size_t i = 0; i < reference.size(); ++i) {
    if (used[i]) continue;
    NumericsRow row;
    row.reference = reference[i];
    row.run = DebugEntry{};
    row.run.kind = ProfileValue::Kind::kNull;
    row.has_run = false;
    row.occurrence = ref_keys[i].second;
    row.status = RowStatus::kUnmatched;
    row.note = "no run event at " + entry_label(reference[i]);
    ++report.unmatched_reference;
    report.rows.push_back(std::move(row));
  }
  if (report.unmatched_run || report.unmatched_reference)
    report.warnings.push_back(fmt::format(
        "{} of {} run events have no counterpart in the reference and {} of {} reference events "
        "none in the run: are these runs of different programs?",
        report.unmatched_run, run.size(), report.unmatched_reference, reference.size()));
  // Same place, other names: another program's kernels at the same instructions.
  size_t renamed = 0;
  for (const NumericsRow& row : report.rows)
    if (row.has_run && row.has_reference && !row.run.has_delegate_debug_id() &&
        !row.run.name.empty() && !row.reference.name.empty() && row.run.name != row.reference.name)
      ++renamed;
  if (renamed)
    report.warnings.push_back(fmt::format(
        "{} matched events carry different names in the two runs (e.g. another op at the same "
        "instruction): are these runs of different programs?",
        renamed));
  return report;
}

Status join_numerics(NumericsReport& report, const Document& program, const std::string& method) {
  // The profile join decides ops, delegates and payload ops of an instruction; rows go through
  // it as event rows so that both agree.
  ProfileStats stats;
  std::vector<size_t> row_of;
  for (size_t i = 0; i < report.rows.size(); ++i) {
    const NumericsRow& r = report.rows[i];
    const DebugEntry& e = r.has_run ? r.run : r.reference;
    if (e.is_output) continue;  // logged after the last instruction: no instruction of its own
    EventRow row;
    row.block = "numerics";
    row.name = e.name.empty() ? "DEBUG_EVENT" : e.name;
    row.chain = static_cast<int32_t>(e.chain);
    row.instruction = e.instruction;
    row.delegate_debug_id_int = e.delegate_debug_id_int;
    row.delegate_debug_id_str = e.delegate_debug_id_str;
    stats.events.push_back(std::move(row));
    row_of.push_back(i);
  }
  JoinSources sources;
  sources.program = &program;
  sources.method = method;
  auto join = join_profile(stats, sources);
  if (!join) return join.error();
  for (const std::string& w : join->warnings)
    if (w.find("native_call_") == std::string::npos) report.warnings.push_back(w);
  for (size_t k = 0; k < stats.events.size(); ++k)
    report.rows[row_of[k]].join = std::move(stats.events[k].join);
  // Quantization parameters of integer outputs, from the node that wrote them.
  const Graph* graph = nullptr;
  for (const Graph& g : program.graphs)
    if (g.kind == GraphKind::kMethod && g.name == join->method) graph = &g;
  if (!graph) return Status::Ok();
  for (NumericsRow& r : report.rows) {
    if (r.join.node == kNoId) continue;
    const Node& node = graph->nodes[static_cast<size_t>(r.join.node)];
    if (node.kind != NodeKind::kKernel || node.outputs.empty()) continue;
    // Kernel calls log their out arguments in order: entry k of the instruction is output k.
    const size_t k = std::min(static_cast<size_t>(r.occurrence), node.outputs.size() - 1);
    const ValueId v = node.outputs[k].value;
    if (v == kNoId) continue;
    const auto q = value_quant_params(*graph, v);
    if (!q) continue;
    for (DebugEntry* e : {&r.run, &r.reference})
      if (e->data && integer_dtype(e->data->dtype)) e->data->quant = q;
  }
  return Status::Ok();
}

namespace {

// The literal of a node's argument named `name` as a number.
std::optional<double> number_argument(const Graph& g, const Node& node, std::string_view name) {
  for (const Argument& a : node.inputs) {
    if (a.name != name || a.value == kNoId) continue;
    const Value& v = g.values[static_cast<size_t>(a.value)];
    double x = 0;
    const std::string text = v.literal.str();
    if (parse_double(text, x) == NumberText::kOk) return x;
  }
  return std::nullopt;
}

bool op_is(const std::string& op, std::string_view what) {
  // "quantized_decomposed::quantize_per_tensor.out": the name between "::" and ".".
  const auto colons = op.rfind("::");
  std::string_view bare = op;
  if (colons != std::string::npos) bare.remove_prefix(colons + 2);
  if (auto dot = bare.find('.'); dot != std::string_view::npos) bare = bare.substr(0, dot);
  return bare == what;
}

std::optional<QuantParams> call_params(const Graph& g, const Node& node, const char* source) {
  auto scale = number_argument(g, node, "scale");
  auto zero = number_argument(g, node, "zero_point");
  if (!scale) return std::nullopt;
  QuantParams q;
  q.scales = {*scale};
  q.zero_points = {zero ? static_cast<int64_t>(*zero) : 0};
  if (auto lo = number_argument(g, node, "quant_min")) q.qmin = static_cast<int64_t>(*lo);
  if (auto hi = number_argument(g, node, "quant_max")) q.qmax = static_cast<int64_t>(*hi);
  q.source = source;
  return q;
}

}  // namespace

std::optional<QuantParams> value_quant_params(const Graph& graph, ValueId v) {
  if (v < 0 || static_cast<size_t>(v) >= graph.values.size()) return std::nullopt;
  const Value& value = graph.values[static_cast<size_t>(v)];
  if (value.tensor.quantization && !value.tensor.quantization->scales.empty()) {
    const Quantization& tq = *value.tensor.quantization;
    // A prefix of the scales (num_scales more than held) cannot dequantize every channel.
    if (tq.num_scales <= static_cast<int64_t>(tq.scales.size()) && tq.group_size == 0) {
      QuantParams q;
      q.scales = tq.scales;
      q.zero_points = tq.zero_points;
      q.axis = tq.scales.size() > 1 ? tq.axis : -1;
      q.source = "tensor quantization (" + tq.scheme + ")";
      if (q.scales.size() == 1 || q.axis >= 0) return q;
    }
  }
  if (value.producer != kNoId) {
    const Node& p = graph.nodes[static_cast<size_t>(value.producer)];
    if (op_is(p.op.str(), "quantize_per_tensor"))
      if (auto q = call_params(graph, p, "quantize_per_tensor arguments")) return q;
  }
  for (NodeId c : value.consumers) {
    const Node& n = graph.nodes[static_cast<size_t>(c)];
    if (!op_is(n.op.str(), "dequantize_per_tensor")) continue;
    if (n.inputs.empty() || n.inputs.front().value != v) continue;
    if (auto q = call_params(graph, n, "dequantize_per_tensor arguments")) return q;
  }
  return std::nullopt;
}

void compare_rows(NumericsReport& report, const NumericsOptions& options) {
  report.thresholds = options.thresholds;
  report.compared = report.mismatched = report.missing = report.not_numeric = 0;
  report.first_divergent.reset();
  for (size_t i = 0; i < report.rows.size(); ++i) {
    NumericsRow& r = report.rows[i];
    r.divergent = false;
    r.crossed.clear();
    r.domain.reset();
    if (!r.has_run || !r.has_reference) continue;
    const DebugEntry& a = r.reference;
    const DebugEntry& b = r.run;
    using K = ProfileValue::Kind;
    const auto scalar = [](K k) {
      return k == K::kInt || k == K::kBool || k == K::kFloat || k == K::kDouble;
    };
    std::optional<TensorData> ta = a.data, tb = b.data;
    // Scalars compare as one-element tensors, as ExecuTorch's convert_to_float_tensor does.
    std::array<double, 2> scalars = {a.scalar, b.scalar};
    if (scalar(a.kind) && scalar(b.kind)) {
      ta = TensorData{"float64", {}, {}, {reinterpret_cast<const uint8_t*>(&scalars[0]), 8}, {}};
      tb = TensorData{"float64", {}, {}, {reinterpret_cast<const uint8_t*>(&scalars[1]), 8}, {}};
    } else if (scalar(a.kind) != scalar(b.kind) ||
               !(a.kind == K::kTensor || a.kind == K::kTensorList || scalar(a.kind))) {
      r.status = RowStatus::kNotNumeric;
      r.note = fmt::format("{} vs {}", to_string(a.kind), to_string(b.kind));
      ++report.not_numeric;
      continue;
    }
    if (!ta || !tb) {
      // Shapes and dtypes are known without the bytes: a mismatch is the better report.
      TensorData sa{a.dtype, a.sizes, a.strides, {}, {}}, sb{b.dtype, b.sizes, b.strides, {}, {}};
      const PairCheck c = check_pair(sa, sb);
      if (c.kind == PairCheck::Kind::kShape || c.kind == PairCheck::Kind::kDtype) {
        r.status = c.kind == PairCheck::Kind::kShape ? RowStatus::kShapeMismatch
                                                     : RowStatus::kDtypeMismatch;
        r.note = c.mismatch;
        ++report.mismatched;
        continue;
      }
      const bool not_numbers = (!ta && a.missing.find("dtype") != std::string::npos) ||
                               (!tb && b.missing.find("dtype") != std::string::npos);
      r.status = not_numbers ? RowStatus::kNotNumeric : RowStatus::kMissingData;
      r.note = !ta ? "reference: " + a.missing : "run: " + b.missing;
      ++(not_numbers ? report.not_numeric : report.missing);
      continue;
    }
    const PairCheck c = check_pair(*ta, *tb);
    if (!c.domain) {
      r.status = c.kind == PairCheck::Kind::kShape   ? RowStatus::kShapeMismatch
                 : c.kind == PairCheck::Kind::kDtype ? RowStatus::kDtypeMismatch
                                                     : RowStatus::kLayoutMismatch;
      r.note = c.mismatch;
      ++report.mismatched;
      continue;
    }
    r.status = RowStatus::kCompared;
    r.domain = c.domain;
    r.metrics = compare_tensors(*ta, *tb, *c.domain);
    ++report.compared;
    if (r.metrics.nonfinite_mismatch > 0) {
      r.divergent = true;
      r.crossed = fmt::format("non-finite: {} positions NaN/Inf on one side only",
                              r.metrics.nonfinite_mismatch);
    } else {
      for (const Threshold& t : options.thresholds)
        if (t.crossed(r.metrics)) {
          r.divergent = true;
          r.crossed = t.describe();
          break;
        }
    }
    if (r.divergent && !report.first_divergent) report.first_divergent = i;
    if (options.statistics && !scalar(a.kind)) {
      const bool dq = *c.domain == Domain::kDequantized;
      r.reference_stats = tensor_stats(*ta, options.histogram_bins, dq);
      r.run_stats = tensor_stats(*tb, options.histogram_bins, dq);
      r.differences =
          diff_histogram(*ta, *tb, *c.domain, r.metrics.max_abs, options.histogram_bins);
    }
  }
}

NumericsReport compare_entries(const std::vector<DebugEntry>& reference,
                               const std::vector<DebugEntry>& run, const NumericsOptions& options) {
  NumericsReport report = match_entries(reference, run);
  compare_rows(report, options);
  return report;
}

}  // namespace etviz::analysis
