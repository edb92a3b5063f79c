// trnsolver symmetric-indefinite factorisation and the inverse helpers (C++ API), cuSOLVER-Dn shaped
// (LAPACK xSYTRF/xSYTRS/xSYTRI, xLAUUM, xPOTRI, xLASWP, xLARFT conventions; column-major, complex
// interleaved, ld in elements). One overload per element type T in {float, double,
// std::complex<float>, std::complex<double>} (S, D, C, Z), plain overloads exported by the version
// script. Throw trn::UsageError on invalid arguments. Algorithms, what runs where and the accuracy
// bounds: docs/trnsolver.md "Symmetric indefinite (sytrf) and inverses".
//
//   sytrf  blocked Bunch-Kaufman (LAPACK xSYTRF/xLASYF, alpha = (1 + sqrt 17) / 8): each panel of
//          kSytrfPanel columns by diagonal pivoting with 1x1 / 2x2 blocks and delayed updates as a
//          recorded fp64 host step; the trailing matrix A22 -= L21 (D L21^T) as one trnblas SYRKX on
//          TensorE (fp32 mode for S/C, Ozaki fp64 for D/Z). C/Z are complex SYMMETRIC (no conjugate),
//          pivots chosen by |re| + |im| as LAPACK's CABS1. uplo upper is factored as lower on the
//          index-reversed matrix (A = U D U^T <=> J A J = (J U J) (J D J) (J U J)^T, J the reversal).
//   sytrs  the product-form solve of LAPACK xSYTRS as a recorded fp64 host step (O(n^2 nrhs))
//   sytri  A^-1 = sytrs(I), its uplo triangle stored (fp64 host step)
//   lauum  U U^H / L^H L as one trnblas GEMM on TensorE of the zero-padded triangle
//   potri  trtri then lauum (S/D here, C/Z declared in complex_factor.hpp; all defined in lauum.cpp)
//   laswp  row interchanges as DMA copies through SBUF on one emulated NeuronCore
//   larft  T of a block reflector: the Gram matrix V^H V by a trnblas GEMM on TensorE, the k x k
//          triangular recurrence as a recorded host step (forward: T upper, backward: T lower)
#pragma once
#include <complex>
#include <cstdint>

#include "trn/solver/solver.hpp"

namespace trn::solver {

inline constexpr std::int64_t kSytrfPanel = 64;  // panel width of the blocked Bunch-Kaufman

// sytrf: A = P L D L^T P^T (lower) or P U D U^T P^T (upper) in LAPACK's storage: D's 1x1 / 2x2
// blocks and the multipliers in the uplo triangle, ipiv (n entries, 1-based) in LAPACK's convention
// (ipiv[k] > 0: 1x1 block, rows k and ipiv[k] interchanged; ipiv[k] = ipiv[k+1] < 0 (lower) or
// ipiv[k-1] = ipiv[k] < 0 (upper): 2x2 block, rows k+1 (k-1) and -ipiv[k] interchanged). Returns 0,
// or i > 0 when D(i, i) is exactly zero (or NaN): the factorization completed, D singular.
// sytrs: A X = B with sytrf's factors; B n x nrhs overwritten by X.
// sytri: A^-1 from sytrf's factors in the uplo triangle. Returns 0, or i > 0 when D(i, i) = 0 (A
// untouched then).
// lauum: A's uplo triangle := U U^H (upper) or L^H L (lower) of the triangular factor held there.
// potri (S, D): A^-1 from potrf's factor, in the uplo triangle. Returns 0, or i > 0 when the factor's
// i-th diagonal element is exactly zero (A untouched then).
// laswp: for k = k1 .. k2 (1-based; incx < 0: k2 down to k1), rows k and ipiv[k1 - 1 + (k - k1) incx]
// (incx > 0) of the n columns of A interchanged, LAPACK xLASWP's order.
// larft: T (k x k, ldt) of H = I - V T V^H, V n x k columnwise (ldv >= n, n >= k) with the unit
// diagonal and the zeros implicit: forward (H = H_1 ... H_k, V unit lower trapezoidal, T upper) or
// backward (H = H_k ... H_1, v_i(n - k + i) = 1 and zeros below, T lower).
#define TRNSOLVER_SYM_INDEF_DECLARE(T)                                                                            \
  int sytrf(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, int* ipiv,                      \
            CallReport* report = nullptr);                                                                        \
  void sytrs(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const T* A, std::int64_t lda,       \
             const int* ipiv, T* B, std::int64_t ldb, CallReport* report = nullptr);                              \
  int sytri(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, const int* ipiv,                \
            CallReport* report = nullptr);                                                                        \
  void lauum(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, CallReport* report = nullptr); \
  void laswp(const Settings& s, std::int64_t n, T* A, std::int64_t lda, std::int64_t k1, std::int64_t k2,         \
             const int* ipiv, std::int64_t incx, CallReport* report = nullptr);                                   \
  void larft(const Settings& s, bool forward, std::int64_t n, std::int64_t k, const T* V, std::int64_t ldv,       \
             const T* tau, T* Tm, std::int64_t ldt, CallReport* report = nullptr);
TRNSOLVER_SYM_INDEF_DECLARE(float)
TRNSOLVER_SYM_INDEF_DECLARE(double)
TRNSOLVER_SYM_INDEF_DECLARE(std::complex<float>)
TRNSOLVER_SYM_INDEF_DECLARE(std::complex<double>)
#undef TRNSOLVER_SYM_INDEF_DECLARE

// ipiv (n entries) has sytrf's pattern for uplo: every |ipiv[k]| in [1, n], the two entries of a 2x2
// block equal and negative (lower: k, k + 1 walking up from 0; upper: k - 1, k walking down from n - 1).
// sytrs / sytri require it (UsageError otherwise); the C API checks it as an argument.
bool sytrf_pivots_valid(Uplo uplo, std::int64_t n, const int* ipiv);

int potri(const Settings& s, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, CallReport* report = nullptr);
int potri(const Settings& s, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, CallReport* report = nullptr);

}  // namespace trn::solver
