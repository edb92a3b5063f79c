// Validation and benchmark suite "rand": trnrand's Philox against the Random123 known-answer
// vectors and cuRAND's host-generator streams (values observed with curandCreateGeneratorHost,
// docs/trnrand.md section 5), through the emulated GpSimd kernels and the host path;
// Kolmogorov-Smirnov and chi-square checks for Philox, XORWOW, MRG32K3A, MT19937, SOBOL32 and SOBOL64
// (each path), SOBOL32's net property and star discrepancy; modeled device time of each generator's
// kernel (bench).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "philox_kat.hpp"
#include "registry.hpp"
#include "trn/core/philox.hpp"
#include "trn/rand/discrete.hpp"
#include "trnrand.h"

namespace trnsci::cli {
namespace {

bool is_quasi(trnrandRngType_t type) {
  return type == TRNRAND_RNG_QUASI_SOBOL32 || type == TRNRAND_RNG_QUASI_SOBOL64 || type == TRNRAND_RNG_QUASI_DEFAULT;
}

// A generator of one cuRAND type on the engines (emulated) or the host path; pseudo-random ones
// seeded, quasi-random ones with one dimension.
struct Generator {
  trnrandGenerator_t g = nullptr;
  explicit Generator(bool emulated, unsigned long long seed, trnrandRngType_t type = TRNRAND_RNG_PSEUDO_PHILOX4_32_10) {
    const trnrandStatus_t st = emulated ? trnrandCreateGenerator(&g, type) : trnrandCreateGeneratorHost(&g, type);
    if (st != TRNRAND_STATUS_SUCCESS) throw std::runtime_error("trnrandCreateGenerator failed");
    if (!is_quasi(type)) trnrandSetPseudoRandomGeneratorSeed(g, seed);
  }
  ~Generator() { trnrandDestroyGenerator(g); }
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;
  DeviceCost cost() const {
    trnProfile_t p{};
    trnrandGetLastProfile(g, &p);
    return DeviceCost::from(p);
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

// Kolmogorov-Smirnov statistic of n uniforms vs U(0,1] from a generator of any cuRAND type (SOBOL32 /
// SOBOL64 with one dimension), on the engines or the host path.
CaseResult ks_uniform(std::size_t n, trnrandRngType_t type = TRNRAND_RNG_PSEUDO_PHILOX4_32_10, bool emulated = true) {
  const double t0 = now_seconds();
  Generator g(emulated, 20261122, type);
  std::vector<float> v(n);
  check(trnrandGenerateUniform(g.g, v.data(), n), "trnrandGenerateUniform");
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
  if (emulated) r.device = g.cost();
  return r;
}

// Pearson's chi-square of n float uniforms in `bins` equal bins of (0, 1] against the upper 1%
// point of chi-square with bins - 1 degrees of freedom (Wilson and Hilferty's cube-root
// approximation, Proc. Natl. Acad. Sci. 17, 684-688, 1931: accurate to well under 1% here). Only
// the upper tail is tested: a quasi-random sequence is far more even than chance (chi-square near 0).
CaseResult chi2_uniform(std::size_t n, trnrandRngType_t type, bool emulated) {
  const double t0 = now_seconds();
  Generator g(emulated, 20261128, type);
  std::vector<float> v(n);
  check(trnrandGenerateUniform(g.g, v.data(), n), "trnrandGenerateUniform");
  constexpr std::size_t kBins = 1024;
  std::vector<double> count(kBins, 0.0);
  for (const float x : v) ++count[std::min(kBins - 1, static_cast<std::size_t>(static_cast<double>(x) * kBins))];
  const double expected = static_cast<double>(n) / kBins;
  double chi2 = 0;
  for (const double c : count) chi2 += (c - expected) * (c - expected) / expected;
  const double k = kBins - 1, z99 = 2.3263478740;
  const double h = 2.0 / (9.0 * k);
  CaseResult r;
  r.measured = chi2;
  r.bound = k * std::pow(1.0 - h + z99 * std::sqrt(h), 3.0);
  r.pass = r.measured <= r.bound;
  r.note = "chi-square, 1024 bins (1023 dof); upper 1% point";
  r.host_seconds = seconds_since(t0);
  if (emulated) r.device = g.cost();
  return r;
}

// Exact star discrepancy D*_N of the first N = 2^m points of SOBOL32's dimensions 1 and 2 (words
// x 2^-32): the supremum over anchored boxes [0, a) x [0, b) of |#points inside / N - ab|, attained
// at coordinates of the points (or 1) with closed or open boxes, so evaluated over those in O(N^2)
// (for each x threshold, a sweep over the sorted y's of the points left of it). The two
// dimensions form a (0, m, 2)-net in base 2 (Sobol 1967; the net check below tests every
// dimension's projection), and for a (0, m, 2)-net every anchored box lies between two staircases
// of elementary intervals of area 2^-m that differ by at most m + 1 of them (Niederreiter 1992,
// ch. 4, the argument behind Theorem 4.10), so N D*_N <= m + 1; random points give about sqrt(N).
CaseResult sobol_star_discrepancy(unsigned m) {
  const double t0 = now_seconds();
  trnrandGenerator_t g = nullptr;
  check(trnrandCreateGeneratorHost(&g, TRNRAND_RNG_QUASI_SOBOL32), "trnrandCreateGeneratorHost");
  const std::size_t n = std::size_t{1} << m;
  std::vector<unsigned int> w(2 * n);
  trnrandStatus_t st = trnrandSetQuasiRandomGeneratorDimensions(g, 2);
  if (st == TRNRAND_STATUS_SUCCESS) st = trnrandGenerate(g, w.data(), w.size());
  trnrandDestroyGenerator(g);
  check(st, "trnrandGenerate (SOBOL32, 2 dimensions)");
  std::vector<std::pair<double, double>> pts(n);
  for (std::size_t i = 0; i < n; ++i) pts[i] = {w[i] * 0x1p-32, w[n + i] * 0x1p-32};
  std::sort(pts.begin(), pts.end());
  std::vector<double> ys;
  for (const auto& p : pts) ys.push_back(p.second);
  ys.push_back(1.0);
  std::sort(ys.begin(), ys.end());
  std::vector<double> left;  // y's of the points with x < a (sorted)
  double worst = 0;
  const auto nd = static_cast<double>(n);
  for (std::size_t j = 0; j <= n; ++j) {
    const double a = j < n ? pts[j].first : 1.0;
    // Open box [0, a) x [0, b): points with x < a (`left`) and y < b; closed: also the point at a.
    std::vector<double> closed = left;
    if (j < n) closed.insert(std::upper_bound(closed.begin(), closed.end(), pts[j].second), pts[j].second);
    std::size_t open_count = 0, closed_count = 0;
    for (const double b : ys) {
      while (open_count < left.size() && left[open_count] < b) ++open_count;
      while (closed_count < closed.size() && closed[closed_count] <= b) ++closed_count;
      worst = std::max({worst, a * b - static_cast<double>(open_count) / nd, static_cast<double>(closed_count) / nd - a * b});
    }
    left = std::move(closed);
  }
  CaseResult r;
  r.measured = worst * nd;
  r.bound = m + 1.0;
  r.pass = r.measured <= r.bound;
  r.note = "N D*_N of dimensions 1, 2; (0, m, 2)-net bound m + 1 (random points: about sqrt(N))";
  r.host_seconds = seconds_since(t0);
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
  return exact_result(static_cast<double>(worst), "max |points per interval - 1| over 2^k intervals of each dimension",
                      seconds_since(t0));
}

// trnrandCreatePoissonDistribution's histogram sampled with 2^20 host Philox words as cuRAND's
// curand_discrete does (trn::rand::discrete_sample): sqrt(n) times the Kolmogorov distance of the
// samples from the exact Poisson(lambda) cdf (long double pmf exp(k log l - l - lgamma(k + 1))).
CaseResult poisson_distribution_ks(double lambda) {
  constexpr std::size_t n = std::size_t{1} << 20;
  Generator gen(false, 2026);
  std::vector<unsigned int> words(n);
  check(trnrandGenerate(gen.g, words.data(), n), "trnrandGenerate");
  trnrandDiscreteDistribution_t d = nullptr;
  check(trnrandCreatePoissonDistribution(lambda, &d), "trnrandCreatePoissonDistribution");
  const auto kmax = static_cast<std::size_t>(lambda + 40.0 * std::sqrt(lambda) + 40.0);
  std::vector<double> count(kmax + 1, 0.0);
  for (const unsigned int w : words) count[std::min<std::size_t>(trn::rand::discrete_sample(d->dist, w), kmax)] += 1.0;
  check(trnrandDestroyDistribution(d), "trnrandDestroyDistribution");
  long double cdf = 0, emp = 0, dist = 0;
  const long double ll = std::log(static_cast<long double>(lambda));
  for (std::size_t k = 0; k < kmax; ++k) {
    const long double kk = static_cast<long double>(k);
    cdf += std::exp(kk * ll - static_cast<long double>(lambda) - std::lgamma(kk + 1.0L));
    emp += count[k] / static_cast<long double>(n);
    dist = std::max(dist, std::fabs(emp - cdf));
  }
  CaseResult r;
  r.measured = static_cast<double>(std::sqrt(static_cast<long double>(n)) * dist);
  r.bound = 1.63;
  r.pass = r.measured <= r.bound;
  r.note = "Kolmogorov 1% point (conservative for a discrete law)";
  return r;
}

void add_rand(Registry& reg) {
  auto add = reg.adder("rand", "trnrand");
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
  // Every generator type on each of its paths: KS and chi-square of its float uniforms. 2^18 values
  // cover more than one step of each of MRG32K3A's 81920 thread streams; 2^16 all 8192 of MT19937's
  // streams (2^2048 apart, set up by jump ahead); SOBOL32 / SOBOL64 with one dimension.
  struct TypeCase {
    trnrandRngType_t type;
    const char* name;
    std::size_t n;
    bool engines;
  };
  constexpr TypeCase kTypes[] = {
      {TRNRAND_RNG_PSEUDO_PHILOX4_32_10, "PHILOX4_32_10", std::size_t{1} << 18, true},
      {TRNRAND_RNG_PSEUDO_XORWOW, "XORWOW", std::size_t{1} << 18, true},
      {TRNRAND_RNG_PSEUDO_MRG32K3A, "MRG32K3A", std::size_t{1} << 18, true},
      {TRNRAND_RNG_PSEUDO_MT19937, "MT19937", std::size_t{1} << 16, true},
      {TRNRAND_RNG_PSEUDO_MTGP32, "MTGP32", std::size_t{1} << 18, true},
      {TRNRAND_RNG_QUASI_SOBOL32, "SOBOL32", std::size_t{1} << 16, true},
      {TRNRAND_RNG_QUASI_SOBOL64, "SOBOL64", std::size_t{1} << 16, true},
  };
  for (const TypeCase& t : kTypes)
    for (const bool emulated : {false, true}) {
      if (emulated && !t.engines) continue;
      if (t.type == TRNRAND_RNG_PSEUDO_PHILOX4_32_10 && emulated) continue;  // the KS cases above
      const std::string mode = std::string(emulated ? "engines, " : "host path, ") + t.name;
      const std::string shape = std::to_string(t.n) + (is_quasi(t.type) ? " points" : " values");
      add({.op = "uniform", .mode = mode, .shape = shape, .metric = "ks_statistic",
           .bound_text = "sqrt(n) D <= 1.63 (1% level)", .size = static_cast<double>(t.n),
           .run = [t, emulated] { return ks_uniform(t.n, t.type, emulated); }});
    }
  for (const TypeCase& t : kTypes)
    add({.op = "uniform_chi2", .mode = std::string(t.engines ? "engines, " : "host path, ") + t.name,
         .shape = std::to_string(t.n) + " values, 1024 bins", .metric = "chi_square",
         .bound_text = "<= upper 1% point of chi2(1023)", .size = static_cast<double>(t.n),
         .run = [t] { return chi2_uniform(t.n, t.type, t.engines); }});
  for (const double lambda : {10.0, 1000.5})
    add({.op = "poisson_distribution", .mode = "host path, PHILOX4_32_10 words",
         .shape = std::string("2^20 samples, lambda ") + (lambda == 10.0 ? "10" : "1000.5"), .metric = "ks_statistic",
         .bound_text = "sqrt(n) D <= 1.63 (1% level)", .size = static_cast<double>(std::size_t{1} << 20),
         .run = [lambda] { return poisson_distribution_ks(lambda); }});
  add({.op = "star_discrepancy", .mode = "host path, SOBOL32", .shape = "2^12 points, dimensions 1-2", .metric = "N D*_N",
       .bound_text = "N D* <= m + 1 = 13 ((0, m, 2)-net)", .size = 4096.0,
       .run = [] { return sobol_star_discrepancy(12); }});
  add({.op = "sobol_net", .mode = "host path, SOBOL32", .shape = "2^12 points x 1000 dims", .metric = "count",
       .bound_text = "exactly one point per interval", .size = 4096.0 * 1000,
       .run = [] { return sobol_net(1000, 12); }});

  // 2^22 float uniforms per generator type: Philox on the engines and the host path; the other
  // types' kernels (XORWOW xorwow_slots, MRG32K3A mrg32k3a_slots, MT19937 mt19937_rows, MTGP32
  // mtgp32_rounds, SOBOL32
  // sobol_gray_xor with 128 dimensions) on the engines. MT19937's host time includes the jump
  // ahead of its 8192 streams on the first generator of seed 7 in the process (host set-up; later
  // generators of the seed copy the kept windows, docs/trnrand.md "Host speed of the stateful
  // kernels"), so with --repeat 2 the row is the warm generator's.
  struct BenchType {
    trnrandRngType_t type;
    const char* variant;
    bool emulated;
  };
  for (const BenchType& t : {BenchType{TRNRAND_RNG_PSEUDO_PHILOX4_32_10, "kernel", true},
                             BenchType{TRNRAND_RNG_PSEUDO_PHILOX4_32_10, "host", false},
                             BenchType{TRNRAND_RNG_PSEUDO_XORWOW, "kernel, XORWOW", true},
                             BenchType{TRNRAND_RNG_PSEUDO_MRG32K3A, "kernel, MRG32K3A", true},
                             BenchType{TRNRAND_RNG_PSEUDO_MT19937, "kernel, MT19937", true},
                             BenchType{TRNRAND_RNG_PSEUDO_MTGP32, "kernel, MTGP32", true},
                             BenchType{TRNRAND_RNG_QUASI_SOBOL32, "kernel, SOBOL32 x 128 dims", true}})
    reg.add(BenchCase{.suite = "rand", .library = "trnrand", .op = "uniform", .variant = t.variant,
                      .shape = "2^22", .run = [t](trn::Generation target) {
                        Generator g(t.emulated, 7, t.type);
                        trnrandSetGeneratorTarget(g.g, static_cast<trnTarget_t>(target));
                        if (is_quasi(t.type)) check(trnrandSetQuasiRandomGeneratorDimensions(g.g, 128), "dimensions");
                        std::vector<float> v(std::size_t{1} << 22);
                        const double t0 = now_seconds();
                        check(trnrandGenerateUniform(g.g, v.data(), v.size()), "trnrandGenerateUniform");
                        BenchResult b;
                        b.host_seconds = seconds_since(t0);
                        double mean = 0;
                        for (float x : v) mean += x;
                        b.error = std::fabs(mean / v.size() - 0.5);
                        b.error_metric = "|mean - 0.5|";
                        if (t.emulated) b.device = g.cost();
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
                      b.device = DeviceCost::from(p);
                      return b;
                    }});
}

const Registrar kRegistrar(add_rand);

}  // namespace
}  // namespace trnsci::cli
