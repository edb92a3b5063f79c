// trnsolver complex factorisations (C++ API): Cholesky and LU with their solves and the Cholesky
// inverse for std::complex<float> (C) and std::complex<double> (Z), cuSOLVER-Dn shaped (LAPACK
// xPOTRF/xPOTRS/xPOTRI/xGETRF/xGETRS conventions; column-major, interleaved re/im, ld in complex
// elements). Algorithm, what runs where and the accuracy bounds: docs/trnsolver.md "Complex
// Cholesky and LU".
//
//   potrf  blocked right-looking (LAPACK xPOTRF's order, nb = pmax): the nb x nb diagonal block by
//          unblocked Cholesky as a recorded host step in fp64 (rounded to the working precision),
//          the rows below it by trnblas ctrsm/ztrsm (L21 = A21 L11^-H) and the trailing matrix by
//          trnblas cherk/zherk (4M complex GEMMs on TensorE: fp32 mode for C, Ozaki fp64 for Z)
//   getrf  blocked right-looking with partial pivoting (LAPACK xGETRF): the m x nb panel (pivot
//          search by |re| + |im| as LAPACK's IxAMAX, interchanges of whole rows, elimination) as a
//          recorded fp64 host step, U12 by ctrsm/ztrsm, A22 -= L21 U12 by cgemm/zgemm (4M)
//   potrs, getrs  trnblas ctrsm/ztrsm on TensorE (the row interchanges of getrs as a host step that
//          moves rows)
//   trtri  T X = I by one trnblas ctrsm/ztrsm on the identity (the triangle read in place)
//   potri  trtri then lauum (one complex GEMM on TensorE), as the real potri (lauum.cpp)
#pragma once
#include <complex>
#include <cstdint>

#include "trn/solver/solver.hpp"

namespace trn::solver {

// The op of a complex solve (getrs): A X = B, A^T X = B, A^H X = B.
enum class SolveOp : std::uint8_t { N, T, C };

// One overload per element type T in {std::complex<float>, std::complex<double>} (plain overloads,
// exported by the shared library's version script). Throw trn::UsageError on invalid arguments.
//
// potrf: A = L L^H (lower) or U^H U (upper) of the n x n Hermitian positive definite matrix, in
// place on the uplo triangle (the other is neither read nor written; the diagonal's imaginary parts
// are not read and are written as zero). Returns 0, or j > 0 when the leading minor of order j is
// not positive definite (Re d_j <= 0 or not finite; the factorization stops there, d_j left in A(j, j)).
// potrs: A X = B with potrf's factor; B n x nrhs (ldb >= max(1, n)) overwritten by X.
// potri: A^-1 from potrf's factor, in place on the uplo triangle (trtri + lauum; defined in
// lauum.cpp beside the real potri). Returns 0, or i > 0 when the factor's i-th diagonal element is
// exactly zero (A untouched then).
// trtri: A = inv(A) in place for the n x n triangle `uplo` of A (the other triangle is neither read
// nor written); unit: the diagonal is taken as 1 and neither read nor written. Returns 0, or i > 0
// when A(i, i) is exactly zero (non-unit only; nothing written), LAPACK xTRTRI's INFO.
// getrf: P A = L U of the m x n matrix with partial pivoting (ipiv: min(m, n) 1-based row indices)
// or without (ipiv nullptr). Returns 0, or i > 0 when U(i, i) is exactly zero (completed, as LAPACK).
// getrs: op(A) X = B with getrf's factors and pivots (ipiv nullptr: no interchanges).
#define TRNSOLVER_COMPLEX_FACTOR_DECLARE(T)                                                                     \
  int potrf(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, CallReport* report = nullptr);  \
  void potrs(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const T* A, std::int64_t lda, T* B, \
             std::int64_t ldb, CallReport* report = nullptr);                                                   \
  int potri(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, CallReport* report = nullptr);  \
  int trtri(const Settings& s, Uplo uplo, bool unit, std::int64_t n, T* A, std::int64_t lda,                  \
            CallReport* report = nullptr);                                                                      \
  int getrf(const Settings& s, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, int* ipiv,              \
            CallReport* report = nullptr);                                                                      \
  void getrs(const Settings& s, SolveOp op, std::int64_t n, std::int64_t nrhs, const T* A, std::int64_t lda,   \
             const int* ipiv, T* B, std::int64_t ldb, CallReport* report = nullptr);
TRNSOLVER_COMPLEX_FACTOR_DECLARE(std::complex<float>)
TRNSOLVER_COMPLEX_FACTOR_DECLARE(std::complex<double>)
#undef TRNSOLVER_COMPLEX_FACTOR_DECLARE

// The plan of a complex factorisation (FactorPlan::routine "cpotrf", "zgetrf", ...): panel width pmax,
// host fp64 panels, updates in fp32 mode (C) or Ozaki fp64 (Z).
FactorPlan plan_complex_factor(const Settings& s, char prefix, char kind, std::int64_t m, std::int64_t n);

}  // namespace trn::solver
