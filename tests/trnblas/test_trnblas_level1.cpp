// trnblas Level 1 (S and D) through the C API, against OpenBLAS's CBLAS and long-double loops.
//
// Bounds (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., §3.1):
//   * sums and dot products: every term passes through at most d = n + 2 roundings in any of the
//     accumulation orders used (docs/trnblas.md: free axis, chunk accumulator, partitions), so
//     |s - s_exact| <= gamma_d * sum |terms|, gamma_d = d u / (1 - d u). The Ozaki path (D) is
//     at least as accurate (exact slice products, fp64 reconstruction).
//   * nrm2: sqrt of a sum of squares bounded as above, plus the root's rounding:
//     relative error <= gamma_d / 2 + 2u (scaling by powers of two is exact).
//   * elementwise (axpy, scal, rot): two or three roundings per element: |e| <= gamma_3 * sum of
//     the magnitudes of the terms.
//   * copy, swap, i?amax: exact (compared bit for bit).
// OpenBLAS results carry errors within the same bounds, so ours and OpenBLAS's may differ by twice.
#include <cblas.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "blas_test_util.hpp"
#include "trn/blas/level12.hpp"

namespace {

using blastest::Handle;

template <class T>
constexpr long double unit_roundoff() {
  return std::numeric_limits<T>::epsilon() / 2;
}
template <class T>
long double gamma(long double d) {
  const long double u = unit_roundoff<T>();
  return d * u / (1 - d * u);
}

template <class T>
std::vector<T> random_vec(std::size_t n, std::uint64_t seed) {
  std::vector<float> f = blastest::uniform_f(n, seed);
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(f[i]) + static_cast<T>(f[(i * 7 + 3) % n]) * T(1e-4);
  return v;
}

// Storage for n elements at increment inc (|inc| (n - 1) + 1 elements).
std::size_t span_of(std::int64_t n, std::int64_t inc) {
  return n <= 0 ? 1 : static_cast<std::size_t>((n - 1) * (inc < 0 ? -inc : inc) + 1);
}
// Index in storage of logical element i (BLAS: inc < 0 walks backwards).
std::size_t idx(std::int64_t n, std::int64_t inc, std::int64_t i) {
  return static_cast<std::size_t>(inc >= 0 ? i * inc : (n - 1 - i) * -inc);
}

// ---- the C API and CBLAS for float and double -------------------------------------------------
trnblasStatus_t axpy(trnblasHandle_t h, int n, const float* a, const float* x, int ix, float* y, int iy) { return trnblasSaxpy(h, n, a, x, ix, y, iy); }
trnblasStatus_t axpy(trnblasHandle_t h, int n, const double* a, const double* x, int ix, double* y, int iy) { return trnblasDaxpy(h, n, a, x, ix, y, iy); }
trnblasStatus_t dot(trnblasHandle_t h, int n, const float* x, int ix, const float* y, int iy, float* r) { return trnblasSdot(h, n, x, ix, y, iy, r); }
trnblasStatus_t dot(trnblasHandle_t h, int n, const double* x, int ix, const double* y, int iy, double* r) { return trnblasDdot(h, n, x, ix, y, iy, r); }
trnblasStatus_t nrm2(trnblasHandle_t h, int n, const float* x, int ix, float* r) { return trnblasSnrm2(h, n, x, ix, r); }
trnblasStatus_t nrm2(trnblasHandle_t h, int n, const double* x, int ix, double* r) { return trnblasDnrm2(h, n, x, ix, r); }
trnblasStatus_t asum(trnblasHandle_t h, int n, const float* x, int ix, float* r) { return trnblasSasum(h, n, x, ix, r); }
trnblasStatus_t asum(trnblasHandle_t h, int n, const double* x, int ix, double* r) { return trnblasDasum(h, n, x, ix, r); }
trnblasStatus_t scal(trnblasHandle_t h, int n, const float* a, float* x, int ix) { return trnblasSscal(h, n, a, x, ix); }
trnblasStatus_t scal(trnblasHandle_t h, int n, const double* a, double* x, int ix) { return trnblasDscal(h, n, a, x, ix); }
trnblasStatus_t copy(trnblasHandle_t h, int n, const float* x, int ix, float* y, int iy) { return trnblasScopy(h, n, x, ix, y, iy); }
trnblasStatus_t copy(trnblasHandle_t h, int n, const double* x, int ix, double* y, int iy) { return trnblasDcopy(h, n, x, ix, y, iy); }
trnblasStatus_t swap(trnblasHandle_t h, int n, float* x, int ix, float* y, int iy) { return trnblasSswap(h, n, x, ix, y, iy); }
trnblasStatus_t swap(trnblasHandle_t h, int n, double* x, int ix, double* y, int iy) { return trnblasDswap(h, n, x, ix, y, iy); }
trnblasStatus_t rot(trnblasHandle_t h, int n, float* x, int ix, float* y, int iy, const float* c, const float* s) { return trnblasSrot(h, n, x, ix, y, iy, c, s); }
trnblasStatus_t rot(trnblasHandle_t h, int n, double* x, int ix, double* y, int iy, const double* c, const double* s) { return trnblasDrot(h, n, x, ix, y, iy, c, s); }
trnblasStatus_t iamax(trnblasHandle_t h, int n, const float* x, int ix, int* r) { return trnblasIsamax(h, n, x, ix, r); }
trnblasStatus_t iamax(trnblasHandle_t h, int n, const double* x, int ix, int* r) { return trnblasIdamax(h, n, x, ix, r); }
trnblasStatus_t iamin(trnblasHandle_t h, int n, const float* x, int ix, int* r) { return trnblasIsamin(h, n, x, ix, r); }
trnblasStatus_t iamin(trnblasHandle_t h, int n, const double* x, int ix, int* r) { return trnblasIdamin(h, n, x, ix, r); }

float ref_dot(int n, const float* x, int ix, const float* y, int iy) { return cblas_sdot(n, x, ix, y, iy); }
double ref_dot(int n, const double* x, int ix, const double* y, int iy) { return cblas_ddot(n, x, ix, y, iy); }
float ref_asum(int n, const float* x, int ix) { return cblas_sasum(n, x, ix); }
double ref_asum(int n, const double* x, int ix) { return cblas_dasum(n, x, ix); }
float ref_nrm2(int n, const float* x, int ix) { return cblas_snrm2(n, x, ix); }
double ref_nrm2(int n, const double* x, int ix) { return cblas_dnrm2(n, x, ix); }
void ref_axpy(int n, float a, const float* x, int ix, float* y, int iy) { cblas_saxpy(n, a, x, ix, y, iy); }
void ref_axpy(int n, double a, const double* x, int ix, double* y, int iy) { cblas_daxpy(n, a, x, ix, y, iy); }
void ref_rot(int n, float* x, int ix, float* y, int iy, float c, float s) { cblas_srot(n, x, ix, y, iy, c, s); }
void ref_rot(int n, double* x, int ix, double* y, int iy, double c, double s) { cblas_drot(n, x, ix, y, iy, c, s); }
int ref_iamax(int n, const float* x, int ix) { return static_cast<int>(cblas_isamax(n, x, ix)) + 1; }
int ref_iamax(int n, const double* x, int ix) { return static_cast<int>(cblas_idamax(n, x, ix)) + 1; }

template <class T>
class Level1 : public ::testing::Test {};
using Types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Level1, Types);

// Sizes: empty, one element, fewer than 128, not a multiple of 128 (tail piece), and more than one
// chunk of 128 x 2048 (for float; the D path has no chunks but runs the same sizes).
const std::int64_t kSizes[] = {1, 5, 130, 1031, 300007};
const std::pair<int, int> kIncs[] = {{1, 1}, {2, -3}, {-1, 2}};

TYPED_TEST(Level1, DotAsumNrm2WithinGammaBoundsOfLongDoubleAndOpenBlas) {
  using T = TypeParam;
  Handle h;
  for (std::int64_t n : kSizes)
    for (auto [ix, iy] : kIncs) {
      // The big size runs once, for float (it spans three VectorE chunks; the D path has no chunks
      // and its Ozaki dot of 300k terms is slow on the host).
      if (n > 2000 && (ix != 1 || sizeof(T) == 8)) continue;
      std::vector<T> x = random_vec<T>(span_of(n, ix), 11 + n), y = random_vec<T>(span_of(n, iy), 23 + n);
      const int ni = static_cast<int>(n);
      long double d_exact = 0, d_abs = 0, a_exact = 0, s_exact = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const long double xi = x[idx(n, ix, i)], yi = y[idx(n, iy, i)];
        d_exact += xi * yi;
        d_abs += std::fabs(xi * yi);
        a_exact += std::fabs(xi);
      }
      for (std::int64_t i = 0; i < n; ++i) s_exact += static_cast<long double>(x[idx(n, ix, i)]) * x[idx(n, ix, i)];
      const long double g = gamma<T>(static_cast<long double>(n + 2));
      T r = -1;
      ASSERT_EQ(dot(h, ni, x.data(), ix, y.data(), iy, &r), TRNBLAS_STATUS_SUCCESS);
      EXPECT_LE(std::fabs(r - d_exact), g * d_abs) << "dot n=" << n << " incx=" << ix << " incy=" << iy;
      EXPECT_LE(std::fabs(r - ref_dot(ni, x.data(), ix, y.data(), iy)), 2 * g * d_abs) << "dot vs OpenBLAS n=" << n;
      // asum and nrm2 take incx > 0 only (incx <= 0 is a quick return, tested below).
      const int ax = ix > 0 ? ix : -ix;
      if (ax != ix) continue;
      ASSERT_EQ(asum(h, ni, x.data(), ix, &r), TRNBLAS_STATUS_SUCCESS);
      EXPECT_LE(std::fabs(r - a_exact), g * a_exact) << "asum n=" << n;
      EXPECT_LE(std::fabs(r - ref_asum(ni, x.data(), ix)), 2 * g * a_exact) << "asum vs OpenBLAS n=" << n;
      ASSERT_EQ(nrm2(h, ni, x.data(), ix, &r), TRNBLAS_STATUS_SUCCESS);
      const long double nrm = std::sqrt(s_exact), rel = g / 2 + 2 * unit_roundoff<T>();
      EXPECT_LE(std::fabs(r - nrm), rel * nrm) << "nrm2 n=" << n;
      EXPECT_LE(std::fabs(r - ref_nrm2(ni, x.data(), ix)), 2 * rel * nrm) << "nrm2 vs OpenBLAS n=" << n;
    }
}

TYPED_TEST(Level1, Nrm2NeitherOverflowsNorUnderflows) {
  using T = TypeParam;
  Handle h;
  // Elements whose squares overflow (huge) or underflow (tiny) in T, and a mixture down to subnormals;
  // n = 300 (float: the two-pass chunked program) and 100 (float: the one-program path, n <= 128).
  const T huge = std::numeric_limits<T>::max() / 1024, tiny = std::numeric_limits<T>::min() * 4;
  for (const int n : {300, 100})
  for (T scale : {huge, tiny, std::numeric_limits<T>::denorm_min() * 1024}) {
    std::vector<T> x = random_vec<T>(n, 5);
    long double s = 0;
    for (T& v : x) {
      v *= scale;
      const long double q = static_cast<long double>(v) / scale;
      s += q * q;
    }
    const long double exact = std::sqrt(s) * scale;
    T r = 0;
    ASSERT_EQ(nrm2(h, n, x.data(), 1, &r), TRNBLAS_STATUS_SUCCESS);
    ASSERT_TRUE(std::isfinite(r) && r > 0) << "scale " << scale;
    // `exact` uses the stored (possibly subnormal) values. A subnormal result carries, besides the
    // relative bound, the absolute error of its final rounding into the subnormal range: half the
    // smallest subnormal.
    const long double abs_part = r < std::numeric_limits<T>::min() ? std::numeric_limits<T>::denorm_min() / 2.0L : 0.0L;
    EXPECT_LE(std::fabs(r - exact), (gamma<T>(n + 2) / 2 + 2 * unit_roundoff<T>()) * exact + abs_part)
        << "n " << n << " scale " << scale;
  }
  // Special values: Inf -> +Inf (also -Inf: float's one-program path caps the sum before ScalarE's
  // sqrt), NaN -> NaN, zero vector (of -0s too) -> +0; n = 10 and 300.
  for (const int n : {10, 300}) {
    std::vector<T> x(static_cast<std::size_t>(n), T(1));
    T r = 0;
    x[3] = -std::numeric_limits<T>::infinity();
    ASSERT_EQ(nrm2(h, n, x.data(), 1, &r), TRNBLAS_STATUS_SUCCESS);
    EXPECT_TRUE(std::isinf(r) && r > 0) << "n " << n;
    x[5] = std::numeric_limits<T>::quiet_NaN();
    ASSERT_EQ(nrm2(h, n, x.data(), 1, &r), TRNBLAS_STATUS_SUCCESS);
    EXPECT_TRUE(std::isnan(r)) << "n " << n;
    std::vector<T> z(static_cast<std::size_t>(n), T(-0.0));
    r = -1;
    ASSERT_EQ(nrm2(h, n, z.data(), 1, &r), TRNBLAS_STATUS_SUCCESS);
    EXPECT_EQ(r, T(0)) << "n " << n;
    EXPECT_FALSE(std::signbit(r)) << "n " << n;
  }
}

// Float nrm2 of n <= 128 elements is one program (issue #30): max |x_i|, the scale factors on
// GpSimdE, the scaled sum of squares, the root and the scaling back; reductions of n <= 128 run on
// one partition without the cross-partition transposes. The instruction counts say so.
TEST(Level1Float, ShortReductionsAreOneProgramOnOnePartition) {
  Handle h;
  std::vector<float> x(16), y(16);
  for (int i = 0; i < 16; ++i) x[static_cast<std::size_t>(i)] = 0.5f + static_cast<float>(i), y[static_cast<std::size_t>(i)] = 1.0f;
  float r = 0;
  trnProfile_t p{};
  ASSERT_EQ(trnblasSnrm2(h, 16, x.data(), 1, &r), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(p.instructions, 10u);  // dma, |x|, max, factors, scale, squares + sum, cap, sqrt, scale, dma
  EXPECT_EQ(p.instructions_per_engine[static_cast<int>(TRN_ENGINE_GPSIMD)], 1u);  // the factors
  EXPECT_EQ(p.instructions_per_engine[static_cast<int>(TRN_ENGINE_SCALAR)], 2u);  // squares + sum, sqrt
  float ref = 0;
  for (float v : x) ref += v * v;
  EXPECT_EQ(r, std::sqrt(ref));  // 16 small integers + 1/2: every square and sum is exact
  ASSERT_EQ(trnblasSdot(h, 16, x.data(), 1, y.data(), 1, &r), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  // two dmas, multiply, reduce, the combine with +0 (one tensor_scalar with the immediate first since
  // session 20: it replaced a memset and a tensor_tensor), dma
  EXPECT_EQ(p.instructions, 6u);
  EXPECT_EQ(r, 16.0f * 8.0f);
  // asum: dma, |x| and its sum in one ScalarE activation (session 20), dma.
  ASSERT_EQ(trnblasSasum(h, 16, x.data(), 1, &r), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(p.instructions, 3u);
  EXPECT_EQ(p.instructions_per_engine[static_cast<int>(TRN_ENGINE_SCALAR)], 1u);
  EXPECT_EQ(r, 16.0f * 8.0f);  // 0.5 + 1.5 + ... + 15.5: exact
}

TYPED_TEST(Level1, AxpyScalRotWithinBoundsCopySwapExact) {
  using T = TypeParam;
  Handle h;
  for (std::int64_t n : kSizes)
    for (auto [ix, iy] : kIncs) {
      if (n > 2000 && ix != 1) continue;
      const int ni = static_cast<int>(n);
      const std::vector<T> x0 = random_vec<T>(span_of(n, ix), 3 + n), y0 = random_vec<T>(span_of(n, iy), 4 + n);
      const T alpha = T(-0.75), c = T(0.6), s = T(0.8);
      const long double g3 = gamma<T>(3);
      // axpy
      std::vector<T> y = y0, yr = y0;
      ASSERT_EQ(axpy(h, ni, &alpha, x0.data(), ix, y.data(), iy), TRNBLAS_STATUS_SUCCESS);
      ref_axpy(ni, alpha, x0.data(), ix, yr.data(), iy);
      for (std::int64_t i = 0; i < n; ++i) {
        const std::size_t k = idx(n, iy, i);
        const long double xi = x0[idx(n, ix, i)], ex = alpha * xi + y0[k];
        const long double mag = std::fabs(alpha * xi) + std::fabs(static_cast<long double>(y0[k]));
        ASSERT_LE(std::fabs(y[k] - ex), g3 * mag) << "axpy n=" << n << " i=" << i;
        ASSERT_LE(std::fabs(y[k] - yr[k]), 2 * g3 * mag) << "axpy vs OpenBLAS";
      }
      // rot
      std::vector<T> xa = x0, ya = y0, xb = x0, yb = y0;
      ASSERT_EQ(rot(h, ni, xa.data(), ix, ya.data(), iy, &c, &s), TRNBLAS_STATUS_SUCCESS);
      ref_rot(ni, xb.data(), ix, yb.data(), iy, c, s);
      for (std::int64_t i = 0; i < n; ++i) {
        const std::size_t kx = idx(n, ix, i), ky = idx(n, iy, i);
        const long double xi = x0[kx], yi = y0[ky];
        const long double mag = std::fabs(c * xi) + std::fabs(s * yi) + std::fabs(c * yi) + std::fabs(s * xi);
        ASSERT_LE(std::fabs(xa[kx] - (c * xi + s * yi)), g3 * mag) << "rot x, n=" << n << " i=" << i;
        ASSERT_LE(std::fabs(ya[ky] - (c * yi - s * xi)), g3 * mag) << "rot y, n=" << n << " i=" << i;
        ASSERT_LE(std::fabs(xa[kx] - xb[kx]) + std::fabs(ya[ky] - yb[ky]), 2 * g3 * mag) << "rot vs OpenBLAS";
      }
      // copy and swap: exact, and elements between the strided ones untouched.
      std::vector<T> yc = y0;
      ASSERT_EQ(copy(h, ni, x0.data(), ix, yc.data(), iy), TRNBLAS_STATUS_SUCCESS);
      std::vector<T> want = y0;
      for (std::int64_t i = 0; i < n; ++i) want[idx(n, iy, i)] = x0[idx(n, ix, i)];
      ASSERT_EQ(std::memcmp(yc.data(), want.data(), want.size() * sizeof(T)), 0) << "copy n=" << n;
      std::vector<T> xs = x0, ys = y0;
      ASSERT_EQ(swap(h, ni, xs.data(), ix, ys.data(), iy), TRNBLAS_STATUS_SUCCESS);
      std::vector<T> wx = x0, wy = y0;
      for (std::int64_t i = 0; i < n; ++i) std::swap(wx[idx(n, ix, i)], wy[idx(n, iy, i)]);
      ASSERT_EQ(std::memcmp(xs.data(), wx.data(), wx.size() * sizeof(T)), 0) << "swap x";
      ASSERT_EQ(std::memcmp(ys.data(), wy.data(), wy.size() * sizeof(T)), 0) << "swap y";
      // scal (incx > 0): one rounding per element; untouched in between.
      if (ix > 0) {
        std::vector<T> xsc = x0;
        ASSERT_EQ(scal(h, ni, &alpha, xsc.data(), ix), TRNBLAS_STATUS_SUCCESS);
        for (std::size_t k = 0; k < xsc.size(); ++k) {
          const bool hit = k % static_cast<std::size_t>(ix) == 0;
          ASSERT_EQ(xsc[k], hit ? static_cast<T>(alpha * x0[k]) : x0[k]) << "scal k=" << k;
        }
      }
    }
}

TYPED_TEST(Level1, IamaxIaminMatchOpenBlasAndTheFirstIndexRule) {
  using T = TypeParam;
  Handle h;
  for (std::int64_t n : kSizes) {
    const int ni = static_cast<int>(n);
    for (int inc : {1, 3}) {
      std::vector<T> x = random_vec<T>(span_of(n, inc), 77 + n);
      int r = -1;
      ASSERT_EQ(iamax(h, ni, x.data(), inc, &r), TRNBLAS_STATUS_SUCCESS);
      EXPECT_EQ(r, ref_iamax(ni, x.data(), inc)) << "n=" << n;
      // Ties: the first index wins. Put the maximum magnitude (negated) at two places.
      if (n > 4) {
        x[idx(n, inc, n - 2)] = T(-7);
        x[idx(n, inc, 2)] = T(7);
        ASSERT_EQ(iamax(h, ni, x.data(), inc, &r), TRNBLAS_STATUS_SUCCESS);
        EXPECT_EQ(r, 3);
        x[idx(n, inc, 1)] = T(1e-9);
        x[idx(n, inc, n - 1)] = T(-1e-9);
        ASSERT_EQ(iamin(h, ni, x.data(), inc, &r), TRNBLAS_STATUS_SUCCESS);
        std::int64_t want = 0;  // plain loop: first index of the smallest |x_i|
        for (std::int64_t i = 1; i < n; ++i)
          if (std::fabs(x[idx(n, inc, i)]) < std::fabs(x[idx(n, inc, want)])) want = i;
        EXPECT_EQ(r, want + 1);
        // A NaN: its (first) index is returned.
        x[idx(n, inc, n - 1)] = std::numeric_limits<T>::quiet_NaN();
        x[idx(n, inc, n / 2)] = std::numeric_limits<T>::quiet_NaN();
        ASSERT_EQ(iamax(h, ni, x.data(), inc, &r), TRNBLAS_STATUS_SUCCESS);
        EXPECT_EQ(r, n / 2 + 1);
        ASSERT_EQ(iamin(h, ni, x.data(), inc, &r), TRNBLAS_STATUS_SUCCESS);
        EXPECT_EQ(r, n / 2 + 1);
      }
    }
  }
}

TYPED_TEST(Level1, QuickReturnsAndNanPropagation) {
  using T = TypeParam;
  Handle h;
  T r = 5;
  int ir = 5;
  // n <= 0: result 0, vectors not read (NULL is fine).
  EXPECT_EQ(dot(h, 0, static_cast<T*>(nullptr), 1, static_cast<T*>(nullptr), 1, &r), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(r, T(0));
  r = 5;
  EXPECT_EQ(nrm2(h, -3, static_cast<T*>(nullptr), 1, &r), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(r, T(0));
  EXPECT_EQ(iamax(h, 0, static_cast<T*>(nullptr), 1, &ir), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(ir, 0);
  // incx <= 0 for nrm2/asum/i?amax/scal: the reference BLAS's quick return.
  std::vector<T> x = random_vec<T>(8, 1);
  const std::vector<T> x0 = x;
  r = 5;
  EXPECT_EQ(asum(h, 8, x.data(), -1, &r), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(r, T(0));
  EXPECT_EQ(iamax(h, 8, x.data(), 0, &ir), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(ir, 0);
  const T two = 2;
  EXPECT_EQ(scal(h, 8, &two, x.data(), -1), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(x, x0);
  // scal by 0 keeps NaN (the reference BLAS multiplies); dot propagates NaN; incx = 0 reads x[0] n times.
  x[2] = std::numeric_limits<T>::quiet_NaN();
  const T zero = 0;
  ASSERT_EQ(scal(h, 8, &zero, x.data(), 1), TRNBLAS_STATUS_SUCCESS);
  EXPECT_TRUE(std::isnan(x[2]));
  EXPECT_EQ(x[3], T(0));
  std::vector<T> y = random_vec<T>(8, 2);
  y[6] = std::numeric_limits<T>::quiet_NaN();
  ASSERT_EQ(dot(h, 8, x0.data(), 1, y.data(), 1, &r), TRNBLAS_STATUS_SUCCESS);
  EXPECT_TRUE(std::isnan(r));
  const std::vector<T> ones(1, T(1));
  y[6] = T(1);
  ASSERT_EQ(dot(h, 8, ones.data(), 0, y.data(), 1, &r), TRNBLAS_STATUS_SUCCESS);
  long double s = 0;
  for (T v : y) s += v;
  long double mag = 0;
  for (T v : y) mag += std::fabs(v);
  EXPECT_LE(std::fabs(r - s), gamma<T>(10) * mag);
  // axpy with alpha = 0 does not touch y (quick return), even when x holds NaN.
  std::vector<T> yy = y;
  ASSERT_EQ(axpy(h, 8, &zero, x.data(), 1, yy.data(), 1), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(yy, y);
}

TYPED_TEST(Level1, InvalidArgumentsNameTheirPositionAndWriteNothing) {
  using T = TypeParam;
  Handle h;
  std::vector<T> x = random_vec<T>(8, 1), y = random_vec<T>(8, 2);
  const std::vector<T> x0 = x, y0 = y;
  const T alpha = 2, c = 1, s = 0;
  int last = -1;
  auto expect_pos = [&](trnblasStatus_t st, int pos) {
    EXPECT_EQ(st, TRNBLAS_STATUS_INVALID_VALUE);
    ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
    EXPECT_EQ(last, pos);
    EXPECT_EQ(x, x0);
    EXPECT_EQ(y, y0);
  };
  expect_pos(axpy(h, 8, static_cast<const T*>(nullptr), x.data(), 1, y.data(), 1), 2);
  expect_pos(axpy(h, 8, &alpha, nullptr, 1, y.data(), 1), 3);
  expect_pos(axpy(h, 8, &alpha, x.data(), 1, nullptr, 1), 5);
  expect_pos(copy(h, 8, nullptr, 1, y.data(), 1), 2);
  expect_pos(swap(h, 8, x.data(), 1, nullptr, 1), 4);
  expect_pos(rot(h, 8, x.data(), 1, y.data(), 1, &c, static_cast<const T*>(nullptr)), 7);
  expect_pos(rot(h, 8, x.data(), 1, y.data(), 1, static_cast<const T*>(nullptr), &s), 6);
  expect_pos(dot(h, 8, x.data(), 1, y.data(), 1, static_cast<T*>(nullptr)), 6);
  expect_pos(nrm2(h, 8, x.data(), 1, static_cast<T*>(nullptr)), 4);
  expect_pos(iamax(h, 8, x.data(), 1, nullptr), 4);
  expect_pos(scal(h, 8, static_cast<const T*>(nullptr), x.data(), 1), 2);
  T r = 7;
  // A NULL handle.
  EXPECT_EQ(dot(nullptr, 8, x.data(), 1, y.data(), 1, &r), TRNBLAS_STATUS_NOT_INITIALIZED);
}

TEST(Level1_64, LargeIncrementsAndThe64BitForms) {
  Handle h;
  std::vector<float> x = random_vec<float>(1000, 9), y = random_vec<float>(1000, 10);
  float r32 = 0, r64 = 0;
  ASSERT_EQ(trnblasSdot(h, 100, x.data(), 10, y.data(), -10, &r32), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSdot_64(h, 100, x.data(), 10, y.data(), -10, &r64), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(r32, r64);
  int64_t i64 = 0;
  ASSERT_EQ(trnblasIsamax_64(h, 1000, x.data(), 1, &i64), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(i64, static_cast<int64_t>(cblas_isamax(1000, x.data(), 1)) + 1);
  // An increment whose extent does not fit in 64-bit byte offsets is rejected at its position.
  EXPECT_EQ(trnblasSdot_64(h, 4, x.data(), INT64_MAX / 2, y.data(), 1, &r64), TRNBLAS_STATUS_INVALID_VALUE);
  int last = 0;
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 3);
  // The profile of an S call shows VectorE work and no TensorE work.
  ASSERT_EQ(trnblasSdot(h, 1000, x.data(), 1, y.data(), 1, &r32), TRNBLAS_STATUS_SUCCESS);
  trnProfile_t p{};
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_VECTOR], 0);
  EXPECT_EQ(p.instructions_per_engine[TRN_ENGINE_TENSOR], 0);
  EXPECT_GT(p.total_ns, 0.0);
  // D axpy runs on the host side: its profile has no instructions; D dot runs on an engine (n = 100:
  // Dot2 on GpSimdE; longer dots as slice pairs on TensorE).
  std::vector<double> xd(100, 1.0), yd(100, 2.0);
  const double a = 3;
  ASSERT_EQ(trnblasDaxpy(h, 100, &a, xd.data(), 1, yd.data(), 1), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(p.instructions, 0);
  double rd = 0;
  ASSERT_EQ(trnblasDdot(h, 100, xd.data(), 1, yd.data(), 1, &rd), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(rd, 500.0);
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_TENSOR] + p.instructions_per_engine[TRN_ENGINE_GPSIMD], 0);
}

}  // namespace

// ---- complex C and Z (and the mixed forms) ----------------------------------------------------
namespace {

using cf = std::complex<float>;
using cd = std::complex<double>;
trnFloatComplex* c(cf* p) { return reinterpret_cast<trnFloatComplex*>(p); }
const trnFloatComplex* c(const cf* p) { return reinterpret_cast<const trnFloatComplex*>(p); }
trnDoubleComplex* c(cd* p) { return reinterpret_cast<trnDoubleComplex*>(p); }
const trnDoubleComplex* c(const cd* p) { return reinterpret_cast<const trnDoubleComplex*>(p); }

trnblasStatus_t axpy(trnblasHandle_t h, int n, const cf* a, const cf* x, int ix, cf* y, int iy) { return trnblasCaxpy(h, n, c(a), c(x), ix, c(y), iy); }
trnblasStatus_t axpy(trnblasHandle_t h, int n, const cd* a, const cd* x, int ix, cd* y, int iy) { return trnblasZaxpy(h, n, c(a), c(x), ix, c(y), iy); }
trnblasStatus_t dotu(trnblasHandle_t h, int n, const cf* x, int ix, const cf* y, int iy, cf* r) { return trnblasCdotu(h, n, c(x), ix, c(y), iy, c(r)); }
trnblasStatus_t dotu(trnblasHandle_t h, int n, const cd* x, int ix, const cd* y, int iy, cd* r) { return trnblasZdotu(h, n, c(x), ix, c(y), iy, c(r)); }
trnblasStatus_t dotc(trnblasHandle_t h, int n, const cf* x, int ix, const cf* y, int iy, cf* r) { return trnblasCdotc(h, n, c(x), ix, c(y), iy, c(r)); }
trnblasStatus_t dotc(trnblasHandle_t h, int n, const cd* x, int ix, const cd* y, int iy, cd* r) { return trnblasZdotc(h, n, c(x), ix, c(y), iy, c(r)); }
trnblasStatus_t nrm2(trnblasHandle_t h, int n, const cf* x, int ix, float* r) { return trnblasScnrm2(h, n, c(x), ix, r); }
trnblasStatus_t nrm2(trnblasHandle_t h, int n, const cd* x, int ix, double* r) { return trnblasDznrm2(h, n, c(x), ix, r); }
trnblasStatus_t asum(trnblasHandle_t h, int n, const cf* x, int ix, float* r) { return trnblasScasum(h, n, c(x), ix, r); }
trnblasStatus_t asum(trnblasHandle_t h, int n, const cd* x, int ix, double* r) { return trnblasDzasum(h, n, c(x), ix, r); }
trnblasStatus_t scal(trnblasHandle_t h, int n, const cf* a, cf* x, int ix) { return trnblasCscal(h, n, c(a), c(x), ix); }
trnblasStatus_t scal(trnblasHandle_t h, int n, const cd* a, cd* x, int ix) { return trnblasZscal(h, n, c(a), c(x), ix); }
trnblasStatus_t rscal(trnblasHandle_t h, int n, const float* a, cf* x, int ix) { return trnblasCsscal(h, n, a, c(x), ix); }
trnblasStatus_t rscal(trnblasHandle_t h, int n, const double* a, cd* x, int ix) { return trnblasZdscal(h, n, a, c(x), ix); }
trnblasStatus_t copy(trnblasHandle_t h, int n, const cf* x, int ix, cf* y, int iy) { return trnblasCcopy(h, n, c(x), ix, c(y), iy); }
trnblasStatus_t copy(trnblasHandle_t h, int n, const cd* x, int ix, cd* y, int iy) { return trnblasZcopy(h, n, c(x), ix, c(y), iy); }
trnblasStatus_t swap(trnblasHandle_t h, int n, cf* x, int ix, cf* y, int iy) { return trnblasCswap(h, n, c(x), ix, c(y), iy); }
trnblasStatus_t swap(trnblasHandle_t h, int n, cd* x, int ix, cd* y, int iy) { return trnblasZswap(h, n, c(x), ix, c(y), iy); }
trnblasStatus_t rot(trnblasHandle_t h, int n, cf* x, int ix, cf* y, int iy, const float* cc, const float* s) { return trnblasCsrot(h, n, c(x), ix, c(y), iy, cc, s); }
trnblasStatus_t rot(trnblasHandle_t h, int n, cd* x, int ix, cd* y, int iy, const double* cc, const double* s) { return trnblasZdrot(h, n, c(x), ix, c(y), iy, cc, s); }
trnblasStatus_t iamax(trnblasHandle_t h, int n, const cf* x, int ix, int* r) { return trnblasIcamax(h, n, c(x), ix, r); }
trnblasStatus_t iamax(trnblasHandle_t h, int n, const cd* x, int ix, int* r) { return trnblasIzamax(h, n, c(x), ix, r); }
trnblasStatus_t iamin(trnblasHandle_t h, int n, const cf* x, int ix, int* r) { return trnblasIcamin(h, n, c(x), ix, r); }
trnblasStatus_t iamin(trnblasHandle_t h, int n, const cd* x, int ix, int* r) { return trnblasIzamin(h, n, c(x), ix, r); }

// OpenBLAS's complex dot kernels (cdotu_k / zdotu_k, Haswell and SkylakeX, Debian 12's 0.3.21) read
// one stride beyond the elements they use when an increment is negative: harmless inside glibc's
// heap, a SEGV under ThreadSanitizer's allocator, where a buffer can begin a mapping (found by the
// first full TSan run). The oracle is therefore handed copies with padding on both sides.
template <class C>
struct PaddedCopy {
  std::vector<C> storage;
  const C* data;
  PaddedCopy(int n, const C* x, int inc) {
    const std::size_t pad = 4 * static_cast<std::size_t>(std::abs(inc)) + 4, len = span_of(n, inc);
    storage.assign(len + 2 * pad, C(0));
    std::copy(x, x + len, storage.begin() + static_cast<std::ptrdiff_t>(pad));
    data = storage.data() + pad;
  }
};
// f: one of OpenBLAS's cblas_?dot?_sub, called on padded copies.
template <class C, class F>
C padded_dot(F f, int n, const C* x, int ix, const C* y, int iy) {
  C r;
  f(n, PaddedCopy(n, x, ix).data, ix, PaddedCopy(n, y, iy).data, iy, &r);
  return r;
}
cf ref_dotu(int n, const cf* x, int ix, const cf* y, int iy) { return padded_dot(cblas_cdotu_sub, n, x, ix, y, iy); }
cd ref_dotu(int n, const cd* x, int ix, const cd* y, int iy) { return padded_dot(cblas_zdotu_sub, n, x, ix, y, iy); }
cf ref_dotc(int n, const cf* x, int ix, const cf* y, int iy) { return padded_dot(cblas_cdotc_sub, n, x, ix, y, iy); }
cd ref_dotc(int n, const cd* x, int ix, const cd* y, int iy) { return padded_dot(cblas_zdotc_sub, n, x, ix, y, iy); }
float ref_nrm2(int n, const cf* x, int ix) { return cblas_scnrm2(n, x, ix); }
double ref_nrm2(int n, const cd* x, int ix) { return cblas_dznrm2(n, x, ix); }
double ref_asum(int n, const cd* x, int ix) { return cblas_dzasum(n, x, ix); }
void ref_axpy(int n, const cf& a, const cf* x, int ix, cf* y, int iy) { cblas_caxpy(n, &a, x, ix, y, iy); }
void ref_axpy(int n, const cd& a, const cd* x, int ix, cd* y, int iy) { cblas_zaxpy(n, &a, x, ix, y, iy); }
int ref_iamax(int n, const cf* x, int ix) { return static_cast<int>(cblas_icamax(n, x, ix)) + 1; }
int ref_iamax(int n, const cd* x, int ix) { return static_cast<int>(cblas_izamax(n, x, ix)) + 1; }

template <class C>
std::vector<C> random_cvec(std::size_t n, std::uint64_t seed) {
  using R = typename C::value_type;
  const std::vector<R> re = random_vec<R>(n, seed), im = random_vec<R>(n, seed + 1000);
  std::vector<C> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = C(re[i], im[i]);
  return v;
}

template <class C>
class Level1Complex : public ::testing::Test {};
using ComplexTypes = ::testing::Types<cf, cd>;
TYPED_TEST_SUITE(Level1Complex, ComplexTypes);

TYPED_TEST(Level1Complex, DotuDotcNrm2AsumWithinBounds) {
  using C = TypeParam;
  using R = typename C::value_type;
  Handle h;
  for (std::int64_t n : {1, 5, 130, 1031})
    for (auto [ix, iy] : kIncs) {
      const int ni = static_cast<int>(n);
      const std::vector<C> x = random_cvec<C>(span_of(n, ix), 31 + n), y = random_cvec<C>(span_of(n, iy), 41 + n);
      // re/im of sum x_i y_i (conj: conj(x_i) y_i) in long double, and the magnitude sum of the products.
      long double ur = 0, ui = 0, cr = 0, ci = 0, mag = 0, a_exact = 0, s_exact = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const C a = x[idx(n, ix, i)], b = y[idx(n, iy, i)];
        const long double ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
        ur += ar * br - ai * bi;
        ui += ar * bi + ai * br;
        cr += ar * br + ai * bi;
        ci += ar * bi - ai * br;
        mag += std::fabs(ar * br) + std::fabs(ai * bi) + std::fabs(ar * bi) + std::fabs(ai * br);
        a_exact += std::fabs(ar) + std::fabs(ai);
        s_exact += ar * ar + ai * ai;
      }
      // Each of re/im: n terms of two products and one add, summed: depth <= n + 3.
      const long double g = gamma<R>(static_cast<long double>(n + 3));
      C r;
      ASSERT_EQ(dotu(h, ni, x.data(), ix, y.data(), iy, &r), TRNBLAS_STATUS_SUCCESS);
      EXPECT_LE(std::fabs(r.real() - ur) + std::fabs(r.imag() - ui), g * mag) << "dotu n=" << n;
      const C ru = ref_dotu(ni, x.data(), ix, y.data(), iy);
      EXPECT_LE(std::fabs(r.real() - ru.real()) + std::fabs(r.imag() - ru.imag()), 2 * g * mag) << "dotu vs OpenBLAS";
      ASSERT_EQ(dotc(h, ni, x.data(), ix, y.data(), iy, &r), TRNBLAS_STATUS_SUCCESS);
      EXPECT_LE(std::fabs(r.real() - cr) + std::fabs(r.imag() - ci), g * mag) << "dotc n=" << n;
      const C rc = ref_dotc(ni, x.data(), ix, y.data(), iy);
      EXPECT_LE(std::fabs(r.real() - rc.real()) + std::fabs(r.imag() - rc.imag()), 2 * g * mag) << "dotc vs OpenBLAS";
      if (ix < 0) continue;
      R rr = 0;
      const long double g2 = gamma<R>(static_cast<long double>(2 * n + 2));
      ASSERT_EQ(asum(h, ni, x.data(), ix, &rr), TRNBLAS_STATUS_SUCCESS);
      EXPECT_LE(std::fabs(rr - a_exact), g2 * a_exact) << "asum n=" << n;
      // No OpenBLAS cross-check for scasum: Debian's OpenBLAS 0.3.21 returns wrong sums with its
      // SkylakeX kernels (n = 14, unit stride: 49.6 against 48.8), so the long-double sum above is the
      // reference; dzasum is compared.
      if constexpr (std::is_same_v<R, double>) {
        EXPECT_LE(std::fabs(rr - ref_asum(ni, x.data(), ix)), 2 * g2 * a_exact);
      }
      ASSERT_EQ(nrm2(h, ni, x.data(), ix, &rr), TRNBLAS_STATUS_SUCCESS);
      const long double nrm = std::sqrt(s_exact), rel = g2 / 2 + 2 * std::numeric_limits<R>::epsilon() / 2;
      EXPECT_LE(std::fabs(rr - nrm), rel * nrm) << "nrm2 n=" << n;
      EXPECT_LE(std::fabs(rr - ref_nrm2(ni, x.data(), ix)), 2 * rel * nrm);
    }
}

TYPED_TEST(Level1Complex, AxpyScalRotCopySwapIamax) {
  using C = TypeParam;
  using R = typename C::value_type;
  Handle h;
  for (std::int64_t n : {1, 130, 1031})
    for (auto [ix, iy] : kIncs) {
      const int ni = static_cast<int>(n);
      const std::vector<C> x0 = random_cvec<C>(span_of(n, ix), 51 + n), y0 = random_cvec<C>(span_of(n, iy), 61 + n);
      const C alpha(R(0.75), R(-1.25));
      const long double g4 = gamma<R>(4);
      std::vector<C> y = y0, yr = y0;
      ASSERT_EQ(axpy(h, ni, &alpha, x0.data(), ix, y.data(), iy), TRNBLAS_STATUS_SUCCESS);
      ref_axpy(ni, alpha, x0.data(), ix, yr.data(), iy);
      for (std::int64_t i = 0; i < n; ++i) {
        const C a = x0[idx(n, ix, i)], b = y0[idx(n, iy, i)], got = y[idx(n, iy, i)];
        const long double er = static_cast<long double>(alpha.real()) * a.real() - static_cast<long double>(alpha.imag()) * a.imag() + b.real();
        const long double ei = static_cast<long double>(alpha.real()) * a.imag() + static_cast<long double>(alpha.imag()) * a.real() + b.imag();
        const long double mag = std::fabs(alpha.real()) * (std::fabs(a.real()) + std::fabs(a.imag())) +
                                std::fabs(alpha.imag()) * (std::fabs(a.real()) + std::fabs(a.imag())) + std::abs(b.real()) + std::abs(b.imag());
        ASSERT_LE(std::fabs(got.real() - er) + std::fabs(got.imag() - ei), g4 * mag) << "axpy i=" << i;
        const C o = yr[idx(n, iy, i)];
        ASSERT_LE(std::fabs(got.real() - o.real()) + std::fabs(got.imag() - o.imag()), 2 * g4 * mag) << "axpy vs OpenBLAS";
      }
      // scal (complex and real alpha), incx > 0 only.
      if (ix > 0) {
        std::vector<C> xs = x0, xr = x0;
        ASSERT_EQ(scal(h, ni, &alpha, xs.data(), ix), TRNBLAS_STATUS_SUCCESS);
        const R ra = R(-0.5);
        ASSERT_EQ(rscal(h, ni, &ra, xr.data(), ix), TRNBLAS_STATUS_SUCCESS);
        for (std::int64_t i = 0; i < n; ++i) {
          const C a = x0[idx(n, ix, i)], got = xs[idx(n, ix, i)];
          const long double er = static_cast<long double>(alpha.real()) * a.real() - static_cast<long double>(alpha.imag()) * a.imag();
          const long double ei = static_cast<long double>(alpha.real()) * a.imag() + static_cast<long double>(alpha.imag()) * a.real();
          const long double mag = (std::fabs(alpha.real()) + std::fabs(alpha.imag())) * (std::fabs(a.real()) + std::fabs(a.imag()));
          ASSERT_LE(std::fabs(got.real() - er) + std::fabs(got.imag() - ei), gamma<R>(2) * mag) << "scal i=" << i;
          ASSERT_EQ(xr[idx(n, ix, i)], C(ra * a.real(), ra * a.imag())) << "real scal i=" << i;  // one exact-rounded product each
        }
      }
      // rot with real c, s: each part as the real rot.
      std::vector<C> xa = x0, ya = y0;
      const R cc = R(0.6), ss = R(0.8);
      ASSERT_EQ(rot(h, ni, xa.data(), ix, ya.data(), iy, &cc, &ss), TRNBLAS_STATUS_SUCCESS);
      for (std::int64_t i = 0; i < n; ++i) {
        const C a = x0[idx(n, ix, i)], b = y0[idx(n, iy, i)];
        const C wx(static_cast<R>(cc * a.real()) + static_cast<R>(ss * b.real()), static_cast<R>(cc * a.imag()) + static_cast<R>(ss * b.imag()));
        const C wy(static_cast<R>(cc * b.real()) - static_cast<R>(ss * a.real()), static_cast<R>(cc * b.imag()) - static_cast<R>(ss * a.imag()));
        ASSERT_EQ(xa[idx(n, ix, i)], wx) << "rot x i=" << i;  // same roundings as the reference loop
        ASSERT_EQ(ya[idx(n, iy, i)], wy) << "rot y i=" << i;
      }
      // copy and swap: exact, untouched in between.
      std::vector<C> yc = y0, want = y0;
      ASSERT_EQ(copy(h, ni, x0.data(), ix, yc.data(), iy), TRNBLAS_STATUS_SUCCESS);
      for (std::int64_t i = 0; i < n; ++i) want[idx(n, iy, i)] = x0[idx(n, ix, i)];
      ASSERT_EQ(yc, want);
      std::vector<C> xs = x0, ys = y0, wx = x0, wy = y0;
      ASSERT_EQ(swap(h, ni, xs.data(), ix, ys.data(), iy), TRNBLAS_STATUS_SUCCESS);
      for (std::int64_t i = 0; i < n; ++i) std::swap(wx[idx(n, ix, i)], wy[idx(n, iy, i)]);
      ASSERT_EQ(xs, wx);
      ASSERT_EQ(ys, wy);
      // i?amax / i?amin by |re| + |im|.
      if (ix > 0) {
        int r = -1;
        ASSERT_EQ(iamax(h, ni, x0.data(), ix, &r), TRNBLAS_STATUS_SUCCESS);
        EXPECT_EQ(r, ref_iamax(ni, x0.data(), ix)) << "n=" << n;
        ASSERT_EQ(iamin(h, ni, x0.data(), ix, &r), TRNBLAS_STATUS_SUCCESS);
        std::int64_t best = 0;
        auto abs1 = [&](std::int64_t i) {
          const C v = x0[idx(n, ix, i)];
          return static_cast<R>(std::fabs(v.real()) + std::fabs(v.imag()));
        };
        for (std::int64_t i = 1; i < n; ++i)
          if (abs1(i) < abs1(best)) best = i;
        EXPECT_EQ(r, best + 1);
      }
    }
}

TYPED_TEST(Level1Complex, ArgumentErrorsAndQuickReturns) {
  using C = TypeParam;
  using R = typename C::value_type;
  Handle h;
  std::vector<C> x = random_cvec<C>(4, 1), y = random_cvec<C>(4, 2);
  const std::vector<C> x0 = x, y0 = y;
  C r(7, 7);
  int last = 0;
  EXPECT_EQ(dotc(h, 4, x.data(), 1, y.data(), 1, static_cast<C*>(nullptr)), TRNBLAS_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 6);
  const C a(1, 1);
  EXPECT_EQ(axpy(h, 4, static_cast<const C*>(nullptr), x.data(), 1, y.data(), 0), TRNBLAS_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 2);
  EXPECT_EQ(axpy(h, 4, &a, static_cast<const C*>(nullptr), 1, y.data(), 0), TRNBLAS_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 3);
  const R one = 1;
  EXPECT_EQ(rot(h, 4, x.data(), 1, y.data(), 1, &one, static_cast<const R*>(nullptr)), TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(x, x0);
  EXPECT_EQ(y, y0);
  ASSERT_EQ(dotu(h, 0, static_cast<C*>(nullptr), 1, static_cast<C*>(nullptr), 1, &r), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(r, C(0, 0));
}

}  // namespace

// ---- netlib's zero increments (found by xblat1s/xblat1c through the BLAS ABI shim) --------------
// The reference BLAS (and cuBLAS, which documents no error for it) accepts incy = 0 for a written
// vector: COPY with incy = 0 writes every x_i to y(1) in turn,
// so y(1) ends up holding the last element of x in walk order. The S/C copy used to hand a
// zero-stride destination to the DMA, which the emulator rejects (exception, y untouched).
// Reference: netlib's loop, written out.
#include "trn/blas/level12.hpp"

namespace {

template <class T>
void netlib_copy(int n, const T* x, int incx, T* y, int incy) {
  int ix = incx < 0 ? (1 - n) * incx : 0, iy = incy < 0 ? (1 - n) * incy : 0;
  for (int i = 0; i < n; ++i, ix += incx, iy += incy) y[iy] = x[ix];
}

template <class T>
class Level1NetlibCopy : public ::testing::Test {};
using NetlibCopyTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Level1NetlibCopy, NetlibCopyTypes);

TYPED_TEST(Level1NetlibCopy, ZeroDestinationIncrementLeavesTheLastElement) {
  using T = TypeParam;
  const trn::blas::Settings s;
  for (int n : {1, 2, 4, 300})
    for (int incx : {0, 1, -1, 2, -3}) {
      std::vector<T> x(span_of(n, incx)), y(3, T(43)), ref = y;
      for (std::size_t i = 0; i < x.size(); ++i) x[i] = T(static_cast<float>(i) + 100.0f);  // never 43
      trn::blas::copy(s, n, x.data(), incx, y.data(), 0);
      netlib_copy(n, x.data(), incx, ref.data(), 0);
      ASSERT_EQ(y, ref) << "n=" << n << " incx=" << incx;
      ASSERT_NE(y[0], T(43)) << "y(1) was not written";
    }
}

// The special inputs of the short Level 1 tests (signed zeros, infinities, NaN, subnormals, extremes)
// and their comparison: bit for bit, or NaN where NaN is wanted.
constexpr float kShortSpecials[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                                    -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                                    0x1p-149f, -0x1p-140f, 0x1p-80f, -0x1p100f, 1.0f, -1.5f};
bool same_bits_or_nan(float got, float want) {
  if (std::isnan(want)) return std::isnan(got);
  return std::memcmp(&got, &want, 4) == 0;
}

// saxpy, srot and srotm of n <= 12 (the [n, 1] column layout up to 4, the [1, n] row beyond: level1.cpp,
// kColumnLayoutMaxN) bit for bit against the reference loops' roundings: y = fl(fl(alpha x) + y);
// rot x' = fl(fl(c x) + fl(s y)), y' = fl(fl(-s x) + fl(c y)); rotm with H from its flag. Special values
// (signed zeros, Inf, NaN, subnormals) in x and y, positive and negative increments. NaN results are
// compared as NaN.
TEST(Level1Short, AxpyRotRotmBitsWithSpecialValues) {
  Handle h;
  const auto& specials = kShortSpecials;
  const auto same = same_bits_or_nan;
  for (int n = 1; n <= 12; ++n) {
    for (const auto& [ix, iy] : {std::pair{1, 1}, std::pair{3, -2}, std::pair{-1, 64}}) {
      std::vector<float> x0 = blastest::uniform_f(span_of(n, ix), 71 + static_cast<std::uint64_t>(n));
      std::vector<float> y0 = blastest::uniform_f(span_of(n, iy), 73 + static_cast<std::uint64_t>(n));
      for (std::size_t i = 0; i < x0.size(); i += 2) x0[i] = specials[(i / 2 + static_cast<std::size_t>(n)) % std::size(specials)];
      for (std::size_t i = 1; i < y0.size(); i += 3) y0[i] = specials[(i / 3 + 5) % std::size(specials)];
      const float alpha = -0.3f, c = 0.6f, sn = -0.8f;
      std::vector<float> y = y0;
      ASSERT_EQ(trnblasSaxpy(h, n, &alpha, x0.data(), ix, y.data(), iy), TRNBLAS_STATUS_SUCCESS);
      for (int i = 0; i < n; ++i) {
        volatile float p = alpha * x0[idx(n, ix, i)];
        volatile float want = p + y0[idx(n, iy, i)];
        ASSERT_TRUE(same(y[idx(n, iy, i)], want)) << "axpy n=" << n << " i=" << i;
      }
      const float flags[] = {-1.0f, 0.0f, 1.0f};
      for (int variant = 0; variant < 4; ++variant) {
        std::vector<float> x = x0;
        y = y0;
        std::array<float, 4> hm{c, sn, -sn, c};  // h11, h12, h21, h22
        if (variant == 0) {
          ASSERT_EQ(trnblasSrot(h, n, x.data(), ix, y.data(), iy, &c, &sn), TRNBLAS_STATUS_SUCCESS);
        } else {
          const float param[5] = {flags[variant - 1], 0.5f, -0.25f, 2.0f, -3.0f};  // flag, h11, h21, h12, h22
          ASSERT_EQ(trnblasSrotm(h, n, x.data(), ix, y.data(), iy, param), TRNBLAS_STATUS_SUCCESS);
          if (param[0] == 0.0f) hm = {1.0f, param[3], param[2], 1.0f};
          else if (param[0] == 1.0f) hm = {param[1], 1.0f, -1.0f, param[4]};
          else hm = {param[1], param[3], param[2], param[4]};
        }
        for (int i = 0; i < n; ++i) {
          const float xi = x0[idx(n, ix, i)], yi = y0[idx(n, iy, i)];
          volatile float a = hm[0] * xi, b = hm[1] * yi, d = hm[2] * xi, e = hm[3] * yi;
          volatile float wx = a + b, wy = d + e;
          ASSERT_TRUE(same(x[idx(n, ix, i)], wx)) << "variant " << variant << " n=" << n << " i=" << i;
          ASSERT_TRUE(same(y[idx(n, iy, i)], wy)) << "variant " << variant << " n=" << n << " i=" << i;
        }
      }
    }
  }
}

// dswap/dcopy, cswap/ccopy and zswap/zcopy of n <= pmax elements (one program on the elements'
// 32-bit words, level1.cpp move_as_words) with x and y in one array, NaN payloads and -0 among the
// words, every distance between them: the bytes of the reference order (every element read, then
// x written, then y), overlapping or not. (Beyond pmax the general path moves overlapping vectors
// chunk by chunk.)
template <class T>
void check_swap_copy_as_words() {
  Handle h;
  constexpr std::size_t W = sizeof(T) / 4;
  for (int n : {1, 2, 4, 9, 128})
    for (int inc : {1, 2, -3})
      for (int dist : {1, -1, 2, 5, -7, 300}) {
        const std::size_t base = 400, len = span_of(n, inc) + 2 * base + 400;
        std::vector<std::uint32_t> w(len * W);
        for (std::size_t i = 0; i < w.size(); ++i)
          w[i] = i % 13 == 0 ? 0x7f800123u + static_cast<std::uint32_t>(i)  // signalling-NaN payloads
                 : i % 11 == 0 ? 0x80000000u                              // -0
                               : 0x3f000000u + static_cast<std::uint32_t>(i * 2654435761u >> 9);
        std::vector<T> a0(len);
        std::memcpy(static_cast<void*>(a0.data()), w.data(), w.size() * 4);
        const std::size_t xo = base, yo = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(base) + dist);
        const auto at = [&](std::size_t o, int i) { return o + idx(n, inc, i); };
        std::vector<T> a = a0, want = a0;
        for (int i = 0; i < n; ++i) want[at(xo, i)] = a0[at(yo, i)];
        for (int i = 0; i < n; ++i) want[at(yo, i)] = a0[at(xo, i)];
        ASSERT_EQ(swap(h, n, a.data() + xo, inc, a.data() + yo, inc), TRNBLAS_STATUS_SUCCESS);
        ASSERT_EQ(std::memcmp(static_cast<const void*>(a.data()), want.data(), a.size() * sizeof(T)), 0)
            << "swap W=" << W << " n=" << n << " inc=" << inc << " dist=" << dist;
        a = a0;
        want = a0;
        for (int i = 0; i < n; ++i) want[at(yo, i)] = a0[at(xo, i)];
        ASSERT_EQ(copy(h, n, a.data() + xo, inc, a.data() + yo, inc), TRNBLAS_STATUS_SUCCESS);
        ASSERT_EQ(std::memcmp(static_cast<const void*>(a.data()), want.data(), a.size() * sizeof(T)), 0)
            << "copy W=" << W << " n=" << n << " inc=" << inc << " dist=" << dist;
      }
}
TEST(Level1Short, SwapCopyAsWordsBitsAndOverlap) {
  check_swap_copy_as_words<double>();
  check_swap_copy_as_words<cf>();
  check_swap_copy_as_words<cd>();
}

// Short rot, axpy and swap calls whose x and y lie in ONE array with the same increment (LAPACK's
// slarot: neighbouring band elements), at every distance between them, positive and negative:
// bit for bit against the reference loops' roundings (as above), special values included; where the
// two vectors overlap, the general path's order (every element read, then all of x written, then
// all of y). (Loading such a pair with one DMA was tried and dropped: its access pattern's step is
// the distance between x and y, so for two separate arrays the trace and modeled time would depend
// on where malloc put them: WarmCalls.SameCallTwiceAndInterleavedShapesMatchACold caught it.)
TEST(Level1Short, VectorsInOneArrayBitsAndOverlap) {
  Handle h;
  const auto& specials = kShortSpecials;
  const auto same = same_bits_or_nan;
  const float alpha = -0.3f, c = 0.6f, sn = -0.8f;
  const std::array<float, 4> hm{c, sn, -sn, c};
  for (int n = 1; n <= 5; ++n)
    for (int inc : {1, 2, -3, 7})
      for (int dist : {1, -1, 2, -5, 3, 40, -41, 200}) {
        const std::size_t span = span_of(n, inc), base = 256;
        std::vector<float> a0 = blastest::uniform_f(span + 2 * base, 91 + static_cast<std::uint64_t>(n * 7 + dist));
        for (std::size_t i = 0; i < a0.size(); i += 3) a0[i] = specials[(i / 3 + static_cast<std::size_t>(n)) % std::size(specials)];
        const std::size_t xo = base, yo = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(base) + dist);
        auto X = [&](std::vector<float>& v, int i) -> float& { return v[xo + idx(n, inc, i)]; };
        auto Y = [&](std::vector<float>& v, int i) -> float& { return v[yo + idx(n, inc, i)]; };
        const std::string where = "n=" + std::to_string(n) + " inc=" + std::to_string(inc) + " dist=" + std::to_string(dist);
        // rot: every element read, then x written, then y (the general path's order).
        std::vector<float> a = a0, want = a0, xs(static_cast<std::size_t>(n)), ys(xs.size());
        for (int i = 0; i < n; ++i) {
          const float xi = X(want, i), yi = Y(want, i);
          volatile float p = hm[0] * xi, q = hm[1] * yi, r = hm[2] * xi, t = hm[3] * yi;
          xs[static_cast<std::size_t>(i)] = p + q;
          ys[static_cast<std::size_t>(i)] = r + t;
        }
        for (int i = 0; i < n; ++i) X(want, i) = xs[static_cast<std::size_t>(i)];
        for (int i = 0; i < n; ++i) Y(want, i) = ys[static_cast<std::size_t>(i)];
        ASSERT_EQ(trnblasSrot(h, n, a.data() + xo, inc, a.data() + yo, inc, &c, &sn), TRNBLAS_STATUS_SUCCESS);
        for (std::size_t i = 0; i < a.size(); ++i) ASSERT_TRUE(same(a[i], want[i])) << "rot " << where << " at " << i;
        // axpy: y = fl(fl(alpha x) + y), x read first.
        a = a0;
        want = a0;
        for (int i = 0; i < n; ++i) {
          volatile float p = alpha * X(a0, i);
          ys[static_cast<std::size_t>(i)] = p + Y(a0, i);
        }
        for (int i = 0; i < n; ++i) Y(want, i) = ys[static_cast<std::size_t>(i)];
        ASSERT_EQ(trnblasSaxpy(h, n, &alpha, a.data() + xo, inc, a.data() + yo, inc), TRNBLAS_STATUS_SUCCESS);
        for (std::size_t i = 0; i < a.size(); ++i) ASSERT_TRUE(same(a[i], want[i])) << "axpy " << where << " at " << i;
        // swap (bit copies; where the vectors overlap: all read, x written, then y).
        a = a0;
        want = a0;
        for (int i = 0; i < n; ++i) X(want, i) = Y(a0, i);
        for (int i = 0; i < n; ++i) Y(want, i) = X(a0, i);
        ASSERT_EQ(trnblasSswap(h, n, a.data() + xo, inc, a.data() + yo, inc), TRNBLAS_STATUS_SUCCESS);
        ASSERT_EQ(std::memcmp(a.data(), want.data(), a.size() * 4), 0) << "swap " << where;
      }
}

// i?amax / i?amin (float) of n <= pmax: one GpSimdE custom operator between two DMAs (level1.cpp,
// short_index_of_extreme, session 23) against an independent reference loop in long double (the
// first NaN, else the first strictly larger / smaller |x_i|), for every n = 1 .. pmax and beyond it
// (the two-pass path), increments 1 and 3, special values (signed zeros, infinities, NaN payloads of
// both signs, subnormals, ties of +-v), under 1 and 2 host threads and 1 and 2 emulated cores: the
// same index everywhere, and for n <= pmax exactly three instructions with one custom_op.
TEST(Level1Short, IamaxIaminOneGpSimdOperatorMatchesTheReferenceLoop) {
  namespace tb = trn::blas;
  const auto reference = [](std::int64_t n, const float* x, std::int64_t inc, bool largest) {
    std::int64_t best = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const long double a = std::fabs(static_cast<long double>(x[i * inc]));
      if (std::isnan(a)) return i + 1;
      const long double b = std::fabs(static_cast<long double>(x[best * inc]));
      if (largest ? a > b : a < b) best = i;
    }
    return best + 1;
  };
  const float nan_neg = -std::numeric_limits<float>::quiet_NaN();
  float payload = 0.0f;
  const std::uint32_t payload_bits = 0x7fa00001u;  // a signalling NaN with a payload
  std::memcpy(&payload, &payload_bits, 4);
  int calls = 0;
  for (int threads : {1, 2})
    for (int cores : {1, 2}) {
      tb::Settings s;
      s.host_threads = threads;
      s.num_cores = cores;
      for (std::int64_t n : {1, 2, 3, 4, 5, 7, 8, 10, 16, 31, 64, 100, 127, 128, 129, 200}) {
        for (std::int64_t inc : {1, 3}) {
          for (int variant = 0; variant < 6; ++variant) {
            std::vector<float> x = blastest::uniform_f(span_of(n, inc), 91 + static_cast<std::uint64_t>(n) + 7u * static_cast<std::uint64_t>(variant));
            const auto at = [&](std::int64_t i) -> float& { return x[static_cast<std::size_t>(i * inc)]; };
            if (variant == 1)  // ties: +-v at two places, the larger and the smaller magnitude
              for (std::int64_t i = 0; i < n; ++i) at(i) = (i % 3 == 0) ? -2.5f : (i % 3 == 1 ? 2.5f : 0x1p-149f);
            if (variant == 2)  // subnormals and signed zeros only
              for (std::int64_t i = 0; i < n; ++i) at(i) = (i % 4 == 0) ? -0.0f : (i % 4 == 1 ? 0x1p-140f : (i % 4 == 2 ? -0x1p-149f : 0.0f));
            if (variant == 3 && n > 1) {  // infinities of both signs, a later NaN
              at(n / 3) = -std::numeric_limits<float>::infinity();
              at(n / 2) = std::numeric_limits<float>::infinity();
              at(n - 1) = nan_neg;
            }
            if (variant == 4)  // a signalling NaN with a payload, then a quiet one
              for (std::int64_t i = 0; i < n; ++i) at(i) = i == n - 1 ? payload : (i == n / 2 && n > 2 ? nan_neg : at(i));
            if (variant == 5)  // the special values of the other short tests, cycled
              for (std::int64_t i = 0; i < n; ++i) at(i) = kShortSpecials[static_cast<std::size_t>(i + n) % std::size(kShortSpecials)];
            for (bool largest : {true, false}) {
              tb::CallReport rep;
              const std::int64_t got = largest ? tb::iamax(s, n, x.data(), inc, &rep) : tb::iamin(s, n, x.data(), inc, &rep);
              ++calls;
              ASSERT_EQ(got, reference(n, x.data(), inc, largest))
                  << (largest ? "iamax" : "iamin") << " n=" << n << " inc=" << inc << " variant " << variant
                  << " threads " << threads << " cores " << cores;
              if (n <= 128) {
                std::int64_t custom = 0;
                for (const trn::Instruction& ins : rep.trace.instructions) custom += ins.opcode == trn::Opcode::custom_op;
                ASSERT_EQ(rep.trace.instructions.size(), 3u) << "n=" << n;
                ASSERT_EQ(custom, 1) << "n=" << n;
              }
            }
          }
        }
      }
    }
  EXPECT_EQ(calls, 4 * 16 * 2 * 6 * 2);
}


// caxpy of n <= 8 on [n, 2] columns (level1.cpp, complex_axpy_columns; session 25): bit for bit its
// arithmetic, which is the general path's -- per part fl(y + fl(fl(ar xr) - fl(ai xi))) and fl(y +
// fl(fl(ar xi) + fl(ai xr))) -- with special values (signed zeros, Inf, NaN, subnormals, overflow) in x,
// y and alpha, increments 1, 2, -1, -3 (n from 1 to 12: both sides of the limit); NaN results compared
// as NaN. Then within gamma_3 (|alpha| |x| + |y|) per part of a long-double reference, the same bits at 1
// and 2 host threads and on 2 emulated cores, and the launch's 9 instructions for n <= 8 (so the test
// sees the path it checks).
TEST(ComplexAxpyColumns, BitsAreItsArithmeticWithinTheBoundAndTheSameOnThreadsAndCores) {
  using C = std::complex<float>;
  const auto& specials = kShortSpecials;
  const C alphas[] = {C(1, 0), C(-1, 0), C(0.7f, -0.2f), C(0, 1), C(-0.0f, 0.5f), C(0x1p100f, -3), C(1e-30f, -0.0f)};
  const int incs[][2] = {{1, 1}, {2, 1}, {-1, 2}, {1, -3}, {-3, -1}};
  for (const bool with_specials : {true, false}) {
    for (int n = 1; n <= 12; ++n) {
      for (const auto& inc : incs) {
        for (const C alpha : alphas) {
          const int ix = inc[0], iy = inc[1];
          std::vector<float> xf = blastest::uniform_f(2 * ((n - 1) * std::abs(ix) + 1), 71 + static_cast<std::uint64_t>(n));
          std::vector<float> yf = blastest::uniform_f(2 * ((n - 1) * std::abs(iy) + 1), 73 + static_cast<std::uint64_t>(n));
          if (with_specials) {
            for (std::size_t i = 0; i < xf.size(); i += 3) xf[i] = specials[(i / 3 + static_cast<std::size_t>(n)) % std::size(specials)];
            for (std::size_t i = 1; i < yf.size(); i += 4) yf[i] = specials[(i / 4 + 3) % std::size(specials)];
          }
          std::vector<C> x(xf.size() / 2), y0(yf.size() / 2);
          for (std::size_t i = 0; i < x.size(); ++i) x[i] = C(xf[2 * i], xf[2 * i + 1]);
          for (std::size_t i = 0; i < y0.size(); ++i) y0[i] = C(yf[2 * i], yf[2 * i + 1]);
          trn::blas::CallReport rep;
          const std::vector<C> y = blastest::same_bits_on_threads_and_cores(
              y0,
              [&](const trn::blas::Settings& s, C* out, trn::blas::CallReport* r) {
                trn::blas::axpy(s, n, alpha, x.data(), ix, out, iy, r);
              },
              &rep);
          if (n <= 8) {
            EXPECT_EQ(rep.profile.total_instructions, 9) << "n=" << n;
          }
          ASSERT_FALSE(::testing::Test::HasFailure());
          for (int i = 0; i < n; ++i) {
            const C xi = x[static_cast<std::size_t>(ix > 0 ? i * ix : (n - 1 - i) * -ix)];
            const std::size_t at = static_cast<std::size_t>(iy > 0 ? i * iy : (n - 1 - i) * -iy);
            const C yi = y0[at];
            volatile float p1 = alpha.real() * xi.real(), p2 = alpha.imag() * xi.imag();
            volatile float re = p1 - p2;
            re = yi.real() + re;
            volatile float q1 = alpha.real() * xi.imag(), q2 = alpha.imag() * xi.real();
            volatile float im = q1 + q2;
            im = yi.imag() + im;
            const float want[2] = {re, im}, got[2] = {y[at].real(), y[at].imag()};
            for (int part = 0; part < 2; ++part) {
              if (std::isnan(want[part])) {
                ASSERT_TRUE(std::isnan(got[part])) << "n=" << n << " i=" << i << " part=" << part;
                continue;
              }
              std::uint32_t gb = 0, wb = 0;
              std::memcpy(&gb, &got[part], 4);
              std::memcpy(&wb, &want[part], 4);
              ASSERT_EQ(gb, wb) << "n=" << n << " ix=" << ix << " iy=" << iy << " alpha=" << alpha << " i=" << i
                                << " part=" << part << " got " << got[part] << " want " << want[part];
            }
            if (with_specials || std::abs(alpha.real()) > 1e30f) continue;
            const long double ar = alpha.real(), ai = alpha.imag(), xr = xi.real(), xim = xi.imag();
            const long double er = yi.real() + (ar * xr - ai * xim), ei = yi.imag() + (ar * xim + ai * xr);
            const long double u = std::numeric_limits<float>::epsilon() / 2.0L, g3 = 3 * u / (1 - 3 * u);
            const long double mr = std::fabs(ar * xr) + std::fabs(ai * xim) + std::fabs(static_cast<long double>(yi.real()));
            const long double mi = std::fabs(ar * xim) + std::fabs(ai * xr) + std::fabs(static_cast<long double>(yi.imag()));
            EXPECT_LE(std::fabs(static_cast<long double>(y[at].real()) - er), g3 * mr + 1e-44L) << "n=" << n << " i=" << i;
            EXPECT_LE(std::fabs(static_cast<long double>(y[at].imag()) - ei), g3 * mi + 1e-44L) << "n=" << n << " i=" << i;
          }
        }
      }
    }
  }
}


// cdotu / cdotc and icamax / icamin of n <= pmax in one program each (level1.cpp, short_complex_dot,
// short_complex_index_of_extreme; session 26): bit for bit their arithmetic, which is the two-launch
// path's -- dot: per part the terms fl(fl(x_r y_.) -+ fl(x_i y_.)) (re: xr yr, xi yi; im: xr yi, xi yr;
// conjugate flips both combines), their left-to-right fp32 sum, then fl(+0 + sum); index: the first NaN,
// else the first largest (smallest) fl(|re x_i| + |im x_i|), 1-based. Special values in x and y (NaN
// results compared as NaN), increments 1, -2, 3; the same bits at 1 and 2 host threads and on 2
// emulated cores; the one launch's 14 (dot) and 7 (index) instructions, so the test sees the path it
// checks. For finite data the dot is also within gamma_{n+1} sum (|x_r y_.| + |x_i y_.|) per part of a
// long-double reference (docs/trnblas.md "Complex accuracy").
TEST(ComplexShortReductions, DotAndIndexAreTheirArithmeticInOneProgramOnThreadsAndCores) {
  using C = std::complex<float>;
  const auto& specials = kShortSpecials;
  int checked = 0;
  for (const bool with_specials : {true, false}) {
    for (const int n : {1, 2, 3, 5, 8, 17, 64, 127, 128}) {
      for (const auto& [ix, iy] : {std::pair{1, 1}, std::pair{-2, 3}, std::pair{3, -1}}) {
        std::vector<float> xf = blastest::uniform_f(2 * span_of(n, ix), 81 + static_cast<std::uint64_t>(n));
        std::vector<float> yf = blastest::uniform_f(2 * span_of(n, iy), 83 + static_cast<std::uint64_t>(n));
        if (with_specials) {
          for (std::size_t i = 0; i < xf.size(); i += 5) xf[i] = specials[(i / 5 + static_cast<std::size_t>(n)) % std::size(specials)];
          for (std::size_t i = 2; i < yf.size(); i += 7) yf[i] = specials[(i / 7 + 3) % std::size(specials)];
        }
        std::vector<C> x(xf.size() / 2), y(yf.size() / 2);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = C(xf[2 * i], xf[2 * i + 1]);
        for (std::size_t i = 0; i < y.size(); ++i) y[i] = C(yf[2 * i], yf[2 * i + 1]);
        const auto at = [&](const std::vector<C>& v, int inc, int i) { return v[static_cast<std::size_t>(inc > 0 ? i * inc : (n - 1 - i) * -inc)]; };
        for (const bool conjugate : {false, true}) {
          C runs[3];
          for (int run = 0; run < 3; ++run) {  // 1 thread; 2 threads; 2 emulated cores
            trn::blas::Settings s;
            s.host_threads = run == 1 ? 2 : 1;
            s.num_cores = run == 2 ? 2 : 1;
            trn::blas::CallReport rep;
            runs[run] = trn::blas::dot(s, n, x.data(), ix, y.data(), iy, conjugate, &rep);
            if (run == 0) {
              EXPECT_EQ(rep.trace.instructions.size(), 14u) << "n=" << n;
            }
          }
          ASSERT_EQ(0, std::memcmp(&runs[0], &runs[1], sizeof(C))) << "1 vs 2 threads";
          ASSERT_EQ(0, std::memcmp(&runs[0], &runs[2], sizeof(C))) << "1 vs 2 cores";
          float want[2];
          long double exact[2] = {0, 0}, mag[2] = {0, 0};
          for (int part = 0; part < 2; ++part) {
            volatile float sum = 0.0f;
            for (int i = 0; i < n; ++i) {
              const C xi = at(x, ix, i), yi = at(y, iy, i);
              const float ya = part == 0 ? yi.real() : yi.imag(), yb = part == 0 ? yi.imag() : yi.real();
              volatile float p1 = xi.real() * ya, p2 = xi.imag() * yb;
              const bool subtract = (part == 0) != conjugate;
              volatile float t = subtract ? p1 - p2 : p1 + p2;
              sum = i == 0 ? static_cast<float>(t) : sum + t;
              const long double q1 = static_cast<long double>(xi.real()) * ya, q2 = static_cast<long double>(xi.imag()) * yb;
              exact[part] += subtract ? q1 - q2 : q1 + q2;
              mag[part] += std::fabs(q1) + std::fabs(q2);
            }
            volatile float fin = 0.0f + sum;
            want[part] = fin;
          }
          const float got[2] = {runs[0].real(), runs[0].imag()};
          for (int part = 0; part < 2; ++part) {
            ASSERT_TRUE(same_bits_or_nan(got[part], want[part]))
                << (conjugate ? "cdotc" : "cdotu") << " n=" << n << " ix=" << ix << " iy=" << iy << " part=" << part
                << " got " << got[part] << " want " << want[part];
            if (with_specials) continue;
            const long double u = std::numeric_limits<float>::epsilon() / 2.0L, g = (n + 1) * u / (1 - (n + 1) * u);
            EXPECT_LE(std::fabs(static_cast<long double>(got[part]) - exact[part]), g * mag[part]) << "n=" << n;
          }
          ++checked;
        }
        if (ix < 0) continue;  // i?amax / i?amin take incx > 0
        for (const bool largest : {true, false}) {
          std::int64_t runs_i[3] = {0, 0, 0};
          for (int run = 0; run < 3; ++run) {
            trn::blas::Settings s;
            s.host_threads = run == 1 ? 2 : 1;
            s.num_cores = run == 2 ? 2 : 1;
            trn::blas::CallReport rep;
            runs_i[run] = largest ? trn::blas::iamax(s, n, x.data(), ix, &rep) : trn::blas::iamin(s, n, x.data(), ix, &rep);
            if (run == 0) {
              EXPECT_EQ(rep.trace.instructions.size(), 7u) << "n=" << n;
            }
          }
          EXPECT_EQ(runs_i[0], runs_i[1]) << "1 vs 2 threads";
          EXPECT_EQ(runs_i[0], runs_i[2]) << "1 vs 2 cores";
          std::int64_t want_i = 0;
          float best = 0.0f;
          for (int i = 0; i < n; ++i) {
            const C xi = at(x, ix, i);
            volatile float a = std::fabs(xi.real()), b = std::fabs(xi.imag());
            volatile float v = a + b;
            if (std::isnan(v)) { want_i = i + 1; break; }
            if (want_i == 0 || (largest ? v > best : v < best)) { want_i = i + 1; best = v; }
          }
          ASSERT_EQ(runs_i[0], want_i) << (largest ? "icamax" : "icamin") << " n=" << n << " ix=" << ix;
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 2 * 9 * (3 * 2 + 2 * 2));
}

}  // namespace
