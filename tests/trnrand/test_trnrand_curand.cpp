// trnrand against cuRAND's host generator (PHILOX4_32_10), from the stored reference vectors of
// data/curand_reference.txt (cuRAND 10.4, data/gen_curand_reference.cpp): several seeds and
// offsets (including the 65536-subsequence wrap at position 262144), odd counts, chained calls of
// mixed types, Poisson on both sides of cuRAND's lambda = 2000 switch, larger normal samples.
// Every record is replayed on both paths (emulated engines and vectorised host) through the C++
// API and the sequence through the C API.
//
// Expectations: uint32, uniform, uniform double, normal double, log-normal double and the Poisson
// histogram bit-exact; float normals and log-normals within the ulp bounds measured and
// documented in docs/trnrand.md 5 (the engines' fp32 sin/cos/log differ from glibc's sinf/cosf/logf
// in the last bits); the Poisson normal approximation equal unless a float normal's last bit moves
// it across an integer.
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>

#include "trn/rand/generator.hpp"
#include "trnrand.h"
#include "trnrand_test_util.hpp"

extern "C" int trnrand_c_out_of_range_enums(int* statuses);  // trnrand_c_header_check.c

namespace {

using trn::rand::Generator;
using trn::rand::GeneratorOptions;
using trn::rand::GeneratorPath;
using trnrand_test::RefCall;

const trnrand_test::RefFile& reference() {
  static const trnrand_test::RefFile f = trnrand_test::read_reference(trnrand_test::data_path("curand_reference.txt"));
  return f;
}

template <class T>
std::vector<std::uint64_t> to_bits(const std::vector<T>& v) {
  std::vector<std::uint64_t> b(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if constexpr (sizeof(T) == 8)
      b[i] = std::bit_cast<std::uint64_t>(v[i]);
    else
      b[i] = std::bit_cast<std::uint32_t>(v[i]);
  }
  return b;
}

// Runs one reference call on g (at g's current position) and returns the output bits at the
// indices the file stored (c.sample_indices()); `fnv` receives the FNV-1a 64 of all values.
std::vector<std::uint64_t> run_all(Generator& g, const RefCall& c);
std::vector<std::uint64_t> run(Generator& g, const RefCall& c, std::uint64_t* fnv = nullptr) {
  const auto all = run_all(g, c);
  if (fnv != nullptr) {  // the values' bytes in memory order, as the generator program hashed them
    if (trnrand_test::is_double_type(c.type)) {
      *fnv = trnrand_test::fnv1a64(all.data(), all.size() * 8);
    } else {
      std::vector<std::uint32_t> narrow(all.begin(), all.end());
      *fnv = trnrand_test::fnv1a64(narrow.data(), narrow.size() * 4);
    }
  }
  std::vector<std::uint64_t> sampled;
  for (const std::size_t i : c.sample_indices()) sampled.push_back(all[i]);
  return sampled;
}
std::vector<std::uint64_t> run_all(Generator& g, const RefCall& c) {
  const std::size_t n = c.n;
  if (c.type == "u32" || c.type == "poisson") {
    std::vector<std::uint32_t> v(n);
    if (c.type == "u32")
      g.generate(v);
    else
      g.poisson(v, c.p0);
    return to_bits(v);
  }
  if (c.type == "uniform" || c.type == "normal" || c.type == "log_normal") {
    std::vector<float> v(n);
    if (c.type == "uniform")
      g.uniform(v);
    else if (c.type == "normal")
      g.normal(v, static_cast<float>(c.p0), static_cast<float>(c.p1));
    else
      g.log_normal(v, static_cast<float>(c.p0), static_cast<float>(c.p1));
    return to_bits(v);
  }
  std::vector<double> v(n);
  if (c.type == "uniform_double")
    g.uniform_double(v);
  else if (c.type == "normal_double")
    g.normal_double(v, c.p0, c.p1);
  else
    g.log_normal_double(v, c.p0, c.p1);
  return to_bits(v);
}

float as_float(std::uint64_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b)); }

double ulp_of(float x) {
  const float a = std::fabs(x);
  return static_cast<double>(std::nextafter(a, std::numeric_limits<float>::infinity()) - a);
}

// Float Box–Muller outputs against cuRAND's. The unscaled normal z differs by at most 3 ulp
// (measured, docs/trnrand.md 5); mean + stddev z then takes the same two fp32 roundings as cuRAND,
// so |got - ref| <= stddev 3 ulp(z) + the roundings (2 ulp of the result), which in ulp of a
// result near zero (cancellation against the mean) can be many. Log-normal: exp turns the
// absolute error stddev |dz| into a relative one, <= 3 |stddev z| ulp plus exp's and the affine
// step's roundings.
bool box_muller_close(const std::string& type, float got, float ref, double mean, double stddev) {
  if (type == "normal") {
    const double z = (static_cast<double>(ref) - mean) / stddev;
    const double bound =
        stddev * 3.0 * ulp_of(static_cast<float>(z)) + 2.0 * ulp_of(ref) + 2.0 * ulp_of(static_cast<float>(mean));
    return std::fabs(static_cast<double>(got) - static_cast<double>(ref)) <= bound;
  }
  const double sz = std::fabs(std::log(static_cast<double>(ref)) - mean);  // |stddev z|
  return trnrand_test::ulp_distance(got, ref) <= static_cast<std::int64_t>(std::ceil(3.0 * sz)) + 3;
}

// Per-type comparison statistics.
struct Tally {
  std::size_t values = 0, exact = 0;
  std::int64_t max_ulp = 0;
  std::map<std::int64_t, std::size_t> histogram;
};

// Replays every call of a reference file on one path; returns the tallies per type. A fresh
// generator where the file created one (a new seed), SetGeneratorOffset exactly where the file
// called it (it also restarts cuRAND's per-thread counters), otherwise the calls chain.
std::map<std::string, Tally> replay(GeneratorPath path, bool check_chaining,
                                    const trnrand_test::RefFile& file = reference(), int every_kth_generator = 1) {
  std::map<std::string, Tally> tally;
  GeneratorOptions opt;
  opt.path = path;
  Generator g(opt);
  bool first = true;
  std::uint64_t current_seed = 0;
  int repositions = 0;
  int current_generator = -1;
  for (const RefCall& c : file.calls) {
    if ((c.generator_index - 1) % every_kth_generator != 0) continue;  // generators 1, 1 + k, 1 + 2k, ...
    if (first || c.seed != current_seed || (c.reset && c.generator_index != current_generator)) {
      current_generator = c.generator_index;
      g = Generator(opt);
      g.set_seed(c.seed);
      current_seed = c.seed;
      first = false;
    }
    if (c.reset) {
      g.set_offset(c.offset);
      ++repositions;
    }
    EXPECT_EQ(g.offset(), c.offset) << c.where << ": calls chain";
    std::uint64_t fnv = 0;
    const auto got = run(g, c, &fnv);
    EXPECT_EQ(g.offset(), c.offset + c.n) << c.where << ": the position advances by n";
    const bool bit_exact_type = c.type == "u32" || c.type == "uniform" || trnrand_test::is_double_type(c.type) ||
                                (c.type == "poisson" && c.p0 < trn::rand::kCurandPoissonNormalThreshold);
    if (c.has_fnv && bit_exact_type) {
      EXPECT_EQ(fnv, c.fnv) << c.where << " " << c.type << " n " << c.n << ": hash of all values";
    }
    EXPECT_EQ(got.size(), c.bits.size()) << c.where;
    Tally& t = tally[c.type];
    for (std::size_t i = 0; i < got.size(); ++i) {
      std::int64_t d = 0;
      if (c.type == "normal" || c.type == "log_normal") {
        EXPECT_TRUE(box_muller_close(c.type, as_float(got[i]), as_float(c.bits[i]), c.p0, c.p1))
            << c.where << " " << c.type << " element " << i << ": " << as_float(got[i]) << " vs "
            << as_float(c.bits[i]);
        d = trnrand_test::ulp_distance(as_float(got[i]), as_float(c.bits[i]));
        if (c.type == "normal" && (c.p0 != 0.0 || c.p1 != 1.0)) continue;  // ulp statistics of z itself only
      } else if (c.type == "poisson")
        d = std::llabs(static_cast<std::int64_t>(got[i]) - static_cast<std::int64_t>(c.bits[i]));
      else
        d = got[i] == c.bits[i] ? 0 : 1;
      ++t.values;
      if (d == 0) ++t.exact;
      t.max_ulp = std::max(t.max_ulp, d);
      ++t.histogram[d];
      if (c.type == "poisson" && c.p0 < trn::rand::kCurandPoissonNormalThreshold) {
        EXPECT_EQ(got[i], c.bits[i]) << c.where << " poisson lambda " << c.p0 << " element " << i;
      } else if (c.type != "normal" && c.type != "log_normal" && c.type != "poisson") {
        EXPECT_EQ(got[i], c.bits[i]) << c.where << " " << c.type << " element " << i << " (seed " << c.seed
                                     << ", offset " << c.offset << ")";
      }
      if (::testing::Test::HasFailure()) return tally;  // one report is enough
    }
  }
  if (check_chaining) {
    // The file repositions the generator only where it called SetGeneratorOffset; all other calls
    // must continue where the previous one stopped (chained calls of mixed types).
    EXPECT_LT(repositions, 200) << "positions did not chain across calls";
    EXPECT_LT(repositions, static_cast<int>(file.calls.size())) << "no chained calls";
  }
  return tally;
}

void report(const std::string& what, const std::map<std::string, Tally>& tally) {
  for (const auto& [type, t] : tally) {
    std::cout << "[ cuRAND  ] " << what << " " << type << ": " << t.exact << "/" << t.values << " identical, max "
              << t.max_ulp << (type == "poisson" ? " (absolute)" : " ulp") << ", histogram";
    for (const auto& [d, count] : t.histogram) std::cout << " " << d << ":" << count;
    std::cout << "\n";
  }
}

void expect_bounds(const std::map<std::string, Tally>& tally) {
  for (const char* exact : {"u32", "uniform", "uniform_double", "normal_double", "log_normal_double"}) {
    ASSERT_TRUE(tally.count(exact)) << exact;
    EXPECT_EQ(tally.at(exact).exact, tally.at(exact).values) << exact;
  }
  // Float Box–Muller (docs/trnrand.md 5): z = the unscaled normal within 3 ulp of cuRAND's (86%
  // identical); log-normals per element within box_muller_close's bound (measured here: <= 4 ulp,
  // 94% identical).
  EXPECT_LE(tally.at("normal").max_ulp, 3);
  EXPECT_GT(tally.at("normal").exact, tally.at("normal").values * 8 / 10);
  EXPECT_GT(tally.at("log_normal").exact, tally.at("log_normal").values * 8 / 10);
  // Poisson: the histogram method is exact (asserted per element); the normal approximation may
  // differ by one where a float normal's last bit crosses an integer.
  EXPECT_LE(tally.at("poisson").max_ulp, 1);
}

}  // namespace

TEST(TrnrandCurand, ReferenceFileIsComplete) {
  const auto& f = reference();
  EXPECT_GT(f.calls.size(), 100u);
  std::size_t values = 0;
  for (const auto& c : f.calls) {
    values += c.bits.size();
    ASSERT_FALSE(c.bits.empty()) << c.where;
  }
  EXPECT_GT(values, 80000u);
}

TEST(TrnrandCurand, TestVectorsOfCApiMd) {
  // Observed cuRAND 10.4 host-generator output (seed 0 and 1234, offset 0; docs/trnrand.md
  // section 5) on the host path.
  Generator g(GeneratorOptions{GeneratorPath::host, {}, {}});
  std::vector<std::uint32_t> u(8);
  g.generate(u);
  EXPECT_EQ(u, (std::vector<std::uint32_t>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u, 0x844515e1u, 0xf08d6eaau,
                                           0x0f19c053u, 0x83f875f0u}));
  g.set_seed(1234);
  g.set_offset(0);
  std::vector<double> d(4);
  g.uniform_double(d);
  EXPECT_EQ(d,
            (std::vector<double>{0.85346899543001431, 0.79605514883270523, 0.11227557330034327, 0.080060631323720377}));
  g.set_offset(0);
  g.normal_double(d, 0.0, 1.0);
  EXPECT_EQ(d,
            (std::vector<double>{-0.53952669590731883, 0.16063334644202293, 1.0081967077372695, 1.8322492478152392}));
}

TEST(TrnrandCurand, HostPathMatchesStoredVectors) {
  const auto tally = replay(GeneratorPath::host, true);
  report("host", tally);
  expect_bounds(tally);
}

TEST(TrnrandCurand, EnginePathMatchesStoredVectors) {
  const auto tally = replay(GeneratorPath::engines, true);
  report("engines", tally);
  expect_bounds(tally);
}

// Large calls (data/curand_reference_large.txt): n >= 2^20 up to 2^22 + 1, the sequence of the
// issue (seed 0, offset 1000003, every distribution in turn at n = 1048578), every distribution
// after every other one with its own seed and offset, and 2^22 chains with an offset reset. Bit-exact
// types are checked in full by the FNV-1a hash of all values, the others at the stored samples.
const trnrand_test::RefFile& reference_large() {
  static const trnrand_test::RefFile f =
      trnrand_test::read_reference(trnrand_test::data_path("curand_reference_large.txt"));
  return f;
}

TEST(TrnrandCurand, LargeCallsHostPathMatchStoredHashes) {
  ASSERT_GT(reference_large().calls.size(), 190u);
  const auto tally = replay(GeneratorPath::host, true, reference_large());
  report("host large", tally);
  expect_bounds(tally);
}

TEST(TrnrandCurand, LargeCallsEnginePathMatchStoredHashes) {
  // Every 4th generator of the file (the sequence, 20 of the 81 pairs, one 2^22 chain): the
  // engine path runs the same stream code as the host path (tested in TrnrandStreams) at a few
  // times its cost.
  const auto tally = replay(GeneratorPath::engines, true, reference_large(), 4);
  report("engines large", tally);
  expect_bounds(tally);
}

TEST(TrnrandCurand, CApiChainedCallsMatchStoredVectors) {
  // The chained section (seed 42) through the C API on both generator kinds: one generator, calls
  // in file order, SetGeneratorOffset only where the file does.
  for (const bool host : {true, false}) {
    trnrandGenerator_t g = nullptr;
    ASSERT_EQ(host ? trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10)
                   : trnrandCreateGenerator(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10),
              TRNRAND_STATUS_SUCCESS);
    ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(g, 42), TRNRAND_STATUS_SUCCESS);
    std::uint64_t pos = 0;
    int calls = 0;
    for (const RefCall& c : reference().calls) {
      if (c.seed != 42 || c.n > 100) continue;  // the chain (section 2 of the file)
      if (c.offset != pos) {
        ASSERT_EQ(trnrandSetGeneratorOffset(g, c.offset), TRNRAND_STATUS_SUCCESS);
      }
      const std::size_t n = c.bits.size();
      std::vector<std::uint64_t> got;
      if (c.type == "u32" || c.type == "poisson") {
        std::vector<unsigned int> v(n);
        ASSERT_EQ(c.type == "u32" ? trnrandGenerate(g, v.data(), n) : trnrandGeneratePoisson(g, v.data(), n, c.p0),
                  TRNRAND_STATUS_SUCCESS);
        got = to_bits(v);
      } else if (c.type == "uniform" || c.type == "normal" || c.type == "log_normal") {
        std::vector<float> v(n);
        const auto m = static_cast<float>(c.p0), s = static_cast<float>(c.p1);
        ASSERT_EQ(c.type == "uniform"  ? trnrandGenerateUniform(g, v.data(), n)
                  : c.type == "normal" ? trnrandGenerateNormal(g, v.data(), n, m, s)
                                       : trnrandGenerateLogNormal(g, v.data(), n, m, s),
                  TRNRAND_STATUS_SUCCESS);
        got = to_bits(v);
      } else {
        std::vector<double> v(n);
        ASSERT_EQ(c.type == "uniform_double"  ? trnrandGenerateUniformDouble(g, v.data(), n)
                  : c.type == "normal_double" ? trnrandGenerateNormalDouble(g, v.data(), n, c.p0, c.p1)
                                              : trnrandGenerateLogNormalDouble(g, v.data(), n, c.p0, c.p1),
                  TRNRAND_STATUS_SUCCESS);
        got = to_bits(v);
      }
      for (std::size_t i = 0; i < n; ++i) {
        if (c.type == "normal" || c.type == "log_normal")
          EXPECT_TRUE(box_muller_close(c.type, as_float(got[i]), as_float(c.bits[i]), c.p0, c.p1)) << c.where;
        else if (c.type == "poisson" && c.p0 >= trn::rand::kCurandPoissonNormalThreshold)
          EXPECT_LE(std::llabs(static_cast<std::int64_t>(got[i]) - static_cast<std::int64_t>(c.bits[i])), 1) << c.where;
        else
          EXPECT_EQ(got[i], c.bits[i]) << c.where << " " << c.type << " element " << i;
      }
      pos = c.offset + n;
      ++calls;
    }
    EXPECT_EQ(calls, 13);
    EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
  }
}

TEST(TrnrandCurand, ObservedStatusesThatTrnrandFollows) {
  // The statuses cuRAND's host generator returned (section 5 of the file) where trnrand follows it.
  // (Odd n for the Box–Muller outputs is the documented exception: trnrand returns
  // LENGTH_NOT_MULTIPLE per cuRAND's contract, the host generator returned SUCCESS.)
  std::map<std::string, int> st(reference().statuses.begin(), reference().statuses.end());
  ASSERT_EQ(st.size(), 14u);
  EXPECT_EQ(st.at("normal_odd_n"), 0);
  trnrandGenerator_t g = nullptr;
  ASSERT_EQ(trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10), TRNRAND_STATUS_SUCCESS);
  std::vector<unsigned int> u(9);
  std::vector<unsigned long long> ull(9);
  EXPECT_EQ(static_cast<int>(trnrandGeneratePoisson(g, u.data(), 9, 0.0)), st.at("poisson_lambda_0"));
  EXPECT_EQ(static_cast<int>(trnrandGeneratePoisson(g, u.data(), 9, 400001.0)), st.at("poisson_lambda_400001"));
  EXPECT_EQ(static_cast<int>(trnrandGenerateLongLong(g, ull.data(), 9)), st.at("long_long"));
  EXPECT_EQ(static_cast<int>(trnrandGenerate(g, u.data(), 0)), st.at("n_zero"));
  EXPECT_EQ(static_cast<int>(trnrandSetGeneratorOrdering(g, TRNRAND_ORDERING_PSEUDO_BEST)), st.at("ordering_best"));
  EXPECT_EQ(static_cast<int>(trnrandSetGeneratorOrdering(g, TRNRAND_ORDERING_PSEUDO_LEGACY)), st.at("ordering_legacy"));
  EXPECT_EQ(static_cast<int>(trnrandSetGeneratorOrdering(g, TRNRAND_ORDERING_PSEUDO_SEEDED)), st.at("ordering_seeded"));
  EXPECT_EQ(static_cast<int>(trnrandSetGeneratorOrdering(g, TRNRAND_ORDERING_PSEUDO_DYNAMIC)),
            st.at("ordering_dynamic"));
  EXPECT_EQ(static_cast<int>(trnrandSetGeneratorOrdering(g, TRNRAND_ORDERING_QUASI_DEFAULT)),
            st.at("ordering_quasi_default"));
  EXPECT_EQ(static_cast<int>(trnrandSetGeneratorOrdering(g, TRNRAND_ORDERING_PSEUDO_DEFAULT)),
            st.at("ordering_default"));
  int c_statuses[6] = {};  // rng type 12345 first (passed from C: see test_trnrand_c_api.cpp)
  ASSERT_EQ(trnrand_c_out_of_range_enums(c_statuses), 6);
  EXPECT_EQ(c_statuses[0], st.at("rng_type_12345"));
  EXPECT_EQ(static_cast<int>(trnrandDestroyGenerator(nullptr)), st.at("destroy_null"));
  EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
}
