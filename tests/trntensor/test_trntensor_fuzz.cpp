// Deterministic driver of the fuzz target (fuzz_trntensor_target.cpp): valid einsum expressions and
// descriptor pipelines mutated byte by byte, plus random bytes. Every input must end in a status
// (no crash, no exception escaping the C API) with outputs untouched on failure.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

extern "C" int trntensor_fuzz_one(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::uint8_t> seed_einsum(const std::string& expr, std::vector<std::vector<std::uint8_t>> shapes) {
  std::vector<std::uint8_t> v = {0, static_cast<std::uint8_t>(shapes.size() - 1)};
  for (const auto& s : shapes) {
    v.push_back(static_cast<std::uint8_t>(s.size()));
    for (auto e : s) v.push_back(e);
  }
  for (char c : expr) v.push_back(static_cast<std::uint8_t>(c));
  return v;
}

TEST(Fuzz, MutatedInputsEndInAStatus) {
  std::vector<std::vector<std::uint8_t>> corpus = {
      seed_einsum("ij,jk->ik", {{2, 3}, {3, 2}}),
      seed_einsum("ii->i", {{3, 3}}),
      seed_einsum("...ij,...jk", {{2, 2, 3}, {2, 3, 2}}),
      seed_einsum("ab,bc,cd->ad", {{2, 3}, {3, 2}, {2, 3}}),
      // Pipeline D[a,c] = A[a,b] B[b,c] + beta C (C shares D's descriptor): mode 1, data type byte,
      // per tensor rank, strided flag (odd: packed), (extent, mode) per axis; share, compute, beta, workspace bytes.
      {1, 1, 2, 1, 2, 'a', 3, 'b', 2, 1, 3, 'b', 2, 'c', 2, 1, 2, 'a', 2, 'c', 2, 1, 2, 'a', 2, 'c', 0, 0, 1, 1},
      // The same pipeline on C_32F data with CONJ on A (data type byte 0x15).
      {1, 0x15, 2, 1, 2, 'a', 3, 'b', 2, 1, 3, 'b', 2, 'c', 2, 1, 2, 'a', 2, 'c', 2, 1, 2, 'a', 2, 'c', 0, 0, 1, 1},
      // Trinary E[a,d] = A[a,b] B[b,c] C[c,d] + beta D[a,d] (fp32).
      {3, 1, 2, 2, 'a', 3, 'b', 2, 3, 'b', 2, 'c', 2, 2, 'c', 3, 'd', 2, 2, 'a', 3, 'd', 2, 2, 'a', 3, 'd', 1, 1},
  };
  // Every seed, unmutated, runs to success (so the mutations start from working pipelines).
  for (std::size_t i = 0; i < corpus.size(); ++i) EXPECT_EQ(trntensor_fuzz_one(corpus[i].data(), corpus[i].size()), 2) << "seed " << i;
  std::mt19937_64 rng(4242);
  int runs = 0, succeeded = 0;
  for (int round = 0; round < 1500; ++round) {
    std::vector<std::uint8_t> in = corpus[static_cast<std::size_t>(round) % corpus.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !in.empty(); ++e) {
      const std::size_t pos = rng() % in.size();
      switch (rng() % 3) {
        case 0: in[pos] = static_cast<std::uint8_t>(rng()); break;
        case 1: in.insert(in.begin() + static_cast<std::ptrdiff_t>(pos), static_cast<std::uint8_t>(rng() % 128)); break;
        default: in.erase(in.begin() + static_cast<std::ptrdiff_t>(pos)); break;
      }
    }
    const int r = trntensor_fuzz_one(in.data(), in.size());
    ASSERT_NE(r, 1) << "round " << round;
    succeeded += r == 2;
    ++runs;
  }
  for (int round = 0; round < 300; ++round) {
    std::vector<std::uint8_t> in(rng() % 40);
    for (auto& b : in) b = static_cast<std::uint8_t>(rng());
    ASSERT_NE(trntensor_fuzz_one(in.data(), in.size()), 1);
    ++runs;
  }
  EXPECT_EQ(runs, 1800);
  EXPECT_GT(succeeded, 40);  // the mutations also reach the GEMMs, not only the parsers
  std::printf("%d of 1500 mutated inputs ran to success\n", succeeded);
}

}  // namespace
