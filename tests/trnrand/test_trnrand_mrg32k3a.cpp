// MRG32K3A (cuRAND's PSEUDO_MRG32K3A = 121) against cuRAND's host generator, from the stored
// reference data/curand_reference_mrg32k3a.txt (cuRAND 10.4, data/gen_curand_reference_large.cpp
// mrg32k3a): every type at seed 1234 offset 5; every distribution after every other one (81 pairs,
// each with its own seed and offset, then a u32 call that reads the thread states they left);
// 2^20 .. 2^22 values at offsets 0, 81919 and 10^12 + 3 with three seeds; reseeding between calls;
// statuses. Replayed through the C++ class on both paths (host; the mrg32k3a_slots kernel on the
// emulated engines) and, for a record, the C API.
// Expectations as for Philox and XORWOW (curand_replay.hpp): integer, uniform, fp64 and histogram
// Poisson outputs bit-exact (hashes of all values for the large calls), float Box-Muller within the
// derived bounds. Skip-ahead is checked against plain stepping of L'Ecuyer's recurrences.
#include <algorithm>
#include <array>
#include <bit>
#include <utility>
#include <vector>

#include "curand_replay.hpp"
#include "trn/rand/mrg32k3a.hpp"
#include "trnrand.h"
#include "trnrand_test_util.hpp"

namespace {

using trn::rand::Mrg32k3aGenerator;
using trn::rand::Mrg32k3aState;

const trnrand_test::RefFile& reference_mrg() { return trnrand_test::stored_reference("curand_reference_mrg32k3a.txt"); }

bool same_state(const Mrg32k3aState& a, const Mrg32k3aState& b) { return a.s1 == b.s1 && a.s2 == b.s2; }

int status_of(const std::string& what) { return trnrand_test::recorded_status(reference_mrg(), what); }

// Independent reference step: L'Ecuyer (1999), Figure 1's recurrences in signed 64-bit arithmetic
// with a floored modulus (not the library's unsigned form).
std::uint32_t reference_step(std::array<std::int64_t, 3>& x1, std::array<std::int64_t, 3>& x2) {
  const std::int64_t m1 = 4294967087, m2 = 4294944443;
  std::int64_t p1 = (1403580 * x1[1] - 810728 * x1[0]) % m1;
  if (p1 < 0) p1 += m1;
  std::int64_t p2 = (527612 * x2[2] - 1370589 * x2[0]) % m2;
  if (p2 < 0) p2 += m2;
  x1 = {x1[1], x1[2], p1};
  x2 = {x2[1], x2[2], p2};
  return static_cast<std::uint32_t>(p1 > p2 ? p1 - p2 : p1 - p2 + m1);
}

}  // namespace

TEST(TrnrandMrg32k3a, MatchesStoredCurandVectors) {
  const auto& f = reference_mrg();
  ASSERT_TRUE(f.pair_slots);
  ASSERT_GT(f.calls.size(), 250u);
  const auto tally = trnrand_test::replay([] { return Mrg32k3aGenerator(); }, true, f);
  trnrand_test::report("mrg32k3a", tally);
  trnrand_test::expect_bounds(tally);
}

TEST(TrnrandMrg32k3a, EnginePathMatchesStoredCurandVectors) {
  // The mrg32k3a_slots kernel (81920 states in SBUF, GpSimd operator): every 4th generator of the
  // file (pairs of distributions, a 2^20 .. 2^22 call, the reseed).
  const auto tally = trnrand_test::replay([] { return Mrg32k3aGenerator(true); }, true, reference_mrg(), 4);
  trnrand_test::report("mrg32k3a engines", tally);
  trnrand_test::expect_bounds(tally);
}

TEST(TrnrandMrg32k3a, EnginePathEqualsHostPathAndRecordsAProfile) {
  // Every distribution in turn (carried Poisson normals across calls, odd slot boundaries, sizes
  // below and above one 81920-thread round) at several seeds and offsets on both paths: the same
  // bits and the same position; the engine path's profile is the kernel's (GpSimd and DMA busy).
  for (const auto& start : {std::pair{99ull, 81917ull}, std::pair{0ull, 0ull}, std::pair{0xfedcba9876543210ull, 1000000000003ull}}) {
    const std::uint64_t seed = start.first, offset = start.second;
    Mrg32k3aGenerator host, engines(true);
    for (auto* g : {&host, &engines}) {
      g->set_seed(seed);
      g->set_offset(offset);
    }
    auto both = [&](auto&& call) {
      const auto a = call(host), b = call(engines);
      EXPECT_EQ(a, b) << seed;
    };
    both([](Mrg32k3aGenerator& g) { std::vector<std::uint32_t> v(5000); g.poisson(v, 3000.5); return v; });
    both([](Mrg32k3aGenerator& g) { std::vector<float> v(90001); g.uniform(v); return v; });
    both([](Mrg32k3aGenerator& g) { std::vector<double> v(777); g.uniform_double(v); return v; });
    both([](Mrg32k3aGenerator& g) { std::vector<std::uint32_t> v(4097); g.poisson(v, 3000.5); return v; });
    both([](Mrg32k3aGenerator& g) { std::vector<std::uint32_t> v(3001); g.poisson(v, 30.0); return v; });
    both([](Mrg32k3aGenerator& g) { std::vector<double> v(1000); g.normal_double(v, 0.0, 1.0); return v; });
    both([](Mrg32k3aGenerator& g) { std::vector<double> v(998); g.log_normal_double(v, 0.5, 0.25); return v; });
    both([](Mrg32k3aGenerator& g) { std::vector<float> v(1002); g.normal(v, 1.0f, 2.0f); return v; });
    both([](Mrg32k3aGenerator& g) { std::vector<float> v(1000); g.log_normal(v, 0.0f, 1.0f); return v; });
    both([](Mrg32k3aGenerator& g) { std::vector<std::uint32_t> v(170001); g.generate(v); return v; });
    EXPECT_EQ(host.offset(), engines.offset());
    const trn::Profile p = engines.last_profile();
    EXPECT_GT(p.total_ns, 0.0);
    EXPECT_GT(p.busy_ns[static_cast<int>(trn::Engine::gpsimd)], 0.0);
    EXPECT_EQ(host.last_profile().total_ns, 0.0);
  }
}

TEST(TrnrandMrg32k3a, StepIsLEcuyersRecurrence) {
  for (const std::uint64_t seed : {0ull, 1234ull, 0xfedcba9876543210ull}) {
    Mrg32k3aState s = trn::rand::mrg32k3a_seed_state(seed);
    std::array<std::int64_t, 3> x1{s.s1[0], s.s1[1], s.s1[2]}, x2{s.s2[0], s.s2[1], s.s2[2]};
    for (int i = 0; i < 100000; ++i) ASSERT_EQ(trn::rand::mrg32k3a_next(s), reference_step(x1, x2)) << i;
  }
  // Seed 0 keeps cuRAND's all-12345 state (L'Ecuyer's default seed).
  const Mrg32k3aState zero = trn::rand::mrg32k3a_seed_state(0);
  EXPECT_EQ(zero.s1, (std::array<std::uint32_t, 3>{12345u, 12345u, 12345u}));
  EXPECT_EQ(zero.s2, (std::array<std::uint32_t, 3>{12345u, 12345u, 12345u}));
}

TEST(TrnrandMrg32k3a, SlotRunsEqualScalarSteps) {
  // mrg32k3a_run_slots takes runs of 8 consecutive threads in AVX-512 lanes where the host has it:
  // every output kind and the states equal mrg32k3a_next one state at a time, for random states,
  // states with p1 == p2 (r = m1: the word conversion's 2^32 + 0.0017, kept as its low word 0 by the
  // scalar cast) and extreme components, over a run that wraps past thread 81919.
  const auto mulmod = [](std::uint64_t a, std::uint64_t b, std::uint64_t m) { return a % m * (b % m) % m; };
  const auto powmod = [&](std::uint64_t a, std::uint64_t e, std::uint64_t m) {
    std::uint64_t r = 1;
    for (; e != 0; e >>= 1, a = mulmod(a, a, m))
      if (e & 1u) r = mulmod(r, a, m);
    return r;
  };
  std::vector<trn::rand::Mrg32k3aState> base(trn::rand::kMrg32k3aThreads);
  std::uint64_t x = 88172645463325252ull;
  const auto next = [&] { return x ^= x << 13, x ^= x >> 7, x ^= x << 17; };
  for (auto& st : base) {
    st.s1 = {static_cast<std::uint32_t>(next() % trn::rand::kMrgM1), static_cast<std::uint32_t>(next() % trn::rand::kMrgM1),
             static_cast<std::uint32_t>(next() % trn::rand::kMrgM1)};
    st.s2 = {static_cast<std::uint32_t>(next() % trn::rand::kMrgM2), static_cast<std::uint32_t>(next() % trn::rand::kMrgM2),
             static_cast<std::uint32_t>(next() % trn::rand::kMrgM2)};
  }
  // p1 = 1403580 (s1 = (0, 1, .)) and p2 = 527612 s2[2] mod m2 = 1403580 (s2 = (0, ., s2[2])).
  const auto s22 = static_cast<std::uint32_t>(mulmod(1403580u, powmod(527612u, trn::rand::kMrgM2 - 2, trn::rand::kMrgM2), trn::rand::kMrgM2));
  for (const std::size_t k : {std::size_t{3}, std::size_t{8}, std::size_t{81915}}) {
    base[k].s1 = {0u, 1u, 5u};
    base[k].s2 = {0u, 7u, s22};
  }
  base[20].s1 = {trn::rand::kMrgM1 - 1, trn::rand::kMrgM1 - 1, trn::rand::kMrgM1 - 1};
  base[20].s2 = {trn::rand::kMrgM2 - 1, trn::rand::kMrgM2 - 1, trn::rand::kMrgM2 - 1};
  for (const auto output : {trn::rand::MrgOutput::raw, trn::rand::MrgOutput::word, trn::rand::MrgOutput::uniform}) {
    // 81920 - 16 + 3 .. : a run of 13 before the wrap, the wrap, then 8-thread runs and a tail.
    const std::uint64_t first = trn::rand::kMrg32k3aThreads - 13, slots = 2 * trn::rand::kMrg32k3aThreads + 37;
    auto fast = base, slow = base;
    std::vector<std::uint32_t> got(slots), want(slots);
    trn::rand::mrg32k3a_run_slots(fast, first, 0, slots, trn::rand::MrgSlot::steps1, output, got.data());
    for (std::uint64_t m = 0; m < slots; ++m) {
      const std::uint32_t r = trn::rand::mrg32k3a_next(slow[(first + m) % trn::rand::kMrg32k3aThreads]);
      want[m] = output == trn::rand::MrgOutput::word      ? trn::rand::mrg32k3a_word(r)
                : output == trn::rand::MrgOutput::uniform ? std::bit_cast<std::uint32_t>(trn::rand::mrg32k3a_uniform(r))
                                                          : r;
    }
    ASSERT_EQ(got, want) << static_cast<int>(output);
    for (std::size_t k = 0; k < base.size(); ++k) {
      ASSERT_EQ(fast[k].s1, slow[k].s1) << k;
      ASSERT_EQ(fast[k].s2, slow[k].s2) << k;
    }
  }
  // The crafted states did produce r = m1 (so the edge was exercised).
  auto probe = base[8];
  EXPECT_EQ(trn::rand::mrg32k3a_next(probe), trn::rand::kMrgM1);
}

TEST(TrnrandMrg32k3a, SkipAheadEqualsSteppingAndComposes) {
  for (const std::uint64_t seed : {0ull, 1234ull, 0xfedcba9876543210ull}) {
    for (const std::uint64_t n : {1ull, 2ull, 3ull, 81919ull, 81920ull, 123457ull}) {
      Mrg32k3aState a = trn::rand::mrg32k3a_seed_state(seed), b = a;
      for (std::uint64_t i = 0; i < n; ++i) trn::rand::mrg32k3a_next(a);
      trn::rand::mrg32k3a_skip(b, n);
      EXPECT_TRUE(same_state(a, b)) << "seed " << seed << " n " << n;
    }
    // Subsequences are 2^76 steps: one skip of 3 equals three skips of 1 equals 3 * 2^13 offset
    // skips of 2^63 steps (different matrix powers).
    Mrg32k3aState a = trn::rand::mrg32k3a_seed_state(seed), b = a, c = a;
    trn::rand::mrg32k3a_skip_subsequences(a, 3);
    for (int i = 0; i < 3; ++i) trn::rand::mrg32k3a_skip_subsequences(b, 1);
    for (int i = 0; i < 3 * 8192; ++i) trn::rand::mrg32k3a_skip(c, std::uint64_t{1} << 63);
    EXPECT_TRUE(same_state(a, b));
    EXPECT_TRUE(same_state(a, c));
  }
}

TEST(TrnrandMrg32k3a, ThreadStreamsAreTheDeviceApiSubsequences) {
  // Slot s of a fresh generator at offset 0 is step s / 81920 of thread s mod 81920, the
  // curand_init(seed, s mod 81920, 0) stream: check threads 0, 1, 81919 for three rounds, and the
  // conversions against plain double arithmetic of cuRAND's formulas.
  constexpr std::size_t T = 81920;
  Mrg32k3aGenerator g, gu;
  g.set_seed(77);
  gu.set_seed(77);
  std::vector<std::uint32_t> out(3 * T);
  std::vector<double> ud(3 * T);
  g.generate(out);
  gu.uniform_double(ud);
  for (const std::uint64_t k : {0ull, 1ull, 81919ull}) {
    Mrg32k3aState s = trn::rand::mrg32k3a_seed_state(77);
    trn::rand::mrg32k3a_skip_subsequences(s, k);
    for (std::size_t j = 0; j < 3; ++j) {
      const std::uint32_t r = trn::rand::mrg32k3a_next(s);
      EXPECT_EQ(out[j * T + k], static_cast<std::uint32_t>(static_cast<double>(r) * 1.000000048662)) << k << " " << j;
      EXPECT_EQ(ud[j * T + k], static_cast<double>(r) * 2.3283065498378288e-10) << k << " " << j;
    }
  }
}

TEST(TrnrandMrg32k3a, CApiTypeOrderingsAndStatuses) {
  trnrandGenerator_t g = nullptr;
  ASSERT_EQ(trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_MRG32K3A), TRNRAND_STATUS_SUCCESS);
  // The stored first call (seed 1234, offset 5, u32 x 1000) through the C API.
  const auto& first = reference_mrg().calls.front();
  ASSERT_EQ(first.type, "u32");
  ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(g, first.seed), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandSetGeneratorOffset(g, first.offset), TRNRAND_STATUS_SUCCESS);
  std::vector<unsigned int> u(first.n);
  ASSERT_EQ(trnrandGenerate(g, u.data(), u.size()), TRNRAND_STATUS_SUCCESS);
  for (std::size_t i = 0; i < u.size(); ++i) ASSERT_EQ(u[i], first.bits[i]) << i;
  // cuRAND's statuses (stored): odd n for Box-Muller, 64-bit integers, orderings (SEEDED refused
  // by cuRAND's MRG32K3A as well).
  std::vector<float> f(9, -1.0f);
  EXPECT_EQ(trnrandGenerateNormal(g, f.data(), 9, 0.0f, 1.0f), status_of("normal_odd_n"));
  EXPECT_EQ(f[0], -1.0f);  // nothing written
  std::vector<unsigned long long> ull(9);
  EXPECT_EQ(trnrandGenerateLongLong(g, ull.data(), 9), status_of("long_long"));
  for (const int o : {100, 101, 102, 103, 104, 201})
    EXPECT_EQ(trnrandSetGeneratorOrdering(g, static_cast<trnrandOrdering_t>(o)), status_of("ordering_" + std::to_string(o)))
        << o;
  EXPECT_EQ(trnrandGenerateBernoulli(g, u.data(), 4, 0.5), TRNRAND_STATUS_TYPE_ERROR);  // Philox-only extension
  trnProfile_t prof{};
  ASSERT_EQ(trnrandGetLastProfile(g, &prof), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(prof.total_ns, 0.0);  // host generator: no kernel
  EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
  // The "device" generator runs the mrg32k3a_slots kernel: the same first record, and a profile.
  trnrandGenerator_t d = nullptr;
  ASSERT_EQ(trnrandCreateGenerator(&d, TRNRAND_RNG_PSEUDO_MRG32K3A), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(d, first.seed), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandSetGeneratorOffset(d, first.offset), TRNRAND_STATUS_SUCCESS);
  std::fill(u.begin(), u.end(), 0u);
  ASSERT_EQ(trnrandGenerate(d, u.data(), u.size()), TRNRAND_STATUS_SUCCESS);
  for (std::size_t i = 0; i < u.size(); ++i) ASSERT_EQ(u[i], first.bits[i]) << i;
  ASSERT_EQ(trnrandGetLastProfile(d, &prof), TRNRAND_STATUS_SUCCESS);
  EXPECT_GT(prof.total_ns, 0.0);
  EXPECT_EQ(trnrandDestroyGenerator(d), TRNRAND_STATUS_SUCCESS);
}
