// Validation cases of suite "blas" for trnblas's triangular and batched-LU routines, one per
// precision (S, D, C, Z) through the C API (docs/trnblas.md, "Level 3" and "Batched LU"):
//   * ?trsm (D, C, Z; STRSM's case is in suite_blas_level3.cpp) and ?trsmBatched (S, D, C, Z):
//     the largest componentwise residual |alpha B - op(A) X| / (|alpha B| + |op(A)| |X|) (right side:
//     X op(A)), in long double with |z| = |re| + |im|, within the bound of the routine's method;
//   * ?trmm (S, D, C, Z): max |C - alpha op(A) B| / (|alpha| |op(A)| |B|) against a long-double loop;
//   * ?getrfBatched: max |P A - L U| / (|L| |U|) (Higham, Accuracy and Stability of Numerical
//     Algorithms, 2nd ed., Thm 9.3: gamma_n); ?getrsBatched, ?getriBatched, ?matinvBatched: the
//     residual |P (B - A X)| / (|L| |U| |X|) with B = I for the inverses (Thm 9.4: gamma_{3n}); the
//     complex forms with the modulus and the constants of the tests (4 gamma_{n+10}, 4 gamma_{3n+30});
//   * ?geqrfBatched: ||A - Q R||_F / ||A||_F with Q formed from the returned reflectors (Higham Thm
//     19.4); ?gelsBatched: the normal-equations residual ||A^H (b - A x)|| / (||A|| (||A|| ||x|| +
//     ||b||)) (Higham Thm 20.3), both within gamma_{m+n} (complex 4 gamma_{m+n}).
// All magnitudes and references are independent long-double loops over the inputs.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "blas_reference.hpp"
#include "registry.hpp"
#include "suite_blas_capi.hpp"
#include "trnblas.h"

namespace trnsci::cli {
namespace {

using namespace blas_capi_suite;  // NOLINT: the typed C-API helpers of this suite family

template <class T>
trnblasStatus_t trsm(trnblasHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo, trnblasOperation_t op,
                     trnblasDiagType_t diag, int m, int n, const T* alpha, const T* A, int lda, T* B, int ldb) {
  TRNBLAS_TYPED_CALL(T, trsm, h, side, uplo, op, diag, m, n, api(alpha), api(A), lda, api(B), ldb);
}
template <class T>
trnblasStatus_t trmm(trnblasHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo, trnblasOperation_t op,
                     trnblasDiagType_t diag, int m, int n, const T* alpha, const T* A, int lda, const T* B, int ldb, T* C,
                     int ldc) {
  TRNBLAS_TYPED_CALL(T, trmm, h, side, uplo, op, diag, m, n, api(alpha), api(A), lda, api(B), ldb, api(C), ldc);
}
template <class T>
trnblasStatus_t trsm_batched(trnblasHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo, trnblasOperation_t op,
                             trnblasDiagType_t diag, int m, int n, const T* alpha, const T* const* A, int lda,
                             T* const* B, int ldb, int batch) {
  TRNBLAS_TYPED_CALL(T, trsmBatched, h, side, uplo, op, diag, m, n, api(alpha), api(A), lda, api(B), ldb, batch);
}
template <class T>
trnblasStatus_t getrf_batched(trnblasHandle_t h, int n, T* const* A, int lda, int* piv, int* info, int batch) {
  TRNBLAS_TYPED_CALL(T, getrfBatched, h, n, api(A), lda, piv, info, batch);
}
template <class T>
trnblasStatus_t getrs_batched(trnblasHandle_t h, int n, int nrhs, const T* const* A, int lda, const int* piv,
                              T* const* B, int ldb, int* info, int batch) {
  TRNBLAS_TYPED_CALL(T, getrsBatched, h, TRNBLAS_OP_N, n, nrhs, api(A), lda, piv, api(B), ldb, info, batch);
}
template <class T>
trnblasStatus_t getri_batched(trnblasHandle_t h, int n, const T* const* A, int lda, const int* piv, T* const* C,
                              int ldc, int* info, int batch) {
  TRNBLAS_TYPED_CALL(T, getriBatched, h, n, api(A), lda, piv, api(C), ldc, info, batch);
}
template <class T>
trnblasStatus_t matinv_batched(trnblasHandle_t h, int n, const T* const* A, int lda, T* const* Ainv, int ldi,
                               int* info, int batch) {
  TRNBLAS_TYPED_CALL(T, matinvBatched, h, n, api(A), lda, api(Ainv), ldi, info, batch);
}

template <class T>
trnblasStatus_t geqrf_batched(trnblasHandle_t h, int m, int n, T* const* A, int lda, T* const* tau, int* info, int batch) {
  TRNBLAS_TYPED_CALL(T, geqrfBatched, h, m, n, api(A), lda, api(tau), info, batch);
}
template <class T>
trnblasStatus_t gels_batched(trnblasHandle_t h, int m, int n, int nrhs, T* const* A, int lda, T* const* C, int ldc,
                             int* info, int* dev, int batch) {
  TRNBLAS_TYPED_CALL(T, gelsBatched, h, TRNBLAS_OP_N, m, n, nrhs, api(A), lda, api(C), ldc, info, dev, batch);
}

// A d x d triangle for TRSM/TRMM: the stored triangle well conditioned (diagonal 1 + |u|, complex
// (2 + u, u); off-diagonal U(-1,1) 2/d), the other triangle and a unit diagonal NaN (never read).
template <class T>
std::vector<T> triangle(int d, trnblasFillMode_t uplo, trnblasDiagType_t diag, std::uint64_t seed) {
  std::vector<T> A = random<T>(static_cast<std::size_t>(d) * d, seed);
  const real_of<T> nan = std::numeric_limits<real_of<T>>::quiet_NaN();
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i) {
      T& a = A[ix(i, j, d)];
      const bool stored = uplo == TRNBLAS_FILL_MODE_LOWER ? i >= j : i <= j;
      if (!stored || (i == j && diag == TRNBLAS_DIAG_UNIT)) {
        a = T(nan);
      } else if (i == j) {
        if constexpr (kComplex<T>) a = T(2 + a.real(), a.imag());
        else a = 1 + std::fabs(a);
      } else {
        a *= real_of<T>(2) / real_of<T>(d);
      }
    }
  return A;
}

// op(A) as a dense long-double matrix (zeros outside the triangle, ones on a unit diagonal).
template <class T>
std::vector<L> dense_op(const std::vector<T>& A, int d, trnblasFillMode_t uplo, trnblasOperation_t op,
                        trnblasDiagType_t diag) {
  std::vector<L> E(static_cast<std::size_t>(d) * d, L(0));
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i) {
      const int r = op == TRNBLAS_OP_N ? i : j, c = op == TRNBLAS_OP_N ? j : i;  // element (i, j) of op(A) is A(r, c)
      const bool stored = uplo == TRNBLAS_FILL_MODE_LOWER ? r >= c : r <= c;
      if (!stored) continue;
      L v = r == c && diag == TRNBLAS_DIAG_UNIT ? L(1) : wide(A[ix(r, c, d)]);
      if (op == TRNBLAS_OP_C) v = std::conj(v);
      E[ix(i, j, d)] = v;
    }
  return E;
}

// blockdiag(|T_b| |T_b^-1|) (left) or blockdiag(|T_b^-1| |T_b|) (right) over the 128 x 128
// diagonal blocks T_b of the dense triangle E (blocks at multiples of 128 in E's index space, as
// the fp32 TRSM inverts them); each T_b^-1 by Gauss-Jordan without pivoting in long double.
std::vector<long double> block_conditioning(const std::vector<L>& E, int d, bool left) {
  std::vector<long double> P(E.size(), 0.0L);
  for (int b0 = 0; b0 < d; b0 += 128) {
    const int w = std::min(128, d - b0);
    std::vector<L> a(static_cast<std::size_t>(w) * w), inv(a.size(), L(0));
    for (int j = 0; j < w; ++j) {
      for (int i = 0; i < w; ++i) a[ix(i, j, w)] = E[ix(b0 + i, b0 + j, d)];
      inv[ix(j, j, w)] = L(1);
    }
    const std::vector<L> T = a;
    for (int k = 0; k < w; ++k) {
      const L p = a[ix(k, k, w)];
      for (int j = 0; j < w; ++j) {
        a[ix(k, j, w)] /= p;
        inv[ix(k, j, w)] /= p;
      }
      for (int i = 0; i < w; ++i) {
        const L f = a[ix(i, k, w)];
        if (i == k || f == L(0)) continue;
        for (int j = 0; j < w; ++j) {
          a[ix(i, j, w)] -= f * a[ix(k, j, w)];
          inv[ix(i, j, w)] -= f * inv[ix(k, j, w)];
        }
      }
    }
    const std::vector<L>& x = left ? T : inv;
    const std::vector<L>& y = left ? inv : T;
    for (int j = 0; j < w; ++j)
      for (int l = 0; l < w; ++l)
        for (int i = 0; i < w; ++i) P[ix(b0 + i, b0 + j, d)] += abs1(x[ix(i, l, w)]) * abs1(y[ix(l, j, w)]);
  }
  return P;
}

struct TriangularSetup {
  trnblasSideMode_t side;
  trnblasFillMode_t uplo;
  trnblasOperation_t op;
  trnblasDiagType_t diag;
  int m, n;
};

// TRSM's bound (docs/trnblas.md "TRSM", "Complex TRSM"): S gamma_{d+3} (with the block term folded
// into the metric); D gamma_{d+64} (host substitution, Ozaki updates: 61 more roundings for the
// reconstruction); C: on a term's path <= 2d PSUM additions of the 4M GEMM, 4 epilogue roundings,
// 3 per in-block complex update and 10 for the Smith reciprocal and its product: gamma_{3d+14} in
// |re| + |im|; Z the same with the Ozaki allowance, gamma_{3d+64}.
template <class T> double trsm_bound(int d) {
  const double u = unit_roundoff<T>();
  if constexpr (std::is_same_v<T, float>) return gamma_u(d + 3.0, u);
  else if constexpr (std::is_same_v<T, double>) return gamma_u(d + 64.0, u);
  else if constexpr (std::is_same_v<T, std::complex<float>>) return gamma_u(3.0 * d + 14, u);
  else return gamma_u(3.0 * d + 64, u);
}

// The inverse-diagonal-block term's factor (docs/trnblas.md): S 2 gamma_{w+2} (W_b by substitution,
// then the GEMM W_b z), C gamma_{3w+10} + gamma_{2w+4} (complex substitution, 4M GEMM and its complex
// epilogue), w = 128 (the block size bounds every block's order).
template <class T> double inverse_block_bound() {
  const double u = unit_roundoff<T>();
  if constexpr (kComplex<T>) return gamma_u(3.0 * 128 + 10, u) + gamma_u(2.0 * 128 + 4, u);
  else return 2 * gamma_u(128 + 2.0, u);
}
template <class T> constexpr bool kFp32Class = std::is_same_v<real_of<T>, float>;

// Largest |alpha B - op(A) X| / W over the m x n elements, W = |alpha B| + |op(A)| |X| (right side:
// X op(A)) plus, for the fp32 inverse-diagonal-block form (S and C by default), the
// (g2 / g1) blockdiag(|T_b| |T_b^-1|) W term of docs/trnblas.md folded into W (g1 = trsm_bound, g2
// = inverse_block_bound), so the result is judged against trsm_bound alone.
template <class T>
double trsm_residual(const TriangularSetup& t, const std::vector<T>& A, const std::vector<T>& B, const T* X,
                     bool inverse_block_term) {
  const bool left = t.side == TRNBLAS_SIDE_LEFT;
  const int d = left ? t.m : t.n;
  const std::vector<L> E = dense_op(A, d, t.uplo, t.op, t.diag);
  const L alpha = wide(alpha_value<T>());
  std::vector<long double> W(static_cast<std::size_t>(t.m) * t.n);
  std::vector<long double> R(W.size());
  for (int j = 0; j < t.n; ++j)
    for (int i = 0; i < t.m; ++i) {
      L r = alpha * wide(B[ix(i, j, t.m)]);
      long double w = abs1(alpha) * abs1(wide(B[ix(i, j, t.m)]));
      for (int l = 0; l < d; ++l) {
        const L e = left ? E[ix(i, l, d)] : E[ix(l, j, d)];
        const L x = left ? wide(X[ix(l, j, t.m)]) : wide(X[ix(i, l, t.m)]);
        r -= e * x;
        w += abs1(e) * abs1(x);
      }
      R[ix(i, j, t.m)] = abs1(r);
      W[ix(i, j, t.m)] = w;
    }
  std::vector<long double> total = W;
  if (inverse_block_term) {
    const std::vector<long double> P = block_conditioning(E, d, left);
    const long double scale = inverse_block_bound<T>() / trsm_bound<T>(d);
    for (int j = 0; j < t.n; ++j)
      for (int i = 0; i < t.m; ++i) {
        long double s = 0;
        for (int l = 0; l < d; ++l) s += left ? P[ix(i, l, d)] * W[ix(l, j, t.m)] : W[ix(i, l, t.m)] * P[ix(l, j, d)];
        total[ix(i, j, t.m)] += scale * s;
      }
  }
  double worst = 0;
  for (std::size_t k = 0; k < R.size(); ++k) worst = std::max(worst, static_cast<double>(R[k] / total[k]));
  return worst;
}

template <class T> CaseResult trsm_case(const TriangularSetup& t) {
  const int d = t.side == TRNBLAS_SIDE_LEFT ? t.m : t.n;
  const std::vector<T> A = triangle<T>(d, t.uplo, t.diag, 41);
  const std::vector<T> B = random<T>(static_cast<std::size_t>(t.m) * t.n, 42);
  std::vector<T> X = B;
  const T alpha = alpha_value<T>();
  Handle h;
  const double t0 = now_seconds();
  if (trsm<T>(h.h, t.side, t.uplo, t.op, t.diag, t.m, t.n, &alpha, A.data(), d, X.data(), t.m) != TRNBLAS_STATUS_SUCCESS)
    throw std::runtime_error("trnblas ?trsm failed");
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.device = h.device();
  r.measured = trsm_residual(t, A, B, X.data(), kFp32Class<T>);
  r.bound = trsm_bound<T>(d);
  r.pass = r.measured <= r.bound;
  r.note = kComplex<T> ? "4M GEMM updates, complex substitution on the diagonal blocks" : "GEMM updates, substitution";
  return r;
}

template <class T> CaseResult trsm_batched_case(const TriangularSetup& t, int batch) {
  const int d = t.side == TRNBLAS_SIDE_LEFT ? t.m : t.n;
  std::vector<std::vector<T>> A, B, X;
  std::vector<const T*> a;
  std::vector<T*> x;
  for (int b = 0; b < batch; ++b) {
    A.push_back(triangle<T>(d, t.uplo, t.diag, 51 + 2 * static_cast<std::uint64_t>(b)));
    B.push_back(random<T>(static_cast<std::size_t>(t.m) * t.n, 52 + 2 * static_cast<std::uint64_t>(b)));
  }
  X = B;
  for (int b = 0; b < batch; ++b) {
    a.push_back(A[static_cast<std::size_t>(b)].data());
    x.push_back(X[static_cast<std::size_t>(b)].data());
  }
  const T alpha = alpha_value<T>();
  Handle h;
  const double t0 = now_seconds();
  if (trsm_batched<T>(h.h, t.side, t.uplo, t.op, t.diag, t.m, t.n, &alpha, a.data(), d, x.data(), t.m, batch) !=
      TRNBLAS_STATUS_SUCCESS)
    throw std::runtime_error("trnblas ?trsmBatched failed");
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.device = h.device();
  r.measured = 0;
  for (int b = 0; b < batch; ++b)
    r.measured = std::max(r.measured, trsm_residual(t, A[static_cast<std::size_t>(b)], B[static_cast<std::size_t>(b)],
                                                    X[static_cast<std::size_t>(b)].data(), kFp32Class<T>));
  r.bound = trsm_bound<T>(d);
  r.pass = r.measured <= r.bound;
  r.note = "one TRSM per entry, " + std::to_string(batch) + " entries";
  return r;
}

// TRMM's bound (docs/trnblas.md "TRMM", "Complex TRSM and TRMM"): S gamma_{d+1}, D gamma_{d+64},
// C gamma_{2d+6}, Z gamma_{2d+70} (u of the precision).
template <class T> double trmm_bound(int d) {
  const double u = unit_roundoff<T>();
  if constexpr (std::is_same_v<T, float>) return gamma_u(d + 1.0, u);
  else if constexpr (std::is_same_v<T, double>) return gamma_u(d + 64.0, u);
  else if constexpr (std::is_same_v<T, std::complex<float>>) return gamma_u(2.0 * d + 6, u);
  else return gamma_u(2.0 * d + 70, u);
}

template <class T> CaseResult trmm_case(const TriangularSetup& t) {
  const bool left = t.side == TRNBLAS_SIDE_LEFT;
  const int d = left ? t.m : t.n;
  const std::vector<T> A = triangle<T>(d, t.uplo, t.diag, 61);
  const std::vector<T> B = random<T>(static_cast<std::size_t>(t.m) * t.n, 62);
  std::vector<T> C(B.size(), T(std::numeric_limits<real_of<T>>::quiet_NaN()));  // fully overwritten
  const T alpha = alpha_value<T>();
  Handle h;
  const double t0 = now_seconds();
  if (trmm<T>(h.h, t.side, t.uplo, t.op, t.diag, t.m, t.n, &alpha, A.data(), d, B.data(), t.m, C.data(), t.m) !=
      TRNBLAS_STATUS_SUCCESS)
    throw std::runtime_error("trnblas ?trmm failed");
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.device = h.device();
  const std::vector<L> E = dense_op(A, d, t.uplo, t.op, t.diag);
  const L al = wide(alpha);
  double worst = 0;
  for (int j = 0; j < t.n; ++j)
    for (int i = 0; i < t.m; ++i) {
      L s = 0;
      long double w = 0;
      for (int l = 0; l < d; ++l) {
        const L e = left ? E[ix(i, l, d)] : E[ix(l, j, d)];
        const L b = left ? wide(B[ix(l, j, t.m)]) : wide(B[ix(i, l, t.m)]);
        s += e * b;
        w += abs1(e) * abs1(b);
      }
      const long double err = abs1(wide(C[ix(i, j, t.m)]) - al * s);
      worst = std::max(worst, static_cast<double>(err / (abs1(al) * w)));
    }
  r.measured = worst;
  r.bound = trmm_bound<T>(d);
  r.pass = r.measured <= r.bound;  // NaN (an unwritten C) fails
  r.note = kComplex<T> ? "4M GEMM per block over the triangle's range" : "GEMM per block over the triangle's range";
  return r;
}

// ---- batched LU ------------------------------------------------------------------------------

struct LuBatch {
  int n = 0, batch = 0;
  template <class T> std::vector<std::vector<T>> matrices(std::uint64_t seed) const {
    std::vector<std::vector<T>> A;
    for (int b = 0; b < batch; ++b) A.push_back(random<T>(static_cast<std::size_t>(n) * n, seed + static_cast<std::uint64_t>(b)));
    return A;
  }
};

template <class T> std::vector<T*> pointers(std::vector<std::vector<T>>& v) {
  std::vector<T*> p;
  for (auto& x : v) p.push_back(x.data());
  return p;
}
template <class T> std::vector<const T*> const_pointers(const std::vector<std::vector<T>>& v) {
  std::vector<const T*> p;
  for (const auto& x : v) p.push_back(x.data());
  return p;
}

// Rows of A (n x cols, ld n) exchanged as LAPACK's 1-based IPIV says, in order.
template <class T> std::vector<L> permuted(const std::vector<T>& A, int n, int cols, const int* piv) {
  std::vector<L> P(static_cast<std::size_t>(n) * cols);
  for (std::size_t k = 0; k < P.size(); ++k) P[k] = wide(A[k]);
  for (int i = 0; i < n; ++i)
    if (piv[i] - 1 != i)
      for (int j = 0; j < cols; ++j) std::swap(P[ix(i, j, n)], P[ix(piv[i] - 1, j, n)]);
  return P;
}

// |L| |U| of packed LU factors (L unit lower), modulus.
template <class T> std::vector<long double> lu_magnitude(const std::vector<T>& F, int n) {
  std::vector<long double> M(static_cast<std::size_t>(n) * n, 0.0L);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      for (int l = 0; l <= std::min(i, j); ++l) {
        const long double lv = l == i ? 1.0L : std::abs(wide(F[ix(i, l, n)]));
        M[ix(i, j, n)] += lv * std::abs(wide(F[ix(l, j, n)]));
      }
  return M;
}

// Thm 9.3: max |P A - L U| / (|L| |U|).
template <class T> double factor_error(const std::vector<T>& A, const std::vector<T>& F, const int* piv, int n) {
  const std::vector<L> PA = permuted(A, n, n, piv);
  const std::vector<long double> M = lu_magnitude(F, n);
  double worst = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      L s = 0;
      for (int l = 0; l <= std::min(i, j); ++l) s += (l == i ? L(1) : wide(F[ix(i, l, n)])) * wide(F[ix(l, j, n)]);
      worst = std::max(worst, static_cast<double>(std::abs(PA[ix(i, j, n)] - s) / M[ix(i, j, n)]));
    }
  return worst;
}

// Thm 9.4: max |P (B - A X)| / (|L| |U| |X|) over the nrhs columns (B = I when B is empty).
template <class T>
double solve_residual(const std::vector<T>& A, const std::vector<T>& F, const int* piv, int n, const std::vector<T>& B,
                      const std::vector<T>& X, int nrhs) {
  std::vector<T> Bs = B;
  if (Bs.empty()) {
    Bs.assign(static_cast<std::size_t>(n) * nrhs, T(0));
    for (int i = 0; i < n; ++i) Bs[ix(i, i, n)] = T(1);
  }
  const std::vector<L> PA = permuted(A, n, n, piv), PB = permuted(Bs, n, nrhs, piv);
  const std::vector<long double> M = lu_magnitude(F, n);
  double worst = 0;
  for (int j = 0; j < nrhs; ++j)
    for (int i = 0; i < n; ++i) {
      L r = PB[ix(i, j, n)];
      long double w = 0;
      for (int l = 0; l < n; ++l) {
        r -= PA[ix(i, l, n)] * wide(X[ix(l, j, n)]);
        w += M[ix(i, l, n)] * std::abs(wide(X[ix(l, j, n)]));
      }
      worst = std::max(worst, static_cast<double>(std::abs(r) / w));
    }
  return worst;
}

enum class LuOp { getrf, getrs, getri, matinv };
const char* lu_name(LuOp op) {
  switch (op) {
    case LuOp::getrf: return "getrfBatched";
    case LuOp::getrs: return "getrsBatched";
    case LuOp::getri: return "getriBatched";
    default: return "matinvBatched";
  }
}

// One LU-family call on `batch` random n x n matrices; the factors for the solve/inverse bounds come
// from the library's getrfBatched on a copy (matinv factors the same way: the getrf kernels).
template <class T> CaseResult lu_case(LuOp op, const LuBatch& lb) {
  const int n = lb.n, batch = lb.batch, nrhs = op == LuOp::getrs ? 3 : n;
  const std::vector<std::vector<T>> A = lb.matrices<T>(71);
  std::vector<std::vector<T>> F = A;
  std::vector<int> piv(static_cast<std::size_t>(n) * batch), info(static_cast<std::size_t>(batch));
  Handle h;
  CaseResult r;
  double t0 = now_seconds();
  {
    std::vector<T*> f = pointers(F);
    if (getrf_batched<T>(h.h, n, f.data(), n, piv.data(), info.data(), batch) != TRNBLAS_STATUS_SUCCESS)
      throw std::runtime_error("trnblas ?getrfBatched failed");
  }
  for (int v : info)
    if (v != 0) throw std::runtime_error("a random matrix of the LU case is singular");
  std::vector<std::vector<T>> B, X;
  if (op == LuOp::getrs) {
    for (int b = 0; b < batch; ++b) B.push_back(random<T>(static_cast<std::size_t>(n) * nrhs, 171 + static_cast<std::uint64_t>(b)));
    X = B;
    t0 = now_seconds();
    std::vector<const T*> f = const_pointers(F);
    std::vector<T*> x = pointers(X);
    int arg_info = 0;
    if (getrs_batched<T>(h.h, n, nrhs, f.data(), n, piv.data(), x.data(), n, &arg_info, batch) != TRNBLAS_STATUS_SUCCESS)
      throw std::runtime_error("trnblas ?getrsBatched failed");
  } else if (op != LuOp::getrf) {
    X.assign(static_cast<std::size_t>(batch), std::vector<T>(static_cast<std::size_t>(n) * n));
    std::vector<T*> x = pointers(X);
    t0 = now_seconds();
    const trnblasStatus_t st = op == LuOp::getri
        ? getri_batched<T>(h.h, n, const_pointers(F).data(), n, piv.data(), x.data(), n, info.data(), batch)
        : matinv_batched<T>(h.h, n, const_pointers(A).data(), n, x.data(), n, info.data(), batch);
    if (st != TRNBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string("trnblas ?") + lu_name(op) + " failed");
  }
  r.host_seconds = seconds_since(t0);
  r.device = h.device();
  const double u = unit_roundoff<T>();
  r.measured = 0;
  for (int b = 0; b < batch; ++b) {
    const std::size_t k = static_cast<std::size_t>(b);
    const int* p = piv.data() + k * static_cast<std::size_t>(n);
    r.measured = std::max(r.measured, op == LuOp::getrf ? factor_error(A[k], F[k], p, n)
                                                        : solve_residual(A[k], F[k], p, n, op == LuOp::getrs ? B[k] : std::vector<T>{},
                                                                         X[k], nrhs));
  }
  if (op == LuOp::getrf) r.bound = kComplex<T> ? 4 * gamma_u(n + 10.0, u) : gamma_u(n, u);
  else r.bound = kComplex<T> ? 4 * gamma_u(3.0 * n + 30, u) : gamma_u(3.0 * n, u);
  r.pass = r.measured <= r.bound;
  r.note = std::string(std::is_same_v<real_of<T>, float> ? "the batch on the SBUF partitions (VectorE, GpSimd)"
                                                         : "fp64 on the host side, the same operation order") +
           (op == LuOp::matinv ? "; |L||U| of getrfBatched's factors" : "");
  return r;
}

// ||A - Q R||_F / ||A||_F (geqrf: Q from the reflectors of F, long double) for one m x n matrix.
template <class T> double qr_error(const std::vector<T>& A, const std::vector<T>& F, const std::vector<T>& tau, int m, int n) {
  std::vector<L> x(static_cast<std::size_t>(m) * n, L(0));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= std::min(j, m - 1); ++i) x[ix(i, j, m)] = wide(F[ix(i, j, m)]);
  for (int k = std::min(m, n) - 1; k >= 0; --k)
    for (int j = 0; j < n; ++j) {
      const auto v = [&](int i) { return i == k ? L(1) : wide(F[ix(i, k, m)]); };
      L y = 0;
      for (int i = k; i < m; ++i) y += std::conj(v(i)) * x[ix(i, j, m)];
      for (int i = k; i < m; ++i) x[ix(i, j, m)] -= wide(tau[static_cast<std::size_t>(k)]) * v(i) * y;
    }
  long double num = 0, den = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      num += std::norm(wide(A[ix(i, j, m)]) - x[ix(i, j, m)]);
      den += std::norm(wide(A[ix(i, j, m)]));
    }
  return static_cast<double>(std::sqrt(num / den));
}

// ||A^H (b - A x)|| / (||A|| (||A|| ||x|| + ||b||)) over the nrhs columns (Frobenius norms).
template <class T> double ls_residual(const std::vector<T>& A, const std::vector<T>& B, const std::vector<T>& X, int m, int n,
                                      int nrhs) {
  long double na = 0, worst = 0;
  for (const T& a : A) na += std::norm(wide(a));
  na = std::sqrt(na);
  for (int r = 0; r < nrhs; ++r) {
    std::vector<L> res(static_cast<std::size_t>(m));
    long double nb = 0, nx = 0, ng = 0;
    for (int i = 0; i < m; ++i) {
      res[static_cast<std::size_t>(i)] = wide(B[ix(i, r, m)]);
      nb += std::norm(res[static_cast<std::size_t>(i)]);
    }
    for (int j = 0; j < n; ++j) {
      nx += std::norm(wide(X[ix(j, r, m)]));
      for (int i = 0; i < m; ++i) res[static_cast<std::size_t>(i)] -= wide(A[ix(i, j, m)]) * wide(X[ix(j, r, m)]);
    }
    for (int j = 0; j < n; ++j) {
      L g = 0;
      for (int i = 0; i < m; ++i) g += std::conj(wide(A[ix(i, j, m)])) * res[static_cast<std::size_t>(i)];
      ng += std::norm(g);
    }
    worst = std::max(worst, std::sqrt(ng) / (na * (na * std::sqrt(nx) + std::sqrt(nb))));
  }
  return static_cast<double>(worst);
}

// geqrfBatched (gels = false) or gelsBatched (3 right-hand sides) on `batch` random m x n matrices.
template <class T> CaseResult qr_case(bool gels, int m, int n, int batch) {
  const int nrhs = 3;
  std::vector<std::vector<T>> A, F, tau, B, X;
  for (int b = 0; b < batch; ++b) {
    A.push_back(random<T>(static_cast<std::size_t>(m) * n, 271 + static_cast<std::uint64_t>(b)));
    B.push_back(random<T>(static_cast<std::size_t>(m) * nrhs, 371 + static_cast<std::uint64_t>(b)));
    tau.emplace_back(static_cast<std::size_t>(std::min(m, n)));
  }
  F = A;
  X = B;
  std::vector<int> dev(static_cast<std::size_t>(batch));
  Handle h;
  CaseResult r;
  std::vector<T*> f = pointers(F), x = pointers(X), t = pointers(tau);
  int info = 0;
  const double t0 = now_seconds();
  const trnblasStatus_t st = gels ? gels_batched<T>(h.h, m, n, nrhs, f.data(), m, x.data(), m, &info, dev.data(), batch)
                                  : geqrf_batched<T>(h.h, m, n, f.data(), m, t.data(), &info, batch);
  r.host_seconds = seconds_since(t0);
  if (st != TRNBLAS_STATUS_SUCCESS || info != 0) throw std::runtime_error(gels ? "trnblas ?gelsBatched failed" : "trnblas ?geqrfBatched failed");
  r.device = h.device();
  r.measured = 0;
  for (int b = 0; b < batch; ++b) {
    const std::size_t k = static_cast<std::size_t>(b);
    r.measured = std::max(r.measured, gels ? ls_residual(A[k], B[k], X[k], m, n, nrhs) : qr_error(A[k], F[k], tau[k], m, n));
  }
  r.bound = (kComplex<T> ? 4 : 1) * gamma_u(m + n, unit_roundoff<T>());
  r.pass = r.measured <= r.bound;
  r.note = std::is_same_v<real_of<T>, float> ? "the batch on the SBUF partitions (ScalarE norms, VectorE reflectors)"
                                             : "fp64 on the host side, the same operation order";
  return r;
}

template <class T> void add_typed(Registry& reg) {
  auto add = [&](ValidationCase c) { add_blas_case(reg, std::move(c)); };
  const std::string p = prefix<T>();
  const std::string precision = std::is_same_v<real_of<T>, float> ? "fp32" : "fp64";
  const trnblasOperation_t op_t = kComplex<T> ? TRNBLAS_OP_C : TRNBLAS_OP_T;
  const std::string op_letter = kComplex<T> ? "C" : "T";
  if constexpr (!std::is_same_v<T, float>) {  // STRSM: suite_blas_level3.cpp
    const TriangularSetup t{TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, op_t, TRNBLAS_DIAG_NON_UNIT, 140, 40};
    add({.op = p + "trsm", .mode = precision + " LU" + op_letter + "N", .shape = "140x40", .metric = "max_comp_residual",
         .bound_text = "D g_{d+64}, C g_{3d+14} + block term, Z g_{3d+64} (|re|+|im|)",
         .size = 140, .run = [t] { return trsm_case<T>(t); }});
  }
  {
    const TriangularSetup t{TRNBLAS_SIDE_RIGHT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_UNIT, 40, 140};
    add({.op = p + "trmm", .mode = precision + " RLNU", .shape = "40x140", .metric = "max_comp_rel",
         .bound_text = "S g_{d+1}, D g_{d+64}, C g_{2d+6}, Z g_{2d+70} of |alpha||B||op(A)|",
         .size = 140, .run = [t] { return trmm_case<T>(t); }});
  }
  {
    const TriangularSetup t{TRNBLAS_SIDE_RIGHT, TRNBLAS_FILL_MODE_UPPER, op_t, TRNBLAS_DIAG_UNIT, 40, 48};
    add({.op = p + "trsmBatched", .mode = precision + " RU" + op_letter + "U", .shape = "40x48, batch 3",
         .metric = "max_comp_residual",
         .bound_text = "as ?trsm (S/C: + the blockdiag(|T||T^-1|) term, folded into the magnitude)",
         .run = [t] { return trsm_batched_case<T>(t, 3); }});
  }
  const LuBatch lb{24, 130};  // two programs of partitions for S and C
  for (LuOp op : {LuOp::getrf, LuOp::getrs, LuOp::getri, LuOp::matinv})
    add({.op = p + lu_name(op), .mode = precision + " partial pivoting", .shape = "24x24, batch 130",
         .metric = op == LuOp::getrf ? "max_comp_rel" : "max_comp_residual",
         .bound_text = op == LuOp::getrf ? "gamma_n (Higham Thm 9.3; complex 4 gamma_{n+10})"
                                         : "gamma_{3n} (Higham Thm 9.4; complex 4 gamma_{3n+30})",
         .size = 24, .run = [op, lb] { return lu_case<T>(op, lb); }});
  for (bool gels : {false, true})
    add({.op = p + (gels ? "gelsBatched" : "geqrfBatched"), .mode = precision + " Householder", .shape = "20x12, batch 130",
         .metric = gels ? "ls_residual" : "qr_rel_error",
         .bound_text = gels ? "gamma_{m+n} of ||A|| (||A|| ||x|| + ||b||) (Higham Thm 20.3; complex 4x)"
                            : "gamma_{m+n} ||A||_F (Higham Thm 19.4; complex 4x)",
         .size = 20, .run = [gels] { return qr_case<T>(gels, 20, 12, 130); }});
}

void add_blas_tri_lu(Registry& reg) {
  for_each_precision([&](auto tag) { add_typed<decltype(tag)>(reg); });
}

const Registrar kRegistrar(add_blas_tri_lu);

}  // namespace
}  // namespace trnsci::cli
