// Dot products of up to eight fp32 columns with one vector, vectorized across the columns
// (trnsolver host steps: sytrd's xLATRD corrections, geqrf's geqr2 / xLARFT).
//
// Algorithm: rows are taken eight at a time: the eight columns' runs of eight rows are loaded and
// transposed (8 x 8 fp32 in AVX registers), so lane k of row q holds X(i + q, k); each lane then
// accumulates its own column's terms in increasing row order, s_k = s_k + X(i, k) y(i), one multiply
// and one add per term (no fused multiply-add: -ffp-contract=off, and the intrinsics are separate).
// Every lane is the scalar chain of a loop over i -- the same operations on the same operands in the
// same order, so the same bits -- without the scalar loop's eight loads and conversions per row.
// Columns past `count` are zero lanes whose sums are discarded.
// Engines: none (host fp32/fp64 work of recorded host steps). Accuracy: exactly the scalar loops'.
// Limits: callers check host_simd() (AVX-512 for the fp64 sums, AVX2 for the fp32 ones) first.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace trn::solver::detail {

// c[k] (eight rows of column k) -> r[q] (row q, lane k = column k).
__attribute__((target("avx2"), always_inline)) inline void transpose8x8(const __m256 (&c)[8], __m256 (&r)[8]) {
  const __m256 t0 = _mm256_unpacklo_ps(c[0], c[1]), t1 = _mm256_unpackhi_ps(c[0], c[1]);
  const __m256 t2 = _mm256_unpacklo_ps(c[2], c[3]), t3 = _mm256_unpackhi_ps(c[2], c[3]);
  const __m256 t4 = _mm256_unpacklo_ps(c[4], c[5]), t5 = _mm256_unpackhi_ps(c[4], c[5]);
  const __m256 t6 = _mm256_unpacklo_ps(c[6], c[7]), t7 = _mm256_unpackhi_ps(c[6], c[7]);
  const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
  const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
  const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
  const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  r[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
  r[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
  r[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
  r[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
  r[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
  r[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
  r[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
  r[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

// Rows [lo, lo + 8) of columns k < count (X(i, k) = x[i + k ldx]) transposed into r; absent columns zero.
__attribute__((target("avx2"), always_inline)) inline void load_rows8(const float* x, std::int64_t ldx, int count,
                                                                      std::int64_t lo, __m256 (&r)[8]) {
  __m256 c[8];
  for (int k = 0; k < 8; ++k) c[k] = k < count ? _mm256_loadu_ps(x + lo + k * ldx) : _mm256_setzero_ps();
  transpose8x8(c, r);
}

// out[k] = sum over i < n of double(x[i + k ldx]) * double(y[i]), from 0 in increasing i, k < count <= 8.
__attribute__((target("avx2,avx512f"))) inline void column_dots_fp64_avx512(std::int64_t n, int count, const float* x,
                                                                            std::int64_t ldx, const float* y,
                                                                            double* out) {
  __m512d s = _mm512_setzero_pd();
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 r[8];
    load_rows8(x, ldx, count, i, r);
    // maskz with all lanes set: _mm512_cvtps_pd's result, without GCC 12's -Wmaybe-uninitialized on it
    for (int q = 0; q < 8; ++q)
      s = _mm512_add_pd(s, _mm512_mul_pd(_mm512_maskz_cvtps_pd(0xFF, r[q]),
                                         _mm512_set1_pd(static_cast<double>(y[i + q]))));
  }
  alignas(64) double acc[8];
  _mm512_store_pd(acc, s);
  for (int k = 0; k < count; ++k) {
    double t = acc[k];
    for (std::int64_t j = i; j < n; ++j) t += static_cast<double>(x[j + k * ldx]) * static_cast<double>(y[j]);
    out[k] = t;
  }
}

// s[k] += sum over i in [lo, hi) of x[i + k ldx] * y[i] in fp32, in increasing i, k < count <= 8.
__attribute__((target("avx2"))) inline void column_dots_fp32_avx2(int count, const float* x, std::int64_t ldx,
                                                                  const float* y, std::int64_t lo, std::int64_t hi,
                                                                  float* s) {
  alignas(32) float acc[8] = {};
  for (int k = 0; k < count; ++k) acc[k] = s[k];
  __m256 v = _mm256_load_ps(acc);
  std::int64_t i = lo;
  for (; i + 8 <= hi; i += 8) {
    __m256 r[8];
    load_rows8(x, ldx, count, i, r);
    for (int q = 0; q < 8; ++q) v = _mm256_add_ps(v, _mm256_mul_ps(r[q], _mm256_set1_ps(y[i + q])));
  }
  _mm256_store_ps(acc, v);
  for (int k = 0; k < count; ++k) {
    float t = acc[k];
    for (std::int64_t j = i; j < hi; ++j) t += x[j + k * ldx] * y[j];
    s[k] = t;
  }
}

}  // namespace trn::solver::detail
