// MTGP32 (cuRAND's PSEUDO_MTGP32 = 141) against cuRAND's host generator, from the stored reference
// data/curand_reference_mtgp32.txt (cuRAND 10.4, data/gen_curand_reference_large.cpp mtgp32):
// every type in turn at seed 1234 (odd n), calls across the 49152-word rounds, Poisson at the
// edges of its three methods, a reseed (new seed: word 0; same seed: nothing), a 64-bit seed, the
// default seed, LEGACY (64 blocks) and BEST orderings, statuses. Words, uniforms, normals and
// Poisson bit-exact (hashes of all values); log-normals within their bounds. The block layout,
// the ordering rules and bad input through the C API.
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
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

namespace {
// The reference file's lines starting with `tag`, split into words.
std::vector<std::vector<std::string>> tagged_lines(const std::string& tag) {
  std::ifstream in(trnrand_test::data_path("curand_reference_mtgp32.txt"));
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream is(line);
    std::vector<std::string> words;
    for (std::string w; is >> w;) words.push_back(w);
    if (!words.empty() && words[0] == tag) rows.push_back(words);
  }
  return rows;
}
}  // namespace

TEST(TrnrandMtgp32, PoissonMethodAsLibcurand) {
  // CURAND_DEVICE_API on MTGP32 (seed 1234) and SOBOL32 (1 dimension): libcurand's values (hash of
  // all 5001); every method value's status on MTGP32; bad input leaves the output untouched.
  const auto rows = tagged_lines("device_poisson");
  ASSERT_EQ(rows.size(), 8u);
  for (const bool host : {true, false})
    for (const auto& r : rows) {
      const auto type = static_cast<trnrandRngType_t>(std::stoi(r[1]));
      const double lambda = std::stod(r[2]);
      std::vector<unsigned int> v(std::stoull(r[3]));
      trnrandGenerator_t g = nullptr;
      ASSERT_EQ(host ? trnrandCreateGeneratorHost(&g, type) : trnrandCreateGenerator(&g, type), TRNRAND_STATUS_SUCCESS);
      if (type == TRNRAND_RNG_PSEUDO_MTGP32) {
        ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(g, 1234), TRNRAND_STATUS_SUCCESS);
      }
      ASSERT_EQ(trnrandGeneratePoissonMethod(g, v.data(), v.size(), lambda, TRNRAND_DEVICE_API), TRNRAND_STATUS_SUCCESS);
      EXPECT_EQ(trnrand_test::fnv1a64(v.data(), v.size() * 4), std::stoull(r[4], nullptr, 16)) << r[1] << " " << r[2];
      EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
    }
  trnrandGenerator_t g = nullptr;
  ASSERT_EQ(trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_MTGP32), TRNRAND_STATUS_SUCCESS);
  std::vector<unsigned int> u(9, 7u);
  for (int m = 0; m < 14; ++m) {
    const auto st = trnrandGeneratePoissonMethod(g, u.data(), 9, 4.5, static_cast<trnrandMethod_t>(m));
    EXPECT_EQ(st, status_of("poisson_method_" + std::to_string(m))) << m;
    if (st != TRNRAND_STATUS_SUCCESS) {
      EXPECT_EQ(std::count(u.begin(), u.end(), 7u), 9) << m;
    }
    std::fill(u.begin(), u.end(), 7u);
  }
  EXPECT_EQ(trnrandGeneratePoissonMethod(g, u.data(), 9, 4.5, static_cast<trnrandMethod_t>(14)), TRNRAND_STATUS_OUT_OF_RANGE);
  EXPECT_EQ(trnrandGeneratePoissonMethod(g, u.data(), 9, -1.0, TRNRAND_DEVICE_API), TRNRAND_STATUS_OUT_OF_RANGE);
  EXPECT_EQ(trnrandGeneratePoissonMethod(g, nullptr, 9, 4.5, TRNRAND_DEVICE_API), TRNRAND_STATUS_OUT_OF_RANGE);
  EXPECT_EQ(trnrandGeneratePoissonMethod(nullptr, u.data(), 9, 4.5, TRNRAND_DEVICE_API), TRNRAND_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(std::count(u.begin(), u.end(), 7u), 9);
  EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
  // Generators whose device-API sampler is not reproduced.
  ASSERT_EQ(trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(trnrandGeneratePoissonMethod(g, u.data(), 9, 4.5, TRNRAND_DEVICE_API), TRNRAND_STATUS_TYPE_ERROR);
  EXPECT_EQ(std::count(u.begin(), u.end(), 7u), 9);
  EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
}

TEST(TrnrandMtgp32, GenerateSeedsAndGetPropertyAsLibcurand) {
  // After 1000 words, GenerateSeeds restarts MTGP32 and MT19937 at word 0 and leaves the others
  // where they were (libcurand's records "generate_seeds <type> <word 0> <word 1000>").
  const auto rows = tagged_lines("generate_seeds");
  ASSERT_EQ(rows.size(), 6u);
  for (const auto& r : rows) {
    const auto type = static_cast<trnrandRngType_t>(std::stoi(r[1]));
    trnrandGenerator_t a = nullptr, b = nullptr;
    ASSERT_EQ(trnrandCreateGeneratorHost(&a, type), TRNRAND_STATUS_SUCCESS);
    ASSERT_EQ(trnrandCreateGeneratorHost(&b, type), TRNRAND_STATUS_SUCCESS);
    std::vector<unsigned long long> wa(1001), wb(2001);
    std::vector<unsigned int> na(1001), nb(2001);
    const bool wide = type == TRNRAND_RNG_QUASI_SOBOL64;
    if (wide) {
      ASSERT_EQ(trnrandGenerateLongLong(a, wa.data(), 1000), TRNRAND_STATUS_SUCCESS);
      ASSERT_EQ(trnrandGenerateSeeds(a), TRNRAND_STATUS_SUCCESS);
      ASSERT_EQ(trnrandGenerateLongLong(a, wa.data() + 1000, 1), TRNRAND_STATUS_SUCCESS);
      ASSERT_EQ(trnrandGenerateLongLong(b, wb.data(), 2001), TRNRAND_STATUS_SUCCESS);
    } else {
      ASSERT_EQ(trnrandGenerate(a, na.data(), 1000), TRNRAND_STATUS_SUCCESS);
      ASSERT_EQ(trnrandGenerateSeeds(a), TRNRAND_STATUS_SUCCESS);
      ASSERT_EQ(trnrandGenerate(a, na.data() + 1000, 1), TRNRAND_STATUS_SUCCESS);
      ASSERT_EQ(trnrandGenerate(b, nb.data(), 2001), TRNRAND_STATUS_SUCCESS);
    }
    EXPECT_EQ((wide ? wa[1000] == wb[0] : na[1000] == nb[0]) ? "1" : "0", r[2]) << r[1];
    EXPECT_EQ((wide ? wa[1000] == wb[1000] : na[1000] == nb[1000]) ? "1" : "0", r[3]) << r[1];
    EXPECT_EQ(trnrandDestroyGenerator(a), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(trnrandDestroyGenerator(b), TRNRAND_STATUS_SUCCESS);
  }
  EXPECT_EQ(trnrandGenerateSeeds(nullptr), TRNRAND_STATUS_NOT_INITIALIZED);
  int major = -1, minor = -1, patch = -1, version = 0, untouched = 7;
  ASSERT_EQ(trnrandGetProperty(MAJOR_VERSION, &major), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandGetProperty(MINOR_VERSION, &minor), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandGetProperty(PATCH_LEVEL, &patch), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandGetVersion(&version), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(major * 1000 + minor * 100 + patch, version);
  EXPECT_EQ(trnrandGetProperty(static_cast<libraryPropertyType>(3), &untouched), TRNRAND_STATUS_OUT_OF_RANGE);
  EXPECT_EQ(untouched, 7);
  EXPECT_EQ(trnrandGetProperty(MAJOR_VERSION, nullptr), TRNRAND_STATUS_OUT_OF_RANGE);
}
