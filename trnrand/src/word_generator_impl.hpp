// WordGenerator's definitions (trn/rand/word_generator.hpp), included by mt19937.cpp and mtgp32.cpp,
// each of which instantiates it for its generator.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "trn/rand/sobol.hpp"
#include "trn/rand/transforms.hpp"
#include "trn/rand/word_generator.hpp"

namespace trn::rand {

template <class Derived>
template <class T, class Convert>
void WordGenerator<Derived>::fill(std::span<T> out, const HostTransform& step, Convert&& convert) {
  auto& self = static_cast<Derived&>(*this);
  std::vector<std::uint32_t> x(out.size());
  self.words(x.data(), x.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = convert(x[i]);
  record_transform(self.last_trace_, step, HostSpan(x.data(), static_cast<std::int64_t>(x.size())),
                   HostSpan(out.data(), static_cast<std::int64_t>(out.size())), out.size());
}

template <class Derived>
void WordGenerator<Derived>::generate(std::span<std::uint32_t> out) {
  static_cast<Derived&>(*this).words(out.data(), out.size());
}
template <class Derived>
void WordGenerator<Derived>::normal(std::span<float> out, float mean, float stddev) {
  fill(out, kHostNormal, [&](std::uint32_t x) { return normal_affine(sobol_normal_icdf(x), mean, stddev); });
}
template <class Derived>
void WordGenerator<Derived>::log_normal(std::span<float> out, float mean, float stddev) {
  fill(out, kHostLogNormal, [&](std::uint32_t x) { return log_normal_from(sobol_normal_icdf(x), mean, stddev); });
}
template <class Derived>
void WordGenerator<Derived>::log_normal_double(std::span<double> out, double mean, double stddev) {
  fill(out, kHostLogNormal, [&](std::uint32_t x) { return log_normal_from_double(sobol_normal_icdf_double(x), mean, stddev); });
}

}  // namespace trn::rand
