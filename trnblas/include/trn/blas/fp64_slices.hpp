// The error-free 8-bit slicing of fp64 values and the exact fold of slice-pair sums, shared by
// trnblas's fp64 slice-pair products (src/ozaki.cpp: gemv_slice_pairs, scheme I) and trnsparse's
// segmented SpMV kernel (trnsparse/src/segmented_spmv.cpp), so that both round the same way.
//
// Algorithm   A line (a vector, a row) scaled by one power of two 2^-e_max so that |x| < 1 is cut
//             into S slices of 8 bits from the top (cut_slices): x 2^-e_max = sum_s q_s 2^-8(s+1),
//             |q_s| <= 255 (exact in bf16), remainder below 2^-8S; with S >= exact_slices(spread)
//             nothing is lost. Products of slices are integers below 2^16; sums of up to 256 of them
//             stay below 2^24 (exact in fp32 PSUM). The fold (digits_to_double) takes the integer
//             sums T[g] by weight g = s + t, normalises the carries into 8-bit digits, takes the
//             sign out and adds the digits from the least significant: one rounding.
// Accuracy    |digits_to_double - V| <= 2.02 u |V| (u = 2^-53; docs/trnblas.md "fp64 Levels 1 and 2"),
//             unless the result lies in fp64's subnormal range (rounded twice).
// Limits      |T[g]| < 2^52 (integers exact in fp64); G <= 2 kVectorMaxSlices terms.
#pragma once
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>

namespace trn::blas::slices {

inline constexpr int kNoExp = INT_MIN / 4;  // exponent of 0, Inf and NaN (they take no part in scaling)
inline constexpr int kSliceBits = 8;        // |slice| <= 255: exact in bf16 (8 significant bits)
inline constexpr double kSliceScale = 1 << kSliceBits;
inline constexpr int kSlicesForExact = 52;  // 8 S >= 52 + spread: every bit of every element of a line kept

// e with 2^(e-1) <= |x| < 2^e for finite nonzero x (subnormals included), else kNoExp.
inline int exp_of(double x) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x) & ~(std::uint64_t{1} << 63);
  const int biased = static_cast<int>(bits >> 52);
  if (bits == 0 || biased == 0x7ff) return kNoExp;
  if (biased != 0) return biased - 1022;
  return std::ilogb(x) + 1;
}

// 2^e for a normal exponent (-1022 <= e <= 1023), built from its bits: exact.
inline double pow2_normal(int e) { return std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52); }
// x 2^e rounded once when the result is normal (a product by a normal power of two is correctly rounded).
inline double scale2(double x, int e) { return e >= -1022 && e <= 1023 ? x * pow2_normal(e) : std::ldexp(x, e); }

// Slices that hold every element of a line exactly, its exponent spread (e_max - e_min + 1) given.
inline int exact_slices(int spread) {
  return spread == 0 ? 1 : (kSlicesForExact + spread + kSliceBits - 1) / kSliceBits;
}

// x 2^shift (|.| < 1, 0 for Inf/NaN) cut into S 8-bit integer slices from the top, as bf16 at out[0],
// out[stride], ...: slice s weighs 2^-8(s+1) and the remainder after S slices is below 2^-8S.
inline void cut_slices(double x, int shift, int S, std::uint16_t* out, std::int64_t stride) {
  double r = std::isfinite(x) ? scale2(x, shift) : 0.0;  // correctly rounded, as ldexp
  for (int s = 0; s < S; ++s) {
    r *= kSliceScale;                // exact: scaling up by a power of two
    const double q = std::trunc(r);  // |q| <= 255
    r -= q;                          // exact
    // bf16 of an integer of <= 8 significant bits: the top half of its fp32 bits (exact, as RNE)
    out[s * stride] = static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(q)) >> 16);
  }
}

// V = sum_g T[g] 2^-8g (T integer-valued, |T| < 2^52, G >= 1 terms) times 2^e, rounded: exact carries
// into 8-bit digits (T[g] = 256 c + d, d in [0, 256)), the sign taken out (a negative leading part
// -A - 1 + F is -(A + (1 - F)), 1 - F again in nonnegative digits), then the digits summed from the
// least significant, the leading integer last: every partial sum is below 1.008 times the next
// digit's weight, so |error| <= 2.02 u |V|. T is overwritten.
inline double digits_to_double(double* T, int G, int e) {
  for (int g = G - 1; g > 0; --g) {
    const double c = std::floor(T[g] * (1.0 / kSliceScale));  // exact: a power-of-two scaling, floor
    T[g] -= c * kSliceScale;
    T[g - 1] += c;
  }
  double sign = 1.0;
  if (T[0] < 0 && G > 1) {
    sign = -1.0;
    T[0] = -T[0] - 1.0;
    for (int g = 1; g < G; ++g) T[g] = (kSliceScale - 1.0) - T[g];
    T[G - 1] += 1.0;
  } else if (T[0] < 0) {
    sign = -1.0;
    T[0] = -T[0];
  }
  double t = 0.0;
  for (int g = G - 1; g > 0; --g) t += scale2(T[g], -kSliceBits * g);
  return std::ldexp(sign * (T[0] + t), e);
}

// The digits T[0..G) (integers < 2^52, T[g] weighing 2^(e - 8 g)) as the double nearest their exact
// sum (ties to even), unless the result lies in fp64's subnormal range (then rounded twice: ldexp).
// The carries are normalised as digits_to_double does, so T[1..] are digits in [0, 256) and the sign
// sits in T[0]; then the top digits are shifted into a 64-bit integer until it holds >= 56 bits
// (< 2^63), every digit left below is folded into its lowest bit (a sticky bit 3 places under the
// round bit), and the one integer -> double conversion rounds correctly (IEEE 754 §5.4.1, to nearest).
inline double round_digits_once(double* T, int G, int e) {
  for (int g = G - 1; g > 0; --g) {
    const double c = std::floor(T[g] * (1.0 / kSliceScale));  // exact: a power-of-two scaling, floor
    T[g] -= c * kSliceScale;
    T[g - 1] += c;
  }
  const bool negative = T[0] < 0;
  if (negative) {  // the magnitude's digits: -(T0 + t) = (-T0 - 1) + (1 - t), 1 - t as digits (255 - T[g], + 1 at the end)
    T[0] = -T[0] - (G > 1 ? 1.0 : 0.0);
    for (int g = 1; g < G; ++g) T[g] = (kSliceScale - 1.0) - T[g];
    if (G > 1) T[G - 1] += 1.0;
    for (int g = G - 1; g > 0 && T[g] >= kSliceScale; --g) {  // the + 1's carry
      T[g] -= kSliceScale;
      T[g - 1] += 1.0;
    }
  }
  auto acc = static_cast<std::uint64_t>(T[0]);  // T[0] < 2^53
  int g = 1;
  for (; g < G && acc < (std::uint64_t{1} << 55); ++g) acc = (acc << kSliceBits) | static_cast<std::uint64_t>(T[g]);
  const int used = g;
  for (; g < G; ++g) acc |= T[g] != 0.0 ? 1u : 0u;
  const double mag = std::ldexp(static_cast<double>(static_cast<std::int64_t>(acc)), e - kSliceBits * (used - 1));
  return negative ? -mag : mag;
}

}  // namespace trn::blas::slices
