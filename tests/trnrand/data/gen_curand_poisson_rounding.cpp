// One-off generator (NOT built by CMake; needs libcurand) of the libcurand values that
// test_trnrand_curand.cpp's PoissonNormalApproximationRoundsAsLibcurand checks: cuRAND's host
// XORWOW and MRG32K3A Poisson from lambda 2000 (the normal approximation), seed 7, one call of
// 2^18 values, where an ulp of the float normal decides the rounded value a few times per 10^5
// values. Prints, per case, the FNV-1a 64 hash of all values' bytes (trnrand_test_util.hpp fnv1a64).
//   g++ -std=c++17 -O2 -I/usr/local/cuda/include tests/trnrand/data/gen_curand_poisson_rounding.cpp
//       -L/usr/local/cuda/lib64 -lcurand -Wl,-rpath,/usr/local/cuda/lib64 -o /tmp/gen_rounding
#include <curand.h>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  const int types[] = {CURAND_RNG_PSEUDO_XORWOW, CURAND_RNG_PSEUDO_MRG32K3A};
  const double lambdas[] = {400000.0, 123456.7};
  const std::size_t n = std::size_t{1} << 18;
  for (int t : types)
    for (double lambda : lambdas) {
      curandGenerator_t g = nullptr;
      curandCreateGeneratorHost(&g, static_cast<curandRngType_t>(t));
      curandSetPseudoRandomGeneratorSeed(g, 7);
      std::vector<unsigned int> v(n);
      const int st = curandGeneratePoisson(g, v.data(), n, lambda);
      std::uint64_t h = 0xcbf29ce484222325ull;
      const auto* p = reinterpret_cast<const unsigned char*>(v.data());
      for (std::size_t i = 0; i < n * sizeof(unsigned int); ++i) h = (h ^ p[i]) * 0x100000001b3ull;
      std::printf("{%d, %.1f, 0x%016llxull},  // status %d\n", t, lambda, static_cast<unsigned long long>(h), st);
      curandDestroyGenerator(g);
    }
}
