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
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "complex_eig_oracles.hpp"
#include "complex_matrices.hpp"
#include "factor_oracles.hpp"
#include "trn/solver/complex_factor.hpp"
#include "trn/solver/eig.hpp"
#include "trnsolver.h"

namespace ts = trn::solver;

namespace {

using LC = std::complex<long double>;
using ZC = std::complex<double>;
using complex_matrix::hermitian_matrix;
using complex_matrix::hpd_matrix;
using complex_matrix::random_matrix;
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
      EXPECT_GE(be, u / 64) << "n " << n;  // two-sided: C ran in fp32, Z in fp64 (not wider)
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
    EXPECT_GE(be, u / 64);  // two-sided for C and Z
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

// The recursive panels (xGETRF2 / xPOTRF2, factor_recursive.cpp): pivots equal LAPACKE's in the
// element's own precision (cgetrf / zgetrf), exact ties of |re| + |im| included (the first row
// wins, as IxAMAX); the host does only the
// leaves (at most 32 columns: host flops <= 8 (m 32^2 + 32 m) per leaf, far below the old 128-column
// panels' 8 m 128^2 / 2), and a single panel (n <= 128) already runs its updates on TensorE.
TYPED_TEST(ComplexFactor, RecursivePanelsTiesHostLeavesAndEngines) {
  using T = TypeParam;
  using R = RealOf<T>;
  for (std::int64_t n : {100, 150}) {
    // Exact ties at every step of the first 32 columns: rows 2q + 1 = -rows 2q there (negation is
    // exact in every operation of a leaf, so the pair ties until one of it is the pivot; the other
    // then has zeros in those columns), a Gaussian matrix elsewhere (nonsingular). Beyond one leaf
    // OpenBLAS's GEMM kernels treat rows unevenly (edge tiles), which breaks the ties' exactness in
    // the oracle itself.
    std::vector<T> a0 = random_matrix<T>(n, n, n, 90 + static_cast<std::uint64_t>(n));
    for (std::int64_t j = 0; j < 32; ++j)
      for (std::int64_t q = 0; 2 * q + 1 < n; ++q) a0[2 * q + 1 + j * n] = -a0[2 * q + j * n];
    std::vector<T> a = a0;
    std::vector<int> ipiv(static_cast<std::size_t>(n));
    ts::CallReport rep;
    const int info = ts::getrf(ts::Settings{}, n, n, a.data(), n, ipiv.data(), &rep);
    std::vector<T> r = a0;
    std::vector<lapack_int> rp(static_cast<std::size_t>(n));
    lapack_int ref = 0;
    if constexpr (std::is_same_v<R, float>)
      ref = LAPACKE_cgetrf(LAPACK_COL_MAJOR, static_cast<lapack_int>(n), static_cast<lapack_int>(n),
                           reinterpret_cast<lapack_complex_float*>(r.data()), static_cast<lapack_int>(n), rp.data());
    else
      ref = LAPACKE_zgetrf(LAPACK_COL_MAJOR, static_cast<lapack_int>(n), static_cast<lapack_int>(n),
                           reinterpret_cast<lapack_complex_double*>(r.data()), static_cast<lapack_int>(n), rp.data());
    EXPECT_EQ(info, ref) << "n " << n;
    for (std::int64_t k = 0; k < n; ++k) ASSERT_EQ(ipiv[k], rp[k]) << "n " << n << " pivot " << k;
    const double leaves = static_cast<double>(n) / 32 + 1;
    EXPECT_LE(rep.host_fp64_flops, leaves * 8.0 * (static_cast<double>(n) * 32 * 32 + 32.0 * static_cast<double>(n)));
    EXPECT_GT(rep.host_fp64_flops, 0.0);
    EXPECT_GT(rep.profile.tensor_flops, 0.0) << "the panel's updates on TensorE";
    // Cholesky of an HPD matrix: the same split of the work.
    std::vector<T> h = complex_matrix::hpd_matrix<T>(n, n, 77);
    ts::CallReport prep;
    ASSERT_EQ(ts::potrf(ts::Settings{}, ts::Uplo::upper, n, h.data(), n, &prep), 0);
    EXPECT_LE(prep.host_fp64_flops, leaves * 8.0 * (static_cast<double>(n) * 32 * 32 + 32.0 * static_cast<double>(n)));
    EXPECT_GT(prep.profile.tensor_flops, 0.0);
  }
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

// ---- heevd / hetrd / ungtr / unmtr --------------------------------------------------------------------

// docs/trnsolver.md "heevd": ||AV - V Lambda||_F / ||A||_F <= 2 n u, ||V^H V - I||_F <= 4 n u,
// max |lambda - lambda_zheevd| <= 2 n u ||A||_2 (C: the residual >= u / 64).
constexpr double kCHeRes = 2.0, kCHeOrth = 4.0, kCHeVal = 2.0;

TYPED_TEST(ComplexFactor, HeevdResidualOrthogonalityAndValuesAgainstLapacke) {
  using T = TypeParam;
  const double u = u_of<T>();
  for (std::int64_t n : {9, 70, 140}) {
    for (bool lower : {true, false}) {
      const std::int64_t lda = n + 1;
      const std::vector<T> a0 = hermitian_matrix<T>(n, lda, 71 + static_cast<std::uint64_t>(n));
      std::vector<T> v = a0;
      // The triangle not named by uplo is not read: poison it.
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < n; ++i)
          if (lower ? i < j : i > j) v[i + j * lda] = T(std::numeric_limits<RealOf<T>>::quiet_NaN(), 0);
      std::vector<RealOf<T>> w(static_cast<std::size_t>(n));
      ts::CallReport rep;
      ASSERT_EQ(ts::heevd(ts::Settings{}, true, lower ? ts::Uplo::lower : ts::Uplo::upper, n, v.data(), lda, w.data(),
                          &rep),
                0);
      const std::vector<double> ref = zheevd_values(n, a0, lda);
      double a2 = 0;
      for (double x : ref) a2 = std::max(a2, std::fabs(x));
      const double res = factor_oracle::eig_residual(n, a0.data(), lda, v.data(), lda, w.data());
      const double orth = factor_oracle::orthogonality(n, v.data(), lda);
      const double nu = static_cast<double>(n) * u;
      EXPECT_LE(res, kCHeRes * nu) << "n " << n << " lower " << lower;
      EXPECT_LE(orth, kCHeOrth * nu) << "n " << n;
      if (std::is_same_v<RealOf<T>, float>) {
        EXPECT_GE(res, u / 64);
      }
      for (std::int64_t j = 0; j < n; ++j) EXPECT_LE(std::fabs(double(w[j]) - ref[j]), kCHeVal * nu * a2) << j;
      EXPECT_NE(rep.plan.find("heevd"), std::string::npos);
    }
  }
  // Inf/NaN in the read triangle: info n, W NaN.
  const std::int64_t n = 6;
  std::vector<T> a = hermitian_matrix<T>(n, n, 5);
  a[4 + 1 * n] = T(std::numeric_limits<RealOf<T>>::infinity(), 0);
  std::vector<RealOf<T>> w(n);
  EXPECT_EQ(ts::heevd(ts::Settings{}, false, ts::Uplo::lower, n, a.data(), n, w.data()), n);
  EXPECT_TRUE(std::isnan(w[0]));
}

// hetrd's d, e against LAPACKE zhetrd (the same xLARFG conventions: the same tridiagonal up to rounding),
// ungtr's Q: ||A - Q T Q^H||_F / ||A||_F and unmtr = Q C (every side and operation) against the explicit Q.
TYPED_TEST(ComplexFactor, HetrdUngtrUnmtrAgainstLapacke) {
  using T = TypeParam;
  using R = RealOf<T>;
  const double u = u_of<T>();
  const std::int64_t n = 75, lda = n;
  for (bool lower : {true, false}) {
    const ts::Uplo uplo = lower ? ts::Uplo::lower : ts::Uplo::upper;
    const std::vector<T> a0 = hermitian_matrix<T>(n, lda, 81);
    std::vector<T> a = a0, tau(static_cast<std::size_t>(n));
    std::vector<R> d(static_cast<std::size_t>(n)), e(static_cast<std::size_t>(n));
    ASSERT_EQ(ts::hetrd(ts::Settings{}, uplo, n, a.data(), lda, d.data(), e.data(), tau.data()), 0);
    std::vector<ZC> z(a0.begin(), a0.end()), zt(static_cast<std::size_t>(n));
    std::vector<double> zd(static_cast<std::size_t>(n)), ze(static_cast<std::size_t>(n));
    ASSERT_EQ(LAPACKE_zhetrd(LAPACK_COL_MAJOR, lower ? 'L' : 'U', static_cast<lapack_int>(n),
                             reinterpret_cast<lapack_complex_double*>(z.data()), static_cast<lapack_int>(lda), zd.data(),
                             ze.data(), reinterpret_cast<lapack_complex_double*>(zt.data())),
              0);
    double a2 = 0;
    for (double x : zd) a2 = std::max(a2, std::fabs(x));
    for (std::int64_t j = 0; j < n; ++j) EXPECT_LE(std::fabs(double(d[j]) - zd[j]), 64 * n * u * a2 + 4 * n * u) << j;
    for (std::int64_t j = 0; j + 1 < n; ++j)
      EXPECT_LE(std::fabs(double(e[j]) - ze[j]), 64 * n * u * a2 + 4 * n * u) << j;
    std::vector<T> q = a;
    ASSERT_EQ(ts::ungtr(ts::Settings{}, uplo, n, q.data(), lda, tau.data()), 0);
    auto tri = [&](std::int64_t i, std::int64_t j) -> LC {
      if (i == j) return LC(static_cast<long double>(d[i]));
      if (i == j + 1 || j == i + 1) return LC(static_cast<long double>(e[std::min(i, j)]));
      return LC(0);
    };
    const long double na = frob(n, n, [&](std::int64_t i, std::int64_t j) { return LC(a0[i + j * lda]); });
    std::vector<LC> qt(static_cast<std::size_t>(n * n));  // Q T
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t k = std::max<std::int64_t>(0, j - 1); k <= std::min(n - 1, j + 1); ++k)
          qt[i + j * n] += LC(q[i + k * lda]) * tri(k, j);
    const double back = double(frob(n, n, [&](std::int64_t i, std::int64_t j) {
                          LC t = LC(a0[i + j * lda]);
                          for (std::int64_t k = 0; k < n; ++k) t -= qt[i + k * n] * std::conj(LC(q[j + k * lda]));
                          return t;
                        }) / na);
    EXPECT_LE(back, 4 * n * u);
    // unmtr: op(Q) C and C op(Q) against the explicit Q.
    for (bool left : {true, false})
      for (bool trans : {false, true}) {
        const std::int64_t m = left ? n : 7, nc = left ? 5 : n;
        const std::vector<T> c0 = random_matrix<T>(m, nc, m, 91);
        std::vector<T> c = c0;
        ASSERT_EQ(ts::unmtr(ts::Settings{}, left, uplo, trans, m, nc, a.data(), lda, tau.data(), c.data(), m), 0);
        auto opq = [&](std::int64_t i, std::int64_t k) {
          return trans ? std::conj(LC(q[k + i * lda])) : LC(q[i + k * lda]);
        };
        const long double nc0 = frob(m, nc, [&](std::int64_t i, std::int64_t j) { return LC(c0[i + j * m]); });
        const double diff = double(frob(m, nc, [&](std::int64_t i, std::int64_t j) {
                              LC t = LC(c[i + j * m]);
                              if (left)
                                for (std::int64_t k = 0; k < n; ++k) t -= opq(i, k) * LC(c0[k + j * m]);
                              else
                                for (std::int64_t k = 0; k < n; ++k) t -= LC(c0[i + k * m]) * opq(k, j);
                              return t;
                            }) / nc0);
        EXPECT_LE(diff, 4 * n * u) << "left " << left << " trans " << trans;
      }
  }
}

// heevd / hetrd / ungtr / unmtr through the C API: the C++ routines' bits, lwork below _bufferSize and
// unmtr's OP_T rejected (outputs untouched).
TEST(ComplexFactorCApi, HeevdFamilyMatchesTheCppApiAndChecksArguments) {
  trnsolverDnHandle_t h = nullptr;
  ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
  const int n = 24;
  std::vector<std::complex<double>> a = hermitian_matrix<std::complex<double>>(n, n, 95), ref = a;
  std::vector<double> w(n), wref(n);
  auto* za = reinterpret_cast<trnDoubleComplex*>(a.data());
  int lwork = 0, info = -9;
  ASSERT_EQ(trnsolverDnZheevd_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, n, za, n, w.data(),
                                         &lwork),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<trnDoubleComplex> work(static_cast<std::size_t>(lwork));
  EXPECT_EQ(trnsolverDnZheevd(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, n, za, n, w.data(), work.data(),
                              lwork - 1, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -8);
  EXPECT_EQ(a, ref);
  ASSERT_EQ(trnsolverDnZheevd(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, n, za, n, w.data(), work.data(),
                              lwork, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  ASSERT_EQ(ts::heevd(ts::Settings{}, true, ts::Uplo::upper, n, ref.data(), n, wref.data()), 0);
  EXPECT_EQ(a, ref);
  EXPECT_EQ(w, wref);
  // Chetrd + Cunmtr (OP_C accepted, OP_T rejected at position 3).
  std::vector<std::complex<float>> c = hermitian_matrix<std::complex<float>>(n, n, 96), tau(n), m(n * 2);
  std::vector<float> d(n), e(n);
  auto* ca = reinterpret_cast<trnComplex*>(c.data());
  auto* ct = reinterpret_cast<trnComplex*>(tau.data());
  ASSERT_EQ(trnsolverDnChetrd_bufferSize(h, TRNBLAS_FILL_MODE_LOWER, n, ca, n, d.data(), e.data(), ct, &lwork),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<trnComplex> cw(static_cast<std::size_t>(std::max(lwork, 1)));
  ASSERT_EQ(trnsolverDnChetrd(h, TRNBLAS_FILL_MODE_LOWER, n, ca, n, d.data(), e.data(), ct, cw.data(), lwork, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  auto* cm = reinterpret_cast<trnComplex*>(m.data());
  ASSERT_EQ(trnsolverDnCunmtr_bufferSize(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_C, n, 2, ca, n, ct, cm,
                                         n, &lwork),
            TRNSOLVER_STATUS_SUCCESS);
  cw.resize(static_cast<std::size_t>(lwork));
  const std::vector<std::complex<float>> m0 = m;
  EXPECT_EQ(trnsolverDnCunmtr(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_T, n, 2, ca, n, ct, cm, n,
                              cw.data(), lwork, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -3);
  EXPECT_EQ(m, m0);
  EXPECT_EQ(trnsolverDnCunmtr(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_C, n, 2, ca, n, ct, cm, n,
                              cw.data(), lwork, &info),
            TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnCungtr_bufferSize(h, TRNBLAS_FILL_MODE_LOWER, n, ca, n, ct, &lwork), TRNSOLVER_STATUS_SUCCESS);
  cw.resize(static_cast<std::size_t>(lwork));
  EXPECT_EQ(trnsolverDnCungtr(h, TRNBLAS_FILL_MODE_LOWER, n, ca, n, ct, cw.data(), lwork, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
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
