// The tridiagonal / pentadiagonal solvers (gtsv2, gtsv2_nopivot, gtsv2StridedBatch,
// gtsvInterleavedBatch, gpsvInterleavedBatch) in S/D/C/Z through the C API, against an independent
// reference: each system assembled as a dense matrix and solved by Gaussian elimination with
// partial pivoting in long double (complex<long double>). The forward error must stay within the
// bound of trn/sparse/banded.hpp: u_store |x|_inf + c m u64 kappa_inf(A) |x|_inf.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "c_api_test_util.hpp"
#include "trnsparse.h"

namespace {

using trnsparse_test::Handle;
using LC = std::complex<long double>;

template <class T>
struct Traits;
template <>
struct Traits<float> {
  using C = float;
  static constexpr bool complex = false;
  static constexpr double u = 0x1p-24;
};
template <>
struct Traits<double> {
  using C = double;
  static constexpr bool complex = false;
  static constexpr double u = 0x1p-53;
};
template <>
struct Traits<std::complex<float>> {
  using C = trnComplex;
  static constexpr bool complex = true;
  static constexpr double u = 0x1p-24;
};
template <>
struct Traits<std::complex<double>> {
  using C = trnDoubleComplex;
  static constexpr bool complex = true;
  static constexpr double u = 0x1p-53;
};

template <class T>
T draw(std::mt19937& g, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  if constexpr (Traits<T>::complex) {
    const double re = d(g);
    return T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(d(g)));
  } else {
    return static_cast<T>(d(g));
  }
}
template <class T>
LC widen(T v) {
  if constexpr (Traits<T>::complex)
    return {static_cast<long double>(v.real()), static_cast<long double>(v.imag())};
  else
    return {static_cast<long double>(v), 0.0L};
}

// Dense GEPP in long double: solves A x = b (A n x n row-major, destroyed). Returns false if singular.
bool dense_solve(std::vector<LC> A, std::vector<LC>& b, int n) {
  for (int j = 0; j < n; ++j) {
    int r = j;
    for (int i = j + 1; i < n; ++i)
      if (std::abs(A[i * n + j]) > std::abs(A[r * n + j])) r = i;
    if (A[r * n + j] == LC{}) return false;
    for (int c = 0; c < n; ++c) std::swap(A[j * n + c], A[r * n + c]);
    std::swap(b[j], b[r]);
    for (int i = j + 1; i < n; ++i) {
      const LC l = A[i * n + j] / A[j * n + j];
      for (int c = j; c < n; ++c) A[i * n + c] -= l * A[j * n + c];
      b[i] -= l * b[j];
    }
  }
  for (int i = n - 1; i >= 0; --i) {
    LC s = b[i];
    for (int c = i + 1; c < n; ++c) s -= A[i * n + c] * b[c];
    b[i] = s / A[i * n + i];
  }
  return true;
}

// kappa_inf(A) = |A|_inf |A^-1|_inf (the inverse column by column).
long double kappa(const std::vector<LC>& A, int n) {
  long double na = 0, ninv = 0;
  std::vector<long double> rows(n, 0.0L);
  for (int i = 0; i < n; ++i) {
    long double s = 0;
    for (int c = 0; c < n; ++c) s += std::abs(A[i * n + c]);
    na = std::max(na, s);
  }
  for (int c = 0; c < n; ++c) {
    std::vector<LC> e(n, LC{});
    e[c] = 1;
    dense_solve(A, e, n);
    for (int i = 0; i < n; ++i) rows[i] += std::abs(e[i]);
  }
  for (long double r : rows) ninv = std::max(ninv, r);
  return na * ninv;
}

// One batch of banded systems as the tests lay them out: band k of system s at
// band[k][i * es + s * ss], x at x[i * es + s * ss] (rhs strides may differ for gtsv2).
template <class T>
struct Systems {
  int m = 0, count = 0, half = 1;
  std::vector<std::vector<T>> band;  // 2 half + 1 bands
  std::vector<T> x;
  long es = 1, ss = 0, xes = 1, xss = 0;
  // The dense matrix of system s (entries outside the matrix are never part of it).
  std::vector<LC> dense(int s) const {
    std::vector<LC> A(static_cast<std::size_t>(m) * m, LC{});
    for (int i = 0; i < m; ++i)
      for (int k = 0; k <= 2 * half; ++k) {
        const int j = i + k - half;
        if (j >= 0 && j < m) A[i * m + j] = widen(band[k][i * es + s * ss]);
      }
    return A;
  }
};

// Random systems, diagonally dominant when `dominant` (else the diagonal is drawn like the rest);
// the out-of-matrix band entries are NaN: they must never be read.
template <class T>
Systems<T> make(int m, int count, int half, long es, long ss, long xes, long xss, bool dominant, unsigned seed) {
  std::mt19937 g(seed);
  Systems<T> S;
  S.m = m, S.count = count, S.half = half, S.es = es, S.ss = ss, S.xes = xes, S.xss = xss;
  const long nband = (m - 1) * es + (ss == 0 ? 0 : (count - 1) * ss) + 1;
  const long nx = (m - 1) * xes + (count - 1) * xss + 1;
  S.band.assign(2 * half + 1, std::vector<T>(static_cast<std::size_t>(nband), T(std::nanf(""))));
  S.x.assign(static_cast<std::size_t>(nx), T(-7));
  for (int s = 0; s < (ss == 0 ? 1 : count); ++s)
    for (int i = 0; i < m; ++i)
      for (int k = 0; k <= 2 * half; ++k) {
        const int j = i + k - half;
        if (j < 0 || j >= m) continue;
        T v = draw<T>(g, -1, 1);
        if (k == half && dominant) v += T(static_cast<float>(2 * half + 1));
        S.band[k][i * es + s * ss] = v;
      }
  for (int s = 0; s < count; ++s)
    for (int i = 0; i < m; ++i) S.x[i * xes + s * xss] = draw<T>(g, -2, 2);
  return S;
}

// R_32F / C_32F elimination without pivoting runs on the engines in fp32 (banded_engine.cpp): its
// bound is c u32 kappa_inf(A) |x|_inf (diagonally dominant A; docs/trnsparse.md), c = 3 gamma_7 / u
// ~ 21 (real, 24 used) and 3 sqrt(2) gamma_43 / u ~ 183 (complex, 190 used).
template <class T>
constexpr bool kEngineThomas = std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>>;
template <class T>
constexpr double kEngineC = Traits<T>::complex ? 190 : 24;
// gtsv2_nopivot (one matrix, n right-hand sides): R_32F only (C_32F keeps the host step there).
template <class T>
constexpr bool kEngineOneMatrix = std::is_same_v<T, float>;

// Solves `before` in long double and compares with `after` (the library's output); fp32_arith: the
// engine path's bound in place of the fp64 host step's.
template <class T>
void expect_solved(const Systems<T>& before, const std::vector<T>& after, double c, bool fp32_arith = false) {
  for (int s = 0; s < before.count; ++s) {
    const int ms = before.ss == 0 ? 0 : s;
    const std::vector<LC> A = before.dense(ms);
    std::vector<LC> x(before.m);
    for (int i = 0; i < before.m; ++i) x[i] = widen(before.x[i * before.xes + s * before.xss]);
    ASSERT_TRUE(dense_solve(A, x, before.m));
    long double xn = 0, err = 0;
    for (int i = 0; i < before.m; ++i) {
      xn = std::max(xn, std::abs(x[i]));
      err = std::max(err, std::abs(widen(after[i * before.xes + s * before.xss]) - x[i]));
    }
    const long double bound =
        fp32_arith ? kEngineC<T> * 0x1p-24 * kappa(A, before.m) * xn
                   : (Traits<T>::u * (Traits<T>::complex ? 1.5 : 1.0) + c * before.m * 0x1p-53 * kappa(A, before.m)) * xn;
    EXPECT_LE(err, bound) << "system " << s << " m " << before.m;
  }
}

template <class T>
using CT = typename Traits<T>::C;
template <class T>
CT<T>* cp(std::vector<T>& v) {
  return reinterpret_cast<CT<T>*>(v.data());
}

// The typed entry points, picked by T.
TRNSPARSE_TYPED_ENTRY(gtsv2)
TRNSPARSE_TYPED_ENTRY(gtsv2_nopivot)
TRNSPARSE_TYPED_ENTRY(gtsv2_bufferSizeExt)
TRNSPARSE_TYPED_ENTRY(gtsv2StridedBatch)
TRNSPARSE_TYPED_ENTRY(gtsvInterleavedBatch)
TRNSPARSE_TYPED_ENTRY(gpsvInterleavedBatch)
TRNSPARSE_TYPED_ENTRY(gpsvInterleavedBatch_bufferSizeExt)

template <class T>
class Banded : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Banded, Types);

TYPED_TEST(Banded, Gtsv2ManyRightHandSides) {
  using T = TypeParam;
  Handle h;
  for (const bool pivot : {true, false}) {
    auto S = make<T>(37, 3, 1, 1, 0, 1, 40, /*dominant=*/!pivot ? true : false, 11);
    const auto before = S;
    size_t bytes = 0;
    ASSERT_EQ(gtsv2_bufferSizeExt<T>(h.h, 37, 3, cp(S.band[0]), cp(S.band[1]), cp(S.band[2]), cp(S.x), 40, &bytes),
              TRNSPARSE_STATUS_SUCCESS);
    EXPECT_GT(bytes, 0u);
    std::vector<char> buf(bytes);
    const auto st = pivot ? gtsv2<T>(h.h, 37, 3, cp(S.band[0]), cp(S.band[1]), cp(S.band[2]), cp(S.x), 40, buf.data())
                          : gtsv2_nopivot<T>(h.h, 37, 3, cp(S.band[0]), cp(S.band[1]), cp(S.band[2]), cp(S.x), 40,
                                             buf.data());
    ASSERT_EQ(st, TRNSPARSE_STATUS_SUCCESS);
    expect_solved(before, S.x, 16, !pivot && kEngineOneMatrix<T>);
    for (int c = 0; c < 3; ++c)  // the rows between m and ldb are not touched
      for (int i = 37; i < 40 && c < 2; ++i) EXPECT_EQ(widen(S.x[i + c * 40]), widen(before.x[i + c * 40]));
  }
  trnProfile_t p{};
  ASSERT_EQ(trnsparseGetLastProfile(h.h, &p), TRNSPARSE_STATUS_SUCCESS);
  // the last call, gtsv2_nopivot: VectorE scans (R_32F) or GpSimdE software fp64; no host step
  EXPECT_EQ(p.host_steps, 0);
  EXPECT_EQ(p.host_flops, 0);
  EXPECT_GT(p.instructions_per_engine[kEngineOneMatrix<T> ? TRN_ENGINE_VECTOR : TRN_ENGINE_GPSIMD], 0);
  EXPECT_GT(p.total_ns, 0);
}

TYPED_TEST(Banded, StridedBatch) {
  using T = TypeParam;
  Handle h;
  auto S = make<T>(20, 5, 1, 1, 23, 1, 23, true, 12);
  const auto before = S;
  ASSERT_EQ(gtsv2StridedBatch<T>(h.h, 20, cp(S.band[0]), cp(S.band[1]), cp(S.band[2]), cp(S.x), 5, 23, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  expect_solved(before, S.x, 16, kEngineThomas<T>);
}

TYPED_TEST(Banded, InterleavedEveryAlgorithm) {
  using T = TypeParam;
  Handle h;
  for (int algo = 0; algo < 3; ++algo) {
    auto S = make<T>(17, 6, 1, 6, 1, 6, 1, algo == 0, 13 + algo);
    const auto before = S;
    ASSERT_EQ(gtsvInterleavedBatch<T>(h.h, algo, 17, cp(S.band[0]), cp(S.band[1]), cp(S.band[2]), cp(S.x), 6, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    expect_solved(before, S.x, 64, algo == 0 && kEngineThomas<T>);
    for (int k = 0; k < 3; ++k)  // the coefficient arrays are left as they were (NaN padding included)
      EXPECT_EQ(std::memcmp(S.band[k].data(), before.band[k].data(), S.band[k].size() * sizeof(T)), 0);
  }
}

TYPED_TEST(Banded, PentadiagonalQr) {
  using T = TypeParam;
  Handle h;
  for (const bool dominant : {true, false}) {
    auto S = make<T>(19, 4, 2, 4, 1, 4, 1, dominant, 21);
    const auto before = S;
    size_t bytes = 0;
    ASSERT_EQ(gpsvInterleavedBatch_bufferSizeExt<T>(h.h, 0, 19, cp(S.band[0]), cp(S.band[1]), cp(S.band[2]),
                                                    cp(S.band[3]), cp(S.band[4]), cp(S.x), 4, &bytes),
              TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(gpsvInterleavedBatch<T>(h.h, 0, 19, cp(S.band[0]), cp(S.band[1]), cp(S.band[2]), cp(S.band[3]),
                                      cp(S.band[4]), cp(S.x), 4, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    expect_solved(before, S.x, 64);
  }
}

// A zero leading diagonal: elimination without pivoting meets a zero pivot (ZERO_PIVOT, B untouched);
// partial pivoting and QR solve it.
TYPED_TEST(Banded, PivotingNeeded) {
  using T = TypeParam;
  Handle h;
  auto S = make<T>(9, 1, 1, 1, 0, 1, 9, false, 31);
  S.band[1][0] = T(0);
  const auto before = S;
  EXPECT_EQ(gtsv2_nopivot<T>(h.h, 9, 1, cp(S.band[0]), cp(S.band[1]), cp(S.band[2]), cp(S.x), 9, nullptr),
            TRNSPARSE_STATUS_ZERO_PIVOT);
  EXPECT_EQ(std::memcmp(S.x.data(), before.x.data(), S.x.size() * sizeof(T)), 0);
  EXPECT_EQ(gtsvInterleavedBatch<T>(h.h, 0, 9, cp(S.band[0]), cp(S.band[1]), cp(S.band[2]), cp(S.x), 1, nullptr),
            TRNSPARSE_STATUS_ZERO_PIVOT);
  EXPECT_EQ(std::memcmp(S.x.data(), before.x.data(), S.x.size() * sizeof(T)), 0);
  ASSERT_EQ(gtsv2<T>(h.h, 9, 1, cp(S.band[0]), cp(S.band[1]), cp(S.band[2]), cp(S.x), 9, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  expect_solved(before, S.x, 16);
  S.x = before.x;
  ASSERT_EQ(gtsvInterleavedBatch<T>(h.h, 2, 9, cp(S.band[0]), cp(S.band[1]), cp(S.band[2]), cp(S.x), 1, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  expect_solved(before, S.x, 64);
}

TEST(BandedArgs, SingularAndBadArguments) {
  Handle h;
  std::vector<double> z(12, 0.0), d(12, 1.0), x(12, 1.0);
  // an all-zero matrix is singular for every algorithm; nothing is written
  EXPECT_EQ(trnsparseDgtsv2(h.h, 4, 1, z.data(), z.data(), z.data(), x.data(), 4, nullptr), TRNSPARSE_STATUS_ZERO_PIVOT);
  EXPECT_EQ(trnsparseDgtsvInterleavedBatch(h.h, 2, 4, z.data(), z.data(), z.data(), x.data(), 1, nullptr),
            TRNSPARSE_STATUS_ZERO_PIVOT);
  EXPECT_EQ(trnsparseDgpsvInterleavedBatch(h.h, 0, 4, z.data(), z.data(), z.data(), z.data(), z.data(), x.data(), 1,
                                           nullptr),
            TRNSPARSE_STATUS_ZERO_PIVOT);
  EXPECT_EQ(x, std::vector<double>(12, 1.0));
  size_t bytes = 0;
  EXPECT_EQ(trnsparseDgtsv2(h.h, 2, 1, z.data(), d.data(), z.data(), x.data(), 2, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(trnsparseDgtsv2(h.h, 4, -1, z.data(), d.data(), z.data(), x.data(), 4, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 2);
  EXPECT_EQ(trnsparseDgtsv2(h.h, 4, 1, z.data(), nullptr, z.data(), x.data(), 4, nullptr), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 4);
  EXPECT_EQ(trnsparseDgtsv2_nopivot(h.h, 4, 1, z.data(), d.data(), z.data(), x.data(), 3, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(trnsparseDgtsv2_bufferSizeExt(h.h, 4, 1, z.data(), d.data(), z.data(), x.data(), 4, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 8);
  EXPECT_EQ(trnsparseDgtsv2StridedBatch(h.h, 4, z.data(), d.data(), z.data(), x.data(), 2, 3, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(trnsparseDgtsvInterleavedBatch(h.h, 3, 4, z.data(), d.data(), z.data(), x.data(), 1, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(trnsparseDgpsvInterleavedBatch(h.h, 1, 4, z.data(), z.data(), d.data(), z.data(), z.data(), x.data(), 1,
                                           nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 1);
  EXPECT_EQ(trnsparseDgpsvInterleavedBatch_bufferSizeExt(h.h, 0, 4, z.data(), z.data(), d.data(), z.data(), nullptr,
                                                         x.data(), 1, &bytes),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(trnsparseDgtsvInterleavedBatch(h.h, 0, 4, z.data(), d.data(), z.data(), x.data(), -1, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 7);
  EXPECT_EQ(x, std::vector<double>(12, 1.0));
  EXPECT_EQ(trnsparseDgtsv2(nullptr, 4, 1, z.data(), d.data(), z.data(), x.data(), 4, nullptr),
            TRNSPARSE_STATUS_NOT_INITIALIZED);
  // no right-hand sides / empty batch: success, nothing read
  EXPECT_EQ(trnsparseDgtsv2(h.h, 4, 0, z.data(), d.data(), z.data(), nullptr, 4, nullptr), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(trnsparseDgtsvInterleavedBatch(h.h, 1, 4, z.data(), z.data(), z.data(), x.data(), 0, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
}

}  // namespace
