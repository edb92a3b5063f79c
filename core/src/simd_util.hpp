// Helpers for the hand-vectorised (target-attribute) host code paths.
#pragma once

// GCC 12 reports false -W(maybe-)uninitialized warnings inside avx512fintrin.h's _mm512_undefined_*
// when AVX-512 intrinsics are inlined at -O3 (GCC PR 105593). Wrap such code in these macros.
#define TRN_SIMD_WARNINGS_BEGIN                                                \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"") \
      _Pragma("GCC diagnostic ignored \"-Wuninitialized\"")
#define TRN_SIMD_WARNINGS_END _Pragma("GCC diagnostic pop")
