// The Random123 side of bench_trnrand, in its own translation unit compiled with -O3 -march=native
// (bench/trnrand/CMakeLists.txt): Random123 is header-only, so this is how a user's program builds
// it, and the baseline must not be handicapped by the project's portable flags. Two user loops:
// the straightforward one (one r123::Philox4x32 call per block of four words, ctr.incr(), whose
// carry chain keeps GCC from vectorising it) and the counter computed from the block index (no
// loop-carried state, so GCC vectorises the rounds with vpmuludq under -march=native).
#include "random123_native.hpp"

#include <Random123/philox.h>

namespace bench_trnrand {

namespace {
r123::Philox4x32::key_type key_of(std::uint64_t seed) {
  return {{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
}
}  // namespace

void random123_words(std::uint32_t* out, std::size_t n, std::uint64_t seed, std::uint64_t first_block) {
  r123::Philox4x32 philox;
  const auto key = key_of(seed);
  r123::Philox4x32::ctr_type ctr = {{static_cast<std::uint32_t>(first_block), static_cast<std::uint32_t>(first_block >> 32), 0, 0}};
  for (std::size_t i = 0; i + 4 <= n; i += 4) {
    const auto r = philox(ctr, key);
    out[i] = r[0];
    out[i + 1] = r[1];
    out[i + 2] = r[2];
    out[i + 3] = r[3];
    ctr.incr();
  }
}

void random123_uniforms(float* out, std::size_t n, std::uint64_t seed, std::uint64_t first_block) {
  r123::Philox4x32 philox;
  const auto key = key_of(seed);
  r123::Philox4x32::ctr_type ctr = {{static_cast<std::uint32_t>(first_block), static_cast<std::uint32_t>(first_block >> 32), 0, 0}};
  for (std::size_t i = 0; i + 4 <= n; i += 4) {
    const auto r = philox(ctr, key);
    for (int j = 0; j < 4; ++j) out[i + static_cast<std::size_t>(j)] = static_cast<float>(r[j]) * 0x1p-32f + 0x1p-33f;
    ctr.incr();
  }
}

namespace {
// The index-computed loop: block b of the stream is philox((first_block + b, 0, 0, 0), key), its
// four words written through `put` (identity or cuRAND's uniform conversion).
template <class Out, class Put>
void indexed_blocks(Out* out, std::size_t n, std::uint64_t seed, std::uint64_t first_block, Put put) {
  r123::Philox4x32 philox;
  const auto key = key_of(seed);
  const std::size_t blocks = n / 4;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::uint64_t c = first_block + b;
    const r123::Philox4x32::ctr_type ctr = {{static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(c >> 32), 0, 0}};
    const auto r = philox(ctr, key);
    for (int j = 0; j < 4; ++j) out[4 * b + static_cast<std::size_t>(j)] = put(r[j]);
  }
}
}  // namespace

void random123_words_indexed(std::uint32_t* out, std::size_t n, std::uint64_t seed, std::uint64_t first_block) {
  indexed_blocks(out, n, seed, first_block, [](std::uint32_t w) { return w; });
}

void random123_uniforms_indexed(float* out, std::size_t n, std::uint64_t seed, std::uint64_t first_block) {
  indexed_blocks(out, n, seed, first_block,
                 [](std::uint32_t w) { return static_cast<float>(w) * 0x1p-32f + 0x1p-33f; });
}

}  // namespace bench_trnrand
