// sygvj, sygvd and sygvdx (generalized symmetric-definite eigenproblem) through the C API against LAPACKE_dsygv:
// eigenvalues, residuals and B-orthogonality for itype 1, 2, 3 and both uplo, S and D; B not
// positive definite; argument positions with outputs untouched; the project's own C99 walkthrough of sygvj.
//
// Bounds (u = 2^-24 / 2^-53, kB = kappa_2(B) from LAPACKE_dsyevd of B): the reduction C =
// L^-1 A L^-T (or L^T A L) is computed from a backward-stable Cholesky (Higham, Accuracy and
// Stability, Thm 10.3: B + dB = L L^T, |dB| <= gamma_{n+1} |L||L^T|) and triangular solves /
// products with backward error gamma_n |L| (Thm 8.5); each perturbs C by <= n u kB ||C||_2 to first
// order, and syevj / syevd adds its own c n u ||C||_2 (docs/trnsolver.md). Hence |lambda - lambda_ref| <=
// 8 n u kB max|lambda|, and the residual ||A X - B X L||_F / ((||A||_F + ||B||_F max|lambda|)
// ||X||_F) <= 8 n u kB (itype 1; 2 and 3 with their own products); ||X^T B X - I||_F <= 8 n^1.5 u kB
// (itype 1, 2: X = L^-T Y with Y orthonormal to n^1.5 u, the solve adding n u kB per column).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "solver_oracles.hpp"
#include "solver_reference.hpp"
#include "trnsolver.h"

extern "C" int trnsolver_walkthrough_sygvj(int n, const double* A, const double* B, double* W, double* X, int* info,
                                           double* residual, int* sweeps);

namespace {

// B = G G^T / n + I (SPD, kappa ~ 5): tests/reference/solver_oracles.hpp.
std::vector<double> random_spd(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return trn_reference::random_spd(n, rng);
}

double kappa(std::vector<double> b, int n) {
  std::vector<double> w(static_cast<std::size_t>(n));
  LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, b.data(), n, w.data());
  return w.back() / w.front();
}

// The C API call under test: solve(itype, uplo, A, B, W, &info, &meig) -> status; the eigenvalues
// W[0, meig) are the reference's first + 0 .. first + meig - 1 (ascending), A's first meig columns X.
template <class T, class Solve>
void check_sygv(int itype, bool lower, int n, std::uint64_t seed, Solve&& solve, int first = 0) {
  SCOPED_TRACE(testing::Message() << "itype " << itype << " lower " << lower << " n " << n);
  const double u = std::is_same_v<T, float> ? 0x1p-24 : 0x1p-53;
  auto a64 = solver_test::random_symmetric(n, n, seed);
  auto b64 = random_spd(n, seed + 1);
  if (std::is_same_v<T, float>) {
    for (double& x : a64) x = static_cast<float>(x);
    for (double& x : b64) x = static_cast<float>(x);
  }
  // Reference eigenvalues.
  std::vector<double> ra(a64), rb(b64), rw(static_cast<std::size_t>(n));
  ASSERT_EQ(LAPACKE_dsygv(LAPACK_COL_MAJOR, itype, 'N', 'L', n, ra.data(), n, rb.data(), n, rw.data()), 0);
  const double kb = kappa(b64, n);
  // Only the uplo triangles are read: poison the others.
  std::vector<T> A(a64.begin(), a64.end()), B(b64.begin(), b64.end()), W(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (lower ? i < j : i > j) A[i + j * n] = B[i + j * n] = std::numeric_limits<T>::quiet_NaN();
  const auto it = static_cast<trnsolverEigType_t>(itype);
  const auto up = lower ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER;
  int info = -1, meig = n;
  ASSERT_EQ(solve(it, up, A.data(), B.data(), W.data(), &info, &meig), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_GE(meig, 0);
  ASSERT_LE(first + meig, n);
  EXPECT_EQ(info, 0);
  double lmax = 0;
  for (double x : rw) lmax = std::max(lmax, std::fabs(x));
  const double c = 8 * n * u * kb;
  for (int k = 0; k < meig; ++k) EXPECT_NEAR(W[k], rw[first + k], c * lmax) << "lambda " << k;
  const int cols = meig;  // X: A's first cols columns
  // Residual of the defining equation with the full A and B (double, the unpoisoned copies).
  // z = x y for x n x n (or cols x n, rows = cols) and y n x cols.
  auto mul = [n, cols](const std::vector<long double>& x, const std::vector<long double>& y, int rows = 0) {
    const int r = rows > 0 ? rows : n;
    std::vector<long double> z(static_cast<std::size_t>(r) * cols, 0);
    for (int j = 0; j < cols; ++j)
      for (int k = 0; k < n; ++k)
        for (int i = 0; i < r; ++i) z[i + j * r] += x[i + k * r] * y[k + j * n];
    return z;
  };
  const std::vector<long double> Al(a64.begin(), a64.end()), Bl(b64.begin(), b64.end()),
      X(A.begin(), A.begin() + static_cast<std::ptrdiff_t>(n) * cols);
  std::vector<long double> lhs, rhs;
  if (itype == 1) {
    lhs = mul(Al, X);
    rhs = mul(Bl, X);
  } else {
    lhs = mul(itype == 2 ? Al : Bl, mul(itype == 2 ? Bl : Al, X));
    rhs = X;
  }
  long double r2 = 0, a2 = 0, b2 = 0, x2 = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      a2 += Al[i + j * n] * Al[i + j * n];
      b2 += Bl[i + j * n] * Bl[i + j * n];
    }
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < n; ++i) {
      const long double d = lhs[i + j * n] - rhs[i + j * n] * (long double)W[j];
      r2 += d * d;
      x2 += X[i + j * n] * X[i + j * n];
    }
  const double scale = itype == 1 ? (std::sqrt((double)a2) + std::sqrt((double)b2) * lmax) * std::sqrt((double)x2)
                                  : (std::sqrt((double)a2 * (double)b2) + lmax) * std::sqrt((double)x2);
  EXPECT_LE(std::sqrt((double)r2), c * scale);
  if (itype != 3) {
    const auto xtbx = mul([&] {
      std::vector<long double> xt(X.size());  // X^T, cols x n
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < cols; ++i) xt[i + j * cols] = X[j + i * n];
      return xt;
    }(), mul(Bl, X), cols);
    long double o = 0;
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < cols; ++i) {
        const long double d = xtbx[i + j * cols] - (i == j ? 1 : 0);
        o += d * d;
      }
    EXPECT_LE(std::sqrt((double)o), c * std::sqrt(double(n)));
  }
}

template <class T>
void check_sygvj(int itype, bool lower, int n, std::uint64_t seed) {
  trnsolverDnHandle_t h;
  syevjInfo_t params;
  ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnCreateSyevjInfo(&params), TRNSOLVER_STATUS_SUCCESS);
  check_sygv<T>(itype, lower, n, seed, [&](trnsolverEigType_t it, trnblasFillMode_t up, T* A, T* B, T* W, int* info,
                                           int*) {
    int lwork = 0;
    T work[2];
    trnsolverStatus_t st;
    if constexpr (std::is_same_v<T, float>) {
      st = trnsolverDnSsygvj_bufferSize(h, it, TRNSOLVER_EIG_MODE_VECTOR, up, n, A, n, B, n, W, &lwork, params);
      if (st == TRNSOLVER_STATUS_SUCCESS)
        st = trnsolverDnSsygvj(h, it, TRNSOLVER_EIG_MODE_VECTOR, up, n, A, n, B, n, W, work, lwork, info, params);
    } else {
      st = trnsolverDnDsygvj_bufferSize(h, it, TRNSOLVER_EIG_MODE_VECTOR, up, n, A, n, B, n, W, &lwork, params);
      if (st == TRNSOLVER_STATUS_SUCCESS)
        st = trnsolverDnDsygvj(h, it, TRNSOLVER_EIG_MODE_VECTOR, up, n, A, n, B, n, W, work, lwork, info, params);
    }
    return st;
  });
  trnsolverDnDestroySyevjInfo(params);
  trnsolverDnDestroy(h);
}

// sygvd (il = 0) or sygvdx with range I (il..iu, 1-based) through the C API, lwork from _bufferSize.
template <class T>
void check_sygvd(int itype, bool lower, int n, std::uint64_t seed, int il = 0, int iu = 0) {
  SCOPED_TRACE(testing::Message() << (il > 0 ? "sygvdx il " : "sygvd") << il << " iu " << iu);
  trnsolverDnHandle_t h;
  ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
  const auto vec = TRNSOLVER_EIG_MODE_VECTOR;
  const auto rg = TRNSOLVER_EIG_RANGE_I;
  check_sygv<T>(
      itype, lower, n, seed,
      [&](trnsolverEigType_t it, trnblasFillMode_t up, T* A, T* B, T* W, int* info, int* meig) {
        int lwork = 0;
        trnsolverStatus_t st;
        std::vector<T> work;
        if constexpr (std::is_same_v<T, float>) {
          st = il > 0 ? trnsolverDnSsygvdx_bufferSize(h, it, vec, rg, up, n, A, n, B, n, 0, 0, il, iu, meig, W, &lwork)
                      : trnsolverDnSsygvd_bufferSize(h, it, vec, up, n, A, n, B, n, W, &lwork);
          work.resize(static_cast<std::size_t>(lwork));
          if (st == TRNSOLVER_STATUS_SUCCESS)
            st = il > 0 ? trnsolverDnSsygvdx(h, it, vec, rg, up, n, A, n, B, n, 0, 0, il, iu, meig, W, work.data(), lwork,
                                             info)
                        : trnsolverDnSsygvd(h, it, vec, up, n, A, n, B, n, W, work.data(), lwork, info);
        } else {
          st = il > 0 ? trnsolverDnDsygvdx_bufferSize(h, it, vec, rg, up, n, A, n, B, n, 0, 0, il, iu, meig, W, &lwork)
                      : trnsolverDnDsygvd_bufferSize(h, it, vec, up, n, A, n, B, n, W, &lwork);
          work.resize(static_cast<std::size_t>(lwork));
          if (st == TRNSOLVER_STATUS_SUCCESS)
            st = il > 0 ? trnsolverDnDsygvdx(h, it, vec, rg, up, n, A, n, B, n, 0, 0, il, iu, meig, W, work.data(), lwork,
                                             info)
                        : trnsolverDnDsygvd(h, it, vec, up, n, A, n, B, n, W, work.data(), lwork, info);
        }
        return st;
      },
      il > 0 ? il - 1 : 0);
  trnsolverDnDestroy(h);
}

// check(T{}, itype, lower, seed) for itype 1..3, both triangles, S then D, n = 12; returns the next seed.
template <class Check>
std::uint64_t all_itypes(std::uint64_t seed, Check&& check) {
  for (int itype = 1; itype <= 3; ++itype)
    for (bool lower : {true, false}) {
      check(float{}, itype, lower, seed++);
      check(double{}, itype, lower, seed++);
    }
  return seed;
}

TEST(TrnsolverSygvj, AgainstDsygvAllItypesBothTriangles) {
  std::uint64_t seed = all_itypes(300, [](auto t, int itype, bool lower, std::uint64_t s) {
    check_sygvj<decltype(t)>(itype, lower, 12, s);
  });
  check_sygvj<float>(1, true, 33, seed++);
  check_sygvj<double>(2, false, 40, seed++);
}

TEST(TrnsolverSygvd, AgainstDsygvAllItypesBothTriangles) {
  std::uint64_t seed = all_itypes(500, [](auto t, int itype, bool lower, std::uint64_t s) {
    check_sygvd<decltype(t)>(itype, lower, 12, s);
  });
  check_sygvd<float>(1, false, 70, seed++);
  check_sygvd<double>(3, true, 45, seed++);
}

TEST(TrnsolverSygvd, SygvdxIndexRangeAgainstDsygv) {
  std::uint64_t seed = 600;
  check_sygvd<double>(1, true, 20, seed++, 3, 9);
  check_sygvd<float>(2, false, 20, seed++, 1, 20);
  check_sygvd<double>(3, false, 40, seed++, 40, 40);
  check_sygvd<float>(1, false, 40, seed++, 5, 5);
}

// sygvd / sygvdx: B not positive definite -> info n + i, nothing written; argument positions.
TEST(TrnsolverSygvd, NotPositiveDefiniteBAndArgumentPositions) {
  trnsolverDnHandle_t h;
  ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
  const int n = 5;
  std::vector<double> A(25, 0.0), B(25, 0.0), W(5, 7.0), work(200);
  for (int i = 0; i < n; ++i) {
    A[i + i * n] = i + 1.0;
    B[i + i * n] = 1.0;
  }
  B[3 + 3 * n] = 0.0;  // the leading minor of order 4 is not positive definite
  const auto A0 = A, B0 = B, W0 = W;
  const auto vec = TRNSOLVER_EIG_MODE_VECTOR;
  const auto lo = TRNBLAS_FILL_MODE_LOWER;
  const auto t1 = TRNSOLVER_EIG_TYPE_1;
  const auto rI = TRNSOLVER_EIG_RANGE_I;
  int lwork = 0, meig = -3;
  ASSERT_EQ(trnsolverDnDsygvd_bufferSize(h, t1, vec, lo, n, A.data(), n, B.data(), n, W.data(), &lwork),
            TRNSOLVER_STATUS_SUCCESS);
  ASSERT_LE(lwork, 200);
  int info = 0;
  ASSERT_EQ(trnsolverDnDsygvd(h, t1, vec, lo, n, A.data(), n, B.data(), n, W.data(), work.data(), lwork, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, n + 4);
  ASSERT_EQ(trnsolverDnDsygvdx(h, t1, vec, rI, lo, n, A.data(), n, B.data(), n, 0, 0, 1, 2, &meig, W.data(), work.data(),
                               lwork, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, n + 4);
  EXPECT_EQ(meig, 0);
  EXPECT_EQ(A, A0);
  EXPECT_EQ(B, B0);
  EXPECT_EQ(W, W0);
  int bad = 9;
  trnsolverEigType_t bad_itype;
  std::memcpy(&bad_itype, &bad, sizeof bad);
  std::vector<std::pair<int, int>> got;  // (position, info) of INVALID_VALUE returns
  auto gvd = [&](int pos, trnsolverEigType_t it, int nn, double* a, int lda, double* b, int ldb, double* w, double* wk,
                 int lw) {
    int inf = 99;
    EXPECT_EQ(trnsolverDnDsygvd(h, it, vec, lo, nn, a, lda, b, ldb, w, wk, lw, &inf), TRNSOLVER_STATUS_INVALID_VALUE);
    got.emplace_back(pos, inf);
  };
  gvd(1, bad_itype, n, A.data(), n, B.data(), n, W.data(), work.data(), lwork);
  gvd(4, t1, -1, A.data(), n, B.data(), n, W.data(), work.data(), lwork);
  gvd(5, t1, n, nullptr, n, B.data(), n, W.data(), work.data(), lwork);
  gvd(6, t1, n, A.data(), n - 1, B.data(), n, W.data(), work.data(), lwork);
  gvd(7, t1, n, A.data(), n, nullptr, n, W.data(), work.data(), lwork);
  gvd(8, t1, n, A.data(), n, B.data(), n - 1, W.data(), work.data(), lwork);
  gvd(9, t1, n, A.data(), n, B.data(), n, nullptr, work.data(), lwork);
  gvd(10, t1, n, A.data(), n, B.data(), n, W.data(), nullptr, lwork);
  gvd(11, t1, n, A.data(), n, B.data(), n, W.data(), work.data(), lwork - 1);
  auto gvdx = [&](int pos, double vl, double vu, int il, int iu, int* m, int lw) {
    int inf = 99;
    const auto rg = pos == 11 ? TRNSOLVER_EIG_RANGE_V : rI;
    EXPECT_EQ(trnsolverDnDsygvdx(h, t1, vec, rg, lo, n, A.data(), n, B.data(), n, vl, vu, il, iu, m, W.data(),
                                 work.data(), lw, &inf),
              TRNSOLVER_STATUS_INVALID_VALUE);
    got.emplace_back(pos, inf);
  };
  gvdx(11, 1.0, 1.0, 1, 2, &meig, lwork);
  gvdx(12, 0, 0, 0, 2, &meig, lwork);
  gvdx(13, 0, 0, 2, 6, &meig, lwork);
  gvdx(14, 0, 0, 1, 2, nullptr, lwork);
  gvdx(17, 0, 0, 1, 2, &meig, lwork - 1);
  for (const auto& [pos, inf] : got) EXPECT_EQ(inf, -pos) << "position " << pos;
  EXPECT_EQ(A, A0);
  EXPECT_EQ(B, B0);
  EXPECT_EQ(W, W0);
  trnsolverDnDestroy(h);
}

TEST(TrnsolverSygvj, NotPositiveDefiniteBAndArgumentPositions) {
  trnsolverDnHandle_t h;
  syevjInfo_t params;
  ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnCreateSyevjInfo(&params), TRNSOLVER_STATUS_SUCCESS);
  const int n = 5;
  std::vector<float> A(25, 0.0f), B(25, 0.0f), W(5, 7.0f), work(1);
  for (int i = 0; i < n; ++i) {
    A[i + i * n] = static_cast<float>(i + 1);
    B[i + i * n] = 1.0f;
  }
  B[2 + 2 * n] = -1.0f;  // the leading minor of order 3 is not positive definite
  const auto A0 = A, B0 = B, W0 = W;
  const auto vec = TRNSOLVER_EIG_MODE_VECTOR;
  const auto lo = TRNBLAS_FILL_MODE_LOWER;
  int info = 0;
  ASSERT_EQ(trnsolverDnSsygvj(h, TRNSOLVER_EIG_TYPE_1, vec, lo, n, A.data(), n, B.data(), n, W.data(), work.data(), 1,
                              &info, params),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, n + 3);
  EXPECT_EQ(A, A0);
  EXPECT_EQ(B, B0);
  EXPECT_EQ(W, W0);
  int bad = 9;
  trnsolverEigType_t bad_itype;
  std::memcpy(&bad_itype, &bad, sizeof bad);
  struct Case {
    int pos;
    trnsolverStatus_t st;
    int info;
  };
  std::vector<Case> cases;
  auto run = [&](int pos, trnsolverEigType_t it, int nn, float* a, int lda, float* b, int ldb, float* w, float* wk, int lw,
                 syevjInfo_t p) {
    int inf = 99;
    cases.push_back({pos, trnsolverDnSsygvj(h, it, vec, lo, nn, a, lda, b, ldb, w, wk, lw, &inf, p), inf});
  };
  const auto t1 = TRNSOLVER_EIG_TYPE_1;
  run(1, bad_itype, n, A.data(), n, B.data(), n, W.data(), work.data(), 1, params);
  run(4, t1, -1, A.data(), n, B.data(), n, W.data(), work.data(), 1, params);
  run(5, t1, n, nullptr, n, B.data(), n, W.data(), work.data(), 1, params);
  run(6, t1, n, A.data(), n - 1, B.data(), n, W.data(), work.data(), 1, params);
  run(7, t1, n, A.data(), n, nullptr, n, W.data(), work.data(), 1, params);
  run(8, t1, n, A.data(), n, B.data(), n - 1, W.data(), work.data(), 1, params);
  run(9, t1, n, A.data(), n, B.data(), n, nullptr, work.data(), 1, params);
  run(10, t1, n, A.data(), n, B.data(), n, W.data(), nullptr, 1, params);
  run(11, t1, n, A.data(), n, B.data(), n, W.data(), work.data(), 0, params);
  run(13, t1, n, A.data(), n, B.data(), n, W.data(), work.data(), 1, nullptr);
  for (const Case& c : cases) {
    EXPECT_EQ(c.st, TRNSOLVER_STATUS_INVALID_VALUE) << "position " << c.pos;
    EXPECT_EQ(c.info, -c.pos);
  }
  EXPECT_EQ(A, A0);
  EXPECT_EQ(B, B0);
  EXPECT_EQ(W, W0);
  trnsolverDnDestroySyevjInfo(params);
  trnsolverDnDestroy(h);
}

// The C99 walkthrough of the sygvj call sequence (trnsolver_c_jacobi_walkthroughs.c) on a 4 x 4 pencil of
// this test (A symmetric indefinite, B SPD by diagonal dominance) against LAPACKE_dsygv and the dense
// residual |A X - B X diag(W)|.
TEST(TrnsolverSygvj, CusolverSamplePortReproduces) {
  const int n = 4;
  const std::vector<double> A = {4, 1, -1, 2, 1, -3, 0, 1, -1, 0, 2, 1, 2, 1, 1, 5};
  const std::vector<double> B = {6, 1, 0, 1, 1, 5, 2, 0, 0, 2, 7, -1, 1, 0, -1, 4};
  double W[4], X[16], residual = -1;
  int info = -1, sweeps = -1;
  ASSERT_EQ(trnsolver_walkthrough_sygvj(n, A.data(), B.data(), W, X, &info, &residual, &sweeps), 0);
  EXPECT_EQ(info, 0);
  std::vector<double> ra(A), rb(B), rw(n);
  ASSERT_EQ(LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'N', 'L', n, ra.data(), n, rb.data(), n, rw.data()), 0);
  for (int k = 0; k < n; ++k) EXPECT_NEAR(W[k], rw[k], 1e-14 * std::fabs(rw[n - 1]) + 1e-14);
  double r = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double ax = 0, bx = 0;
      for (int k = 0; k < n; ++k) {
        ax += A[i + k * n] * X[k + j * n];
        bx += B[i + k * n] * X[k + j * n];
      }
      r = std::max(r, std::fabs(ax - W[j] * bx));
    }
  // At exit every off-diagonal of C = L^-1 A L^-T V (V the rotations) is <= tol sqrt|c_pp c_qq| <= tol max|W|
  // (tol = 1e-7, the walkthrough's), so A X - B X diag(W) = L E (E those off-diagonals, n - 1 per column)
  // and r <= tol (n - 1) max|W| ||L||_max max|x_kj| <= tol (n - 1) max|W| sqrt(max b_ii) max|X|.
  double wmax = 0, xmax = 0, bdiag = 0;
  for (int k = 0; k < n; ++k) wmax = std::max(wmax, std::fabs(W[k])), bdiag = std::max(bdiag, B[k + k * n]);
  for (double x : X) xmax = std::max(xmax, std::fabs(x));
  EXPECT_LE(r, 1e-7 * (n - 1) * wmax * std::sqrt(bdiag) * xmax);
  EXPECT_GE(sweeps, 1);
  EXPECT_LE(sweeps, 15);
}

}  // namespace
