// Reference computations shared by the trnsolver tests and `trnsci validate`'s solver suite:
// independent code (long-double Jacobi, a float64 SPD generator), never the library's kernels.
#pragma once
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace trn_reference {

// Cyclic Jacobi in long double with the relative threshold |a_pq| > eps sqrt(|a_pp a_qq|)
// (Demmel & Veselic, "Jacobi's method is more accurate than QR", SIAM J. Matrix Anal. Appl. 13(4),
// 1992): the reference eigenvalues of a symmetric n x n column-major matrix, ascending.
inline std::vector<long double> jacobi_long_double(std::vector<long double> a, int n) {
  auto at = [&](int i, int j) -> long double& { return a[static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * n]; };
  for (int sweep = 0; sweep < 60; ++sweep) {
    bool rotated = false;
    for (int p = 0; p < n - 1; ++p)
      for (int q = p + 1; q < n; ++q) {
        const long double apq = at(p, q), app = at(p, p), aqq = at(q, q);
        if (!(fabsl(apq) > LDBL_EPSILON * sqrtl(fabsl(app * aqq)))) continue;
        rotated = true;
        const long double tau = (aqq - app) / (2 * apq);
        const long double t = (tau >= 0 ? 1.0L : -1.0L) / (fabsl(tau) + sqrtl(1 + tau * tau));
        const long double c = 1 / sqrtl(1 + t * t), s = t * c;
        for (int r = 0; r < n; ++r) {
          const long double xp = at(r, p), xq = at(r, q);
          at(r, p) = c * xp - s * xq;
          at(r, q) = s * xp + c * xq;
        }
        for (int r = 0; r < n; ++r) {
          const long double xp = at(p, r), xq = at(q, r);
          at(p, r) = c * xp - s * xq;
          at(q, r) = s * xp + c * xq;
        }
        at(p, p) = app - t * apq;
        at(q, q) = aqq + t * apq;
        at(p, q) = at(q, p) = 0;
      }
    if (!rotated) break;
  }
  std::vector<long double> w(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) w[static_cast<std::size_t>(i)] = at(i, i);
  std::sort(w.begin(), w.end());
  return w;
}

// B = G G^T / n + I with G standard normal from `rng` (SPD, kappa ~ 5), column-major n x n.
inline std::vector<double> random_spd(int n, std::mt19937_64& rng) {
  std::normal_distribution<double> nd;
  std::vector<double> g(static_cast<std::size_t>(n) * n), b(g.size());
  for (double& x : g) x = nd(rng);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += g[static_cast<std::size_t>(i + k * n)] * g[static_cast<std::size_t>(j + k * n)];
      b[static_cast<std::size_t>(i + j * n)] = s / n + (i == j ? 1.0 : 0.0);
    }
  return b;
}

// The graded symmetric matrix of Demmel & Veselic's accuracy experiments: A = D H D, H = G G^T + n I
// (G standard normal from `rng`) scaled to unit diagonal, D = diag(10^linspace(-8, 0)); n x n
// column-major.
inline std::vector<double> graded_symmetric(int n, std::mt19937_64& rng, double lo_exponent = -8.0) {
  std::normal_distribution<double> nd;
  const auto N = static_cast<std::size_t>(n);
  std::vector<double> g(N * N), h(N * N), a(N * N), d(N);
  for (double& x : g) x = nd(rng);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += g[static_cast<std::size_t>(i + k * n)] * g[static_cast<std::size_t>(j + k * n)];
      h[static_cast<std::size_t>(i + j * n)] = s + (i == j ? n : 0);
    }
  for (int i = 0; i < n; ++i)
    d[static_cast<std::size_t>(i)] = std::pow(10.0, lo_exponent - lo_exponent * i / (n - 1)) / std::sqrt(h[static_cast<std::size_t>(i + i * n)]);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      a[static_cast<std::size_t>(i + j * n)] = d[static_cast<std::size_t>(i)] * h[static_cast<std::size_t>(i + j * n)] * d[static_cast<std::size_t>(j)];
  return a;
}

}  // namespace trn_reference
