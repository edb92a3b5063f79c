// Stream layouts (streams.hpp), the device-style API (device.hpp) and the vectorised host fill
// (host.hpp). References: Random123's r123::Philox4x32 with counters written out in the test from
// the documented maps (docs/trnrand.md section 2; cuRAND's curand_kernel.h), and the curand_init
// word table of docs/trnrand.md section 2.
#include <Random123/philox.h>

#include <random>

#include "trn/rand/device.hpp"
#include "trn/rand/host.hpp"
#include "trn/rand/streams.hpp"
#include "trn/rand/transforms.hpp"
#include "trnrand_test_util.hpp"

namespace {

using trn::rand::WordOrder;
using trn::rand::WordStream;

// Random123's Philox4x32-10 on counter (c0, c1, c2, c3), key (lo32 seed, hi32 seed).
std::uint32_t r123_word(std::uint64_t seed, std::uint64_t lo64, std::uint64_t hi64, int lane) {
  r123::Philox4x32 g;
  const r123::Philox4x32::ctr_type c = {{static_cast<std::uint32_t>(lo64), static_cast<std::uint32_t>(lo64 >> 32),
                                         static_cast<std::uint32_t>(hi64), static_cast<std::uint32_t>(hi64 >> 32)}};
  const r123::Philox4x32::key_type k = {{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
  return g(c, k)[static_cast<unsigned>(lane)];
}

// cuRAND 10.4 host generator (docs/trnrand.md section 2): 32-bit output n is lane n mod 4 of
// counter i = q / 65536 of subsequence t = q mod 65536, q = n / 4.
std::uint32_t host32_reference(std::uint64_t seed, std::uint64_t n) {
  const std::uint64_t q = n / 4;
  return r123_word(seed, q / 65536, q % 65536, static_cast<int>(n % 4));
}
// 64-bit position p of a call that started at P0 uses words 2p, 2p + 1: q = p / 4, r = p mod 4,
// t = q mod 65536, i = q / 65536; thread t's first block in the call is i_first = the i of its
// first q >= P0 / 4, and it takes two counters per iteration (observed, see streams.hpp):
// counter i_first + 2 (i - i_first) + r / 2, lanes 2 (r mod 2) + {0, 1}.
std::uint32_t host64_reference(std::uint64_t seed, std::uint64_t call_start, std::uint64_t w) {
  const std::uint64_t p = w / 2, q = p / 4, r = p % 4, t = q % 65536, i = q / 65536;
  std::uint64_t i_first = 0;
  while (i_first * 65536 + t < call_start / 4) ++i_first;
  return r123_word(seed, i_first + 2 * (i - i_first) + r / 2, t, static_cast<int>(2 * (r % 2) + w % 2));
}

}  // namespace

TEST(TrnrandStreams, Host32WordsFollowCuRandHostOrdering) {
  const std::uint64_t seeds[] = {0, 1234, 0xDEADBEEFCAFEF00Dull};
  const std::uint64_t starts[] = {0, 5, 262140, 262143 * 4 - 3, 5000001, (1ull << 34) - 7, (1ull << 40) + 3};
  for (const auto seed : seeds)
    for (const auto start : starts)
      for (std::uint64_t n = start; n < start + 40; ++n)
        ASSERT_EQ(trn::rand::stream_word({seed, WordOrder::host32, 0}, n), host32_reference(seed, n))
            << "seed " << seed << " word " << n;
}

TEST(TrnrandStreams, Host64WordsFollowCuRandHostOrdering) {
  // Calls starting at 0, mid-block, just before the 65536-subsequence wrap, and far out; words of
  // the call's first round, its second round and beyond.
  const std::uint64_t call_starts[] = {0, 5, 262140, 262143, 5000001, (1ull << 34) - 3};
  for (const auto p0 : call_starts) {
    const trn::rand::WordStream s{42, WordOrder::host64, 0, p0};
    for (const std::uint64_t from : {p0, p0 + 262144 - 8, p0 + 3 * 262144 + 101})
      for (std::uint64_t w = 2 * from; w < 2 * from + 64; ++w)
        ASSERT_EQ(trn::rand::stream_word(s, w), host64_reference(42, p0, w)) << "call start " << p0 << " word " << w;
  }
}

TEST(TrnrandStreams, Host64DependsOnTheCallStart) {
  // cuRAND's 64-bit outputs are not a function of the position alone: position 262144 is block
  // (2, t = 0) in a call from 0 but block (1, 0) in a call from 262140 (both observed).
  const std::uint64_t w = 2 * 262144;
  EXPECT_EQ(trn::rand::stream_word({9, WordOrder::host64, 0, 0}, w), r123_word(9, 2, 0, 0));
  EXPECT_EQ(trn::rand::stream_word({9, WordOrder::host64, 0, 262140}, w), r123_word(9, 1, 0, 0));
  // ... so both calls produce the same double: position 262144 of the call from 262140 and
  // position 2 of the call from 0 (block (1, 0), lanes 0-1).
  for (std::uint64_t lane = 0; lane < 2; ++lane)
    EXPECT_EQ(trn::rand::stream_word({9, WordOrder::host64, 0, 262140}, w + lane),
              trn::rand::stream_word({9, WordOrder::host64, 0, 0}, 2 * 2 + lane));
  // Within the first round of every thread it is the same as for a call from 0 (P0 < 4).
  EXPECT_EQ(trn::rand::stream_word({9, WordOrder::host64, 0, 3}, 2 * 1000),
            trn::rand::stream_word({9, WordOrder::host64, 0, 0}, 2 * 1000));
}

TEST(TrnrandStreams, SubsequenceOrderIsOneDeviceStream) {
  const WordStream s{0xDEADBEEFCAFEF00Dull, WordOrder::subsequence, 7};
  for (std::uint64_t w = 0; w < 64; ++w)
    EXPECT_EQ(trn::rand::stream_word(s, w), r123_word(s.seed, w / 4, 7, static_cast<int>(w % 4)));
}

TEST(TrnrandStreams, SubstreamsNeverReuseAMainStreamBlock) {
  // Main-stream counters have a zero fourth word (t < 2^16, i < 2^32 here); substreams carry a
  // nonzero tag there, so the blocks differ from every host32 block with the same low words.
  for (std::uint32_t tag : {trn::rand::kSubstreamTagPoisson, trn::rand::kSubstreamTagUniformInt}) {
    EXPECT_NE(tag, 0u);
    const auto b = trn::rand::substream_block(1, tag, 5, 0);
    EXPECT_EQ(b, trn::philox4x32_10({0, 5, 0, tag}, {1, 0}));
    EXPECT_NE(b, trn::philox4x32_10({0, 5, 0, 0}, {1, 0}));
  }
}

// ---- device-style API ---------------------------------------------------------------------------

TEST(TrnrandDeviceApi, CurandInitWordsOfNumericsMd82) {
  struct Row {
    std::uint64_t seed, subsequence, offset;
    std::array<std::uint32_t, 6> words;
  };
  const Row rows[] = {
      {0, 0, 0, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u, 0xf8e4cca4u, 0x5cb200dbu}},
      {0, 1, 0, {0x844515e1u, 0xf08d6eaau, 0x0f19c053u, 0x83f875f0u, 0xca7cf69eu, 0xd9c77dedu}},
      {1234, 0, 0, {0x2090b348u, 0xda7cf0abu, 0x4401906fu, 0xcbca470eu, 0x9eeede35u, 0x1cbe137cu}},
      {1234, 0, 5, {0x1cbe137cu, 0xfa277093u, 0x147edd50u, 0x3fc9c8d8u, 0xfc06fa38u, 0xcc170b27u}},
      {0xDEADBEEFCAFEF00Dull, 7, 0, {0x45eecd19u, 0xd2e2abafu, 0xd8f24896u, 0x06ed67b3u, 0x6f78bdc2u, 0xa8246c1bu}},
  };
  for (const Row& r : rows) {
    auto s = trn::rand::philox_init(r.seed, r.subsequence, r.offset);
    for (int j = 0; j < 6; ++j)
      EXPECT_EQ(s.next(), r.words[static_cast<std::size_t>(j)]) << r.seed << "/" << r.subsequence << "/" << r.offset;
  }
}

TEST(TrnrandDeviceApi, UsableInConstantExpressions) {
  constexpr std::uint32_t w = [] {
    auto s = trn::rand::philox_init(0, 1, 0);
    return s.next();
  }();
  static_assert(w == 0x844515e1u);
  EXPECT_EQ(w, 0x844515e1u);
}

TEST(TrnrandDeviceApi, SkipaheadEqualsStepping) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const std::uint64_t seed = rng(), sub = rng() % 1000, offset = rng() % 5000;
    auto skipped = trn::rand::philox_init(seed, sub, offset);
    auto stepped = trn::rand::philox_init(seed, sub, 0);
    for (std::uint64_t k = 0; k < offset; ++k) stepped.next();
    for (int k = 0; k < 9; ++k) ASSERT_EQ(skipped.next(), stepped.next()) << trial;
    // skipahead on a state that is mid-block.
    auto a = trn::rand::philox_init(seed, sub, 3);
    a.skipahead(offset);
    auto b = trn::rand::philox_init(seed, sub, 3 + offset);
    ASSERT_EQ(a.next(), b.next());
  }
  // Subsequence skips add to the high 64 counter bits; offsets carry into them.
  auto s = trn::rand::philox_init(1, 0, 0);
  s.skipahead_sequence(5);
  EXPECT_EQ(s.counter(), (trn::Philox4x32Counter{0, 0, 5, 0}));
  auto c = trn::rand::philox_init(1, 0xffffffffull, 0);
  c.skipahead(~std::uint64_t{0});  // 2^64 - 1 words: 2^62 - 1 blocks, lane 3
  EXPECT_EQ(c.lane(), 3);
  EXPECT_EQ(c.counter(), (trn::Philox4x32Counter{0xffffffffu, 0x3fffffffu, 0xffffffffu, 0}));
  c.skipahead(1);  // lane 3 + 1 wraps into the next block
  EXPECT_EQ(c.lane(), 0);
  EXPECT_EQ(c.counter(), (trn::Philox4x32Counter{0, 0x40000000u, 0xffffffffu, 0}));
  auto carry = trn::rand::philox_init(1, 0, 0);
  for (int k = 0; k < 4; ++k) carry.skipahead(~std::uint64_t{0} - 3);  // 4 (2^62 - 1) blocks
  EXPECT_EQ(carry.counter(), (trn::Philox4x32Counter{0xfffffffcu, 0xffffffffu, 0, 0}));
  carry.skipahead(16);  // 4 more blocks: the low 64 bits wrap and carry into the subsequence
  EXPECT_EQ(carry.counter(), (trn::Philox4x32Counter{0, 0, 1, 0}));
}

TEST(TrnrandDeviceApi, Next4FromEveryLane) {
  for (std::uint64_t offset = 0; offset < 8; ++offset) {
    auto a = trn::rand::philox_init(99, 3, offset), b = a;
    const auto four = a.next4();
    // curand4 returns the four words from the current lane and leaves the lane unchanged.
    for (int j = 0; j < 4; ++j) EXPECT_EQ(four[static_cast<std::size_t>(j)], b.next()) << offset;
    EXPECT_EQ(a.lane(), static_cast<int>(offset % 4));
  }
}

TEST(TrnrandDeviceApi, DistributionsMatchTheHostGeneratorLayout) {
  // Subsequence t at offset 0 is the host generator's block t (t < 65536): curand_normal4 of it
  // gives host normal positions 4t .. 4t+3, curand_uniform4 host uniforms 4t .. 4t+3.
  for (std::uint64_t t : {0ull, 1ull, 777ull, 65535ull}) {
    auto s = trn::rand::philox_init(2024, t, 0);
    const auto u = s.uniform4();
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(u[static_cast<std::size_t>(j)],
                trn::rand::uniform_from_word(host32_reference(2024, 4 * t + static_cast<std::uint64_t>(j))));
    auto n = trn::rand::philox_init(2024, t, 0);
    const auto z = n.normal4();
    const auto p0 = trn::rand::box_muller_f32(host32_reference(2024, 4 * t), host32_reference(2024, 4 * t + 1));
    const auto p1 = trn::rand::box_muller_f32(host32_reference(2024, 4 * t + 2), host32_reference(2024, 4 * t + 3));
    EXPECT_EQ(z, (std::array<float, 4>{p0[0], p0[1], p1[0], p1[1]}));
    // curand_normal returns the sine value, then the cached cosine.
    auto c = trn::rand::philox_init(2024, t, 0);
    EXPECT_EQ(c.normal(), p0[0]);
    EXPECT_EQ(c.normal(), p0[1]);
    EXPECT_EQ(c.normal(), p1[0]);
  }
  // curand_uniform_double (one word) and curand_uniform2_double (hq pairs).
  auto d = trn::rand::philox_init(0, 0, 0);
  EXPECT_EQ(d.uniform_double(), 0x6627e8d5u * 0x1p-32 + 0x1p-32);
  auto d2 = trn::rand::philox_init(0, 0, 0);
  const auto hq = d2.uniform2_double();
  EXPECT_EQ(hq[0],
            static_cast<double>(std::uint64_t{0x6627e8d5u} ^ (std::uint64_t{0xe169c58du} << 21)) * 0x1p-53 + 0x1p-54);
}

// ---- vectorised host fill -----------------------------------------------------------------------

TEST(TrnrandHostPath, EveryIsaFillsTheStreamWords) {
  std::mt19937_64 rng(5);
  const trn::rand::HostIsa isas[] = {trn::rand::HostIsa::portable, trn::rand::HostIsa::avx2, trn::rand::HostIsa::avx512,
                                     trn::rand::HostIsa::automatic};
  int tested = 0;
  for (const auto isa : isas) {
    if (!trn::rand::host_isa_available(isa)) {
      std::cout << "[ skipped ] ISA " << trn::rand::host_isa_name(isa) << " not available on this CPU\n";
      continue;
    }
    ++tested;
    for (int trial = 0; trial < 40; ++trial) {
      // Starts near the 65536-block wrap so runs cross it; odd heads and tails.
      const std::uint64_t first =
          (trial % 2 ? 262144ull * (rng() % 4) - rng() % 300 : rng() % 100000) + (trial % 5 == 0 ? (1ull << 36) : 0);
      const std::size_t n = static_cast<std::size_t>(rng() % 3000);
      for (const auto order : {WordOrder::host32, WordOrder::host64, WordOrder::subsequence}) {
        const WordStream s{rng(), order, rng() % 100, first / 2 - rng() % 1000 % (first / 2 + 1)};
        std::vector<std::uint32_t> got(n);
        trn::rand::fill_stream_words(s, first, got, isa);
        for (std::size_t k = 0; k < n; ++k)
          ASSERT_EQ(got[k], trn::rand::stream_word(s, first + k))
              << trn::rand::host_isa_name(isa) << " order " << static_cast<int>(order) << " first " << first << " k "
              << k;
      }
      std::vector<float> u(n);
      const std::uint64_t seed = rng();
      trn::rand::fill_uniform(seed, first, u, isa);
      for (std::size_t k = 0; k < n; ++k) {
        // Independent: RNE(x) to fp32, then x 2^-32 + 2^-33 exactly in long double, rounded once.
        const std::uint32_t x = host32_reference(seed, first + k);
        const float expect = static_cast<float>(static_cast<long double>(static_cast<float>(x)) * 0x1p-32L + 0x1p-33L);
        ASSERT_EQ(std::bit_cast<std::uint32_t>(u[k]), std::bit_cast<std::uint32_t>(expect)) << k;
      }
    }
  }
  EXPECT_GE(tested, 2);
}

TEST(TrnrandHostPath, UniformEndpointsAreThoseOfCuRand) {
  EXPECT_EQ(trn::rand::uniform_from_word(0), 0x1p-33f);                // 1.16415322e-10
  EXPECT_EQ(trn::rand::uniform_from_word(0xffffffffu), 1.0f);          // (0, 1]
  EXPECT_EQ(trn::rand::uniform_from_word(0x6627e8d5u), 0.399046481f);  // cuRAND host generator, seed 0
}
