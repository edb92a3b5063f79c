// cuRAND's discrete distribution (curandDiscreteDistribution_t, curand_discrete.h /
// curand_discrete2.h): the object trnrandCreatePoissonDistribution returns and its sampler.
//
// cuRAND builds it on the host for its device API (curand_discrete(state, d) draws one value per
// 32-bit word) and its host generator's Poisson uses the same histogram. Two methods, as cuRAND's
// `method` field:
//  - lambda < 2000 (CURAND_M2): the square histogram of poisson.hpp (shift, length, V, K), sampled
//    from word x as _curand_M2_double with u = x 2^-32 + 2^-32 (PoissonTable::sample) — the values
//    trnrandGeneratePoisson gives for the same words;
//  - lambda >= 2000 (the normal approximation): (unsigned)(stddev * _curand_normal_icdf_double(x)
//    + mean + 0.5) with mean = lambda, stddev = sqrt(lambda) (clamped to [0, 2^32 - 1], where
//    cuRAND's cast would be undefined).
#pragma once
#include <cstdint>
#include <memory>

#include "trn/rand/poisson.hpp"

namespace trn::rand {

struct DiscreteDistribution {
  double lambda = 0;
  std::shared_ptr<const PoissonTable> table;  // lambda < kCurandPoissonNormalThreshold, else null
  double mean = 0, stddev = 0;                // the normal approximation (lambda >= 2000)
  bool histogram() const { return table != nullptr; }
};

// 0 < lambda <= kCurandPoissonMaxLambda (UsageError otherwise).
DiscreteDistribution make_poisson_distribution(double lambda);

// curand_discrete's value for the 32-bit word x.
std::uint32_t discrete_sample(const DiscreteDistribution& d, std::uint32_t x);

}  // namespace trn::rand

// The C handle (trnrand.h): one distribution.
struct trnrandDiscreteDistribution_st {
  trn::rand::DiscreteDistribution dist;
};
