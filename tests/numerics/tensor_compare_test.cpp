// analysis/tensor_compare against numpy (numpy_figures.py computes the same figures from the
// same bytes) and against hand-computed exact values.
#include "analysis/tensor_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

namespace etviz::analysis {
namespace {

namespace fs = std::filesystem;

template <typename T>
std::span<const uint8_t> bytes_of(const std::vector<T>& v) {
  return {reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(T)};
}

template <typename T>
TensorData tensor(const std::string& dtype, std::vector<int64_t> sizes, const std::vector<T>& v) {
  TensorData t;
  t.dtype = dtype;
  t.sizes = std::move(sizes);
  t.bytes = bytes_of(v);
  return t;
}

std::string run_capture(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

// numpy's figures for the bytes of a and b.
nlohmann::json numpy_figures(std::span<const uint8_t> a, std::span<const uint8_t> b,
                             const std::string& dtype, const std::string& shape,
                             const std::string& quant = "") {
  const fs::path dir = fs::temp_directory_path() / ("etviz_tc_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (auto [name, data] : {std::pair{"a.bin", a}, std::pair{"b.bin", b}}) {
    std::ofstream f(dir / name, std::ios::binary);
    f.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  }
  const std::string cmd = "/usr/bin/python3 " ETVIZ_SOURCE_DIR "/tests/numerics/numpy_figures.py " +
                          (dir / "a.bin").string() + " " + (dir / "b.bin").string() + " " + dtype +
                          " " + shape + " " + quant;
  const std::string out = run_capture(cmd);
  fs::remove_all(dir);
  return nlohmann::json::parse(out);
}

void expect_close(double got, double want, const char* what) {
  EXPECT_NEAR(got, want, 1e-9 * std::max(1.0, std::fabs(want))) << what;
}

void expect_matches_numpy(const TensorComparison& c, const nlohmann::json& np) {
  EXPECT_EQ(c.elements, np["elements"].get<uint64_t>());
  EXPECT_EQ(c.differing, np["differing"].get<uint64_t>());
  expect_close(c.mse, np["mse"], "mse");
  expect_close(c.l1, np["l1"], "l1");
  expect_close(c.snr_db, np["snr_db"], "snr_db");
  expect_close(c.cosine, np["cosine"], "cosine");
  expect_close(c.max_abs, np["max_abs"], "max_abs");
  expect_close(c.mean_abs, np["mean_abs"], "mean_abs");
  expect_close(c.max_rel, np["max_rel"], "max_rel");
  EXPECT_EQ(c.nan_reference, np["nan_reference"].get<uint64_t>());
  EXPECT_EQ(c.inf_reference, np["inf_reference"].get<uint64_t>());
  EXPECT_EQ(c.nan_run, np["nan_run"].get<uint64_t>());
  EXPECT_EQ(c.inf_run, np["inf_run"].get<uint64_t>());
  ASSERT_EQ(c.first.size(), np["first"].size());
  for (size_t k = 0; k < c.first.size(); ++k)
    EXPECT_EQ(c.first[k].index, np["first"][k].get<std::vector<int64_t>>()) << k;
}

TEST(TensorCompare, Float32AgainstNumpy) {
  std::mt19937 rng(7);
  std::normal_distribution<float> dist(0, 2);
  const std::vector<int64_t> shape = {3, 50, 7};
  std::vector<float> a(3 * 50 * 7), b;
  for (float& x : a) x = dist(rng);
  b = a;
  for (size_t i = 100; i < b.size(); i += 3) b[i] += 0.01f * dist(rng);
  a[5] = b[5] = std::numeric_limits<float>::quiet_NaN();  // both NaN: left out, equal
  b[17] = std::numeric_limits<float>::infinity();         // one side Inf
  a[23] = 0;                                              // no relative difference there
  b[23] = 0.5f;
  const TensorData ta = tensor("float32", shape, a), tb = tensor("float32", shape, b);
  const PairCheck check = check_pair(ta, tb);
  ASSERT_EQ(check.domain, Domain::kFloat);
  const TensorComparison c = compare_tensors(ta, tb, Domain::kFloat);
  EXPECT_EQ(c.positions, a.size());
  EXPECT_EQ(c.nonfinite_mismatch, 1u);
  expect_matches_numpy(c, numpy_figures(ta.bytes, tb.bytes, "float32", "3x50x7"));
}

TEST(TensorCompare, LargeFloat32CrossesBlocks) {
  // More than one in-place block (16,384 elements), the fast path's differences counted and
  // the first ten found across a block boundary.
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> a(40000), b;
  for (float& x : a) x = dist(rng);
  b = a;
  for (size_t i = 16380; i < a.size(); i += 997) b[i] *= 1.001f;
  const TensorData ta = tensor("float32", {200, 200}, a), tb = tensor("float32", {200, 200}, b);
  const TensorComparison c = compare_tensors(ta, tb, Domain::kFloat);
  expect_matches_numpy(c, numpy_figures(ta.bytes, tb.bytes, "float32", "200x200"));
  EXPECT_EQ(c.first.front().flat, 16380);
}

TEST(TensorCompare, Float16AgainstNumpy) {
  // 1.0, 2.0, 0.5, -3.0 and 65504 (max) in half precision against drifted ones.
  std::vector<uint16_t> a = {0x3c00, 0x4000, 0x3800, 0xc200, 0x7bff, 0x0001};
  std::vector<uint16_t> b = {0x3c01, 0x4000, 0x3801, 0xc200, 0x7bfe, 0x0002};
  const TensorData ta = tensor("float16", {2, 3}, a), tb = tensor("float16", {2, 3}, b);
  const TensorComparison c = compare_tensors(ta, tb, Domain::kFloat);
  expect_matches_numpy(c, numpy_figures(ta.bytes, tb.bytes, "float16", "2x3"));
}

TEST(TensorCompare, Int8DequantizedAgainstNumpy) {
  std::vector<int8_t> a = {-128, -3, 0, 5, 17, 127, 64, -64};
  std::vector<int8_t> b = {-128, -2, 0, 5, 19, 120, 64, -63};
  QuantParams q;
  q.scales = {0.05};
  q.zero_points = {3};
  TensorData ta = tensor("int8", {8}, a), tb = tensor("int8", {8}, b);
  ta.quant = tb.quant = q;
  const PairCheck check = check_pair(ta, tb);
  ASSERT_EQ(check.domain, Domain::kDequantized);
  const TensorComparison c = compare_tensors(ta, tb, Domain::kDequantized);
  expect_matches_numpy(c, numpy_figures(ta.bytes, tb.bytes, "int8", "8", "0.05 3"));
  // Without parameters: the integer domain, where the figures are the integers'.
  ta.quant.reset();
  tb.quant.reset();
  ASSERT_EQ(check_pair(ta, tb).domain, Domain::kInteger);
  expect_matches_numpy(compare_tensors(ta, tb, Domain::kInteger),
                       numpy_figures(ta.bytes, tb.bytes, "int8", "8"));
}

TEST(TensorCompare, ExactFigures) {
  // a = [1, 2, 3, 4], b = [1, 2, 3, 5]: d = [0, 0, 0, -1].
  const std::vector<float> a = {1, 2, 3, 4}, b = {1, 2, 3, 5};
  const TensorComparison c =
      compare_tensors(tensor("float32", {4}, a), tensor("float32", {4}, b), Domain::kFloat);
  EXPECT_EQ(c.elements, 4u);
  EXPECT_EQ(c.differing, 1u);
  EXPECT_DOUBLE_EQ(c.mse, 0.25);
  EXPECT_DOUBLE_EQ(c.l1, 1);
  EXPECT_DOUBLE_EQ(c.mean_abs, 0.25);
  EXPECT_DOUBLE_EQ(c.max_abs, 1);
  EXPECT_DOUBLE_EQ(c.max_rel, 0.25);
  // mean(a^2) = 30/4 = 7.5, mean(d^2) = 0.25: 10 log10(30).
  EXPECT_DOUBLE_EQ(c.snr_db, 10 * std::log10(30.0));
  EXPECT_DOUBLE_EQ(c.cosine, 34 / (std::sqrt(30.0) * std::sqrt(39.0)));  // a.b = 34, |b|^2 = 39
  ASSERT_EQ(c.first.size(), 1u);
  EXPECT_EQ(c.first[0].flat, 3);
  EXPECT_EQ(c.first[0].reference, 4);
  EXPECT_EQ(c.first[0].run, 5);
  // Identical: no noise, SNR +inf; all zero: cosine 1.
  const std::vector<float> z = {0, 0, 0, 0};
  const TensorComparison same =
      compare_tensors(tensor("float32", {4}, z), tensor("float32", {4}, z), Domain::kFloat);
  EXPECT_TRUE(std::isinf(same.snr_db) && same.snr_db > 0);
  EXPECT_EQ(same.cosine, 1);
  EXPECT_EQ(same.differing, 0u);
}

TEST(TensorCompare, AllNonFiniteGivesNaNFigures) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> a = {nan, nan}, b = {nan, 1};
  const TensorComparison c =
      compare_tensors(tensor("float32", {2}, a), tensor("float32", {2}, b), Domain::kFloat);
  EXPECT_EQ(c.elements, 0u);
  EXPECT_EQ(c.nan_reference, 2u);
  EXPECT_EQ(c.nan_run, 1u);
  EXPECT_EQ(c.nonfinite_mismatch, 1u);
  EXPECT_EQ(c.differing, 1u);
  EXPECT_TRUE(std::isnan(c.mse));
  EXPECT_TRUE(std::isnan(c.snr_db));
}

TEST(TensorCompare, DimOrderGivesLogicalIndex) {
  // Sizes [2, 3] stored channels-last style (dim order 1, 0): storage position p holds
  // logical (p % 2, p / 2).
  const std::vector<float> a = {0, 1, 2, 3, 4, 5}, b = {0, 1, 2, 9, 4, 5};
  TensorData ta = tensor("float32", {2, 3}, a), tb = tensor("float32", {2, 3}, b);
  ta.dim_order = tb.dim_order = {1, 0};
  EXPECT_EQ(ta.storage_strides(), (std::vector<int64_t>{1, 2}));
  const TensorComparison c = compare_tensors(ta, tb, Domain::kFloat);
  ASSERT_EQ(c.first.size(), 1u);
  EXPECT_EQ(c.first[0].flat, 3);
  EXPECT_EQ(c.first[0].index, (std::vector<int64_t>{1, 1}));
  // Another dim order on one side: a layout mismatch, not compared.
  tb.dim_order.clear();
  EXPECT_EQ(check_pair(ta, tb).kind, PairCheck::Kind::kLayout);
}

TEST(TensorCompare, PerChannelDequantization) {
  // [2 channels, 2]: channel 0 scale 0.5 zp 0, channel 1 scale 2 zp 1.
  const std::vector<int8_t> a = {2, 4, 3, 5}, b = {2, 6, 3, 4};
  QuantParams q;
  q.scales = {0.5, 2};
  q.zero_points = {0, 1};
  q.axis = 0;
  TensorData ta = tensor("int8", {2, 2}, a), tb = tensor("int8", {2, 2}, b);
  ta.quant = tb.quant = q;
  const TensorComparison c = compare_tensors(ta, tb, Domain::kDequantized);
  // Real values: a = [1, 2, 4, 8], b = [1, 3, 4, 6]: d = [0, -1, 0, 2].
  EXPECT_DOUBLE_EQ(c.l1, 3);
  EXPECT_DOUBLE_EQ(c.mse, 5.0 / 4);
  EXPECT_DOUBLE_EQ(c.max_abs, 2);
  EXPECT_DOUBLE_EQ(c.max_rel, 0.5);
  ASSERT_EQ(c.first.size(), 2u);
  EXPECT_EQ(c.first[1].index, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(c.first[1].reference, 8);
  EXPECT_EQ(c.first[1].run, 6);
}

TEST(TensorCompare, PairChecks) {
  const std::vector<float> f(6);
  const std::vector<int8_t> i(6);
  EXPECT_EQ(check_pair(tensor("float32", {2, 3}, f), tensor("float32", {3, 2}, f)).kind,
            PairCheck::Kind::kShape);
  EXPECT_EQ(check_pair(tensor("float32", {6}, f), tensor("int8", {6}, i)).kind,
            PairCheck::Kind::kDtype);
  TensorData q = tensor("int8", {6}, i);
  q.quant = QuantParams{{0.1}, {0}, -1, {}, {}, ""};
  EXPECT_EQ(check_pair(tensor("float32", {6}, f), q).domain, Domain::kDequantized);
  // Bytes etviz does not read as numbers: byte by byte.
  const std::vector<uint8_t> x = {1, 2, 3}, y = {1, 7, 3};
  const TensorData bx = tensor("float8_e4m3fn", {3}, x), by = tensor("float8_e4m3fn", {3}, y);
  ASSERT_EQ(check_pair(bx, by).domain, Domain::kBytes);
  const TensorComparison c = compare_tensors(bx, by, Domain::kBytes);
  EXPECT_EQ(c.differing, 1u);
  EXPECT_EQ(c.first.at(0).flat, 1);
}

TEST(TensorCompare, StatisticsAgainstNumpy) {
  std::mt19937 rng(3);
  std::normal_distribution<float> dist(1, 3);
  std::vector<float> a(1000);
  for (float& x : a) x = dist(rng);
  a[10] = 0;
  a[11] = std::numeric_limits<float>::infinity();
  const TensorData ta = tensor("float32", {1000}, a);
  const TensorStats s = tensor_stats(ta);
  const auto np = numpy_figures(ta.bytes, ta.bytes, "float32", "1000")["stats"];
  EXPECT_EQ(s.count, 1000u);
  EXPECT_EQ(s.inf, 1u);
  EXPECT_EQ(s.finite, 999u);
  EXPECT_EQ(s.zeros, np["zeros"].get<uint64_t>());
  expect_close(s.min, np["min"], "min");
  expect_close(s.max, np["max"], "max");
  expect_close(s.mean, np["mean"], "mean");
  expect_close(s.std, np["std"], "std");
  expect_close(s.abs_max, np["abs_max"], "abs_max");
  EXPECT_EQ(s.histogram, np["histogram"].get<std::vector<uint64_t>>());
}

TEST(TensorCompare, SaturationAndDiffHistogram) {
  const std::vector<int8_t> a = {-128, -128, 0, 127, 5};
  TensorData t = tensor("int8", {5}, a);
  t.quant = QuantParams{{0.1}, {0}, -1, -128, 127, ""};
  const TensorStats s = tensor_stats(t, 4);
  EXPECT_EQ(s.at_qmin, 2u);
  EXPECT_EQ(s.at_qmax, 1u);
  // run - reference = [-1, 0, 0, 1] over [-1, 1] in 4 bins: [-1,-.5) [-.5,0) [0,.5) [.5,1].
  const std::vector<float> r = {1, 2, 3, 4}, u = {0, 2, 3, 5};
  const DiffHistogram h =
      diff_histogram(tensor("float32", {4}, r), tensor("float32", {4}, u), Domain::kFloat, 1, 4);
  EXPECT_EQ(h.counts, (std::vector<uint64_t>{1, 0, 2, 1}));
}

TEST(TensorCompare, HostileShapesReadNothing) {
  // A shape whose element count wraps 64 bits, or is negative, over a few bytes: nothing is
  // read past the span, nothing compared.
  const std::vector<float> a = {1, 2, 3, 4};
  const TensorData huge = tensor("float32", {int64_t{1} << 40, int64_t{1} << 40}, a);
  EXPECT_EQ(huge.numel(), std::numeric_limits<int64_t>::max());
  const TensorComparison c = compare_tensors(huge, huge, Domain::kFloat);
  EXPECT_EQ(c.positions, 0u);
  EXPECT_EQ(tensor_stats(huge).count, 0u);
  EXPECT_EQ(diff_histogram(huge, huge, Domain::kFloat, 1.0).counts, std::vector<uint64_t>(24, 0));
  const TensorData negative = tensor("float32", {-4}, a);
  EXPECT_EQ(compare_tensors(negative, negative, Domain::kFloat).positions, 0u);
  // 2^62 float32 elements: count x 4 wraps to 0 bytes.
  const TensorData wraps = tensor("float32", {int64_t{1} << 62}, a);
  EXPECT_EQ(compare_tensors(wraps, wraps, Domain::kFloat).positions, 0u);
  EXPECT_EQ(tensor_stats(wraps).count, 0u);
}

}  // namespace
}  // namespace etviz::analysis
