// trnblas complex SYRK/HERK family and SYMM/HEMM (C and Z) through the C API against OpenBLAS's
// double-complex CBLAS (cblas_zsyrk, zsyr2k, zherk, zher2k, zsymm, zhemm; zgemm for the cuBLAS-only
// syrkx/herkx) on the same (promoted) data, with the bounds of docs/trnblas.md "Complex SYRK, HERK,
// HEMM"; the other triangle of C (NaN) is never read or written, herk-family diagonals read and
// write zero imaginary parts, netlib's corner cases, parameter positions.
#include <cblas.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "blas_test_util.hpp"
#include "trnblas.h"

namespace {

using blastest::Handle;
using cf = std::complex<float>;
using cd = std::complex<double>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kU32 = 0x1p-24, kU64 = 0x1p-53;
double gamma(double k, double u) { return k * u / (1.0 - k * u); }  // Higham, ASNA 2nd ed., §3.1

template <class Cx>
std::vector<Cx> random_cx(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<Cx> v(count);
  for (Cx& x : v) {
    const double re = d(g), im = d(g);
    x = Cx(static_cast<typename Cx::value_type>(re), static_cast<typename Cx::value_type>(im));
  }
  return v;
}
template <class Cx>
std::vector<cd> promote(const std::vector<Cx>& v) {
  return std::vector<cd>(v.begin(), v.end());
}

enum class Routine { syrk, syr2k, syrkx, herk, her2k, herkx };
bool herm(Routine r) { return r == Routine::herk || r == Routine::her2k || r == Routine::herkx; }
bool two(Routine r) { return r != Routine::syrk && r != Routine::herk; }

template <class Cx>
auto cp(Cx* p) {
  if constexpr (std::is_same_v<std::remove_const_t<Cx>, cf>)
    return reinterpret_cast<std::conditional_t<std::is_const_v<Cx>, const trnComplex*, trnComplex*>>(p);
  else
    return reinterpret_cast<std::conditional_t<std::is_const_v<Cx>, const trnDoubleComplex*, trnDoubleComplex*>>(p);
}

// One call of the routine through the C API (the _64 entry point when use64).
template <class Cx>
trnblasStatus_t call(trnblasHandle_t h, Routine r, bool use64, trnblasFillMode_t uplo, trnblasOperation_t trans,
                     std::int64_t n, std::int64_t k, Cx alpha, const Cx* A, std::int64_t lda, const Cx* B,
                     std::int64_t ldb, Cx beta, Cx* C, std::int64_t ldc) {
  using R = typename Cx::value_type;
  const R ra = alpha.real(), rb = beta.real();
  constexpr bool kF = std::is_same_v<Cx, cf>;
  const int ni = int(n), ki = int(k), la = int(lda), lb = int(ldb), lc = int(ldc);
  switch (r) {
    case Routine::syrk:
      if constexpr (kF)
        return use64 ? trnblasCsyrk_64(h, uplo, trans, n, k, cp(&alpha), cp(A), lda, cp(&beta), cp(C), ldc)
                     : trnblasCsyrk(h, uplo, trans, ni, ki, cp(&alpha), cp(A), la, cp(&beta), cp(C), lc);
      else
        return use64 ? trnblasZsyrk_64(h, uplo, trans, n, k, cp(&alpha), cp(A), lda, cp(&beta), cp(C), ldc)
                     : trnblasZsyrk(h, uplo, trans, ni, ki, cp(&alpha), cp(A), la, cp(&beta), cp(C), lc);
    case Routine::herk:
      if constexpr (kF)
        return use64 ? trnblasCherk_64(h, uplo, trans, n, k, &ra, cp(A), lda, &rb, cp(C), ldc)
                     : trnblasCherk(h, uplo, trans, ni, ki, &ra, cp(A), la, &rb, cp(C), lc);
      else
        return use64 ? trnblasZherk_64(h, uplo, trans, n, k, &ra, cp(A), lda, &rb, cp(C), ldc)
                     : trnblasZherk(h, uplo, trans, ni, ki, &ra, cp(A), la, &rb, cp(C), lc);
    case Routine::syr2k:
      if constexpr (kF)
        return use64 ? trnblasCsyr2k_64(h, uplo, trans, n, k, cp(&alpha), cp(A), lda, cp(B), ldb, cp(&beta), cp(C), ldc)
                     : trnblasCsyr2k(h, uplo, trans, ni, ki, cp(&alpha), cp(A), la, cp(B), lb, cp(&beta), cp(C), lc);
      else
        return use64 ? trnblasZsyr2k_64(h, uplo, trans, n, k, cp(&alpha), cp(A), lda, cp(B), ldb, cp(&beta), cp(C), ldc)
                     : trnblasZsyr2k(h, uplo, trans, ni, ki, cp(&alpha), cp(A), la, cp(B), lb, cp(&beta), cp(C), lc);
    case Routine::syrkx:
      if constexpr (kF)
        return use64 ? trnblasCsyrkx_64(h, uplo, trans, n, k, cp(&alpha), cp(A), lda, cp(B), ldb, cp(&beta), cp(C), ldc)
                     : trnblasCsyrkx(h, uplo, trans, ni, ki, cp(&alpha), cp(A), la, cp(B), lb, cp(&beta), cp(C), lc);
      else
        return use64 ? trnblasZsyrkx_64(h, uplo, trans, n, k, cp(&alpha), cp(A), lda, cp(B), ldb, cp(&beta), cp(C), ldc)
                     : trnblasZsyrkx(h, uplo, trans, ni, ki, cp(&alpha), cp(A), la, cp(B), lb, cp(&beta), cp(C), lc);
    case Routine::her2k:
      if constexpr (kF)
        return use64 ? trnblasCher2k_64(h, uplo, trans, n, k, cp(&alpha), cp(A), lda, cp(B), ldb, &rb, cp(C), ldc)
                     : trnblasCher2k(h, uplo, trans, ni, ki, cp(&alpha), cp(A), la, cp(B), lb, &rb, cp(C), lc);
      else
        return use64 ? trnblasZher2k_64(h, uplo, trans, n, k, cp(&alpha), cp(A), lda, cp(B), ldb, &rb, cp(C), ldc)
                     : trnblasZher2k(h, uplo, trans, ni, ki, cp(&alpha), cp(A), la, cp(B), lb, &rb, cp(C), lc);
    case Routine::herkx:
      if constexpr (kF)
        return use64 ? trnblasCherkx_64(h, uplo, trans, n, k, cp(&alpha), cp(A), lda, cp(B), ldb, &rb, cp(C), ldc)
                     : trnblasCherkx(h, uplo, trans, ni, ki, cp(&alpha), cp(A), la, cp(B), lb, &rb, cp(C), lc);
      else
        return use64 ? trnblasZherkx_64(h, uplo, trans, n, k, cp(&alpha), cp(A), lda, cp(B), ldb, &rb, cp(C), ldc)
                     : trnblasZherkx(h, uplo, trans, ni, ki, cp(&alpha), cp(A), la, cp(B), lb, &rb, cp(C), lc);
  }
  return TRNBLAS_STATUS_INTERNAL_ERROR;
}

// OpenBLAS's double-complex reference of the routine on promoted data (C column-major n x n, ld n,
// its unreferenced triangle zero and, for herm, its diagonal's imaginary parts zero).
void reference(Routine r, bool lower, bool trans, std::int64_t n, std::int64_t k, cd alpha, const std::vector<cd>& A,
               std::int64_t lda, const std::vector<cd>& B, std::int64_t ldb, cd beta, std::vector<cd>& C) {
  const auto ul = lower ? CblasLower : CblasUpper;
  const auto tr = !trans ? CblasNoTrans : (herm(r) ? CblasConjTrans : CblasTrans);
  const int N = int(n), K = int(k);
  switch (r) {
    case Routine::syrk: cblas_zsyrk(CblasColMajor, ul, tr, N, K, &alpha, A.data(), int(lda), &beta, C.data(), N); return;
    case Routine::herk:
      cblas_zherk(CblasColMajor, ul, tr, N, K, alpha.real(), A.data(), int(lda), beta.real(), C.data(), N);
      return;
    case Routine::syr2k:
      cblas_zsyr2k(CblasColMajor, ul, tr, N, K, &alpha, A.data(), int(lda), B.data(), int(ldb), &beta, C.data(), N);
      return;
    case Routine::her2k:
      cblas_zher2k(CblasColMajor, ul, tr, N, K, &alpha, A.data(), int(lda), B.data(), int(ldb), beta.real(), C.data(), N);
      return;
    case Routine::syrkx:
    case Routine::herkx: {  // op(A) op(B)^T (or ^H) as a full zgemm; the triangle is compared
      const auto tb = !trans ? (herm(r) ? CblasConjTrans : CblasTrans) : CblasNoTrans;
      const cd be = herm(r) ? cd(beta.real()) : beta;
      cblas_zgemm(CblasColMajor, tr, tb, N, N, K, &alpha, A.data(), int(lda), B.data(), int(ldb), &be, C.data(), N);
      return;
    }
  }
}

// Every routine x uplo x trans at n = 130 (two 128-row blocks: a rectangle and two diagonal blocks),
// k = 9, lda/ldb/ldc padded. Bound per component (docs): each term alpha op(X) op(Y)^{T,H} is one
// 4M GEMM (a PSUM sum of 2k exact products per component) plus its epilogue (<= 3 more roundings;
// real alpha/beta: 2), the second term of syr2k/her2k adds <= 3 more (its beta = 1 epilogue), so
// |dC| <= gamma_{2k+8} (|alpha| sum_terms sum_l |x_il| |y_jl| + |beta| |c_ij|), with
// |xr yr| + |xi yi| <= |x| |y|. Z: the Ozaki products carry up to 64 more roundings (as the
// Zgemm tests) and the OpenBLAS reference its own gamma_{2k+8} error in fp64.
template <class Cx>
void rank_family(Routine r) {
  using R = typename Cx::value_type;
  constexpr bool kF = std::is_same_v<Cx, cf>;
  Handle h;
  const std::int64_t n = 130, k = 9;
  const double u = kF ? kU32 : kU64;
  const double g = kF ? gamma(2 * k + 8, u) : gamma(2 * k + 8 + 64, u) + gamma(2 * k + 8, u);
  const Cx alpha = herm(r) && !two(r) ? Cx(R(0.75)) : Cx(R(0.75), R(-0.5));
  const Cx beta = herm(r) ? Cx(R(-1.25)) : Cx(R(-1.25), R(0.375));
  std::uint64_t seed = 40 + static_cast<std::uint64_t>(r) * 10;
  for (bool lower : {false, true})
    for (bool trans : {false, true}) {
      const std::int64_t rows = trans ? k : n, cols = trans ? n : k, lda = rows + 2, ldb = rows + 1, ldc = n + 3;
      const std::vector<Cx> A = random_cx<Cx>(static_cast<std::size_t>(lda * cols), ++seed);
      const std::vector<Cx> B = random_cx<Cx>(static_cast<std::size_t>(ldb * cols), ++seed);
      std::vector<Cx> C = random_cx<Cx>(static_cast<std::size_t>(ldc * n), ++seed);
      auto in_tri = [&](std::int64_t i, std::int64_t j) { return lower ? i >= j : i <= j; };
      std::vector<cd> Cref(static_cast<std::size_t>(n * n), cd(0));
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < ldc; ++i) {
          Cx& c = C[static_cast<std::size_t>(i + j * ldc)];
          if (i >= n || !in_tri(i, j)) {
            c = Cx(R(kNaN), R(kNaN));  // never read, never written
          } else {
            if (herm(r) && i == j) c = Cx(c.real(), R(kNaN));  // the imaginary part is not read
            Cref[static_cast<std::size_t>(i + j * n)] = herm(r) && i == j ? cd(c.real(), 0) : cd(c);
          }
        }
      const std::vector<Cx> C0 = C;
      const trnblasOperation_t op = !trans ? TRNBLAS_OP_N : (herm(r) ? TRNBLAS_OP_C : TRNBLAS_OP_T);
      ASSERT_EQ(call<Cx>(h, r, lower, lower ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER, op, n, k, alpha, A.data(),
                         lda, B.data(), ldb, beta, C.data(), ldc),
                TRNBLAS_STATUS_SUCCESS);
      const std::vector<cd> Ad = promote(A), Bd = promote(B);
      reference(r, lower, trans, n, k, cd(alpha), Ad, lda, two(r) ? Bd : Ad, two(r) ? ldb : lda, cd(beta), Cref);
      auto opx = [&](const std::vector<cd>& X, std::int64_t ld, std::int64_t i, std::int64_t l) {
        return std::abs(trans ? X[static_cast<std::size_t>(l + i * ld)] : X[static_cast<std::size_t>(i + l * ld)]);
      };
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < ldc; ++i) {
          const std::size_t x = static_cast<std::size_t>(i + j * ldc);
          if (i >= n || !in_tri(i, j)) {
            ASSERT_EQ(std::memcmp(&C[x], &C0[x], sizeof(Cx)), 0) << "other triangle touched at " << i << "," << j;
            continue;
          }
          double mag = 0;  // sum_terms sum_l |x_il| |y_jl|
          const std::vector<cd>& Y = two(r) ? Bd : Ad;
          const std::int64_t ldy = two(r) ? ldb : lda;
          for (std::int64_t l = 0; l < k; ++l) {
            mag += opx(Ad, lda, i, l) * opx(Y, ldy, j, l);
            if (r == Routine::syr2k || r == Routine::her2k) mag += opx(Y, ldy, i, l) * opx(Ad, lda, j, l);
          }
          const cd c0 = i == j && herm(r) ? cd(C0[x].real(), 0) : cd(C0[x]);
          const double bound = g * (std::abs(cd(alpha)) * mag + std::abs(cd(beta)) * std::abs(c0));
          const cd want = Cref[static_cast<std::size_t>(i + j * n)], got(C[x]);
          EXPECT_LE(std::fabs(got.real() - want.real()), bound) << i << "," << j << " lower " << lower << " trans " << trans;
          if (herm(r) && i == j)
            ASSERT_EQ(got.imag(), 0.0) << "Hermitian diagonal " << i;
          else
            EXPECT_LE(std::fabs(got.imag() - want.imag()), bound) << i << "," << j << " lower " << lower << " trans " << trans;
        }
    }
}

TEST(TrnblasComplexL3, Csyrk) { rank_family<cf>(Routine::syrk); }
TEST(TrnblasComplexL3, Csyr2k) { rank_family<cf>(Routine::syr2k); }
TEST(TrnblasComplexL3, Csyrkx) { rank_family<cf>(Routine::syrkx); }
TEST(TrnblasComplexL3, Cherk) { rank_family<cf>(Routine::herk); }
TEST(TrnblasComplexL3, Cher2k) { rank_family<cf>(Routine::her2k); }
TEST(TrnblasComplexL3, Cherkx) { rank_family<cf>(Routine::herkx); }
TEST(TrnblasComplexL3, Zsyrk) { rank_family<cd>(Routine::syrk); }
TEST(TrnblasComplexL3, Zsyr2k) { rank_family<cd>(Routine::syr2k); }
TEST(TrnblasComplexL3, Zsyrkx) { rank_family<cd>(Routine::syrkx); }
TEST(TrnblasComplexL3, Zherk) { rank_family<cd>(Routine::herk); }
TEST(TrnblasComplexL3, Zher2k) { rank_family<cd>(Routine::her2k); }
TEST(TrnblasComplexL3, Zherkx) { rank_family<cd>(Routine::herkx); }

// CSYMM/CHEMM (and Z) both sides and triangles: one 4M GEMM of contraction d (the order of A) on the
// packed full A: |dC| <= gamma_{2d+3} (|alpha| |A| |B| + |beta| |C|) per component (complex
// epilogue: <= 3 roundings); the unreferenced triangle of A holds NaN and hemm's diagonal imaginary
// parts too (never read). Reference OpenBLAS cblas_zsymm / cblas_zhemm on promoted data.
template <class Cx>
void symm_family(bool hermitian) {
  using R = typename Cx::value_type;
  constexpr bool kF = std::is_same_v<Cx, cf>;
  Handle h;
  const std::int64_t m = 131, n = 20;
  const Cx alpha(R(0.5), R(1.25)), beta(R(-0.75), R(0.25));
  std::uint64_t seed = hermitian ? 900 : 800;
  for (bool left : {true, false})
    for (bool lower : {false, true}) {
      const std::int64_t d = left ? m : n, lda = d + 1, ldb = m + 2, ldc = m + 1;
      std::vector<Cx> A = random_cx<Cx>(static_cast<std::size_t>(lda * d), ++seed);
      std::vector<cd> Aref(static_cast<std::size_t>(d * d));
      for (std::int64_t j = 0; j < d; ++j)
        for (std::int64_t i = 0; i < d; ++i) {
          Cx& a = A[static_cast<std::size_t>(i + j * lda)];
          if (lower ? i < j : i > j) a = Cx(R(kNaN), R(kNaN));
          if (hermitian && i == j) a = Cx(a.real(), R(kNaN));
          const cd v(a);
          Aref[static_cast<std::size_t>(i + j * d)] = hermitian && i == j ? cd(v.real(), 0) : (std::isnan(v.real()) ? cd(0) : v);
        }
      const std::vector<Cx> B = random_cx<Cx>(static_cast<std::size_t>(ldb * n), ++seed);
      std::vector<Cx> C = random_cx<Cx>(static_cast<std::size_t>(ldc * n), ++seed);
      const std::vector<Cx> C0 = C;
      const auto side = left ? TRNBLAS_SIDE_LEFT : TRNBLAS_SIDE_RIGHT;
      const auto ul = lower ? TRNBLAS_FILL_MODE_LOWER : TRNBLAS_FILL_MODE_UPPER;
      trnblasStatus_t st;
      if constexpr (kF)
        st = hermitian ? trnblasChemm(h, side, ul, int(m), int(n), cp(&alpha), cp(A.data()), int(lda), cp(B.data()), int(ldb),
                                      cp(&beta), cp(C.data()), int(ldc))
                       : trnblasCsymm_64(h, side, ul, m, n, cp(&alpha), cp(A.data()), lda, cp(B.data()), ldb, cp(&beta),
                                         cp(C.data()), ldc);
      else
        st = hermitian ? trnblasZhemm_64(h, side, ul, m, n, cp(&alpha), cp(A.data()), lda, cp(B.data()), ldb, cp(&beta),
                                         cp(C.data()), ldc)
                       : trnblasZsymm(h, side, ul, int(m), int(n), cp(&alpha), cp(A.data()), int(lda), cp(B.data()),
                                      int(ldb), cp(&beta), cp(C.data()), int(ldc));
      ASSERT_EQ(st, TRNBLAS_STATUS_SUCCESS);
      std::vector<cd> Cref = promote(C0);
      const std::vector<cd> Bd = promote(B);
      const cd al(alpha), be(beta);
      const auto cs = left ? CblasLeft : CblasRight;
      const auto cu = lower ? CblasLower : CblasUpper;
      if (hermitian)
        cblas_zhemm(CblasColMajor, cs, cu, int(m), int(n), &al, Aref.data(), int(d), Bd.data(), int(ldb), &be, Cref.data(), int(ldc));
      else
        cblas_zsymm(CblasColMajor, cs, cu, int(m), int(n), &al, Aref.data(), int(d), Bd.data(), int(ldb), &be, Cref.data(), int(ldc));
      const double u = kF ? kU32 : kU64;
      const double g = kF ? gamma(2 * d + 3, u) : gamma(2 * d + 3 + 64, u) + gamma(2 * d + 3, u);
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < ldc; ++i) {
          const std::size_t x = static_cast<std::size_t>(i + j * ldc);
          if (i >= m) {
            ASSERT_EQ(std::memcmp(&C[x], &C0[x], sizeof(Cx)), 0);
            continue;
          }
          double mag = 0;
          for (std::int64_t l = 0; l < d; ++l) {
            const double a = left ? std::abs(Aref[static_cast<std::size_t>(std::max(i, l) + std::min(i, l) * d)]) +
                                        std::abs(Aref[static_cast<std::size_t>(std::min(i, l) + std::max(i, l) * d)])
                                  : std::abs(Aref[static_cast<std::size_t>(std::max(l, j) + std::min(l, j) * d)]) +
                                        std::abs(Aref[static_cast<std::size_t>(std::min(l, j) + std::max(l, j) * d)]);
            const double b = left ? std::abs(Bd[static_cast<std::size_t>(l + j * ldb)]) : std::abs(Bd[static_cast<std::size_t>(i + l * ldb)]);
            mag += a * b;  // |A_il| <= the sum of the two stored triangles' magnitudes (one is zero)
          }
          const double bound = g * (std::abs(al) * mag + std::abs(be) * std::abs(cd(C0[x])));
          const cd got(C[x]), want = Cref[x];
          EXPECT_LE(std::fabs(got.real() - want.real()), bound) << i << "," << j;
          EXPECT_LE(std::fabs(got.imag() - want.imag()), bound) << i << "," << j;
        }
    }
}

TEST(TrnblasComplexL3, Csymm) { symm_family<cf>(false); }
TEST(TrnblasComplexL3, Chemm) { symm_family<cf>(true); }
TEST(TrnblasComplexL3, Zsymm) { symm_family<cd>(false); }
TEST(TrnblasComplexL3, Zhemm) { symm_family<cd>(true); }

// netlib corner cases: beta == 0 never reads C (NaN there), alpha == 0 never reads A (NULL),
// alpha == 0 with beta == 1 returns at once (herk then keeps even a NaN diagonal imaginary part),
// alpha == 0 with beta != 1 scales the triangle and zeroes herk's diagonal imaginary parts.
TEST(TrnblasComplexL3, CornerCases) {
  Handle h;
  const int n = 5, k = 3;
  const std::vector<cf> A = random_cx<cf>(n * k, 3);
  std::vector<cf> C(n * n, cf(NAN, NAN));
  const float one = 1.0f, zero = 0.0f, two_f = 2.0f;
  ASSERT_EQ(trnblasCherk(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, n, k, &one, cp(A.data()), n, &zero, cp(C.data()), n),
            TRNBLAS_STATUS_SUCCESS);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const cf c = C[i + j * n];
      if (i < j) {
        ASSERT_TRUE(std::isnan(c.real()));  // upper triangle untouched
      } else {
        ASSERT_FALSE(std::isnan(c.real()) || std::isnan(c.imag())) << i << "," << j;
        if (i == j) {
          ASSERT_EQ(c.imag(), 0.0f);
        }
      }
    }
  std::vector<cf> D(n * n, cf(1.0f, NAN));
  ASSERT_EQ(trnblasCherk(h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_C, n, k, &zero, nullptr, k, &one, cp(D.data()), n),
            TRNBLAS_STATUS_SUCCESS);
  for (const cf& c : D) ASSERT_TRUE(c.real() == 1.0f && std::isnan(c.imag()));  // quick return
  ASSERT_EQ(trnblasCherk(h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_C, n, k, &zero, nullptr, k, &two_f, cp(D.data()), n),
            TRNBLAS_STATUS_SUCCESS);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const cf c = D[i + j * n];
      if (i > j)
        ASSERT_TRUE(c.real() == 1.0f && std::isnan(c.imag()));
      else if (i == j)
        ASSERT_TRUE(c.real() == 2.0f && c.imag() == 0.0f);
      else
        ASSERT_TRUE(c.real() == 2.0f && std::isnan(c.imag()));  // 2 (1 + i NaN): the IEEE product
    }
}

TEST(TrnblasComplexL3, ArgumentPositions) {
  Handle h;
  std::vector<cf> A(64), B(64), C(64, cf(3, 4));
  const cf one(1, 0);
  const float rone = 1.0f;
  auto pos = [&](trnblasStatus_t st) {
    int p = -1;
    trnblasGetLastErrorParameter(h, &p);
    return st == TRNBLAS_STATUS_INVALID_VALUE ? p : -100 - int(st);
  };
  const auto L = TRNBLAS_FILL_MODE_LOWER;
  const auto N = TRNBLAS_OP_N;
  EXPECT_EQ(pos(trnblasCherk(h, trnblasFillMode_t(7), N, 2, 2, &rone, cp(A.data()), 2, &rone, cp(C.data()), 2)), 1);
  EXPECT_EQ(pos(trnblasCherk(h, L, TRNBLAS_OP_T, 2, 2, &rone, cp(A.data()), 2, &rone, cp(C.data()), 2)), 2);
  EXPECT_EQ(pos(trnblasCsyrk(h, L, TRNBLAS_OP_C, 2, 2, cp(&one), cp(A.data()), 2, cp(&one), cp(C.data()), 2)), 2);
  EXPECT_EQ(pos(trnblasCherk(h, L, N, -1, 2, &rone, cp(A.data()), 2, &rone, cp(C.data()), 2)), 3);
  EXPECT_EQ(pos(trnblasCherk(h, L, N, 2, -1, &rone, cp(A.data()), 2, &rone, cp(C.data()), 2)), 4);
  EXPECT_EQ(pos(trnblasCherk(h, L, N, 2, 2, nullptr, cp(A.data()), 2, &rone, cp(C.data()), 2)), 5);
  EXPECT_EQ(pos(trnblasCherk(h, L, N, 2, 2, &rone, nullptr, 2, &rone, cp(C.data()), 2)), 6);
  EXPECT_EQ(pos(trnblasCherk(h, L, N, 2, 2, &rone, cp(A.data()), 1, &rone, cp(C.data()), 2)), 7);
  EXPECT_EQ(pos(trnblasCherk(h, L, N, 2, 2, &rone, cp(A.data()), 2, nullptr, cp(C.data()), 2)), 8);
  EXPECT_EQ(pos(trnblasCherk(h, L, N, 2, 2, &rone, cp(A.data()), 2, &rone, nullptr, 2)), 9);
  EXPECT_EQ(pos(trnblasCherk(h, L, N, 2, 2, &rone, cp(A.data()), 2, &rone, cp(C.data()), 1)), 10);
  EXPECT_EQ(pos(trnblasCher2k(h, L, N, 2, 2, cp(&one), cp(A.data()), 2, nullptr, 2, &rone, cp(C.data()), 2)), 8);
  EXPECT_EQ(pos(trnblasCher2k(h, L, N, 2, 2, cp(&one), cp(A.data()), 2, cp(B.data()), 1, &rone, cp(C.data()), 2)), 9);
  EXPECT_EQ(pos(trnblasCherkx_64(h, L, N, 2, 2, cp(&one), cp(A.data()), 2, cp(B.data()), 2, nullptr, cp(C.data()), 2)), 10);
  EXPECT_EQ(pos(trnblasCsyr2k(h, L, N, 2, 2, cp(&one), cp(A.data()), 2, cp(B.data()), 2, cp(&one), nullptr, 2)), 11);
  EXPECT_EQ(pos(trnblasCsyrkx(h, L, N, 2, 2, cp(&one), cp(A.data()), 2, cp(B.data()), 2, cp(&one), cp(C.data()), 1)), 12);
  EXPECT_EQ(pos(trnblasChemm(h, TRNBLAS_SIDE_LEFT, L, 3, 2, cp(&one), cp(A.data()), 2, cp(B.data()), 3, cp(&one),
                             cp(C.data()), 3)),
            7);
  EXPECT_EQ(pos(trnblasZhemm(h, trnblasSideMode_t(4), L, 3, 2, nullptr, nullptr, 2, nullptr, 3, nullptr, nullptr, 3)), 1);
  for (const cf& c : C) ASSERT_EQ(c, cf(3, 4));
  EXPECT_EQ(trnblasCherk(h, L, N, 0, 2, &rone, nullptr, 1, &rone, nullptr, 1), TRNBLAS_STATUS_SUCCESS);
}

}  // namespace
