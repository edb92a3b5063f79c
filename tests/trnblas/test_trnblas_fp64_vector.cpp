// fp64 Level 1/2 slice pairs (trnblas/src/ozaki.hpp, gemv_slice_pairs; docs/trnblas.md "fp64 Levels 1
// and 2") against an exact reference: every product x_i y_i split exactly by fma (TwoProduct) and all
// the pieces added into a fixed-point big integer (no floating-point rounding at all), rounded once to
// the nearest double. The claimed bound is |fl - x^T y| <= 2.02 u |x^T y| whatever the condition
// number (u = 2^-53), so the band is two-sided around the exact value and ill-conditioned dots
// (Ogita, Rump, Oishi, "Accurate sum and dot product", SISC 26(6), 2005, Algorithm 6.1 GenDot) up to
// cond 1e30 are held to it.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "blas_reference.hpp"
#include "trn/blas/level12.hpp"

namespace {

using namespace trn::blas;
using blastest::ExactSum;
using blastest::exact_dot;
using blastest::gen_dot;

constexpr double kU = 0x1p-53;
constexpr double kBound = 2.02 * kU;

double abs_dot(const std::vector<double>& x, const std::vector<double>& y) {
  long double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) s += std::fabs(static_cast<long double>(x[i]) * y[i]);
  return static_cast<double>(s);
}

// The slice pairs at every size (rows of <= 128 multiply-adds a partition otherwise run as Dot2 on
// GpSimdE, whose bound is u |r| + gamma_k^2 |x|^T |y|: test_trnblas_ozaki, TrnblasDot2.*).
Settings slice_pairs_settings() {
  Settings s;
  s.dgemm_dot2_max_macs = 0;
  return s;
}

// Logical element i of a BLAS vector stored at increment inc.
std::vector<double> store(const std::vector<double>& v, std::int64_t inc) {
  const std::int64_t n = static_cast<std::int64_t>(v.size()), a = inc < 0 ? -inc : inc;
  std::vector<double> s(static_cast<std::size_t>(n == 0 ? 1 : (n - 1) * a + 1), -7.0);
  for (std::int64_t i = 0; i < n; ++i) s[static_cast<std::size_t>(inc > 0 ? i * inc : (n - 1 - i) * a)] = v[static_cast<std::size_t>(i)];
  return s;
}

TEST(Fp64Vector, ExactSumReferenceIsExact) {
  // Cancellation across 2000 binades and a tie: the reference itself must be right.
  ExactSum s;
  s.add(0x1p1000);
  s.add(1.0);
  s.add(-0x1p1000);
  s.add(0x1p-60);
  EXPECT_EQ(s.rounded(), 1.0);  // 1 + 2^-60 rounds to 1
  ExactSum t;
  t.add(1.0);
  t.add(0x1p-53);
  t.add(0x1p-200);  // just above the tie: rounds up
  EXPECT_EQ(t.rounded(), 1.0 + 0x1p-52);
  ExactSum z;
  z.add(-3.5);
  z.add(0x1p-70);
  EXPECT_EQ(z.rounded(), -3.5);
}

// Property sweep: n = 1..300, several increments, data over wide exponent ranges.
TEST(Fp64Vector, DotWithinTwoSidedBandForEveryLengthAndIncrement) {
  Settings s = slice_pairs_settings();
  std::mt19937_64 g(20261204);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> ex(-60, 60);
  const std::int64_t incs[][2] = {{1, 1}, {3, 1}, {-2, 1}, {1, -1}, {-1, -3}};
  for (std::int64_t n = 1; n <= 300; ++n) {
    std::vector<double> x(static_cast<std::size_t>(n)), y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = std::ldexp(u(g), n % 3 == 0 ? ex(g) : 0);
      y[i] = std::ldexp(u(g), n % 5 == 0 ? ex(g) : 0);
    }
    const double ref = exact_dot(x, y);
    const auto& inc = incs[n % 5];
    const std::vector<double> xs = store(x, inc[0]), ys = store(y, inc[1]);
    const double r = dot(s, n, xs.data(), inc[0], ys.data(), inc[1]);
    EXPECT_LE(std::fabs(r - ref), kBound * std::fabs(ref)) << "n=" << n << " incx=" << inc[0] << " incy=" << inc[1];
  }
}

TEST(Fp64Vector, IllConditionedDotsStayWithinTheRelativeBound) {
  Settings s = slice_pairs_settings();
  std::mt19937_64 g(7);
  for (double c : {1e10, 1e13, 1e16, 1e20, 1e30}) {
    for (std::size_t n : {10u, 100u, 1000u}) {
      std::vector<double> x, y;
      gen_dot(n, c, g, x, y);
      const double ref = exact_dot(x, y);
      CallReport rep;
      const double r = dot(s, static_cast<std::int64_t>(n), x.data(), 1, y.data(), 1, &rep);
      const double cond = 2 * abs_dot(x, y) / std::fabs(ref);
      EXPECT_LE(std::fabs(r - ref), kBound * std::fabs(ref)) << "c=" << c << " cond=" << cond << " n=" << n;
      EXPECT_FALSE(rep.ozaki_capped);
      EXPECT_NE(rep.plan.find("slice_pairs"), std::string::npos) << rep.plan;
    }
  }
}

TEST(Fp64Vector, GemvTrsvSymvWithinBoundsAgainstExactRows) {
  Settings s = slice_pairs_settings();
  std::mt19937_64 g(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::int64_t m : {1, 7, 64, 130}) {
    for (std::int64_t n : {1, 5, 64, 300}) {
      std::vector<double> A(static_cast<std::size_t>(m * n)), x(static_cast<std::size_t>(n)), y0(static_cast<std::size_t>(m));
      for (auto& v : A) v = std::ldexp(u(g), static_cast<int>(g() % 40) - 20);
      for (auto& v : x) v = u(g);
      for (auto& v : y0) v = u(g);
      for (const double beta : {0.0, 0.75}) {
        const double alpha = 1.5;
        std::vector<double> y = y0;
        const std::vector<double> ys = store(y, -2), xs = store(x, 3);
        std::vector<double> yw = ys;
        gemv(s, Op::N, m, n, alpha, A.data(), m, xs.data(), 3, beta, yw.data(), -2);
        for (std::int64_t i = 0; i < m; ++i) {
          std::vector<double> row(static_cast<std::size_t>(n));
          for (std::int64_t j = 0; j < n; ++j) row[static_cast<std::size_t>(j)] = A[static_cast<std::size_t>(i + j * m)];
          const double ax = exact_dot(row, x);
          const double want = alpha * ax + beta * y0[static_cast<std::size_t>(i)];
          const double got = yw[static_cast<std::size_t>((m - 1 - i) * 2)];
          // fold 2.02u |Ax|, alpha's and beta's products and the add: <= 4.1 u (|alpha Ax| + |beta y|).
          const double tol = 4.1 * kU * (std::fabs(alpha * ax) + std::fabs(beta * y0[static_cast<std::size_t>(i)]));
          EXPECT_LE(std::fabs(got - want), tol) << m << "x" << n << " row " << i << " beta " << beta;
        }
      }
    }
  }
}

TEST(Fp64Vector, TransposedGemvAndAsumNrm2) {
  Settings s = slice_pairs_settings();
  std::mt19937_64 g(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const std::int64_t m = 40, n = 33;
  std::vector<double> A(static_cast<std::size_t>(m * n)), x(static_cast<std::size_t>(m)), y(static_cast<std::size_t>(n));
  for (auto& v : A) v = u(g);
  for (auto& v : x) v = u(g) * 1e-3;
  gemv(s, Op::T, m, n, 1.0, A.data(), m, x.data(), 1, 0.0, y.data(), 1);
  for (std::int64_t j = 0; j < n; ++j) {
    const std::vector<double> col(A.begin() + j * m, A.begin() + (j + 1) * m);
    const double ref = exact_dot(col, x);
    EXPECT_LE(std::fabs(y[static_cast<std::size_t>(j)] - ref), kBound * std::fabs(ref));
  }
  std::vector<double> ones(x.size(), 1.0), ax(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) ax[i] = std::fabs(x[i]);
  const double sa = exact_dot(ax, ones);
  EXPECT_LE(std::fabs(asum(s, m, x.data(), 1) - sa), kBound * sa);
  const double ss = exact_dot(x, x), nr = nrm2(s, m, x.data(), 1);
  // sqrt of a sum with relative error 2.02u, then the root's rounding.
  EXPECT_LE(std::fabs(nr - std::sqrt(ss)), (1.01 * kU + kU) * std::sqrt(ss) * 1.0000001);
}

TEST(Fp64Vector, ExtremeExponentsBalancedOrCappedAsDocumented) {
  Settings s = slice_pairs_settings();
  // Balancing: a huge x_i meets a tiny y_i and the reverse: exact.
  const std::vector<double> x = {1.7e308, 4.9e-300}, y = {4.9e-300, 1.7e300};
  EXPECT_EQ(dot(s, 2, x.data(), 1, y.data(), 1), exact_dot(x, y));
  // Products 2^1020, 2^-2000 and 1: after the balancing x spans ~1510 binades, more than
  // kVectorMaxSlices keep: capped (reported), the 2^-2000 term truncated, far below u 2^1020.
  const std::vector<double> xc = {0x1p1000, 0x1p-1000, 1.0}, yc = {0x1p20, 0x1p-1000, 1.0};
  CallReport rep;
  EXPECT_EQ(dot(s, 3, xc.data(), 1, yc.data(), 1, &rep), exact_dot(xc, yc));
  EXPECT_TRUE(rep.ozaki_capped);
  EXPECT_FALSE(rep.ozaki_cap_note.empty());
  // A cancellation across 512 binades (after the balancing) stays exact: 1e308 - 1e308 + 2.5.
  const std::vector<double> xw = {-1e308, 1e308, 5.0}, yw = {1.0, 1.0, 0.5};
  CallReport rw;
  EXPECT_EQ(dot(s, 3, xw.data(), 1, yw.data(), 1, &rw), 2.5);
  EXPECT_FALSE(rw.ozaki_capped);
}

TEST(Fp64Vector, SpecialValuesPropagateLikeIeeeAndLikeTheOzakiPath) {
  Settings s = slice_pairs_settings(), oz;
  oz.fp64_vector = Fp64VectorAlgorithm::ozaki_gemm;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::vector<double>> xs = {{1, inf, 2}, {1, inf, 2}, {nan, 1, 1}, {inf, -inf, 0}, {1e308, 1e308, 1}, {-1e308, 1e308, 5}};
  const std::vector<std::vector<double>> ys = {{1, 2, 3}, {1, 0, 3}, {1, 1, 1}, {1, 1, 1}, {10, 10, 1}, {1, 1, 0.5}};
  for (std::size_t c = 0; c < xs.size(); ++c) {
    double ieee = 0;
    for (std::size_t i = 0; i < 3; ++i) ieee += xs[c][i] * ys[c][i];
    const double r = dot(s, 3, xs[c].data(), 1, ys[c].data(), 1), ro = dot(oz, 3, xs[c].data(), 1, ys[c].data(), 1);
    EXPECT_EQ(std::isnan(r), std::isnan(ieee)) << c;
    if (!std::isnan(ieee)) {
      EXPECT_EQ(r, ieee) << c;  // +-inf, or the exact value of the last case
    }
    EXPECT_EQ(std::isnan(r), std::isnan(ro)) << c;
    if (!std::isnan(r)) {
      EXPECT_EQ(r, ro) << c;
    }
  }
}

TEST(Fp64Vector, DeterministicAcrossThreadsAndCoresAndMatchesForcedKnob) {
  std::mt19937_64 g(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const std::int64_t n = 700;
  std::vector<double> A(static_cast<std::size_t>(n * 90)), x(static_cast<std::size_t>(n));
  for (auto& v : A) v = u(g);
  for (auto& v : x) v = u(g);
  auto run = [&](const Settings& s, CallReport* rep = nullptr) {
    std::vector<double> y(90, 0.5);
    gemv(s, Op::T, n, 90, -1.25, A.data(), n, x.data(), 1, 2.0, y.data(), 1, rep);
    y.push_back(dot(s, n, A.data(), 1, x.data(), -1));
    return y;
  };
  Settings s1, s2, c2, forced;
  s1.host_threads = 1;
  s2.host_threads = 2;
  c2.num_cores = 2;
  forced.fp64_vector = Fp64VectorAlgorithm::slice_pairs;
  const std::vector<double> a = run(s1);
  EXPECT_EQ(a, run(s2));
  EXPECT_EQ(a, run(c2));
  EXPECT_EQ(a, run(forced));
  Settings oz;
  oz.fp64_vector = Fp64VectorAlgorithm::ozaki_gemm;
  CallReport ro, rs;
  run(oz, &ro);
  run(s1, &rs);
  EXPECT_NE(ro.plan.find("ozaki_gemm"), std::string::npos) << ro.plan;
  EXPECT_NE(rs.plan.find("slice_pairs"), std::string::npos) << rs.plan;
  EXPECT_LT(rs.tensor_passes, ro.tensor_passes);
}

}  // namespace
