// Problems and the LAPACKE oracle of the IRS family (issue #27; tests/trnsolver/test_trnsolver_irs_family.cpp,
// tools/cli/suite_solver_irs.cpp): A = Q1(:, 0:n) diag(sigma) Q2^H (m x n, m >= n) with sigma geometric
// from 1 to 1/kappa (Q from LAPACKE zgeqrf/zungqr on Gaussian matrices; real when the type is), so
// kappa_2(A) = kappa up to the rounding of A; B = A X + noise (Gaussian X, noise of the given size);
// the reference X from LAPACKE zgels in fp64 on A and B rounded to the I/O type T. Bound of
// docs/trnsolver.md "IRS family": ||x - x_ref||_inf / ||x_ref||_inf <= 4 n (kappa + kappa^2 eta) u,
// eta = max_c ||r_c||_2 / max_c ||x_c||_2 (||A||_2 = 1). Oracle only: LAPACKE never runs in a library.
#pragma once

#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

namespace irs_ref {

using zd = std::complex<double>;
template <class T>
inline constexpr bool kCx = !std::is_floating_point_v<T>;

inline std::vector<zd> unitary(int k, bool cx, std::mt19937_64& rng) {
  std::normal_distribution<double> nd;
  std::vector<zd> q(static_cast<std::size_t>(k) * k), tau(static_cast<std::size_t>(k));
  for (zd& x : q) x = zd(nd(rng), cx ? nd(rng) : 0.0);
  auto* p = reinterpret_cast<lapack_complex_double*>(q.data());
  LAPACKE_zgeqrf(LAPACK_COL_MAJOR, k, k, p, k, reinterpret_cast<lapack_complex_double*>(tau.data()));
  LAPACKE_zungqr(LAPACK_COL_MAJOR, k, k, k, p, k, reinterpret_cast<lapack_complex_double*>(tau.data()));
  return q;
}

template <class T>
struct Problem {
  int m, n, nrhs;
  double kappa, eta = 0;
  std::vector<T> A, B;   // m x n, m x nrhs (leading dimension m)
  std::vector<zd> xref;  // n x nrhs

  Problem(int m_, int n_, int nrhs_, double kappa_, double noise, std::uint64_t seed)
      : m(m_), n(n_), nrhs(nrhs_), kappa(kappa_) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> nd;
    const auto q1 = unitary(m, kCx<T>, rng), q2 = unitary(n, kCx<T>, rng);
    A.resize(static_cast<std::size_t>(m) * n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        zd s = 0;
        for (int k = 0; k < n; ++k)
          s += q1[i + static_cast<std::size_t>(k) * m] * std::pow(kappa, -double(k) / std::max(1, n - 1)) *
               std::conj(q2[j + static_cast<std::size_t>(k) * n]);
        A[i + static_cast<std::size_t>(j) * m] = to_t(s);
      }
    B.resize(static_cast<std::size_t>(m) * nrhs);
    for (int c = 0; c < nrhs; ++c) {
      std::vector<zd> x(static_cast<std::size_t>(n));
      for (zd& v : x) v = zd(nd(rng), kCx<T> ? nd(rng) : 0.0);
      for (int i = 0; i < m; ++i) {
        zd s = zd(noise * nd(rng), kCx<T> ? noise * nd(rng) : 0.0);
        for (int j = 0; j < n; ++j) s += zd(A[i + static_cast<std::size_t>(j) * m]) * x[j];
        B[i + static_cast<std::size_t>(c) * m] = to_t(s);
      }
    }
    reference();
  }
  static T to_t(zd v) {
    if constexpr (kCx<T>)
      return T(v);
    else
      return T(v.real());
  }
  // x_ref and eta from LAPACKE zgels on the current A and B.
  void reference() {
    std::vector<zd> a(A.begin(), A.end()), b(B.begin(), B.end());
    LAPACKE_zgels(LAPACK_COL_MAJOR, 'N', m, n, nrhs, reinterpret_cast<lapack_complex_double*>(a.data()), m,
                  reinterpret_cast<lapack_complex_double*>(b.data()), m);
    xref.assign(static_cast<std::size_t>(n) * nrhs, 0);
    double rn = 0, xn = 0;
    for (int c = 0; c < nrhs; ++c) {
      double r2 = 0, x2 = 0;
      for (int i = 0; i < n; ++i) x2 += std::norm(xref[i + static_cast<std::size_t>(c) * n] = b[i + static_cast<std::size_t>(c) * m]);
      for (int i = n; i < m; ++i) r2 += std::norm(b[i + static_cast<std::size_t>(c) * m]);
      rn = std::max(rn, std::sqrt(r2));
      xn = std::max(xn, std::sqrt(x2));
    }
    eta = rn / xn;
  }
  // ||x - x_ref||_inf / ||x_ref||_inf over all columns (x n x nrhs, leading dimension n).
  template <class X>
  double error(const std::vector<X>& x) const {
    double e = 0, s = 0;
    for (std::size_t i = 0; i < xref.size(); ++i) {
      e = std::max(e, std::abs(zd(x[i]) - xref[i]));
      s = std::max(s, std::abs(xref[i]));
    }
    return e / s;
  }
  double bound(double u) const { return 4.0 * n * (kappa + kappa * kappa * eta) * u; }
};

}  // namespace irs_ref
