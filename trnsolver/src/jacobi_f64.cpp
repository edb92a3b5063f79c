// fp64 block Jacobi pieces (jacobi_f64.hpp): the block-pair ordering, the host subproblem sweep and
// the balanced Ozaki DGEMM that applies a pair's rotation.
#include "jacobi_f64.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "syevj_internal.hpp"
#include "trn/blas/blas.hpp"

namespace trn::solver::detail {

std::int64_t jacobi_f64_block() {
  static const std::int64_t b = [] {
    const char* env = std::getenv("TRNSOLVER_JACOBI_F64_BLOCK");
    const std::int64_t v = env != nullptr ? std::atoll(env) : kJacobiF64Block;
    return v >= 4 && v <= 128 ? v : kJacobiF64Block;
  }();
  return b;
}

std::vector<std::pair<std::int64_t, std::int64_t>> jacobi_block_pairs(std::int64_t n, std::int64_t b) {
  const std::int64_t nb = (n + b - 1) / b;
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
  if (nb == 1) pairs.emplace_back(0, 0);
  for (std::int64_t i = 0; i < nb; ++i)
    for (std::int64_t j = i + 1; j < nb; ++j) pairs.emplace_back(i, j);
  return pairs;
}

std::vector<std::int64_t> jacobi_pair_columns(std::int64_t n, std::int64_t b, std::int64_t bi, std::int64_t bj) {
  std::vector<std::int64_t> idx;
  for (std::int64_t blk : {bi, bj}) {
    for (std::int64_t i = blk * b; i < std::min(n, (blk + 1) * b); ++i) idx.push_back(i);
    if (bi == bj) break;
  }
  return idx;
}

namespace {

// Rotates the pair (p, q) of the symmetric k x k g (both triangles) and of u's columns by the angle that
// annihilates g_pq (Golub & Van Loan Alg. 8.5.2 sym.schur2; Rutishauser's diagonal update).
void rotate_pair(std::int64_t k, double* g, double* u, std::int64_t p, std::int64_t q) {
  const auto at = [&](std::int64_t i, std::int64_t j) -> double& { return g[i + j * k]; };
  const double apq = at(p, q), app = at(p, p), aqq = at(q, q);
  const double tau = (aqq - app) / (2.0 * apq);
  const double t = (tau >= 0 ? 1.0 : -1.0) / (std::fabs(tau) + std::hypot(1.0, tau));
  const double c = 1.0 / std::hypot(1.0, t), s = t * c;
  for (std::int64_t r = 0; r < k; ++r) {  // columns p, q
    const double xp = at(r, p), xq = at(r, q);
    at(r, p) = c * xp - s * xq;
    at(r, q) = s * xp + c * xq;
  }
  for (std::int64_t r = 0; r < k; ++r) {  // rows p, q
    const double xp = at(p, r), xq = at(q, r);
    at(p, r) = c * xp - s * xq;
    at(q, r) = s * xp + c * xq;
  }
  at(p, p) = app - t * apq;
  at(q, q) = aqq + t * apq;
  at(p, q) = at(q, p) = 0.0;
  for (std::int64_t r = 0; r < k; ++r) {
    const double xp = u[r + p * k], xq = u[r + q * k];
    u[r + p * k] = c * xp - s * xq;
    u[r + q * k] = s * xp + c * xq;
  }
}

}  // namespace

bool host_symmetric_jacobi(std::int64_t k, double* g, double* u, double tol, int sweeps, bool skip_zero_diagonal,
                           double& flops) {
  bool any = false;
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    bool rotated = false;
    for (std::int64_t p = 0; p < k; ++p)
      for (std::int64_t q = p + 1; q < k; ++q) {
        const double apq = g[p + q * k], app = g[p + p * k], aqq = g[q + q * k];
        if (skip_zero_diagonal && (app == 0.0 || aqq == 0.0)) continue;
        if (!(std::fabs(apq) > tol * std::sqrt(std::fabs(app * aqq)))) continue;
        rotate_pair(k, g, u, p, q);
        rotated = true;
        flops += 18.0 * static_cast<double>(k) + 20.0;
      }
    any = any || rotated;
    if (!rotated) break;
  }
  return any;
}

int scale_exponent(double x) { return x > 0 && std::isfinite(x) ? std::ilogb(x) : 0; }

std::vector<int> two_sided_balance_exponents(double mu_diag, const std::vector<double>& d, const std::vector<double>& c) {
  double mu = mu_diag;
  for (double cp : c) mu = std::max(mu, cp);
  std::vector<int> e(c.size(), 0);
  for (std::size_t p = 0; p < c.size(); ++p) e[p] = scale_exponent(std::max(std::sqrt(d[p]), mu > 0 ? c[p] / std::sqrt(mu) : 0.0));
  return e;
}

void balanced_dgemm(const Settings& s, std::int64_t rows, std::int64_t k, double* X, double* U,
                    const std::vector<int>& e, double* out, TraceParts& trace) {
  for (std::int64_t p = 0; p < k; ++p) {
    const int ep = e[static_cast<std::size_t>(p)];
    if (ep == 0) continue;
    for (std::int64_t i = 0; i < rows; ++i) X[i + p * rows] = std::ldexp(X[i + p * rows], -ep);
    for (std::int64_t j = 0; j < k; ++j) U[p + j * k] = std::ldexp(U[p + j * k], ep);
  }
  plain_dgemm(s, rows, k, X, U, out, trace);
}

// The Jacobi updates keep the Ozaki scheme (Settings::dgemm_dot2_max_macs = 0): predict_dsyevj_ns
// sums standalone DGEMM predictions, which fit the Ozaki scheme's serial host steps but not the small
// Dot2 GpSimdE programs' DMA overlap in a whole trace (s16/dsmall; the predictor's owner may opt in).
static blas::Settings jacobi_update_settings(const Settings& s) {
  blas::Settings bs = fp64_update_blas_settings(s);
  bs.dgemm_dot2_max_macs = 0;
  return bs;
}

void plain_dgemm(const Settings& s, std::int64_t rows, std::int64_t k, const double* X, const double* U, double* out,
                 TraceParts& trace) {
  if (rows <= 0 || k <= 0) return;
  blas::CallReport r;
  blas::dgemm(jacobi_update_settings(s), blas::Op::N, blas::Op::N, rows, k, k, 1.0, X, rows, U, k, 0.0, out, rows, &r);
  trace.add(std::move(r.trace));
}

void gram_dgemm(const Settings& s, std::int64_t rows, std::int64_t k, const double* X, double* G, TraceParts& trace) {
  if (k <= 0) return;
  blas::CallReport r;
  blas::dgemm(jacobi_update_settings(s), blas::Op::T, blas::Op::N, k, k, rows, 1.0, X, rows, X, rows, 0.0, G, k, &r);
  trace.add(std::move(r.trace));
}

PairStepCost jacobi_pair_step_cost(std::int64_t k) {
  const auto x = static_cast<double>(k);
  // k (k - 1) / 2 rotations of 18 k + 20 flops; the k x k block read, U written.
  return PairStepCost{x * (x - 1) / 2 * (18.0 * x + 20.0), 16.0 * x * x};
}

}  // namespace trn::solver::detail
