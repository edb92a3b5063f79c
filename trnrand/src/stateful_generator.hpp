// The distributions of StatefulGenerator (trn/rand/stateful_generator.hpp), instantiated by each
// generator's source (xorwow.cpp, mrg32k3a.cpp).
#pragma once
#include <bit>
#include <string>

#include "trn/core/error.hpp"
#include "trn/rand/stateful_generator.hpp"
#include "trn/rand/transforms.hpp"

namespace trn::rand {

template <class Derived, class State>
void StatefulGenerator<Derived, State>::normal(std::span<float> out, float mean, float stddev) {
  const auto z = static_cast<Derived&>(*this).normal_pairs(out.size());
  for (std::size_t m = 0; m < z.size(); ++m) {
    out[2 * m] = normal_affine(z[m][0], mean, stddev);
    out[2 * m + 1] = normal_affine(z[m][1], mean, stddev);
  }
  this->record(kHostNormal, out);
}

template <class Derived, class State>
void StatefulGenerator<Derived, State>::log_normal(std::span<float> out, float mean, float stddev) {
  const auto z = static_cast<Derived&>(*this).normal_pairs(out.size());
  for (std::size_t m = 0; m < z.size(); ++m) {
    out[2 * m] = log_normal_from(z[m][0], mean, stddev);
    out[2 * m + 1] = log_normal_from(z[m][1], mean, stddev);
  }
  this->record(kHostLogNormal, out);
}

template <class Derived, class State>
void StatefulGenerator<Derived, State>::normal_double(std::span<double> out, double mean, double stddev) {
  const auto z = static_cast<Derived&>(*this).normal_pairs_double(out.size());
  for (std::size_t m = 0; m < z.size(); ++m) {
    out[2 * m] = normal_affine_double(z[m][0], mean, stddev);
    out[2 * m + 1] = normal_affine_double(z[m][1], mean, stddev);
  }
  this->record(kHostNormal, out);
}

template <class Derived, class State>
void StatefulGenerator<Derived, State>::log_normal_double(std::span<double> out, double mean, double stddev) {
  const auto z = static_cast<Derived&>(*this).normal_pairs_double(out.size());
  for (std::size_t m = 0; m < z.size(); ++m) {
    out[2 * m] = log_normal_from_double(z[m][0], mean, stddev);
    out[2 * m + 1] = log_normal_from_double(z[m][1], mean, stddev);
  }
  this->record(kHostLogNormal, out);
}

// cuRAND: lambda < 2000 samples its table from one word per slot, larger lambda rounds the carried
// normal of each slot.
template <class Derived, class State>
void StatefulGenerator<Derived, State>::poisson(std::span<std::uint32_t> out, double lambda) {
  if (!(lambda > 0.0) || !(lambda <= kCurandPoissonMaxLambda))
    throw UsageError(Derived::kWho, "lambda",
                     "poisson needs 0 < lambda <= 400000 (cuRAND's range), got " + std::to_string(lambda));
  if (lambda < kCurandPoissonNormalThreshold) {
    if (!table_ || table_->lambda != lambda) table_ = std::make_shared<const PoissonTable>(build_poisson_table(lambda));
    const auto v = static_cast<Derived&>(*this).poisson_words(out.size());
    for (std::size_t m = 0; m < out.size(); ++m) out[m] = table_->sample(v[m]);
    this->record(kHostPoisson, out);
    return;
  }
  const auto v = static_cast<Derived&>(*this).carried_normals(out.size());
  for (std::size_t m = 0; m < out.size(); ++m) out[m] = poisson_from_normal(std::bit_cast<float>(v[m]), lambda);
  this->record(kHostPoisson, out);  // the normals came from the kernel (GpSimdE); their rounding here
}

// Box-Muller outputs come in pairs (cuRAND's LENGTH_NOT_MULTIPLE for odd n).
inline void require_even_pairs(std::string_view who, std::size_t n) {
  if (n % 2 != 0)
    throw UsageError(who, "n", "Box-Muller outputs come in pairs: n = " + std::to_string(n) + " must be even");
}

}  // namespace trn::rand
