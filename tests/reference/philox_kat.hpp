// Random123's known-answer vectors for Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel random
// numbers: as easy as 1, 2, 3", SC'11; the kat_vectors file of Random123 1.14, also shipped by
// Debian's librandom123-doc): the first three philox4x32 10-round lines, as counter, key, output.
// One copy for the core and trnrand tests and `trnsci validate`.
#pragma once
#include <array>
#include <cstdint>

namespace trnsci_reference {

struct PhiloxKat {
  std::array<std::uint32_t, 4> counter;
  std::array<std::uint32_t, 2> key;
  std::array<std::uint32_t, 4> output;
};

inline constexpr PhiloxKat kPhilox4x32_10Kats[] = {
    {{0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u}, {0x00000000u, 0x00000000u},
     {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
    {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu},
     {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
    {{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, {0xa4093822u, 0x299f31d0u},
     {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
};

}  // namespace trnsci_reference
