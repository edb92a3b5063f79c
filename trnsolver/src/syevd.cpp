// syevd: A = V diag(W) V^T by tridiagonalization (sytrd.cpp), divide and conquer on the tridiagonal
// (stedc.cpp) and the back-transformation V = Q Z (ormqr's compact-WY GEMMs) -- LAPACK xSYEVD's
// structure. docs/trnsolver.md "syevd".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "eig_internal.hpp"
#include "trn/solver/qr.hpp"

namespace trn::solver {
namespace {

using detail::EigSteps;

void check(bool ok, const char* fn, const char* what) {
  if (!ok) throw UsageError("trnsolver", "argument", std::string(fn) + ": " + what);
}


// The selected eigenvalues' index range [lo, hi) in the ascending w; range V compares the values as
// W returns them (w / scale rounded to T), so that meig counts what the caller sees.
template <class T>
std::pair<std::int64_t, std::int64_t> selected(const EigSelect& sel, const ScratchVector<double>& w, double scale) {
  const auto n = static_cast<std::int64_t>(w.size());
  if (sel.range == EigRange::index) return {sel.il - 1, sel.iu};
  if (sel.range == EigRange::all) return {0, n};
  const auto value = [&](std::int64_t i) { return static_cast<double>(static_cast<T>(w[i] / scale)); };
  std::int64_t lo = 0;
  while (lo < n && !(value(lo) > sel.vl)) ++lo;
  std::int64_t hi = lo;
  while (hi < n && value(hi) <= sel.vu) ++hi;
  return {lo, hi};
}

template <class T>
int syevd_impl(const Settings& s, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, T* A,
               std::int64_t lda, std::int64_t* meig, T* W, CallReport* report) {
  check(n >= 0 && lda >= std::max<std::int64_t>(1, n) && (n == 0 || (A != nullptr && W != nullptr)), "syevd",
        "n >= 0, lda >= max(1, n), A and W not NULL");
  check(sel.range != EigRange::value || sel.vl < sel.vu, "syevdx", "vl < vu");
  check(sel.range != EigRange::index || (n == 0 ? sel.il == 1 && sel.iu == 0 : 1 <= sel.il && sel.il <= sel.iu &&
                                                                                   sel.iu <= n),
        "syevdx", "1 <= il <= iu <= n (n = 0: il = 1, iu = 0)");
  std::int64_t m = 0;
  constexpr bool kS = std::is_same_v<T, float>;
  SyevdPlan plan = plan_syevd(kS ? 's' : 'd', 'e', n, vectors);
  if (report != nullptr) *report = CallReport{};
  if (report != nullptr && sel.range == EigRange::all && n > 0)  // computed when printed
    plan.predicted_ns = trn::LazyNs([s, n, vectors] { return detail::remembered_syevd_prediction_ns<T>(s, n, vectors); });
  EigSteps st{kS ? detail::step_blas_settings(s) : detail::fp64_update_blas_settings(s), {}, 0, plan.host_symv};
  int info = 0;
  if (n > 0) {
    ScratchVector<T> work, tau(static_cast<std::size_t>(n));  // traced: docs/cost-model.md section 2
    const double scale = detail::scaled_lower_copy(n, A, lda, uplo == Uplo::lower, work);
    const HostSpan a = HostSpan::matrix(A, n, n, lda), wk(work.data(), n * n);
    record_host_step(st.trace, HostStep{.name = "trnsolver.syevd.prepare", .flops = double(n * n),
                                        .reads = {a}, .writes = {wk}});
    if (scale == 0) {
      info = detail::non_finite_input(W, n);
    } else {
      ScratchVector<double> w;
      ScratchVector<T> Z;
      info = detail::tridiagonal_eig(st, n, work.data(), tau.data(), vectors, w, Z);
      const auto [lo, hi] = selected<T>(sel, w, scale);
      m = hi - lo;
      if (vectors && n > 1 && m > 0) {  // V = Q Z for the selected columns only
        detail::SubCallParts sub(st.trace);  // ormqr's trace parts join this call's, modeled once
        ormqr(s, true, false, n - 1, m, n - 1, work.data() + 1, n, tau.data(), Z.data() + 1 + lo * n, n, &sub.report());
      }
      // W: the selection, then the other eigenvalues ascending (the whole spectrum, selected first: what
      // NVIDIA's syevdx sample prints, W[3] = 4 with meig = 2).
      std::int64_t at = 0;
      for (std::int64_t i = lo; i < hi; ++i) W[at++] = static_cast<T>(w[i] / scale);
      for (std::int64_t i = 0; i < n; ++i)
        if (i < lo || i >= hi) W[at++] = static_cast<T>(w[i] / scale);
      if (vectors)
        for (std::int64_t j = 0; j < m; ++j)
          std::copy(Z.begin() + (lo + j) * n, Z.begin() + (lo + j + 1) * n, A + j * lda);
      record_host_step(st.trace, HostStep{.name = "trnsolver.syevd.finish", .flops = double(n),
                                          .reads = {HostSpan(Z.data(), vectors ? n * n : 0), HostSpan(w.data(), n)},
                                          .writes = {vectors ? HostSpan::matrix(A, n, m, lda) : HostSpan{},
                                                     HostSpan(W, n)}});
    }
  }
  if (meig != nullptr) *meig = m;
  detail::finish_fp64_report(report, std::move(st.trace), s.target, st.host_flops);
  if (report != nullptr) report->add_plan(plan);
  return info;
}

}  // namespace

SyevdPlan plan_syevd(char prefix, char kind, std::int64_t n, bool vectors) {
  SyevdPlan p;
  const bool complex = prefix == 'c' || prefix == 'z';
  const char* names[] = {"syevd", "sytrd", "orgtr", "ormtr", "heevd", "hetrd", "ungtr", "unmtr"};
  p.routine = std::string(1, prefix) + names[(complex ? 4 : 0) + (kind == 'e' ? 0 : kind == 't' ? 1 : kind == 'g' ? 2 : 3)];
  p.n = n;
  p.vectors = vectors;
  p.nb = sytrd_panel_width();
  p.leaf = kStedcLeaf;
  for (std::int64_t m = n; m > kStedcLeaf; m = (m + 1) / 2) ++p.levels;
  p.mode = prefix == 'd' || prefix == 'z' ? blas::GemmMode::fp64_ozaki : blas::GemmMode::fp32;
  p.host_symv = prefix == 'd' || prefix == 'z';
  const double x = static_cast<double>(n), n3 = x * x * x;
  const bool reduce = kind == 'e' || kind == 't', back = kind != 't' && vectors;
  if (reduce) {
    (p.host_symv ? p.host_flops : p.tensor_flops) += 2.0 * n3 / 3.0;  // symv
    p.tensor_flops += 2.0 * n3 / 3.0;                                 // syr2k
    p.host_flops += 4.0 * x * x * static_cast<double>(p.nb);          // the panels' corrections
  }
  if (kind == 'e') {
    p.host_flops += vectors ? 200.0 * x * x * static_cast<double>(p.levels) + 6.0 * x * kStedcLeaf * kStedcLeaf
                            : 30.0 * x * x;
    if (vectors) p.tensor_flops += 4.0 * n3 / 3.0;  // merges without deflation
  }
  if (back) p.tensor_flops += 2.0 * n3;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "panel width %lld (%s); symv %s; tridiagonal by %s; TensorE in %s", static_cast<long long>(p.nb),
                std::getenv("TRNSOLVER_SYTRD_NB") != nullptr ? "TRNSOLVER_SYTRD_NB" : "default",
                p.host_symv ? "on the host in fp64 (an Ozaki GEMV's host steps cost ~40x its flops)"
                            : "on TensorE (trnblas, fp32)",
                kind != 'e' ? "-" : vectors ? "divide and conquer (QL leaves, fp64 secular equations on the host)"
                                            : "implicit QL on the host (fp64, O(n^2))",
                blas::gemm_mode_name(p.mode));
  p.why = buf;
  return p;
}

std::string SyevdPlan::print() const {
  PlanFacts f;
  f.routine = routine;
  f.shape = "n=" + std::to_string(n) + (vectors ? " vectors" : " values");
  f.variant = "blocked Householder tridiagonalization (nb " + std::to_string(nb) + "), divide and conquer (leaf " +
              std::to_string(leaf) + ", " + std::to_string(levels) + " merge levels), compact-WY back-transformation";
  char buf[160];
  std::snprintf(buf, sizeof buf, "host %.3g flops, TensorE %.3g flops (%s)", host_flops, tensor_flops,
                blas::gemm_mode_name(mode));
  f.ops = buf;
  f.engines = "TensorE (symv, syr2k, merge GEMMs, ormqr), host CPU (panel corrections, QL, secular equations), DMA";
  f.predicted_ns = predicted_ns.get();
  if (f.predicted_ns >= 0) f.ops += "; the time assumes a random symmetric matrix's deflation (the call on one)";
  f.why = why;
  return f.print();
}
static_assert(trn::Plan<SyevdPlan>);

std::int64_t syevd_workspace(char kind, std::int64_t n, bool vectors) {
  if (n > (std::int64_t{1} << 30)) return std::numeric_limits<std::int64_t>::max();  // no overflow below
  switch (kind) {
    case 'e': return vectors ? 1 + 6 * n + 2 * n * n : 2 * n + 1;  // LAPACK xSYEVD's lwork
    case 't': return std::max<std::int64_t>(1, n * sytrd_panel_width());
    default: return std::max<std::int64_t>(1, n * sytrd_panel_width());
  }
}

int syevd(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, float* W,
          CallReport* report) {
  return syevd_impl(s, vectors, EigSelect{}, uplo, n, A, lda, nullptr, W, report);
}
int syevd(const Settings& s, bool vectors, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, double* W,
          CallReport* report) {
  return syevd_impl(s, vectors, EigSelect{}, uplo, n, A, lda, nullptr, W, report);
}
int syevdx(const Settings& s, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, float* A,
           std::int64_t lda, std::int64_t* meig, float* W, CallReport* report) {
  return syevd_impl(s, vectors, sel, uplo, n, A, lda, meig, W, report);
}
int syevdx(const Settings& s, bool vectors, const EigSelect& sel, Uplo uplo, std::int64_t n, double* A,
           std::int64_t lda, std::int64_t* meig, double* W, CallReport* report) {
  return syevd_impl(s, vectors, sel, uplo, n, A, lda, meig, W, report);
}

}  // namespace trn::solver
