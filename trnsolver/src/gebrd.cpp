// gebrd / orgbr (ungbr): Householder bidiagonalisation and the generation of its Q or P^H (LAPACK
// xGEBD2/xGEBRD and xORGBR/xUNGBR; Golub & Kahan 1965; Golub & Van Loan, Matrix Computations 4th ed.,
// 5.4.8), m >= n as cuSOLVER's gebrd requires.
//
//   gebrd   xGEBD2 column by column (left reflector on the column, right reflector on the row, each
//           applied to the trailing matrix) as ONE recorded host step in the working precision
//           (core/include/trn/core/host_step.hpp): 4 m n^2 - 4/3 n^3 real multiply-adds (x4 complex).
//           Not yet the blocked xLABRD with its two trailing GEMMs per panel (docs/trnsolver.md "SVD
//           family", what is missing).
//   orgbr   Q (vect 'Q') is orgqr/ungqr of the column reflectors (geqrf.cpp: block reflectors applied by
//           TensorE GEMMs); P^H (vect 'P') is xORGLQ of the row reflectors, formed as the conjugate
//           transpose of orgqr/ungqr on the conjugate-transposed rows (the row of G_i stores conj(u_i),
//           so column i of the transpose holds u_i: (H_1 ... H_k)^H is xORGLQ's H_k^H ... H_1^H). When
//           gebrd's matrix had fewer rows (Q) or columns (P) than k, LAPACK's shift by one row/column
//           first. Index moves (shift, transposes) are recorded host steps without flops.
#include <algorithm>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "trn/core/for_each_scalar.hpp"
#include "svd_internal.hpp"
#include "syevj_internal.hpp"
#include "trn/core/host_step.hpp"
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

// The host fp64 flops of a step of `ops` multiply-adds (D, Z: the report's host_fp64_flops).
template <class T>
double fp64_flops(double ops) {
  return detail::kFp64Type<T> ? kOpFlops<T> * ops : 0.0;
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
    ops = gebd2(m, n, A, lda, d, e, tauq, taup);
    const HostSpan a = HostSpan::matrix(A, m, n, lda);
    record_host_step(trace, HostStep{.name = "trnsolver.gebrd.gebd2", .flops = kOpFlops<T> * ops, .reads = {a},
                                     .writes = {a, HostSpan(d, n), HostSpan(e, std::max<std::int64_t>(0, n - 1)),
                                                HostSpan(tauq, n)}});
    record_move(trace, "trnsolver.gebrd.taup", HostSpan(taup, n), HostSpan(taup, n));  // (a step has 4 writes)
  }
  detail::finish_fp64_report(report, std::move(trace), s.target, fp64_flops<T>(ops));
  return 0;
}

// orgqr with its report absorbed into (trace, flops).
template <class T>
void orgqr_into(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t k, T* A, std::int64_t lda,
                const T* tau, detail::SubCalls& sub) {
  CallReport r;
  orgqr(s, m, n, k, A, lda, tau, &r);
  sub.absorb(r);
}

// xORGLQ (m x n, k row reflectors with conj(u_i) in row i) through orgqr on the conjugate transpose.
template <class T>
void orglq_by_orgqr(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t k, T* A, std::int64_t lda,
                    const T* tau, detail::SubCalls& sub) {
  if (m == 0) return;
  std::vector<T> b(static_cast<std::size_t>(n * m));
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

}  // namespace trn::solver
