// MT19937 (cuRAND's PSEUDO_MT19937 = 142) against cuRAND's host generator, from the stored
// reference data/curand_reference_mt19937.txt (cuRAND 10.4, data/gen_curand_reference_large.cpp
// mt19937): every type in turn at seed 1234 (odd n for the inverse-CDF normals), a 2^22 + 2^21
// chain across the first 78-row block of all 8192 streams, a reseed that keeps the position, a
// 64-bit seed, statuses. Words and uniforms bit-exact (hashes of all values). The jump ahead
// against plain stepping, the characteristic polynomial against the standard generator.
#include <algorithm>
#include <random>
#include <vector>

#include "curand_replay.hpp"
#include "trn/rand/mt19937.hpp"
#include "trnrand.h"
#include "trnrand_test_util.hpp"

namespace {

using trn::rand::Mt19937Generator;

const trnrand_test::RefFile& reference_mt() { return trnrand_test::stored_reference("curand_reference_mt19937.txt"); }

int status_of(const std::string& what) { return trnrand_test::recorded_status(reference_mt(), what); }

}  // namespace

TEST(TrnrandMt19937, StreamZeroIsTheReferenceGenerator) {
  // Stream 0 is std::mt19937 (the C++ standard's MT19937, init_genrand seeding) of lo32(seed);
  // output p = 8 r 8192 ... : row r, column c of stream 0 is word 624 (r / 78) + q(r mod 78, c).
  std::mt19937 ref(1234u);
  std::vector<std::uint32_t> seq(2 * 624);
  for (auto& v : seq) v = ref();
  Mt19937Generator g;
  g.set_seed(1234);
  std::vector<std::uint32_t> row(8);
  for (int r = 0; r < 2 * 78; r += 7) {
    g.set_offset(static_cast<std::uint64_t>(r) << 16);
    g.generate(row);
    for (int c = 0; c < 8; ++c)
      ASSERT_EQ(row[static_cast<std::size_t>(c)],
                seq[static_cast<std::size_t>(624 * (r / 78) + trn::rand::mt19937_block_position(r % 78, c))])
          << r << " " << c;
  }
  // The block layout is a permutation of 0 .. 623.
  std::vector<int> seen(624, 0);
  for (int r = 0; r < 78; ++r)
    for (int c = 0; c < 8; ++c) ++seen[static_cast<std::size_t>(trn::rand::mt19937_block_position(r, c))];
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 624);
}

TEST(TrnrandMt19937, JumpAheadEqualsPlainStepping) {
  // phi has degree 19937 and annihilates the generator (x^(19937) reduced equals stepping is
  // checked through the jumps); jumps by J = 1, 625, 19937, 100003 against J single steps.
  const auto& phi = trn::rand::mt19937_characteristic_polynomial();
  ASSERT_EQ((phi[19937 / 64] >> (19937 % 64)) & 1u, 1u);
  const auto w0 = trn::rand::mt19937_init_genrand(42u);
  std::vector<std::uint32_t> x(w0.begin(), w0.end());
  const std::uint64_t kMax = 100003;
  x.resize(kMax + 624);
  for (std::size_t k = 0; k + 624 < x.size(); ++k) {
    const std::uint32_t y = (x[k] & 0x80000000u) | (x[k + 1] & 0x7fffffffu);
    x[k + 624] = x[k + 397] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
  }
  for (const std::uint64_t j : {std::uint64_t{1}, std::uint64_t{625}, std::uint64_t{19937}, kMax}) {
    const auto w = trn::rand::mt19937_jump(w0, trn::rand::mt19937_x_pow_mod(j));
    for (std::size_t k = 1; k < 624; ++k) ASSERT_EQ(w[k], x[j + k]) << j << " " << k;  // word 0: its top bit only
    EXPECT_EQ(w[0] >> 31, x[j] >> 31) << j;
    // From the window made recurrent, word 0 too (all 32 bits of x[J]).
    trn::rand::Mt19937Window stepped{};
    std::copy(x.begin() + static_cast<std::ptrdiff_t>(j), x.begin() + static_cast<std::ptrdiff_t>(j) + 624, stepped.begin());
    EXPECT_EQ(trn::rand::mt19937_jump(trn::rand::mt19937_recurrent_word0(w0), trn::rand::mt19937_x_pow_mod(j)), stepped) << j;
  }
  // 2^11 by squarings equals 2048 by square and multiply.
  EXPECT_EQ(trn::rand::mt19937_x_pow2_mod(11), trn::rand::mt19937_x_pow_mod(2048));
  // The stored stream jump polynomial is the computed one.
  EXPECT_EQ(trn::rand::mt19937_stream_jump_polynomial(), trn::rand::mt19937_x_pow2_mod(trn::rand::kMt19937StreamLog2Distance));
}

TEST(TrnrandMt19937, MiddleProductJumpEqualsHornerJump) {
  // mt19937_jump_clmul (32 bit-plane middle products) and the Horner scheme are the same linear map:
  // every word, for random windows (all 624 words arbitrary, word 0's low bits included) and random
  // polynomials of degree < 19937, x, x^19936, and the streams' jump polynomial chained 64 times.
  std::mt19937_64 r(20261206);
  trn::rand::Mt19937Window w{}, out{};
  for (int k = 0; k < 24; ++k) {
    trn::rand::Gf2Poly g(312);
    for (auto& c : g) c = r();
    g[311] &= (std::uint64_t{1} << (19937 % 64)) - 1;
    if (k == 0) {
      g.assign(312, 0);
      g[0] = 2;
    }
    if (k == 1) {
      g.assign(312, 0);
      g[311] = std::uint64_t{1} << (19936 % 64);
    }
    for (auto& x : w) x = static_cast<std::uint32_t>(r());
    const auto expected = trn::rand::mt19937_jump_horner(w, g);
    ASSERT_EQ(trn::rand::mt19937_jump(w, g), expected) << k;
    if (trn::rand::mt19937_jump_clmul(w, g, out)) {
      ASSERT_EQ(out, expected) << k;
    }
  }
  auto a = trn::rand::mt19937_init_genrand(7u), b = a;
  for (int t = 0; t < 64; ++t) {
    a = trn::rand::mt19937_jump(a, trn::rand::mt19937_stream_jump_polynomial());
    b = trn::rand::mt19937_jump_horner(b, trn::rand::mt19937_stream_jump_polynomial());
    ASSERT_EQ(a, b) << t;
  }
  // A polynomial of degree >= 19937 is refused by the middle product (the Horner scheme takes it).
  trn::rand::Gf2Poly high(313, 0);
  high[312] = 1;
  EXPECT_FALSE(trn::rand::mt19937_jump_clmul(w, high, out));
}

TEST(TrnrandMt19937, StreamJumpPowersAreProductsOfTheStreamJump) {
  // The stored x^(j 2^2048) mod phi (j = 1 .. 8) of the batched stream set-up: element 0 is the
  // stream jump, element j the product modulo phi of element j - 1 and the stream jump; the product
  // itself against square and multiply.
  using trn::rand::mt19937_mul_mod;
  using trn::rand::mt19937_x_pow_mod;
  EXPECT_EQ(mt19937_mul_mod(mt19937_x_pow_mod(20000), mt19937_x_pow_mod(30011)), mt19937_x_pow_mod(50011));
  EXPECT_EQ(mt19937_mul_mod(mt19937_x_pow_mod(19936), mt19937_x_pow_mod(19937)), mt19937_x_pow_mod(39873));
  const auto& powers = trn::rand::mt19937_stream_jump_powers();
  const auto& g = trn::rand::mt19937_stream_jump_polynomial();
  ASSERT_EQ(powers[0], g);
  for (std::size_t j = 1; j < powers.size(); ++j) EXPECT_EQ(powers[j], mt19937_mul_mod(powers[j - 1], g)) << j;
}

TEST(TrnrandMt19937, BatchedJumpsEqualSingleJumpsAndTheChain) {
  // mt19937_jump_many (one extension and generator side for several polynomials) equals
  // mt19937_jump per polynomial: random windows (word 0 arbitrary), random polynomials and the
  // stored powers, out aliasing the source. From init_genrand's window made recurrent
  // (mt19937_recurrent_word0), the j-th power equals j chained stream jumps (the set-up's old order,
  // and cuRAND's streams); from the window itself it does not for j = 3, 4 (their g_0 = 1).
  std::mt19937_64 r(20261207);
  const auto& powers = trn::rand::mt19937_stream_jump_powers();
  for (int k = 0; k < 6; ++k) {
    std::vector<trn::rand::Gf2Poly> polys(powers.begin(), powers.end());
    for (int extra = 0; extra < 3; ++extra) {
      trn::rand::Gf2Poly p(312);
      for (auto& c : p) c = r();
      p[311] &= (std::uint64_t{1} << (19937 % 64)) - 1;
      polys.insert(polys.begin() + 3 * extra, p);
    }
    trn::rand::Mt19937Window w{};
    for (auto& x : w) x = static_cast<std::uint32_t>(r());
    std::vector<trn::rand::Mt19937Window> out(polys.size());
    trn::rand::mt19937_jump_many(w, polys, out.data());
    for (std::size_t i = 0; i < polys.size(); ++i) ASSERT_EQ(out[i], trn::rand::mt19937_jump(w, polys[i])) << k << " " << i;
    trn::rand::Mt19937Window aliased = w;
    trn::rand::mt19937_jump_many(aliased, std::span<const trn::rand::Gf2Poly>(polys).subspan(5, 1), &aliased);
    ASSERT_EQ(aliased, out[5]) << k;
  }
  const auto w0 = trn::rand::mt19937_init_genrand(7u);
  const auto recurrent = trn::rand::mt19937_recurrent_word0(w0);
  std::vector<trn::rand::Mt19937Window> batch(powers.size());
  trn::rand::mt19937_jump_many(recurrent, powers, batch.data());
  auto chained = w0;
  bool differs_without = false;
  for (std::size_t j = 0; j < powers.size(); ++j) {
    chained = trn::rand::mt19937_jump(chained, trn::rand::mt19937_stream_jump_polynomial());
    ASSERT_EQ(batch[j], chained) << j;
    EXPECT_EQ(trn::rand::mt19937_recurrent_word0(chained), chained) << j;  // a jump's window is the recurrence's
    differs_without |= trn::rand::mt19937_jump(w0, powers[j]) != chained;
  }
  EXPECT_TRUE(differs_without);
  auto twisted = w0;
  trn::rand::mt19937_twist(twisted);
  EXPECT_EQ(trn::rand::mt19937_recurrent_word0(twisted), twisted);
}

TEST(TrnrandMt19937, StreamSetUpEqualsTheChainOfStreamJumps) {
  // All 8192 initial windows of seed 1234 (every word, word 0's unread bits included: the kernel
  // DMAs them into SBUF) by the batched set-up, in one range and in ranges that start and end inside
  // batches (as lazy calls do), against the chain of single stream jumps from init_genrand's window.
  const std::size_t n = trn::rand::kMt19937Streams;
  std::vector<trn::rand::Mt19937Window> chain(n), whole(n), pieces(n);
  chain[0] = whole[0] = pieces[0] = trn::rand::mt19937_init_genrand(1234u);
  for (std::size_t t = 1; t < n; ++t) chain[t] = trn::rand::mt19937_jump(chain[t - 1], trn::rand::mt19937_stream_jump_polynomial());
  trn::rand::mt19937_set_up_streams(whole.data(), 1, n);
  std::size_t from = 1;
  for (const std::size_t to : {std::size_t{2}, std::size_t{5}, std::size_t{9}, std::size_t{10}, std::size_t{100}, n})
    trn::rand::mt19937_set_up_streams(pieces.data(), from, to), from = to;
  for (std::size_t t = 0; t < n; ++t) {
    ASSERT_EQ(whole[t], chain[t]) << t;
    ASSERT_EQ(pieces[t], chain[t]) << t;
  }
}

TEST(TrnrandMt19937, MatchesStoredCurandVectors) {
  const auto& f = reference_mt();
  ASSERT_GE(f.calls.size(), 17u);
  const auto tally = trnrand_test::replay([] { return Mt19937Generator(); }, true, f, 1, false);
  trnrand_test::report("mt19937", tally);
  for (const char* exact : {"u32", "uniform", "uniform_double"}) {
    ASSERT_TRUE(tally.count(exact)) << exact;
    EXPECT_EQ(tally.at(exact).exact, tally.at(exact).values) << exact;
  }
  EXPECT_EQ(tally.at("normal").exact, tally.at("normal").values);  // the inverse CDF of each word, as SOBOL32
  EXPECT_LE(tally.at("log_normal").max_ulp, 2);
  EXPECT_EQ(tally.at("poisson").exact, tally.at("poisson").values);  // both methods (fp32 normal approximation)
}

TEST(TrnrandMt19937, EnginePathMatchesStoredCurandVectors) {
  // The mt19937_rows kernel (8192 stream windows in SBUF, GpSimd twists and tempering): the whole
  // file, the 2^22 + 2^21 chain across the first 78-row block included.
  const auto tally = trnrand_test::replay([] { return Mt19937Generator(true); }, true, reference_mt(), 1, false);
  trnrand_test::report("mt19937 engines", tally);
  for (const char* exact : {"u32", "uniform", "uniform_double", "normal", "poisson"}) {
    ASSERT_TRUE(tally.count(exact)) << exact;
    EXPECT_EQ(tally.at(exact).exact, tally.at(exact).values) << exact;
  }
  EXPECT_LE(tally.at("log_normal").max_ulp, 2);
}

TEST(TrnrandMt19937, EnginePathEqualsHostPathAndRecordsAProfile) {
  // Calls that start and end inside partitions and rows, one inside a single partition, one
  // wrapping past stream 8191 into the next row, and one crossing the 78-row block (a twist of
  // every stream), at two seeds: the same bits and position on both paths.
  for (const std::uint64_t seed : {0ull, 0x123456789abcdefull}) {
    Mt19937Generator host, engines(true);
    host.set_seed(seed);
    engines.set_seed(seed);
    auto both = [&](auto&& call) {
      const auto a = call(host), b = call(engines);
      EXPECT_EQ(a, b) << seed;
    };
    both([](Mt19937Generator& g) { std::vector<std::uint32_t> v(3); g.generate(v); return v; });
    both([](Mt19937Generator& g) { std::vector<float> v(1021); g.uniform(v); return v; });
    both([](Mt19937Generator& g) { std::vector<std::uint32_t> v(65536 - 1024 + 7); g.generate(v); return v; });
    both([](Mt19937Generator& g) { std::vector<double> v(999); g.normal_double(v, 0.0, 1.0); return v; });
    both([](Mt19937Generator& g) { std::vector<std::uint32_t> v(77 * 65536 - 65536 - 100); g.poisson(v, 4.5); return v; });
    both([](Mt19937Generator& g) { std::vector<float> v(3 * 65536 + 11); g.uniform(v); return v; });
    both([](Mt19937Generator& g) { std::vector<std::uint32_t> v(5); g.generate(v); return v; });
    EXPECT_EQ(host.offset(), engines.offset());
    const trn::Profile p = engines.last_profile();
    EXPECT_GT(p.total_ns, 0.0);
    EXPECT_GT(p.busy_ns[static_cast<int>(trn::Engine::gpsimd)], 0.0);
    EXPECT_EQ(host.last_profile().total_ns, 0.0);
  }
}

TEST(TrnrandMt19937, InterleavedGeneratorsKeepTheirWindowsWhenArraysAreRecycled) {
  // A gone generator's window array is kept for the next generator's first set-up (session 25). A
  // generator that already has windows keeps its own when it sets up more streams while such an
  // array waits, and a new generator on a recycled array gives the same words as the host path
  // (the array's old windows are never read).
  auto words = [](Mt19937Generator& g, std::size_t n) {
    std::vector<std::uint32_t> v(n);
    g.generate(v);
    return v;
  };
  Mt19937Generator host_a, host_c;
  host_a.set_seed(5);
  host_c.set_seed(6);
  const auto a_first = words(host_a, 100), a_next = words(host_a, (1u << 17) + 5);
  const auto c_first = words(host_c, 1000), c_next = words(host_c, 1u << 17);
  Mt19937Generator a(true);
  a.set_seed(5);
  EXPECT_EQ(words(a, 100), a_first);  // a set up its first 13 streams
  {
    Mt19937Generator b(true);
    b.set_seed(7);
    std::vector<float> v(1u << 17);  // every stream of seed 7 set up, then b is gone: its array waits
    b.uniform(v);
  }
  EXPECT_EQ(words(a, (1u << 17) + 5), a_next);  // a sets up the other streams in its own array
  Mt19937Generator c(true);  // takes b's array
  c.set_seed(6);
  EXPECT_EQ(words(c, 1000), c_first);
  EXPECT_EQ(words(c, 1u << 17), c_next);
}

TEST(TrnrandMt19937, CApiStatuses) {
  trnrandGenerator_t g = nullptr;
  // The "device" generator runs the mt19937_rows kernel (the last record again, below).
  trnrandGenerator_t d = nullptr;
  ASSERT_EQ(trnrandCreateGenerator(&d, TRNRAND_RNG_PSEUDO_MT19937), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_MT19937), TRNRAND_STATUS_SUCCESS);
  // The last record's generator: seed 0x123456789abcdef (cuRAND uses its low 32 bits), 3000 words.
  const auto& calls = reference_mt().calls;
  const auto it = std::find_if(calls.begin(), calls.end(), [](const auto& c) { return c.seed == 0x123456789abcdefull; });
  ASSERT_NE(it, calls.end());
  ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(g, it->seed), TRNRAND_STATUS_SUCCESS);
  std::vector<unsigned int> u(it->n);
  ASSERT_EQ(trnrandGenerate(g, u.data(), u.size()), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(trnrand_test::fnv1a64(u.data(), u.size() * 4), it->fnv);
  ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(d, it->seed), TRNRAND_STATUS_SUCCESS);
  std::fill(u.begin(), u.end(), 0u);
  ASSERT_EQ(trnrandGenerate(d, u.data(), u.size()), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(trnrand_test::fnv1a64(u.data(), u.size() * 4), it->fnv);
  trnProfile_t dprof{};
  ASSERT_EQ(trnrandGetLastProfile(d, &dprof), TRNRAND_STATUS_SUCCESS);
  EXPECT_GT(dprof.total_ns, 0.0);
  EXPECT_EQ(trnrandDestroyGenerator(d), TRNRAND_STATUS_SUCCESS);
  std::vector<unsigned long long> ull(9);
  std::vector<float> f(9);
  EXPECT_EQ(trnrandSetGeneratorOffset(g, 5), status_of("offset"));
  EXPECT_EQ(trnrandGenerateLongLong(g, ull.data(), 9), status_of("long_long"));
  EXPECT_EQ(trnrandGenerateNormal(g, f.data(), 9, 0.0f, 1.0f), status_of("normal_odd_n"));
  for (const int o : {100, 101, 102, 103, 104, 201})
    EXPECT_EQ(trnrandSetGeneratorOrdering(g, static_cast<trnrandOrdering_t>(o)), status_of("ordering_" + std::to_string(o)))
        << o;
  EXPECT_EQ(trnrandSetQuasiRandomGeneratorDimensions(g, 3), status_of("dimensions"));
  trnProfile_t prof{};
  EXPECT_EQ(trnrandGetLastProfile(g, &prof), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
}

TEST(TrnrandMt19937, ReseedRestartsOnlyForANewSeed) {
  // As the reference file's records after 6440092 words (cuRAND: a new seed restarts at word 0,
  // the same seed changes nothing), here on small calls through the C API.
  auto make = [](unsigned long long seed) {
    trnrandGenerator_t g = nullptr;
    EXPECT_EQ(trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_MT19937), TRNRAND_STATUS_SUCCESS);
    EXPECT_EQ(trnrandSetPseudoRandomGeneratorSeed(g, seed), TRNRAND_STATUS_SUCCESS);
    return g;
  };
  trnrandGenerator_t a = make(5), b = make(5), c = make(6);
  std::vector<unsigned int> whole(300), first(100), rest(200), fresh(100), restarted(100);
  ASSERT_EQ(trnrandGenerate(a, whole.data(), whole.size()), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandGenerate(b, first.data(), first.size()), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(b, 5), TRNRAND_STATUS_SUCCESS);  // same seed: no effect
  ASSERT_EQ(trnrandGenerate(b, rest.data(), rest.size()), TRNRAND_STATUS_SUCCESS);
  EXPECT_TRUE(std::equal(first.begin(), first.end(), whole.begin()));
  EXPECT_TRUE(std::equal(rest.begin(), rest.end(), whole.begin() + 100));
  ASSERT_EQ(trnrandGenerate(c, fresh.data(), fresh.size()), TRNRAND_STATUS_SUCCESS);
  ASSERT_EQ(trnrandSetPseudoRandomGeneratorSeed(b, 6), TRNRAND_STATUS_SUCCESS);  // new seed: word 0
  ASSERT_EQ(trnrandGenerate(b, restarted.data(), restarted.size()), TRNRAND_STATUS_SUCCESS);
  EXPECT_EQ(restarted, fresh);
  for (auto* g : {a, b, c}) EXPECT_EQ(trnrandDestroyGenerator(g), TRNRAND_STATUS_SUCCESS);
}
