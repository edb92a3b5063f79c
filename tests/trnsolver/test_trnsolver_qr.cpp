// QR (geqrf, orgqr/ungqr, ormqr/unmqr, Xgeqrf) in S, D, C, Z against LAPACKE (?geqrf, ?ormqr/?unmqr in
// double or double complex as the oracle, never in the library) and long-double error measures
// computed here. Bounds of docs/trnsolver.md "QR", two-sided: the error is below c n u_eff (the
// routine is as accurate as documented) and above u_eff / 64 (it really ran in the documented
// precision: an fp32 routine that secretly computed in fp64 fails).
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

#include "trn/solver/qr.hpp"
#include "trnsolver.h"

namespace ts = trn::solver;

namespace {

template <class T>
struct Info {
  static constexpr bool complex = false;
  using Real = T;
  using Wide = double;
};
template <class R>
struct Info<std::complex<R>> {
  static constexpr bool complex = true;
  using Real = R;
  using Wide = std::complex<double>;
};
template <class T>
using Wide = typename Info<T>::Wide;
using LD = std::complex<long double>;

// u_eff of the documented modes: fp32 TensorE mode and fp32 host panels (S, C): 2^-24; Ozaki fp64 and
// fp64 host panels (D, Z): 2^-53.
template <class T>
double u_eff() {
  return std::is_same_v<typename Info<T>::Real, float> ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
}
// The constants of docs/trnsolver.md "QR": ||A - QR||_F / ||A||_F <= c_bwd max(m, n) u_eff,
// ||Q^H Q - I||_F <= c_orth max(m, n) u_eff, ormqr ||C' - C'_ref||_F / ||C||_F <= c_orm max(m, n) u_eff.
constexpr double kCBackward = 1.0, kCOrth = 4.0, kCOrm = 1.0, kFloor = 1.0 / 64;

template <class T>
T random_entry(std::mt19937_64& rng) {
  std::normal_distribution<double> nd(0.0, 1.0);
  if constexpr (Info<T>::complex)
    return T(static_cast<typename Info<T>::Real>(nd(rng)), static_cast<typename Info<T>::Real>(nd(rng)));
  else
    return static_cast<T>(nd(rng));
}

template <class T>
std::vector<T> random_matrix(std::int64_t rows, std::int64_t cols, std::int64_t ld, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> a(static_cast<std::size_t>(ld * std::max<std::int64_t>(cols, 1)), T(0));
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) a[i + j * ld] = random_entry<T>(rng);
  return a;
}

template <class T>
LD wide(T x) {
  if constexpr (Info<T>::complex) return LD(x.real(), x.imag()); else return LD(x, 0);
}

// ||X||_F for a column-major rows x cols block with ld.
template <class F>
long double frob(std::int64_t rows, std::int64_t cols, F&& at) {
  long double s = 0;
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) s += std::norm(at(i, j));
  return std::sqrt(s);
}

// The LAPACKE oracle in double (real) or double complex.
lapack_int ref_ormqr(char side, char trans, lapack_int m, lapack_int n, lapack_int k, const double* a, lapack_int lda,
                     const double* tau, double* c, lapack_int ldc) {
  return LAPACKE_dormqr(LAPACK_COL_MAJOR, side, trans == 'C' ? 'T' : trans, m, n, k, a, lda, tau, c, ldc);
}
lapack_int ref_ormqr(char side, char trans, lapack_int m, lapack_int n, lapack_int k, const std::complex<double>* a,
                     lapack_int lda, const std::complex<double>* tau, std::complex<double>* c, lapack_int ldc) {
  return LAPACKE_zunmqr(LAPACK_COL_MAJOR, side, trans, m, n, k, reinterpret_cast<const lapack_complex_double*>(a), lda,
                        reinterpret_cast<const lapack_complex_double*>(tau),
                        reinterpret_cast<lapack_complex_double*>(c), ldc);
}
lapack_int ref_geqrf(lapack_int m, lapack_int n, double* a, lapack_int lda, double* tau) {
  return LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, n, a, lda, tau);
}
lapack_int ref_geqrf(lapack_int m, lapack_int n, std::complex<double>* a, lapack_int lda, std::complex<double>* tau) {
  return LAPACKE_zgeqrf(LAPACK_COL_MAJOR, m, n, reinterpret_cast<lapack_complex_double*>(a), lda,
                        reinterpret_cast<lapack_complex_double*>(tau));
}

template <class T>
std::vector<Wide<T>> widen(const std::vector<T>& v) {
  std::vector<Wide<T>> w(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) w[i] = static_cast<Wide<T>>(v[i]);
  return w;
}

struct QrErrors {
  double backward = 0, orth = 0, r_vs_lapack = 0;
};

// geqrf then orgqr on an m x n matrix: backward error, orthogonality, and R against LAPACKE's
// ?geqrf of the same matrix in double (the same Householder conventions: R agrees to ~kappa n u).
template <class T>
QrErrors qr_errors(std::int64_t m, std::int64_t n, std::uint64_t seed) {
  const std::int64_t lda = m + 3, k = std::min(m, n);
  const std::vector<T> a0 = random_matrix<T>(m, n, lda, seed);
  std::vector<T> a = a0, tau(static_cast<std::size_t>(k));
  ts::Settings s;
  ts::CallReport rep;
  EXPECT_EQ(ts::geqrf(s, m, n, a.data(), lda, tau.data(), &rep), 0);
  EXPECT_NE(rep.plan.find("panel width 32"), std::string::npos) << rep.plan;
  // Q: m x k from the first k reflector columns.
  std::vector<T> q(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(lda * k));
  EXPECT_EQ(ts::orgqr(s, m, k, k, q.data(), lda, tau.data()), 0);
  auto r = [&](std::int64_t i, std::int64_t j) { return i <= j ? wide(a[i + j * lda]) : LD(0); };
  QrErrors e;
  const long double na = frob(m, n, [&](std::int64_t i, std::int64_t j) { return wide(a0[i + j * lda]); });
  e.backward = double(frob(m, n, [&](std::int64_t i, std::int64_t j) {
                 LD sum = 0;
                 for (std::int64_t l = 0; l <= std::min(j, k - 1); ++l) sum += wide(q[i + l * lda]) * r(l, j);
                 return wide(a0[i + j * lda]) - sum;
               }) / na);
  e.orth = double(frob(k, k, [&](std::int64_t i, std::int64_t j) {
    LD sum = 0;
    for (std::int64_t l = 0; l < m; ++l) sum += std::conj(wide(q[l + i * lda])) * wide(q[l + j * lda]);
    return sum - LD(i == j ? 1 : 0);
  }));
  std::vector<Wide<T>> ar = widen(a0), tr(static_cast<std::size_t>(k));
  EXPECT_EQ(ref_geqrf(static_cast<lapack_int>(m), static_cast<lapack_int>(n), ar.data(), static_cast<lapack_int>(lda),
                      tr.data()),
            0);
  e.r_vs_lapack = double(frob(k, n, [&](std::int64_t i, std::int64_t j) {
                    return i <= j ? r(i, j) - wide(ar[i + j * lda]) : LD(0);
                  }) / na);
  return e;
}

template <class T>
class Qr : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Qr, Types);

// Tall (3 panels, the last narrower), wide (m < n) and one-panel shapes.
TYPED_TEST(Qr, GeqrfOrgqrBackwardErrorOrthogonalityAndRAgainstLapacke) {
  using T = TypeParam;
  const double u = u_eff<T>();
  for (const auto& [m, n] : {std::pair{150, 70}, std::pair{40, 90}, std::pair{33, 33}}) {
    const QrErrors e = qr_errors<T>(m, n, 1000 + m + n);
    const double mn = std::max(m, n);
    SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n));
    EXPECT_LE(e.backward, kCBackward * mn * u);
    EXPECT_GE(e.backward, kFloor * u);
    EXPECT_LE(e.orth, kCOrth * mn * u);
    EXPECT_GE(e.orth, kFloor * u);
    // Random Gaussian matrices of these shapes have kappa < 100: R within 100 c n u of LAPACK's.
    EXPECT_LE(e.r_vs_lapack, 100 * kCBackward * mn * u);
  }
}

// ormqr/unmqr, every side and operation, against LAPACKE ?ormqr/?unmqr in double applied to the same
// reflectors.
TYPED_TEST(Qr, OrmqrEverySideAndOperationAgainstLapacke) {
  using T = TypeParam;
  const double u = u_eff<T>();
  const char adj = Info<T>::complex ? 'C' : 'T';
  const std::int64_t nq = 75, k = 45;
  std::vector<T> a = random_matrix<T>(nq, k, nq, 7), tau(k);
  ts::Settings s;
  ASSERT_EQ(ts::geqrf(s, nq, k, a.data(), nq, tau.data()), 0);
  for (const bool left : {true, false})
    for (const bool trans : {false, true}) {
      const std::int64_t m = left ? nq : 38, n = left ? 41 : nq, ldc = m + 2;
      const std::vector<T> c0 = random_matrix<T>(m, n, ldc, 11 + left + 2 * trans);
      std::vector<T> c = c0;
      ts::CallReport rep;
      ASSERT_EQ(ts::ormqr(s, left, trans, m, n, k, a.data(), nq, tau.data(), c.data(), ldc, &rep), 0);
      std::vector<Wide<T>> cr = widen(c0), ar = widen(a), tr = widen(tau);
      ASSERT_EQ(ref_ormqr(left ? 'L' : 'R', trans ? adj : 'N', static_cast<lapack_int>(m), static_cast<lapack_int>(n),
                          static_cast<lapack_int>(k), ar.data(), static_cast<lapack_int>(nq), tr.data(), cr.data(),
                          static_cast<lapack_int>(ldc)),
                0);
      const long double nc = frob(m, n, [&](std::int64_t i, std::int64_t j) { return wide(c0[i + j * ldc]); });
      const double err = double(frob(m, n, [&](std::int64_t i, std::int64_t j) {
                           return wide(c[i + j * ldc]) - LD(std::real(cr[i + j * ldc]), std::imag(cr[i + j * ldc]));
                         }) / nc);
      SCOPED_TRACE(std::string(left ? "left" : "right") + (trans ? " adjoint" : " no-trans"));
      EXPECT_LE(err, kCOrm * static_cast<double>(std::max(m, n)) * u);
      EXPECT_GE(err, kFloor * u);
      EXPECT_GT(rep.profile.tensor_flops, 0.0);  // the block reflectors ran on TensorE
      EXPECT_GT(rep.profile.host_steps, 0);
    }
}

}  // namespace
