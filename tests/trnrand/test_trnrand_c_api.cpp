// trnrand.h: cuRAND's numeric enum and status values, argument checking (each invalid argument
// returns cuRAND's status, writes nothing and leaves the position unchanged), lifecycle, streams,
// version, profiles, and the header compiled as C.
#include <Random123/philox.h>

#include <cmath>
#include <cstdint>
#include <vector>
#include <cstring>
#include <limits>

#include "trn/rand/discrete.hpp"
#include "trnrand.h"
#include "trnrand_test_util.hpp"

extern "C" int trnrand_c_header_check(void);
extern "C" int trnrand_c_out_of_range_enums(int* statuses);

namespace {

// RAII generator for the tests.
struct Gen {
  trnrandGenerator_t g = nullptr;
  explicit Gen(bool host = true) {
    EXPECT_EQ(host ? trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10)
                   : trnrandCreateGenerator(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10),
              TRNRAND_STATUS_SUCCESS);
  }
  ~Gen() {
    if (g != nullptr) trnrandDestroyGenerator(g);
  }
  Gen(const Gen&) = delete;
  Gen& operator=(const Gen&) = delete;
};

// The next word of g (consumes one position); for checking that failed calls did not advance.
unsigned int next_word(trnrandGenerator_t g) {
  unsigned int w = 0;
  EXPECT_EQ(trnrandGenerate(g, &w, 1), TRNRAND_STATUS_SUCCESS);
  return w;
}

}  // namespace

TEST(TrnrandCApi, EnumAndStatusValuesAreCuRands) {
  // cuRAND 10.4 curand.h (cuRAND host API documentation).
  static_assert(TRNRAND_STATUS_SUCCESS == 0 && TRNRAND_STATUS_VERSION_MISMATCH == 100 &&
                TRNRAND_STATUS_NOT_INITIALIZED == 101 && TRNRAND_STATUS_ALLOCATION_FAILED == 102 &&
                TRNRAND_STATUS_TYPE_ERROR == 103 && TRNRAND_STATUS_OUT_OF_RANGE == 104 &&
                TRNRAND_STATUS_LENGTH_NOT_MULTIPLE == 105 && TRNRAND_STATUS_DOUBLE_PRECISION_REQUIRED == 106 &&
                TRNRAND_STATUS_LAUNCH_FAILURE == 201 && TRNRAND_STATUS_PREEXISTING_FAILURE == 202 &&
                TRNRAND_STATUS_INITIALIZATION_FAILED == 203 && TRNRAND_STATUS_ARCH_MISMATCH == 204 &&
                TRNRAND_STATUS_INTERNAL_ERROR == 999);
  static_assert(TRNRAND_RNG_TEST == 0 && TRNRAND_RNG_PSEUDO_DEFAULT == 100 && TRNRAND_RNG_PSEUDO_XORWOW == 101 &&
                TRNRAND_RNG_PSEUDO_MRG32K3A == 121 && TRNRAND_RNG_PSEUDO_MTGP32 == 141 &&
                TRNRAND_RNG_PSEUDO_MT19937 == 142 && TRNRAND_RNG_PSEUDO_PHILOX4_32_10 == 161 &&
                TRNRAND_RNG_QUASI_DEFAULT == 200 && TRNRAND_RNG_QUASI_SOBOL32 == 201 &&
                TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL32 == 202 && TRNRAND_RNG_QUASI_SOBOL64 == 203 &&
                TRNRAND_RNG_QUASI_SCRAMBLED_SOBOL64 == 204);
  static_assert(TRNRAND_ORDERING_PSEUDO_BEST == 100 && TRNRAND_ORDERING_PSEUDO_DEFAULT == 101 &&
                TRNRAND_ORDERING_PSEUDO_SEEDED == 102 && TRNRAND_ORDERING_PSEUDO_LEGACY == 103 &&
                TRNRAND_ORDERING_PSEUDO_DYNAMIC == 104 && TRNRAND_ORDERING_QUASI_DEFAULT == 201);
  EXPECT_STREQ(trnrandGetStatusName(TRNRAND_STATUS_LENGTH_NOT_MULTIPLE), "TRNRAND_STATUS_LENGTH_NOT_MULTIPLE");
  EXPECT_STREQ(trnrandGetStatusString(TRNRAND_STATUS_OUT_OF_RANGE), "argument out of range");
  EXPECT_STREQ(trnrandGetStatusName(static_cast<trnrandStatus_t>(12345)), "TRNRAND_STATUS_UNKNOWN");
}

TEST(TrnrandCApi, HeaderCompilesAndRunsAsC) { EXPECT_EQ(trnrand_c_header_check(), 0); }

TEST(TrnrandCApi, OutOfRangeEnumValuesFromC) {
  int st[6] = {};
  ASSERT_EQ(trnrand_c_out_of_range_enums(st), 6);
  EXPECT_EQ(st[0], TRNRAND_STATUS_TYPE_ERROR);    // rng type 12345
  EXPECT_EQ(st[1], TRNRAND_STATUS_TYPE_ERROR);    // rng type -1
  EXPECT_EQ(st[2], TRNRAND_STATUS_OUT_OF_RANGE);  // ordering 1000
  EXPECT_EQ(st[3], TRNRAND_STATUS_OUT_OF_RANGE);  // ordering -5
  EXPECT_EQ(st[4], TRNRAND_STATUS_OUT_OF_RANGE);  // target 7
  EXPECT_EQ(st[5], TRNRAND_STATUS_OUT_OF_RANGE);  // target 0
}

TEST(TrnrandCApi, LifecycleAndHandleChecks) {
  trnrandGenerator_t g = nullptr;
  EXPECT_EQ(trnrandCreateGenerator(nullptr, TRNRAND_RNG_PSEUDO_PHILOX4_32_10), TRNRAND_STATUS_OUT_OF_RANGE);
  // Types trnrand does not implement (out-of-range values: OutOfRangeEnumValuesFromC); XORWOW,
  // MRG32K3A (121, test_trnrand_mrg32k3a), MTGP32 (141, test_trnrand_mtgp32), MT19937 (142,
  // test_trnrand_mt19937), SOBOL32 and SOBOL64 have their own suites; 202 and 204 are the scrambled
  // Sobol types (cuRAND's scramble constants are unpublished: docs/trnrand.md).
  for (int type : {0, 202, 204}) {
    EXPECT_EQ(trnrandCreateGenerator(&g, static_cast<trnrandRngType_t>(type)), TRNRAND_STATUS_TYPE_ERROR) << type;
    EXPECT_EQ(trnrandCreateGeneratorHost(&g, static_cast<trnrandRngType_t>(type)), TRNRAND_STATUS_TYPE_ERROR) << type;
    EXPECT_EQ(g, nullptr);
  }
  ASSERT_EQ(trnrandCreateGenerator(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10), TRNRAND_STATUS_SUCCESS);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
  // A destroyed or NULL generator: NOT_INITIALIZED everywhere, no crash.
  unsigned int u[4] = {1, 2, 3, 4};
  EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(trnrandGenerate(g, u, 4), TRNRAND_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(trnrandGenerate(nullptr, u, 4), TRNRAND_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(trnrandSetPseudoRandomGeneratorSeed(nullptr, 1), TRNRAND_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(trnrandSetGeneratorOffset(nullptr, 1), TRNRAND_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(trnrandSetGeneratorOrdering(nullptr, TRNRAND_ORDERING_PSEUDO_DEFAULT), TRNRAND_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(trnrandSetStream(nullptr, nullptr), TRNRAND_STATUS_NOT_INITIALIZED);
  trnProfile_t prof;
  EXPECT_EQ(trnrandGetLastProfile(nullptr, &prof), TRNRAND_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(u[0], 1u);
}

TEST(TrnrandCApi, VersionStreamAndOrdering) {
  int v = 0;
  EXPECT_EQ(trnrandGetVersion(&v), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(v, TRNRAND_VERSION);
  EXPECT_EQ(v, 100);  // 0.1.0 in cuRAND's MAJOR * 1000 + MINOR * 100 + PATCH
  EXPECT_EQ(trnrandGetVersion(nullptr), TRNRAND_STATUS_OUT_OF_RANGE);
  Gen gen;
  int marker = 0;
  trnStream_t s = nullptr;
  EXPECT_EQ(trnrandSetStream(gen.g, &marker), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(trnrandGetStream(gen.g, &s), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(s, &marker);
  EXPECT_EQ(trnrandGetStream(gen.g, nullptr), TRNRAND_STATUS_OUT_OF_RANGE);
  for (auto o : {TRNRAND_ORDERING_PSEUDO_BEST, TRNRAND_ORDERING_PSEUDO_DEFAULT, TRNRAND_ORDERING_PSEUDO_LEGACY})
    EXPECT_EQ(trnrandSetGeneratorOrdering(gen.g, o), TRNRAND_STATUS_SUCCESS);
  for (int o : {102, 104, 201, 0, 99, 105})
    EXPECT_EQ(trnrandSetGeneratorOrdering(gen.g, static_cast<trnrandOrdering_t>(o)), TRNRAND_STATUS_OUT_OF_RANGE) << o;
  // Orderings BEST / LEGACY give the DEFAULT stream.
  EXPECT_EQ(next_word(gen.g), 0x6627e8d5u);
}

TEST(TrnrandCApi, InvalidArgumentsWriteNothingAndKeepThePosition) {
  for (const bool host : {true, false}) {
    Gen gen(host), fresh(host);
    const float fs = -7.0f;
    const double ds = -7.0;
    float f[9];
    double d[9];
    unsigned int u[9];
    std::fill(std::begin(f), std::end(f), fs);
    std::fill(std::begin(d), std::end(d), ds);
    std::fill(std::begin(u), std::end(u), 77u);
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    // Odd counts for the Box–Muller distributions (cuRAND: "require n to be even").
    EXPECT_EQ(trnrandGenerateNormal(gen.g, f, 9, 0.0f, 1.0f), TRNRAND_STATUS_LENGTH_NOT_MULTIPLE);
    EXPECT_EQ(trnrandGenerateLogNormal(gen.g, f, 1, 0.0f, 1.0f), TRNRAND_STATUS_LENGTH_NOT_MULTIPLE);
    EXPECT_EQ(trnrandGenerateNormalDouble(gen.g, d, 9, 0.0, 1.0), TRNRAND_STATUS_LENGTH_NOT_MULTIPLE);
    EXPECT_EQ(trnrandGenerateLogNormalDouble(gen.g, d, 3, 0.0, 1.0), TRNRAND_STATUS_LENGTH_NOT_MULTIPLE);
    // NULL outputs.
    EXPECT_EQ(trnrandGenerate(gen.g, nullptr, 9), TRNRAND_STATUS_OUT_OF_RANGE);
    EXPECT_EQ(trnrandGenerateUniform(gen.g, nullptr, 9), TRNRAND_STATUS_OUT_OF_RANGE);
    EXPECT_EQ(trnrandGenerateUniformDouble(gen.g, nullptr, 9), TRNRAND_STATUS_OUT_OF_RANGE);
    EXPECT_EQ(trnrandGenerateNormal(gen.g, nullptr, 8, 0.0f, 1.0f), TRNRAND_STATUS_OUT_OF_RANGE);
    EXPECT_EQ(trnrandGeneratePoisson(gen.g, nullptr, 8, 1.0), TRNRAND_STATUS_OUT_OF_RANGE);
    // Lambda and parameter ranges.
    for (double lambda : {0.0, -1.0, 400000.5, 1e300, nan, inf})
      EXPECT_EQ(trnrandGeneratePoisson(gen.g, u, 9, lambda), TRNRAND_STATUS_OUT_OF_RANGE) << lambda;
    for (double lambda : {0.0, -2.0, 2147483649.0, nan})
      EXPECT_EQ(trnrandGeneratePoissonExact(gen.g, u, 9, lambda), TRNRAND_STATUS_OUT_OF_RANGE) << lambda;
    for (float rate : {0.0f, -1.0f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()})
      EXPECT_EQ(trnrandGenerateExponential(gen.g, f, 9, rate), TRNRAND_STATUS_OUT_OF_RANGE) << rate;
    EXPECT_EQ(trnrandGenerateExponentialDouble(gen.g, d, 9, 0.0), TRNRAND_STATUS_OUT_OF_RANGE);
    for (double p : {-0.01, 1.01, nan})
      EXPECT_EQ(trnrandGenerateBernoulli(gen.g, u, 9, p), TRNRAND_STATUS_OUT_OF_RANGE) << p;
    EXPECT_EQ(trnrandGenerateUniformInt(gen.g, u, 9, 5, 4), TRNRAND_STATUS_OUT_OF_RANGE);
    unsigned long long ull[2] = {0, 0};
    EXPECT_EQ(trnrandGenerateLongLong(gen.g, ull, 2), TRNRAND_STATUS_TYPE_ERROR);
    for (float x : f) EXPECT_EQ(x, fs);
    for (double x : d) EXPECT_EQ(x, ds);
    for (unsigned int x : u) EXPECT_EQ(x, 77u);
    EXPECT_EQ(ull[0], 0u);
    // n = 0 succeeds, with or without an output, and writes nothing.
    EXPECT_EQ(trnrandGenerate(gen.g, nullptr, 0), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(trnrandGenerateNormal(gen.g, f, 0, 0.0f, 1.0f), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(f[0], fs);
    // Nothing advanced the position: the next word is the stream's first.
    EXPECT_EQ(next_word(gen.g), next_word(fresh.g));
    // Boundary values are accepted.
    EXPECT_EQ(trnrandGeneratePoisson(gen.g, u, 9, 400000.0), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(trnrandGenerateBernoulli(gen.g, u, 9, 1.0), TRNRAND_STATUS_SUCCESS);
    for (unsigned int x : u) EXPECT_EQ(x, 1u);
    EXPECT_EQ(trnrandGenerateBernoulli(gen.g, u, 9, 0.0), TRNRAND_STATUS_SUCCESS);
    for (unsigned int x : u) EXPECT_EQ(x, 0u);
    EXPECT_EQ(trnrandGenerateUniformInt(gen.g, u, 9, 0, 0xffffffffu), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(trnrandGenerateUniformInt(gen.g, u, 9, 3, 3), TRNRAND_STATUS_SUCCESS);
    for (unsigned int x : u) EXPECT_EQ(x, 3u);
  }
}

TEST(TrnrandCApi, SeedKeepsTheOffsetAndOffsetIsAbsolute) {
  Gen a, b;
  unsigned int u[8];
  ASSERT_EQ(trnrandGenerate(a.g, u, 5), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(a.g, 77), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandGenerate(a.g, u, 3), TRNRAND_STATUS_SUCCESS);  // positions 5..7 of seed 77
  unsigned int ref[8];
  ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(b.g, 77), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandGenerate(b.g, ref, 8), TRNRAND_STATUS_SUCCESS);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(u[i], ref[5 + i]);
  ASSERT_EQ(trnrandSetGeneratorOffset(a.g, 2), TRNRAND_STATUS_SUCCESS);  // absolute, not relative
  EXPECT_EQ(next_word(a.g), ref[2]);
}

TEST(TrnrandCApi, DeviceAndHostGeneratorsAgree) {
  Gen dev(false), host(true);
  std::vector<float> a(5000), b(5000);
  for (auto* g : {dev.g, host.g}) ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(g, 1), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandGenerateLogNormal(dev.g, a.data(), a.size(), 0.5f, 0.25f), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandGenerateLogNormal(host.g, b.data(), b.size(), 0.5f, 0.25f), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(a, b);
}

TEST(TrnrandCApi, LastProfileAndTarget) {
  for (const bool host : {false, true}) {
    Gen gen(host);
    trnProfile_t p;
    std::memset(&p, 0xff, sizeof p);
    ASSERT_EQ(trnrandGetLastProfile(gen.g, &p), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(p.instructions, 0);  // nothing generated yet
    EXPECT_EQ(p.total_ns, 0.0);
    std::vector<float> z(1 << 16);
    ASSERT_EQ(trnrandGenerateNormal(gen.g, z.data(), z.size(), 0.0f, 1.0f), TRNRAND_STATUS_SUCCESS);
    ASSERT_EQ(trnrandGetLastProfile(gen.g, &p), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(p.target, TRN_TARGET_TRN1);
    EXPECT_GT(p.total_ns, 0.0);
    EXPECT_GE(p.instructions_per_engine[TRN_ENGINE_GPSIMD], 1);
    EXPECT_GE(p.instructions_per_engine[TRN_ENGINE_VECTOR], 19);
    EXPECT_GE(p.instructions_per_engine[TRN_ENGINE_SCALAR], 7);
    EXPECT_DOUBLE_EQ(p.dma_bytes, 4.0 * static_cast<double>(z.size()));
    EXPECT_EQ(trnrandGetLastProfile(gen.g, nullptr), TRNRAND_STATUS_OUT_OF_RANGE);
    // Another target: same data, another modeled time.
    ASSERT_EQ(trnrandSetGeneratorTarget(gen.g, TRN_TARGET_TRN2), TRNRAND_STATUS_SUCCESS);
    ASSERT_EQ(trnrandGenerateNormal(gen.g, z.data(), z.size(), 0.0f, 1.0f), TRNRAND_STATUS_SUCCESS);
    trnProfile_t p2;
    ASSERT_EQ(trnrandGetLastProfile(gen.g, &p2), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(p2.target, TRN_TARGET_TRN2);
    EXPECT_NE(p2.total_ns, p.total_ns);
  }
}

// ---- the end of the 64-bit stream (regressions: a heap overflow on the host path and wrong or
// missing output on the engine path for offsets near 2^64) -----------------------------------------

namespace end_of_stream {

// cuRAND's host ordering, from Random123 directly: word w is lane w % 4 of Philox4x32-10 at
// counter (i, t) = (block / 65536, block % 65536), block = w / 4, key = the seed; positions wrap
// modulo 2^64 like the generator offset.
std::uint32_t reference_word(unsigned long long seed, std::uint64_t w) {
  r123::Philox4x32 philox;
  const std::uint64_t block = w / 4, i = block / 65536, t = block % 65536;
  r123::Philox4x32::ctr_type c = {{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i >> 32),
                                   static_cast<std::uint32_t>(t), 0u}};
  r123::Philox4x32::key_type k = {{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
  return philox(c, k)[w % 4];
}

TEST(TrnrandEndOfStream, WordsWrapAtTwoToTheSixtyFourOnBothPathsWithoutOverrun) {
  const unsigned long long offsets[] = {0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFEull, 0xFFFFFFFFFFFFFFFDull,
                                        0xFFFFFFFFFFFFFFF0ull, 0x7FFFFFFFFFFFFFFFull};
  for (bool host : {true, false})
    for (unsigned long long off : offsets)
      for (std::size_t n : {1u, 2u, 3u, 7u, 70u}) {
        Gen g(host);
        ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(g.g, 42), TRNRAND_STATUS_SUCCESS);
        ASSERT_EQ(trnrandSetGeneratorOffset(g.g, off), TRNRAND_STATUS_SUCCESS);
        std::vector<std::uint32_t> buf(n + 16, 0xDEADBEEFu);  // canaries after the request
        ASSERT_EQ(trnrandGenerate(g.g, buf.data(), n), TRNRAND_STATUS_SUCCESS);
        for (std::size_t k = 0; k < n; ++k)
          ASSERT_EQ(buf[k], reference_word(42, off + k)) << (host ? "host" : "engines") << " offset " << off << " k " << k;
        for (std::size_t k = n; k < buf.size(); ++k) ASSERT_EQ(buf[k], 0xDEADBEEFu) << "overrun at " << k;
      }
}

TEST(TrnrandEndOfStream, EnginePathAgreesWithHostPathForEveryDistribution) {
  const unsigned long long offsets[] = {0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFDull, 0x7FFFFFFFFFFFFFFFull};
  for (unsigned long long off : offsets) {
    Gen h(true), e(false);
    for (Gen* g : {&h, &e}) {
      ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(g->g, 7), TRNRAND_STATUS_SUCCESS);
      ASSERT_EQ(trnrandSetGeneratorOffset(g->g, off), TRNRAND_STATUS_SUCCESS);
    }
    float uh[5], ue[5];
    double dh[3], de[3];
    float nh[4], ne[4];
    ASSERT_EQ(trnrandGenerateUniform(h.g, uh, 5), TRNRAND_STATUS_SUCCESS);
    ASSERT_EQ(trnrandGenerateUniform(e.g, ue, 5), TRNRAND_STATUS_SUCCESS);
    ASSERT_EQ(trnrandGenerateUniformDouble(h.g, dh, 3), TRNRAND_STATUS_SUCCESS);
    ASSERT_EQ(trnrandGenerateUniformDouble(e.g, de, 3), TRNRAND_STATUS_SUCCESS);
    ASSERT_EQ(trnrandGenerateNormal(h.g, nh, 4, 0.0f, 1.0f), TRNRAND_STATUS_SUCCESS);
    ASSERT_EQ(trnrandGenerateNormal(e.g, ne, 4, 0.0f, 1.0f), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(0, std::memcmp(uh, ue, sizeof uh)) << "uniform at offset " << off;
    EXPECT_EQ(0, std::memcmp(dh, de, sizeof dh)) << "uniform double at offset " << off;
    EXPECT_EQ(0, std::memcmp(nh, ne, sizeof nh)) << "normal at offset " << off;
    for (double d : dh) EXPECT_TRUE(d > 0.0 && d <= 1.0);
  }
}

}  // namespace end_of_stream

// curandCreatePoissonDistribution / curandDestroyDistribution: cuRAND's documented statuses
// (lambda outside (0, 400000] OUT_OF_RANGE, NULL output NOT_INITIALIZED, destroy of NULL / a
// destroyed object NOT_INITIALIZED), nothing written on failure.
TEST(TrnrandCApi, PoissonDistributionStatuses) {
  auto* const sentinel = reinterpret_cast<trnrandDiscreteDistribution_t>(0x1234);
  for (const double bad : {0.0, -1.0, 400000.5, std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity()}) {
    trnrandDiscreteDistribution_t d = sentinel;
    EXPECT_EQ(trnrandCreatePoissonDistribution(bad, &d), TRNRAND_STATUS_OUT_OF_RANGE) << bad;
    EXPECT_EQ(d, sentinel);
    EXPECT_EQ(trnrandCreatePoissonDistribution(bad, nullptr), TRNRAND_STATUS_OUT_OF_RANGE) << "lambda is checked first";
  }
  EXPECT_EQ(trnrandCreatePoissonDistribution(10.0, nullptr), TRNRAND_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(trnrandDestroyDistribution(nullptr), TRNRAND_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(trnrandDestroyDistribution(sentinel), TRNRAND_STATUS_NOT_INITIALIZED);
  for (const double lambda : {1e-300, 10.0, 400000.0}) {
    trnrandDiscreteDistribution_t d = nullptr;
    ASSERT_EQ(trnrandCreatePoissonDistribution(lambda, &d), TRNRAND_STATUS_SUCCESS) << lambda;
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(trnrandDestroyDistribution(d), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(trnrandDestroyDistribution(d), TRNRAND_STATUS_NOT_INITIALIZED);
  }
}

// The distribution's sampler (curand_discrete of a word) is the Poisson cuRAND's generators give:
// below lambda 2000 the histogram trnrandGeneratePoisson samples (Philox: one word per output);
// from 2000 the normal approximation of cuRAND's device API, which MTGP32's
// GeneratePoissonMethod(DEVICE_API) reproduces bit for bit (docs/trnrand.md 14).
TEST(TrnrandCApi, PoissonDistributionSamplesAsTheGenerators) {
  constexpr std::size_t n = 4096;
  for (const double lambda : {0.5, 10.0, 77.7, 1999.0}) {
    std::vector<unsigned int> words(n), poisson(n);
    {
      Gen a, b;
      ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(a.g, 99), TRNRAND_STATUS_SUCCESS);
      ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(b.g, 99), TRNRAND_STATUS_SUCCESS);
      ASSERT_EQ(trnrandGenerate(a.g, words.data(), n), TRNRAND_STATUS_SUCCESS);
      ASSERT_EQ(trnrandGeneratePoisson(b.g, poisson.data(), n, lambda), TRNRAND_STATUS_SUCCESS);
    }
    trnrandDiscreteDistribution_t d = nullptr;
    ASSERT_EQ(trnrandCreatePoissonDistribution(lambda, &d), TRNRAND_STATUS_SUCCESS);
    EXPECT_TRUE(d->dist.histogram());
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(trn::rand::discrete_sample(d->dist, words[i]), poisson[i]) << lambda << " " << i;
    EXPECT_EQ(trnrandDestroyDistribution(d), TRNRAND_STATUS_SUCCESS);
  }
  for (const double lambda : {2000.0, 2500.5, 400000.0}) {
    std::vector<unsigned int> words(n), poisson(n);
    for (const bool device_api : {false, true}) {
      trnrandGenerator_t g = nullptr;
      ASSERT_EQ(trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_MTGP32), TRNRAND_STATUS_SUCCESS);
      ASSERT_EQ(device_api ? trnrandGeneratePoissonMethod(g, poisson.data(), n, lambda, TRNRAND_DEVICE_API)
                           : trnrandGenerate(g, words.data(), n),
                TRNRAND_STATUS_SUCCESS);
      trnrandDestroyGenerator(g);
    }
    trnrandDiscreteDistribution_t d = nullptr;
    ASSERT_EQ(trnrandCreatePoissonDistribution(lambda, &d), TRNRAND_STATUS_SUCCESS);
    EXPECT_FALSE(d->dist.histogram());
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(trn::rand::discrete_sample(d->dist, words[i]), poisson[i]) << lambda << " " << i;
    EXPECT_EQ(trnrandDestroyDistribution(d), TRNRAND_STATUS_SUCCESS);
  }
}

// Poisson from lambda 2000 is cuRAND's Box-Muller in glibc's float functions, run on the host CPU
// (the engines' activation functions round differently): the profile shows one host step after the
// words kernel, on both paths; the histogram (lambda < 2000) runs on GpSimdE and has none.
TEST(TrnrandCApi, PoissonNormalApproximationIsAHostStep) {
  for (const bool host : {false, true}) {
    Gen gen(host);
    std::vector<unsigned int> out(4096);
    trnProfile_t p{};
    ASSERT_EQ(trnrandGeneratePoisson(gen.g, out.data(), out.size(), 10.0), TRNRAND_STATUS_SUCCESS);
    ASSERT_EQ(trnrandGetLastProfile(gen.g, &p), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(p.host_steps, 0);
    ASSERT_EQ(trnrandGeneratePoisson(gen.g, out.data(), out.size(), 2500.0), TRNRAND_STATUS_SUCCESS);
    ASSERT_EQ(trnrandGetLastProfile(gen.g, &p), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(p.host_steps, 1) << "host path " << host;
    EXPECT_EQ(p.host_flops, 24.0 * 4096);
    EXPECT_EQ(p.host_bytes, 2.0 * 4 * 4096);
    EXPECT_GT(p.host_critical_ns, 0.0);
    EXPECT_GE(p.total_ns, p.host_critical_ns);
    ASSERT_EQ(trnrandGeneratePoisson(gen.g, out.data(), out.size(), 10.0), TRNRAND_STATUS_SUCCESS);
    ASSERT_EQ(trnrandGetLastProfile(gen.g, &p), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(p.host_steps, 0) << "the step belongs to its call only";
  }
}
