// The host side of trnrand's kernels (docs/cost-model.md section 7, "Every host step"): every
// non-uniform transform the host CPU runs on a kernel's words is one recorded host step of the call,
// with the words read, the outputs written and the declared operations per output; the uniforms and
// the raw words have none (their kernels write the outputs). The counts are derived here from the
// call's shape: n outputs, the words each generator's layout spends per output, their size.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "trnrand.h"

namespace {

struct Gen {
  trnrandGenerator_t g = nullptr;
  explicit Gen(trnrandRngType_t type) { EXPECT_EQ(trnrandCreateGenerator(&g, type), TRNRAND_STATUS_SUCCESS); }
  ~Gen() {
    if (g != nullptr) trnrandDestroyGenerator(g);
  }
  Gen(const Gen&) = delete;
  Gen& operator=(const Gen&) = delete;
  trnProfile_t profile() const {
    trnProfile_t p{};
    EXPECT_EQ(trnrandGetLastProfile(g, &p), TRNRAND_STATUS_SUCCESS);
    return p;
  }
};

// Words per output of each distribution (the generator's layout, docs/trnrand.md sections 8 - 13).
struct Layout {
  trnrandRngType_t type;
  const char* name;
  double word_bytes, uniform_double, normal, normal_double, poisson;
};

constexpr std::size_t kN = 4096;

void expect_step(const Gen& gen, const char* what, double ops, double words, double word_bytes, double out_bytes) {
  const trnProfile_t p = gen.profile();
  EXPECT_EQ(p.host_steps, 1) << what;
  EXPECT_EQ(p.host_flops, ops * kN) << what;
  EXPECT_EQ(p.host_bytes, word_bytes * words * kN + out_bytes * kN) << what;
  EXPECT_GE(p.total_ns, p.host_critical_ns) << what;
}

TEST(TrnrandHostSteps, TransformsOfEveryGeneratorAreRecorded) {
  const Layout layouts[] = {
      {TRNRAND_RNG_PSEUDO_XORWOW, "xorwow", 4, 2, 1, 2, 1},   {TRNRAND_RNG_PSEUDO_MRG32K3A, "mrg32k3a", 4, 1, 1, 1, 1},
      {TRNRAND_RNG_PSEUDO_MTGP32, "mtgp32", 4, 1, 1, 1, 1},   {TRNRAND_RNG_PSEUDO_MT19937, "mt19937", 4, 1, 1, 1, 1},
      {TRNRAND_RNG_QUASI_SOBOL32, "sobol32", 4, 1, 1, 1, 1},  {TRNRAND_RNG_QUASI_SOBOL64, "sobol64", 8, 1, 1, 1, 1},
  };
  std::vector<float> f(kN);
  std::vector<double> d(kN);
  std::vector<unsigned int> u(kN);
  for (const Layout& l : layouts) {
    SCOPED_TRACE(l.name);
    Gen gen(l.type);
    ASSERT_EQ(trnrandGenerateUniform(gen.g, f.data(), kN), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(gen.profile().host_steps, 0) << "the uniform kernel writes the outputs";
    if (l.type != TRNRAND_RNG_QUASI_SOBOL64) {
      ASSERT_EQ(trnrandGenerate(gen.g, u.data(), kN), TRNRAND_STATUS_SUCCESS);
      EXPECT_EQ(gen.profile().host_steps, 0) << "the words kernel writes the outputs";
    }
    ASSERT_EQ(trnrandGenerateUniformDouble(gen.g, d.data(), kN), TRNRAND_STATUS_SUCCESS);
    expect_step(gen, "uniform double", 3, l.uniform_double, l.word_bytes, 8);
    ASSERT_EQ(trnrandGenerateNormal(gen.g, f.data(), kN, 0.5f, 2.0f), TRNRAND_STATUS_SUCCESS);
    expect_step(gen, "normal", 22, l.normal, l.word_bytes, 4);
    ASSERT_EQ(trnrandGenerateLogNormal(gen.g, f.data(), kN, 0.1f, 0.5f), TRNRAND_STATUS_SUCCESS);
    expect_step(gen, "log-normal", 30, l.normal, l.word_bytes, 4);
    ASSERT_EQ(trnrandGenerateNormalDouble(gen.g, d.data(), kN, 0.5, 2.0), TRNRAND_STATUS_SUCCESS);
    expect_step(gen, "normal double", 22, l.normal_double, l.word_bytes, 8);
    ASSERT_EQ(trnrandGenerateLogNormalDouble(gen.g, d.data(), kN, 0.1, 0.5), TRNRAND_STATUS_SUCCESS);
    expect_step(gen, "log-normal double", 30, l.normal_double, l.word_bytes, 8);
    for (const double lambda : {10.0, 2500.0}) {
      ASSERT_EQ(trnrandGeneratePoisson(gen.g, u.data(), kN, lambda), TRNRAND_STATUS_SUCCESS);
      expect_step(gen, lambda < 2000 ? "poisson 10" : "poisson 2500", 24, l.poisson, l.word_bytes, 4);
    }
  }
}

// Philox: the float distributions run in the kernel; the fp64 ones transform 64-bit-layout words on
// the host (two words per uniform, four per Box-Muller pair).
TEST(TrnrandHostSteps, PhiloxDoublesAreRecorded) {
  Gen gen(TRNRAND_RNG_PSEUDO_PHILOX4_32_10);
  std::vector<float> f(kN);
  std::vector<double> d(kN);
  ASSERT_EQ(trnrandGenerateNormal(gen.g, f.data(), kN, 0.0f, 1.0f), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(gen.profile().host_steps, 0);
  ASSERT_EQ(trnrandGenerateUniformDouble(gen.g, d.data(), kN), TRNRAND_STATUS_SUCCESS);
  expect_step(gen, "uniform double", 3, 2, 4, 8);
  ASSERT_EQ(trnrandGenerateNormalDouble(gen.g, d.data(), kN, 0.0, 1.0), TRNRAND_STATUS_SUCCESS);
  expect_step(gen, "normal double", 22, 2, 4, 8);
  ASSERT_EQ(trnrandGenerateLogNormalDouble(gen.g, d.data(), kN, 0.0, 1.0), TRNRAND_STATUS_SUCCESS);
  expect_step(gen, "log-normal double", 30, 2, 4, 8);
  ASSERT_EQ(trnrandGenerateExponentialDouble(gen.g, d.data(), kN, 2.0), TRNRAND_STATUS_SUCCESS);
  expect_step(gen, "exponential double", 12, 2, 4, 8);
}

}  // namespace
