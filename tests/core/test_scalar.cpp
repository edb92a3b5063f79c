// ScalarE activation: every function against an independent long-double reference (formulas
// written here, not the emulator's), scale/bias as immediates and [P,1] tiles, reduce_dst, dtype
// casts, the valid-range table with its three out-of-range policies, operand checks and the trace.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "test_util.hpp"
#include "trn/core/core.hpp"

using namespace trn;
using namespace trntest;

namespace {

constexpr float kEps = std::numeric_limits<float>::epsilon();
constexpr float kInfF = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();



// Independent references in long double.
long double ref_act(ActFunc f, long double x) {
  const long double sqrt2 = std::sqrt(2.0L), pi = 3.141592653589793238462643383279502884L;
  switch (f) {
    case ActFunc::copy: return x;
    case ActFunc::square: return x * x;
    case ActFunc::relu: return x > 0 ? x : 0.0L;
    case ActFunc::sigmoid: return 1.0L / (1.0L + std::exp(-x));
    case ActFunc::tanh: return std::tanh(x);
    case ActFunc::gelu: return x / 2 * std::erfc(-x / sqrt2);
    case ActFunc::gelu_apprx_tanh: {
      const long double u = std::sqrt(2.0L / pi) * (x + 0.044715L * x * x * x);
      return x / (1.0L + std::exp(-2.0L * u));  // = x/2 (1 + tanh u)
    }
    case ActFunc::silu: return x / (1.0L + std::exp(-x));
    case ActFunc::softplus: return std::log1p(std::exp(x));
    case ActFunc::erf: return std::erf(x);
    case ActFunc::exp: return std::exp(x);
    case ActFunc::sign: return x > 0 ? 1.0L : (x < 0 ? -1.0L : 0.0L);
    case ActFunc::abs: return std::fabs(x);
    case ActFunc::log: return std::log(x);
    case ActFunc::sin: return std::sin(x);
    case ActFunc::arctan: return std::atan(x);
    case ActFunc::sqrt: return std::sqrt(x);
    case ActFunc::rsqrt: return 1.0L / std::sqrt(x);
    case ActFunc::reciprocal: return 1.0L / x;
  }
  return 0;
}

struct FuncCase {
  ActFunc f;
  float lo, hi;  // test inputs inside the valid range
  bool log_spaced;
};
const FuncCase kCases[] = {
    {ActFunc::copy, -1e6f, 1e6f, false},        {ActFunc::square, -1e3f, 1e3f, false},
    {ActFunc::relu, -10.0f, 10.0f, false},      {ActFunc::sigmoid, -40.0f, 40.0f, false},
    {ActFunc::tanh, -12.0f, 12.0f, false},      {ActFunc::gelu, -12.0f, 12.0f, false},
    {ActFunc::gelu_apprx_tanh, -12.0f, 12.0f, false}, {ActFunc::silu, -40.0f, 40.0f, false},
    {ActFunc::softplus, -40.0f, 40.0f, false},  {ActFunc::erf, -5.0f, 5.0f, false},
    {ActFunc::exp, -80.0f, 80.0f, false},       {ActFunc::sign, -2.0f, 2.0f, false},
    {ActFunc::abs, -5.0f, 5.0f, false},         {ActFunc::log, 0x1p-63f, 0x1p63f, true},
    {ActFunc::sin, -3.14159265f, 3.14159265f, false}, {ActFunc::arctan, -1.5707963f, 1.5707963f, false},
    {ActFunc::sqrt, 0x1p-115f, 0x1p117f, true}, {ActFunc::rsqrt, 0x1p-86f, 0x1p96f, true},
    {ActFunc::reciprocal, 0x1p-41f, 0x1p41f, true},
};

std::vector<float> inputs_for(const FuncCase& c, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> v(static_cast<std::size_t>(n));
  if (c.log_spaced) {
    std::uniform_real_distribution<double> u(std::log2(c.lo), std::log2(c.hi));
    for (auto& x : v) x = static_cast<float>(std::exp2(u(rng)));
    if (c.f == ActFunc::reciprocal)
      for (std::size_t i = 0; i < v.size(); i += 2) v[i] = -v[i];  // valid on +-[2^-42, 2^42]
  } else {
    std::uniform_real_distribution<float> u(c.lo, c.hi);
    for (auto& x : v) x = u(rng);
  }
  return v;
}

// |got - ref| within two fp32 ulps of the reference (double evaluation + one rounding), plus a
// floor for results that underflow.
void expect_close(float got, long double ref, const std::string& what) {
  const double r = static_cast<double>(ref);
  EXPECT_LE(std::fabs(got - r), 2.0 * kEps * std::fabs(r) + 1e-37) << what << ": got " << got << " ref " << r;
}

TEST(ScalarActivation, EveryFunctionMatchesItsReferenceInsideTheValidRange) {
  NeuronCore nc;
  const int P = 128, F = 64;
  const Tile s = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile d = nc.sbuf().alloc(DType::f32, P, {F});
  for (const FuncCase& c : kCases) {
    const auto v = inputs_for(c, P * F, 100 + static_cast<int>(c.f));
    poke(s, v);
    nc.activation(d, s, c.f);
    const auto got = read(d);
    for (std::size_t i = 0; i < got.size(); ++i)
      expect_close(got[i], ref_act(c.f, v[i]), std::string(act_func_name(c.f)) + "(" + std::to_string(v[i]) + ")");
  }
}

TEST(ScalarActivation, SpecialValuesAndLimits) {
  NeuronCore nc;
  const Tile s = nc.sbuf().alloc(DType::f32, 1, {5});
  const Tile d = nc.sbuf().alloc(DType::f32, 1, {5});
  poke(s, {-kInfF, kInfF, -0.0f, kNaN, 0.0f});
  auto run = [&](ActFunc f) {
    nc.activation(d, s, f);
    return read(d);
  };
  auto g = run(ActFunc::exp);
  EXPECT_EQ(g[0], 0.0f);
  EXPECT_EQ(g[1], kInfF);
  EXPECT_TRUE(std::isnan(g[3]));
  g = run(ActFunc::sigmoid);
  EXPECT_EQ(g[0], 0.0f);
  EXPECT_EQ(g[1], 1.0f);
  EXPECT_EQ(g[2], 0.5f);
  for (ActFunc f : {ActFunc::gelu, ActFunc::gelu_apprx_tanh, ActFunc::silu}) {  // limits, not inf * 0
    g = run(f);
    EXPECT_EQ(g[0], 0.0f) << act_func_name(f);
    EXPECT_EQ(g[1], kInfF) << act_func_name(f);
    EXPECT_TRUE(std::isnan(g[3])) << act_func_name(f);
  }
  g = run(ActFunc::relu);
  EXPECT_EQ(std::signbit(g[2]), false);  // relu(-0) = +0
  EXPECT_TRUE(std::isnan(g[3]));
  g = run(ActFunc::sign);
  EXPECT_EQ(g[0], -1.0f);
  EXPECT_EQ(g[1], 1.0f);
  EXPECT_TRUE(g[2] == 0.0f && !std::signbit(g[2]));  // -0 * 1 + (+0) = +0 before the function (IEEE)
  nc.activation(d, s, ActFunc::sign, -0.0f);         // bias -0 keeps the sign: sign(-0) = -0
  EXPECT_TRUE(read(d)[2] == 0.0f && std::signbit(read(d)[2]));
  g = run(ActFunc::softplus);
  EXPECT_EQ(g[0], 0.0f);
  EXPECT_EQ(g[1], kInfF);
  EXPECT_FLOAT_EQ(g[4], std::log(2.0f));
}

TEST(ScalarActivation, GeluExactAndTanhApproximationDiffer) {
  NeuronCore nc;
  const Tile s = nc.sbuf().alloc(DType::f32, 1, {3});
  const Tile d = nc.sbuf().alloc(DType::f32, 1, {3});
  poke(s, {1.0f, -1.0f, 2.5f});
  nc.activation(d, s, ActFunc::gelu);
  const auto exact = read(d);
  nc.activation(d, s, ActFunc::gelu_apprx_tanh);
  const auto approx = read(d);
  EXPECT_NEAR(exact[0], 0.841344746, 1e-7);   // x * Phi(x)
  EXPECT_NEAR(approx[0], 0.841191990, 1e-7);  // tanh form
  for (int i = 0; i < 3; ++i) {
    EXPECT_NE(exact[i], approx[i]);
    EXPECT_LT(std::fabs(exact[i] - approx[i]), 1e-3f);
  }
}

TEST(ScalarActivation, ScaleAndBiasImmediatesAndTiles) {
  NeuronCore nc;
  const int P = 64, F = 48;
  const Tile s = nc.sbuf().alloc(DType::bf16, P, {F});
  const Tile d = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile scale = nc.sbuf().alloc(DType::f32, P, {1}, "scale");
  const Tile bias = nc.psum().alloc(DType::f32, P, {1}, "bias");  // ScalarE may read PSUM
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  std::vector<float> v(P * F), vs(P), vb(P);
  for (auto& x : v) x = bf16_to_f32(f32_to_bf16_rne(u(rng)));
  for (auto& x : vs) x = u(rng);
  for (auto& x : vb) x = u(rng);
  poke(s, v);
  poke(scale, vs);
  poke(bias, vb);
  // v = x * scale + bias in fp32 (product rounded, then the sum), then tanh.
  nc.activation(d, s, ActFunc::tanh, bias, scale);
  auto got = read(d);
  for (int p = 0; p < P; ++p)
    for (int i = 0; i < F; ++i) {
      const float pre = static_cast<float>(static_cast<float>(static_cast<double>(v[p * F + i]) * vs[p]) + static_cast<double>(vb[p]));
      expect_close(got[p * F + i], std::tanh(static_cast<long double>(pre)), "tanh with tiles");
    }
  nc.activation(d, s, ActFunc::exp, -0.5f, 0.25f);  // immediates
  got = read(d);
  for (int k = 0; k < P * F; ++k) {
    const float pre = static_cast<float>(static_cast<float>(v[k] * 0.25) - 0.5);
    expect_close(got[k], std::exp(static_cast<long double>(pre)), "exp with immediates");
  }
}

TEST(ScalarActivation, NarrowAndIntegerDestinations) {
  NeuronCore nc;
  const int P = 32, F = 100;
  const Tile s = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile b = nc.sbuf().alloc(DType::bf16, P, {F});
  const Tile f8 = nc.sbuf().alloc(DType::f8e4m3, P, {F});
  const Tile i = nc.sbuf().alloc(DType::i32, P, {F});
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  std::vector<float> v(P * F);
  for (auto& x : v) x = u(rng);
  v[0] = 30.0f;  // exp(30) saturates int32
  poke(s, v);
  const Tile f32_sig = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile f32_exp = nc.sbuf().alloc(DType::f32, P, {F});
  nc.activation(f32_sig, s, ActFunc::sigmoid);  // the fp32 results (checked against references above)
  nc.activation(f32_exp, s, ActFunc::exp);
  nc.activation(b, s, ActFunc::sigmoid);
  nc.activation(f8, s, ActFunc::sigmoid);
  nc.activation(i, s, ActFunc::exp);
  for (int k = 0; k < P * F; ++k) {
    const int p = k / F, j = k % F;
    // A narrow dst holds the RNE cast of the fp32 result (one rounding, no double rounding via fp64).
    const float r32 = load_as_f32(DType::f32, f32_sig.at(p, j));
    std::uint16_t bb;
    std::memcpy(&bb, b.at(p, j), 2);
    ASSERT_EQ(bb, f32_to_bf16_rne(r32)) << k;
    std::uint8_t e;
    std::memcpy(&e, f8.at(p, j), 1);
    ASSERT_EQ(e, encode_float(float_format(DType::f8e4m3), r32, Rounding::nearest_even)) << k;
    const float e32 = load_as_f32(DType::f32, f32_exp.at(p, j));
    ASSERT_EQ(load_as_int(DType::i32, i.at(p, j)), f32_to_int_saturate(DType::i32, e32)) << k;
  }
  EXPECT_EQ(load_as_int(DType::i32, i.at(0, 0)), INT32_MAX);
}

TEST(ScalarActivation, StochasticRoundingOption) {
  NeuronCore nc;
  const Tile s = nc.sbuf().alloc(DType::f32, 16, {256});
  const Tile d = nc.sbuf().alloc(DType::bf16, 16, {256});
  std::vector<float> v(16 * 256);
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  for (auto& x : v) x = u(rng);
  poke(s, v);
  nc.activation(d, s, ActFunc::copy, 0.0f, 1.0f, nullptr, InstrOptions{Rounding::stochastic});
  int not_rne = 0;
  for (int k = 0; k < 16 * 256; ++k) {
    std::uint16_t got;
    std::memcpy(&got, d.at(k / 256, k % 256), 2);
    const std::uint16_t trunc = static_cast<std::uint16_t>(f32_to_bits(v[k]) >> 16);
    ASSERT_TRUE(got == trunc || got == trunc + 1) << k;
    not_rne += got != f32_to_bf16_rne(v[k]);
  }
  EXPECT_GT(not_rne, 16 * 256 / 10);
}

TEST(ScalarActivation, ReduceDstSumsTheFp32ResultsLeftToRight) {
  NeuronCore nc;
  const int P = 128, F = 700;
  const Tile s = nc.sbuf().alloc(DType::f32, P, {F});
  const Tile d = nc.sbuf().alloc(DType::bf16, P, {F});
  const Tile r = nc.sbuf().alloc(DType::f32, P, {1}, "r");
  std::vector<float> v(static_cast<std::size_t>(P * F));
  std::mt19937 rng(10);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  for (auto& x : v) x = u(rng);
  poke(s, v);
  nc.activation(d, s, ActFunc::exp, 0.0f, 1.0f, &r);
  const auto sums = read(r);
  for (int p = 0; p < P; ++p) {
    float seq = 0.0f;
    long double exact = 0;
    for (int i = 0; i < F; ++i) {
      const float y = static_cast<float>(std::exp(static_cast<double>(v[p * F + i])));  // fp32 result (not the bf16 dst)
      seq += y;
      exact += std::exp(static_cast<long double>(v[p * F + i]));
    }
    EXPECT_EQ(sums[p], seq) << p;
    EXPECT_LE(std::fabs(sums[p] - exact), (F + 2) * kEps * exact) << p;  // positive terms: gamma_n bound
  }
  const Instruction& ins = nc.trace().instructions.back();
  EXPECT_EQ(ins.opcode, Opcode::activation);
  EXPECT_EQ(ins.engine, Engine::scalar);
  EXPECT_EQ(ins.inputs, 1);
  int writes = 0;
  for (int i = 0; i < ins.nregions; ++i) writes += ins.regions[i].write;
  EXPECT_EQ(writes, 2);  // dst and reduce_dst (the cost model adds ActReadAccumulator)
}

// ---- valid ranges and out-of-range policies -------------------------------------------------------

TEST(ScalarActivationRange, NanPolicyPoisonsOnlyOutOfRangeLanes) {
  NeuronCore nc;  // default policy: nan
  const Tile s = nc.sbuf().alloc(DType::f32, 1, {8});
  const Tile d = nc.sbuf().alloc(DType::f32, 1, {8});
  const Tile r = nc.sbuf().alloc(DType::f32, 1, {1});
  // log valid on [2^-64, 2^64]
  poke(s, {-1.0f, 0.0f, 0x1p-65f, 0x1p-64f, 1.0f, 0x1p64f, 0x1p65f, kInfF});
  nc.activation(d, s, ActFunc::log, 0.0f, 1.0f, &r);
  auto g = read(d);
  EXPECT_TRUE(std::isnan(g[0]) && std::isnan(g[1]) && std::isnan(g[2]));
  EXPECT_FLOAT_EQ(g[3], -64.0f * std::log(2.0f));
  EXPECT_EQ(g[4], 0.0f);
  EXPECT_FLOAT_EQ(g[5], 64.0f * std::log(2.0f));
  EXPECT_TRUE(std::isnan(g[6]) && std::isnan(g[7]));
  EXPECT_TRUE(std::isnan(read(r)[0]));  // the poisoned lanes reach the reduction
  // sin: [-pi, pi], pi rounded to fp32 counts as inside; no range reduction.
  const float pif = 3.14159265358979f;
  poke(s, {pif, -pif, std::nextafter(pif, 4.0f), 9.0f, -4.0f, 0.5f, 0.0f, kNaN});
  nc.activation(d, s, ActFunc::sin);
  g = read(d);
  EXPECT_NEAR(g[0], std::sin(static_cast<double>(pif)), 1e-12);
  EXPECT_NEAR(g[1], -std::sin(static_cast<double>(pif)), 1e-12);
  EXPECT_TRUE(std::isnan(g[2]) && std::isnan(g[3]) && std::isnan(g[4]));
  EXPECT_FLOAT_EQ(g[5], std::sin(0.5f));
  EXPECT_TRUE(std::isnan(g[7]));  // NaN input stays NaN
  // reciprocal: +-[2^-42, 2^42]; sqrt: [2^-116, 2^118] plus exact +-0 (documented choice).
  poke(s, {-1.0f, -0x1p-43f, 0x1p-42f, 0x1p43f, 4.0f, -0x1p42f, 0.5f, -0.5f});
  nc.activation(d, s, ActFunc::reciprocal);
  g = read(d);
  EXPECT_EQ(g[0], -1.0f);
  EXPECT_TRUE(std::isnan(g[1]) && std::isnan(g[3]));
  EXPECT_EQ(g[2], 0x1p42f);
  EXPECT_EQ(g[5], -0x1p-42f);
  poke(s, {0.0f, 4.0f, 0x1p-117f, 0x1p119f, 1.0f, 2.0f, 9.0f, -1.0f});
  nc.activation(d, s, ActFunc::sqrt);
  g = read(d);
  EXPECT_EQ(g[0], 0.0f);
  EXPECT_TRUE(std::isnan(g[2]) && std::isnan(g[3]) && std::isnan(g[7]));
  EXPECT_EQ(g[1], 2.0f);
  EXPECT_EQ(g[6], 3.0f);
  // arctan: [-pi/2, pi/2]
  poke(s, {1.5f, 1.6f, -1.6f, 0.0f, 1.0f, -1.0f, 0.1f, -0.1f});
  nc.activation(d, s, ActFunc::arctan);
  g = read(d);
  EXPECT_FLOAT_EQ(g[0], std::atan(1.5f));
  EXPECT_TRUE(std::isnan(g[1]) && std::isnan(g[2]));
  // scale and bias apply before the range check: log(x * 2^-70) is outside for x = 1.
  poke(s, {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f});
  nc.activation(d, s, ActFunc::log, 0.0f, 0x1p-70f);
  EXPECT_TRUE(std::isnan(read(d)[0]));
}

TEST(ScalarActivationRange, ExtrapolatePolicyEvaluatesTheExactFunction) {
  CoreConfig cfg;
  cfg.activation_out_of_range = OutOfRange::extrapolate;
  NeuronCore nc(cfg);
  const Tile s = nc.sbuf().alloc(DType::f32, 1, {4});
  const Tile d = nc.sbuf().alloc(DType::f32, 1, {4});
  poke(s, {9.0f, 0.0f, 0x1p-80f, 100.0f});
  nc.activation(d, s, ActFunc::sin);
  EXPECT_FLOAT_EQ(read(d)[0], static_cast<float>(std::sin(9.0)));  // 0.412, not the hardware's ~27.65
  nc.activation(d, s, ActFunc::sqrt);
  EXPECT_EQ(read(d)[1], 0.0f);
  EXPECT_EQ(read(d)[2], 0x1p-40f);
  nc.activation(d, s, ActFunc::log);
  EXPECT_EQ(read(d)[1], -kInfF);
  EXPECT_FLOAT_EQ(read(d)[2], static_cast<float>(-80.0 * std::log(2.0)));
}

// Under the error policy the pre-scan's rows are reused by the writing pass only when no output
// byte is a later row's input: in place, out of place and with the bias column inside dst (the
// rows recomputed after each store) all give the row-by-row values.
TEST(ScalarActivationRange, ErrorPolicyInPlaceAndOverlappingBiasKeepRowOrder) {
  CoreConfig cfg;
  cfg.activation_out_of_range = OutOfRange::error;
  NeuronCore nc(cfg);
  const int P = 128, F = 5;
  std::vector<float> v(P * F);
  for (int i = 0; i < P * F; ++i) v[static_cast<std::size_t>(i)] = 0.25f + static_cast<float>(i % 37);
  const Tile s = nc.sbuf().alloc(DType::f32, P, {F}, "s");
  const Tile d = nc.sbuf().alloc(DType::f32, P, {F}, "d");
  poke(s, v);
  nc.activation(d, s, ActFunc::sqrt, 0.0f, 2.0f);
  const std::vector<float> out = read(d);
  for (int i = 0; i < P * F; ++i)
    ASSERT_EQ(out[static_cast<std::size_t>(i)], static_cast<float>(std::sqrt(static_cast<double>(v[static_cast<std::size_t>(i)] * 2.0f))));
  nc.activation(s, s, ActFunc::sqrt, 0.0f, 2.0f);  // in place
  EXPECT_EQ(read(s), out);
  // bias = column 0 of dst itself, dst == src: row p reads its bias before writing it.
  poke(s, v);
  nc.activation(s, s, ActFunc::sqrt, s.cols(0, 1), 1.0f);
  const std::vector<float> biased = read(s);
  for (int p = 0; p < P; ++p)
    for (int f = 0; f < F; ++f) {
      const float x = v[static_cast<std::size_t>(p * F + f)], b = v[static_cast<std::size_t>(p * F)];
      ASSERT_EQ(biased[static_cast<std::size_t>(p * F + f)], static_cast<float>(std::sqrt(static_cast<double>(x * 1.0f + b))))
          << p << "," << f;
    }
}

TEST(ScalarActivationRange, ErrorPolicyThrowsBeforeWritingAnything) {
  CoreConfig cfg;
  cfg.activation_out_of_range = OutOfRange::error;
  NeuronCore nc(cfg);
  const int P = 64, F = 32;
  const Tile s = nc.sbuf().alloc(DType::f32, P, {F}, "s");
  const Tile d = nc.sbuf().alloc(DType::f32, P, {F}, "d");
  const Tile r = nc.sbuf().alloc(DType::f32, P, {1}, "r");
  std::vector<float> v(P * F, 1.0f);
  v[static_cast<std::size_t>(P * F - 1)] = 4.0f;  // the very last lane is outside sin's range
  poke(s, v);
  nc.memset(d, 7.0f);
  nc.memset(r, 7.0f);
  const auto before_d = raw_bytes(d), before_r = raw_bytes(r);
  const auto count = nc.instruction_count();
  const auto traced = nc.trace().instructions.size();
  expect_error<UsageError>([&] { nc.activation(d, s, ActFunc::sin, 0.0f, 1.0f, &r); },
                           {"activation", "'src'", "4", "partition 63", "element 31", "sin", "3.14159274"});
  EXPECT_EQ(raw_bytes(d), before_d);
  EXPECT_EQ(raw_bytes(r), before_r);
  EXPECT_EQ(nc.instruction_count(), count);
  EXPECT_EQ(nc.trace().instructions.size(), traced);
  // Full-range functions never throw, and NaN inputs are not "out of range".
  v[0] = kNaN;
  poke(s, v);
  nc.activation(d, s, ActFunc::exp);
  v[static_cast<std::size_t>(P * F - 1)] = 1.0f;
  poke(s, v);
  nc.activation(d, s, ActFunc::sin);
  EXPECT_TRUE(std::isnan(read(d)[0]));
  EXPECT_FLOAT_EQ(read(d)[1], std::sin(1.0f));
}

// ---- operand checks -----------------------------------------------------------------------------

TEST(ScalarActivationChecks, OperandsScaleBiasAndReduceDst) {
  NeuronCore nc;
  const Tile s = nc.sbuf().alloc(DType::f32, 64, {16}, "s");
  const Tile d = nc.sbuf().alloc(DType::f32, 64, {16}, "d");
  nc.memset(d, 1.0f);
  const auto before = raw_bytes(d);
  const Tile d32 = nc.sbuf().alloc(DType::f32, 32, {16}, "d32");
  const Tile d15 = nc.sbuf().alloc(DType::f32, 64, {15}, "d15");
  const Tile mis = nc.sbuf().alloc(DType::f32, 64, {16}, "mis", 32);
  const Tile scale_bf = nc.sbuf().alloc(DType::bf16, 64, {1}, "scale_bf");
  const Tile bias_tf = nc.sbuf().alloc(DType::tf32, 64, {1}, "bias_tf");
  const Tile col2 = nc.sbuf().alloc(DType::f32, 64, {2}, "col2");
  const Tile col32 = nc.sbuf().alloc(DType::f32, 32, {1}, "col32");
  HbmTensor h(DType::f32, {64, 16});
  expect_error<LimitError>([&] { nc.activation(d32, s, ActFunc::exp); }, {"activation", "'dst'", "partitions", "32", "64"});
  expect_error<LimitError>([&] { nc.activation(d15, s, ActFunc::exp); }, {"activation", "'dst'", "free size", "15", "16"});
  expect_error<LimitError>([&] { nc.activation(d, mis, ActFunc::exp); }, {"activation", "'src'", "partition start", "32"});
  expect_error<UsageError>([&] { nc.activation(d, h.tile(0, 64, 0, 16), ActFunc::exp); }, {"activation", "'src'", "HBM"});
  expect_error<UsageError>([&] { nc.activation(d, s, ActFunc::exp, 0.0f, scale_bf); }, {"activation", "'scale'", "float32"});
  expect_error<UsageError>([&] { nc.activation(d, s, ActFunc::exp, bias_tf); }, {"activation", "'bias'", "tfloat32"});
  expect_error<LimitError>([&] { nc.activation(d, s, ActFunc::exp, col2); }, {"activation", "'bias'", "free size", "2", "1"});
  expect_error<LimitError>([&] { nc.activation(d, s, ActFunc::exp, 0.0f, col32); }, {"activation", "'scale'", "partitions", "32", "64"});
  expect_error<LimitError>([&] { nc.activation(d, s, ActFunc::exp, 0.0f, 1.0f, &col2); }, {"activation", "'reduce_dst'", "free size", "2", "1"});
  expect_error<LimitError>([&] { nc.activation(d, s, ActFunc::exp, 0.0f, 1.0f, &col32); }, {"activation", "'reduce_dst'", "partitions"});
  // ScalarE free-size limits are VectorE's: 4K elements from PSUM.
  const Tile big = nc.psum().alloc(DType::bf16, 64, {5000}, "big");
  const Tile big_sb = nc.sbuf().alloc(DType::bf16, 64, {5000}, "big_sb");
  expect_error<LimitError>([&] { nc.activation(big_sb, big, ActFunc::exp); }, {"activation", "'src'", "5000", "4096"});
  EXPECT_EQ(raw_bytes(d), before);
  EXPECT_EQ(nc.trace().instructions.size(), 1u);  // only the memset
}

}  // namespace
