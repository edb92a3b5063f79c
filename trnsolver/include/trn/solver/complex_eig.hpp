// trnsolver complex Hermitian eigensolvers beyond heevd and the complex Jacobi family (C++ API),
// cuSOLVER-Dn shaped (column-major; T = std::complex<float> with R = float for C, std::complex<double>
// with R = double for Z). Algorithms, what runs where and the accuracy bounds: docs/trnsolver.md
// "Complex Hermitian eigen and complex Jacobi".
//
//   heevdx  heevd's three stages (hetrd.cpp's tridiagonalization, stedc, unmqr) with syevdx's
//           selection (EIG_RANGE_ALL / V / I); only the selected eigenvectors are back-transformed
//   hegvd   the generalized problem (itype 1, 2, 3) by LAPACK xHEGVD's reduction: B = L L^H (complex
//   hegvdx  potrf), C = L^-1 A L^-H (two trnblas complex TRSMs) or L^H A L (two complex GEMMs),
//   hegvj   heevd / heevdx / heevj on C, X = L^-H Y (TRSM) or L Y (GEMM)
//   heevj   cyclic block Jacobi (two-sided, Hermitian): per pair of column blocks the 2b x 2b
//           subproblem by the scalar complex Jacobi of Forsythe & Henrici (1960) in fp64 on the host
//           (Demmel & Veselic's relative threshold), its unitary U applied to A's rows and columns and
//           to V as complex GEMMs on TensorE (trnblas cgemm 4M in fp32 mode / zgemm Ozaki)
//   gesvdj  one-sided block Jacobi (Hestenes; the block form of Becka, Oksa & Vajtersic 2002): per
//           pair of column blocks the Gram matrix G = X^H X (complex GEMM on TensorE), its
//           eigenvectors U by the same host Jacobi, X = X U and V = V U (complex GEMMs on TensorE)
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

#include "trn/solver/eig.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver {

// Column-block width of the block Jacobi drivers (a block pair is at most 2 kHeevjBlock wide).
inline constexpr std::int64_t kHeevjBlock = 32;

// heevdx: heevd restricted to the selection, syevdx's conventions (eig.hpp): *meig eigenvalues first
// in W (ascending), the others after them; with vectors the selected eigenvectors in A's first *meig
// columns. info as heevd (n when A holds Inf/NaN: W NaN, *meig = 0, A untouched).
// hegvd / hegvdx: itype 1 A x = l B x, 2 A B x = l x, 3 B A x = l x with B Hermitian positive
// definite; sygvd's conventions (eig.hpp): B's uplo triangle receives the Cholesky factor, A's first
// n / *meig columns the eigenvectors X (X^H B X = I for itype 1, 2; X^H B^-1 X = I for 3). info: n + i
// when B's leading minor of order i is not positive definite (nothing written); else heevd's info.
// heevj: A = V diag(W) V^H by block Jacobi with p's tolerance (0: the type's epsilon) and max_sweeps;
// W ascending (sort_eig, always for the single call); vectors: A receives V. SyevjResult::info 0, or
// n + 1 when not converged within max_sweeps or A holds Inf/NaN (W NaN then); residual = off(A)_F at
// exit. heevj_batched: batch matrices A + lda n k, W + n k (p.sort_eig honoured).
// hegvj: hegvd's reduction around heevj (SyevjResult of the heevj step; n + i for B as hegvd).
// gesvdj: A = U diag(S) V^H of the m x n A (any shape; the one-sided run on A^H when m < n), S
// descending, econ: U m x min(m, n), V n x min(m, n); full: m x m and n x n (completed to unitary
// bases by Gram-Schmidt on the host). A is left unchanged. GesvdjResult::info 0, or min(m, n) + 1 when
// not converged or A holds Inf/NaN; residual = the largest pair cosine |x_p^H x_q| / (|x_p| |x_q|)
// of the last sweep. gesvdj_batched: cuSOLVER's gesvdjBatched layout (full U and V, p.sort_svd).
// All throw trn::UsageError on bad arguments.
#define TRNSOLVER_COMPLEX_EIG_DECLARE(T, R)                                                                        \
  int heevdx(const Settings& s, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, T* A,              \
             std::int64_t lda, std::int64_t* meig, R* W, CallReport* report = nullptr);                            \
  int hegvd(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, T* B,   \
            std::int64_t ldb, R* W, CallReport* report = nullptr);                                                 \
  int hegvdx(const Settings& s, int itype, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, T* A,    \
             std::int64_t lda, T* B, std::int64_t ldb, std::int64_t* meig, R* W, CallReport* report = nullptr);    \
  SyevjResult heevj(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, R* W,      \
                    const SyevjParams& p, CallReport* report = nullptr);                                           \
  std::vector<SyevjResult> heevj_batched(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, T* A,          \
                                         std::int64_t lda, R* W, const SyevjParams& p, std::int64_t batch,         \
                                         CallReport* report = nullptr);                                            \
  SyevjResult hegvj(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, \
                    T* B, std::int64_t ldb, R* W, const SyevjParams& p, CallReport* report = nullptr);             \
  GesvdjResult gesvdj(const Settings& s, bool vectors, bool econ, std::int64_t m, std::int64_t n, T* A,            \
                      std::int64_t lda, R* S, T* U, std::int64_t ldu, T* V, std::int64_t ldv,                      \
                      const GesvdjParams& p, CallReport* report = nullptr);                                        \
  std::vector<GesvdjResult> gesvdj_batched(const Settings& s, bool vectors, std::int64_t m, std::int64_t n, T* A,  \
                                           std::int64_t lda, R* S, T* U, std::int64_t ldu, T* V, std::int64_t ldv, \
                                           const GesvdjParams& p, std::int64_t batch, CallReport* report = nullptr);
TRNSOLVER_COMPLEX_EIG_DECLARE(std::complex<float>, float)
TRNSOLVER_COMPLEX_EIG_DECLARE(std::complex<double>, double)
#undef TRNSOLVER_COMPLEX_EIG_DECLARE

}  // namespace trn::solver
