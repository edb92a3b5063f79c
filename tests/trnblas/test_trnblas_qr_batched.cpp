// trnblas S/D/C/Z geqrfBatched and gelsBatched through the C API. Oracles: LAPACKE (OpenBLAS)
// ?geqrf (R, the Householder vectors and tau: the same xGEQR2 conventions, so the same numbers to
// rounding) and ?gels (solution and the residual rows of Q^H C); the QR backward error
// ||A - Q R|| <= c m n u ||A|| (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., Thm
// 19.4) with Q formed from the returned reflectors in double. Bad arguments: positions as cuBLAS
// numbers them (no handle), host info = -position, outputs untouched.
#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "batched_test_util.hpp"
#include "blas_test_util.hpp"
#include "trnblas.h"

namespace {

using blastest::Handle;
using namespace batched_test;  // NOLINT(google-build-using-namespace)
using cd = std::complex<double>;
using cf = std::complex<float>;

template <class T>
auto* c_ptrs(std::vector<T*>& p) {
  if constexpr (std::is_same_v<T, cd>)
    return reinterpret_cast<trnDoubleComplex* const*>(p.data());
  else if constexpr (std::is_same_v<T, cf>)
    return reinterpret_cast<trnComplex* const*>(p.data());
  else
    return p.data();
}

template <class T>
trnblasStatus_t geqrf(trnblasHandle_t h, int m, int n, std::vector<T*>& A, int lda, std::vector<T*>& tau, int* info,
                      int batch) {
  if constexpr (std::is_same_v<T, float>) return trnblasSgeqrfBatched(h, m, n, c_ptrs(A), lda, c_ptrs(tau), info, batch);
  if constexpr (std::is_same_v<T, double>) return trnblasDgeqrfBatched(h, m, n, c_ptrs(A), lda, c_ptrs(tau), info, batch);
  if constexpr (std::is_same_v<T, cf>) return trnblasCgeqrfBatched(h, m, n, c_ptrs(A), lda, c_ptrs(tau), info, batch);
  if constexpr (std::is_same_v<T, cd>) return trnblasZgeqrfBatched(h, m, n, c_ptrs(A), lda, c_ptrs(tau), info, batch);
}

template <class T>
trnblasStatus_t gels(trnblasHandle_t h, trnblasOperation_t op, int m, int n, int nrhs, std::vector<T*>& A, int lda,
                     std::vector<T*>& C, int ldc, int* info, int* dev, int batch) {
  if constexpr (std::is_same_v<T, float>)
    return trnblasSgelsBatched(h, op, m, n, nrhs, c_ptrs(A), lda, c_ptrs(C), ldc, info, dev, batch);
  if constexpr (std::is_same_v<T, double>)
    return trnblasDgelsBatched(h, op, m, n, nrhs, c_ptrs(A), lda, c_ptrs(C), ldc, info, dev, batch);
  if constexpr (std::is_same_v<T, cf>)
    return trnblasCgelsBatched(h, op, m, n, nrhs, c_ptrs(A), lda, c_ptrs(C), ldc, info, dev, batch);
  if constexpr (std::is_same_v<T, cd>)
    return trnblasZgelsBatched(h, op, m, n, nrhs, c_ptrs(A), lda, c_ptrs(C), ldc, info, dev, batch);
}

template <class T>
lapack_int lapacke_geqrf(int m, int n, T* a, int lda, T* tau) {
  if constexpr (std::is_same_v<T, float>) return LAPACKE_sgeqrf(LAPACK_COL_MAJOR, m, n, a, lda, tau);
  if constexpr (std::is_same_v<T, double>) return LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, n, a, lda, tau);
  if constexpr (std::is_same_v<T, cf>)
    return LAPACKE_cgeqrf(LAPACK_COL_MAJOR, m, n, reinterpret_cast<lapack_complex_float*>(a), lda,
                          reinterpret_cast<lapack_complex_float*>(tau));
  if constexpr (std::is_same_v<T, cd>)
    return LAPACKE_zgeqrf(LAPACK_COL_MAJOR, m, n, reinterpret_cast<lapack_complex_double*>(a), lda,
                          reinterpret_cast<lapack_complex_double*>(tau));
}

template <class T>
lapack_int lapacke_gels(int m, int n, int nrhs, T* a, int lda, T* c, int ldc) {
  if constexpr (std::is_same_v<T, float>) return LAPACKE_sgels(LAPACK_COL_MAJOR, 'N', m, n, nrhs, a, lda, c, ldc);
  if constexpr (std::is_same_v<T, double>) return LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', m, n, nrhs, a, lda, c, ldc);
  if constexpr (std::is_same_v<T, cf>)
    return LAPACKE_cgels(LAPACK_COL_MAJOR, 'N', m, n, nrhs, reinterpret_cast<lapack_complex_float*>(a), lda,
                         reinterpret_cast<lapack_complex_float*>(c), ldc);
  if constexpr (std::is_same_v<T, cd>)
    return LAPACKE_zgels(LAPACK_COL_MAJOR, 'N', m, n, nrhs, reinterpret_cast<lapack_complex_double*>(a), lda,
                         reinterpret_cast<lapack_complex_double*>(c), ldc);
}

// Frobenius norm of the m x n matrix (leading dimension ld).
template <class T>
double fro(int m, int n, const T* a, int ld) {
  double s = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) s += std::norm(cd(a[i + j * ld]));
  return std::sqrt(s);
}

// ||A - Q R||_F from the factored form (reflectors applied to R in double, last first).
template <class T>
double qr_residual(int m, int n, const T* A0, const T* F, int ld, const T* tau) {
  std::vector<cd> x(static_cast<std::size_t>(m * n), 0.0);  // R, then Q R
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= std::min(j, m - 1); ++i) x[static_cast<std::size_t>(i + j * m)] = cd(F[i + j * ld]);
  for (int k = std::min(m, n) - 1; k >= 0; --k) {
    const auto v = [&](int i) { return i == k ? cd(1) : cd(F[i + k * ld]); };
    for (int j = 0; j < n; ++j) {  // x := H_k x, H_k = I - tau v v^H
      cd y = 0;
      for (int i = k; i < m; ++i) y += std::conj(v(i)) * x[static_cast<std::size_t>(i + j * m)];
      for (int i = k; i < m; ++i) x[static_cast<std::size_t>(i + j * m)] -= cd(tau[k]) * v(i) * y;
    }
  }
  double s = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) s += std::norm(cd(A0[i + j * ld]) - x[static_cast<std::size_t>(i + j * m)]);
  return std::sqrt(s);
}

// R, the reflectors and tau near LAPACK's (same conventions); backward error; padding untouched.
template <class T>
void geqrf_matches_lapack(int m, int n, int batch, std::uint64_t seed) {
  Handle h;
  const int lda = m + 2, kmin = std::min(m, n);
  auto A = random_rect<T>(batch, m, n, lda, seed);
  const auto A0 = A;
  std::vector<std::vector<T>> tau(static_cast<std::size_t>(batch), std::vector<T>(static_cast<std::size_t>(kmin + 1), T(55)));
  auto ap = pointers(A);
  auto tp = pointers(tau);
  int info = -9;
  ASSERT_EQ(geqrf<T>(h, m, n, ap, lda, tp, &info, batch), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  // Measured (this suite): ||A - QR|| <= 3.1 u ||A||, entries within 2.5 u max(1, ||A||) of LAPACK's.
  const double u = unit_roundoff<T>(), c = (m + n) * u * (kCx<T> ? 4.0 : 1.0);
  for (int b = 0; b < batch; ++b) {
    auto ref = A0[static_cast<std::size_t>(b)];
    std::vector<T> rtau(static_cast<std::size_t>(std::max(1, kmin)));
    ASSERT_EQ(lapacke_geqrf<T>(m, n, ref.data(), lda, rtau.data()), 0);
    const auto& got = A[static_cast<std::size_t>(b)];
    const double na = fro(m, n, A0[static_cast<std::size_t>(b)].data(), lda);
    // The same reflectors: every entry within a modest multiple of the backward-error scale.
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        ASSERT_LE(std::abs(cd(got[static_cast<std::size_t>(i + j * lda)]) - cd(ref[static_cast<std::size_t>(i + j * lda)])),
                  c * std::max(1.0, na))
            << "b " << b << " (" << i << "," << j << ")";
    for (int k = 0; k < kmin; ++k)
      ASSERT_LE(std::abs(cd(tau[static_cast<std::size_t>(b)][static_cast<std::size_t>(k)]) - cd(rtau[static_cast<std::size_t>(k)])),
                c * std::max(1.0, na))
          << "tau " << k;
    EXPECT_EQ(tau[static_cast<std::size_t>(b)][static_cast<std::size_t>(kmin)], T(55));
    EXPECT_LE(qr_residual(m, n, A0[static_cast<std::size_t>(b)].data(), got.data(), lda,
                          tau[static_cast<std::size_t>(b)].data()),
              c * na)
        << "b " << b;
    for (int j = 0; j < n; ++j)
      for (int i = m; i < lda; ++i) ASSERT_EQ(got[static_cast<std::size_t>(i + j * lda)], T(77));
  }
}

TEST(TrnblasQrBatched, SgeqrfTwoPrograms) { geqrf_matches_lapack<float>(12, 7, 130, 1); }
TEST(TrnblasQrBatched, SgeqrfShapes) {
  geqrf_matches_lapack<float>(1, 1, 3, 2);
  geqrf_matches_lapack<float>(9, 9, 5, 3);
  geqrf_matches_lapack<float>(4, 7, 5, 4);  // m < n: R is 4 x 7
  geqrf_matches_lapack<float>(30, 1, 2, 5);
}
TEST(TrnblasQrBatched, DgeqrfShapes) {
  geqrf_matches_lapack<double>(12, 7, 9, 6);
  geqrf_matches_lapack<double>(5, 8, 3, 7);
}
TEST(TrnblasQrBatched, CgeqrfTwoPrograms) { geqrf_matches_lapack<cf>(10, 6, 129, 8); }
TEST(TrnblasQrBatched, CgeqrfShapes) {
  geqrf_matches_lapack<cf>(1, 1, 3, 9);  // a complex 1 x 1: tau != 0, R(0,0) real
  geqrf_matches_lapack<cf>(4, 6, 4, 10);
}
TEST(TrnblasQrBatched, ZgeqrfShapes) {
  geqrf_matches_lapack<cd>(11, 5, 7, 11);
  geqrf_matches_lapack<cd>(3, 3, 2, 12);
}

// A zero column, and a column already upper triangular: H = I (tau 0) there, as LAPACK's.
TEST(TrnblasQrBatched, ZeroColumnsGiveIdentityReflectors) {
  Handle h;
  const int m = 5, n = 3;
  auto A = random_rect<float>(2, m, n, m, 20);
  for (int i = 0; i < m; ++i) A[0][static_cast<std::size_t>(i + m)] = 0.0f;  // column 1 of matrix 0: zero
  for (int i = 1; i < m; ++i) A[1][static_cast<std::size_t>(i)] = 0.0f;      // column 0 of matrix 1: e_0 * a
  std::vector<std::vector<float>> tau(2, std::vector<float>(3, 9.0f));
  auto ap = pointers(A);
  auto tp = pointers(tau);
  int info = -1;
  ASSERT_EQ(geqrf<float>(h, m, n, ap, m, tp, &info, 2), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(tau[1][0], 0.0f);
  EXPECT_FALSE(std::signbit(tau[1][0]));
  // Matrix 0's column 1 after H_0 is zero, so its reflector is the identity and R(1,1) = 0.
  EXPECT_EQ(tau[0][1], 0.0f);
  EXPECT_EQ(A[0][static_cast<std::size_t>(1 + m)], 0.0f);
}

// The least-squares solution and the residual rows of Q^H C near LAPACK's ?gels; devInfo 0.
template <class T>
void gels_matches_lapack(int m, int n, int nrhs, int batch, std::uint64_t seed) {
  Handle h;
  const int lda = m + 1, ldc = m + 3;
  auto A = random_rect<T>(batch, m, n, lda, seed);
  auto C = random_rect<T>(batch, m, nrhs, ldc, seed + 100);
  const auto A0 = A, C0 = C;
  auto ap = pointers(A);
  auto cp = pointers(C);
  std::vector<int> dev(static_cast<std::size_t>(batch), -5);
  int info = -9;
  ASSERT_EQ(gels<T>(h, TRNBLAS_OP_N, m, n, nrhs, ap, lda, cp, ldc, &info, dev.data(), batch), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  const double u = unit_roundoff<T>();
  for (int b = 0; b < batch; ++b) {
    EXPECT_EQ(dev[static_cast<std::size_t>(b)], 0);
    auto ra = A0[static_cast<std::size_t>(b)];
    auto rc = C0[static_cast<std::size_t>(b)];
    ASSERT_EQ(lapacke_gels<T>(m, n, nrhs, ra.data(), lda, rc.data(), ldc), 0);
    const auto& got = C[static_cast<std::size_t>(b)];
    // Random matrices are well conditioned: 20 (m + n) u (1 + ||ref||) per entry (measured: <= 38 u
    // (1 + ||ref||), the 6 x 6 square case).
    const double tol = 20.0 * (m + n) * u * (1.0 + fro(m, nrhs, rc.data(), ldc));
    for (int j = 0; j < nrhs; ++j)
      for (int i = 0; i < m; ++i)
        ASSERT_LE(std::abs(cd(got[static_cast<std::size_t>(i + j * ldc)]) - cd(rc[static_cast<std::size_t>(i + j * ldc)])), tol)
            << "b " << b << " (" << i << "," << j << ")";
    for (int j = 0; j < nrhs; ++j)
      for (int i = m; i < ldc; ++i) ASSERT_EQ(got[static_cast<std::size_t>(i + j * ldc)], T(77));
  }
}

TEST(TrnblasQrBatched, SgelsTwoPrograms) { gels_matches_lapack<float>(9, 5, 3, 131, 30); }
TEST(TrnblasQrBatched, SgelsSquareAndTall) {
  gels_matches_lapack<float>(6, 6, 2, 4, 31);
  gels_matches_lapack<float>(25, 3, 1, 3, 32);
}
TEST(TrnblasQrBatched, DgelsShapes) { gels_matches_lapack<double>(10, 4, 3, 5, 33); }
TEST(TrnblasQrBatched, CgelsShapes) { gels_matches_lapack<cf>(8, 5, 2, 130, 34); }
TEST(TrnblasQrBatched, ZgelsShapes) { gels_matches_lapack<cd>(7, 7, 2, 3, 35); }

// A rank-deficient matrix (a zero column): devInfo = that column (1-based), the others 0.
template <class T>
void gels_rank_deficient() {
  Handle h;
  const int m = 6, n = 4, nrhs = 2, batch = 3;
  auto A = random_rect<T>(batch, m, n, m, 40);
  auto C = random_rect<T>(batch, m, nrhs, m, 41);
  for (int i = 0; i < m; ++i) A[1][static_cast<std::size_t>(i + 2 * m)] = T(0);
  auto ap = pointers(A);
  auto cp = pointers(C);
  std::vector<int> dev(batch, -5);
  int info = -9;
  ASSERT_EQ(gels<T>(h, TRNBLAS_OP_N, m, n, nrhs, ap, m, cp, m, &info, dev.data(), batch), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(dev, (std::vector<int>{0, 3, 0}));
}
TEST(TrnblasQrBatched, GelsRankDeficientDevInfo) {
  gels_rank_deficient<float>();
  gels_rank_deficient<double>();
  gels_rank_deficient<cf>();
  gels_rank_deficient<cd>();
}

// Positions (cuBLAS order, no handle), host info = -position, nothing else written; NOT_SUPPORTED
// for trans T/C and m < n (info -1 / -2) and for sizes beyond one matrix per SBUF partition.
TEST(TrnblasQrBatched, ArgumentPositions) {
  Handle h;
  const int m = 5, n = 3;
  auto A = random_rect<float>(2, m, n, m, 50);
  auto C = random_rect<float>(2, m, 2, m, 51);
  std::vector<std::vector<float>> tau(2, std::vector<float>(3, 9.0f));
  const auto A0 = A, C0 = C, T0 = tau;
  auto ap = pointers(A);
  auto cp = pointers(C);
  auto tp = pointers(tau);
  std::vector<int> dev(2, -3);
  int info = 0;
  auto expect_pos = [&](trnblasStatus_t st, int pos, trnblasStatus_t want = TRNBLAS_STATUS_INVALID_VALUE) {
    EXPECT_EQ(st, want);
    if (want == TRNBLAS_STATUS_INVALID_VALUE) {
      int got = 0;
      ASSERT_EQ(trnblasGetLastErrorParameter(h, &got), TRNBLAS_STATUS_SUCCESS);
      EXPECT_EQ(got, pos);
    }
    EXPECT_EQ(info, -pos);
    EXPECT_EQ(A, A0);
    EXPECT_EQ(C, C0);
    EXPECT_EQ(tau, T0);
    EXPECT_EQ(dev, std::vector<int>(2, -3));
    info = 0;
  };
  expect_pos(trnblasSgeqrfBatched(h, -1, n, ap.data(), m, tp.data(), &info, 2), 1);
  expect_pos(trnblasSgeqrfBatched(h, m, -1, ap.data(), m, tp.data(), &info, 2), 2);
  expect_pos(trnblasSgeqrfBatched(h, m, n, nullptr, m, tp.data(), &info, 2), 3);
  expect_pos(trnblasSgeqrfBatched(h, m, n, ap.data(), m - 1, tp.data(), &info, 2), 4);
  expect_pos(trnblasSgeqrfBatched(h, m, n, ap.data(), m, nullptr, &info, 2), 5);
  expect_pos(trnblasSgeqrfBatched(h, m, n, ap.data(), m, tp.data(), &info, -1), 7);
  EXPECT_EQ(trnblasSgeqrfBatched(h, m, n, ap.data(), m, tp.data(), nullptr, 2), TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(A, A0);
  auto g = [&](int op, int mm, int nn, int nrhs, float* const* a, int lda, float* const* c, int ldc, int* dv, int batch) {
    return trnblasSgelsBatched(h, static_cast<trnblasOperation_t>(op), mm, nn, nrhs, a, lda, c, ldc, &info, dv, batch);
  };
  expect_pos(g(9, m, n, 2, ap.data(), m, cp.data(), m, dev.data(), 2), 1);
  expect_pos(g(TRNBLAS_OP_N, -1, n, 2, ap.data(), m, cp.data(), m, dev.data(), 2), 2);
  expect_pos(g(TRNBLAS_OP_N, m, -1, 2, ap.data(), m, cp.data(), m, dev.data(), 2), 3);
  expect_pos(g(TRNBLAS_OP_N, m, n, -1, ap.data(), m, cp.data(), m, dev.data(), 2), 4);
  expect_pos(g(TRNBLAS_OP_N, m, n, 2, nullptr, m, cp.data(), m, dev.data(), 2), 5);
  expect_pos(g(TRNBLAS_OP_N, m, n, 2, ap.data(), m - 1, cp.data(), m, dev.data(), 2), 6);
  expect_pos(g(TRNBLAS_OP_N, m, n, 2, ap.data(), m, nullptr, m, dev.data(), 2), 7);
  expect_pos(g(TRNBLAS_OP_N, m, n, 2, ap.data(), m, cp.data(), m - 1, dev.data(), 2), 8);
  expect_pos(g(TRNBLAS_OP_N, m, n, 2, ap.data(), m, cp.data(), m, nullptr, 2), 10);
  expect_pos(g(TRNBLAS_OP_N, m, n, 2, ap.data(), m, cp.data(), m, dev.data(), -1), 11);
  expect_pos(g(TRNBLAS_OP_T, m, n, 2, ap.data(), m, cp.data(), m, dev.data(), 2), 1, TRNBLAS_STATUS_NOT_SUPPORTED);
  expect_pos(g(TRNBLAS_OP_N, n, m, 2, ap.data(), m, cp.data(), m, dev.data(), 2), 2, TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(trnblasSgelsBatched(h, TRNBLAS_OP_N, m, n, 2, ap.data(), m, cp.data(), m, nullptr, dev.data(), 2),
            TRNBLAS_STATUS_INVALID_VALUE);
  // Too large for one matrix per SBUF partition: NOT_SUPPORTED, nothing written.
  std::vector<float> big(static_cast<std::size_t>(300 * 300), 1.0f);
  float* bp = big.data();
  float* tb = tau[0].data();
  EXPECT_EQ(trnblasSgeqrfBatched(h, 300, 300, &bp, 300, &tb, &info, 1), TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(big[0], 1.0f);
  EXPECT_EQ(tau, T0);
  // Quick returns: batch 0, n 0 (info 0, devInfo 0, C untouched).
  info = -7;
  EXPECT_EQ(g(TRNBLAS_OP_N, m, 0, 2, ap.data(), m, cp.data(), m, dev.data(), 2), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(dev, std::vector<int>(2, 0));
  EXPECT_EQ(C, C0);
}

// Deterministic: the same bits on 1 and 2 emulated cores (the batch split across programs).
TEST(TrnblasQrBatched, SameBitsOnAnyCoreCount) {
  std::vector<std::vector<float>> out;
  for (int cores : {1, 2}) {
    Handle h;
    ASSERT_EQ(trnblasSetNumCores(h, cores), TRNBLAS_STATUS_SUCCESS);
    auto A = random_rect<float>(200, 7, 4, 7, 60);
    auto C = random_rect<float>(200, 7, 2, 7, 61);
    auto ap = pointers(A);
    auto cp = pointers(C);
    std::vector<int> dev(200);
    int info = 0;
    ASSERT_EQ(gels<float>(h, TRNBLAS_OP_N, 7, 4, 2, ap, 7, cp, 7, &info, dev.data(), 200), TRNBLAS_STATUS_SUCCESS);
    std::vector<float> flat;
    for (auto& v : A) flat.insert(flat.end(), v.begin(), v.end());
    for (auto& v : C) flat.insert(flat.end(), v.begin(), v.end());
    out.push_back(flat);
  }
  EXPECT_EQ(out[0], out[1]);
}

}  // namespace
