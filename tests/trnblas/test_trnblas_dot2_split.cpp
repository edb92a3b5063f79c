// Long fp64 dot products as Dot2 split over partitions (trnblas/src/ozaki.hpp, dot2_split; docs/trnblas.md
// "Long fp64 dot products: Dot2 split over partitions"): bit for bit against a scalar host model of the
// documented algorithm (chunk sizes, chunk order, the combine), within the stated bound
// |r - x^T y| <= u |x^T y| + 2 gamma_{k+2}^2 |x|^T |y| against an exact big-integer reference on
// ill-conditioned dots (GenDot, cond up to 1e30: a plain or a one-level compensated sum in another order
// exceeds it there), IEEE special values, and the size limits that keep the other algorithms.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "blas_reference.hpp"
#include "trn/blas/level12.hpp"

namespace {

using namespace trn::blas;
using blastest::exact_dot;
using blastest::gen_dot;

constexpr double kU = 0x1p-53;

double gamma(std::int64_t n) { return static_cast<double>(n) * kU / (1 - static_cast<double>(n) * kU); }

double abs_dot(const std::vector<double>& x, const std::vector<double>& y) {
  long double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) s += std::fabs(static_cast<long double>(x[i]) * y[i]);
  return static_cast<double>(s);
}

// The documented algorithm, scalar: c = ceil(sqrt(k)) chunks (k <= 128^2 here), the first
// k - c (kc - 1) of kc = ceil(k / c) terms, Dot2 per chunk, then the chunks' (P, E) combined in order.
double model_split_dot(const std::vector<double>& x, const std::vector<double>& y, double alpha, double beta, double r0) {
  const auto k = static_cast<std::int64_t>(x.size());
  std::int64_t c = 1;
  while (c * c < k) ++c;
  const std::int64_t kc = (k + c - 1) / c, longer = k - c * (kc - 1);
  std::vector<double> P(static_cast<std::size_t>(c)), E(P.size());
  std::int64_t i0 = 0;
  for (std::int64_t p = 0; p < c; ++p) {
    const std::int64_t len = p < longer ? kc : kc - 1;
    double Pp = x[static_cast<std::size_t>(i0)] * y[static_cast<std::size_t>(i0)];
    double Ep = std::fma(x[static_cast<std::size_t>(i0)], y[static_cast<std::size_t>(i0)], -Pp);
    for (std::int64_t i = i0 + 1; i < i0 + len; ++i) {
      const double a = x[static_cast<std::size_t>(i)], b = y[static_cast<std::size_t>(i)];
      const double h = a * b, rr = std::fma(a, b, -h);
      const double s = Pp + h, t = s - Pp, q = (Pp - (s - t)) + (h - t);
      Pp = s;
      Ep = Ep + (q + rr);
    }
    P[static_cast<std::size_t>(p)] = Pp;
    E[static_cast<std::size_t>(p)] = Ep;
    i0 += len;
  }
  double Pt = P[0], Et = E[0];
  for (std::int64_t p = 1; p < c; ++p) {
    const double s = Pt + P[static_cast<std::size_t>(p)], t = s - Pt;
    const double q = (Pt - (s - t)) + (P[static_cast<std::size_t>(p)] - t);
    Pt = s;
    Et = Et + (q + E[static_cast<std::size_t>(p)]);
  }
  const double res = std::isfinite(Pt) ? Pt + Et : Pt;
  return beta == 0.0 ? alpha * res : alpha * res + beta * r0;
}

// Logical element i of a BLAS vector stored at increment inc.
std::vector<double> store(const std::vector<double>& v, std::int64_t inc) {
  const std::int64_t n = static_cast<std::int64_t>(v.size()), a = inc < 0 ? -inc : inc;
  std::vector<double> s(static_cast<std::size_t>((n - 1) * a + 1), -7.0);
  for (std::int64_t i = 0; i < n; ++i)
    s[static_cast<std::size_t>(inc > 0 ? i * inc : (n - 1 - i) * a)] = v[static_cast<std::size_t>(i)];
  return s;
}

// The C API's and the BLAS shim's settings (Settings' own default keeps the Ozaki scheme at every size).
Settings dot2_settings() {
  Settings s;
  s.dgemm_dot2_max_macs = kDot2MaxMacs;
  return s;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b)); }

TEST(Dot2Split, DotAndSingleOutputGemvMatchTheDocumentedAlgorithmBitForBit) {
  std::mt19937_64 g(20261206);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> ex(-40, 40);
  const std::int64_t incs[][2] = {{1, 1}, {3, 1}, {-2, 1}, {1, -1}, {2, 5}};
  int case_no = 0;
  for (std::int64_t k : {129, 130, 143, 144, 145, 200, 243, 244, 500, 1000, 2048, 4096}) {
    std::vector<double> x(static_cast<std::size_t>(k)), y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = std::ldexp(u(g), ex(g));
      y[i] = std::ldexp(u(g), ex(g));
    }
    const auto& inc = incs[case_no++ % 5];
    const std::vector<double> xs = store(x, inc[0]), ys = store(y, inc[1]);
    CallReport rep;
    const double r = dot(dot2_settings(), k, xs.data(), inc[0], ys.data(), inc[1], &rep);
    EXPECT_TRUE(same_bits(r, model_split_dot(x, y, 1.0, 0.0, 0.0))) << "k=" << k << " incx=" << inc[0];
    EXPECT_NE(rep.plan.find("dot2_split"), std::string::npos) << rep.plan;
    // gemv with one output: y0 = alpha A^T x + beta y0, A k x 1 (its column read with stride 1).
    double y0 = 0.375;
    gemv(dot2_settings(), Op::T, k, 1, -1.5, y.data(), k, x.data(), 1, 0.625, &y0, 1);
    EXPECT_TRUE(same_bits(y0, model_split_dot(y, x, -1.5, 0.625, 0.375))) << "gemv k=" << k;
  }
}

TEST(Dot2Split, IllConditionedDotsStayWithinTheStatedBound) {
  std::mt19937_64 g(11);
  int beyond_plain_bound = 0;
  for (double cond : {1e8, 1e12, 1e16, 1e20, 1e30}) {
    for (std::size_t k : {129u, 244u, 1000u, 3000u}) {
      std::vector<double> x, y;
      gen_dot(k, cond, g, x, y);
      const double ref = exact_dot(x, y), mag = abs_dot(x, y);
      CallReport rep;
      const double r = dot(dot2_settings(), static_cast<std::int64_t>(k), x.data(), 1, y.data(), 1, &rep);
      const double g2 = gamma(static_cast<std::int64_t>(k) + 2);
      EXPECT_LE(std::fabs(r - ref), kU * std::fabs(ref) + 2 * g2 * g2 * mag) << "cond=" << cond << " k=" << k;
      EXPECT_NE(rep.plan.find("dot2_split"), std::string::npos) << rep.plan;
      // The recursive sum in the same order, for contrast: the bound is what keeps these right.
      double plain = 0;
      for (std::size_t i = 0; i < k; ++i) plain += x[i] * y[i];
      if (std::fabs(plain - ref) > kU * std::fabs(ref) + 2 * g2 * g2 * mag) ++beyond_plain_bound;
    }
  }
  EXPECT_GT(beyond_plain_bound, 0);  // the data can tell a compensated sum from a plain one
}

TEST(Dot2Split, InfAndNanPropagateAsAnIeeeDot) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::int64_t k = 300;
  std::vector<double> x(k, 1.0), y(k, 0.5);
  x[3] = inf;  // chunk 0
  EXPECT_EQ(dot(dot2_settings(), k, x.data(), 1, y.data(), 1), inf);
  x[290] = -inf;  // the last chunk: Inf - Inf
  EXPECT_TRUE(std::isnan(dot(dot2_settings(), k, x.data(), 1, y.data(), 1)));
  x[290] = 1.0;
  y[3] = 0.0;  // Inf * 0
  EXPECT_TRUE(std::isnan(dot(dot2_settings(), k, x.data(), 1, y.data(), 1)));
  y[3] = 0.5;
  x[3] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(dot(dot2_settings(), k, x.data(), 1, y.data(), 1)));
}

TEST(Dot2Split, SizeLimitsAndKnobsKeepTheOtherAlgorithms) {
  const auto plan_of = [](const Settings& s, std::int64_t k) {
    std::vector<double> x(static_cast<std::size_t>(k), 0.5), y(x.size(), 3.0);
    CallReport rep;
    const double r = dot(s, k, x.data(), 1, y.data(), 1, &rep);
    EXPECT_EQ(r, 1.5 * static_cast<double>(k));
    return rep.plan;
  };
  EXPECT_NE(plan_of(dot2_settings(), 128).find("dot2_gpsimd"), std::string::npos);  // one partition, as before
  EXPECT_NE(plan_of(dot2_settings(), 129).find("dot2_split"), std::string::npos);
  EXPECT_NE(plan_of(dot2_settings(), 4096).find("dot2_split"), std::string::npos);
  EXPECT_NE(plan_of(dot2_settings(), 5000).find("slice_pairs"), std::string::npos);  // 71 + 71 - 1 > 128
  Settings off = dot2_settings();
  off.dgemm_dot2_max_macs = 0;
  EXPECT_NE(plan_of(off, 200).find("slice_pairs"), std::string::npos);
  Settings forced = dot2_settings();
  forced.fp64_vector = Fp64VectorAlgorithm::slice_pairs;
  EXPECT_NE(plan_of(forced, 200).find("slice_pairs"), std::string::npos);
}

}  // namespace
