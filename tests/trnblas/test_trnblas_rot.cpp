// trnblas plane rotations (rotg, rotmg, rotm, Crot/Zrot), the Level 1 *Ex forms and written zero
// increments, through the C API.
//
// References (independent of our kernels): OpenBLAS's cblas_?rotg / ?rotmg / ?rotm, long-double
// formulas, and the reference BLAS's loops written out in the data's own precision (for the zero
// increments, whose result is defined by that loop).
// Bounds: rotm and rot round each output component as fl(fl(h x) + fl(h y)) (complex rot: one more
// rounding for the complex product), so |e| <= gamma_3 * (sum of the magnitudes of the terms).
#include <cblas.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "blas_test_util.hpp"

namespace {

using blastest::Handle;

template <class T>
long double gamma(int d) {
  const long double u = std::numeric_limits<T>::epsilon() / 2;
  return d * u / (1 - d * u);
}

template <class T>
std::vector<T> random_vec(std::size_t n, std::uint64_t seed) {
  const std::vector<float> f = blastest::uniform_f(n, seed);
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(f[i]) + static_cast<T>(f[(i * 5 + 1) % n]) * T(1e-4);
  return v;
}
std::size_t span_of(std::int64_t n, std::int64_t inc) {
  return n <= 0 ? 1 : static_cast<std::size_t>((n - 1) * (inc < 0 ? -inc : inc) + 1);
}
std::size_t idx(std::int64_t n, std::int64_t inc, std::int64_t i) {
  return static_cast<std::size_t>(inc >= 0 ? i * inc : (n - 1 - i) * -inc);
}

trnblasStatus_t rotg(trnblasHandle_t h, float* a, float* b, float* c, float* s) { return trnblasSrotg(h, a, b, c, s); }
trnblasStatus_t rotg(trnblasHandle_t h, double* a, double* b, double* c, double* s) { return trnblasDrotg(h, a, b, c, s); }
void ref_rotg(float* a, float* b, float* c, float* s) { cblas_srotg(a, b, c, s); }
void ref_rotg(double* a, double* b, double* c, double* s) { cblas_drotg(a, b, c, s); }
trnblasStatus_t rotm(trnblasHandle_t h, int n, float* x, int ix, float* y, int iy, const float* p) { return trnblasSrotm(h, n, x, ix, y, iy, p); }
trnblasStatus_t rotm(trnblasHandle_t h, int n, double* x, int ix, double* y, int iy, const double* p) { return trnblasDrotm(h, n, x, ix, y, iy, p); }
void ref_rotm(int n, float* x, int ix, float* y, int iy, const float* p) { cblas_srotm(n, x, ix, y, iy, p); }
void ref_rotm(int n, double* x, int ix, double* y, int iy, const double* p) { cblas_drotm(n, x, ix, y, iy, p); }
trnblasStatus_t rotmg(trnblasHandle_t h, float* d1, float* d2, float* x1, const float* y1, float* p) { return trnblasSrotmg(h, d1, d2, x1, y1, p); }
trnblasStatus_t rotmg(trnblasHandle_t h, double* d1, double* d2, double* x1, const double* y1, double* p) { return trnblasDrotmg(h, d1, d2, x1, y1, p); }
void ref_rotmg(float* d1, float* d2, float* x1, float y1, float* p) { cblas_srotmg(d1, d2, x1, y1, p); }
void ref_rotmg(double* d1, double* d2, double* x1, double y1, double* p) { cblas_drotmg(d1, d2, x1, y1, p); }
trnblasStatus_t axpy(trnblasHandle_t h, int n, const float* a, const float* x, int ix, float* y, int iy) { return trnblasSaxpy(h, n, a, x, ix, y, iy); }
trnblasStatus_t axpy(trnblasHandle_t h, int n, const double* a, const double* x, int ix, double* y, int iy) { return trnblasDaxpy(h, n, a, x, ix, y, iy); }
trnblasStatus_t swap(trnblasHandle_t h, int n, float* x, int ix, float* y, int iy) { return trnblasSswap(h, n, x, ix, y, iy); }
trnblasStatus_t swap(trnblasHandle_t h, int n, double* x, int ix, double* y, int iy) { return trnblasDswap(h, n, x, ix, y, iy); }
trnblasStatus_t rot(trnblasHandle_t h, int n, float* x, int ix, float* y, int iy, const float* c, const float* s) { return trnblasSrot(h, n, x, ix, y, iy, c, s); }
trnblasStatus_t rot(trnblasHandle_t h, int n, double* x, int ix, double* y, int iy, const double* c, const double* s) { return trnblasDrot(h, n, x, ix, y, iy, c, s); }
template <class T> constexpr trnDataType_t kType = std::is_same_v<T, float> ? TRN_R_32F : TRN_R_64F;

template <class T>
class Rot : public ::testing::Test {};
using RealTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Rot, RealTypes);

// rotg: against OpenBLAS and the long-double definition r = sign * hypot(a, b), c = a / r,
// s = b / r; z as the reference defines it. Large and tiny operands exercise the safe scaling:
// a^2 + b^2 overflows (underflows) in T there, r does not.
TYPED_TEST(Rot, RotgMatchesTheDefinitionWithoutOverflowOrUnderflow) {
  using T = TypeParam;
  Handle h;
  const T big = std::sqrt(std::numeric_limits<T>::max()) * T(4), tiny = std::sqrt(std::numeric_limits<T>::min()) / T(8);
  const T cases[][2] = {{3, 4}, {-3, 4}, {4, -3}, {-5, -12}, {1, 1e-3f}, {1e-3f, 1}, {big, big}, {big, -big / 3},
                        {tiny, tiny}, {-tiny / 5, tiny}, {1, 0}, {0, 2}, {0, 0}, {-7, 0}};
  for (const auto& cs : cases) {
    T a = cs[0], b = cs[1], c = 9, s = 9;
    ASSERT_EQ(rotg(h, &a, &b, &c, &s), TRNBLAS_STATUS_SUCCESS);
    T ra = cs[0], rb = cs[1], rc = 9, rs = 9;
    ref_rotg(&ra, &rb, &rc, &rs);
    const long double A = cs[0], B = cs[1];
    if (B == 0) {  // c = 1, s = 0, b = 0, a unchanged
      EXPECT_EQ(c, T(1));
      EXPECT_EQ(s, T(0));
      EXPECT_EQ(b, T(0));
      EXPECT_EQ(a, cs[0]);
      continue;
    }
    if (A == 0) {  // c = 0, s = 1, a = b, b = 1
      EXPECT_EQ(c, T(0));
      EXPECT_EQ(s, T(1));
      EXPECT_EQ(a, cs[1]);
      EXPECT_EQ(b, T(1));
      continue;
    }
    const long double sigma = std::fabs(A) > std::fabs(B) ? (A < 0 ? -1 : 1) : (B < 0 ? -1 : 1);
    const long double r = sigma * std::sqrt(A * A + B * B), C = A / r, S = B / r;
    const long double tol = gamma<T>(6);
    EXPECT_LE(std::fabs(a - r), tol * std::fabs(r)) << cs[0] << " " << cs[1];
    EXPECT_LE(std::fabs(c - C), tol) << cs[0] << " " << cs[1];
    EXPECT_LE(std::fabs(s - S), tol) << cs[0] << " " << cs[1];
    const long double z = std::fabs(A) > std::fabs(B) ? S : 1 / C;
    EXPECT_LE(std::fabs(b - z), tol * std::fabs(z)) << cs[0] << " " << cs[1];
    // OpenBLAS agrees within twice the bound on ordinary operands (it does not scale: at the
    // extremes its r loses accuracy or overflows, which is what the safe scaling is for).
    if (std::fabs(A) >= 1e-3L && std::fabs(A) <= 1e3L && std::fabs(B) >= 1e-3L && std::fabs(B) <= 1e3L) {
      EXPECT_LE(std::fabs(static_cast<long double>(a) - ra), 2 * tol * std::fabs(r));
      EXPECT_LE(std::fabs(static_cast<long double>(c) - rc), 2 * tol);
      EXPECT_LE(std::fabs(static_cast<long double>(s) - rs), 2 * tol);
    }
  }
}

// rotmg: against OpenBLAS (same reference algorithm: identical flag, and values within a few ulps),
// and the defining property: the second component of H [x1; y1] vanishes (relative to the terms).
TYPED_TEST(Rot, RotmgMatchesOpenBlasAndZeroesTheSecondComponent) {
  using T = TypeParam;
  Handle h;
  const T cases[][4] = {{1, 1, 1, 2},      {2, 3, 4, 1},     {1, 1, 3, -2},    {0.5f, 2, -1, 4}, {1, -1, 2, 3},
                        {-1, 2, 3, 4},     {1, 0, 3, 4},     {1e-9f, 1, 2, 3}, {1e9f, 1, 2, 3},  {1, 1e9f, 2, 3},
                        {1, 1e-9f, 2, 3},  {4, 1, 1e-6f, 1}};
  for (const auto& cs : cases) {
    T d1 = cs[0], d2 = cs[1], x1 = cs[2], p[5] = {7, 7, 7, 7, 7};
    const T y1 = cs[3];
    ASSERT_EQ(rotmg(h, &d1, &d2, &x1, &y1, p), TRNBLAS_STATUS_SUCCESS);
    T rd1 = cs[0], rd2 = cs[1], rx1 = cs[2], rp[5] = {7, 7, 7, 7, 7};
    ref_rotmg(&rd1, &rd2, &rx1, y1, rp);
    ASSERT_EQ(p[0], rp[0]) << cs[0] << " " << cs[1] << " " << cs[2] << " " << cs[3];
    const long double tol = gamma<T>(8);
    const auto close = [&](T u, T v) { return std::fabs(static_cast<long double>(u) - v) <= tol * std::fabs(static_cast<long double>(v)); };
    EXPECT_TRUE(close(d1, rd1) && close(d2, rd2) && close(x1, rx1)) << d1 << " " << rd1 << " " << d2 << " " << rd2;
    const int used[4][5] = {{1, 1, 1, 1, 1}, {1, 0, 1, 1, 0}, {1, 1, 0, 0, 1}, {1, 0, 0, 0, 0}};  // flag -1, 0, 1, -2
    const int f = p[0] == -1 ? 0 : p[0] == 0 ? 1 : p[0] == 1 ? 2 : 3;
    for (int k = 1; k < 5; ++k) {
      if (used[f][k]) EXPECT_TRUE(close(p[k], rp[k])) << "param " << k << ": " << p[k] << " vs " << rp[k] << " flag " << p[0] << " case " << cs[0] << " " << cs[1] << " " << cs[2] << " " << cs[3];
      else EXPECT_EQ(p[k], T(7)) << "param " << k << " is not used by flag " << p[0];
    }
    if (p[0] != T(-2) && d1 != T(0)) {  // H [x1; y1] = [x1'; 0]
      const long double h21 = p[0] == 0 ? p[2] : p[0] == 1 ? -1 : p[2], h22 = p[0] == 0 ? 1 : p[4];
      const long double h11 = p[0] == 0 ? 1 : p[1];
      const long double x = cs[2], y = y1;
      EXPECT_LE(std::fabs(h21 * x + h22 * y), 8 * tol * (std::fabs(h21 * x) + std::fabs(h22 * y)));
      EXPECT_LE(std::fabs(h11 * x + (p[0] == 0 ? p[3] : p[0] == 1 ? 1 : p[3]) * y - x1), 8 * tol * std::fabs(x1));
    }
  }
}

// d1 = 0: OpenBLAS's rotmg special-cases it (h22 = 0); the reference BLAS (netlib libblas.so.3,
// drotmg_) returns flag 1, h11 = 0, h22 = 1, d1 = 1, d2 = 0, x1 = 1 for (0, 1, 1, 1).
TYPED_TEST(Rot, RotmgZeroD1AsTheReferenceBlas) {
  using T = TypeParam;
  Handle h;
  T d1 = 0, d2 = 1, x1 = 1, p[5] = {7, 7, 7, 7, 7};
  const T y1 = 1;
  ASSERT_EQ(rotmg(h, &d1, &d2, &x1, &y1, p), TRNBLAS_STATUS_SUCCESS);
  const T want[5] = {1, 0, 7, 7, 1};
  for (int k = 0; k < 5; ++k) EXPECT_EQ(p[k], want[k]) << k;
  EXPECT_EQ(d1, T(1));
  EXPECT_EQ(d2, T(0));
  EXPECT_EQ(x1, T(1));
}

// rotm: every flag, positive and negative increments, against OpenBLAS and the rounding bound.
TYPED_TEST(Rot, RotmEveryFlagAndIncrement) {
  using T = TypeParam;
  Handle h;
  const T params[][5] = {{-1, 0.6f, -0.8f, 0.8f, 0.6f}, {0, 9, 0.25f, -0.5f, 9}, {1, 0.75f, 9, 9, -1.5f}, {-2, 5, 5, 5, 5}};
  for (const auto& p : params)
    for (int n : {1, 7, 300})
      for (auto [ix, iy] : {std::pair{1, 1}, std::pair{2, -3}, std::pair{-1, 1}}) {
        std::vector<T> x = random_vec<T>(span_of(n, ix), 3 + n), y = random_vec<T>(span_of(n, iy), 4 + n);
        const std::vector<T> x0 = x, y0 = y;
        std::vector<T> rx = x, ry = y;
        ASSERT_EQ(rotm(h, n, x.data(), ix, y.data(), iy, p), TRNBLAS_STATUS_SUCCESS);
        ref_rotm(n, rx.data(), ix, ry.data(), iy, p);
        const long double h11 = p[0] == 0 ? 1 : p[1], h12 = p[0] == 1 ? 1 : p[3], h21 = p[0] == 1 ? -1 : p[2],
                          h22 = p[0] == 0 ? 1 : p[4];
        for (int i = 0; i < n; ++i) {
          const std::size_t kx = idx(n, ix, i), ky = idx(n, iy, i);
          if (p[0] == -2) {  // identity: nothing touched
            ASSERT_EQ(x[kx], x0[kx]);
            ASSERT_EQ(y[ky], y0[ky]);
            continue;
          }
          const long double w = x0[kx], z = y0[ky];
          const long double mx = std::fabs(h11 * w) + std::fabs(h12 * z), my = std::fabs(h21 * w) + std::fabs(h22 * z);
          ASSERT_LE(std::fabs(x[kx] - (h11 * w + h12 * z)), gamma<T>(2) * mx) << "flag " << p[0] << " i=" << i;
          ASSERT_LE(std::fabs(y[ky] - (h21 * w + h22 * z)), gamma<T>(2) * my) << "flag " << p[0] << " i=" << i;
          ASSERT_LE(std::fabs(static_cast<long double>(x[kx]) - rx[kx]), 2 * gamma<T>(2) * mx);
          ASSERT_LE(std::fabs(static_cast<long double>(y[ky]) - ry[ky]), 2 * gamma<T>(2) * my);
        }
      }
}

// A written vector with inc = 0: the reference BLAS's loop, element by element, written out in T
// (volatile: each product and sum rounded to T as the Fortran statement does). Bit for bit.
TYPED_TEST(Rot, WrittenZeroIncrementFollowsTheReferenceLoop) {
  using T = TypeParam;
  Handle h;
  const int n = 5;
  const std::vector<T> xs = random_vec<T>(n, 11), ys = random_vec<T>(n, 12);
  const T alpha = T(0.375), c = T(0.6), s = T(0.8);
  {  // axpy, incy = 0: y(1) accumulates every alpha x_i in turn
    std::vector<T> y = ys;
    ASSERT_EQ(axpy(h, n, &alpha, xs.data(), 1, y.data(), 0), TRNBLAS_STATUS_SUCCESS);
    volatile T acc = ys[0];
    for (int i = 0; i < n; ++i) {
      volatile T t = alpha * xs[static_cast<std::size_t>(i)];
      acc = acc + t;
    }
    EXPECT_EQ(y[0], T(acc));
    EXPECT_EQ(y[1], ys[1]);
  }
  {  // swap, incx = 0: x(1) ends as y's last, y gets x(1)'s successive values
    std::vector<T> x = xs, y = ys;
    ASSERT_EQ(swap(h, n, x.data(), 0, y.data(), 1), TRNBLAS_STATUS_SUCCESS);
    std::vector<T> rx = xs, ry = ys;
    for (int i = 0; i < n; ++i) std::swap(rx[0], ry[static_cast<std::size_t>(i)]);
    EXPECT_EQ(x, rx);
    EXPECT_EQ(y, ry);
  }
  {  // rot and rotm with incy = 0 and incx = -1
    std::vector<T> x = xs, y = ys, rx = xs, ry = ys;
    ASSERT_EQ(rot(h, n, x.data(), -1, y.data(), 0, &c, &s), TRNBLAS_STATUS_SUCCESS);
    for (int i = 0; i < n; ++i) {
      T& xi = rx[static_cast<std::size_t>(n - 1 - i)];
      volatile T a = c * xi, b = s * ry[0], d = c * ry[0], e = s * xi;
      xi = a + b;
      ry[0] = d - e;
    }
    EXPECT_EQ(x, rx);
    EXPECT_EQ(y, ry);
    const T p[5] = {-1, T(0.5), T(-0.25), T(0.75), T(1.5)};
    x = xs, y = ys, rx = xs, ry = ys;
    ASSERT_EQ(rotm(h, n, x.data(), 0, y.data(), 1, p), TRNBLAS_STATUS_SUCCESS);
    for (int i = 0; i < n; ++i) {
      T& yi = ry[static_cast<std::size_t>(i)];
      volatile T a = rx[0] * p[1], b = yi * p[3], d = rx[0] * p[2], e = yi * p[4];
      rx[0] = a + b;
      yi = d + e;
    }
    EXPECT_EQ(x, rx);
    EXPECT_EQ(y, ry);
  }
}

TYPED_TEST(Rot, InvalidArgumentsNameTheirPositionAndWriteNothing) {
  using T = TypeParam;
  Handle h;
  int last = -1;
  auto expect_pos = [&](trnblasStatus_t st, int pos) {
    EXPECT_EQ(st, TRNBLAS_STATUS_INVALID_VALUE);
    ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
    EXPECT_EQ(last, pos);
  };
  T a = 3, b = 4, c = 9, s = 9;
  expect_pos(rotg(h, nullptr, &b, &c, &s), 1);
  expect_pos(rotg(h, &a, nullptr, &c, &s), 2);
  expect_pos(rotg(h, &a, &b, nullptr, &s), 3);
  expect_pos(rotg(h, &a, &b, &c, nullptr), 4);
  EXPECT_EQ(a, T(3));
  EXPECT_EQ(b, T(4));
  EXPECT_EQ(c, T(9));
  T d1 = 1, d2 = 1, x1 = 1, y1 = 1, p[5] = {-1, 1, 1, 1, 1};
  expect_pos(rotmg(h, nullptr, &d2, &x1, &y1, p), 1);
  expect_pos(rotmg(h, &d1, &d2, &x1, nullptr, p), 4);
  expect_pos(rotmg(h, &d1, &d2, &x1, &y1, nullptr), 5);
  EXPECT_EQ(d1, T(1));
  std::vector<T> x = random_vec<T>(4, 1), y = random_vec<T>(4, 2);
  const std::vector<T> x0 = x, y0 = y;
  expect_pos(rotm(h, 4, x.data(), 1, y.data(), 1, nullptr), 6);
  expect_pos(rotm(h, 4, nullptr, 1, y.data(), 1, p), 2);
  expect_pos(rotm(h, 4, x.data(), 1, nullptr, 1, p), 4);
  EXPECT_EQ(x, x0);
  EXPECT_EQ(y, y0);
  EXPECT_EQ(rotm(h, 0, nullptr, 1, nullptr, 1, p), TRNBLAS_STATUS_SUCCESS);  // n = 0: quick return
  EXPECT_EQ(rotg(nullptr, &a, &b, &c, &s), TRNBLAS_STATUS_NOT_INITIALIZED);
}

// ---- complex rotg and rot (complex s) -----------------------------------------------------------

}  // namespace

// OpenBLAS's crot_/zrot_ (LAPACK auxiliaries: complex s; Fortran ABI, no CBLAS form).
extern "C" {
void crot_(const int*, void*, const int*, void*, const int*, const float*, const void*);
void zrot_(const int*, void*, const int*, void*, const int*, const double*, const void*);
}

namespace {

template <class C>
void ref_crot(int n, C* x, int incx, C* y, int incy, typename C::value_type c, const C& s) {
  if constexpr (std::is_same_v<C, std::complex<float>>) crot_(&n, x, &incx, y, &incy, &c, &s);
  else zrot_(&n, x, &incx, y, &incy, &c, &s);
}
template <class C>
void ref_crotg(C* a, C* b, typename C::value_type* c, C* s) {
  if constexpr (std::is_same_v<C, std::complex<float>>) cblas_crotg(a, b, c, s);
  else cblas_zrotg(a, b, c, s);
}

template <class C>
class RotComplex : public ::testing::Test {};
using ComplexTypes = ::testing::Types<std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(RotComplex, ComplexTypes);

trnblasStatus_t crotg(trnblasHandle_t h, std::complex<float>* a, std::complex<float>* b, float* c, std::complex<float>* s) {
  return trnblasCrotg(h, reinterpret_cast<trnFloatComplex*>(a), reinterpret_cast<trnFloatComplex*>(b), c,
                      reinterpret_cast<trnFloatComplex*>(s));
}
trnblasStatus_t crotg(trnblasHandle_t h, std::complex<double>* a, std::complex<double>* b, double* c,
                      std::complex<double>* s) {
  return trnblasZrotg(h, reinterpret_cast<trnDoubleComplex*>(a), reinterpret_cast<trnDoubleComplex*>(b), c,
                      reinterpret_cast<trnDoubleComplex*>(s));
}
trnblasStatus_t crot(trnblasHandle_t h, int n, std::complex<float>* x, int ix, std::complex<float>* y, int iy,
                     const float* c, const std::complex<float>* s) {
  return trnblasCrot(h, n, reinterpret_cast<trnFloatComplex*>(x), ix, reinterpret_cast<trnFloatComplex*>(y), iy, c,
                     reinterpret_cast<const trnFloatComplex*>(s));
}
trnblasStatus_t crot(trnblasHandle_t h, int n, std::complex<double>* x, int ix, std::complex<double>* y, int iy,
                     const double* c, const std::complex<double>* s) {
  return trnblasZrot(h, n, reinterpret_cast<trnDoubleComplex*>(x), ix, reinterpret_cast<trnDoubleComplex*>(y), iy, c,
                     reinterpret_cast<const trnDoubleComplex*>(s));
}

// Complex rotg: c = |a| / ||(a, b)||, s = (a / |a|) conj(b) / ||(a, b)||, r = (a / |a|) ||(a, b)||
// (LAPACK's crotg, a != 0; a = 0: c = 0, s = conj(b) / |b|, r = |b|), in long double; scaled cases
// whose squares leave T's range.
TYPED_TEST(RotComplex, RotgMatchesTheDefinition) {
  using C = TypeParam;
  using R = typename C::value_type;
  using L = std::complex<long double>;
  Handle h;
  const R big = std::sqrt(std::numeric_limits<R>::max()) * R(2), tiny = std::sqrt(std::numeric_limits<R>::min()) / R(4);
  const C cases[][2] = {{C(3, 4), C(1, -2)}, {C(-1, 0.5), C(2, 2)},     {C(0, 0), C(3, -4)},   {C(2, -1), C(0, 0)},
                        {C(big, big), C(big, -big)}, {C(tiny, 0), C(tiny, tiny)}, {C(1, 1), C(tiny, 0)}, {C(tiny, 0), C(1, 2)}};
  for (const auto& cs : cases) {
    C a = cs[0], b = cs[1], s(9, 9);
    R c = 9;
    ASSERT_EQ(crotg(h, &a, &b, &c, &s), TRNBLAS_STATUS_SUCCESS);
    EXPECT_EQ(b, cs[1]);  // b is input only
    const L A(cs[0].real(), cs[0].imag()), B(cs[1].real(), cs[1].imag());
    const long double na = std::abs(A), nb = std::abs(B), norm = std::sqrt(na * na + nb * nb);
    L Cr, S, Rr;
    if (nb == 0) {
      Cr = 1, S = 0, Rr = A;
    } else if (na == 0) {
      Cr = 0, S = std::conj(B) / nb, Rr = nb;
    } else {
      Cr = na / norm, S = (A / na) * std::conj(B) / norm, Rr = (A / na) * norm;
    }
    const long double tol = gamma<R>(12);
    if (std::abs(cs[0]) >= R(1e-3) && std::abs(cs[0]) <= R(1e3) && std::abs(cs[1]) >= R(1e-3) && std::abs(cs[1]) <= R(1e3)) {
      C ra = cs[0], rb = cs[1], rs(9, 9);
      R rc = 9;
      ref_crotg(&ra, &rb, &rc, &rs);  // OpenBLAS agrees on ordinary operands (it does not scale)
      EXPECT_LE(std::fabs(static_cast<long double>(c) - rc), 2 * tol) << cs[0] << cs[1];
      EXPECT_LE(std::abs(std::complex<long double>(s - rs)), 2 * tol) << cs[0] << cs[1];
      EXPECT_LE(std::abs(std::complex<long double>(a - ra)), 2 * tol * std::abs(Rr)) << cs[0] << cs[1];
    }
    EXPECT_LE(std::fabs(c - Cr.real()), tol) << cs[0] << cs[1];
    EXPECT_LE(std::abs(L(s.real(), s.imag()) - S), tol) << cs[0] << cs[1];
    EXPECT_LE(std::abs(L(a.real(), a.imag()) - Rr), tol * std::abs(Rr)) << cs[0] << cs[1];
  }
}

// Crot/Zrot: (x, y) = (c x + s y, c y - conj(s) x), against long double with the bound gamma_3 of the
// magnitudes of the real terms, every increment pattern including inc = 0 for a written vector
// (then the reference loop, in long double rounded per element, is the reference).
TYPED_TEST(RotComplex, RotWithComplexSine) {
  using C = TypeParam;
  using R = typename C::value_type;
  Handle h;
  const R c = R(0.6);
  const C s(R(0.48), R(-0.64));
  for (int n : {1, 6, 257})
    for (auto [ix, iy] : {std::pair{1, 1}, std::pair{-2, 1}, std::pair{1, -1}}) {
      const std::vector<R> xr = random_vec<R>(span_of(n, ix), 5 + n), xi = random_vec<R>(span_of(n, ix), 6 + n),
                           yr = random_vec<R>(span_of(n, iy), 7 + n), yi = random_vec<R>(span_of(n, iy), 8 + n);
      std::vector<C> x(xr.size()), y(yr.size());
      for (std::size_t k = 0; k < x.size(); ++k) x[k] = C(xr[k], xi[k]);
      for (std::size_t k = 0; k < y.size(); ++k) y[k] = C(yr[k], yi[k]);
      const std::vector<C> x0 = x, y0 = y;
      std::vector<C> xo = x, yo = y;  // OpenBLAS's result
      ASSERT_EQ(crot(h, n, x.data(), ix, y.data(), iy, &c, &s), TRNBLAS_STATUS_SUCCESS);
      ref_crot(n, xo.data(), ix, yo.data(), iy, c, s);
      const long double sr = s.real(), si = s.imag();
      for (int i = 0; i < n; ++i) {
        const std::size_t kx = idx(n, ix, i), ky = idx(n, iy, i);
        const long double ar = x0[kx].real(), ai = x0[kx].imag(), br = y0[ky].real(), bi = y0[ky].imag();
        const long double ex[4] = {c * ar + sr * br - si * bi, c * ai + sr * bi + si * br, c * br - sr * ar - si * ai,
                                   c * bi - sr * ai + si * ar};
        const long double mag[4] = {std::fabs(c * ar) + std::fabs(sr * br) + std::fabs(si * bi),
                                    std::fabs(c * ai) + std::fabs(sr * bi) + std::fabs(si * br),
                                    std::fabs(c * br) + std::fabs(sr * ar) + std::fabs(si * ai),
                                    std::fabs(c * bi) + std::fabs(sr * ai) + std::fabs(si * ar)};
        const R got[4] = {x[kx].real(), x[kx].imag(), y[ky].real(), y[ky].imag()};
        const R ref[4] = {xo[kx].real(), xo[kx].imag(), yo[ky].real(), yo[ky].imag()};
        for (int k = 0; k < 4; ++k) {
          ASSERT_LE(std::fabs(got[k] - ex[k]), gamma<R>(3) * mag[k]) << "n=" << n << " i=" << i << " part " << k;
          ASSERT_LE(std::fabs(static_cast<long double>(got[k]) - ref[k]), 2 * gamma<R>(3) * mag[k]) << "vs OpenBLAS crot_/zrot_";
        }
      }
    }
  // incy = 0: y(1) is rotated against every x_i in turn (reference CROT loop, written out in R).
  const int n = 4;
  std::vector<C> x(n), y(1);
  for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = C(R(0.1) * R(i + 1), R(-0.2) * R(i));
  y[0] = C(R(0.7), R(0.3));
  std::vector<C> rx = x, ry = y;
  ASSERT_EQ(crot(h, n, x.data(), 1, y.data(), 0, &c, &s), TRNBLAS_STATUS_SUCCESS);
  for (int i = 0; i < n; ++i) {
    C& a = rx[static_cast<std::size_t>(i)];
    const C b = ry[0];
    volatile R t1 = s.real() * b.real(), t2 = s.imag() * b.imag(), t3 = s.real() * b.imag(), t4 = s.imag() * b.real();
    volatile R u1 = t1 - t2, u2 = t3 + t4, ca = c * a.real(), cb = c * a.imag();
    const C xn(ca + u1, cb + u2);
    volatile R v1 = s.real() * a.real(), v2 = s.imag() * a.imag(), v3 = s.real() * a.imag(), v4 = s.imag() * a.real();
    volatile R w1 = v1 + v2, w2 = v3 - v4, da = c * b.real(), db = c * b.imag();
    ry[0] = C(da - w1, db - w2);
    a = xn;
  }
  EXPECT_EQ(x, rx);
  EXPECT_EQ(y, ry);
  // Positions: c 6, s 7; nothing written.
  int last = 0;
  const std::vector<C> x1 = x;
  EXPECT_EQ(crot(h, n, x.data(), 1, y.data(), 1, &c, nullptr), TRNBLAS_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 7);
  EXPECT_EQ(crot(h, n, x.data(), 1, y.data(), 1, nullptr, &s), TRNBLAS_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 6);
  EXPECT_EQ(x, x1);
}

// ---- the *Ex forms -------------------------------------------------------------------------------
// Each supported combination gives exactly the typed routine's result; unsupported ones
// (16-bit data, mixed types) return NOT_SUPPORTED and write nothing; positions follow the Ex signatures.
TEST(Level1Ex, SupportedCombinationsEqualTheTypedRoutines) {
  Handle h;
  const int n = 37;
  std::vector<float> x = random_vec<float>(n, 1), y = random_vec<float>(n, 2);
  const std::vector<float> x0 = x, y0 = y;
  const float alpha = 0.75f;
  std::vector<float> ya = y, yb = y;
  ASSERT_EQ(trnblasAxpyEx(h, n, &alpha, TRN_R_32F, x.data(), TRN_R_32F, 1, ya.data(), TRN_R_32F, 1, TRN_R_32F),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSaxpy(h, n, &alpha, x.data(), 1, yb.data(), 1), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(ya, yb);
  float r1 = 0, r2 = 0;
  ASSERT_EQ(trnblasDotEx(h, n, x.data(), TRN_R_32F, 1, y.data(), TRN_R_32F, -1, &r1, TRN_R_32F, TRN_R_32F),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSdot(h, n, x.data(), 1, y.data(), -1, &r2), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(r1, r2);
  ASSERT_EQ(trnblasNrm2Ex(h, n, x.data(), TRN_R_32F, 2 - 1, &r1, TRN_R_32F, TRN_R_32F), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSnrm2(h, n, x.data(), 1, &r2), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(r1, r2);
  ASSERT_EQ(trnblasAsumEx(h, n, x.data(), TRN_R_32F, 1, &r1, TRN_R_32F, TRN_R_32F), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSasum(h, n, x.data(), 1, &r2), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(r1, r2);
  int i1 = 0, i2 = 0;
  ASSERT_EQ(trnblasIamaxEx(h, n, x.data(), TRN_R_32F, 1, &i1), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasIsamax(h, n, x.data(), 1, &i2), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(i1, i2);
  ASSERT_EQ(trnblasIaminEx(h, n, x.data(), TRN_R_32F, 1, &i1), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasIsamin(h, n, x.data(), 1, &i2), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(i1, i2);
  std::vector<float> xa = x, xb = x;
  ASSERT_EQ(trnblasScalEx(h, n, &alpha, TRN_R_32F, xa.data(), TRN_R_32F, 1, TRN_R_32F), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSscal(h, n, &alpha, xb.data(), 1), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(xa, xb);
  std::vector<float> yc(n, 0.0f);
  ASSERT_EQ(trnblasCopyEx(h, n, x.data(), TRN_R_32F, 1, yc.data(), TRN_R_32F, 1), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(yc, x);
  xa = x, ya = y;
  ASSERT_EQ(trnblasSwapEx(h, n, xa.data(), TRN_R_32F, 1, ya.data(), TRN_R_32F, 1), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(xa, y);
  EXPECT_EQ(ya, x);
  const float c = 0.6f, s = 0.8f;
  xa = x, ya = y, xb = x, yb = y;
  ASSERT_EQ(trnblasRotEx(h, n, xa.data(), TRN_R_32F, 1, ya.data(), TRN_R_32F, 1, &c, &s, TRN_R_32F, TRN_R_32F),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSrot(h, n, xb.data(), 1, yb.data(), 1, &c, &s), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(xa, xb);
  EXPECT_EQ(ya, yb);
  const float p[5] = {-1, 0.5f, 0.25f, -0.5f, 2};
  xa = x, ya = y, xb = x, yb = y;
  ASSERT_EQ(trnblasRotmEx(h, n, xa.data(), TRN_R_32F, 1, ya.data(), TRN_R_32F, 1, p, TRN_R_32F, TRN_R_32F),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSrotm(h, n, xb.data(), 1, yb.data(), 1, p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(xa, xb);
  EXPECT_EQ(ya, yb);

  // Double and complex forms, the mixed ones included.
  std::vector<double> dx = random_vec<double>(n, 3), dy = random_vec<double>(n, 4);
  double dr1 = 0, dr2 = 0;
  ASSERT_EQ(trnblasDotEx(h, n, dx.data(), TRN_R_64F, 1, dy.data(), TRN_R_64F, 1, &dr1, TRN_R_64F, TRN_R_64F),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasDdot(h, n, dx.data(), 1, dy.data(), 1, &dr2), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(dr1, dr2);
  std::vector<std::complex<float>> cx(n), cy(n);
  for (int i = 0; i < n; ++i) {
    cx[static_cast<std::size_t>(i)] = {x[static_cast<std::size_t>(i)], y[static_cast<std::size_t>(i)]};
    cy[static_cast<std::size_t>(i)] = {y[static_cast<std::size_t>(i)], -x[static_cast<std::size_t>(i)]};
  }
  auto* tx = reinterpret_cast<trnFloatComplex*>(cx.data());
  auto* ty = reinterpret_cast<trnFloatComplex*>(cy.data());
  trnFloatComplex cr1{}, cr2{};
  ASSERT_EQ(trnblasDotcEx(h, n, tx, TRN_C_32F, 1, ty, TRN_C_32F, 1, &cr1, TRN_C_32F, TRN_C_32F), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasCdotc(h, n, tx, 1, ty, 1, &cr2), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(std::memcmp(&cr1, &cr2, sizeof cr1), 0);
  ASSERT_EQ(trnblasNrm2Ex(h, n, tx, TRN_C_32F, 1, &r1, TRN_R_32F, TRN_R_32F), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasScnrm2(h, n, tx, 1, &r2), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(r1, r2);
  std::vector<std::complex<float>> ca = cx, cb = cx;
  ASSERT_EQ(trnblasScalEx(h, n, &alpha, TRN_R_32F, ca.data(), TRN_C_32F, 1, TRN_C_32F), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasCsscal(h, n, &alpha, reinterpret_cast<trnFloatComplex*>(cb.data()), 1), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(ca, cb);
  const std::complex<float> cs(0.48f, -0.64f);
  ca = cx, cb = cx;
  std::vector<std::complex<float>> da = cy, db = cy;
  ASSERT_EQ(trnblasRotEx(h, n, ca.data(), TRN_C_32F, 1, da.data(), TRN_C_32F, 1, &c, &cs, TRN_C_32F, TRN_C_32F),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasCrot(h, n, reinterpret_cast<trnFloatComplex*>(cb.data()), 1, reinterpret_cast<trnFloatComplex*>(db.data()), 1,
                        &c, reinterpret_cast<const trnFloatComplex*>(&cs)),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(ca, cb);
  EXPECT_EQ(da, db);
  double ga = 3, gb = 4, gc = 0, gs = 0, ha = 3, hb = 4, hc = 0, hs = 0;
  ASSERT_EQ(trnblasRotgEx(h, &ga, &gb, TRN_R_64F, &gc, &gs, TRN_R_64F, TRN_R_64F), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasDrotg(h, &ha, &hb, &hc, &hs), TRNBLAS_STATUS_SUCCESS);
  EXPECT_TRUE(ga == ha && gb == hb && gc == hc && gs == hs);

  // Unsupported: NOT_SUPPORTED, nothing written.
  ya = y0;
  EXPECT_EQ(trnblasAxpyEx(h, n, &alpha, TRN_R_32F, x.data(), TRN_R_16F, 1, ya.data(), TRN_R_16F, 1, TRN_R_16F),
            TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(trnblasAxpyEx(h, n, &alpha, TRN_R_32F, x.data(), TRN_R_32F, 1, ya.data(), TRN_R_32F, 1, TRN_R_64F),
            TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(ya, y0);
  r1 = 5;
  EXPECT_EQ(trnblasDotEx(h, n, x.data(), TRN_R_16BF, 1, y.data(), TRN_R_16BF, 1, &r1, TRN_R_32F, TRN_R_32F),
            TRNBLAS_STATUS_NOT_SUPPORTED);  // a 16-bit dot returns its result in the data's type
  EXPECT_EQ(trnblasNrm2Ex(h, n, tx, TRN_C_32F, 1, &r1, TRN_C_32F, TRN_R_32F), TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(r1, 5.0f);
  EXPECT_EQ(trnblasRotmEx(h, n, tx, TRN_C_32F, 1, ty, TRN_C_32F, 1, p, TRN_R_32F, TRN_R_32F), TRNBLAS_STATUS_NOT_SUPPORTED);

  // Positions in the Ex signatures.
  int last = 0;
  EXPECT_EQ(trnblasAxpyEx(h, n, nullptr, TRN_R_32F, x.data(), TRN_R_32F, 1, ya.data(), TRN_R_32F, 1, TRN_R_32F),
            TRNBLAS_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 2);
  EXPECT_EQ(trnblasAxpyEx(h, n, &alpha, TRN_R_32F, x.data(), TRN_R_32F, 1, nullptr, TRN_R_32F, 1, TRN_R_32F),
            TRNBLAS_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 7);
  EXPECT_EQ(trnblasDotEx(h, n, x.data(), TRN_R_32F, 1, y.data(), TRN_R_32F, 1, nullptr, TRN_R_32F, TRN_R_32F),
            TRNBLAS_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 8);
  EXPECT_EQ(trnblasRotEx(h, n, xa.data(), TRN_R_32F, 1, ya.data(), TRN_R_32F, 1, &c, nullptr, TRN_R_32F, TRN_R_32F),
            TRNBLAS_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 9);
  EXPECT_EQ(trnblasScalEx(h, n, &alpha, TRN_R_32F, nullptr, TRN_R_32F, 1, TRN_R_32F), TRNBLAS_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 4);
  EXPECT_EQ(trnblasRotmEx(h, n, xa.data(), TRN_R_32F, 1, ya.data(), TRN_R_32F, 1, nullptr, TRN_R_32F, TRN_R_32F),
            TRNBLAS_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 8);
}

// 16-bit data with fp32 execution (AxpyEx, DotEx, Nrm2Ex, ScalEx, RotEx with TRN_R_16F / TRN_R_16BF):
// the result must be the fp32 routine's on the widened data, rounded once to the 16-bit type (RNE).
// Reference rounding: the compiler's _Float16 conversion (RNE) and a bf16 RNE written out here.
std::uint16_t to_half(float f) {
  const _Float16 h = static_cast<_Float16>(f);
  std::uint16_t b = 0;
  std::memcpy(&b, &h, sizeof b);
  return b;
}
float from_half(std::uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, sizeof b);
  return static_cast<float>(h);
}
std::uint16_t to_bf16(float f) {  // round to nearest even on the upper 16 bits (no NaN in these tests)
  std::uint32_t u = 0;
  std::memcpy(&u, &f, sizeof u);
  return static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
float from_bf16(std::uint16_t b) {
  const std::uint32_t u = std::uint32_t{b} << 16;
  float f = 0;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

TEST(Level1Ex, SixteenBitDataRoundsTheFp32ResultOnce) {
  Handle h;
  for (trnDataType_t t : {TRN_R_16F, TRN_R_16BF}) {
    const auto down = [&](float f) { return t == TRN_R_16F ? to_half(f) : to_bf16(f); };
    const auto up = [&](std::uint16_t b) { return t == TRN_R_16F ? from_half(b) : from_bf16(b); };
    const int n = 300, inc = -2;
    const std::vector<float> xf = random_vec<float>(span_of(n, inc), 21), yf = random_vec<float>(span_of(n, inc), 22);
    std::vector<std::uint16_t> x(xf.size()), y(yf.size());
    std::vector<float> xw(xf.size()), yw(yf.size());  // the 16-bit values widened (exact)
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = down(xf[i]);
      xw[i] = up(x[i]);
    }
    for (std::size_t i = 0; i < y.size(); ++i) {
      y[i] = down(yf[i]);
      yw[i] = up(y[i]);
    }
    const float alpha = 0.6875f;
    {  // axpy
      std::vector<std::uint16_t> y16 = y;
      std::vector<float> yref = yw;
      ASSERT_EQ(trnblasAxpyEx(h, n, &alpha, TRN_R_32F, x.data(), t, inc, y16.data(), t, inc, TRN_R_32F), TRNBLAS_STATUS_SUCCESS);
      ASSERT_EQ(trnblasSaxpy(h, n, &alpha, xw.data(), inc, yref.data(), inc), TRNBLAS_STATUS_SUCCESS);
      for (std::size_t i = 0; i < y16.size(); ++i) ASSERT_EQ(y16[i], down(yref[i])) << "axpy " << t << " i=" << i;
    }
    {  // scal
      std::vector<std::uint16_t> x16 = x;
      std::vector<float> xref = xw;
      ASSERT_EQ(trnblasScalEx(h, n, &alpha, TRN_R_32F, x16.data(), t, 2, TRN_R_32F), TRNBLAS_STATUS_SUCCESS);
      ASSERT_EQ(trnblasSscal(h, n, &alpha, xref.data(), 2), TRNBLAS_STATUS_SUCCESS);
      for (std::size_t i = 0; i < x16.size(); ++i) ASSERT_EQ(x16[i], down(xref[i])) << "scal " << t << " i=" << i;
    }
    {  // dot and nrm2: results rounded once
      std::uint16_t r = 0;
      float rf = 0;
      ASSERT_EQ(trnblasDotEx(h, n, x.data(), t, inc, y.data(), t, 1, &r, t, TRN_R_32F), TRNBLAS_STATUS_SUCCESS);
      ASSERT_EQ(trnblasSdot(h, n, xw.data(), inc, yw.data(), 1, &rf), TRNBLAS_STATUS_SUCCESS);
      EXPECT_EQ(r, down(rf)) << "dot " << t;
      ASSERT_EQ(trnblasNrm2Ex(h, n, x.data(), t, 1, &r, t, TRN_R_32F), TRNBLAS_STATUS_SUCCESS);
      ASSERT_EQ(trnblasSnrm2(h, n, xw.data(), 1, &rf), TRNBLAS_STATUS_SUCCESS);
      EXPECT_EQ(r, down(rf)) << "nrm2 " << t;
      const std::vector<std::uint16_t> zeros(4, 0);
      r = 7;
      ASSERT_EQ(trnblasNrm2Ex(h, 4, zeros.data(), t, 1, &r, t, TRN_R_32F), TRNBLAS_STATUS_SUCCESS);
      EXPECT_EQ(r, 0);
    }
    {  // rot with 16-bit c, s
      const std::uint16_t c = down(0.6f), sn = down(0.8f);
      const float cf = up(c), sf = up(sn);
      std::vector<std::uint16_t> x16 = x, y16 = y;
      std::vector<float> xref = xw, yref = yw;
      ASSERT_EQ(trnblasRotEx(h, n, x16.data(), t, inc, y16.data(), t, inc, &c, &sn, t, TRN_R_32F), TRNBLAS_STATUS_SUCCESS);
      ASSERT_EQ(trnblasSrot(h, n, xref.data(), inc, yref.data(), inc, &cf, &sf), TRNBLAS_STATUS_SUCCESS);
      for (std::size_t i = 0; i < x16.size(); ++i) {
        ASSERT_EQ(x16[i], down(xref[i])) << "rot x " << t << " i=" << i;
        ASSERT_EQ(y16[i], down(yref[i])) << "rot y " << t << " i=" << i;
      }
    }
    // 16-bit data with a 16-bit execution type, or mixed 16-bit types: NOT_SUPPORTED, nothing written.
    std::vector<std::uint16_t> y16 = y;
    EXPECT_EQ(trnblasAxpyEx(h, n, &alpha, TRN_R_32F, x.data(), t, 1, y16.data(), t, 1, t), TRNBLAS_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(trnblasAxpyEx(h, n, &alpha, TRN_R_32F, x.data(), TRN_R_16F, 1, y16.data(), TRN_R_16BF, 1, TRN_R_32F),
              TRNBLAS_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(y16, y);
    int last = 0;
    EXPECT_EQ(trnblasDotEx(h, n, x.data(), t, 1, y.data(), t, 1, nullptr, t, TRN_R_32F), TRNBLAS_STATUS_INVALID_VALUE);
    ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
    EXPECT_EQ(last, 8);
  }
}

}  // namespace
