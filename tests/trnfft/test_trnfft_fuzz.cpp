// Replays the fuzz target of trnfft's C API (tests/fuzz/fuzz_trnfft.cpp) in a normal build: every
// input of the checked-in corpus tests/fuzz/corpus/trnfft/ (the libFuzzer seeds and the reproducers
// of fixed crashes, crash-* / regression-*), then deterministic byte mutations of them. Each input
// must end with every invariant of the target holding (statuses, outputs untouched on error, results
// equal to a long-double DFT); the counters show that the inputs reach made plans, executions and
// DFT checks, not only the argument checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "fuzz_trnfft.hpp"

namespace {

std::vector<std::pair<std::string, std::vector<std::uint8_t>>> corpus() {
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> files;
  for (const auto& e : std::filesystem::directory_iterator(TRNFFT_FUZZ_CORPUS)) {
    std::ifstream f(e.path(), std::ios::binary);
    files.emplace_back(e.path().filename().string(),
                       std::vector<std::uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()));
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(TrnfftFuzz, CheckedInCorpusKeepsEveryInvariant) {
  const auto files = corpus();
  ASSERT_GE(files.size(), 20u) << "the seed corpus " << TRNFFT_FUZZ_CORPUS << " is missing";
  const trnfft_fuzz_stats before = trnfft_fuzz_counters();
  for (const auto& [name, bytes] : files) {
    const char* v = trnfft_fuzz_one(bytes.data(), bytes.size());
    EXPECT_EQ(v, nullptr) << name << ": " << (v ? v : "");
  }
  const trnfft_fuzz_stats after = trnfft_fuzz_counters();
  EXPECT_GT(after.plan_ok - before.plan_ok, 10);
  EXPECT_GT(after.plan_rejected - before.plan_rejected, 10);
  EXPECT_GT(after.exec_ok - before.exec_ok, 10);
  EXPECT_GT(after.exec_rejected - before.exec_rejected, 2);
  EXPECT_GT(after.dft_checked - before.dft_checked, 5);
}

TEST(TrnfftFuzz, MutatedCorpusKeepsEveryInvariant) {
  const auto files = corpus();
  ASSERT_FALSE(files.empty());
  std::mt19937_64 rng(1414);
  for (int round = 0; round < 300; ++round) {
    std::vector<std::uint8_t> in = files[static_cast<std::size_t>(round) % files.size()].second;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !in.empty(); ++e) {
      const std::size_t pos = rng() % in.size();
      switch (rng() % 3) {
        case 0: in[pos] = static_cast<std::uint8_t>(rng()); break;
        case 1: in.insert(in.begin() + static_cast<std::ptrdiff_t>(pos), static_cast<std::uint8_t>(rng())); break;
        default: in.erase(in.begin() + static_cast<std::ptrdiff_t>(pos)); break;
      }
    }
    const char* v = trnfft_fuzz_one(in.data(), in.size());
    ASSERT_EQ(v, nullptr) << "round " << round << ": " << (v ? v : "");
  }
}

}  // namespace
