// The vectorised host path: Philox4x32-10 words and cuRAND float uniforms filled on the host CPU,
// bit-identical to the GpSimd operator and the VectorE transform of the tile kernels (and to
// stream_word()). Three implementations chosen at run time, as core's nc_matmul does:
//  - portable: one Philox block per scalar call;
//  - avx2: 8 blocks per iteration (8 x 32-bit lanes), 32x32 -> 64 products by vpmuludq on even and
//    odd lanes;
//  - avx512: 16 blocks per iteration.
// The SIMD paths run over consecutive subsequences t of the host32 layout (streams.hpp), where the
// counter is (lo32(i), hi32(i), t, 0) with i fixed: lane j carries subsequence t0 + perm(j), perm
// chosen so that the in-lane 4x4 word transposes leave the blocks in memory order. Other layouts
// and the partial blocks at the ends go through the scalar code.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "trn/rand/streams.hpp"

namespace trn::rand {

enum class HostIsa : std::uint8_t { automatic, portable, avx2, avx512 };
bool host_isa_available(HostIsa isa);
std::string_view host_isa_name(HostIsa isa);
// The widest available ISA for `automatic`, otherwise the request (which must be available).
HostIsa resolve_host_isa(HostIsa requested);

// out[k] = stream_word(s, first_word + k).
void fill_stream_words(const WordStream& s, std::uint64_t first_word, std::span<std::uint32_t> out,
                       HostIsa isa = HostIsa::automatic);
// out[k] = uniform_from_word(word first_position + k of the host32 stream of `seed`).
void fill_uniform(std::uint64_t seed, std::uint64_t first_position, std::span<float> out,
                  HostIsa isa = HostIsa::automatic);
// out[k] = uniform_from_word(stream_word(s, first_position + k)) for a host32 stream (with its shifts).
void fill_uniform(const WordStream& s, std::uint64_t first_position, std::span<float> out,
                  HostIsa isa = HostIsa::automatic);

}  // namespace trn::rand
