// The core's host SIMD probe against the kernel's own report of the CPU (/proc/cpuinfo flags):
// where the machine has AVX-512, the AVX-512 paths must be the ones that run (CI fails otherwise,
// instead of silently testing the portable path only); where it lacks them, the log says so.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <random>
#include <vector>
#include <set>
#include <sstream>
#include <string>

#include "trn/core/core.hpp"
#include "trn/core/host_loops.hpp"

namespace {

std::set<std::string> cpu_flags() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("flags", 0) == 0) {
      std::set<std::string> flags;
      std::istringstream ss(line.substr(line.find(':') + 1));
      for (std::string w; ss >> w;) flags.insert(w);
      return flags;
    }
  return {};
}

TEST(HostSimd, WidestPathTheCpuHasIsTheOneInUse) {
  const auto flags = cpu_flags();
  if (flags.empty()) GTEST_SKIP() << "no /proc/cpuinfo flags to compare with";
  if (std::getenv("TRN_HOST_SIMD") != nullptr) GTEST_SKIP() << "TRN_HOST_SIMD caps the level on purpose";
  const bool avx512 = flags.count("avx512f") && flags.count("avx512bw") && flags.count("avx512vl");
  const bool avx2 = flags.count("avx2") && flags.count("fma");
  EXPECT_EQ(trn::host_simd_available(trn::HostSimd::avx512), avx512);
  EXPECT_EQ(trn::host_simd_available(trn::HostSimd::avx2), avx2);
  EXPECT_TRUE(trn::host_simd_available(trn::HostSimd::portable));
  const trn::HostSimd expected = avx512 ? trn::HostSimd::avx512 : avx2 ? trn::HostSimd::avx2 : trn::HostSimd::portable;
  EXPECT_EQ(trn::host_simd(), expected);
  EXPECT_EQ(trn::matmul_isa_available(trn::MatmulIsa::avx512), avx512);
  std::printf("host SIMD path in use: %s%s\n", std::string(trn::host_simd_name(trn::host_simd())).c_str(),
              avx512 ? "" : " (this CPU lacks AVX-512: its vectorised paths are not exercised here)");
}

}  // namespace

// The Ozaki scheme II host loops (trn/core/host_loops.hpp) on the widest path the CPU has, against
// exact integer references of what the header promises: centred residues of mant 2^e modulo p
// (p of trnblas's CRT moduli, e < 128, |mant| < 2^53, edge mantissas and every tail length), and
// the weighted digit sums S[c][e] += W[l][c] y[l][offset + e] (integers, sums < 2^53; 1 to 7 digits,
// block lengths 1 to 256 and offsets).
TEST(HostLoops, OzakiResiduesAndDigitSumsAreTheExactIntegers) {
  std::mt19937_64 rng(41);
  for (const int p : {256, 255, 253, 251, 247, 241, 239, 233}) {
    double pow2_mod[128];
    std::int64_t pw = 1 % p;
    for (int e = 0; e < 128; ++e, pw = pw * 2 % p) pow2_mod[e] = static_cast<double>(pw);
    for (const std::int64_t count : {0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 2048}) {
      std::vector<double> mant(static_cast<std::size_t>(count));
      std::vector<std::uint8_t> ex(static_cast<std::size_t>(count));
      const std::int64_t edges[] = {0, 1, -1, p / 2, -(p / 2), (std::int64_t{1} << 53) - 1, -((std::int64_t{1} << 53) - 1),
                                    (std::int64_t{1} << 53) - p / 2, (std::int64_t{1} << 52) + p / 2};
      for (std::int64_t i = 0; i < count; ++i) {
        const std::int64_t m = i < 9 ? edges[i] : static_cast<std::int64_t>(rng() % ((std::uint64_t{1} << 53) - 1)) * (rng() & 1 ? 1 : -1) >>
                                                        static_cast<int>(rng() % 50);
        mant[static_cast<std::size_t>(i)] = static_cast<double>(m);
        ex[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(rng() % 128);
      }
      std::vector<std::uint16_t> out(static_cast<std::size_t>(count) + 1, 0xdead);
      trn::host::centred_residues_bf16(mant.data(), ex.data(), count, p, 1.0 / p, pow2_mod, out.data());
      for (std::int64_t i = 0; i < count; ++i) {
        const auto m = static_cast<std::int64_t>(mant[static_cast<std::size_t>(i)]);
        const std::int64_t r = ((m % p + p) % p) * static_cast<std::int64_t>(pow2_mod[ex[static_cast<std::size_t>(i)]]) % p;
        const double c = 2 * r >= p ? static_cast<double>(r - p) : static_cast<double>(r);  // [-p/2, p/2)
        const std::uint16_t got = out[static_cast<std::size_t>(i)];
        ASSERT_EQ(std::bit_cast<float>(std::uint32_t{got} << 16), static_cast<float>(c))
            << "p " << p << " count " << count << " i " << i << " mant " << m;
        // The bits too (a zero residue of a negative mantissa is -0): the header's operations in order.
        const double M = 0x1.8p52, x = mant[static_cast<std::size_t>(i)], inv_p = 1.0 / p;
        const double w = std::fma(-((x * inv_p + M) - M), p, x) * pow2_mod[ex[static_cast<std::size_t>(i)]];
        double v = w - ((w * inv_p + M) - M) * p;
        v = v >= 0.5 * p ? v - p : v;
        v = v < -(0.5 * p) ? v + p : v;
        ASSERT_EQ(got, static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(v)) >> 16)) << "p " << p << " i " << i;
      }
      EXPECT_EQ(out[static_cast<std::size_t>(count)], 0xdead) << "wrote past the end, count " << count;
    }
  }
  constexpr int kModuli = 16, kStride = 8;
  double W[kModuli * kStride];
  for (double& w : W) w = static_cast<double>(rng() % (std::uint64_t{1} << 40));
  std::vector<std::vector<std::uint8_t>> ys(kModuli, std::vector<std::uint8_t>(600));
  for (auto& y : ys)
    for (auto& v : y) v = static_cast<std::uint8_t>(rng());
  const std::uint8_t* y[kModuli];
  for (int l = 0; l < kModuli; ++l) y[l] = ys[static_cast<std::size_t>(l)].data();
  for (int digits = 1; digits <= 7; ++digits)
    for (const std::int64_t nb : {1, 5, 8, 13, 64, 255, 256})
      for (const std::int64_t offset : {0, 3, 300}) {
        double S[8][256];
        std::int64_t want[8][256];
        for (int c = 0; c < 8; ++c)
          for (int e = 0; e < 256; ++e) {
            want[c][e] = static_cast<std::int64_t>(rng() % (std::uint64_t{1} << 50));
            S[c][e] = static_cast<double>(want[c][e]);
          }
        for (int l = 0; l < kModuli; ++l)
          for (int c = 0; c < digits; ++c)
            for (std::int64_t e = 0; e < nb; ++e)
              want[c][e] += static_cast<std::int64_t>(W[l * kStride + c]) * y[l][offset + e];
        trn::host::weighted_digit_sums(kModuli, digits, W, kStride, y, offset, nb, S);
        for (int c = 0; c < 8; ++c)
          for (int e = 0; e < 256; ++e)
            ASSERT_EQ(S[c][e], static_cast<double>(want[c][e])) << "digits " << digits << " nb " << nb << " offset " << offset
                                                                << " c " << c << " e " << e;
      }
}
