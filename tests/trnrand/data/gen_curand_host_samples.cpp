// One-off generator (NOT built by CMake; needs libcurand) of curand_host_samples.txt: the outputs
// of the cuRAND host-API call sequences of host_sample_sequences.h (kHostSampleSequences) on
// libcurand's host generator, one line per sequence:
//   sample <name> <status> <n values as 8 hex digits: u32 / float bits>
//   g++ -std=c++17 -O2 -I/usr/local/cuda/include tests/trnrand/data/gen_curand_host_samples.cpp
//       -L/usr/local/cuda/lib64 -lcurand -Wl,-rpath,/usr/local/cuda/lib64 -o /tmp/gen_samples
//   /tmp/gen_samples > tests/trnrand/data/curand_host_samples.txt
#include <curand.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "host_sample_sequences.h"

int main() {
  for (const auto& s : kHostSampleSequences) {
    curandGenerator_t g = nullptr;
    int st = curandCreateGeneratorHost(&g, static_cast<curandRngType_t>(s.rng));
    if (st == 0) st = curandSetStream(g, nullptr);
    if (st == 0 && s.set_offset) st = curandSetGeneratorOffset(g, 0);
    if (st == 0 && s.dimensions) st = curandSetQuasiRandomGeneratorDimensions(g, s.dimensions);
    if (st == 0) st = curandSetGeneratorOrdering(g, static_cast<curandOrdering_t>(s.ordering));
    if (st == 0 && s.set_seed) st = curandSetPseudoRandomGeneratorSeed(g, 1234ULL);
    std::vector<std::uint32_t> bits(s.n, 0);
    std::vector<float> f(s.n, 0.0f);
    if (st == 0) {
      switch (s.distribution) {
        case SAMPLE_UNIFORM: st = curandGenerateUniform(g, f.data(), s.n); break;
        case SAMPLE_NORMAL: st = curandGenerateNormal(g, f.data(), s.n, 1.0f, 2.0f); break;
        case SAMPLE_LOGNORMAL: st = curandGenerateLogNormal(g, f.data(), s.n, 1.0f, 2.0f); break;
        default: st = curandGeneratePoisson(g, bits.data(), s.n, 10.0); break;
      }
    }
    if (s.distribution != SAMPLE_POISSON) std::memcpy(bits.data(), f.data(), bits.size() * 4);
    std::printf("sample %s %d", s.name, st);
    for (auto b : bits) std::printf(" %08x", b);
    std::printf("\n");
    curandDestroyGenerator(g);
  }
}
