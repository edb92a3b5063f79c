// geev / Xgeev (the non-symmetric eigensolver, S D C Z): against LAPACKE dgeev / zgeev of the same
// matrix promoted to double (the reference eigenvalues) and sgeev / cgeev (LAPACK's own error in the
// working precision), long-double residuals computed here, known spectra (conjugate pairs of a
// rotation-scaling block matrix, diagonal, a perturbed Jordan block), n = 0/1/2, NaN input, the C
// entry points' argument positions with outputs untouched, and the C99 walkthrough of the Xgeev call
// sequence (trnsolver_c_geev_walkthrough.c) on trnsci's own matrices. LAPACKE is an oracle only.
// Bounds (docs/trnsolver.md "Non-symmetric eigen (Xgeev)"):
//   residual   ||A V - V L||_F / (||A||_F ||V||_F) <= kRes n u
//   eigenvalue |l - l_ref| <= kVal n u ||A||_F  (well-conditioned spectra: random Gaussian matrices
//              n <= 64, normal or block-normal test matrices; the Jordan block has its own bound)
//   normalised ||v_j||_2 = 1 within kRes n u, the largest component real (exactly)
#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "geev_internal.hpp"  // trnsolver/src: detail::gehrd
#include "trn/core/trace.hpp"
#include "trn/solver/geev.hpp"
#include "trnsolver.h"

namespace ts = trn::solver;

namespace {

using LC = std::complex<long double>;
using ZC = std::complex<double>;
constexpr double kRes = 4.0, kVal = 8.0;

template <class T>
struct Tr {
  using R = T;
  static constexpr bool complex = false;
};
template <class R_>
struct Tr<std::complex<R_>> {
  using R = R_;
  static constexpr bool complex = true;
};
template <class T>
using RealOf = typename Tr<T>::R;
template <class T>
double u_of() {
  return std::is_same_v<RealOf<T>, float> ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
}

template <class T>
std::vector<T> random_matrix(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd;
  std::vector<T> a(static_cast<std::size_t>(n * n));
  for (T& x : a) {
    if constexpr (Tr<T>::complex) x = T(static_cast<RealOf<T>>(nd(rng)), static_cast<RealOf<T>>(nd(rng)));
    else x = static_cast<T>(nd(rng));
  }
  return a;
}

template <class T>
LC lc(T x) {
  if constexpr (Tr<T>::complex) return LC(x.real(), x.imag()); else return LC(x, 0);
}

// The result of one geev call as complex eigenpairs (real data unpacked: a pair's vectors v, conj(v)).
struct Eig {
  int info = 0;
  std::vector<LC> w;
  std::vector<std::vector<LC>> v;  // empty without vectors
};

// Real geev output (wr, wi, and VR packed as LAPACK xGEEV packs a conjugate pair: columns j, j+1 =
// real, imaginary part) as complex eigenpairs in e (no vectors when vr is null).
template <class R>
void unpack_real(std::int64_t n, const R* wr, const R* wi, const R* vr, Eig& e) {
  for (std::int64_t j = 0; j < n; ++j) e.w.emplace_back(wr[j], wi[j]);
  if (vr == nullptr) return;
  for (std::int64_t j = 0; j < n; ++j) {
    std::vector<LC> col(static_cast<std::size_t>(n));
    const bool first = wi[j] > 0, second = j > 0 && wi[j] < 0 && wi[j - 1] > 0;
    for (std::int64_t i = 0; i < n; ++i) {
      if (first) col[i] = LC(vr[i + j * n], vr[i + (j + 1) * n]);
      else if (second) col[i] = LC(vr[i + (j - 1) * n], -static_cast<long double>(vr[i + j * n]));
      else col[i] = LC(vr[i + j * n], 0);
    }
    e.v.push_back(col);
  }
}

template <class T>
Eig run_geev(std::int64_t n, std::vector<T> a, bool vectors, const ts::Settings& s = {}) {
  Eig e;
  // (n + 1) n + 1 entries: GCC 12 cannot see that a pair never starts in the last column (-Warray-bounds)
  std::vector<T> vr(static_cast<std::size_t>(std::max<std::int64_t>(0, (n + 1) * n) + 1));
  if constexpr (Tr<T>::complex) {
    std::vector<T> w(static_cast<std::size_t>(n));
    e.info = ts::geev(s, vectors, n, a.data(), std::max<std::int64_t>(1, n), w.data(), vectors ? vr.data() : nullptr,
                      std::max<std::int64_t>(1, n));
    for (T x : w) e.w.push_back(lc(x));
    if (vectors)
      for (std::int64_t j = 0; j < n; ++j) {
        std::vector<LC> col;
        for (std::int64_t i = 0; i < n; ++i) col.push_back(lc(vr[i + j * n]));
        e.v.push_back(col);
      }
  } else {
    std::vector<T> wr(static_cast<std::size_t>(n)), wi(wr.size());
    e.info = ts::geev(s, vectors, n, a.data(), std::max<std::int64_t>(1, n), wr.data(), wi.data(),
                      vectors ? vr.data() : nullptr, std::max<std::int64_t>(1, n));
    unpack_real(n, wr.data(), wi.data(), vectors ? vr.data() : nullptr, e);
  }
  return e;
}

// Reference eigenvalues: LAPACKE dgeev / zgeev of the matrix promoted to double (lowp: sgeev / cgeev).
template <class T>
std::vector<LC> lapack_eigs(std::int64_t n, const std::vector<T>& a, bool lowp = false) {
  const auto N = static_cast<lapack_int>(n);
  std::vector<LC> out;
  if (n == 0) return out;
  if constexpr (Tr<T>::complex) {
    if (lowp && std::is_same_v<RealOf<T>, float>) {
      std::vector<std::complex<float>> b(a.size()), w(static_cast<std::size_t>(n));
      for (std::size_t i = 0; i < a.size(); ++i) b[i] = std::complex<float>(a[i]);
      EXPECT_EQ(LAPACKE_cgeev(LAPACK_COL_MAJOR, 'N', 'N', N, reinterpret_cast<lapack_complex_float*>(b.data()), N,
                              reinterpret_cast<lapack_complex_float*>(w.data()), nullptr, 1, nullptr, 1), 0);
      for (auto x : w) out.emplace_back(x.real(), x.imag());
      return out;
    }
    std::vector<ZC> b(a.size()), w(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < a.size(); ++i) b[i] = ZC(a[i]);
    EXPECT_EQ(LAPACKE_zgeev(LAPACK_COL_MAJOR, 'N', 'N', N, reinterpret_cast<lapack_complex_double*>(b.data()), N,
                            reinterpret_cast<lapack_complex_double*>(w.data()), nullptr, 1, nullptr, 1), 0);
    for (auto x : w) out.emplace_back(x.real(), x.imag());
  } else {
    if (lowp && std::is_same_v<T, float>) {
      std::vector<float> b(a.begin(), a.end()), wr(static_cast<std::size_t>(n)), wi(wr.size());
      EXPECT_EQ(LAPACKE_sgeev(LAPACK_COL_MAJOR, 'N', 'N', N, b.data(), N, wr.data(), wi.data(), nullptr, 1, nullptr, 1), 0);
      for (std::int64_t j = 0; j < n; ++j) out.emplace_back(wr[j], wi[j]);
      return out;
    }
    std::vector<double> b(a.begin(), a.end()), wr(static_cast<std::size_t>(n)), wi(wr.size());
    EXPECT_EQ(LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', N, b.data(), N, wr.data(), wi.data(), nullptr, 1, nullptr, 1), 0);
    for (std::int64_t j = 0; j < n; ++j) out.emplace_back(wr[j], wi[j]);
  }
  return out;
}

// max over the reference eigenvalues of the distance to their greedy nearest unmatched partner.
double multiset_distance(std::vector<LC> ref, std::vector<LC> got) {
  EXPECT_EQ(ref.size(), got.size());
  double worst = 0;
  std::vector<bool> used(got.size(), false);
  for (const LC& r : ref) {
    double best = std::numeric_limits<double>::infinity();
    std::size_t at = 0;
    for (std::size_t k = 0; k < got.size(); ++k)
      if (!used[k] && static_cast<double>(std::abs(got[k] - r)) < best) {
        best = static_cast<double>(std::abs(got[k] - r));
        at = k;
      }
    if (!got.empty()) used[at] = true;
    worst = std::max(worst, best);
  }
  return worst;
}

template <class T>
double fro(const std::vector<T>& a) {
  long double s = 0;
  for (T x : a) s += std::norm(lc(x));
  return static_cast<double>(std::sqrt(s));
}

// ||A V - V L||_F / (||A||_F ||V||_F) in long double.
template <class T>
double residual(std::int64_t n, const std::vector<T>& a, const Eig& e) {
  long double r = 0, vn = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < n; ++i) {
      LC s = 0;
      for (std::int64_t k = 0; k < n; ++k) s += lc(a[i + k * n]) * e.v[j][k];
      r += std::norm(s - e.w[j] * e.v[j][i]);
      vn += std::norm(e.v[j][i]);
    }
  }
  return static_cast<double>(std::sqrt(r) / (fro(a) * std::sqrt(vn)));
}

// Norm 1 within kRes n u and the largest component real (exactly).
template <class T>
void expect_normalised(std::int64_t n, const Eig& e) {
  const double tol = kRes * static_cast<double>(n) * u_of<T>();
  for (std::int64_t j = 0; j < n; ++j) {
    long double s = 0, big = -1;
    LC at;
    for (const LC& x : e.v[j]) {
      s += std::norm(x);
      if (std::norm(x) > big) { big = std::norm(x); at = x; }
    }
    EXPECT_NEAR(static_cast<double>(std::sqrt(s)), 1.0, tol) << "column " << j;
    EXPECT_EQ(static_cast<double>(at.imag()), 0.0) << "column " << j;
  }
}

template <class T>
void check_random(std::int64_t n, std::uint64_t seed) {
  SCOPED_TRACE(testing::Message() << "n=" << n << " seed=" << seed);
  const std::vector<T> a = random_matrix<T>(n, seed);
  const Eig e = run_geev<T>(n, a, true);
  ASSERT_EQ(e.info, 0);
  const double u = u_of<T>(), nu = static_cast<double>(n) * u;
  const double ev = multiset_distance(lapack_eigs(n, a), e.w);
  EXPECT_LE(ev, kVal * nu * fro(a));
  if (std::is_same_v<RealOf<T>, float> && n >= 8) {  // as accurate as LAPACK's own fp32 geev, not better than fp32
    const double lapack32 = multiset_distance(lapack_eigs(n, a), lapack_eigs(n, a, true));
    EXPECT_LE(ev, 8.0 * lapack32 + nu * fro(a));
    EXPECT_GE(ev, u / 64.0 * fro(a));
  }
  EXPECT_LE(residual(n, a, e), kRes * nu);
  expect_normalised<T>(n, e);
  const Eig values_only = run_geev<T>(n, a, false);
  ASSERT_EQ(values_only.info, 0);
  EXPECT_LE(multiset_distance(lapack_eigs(n, a), values_only.w), kVal * nu * fro(a));
}

template <class T>
class Geev : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Geev, Types);

TYPED_TEST(Geev, RandomAgainstLapack) {
  std::uint64_t seed = 7;
  for (std::int64_t n : {1, 2, 3, 4, 5, 7, 16, 33, 64}) check_random<TypeParam>(n, seed++);
}

// geev's Hessenberg reduction alone (the blocked xGEHRD of gehrd.cpp, internal): ||A - Q H Q^H||_F / ||A||_F
// <= kHess n u and ||Q^H Q - I||_F <= kHess n u with Q formed from its reflectors by LAPACKE zunghr (an
// independent oracle of the storage: xGEHRD's), H's first column against LAPACKE zgehrd's (the same
// reflector conventions); the default crossover, and blocked at any size (TRNSOLVER_GEHRD_NX = 0): several
// panels (TRNSOLVER_GEHRD_NB = 5), one panel and the xGEHD2 tail (nb 32).
constexpr double kHess = 16.0;
template <class T>
void check_hessenberg(std::int64_t n, std::uint64_t seed) {
  SCOPED_TRACE(testing::Message() << "n=" << n);
  const std::vector<T> a0 = random_matrix<T>(n, seed);
  std::vector<T> a = a0, tau(static_cast<std::size_t>(n));
  trn::TraceParts trace;
  ts::detail::gehrd(ts::Settings{}, n, a.data(), n, tau.data(), trace);
  const auto N = static_cast<lapack_int>(n);
  std::vector<ZC> q(a.size()), tq(static_cast<std::size_t>(n)), href(a.size()), tref(tq.size());
  for (std::size_t i = 0; i < a.size(); ++i) q[i] = ZC(static_cast<double>(lc(a[i]).real()), static_cast<double>(lc(a[i]).imag()));
  for (std::size_t i = 0; i < tq.size(); ++i) tq[i] = ZC(static_cast<double>(lc(tau[i]).real()), static_cast<double>(lc(tau[i]).imag()));
  for (std::size_t i = 0; i < a.size(); ++i) href[i] = ZC(static_cast<double>(lc(a0[i]).real()), static_cast<double>(lc(a0[i]).imag()));
  auto L = [](std::vector<ZC>& v) { return reinterpret_cast<lapack_complex_double*>(v.data()); };
  ASSERT_EQ(LAPACKE_zgehrd(LAPACK_COL_MAJOR, N, 1, N, L(href), N, L(tref)), 0);
  ASSERT_EQ(LAPACKE_zunghr(LAPACK_COL_MAJOR, N, 1, N, L(q), N, L(tq)), 0);
  const double u = u_of<T>(), an = fro(a0);
  for (std::int64_t i = 0; i < 2; ++i)  // column 0 of H (no rounding amplification): LAPACK's
    EXPECT_LE(static_cast<double>(std::abs(lc(a[i]) - LC(href[i]))), kHess * static_cast<double>(n) * u * an) << i;
  long double res = 0, orth = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      LC s = 0, g = 0;  // (Q H Q^H)(i, j) and (Q^H Q)(i, j)
      for (std::int64_t k = 0; k < n; ++k) {
        LC qh = 0;  // (Q H)(i, k), H upper Hessenberg
        for (std::int64_t l = 0; l <= std::min(n - 1, k + 1); ++l) qh += LC(q[i + l * n]) * lc(a[l + k * n]);
        s += qh * std::conj(LC(q[j + k * n]));
        g += std::conj(LC(q[k + i * n])) * LC(q[k + j * n]);
      }
      res += std::norm(s - lc(a0[i + j * n]));
      orth += std::norm(g - LC(i == j ? 1 : 0));
    }
  const double rel = static_cast<double>(std::sqrt(res)) / an;
  EXPECT_LE(rel, kHess * static_cast<double>(n) * u);
  EXPECT_GE(rel, u / 64);  // the working precision's rounding is there (not an fp64 reduction of fp32 data)
  EXPECT_LE(static_cast<double>(std::sqrt(orth)), kHess * static_cast<double>(n) * u);
}

TYPED_TEST(Geev, HessenbergReductionResidualAndOrthogonality) {
  check_hessenberg<TypeParam>(70, 170);  // the default crossover: S/C one panel + xGEHD2, D/Z xGEHD2 alone
  ASSERT_EQ(setenv("TRNSOLVER_GEHRD_NX", "0", 1), 0);  // blocked whatever the size and precision
  for (std::int64_t n : {3, 40, 70}) check_hessenberg<TypeParam>(n, 90 + static_cast<std::uint64_t>(n));
  ASSERT_EQ(setenv("TRNSOLVER_GEHRD_NB", "5", 1), 0);
  for (std::int64_t n : {8, 23}) check_hessenberg<TypeParam>(n, 80 + static_cast<std::uint64_t>(n));
  ASSERT_EQ(unsetenv("TRNSOLVER_GEHRD_NB"), 0);
  ASSERT_EQ(unsetenv("TRNSOLVER_GEHRD_NX"), 0);
}

// The plan states the reduction it runs: S/C blocked above the crossover (64 columns at nb 32), D/Z
// xGEHD2; the blocked columns' flops move from the host count to the TensorE count (S/C: all of them).
TEST(GeevPlan, PrintsPanelsAndSplitsFlops) {
  const ts::GeevPlan s128 = ts::plan_geev('s', 128, true), s48 = ts::plan_geev('s', 48, true),
                     d128 = ts::plan_geev('d', 128, true);
  EXPECT_EQ(s128.gehrd_nb, 32);
  EXPECT_EQ(s128.gehrd_blocked, 64);  // panels at columns 0 and 32; xGEHD2 from 64 (nx = 64)
  EXPECT_EQ(s48.gehrd_blocked, 0);
  EXPECT_EQ(d128.gehrd_blocked, 0);
  EXPECT_NE(s128.print().find("blocked Householder Hessenberg (nb 32, 64 columns by panels)"), std::string::npos);
  EXPECT_NE(d128.print().find("unblocked Householder Hessenberg"), std::string::npos);
  ASSERT_EQ(setenv("TRNSOLVER_GEHRD_NX", "1000", 1), 0);
  const ts::GeevPlan s128_unblocked = ts::plan_geev('s', 128, true);
  ASSERT_EQ(unsetenv("TRNSOLVER_GEHRD_NX"), 0);
  EXPECT_EQ(s128_unblocked.gehrd_blocked, 0);
  double moved = 0;  // xGEHD2's flops of columns 0..63: 4 n (n-i-1) + 4 (n-i-1)^2
  for (int i = 0; i < 64; ++i) moved += 4.0 * 128 * (127 - i) + 4.0 * (127 - i) * (127 - i);
  EXPECT_NEAR(s128_unblocked.host_flops - s128.host_flops, moved, 1e-9 * moved);
  EXPECT_NEAR(s128.gemm_flops - s128_unblocked.gemm_flops, moved, 1e-9 * moved);
}

// Q B Q^T with B = diag of rotation-scaling blocks [a b; -b a] (eigenvalues a +- ib) and reals, Q
// orthogonal (Householder of a random vector): the exact spectrum is known.
TYPED_TEST(Geev, KnownConjugatePairs) {
  using T = TypeParam;
  const std::int64_t n = 9;
  std::vector<double> b(static_cast<std::size_t>(n * n), 0.0);
  std::vector<LC> exact;
  const double blocks[4][2] = {{1.0, 2.0}, {-0.5, 0.25}, {3.0, 1.0}, {0.0, 4.0}};
  for (int k = 0; k < 4; ++k) {
    const std::int64_t i = 2 * k;
    b[i + i * n] = b[(i + 1) + (i + 1) * n] = blocks[k][0];
    b[i + (i + 1) * n] = blocks[k][1];
    b[(i + 1) + i * n] = -blocks[k][1];
    exact.emplace_back(blocks[k][0], blocks[k][1]);
    exact.emplace_back(blocks[k][0], -blocks[k][1]);
  }
  b[8 + 8 * n] = -2.0;
  exact.emplace_back(-2.0, 0.0);
  std::vector<double> v(static_cast<std::size_t>(n));
  std::mt19937_64 rng(3);
  std::normal_distribution<double> nd;
  double vv = 0;
  for (double& x : v) { x = nd(rng); vv += x * x; }
  std::vector<double> q(static_cast<std::size_t>(n * n)), qb(q.size()), a(q.size());
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) q[i + j * n] = (i == j ? 1.0 : 0.0) - 2.0 * v[i] * v[j] / vv;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::int64_t k = 0; k < n; ++k) s += q[i + k * n] * b[k + j * n];
      qb[i + j * n] = s;
    }
  std::vector<T> at(q.size());
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::int64_t k = 0; k < n; ++k) s += qb[i + k * n] * q[j + k * n];
      at[i + j * n] = static_cast<T>(static_cast<RealOf<T>>(s));
    }
  const Eig e = run_geev<T>(n, at, true);
  ASSERT_EQ(e.info, 0);
  const double nu = static_cast<double>(n) * u_of<T>();
  EXPECT_LE(multiset_distance(exact, e.w), kVal * nu * fro(at));
  EXPECT_LE(residual(n, at, e), kRes * nu);
  expect_normalised<T>(n, e);
  if constexpr (!Tr<T>::complex) {  // pairs consecutive, positive imaginary part first, exact conjugates
    for (std::int64_t j = 0; j + 1 < n; ++j)
      if (e.w[j].imag() > 0) {
        EXPECT_EQ(e.w[j + 1], std::conj(e.w[j]));
        ++j;
      }
  }
}

TYPED_TEST(Geev, DiagonalIsExact) {
  using T = TypeParam;
  const std::int64_t n = 6;
  std::vector<T> a(static_cast<std::size_t>(n * n), T(0));
  std::vector<LC> exact;
  for (std::int64_t j = 0; j < n; ++j) {
    const auto d = static_cast<RealOf<T>>(0.5 * static_cast<double>(j) - 1.25);
    a[j + j * n] = T(d);
    exact.emplace_back(d, 0);
  }
  const Eig e = run_geev<T>(n, a, true);
  ASSERT_EQ(e.info, 0);
  EXPECT_EQ(multiset_distance(exact, e.w), 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) EXPECT_EQ(std::abs(e.v[j][i]), i == j ? 1.0L : 0.0L);
}

// A Jordan block J_6(2) plus a 1e-3 perturbation of its corner: eigenvalues 2 + (1e-3)^(1/6) e^(2 pi i k/6)
// (a defective-ish, ill-conditioned spectrum): residual bound as always, eigenvalues to the conditioning.
TYPED_TEST(Geev, PerturbedJordanBlock) {
  using T = TypeParam;
  const std::int64_t n = 6;
  std::vector<T> a(static_cast<std::size_t>(n * n), T(0));
  for (std::int64_t j = 0; j < n; ++j) {
    a[j + j * n] = T(2);
    if (j + 1 < n) a[j + (j + 1) * n] = T(1);
  }
  a[n - 1] = T(static_cast<RealOf<T>>(1e-3));
  const Eig e = run_geev<T>(n, a, true);
  ASSERT_EQ(e.info, 0);
  std::vector<LC> exact;
  const long double r = std::pow(1e-3L, 1.0L / 6);
  for (int k = 0; k < 6; ++k) exact.push_back(LC(2) + std::polar(r, 2.0L * 3.14159265358979323846L * k / 6));
  const double nu = static_cast<double>(n) * u_of<T>();
  EXPECT_LE(multiset_distance(exact, e.w), 1e3 * nu);  // condition ~ 1 / (6 r^5) ~ 50 here
  EXPECT_LE(residual(n, a, e), kRes * nu);
  expect_normalised<T>(n, e);
}

TYPED_TEST(Geev, TinySizesAndNaN) {
  using T = TypeParam;
  EXPECT_EQ(run_geev<T>(0, {}, true).info, 0);
  const Eig one = run_geev<T>(1, {T(-3)}, true);
  ASSERT_EQ(one.info, 0);
  EXPECT_EQ(one.w[0], LC(-3));
  EXPECT_EQ(one.v[0][0], LC(1));
  const Eig rot = run_geev<T>(2, {T(0), T(1), T(-1), T(0)}, true);  // [0 -1; 1 0]: +-i
  ASSERT_EQ(rot.info, 0);
  EXPECT_LE(multiset_distance({LC(0, 1), LC(0, -1)}, rot.w), 4 * u_of<T>());
  EXPECT_LE(residual(2, std::vector<T>{T(0), T(1), T(-1), T(0)}, rot), kRes * 2 * u_of<T>());
  std::vector<T> bad = random_matrix<T>(4, 1);
  bad[5] = T(std::numeric_limits<RealOf<T>>::quiet_NaN());
  const Eig nan = run_geev<T>(4, bad, true);
  EXPECT_EQ(nan.info, 4);
  for (const LC& w : nan.w) EXPECT_TRUE(std::isnan(static_cast<double>(w.real())));
  std::vector<T> a1(1, T(1)), w1(2), vr1(1);
  if constexpr (Tr<T>::complex) {
    EXPECT_THROW(ts::geev({}, true, -1, a1.data(), 1, w1.data(), vr1.data(), 1), trn::Error);
    EXPECT_THROW(ts::geev({}, true, 1, a1.data(), 1, w1.data(), vr1.data(), 0), trn::Error);
  } else {
    EXPECT_THROW(ts::geev({}, true, -1, a1.data(), 1, w1.data(), w1.data() + 1, vr1.data(), 1), trn::Error);
    EXPECT_THROW(ts::geev({}, false, 1, a1.data(), 1, w1.data(), nullptr, nullptr, 1), trn::Error);
  }
}

TYPED_TEST(Geev, SameBitsForAnyHostThreadCount) {
  using T = TypeParam;
  const std::vector<T> a = random_matrix<T>(24, 11);
  ts::Settings s1, s2;
  s1.host_threads = 1;
  s2.host_threads = 2;
  const Eig e1 = run_geev<T>(24, a, true, s1), e2 = run_geev<T>(24, a, true, s2);
  EXPECT_EQ(e1.w, e2.w);
  EXPECT_EQ(e1.v, e2.v);
}

// ---- C API ----------------------------------------------------------------------------------------

struct Api {
  trnsolverDnHandle_t h = nullptr;
  trnsolverDnParams_t p = nullptr;
  Api() {
    EXPECT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(trnsolverDnCreateParams(&p), TRNSOLVER_STATUS_SUCCESS);
  }
  ~Api() {
    trnsolverDnDestroyParams(p);
    trnsolverDnDestroy(h);
  }
};

// The arguments of one Xgeev call, editable per bad-argument case.
struct Args {
  int jobvl = TRNSOLVER_EIG_MODE_NOVECTOR, jobvr = TRNSOLVER_EIG_MODE_VECTOR;
  std::int64_t n = 4;
  int dta = TRN_R_64F;
  void* A = nullptr;
  std::int64_t lda = 4;
  int dtw = TRN_R_64F;
  void* W = nullptr;
  int dtvl = TRN_R_64F;
  std::int64_t ldvl = 1;
  int dtvr = TRN_R_64F;
  void* VR = nullptr;
  std::int64_t ldvr = 4;
  int dtc = TRN_R_64F;
};

trnsolverStatus_t size_of(const Api& api, trnsolverDnParams_t p, const Args& a, size_t* dev, size_t* host) {
  return trnsolverDnXgeev_bufferSize(api.h, p, static_cast<trnsolverEigMode_t>(a.jobvl),
                                     static_cast<trnsolverEigMode_t>(a.jobvr), a.n, static_cast<trnDataType_t>(a.dta),
                                     a.A, a.lda, static_cast<trnDataType_t>(a.dtw), a.W,
                                     static_cast<trnDataType_t>(a.dtvl), nullptr, a.ldvl,
                                     static_cast<trnDataType_t>(a.dtvr), a.VR, a.ldvr,
                                     static_cast<trnDataType_t>(a.dtc), dev, host);
}
trnsolverStatus_t call(const Api& api, trnsolverDnParams_t p, const Args& a, void* dw, size_t dev, void* hw,
                       size_t host, int* info) {
  return trnsolverDnXgeev(api.h, p, static_cast<trnsolverEigMode_t>(a.jobvl), static_cast<trnsolverEigMode_t>(a.jobvr),
                          a.n, static_cast<trnDataType_t>(a.dta), a.A, a.lda, static_cast<trnDataType_t>(a.dtw), a.W,
                          static_cast<trnDataType_t>(a.dtvl), nullptr, a.ldvl, static_cast<trnDataType_t>(a.dtvr),
                          a.VR, a.ldvr, static_cast<trnDataType_t>(a.dtc), dw, dev, hw, host, info);
}

TEST(GeevCApi, SameBitsAsCppAndMixedW) {
  Api api;
  const std::int64_t n = 12;
  const std::vector<double> a0 = random_matrix<double>(n, 21);
  std::vector<double> a = a0, w(2 * n), vr(n * n), a1 = a0, wr(n), wi(n), vr1(n * n);
  Args args;
  args.n = args.lda = args.ldvr = n;
  args.A = a.data();
  args.W = w.data();
  args.VR = vr.data();
  size_t dev = 0, host = 0;
  ASSERT_EQ(size_of(api, api.p, args, &dev, &host), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_GT(dev, 0u);
  EXPECT_GT(host, 0u);
  std::vector<char> dw(dev), hw(host);
  int info = -7;
  ASSERT_EQ(call(api, api.p, args, dw.data(), dev, hw.data(), host, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  ASSERT_EQ(ts::geev({}, true, n, a1.data(), n, wr.data(), wi.data(), vr1.data(), n), 0);
  EXPECT_EQ(std::vector<double>(w.begin(), w.begin() + n), wr);
  EXPECT_EQ(std::vector<double>(w.begin() + n, w.end()), wi);
  EXPECT_EQ(vr, vr1);
  // dataTypeW complex: the same eigenvalues joined
  std::vector<ZC> wc(n);
  a = a0;
  args.dtw = TRN_C_64F;
  args.W = wc.data();
  ASSERT_EQ(call(api, api.p, args, dw.data(), dev, hw.data(), host, &info), TRNSOLVER_STATUS_SUCCESS);
  for (std::int64_t j = 0; j < n; ++j) EXPECT_EQ(wc[j], ZC(wr[j], wi[j]));
  // complex A (C_32F), eigenvalues only: against the C++ call
  std::vector<std::complex<float>> ac = random_matrix<std::complex<float>>(n, 5), ac1 = ac, wcf(n), wcf1(n);
  Args cargs;
  cargs.n = cargs.lda = n;
  cargs.jobvr = TRNSOLVER_EIG_MODE_NOVECTOR;
  cargs.ldvr = 1;
  cargs.dta = cargs.dtw = cargs.dtvl = cargs.dtvr = cargs.dtc = TRN_C_32F;
  cargs.A = ac.data();
  cargs.W = wcf.data();
  ASSERT_EQ(size_of(api, api.p, cargs, &dev, &host), TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> dw2(dev), hw2(host);
  ASSERT_EQ(call(api, api.p, cargs, dw2.data(), dev, hw2.data(), host, &info), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(ts::geev({}, false, n, ac1.data(), n, wcf1.data(), nullptr, 1), 0);
  EXPECT_EQ(wcf, wcf1);
}

TEST(GeevCApi, BadArgumentsPositionsAndUntouchedOutputs) {
  Api api;
  const std::int64_t n = 4;
  std::vector<double> a = random_matrix<double>(n, 2), w(2 * n, 5.0), vr(n * n, 6.0);
  const std::vector<double> a0 = a;
  Args good;
  good.A = a.data();
  good.W = w.data();
  good.VR = vr.data();
  size_t dev = 0, host = 0;
  ASSERT_EQ(size_of(api, api.p, good, &dev, &host), TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> dw(dev), hw(host);
  struct Case {
    int position;
    trnsolverStatus_t status;
    void (*edit)(Args&);
  };
  const Case cases[] = {
      {2, TRNSOLVER_STATUS_INVALID_VALUE, [](Args& x) { x.jobvl = 77; }},
      {3, TRNSOLVER_STATUS_INVALID_VALUE, [](Args& x) { x.jobvr = -1; }},
      {4, TRNSOLVER_STATUS_INVALID_VALUE, [](Args& x) { x.n = -1; }},
      {6, TRNSOLVER_STATUS_INVALID_VALUE, [](Args& x) { x.A = nullptr; }},
      {7, TRNSOLVER_STATUS_INVALID_VALUE, [](Args& x) { x.lda = 3; }},
      {9, TRNSOLVER_STATUS_INVALID_VALUE, [](Args& x) { x.W = nullptr; }},
      {12, TRNSOLVER_STATUS_INVALID_VALUE, [](Args& x) { x.ldvl = 0; }},
      {14, TRNSOLVER_STATUS_INVALID_VALUE, [](Args& x) { x.VR = nullptr; }},
      {15, TRNSOLVER_STATUS_INVALID_VALUE, [](Args& x) { x.ldvr = 3; }},
      {0, TRNSOLVER_STATUS_NOT_SUPPORTED, [](Args& x) { x.jobvl = TRNSOLVER_EIG_MODE_VECTOR; }},
      {0, TRNSOLVER_STATUS_NOT_SUPPORTED, [](Args& x) { x.dtc = TRN_R_32F; }},
      {0, TRNSOLVER_STATUS_NOT_SUPPORTED, [](Args& x) { x.dta = x.dtc = 77; }},
      {0, TRNSOLVER_STATUS_NOT_SUPPORTED, [](Args& x) { x.dtvr = TRN_R_32F; }},
      {0, TRNSOLVER_STATUS_NOT_SUPPORTED, [](Args& x) { x.dtw = TRN_C_32F; }},
      {0, TRNSOLVER_STATUS_NOT_SUPPORTED, [](Args& x) { x.n = x.lda = x.ldvr = (std::int64_t{1} << 28) + 1; }},
  };
  for (const Case& c : cases) {
    Args bad = good;
    c.edit(bad);
    int info = 99;
    EXPECT_EQ(call(api, api.p, bad, dw.data(), dev, hw.data(), host, &info), c.status) << c.position;
    EXPECT_EQ(info, c.position == 0 ? 99 : -c.position);
    size_t d2 = 0, h2 = 0;
    EXPECT_EQ(size_of(api, api.p, bad, &d2, &h2), c.status) << c.position;
  }
  int info = 99;
  EXPECT_EQ(call(api, nullptr, good, dw.data(), dev, hw.data(), host, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -1);
  EXPECT_EQ(call(api, api.p, good, nullptr, dev, hw.data(), host, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -17);
  EXPECT_EQ(call(api, api.p, good, dw.data(), dev - 1, hw.data(), host, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -18);
  EXPECT_EQ(call(api, api.p, good, dw.data(), dev, nullptr, host, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -19);
  EXPECT_EQ(call(api, api.p, good, dw.data(), dev, hw.data(), host - 1, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -20);
  EXPECT_EQ(call(api, api.p, good, dw.data(), dev, hw.data(), host, nullptr), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(size_of(api, api.p, good, nullptr, &host), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(size_of(api, api.p, good, &dev, nullptr), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(a, a0);
  EXPECT_EQ(w, std::vector<double>(2 * n, 5.0));
  EXPECT_EQ(vr, std::vector<double>(n * n, 6.0));
  EXPECT_EQ(trnsolverDnXgeev(nullptr, api.p, TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR, n, TRN_R_64F,
                             a.data(), n, TRN_R_64F, w.data(), TRN_R_64F, nullptr, 1, TRN_R_64F, vr.data(), n,
                             TRN_R_64F, dw.data(), dev, hw.data(), host, &info),
            TRNSOLVER_STATUS_NOT_INITIALIZED);
  // n = 0: success, nothing written
  Args empty = good;
  empty.n = 0;
  empty.lda = empty.ldvr = 1;
  info = 99;
  ASSERT_EQ(size_of(api, api.p, empty, &dev, &host), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(call(api, api.p, empty, dw.data(), dev, hw.data(), host, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(w, std::vector<double>(2 * n, 5.0));
}

}  // namespace


// ---- The C walkthrough of the Xgeev call sequence (trnsolver_c_geev_walkthrough.c) -------------------
// Earlier sessions ported NVIDIA's three cuSOLVER Xgeev samples into this suite; their code left the
// tree because the project's tooling forbids committing fetched code (docs/trnsolver.md). These are
// trnsci's own problems through the same call sequence: normal matrices built exactly in double as
// A = Q D Q, Q = I - 2 v v^H / (v^H v) a Householder reflector (Q = Q^H = Q^-1) with v^H v a power of
// two, so Q's entries are dyadic, A's are exact, A's spectrum is D's exactly and every eigenvalue has
// condition number 1: the documented bounds apply as they stand. v is chosen so that no eigenvector
// has two components of equal modulus (the "largest component real" normalisation is then unique).

extern "C" int trnsolver_walkthrough_xgeev(std::int64_t n, trnDataType_t type_a, trnDataType_t type_w, const void* A,
                                           void* W, void* VR, int* info);

namespace {

// Q D Q (n x n, column-major) for the reflector of v; exact for the data below (every product and
// sum a small multiple of 1/64).
std::vector<ZC> reflect_both_sides(const std::vector<ZC>& v, const std::vector<ZC>& d) {
  const std::size_t n = v.size();
  double vv = 0;
  for (const ZC& x : v) vv += std::norm(x);
  std::vector<ZC> q(n * n), qd(n * n, 0.0), a(n * n, 0.0);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i) q[i + j * n] = (i == j ? 1.0 : 0.0) - 2.0 * v[i] * std::conj(v[j]) / vv;
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t i = 0; i < n; ++i) qd[i + j * n] += q[i + k * n] * d[k + j * n];
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t i = 0; i < n; ++i) a[i + j * n] += qd[i + k * n] * q[k + j * n];
  return a;
}

// The eigenvalue checks every walkthrough makes: the known spectrum and LAPACKE's, within the
// documented kVal n u ||A||_F; the residual and the normalisation of the vectors.
template <class T>
void expect_eigenpairs(std::int64_t n, const std::vector<T>& a, const Eig& e, const std::vector<LC>& known) {
  const double bound = kVal * static_cast<double>(n) * u_of<T>() * fro(a);
  EXPECT_LE(multiset_distance(known, e.w), bound);
  EXPECT_LE(multiset_distance(lapack_eigs(n, a), e.w), bound);
  EXPECT_LE(residual(n, a, e), kRes * static_cast<double>(n) * u_of<T>());
  expect_normalised<T>(n, e);
}

// Real 5 x 5: D = blockdiag([1 2; -2 1], 3, -1/2, 2), eigenvalues 1 +- 2i, 3, -1/2, 2; v = (3, 2, 1, 1, 1).
// W as dataTypeW = R_64F (real parts, then imaginary parts) and as C_64F (complex pairs): the same
// eigenvalues and the same VR bits, only W's layout differs.
TEST(GeevWalkthrough, RealNormalMatrixWithAConjugatePair) {
  const std::int64_t n = 5;
  std::vector<ZC> d(25, 0.0);
  d[0] = 1, d[5] = 2, d[1] = -2, d[6] = 1, d[12] = 3, d[18] = -0.5, d[24] = 2;
  const std::vector<ZC> az = reflect_both_sides({3, 2, 1, 1, 1}, d);
  std::vector<double> a;
  for (const ZC& x : az) {
    ASSERT_EQ(x.imag(), 0.0);
    a.push_back(x.real());
  }
  const std::vector<double> a0 = a;
  std::vector<double> w(2 * n, -7.0), vr(n * n, -7.0);
  int info = 99;
  ASSERT_EQ(trnsolver_walkthrough_xgeev(n, TRN_R_64F, TRN_R_64F, a.data(), w.data(), vr.data(), &info), 0);
  ASSERT_EQ(info, 0);
  EXPECT_EQ(a, a0);
  Eig e;
  unpack_real(n, w.data(), w.data() + n, vr.data(), e);
  expect_eigenpairs(n, a, e, {LC(1, 2), LC(1, -2), LC(3, 0), LC(-0.5, 0), LC(2, 0)});
  int pairs = 0;  // the conjugate pair is adjacent, positive imaginary part first, exactly conjugate
  for (std::int64_t j = 0; j + 1 < n; ++j)
    if (w[n + j] > 0) {
      ++pairs;
      EXPECT_EQ(w[j], w[j + 1]);
      EXPECT_EQ(w[n + j], -w[n + j + 1]);
    }
  EXPECT_EQ(pairs, 1);

  std::vector<ZC> wz(n, ZC(-7.0, -7.0));
  std::vector<double> vr2(n * n, -7.0);
  info = 99;
  ASSERT_EQ(trnsolver_walkthrough_xgeev(n, TRN_R_64F, TRN_C_64F, a.data(), wz.data(), vr2.data(), &info), 0);
  ASSERT_EQ(info, 0);
  for (std::int64_t j = 0; j < n; ++j) {
    EXPECT_EQ(wz[j].real(), w[j]) << j;
    EXPECT_EQ(wz[j].imag(), w[n + j]) << j;
  }
  EXPECT_EQ(vr2, vr);
}

// Complex 3 x 3: D = diag(2i, -1 + i, 3), v = (1, 1 + i, 2 + i); every type TRN_C_64F.
TEST(GeevWalkthrough, ComplexNormalMatrix) {
  const std::int64_t n = 3;
  std::vector<ZC> d(9, 0.0);
  d[0] = ZC(0, 2), d[4] = ZC(-1, 1), d[8] = 3;
  const std::vector<ZC> a = reflect_both_sides({ZC(1, 0), ZC(1, 1), ZC(2, 1)}, d);
  const std::vector<ZC> a0 = a;
  std::vector<ZC> w(n, ZC(-7.0, -7.0)), vr(n * n, ZC(-7.0, -7.0));
  int info = 99;
  ASSERT_EQ(trnsolver_walkthrough_xgeev(n, TRN_C_64F, TRN_C_64F, a.data(), w.data(), vr.data(), &info), 0);
  ASSERT_EQ(info, 0);
  EXPECT_EQ(a, a0);
  Eig e;
  for (const ZC& x : w) e.w.push_back(lc(x));
  for (std::int64_t j = 0; j < n; ++j) {
    std::vector<LC> col;
    for (std::int64_t i = 0; i < n; ++i) col.push_back(lc(vr[i + j * n]));
    e.v.push_back(col);
  }
  expect_eigenpairs(n, a, e, {LC(0, 2), LC(-1, 1), LC(3, 0)});
}

}  // namespace
