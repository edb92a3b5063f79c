// gehrd: blocked Householder reduction to upper Hessenberg form, A = Q H Q^H, for geev (LAPACK xGEHRD
// with xLAHR2's panel; Quintana-Orti & van de Geijn, "Improving the performance of reduction to
// Hessenberg form", ACM TOMS 32, 2006, the algorithm of LAPACK 3.1's xLAHR2; Golub & Van Loan, Matrix
// Computations 4th ed., 7.4.3).
//
// Algorithm (ilo = 1, ihi = n): panels of nb columns. Panel at column c (k = c + 1 rows above its first
// reflector's unit entry), column j of the panel:
//   host step  column j brought up to date with the panel's earlier reflectors (b -= Y V^H-row, then
//              b = (I - V T^H V^H) b by xLAHR2's three small triangular products), xLARFG's reflector,
//              and the corrections of Y(k:n, j) and T(0:j, j): O(n nb) work in the working precision
//   TensorE    Y(k:n, j) = A(k:n, j+1:) v (detail::panel_gemv: trnblas gemv fp32 for S/C; an fp64 host
//              step for D/Z, sytrd.cpp's precedent)
// then per panel, on TensorE (qr_gemm: fp32 S, 4M C, Ozaki D/Z):
//   Y(0:k, :) = A(0:k, c+1:n) V T             two GEMMs (xLAHR2's TRMM/GEMM/TRMM with V and T as dense
//                                              blocks: their zero triangles are a few nb^2 extra flops)
//   A(0:n, c+nb:n) -= Y V(nb-1:, :)^H         xGEHRD's right update, one GEMM
//   A(0:k, c+1:c+nb) -= Y(0:k, :nb-1) V1^H    the right update of the panel's own top rows, one GEMM
//   A(c+1:n, c+nb:n) = Q_panel^H A(...)       the left update by ormqr/unmqr's compact-WY block
//                                              reflector (three GEMMs, geqrf.cpp)
// The last columns (n - c <= nb + 1) run xGEHD2 as one host step (O(n nb^2), LAPACK's crossover NX = nb).
// Output storage exactly xGEHRD's: H on and above the subdiagonal, reflector i in A(i+2:n, i), tau.
// Accuracy: backward stable, ||A - Q H Q^H|| / ||A|| <= c n u (GVL 7.4.3); geev's tests bound it with c = 16.
// Engines: TensorE (the GEMMs above; S/C panel GEMVs), host (panel steps; D/Z GEMVs; the xGEHD2 tail).
// Limits: ilo = 1, ihi = n only (geev does not balance); the crossover nx (gehrd_crossover) keeps D/Z and
// S/C with n <= 66 on xGEHD2 alone, which the cost model says is faster.
#include <algorithm>
#include <complex>
#include <cstdlib>
#include <vector>

#include "geev_internal.hpp"
#include "svd_internal.hpp"
#include "syevj_internal.hpp"  // detail::SubCallReport
#include "trn/core/host_step.hpp"
#include "trn/solver/qr.hpp"

namespace trn::solver::detail {
namespace {

// x = op(M) x, M the n x n triangle ('L' or 'U') at m (ld), op 'N' or 'C', unit diagonal or not
// (xTRMV's reference loops on the host). Returns multiply-adds.
template <class T>
double host_trmv(char uplo, char op, bool unit, std::int64_t n, const T* m, std::int64_t ld, T* x) {
  std::vector<T> y(static_cast<std::size_t>(n), T(0));
  const auto in_triangle = [&](std::int64_t i, std::int64_t j) { return uplo == 'L' ? i >= j : i <= j; };
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      const std::int64_t r = op == 'N' ? i : j, c = op == 'N' ? j : i;  // the entry of M in op(M)(i, j)
      if (!in_triangle(r, c)) continue;
      const T mij = r == c && unit ? T(1) : op == 'N' ? m[r + c * ld] : cj(m[r + c * ld]);
      y[static_cast<std::size_t>(i)] += mij * x[j];
    }
  std::copy(y.begin(), y.end(), x);
  return static_cast<double>(n * (n + 1) / 2);
}

// xLAHR2's panel: A (n x n, lda) with the panel's first column at column c, its nb columns; Y (n x nb,
// ld n), T (nb x nb, ld nb, upper; zero below), tau (nb).
template <class T>
struct HessPanel {
  const Settings& s;
  std::int64_t n, c, k, nb;
  T* A;
  std::int64_t lda;
  T* tau;
  std::vector<T> Y, Tm;
  TraceParts& trace;
  double host_ops = 0;
  T* a(std::int64_t i, std::int64_t j) { return A + i + (c + j) * lda; }  // panel column j
  T* y(std::int64_t i, std::int64_t j) { return Y.data() + i + j * n; }
  T* t(std::int64_t i, std::int64_t j) { return Tm.data() + i + j * nb; }
};

// xLAHR2 for j > 0: b = A(k:n, j) -= Y(k:n, 0:j) A(k+j-1, 0:j)^H, then b = (I - V T^H V^H) b (V the
// panel's j reflectors, V1 unit lower on rows k..k+j-1), the last column of T as workspace. ei is the
// subdiagonal entry that the unit of reflector j-1 covered. Returns multiply-adds.
template <class T>
double update_hess_column(HessPanel<T>& p, std::int64_t j, T ei) {
  const std::int64_t n = p.n, k = p.k;
  lacgv(j, p.a(k + j - 1, 0), p.lda);
  double ops = host_gemv('N', n - k, j, T(-1), p.y(k, 0), n, p.a(k + j - 1, 0), p.lda, T(1), p.a(k, j), 1);
  lacgv(j, p.a(k + j - 1, 0), p.lda);
  T* w = p.t(0, p.nb - 1);
  std::copy(p.a(k, j), p.a(k, j) + j, w);
  ops += host_trmv('L', 'C', true, j, p.a(k, 0), p.lda, w);
  ops += host_gemv('C', n - k - j, j, T(1), p.a(k + j, 0), p.lda, p.a(k + j, j), 1, T(1), w, 1);
  ops += host_trmv('U', 'C', false, j, p.t(0, 0), p.nb, w);
  ops += host_gemv('N', n - k - j, j, T(-1), p.a(k + j, 0), p.lda, w, 1, T(1), p.a(k + j, j), 1);
  ops += host_trmv('L', 'N', true, j, p.a(k, 0), p.lda, w);
  for (std::int64_t i = 0; i < j; ++i) *p.a(k + i, j) -= w[i];
  std::fill(w, w + j, T(0));  // T's last column is written for real when j = nb - 1
  *p.a(k + j - 1, j - 1) = ei;
  return ops + static_cast<double>(j);
}

// xLAHR2 after Y(k:n, j) = A(k:n, j+1:) v on the engine: Y(k:n, j) -= Y(k:n, 0:j) (V^H v), scaled by
// tau(j); T(0:j, j) = -tau(j) T(0:j, 0:j) (V^H v), T(j, j) = tau(j). Returns multiply-adds.
template <class T>
double finish_y_and_t(HessPanel<T>& p, std::int64_t j) {
  const std::int64_t n = p.n, k = p.k;
  double ops = host_gemv('C', n - k - j, j, T(1), p.a(k + j, 0), p.lda, p.a(k + j, j), 1, T(0), p.t(0, j), 1);
  ops += host_gemv('N', n - k, j, T(-1), p.y(k, 0), n, p.t(0, j), 1, T(1), p.y(k, j), 1);
  for (std::int64_t i = k; i < n; ++i) *p.y(i, j) *= p.tau[j];
  for (std::int64_t i = 0; i < j; ++i) *p.t(i, j) *= -p.tau[j];
  ops += host_trmv('U', 'N', false, j, p.t(0, 0), p.nb, p.t(0, j));
  *p.t(j, j) = p.tau[j];
  return ops + static_cast<double>(n - k + j);
}

template <class T>
void record_hess_step(HessPanel<T>& p, std::int64_t j, double ops) {
  p.host_ops += ops;
  record_host_step(p.trace, HostStep{.name = "trnsolver.geev.gehrd_panel", .flops = kOpFlops<T> * ops,
                                     .reads = {HostSpan(p.a(p.k, j), p.n - p.k), HostSpan(p.y(p.k, j), p.n - p.k)},
                                     .writes = {HostSpan(p.a(p.k, j), p.n - p.k), HostSpan(p.y(p.k, j), p.n - p.k),
                                                HostSpan(p.t(0, j), j + 1)}});
}

// xLAHR2's column loop (the reflectors, Y(k:n, :) and T); returns the subdiagonal entry under the last
// reflector's unit (xLAHR2's EI), left as 1 in A for the right update.
template <class T>
T lahr2_columns(HessPanel<T>& p) {
  const std::int64_t n = p.n, k = p.k;
  T ei = T(0);
  for (std::int64_t j = 0; j < p.nb; ++j) {
    double ops = j > 0 ? update_hess_column(p, j, ei) : 0.0;
    T alpha = *p.a(k + j, j);
    p.tau[j] = householder(n - k - j, alpha, p.a(k + j + 1, j));
    ei = alpha;
    *p.a(k + j, j) = T(1);
    record_hess_step(p, j, ops + static_cast<double>(n - k - j));
    panel_gemv(p.s, "trnsolver.geev.gehrd_gemv", 'N', n - k, n - k - j, p.a(k, j + 1), p.lda, p.a(k + j, j), 1,
               p.y(k, j), p.trace, p.host_ops);
    record_hess_step(p, j, finish_y_and_t(p, j));
  }
  return ei;
}

// The panel's V (n - k x nb, unit lower, zeros above: dense for the GEMMs), a recorded host move.
template <class T>
std::vector<T> dense_v(HessPanel<T>& p) {
  const std::int64_t r = p.n - p.k;
  std::vector<T> V(static_cast<std::size_t>(r * p.nb), T(0));
  for (std::int64_t j = 0; j < p.nb; ++j) {
    V[static_cast<std::size_t>(j + j * r)] = T(1);
    for (std::int64_t i = j + 1; i < r; ++i) V[static_cast<std::size_t>(i + j * r)] = *p.a(p.k + i, j);
  }
  record_move(p.trace, "trnsolver.geev.gehrd_v", HostSpan::matrix(p.a(p.k, 0), r, p.nb, p.lda), HostSpan(V.data(), r * p.nb));
  return V;
}

// xGEHRD's updates of one panel (after lahr2_columns) on TensorE; ei restored under the last unit.
template <class T>
void hess_panel_updates(HessPanel<T>& p, T ei) {
  const std::int64_t n = p.n, k = p.k, nb = p.nb, c = p.c, r = n - k;
  const std::vector<T> V = dense_v(p);
  std::vector<T> AV(static_cast<std::size_t>(k * nb));
  qr_gemm(p.s, 'N', 'N', k, nb, r, T(1), p.A + (c + 1) * p.lda, p.lda, V.data(), r, T(0), AV.data(), k, p.trace);
  qr_gemm(p.s, 'N', 'N', k, nb, nb, T(1), AV.data(), k, p.Tm.data(), nb, T(0), p.y(0, 0), n, p.trace);
  // A(0:n, c+nb:n) -= Y V(nb-1:r, :)^H: V's rows from the unit of reflector nb-1 (row k+nb-1 = c+nb).
  qr_gemm(p.s, 'N', 'C', n, n - c - nb, nb, T(-1), p.Y.data(), n, V.data() + (nb - 1), r, T(1),
          p.A + (c + nb) * p.lda, p.lda, p.trace);
  *p.a(k + nb - 1, nb - 1) = ei;
  // A(0:k, c+1:c+nb) -= Y(0:k, 0:nb-1) V1'^H, V1' the leading (nb-1) x (nb-1) unit lower block of V.
  qr_gemm(p.s, 'N', 'C', k, nb - 1, nb - 1, T(-1), p.Y.data(), n, V.data(), r, T(1), p.A + (c + 1) * p.lda, p.lda,
          p.trace);
  detail::SubCallReport guard;  // A(c+1:n, c+nb:n) = Q^H A(...): unmqr's block reflector (three GEMMs)
  CallReport& rep = guard.report;
  ormqr(p.s, true, true, r, n - c - nb, nb, p.a(k, 0), p.lda, p.tau, p.A + k + (c + nb) * p.lda, p.lda, &rep);
  p.trace.add(std::move(rep.trace));
  p.host_ops += kFp64Type<T> ? rep.host_fp64_flops / kOpFlops<T> : 0.0;
}

}  // namespace

std::int64_t gehrd_panel_width() {
  const char* env = std::getenv("TRNSOLVER_GEHRD_NB");
  const long v = env != nullptr ? std::strtol(env, nullptr, 10) : 0;
  return v >= 1 && v <= 256 ? v : 32;
}

namespace {

// The crossover nx: the last nx + 1 columns (at least nb + 1) are reduced by xGEHD2 as one host step
// (TRNSOLVER_GEHRD_NX overrides). S, C: 64 from the cost model (trn2 sgeev 128: 12.64 ms unblocked,
// 12.40 ms at nx 64; 256: 90.9 / 83.0 ms, cgeev 454 / 406 ms). D, Z: never by default, for gebrd.cpp's
// reason (dgeev 256: 141 ms unblocked, 176 ms blocked: Ozaki GEMMs with k = nb, fp64 host GEMVs).
template <class T>
inline constexpr std::int64_t kGehrdCrossover = kFp64Type<T> ? std::int64_t{1} << 40 : 64;
template <class T>
std::int64_t gehrd_crossover() {
  const char* env = std::getenv("TRNSOLVER_GEHRD_NX");
  const long v = env != nullptr ? std::strtol(env, nullptr, 10) : -1;
  return v >= 0 && v <= 1 << 20 ? v : kGehrdCrossover<T>;
}

// xGEHD2 on the n x n matrix a (lda) from column `first` (xGEHRD's blocked part did the columns before),
// in place: H on and above the subdiagonal, reflector i below it in column i (v(i+1) = 1 implicit), tau
// (n-1). Returns the multiply-add count.
template <class T>
double gehd2(std::int64_t n, std::int64_t first, T* a, std::int64_t lda, T* tau) {
  double ops = 0;
  for (std::int64_t i = first; i + 1 < n; ++i) {
    T* col = a + (i + 1) + i * lda;
    T alpha = col[0];
    tau[i] = detail::householder(n - i - 1, alpha, col + 1);
    col[0] = T(1);
    ops += detail::apply_right(a + (i + 1) * lda, lda, n, n - i - 1, col, tau[i]);
    ops += detail::apply_left(col, n - i - 1, cj(tau[i]), a + (i + 1) + (i + 1) * lda, lda, n - i - 1);
    col[0] = alpha;
    ops += static_cast<double>(n - i);
  }
  return ops;
}

// The blocked reduction (header above), then xGEHD2 on the last columns as one host step. Returns the
// host flops.
template <class T>
double gehrd_impl(const Settings& s, std::int64_t n, T* A, std::int64_t lda, T* tau, TraceParts& trace) {
  const std::int64_t nb = gehrd_panel_width(), nx = std::max(nb, gehrd_crossover<T>());
  double host_ops = 0;
  std::int64_t c = 0;
  for (; c + nx + 2 <= n; c += nb) {  // LAPACK's loop I = ILO, IHI-1-NX, NB (1-based I = c + 1)
    HessPanel<T> p{s, n, c, c + 1, nb, A, lda, tau + c, std::vector<T>(static_cast<std::size_t>(n * nb), T(0)),
                   std::vector<T>(static_cast<std::size_t>(nb * nb), T(0)), trace};
    const T ei = lahr2_columns(p);
    hess_panel_updates(p, ei);
    host_ops += p.host_ops;
  }
  const double tail = gehd2(n, c, A, lda, tau);
  const HostSpan a = HostSpan::matrix(A, n, n, lda);
  record_host_step(trace, HostStep{.name = "trnsolver.geev.gehd2", .flops = kOpFlops<T> * tail, .reads = {a},
                                   .writes = {a, HostSpan(tau, std::max<std::int64_t>(0, n - 1))}});
  return kOpFlops<T> * (host_ops + tail);
}

}  // namespace

std::int64_t gehrd_blocked_columns(char prefix, std::int64_t n) {
  const std::int64_t nb = gehrd_panel_width();
  const auto blocked = [&](std::int64_t nx) {
    std::int64_t c = 0;
    while (c + std::max(nb, nx) + 2 <= n) c += nb;  // gehrd_impl's loop
    return c;
  };
  switch (prefix) {
    case 's': return blocked(gehrd_crossover<float>());
    case 'd': return blocked(gehrd_crossover<double>());
    case 'c': return blocked(gehrd_crossover<std::complex<float>>());
    default: return blocked(gehrd_crossover<std::complex<double>>());
  }
}

#define TRNSOLVER_GEHRD_DEFINE(T)                                                                            \
  double gehrd(const Settings& s, std::int64_t n, T* A, std::int64_t lda, T* tau, TraceParts& trace) {      \
    return gehrd_impl(s, n, A, lda, tau, trace);                                                              \
  }
TRNSOLVER_GEHRD_DEFINE(float)
TRNSOLVER_GEHRD_DEFINE(double)
TRNSOLVER_GEHRD_DEFINE(std::complex<float>)
TRNSOLVER_GEHRD_DEFINE(std::complex<double>)
#undef TRNSOLVER_GEHRD_DEFINE

}  // namespace trn::solver::detail
