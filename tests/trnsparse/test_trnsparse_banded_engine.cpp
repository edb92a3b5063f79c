// The R_32F / C_32F tridiagonal solves without pivoting on the engines (trnsparse/src/banded_engine.cpp;
// R_32F VectorE scans, C_32F one GpSimdE fp32 operator per chunk since s14/banded, same bits as the
// VectorE row steps before it):
// R_32F 300 systems (three programs, the last one partial) of 2500 rows (two chunks of rows), C_32F
// 150 systems of 1100 rows (two programs; one chunk of rows since s14: test_trnsparse_banded_gpsimd
// has a two-chunk C_32F case), against the derived bound on the normwise
// backward error, computed in long double from the inputs (independent of the library):
// eta = |b - A x_hat|_inf / (|A|_inf |x_hat|_inf + |b|_inf) <= 3 gamma_7 (real) / 3 sqrt(2) gamma_43
// (complex), u = 2^-24, diagonally dominant A (docs/trnsparse.md). Also: the bits for 1 / 2 host
// threads and 1 / 2 cores, the zero-pivot rule (system and row reported, nothing written) and the
// trace (no host step).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "trn/sparse/banded.hpp"

namespace {

namespace sp = trn::sparse;

using cf = std::complex<float>;
using cld = std::complex<long double>;

template <class T>
constexpr bool kCplx = std::is_same_v<T, cf>;
// Sizes: real 300 x 2500 (chunks of 2048 rows), complex 150 x 1100 (one chunk of 2048).
template <class T>
constexpr std::int64_t kRows = kCplx<T> ? 1100 : 2500;
template <class T>
constexpr std::int64_t kSystems = kCplx<T> ? 150 : 300;

template <class T>
T draw(std::mt19937& g, float scale, float shift) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  if constexpr (kCplx<T>) {
    const float re = scale * u(g) + shift;
    return T(re, scale * u(g));
  } else {
    return scale * u(g) + shift;
  }
}

// Interleaved systems (element i of system s at i * count + s), diagonally dominant by rows.
template <class T>
struct Interleaved {
  static constexpr std::int64_t kM = kRows<T>, kCount = kSystems<T>;
  std::vector<T> dl, d, du, x;
  Interleaved() : dl(kM * kCount), d(kM * kCount), du(kM * kCount), x(kM * kCount) {
    std::mt19937 g(7);
    for (std::int64_t k = 0; k < kM * kCount; ++k) {
      dl[k] = draw<T>(g, 1, 0), du[k] = draw<T>(g, 1, 0), d[k] = draw<T>(g, 1, 3), x[k] = draw<T>(g, 2, 0);
    }
    for (std::int64_t s = 0; s < kCount; ++s) {  // outside the matrix: never read
      dl[s] = std::nanf("");
      du[(kM - 1) * kCount + s] = std::nanf("");
    }
  }
  sp::BandedSystems view(std::vector<T>& rhs) const {
    sp::BandedSystems b;
    b.value = kCplx<T> ? sp::Value::c32 : sp::Value::f32;
    b.m = kM, b.count = kCount;
    b.band = {dl.data(), d.data(), du.data()};
    b.elem_stride = kCount, b.sys_stride = 1;
    b.x = rhs.data();
    b.x_elem_stride = kCount, b.x_sys_stride = 1;
    return b;
  }
};

template <class T>
std::vector<T> solve(const Interleaved<T>& S, int threads, int cores, sp::CallReport* r = nullptr) {
  sp::Settings s;
  s.host_threads = threads;
  s.num_cores = cores;
  std::vector<T> x = S.x;
  sp::banded_solve(s, "gtsvInterleavedBatch", sp::BandedAlgo::no_pivot, S.view(x), r);
  return x;
}

// The normwise backward error of system s in long double.
template <class T>
long double backward_error(const Interleaved<T>& S, const std::vector<T>& xh, std::int64_t s) {
  constexpr std::int64_t kM = Interleaved<T>::kM, kCount = Interleaved<T>::kCount;
  auto at = [&](const std::vector<T>& v, std::int64_t i) {
    if constexpr (kCplx<T>)
      return cld(v[i * kCount + s].real(), v[i * kCount + s].imag());
    else
      return cld(v[i * kCount + s], 0.0L);
  };
  long double res = 0, an = 0, xn = 0, bn = 0;
  for (std::int64_t i = 0; i < kM; ++i) {
    cld ax = at(S.d, i) * at(xh, i);
    long double row = std::abs(at(S.d, i));
    if (i > 0) ax += at(S.dl, i) * at(xh, i - 1), row += std::abs(at(S.dl, i));
    if (i + 1 < kM) ax += at(S.du, i) * at(xh, i + 1), row += std::abs(at(S.du, i));
    res = std::max(res, std::abs(at(S.x, i) - ax));
    an = std::max(an, row), xn = std::max(xn, std::abs(at(xh, i))), bn = std::max(bn, std::abs(at(S.x, i)));
  }
  return res / (an * xn + bn);
}

template <class T>
class BandedEngine : public ::testing::Test {};
using Types = ::testing::Types<float, cf>;
TYPED_TEST_SUITE(BandedEngine, Types);

TYPED_TEST(BandedEngine, ThomasWithinTheFp32Bound) {
  using T = TypeParam;
  const Interleaved<T> S;
  sp::CallReport r;
  r.plans_wanted = true;
  const std::vector<T> x = solve(S, 1, 1, &r);
  // 3 gamma_7 (real); 3 sqrt(2) gamma_43 (complex: products sqrt(2) gamma_2, reciprocals gamma_7)
  const long double u = 0x1p-24L, k = kCplx<T> ? 43 : 7, bound = 3 * (kCplx<T> ? std::sqrt(2.0L) : 1.0L) * k * u / (1 - k * u);
  long double worst = 0;
  for (std::int64_t s = 0; s < S.kCount; ++s) worst = std::max(worst, backward_error(S, x, s));
  EXPECT_LE(worst, bound);
  std::printf("eta %.3Lg (bound %.3Lg, ratio %.3Lg), modeled %.1f us\n", worst, bound, worst / bound, r.profile.total_ns / 1e3);
  // fp32 arithmetic is what was measured: far above an fp64 elimination's 12 u64
  EXPECT_GT(worst, 12 * 0x1p-53L);
  EXPECT_EQ(r.profile.host_steps, 0);
  // R_32F: VectorE scans; C_32F: one GpSimdE operator per chunk (fp32 lanes, no VectorE instruction)
  EXPECT_GT(r.profile.instructions[static_cast<int>(kCplx<T> ? trn::Engine::gpsimd : trn::Engine::vector)], 0);
  EXPECT_EQ(r.profile.instructions[static_cast<int>(trn::Engine::vector)] > 0, !kCplx<T>);
  EXPECT_NE(r.plan.find(kCplx<T> ? "one GpSimdE operator per chunk" : "tensor_tensor_scan"), std::string::npos) << r.plan;
}

TYPED_TEST(BandedEngine, SameBitsForThreadsAndCores) {
  using T = TypeParam;
  const Interleaved<T> S;
  const std::vector<T> ref = solve(S, 1, 1);
  for (auto [threads, cores] : {std::pair{2, 1}, std::pair{1, 2}, std::pair{2, 2}}) {
    const std::vector<T> got = solve(S, threads, cores);
    EXPECT_EQ(std::memcmp(got.data(), ref.data(), ref.size() * sizeof(T)), 0) << threads << " threads, " << cores << " cores";
  }
}

// dl and d of a row of the second chunk of system 130 set to 0: that row's pivot is exactly 0
// (second program). ZeroPivot names the system and row; the right-hand sides are untouched.
TYPED_TEST(BandedEngine, ZeroPivotNamesSystemAndRow) {
  using T = TypeParam;
  Interleaved<T> S;
  const std::int64_t row = kCplx<T> ? 1050 : 2100, sys = kCplx<T> ? 140 : 130, later = kCplx<T> ? 145 : 200;
  S.dl[row * S.kCount + sys] = T(0);
  S.d[row * S.kCount + sys] = T(0);
  S.dl[40 * S.kCount + later] = T(0);  // a later system's zero pivot in an earlier row: not the one reported
  S.d[40 * S.kCount + later] = T(0);
  std::vector<T> x = S.x;
  try {
    sp::banded_solve(sp::Settings{}, "gtsvInterleavedBatch", sp::BandedAlgo::no_pivot, S.view(x));
    ADD_FAILURE() << "no ZeroPivot";
  } catch (const sp::ZeroPivot& e) {
    EXPECT_EQ(e.system, sys);
    EXPECT_EQ(e.row, row);
  }
  EXPECT_EQ(std::memcmp(x.data(), S.x.data(), x.size() * sizeof(T)), 0);
}

// C_32F lanes run four to a vector (banded_engine.cpp, F4) in groups of eight, the rest one at a time:
// 36 systems of 40 rows are 32 vector lanes and 4 single lanes. System s is of kind s % 4: ordinary;
// a row whose pivot has |Re| == |Im| (abs_max's equal rule); entries of 1e30 and subnormal ones;
// a row whose pivot is (NaN, 0). The first three kinds' x must have the bits of the single lane of
// their kind (systems 32 .. 34). The NaN kind checks abs_max's NaN rule (the moduli's sum: NaN, so
// not a zero pivot; without the rule the larger modulus, 0, and a zero pivot would be reported):
// every x value NaN. Its NaNs' signs are not compared: where two NaNs meet in an operation the host
// returns either one (the lanes' plain C++ fp32 does not apply VectorE's two-NaN rule, and single
// and grouped lanes differed there before the vectors too).
TEST(BandedEngineC32, VectorLanesGiveTheBitsOfOneLane) {
  constexpr std::int64_t kM = 40, kCount = 36, kSingle = 32;
  constexpr int kNanKind = 3;
  std::vector<cf> dl(kM * kCount), d(kM * kCount), du(kM * kCount), x(kM * kCount);
  std::mt19937 g(11);
  std::vector<cf> sys_dl(kM), sys_d(kM), sys_du(kM), sys_x(kM);
  for (int kind = 0; kind < 4; ++kind) {
    for (std::int64_t i = 0; i < kM; ++i)
      sys_dl[i] = draw<cf>(g, 1, 0), sys_du[i] = draw<cf>(g, 1, 0), sys_d[i] = draw<cf>(g, 1, 3), sys_x[i] = draw<cf>(g, 2, 0);
    if (kind == 1) sys_dl[12] = cf(0, 0), sys_d[12] = cf(2.5f, -2.5f);  // u = d: |Re u| == |Im u|
    if (kind == 2) sys_du[7] = cf(1e30f, 1), sys_d[8] = cf(2e30f, -1e30f), sys_dl[30] = cf(1e-40f, -1e-41f);
    if (kind == kNanKind) sys_dl[20] = cf(0, 0), sys_d[20] = cf(std::bit_cast<float>(0x7fc01234u), 0.0f);  // u = (NaN, 0)
    for (std::int64_t s = kind; s < kCount; s += 4)
      for (std::int64_t i = 0; i < kM; ++i) {
        const std::int64_t at = i * kCount + s;
        dl[at] = sys_dl[i], d[at] = sys_d[i], du[at] = sys_du[i], x[at] = sys_x[i];
      }
  }
  sp::BandedSystems b;
  b.value = sp::Value::c32;
  b.m = kM, b.count = kCount;
  b.band = {dl.data(), d.data(), du.data()};
  b.elem_stride = kCount, b.sys_stride = 1;
  b.x = x.data();
  b.x_elem_stride = kCount, b.x_sys_stride = 1;
  sp::banded_solve(sp::Settings{}, "gtsvInterleavedBatch", sp::BandedAlgo::no_pivot, b);  // no ZeroPivot
  for (std::int64_t s = 0; s < kCount; ++s)
    for (std::int64_t i = 0; i < kM; ++i) {
      const cf got = x[i * kCount + s], want = x[i * kCount + kSingle + s % 4];
      if (s % 4 == kNanKind) {
        ASSERT_TRUE(std::isnan(got.real()) && std::isnan(got.imag())) << "system " << s << ", row " << i;
      } else {
        ASSERT_EQ(std::memcmp(&got, &want, sizeof got), 0) << "system " << s << ", row " << i;
        ASSERT_TRUE(std::isfinite(got.real()) && std::isfinite(got.imag())) << "system " << s << ", row " << i;
      }
    }
}

}  // namespace
