// Philox4x32-10 over consecutive subsequences with AVX-512 (16 blocks per iteration) or AVX2 (8)
// (trn/core/host_loops.hpp): the same words as philox4x32_10() (philox.hpp) block by block, and
// cuRAND's float uniform float(x) 2^-32 + 2^-33 with an exact product, so the same with or
// without fused multiply-adds. trnrand's host fills (trnrand/src/host_words.cpp) call these for
// runs of whole blocks and test them against their portable path.
// GCC 12 reports false -Wmaybe-uninitialized positives inside its own AVX-512 intrinsic headers
// (the _mm512_undefined_* placeholders; GCC PR 105593); the state at the header's lines decides.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <array>
#include <type_traits>

#include "trn/core/error.hpp"
#include "trn/core/host_loops.hpp"
#include "trn/core/philox.hpp"

namespace trn::host {
namespace {

using C = trn::Philox4x32Constants;

// Round keys of the 10 rounds: (k0 + r W0, k1 + r W1).
std::array<std::array<std::uint32_t, 2>, 10> round_keys(std::uint64_t seed) {
  std::array<std::array<std::uint32_t, 2>, 10> k{};
  std::uint32_t k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
  for (int r = 0; r < 10; ++r) {
    k[static_cast<std::size_t>(r)] = {k0, k1};
    k0 += C::kWeyl0;
    k1 += C::kWeyl1;
  }
  return k;
}

// ---- AVX-512: 16 blocks (subsequences t0 .. t0+15 at counter i) per iteration -------------------

__attribute__((target("avx512f"))) inline void mulhilo_avx512(__m512i a, __m512i m, __m512i& lo, __m512i& hi) {
  const __m512i even = _mm512_mul_epu32(a, m);                        // lanes 0, 2, ...: 64-bit products
  const __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), m);  // lanes 1, 3, ...
  lo = _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
  hi = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 32), odd);
}

template <class T>
__attribute__((target("avx512f"))) void philox_run_avx512(std::uint64_t seed, std::uint64_t i, std::uint32_t t0,
                                                          std::size_t nblocks, T* out) {
  const auto keys = round_keys(seed);
  // Lane j = 4L + m carries block 4m + L, so that after the in-lane 4x4 transposes vector o_m
  // holds blocks 4m .. 4m+3 in order.
  const __m512i perm = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i m0 = _mm512_set1_epi32(static_cast<int>(C::kMultiplier0));
  const __m512i m1 = _mm512_set1_epi32(static_cast<int>(C::kMultiplier1));
  const __m512i ilo = _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(i)));
  const __m512i ihi = _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(i >> 32)));
  for (std::size_t k = 0; k < nblocks; k += 16) {
    __m512i c0 = ilo, c1 = ihi;
    __m512i c2 = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(t0 + static_cast<std::uint32_t>(k))), perm);
    __m512i c3 = _mm512_setzero_si512();
    for (int r = 0; r < 10; ++r) {
      __m512i lo0, hi0, lo1, hi1;
      mulhilo_avx512(c0, m0, lo0, hi0);
      mulhilo_avx512(c2, m1, lo1, hi1);
      const __m512i k0 = _mm512_set1_epi32(static_cast<int>(keys[static_cast<std::size_t>(r)][0]));
      const __m512i k1 = _mm512_set1_epi32(static_cast<int>(keys[static_cast<std::size_t>(r)][1]));
      c0 = _mm512_xor_si512(_mm512_xor_si512(hi1, c1), k0);
      c1 = lo1;
      c2 = _mm512_xor_si512(_mm512_xor_si512(hi0, c3), k1);
      c3 = lo0;
    }
    if constexpr (std::is_same_v<T, float>) {
      const __m512 scale = _mm512_set1_ps(0x1p-32f), half = _mm512_set1_ps(0x1p-33f);
      c0 = _mm512_castps_si512(_mm512_add_ps(_mm512_mul_ps(_mm512_cvtepu32_ps(c0), scale), half));
      c1 = _mm512_castps_si512(_mm512_add_ps(_mm512_mul_ps(_mm512_cvtepu32_ps(c1), scale), half));
      c2 = _mm512_castps_si512(_mm512_add_ps(_mm512_mul_ps(_mm512_cvtepu32_ps(c2), scale), half));
      c3 = _mm512_castps_si512(_mm512_add_ps(_mm512_mul_ps(_mm512_cvtepu32_ps(c3), scale), half));
    }
    const __m512i t0v = _mm512_unpacklo_epi32(c0, c1), t1v = _mm512_unpackhi_epi32(c0, c1);
    const __m512i t2v = _mm512_unpacklo_epi32(c2, c3), t3v = _mm512_unpackhi_epi32(c2, c3);
    auto* dst = reinterpret_cast<std::uint32_t*>(out) + 4 * k;
    _mm512_storeu_si512(dst + 0, _mm512_unpacklo_epi64(t0v, t2v));
    _mm512_storeu_si512(dst + 16, _mm512_unpackhi_epi64(t0v, t2v));
    _mm512_storeu_si512(dst + 32, _mm512_unpacklo_epi64(t1v, t3v));
    _mm512_storeu_si512(dst + 48, _mm512_unpackhi_epi64(t1v, t3v));
  }
}

// ---- AVX2: 8 blocks per iteration ----------------------------------------------------------------

__attribute__((target("avx2"))) inline void mulhilo_avx2(__m256i a, __m256i m, __m256i& lo, __m256i& hi) {
  const __m256i even = _mm256_mul_epu32(a, m);
  const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), m);
  lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
  hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
}

// float(x) for uint32 x without AVX-512's unsigned conversion: hi16 * 65536 is exact, so the sum
// is the single RNE rounding of x.
__attribute__((target("avx2"))) inline __m256 u32_to_f32_avx2(__m256i x) {
  const __m256 hi = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(x, 16)), _mm256_set1_ps(65536.0f));
  const __m256 lo = _mm256_cvtepi32_ps(_mm256_and_si256(x, _mm256_set1_epi32(0xffff)));
  return _mm256_add_ps(hi, lo);
}

template <class T>
__attribute__((target("avx2"))) void philox_run_avx2(std::uint64_t seed, std::uint64_t i, std::uint32_t t0,
                                                     std::size_t nblocks, T* out) {
  const auto keys = round_keys(seed);
  // Lane j = 4L + m carries block 2m + L (two 128-bit lanes).
  const __m256i perm = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  const __m256i m0 = _mm256_set1_epi32(static_cast<int>(C::kMultiplier0));
  const __m256i m1 = _mm256_set1_epi32(static_cast<int>(C::kMultiplier1));
  const __m256i ilo = _mm256_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(i)));
  const __m256i ihi = _mm256_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(i >> 32)));
  for (std::size_t k = 0; k < nblocks; k += 8) {
    __m256i c0 = ilo, c1 = ihi;
    __m256i c2 = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(t0 + static_cast<std::uint32_t>(k))), perm);
    __m256i c3 = _mm256_setzero_si256();
    for (int r = 0; r < 10; ++r) {
      __m256i lo0, hi0, lo1, hi1;
      mulhilo_avx2(c0, m0, lo0, hi0);
      mulhilo_avx2(c2, m1, lo1, hi1);
      const __m256i k0 = _mm256_set1_epi32(static_cast<int>(keys[static_cast<std::size_t>(r)][0]));
      const __m256i k1 = _mm256_set1_epi32(static_cast<int>(keys[static_cast<std::size_t>(r)][1]));
      c0 = _mm256_xor_si256(_mm256_xor_si256(hi1, c1), k0);
      c1 = lo1;
      c2 = _mm256_xor_si256(_mm256_xor_si256(hi0, c3), k1);
      c3 = lo0;
    }
    if constexpr (std::is_same_v<T, float>) {
      const __m256 scale = _mm256_set1_ps(0x1p-32f), half = _mm256_set1_ps(0x1p-33f);
      c0 = _mm256_castps_si256(_mm256_add_ps(_mm256_mul_ps(u32_to_f32_avx2(c0), scale), half));
      c1 = _mm256_castps_si256(_mm256_add_ps(_mm256_mul_ps(u32_to_f32_avx2(c1), scale), half));
      c2 = _mm256_castps_si256(_mm256_add_ps(_mm256_mul_ps(u32_to_f32_avx2(c2), scale), half));
      c3 = _mm256_castps_si256(_mm256_add_ps(_mm256_mul_ps(u32_to_f32_avx2(c3), scale), half));
    }
    const __m256i t0v = _mm256_unpacklo_epi32(c0, c1), t1v = _mm256_unpackhi_epi32(c0, c1);
    const __m256i t2v = _mm256_unpacklo_epi32(c2, c3), t3v = _mm256_unpackhi_epi32(c2, c3);
    auto* dst = reinterpret_cast<__m256i*>(reinterpret_cast<std::uint32_t*>(out) + 4 * k);
    _mm256_storeu_si256(dst + 0, _mm256_unpacklo_epi64(t0v, t2v));
    _mm256_storeu_si256(dst + 1, _mm256_unpackhi_epi64(t0v, t2v));
    _mm256_storeu_si256(dst + 2, _mm256_unpacklo_epi64(t1v, t3v));
    _mm256_storeu_si256(dst + 3, _mm256_unpackhi_epi64(t1v, t3v));
  }
}

template <class T>
void philox_blocks(HostSimd isa, std::uint64_t seed, std::uint64_t i, std::uint32_t t0, std::size_t blocks, T* out) {
  if (blocks % philox4x32_10_lanes(isa) != 0 || !host_simd_available(isa))
    throw UsageError("philox4x32_10_blocks", "blocks", "a whole number of vectors on an available vector width");
  if (isa == HostSimd::avx512)
    philox_run_avx512(seed, i, t0, blocks, out);
  else
    philox_run_avx2(seed, i, t0, blocks, out);
}

}  // namespace

std::size_t philox4x32_10_lanes(HostSimd isa) { return isa == HostSimd::avx512 ? 16 : isa == HostSimd::avx2 ? 8 : 1; }

void philox4x32_10_blocks(HostSimd isa, std::uint64_t seed, std::uint64_t i, std::uint32_t t0, std::size_t blocks,
                          std::uint32_t* out) {
  philox_blocks(isa, seed, i, t0, blocks, out);
}
void philox4x32_10_blocks(HostSimd isa, std::uint64_t seed, std::uint64_t i, std::uint32_t t0, std::size_t blocks,
                          float* out) {
  philox_blocks(isa, seed, i, t0, blocks, out);
}

}  // namespace trn::host
