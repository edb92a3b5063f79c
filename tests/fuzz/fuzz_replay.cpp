// Replays a fuzz harness (tests/fuzz/fuzz_<library>.cpp, the layout of fuzz_input.hpp) in a normal
// build, as the ctest fuzz_replay_<library>: every input of its checked-in corpus (the libFuzzer
// seeds and the reproducers of fixed crashes), then `mutations` deterministic byte mutations of them
// (1 to 4 overwrites, insertions or deletions each), then `random` inputs of up to `max_len` random
// bytes. Each input must keep every invariant of the harness (a violation aborts); at the end the
// counts of what the inputs reached must meet the harness's floors, so that the replay exercises
// made plans, successful calls and result checks, not only the argument checks.
//   fuzz_replay_<library> CORPUS_DIR MUTATIONS RANDOM MAX_LEN
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "fuzz_input.hpp"

namespace {

std::vector<std::vector<std::uint8_t>> read_corpus(const char* dir) {
  std::vector<std::filesystem::path> paths;
  for (const auto& e : std::filesystem::directory_iterator(dir)) paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());
  std::vector<std::vector<std::uint8_t>> files;
  for (const auto& p : paths) {
    std::ifstream f(p, std::ios::binary);
    files.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  return files;
}

void mutate(std::vector<std::uint8_t>& in, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !in.empty(); ++e) {
    const std::size_t pos = rng() % in.size();
    switch (rng() % 3) {
      case 0: in[pos] = static_cast<std::uint8_t>(rng()); break;
      case 1: in.insert(in.begin() + static_cast<std::ptrdiff_t>(pos), static_cast<std::uint8_t>(rng())); break;
      default: in.erase(in.begin() + static_cast<std::ptrdiff_t>(pos)); break;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR MUTATIONS RANDOM MAX_LEN\n", argv[0]);
    return 2;
  }
  const auto corpus = read_corpus(argv[1]);
  const long mutations = std::atol(argv[2]), random = std::atol(argv[3]);
  const auto max_len = static_cast<std::size_t>(std::atol(argv[4]));
  if (corpus.size() < 5) {
    std::fprintf(stderr, "the seed corpus %s is missing (%zu files)\n", argv[1], corpus.size());
    return 1;
  }
  for (const auto& in : corpus) LLVMFuzzerTestOneInput(in.data(), in.size());
  std::mt19937_64 rng(1414);
  for (long round = 0; round < mutations; ++round) {
    std::vector<std::uint8_t> in = corpus[static_cast<std::size_t>(round) % corpus.size()];
    mutate(in, rng);
    LLVMFuzzerTestOneInput(in.data(), in.size());
  }
  for (long round = 0; round < random; ++round) {
    std::vector<std::uint8_t> in(static_cast<std::size_t>(rng() % (max_len + 1)));
    for (auto& b : in) b = static_cast<std::uint8_t>(rng());
    LLVMFuzzerTestOneInput(in.data(), in.size());
  }
  std::printf("fuzz replay: %zu corpus inputs, %ld mutations, %ld random inputs; every invariant held\n", corpus.size(),
              mutations, random);
  for (const auto& [what, count] : trnfuzz::reached()) std::printf("  %-28s %ld\n", what.c_str(), count);
  int below = 0;
  for (const auto& f : trnfuzz::floors()) {
    const auto it = trnfuzz::reached().find(f.what);
    const long got = it == trnfuzz::reached().end() ? 0 : it->second;
    if (got < f.at_least) {
      std::fprintf(stderr, "reached %s %ld times, fewer than %ld\n", f.what, got, f.at_least);
      ++below;
    }
  }
  return below == 0 ? 0 : 1;
}
