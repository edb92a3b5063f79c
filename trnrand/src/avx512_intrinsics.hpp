// <immintrin.h> for trnrand's AVX-512 loops (mrg32k3a.cpp, mt19937_jump.cpp).
// GCC 12 reports false -W(maybe-)uninitialized positives inside its own AVX-512 intrinsic headers
// (the _mm512_undefined_* placeholders; GCC PR 105593); the state at the header's lines decides.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
