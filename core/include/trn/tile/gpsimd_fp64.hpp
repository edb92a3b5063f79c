// trn::tile software-fp64 cost table for GpSimdE custom operators (docs/cost-model.md "Software fp64
// on GpSimdE").
//
// Algorithm   A GpSimdE custom operator declares its cycles (ARCH2 gives no rule of thumb for GpSimd
//             cost; core/src/isa_gpsimd.cpp). GpSimd lanes have native int32 / uint32 and fp32 ALUs and
//             no fp64 unit, so an fp64 operation is a software routine on 32-bit integer ops. The
//             constants below count those int32 ops per fp64 operation, following Berkeley SoftFloat
//             3e (J. Hauser, 2018: f64_add / f64_sub -> softfloat_addMagsF64 / softfloat_subMagsF64,
//             f64_mul, f64_div, f64_sqrt, f64_lt / f64_eq, f32_to_f64, f64_to_f32, all ending in
//             softfloat_roundPackToF64 / F32) built for a 32-bit target (SOFTFLOAT_FAST_INT64 off:
//             every 64-bit significand operation is a pair of 32-bit words with a carry or a funnel
//             shift). Each constant is the sum of named parts (operand unpack, the significand work,
//             normalisation, round to nearest even, pack, special-case tests), so a reader can check or
//             change one part. gpsimd_op_cycles turns a per-element tally into the declared cycles
//             hw.gpsimd_start + ops_per_element * F (F elements per partition; the lanes of all
//             partitions run in parallel, one int32 / fp32 op per lane per cycle), the form of
//             trnrand's precedents.
// Engines     None (a cost table; the operator that uses it runs on GpSimdE).
// Accuracy    Not applicable to the values: software fp64 is IEEE-754 binary64 with round to nearest
//             even, so an operator may compute it with host `double` (no FMA contraction: the library
//             build passes -ffp-contract=off) and get the same bits. The counts are estimates of a
//             straightforward SoftFloat port, not measurements: a documented choice (ARCH2).
// Limits      Data-independent counts: the slow paths (subnormal operands, NaN / Inf propagation) are
//             not counted beyond their tests; an operator should tally its worst data-dependent branch.
#pragma once
#include <cstdint>

#include "trn/core/hardware.hpp"

namespace trn::tile {

// int32 ops of one fp64 operation on a 32-bit lane (SoftFloat 3e structure, parts named).
namespace gpsimd_fp64 {
// Shared parts.
inline constexpr double kUnpackOne = 5;     // sign (shift), exponent (shift, mask), fraction high word (mask), hidden bit (or)
inline constexpr double kRoundPack = 14;    // roundPackToF64: round bits (2), 64-bit increment with carry (3),
                                            // ties-to-even clear (3), overflow / underflow tests (4), exponent fix (2)
inline constexpr double kPack = 4;          // sign, exponent into the high word, two ors
inline constexpr double kSpecialTests = 4;  // exponent == 0x7FF / == 0 tests of both operands
inline constexpr double kQuotientDigit = 17;  // one 30-bit digit of a quotient / root: 32x32 high product (2),
                                              // digit x 64-bit divisor (4 mul-lo/hi + 4 adds), 64-bit
                                              // remainder subtract (3), one correction step (4)

// f64_add / f64_sub: both unpacks (10), exponent difference and operand swap (6),
// shiftRightJam64 alignment on a word pair (8), 64-bit add / subtract with carry (3), normalise
// (clz on the pair 4, variable 64-bit shift 6), round, pack, special tests.
inline constexpr double kAdd = 2 * kUnpackOne + 6 + 8 + 3 + 10 + kRoundPack + kPack + kSpecialTests;  // 59
// f64_mul: both unpacks (10), exponent sum and bias (2), the 53x53-bit product as four 32x32 -> 64
// limb products (mul-lo + mul-hi each: 8) and their carried accumulation (10), normalise the
// product in [1, 4) with sticky bit (6), round, pack, special tests.
inline constexpr double kMul = 2 * kUnpackOne + 2 + 8 + 10 + 6 + kRoundPack + kPack + kSpecialTests;  // 58
// f64_div: both unpacks (10), special tests incl. divide-by-zero (6), exponent (2), significand
// normalise (4), softfloat_approxRecip32_1 (table 2 + two multiply-adds 6), two quotient digits,
// the remainder's sticky test (6), round, pack.
inline constexpr double kDiv = 2 * kUnpackOne + 6 + 2 + 4 + 8 + 2 * kQuotientDigit + 6 + kRoundPack + kPack;  // 88
// f64_sqrt: unpack (5), special tests (6), exponent halving and parity shift (3),
// softfloat_approxRecipSqrt32_1 (table 2 + refinement 10), two root digits, sticky test (6),
// round, pack.
inline constexpr double kSqrt = kUnpackOne + 6 + 3 + 12 + 2 * kQuotientDigit + 6 + kRoundPack + kPack;  // 84
// f64_lt / f64_le / f64_eq (x == 0 included): NaN tests of both operands (exponent all ones and
// fraction nonzero: 3 each), sign-magnitude compare of the word pairs (high compare, low compare,
// high equal, combine: 4), sign handling incl. +0 == -0 (2).
inline constexpr double kCompare = 2 * 3 + 4 + 2;  // 12
// |x| and -x: one and / xor on the high word.
inline constexpr double kSign = 1;
// A select of an fp64 value on a computed condition: one select per word.
inline constexpr double kSelect = 2;
// f32_to_f64: unpack (3), subnormal normalise (clz, shift: 3), rebias (1), the fraction into the
// word pair (3), special tests (2).
inline constexpr double kF32ToF64 = 3 + 3 + 1 + 3 + 2;  // 12
// f64_to_f32: unpack (5), shiftRightJam64 to 32 bits (4), roundPackToF32 (round bits, increment,
// ties-to-even, overflow / underflow: 10), pack (2), special tests (3).
inline constexpr double kF64ToF32 = 5 + 4 + 10 + 2 + 3;  // 24
}  // namespace gpsimd_fp64

// One element's work in a GpSimd operator, by kind (counts, possibly fractional averages).
struct GpsimdOps {
  double fp32 = 0, int32 = 0;                                  // native lane ops
  double f64_add = 0, f64_mul = 0, f64_div = 0, f64_sqrt = 0;  // software fp64 (add counts sub too)
  double f64_compare = 0, f64_sign = 0, f64_select = 0;        // compares (incl. == 0), |x| / -x, selects
  double f32_to_f64 = 0, f64_to_f32 = 0;                       // conversions
  double load_words = 0, store_words = 0;                      // 32-bit SBUF words read / written

  // The int32 / fp32 lane ops of the whole tally (one cycle each).
  constexpr double lane_ops() const {
    namespace f = gpsimd_fp64;
    return fp32 + int32 + f64_add * f::kAdd + f64_mul * f::kMul + f64_div * f::kDiv + f64_sqrt * f::kSqrt +
           f64_compare * f::kCompare + f64_sign * f::kSign + f64_select * f::kSelect + f32_to_f64 * f::kF32ToF64 +
           f64_to_f32 * f::kF64ToF32 + load_words + store_words;
  }
  constexpr GpsimdOps& operator+=(const GpsimdOps& o) {
    fp32 += o.fp32, int32 += o.int32, f64_add += o.f64_add, f64_mul += o.f64_mul, f64_div += o.f64_div;
    f64_sqrt += o.f64_sqrt, f64_compare += o.f64_compare, f64_sign += o.f64_sign, f64_select += o.f64_select;
    f32_to_f64 += o.f32_to_f64, f64_to_f32 += o.f64_to_f32, load_words += o.load_words, store_words += o.store_words;
    return *this;
  }
  friend constexpr GpsimdOps operator+(GpsimdOps a, const GpsimdOps& b) { return a += b; }
  friend constexpr GpsimdOps operator*(double k, GpsimdOps a) {
    a.fp32 *= k, a.int32 *= k, a.f64_add *= k, a.f64_mul *= k, a.f64_div *= k, a.f64_sqrt *= k;
    a.f64_compare *= k, a.f64_sign *= k, a.f64_select *= k, a.f32_to_f64 *= k, a.f64_to_f32 *= k;
    a.load_words *= k, a.store_words *= k;
    return a;
  }
};

// Declared cycles of an operator doing `per_element` on each of F elements per partition.
inline double gpsimd_op_cycles(const HardwareSpec& hw, const GpsimdOps& per_element, std::int64_t elements_per_partition) {
  return hw.gpsimd_start + per_element.lane_ops() * static_cast<double>(elements_per_partition);
}

}  // namespace trn::tile
