// fp64 slices cut on the device (trnblas/src/device_slicing.hpp, issues #27 / #30): Ozaki scheme I's
// DGEMM and the fp64 Level 1/2 slice pairs (dgemv, ddot) give every output bit of the host slicing
// (Settings::fp64_host_slicing, the loop they replace) on a spread of exponents, Inf / NaN / -0,
// subnormals, a line spread at the device's exact limit, transposes, increments and K tails, on trn1
// and trn2 with 1 and 2 host threads — and the device path is the one that ran (the host's slicing
// round trip is gone, GpSimdE worked). A line spread beyond the limit takes the host loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string_view>
#include <vector>

#include "trn/blas/blas.hpp"
#include "trn/blas/level12.hpp"
#include "trace_counts.hpp"

namespace {

namespace tb = trn::blas;
using tb::Op;

using blastest::host_steps_named;
std::int64_t gpsimd_instructions(const trn::Trace& t) {
  std::int64_t n = 0;
  for (const trn::Instruction& ins : t.instructions) n += ins.engine == trn::Engine::gpsimd;
  return n;
}

// Values of every kind the slicing meets: graded exponents over +-`spread` binades, powers of two,
// arbitrary finite bit patterns, subnormals, +-0 and (if `specials`) Inf and NaN.
std::vector<double> values(std::size_t count, int spread, bool specials, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<int> ex(-spread, spread), kind(0, 15);
  std::uniform_real_distribution<double> m(-1.0, 1.0);
  std::vector<double> v(count);
  for (double& x : v) {
    switch (kind(g)) {
      case 0: x = (g() & 1) ? 0.0 : -0.0; break;
      case 1: x = (g() & 1 ? 1 : -1) * std::ldexp(1.0, ex(g)); break;
      case 2: x = std::ldexp(std::bit_cast<double>((g() & 0x000fffffffffffffull) | 0x3ff0000000000000ull), ex(g)) * (g() & 1 ? 1 : -1); break;
      case 3: x = specials ? std::numeric_limits<double>::infinity() * (g() & 1 ? 1 : -1) : m(g); break;
      case 4: x = specials ? std::numeric_limits<double>::quiet_NaN() : m(g); break;
      default: x = std::ldexp(m(g), ex(g));
    }
  }
  return v;
}
// Subnormals within the device's exact range: a line of values near 2^-1000 with some subnormals.
std::vector<double> tiny_values(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> m(-1.0, 1.0);
  std::vector<double> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = std::ldexp(m(g), i % 3 == 0 ? -1060 : -1000 - static_cast<int>(i % 40));
  return v;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

struct Target {
  trn::Generation gen;
  int threads;
};
const Target kTargets[] = {{trn::Generation::trn1, 1}, {trn::Generation::trn1, 2}, {trn::Generation::trn2, 1},
                           {trn::Generation::trn2, 2}};

tb::Settings settings(const Target& t, bool host_slicing) {
  tb::Settings s;
  s.target = t.gen;
  s.host_threads = t.threads;
  s.fp64_host_slicing = host_slicing;
  return s;
}

// Scheme I DGEMM: C by device slicing equals C by host slicing bit for bit; returns the device report.
void expect_scheme1_same(const Target& t, Op ta, Op tb_, std::int64_t m, std::int64_t n, std::int64_t k,
                         const std::vector<double>& A, const std::vector<double>& B, bool special_values, bool device_expected) {
  const std::int64_t lda = (ta == Op::N ? m : k) + 3, ldb = (tb_ == Op::N ? k : n) + 1;
  std::vector<double> C0(static_cast<std::size_t>(m * n)), C1;
  for (std::size_t i = 0; i < C0.size(); ++i) C0[i] = 0.25 * static_cast<double>(i % 7) - 0.5;
  C1 = C0;
  std::vector<double> C2 = C0;
  tb::CallReport rh, rd;
  tb::Settings sh = settings(t, true), sd = settings(t, false);
  for (tb::Settings* s : {&sh, &sd}) {
    s->ozaki_scheme = tb::OzakiScheme::slices;
    s->ozaki_special_values = special_values;
  }
  tb::dgemm(sh, ta, tb_, m, n, k, 1.5, A.data(), lda, B.data(), ldb, -0.75, C1.data(), m, &rh);
  tb::dgemm(sd, ta, tb_, m, n, k, 1.5, A.data(), lda, B.data(), ldb, -0.75, C2.data(), m, &rd);
  const std::string what = std::string("dgemm scheme I ") + (ta == Op::N ? "N" : "T") + (tb_ == Op::N ? "N" : "T") +
                           " threads " + std::to_string(t.threads) + (t.gen == trn::Generation::trn2 ? " trn2" : " trn1");
  EXPECT_TRUE(same_bits(C1, C2)) << what;
  EXPECT_EQ(rh.ozaki_slices_a, rd.ozaki_slices_a) << what;
  EXPECT_EQ(host_steps_named(rh.trace, "trnblas.ozaki1.slice"), 1) << what;
  EXPECT_EQ(host_steps_named(rd.trace, "trnblas.ozaki1.slice"), device_expected ? 0 : 1) << what;
  EXPECT_EQ(host_steps_named(rd.trace, "trnblas.ozaki1.exponents"), device_expected ? 1 : 0) << what;
  EXPECT_EQ(gpsimd_instructions(rd.trace) > 0, device_expected) << what;
  EXPECT_NE(C2, C0) << what;  // something was computed
}

// Operands sized for either transpose (leading dimension padded).
std::vector<double> operand(Op t, std::int64_t rows, std::int64_t cols, int spread, bool specials, std::uint64_t seed) {
  const std::int64_t ld = (t == Op::N ? rows : cols) + 3;
  return values(static_cast<std::size_t>(ld * (t == Op::N ? cols : rows)), spread, specials, seed);
}

TEST(DeviceSlicing, SchemeOneDgemmBitsEqualHostSlicing) {
  const std::int64_t m = 37, n = 29, k = 300;  // k: one 256-deep chunk and a tail; 2 partition blocks and a tail
  std::uint64_t seed = 1;
  for (const Target& t : kTargets)
    for (Op ta : {Op::N, Op::T})
      for (Op tb_ : {Op::N, Op::T}) {
        const auto A = operand(ta, m, k, 12, false, ++seed), B = operand(tb_, k, n, 12, false, ++seed);
        expect_scheme1_same(t, ta, tb_, m, n, k, A, B, true, true);
      }
}

TEST(DeviceSlicing, SchemeOneSpecialValuesAndSubnormalsBitsEqualHostSlicing) {
  const std::int64_t m = 20, n = 18, k = 140;
  const Target t = kTargets[1];
  for (bool special_values : {true, false}) {  // off: Inf / NaN must slice to 0 on the device as on the host
    const auto A = operand(Op::N, m, k, 30, true, 11), B = operand(Op::T, k, n, 30, true, 12);
    expect_scheme1_same(t, Op::N, Op::T, m, n, k, A, B, special_values, true);
  }
  const auto A = tiny_values(static_cast<std::size_t>((m + 3) * k), 13), B = operand(Op::N, k, n, 5, false, 14);
  expect_scheme1_same(t, Op::N, Op::N, m, n, k, A, B, true, true);
}

// gemv y = alpha op(A) x + beta y and ddot through the slice pairs: device vs host slicing.
void expect_gemv_same(const Target& t, Op trans, std::int64_t m, std::int64_t n, const std::vector<double>& A,
                      const std::vector<double>& x, std::int64_t incx, bool device_expected) {
  const std::int64_t incy = 2, leny = trans == Op::N ? m : n;
  std::vector<double> y1(static_cast<std::size_t>(leny * incy), 0.5), y2 = y1;
  tb::CallReport rh, rd;
  tb::gemv(settings(t, true), trans, m, n, -1.25, A.data(), m + 2, x.data(), incx, 0.5, y1.data(), incy, &rh);
  tb::gemv(settings(t, false), trans, m, n, -1.25, A.data(), m + 2, x.data(), incx, 0.5, y2.data(), incy, &rd);
  const std::string what = std::string("dgemv ") + (trans == Op::N ? "N" : "T") + " incx " + std::to_string(incx) +
                           " threads " + std::to_string(t.threads) + (t.gen == trn::Generation::trn2 ? " trn2" : " trn1");
  EXPECT_TRUE(same_bits(y1, y2)) << what;
  EXPECT_EQ(host_steps_named(rh.trace, "trnblas.dvec.slice"), 1) << what;
  EXPECT_EQ(host_steps_named(rd.trace, "trnblas.dvec.slice"), device_expected ? 0 : 1) << what;
  EXPECT_EQ(host_steps_named(rd.trace, "trnblas.dvec.exponents"), device_expected ? 1 : 0) << what;
  EXPECT_EQ(gpsimd_instructions(rd.trace) > 0, device_expected) << what;
}

TEST(DeviceSlicing, SlicePairsGemvAndDotBitsEqualHostSlicing) {
  const std::int64_t m = 150, n = 70;
  std::uint64_t seed = 100;
  for (const Target& t : kTargets)
    for (Op trans : {Op::N, Op::T})
      for (std::int64_t incx : {1, 3}) {
        const auto A = values(static_cast<std::size_t>((m + 2) * n), 20, false, ++seed);
        const auto x = values(static_cast<std::size_t>(std::max(m, n) * incx), 20, false, ++seed);
        expect_gemv_same(t, trans, m, n, A, x, incx, true);
      }
  // Inf / NaN / -0 and subnormals in A and x (special outputs recomputed on the host; the rest sliced).
  const auto A = values(static_cast<std::size_t>((m + 2) * n), 40, true, 7), x = tiny_values(static_cast<std::size_t>(m), 8);
  expect_gemv_same(kTargets[2], Op::T, m, n, A, x, 1, true);
  for (const Target& t : kTargets) {
    const std::int64_t len = 5000;  // 39 rows on 128 partitions and an 8-row tail
    const auto xv = values(static_cast<std::size_t>(2 * len), 25, false, ++seed), yv = values(static_cast<std::size_t>(len), 25, false, ++seed);
    tb::CallReport rh, rd;
    const double dh = tb::dot(settings(t, true), len, xv.data(), 2, yv.data(), 1, &rh);
    const double dd = tb::dot(settings(t, false), len, xv.data(), 2, yv.data(), 1, &rd);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(dh), std::bit_cast<std::uint64_t>(dd)) << "ddot threads " << t.threads;
    EXPECT_EQ(host_steps_named(rd.trace, "trnblas.dvec.exponents"), 1);
    EXPECT_EQ(host_steps_named(rd.trace, "trnblas.dvec.slice"), 0);
  }
}

TEST(DeviceSlicing, LineSpreadAtTheLimitOnTheDeviceBeyondItOnTheHost) {
  const std::int64_t n = 2100;  // >= kDeviceSlicingMinElements operand elements
  const Target t = kTargets[0];
  // x and y: 0.75 (exponent 0) and, at the same indices (so the balancing leaves them), +-2^-1022
  // (exponent -1021): spread 1022, the smallest x 2^-e = 2^-1022 is still normal: the device slices.
  std::vector<double> x(static_cast<std::size_t>(n), 0.75), y(static_cast<std::size_t>(n), 0.75);
  for (std::int64_t i = 0; i < n; i += 3) {
    x[static_cast<std::size_t>(i)] = std::ldexp(i % 2 ? 1.0 : -1.0, -1022);
    y[static_cast<std::size_t>(i)] = std::ldexp(1.0, -1022);
  }
  tb::CallReport rh, rd;
  double dh = tb::dot(settings(t, true), n, x.data(), 1, y.data(), 1, &rh);
  double dd = tb::dot(settings(t, false), n, x.data(), 1, y.data(), 1, &rd);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(dh), std::bit_cast<std::uint64_t>(dd));
  EXPECT_EQ(host_steps_named(rd.trace, "trnblas.dvec.exponents"), 1);
  EXPECT_EQ(host_steps_named(rd.trace, "trnblas.dvec.slice"), 0);
  // A subnormal 0.75 2^-1022 (exponent -1022) in both: spread 1023, x 2^-e subnormal: the host loop runs.
  x[1] = y[1] = std::ldexp(0.75, -1022);
  dh = tb::dot(settings(t, true), n, x.data(), 1, y.data(), 1, &rh);
  dd = tb::dot(settings(t, false), n, x.data(), 1, y.data(), 1, &rd);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(dh), std::bit_cast<std::uint64_t>(dd));
  EXPECT_EQ(host_steps_named(rd.trace, "trnblas.dvec.exponents"), 0);
  EXPECT_EQ(host_steps_named(rd.trace, "trnblas.dvec.slice"), 1);
}

// Inf / NaN in a line whose largest exponent is near fp64's top: only there does the exponent field
// 0x7ff leave the shift k0 within the word (elsewhere it is far below every slice), so only there
// does the zero_non_finite mask decide (for a NaN whose payload has low bits; Inf's significand 2^52
// and the default quiet NaN's bit 51 stay above every slice). With the special-value path off, Inf and
// NaN count as 0: 2^1000 * 2^1000 - 2^1000 * 2^1000 + Inf * 1 + NaN * 1 is exactly 0 on both paths.
TEST(DeviceSlicing, NonFiniteValuesInHugeLinesSliceToZero) {
  for (const Target& t : {kTargets[0], kTargets[3]}) {
    const double big = std::ldexp(1.0, 1000);
    const double nan_payload = std::bit_cast<double>(std::uint64_t{0x7ff8000000abc123});
    std::vector<double> x(2100, 0.0), y(2100, 0.0);  // zeros beyond: large enough for the device slicing
    const double x0[] = {big, -big, std::numeric_limits<double>::infinity(), nan_payload, 0.5}, y0[] = {big, big, 1.0, 1.0, 0.0};
    std::copy(x0, x0 + 5, x.begin());
    std::copy(y0, y0 + 5, y.begin());
    tb::Settings sh = settings(t, true), sd = settings(t, false);
    sh.ozaki_special_values = sd.ozaki_special_values = false;
    tb::CallReport rd;
    const double dh = tb::dot(sh, 2100, x.data(), 1, y.data(), 1);
    const double dd = tb::dot(sd, 2100, x.data(), 1, y.data(), 1, &rd);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(dh), std::bit_cast<std::uint64_t>(dd));
    EXPECT_EQ(dd, 0.0);
    EXPECT_EQ(host_steps_named(rd.trace, "trnblas.dvec.exponents"), 1);
  }
}

// Small calls keep the host loop (kDeviceSlicingMinElements): a 1000-element ddot has no slicing launch.
TEST(DeviceSlicing, SmallCallsKeepTheHostLoop) {
  const auto x = values(1000, 10, false, 31), y = values(1000, 10, false, 32);
  tb::CallReport r;
  tb::dot(settings(kTargets[0], false), 1000, x.data(), 1, y.data(), 1, &r);
  EXPECT_EQ(host_steps_named(r.trace, "trnblas.dvec.slice"), 1);
  EXPECT_EQ(gpsimd_instructions(r.trace), 0);
}

}  // namespace
