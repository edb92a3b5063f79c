// Poisson samplers.
//
// cuRAND-compatible (trnrandGeneratePoisson). cuRAND's host generator (10.4.0, observed on
// reference vectors: docs/trnrand.md 5) uses two methods, one 32-bit word per output position n
// (the word of Generate at n):
//  - lambda < 2000: a square histogram (Marsaglia, Tsang & Wang, "Fast generation of discrete
//    random variables", J. Stat. Softw. 11(3), 2004), sampled with u = x * 2^-32 + 2^-32:
//    j = floor(len u); result = shift + (u < V[j] ? j : K[j]). The table covers every k whose pmf
//    exp(k log lambda - lambda - lgamma(k + 1)) is a nonzero double (shift = the first such k,
//    len = their count); the alias table is built by the pass structure in build_poisson_table
//    (reconstructed from the sampled outputs: bit-identical on millions of samples for every
//    lambda tried).
//  - lambda >= 2000: the normal approximation (unsigned)(sqrt(lambda) z + lambda + 0.5) with z
//    the float normal of position n (transforms.hpp poisson_from_normal).
// The histogram lookup is pure integer arithmetic: with u = (x + 1) 2^-32 exactly,
// j = (len (x + 1)) >> 32 and u < V[j] <=> x + 1 < ceil(V[j] 2^32). That is what the GpSimd
// operator runs.
//
// Exact for every lambda (trnrandGeneratePoissonExact, an extension): inversion by sequential
// search for lambda < 10, Hormann's transformed rejection with squeeze (PTRS, "The transformed
// rejection method for generating Poisson random variables", Insurance: Mathematics and
// Economics 12, 1993) for lambda >= 10. Position n draws from its own substream
// (streams.hpp substream_block, tag "PTRS"), one Philox block (two 53-bit uniforms) per attempt.
#pragma once
#include <cstdint>
#include <vector>

namespace trn::rand {

// cuRAND switches from the histogram to the normal approximation at this lambda.
inline constexpr double kCurandPoissonNormalThreshold = 2000.0;
// cuRAND's accepted range for curandGeneratePoisson: 0 < lambda <= 400000 (observed).
inline constexpr double kCurandPoissonMaxLambda = 400000.0;
// PoissonExact: inversion below, PTRS from here; results must fit uint32.
inline constexpr double kPtrsMinLambda = 10.0;
inline constexpr double kPoissonExactMaxLambda = 2147483648.0;  // 2^31

// Square histogram of Poisson(lambda) in cuRAND's layout, plus the integer form that both the
// GpSimd operator and the host path sample with.
struct PoissonTable {
  double lambda = 0;
  std::uint32_t shift = 0;           // smallest value in the table
  std::uint32_t length = 0;          // number of buckets
  std::vector<double> threshold;     // V[j]: u < V[j] keeps j (cuRAND's double form)
  std::vector<std::uint32_t> alias;  // K[j]
  // keep_below[j] = min(ceil(V[j] 2^32) - 1, 2^32 - 1): with u = (x + 1) 2^-32, u < V[j] <=> x < keep_below[j]
  // (the clamp only matters for x = 0xffffffff, where cuRAND reads past its table).
  std::vector<std::uint32_t> keep_below;

  // One sample from word x: cuRAND's _curand_M2_double with u = x 2^-32 + 2^-32, in integers.
  std::uint32_t sample(std::uint32_t x) const {
    std::uint64_t j = (std::uint64_t{length} * (std::uint64_t{x} + 1)) >> 32;
    if (j >= length) j = length - 1;  // x = 0xffffffff only
    return shift + (x < keep_below[j] ? static_cast<std::uint32_t>(j) : alias[j]);
  }
};

// cuRAND's Poisson by inversion (_curand_poisson_ITR_double, curand_poisson.h, after G. S.
// Fishman, Discrete-Event Simulation, Springer 2001): sequential search of the cdf from u in (0, 1)
// (_curand_uniform_double_excluding_one: x 2^-32 + 2^-33 for 32-bit words, (x >> 11) 2^-53 +
// 2^-55 for 64-bit), the pmf started at exp(-lambda) in factors of exp(-500) against underflow.
// SOBOL32 from lambda 2000, SOBOL64 and MTGP32 (32 <= lambda <= 8000) use it (observed).
std::uint32_t poisson_inversion_curand(double u, double lambda);

// Builds cuRAND's table for 0 < lambda < kCurandPoissonNormalThreshold.
PoissonTable build_poisson_table(double lambda);

// One exact Poisson(lambda) sample for output position `position` of stream `seed`
// (0 < lambda <= kPoissonExactMaxLambda).
std::uint32_t poisson_exact_sample(std::uint64_t seed, std::uint64_t position, double lambda);
// Attempts (Philox blocks) the sample used; for the cost model and tests.
std::uint32_t poisson_exact_sample(std::uint64_t seed, std::uint64_t position, double lambda, int* blocks_used);

}  // namespace trn::rand
