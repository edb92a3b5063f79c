// trnblas helpers and name-compatibility forms (capi_helpers.cpp, capi_level2_batched.cpp, the end of
// capi_gemm.cpp): Set/Get Vector/Matrix against hand-written strided loops, GetProperty, gemv(Strided)Batched
// (S/D/C/Z bit-identical to the single gemv per entry and within the fp32/fp64 gemv bound of an
// independent long-double loop; the mixed HSH/HSS/TST/TSS forms against a long-double loop on the
// exactly widened operands), Hgemm/SgemmEx/CgemmEx/Cgemm3m* bit-identical to the GemmEx calls they
// name, the exported _v2 spellings, and bad input (status, position, outputs untouched).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "blas_test_util.hpp"
#include "trnblas.h"

namespace {

using blastest::Handle;

int last_error(trnblasHandle_t h) {
  int pos = -1;
  EXPECT_EQ(trnblasGetLastErrorParameter(h, &pos), TRNBLAS_STATUS_SUCCESS);
  return pos;
}

std::vector<float> randoms(std::size_t n, std::uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(g);
  return v;
}

// ---- Set/Get Vector/Matrix ------------------------------------------------------------------------

TEST(TrnblasHelpers, SetGetMatrixCopiesTheStridedBlockOnly) {
  const int rows = 3, cols = 4, lda = 5, ldb = 7;
  std::vector<double> A(lda * cols), B(ldb * cols, -7.0);
  for (std::size_t i = 0; i < A.size(); ++i) A[i] = static_cast<double>(i) + 0.5;
  ASSERT_EQ(trnblasSetMatrix(rows, cols, sizeof(double), A.data(), lda, B.data(), ldb), TRNBLAS_STATUS_SUCCESS);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < ldb; ++i)
      EXPECT_EQ(B[j * ldb + i], i < rows ? A[j * lda + i] : -7.0) << i << "," << j;
  std::vector<double> C(lda * cols, 3.0);
  ASSERT_EQ(trnblasGetMatrix_64(rows, cols, sizeof(double), B.data(), ldb, C.data(), lda), TRNBLAS_STATUS_SUCCESS);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < lda; ++i) EXPECT_EQ(C[j * lda + i], i < rows ? A[j * lda + i] : 3.0);
  std::vector<double> D(lda * cols, 1.0);
  ASSERT_EQ(trnblasSetMatrixAsync(rows, cols, sizeof(double), A.data(), lda, D.data(), lda, nullptr),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGetMatrixAsync_64(rows, cols, sizeof(double), D.data(), lda, C.data(), lda, nullptr),
            TRNBLAS_STATUS_SUCCESS);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) EXPECT_EQ(D[j * lda + i], A[j * lda + i]);
}

TEST(TrnblasHelpers, SetGetVectorFollowsIncrements) {
  std::vector<float> x{1, 2, 3, 4, 5, 6, 7, 8, 9}, y(12, -1.0f);
  ASSERT_EQ(trnblasSetVector(3, sizeof(float), x.data(), 3, y.data(), 4), TRNBLAS_STATUS_SUCCESS);
  const std::vector<float> want{1, -1, -1, -1, 4, -1, -1, -1, 7, -1, -1, -1};
  EXPECT_EQ(y, want);
  std::vector<float> z(3, 0.0f);
  ASSERT_EQ(trnblasGetVectorAsync_64(3, sizeof(float), y.data(), 4, z.data(), 1, nullptr), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(z, (std::vector<float>{1, 4, 7}));
  ASSERT_EQ(trnblasGetVector(3, sizeof(float), y.data(), 4, z.data(), 1), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSetVectorAsync(3, sizeof(float), x.data(), 1, z.data(), 1, nullptr), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSetVector_64(0, sizeof(float), nullptr, 1, nullptr, 1), TRNBLAS_STATUS_SUCCESS);  // nothing to copy
  EXPECT_EQ(z, (std::vector<float>{1, 2, 3}));
}

TEST(TrnblasHelpers, SetGetRejectBadArgumentsAndCopyNothing) {
  std::vector<float> a(16, 1.0f), b(16, 2.0f);
  const std::vector<float> b0 = b;
  EXPECT_EQ(trnblasSetVector(4, 0, a.data(), 1, b.data(), 1), TRNBLAS_STATUS_INVALID_VALUE);  // elemSize
  EXPECT_EQ(trnblasSetVector(4, 4, a.data(), 0, b.data(), 1), TRNBLAS_STATUS_INVALID_VALUE);  // incx
  EXPECT_EQ(trnblasGetVector(4, 4, a.data(), 1, b.data(), -1), TRNBLAS_STATUS_INVALID_VALUE);  // incy
  EXPECT_EQ(trnblasGetVector(4, 4, nullptr, 1, b.data(), 1), TRNBLAS_STATUS_MAPPING_ERROR);
  EXPECT_EQ(trnblasSetMatrix(-1, 2, 4, a.data(), 4, b.data(), 4), TRNBLAS_STATUS_INVALID_VALUE);  // rows
  EXPECT_EQ(trnblasSetMatrix(2, -1, 4, a.data(), 4, b.data(), 4), TRNBLAS_STATUS_INVALID_VALUE);  // cols
  EXPECT_EQ(trnblasSetMatrix(2, 2, 4, a.data(), 0, b.data(), 4), TRNBLAS_STATUS_INVALID_VALUE);   // lda
  EXPECT_EQ(trnblasGetMatrix(2, 2, 4, a.data(), 4, b.data(), 0), TRNBLAS_STATUS_INVALID_VALUE);   // ldb
  EXPECT_EQ(trnblasGetMatrix(4, 2, 4, a.data(), 2, b.data(), 4), TRNBLAS_STATUS_MAPPING_ERROR);   // lda < rows
  EXPECT_EQ(trnblasSetMatrix_64(2, 2, 4, a.data(), 4, nullptr, 4), TRNBLAS_STATUS_MAPPING_ERROR);
  EXPECT_EQ(trnblasSetMatrix_64(INT64_MAX / 2, 4, 8, a.data(), INT64_MAX / 2, b.data(), INT64_MAX / 2),
            TRNBLAS_STATUS_MAPPING_ERROR);  // extent not addressable
  EXPECT_EQ(b, b0);
}

TEST(TrnblasHelpers, GetPropertyGivesTheVersionParts) {
  int major = -1, minor = -1, patch = -1, version = 0;
  ASSERT_EQ(trnblasGetProperty(MAJOR_VERSION, &major), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGetProperty(MINOR_VERSION, &minor), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGetProperty(PATCH_LEVEL, &patch), TRNBLAS_STATUS_SUCCESS);
  Handle h;
  ASSERT_EQ(trnblasGetVersion(h, &version), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(major * 10000 + minor * 100 + patch, version);
  int v = 42;
  EXPECT_EQ(trnblasGetProperty(static_cast<libraryPropertyType>(3), &v), TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnblasGetProperty(MAJOR_VERSION, nullptr), TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(v, 42);
}

// ---- gemvBatched --------------------------------------------------------------------------------

// Independent reference: y = alpha op(A) x + beta y in long double (op C conjugates).
template <class T>
std::vector<std::complex<long double>> ref_gemv(int trans, int m, int n, std::complex<long double> alpha,
                                                const T* A, int lda, const T* x, int incx,
                                                std::complex<long double> beta, const T* y, int incy) {
  auto ld = [](const T& v) -> std::complex<long double> {
    if constexpr (std::is_arithmetic_v<T>)
      return {static_cast<long double>(v), 0.0L};
    else
      return {static_cast<long double>(v.real()), static_cast<long double>(v.imag())};
  };
  const int lx = trans == 0 ? n : m, ly = trans == 0 ? m : n;
  std::vector<std::complex<long double>> out(static_cast<std::size_t>(ly));
  for (int i = 0; i < ly; ++i) {
    std::complex<long double> s = 0;
    for (int p = 0; p < lx; ++p) {
      std::complex<long double> a = trans == 0 ? ld(A[p * lda + i]) : ld(A[i * lda + p]);
      if (trans == 2) a = std::conj(a);
      s += a * ld(x[p * incx]);
    }
    out[static_cast<std::size_t>(i)] = alpha * s + (beta == 0.0L ? 0.0L : beta * ld(y[i * incy]));
  }
  return out;
}

template <class T>
T make(float re, float im) {
  if constexpr (std::is_arithmetic_v<T>)
    return static_cast<T>(re);
  else
    return T(re, im);
}

// C wrappers per type (the batched entry, its strided twin, the single gemv).
template <class T>
struct Api;
template <>
struct Api<float> {
  using C = float;
  static constexpr auto batched = trnblasSgemvBatched;
  static constexpr auto strided = trnblasSgemvStridedBatched;
  static constexpr auto single = trnblasSgemv;
  static constexpr double u = 0x1p-24;
};
template <>
struct Api<double> {
  using C = double;
  static constexpr auto batched = trnblasDgemvBatched;
  static constexpr auto strided = trnblasDgemvStridedBatched;
  static constexpr auto single = trnblasDgemv;
  static constexpr double u = 0x1p-50;  // Ozaki: a few ulp of fp64 (docs/trnblas.md)
};
template <>
struct Api<std::complex<float>> {
  using C = trnComplex;
  static constexpr auto batched = trnblasCgemvBatched;
  static constexpr auto strided = trnblasCgemvStridedBatched;
  static constexpr auto single = trnblasCgemv;
  static constexpr double u = 0x1p-24;
};
template <>
struct Api<std::complex<double>> {
  using C = trnDoubleComplex;
  static constexpr auto batched = trnblasZgemvBatched;
  static constexpr auto strided = trnblasZgemvStridedBatched;
  static constexpr auto single = trnblasZgemv;
  static constexpr double u = 0x1p-50;
};

template <class T>
void check_gemv_batched(int trans) {
  using C = typename Api<T>::C;
  const int m = 7, n = 5, lda = 9, incx = 2, incy = 3, batch = 4;
  const int lx = trans == 0 ? n : m, ly = trans == 0 ? m : n;
  const long long sA = lda * n + 3, sx = lx * incx + 1, sy = ly * incy + 2;
  const auto r = randoms(static_cast<std::size_t>(2 * (sA + sx + sy) * batch), 7u + static_cast<unsigned>(trans));
  std::vector<T> A(static_cast<std::size_t>(sA * batch)), x(static_cast<std::size_t>(sx * batch)),
      y(static_cast<std::size_t>(sy * batch));
  std::size_t k = 0;
  auto next = [&] {
    const T v = make<T>(r[k], r[k + 1]);
    k += 2;
    return v;
  };
  for (T& v : A) v = next();
  for (T& v : x) v = next();
  for (T& v : y) v = next();
  const T alpha = make<T>(0.75f, -0.5f), beta = make<T>(-1.25f, 0.25f);
  std::vector<T> y_arr = y, y_str = y, y_one = y;
  std::vector<const C*> Ap(batch), xp(batch);
  std::vector<C*> yp(batch);
  for (int b = 0; b < batch; ++b) {
    Ap[b] = reinterpret_cast<const C*>(A.data() + b * sA);
    xp[b] = reinterpret_cast<const C*>(x.data() + b * sx);
    yp[b] = reinterpret_cast<C*>(y_arr.data() + b * sy);
  }
  Handle h;
  const auto op = static_cast<trnblasOperation_t>(trans);
  const C* al = reinterpret_cast<const C*>(&alpha);
  const C* be = reinterpret_cast<const C*>(&beta);
  ASSERT_EQ(Api<T>::batched(h, op, m, n, al, Ap.data(), lda, xp.data(), incx, be, yp.data(), incy, batch),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(Api<T>::strided(h, op, m, n, al, reinterpret_cast<const C*>(A.data()), lda, sA,
                            reinterpret_cast<const C*>(x.data()), incx, sx, be, reinterpret_cast<C*>(y_str.data()),
                            incy, sy, batch),
            TRNBLAS_STATUS_SUCCESS);
  for (int b = 0; b < batch; ++b)
    ASSERT_EQ(Api<T>::single(h, op, m, n, al, Ap[b], lda, xp[b], incx, be,
                             reinterpret_cast<C*>(y_one.data() + b * sy), incy),
              TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(std::memcmp(y_arr.data(), y_one.data(), y.size() * sizeof(T)), 0) << "batched != single gemv per entry";
  EXPECT_EQ(std::memcmp(y_str.data(), y_one.data(), y.size() * sizeof(T)), 0) << "strided != single gemv per entry";
  // Against the long-double loop: |error| <= (lx + 2) u (|alpha| |A| |x| + |beta| |y|) (the gemv bound).
  for (int b = 0; b < batch; ++b) {
    auto cl = [](const T& v) { return std::complex<long double>(std::real(v), std::imag(v)); };
    const auto want = ref_gemv(trans, m, n, cl(alpha), A.data() + b * sA, lda, x.data() + b * sx, incx, cl(beta),
                               y.data() + b * sy, incy);
    for (int i = 0; i < ly; ++i) {
      const std::complex<long double> got = cl(y_arr[b * sy + i * incy]);
      const long double mag = 4.0L * (lx + 2);  // |alpha|, |beta| <= 1.25, entries <= sqrt(2)
      EXPECT_LE(std::abs(got - want[static_cast<std::size_t>(i)]), 2.0L * (lx + 2) * Api<T>::u * mag)
          << "entry " << b << " row " << i;
    }
    // Padding between the strided y elements is untouched.
    for (int i = 0; i < sy; ++i) {
      if (i % incy != 0 || i / incy >= ly) {
        EXPECT_EQ(std::memcmp(&y_arr[b * sy + i], &y[b * sy + i], sizeof(T)), 0);
      }
    }
  }
}

TEST(TrnblasGemvBatched, RealAndComplexMatchSingleGemvAndReference) {
  for (int trans : {0, 1}) {
    check_gemv_batched<float>(trans);
    check_gemv_batched<double>(trans);
  }
  for (int trans : {0, 1, 2}) {
    check_gemv_batched<std::complex<float>>(trans);
    check_gemv_batched<std::complex<double>>(trans);
  }
}

// Independent binary16 / bfloat16 decoding and round-to-nearest-even encoding (test oracle).
long double dec_half(std::uint16_t h) {
  const int e = (h >> 10) & 31, f = h & 1023;
  const long double mag = e == 0 ? std::ldexp(static_cast<long double>(f), -24)
                                 : std::ldexp(static_cast<long double>(1024 + f), e - 25);
  return (h & 0x8000) ? -mag : mag;
}
long double dec_bf16(std::uint16_t b) {
  const std::uint32_t u = static_cast<std::uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
std::uint16_t enc_half(long double v) {  // finite values in the binary16 range; nearest, ties to even
  std::uint16_t best = 0;
  long double err = INFINITY;
  for (std::uint32_t c = 0; c < 0x7c00; ++c)
    for (std::uint16_t s : {std::uint16_t(0), std::uint16_t(0x8000)}) {
      const std::uint16_t h = static_cast<std::uint16_t>(c | s);
      const long double d = std::fabs(dec_half(h) - v);
      if (d < err || (d == err && (h & 1) == 0 && (best & 1) == 1)) best = h, err = d;
    }
  return best;
}

TEST(TrnblasGemvBatched, MixedFormsWidenExactlyAndRoundOnce) {
  const int m = 6, n = 5, lda = 6, batch = 3;
  const auto r = randoms(static_cast<std::size_t>(batch * (m * n + n + m)), 11u);
  std::vector<trnHalf> Ah(batch * m * n), xh(batch * n), yh(batch * m);
  std::vector<trnBfloat16> Ab(batch * m * n), xb(batch * n), yb(batch * m);
  std::size_t k = 0;
  auto fill = [&](trnHalf& h, trnBfloat16& b) {
    h.x = enc_half(r[k] * 4.0f);  // exact 16-bit inputs
    std::uint32_t u;
    const float f = r[k++];
    std::memcpy(&u, &f, 4);
    b.x = static_cast<std::uint16_t>(u >> 16);
  };
  for (int i = 0; i < batch * m * n; ++i) fill(Ah[i], Ab[i]);
  for (int i = 0; i < batch * n; ++i) fill(xh[i], xb[i]);
  for (int i = 0; i < batch * m; ++i) fill(yh[i], yb[i]);
  const float alpha = 0.5f, beta = -2.0f;
  std::vector<float> yf(batch * m, 0.25f), yf2 = yf;
  Handle h;
  ASSERT_EQ(trnblasHSSgemvStridedBatched(h, TRNBLAS_OP_N, m, n, &alpha, Ah.data(), lda, m * n, xh.data(), 1, n, &beta,
                                         yf.data(), 1, m, batch),
            TRNBLAS_STATUS_SUCCESS);
  std::vector<trnHalf> yh_out = yh;
  ASSERT_EQ(trnblasHSHgemvStridedBatched_64(h, TRNBLAS_OP_N, m, n, &alpha, Ah.data(), lda, m * n, xh.data(), 1, n,
                                            &beta, yh_out.data(), 1, m, batch),
            TRNBLAS_STATUS_SUCCESS);
  std::vector<const trnBfloat16*> Ap(batch), xp(batch);
  std::vector<float*> yp(batch);
  for (int b = 0; b < batch; ++b) Ap[b] = Ab.data() + b * m * n, xp[b] = xb.data() + b * n, yp[b] = yf2.data() + b * m;
  ASSERT_EQ(trnblasTSSgemvBatched(h, TRNBLAS_OP_N, m, n, &alpha, Ap.data(), lda, xp.data(), 1, &beta, yp.data(), 1,
                                  batch),
            TRNBLAS_STATUS_SUCCESS);
  std::vector<trnBfloat16> yb_out = yb;
  std::vector<trnBfloat16*> ybp(batch);
  for (int b = 0; b < batch; ++b) ybp[b] = yb_out.data() + b * m;
  ASSERT_EQ(trnblasTSTgemvBatched_64(h, TRNBLAS_OP_N, m, n, &alpha, Ap.data(), lda, xp.data(), 1, &beta, ybp.data(), 1,
                                     batch),
            TRNBLAS_STATUS_SUCCESS);
  const long double bound = (n + 2) * 0x1p-24L * 40.0L;  // fp32 gemv bound, |A||x| <= 4*4*n, |beta y| <= 8
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < m; ++i) {
      long double sh = 0, sb = 0;
      for (int p = 0; p < n; ++p) {
        sh += dec_half(Ah[b * m * n + p * lda + i].x) * dec_half(xh[b * n + p].x);
        sb += dec_bf16(Ab[b * m * n + p * lda + i].x) * dec_bf16(xb[b * n + p].x);
      }
      const long double want_hss = alpha * sh + beta * 0.25L, want_tss = alpha * sb + beta * 0.25L;
      EXPECT_LE(std::fabs(yf[b * m + i] - want_hss), bound);
      EXPECT_LE(std::fabs(yf2[b * m + i] - want_tss), bound);
      const long double want_hsh = alpha * sh + beta * dec_half(yh[b * m + i].x);
      // One rounding to binary16 of a value within the fp32 bound of the exact one.
      EXPECT_LE(std::fabs(dec_half(yh_out[b * m + i].x) - want_hsh),
                std::fabs(want_hsh) * 0x1p-11L + 0x1p-25L + bound * 2);
      const long double want_tst = alpha * sb + beta * dec_bf16(yb[b * m + i].x);
      EXPECT_LE(std::fabs(dec_bf16(yb_out[b * m + i].x) - want_tst), std::fabs(want_tst) * 0x1p-8L + bound * 2);
    }
}

TEST(TrnblasGemvBatched, BadInputIsAStatusAtItsPositionAndWritesNothing) {
  Handle h;
  const int m = 3, n = 3;
  std::vector<float> A(9, 1.0f), x(3, 1.0f), y0(3, 5.0f), y1(3, 6.0f);
  const float alpha = 1.0f, beta = 0.0f;
  const float* Ap[2] = {A.data(), A.data()};
  const float* xp[2] = {x.data(), x.data()};
  float* yp[2] = {y0.data(), nullptr};
  auto call = [&](int mm, int lda, int incx, int batch, float* const* ys) {
    return trnblasSgemvBatched(h, TRNBLAS_OP_N, mm, n, &alpha, Ap, lda, xp, incx, &beta, ys, 1, batch);
  };
  EXPECT_EQ(call(-1, 3, 1, 2, yp), TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_error(h), 2);
  EXPECT_EQ(call(m, 2, 1, 2, yp), TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_error(h), 6);
  EXPECT_EQ(call(m, 3, 0, 2, yp), TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_error(h), 8);
  EXPECT_EQ(call(m, 3, 1, -1, yp), TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_error(h), 12);
  EXPECT_EQ(call(m, 3, 1, 2, yp), TRNBLAS_STATUS_INVALID_VALUE);  // entry 1's y is NULL
  EXPECT_EQ(last_error(h), 10);
  EXPECT_EQ(y0, std::vector<float>(3, 5.0f));  // entry 0 not computed either
  EXPECT_EQ(trnblasSgemvStridedBatched(h, TRNBLAS_OP_N, m, n, &alpha, A.data(), 3, LLONG_MIN, x.data(), 1, 0, &beta,
                                       y0.data(), 1, 0, 2),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_error(h), 7);
  EXPECT_EQ(trnblasSgemvStridedBatched(h, static_cast<trnblasOperation_t>(9), m, n, &alpha, A.data(), 3, 0, x.data(),
                                       1, 0, &beta, y0.data(), 1, 0, 2),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_error(h), 1);
  EXPECT_EQ(trnblasSgemvStridedBatched(h, TRNBLAS_OP_N, m, n, &alpha, A.data(), 3, 0, x.data(), 1, 0, nullptr,
                                       y0.data(), 1, 0, 2),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_error(h), 11);
  EXPECT_EQ(y0, std::vector<float>(3, 5.0f));
  EXPECT_EQ(trnblasSgemvBatched(nullptr, TRNBLAS_OP_N, m, n, &alpha, Ap, 3, xp, 1, &beta, yp, 1, 1),
            TRNBLAS_STATUS_NOT_INITIALIZED);
}

// ---- GEMM name-compatibility forms ------------------------------------------------------------------

TEST(TrnblasGemmCompat, HgemmIsGemmEx16F) {
  Handle h;
  const int m = 5, n = 4, k = 6, batch = 2;
  const auto r = randoms(static_cast<std::size_t>(batch * (m * k + k * n + m * n)), 3u);
  std::vector<trnHalf> A(batch * m * k), B(batch * k * n), C(batch * m * n);
  std::size_t i = 0;
  for (auto& v : A) v.x = enc_half(r[i++]);
  for (auto& v : B) v.x = enc_half(r[i++]);
  for (auto& v : C) v.x = enc_half(r[i++]);
  trnHalf alpha, beta;  // raw bits: trnHalf{bits} would be ambiguous (trncore.h)
  alpha.x = enc_half(1.5L);
  beta.x = enc_half(-0.5L);
  std::vector<trnHalf> c_ex = C, c_h = C, c_s = C, c_b = C;
  for (int b = 0; b < batch; ++b) {
    ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_T, m, n, k, &alpha, A.data() + b * m * k, TRN_R_16F, m,
                            B.data() + b * k * n, TRN_R_16F, n, &beta, c_ex.data() + b * m * n, TRN_R_16F, m,
                            TRNBLAS_COMPUTE_16F, TRNBLAS_GEMM_DEFAULT),
              TRNBLAS_STATUS_SUCCESS);
    ASSERT_EQ(trnblasHgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_T, m, n, k, &alpha, A.data() + b * m * k, m,
                           B.data() + b * k * n, n, &beta, c_h.data() + b * m * n, m),
              TRNBLAS_STATUS_SUCCESS);
  }
  ASSERT_EQ(trnblasHgemmStridedBatched_64(h, TRNBLAS_OP_N, TRNBLAS_OP_T, m, n, k, &alpha, A.data(), m, m * k, B.data(),
                                          n, k * n, &beta, c_s.data(), m, m * n, batch),
            TRNBLAS_STATUS_SUCCESS);
  const trnHalf* Ap[2] = {A.data(), A.data() + m * k};
  const trnHalf* Bp[2] = {B.data(), B.data() + k * n};
  trnHalf* Cp[2] = {c_b.data(), c_b.data() + m * n};
  ASSERT_EQ(trnblasHgemmBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_T, m, n, k, &alpha, Ap, m, Bp, n, &beta, Cp, m, batch),
            TRNBLAS_STATUS_SUCCESS);
  for (std::size_t j = 0; j < C.size(); ++j) {
    EXPECT_EQ(c_h[j].x, c_ex[j].x);
    EXPECT_EQ(c_s[j].x, c_ex[j].x);
    EXPECT_EQ(c_b[j].x, c_ex[j].x);
  }
  // Hgemm's own positions: lda is its 8th argument.
  std::vector<trnHalf> keep = c_h;
  EXPECT_EQ(trnblasHgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_T, m, n, k, &alpha, A.data(), m - 1, B.data(), n, &beta,
                         c_h.data(), m),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_error(h), 8);
  EXPECT_EQ(trnblasHgemmBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_T, m, n, k, &alpha, Ap, m, Bp, n, &beta, Cp, m, -1),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_error(h), 14);
  EXPECT_EQ(std::memcmp(keep.data(), c_h.data(), keep.size() * sizeof(trnHalf)), 0);
}

TEST(TrnblasGemmCompat, SgemmExCgemmExAndCgemm3mAreTheirGemmExCalls) {
  Handle h;
  const int m = 6, n = 5, k = 7;
  const auto r = randoms(static_cast<std::size_t>(2 * (m * k + k * n + m * n)), 5u);
  std::vector<float> A(r.begin(), r.begin() + m * k), B(r.begin() + m * k, r.begin() + m * k + k * n);
  std::vector<float> C1(m * n, 0.5f), C2 = C1;
  const float alpha = 1.25f, beta = -0.75f;
  ASSERT_EQ(trnblasSgemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), TRN_R_32F, m, B.data(), TRN_R_32F,
                           k, &beta, C1.data(), TRN_R_32F, m),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), TRN_R_32F, m, B.data(), TRN_R_32F,
                          k, &beta, C2.data(), TRN_R_32F, m, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(C1, C2);
  std::vector<std::complex<float>> Ac(m * k), Bc(k * n), Cc(m * n, {0.5f, -0.25f});
  std::size_t i = 0;
  for (auto& v : Ac) v = {r[i % r.size()], r[(i + 1) % r.size()]}, i += 2;
  for (auto& v : Bc) v = {r[i % r.size()], r[(i + 1) % r.size()]}, i += 2;
  auto Cx1 = Cc, Cx2 = Cc, Cx3 = Cc, Cx4 = Cc, Cx5 = Cc;
  const trnComplex ca{1.0f, 0.5f}, cb{-0.5f, 0.25f};
  ASSERT_EQ(trnblasCgemmEx_64(h, TRNBLAS_OP_N, TRNBLAS_OP_C, m, n, k, &ca, Ac.data(), TRN_C_32F, m, Bc.data(),
                              TRN_C_32F, n, &cb, Cx1.data(), TRN_C_32F, m),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_C, m, n, k, &ca, Ac.data(), TRN_C_32F, m, Bc.data(), TRN_C_32F,
                          n, &cb, Cx2.data(), TRN_C_32F, m, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasCgemm3mEx(h, TRNBLAS_OP_N, TRNBLAS_OP_C, m, n, k, &ca, Ac.data(), TRN_C_32F, m, Bc.data(),
                             TRN_C_32F, n, &cb, Cx3.data(), TRN_C_32F, m),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(std::memcmp(Cx1.data(), Cx2.data(), Cx1.size() * 8), 0);
  EXPECT_EQ(std::memcmp(Cx3.data(), Cx2.data(), Cx1.size() * 8), 0);
  // Cgemm3m(Strided)Batched = Cgemm3m per entry.
  const auto* a = reinterpret_cast<const trnComplex*>(Ac.data());
  const auto* b = reinterpret_cast<const trnComplex*>(Bc.data());
  ASSERT_EQ(trnblasCgemm3m(h, TRNBLAS_OP_N, TRNBLAS_OP_C, m, n, k, &ca, a, m, b, n, &cb,
                           reinterpret_cast<trnComplex*>(Cx4.data()), m),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasCgemm3mStridedBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_C, m, n, k, &ca, a, m, 0, b, n, 0, &cb,
                                         reinterpret_cast<trnComplex*>(Cx5.data()), m, 0, 1),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(std::memcmp(Cx4.data(), Cx5.data(), Cx4.size() * 8), 0);
  auto Cx6 = Cc;
  const trnComplex* ap[1] = {a};
  const trnComplex* bp[1] = {b};
  trnComplex* cp[1] = {reinterpret_cast<trnComplex*>(Cx6.data())};
  ASSERT_EQ(trnblasCgemm3mBatched_64(h, TRNBLAS_OP_N, TRNBLAS_OP_C, m, n, k, &ca, ap, m, bp, n, &cb, cp, m, 1),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(std::memcmp(Cx4.data(), Cx6.data(), Cx4.size() * 8), 0);
  // SgemmEx's positions: Ctype is its 15th argument; nothing written.
  std::vector<float> keep = C1;
  EXPECT_NE(trnblasSgemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), TRN_R_32F, m, B.data(), TRN_R_32F,
                           k, &beta, C1.data(), static_cast<trnDataType>(999), m),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(trnblasSgemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), TRN_R_32F, m - 1, B.data(),
                           TRN_R_32F, k, &beta, C1.data(), TRN_R_32F, m),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_error(h), 9);
  EXPECT_EQ(C1, keep);
}

// ---- the _v2 spellings ----------------------------------------------------------------------------

TEST(TrnblasV2Names, ExportedAsAliasesAndCallable) {
  Handle h;
  const float A[4] = {2, 0, 0, 2}, one = 1.0f, zero = 0.0f;
  float C[4] = {-1, -1, -1, -1};
  ASSERT_EQ(trnblasSgemm_v2(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, A, 2, A, 2, &zero, C, 2),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(C[0], 4.0f);
  EXPECT_EQ(C[3], 4.0f);
  void* lib = dlopen("libtrnblas.so.0", RTLD_NOW | RTLD_NOLOAD);
  if (lib == nullptr) GTEST_SKIP() << "static build: the _v2 names are macros only";
  for (const char* name : {"Sgemm", "Dgemm_64", "Create", "Destroy", "Snrm2", "Ztrsm", "Izamax_64", "Crotg"}) {
    const std::string base = std::string("trnblas") + name;
    std::string v2 = base;
    const auto pos = v2.find("_64");
    v2 = pos == std::string::npos ? v2 + "_v2" : v2.substr(0, pos) + "_v2_64";
    void* a = dlsym(lib, base.c_str());
    void* b = dlsym(lib, v2.c_str());
    EXPECT_NE(a, nullptr) << base;
    EXPECT_EQ(a, b) << v2;
  }
  dlclose(lib);
}

TEST(TrnblasV2Names, Rotg64IsRotg) {
  Handle h;
  double a = 3, b = 4, c = 0, s = 0, a2 = 3, b2 = 4, c2 = 0, s2 = 0;
  ASSERT_EQ(trnblasDrotg_64(h, &a, &b, &c, &s), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasDrotg(h, &a2, &b2, &c2, &s2), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(a, a2);
  EXPECT_EQ(c, c2);
  EXPECT_EQ(s, s2);
  EXPECT_EQ(trnblasSrotg_64(h, nullptr, nullptr, nullptr, nullptr), TRNBLAS_STATUS_INVALID_VALUE);
}

}  // namespace
