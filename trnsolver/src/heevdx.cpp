// heevdx, hegvd, hegvdx (C, Z) and the generalized Hermitian-definite reduction that hegvj shares:
// LAPACK xHEEVD's three stages with xSYEVX-style selection (heevdx), LAPACK xHEGST / xHEGVD's reduction
// to standard form (Anderson et al., LAPACK Users' Guide 3rd ed.; Golub & Van Loan, Matrix
// Computations 4th ed., 8.7.2). complex_eig.hpp documents the semantics, docs/trnsolver.md "Complex
// Hermitian eigen and complex Jacobi" the accuracy.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "complex_eig_internal.hpp"
#include "eig_internal.hpp"
#include "trn/solver/complex_factor.hpp"
#include "trn/solver/qr.hpp"

namespace trn::solver {
namespace {

using detail::RealOf;

void require(bool ok, const char* fn, const char* what) {
  if (!ok) throw UsageError("trnsolver", "argument", std::string(fn) + ": " + what);
}

// [lo, hi) of the ascending w (fp64, scaled by `scale`) that the selection keeps; range V compares the
// values as W returns them (rounded to R), as syevdx.
template <class R>
std::pair<std::int64_t, std::int64_t> select_range(const EigSelect& sel, const ScratchVector<double>& w, double scale) {
  const auto n = static_cast<std::int64_t>(w.size());
  if (sel.range == EigRange::index) return {sel.il - 1, sel.iu};
  if (sel.range == EigRange::all) return {0, n};
  std::int64_t lo = 0, hi = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = static_cast<R>(w[static_cast<std::size_t>(i)] / scale);
    lo += v <= sel.vl ? 1 : 0;
    hi += v <= sel.vu ? 1 : 0;
  }
  return {lo, hi};
}

template <class T>
int heevdx_impl(const Settings& s, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, T* A,
                std::int64_t lda, std::int64_t* meig, RealOf<T>* W, CallReport* report) {
  using R = RealOf<T>;
  constexpr bool kC = std::is_same_v<R, float>;
  const char* fn = kC ? "cheevdx" : "zheevdx";
  require(n >= 0 && lda >= std::max<std::int64_t>(1, n) && (n == 0 || (A != nullptr && W != nullptr)), fn,
          "n >= 0, lda >= max(1, n), A and W not NULL");
  require(sel.range != EigRange::value || sel.vl < sel.vu, fn, "vl < vu");
  require(sel.range != EigRange::index ||
              (n == 0 ? sel.il == 1 && sel.iu == 0 : 1 <= sel.il && sel.il <= sel.iu && sel.iu <= n),
          fn, "1 <= il <= iu <= n (n = 0: il = 1, iu = 0)");
  const SyevdPlan plan = plan_syevd(kC ? 'c' : 'z', 'e', n, vectors);
  if (report != nullptr) *report = CallReport{};
  detail::EigSteps st{detail::complex_blas_settings<T>(s), {}, 0, plan.host_symv};
  std::int64_t m = 0;
  int info = 0;
  if (n > 0) {
    ScratchVector<T> work, tau(static_cast<std::size_t>(n));  // traced: docs/cost-model.md section 2
    const bool finite = detail::hermitian_full(n, A, lda, uplo == Uplo::lower, work);
    double amax = 0;
    for (const T& v : work) amax = std::max({amax, std::fabs(double(v.real())), std::fabs(double(v.imag()))});
    const double scale = amax > 0 && finite ? std::ldexp(1.0, -std::ilogb(amax)) : 1.0;  // exact
    for (T& v : work) v *= static_cast<R>(scale);
    record_host_step(st.trace, HostStep{.name = "trnsolver.heevdx.prepare", .flops = 2.0 * double(n * n),
                                        .reads = {HostSpan::matrix(A, n, n, lda)}, .writes = {HostSpan(work.data(), n * n)}});
    if (!finite) {
      info = detail::non_finite_input(W, n);
    } else {
      ScratchVector<double> w;
      ScratchVector<R> Z;
      info = detail::tridiagonal_eig(st, n, work.data(), tau.data(), vectors, w, Z);
      const auto [lo, hi] = select_range<R>(sel, w, scale);
      m = hi - lo;
      ScratchVector<T> V(vectors ? Z.begin() + lo * n : Z.end(), vectors ? Z.begin() + hi * n : Z.end());
      if (vectors && n > 1 && m > 0) {  // V = Q Z for the selected columns (Q = diag(1, Q'))
        detail::SubCallParts sub(st.trace);  // unmqr's trace parts join this call's, modeled once
        ormqr(s, true, false, n - 1, m, n - 1, work.data() + 1, n, tau.data(), V.data() + 1, n, &sub.report());
      }
      std::int64_t at = 0;  // the selection first, then the others, each ascending (syevdx's order)
      for (std::int64_t i = lo; i < hi; ++i) W[at++] = static_cast<R>(w[static_cast<std::size_t>(i)] / scale);
      for (std::int64_t i = 0; i < n; ++i)
        if (i < lo || i >= hi) W[at++] = static_cast<R>(w[static_cast<std::size_t>(i)] / scale);
      for (std::int64_t j = 0; j < m && vectors; ++j)
        std::copy(V.begin() + j * n, V.begin() + (j + 1) * n, A + j * lda);
      record_host_step(st.trace, HostStep{.name = "trnsolver.heevdx.finish", .flops = double(n),
                                          .reads = {HostSpan(V.data(), vectors ? n * m : 0), HostSpan(w.data(), n)},
                                          .writes = {vectors ? HostSpan::matrix(A, n, m, lda) : HostSpan{}, HostSpan(W, n)}});
    }
  }
  if (meig != nullptr) *meig = m;
  detail::finish_fp64_report(report, std::move(st.trace), s.target, st.host_flops);
  if (report != nullptr) report->add_plan(plan);
  return info;
}

template <class T>
void trsm(const Settings& s, blas::Side side, blas::COp op, std::int64_t m, std::int64_t n, const T* L, T* B,
          std::int64_t ldb, std::int64_t ldl, TraceParts& trace) {
  if (m <= 0 || n <= 0) return;
  blas::CallReport r;
  if constexpr (std::is_same_v<RealOf<T>, float>)
    blas::ctrsm(detail::complex_blas_settings<T>(s), blas::GemmMode::fp32, side, blas::Uplo::lower, op,
                blas::Diag::non_unit, m, n, T(1), L, ldl, B, ldb, &r);
  else
    blas::ztrsm(detail::complex_blas_settings<T>(s), side, blas::Uplo::lower, op, blas::Diag::non_unit, m, n, T(1), L,
                ldl, B, ldb, &r);
  trace.add(std::move(r.trace));
}

}  // namespace

namespace detail {

// hegv_reduce: B = L L^H (potrf on a copy), C = L^-1 A L^-H (itype 1: two TRSMs) or L^H A L (2, 3: two
// GEMMs), eig(C), X = L^-H Y (1, 2: TRSM) or L Y (3: GEMM); complex_eig.hpp's hegvd comment. Returns
// n + i when B's leading minor of order i is not positive definite (nothing written), else eig's info.
template <class T, class Eig>
int hegv_reduce(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, T* B,
                std::int64_t ldb, RealOf<T>* W, CallReport* report, Eig&& eig) {
  GvState<T> st;
  const int binfo =
      gv_factor_b(s, n, B, ldb, report, st, [&](T* p, CallReport* r) { return potrf(s, uplo, n, p, n, r); });
  if (n == 0) return 0;
  if (binfo > 0) return static_cast<int>(n) + binfo;
  const bool lower = uplo == Uplo::lower;
  const auto nn = static_cast<std::size_t>(n * n);
  ScratchVector<T> l(nn, T(0)), a, c, g(nn);  // traced: docs/cost-model.md section 2
  for (std::int64_t j = 0; j < n; ++j)  // dense L (upper: L = U^H), zeros above the diagonal
    for (std::int64_t i = j; i < n; ++i)
      l[static_cast<std::size_t>(i + j * n)] = lower ? st.f[i + j * n] : std::conj(st.f[j + i * n]);
  hermitian_full(n, A, lda, lower, a);  // Inf/NaN reach the eigensolver, which reports them
  record_host_step(st.trace, HostStep{.name = "trnsolver.hegvd.prepare", .flops = 2.0 * double(nn),
                                      .reads = {HostSpan::matrix(A, n, n, lda), HostSpan(st.f.data(), n * n)},
                                      .writes = {HostSpan(a.data(), n * n), HostSpan(l.data(), n * n)}});
  if (itype == 1) {  // C = (L^-1 A) L^-H
    c = a;
    trsm(s, blas::Side::left, blas::COp::N, n, n, l.data(), c.data(), n, n, st.trace);
    trsm(s, blas::Side::right, blas::COp::C, n, n, l.data(), c.data(), n, n, st.trace);
  } else {  // C = L^H (A L)
    c.resize(nn);
    complex_gemm(s, blas::COp::N, blas::COp::N, n, n, n, a.data(), n, l.data(), n, g.data(), n, st.trace);
    complex_gemm(s, blas::COp::C, blas::COp::N, n, n, n, l.data(), n, g.data(), n, c.data(), n, st.trace);
  }
  ScratchVector<RealOf<T>> w(static_cast<std::size_t>(n));
  const HermEigStep e = eig(c.data(), w.data(), st.trace, st.flops);
  if (vectors && e.cols > 0) {
    if (itype == 3) {
      complex_gemm(s, blas::COp::N, blas::COp::N, n, e.cols, n, l.data(), n, c.data(), n, g.data(), n, st.trace);
      c.swap(g);
    } else {
      trsm(s, blas::Side::left, blas::COp::C, n, e.cols, l.data(), c.data(), n, n, st.trace);
    }
  }
  gv_store("trnsolver.hegvd.finish", n, vectors ? e.cols : 0, lower, c, A, lda, w, W, st.f, B, ldb, st.trace);
  finish_fp64_report(report, std::move(st.trace), s.target, st.flops);
  return e.info;
}

void check_hegv(const char* fn, int itype, std::int64_t n, const void* A, std::int64_t lda, const void* B,
                std::int64_t ldb, const void* W) {
  require(itype >= 1 && itype <= 3, fn, "itype in {1, 2, 3}");
  require(n >= 0 && lda >= std::max<std::int64_t>(1, n) && ldb >= std::max<std::int64_t>(1, n), fn,
          "n >= 0, lda, ldb >= max(1, n)");
  require(n == 0 || (A != nullptr && B != nullptr && W != nullptr), fn, "A, B, W not NULL");
}

}  // namespace detail

namespace {

// hegvd / hegvdx: the reduction around heevdx (EigRange::all for hegvd); heevd's plan joins the report.
template <class T>
int hegvd_any(const Settings& s, int itype, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, T* A,
              std::int64_t lda, T* B, std::int64_t ldb, std::int64_t* meig, RealOf<T>* W, CallReport* report) {
  detail::check_hegv(std::is_same_v<RealOf<T>, float> ? "chegvd" : "zhegvd", itype, n, A, lda, B, ldb, W);
  std::string plan;
  std::int64_t m = 0;
  const int info = detail::hegv_reduce(s, itype, vectors, uplo, n, A, lda, B, ldb, W, report,
                                       [&](T* c, RealOf<T>* w, TraceParts& trace, double& flops) {
                                         detail::SubCallReport sub(report != nullptr && report->plans_wanted);
                                         CallReport& er = sub.report;
                                         const int i = heevdx(s, vectors, sel, Uplo::lower, n, c, n, &m, w, &er);
                                         trace.add(std::move(er.trace));
                                         flops += er.host_fp64_flops;
                                         plan = std::move(er.plan);
                                         return detail::HermEigStep{i, vectors && i != n ? m : 0};
                                       });
  if (report != nullptr && !plan.empty()) report->add_plan(plan);
  if (meig != nullptr) *meig = info > n ? 0 : m;
  return info;
}

template <class T>
SyevjResult hegvj_any(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda,
                      T* B, std::int64_t ldb, RealOf<T>* W, const SyevjParams& p, CallReport* report) {
  detail::check_hegv(std::is_same_v<RealOf<T>, float> ? "chegvj" : "zhegvj", itype, n, A, lda, B, ldb, W);
  require(p.max_sweeps >= 0, "hegvj", "max_sweeps >= 0");
  SyevjResult res;
  res.info = detail::hegv_reduce(s, itype, vectors, uplo, n, A, lda, B, ldb, W, report,
                                 [&](T* c, RealOf<T>* w, TraceParts& trace, double& flops) {
                                   detail::SubCallReport sub;
                                   CallReport& er = sub.report;
                                   SyevjParams q = p;
                                   q.sort_eig = true;
                                   res = heevj(s, vectors, Uplo::lower, n, c, n, w, q, &er);
                                   trace.add(std::move(er.trace));
                                   flops += er.host_fp64_flops;
                                   return detail::HermEigStep{res.info, vectors && res.info == 0 ? n : 0};
                                 });
  return res;
}

}  // namespace

#define TRNSOLVER_COMPLEX_EVDX_DEFINE(T, R)                                                                        \
  int heevdx(const Settings& s, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, T* A,              \
             std::int64_t lda, std::int64_t* meig, R* W, CallReport* report) {                                     \
    return heevdx_impl(s, vectors, sel, uplo, n, A, lda, meig, W, report);                                         \
  }                                                                                                                \
  int hegvd(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, T* B,   \
            std::int64_t ldb, R* W, CallReport* report) {                                                          \
    return hegvd_any(s, itype, vectors, EigSelect{}, uplo, n, A, lda, B, ldb, nullptr, W, report);                 \
  }                                                                                                                \
  int hegvdx(const Settings& s, int itype, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, T* A,    \
             std::int64_t lda, T* B, std::int64_t ldb, std::int64_t* meig, R* W, CallReport* report) {             \
    return hegvd_any(s, itype, vectors, sel, uplo, n, A, lda, B, ldb, meig, W, report);                            \
  }                                                                                                                \
  SyevjResult hegvj(const Settings& s, int itype, bool vectors, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, \
                    T* B, std::int64_t ldb, R* W, const SyevjParams& p, CallReport* report) {                      \
    return hegvj_any(s, itype, vectors, uplo, n, A, lda, B, ldb, W, p, report);                                    \
  }
TRNSOLVER_COMPLEX_EVDX_DEFINE(std::complex<float>, float)
TRNSOLVER_COMPLEX_EVDX_DEFINE(std::complex<double>, double)
#undef TRNSOLVER_COMPLEX_EVDX_DEFINE

}  // namespace trn::solver
