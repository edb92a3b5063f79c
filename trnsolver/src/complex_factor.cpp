// Complex Cholesky and LU (C, Z): cpotrf/zpotrf, cpotrs/zpotrs, ctrtri/ztrtri, cgetrf/zgetrf,
// cgetrs/zgetrs. Blocked right-looking drivers in LAPACK's order (Anderson et al., LAPACK Users'
// Guide 3rd ed., xPOTRF/xGETRF; Golub & Van Loan, Matrix Computations 4th ed., 4.2.9 and 3.4.8):
// the panels (O(n nb^2) work) as recorded fp64 host steps, every O(n^3) product and every triangular
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

#include "interchanges.hpp"
#include "mode_factor.hpp"
#include "syevj_internal.hpp"
#include "trn/blas/level3.hpp"
#include "trn/core/host_step.hpp"

namespace trn::solver {
namespace {

using Wide = std::complex<double>;
template <class R>
using Cx = std::complex<R>;
template <class R>
constexpr char kPrefix = std::is_same_v<R, float> ? 'c' : 'z';
constexpr double kCmaFlops = 8.0;  // real flops of one complex multiply-add

// The trnblas settings of a driver's TRSM/HERK/GEMM steps: C in the handle's numerics (fp32 mode),
// Z as dpotrf's Ozaki updates; substitution TRSM (componentwise backward stable).
template <class R>
blas::Settings blas_settings(const Settings& s) {
  blas::Settings bs = std::is_same_v<R, float> ? detail::step_blas_settings(s) : detail::fp64_update_blas_settings(s);
  bs.trsm_substitution = true;
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

// C -= op(A) op(A)^H on the uplo triangle (HERK, alpha -1, beta 1).
template <class R>
void herk_minus(const blas::Settings& bs, Uplo uplo, blas::COp op, std::int64_t n, std::int64_t k, const Cx<R>* A,
                std::int64_t lda, Cx<R>* C, std::int64_t ldc, TraceParts& trace) {
  blas::CallReport r;
  if constexpr (std::is_same_v<R, float>)
    blas::cherk(bs, blas::GemmMode::fp32, uplo, op, n, k, -1.0f, A, lda, 1.0f, C, ldc, &r);
  else
    blas::zherk(bs, uplo, op, n, k, -1.0, A, lda, 1.0, C, ldc, &r);
  trace.add(std::move(r.trace));
}

// C -= A B (4M complex GEMM; C in `mode`: fp32, or the lower modes of the refinement solvers).
template <class R>
void gemm_minus(const blas::Settings& bs, std::int64_t m, std::int64_t n, std::int64_t k, const Cx<R>* A,
                std::int64_t lda, const Cx<R>* B, std::int64_t ldb, Cx<R>* C, std::int64_t ldc, TraceParts& trace,
                blas::GemmMode mode = blas::GemmMode::fp32) {
  blas::CallReport r;
  const auto N = blas::COp::N;
  if constexpr (std::is_same_v<R, float>)
    blas::cgemm(bs, mode, blas::ComplexAlgo::four_m, N, N, m, n, k, Cx<R>(-1), A, lda, B, ldb,
                Cx<R>(1), C, ldc, &r);
  else
    blas::zgemm(bs, blas::ComplexAlgo::four_m, N, N, m, n, k, Cx<R>(-1), A, lda, B, ldb, Cx<R>(1), C, ldc, &r);
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

// Host fp64: unblocked Cholesky (LAPACK xPOTF2, right-looking) of the w x w diagonal block at (j0, j0)
// in its uplo triangle (upper: worked on as L = U^H), rounded back. Returns the 1-based column of the
// first non-positive pivot in the block (its Schur complement value left on the diagonal), or 0.
template <class R>
std::int64_t potf2_block(Cx<R>* A, std::int64_t lda, bool lower, std::int64_t j0, std::int64_t w, double& flops) {
  std::vector<Wide> L(static_cast<std::size_t>(w * w));
  auto at = [&](std::int64_t i, std::int64_t j) -> Cx<R>& {  // element (i, j) of the lower view, i >= j
    return lower ? A[(j0 + i) + (j0 + j) * lda] : A[(j0 + j) + (j0 + i) * lda];
  };
  for (std::int64_t j = 0; j < w; ++j)
    for (std::int64_t i = j; i < w; ++i) {
      const Wide v(at(i, j));
      L[i + j * w] = lower ? v : std::conj(v);
    }
  std::int64_t failed = 0, done = w;
  for (std::int64_t j = 0; j < w; ++j) {
    const double d = L[j + j * w].real();
    L[j + j * w] = d;
    if (!(d > 0.0) || !std::isfinite(d)) {
      failed = j + 1;
      done = j + 1;
      break;
    }
    const double r = std::sqrt(d);
    L[j + j * w] = r;
    for (std::int64_t i = j + 1; i < w; ++i) L[i + j * w] /= r;
    for (std::int64_t k = j + 1; k < w; ++k)
      for (std::int64_t i = k; i < w; ++i) L[i + k * w] -= L[i + j * w] * std::conj(L[k + j * w]);
    const auto rest = static_cast<double>(w - j - 1);
    flops += 2.0 * rest + kCmaFlops * rest * (rest + 1) / 2;
  }
  for (std::int64_t j = 0; j < done; ++j)
    for (std::int64_t i = j; i < w; ++i) {
      const Wide v = lower ? L[i + j * w] : std::conj(L[i + j * w]);
      at(i, j) = Cx<R>(static_cast<R>(v.real()), static_cast<R>(v.imag()));
    }
  return failed;
}

template <class R>
int potrf_impl(const Settings& s, Uplo uplo, std::int64_t n, Cx<R>* A, std::int64_t lda, CallReport* report) {
  check_square(kPrefix<R> == 'c' ? "cpotrf" : "zpotrf", n, lda, A);
  if (report != nullptr) *report = CallReport{};
  const bool lower = uplo == Uplo::lower;
  const FactorPlan plan = plan_complex_factor(s, kPrefix<R>, 'p', n, n);
  const blas::Settings bs = blas_settings<R>(s);
  TraceParts trace;
  double host = 0;
  int info = 0;
  for (std::int64_t j0 = 0; j0 < n && info == 0; j0 += plan.nb) {
    const std::int64_t w = std::min(plan.nb, n - j0), n2 = n - j0 - w;
    const double host0 = host;
    const std::int64_t failed = potf2_block(A, lda, lower, j0, w, host);
    const HostSpan block = HostSpan::matrix(A + j0 + j0 * lda, w, w, lda);
    record_host_step(trace, HostStep{.name = kPrefix<R> == 'c' ? "trnsolver.cpotrf.diagonal_block"
                                                               : "trnsolver.zpotrf.diagonal_block",
                                     .flops = host - host0, .reads = {block}, .writes = {block}});
    if (failed != 0) {
      info = static_cast<int>(j0 + failed);
      break;
    }
    if (n2 <= 0) continue;
    Cx<R>* a11 = A + j0 + j0 * lda;
    if (lower) {
      Cx<R>* a21 = A + (j0 + w) + j0 * lda;
      trsm<R>(bs, blas::Side::right, Uplo::lower, blas::COp::C, blas::Diag::non_unit, n2, w, a11, lda, a21, lda, trace);
      herk_minus<R>(bs, Uplo::lower, blas::COp::N, n2, w, a21, lda, A + (j0 + w) + (j0 + w) * lda, lda, trace);
    } else {
      Cx<R>* a12 = A + j0 + (j0 + w) * lda;
      trsm<R>(bs, blas::Side::left, Uplo::upper, blas::COp::C, blas::Diag::non_unit, w, n2, a11, lda, a12, lda, trace);
      herk_minus<R>(bs, Uplo::upper, blas::COp::C, n2, w, a12, lda, A + (j0 + w) + (j0 + w) * lda, lda, trace);
    }
  }
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
  potrs_solves<R>(blas_settings<R>(s), uplo, n, nrhs, A, lda, B, ldb, trace);
  detail::finish_fp64_report(report, std::move(trace), s.target, 0);
}

// trtri: X = I, then T X = I by one substitution TRSM on TensorE reading A's uplo triangle in place
// (unit: its diagonal not read), then X's triangle into A by a host step that moves it (the solve
// does not exploit X's triangular structure: n^3 complex multiply-adds where xTRTRI needs n^3 / 3).
template <class R>
int trtri_impl(const Settings& s, Uplo uplo, bool unit, std::int64_t n, Cx<R>* A, std::int64_t lda,
               CallReport* report) {
  check_square(kPrefix<R> == 'c' ? "ctrtri" : "ztrtri", n, lda, A);
  if (report != nullptr) *report = CallReport{};
  for (std::int64_t j = 0; !unit && j < n; ++j)  // an exactly zero diagonal: singular, nothing written
    if (A[j + j * lda] == Cx<R>(0)) return static_cast<int>(j + 1);
  std::vector<Cx<R>> X(static_cast<std::size_t>(n * n));
  for (std::int64_t j = 0; j < n; ++j) X[j + j * n] = Cx<R>(1);
  TraceParts trace;
  trsm<R>(blas_settings<R>(s), blas::Side::left, uplo, blas::COp::N, unit ? blas::Diag::unit : blas::Diag::non_unit,
          n, n, A, lda, X.data(), n, trace);
  const bool lower = uplo == Uplo::lower;
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

// Swaps rows r1 and r2 of A in the columns [c0, c1).
template <class R>
void swap_rows(Cx<R>* A, std::int64_t lda, std::int64_t r1, std::int64_t r2, std::int64_t c0, std::int64_t c1) {
  for (std::int64_t c = c0; c < c1; ++c) std::swap(A[r1 + c * lda], A[r2 + c * lda]);
}

// Host fp64: LAPACK xGETF2 on the panel A(j0:m, j0:j0+w) (pivot: the first largest |re| + |im|,
// izamax's measure), its interchanges applied to the rows of A outside the panel as well. info: the
// first exactly-zero pivot (1-based, kept when already set). Returns the number of interchanges.
template <class R>
std::int64_t getf2_panel(Cx<R>* A, std::int64_t lda, std::int64_t m, std::int64_t n, std::int64_t j0,
                         std::int64_t w, int* ipiv, int& info, double& flops) {
  const std::int64_t mr = m - j0;
  std::vector<Wide> P(static_cast<std::size_t>(mr * w));
  for (std::int64_t c = 0; c < w; ++c)
    for (std::int64_t i = 0; i < mr; ++i) P[i + c * mr] = Wide(A[(j0 + i) + (j0 + c) * lda]);
  auto cabs1 = [](Wide z) { return std::fabs(z.real()) + std::fabs(z.imag()); };
  std::int64_t swaps = 0;
  for (std::int64_t c = 0; c < w; ++c) {
    std::int64_t p = c;
    if (ipiv != nullptr) {
      for (std::int64_t i = c + 1; i < mr; ++i)
        if (cabs1(P[i + c * mr]) > cabs1(P[p + c * mr])) p = i;
      ipiv[j0 + c] = static_cast<int>(j0 + p + 1);
      if (p != c) {
        ++swaps;
        for (std::int64_t k = 0; k < w; ++k) std::swap(P[c + k * mr], P[p + k * mr]);
        swap_rows(A, lda, j0 + c, j0 + p, 0, j0);
        swap_rows(A, lda, j0 + c, j0 + p, j0 + w, n);
      }
    }
    const Wide piv = P[c + c * mr];
    if (piv == Wide(0)) {
      if (info == 0) info = static_cast<int>(j0 + c + 1);
      continue;
    }
    for (std::int64_t i = c + 1; i < mr; ++i) P[i + c * mr] /= piv;
    for (std::int64_t k = c + 1; k < w; ++k)
      for (std::int64_t i = c + 1; i < mr; ++i) P[i + k * mr] -= P[i + c * mr] * P[c + k * mr];
    const auto rows = static_cast<double>(mr - c - 1);
    flops += rows * (kCmaFlops + kCmaFlops * static_cast<double>(w - c - 1));
  }
  for (std::int64_t c = 0; c < w; ++c)
    for (std::int64_t i = 0; i < mr; ++i)
      A[(j0 + i) + (j0 + c) * lda] = Cx<R>(static_cast<R>(P[i + c * mr].real()), static_cast<R>(P[i + c * mr].imag()));
  return swaps;
}

template <class R>
int getrf_impl(const Settings& s, std::int64_t m, std::int64_t n, Cx<R>* A, std::int64_t lda, int* ipiv,
               CallReport* report, blas::GemmMode mode = blas::GemmMode::fp32) {
  if (m < 0 || n < 0 || lda < std::max<std::int64_t>(1, m) || (m > 0 && n > 0 && A == nullptr))
    throw UsageError("trnsolver", "argument", std::string(1, kPrefix<R>) + "getrf: m, n >= 0, lda >= max(1, m), A not NULL");
  if (report != nullptr) *report = CallReport{};
  FactorPlan plan = plan_complex_factor(s, kPrefix<R>, 'g', m, n);
  if constexpr (std::is_same_v<R, float>) plan.update_mode = mode;  // the refinement solvers' lower modes
  const std::int64_t kmin = std::min(m, n);
  const blas::Settings bs = blas_settings<R>(s);
  TraceParts trace;
  double host = 0;
  int info = 0;
  for (std::int64_t j0 = 0; j0 < kmin; j0 += plan.nb) {
    const std::int64_t w = std::min(plan.nb, kmin - j0), n2 = n - j0 - w, m2 = m - j0 - w;
    const double host0 = host;
    const std::int64_t swaps = getf2_panel(A, lda, m, n, j0, w, ipiv, info, host);
    HostSpan rows = HostSpan::matrix(A + j0, m - j0, n, lda);  // every element the step may touch
    rows.bytes = static_cast<std::size_t>((m - j0) * w + 2 * swaps * (n - w)) * sizeof(Cx<R>);
    record_host_step(trace, HostStep{.name = kPrefix<R> == 'c' ? "trnsolver.cgetrf.panel" : "trnsolver.zgetrf.panel",
                                     .flops = host - host0, .reads = {rows}, .writes = {rows}});
    if (n2 <= 0) continue;
    Cx<R>* a12 = A + j0 + (j0 + w) * lda;
    trsm<R>(bs, blas::Side::left, Uplo::lower, blas::COp::N, blas::Diag::unit, w, n2, A + j0 + j0 * lda, lda, a12,
            lda, trace);
    if (m2 > 0)
      gemm_minus<R>(bs, m2, n2, w, A + (j0 + w) + j0 * lda, lda, a12, lda, A + (j0 + w) + (j0 + w) * lda, lda, trace,
                    mode);
  }
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
  const blas::Settings bs = blas_settings<R>(s);
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
  plan.why = kind == 'p' ? "diagonal blocks by fp64 host Cholesky, rows below by complex TRSM and the trailing "
                           "matrix by complex HERK (4M) on TensorE"
                         : "panels (pivot search, interchanges) by fp64 host LU, U12 by complex TRSM and "
                           "A22 -= L21 U12 by complex GEMM (4M) on TensorE";
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
