// stedc's secular equation (trnsolver/src/stedc.cpp, secular_roots): the roots found with the host's
// vector lanes (AVX-512: 8 roots in lockstep, AVX2: 4) against the portable one-root-at-a-time path,
// bit for bit -- poles and taus -- and the same flop count, for k = 1 .. 300 poles, with clustered poles,
// tiny and zero-free weights, and a large and a small rho (where the bracketing picks either pole and
// Newton falls back to bisection). A lane that evaluated a stale tau, a missed bracket update or a flop
// count added in another order fails here. Levels the CPU lacks are skipped.
// Also sytrd's and geqrf's column dot products (trnsolver/src/column_dots.hpp: eight columns as the lanes
// of transposed 8 x 8 fp32 blocks) against the scalar chains they replace, bit for bit, on values of a
// wide dynamic range (so any other order of a column's additions, a swapped lane or a misplaced row of
// the transpose changes the sums).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "column_dots.hpp"
#include "eig_internal.hpp"

namespace {

struct Problem {
  std::vector<double> d, z;
  double rho = 1, znorm2 = 0;
};

Problem make(std::int64_t k, int kind, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Problem p;
  p.d.resize(static_cast<std::size_t>(k));
  p.z.resize(p.d.size());
  for (std::int64_t j = 0; j < k; ++j) {
    double dj = u(rng);
    if (kind == 1) dj = std::round(dj * 8) / 8 + 1e-9 * u(rng);  // clusters of nearly equal poles
    p.d[static_cast<std::size_t>(j)] = dj;
    double zj = u(rng);
    if (kind == 2 && j % 3 == 0) zj *= 1e-7;  // tiny weights: roots hugging their poles
    p.z[static_cast<std::size_t>(j)] = zj;
  }
  std::sort(p.d.begin(), p.d.end());
  for (std::size_t j = 1; j < p.d.size(); ++j)  // distinct poles (merge_host's deflation leaves them so)
    if (p.d[j] <= p.d[j - 1]) p.d[j] = std::nextafter(p.d[j - 1], 2.0);
  double n2 = 0;
  for (double zj : p.z) n2 += zj * zj;
  for (double& zj : p.z) zj /= std::sqrt(n2);  // |z| = 1, as stedc's z
  for (double zj : p.z) p.znorm2 += zj * zj;
  p.rho = kind == 3 ? 1e-6 : kind == 4 ? 1e3 : 0.5 + std::fabs(u(rng));
  return p;
}

TEST(StedcSecular, VectorLanesGiveThePortableRootsBitForBit) {
  std::mt19937_64 rng(20);
  std::vector<trn::HostSimd> levels;
  for (trn::HostSimd l : {trn::HostSimd::avx2, trn::HostSimd::avx512})
    if (trn::host_simd_available(l)) levels.push_back(l);
  if (levels.empty()) GTEST_SKIP() << "no vector level on this host";
  for (std::int64_t k = 1; k <= 300; k += (k < 40 ? 1 : 13))
    for (int kind = 0; kind < 5; ++kind) {
      const Problem p = make(k, kind, rng);
      std::vector<std::int64_t> pole0(static_cast<std::size_t>(k)), pole(pole0.size());
      std::vector<double> tau0(pole0.size()), tau(pole0.size());
      double flops0 = 0.5;  // a fractional start: the flop count's additions in the portable order
      trn::solver::detail::secular_roots_at(trn::HostSimd::portable, p.d.data(), p.z.data(), k, p.rho, p.znorm2,
                                            pole0.data(), tau0.data(), flops0);
      for (trn::HostSimd level : levels) {
        double flops = 0.5;
        trn::solver::detail::secular_roots_at(level, p.d.data(), p.z.data(), k, p.rho, p.znorm2, pole.data(),
                                              tau.data(), flops);
        const std::string where = std::string(trn::host_simd_name(level)) + " k " + std::to_string(k) + " kind " +
                                  std::to_string(kind);
        for (std::int64_t j = 0; j < k; ++j) {
          ASSERT_EQ(pole[static_cast<std::size_t>(j)], pole0[static_cast<std::size_t>(j)]) << where << " root " << j;
          ASSERT_EQ(std::bit_cast<std::uint64_t>(tau[static_cast<std::size_t>(j)]),
                    std::bit_cast<std::uint64_t>(tau0[static_cast<std::size_t>(j)]))
              << where << " root " << j;
        }
        ASSERT_EQ(std::bit_cast<std::uint64_t>(flops), std::bit_cast<std::uint64_t>(flops0)) << where;
      }
    }
}

// Values whose sums depend on the order of the additions: magnitudes over 2^-20 .. 2^20, both signs.
std::vector<float> wide_values(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> e(-20, 20);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(std::ldexp(u(rng), e(rng)));
  return v;
}

TEST(ColumnDots, TransposedLanesGiveTheScalarChainsBitForBit) {
  std::mt19937_64 rng(2024);
  const bool fp64_lanes = trn::host_simd_available(trn::HostSimd::avx512);
  const bool fp32_lanes = trn::host_simd_available(trn::HostSimd::avx2);
  if (!fp32_lanes) GTEST_SKIP() << "no AVX2 on this host";
  for (std::int64_t n : {0, 1, 7, 8, 9, 15, 16, 17, 63, 129, 200})
    for (int count = 1; count <= 8; ++count) {
      const std::int64_t ldx = n + 3;  // columns not aligned to the blocks
      const std::vector<float> x = wide_values(static_cast<std::size_t>(ldx * count), rng);
      const std::vector<float> y = wide_values(static_cast<std::size_t>(n), rng);
      const std::string where = "n " + std::to_string(n) + " count " + std::to_string(count);
      if (fp64_lanes) {  // sytrd's dot_columns: fp64 chains from 0
        double got[8];
        trn::solver::detail::column_dots_fp64_avx512(n, count, x.data(), ldx, y.data(), got);
        for (int k = 0; k < count; ++k) {
          double want = 0;
          for (std::int64_t i = 0; i < n; ++i)
            want += static_cast<double>(x[static_cast<std::size_t>(i + k * ldx)]) *
                    static_cast<double>(y[static_cast<std::size_t>(i)]);
          ASSERT_EQ(std::bit_cast<std::uint64_t>(got[k]), std::bit_cast<std::uint64_t>(want))
              << where << " column " << k;
        }
      }
      // geqrf's add_dots: fp32 chains from given values over rows [lo, n)
      for (std::int64_t lo : {std::int64_t{0}, std::int64_t{1}, n / 2}) {
        if (lo > n) continue;
        float got[8], want[8];
        for (int k = 0; k < count; ++k) got[k] = want[k] = static_cast<float>(k) - 2.5f;
        trn::solver::detail::column_dots_fp32_avx2(count, x.data(), ldx, y.data(), lo, n, got);
        for (int k = 0; k < count; ++k) {
          for (std::int64_t i = lo; i < n; ++i)
            want[k] += x[static_cast<std::size_t>(i + k * ldx)] * y[static_cast<std::size_t>(i)];
          ASSERT_EQ(std::bit_cast<std::uint32_t>(got[k]), std::bit_cast<std::uint32_t>(want[k]))
              << where << " lo " << lo << " column " << k;
        }
      }
    }
}

}  // namespace
