// Conversions between fp32 and the emulated storage formats. Semantics: trn/core/dtype.hpp and
// docs/numerics.md. The generic encoder works on the exact integer significand, so RNE and SR are
// exact for every input including fp32 subnormals; bf16 and fp16 have faster equivalents whose
// bits are checked against Eigen for all 2^32 inputs and against the generic encoder on a strided
// sample (tests/core/test_dtype.cpp).
#include "trn/core/dtype.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <immintrin.h>

#include "simd_util.hpp"
#include "trn/core/philox.hpp"
#include "trncore.h"

namespace trn {

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::f32: return "float32";
    case DType::bf16: return "bfloat16";
    case DType::f16: return "float16";
    case DType::tf32: return "tfloat32";
    case DType::f8e4m3: return "float8_e4m3";
    case DType::f8e5m2: return "float8_e5m2";
    case DType::f8e4m3fn: return "float8_e4m3fn";
    case DType::i8: return "int8";
    case DType::i16: return "int16";
    case DType::i32: return "int32";
    case DType::u8: return "uint8";
    case DType::u16: return "uint16";
    case DType::u32: return "uint32";
  }
  return "?";
}

namespace {
struct CMapping {
  trnDataType_t c;
  DType t;
};
constexpr std::array<CMapping, kDTypeCount> kCMap{{
    {TRN_R_32F, DType::f32}, {TRN_R_16BF, DType::bf16}, {TRN_R_16F, DType::f16}, {TRN_R_TF32, DType::tf32},
    {TRN_R_8F_E4M3_IEEE, DType::f8e4m3}, {TRN_R_8F_E5M2, DType::f8e5m2}, {TRN_R_8F_E4M3, DType::f8e4m3fn},
    {TRN_R_8I, DType::i8}, {TRN_R_16I, DType::i16}, {TRN_R_32I, DType::i32}, {TRN_R_8U, DType::u8},
    {TRN_R_16U, DType::u16}, {TRN_R_32U, DType::u32},
}};
}  // namespace

bool dtype_from_c(trnDataType_t c, DType* out) {
  for (const auto& m : kCMap)
    if (m.c == c) {
      *out = m.t;
      return true;
    }
  return false;
}
trnDataType_t dtype_to_c(DType t) {
  for (const auto& m : kCMap)
    if (m.t == t) return m.c;
  return TRN_R_32F;
}

FloatFormat float_format(DType t) {
  switch (t) {
    case DType::f32: return {8, 23, 127, true};
    case DType::bf16: return {8, 7, 127, true};
    case DType::f16: return {5, 10, 15, true};
    case DType::tf32: return {8, 10, 127, true};
    case DType::f8e4m3: return {4, 3, 7, true};
    case DType::f8e5m2: return {5, 2, 15, true};
    case DType::f8e4m3fn: return {4, 3, 7, false};
    default: return {0, 0, 0, false};
  }
}

double max_finite(DType t) {
  const FloatFormat f = float_format(t);
  const int max_field = f.has_inf ? (1 << f.exp_bits) - 2 : (1 << f.exp_bits) - 1;
  // fn formats lose the all-ones mantissa at the top exponent (it is NaN).
  const int top_mant = f.has_inf ? (1 << f.man_bits) - 1 : (1 << f.man_bits) - 2;
  return std::ldexp(1.0 + top_mant / double(1 << f.man_bits), max_field - f.bias);
}

std::uint32_t encode_float(const FloatFormat& f, float x, Rounding r, std::uint32_t rand) {
  const std::uint32_t u = f32_to_bits(x);
  const std::uint32_t sign = (u >> 31) << (f.width() - 1);
  const std::uint32_t a = u & 0x7fffffffu;
  const std::uint32_t man_mask = (1u << f.man_bits) - 1u;
  const std::uint32_t exp_all_ones = (1u << f.exp_bits) - 1u;
  const std::uint32_t fn_nan = sign | (exp_all_ones << f.man_bits) | man_mask;
  if (a > 0x7f800000u) {  // NaN: keep sign and the top payload bits, set the quiet bit
    if (!f.has_inf) return fn_nan;
    const std::uint32_t payload = ((a & 0x7fffffu) >> (23 - f.man_bits)) | (1u << (f.man_bits - 1));
    return sign | (exp_all_ones << f.man_bits) | payload;
  }
  if (a == 0x7f800000u) return f.has_inf ? sign | (exp_all_ones << f.man_bits) : fn_nan;
  if (a == 0) return sign;

  // |x| = M * 2^E with an integer significand M.
  const int e = static_cast<int>(a >> 23);
  const std::uint64_t M = e == 0 ? (a & 0x7fffffu) : ((a & 0x7fffffu) | 0x800000u);
  const int E = e == 0 ? -149 : e - 150;
  const int ev = E + static_cast<int>(std::bit_width(M)) - 1;  // floor(log2|x|)
  int qe = std::max(ev, f.emin()) - f.man_bits;                // exponent of the target quantum
  const int sh = qe - E;                                        // significand bits dropped
  std::uint64_t R;
  if (sh <= 0) {
    R = M << -sh;
  } else {
    const std::uint64_t q = sh >= 64 ? 0 : M >> sh;
    const std::uint64_t rem = sh >= 64 ? M : M - (q << sh);
    R = q;
    if (r == Rounding::nearest_even) {
      if (sh <= 63) {
        const std::uint64_t half = std::uint64_t{1} << (sh - 1);
        if (rem > half || (rem == half && (q & 1u))) ++R;
      }
    } else {
      // Round up iff r < rem, r = the top min(sh, 32) random bits: probability rem / 2^sh. For
      // sh > 32 only the top 32 bits of rem count: probability floor(rem / 2^(sh - 32)) / 2^32.
      // f32_to_bf16_sr applies the same rule, so every path gives the same bits for (x, rand).
      if (sh <= 32) {
        if ((std::uint64_t{rand} >> (32 - sh)) < rem) ++R;
      } else if (sh < 64) {
        if (std::uint64_t{rand} < (rem >> (sh - 32))) ++R;
      }
    }
  }
  if (R == 0) return sign;
  if (R >> (f.man_bits + 1)) {  // carry out of the significand
    R >>= 1;
    ++qe;
  }
  std::uint32_t field, mant;
  if (R >> f.man_bits) {
    field = static_cast<std::uint32_t>(qe + f.man_bits + f.bias);
    mant = static_cast<std::uint32_t>(R) & man_mask;
  } else {
    field = 0;
    mant = static_cast<std::uint32_t>(R);
  }
  const std::uint32_t max_field = f.has_inf ? exp_all_ones - 1 : exp_all_ones;
  if (qe + f.man_bits + f.bias > static_cast<int>(max_field) || (!f.has_inf && field == max_field && mant == man_mask))
    return f.has_inf ? sign | (exp_all_ones << f.man_bits) : fn_nan;
  return sign | (field << f.man_bits) | mant;
}

namespace {

// fp32 -> fp8 (e4m3 / e5m2 / e4m3fn) rounded to nearest even: encode_float's result for
// Rounding::nearest_even, bit for bit, without its general machinery on the common path. A value
// in the target's normal range rounds like f32_to_tf32_rne_bits: add half a quantum minus one plus
// the kept LSB to the magnitude's bits and drop 23 - M bits; the carry may enter the exponent (up
// to the top binade: Inf, or NaN for the fn format, as encode_float returns). The exponent is then
// re-biased by subtracting (127 - bias) << M. Zero, the target's subnormal range, Inf and NaN take
// encode_float itself. Checked against encode_float over every fp32 near each fp8 rounding
// boundary and a stride of the whole range (tests/core/test_dtype.cpp, Fp8FastEncode).
template <int E, int M, bool HasInf>
std::uint8_t f32_to_fp8_rne(float x) {
  constexpr int kBias = (1 << (E - 1)) - 1;
  constexpr std::uint32_t kMinNormal = std::uint32_t(127 + 1 - kBias) << 23;  // 2^(1 - bias) as fp32 bits
  constexpr int kDrop = 23 - M;
  constexpr std::uint32_t kRebias = std::uint32_t(127 - kBias) << M;
  constexpr std::uint32_t kAllOnes = (1u << E) - 1u;
  const std::uint32_t u = f32_to_bits(x);
  const std::uint32_t a = u & 0x7fffffffu;
  if (a < kMinNormal || a >= 0x7f800000u) return static_cast<std::uint8_t>(encode_float({E, M, kBias, HasInf}, x, Rounding::nearest_even, 0));
  const std::uint32_t sign = (u >> 31) << 7;
  const std::uint32_t code = ((a + ((1u << (kDrop - 1)) - 1u) + ((a >> kDrop) & 1u)) >> kDrop) - kRebias;
  if constexpr (HasInf) {
    if (code >= (kAllOnes << M)) return static_cast<std::uint8_t>(sign | (kAllOnes << M));  // Inf
  } else {
    if (code >= ((kAllOnes << M) | ((1u << M) - 1u))) return static_cast<std::uint8_t>(sign | 0x7fu);  // NaN (fn)
  }
  return static_cast<std::uint8_t>(sign | code);
}

std::uint8_t fp8_rne(DType t, float x) {
  switch (t) {
    case DType::f8e4m3: return f32_to_fp8_rne<4, 3, true>(x);
    case DType::f8e5m2: return f32_to_fp8_rne<5, 2, true>(x);
    default: return f32_to_fp8_rne<4, 3, false>(x);
  }
}

template <int E, int M, bool HasInf>
void fp8_row_rne(const float* in, std::int64_t n, std::uint8_t* dst, std::int64_t stride) {
  for (std::int64_t i = 0; i < n; ++i) dst[i * stride] = f32_to_fp8_rne<E, M, HasInf>(in[i]);
}

}  // namespace

float decode_float(const FloatFormat& f, std::uint32_t code) {
  const bool neg = (code >> (f.width() - 1)) & 1u;
  const std::uint32_t field = (code >> f.man_bits) & ((1u << f.exp_bits) - 1u);
  const std::uint32_t mant = code & ((1u << f.man_bits) - 1u);
  const std::uint32_t exp_all_ones = (1u << f.exp_bits) - 1u;
  float v;
  if (f.has_inf && field == exp_all_ones) {
    // Inf, or NaN widened bit for bit (sign and payload kept, quiet bit not forced), exactly as
    // bf16_to_f32 and f16_to_f32 do.
    if (mant != 0) return bits_to_f32((neg ? 0x80000000u : 0u) | 0x7f800000u | (mant << (23 - f.man_bits)));
    v = std::numeric_limits<float>::infinity();
  } else if (!f.has_inf && field == exp_all_ones && mant == (1u << f.man_bits) - 1u) {
    return bits_to_f32(0x7fc00000u | (neg ? 0x80000000u : 0u));
  } else if (field == 0) {
    v = std::ldexp(static_cast<float>(mant), f.emin() - f.man_bits);
  } else {
    v = std::ldexp(1.0f + static_cast<float>(mant) / static_cast<float>(1u << f.man_bits),
                   static_cast<int>(field) - f.bias);
  }
  return neg ? -v : v;
}

// The fp16 conversions are trncore.h's (trnHalf2Float, trnFloat2Half_rn): one implementation for the
// engines and for a ported program's __half conversions.
float f16_to_f32(std::uint16_t h) {
  trnHalf v;
  v.x = h;
  return trnHalf2Float(v);
}

std::uint16_t f32_to_f16_rne(float x) { return trnFloat2Half_rn(x).x; }

namespace {
// Decode tables for the 8-bit float formats (exact).
struct Fp8Tables {
  std::array<float, 256> e4m3, e5m2, e4m3fn;
  Fp8Tables() {
    for (std::uint32_t c = 0; c < 256; ++c) {
      e4m3[c] = decode_float({4, 3, 7, true}, c);
      e5m2[c] = decode_float({5, 2, 15, true}, c);
      e4m3fn[c] = decode_float({4, 3, 7, false}, c);
    }
  }
};
const Fp8Tables& fp8_tables() {
  static const Fp8Tables t;
  return t;
}
const std::array<float, 256>& fp8_table(DType t) {
  const auto& tb = fp8_tables();
  return t == DType::f8e4m3 ? tb.e4m3 : t == DType::f8e5m2 ? tb.e5m2 : tb.e4m3fn;
}

template <class T>
T load_raw(const void* p) {
  T v;
  __builtin_memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
void store_raw(void* p, T v) {
  __builtin_memcpy(p, &v, sizeof(T));
}

std::int64_t int_min(DType t) {
  switch (t) {
    case DType::i8: return INT8_MIN;
    case DType::i16: return INT16_MIN;
    case DType::i32: return INT32_MIN;
    default: return 0;
  }
}
std::int64_t int_max(DType t) {
  switch (t) {
    case DType::i8: return INT8_MAX;
    case DType::i16: return INT16_MAX;
    case DType::i32: return INT32_MAX;
    case DType::u8: return UINT8_MAX;
    case DType::u16: return UINT16_MAX;
    default: return UINT32_MAX;
  }
}
}  // namespace

std::int64_t f32_to_int_saturate(DType t, float x) {
  if (std::isnan(x)) return 0;
  const double r = std::nearbyint(static_cast<double>(x));  // host rounding mode is RNE
  const double lo = static_cast<double>(int_min(t)), hi = static_cast<double>(int_max(t));
  if (r <= lo) return int_min(t);
  if (r >= hi) return int_max(t);
  return static_cast<std::int64_t>(r);
}

std::int64_t load_as_int(DType t, const void* src) {
  switch (t) {
    case DType::i8: return load_raw<std::int8_t>(src);
    case DType::i16: return load_raw<std::int16_t>(src);
    case DType::i32: return load_raw<std::int32_t>(src);
    case DType::u8: return load_raw<std::uint8_t>(src);
    case DType::u16: return load_raw<std::uint16_t>(src);
    case DType::u32: return load_raw<std::uint32_t>(src);
    default: return f32_to_int_saturate(DType::i32, load_as_f32(t, src));
  }
}

void store_int(DType t, void* dst, std::int64_t v) {
  v = std::clamp(v, int_min(t), int_max(t));
  switch (t) {
    case DType::i8: store_raw(dst, static_cast<std::int8_t>(v)); break;
    case DType::i16: store_raw(dst, static_cast<std::int16_t>(v)); break;
    case DType::i32: store_raw(dst, static_cast<std::int32_t>(v)); break;
    case DType::u8: store_raw(dst, static_cast<std::uint8_t>(v)); break;
    case DType::u16: store_raw(dst, static_cast<std::uint16_t>(v)); break;
    case DType::u32: store_raw(dst, static_cast<std::uint32_t>(v)); break;
    default: break;
  }
}

float load_as_f32(DType t, const void* src) {
  switch (t) {
    case DType::f32: case DType::tf32: return load_raw<float>(src);
    case DType::bf16: return bf16_to_f32(load_raw<std::uint16_t>(src));
    case DType::f16: return f16_to_f32(load_raw<std::uint16_t>(src));
    case DType::f8e4m3: case DType::f8e5m2: case DType::f8e4m3fn: return fp8_table(t)[load_raw<std::uint8_t>(src)];
    default: return static_cast<float>(load_as_int(t, src));
  }
}

void store_from_f32(DType t, void* dst, float x, Rounding r, std::uint32_t rand) {
  switch (t) {
    case DType::f32: store_raw(dst, x); break;
    case DType::bf16:
      store_raw(dst, r == Rounding::stochastic ? f32_to_bf16_sr(x, rand) : f32_to_bf16_rne(x));
      break;
    case DType::tf32:
      store_raw(dst, r == Rounding::stochastic ? encode_float(float_format(t), x, r, rand) << 13 : f32_to_tf32_rne_bits(x));
      break;
    case DType::f16:
      store_raw(dst, static_cast<std::uint16_t>(r == Rounding::stochastic ? encode_float(float_format(t), x, r, rand)
                                                                             : f32_to_f16_rne(x)));
      break;
    case DType::f8e4m3: case DType::f8e5m2: case DType::f8e4m3fn:
      store_raw(dst, r == Rounding::nearest_even ? fp8_rne(t, x) : static_cast<std::uint8_t>(encode_float(float_format(t), x, r, rand)));
      break;
    default: store_int(t, dst, f32_to_int_saturate(t, x)); break;
  }
}

std::uint32_t SrStream::bits(std::uint64_t element) const {
  // counter = (element / 4, element / 2^34 + output * 2^24, instruction, program), key = seed;
  // word = element % 4. Elements stay below 2^58, so outputs never share counters.
  const Philox4x32Counter c{static_cast<std::uint32_t>(element >> 2),
                            static_cast<std::uint32_t>(element >> 34) + (output << 24), instruction, program};
  const Philox4x32Key k{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
  return philox4x32_10(c, k)[element & 3u];
}

TRN_SIMD_WARNINGS_BEGIN
namespace {
// AVX-512 forms of the contiguous row conversions. bf16 and tf32 perform the integer operations of
// f32_to_bf16_rne / f32_to_tf32_rne_bits lane by lane (no floating-point arithmetic, so no MXCSR or
// DAZ/FTZ dependence), hence the same bits; fp16 uses vcvtps2ph (below). tests/core/test_dtype.cpp
// checks every row path for all 2^32 fp32 patterns. AVX512-BF16's vcvtneps2bf16 is not used: it
// flushes subnormals to zero.

// bf16 / fp16 row -> fp32 (simd::load_widen16).
__attribute__((target("avx512f,avx512bw,avx512vl"))) void narrow_row_to_f32_avx512(DType t, const std::uint16_t* in,
                                                                                  std::int64_t n, float* out) {
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(out + i, simd::load_widen16(t, in + i, 0xffff));
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1u);
    _mm512_mask_storeu_ps(out + i, m, simd::load_widen16(t, in + i, m));
  }
}

// Round to nearest even at bit kDrop, keeping 32-bit storage with the kDrop low bits zero; NaN keeps
// sign and top payload bits and gets the fp32 quiet bit. bf16 is the result >> 16, tf32 the result.
template <int kDrop>
__attribute__((target("avx512f"))) inline __m512i rne_clear_low_bits_avx512(__m512i u) {
  const __m512i keep = _mm512_set1_epi32(static_cast<int>(~((1u << kDrop) - 1u)));
  const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, kDrop), _mm512_set1_epi32(1));
  const __m512i half = _mm512_set1_epi32(static_cast<int>((1u << (kDrop - 1)) - 1u));
  const __m512i rounded = _mm512_and_si512(_mm512_add_epi32(u, _mm512_add_epi32(lsb, half)), keep);
  const __m512i quiet_nan = _mm512_or_si512(_mm512_and_si512(u, keep), _mm512_set1_epi32(0x00400000));
  const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff)),
                                                _mm512_set1_epi32(0x7f800000));
  return _mm512_mask_mov_epi32(rounded, nan, quiet_nan);
}

__attribute__((target("avx512f,avx512bw,avx512vl"))) void f32_row_to_bf16_avx512(const float* in, std::int64_t n,
                                                                       std::uint16_t* out) {
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i r = _mm512_srli_epi32(rne_clear_low_bits_avx512<16>(_mm512_loadu_si512(in + i)), 16);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm512_cvtepi32_epi16(r));
  }
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1u);
    const __m512i r = _mm512_srli_epi32(rne_clear_low_bits_avx512<16>(_mm512_maskz_loadu_epi32(m, in + i)), 16);
    _mm512_mask_cvtepi32_storeu_epi16(out + i, m, r);
  }
}

// fp16: vcvtps2ph with round-to-nearest-even gives IEEE binary16 RNE (subnormals, overflow to inf,
// NaN -> sign | quiet | top payload bits, as f32_to_f16_rne).
__attribute__((target("avx512f,avx512bw,avx512vl"))) void f32_row_to_f16_avx512(const float* in, std::int64_t n, std::uint16_t* out) {
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                        _mm512_cvtps_ph(_mm512_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1u);
    const __m256i h = _mm512_cvtps_ph(_mm512_maskz_loadu_ps(m, in + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm256_mask_storeu_epi16(out + i, m, h);
  }
}

__attribute__((target("avx512f"))) void f32_row_to_tf32_avx512(const float* in, std::int64_t n, std::uint32_t* out) {
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_si512(out + i, rne_clear_low_bits_avx512<13>(_mm512_loadu_si512(in + i)));
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1u);
    _mm512_mask_storeu_epi32(out + i, m, rne_clear_low_bits_avx512<13>(_mm512_maskz_loadu_epi32(m, in + i)));
  }
}
}  // namespace
TRN_SIMD_WARNINGS_END

namespace {
template <class T>
void load_int_row_f32(const std::byte* src, std::int64_t stride, std::int64_t n, float* out) {
  if (stride == 1) {
    for (std::int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(load_raw<T>(src + i * std::int64_t{sizeof(T)}));
  } else {
    for (std::int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(load_raw<T>(src + i * stride * std::int64_t{sizeof(T)}));
  }
}
// store_from_f32's integer case (store_int of f32_to_int_saturate: NaN -> 0, RNE, saturating) with
// the dtype a template parameter: the same comparisons on the same double, without a two-level dtype
// switch per element (VectorE's integer ops go through fp32 in trn1_measured: the fp64 slicing's
// [128, 1..4] i32 rows).
template <class T>
void store_int_row_f32(const float* in, std::int64_t n, std::byte* dst, std::int64_t stride) {
  constexpr T kMin = std::numeric_limits<T>::min(), kMax = std::numeric_limits<T>::max();
  constexpr double lo = kMin, hi = kMax;
  for (std::int64_t i = 0; i < n; ++i) {
    const float x = in[i];
    T v = 0;
    if (!std::isnan(x)) {
      const double r = std::nearbyint(static_cast<double>(x));  // host rounding mode is RNE
      v = r <= lo ? kMin : r >= hi ? kMax : static_cast<T>(static_cast<std::int64_t>(r));
    }
    store_raw(dst + i * stride * std::int64_t{sizeof(T)}, v);
  }
}
}  // namespace

void load_row_f32(DType t, const std::byte* src, std::int64_t stride, std::int64_t n, float* out) {
  const std::int64_t es = dtype_size(t);
  switch (t) {
    case DType::f32: case DType::tf32:
      if (stride == 1) {
        __builtin_memcpy(out, src, static_cast<std::size_t>(n) * 4);
      } else {
        for (std::int64_t i = 0; i < n; ++i) out[i] = load_raw<float>(src + i * stride * 4);
      }
      break;
    case DType::bf16:
      if (stride == 1 && simd::has_avx512()) {
        narrow_row_to_f32_avx512(t, reinterpret_cast<const std::uint16_t*>(src), n, out);
      } else if (stride == 1) {  // contiguous: a plain widening loop the compiler vectorises
        for (std::int64_t i = 0; i < n; ++i) out[i] = bits_to_f32(std::uint32_t{load_raw<std::uint16_t>(src + i * 2)} << 16);
      } else {
        for (std::int64_t i = 0; i < n; ++i) out[i] = bf16_to_f32(load_raw<std::uint16_t>(src + i * stride * 2));
      }
      break;
    case DType::f16:
      if (stride == 1 && simd::has_avx512()) {
        narrow_row_to_f32_avx512(t, reinterpret_cast<const std::uint16_t*>(src), n, out);
      } else {
        for (std::int64_t i = 0; i < n; ++i) out[i] = f16_to_f32(load_raw<std::uint16_t>(src + i * stride * 2));
      }
      break;
    case DType::f8e4m3: case DType::f8e5m2: case DType::f8e4m3fn: {
      const auto& tab = fp8_table(t);
      for (std::int64_t i = 0; i < n; ++i) out[i] = tab[std::to_integer<std::uint8_t>(src[i * stride])];
      break;
    }
    // Integer dtypes: load_as_f32's static_cast<float>(std::int64_t{v}) is the correctly rounded
    // conversion of the same integer as static_cast<float>(v), so these loops give its bits without
    // a two-level dtype switch per element (trnrand's u32 words -> uniforms were 9/10 of their
    // VectorE instruction's host time).
    case DType::u32: load_int_row_f32<std::uint32_t>(src, stride, n, out); break;
    case DType::i32: load_int_row_f32<std::int32_t>(src, stride, n, out); break;
    case DType::u16: load_int_row_f32<std::uint16_t>(src, stride, n, out); break;
    case DType::i16: load_int_row_f32<std::int16_t>(src, stride, n, out); break;
    case DType::u8: load_int_row_f32<std::uint8_t>(src, stride, n, out); break;
    case DType::i8: load_int_row_f32<std::int8_t>(src, stride, n, out); break;
    default:
      for (std::int64_t i = 0; i < n; ++i) out[i] = load_as_f32(t, src + i * stride * es);
      break;
  }
}

void store_row_f32(DType t, const float* in, std::int64_t n, std::byte* dst, std::int64_t stride, Rounding r,
                   const SrStream* sr, std::uint64_t first_element) {
  const std::int64_t es = dtype_size(t);
  if (t == DType::f32) {
    if (stride == 1)
      __builtin_memcpy(dst, in, static_cast<std::size_t>(n) * 4);
    else
      for (std::int64_t i = 0; i < n; ++i) store_raw(dst + i * stride * 4, in[i]);
    return;
  }
  switch (t) {  // integers: RNE + saturation under every rounding mode (store_from_f32)
    case DType::u32: return store_int_row_f32<std::uint32_t>(in, n, dst, stride);
    case DType::i32: return store_int_row_f32<std::int32_t>(in, n, dst, stride);
    case DType::u16: return store_int_row_f32<std::uint16_t>(in, n, dst, stride);
    case DType::i16: return store_int_row_f32<std::int16_t>(in, n, dst, stride);
    case DType::u8: return store_int_row_f32<std::uint8_t>(in, n, dst, stride);
    case DType::i8: return store_int_row_f32<std::int8_t>(in, n, dst, stride);
    default: break;
  }
  if (r == Rounding::stochastic && is_float(t) && sr != nullptr) {
    for (std::int64_t i = 0; i < n; ++i)
      store_from_f32(t, dst + i * stride * es, in[i], r, sr->bits(first_element + static_cast<std::uint64_t>(i)));
    return;
  }
  if (t == DType::f16 && stride == 1 && simd::has_avx512())
    return f32_row_to_f16_avx512(in, n, reinterpret_cast<std::uint16_t*>(dst));
  if (t == DType::tf32) {
    if (stride == 1 && simd::has_avx512()) return f32_row_to_tf32_avx512(in, n, reinterpret_cast<std::uint32_t*>(dst));
    for (std::int64_t i = 0; i < n; ++i) store_raw(dst + i * stride * 4, f32_to_tf32_rne_bits(in[i]));
    return;
  }
  if (t == DType::bf16) {
    if (stride == 1 && simd::has_avx512()) return f32_row_to_bf16_avx512(in, n, reinterpret_cast<std::uint16_t*>(dst));
    for (std::int64_t i = 0; i < n; ++i) store_raw(dst + i * stride * 2, f32_to_bf16_rne(in[i]));
    return;
  }
  if (t == DType::f8e4m3) return fp8_row_rne<4, 3, true>(in, n, reinterpret_cast<std::uint8_t*>(dst), stride);
  if (t == DType::f8e5m2) return fp8_row_rne<5, 2, true>(in, n, reinterpret_cast<std::uint8_t*>(dst), stride);
  if (t == DType::f8e4m3fn) return fp8_row_rne<4, 3, false>(in, n, reinterpret_cast<std::uint8_t*>(dst), stride);
  for (std::int64_t i = 0; i < n; ++i) store_from_f32(t, dst + i * stride * es, in[i], Rounding::nearest_even, 0);
}

}  // namespace trn
