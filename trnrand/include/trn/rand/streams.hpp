// Stream layouts: which Philox4x32-10 word lands at which output position.
//
// Every trnrand output is a pure function of (seed, position): word w of a stream is lane w mod 4
// of philox4x32_10(counter(w / 4), key(seed)), key = (lo32(seed), hi32(seed)). Three layouts:
//
//  - host32: cuRAND's host generator ordering for 32-bit outputs (docs/trnrand.md section 2;
//    undocumented by NVIDIA, observed bit-exact on cuRAND 10.4.0): 65536 virtual threads ("subsequences"); block
//    q = w / 4 is counter i = q / 65536 of subsequence t = q mod 65536, i.e. counter
//    (lo32(i), hi32(i), lo32(t), hi32(t)). Output position n of Generate, GenerateUniform,
//    GenerateNormal, GenerateLogNormal, GeneratePoisson is word n.
//  - host64: cuRAND's host ordering for 64-bit outputs (UniformDouble, NormalDouble,
//    LogNormalDouble), which depends on where the generating call started (observed bit-exact on
//    cuRAND 10.4 for random start positions and counts, multi-round calls included). Output
//    position p of a call starting at position P0: q = p / 4, t = q mod 65536, i = q / 65536,
//    r = p mod 4. Thread t starts at counter i_first = the i of its first q >= P0 / 4 (it is
//    initialised as a 32-bit stream would be, one counter per 65536 blocks) and then consumes two
//    counters per iteration of 4 doubles (two curand4 calls), so position p uses the block at
//    counter i_first + 2 (i - i_first) + r / 2 of subsequence t, lanes 2 (r mod 2) and + 1.
//    (For P0 < 4 the counter is simply 2i + r/2.) A
//    position's double therefore depends on the call boundaries, and calls starting after
//    position 4 repeat values of earlier calls' counters. Word w of the stream is lane w mod 4
//    of that block for p = w / 2 (Box–Muller uses the whole block of positions 2m, 2m + 1).
//  - subsequence: one device-API stream, curand_init(seed, subsequence, 0): block b is counter
//    (lo32(b), hi32(b), lo32(subsequence), hi32(subsequence)) (cuRAND's curand_kernel.h).
//
// Positions count output elements of the caller's type (observed on cuRAND 10.4): a 32-bit position maps to
// word n of host32, a 64-bit position to words 2n, 2n + 1 of host64.
//
// Per-thread counter shifts (docs/trnrand.md section 2; reconstructed from cuRAND 10.4 output, bit-exact
// for 600 random call sequences of up to 700000 elements): each of the 65536 threads keeps its own
// Philox counter. A 32-bit call advances it by one per row q it finishes, a 64-bit call by two, and a
// call that ends inside a row (position 4q + 3 not reached) does not advance it for that row. So
// after 64-bit calls thread t's counters run ahead of the row index by shift[t] = the number of rows
// q = t (mod 65536) whose last position 4q + 3 was produced by a 64-bit call since the offset was
// set. WordStream::thread_shift points to those 65536 shifts (nullptr: all zero, the common case);
// both host layouts add shift[t] to the counter.
#pragma once
#include <cstdint>

#include "trn/core/philox.hpp"

namespace trn::rand {

// cuRAND's host generator runs this many virtual threads for PHILOX4_32_10 (docs/trnrand.md section 2).
inline constexpr std::uint64_t kCurandHostSubsequences = 65536;
inline constexpr int kWordsPerBlock = 4;

enum class WordOrder : std::uint8_t { host32, host64, subsequence };

struct WordStream {
  std::uint64_t seed = 0;
  WordOrder order = WordOrder::host32;
  std::uint64_t subsequence = 0;  // WordOrder::subsequence only
  std::uint64_t call_start = 0;   // WordOrder::host64 only: the 64-bit position where the call started
  const std::uint64_t* thread_shift = nullptr;  // host32 / host64: kCurandHostSubsequences counter shifts, or nullptr
};

constexpr std::uint64_t thread_shift_of(const WordStream& s, std::uint64_t t) {
  return s.thread_shift == nullptr ? 0 : s.thread_shift[t];
}

constexpr Philox4x32Key philox_key(std::uint64_t seed) {
  return {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
}

constexpr Philox4x32Counter counter_of(std::uint64_t lo64, std::uint64_t hi64) {
  return {static_cast<std::uint32_t>(lo64), static_cast<std::uint32_t>(lo64 >> 32), static_cast<std::uint32_t>(hi64),
          static_cast<std::uint32_t>(hi64 >> 32)};
}

// Philox counter of block b (words 4b .. 4b + 3) of a stream.
constexpr Philox4x32Counter stream_counter(const WordStream& s, std::uint64_t block) {
  switch (s.order) {
    case WordOrder::host32:
      return counter_of(block / kCurandHostSubsequences + thread_shift_of(s, block % kCurandHostSubsequences),
                        block % kCurandHostSubsequences);
    case WordOrder::host64: {
      // Block b holds positions 2b, 2b + 1 (q = b / 2, r / 2 = b mod 2); defined for q >= call_start / 4.
      const std::uint64_t q = block / 2, half = block % 2, t = q % kCurandHostSubsequences;
      const std::uint64_t i = q / kCurandHostSubsequences, q0 = s.call_start / 4;
      const std::uint64_t i_first = q0 <= t ? 0 : (q0 - t + kCurandHostSubsequences - 1) / kCurandHostSubsequences;
      return counter_of(i_first + thread_shift_of(s, t) + 2 * (i - i_first) + half, t);
    }
    case WordOrder::subsequence:
      break;
  }
  return counter_of(block, s.subsequence);
}

constexpr Philox4x32Counter stream_block(const WordStream& s, std::uint64_t block) {
  return philox4x32_10(stream_counter(s, block), philox_key(s.seed));
}

// Word w of a stream (the scalar reference of every fill routine).
constexpr std::uint32_t stream_word(const WordStream& s, std::uint64_t w) {
  return stream_block(s, w / kWordsPerBlock)[w % kWordsPerBlock];
}

// Per-position substreams for the rejection methods (trnrand extensions: Poisson PTRS, integer
// ranges): block j of the substream of output position `position` is counter
// (j, lo32(position), hi32(position), tag). Host-ordering counters have a zero fourth word and
// the tags are nonzero, so substreams never reuse a block of the main streams.
inline constexpr std::uint32_t kSubstreamTagPoisson = 0x50545253u;     // "PTRS"
inline constexpr std::uint32_t kSubstreamTagUniformInt = 0x554e4954u;  // "UNIT"

constexpr Philox4x32Counter substream_block(std::uint64_t seed, std::uint32_t tag, std::uint64_t position,
                                            std::uint32_t j) {
  return philox4x32_10({j, static_cast<std::uint32_t>(position), static_cast<std::uint32_t>(position >> 32), tag},
                       philox_key(seed));
}

}  // namespace trn::rand
