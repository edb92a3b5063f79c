// trnblas S/D/Z getrfBatched, getrsBatched, getriBatched, matinvBatched and S/D/C/Z trsmBatched
// through the C API. Oracles: LAPACKE (OpenBLAS) sgetrf/dgetrf/zgetrf (pivots and INFO), sgetrs and
// sgetri on the same factors, and the componentwise backward-error bound of LU (Higham, Accuracy and
// Stability of Numerical Algorithms, 2nd ed., Thm 9.3: |PA - LU| <= gamma_n |L||U|) evaluated in
// double. Bad arguments: positions as cuBLAS numbers them (no handle), outputs untouched.
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
std::vector<std::vector<T>> random_batch(int batch, int n, int lda, std::uint64_t seed) {
  return random_rect<T>(batch, n, n, lda, seed);
}

template <class T>
auto* c_ptrs(std::vector<T*>& p) {
  if constexpr (std::is_same_v<T, cd>)
    return reinterpret_cast<trnDoubleComplex* const*>(p.data());
  else
    return p.data();
}

template <class T>
trnblasStatus_t getrf(trnblasHandle_t h, int n, std::vector<T*>& A, int lda, int* P, int* info, int batch) {
  if constexpr (std::is_same_v<T, float>) return trnblasSgetrfBatched(h, n, A.data(), lda, P, info, batch);
  if constexpr (std::is_same_v<T, double>) return trnblasDgetrfBatched(h, n, A.data(), lda, P, info, batch);
  if constexpr (std::is_same_v<T, cd>)
    return trnblasZgetrfBatched(h, n, reinterpret_cast<trnDoubleComplex* const*>(A.data()), lda, P, info, batch);
  if constexpr (std::is_same_v<T, cf>)
    return trnblasCgetrfBatched(h, n, reinterpret_cast<trnComplex* const*>(A.data()), lda, P, info, batch);
}

template <class T>
lapack_int lapacke_getrf(int n, T* a, int lda, lapack_int* ipiv) {
  if constexpr (std::is_same_v<T, float>) return LAPACKE_sgetrf(LAPACK_COL_MAJOR, n, n, a, lda, ipiv);
  if constexpr (std::is_same_v<T, double>) return LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, a, lda, ipiv);
  if constexpr (std::is_same_v<T, cd>)
    return LAPACKE_zgetrf(LAPACK_COL_MAJOR, n, n, reinterpret_cast<lapack_complex_double*>(a), lda, ipiv);
  if constexpr (std::is_same_v<T, cf>)
    return LAPACKE_cgetrf(LAPACK_COL_MAJOR, n, n, reinterpret_cast<lapack_complex_float*>(a), lda, ipiv);
}

// |P A - L U| <= gamma_n |L| |U| componentwise (in double; the pivots applied to A as LAPACK's
// IPIV: row k exchanged with row piv[k] - 1, in order), with a factor 2 for complex arithmetic.
template <class T>
void expect_backward_stable(int n, const T* A0, const T* LU, int lda, const int* piv) {
  std::vector<cd> pa(static_cast<std::size_t>(n * n));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) pa[static_cast<std::size_t>(i + j * n)] = cd(A0[i + j * lda]);
  if (piv != nullptr)
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j) std::swap(pa[static_cast<std::size_t>(k + j * n)], pa[static_cast<std::size_t>(piv[k] - 1 + j * n)]);
  const double g = gamma_n(n + (kCx<T> ? 10 : 0), unit_roundoff<T>()) * (kCx<T> ? 4.0 : 1.0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      cd s = 0;
      double bound = 0;
      for (int k = 0; k <= std::min(i, j); ++k) {
        const cd l = k == i ? cd(1) : cd(LU[i + k * lda]), u = cd(LU[k + j * lda]);
        s += l * u;
        bound += std::abs(l) * std::abs(u);
      }
      ASSERT_LE(std::abs(pa[static_cast<std::size_t>(i + j * n)] - s), g * bound + 1e-300) << i << "," << j;
    }
}

// Pivots and INFO equal LAPACK's; the factors are backward stable; the padding is untouched.
template <class T>
void getrf_matches_lapack(int n, int batch, std::uint64_t seed) {
  Handle h;
  const int lda = n + 2;
  auto A = random_batch<T>(batch, n, lda, seed);
  if (batch > 3)  // a singular entry: column 2 is zero, LAPACK's INFO = 3 (when n > 2)
    for (int i = 0; i < n && n > 2; ++i) A[3][static_cast<std::size_t>(i + 2 * lda)] = T(0);
  const auto A0 = A;
  auto ptr = pointers(A);
  std::vector<int> piv(static_cast<std::size_t>(n * batch), -5), info(static_cast<std::size_t>(batch), -5);
  ASSERT_EQ(getrf<T>(h, n, ptr, lda, piv.data(), info.data(), batch), TRNBLAS_STATUS_SUCCESS);
  for (int b = 0; b < batch; ++b) {
    auto ref = A0[static_cast<std::size_t>(b)];
    std::vector<lapack_int> ipiv(static_cast<std::size_t>(std::max(n, 1)));
    const lapack_int linfo = lapacke_getrf<T>(n, ref.data(), lda, ipiv.data());
    EXPECT_EQ(info[static_cast<std::size_t>(b)], linfo) << "matrix " << b;
    for (int k = 0; k < n; ++k) EXPECT_EQ(piv[static_cast<std::size_t>(b * n + k)], ipiv[static_cast<std::size_t>(k)]) << "matrix " << b << " k " << k;
    const T* lu = A[static_cast<std::size_t>(b)].data();
    if (linfo == 0) expect_backward_stable(n, A0[static_cast<std::size_t>(b)].data(), lu, lda, piv.data() + b * n);
    for (int j = 0; j < n; ++j)
      for (int i = n; i < lda; ++i) ASSERT_EQ(lu[i + j * lda], T(77));
  }
}

TEST(TrnblasLuBatched, SgetrfMatchesLapackTwoPrograms) { getrf_matches_lapack<float>(32, 130, 1); }
TEST(TrnblasLuBatched, SgetrfSmallAndOddSizes) {
  getrf_matches_lapack<float>(1, 5, 2);
  getrf_matches_lapack<float>(7, 9, 3);
  getrf_matches_lapack<float>(45, 4, 4);
}
TEST(TrnblasLuBatched, DgetrfMatchesLapack) { getrf_matches_lapack<double>(20, 6, 5); }
TEST(TrnblasLuBatched, ZgetrfMatchesLapack) { getrf_matches_lapack<cd>(20, 6, 6); }
TEST(TrnblasLuBatched, CgetrfMatchesLapackTwoPrograms) { getrf_matches_lapack<cf>(24, 131, 8); }

// Cgetrs with op C and Cgetri against LAPACKE cgetrs / cgetri on the same factors (the bound as the
// real tests, with |.| of complex values).
TEST(TrnblasLuBatched, CgetrsConjTransAndCgetri) {
  Handle h;
  const int n = 20, batch = 4, nrhs = 5;
  auto A = random_batch<cf>(batch, n, n, 50);
  const auto A0 = A;
  auto aptr = pointers(A);
  std::vector<int> piv(static_cast<std::size_t>(n * batch)), info(batch);
  ASSERT_EQ(trnblasCgetrfBatched(h, n, reinterpret_cast<trnComplex* const*>(aptr.data()), n, piv.data(), info.data(), batch),
            TRNBLAS_STATUS_SUCCESS);
  auto B = random_rect<cf>(batch, n, nrhs, n, 51), Bref = B;
  auto bptr = pointers(B);
  auto C = random_batch<cf>(batch, n, n, 52);
  auto cptr = pointers(C);
  std::vector<const trnComplex*> ac;
  for (auto* p : aptr) ac.push_back(reinterpret_cast<const trnComplex*>(p));
  int hinfo = 3;
  ASSERT_EQ(trnblasCgetrsBatched(h, TRNBLAS_OP_C, n, nrhs, ac.data(), n, piv.data(),
                                 reinterpret_cast<trnComplex* const*>(bptr.data()), n, &hinfo, batch),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(hinfo, 0);
  std::vector<int> iinfo(batch, -1);
  ASSERT_EQ(trnblasCgetriBatched(h, n, ac.data(), n, piv.data(), reinterpret_cast<trnComplex* const*>(cptr.data()), n,
                                 iinfo.data(), batch),
            TRNBLAS_STATUS_SUCCESS);
  for (int b = 0; b < batch; ++b) {
    EXPECT_EQ(iinfo[static_cast<std::size_t>(b)], 0);
    std::vector<lapack_int> ip(piv.begin() + b * n, piv.begin() + (b + 1) * n);
    auto* lu = reinterpret_cast<lapack_complex_float*>(A[static_cast<std::size_t>(b)].data());
    auto* xr = reinterpret_cast<lapack_complex_float*>(Bref[static_cast<std::size_t>(b)].data());
    ASSERT_EQ(LAPACKE_cgetrs(LAPACK_COL_MAJOR, 'C', n, nrhs, lu, n, ip.data(), xr, n), 0);
    auto inv = A[static_cast<std::size_t>(b)];
    ASSERT_EQ(LAPACKE_cgetri(LAPACK_COL_MAJOR, n, reinterpret_cast<lapack_complex_float*>(inv.data()), n, ip.data()), 0);
    double ninv = 0, na = 0;
    for (int i = 0; i < n; ++i) {
      double r1 = 0, r2 = 0;
      for (int j = 0; j < n; ++j) {
        r1 += std::abs(inv[static_cast<std::size_t>(i + j * n)]);
        r2 += std::abs(A0[static_cast<std::size_t>(b)][static_cast<std::size_t>(i + j * n)]);
      }
      ninv = std::max(ninv, r1);
      na = std::max(na, r2);
    }
    const double tol = 40.0 * n * 0x1p-24 * ninv * na;
    double xmax = 0, err = 0;
    for (int i = 0; i < n * nrhs; ++i) {
      xmax = std::max(xmax, double(std::abs(Bref[static_cast<std::size_t>(b)][static_cast<std::size_t>(i)])));
      err = std::max(err, double(std::abs(B[static_cast<std::size_t>(b)][static_cast<std::size_t>(i)] -
                                          Bref[static_cast<std::size_t>(b)][static_cast<std::size_t>(i)])));
    }
    EXPECT_LE(err, tol * xmax) << b;
    for (int i = 0; i < n * n; ++i)
      ASSERT_LE(std::abs(C[static_cast<std::size_t>(b)][static_cast<std::size_t>(i)] - inv[static_cast<std::size_t>(i)]),
                tol * ninv)
          << b;
  }
}

// P = NULL: no pivoting (diagonally dominant matrices, where that is stable): backward stable
// without exchanges; pivots are not written.
TEST(TrnblasLuBatched, SgetrfWithoutPivoting) {
  Handle h;
  const int n = 24, batch = 7;
  auto A = random_batch<float>(batch, n, n, 7);
  for (auto& m : A)
    for (int i = 0; i < n; ++i) m[static_cast<std::size_t>(i + i * n)] += 30.0f;
  const auto A0 = A;
  auto ptr = pointers(A);
  std::vector<int> info(batch, -1);
  ASSERT_EQ(trnblasSgetrfBatched(h, n, ptr.data(), n, nullptr, info.data(), batch), TRNBLAS_STATUS_SUCCESS);
  for (int b = 0; b < batch; ++b) {
    EXPECT_EQ(info[static_cast<std::size_t>(b)], 0);
    expect_backward_stable<float>(n, A0[static_cast<std::size_t>(b)].data(), A[static_cast<std::size_t>(b)].data(), n, nullptr);
  }
  // The factorization runs on the engines: GpSimd (pivot check) and VectorE (scaling, updates).
  trnProfile_t p;
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_VECTOR], 0);
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_GPSIMD], 0);
}

// getrs from our factors against LAPACKE_sgetrs on the same factors and pivots: both backward
// stable solves, so |x - xref| <= 2 n u cond-scale; the bound uses |A^-1| from LAPACK's inverse:
// max|x - xref| <= 20 n u ||A^-1||_inf ||A||_inf max|xref|.
double norm_inf(int n, const float* a, int lda) {
  double m = 0;
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j) s += std::abs(a[i + j * lda]);
    m = std::max(m, s);
  }
  return m;
}

void sgetrs_case(trnblasOperation_t trans, int nrhs, std::uint64_t seed) {
  Handle h;
  const int n = 32, batch = 5, lda = n, ldb = n + 1;
  auto A = random_batch<float>(batch, n, lda, seed);
  const auto A0 = A;
  auto aptr = pointers(A);
  std::vector<int> piv(static_cast<std::size_t>(n * batch)), info(batch);
  ASSERT_EQ(trnblasSgetrfBatched(h, n, aptr.data(), lda, piv.data(), info.data(), batch), TRNBLAS_STATUS_SUCCESS);
  auto B = random_rect<float>(batch, n, nrhs, ldb, seed + 1);
  auto Bref = B;
  auto bptr = pointers(B);
  std::vector<const float*> acptr(aptr.begin(), aptr.end());
  int hinfo = 5;
  ASSERT_EQ(trnblasSgetrsBatched(h, trans, n, nrhs, acptr.data(), lda, piv.data(), bptr.data(), ldb, &hinfo, batch),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(hinfo, 0);
  for (int b = 0; b < batch; ++b) {
    std::vector<lapack_int> ip(piv.begin() + b * n, piv.begin() + (b + 1) * n);
    float* xr = Bref[static_cast<std::size_t>(b)].data();
    ASSERT_EQ(LAPACKE_sgetrs(LAPACK_COL_MAJOR, trans == TRNBLAS_OP_N ? 'N' : 'T', n, nrhs, A[static_cast<std::size_t>(b)].data(), lda,
                             ip.data(), xr, ldb),
              0);
    auto inv = A[static_cast<std::size_t>(b)];
    ASSERT_EQ(LAPACKE_sgetri(LAPACK_COL_MAJOR, n, inv.data(), lda, ip.data()), 0);
    const double scale = 20.0 * n * 0x1p-24 * norm_inf(n, inv.data(), lda) * norm_inf(n, A0[static_cast<std::size_t>(b)].data(), lda);
    double err = 0, xmax = 0;
    for (int r = 0; r < nrhs; ++r)
      for (int i = 0; i < ldb; ++i) {
        const float got = B[static_cast<std::size_t>(b)][static_cast<std::size_t>(i + r * ldb)], want = xr[i + r * ldb];
        if (i >= n) {
          ASSERT_EQ(got, want);  // padding untouched
          continue;
        }
        err = std::max(err, double(std::abs(got - want)));
        xmax = std::max(xmax, double(std::abs(want)));
      }
    EXPECT_LE(err, scale * xmax) << "matrix " << b;
  }
}

TEST(TrnblasLuBatched, SgetrsNoTrans) { sgetrs_case(TRNBLAS_OP_N, 3, 10); }
TEST(TrnblasLuBatched, SgetrsTrans) { sgetrs_case(TRNBLAS_OP_T, 3, 11); }
TEST(TrnblasLuBatched, SgetrsManyRightHandSidesInChunks) { sgetrs_case(TRNBLAS_OP_N, 530, 12); }

// getri and matinv against LAPACKE_sgetri with the same bound; a singular matrix gets info = k and
// its output is not written.
TEST(TrnblasLuBatched, SgetriAndMatinvMatchLapack) {
  Handle h;
  const int n = 32, batch = 6, lda = n + 1, ldc = n + 3;
  auto A = random_batch<float>(batch, n, lda, 20);
  for (int i = 0; i < n; ++i) A[4][static_cast<std::size_t>(i + 5 * lda)] = 0.0f;  // singular: INFO 6
  const auto A0 = A;
  std::vector<const float*> a0ptr;
  for (auto& m : A0) a0ptr.push_back(m.data());
  auto C = random_batch<float>(batch, n, ldc, 21), M = C;
  const auto C0 = C;
  auto cptr = pointers(C), mptr = pointers(M);
  std::vector<int> minfo(batch, -1);
  ASSERT_EQ(trnblasSmatinvBatched(h, n, a0ptr.data(), lda, mptr.data(), ldc, minfo.data(), batch), TRNBLAS_STATUS_SUCCESS);
  auto aptr = pointers(A);
  std::vector<int> piv(static_cast<std::size_t>(n * batch)), info(batch), iinfo(batch, -1);
  ASSERT_EQ(trnblasSgetrfBatched(h, n, aptr.data(), lda, piv.data(), info.data(), batch), TRNBLAS_STATUS_SUCCESS);
  std::vector<const float*> acptr(aptr.begin(), aptr.end());
  ASSERT_EQ(trnblasSgetriBatched(h, n, acptr.data(), lda, piv.data(), cptr.data(), ldc, iinfo.data(), batch),
            TRNBLAS_STATUS_SUCCESS);
  for (int b = 0; b < batch; ++b) {
    auto ref = A0[static_cast<std::size_t>(b)];
    std::vector<lapack_int> ip(n);
    const lapack_int linfo = LAPACKE_sgetrf(LAPACK_COL_MAJOR, n, n, ref.data(), lda, ip.data());
    EXPECT_EQ(iinfo[static_cast<std::size_t>(b)], linfo);
    EXPECT_EQ(minfo[static_cast<std::size_t>(b)], linfo);
    if (linfo != 0) {
      EXPECT_EQ(C[static_cast<std::size_t>(b)], C0[static_cast<std::size_t>(b)]) << "singular: C untouched";
      EXPECT_EQ(M[static_cast<std::size_t>(b)], C0[static_cast<std::size_t>(b)]) << "singular: Ainv untouched";
      continue;
    }
    ASSERT_EQ(LAPACKE_sgetri(LAPACK_COL_MAJOR, n, ref.data(), lda, ip.data()), 0);
    const double kappa = norm_inf(n, ref.data(), lda) * norm_inf(n, A0[static_cast<std::size_t>(b)].data(), lda);
    const double tol = 40.0 * n * 0x1p-24 * kappa * norm_inf(n, ref.data(), lda);
    for (const auto* got : {C[static_cast<std::size_t>(b)].data(), M[static_cast<std::size_t>(b)].data()})
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) ASSERT_LE(std::abs(got[i + j * ldc] - ref[static_cast<std::size_t>(i + j * lda)]), tol) << b;
  }
}

// Argument positions (cuBLAS order without the handle); nothing written on error; getrs's host
// info holds -position; n beyond matinv's 32 is illegal.
TEST(TrnblasLuBatched, ArgumentPositions) {
  Handle h;
  auto A = random_batch<float>(2, 4, 4, 30);
  const auto A0 = A;
  auto aptr = pointers(A);
  std::vector<int> piv(8, -3), info(2, -3);
  auto expect_pos = [&](trnblasStatus_t st, int pos) {
    EXPECT_EQ(st, TRNBLAS_STATUS_INVALID_VALUE);
    int got = 0;
    ASSERT_EQ(trnblasGetLastErrorParameter(h, &got), TRNBLAS_STATUS_SUCCESS);
    EXPECT_EQ(got, pos);
    EXPECT_EQ(A, A0);
    EXPECT_EQ(piv, std::vector<int>(8, -3));
    EXPECT_EQ(info, std::vector<int>(2, -3));
  };
  expect_pos(trnblasSgetrfBatched(h, -1, aptr.data(), 4, piv.data(), info.data(), 2), 1);
  expect_pos(trnblasSgetrfBatched(h, 4, nullptr, 4, piv.data(), info.data(), 2), 2);
  expect_pos(trnblasSgetrfBatched(h, 4, aptr.data(), 3, piv.data(), info.data(), 2), 3);
  expect_pos(trnblasSgetrfBatched(h, 4, aptr.data(), 4, piv.data(), nullptr, 2), 5);
  expect_pos(trnblasSgetrfBatched(h, 4, aptr.data(), 4, piv.data(), info.data(), -1), 6);
  std::vector<const float*> ac(aptr.begin(), aptr.end());
  int hinfo = 0;
  expect_pos(trnblasSgetrsBatched(h, trnblasOperation_t(7), 4, 1, ac.data(), 4, piv.data(), aptr.data(), 4, &hinfo, 2), 1);
  EXPECT_EQ(hinfo, -1);
  expect_pos(trnblasSgetrsBatched(h, TRNBLAS_OP_N, 4, -2, ac.data(), 4, piv.data(), aptr.data(), 4, &hinfo, 2), 3);
  EXPECT_EQ(hinfo, -3);
  expect_pos(trnblasSgetrsBatched(h, TRNBLAS_OP_N, 4, 1, ac.data(), 4, piv.data(), aptr.data(), 2, &hinfo, 2), 8);
  EXPECT_EQ(hinfo, -8);
  expect_pos(trnblasSgetriBatched(h, 4, ac.data(), 4, piv.data(), aptr.data(), 3, info.data(), 2), 6);
  expect_pos(trnblasSmatinvBatched(h, 33, ac.data(), 40, aptr.data(), 40, info.data(), 2), 1);
  expect_pos(trnblasSmatinvBatched(h, 4, ac.data(), 4, aptr.data(), 4, info.data(), -2), 7);
  // trsmBatched: positions as Strsm, batchCount 12.
  const float one = 1.0f;
  expect_pos(trnblasStrsmBatched(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_UNIT, 4, 4,
                                 &one, ac.data(), 4, aptr.data(), 4, -1),
             12);
  expect_pos(trnblasStrsmBatched(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_UNIT, 4, 4,
                                 &one, ac.data(), 4, aptr.data(), 3, 2),
             11);
  // Too large for one matrix per SBUF partition: NOT_SUPPORTED, nothing written.
  std::vector<float> big(static_cast<std::size_t>(400 * 400), 1.0f);
  float* bp = big.data();
  EXPECT_EQ(trnblasSgetrfBatched(h, 400, &bp, 400, nullptr, info.data(), 1), TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(big[0], 1.0f);
}

// trsmBatched: each entry bit for bit equal to a separate Ctrsm / Strsm call (the same kernels).
TEST(TrnblasLuBatched, TrsmBatchedEqualsSeparateCalls) {
  Handle h;
  const int m = 20, n = 6, batch = 3;
  std::mt19937_64 g(40);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<std::vector<cf>> A(batch, std::vector<cf>(m * m)), B(batch, std::vector<cf>(m * n));
  for (auto& a : A) {
    for (auto& x : a) x = cf(d(g), d(g)) * 0.1f;
    for (int i = 0; i < m; ++i) a[static_cast<std::size_t>(i + i * m)] += cf(2.0f, 0.5f);
  }
  for (auto& b : B)
    for (auto& x : b) x = cf(d(g), d(g));
  auto B2 = B;
  std::vector<const trnComplex*> ap;
  std::vector<trnComplex*> bp;
  for (int b = 0; b < batch; ++b) {
    ap.push_back(reinterpret_cast<const trnComplex*>(A[static_cast<std::size_t>(b)].data()));
    bp.push_back(reinterpret_cast<trnComplex*>(B[static_cast<std::size_t>(b)].data()));
  }
  const trnComplex alpha{0.5f, -1.0f};
  ASSERT_EQ(trnblasCtrsmBatched(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_C, TRNBLAS_DIAG_NON_UNIT, m, n,
                                &alpha, ap.data(), m, bp.data(), m, batch),
            TRNBLAS_STATUS_SUCCESS);
  for (int b = 0; b < batch; ++b) {
    ASSERT_EQ(trnblasCtrsm(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_C, TRNBLAS_DIAG_NON_UNIT, m, n, &alpha,
                           ap[static_cast<std::size_t>(b)], m, reinterpret_cast<trnComplex*>(B2[static_cast<std::size_t>(b)].data()), m),
              TRNBLAS_STATUS_SUCCESS);
    EXPECT_EQ(B[static_cast<std::size_t>(b)], B2[static_cast<std::size_t>(b)]);
  }
}

}  // namespace
