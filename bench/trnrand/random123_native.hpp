// Random123 reference loops for bench_trnrand, compiled with -O3 -march=native (random123_native.cpp).
#pragma once
#include <cstddef>
#include <cstdint>

namespace bench_trnrand {
// n words (a multiple of 4) of the Philox4x32-10 stream of key `seed`, blocks first_block, first_block + 1, ...
void random123_words(std::uint32_t* out, std::size_t n, std::uint64_t seed, std::uint64_t first_block);
// The same words as cuRAND's uniforms: x 2^-32 + 2^-33.
void random123_uniforms(float* out, std::size_t n, std::uint64_t seed, std::uint64_t first_block);
// The same outputs with the counter computed from the block index (the loop GCC vectorises).
void random123_words_indexed(std::uint32_t* out, std::size_t n, std::uint64_t seed, std::uint64_t first_block);
void random123_uniforms_indexed(float* out, std::size_t n, std::uint64_t seed, std::uint64_t first_block);
// The flags random123_native.cpp was compiled with (for the benchmark's output).
inline constexpr const char* kRandom123Flags = "-O3 -march=native";
}  // namespace bench_trnrand
