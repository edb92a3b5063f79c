// MTGP32 (cuRAND's PSEUDO_MTGP32 = 141) against cuRAND's host generator, from the stored reference
// data/curand_reference_mtgp32.txt (cuRAND 10.4, data/gen_curand_reference_large.cpp mtgp32):
// every type in turn at seed 1234 (odd n), calls across the 49152-word rounds, Poisson at the
// edges of its three methods, a reseed (new seed: word 0; same seed: nothing), a 64-bit seed, the
// default seed, LEGACY (64 blocks) and BEST orderings, statuses. Words, uniforms, normals and
// Poisson bit-exact (hashes of all values); log-normals within their bounds. The block layout,
// the ordering rules and bad input through the C API.
#include <algorithm>
#include <vector>

#include "curand_replay.hpp"
#include "trn/rand/mtgp32.hpp"
#include "trnrand.h"
#include "trnrand_test_util.hpp"

namespace {

using trn::rand::Mtgp32Generator;
using trn::rand::Mtgp32Ordering;

const trnrand_test::RefFile& reference_mtgp() { return trnrand_test::stored_reference("curand_reference_mtgp32.txt"); }

int status_of(const std::string& what) { return trnrand_test::recorded_status(reference_mtgp(), what); }

void expect_curand_identity(const std::map<std::string, trnrand_test::Tally>& tally) {
  for (const char* exact : {"u32", "uniform", "uniform_double", "normal", "normal_double", "poisson"}) {
    ASSERT_TRUE(tally.count(exact)) << exact;
    EXPECT_EQ(tally.at(exact).exact, tally.at(exact).values) << exact;
  }
  EXPECT_LE(tally.at("log_normal").max_ulp, 2);
  EXPECT_GT(tally.at("log_normal_double").values, 0u);  // within double_close (replay)
}

}  // namespace

TEST(TrnrandMtgp32, ParameterTableIsThePublishedOne) {
  // Spot values of Saito and Matsumoto's mtgp32dc_params_fast_11213 (sets 0 and 199, as published)
  // and the shape every set shares.
  const auto& t = trn::rand::kMtgp32dcParamsFast11213;
  EXPECT_EQ(t[0].pos, 88);
  EXPECT_EQ(t[0].sh1, 19);
  EXPECT_EQ(t[0].sh2, 5);
  EXPECT_EQ(t[0].tbl[1], 0xaba4d62cu);
  EXPECT_EQ(t[0].poly_sha1[0], 0xcb);
  EXPECT_EQ(t[199].tmp_tbl[1], 0x45540800u);
  EXPECT_EQ(t[199].poly_sha1[19], 0x75);
  for (const auto& p : t) {
    EXPECT_EQ(p.mexp, 11213);
    EXPECT_EQ(p.mask, 0xfff80000u);
    EXPECT_EQ(p.tbl[0], 0u);
    EXPECT_EQ(p.flt_tmp_tbl[0], 0x3f800000u);
    EXPECT_GE(p.pos, 2);  // temper reads x[i + pos - 1]
    EXPECT_LT(p.pos, trn::rand::kMtgp32StateWords - trn::rand::kMtgp32ThreadsPerBlock);  // 256 threads in step
  }
}

TEST(TrnrandMtgp32, LayoutIsBlocksOf256PerRound) {
  // Word p is word 256 (p div 256 B) + p mod 256 of block (p div 256) mod B, block b seeded with
  // lo32(seed ^ seed >> 32) + b + 1 (both orderings), against blocks stepped on their own.
  for (const auto ordering : {Mtgp32Ordering::standard, Mtgp32Ordering::legacy}) {
    const std::uint64_t seed = 0xfedcba9876543210ull;
    Mtgp32Generator g;
    g.set_seed(seed);
    g.set_ordering(ordering);
    const auto nb = static_cast<std::uint64_t>(g.blocks());
    std::vector<std::uint32_t> out(2 * 256 * nb + 300);
    g.generate(out);
    const auto s = static_cast<std::uint32_t>(seed ^ (seed >> 32));
    for (const std::uint64_t b : {std::uint64_t{0}, std::uint64_t{1}, nb - 1}) {
      std::vector<std::uint32_t> ring(trn::rand::kMtgp32RingWords);
      trn::rand::mtgp32_init_ring(ring.data(), static_cast<int>(b), s + static_cast<std::uint32_t>(b) + 1u);
      for (std::uint64_t k = 0; k < 512; ++k) {
        const std::uint32_t w = trn::rand::mtgp32_next(ring.data(), k, trn::rand::kMtgp32dcParamsFast11213[b]);
        const std::uint64_t p = (k / 256) * 256 * nb + b * 256 + k % 256;
        ASSERT_EQ(out[p], w) << nb << " " << b << " " << k;
      }
    }
  }
}

TEST(TrnrandMtgp32, MatchesStoredCurandVectors) {
  const auto& f = reference_mtgp();
  ASSERT_GE(f.calls.size(), 30u);
  const auto tally = trnrand_test::replay([] { return Mtgp32Generator(); }, true, f, 1, false, true);
  trnrand_test::report("mtgp32", tally);
  expect_curand_identity(tally);
}

TEST(TrnrandMtgp32, EnginePathMatchesStoredCurandVectors) {
  // The mtgp32_rounds kernel (block rings in SBUF, GpSimd recursion and tempering): the whole file.
  const auto tally = trnrand_test::replay([] { return Mtgp32Generator(true); }, true, reference_mtgp(), 1, false, true);
  trnrand_test::report("mtgp32 engines", tally);
  expect_curand_identity(tally);
}

TEST(TrnrandMtgp32, EnginePathEqualsHostPathAndRecordsAProfile) {
  // Calls inside a block's 256 words, across blocks and rounds (49152 words at 192 blocks, 16384
  // at 64), and a long one: the same bits and position on both paths.
  for (const auto ordering : {Mtgp32Ordering::standard, Mtgp32Ordering::legacy}) {
    Mtgp32Generator host, engines(true);
    for (auto* g : {&host, &engines}) {
      g->set_seed(42);
      g->set_ordering(ordering);
    }
    auto both = [&](auto&& call) {
      const auto a = call(host), b = call(engines);
      EXPECT_EQ(a, b);
    };
    both([](Mtgp32Generator& g) { std::vector<std::uint32_t> v(3); g.generate(v); return v; });
    both([](Mtgp32Generator& g) { std::vector<float> v(1021); g.uniform(v); return v; });
    both([](Mtgp32Generator& g) { std::vector<std::uint32_t> v(49152 - 1024 + 7); g.generate(v); return v; });
    both([](Mtgp32Generator& g) { std::vector<double> v(999); g.normal_double(v, 0.0, 1.0); return v; });
    both([](Mtgp32Generator& g) { std::vector<std::uint32_t> v(5 * 49152 + 11); g.poisson(v, 4.5); return v; });
    both([](Mtgp32Generator& g) { std::vector<float> v(3 * 16384 + 5); g.uniform(v); return v; });
    EXPECT_EQ(host.offset(), engines.offset());
    const trn::Profile p = engines.last_profile();
    EXPECT_GT(p.total_ns, 0.0);
    EXPECT_GT(p.busy_ns[static_cast<int>(trn::Engine::gpsimd)], 0.0);
    EXPECT_EQ(host.last_profile().total_ns, 0.0);
  }
}

TEST(TrnrandMtgp32, OrderingAndSeedRules) {
  // cuRAND (observed): a different ordering restarts at word 0 (BEST -> DEFAULT too), the same
  // ordering or seed changes nothing, a new seed restarts; BEST has DEFAULT's layout.
  auto make = [](int ordering) {
    trnrandGenerator_t g = nullptr;
    EXPECT_EQ(trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_MTGP32), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(trnrandSetPseudoRandomGeneratorSeed(g, 5), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(trnrandSetGeneratorOrdering(g, static_cast<trnrandOrdering_t>(ordering)), TRNRAND_STATUS_SUCCESS);
    return g;
  };
  auto take = [](trnrandGenerator_t g, std::size_t n) {
    std::vector<unsigned int> v(n);
    EXPECT_EQ(trnrandGenerate(g, v.data(), n), TRNRAND_STATUS_SUCCESS);
    return v;
  };
  trnrandGenerator_t def = make(TRNRAND_ORDERING_PSEUDO_DEFAULT), best = make(TRNRAND_ORDERING_PSEUDO_BEST);
  trnrandGenerator_t legacy = make(TRNRAND_ORDERING_PSEUDO_LEGACY);
  const auto whole = take(def, 300);
  EXPECT_EQ(take(best, 300), whole);
  // LEGACY's first round (blocks 0 .. 63) is DEFAULT's first 16384 words; its second round is not.
  trnrandGenerator_t def2 = make(TRNRAND_ORDERING_PSEUDO_DEFAULT);
  const auto lw = take(legacy, 16385), dw = take(def2, 16385);
  EXPECT_TRUE(std::equal(lw.begin(), lw.begin() + 16384, dw.begin()));
  EXPECT_NE(lw[16384], dw[16384]);
  ASSERT_EQ(trnrandSetGeneratorOrdering(best, TRNRAND_ORDERING_PSEUDO_BEST), TRNRAND_STATUS_SUCCESS);  // same: continues
  const auto next = take(best, 100);
  ASSERT_EQ(trnrandSetGeneratorOrdering(best, TRNRAND_ORDERING_PSEUDO_DEFAULT), TRNRAND_STATUS_SUCCESS);  // restarts
  EXPECT_EQ(take(best, 300), whole);
  ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(def, 5), TRNRAND_STATUS_SUCCESS);  // same seed: continues
  EXPECT_EQ(take(def, 100), next);
  ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(def, 6), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(def, 5), TRNRAND_STATUS_SUCCESS);  // new seed: word 0
  EXPECT_EQ(take(def, 300), whole);
  for (auto* g : {def, best, legacy, def2}) EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
}

TEST(TrnrandMtgp32, CApiStatusesAndBadInput) {
  for (const bool host : {true, false}) {
    trnrandGenerator_t g = nullptr;
    ASSERT_EQ(host ? trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_MTGP32)
                   : trnrandCreateGenerator(&g, TRNRAND_RNG_PSEUDO_MTGP32),
              TRNRAND_STATUS_SUCCESS);
    std::vector<unsigned long long> ull(9, 7);
    std::vector<float> f(9, 7.0f);
    std::vector<unsigned int> u(9, 7u);
    EXPECT_EQ(trnrandSetGeneratorOffset(g, 5), status_of("offset"));
    int position = -1;
    EXPECT_EQ(trnrandGetLastErrorParameter(g, &position), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(position, 0);  // a type error, no argument at fault
    EXPECT_EQ(trnrandGenerateLongLong(g, ull.data(), 9), status_of("long_long"));
    EXPECT_EQ(trnrandGeneratePoisson(g, u.data(), 9, 0.0), status_of("poisson_lambda_0"));
    EXPECT_EQ(trnrandGeneratePoisson(g, u.data(), 9, 400001.0), status_of("poisson_lambda_400001"));
    EXPECT_EQ(std::count(u.begin(), u.end(), 7u), 9);  // outputs untouched on error
    EXPECT_EQ(std::count(ull.begin(), ull.end(), 7ull), 9);
    EXPECT_EQ(trnrandGenerate(g, nullptr, 9), TRNRAND_STATUS_OUT_OF_RANGE);
    EXPECT_EQ(trnrandGenerateNormal(g, f.data(), 9, 0.0f, 1.0f), status_of("normal_odd_n"));
    for (const int o : {102, 104, 201, 100, 101, 103})
      EXPECT_EQ(trnrandSetGeneratorOrdering(g, static_cast<trnrandOrdering_t>(o)), status_of("ordering_" + std::to_string(o)))
          << o;
    EXPECT_EQ(trnrandSetQuasiRandomGeneratorDimensions(g, 3), status_of("dimensions"));
    EXPECT_EQ(trnrandGenerateExponential(g, f.data(), 9, 1.0f), TRNRAND_STATUS_TYPE_ERROR);  // Philox extension
    EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
  }
}
