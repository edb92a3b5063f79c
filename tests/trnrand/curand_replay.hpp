// Replays cuRAND reference files (data/curand_reference*.txt, trnrand_test_util.hpp's reader) on a
// trnrand generator and tallies the agreement per output type; shared by the Philox and XORWOW
// suites. Expectations: integer, uniform, fp64 and Poisson-histogram outputs bit-exact; float
// Box-Muller outputs within the bounds derived at box_muller_close.
#pragma once
#include <bit>
#include <cmath>
#include <fstream>
#include <sstream>
#include <iostream>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "trn/rand/mtgp32.hpp"
#include "trn/rand/poisson.hpp"
#include "data/host_sample_sequences.h"
#include "trnrand_test_util.hpp"

namespace trnrand_test {

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
template <class G>
std::vector<std::uint64_t> run_all(G& g, const RefCall& c);
template <class G>
std::vector<std::uint64_t> run(G& g, const RefCall& c, std::uint64_t* fnv = nullptr) {
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
template <class G>
std::vector<std::uint64_t> run_all(G& g, const RefCall& c) {
  const std::size_t n = c.n;
  if constexpr (requires(std::span<std::uint64_t> w) { g.generate_long_long(w); }) {
    if (c.type == "u64") {  // SOBOL64's 64-bit words
      std::vector<std::uint64_t> v(n);
      g.generate_long_long(v);
      return v;
    }
  }
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

inline float as_float(std::uint64_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b)); }

inline double ulp_of(float x) {
  const float a = std::fabs(x);
  return static_cast<double>(std::nextafter(a, std::numeric_limits<float>::infinity()) - a);
}

// Float Box–Muller outputs against cuRAND's. The unscaled normal z differs by at most 3 ulp
// (measured, docs/trnrand.md 5); mean + stddev z then takes the same two fp32 roundings as cuRAND,
// so |got - ref| <= stddev 3 ulp(z) + the roundings (2 ulp of the result), which in ulp of a
// result near zero (cancellation against the mean) can be many. Log-normal: exp turns the
// absolute error stddev |dz| into a relative one, <= 3 |stddev z| ulp plus exp's and the affine
// step's roundings.
inline bool box_muller_close(const std::string& type, float got, float ref, double mean, double stddev) {
  if (type == "normal") {
    const double z = (static_cast<double>(ref) - mean) / stddev;
    const double bound =
        stddev * 3.0 * ulp_of(static_cast<float>(z)) + 2.0 * ulp_of(ref) + 2.0 * ulp_of(static_cast<float>(mean));
    return std::fabs(static_cast<double>(got) - static_cast<double>(ref)) <= bound;
  }
  const double sz = std::fabs(std::log(static_cast<double>(ref)) - mean);  // |stddev z|
  return trnrand_test::ulp_distance(got, ref) <= static_cast<std::int64_t>(std::ceil(3.0 * sz)) + 3;
}

// The outputs libcurand's host generator printed for NVIDIA's cuRAND host samples
// (data/curand_host_samples.txt, from data/gen_curand_host_samples.cpp): sample name -> 32-bit
// patterns (u32 or float bits). Every record's status must be SUCCESS.
inline std::map<std::string, std::vector<std::uint32_t>> curand_host_sample_outputs() {
  std::ifstream in(data_path("curand_host_samples.txt"));
  std::map<std::string, std::vector<std::uint32_t>> expected;
  for (std::string line; std::getline(in, line);) {
    std::istringstream is(line);
    std::string tag, name, word;
    int status = -1;
    is >> tag >> name >> status;
    EXPECT_EQ(status, 0) << name;
    auto& v = expected[name];
    while (is >> word) v.push_back(static_cast<std::uint32_t>(std::stoul(word, nullptr, 16)));
  }
  return expected;
}

// A sample's output against libcurand's: uniform and Poisson bit-exact; inverse-CDF normals
// (MT19937, MTGP32, SOBOL32, SOBOL64) bit-exact and their log-normals within 2 ulp; Box-Muller
// outputs (Philox, XORWOW, MRG32K3A; mean 1, stddev 2) within box_muller_close.
template <class Sample>
void expect_as_libcurand_sample(const Sample& s, const std::vector<std::uint32_t>& got,
                                const std::vector<std::uint32_t>& ref, const std::string& where) {
  ASSERT_EQ(got.size(), ref.size()) << s.name << " " << where;
  const bool box_muller = s.rng == 161 || s.rng == 101 || s.rng == 121;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const float gf = std::bit_cast<float>(got[i]), rf = std::bit_cast<float>(ref[i]);
    if (s.distribution == SAMPLE_UNIFORM || s.distribution == SAMPLE_POISSON ||
        (s.distribution == SAMPLE_NORMAL && !box_muller))
      EXPECT_EQ(got[i], ref[i]) << s.name << " " << where << " element " << i;
    else if (box_muller)
      EXPECT_TRUE(box_muller_close(s.distribution == SAMPLE_NORMAL ? "normal" : "log_normal", gf, rf, 1.0, 2.0))
          << s.name << " " << where << " element " << i << ": " << gf << " vs " << rf;
    else
      EXPECT_LE(ulp_distance(gf, rf), 2) << s.name << " " << where << " element " << i;
  }
}

// fp64 inverse-CDF normals against cuRAND's (quasi-random generators): z = s erfcinv(2p) within
// kIcdfDoubleUlps ulp of cuRAND's (its host erfcinv is not correctly rounded; trnrand's is to
// long-double accuracy), then the affine step or exp as for float (box_muller_close's argument).
inline constexpr double kIcdfDoubleUlps = 4.0;
inline double ulp_of_double(double x) {
  const double a = std::fabs(x);
  return std::nextafter(a, std::numeric_limits<double>::infinity()) - a;
}
inline bool double_close(const std::string& type, double got, double ref, double mean, double stddev) {
  if (type == "normal_double") {
    const double z = (ref - mean) / stddev;
    const double bound = stddev * kIcdfDoubleUlps * ulp_of_double(z) + 2.0 * ulp_of_double(ref) + 2.0 * ulp_of_double(mean);
    return std::fabs(got - ref) <= bound;
  }
  // exp turns stddev |dz| <= stddev K ulp(z) <= stddev K |z| 2^-52 into a relative error, and
  // ulp(result) >= |result| 2^-53: at most 2 K |stddev z| ulp, plus exp's and the affine roundings.
  const double sz = std::fabs(std::log(ref) - mean);
  return trnrand_test::ulp_distance(got, ref) <= static_cast<std::int64_t>(std::ceil(2.0 * kIcdfDoubleUlps * sz)) + 3;
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
// make() returns a fresh generator (trn::rand::Generator of one path, or XorwowGenerator).
// fp64_exact: the fp64 normal and log-normal outputs must be bit-exact (Box-Muller in glibc fp64,
// as cuRAND's host code); false for the quasi-random inverse-CDF normals (double_close's bound).
// poisson_exact: every Poisson output bit-exact (hashes too), not only the histogram's (MTGP32).
template <class Make>
std::map<std::string, Tally> replay(Make&& make, bool check_chaining, const trnrand_test::RefFile& file,
                                    int every_kth_generator = 1, bool fp64_exact = true,
                                    bool poisson_exact = false) {
  std::map<std::string, Tally> tally;
  auto g = make();
  bool first = true;
  int repositions = 0;
  int current_generator = -1;
  for (const RefCall& c : file.calls) {
    if ((c.generator_index - 1) % every_kth_generator != 0) continue;  // generators 1, 1 + k, 1 + 2k, ...
    if (first || c.generator_index != current_generator) {  // a `generator` line: a fresh generator
      current_generator = c.generator_index;
      g = make();
      if constexpr (requires { g.set_seed(std::uint64_t{0}); }) g.set_seed(c.seed);
      if constexpr (requires { g.set_ordering(trn::rand::Mtgp32Ordering::best); }) {
        if (c.ordering == 100) g.set_ordering(trn::rand::Mtgp32Ordering::best);
        if (c.ordering == 103) g.set_ordering(trn::rand::Mtgp32Ordering::legacy);
      }
      first = false;
    }
    if constexpr (requires { g.set_seed(std::uint64_t{0}); }) {
      if (c.reseed) g.set_seed(c.seed);  // SetPseudoRandomGeneratorSeed between calls: keeps the offset
    }
    if constexpr (requires { g.set_dimensions(std::uint32_t{1}); }) {
      if (g.dimensions() != c.dimensions) g.set_dimensions(c.dimensions);
    }
    if (c.reset) {
      g.set_offset(c.offset);
      ++repositions;
    }
    EXPECT_EQ(g.offset(), c.offset) << c.where << ": calls chain";
    std::uint64_t fnv = 0;
    const auto got = run(g, c, &fnv);
    EXPECT_EQ(g.offset(), c.offset + c.advance) << c.where << ": the position advances by " << c.advance;
    const bool transcendental_double = c.type == "normal_double" || c.type == "log_normal_double";
    const bool bit_exact_type = c.type == "u32" || c.type == "u64" || c.type == "uniform" || c.type == "uniform_double" ||
                                (transcendental_double && fp64_exact) ||
                                (c.type == "poisson" && (poisson_exact || c.p0 < trn::rand::kCurandPoissonNormalThreshold));
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
      } else if (transcendental_double && !fp64_exact) {
        const double g = std::bit_cast<double>(got[i]), r = std::bit_cast<double>(c.bits[i]);
        EXPECT_TRUE(double_close(c.type, g, r, c.p0, c.p1))
            << c.where << " " << c.type << " element " << i << ": " << g << " vs " << r;
        d = trnrand_test::ulp_distance(g, r);
      } else if (c.type == "poisson")
        d = std::llabs(static_cast<std::int64_t>(got[i]) - static_cast<std::int64_t>(c.bits[i]));
      else
        d = got[i] == c.bits[i] ? 0 : 1;
      ++t.values;
      if (d == 0) ++t.exact;
      t.max_ulp = std::max(t.max_ulp, d);
      ++t.histogram[d];
      if (c.type == "poisson" && (poisson_exact || c.p0 < trn::rand::kCurandPoissonNormalThreshold)) {
        EXPECT_EQ(got[i], c.bits[i]) << c.where << " poisson lambda " << c.p0 << " element " << i;
      } else if (c.type != "normal" && c.type != "log_normal" && c.type != "poisson" &&
                 !(transcendental_double && !fp64_exact)) {
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

inline void report(const std::string& what, const std::map<std::string, Tally>& tally) {
  for (const auto& [type, t] : tally) {
    std::cout << "[ cuRAND  ] " << what << " " << type << ": " << t.exact << "/" << t.values << " identical, max "
              << t.max_ulp << (type == "poisson" ? " (absolute)" : " ulp") << ", histogram";
    for (const auto& [d, count] : t.histogram) std::cout << " " << d << ":" << count;
    std::cout << "\n";
  }
}

// poisson_tolerance: the largest difference of the Poisson outputs from lambda 2000 (the normal
// approximation of the generators whose Poisson normal is the engine's float Box-Muller: 1, a float
// normal's last bit across an integer; 0 where the normal is cuRAND's host arithmetic, Philox, or
// the sampler is SOBOL32's inversion).
inline void expect_bounds(const std::map<std::string, Tally>& tally, bool fp64_exact = true,
                          std::int64_t poisson_tolerance = 1) {
  for (const char* exact : {"u32", "uniform", "uniform_double", "normal_double", "log_normal_double"}) {
    ASSERT_TRUE(tally.count(exact)) << exact;
    if (fp64_exact || std::string(exact).find("normal") == std::string::npos) {
      EXPECT_EQ(tally.at(exact).exact, tally.at(exact).values) << exact;
    }
  }
  // Float Box–Muller (docs/trnrand.md 5): z = the unscaled normal within 3 ulp of cuRAND's (86%
  // identical); log-normals per element within box_muller_close's bound (measured here: <= 4 ulp,
  // 94% identical).
  EXPECT_LE(tally.at("normal").max_ulp, 3);
  EXPECT_GT(tally.at("normal").exact, tally.at("normal").values * 8 / 10);
  EXPECT_GT(tally.at("log_normal").exact, tally.at("log_normal").values * 8 / 10);
  // Poisson: the histogram method is exact (asserted per element); the normal approximation may
  // differ by one where a float normal's last bit crosses an integer.
  EXPECT_LE(tally.at("poisson").max_ulp, poisson_tolerance);
}


}  // namespace trnrand_test
