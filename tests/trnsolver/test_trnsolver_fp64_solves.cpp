// dgetrs / dpotrs / zgetrs / zpotrs: two trnblas DTRSMs / ZTRSMs with recursive diagonal blocks (Ozaki
// updates on TensorE, host leaves of <= 32 columns). The bound of docs/trnsolver.md "fp64 solves", with
// the computed factors: |P b - L^ U^ x^| <= c |L^| |U^| |x^| componentwise (potrs: L^ L^H or U^H U^),
// c = 2 gamma_{n+64} + gamma_{n+64}^2 (twice for complex data, |re| + |im|), measured in long double
// here; two-sided: the largest ratio is above u/64 (the check sees rounding: it can fail both ways; the
// test that a single TRSM rounded in fp64, above one rounding of the exact solution, is
// tests/trnblas/test_trnblas_trsm_fp64.cpp) and at most c. Factors by LAPACKE (the oracle only), so the
// test checks the solves alone; the solves' leaves and TensorE updates are checked in the report.
#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "trn/solver/complex_factor.hpp"
#include "trn/solver/solver.hpp"

namespace {

namespace ts = trn::solver;
using cd = std::complex<double>;
using LC = std::complex<long double>;
constexpr double kU64 = 0x1p-53;
constexpr double kLower = kU64 / 64;

template <class T>
constexpr bool kCx = std::is_same_v<T, cd>;
template <class T>
using Wide = std::conditional_t<kCx<T>, LC, long double>;

long double mag(long double x) { return std::fabs(x); }
long double mag(const LC& z) { return std::fabs(z.real()) + std::fabs(z.imag()); }
long double conj_if(long double x, bool) { return x; }
LC conj_if(const LC& z, bool c) { return c ? std::conj(z) : z; }

double gamma(double k) { return k * kU64 / (1.0 - k * kU64); }

template <class T>
std::vector<T> random_matrix(int rows, int cols, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::normal_distribution<double> d;
  std::vector<T> a(static_cast<std::size_t>(rows) * cols);
  for (T& x : a) {
    if constexpr (kCx<T>) {
      const double re = d(g);
      x = T(re, d(g));
    } else {
      x = d(g);
    }
  }
  return a;
}

// Two triangles' product |T1| |T2| |x| and T1 T2 x in long double: T(i, k) via the accessors.
template <class T, class F1, class F2>
double worst_ratio(int n, int nrhs, F1&& t1, F2&& t2, const std::vector<T>& pb, const std::vector<T>& x) {
  double worst = 0;
  for (int j = 0; j < nrhs; ++j) {
    std::vector<Wide<T>> y(static_cast<std::size_t>(n)), ya(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k) {
        const Wide<T> v(x[static_cast<std::size_t>(k + j * n)]);
        y[static_cast<std::size_t>(i)] += t2(i, k) * v;
        ya[static_cast<std::size_t>(i)] += mag(t2(i, k)) * mag(v);
      }
    for (int i = 0; i < n; ++i) {
      Wide<T> r = Wide<T>(pb[static_cast<std::size_t>(i + j * n)]);
      long double s = 0;
      for (int k = 0; k < n; ++k) {
        r -= t1(i, k) * y[static_cast<std::size_t>(k)];
        s += mag(t1(i, k)) * mag(ya[static_cast<std::size_t>(k)]);
      }
      if (s > 0) worst = std::max(worst, double(mag(r) / s));
    }
  }
  return worst;
}

void expect_engine_solve(const ts::CallReport& r, int n, const char* name) {
  const int leaves = 2 * ((n + 31) / 32);  // two TRSMs
  int steps = 0;
  for (const trn::Instruction& ins : r.trace.instructions)
    if (ins.opcode == trn::Opcode::host_compute && trn::host_step_name(ins.host_label) == name) ++steps;
  EXPECT_EQ(steps, leaves) << name;
  EXPECT_GT(r.profile.instructions[static_cast<int>(trn::Engine::tensor)] + r.profile.instructions[static_cast<int>(trn::Engine::gpsimd)], 0)
      << "the updates on TensorE (Ozaki) or GpSimdE (small products as Dot2)";
}

// getrs with op N, T (and C for complex) on LAPACKE's factors of a Gaussian matrix.
template <class T>
void getrs_two_sided(int n, int nrhs) {
  std::vector<T> a = random_matrix<T>(n, n, 11 + n), b = random_matrix<T>(n, nrhs, 12);
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  if constexpr (kCx<T>)
    ASSERT_EQ(LAPACKE_zgetrf(LAPACK_COL_MAJOR, n, n, reinterpret_cast<lapack_complex_double*>(a.data()), n, ipiv.data()), 0);
  else
    ASSERT_EQ(LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, a.data(), n, ipiv.data()), 0);
  const auto f = [&](int i, int k) { return Wide<T>(a[static_cast<std::size_t>(i + k * n)]); };
  const auto L = [&](int i, int k) { return i == k ? Wide<T>(1) : i > k ? f(i, k) : Wide<T>(0); };
  const auto U = [&](int i, int k) { return i <= k ? f(i, k) : Wide<T>(0); };
  const double c = (kCx<T> ? 2.0 : 1.0) * (2 * gamma(n + 64.0) + gamma(n + 64.0) * gamma(n + 64.0));
  for (int op = 0; op < (kCx<T> ? 3 : 2); ++op) {
    std::vector<T> x = b;
    ts::CallReport r;
    if constexpr (kCx<T>)
      ts::getrs({}, op == 0 ? ts::SolveOp::N : op == 1 ? ts::SolveOp::T : ts::SolveOp::C, n, nrhs, a.data(), n,
                ipiv.data(), x.data(), n, &r);
    else
      ts::dgetrs({}, op == 1, n, nrhs, a.data(), n, ipiv.data(), x.data(), n, &r);
    double worst;
    if (op == 0) {  // P b = L U x: P b is b with LAPACK's interchanges applied in order
      std::vector<T> pb = b;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < nrhs; ++j) std::swap(pb[static_cast<std::size_t>(i + j * n)], pb[static_cast<std::size_t>(ipiv[i] - 1 + j * n)]);
      worst = worst_ratio<T>(n, nrhs, L, U, pb, x);
    } else {  // op(U) op(L) (P x) = b: compare with z = P x against b
      const bool cj = op == 2;
      std::vector<T> z = x;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < nrhs; ++j) std::swap(z[static_cast<std::size_t>(i + j * n)], z[static_cast<std::size_t>(ipiv[i] - 1 + j * n)]);
      worst = worst_ratio<T>(
          n, nrhs, [&](int i, int k) { return conj_if(U(k, i), cj); }, [&](int i, int k) { return conj_if(L(k, i), cj); },
          b, z);
    }
    EXPECT_LE(worst, c) << "op " << op;
    EXPECT_GT(worst, kLower) << "op " << op << ": the check sees rounding";
    expect_engine_solve(r, n, kCx<T> ? "trnblas.ztrsm.diag_solve" : "trnblas.dtrsm.diag_solve");
    std::printf("[%cgetrs op %d] n %d nrhs %d: max |Pb - LUx| / (|L||U||x|) = %.2e in (%.2e, %.2e]\n", kCx<T> ? 'z' : 'd', op,
                n, nrhs, worst, kLower, c);
  }
}

// potrs lower and upper on LAPACKE's Cholesky factor of G^H G / n + I.
template <class T>
void potrs_two_sided(int n, int nrhs) {
  const std::vector<T> g = random_matrix<T>(n, n, 21 + n), b = random_matrix<T>(n, nrhs, 22);
  std::vector<T> a0(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      Wide<T> s = i == j ? Wide<T>(n) : Wide<T>(0);
      for (int k = 0; k < n; ++k) s += conj_if(Wide<T>(g[k + i * n]), true) * Wide<T>(g[k + j * n]);
      a0[static_cast<std::size_t>(i + j * n)] = T(s / Wide<T>(n));
    }
  const double c = (kCx<T> ? 2.0 : 1.0) * (2 * gamma(n + 64.0) + gamma(n + 64.0) * gamma(n + 64.0));
  for (const bool lower : {true, false}) {
    std::vector<T> f = a0, x = b;
    if constexpr (kCx<T>)
      ASSERT_EQ(LAPACKE_zpotrf(LAPACK_COL_MAJOR, lower ? 'L' : 'U', n, reinterpret_cast<lapack_complex_double*>(f.data()), n), 0);
    else
      ASSERT_EQ(LAPACKE_dpotrf(LAPACK_COL_MAJOR, lower ? 'L' : 'U', n, f.data(), n), 0);
    ts::CallReport r;
    if constexpr (kCx<T>) ts::potrs({}, lower ? ts::Uplo::lower : ts::Uplo::upper, n, nrhs, f.data(), n, x.data(), n, &r);
    else ts::dpotrs({}, lower ? ts::Uplo::lower : ts::Uplo::upper, n, nrhs, f.data(), n, x.data(), n, &r);
    const auto at = [&](int i, int k) { return Wide<T>(f[static_cast<std::size_t>(i + k * n)]); };
    // lower: L L^H (L(i, k) = f(i, k), i >= k); upper: U^H U (U(i, k) = f(i, k), i <= k).
    const auto t1 = [&](int i, int k) { return lower ? (i >= k ? at(i, k) : Wide<T>(0)) : (k <= i ? conj_if(at(k, i), true) : Wide<T>(0)); };
    const auto t2 = [&](int i, int k) { return lower ? (k >= i ? conj_if(at(k, i), true) : Wide<T>(0)) : (i <= k ? at(i, k) : Wide<T>(0)); };
    const double worst = worst_ratio<T>(n, nrhs, t1, t2, b, x);
    EXPECT_LE(worst, c) << (lower ? "lower" : "upper");
    EXPECT_GT(worst, kLower) << (lower ? "lower" : "upper") << ": the check sees rounding";
    expect_engine_solve(r, n, kCx<T> ? "trnblas.ztrsm.diag_solve" : "trnblas.dtrsm.diag_solve");
    std::printf("[%cpotrs %s] n %d nrhs %d: max |b - L L^H x| / (|L||L^H||x|) = %.2e in (%.2e, %.2e]\n",
                kCx<T> ? 'z' : 'd', lower ? "L" : "U", n, nrhs, worst, kLower, c);
  }
}

TEST(Fp64Solves, DgetrsWithinTheTwoSidedBound) { getrs_two_sided<double>(150, 3); }
TEST(Fp64Solves, DpotrsWithinTheTwoSidedBound) { potrs_two_sided<double>(150, 3); }
TEST(Fp64Solves, ZgetrsWithinTheTwoSidedBound) { getrs_two_sided<cd>(80, 2); }
TEST(Fp64Solves, ZpotrsWithinTheTwoSidedBound) { potrs_two_sided<cd>(80, 2); }

}  // namespace
