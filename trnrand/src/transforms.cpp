// Scalar models of the kernels' transforms (trn/rand/transforms.hpp). Compiled with
// -ffp-contract=off: every fp32 step below is one rounding, as on VectorE.
#include "trn/rand/transforms.hpp"

#include <cmath>

#include "trn/rand/streams.hpp"

namespace trn::rand {

namespace {

using K = BoxMullerConstants;

// ScalarE activation f(x * scale + bias): the affine part in fp32 (two roundings), the function
// in double, rounded once (docs/numerics.md 5, "Activation details").
inline float scalar_log(float x) { return static_cast<float>(std::log(static_cast<double>(x * 1.0f + 0.0f))); }
inline float scalar_sqrt_scaled(float x, float scale) {
  return static_cast<float>(std::sqrt(static_cast<double>(x * scale + 0.0f)));
}
inline float scalar_sin(float x) { return static_cast<float>(std::sin(static_cast<double>(x * 1.0f + 0.0f))); }
inline float scalar_exp(float x, float scale, float bias) {
  return static_cast<float>(std::exp(static_cast<double>(x * scale + bias)));
}

}  // namespace

float sin_argument(float v) {
  if (v <= K::kPiHi) return v;
  if (v <= K::kThreeHalfPiHi) return (K::kPiHi - v) + K::kPiLo;  // pi_hi - v is exact (Sterbenz)
  return (v - K::kTwoPiHi) - K::kTwoPiLo;                        // v - 2pi_hi is exact
}

float cos_argument(float v) {
  if (v <= K::kPiHi) return (K::kHalfPiHi - v) + K::kHalfPiLo;  // exact first step for v >= pi/4
  return (v - K::kThreeHalfPiHi) - K::kThreeHalfPiLo;           // exact first step
}

std::array<float, 2> box_muller_from_uniform_f32(float u, float v) {
  const float s = scalar_sqrt_scaled(scalar_log(u), -2.0f);
  return {scalar_sin(sin_argument(v)) * s, scalar_sin(cos_argument(v)) * s};
}

std::array<float, 2> box_muller_f32(std::uint32_t x, std::uint32_t y) {
  const float v = static_cast<float>(y) * K::kAngleScale + K::kAngleScale / 2;
  return box_muller_from_uniform_f32(uniform_from_word(x), v);
}

std::array<double, 2> box_muller_from_uniform_f64(double u, double half_turns) {
  const double s = std::sqrt(-2.0 * std::log(u));
  const double angle = half_turns * K::kPiDouble;
  return {std::sin(angle) * s, std::cos(angle) * s};
}

std::array<double, 2> box_muller_f64(std::uint32_t x0, std::uint32_t x1, std::uint32_t y0, std::uint32_t y1) {
  const std::uint64_t zy = std::uint64_t{y0} ^ (std::uint64_t{y1} << 21);
  return box_muller_from_uniform_f64(uniform_double_hq(x0, x1), static_cast<double>(zy) * 0x1p-52 + 0x1p-53);
}

float normal_affine(float z, float mean, float stddev) { return z * stddev + mean; }
float log_normal_from(float z, float mean, float stddev) { return scalar_exp(z, stddev, mean); }
double normal_affine_double(double z, double mean, double stddev) { return z * stddev + mean; }
double log_normal_from_double(double z, double mean, double stddev) { return std::exp(z * stddev + mean); }

std::array<float, 2> box_muller_curand_host_f32(std::uint32_t x, std::uint32_t y) {
  using K = BoxMullerConstants;
  const float v = static_cast<float>(y) * K::kAngleScale + K::kAngleScale / 2;
  return box_muller_curand_host_from_uniform_f32(uniform_from_word(x), v);
}

std::array<float, 2> box_muller_curand_host_from_uniform_f32(float u, float v) {
  const float s = std::sqrt(-2.0f * std::log(u));  // logf, sqrtf
  return {std::sin(v) * s, std::cos(v) * s};       // sinf, cosf
}

float exponential_from_uniform(float u, float lambda) { return (0.0f - scalar_log(u)) / lambda; }
double exponential_from_uniform_double(double u, double lambda) { return (0.0 - std::log(u)) / lambda; }

std::uint32_t poisson_from_normal(float z, double lambda) {
  const double x = std::sqrt(lambda) * static_cast<double>(z) + lambda + 0.5;
  // |z| <= sqrt(-2 log 2^-33) < 6.8, so x > 0 for lambda >= 2000 (cuRAND's range); clamp for safety.
  if (!(x > 0.0)) return 0;
  if (x >= 4294967296.0) return 0xffffffffu;
  return static_cast<std::uint32_t>(x);
}

std::uint32_t uniform_int_sample(std::uint64_t seed, std::uint64_t position, std::uint32_t word, std::uint64_t range) {
  if (range >= (std::uint64_t{1} << 32)) return word;
  const auto r = static_cast<std::uint32_t>(range);
  std::uint64_t m = std::uint64_t{word} * r;
  auto low = static_cast<std::uint32_t>(m);
  if (low < r) {
    const std::uint32_t reject_below = (0u - r) % r;  // (2^32 - range) mod range
    for (std::uint32_t j = 0; low < reject_below; ++j) {
      const std::uint32_t w = substream_block(seed, kSubstreamTagUniformInt, position, j / 4)[j % 4];
      m = std::uint64_t{w} * r;
      low = static_cast<std::uint32_t>(m);
    }
  }
  return static_cast<std::uint32_t>(m >> 32);
}

}  // namespace trn::rand
