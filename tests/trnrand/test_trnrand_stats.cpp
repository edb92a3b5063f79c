// Statistical quality: moments, Kolmogorov–Smirnov against the exact CDFs (uniform, normal,
// log-normal, exponential), chi-square of the bytes of the 32-bit words, Poisson pmf chi-square
// (the exact sampler at lambda = 0.5, 30, 5000 and 1e6; cuRAND's histogram at 4.5 and 1000.5),
// Bernoulli frequency, integer ranges without modulo bias. References (CDFs, pmf, p-values) are
// long-double textbook formulas in trnrand_test_util.hpp. Seeds are fixed, so every test is
// deterministic; thresholds are p > 1e-4 (a correct generator fails one with probability 1e-4).
// Sample sizes are moderate (~1M) to keep the suite fast; dieharder runs: docs/trnrand.md 6.
#include <numeric>

#include "trn/rand/generator.hpp"
#include "trnrand_test_util.hpp"

namespace {

using trn::rand::Generator;
using trn::rand::GeneratorOptions;
using trn::rand::GeneratorPath;
using trnrand_test::chi_square;
using trnrand_test::chi_square_p_value;
using trnrand_test::ks_p_value;
using trnrand_test::ks_statistic;

constexpr double kMinP = 1e-4;

Generator host_generator(std::uint64_t seed) {
  Generator g(GeneratorOptions{GeneratorPath::host, {}, {}});
  g.set_seed(seed);
  return g;
}

struct Moments {
  long double mean = 0, var = 0, skew = 0, kurt = 0;
};
template <class T>
Moments moments(const std::vector<T>& x) {
  Moments m;
  const long double n = static_cast<long double>(x.size());
  for (T v : x) m.mean += v;
  m.mean /= n;
  long double m2 = 0, m3 = 0, m4 = 0;
  for (T v : x) {
    const long double d = v - m.mean;
    m2 += d * d;
    m3 += d * d * d;
    m4 += d * d * d * d;
  }
  m2 /= n;
  m3 /= n;
  m4 /= n;
  m.var = m2;
  m.skew = m3 / std::pow(m2, 1.5L);
  m.kurt = m4 / (m2 * m2);
  return m;
}

// Poisson pmf chi-square of a sample; returns the p-value and prints the statistic.
double poisson_chi_square(const std::vector<std::uint32_t>& x, double lambda, const char* what) {
  const std::uint32_t hi = *std::max_element(x.begin(), x.end());
  std::vector<double> observed(hi + 2, 0.0), expected(hi + 2, 0.0);
  for (auto v : x) observed[v] += 1;
  const long double n = static_cast<long double>(x.size());
  long double below = 0;
  for (std::uint32_t k = 0; k <= hi; ++k) {
    const long double p = trnrand_test::poisson_pmf(lambda, k);
    expected[k] = static_cast<double>(n * p);
    below += p;
  }
  expected[hi + 1] = static_cast<double>(n * std::max(0.0L, 1.0L - below));  // the tail above the maximum
  const auto [stat, dof] = chi_square(observed, expected);
  const double p = chi_square_p_value(stat, dof);
  std::cout << "[ stats   ] " << what << " lambda " << lambda << ": chi2 " << stat << " on " << dof << " dof, p " << p
            << "\n";
  return p;
}

}  // namespace

TEST(TrnrandStats, UniformMomentsAndKolmogorovSmirnov) {
  Generator g = host_generator(20240611);
  std::vector<float> u(1 << 20);
  g.uniform(u);
  const Moments m = moments(u);
  const long double n = static_cast<long double>(u.size());
  EXPECT_NEAR(static_cast<double>(m.mean), 0.5, 5 * std::sqrt(1.0 / 12.0 / static_cast<double>(n)));
  EXPECT_NEAR(static_cast<double>(m.var), 1.0 / 12.0, 5 * std::sqrt(1.0 / 180.0 / static_cast<double>(n)));
  for (float x : u) ASSERT_TRUE(x > 0.0f && x <= 1.0f);
  const double d = ks_statistic(u, [](long double x) { return x; });
  std::cout << "[ stats   ] uniform float: KS D " << d << ", p " << ks_p_value(d, u.size()) << "\n";
  EXPECT_GT(ks_p_value(d, u.size()), kMinP);

  std::vector<double> ud(1 << 19);
  g.uniform_double(ud);
  const double dd = ks_statistic(ud, [](long double x) { return x; });
  EXPECT_GT(ks_p_value(dd, ud.size()), kMinP);
  for (double x : ud) ASSERT_TRUE(x > 0.0 && x < 1.0);
}

TEST(TrnrandStats, ByteAndBitFrequenciesOfTheWords) {
  Generator g = host_generator(7);
  std::vector<std::uint32_t> w(1 << 20);
  g.generate(w);
  std::vector<double> bytes(256, 0.0), bits(32, 0.0);
  for (std::uint32_t x : w) {
    for (int b = 0; b < 4; ++b) bytes[(x >> (8 * b)) & 0xff] += 1;
    for (int b = 0; b < 32; ++b) bits[static_cast<std::size_t>(b)] += (x >> b) & 1u;
  }
  const std::vector<double> expected(256, 4.0 * static_cast<double>(w.size()) / 256.0);
  const auto [stat, dof] = chi_square(bytes, expected);
  const double p = chi_square_p_value(stat, dof);
  std::cout << "[ stats   ] bytes of 2^20 words: chi2 " << stat << " on " << dof << " dof, p " << p << "\n";
  EXPECT_EQ(dof, 255);
  EXPECT_GT(p, kMinP);
  const double half = static_cast<double>(w.size()) / 2, sigma = std::sqrt(static_cast<double>(w.size()) / 4);
  for (int b = 0; b < 32; ++b) EXPECT_NEAR(bits[static_cast<std::size_t>(b)], half, 5 * sigma) << "bit " << b;
}

TEST(TrnrandStats, NormalMomentsAndKolmogorovSmirnov) {
  Generator g = host_generator(99);
  std::vector<float> z(1 << 20);
  g.normal(z, 0.0f, 1.0f);
  const Moments m = moments(z);
  const double n = static_cast<double>(z.size());
  EXPECT_NEAR(static_cast<double>(m.mean), 0.0, 5 / std::sqrt(n));
  EXPECT_NEAR(static_cast<double>(m.var), 1.0, 5 * std::sqrt(2.0 / n));
  EXPECT_NEAR(static_cast<double>(m.skew), 0.0, 5 * std::sqrt(6.0 / n));
  EXPECT_NEAR(static_cast<double>(m.kurt), 3.0, 5 * std::sqrt(24.0 / n));
  const double d = ks_statistic(z, trnrand_test::normal_cdf);
  std::cout << "[ stats   ] normal float: mean " << m.mean << " var " << m.var << " skew " << m.skew << " kurt "
            << m.kurt << ", KS D " << d << ", p " << ks_p_value(d, z.size()) << "\n";
  EXPECT_GT(ks_p_value(d, z.size()), kMinP);

  std::vector<double> zd(1 << 19);
  g.normal_double(zd, 2.0, 3.0);
  const double dd = ks_statistic(zd, [](long double x) { return trnrand_test::normal_cdf((x - 2) / 3); });
  EXPECT_GT(ks_p_value(dd, zd.size()), kMinP);
}

TEST(TrnrandStats, LogNormalAndExponentialKolmogorovSmirnov) {
  Generator g = host_generator(5);
  std::vector<float> x(1 << 19);
  g.log_normal(x, 0.3f, 0.7f);
  const double d = ks_statistic(x, [](long double v) { return trnrand_test::normal_cdf((std::log(v) - 0.3L) / 0.7L); });
  EXPECT_GT(ks_p_value(d, x.size()), kMinP);

  g.exponential(x, 2.5f);
  for (float v : x) ASSERT_GE(v, 0.0f);
  const double de = ks_statistic(x, [](long double v) { return 1 - std::exp(-2.5L * v); });
  std::cout << "[ stats   ] exponential rate 2.5: KS D " << de << ", p " << ks_p_value(de, x.size()) << "\n";
  EXPECT_GT(ks_p_value(de, x.size()), kMinP);
  EXPECT_NEAR(static_cast<double>(moments(x).mean), 0.4, 5 * 0.4 / std::sqrt(static_cast<double>(x.size())));

  std::vector<double> xd(1 << 18);
  g.exponential_double(xd, 0.5);
  const double dd = ks_statistic(xd, [](long double v) { return 1 - std::exp(-0.5L * v); });
  EXPECT_GT(ks_p_value(dd, xd.size()), kMinP);
}

TEST(TrnrandStats, PoissonExactPmfChiSquare) {
  // The exact sampler (inversion below lambda 10, PTRS above) at the four lambdas.
  for (const double lambda : {0.5, 30.0, 5000.0, 1e6}) {
    Generator g = host_generator(static_cast<std::uint64_t>(lambda * 10) + 1);
    std::vector<std::uint32_t> x(200000);
    g.poisson_exact(x, lambda);
    EXPECT_GT(poisson_chi_square(x, lambda, "poisson_exact"), kMinP) << lambda;
    const Moments m = moments(x);
    EXPECT_NEAR(static_cast<double>(m.mean), lambda, 5 * std::sqrt(lambda / static_cast<double>(x.size())));
    EXPECT_NEAR(static_cast<double>(m.var), lambda, 5 * lambda * std::sqrt(2.0 / static_cast<double>(x.size())) + 0.01);
  }
}

TEST(TrnrandStats, CuRandPoissonHistogramPmfChiSquare) {
  // cuRAND's square-histogram method (lambda < 2000) samples the Poisson pmf exactly up to its
  // 2^-32 resolution.
  for (const double lambda : {4.5, 1000.5}) {
    Generator g = host_generator(3);
    std::vector<std::uint32_t> x(400000);
    g.poisson(x, lambda);
    EXPECT_GT(poisson_chi_square(x, lambda, "poisson (cuRAND histogram)"), kMinP) << lambda;
  }
}

TEST(TrnrandStats, BernoulliFrequency) {
  Generator g = host_generator(11);
  std::vector<std::uint32_t> x(1 << 20);
  g.bernoulli(x, 0.3);
  const double ones = std::accumulate(x.begin(), x.end(), 0.0);
  const double n = static_cast<double>(x.size());
  EXPECT_NEAR(ones, 0.3 * n, 5 * std::sqrt(n * 0.3 * 0.7));
  for (auto v : x) ASSERT_LE(v, 1u);
}

TEST(TrnrandStats, IntegerRangesWithoutModuloBias) {
  Generator g = host_generator(13);
  // A small range: 7 equiprobable values.
  std::vector<std::uint32_t> x(700000);
  g.uniform_int(x, 10, 16);
  std::vector<double> counts(7, 0.0);
  for (auto v : x) {
    ASSERT_GE(v, 10u);
    ASSERT_LE(v, 16u);
    counts[v - 10] += 1;
  }
  const auto [stat, dof] = chi_square(counts, std::vector<double>(7, 100000.0));
  EXPECT_GT(chi_square_p_value(stat, dof), kMinP);
  // range = 3 2^30: word mod range would put the lowest third of the range at 2x the frequency of
  // the other two; Lemire's method keeps all thirds at 1/3 (a modulo-biased generator fails this
  // with p ~ 0).
  std::vector<std::uint32_t> y(300000);
  const std::uint32_t range = 3u << 30;
  g.uniform_int(y, 0, range - 1);
  std::vector<double> thirds(3, 0.0);
  for (auto v : y) thirds[v / (1u << 30)] += 1;
  const auto [s3, d3] = chi_square(thirds, std::vector<double>(3, 100000.0));
  std::cout << "[ stats   ] uniform_int thirds of 3 * 2^30: " << thirds[0] << " " << thirds[1] << " " << thirds[2]
            << ", p " << chi_square_p_value(s3, d3) << "\n";
  EXPECT_GT(chi_square_p_value(s3, d3), kMinP);
  // Powers of two never reject: the result is the top bits of the stream word.
  Generator a = host_generator(17), b = host_generator(17);
  std::vector<std::uint32_t> top(1000), words(1000);
  a.uniform_int(top, 0, 1023);
  b.generate(words);
  for (std::size_t i = 0; i < top.size(); ++i) ASSERT_EQ(top[i], words[i] >> 22);
}

TEST(TrnrandStats, PtrsAcceptanceRate) {
  // A rejection method with a correctly normalised hat accepts with probability alpha, so the mean
  // number of attempts (one Philox block each) is 1/alpha = 1.1239 + 1.1328 / (b - 3.4),
  // b = 0.931 + 2.53 sqrt(lambda) (Hormann 1993): 1.33 at lambda 10 down to 1.12 for large lambda.
  // The declared GpSimd cost of poisson_ptrs assumes ~1.1 - 1.3 attempts.
  for (const double lambda : {10.0, 30.0, 5000.0, 1e6}) {
    long blocks = 0;
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
      int used = 0;
      trn::rand::poisson_exact_sample(42, static_cast<std::uint64_t>(i), lambda, &used);
      blocks += used;
    }
    const double mean = static_cast<double>(blocks) / n;
    const double inv_alpha = 1.1239 + 1.1328 / (0.931 + 2.53 * std::sqrt(lambda) - 3.4);
    std::cout << "[ stats   ] PTRS lambda " << lambda << ": " << mean << " Philox blocks per sample (1/alpha "
              << inv_alpha << ")\n";
    EXPECT_NEAR(mean, inv_alpha, 0.01) << lambda;
  }
}
