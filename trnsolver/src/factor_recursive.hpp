// The recursive panels of the D, C and Z factorisations (dgetrf, cgetrf, zgetrf; dpotrf, cpotrf,
// zpotrf), one template over the value type T (double, std::complex<float>, std::complex<double>).
//
// Algorithm: LAPACK xGETRF2 / xPOTRF2's recursion (Toledo, SIAM J. Matrix Anal. Appl. 18(4), 1997;
// Gustavson, IBM J. Res. Dev. 41(6), 1997): a panel's columns split in halves, the left half
// factored, the right half updated by the left half's product, the right half factored. Leaves of
// at most kFp64LeafColumns = 32 columns are xGETF2 / xPOTF2 as recorded host steps (O(M 32^2) flops:
// one round trip). Interchanges are DMA permutation launches (interchanges.hpp).
// Engines: the updates on TensorE by trnblas: D as Ozaki DGEMM / DSYRK / DTRSM; C as CGEMM / CHERK /
// CTRSM (4M) in fp32 mode (or the handle's lower GemmMode for the refinement solvers); Z as Ozaki
// ZGEMM / ZHERK / ZTRSM (4M).
// Accuracy: LU backward error |PA - LU| <= gamma(n) |L||U| in the precision of the updates (Higham,
// Thm 9.3; fp32 for C: u = 2^-24, the leaves in fp32 as LAPACK's cgetf2); Cholesky
// |A - L L^H| <= gamma(n+1) |L||L^H| (Higham Thm 10.3). Complex products of the 4M GEMMs add a
// factor sqrt(2) ... 2 to gamma (Higham 3.6). docs/trnsolver.md "Complex Cholesky and LU".
// Pivots: the first row of the largest |a| (D: IDAMAX) or |re| + |im| (C, Z: ICAMAX / IZAMAX), the
// same choice as LAPACK's.
// Limits: the leaf's host step is recorded (never silent); leaves compute in T (as LAPACK's ?getf2).
#pragma once
#include <complex>
#include <cstdint>

#include "trn/blas/blas.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver::detail {

// The state one recursive factorisation threads through its steps.
struct RecursiveFactor {
  const Settings& s;
  blas::GemmMode mode = blas::GemmMode::fp32;  // C's CGEMM mode (D and Z: Ozaki, ignored)
  bool pivot = true;                           // getrf: partial pivoting (false: none)
  int& info;                                   // first failed pivot, 1-based (0: none yet)
  double& host;                                // host flops of the leaves
  TraceParts& trace;                           // every step's trace joins it
};

// U12 = L11^-1 A12 in place (unit lower w x w L11 at L, ld ldl; A12 w x cols at B, ld ldb): D and Z
// by recursive halving down to 16-row TRSM leaves with GEMM updates (the fp64 TRSMs' diagonal blocks
// are host substitutions: O(w 16 cols) host flops instead of O(w^2 cols)); C by one CTRSM.
template <class T>
void getrf_u12(const RecursiveFactor& f, std::int64_t w, std::int64_t cols, const T* L, std::int64_t ldl, T* B,
               std::int64_t ldb);

// LU with partial pivoting of the M x w panel at A(r0, c0) (M >= w, A's leading dimension lda),
// xGETRF2's recursion; lp[0 .. w): its pivots, 1-based relative to row r0; the interchanges are
// applied to the panel's own columns only. A zero pivot sets f.info (the first one) and is skipped.
template <class T>
void getrf_panel(const RecursiveFactor& f, T* A, std::int64_t lda, std::int64_t r0, std::int64_t c0, std::int64_t M,
                 std::int64_t w, int* lp);

// Blocked right-looking LU of the m x n matrix A (LAPACK xGETRF): panels of nb columns by
// getrf_panel, their interchanges on the columns left and right of them (DMA), U12 by getrf_u12 (C,
// Z: u12_single_trsm, one TRSM, the trnsolverMp panel's), A22 -= L21 U12 by one GEMM. ipiv: the
// 1-based pivots (nullptr: no pivoting).
template <class T>
void getrf_blocked(const RecursiveFactor& f, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, int* ipiv,
                   std::int64_t nb);

// Cholesky of the M x w panel at (c0, c0) of A's uplo triangle (M >= w; upper: worked on as the
// lower view L = U^H), xPOTRF2's recursion on the whole panel (the rows below the diagonal block
// ride along in every update). Returns false at the first non-positive or non-finite pivot (f.info
// its column, the column left as its Schur complement).
template <class T>
bool potrf_panel(const RecursiveFactor& f, T* A, std::int64_t lda, bool lower, std::int64_t c0, std::int64_t M,
                 std::int64_t w);

// Blocked Cholesky (LAPACK xPOTRF, panels of nb columns by potrf_panel, the trailing matrix by one
// SYRK / HERK per panel). Stops at the first failed pivot (f.info).
template <class T>
void potrf_blocked(const RecursiveFactor& f, bool lower, std::int64_t n, T* A, std::int64_t lda, std::int64_t nb);

}  // namespace trn::solver::detail
