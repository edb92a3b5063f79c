// Complex Cholesky and LU (C, Z): cpotrf/zpotrf, cpotrs/zpotrs, ctrtri/ztrtri, cgetrf/zgetrf,
// cgetrs/zgetrs. Blocked right-looking drivers in LAPACK's order (Anderson et al., LAPACK Users'
// Guide 3rd ed., xPOTRF/xGETRF; Golub & Van Loan, Matrix Computations 4th ed., 4.2.9 and 3.4.8):
// the panels by xGETRF2 / xPOTRF2's recursion (factor_recursive.cpp, shared with dgetrf / dpotrf:
// CGEMM / CHERK updates in fp32, ZGEMM / ZHERK Ozaki; interchanges by DMA; leaves of <= 32 columns
// as recorded host steps in the element's precision), every O(n^3) product and every triangular
// solve (the triangular inverse ctrtri/ztrtri too; cpotri/zpotri are trtri + lauum in lauum.cpp) by
// trnblas's complex Level 3 (ctrsm/cherk/cgemm in fp32 mode, 4M; ztrsm/zherk/zgemm through
// Ozaki fp64) on TensorE. The triangular solves use trnblas's substitution TRSM (componentwise
// backward stable, Settings::trsm_substitution). docs/trnsolver.md "Complex Cholesky and LU".
#include "trn/solver/complex_factor.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <type_traits>
#include <vector>

#include "factor_recursive.hpp"
#include "interchanges.hpp"
#include "mode_factor.hpp"
#include "syevj_internal.hpp"
#include "trn/blas/level3.hpp"
#include "trn/blas/narrow_trsm.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scratch.hpp"

namespace trn::solver {
namespace {

template <class R>
using Cx = std::complex<R>;
template <class R>
constexpr char kPrefix = std::is_same_v<R, float> ? 'c' : 'z';

// The trnblas settings of a driver's TRSM/HERK/GEMM steps: C in the handle's numerics (fp32 mode),
// Z as dpotrf's Ozaki updates; substitution TRSM (componentwise backward stable).
template <class R>
blas::Settings blas_settings(const Settings& s) {
  blas::Settings bs = std::is_same_v<R, float> ? detail::step_blas_settings(s) : detail::fp64_update_blas_settings(s);
  bs.trsm_substitution = true;
  return bs;
}

// potrs / getrs: with at most kTrsmNarrowMaxRhs right-hand sides (C only) Ctrsm's narrow TensorE
// kernel instead of substitution: the chain of 22 n dependent VectorE instructions becomes matmuls;
// componentwise to first order plus a second-order term in cond(T_b) (docs/trnblas.md "TRSM with few
// right-hand sides"). The factorizations keep substitution.
template <class R>
blas::Settings solve_blas_settings(const Settings& s, std::int64_t nrhs) {
  blas::Settings bs = blas_settings<R>(s);
  if (std::is_same_v<R, float> && nrhs <= blas::kTrsmNarrowMaxRhs) bs.trsm_substitution = false;
  return bs;
}

template <class R>
void trsm(const blas::Settings& bs, blas::Side side, Uplo uplo, blas::COp op, blas::Diag diag, std::int64_t m,
          std::int64_t n, const Cx<R>* A, std::int64_t lda, Cx<R>* B, std::int64_t ldb, TraceParts& trace) {
  if (m <= 0 || n <= 0) return;
  blas::CallReport r;
  if constexpr (std::is_same_v<R, float>)
    blas::ctrsm(bs, blas::GemmMode::fp32, side, uplo, op, diag, m, n, Cx<R>(1), A, lda, B, ldb, &r);
  else
    blas::ztrsm(bs, side, uplo, op, diag, m, n, Cx<R>(1), A, lda, B, ldb, &r);
  trace.add(std::move(r.trace));
}

void check_square(const char* fn, std::int64_t n, std::int64_t lda, const void* A) {
  if (n < 0 || lda < std::max<std::int64_t>(1, n) || (n > 0 && A == nullptr))
    throw UsageError("trnsolver", "argument", std::string(fn) + ": n >= 0, lda >= max(1, n), A not NULL");
}
void check_solve(const char* fn, std::int64_t n, std::int64_t nrhs, std::int64_t lda, const void* A,
                 std::int64_t ldb, const void* B) {
  if (n < 0 || nrhs < 0 || lda < std::max<std::int64_t>(1, n) || ldb < std::max<std::int64_t>(1, n) ||
      (n > 0 && nrhs > 0 && (A == nullptr || B == nullptr)))
    throw UsageError("trnsolver", "argument", std::string(fn) + ": n, nrhs >= 0, lda, ldb >= max(1, n), A and B not NULL");
}

template <class R>
int potrf_impl(const Settings& s, Uplo uplo, std::int64_t n, Cx<R>* A, std::int64_t lda, CallReport* report) {
  check_square(kPrefix<R> == 'c' ? "cpotrf" : "zpotrf", n, lda, A);
  if (report != nullptr) *report = CallReport{};
  const bool lower = uplo == Uplo::lower;
  const FactorPlan plan = plan_complex_factor(s, kPrefix<R>, 'p', n, n);
  TraceParts trace;
  double host = 0;
  int info = 0;
  detail::potrf_blocked(detail::RecursiveFactor{s, blas::GemmMode::fp32, false, info, host, trace}, lower, n, A, lda,
                        plan.nb);
  detail::finish_factor_report(report, std::move(trace), s.target, plan, host);
  return info;
}

// The two triangular solves of potrs on B (n x nrhs): L L^H or U^H U.
template <class R>
void potrs_solves(const blas::Settings& bs, Uplo uplo, std::int64_t n, std::int64_t nrhs, const Cx<R>* A,
                  std::int64_t lda, Cx<R>* B, std::int64_t ldb, TraceParts& trace) {
  const bool lower = uplo == Uplo::lower;
  const auto first = lower ? blas::COp::N : blas::COp::C, second = lower ? blas::COp::C : blas::COp::N;
  trsm<R>(bs, blas::Side::left, uplo, first, blas::Diag::non_unit, n, nrhs, A, lda, B, ldb, trace);
  trsm<R>(bs, blas::Side::left, uplo, second, blas::Diag::non_unit, n, nrhs, A, lda, B, ldb, trace);
}

template <class R>
void potrs_impl(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const Cx<R>* A, std::int64_t lda,
                Cx<R>* B, std::int64_t ldb, CallReport* report) {
  check_solve(kPrefix<R> == 'c' ? "cpotrs" : "zpotrs", n, nrhs, lda, A, ldb, B);
  if (report != nullptr) *report = CallReport{};
  TraceParts trace;
  potrs_solves<R>(solve_blas_settings<R>(s, nrhs), uplo, n, nrhs, A, lda, B, ldb, trace);
  detail::finish_fp64_report(report, std::move(trace), s.target, 0);
}

// trtri: C with n <= kTrtriNewtonMaxOrder by trnblas's Newton-Schulz block inverse in place on A (one
// launch, block columns on their own block rows; A's other triangle and a unit diagonal keep their
// bits). Otherwise X = I, then T X = I by one substitution TRSM on TensorE reading A's uplo triangle in
// place (unit: its diagonal not read; the solve does not exploit X's triangular structure: n^3
// complex multiply-adds where xTRTRI needs n^3 / 3), then X's triangle into A by a host step.
template <class R>
int trtri_impl(const Settings& s, Uplo uplo, bool unit, std::int64_t n, Cx<R>* A, std::int64_t lda,
               CallReport* report) {
  check_square(kPrefix<R> == 'c' ? "ctrtri" : "ztrtri", n, lda, A);
  if (report != nullptr) *report = CallReport{};
  for (std::int64_t j = 0; !unit && j < n; ++j)  // an exactly zero diagonal: singular, nothing written
    if (A[j + j * lda] == Cx<R>(0)) return static_cast<int>(j + 1);
  const bool lower = uplo == Uplo::lower;
  // C, n <= kTrtriNewtonMaxOrder: trnblas's Newton-Schulz block inverse in place on A, one launch
  // (docs/trnblas.md "Triangular inverse by Newton-Schulz blocks"); a non-finite result leaves A as
  // it was and substitutes below. (No distributed caller: the choice by n is the same on every grid.)
  TraceParts trace;  // (a failed attempt's launch stays in it: the device spent that time)
  if constexpr (std::is_same_v<R, float>)
    if (n >= 1 && n <= blas::kTrtriNewtonMaxOrder &&
        blas::trtri_newton(s.launch_config(), lower, unit, n, A, lda, A, lda, trace)) {
      detail::finish_fp64_report(report, std::move(trace), s.target, 0);
      return 0;
    }
  ScratchVector<Cx<R>> X(static_cast<std::size_t>(n * n));
  for (std::int64_t j = 0; j < n; ++j) X[j + j * n] = Cx<R>(1);
  trsm<R>(blas_settings<R>(s), blas::Side::left, uplo, blas::COp::N, unit ? blas::Diag::unit : blas::Diag::non_unit,
          n, n, A, lda, X.data(), n, trace);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = lower ? j : 0; i < (lower ? n : j + 1); ++i)
      if (!(unit && i == j)) A[i + j * lda] = X[i + j * n];
  if (n > 0)
    record_host_step(trace, HostStep{.name = kPrefix<R> == 'c' ? "trnsolver.ctrtri.store" : "trnsolver.ztrtri.store",
                                     .reads = {HostSpan(X.data(), n * n)},
                                     .writes = {HostSpan::matrix(A, n, n, lda)}});
  detail::finish_fp64_report(report, std::move(trace), s.target, 0);
  return 0;
}

template <class R>
int getrf_impl(const Settings& s, std::int64_t m, std::int64_t n, Cx<R>* A, std::int64_t lda, int* ipiv,
               CallReport* report, blas::GemmMode mode = blas::GemmMode::fp32) {
  if (m < 0 || n < 0 || lda < std::max<std::int64_t>(1, m) || (m > 0 && n > 0 && A == nullptr))
    throw UsageError("trnsolver", "argument", std::string(1, kPrefix<R>) + "getrf: m, n >= 0, lda >= max(1, m), A not NULL");
  if (report != nullptr) *report = CallReport{};
  FactorPlan plan = plan_complex_factor(s, kPrefix<R>, 'g', m, n);
  if constexpr (std::is_same_v<R, float>) plan.update_mode = mode;  // the refinement solvers' lower modes
  TraceParts trace;
  double host = 0;
  int info = 0;
  detail::getrf_blocked(detail::RecursiveFactor{s, mode, ipiv != nullptr, info, host, trace}, m, n, A, lda, ipiv,
                        plan.nb);
  detail::finish_factor_report(report, std::move(trace), s.target, plan, host);
  return info;
}

template <class R>
void getrs_impl(const Settings& s, SolveOp op, std::int64_t n, std::int64_t nrhs, const Cx<R>* A, std::int64_t lda,
                const int* ipiv, Cx<R>* B, std::int64_t ldb, CallReport* report) {
  check_solve(kPrefix<R> == 'c' ? "cgetrs" : "zgetrs", n, nrhs, lda, A, ldb, B);
  for (std::int64_t k = 0; ipiv != nullptr && k < n; ++k)
    if (ipiv[k] < 1 || ipiv[k] > n) throw UsageError("trnsolver", "argument", "getrs: ipiv entries in [1, n]");
  if (report != nullptr) *report = CallReport{};
  const blas::Settings bs = solve_blas_settings<R>(s, nrhs);
  TraceParts trace;
  if (op == SolveOp::N) {  // L U X = P B
    detail::apply_interchanges(s, ipiv, 0, n, true, n, nrhs, B, ldb, sizeof(Cx<R>), trace);  // DMA
    trsm<R>(bs, blas::Side::left, Uplo::lower, blas::COp::N, blas::Diag::unit, n, nrhs, A, lda, B, ldb, trace);
    trsm<R>(bs, blas::Side::left, Uplo::upper, blas::COp::N, blas::Diag::non_unit, n, nrhs, A, lda, B, ldb, trace);
  } else {  // op(U) op(L) P X = B
    const auto o = op == SolveOp::T ? blas::COp::T : blas::COp::C;
    trsm<R>(bs, blas::Side::left, Uplo::upper, o, blas::Diag::non_unit, n, nrhs, A, lda, B, ldb, trace);
    trsm<R>(bs, blas::Side::left, Uplo::lower, o, blas::Diag::unit, n, nrhs, A, lda, B, ldb, trace);
    detail::apply_interchanges(s, ipiv, 0, n, false, n, nrhs, B, ldb, sizeof(Cx<R>), trace);
  }
  detail::finish_fp64_report(report, std::move(trace), s.target, 0);
}

}  // namespace

FactorPlan plan_complex_factor(const Settings& s, char prefix, char kind, std::int64_t m, std::int64_t n) {
  FactorPlan plan;
  plan.routine = std::string(1, prefix) + (kind == 'p' ? "potrf" : "getrf");
  plan.m = m;
  plan.n = n;
  plan.nb = hardware_spec(s.target).pmax;
  const std::int64_t k = kind == 'p' ? n : std::min(m, n);
  plan.panels = k > 0 ? (k + plan.nb - 1) / plan.nb : 0;
  plan.host_panels = true;
  plan.update_mode = prefix == 'z' ? blas::GemmMode::fp64_ozaki : blas::GemmMode::fp32;
  plan.why = kind == 'p' ? "recursive panels (complex HERK / GEMM updates, 4M, on TensorE; leaves of <= 32 columns "
                           "on the host), the trailing matrix by complex HERK"
                         : "recursive panels (complex GEMM updates, 4M, on TensorE; DMA interchanges; leaves of <= 32 "
                           "columns on the host), U12 by complex TRSM and A22 -= L21 U12 by complex GEMM";
  return plan;
}

#define TRNSOLVER_COMPLEX_FACTOR_DEFINE(R)                                                                     \
  int potrf(const Settings& s, Uplo uplo, std::int64_t n, Cx<R>* A, std::int64_t lda, CallReport* report) {  \
    return potrf_impl<R>(s, uplo, n, A, lda, report);                                                         \
  }                                                                                                            \
  void potrs(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const Cx<R>* A, std::int64_t lda, \
             Cx<R>* B, std::int64_t ldb, CallReport* report) {                                                 \
    potrs_impl<R>(s, uplo, n, nrhs, A, lda, B, ldb, report);                                                  \
  }                                                                                                            \
  int trtri(const Settings& s, Uplo uplo, bool unit, std::int64_t n, Cx<R>* A, std::int64_t lda,              \
            CallReport* report) {                                                                              \
    return trtri_impl<R>(s, uplo, unit, n, A, lda, report);                                                   \
  }                                                                                                            \
  int getrf(const Settings& s, std::int64_t m, std::int64_t n, Cx<R>* A, std::int64_t lda, int* ipiv,         \
            CallReport* report) {                                                                              \
    return getrf_impl<R>(s, m, n, A, lda, ipiv, report);                                                      \
  }                                                                                                            \
  void getrs(const Settings& s, SolveOp op, std::int64_t n, std::int64_t nrhs, const Cx<R>* A, std::int64_t lda, \
             const int* ipiv, Cx<R>* B, std::int64_t ldb, CallReport* report) {                                \
    getrs_impl<R>(s, op, n, nrhs, A, lda, ipiv, B, ldb, report);                                              \
  }
TRNSOLVER_COMPLEX_FACTOR_DEFINE(float)
TRNSOLVER_COMPLEX_FACTOR_DEFINE(double)
#undef TRNSOLVER_COMPLEX_FACTOR_DEFINE

int detail::cgetrf_mode(const Settings& s, blas::GemmMode mode, std::int64_t m, std::int64_t n, std::complex<float>* A,
                        std::int64_t lda, int* ipiv, CallReport* report) {
  return getrf_impl<float>(s, m, n, A, lda, ipiv, report, mode);
}

}  // namespace trn::solver
