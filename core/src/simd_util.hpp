// Helpers for the hand-vectorised (target-attribute) host code paths.
#pragma once

// GCC 12 reports false -W(maybe-)uninitialized warnings inside avx512fintrin.h's _mm512_undefined_*
// when AVX-512 intrinsics are inlined at -O3 (GCC PR 105593). Wrap such code in these macros.
// clang has no -Wmaybe-uninitialized (and no such false positive): the macros are empty there.
#if defined(__GNUC__) && !defined(__clang__)
#define TRN_SIMD_WARNINGS_BEGIN                                                \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"") \
      _Pragma("GCC diagnostic ignored \"-Wuninitialized\"")
#define TRN_SIMD_WARNINGS_END _Pragma("GCC diagnostic pop")
#else
#define TRN_SIMD_WARNINGS_BEGIN
#define TRN_SIMD_WARNINGS_END
#endif

#include <immintrin.h>

#include "trn/core/dtype.hpp"
#include "trn/core/host_simd.hpp"

namespace trn::simd {

// The AVX-512 subset every hand-vectorised path here uses (F for 512-bit ops, BW and VL for the
// 16-bit masked loads and stores), checked once: the answer is kept here too (host_simd_available
// fixes it at its first call), since the instruction paths ask tens of times per short BLAS call.
inline bool has_avx512() {
  static const bool available = host_simd_available(HostSimd::avx512);
  return available;
}

TRN_SIMD_WARNINGS_BEGIN
// 16 fp16 values widened exactly to fp32. vcvtph2ps is exact except that it quiets signalling
// NaNs, so NaN lanes are rebuilt by the integer widening of trn::f16_to_f32 (sign, all-ones
// exponent, payload shifted up unchanged).
__attribute__((target("avx512f,avx512bw,avx512vl"))) inline __m512 f16x16_to_f32(__m256i h) {
  const __m512 f = _mm512_cvtph_ps(h);
  const __m512i w = _mm512_cvtepu16_epi32(h);
  const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(w, _mm512_set1_epi32(0x7fff)), _mm512_set1_epi32(0x7c00));
  const __m512i exact = _mm512_or_si512(_mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(w, _mm512_set1_epi32(0x8000)), 16),
                                                        _mm512_set1_epi32(0x7f800000)),
                                        _mm512_slli_epi32(_mm512_and_si512(w, _mm512_set1_epi32(0x3ff)), 13));
  return _mm512_mask_mov_ps(f, nan, _mm512_castsi512_ps(exact));
}

// Loads the lanes of `m` from 16 elements of a bf16, fp16 or fp32/tf32 row and widens them exactly
// to fp32; lanes outside `m` are +0. The integer widening of bf16 (a 16-bit shift) and fp32/tf32
// (a copy) is the bits of load_row_f32; fp16 goes through f16x16_to_f32.
__attribute__((target("avx512f,avx512bw,avx512vl"))) inline __m512 load_widen16(DType t, const void* p, __mmask16 m) {
  if (t == DType::bf16)
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, p)), 16));
  if (t == DType::f16) return f16x16_to_f32(_mm256_maskz_loadu_epi16(m, p));
  return _mm512_maskz_loadu_ps(m, p);
}
TRN_SIMD_WARNINGS_END

}  // namespace trn::simd
