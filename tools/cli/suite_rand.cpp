// Validation and benchmark suite "rand": trnrand's Philox against the Random123 known-answer
// vectors and cuRAND's host-generator streams (values observed with curandCreateGeneratorHost,
// docs/trnrand.md section 5), through the emulated GpSimd kernels and the host path;
// Kolmogorov-Smirnov checks for Philox, XORWOW, MRG32K3A, MT19937, SOBOL32 and SOBOL64 and SOBOL32's
// net property.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "philox_kat.hpp"
#include "registry.hpp"
#include "trn/core/philox.hpp"
#include "trnrand.h"

namespace trnsci::cli {
namespace {

struct Generator {
  trnrandGenerator_t g = nullptr;
  explicit Generator(bool emulated, unsigned long long seed) {
    const trnrandStatus_t st = emulated ? trnrandCreateGenerator(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10)
                                        : trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10);
    if (st != TRNRAND_STATUS_SUCCESS) throw std::runtime_error("trnrandCreateGenerator failed");
    trnrandSetPseudoRandomGeneratorSeed(g, seed);
  }
  ~Generator() { trnrandDestroyGenerator(g); }
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;
  DeviceCost cost() const {
    trnProfile_t p{};
    trnrandGetLastProfile(g, &p);
    trn::Profile q;
    q.target = static_cast<trn::Generation>(p.target);
    q.total_ns = p.total_ns;
    for (int e = 0; e < trn::kEngineCount; ++e) q.busy_ns[e] = p.busy_ns[e];
    return DeviceCost::from(q);
  }
};

void check(trnrandStatus_t st, const char* what) {
  if (st != TRNRAND_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + " failed");
}

// Random123 kat_vectors, philox4x32 10 rounds (Salmon et al., SC '11).
CaseResult philox_kats() {
  CaseResult r;
  int bad = 0;
  for (const auto& k : trnsci_reference::kPhilox4x32_10Kats) bad += trn::philox4x32_10(k.counter, k.key) != k.output;
  r.measured = bad;
  r.bound = 0;
  r.pass = bad == 0;
  r.note = "3 Random123 known-answer vectors";
  return r;
}

// cuRAND host generator, offset 0 (observed cuRAND 10.4 output, docs/trnrand.md section 5).
struct CurandRow {
  unsigned long long seed;
  std::uint32_t u32[8];
  float uniform[8];
  float normal[8];
  double uniform_double[4];
};
const CurandRow kCurand[] = {
    {0,
     {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8, 0x844515e1, 0xf08d6eaa, 0x0f19c053, 0x83f875f0},
     {0.399046481f, 0.880520225f, 0.735712767f, 0.605481863f, 0.516679168f, 0.939658105f, 0.0589866824f, 0.515509963f},
     {-0.924662411f, 0.991137743f, -0.482068747f, -0.617608845f, -0.425343931f, 1.06759024f, -0.231497049f, -2.36797309f},
     {0.88052026840093833, 0.60548199590756147, 0.36209148823981657, 0.037093813105142315}},
    {1234,
     {0x2090b348, 0xda7cf0ab, 0x4401906f, 0xcbca470e, 0xd115a128, 0x52fc7c75, 0xc7f33f17, 0x0f1539db},
     {0.12720795f, 0.853468955f, 0.265648872f, 0.796055257f, 0.816736281f, 0.324165136f, 0.781055391f, 0.0589176342f},
     {-1.61649048f, 1.22915542f, -1.56054044f, 0.464621365f, 0.568455219f, -0.285896361f, 0.254342854f, 0.655383945f},
     {0.85346899543001431, 0.79605514883270523, 0.11227557330034327, 0.080060631323720377}},
};

// ulp distance between two floats of the same sign class.
double ulps(float a, float b) {
  std::int32_t ia, ib;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  if (ia < 0) ia = std::numeric_limits<std::int32_t>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<std::int32_t>::min() - ib;
  return std::fabs(static_cast<double>(ia) - static_cast<double>(ib));
}

CaseResult curand_identity(const std::string& what, bool emulated) {
  const double t0 = now_seconds();
  CaseResult r;
  double worst = 0;  // mismatches (exact outputs) or max ulp (normal)
  for (const CurandRow& row : kCurand) {
    Generator g(emulated, row.seed);
    if (what == "u32") {
      unsigned int out[8];
      check(trnrandGenerate(g.g, out, 8), "trnrandGenerate");
      for (int i = 0; i < 8; ++i) worst += out[i] != row.u32[i];
    } else if (what == "uniform") {
      float out[8];
      check(trnrandGenerateUniform(g.g, out, 8), "trnrandGenerateUniform");
      for (int i = 0; i < 8; ++i) worst += out[i] != row.uniform[i];
    } else if (what == "uniform_double") {
      double out[4];
      check(trnrandGenerateUniformDouble(g.g, out, 4), "trnrandGenerateUniformDouble");
      for (int i = 0; i < 4; ++i) worst += out[i] != row.uniform_double[i];
    } else {
      float out[8];
      check(trnrandGenerateNormal(g.g, out, 8, 0.0f, 1.0f), "trnrandGenerateNormal");
      // The published vectors carry 9 significant digits: compare within 3 ulp plus print rounding.
      for (int i = 0; i < 8; ++i) worst = std::max(worst, ulps(out[i], row.normal[i]));
    }
    if (emulated) r.device = g.cost();
  }
  r.measured = worst;
  r.bound = what == "normal" ? 3 : 0;
  r.pass = r.measured <= r.bound;
  r.note = what == "normal" ? "max ulp vs cuRAND (glibc logf/sincosf on the reference side)" : "mismatches vs cuRAND";
  r.host_seconds = seconds_since(t0);
  return r;
}

// Kolmogorov-Smirnov statistic of n uniforms vs U(0,1]: Philox on the emulated kernel, or a host
// generator of another cuRAND type (XORWOW, MRG32K3A, MT19937, SOBOL32 / SOBOL64 with one dimension).
CaseResult ks_uniform(std::size_t n, trnrandRngType_t type = TRNRAND_RNG_PSEUDO_PHILOX4_32_10) {
  const double t0 = now_seconds();
  const bool philox = type == TRNRAND_RNG_PSEUDO_PHILOX4_32_10;
  Generator g(true, 20261122);
  trnrandGenerator_t other = nullptr;
  if (!philox) {
    check(trnrandCreateGeneratorHost(&other, type), "trnrandCreateGeneratorHost");
    if (type == TRNRAND_RNG_PSEUDO_XORWOW || type == TRNRAND_RNG_PSEUDO_MRG32K3A || type == TRNRAND_RNG_PSEUDO_MT19937)
      trnrandSetPseudoRandomGeneratorSeed(other, 20261122);
  }
  std::vector<float> v(n);
  const trnrandStatus_t st = trnrandGenerateUniform(philox ? g.g : other, v.data(), n);
  if (other != nullptr) trnrandDestroyGenerator(other);
  check(st, "trnrandGenerateUniform");
  std::sort(v.begin(), v.end());
  double d = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double f = v[i];
    d = std::max({d, std::fabs(f - static_cast<double>(i) / n), std::fabs(static_cast<double>(i + 1) / n - f)});
  }
  CaseResult r;
  r.measured = d * std::sqrt(static_cast<double>(n));
  r.bound = 1.63;  // Kolmogorov distribution: P(sqrt(n) D > 1.63) = 1%
  r.pass = r.measured <= r.bound;
  r.note = "sqrt(n) D_n; 1% critical value 1.63";
  r.host_seconds = seconds_since(t0);
  if (philox) r.device = g.cost();
  return r;
}

// SOBOL32's net property (Sobol 1967; Niederreiter, "Random Number Generation and Quasi-Monte Carlo
// Methods", SIAM 1992, ch. 4): the first 2^k points of every one-dimensional projection put exactly
// one point in each interval [j 2^-k, (j + 1) 2^-k). Measured: the largest |count - 1| over the
// intervals of each of `dims` dimensions.
CaseResult sobol_net(unsigned dims, unsigned k) {
  const double t0 = now_seconds();
  trnrandGenerator_t g = nullptr;
  check(trnrandCreateGeneratorHost(&g, TRNRAND_RNG_QUASI_SOBOL32), "trnrandCreateGeneratorHost");
  const std::size_t points = std::size_t{1} << k;
  std::vector<unsigned int> x(points * dims);
  trnrandStatus_t st = trnrandSetQuasiRandomGeneratorDimensions(g, dims);
  if (st == TRNRAND_STATUS_SUCCESS) st = trnrandGenerate(g, x.data(), x.size());
  trnrandDestroyGenerator(g);
  check(st, "trnrandGenerate (SOBOL32)");
  long worst = 0;
  for (unsigned d = 0; d < dims; ++d) {
    std::vector<long> count(points, 0);
    for (std::size_t j = 0; j < points; ++j) ++count[x[d * points + j] >> (32 - k)];
    for (long c : count) worst = std::max(worst, std::labs(c - 1));
  }
  CaseResult r;
  r.measured = static_cast<double>(worst);
  r.bound = 0;
  r.pass = worst == 0;
  r.note = "max |points per interval - 1| over 2^k intervals of each dimension";
  r.host_seconds = seconds_since(t0);
  return r;
}

void add_rand(Registry& reg) {
  auto add = [&](ValidationCase c) {
    c.suite = "rand";
    c.library = "trnrand";
    reg.add(std::move(c));
  };
  add({.op = "philox4x32_10", .mode = "pure function", .shape = "3 KATs", .metric = "bit_exact",
       .bound_text = "0 mismatches", .experiment = "Random123 kat_vectors", .run = philox_kats});
  for (bool emulated : {true, false})
    for (const char* what : {"u32", "uniform", "uniform_double", "normal"}) {
      const std::string mode = std::string(emulated ? "GpSimd kernel" : "host path") + ", " + what;
      add({.op = "curand_stream", .mode = mode, .shape = "seeds 0, 1234", .metric = std::string(what) == "normal" ? "ulp" : "bit_exact",
           .bound_text = std::string(what) == "normal" ? "<= 3 ulp (glibc transcendental differences)" : "0 mismatches",
           .experiment = "cuRAND host generator, PHILOX4_32_10", .run = [what, emulated] { return curand_identity(what, emulated); }});
    }
  for (std::size_t n : {std::size_t{1} << 16, std::size_t{1} << 22})
    add({.op = "uniform", .mode = "GpSimd kernel", .shape = std::to_string(n) + " values", .metric = "ks_statistic",
         .bound_text = "sqrt(n) D <= 1.63 (1% level)", .size = static_cast<double>(n), .full_only = n > (1u << 16),
         .run = [n] { return ks_uniform(n); }});
  add({.op = "uniform", .mode = "host path, XORWOW", .shape = "65536 values", .metric = "ks_statistic",
       .bound_text = "sqrt(n) D <= 1.63 (1% level)", .size = 65536.0,
       .run = [] { return ks_uniform(std::size_t{1} << 16, TRNRAND_RNG_PSEUDO_XORWOW); }});
  // 2^18 values: more than one step of each of MRG32K3A's 81920 thread streams.
  add({.op = "uniform", .mode = "host path, MRG32K3A", .shape = "262144 values", .metric = "ks_statistic",
       .bound_text = "sqrt(n) D <= 1.63 (1% level)", .size = 262144.0,
       .run = [] { return ks_uniform(std::size_t{1} << 18, TRNRAND_RNG_PSEUDO_MRG32K3A); }});
  add({.op = "uniform", .mode = "host path, SOBOL32", .shape = "65536 points", .metric = "ks_statistic",
       .bound_text = "sqrt(n) D <= 1.63 (1% level)", .size = 65536.0,
       .run = [] { return ks_uniform(std::size_t{1} << 16, TRNRAND_RNG_QUASI_SOBOL32); }});
  add({.op = "uniform", .mode = "host path, SOBOL64", .shape = "65536 points", .metric = "ks_statistic",
       .bound_text = "sqrt(n) D <= 1.63 (1% level)", .size = 65536.0,
       .run = [] { return ks_uniform(std::size_t{1} << 16, TRNRAND_RNG_QUASI_SOBOL64); }});
  // 2^16 values: all 8192 of MT19937's streams (2^2048 apart, set up by jump ahead).
  add({.op = "uniform", .mode = "host path, MT19937", .shape = "65536 values", .metric = "ks_statistic",
       .bound_text = "sqrt(n) D <= 1.63 (1% level)", .size = 65536.0,
       .run = [] { return ks_uniform(std::size_t{1} << 16, TRNRAND_RNG_PSEUDO_MT19937); }});
  add({.op = "sobol_net", .mode = "host path, SOBOL32", .shape = "2^12 points x 1000 dims", .metric = "count",
       .bound_text = "exactly one point per interval", .size = 4096.0 * 1000,
       .run = [] { return sobol_net(1000, 12); }});

  for (bool emulated : {true, false})
    reg.add(BenchCase{.suite = "rand", .library = "trnrand", .op = "uniform", .variant = emulated ? "kernel" : "host",
                      .shape = "2^22", .run = [emulated](trn::Generation target) {
                        Generator g(emulated, 7);
                        trnrandSetGeneratorTarget(g.g, static_cast<trnTarget_t>(target));
                        std::vector<float> v(std::size_t{1} << 22);
                        const double t0 = now_seconds();
                        check(trnrandGenerateUniform(g.g, v.data(), v.size()), "trnrandGenerateUniform");
                        BenchResult b;
                        b.host_seconds = seconds_since(t0);
                        double mean = 0;
                        for (float x : v) mean += x;
                        b.error = std::fabs(mean / v.size() - 0.5);
                        b.error_metric = "|mean - 0.5|";
                        if (emulated) b.device = g.cost();
                        return b;
                      }});
  // SOBOL64 on the engines (sobol_gray_xor, one 32-bit half per partition): 2^22 words of 64 dimensions.
  reg.add(BenchCase{.suite = "rand", .library = "trnrand", .op = "long_long", .variant = "kernel, SOBOL64 x 64 dims",
                    .shape = "2^22", .run = [](trn::Generation target) {
                      trnrandGenerator_t g = nullptr;
                      check(trnrandCreateGenerator(&g, TRNRAND_RNG_QUASI_SOBOL64), "trnrandCreateGenerator");
                      trnrandSetGeneratorTarget(g, static_cast<trnTarget_t>(target));
                      std::vector<unsigned long long> v(std::size_t{1} << 22);
                      const double t0 = now_seconds();
                      trnrandStatus_t st = trnrandSetQuasiRandomGeneratorDimensions(g, 64);
                      if (st == TRNRAND_STATUS_SUCCESS) st = trnrandGenerateLongLong(g, v.data(), v.size());
                      BenchResult b;
                      b.host_seconds = seconds_since(t0);
                      trnProfile_t p{};
                      trnrandGetLastProfile(g, &p);
                      trnrandDestroyGenerator(g);
                      check(st, "trnrandGenerateLongLong (SOBOL64)");
                      // Dimension 1 is van der Corput's: its 65536 points are j 2^48 bit-reversed, mean exactly 0.5 - 2^-17.
                      double mean = 0;
                      for (std::size_t j = 0; j < v.size() / 64; ++j) mean += static_cast<double>(v[j]) * 0x1p-64;
                      b.error = std::fabs(mean / static_cast<double>(v.size() / 64) - (0.5 - 0x1p-17));
                      b.error_metric = "|mean of dimension 1 - (1/2 - 2^-17)|";
                      trn::Profile q;
                      q.target = static_cast<trn::Generation>(p.target);
                      q.total_ns = p.total_ns;
                      for (int e = 0; e < trn::kEngineCount; ++e) q.busy_ns[e] = p.busy_ns[e];
                      b.device = DeviceCost::from(q);
                      return b;
                    }});
}

const Registrar kRegistrar(add_rand);

}  // namespace
}  // namespace trnsci::cli
