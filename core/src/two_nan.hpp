// The two-NaN rule of the element instructions (docs/numerics.md section 10, row 6): when both
// operands of an arithmetic op are NaN, the result is the NaN that CoreConfig::two_nan_result names
// (the first operand's by default), quieted. IEEE 754-2019 6.2.3 asks only for "one of the input
// NaNs"; x86 returns the first source's, but the compiler may swap the operands of a commutative
// operation (a + b, a * b, vector or scalar), so the host instruction alone fixes no rule: every
// element loop tests for two NaNs and writes the rule's NaN itself. One NaN operand needs no test:
// every host path returns that NaN, quieted (x86's rule for a single NaN source, either order).
#pragma once
#include <immintrin.h>

#include <bit>
#include <cstdint>

#include "simd_util.hpp"
#include "trn/core/neuron_core.hpp"

namespace trn::detail {

inline constexpr std::uint32_t kQuietBit = 0x00400000u;

inline float quiet_nan(float x) { return std::bit_cast<float>(std::bit_cast<std::uint32_t>(x) | kQuietBit); }
// a and b both NaN (ordered compares are false on a NaN; no fast-math in core).
inline bool both_nan(float a, float b) { return a != a && b != b; }
// The result of an op whose operands a and b are both NaN.
inline float two_nan_result(float a, float b, TwoNanResult rule) {
  return quiet_nan(rule == TwoNanResult::second_operand ? b : a);
}

// r (the op's IEEE result) unless a and b are both NaN, then the rule's operand, quieted; without a
// branch, so that the compiler still vectorises a row loop of it.
inline float two_nan_select(float r, float a, float b, TwoNanResult rule) {
  const std::uint32_t both = 0u - static_cast<std::uint32_t>((a != a) & (b != b));
  const std::uint32_t pick = std::bit_cast<std::uint32_t>(two_nan_result(a, b, rule));
  return std::bit_cast<float>((std::bit_cast<std::uint32_t>(r) & ~both) | (pick & both));
}

TRN_SIMD_WARNINGS_BEGIN
// r = op(x, y) over 16 lanes with the rule's NaN in the lanes where x and y are both NaN.
__attribute__((target("avx512f"))) inline __m512 two_nan_lanes_avx512(__m512 r, __m512 x, __m512 y,
                                                                       TwoNanResult rule) {
  // One compare for the common case (no lane has a NaN operand), the exact test only after it.
  if (_mm512_cmp_ps_mask(x, y, _CMP_UNORD_Q) == 0) [[likely]]
    return r;
  const __mmask16 both = _mm512_mask_cmp_ps_mask(_mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), y, y, _CMP_UNORD_Q);
  const __m512 pick = rule == TwoNanResult::second_operand ? y : x;
  return _mm512_mask_mov_ps(r, both, _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(pick),
                                                                         _mm512_set1_epi32(static_cast<int>(kQuietBit)))));
}
TRN_SIMD_WARNINGS_END

}  // namespace trn::detail
