// The banded solves on GpSimdE (trnsparse/src/banded.cpp): gtsv2 with pivoting, gtsvInterleavedBatch
// algo 1 / 2, gpsvInterleavedBatch, and every R_64F / C_64F solve (plus C_32F gtsv2_nopivot), one system
// per GpSimd lane in software fp64; and batched C_32F without pivoting (banded_engine.cpp, fp32 lanes,
// formerly VectorE row steps: its bits are the VectorE sequence's, recorded the same way). Checked here:
//  - bits: every case's output (FNV-1a of the solution bytes) equals the output of the costed host step
//    these calls were before (hashes recorded from that build, 5521643, on the same inputs);
//  - accuracy: an independent band LU with partial pivoting in long double (LAPACK xGBSV-style, written
//    here) within u_store |x| + c m u64 kappa-free bound on diagonally dominant systems (normwise
//    backward error <= 2 * 4 (p + q + 2) u64 + u_store for the pivoting / QR algorithms, docs);
//  - the engine path: the profile has GpSimd instructions and no host step;
//  - sizes spanning more than one program (130 systems: two programs) and more than one row chunk;
//  - pivoting needed (zero leading diagonal, non-dominant), a zero pivot named by system and row;
//  - the same bits for 1 / 2 host threads and 1 / 2 cores.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "trn/core/cost_model.hpp"
#include "trn/sparse/banded.hpp"

namespace {

namespace sp = trn::sparse;
using cf = std::complex<float>;
using cd = std::complex<double>;
using cld = std::complex<long double>;

template <class T>
constexpr bool kCplx = std::is_same_v<T, cf> || std::is_same_v<T, cd>;
template <class T>
constexpr sp::Value kValue = std::is_same_v<T, float>    ? sp::Value::f32
                             : std::is_same_v<T, double> ? sp::Value::f64
                             : std::is_same_v<T, cf>     ? sp::Value::c32
                                                         : sp::Value::c64;

template <class T>
T draw(std::mt19937& g, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  if constexpr (kCplx<T>) {
    using R = typename T::value_type;
    const double re = d(g);
    return T(static_cast<R>(re), static_cast<R>(d(g)));
  } else {
    return static_cast<T>(d(g));
  }
}
template <class T>
cld widen(T v) {
  if constexpr (kCplx<T>)
    return {static_cast<long double>(v.real()), static_cast<long double>(v.imag())};
  else
    return {static_cast<long double>(v), 0.0L};
}

// A batch laid out as one of the C API's forms: band k of system s at band[k][i es + s ss], x at
// x[i xes + s xss]; out-of-matrix band entries NaN (never read).
template <class T>
struct Batch {
  int m = 0, count = 0, half = 1;
  long es = 1, ss = 0, xes = 1, xss = 0;
  std::vector<std::vector<T>> band;
  std::vector<T> x;
  sp::BandedSystems view(std::vector<T>& rhs) const {
    sp::BandedSystems b;
    b.value = kValue<T>, b.half = half, b.m = m, b.count = count;
    for (int k = 0; k <= 2 * half; ++k) b.band[static_cast<std::size_t>(k)] = band[static_cast<std::size_t>(k)].data();
    b.elem_stride = es, b.sys_stride = ss, b.x = rhs.data(), b.x_elem_stride = xes, b.x_sys_stride = xss;
    return b;
  }
  T a(int s, int i, int k) const { return band[static_cast<std::size_t>(k)][static_cast<std::size_t>(i * es + s * ss)]; }
  T rhs(const std::vector<T>& v, int s, int i) const { return v[static_cast<std::size_t>(i * xes + s * xss)]; }
};

template <class T>
Batch<T> make(int m, int count, int half, long es, long ss, long xes, long xss, bool dominant, unsigned seed) {
  std::mt19937 g(seed);
  Batch<T> B;
  B.m = m, B.count = count, B.half = half, B.es = es, B.ss = ss, B.xes = xes, B.xss = xss;
  const long nband = (m - 1) * es + (ss == 0 ? 0 : (count - 1) * ss) + 1;
  const long nx = (m - 1) * xes + (count - 1) * xss + 1;
  B.band.assign(static_cast<std::size_t>(2 * half + 1), std::vector<T>(static_cast<std::size_t>(nband), T(std::nanf(""))));
  B.x.assign(static_cast<std::size_t>(nx), T(-7));
  for (int s = 0; s < (ss == 0 ? 1 : count); ++s)
    for (int i = 0; i < m; ++i)
      for (int k = 0; k <= 2 * half; ++k) {
        const int j = i + k - half;
        if (j < 0 || j >= m) continue;
        T v = draw<T>(g, -1, 1);
        if (k == half && dominant) v += T(static_cast<float>(2 * half + 1));
        B.band[static_cast<std::size_t>(k)][static_cast<std::size_t>(i * es + s * ss)] = v;
      }
  for (int s = 0; s < count; ++s)
    for (int i = 0; i < m; ++i) B.x[static_cast<std::size_t>(i * xes + s * xss)] = draw<T>(g, -2, 2);
  return B;
}

// The cases of the bit check: each C API form and algorithm at a small size, plus one spanning two
// programs and two row chunks.
struct Case {
  const char* routine;
  sp::BandedAlgo algo;
  int m, count, half;
  int layout;  // 0 gtsv2 (one matrix, ldb m + 3), 1 strided (batchStride m + 3), 2 interleaved
  bool dominant;
  unsigned seed;
};
constexpr Case kCases[] = {
    {"gtsv2", sp::BandedAlgo::lu_pivot, 37, 3, 1, 0, false, 11},
    {"gtsv2_nopivot", sp::BandedAlgo::no_pivot, 37, 3, 1, 0, true, 12},
    {"gtsv2StridedBatch", sp::BandedAlgo::no_pivot, 20, 5, 1, 1, true, 13},
    {"gtsvInterleavedBatch", sp::BandedAlgo::no_pivot, 17, 6, 1, 2, true, 14},
    {"gtsvInterleavedBatch", sp::BandedAlgo::lu_pivot, 17, 6, 1, 2, false, 15},
    {"gtsvInterleavedBatch", sp::BandedAlgo::qr_givens, 17, 6, 1, 2, false, 16},
    {"gpsvInterleavedBatch", sp::BandedAlgo::qr_givens, 19, 4, 2, 2, false, 17},
    {"gpsvInterleavedBatch", sp::BandedAlgo::qr_givens, 19, 4, 2, 2, true, 18},
    {"gtsvInterleavedBatch", sp::BandedAlgo::lu_pivot, 2500, 130, 1, 2, false, 19},
    {"gpsvInterleavedBatch", sp::BandedAlgo::qr_givens, 1500, 130, 2, 2, true, 20},
    {"gtsvInterleavedBatch", sp::BandedAlgo::no_pivot, 2500, 130, 1, 2, true, 21},
};

template <class T>
Batch<T> make_case(const Case& c) {
  const int m = c.m, n = c.count;
  switch (c.layout) {
    case 0: return make<T>(m, n, c.half, 1, 0, 1, m + 3, c.dominant, c.seed);
    case 1: return make<T>(m, n, c.half, 1, m + 3, 1, m + 3, c.dominant, c.seed);
    default: return make<T>(m, n, c.half, n, 1, n, 1, c.dominant, c.seed);
  }
}

std::uint64_t fnv1a(const void* p, std::size_t n) {
  std::uint64_t h = 1469598103934665603ULL;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<const unsigned char*>(p)[i]) * 1099511628211ULL;
  return h;
}

template <class T>
std::vector<T> solve(const Batch<T>& B, const Case& c, int threads = 1, int cores = 1, sp::CallReport* r = nullptr) {
  sp::Settings s;
  s.host_threads = threads;
  s.num_cores = cores;
  std::vector<T> x = B.x;
  sp::banded_solve(s, c.routine, c.algo, B.view(x), r);
  return x;
}

template <class T>
class BandedGpsimd : public ::testing::Test {};
using Types = ::testing::Types<float, double, cf, cd>;
TYPED_TEST_SUITE(BandedGpsimd, Types);

template <class T>
constexpr int kTypeIndex = std::is_same_v<T, float> ? 0 : std::is_same_v<T, double> ? 1 : std::is_same_v<T, cf> ? 2 : 3;

// FNV-1a of each case's output from the host-step build (5521643), [type][case].
constexpr std::uint64_t kHostStepBits[4][std::size(kCases)] = {
    {0x05cbe49cbe1bf0ffULL, 0xb3aa465ffed65c20ULL, 0xa428b1146695395bULL, 0x946e71a65896f48bULL, 0xc7df01bc9fb87a40ULL,
     0xbb35af12843e6eebULL, 0x32fd12071e9fcdafULL, 0x7cce1de0577252a8ULL, 0xbb26c672278509e4ULL, 0x1d46ff51e202bb14ULL, 0xdcfdd8edf95a728cULL},
    {0xd10ba3c87038090cULL, 0xc7db06d3e02f5f68ULL, 0x4827de3cb46a71f5ULL, 0x790ef171c9a52243ULL, 0x474ed0f7ef7be848ULL,
     0x8622d2cae1e3f629ULL, 0x5cf738db673b502eULL, 0xf8eda3c1587048b3ULL, 0x5353f82f4d8ea957ULL, 0xffda105c3b9c909bULL, 0x0845813ac59efadbULL},
    {0xc4c998ceff9d1caeULL, 0x79edcdce8f86da41ULL, 0x762582a8931981c4ULL, 0x6354ce829c59a625ULL, 0xd5586f8ca86e48c4ULL,
     0x6f08d47d3a6187f3ULL, 0x5c769f4eea18ce11ULL, 0xefba88131a1cf234ULL, 0x5bcf394bb6ea36b0ULL, 0x3974d26aec71209dULL, 0xb66fca833ee0679bULL},
    {0x1a8bfad2d7a9d811ULL, 0xdec2be016c4bff8eULL, 0xa8a9f01e7e92faf3ULL, 0x11a9088e26b8a511ULL, 0x322a5db486c7e43fULL,
     0x76857154ad39c795ULL, 0x2f1ec9bf232c4749ULL, 0xb8f91bf58f66cbb9ULL, 0x08cea4b4e197e1d8ULL, 0x18f4e834ebbd9283ULL, 0x47f93af76b9e26e8ULL},
};

TYPED_TEST(BandedGpsimd, BitsEqualThePreviousHostStep) {
  using T = TypeParam;
  for (std::size_t k = 0; k < std::size(kCases); ++k) {
    const Case& c = kCases[k];
    const Batch<T> B = make_case<T>(c);
    const std::vector<T> x = solve(B, c);
    const std::uint64_t h = fnv1a(x.data(), x.size() * sizeof(T));
    std::printf("type %d case %zu %s: 0x%016llxULL\n", kTypeIndex<T>, k, c.routine, static_cast<unsigned long long>(h));
    EXPECT_EQ(h, kHostStepBits[kTypeIndex<T>][k]) << c.routine << " case " << k;
  }
}

// The cases that run on GpSimdE: all but R_32F without pivoting (VectorE scans); fp64 arithmetic
// except batched C_32F without pivoting (fp32 lanes, the former VectorE row steps' formulas).
template <class T>
bool on_gpsimd(const Case& c) {
  return !(std::is_same_v<T, float> && c.algo == sp::BandedAlgo::no_pivot && c.half == 1);
}
template <class T>
bool fp64_arith(const Case& c) {
  return !sp::banded_on_engines(kValue<T>, c.algo, c.half, c.layout != 0);
}

TYPED_TEST(BandedGpsimd, EnginePathNoHostStep) {
  using T = TypeParam;
  int gpsimd_cases = 0;
  for (const Case& c : kCases) {
    if (!on_gpsimd<T>(c)) continue;
    ++gpsimd_cases;
    const Batch<T> B = make_case<T>(c);
    sp::CallReport r;
    r.plans_wanted = true;
    solve(B, c, 1, 1, &r);
    EXPECT_EQ(r.profile.host_steps, 0) << c.routine;
    EXPECT_EQ(r.profile.host_flops, 0) << c.routine;
    EXPECT_GT(r.profile.instructions[static_cast<int>(trn::Engine::gpsimd)], 0) << c.routine;
    EXPECT_EQ(r.profile.instructions[static_cast<int>(trn::Engine::vector)], 0) << c.routine;
    EXPECT_GT(r.profile.total_ns, 0) << c.routine;
    EXPECT_NE(r.plan.find(fp64_arith<T>(c) ? "software fp64 on GpSimdE" : "one GpSimdE operator per chunk"), std::string::npos)
        << r.plan;
    if (c.count > 128) {  // two programs of systems, and more than one chunk of rows
      EXPECT_NE(r.plan.find("2 program(s)"), std::string::npos) << r.plan;
      const auto at = r.plan.find("rows in chunks of ");
      ASSERT_NE(at, std::string::npos) << r.plan;
      EXPECT_LT(std::stol(r.plan.substr(at + 18)), c.m) << r.plan;
    }
  }
  EXPECT_GE(gpsimd_cases, (std::is_same_v<T, float> ? 6 : 11));
}

// An independent reference: band LU with partial pivoting in long double (LAPACK xGBSV style: each
// column's pivot the first of largest modulus among its p rows below, row interchange over the
// fill-in width 2p), on a dense copy of the band [m][3p + 1].
template <class T>
std::vector<cld> band_gepp_long_double(const Batch<T>& B, int s) {
  const int m = B.m, p = B.half, w = 3 * p + 1, ms = B.ss == 0 ? 0 : s;
  std::vector<cld> a(static_cast<std::size_t>(m) * w), x(static_cast<std::size_t>(m));
  auto at = [&](int i, int j) -> cld& { return a[static_cast<std::size_t>(i * w + j - i + p)]; };
  for (int i = 0; i < m; ++i) {
    for (int k = 0; k <= 2 * p; ++k)
      if (i + k - p >= 0 && i + k - p < m) at(i, i + k - p) = widen(B.a(ms, i, k));
    x[static_cast<std::size_t>(i)] = widen(B.rhs(B.x, s, i));
  }
  for (int j = 0; j < m; ++j) {
    const int last = std::min(m - 1, j + p), right = std::min(m - 1, j + 2 * p);
    int r = j;
    for (int i = j + 1; i <= last; ++i)
      if (std::abs(at(i, j)) > std::abs(at(r, j))) r = i;
    for (int c = j; c <= right && r != j; ++c) std::swap(at(j, c), at(r, c));
    std::swap(x[static_cast<std::size_t>(j)], x[static_cast<std::size_t>(r)]);
    for (int i = j + 1; i <= last; ++i) {
      const cld l = at(i, j) / at(j, j);
      for (int c = j + 1; c <= right; ++c) at(i, c) -= l * at(j, c);
      x[static_cast<std::size_t>(i)] -= l * x[static_cast<std::size_t>(j)];
    }
  }
  for (int i = m - 1; i >= 0; --i) {
    cld t = x[static_cast<std::size_t>(i)];
    for (int c = i + 1; c <= std::min(m - 1, i + 2 * p); ++c) t -= at(i, c) * x[static_cast<std::size_t>(c)];
    x[static_cast<std::size_t>(i)] = t / at(i, i);
  }
  return x;
}

// The normwise backward error of system s in long double.
template <class T>
long double backward_error(const Batch<T>& B, const std::vector<T>& xh, int s) {
  const int ms = B.ss == 0 ? 0 : s;
  long double res = 0, an = 0, xn = 0, bn = 0;
  for (int i = 0; i < B.m; ++i) {
    cld ax{};
    long double row = 0;
    for (int k = 0; k <= 2 * B.half; ++k) {
      const int j = i + k - B.half;
      if (j < 0 || j >= B.m) continue;
      ax += widen(B.a(ms, i, k)) * widen(B.rhs(xh, s, j));
      row += std::abs(widen(B.a(ms, i, k)));
    }
    res = std::max(res, std::abs(widen(B.rhs(B.x, s, i)) - ax));
    an = std::max(an, row), xn = std::max(xn, std::abs(widen(B.rhs(xh, s, i)))), bn = std::max(bn, std::abs(widen(B.rhs(B.x, s, i))));
  }
  return res / (an * xn + bn);
}

// The two cases spanning two programs and two row chunks, against the long-double band LU: the
// normwise backward error within u_store + c u64 (c = 2 * 4 (p + q + 2) partial pivoting, 16 (p + q + 2)
// Givens QR: trn/sparse/banded.hpp), and the forward difference from the reference. Two-sided for
// 32-bit storage: fp64 arithmetic then one rounding gives the reference rounded to T in nearly every
// entry (fp32 arithmetic would not).
TYPED_TEST(BandedGpsimd, MultiChunkWithinTheFp64Bound) {
  using T = TypeParam;
  for (const Case& c : kCases) {
    if (c.count <= 128 || !fp64_arith<T>(c)) continue;  // fp32 arithmetic: test_trnsparse_banded_engine's bounds
    const Batch<T> B = make_case<T>(c);
    const std::vector<T> x = solve(B, c);
    const long double us = std::is_same_v<T, float> || std::is_same_v<T, cf> ? 0x1p-24L * (kCplx<T> ? 1.5L : 1.0L) : 0.0L;
    const long double cu = (c.algo == sp::BandedAlgo::qr_givens ? 16.0L : 8.0L) * (2 * c.half + 2) * 0x1p-53L;
    long double worst = 0;
    std::int64_t entries = 0, rounded = 0;
    for (const int s : {0, 1, 127, 128, 129}) {
      worst = std::max(worst, backward_error(B, x, s));
      const std::vector<cld> ref = band_gepp_long_double(B, s);
      for (int i = 0; i < B.m; ++i, ++entries) {
        const cld r = ref[static_cast<std::size_t>(i)];
        if constexpr (kCplx<T>)
          rounded += B.rhs(x, s, i) == T(static_cast<typename T::value_type>(r.real()), static_cast<typename T::value_type>(r.imag()));
        else
          rounded += B.rhs(x, s, i) == static_cast<T>(r.real());
      }
    }
    EXPECT_LE(worst, us + cu) << c.routine;
    std::printf("%s m %d: eta %.3Lg (bound %.3Lg), %.4f of entries = reference rounded to T\n", c.routine, c.m, worst,
                us + cu, static_cast<double>(rounded) / static_cast<double>(entries));
    if (us > 0) {
      EXPECT_GE(static_cast<double>(rounded), 0.95 * static_cast<double>(entries)) << c.routine;
    }
  }
}

// Pivots needed: system 129 (second program) gets a zero leading diagonal and, in row 1900 (second
// row chunk), dl = d = 0. Without pivoting that is ZERO_PIVOT at row 0 of system 129 (nothing
// written); partial pivoting and QR solve it. Then a zero column 1900 (dl, d, du around it) makes
// R(1900, 1900) = 0 for QR: ZeroPivot names system 129, row 1900.
TYPED_TEST(BandedGpsimd, PivotingNeededAndZeroPivotNamed) {
  using T = TypeParam;
  constexpr int kM = 2500, kN = 130, kSys = 129, kRow = 1900;
  Batch<T> B = make<T>(kM, kN, 1, kN, 1, kN, 1, false, 41);
  auto band = [&](int k, int i) -> T& { return B.band[static_cast<std::size_t>(k)][static_cast<std::size_t>(i * kN + kSys)]; };
  band(1, 0) = T(0);
  const Case lu{"gtsvInterleavedBatch", sp::BandedAlgo::lu_pivot, kM, kN, 1, 2, false, 0};
  const Case nopiv{"gtsvInterleavedBatch", sp::BandedAlgo::no_pivot, kM, kN, 1, 2, false, 0};
  const Case qr{"gtsvInterleavedBatch", sp::BandedAlgo::qr_givens, kM, kN, 1, 2, false, 0};
  if (on_gpsimd<T>(nopiv)) {
    std::vector<T> x = B.x;
    try {
      sp::banded_solve(sp::Settings{}, nopiv.routine, nopiv.algo, B.view(x));
      ADD_FAILURE() << "no ZeroPivot";
    } catch (const sp::ZeroPivot& e) {
      EXPECT_EQ(e.system, kSys);
      EXPECT_EQ(e.row, 0);
    }
    EXPECT_EQ(std::memcmp(x.data(), B.x.data(), x.size() * sizeof(T)), 0);
  }
  for (const Case& c : {lu, qr}) {
    const std::vector<T> x = solve(B, c);
    const long double bound = (std::is_same_v<T, float> || std::is_same_v<T, cf> ? 0x1p-23L : 0.0L) + 96 * 0x1p-53L;
    EXPECT_LE(backward_error(B, x, kSys), bound) << static_cast<int>(c.algo);
  }
  band(2, kRow - 1) = T(0), band(1, kRow) = T(0), band(0, kRow + 1) = T(0);  // column kRow of system kSys is zero
  std::vector<T> x = B.x;
  try {
    sp::banded_solve(sp::Settings{}, qr.routine, qr.algo, B.view(x));
    ADD_FAILURE() << "no ZeroPivot";
  } catch (const sp::ZeroPivot& e) {
    EXPECT_EQ(e.system, kSys);
    EXPECT_EQ(e.row, kRow);
  }
  EXPECT_EQ(std::memcmp(x.data(), B.x.data(), x.size() * sizeof(T)), 0);
}

TYPED_TEST(BandedGpsimd, SameBitsForThreadsAndCores) {
  using T = TypeParam;
  for (const Case& c : kCases) {
    if (c.count <= 128) continue;
    const Batch<T> B = make_case<T>(c);
    const std::vector<T> ref = solve(B, c, 1, 1);
    for (auto [threads, cores] : {std::pair{2, 1}, std::pair{1, 2}, std::pair{2, 2}}) {
      const std::vector<T> got = solve(B, c, threads, cores);
      EXPECT_EQ(std::memcmp(got.data(), ref.data(), ref.size() * sizeof(T)), 0) << threads << " threads, " << cores << " cores";
    }
  }
}

}  // namespace
