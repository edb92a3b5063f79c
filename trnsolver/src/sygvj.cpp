// sygvj, sygvd, sygvdx: the generalized symmetric-definite eigenproblem by reduction to standard
// form (LAPACK xSYGST / xSYGV / xSYGVD / xSYGVX; cuSOLVER sygvj, sygvd, sygvdx), built from the
// library's Cholesky, triangular solves, GEMM and one of its standard eigensolvers (Jacobi for sygvj,
// tridiagonalization + divide and conquer for sygvd/sygvdx). solver.hpp and eig.hpp document the
// semantics, docs/trnsolver.md "sygvj" and "sygvd" the accuracy.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "trn/solver/solver.hpp"
#include "trn/solver/eig.hpp"
#include "trn/core/host_step.hpp"
#include "eig_internal.hpp"  // detail::tri_solve

namespace trn::solver {
namespace {

void require(bool ok, const char* what) {
  if (!ok) throw UsageError("trnsolver", "argument", what);
}

blas::Settings blas_settings(const Settings& s) {
  blas::Settings bs;
  static_cast<EmulatorSettings&>(bs) = s;
  return bs;
}

// T X = R, R n x cols: detail::tri_solve (trtri.cpp), its fp64 host step named as sygvj's.
void solve(const Settings& s, const float* t, std::int64_t si, std::int64_t sj, bool lower, std::int64_t n,
           std::int64_t cols, float* r, TraceParts& trace, double* flops) {
  detail::tri_solve(s, t, si, sj, lower, false, n, cols, r, trace, flops, "trnsolver.dsygvj.substitution");
}
void solve(const Settings& s, const double* t, std::int64_t si, std::int64_t sj, bool lower, std::int64_t n,
           std::int64_t cols, double* r, TraceParts& trace, double* flops) {
  detail::tri_solve(s, t, si, sj, lower, false, n, cols, r, trace, flops, "trnsolver.dsygvj.substitution");
}

// C = op(X) Y for X n x n, Y and C n x cols, column-major (ld n): trnblas GEMM on TensorE (fp32
// mode / Ozaki fp64).
void multiply(const Settings& s, bool tx, const float* x, const float* y, float* c, std::int64_t n, std::int64_t cols,
              TraceParts& trace) {
  blas::CallReport br;
  blas::gemm(blas_settings(s), blas::GemmMode::fp32, tx ? blas::Op::T : blas::Op::N, blas::Op::N, n, cols, n, 1.0f,
             {x, DType::f32, n}, {y, DType::f32, n}, 0.0f, {c, DType::f32, n}, &br);
  trace.add(std::move(br.trace));
}
void multiply(const Settings& s, bool tx, const double* x, const double* y, double* c, std::int64_t n,
              std::int64_t cols, TraceParts& trace) {
  blas::CallReport br;
  blas::dgemm(blas_settings(s), tx ? blas::Op::T : blas::Op::N, blas::Op::N, n, cols, n, 1.0, x, n, y, n, 0.0, c, n,
              &br);
  trace.add(std::move(br.trace));
}

// The standard eigenproblem step of the reduction: solves the n x n C (lower triangle read) in place,
// eigenvalues ascending in w; returns its info and how many of C's leading columns hold eigenvectors
// to back-transform (n, or syevdx's meig; 0 without vectors).
struct EigStep {
  int info = 0;
  std::int64_t cols = 0;
};

void check_sygv(int itype, std::int64_t n, const void* A, std::int64_t lda, const void* B, std::int64_t ldb,
                const void* W) {
  require(itype >= 1 && itype <= 3, "itype in {1, 2, 3}");
  require(n >= 0 && lda >= std::max<std::int64_t>(1, n) && ldb >= std::max<std::int64_t>(1, n), "n >= 0, lda, ldb >= max(1, n)");
  require(n == 0 || (A != nullptr && B != nullptr && W != nullptr), "A, B, W not NULL");
}

// sygv_reduce: B = L L^T, C = L^-1 A L^-T or L^T A L, eig(C), X = L^-T Y or L Y (the comment of
// ssygvj in solver.hpp). Returns n + i when B's leading minor of order i is not positive definite
// (nothing written, the report left empty), else eig's info. Arguments checked by the caller.
template <class T, class Eig>
int sygv_reduce(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, T* B,
                std::int64_t ldb, T* W, CallReport* report, Eig&& eig) {
  // 1. B = L L^T on a copy (B is written only on success).
  detail::GvState<T> st;
  const int binfo = detail::gv_factor_b(s, n, B, ldb, report, st, [&](T* p, CallReport* r) {
    if constexpr (std::is_same_v<T, float>)
      return spotrf(s, uplo, n, p, n, r);
    else
      return dpotrf(s, uplo, n, p, n, r);
  });
  if (n == 0) return 0;
  if (binfo > 0) return static_cast<int>(n) + binfo;
  const bool lower = uplo == Uplo::lower;
  const auto nn = static_cast<std::size_t>(n * n);
  // Lower view of the factor: L(i, j) at st.f[i * si + j * sj].
  const std::int64_t si = lower ? 1 : n, sj = lower ? n : 1;
  ScratchVector<T> l(nn, T(0));  // dense L (zeros above the diagonal) for the GEMMs
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i)
      l[static_cast<std::size_t>(i + j * n)] = st.f[static_cast<std::size_t>(i * si + j * sj)];
  // 2. The full symmetric A from its uplo triangle (index moves).
  ScratchVector<T> a(nn), c(nn), g(nn);  // traced: docs/cost-model.md section 2
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      a[static_cast<std::size_t>(i + j * n)] = (lower ? i >= j : i <= j) ? A[i + j * lda] : A[j + i * lda];
  // The dense L and the full A built on the host (copies): one round trip.
  record_host_step(st.trace, HostStep{.name = "trnsolver.sygv.prepare", .flops = 0,
                                      .reads = {HostSpan::matrix(A, n, n, lda), HostSpan(st.f.data(), n * n)},
                                      .writes = {HostSpan(a.data(), n * n), HostSpan(l.data(), n * n)}});
  // Solves with L (lower_t) or L^T, read from the dense copy l: the factor's other triangle in f
  // still holds the caller's unreferenced values (NaN allowed), which a tile kernel must not see.
  auto trsm = [&](bool lower_t, T* r, std::int64_t cols) {
    solve(s, l.data(), lower_t ? 1 : n, lower_t ? n : 1, lower_t, n, cols, r, st.trace, &st.flops);
  };
  // 3. C = L^-1 A L^-T = L^-1 (L^-1 A)^T (A symmetric), or C = L^T (A L).
  if (itype == 1) {
    g = a;
    trsm(true, g.data(), n);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) c[static_cast<std::size_t>(i + j * n)] = g[static_cast<std::size_t>(j + i * n)];
    record_host_step(st.trace, HostStep{.name = "trnsolver.sygv.transpose", .flops = 0,
                                        .reads = {HostSpan(g.data(), n * n)}, .writes = {HostSpan(c.data(), n * n)}});
    trsm(true, c.data(), n);
  } else {
    multiply(s, false, a.data(), l.data(), g.data(), n, n, st.trace);
    multiply(s, true, l.data(), g.data(), c.data(), n, n, st.trace);
  }
  // 4. C = Y diag(W) Y^T (the lower triangle of C is read).
  ScratchVector<T> w(static_cast<std::size_t>(n));
  const EigStep e = eig(c.data(), w.data(), st.trace, st.flops);
  // 5. X = L^-T Y (itype 1, 2) or L Y (itype 3), the first e.cols columns.
  if (vectors && e.cols > 0) {
    if (itype == 3) {
      multiply(s, false, l.data(), c.data(), g.data(), n, e.cols, st.trace);
      c.swap(g);
    } else {
      trsm(false, c.data(), e.cols);
    }
  }
  detail::gv_store("trnsolver.sygv.finish", n, vectors ? e.cols : 0, lower, c, A, lda, w, W, st.f, B, ldb, st.trace);
  if (report != nullptr) {
    finish_report(*report, std::move(st.trace).join(), detail::sub_call_settings(report, ReportSettings{s.target}));
    report->host_fp64_flops = st.flops;
  }
  return e.info;
}

template <class T>
SyevjResult sygvj_any(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda,
                      T* B, std::int64_t ldb, T* W, const SyevjParams& p, CallReport* report) {
  check_sygv(itype, n, A, lda, B, ldb, W);
  require(p.max_sweeps >= 0, "max_sweeps >= 0");
  if (std::is_same_v<T, float>) require(n <= kSyevjMaxN, "n <= kSyevjMaxN (SBUF-resident kernel)");
  SyevjResult res;
  res.info = sygv_reduce(s, itype, vectors, uplo, n, A, lda, B, ldb, W, report,
                         [&](T* c, T* w, TraceParts& trace, double& flops) {
                           // dsyevj finishes once through finish_fp64_report: its parts join
                           // `trace` unjoined (SubCallParts); ssyevj's trace-only report is joined.
                           std::optional<detail::SubCallParts> parts;
                           std::optional<detail::SubCallReport> sub;
                           if constexpr (std::is_same_v<T, double>) parts.emplace(trace);
                           else sub.emplace();
                           CallReport& er = parts ? parts->report() : sub->report;
                           SyevjParams q = p;
                           q.sort_eig = true;
                           if constexpr (std::is_same_v<T, float>)
                             res = ssyevj(s, vectors, Uplo::lower, n, c, n, w, q, &er);
                           else
                             res = dsyevj(s, vectors, Uplo::lower, n, c, n, w, q, &er);
                           trace.add(std::move(er.trace));
                           flops += er.host_fp64_flops;
                           return EigStep{res.info, vectors ? n : 0};
                         });
  return res;
}

// sygvd / sygvdx: the reduction around syevdx (EigRange::all for sygvd); the syevd plan joins the report.
template <class T>
int sygvd_any(const Settings& s, int itype, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, T* A,
              std::int64_t lda, T* B, std::int64_t ldb, std::int64_t* meig, T* W, CallReport* report) {
  check_sygv(itype, n, A, lda, B, ldb, W);
  std::string plan;
  std::int64_t m = 0;
  const int info = sygv_reduce(s, itype, vectors, uplo, n, A, lda, B, ldb, W, report,
                               [&](T* c, T* w, TraceParts& trace, double& flops) {
                                 // syevdx's plan (its prediction replays syevd) only when this report prints plans
                                 detail::SubCallReport sub(report != nullptr && report->plans_wanted);
                                 CallReport& er = sub.report;
                                 const int i = syevdx(s, vectors, sel, Uplo::lower, n, c, n, &m, w, &er);
                                 trace.add(std::move(er.trace));
                                 flops += er.host_fp64_flops;
                                 plan = std::move(er.plan);
                                 return EigStep{i, vectors ? m : 0};
                               });
  if (report != nullptr && !plan.empty()) report->add_plan(plan);
  if (meig != nullptr) *meig = m;
  return info;
}

}  // namespace

SyevjResult ssygvj(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, float* A, std::int64_t lda,
                   float* B, std::int64_t ldb, float* W, const SyevjParams& p, CallReport* report) {
  return sygvj_any(s, itype, vectors, uplo, n, A, lda, B, ldb, W, p, report);
}
SyevjResult dsygvj(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, double* A, std::int64_t lda,
                   double* B, std::int64_t ldb, double* W, const SyevjParams& p, CallReport* report) {
  return sygvj_any(s, itype, vectors, uplo, n, A, lda, B, ldb, W, p, report);
}

int sygvd(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, float* B,
          std::int64_t ldb, float* W, CallReport* report) {
  return sygvd_any(s, itype, vectors, EigSelect{}, uplo, n, A, lda, B, ldb, nullptr, W, report);
}
int sygvd(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, double* A, std::int64_t lda,
          double* B, std::int64_t ldb, double* W, CallReport* report) {
  return sygvd_any(s, itype, vectors, EigSelect{}, uplo, n, A, lda, B, ldb, nullptr, W, report);
}
int sygvdx(const Settings& s, int itype, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, float* A,
           std::int64_t lda, float* B, std::int64_t ldb, std::int64_t* meig, float* W, CallReport* report) {
  return sygvd_any(s, itype, vectors, sel, uplo, n, A, lda, B, ldb, meig, W, report);
}
int sygvdx(const Settings& s, int itype, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, double* A,
           std::int64_t lda, double* B, std::int64_t ldb, std::int64_t* meig, double* W, CallReport* report) {
  return sygvd_any(s, itype, vectors, sel, uplo, n, A, lda, B, ldb, meig, W, report);
}

}  // namespace trn::solver
