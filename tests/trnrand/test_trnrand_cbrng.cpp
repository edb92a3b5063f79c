// Counter-based generators (trn/rand/counter_rngs.hpp) against Random123: every known-answer vector
// of Random123's tests/kat_vectors for philox2x32, philox4x32 and threefry4x32 (embedded as
// data/random123_kat_vectors.txt; the upstream file is read too when installed), and Random123's
// own headers (r123::Philox2x32_R, Philox4x32_R, Threefry4x32_R) on random counters and keys for
// several round counts. Random123's headers define macros named philox4x32 etc., which is why
// counter_rngs.hpp parenthesises its function names.
#include <Random123/philox.h>
#include <Random123/threefry.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "trn/rand/counter_rngs.hpp"
#include "trnrand_test_util.hpp"

namespace {

using trn::rand::Philox2x32Counter;
using trn::rand::Philox2x32Key;
using trn::rand::Philox4x32Counter;
using trn::rand::Philox4x32Key;
using trn::rand::Threefry4x32Counter;
using trn::rand::Threefry4x32Key;

// Evaluates one kat_vectors line with our implementation into `got`; false for generators or round
// counts we do not implement.
template <int R>
bool eval_rounds(const std::string& name, const std::vector<std::uint32_t>& in, std::vector<std::uint32_t>& got) {
  if constexpr (R <= 16) {  // Philox is defined for 1..16 rounds
    if (name == "philox2x32") {
      const auto r = trn::rand::philox2x32<R>({in[0], in[1]}, {in[2]});
      got.assign(r.begin(), r.end());
      return true;
    }
    if (name == "philox4x32") {
      const auto r = trn::philox4x32<R>({in[0], in[1], in[2], in[3]}, {in[4], in[5]});
      got.assign(r.begin(), r.end());
      return true;
    }
  }
  if (name == "threefry4x32") {
    const auto r = trn::rand::threefry4x32<R>({in[0], in[1], in[2], in[3]}, {in[4], in[5], in[6], in[7]});
    got.assign(r.begin(), r.end());
    return true;
  }
  return false;
}

bool eval(const std::string& name, int rounds, const std::vector<std::uint32_t>& in, std::vector<std::uint32_t>& got) {
  switch (rounds) {
    case 7:
      return eval_rounds<7>(name, in, got);
    case 10:
      return eval_rounds<10>(name, in, got);
    case 13:
      return name == "threefry4x32" && eval_rounds<13>(name, in, got);
    case 20:
      return name == "threefry4x32" && eval_rounds<20>(name, in, got);
    case 72:
      return name == "threefry4x32" && eval_rounds<72>(name, in, got);
    default:
      return false;
  }
}

int input_words(const std::string& name) { return name == "philox2x32" ? 3 : name == "philox4x32" ? 6 : 8; }
int output_words(const std::string& name) { return name == "philox2x32" ? 2 : 4; }

// Checks every line of a kat_vectors file that names a generator we implement; returns the count.
int check_kat_file(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream is(line);
    std::string name;
    int rounds = 0;
    is >> name >> rounds;
    if (name != "philox2x32" && name != "philox4x32" && name != "threefry4x32") continue;
    std::vector<std::uint32_t> words;
    std::string w;
    while (is >> w) words.push_back(static_cast<std::uint32_t>(std::stoul(w, nullptr, 16)));
    const int ni = input_words(name), no = output_words(name);
    if (static_cast<int>(words.size()) != ni + no) {
      ADD_FAILURE() << "malformed line: " << line;
      continue;
    }
    std::vector<std::uint32_t> got;
    if (!eval(name, rounds, words, got)) continue;
    const std::vector<std::uint32_t> want(words.begin() + ni, words.end());
    EXPECT_EQ(got, want) << path << ": " << line;
    ++checked;
  }
  return checked;
}

}  // namespace

TEST(TrnrandCbrng, EmbeddedRandom123KnownAnswerVectors) {
  // 6 philox2x32 + 6 philox4x32 + 9 threefry4x32 lines (rounds 7/10, 7/10, 13/20/72).
  EXPECT_EQ(check_kat_file(trnrand_test::data_path("random123_kat_vectors.txt")), 21);
}

// Random123's upstream known-answer file, as Debian's librandom123-doc ships it (gzip-compressed;
// tools/bootstrap.sh installs the package for the test commands).
TEST(TrnrandCbrng, InstalledRandom123KatVectorsWhenPresent) {
  const char* gz = "/usr/share/doc/librandom123-dev/tests/kat_vectors.gz";
  const char* plain[] = {"/usr/share/doc/librandom123-dev/tests/kat_vectors", "/usr/share/random123/tests/kat_vectors"};
  for (const char* path : plain)
    if (std::ifstream(path)) {
      EXPECT_GT(check_kat_file(path), 20) << path;
      return;
    }
  if (!std::ifstream(gz)) GTEST_SKIP() << "librandom123-doc is not installed (no " << gz << ")";
  const std::string out = ::testing::TempDir() + "random123_kat_vectors_upstream.txt";
  const std::string cmd = std::string("gzip -dc '") + gz + "' > '" + out + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  // Upstream has every generator and round count; ours are philox2x32/4x32 (7, 10) and threefry4x32.
  EXPECT_GT(check_kat_file(out), 20) << gz;
  std::remove(out.c_str());
}

// constexpr use (compile-time known answers).
static_assert(trn::rand::philox2x32_10({0x243f6a88u, 0x85a308d3u}, {0x13198a2eu}) ==
              Philox2x32Counter{0xdd7ce038u, 0xf62a4c12u});
static_assert(trn::rand::threefry4x32_20({0, 0, 0, 0}, {0, 0, 0, 0}) ==
              Threefry4x32Counter{0x9c6ca96au, 0xe17eae66u, 0xfc10ecd4u, 0x5256a7d8u});

namespace {

template <int R>
void compare_philox2x32(std::mt19937_64& rng, int n) {
  std::uniform_int_distribution<std::uint32_t> w;
  r123::Philox2x32_R<R> ref;
  for (int i = 0; i < n; ++i) {
    const Philox2x32Counter c{w(rng), w(rng)};
    const Philox2x32Key k{w(rng)};
    const auto r =
        ref(typename r123::Philox2x32_R<R>::ctr_type{{c[0], c[1]}}, typename r123::Philox2x32_R<R>::key_type{{k[0]}});
    ASSERT_EQ(trn::rand::philox2x32<R>(c, k), (Philox2x32Counter{r[0], r[1]})) << "rounds " << R << " sample " << i;
  }
}

template <int R>
void compare_philox4x32(std::mt19937_64& rng, int n) {
  std::uniform_int_distribution<std::uint32_t> w;
  r123::Philox4x32_R<R> ref;
  for (int i = 0; i < n; ++i) {
    const Philox4x32Counter c{w(rng), w(rng), w(rng), w(rng)};
    const Philox4x32Key k{w(rng), w(rng)};
    const auto r = ref(typename r123::Philox4x32_R<R>::ctr_type{{c[0], c[1], c[2], c[3]}},
                       typename r123::Philox4x32_R<R>::key_type{{k[0], k[1]}});
    ASSERT_EQ(trn::philox4x32<R>(c, k), (Philox4x32Counter{r[0], r[1], r[2], r[3]}))
        << "rounds " << R << " sample " << i;
  }
}

template <int R>
void compare_threefry4x32(std::mt19937_64& rng, int n) {
  std::uniform_int_distribution<std::uint32_t> w;
  r123::Threefry4x32_R<R> ref;
  for (int i = 0; i < n; ++i) {
    const Threefry4x32Counter c{w(rng), w(rng), w(rng), w(rng)};
    const Threefry4x32Key k{w(rng), w(rng), w(rng), w(rng)};
    const auto r = ref(typename r123::Threefry4x32_R<R>::ctr_type{{c[0], c[1], c[2], c[3]}},
                       typename r123::Threefry4x32_R<R>::key_type{{k[0], k[1], k[2], k[3]}});
    ASSERT_EQ(trn::rand::threefry4x32<R>(c, k), (Threefry4x32Counter{r[0], r[1], r[2], r[3]}))
        << "rounds " << R << " sample " << i;
  }
}

}  // namespace

TEST(TrnrandCbrng, Philox2x32MatchesRandom123HeaderOnRandomInputs) {
  std::mt19937_64 rng(0x2545F4914F6CDD1Dull);
  compare_philox2x32<10>(rng, 300000);
  compare_philox2x32<1>(rng, 10000);
  compare_philox2x32<7>(rng, 10000);
  compare_philox2x32<16>(rng, 10000);
}

TEST(TrnrandCbrng, Philox4x32MatchesRandom123HeaderOnRandomInputs) {
  // Core's Philox4x32 is shared with stochastic rounding; trnrand re-exports it.
  std::mt19937_64 rng(0x9E3779B97F4A7C15ull);
  compare_philox4x32<10>(rng, 300000);
  compare_philox4x32<7>(rng, 10000);
}

TEST(TrnrandCbrng, Threefry4x32MatchesRandom123HeaderOnRandomInputs) {
  std::mt19937_64 rng(0xD1B54A32D192ED03ull);
  compare_threefry4x32<20>(rng, 300000);
  compare_threefry4x32<13>(rng, 10000);
  compare_threefry4x32<72>(rng, 10000);
  // Round counts that end between key injections.
  compare_threefry4x32<1>(rng, 10000);
  compare_threefry4x32<5>(rng, 10000);
  compare_threefry4x32<22>(rng, 10000);
}
