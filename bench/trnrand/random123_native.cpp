// The Random123 side of bench_trnrand, in its own translation unit compiled with -O3 -march=native
// (bench/trnrand/CMakeLists.txt): Random123 is header-only, so this is how a user's program builds
// it, and the baseline must not be handicapped by the project's portable flags. The loops are the
// straightforward ones: one r123::Philox4x32 call per block of four words, counter incremented.
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

}  // namespace bench_trnrand
