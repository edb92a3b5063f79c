/* trncore.h - C types shared by every trnsci library (trnblas, trnsolver, trnfft, trnsparse,
 * trnrand, trntensor). Pure C, no C++ required. Values of trnDataType_t are every cudaDataType
 * value (CUDA 13 library_types.h) so that a prefix substitution ports code; trnsci-only formats use
 * values >= 1000 so they can never collide with a future cudaDataType.                         */
#ifndef TRNCORE_H
#define TRNCORE_H

#include <string.h> /* memcpy: the fp16 conversions' bit casts */

#ifdef __cplusplus
extern "C" {
#endif

typedef enum trnDataType_t {
  TRN_R_16F = 2,      /* IEEE binary16 */
  TRN_C_16F = 6,      /* complex: a pair of binary16 */
  TRN_R_16BF = 14,    /* bfloat16 */
  TRN_C_16BF = 15,    /* complex: a pair of bfloat16 */
  TRN_R_32F = 0,      /* IEEE binary32 */
  TRN_C_32F = 4,      /* complex: a pair of binary32 (trnfftComplex, float2 layout) */
  TRN_R_64F = 1,      /* IEEE binary64 (host side only: no NeuronCore engine computes in FP64) */
  TRN_C_64F = 5,      /* complex: a pair of binary64 */
  TRN_R_4I = 16,
  TRN_C_4I = 17,
  TRN_R_4U = 18,
  TRN_C_4U = 19,
  TRN_R_8I = 3,
  TRN_C_8I = 7,
  TRN_R_8U = 8,
  TRN_C_8U = 9,
  TRN_R_16I = 20,
  TRN_C_16I = 21,
  TRN_R_16U = 22,
  TRN_C_16U = 23,
  TRN_R_32I = 10,
  TRN_C_32I = 11,
  TRN_R_32U = 12,
  TRN_C_32U = 13,
  TRN_R_64I = 24,
  TRN_C_64I = 25,
  TRN_R_64U = 26,
  TRN_C_64U = 27,
  TRN_R_8F_E4M3 = 28, /* OCP FP8 E4M3FN (no inf, max 448) as CUDA's CUDA_R_8F_E4M3; native on trn3 only */
  TRN_R_8F_UE4M3 = TRN_R_8F_E4M3,
  TRN_R_8F_E5M2 = 29, /* FP8 E5M2 (IEEE-style, max 57344) */
  TRN_R_8F_UE8M0 = 30,
  TRN_R_6F_E2M3 = 31,
  TRN_R_6F_E3M2 = 32,
  TRN_R_4F_E2M1 = 33,
  /* trnsci extensions */
  TRN_R_8F_E4M3_IEEE = 1000, /* Neuron's FP8_EXP4: IEEE-style E4M3, bias 7, has inf, max 240 (trn1/trn2 "float8_e4m3") */
  TRN_R_TF32 = 1001          /* TensorFloat-32: 1-8-10 stored in 4 bytes (low 13 bits zero) */
} trnDataType_t;

/* Opaque stream handle of every library's SetStream/GetStream: execution is synchronous, the
 * value is stored and returned (a superset of CUDA stream semantics). */
typedef void* trnStream_t;

/* Numerics profiles (docs/numerics.md). */
typedef enum trnNumerics_t {
  TRN_NUMERICS_IDEAL = 0,         /* exact products, FP32 accumulation in a fixed order, exact integers */
  TRN_NUMERICS_TRN1_MEASURED = 1  /* BF16xBF16 products rounded to BF16 before PSUM; Vector/Scalar integers via FP32 */
} trnNumerics_t;

/* Emulated hardware generations. */
typedef enum trnTarget_t {
  TRN_TARGET_TRN1 = 1, /* NeuronCore-v2 (Trn1/Inf2) */
  TRN_TARGET_TRN2 = 2, /* NeuronCore-v3 */
  TRN_TARGET_TRN3 = 3  /* NeuronCore-v4 */
} trnTarget_t;

/* Engines of one NeuronCore, in the order used by per-engine arrays. */
typedef enum trnEngine_t {
  TRN_ENGINE_TENSOR = 0,
  TRN_ENGINE_VECTOR = 1,
  TRN_ENGINE_SCALAR = 2,
  TRN_ENGINE_GPSIMD = 3,
  TRN_ENGINE_DMA = 4,
  TRN_ENGINE_COUNT = 5
} trnEngine_t;

/* Modeled cost of the last library call (filled by the cost model; see docs/cost-model.md). */
typedef struct trnProfile_t {
  trnTarget_t target;
  double total_ns;
  double busy_ns[TRN_ENGINE_COUNT];
  double flops;
  double dma_bytes;
  long long instructions;
  long long instructions_per_engine[TRN_ENGINE_COUNT];
  /* Appended fields (ABI: older callers see the struct above unchanged). Host round trips: fp64
     steps run on the instance's host CPU (docs/cost-model.md section 7), apart from the engines. */
  double host_roundtrip_ns; /* summed time of the host round trips (link + host CPU + fixed cost) */
  double host_critical_ns;  /* the part of it on the critical path (included in total_ns) */
  double host_flops;        /* fp64 flops done on the host */
  double host_bytes;        /* bytes moved over the host link, both directions */
  long long host_steps;     /* number of host round trips */
  /* Appended (issue #30): the roofline and emulator-bound inputs (docs/cost-model.md section 8). */
  double tensor_flops;      /* TensorE matmul flops (2 x multiply-adds); flops - tensor_flops: element ops */
  double roofline_ns[TRN_ENGINE_COUNT]; /* each engine's work at its peak rate, summed over cores */
  int cores;                /* cores the profile is stated over (utilisation and roofline denominators) */
} trnProfile_t;

/* Log callbacks of every library: cuBLAS's (the message) and cuSPARSE's / cuSOLVER's / cuTENSOR's
 * (level, function, message; every message a trnsci library emits is an error, level 1). */
typedef void (*trnLogCallback_t)(const char* message);
typedef void (*trnLoggerCallback_t)(int logLevel, const char* functionName, const char* message);

/* The emulation surface every trnsci library has, declared once. H is the prefix of the handle
 * functions (trnblas, trnsolverDn, trnfft, trnsparse, trnrand, trntensor), L the library-wide one
 * (trnblas, trnsolver, trnfft, ...), Handle the handle type (cuFFT's plan handle, cuRAND's
 * generator, ...), Status the library's status enum. Every function returns the library's
 * NOT_INITIALIZED (cuFFT: INVALID_PLAN) for a NULL or destroyed handle and its INVALID_VALUE
 * (cuRAND: OUT_OF_RANGE) for an illegal argument, logging its position (1-based, the handle not
 * counted) and changing nothing.
 *   H##SetTarget(h, target) / H##GetTarget(h, &target)      emulated generation, cost-model target (TRN1)
 *   H##SetNumericsProfile(h, p) / H##GetNumericsProfile     docs/numerics.md (IDEAL)
 *   H##SetStochasticRounding(h, enable, seed) / Get...      SR of every rounding instruction, bits keyed by seed (off)
 *   H##SetNumCores(h, cores) / H##GetNumCores(h, &cores)    emulated NeuronCores, 1..64 (1)
 *   H##GetLastProfile(h, &profile)                          modeled cost of the last compute call
 *   H##GetLastErrorParameter(h, &position)                  position of the last illegal argument, 0: none
 *   L##LoggerConfigure(on, toStdout, toStderr, file)        cublasLoggerConfigure
 *   L##SetLoggerCallback(cb) / L##GetLoggerCallback(&cb)    cublasSet/GetLoggerCallback
 *   L##LoggerSetCallback(cb)                                cusparseLoggerSetCallback (level, function, message) */
#define TRN_EMULATION_API(H, L, Handle, Status)                                                  \
  Status H##SetTarget(Handle handle, trnTarget_t target);                                        \
  Status H##GetTarget(Handle handle, trnTarget_t* target);                                       \
  Status H##SetNumericsProfile(Handle handle, trnNumerics_t profile);                            \
  Status H##GetNumericsProfile(Handle handle, trnNumerics_t* profile);                           \
  Status H##SetStochasticRounding(Handle handle, int enable, unsigned long long seed);           \
  Status H##GetStochasticRounding(Handle handle, int* enable, unsigned long long* seed);         \
  Status H##SetNumCores(Handle handle, int cores);                                               \
  Status H##GetNumCores(Handle handle, int* cores);                                              \
  Status H##GetLastProfile(Handle handle, trnProfile_t* profile);                                \
  Status H##GetLastErrorParameter(Handle handle, int* position);                                 \
  Status L##LoggerConfigure(int logIsOn, int logToStdOut, int logToStdErr, const char* logFileName); \
  Status L##SetLoggerCallback(trnLogCallback_t callback);                                        \
  Status L##GetLoggerCallback(trnLogCallback_t* callback);                                       \
  Status L##LoggerSetCallback(trnLoggerCallback_t callback);

/* cudaDataType (library_types.h's spelling without _t), for code that writes it so. */
typedef trnDataType_t trnDataType;

/* library_types.h's libraryPropertyType: the argument of every library's GetProperty
 * (trnblasGetProperty, trnfftGetProperty ...). Its names carry no cu prefix, so a port keeps them as
 * written; skipped if CUDA's library_types.h was included first. */
#ifndef __LIBRARY_TYPES_H__
typedef enum libraryPropertyType_t { MAJOR_VERSION = 0, MINOR_VERSION = 1, PATCH_LEVEL = 2 } libraryPropertyType;
#ifndef __cplusplus
typedef enum libraryPropertyType_t libraryPropertyType_t;
#endif
#endif

/* Storage of cuda_fp16.h's __half and cuda_bf16.h's __nv_bfloat16 (a port writes trnHalf and
 * trnBfloat16): the 16 bits of an IEEE binary16 / bfloat16 value, as in the CUDA structs' __x.
 * In C++ trnHalf also has cuda_fp16.h's host conversions, so that `__half h = 1.0f;` and
 * `static_cast<float>(h)` port as written: constructors from float and double (rounded to nearest
 * even, as __half(float) / __double2half), a conversion to float (exact), a trivial default
 * constructor. The layout stays C's (one unsigned short; trivially copyable, standard layout): the
 * members exist only under __cplusplus. Unlike __half, trnHalf has no integer constructor: before
 * these conversions, C++ code wrote `trnHalf{bits}` for raw bits, and an integer constructor would
 * give that spelling the value `bits` silently; now it does not compile (float and double are
 * ambiguous), and raw bits are written `h.x = bits`. trnBfloat16 has cuda_bf16.h's host conversions
 * alike (__nv_bfloat16(float), __nv_bfloat16(double), operator float), with the same rules. */
typedef struct trnHalf {
  unsigned short x;
#ifdef __cplusplus
  trnHalf() = default;
  trnHalf(float f);
  trnHalf(double d);
  operator float() const;
#endif
} trnHalf;
typedef struct trnBfloat16 {
  unsigned short x;
#ifdef __cplusplus
  trnBfloat16() = default;
  trnBfloat16(float f);
  trnBfloat16(double d);
  operator float() const;
#endif
} trnBfloat16;

/* cuda_fp16.h's conversion functions, in C and C++ (the porting rule maps __float2half ->
 * trnFloat2Half, __float2half_rn -> trnFloat2Half_rn, __double2half -> trnDouble2Half,
 * __half2float -> trnHalf2Float). The library's own fp16 conversions (trn::f32_to_f16_rne,
 * trn::f16_to_f32, core/src/dtype.cpp) are these functions, so a port and the engines round alike.
 *   trnHalf2Float      exact (binary16 is a subset of binary32); NaN widened bit for bit (payload kept)
 *   trnFloat2Half(_rn) round to nearest even; overflow to +-inf; NaN: sign and the top 10 payload
 *                      bits kept, quiet bit set. Branch-light: the fp32 adder does the rounding
 *                      (M. Maratyszcza's FP16 library, fp16_ieee_from_fp32_value): scaling by 2^112
 *                      then 2^-110 pushes overflow to inf, adding a power of two aligned to the
 *                      binary16 quantum of |f| rounds to nearest even. Checked against Eigen::half for
 *                      every fp32 pattern (tests/core/test_dtype.cpp).
 *   trnDouble2Half     round to nearest even, once: the double is first rounded to fp32 by round-to-odd
 *                      (24 >= 11 + 2 significand bits, so the second rounding is exact-as-one; Boldo &
 *                      Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using
 *                      rounding to odd", IEEE TC 57(4), 2008), then trnFloat2Half_rn.
 * cuda_bf16.h's (__float2bfloat16 -> trnFloat2Bfloat16, __float2bfloat16_rn -> trnFloat2Bfloat16_rn,
 * __double2bfloat16 -> trnDouble2Bfloat16, __bfloat162float -> trnBfloat162Float); the engines' bf16
 * conversions (trn::f32_to_bf16_rne, trn::bf16_to_f32, trn/core/dtype.hpp) are these:
 *   trnBfloat162Float      exact (the 16 bits are fp32's top half); NaN widened bit for bit
 *   trnFloat2Bfloat16(_rn) round to nearest even (add 0x7fff plus the kept lsb, drop 16 bits; the
 *                          carry takes the largest finite values past the midpoint to inf); NaN: sign
 *                          and the top 7 payload bits kept, quiet bit set (never rounded to inf).
 *                          Branch-free, so row conversions vectorise. Checked against Eigen::bfloat16
 *                          for every fp32 pattern (tests/core/test_dtype.cpp).
 *   trnDouble2Bfloat16     round to nearest even, once: round-to-odd to fp32 (24 >= 8 + 2), then
 *                          trnFloat2Bfloat16_rn. */
static inline unsigned int trnDetailFloatBits(float f) {
  unsigned int u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static inline float trnDetailBitsFloat(unsigned int u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline float trnHalf2Float(trnHalf h) {
  const unsigned int sign = (unsigned int)(h.x & 0x8000u) << 16;
  const unsigned int em = h.x & 0x7fffu;
  unsigned int bits;
  if (em >= 0x7c00u)
    bits = 0x7f800000u | ((em & 0x3ffu) << 13); /* inf, NaN */
  else if (em >= 0x0400u)
    bits = (em << 13) + ((127u - 15u) << 23); /* normal: exponent rebiased */
  else
    bits = trnDetailFloatBits((float)em * trnDetailBitsFloat(0x33800000u)); /* subnormal: em * 2^-24, exact */
  return trnDetailBitsFloat(sign | bits);
}
static inline trnHalf trnFloat2Half_rn(float f) {
  const unsigned int w = trnDetailFloatBits(f);
  const unsigned int shl1_w = w + w;
  const unsigned int sign = (w & 0x80000000u) >> 16;
  unsigned int bias = shl1_w & 0xff000000u;
  float base;
  trnHalf h;
  if (shl1_w > 0xff000000u) { /* NaN */
    h.x = (unsigned short)(sign | 0x7e00u | ((w & 0x7fffffu) >> 13));
    return h;
  }
  /* |f| * 2^112 * 2^-110 (0x77800000, 0x08800000): inf where binary16 overflows, else 4|f| exactly */
  base = (trnDetailBitsFloat(w & 0x7fffffffu) * trnDetailBitsFloat(0x77800000u)) * trnDetailBitsFloat(0x08800000u);
  if (bias < 0x71000000u) bias = 0x71000000u; /* the subnormal quantum 2^-24 at least */
  base = trnDetailBitsFloat((bias >> 1) + 0x07800000u) + base;
  {
    const unsigned int bits = trnDetailFloatBits(base);
    h.x = (unsigned short)(sign | (((bits >> 13) & 0x7c00u) + (bits & 0x0fffu)));
  }
  return h;
}
static inline trnHalf trnFloat2Half(float f) { return trnFloat2Half_rn(f); }
/* d rounded to fp32 by round-to-odd (inexact: truncated, last bit set), so that a second rounding to a
 * format of at most 22 significand bits rounds as once. */
static inline float trnDetailDoubleToFloatOdd(double d) {
  float f = (float)d;
  if (d == d && (double)f != d) {
    unsigned int u = trnDetailFloatBits(f);
    if (d > 0 ? (double)f > d : (double)f < d) u -= 1u; /* rounded away from zero: one step back */
    f = trnDetailBitsFloat(u | 1u);
  }
  return f;
}
static inline trnHalf trnDouble2Half(double d) { return trnFloat2Half_rn(trnDetailDoubleToFloatOdd(d)); }

static inline float trnBfloat162Float(trnBfloat16 b) { return trnDetailBitsFloat((unsigned int)b.x << 16); }
static inline trnBfloat16 trnFloat2Bfloat16_rn(float f) {
  const unsigned int u = trnDetailFloatBits(f);
  const unsigned int rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  const unsigned int quiet_nan = (u >> 16) | 0x0040u;
  trnBfloat16 b;
  b.x = (unsigned short)((u & 0x7fffffffu) > 0x7f800000u ? quiet_nan : rounded);
  return b;
}
static inline trnBfloat16 trnFloat2Bfloat16(float f) { return trnFloat2Bfloat16_rn(f); }
static inline trnBfloat16 trnDouble2Bfloat16(double d) { return trnFloat2Bfloat16_rn(trnDetailDoubleToFloatOdd(d)); }

#ifdef __cplusplus
}
inline trnHalf::trnHalf(float f) : x(trnFloat2Half_rn(f).x) {}
inline trnHalf::trnHalf(double d) : x(trnDouble2Half(d).x) {}
inline trnHalf::operator float() const { return trnHalf2Float(*this); }
inline trnBfloat16::trnBfloat16(float f) : x(trnFloat2Bfloat16_rn(f).x) {}
inline trnBfloat16::trnBfloat16(double d) : x(trnDouble2Bfloat16(d).x) {}
inline trnBfloat16::operator float() const { return trnBfloat162Float(*this); }
#endif
#endif /* TRNCORE_H */
