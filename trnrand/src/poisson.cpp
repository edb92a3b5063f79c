// Poisson samplers: cuRAND's square-histogram table and the exact PTRS / inversion sampler
// (trn/rand/poisson.hpp); cuRAND's discrete distribution object (trn/rand/discrete.hpp).
#include "trn/rand/poisson.hpp"

#include <cmath>
#include <limits>

#include "trn/core/error.hpp"
#include "trn/rand/discrete.hpp"
#include "trn/rand/sobol.hpp"
#include "trn/rand/streams.hpp"
#include "trn/rand/transforms.hpp"

namespace trn::rand {

namespace {

// lgamma without glibc's global signgam (lgamma itself races when called from several threads).
double log_gamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}

// pmf(k) = exp(k log(lambda) - lambda - lgamma(k + 1)), the form whose nonzero support reproduces
// cuRAND's table length and shift for every lambda tried (e.g. 0.5 -> [0, 157), 1000 ->
// [71, 2445), 1999 -> [549, 3952)).
double poisson_pmf(double lambda, double log_lambda, std::uint32_t k) {
  const double kd = static_cast<double>(k);
  return std::exp(kd * log_lambda - lambda - log_gamma(kd + 1.0));
}

}  // namespace

PoissonTable build_poisson_table(double lambda) {
  if (!(lambda > 0.0) || !(lambda < kCurandPoissonNormalThreshold))
    throw UsageError("build_poisson_table", "lambda", "the histogram method covers 0 < lambda < 2000");
  PoissonTable t;
  t.lambda = lambda;
  const double log_lambda = std::log(lambda);
  // Support: every k with a nonzero double pmf. Past the mode the pmf decreases, so stop at the
  // first zero after it.
  std::int64_t first = -1, last = -1;
  for (std::uint32_t k = 0;; ++k) {
    const double p = poisson_pmf(lambda, log_lambda, k);
    if (p > 0.0) {
      if (first < 0) first = k;
      last = k;
    } else if (first >= 0 || static_cast<double>(k) > lambda) {
      break;
    }
  }
  const std::uint32_t n = static_cast<std::uint32_t>(last - first + 1);
  t.shift = static_cast<std::uint32_t>(first);
  t.length = n;
  std::vector<double> q(n);
  for (std::uint32_t i = 0; i < n; ++i) q[i] = poisson_pmf(lambda, log_lambda, t.shift + i);

  // Square histogram. Every bucket has width b = 1/n. Buckets are poor (q < b) or rich. The
  // donor is always the richest-indexed rich bucket still rich (a stack of rich indices in
  // increasing order); poor buckets are filled in passes over increasing index, and a donor that
  // drops below b becomes poor and is filled in a later pass. This pass structure is what
  // reproduces cuRAND's aliases (docs/trnrand.md 5).
  const double b = 1.0 / static_cast<double>(n);
  t.threshold.resize(n);
  t.alias.resize(n);
  std::vector<std::uint32_t> rich;
  std::vector<char> done(n, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    t.alias[i] = i;
    t.threshold[i] = static_cast<double>(i + 1) * b;
    if (!(q[i] < b)) rich.push_back(i);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (done[i] || !(q[i] < b)) continue;
      while (!rich.empty() && q[rich.back()] < b) rich.pop_back();
      if (rich.empty()) break;
      const std::uint32_t g = rich.back();
      t.alias[i] = g;
      t.threshold[i] = static_cast<double>(i) * b + q[i];
      done[i] = 1;
      changed = true;
      q[g] = q[g] - (b - q[i]);
    }
  }
  t.keep_below.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    // V[j] 2^32 is exact (a power-of-two scaling) and at most 2^32 (1 + 2^-52).
    const double limit = std::ceil(t.threshold[i] * 0x1p32) - 1.0;
    t.keep_below[i] = limit >= 4294967295.0 ? 0xffffffffu : static_cast<std::uint32_t>(limit);
  }
  return t;
}

namespace {

// Inversion by sequential search (lambda < kPtrsMinLambda): one 53-bit uniform.
std::uint32_t poisson_inversion(double lambda, double u) {
  std::uint32_t k = 0;
  double p = std::exp(-lambda), cdf = p;
  // The loop ends once cdf >= u; the guard covers a cdf whose rounded limit stays below u.
  while (u > cdf && p > 0.0 && k < 1000) {
    ++k;
    p *= lambda / static_cast<double>(k);
    cdf += p;
  }
  return k;
}

}  // namespace

std::uint32_t poisson_exact_sample(std::uint64_t seed, std::uint64_t position, double lambda, int* blocks_used) {
  if (lambda < kPtrsMinLambda) {
    const auto w = substream_block(seed, kSubstreamTagPoisson, position, 0);
    if (blocks_used != nullptr) *blocks_used = 1;
    return poisson_inversion(lambda, uniform_double_hq(w[0], w[1]));
  }
  // PTRS (Hormann 1993): transformed rejection with squeeze; a, b, inv_alpha and v_r are the
  // constants of the paper as functions of sqrt(lambda).
  const double slam = std::sqrt(lambda), log_lambda = std::log(lambda);
  const double b = 0.931 + 2.53 * slam;
  const double a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
  const double v_r = 0.9277 - 3.6224 / (b - 2.0);
  const double log_inv_alpha = std::log(inv_alpha);
  for (std::uint32_t j = 0;; ++j) {
    const auto w = substream_block(seed, kSubstreamTagPoisson, position, j);
    const double U = uniform_double_hq(w[0], w[1]) - 0.5;
    const double V = uniform_double_hq(w[2], w[3]);
    const double us = 0.5 - std::fabs(U);
    const double k = std::floor((2.0 * a / us + b) * U + lambda + 0.43);
    if (us >= 0.07 && V <= v_r) {
      if (blocks_used != nullptr) *blocks_used = static_cast<int>(j + 1);
      return static_cast<std::uint32_t>(k);
    }
    if (k < 0.0 || (us < 0.013 && V > us)) continue;
    if (std::log(V) + log_inv_alpha - std::log(a / (us * us) + b) <= -lambda + k * log_lambda - log_gamma(k + 1.0)) {
      if (blocks_used != nullptr) *blocks_used = static_cast<int>(j + 1);
      return static_cast<std::uint32_t>(k);
    }
  }
}

std::uint32_t poisson_exact_sample(std::uint64_t seed, std::uint64_t position, double lambda) {
  return poisson_exact_sample(seed, position, lambda, nullptr);
}

}  // namespace trn::rand

namespace trn::rand {

std::uint32_t poisson_inversion_curand(double u, double lambda) {
  constexpr double kChunk = 500.0;  // exp(-500) is a normal double
  double p = 1.0, q = 1.0;
  std::uint32_t k = 0;
  int pow = 0;
  do {
    const double L = lambda > pow + kChunk ? std::exp(-kChunk) : std::exp(pow - lambda);
    p *= L;
    q *= L;
    pow += static_cast<int>(kChunk);
    while (u > q) {
      ++k;
      p *= lambda / k;
      q += p;
    }
  } while (pow < lambda);
  return k;
}

}  // namespace trn::rand

// ---- cuRAND's discrete distribution (trn/rand/discrete.hpp) ----------------------------------------

namespace trn::rand {

DiscreteDistribution make_poisson_distribution(double lambda) {
  if (!(lambda > 0.0) || !(lambda <= kCurandPoissonMaxLambda))
    throw UsageError("make_poisson_distribution", "lambda", "needs 0 < lambda <= 400000 (cuRAND's range)");
  DiscreteDistribution d;
  d.lambda = lambda;
  d.mean = lambda;
  d.stddev = std::sqrt(lambda);
  if (lambda < kCurandPoissonNormalThreshold) d.table = std::make_shared<const PoissonTable>(build_poisson_table(lambda));
  return d;
}

std::uint32_t discrete_sample(const DiscreteDistribution& d, std::uint32_t x) {
  if (d.table) return d.table->sample(x);
  const double v = d.stddev * sobol_normal_icdf_double(x) + d.mean + 0.5;
  return v >= 4294967296.0 ? 0xffffffffu : v > 0.0 ? static_cast<std::uint32_t>(v) : 0u;
}

}  // namespace trn::rand
