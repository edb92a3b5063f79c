// The SVD family on gebrd/orgbr, the QR drivers and the eigensolvers (docs/trnsolver.md "SVD family"):
//
//   gesvd (C, Z)  gebrd (A = Q B P^H, B real upper bidiagonal), the real n x n SVD of B by gesvd's
//                 one-sided Jacobi (Demmel & Veselic 1992: relative accuracy on the bidiagonal; fp32
//                 for C on the engines, fp64 for Z), then U = Q U_B and V^H = V_B^T P^H by ungbr and
//                 4M complex GEMMs on TensorE. A complex one-sided Jacobi would need complex rotations
//                 in gesvdj's kernels; this route reuses what exists and is as accurate as xGESVD.
//   gesvda        cuSOLVER's approximate batched SVD (its own is a Gram-matrix method); here the exact
//                 SVD (gesvd) truncated to the rank leading triplets, so it is at least as accurate,
//                 and the residual ||A - U_r S_r V_r^H||_F by one GEMM on TensorE and an fp64 norm.
//   gesvdp        QDWH polar decomposition A = U_p H (Nakatsukasa, Bai & Gygi, SIMAX 31(5), 2010;
//                 Nakatsukasa & Higham, SISC 35(3), 2013), every iteration the QR-based form
//                 [sqrt(c) X; I] = [Q1; Q2] R, X <- (b/c) X + (a - b/c)/sqrt(c) Q1 Q2^H (geqrf, orgqr and
//                 one GEMM: all TensorE block reflectors), dynamic weights (a, b, c) from the lower
//                 bound l of sigma_min(X), l_0 = u, stopped when l > 1 - 10u and ||X_k - X_{k-1}||_F <=
//                 (5u)^(1/3) (Nakatsukasa & Higham's test), at most kQdwhMaxIter iterations; then H = U_p^H A
//                 (GEMM), H = V diag(lambda) V^H (syevd / heevd), U = U_p V. h_err_sigma is the size of
//                 the perturbation that makes H positive semidefinite: max(0, -lambda_min) (0 unless
//                 a singular value is close to zero, as cuSOLVER documents).
//   gesvdr        randomized SVD (Halko, Martinsson & Tropp, SIAM Review 53(2), 2011, Algorithms 4.4
//                 and 5.1): Y = A Omega (n x (k + p) test matrix from a counter-based generator),
//                 niters power iterations re-orthonormalised by QR each half step, B = Q^H A, the
//                 small SVD of B^H by gesvd, U = Q V_B, V = U_B. Omega(i, j) is uniform in [-1, 1)
//                 from SplitMix64 (Steele, Lea & Flood, OOPSLA 2014) of the counter 2 (i + n j) + part
//                 (part 1: imaginary): deterministic, no dependency on trnrand (layering).
#include <algorithm>
#include <optional>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>
#include <vector>

#include "trn/core/for_each_scalar.hpp"
#include "svd_internal.hpp"
#include "syevj_internal.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scratch.hpp"
#include "trn/solver/eig.hpp"
#include "trn/solver/qr.hpp"
#include "trn/solver/svd.hpp"

namespace trn::solver {
namespace {

using detail::cj;
using detail::kOpFlops;
using detail::kRealType;
using detail::SubCalls;

using detail::require;

// Every temporary here that a trace records is a ScratchVector: from the scratch stack
// (trn/core/scratch.hpp), so the trace names it by allocation whatever the heap did before. On the
// heap, temporaries reused one another's freed bytes (false dependencies in the cost model), and which
// did moved with malloc's history: cgesvd 128 x 96 modeled 10.776 or 10.755 ms on trn1 between
// identical bench runs (docs/trnsolver.md "Session 24, heap-dependent modeled time"). gesvdp's
// temporaries moved first (Session 24): on the heap their addresses' order moved between calls, so
// Xgesvdp never hit the schedule memo; now repeated calls on the same caller buffers do from the
// third on (docs/cost-model.md "Per-call cost").
template <class T>
using Vec = ScratchVector<T>;
inline std::size_t sz(std::int64_t n) { return static_cast<std::size_t>(n); }

// dst (rows x cols, ldd) = src (lds), optionally conjugate-transposed (src cols x rows); a recorded move.
template <class T>
void copy_into(SubCalls& sub, const char* name, std::int64_t rows, std::int64_t cols, const T* src, std::int64_t lds,
               T* dst, std::int64_t ldd, bool adjoint = false) {
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) dst[i + j * ldd] = adjoint ? cj(src[j + i * lds]) : src[i + j * lds];
  if (rows > 0 && cols > 0)
    record_host_step(sub.trace, HostStep{.name = name, .flops = 0,
                                         .reads = {adjoint ? HostSpan::matrix(src, cols, rows, lds)
                                                           : HostSpan::matrix(src, rows, cols, lds)},
                                         .writes = {HostSpan::matrix(dst, rows, cols, ldd)}});
}

// ||X||_F (rows x cols, ld) in fp64 on the host, a recorded step.
template <class T>
double frobenius(SubCalls& sub, const char* name, std::int64_t rows, std::int64_t cols, const T* X, std::int64_t ld) {
  long double acc = 0;
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) acc += static_cast<long double>(std::norm(std::complex<double>(X[i + j * ld])));
  const double flops = 0.5 * kOpFlops<T> * static_cast<double>(rows * cols);
  sub.fp64_flops += flops;
  record_host_step(sub.trace, HostStep{.name = name, .flops = flops, .reads = {HostSpan::matrix(X, rows, cols, ld)},
                                       .writes = {}});
  return static_cast<double>(std::sqrt(acc));
}

// Q of the m x l matrix Y (ld m) in place: geqrf + orgqr (TensorE block reflectors).
template <class T>
void orthonormalise(const Settings& s, SubCalls& sub, std::int64_t m, std::int64_t l, T* Y) {
  ScratchVector<T> tau(sz(l));
  detail::SubCallReport guard;  // the sub-call's trace joins this call's, modeled once
  CallReport& r = guard.report;
  geqrf(s, m, l, Y, m, tau.data(), &r);
  sub.absorb(r);
  orgqr(s, m, l, l, Y, m, tau.data(), &r);
  sub.absorb(r);
}

template <class T, class R>
int gesvd_any(const Settings& s, char ju, char jv, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, R* S, T* U,
              std::int64_t ldu, T* VT, std::int64_t ldvt, SubCalls& sub) {
  detail::SubCallReport guard;  // the sub-call's trace joins this call's, modeled once
  CallReport& r = guard.report;
  const int info = gesvd(s, ju, jv, m, n, A, lda, S, U, ldu, VT, ldvt, &r);
  sub.absorb(r);
  return info;
}

// ---- complex gesvd ------------------------------------------------------------------------------------

// U = Q U_B (jobu 'A': Q's remaining columns too) into dst (ld), Q from ungbr of gebrd's reflectors ab.
template <class T, class R>
void left_vectors(const Settings& s, SubCalls& sub, char jobu, std::int64_t m, std::int64_t n, const Vec<T>& ab,
                  const T* tauq, const Vec<R>& ub, T* dst, std::int64_t ld) {
  const std::int64_t qc = jobu == 'A' ? m : n;
  Vec<T> q(sz(m * qc), T(0)), ubc(ub.begin(), ub.end());
  copy_into(sub, "trnsolver.gesvd.reflectors_q", m, n, ab.data(), m, q.data(), m);
  detail::SubCallReport guard;  // the sub-call's trace joins this call's, modeled once
  CallReport& r = guard.report;
  orgbr(s, 'Q', m, qc, n, q.data(), m, tauq, &r);
  sub.absorb(r);
  detail::qr_gemm(s, 'N', 'N', m, n, n, T(1), q.data(), m, ubc.data(), n, T(0), dst, ld, sub.trace);
  if (qc > n) copy_into(sub, "trnsolver.gesvd.u_rest", m, qc - n, q.data() + n * m, m, dst + n * ld, ld);
}

template <class T, class R>
int gesvd_complex(const Settings& s, char jobu, char jobvt, std::int64_t m, std::int64_t n, T* A, std::int64_t lda,
                  R* S, T* U, std::int64_t ldu, T* VT, std::int64_t ldvt, CallReport* report) {
  const auto job_ok = [](char j) { return j == 'A' || j == 'S' || j == 'O' || j == 'N'; };
  require(job_ok(jobu) && job_ok(jobvt) && !(jobu == 'O' && jobvt == 'O'), "gesvd", "jobu, jobvt in A S O N");
  require(m >= n && n >= 0 && lda >= std::max<std::int64_t>(1, m) && (n == 0 || (A != nullptr && S != nullptr)),
          "gesvd", "m >= n >= 0, lda >= max(1, m)");
  require(!(jobu == 'A' || jobu == 'S') || (ldu >= std::max<std::int64_t>(1, m) && U != nullptr), "gesvd", "ldu >= m");
  require(!(jobvt == 'A' || jobvt == 'S') || (ldvt >= std::max<std::int64_t>(1, n) && VT != nullptr), "gesvd",
          "ldvt >= n");
  if (report != nullptr) *report = CallReport{};
  if (n == 0) return 0;
  SubCalls sub;
  Vec<T> ab(sz(m * n)), tauq(sz(n)), taup(sz(n));
  Vec<R> d(sz(n)), e(sz(n), R(0)), b(sz(n * n), R(0));
  copy_into(sub, "trnsolver.gesvd.copy_a", m, n, A, lda, ab.data(), m);
  // The sub-calls' traces join this call's, modeled once; the guard ends before this call's finish
  // (which is itself a sub-call's when the caller's report is one).
  std::optional<detail::SubCallReport> guard(std::in_place);
  CallReport& r = guard->report;
  gebrd(s, m, n, ab.data(), m, d.data(), e.data(), tauq.data(), taup.data(), &r);
  sub.absorb(r);
  for (std::int64_t i = 0; i < n; ++i) {
    b[sz(i + i * n)] = d[sz(i)];
    if (i + 1 < n) b[sz(i + (i + 1) * n)] = e[sz(i)];
  }
  record_host_step(sub.trace, HostStep{.name = "trnsolver.gesvd.bidiagonal", .flops = 0,
                                       .reads = {HostSpan(d.data(), n), HostSpan(e.data(), n)},
                                       .writes = {HostSpan(b.data(), n * n)}});
  const bool wu = jobu != 'N', wv = jobvt != 'N';
  Vec<R> ub(wu ? sz(n * n) : 0), vbt(wv ? sz(n * n) : 0);
  const int info = gesvd_any(s, wu ? 'S' : 'N', wv ? 'S' : 'N', n, n, b.data(), n, S, wu ? ub.data() : nullptr, n,
                             wv ? vbt.data() : nullptr, n, sub);
  if (wu) left_vectors(s, sub, jobu, m, n, ab, tauq.data(), ub, jobu == 'O' ? A : U, jobu == 'O' ? lda : ldu);
  if (wv) {  // V^H = V_B^T P^H
    Vec<T> p(sz(n * n)), vbc(vbt.begin(), vbt.end());
    copy_into(sub, "trnsolver.gesvd.reflectors_p", n, n, ab.data(), m, p.data(), n);
    orgbr(s, 'P', n, n, n, p.data(), n, taup.data(), &r);
    sub.absorb(r);
    detail::qr_gemm(s, 'N', 'N', n, n, n, T(1), vbc.data(), n, p.data(), n, T(0), jobvt == 'O' ? A : VT,
                    jobvt == 'O' ? lda : ldvt, sub.trace);
  }
  guard.reset();
  detail::finish_fp64_report(report, std::move(sub.trace), s.target, sub.fp64_flops);
  return info;
}

// ---- gesvda -------------------------------------------------------------------------------------------

template <class T, class R>
int gesvda_impl(const Settings& s, bool vectors, std::int64_t rank, std::int64_t m, std::int64_t n, const T* A,
                std::int64_t lda, R* S, T* U, std::int64_t ldu, T* V, std::int64_t ldv, double* residual,
                CallReport* report) {
  require(m >= n && rank >= 1 && rank <= n && lda >= std::max<std::int64_t>(1, m) && A != nullptr && S != nullptr &&
              residual != nullptr,
          "gesvda", "m >= n >= rank >= 1, lda >= max(1, m), A, S, residual not NULL");
  require(!vectors || (U != nullptr && V != nullptr && ldu >= m && ldv >= n), "gesvda", "U, V, ldu >= m, ldv >= n");
  if (report != nullptr) *report = CallReport{};
  SubCalls sub;
  Vec<T> a(sz(m * n)), u(sz(m * n)), vt(sz(n * n));
  Vec<R> sf(sz(n));
  copy_into(sub, "trnsolver.gesvda.copy_a", m, n, A, lda, a.data(), m);
  const int info = gesvd_any(s, 'S', 'S', m, n, a.data(), m, sf.data(), u.data(), m, vt.data(), n, sub);
  // Residual: W = U_r S_r (host scaling), A - W V_r^H by one GEMM, its Frobenius norm in fp64.
  Vec<T> w(sz(m * rank));
  for (std::int64_t j = 0; j < rank; ++j)
    for (std::int64_t i = 0; i < m; ++i) w[sz(i + j * m)] = u[sz(i + j * m)] * sf[sz(j)];
  record_host_step(sub.trace, HostStep{.name = "trnsolver.gesvda.scale_u",
                                       .flops = 0.5 * kOpFlops<T> * static_cast<double>(m * rank),
                                       .reads = {HostSpan(u.data(), m * rank)}, .writes = {HostSpan(w.data(), m * rank)}});
  copy_into(sub, "trnsolver.gesvda.copy_a", m, n, A, lda, a.data(), m);
  detail::qr_gemm(s, 'N', 'N', m, n, rank, T(-1), w.data(), m, vt.data(), n, T(1), a.data(), m, sub.trace);
  *residual = frobenius(sub, "trnsolver.gesvda.residual_norm", m, n, a.data(), m);
  std::copy(sf.begin(), sf.begin() + rank, S);
  if (vectors) {
    copy_into(sub, "trnsolver.gesvda.u", m, rank, u.data(), m, U, ldu);
    copy_into(sub, "trnsolver.gesvda.v", n, rank, vt.data(), n, V, ldv, true);
  }
  detail::finish_fp64_report(report, std::move(sub.trace), s.target, sub.fp64_flops);
  return info;
}

// ---- gesvdp ---------------------------------------------------------------------------------------------

// X (rows x cols, ld) *= f, a recorded host step.
template <class T>
void scale(SubCalls& sub, const char* name, std::int64_t rows, std::int64_t cols, T* X, std::int64_t ld, T f) {
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) X[i + j * ld] *= f;
  const HostSpan x = HostSpan::matrix(X, rows, cols, ld);
  record_host_step(sub.trace, HostStep{.name = name, .flops = 0.5 * kOpFlops<T> * static_cast<double>(rows * cols),
                                       .reads = {x}, .writes = {x}});
}

// QDWH's dynamic weights for the lower bound l (Nakatsukasa, Bai & Gygi 2010, (3.3)-(3.4)), in fp64.
struct QdwhWeights {
  double a, b, c;
};
QdwhWeights qdwh_weights(double l) {
  const double l2 = l * l, g = std::cbrt(4.0 * (1.0 - l2) / (l2 * l2)), sg = std::sqrt(1.0 + g);
  const double a = sg + 0.5 * std::sqrt(8.0 - 4.0 * g + 8.0 * (2.0 - l2) / (l2 * sg));
  const double b = (a - 1.0) * (a - 1.0) / 4.0;
  return {a, b, a + b - 1.0};
}

// The polar factor of the m x n (m >= n) matrix X (ld m), in place, by QR-based QDWH. Returns 0, or 1
// when X is not finite; `iters` the iterations run (at most kQdwhMaxIter).
template <class T>
int qdwh(const Settings& s, SubCalls& sub, std::int64_t m, std::int64_t n, T* X, int& iters) {
  using R = decltype(detail::real_part(T{}));
  const double u = std::numeric_limits<R>::epsilon(), tol = std::cbrt(5.0 * u);
  const double alpha = frobenius(sub, "trnsolver.gesvdp.norm", m, n, X, m);
  iters = 0;
  if (!std::isfinite(alpha)) return 1;
  if (alpha == 0) return 0;  // X = 0: U_p is completed by the final QR
  scale(sub, "trnsolver.gesvdp.scale", m, n, X, m, T(static_cast<R>(1.0 / alpha)));
  const std::int64_t mn = m + n;
  ScratchVector<T> w(sz(mn * n)), old(sz(m * n)), tau(sz(n));
  double l = u;
  while (iters < kQdwhMaxIter) {
    const QdwhWeights q = qdwh_weights(l);
    const R sc = static_cast<R>(std::sqrt(q.c));
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t i = 0; i < m; ++i) w[sz(i + j * mn)] = X[i + j * m] * sc;
      for (std::int64_t i = 0; i < n; ++i) w[sz(m + i + j * mn)] = T(i == j ? 1 : 0);
    }
    record_host_step(sub.trace, HostStep{.name = "trnsolver.gesvdp.stack", .flops = 0.5 * kOpFlops<T> * static_cast<double>(m * n),
                                         .reads = {HostSpan(X, m * n)}, .writes = {HostSpan(w.data(), mn * n)}});
    orthonormalise(s, sub, mn, n, w.data());
    copy_into(sub, "trnsolver.gesvdp.keep", m, n, X, m, old.data(), m);
    scale(sub, "trnsolver.gesvdp.scale", m, n, X, m, T(static_cast<R>(q.b / q.c)));
    detail::qr_gemm(s, 'N', 'C', m, n, n, T(static_cast<R>((q.a - q.b / q.c) / std::sqrt(q.c))), w.data(), mn,
                    w.data() + m, mn, T(1), X, m, sub.trace);
    ++iters;
    for (std::size_t i = 0; i < old.size(); ++i) old[i] -= X[i];
    const double diff = frobenius(sub, "trnsolver.gesvdp.step", m, n, old.data(), m);
    l = std::min(1.0, l * (q.a + q.b * l * l) / (1.0 + q.c * l * l));
    if (!std::isfinite(diff)) return 1;
    if (1.0 - l <= 10.0 * u && diff <= tol) return 0;
  }
  // Not converged within kQdwhMaxIter: only directions of singular values below about u ||A|| still
  // move (a rank-deficient A); their eigenvalues of H are ~0 and the final QR of U orthonormalises them.
  return 0;
}

template <class T, class R>
int hermitian_eig(const Settings& s, SubCalls& sub, bool vectors, std::int64_t n, T* H, R* W) {
  detail::SubCallReport guard;  // the sub-call's trace joins this call's, modeled once
  CallReport& r = guard.report;
  int info = 0;
  if constexpr (kRealType<T>) info = syevd(s, vectors, Uplo::lower, n, H, n, W, &r);
  else info = heevd(s, vectors, Uplo::lower, n, H, n, W, &r);
  sub.absorb(r);
  return info;
}

// U = Q D with Q R = U_p V (geqrf, orgqr to ucols columns), D the phases of R's diagonal: orthonormal
// columns (also for zero singular values, whose directions QDWH maps to 0) and the completion to m x m.
template <class T>
void orthonormal_u(const Settings& s, SubCalls& sub, std::int64_t m, std::int64_t n, std::int64_t ucols, const T* uv,
                   T* U, std::int64_t ldu) {
  using R = decltype(detail::real_part(T{}));
  ScratchVector<T> q(sz(m * ucols), T(0)), tau(sz(n)), phase(sz(n));
  copy_into(sub, "trnsolver.gesvdp.u", m, n, uv, m, q.data(), m);
  detail::SubCallReport guard;  // the sub-call's trace joins this call's, modeled once
  CallReport& r = guard.report;
  geqrf(s, m, n, q.data(), m, tau.data(), &r);
  sub.absorb(r);
  for (std::int64_t j = 0; j < n; ++j) {
    const T d = q[sz(j + j * m)];
    const R a = std::abs(d);
    phase[sz(j)] = a == R(0) ? T(1) : d / a;
  }
  orgbr(s, 'Q', m, ucols, n, q.data(), m, tau.data(), &r);
  sub.absorb(r);
  for (std::int64_t j = 0; j < ucols; ++j)
    for (std::int64_t i = 0; i < m; ++i) U[i + j * ldu] = j < n ? q[sz(i + j * m)] * phase[sz(j)] : q[sz(i + j * m)];
  record_host_step(sub.trace, HostStep{.name = "trnsolver.gesvdp.phases", .flops = 0.5 * kOpFlops<T> * static_cast<double>(m * n),
                                       .reads = {HostSpan(q.data(), m * ucols)},
                                       .writes = {HostSpan::matrix(U, m, ucols, ldu)}});
}

// gesvdp of the M x N (M >= N) matrix a (ld M): S; U (M x ucols, ldu) and V (N x N, ldv) when given.
template <class T, class R>
GesvdpResult gesvdp_tall(const Settings& s, SubCalls& sub, std::int64_t M, std::int64_t N, const T* a, R* S, T* U,
                         std::int64_t ldu, std::int64_t ucols, T* V, std::int64_t ldv) {
  GesvdpResult res;
  ScratchVector<T> x(a, a + M * N), h(sz(N * N));
  ScratchVector<R> w(sz(N));
  res.info = qdwh(s, sub, M, N, x.data(), res.iterations);
  if (res.info != 0) {
    std::fill(S, S + N, std::numeric_limits<R>::quiet_NaN());
    return res;
  }
  detail::qr_gemm(s, 'C', 'N', N, N, M, T(1), x.data(), M, a, M, T(0), h.data(), N, sub.trace);
  for (std::int64_t j = 0; j < N; ++j)  // H = (H + H^H) / 2, the lower triangle the eigensolver reads
    for (std::int64_t i = j; i < N; ++i) h[sz(i + j * N)] = (h[sz(i + j * N)] + detail::cj(h[sz(j + i * N)])) * R(0.5);
  record_host_step(sub.trace, HostStep{.name = "trnsolver.gesvdp.symmetrize", .flops = kOpFlops<T> * static_cast<double>(N * N) / 2,
                                       .reads = {HostSpan(h.data(), N * N)}, .writes = {HostSpan(h.data(), N * N)}});
  const bool vectors = U != nullptr;
  res.info = hermitian_eig(s, sub, vectors, N, h.data(), w.data());
  if (res.info != 0) return res;
  // Descending order: sigma_i = max(lambda, 0), V's columns reversed; err_sigma the clamp's size.
  ScratchVector<T> vr(vectors ? sz(N * N) : 0);
  for (std::int64_t j = 0; j < N; ++j) {
    const R lam = w[sz(N - 1 - j)];
    S[j] = std::max(lam, R(0));
    res.err_sigma = std::max(res.err_sigma, -static_cast<double>(lam));
    if (vectors) std::copy(h.begin() + (N - 1 - j) * N, h.begin() + (N - j) * N, vr.begin() + j * N);
  }
  record_host_step(sub.trace, HostStep{.name = "trnsolver.gesvdp.order", .flops = 0, .reads = {HostSpan(w.data(), N)},
                                       .writes = {HostSpan(S, N), HostSpan(vr.data(), vectors ? N * N : 0)}});
  if (!vectors) return res;
  copy_into(sub, "trnsolver.gesvdp.v", N, N, vr.data(), N, V, ldv);
  ScratchVector<T> uv(sz(M * N));
  detail::qr_gemm(s, 'N', 'N', M, N, N, T(1), x.data(), M, vr.data(), N, T(0), uv.data(), M, sub.trace);
  orthonormal_u(s, sub, M, N, ucols, uv.data(), U, ldu);
  return res;
}

template <class T, class R>
GesvdpResult gesvdp_impl(const Settings& s, bool vectors, bool econ, std::int64_t m, std::int64_t n, const T* A,
                         std::int64_t lda, R* S, T* U, std::int64_t ldu, T* V, std::int64_t ldv, CallReport* report) {
  const std::int64_t k = std::min(m, n), uc = econ ? k : m, vc = econ ? k : n;
  require(m >= 0 && n >= 0 && lda >= std::max<std::int64_t>(1, m) && (k == 0 || (A != nullptr && S != nullptr)),
          "gesvdp", "m, n >= 0, lda >= max(1, m), A, S not NULL");
  require(!vectors || k == 0 || (U != nullptr && V != nullptr && ldu >= std::max<std::int64_t>(1, m) &&
                                 ldv >= std::max<std::int64_t>(1, n)),
          "gesvdp", "U, V not NULL, ldu >= max(1, m), ldv >= max(1, n)");
  if (report != nullptr) *report = CallReport{};
  GesvdpResult res;
  if (k == 0) return res;
  SubCalls sub;
  ScratchVector<T> a(sz(m * n));
  if (m >= n) {
    copy_into(sub, "trnsolver.gesvdp.copy_a", m, n, A, lda, a.data(), m);
    res = gesvdp_tall(s, sub, m, n, a.data(), S, vectors ? U : nullptr, ldu, uc, V, ldv);
  } else {  // A^H = V S U^H: the tall problem's U is V, its V is U
    copy_into(sub, "trnsolver.gesvdp.copy_a", n, m, A, lda, a.data(), n, true);
    res = gesvdp_tall(s, sub, n, m, a.data(), S, vectors ? V : nullptr, ldv, vc, U, ldu);
  }
  detail::finish_fp64_report(report, std::move(sub.trace), s.target, sub.fp64_flops);
  return res;
}

// ---- gesvdr ---------------------------------------------------------------------------------------------

// Omega(i, j) part (0 real, 1 imaginary) in [-1, 1): SplitMix64 of the counter 2 (i + rows j) + part.
double test_entry(std::uint64_t counter) {
  std::uint64_t z = (counter + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1p-52 - 1.0;
}

template <class T>
Vec<T> test_matrix(SubCalls& sub, std::int64_t rows, std::int64_t cols) {
  using R = decltype(detail::real_part(T{}));
  Vec<T> o(sz(rows * cols));
  for (std::int64_t i = 0; i < rows * cols; ++i) {
    const auto c = static_cast<std::uint64_t>(2 * i);
    if constexpr (kRealType<T>) o[sz(i)] = static_cast<T>(test_entry(c));
    else o[sz(i)] = T(static_cast<R>(test_entry(c)), static_cast<R>(test_entry(c + 1)));
  }
  record_host_step(sub.trace, HostStep{.name = "trnsolver.gesvdr.test_matrix", .flops = 0, .reads = {},
                                       .writes = {HostSpan(o.data(), rows * cols)}});
  return o;
}

template <class T, class R>
int gesvdr_impl(const Settings& s, bool want_u, bool want_v, std::int64_t m, std::int64_t n, std::int64_t k,
                std::int64_t p, std::int64_t niters, const T* A, std::int64_t lda, R* S, T* U, std::int64_t ldu, T* V,
                std::int64_t ldv, CallReport* report) {
  const std::int64_t l = k + p;
  require(m >= 0 && n >= 0 && k >= 1 && p >= 0 && l <= std::min(m, n) && niters >= 0 &&
              lda >= std::max<std::int64_t>(1, m) && A != nullptr && S != nullptr,
          "gesvdr", "1 <= k, 0 <= p, k + p <= min(m, n), niters >= 0, lda >= max(1, m)");
  require((!want_u || (U != nullptr && ldu >= m)) && (!want_v || (V != nullptr && ldv >= n)), "gesvdr",
          "U (ldu >= m), V (ldv >= n)");
  if (report != nullptr) *report = CallReport{};
  SubCalls sub;
  const Vec<T> omega = test_matrix<T>(sub, n, l);
  Vec<T> y(sz(m * l)), z(sz(n * l));
  detail::qr_gemm(s, 'N', 'N', m, l, n, T(1), A, lda, omega.data(), n, T(0), y.data(), m, sub.trace);
  orthonormalise(s, sub, m, l, y.data());
  for (std::int64_t it = 0; it < niters; ++it) {  // Algorithm 4.4: QR after every product
    detail::qr_gemm(s, 'C', 'N', n, l, m, T(1), A, lda, y.data(), m, T(0), z.data(), n, sub.trace);
    orthonormalise(s, sub, n, l, z.data());
    detail::qr_gemm(s, 'N', 'N', m, l, n, T(1), A, lda, z.data(), n, T(0), y.data(), m, sub.trace);
    orthonormalise(s, sub, m, l, y.data());
  }
  // B^H = A^H Q (n x l) = U_B S V_B^H, so A ~ Q B = (Q V_B) S U_B^H.
  detail::qr_gemm(s, 'C', 'N', n, l, m, T(1), A, lda, y.data(), m, T(0), z.data(), n, sub.trace);
  Vec<T> ub(sz(n * l)), vbh(sz(l * l));
  Vec<R> sv(sz(l));
  const int info = gesvd_any(s, 'S', 'S', n, l, z.data(), n, sv.data(), ub.data(), n, vbh.data(), l, sub);
  std::copy(sv.begin(), sv.begin() + k, S);
  if (want_u) detail::qr_gemm(s, 'N', 'C', m, k, l, T(1), y.data(), m, vbh.data(), l, T(0), U, ldu, sub.trace);
  if (want_v) copy_into(sub, "trnsolver.gesvdr.v", n, k, ub.data(), n, V, ldv);
  detail::finish_fp64_report(report, std::move(sub.trace), s.target, sub.fp64_flops);
  return info;
}

}  // namespace

int gesvd(const Settings& s, char jobu, char jobvt, std::int64_t m, std::int64_t n, std::complex<float>* A,
          std::int64_t lda, float* S, std::complex<float>* U, std::int64_t ldu, std::complex<float>* VT,
          std::int64_t ldvt, CallReport* report) {
  return gesvd_complex(s, jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt, report);
}
int gesvd(const Settings& s, char jobu, char jobvt, std::int64_t m, std::int64_t n, std::complex<double>* A,
          std::int64_t lda, double* S, std::complex<double>* U, std::int64_t ldu, std::complex<double>* VT,
          std::int64_t ldvt, CallReport* report) {
  return gesvd_complex(s, jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt, report);
}

#define TRNSOLVER_GESVDA_DEFINE(T, R)                                                                         \
  int gesvda(const Settings& s, bool vectors, std::int64_t rank, std::int64_t m, std::int64_t n, const T* A,   \
             std::int64_t lda, R* S, T* U, std::int64_t ldu, T* V, std::int64_t ldv, double* residual,        \
             CallReport* report) {                                                                            \
    return gesvda_impl(s, vectors, rank, m, n, A, lda, S, U, ldu, V, ldv, residual, report);                  \
  }
TRN_FOR_EACH_SDCZ_REAL(TRNSOLVER_GESVDA_DEFINE)
#undef TRNSOLVER_GESVDA_DEFINE

#define TRNSOLVER_GESVDP_DEFINE(T, R)                                                                          \
  GesvdpResult gesvdp(const Settings& s, bool vectors, bool econ, std::int64_t m, std::int64_t n, const T* A,    \
                      std::int64_t lda, R* S, T* U, std::int64_t ldu, T* V, std::int64_t ldv, CallReport* report) { \
    return gesvdp_impl(s, vectors, econ, m, n, A, lda, S, U, ldu, V, ldv, report);                              \
  }                                                                                                            \
  int gesvdr(const Settings& s, bool want_u, bool want_v, std::int64_t m, std::int64_t n, std::int64_t k,        \
             std::int64_t p, std::int64_t niters, const T* A, std::int64_t lda, R* S, T* U, std::int64_t ldu, T* V, \
             std::int64_t ldv, CallReport* report) {                                                            \
    return gesvdr_impl(s, want_u, want_v, m, n, k, p, niters, A, lda, S, U, ldu, V, ldv, report);               \
  }
TRN_FOR_EACH_SDCZ_REAL(TRNSOLVER_GESVDP_DEFINE)
#undef TRNSOLVER_GESVDP_DEFINE

}  // namespace trn::solver
