// gebrd / orgbr (ungbr): Householder bidiagonalisation and the generation of its Q or P^H (LAPACK
// xGEBD2/xGEBRD and xORGBR/xUNGBR; Golub & Kahan 1965; Golub & Van Loan, Matrix Computations 4th ed.,
// 5.4.8), m >= n as cuSOLVER's gebrd requires.
//
//   gebrd   LAPACK xGEBRD: panels of nb columns and rows (xLABRD; Dongarra, Sorensen & Hammarling,
//           "Block reduction of matrices to condensed forms", J. Comput. Appl. Math. 27, 1989; LAPACK
//           Working Note 2) each followed by A22 -= V Y^H + X U^H, two GEMMs on TensorE (fp32 S, 4M fp32 C,
//           Ozaki D/Z: the QR drivers' qr_gemm) -- half of the 4 m n^2 - 4/3 n^3 multiply-adds. The other
//           half is the panel's two trailing-matrix products per column (Y = A^H v, X = A u), the BLAS-2
//           part a one-stage reduction cannot avoid: trnblas gemv on TensorE for S/C, an fp64 host step
//           for D/Z (sytrd.cpp's precedent for dsytrd's symv). The O(m nb) corrections of each column and
//           row by the panel's earlier ones and the two xLARFG reflectors are host steps in the working
//           precision (three per column). Output storage exactly xGEBRD's (d, e, tauq, taup, reflectors).
//           Accuracy: backward stable, ||A - Q B P^H|| / ||A|| <= c m u (GVL 5.4.8); tested c = 16.
//           Engines: TensorE (trailing GEMMs; S/C panel GEMVs), host (panel steps; D/Z GEMVs; the xGEBD2
//           tail of nx columns). Limits: m >= n; the crossover nx (gebrd_crossover) keeps D/Z and
//           S/C with n <= 128 on the unblocked xGEBD2 host step, which the cost model says is faster.
//   orgbr   Q (vect 'Q') is orgqr/ungqr of the column reflectors (geqrf.cpp: block reflectors applied by
//           TensorE GEMMs); P^H (vect 'P') is xORGLQ of the row reflectors, formed as the conjugate
//           transpose of orgqr/ungqr on the conjugate-transposed rows (the row of G_i stores conj(u_i),
//           so column i of the transpose holds u_i: (H_1 ... H_k)^H is xORGLQ's H_k^H ... H_1^H). When
//           gebrd's matrix had fewer rows (Q) or columns (P) than k, LAPACK's shift by one row/column
//           first. Index moves (shift, transposes) are recorded host steps without flops.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <complex>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "trn/core/for_each_scalar.hpp"
#include "prediction_memo.hpp"
#include "svd_internal.hpp"
#include "syevj_internal.hpp"
#include "trn/blas/level12.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/plan.hpp"
#include "trn/core/scalar_traits.hpp"
#include "trn/core/scratch.hpp"
#include "trn/solver/qr.hpp"
#include "trn/solver/svd.hpp"

namespace trn::solver {
namespace {

using detail::cj;
using detail::kOpFlops;
using detail::real_part;

using detail::require;
using detail::apply_left;
using detail::apply_right;
using detail::record_move;
using detail::shift_reflectors;
using detail::host_gemv;
using detail::lacgv;

// The panel width nb of the blocked reduction: TRNSOLVER_GEBRD_NB (1..256) or 32 (LAPACK's ILAENV
// default for xGEBRD). Tests set it small to run several panels on small matrices.
std::int64_t gebrd_panel_width(const char** source = nullptr) {
  const char* env = std::getenv("TRNSOLVER_GEBRD_NB");
  const long v = env != nullptr ? std::strtol(env, nullptr, 10) : 0;
  const bool from_env = v >= 1 && v <= 256;
  if (source != nullptr) *source = from_env ? "TRNSOLVER_GEBRD_NB" : "rule";
  return from_env ? v : 32;
}

// The crossover nx: the last nx columns (at least nb) are reduced by xGEBD2 as one host step
// (TRNSOLVER_GEBRD_NX overrides). S, C: 128, LAPACK's ILAENV value, which the cost model confirms (trn2,
// sgebrd 128 x 96: 1.02 ms unblocked, 1.08 ms with nx 64; 256 x 192: 8.1 ms unblocked, 4.5 ms blocked;
// 512 x 384: 64.7 / 16.2 ms, cgebrd 259 / 87 ms). D, Z: never by default -- the Ozaki trailing GEMMs
// with k = nb are bound by their fp64 slicing and reconstruction, and the panels' GEMVs stay fp64 host
// steps, so blocking loses (dgebrd 512 x 384: 65 ms unblocked, 152 ms at nb 32, 101 ms at nb 128).
template <class T>
inline constexpr std::int64_t kGebrdCrossover = detail::kFp64Type<T> ? std::int64_t{1} << 40 : 128;
std::int64_t gebrd_crossover(bool fp64, const char** source = nullptr) {
  const char* env = std::getenv("TRNSOLVER_GEBRD_NX");
  const long v = env != nullptr ? std::strtol(env, nullptr, 10) : -1;
  const bool from_env = v >= 0 && v <= 1 << 20;
  if (source != nullptr) *source = from_env ? "TRNSOLVER_GEBRD_NX" : "rule";
  return from_env ? v : fp64 ? kGebrdCrossover<double> : kGebrdCrossover<float>;
}
template <class T>
std::int64_t gebrd_crossover() {
  return gebrd_crossover(detail::kFp64Type<T>);
}

// ---- xLABRD's scalar pieces (host) ----------------------------------------------------------------------

// The panel of xLABRD: the matrix, its X (m x nb, ld m) and Y (n x nb, ld n), and the running counts.
template <class T, class R>
struct Panel {
  const Settings& s;
  std::int64_t m, n;  // the trailing matrix this panel reduces (m >= n)
  T* a;
  std::int64_t lda;
  R* d;
  R* e;
  T* tauq;
  T* taup;
  ScratchVector<T> X, Y;  // traced (record_panel_step): scratch, so no false dependency on freed bytes
  TraceParts& trace;
  double host_ops = 0;  // multiply-adds on the host (the report's fp64 flops for D, Z)
  T* at(std::int64_t i, std::int64_t j) { return a + i + j * lda; }
  T* x(std::int64_t i, std::int64_t j) { return X.data() + i + j * m; }
  T* y(std::int64_t i, std::int64_t j) { return Y.data() + i + j * n; }
};

// y = op(A) x for the trailing matrix (detail::panel_gemv: TensorE for S/C, fp64 host step for D/Z).
template <class T, class R>
void trailing_gemv(Panel<T, R>& p, char op, std::int64_t m, std::int64_t n, const T* A, const T* x,
                   std::int64_t incx, T* y) {
  detail::panel_gemv(p.s, "trnsolver.gebrd.gemv", op, m, n, A, p.lda, x, incx, y, p.trace, p.host_ops);
}

// xLABRD step 1 for column i: A(i:m, i) -= A(i:m, 0:i) Y(i, 0:i)^H + X(i:m, 0:i) A(0:i, i), then the left
// reflector (xLARFG; d(i) its beta). Returns multiply-adds.
template <class T, class R>
double update_column(Panel<T, R>& p, std::int64_t i) {
  const std::int64_t m = p.m;
  double ops = 0;
  lacgv(i, p.y(i, 0), p.n);
  ops += host_gemv('N', m - i, i, T(-1), p.at(i, 0), p.lda, p.y(i, 0), p.n, T(1), p.at(i, i), 1);
  lacgv(i, p.y(i, 0), p.n);
  ops += host_gemv('N', m - i, i, T(-1), p.x(i, 0), m, p.at(0, i), 1, T(1), p.at(i, i), 1);
  T alpha = *p.at(i, i);
  p.tauq[i] = detail::householder(m - i, alpha, p.at(i + 1, i));
  p.d[i] = real_part(alpha);
  return ops + static_cast<double>(m - i);
}

// xLABRD step 2 for row i (after Y(i+1:n, i) = A(i:m, i+1:n)^H v on the engine): Y's corrections by the
// panel's earlier columns, scaled by tauq(i); the row A(i, i+1:n) brought up to date; the right reflector
// (xLARFG on the conjugated row, e(i) its beta; the row keeps conj(u), as xGEBD2). Returns multiply-adds.
template <class T, class R>
double finish_y_and_row(Panel<T, R>& p, std::int64_t i) {
  const std::int64_t m = p.m, n = p.n, rest = n - i - 1;
  const T* v = p.at(i, i);
  double ops = host_gemv('C', m - i, i, T(1), p.at(i, 0), p.lda, v, 1, T(0), p.y(0, i), 1);
  ops += host_gemv('N', rest, i, T(-1), p.y(i + 1, 0), n, p.y(0, i), 1, T(1), p.y(i + 1, i), 1);
  ops += host_gemv('C', m - i, i, T(1), p.x(i, 0), m, v, 1, T(0), p.y(0, i), 1);
  ops += host_gemv('C', i, rest, T(-1), p.at(0, i + 1), p.lda, p.y(0, i), 1, T(1), p.y(i + 1, i), 1);
  for (std::int64_t k = 0; k < rest; ++k) *p.y(i + 1 + k, i) *= p.tauq[i];
  lacgv(rest, p.at(i, i + 1), p.lda);
  lacgv(i + 1, p.at(i, 0), p.lda);
  ops += host_gemv('N', rest, i + 1, T(-1), p.y(i + 1, 0), n, p.at(i, 0), p.lda, T(1), p.at(i, i + 1), p.lda);
  lacgv(i + 1, p.at(i, 0), p.lda);
  lacgv(i, p.x(i, 0), m);
  ops += host_gemv('C', i, rest, T(-1), p.at(0, i + 1), p.lda, p.x(i, 0), m, T(1), p.at(i, i + 1), p.lda);
  lacgv(i, p.x(i, 0), m);
  std::vector<T> row(static_cast<std::size_t>(rest));  // xLARFG wants the row contiguous
  for (std::int64_t k = 0; k < rest; ++k) row[static_cast<std::size_t>(k)] = *p.at(i, i + 1 + k);
  p.taup[i] = detail::householder(rest, row[0], row.data() + 1);
  p.e[i] = real_part(row[0]);
  row[0] = T(1);
  for (std::int64_t k = 0; k < rest; ++k) *p.at(i, i + 1 + k) = row[static_cast<std::size_t>(k)];
  return ops + static_cast<double>(2 * rest);
}

// xLABRD step 3 for row i (after X(i+1:m, i) = A(i+1:m, i+1:n) u on the engine): X's corrections, scaled by
// taup(i), and the row conjugated back. Returns multiply-adds.
template <class T, class R>
double finish_x(Panel<T, R>& p, std::int64_t i) {
  const std::int64_t m = p.m, n = p.n, rest = n - i - 1;
  const T* u = p.at(i, i + 1);
  double ops = host_gemv('C', rest, i + 1, T(1), p.y(i + 1, 0), n, u, p.lda, T(0), p.x(0, i), 1);
  ops += host_gemv('N', m - i - 1, i + 1, T(-1), p.at(i + 1, 0), p.lda, p.x(0, i), 1, T(1), p.x(i + 1, i), 1);
  ops += host_gemv('N', i, rest, T(1), p.at(0, i + 1), p.lda, u, p.lda, T(0), p.x(0, i), 1);
  ops += host_gemv('N', m - i - 1, i, T(-1), p.x(i + 1, 0), m, p.x(0, i), 1, T(1), p.x(i + 1, i), 1);
  for (std::int64_t k = i + 1; k < m; ++k) *p.x(k, i) *= p.taup[i];
  lacgv(rest, p.at(i, i + 1), p.lda);
  return ops + static_cast<double>(m - i - 1);
}

// One host step of the panel: `ops` multiply-adds; the column (and row) i read and written, and the X and
// Y columns i the host computed (they cross to the device for the panel's GEMMs).
template <class T, class R>
void record_panel_step(Panel<T, R>& p, std::int64_t i, double ops) {
  p.host_ops += ops;
  record_host_step(p.trace, HostStep{.name = "trnsolver.gebrd.panel", .flops = kOpFlops<T> * ops,
                                     .reads = {HostSpan(p.at(i, i), p.m - i), HostSpan::strided(p.at(i, i), 1, 1, p.n - i, p.lda)},
                                     .writes = {HostSpan(p.at(i, i), p.m - i), HostSpan::strided(p.at(i, i), 1, 1, p.n - i, p.lda),
                                                HostSpan(p.x(0, i), p.m), HostSpan(p.y(0, i), p.n)}});
}

// xLABRD (m >= n): the first w < n columns and rows of the m x n matrix reduced, X and Y such that the
// trailing matrix's update is A22 -= V Y^H + X U^H. Per column two host steps (X's corrections of the
// previous row are folded into the next column's step: one host round trip fewer) and two trailing GEMVs.
template <class T, class R>
void labrd(Panel<T, R>& p, std::int64_t w) {
  for (std::int64_t i = 0; i < w; ++i) {
    record_panel_step(p, i, (i > 0 ? finish_x(p, i - 1) : 0.0) + update_column(p, i));
    *p.at(i, i) = T(1);
    trailing_gemv(p, 'C', p.m - i, p.n - i - 1, p.at(i, i + 1), p.at(i, i), 1, p.y(i + 1, i));
    record_panel_step(p, i, finish_y_and_row(p, i));
    trailing_gemv(p, 'N', p.m - i - 1, p.n - i - 1, p.at(i + 1, i + 1), p.at(i, i + 1), p.lda, p.x(i + 1, i));
  }
  record_panel_step(p, w - 1, finish_x(p, w - 1));
}

// xGEBRD's trailing update A22 -= V Y^H + X U^H (two GEMMs on TensorE: fp32 S, 4M complex fp32 C, Ozaki
// D/Z), then the panel's d and e written back over the unit entries of V and U.
template <class T, class R>
void trailing_update(Panel<T, R>& p, std::int64_t w) {
  const std::int64_t mr = p.m - w, nr = p.n - w;
  detail::qr_gemm(p.s, 'N', 'C', mr, nr, w, T(-1), p.at(w, 0), p.lda, p.y(w, 0), p.n, T(1), p.at(w, w), p.lda, p.trace);
  detail::qr_gemm(p.s, 'N', 'N', mr, nr, w, T(-1), p.x(w, 0), p.m, p.at(0, w), p.lda, T(1), p.at(w, w), p.lda, p.trace);
}

// The diagonal and superdiagonal of the panel's w columns written back (xGEBRD's copy of B into A).
template <class T, class R>
void restore_bidiagonal(Panel<T, R>& p, std::int64_t w) {
  for (std::int64_t j = 0; j < w; ++j) {
    *p.at(j, j) = T(p.d[j]);
    if (j + 1 < p.n) *p.at(j, j + 1) = T(p.e[j]);
  }
  record_move(p.trace, "trnsolver.gebrd.restore", HostSpan(p.d, w), HostSpan::strided(p.a, w, p.lda + 1, 1, 1));
}

// xGEBD2 for m >= n. Returns the multiply-add count.
template <class T, class R>
double gebd2(std::int64_t m, std::int64_t n, T* a, std::int64_t lda, R* d, R* e, T* tauq, T* taup) {
  double ops = 0;
  std::vector<T> row(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    T* col = a + i + i * lda;
    T alpha = col[0];
    tauq[i] = detail::householder(m - i, alpha, col + 1);
    d[i] = real_part(alpha);
    col[0] = T(1);
    ops += apply_left(col, m - i, cj(tauq[i]), col + lda, lda, n - i - 1) + static_cast<double>(m - i);
    col[0] = T(d[i]);
    if (i + 1 == n) {
      taup[i] = T(0);
      break;
    }
    const std::int64_t len = n - i - 1;
    for (std::int64_t j = 0; j < len; ++j) row[static_cast<std::size_t>(j)] = cj(a[i + (i + 1 + j) * lda]);
    T beta = row[0];
    taup[i] = detail::householder(len, beta, row.data() + 1);
    e[i] = real_part(beta);
    row[0] = T(1);
    ops += apply_right(a + i + 1 + (i + 1) * lda, lda, m - i - 1, len, row.data(), taup[i]) + static_cast<double>(len);
    a[i + (i + 1) * lda] = T(e[i]);
    for (std::int64_t j = 1; j < len; ++j) a[i + (i + 1 + j) * lda] = cj(row[static_cast<std::size_t>(j)]);
  }
  return ops;
}

// xGEBRD for m >= n: panels of nb columns and rows (xLABRD) each followed by the trailing GEMMs while more
// than nx columns remain (LAPACK's crossover), then xGEBD2 on the rest as one host step. Returns the host
// multiply-adds.
template <class T, class R>
double gebrd_blocked(const Settings& s, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, R* d, R* e, T* tauq,
                     T* taup, TraceParts& trace) {
  const std::int64_t nb = gebrd_panel_width(), nx = std::max(nb, gebrd_crossover<T>());
  double host_ops = 0;
  std::int64_t i0 = 0;
  for (; n - i0 > nx; i0 += nb) {
    const std::int64_t M = m - i0, N = n - i0;
    Panel<T, R> p{s, M, N, A + i0 + i0 * lda, lda, d + i0, e + i0, tauq + i0, taup + i0,
                  ScratchVector<T>(static_cast<std::size_t>(M * nb), T(0)),
                  ScratchVector<T>(static_cast<std::size_t>(N * nb), T(0)), trace};
    labrd(p, nb);
    trailing_update(p, nb);
    restore_bidiagonal(p, nb);
    host_ops += p.host_ops;
  }
  const double tail = gebd2(m - i0, n - i0, A + i0 + i0 * lda, lda, d + i0, e + i0, tauq + i0, taup + i0);
  const HostSpan a = HostSpan::matrix(A + i0 + i0 * lda, m - i0, n - i0, lda);
  record_host_step(trace, HostStep{.name = "trnsolver.gebrd.gebd2", .flops = kOpFlops<T> * tail, .reads = {a},
                                   .writes = {a, HostSpan(d + i0, n - i0), HostSpan(e + i0, n - i0 - 1),
                                              HostSpan(tauq + i0, n - i0)}});
  record_move(trace, "trnsolver.gebrd.taup", HostSpan(taup + i0, n - i0), HostSpan(taup + i0, n - i0));
  return host_ops + tail;
}

// The host fp64 flops of a step of `ops` multiply-adds (D, Z: the report's host_fp64_flops).
template <class T>
double fp64_flops(double ops) {
  return detail::kFp64Type<T> ? kOpFlops<T> * ops : 0.0;
}

template <class T, class R>
int gebrd_impl(const Settings& s, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, R* d, R* e, T* tauq,
               T* taup, CallReport* report);

// A synthetic well-scaled m x n matrix (splitmix64-style hash of the index, entries in [-1, 1)): the
// replayed call's input. Complex: both parts.
template <class T>
std::vector<T> synthetic_matrix(std::int64_t m, std::int64_t n) {
  std::vector<T> a(static_cast<std::size_t>(std::max<std::int64_t>(1, m * n)));
  std::uint64_t x = 0x9e3779b97f4a7c15ULL;
  const auto next = [&x] {
    x += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1p-52 - 1.0;
  };
  for (T& v : a) {
    if constexpr (trn::is_complex_v<T>) {
      const double re = next(), im = next();
      v = T(static_cast<trn::real_t<T>>(re), static_cast<trn::real_t<T>>(im));
    } else {
      v = static_cast<T>(next());
    }
  }
  return a;
}

// gebrd's predicted modeled time: the driver replayed on the synthetic matrix of the call's shape.
template <class T>
double gebrd_replay_ns(const Settings& s, std::int64_t m, std::int64_t n) {
  using R = trn::real_t<T>;
  std::vector<T> a = synthetic_matrix<T>(m, n), tauq(static_cast<std::size_t>(std::max<std::int64_t>(1, n))),
                 taup(tauq.size());
  std::vector<R> d(tauq.size()), e(tauq.size());
  CallReport r;
  r.plans_wanted = false;  // its own plan is never printed (nor predicted)
  gebrd_impl(s, m, n, a.data(), std::max<std::int64_t>(1, m), d.data(), e.data(), tauq.data(), taup.data(), &r);
  return r.modeled_ns();
}

// The plan of a call, its modeled time computed when the plan is printed and kept per process
// (detail::remembered_gebrd_prediction_ns): sizes and settings captured, never the caller's buffers.
template <class T>
GebrdPlan plan_of(const Settings& s, std::int64_t m, std::int64_t n) {
  GebrdPlan p = plan_gebrd(detail::precision_prefix<T>(), m, n);
  p.predicted_ns = trn::LazyNs([s, m, n] { return detail::remembered_gebrd_prediction_ns(detail::precision_prefix<T>(), s, m, n); });
  return p;
}

template <class T, class R>
int gebrd_impl(const Settings& s, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, R* d, R* e, T* tauq,
               T* taup, CallReport* report) {
  require(m >= n && n >= 0 && lda >= std::max<std::int64_t>(1, m) &&
              (n == 0 || (A != nullptr && d != nullptr && tauq != nullptr && taup != nullptr)) &&
              (n < 2 || e != nullptr),
          "gebrd", "m >= n >= 0, lda >= max(1, m), A, d, e, tauq, taup not NULL");
  if (report != nullptr) *report = CallReport{};
  TraceParts trace;
  double ops = 0;
  if (n > 0) {
    ops = gebrd_blocked(s, m, n, A, lda, d, e, tauq, taup, trace);
  }
  detail::finish_fp64_report(report, std::move(trace), s.target, fp64_flops<T>(ops));
  if (report != nullptr && report->plans_wanted) report->add_plan(plan_of<T>(s, m, n));
  return 0;
}

// orgqr with its report absorbed into (trace, flops).
template <class T>
void orgqr_into(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t k, T* A, std::int64_t lda,
                const T* tau, detail::SubCalls& sub) {
  detail::SubCallReport guard;
  CallReport& r = guard.report;
  orgqr(s, m, n, k, A, lda, tau, &r);
  sub.absorb(r);
}

// xORGLQ (m x n, k row reflectors with conj(u_i) in row i) through orgqr on the conjugate transpose.
template <class T>
void orglq_by_orgqr(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t k, T* A, std::int64_t lda,
                    const T* tau, detail::SubCalls& sub) {
  if (m == 0) return;
  // Scratch, not heap: traced (transpose_in / _out, then orgqr's records), and on the heap it could
  // reuse bytes an earlier temporary of the call freed (a false dependency that moved with malloc's
  // history; docs/trnsolver.md "Session 24, heap-dependent modeled time").
  ScratchVector<T> b(static_cast<std::size_t>(n * m));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) b[static_cast<std::size_t>(j + i * n)] = cj(A[i + j * lda]);
  record_move(sub.trace, "trnsolver.orgbr.transpose_in", HostSpan::matrix(A, m, n, lda), HostSpan(b.data(), m * n));
  orgqr_into(s, n, m, k, b.data(), n, tau, sub);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) A[i + j * lda] = cj(b[static_cast<std::size_t>(j + i * n)]);
  record_move(sub.trace, "trnsolver.orgbr.transpose_out", HostSpan(b.data(), m * n), HostSpan::matrix(A, m, n, lda));
}

template <class T>
int orgbr_impl(const Settings& s, char vect, std::int64_t m, std::int64_t n, std::int64_t k, T* A, std::int64_t lda,
               const T* tau, CallReport* report) {
  const bool q = vect == 'Q';
  require((vect == 'Q' || vect == 'P') && m >= 0 && n >= 0 && k >= 0 && lda >= std::max<std::int64_t>(1, m) &&
              (q ? (n <= m && n >= std::min(m, k)) : (m <= n && m >= std::min(n, k))) &&
              (m == 0 || n == 0 || A != nullptr) && (k == 0 || tau != nullptr),
          "orgbr", "vect Q: m >= n >= min(m, k); P: n >= m >= min(n, k); lda >= max(1, m)");
  if (report != nullptr) *report = CallReport{};
  detail::SubCalls sub;
  if (m > 0 && n > 0) {
    if (q && m >= k) {
      orgqr_into(s, m, n, k, A, lda, tau, sub);
    } else if (!q && k < n) {
      orglq_by_orgqr(s, m, n, k, A, lda, tau, sub);
    } else {  // square (m == n), one shift
      shift_reflectors(vect, m, A, lda, sub.trace);
      if (m > 1) {
        if (q) orgqr_into(s, m - 1, m - 1, m - 1, A + 1 + lda, lda, tau, sub);
        else orglq_by_orgqr(s, m - 1, m - 1, m - 1, A + 1 + lda, lda, tau, sub);
      }
    }
  }
  detail::finish_fp64_report(report, std::move(sub.trace), s.target, sub.fp64_flops);
  return 0;
}

}  // namespace

#define TRNSOLVER_GEBRD_DEFINE(T, R)                                                                           \
  int gebrd(const Settings& s, std::int64_t m, std::int64_t n, T* A, std::int64_t lda, R* d, R* e, T* tauq,     \
            T* taup, CallReport* report) {                                                                     \
    return gebrd_impl(s, m, n, A, lda, d, e, tauq, taup, report);                                              \
  }                                                                                                            \
  int orgbr(const Settings& s, char vect, std::int64_t m, std::int64_t n, std::int64_t k, T* A, std::int64_t lda, \
            const T* tau, CallReport* report) {                                                                \
    return orgbr_impl(s, vect, m, n, k, A, lda, tau, report);                                                  \
  }
TRN_FOR_EACH_SDCZ_REAL(TRNSOLVER_GEBRD_DEFINE)
#undef TRNSOLVER_GEBRD_DEFINE

double detail::predict_gebrd_ns(char prefix, const Settings& s, std::int64_t m, std::int64_t n) {
  switch (prefix) {
    case 's': return gebrd_replay_ns<float>(s, m, n);
    case 'd': return gebrd_replay_ns<double>(s, m, n);
    case 'c': return gebrd_replay_ns<std::complex<float>>(s, m, n);
    default: return gebrd_replay_ns<std::complex<double>>(s, m, n);
  }
}

// The same, computed once per process for everything the replay depends on (prediction_memo.hpp): the
// element type, every Settings field, the shape, and the panel width and crossover the environment sets
// at the call (TRNSOLVER_GEBRD_NB / _NX; the trailing GEMMs and GEMVs read no other variable).
double detail::remembered_gebrd_prediction_ns(char prefix, const Settings& s, std::int64_t m, std::int64_t n) {
  using Key = std::tuple<char, detail::SettingsKey, std::int64_t, std::int64_t, std::int64_t, std::int64_t>;
  static detail::PredictionMemo<Key> kept;
  const bool fp64 = prefix == 'd' || prefix == 'z';
  const Key key{prefix, detail::settings_key(s), m, n, gebrd_panel_width(), gebrd_crossover(fp64)};
  return kept.get(key, [&] { return detail::predict_gebrd_ns(prefix, s, m, n); });
}

// xGEBD2's real flops of columns [c0, c1) of an m x n reduction (the left reflector on (m-i) x (n-i-1),
// the right one on (m-i-1) x (n-i-1): 4 flops per entry each; 4 m n^2 - 4/3 n^3 in all), times f.
static double bidiagonal_flops(std::int64_t m, std::int64_t n, std::int64_t c0, std::int64_t c1, double f) {
  double flops = 0;
  for (std::int64_t i = c0; i < c1; ++i) {
    const auto cols = static_cast<double>(n - i - 1);
    flops += 4.0 * static_cast<double>(m - i) * cols + 4.0 * static_cast<double>(std::max<std::int64_t>(m - i - 1, 0)) * cols;
  }
  return f * flops;
}

GebrdPlan plan_gebrd(char prefix, std::int64_t m, std::int64_t n) {
  GebrdPlan p;
  const bool cplx = prefix == 'c' || prefix == 'z', fp64 = prefix == 'd' || prefix == 'z';
  p.routine = std::string(1, prefix) + "gebrd";
  p.m = m;
  p.n = n;
  const char* nb_from = "rule";
  const char* nx_from = "rule";
  p.nb = gebrd_panel_width(&nb_from);
  p.nx = std::max(p.nb, gebrd_crossover(fp64, &nx_from));
  p.nb_source = nb_from;
  p.nx_source = nx_from;
  for (std::int64_t i0 = 0; n - i0 > p.nx; i0 += p.nb) ++p.panels;  // gebrd_blocked's loop
  p.blocked = std::min(n, p.panels * p.nb);
  p.complex = cplx;
  p.update_mode = fp64 ? blas::GemmMode::fp64_ozaki : blas::GemmMode::fp32;
  const double f = cplx ? 4.0 : 1.0, blocked = bidiagonal_flops(m, n, 0, p.blocked, f);
  p.gemm_flops = blocked / 2;                       // A22 -= V Y^H + X U^H
  (fp64 ? p.host_flops : p.gemv_flops) = blocked / 2;  // Y = A^H v, X = A u per column
  p.host_flops += bidiagonal_flops(m, n, p.blocked, n, f);
  const std::string nx_text = p.nx_source != "rule" ? "from " + p.nx_source
                              : fp64 ? std::string("rule: D/Z never block (Ozaki GEMMs with k = nb lose to the host step)")
                                     : std::string("rule: 128, LAPACK's ILAENV value, confirmed by the cost model");
  p.why = "panel width " + std::to_string(p.nb) + (p.nb_source != "rule" ? " from " + p.nb_source : " (LAPACK's ILAENV)") +
          "; crossover nx " + (p.nx >= (std::int64_t{1} << 40) ? std::string("none") : std::to_string(p.nx)) + " (" +
          nx_text + ")" +
          (p.blocked > 0 ? "; " + std::to_string(p.panels) + (p.panels == 1 ? " xLABRD panel" : " xLABRD panels") + ", trailing GEMMs by trnblas " +
                               blas::gemm_mode_name(p.update_mode) + (cplx ? " 4M complex" : "") + ", panel GEMVs " +
                               (fp64 ? "fp64 host steps" : "on TensorE") + ", then"
                         : std::string("; n <= nx:")) +
          " xGEBD2 on the last " + std::to_string(n - p.blocked) + " columns as one host step";
  return p;
}

std::string GebrdPlan::print() const {
  PlanFacts f;
  f.routine = routine;
  f.shape = std::to_string(m) + "x" + std::to_string(n);
  f.variant = blocked > 0 ? "blocked Householder bidiagonalisation (xLABRD panels of " + std::to_string(nb) + ", " +
                                std::to_string(blocked) + " columns by panels, xGEBD2 tail of " +
                                std::to_string(n - blocked) + ")"
                          : std::string("unblocked Householder bidiagonalisation (xGEBD2, one host step)");
  char buf[200];
  std::snprintf(buf, sizeof buf, "host %.3g flops, TensorE %.3g flops (trailing GEMMs, %s%s) + %.3g (panel GEMVs)",
                host_flops, gemm_flops, blas::gemm_mode_name(update_mode), complex ? ", 4M" : "", gemv_flops);
  f.ops = buf;
  f.engines = blocked == 0 ? "host CPU"
              : update_mode == blas::GemmMode::fp64_ozaki ? "host CPU (panels, GEMVs, tail), TensorE (Ozaki GEMMs), VectorE, DMA"
                                                           : "host CPU (panel steps, tail), TensorE (GEMMs, GEMVs), VectorE, DMA";
  f.predicted_ns = predicted_ns.get();
  f.why = why;
  return f.print();
}
static_assert(trn::Plan<GebrdPlan>);

// The panels' trailing-matrix GEMV of gebrd and geev's Hessenberg reduction (svd_internal.hpp).
namespace detail {
template <class T>
void panel_gemv_impl(const Settings& s, const char* host_name, char op, std::int64_t m, std::int64_t n, const T* A,
                     std::int64_t lda, const T* x, std::int64_t incx, T* y, TraceParts& trace, double& host_ops) {
  const std::int64_t leny = op == 'N' ? m : n;
  if (m == 0 || n == 0) {
    std::fill(y, y + leny, T(0));
    return;
  }
  if constexpr (kFp64Type<T>) {
    const double ops = host_gemv(op, m, n, T(1), A, lda, x, incx, T(0), y, 1);
    host_ops += ops;
    record_host_step(trace, HostStep{.name = host_name, .flops = kOpFlops<T> * ops,
                                     .reads = {HostSpan::matrix(A, m, n, lda)}, .writes = {HostSpan(y, leny)}});
  } else {
    blas::CallReport r;
    const blas::Op t = op == 'N' ? blas::Op::N : blas::Op::T;
    if constexpr (std::is_same_v<T, float>)
      blas::gemv(step_blas_settings(s), t, m, n, 1.0f, A, lda, x, incx, 0.0f, y, 1, &r);
    else
      blas::gemv(step_blas_settings(s), t, op != 'N', m, n, T(1), A, lda, x, incx, T(0), y, 1, &r);
    trace.add(std::move(r.trace));
  }
}
#define TRNSOLVER_PANEL_GEMV_DEFINE(T)                                                                          \
  void panel_gemv(const Settings& s, const char* host_name, char op, std::int64_t m, std::int64_t n, const T* A, \
                  std::int64_t lda, const T* x, std::int64_t incx, T* y, TraceParts& trace, double& host_ops) {  \
    panel_gemv_impl(s, host_name, op, m, n, A, lda, x, incx, y, trace, host_ops);                                 \
  }
TRNSOLVER_PANEL_GEMV_DEFINE(float)
TRNSOLVER_PANEL_GEMV_DEFINE(double)
TRNSOLVER_PANEL_GEMV_DEFINE(std::complex<float>)
TRNSOLVER_PANEL_GEMV_DEFINE(std::complex<double>)
#undef TRNSOLVER_PANEL_GEMV_DEFINE
}  // namespace detail

}  // namespace trn::solver
