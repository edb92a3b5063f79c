// trnblas Level 2 (S and D: gemv, ger, symv, trmv, trsv) through the C API, against OpenBLAS's
// CBLAS and long-double loops.
//
// Bounds (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed.):
//   * gemv/symv/trmv (§3.5): y_i = alpha sum_k a_ik x_k + beta y_i with exact or once-rounded
//     products, k - 1 additions, alpha, beta and the final add: every term passes through at most
//     d = k + 4 roundings, so |y_i - exact| <= gamma_d (|alpha| sum_k |a_ik x_k| + |beta y_i|).
//   * ger: a_ij + alpha x_i y_j with at most 3 roundings: gamma_3 (|alpha x_i y_j| + |a_ij|).
//   * trsv (Thm 8.5, substitution in any order of the updates): (T + dT) x = b with
//     |dT| <= gamma_n |T|, hence the componentwise residual |b - T x| <= gamma_n |T| |x|; we allow
//     gamma_{n+2} for the blocked D variant (each Ozaki update adds one rounding of its own).
// OpenBLAS's results satisfy the same bounds, so ours and OpenBLAS's differ by at most twice.
#include <cblas.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "blas_test_util.hpp"
#include "trn/blas/level12.hpp"

namespace {

using blastest::Handle;

template <class T>
long double gamma(long double d) {
  const long double u = std::numeric_limits<T>::epsilon() / 2;
  return d * u / (1 - d * u);
}

template <class T>
std::vector<T> random_vec(std::size_t n, std::uint64_t seed) {
  std::vector<float> f = blastest::uniform_f(n, seed);
  return std::vector<T>(f.begin(), f.end());
}
std::size_t span_of(std::int64_t n, std::int64_t inc) {
  return n <= 0 ? 1 : static_cast<std::size_t>((n - 1) * (inc < 0 ? -inc : inc) + 1);
}
std::size_t idx(std::int64_t n, std::int64_t inc, std::int64_t i) {
  return static_cast<std::size_t>(inc >= 0 ? i * inc : (n - 1 - i) * -inc);
}

trnblasStatus_t gemv(trnblasHandle_t h, trnblasOperation_t t, int m, int n, const float* a, const float* A, int lda,
                     const float* x, int ix, const float* b, float* y, int iy) {
  return trnblasSgemv(h, t, m, n, a, A, lda, x, ix, b, y, iy);
}
trnblasStatus_t gemv(trnblasHandle_t h, trnblasOperation_t t, int m, int n, const double* a, const double* A, int lda,
                     const double* x, int ix, const double* b, double* y, int iy) {
  return trnblasDgemv(h, t, m, n, a, A, lda, x, ix, b, y, iy);
}
trnblasStatus_t ger(trnblasHandle_t h, int m, int n, const float* a, const float* x, int ix, const float* y, int iy,
                    float* A, int lda) {
  return trnblasSger(h, m, n, a, x, ix, y, iy, A, lda);
}
trnblasStatus_t ger(trnblasHandle_t h, int m, int n, const double* a, const double* x, int ix, const double* y, int iy,
                    double* A, int lda) {
  return trnblasDger(h, m, n, a, x, ix, y, iy, A, lda);
}
trnblasStatus_t symv(trnblasHandle_t h, trnblasFillMode_t u, int n, const float* a, const float* A, int lda,
                     const float* x, int ix, const float* b, float* y, int iy) {
  return trnblasSsymv(h, u, n, a, A, lda, x, ix, b, y, iy);
}
trnblasStatus_t symv(trnblasHandle_t h, trnblasFillMode_t u, int n, const double* a, const double* A, int lda,
                     const double* x, int ix, const double* b, double* y, int iy) {
  return trnblasDsymv(h, u, n, a, A, lda, x, ix, b, y, iy);
}
trnblasStatus_t trmv(trnblasHandle_t h, trnblasFillMode_t u, trnblasOperation_t t, trnblasDiagType_t d, int n,
                     const float* A, int lda, float* x, int ix) {
  return trnblasStrmv(h, u, t, d, n, A, lda, x, ix);
}
trnblasStatus_t trmv(trnblasHandle_t h, trnblasFillMode_t u, trnblasOperation_t t, trnblasDiagType_t d, int n,
                     const double* A, int lda, double* x, int ix) {
  return trnblasDtrmv(h, u, t, d, n, A, lda, x, ix);
}
trnblasStatus_t trsv(trnblasHandle_t h, trnblasFillMode_t u, trnblasOperation_t t, trnblasDiagType_t d, int n,
                     const float* A, int lda, float* x, int ix) {
  return trnblasStrsv(h, u, t, d, n, A, lda, x, ix);
}
trnblasStatus_t trsv(trnblasHandle_t h, trnblasFillMode_t u, trnblasOperation_t t, trnblasDiagType_t d, int n,
                     const double* A, int lda, double* x, int ix) {
  return trnblasDtrsv(h, u, t, d, n, A, lda, x, ix);
}
void ref_gemv(CBLAS_TRANSPOSE t, int m, int n, float a, const float* A, int lda, const float* x, int ix, float b,
              float* y, int iy) {
  cblas_sgemv(CblasColMajor, t, m, n, a, A, lda, x, ix, b, y, iy);
}
void ref_gemv(CBLAS_TRANSPOSE t, int m, int n, double a, const double* A, int lda, const double* x, int ix, double b,
              double* y, int iy) {
  cblas_dgemv(CblasColMajor, t, m, n, a, A, lda, x, ix, b, y, iy);
}
void ref_symv(CBLAS_UPLO u, int n, float a, const float* A, int lda, const float* x, int ix, float b, float* y, int iy) {
  cblas_ssymv(CblasColMajor, u, n, a, A, lda, x, ix, b, y, iy);
}
void ref_symv(CBLAS_UPLO u, int n, double a, const double* A, int lda, const double* x, int ix, double b, double* y,
              int iy) {
  cblas_dsymv(CblasColMajor, u, n, a, A, lda, x, ix, b, y, iy);
}

template <class T>
class Level2 : public ::testing::Test {};
using Types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Level2, Types);

TYPED_TEST(Level2, GemvWithinBoundsOfLongDoubleAndOpenBlas) {
  using T = TypeParam;
  Handle h;
  const std::pair<int, int> shapes[] = {{1, 1}, {37, 130}, {200, 150}, {5, 600}};
  const std::pair<int, int> incs[] = {{1, 1}, {2, -1}, {-3, 2}};
  for (auto [m, n] : shapes)
    for (trnblasOperation_t t : {TRNBLAS_OP_N, TRNBLAS_OP_T})
      for (auto [ix, iy] : incs) {
        const int lda = m + 3, lx = t == TRNBLAS_OP_N ? n : m, ly = t == TRNBLAS_OP_N ? m : n;
        const std::vector<T> A = random_vec<T>(static_cast<std::size_t>(lda * n), 1 + m);
        const std::vector<T> x = random_vec<T>(span_of(lx, ix), 2 + n), y0 = random_vec<T>(span_of(ly, iy), 3);
        const T alpha = T(1.25), beta = T(-0.5);
        std::vector<T> y = y0, yr = y0;
        ASSERT_EQ(gemv(h, t, m, n, &alpha, A.data(), lda, x.data(), ix, &beta, y.data(), iy), TRNBLAS_STATUS_SUCCESS);
        ref_gemv(t == TRNBLAS_OP_N ? CblasNoTrans : CblasTrans, m, n, alpha, A.data(), lda, x.data(), ix, beta,
                 yr.data(), iy);
        const long double g = gamma<T>(lx + 4);
        for (int i = 0; i < ly; ++i) {
          long double s = 0, mag = 0;
          for (int k = 0; k < lx; ++k) {
            const long double a = t == TRNBLAS_OP_N ? A[static_cast<std::size_t>(i + k * lda)] : A[static_cast<std::size_t>(k + i * lda)];
            s += a * x[idx(lx, ix, k)];
            mag += std::fabs(a * x[idx(lx, ix, k)]);
          }
          const std::size_t yi = idx(ly, iy, i);
          const long double ex = alpha * s + beta * static_cast<long double>(y0[yi]);
          const long double bound = g * (std::fabs(alpha) * mag + std::fabs(beta * static_cast<long double>(y0[yi])));
          ASSERT_LE(std::fabs(y[yi] - ex), bound) << "m=" << m << " n=" << n << " t=" << t << " i=" << i;
          ASSERT_LE(std::fabs(y[yi] - yr[yi]), 2 * bound) << "vs OpenBLAS";
        }
        // Elements of y between the strided ones are untouched.
        for (std::size_t k = 0; k < y.size(); ++k)
          if (k % static_cast<std::size_t>(std::abs(iy)) != 0) {
            ASSERT_EQ(y[k], y0[k]);
          }
      }
}

TYPED_TEST(Level2, BetaZeroNeverReadsYAlphaZeroNeverReadsAOrXQuickReturns) {
  using T = TypeParam;
  Handle h;
  const int m = 20, n = 30;
  const std::vector<T> A = random_vec<T>(static_cast<std::size_t>(m * n), 4), x = random_vec<T>(n, 5);
  std::vector<T> y(m, std::numeric_limits<T>::quiet_NaN());
  const T one = 1, zero = 0, two = 2;
  ASSERT_EQ(gemv(h, TRNBLAS_OP_N, m, n, &one, A.data(), m, x.data(), 1, &zero, y.data(), 1), TRNBLAS_STATUS_SUCCESS);
  for (T v : y) ASSERT_TRUE(std::isfinite(v));
  const std::vector<T> y1 = y;
  ASSERT_EQ(gemv(h, TRNBLAS_OP_N, m, n, &zero, static_cast<const T*>(nullptr), m, static_cast<const T*>(nullptr), 1,
                 &two, y.data(), 1),
            TRNBLAS_STATUS_SUCCESS);
  for (int i = 0; i < m; ++i) ASSERT_EQ(y[static_cast<std::size_t>(i)], two * y1[static_cast<std::size_t>(i)]);
  // m == 0 or n == 0: y untouched (the reference BLAS returns before scaling y), even with beta = 0.
  const std::vector<T> y2 = y;
  ASSERT_EQ(gemv(h, TRNBLAS_OP_N, m, 0, &one, A.data(), m, x.data(), 1, &zero, y.data(), 1), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(y, y2);
  // symv with beta = 0 and NaN in y, NaN in the unreferenced triangle.
  std::vector<T> S = random_vec<T>(static_cast<std::size_t>(n * n), 6);
  for (int j = 0; j < n; ++j)
    for (int i = j + 1; i < n; ++i) S[static_cast<std::size_t>(i + j * n)] = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> ys(n, std::numeric_limits<T>::quiet_NaN());
  ASSERT_EQ(symv(h, TRNBLAS_FILL_MODE_UPPER, n, &one, S.data(), n, x.data(), 1, &zero, ys.data(), 1), TRNBLAS_STATUS_SUCCESS);
  for (T v : ys) ASSERT_TRUE(std::isfinite(v));
  // NaN in x propagates to every element of y = A x.
  std::vector<T> xn = x;
  xn[7] = std::numeric_limits<T>::quiet_NaN();
  ASSERT_EQ(gemv(h, TRNBLAS_OP_N, m, n, &one, A.data(), m, xn.data(), 1, &zero, y.data(), 1), TRNBLAS_STATUS_SUCCESS);
  for (T v : y) ASSERT_TRUE(std::isnan(v));
}

TYPED_TEST(Level2, GerAndSymvWithinBounds) {
  using T = TypeParam;
  Handle h;
  const int m = 37, n = 50, lda = 40;
  for (auto [ix, iy] : {std::pair{1, 1}, std::pair{-2, 3}}) {
    const std::vector<T> x = random_vec<T>(span_of(m, ix), 7), y = random_vec<T>(span_of(n, iy), 8);
    const std::vector<T> A0 = random_vec<T>(static_cast<std::size_t>(lda * n), 9);
    std::vector<T> A = A0;
    const T alpha = T(0.75);
    ASSERT_EQ(ger(h, m, n, &alpha, x.data(), ix, y.data(), iy, A.data(), lda), TRNBLAS_STATUS_SUCCESS);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < lda; ++i) {
        const std::size_t k = static_cast<std::size_t>(i + j * lda);
        if (i >= m) {
          ASSERT_EQ(A[k], A0[k]);  // rows below m untouched
          continue;
        }
        const long double p = alpha * static_cast<long double>(x[idx(m, ix, i)]) * y[idx(n, iy, j)];
        ASSERT_LE(std::fabs(A[k] - (A0[k] + p)), gamma<T>(3) * (std::fabs(p) + std::fabs(static_cast<long double>(A0[k]))));
      }
  }
  // symv, both triangles; the other triangle is NaN and must not be read.
  const int ns = 70;
  for (trnblasFillMode_t u : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER})
    for (auto [ix, iy] : {std::pair{1, 1}, std::pair{2, -2}}) {
      std::vector<T> S = random_vec<T>(static_cast<std::size_t>(ns * ns), 10), Sr = S;
      for (int j = 0; j < ns; ++j)
        for (int i = 0; i < ns; ++i) {
          const bool stored = u == TRNBLAS_FILL_MODE_LOWER ? i >= j : i <= j;
          if (!stored) S[static_cast<std::size_t>(i + j * ns)] = std::numeric_limits<T>::quiet_NaN();
        }
      const std::vector<T> x = random_vec<T>(span_of(ns, ix), 11), y0 = random_vec<T>(span_of(ns, iy), 12);
      std::vector<T> y = y0, yr = y0;
      const T alpha = T(-1.5), beta = T(0.25);
      ASSERT_EQ(symv(h, u, ns, &alpha, S.data(), ns, x.data(), ix, &beta, y.data(), iy), TRNBLAS_STATUS_SUCCESS);
      ref_symv(u == TRNBLAS_FILL_MODE_LOWER ? CblasLower : CblasUpper, ns, alpha, Sr.data(), ns, x.data(), ix, beta,
               yr.data(), iy);
      for (int i = 0; i < ns; ++i) {
        long double s = 0, mag = 0;
        for (int k = 0; k < ns; ++k) {
          const bool stored = u == TRNBLAS_FILL_MODE_LOWER ? i >= k : i <= k;
          const long double a = stored ? Sr[static_cast<std::size_t>(i + k * ns)] : Sr[static_cast<std::size_t>(k + i * ns)];
          s += a * x[idx(ns, ix, k)];
          mag += std::fabs(a * x[idx(ns, ix, k)]);
        }
        const std::size_t yi = idx(ns, iy, i);
        const long double bound = gamma<T>(ns + 4) * (std::fabs(alpha) * mag + std::fabs(beta * static_cast<long double>(y0[yi])));
        ASSERT_LE(std::fabs(y[yi] - (alpha * s + beta * static_cast<long double>(y0[yi]))), bound) << "symv i=" << i;
        ASSERT_LE(std::fabs(y[yi] - yr[yi]), 2 * bound) << "symv vs OpenBLAS";
      }
    }
}

// op(T)(i, j) of a stored triangle (unit: the diagonal is 1; outside the triangle: 0).
template <class T>
long double tri(const std::vector<T>& A, int lda, bool lower, bool trans, bool unit, int i, int j) {
  const int r = trans ? j : i, c = trans ? i : j;
  if (r == c) return unit ? 1.0L : static_cast<long double>(A[static_cast<std::size_t>(r + c * lda)]);
  const bool stored = lower ? r > c : r < c;
  return stored ? static_cast<long double>(A[static_cast<std::size_t>(r + c * lda)]) : 0.0L;
}

TYPED_TEST(Level2, TrmvAndTrsvEveryUploTransDiag) {
  using T = TypeParam;
  Handle h;
  for (int n : {1, 70, 200})
    for (trnblasFillMode_t u : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER})
      for (trnblasOperation_t t : {TRNBLAS_OP_N, TRNBLAS_OP_T})
        for (trnblasDiagType_t d : {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}) {
          if (n == 200 && d == TRNBLAS_DIAG_UNIT) continue;  // keep the large size short
          const int lda = n + 1, inc = n == 70 ? -2 : 1;
          const bool lower = u == TRNBLAS_FILL_MODE_LOWER, trans = t == TRNBLAS_OP_T, unit = d == TRNBLAS_DIAG_UNIT;
          std::vector<T> A = random_vec<T>(static_cast<std::size_t>(lda * n), 13 + n);
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < lda; ++i) {
              T& a = A[static_cast<std::size_t>(i + j * lda)];
              const bool stored = i < n && (lower ? i > j : i < j);
              if (i == j) a = unit ? std::numeric_limits<T>::quiet_NaN() : T(2) + a;  // well conditioned
              else if (!stored) a = std::numeric_limits<T>::quiet_NaN();         // never read
              else a = a / static_cast<T>(n);
            }
          const std::vector<T> x0 = random_vec<T>(span_of(n, inc), 14);
          // trmv
          std::vector<T> x = x0;
          ASSERT_EQ(trmv(h, u, t, d, n, A.data(), lda, x.data(), inc), TRNBLAS_STATUS_SUCCESS);
          for (int i = 0; i < n; ++i) {
            long double s = 0, mag = 0;
            for (int j = 0; j < n; ++j) {
              const long double a = tri(A, lda, lower, trans, unit, i, j);
              s += a * x0[idx(n, inc, j)];
              mag += std::fabs(a * x0[idx(n, inc, j)]);
            }
            ASSERT_LE(std::fabs(x[idx(n, inc, i)] - s), gamma<T>(n + 4) * mag)
                << "trmv n=" << n << " u=" << u << " t=" << t << " d=" << d << " i=" << i;
          }
          // trsv: componentwise residual bound.
          x = x0;
          ASSERT_EQ(trsv(h, u, t, d, n, A.data(), lda, x.data(), inc), TRNBLAS_STATUS_SUCCESS);
          for (int i = 0; i < n; ++i) {
            long double s = 0, mag = 0;
            for (int j = 0; j < n; ++j) {
              const long double a = tri(A, lda, lower, trans, unit, i, j);
              s += a * x[idx(n, inc, j)];
              mag += std::fabs(a * x[idx(n, inc, j)]);
            }
            ASSERT_LE(std::fabs(s - x0[idx(n, inc, i)]), gamma<T>(n + 2) * mag)
                << "trsv n=" << n << " u=" << u << " t=" << t << " d=" << d << " i=" << i;
          }
        }
}

TYPED_TEST(Level2, InvalidArgumentsNameTheirPositionAndWriteNothing) {
  using T = TypeParam;
  Handle h;
  const int n = 6;
  std::vector<T> A = random_vec<T>(n * n, 1), x = random_vec<T>(n, 2), y = random_vec<T>(n, 3);
  const std::vector<T> A0 = A, x0 = x, y0 = y;
  const T one = 1;
  int last = -1;
  auto expect_pos = [&](trnblasStatus_t st, int pos) {
    EXPECT_EQ(st, TRNBLAS_STATUS_INVALID_VALUE);
    ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
    EXPECT_EQ(last, pos);
    EXPECT_EQ(A, A0);
    EXPECT_EQ(x, x0);
    EXPECT_EQ(y, y0);
  };
  const auto bad_op = static_cast<trnblasOperation_t>(7);
  expect_pos(gemv(h, bad_op, n, n, &one, A.data(), n, x.data(), 1, &one, y.data(), 1), 1);
  expect_pos(gemv(h, TRNBLAS_OP_N, -1, n, &one, A.data(), n, x.data(), 1, &one, y.data(), 1), 2);
  expect_pos(gemv(h, TRNBLAS_OP_N, n, -1, &one, A.data(), n, x.data(), 1, &one, y.data(), 1), 3);
  expect_pos(gemv(h, TRNBLAS_OP_N, n, n, &one, A.data(), n - 1, x.data(), 1, &one, y.data(), 1), 6);
  expect_pos(gemv(h, TRNBLAS_OP_N, n, n, &one, A.data(), n, x.data(), 0, &one, y.data(), 1), 8);
  expect_pos(gemv(h, TRNBLAS_OP_N, n, n, &one, A.data(), n, x.data(), 1, &one, y.data(), 0), 11);
  expect_pos(gemv(h, TRNBLAS_OP_N, n, n, static_cast<const T*>(nullptr), A.data(), n, x.data(), 1, &one, y.data(), 1), 4);
  expect_pos(gemv(h, TRNBLAS_OP_N, n, n, &one, A.data(), n, x.data(), 1, static_cast<const T*>(nullptr), y.data(), 1), 9);
  expect_pos(gemv(h, TRNBLAS_OP_N, n, n, &one, static_cast<const T*>(nullptr), n, x.data(), 1, &one, y.data(), 1), 5);
  expect_pos(ger(h, -1, n, &one, x.data(), 1, y.data(), 1, A.data(), n), 1);
  expect_pos(ger(h, n, n, &one, x.data(), 0, y.data(), 1, A.data(), n), 5);
  expect_pos(ger(h, n, n, &one, x.data(), 1, y.data(), 0, A.data(), n), 7);
  expect_pos(ger(h, n, n, &one, x.data(), 1, y.data(), 1, A.data(), n - 1), 9);
  expect_pos(symv(h, TRNBLAS_FILL_MODE_FULL, n, &one, A.data(), n, x.data(), 1, &one, y.data(), 1), 1);
  expect_pos(symv(h, TRNBLAS_FILL_MODE_LOWER, n, &one, A.data(), n - 1, x.data(), 1, &one, y.data(), 1), 5);
  expect_pos(symv(h, TRNBLAS_FILL_MODE_LOWER, n, &one, A.data(), n, x.data(), 1, &one, y.data(), 0), 10);
  const auto bad_diag = static_cast<trnblasDiagType_t>(5);
  expect_pos(trsv(h, static_cast<trnblasFillMode_t>(9), TRNBLAS_OP_N, TRNBLAS_DIAG_UNIT, n, A.data(), n, x.data(), 1), 1);
  expect_pos(trsv(h, TRNBLAS_FILL_MODE_LOWER, bad_op, TRNBLAS_DIAG_UNIT, n, A.data(), n, x.data(), 1), 2);
  expect_pos(trsv(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, bad_diag, n, A.data(), n, x.data(), 1), 3);
  expect_pos(trmv(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_UNIT, -2, A.data(), n, x.data(), 1), 4);
  expect_pos(trmv(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_UNIT, n, A.data(), n - 1, x.data(), 1), 6);
  expect_pos(trmv(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_UNIT, n, A.data(), n, x.data(), 0), 8);
  expect_pos(trmv(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_UNIT, n, nullptr, n, x.data(), 1), 5);
  EXPECT_EQ(gemv(nullptr, TRNBLAS_OP_N, n, n, &one, A.data(), n, x.data(), 1, &one, y.data(), 1),
            TRNBLAS_STATUS_NOT_INITIALIZED);
}

// Float trsv (trsv_kernel: x on one partition, column panels of T) computes the reference column
// loop x_j = fl(b_j / t_jj), x_i = fl(x_i - fl(t_ij x_j)) for the unsolved i, in that order: bit for
// bit, also for a -0 right-hand side (which the old 0/1 masks and selector sums turned into +0) and
// with NaN in the unreferenced triangle. n = 300 spans several T panels (16384 words each).
TEST(Level2Float, TrsvIsTheColumnLoopBitForBit) {
  Handle h;
  for (int n : {5, 64, 300})
    for (trnblasFillMode_t u : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER})
      for (trnblasOperation_t t : {TRNBLAS_OP_N, TRNBLAS_OP_T})
        for (trnblasDiagType_t d : {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}) {
          const int lda = n + 3;
          const bool lower = u == TRNBLAS_FILL_MODE_LOWER, trans = t == TRNBLAS_OP_T, unit = d == TRNBLAS_DIAG_UNIT;
          std::vector<float> A = random_vec<float>(static_cast<std::size_t>(lda * n), 31 + n);
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < lda; ++i) {
              float& a = A[static_cast<std::size_t>(i + j * lda)];
              const bool stored = i < n && (lower ? i >= j : i <= j);
              if (!stored || (unit && i == j)) a = std::numeric_limits<float>::quiet_NaN();  // never read
              else if (i == j) a = 2.0f + a;
              else a = a / static_cast<float>(n);
            }
          std::vector<float> b = random_vec<float>(static_cast<std::size_t>(n), 32 + n);
          for (int i = 0; i < n; i += 3) b[static_cast<std::size_t>(i)] = -0.0f;  // and x_j = -0 on the first rows
          // op(A)(i, j) and the reference column loop (each product rounded on its own: volatile).
          const auto op_a = [&](int i, int j) { return trans ? A[static_cast<std::size_t>(j + i * lda)] : A[static_cast<std::size_t>(i + j * lda)]; };
          const bool op_lower = lower != trans;
          std::vector<float> want = b;
          for (int step = 0; step < n; ++step) {
            const int j = op_lower ? step : n - 1 - step;
            float& xj = want[static_cast<std::size_t>(j)];
            if (!unit) xj = xj / op_a(j, j);
            for (int i = op_lower ? j + 1 : 0; i < (op_lower ? n : j); ++i) {
              volatile float p = op_a(i, j) * xj;
              want[static_cast<std::size_t>(i)] = want[static_cast<std::size_t>(i)] - p;
            }
          }
          std::vector<float> x = b;
          ASSERT_EQ(trnblasStrsv(h, u, t, d, n, A.data(), lda, x.data(), 1), TRNBLAS_STATUS_SUCCESS);
          for (int i = 0; i < n; ++i) {
            std::uint32_t got_bits = 0, want_bits = 0;
            std::memcpy(&got_bits, &x[static_cast<std::size_t>(i)], 4);
            std::memcpy(&want_bits, &want[static_cast<std::size_t>(i)], 4);
            ASSERT_EQ(got_bits, want_bits) << "n=" << n << " u=" << u << " t=" << t << " d=" << d << " i=" << i;
          }
        }
}

TEST(Level2_64, The64BitFormsAgreeAndSgemvRunsOnTensorE) {
  Handle h;
  const int m = 50, n = 40;
  const std::vector<float> A = random_vec<float>(m * n, 1), x = random_vec<float>(n, 2);
  std::vector<float> y32(m, 1.0f), y64(m, 1.0f);
  const float one = 1;
  ASSERT_EQ(trnblasSgemv(h, TRNBLAS_OP_N, m, n, &one, A.data(), m, x.data(), 1, &one, y32.data(), 1), TRNBLAS_STATUS_SUCCESS);
  trnProfile_t p{};
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_TENSOR], 0);
  ASSERT_EQ(trnblasSgemv_64(h, TRNBLAS_OP_N, m, n, &one, A.data(), m, x.data(), 1, &one, y64.data(), 1), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(y32, y64);
  EXPECT_EQ(trnblasStrsv_64(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, 4, A.data(), INT64_MAX / 2,
                            y64.data(), 1),
            TRNBLAS_STATUS_INVALID_VALUE);  // lda whose extent cannot be addressed
}

// ---- complex gemv ------------------------------------------------------------------------------
// Each component of y = alpha op(A) x + beta y is a sum of 2k real products (two GEMM-vector
// products accumulated, depth <= 2k + 2), then alpha (2 roundings), beta y (2) and the add (1):
// |err| <= gamma_{2k+7} ((|ar| + |ai|) sum_k (|a_r| + |a_i|)(|x_r| + |x_i|) + (|br| + |bi|)(|y_r| + |y_i|)).
using cf = std::complex<float>;
using cd = std::complex<double>;
trnblasStatus_t cgemv(trnblasHandle_t h, trnblasOperation_t t, int m, int n, const cf* a, const cf* A, int lda,
                      const cf* x, int ix, const cf* b, cf* y, int iy) {
  auto c = [](auto* p) { return reinterpret_cast<const trnFloatComplex*>(p); };
  return trnblasCgemv(h, t, m, n, c(a), c(A), lda, c(x), ix, c(b), reinterpret_cast<trnFloatComplex*>(y), iy);
}
trnblasStatus_t cgemv(trnblasHandle_t h, trnblasOperation_t t, int m, int n, const cd* a, const cd* A, int lda,
                      const cd* x, int ix, const cd* b, cd* y, int iy) {
  auto c = [](auto* p) { return reinterpret_cast<const trnDoubleComplex*>(p); };
  return trnblasZgemv(h, t, m, n, c(a), c(A), lda, c(x), ix, c(b), reinterpret_cast<trnDoubleComplex*>(y), iy);
}
void ref_cgemv(CBLAS_TRANSPOSE t, int m, int n, const cf& a, const cf* A, int lda, const cf* x, int ix, const cf& b,
               cf* y, int iy) {
  cblas_cgemv(CblasColMajor, t, m, n, &a, A, lda, x, ix, &b, y, iy);
}
void ref_cgemv(CBLAS_TRANSPOSE t, int m, int n, const cd& a, const cd* A, int lda, const cd* x, int ix, const cd& b,
               cd* y, int iy) {
  cblas_zgemv(CblasColMajor, t, m, n, &a, A, lda, x, ix, &b, y, iy);
}

template <class C>
std::vector<C> random_cvec(std::size_t n, std::uint64_t seed) {
  using R = typename C::value_type;
  const std::vector<R> re = random_vec<R>(n, seed), im = random_vec<R>(n, seed + 99);
  std::vector<C> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = C(re[i], im[i]);
  return v;
}

template <class C>
class Level2Complex : public ::testing::Test {};
using ComplexTypes = ::testing::Types<cf, cd>;
TYPED_TEST_SUITE(Level2Complex, ComplexTypes);

TYPED_TEST(Level2Complex, GemvNTCWithinBoundsOfLongDoubleAndOpenBlas) {
  using C = TypeParam;
  using R = typename C::value_type;
  using LC = std::complex<long double>;
  Handle h;
  for (auto [m, n] : {std::pair{1, 1}, std::pair{37, 130}, std::pair{90, 20}})
    for (trnblasOperation_t t : {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C})
      for (auto [ix, iy] : {std::pair{1, 1}, std::pair{-2, 3}})
        for (bool beta_zero : {false, true}) {
          const int lda = m + 2, lx = t == TRNBLAS_OP_N ? n : m, ly = t == TRNBLAS_OP_N ? m : n;
          const std::vector<C> A = random_cvec<C>(static_cast<std::size_t>(lda * n), 5 + m);
          const std::vector<C> x = random_cvec<C>(span_of(lx, ix), 6);
          std::vector<C> y0 = random_cvec<C>(span_of(ly, iy), 7);
          if (beta_zero)
            for (int i = 0; i < ly; ++i) y0[idx(ly, iy, i)] = C(std::numeric_limits<R>::quiet_NaN(), R(0));
          const C alpha(R(0.5), R(-1.5)), beta = beta_zero ? C(0, 0) : C(R(-0.25), R(0.75));
          std::vector<C> y = y0, yr = y0;
          ASSERT_EQ(cgemv(h, t, m, n, &alpha, A.data(), lda, x.data(), ix, &beta, y.data(), iy), TRNBLAS_STATUS_SUCCESS);
          ref_cgemv(t == TRNBLAS_OP_N ? CblasNoTrans : t == TRNBLAS_OP_T ? CblasTrans : CblasConjTrans, m, n, alpha,
                    A.data(), lda, x.data(), ix, beta, yr.data(), iy);
          const long double g = gamma<R>(2 * lx + 7);
          const long double amag = std::fabs(alpha.real()) + std::fabs(alpha.imag());
          const long double bmag = std::fabs(beta.real()) + std::fabs(beta.imag());
          for (int i = 0; i < ly; ++i) {
            LC s = 0;
            long double mag = 0;
            for (int k = 0; k < lx; ++k) {
              C a = t == TRNBLAS_OP_N ? A[static_cast<std::size_t>(i + k * lda)] : A[static_cast<std::size_t>(k + i * lda)];
              if (t == TRNBLAS_OP_C) a = std::conj(a);
              const C xv = x[idx(lx, ix, k)];
              s += LC(a.real(), a.imag()) * LC(xv.real(), xv.imag());
              mag += (std::fabs(a.real()) + std::fabs(a.imag())) * (std::fabs(xv.real()) + std::fabs(xv.imag()));
            }
            const std::size_t yi = idx(ly, iy, i);
            LC ex = LC(alpha.real(), alpha.imag()) * s;
            long double ymag = 0;
            if (!beta_zero) {
              ex += LC(beta.real(), beta.imag()) * LC(y0[yi].real(), y0[yi].imag());
              ymag = std::fabs(y0[yi].real()) + std::fabs(y0[yi].imag());
            }
            const long double bound = g * (amag * mag + bmag * ymag);
            ASSERT_LE(std::fabs(y[yi].real() - ex.real()), bound) << "m=" << m << " n=" << n << " t=" << t << " i=" << i;
            ASSERT_LE(std::fabs(y[yi].imag() - ex.imag()), bound) << "m=" << m << " n=" << n << " t=" << t << " i=" << i;
            ASSERT_LE(std::fabs(y[yi].real() - yr[yi].real()) + std::fabs(y[yi].imag() - yr[yi].imag()), 4 * bound)
                << "vs OpenBLAS";
          }
        }
}

// ---- banded, packed, syr/syr2/spr/spr2 (S and D) -----------------------------------------------
// The dense matrix each storage stands for is rebuilt here from the reference BLAS's layout
// definitions (independent of the library's staging); products are bounded as gemv's, solves by
// their residual, rank-1/2 updates by gamma_4 (|alpha x y| terms + |a|).

template <class T> struct Api;
template <> struct Api<float> {
  static constexpr auto gbmv = trnblasSgbmv; static constexpr auto sbmv = trnblasSsbmv; static constexpr auto spmv = trnblasSspmv;
  static constexpr auto tbmv = trnblasStbmv; static constexpr auto tbsv = trnblasStbsv; static constexpr auto tpmv = trnblasStpmv;
  static constexpr auto tpsv = trnblasStpsv; static constexpr auto syr = trnblasSsyr; static constexpr auto spr = trnblasSspr;
  static constexpr auto syr2 = trnblasSsyr2; static constexpr auto spr2 = trnblasSspr2;
  static constexpr auto ref_gbmv = cblas_sgbmv; static constexpr auto ref_sbmv = cblas_ssbmv; static constexpr auto ref_spmv = cblas_sspmv;
  static constexpr auto ref_tbmv = cblas_stbmv; static constexpr auto ref_tpmv = cblas_stpmv; static constexpr auto ref_syr = cblas_ssyr;
  static constexpr auto ref_spr = cblas_sspr; static constexpr auto ref_syr2 = cblas_ssyr2; static constexpr auto ref_spr2 = cblas_sspr2;
};
template <> struct Api<double> {
  static constexpr auto gbmv = trnblasDgbmv; static constexpr auto sbmv = trnblasDsbmv; static constexpr auto spmv = trnblasDspmv;
  static constexpr auto tbmv = trnblasDtbmv; static constexpr auto tbsv = trnblasDtbsv; static constexpr auto tpmv = trnblasDtpmv;
  static constexpr auto tpsv = trnblasDtpsv; static constexpr auto syr = trnblasDsyr; static constexpr auto spr = trnblasDspr;
  static constexpr auto syr2 = trnblasDsyr2; static constexpr auto spr2 = trnblasDspr2;
  static constexpr auto ref_gbmv = cblas_dgbmv; static constexpr auto ref_sbmv = cblas_dsbmv; static constexpr auto ref_spmv = cblas_dspmv;
  static constexpr auto ref_tbmv = cblas_dtbmv; static constexpr auto ref_tpmv = cblas_dtpmv; static constexpr auto ref_syr = cblas_dsyr;
  static constexpr auto ref_spr = cblas_dspr; static constexpr auto ref_syr2 = cblas_dsyr2; static constexpr auto ref_spr2 = cblas_dspr2;
};

// y and yr (ours and OpenBLAS's) against the long-double product of the dense matrix D (ly x lx, ld ly).
template <class T>
void expect_product(const std::vector<long double>& D, int ly, int lx, T alpha, const std::vector<T>& x, int ix,
                    T beta, const std::vector<T>& y0, const std::vector<T>& y, const std::vector<T>& yr, int iy,
                    const char* what) {
  const long double g = gamma<T>(lx + 4);
  for (int i = 0; i < ly; ++i) {
    long double s = 0, mag = 0;
    for (int k = 0; k < lx; ++k) {
      const long double a = D[static_cast<std::size_t>(i + k * ly)];
      s += a * x[idx(lx, ix, k)];
      mag += std::fabs(a * x[idx(lx, ix, k)]);
    }
    const std::size_t yi = idx(ly, iy, i);
    const long double b = beta * static_cast<long double>(y0[yi]);
    const long double bound = g * (std::fabs(alpha) * mag + std::fabs(b));
    ASSERT_LE(std::fabs(y[yi] - (alpha * s + b)), bound) << what << " i=" << i;
    ASSERT_LE(std::fabs(y[yi] - yr[yi]), 2 * bound) << what << " vs OpenBLAS, i=" << i;
  }
}

TYPED_TEST(Level2, BandedPackedAndRankUpdatesAgainstOpenBlas) {
  using T = TypeParam;
  using F = Api<T>;
  Handle h;
  const int n = 45, k = 3, kl = 2, ku = 4;
  const T alpha = T(1.5), beta = T(-0.5);
  for (auto [ix, iy] : {std::pair{1, 1}, std::pair{-2, 3}}) {
    const std::vector<T> x = random_vec<T>(span_of(n, ix), 21), y0 = random_vec<T>(span_of(n, iy), 22);
    // gbmv (square n x n, kl, ku), op N and T.
    {
      const int lda = kl + ku + 2;
      const std::vector<T> B = random_vec<T>(static_cast<std::size_t>(lda * n), 23);
      std::vector<long double> D(static_cast<std::size_t>(n * n), 0.0L);
      for (int j = 0; j < n; ++j)
        for (int i = std::max(0, j - ku); i <= std::min(n - 1, j + kl); ++i)
          D[static_cast<std::size_t>(i + j * n)] = B[static_cast<std::size_t>(ku + i - j + j * lda)];
      for (trnblasOperation_t t : {TRNBLAS_OP_N, TRNBLAS_OP_T}) {
        std::vector<long double> Dt = D;
        if (t == TRNBLAS_OP_T)
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) Dt[static_cast<std::size_t>(i + j * n)] = D[static_cast<std::size_t>(j + i * n)];
        std::vector<T> y = y0, yr = y0;
        ASSERT_EQ(F::gbmv(h, t, n, n, kl, ku, &alpha, B.data(), lda, x.data(), ix, &beta, y.data(), iy), TRNBLAS_STATUS_SUCCESS);
        F::ref_gbmv(CblasColMajor, t == TRNBLAS_OP_N ? CblasNoTrans : CblasTrans, n, n, kl, ku, alpha, B.data(), lda,
                    x.data(), ix, beta, yr.data(), iy);
        expect_product(Dt, n, n, alpha, x, ix, beta, y0, y, yr, iy, "gbmv");
      }
    }
    for (trnblasFillMode_t u : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}) {
      const bool up = u == TRNBLAS_FILL_MODE_UPPER;
      const CBLAS_UPLO cu = up ? CblasUpper : CblasLower;
      // sbmv: band layout; sym dense.
      const int lda = k + 2;
      const std::vector<T> B = random_vec<T>(static_cast<std::size_t>(lda * n), 24);
      std::vector<long double> D(static_cast<std::size_t>(n * n), 0.0L);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const int r = up ? std::min(i, j) : std::max(i, j), c = up ? std::max(i, j) : std::min(i, j);
          if (std::abs(r - c) > k) continue;
          D[static_cast<std::size_t>(i + j * n)] = up ? B[static_cast<std::size_t>(k + r - c + c * lda)] : B[static_cast<std::size_t>(r - c + c * lda)];
        }
      std::vector<T> y = y0, yr = y0;
      ASSERT_EQ(F::sbmv(h, u, n, k, &alpha, B.data(), lda, x.data(), ix, &beta, y.data(), iy), TRNBLAS_STATUS_SUCCESS);
      F::ref_sbmv(CblasColMajor, cu, n, k, alpha, B.data(), lda, x.data(), ix, beta, yr.data(), iy);
      expect_product(D, n, n, alpha, x, ix, beta, y0, y, yr, iy, "sbmv");
      // spmv / packed dense.
      const std::vector<T> AP = random_vec<T>(static_cast<std::size_t>(n * (n + 1) / 2), 25);
      auto pidx = [&](int r, int c) {  // (r, c) in the stored triangle
        return static_cast<std::size_t>(up ? r + c * (c + 1) / 2 : r + (2 * n - c - 1) * c / 2);
      };
      std::vector<long double> P(static_cast<std::size_t>(n * n));
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const int r = up ? std::min(i, j) : std::max(i, j), c = up ? std::max(i, j) : std::min(i, j);
          P[static_cast<std::size_t>(i + j * n)] = AP[pidx(r, c)];
        }
      y = y0;
      yr = y0;
      ASSERT_EQ(F::spmv(h, u, n, &alpha, AP.data(), x.data(), ix, &beta, y.data(), iy), TRNBLAS_STATUS_SUCCESS);
      F::ref_spmv(CblasColMajor, cu, n, alpha, AP.data(), x.data(), ix, beta, yr.data(), iy);
      expect_product(P, n, n, alpha, x, ix, beta, y0, y, yr, iy, "spmv");
      // tbmv / tpmv (non-unit, N and T): triangular parts of D / P; tbsv / tpsv by residual.
      for (trnblasOperation_t t : {TRNBLAS_OP_N, TRNBLAS_OP_T}) {
        for (bool packed : {false, true}) {
          const std::vector<long double>& S = packed ? P : D;
          std::vector<long double> Tri(static_cast<std::size_t>(n * n), 0.0L);
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
              const bool stored = up ? i <= j : i >= j;
              if (!stored) continue;
              const std::size_t at = t == TRNBLAS_OP_N ? static_cast<std::size_t>(i + j * n) : static_cast<std::size_t>(j + i * n);
              Tri[at] = S[static_cast<std::size_t>(i + j * n)];
            }
          std::vector<T> xt = x, xr = x;
          const CBLAS_TRANSPOSE ct = t == TRNBLAS_OP_N ? CblasNoTrans : CblasTrans;
          if (packed) {
            ASSERT_EQ(F::tpmv(h, u, t, TRNBLAS_DIAG_NON_UNIT, n, AP.data(), xt.data(), ix), TRNBLAS_STATUS_SUCCESS);
            F::ref_tpmv(CblasColMajor, cu, ct, CblasNonUnit, n, AP.data(), xr.data(), ix);
          } else {
            ASSERT_EQ(F::tbmv(h, u, t, TRNBLAS_DIAG_NON_UNIT, n, k, B.data(), lda, xt.data(), ix), TRNBLAS_STATUS_SUCCESS);
            F::ref_tbmv(CblasColMajor, cu, ct, CblasNonUnit, n, k, B.data(), lda, xr.data(), ix);
          }
          expect_product(Tri, n, n, T(1), x, ix, T(0), x, xt, xr, ix, packed ? "tpmv" : "tbmv");
          // Solves: make the diagonal dominant in a copy of the storage.
          std::vector<T> Bs = B, APs = AP;
          for (int j = 0; j < n; ++j) {
            if (packed) APs[pidx(j, j)] = T(3) + APs[pidx(j, j)];
            else Bs[static_cast<std::size_t>((up ? k : 0) + j * lda)] = T(3) + Bs[static_cast<std::size_t>((up ? k : 0) + j * lda)];
          }
          xt = x;
          if (packed) ASSERT_EQ(F::tpsv(h, u, t, TRNBLAS_DIAG_NON_UNIT, n, APs.data(), xt.data(), ix), TRNBLAS_STATUS_SUCCESS);
          else ASSERT_EQ(F::tbsv(h, u, t, TRNBLAS_DIAG_NON_UNIT, n, k, Bs.data(), lda, xt.data(), ix), TRNBLAS_STATUS_SUCCESS);
          for (int i = 0; i < n; ++i) {
            long double s = 0, mag = 0;
            for (int j = 0; j < n; ++j) {
              long double a = Tri[static_cast<std::size_t>(i + j * n)];
              if (i == j) a += 3;
              s += a * xt[idx(n, ix, j)];
              mag += std::fabs(a * xt[idx(n, ix, j)]);
            }
            ASSERT_LE(std::fabs(s - x[idx(n, ix, i)]), gamma<T>(n + 2) * mag) << (packed ? "tpsv" : "tbsv") << " i=" << i;
          }
        }
      }
      // syr / syr2 on a dense matrix (lda > n), spr / spr2 on packed: against OpenBLAS, other triangle untouched.
      const int ld = n + 2;
      const std::vector<T> A0 = random_vec<T>(static_cast<std::size_t>(ld * n), 26);
      for (bool two : {false, true}) {
        std::vector<T> A = A0, Ar = A0, Q = AP, Qr = AP;
        if (two) {
          ASSERT_EQ(F::syr2(h, u, n, &alpha, x.data(), ix, y0.data(), iy, A.data(), ld), TRNBLAS_STATUS_SUCCESS);
          F::ref_syr2(CblasColMajor, cu, n, alpha, x.data(), ix, y0.data(), iy, Ar.data(), ld);
          ASSERT_EQ(F::spr2(h, u, n, &alpha, x.data(), ix, y0.data(), iy, Q.data()), TRNBLAS_STATUS_SUCCESS);
          F::ref_spr2(CblasColMajor, cu, n, alpha, x.data(), ix, y0.data(), iy, Qr.data());
        } else {
          ASSERT_EQ(F::syr(h, u, n, &alpha, x.data(), ix, A.data(), ld), TRNBLAS_STATUS_SUCCESS);
          F::ref_syr(CblasColMajor, cu, n, alpha, x.data(), ix, Ar.data(), ld);
          ASSERT_EQ(F::spr(h, u, n, &alpha, x.data(), ix, Q.data()), TRNBLAS_STATUS_SUCCESS);
          F::ref_spr(CblasColMajor, cu, n, alpha, x.data(), ix, Qr.data());
        }
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < ld; ++i) {
            const std::size_t at = static_cast<std::size_t>(i + j * ld);
            const bool stored = i < n && (up ? i <= j : i >= j);
            if (!stored) {
              ASSERT_EQ(A[at], A0[at]) << "outside the triangle";
              continue;
            }
            long double upd = alpha * static_cast<long double>(x[idx(n, ix, i)]) * x[idx(n, ix, j)];
            if (two)
              upd = alpha * (static_cast<long double>(x[idx(n, ix, i)]) * y0[idx(n, iy, j)] +
                             static_cast<long double>(y0[idx(n, iy, i)]) * x[idx(n, ix, j)]);
            const long double mag = 2 * std::fabs(upd) + std::fabs(static_cast<long double>(A0[at])) +
                                    (two ? std::fabs(alpha) * (std::fabs(static_cast<long double>(x[idx(n, ix, i)]) * y0[idx(n, iy, j)]) +
                                                               std::fabs(static_cast<long double>(y0[idx(n, iy, i)]) * x[idx(n, ix, j)]))
                                         : 0.0L);
            ASSERT_LE(std::fabs(A[at] - (A0[at] + upd)), gamma<T>(4) * mag) << (two ? "syr2" : "syr");
            ASSERT_LE(std::fabs(A[at] - Ar[at]), 2 * gamma<T>(4) * mag) << "vs OpenBLAS";
          }
        // Packed: both results lie within gamma_4 * mag of the exact update, where here (|x|, |y| <= 1,
        // |alpha| = 1.5) mag <= |a| + 9 <= |result| + 12, so they differ by at most 2 gamma_4 (|result| + 12).
        for (std::size_t q = 0; q < Q.size(); ++q)
          ASSERT_LE(std::fabs(Q[q] - Qr[q]), 2 * gamma<T>(4) * (std::fabs(static_cast<long double>(Qr[q])) + 12)) << (two ? "spr2" : "spr");
      }
    }
  }
  // Argument positions of the storage variants.
  std::vector<T> a(64, T(1)), v(8, T(1));
  int last = 0;
  auto pos = [&](trnblasStatus_t st) {
    EXPECT_EQ(st, TRNBLAS_STATUS_INVALID_VALUE);
    EXPECT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
    return last;
  };
  EXPECT_EQ(pos(F::gbmv(h, TRNBLAS_OP_N, 4, 4, -1, 1, &alpha, a.data(), 4, v.data(), 1, &beta, v.data(), 1)), 4);
  EXPECT_EQ(pos(F::gbmv(h, TRNBLAS_OP_N, 4, 4, 1, 1, &alpha, a.data(), 2, v.data(), 1, &beta, v.data(), 1)), 8);
  EXPECT_EQ(pos(F::sbmv(h, TRNBLAS_FILL_MODE_LOWER, 4, 2, &alpha, a.data(), 2, v.data(), 1, &beta, v.data(), 1)), 6);
  EXPECT_EQ(pos(F::spmv(h, TRNBLAS_FILL_MODE_LOWER, 4, &alpha, a.data(), v.data(), 1, &beta, v.data(), 0)), 9);
  EXPECT_EQ(pos(F::tbsv(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_UNIT, 4, -1, a.data(), 2, v.data(), 1)), 5);
  EXPECT_EQ(pos(F::tpsv(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_UNIT, 4, a.data(), v.data(), 0)), 7);
  EXPECT_EQ(pos(F::syr2(h, TRNBLAS_FILL_MODE_LOWER, 4, &alpha, v.data(), 1, v.data(), 0, a.data(), 4)), 7);
  EXPECT_EQ(pos(F::spr(h, TRNBLAS_FILL_MODE_LOWER, 4, &alpha, v.data(), 1, nullptr)), 6);
}

// Rank-1/2 updates near the ends of the exponent range, as LAPACK's scaled test matrices (xlintst
// types 9 and 10: ssytf2 calls ssyr with alpha = -1/d on a column of size ~d). The reference BLAS
// scales the vector first (temp = alpha y_j; a_ij + x_i temp), so x_i temp stays representable where
// x_i y_j would overflow (scale 2^100 in fp32, 2^600 in fp64) or underflow to 0 (2^-100, 2^-600).
// ger, syr and spr are the reference's loop bit for bit (one rounding for temp, one for the
// product, one for the add; the library documents exactly these roundings); syr2/spr2 accumulate
// their two products before the add: within gamma_4 of the exact update.
template <class T>
T ref_update(T a, T xi, T temp) {  // one rounding for the product, one for the sum (no FMA)
  const T p = xi * temp;
  return a + p;
}
TYPED_TEST(Level2, RankUpdatesNearOverflowAndUnderflowScaleTheVectorFirstAsTheReferenceBlas) {
  using T = TypeParam;
  using F = Api<T>;
  Handle h;
  const int n = 9, ld = n + 2;
  const int e = std::is_same_v<T, float> ? 100 : 600;
  for (int sign : {1, -1}) {
    const T scale = std::ldexp(T(1), sign * e), alpha = T(-1) / (T(1.25) * scale);
    std::vector<T> x = random_vec<T>(2 * n, 31), y = random_vec<T>(n, 32), A0 = random_vec<T>(ld * n, 33);
    for (auto* v : {&x, &y, &A0})
      for (T& t : *v) t *= scale;
    // ger (m = n - 1 rows, incx = -2, lda > m).
    std::vector<T> G = A0, Gr = A0;
    ASSERT_EQ(ger(h, n - 1, n, &alpha, x.data(), -2, y.data(), 1, G.data(), ld), TRNBLAS_STATUS_SUCCESS);
    for (int j = 0; j < n; ++j) {
      const T temp = alpha * y[static_cast<std::size_t>(j)];
      for (int i = 0; i < n - 1; ++i)
        Gr[static_cast<std::size_t>(i + j * ld)] = ref_update(Gr[static_cast<std::size_t>(i + j * ld)], x[idx(n - 1, -2, i)], temp);
    }
    for (std::size_t q = 0; q < G.size(); ++q) ASSERT_EQ(G[q], Gr[q]) << "ger scale 2^" << sign * e << " at " << q;
    for (trnblasFillMode_t u : {TRNBLAS_FILL_MODE_UPPER, TRNBLAS_FILL_MODE_LOWER}) {
      const bool up = u == TRNBLAS_FILL_MODE_UPPER;
      std::vector<std::size_t> at;  // the stored triangle, in packed order (column by column)
      for (int j = 0; j < n; ++j)
        for (int i = up ? 0 : j; i < (up ? j + 1 : n); ++i) at.push_back(static_cast<std::size_t>(i + j * ld));
      std::vector<T> P(at.size());
      for (std::size_t q = 0; q < at.size(); ++q) P[q] = A0[at[q]];
      std::vector<T> A = A0, Ar = A0, Q = P;
      ASSERT_EQ(F::syr(h, u, n, &alpha, x.data(), 2, A.data(), ld), TRNBLAS_STATUS_SUCCESS);
      ASSERT_EQ(F::spr(h, u, n, &alpha, x.data(), 2, Q.data()), TRNBLAS_STATUS_SUCCESS);
      for (std::size_t q = 0; q < at.size(); ++q) {
        const std::size_t i = at[q] % ld, j = at[q] / ld;
        Ar[at[q]] = ref_update(Ar[at[q]], x[2 * i], alpha * x[2 * j]);
      }
      for (std::size_t q = 0; q < A.size(); ++q) ASSERT_EQ(A[q], Ar[q]) << "syr up=" << up << " at " << q;
      for (std::size_t q = 0; q < at.size(); ++q) ASSERT_EQ(Q[q], Ar[at[q]]) << "spr up=" << up << " at " << q;
      A = A0;
      Q = P;
      ASSERT_EQ(F::syr2(h, u, n, &alpha, x.data(), 2, y.data(), 1, A.data(), ld), TRNBLAS_STATUS_SUCCESS);
      ASSERT_EQ(F::spr2(h, u, n, &alpha, x.data(), 2, y.data(), 1, Q.data()), TRNBLAS_STATUS_SUCCESS);
      for (std::size_t q = 0; q < at.size(); ++q) {
        const std::size_t i = at[q] % ld, j = at[q] / ld;
        const long double t1 = alpha * static_cast<long double>(x[2 * i]) * y[j];
        const long double t2 = alpha * static_cast<long double>(y[i]) * x[2 * j];
        const long double exact = A0[at[q]] + t1 + t2;
        const long double bound = gamma<T>(4) * (std::fabs(static_cast<long double>(A0[at[q]])) + std::fabs(t1) + std::fabs(t2));
        ASSERT_LE(std::fabs(A[at[q]] - exact), bound) << "syr2 up=" << up << " scale 2^" << sign * e;
        ASSERT_EQ(Q[q], A[at[q]]) << "spr2 up=" << up;
      }
      for (std::size_t q = 0; q < A.size(); ++q) {
        if (std::find(at.begin(), at.end(), q) == at.end()) {
          ASSERT_EQ(A[q], A0[q]) << "syr2 outside the triangle";
        }
      }
    }
  }
}

// hemv (bound as complex gemv, k = n) and geru/gerc: a_ij + (alpha x_i) y_j (conj y_j) with u = alpha x
// rounded first (<= 2 roundings per part), then a k = 2 GEMM and the add (<= 3 more): gamma_6 per part
// times (|alpha|_1 |x_i|_1 |y_j|_1 + |a_ij|_1) (|.|_1 = |re| + |im|).
template <class C> struct CApi;
template <> struct CApi<cf> {
  using T = trnFloatComplex;
  static constexpr auto hemv = trnblasChemv; static constexpr auto geru = trnblasCgeru; static constexpr auto gerc = trnblasCgerc;
  static constexpr auto ref_hemv = cblas_chemv; static constexpr auto ref_geru = cblas_cgeru; static constexpr auto ref_gerc = cblas_cgerc;
  static constexpr auto hbmv = trnblasChbmv; static constexpr auto hpmv = trnblasChpmv;
  static constexpr auto ref_hbmv = cblas_chbmv; static constexpr auto ref_hpmv = cblas_chpmv;
  static constexpr auto her = trnblasCher; static constexpr auto hpr = trnblasChpr; static constexpr auto her2 = trnblasCher2;
  static constexpr auto hpr2 = trnblasChpr2; static constexpr auto ref_her = cblas_cher; static constexpr auto ref_hpr = cblas_chpr;
  static constexpr auto ref_her2 = cblas_cher2; static constexpr auto ref_hpr2 = cblas_chpr2;
};
template <> struct CApi<cd> {
  using T = trnDoubleComplex;
  static constexpr auto hemv = trnblasZhemv; static constexpr auto geru = trnblasZgeru; static constexpr auto gerc = trnblasZgerc;
  static constexpr auto ref_hemv = cblas_zhemv; static constexpr auto ref_geru = cblas_zgeru; static constexpr auto ref_gerc = cblas_zgerc;
  static constexpr auto hbmv = trnblasZhbmv; static constexpr auto hpmv = trnblasZhpmv;
  static constexpr auto ref_hbmv = cblas_zhbmv; static constexpr auto ref_hpmv = cblas_zhpmv;
  static constexpr auto her = trnblasZher; static constexpr auto hpr = trnblasZhpr; static constexpr auto her2 = trnblasZher2;
  static constexpr auto hpr2 = trnblasZhpr2; static constexpr auto ref_her = cblas_zher; static constexpr auto ref_hpr = cblas_zhpr;
  static constexpr auto ref_her2 = cblas_zher2; static constexpr auto ref_hpr2 = cblas_zhpr2;
};

TYPED_TEST(Level2Complex, HemvGeruGercAgainstLongDoubleAndOpenBlas) {
  using C = TypeParam;
  using R = typename C::value_type;
  using LC = std::complex<long double>;
  using F = CApi<C>;
  using CT = typename F::T;
  auto c = [](auto* p) { return reinterpret_cast<CT*>(const_cast<C*>(p)); };
  auto abs1 = [](const C& v) { return std::fabs(static_cast<long double>(v.real())) + std::fabs(static_cast<long double>(v.imag())); };
  Handle h;
  const int n = 40, m = 33;
  const C alpha(R(0.75), R(-0.5)), beta(R(0.5), R(0.25));
  for (auto [ix, iy] : {std::pair{1, 1}, std::pair{-2, 3}}) {
    const std::vector<C> x = random_cvec<C>(span_of(n, ix), 71), y0 = random_cvec<C>(span_of(n, iy), 72);
    for (trnblasFillMode_t u : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}) {
      const bool up = u == TRNBLAS_FILL_MODE_UPPER;
      std::vector<C> A = random_cvec<C>(static_cast<std::size_t>(n * n), 73), Ar = A;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
          if (up ? i > j : i < j) A[static_cast<std::size_t>(i + j * n)] = C(std::numeric_limits<R>::quiet_NaN(), R(0));
      std::vector<C> yv = y0, yr = y0;
      ASSERT_EQ(F::hemv(h, u, n, c(&alpha), c(A.data()), n, c(x.data()), ix, c(&beta), c(yv.data()), iy), TRNBLAS_STATUS_SUCCESS);
      F::ref_hemv(CblasColMajor, up ? CblasUpper : CblasLower, n, &alpha, Ar.data(), n, x.data(), ix, &beta, yr.data(), iy);
      const long double g = gamma<R>(2 * n + 7);
      for (int i = 0; i < n; ++i) {
        LC s = 0;
        long double mag = 0;
        for (int k = 0; k < n; ++k) {
          const bool stored = up ? i <= k : i >= k;
          C a = stored ? Ar[static_cast<std::size_t>(i + k * n)] : std::conj(Ar[static_cast<std::size_t>(k + i * n)]);
          if (i == k) a = C(a.real(), R(0));
          const C xv = x[idx(n, ix, k)];
          s += LC(a.real(), a.imag()) * LC(xv.real(), xv.imag());
          mag += abs1(a) * abs1(xv);
        }
        const std::size_t yi = idx(n, iy, i);
        const LC ex = LC(alpha.real(), alpha.imag()) * s + LC(beta.real(), beta.imag()) * LC(y0[yi].real(), y0[yi].imag());
        const long double bound = g * (abs1(alpha) * mag + abs1(beta) * abs1(y0[yi]));
        ASSERT_LE(std::fabs(yv[yi].real() - ex.real()), bound) << "hemv i=" << i;
        ASSERT_LE(std::fabs(yv[yi].imag() - ex.imag()), bound) << "hemv i=" << i;
        ASSERT_LE(std::fabs(yv[yi].real() - yr[yi].real()) + std::fabs(yv[yi].imag() - yr[yi].imag()), 4 * bound);
      }
    }
    // geru / gerc on an m x n matrix with lda > m.
    const int lda = m + 2;
    const std::vector<C> xm = random_cvec<C>(span_of(m, ix), 74), A0 = random_cvec<C>(static_cast<std::size_t>(lda * n), 75);
    for (bool conj : {false, true}) {
      std::vector<C> A = A0, Ar = A0;
      if (conj) {
        ASSERT_EQ(F::gerc(h, m, n, c(&alpha), c(xm.data()), ix, c(y0.data()), iy, c(A.data()), lda), TRNBLAS_STATUS_SUCCESS);
        F::ref_gerc(CblasColMajor, m, n, &alpha, xm.data(), ix, y0.data(), iy, Ar.data(), lda);
      } else {
        ASSERT_EQ(F::geru(h, m, n, c(&alpha), c(xm.data()), ix, c(y0.data()), iy, c(A.data()), lda), TRNBLAS_STATUS_SUCCESS);
        F::ref_geru(CblasColMajor, m, n, &alpha, xm.data(), ix, y0.data(), iy, Ar.data(), lda);
      }
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < lda; ++i) {
          const std::size_t at = static_cast<std::size_t>(i + j * lda);
          if (i >= m) {
            ASSERT_EQ(A[at], A0[at]);
            continue;
          }
          const C xv = xm[idx(m, ix, i)];
          C yv = y0[idx(n, iy, j)];
          if (conj) yv = std::conj(yv);
          const LC ex = LC(A0[at].real(), A0[at].imag()) +
                        LC(alpha.real(), alpha.imag()) * LC(xv.real(), xv.imag()) * LC(yv.real(), yv.imag());
          const long double bound = gamma<R>(6) * (abs1(alpha) * abs1(xv) * abs1(yv) + abs1(A0[at]));
          ASSERT_LE(std::fabs(A[at].real() - ex.real()), bound) << (conj ? "gerc" : "geru");
          ASSERT_LE(std::fabs(A[at].imag() - ex.imag()), bound) << (conj ? "gerc" : "geru");
          ASSERT_LE(std::fabs(A[at].real() - Ar[at].real()) + std::fabs(A[at].imag() - Ar[at].imag()), 4 * bound);
        }
    }
  }
}

// hbmv / hpmv against OpenBLAS: both lie within gamma_{2n+7} (|alpha| sum |a| |x| + |beta| |y|) of the
// exact product (as hemv), so they differ by at most twice that per part; |a| from the band/packed data.
TYPED_TEST(Level2Complex, HbmvHpmvAgainstOpenBlas) {
  using C = TypeParam;
  using R = typename C::value_type;
  using F = CApi<C>;
  using CT = typename F::T;
  auto c = [](auto* p) { return reinterpret_cast<CT*>(const_cast<C*>(p)); };
  auto abs1 = [](const C& v) { return std::fabs(static_cast<long double>(v.real())) + std::fabs(static_cast<long double>(v.imag())); };
  Handle h;
  const int n = 30, k = 3, lda = k + 2;
  const C alpha(R(-0.5), R(1.25)), beta(R(0.25), R(-0.75));
  for (trnblasFillMode_t u : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}) {
    const bool up = u == TRNBLAS_FILL_MODE_UPPER;
    const CBLAS_UPLO cu = up ? CblasUpper : CblasLower;
    const std::vector<C> x = random_cvec<C>(n, 81), y0 = random_cvec<C>(2 * n - 1, 82);
    const std::vector<C> B = random_cvec<C>(static_cast<std::size_t>(lda * n), 83), AP = random_cvec<C>(static_cast<std::size_t>(n * (n + 1) / 2), 84);
    for (bool packed : {false, true}) {
      std::vector<C> y = y0, yr = y0;
      if (packed) {
        ASSERT_EQ(F::hpmv(h, u, n, c(&alpha), c(AP.data()), c(x.data()), 1, c(&beta), c(y.data()), -2), TRNBLAS_STATUS_SUCCESS);
        F::ref_hpmv(CblasColMajor, cu, n, &alpha, AP.data(), x.data(), 1, &beta, yr.data(), -2);
      } else {
        ASSERT_EQ(F::hbmv(h, u, n, k, c(&alpha), c(B.data()), lda, c(x.data()), 1, c(&beta), c(y.data()), -2), TRNBLAS_STATUS_SUCCESS);
        F::ref_hbmv(CblasColMajor, cu, n, k, &alpha, B.data(), lda, x.data(), 1, &beta, yr.data(), -2);
      }
      for (int i = 0; i < n; ++i) {
        long double mag = 0;
        for (int j = 0; j < n; ++j) {
          const int r = up ? std::min(i, j) : std::max(i, j), cc = up ? std::max(i, j) : std::min(i, j);
          C a(0, 0);
          if (packed) a = AP[static_cast<std::size_t>(up ? r + cc * (cc + 1) / 2 : r + (2 * n - cc - 1) * cc / 2)];
          else if (std::abs(r - cc) <= k) a = B[static_cast<std::size_t>((up ? k + r - cc : r - cc) + cc * lda)];
          mag += abs1(a) * abs1(x[static_cast<std::size_t>(j)]);
        }
        const std::size_t yi = idx(n, -2, i);
        const long double bound = 2 * gamma<R>(2 * n + 7) * (abs1(alpha) * mag + abs1(beta) * abs1(y0[yi]));
        ASSERT_LE(std::fabs(y[yi].real() - yr[yi].real()), bound) << (packed ? "hpmv" : "hbmv") << " i=" << i;
        ASSERT_LE(std::fabs(y[yi].imag() - yr[yi].imag()), bound) << (packed ? "hpmv" : "hbmv") << " i=" << i;
      }
      for (std::size_t q = 0; q < y.size(); ++q)
        if (q % 2 != 0) {
          ASSERT_EQ(y[q], y0[q]) << "between the strided elements";
        }
    }
  }
}

// her/her2/hpr/hpr2: a_ij + alpha x_i conj(x_j) (her2: + alpha x_i conj(y_j) + conj(alpha) y_i conj(x_j)).
// u = alpha x costs <= 2 roundings per part, each plane GEMM (k = 2) and its add <= 3, the second
// gerc of her2 as many again: |err| <= gamma_10 (|alpha|_1 (|x_i|_1 |y_j|_1 + |y_i|_1 |x_j|_1) + |a_ij|_1).
TYPED_TEST(Level2Complex, HerHer2HprHpr2AgainstLongDoubleAndOpenBlas) {
  using C = TypeParam;
  using R = typename C::value_type;
  using LC = std::complex<long double>;
  using F = CApi<C>;
  using CT = typename F::T;
  auto c = [](auto* p) { return reinterpret_cast<CT*>(const_cast<C*>(p)); };
  auto abs1 = [](const C& v) { return std::fabs(static_cast<long double>(v.real())) + std::fabs(static_cast<long double>(v.imag())); };
  auto lc = [](const C& v) { return LC(v.real(), v.imag()); };
  Handle h;
  const int n = 25, ld = n + 1;
  const R ra = R(0.75);
  const C alpha(R(0.5), R(-1.0));
  const std::vector<C> x = random_cvec<C>(span_of(n, -2), 91), y = random_cvec<C>(n, 92);
  for (trnblasFillMode_t u : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}) {
    const bool up = u == TRNBLAS_FILL_MODE_UPPER;
    const CBLAS_UPLO cu = up ? CblasUpper : CblasLower;
    const std::vector<C> A0 = random_cvec<C>(static_cast<std::size_t>(ld * n), 93), P0 = random_cvec<C>(static_cast<std::size_t>(n * (n + 1) / 2), 94);
    for (bool two : {false, true}) {
      std::vector<C> A = A0, Ar = A0, P = P0, Pr = P0;
      if (two) {
        ASSERT_EQ(F::her2(h, u, n, c(&alpha), c(x.data()), -2, c(y.data()), 1, c(A.data()), ld), TRNBLAS_STATUS_SUCCESS);
        F::ref_her2(CblasColMajor, cu, n, &alpha, x.data(), -2, y.data(), 1, Ar.data(), ld);
        ASSERT_EQ(F::hpr2(h, u, n, c(&alpha), c(x.data()), -2, c(y.data()), 1, c(P.data())), TRNBLAS_STATUS_SUCCESS);
        F::ref_hpr2(CblasColMajor, cu, n, &alpha, x.data(), -2, y.data(), 1, Pr.data());
      } else {
        ASSERT_EQ(F::her(h, u, n, &ra, c(x.data()), -2, c(A.data()), ld), TRNBLAS_STATUS_SUCCESS);
        F::ref_her(CblasColMajor, cu, n, ra, x.data(), -2, Ar.data(), ld);
        ASSERT_EQ(F::hpr(h, u, n, &ra, c(x.data()), -2, c(P.data())), TRNBLAS_STATUS_SUCCESS);
        F::ref_hpr(CblasColMajor, cu, n, ra, x.data(), -2, Pr.data());
      }
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < ld; ++i) {
          const std::size_t at = static_cast<std::size_t>(i + j * ld);
          const bool stored = i < n && (up ? i <= j : i >= j);
          if (!stored) {
            ASSERT_EQ(A[at], A0[at]) << "outside the triangle";
            continue;
          }
          const C xi = x[idx(n, -2, i)], xj = x[idx(n, -2, j)], yi = y[static_cast<std::size_t>(i)], yj = y[static_cast<std::size_t>(j)];
          LC ex = lc(A0[at]);
          long double mag = abs1(A0[at]);
          if (two) {
            ex += lc(alpha) * lc(xi) * std::conj(lc(yj)) + std::conj(lc(alpha)) * lc(yi) * std::conj(lc(xj));
            mag += abs1(alpha) * (abs1(xi) * abs1(yj) + abs1(yi) * abs1(xj));
          } else {
            ex += static_cast<long double>(ra) * lc(xi) * std::conj(lc(xj));
            mag += std::fabs(ra) * abs1(xi) * abs1(xj);
          }
          if (i == j) {
            ex = LC(ex.real(), 0.0L);
            ASSERT_EQ(A[at].imag(), R(0)) << "real diagonal";
          }
          const long double bound = gamma<R>(10) * mag;
          ASSERT_LE(std::fabs(A[at].real() - ex.real()), bound) << (two ? "her2" : "her") << " " << i << "," << j;
          ASSERT_LE(std::fabs(A[at].imag() - ex.imag()), bound) << (two ? "her2" : "her") << " " << i << "," << j;
          ASSERT_LE(abs1(A[at] - Ar[at]), 4 * bound) << "vs OpenBLAS";
          // The packed result: the same element of the same update on P0's values.
          const std::size_t q = static_cast<std::size_t>(up ? i + j * (j + 1) / 2 : i + (2 * n - j - 1) * j / 2);
          const long double pbound = gamma<R>(10) * (mag - abs1(A0[at]) + abs1(P0[q]));
          ASSERT_LE(abs1(P[q] - Pr[q]), 4 * pbound) << (two ? "hpr2" : "hpr") << " vs OpenBLAS";
        }
    }
  }
}

}  // namespace

// ---- complex triangular (tr/tb/tp mv and sv), gbmv, symmetric symv/syr/syr2 (C and Z) ------------
// The dense op(A) each storage stands for is rebuilt here from the reference BLAS's layout
// definitions. Products (trmv family, gbmv, symv) are bounded as complex gemv: per part
// gamma_{2k+7} (|alpha|_1 sum |a|_1 |x|_1 + |beta|_1 |y|_1) (|.|_1 = |re| + |im|). Solves: the
// computed x solves a nearby system; the test checks the residual per part,
// |op(A) x - b| <= gamma_{4n+24} (|op(A)|_1 |x|_1 + |b|_1) (the row scaling by 1/a_ii adds <= 9
// roundings per element, the real substitution of order 2n its gamma_{2n}), and x against
// OpenBLAS's on a well-conditioned matrix (dominant diagonal).
namespace {

template <class C> struct CTri;
template <> struct CTri<cf> {
  using T = trnFloatComplex;
  static constexpr auto trmv = trnblasCtrmv; static constexpr auto trsv = trnblasCtrsv; static constexpr auto tbmv = trnblasCtbmv;
  static constexpr auto tbsv = trnblasCtbsv; static constexpr auto tpmv = trnblasCtpmv; static constexpr auto tpsv = trnblasCtpsv;
  static constexpr auto gbmv = trnblasCgbmv; static constexpr auto symv = trnblasCsymv; static constexpr auto syr = trnblasCsyr;
  static constexpr auto syr2 = trnblasCsyr2;
  static constexpr auto ref_trmv = cblas_ctrmv; static constexpr auto ref_trsv = cblas_ctrsv; static constexpr auto ref_tbmv = cblas_ctbmv;
  static constexpr auto ref_tbsv = cblas_ctbsv; static constexpr auto ref_tpmv = cblas_ctpmv; static constexpr auto ref_tpsv = cblas_ctpsv;
  static constexpr auto ref_gbmv = cblas_cgbmv;
};
template <> struct CTri<cd> {
  using T = trnDoubleComplex;
  static constexpr auto trmv = trnblasZtrmv; static constexpr auto trsv = trnblasZtrsv; static constexpr auto tbmv = trnblasZtbmv;
  static constexpr auto tbsv = trnblasZtbsv; static constexpr auto tpmv = trnblasZtpmv; static constexpr auto tpsv = trnblasZtpsv;
  static constexpr auto gbmv = trnblasZgbmv; static constexpr auto symv = trnblasZsymv; static constexpr auto syr = trnblasZsyr;
  static constexpr auto syr2 = trnblasZsyr2;
  static constexpr auto ref_trmv = cblas_ztrmv; static constexpr auto ref_trsv = cblas_ztrsv; static constexpr auto ref_tbmv = cblas_ztbmv;
  static constexpr auto ref_tbsv = cblas_ztbsv; static constexpr auto ref_tpmv = cblas_ztpmv; static constexpr auto ref_tpsv = cblas_ztpsv;
  static constexpr auto ref_gbmv = cblas_zgbmv;
};

template <class C>
long double abs1(const C& v) {
  return std::fabs(static_cast<long double>(v.real())) + std::fabs(static_cast<long double>(v.imag()));
}

}  // namespace

// OpenBLAS's complex symmetric routines (LAPACK auxiliaries, Fortran ABI; no CBLAS form).
extern "C" {
void csymv_(const char*, const int*, const void*, const void*, const int*, const void*, const int*, const void*, void*,
            const int*, std::size_t);
void zsymv_(const char*, const int*, const void*, const void*, const int*, const void*, const int*, const void*, void*,
            const int*, std::size_t);
void csyr_(const char*, const int*, const void*, const void*, const int*, void*, const int*, std::size_t);
void zsyr_(const char*, const int*, const void*, const void*, const int*, void*, const int*, std::size_t);
}

namespace {
template <class C>
void ref_symv(char uplo, int n, const C& alpha, const C* A, int lda, const C* x, int incx, const C& beta, C* y, int incy) {
  if constexpr (std::is_same_v<C, cf>) csymv_(&uplo, &n, &alpha, A, &lda, x, &incx, &beta, y, &incy, 1);
  else zsymv_(&uplo, &n, &alpha, A, &lda, x, &incx, &beta, y, &incy, 1);
}
template <class C>
void ref_syr(char uplo, int n, const C& alpha, const C* x, int incx, C* A, int lda) {
  if constexpr (std::is_same_v<C, cf>) csyr_(&uplo, &n, &alpha, x, &incx, A, &lda, 1);
  else zsyr_(&uplo, &n, &alpha, x, &incx, A, &lda, 1);
}
}  // namespace

TYPED_TEST(Level2Complex, TriangularEveryStorageUploTransDiagAgainstLongDoubleAndOpenBlas) {
  using C = TypeParam;
  using R = typename C::value_type;
  using LC = std::complex<long double>;
  using F = CTri<C>;
  using CT = typename F::T;
  auto c = [](auto* p) { return reinterpret_cast<CT*>(const_cast<C*>(p)); };
  Handle h;
  const int n = 23, k = 4, ldb = k + 2, lda = n + 1;
  const R nan = std::numeric_limits<R>::quiet_NaN();
  for (trnblasFillMode_t u : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER})
    for (trnblasOperation_t t : {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C})
      for (trnblasDiagType_t d : {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT})
        for (int kind = 0; kind < 3; ++kind) {  // dense, band, packed
          const bool up = u == TRNBLAS_FILL_MODE_UPPER, unit = d == TRNBLAS_DIAG_UNIT;
          const CBLAS_UPLO cu = up ? CblasUpper : CblasLower;
          const CBLAS_TRANSPOSE ct = t == TRNBLAS_OP_N ? CblasNoTrans : t == TRNBLAS_OP_T ? CblasTrans : CblasConjTrans;
          const CBLAS_DIAG cdg = unit ? CblasUnit : CblasNonUnit;
          // Storage with a dominant diagonal (off-diagonal entries scaled by 1/n); NaN where the
          // routine must not read (the other triangle of the dense form; the diagonal when unit).
          std::vector<C> S = random_cvec<C>(static_cast<std::size_t>(kind == 0 ? lda * n : kind == 1 ? ldb * n : n * (n + 1) / 2), 90 + kind);
          std::vector<C> full(static_cast<std::size_t>(n * n), C(0, 0));  // A (stored triangle), as the layouts define it
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
              const bool in = up ? i <= j : i >= j;
              std::size_t at = 0;
              bool stored = in;
              if (kind == 0) at = static_cast<std::size_t>(i + j * lda);
              else if (kind == 1) {
                stored = in && std::abs(i - j) <= k;
                at = static_cast<std::size_t>((up ? k + i - j : i - j) + j * ldb);
              } else {
                at = static_cast<std::size_t>(up ? i + j * (j + 1) / 2 : i + (2 * n - j - 1) * j / 2);
              }
              if (kind == 0 && !in) S[at] = C(nan, nan);
              if (!stored) continue;
              if (i == j) {
                if (unit) S[at] = C(nan, nan);
                else S[at] = C(R(2) + S[at].real(), S[at].imag());
              } else {
                S[at] = S[at] * R(1.0 / n);
              }
              full[static_cast<std::size_t>(i + j * n)] = i == j && unit ? C(1, 0) : S[at];
            }
          const auto opA = [&](int i, int j) {
            C a = t == TRNBLAS_OP_N ? full[static_cast<std::size_t>(i + j * n)] : full[static_cast<std::size_t>(j + i * n)];
            return t == TRNBLAS_OP_C ? std::conj(a) : a;
          };
          for (int ix : {1, -2}) {
            const std::vector<C> x0 = random_cvec<C>(span_of(n, ix), 95);
            for (bool solve : {false, true}) {
              std::vector<C> x = x0, xr = x0;
              trnblasStatus_t st;
              if (kind == 0) {
                st = solve ? F::trsv(h, u, t, d, n, c(S.data()), lda, c(x.data()), ix) : F::trmv(h, u, t, d, n, c(S.data()), lda, c(x.data()), ix);
                (solve ? F::ref_trsv : F::ref_trmv)(CblasColMajor, cu, ct, cdg, n, S.data(), lda, xr.data(), ix);
              } else if (kind == 1) {
                st = solve ? F::tbsv(h, u, t, d, n, k, c(S.data()), ldb, c(x.data()), ix)
                           : F::tbmv(h, u, t, d, n, k, c(S.data()), ldb, c(x.data()), ix);
                (solve ? F::ref_tbsv : F::ref_tbmv)(CblasColMajor, cu, ct, cdg, n, k, S.data(), ldb, xr.data(), ix);
              } else {
                st = solve ? F::tpsv(h, u, t, d, n, c(S.data()), c(x.data()), ix) : F::tpmv(h, u, t, d, n, c(S.data()), c(x.data()), ix);
                (solve ? F::ref_tpsv : F::ref_tpmv)(CblasColMajor, cu, ct, cdg, n, S.data(), xr.data(), ix);
              }
              ASSERT_EQ(st, TRNBLAS_STATUS_SUCCESS);
              const char* what = solve ? "solve" : "product";
              // product: y = op(A) x0 (checked on x); solve: residual op(A) x - x0.
              const std::vector<C>& in = solve ? x : x0;
              long double xmax = 0;
              for (int i = 0; i < n; ++i) xmax = std::max(xmax, abs1(x[idx(n, ix, i)]));
              for (int i = 0; i < n; ++i) {
                LC s = 0;
                long double mag = 0;
                for (int j = 0; j < n; ++j) {
                  const C a = opA(i, j), v = in[idx(n, ix, j)];
                  s += LC(a.real(), a.imag()) * LC(v.real(), v.imag());
                  mag += abs1(a) * abs1(v);
                }
                const std::size_t xi = idx(n, ix, i);
                if (!solve) {
                  const long double bound = gamma<R>(2 * n + 7) * mag;
                  ASSERT_LE(std::fabs(x[xi].real() - s.real()), bound) << what << " kind " << kind << " i=" << i;
                  ASSERT_LE(std::fabs(x[xi].imag() - s.imag()), bound) << what << " kind " << kind << " i=" << i;
                  ASSERT_LE(abs1(x[xi] - xr[xi]), 4 * bound) << "vs OpenBLAS";
                } else {
                  const LC b(x0[xi].real(), x0[xi].imag());
                  const long double bound = gamma<R>(4 * n + 24) * (mag + abs1(x0[xi]));
                  ASSERT_LE(std::fabs(s.real() - b.real()), bound) << what << " kind " << kind << " u " << u << " t " << t << " d " << d << " i=" << i;
                  ASSERT_LE(std::fabs(s.imag() - b.imag()), bound) << what << " kind " << kind << " i=" << i;
                  ASSERT_LE(abs1(x[xi] - xr[xi]), 64 * n * gamma<R>(1) * xmax) << "vs OpenBLAS";
                }
              }
              for (std::size_t q = 0; q < x.size(); ++q)
                if (ix == -2 && q % 2 != 0) {
                  ASSERT_EQ(x[q], x0[q]) << "between the strided elements";
                }
            }
          }
        }
}

TYPED_TEST(Level2Complex, GbmvSymvSyrSyr2AgainstLongDoubleAndOpenBlas) {
  using C = TypeParam;
  using R = typename C::value_type;
  using LC = std::complex<long double>;
  using F = CTri<C>;
  using CT = typename F::T;
  auto c = [](auto* p) { return reinterpret_cast<CT*>(const_cast<C*>(p)); };
  Handle h;
  const C alpha(R(0.75), R(-0.5)), beta(R(-0.25), R(0.5));
  // gbmv, m x n with kl, ku, every op.
  const int m = 19, n = 26, kl = 3, ku = 2, ldb = kl + ku + 2;
  const std::vector<C> B = random_cvec<C>(static_cast<std::size_t>(ldb * n), 101);
  for (trnblasOperation_t t : {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}) {
    const int lx = t == TRNBLAS_OP_N ? n : m, ly = t == TRNBLAS_OP_N ? m : n;
    const std::vector<C> x = random_cvec<C>(span_of(lx, -1), 102), y0 = random_cvec<C>(span_of(ly, 2), 103);
    std::vector<C> y = y0, yr = y0;
    ASSERT_EQ(F::gbmv(h, t, m, n, kl, ku, c(&alpha), c(B.data()), ldb, c(x.data()), -1, c(&beta), c(y.data()), 2),
              TRNBLAS_STATUS_SUCCESS);
    F::ref_gbmv(CblasColMajor, t == TRNBLAS_OP_N ? CblasNoTrans : t == TRNBLAS_OP_T ? CblasTrans : CblasConjTrans, m, n, kl,
                ku, &alpha, B.data(), ldb, x.data(), -1, &beta, yr.data(), 2);
    for (int i = 0; i < ly; ++i) {
      LC s = 0;
      long double mag = 0;
      for (int j = 0; j < lx; ++j) {
        const int r = t == TRNBLAS_OP_N ? i : j, cc = t == TRNBLAS_OP_N ? j : i;  // element (r, cc) of A
        C a(0, 0);
        if (r - cc <= kl && cc - r <= ku) a = B[static_cast<std::size_t>((ku + r - cc) + cc * ldb)];
        if (t == TRNBLAS_OP_C) a = std::conj(a);
        const C v = x[idx(lx, -1, j)];
        s += LC(a.real(), a.imag()) * LC(v.real(), v.imag());
        mag += abs1(a) * abs1(v);
      }
      const std::size_t yi = idx(ly, 2, i);
      const LC ex = LC(alpha.real(), alpha.imag()) * s + LC(beta.real(), beta.imag()) * LC(y0[yi].real(), y0[yi].imag());
      const long double bound = gamma<R>(2 * lx + 7) * (abs1(alpha) * mag + abs1(beta) * abs1(y0[yi]));
      ASSERT_LE(std::fabs(y[yi].real() - ex.real()), bound) << "gbmv t=" << t << " i=" << i;
      ASSERT_LE(std::fabs(y[yi].imag() - ex.imag()), bound) << "gbmv t=" << t << " i=" << i;
      ASSERT_LE(abs1(y[yi] - yr[yi]), 4 * bound) << "gbmv vs OpenBLAS";
    }
  }
  // symv (complex symmetric: the mirror is not conjugated), syr, syr2; the other triangle holds NaN
  // and must neither be read nor written.
  const int ns = 21, lda = ns + 3;
  const R nan = std::numeric_limits<R>::quiet_NaN();
  for (trnblasFillMode_t u : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}) {
    const bool up = u == TRNBLAS_FILL_MODE_UPPER;
    std::vector<C> A0 = random_cvec<C>(static_cast<std::size_t>(lda * ns), 104);
    for (int j = 0; j < ns; ++j)
      for (int i = 0; i < ns; ++i)
        if (up ? i > j : i < j) A0[static_cast<std::size_t>(i + j * lda)] = C(nan, nan);
    const auto sym = [&](int i, int j) { return (up ? i <= j : i >= j) ? A0[static_cast<std::size_t>(i + j * lda)] : A0[static_cast<std::size_t>(j + i * lda)]; };
    const std::vector<C> x = random_cvec<C>(span_of(ns, 3), 105), y0 = random_cvec<C>(span_of(ns, -1), 106);
    std::vector<C> y = y0, yr = y0;
    ASSERT_EQ(F::symv(h, u, ns, c(&alpha), c(A0.data()), lda, c(x.data()), 3, c(&beta), c(y.data()), -1), TRNBLAS_STATUS_SUCCESS);
    ref_symv(up ? 'U' : 'L', ns, alpha, A0.data(), lda, x.data(), 3, beta, yr.data(), -1);
    for (int i = 0; i < ns; ++i) {
      LC s = 0;
      long double mag = 0;
      for (int j = 0; j < ns; ++j) {
        const C a = sym(i, j), v = x[idx(ns, 3, j)];
        s += LC(a.real(), a.imag()) * LC(v.real(), v.imag());
        mag += abs1(a) * abs1(v);
      }
      const std::size_t yi = idx(ns, -1, i);
      const LC ex = LC(alpha.real(), alpha.imag()) * s + LC(beta.real(), beta.imag()) * LC(y0[yi].real(), y0[yi].imag());
      const long double bound = gamma<R>(2 * ns + 7) * (abs1(alpha) * mag + abs1(beta) * abs1(y0[yi]));
      ASSERT_LE(std::fabs(y[yi].real() - ex.real()), bound) << "symv i=" << i;
      ASSERT_LE(std::fabs(y[yi].imag() - ex.imag()), bound) << "symv i=" << i;
      ASSERT_LE(abs1(y[yi] - yr[yi]), 4 * bound) << "symv vs OpenBLAS csymv_/zsymv_";
    }
    for (bool two : {false, true}) {
      std::vector<C> A = A0, Ar = A0;
      if (!two) ref_syr(up ? 'U' : 'L', ns, alpha, x.data(), 3, Ar.data(), lda);
      ASSERT_EQ(two ? F::syr2(h, u, ns, c(&alpha), c(x.data()), 3, c(y0.data()), -1, c(A.data()), lda)
                    : F::syr(h, u, ns, c(&alpha), c(x.data()), 3, c(A.data()), lda),
                TRNBLAS_STATUS_SUCCESS);
      for (int j = 0; j < ns; ++j)
        for (int i = 0; i < lda; ++i) {
          const std::size_t at = static_cast<std::size_t>(i + j * lda);
          if (i >= ns || (up ? i > j : i < j)) {
            ASSERT_TRUE(std::isnan(A[at].real()) || A[at] == A0[at]) << "outside the triangle: untouched";
            continue;
          }
          const C xi = x[idx(ns, 3, i)], xj = x[idx(ns, 3, j)];
          const C yi = two ? y0[idx(ns, -1, i)] : xi, yj = two ? y0[idx(ns, -1, j)] : xj;
          const LC al(alpha.real(), alpha.imag());
          LC ex = LC(A0[at].real(), A0[at].imag()) + al * LC(xi.real(), xi.imag()) * LC(yj.real(), yj.imag());
          long double mag = abs1(alpha) * abs1(xi) * abs1(yj) + abs1(A0[at]);
          if (two) {
            ex += al * LC(yi.real(), yi.imag()) * LC(xj.real(), xj.imag());
            mag += abs1(alpha) * abs1(yi) * abs1(xj);
          }
          const long double bound = gamma<R>(10) * mag;
          ASSERT_LE(std::fabs(A[at].real() - ex.real()), bound) << (two ? "syr2" : "syr") << " " << i << "," << j;
          ASSERT_LE(std::fabs(A[at].imag() - ex.imag()), bound) << (two ? "syr2" : "syr") << " " << i << "," << j;
          if (!two) {
            ASSERT_LE(abs1(A[at] - Ar[at]), 4 * bound) << "syr vs OpenBLAS csyr_/zsyr_";
          }
        }
    }
  }
}

TYPED_TEST(Level2Complex, TriangularBandedSymmetricInvalidArgumentsNameTheirPosition) {
  using C = TypeParam;
  using F = CTri<C>;
  using CT = typename F::T;
  auto c = [](auto* p) { return reinterpret_cast<CT*>(const_cast<C*>(p)); };
  Handle h;
  std::vector<C> A = random_cvec<C>(64, 1), x = random_cvec<C>(8, 2), y = random_cvec<C>(8, 3);
  const std::vector<C> A0 = A, x0 = x, y0 = y;
  const C one(1, 0);
  int last = 0;
  auto pos = [&](trnblasStatus_t st) {
    EXPECT_EQ(st, TRNBLAS_STATUS_INVALID_VALUE);
    EXPECT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
    return last;
  };
  const auto L = TRNBLAS_FILL_MODE_LOWER;
  const auto N = TRNBLAS_OP_N;
  const auto NU = TRNBLAS_DIAG_NON_UNIT;
  EXPECT_EQ(pos(F::trsv(h, static_cast<trnblasFillMode_t>(7), N, NU, 4, c(A.data()), 4, c(x.data()), 1)), 1);
  EXPECT_EQ(pos(F::trsv(h, L, static_cast<trnblasOperation_t>(3), NU, 4, c(A.data()), 4, c(x.data()), 1)), 2);
  EXPECT_EQ(pos(F::trmv(h, L, N, static_cast<trnblasDiagType_t>(2), 4, c(A.data()), 4, c(x.data()), 1)), 3);
  EXPECT_EQ(pos(F::trmv(h, L, N, NU, -1, c(A.data()), 4, c(x.data()), 1)), 4);
  EXPECT_EQ(pos(F::trsv(h, L, N, NU, 4, nullptr, 4, c(x.data()), 1)), 5);
  EXPECT_EQ(pos(F::trsv(h, L, N, NU, 4, c(A.data()), 3, c(x.data()), 1)), 6);
  EXPECT_EQ(pos(F::trsv(h, L, N, NU, 4, c(A.data()), 4, nullptr, 1)), 7);
  EXPECT_EQ(pos(F::trsv(h, L, N, NU, 4, c(A.data()), 4, c(x.data()), 0)), 8);
  EXPECT_EQ(pos(F::tbsv(h, L, N, NU, 4, -1, c(A.data()), 4, c(x.data()), 1)), 5);
  EXPECT_EQ(pos(F::tbmv(h, L, N, NU, 4, 3, c(A.data()), 3, c(x.data()), 1)), 7);
  EXPECT_EQ(pos(F::tbsv(h, L, N, NU, 4, 1, c(A.data()), 2, c(x.data()), 0)), 9);
  EXPECT_EQ(pos(F::tpsv(h, L, N, NU, 4, c(A.data()), c(x.data()), 0)), 7);
  EXPECT_EQ(pos(F::tpmv(h, L, N, NU, 4, nullptr, c(x.data()), 1)), 5);
  EXPECT_EQ(pos(F::gbmv(h, N, 4, 4, 1, 1, c(&one), c(A.data()), 2, c(x.data()), 1, c(&one), c(y.data()), 1)), 8);
  EXPECT_EQ(pos(F::gbmv(h, N, 4, 4, -1, 1, c(&one), c(A.data()), 3, c(x.data()), 1, c(&one), c(y.data()), 1)), 4);
  EXPECT_EQ(pos(F::symv(h, L, 4, c(&one), c(A.data()), 3, c(x.data()), 1, c(&one), c(y.data()), 1)), 5);
  EXPECT_EQ(pos(F::symv(h, L, 4, c(&one), c(A.data()), 4, c(x.data()), 1, nullptr, c(y.data()), 1)), 8);
  EXPECT_EQ(pos(F::syr(h, L, 4, c(&one), c(x.data()), 0, c(A.data()), 4)), 5);
  EXPECT_EQ(pos(F::syr2(h, L, 4, c(&one), c(x.data()), 1, c(y.data()), 0, c(A.data()), 4)), 7);
  EXPECT_EQ(pos(F::syr2(h, L, 4, c(&one), c(x.data()), 1, c(y.data()), 1, c(A.data()), 3)), 9);
  EXPECT_EQ(A, A0);
  EXPECT_EQ(x, x0);
  EXPECT_EQ(y, y0);
  // n = 0 quick returns read nothing.
  EXPECT_EQ(F::trsv(h, L, N, NU, 0, nullptr, 1, nullptr, 1), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(F::syr(h, L, 0, c(&one), nullptr, 1, nullptr, 1), TRNBLAS_STATUS_SUCCESS);
}

namespace {

// Uniform values with every `every`-th one replaced by a special value (signed zeros, ±Inf, NaN,
// subnormals, values whose products underflow or overflow), cycling through them from `seed`.
void fill_with_specials(std::vector<float>& v, std::uint64_t seed, std::size_t every) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float specials[] = {0.0f, -0.0f, inf, -inf, nan, 0x1p-149f, -0x1p-140f, 0x1p-80f, -0x1p-80f,
                            0x1p100f, -0x1p100f, 1.0f, -1.5f, 0x1.fffffep127f};
  v = blastest::uniform_f(v.size(), seed);
  for (std::size_t i = 0; i < v.size(); i += every) v[i] = specials[(i / every + seed) % std::size(specials)];
}

// Sger bit for bit against its contract (trnblas level2.cpp, ger_one_program and the general path):
// t_j = fl(alpha y_j); the k = 1 product on TensorE is the micro-kernel's fma from +0, so an exact
// zero product is +0; then the GEMM epilogue with beta = 1: fl(fl(x_i t_j) + 1 * a_ij). Special
// values (signed zeros, Inf, NaN, subnormals, products that underflow to -0 or overflow) in x, y and
// A, shapes inside the one-program limits and beyond them (the general GEMM path), both numerics.
// NaN results are compared as NaN (payloads are not part of the contract).
TEST(Level2Sger, BitsAreTheGemmContractWithSpecialValues) {
  const auto fill = [](std::vector<float>& v, std::uint64_t seed) { fill_with_specials(v, seed, 3); };
  struct Shape {
    int m, n, ix, iy;
  };
  const Shape shapes[] = {{1, 1, 1, 1}, {5, 3, -2, 3}, {8, 8, 1, 1}, {50, 37, 2, -1}, {128, 128, 1, 1},
                          {512, 4, 1, 2}, {513, 4, 1, 1}, {7, 129, -1, 1}, {20, 1, 1, 1}};
  for (const char* numerics : {"ideal", "trn1_measured"}) {
    Handle h;
    if (std::strcmp(numerics, "trn1_measured") == 0) {
      ASSERT_EQ(trnblasSetNumericsProfile(h, TRN_NUMERICS_TRN1_MEASURED), TRNBLAS_STATUS_SUCCESS);
    }
    for (const float alpha : {1.0f, -1.0f, 0.3f, 0x1p-100f, -0x1p90f}) {
      for (const Shape& sh : shapes) {
        const int lda = sh.m + 3;
        std::vector<float> x(span_of(sh.m, sh.ix)), y(span_of(sh.n, sh.iy)), A0(static_cast<std::size_t>(lda * sh.n));
        fill(x, 41 + static_cast<std::uint64_t>(sh.m));
        fill(y, 43 + static_cast<std::uint64_t>(sh.n));
        fill(A0, 47);
        std::vector<float> A = A0;
        ASSERT_EQ(trnblasSger(h, sh.m, sh.n, &alpha, x.data(), sh.ix, y.data(), sh.iy, A.data(), lda), TRNBLAS_STATUS_SUCCESS);
        for (int j = 0; j < sh.n; ++j) {
          volatile float t = alpha * y[idx(sh.n, sh.iy, j)];
          for (int i = 0; i < lda; ++i) {
            const std::size_t k = static_cast<std::size_t>(i + j * lda);
            volatile float want = A0[k];
            if (i < sh.m) {
              volatile float s = std::fma(static_cast<float>(t), x[idx(sh.m, sh.ix, i)], 0.0f);
              volatile float c = want * 1.0f;
              want = s + c;
            }
            const float got = A[k], w = want;
            if (std::isnan(w)) {
              ASSERT_TRUE(std::isnan(got)) << numerics << " m=" << sh.m << " n=" << sh.n << " alpha=" << alpha << " at " << k;
              continue;
            }
            std::uint32_t gb = 0, wb = 0;
            std::memcpy(&gb, &got, 4);
            std::memcpy(&wb, &w, 4);
            ASSERT_EQ(gb, wb) << numerics << " m=" << sh.m << " n=" << sh.n << " alpha=" << alpha << " i=" << i << " j=" << j
                              << " got " << got << " want " << w;
          }
        }
      }
    }
  }
}

// The fp32 rank updates in one program (level2.cpp, sym_rank_program; session 20) against the SYRKX
// path they replace inside its limits (n <= 128), bit for bit: ssyr / ssyr2 give what Ssyrkx gives
// with left = [x (y)], right = [fl(alpha x)] or [fl(alpha y) fl(alpha x)] (the reference BLAS's
// scaling first, then the k-deep GEMM on the triangle with alpha = beta = 1), and leave the other
// triangle's bits alone; sspr / sspr2 give the same triangle as ssyr / ssyr2 on its unpacked copy.
// Special values (signed zeros, Inf, NaN, subnormals, overflowing products) in x, y and A; negative
// and non-unit increments; n = 129 runs the SYRKX path itself. NaN results compared as NaN.
TEST(Level2Ssyr, OneProgramRankUpdatesAreTheSyrkxPathBitForBit) {
  Handle h;
  const auto fill = [](std::vector<float>& v, std::uint64_t seed) { fill_with_specials(v, seed, 3); };
  auto same = [](float got, float want) {
    if (std::isnan(want)) return std::isnan(got);
    return std::memcmp(&got, &want, 4) == 0;
  };
  const float one = 1.0f;
  for (const int n : {1, 2, 5, 10, 37, 128, 129}) {
    for (const trnblasFillMode_t u : {TRNBLAS_FILL_MODE_UPPER, TRNBLAS_FILL_MODE_LOWER}) {
      const bool up = u == TRNBLAS_FILL_MODE_UPPER;
      for (const float alpha : {1.0f, -0.3f, 0x1p-100f, -0x1p90f}) {
        const int ix = n % 2 == 0 ? -2 : 1, iy = n % 3 == 0 ? 3 : -1, lda = n + 2;
        std::vector<float> x(span_of(n, ix)), y(span_of(n, iy)), A0(static_cast<std::size_t>(lda * n));
        fill(x, 71 + static_cast<std::uint64_t>(n));
        fill(y, 73 + static_cast<std::uint64_t>(n));
        fill(A0, 79);
        std::vector<float> left(static_cast<std::size_t>(2 * n)), right(left.size());
        for (int i = 0; i < n; ++i) {
          const float xi = x[idx(n, ix, i)], yi = y[idx(n, iy, i)];
          left[static_cast<std::size_t>(i)] = xi;
          left[static_cast<std::size_t>(n + i)] = yi;
          volatile float ty = alpha * yi, tx = alpha * xi;
          right[static_cast<std::size_t>(i)] = ty;
          right[static_cast<std::size_t>(n + i)] = tx;
        }
        for (const bool two : {false, true}) {
          std::vector<float> A = A0, W = A0;
          ASSERT_EQ(two ? trnblasSsyr2(h, u, n, &alpha, x.data(), ix, y.data(), iy, A.data(), lda)
                        : trnblasSsyr(h, u, n, &alpha, x.data(), ix, A.data(), lda),
                    TRNBLAS_STATUS_SUCCESS);
          // rank 1: right = fl(alpha x) (its second half).
          ASSERT_EQ(trnblasSsyrkx(h, u, TRNBLAS_OP_N, n, two ? 2 : 1, &one, left.data(), n,
                                  two ? right.data() : right.data() + n, n, &one, W.data(), lda),
                    TRNBLAS_STATUS_SUCCESS);
          // The packed form: the triangle of A0 packed, updated, compared with the dense result.
          std::vector<float> Q;
          for (int j = 0; j < n; ++j)
            for (int i = up ? 0 : j; i <= (up ? j : n - 1); ++i) Q.push_back(A0[static_cast<std::size_t>(i + j * lda)]);
          ASSERT_EQ(two ? trnblasSspr2(h, u, n, &alpha, x.data(), ix, y.data(), iy, Q.data())
                        : trnblasSspr(h, u, n, &alpha, x.data(), ix, Q.data()),
                    TRNBLAS_STATUS_SUCCESS);
          std::size_t q = 0;
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < lda; ++i) {
              const std::size_t at = static_cast<std::size_t>(i + j * lda);
              const bool stored = i < n && (up ? i <= j : i >= j);
              ASSERT_TRUE(stored ? same(A[at], W[at]) : std::memcmp(&A[at], &A0[at], 4) == 0)
                  << (two ? "ssyr2" : "ssyr") << " n=" << n << " up=" << up << " alpha=" << alpha << " i=" << i
                  << " j=" << j << " got " << A[at] << " want " << (stored ? W[at] : A0[at]);
              if (!stored) continue;
              ASSERT_TRUE(same(Q[q], A[at])) << (two ? "sspr2" : "sspr") << " n=" << n << " up=" << up << " i=" << i
                                             << " j=" << j << " got " << Q[q] << " want " << A[at];
              ++q;
            }
        }
      }
    }
  }
}

// Sgemv bit for bit against the GEMM contract (level2.cpp, gemv_one_program and the GEMM path): per
// K tile of pmax = 128 rows, s = fma(op(A)^T[k, j], x_k, s) from +0 in increasing k (the matmul
// micro-kernel), the tiles' sums added in order in fp32 PSUM; then v = alpha s (a copy for alpha = 1)
// and, with beta != 0, v + beta y. Special values in A, x and y; shapes inside the one-program limits
// and beyond them; both numerics. NaN results compared as NaN.
TEST(Level2Sgemv, BitsAreTheGemmContractWithSpecialValues) {
  const auto fill = fill_with_specials;
  struct Shape {
    int m, n, ix, iy;
  };
  const Shape shapes[] = {{1, 1, 1, 1}, {2, 1, 1, 10}, {7, 1, 1, 1}, {8, 8, -2, 3}, {50, 37, 1, 1},
                          {128, 128, 1, 1}, {129, 5, 2, 1}, {5, 129, 1, -1}, {130, 140, 1, 1}};
  for (const char* numerics : {"ideal", "trn1_measured"}) {
    Handle h;
    if (std::strcmp(numerics, "trn1_measured") == 0) {
      ASSERT_EQ(trnblasSetNumericsProfile(h, TRN_NUMERICS_TRN1_MEASURED), TRNBLAS_STATUS_SUCCESS);
    }
    for (const trnblasOperation_t op : {TRNBLAS_OP_N, TRNBLAS_OP_T}) {
      for (const Shape& sh : shapes) {
        for (const std::size_t every : {std::size_t{7}, std::size_t{1000000}}) {  // with and without specials
          for (const auto& [alpha, beta] : {std::pair{1.0f, 0.0f}, std::pair{-1.0f, 1.0f}, std::pair{0.7f, -0.5f}}) {
            const int lda = sh.m + 2, K = op == TRNBLAS_OP_N ? sh.n : sh.m, J = op == TRNBLAS_OP_N ? sh.m : sh.n;
            std::vector<float> A(static_cast<std::size_t>(lda * sh.n)), x(span_of(K, sh.ix)), y0(span_of(J, sh.iy));
            fill(A, 51 + static_cast<std::uint64_t>(sh.m), every);
            fill(x, 53, every);
            fill(y0, 57, every);
            std::vector<float> y = y0;
            ASSERT_EQ(trnblasSgemv(h, op, sh.m, sh.n, &alpha, A.data(), lda, x.data(), sh.ix, &beta, y.data(), sh.iy),
                      TRNBLAS_STATUS_SUCCESS);
            for (int j = 0; j < J; ++j) {
              volatile float total = 0.0f;
              for (int k0 = 0; k0 < K; k0 += 128) {
                volatile float part = 0.0f;
                for (int k = k0; k < std::min(K, k0 + 128); ++k) {
                  const float a = op == TRNBLAS_OP_N ? A[static_cast<std::size_t>(j + k * lda)] : A[static_cast<std::size_t>(k + j * lda)];
                  part = std::fma(a, x[idx(K, sh.ix, k)], static_cast<float>(part));
                }
                total = k0 == 0 ? static_cast<float>(part) : total + part;
              }
              volatile float want = alpha == 1.0f ? static_cast<float>(total) : total * alpha;
              if (beta != 0.0f) {
                volatile float c = y0[idx(J, sh.iy, j)] * beta;
                want = want + c;
              }
              const float got = y[idx(J, sh.iy, j)], w = want;
              if (std::isnan(w)) {
                ASSERT_TRUE(std::isnan(got)) << numerics << " m=" << sh.m << " n=" << sh.n << " j=" << j;
                continue;
              }
              std::uint32_t gb = 0, wb = 0;
              std::memcpy(&gb, &got, 4);
              std::memcpy(&wb, &w, 4);
              ASSERT_EQ(gb, wb) << numerics << " op=" << op << " m=" << sh.m << " n=" << sh.n << " alpha=" << alpha
                                << " beta=" << beta << " every=" << every << " j=" << j << " got " << got << " want " << w;
            }
          }
        }
      }
    }
  }
}

// Band staging (level2.cpp, stage_band_f32): stbmv, stbsv and ssbmv on band storage give, bit for bit,
// what strmv, strsv and ssymv give on the dense expansion of the band (lda = n, zeros outside the
// band), with NaN in every band-storage element outside the band (read by the staging DMA, never
// used), for both triangles, transposes, unit/non-unit diagonals, k from 0 to beyond n, lda > k + 1.
TEST(Level2Band, StagedBandIsTheDenseExpansionBitForBit) {
  Handle h;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const int n : {1, 2, 5, 10, 37, 130}) {
    for (const int k : {0, 1, 3, 14, 200}) {
      const int lda = k + 3;
      for (const trnblasFillMode_t u : {TRNBLAS_FILL_MODE_UPPER, TRNBLAS_FILL_MODE_LOWER}) {
        const bool up = u == TRNBLAS_FILL_MODE_UPPER;
        std::vector<float> B(static_cast<std::size_t>(lda * n), nan), D(static_cast<std::size_t>(n * n), 0.0f);
        const std::vector<float> vals = blastest::uniform_f(B.size(), 61 + static_cast<std::uint64_t>(n + k));
        for (int j = 0; j < n; ++j)
          for (int i = std::max(0, up ? j - k : j); i <= std::min(n - 1, up ? j : j + k); ++i) {
            const std::size_t at = static_cast<std::size_t>((up ? k + i - j : i - j) + j * lda);
            float v = vals[at];
            if (i == j) v = 2.0f + std::fabs(v);  // a well-conditioned diagonal for the solves
            B[at] = v;
            D[static_cast<std::size_t>(i + j * n)] = v;
          }
        const std::vector<float> x0 = blastest::uniform_f(static_cast<std::size_t>(n), 67);
        for (const trnblasOperation_t t : {TRNBLAS_OP_N, TRNBLAS_OP_T}) {
          for (const trnblasDiagType_t d : {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}) {
            std::vector<float> xb = x0, xd = x0;
            ASSERT_EQ(trnblasStbmv(h, u, t, d, n, k, B.data(), lda, xb.data(), 1), TRNBLAS_STATUS_SUCCESS);
            ASSERT_EQ(trnblasStrmv(h, u, t, d, n, D.data(), n, xd.data(), 1), TRNBLAS_STATUS_SUCCESS);
            ASSERT_EQ(0, std::memcmp(xb.data(), xd.data(), xb.size() * 4)) << "tbmv n=" << n << " k=" << k << " up=" << up;
            xb = x0;
            xd = x0;
            ASSERT_EQ(trnblasStbsv(h, u, t, d, n, k, B.data(), lda, xb.data(), 1), TRNBLAS_STATUS_SUCCESS);
            ASSERT_EQ(trnblasStrsv(h, u, t, d, n, D.data(), n, xd.data(), 1), TRNBLAS_STATUS_SUCCESS);
            ASSERT_EQ(0, std::memcmp(xb.data(), xd.data(), xb.size() * 4)) << "tbsv n=" << n << " k=" << k << " up=" << up;
          }
        }
        // ssbmv against ssymv on the symmetric expansion (the dense copy's other triangle mirrored).
        std::vector<float> S = D;
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i)
            if (up ? i > j : i < j) S[static_cast<std::size_t>(i + j * n)] = S[static_cast<std::size_t>(j + i * n)];
        const float alpha = 0.75f, beta = -0.5f;
        std::vector<float> yb = x0, yd = x0;
        ASSERT_EQ(trnblasSsbmv(h, u, n, k, &alpha, B.data(), lda, x0.data(), 1, &beta, yb.data(), 1), TRNBLAS_STATUS_SUCCESS);
        ASSERT_EQ(trnblasSsymv(h, u, n, &alpha, S.data(), n, x0.data(), 1, &beta, yd.data(), 1), TRNBLAS_STATUS_SUCCESS);
        ASSERT_EQ(0, std::memcmp(yb.data(), yd.data(), yb.size() * 4)) << "sbmv n=" << n << " k=" << k << " up=" << up;
      }
    }
  }
}

// General band staging (level2.cpp, stage_general_band_f32; session 19): sgbmv on band storage gives,
// bit for bit, what sgemv gives on the dense m x n expansion (zeros outside the band), with NaN in
// every band-storage element outside the band and lda > kl + ku + 1, for m < n, m = n and m > n + kl
// (rows no band element reaches), both transposes and beta 0 / non-zero.
TEST(Level2Band, GeneralBandStagingIsTheDenseExpansionBitForBit) {
  Handle h;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const auto& [m, n] : std::vector<std::pair<int, int>>{{1, 1}, {5, 5}, {3, 8}, {9, 4}, {40, 3}, {37, 37}, {130, 140}}) {
    for (const auto& [kl, ku] : std::vector<std::pair<int, int>>{{0, 0}, {1, 0}, {0, 2}, {2, 1}, {3, 5}, {50, 7}}) {
      const int lda = kl + ku + 3;
      std::vector<float> B(static_cast<std::size_t>(lda * n), nan), D(static_cast<std::size_t>(m * n), 0.0f);
      const std::vector<float> vals = blastest::uniform_f(B.size(), 83 + static_cast<std::uint64_t>(m + 7 * n + kl));
      for (int j = 0; j < n; ++j)
        for (int i = std::max(0, j - ku); i <= std::min(m - 1, j + kl); ++i) {
          const std::size_t at = static_cast<std::size_t>(ku + i - j + j * lda);
          B[at] = vals[at];
          D[static_cast<std::size_t>(i + j * m)] = vals[at];
        }
      for (const trnblasOperation_t t : {TRNBLAS_OP_N, TRNBLAS_OP_T}) {
        const int lx = t == TRNBLAS_OP_N ? n : m, ly = t == TRNBLAS_OP_N ? m : n;
        const std::vector<float> x = blastest::uniform_f(static_cast<std::size_t>(lx), 89);
        const std::vector<float> y0 = blastest::uniform_f(static_cast<std::size_t>(ly), 97);
        for (const float beta : {0.0f, -0.5f}) {
          const float alpha = 0.75f;
          std::vector<float> yb = y0, yd = y0;
          ASSERT_EQ(trnblasSgbmv(h, t, m, n, kl, ku, &alpha, B.data(), lda, x.data(), 1, &beta, yb.data(), 1),
                    TRNBLAS_STATUS_SUCCESS);
          ASSERT_EQ(trnblasSgemv(h, t, m, n, &alpha, D.data(), m, x.data(), 1, &beta, yd.data(), 1), TRNBLAS_STATUS_SUCCESS);
          ASSERT_EQ(0, std::memcmp(yb.data(), yd.data(), yb.size() * 4))
              << "gbmv m=" << m << " n=" << n << " kl=" << kl << " ku=" << ku << " t=" << static_cast<int>(t);
        }
      }
    }
  }
}

// stbsv straight from band storage (trsv_kernel.cpp, tbsv_kernel; session 19): (1) the solution's
// residual against long double is within the band bound |b - op(T) x| <= gamma_{kk+1} |op(T)| |x|,
// kk = min(k, n - 1), for every triangle, transpose and diagonal, k from 0 to beyond n, lda > k + 1,
// negative and strided increments; (2) bit for bit the reference xTBSV loop order without its skip of
// x_j == 0 (x_j = b_j / t_jj, then x_i = x_i - t_ij x_j over the band rows only, in float), with Inf,
// NaN and -0 in b: an Inf stays in the band's reach as in the reference BLAS, where the dense staged
// path spread 0 * Inf = NaN down every column (a test written against the dense path fails here).
TEST(Level2Band, DirectBandSolveWithinItsBoundAndTheReferenceLoopBitForBit) {
  Handle h;
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (const int n : {1, 2, 4, 9, 33}) {
    for (const int k : {0, 1, 2, 5, 40}) {
      const int lda = k + 2, kk = std::min(k, n - 1);
      for (const trnblasFillMode_t u : {TRNBLAS_FILL_MODE_UPPER, TRNBLAS_FILL_MODE_LOWER}) {
        const bool up = u == TRNBLAS_FILL_MODE_UPPER;
        std::vector<float> B(static_cast<std::size_t>(lda * n), nan);  // NaN outside the band: never used
        const std::vector<float> vals = blastest::uniform_f(B.size(), 71 + static_cast<std::uint64_t>(3 * n + k));
        const auto at = [&](int i, int j) { return static_cast<std::size_t>((up ? k + i - j : i - j) + j * lda); };
        for (int j = 0; j < n; ++j)
          for (int i = std::max(0, up ? j - k : j); i <= std::min(n - 1, up ? j : j + k); ++i)
            B[at(i, j)] = i == j ? 1.5f + std::fabs(vals[at(i, j)]) : vals[at(i, j)];
        for (const trnblasOperation_t t : {TRNBLAS_OP_N, TRNBLAS_OP_T}) {
          const bool tr = t == TRNBLAS_OP_T, lower = up == tr;
          // op(T)(i, j) in the band (0 outside it).
          const auto op = [&](int i, int j) -> float {
            const int r = tr ? j : i, c = tr ? i : j;
            const bool in = up ? (r <= c && c - r <= k) : (r >= c && r - c <= k);
            return in ? B[at(r, c)] : 0.0f;
          };
          for (const trnblasDiagType_t d : {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}) {
            const bool unit = d == TRNBLAS_DIAG_UNIT;
            for (const int inc : {1, -2}) {
              const int ai = inc < 0 ? -inc : inc;
              std::vector<float> b0 = blastest::uniform_f(static_cast<std::size_t>(n), 73 + static_cast<std::uint64_t>(n));
              const auto idx = [&](int i) { return static_cast<std::size_t>(inc > 0 ? i * ai : (n - 1 - i) * ai); };
              for (const bool special : {false, true}) {
                if (special) {  // Inf, NaN and -0 among the right-hand sides
                  b0[0] = lower ? inf : b0[0];
                  b0[static_cast<std::size_t>(n - 1)] = lower ? b0[static_cast<std::size_t>(n - 1)] : -inf;
                  if (n > 2) b0[1] = -0.0f;
                  if (n > 5) b0[5] = nan;
                }
                std::vector<float> x(static_cast<std::size_t>((n - 1) * ai + 1), 7.0f);
                for (int i = 0; i < n; ++i) x[idx(i)] = b0[static_cast<std::size_t>(i)];
                ASSERT_EQ(trnblasStbsv(h, u, t, d, n, k, B.data(), lda, x.data(), inc), TRNBLAS_STATUS_SUCCESS);
                // (2) the reference loop in float, each rounding separate.
                std::vector<float> r = b0;
                for (int s = 0; s < n; ++s) {
                  const int j = lower ? s : n - 1 - s;
                  if (!unit) r[static_cast<std::size_t>(j)] = r[static_cast<std::size_t>(j)] / op(j, j);
                  const int i0 = lower ? j + 1 : std::max(0, j - kk), i1 = lower ? std::min(n - 1, j + kk) : j - 1;
                  for (int i = i0; i <= i1; ++i) {
                    volatile float prod = op(i, j) * r[static_cast<std::size_t>(j)];
                    r[static_cast<std::size_t>(i)] = r[static_cast<std::size_t>(i)] - prod;
                  }
                }
                for (int i = 0; i < n; ++i) {
                  const float got = x[idx(i)], want = r[static_cast<std::size_t>(i)];
                  ASSERT_TRUE(std::isnan(got) ? std::isnan(want) : std::memcmp(&got, &want, 4) == 0)
                      << "n=" << n << " k=" << k << " up=" << up << " tr=" << tr << " unit=" << unit << " inc=" << inc
                      << " special=" << special << " i=" << i << ": " << got << " vs " << want;
                }
                for (std::size_t e = 0; e < x.size(); ++e)  // the increment's gaps untouched
                  if (e % static_cast<std::size_t>(ai) != 0) {
                    ASSERT_EQ(x[e], 7.0f);
                  }
                if (special) continue;
                // (1) the residual bound in long double.
                for (int i = 0; i < n; ++i) {
                  long double res = b0[static_cast<std::size_t>(i)], mag = 0;
                  for (int j = 0; j < n; ++j) {
                    const long double tij = i == j && unit ? 1.0L : static_cast<long double>(op(i, j));
                    res -= tij * x[idx(j)];
                    mag += std::fabs(tij * x[idx(j)]);
                  }
                  ASSERT_LE(std::fabs(res), gamma<float>(kk + 1) * mag)
                      << "n=" << n << " k=" << k << " up=" << up << " tr=" << tr << " unit=" << unit << " i=" << i;
                }
              }
            }
          }
        }
      }
    }
  }
}

// Triangle staging (level2.cpp, stage_triangle_f32 / stage_triangle_f64): ?trmv on A equals ?gemv on the
// explicit dense triangle (zeros outside it, ones on a unit diagonal, lda = n), bit for bit, with NaN in
// the unreferenced triangle and (unit) on the diagonal of A, for both triangles, both transposes.
template <class T>
class Level2Staging : public ::testing::Test {};
TYPED_TEST_SUITE(Level2Staging, Types);
TYPED_TEST(Level2Staging, TrmvIsGemvOnTheExplicitTriangleBitForBit) {
  using T = TypeParam;
  Handle h;
  const T nan = std::numeric_limits<T>::quiet_NaN(), one = 1, zero = 0;
  for (const int n : {1, 3, 10, 50, 130}) {
    const int lda = n + 3;
    std::vector<T> vals = random_vec<T>(static_cast<std::size_t>(lda * n), 81 + static_cast<std::uint64_t>(n));
    if constexpr (std::is_same_v<T, double>) {
      // Low words that are fp32 signalling/quiet NaN and Inf patterns (the fp64 staging moves 32-bit words).
      const std::uint32_t lows[] = {0x7F800001u, 0xFF800123u, 0x7FA00000u, 0x7F800000u, 0x00000001u};
      for (std::size_t q = 0; q < vals.size(); q += 5) {
        std::uint64_t b = 0;
        std::memcpy(&b, &vals[q], 8);
        b = (b & 0xFFFFFFFF00000000ull) | lows[(q / 5) % std::size(lows)];
        std::memcpy(&vals[q], &b, 8);
      }
    }
    const std::vector<T> x0 = random_vec<T>(static_cast<std::size_t>(n), 83);
    for (const trnblasFillMode_t u : {TRNBLAS_FILL_MODE_UPPER, TRNBLAS_FILL_MODE_LOWER}) {
      for (const trnblasDiagType_t d : {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}) {
        const bool up = u == TRNBLAS_FILL_MODE_UPPER, unit = d == TRNBLAS_DIAG_UNIT;
        std::vector<T> A(vals.size(), nan), D(static_cast<std::size_t>(n * n), T(0));
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i) {
            if (up ? i > j : i < j) continue;
            const T v = vals[static_cast<std::size_t>(i + j * lda)];
            if (!(unit && i == j)) A[static_cast<std::size_t>(i + j * lda)] = v;
            D[static_cast<std::size_t>(i + j * n)] = unit && i == j ? T(1) : v;
          }
        for (const trnblasOperation_t t : {TRNBLAS_OP_N, TRNBLAS_OP_T}) {
          std::vector<T> xt = x0, yg(static_cast<std::size_t>(n), T(0));
          if constexpr (std::is_same_v<T, float>) {
            ASSERT_EQ(trnblasStrmv(h, u, t, d, n, A.data(), lda, xt.data(), 1), TRNBLAS_STATUS_SUCCESS);
            ASSERT_EQ(trnblasSgemv(h, t, n, n, &one, D.data(), n, x0.data(), 1, &zero, yg.data(), 1), TRNBLAS_STATUS_SUCCESS);
          } else {
            ASSERT_EQ(trnblasDtrmv(h, u, t, d, n, A.data(), lda, xt.data(), 1), TRNBLAS_STATUS_SUCCESS);
            ASSERT_EQ(trnblasDgemv(h, t, n, n, &one, D.data(), n, x0.data(), 1, &zero, yg.data(), 1), TRNBLAS_STATUS_SUCCESS);
          }
          ASSERT_EQ(0, std::memcmp(xt.data(), yg.data(), xt.size() * sizeof(T))) << "n=" << n << " up=" << up << " unit=" << unit;
        }
      }
    }
  }
}

}  // namespace

// ssymv's symmetric staging in one program (level2.cpp, stage_symmetric_by_runs_f32; sessions 20, 21):
// ssymv is, bit for bit, sgemv on the explicit symmetric matrix (the stored triangle mirrored), with
// NaN in every unstored element and special values in the stored triangle (signed zeros, NaN payloads,
// signalling-NaN and subnormal bit patterns), for one block of columns and two (n = 130 > pmax).
// This checks which words land where (a wrong run or mirror fails it); that each word keeps its
// bits is by construction (DMA bit copies), and a GEMM from +0 would not show a -0 -> +0 change.
TEST(Level2SymmetricStaging, SymvIsGemvOnTheExplicitSymmetricMatrixBitForBit) {
  Handle h;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::uint32_t patterns[] = {0x80000000u, 0x7FC01234u, 0xFFC05678u, 0x7F800001u, 0x00000003u, 0x80400000u};
  for (const int n : {1, 3, 10, 24, 25, 50, 130}) {
    const int lda = n + 2;
    std::vector<float> vals = random_vec<float>(static_cast<std::size_t>(lda * n), 91 + static_cast<std::uint64_t>(n));
    for (std::size_t q = 0; q < vals.size(); q += 7) std::memcpy(&vals[q], &patterns[(q / 7) % std::size(patterns)], 4);
    const std::vector<float> x0 = random_vec<float>(static_cast<std::size_t>(n), 93);
    for (const trnblasFillMode_t u : {TRNBLAS_FILL_MODE_UPPER, TRNBLAS_FILL_MODE_LOWER}) {
      const bool up = u == TRNBLAS_FILL_MODE_UPPER;
      std::vector<float> A(vals.size(), nan), D(static_cast<std::size_t>(n * n), 0.0f);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const bool stored = up ? i <= j : i >= j;
          const std::size_t at = static_cast<std::size_t>(stored ? i + j * lda : j + i * lda);
          if (stored) A[at] = vals[at];
          D[static_cast<std::size_t>(i + j * n)] = vals[at];
        }
      for (const float beta : {0.0f, -0.5f}) {
        const float alpha = 0.75f;
        std::vector<float> ys = x0, yg = x0;
        ASSERT_EQ(trnblasSsymv(h, u, n, &alpha, A.data(), lda, x0.data(), 1, &beta, ys.data(), 1), TRNBLAS_STATUS_SUCCESS);
        ASSERT_EQ(trnblasSgemv(h, TRNBLAS_OP_N, n, n, &alpha, D.data(), n, x0.data(), 1, &beta, yg.data(), 1),
                  TRNBLAS_STATUS_SUCCESS);
        ASSERT_EQ(0, std::memcmp(ys.data(), yg.data(), ys.size() * 4)) << "n=" << n << " up=" << up << " beta=" << beta;
      }
    }
  }
}

// The small complex float gemv in one program (level2.cpp, complex_gemv_one_program; session 25): bit
// for bit its documented arithmetic, which is what the two launches before it computed (complex_product's
// real-form matmul, then l12::complex_axpby): per output part the micro-kernel's fma chain from +0 over
// the 2 len_x reals of x against the real form's row (re: ar x_r, -ai x_i per k; im: ai x_r, ar x_i;
// conjugate: ai -> -ai), then re = fl(fl(alpha_r p_r) - fl(alpha_i p_i)), im = fl(fl(alpha_r p_i) +
// fl(alpha_i p_r)) and, beta != 0, the same of beta and y added. Special values (signed zeros, Inf,
// NaN, subnormals, overflow) in A, x and y; NaN results compared as NaN. Then within the bound of a
// long-double product (gamma_{2 len_x + 4} of the absolute terms), the same bits at 1 and 2 host
// threads and on 2 emulated cores, and the one launch's instruction count (17 with beta, 10 without),
// so that the test sees the path it checks. Shapes inside the one-program limits and one beyond.
namespace {
float bits_model_part(const std::vector<std::complex<float>>& A, int lda, trn::blas::Op op, bool conj, int i, int K,
                      const std::vector<std::complex<float>>& x, int incx, int part) {
  // Real term kk = 2k + c (c = 0: x_k's real part); beyond 128 terms (the two launches' path past the
  // one-program limits) each 128-term K tile is summed on its own and added to the total, as Sgemv's.
  volatile float total = 0.0f, s = 0.0f;
  for (int kk = 0; kk < 2 * K; ++kk) {
    const int k = kk / 2;
    const std::complex<float> a = op == trn::blas::Op::N ? A[static_cast<std::size_t>(i + k * lda)]
                                                         : A[static_cast<std::size_t>(k + i * lda)];
    const float ar = a.real(), ai = conj ? -a.imag() : a.imag();
    const std::complex<float> xk = x[idx(K, incx, k)];
    const float coef = kk % 2 == 0 ? (part == 0 ? ar : ai) : (part == 0 ? -ai : ar);
    if (kk % 128 == 0) s = 0.0f;
    s = std::fma(coef, kk % 2 == 0 ? xk.real() : xk.imag(), static_cast<float>(s));
    if (kk % 128 == 127 || kk == 2 * K - 1) total = kk < 128 ? static_cast<float>(s) : total + s;
  }
  return total;
}
// fl(fl(ca a) op fl(cb b)), op = +1 add / -1 subtract.
float combine_model(float a, float b, float ca, float cb, int op) {
  volatile float ta = ca * a, tb = cb * b;
  volatile float r = op > 0 ? ta + tb : ta - tb;
  return r;
}
}  // namespace

TEST(Level2ComplexGemvOneProgram, BitsAreItsArithmeticWithinTheBoundAndTheSameOnThreadsAndCores) {
  using C = std::complex<float>;
  using trn::blas::Op;
  struct Shape {
    int m, n, ix, iy;
  };
  const Shape shapes[] = {{1, 1, 1, 1}, {2, 1, 1, 10}, {10, 1, 1, 10}, {3, 5, -2, 3}, {7, 7, 1, 1},
                          {64, 30, 2, 1}, {30, 64, -1, 2}, {64, 64, 1, 1}, {65, 40, 1, 1}};
  const C scalars[][2] = {{C(1, 0), C(0, 0)}, {C(-1, 0), C(1, 0)}, {C(0.7f, -0.2f), C(-0.5f, 0.25f)},
                          {C(0, 1), C(-0.0f, 0)}, {C(0x1p-100f, -3), C(0, -0.0f)}};
  for (const bool specials : {true, false}) {
    for (const int opi : {0, 1, 2}) {
      const Op op = opi == 0 ? Op::N : Op::T;
      const bool conj = opi == 2;
      for (const Shape& sh : shapes) {
        for (const auto& ab : scalars) {
          const C alpha = ab[0], beta = ab[1];
          const int lda = sh.m + 2, K = op == Op::N ? sh.n : sh.m, J = op == Op::N ? sh.m : sh.n;
          std::vector<float> af(static_cast<std::size_t>(2 * lda * sh.n)), xf(2 * span_of(K, sh.ix)),
              yf(2 * span_of(J, sh.iy));
          const auto fill = [&](std::vector<float>& v, std::uint64_t seed) {
            if (specials)
              fill_with_specials(v, seed, 5);
            else
              v = blastest::uniform_f(v.size(), seed);  // finite: the bound below applies
          };
          fill(af, 61 + static_cast<std::uint64_t>(sh.m));
          fill(xf, 67 + static_cast<std::uint64_t>(sh.n));
          fill(yf, 71);
          const auto as_c = [](const std::vector<float>& f) {
            std::vector<C> c(f.size() / 2);
            for (std::size_t i = 0; i < c.size(); ++i) c[i] = C(f[2 * i], f[2 * i + 1]);
            return c;
          };
          const std::vector<C> A = as_c(af), x = as_c(xf), y0 = as_c(yf);
          trn::blas::CallReport rep;
          const std::vector<C> y = blastest::same_bits_on_threads_and_cores(
              y0,
              [&](const trn::blas::Settings& s, C* out, trn::blas::CallReport* r) {
                trn::blas::gemv(s, op, conj, sh.m, sh.n, alpha, A.data(), lda, x.data(), sh.ix, beta, out, sh.iy, r);
              },
              &rep);
          if (2 * std::max(K, J) <= 128) {
            EXPECT_EQ(rep.profile.total_instructions, beta != C(0) ? 17 : 10) << "m=" << sh.m << " n=" << sh.n;
          }
          ASSERT_FALSE(::testing::Test::HasFailure());
          for (int i = 0; i < J; ++i) {
            const std::size_t yi = idx(J, sh.iy, i);
            const float pr = bits_model_part(A, lda, op, conj, i, K, x, sh.ix, 0);
            const float pi = bits_model_part(A, lda, op, conj, i, K, x, sh.ix, 1);
            volatile float re = combine_model(pr, pi, alpha.real(), alpha.imag(), -1);
            volatile float im = combine_model(pi, pr, alpha.real(), alpha.imag(), +1);
            if (beta != C(0)) {
              re = re + combine_model(y0[yi].real(), y0[yi].imag(), beta.real(), beta.imag(), -1);
              im = im + combine_model(y0[yi].imag(), y0[yi].real(), beta.real(), beta.imag(), +1);
            }
            const float want[2] = {re, im}, got[2] = {y[yi].real(), y[yi].imag()};
            for (int part = 0; part < 2; ++part) {
              const auto where = [&] {
                return ::testing::Message() << "op=" << opi << " m=" << sh.m << " n=" << sh.n << " alpha=" << alpha
                                            << " beta=" << beta << " specials=" << specials << " i=" << i
                                            << " part=" << part << " got " << got[part] << " want " << want[part];
              };
              if (std::isnan(want[part])) {
                ASSERT_TRUE(std::isnan(got[part])) << where();
                continue;
              }
              std::uint32_t gb = 0, wb = 0;
              std::memcpy(&gb, &got[part], 4);
              std::memcpy(&wb, &want[part], 4);
              ASSERT_EQ(gb, wb) << where();
            }
            if (specials) continue;
            // The bound against the long-double product: every term passes through at most 2K + 4 roundings.
            long double er = 0, ei = 0, mag = 0;
            for (int k = 0; k < K; ++k) {
              const C a = op == Op::N ? A[static_cast<std::size_t>(i + k * lda)] : A[static_cast<std::size_t>(k + i * lda)];
              const long double ar = a.real(), ai = conj ? -a.imag() : a.imag();
              const long double xr = x[idx(K, sh.ix, k)].real(), xi = x[idx(K, sh.ix, k)].imag();
              const long double pr_k = ar * xr - ai * xi, pi_k = ar * xi + ai * xr;
              er += alpha.real() * pr_k - alpha.imag() * pi_k;
              ei += alpha.real() * pi_k + alpha.imag() * pr_k;
              mag += (std::fabs(alpha.real()) + std::fabs(alpha.imag())) * (std::fabs(ar) + std::fabs(ai)) *
                     (std::fabs(xr) + std::fabs(xi));
            }
            const long double yr = y0[yi].real(), yim = y0[yi].imag();
            er += beta.real() * yr - beta.imag() * yim;
            ei += beta.real() * yim + beta.imag() * yr;
            mag += (std::fabs(beta.real()) + std::fabs(beta.imag())) * (std::fabs(yr) + std::fabs(yim));
            const long double tol = gamma<float>(2.0L * K + 4) * mag + 1e-44L;
            EXPECT_LE(std::fabs(static_cast<long double>(y[yi].real()) - er), tol) << "re i=" << i;
            EXPECT_LE(std::fabs(static_cast<long double>(y[yi].imag()) - ei), tol) << "im i=" << i;
          }
        }
      }
    }
  }
}

// zgeru / zgerc on the host side (level2.cpp, session 26): bit for bit the reference ZGERU / ZGERC
// loops -- t_j = fl(alpha y_j) (gerc: conj(y_j)), a_ij = fl(a_ij + fl(x_i t_j)), each complex product
// as Fortran evaluates it, every step rounded once -- with special values in A, x and y (NaN results
// compared as NaN), increments 1, -2, 3; within gamma_5 (|alpha|_1 |x_i|_1 |y_j|_1 + |a_ij|) per part of
// a long-double reference for finite data; the same bits at 1 and 2 host threads and on 2 emulated
// cores; and one costed host round trip (trnblas.zger.host), no device instruction.
TEST(ZgerHost, ReferenceLoopsBitForBitWithinTheBoundOnThreadsAndCores) {
  using Z = std::complex<double>;
  const Z alphas[] = {Z(1, 0), Z(-1, 0), Z(0.7, -0.2), Z(0, 1), Z(-0.0, 0.5), Z(0x1p600, -3)};
  struct Shape {
    int m, n, ix, iy;
  };
  const Shape shapes[] = {{1, 1, 1, 1}, {3, 2, 1, 1}, {10, 7, -2, 3}, {64, 33, 3, -1}};
  int checked = 0;
  for (const bool specials : {true, false}) {
    for (const Shape& sh : shapes) {
      for (const Z alpha : alphas) {
        for (const bool conjugate : {false, true}) {
          const int lda = sh.m + 1;
          const auto fill = [&](std::size_t count, std::uint64_t seed) {
            std::vector<float> f(2 * count);
            if (specials) fill_with_specials(f, seed, 4); else f = blastest::uniform_f(f.size(), seed);
            std::vector<Z> v(count);
            for (std::size_t i = 0; i < count; ++i) v[i] = Z(f[2 * i] * 1.25, f[2 * i + 1] * 0.75);  // not float-exact products
            return v;
          };
          const std::vector<Z> x = fill(span_of(sh.m, sh.ix), 101 + static_cast<std::uint64_t>(sh.m));
          const std::vector<Z> y = fill(span_of(sh.n, sh.iy), 103 + static_cast<std::uint64_t>(sh.n));
          const std::vector<Z> a0 = fill(static_cast<std::size_t>(lda * sh.n), 107);
          std::vector<Z> runs[3];
          for (int run = 0; run < 3; ++run) {  // 1 thread; 2 threads; 2 emulated cores
            trn::blas::Settings s;
            s.host_threads = run == 1 ? 2 : 1;
            s.num_cores = run == 2 ? 2 : 1;
            runs[run] = a0;
            trn::blas::CallReport rep;
            trn::blas::ger(s, conjugate, sh.m, sh.n, alpha, x.data(), sh.ix, y.data(), sh.iy, runs[run].data(), lda, &rep);
            if (run == 0) {
              ASSERT_EQ(rep.trace.instructions.size(), 1u);
              EXPECT_EQ(rep.trace.instructions[0].opcode, trn::Opcode::host_compute);
              EXPECT_EQ(trn::host_step_name(rep.trace.instructions[0].host_label), "trnblas.zger.host");
            }
          }
          ASSERT_EQ(0, std::memcmp(runs[0].data(), runs[1].data(), runs[0].size() * sizeof(Z))) << "1 vs 2 threads";
          ASSERT_EQ(0, std::memcmp(runs[0].data(), runs[2].data(), runs[0].size() * sizeof(Z))) << "1 vs 2 cores";
          for (int j = 0; j < sh.n; ++j) {
            const Z yj0 = y[idx(sh.n, sh.iy, j)], yj = conjugate ? std::conj(yj0) : yj0;
            volatile double t1 = alpha.real() * yj.real(), t2 = alpha.imag() * yj.imag(), t3 = alpha.real() * yj.imag(),
                            t4 = alpha.imag() * yj.real();
            volatile double tr = t1 - t2, ti = t3 + t4;
            for (int i = 0; i < sh.m; ++i) {
              const Z xi = x[idx(sh.m, sh.ix, i)], a = a0[static_cast<std::size_t>(i + j * lda)];
              volatile double p1 = xi.real() * tr, p2 = xi.imag() * ti, p3 = xi.real() * ti, p4 = xi.imag() * tr;
              volatile double pr = p1 - p2, pi = p3 + p4;
              volatile double wr = a.real() + pr, wi = a.imag() + pi;
              const Z got = runs[0][static_cast<std::size_t>(i + j * lda)];
              const double want[2] = {wr, wi}, g[2] = {got.real(), got.imag()};
              for (int part = 0; part < 2; ++part) {
                if (std::isnan(want[part])) {
                  ASSERT_TRUE(std::isnan(g[part])) << "i=" << i << " j=" << j;
                  continue;
                }
                ASSERT_EQ(0, std::memcmp(&g[part], &want[part], sizeof(double)))
                    << (conjugate ? "zgerc" : "zgeru") << " m=" << sh.m << " n=" << sh.n << " alpha=" << alpha << " i=" << i
                    << " j=" << j << " part=" << part << " got " << g[part] << " want " << want[part];
              }
              ++checked;
              if (specials) continue;
              using LD = long double;
              const LD ar = alpha.real(), ai = alpha.imag(), yr = yj.real(), yi = yj.imag(), xr = xi.real(), xim = xi.imag();
              const LD er = ar * yr - ai * yi, ei = ar * yi + ai * yr;  // exact alpha y_j
              const LD exr = a.real() + (xr * er - xim * ei), exi = a.imag() + (xr * ei + xim * er);
              const LD mag = (std::fabs(ar) + std::fabs(ai)) * (std::fabs(xr) + std::fabs(xim)) * (std::fabs(yr) + std::fabs(yi));
              const LD u = std::numeric_limits<double>::epsilon() / 2.0L, g5 = 5 * u / (1 - 5 * u);
              EXPECT_LE(std::fabs(static_cast<LD>(got.real()) - exr), g5 * (mag + std::fabs(static_cast<LD>(a.real()))));
              EXPECT_LE(std::fabs(static_cast<LD>(got.imag()) - exi), g5 * (mag + std::fabs(static_cast<LD>(a.imag()))));
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 2 * 6 * 2 * (1 * 1 + 3 * 2 + 10 * 7 + 64 * 33));
}
