// Word -> value transforms, written as the exact operation sequences that the tile kernels run on
// the emulated engines (trnrand/src/kernels.cpp), so the host path and the device-style API give
// the same bits as the kernels. Formulas: cuRAND's curand_uniform.h / curand_normal.h (cuRAND docs,
// docs/references.md). Semantics of each engine step: docs/numerics.md 5.
//
// fp32 transforms (affine steps on VectorE or ScalarE - the same two fp32 roundings either way -,
// functions on ScalarE):
//  - uniform:  u = float(x) * 2^-32 + 2^-33 (RNE conversion, exact product, one rounding). Range
//    (0, 1]; identical to cuRAND (its CURAND_2POW32_INV = 2.3283064e-10f is exactly 2^-32).
//  - Box–Muller: u as above, v = float(y) * c + c/2 with c = 2^-32 * fp32(2 pi) (cuRAND's
//    CURAND_2POW32_INV_2PI), s = sqrt(-2 log u), results (sin(v) s, cos(v) s). On the engines log,
//    sqrt and sin are ScalarE activations (libm in double, rounded once to fp32). ScalarE sin is
//    valid on [-pi, pi] only and there is no cos, so VectorE reduces the arguments with two-part
//    constants (hi + lo, hi = fp32(c), lo = fp32(c - hi)), each first step exact by Sterbenz:
//      sin(v) = sin(v)                                  v <= pi_hi
//             = sin((pi_hi - v) + pi_lo)                pi_hi < v <= 3pi/2_hi
//             = sin((v - 2pi_hi) - 2pi_lo)              v > 3pi/2_hi
//      cos(v) = sin((pi/2_hi - v) + pi/2_lo)            v <= pi_hi
//             = sin((v - 3pi/2_hi) - 3pi/2_lo)          v > pi_hi
//    The reduced argument is rounded to fp32 once, so these values differ from glibc's sinf/cosf
//    (what cuRAND's host generator calls) by up to a few ulp; docs/trnrand.md gives the measured
//    distances.
// fp64 transforms (no NeuronCore engine computes in fp64: they run on the host side of a kernel,
// from words made by the GpSimd operator), exactly cuRAND's formulas in double:
//  - uniform_double_hq: z = x ^ (y << 21) (53 bits), z * 2^-53 + 2^-54.
//  - box_muller_f64: u = hq(x0, x1), v = (y0 ^ (y1 << 21)) * 2^-52 + 2^-53, s = sqrt(-2 log u),
//    (sin(v pi) s, cos(v pi) s).
#pragma once
#include <array>
#include <cstdint>

namespace trn::rand {

struct BoxMullerConstants {
  static constexpr float kTwoPow32Inv = 0x1p-32f;        // CURAND_2POW32_INV
  static constexpr float kAngleScale = 0x1.921fb6p-30f;  // CURAND_2POW32_INV_2PI = 2^-32 * fp32(2 pi)
  // Two-part constants: hi = fp32(c), lo = fp32(c - hi).
  static constexpr float kPiHi = 0x1.921fb6p+1f, kPiLo = -0x1.777a5cp-24f;
  static constexpr float kTwoPiHi = 0x1.921fb6p+2f, kTwoPiLo = -0x1.777a5cp-23f;
  static constexpr float kHalfPiHi = 0x1.921fb6p+0f, kHalfPiLo = -0x1.777a5cp-25f;
  static constexpr float kThreeHalfPiHi = 0x1.2d97c8p+2f, kThreeHalfPiLo = -0x1.99bc5cp-27f;
  static constexpr double kPiDouble = 3.1415926535897932;  // CURAND_PI_DOUBLE
  static constexpr float kTwoPi = 6.2831855f;              // CURAND_2PI = fp32(2 pi)
};

// cuRAND float uniform in (0, 1]: 0 -> 2^-33, 0xffffffff -> 1.0f. (The product is exact, so the
// value is the same with or without a fused multiply-add.)
constexpr float uniform_from_word(std::uint32_t x) {
  return static_cast<float>(x) * BoxMullerConstants::kTwoPow32Inv + 0x1p-33f;
}
// cuRAND device curand_uniform_double (one word): x * 2^-32 + 2^-32 in double, (0, 1].
constexpr double uniform_double_from_word(std::uint32_t x) { return x * 0x1p-32 + 0x1p-32; }
// cuRAND's 53-bit double uniform from two words (_curand_uniform_double_hq), (0, 1).
constexpr double uniform_double_hq(std::uint32_t x, std::uint32_t y) {
  const std::uint64_t z = std::uint64_t{x} ^ (std::uint64_t{y} << 21);
  return static_cast<double>(z) * 0x1p-53 + 0x1p-54;
}

// Box–Muller pair (sin component, cos component) of words (x, y), unscaled (mean 0, stddev 1),
// with the operation sequence of the engine kernel (see the header comment).
std::array<float, 2> box_muller_f32(std::uint32_t x, std::uint32_t y);
// The same pair as cuRAND's host generator computes it (glibc's logf, sqrtf, sinf and cosf on the
// fp32 u and v above; bit-identical to libcurand's host normals on 2^22 values): what the Poisson
// normal approximation rounds (an ulp of z moves sqrt(lambda) z + lambda across an integer now
// and then), computed on the host side of the words kernel.
std::array<float, 2> box_muller_curand_host_f32(std::uint32_t x, std::uint32_t y);
// The glibc pair from a float uniform u in (0, 1] and an angle v (cuRAND's curand_box_muller_mrg:
// u and v = uniform * 2 pi of MRG32K3A); box_muller_curand_host_f32 is this with XORWOW / Philox's
// u and v. XORWOW's and MRG32K3A's Poisson normals (their GpSimd slot operators) use it too.
std::array<float, 2> box_muller_curand_host_from_uniform_f32(float u, float v);
// The reduced ScalarE arguments of sin(v) and cos(v) for v in (0, 2 pi] (exposed for tests).
float sin_argument(float v);
float cos_argument(float v);
// The same pair from a uniform u in (0, 1] and an angle v in (0, 2 pi] already made (cuRAND's
// curand_box_muller_mrg: u, v = uniform * fp32(2 pi) from two MRG32k3a float uniforms).
std::array<float, 2> box_muller_from_uniform_f32(float u, float v);
// Box–Muller in double from four words (cuRAND's _curand_box_muller_double).
std::array<double, 2> box_muller_f64(std::uint32_t x0, std::uint32_t x1, std::uint32_t y0, std::uint32_t y1);
// The same from a uniform u in (0, 1] and an angle in half turns (sin(half_turns pi) s, ...).
std::array<double, 2> box_muller_from_uniform_f64(double u, double half_turns);

// Affine and exponential steps as the engines do them: z * stddev + mean with two fp32 roundings
// (VectorE tensor_scalar; ScalarE's pre-activation for log-normal), then exp in double rounded
// once (ScalarE). Double versions: plain double arithmetic, no fused multiply-add.
float normal_affine(float z, float mean, float stddev);
float log_normal_from(float z, float mean, float stddev);
double normal_affine_double(double z, double mean, double stddev);
double log_normal_from_double(double z, double mean, double stddev);

// Exponential with rate lambda from a uniform u in (0, 1]: (0 - log u) / lambda, log on ScalarE,
// subtract and divide on VectorE (one fp32 rounding each); u = 1 gives +0.
float exponential_from_uniform(float u, float lambda);
double exponential_from_uniform_double(double u, double lambda);

// cuRAND's normal approximation of Poisson(lambda) for large lambda (docs/trnrand.md section 5;
// observed for lambda >= 2000 on the host generator): (unsigned)(sqrt(lambda) * z + lambda + 0.5) in double,
// z the float normal of the same position.
std::uint32_t poisson_from_normal(float z, double lambda);

// Integer in [0, range) without modulo bias (range 1 .. 2^32), Lemire's multiply-shift ("Fast random
// integer generation in an interval", ACM TOMS 29(1), 2019): m = word * range; l = lo32(m); accept
// unless l < (2^32 - range) mod range, in which case the next word comes from the position's
// substream (streams.hpp, tag "UNIT"), until accepted; the result is hi32(m). Powers of two never
// reject (the result is the top bits of the word).
std::uint32_t uniform_int_sample(std::uint64_t seed, std::uint64_t position, std::uint32_t word, std::uint64_t range);

}  // namespace trn::rand
