// Internals shared by syevd's steps (sytrd.cpp, stedc.cpp, syevd.cpp) and the triangular solves of
// sygvj.cpp / trtri.cpp (not installed).
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "syevj_internal.hpp"
#include "trn/core/host_step.hpp"
#include "trn/solver/eig.hpp"

namespace trn::solver::detail {

// What the steps of one syevd-family call share: the trnblas settings of its TensorE steps (fp32
// mode for S, Ozaki fp64 for D), the traces of every step in order, the host fp64 flops.
struct EigSteps {
  blas::Settings bs;
  TraceParts trace;
  double host_flops = 0;
  // sytrd's y = A22 v as a host fp64 step instead of trnblas symv (SyevdPlan::host_symv: D, where an
  // Ozaki GEMV's host scaling and reconstruction cost far more than the product itself).
  bool host_symv = false;
};

// C = alpha op(A) op(B) + beta C by trnblas on TensorE (float: fp32 mode; double: Ozaki DGEMM),
// its trace appended to st.
void eig_gemm(EigSteps& st, bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
              const float* A, std::int64_t lda, const float* B, std::int64_t ldb, double beta, float* C,
              std::int64_t ldc);
void eig_gemm(EigSteps& st, bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
              const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
              std::int64_t ldc);

// The symmetric tridiagonal eigenproblem (d: n diagonal, e: n - 1 off-diagonal, in fp64, both
// destroyed): w receives the eigenvalues ascending; with Z (n x n, leading dimension n, written
// whole) the eigenvectors, by divide and conquer (stedc.cpp); without, by implicit QL alone.
// Returns 0 or the number of off-diagonal elements of a QL leaf that did not converge.
int stedc(EigSteps& st, std::int64_t n, std::vector<double>& d, std::vector<double>& e, double* w, float* Z);
int stedc(EigSteps& st, std::int64_t n, std::vector<double>& d, std::vector<double>& e, double* w, double* Z);

// Lower tridiagonalization of the n x n matrix a (ld lda, lower triangle read; the strictly upper
// part is not read or written): reflectors below the subdiagonal (A(j+1, j) holds 1 on return),
// d, e (fp64 copies) and tau. sytrd.cpp.
void sytrd_lower(EigSteps& st, std::int64_t n, float* a, std::int64_t lda, std::vector<double>& d,
                 std::vector<double>& e, float* tau);
void sytrd_lower(EigSteps& st, std::int64_t n, double* a, std::int64_t lda, std::vector<double>& d,
                 std::vector<double>& e, double* tau);

// T X = R in place for the n x n triangle T (element (i, j) at t[i * si + j * sj]; unit: its diagonal
// taken as 1, not read), R n x cols (ld n). fp32: the triangular-solve tile kernel (one launch per
// chunk of right-hand sides); fp64: substitution on the host CPU, one recorded host step named `step`
// (a string literal), its flops added to *flops. trtri.cpp; used by sygvj/sygvd and trtri.
void tri_solve(const Settings& s, const float* t, std::int64_t si, std::int64_t sj, bool lower, bool unit,
               std::int64_t n, std::int64_t cols, float* r, TraceParts& trace, double* flops, std::string_view step);
void tri_solve(const Settings& s, const double* t, std::int64_t si, std::int64_t sj, bool lower, bool unit,
               std::int64_t n, std::int64_t cols, double* r, TraceParts& trace, double* flops, std::string_view step);

}  // namespace trn::solver::detail
