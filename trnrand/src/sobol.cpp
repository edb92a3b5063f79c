// SOBOL32 / SOBOL64 host generators (trn/rand/sobol.hpp): Joe-Kuo direction vectors unpacked from
// sobol_joe_kuo.cpp, Gray-code points, cuRAND's dimension-major layout and conversions.
#include "trn/rand/sobol.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "trn/core/error.hpp"
#include "trn/rand/transforms.hpp"

namespace trn::rand {

namespace {

constexpr std::string_view kWho = "trn::rand::SobolGenerator";

std::vector<std::uint8_t> decode_base64() {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;  // '=' padding
  };
  std::vector<std::uint8_t> bytes;
  std::uint32_t acc = 0;
  int nbits = 0;
  for (const char* const* line = kJoeKuoPackedBase64; *line != nullptr; ++line)
    for (const char* c = *line; *c != '\0'; ++c) {
      const int v = value(*c);
      if (v < 0) continue;
      acc = (acc << 6) | static_cast<std::uint32_t>(v);
      nbits += 6;
      if (nbits >= 8) {
        nbits -= 8;
        bytes.push_back(static_cast<std::uint8_t>(acc >> nbits));
        acc &= (1u << nbits) - 1;
      }
    }
  return bytes;
}

// The stream format of tools/trnrand/pack_joe_kuo.py (LSB first).
struct BitReader {
  const std::vector<std::uint8_t>& bytes;
  std::size_t pos = 0;
  std::uint32_t get(unsigned width) {
    std::uint32_t v = 0;
    for (unsigned k = 0; k < width; ++k, ++pos) v |= ((bytes.at(pos / 8) >> (pos % 8)) & 1u) << k;
    return v;
  }
};

// Dims x B-bit direction vectors (Dirs = std::array<Word, B>) from the packed table.
template <class Dirs>
std::vector<Dirs> build_directions() {
  using Word = typename Dirs::value_type;
  constexpr unsigned kBits = std::tuple_size_v<Dirs>;
  std::vector<Dirs> dirs(kSobolMaxDimensions);
  for (unsigned b = 0; b < kBits; ++b) dirs[0][b] = Word{1} << (kBits - 1 - b);  // van der Corput
  const auto bytes = decode_base64();
  BitReader in{bytes};
  for (std::size_t d = 1; d < kSobolMaxDimensions; ++d) {
    const unsigned s = in.get(5);
    const std::uint32_t a = in.get(s - 1);
    auto& v = dirs[d];
    for (unsigned i = 0; i < s; ++i) v[i] = Word{2 * in.get(i) + 1} << (kBits - 1 - i);  // m_{i+1} 2^(B-1-i)
    for (unsigned i = s; i < kBits; ++i) {
      Word x = v[i - s] ^ (v[i - s] >> s);
      for (unsigned k = 1; k < s; ++k)
        if ((a >> (s - 1 - k)) & 1u) x ^= v[i - k];
      v[i] = x;
    }
  }
  return dirs;
}

// Starting point: P. J. Acklam's rational approximation of the inverse normal cdf (relative error
// below 1.2e-9; https://web.archive.org/web/20151030215612/http://home.online.no/~pjacklam/notes/invnorm/).
double inverse_normal_cdf_acklam(double p) {
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                 1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                 6.680131188771972e+01,  -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                 -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                 3.754408661907416e+00};
  if (p < 0.02425) {
    const double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p <= 0.97575) {
    const double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  const double q = std::sqrt(-2 * std::log1p(-p));
  return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
         ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
}

// erfcinv(y) for y in (0, 1], long double: erfcinv(y) = -Phi^-1(y / 2) / sqrt 2 from Acklam's
// approximation, then Newton steps on erfc in long double (quadratic convergence from 1e-9:
// two or three steps reach long-double accuracy).
long double erfcinv(long double y) {
  const long double kTwoOverSqrtPi = 1.12837916709551257389615890312154517L;
  long double t = -inverse_normal_cdf_acklam(static_cast<double>(y / 2)) / std::sqrt(2.0L);
  for (int it = 0; it < 8; ++it) {
    const long double step = (std::erfc(t) - y) / (kTwoOverSqrtPi * std::exp(-t * t));
    t += step;
    if (std::fabs(step) <= 4e-19L * std::fabs(t)) break;  // a few long-double ulp: converged
  }
  return t;
}

}  // namespace

const SobolDirections32* sobol_direction_vectors32() {
  static const std::vector<SobolDirections32> dirs = build_directions<SobolDirections32>();
  return dirs.data();
}
const SobolDirections64* sobol_direction_vectors64() {
  static const std::vector<SobolDirections64> dirs = build_directions<SobolDirections64>();
  return dirs.data();
}

std::uint32_t sobol_point32(const SobolDirections32& v, std::uint64_t index) {
  index &= 0xffffffffu;  // cuRAND's points repeat with period 2^32 (point 2^32 is point 0; observed)
  const std::uint64_t gray = index ^ (index >> 1);
  std::uint32_t x = 0;
  for (unsigned b = 0; b < 32; ++b)
    if ((gray >> b) & 1u) x ^= v[b];
  return x;
}
std::uint64_t sobol_point64(const SobolDirections64& v, std::uint64_t index) {
  const std::uint64_t gray = index ^ (index >> 1);  // period 2^64 (observed: 2^64 - 1, then point 0)
  std::uint64_t x = 0;
  for (unsigned b = 0; b < 64; ++b)
    if ((gray >> b) & 1u) x ^= v[b];
  return x;
}

float sobol_normal_icdf(std::uint32_t x) {
  float s = -1.4142135f;  // CURAND_SQRT2
  if (x > 0x80000000u) {
    x = 0xffffffffu - x;
    s = -s;
  }
  const float p = static_cast<float>(x) * 0x1p-32f + 0x1p-33f;
  return s * static_cast<float>(erfcinv(static_cast<long double>(2.0f * p)));
}

double sobol_normal_icdf_double(std::uint32_t x) {
  double s = -1.4142135623730951;  // CURAND_SQRT2_DOUBLE
  if (x > 0x80000000u) {
    x = 0xffffffffu - x;
    s = -s;
  }
  const double p = x * 0x1p-32 + 0x1p-33;
  return s * static_cast<double>(erfcinv(static_cast<long double>(2.0 * p)));
}

double sobol_normal_icdf_double64(std::uint64_t x) {
  double s = -1.4142135623730951;  // CURAND_SQRT2_DOUBLE
  x >>= 11;
  if (x > 0x10000000000000ull) {
    x = 0x1fffffffffffffull - x;
    s = -s;
  }
  const double p = static_cast<double>(x) * 0x1p-53 + 0x1p-54;
  return s * static_cast<double>(erfcinv(static_cast<long double>(2.0 * p)));
}

template <class Word>
void SobolGenerator<Word>::set_dimensions(std::uint32_t dimensions) {
  if (dimensions < 1 || dimensions > kSobolMaxDimensions)
    throw UsageError(kWho, "dimensions", "1 .. 20000, got " + std::to_string(dimensions));
  dimensions_ = dimensions;
}

namespace {
template <class Word>
const auto* direction_table() {
  if constexpr (sizeof(Word) == 4)
    return sobol_direction_vectors32();
  else
    return sobol_direction_vectors64();
}
template <class Word, class Dirs>
Word sobol_point(const Dirs& v, std::uint64_t index) {
  if constexpr (sizeof(Word) == 4)
    return sobol_point32(v, index);
  else
    return sobol_point64(v, index);
}

// Points first_point .. + points - 1 of dimensions [0, dims), dimension-major (the host path).
template <class Word>
void host_points(std::uint32_t dims, std::uint64_t first_point, std::size_t points, Word* out) {
  const auto* dirs = direction_table<Word>();
  for (std::size_t d = 0; d < dims && points > 0; ++d) {
    const auto& v = dirs[d];
    Word x = sobol_point<Word>(v, first_point);
    Word* dst = out + d * points;
    dst[0] = x;
    for (std::size_t j = 1; j < points; ++j) {
      // Gray code: point i differs from point i - 1 by V[ctz(i)]; point 2^B k is point 0.
      const auto i = static_cast<Word>(first_point + j);
      x = i == 0 ? Word{0} : x ^ v[static_cast<std::size_t>(std::countr_zero(i))];
      dst[j] = x;
    }
  }
}

// The high 32 bits of a 64-bit word (the float conversions of SOBOL64, _curand_uniform(unsigned long long)).
template <class Word>
std::uint32_t high32(Word x) {
  return static_cast<std::uint32_t>(x >> (8 * sizeof(Word) - 32));
}
}  // namespace

template <class Word>
Profile SobolGenerator<Word>::last_profile() const { return kernel_profile(last_trace_, cfg_.target); }

template <class Word>
void SobolGenerator<Word>::points_into(std::span<Word> x) {
  if (x.size() % dimensions_ != 0)
    throw UsageError(kWho, "n", "must be a multiple of the dimensions (" + std::to_string(dimensions_) + ")");
  const std::size_t points = x.size() / dimensions_;
  if (engines_ && points > 0) {
    last_trace_ = run_sobol_kernel(kBits, dimensions_, offset_, points, false, x.data(), cfg_).trace;
  } else {
    host_points<Word>(dimensions_, offset_, points, x.data());
    last_trace_.reset();
  }
  offset_ += points;
}

template <class Word>
template <class T, class Convert>
void SobolGenerator<Word>::fill(std::span<T> out, const HostTransform& step, Convert&& convert) {
  std::vector<Word> x(out.size());
  points_into(x);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = convert(x[i]);
  record_transform(last_trace_, step, HostSpan(x.data(), static_cast<std::int64_t>(x.size())),
                   HostSpan(out.data(), static_cast<std::int64_t>(out.size())), out.size());
}

template <class Word>
void SobolGenerator<Word>::generate(std::span<std::uint32_t> out) {
  if constexpr (sizeof(Word) == 4)
    points_into(out);  // the kernel's words straight into out
  else
    throw UsageError(kWho, "generate", "SOBOL64 gives 64-bit words (generate_long_long; cuRAND: TYPE_ERROR)");
}
template <class Word>
void SobolGenerator<Word>::generate_long_long(std::span<std::uint64_t> out) {
  if constexpr (sizeof(Word) == 8)
    points_into(out);
  else
    throw UsageError(kWho, "generate_long_long", "SOBOL32 gives 32-bit words (generate; cuRAND: TYPE_ERROR)");
}
template <class Word>
void SobolGenerator<Word>::uniform(std::span<float> out) {
  if (!engines_ || out.size() % dimensions_ != 0 || out.empty())
    return fill(out, kHostUniform, [](Word x) { return uniform_from_word(high32(x)); });
  const std::size_t points = out.size() / dimensions_;  // VectorE converts on the engine path
  last_trace_ = run_sobol_kernel(kBits, dimensions_, offset_, points, true, out.data(), cfg_).trace;
  offset_ += points;
}
template <class Word>
void SobolGenerator<Word>::uniform_double(std::span<double> out) {
  if constexpr (sizeof(Word) == 4)
    fill(out, kHostUniformDouble, uniform_double_from_word);  // x 2^-32 + 2^-32 (observed; not the float's 2^-33)
  else
    fill(out, kHostUniformDouble, uniform_double_from_word64);
}
namespace {
template <class Word>
double icdf_double(Word x) {
  if constexpr (sizeof(Word) == 4)
    return sobol_normal_icdf_double(x);
  else
    return sobol_normal_icdf_double64(x);
}
}  // namespace
template <class Word>
void SobolGenerator<Word>::normal(std::span<float> out, float mean, float stddev) {
  fill(out, kHostNormal, [&](Word x) { return normal_affine(sobol_normal_icdf(high32(x)), mean, stddev); });
}
template <class Word>
void SobolGenerator<Word>::normal_double(std::span<double> out, double mean, double stddev) {
  fill(out, kHostNormal, [&](Word x) { return normal_affine_double(icdf_double(x), mean, stddev); });
}
template <class Word>
void SobolGenerator<Word>::log_normal(std::span<float> out, float mean, float stddev) {
  fill(out, kHostLogNormal, [&](Word x) { return log_normal_from(sobol_normal_icdf(high32(x)), mean, stddev); });
}
template <class Word>
void SobolGenerator<Word>::log_normal_double(std::span<double> out, double mean, double stddev) {
  fill(out, kHostLogNormal, [&](Word x) { return log_normal_from_double(icdf_double(x), mean, stddev); });
}
template <class Word>
void SobolGenerator<Word>::poisson_device_api(std::span<std::uint32_t> out, double lambda) {
  if constexpr (sizeof(Word) == 8)
    throw UsageError(kWho, "method", "the device-API Poisson is reproduced for SOBOL32 only");
  else
    fill(out, kHostPoisson, [&](std::uint32_t x) { return curand_device_poisson(x, lambda); });
}

template <class Word>
void SobolGenerator<Word>::poisson(std::span<std::uint32_t> out, double lambda) {
  if (!(lambda > 0.0) || !(lambda <= kCurandPoissonMaxLambda))
    throw UsageError(kWho, "lambda",
                     "poisson needs 0 < lambda <= 400000 (cuRAND's range), got " + std::to_string(lambda));
  if constexpr (sizeof(Word) == 8) {
    // SOBOL64 (observed on cuRAND 10.4): the inversion for every lambda, from the high 53 bits
    // (_curand_uniform_double_excluding_one(unsigned long long): (x >> 11) 2^-53 + 2^-55); the
    // outputs are monotone in the point, unlike the square histogram's.
    fill(out, kHostPoisson, [&](std::uint64_t x) {
      return poisson_inversion_curand(static_cast<double>(x >> 11) * 0x1p-53 + 0x1p-55, lambda);
    });
  } else {
    // SOBOL32 (observed on cuRAND 10.4): histogram below 10, inversion to 8000, normal above.
    const WordPoisson sample(lambda, 10.0, table_);
    fill(out, kHostPoisson, [&](std::uint32_t x) { return sample(x); });
  }
}

WordPoisson::WordPoisson(double lambda, double table_below, std::shared_ptr<const PoissonTable>& cache)
    : lambda_(lambda), root_(std::sqrt(lambda)) {
  method_ = lambda < table_below ? 0 : lambda <= kCurandPoissonInversionTo ? 1 : 2;
  if (method_ == 0) {
    if (!cache || cache->lambda != lambda) cache = std::make_shared<const PoissonTable>(build_poisson_table(lambda));
    table_ = cache.get();
  }
}

std::uint32_t curand_device_poisson(std::uint32_t x, double lambda) {
  if (lambda < 1000.0) return poisson_inversion_curand(static_cast<double>(x) * 0x1p-32 + 0x1p-33, lambda);
  const double v = std::sqrt(lambda) * sobol_normal_icdf_double(x) + lambda + 0.5;
  return v >= 4294967296.0 ? 0xffffffffu : v > 0.0 ? static_cast<std::uint32_t>(v) : 0u;
}

std::uint32_t WordPoisson::operator()(std::uint32_t x) const {
  if (method_ == 0) return table_->sample(x);
  if (method_ == 1) return poisson_inversion_curand(static_cast<double>(x) * 0x1p-32 + 0x1p-32, lambda_);
  const double v = root_ * sobol_normal_icdf_double(x) + lambda_ + 0.5;  // > 0: z >= -6.7, lambda > 8000
  return v >= 4294967296.0 ? 0xffffffffu : static_cast<std::uint32_t>(v);
}

template class SobolGenerator<std::uint32_t>;
template class SobolGenerator<std::uint64_t>;

}  // namespace trn::rand
