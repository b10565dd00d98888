#include "analysis/tensor_compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

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
// float32/float64 pairs are read in place, in blocks this long (the fast sums are checked per
// block, and a block with differences is searched for the first ones while in cache).
constexpr size_t kDirectBlock = 16384;

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

bool same_value(double x, double y) {
  return x == y || (std::isnan(x) && std::isnan(y));
}

// Reads elements [start, start + count) of `t` (storage order) as doubles; dequantizes them
// when asked and the tensor carries parameters. `raw`, when given, receives the values before
// dequantization (statistics count saturation on them).
class BlockReader {
 public:
  BlockReader(const TensorData& t, bool dequantize) : t_(t), type_(element_type(t.dtype)) {
    if (dequantize && t.quant && !t.quant->scales.empty()) {
      quant_ = &*t.quant;
      if (quant_->scales.size() > 1 && quant_->axis >= 0 &&
          static_cast<size_t>(quant_->axis) < t.sizes.size()) {
        const auto strides = t.storage_strides();
        channel_stride_ = std::max<int64_t>(strides[static_cast<size_t>(quant_->axis)], 1);
        channels_ = std::max<int64_t>(t.sizes[static_cast<size_t>(quant_->axis)], 1);
      }
    }
  }

  void read(size_t start, size_t count, double* out, double* raw = nullptr) const {
    const uint8_t* p = t_.bytes.data() + start * static_cast<size_t>(element_size(type_));
    switch (type_) {
      case ElementType::kFloat32:
        for (size_t i = 0; i < count; ++i) out[i] = load_at<float>(p + 4 * i);
        break;
      case ElementType::kFloat64:
        for (size_t i = 0; i < count; ++i) out[i] = load_at<double>(p + 8 * i);
        break;
      case ElementType::kFloat16:
        for (size_t i = 0; i < count; ++i) out[i] = half_to_float(load_at<uint16_t>(p + 2 * i));
        break;
      case ElementType::kBFloat16:
        for (size_t i = 0; i < count; ++i) {
          const uint32_t bits = static_cast<uint32_t>(load_at<uint16_t>(p + 2 * i)) << 16;
          float f;
          std::memcpy(&f, &bits, 4);
          out[i] = f;
        }
        break;
      case ElementType::kInt8:
        for (size_t i = 0; i < count; ++i) out[i] = static_cast<int8_t>(p[i]);
        break;
      case ElementType::kUInt8:
      case ElementType::kBytes:
        for (size_t i = 0; i < count; ++i) out[i] = p[i];
        break;
      case ElementType::kBool:
        for (size_t i = 0; i < count; ++i) out[i] = p[i] != 0;
        break;
      case ElementType::kInt16:
        for (size_t i = 0; i < count; ++i) out[i] = load_at<int16_t>(p + 2 * i);
        break;
      case ElementType::kUInt16:
        for (size_t i = 0; i < count; ++i) out[i] = load_at<uint16_t>(p + 2 * i);
        break;
      case ElementType::kInt32:
        for (size_t i = 0; i < count; ++i) out[i] = load_at<int32_t>(p + 4 * i);
        break;
      case ElementType::kUInt32:
        for (size_t i = 0; i < count; ++i) out[i] = load_at<uint32_t>(p + 4 * i);
        break;
      case ElementType::kInt64:
        for (size_t i = 0; i < count; ++i)
          out[i] = static_cast<double>(load_at<int64_t>(p + 8 * i));
        break;
      case ElementType::kUInt64:
        for (size_t i = 0; i < count; ++i)
          out[i] = static_cast<double>(load_at<uint64_t>(p + 8 * i));
        break;
    }
    if (raw) std::copy(out, out + count, raw);
    if (!quant_) return;
    const auto zero_point = [&](size_t c) {
      const auto& z = quant_->zero_points;
      return z.empty() ? 0.0 : z[z.size() == 1 ? 0 : std::min(c, z.size() - 1)];
    };
    if (channels_ == 0) {
      const double scale = quant_->scales[0], zp = zero_point(0);
      for (size_t i = 0; i < count; ++i) out[i] = (out[i] - zp) * scale;
      return;
    }
    for (size_t i = 0; i < count; ++i) {
      const auto c =
          static_cast<size_t>((static_cast<int64_t>(start + i) / channel_stride_) % channels_);
      const double scale = quant_->scales[std::min(c, quant_->scales.size() - 1)];
      out[i] = (out[i] - zero_point(c)) * scale;
    }
  }

 private:
  const TensorData& t_;
  ElementType type_;
  const QuantParams* quant_ = nullptr;
  int64_t channel_stride_ = 1, channels_ = 0;
};

// Running sums of one pair (a = reference, b = run) over positions where both are finite.
struct Sums {
  double dd = 0, ad = 0, aa = 0, bb = 0, ab = 0, max_abs = 0, max_rel = 0;
  uint64_t n = 0, differing = 0;
  void add(const Sums& o) {
    dd += o.dd;
    ad += o.ad;
    aa += o.aa;
    bb += o.bb;
    ab += o.ab;
    max_abs = std::max(max_abs, o.max_abs);
    max_rel = std::max(max_rel, o.max_rel);
    n += o.n;
    differing += o.differing;
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
// four lanes; the loop is bound by memory, not by the adds' latency. The tail goes one by one.
template <typename T>
ETVIZ_INLINE void sums_loop(const T* a, const T* b, size_t n, Sums& s) {
  v4d dd = {}, ad = {}, aa = {}, bb = {}, ab = {}, mx = {}, mr = {};
  v4l diff = {};
  const v4d zero = {};
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
    diff -= (x != y);
    // |d| / |x| where x != 0; other lanes (0/0, d/0) are masked to 0.
    const v4l nonzero = (x != zero);
    mr = vmax(mr, reinterpret_cast<v4d>(reinterpret_cast<v4l>(m / vabs(x)) & nonzero));
  }
  s.dd += hsum(dd);
  s.ad += hsum(ad);
  s.aa += hsum(aa);
  s.bb += hsum(bb);
  s.ab += hsum(ab);
  s.max_abs = std::max(s.max_abs, hmax(mx));
  s.max_rel = std::max(s.max_rel, hmax(mr));
  s.differing += static_cast<uint64_t>(diff[0] + diff[1] + diff[2] + diff[3]);
  for (; i < n; ++i) {
    const double x = a[i], y = b[i], d = x - y, m = std::fabs(d);
    s.dd += d * d;
    s.ad += m;
    s.aa += x * x;
    s.bb += y * y;
    s.ab += x * y;
    s.max_abs = std::max(s.max_abs, m);
    if (x != 0) s.max_rel = std::max(s.max_rel, m / std::fabs(x));
    if (x != y) ++s.differing;
  }
  s.n += n;
}

ETVIZ_SIMD_CLONES void sums_f32(const float* a, const float* b, size_t n, Sums& s) {
  sums_loop(a, b, n, s);
}

ETVIZ_SIMD_CLONES void sums_f64(const double* a, const double* b, size_t n, Sums& s) {
  sums_loop(a, b, n, s);
}

// One comparison in progress: sums, non-finite counts, the first differences.
class Comparer {
 public:
  Comparer(const TensorData& layout, const CompareOptions& options, TensorComparison& out)
      : layout_(layout), options_(options), out_(out) {}

  // Elements [start, start + n) of both sides, read as T.
  template <typename T>
  void block(const T* a, const T* b, size_t start, size_t n) {
    Sums s;
    if constexpr (std::is_same_v<T, float>)
      sums_f32(a, b, n, s);
    else
      sums_f64(a, b, n, s);
    if (!s.finite()) {
      s = Sums{};
      checked(a, b, n, s);
    }
    total_.add(s);
    if (s.differing > 0 && out_.first.size() < options_.first_k) {
      for (size_t i = 0; i < n && out_.first.size() < options_.first_k; ++i) {
        const double x = a[i], y = b[i];
        if (!same_value(x, y)) {
          const auto flat = static_cast<int64_t>(start + i);
          out_.first.push_back({flat, layout_.index_of(flat), x, y});
        }
      }
    }
  }

  void finish() {
    const Sums& s = total_;
    out_.elements = s.n;
    out_.differing = s.differing;
    out_.l1 = s.ad;
    out_.max_abs = s.max_abs;
    out_.max_rel = s.max_rel;
    if (s.n == 0) {
      out_.mse = out_.snr_db = out_.cosine = out_.mean_abs = kNaN;
      return;
    }
    out_.mse = s.dd / static_cast<double>(s.n);
    out_.mean_abs = s.ad / static_cast<double>(s.n);
    // 10 log10(mean(a^2) / mean((a-b)^2)): the means' n cancels.
    if (s.dd == 0)
      out_.snr_db = kInf;  // identical: no noise at all (ExecuTorch gets NaN for all-zero pairs)
    else
      out_.snr_db = 10.0 * std::log10(s.aa / s.dd);
    const double na = std::sqrt(s.aa), nb = std::sqrt(s.bb);
    if (na == 0 && nb == 0)
      out_.cosine = 1;
    else if (na == 0 || nb == 0)
      out_.cosine = 0;
    else
      out_.cosine = std::clamp(s.ab / na / nb, -1.0, 1.0);
  }

 private:
  // The careful sums of a block the fast ones found NaN or Inf in: each position is tested,
  // counted and left out unless both sides are finite.
  template <typename T>
  void checked(const T* a, const T* b, size_t n, Sums& s) {
    for (size_t i = 0; i < n; ++i) {
      const double x = a[i], y = b[i];
      const bool fx = std::isfinite(x), fy = std::isfinite(y);
      if (!fx) ++(std::isnan(x) ? out_.nan_reference : out_.inf_reference);
      if (!fy) ++(std::isnan(y) ? out_.nan_run : out_.inf_run);
      if (fx && fy) {
        const double d = x - y, m = std::fabs(d);
        s.dd += d * d;
        s.ad += m;
        s.aa += x * x;
        s.bb += y * y;
        s.ab += x * y;
        s.max_abs = std::max(s.max_abs, m);
        if (x != 0) s.max_rel = std::max(s.max_rel, m / std::fabs(x));
        if (x != y) ++s.differing;
        ++s.n;
      } else if (!same_value(x, y)) {
        ++out_.nonfinite_mismatch;
        ++s.differing;
      }
    }
  }

  const TensorData& layout_;
  const CompareOptions& options_;
  TensorComparison& out_;
  Sums total_;
};

bool aligned_for(const void* p, size_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

std::string shape_text(const std::vector<int64_t>& sizes) {
  return fmt::format("[{}]", fmt::join(sizes, ", "));
}

// Byte by byte: dtypes etviz does not read as numbers.
TensorComparison compare_bytes(const TensorData& reference, const TensorData& run,
                               const CompareOptions& options) {
  TensorComparison out;
  const size_t n = std::min(reference.bytes.size(), run.bytes.size());
  out.positions = n;
  for (size_t i = 0; i < n; ++i) {
    if (reference.bytes[i] == run.bytes[i]) continue;
    ++out.differing;
    if (out.first.size() < options.first_k)
      out.first.push_back({static_cast<int64_t>(i),
                           {static_cast<int64_t>(i)},
                           double(reference.bytes[i]),
                           double(run.bytes[i])});
  }
  out.mse = out.l1 = out.snr_db = out.cosine = out.max_abs = out.mean_abs = out.max_rel = kNaN;
  return out;
}

}  // namespace

ElementType element_type(std::string_view dtype) {
  if (dtype == "float32") return ElementType::kFloat32;
  if (dtype == "float16") return ElementType::kFloat16;
  if (dtype == "bfloat16") return ElementType::kBFloat16;
  if (dtype == "float64") return ElementType::kFloat64;
  if (dtype == "int8" || dtype == "qint8") return ElementType::kInt8;
  if (dtype == "uint8" || dtype == "quint8") return ElementType::kUInt8;
  if (dtype == "int16") return ElementType::kInt16;
  if (dtype == "uint16") return ElementType::kUInt16;
  if (dtype == "int32" || dtype == "qint32") return ElementType::kInt32;
  if (dtype == "uint32") return ElementType::kUInt32;
  if (dtype == "int64") return ElementType::kInt64;
  if (dtype == "uint64") return ElementType::kUInt64;
  if (dtype == "bool") return ElementType::kBool;
  return ElementType::kBytes;
}

int64_t element_size(ElementType t) {
  switch (t) {
    case ElementType::kFloat64:
    case ElementType::kInt64:
    case ElementType::kUInt64:
      return 8;
    case ElementType::kFloat32:
    case ElementType::kInt32:
    case ElementType::kUInt32:
      return 4;
    case ElementType::kFloat16:
    case ElementType::kBFloat16:
    case ElementType::kInt16:
    case ElementType::kUInt16:
      return 2;
    default:
      return 1;
  }
}

bool is_floating(ElementType t) {
  return t == ElementType::kFloat32 || t == ElementType::kFloat16 || t == ElementType::kBFloat16 ||
         t == ElementType::kFloat64;
}

double read_element(ElementType t, const uint8_t* p) {
  switch (t) {
    case ElementType::kFloat32:
      return load_at<float>(p);
    case ElementType::kFloat64:
      return load_at<double>(p);
    case ElementType::kFloat16:
      return half_to_float(load_at<uint16_t>(p));
    case ElementType::kBFloat16: {
      const uint32_t bits = static_cast<uint32_t>(load_at<uint16_t>(p)) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    case ElementType::kInt8:
      return static_cast<int8_t>(*p);
    case ElementType::kUInt8:
    case ElementType::kBytes:
      return *p;
    case ElementType::kBool:
      return *p != 0;
    case ElementType::kInt16:
      return load_at<int16_t>(p);
    case ElementType::kUInt16:
      return load_at<uint16_t>(p);
    case ElementType::kInt32:
      return load_at<int32_t>(p);
    case ElementType::kUInt32:
      return load_at<uint32_t>(p);
    case ElementType::kInt64:
      return static_cast<double>(load_at<int64_t>(p));
    case ElementType::kUInt64:
      return static_cast<double>(load_at<uint64_t>(p));
  }
  return 0;
}

bool numeric_dtype(std::string_view dtype) {
  return element_type(dtype) != ElementType::kBytes;
}

bool integer_dtype(std::string_view dtype) {
  const ElementType t = element_type(dtype);
  return t != ElementType::kBytes && !is_floating(t);
}

int64_t TensorData::numel() const {
  // Saturating: a hostile shape ([2^40, 2^40]) must not wrap into a small count.
  int64_t n = 1;
  for (int64_t d : sizes) {
    if (d < 0) return -1;
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d)
      return std::numeric_limits<int64_t>::max();
    n *= d;
  }
  return n;
}

std::vector<int64_t> TensorData::storage_strides() const {
  const size_t rank = sizes.size();
  if (strides.size() == rank) return strides;
  // The dim order, when it is a permutation of the dimensions; else contiguous.
  std::vector<size_t> order(rank);
  bool valid = dim_order.size() == rank;
  std::vector<bool> seen(rank, false);
  for (size_t k = 0; valid && k < rank; ++k) {
    valid = dim_order[k] < rank && !seen[dim_order[k]];
    if (valid) seen[dim_order[k]] = true;
  }
  for (size_t k = 0; k < rank; ++k) order[k] = valid ? dim_order[k] : k;
  std::vector<int64_t> s(rank, 1);
  int64_t stride = 1;
  for (size_t k = rank; k-- > 0;) {
    s[order[k]] = stride;
    stride *= std::max<int64_t>(sizes[order[k]], 1);
  }
  return s;
}

std::vector<int64_t> TensorData::index_of(int64_t flat) const {
  const auto s = storage_strides();
  std::vector<int64_t> index(sizes.size(), 0);
  for (size_t k = 0; k < sizes.size(); ++k)
    if (sizes[k] > 0 && s[k] > 0) index[k] = (flat / s[k]) % sizes[k];
  return index;
}

const char* to_string(Domain d) {
  switch (d) {
    case Domain::kFloat:
      return "float";
    case Domain::kInteger:
      return "integer";
    case Domain::kDequantized:
      return "dequantized";
    case Domain::kBytes:
      return "bytes";
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
  const bool rn = numeric_dtype(reference.dtype), un = numeric_dtype(run.dtype);
  const bool ri = integer_dtype(reference.dtype), ui = integer_dtype(run.dtype);
  const bool rq = ri && reference.quant && !reference.quant->scales.empty();
  const bool uq = ui && run.quant && !run.quant->scales.empty();
  if (reference.dtype == run.dtype && !rn) {
    c.domain = Domain::kBytes;
  } else if (!rn || !un) {
    c.kind = PairCheck::Kind::kDtype;
    c.mismatch = fmt::format("dtype {} vs {}: not read as numbers", reference.dtype, run.dtype);
    return c;
  } else if (reference.dtype == run.dtype) {
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
  if (!reference.sizes.empty() && reference.storage_strides() != run.storage_strides()) {
    c.domain.reset();
    c.kind = PairCheck::Kind::kLayout;
    c.mismatch =
        fmt::format("strides {} vs {} (another dim order)", shape_text(reference.storage_strides()),
                    shape_text(run.storage_strides()));
  }
  return c;
}

TensorComparison compare_tensors(const TensorData& reference, const TensorData& run, Domain domain,
                                 const CompareOptions& options) {
  if (domain == Domain::kBytes) return compare_bytes(reference, run, options);
  TensorComparison out;
  Comparer comparer(reference, options, out);
  const size_t n = static_cast<size_t>(std::min<int64_t>(std::max<int64_t>(reference.numel(), 0),
                                                         std::max<int64_t>(run.numel(), 0)));
  const ElementType ta = element_type(reference.dtype), tb = element_type(run.dtype);
  if (n > reference.bytes.size() / static_cast<size_t>(element_size(ta)) ||
      n > run.bytes.size() / static_cast<size_t>(element_size(tb))) {
    comparer.finish();  // the caller checked; never read past a span
    return out;
  }
  out.positions = n;
  const bool dequantize = domain == Domain::kDequantized;
  if (!dequantize && ta == ElementType::kFloat32 && tb == ElementType::kFloat32 &&
      aligned_for(reference.bytes.data(), 4) && aligned_for(run.bytes.data(), 4)) {
    const auto* a = reinterpret_cast<const float*>(reference.bytes.data());
    const auto* b = reinterpret_cast<const float*>(run.bytes.data());
    for (size_t i = 0; i < n; i += kDirectBlock)
      comparer.block(a + i, b + i, i, std::min(kDirectBlock, n - i));
  } else if (!dequantize && ta == ElementType::kFloat64 && tb == ElementType::kFloat64 &&
             aligned_for(reference.bytes.data(), 8) && aligned_for(run.bytes.data(), 8)) {
    const auto* a = reinterpret_cast<const double*>(reference.bytes.data());
    const auto* b = reinterpret_cast<const double*>(run.bytes.data());
    for (size_t i = 0; i < n; i += kDirectBlock)
      comparer.block(a + i, b + i, i, std::min(kDirectBlock, n - i));
  } else {
    const BlockReader ra(reference, dequantize), rb(run, dequantize);
    std::vector<double> a(kBlock), b(kBlock);
    for (size_t i = 0; i < n; i += kBlock) {
      const size_t count = std::min(kBlock, n - i);
      ra.read(i, count, a.data());
      rb.read(i, count, b.data());
      comparer.block(a.data(), b.data(), i, count);
    }
  }
  comparer.finish();
  return out;
}

TensorStats tensor_stats(const TensorData& tensor, int bins, bool dequantize) {
  TensorStats s;
  const ElementType e = element_type(tensor.dtype);
  const int64_t numel = tensor.numel();
  if (e == ElementType::kBytes || numel <= 0 ||
      static_cast<uint64_t>(numel) > tensor.bytes.size() / static_cast<uint64_t>(element_size(e)))
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
  if (!std::isfinite(max_abs) || domain == Domain::kBytes) return h;
  h.lo = -max_abs;
  h.hi = max_abs;
  const size_t n = static_cast<size_t>(std::max<int64_t>(reference.numel(), 0));
  if (n > reference.bytes.size() /
              static_cast<size_t>(element_size(element_type(reference.dtype))) ||
      n > run.bytes.size() / static_cast<size_t>(element_size(element_type(run.dtype))) ||
      run.numel() != reference.numel())
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

}  // namespace etviz::analysis
