// Counter-based random number generators as pure functions of (counter, key): Philox4x32 (from
// core, trn/core/philox.hpp, shared with stochastic rounding), Philox2x32 and Threefry4x32, after
// Salmon, Moraes, Dror & Shaw, "Parallel random numbers: as easy as 1, 2, 3" (SC11) and Random123's
// philox.h / threefry.h. No state: the same (counter, key) gives the same words on any thread, in
// any order. Tested against Random123's known-answer vectors (tests/kat_vectors) and against
// Random123's own headers on random inputs (tests/trnrand/test_trnrand_cbrng.cpp).
//
// Names of the function templates are parenthesised at their declaration because Random123's
// headers define function-like macros philox2x32(c, k) and threefry4x32(c, k); this header stays
// usable after them. Call them as philox2x32<R>(c, k) / philox2x32_10(c, k), etc.
#pragma once
#include <array>
#include <cstdint>

#include "trn/core/philox.hpp"

namespace trn::rand {

using trn::philox4x32_10;
using trn::Philox4x32Counter;
using trn::Philox4x32Key;

// ---- Philox2x32 ------------------------------------------------------------------------------------

using Philox2x32Counter = std::array<std::uint32_t, 2>;
using Philox2x32Key = std::array<std::uint32_t, 1>;

struct Philox2x32Constants {
  static constexpr std::uint32_t kMultiplier = 0xD256D193u;  // Random123 PHILOX_M2x32_0
  static constexpr std::uint32_t kWeyl = 0x9E3779B9u;        // golden ratio, PHILOX_W32_0
};

// One round: (hi, lo) = M * c.x; c' = (hi ^ k ^ c.y, lo).
constexpr Philox2x32Counter philox2x32_round(const Philox2x32Counter& c, const Philox2x32Key& k) {
  const std::uint64_t p = std::uint64_t{Philox2x32Constants::kMultiplier} * c[0];
  return {static_cast<std::uint32_t>(p >> 32) ^ k[0] ^ c[1], static_cast<std::uint32_t>(p)};
}

// Philox2x32 with R rounds; the key is bumped between rounds, not after the last one.
template <int Rounds = 10>
constexpr Philox2x32Counter(philox2x32)(Philox2x32Counter c, Philox2x32Key k) {
  static_assert(Rounds >= 1 && Rounds <= 16, "Random123 defines Philox2x32 for 1..16 rounds");
  for (int r = 0; r < Rounds; ++r) {
    if (r > 0) k[0] += Philox2x32Constants::kWeyl;
    c = philox2x32_round(c, k);
  }
  return c;
}

constexpr Philox2x32Counter philox2x32_10(const Philox2x32Counter& c, const Philox2x32Key& k) {
  return philox2x32<10>(c, k);
}

// ---- Threefry4x32 ----------------------------------------------------------------------------------

using Threefry4x32Counter = std::array<std::uint32_t, 4>;
using Threefry4x32Key = std::array<std::uint32_t, 4>;

struct Threefry4x32Constants {
  // Skein key-schedule parity (SKEIN_KS_PARITY32) and the 4x32 rotation constants R_32x4[8][2]
  // (Random123 threefry.h, from the Threefish-256 search of Salmon et al.).
  static constexpr std::uint32_t kParity = 0x1BD11BDAu;
  static constexpr int kRotation[8][2] = {{10, 26}, {11, 21}, {13, 27}, {23, 5}, {6, 20}, {17, 11}, {25, 10}, {18, 20}};
};

constexpr std::uint32_t rotl32(std::uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

// Threefry4x32 with R rounds: x = counter + key; then R rounds of two MIX operations (even rounds
// mix (x0, x1) and (x2, x3), odd rounds (x0, x3) and (x2, x1), rotations R_32x4[r mod 8]); after
// every fourth round s/4 the key schedule is injected: x_i += ks[(s + i) mod 5], x3 += s, with
// ks[4] = parity ^ k0 ^ k1 ^ k2 ^ k3.
template <int Rounds = 20>
constexpr Threefry4x32Counter(threefry4x32)(const Threefry4x32Counter& in, const Threefry4x32Key& k) {
  static_assert(Rounds >= 0 && Rounds <= 72, "Random123 defines Threefry4x32 for up to 72 rounds");
  const std::uint32_t ks[5] = {k[0], k[1], k[2], k[3], Threefry4x32Constants::kParity ^ k[0] ^ k[1] ^ k[2] ^ k[3]};
  std::uint32_t x0 = in[0] + ks[0], x1 = in[1] + ks[1], x2 = in[2] + ks[2], x3 = in[3] + ks[3];
  for (int r = 0; r < Rounds; ++r) {
    const int* rot = Threefry4x32Constants::kRotation[r % 8];
    if (r % 2 == 0) {
      x0 += x1;
      x1 = rotl32(x1, rot[0]);
      x1 ^= x0;
      x2 += x3;
      x3 = rotl32(x3, rot[1]);
      x3 ^= x2;
    } else {
      x0 += x3;
      x3 = rotl32(x3, rot[0]);
      x3 ^= x0;
      x2 += x1;
      x1 = rotl32(x1, rot[1]);
      x1 ^= x2;
    }
    if (r % 4 == 3) {
      const int s = (r + 1) / 4;
      x0 += ks[s % 5];
      x1 += ks[(s + 1) % 5];
      x2 += ks[(s + 2) % 5];
      x3 += ks[(s + 3) % 5] + static_cast<std::uint32_t>(s);
    }
  }
  return {x0, x1, x2, x3};
}

constexpr Threefry4x32Counter threefry4x32_20(const Threefry4x32Counter& c, const Threefry4x32Key& k) {
  return threefry4x32<20>(c, k);
}

}  // namespace trn::rand
