// The set bits of a bitmap word read back as a list (the host index work's sort of a short range:
// SpGEMM's symbolic phase, the staged plan's distinct elements).
#pragma once
#include <bit>
#include <cstdint>

namespace trn::sparse::detail {

// The set bits of `word` as base + bit, increasing, at out[0 ..); returns their count. Four per round,
// each written whether set or not (past the last bit countr_zero is 64: written at the count, so
// overwritten by the next word or unread; out needs 3 elements beyond the count), so a word's usual
// 0–4 bits cost one predictable round instead of a mispredicted exit per word.
inline std::int64_t read_set_bits(std::uint64_t word, std::int64_t base, std::int64_t* __restrict out) {
  std::int64_t n = 0;
  while (word != 0) {
    for (int r = 0; r < 4; ++r) {
      out[n] = base + std::countr_zero(word);
      n += word != 0 ? 1 : 0;
      word &= word - 1;
    }
  }
  return n;
}

}  // namespace trn::sparse::detail
