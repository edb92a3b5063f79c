// trnblas GEAM and DGMM (S/D/C/Z) through the C API against plain double / long double loops on
// the same data, with the bounds of docs/trnblas.md "GEAM and DGMM"; cuBLAS's in-place rules, the
// "alpha == 0 / beta == 0 never reads A / B" corner cases, BLAS vector steps of x (negative, zero),
// and the parameter positions of errors with C untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
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

constexpr double kU32 = 0x1p-24, kU64 = 0x1p-53;
double gamma(double k, double u) { return k * u / (1.0 - k * u); }  // Higham, ASNA 2nd ed., §3.1

template <class T>
constexpr bool kComplex = !std::is_arithmetic_v<T>;
template <class T>
double unit_roundoff() {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, cf>) return kU32;
  return kU64;
}

template <class T>
std::vector<T> random_values(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<T> v(count);
  for (T& x : v) {
    if constexpr (kComplex<T>) {
      const double re = d(g), im = d(g);
      x = T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(im));
    } else {
      x = static_cast<T>(d(g));
    }
  }
  return v;
}

// C views of std::complex data (same layout: C++ [complex.numbers.general]).
template <class T>
auto cptr(T* p) {
  if constexpr (std::is_same_v<std::remove_const_t<T>, cf>)
    return reinterpret_cast<std::conditional_t<std::is_const_v<T>, const trnComplex*, trnComplex*>>(p);
  else if constexpr (std::is_same_v<std::remove_const_t<T>, cd>)
    return reinterpret_cast<std::conditional_t<std::is_const_v<T>, const trnDoubleComplex*, trnDoubleComplex*>>(p);
  else
    return p;
}

// I (int or int64_t: the plain or the _64 entry point) is deduced from m alone.
template <class T, class I>
trnblasStatus_t geam(trnblasHandle_t h, trnblasOperation_t ta, trnblasOperation_t tb, I m, std::type_identity_t<I> n,
                     const T* alpha, const T* A, std::type_identity_t<I> lda, const T* beta, const T* B,
                     std::type_identity_t<I> ldb, T* C, std::type_identity_t<I> ldc) {
  constexpr bool k64 = std::is_same_v<I, std::int64_t>;
  if constexpr (std::is_same_v<T, float>)
    return k64 ? trnblasSgeam_64(h, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc)
               : trnblasSgeam(h, ta, tb, int(m), int(n), alpha, A, int(lda), beta, B, int(ldb), C, int(ldc));
  else if constexpr (std::is_same_v<T, double>)
    return k64 ? trnblasDgeam_64(h, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc)
               : trnblasDgeam(h, ta, tb, int(m), int(n), alpha, A, int(lda), beta, B, int(ldb), C, int(ldc));
  else if constexpr (std::is_same_v<T, cf>)
    return k64 ? trnblasCgeam_64(h, ta, tb, m, n, cptr(alpha), cptr(A), lda, cptr(beta), cptr(B), ldb, cptr(C), ldc)
               : trnblasCgeam(h, ta, tb, int(m), int(n), cptr(alpha), cptr(A), int(lda), cptr(beta), cptr(B), int(ldb),
                              cptr(C), int(ldc));
  else
    return k64 ? trnblasZgeam_64(h, ta, tb, m, n, cptr(alpha), cptr(A), lda, cptr(beta), cptr(B), ldb, cptr(C), ldc)
               : trnblasZgeam(h, ta, tb, int(m), int(n), cptr(alpha), cptr(A), int(lda), cptr(beta), cptr(B), int(ldb),
                              cptr(C), int(ldc));
}

template <class T, class I>
trnblasStatus_t dgmm(trnblasHandle_t h, trnblasSideMode_t mode, I m, std::type_identity_t<I> n, const T* A,
                     std::type_identity_t<I> lda, const T* x, std::type_identity_t<I> incx, T* C,
                     std::type_identity_t<I> ldc) {
  constexpr bool k64 = std::is_same_v<I, std::int64_t>;
  if constexpr (std::is_same_v<T, float>)
    return k64 ? trnblasSdgmm_64(h, mode, m, n, A, lda, x, incx, C, ldc)
               : trnblasSdgmm(h, mode, int(m), int(n), A, int(lda), x, int(incx), C, int(ldc));
  else if constexpr (std::is_same_v<T, double>)
    return k64 ? trnblasDdgmm_64(h, mode, m, n, A, lda, x, incx, C, ldc)
               : trnblasDdgmm(h, mode, int(m), int(n), A, int(lda), x, int(incx), C, int(ldc));
  else if constexpr (std::is_same_v<T, cf>)
    return k64 ? trnblasCdgmm_64(h, mode, m, n, cptr(A), lda, cptr(x), incx, cptr(C), ldc)
               : trnblasCdgmm(h, mode, int(m), int(n), cptr(A), int(lda), cptr(x), int(incx), cptr(C), int(ldc));
  else
    return k64 ? trnblasZdgmm_64(h, mode, m, n, cptr(A), lda, cptr(x), incx, cptr(C), ldc)
               : trnblasZdgmm(h, mode, int(m), int(n), cptr(A), int(lda), cptr(x), int(incx), cptr(C), int(ldc));
}

using LD = std::complex<long double>;
template <class T>
LD wide(T v) {
  if constexpr (kComplex<T>)
    return {static_cast<long double>(v.real()), static_cast<long double>(v.imag())};
  else
    return {static_cast<long double>(v), 0.0L};
}

// Element (i, j) of op(X) in long double (op 'C' conjugates complex data; real data ignores it).
template <class T>
LD op_at(const std::vector<T>& X, std::int64_t ld, trnblasOperation_t op, std::int64_t i, std::int64_t j) {
  const LD v = wide(op == TRNBLAS_OP_N ? X[i + j * ld] : X[j + i * ld]);
  return op == TRNBLAS_OP_C ? std::conj(v) : v;
}

// Componentwise |C^ - C| <= bound on real and imaginary parts.
void expect_within(LD got, LD want, long double bound, const char* what, std::int64_t i, std::int64_t j) {
  EXPECT_LE(std::fabs(got.real() - want.real()), bound) << what << " re (" << i << ", " << j << ")";
  EXPECT_LE(std::fabs(got.imag() - want.imag()), bound) << what << " im (" << i << ", " << j << ")";
}

// GEAM over every op pair at shapes that cross a partition chunk (n = 130 > 128 columns, two
// programs) and a free-axis chunk for fp32 (m = 1030 > 1024 rows in one case). Bound (the
// kernel's order, docs/trnblas.md): real fl(fl(alpha a) + fl(beta b)) -> gamma_2 (|alpha a| + |beta b|);
// complex per component fl(fl(fl(ar x) - fl(ai y)) + ...) -> gamma_3 (|alpha| |a| + |beta| |b|)
// since |alpha_r a_r| + |alpha_i a_i| <= |alpha| |a| (Cauchy-Schwarz).
template <class T>
void geam_every_op(std::int64_t m, std::int64_t n) {
  Handle h;
  const double u = unit_roundoff<T>();
  const double g = kComplex<T> ? gamma(3, u) : gamma(2, u);
  std::vector<trnblasOperation_t> ops{TRNBLAS_OP_N, TRNBLAS_OP_T};
  if (kComplex<T>) ops.push_back(TRNBLAS_OP_C);
  T alpha, beta;
  if constexpr (kComplex<T>) {
    alpha = T(0.75, -1.25);
    beta = T(-0.5, 0.375);
  } else {
    alpha = T(0.75);
    beta = T(-1.3);
  }
  std::uint64_t seed = 11;
  for (auto ta : ops)
    for (auto tb : ops) {
      const std::int64_t lda = (ta == TRNBLAS_OP_N ? m : n) + 3, ldb = (tb == TRNBLAS_OP_N ? m : n) + 1, ldc = m + 2;
      const std::vector<T> A = random_values<T>(static_cast<std::size_t>(lda * (ta == TRNBLAS_OP_N ? n : m)), ++seed);
      const std::vector<T> B = random_values<T>(static_cast<std::size_t>(ldb * (tb == TRNBLAS_OP_N ? n : m)), ++seed);
      std::vector<T> C(static_cast<std::size_t>(ldc * n), T(-7));
      ASSERT_EQ(geam<T>(h, ta, tb, m, n, &alpha, A.data(), lda, &beta, B.data(), ldb, C.data(), ldc),
                TRNBLAS_STATUS_SUCCESS);
      for (std::int64_t j = 0; j < n; ++j) {
        for (std::int64_t i = 0; i < m; ++i) {
          const LD a = op_at(A, lda, ta, i, j), b = op_at(B, ldb, tb, i, j);
          const LD want = wide(alpha) * a + wide(beta) * b;
          const long double bound = g * (std::abs(wide(alpha)) * std::abs(a) + std::abs(wide(beta)) * std::abs(b));
          expect_within(wide(C[i + j * ldc]), want, bound, "geam", i, j);
        }
        for (std::int64_t i = m; i < ldc; ++i) ASSERT_EQ(wide(C[i + j * ldc]), wide(T(-7))) << "padding written";
      }
    }
}

TEST(TrnblasGeam, SgeamEveryOpWithinBound) {
  geam_every_op<float>(37, 130);
  geam_every_op<float>(1030, 3);
}
TEST(TrnblasGeam, DgeamEveryOpWithinBound) { geam_every_op<double>(37, 130); }
TEST(TrnblasGeam, CgeamEveryOpWithinBound) {
  geam_every_op<cf>(29, 130);
  geam_every_op<cf>(1030, 2);
}
TEST(TrnblasGeam, ZgeamEveryOpWithinBound) { geam_every_op<cd>(29, 130); }

// Transposition (alpha = 1, beta = 0, B = NULL) is a copy: bit exact, and B is never read.
TEST(TrnblasGeam, TransposeIsExactAndBetaZeroNeverReadsB) {
  Handle h;
  const int m = 70, n = 140;
  const std::vector<cf> A = random_values<cf>(static_cast<std::size_t>(n * m), 5);
  std::vector<cf> C(static_cast<std::size_t>(m * n));
  const cf one(1, 0), zero(0, 0);
  ASSERT_EQ(geam<cf>(h, TRNBLAS_OP_C, TRNBLAS_OP_N, m, n, &one, A.data(), n, &zero, nullptr, m, C.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) ASSERT_EQ(C[i + j * m], std::conj(A[j + i * n]));
  // alpha == 0 never reads A (NaN there must not show), both zero: C = 0 over NaN.
  std::vector<float> An(static_cast<std::size_t>(m * n), std::numeric_limits<float>::quiet_NaN());
  std::vector<float> Cs(An);
  const float fz = 0.0f, two = 2.0f;
  const std::vector<float> Bs = random_values<float>(static_cast<std::size_t>(m * n), 6);
  ASSERT_EQ(geam<float>(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, &fz, An.data(), m, &two, Bs.data(), m, Cs.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  for (std::size_t x = 0; x < Cs.size(); ++x) ASSERT_EQ(Cs[x], 2.0f * Bs[x]);  // exact: power-of-two scale
  std::fill(Cs.begin(), Cs.end(), std::numeric_limits<float>::quiet_NaN());
  ASSERT_EQ(geam<float>(h, TRNBLAS_OP_N, TRNBLAS_OP_T, m, n, &fz, nullptr, m, &fz, nullptr, n, Cs.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  for (float v : Cs) ASSERT_EQ(v, 0.0f);
}

// In place as cuBLAS allows: C == A (op N, lda == ldc) and C == B; otherwise INVALID_VALUE at C
// (position 11) with C untouched. NaN in A propagates (IEEE), as in netlib.
TEST(TrnblasGeam, InPlaceRules) {
  Handle h;
  const int m = 33, n = 131, ld = 40;
  const std::vector<float> A0 = random_values<float>(static_cast<std::size_t>(ld * n), 7);
  const std::vector<float> B = random_values<float>(static_cast<std::size_t>(ld * n), 8);
  const float alpha = 0.5f, beta = -3.0f;
  for (int which = 0; which < 2; ++which) {
    std::vector<float> C = A0;
    const trnblasStatus_t st =
        which == 0 ? geam<float>(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, &alpha, C.data(), ld, &beta, B.data(), ld,
                                      C.data(), ld)
                   : geam<float>(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, &beta, B.data(), ld, &alpha, C.data(), ld,
                                      C.data(), ld);
    ASSERT_EQ(st, TRNBLAS_STATUS_SUCCESS);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < ld; ++i) {
        const std::size_t x = static_cast<std::size_t>(i + j * ld);
        if (i >= m) {
          ASSERT_EQ(C[x], A0[x]);  // rows beyond m untouched
          continue;
        }
        // Both orders are fl(fl(s1 x1) + fl(s2 x2)) in float; the double sum of the two rounded
        // products rounded once more is exactly that (fp32 addition is correctly rounded).
        const float pa = alpha * A0[x], pb = beta * B[x];
        ASSERT_EQ(C[x], which == 0 ? pa + pb : pb + pa) << i << "," << j;
      }
  }
  std::vector<float> C = A0;
  EXPECT_EQ(geam<float>(h, TRNBLAS_OP_T, TRNBLAS_OP_N, n, n, &alpha, C.data(), ld + 100, &beta, B.data(), n,
                             C.data(), n),
            TRNBLAS_STATUS_INVALID_VALUE);  // transposed in place
  int p = -1;
  trnblasGetLastErrorParameter(h, &p);
  EXPECT_EQ(p, 11);
  EXPECT_EQ(geam<float>(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, &alpha, B.data(), ld, &beta, C.data(), ld + 1,
                             C.data(), ld),
            TRNBLAS_STATUS_INVALID_VALUE);  // C == B with ldb != ldc
  EXPECT_EQ(C, A0);
}

TEST(TrnblasGeam, ArgumentPositionsAndQuickReturn) {
  Handle h;
  std::vector<double> A(64, 1.0), B(64, 1.0), C(64, 5.0);
  const double one = 1.0;
  const auto N = TRNBLAS_OP_N, T = TRNBLAS_OP_T;
  auto pos = [&](trnblasStatus_t st) {
    int p = -1;
    trnblasGetLastErrorParameter(h, &p);
    return st == TRNBLAS_STATUS_INVALID_VALUE ? p : -100 - int(st);
  };
  EXPECT_EQ(pos(geam<double>(h, trnblasOperation_t(9), N, 2, 2, &one, A.data(), 2, &one, B.data(), 2, C.data(), 2)), 1);
  EXPECT_EQ(pos(geam<double>(h, N, trnblasOperation_t(9), 2, 2, &one, A.data(), 2, &one, B.data(), 2, C.data(), 2)), 2);
  EXPECT_EQ(pos(geam<double>(h, N, N, -1, 2, &one, A.data(), 2, &one, B.data(), 2, C.data(), 2)), 3);
  EXPECT_EQ(pos(geam<double>(h, N, N, 2, -1, &one, A.data(), 2, &one, B.data(), 2, C.data(), 2)), 4);
  EXPECT_EQ(pos(geam<double>(h, N, N, 2, 2, nullptr, A.data(), 2, &one, B.data(), 2, C.data(), 2)), 5);
  EXPECT_EQ(pos(geam<double>(h, N, N, 2, 2, &one, nullptr, 2, &one, B.data(), 2, C.data(), 2)), 6);
  EXPECT_EQ(pos(geam<double>(h, T, N, 3, 2, &one, A.data(), 1, &one, B.data(), 3, C.data(), 3)), 7);  // lda < n
  EXPECT_EQ(pos(geam<double>(h, N, N, 2, 2, &one, A.data(), 2, nullptr, B.data(), 2, C.data(), 2)), 8);
  EXPECT_EQ(pos(geam<double>(h, N, N, 2, 2, &one, A.data(), 2, &one, nullptr, 2, C.data(), 2)), 9);
  EXPECT_EQ(pos(geam<double>(h, N, N, 2, 2, &one, A.data(), 2, &one, B.data(), 1, C.data(), 2)), 10);
  EXPECT_EQ(pos(geam<double>(h, N, N, 2, 2, &one, A.data(), 2, &one, B.data(), 2, nullptr, 2)), 11);
  EXPECT_EQ(pos(geam<double>(h, N, N, std::int64_t{2}, 2, &one, A.data(), 2, &one, B.data(), 2, C.data(), 1)), 12);
  EXPECT_EQ(pos(geam<double>(h, N, N, std::int64_t{2}, 2, &one, A.data(), 2, &one, B.data(), 2, C.data(),
                                           std::numeric_limits<std::int64_t>::max())),
            12);  // extent overflows int64 bytes
  for (double v : C) ASSERT_EQ(v, 5.0);
  // m == 0 / n == 0: success, nothing read or written (null matrices allowed).
  EXPECT_EQ(geam<double>(h, N, N, 0, 2, &one, nullptr, 1, &one, nullptr, 1, nullptr, 1), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(geam<double>(h, N, N, 2, 0, &one, nullptr, 2, &one, nullptr, 2, nullptr, 2), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(trnblasSgeam(nullptr, N, N, 1, 1, nullptr, nullptr, 1, nullptr, nullptr, 1, nullptr, 1),
            TRNBLAS_STATUS_NOT_INITIALIZED);
}

// DGMM, both sides, x steps 1, -2 (backwards) and 0 (x[0] repeated), n = 130 (two programs).
// Real: one correctly rounded product per element, so C equals fl(a x) computed in T exactly.
// Complex: per component fl(fl(ar xr) -/+ fl(ai xi)) -> gamma_2 |a| |x| (Cauchy-Schwarz as above).
template <class T>
void dgmm_cases() {
  Handle h;
  const std::int64_t m = 45, n = 130, lda = 47, ldc = 50;
  const double g = gamma(2, unit_roundoff<T>());
  std::uint64_t seed = 100;
  for (auto mode : {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT})
    for (std::int64_t incx : {1, -2, 0}) {
      const std::int64_t len = mode == TRNBLAS_SIDE_LEFT ? m : n;
      const std::int64_t span = 1 + (len - 1) * (incx < 0 ? -incx : incx);
      const std::vector<T> A = random_values<T>(static_cast<std::size_t>(lda * n), ++seed);
      const std::vector<T> x = random_values<T>(static_cast<std::size_t>(span), ++seed);
      std::vector<T> C(static_cast<std::size_t>(ldc * n), T(-9));
      ASSERT_EQ(dgmm<T>(h, mode, m, n, A.data(), lda, x.data(), incx, C.data(), ldc),
                TRNBLAS_STATUS_SUCCESS);
      for (std::int64_t j = 0; j < n; ++j) {
        for (std::int64_t i = 0; i < m; ++i) {
          const std::int64_t e = mode == TRNBLAS_SIDE_LEFT ? i : j;
          const T xv = x[static_cast<std::size_t>(incx >= 0 ? e * incx : (len - 1 - e) * -incx)];
          const T a = A[static_cast<std::size_t>(i + j * lda)], c = C[static_cast<std::size_t>(i + j * ldc)];
          if constexpr (kComplex<T>)
            expect_within(wide(c), wide(a) * wide(xv), g * std::abs(wide(a)) * std::abs(wide(xv)), "dgmm", i, j);
          else
            ASSERT_EQ(c, a * xv) << i << "," << j;
        }
        for (std::int64_t i = m; i < ldc; ++i) ASSERT_EQ(wide(C[i + j * ldc]), wide(T(-9)));
      }
    }
  // In place (C == A, lda == ldc).
  std::vector<T> A = random_values<T>(static_cast<std::size_t>(lda * n), 77);
  const std::vector<T> A0 = A, x = random_values<T>(static_cast<std::size_t>(n), 78);
  std::vector<T> ref(A.size());
  ASSERT_EQ(dgmm<T>(h, TRNBLAS_SIDE_RIGHT, int(m), int(n), A0.data(), int(lda), x.data(), 1, ref.data(), int(lda)),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(dgmm<T>(h, TRNBLAS_SIDE_RIGHT, int(m), int(n), A.data(), int(lda), x.data(), 1, A.data(), int(lda)),
            TRNBLAS_STATUS_SUCCESS);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) ASSERT_EQ(wide(A[i + j * lda]), wide(ref[i + j * lda]));
}

TEST(TrnblasDgmm, SdgmmBothSidesEverySteps) { dgmm_cases<float>(); }
TEST(TrnblasDgmm, DdgmmBothSidesEverySteps) { dgmm_cases<double>(); }
TEST(TrnblasDgmm, CdgmmBothSidesEverySteps) { dgmm_cases<cf>(); }
TEST(TrnblasDgmm, ZdgmmBothSidesEverySteps) { dgmm_cases<cd>(); }

TEST(TrnblasDgmm, ArgumentPositions) {
  Handle h;
  std::vector<float> A(16, 1.0f), x(4, 2.0f), C(16, 3.0f);
  auto pos = [&](trnblasStatus_t st) {
    int p = -1;
    trnblasGetLastErrorParameter(h, &p);
    return st == TRNBLAS_STATUS_INVALID_VALUE ? p : -100 - int(st);
  };
  const auto L = TRNBLAS_SIDE_LEFT;
  EXPECT_EQ(pos(trnblasSdgmm(h, trnblasSideMode_t(5), 2, 2, A.data(), 2, x.data(), 1, C.data(), 2)), 1);
  EXPECT_EQ(pos(trnblasSdgmm(h, L, -1, 2, A.data(), 2, x.data(), 1, C.data(), 2)), 2);
  EXPECT_EQ(pos(trnblasSdgmm(h, L, 2, -1, A.data(), 2, x.data(), 1, C.data(), 2)), 3);
  EXPECT_EQ(pos(trnblasSdgmm(h, L, 2, 2, nullptr, 2, x.data(), 1, C.data(), 2)), 4);
  EXPECT_EQ(pos(trnblasSdgmm(h, L, 3, 2, A.data(), 2, x.data(), 1, C.data(), 3)), 5);
  EXPECT_EQ(pos(trnblasSdgmm(h, L, 2, 2, A.data(), 2, nullptr, 1, C.data(), 2)), 6);
  EXPECT_EQ(pos(trnblasSdgmm_64(h, L, 2, 2, A.data(), 2, x.data(), std::numeric_limits<std::int64_t>::min(), C.data(), 2)),
            7);
  EXPECT_EQ(pos(trnblasSdgmm(h, L, 2, 2, A.data(), 2, x.data(), 1, nullptr, 2)), 8);
  EXPECT_EQ(pos(trnblasSdgmm(h, L, 2, 2, A.data(), 4, x.data(), 1, A.data(), 2)), 8);  // in place, lda != ldc
  EXPECT_EQ(pos(trnblasSdgmm(h, L, 3, 2, A.data(), 3, x.data(), 1, C.data(), 2)), 9);
  for (float v : C) ASSERT_EQ(v, 3.0f);
  for (float v : A) ASSERT_EQ(v, 1.0f);
  EXPECT_EQ(trnblasSdgmm(h, L, 0, 2, nullptr, 1, nullptr, 1, nullptr, 1), TRNBLAS_STATUS_SUCCESS);
}

// The fp32 routines run on VectorE (instructions in the profile, DMA of A, B and C); the fp64 ones
// on the host side (no instructions), as documented.
TEST(TrnblasGeam, ProfileShowsTheEngines) {
  Handle h;
  const int m = 64, n = 200;
  const std::vector<float> A = random_values<float>(static_cast<std::size_t>(m * n), 1);
  std::vector<float> C(A.size());
  const float one = 1.0f;
  ASSERT_EQ(geam<float>(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, &one, A.data(), m, &one, A.data(), m, C.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  trnProfile_t p{};
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_VECTOR], 0);
  EXPECT_GE(p.dma_bytes, 3.0 * m * n * sizeof(float));  // A and B in, C out
  ASSERT_EQ(dgmm<float>(h, TRNBLAS_SIDE_LEFT, m, n, A.data(), m, A.data(), 1, C.data(), m), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_VECTOR], 0);
  const std::vector<double> Ad(A.begin(), A.end());
  std::vector<double> Cd(Ad.size());
  const double oned = 1.0;
  ASSERT_EQ(geam<double>(h, TRNBLAS_OP_N, TRNBLAS_OP_T, m, m, &oned, Ad.data(), m, &oned, Ad.data(), m, Cd.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(p.instructions, 0);
}

}  // namespace
