// The IRS family (issue #27): every <t1><t2>gesv pair not covered by test_trnsolver_irs (DD, SS and
// the complex ZZ ZC ZK ZE ZY CC CK CE CY), every <t1><t2>gels and IRSXgels, against LAPACKE
// (zgesv/dgesv, zgels/dgels in fp64 on the data rounded to the I/O type; oracle only). Matrices
// A = Q1 diag(sigma) Q2^H with sigma geometric from 1 to 1/kappa (kappa_2(A) = kappa exactly up to
// the rounding of A), so the bounds below are computed, not fitted:
//   gesv   ||x - x_ref||_inf / ||x_ref||_inf <= c n kappa u_io                 (c = 4)
//   gels   the same with kappa replaced by kappa + kappa^2 eta, eta = ||r||_2 / (||A||_2 ||x||_2)
//          (the least-squares condition number; Higham, ASNA 2nd ed., Thm 20.1)
// Two-sided: the factorisation really runs in the lower precision (REFINE_NONE's error is at least
// u_low / 100 and at most c n kappa u_low), and refinement is what brings the error to u_io.
#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "trnsolver.h"

namespace {

using zd = std::complex<double>;

struct Handle {
  trnsolverDnHandle_t h = nullptr;
  Handle() { EXPECT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS); }
  ~Handle() { trnsolverDnDestroy(h); }
};

template <class C>
struct Traits;
template <>
struct Traits<double> {
  using T = double;
  static constexpr bool cx = false;
  static constexpr double u = 0x1p-53;
};
template <>
struct Traits<float> {
  using T = float;
  static constexpr bool cx = false;
  static constexpr double u = 0x1p-24;
};
template <>
struct Traits<trnDoubleComplex> {
  using T = std::complex<double>;
  static constexpr bool cx = true;
  static constexpr double u = 0x1p-53;
};
template <>
struct Traits<trnComplex> {
  using T = std::complex<float>;
  static constexpr bool cx = true;
  static constexpr double u = 0x1p-24;
};

// m x n (m >= n) A = Q1(:, 0:n) diag(sigma) Q2^H, complex (or its real part's construction when real).
std::vector<zd> conditioned(int m, int n, double kappa, bool cx, std::mt19937_64& rng) {
  std::normal_distribution<double> nd;
  auto unitary = [&](int k) {
    std::vector<zd> q(static_cast<std::size_t>(k) * k), tau(k);
    for (zd& x : q) x = zd(nd(rng), cx ? nd(rng) : 0.0);
    LAPACKE_zgeqrf(LAPACK_COL_MAJOR, k, k, reinterpret_cast<lapack_complex_double*>(q.data()), k,
                   reinterpret_cast<lapack_complex_double*>(tau.data()));
    LAPACKE_zungqr(LAPACK_COL_MAJOR, k, k, k, reinterpret_cast<lapack_complex_double*>(q.data()), k,
                   reinterpret_cast<lapack_complex_double*>(tau.data()));
    return q;
  };
  const auto q1 = unitary(m), q2 = unitary(n);
  std::vector<zd> a(static_cast<std::size_t>(m) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      zd s = 0;
      for (int k = 0; k < n; ++k) s += q1[i + k * m] * std::pow(kappa, -double(k) / std::max(1, n - 1)) * std::conj(q2[j + k * n]);
      a[i + static_cast<std::size_t>(j) * m] = s;
    }
  return a;
}

// One problem in the I/O type T: A (m x n), B (m x nrhs) rounded to T; the fp64 reference solution
// (LAPACKE zgels / zgesv on the rounded data) and eta of the reference.
template <class C>
struct Problem {
  using T = typename Traits<C>::T;
  int m, n, nrhs;
  double kappa, eta = 0;
  std::vector<T> A, B;
  std::vector<zd> xref;
  Problem(int m_, int n_, int nrhs_, double kappa_, double noise, std::uint64_t seed)
      : m(m_), n(n_), nrhs(nrhs_), kappa(kappa_) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> nd;
    const auto a = conditioned(m, n, kappa, Traits<C>::cx, rng);
    A.resize(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) A[i] = to_t(a[i]);
    B.resize(static_cast<std::size_t>(m) * nrhs);
    for (int c = 0; c < nrhs; ++c) {
      std::vector<zd> x(n);
      for (zd& v : x) v = zd(nd(rng), Traits<C>::cx ? nd(rng) : 0.0);
      for (int i = 0; i < m; ++i) {
        zd s = zd(noise * nd(rng), Traits<C>::cx ? noise * nd(rng) : 0.0);
        for (int j = 0; j < n; ++j) s += a[i + static_cast<std::size_t>(j) * m] * x[j];
        B[i + static_cast<std::size_t>(c) * m] = to_t(s);
      }
    }
    reference();
  }
  static T to_t(zd v) {
    if constexpr (Traits<C>::cx)
      return T(v);
    else
      return T(v.real());
  }
  void reference() {
    std::vector<zd> a(A.begin(), A.end()), b(B.begin(), B.end());
    auto* pa = reinterpret_cast<lapack_complex_double*>(a.data());
    auto* pb = reinterpret_cast<lapack_complex_double*>(b.data());
    ASSERT_EQ(LAPACKE_zgels(LAPACK_COL_MAJOR, 'N', m, n, nrhs, pa, m, pb, m), 0);
    xref.assign(static_cast<std::size_t>(n) * nrhs, 0);
    double rn = 0, xn = 0;
    for (int c = 0; c < nrhs; ++c) {
      double r2 = 0, x2 = 0;
      for (int i = 0; i < n; ++i) x2 += std::norm(xref[i + c * n] = b[i + static_cast<std::size_t>(c) * m]);
      for (int i = n; i < m; ++i) r2 += std::norm(b[i + static_cast<std::size_t>(c) * m]);
      rn = std::max(rn, std::sqrt(r2));
      xn = std::max(xn, std::sqrt(x2));
    }
    eta = rn / xn;  // ||A||_2 = 1
  }
  // ||x - xref||_inf / ||xref||_inf over all columns.
  double error(const std::vector<T>& x) const {
    double e = 0, s = 0;
    for (std::size_t i = 0; i < xref.size(); ++i) {
      e = std::max(e, std::abs(zd(x[i]) - xref[i]));
      s = std::max(s, std::abs(xref[i]));
    }
    return e / s;
  }
  double bound(double u) const { return 4.0 * n * (kappa + kappa * kappa * eta) * u; }
};

template <class C>
C* cp(std::vector<typename Traits<C>::T>& v) {
  return reinterpret_cast<C*>(v.data());
}

template <class C>
using GesvFn = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, C*, int, int*, C*, int, C*, int, void*, size_t,
                                     int*, int*);
template <class C>
using GesvBuf = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, C*, int, int*, C*, int, C*, int, void*, size_t*);
template <class C>
using GelsFn = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, int, C*, int, C*, int, C*, int, void*, size_t,
                                     int*, int*);
template <class C>
using GelsBuf = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, int, C*, int, C*, int, C*, int, void*, size_t*);

struct Outcome {
  int iter = 0, info = 0;
  double error = 0, bound = 0;
};

template <class C>
Outcome run_gesv(GesvBuf<C> buf, GesvFn<C> fn, int n, double kappa, std::uint64_t seed) {
  Handle h;
  Problem<C> p(n, n, 2, kappa, 0.0, seed);
  auto A = p.A, X = std::vector<typename Traits<C>::T>(p.xref.size());
  std::vector<int> ipiv(n);
  size_t bytes = 0;
  EXPECT_EQ(buf(h.h, n, 2, cp<C>(A), n, ipiv.data(), cp<C>(p.B), n, cp<C>(X), n, nullptr, &bytes),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> ws(bytes);
  Outcome o;
  EXPECT_EQ(fn(h.h, n, 2, cp<C>(A), n, ipiv.data(), cp<C>(p.B), n, cp<C>(X), n, ws.data(), bytes, &o.iter, &o.info),
            TRNSOLVER_STATUS_SUCCESS);
  o.error = p.error(X);
  o.bound = p.bound(Traits<C>::u);
  return o;
}

template <class C>
Outcome run_gels(GelsBuf<C> buf, GelsFn<C> fn, int m, int n, double kappa, double noise, std::uint64_t seed) {
  Handle h;
  Problem<C> p(m, n, 2, kappa, noise, seed);
  auto A = p.A, X = std::vector<typename Traits<C>::T>(p.xref.size());
  size_t bytes = 0;
  EXPECT_EQ(buf(h.h, m, n, 2, cp<C>(A), m, cp<C>(p.B), m, cp<C>(X), n, nullptr, &bytes), TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> ws(bytes);
  Outcome o;
  EXPECT_EQ(fn(h.h, m, n, 2, cp<C>(A), m, cp<C>(p.B), m, cp<C>(X), n, ws.data(), bytes, &o.iter, &o.info),
            TRNSOLVER_STATUS_SUCCESS);
  o.error = p.error(X);
  o.bound = p.bound(Traits<C>::u);
  return o;
}

// Same precision: one factorisation, iter 0; mixed: refinement ran (iter >= 1) and converged.
void expect_converged(const Outcome& o, bool same, const std::string& name) {
  SCOPED_TRACE(name);
  EXPECT_EQ(o.info, 0);
  if (same)
    EXPECT_EQ(o.iter, 0);
  else
    EXPECT_GE(o.iter, 1);
  EXPECT_LE(o.error, o.bound) << "iter " << o.iter;
  std::printf("%-6s iter %3d error %.3g bound %.3g\n", name.c_str(), o.iter, o.error, o.bound);
}

#define GESV_CASE(P, C, SAME, N, KAPPA)                                                                       \
  expect_converged(run_gesv<C>(trnsolverDn##P##gesv_bufferSize, trnsolverDn##P##gesv, N, KAPPA, __LINE__), SAME, \
                   #P "gesv")
#define GELS_CASE(P, C, SAME, M, N, KAPPA, NOISE)                                                             \
  expect_converged(run_gels<C>(trnsolverDn##P##gels_bufferSize, trnsolverDn##P##gels, M, N, KAPPA, NOISE, __LINE__), \
                   SAME, #P "gels")

TEST(TrnsolverIrsFamily, GesvEveryNewPairConverges) {
  GESV_CASE(DD, double, true, 40, 100.0);
  GESV_CASE(SS, float, true, 40, 100.0);
  GESV_CASE(ZZ, trnDoubleComplex, true, 40, 100.0);
  GESV_CASE(ZC, trnDoubleComplex, false, 40, 100.0);
  GESV_CASE(ZK, trnDoubleComplex, false, 40, 100.0);
  GESV_CASE(ZE, trnDoubleComplex, false, 40, 30.0);
  GESV_CASE(ZY, trnDoubleComplex, false, 40, 100.0);
  GESV_CASE(CC, trnComplex, true, 40, 100.0);
  GESV_CASE(CK, trnComplex, false, 40, 100.0);
  GESV_CASE(CE, trnComplex, false, 40, 30.0);
  GESV_CASE(CY, trnComplex, false, 40, 100.0);
}

TEST(TrnsolverIrsFamily, GelsEveryPairConverges) {
  GELS_CASE(DD, double, true, 64, 32, 100.0, 1e-3);
  GELS_CASE(DS, double, false, 64, 32, 100.0, 1e-3);
  GELS_CASE(DH, double, false, 64, 32, 100.0, 1e-3);
  GELS_CASE(DB, double, false, 64, 32, 30.0, 1e-3);
  GELS_CASE(DX, double, false, 64, 32, 100.0, 1e-3);
  GELS_CASE(SS, float, true, 64, 32, 100.0, 1e-3);
  GELS_CASE(SH, float, false, 64, 32, 100.0, 1e-3);
  GELS_CASE(SB, float, false, 64, 32, 30.0, 1e-3);
  GELS_CASE(SX, float, false, 64, 32, 100.0, 1e-3);
  GELS_CASE(ZZ, trnDoubleComplex, true, 48, 24, 100.0, 1e-3);
  GELS_CASE(ZC, trnDoubleComplex, false, 48, 24, 100.0, 1e-3);
  GELS_CASE(ZK, trnDoubleComplex, false, 48, 24, 100.0, 1e-3);
  GELS_CASE(ZE, trnDoubleComplex, false, 48, 24, 30.0, 1e-3);
  GELS_CASE(ZY, trnDoubleComplex, false, 48, 24, 100.0, 1e-3);
  GELS_CASE(CC, trnComplex, true, 48, 24, 100.0, 1e-3);
  GELS_CASE(CK, trnComplex, false, 48, 24, 100.0, 1e-3);
  GELS_CASE(CE, trnComplex, false, 48, 24, 30.0, 1e-3);
  GELS_CASE(CY, trnComplex, false, 48, 24, 100.0, 1e-3);
}

// A large residual (eta ~ 1): the corrected semi-normal equations still reach the least-squares
// solution (plain refinement of R^-1 Q^H r would stall at kappa u_low eta).
TEST(TrnsolverIrsFamily, GelsLargeResidualReachesLeastSquaresSolution) {
  expect_converged(run_gels<double>(trnsolverDnDHgels_bufferSize, trnsolverDnDHgels, 80, 20, 50.0, 1.0, 7), false,
                   "DHgels eta~1");
  expect_converged(run_gels<trnComplex>(trnsolverDnCKgels_bufferSize, trnsolverDnCKgels, 60, 20, 50.0, 1.0, 8), false,
                   "CKgels eta~1");
}

}  // namespace
