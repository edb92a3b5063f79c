// SOBOL32 (= QUASI_DEFAULT) and SOBOL64: cuRAND's Sobol quasi-random generators, host and engine
// paths, bit-identical to libcurand's host generator for integer and uniform outputs
// (docs/trnrand.md sections 9 and 11).
//
// Direction vectors: Joe & Kuo's new-joe-kuo-6.21201 (S. Joe and F. Y. Kuo, "Constructing Sobol
// sequences with better two-dimensional projections", SIAM J. Sci. Comput. 30, 2635-2654, 2008;
// https://web.maths.unsw.edu.au/~fkuo/sobol/), the set cuRAND ships for its 20000 dimensions
// (CURAND_DIRECTION_VECTORS_32_JOEKUO6 / _64_JOEKUO6; identical for every dimension and bit,
// checked once against curandGetDirectionVectors32 / 64). For B-bit words (B = 32, 64) dimension 1
// is van der Corput's (V[b] = 2^(B-1-b)); dimension d >= 2 takes the primitive polynomial of
// degree s with interior coefficients a and initial numbers m_1 .. m_s: V[i] = m_{i+1} 2^(B-1-i)
// for i < s, then V[i] = V[i-s] ^ (V[i-s] >> s) ^ XOR_{k=1}^{s-1} a_k V[i-k] (Bratley & Fox, ACM
// TOMS 14, 1988). Point i of a dimension is the XOR of V[b] over the set bits b of its Gray code
// i ^ (i >> 1) (Antonov & Saleev), so consecutive points differ by one XOR with V[ctz(i)]; the
// index runs modulo 2^B (observed: point 2^B is point 0).
//
// Host ordering (observed on cuRAND 10.4): with D dimensions a call of n values (n a multiple of
// D) writes n / D consecutive points of dimension 1, then of dimension 2, ...; the offset counts
// points and advances by n / D. Conversions (CURAND: curand_uniform.h, curand_normal_static.h,
// curand_poisson.h): 32-bit words: uniform float(x) 2^-32 + 2^-33, uniform double x 2^-32 +
// 2^-32; normal and log-normal by the inverse CDF (_curand_normal_icdf: -sqrt 2 erfcinv(2 p),
// mirrored at 2^31). 64-bit words: the float outputs from the high 32 bits as above, the double
// outputs from the high 53 bits: uniform (x >> 11) 2^-53 + 2^-54, normal -sqrt 2 erfcinv(2 p) with
// p = (x >> 11) 2^-53 + 2^-54 mirrored at 2^52.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "trn/core/cost_model.hpp"
#include "trn/rand/kernels.hpp"
#include "trn/rand/poisson.hpp"

namespace trn::rand {

inline constexpr std::uint32_t kSobolMaxDimensions = 20000;  // cuRAND's
using SobolDirections32 = std::array<std::uint32_t, 32>;
using SobolDirections64 = std::array<std::uint64_t, 64>;

// Joe & Kuo's table for dimensions 2 .. 20000, packed by tools/trnrand/pack_joe_kuo.py
// (sobol_joe_kuo.cpp; null-terminated list of base64 lines).
extern const char* const kJoeKuoPackedBase64[];

// The 20000 direction-vector sets (built once from the packed Joe-Kuo table, sobol_joe_kuo.cpp).
const SobolDirections32* sobol_direction_vectors32();
const SobolDirections64* sobol_direction_vectors64();
// Point `index` of a dimension with direction vectors v (Gray-code order; index mod 2^32 / 2^64).
std::uint32_t sobol_point32(const SobolDirections32& v, std::uint64_t index);
std::uint64_t sobol_point64(const SobolDirections64& v, std::uint64_t index);

// cuRAND's quasi-random normal of a 32-bit point: s erfcinv(2 p) with p = x 2^-32 + 2^-33 in fp32
// (x mirrored above 2^31, s = -sqrt 2 as CURAND_SQRT2) and erfcinv evaluated to long-double
// accuracy, then rounded once to float (the _double variant in fp64 throughout).
float sobol_normal_icdf(std::uint32_t x);
double sobol_normal_icdf_double(std::uint32_t x);

// cuRAND's host Poisson of one 32-bit word for SOBOL32 and MTGP32 (observed on cuRAND 10.4): the
// square histogram (poisson.hpp) for lambda < table_below (SOBOL32 10, MTGP32 32), the inversion
// poisson_inversion_curand(x 2^-32 + 2^-32) up to kCurandPoissonInversionTo, above it the normal
// approximation (unsigned)(sqrt(lambda) z + lambda + 0.5) with the double inverse-CDF z of the word.
inline constexpr double kCurandPoissonInversionTo = 8000.0;
// cuRAND's device-API Poisson of one 32-bit word (_curand_poisson: the inversion of
// x 2^-32 + 2^-33 below lambda 1000, the normal approximation with the double inverse-CDF z from
// 1000): what libcurand's host MTGP32 and SOBOL32 generators give for
// GeneratePoissonMethod(CURAND_DEVICE_API) (observed).
std::uint32_t curand_device_poisson(std::uint32_t x, double lambda);
class WordPoisson {
 public:
  // cache: the generator's last table (rebuilt when lambda changes).
  WordPoisson(double lambda, double table_below, std::shared_ptr<const PoissonTable>& cache);
  std::uint32_t operator()(std::uint32_t x) const;

 private:
  double lambda_, root_;
  int method_;  // 0 histogram, 1 inversion, 2 normal approximation
  const PoissonTable* table_ = nullptr;
};
// The 64-bit word's double normal (_curand_normal_icdf_double(unsigned long long)): its high 53
// bits, p = (x >> 11) 2^-53 + 2^-54 mirrored above 2^52, erfcinv to long-double accuracy.
double sobol_normal_icdf_double64(std::uint64_t x);
// The 64-bit word's uniform double (_curand_uniform_double(unsigned long long)): high 53 bits.
constexpr double uniform_double_from_word64(std::uint64_t x) {
  return static_cast<double>(x >> 11) * 0x1p-53 + 0x1p-54;
}

// Engine path of one call (kernel "sobol_gray_xor"):
//   Layout: 32-bit words (bits = 32): one dimension per partition: programs of up to 128
//     dimensions load their direction vectors [128, 32] by DMA; 64-bit words (bits = 64): one
//     32-bit half per partition, programs of up to 64 dimensions with the low halves in partitions
//     0 .. 63 and the high halves in 64 .. 127 (GpSimdE's integers are 32 bits wide; the halves
//     of a Sobol word are independent XOR sequences of the halves of V), vectors [128, 64].
//     Per tile of F points the GpSimd custom operator starts each partition at its first point
//     (the Gray-code XOR of up to `bits` vectors) and steps with one XOR of V[ctz(i)] per point;
//     VectorE converts uniforms (of the high halves for 64-bit words); DMA writes the rows to
//     their dimension's block of `out` (dimension-major, as cuRAND; 64-bit: the two halves of each
//     little-endian word by two strided DMAs).
//   Accuracy: bit-identical to the host path. Sizes: any dimensions and points.
LaunchResult run_sobol_kernel(unsigned bits, std::uint32_t dimensions, std::uint64_t first_point, std::uint64_t points,
                              bool uniform, void* out, const EngineConfig& cfg);

// Word = std::uint32_t: SOBOL32; std::uint64_t: SOBOL64 (aliases below).
template <class Word>
class SobolGenerator {
 public:
  // engines = true: the points come from the sobol_gray_xor kernel (the "device" generator); the
  // transforms other than the float uniform run on the host side of the kernel.
  explicit SobolGenerator(bool engines = false, const EngineConfig& cfg = {}) : engines_(engines), cfg_(cfg) {}
  Profile last_profile() const;
  void set_engine_config(const EngineConfig& cfg) { cfg_ = cfg; }
  void set_dimensions(std::uint32_t dimensions);  // 1 .. kSobolMaxDimensions
  std::uint32_t dimensions() const { return dimensions_; }
  void set_offset(std::uint64_t offset) { offset_ = offset; }
  std::uint64_t offset() const { return offset_; }

  // n must be a multiple of dimensions() (the C API returns LENGTH_NOT_MULTIPLE otherwise).
  // generate: SOBOL32 only, generate_long_long: SOBOL64 only (UsageError otherwise; the C API
  // returns cuRAND's TYPE_ERROR).
  void generate(std::span<std::uint32_t> out);
  void generate_long_long(std::span<std::uint64_t> out);
  void uniform(std::span<float> out);
  void uniform_double(std::span<double> out);
  void normal(std::span<float> out, float mean, float stddev);
  void normal_double(std::span<double> out, double mean, double stddev);
  void log_normal(std::span<float> out, float mean, float stddev);
  void log_normal_double(std::span<double> out, double mean, double stddev);
  void poisson(std::span<std::uint32_t> out, double lambda);
  // GeneratePoissonMethod(CURAND_DEVICE_API): curand_device_poisson of each word (SOBOL32 only).
  void poisson_device_api(std::span<std::uint32_t> out, double lambda);

 private:
  static constexpr unsigned kBits = 8 * sizeof(Word);
  // out[d * points + j] = convert(point offset_ + j of dimension d); advances the offset.
  template <class T, class Convert>
  void fill(std::span<T> out, const HostTransform& step, Convert&& convert);  // kernel words, then step on the host
  void points_into(std::span<Word> x);  // the next x.size() / dimensions points' words

  std::uint32_t dimensions_ = 1;
  std::uint64_t offset_ = 0;
  std::shared_ptr<const PoissonTable> table_;
  bool engines_ = false;
  EngineConfig cfg_{};
  std::optional<Trace> last_trace_;
};

using Sobol32Generator = SobolGenerator<std::uint32_t>;
using Sobol64Generator = SobolGenerator<std::uint64_t>;
extern template class SobolGenerator<std::uint32_t>;
extern template class SobolGenerator<std::uint64_t>;

}  // namespace trn::rand
