// The project's own cuRAND host-API programs (trnrand_c_host_samples.c, C99) for every implemented
// generator type, on both creation functions: they run to SUCCESS, give cuRAND's stored values where the
// reference files have the same call (XORWOW and MRG32K3A: seed 1234, offset 5, 1000 words;
// MT19937: the 64-bit-seed record; Philox: cuRAND's seed-0 words), and equal the C++ host
// generators' outputs for the whole calling sequence.
#include <algorithm>
#include <bit>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "trn/rand/generator.hpp"
#include "trn/rand/mrg32k3a.hpp"
#include "trn/rand/mt19937.hpp"
#include "trn/rand/sobol.hpp"
#include "trn/rand/xorwow.hpp"
#include "trnrand.h"
#include "curand_replay.hpp"
#include "data/host_sample_sequences.h"
#include "trnrand_test_util.hpp"

extern "C" {
int trnrand_sample_pseudo(trnrandRngType_t type, int device, unsigned long long seed, unsigned long long offset,
                          size_t n, unsigned int* words, float* uniforms, float* normals);
int trnrand_sample_quasi(trnrandRngType_t type, int device, unsigned int dims, unsigned long long offset, size_t n,
                         float* uniforms, unsigned int* words, unsigned long long* words64);
int trnrand_sample_sequence(int scrambled, size_t index, int device, float* values, unsigned int* counts);
}

namespace {

struct PseudoOut {
  std::vector<std::uint32_t> words;
  std::vector<float> uniforms, normals;
  bool operator==(const PseudoOut&) const = default;
};

PseudoOut run_sample(trnrandRngType_t type, bool device, unsigned long long seed, unsigned long long offset, std::size_t n) {
  PseudoOut o{std::vector<std::uint32_t>(n), std::vector<float>(n), std::vector<float>(n)};
  EXPECT_EQ(trnrand_sample_pseudo(type, device ? 1 : 0, seed, offset, n, o.words.data(), o.uniforms.data(), o.normals.data()),
            TRNRAND_STATUS_SUCCESS)
      << type << " device " << device;
  return o;
}

// The same sequence through a C++ host generator.
template <class G>
PseudoOut run_class(G g, unsigned long long seed, unsigned long long offset, std::size_t n) {
  PseudoOut o{std::vector<std::uint32_t>(n), std::vector<float>(n), std::vector<float>(n)};
  if (offset != 0) g.set_offset(offset);
  g.set_seed(seed);
  g.generate(o.words);
  g.uniform(o.uniforms);
  g.normal(o.normals, 1.0f, 2.0f);
  return o;
}

}  // namespace

TEST(TrnrandSamples, PseudoRandomSamplesRunOnBothPathsAsCurand) {
  constexpr std::size_t n = 1000;
  const auto& xorwow_first = trnrand_test::stored_reference("curand_reference_xorwow.txt").calls.front();
  const auto& mrg_first = trnrand_test::stored_reference("curand_reference_mrg32k3a.txt").calls.front();
  for (const bool device : {false, true}) {
    for (const trnrandRngType_t type : {TRNRAND_RNG_PSEUDO_DEFAULT, TRNRAND_RNG_PSEUDO_XORWOW}) {
      const PseudoOut s = run_sample(type, device, xorwow_first.seed, xorwow_first.offset, n);
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(s.words[i], xorwow_first.bits[i]) << i;
      EXPECT_TRUE(s == run_class(trn::rand::XorwowGenerator(), xorwow_first.seed, xorwow_first.offset, n));
    }
    const PseudoOut m = run_sample(TRNRAND_RNG_PSEUDO_MRG32K3A, device, mrg_first.seed, mrg_first.offset, n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(m.words[i], mrg_first.bits[i]) << i;
    EXPECT_TRUE(m == run_class(trn::rand::Mrg32k3aGenerator(), mrg_first.seed, mrg_first.offset, n));

    const PseudoOut p = run_sample(TRNRAND_RNG_PSEUDO_PHILOX4_32_10, device, 0, 0, n);
    EXPECT_EQ(p.words[0], 0x6627e8d5u);  // cuRAND's host generator, seed 0 (docs/trnrand.md section 2)
    EXPECT_EQ(p.words[7], 0x83f875f0u);
    trn::rand::GeneratorOptions host;
    host.path = trn::rand::GeneratorPath::host;
    EXPECT_TRUE(p == run_class(trn::rand::Generator(host), 0, 0, n));

    // MT19937: cuRAND's record of seed 0x123456789abcdef (FNV-1a of all its words).
    const auto& calls = trnrand_test::stored_reference("curand_reference_mt19937.txt").calls;
    const auto it = std::find_if(calls.begin(), calls.end(), [](const auto& c) { return c.seed == 0x123456789abcdefull; });
    ASSERT_NE(it, calls.end());
    const PseudoOut t = run_sample(TRNRAND_RNG_PSEUDO_MT19937, device, it->seed, 0, it->n);
    EXPECT_EQ(trnrand_test::fnv1a64(t.words.data(), t.words.size() * 4), it->fnv);
    EXPECT_TRUE(t == run_class(trn::rand::Mt19937Generator(), it->seed, 0, it->n));
  }
}

TEST(TrnrandSamples, QuasiRandomSamplesRunOnBothPaths) {
  constexpr unsigned dims = 3;
  constexpr std::size_t n = 3 * 333;
  for (const bool device : {false, true}) {
    for (const trnrandRngType_t type : {TRNRAND_RNG_QUASI_DEFAULT, TRNRAND_RNG_QUASI_SOBOL32, TRNRAND_RNG_QUASI_SOBOL64}) {
      std::vector<float> u(n), ref_u(n);
      std::vector<std::uint32_t> w(n), ref_w(n);
      std::vector<std::uint64_t> w64(n), ref_w64(n);
      ASSERT_EQ(trnrand_sample_quasi(type, device ? 1 : 0, dims, 5, n, u.data(), w.data(),
                                     reinterpret_cast<unsigned long long*>(w64.data())),
                TRNRAND_STATUS_SUCCESS)
          << type;
      if (type == TRNRAND_RNG_QUASI_SOBOL64) {
        trn::rand::Sobol64Generator g;
        g.set_dimensions(dims);
        g.set_offset(5);
        g.uniform(ref_u);
        g.generate_long_long(ref_w64);
        EXPECT_EQ(w64, ref_w64);
      } else {
        trn::rand::Sobol32Generator g;
        g.set_dimensions(dims);
        g.set_offset(5);
        g.uniform(ref_u);
        g.generate(ref_w);
        EXPECT_EQ(w, ref_w);
      }
      EXPECT_EQ(u, ref_u) << type;
    }
  }
}

// The generator x distribution x ordering combinations of NVIDIA's cuRAND host samples (earlier
// sessions ran NVIDIA's 36 programs themselves; their code left the tree, docs/porting.md): each row of
// data/host_sample_sequences.h run by the project's C program (trnrand_sample_sequence) on both
// creation functions, against the outputs libcurand's host generator gives for the same calls
// (data/curand_host_samples.txt, from data/gen_curand_host_samples.cpp). Uniform and Poisson
// bit-exact (the sobol32 Poisson row's element 2 = 12 included); inverse-CDF normals (MT19937, MTGP32,
// SOBOL32, SOBOL64) bit-exact and their log-normals within 2 ulp; Box-Muller outputs (Philox, XORWOW,
// MRG32K3A) within box_muller_close; the engines' vector equals the host generator's bit for bit.
TEST(TrnrandSamples, HostSampleSequencesAsLibcurand) {
  const auto expected = trnrand_test::curand_host_sample_outputs();
  ASSERT_EQ(expected.size(), HOST_SAMPLE_SEQUENCE_COUNT);
  ASSERT_EQ(HOST_SAMPLE_SEQUENCE_COUNT, 28u);
  for (std::size_t row = 0; row < HOST_SAMPLE_SEQUENCE_COUNT; ++row) {
    const auto& s = kHostSampleSequences[row];
    const auto n = static_cast<std::size_t>(s.n);
    std::vector<std::uint32_t> host_bits;
    for (const bool device : {false, true}) {
      std::vector<float> f(n);
      std::vector<unsigned int> u(n);
      ASSERT_EQ(trnrand_sample_sequence(0, row, device ? 1 : 0, f.data(), u.data()), TRNRAND_STATUS_SUCCESS) << s.name;
      std::vector<std::uint32_t> got(n);
      for (std::size_t i = 0; i < n; ++i)
        got[i] = s.distribution == SAMPLE_POISSON ? u[i] : std::bit_cast<std::uint32_t>(f[i]);
      trnrand_test::expect_as_libcurand_sample(s, got, expected.at(s.name), device ? "device" : "host");
      if (device)
        EXPECT_EQ(got, host_bits) << s.name << ": the engine generator's vector differs from the host generator's";
      else
        host_bits = got;
    }
  }
  EXPECT_EQ(trnrand_sample_sequence(0, HOST_SAMPLE_SEQUENCE_COUNT, 0, nullptr, nullptr), -1);
}

// The eight scrambled-Sobol combinations: the first call (generator creation, host or engines)
// returns TYPE_ERROR (docs/trnrand.md section 7: NVIDIA does not publish the scramble constants) and
// no output is written.
TEST(TrnrandSamples, ScrambledSobolSequencesStopWithTypeError) {
  ASSERT_EQ(SCRAMBLED_SOBOL_SEQUENCE_COUNT, 8u);
  for (std::size_t row = 0; row < SCRAMBLED_SOBOL_SEQUENCE_COUNT; ++row)
    for (const int device : {0, 1}) {
      const auto n = static_cast<std::size_t>(kScrambledSobolSequences[row].n);
      std::vector<float> f(n, -7.0f);
      std::vector<unsigned int> u(n, 0xdeadbeefu);
      EXPECT_EQ(trnrand_sample_sequence(1, row, device, f.data(), u.data()), TRNRAND_STATUS_TYPE_ERROR)
          << kScrambledSobolSequences[row].name << " device " << device;
      EXPECT_EQ(f, std::vector<float>(n, -7.0f)) << kScrambledSobolSequences[row].name;
      EXPECT_EQ(u, std::vector<unsigned int>(n, 0xdeadbeefu)) << kScrambledSobolSequences[row].name;
    }
}
