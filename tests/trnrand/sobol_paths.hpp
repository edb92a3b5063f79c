// The SOBOL32 / SOBOL64 engine-vs-host check, one template over the word type: the sobol_gray_xor
// kernel and the host path give the same words and float uniforms for a dimension count that needs
// three programs, from an offset just before the period's wrap, and the engine path records a
// profile with GpSimd (the XORs) and VectorE (the uniform conversion) busy.
#pragma once
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "trn/rand/sobol.hpp"

namespace trnrand_test {

template <class Word>
void expect_sobol_engines_equal_host(std::uint32_t dimensions, std::uint64_t offset) {
  trn::rand::SobolGenerator<Word> host, engines(true);
  for (auto* g : {&host, &engines}) {
    g->set_dimensions(dimensions);
    g->set_offset(offset);
  }
  std::vector<Word> a(dimensions * std::size_t{777}), b(a.size());
  if constexpr (sizeof(Word) == 8) {
    host.generate_long_long(a);
    engines.generate_long_long(b);
  } else {
    host.generate(a);
    engines.generate(b);
  }
  EXPECT_EQ(a, b);
  std::vector<float> fa(dimensions * std::size_t{5}), fb(fa.size());
  host.uniform(fa);
  engines.uniform(fb);
  EXPECT_EQ(fa, fb);
  EXPECT_EQ(host.offset(), engines.offset());
  const trn::Profile p = engines.last_profile();
  EXPECT_GT(p.busy_ns[static_cast<int>(trn::Engine::gpsimd)], 0.0);
  EXPECT_GT(p.busy_ns[static_cast<int>(trn::Engine::vector)], 0.0);  // the uniform conversion
  EXPECT_EQ(host.last_profile().total_ns, 0.0);
}

}  // namespace trnrand_test
