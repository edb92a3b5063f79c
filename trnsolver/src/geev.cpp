// geev: eigenvalues and right eigenvectors of a general square matrix (LAPACK xGEEV's algorithm;
// Golub & Van Loan, Matrix Computations 4th ed., 7.4-7.6; cuSOLVER's cusolverDnXgeev contract).
//
//   1. Hessenberg reduction A = Q H Q^H by the blocked xGEHRD (gehrd.cpp: xLAHR2 panels of nb = 32
//      columns whose trailing updates are GEMMs on TensorE, the panels' trailing GEMVs on TensorE for
//      S/C and fp64 host steps for D/Z, the last nb + 1 columns by xGEHD2 as one host step).
//   2. Q (only with vectors) as LAPACK xORGHR does it: the reflectors shifted one column right (an
//      index move), then orgqr/ungqr on the trailing (n-1) x (n-1) block -- compact-WY block
//      reflectors whose three GEMMs per block run on TensorE (geqrf.cpp; fp32 S/C, Ozaki fp64 D/Z).
//   3. Schur form H = Z_qr T Z_qr^H by xLAHQR (geev_hqr.cpp: Francis double-shift QR for real data,
//      single-shift for complex; GVL 7.5) with Z = Q Z_qr accumulated: one recorded host step. The
//      sweeps are sequential O(n^2) scalar work (~10 n^3 flops in all), the kind of step the library
//      runs on the host (stedc's secular equations, the QR panels).
//   4. Eigenvectors X of T by back substitution (xTREVC, host step), VR = Z X by one GEMM on TensorE,
//      then each column scaled to Euclidean norm 1 with its largest component real (xGEEV's; real
//      data: a pair's two columns rotated so that the largest |v_k| has v_k real), a host step.
// Without vectors steps 2 and 4 are skipped and step 3 runs on the active block only (LAPACK's
// want_t = false). A non-finite entry in A: no step runs, W (and VR) NaN, info = n.
#include "trn/solver/geev.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "geev_internal.hpp"
#include "svd_internal.hpp"
#include "syevj_internal.hpp"  // detail::finish_fp64_report
#include "trn/core/host_step.hpp"
#include "trn/solver/qr.hpp"

namespace trn::solver {
namespace {

using detail::cj;
using detail::kOpFlops;
using detail::kRealType;

template <class T>
using Real = decltype(std::abs(T()));

// Where the eigenvalues go: wr/wi (real data) or w (complex data).
template <class T>
struct EigOut {
  Real<T>* wr = nullptr;
  Real<T>* wi = nullptr;
  T* w = nullptr;
  HostSpan span(std::int64_t n) const { return kRealType<T> ? HostSpan(wr, n) : HostSpan(w, n); }
  HostSpan span_im(std::int64_t n) const { return kRealType<T> ? HostSpan(wi, n) : HostSpan{}; }
};

template <class T>
int run_lahqr(bool want_t, std::int64_t n, T* H, std::int64_t ldh, const EigOut<T>& e, T* Z, double& flops) {
  if constexpr (kRealType<T>)
    return detail::lahqr(want_t, n, H, ldh, e.wr, e.wi, Z, n, flops);
  else
    return detail::lahqr(want_t, n, H, ldh, e.w, Z, n, flops);
}

// ||x||_2 of n entries, scaled by the largest magnitude.
template <class T>
Real<T> nrm2(const T* x, std::int64_t n) {
  Real<T> scale = 0, ssq = 0;
  for (std::int64_t i = 0; i < n; ++i) scale = std::max(scale, std::abs(x[i]));
  if (scale == Real<T>(0)) return 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const Real<T> v = std::abs(x[i]) / scale;
    ssq += v * v;
  }
  return scale * std::sqrt(ssq);
}

// xGEEV's normalisation of VR's columns: norm 1, the largest component real. Returns flops.
template <class T>
double normalize(std::int64_t n, T* vr, std::int64_t ldvr, const EigOut<T>& e) {
  using R = Real<T>;
  const auto col = [&](std::int64_t j) { return vr + j * ldvr; };
  const auto argmax = [&](std::int64_t j, bool pair) {
    std::int64_t k = 0;
    R best = -1;
    for (std::int64_t i = 0; i < n; ++i) {
      const R v = std::norm(col(j)[i]) + (pair ? std::norm(col(j + 1)[i]) : R(0));
      if (v > best) { best = v; k = i; }
    }
    return k;
  };
  for (std::int64_t j = 0; j < n; ++j) {
    if constexpr (kRealType<T>) {
      if (e.wi[j] == R(0)) {
        const R scl = R(1) / nrm2(col(j), n);
        for (std::int64_t i = 0; i < n; ++i) col(j)[i] *= scl;
      } else if (e.wi[j] > R(0)) {  // the pair (j, j+1): LAPACK's xLARTG + xROT zero v_k's imaginary part
        const R scl = R(1) / std::hypot(nrm2(col(j), n), nrm2(col(j + 1), n));
        for (std::int64_t i = 0; i < n; ++i) { col(j)[i] *= scl; col(j + 1)[i] *= scl; }
        const std::int64_t k = argmax(j, true);
        const R f = col(j)[k], g = col(j + 1)[k], d = std::hypot(f, g), cs = std::fabs(f) / d, r = std::copysign(d, f),
                sn = g / r;
        for (std::int64_t i = 0; i < n; ++i) {
          const R x = col(j)[i], y = col(j + 1)[i];
          col(j)[i] = cs * x + sn * y;
          col(j + 1)[i] = cs * y - sn * x;
        }
        col(j + 1)[k] = 0;
      }
    } else {
      const R scl = R(1) / nrm2(col(j), n);
      for (std::int64_t i = 0; i < n; ++i) col(j)[i] *= scl;
      const std::int64_t k = argmax(j, false);
      const T tmp = std::conj(col(j)[k]) / std::abs(col(j)[k]);
      for (std::int64_t i = 0; i < n; ++i) col(j)[i] *= tmp;
      col(j)[k] = T(col(j)[k].real());
    }
  }
  return (kRealType<T> ? 6.0 : 16.0) * static_cast<double>(n * n);
}

// A non-finite entry: NaN eigenvalues (and vectors); true when A is finite.
template <class T>
bool finite_or_nan(std::int64_t n, const T* A, std::int64_t lda, const EigOut<T>& e, bool vectors, T* VR,
                   std::int64_t ldvr, TraceParts& trace) {
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      if (!std::isfinite(std::abs(A[i + j * lda])) || std::isnan(std::abs(A[i + j * lda]))) {
        const Real<T> nan = std::numeric_limits<Real<T>>::quiet_NaN();
        for (std::int64_t k = 0; k < n; ++k) {
          if constexpr (kRealType<T>) { e.wr[k] = nan; e.wi[k] = nan; } else { e.w[k] = T(nan, nan); }
        }
        if (vectors)
          for (std::int64_t c = 0; c < n; ++c) std::fill(VR + c * ldvr, VR + c * ldvr + n, T(nan));
        record_host_step(trace, HostStep{.name = "trnsolver.geev.nonfinite", .flops = 0,
                                         .reads = {HostSpan::matrix(A, n, n, lda)},
                                         .writes = {e.span(n), e.span_im(n),
                                                    vectors ? HostSpan::matrix(VR, n, n, ldvr) : HostSpan{}}});
        return false;
      }
  return true;
}

// Steps 1-4 on a finite A (n > 0). Returns info; host flops (real) into `host_flops`.
template <class T>
int geev_steps(const Settings& s, bool vectors, std::int64_t n, T* A, std::int64_t lda, const EigOut<T>& e, T* VR,
               std::int64_t ldvr, detail::SubCalls& sub, double& host_flops) {
  std::vector<T> tau(static_cast<std::size_t>(n)), Z, X;
  const HostSpan a = HostSpan::matrix(A, n, n, lda);
  host_flops += detail::gehrd(s, n, A, lda, tau.data(), sub.trace);
  if (vectors) {  // Z = Q (xORGHR)
    Z.assign(static_cast<std::size_t>(n * n), T(0));
    for (std::int64_t j = 0; j < n; ++j) std::copy(A + j * lda, A + j * lda + n, Z.data() + j * n);
    detail::record_move(sub.trace, "trnsolver.geev.orghr_copy", a, HostSpan(Z.data(), n * n));
    detail::shift_reflectors('Q', n, Z.data(), n, sub.trace, "trnsolver.geev.orghr_shift");
    if (n > 1) {
      detail::SubCallReport guard;
      CallReport& r = guard.report;
      orgqr(s, n - 1, n - 1, n - 1, Z.data() + 1 + n, n, tau.data(), &r);
      sub.absorb(r);
    }
  }
  double qr_flops = 0;
  const int info = run_lahqr(vectors, n, A, lda, e, vectors ? Z.data() : nullptr, qr_flops);
  host_flops += qr_flops;
  const HostSpan z = vectors ? HostSpan(Z.data(), n * n) : HostSpan{};
  record_host_step(sub.trace, HostStep{.name = "trnsolver.geev.hqr", .flops = qr_flops, .reads = {a, z},
                                       .writes = {a, z, e.span(n), e.span_im(n)}});
  if (info != 0 || !vectors) return info;
  X.assign(static_cast<std::size_t>(n * n), T(0));
  const double trevc_flops = detail::trevc(n, A, lda, X.data(), n);
  host_flops += trevc_flops;
  record_host_step(sub.trace, HostStep{.name = "trnsolver.geev.trevc", .flops = trevc_flops, .reads = {a},
                                       .writes = {HostSpan(X.data(), n * n)}});
  detail::qr_gemm(s, 'N', 'N', n, n, n, T(1), Z.data(), n, X.data(), n, T(0), VR, ldvr, sub.trace);
  const double norm_flops = normalize(n, VR, ldvr, e);
  host_flops += norm_flops;
  const HostSpan vr = HostSpan::matrix(VR, n, n, ldvr);
  record_host_step(sub.trace, HostStep{.name = "trnsolver.geev.normalize", .flops = norm_flops,
                                       .reads = {vr, e.span_im(n)}, .writes = {vr}});
  return 0;
}

template <class T>
int geev_impl(const Settings& s, bool vectors, std::int64_t n, T* A, std::int64_t lda, const EigOut<T>& e, T* VR,
              std::int64_t ldvr, CallReport* report) {
  const bool out = kRealType<T> ? e.wr != nullptr && e.wi != nullptr : e.w != nullptr;
  detail::require(n >= 0 && lda >= std::max<std::int64_t>(1, n) && (n == 0 || (A != nullptr && out)) &&
                      (!vectors || (ldvr >= std::max<std::int64_t>(1, n) && (n == 0 || VR != nullptr))),
                  "geev", "n >= 0, lda >= max(1, n), ldvr >= max(1, n) with vectors; A, W, VR not NULL");
  if (report != nullptr) *report = CallReport{};
  detail::SubCalls sub;
  double host_flops = 0;
  int info = 0;
  if (n > 0 && finite_or_nan(n, A, lda, e, vectors, VR, ldvr, sub.trace))
    info = geev_steps(s, vectors, n, A, lda, e, VR, ldvr, sub, host_flops);
  else if (n > 0)
    info = static_cast<int>(n);
  detail::finish_fp64_report(report, std::move(sub.trace), s.target,
                             sub.fp64_flops + (detail::kFp64Type<T> ? host_flops : 0.0));
  if (report != nullptr) report->add_plan(plan_geev(detail::precision_prefix<T>(), n, vectors));
  return info;
}

}  // namespace

// The Hessenberg reduction's real flops of columns [c0, c1) (xGEHD2's count per column i: the right
// reflector on n x (n-i-1), the left one on (n-i-1) x (n-i-1), 2 x 2 flops per entry; 10/3 n^3 in all).
static double hessenberg_flops(std::int64_t n, std::int64_t c0, std::int64_t c1) {
  double f = 0;
  for (std::int64_t i = c0; i < c1; ++i) {
    const auto r = static_cast<double>(n - i - 1);
    f += 4.0 * static_cast<double>(n) * r + 4.0 * r * r;
  }
  return f;
}

GeevPlan plan_geev(char prefix, std::int64_t n, bool vectors) {
  GeevPlan p;
  const bool cplx = prefix == 'c' || prefix == 'z', fp64 = prefix == 'd' || prefix == 'z';
  p.routine = std::string(1, prefix) + "geev";
  p.n = n;
  p.vectors = vectors;
  p.gehrd_nb = detail::gehrd_panel_width();
  p.gehrd_blocked = detail::gehrd_blocked_columns(prefix, n);
  const double f = cplx ? 4.0 : 1.0, nn = static_cast<double>(n), n3 = nn * nn * nn;
  // Blocked columns: half their flops (the panels' GEMVs) on the host for D/Z, all on TensorE for S/C.
  const double blocked = f * hessenberg_flops(n, 0, p.gehrd_blocked), host_share = fp64 ? 0.5 : 0.0;
  p.host_flops = f * hessenberg_flops(n, p.gehrd_blocked, n) + host_share * blocked +
                 f * ((vectors ? 10.0 : 4.0) * n3 + (vectors ? n3 / 3.0 : 0.0));
  p.gemm_flops = (1.0 - host_share) * blocked;
  if (vectors && n > 1) p.gemm_flops += plan_qr(prefix, 'g', n - 1, n - 1, n - 1).gemm_flops + f * 2.0 * n3;
  p.why = std::string("Hessenberg reduction: ") +
          (p.gehrd_blocked > 0 ? "xLAHR2 panels of " + std::to_string(p.gehrd_nb) + " columns on the first " +
                                     std::to_string(p.gehrd_blocked) + " (trailing GEMMs on TensorE, the panels' GEMVs " +
                                     (fp64 ? "fp64 host steps" : "on TensorE") + "), then "
                               : std::string("below the crossover (S/C: 64 columns; D/Z: Ozaki updates with k = nb "
                                             "lose to the host step), ")) +
          "xGEHD2 as one host step; the QR iteration (xLAHQR, ~10 n^3 flops estimated) as host steps in the "
          "working precision" +
          (vectors ? std::string("; Q by orgqr block reflectors and VR = Z X by a ") +
                         (fp64 ? "Ozaki fp64" : "fp32") + (cplx ? " 4M complex" : "") + " GEMM on TensorE"
                   : std::string(p.gehrd_blocked > 0 ? "" : "; eigenvalues only: no TensorE step"));
  return p;
}

std::string GeevPlan::print() const {
  PlanFacts f;
  f.routine = routine;
  f.shape = "n=" + std::to_string(n) + (vectors ? " right vectors" : " eigenvalues only");
  f.variant = (gehrd_blocked > 0 ? "blocked Householder Hessenberg (nb " + std::to_string(gehrd_nb) + ", " +
                                       std::to_string(gehrd_blocked) + " columns by panels)"
                                 : std::string("unblocked Householder Hessenberg")) +
              ", Francis QR, back substitution";
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "host %.3g flops (gehd2, QR sweeps, trevc), TensorE %.3g flops (gehrd panels, orghr, VR = Z X)",
                host_flops, gemm_flops);
  f.ops = buf;
  f.engines = vectors || gehrd_blocked > 0 ? "host CPU, TensorE (GEMMs), VectorE, DMA" : "host CPU";
  f.predicted_ns = predicted_ns;
  f.why = why;
  return f.print();
}
static_assert(trn::Plan<GeevPlan>);

std::int64_t geev_device_workspace(char prefix, std::int64_t n, bool vectors) {
  const std::int64_t orghr = vectors && n > 1 ? qr_workspace(prefix, 'g', n - 1, n - 1, n - 1) : 0;
  return std::max<std::int64_t>(1, n + (vectors ? 2 * n * n + orghr : 0));
}

std::int64_t geev_host_workspace_bytes(char prefix, std::int64_t n, bool vectors) {
  const std::int64_t elem = prefix == 's' ? 4 : prefix == 'd' || prefix == 'c' ? 8 : 16;
  return elem * ((vectors ? 3 : 1) * n * n + 2 * n);  // H (and Z, X), the eigenvalues
}

int geev(const Settings& s, bool vectors, std::int64_t n, float* A, std::int64_t lda, float* wr, float* wi, float* VR,
         std::int64_t ldvr, CallReport* report) {
  return geev_impl<float>(s, vectors, n, A, lda, {wr, wi, nullptr}, VR, ldvr, report);
}
int geev(const Settings& s, bool vectors, std::int64_t n, double* A, std::int64_t lda, double* wr, double* wi,
         double* VR, std::int64_t ldvr, CallReport* report) {
  return geev_impl<double>(s, vectors, n, A, lda, {wr, wi, nullptr}, VR, ldvr, report);
}
int geev(const Settings& s, bool vectors, std::int64_t n, std::complex<float>* A, std::int64_t lda,
         std::complex<float>* W, std::complex<float>* VR, std::int64_t ldvr, CallReport* report) {
  return geev_impl<std::complex<float>>(s, vectors, n, A, lda, {nullptr, nullptr, W}, VR, ldvr, report);
}
int geev(const Settings& s, bool vectors, std::int64_t n, std::complex<double>* A, std::int64_t lda,
         std::complex<double>* W, std::complex<double>* VR, std::int64_t ldvr, CallReport* report) {
  return geev_impl<std::complex<double>>(s, vectors, n, A, lda, {nullptr, nullptr, W}, VR, ldvr, report);
}

}  // namespace trn::solver
