// Host speed helpers (trn/core/host_loops.hpp): plain loops compiled once for the host's baseline
// and once under a wider target, picked at run time by the core's probe (host_simd.hpp). The
// compiler vectorises the same scalar expressions under both targets (-ffp-contract=off, no fast
// math), so both give the same bits.
#include "trn/core/host_loops.hpp"

#include <immintrin.h>

#include <bit>
#include <cmath>

#include "simd_util.hpp"

namespace trn::host {
namespace {

// ---- MT19937 jump ---------------------------------------------------------------------------------

void xor_words_portable(std::uint32_t* dst, const std::uint32_t* src, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k) dst[k] ^= src[k];
}
__attribute__((target("avx2"))) void xor_words_avx2(std::uint32_t* dst, const std::uint32_t* src, std::size_t n) {
  xor_words_portable(dst, src, n);
}
__attribute__((target("avx512f"))) void xor_words_avx512(std::uint32_t* dst, const std::uint32_t* src, std::size_t n) {
  xor_words_portable(dst, src, n);
}

// ---- Ozaki scheme I: reconstruction ---------------------------------------------------------------

// 2^e for a normal exponent e (-1022 <= e <= 1023), built from its bits.
inline double pow2_normal(int e) { return std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52); }

template <int>
inline void accumulate_pow2_scaled_body(double* acc, const float* P, const int* ea, int ej, std::int64_t m) {
  for (std::int64_t i = 0; i < m; ++i) acc[i] += static_cast<double>(P[i]) * pow2_normal(ej + ea[i]);
}
__attribute__((target("avx512f"))) void accumulate_pow2_scaled_avx512(double* acc, const float* P, const int* ea, int ej,
                                                                      std::int64_t m) {
  accumulate_pow2_scaled_body<1>(acc, P, ea, ej, m);
}

// ---- Ozaki scheme II: residues and CRT reconstruction ---------------------------------------------

// Nearest integer to v for |v| < 2^51 (round to nearest even through the 1.5 2^52 add: the fp64
// default rounding mode, no libm call, vectorisable).
inline double nearest_small(double v) {
  constexpr double kMagic = 0x1.8p52;
  return (v + kMagic) - kMagic;
}

// r = mant - p q is one fma (q p itself may exceed 2^53); why every step is exact: trnblas/src/ozaki.cpp
// residues().
template <int>
inline void centred_residues_bf16_body(const double* mant, const std::uint8_t* e, std::int64_t count, double p,
                                       double inv_p, const double* pow2_mod, std::uint16_t* out) {
  const double half = 0.5 * p;
  for (std::int64_t i = 0; i < count; ++i) {
    const double x = mant[i];
    const double r = std::fma(-nearest_small(x * inv_p), p, x);  // exact: one rounding of a small integer
    const double w = r * pow2_mod[e[i]];
    double c = w - nearest_small(w * inv_p) * p;
    c = c >= half ? c - p : c;
    c = c < -half ? c + p : c;
    out[i] = static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(c)) >> 16);
  }
}
// (An AVX-512 form with one vgatherdpd per 8 elements for pow2_mod[e[i]] was 3x slower than GCC's
// vector form of the body on this project's VM: gathers are microcoded slow there, session 23.)
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,fma"))) void centred_residues_bf16_avx512(
    const double* mant, const std::uint8_t* e, std::int64_t count, double p, double inv_p, const double* pow2_mod,
    std::uint16_t* out) {
  centred_residues_bf16_body<1>(mant, e, count, p, inv_p, pow2_mod, out);
}

// The quotient estimate is the nearest integer: P / p's fp64 error is far below 1/2 away from ties,
// and a tie gives +-p/2.
template <int>
inline void fold_residues_u8_body(const float* P, std::int64_t count, double p, double inv_p, bool first,
                                  std::uint8_t* y) {
  for (std::int64_t i = 0; i < count; ++i) {
    const double v = P[i];
    double r = v - nearest_small(v * inv_p) * p;
    r = r < 0 ? r + p : r;
    double s = first ? r : r + static_cast<double>(y[i]);
    s = s >= p ? s - p : s;
    y[i] = static_cast<std::uint8_t>(static_cast<int>(s));
  }
}
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))) void fold_residues_u8_avx512(
    const float* P, std::int64_t count, double p, double inv_p, bool first, std::uint8_t* y) {
  fold_residues_u8_body<1>(P, count, p, inv_p, first, y);
}

template <int>
inline void weighted_digit_sums_body(int moduli, int digits, const double* W, std::size_t w_stride,
                                     const std::uint8_t* const* y, std::int64_t offset, std::int64_t nb,
                                     double (*S)[256]) {
  for (int l = 0; l < moduli; ++l) {
    const std::uint8_t* yl = y[l] + offset;
    for (int c = 0; c < digits; ++c) {
      const double w = W[static_cast<std::size_t>(l) * w_stride + static_cast<std::size_t>(c)];
      double* Sc = S[c];
      for (std::int64_t e = 0; e < nb; ++e) Sc[e] += w * static_cast<double>(yl[e]);
    }
  }
}
TRN_SIMD_WARNINGS_BEGIN
// The body with S's 8-element column blocks of all D digits in registers over every modulus: each
// S[c][e] still receives w_lc y_l[e] for l = 0, 1, ... in that order, a product and an add apiece
// (the same bits), but S is loaded and stored once per block instead of once per modulus, and y_l's
// bytes are widened once per modulus instead of once per digit.
template <int D>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))) inline void weighted_digit_sums_block(
    int moduli, const double* W, std::size_t w_stride, const std::uint8_t* const* y, std::int64_t offset,
    std::int64_t e, __mmask8 lanes, double (*S)[256]) {
  __m512d acc[D];
  for (int c = 0; c < D; ++c) acc[c] = _mm512_maskz_loadu_pd(lanes, S[c] + e);
  for (int l = 0; l < moduli; ++l) {
    const __m128i bytes = _mm_maskz_loadu_epi8(lanes, y[l] + offset + e);
    const __m512d yv = _mm512_cvtepi32_pd(_mm256_cvtepu8_epi32(bytes));
    const double* Wl = W + static_cast<std::size_t>(l) * w_stride;
    for (int c = 0; c < D; ++c) acc[c] = _mm512_add_pd(acc[c], _mm512_mul_pd(_mm512_set1_pd(Wl[c]), yv));
  }
  for (int c = 0; c < D; ++c) _mm512_mask_storeu_pd(S[c] + e, lanes, acc[c]);
}
template <int D>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))) void weighted_digit_sums_blocks(
    int moduli, const double* W, std::size_t w_stride, const std::uint8_t* const* y, std::int64_t offset,
    std::int64_t nb, double (*S)[256]) {
  std::int64_t e = 0;
  for (; e + 8 <= nb; e += 8) weighted_digit_sums_block<D>(moduli, W, w_stride, y, offset, e, 0xff, S);
  if (e < nb)
    weighted_digit_sums_block<D>(moduli, W, w_stride, y, offset, e, static_cast<__mmask8>((1u << (nb - e)) - 1u), S);
}
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))) void weighted_digit_sums_avx512(
    int moduli, int digits, const double* W, std::size_t w_stride, const std::uint8_t* const* y, std::int64_t offset,
    std::int64_t nb, double (*S)[256]) {
  switch (digits) {  // trnblas's CRT tables have 1 .. 7 digits (ozaki_crt.hpp, kMaxDigits + 1 rows of S)
    case 1: return weighted_digit_sums_blocks<1>(moduli, W, w_stride, y, offset, nb, S);
    case 2: return weighted_digit_sums_blocks<2>(moduli, W, w_stride, y, offset, nb, S);
    case 3: return weighted_digit_sums_blocks<3>(moduli, W, w_stride, y, offset, nb, S);
    case 4: return weighted_digit_sums_blocks<4>(moduli, W, w_stride, y, offset, nb, S);
    case 5: return weighted_digit_sums_blocks<5>(moduli, W, w_stride, y, offset, nb, S);
    case 6: return weighted_digit_sums_blocks<6>(moduli, W, w_stride, y, offset, nb, S);
    case 7: return weighted_digit_sums_blocks<7>(moduli, W, w_stride, y, offset, nb, S);
    default: break;
  }
  weighted_digit_sums_body<1>(moduli, digits, W, w_stride, y, offset, nb, S);
}
TRN_SIMD_WARNINGS_END

bool avx512() {
  static const bool available = host_simd_available(HostSimd::avx512);
  return available;
}

}  // namespace

void xor_words(std::uint32_t* dst, const std::uint32_t* src, std::size_t n) {
  using XorWords = void (*)(std::uint32_t*, const std::uint32_t*, std::size_t);
  static const XorWords f = host_simd_available(HostSimd::avx512) ? xor_words_avx512
                            : host_simd_available(HostSimd::avx2) ? xor_words_avx2
                                                                  : xor_words_portable;
  f(dst, src, n);
}

void accumulate_pow2_scaled(double* acc, const float* P, const int* ea, int ej, std::int64_t m) {
  if (avx512())
    accumulate_pow2_scaled_avx512(acc, P, ea, ej, m);
  else
    accumulate_pow2_scaled_body<0>(acc, P, ea, ej, m);
}

void centred_residues_bf16(const double* mant, const std::uint8_t* e, std::int64_t count, double p, double inv_p,
                           const double* pow2_mod, std::uint16_t* out) {
  if (avx512())
    centred_residues_bf16_avx512(mant, e, count, p, inv_p, pow2_mod, out);
  else
    centred_residues_bf16_body<0>(mant, e, count, p, inv_p, pow2_mod, out);
}

void fold_residues_u8(const float* P, std::int64_t count, double p, double inv_p, bool first, std::uint8_t* y) {
  if (avx512())
    fold_residues_u8_avx512(P, count, p, inv_p, first, y);
  else
    fold_residues_u8_body<0>(P, count, p, inv_p, first, y);
}

void weighted_digit_sums(int moduli, int digits, const double* W, std::size_t w_stride, const std::uint8_t* const* y,
                         std::int64_t offset, std::int64_t nb, double (*S)[256]) {
  if (avx512())
    weighted_digit_sums_avx512(moduli, digits, W, w_stride, y, offset, nb, S);
  else
    weighted_digit_sums_body<0>(moduli, digits, W, w_stride, y, offset, nb, S);
}

}  // namespace trn::host
