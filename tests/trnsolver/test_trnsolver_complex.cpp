// Complex Cholesky and LU (C, Z: potrf, potrs, potri, getrf, getrs and their C entry points) against
// LAPACKE (zpotrf, zpotri, zgetrf in double complex: the oracle, never in the library) and long-double
// residuals computed here. Bounds of docs/trnsolver.md "Complex Cholesky and LU", two-sided: the
// error is below c n u (as accurate as documented) and above u / 64 for C (it really ran in fp32).
#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "factor_oracles.hpp"
#include "trn/solver/complex_factor.hpp"
#include "trnsolver.h"

namespace ts = trn::solver;

namespace {

using LC = std::complex<long double>;
using ZC = std::complex<double>;
using factor_oracle::cholesky_backward;
using factor_oracle::frob;
using factor_oracle::lu_backward;
using factor_oracle::solve_backward;

template <class T>
using RealOf = typename T::value_type;
template <class T>
double u_of() {
  return std::is_same_v<RealOf<T>, float> ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
}
// docs/trnsolver.md: backward errors <= c n u with c = 4 (potrf, getrf) and 8 (solves), potri
// ||A X - I|| <= c n kappa u.
constexpr double kCFactor = 4.0, kCSolve = 8.0;

template <class T>
std::vector<T> random_matrix(std::int64_t rows, std::int64_t cols, std::int64_t ld, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd(0.0, 1.0);
  std::vector<T> a(static_cast<std::size_t>(ld * std::max<std::int64_t>(cols, 1)), T(0));
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) {
      const double re = nd(rng), im = nd(rng);
      a[i + j * ld] = T(static_cast<RealOf<T>>(re), static_cast<RealOf<T>>(im));
    }
  return a;
}

// Hermitian positive definite: B^H B / n + I (kappa modest), both triangles stored.
template <class T>
std::vector<T> hpd_matrix(std::int64_t n, std::int64_t lda, std::uint64_t seed) {
  const std::vector<T> b = random_matrix<T>(n, n, n, seed);
  std::vector<T> a(static_cast<std::size_t>(lda * n), T(0));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      LC sum = 0;
      for (std::int64_t k = 0; k < n; ++k) sum += std::conj(LC(b[k + i * n])) * LC(b[k + j * n]);
      sum /= static_cast<long double>(n);
      if (i == j) sum = LC(sum.real() + 1.0L, 0);
      a[i + j * lda] = T(static_cast<RealOf<T>>(sum.real()), static_cast<RealOf<T>>(sum.imag()));
    }
  for (std::int64_t j = 0; j < n; ++j)  // exactly Hermitian after rounding
    for (std::int64_t i = j + 1; i < n; ++i) a[j + i * lda] = std::conj(a[i + j * lda]);
  return a;
}

template <class T>
class ComplexFactor : public ::testing::Test {};
using Types = ::testing::Types<std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(ComplexFactor, Types);

// One block, exactly two blocks, and three (the last narrower) on trn1 (pmax 128); both triangles.
TYPED_TEST(ComplexFactor, PotrfBackwardErrorAndFactorAgainstLapacke) {
  using T = TypeParam;
  const double u = u_of<T>();
  for (std::int64_t n : {7, 256, 300}) {
    for (bool lower : {true, false}) {
      const std::int64_t lda = n + 2;
      const std::vector<T> a0 = hpd_matrix<T>(n, lda, 11 + static_cast<std::uint64_t>(n));
      std::vector<T> a = a0;
      ts::Settings s;
      ts::CallReport rep;
      ASSERT_EQ(ts::potrf(s, lower ? ts::Uplo::lower : ts::Uplo::upper, n, a.data(), lda, &rep), 0);
      const double be = cholesky_backward(n, a0.data(), a.data(), lda, lower);
      EXPECT_LE(be, kCFactor * static_cast<double>(n) * u) << "n " << n << " lower " << lower;
      if (std::is_same_v<RealOf<T>, float>) {
        EXPECT_GE(be, u / 64) << "n " << n;
      }
      // The other triangle is untouched.
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < n; ++i)
          if (lower ? i < j : i > j) {
            ASSERT_EQ(a[i + j * lda], a0[i + j * lda]);
          }
      // Against LAPACKE zpotrf in double complex (the factor is unique; kappa(A) is small).
      std::vector<ZC> z(a0.begin(), a0.end());
      ASSERT_EQ(LAPACKE_zpotrf(LAPACK_COL_MAJOR, lower ? 'L' : 'U', static_cast<lapack_int>(n),
                               reinterpret_cast<lapack_complex_double*>(z.data()), static_cast<lapack_int>(lda)),
                0);
      const long double nz = frob(n, n, [&](std::int64_t i, std::int64_t j) {
        return (lower ? i >= j : i <= j) ? LC(z[i + j * lda]) : LC(0);
      });
      const long double d = frob(n, n, [&](std::int64_t i, std::int64_t j) {
        return (lower ? i >= j : i <= j) ? LC(a[i + j * lda]) - LC(z[i + j * lda]) : LC(0);
      });
      EXPECT_LE(double(d / nz), 16.0 * static_cast<double>(n) * u);
      EXPECT_EQ(rep.profile.tensor_flops > 0.0, n > 128) << "the TRSM/HERK (more than one block) run on TensorE";
      EXPECT_GT(rep.profile.host_steps, 0);
      EXPECT_NE(rep.plan.find(std::string(1, std::is_same_v<RealOf<T>, float> ? 'c' : 'z') + "potrf"),
                std::string::npos);
    }
  }
}

TYPED_TEST(ComplexFactor, PotrfInfoMatchesLapackeForIndefiniteAndNonFinite) {
  using T = TypeParam;
  const std::int64_t n = 150, lda = n;
  for (std::int64_t bad : {0, 5, 140}) {
    std::vector<T> a0 = hpd_matrix<T>(n, lda, 3);
    a0[bad + bad * lda] = T(-50, 0);
    std::vector<ZC> z(a0.begin(), a0.end());
    const lapack_int ref = LAPACKE_zpotrf(LAPACK_COL_MAJOR, 'L', static_cast<lapack_int>(n),
                                          reinterpret_cast<lapack_complex_double*>(z.data()), static_cast<lapack_int>(lda));
    std::vector<T> a = a0;
    EXPECT_EQ(ts::potrf(ts::Settings{}, ts::Uplo::lower, n, a.data(), lda), ref);
    EXPECT_EQ(ref, bad + 1);
  }
  std::vector<T> a = hpd_matrix<T>(n, lda, 4);
  a[130 + 130 * lda] = T(std::numeric_limits<RealOf<T>>::quiet_NaN(), 0);
  EXPECT_EQ(ts::potrf(ts::Settings{}, ts::Uplo::upper, n, a.data(), lda), 131);
}

TYPED_TEST(ComplexFactor, PotrsAndPotriResiduals) {
  using T = TypeParam;
  const double u = u_of<T>();
  for (bool lower : {true, false}) {
    const std::int64_t n = 140, nrhs = 3, lda = n + 1, ldb = n + 4;
    const auto uplo = lower ? ts::Uplo::lower : ts::Uplo::upper;
    const std::vector<T> a0 = hpd_matrix<T>(n, lda, 21), b0 = random_matrix<T>(n, nrhs, ldb, 22);
    std::vector<T> f = a0, x = b0;
    ts::Settings s;
    ASSERT_EQ(ts::potrf(s, uplo, n, f.data(), lda), 0);
    ts::potrs(s, uplo, n, nrhs, f.data(), lda, x.data(), ldb);
    const double r = solve_backward(n, nrhs, a0.data(), lda, [&](std::int64_t i, std::int64_t k) {
      return LC(a0[i + k * lda]);
    }, b0.data(), x.data(), ldb);
    EXPECT_LE(r, kCSolve * static_cast<double>(n) * u);
    // potri: A X = I with X Hermitian from its uplo triangle; against LAPACKE zpotri.
    std::vector<T> inv = f;
    ASSERT_EQ(ts::potri(s, uplo, n, inv.data(), lda), 0);
    auto X = [&](std::int64_t i, std::int64_t j) -> LC {
      const bool stored = lower ? i >= j : i <= j;
      return stored ? LC(inv[i + j * lda]) : std::conj(LC(inv[j + i * lda]));
    };
    const double ri = double(frob(n, n, [&](std::int64_t i, std::int64_t j) {
      LC t = i == j ? LC(1) : LC(0);
      for (std::int64_t k = 0; k < n; ++k) t -= LC(a0[i + k * lda]) * X(k, j);
      return t;
    }));
    EXPECT_LE(ri, kCSolve * static_cast<double>(n) * 16 * u);  // kappa(A) <= ~5 for B^H B / n + I
    std::vector<ZC> z(f.begin(), f.end());
    ASSERT_EQ(LAPACKE_zpotri(LAPACK_COL_MAJOR, lower ? 'L' : 'U', static_cast<lapack_int>(n),
                             reinterpret_cast<lapack_complex_double*>(z.data()), static_cast<lapack_int>(lda)),
              0);
    const double dz = double(frob(n, n, [&](std::int64_t i, std::int64_t j) {
      return (lower ? i >= j : i <= j) ? LC(inv[i + j * lda]) - LC(z[i + j * lda]) : LC(0);
    }));
    EXPECT_LE(dz, kCSolve * static_cast<double>(n) * 16 * u * std::sqrt(static_cast<double>(n)));
  }
  std::vector<T> zero_diag(9, T(1));
  zero_diag[4] = T(0);
  EXPECT_EQ(ts::potri(ts::Settings{}, ts::Uplo::lower, 3, zero_diag.data(), 3), 2);
  EXPECT_EQ(zero_diag[0], T(1)) << "A untouched when the factor is singular";
}

TYPED_TEST(ComplexFactor, GetrfBackwardErrorPivotsAndInfoAgainstLapacke) {
  using T = TypeParam;
  const double u = u_of<T>();
  for (auto [m, n] : {std::pair<std::int64_t, std::int64_t>{9, 9}, {300, 260}, {140, 270}}) {
    const std::int64_t lda = m + 3, k = std::min(m, n);
    const std::vector<T> a0 = random_matrix<T>(m, n, lda, 31 + static_cast<std::uint64_t>(m));
    std::vector<T> a = a0;
    std::vector<int> ipiv(static_cast<std::size_t>(k));
    ts::CallReport rep;
    ASSERT_EQ(ts::getrf(ts::Settings{}, m, n, a.data(), lda, ipiv.data(), &rep), 0);
    const double be = lu_backward(m, n, a0.data(), a.data(), lda, ipiv.data());
    EXPECT_LE(be, kCFactor * static_cast<double>(std::max(m, n)) * u) << m << "x" << n;
    if (std::is_same_v<RealOf<T>, float>) {
      EXPECT_GE(be, u / 64);
    }
    std::vector<ZC> z(a0.begin(), a0.end());
    std::vector<lapack_int> zp(static_cast<std::size_t>(k));
    ASSERT_EQ(LAPACKE_zgetrf(LAPACK_COL_MAJOR, static_cast<lapack_int>(m), static_cast<lapack_int>(n),
                             reinterpret_cast<lapack_complex_double*>(z.data()), static_cast<lapack_int>(lda), zp.data()),
              0);
    if (std::is_same_v<RealOf<T>, double>) {  // same pivot rule in the same precision: the same pivots
      for (std::int64_t i = 0; i < k; ++i) ASSERT_EQ(ipiv[i], zp[i]) << "pivot " << i;
    }
    if (n > 128) {
      EXPECT_GT(rep.profile.tensor_flops, 0.0);
    }
  }
  // Exactly singular: column 3 zero (info 4, factorization completed), as LAPACKE.
  const std::int64_t n = 140;
  std::vector<T> a0 = random_matrix<T>(n, n, n, 5);
  for (std::int64_t i = 0; i < n; ++i) a0[i + 3 * n] = T(0);
  std::vector<T> a = a0;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  std::vector<ZC> z(a0.begin(), a0.end());
  std::vector<lapack_int> zp(static_cast<std::size_t>(n));
  const lapack_int ref = LAPACKE_zgetrf(LAPACK_COL_MAJOR, static_cast<lapack_int>(n), static_cast<lapack_int>(n),
                                        reinterpret_cast<lapack_complex_double*>(z.data()), static_cast<lapack_int>(n),
                                        zp.data());
  EXPECT_EQ(ts::getrf(ts::Settings{}, n, n, a.data(), n, ipiv.data()), ref);
  EXPECT_EQ(ref, 4);
  EXPECT_LE(lu_backward(n, n, a0.data(), a.data(), n, ipiv.data()), kCFactor * static_cast<double>(n) * u);
  // Without pivoting (ipiv nullptr) on a diagonally dominant matrix.
  std::vector<T> d0 = random_matrix<T>(n, n, n, 6);
  for (std::int64_t i = 0; i < n; ++i) d0[i + i * n] += T(static_cast<RealOf<T>>(4 * n), 0);
  std::vector<T> d = d0;
  ASSERT_EQ(ts::getrf(ts::Settings{}, n, n, d.data(), n, nullptr), 0);
  EXPECT_LE(lu_backward<T>(n, n, d0.data(), d.data(), n, nullptr), kCFactor * static_cast<double>(n) * u);
}

TYPED_TEST(ComplexFactor, GetrsEveryOperation) {
  using T = TypeParam;
  const double u = u_of<T>();
  const std::int64_t n = 150, nrhs = 2, lda = n, ldb = n + 1;
  const std::vector<T> a0 = random_matrix<T>(n, n, lda, 41);
  std::vector<T> f = a0;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  ASSERT_EQ(ts::getrf(ts::Settings{}, n, n, f.data(), lda, ipiv.data()), 0);
  for (ts::SolveOp op : {ts::SolveOp::N, ts::SolveOp::T, ts::SolveOp::C}) {
    const std::vector<T> b0 = random_matrix<T>(n, nrhs, ldb, 42);
    std::vector<T> x = b0;
    ts::getrs(ts::Settings{}, op, n, nrhs, f.data(), lda, ipiv.data(), x.data(), ldb);
    auto opA = [&](std::int64_t i, std::int64_t k) -> LC {
      if (op == ts::SolveOp::N) return LC(a0[i + k * lda]);
      const LC t(a0[k + i * lda]);
      return op == ts::SolveOp::T ? t : std::conj(t);
    };
    const double r = solve_backward(n, nrhs, a0.data(), lda, opA, b0.data(), x.data(), ldb);
    // The growth factor of partial pivoting on Gaussian matrices is small (<= ~10 here).
    EXPECT_LE(r, kCSolve * static_cast<double>(n) * u) << "op " << static_cast<int>(op);
  }
}

// The C entry points: the C++ routines' bits, bad arguments (devInfo = -position, outputs untouched).
TEST(ComplexFactorCApi, MatchesTheCppApiAndChecksArguments) {
  trnsolverDnHandle_t h = nullptr;
  ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
  const int n = 40;
  std::vector<std::complex<double>> a0 = hpd_matrix<std::complex<double>>(n, n, 51);
  std::vector<std::complex<double>> a = a0, ref = a0;
  auto* za = reinterpret_cast<trnDoubleComplex*>(a.data());
  int lwork = 0, info = -7;
  ASSERT_EQ(trnsolverDnZpotrf_bufferSize(h, TRNBLAS_FILL_MODE_UPPER, n, za, n, &lwork), TRNSOLVER_STATUS_SUCCESS);
  std::vector<trnDoubleComplex> work(static_cast<std::size_t>(std::max(lwork, 1)));
  ASSERT_EQ(trnsolverDnZpotrf(h, TRNBLAS_FILL_MODE_UPPER, n, za, n, work.data(), lwork, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  ASSERT_EQ(ts::potrf(ts::Settings{}, ts::Uplo::upper, n, ref.data(), n), 0);
  EXPECT_EQ(a, ref);
  // Bad lda (position 4): INVALID_VALUE, devInfo -4, A untouched.
  std::vector<std::complex<float>> c = hpd_matrix<std::complex<float>>(n, n, 52), c0 = c;
  auto* ca = reinterpret_cast<trnComplex*>(c.data());
  std::vector<trnComplex> cwork(1);
  EXPECT_EQ(trnsolverDnCpotrf(h, TRNBLAS_FILL_MODE_LOWER, n, ca, n - 1, cwork.data(), 1, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -4);
  EXPECT_EQ(c, c0);
  EXPECT_EQ(trnsolverDnCpotrf(h, static_cast<trnblasFillMode_t>(7), n, ca, n, cwork.data(), 1, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -1);
  // getrf/getrs: bits of the C++ API, OP_C, bad ipiv entry (position 6).
  std::vector<std::complex<float>> g = random_matrix<std::complex<float>>(n, n, n, 53), gref = g;
  std::vector<int> piv(n), pref(n);
  ASSERT_EQ(trnsolverDnCgetrf(h, n, n, reinterpret_cast<trnComplex*>(g.data()), n, cwork.data(), piv.data(), &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  ASSERT_EQ(ts::getrf(ts::Settings{}, n, n, gref.data(), n, pref.data()), 0);
  EXPECT_EQ(g, gref);
  EXPECT_EQ(piv, pref);
  std::vector<std::complex<float>> b = random_matrix<std::complex<float>>(n, 1, n, 54), bref = b;
  ASSERT_EQ(trnsolverDnCgetrs(h, TRNBLAS_OP_C, n, 1, reinterpret_cast<const trnComplex*>(g.data()), n, piv.data(),
                              reinterpret_cast<trnComplex*>(b.data()), n, &info),
            TRNSOLVER_STATUS_SUCCESS);
  ts::getrs(ts::Settings{}, ts::SolveOp::C, n, 1, gref.data(), n, pref.data(), bref.data(), n);
  EXPECT_EQ(b, bref);
  std::vector<int> badpiv = piv;
  badpiv[3] = n + 1;
  const std::vector<std::complex<float>> bkeep = b;
  EXPECT_EQ(trnsolverDnCgetrs(h, TRNBLAS_OP_N, n, 1, reinterpret_cast<const trnComplex*>(g.data()), n, badpiv.data(),
                              reinterpret_cast<trnComplex*>(b.data()), n, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -6);
  EXPECT_EQ(b, bkeep);
  // Zpotri through C after Zpotrf; bufferSize of the potri twin; handle checks.
  ASSERT_EQ(trnsolverDnZpotri_bufferSize(h, TRNBLAS_FILL_MODE_UPPER, n, za, n, &lwork), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_GE(lwork, 1);
  ASSERT_EQ(trnsolverDnZpotri(h, TRNBLAS_FILL_MODE_UPPER, n, za, n, work.data(), lwork, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  ASSERT_EQ(ts::potri(ts::Settings{}, ts::Uplo::upper, n, ref.data(), n), 0);
  EXPECT_EQ(a, ref);
  EXPECT_EQ(trnsolverDnZpotrs(nullptr, TRNBLAS_FILL_MODE_LOWER, n, 1, za, n, za, n, &info),
            TRNSOLVER_STATUS_NOT_INITIALIZED);
  ASSERT_EQ(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

// The 64-bit X API routes TRN_C_32F / TRN_C_64F to the same routines (same bits as the C++ API);
// a mixed data/compute type is NOT_SUPPORTED with nothing written.
template <class T>
void x_api_case(trnDataType_t dt) {
  trnsolverDnHandle_t h = nullptr;
  trnsolverDnParams_t p = nullptr;
  ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnCreateParams(&p), TRNSOLVER_STATUS_SUCCESS);
  const std::int64_t n = 30;
  std::vector<T> a = hpd_matrix<T>(n, n, 61), ref = a, b = random_matrix<T>(n, 2, n, 62), bref = b;
  std::size_t dev = 0, host = 0;
  int info = -9;
  ASSERT_EQ(trnsolverDnXpotrf_bufferSize(h, p, TRNBLAS_FILL_MODE_LOWER, n, dt, a.data(), n, dt, &dev, &host),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(dev, sizeof(T));
  std::vector<unsigned char> wd(dev);
  ASSERT_EQ(trnsolverDnXpotrf(h, p, TRNBLAS_FILL_MODE_LOWER, n, dt, a.data(), n, dt, wd.data(), dev, nullptr, 0, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  ASSERT_EQ(trnsolverDnXpotrs(h, p, TRNBLAS_FILL_MODE_LOWER, n, 2, dt, a.data(), n, dt, b.data(), n, &info),
            TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(ts::potrf(ts::Settings{}, ts::Uplo::lower, n, ref.data(), n), 0);
  ts::potrs(ts::Settings{}, ts::Uplo::lower, n, 2, ref.data(), n, bref.data(), n);
  EXPECT_EQ(a, ref);
  EXPECT_EQ(b, bref);
  std::vector<T> g = random_matrix<T>(n, n, n, 63), gref = g, c = random_matrix<T>(n, 1, n, 64), cref = c;
  std::vector<std::int64_t> ip(n);
  std::vector<int> ipref(n);
  ASSERT_EQ(trnsolverDnXgetrf(h, p, n, n, dt, g.data(), n, ip.data(), dt, wd.data(), dev, nullptr, 0, &info),
            TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnXgetrs(h, p, TRNBLAS_OP_C, n, 1, dt, g.data(), n, ip.data(), dt, c.data(), n, &info),
            TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(ts::getrf(ts::Settings{}, n, n, gref.data(), n, ipref.data()), 0);
  ts::getrs(ts::Settings{}, ts::SolveOp::C, n, 1, gref.data(), n, ipref.data(), cref.data(), n);
  EXPECT_EQ(g, gref);
  EXPECT_EQ(c, cref);
  for (std::int64_t i = 0; i < n; ++i) EXPECT_EQ(ip[i], ipref[i]);
  const std::vector<T> keep = g;
  const trnDataType_t other = dt == TRN_C_32F ? TRN_C_64F : TRN_C_32F;
  EXPECT_EQ(trnsolverDnXgetrf(h, p, n, n, dt, g.data(), n, ip.data(), other, wd.data(), dev, nullptr, 0, &info),
            TRNSOLVER_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(g, keep);
  trnsolverDnDestroyParams(p);
  trnsolverDnDestroy(h);
}

TEST(ComplexFactorCApi, XApiRoutesComplexTypes) {
  x_api_case<std::complex<float>>(TRN_C_32F);
  x_api_case<std::complex<double>>(TRN_C_64F);
}

}  // namespace
