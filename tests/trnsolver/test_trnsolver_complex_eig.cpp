// Complex Hermitian eigen beyond heevd and complex Jacobi (C, Z): heevdx, hegvd, hegvdx, heevj,
// heevjBatched, hegvj, gesvdj, gesvdjBatched and their C entry points, against LAPACKE zheevd /
// zhegvd / zgesvd in double complex (oracles only, never in the library) and long-double residuals
// computed here. Bounds of docs/trnsolver.md "Complex Hermitian eigen and complex Jacobi", two-sided:
// below c n u (as accurate as documented) and, for C, above u / 64 (it really ran in fp32).
#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

#include "complex_eig_oracles.hpp"
#include "complex_matrices.hpp"
#include "factor_oracles.hpp"
#include "solver_oracles.hpp"
#include "trn/solver/complex_eig.hpp"
#include "trnsolver.h"

namespace ts = trn::solver;

namespace {

using ZC = std::complex<double>;
using complex_matrix::hermitian_matrix;
using complex_matrix::hpd_matrix;
using complex_matrix::random_matrix;
using LC = std::complex<long double>;
template <class T>
using RealOf = typename T::value_type;
template <class T>
double u_of() {
  return std::is_same_v<RealOf<T>, float> ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
}
// docs/trnsolver.md: residual ||A V - V L||_F / ||A||_F <= kRes n u, ||V^H V - I||_F <= kOrth n u,
// eigenvalues |l - l_zheevd| <= kVal n u ||A||_2; generalized: the reduced problem's bounds times
// kappa(B) (the test matrices keep kappa(B) <= 10); SVD ||A - U S V^H||_F / ||A||_F <= kRes n u.
constexpr double kRes = 4.0, kOrth = 4.0, kVal = 4.0;

// The triangle not named by uplo is never read: NaN there.
template <class T>
void poison_other_triangle(std::int64_t n, std::vector<T>& a, std::int64_t lda, bool lower) {
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      if (lower ? i < j : i > j) a[i + j * lda] = T(std::numeric_limits<RealOf<T>>::quiet_NaN(), 0);
}

std::vector<double> zhegvd_values(int itype, std::int64_t n, std::vector<ZC> a, std::vector<ZC> b, std::int64_t ld) {
  std::vector<double> w(static_cast<std::size_t>(n));
  EXPECT_EQ(LAPACKE_zhegvd(LAPACK_COL_MAJOR, itype, 'N', 'L', static_cast<lapack_int>(n),
                           reinterpret_cast<lapack_complex_double*>(a.data()), static_cast<lapack_int>(ld),
                           reinterpret_cast<lapack_complex_double*>(b.data()), static_cast<lapack_int>(ld), w.data()),
            0);
  return w;
}
template <class T>
std::vector<ZC> widen(const std::vector<T>& a) {
  return std::vector<ZC>(a.begin(), a.end());
}

// ||A V - V diag(w)||_F / ||A||_F over the first m columns of V (ld ldv), long double.
template <class T, class R>
double partial_residual(std::int64_t n, std::int64_t m, const T* a, std::int64_t lda, const T* v, std::int64_t ldv,
                        const R* w) {
  long double num = 0, den = 0;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) den += std::norm(LC(a[i + j * lda]));
  for (std::int64_t j = 0; j < m; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      LC t = -LC(v[i + j * ldv]) * static_cast<long double>(w[j]);
      for (std::int64_t k = 0; k < n; ++k) t += LC(a[i + k * lda]) * LC(v[k + j * ldv]);
      num += std::norm(t);
    }
  return double(std::sqrt(num / den));
}
// ||Q^H Q - I||_F of the rows x cols Q.
template <class T>
double orth_cols(std::int64_t rows, std::int64_t cols, const T* q, std::int64_t ldq) {
  long double s = 0;
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < cols; ++i) {
      LC t = i == j ? LC(-1) : LC(0);
      for (std::int64_t k = 0; k < rows; ++k) t += std::conj(LC(q[k + i * ldq])) * LC(q[k + j * ldq]);
      s += std::norm(t);
    }
  return double(std::sqrt(s));
}

template <class T>
class ComplexEig : public ::testing::Test {};
using Types = ::testing::Types<std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(ComplexEig, Types);

// ---- heevdx ----------------------------------------------------------------------------------------

TYPED_TEST(ComplexEig, HeevdxSelectionsAgainstZheevd) {
  using T = TypeParam;
  using R = RealOf<T>;
  const double u = u_of<T>();
  for (std::int64_t n : {9, 70}) {
    const std::int64_t lda = n + 2;
    const std::vector<T> a0 = hermitian_matrix<T>(n, lda, 300 + static_cast<std::uint64_t>(n));
    const std::vector<double> ref = zheevd_values(n, widen(a0), lda);
    const double a2 = std::max(std::fabs(ref.front()), std::fabs(ref.back())), nu = double(n) * u;
    const std::int64_t il = n / 3 + 1, iu = n / 3 + n / 4 + 1;
    const double vl = 0.5 * (ref[2] + ref[3]), vu = 0.5 * (ref[n - 3] + ref[n - 2]);
    struct Case {
      ts::EigRange range;
      std::int64_t lo, hi;
    };
    for (const Case& c : {Case{ts::EigRange::all, 0, n}, Case{ts::EigRange::index, il - 1, iu},
                          Case{ts::EigRange::value, 3, n - 2}})
      for (bool lower : {true, false}) {
        std::vector<T> v = a0;
        poison_other_triangle(n, v, lda, lower);
        std::vector<R> w(static_cast<std::size_t>(n));
        std::int64_t meig = -1;
        const ts::EigSelect sel{c.range, vl, vu, il, iu};
        ts::CallReport rep;
        ASSERT_EQ(ts::heevdx(ts::Settings{}, true, sel, lower ? ts::Uplo::lower : ts::Uplo::upper, n, v.data(), lda,
                             &meig, w.data(), &rep),
                  0);
        ASSERT_EQ(meig, c.hi - c.lo) << "n " << n;
        for (std::int64_t j = 0; j < meig; ++j) EXPECT_LE(std::fabs(double(w[j]) - ref[c.lo + j]), kVal * nu * a2) << j;
        const double res = partial_residual(n, meig, a0.data(), lda, v.data(), lda, w.data());
        EXPECT_LE(res, kRes * nu);
        EXPECT_LE(orth_cols(n, meig, v.data(), lda), kOrth * nu);
        if (std::is_same_v<R, float>) {
          EXPECT_GE(res, u / 64);
        }
        EXPECT_NE(rep.plan.find("heevd"), std::string::npos);
      }
  }
  // EIG_RANGE_ALL is heevd bit for bit (the same three stages on the same data).
  for (bool lower : {true, false}) {
    const std::int64_t n = 40;
    std::vector<T> a = hermitian_matrix<T>(n, n, 31), b = a;
    std::vector<R> wa(static_cast<std::size_t>(n)), wb(wa.size());
    std::int64_t meig = 0;
    const ts::Uplo uplo = lower ? ts::Uplo::lower : ts::Uplo::upper;
    ASSERT_EQ(ts::heevd(ts::Settings{}, true, uplo, n, a.data(), n, wa.data()), 0);
    ASSERT_EQ(ts::heevdx(ts::Settings{}, true, ts::EigSelect{}, uplo, n, b.data(), n, &meig, wb.data()), 0);
    EXPECT_EQ(wa, wb);
    EXPECT_EQ(a, b);
  }
  // Inf/NaN: info n, meig 0, W NaN.
  std::vector<T> a = hermitian_matrix<T>(5, 5, 3);
  a[3] = T(std::numeric_limits<R>::quiet_NaN(), 0);
  std::vector<R> w(5);
  std::int64_t meig = -1;
  EXPECT_EQ(ts::heevdx(ts::Settings{}, true, ts::EigSelect{}, ts::Uplo::lower, 5, a.data(), 5, &meig, w.data()), 5);
  EXPECT_EQ(meig, 0);
  EXPECT_TRUE(std::isnan(w[0]));
  EXPECT_THROW(ts::heevdx(ts::Settings{}, true, ts::EigSelect{ts::EigRange::value, 1, 1, 1, 0}, ts::Uplo::lower, 5,
                          a.data(), 5, &meig, w.data()),
               trn::UsageError);
}

// ---- hegvd / hegvdx / hegvj ------------------------------------------------------------------------

// ||op X - X L||_F / (||A||_F ||B||_F ||X||_F) with op = B^-1 A (1: A X - B X L), A B (2), B A (3).
template <class T, class R>
double gen_residual(int itype, std::int64_t n, std::int64_t m, const std::vector<T>& a, const std::vector<T>& b,
                    const T* x, std::int64_t ldx, const R* w) {
  auto mul = [&](const std::vector<T>& M, const std::vector<LC>& y) {
    std::vector<LC> z(static_cast<std::size_t>(n * m), LC(0));
    for (std::int64_t j = 0; j < m; ++j)
      for (std::int64_t k = 0; k < n; ++k)
        for (std::int64_t i = 0; i < n; ++i) z[i + j * n] += LC(M[i + k * n]) * y[k + j * n];
    return z;
  };
  std::vector<LC> xv(static_cast<std::size_t>(n * m)), xl(xv.size());
  for (std::int64_t j = 0; j < m; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      xv[i + j * n] = LC(x[i + j * ldx]);
      xl[i + j * n] = xv[i + j * n] * static_cast<long double>(w[j]);
    }
  const std::vector<LC> lhs = itype == 1 ? mul(a, xv) : itype == 2 ? mul(a, mul(b, xv)) : mul(b, mul(a, xv));
  const std::vector<LC> rhs = itype == 1 ? mul(b, xl) : xl;
  long double num = 0, na = 0, nb = 0, nx = 0;
  for (std::size_t i = 0; i < lhs.size(); ++i) num += std::norm(lhs[i] - rhs[i]);
  for (std::size_t i = 0; i < a.size(); ++i) na += std::norm(LC(a[i]));
  for (std::size_t i = 0; i < b.size(); ++i) nb += std::norm(LC(b[i]));
  for (const LC& v : xv) nx += std::norm(v);
  return double(std::sqrt(num / (na * nb * nx)));
}

TYPED_TEST(ComplexEig, HegvdHegvdxHegvjAgainstZhegvd) {
  using T = TypeParam;
  using R = RealOf<T>;
  const double u = u_of<T>();
  const std::int64_t n = 40;
  const std::vector<T> a0 = hermitian_matrix<T>(n, n, 501), b0 = hpd_matrix<T>(n, n, 502);
  const double nu = double(n) * u, kappa = 10;
  for (int itype : {1, 2, 3}) {
    const std::vector<double> ref = zhegvd_values(itype, n, widen(a0), widen(b0), n);
    const double wmax = std::max(std::fabs(ref.front()), std::fabs(ref.back()));
    for (int which : {0, 1, 2})  // hegvd, hegvdx (index range), hegvj
      for (bool lower : {true, false}) {
        std::vector<T> a = a0, b = b0;
        poison_other_triangle(n, a, n, lower);
        poison_other_triangle(n, b, n, lower);
        std::vector<R> w(static_cast<std::size_t>(n));
        const ts::Uplo uplo = lower ? ts::Uplo::lower : ts::Uplo::upper;
        std::int64_t m = n, lo = 0;
        int info = -1;
        if (which == 0) {
          info = ts::hegvd(ts::Settings{}, itype, true, uplo, n, a.data(), n, b.data(), n, w.data());
        } else if (which == 1) {
          lo = 4;
          info = ts::hegvdx(ts::Settings{}, itype, true, ts::EigSelect{ts::EigRange::index, 0, 0, 5, 20}, uplo, n,
                            a.data(), n, b.data(), n, &m, w.data());
          EXPECT_EQ(m, 16);
        } else {
          info = ts::hegvj(ts::Settings{}, itype, true, uplo, n, a.data(), n, b.data(), n, w.data(), ts::SyevjParams{}).info;
        }
        ASSERT_EQ(info, 0) << "itype " << itype << " which " << which;
        for (std::int64_t j = 0; j < m; ++j)
          EXPECT_LE(std::fabs(double(w[j]) - ref[lo + j]), kVal * kappa * nu * wmax) << itype << " " << which << " " << j;
        const double res = gen_residual(itype, n, m, a0, b0, a.data(), n, w.data());
        EXPECT_LE(res, kRes * kappa * nu) << itype << " " << which;
        if (std::is_same_v<R, float>) {
          EXPECT_GE(res, u / 64);
        }
        // B's uplo triangle holds the Cholesky factor: its diagonal is real and positive.
        EXPECT_GT(b[0].real(), 0);
        EXPECT_EQ(b[0].imag(), 0);
      }
  }
  // B not positive definite at order 3: info n + 3, A and W untouched.
  std::vector<T> a = a0, b = b0;
  b[2 + 2 * n] = T(-1000, 0);
  std::vector<R> w(static_cast<std::size_t>(n), R(7));
  EXPECT_EQ(ts::hegvd(ts::Settings{}, 1, true, ts::Uplo::lower, n, a.data(), n, b.data(), n, w.data()), n + 3);
  EXPECT_EQ(w[0], R(7));
  EXPECT_EQ(a[5], a0[5]);
  EXPECT_THROW(ts::hegvd(ts::Settings{}, 4, true, ts::Uplo::lower, n, a.data(), n, b.data(), n, w.data()),
               trn::UsageError);
}

// ---- heevj / heevjBatched --------------------------------------------------------------------------

TYPED_TEST(ComplexEig, HeevjResidualOrthogonalityAndValuesAgainstZheevd) {
  using T = TypeParam;
  using R = RealOf<T>;
  const double u = u_of<T>();
  for (std::int64_t n : {1, 20, 70}) {
    for (bool lower : {true, false}) {
      const std::int64_t lda = n + 1;
      const std::vector<T> a0 = hermitian_matrix<T>(n, lda, 700 + static_cast<std::uint64_t>(n));
      std::vector<T> v = a0;
      poison_other_triangle(n, v, lda, lower);
      std::vector<R> w(static_cast<std::size_t>(n));
      ts::CallReport rep;
      const ts::SyevjResult r = ts::heevj(ts::Settings{}, true, lower ? ts::Uplo::lower : ts::Uplo::upper, n, v.data(),
                                          lda, w.data(), ts::SyevjParams{}, &rep);
      ASSERT_EQ(r.info, 0) << n;
      EXPECT_LE(r.sweeps, 15);
      const std::vector<double> ref = zheevd_values(n, widen(a0), lda);
      const double a2 = std::max(std::fabs(ref.front()), std::fabs(ref.back())), nu = double(n) * u;
      const double res = factor_oracle::eig_residual(n, a0.data(), lda, v.data(), lda, w.data());
      EXPECT_LE(res, kRes * nu) << "n " << n;
      EXPECT_LE(factor_oracle::orthogonality(n, v.data(), lda), kOrth * nu) << "n " << n;
      if (std::is_same_v<R, float> && n > 1) {
        EXPECT_GE(res, u / 64);
      }
      for (std::int64_t j = 0; j < n; ++j) EXPECT_LE(std::fabs(double(w[j]) - ref[j]), kVal * nu * a2) << j;
      if (n > 1) {
        EXPECT_GT(rep.profile.total_ns, 0);  // the rotations ran on the engines
      }
    }
  }
  // max_sweeps 1 on a 3-block problem: not converged, info n + 1, the residual reported.
  const std::int64_t n = 70;
  std::vector<T> a = hermitian_matrix<T>(n, n, 9);
  std::vector<R> w(static_cast<std::size_t>(n));
  ts::SyevjParams p;
  p.max_sweeps = 1;
  const ts::SyevjResult r = ts::heevj(ts::Settings{}, false, ts::Uplo::lower, n, a.data(), n, w.data(), p);
  EXPECT_EQ(r.info, n + 1);
  EXPECT_EQ(r.sweeps, 1);
  EXPECT_GT(r.residual, 0);
  // Inf: info n + 1, W NaN.
  a[7] = T(std::numeric_limits<R>::infinity(), 0);
  EXPECT_EQ(ts::heevj(ts::Settings{}, false, ts::Uplo::lower, n, a.data(), n, w.data(), ts::SyevjParams{}).info, n + 1);
  EXPECT_TRUE(std::isnan(w[0]));
}

// Batched: each matrix exactly as the single call (same bits), unsorted with sort_eig = 0 still a
// permutation of the sorted values.
TYPED_TEST(ComplexEig, HeevjBatchedMatchesSingleCalls) {
  using T = TypeParam;
  using R = RealOf<T>;
  const std::int64_t n = 8, lda = 9, batch = 3;
  std::vector<T> a(static_cast<std::size_t>(lda * n * batch));
  for (std::int64_t k = 0; k < batch; ++k) {
    const std::vector<T> one = hermitian_matrix<T>(n, lda, 40 + static_cast<std::uint64_t>(k));
    std::copy(one.begin(), one.end(), a.begin() + lda * n * k);
  }
  std::vector<T> ab = a;
  std::vector<R> wb(static_cast<std::size_t>(n * batch));
  const auto res = ts::heevj_batched(ts::Settings{}, true, ts::Uplo::lower, n, ab.data(), lda, wb.data(),
                                     ts::SyevjParams{}, batch);
  ASSERT_EQ(res.size(), static_cast<std::size_t>(batch));
  for (std::int64_t k = 0; k < batch; ++k) {
    EXPECT_EQ(res[k].info, 0);
    std::vector<T> one(a.begin() + lda * n * k, a.begin() + lda * n * (k + 1));
    std::vector<R> w(static_cast<std::size_t>(n));
    ts::heevj(ts::Settings{}, true, ts::Uplo::lower, n, one.data(), lda, w.data(), ts::SyevjParams{});
    for (std::int64_t j = 0; j < n; ++j) EXPECT_EQ(w[j], wb[j + n * k]);
    for (std::int64_t j = 0; j < n * lda; ++j) EXPECT_EQ(one[j], ab[j + lda * n * k]);
  }
}

// ---- gesvdj / gesvdjBatched ------------------------------------------------------------------------

std::vector<double> zgesvd_values(std::int64_t m, std::int64_t n, std::vector<ZC> a, std::int64_t lda) {
  std::vector<double> s(static_cast<std::size_t>(std::min(m, n))), sup(s.size() + 1);
  EXPECT_EQ(LAPACKE_zgesvd(LAPACK_COL_MAJOR, 'N', 'N', static_cast<lapack_int>(m), static_cast<lapack_int>(n),
                           reinterpret_cast<lapack_complex_double*>(a.data()), static_cast<lapack_int>(lda), s.data(),
                           nullptr, 1, nullptr, 1, sup.data()),
            0);
  return s;
}

TYPED_TEST(ComplexEig, GesvdjEconAndFullAgainstZgesvd) {
  using T = TypeParam;
  using R = RealOf<T>;
  const double u = u_of<T>();
  struct Shape {
    std::int64_t m, n;
    bool rank_deficient;
  };
  for (const Shape& sh : {Shape{40, 25, false}, Shape{25, 40, false}, Shape{70, 70, false}, Shape{30, 12, true}})
    for (bool econ : {true, false}) {
      const std::int64_t m = sh.m, n = sh.n, mn = std::min(m, n), lda = m + 1;
      std::vector<T> a0 = random_matrix<T>(m, n, lda, 900 + static_cast<std::uint64_t>(m * n));
      if (sh.rank_deficient)  // column 3 = column 0: singular value 0
        for (std::int64_t i = 0; i < m; ++i) a0[i + 3 * lda] = a0[i];
      const std::int64_t uc = econ ? mn : m, vc = econ ? mn : n;
      std::vector<T> a = a0, U(static_cast<std::size_t>(m * uc)), V(static_cast<std::size_t>(n * vc));
      std::vector<R> s(static_cast<std::size_t>(mn));
      const ts::GesvdjResult r =
          ts::gesvdj(ts::Settings{}, true, econ, m, n, a.data(), lda, s.data(), U.data(), m, V.data(), n, ts::GesvdjParams{});
      ASSERT_EQ(r.info, 0) << m << "x" << n;
      EXPECT_EQ(a, a0);  // A unchanged
      const std::vector<double> ref = zgesvd_values(m, n, widen(a0), lda);
      const double nu = double(std::max(m, n)) * u;
      for (std::int64_t j = 0; j < mn; ++j) EXPECT_LE(std::fabs(double(s[j]) - ref[j]), kVal * nu * ref[0]) << j;
      long double num = 0, den = 0;
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < m; ++i) {
          LC t = LC(a0[i + j * lda]);
          den += std::norm(t);
          for (std::int64_t k = 0; k < mn; ++k) t -= LC(U[i + k * m]) * static_cast<long double>(s[k]) * std::conj(LC(V[j + k * n]));
          num += std::norm(t);
        }
      const double res = double(std::sqrt(num / den));
      EXPECT_LE(res, kRes * nu) << m << "x" << n;
      if (std::is_same_v<R, float>) {
        EXPECT_GE(res, u / 64);
      }
      EXPECT_LE(orth_cols(m, uc, U.data(), m), kOrth * nu) << m << "x" << n << " econ " << econ;
      EXPECT_LE(orth_cols(n, vc, V.data(), n), kOrth * nu) << m << "x" << n << " econ " << econ;
    }
}

TYPED_TEST(ComplexEig, GesvdjBatchedMatchesSingleAndReportsNaN) {
  using T = TypeParam;
  using R = RealOf<T>;
  const std::int64_t m = 9, n = 6, batch = 2;
  std::vector<T> a = random_matrix<T>(m, n * batch, m, 77), ab = a;
  std::vector<T> U(static_cast<std::size_t>(m * m * batch)), V(static_cast<std::size_t>(n * n * batch));
  std::vector<R> s(static_cast<std::size_t>(n * batch));
  const auto res = ts::gesvdj_batched(ts::Settings{}, true, m, n, ab.data(), m, s.data(), U.data(), m, V.data(), n,
                                      ts::GesvdjParams{}, batch);
  for (std::int64_t k = 0; k < batch; ++k) {
    EXPECT_EQ(res[k].info, 0);
    std::vector<T> one(a.begin() + m * n * k, a.begin() + m * n * (k + 1)), u1(m * m), v1(n * n);
    std::vector<R> s1(n);
    ts::gesvdj(ts::Settings{}, true, false, m, n, one.data(), m, s1.data(), u1.data(), m, v1.data(), n, ts::GesvdjParams{});
    for (std::int64_t j = 0; j < n; ++j) EXPECT_EQ(s1[j], s[j + n * k]);
    for (std::int64_t j = 0; j < m * m; ++j) EXPECT_EQ(u1[j], U[j + m * m * k]);
  }
  a[4] = T(0, std::numeric_limits<R>::quiet_NaN());
  EXPECT_EQ(ts::gesvdj(ts::Settings{}, false, true, m, n, a.data(), m, s.data(), nullptr, m, nullptr, n, ts::GesvdjParams{}).info,
            n + 1);
  EXPECT_TRUE(std::isnan(s[0]));
}

// ---- C entry points --------------------------------------------------------------------------------

class ComplexEigCApi : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS); }
  void TearDown() override { trnsolverDnDestroy(h); }
  trnsolverDnHandle_t h = nullptr;
};

TEST_F(ComplexEigCApi, HeevdxHegvdRunAndRejectEachArgument) {
  const int n = 12;
  std::vector<std::complex<double>> a = hermitian_matrix<std::complex<double>>(n, n, 1), a0 = a;
  std::vector<std::complex<double>> b = hpd_matrix<std::complex<double>>(n, n, 2);
  auto* A = reinterpret_cast<trnDoubleComplex*>(a.data());
  std::vector<double> w(n);
  int lwork = -1, meig = -1, info = 99;
  ASSERT_EQ(trnsolverDnZheevdx_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_I, TRNBLAS_FILL_MODE_LOWER, n, A,
                                          n, 0.0, 0.0, 2, 5, &meig, w.data(), &lwork),
            TRNSOLVER_STATUS_SUCCESS);
  ASSERT_GT(lwork, 0);
  std::vector<trnDoubleComplex> work(static_cast<std::size_t>(lwork));
  // Bad arguments: info = -position, A untouched; lwork too small: INVALID_VALUE at lwork's position.
  EXPECT_EQ(trnsolverDnZheevdx(h, TRNSOLVER_EIG_MODE_VECTOR, static_cast<trnsolverEigRange_t>(9), TRNBLAS_FILL_MODE_LOWER,
                               n, A, n, 0.0, 0.0, 2, 5, &meig, w.data(), work.data(), lwork, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -2);
  EXPECT_EQ(trnsolverDnZheevdx(h, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_I, TRNBLAS_FILL_MODE_LOWER, n, A, n - 1,
                               0.0, 0.0, 2, 5, &meig, w.data(), work.data(), lwork, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -6);
  EXPECT_EQ(trnsolverDnZheevdx(h, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_I, TRNBLAS_FILL_MODE_LOWER, n, A, n, 0.0,
                               0.0, 6, 5, &meig, w.data(), work.data(), lwork, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -10);
  EXPECT_EQ(trnsolverDnZheevdx(h, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_I, TRNBLAS_FILL_MODE_LOWER, n, A, n, 0.0,
                               0.0, 2, 5, &meig, w.data(), work.data(), lwork - 1, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -14);
  EXPECT_EQ(a, a0);
  ASSERT_EQ(trnsolverDnZheevdx(h, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_I, TRNBLAS_FILL_MODE_LOWER, n, A, n, 0.0,
                               0.0, 2, 5, &meig, w.data(), work.data(), lwork, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(meig, 4);
  // hegvd: itype (1), the rest as sygvd.
  a = a0;
  std::vector<trnComplex> fa(n * n), fb(n * n), fwork(static_cast<std::size_t>(lwork));
  std::vector<float> fw(n);
  for (int i = 0; i < n * n; ++i) {
    fa[i] = {static_cast<float>(a0[i].real()), static_cast<float>(a0[i].imag())};
    fb[i] = {static_cast<float>(b[i].real()), static_cast<float>(b[i].imag())};
  }
  EXPECT_EQ(trnsolverDnChegvd(h, static_cast<trnsolverEigType_t>(0), TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, n,
                              fa.data(), n, fb.data(), n, fw.data(), fwork.data(), lwork, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -1);
  EXPECT_EQ(trnsolverDnChegvd(h, TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, n, fa.data(), n,
                              fb.data(), n - 1, fw.data(), fwork.data(), lwork, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -8);
  ASSERT_EQ(trnsolverDnChegvd(h, TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, n, fa.data(), n,
                              fb.data(), n, fw.data(), fwork.data(), lwork, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  const std::vector<double> ref = zhegvd_values(1, n, widen(a0), widen(b), n);
  for (int j = 0; j < n; ++j) EXPECT_NEAR(fw[j], ref[j], 1e-4 * std::fabs(ref.back()));
}

TEST_F(ComplexEigCApi, HeevjGesvdjRunReportAndRejectEachArgument) {
  const int n = 10;
  std::vector<std::complex<float>> a = hermitian_matrix<std::complex<float>>(n, n, 4), a0 = a;
  auto* A = reinterpret_cast<trnComplex*>(a.data());
  std::vector<float> w(n);
  syevjInfo_t params = nullptr;
  ASSERT_EQ(trnsolverDnCreateSyevjInfo(&params), TRNSOLVER_STATUS_SUCCESS);
  int lwork = 0, info = 99;
  ASSERT_EQ(trnsolverDnCheevj_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, A, n, w.data(), &lwork,
                                         params),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<trnComplex> work(static_cast<std::size_t>(lwork));
  EXPECT_EQ(trnsolverDnCheevj(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, -1, A, n, w.data(), work.data(), lwork,
                              &info, params),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -3);
  EXPECT_EQ(trnsolverDnCheevj(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, A, n, w.data(), work.data(), lwork,
                              &info, nullptr),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -10);
  EXPECT_EQ(a, a0);
  ASSERT_EQ(trnsolverDnCheevj(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, A, n, w.data(), work.data(), lwork,
                              &info, params),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  double residual = -1;
  int sweeps = -1;
  EXPECT_EQ(trnsolverDnXsyevjGetResidual(h, params, &residual), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnXsyevjGetSweeps(h, params, &sweeps), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_GE(residual, 0);
  EXPECT_GE(sweeps, 1);
  const std::vector<double> ref = zheevd_values(n, widen(a0), n);
  for (int j = 0; j < n; ++j) EXPECT_NEAR(w[j], ref[j], 1e-4 * std::fabs(ref.back()));
  // heevjBatched: batchSize (11); GetResidual after a batched call: NOT_SUPPORTED (as cuSOLVER).
  EXPECT_EQ(trnsolverDnCheevjBatched(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, A, n, w.data(), work.data(),
                                     lwork, &info, params, -1),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -11);
  a = a0;
  ASSERT_EQ(trnsolverDnCheevjBatched(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, A, n, w.data(), work.data(),
                                     lwork, &info, params, 1),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnXsyevjGetResidual(h, params, &residual), TRNSOLVER_STATUS_NOT_SUPPORTED);
  trnsolverDnDestroySyevjInfo(params);
  // gesvdj: econ (2) shifts the rest; ldu (9), params (16).
  gesvdjInfo_t gp = nullptr;
  ASSERT_EQ(trnsolverDnCreateGesvdjInfo(&gp), TRNSOLVER_STATUS_SUCCESS);
  const int m = 7, k = 5;
  std::vector<std::complex<double>> g = random_matrix<std::complex<double>>(m, k, m, 8);
  std::vector<trnDoubleComplex> U(m * m), V(k * k), zwork(1);
  std::vector<double> s(k);
  auto* G = reinterpret_cast<trnDoubleComplex*>(g.data());
  EXPECT_EQ(trnsolverDnZgesvdj(h, TRNSOLVER_EIG_MODE_VECTOR, 0, m, k, G, m, s.data(), U.data(), m - 1, V.data(), k,
                               zwork.data(), 1, &info, gp),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -9);
  EXPECT_EQ(trnsolverDnZgesvdj(h, TRNSOLVER_EIG_MODE_VECTOR, 0, m, k, G, m, s.data(), U.data(), m, V.data(), k,
                               zwork.data(), 1, &info, nullptr),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -15);
  ASSERT_EQ(trnsolverDnZgesvdj(h, TRNSOLVER_EIG_MODE_VECTOR, 0, m, k, G, m, s.data(), U.data(), m, V.data(), k,
                               zwork.data(), 1, &info, gp),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  const std::vector<double> sref = zgesvd_values(m, k, std::vector<ZC>(g.begin(), g.end()), m);
  for (int j = 0; j < k; ++j) EXPECT_NEAR(s[j], sref[j], 1e-12 * sref[0]);
  EXPECT_EQ(trnsolverDnXgesvdjGetResidual(h, gp, &residual), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_LE(residual, 1e-12);
  trnsolverDnDestroyGesvdjInfo(gp);
}

// The X API routes complex data (W of the real type) to heevd / heevdx: Xsyevd, Xsyevdx (index range),
// XsyevBatched, against zheevd; too small a workspace -> INVALID_VALUE.
TEST_F(ComplexEigCApi, XsyevdXsyevdxXsyevBatchedComplex) {
  trnsolverDnParams_t p = nullptr;
  ASSERT_EQ(trnsolverDnCreateParams(&p), TRNSOLVER_STATUS_SUCCESS);
  const int64_t n = 16, batch = 2;
  std::vector<std::complex<double>> a(static_cast<std::size_t>(n * n * batch));
  for (int64_t k = 0; k < batch; ++k) {
    const auto one = hermitian_matrix<std::complex<double>>(n, n, 60 + static_cast<std::uint64_t>(k));
    std::copy(one.begin(), one.end(), a.begin() + n * n * k);
  }
  const auto a0 = a;
  const std::vector<double> ref0 = zheevd_values(n, std::vector<ZC>(a0.begin(), a0.begin() + n * n), n);
  const std::vector<double> ref1 = zheevd_values(n, std::vector<ZC>(a0.begin() + n * n, a0.end()), n);
  size_t dev = 0, host = 0;
  std::vector<double> w(static_cast<std::size_t>(n * batch));
  ASSERT_EQ(trnsolverDnXsyevd_bufferSize(h, p, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, n, TRN_C_64F, a.data(),
                                         n, TRN_R_64F, w.data(), TRN_C_64F, &dev, &host),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> work(dev);
  int info[2] = {9, 9};
  EXPECT_EQ(trnsolverDnXsyevd(h, p, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, n, TRN_C_64F, a.data(), n,
                              TRN_R_64F, w.data(), TRN_C_64F, work.data(), dev - 1, nullptr, 0, info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info[0], -12);
  ASSERT_EQ(trnsolverDnXsyevd(h, p, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, n, TRN_C_64F, a.data(), n,
                              TRN_R_64F, w.data(), TRN_C_64F, work.data(), dev, nullptr, 0, info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info[0], 0);
  for (int64_t j = 0; j < n; ++j) EXPECT_NEAR(w[j], ref0[j], 1e-12 * std::fabs(ref0.back()));
  EXPECT_LE(factor_oracle::eig_residual(n, a0.data(), n, a.data(), n, w.data()), 1e-13);
  // Xsyevdx, C_32F, eigenvalues 3 .. 7.
  std::vector<std::complex<float>> fa(a0.begin(), a0.begin() + n * n);
  std::vector<float> fw(static_cast<std::size_t>(n));
  int64_t meig = -1;
  ASSERT_EQ(trnsolverDnXsyevdx_bufferSize(h, p, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_I, TRNBLAS_FILL_MODE_LOWER, n,
                                          TRN_C_32F, fa.data(), n, nullptr, nullptr, 3, 7, &meig, TRN_R_32F, fw.data(),
                                          TRN_C_32F, &dev, &host),
            TRNSOLVER_STATUS_SUCCESS);
  work.resize(dev);
  ASSERT_EQ(trnsolverDnXsyevdx(h, p, TRNSOLVER_EIG_MODE_VECTOR, TRNSOLVER_EIG_RANGE_I, TRNBLAS_FILL_MODE_LOWER, n, TRN_C_32F,
                               fa.data(), n, nullptr, nullptr, 3, 7, &meig, TRN_R_32F, fw.data(), TRN_C_32F, work.data(),
                               dev, nullptr, 0, info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info[0], 0);
  ASSERT_EQ(meig, 5);
  for (int64_t j = 0; j < meig; ++j) EXPECT_NEAR(fw[j], ref0[2 + j], 1e-4 * std::fabs(ref0.back()));
  // XsyevBatched, C_64F, no vectors.
  a = a0;
  ASSERT_EQ(trnsolverDnXsyevBatched_bufferSize(h, p, TRNSOLVER_EIG_MODE_NOVECTOR, TRNBLAS_FILL_MODE_LOWER, n, TRN_C_64F,
                                               a.data(), n, TRN_R_64F, w.data(), TRN_C_64F, &dev, &host, batch),
            TRNSOLVER_STATUS_SUCCESS);
  work.resize(dev);
  ASSERT_EQ(trnsolverDnXsyevBatched(h, p, TRNSOLVER_EIG_MODE_NOVECTOR, TRNBLAS_FILL_MODE_LOWER, n, TRN_C_64F, a.data(), n,
                                    TRN_R_64F, w.data(), TRN_C_64F, work.data(), dev, nullptr, 0, info, batch),
            TRNSOLVER_STATUS_SUCCESS);
  for (int64_t j = 0; j < n; ++j) {
    EXPECT_NEAR(w[j], ref0[j], 1e-12 * std::fabs(ref0.back()));
    EXPECT_NEAR(w[n + j], ref1[j], 1e-12 * std::fabs(ref1.back()));
  }
  EXPECT_EQ(info[0], 0);
  EXPECT_EQ(info[1], 0);
  // W of the complex type: NOT_SUPPORTED.
  EXPECT_EQ(trnsolverDnXsyevd(h, p, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, n, TRN_C_64F, a.data(), n,
                              TRN_C_64F, w.data(), TRN_C_64F, work.data(), dev, nullptr, 0, info),
            TRNSOLVER_STATUS_NOT_SUPPORTED);
  trnsolverDnDestroyParams(p);
}

// Zheevj / Zgesvdj keep the Demmel-Veselic relative accuracy on graded matrices (the exact power-of-two
// column balancing of the Ozaki ZGEMMs, as Dsyevj / Dgesvdj): A = D H D and X = B D with
// D = diag(10^linspace(-10, 0)), H Hermitian positive definite with unit diagonal (kappa ~ 5), B Gaussian,
// both symmetrically / column permuted (every block pair mixes scales). Reference: the real 2n x 2n form
// [Re, -Im; Im, Re] (each eigenvalue twice) by the long-double Demmel-Veselic Jacobi (solver_oracles.hpp);
// singular values from X^H X formed in long double. Bound (docs/trnsolver.md): |lambda^ - lambda| / lambda
// <= c n u, c = 4 S ||H^-1||_2 (S sweeps; ||H^-1|| <= 1 here as H = G^H G / n + I scaled). Two-sided: not
// exactly zero, and LAPACKE zheevd / zgesvd (normwise accurate only) are reported for scale.
std::vector<long double> graded_reference(const std::vector<LC>& a, int n) {
  std::vector<long double> r(static_cast<std::size_t>(4 * n * n));
  const int N = 2 * n;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const LC z = a[static_cast<std::size_t>(i + j * n)];
      r[static_cast<std::size_t>(i + j * N)] = r[static_cast<std::size_t>(i + n + (j + n) * N)] = z.real();
      r[static_cast<std::size_t>(i + n + j * N)] = z.imag();
      r[static_cast<std::size_t>(i + (j + n) * N)] = -z.imag();
    }
  const std::vector<long double> w2 = trn_reference::jacobi_long_double(r, N);
  std::vector<long double> w(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) w[static_cast<std::size_t>(k)] = (w2[2 * k] + w2[2 * k + 1]) / 2;
  return w;
}

TEST(ComplexEigGraded, ZheevjZgesvdjRelativeAccuracy) {
  const int n = 96;
  const double u = std::ldexp(1.0, -53);
  std::mt19937_64 rng(23);
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<double> d(n);
  for (int i = 0; i < n; ++i) d[perm[i]] = std::pow(10.0, -10.0 + 10.0 * i / (n - 1));
  const std::vector<ZC> h0 = hpd_matrix<ZC>(n, n, 31);
  std::vector<ZC> a(static_cast<std::size_t>(n * n));
  std::vector<LC> al(a.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const std::size_t k = static_cast<std::size_t>(i + j * n);
      const double sc = d[i] * d[j] / std::sqrt(h0[i + i * n].real() * h0[j + j * n].real());
      a[k] = h0[k] * sc;
      al[k] = LC(a[k]);
    }
  const std::vector<long double> ref = graded_reference(al, n);
  std::vector<ZC> ac(a), lap(a);
  std::vector<double> w(n), wl(n);
  ts::CallReport rep;
  const ts::SyevjResult r = ts::heevj(ts::Settings{}, false, ts::Uplo::lower, n, ac.data(), n, w.data(), ts::SyevjParams{}, &rep);
  ASSERT_EQ(r.info, 0);
  LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', n, reinterpret_cast<lapack_complex_double*>(lap.data()), n, wl.data());
  double worst = 0, worst_lapack = 0;
  for (int k = 0; k < n; ++k) {
    worst = std::max(worst, double(fabsl((long double)w[k] - ref[k]) / fabsl(ref[k])));
    worst_lapack = std::max(worst_lapack, double(fabsl((long double)wl[k] - ref[k]) / fabsl(ref[k])));
  }
  const double c = 4.0 * r.sweeps;
  std::printf("[graded zheevj] n=%d lambda %.2Le .. %.2Le: worst rel err %.2e (%.3f of c n u, %d sweeps), zheevd %.2e\n",
              n, ref[0], ref[n - 1], worst, worst / (c * n * u), r.sweeps, worst_lapack);
  EXPECT_LE(worst, c * n * u);
  EXPECT_GT(worst, 0.0);
  EXPECT_GT(rep.profile.tensor_flops, 0.0);
  // gesvdj on X = B D (m = n + 8 rows): sigma_k^2 = eigenvalues of X^H X (long double).
  const int m = n + 8;
  const std::vector<ZC> b = random_matrix<ZC>(m, n, m, 37);
  std::vector<ZC> x(static_cast<std::size_t>(m * n));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) x[static_cast<std::size_t>(i + j * m)] = b[static_cast<std::size_t>(i + j * m)] * d[j];
  std::vector<LC> g(static_cast<std::size_t>(n * n));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      LC t = 0;
      for (int k = 0; k < m; ++k) t += std::conj(LC(x[k + i * m])) * LC(x[k + j * m]);
      g[static_cast<std::size_t>(i + j * n)] = t;
    }
  std::vector<long double> sref = graded_reference(g, n);
  for (auto& v : sref) v = sqrtl(v);
  std::sort(sref.begin(), sref.end(), std::greater<>());
  std::vector<ZC> xc(x), xl(x);
  std::vector<double> sv(n), sl(n);
  const ts::GesvdjResult rs =
      ts::gesvdj(ts::Settings{}, false, true, m, n, xc.data(), m, sv.data(), nullptr, m, nullptr, n, ts::GesvdjParams{});
  ASSERT_EQ(rs.info, 0);
  std::vector<double> superb(n);
  LAPACKE_zgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, reinterpret_cast<lapack_complex_double*>(xl.data()), m, sl.data(),
                 nullptr, 1, nullptr, 1, superb.data());
  double sworst = 0, sworst_lapack = 0;
  for (int k = 0; k < n; ++k) {
    sworst = std::max(sworst, double(fabsl((long double)sv[k] - sref[k]) / sref[k]));
    sworst_lapack = std::max(sworst_lapack, double(fabsl((long double)sl[k] - sref[k]) / sref[k]));
  }
  const double cs = 4.0 * rs.sweeps * 4;  // ||B^+||_2^2-class factor: B Gaussian (m - n = 8), kappa(B) <= ~4
  std::printf("[graded zgesvdj] sigma %.2Le .. %.2Le: worst rel err %.2e (%.3f of c n u, %d sweeps), zgesvd %.2e\n",
              sref[n - 1], sref[0], sworst, sworst / (cs * n * u), rs.sweeps, sworst_lapack);
  EXPECT_LE(sworst, cs * n * u);
  EXPECT_GT(sworst, 0.0);
}

}  // namespace
