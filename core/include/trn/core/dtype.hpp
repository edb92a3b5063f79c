// Data types of the emulated NeuronCore and the conversions every engine performs on write.
//
// Semantics (docs/numerics.md, "Data types and casts"):
//  - fp32 -> narrower float: round to nearest, ties to even (RNE) or stochastic rounding (SR, the
//    probability of rounding away from zero equals the distance to the lower neighbour in units of
//    the quantum: round away from zero iff r < rem, r = the top min(dropped, 32) bits of a 32-bit
//    random word, rem = the dropped bits; more than 32 dropped bits use the top 32 bits of rem).
//    Subnormals are kept (IEEE). Overflow: formats with infinity (bf16, fp16, tf32,
//    fp8_e5m2, Neuron's fp8_e4m3) give +-inf; fp8_e4m3fn (OCP, no inf) gives NaN, as ml_dtypes and
//    CUDA's non-saturating conversion do. NaN stays NaN: sign and the top payload bits are kept and
//    the quiet bit is set (fp8_e4m3fn has a single NaN, S.1111.111).
//  - narrower float -> fp32: exact; a NaN is widened bit for bit (sign and payload kept, quiet bit
//    not forced), except fp8_e4m3fn's NaN, which gives the default quiet NaN with its sign.
//  - fp32 -> integer: round to nearest even, saturate to the type's range, NaN -> 0
//    (undocumented, docs/numerics.md section 10; I1308 shows saturated INT32_MIN/MAX patterns).
//  - integer -> fp32: RNE (exact up to 2^24).
#pragma once
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "trncore.h"

namespace trn {

enum class DType : std::uint8_t {
  f32,
  bf16,
  f16,
  tf32,      // 1-8-10, stored in 4 bytes as an fp32 whose low 13 bits are zero
  f8e4m3,    // Neuron FP8_EXP4: IEEE-style, bias 7, has inf, max 240 (trn1, trn2, trn3)
  f8e5m2,    // IEEE-style, bias 15, max 57344
  f8e4m3fn,  // OCP E4M3FN: bias 7, no inf, single NaN, max 448 (native on trn3 only)
  i8,
  i16,
  i32,
  u8,
  u16,
  u32,
};
inline constexpr int kDTypeCount = 13;

enum class Rounding : std::uint8_t { nearest_even, stochastic };

constexpr int dtype_size(DType t) {
  switch (t) {
    case DType::f32: case DType::tf32: case DType::i32: case DType::u32: return 4;
    case DType::bf16: case DType::f16: case DType::i16: case DType::u16: return 2;
    default: return 1;
  }
}
constexpr bool is_float(DType t) { return t <= DType::f8e4m3fn; }
constexpr bool is_integer(DType t) { return !is_float(t); }
constexpr bool is_fp8(DType t) { return t == DType::f8e4m3 || t == DType::f8e5m2 || t == DType::f8e4m3fn; }
constexpr bool is_signed_integer(DType t) { return t == DType::i8 || t == DType::i16 || t == DType::i32; }
constexpr bool is_32bit_integer(DType t) { return t == DType::i32 || t == DType::u32; }

std::string_view dtype_name(DType t);
// Mapping to and from the C enum (cudaDataType values). Returns false for TRN_R_64F and unknown values.
bool dtype_from_c(trnDataType_t c, DType* out);
trnDataType_t dtype_to_c(DType t);

// Parameters of a binary floating-point format with an implicit leading bit.
struct FloatFormat {
  int exp_bits;
  int man_bits;  // stored fraction bits
  int bias;
  bool has_inf;  // false: OCP "fn" style, the all-ones code is the only NaN and overflow gives NaN
  constexpr int emin() const { return 1 - bias; }
  constexpr int width() const { return 1 + exp_bits + man_bits; }
};
// Format of a float dtype (tf32 reports its 19-bit code layout).
FloatFormat float_format(DType t);
// Largest finite value of a float dtype.
double max_finite(DType t);

// ---- scalar conversions ---------------------------------------------------------------------
// Round x into the code of format f (width() bits, right-aligned). rand: 32 uniform random bits,
// used only for Rounding::stochastic: with sh significand bits dropped and remainder rem, round up
// iff (rand >> (32 - sh)) < rem (sh <= 32), or rand < (rem >> (sh - 32)) (sh > 32).
// Bit-identical to f32_to_bf16_sr for the bf16 format.
std::uint32_t encode_float(const FloatFormat& f, float x, Rounding r, std::uint32_t rand = 0);
float decode_float(const FloatFormat& f, std::uint32_t code);

inline float bits_to_f32(std::uint32_t u) { return std::bit_cast<float>(u); }
inline std::uint32_t f32_to_bits(float x) { return std::bit_cast<std::uint32_t>(x); }

// bf16 <-> fp32 are trncore.h's (trnBfloat162Float, trnFloat2Bfloat16_rn): one implementation for the
// engines and for a ported program's __nv_bfloat16 conversions.
inline float bf16_to_f32(std::uint16_t b) { return bits_to_f32(std::uint32_t{b} << 16); }
inline std::uint16_t f32_to_bf16_rne(float x) { return trnFloat2Bfloat16_rn(x).x; }
// SR for bf16: round away from zero iff (rand >> 16) < the 16 dropped bits, so P(up) = dropped / 2^16
// exactly; the same rule as encode_float (bit-identical for every (x, rand)).
inline std::uint16_t f32_to_bf16_sr(float x, std::uint32_t rand) {
  const std::uint32_t u = f32_to_bits(x);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
  const std::uint32_t up = (rand >> 16) < (u & 0xffffu) ? 1u : 0u;  // inf has no dropped bits
  return static_cast<std::uint16_t>((u >> 16) + up);
}
float f16_to_f32(std::uint16_t h);
std::uint16_t f32_to_f16_rne(float x);
// tf32 in its 32-bit storage (fp32 bits, the 13 low mantissa bits zero), rounded to nearest even:
// the carry of the 13 dropped bits propagates into the exponent, so the largest finite values
// above the last midpoint become inf as in encode_float. NaN: sign and top 10 payload bits kept,
// quiet bit set (encode_float's policy). Checked against the generic encoder and an independent
// double reference (tests/core/test_dtype.cpp).
inline std::uint32_t f32_to_tf32_rne_bits(float x) {
  const std::uint32_t u = f32_to_bits(x);
  const std::uint32_t rounded = (u + 0x0fffu + ((u >> 13) & 1u)) & 0xffffe000u;
  const std::uint32_t quiet_nan = (u & 0xffffe000u) | 0x00400000u;
  return (u & 0x7fffffffu) > 0x7f800000u ? quiet_nan : rounded;
}

// Store one fp32 value into element storage of dtype t (integer dtypes: RNE + saturation).
void store_from_f32(DType t, void* dst, float x, Rounding r, std::uint32_t rand);
// Load one element of dtype t as fp32 (integers: RNE through fp32, exact below 2^24).
float load_as_f32(DType t, const void* src);
// Integer element <-> int64 (exact). store_int saturates to the dtype's range.
std::int64_t load_as_int(DType t, const void* src);
void store_int(DType t, void* dst, std::int64_t v);
// fp32 -> integer as the engines do it: RNE, saturate, NaN -> 0.
std::int64_t f32_to_int_saturate(DType t, float x);

// ---- bulk conversions (vectorisable loops; one switch per call, not per element) -----------------
// Read n elements starting at src with a stride of `stride` elements into fp32.
void load_row_f32(DType t, const std::byte* src, std::int64_t stride, std::int64_t n, float* out);

// Source of stochastic-rounding bits: a pure function of (seed, program, instruction, element).
struct SrStream {
  std::uint64_t seed = 0;
  std::uint32_t program = 0;
  std::uint32_t instruction = 0;
  std::uint32_t output = 0;  // which output of a multi-output instruction (0 = dst)
  std::uint32_t bits(std::uint64_t element) const;
};
// Write n fp32 values to dst (dtype t, stride in elements). For Rounding::stochastic, element i uses
// sr->bits(first_element + i); with sr == nullptr, or for integer dtypes, the rounding is RNE.
void store_row_f32(DType t, const float* in, std::int64_t n, std::byte* dst, std::int64_t stride, Rounding r,
                   const SrStream* sr, std::uint64_t first_element);

}  // namespace trn
