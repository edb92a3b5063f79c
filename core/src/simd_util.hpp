// Helpers for the hand-vectorised (target-attribute) host code paths.
#pragma once

// GCC 12 reports false -W(maybe-)uninitialized warnings inside avx512fintrin.h's _mm512_undefined_*
// when AVX-512 intrinsics are inlined at -O3 (GCC PR 105593). Wrap such code in these macros.
#define TRN_SIMD_WARNINGS_BEGIN                                                \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"") \
      _Pragma("GCC diagnostic ignored \"-Wuninitialized\"")
#define TRN_SIMD_WARNINGS_END _Pragma("GCC diagnostic pop")

#include <immintrin.h>

namespace trn::simd {

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
TRN_SIMD_WARNINGS_END

}  // namespace trn::simd
