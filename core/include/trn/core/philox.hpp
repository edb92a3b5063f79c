// Philox4x32-10: the counter-based generator of Salmon, Moraes, Dror & Shaw, "Parallel random
// numbers: as easy as 1, 2, 3" (SC11), as in Random123's philox.h. A pure function of
// (counter, key): no state, so the same (seed, instruction, element) always gives the same bits
// on any thread, in any order. Core uses it for stochastic-rounding bits; trnrand builds on it.
// Tested against Random123's known-answer vectors and its own header (tests/core/test_philox.cpp).
#pragma once
#include <array>
#include <cstdint>

namespace trn {

using Philox4x32Counter = std::array<std::uint32_t, 4>;
using Philox4x32Key = std::array<std::uint32_t, 2>;

struct Philox4x32Constants {
  static constexpr std::uint32_t kMultiplier0 = 0xD2511F53u;  // Random123 PHILOX_M4x32_0
  static constexpr std::uint32_t kMultiplier1 = 0xCD9E8D57u;  // PHILOX_M4x32_1
  static constexpr std::uint32_t kWeyl0 = 0x9E3779B9u;        // golden ratio, PHILOX_W32_0
  static constexpr std::uint32_t kWeyl1 = 0xBB67AE85u;        // sqrt(3) - 1, PHILOX_W32_1
};

// One Philox round: (hi0, lo0) = M0 * c.x, (hi1, lo1) = M1 * c.z;
// c' = (hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0).
constexpr Philox4x32Counter philox4x32_round(const Philox4x32Counter& c, const Philox4x32Key& k) {
  const std::uint64_t p0 = std::uint64_t{Philox4x32Constants::kMultiplier0} * c[0];
  const std::uint64_t p1 = std::uint64_t{Philox4x32Constants::kMultiplier1} * c[2];
  return {static_cast<std::uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<std::uint32_t>(p1),
          static_cast<std::uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<std::uint32_t>(p0)};
}

// Philox4x32 with R rounds (the key is bumped between rounds, not after the last one).
// The name is parenthesised because Random123's philox.h defines a function-like macro
// philox4x32(c, k); this keeps the header usable after <Random123/philox.h> (the reference tests
// include both). Call it as philox4x32<R>(c, k) or philox4x32_10(c, k).
template <int Rounds = 10>
constexpr Philox4x32Counter(philox4x32)(Philox4x32Counter c, Philox4x32Key k) {
  static_assert(Rounds >= 1 && Rounds <= 16, "Random123 defines Philox4x32 for 1..16 rounds");
  for (int r = 0; r < Rounds; ++r) {
    if (r > 0) {
      k[0] += Philox4x32Constants::kWeyl0;
      k[1] += Philox4x32Constants::kWeyl1;
    }
    c = philox4x32_round(c, k);
  }
  return c;
}

constexpr Philox4x32Counter philox4x32_10(const Philox4x32Counter& c, const Philox4x32Key& k) {
  return philox4x32<10>(c, k);
}

}  // namespace trn
