// The symmetric tridiagonal eigenproblem by Cuppen's divide and conquer (J. J. M. Cuppen, Numer. Math.
// 36, 1981), with the deflation of LAPACK xLAED2 and the eigenvectors of the rank-one update by the
// Loewner formula of Gu & Eisenstat (SIAM J. Matrix Anal. Appl. 16(1), 1995), which keeps them
// orthogonal to working accuracy without extended precision.
//
// T = diag(T1, T2) + beta v v^T splits at m = n/2 (T1's last and T2's first diagonal reduced by
// |beta|, v = (e_m; sign(beta) e_1)). With T1 = Q1 D1 Q1^T, T2 = Q2 D2 Q2^T (recursively),
// T = diag(Q1, Q2) (D + rho z z^T) diag(Q1, Q2)^T, z = (Q1^T e_m; sign(beta) Q2^T e_1) / sqrt 2,
// rho = 2 |beta|, and D + rho z z^T = U Lambda U^T:
//   host (fp64, O(n^2), one recorded step per merge): sort D, deflate (rho |z_i| <= tol: (d_i, e_i)
//     is an eigenpair; two close d_i: a Givens rotation zeroes one z_i), the secular equation
//     1/rho + sum z_j^2 / (d_j - lambda) = 0 per root by bracketed Newton on the distance tau to the
//     nearer pole (every difference d_j - lambda formed as (d_j - pole) - tau: Gu & Eisenstat's
//     requirement), z recomputed from the roots (Loewner), U's columns z_j / (d_j - lambda) normalised,
//     the rotations and the sort applied to U's rows
//   TensorE: Q = diag(Q1, Q2) U as two GEMMs (trnblas: fp32 mode for S, Ozaki fp64 for D)
// Leaves of <= kStedcLeaf rows: implicit QL with Wilkinson's shift (the tql2 of Bowdler, Martin,
// Reinsch & Wilkinson, Numer. Math. 11, 1968), fp64 on the host, 30 iterations per eigenvalue at most.
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>

#include "eig_internal.hpp"
#include "trn/blas/blas.hpp"
#include "trn/core/host_simd.hpp"

namespace trn::solver::detail {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon() / 2;  // unit roundoff of fp64

// Implicit QL on d (n), e (n; e[i] couples i and i + 1, e[n - 1] = 0), accumulating the rotations
// into the columns of z (n x n, ld) when z is set; then sorts ascending (with z's columns). Returns
// the eigenvalues not converged within 30 iterations each (0 normally); flops added to `flops`.
// ql_implicit (below) runs this body compiled for the baseline or for AVX-512.
inline __attribute__((always_inline)) int ql_implicit_body(std::int64_t n, double* d, double* e, double* z,
                                                           std::int64_t ld, double& flops) {
  int failed = 0;
  for (std::int64_t l = 0; l < n; ++l) {
    for (int iter = 0;; ++iter) {
      std::int64_t m = l;
      for (; m < n - 1; ++m) {
        const double dd = std::fabs(d[m]) + std::fabs(d[m + 1]);
        if (std::fabs(e[m]) <= kEps * dd) break;
      }
      if (m == l) break;
      if (iter == 30) {
        ++failed;
        break;
      }
      double g = (d[l + 1] - d[l]) / (2.0 * e[l]);
      double r = std::hypot(g, 1.0);
      g = d[m] - d[l] + e[l] / (g + std::copysign(r, g));
      double s = 1, c = 1, p = 0;
      std::int64_t i = m - 1;
      bool underflow = false;
      for (; i >= l; --i) {
        const double f = s * e[i], b = c * e[i];
        e[i + 1] = r = std::hypot(f, g);
        if (r == 0.0) {
          d[i + 1] -= p;
          e[m] = 0;
          underflow = true;
          break;
        }
        s = f / r;
        c = g / r;
        g = d[i + 1] - p;
        r = (d[i] - g) * s + 2.0 * c * b;
        p = s * r;
        d[i + 1] = g + p;
        g = c * r - b;
        if (z != nullptr)
          for (std::int64_t k = 0; k < n; ++k) {
            const double zf = z[k + (i + 1) * ld];
            z[k + (i + 1) * ld] = s * z[k + i * ld] + c * zf;
            z[k + i * ld] = c * z[k + i * ld] - s * zf;
          }
        flops += 20.0 + (z != nullptr ? 6.0 * static_cast<double>(n) : 0.0);
      }
      if (underflow) continue;
      d[l] -= p;
      e[l] = g;
      e[m] = 0;
    }
  }
  for (std::int64_t i = 0; i + 1 < n; ++i) {  // selection sort (leaves, or eigenvalues only)
    std::int64_t k = i;
    for (std::int64_t j = i + 1; j < n; ++j)
      if (d[j] < d[k]) k = j;
    if (k == i) continue;
    std::swap(d[i], d[k]);
    if (z != nullptr) std::swap_ranges(z + i * ld, z + i * ld + n, z + k * ld);
  }
  return failed;
}

// The leaf solver and the merge's host step compiled twice: for the baseline (SSE2) and for AVX-512,
// chosen by host_simd(). Their vector loops (the rotations of z's column pairs; U's quotients,
// scaling and rotations) are elementwise, and every reduction stays an in-order scalar chain
// (-ffp-contract=off, no reassociation): each element takes the same operations in the same order
// on either build -- the same bits, 8 doubles a vector instead of 2.
int ql_implicit_baseline(std::int64_t n, double* d, double* e, double* z, std::int64_t ld, double& flops) {
  return ql_implicit_body(n, d, e, z, ld, flops);
}
__attribute__((target("avx512f"))) int ql_implicit_avx512(std::int64_t n, double* d, double* e, double* z,
                                                          std::int64_t ld, double& flops) {
  return ql_implicit_body(n, d, e, z, ld, flops);
}
int ql_implicit(std::int64_t n, double* d, double* e, double* z, std::int64_t ld, double& flops) {
  return host_simd() == HostSimd::avx512 ? ql_implicit_avx512(n, d, e, z, ld, flops)
                                         : ql_implicit_baseline(n, d, e, z, ld, flops);
}

// One root of 1/rho + sum_j z_j^2 / (d_j - lambda) = 0 (d ascending, k poles) in (d_i, d_{i+1})
// (the last: (d_{k-1}, d_{k-1} + rho |z|^2)) as lambda = d_pole + tau, pole i or i + 1 (the nearer).
struct Root {
  std::int64_t pole = 0;
  double tau = 0;
};

// f(tau) = 1/rho + sum_j z_j^2 / ((d_j - d_pole) - tau) and its derivative.
double secular(const double* d, const double* z, std::int64_t k, double rho, std::int64_t pole, double tau,
               double* deriv) {
  double f = 1.0 / rho, g = 0;
  for (std::int64_t j = 0; j < k; ++j) {
    const double q = z[j] / ((d[j] - d[pole]) - tau);
    f += z[j] * q;
    g += q * q;
  }
  if (deriv != nullptr) *deriv = g;
  return f;
}

// Newton's method on f (increasing between the poles) inside the bracket [a, b] with f(a) < 0 < f(b),
// each evaluation moving one end of the bracket, a bisection step whenever the Newton step leaves it;
// stops when the Newton step is below 2 u |tau| or the bracket cannot shrink (at most 2200 steps).
Root secular_root(const double* d, const double* z, std::int64_t k, double rho, double znorm2, std::int64_t i,
                  double& flops) {
  Root r{i, 0};
  double a = 0, b = 0;
  if (i == k - 1) {
    b = rho * znorm2;
  } else {
    const double half = (d[i + 1] - d[i]) / 2;
    flops += 5.0 * static_cast<double>(k);
    if (secular(d, z, k, rho, i, half, nullptr) >= 0) {
      b = half;
    } else {
      r.pole = i + 1;
      a = -half;
    }
  }
  double tau = a + (b - a) / 2;
  for (int it = 0; it < 2200; ++it) {
    double g = 0;
    const double f = secular(d, z, k, rho, r.pole, tau, &g);
    flops += 7.0 * static_cast<double>(k);
    if (f < 0) a = tau; else b = tau;
    if (f == 0) break;
    const double step = f / g;
    double next = tau - step;
    const bool newton = next > a && next < b;
    if (newton && std::fabs(step) <= 2.0 * kEps * std::fabs(next)) {
      tau = next;
      break;
    }
    if (!newton) next = a + (b - a) / 2;
    if (next == a || next == b) break;  // the bracket cannot shrink: tau is a bracket end
    tau = next;
  }
  r.tau = tau;
  return r;
}

// Every root of the secular equation at once, several in lockstep: lane l of a pass evaluates f and
// f' of its own root (its own pole and tau) in one sweep over the k poles, so that the divisions of
// W roots issue as one W-wide vector division (AVX-512: 8 lanes, AVX2: 4) and the two add chains of
// each lane run beside the other lanes' (one root's loop is bound by its dependent adds and a scalar
// division per pole). Each lane performs exactly secular_root's operations in secular_root's order --
// (d_j - d_pole) - tau, z_j / that, f + z_j q, g + q q, all IEEE fp64 without contraction -- and the
// same bracket and stopping logic, so every root is secular_root's bit for bit; the flop count is
// added per root in secular_root's order afterwards. A lane whose root has stopped takes the next root.
// `simd` portable (TRN_HOST_SIMD=portable, or no AVX2): secular_root per root. test_trnsolver_secular
// compares the levels bit for bit.
struct SecularLanes {
  static constexpr int kMax = 8;
  std::array<double, kMax> dpole{}, tau{}, f{}, g{};
};
using SecularPass = void (*)(const double* d, const double* z, std::int64_t k, double rho, SecularLanes& v);

__attribute__((target("avx512f"))) void secular_pass_avx512(const double* d, const double* z, std::int64_t k,
                                                              double rho, SecularLanes& v) {
  const __m512d dp = _mm512_loadu_pd(v.dpole.data()), tau = _mm512_loadu_pd(v.tau.data());
  __m512d f = _mm512_set1_pd(1.0 / rho), g = _mm512_setzero_pd();
  for (std::int64_t j = 0; j < k; ++j) {
    const __m512d zj = _mm512_set1_pd(z[j]);
    const __m512d q = _mm512_div_pd(zj, _mm512_sub_pd(_mm512_sub_pd(_mm512_set1_pd(d[j]), dp), tau));
    f = _mm512_add_pd(f, _mm512_mul_pd(zj, q));
    g = _mm512_add_pd(g, _mm512_mul_pd(q, q));
  }
  _mm512_storeu_pd(v.f.data(), f);
  _mm512_storeu_pd(v.g.data(), g);
}

__attribute__((target("avx2"))) void secular_pass_avx2(const double* d, const double* z, std::int64_t k, double rho,
                                                         SecularLanes& v) {
  const __m256d dp = _mm256_loadu_pd(v.dpole.data()), tau = _mm256_loadu_pd(v.tau.data());
  __m256d f = _mm256_set1_pd(1.0 / rho), g = _mm256_setzero_pd();
  for (std::int64_t j = 0; j < k; ++j) {
    const __m256d zj = _mm256_set1_pd(z[j]);
    const __m256d q = _mm256_div_pd(zj, _mm256_sub_pd(_mm256_sub_pd(_mm256_set1_pd(d[j]), dp), tau));
    f = _mm256_add_pd(f, _mm256_mul_pd(zj, q));
    g = _mm256_add_pd(g, _mm256_mul_pd(q, q));
  }
  _mm256_storeu_pd(v.f.data(), f);
  _mm256_storeu_pd(v.g.data(), g);
}

void secular_roots(HostSimd simd, const double* d, const double* z, std::int64_t k, double rho, double znorm2,
                   Root* roots, double& flops) {
  const int lanes = simd == HostSimd::avx512 ? 8 : simd == HostSimd::avx2 ? 4 : 1;
  if (lanes == 1 || k < 2) {
    for (std::int64_t j = 0; j < k; ++j) roots[j] = secular_root(d, z, k, rho, znorm2, j, flops);
    return;
  }
  const SecularPass pass = lanes == 8 ? secular_pass_avx512 : secular_pass_avx2;
  // One lane's root: secular_root's state between evaluations. `bracketing`: the first evaluation (at
  // the midpoint between poles i and i + 1, deciding the pole) is still to come.
  struct Lane {
    std::int64_t i = -1;  // the root (-1: idle)
    bool bracketing = false;
    int it = 0;  // Newton-loop evaluations so far
    double a = 0, b = 0, half = 0;
  };
  std::vector<int> iterations(static_cast<std::size_t>(k), 0);
  std::array<Lane, SecularLanes::kMax> lane;
  SecularLanes v;
  std::int64_t next_root = 0, running = 0;
  const auto start = [&](int l) {  // secular_root up to its first evaluation
    Lane& s = lane[static_cast<std::size_t>(l)];
    s = Lane{};
    if (next_root == k) return;
    const std::int64_t i = next_root++;
    ++running;
    s.i = i;
    roots[i] = Root{i, 0};
    if (i == k - 1) {
      s.b = rho * znorm2;
      v.tau[static_cast<std::size_t>(l)] = s.a + (s.b - s.a) / 2;
    } else {
      s.bracketing = true;
      s.half = (d[i + 1] - d[i]) / 2;
      v.tau[static_cast<std::size_t>(l)] = s.half;
    }
    v.dpole[static_cast<std::size_t>(l)] = d[i];
  };
  const auto stop = [&](int l, double tau) {
    Lane& s = lane[static_cast<std::size_t>(l)];
    roots[s.i].tau = tau;
    iterations[static_cast<std::size_t>(s.i)] = s.it;
    --running;
    start(l);
  };
  for (int l = 0; l < lanes; ++l) start(l);
  while (running > 0) {
    for (int l = 0; l < lanes; ++l)  // idle lanes evaluate a copy of a live one (results unused)
      if (lane[static_cast<std::size_t>(l)].i < 0)
        for (int m = 0; m < lanes; ++m)
          if (lane[static_cast<std::size_t>(m)].i >= 0) {
            v.dpole[static_cast<std::size_t>(l)] = v.dpole[static_cast<std::size_t>(m)];
            v.tau[static_cast<std::size_t>(l)] = v.tau[static_cast<std::size_t>(m)];
            break;
          }
    pass(d, z, k, rho, v);
    for (int l = 0; l < lanes; ++l) {
      Lane& s = lane[static_cast<std::size_t>(l)];
      if (s.i < 0) continue;
      const auto L = static_cast<std::size_t>(l);
      const double f = v.f[L], tau = v.tau[L];
      Root& r = roots[s.i];
      if (s.bracketing) {  // secular_root's choice of the pole
        s.bracketing = false;
        if (f >= 0) {
          s.b = s.half;
        } else {
          r.pole = s.i + 1;
          s.a = -s.half;
        }
        v.dpole[L] = d[r.pole];
        v.tau[L] = s.a + (s.b - s.a) / 2;
        continue;
      }
      ++s.it;  // secular_root's Newton step on this evaluation
      if (f < 0) s.a = tau; else s.b = tau;
      if (f == 0) {
        stop(l, tau);
        continue;
      }
      const double step = f / v.g[L];
      double next = tau - step;
      const bool newton = next > s.a && next < s.b;
      if (newton && std::fabs(step) <= 2.0 * kEps * std::fabs(next)) {
        stop(l, next);
        continue;
      }
      if (!newton) next = s.a + (s.b - s.a) / 2;
      if (next == s.a || next == s.b || s.it == 2200) {  // cannot shrink / secular_root's last step
        stop(l, next == s.a || next == s.b ? tau : next);
        continue;
      }
      v.tau[L] = next;
    }
  }
  for (std::int64_t j = 0; j < k; ++j) {  // secular_root's flop count, added in its order
    if (j != k - 1) flops += 5.0 * static_cast<double>(k);
    for (int t = 0; t < iterations[static_cast<std::size_t>(j)]; ++t) flops += 7.0 * static_cast<double>(k);
  }
}

// lambda_j - d_i of root j, from its pole.
double root_minus(const double* d, const Root& r, std::int64_t i) { return (d[r.pole] - d[i]) + r.tau; }

// The merge's host step: D + rho z z^T = U Lambda U^T on the n = n1 + n2 indices (d, z in the order
// of diag(Q1, Q2)'s columns, each half ascending); lambda ascending, U (n x n, ld n, rounded to T) in
// that order. U is formed column by column in one fp64 column buffer (a column's rotations and row
// permutation touch only that column): the same operations per element as forming all of U in fp64
// first, without two n x n fp64 temporaries per merge (fresh pages, zero fills).
struct Rotation {
  std::int64_t p, q;
  double c, s;
};

template <class T>
inline __attribute__((always_inline)) void merge_host_body(std::int64_t n, const double* d_in, const double* z_in,
                                                           double rho, double* lambda, T* U, double& flops) {
  std::vector<std::int64_t> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](std::int64_t a, std::int64_t b) { return d_in[a] < d_in[b]; });
  std::vector<double> d(static_cast<std::size_t>(n)), z(d.size());
  double dmax = 0;
  for (std::int64_t t = 0; t < n; ++t) {
    d[t] = d_in[perm[t]];
    z[t] = z_in[perm[t]];
    dmax = std::max(dmax, std::fabs(d[t]));
  }
  // Deflation (xLAED2).
  const double tol = 8.0 * kEps * std::max(dmax, rho);
  std::vector<Rotation> rots;
  std::vector<std::int64_t> keep, gone;
  std::int64_t pj = -1;
  for (std::int64_t t = 0; t < n; ++t) {
    if (rho * std::fabs(z[t]) <= tol) {
      gone.push_back(t);
      continue;
    }
    if (pj < 0) {
      pj = t;
      continue;
    }
    const double tau = std::hypot(z[t], z[pj]), c = z[t] / tau, s = -z[pj] / tau, gap = d[t] - d[pj];
    if (std::fabs(gap * c * s) <= tol) {
      z[t] = tau;
      z[pj] = 0;
      rots.push_back({pj, t, c, s});
      const double dp = d[pj] * c * c + d[t] * s * s;
      d[t] = d[pj] * s * s + d[t] * c * c;
      d[pj] = dp;
      gone.push_back(pj);
    } else {
      keep.push_back(pj);
    }
    pj = t;
  }
  if (pj >= 0) keep.push_back(pj);
  std::stable_sort(keep.begin(), keep.end(), [&](std::int64_t a, std::int64_t b) { return d[a] < d[b]; });
  const auto k = static_cast<std::int64_t>(keep.size());
  std::vector<double> dk(static_cast<std::size_t>(k)), zk(dk.size());
  double znorm2 = 0;
  for (std::int64_t j = 0; j < k; ++j) {
    dk[j] = d[keep[j]];
    zk[j] = z[keep[j]];
    znorm2 += zk[j] * zk[j];
  }
  std::vector<Root> roots(static_cast<std::size_t>(k));
  secular_roots(host_simd(), dk.data(), zk.data(), k, rho, znorm2, roots.data(), flops);
  for (std::int64_t i = 0; i < k; ++i) {  // Loewner: z_i^2 = prod_j (lambda_j - d_i) / (rho prod_{j != i} (d_j - d_i))
    double p = root_minus(dk.data(), roots[k - 1], i) / rho;
    for (std::int64_t j = 0; j < i; ++j) p *= root_minus(dk.data(), roots[j], i) / (dk[j] - dk[i]);
    for (std::int64_t j = i; j + 1 < k; ++j) p *= root_minus(dk.data(), roots[j], i) / (dk[j + 1] - dk[i]);
    zk[i] = std::copysign(std::sqrt(std::fabs(p)), zk[i]);
  }
  // Eigenpairs in ascending order: the k roots and the deflated (d_t, e_t).
  struct Pair {
    double value;
    std::int64_t root;  // >= 0: root index; < 0: deflated position -1 - t
  };
  std::vector<Pair> pairs;
  for (std::int64_t j = 0; j < k; ++j) pairs.push_back({dk[roots[j].pole] + roots[j].tau, j});
  for (std::int64_t t : gone) pairs.push_back({d[t], -1 - t});
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.value < b.value; });
  // Column c of Y (the eigenvectors in the sorted order), then U(:, c) (sorted rows) = R_1 ... R_m Y(:, c)
  // -- the last rotation first -- with the rows back in diag(Q1, Q2)'s order.
  std::vector<double> y(static_cast<std::size_t>(n)), u(static_cast<std::size_t>(k));
  for (std::int64_t c = 0; c < n; ++c) {
    lambda[c] = pairs[c].value;
    std::fill(y.begin(), y.end(), 0.0);
    if (pairs[c].root < 0) {
      y[-1 - pairs[c].root] = 1.0;
    } else {
      const Root& r = roots[pairs[c].root];
      // The quotients first (independent: one vector division per 8 with AVX-512), then the norm's add
      // chain in increasing i and the scaling -- the same operations on the same operands as one loop.
      const double dp = dk[r.pole], tau = r.tau;
      for (std::int64_t i = 0; i < k; ++i) u[i] = zk[i] / ((dk[i] - dp) - tau);
      double nrm = 0;
      for (std::int64_t i = 0; i < k; ++i) nrm += u[i] * u[i];
      nrm = std::sqrt(nrm);
      for (std::int64_t i = 0; i < k; ++i) u[i] = u[i] / nrm;
      for (std::int64_t i = 0; i < k; ++i) y[keep[i]] = u[i];
    }
    for (auto it = rots.rbegin(); it != rots.rend(); ++it) {
      const double yp = y[it->p], yq = y[it->q];
      y[it->p] = it->c * yp - it->s * yq;
      y[it->q] = it->s * yp + it->c * yq;
    }
    for (std::int64_t t = 0; t < n; ++t) U[perm[t] + c * n] = static_cast<T>(y[t]);
  }
  flops += 4.0 * static_cast<double>(k * k) + 4.0 * static_cast<double>(n * static_cast<std::int64_t>(rots.size()));
}
// merge_host_body for the baseline or AVX-512 (see ql_implicit: the same bits either way).
template <class T>
void merge_host_baseline(std::int64_t n, const double* d_in, const double* z_in, double rho, double* lambda, T* U,
                         double& flops) {
  merge_host_body(n, d_in, z_in, rho, lambda, U, flops);
}
template <class T>
__attribute__((target("avx512f"))) void merge_host_avx512(std::int64_t n, const double* d_in, const double* z_in,
                                                          double rho, double* lambda, T* U, double& flops) {
  merge_host_body(n, d_in, z_in, rho, lambda, U, flops);
}
template <class T>
void merge_host(std::int64_t n, const double* d_in, const double* z_in, double rho, double* lambda, T* U,
                double& flops) {
  if (host_simd() == HostSimd::avx512)
    merge_host_avx512(n, d_in, z_in, rho, lambda, U, flops);
  else
    merge_host_baseline(n, d_in, z_in, rho, lambda, U, flops);
}

template <class T>
struct Dc {
  EigSteps& st;
  T* Z;            // n x n, ld N
  std::int64_t N;  // leading dimension
  int failed = 0;

  // Eigenpairs of the tridiagonal d[lo, lo + n), e[lo, lo + n - 1) into w[lo ...] and Z's diagonal block.
  void solve(std::int64_t lo, std::int64_t n, double* d, double* e, double* w) {
    T* zb = Z + lo + lo * N;
    if (n <= kStedcLeaf) {
      std::vector<double> q(static_cast<std::size_t>(n * n), 0.0), ee(static_cast<std::size_t>(n), 0.0);
      for (std::int64_t i = 0; i < n; ++i) q[i + i * n] = 1.0;
      std::copy(e + lo, e + lo + n - 1, ee.begin());
      std::copy(d + lo, d + lo + n, w + lo);
      const double f0 = st.host_flops;
      failed += ql_implicit(n, w + lo, ee.data(), q.data(), n, st.host_flops);
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < n; ++i) zb[i + j * N] = static_cast<T>(q[i + j * n]);
      record_host_step(st.trace, HostStep{.name = "trnsolver.stedc.leaf", .flops = st.host_flops - f0,
                                          .reads = {HostSpan(d + lo, n), HostSpan(e + lo, n - 1)},
                                          .writes = {HostSpan::matrix(zb, n, n, N), HostSpan(w + lo, n)}});
      return;
    }
    const std::int64_t n1 = n / 2, n2 = n - n1, m = lo + n1;
    const double beta = e[m - 1], rho = std::fabs(beta);
    d[m - 1] -= rho;
    d[m] -= rho;
    solve(lo, n1, d, e, w);
    solve(m, n2, d, e, w);
    merge(lo, n1, n2, beta, w);
  }

  void merge(std::int64_t lo, std::int64_t n1, std::int64_t n2, double beta, double* w) {
    const std::int64_t n = n1 + n2;
    T* zb = Z + lo + lo * N;
    std::vector<double> z(static_cast<std::size_t>(n)), lambda(z.size());
    const double r2 = 1.0 / std::sqrt(2.0), sg = beta < 0 ? -1.0 : 1.0;
    for (std::int64_t j = 0; j < n1; ++j) z[j] = r2 * static_cast<double>(zb[(n1 - 1) + j * N]);
    for (std::int64_t j = 0; j < n2; ++j) z[n1 + j] = sg * r2 * static_cast<double>(zb[n1 + (n1 + j) * N]);
    const double f0 = st.host_flops;
    // Traced temporaries from the scratch stack: freed per merge, so heap reuse would make false HBM
    // dependencies that change with the process's history (docs/cost-model.md section 2). Ut, then Q:
    // merge_host allocates no scratch, so Ut and Q get the blocks they got when Ut was a copy made after it.
    ScratchVector<T> Ut(static_cast<std::size_t>(n * n));
    merge_host(n, w + lo, z.data(), 2.0 * std::fabs(beta), lambda.data(), Ut.data(), st.host_flops);
    ScratchVector<T> Q(static_cast<std::size_t>(n * n));
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) Q[i + j * n] = zb[i + j * N];
    std::copy(lambda.begin(), lambda.end(), w + lo);
    record_host_step(st.trace, HostStep{.name = "trnsolver.stedc.merge", .flops = st.host_flops - f0,
                                        .reads = {HostSpan::matrix(zb, n, n, N), HostSpan(w + lo, n)},
                                        .writes = {HostSpan(Ut.data(), n * n), HostSpan(w + lo, n),
                                                   HostSpan(Q.data(), n * n)}});
    // Q_new = diag(Q1, Q2) U: rows 0..n1 from Q1 U(0:n1, :), rows n1..n from Q2 U(n1:n, :).
    eig_gemm(st, false, false, n1, n, n1, 1.0, Q.data(), n, Ut.data(), n, 0.0, zb, N);
    eig_gemm(st, false, false, n2, n, n2, 1.0, Q.data() + n1 + n1 * n, n, Ut.data() + n1, n, 0.0, zb + n1, N);
  }
};

template <class T>
int stedc_impl(EigSteps& st, std::int64_t n, ScratchVector<double>& d, ScratchVector<double>& e, double* w, T* Z) {
  if (n == 0) return 0;
  if (Z == nullptr) {
    std::copy(d.begin(), d.begin() + n, w);
    std::vector<double> ee(static_cast<std::size_t>(n), 0.0);
    std::copy(e.begin(), e.begin() + (n - 1), ee.begin());
    double flops = 0;
    const int failed = ql_implicit(n, w, ee.data(), nullptr, n, flops);
    st.host_flops += flops;
    record_host_step(st.trace, HostStep{.name = "trnsolver.stedc.ql", .flops = flops,
                                        .reads = {HostSpan(d.data(), n), HostSpan(e.data(), n - 1)},
                                        .writes = {HostSpan(w, n)}});
    return failed;
  }
  Dc<T> dc{st, Z, n};
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) Z[i + j * n] = T(0);
  dc.solve(0, n, d.data(), e.data(), w);
  return dc.failed;
}

}  // namespace

void secular_roots_at(HostSimd simd, const double* d, const double* z, std::int64_t k, double rho, double znorm2,
                      std::int64_t* pole, double* tau, double& flops) {
  std::vector<Root> roots(static_cast<std::size_t>(k));
  secular_roots(simd, d, z, k, rho, znorm2, roots.data(), flops);
  for (std::int64_t j = 0; j < k; ++j) {
    pole[j] = roots[static_cast<std::size_t>(j)].pole;
    tau[j] = roots[static_cast<std::size_t>(j)].tau;
  }
}

int stedc(EigSteps& st, std::int64_t n, ScratchVector<double>& d, ScratchVector<double>& e, double* w, float* Z) {
  return stedc_impl(st, n, d, e, w, Z);
}
int stedc(EigSteps& st, std::int64_t n, ScratchVector<double>& d, ScratchVector<double>& e, double* w, double* Z) {
  return stedc_impl(st, n, d, e, w, Z);
}

void eig_gemm(EigSteps& st, bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
              const float* A, std::int64_t lda, const float* B, std::int64_t ldb, double beta, float* C,
              std::int64_t ldc) {
  if (m == 0 || n == 0) return;
  StepReport r;
  blas::gemm(st.bs, blas::GemmMode::fp32, ta ? blas::Op::T : blas::Op::N, tb ? blas::Op::T : blas::Op::N, m, n, k,
             static_cast<float>(alpha), {A, DType::f32, lda}, {B, DType::f32, ldb}, static_cast<float>(beta),
             {C, DType::f32, ldc}, &r);
  st.trace.add(std::move(r.trace));
}

void eig_gemm(EigSteps& st, bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
              const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C,
              std::int64_t ldc) {
  if (m == 0 || n == 0) return;
  StepReport r;
  blas::dgemm(st.bs, ta ? blas::Op::T : blas::Op::N, tb ? blas::Op::T : blas::Op::N, m, n, k, alpha, A, lda, B, ldb,
              beta, C, ldc, &r);
  st.trace.add(std::move(r.trace));
}

}  // namespace trn::solver::detail
