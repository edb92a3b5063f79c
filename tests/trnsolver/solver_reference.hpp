// Shared helpers of the trnsolver tests: random symmetric matrices, LAPACKE references and the
// error measures (all in double or long double, independent of the library).
#pragma once
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace solver_test {

// S = (G + G^T) / 2, G ~ N(0, 1), column-major n x n with leading dimension lda.
inline std::vector<double> random_symmetric(int n, int lda, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd(0.0, 1.0);
  std::vector<double> g(static_cast<std::size_t>(n) * n), a(static_cast<std::size_t>(lda) * std::max(n, 1), 0.0);
  for (double& x : g) x = nd(rng);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) a[i + static_cast<std::size_t>(j) * lda] = 0.5 * (g[i + j * n] + g[j + i * n]);
  return a;
}

// Eigenvalues (ascending) of the symmetric matrix by LAPACKE_dsyevd (reference).
inline std::vector<double> dsyevd_values(const std::vector<double>& a, int n, int lda) {
  std::vector<double> c(a), w(static_cast<std::size_t>(n));
  LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, c.data(), lda, w.data());
  return w;
}

struct EigErrors {
  double max_value_err = 0;  // max |lambda - ref| / ||A||_2
  double residual = 0;       // ||A V - V Lambda||_F / ||A||_F
  double orthogonality = 0;  // ||V^T V - I||_F
};

// Errors of (w, V) for the full symmetric matrix a (double), V column-major n x n with ldv.
template <class T>
EigErrors eig_errors(const std::vector<double>& a, int n, int lda, const T* w, const T* V, int ldv,
                     const std::vector<double>& ref) {
  EigErrors e;
  double norm2 = 0, fro = 0;
  for (double x : ref) norm2 = std::max(norm2, std::fabs(x));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) fro += a[i + j * lda] * a[i + j * lda];
  fro = std::sqrt(fro);
  for (int k = 0; k < n; ++k) e.max_value_err = std::max(e.max_value_err, std::fabs(double(w[k]) - ref[k]) / std::max(norm2, 1e-300));
  if (V == nullptr) return e;
  long double res = 0, orth = 0;
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i) {
      long double av = 0;
      for (int j = 0; j < n; ++j) av += (long double)a[i + j * lda] * (long double)V[j + k * ldv];
      const long double d = av - (long double)w[k] * (long double)V[i + k * ldv];
      res += d * d;
    }
  for (int k = 0; k < n; ++k)
    for (int l = 0; l < n; ++l) {
      long double d = 0;
      for (int i = 0; i < n; ++i) d += (long double)V[i + k * ldv] * (long double)V[i + l * ldv];
      d -= (k == l) ? 1.0L : 0.0L;
      orth += d * d;
    }
  e.residual = std::sqrt(double(res)) / std::max(fro, 1e-300);
  e.orthogonality = std::sqrt(double(orth));
  return e;
}

// A = Q1 diag(sigma) Q2^T with sigma geometric from 1 to 1/kappa (Q from LAPACKE dgeqrf/dorgqr).
inline std::vector<double> matrix_with_condition(int n, double kappa, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd;
  auto orth = [&] {
    std::vector<double> q(static_cast<std::size_t>(n) * n), tau(n);
    for (double& x : q) x = nd(rng);
    LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, n, q.data(), n, tau.data());
    LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, n, n, q.data(), n, tau.data());
    return q;
  };
  const auto q1 = orth(), q2 = orth();
  std::vector<double> a(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      long double s = 0;
      for (int k = 0; k < n; ++k)
        s += (long double)q1[i + k * n] * std::pow(kappa, -double(k) / (n - 1)) * q2[j + k * n];
      a[i + static_cast<std::size_t>(j) * n] = double(s);
    }
  return a;
}

}  // namespace solver_test
