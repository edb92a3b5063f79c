// fp64 rank-1 updates on the host side (dger, dsyr, dspr; trnblas/src/level2.cpp, rank1_term): every
// element equals, bit for bit, what the Ozaki DGEMM m x n x 1 (alpha = beta = 1) and the SYRKX with
// k = 1 gave before the change -- those routines are still public and are the reference here -- over
// random data, exact zeros of both signs, products that overflow or land in fp64's subnormal range
// (where the DGEMM rounds twice), Inf / NaN, negative increments and both triangles; the call is one
// host round trip (no TensorE pass).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "trn/blas/blas.hpp"
#include "trn/blas/level12.hpp"
#include "trn/blas/level3.hpp"

namespace {

namespace tb = trn::blas;

// The Ozaki scheme (and the fp64 slice pairs) at every size: small products otherwise run as Dot2 on
// GpSimdE (trnblas/src/ozaki.hpp, gemm_dot2; tested in test_trnblas_ozaki, TrnblasDot2.*).
tb::Settings ozaki_only() {
  tb::Settings s;
  s.dgemm_dot2_max_macs = 0;
  return s;
}
using tb::Op;
using tb::Uplo;

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Values over +-spread binades around 2^centre, with exact zeros (both signs) and, when `special`,
// one Inf and one NaN.
std::vector<double> values(std::size_t count, int centre, int spread, bool special, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<int> ex(-spread, spread);
  std::uniform_real_distribution<double> m(-1.0, 1.0);
  std::vector<double> v(count);
  for (std::size_t i = 0; i < count; ++i) {
    v[i] = std::ldexp(m(g), centre + ex(g));
    if (i % 11 == 3) v[i] = 0.0;
    if (i % 13 == 5) v[i] = -0.0;
  }
  if (special && count > 4) {
    v[1] = -std::numeric_limits<double>::infinity();
    v[count - 2] = std::numeric_limits<double>::quiet_NaN();
  }
  return v;
}

std::int64_t tensor_passes(const tb::CallReport& r) { return r.tensor_passes; }

struct Data {
  int centre_x, centre_y;  // binade centres: products near 2^(cx + cy)
  int spread;
  bool special;
};
// Ordinary; products in the subnormal range and below; overflowing products; wide spreads with Inf / NaN.
const Data kData[] = {{0, 0, 4, false}, {-530, -520, 30, false}, {-600, -500, 8, false}, {520, 500, 8, false},
                      {0, 0, 200, true}};

TEST(Fp64RankOne, GerEqualsTheOzakiRank1Gemm) {
  std::uint64_t seed = 1;
  for (const Data& d : kData)
    for (auto [incx, incy] : {std::pair{1, 1}, std::pair{-2, 3}})
      for (const double alpha : {1.0, -0.75}) {
        const std::int64_t m = 37, n = 23, lda = 40;
        const std::size_t sx = static_cast<std::size_t>((m - 1) * std::abs(incx) + 1);
        const std::size_t sy = static_cast<std::size_t>((n - 1) * std::abs(incy) + 1);
        const auto x = values(sx, d.centre_x, d.spread, d.special, ++seed);
        const auto y = values(sy, d.centre_y, d.spread, d.special, ++seed);
        const auto A0 = values(static_cast<std::size_t>(lda * n), d.centre_x + d.centre_y, d.spread, false, ++seed);
        // Reference: t = alpha y (contiguous, in element order), then the Ozaki DGEMM x t^T + A.
        std::vector<double> xs(static_cast<std::size_t>(m)), t(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < m; ++i)
          xs[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(incx > 0 ? i * incx : (m - 1 - i) * -incx)];
        for (std::int64_t j = 0; j < n; ++j)
          t[static_cast<std::size_t>(j)] = alpha * y[static_cast<std::size_t>(incy > 0 ? j * incy : (n - 1 - j) * -incy)];
        std::vector<double> ref = A0, got = A0;
        const tb::Settings s = ozaki_only();
        tb::dgemm(s, Op::T, Op::N, m, n, 1, 1.0, xs.data(), 1, t.data(), 1, 1.0, ref.data(), lda);
        tb::CallReport r;
        tb::ger(s, m, n, alpha, x.data(), incx, y.data(), incy, got.data(), lda, &r);
        const std::string what = "centre " + std::to_string(d.centre_x) + "+" + std::to_string(d.centre_y) + " incx " +
                                 std::to_string(incx) + " alpha " + std::to_string(alpha);
        EXPECT_TRUE(same_bits(ref, got)) << what;
        EXPECT_EQ(tensor_passes(r), 0) << what;
        EXPECT_GE(r.profile.host_steps, 1) << what;
      }
}

TEST(Fp64RankOne, SyrAndSprEqualTheSyrkxWithOneColumn) {
  std::uint64_t seed = 100;
  const std::int64_t n = 29, lda = 31;
  for (const Data& d : kData)
    for (const Uplo uplo : {Uplo::upper, Uplo::lower})
      for (const int incx : {1, -2}) {
        const double alpha = -1.25;
        const std::size_t sx = static_cast<std::size_t>((n - 1) * std::abs(incx) + 1);
        const auto x = values(sx, d.centre_x, d.spread, d.special, ++seed);
        const auto A0 = values(static_cast<std::size_t>(lda * n), 2 * d.centre_x, d.spread, false, ++seed);
        std::vector<double> xs(static_cast<std::size_t>(n)), t(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) {
          xs[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(incx > 0 ? i * incx : (n - 1 - i) * -incx)];
          t[static_cast<std::size_t>(i)] = alpha * xs[static_cast<std::size_t>(i)];
        }
        std::vector<double> ref = A0, got = A0;
        const tb::Settings s = ozaki_only();
        tb::dsyrkx(s, uplo, Op::N, n, 1, 1.0, xs.data(), n, t.data(), n, 1.0, ref.data(), lda);
        tb::CallReport r;
        tb::syr(s, uplo, n, alpha, x.data(), incx, got.data(), lda, &r);
        const std::string what = "centre " + std::to_string(d.centre_x) + (uplo == Uplo::upper ? " U" : " L") +
                                 " incx " + std::to_string(incx);
        EXPECT_TRUE(same_bits(ref, got)) << what;  // the other triangle and the pad rows untouched as well
        EXPECT_EQ(tensor_passes(r), 0) << what;
        // Packed: the stored triangle of the same update.
        std::vector<double> ap, apref;
        for (std::int64_t j = 0; j < n; ++j)
          for (std::int64_t i = uplo == Uplo::upper ? 0 : j; i < (uplo == Uplo::upper ? j + 1 : n); ++i) {
            ap.push_back(A0[static_cast<std::size_t>(i + j * lda)]);
            apref.push_back(ref[static_cast<std::size_t>(i + j * lda)]);
          }
        tb::spr(s, uplo, n, alpha, x.data(), incx, ap.data());
        EXPECT_TRUE(same_bits(apref, ap)) << what << " packed";
      }
}

}  // namespace
