// Dsyevj / DsyevjBatched: two-sided block Jacobi in fp64 whose rotations are Ozaki DGEMMs on TensorE
// (jacobi_f64.hpp: algorithm, engines; docs/trnsolver.md "Dsyevj and Dgesvdj: fp64 block Jacobi").
//
// Per matrix: the full symmetric work matrix a (n x n, ld n) from the uplo triangle (host index moves).
// Per outer sweep, per block pair (I, J) in cyclic order, idx = I u J (k <= 2b columns), rest = the other
// n - k indices:
//   1. host step trnsolver.dsyevj.pair: g = a(idx, idx), one inner sweep of the scalar Jacobi with the
//      Demmel-Veselic threshold, u = its rotations (O(b^3));
//   2. when it rotated: a(rest, idx) <- a(rest, idx) U by the balanced Ozaki DGEMM (O(n b^2) on
//      TensorE), balancing exponent e_p = floor(log2 s_p) of column p,
//        s_p = max(sqrt|a_pp|, c_p / sqrt(mu)), c_p = max_i |a(rest_i, p)|, mu = max(max_i |a_ii|, max_p c_p):
//      for positive definite A, |a_ip| <= sqrt(a_ii a_pp), so mu = max_i a_ii and s_p = sqrt(a_pp) -- the
//      graded scale D of A = D H D; for any A, |a_ip| / s_p <= sqrt(mu) and s_p <= sqrt(mu), so the
//      DGEMM's error stays within 2^-49 k mu (normwise). a(idx, rest) = the transpose (symmetry: index
//      moves); a(idx, idx) = g, the host's rotated block;
//   3. with vectors: v(:, idx) <- v(:, idx) U (Ozaki DGEMM, unbalanced: V is orthogonal).
// Converged when a whole sweep rotates nothing: then every |a_pq| <= tol sqrt|a_pp a_qq| (the count
// includes that confirming sweep, as the scalar method's). Finish (host step trnsolver.dsyevj.finish):
// off(A)_F, the diagonal sorted (stable argsort), V's columns placed.
// Host: index moves, the O(b^3) subproblems, the exact power-of-two balancing (O(n b) per pair), the
// O(n^2) finish. Limits: the balancing is exact while no scaled element leaves fp64's normal range
// (|a_ij| >= 2^-1022 * 2^(e_max - e_min) for the rows that meet the smallest scales).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <numeric>

#include "jacobi_f64.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scratch.hpp"

namespace trn::solver::detail {
namespace {

// The k balancing exponents of the gathered x = a(rest, idx) (rows x k), header comment step 2.
std::vector<int> balance_exponents(const ScratchVector<double>& a, std::int64_t n, const std::vector<std::int64_t>& idx,
                                   const ScratchVector<double>& x, std::int64_t rows) {
  const auto k = static_cast<std::int64_t>(idx.size());
  double mu = 0;
  for (std::int64_t i = 0; i < n; ++i) mu = std::max(mu, std::fabs(a[static_cast<std::size_t>(i + i * n)]));
  std::vector<double> c(static_cast<std::size_t>(k), 0.0), d(static_cast<std::size_t>(k));
  for (std::int64_t p = 0; p < k; ++p) {
    for (std::int64_t i = 0; i < rows; ++i) c[p] = std::max(c[p], std::fabs(x[static_cast<std::size_t>(i + p * rows)]));
    d[p] = std::fabs(a[static_cast<std::size_t>(idx[p] + idx[p] * n)]);
  }
  return two_sided_balance_exponents(mu, d, c);
}

// The visit of one block pair (header steps 1-3). Returns whether it rotated.
bool visit_pair(const Settings& s, std::int64_t n, ScratchVector<double>& a, ScratchVector<double>& v,
                const std::vector<std::int64_t>& idx, double tol, TraceParts& trace, double& flops) {
  const auto k = static_cast<std::int64_t>(idx.size());
  const auto at = [&](std::int64_t i, std::int64_t j) -> double& { return a[static_cast<std::size_t>(i + j * n)]; };
  ScratchVector<double> g(static_cast<std::size_t>(k * k)), u(g.size(), 0.0);
  for (std::int64_t j = 0; j < k; ++j) {
    u[j + j * k] = 1.0;
    for (std::int64_t i = 0; i < k; ++i) g[i + j * k] = at(idx[i], idx[j]);
  }
  double step_flops = 0;
  const bool rotated = host_symmetric_jacobi(k, g.data(), u.data(), tol, kJacobiF64InnerSweeps, false, step_flops);
  std::vector<std::int64_t> rest;
  ScratchVector<double> x, y, ub;
  if (rotated) {
    std::vector<bool> in(static_cast<std::size_t>(n), false);
    for (std::int64_t i : idx) in[static_cast<std::size_t>(i)] = true;
    for (std::int64_t i = 0; i < n; ++i)
      if (!in[static_cast<std::size_t>(i)]) rest.push_back(i);
    const auto rows = static_cast<std::int64_t>(rest.size());
    x.resize(static_cast<std::size_t>(rows * k));
    for (std::int64_t j = 0; j < k; ++j)
      for (std::int64_t i = 0; i < rows; ++i) x[i + j * rows] = at(rest[i], idx[j]);
    ub = u;
    step_flops += static_cast<double>(rows * k + k * k);  // the power-of-two balancing
  }
  flops += step_flops;
  const auto rows = static_cast<std::int64_t>(rest.size());
  record_host_step(trace, HostStep{.name = "trnsolver.dsyevj.pair", .flops = step_flops,
                                   .reads = {HostSpan(g.data(), k * k), HostSpan(x.data(), rows * k)},
                                   .writes = {HostSpan(u.data(), k * k), HostSpan(x.data(), rows * k)}});
  if (!rotated) return false;
  if (rows > 0) {
    const std::vector<int> e = balance_exponents(a, n, idx, x, rows);
    y.resize(x.size());
    balanced_dgemm(s, rows, k, x.data(), ub.data(), e, y.data(), trace);
    for (std::int64_t j = 0; j < k; ++j)
      for (std::int64_t i = 0; i < rows; ++i) at(rest[i], idx[j]) = at(idx[j], rest[i]) = y[i + j * rows];
  }
  for (std::int64_t j = 0; j < k; ++j)
    for (std::int64_t i = 0; i < k; ++i) at(idx[i], idx[j]) = g[i + j * k];
  if (!v.empty()) {
    ScratchVector<double> vin(static_cast<std::size_t>(n * k)), vout(vin.size());
    for (std::int64_t j = 0; j < k; ++j) std::copy_n(v.begin() + idx[j] * n, n, vin.begin() + j * n);
    plain_dgemm(s, n, k, vin.data(), u.data(), vout.data(), trace);
    for (std::int64_t j = 0; j < k; ++j) std::copy_n(vout.begin() + j * n, n, v.begin() + idx[j] * n);
  }
  return true;
}

// off(A)_F, W = the diagonal (ascending when sort), A's first n columns = V's in that order.
void finish(std::int64_t n, const ScratchVector<double>& a, const ScratchVector<double>& v, double* A, std::int64_t lda,
            double* W, bool sort, SyevjResult& res, TraceParts& trace, double& flops) {
  double off2 = 0;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      if (i != j) off2 += a[static_cast<std::size_t>(i + j * n)] * a[static_cast<std::size_t>(i + j * n)];
  res.residual = std::sqrt(off2);
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const auto diag = [&](std::int64_t i) { return a[static_cast<std::size_t>(i + i * n)]; };
  if (sort) std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) { return diag(x) < diag(y); });
  for (std::int64_t j = 0; j < n; ++j) {
    W[j] = diag(order[j]);
    if (!v.empty()) std::copy_n(v.begin() + order[j] * n, n, A + j * lda);
  }
  const double f = 2.0 * static_cast<double>(n * n);
  flops += f;
  record_host_step(trace, HostStep{.name = "trnsolver.dsyevj.finish", .flops = f,
                                   .reads = {HostSpan(a.data(), n * n), HostSpan(v.data(), static_cast<std::int64_t>(v.size()))},
                                   .writes = {HostSpan(W, n), v.empty() ? HostSpan{} : HostSpan::matrix(A, n, n, lda)}});
}

}  // namespace

SyevjResult dsyevj_block(const Settings& s, bool vectors, bool lower, std::int64_t n, double* A, std::int64_t lda,
                         double* W, const SyevjParams& p, bool sort, TraceParts& trace, double* flops) {
  SyevjResult res;
  ScratchVector<double> a(static_cast<std::size_t>(n * n)), v;
  bool finite = true;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      const bool stored = lower ? i >= j : i <= j;
      const double x = stored ? A[i + j * lda] : A[j + i * lda];
      finite = finite && std::isfinite(x);
      a[static_cast<std::size_t>(i + j * n)] = x;
    }
  record_host_step(trace, HostStep{.name = "trnsolver.dsyevj.prepare", .flops = 0, .reads = {HostSpan::matrix(A, n, n, lda)},
                                   .writes = {HostSpan(a.data(), n * n)}});
  if (!finite) {
    res.info = static_cast<int>(n) + 1;
    res.residual = std::nan("");
    std::fill(W, W + n, std::nan(""));
    return res;
  }
  if (vectors) {
    v.assign(static_cast<std::size_t>(n * n), 0.0);
    for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i + i * n)] = 1.0;
  }
  const double tol = p.tolerance > 0 ? p.tolerance : DBL_EPSILON;
  const auto pairs = jacobi_block_pairs(n, jacobi_f64_block());
  bool converged = false;
  while (!converged && res.sweeps < p.max_sweeps) {
    bool rotated = false;
    for (const auto& [bi, bj] : pairs)
      rotated = visit_pair(s, n, a, v, jacobi_pair_columns(n, jacobi_f64_block(), bi, bj), tol, trace, *flops) || rotated;
    ++res.sweeps;
    converged = !rotated;
  }
  res.info = converged ? 0 : static_cast<int>(n) + 1;
  finish(n, a, v, A, lda, W, sort, res, trace, *flops);
  return res;
}

}  // namespace trn::solver::detail
