// Vectorised Philox4x32-10 word and uniform fills (trn/rand/host.hpp). Every path computes the
// same words as stream_word(); the uniform conversion is float(x) * 2^-32 + 2^-33 with an exact
// product, so it is the same with or without fused multiply-adds. The vector kernels are the
// core's (trn/core/host_loops.hpp).
#include <algorithm>
#include <array>
#include <string>

#include "trn/core/error.hpp"
#include "trn/core/host_loops.hpp"
#include "trn/rand/host.hpp"
#include "trn/rand/transforms.hpp"

namespace trn::rand {

namespace {

// Output element conversion: raw words or cuRAND float uniforms (both 4 bytes).
template <class T>
inline T convert_word(std::uint32_t w) {
  if constexpr (std::is_same_v<T, float>)
    return uniform_from_word(w);
  else
    return w;
}

// Scalar: out[k] = convert(word w0 + k), one Philox call per block.
template <class T>
void fill_scalar(const WordStream& s, std::uint64_t w0, T* out, std::size_t n) {
  std::size_t k = 0;
  while (k < n) {
    const std::uint64_t w = w0 + k;
    const auto block = stream_block(s, w / kWordsPerBlock);
    for (std::uint64_t lane = w % kWordsPerBlock; lane < kWordsPerBlock && k < n; ++lane, ++k)
      out[k] = convert_word<T>(block[lane]);
  }
}

bool cpu_has(HostIsa isa) {  // the core's probe (trn/core/host_simd.hpp), one answer for every library
  switch (isa) {
    case HostIsa::avx512:
      return host_simd_available(HostSimd::avx512);
    case HostIsa::avx2:
      return host_simd_available(HostSimd::avx2);
    default:
      return true;
  }
}

// Head and tail partial blocks and non-host32 layouts go through fill_scalar; runs of whole
// blocks inside one counter i (at most 65536 subsequences) through the SIMD kernel.
template <class T>
void fill(const WordStream& s, std::uint64_t w0, T* out, std::size_t n, HostIsa requested) {
  const HostIsa isa = resolve_host_isa(requested);
  if (s.order != WordOrder::host32 || isa == HostIsa::portable) return fill_scalar(s, w0, out, n);
  const std::size_t lanes = host::philox4x32_10_lanes(isa == HostIsa::avx512 ? HostSimd::avx512 : HostSimd::avx2);
  // Positions are word indices modulo 2^64 (the stream wraps, as cuRAND's offset does): the loop
  // counts words written, never compares positions, so a request across 2^64 cannot overrun `out`.
  std::uint64_t pos = w0;
  std::uint64_t done = 0;
  const std::uint64_t total = n;
  const std::uint64_t head = std::min<std::uint64_t>(total, (kWordsPerBlock - pos % kWordsPerBlock) % kWordsPerBlock);
  fill_scalar(s, pos, out, static_cast<std::size_t>(head));
  pos += head;
  done += head;
  while (total - done >= kWordsPerBlock) {
    const std::uint64_t block = pos / kWordsPerBlock;
    const std::uint64_t i = block / kCurandHostSubsequences;
    const auto t = static_cast<std::uint32_t>(block % kCurandHostSubsequences);
    std::uint64_t run = std::min<std::uint64_t>((total - done) / kWordsPerBlock, kCurandHostSubsequences - t);
    // A run shares one counter: cut it where the per-thread shift (streams.hpp) changes.
    const std::uint64_t shift = thread_shift_of(s, t);
    if (s.thread_shift != nullptr)
      for (std::uint64_t r = 1; r < run; ++r)
        if (s.thread_shift[t + r] != shift) {
          run = r;
          break;
        }
    const std::size_t simd_blocks = static_cast<std::size_t>(run - run % lanes);
    T* dst = out + done;
    if (simd_blocks > 0) {
      host::philox4x32_10_blocks(isa == HostIsa::avx512 ? HostSimd::avx512 : HostSimd::avx2, s.seed, i + shift, t,
                                 simd_blocks, dst);
    }
    const std::uint64_t rest_words = (run - simd_blocks) * kWordsPerBlock;
    fill_scalar(s, pos + simd_blocks * kWordsPerBlock, dst + simd_blocks * kWordsPerBlock,
                static_cast<std::size_t>(rest_words));
    pos += run * kWordsPerBlock;
    done += run * kWordsPerBlock;
  }
  fill_scalar(s, pos, out + done, static_cast<std::size_t>(total - done));
}

}  // namespace

bool host_isa_available(HostIsa isa) { return cpu_has(isa); }

std::string_view host_isa_name(HostIsa isa) {
  switch (isa) {
    case HostIsa::automatic:
      return "automatic";
    case HostIsa::portable:
      return "portable";
    case HostIsa::avx2:
      return "avx2";
    case HostIsa::avx512:
      return "avx512";
  }
  return "?";
}

HostIsa resolve_host_isa(HostIsa requested) {
  if (requested == HostIsa::automatic) {
    if (cpu_has(HostIsa::avx512)) return HostIsa::avx512;
    if (cpu_has(HostIsa::avx2)) return HostIsa::avx2;
    return HostIsa::portable;
  }
  if (!cpu_has(requested))
    throw NotSupportedError("trnrand host path", "ISA " + std::string(host_isa_name(requested)) + " on this CPU",
                            "host");
  return requested;
}

void fill_stream_words(const WordStream& s, std::uint64_t first_word, std::span<std::uint32_t> out, HostIsa isa) {
  fill(s, first_word, out.data(), out.size(), isa);
}

void fill_uniform(std::uint64_t seed, std::uint64_t first_position, std::span<float> out, HostIsa isa) {
  fill(WordStream{seed, WordOrder::host32, 0}, first_position, out.data(), out.size(), isa);
}

void fill_uniform(const WordStream& s, std::uint64_t first_position, std::span<float> out, HostIsa isa) {
  fill(s, first_position, out.data(), out.size(), isa);
}

}  // namespace trn::rand
