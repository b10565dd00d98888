#include "analysis/tensor_compare.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace etviz::analysis {
namespace {

float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);  // inf, nan
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {  // subnormal: normalise
    exp = 113;
    while (!(mant & 0x400u)) {
      mant <<= 1;
      --exp;
    }
    bits = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

double read_number(ElementType t, const uint8_t* p) {
  switch (t) {
    case ElementType::kFloat32:
      return load<float>(p);
    case ElementType::kFloat16:
      return half_to_float(load<uint16_t>(p));
    case ElementType::kBFloat16: {
      const uint32_t bits = static_cast<uint32_t>(load<uint16_t>(p)) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    case ElementType::kFloat64:
      return load<double>(p);
    case ElementType::kInt8:
      return load<int8_t>(p);
    case ElementType::kUInt8:
    case ElementType::kBytes:
      return *p;
    case ElementType::kInt16:
      return load<int16_t>(p);
    case ElementType::kUInt16:
      return load<uint16_t>(p);
    case ElementType::kInt32:
      return load<int32_t>(p);
    case ElementType::kUInt32:
      return load<uint32_t>(p);
    case ElementType::kInt64:
      return static_cast<double>(load<int64_t>(p));
    case ElementType::kUInt64:
      return static_cast<double>(load<uint64_t>(p));
    case ElementType::kBool:
      return *p != 0;
  }
  return 0;
}

// Running sums of the statistics, in double: a cosine of 0.9999999 needs them.
struct Sums {
  double abs = 0, aa = 0, bb = 0, ab = 0, dd = 0;
  double max_abs = 0, max_rel = 0;
  int64_t finite = 0;

  void add(double a, double b) {
    const double d = b - a, ad = std::fabs(d);
    abs += ad;
    aa += a * a;
    bb += b * b;
    ab += a * b;
    dd += d * d;
    if (ad > max_abs) max_abs = ad;
    if (a != 0) {
      const double r = ad / std::fabs(a);
      if (r > max_rel) max_rel = r;
    }
    ++finite;
  }
  void merge(const Sums& o) {
    abs += o.abs;
    aa += o.aa;
    bb += o.bb;
    ab += o.ab;
    dd += o.dd;
    if (o.max_abs > max_abs) max_abs = o.max_abs;
    if (o.max_rel > max_rel) max_rel = o.max_rel;
    finite += o.finite;
  }
};

// Maps an element's position in memory to its logical index and its channel.
class Indexer {
 public:
  Indexer(const std::vector<int64_t>& shape, const std::vector<uint8_t>& dim_order)
      : shape_(shape) {
    const size_t n = shape.size();
    order_.resize(n);
    bool valid = dim_order.size() == n;
    std::vector<bool> seen(n, false);
    for (size_t k = 0; valid && k < n; ++k) {
      valid = dim_order[k] < n && !seen[dim_order[k]];
      if (valid) seen[dim_order[k]] = true;
    }
    for (size_t k = 0; k < n; ++k) order_[k] = valid ? dim_order[k] : k;
  }

  std::vector<int64_t> index(int64_t flat) const {
    std::vector<int64_t> out(shape_.size(), 0);
    for (size_t k = shape_.size(); k-- > 0;) {
      const int64_t size = shape_[order_[k]];
      if (size <= 0) continue;
      out[order_[k]] = flat % size;
      flat /= size;
    }
    return out;
  }

  // Elements between consecutive channels of logical dimension `axis` in memory.
  int64_t stride_of(int64_t axis) const {
    int64_t stride = 1;
    for (size_t k = shape_.size(); k-- > 0;) {
      if (static_cast<int64_t>(order_[k]) == axis) return stride;
      stride *= shape_[order_[k]] > 0 ? shape_[order_[k]] : 1;
    }
    return 1;
  }

 private:
  std::vector<int64_t> shape_;
  std::vector<size_t> order_;
};

// One side's dequantization, resolved to what each element needs.
struct Dequant {
  const Affine* affine = nullptr;
  int64_t stride = 1, channels = 1;
  double apply(double q, int64_t flat) const {
    if (!affine || affine->scales.empty()) return q;
    size_t c = 0;
    if (affine->scales.size() > 1 && channels > 0)
      c = static_cast<size_t>((flat / stride) % channels) % affine->scales.size();
    const double zp = affine->zero_points.empty()
                          ? 0
                          : affine->zero_points[affine->zero_points.size() > 1
                                                    ? c % affine->zero_points.size()
                                                    : 0];
    return (q - zp) * affine->scales[c];
  }
};

// Every element, one at a time: any dtype, dequantization, non-finite values.
class ScalarPass {
 public:
  ScalarPass(const CompareInput& in, ElementStats& out, Sums& sums, const Indexer& indexer,
             const Dequant& da, const Dequant& db)
      : in_(in), out_(out), sums_(sums), indexer_(indexer), da_(da), db_(db) {
    size_ = static_cast<size_t>(element_size(in.type));
    floating_ = is_floating(in.type) || in.affine_a || in.affine_b;
  }

  void run(int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const uint8_t* pa = in_.a.data() + static_cast<size_t>(i) * size_;
      const uint8_t* pb = in_.b.data() + static_cast<size_t>(i) * size_;
      const bool differ = std::memcmp(pa, pb, size_) != 0;
      const double a = da_.apply(read_number(in_.type, pa), i);
      const double b = db_.apply(read_number(in_.type, pb), i);
      bool finite = true;
      if (floating_) {
        if (std::isnan(a)) ++out_.nan_a, finite = false;
        if (std::isinf(a)) ++out_.inf_a, finite = false;
        if (std::isnan(b)) ++out_.nan_b, finite = false;
        if (std::isinf(b)) ++out_.inf_b, finite = false;
      }
      if (finite) sums_.add(a, b);
      if (differ) {
        ++out_.differing;
        sample(i, a, b);
      }
    }
  }

  void sample(int64_t i, double a, double b) {
    if (out_.first.size() < in_.first_k) out_.first.push_back({i, indexer_.index(i), a, b});
  }

  // The differences of [begin, end) not yet sampled (a vectorised block found some).
  void sample_block(int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end && out_.first.size() < in_.first_k; ++i) {
      const uint8_t* pa = in_.a.data() + static_cast<size_t>(i) * size_;
      const uint8_t* pb = in_.b.data() + static_cast<size_t>(i) * size_;
      if (std::memcmp(pa, pb, size_) != 0)
        sample(i, da_.apply(read_number(in_.type, pa), i),
               db_.apply(read_number(in_.type, pb), i));
    }
  }

 private:
  const CompareInput& in_;
  ElementStats& out_;
  Sums& sums_;
  const Indexer& indexer_;
  const Dequant& da_;
  const Dequant& db_;
  size_t size_ = 1;
  bool floating_ = false;
};

// float32 without dequantization, the bulk of a model's weights: four elements at a time in
// vector registers (GCC/Clang vector extensions: SSE2, NEON or WebAssembly SIMD, AVX2 where
// the CPU has it), sums in double. A block with a NaN or Inf in it is redone one element at a
// time, so non-finite values never reach the sums.
typedef float F4 __attribute__((vector_size(16)));
typedef int32_t I4 __attribute__((vector_size(16)));
typedef double D4 __attribute__((vector_size(32)));
typedef int64_t L4 __attribute__((vector_size(32)));

struct BlockSums {
  D4 abs{}, aa{}, bb{}, ab{}, dd{};
  F4 max_abs{}, max_rel{};
  I4 differing{}, bad{};
};

inline F4 vmax(F4 x, F4 y) {
  const I4 m = x > y;
  return reinterpret_cast<F4>((m & reinterpret_cast<I4>(x)) | (~m & reinterpret_cast<I4>(y)));
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__EMSCRIPTEN__)
__attribute__((target_clones("avx2", "default")))
#endif
void float_block(const uint8_t* pa, const uint8_t* pb, int64_t n, BlockSums& s) {
  const I4 exp_mask = {0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000};
  const I4 abs_mask = {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff};
  const L4 abs_mask_d = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL,
                         0x7fffffffffffffffLL};
  const F4 zero{};
  for (int64_t i = 0; i + 4 <= n; i += 4) {
    F4 fa, fb;
    std::memcpy(&fa, pa + i * 4, 16);
    std::memcpy(&fb, pb + i * 4, 16);
    const I4 ia = reinterpret_cast<I4>(fa), ib = reinterpret_cast<I4>(fb);
    s.differing -= (ia != ib);
    s.bad |= ((ia & exp_mask) == exp_mask) | ((ib & exp_mask) == exp_mask);
    const D4 a = __builtin_convertvector(fa, D4), b = __builtin_convertvector(fb, D4);
    const D4 d = b - a;
    const D4 ad = reinterpret_cast<D4>(reinterpret_cast<L4>(d) & abs_mask_d);
    s.abs += ad;
    s.aa += a * a;
    s.bb += b * b;
    s.ab += a * b;
    s.dd += d * d;
    // Max and relative differences need no double: float is exact enough for a maximum.
    const F4 fd = reinterpret_cast<F4>(reinterpret_cast<I4>(fb - fa) & abs_mask);
    const F4 fabs_a = reinterpret_cast<F4>(ia & abs_mask);
    s.max_abs = vmax(fd, s.max_abs);
    const I4 nonzero = fabs_a > zero;
    const F4 rel = reinterpret_cast<F4>(reinterpret_cast<I4>(fd / fabs_a) & nonzero);
    s.max_rel = vmax(rel, s.max_rel);
  }
}

double hsum(D4 v) {
  return (v[0] + v[1]) + (v[2] + v[3]);
}
float hmax(F4 v) {
  float m = v[0];
  for (int k = 1; k < 4; ++k) m = v[k] > m ? v[k] : m;
  return m;
}

}  // namespace

double read_element(ElementType t, const uint8_t* p) {
  return read_number(t, p);
}

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
  return t == ElementType::kFloat32 || t == ElementType::kFloat16 ||
         t == ElementType::kBFloat16 || t == ElementType::kFloat64;
}

ElementStats compare_elements(const CompareInput& in) {
  ElementStats out;
  const int64_t size = element_size(in.type);
  int64_t n = static_cast<int64_t>(std::min(in.a.size(), in.b.size())) / size;
  int64_t numel = 1;
  bool known = true;
  for (int64_t d : in.shape) {
    if (d < 0 || (d > 0 && numel > std::numeric_limits<int64_t>::max() / d)) known = false;
    numel *= d < 0 ? 1 : d;
  }
  if (known && in.type != ElementType::kBytes) n = std::min(n, numel);
  out.elements = n;
  const Indexer indexer(in.type == ElementType::kBytes ? std::vector<int64_t>{n} : in.shape,
                        in.type == ElementType::kBytes ? std::vector<uint8_t>{} : in.dim_order);
  auto dequant = [&](const Affine* affine) {
    Dequant d;
    d.affine = affine;
    if (affine && affine->axis >= 0 && static_cast<size_t>(affine->axis) < in.shape.size()) {
      d.stride = indexer.stride_of(affine->axis);
      d.channels = std::max<int64_t>(in.shape[static_cast<size_t>(affine->axis)], 1);
    }
    return d;
  };
  const Dequant da = dequant(in.affine_a), db = dequant(in.affine_b);
  Sums sums;
  ScalarPass scalar(in, out, sums, indexer, da, db);
  if (in.type == ElementType::kFloat32 && !in.affine_a && !in.affine_b) {
    // Blocks small enough for the first level cache: a block redone one element at a time
    // (a NaN in it) or searched for its first differences reads from there.
    constexpr int64_t kBlock = 4096;
    for (int64_t begin = 0; begin < n; begin += kBlock) {
      const int64_t end = std::min(n, begin + kBlock);
      const int64_t vector_end = begin + (end - begin) / 4 * 4;
      const uint8_t* pa = in.a.data() + begin * 4;
      const uint8_t* pb = in.b.data() + begin * 4;
      if (std::memcmp(pa, pb, static_cast<size_t>(end - begin) * 4) == 0) {
        // Equal bytes: a == b, so only the norms grow (and NaN/Inf still count).
        BlockSums s;
        float_block(pa, pa, vector_end - begin, s);
        bool bad = false;
        for (int k = 0; k < 4; ++k) bad |= s.bad[k] != 0;
        if (bad) {
          scalar.run(begin, end);
          continue;
        }
        const double aa = hsum(s.aa);
        sums.aa += aa;
        sums.bb += aa;
        sums.ab += aa;
        sums.finite += vector_end - begin;
        scalar.run(vector_end, end);
        continue;
      }
      BlockSums s;
      float_block(pa, pb, vector_end - begin, s);
      bool bad = false;
      for (int k = 0; k < 4; ++k) bad |= s.bad[k] != 0;
      if (bad) {
        scalar.run(begin, end);
        continue;
      }
      Sums block;
      block.abs = hsum(s.abs);
      block.aa = hsum(s.aa);
      block.bb = hsum(s.bb);
      block.ab = hsum(s.ab);
      block.dd = hsum(s.dd);
      block.max_abs = hmax(s.max_abs);
      block.max_rel = hmax(s.max_rel);
      block.finite = vector_end - begin;
      sums.merge(block);
      const int64_t differing = static_cast<int64_t>(s.differing[0]) + s.differing[1] +
                                s.differing[2] + s.differing[3];
      out.differing += differing;  // the tail counts its own (scalar.run)
      if (differing > 0) scalar.sample_block(begin, vector_end);
      scalar.run(vector_end, end);
    }
  } else {
    scalar.run(0, n);
  }
  out.finite_pairs = sums.finite;
  out.max_abs = sums.max_abs;
  out.max_rel = sums.max_rel;
  out.mean_abs = sums.finite ? sums.abs / static_cast<double>(sums.finite) : 0;
  const double norms = std::sqrt(sums.aa) * std::sqrt(sums.bb);
  out.cosine = norms > 0 ? sums.ab / norms : (sums.aa == 0 && sums.bb == 0 ? 1.0 : 0.0);
  if (sums.dd == 0)
    out.snr_db = std::numeric_limits<double>::infinity();
  else if (sums.aa == 0)
    out.snr_db = -std::numeric_limits<double>::infinity();
  else
    out.snr_db = 10 * std::log10(sums.aa / sums.dd);
  return out;
}

}  // namespace etviz::analysis
