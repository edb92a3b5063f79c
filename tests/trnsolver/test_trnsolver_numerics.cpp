// trnsolver C++ API against LAPACKE (OpenBLAS) and long-double references: syevj (S tile kernel, D host
// fp64), potrf/potrs, getrf/getrs, mixed-precision IR; bounds in one place (kValueC ...).
// syevj (C++ API) against LAPACKE dsyevd: eigenvalues, residual and orthogonality bounds for S
// (TensorE/VectorE kernel) and D (host fp64 Jacobi), both uplo and jobz, batched, determinism,
// non-finite input, and relative accuracy on a graded matrix against a long-double Jacobi.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <set>

#include "solver_oracles.hpp"
#include "solver_reference.hpp"
#include "trn/solver/solver.hpp"

namespace {

using namespace solver_test;
namespace ts = trn::solver;

// Tolerance constants (docs/trnsolver.md "Accuracy"): with m = max(n, 8),
// |lambda - ref| <= kValueC m u ||A||_2, ||AV - V Lambda||_F / ||A||_F <= kResidualC m u,
// ||V^T V - I||_F <= kOrthC m^1.5 u. (m, not n: a handful of rotations per element already costs a
// few u at the smallest sizes.)
// fp32 (engine kernel): the eigenvalue constant is 3 (measured up to 1.9 on these matrices: every
// rotation is applied as two separately rounded column rotations); fp64 (host): 1.
constexpr double kValueC = 3.0, kResidualC = 1.0, kOrthC = 1.0;
constexpr double kValueC64 = 1.0;
double msize(int n) { return std::max(n, 8); }
constexpr double kU32 = 0x1p-24, kU64 = 0x1p-53;

struct Case {
  int n;
  bool lower;
  bool vectors;
  bool batched = false;  // through ssyevj_batched (batch of 1: the packed kernel for n <= 32)
};

void check_s(const Case& c, std::uint64_t seed, int* sweeps_out = nullptr) {
  const int n = c.n, lda = n + 3;
  const auto a = random_symmetric(n, lda, seed);
  const auto ref = dsyevd_values(a, n, lda);
  std::vector<float> af(a.begin(), a.end()), w(static_cast<std::size_t>(n));
  // The unread triangle holds NaN: it must not influence anything.
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      if (c.lower ? i < j : i > j) af[i + static_cast<std::size_t>(j) * lda] = std::numeric_limits<float>::quiet_NaN();
    }
  }
  const std::vector<float> a_before = af;
  // Reference input in double from the fp32-rounded data.
  std::vector<double> ad(a.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int si = c.lower ? std::max(i, j) : std::min(i, j), sj = c.lower ? std::min(i, j) : std::max(i, j);
      ad[i + static_cast<std::size_t>(j) * lda] = static_cast<double>(af[si + static_cast<std::size_t>(sj) * lda]);
    }
  const auto refd = dsyevd_values(ad, n, lda);
  ts::CallReport rep;
  const ts::Uplo uplo = c.lower ? ts::Uplo::lower : ts::Uplo::upper;
  const auto r = c.batched ? ts::ssyevj_batched({}, c.vectors, uplo, n, af.data(), lda, w.data(), {}, 1, &rep).front()
                           : ts::ssyevj({}, c.vectors, uplo, n, af.data(), lda, w.data(), {}, &rep);
  EXPECT_EQ(r.info, 0) << "n=" << n;
  for (int k = 1; k < n; ++k) EXPECT_LE(w[k - 1], w[k]) << "ascending, k=" << k;
  const auto e = eig_errors(ad, n, lda, w.data(), c.vectors ? af.data() : nullptr, lda, refd);
  EXPECT_LE(e.max_value_err, kValueC * msize(n) * kU32) << "n=" << n;
  if (c.vectors) {
    EXPECT_LE(e.residual, kResidualC * msize(n) * kU32) << "n=" << n;
    EXPECT_LE(e.orthogonality, kOrthC * std::pow(msize(n), 1.5) * kU32) << "n=" << n;
  } else {
    EXPECT_EQ(0, std::memcmp(af.data(), a_before.data(), af.size() * sizeof(float))) << "A untouched without vectors";
  }
  if (n >= 2) {
    EXPECT_GT(rep.profile.total_ns, 0.0);
  }
  std::printf("[ssyevj%s] n=%d %s %s sweeps=%d value_err=%.2e (n u=%.1e) residual=%.2e orth=%.2e off=%.2e\n",
              c.batched ? " batched" : "", n, c.lower ? "L" : "U", c.vectors ? "V" : "N", r.sweeps, e.max_value_err, n * kU32, e.residual,
              e.orthogonality, r.residual);
  if (sweeps_out != nullptr) *sweeps_out = r.sweeps;
}

TEST(TrnsolverSsyevj, AccuracyAgainstDsyevd) {
  for (const bool batched : {false, true})
    for (int n : {1, 2, 3, 7, 16, 32, 33}) {
      check_s({n, true, true, batched}, 100 + n);
      check_s({n, false, true, batched}, 200 + n);
      check_s({n, true, false, batched}, 300 + n);
    }
}

TEST(TrnsolverSsyevj, TwoRowTilesAndSweeps) {
  int sweeps = 0;
  for (int n : {128, 130}) {
    check_s({n, n % 2 == 0, true}, 400 + n, &sweeps);
    EXPECT_LE(sweeps, 9) << "fp32 sweeps on a random matrix, n=" << n;
  }
}

// `batch` random symmetric matrices (n, lda) from seeds seed0 + k, each edited by edit(k, a) first.
template <class Edit>
std::vector<float> random_batch(int n, int lda, int batch, std::uint64_t seed0, Edit edit) {
  const std::size_t msz = static_cast<std::size_t>(lda) * n;
  std::vector<float> all(msz * batch);
  for (int k = 0; k < batch; ++k) {
    auto a = random_symmetric(n, lda, seed0 + k);
    edit(k, a);
    std::copy(a.begin(), a.end(), all.begin() + static_cast<std::ptrdiff_t>(k * msz));
  }
  return all;
}
void scale_off_diagonal(std::vector<double>& a, int n, int lda, double f) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (i != j) a[i + static_cast<std::size_t>(j) * lda] *= f;
}
// The matrices of `all` (msz floats each) in reverse order.
std::vector<float> reversed_batch(const std::vector<float>& all, std::size_t msz, int batch) {
  std::vector<float> r(all.size());
  for (int k = 0; k < batch; ++k)
    std::copy_n(all.begin() + static_cast<std::ptrdiff_t>((batch - 1 - k) * msz), msz, r.begin() + static_cast<std::ptrdiff_t>(k * msz));
  return r;
}

// n >= 144: two-sided block Jacobi (packed 2b x 2b subproblems, TensorE GEMMs); below, forced by
// TRNSOLVER_SYEVJ_BLOCK_MIN_N. Same bounds as the rows kernel; fp32 sweeps on random matrices <= 10
// (measured 7-8 up to n = 512, 10 at n = 1024).
struct BlockPathOverride {
  explicit BlockPathOverride(const char* min_n) { setenv("TRNSOLVER_SYEVJ_BLOCK_MIN_N", min_n, 1); }
  ~BlockPathOverride() { unsetenv("TRNSOLVER_SYEVJ_BLOCK_MIN_N"); }
};

TEST(TrnsolverSsyevj, BlockJacobiAccuracyAndSweeps) {
  int sweeps = 0;
  {
    const BlockPathOverride force("33");
    for (int n : {33, 100}) {
      check_s({n, true, true}, 1700 + n, &sweeps);
      EXPECT_LE(sweeps, 10) << n;
      check_s({n, false, true}, 1800 + n, &sweeps);
      check_s({n, false, false}, 1900 + n, &sweeps);
    }
  }
  // The default path at these sizes: b = 8 with dense GEMMs (150, 256), banded GEMMs of width 32
  // (288); b = 16, banded (520).
  for (int n : {150, 256, 288, 520}) {
    check_s({n, n % 3 != 0, true}, 2000 + n, &sweeps);
    EXPECT_LE(sweeps, 10) << n;
  }
  check_s({150, true, false}, 2100, &sweeps);
}

TEST(TrnsolverSsyevj, BlockJacobiOverrideSelectsTheBlockPath) {
  const int n = 100;
  const auto a = random_symmetric(n, n, 2200);
  std::vector<float> a1(a.begin(), a.end()), a2(a1), w1(n), w2(n);
  ts::ssyevj({}, true, ts::Uplo::lower, n, a1.data(), n, w1.data(), {});
  {
    const BlockPathOverride force("33");
    ts::ssyevj({}, true, ts::Uplo::lower, n, a2.data(), n, w2.data(), {});
  }
  EXPECT_NE(0, std::memcmp(a1.data(), a2.data(), a1.size() * sizeof(float))) << "another algorithm, other bits";
}

TEST(TrnsolverSsyevj, BlockJacobiBitsIndependentOfThreadsCoresAndTarget) {
  const int n = 200, lda = 203;
  const auto a = random_symmetric(n, lda, 2300);
  std::vector<float> ref(a.begin(), a.end()), wref(n);
  ts::Settings one;
  one.host_threads = 1;
  const auto r0 = ts::ssyevj(one, true, ts::Uplo::upper, n, ref.data(), lda, wref.data(), {});
  EXPECT_EQ(r0.info, 0);
  for (int variant = 0; variant < 2; ++variant) {
    ts::Settings s;
    s.host_threads = 2;
    s.num_cores = 2;
    if (variant == 1) s.target = trn::Generation::trn2;
    std::vector<float> x(a.begin(), a.end()), w(n);
    const auto r = ts::ssyevj(s, true, ts::Uplo::upper, n, x.data(), lda, w.data(), {});
    EXPECT_EQ(r.sweeps, r0.sweeps) << variant;
    EXPECT_EQ(0, std::memcmp(x.data(), ref.data(), x.size() * sizeof(float))) << variant;
    EXPECT_EQ(0, std::memcmp(w.data(), wref.data(), w.size() * sizeof(float))) << variant;
  }
}

TEST(TrnsolverSsyevj, BlockJacobiInfoCodesAndEdgeCases) {
  const int n = 150;
  const auto a = random_symmetric(n, n, 2400);
  std::vector<float> w(n);
  for (const int max_sweeps : {0, 2}) {  // not converged: info n + 1, the sweeps that ran
    std::vector<float> af(a.begin(), a.end());
    ts::SyevjParams p;
    p.max_sweeps = max_sweeps;
    const auto r = ts::ssyevj({}, false, ts::Uplo::lower, n, af.data(), n, w.data(), p);
    EXPECT_EQ(r.info, n + 1);
    EXPECT_EQ(r.sweeps, max_sweeps);
    EXPECT_GT(r.residual, 0.0);
    for (int k = 1; k < n; ++k) EXPECT_LE(w[k - 1], w[k]);
  }
  {  // non-finite input: info n + 1, no sweep, W NaN, A untouched
    std::vector<float> af(a.begin(), a.end());
    af[7 + 3 * n] = std::numeric_limits<float>::infinity();
    const std::vector<float> before = af;
    const auto r = ts::ssyevj({}, true, ts::Uplo::lower, n, af.data(), n, w.data(), {});
    EXPECT_EQ(r.info, n + 1);
    EXPECT_EQ(r.sweeps, 0);
    EXPECT_TRUE(std::isnan(w[0]));
    EXPECT_EQ(0, std::memcmp(af.data(), before.data(), af.size() * sizeof(float)));
  }
  {  // diagonal input: converged before any sweep; exact eigenvalues, V a permutation
    std::vector<float> af(static_cast<std::size_t>(n) * n, 0.0f);
    for (int i = 0; i < n; ++i) af[i + static_cast<std::size_t>(i) * n] = static_cast<float>((i * 37) % n) - 70.0f;
    const auto r = ts::ssyevj({}, true, ts::Uplo::upper, n, af.data(), n, w.data(), {});
    EXPECT_EQ(r.info, 0);
    EXPECT_EQ(r.sweeps, 0);
    for (int k = 0; k < n; ++k) {
      EXPECT_EQ(w[k], static_cast<float>(k) - 70.0f);
      const int i = static_cast<int>(std::max_element(af.begin() + k * n, af.begin() + (k + 1) * n) - (af.begin() + k * n));
      EXPECT_EQ(af[i + static_cast<std::size_t>(k) * n], 1.0f);
      EXPECT_EQ((i * 37) % n, k);
    }
  }
}

// SsyevjBatched with n > 32 runs the block Jacobi over the batch in lockstep groups: each matrix's
// bits are those of its single block-path call (Ssyevj takes the block path from n = 144 on; below,
// forced for the reference), whatever the batch around it (a non-finite, a diagonal, an unconverged
// neighbour), the order, threads, cores; sort_eig = 0 leaves the diagonal order.
void check_block_batched_bits(int n, int lda, std::uint64_t seed) {
  const int batch = 4;
  const std::size_t msz = static_cast<std::size_t>(lda) * n;
  const std::vector<float> all = random_batch(n, lda, batch, seed, [&](int k, std::vector<double>& a) {
    if (k == 1) a[9 + 4 * static_cast<std::size_t>(lda)] = std::numeric_limits<double>::quiet_NaN();
    if (k == 2) scale_off_diagonal(a, n, lda, 1e-3);  // converges a sweep or more earlier
  });
  ts::Settings one, two;
  one.host_threads = 1;
  two.host_threads = 2;
  two.num_cores = 2;
  std::vector<float> ab(all), wb(static_cast<std::size_t>(n) * batch);
  const auto rb = ts::ssyevj_batched(one, true, ts::Uplo::lower, n, ab.data(), lda, wb.data(), {}, batch);
  std::vector<float> ar = reversed_batch(all, msz, batch), wr(wb.size());
  const auto rr = ts::ssyevj_batched(two, true, ts::Uplo::lower, n, ar.data(), lda, wr.data(), {}, batch);
  EXPECT_EQ(rb[1].info, n + 1);
  EXPECT_EQ(rb[1].sweeps, 0);
  EXPECT_LT(rb[2].sweeps, rb[0].sweeps);
  for (int k = 0; k < batch; ++k) {
    if (k != 1) {
      EXPECT_EQ(rb[static_cast<std::size_t>(k)].info, 0) << k;
    }
    const int j = batch - 1 - k;
    EXPECT_EQ(rr[static_cast<std::size_t>(j)].sweeps, rb[static_cast<std::size_t>(k)].sweeps) << k;
    EXPECT_EQ(0, std::memcmp(ar.data() + j * msz, ab.data() + k * msz, msz * sizeof(float))) << k;
    EXPECT_EQ(0, std::memcmp(wr.data() + j * n, wb.data() + k * n, n * sizeof(float))) << k;
    std::vector<float> a1(all.begin() + static_cast<std::ptrdiff_t>(k * msz), all.begin() + static_cast<std::ptrdiff_t>((k + 1) * msz)), w1(n);
    const BlockPathOverride force("33");
    const auto r1 = ts::ssyevj(one, true, ts::Uplo::lower, n, a1.data(), lda, w1.data(), {});
    EXPECT_EQ(r1.sweeps, rb[static_cast<std::size_t>(k)].sweeps) << k;
    EXPECT_EQ(r1.info, rb[static_cast<std::size_t>(k)].info) << k;
    EXPECT_EQ(0, std::memcmp(a1.data(), ab.data() + k * msz, msz * sizeof(float))) << k;
    EXPECT_EQ(0, std::memcmp(w1.data(), wb.data() + k * n, n * sizeof(float))) << k;
  }
  // sort_eig = 0: the same eigenvalues, in the work matrix's diagonal order (not all ascending).
  ts::SyevjParams unsorted;
  unsorted.sort_eig = false;
  std::vector<float> au(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(msz)), wu(n);
  ts::ssyevj_batched(one, false, ts::Uplo::lower, n, au.data(), lda, wu.data(), unsorted, 1);
  EXPECT_FALSE(std::is_sorted(wu.begin(), wu.end()));
  std::sort(wu.begin(), wu.end());
  EXPECT_EQ(0, std::memcmp(wu.data(), wb.data(), n * sizeof(float)));
}

TEST(TrnsolverSsyevj, BlockJacobiBatchedBitsMatchSingleCalls) {
  check_block_batched_bits(41, 43, 2400);   // below Ssyevj's crossover: the single call is forced
  check_block_batched_bits(144, 146, 2500);
}

void check_d(int n, bool lower, bool vectors, std::uint64_t seed) {
  const int lda = n + 1;
  auto a = random_symmetric(n, lda, seed);
  const auto ref = dsyevd_values(a, n, lda);
  std::vector<double> ad(a), w(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      if (lower ? i < j : i > j) ad[i + static_cast<std::size_t>(j) * lda] = std::numeric_limits<double>::quiet_NaN();
    }
  }
  ts::CallReport rep;
  const auto r = ts::dsyevj({}, vectors, lower ? ts::Uplo::lower : ts::Uplo::upper, n, ad.data(), lda, w.data(), {}, &rep);
  EXPECT_EQ(r.info, 0);
  // The relative test needs one confirming sweep without rotations: <= 9 rotating sweeps + 1.
  EXPECT_LE(r.sweeps, 10) << "fp64 sweeps, n=" << n;
  const auto e = eig_errors(a, n, lda, w.data(), vectors ? ad.data() : nullptr, lda, ref);
  EXPECT_LE(e.max_value_err, kValueC64 * msize(n) * kU64) << n;
  if (vectors) {
    EXPECT_LE(e.residual, kResidualC * msize(n) * kU64) << n;
    EXPECT_LE(e.orthogonality, kOrthC * std::pow(msize(n), 1.5) * kU64) << n;
  }
  // Block Jacobi (syevj_f64.cpp): the rotations are Ozaki DGEMMs on TensorE (device instructions and
  // time), the subproblems host steps: one prepare + one per pair visit + one finish at least.
  const std::int64_t blocks = (n + 31) / 32, pairs = blocks == 1 ? 1 : blocks * (blocks - 1) / 2;
  EXPECT_GE(rep.profile.host_steps, 2 + pairs * r.sweeps) << n;
  if (vectors || blocks > 1) {  // one block without vectors: the host subproblem is the whole run
    EXPECT_GT(rep.profile.total_ns, rep.profile.host_roundtrip_ns) << "engine time beyond the host steps, n=" << n;
    EXPECT_GT(rep.profile.total_instructions, 0) << n;
  }
  EXPECT_GT(rep.host_fp64_flops, 0.0);
  std::printf("[dsyevj] n=%d %s %s sweeps=%d value_err=%.2e residual=%.2e orth=%.2e\n", n, lower ? "L" : "U",
              vectors ? "V" : "N", r.sweeps, e.max_value_err, e.residual, e.orthogonality);
}

TEST(TrnsolverDsyevj, AccuracyAgainstDsyevd) {
  for (int n : {2, 3, 32, 65, 128}) {
    check_d(n, true, true, 500 + n);
    check_d(n, false, n % 2 == 0, 600 + n);
  }
}

TEST(TrnsolverSsyevj, BatchedMatchesPerMatrixBoundsAndIsDeterministic) {
  const int n = 32, lda = 32, batch = 16;
  std::vector<double> all;
  for (int k = 0; k < batch; ++k) {
    const auto a = random_symmetric(n, lda, 700 + k);
    all.insert(all.end(), a.begin(), a.end());
  }
  std::vector<float> a1(all.begin(), all.end()), a2(a1), w1(n * batch), w2(n * batch);
  ts::Settings s1, s2;
  s1.host_threads = 1;
  s2.host_threads = 2;
  s2.num_cores = 2;
  ts::SyevjParams p;
  const auto r1 = ts::ssyevj_batched(s1, true, ts::Uplo::lower, n, a1.data(), lda, w1.data(), p, batch);
  const auto r2 = ts::ssyevj_batched(s2, true, ts::Uplo::lower, n, a2.data(), lda, w2.data(), p, batch);
  EXPECT_EQ(0, std::memcmp(a1.data(), a2.data(), a1.size() * sizeof(float)));
  EXPECT_EQ(0, std::memcmp(w1.data(), w2.data(), w1.size() * sizeof(float)));
  for (int k = 0; k < batch; ++k) {
    ASSERT_EQ(r1[k].info, 0);
    EXPECT_LE(r1[k].sweeps, 8);
    std::vector<double> ak(all.begin() + k * n * lda, all.begin() + (k + 1) * n * lda);
    for (double& x : ak) x = static_cast<double>(static_cast<float>(x));
    const auto e = eig_errors(ak, n, lda, w1.data() + k * n, a1.data() + k * n * lda, lda, dsyevd_values(ak, n, lda));
    EXPECT_LE(e.max_value_err, kValueC * msize(n) * kU32);
    EXPECT_LE(e.residual, kResidualC * msize(n) * kU32);
    EXPECT_LE(e.orthogonality, kOrthC * std::pow(msize(n), 1.5) * kU32);
  }
  // sort_eig = false: the same eigenvalues (bit for bit) in sweep order.
  std::vector<float> a3(all.begin(), all.end()), w3(n * batch);
  p.sort_eig = false;
  ts::ssyevj_batched(s1, false, ts::Uplo::lower, n, a3.data(), lda, w3.data(), p, batch);
  for (int k = 0; k < batch; ++k) {
    std::vector<float> sorted(w3.begin() + k * n, w3.begin() + (k + 1) * n);
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(0, std::memcmp(sorted.data(), w1.data() + k * n, n * sizeof(float)));
  }
}

// Determinism across batch composition: every matrix of the packed kernel (n <= 32) gets the
// same bits alone (batch of 1), in batches of different sizes and orders (other neighbours, other
// partitions and slots, one or several programs, 1 or 2 threads and cores), including matrices that
// stop at different sweeps, unconverged ones and a non-finite one; info, sweeps and residual too.
TEST(TrnsolverSsyevj, BatchedBitsIndependentOfBatchComposition) {
  for (const int n : {5, 32}) {
    const int lda = n + 2, batch = 300;  // > pmax: several slots; lda > n: strided load
    std::vector<float> all(static_cast<std::size_t>(lda) * n * batch);
    for (int k = 0; k < batch; ++k) {
      auto a = random_symmetric(n, lda, 900 + k);
      if (k % 7 == 3)  // a diagonal matrix: converged before the first sweep
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i)
            if (i != j) a[i + static_cast<std::size_t>(j) * lda] = 0.0;
      if (k == 11) a[1] = std::numeric_limits<double>::infinity();  // lower triangle element (1, 0)
      std::copy(a.begin(), a.end(), all.begin() + static_cast<std::ptrdiff_t>(k) * lda * n);
    }
    const std::size_t msz = static_cast<std::size_t>(lda) * n;
    ts::SyevjParams p;
    p.max_sweeps = n < 8 ? 3 : 5;  // some matrices stop unconverged (info n + 1), others earlier
    const auto run = [&](const std::vector<int>& order, ts::Settings s, std::vector<float>& a, std::vector<float>& w) {
      a.assign(order.size() * msz, 0.0f);
      w.assign(order.size() * n, 0.0f);
      for (std::size_t k = 0; k < order.size(); ++k)
        std::copy_n(all.begin() + static_cast<std::ptrdiff_t>(order[k] * msz), msz, a.begin() + static_cast<std::ptrdiff_t>(k * msz));
      return ts::ssyevj_batched(s, true, ts::Uplo::lower, n, a.data(), lda, w.data(), p, static_cast<std::int64_t>(order.size()));
    };
    std::vector<int> forward(batch), reversed(batch), strided;
    std::iota(forward.begin(), forward.end(), 0);
    std::reverse_copy(forward.begin(), forward.end(), reversed.begin());
    for (int k = 1; k < batch; k += 3) strided.push_back(k);
    ts::Settings one, two;
    one.host_threads = 1;
    two.host_threads = 2;
    two.num_cores = 2;
    two.target = trn::Generation::trn2;  // other engine assignment (GpSimdE products), same bits
    std::vector<float> af, wf;
    const auto rf = run(forward, one, af, wf);
    int unconverged = 0;
    for (const auto& r : rf) unconverged += r.info == n + 1;
    EXPECT_GT(unconverged, 1) << "the test must mix finished and still-sweeping matrices";
    EXPECT_TRUE(std::any_of(rf.begin(), rf.end(), [](const ts::SyevjResult& r) { return r.info == 0 && r.sweeps > 0; }));
    EXPECT_EQ(rf[11].info, n + 1);
    EXPECT_EQ(rf[11].sweeps, 0);
    EXPECT_EQ(rf[3].sweeps, 0);
    for (const auto& [order, s] : {std::pair{reversed, two}, std::pair{strided, one}}) {
      std::vector<float> a, w;
      const auto r = run(order, s, a, w);
      for (std::size_t k = 0; k < order.size(); ++k) {
        const auto j = static_cast<std::size_t>(order[k]);
        EXPECT_EQ(0, std::memcmp(a.data() + k * msz, af.data() + j * msz, msz * sizeof(float))) << n << " " << j;
        EXPECT_EQ(0, std::memcmp(w.data() + k * n, wf.data() + j * n, n * sizeof(float))) << n << " " << j;
        EXPECT_EQ(r[k].info, rf[j].info);
        EXPECT_EQ(r[k].sweeps, rf[j].sweeps);
        EXPECT_EQ(0, std::memcmp(&r[k].residual, &rf[j].residual, sizeof(double)));
      }
    }
    for (const int j : {0, 11, 17, 299}) {  // alone: a batch of 1
      std::vector<float> a, w;
      const auto r = run({j}, one, a, w);
      EXPECT_EQ(0, std::memcmp(a.data(), af.data() + static_cast<std::size_t>(j) * msz, msz * sizeof(float))) << j;
      EXPECT_EQ(0, std::memcmp(w.data(), wf.data() + static_cast<std::size_t>(j) * n, n * sizeof(float))) << j;
      EXPECT_EQ(r[0].sweeps, rf[static_cast<std::size_t>(j)].sweeps);
    }
  }
}

// The modeled time of a batched call does not depend on the host thread count (the kernels' HBM
// read-backs are caller-owned, so no two programs share an address the cost model would order them
// by), and the block path's groups run on their own emulated cores.
TEST(TrnsolverSsyevj, BatchedProfileIndependentOfHostThreadsAndSpreadOverCores) {
  for (const auto& [n, batch] : {std::pair{32, 1300}, std::pair{48, 8}}) {  // 1300 > 1024 per program: two programs
    const int lda = n;
    const std::vector<float> all = random_batch(n, lda, batch, 3100 + n, [](int, std::vector<double>&) {});
    double total[3] = {};
    int k = 0;
    for (const auto& [threads, cores] : {std::pair{1, 2}, std::pair{2, 2}, std::pair{1, 1}}) {
      ts::Settings s;
      s.host_threads = threads;
      s.num_cores = cores;
      std::vector<float> a(all), w(static_cast<std::size_t>(n) * batch);
      ts::CallReport rep;
      ts::ssyevj_batched(s, true, ts::Uplo::lower, n, a.data(), lda, w.data(), {}, batch, &rep);
      total[k++] = rep.profile.total_ns;
    }
    EXPECT_EQ(total[0], total[1]) << "n=" << n << ": 1 vs 2 host threads, 2 cores";
    if (n > 32) {  // the block path: one group per core
      EXPECT_LT(total[0], 0.9 * total[2]) << "n=" << n << ": 2 cores vs 1";
    }
  }
}

// n > 32 with the block path moved up (TRNSOLVER_SYEVJ_BLOCK_MIN_N, cost studies): a program runs
// up to syevj_lockstep_width(n) matrices of the rows kernel in lockstep; each matrix's bits are those
// of the single-matrix call, for any batch order, threads, cores and target.
TEST(TrnsolverSsyevj, LockstepBatchBitsMatchSingleCalls) {
  const BlockPathOverride rows_kernel("1000");  // the batch's default for n > 32 is the block path
  const int n = 41, lda = 43, batch = 11;
  const std::size_t msz = static_cast<std::size_t>(lda) * n;
  const std::vector<float> all = random_batch(n, lda, batch, 1300, [&](int k, std::vector<double>& a) {
    // nearly diagonal: stops sweeps earlier than its lockstep neighbours
    if (k == 3 || k == 8) scale_off_diagonal(a, n, lda, k == 3 ? 0.0 : 1e-4);
  });
  ts::SyevjParams p;
  ts::Settings one, two;
  one.host_threads = 1;
  two.host_threads = 2;
  two.num_cores = 2;
  two.target = trn::Generation::trn2;  // c, s in SBUF and GpSimdE products there: same bits
  std::vector<float> af(all), wf(static_cast<std::size_t>(n) * batch);
  const auto rf = ts::ssyevj_batched(one, true, ts::Uplo::lower, n, af.data(), lda, wf.data(), p, batch);
  std::vector<float> ar = reversed_batch(all, msz, batch), wr(wf.size());
  const auto rr = ts::ssyevj_batched(two, true, ts::Uplo::lower, n, ar.data(), lda, wr.data(), p, batch);
  std::set<int> sweeps;
  for (int k = 0; k < batch; ++k) {
    const int j = batch - 1 - k;
    sweeps.insert(rf[static_cast<std::size_t>(j)].sweeps * 10 + rf[static_cast<std::size_t>(j)].info);
    EXPECT_EQ(0, std::memcmp(ar.data() + k * msz, af.data() + j * msz, msz * sizeof(float))) << j;
    EXPECT_EQ(0, std::memcmp(wr.data() + k * n, wf.data() + j * n, n * sizeof(float))) << j;
    EXPECT_EQ(rr[static_cast<std::size_t>(k)].sweeps, rf[static_cast<std::size_t>(j)].sweeps);
  }
  EXPECT_GT(sweeps.size(), 1u) << "matrices must stop at different sweeps";
  for (const int j : {0, 5, 10}) {
    std::vector<float> a1(all.begin() + static_cast<std::ptrdiff_t>(j * msz), all.begin() + static_cast<std::ptrdiff_t>((j + 1) * msz)), w1(n);
    const auto r1 = ts::ssyevj(one, true, ts::Uplo::lower, n, a1.data(), lda, w1.data(), p);
    EXPECT_EQ(r1.sweeps, rf[static_cast<std::size_t>(j)].sweeps);
    EXPECT_EQ(r1.info, rf[static_cast<std::size_t>(j)].info);
    EXPECT_EQ(0, std::memcmp(a1.data(), af.data() + j * msz, msz * sizeof(float))) << j;
    EXPECT_EQ(0, std::memcmp(w1.data(), wf.data() + j * n, n * sizeof(float))) << j;
  }
}

TEST(TrnsolverSyevj, NonFiniteInputGivesInfoAndNoHang) {
  const int n = 6;
  auto a = random_symmetric(n, n, 9);
  a[3 + 1 * n] = std::numeric_limits<double>::infinity();  // lower triangle element
  std::vector<float> af(a.begin(), a.end()), w(n);
  const auto r = ts::ssyevj({}, true, ts::Uplo::lower, n, af.data(), n, w.data(), {});
  EXPECT_EQ(r.info, n + 1);
  EXPECT_EQ(r.sweeps, 0);
  EXPECT_TRUE(std::isnan(w[0]));
  std::vector<double> wd(n);
  a[3 + 1 * n] = std::numeric_limits<double>::quiet_NaN();
  const auto rd = ts::dsyevj({}, true, ts::Uplo::lower, n, a.data(), n, wd.data(), {});
  EXPECT_EQ(rd.info, n + 1);
}

TEST(TrnsolverSyevj, MaxSweepsReachedGivesInfoNPlusOne) {
  const int n = 40;
  auto a = random_symmetric(n, n, 12);
  std::vector<float> af(a.begin(), a.end()), w(n);
  ts::SyevjParams p;
  p.max_sweeps = 2;
  const auto r = ts::ssyevj({}, false, ts::Uplo::lower, n, af.data(), n, w.data(), p);
  EXPECT_EQ(r.info, n + 1);
  EXPECT_EQ(r.sweeps, 2);
  std::vector<double> wd(n);
  const auto rd = ts::dsyevj({}, false, ts::Uplo::lower, n, a.data(), n, wd.data(), p);
  EXPECT_EQ(rd.info, n + 1);
  EXPECT_EQ(rd.sweeps, 2);
}

// ---- graded matrix (Demmel & Veselic 1992) -----------------------------------------------------

using trn_reference::jacobi_long_double;  // tests/reference/solver_oracles.hpp

TEST(TrnsolverDsyevj, GradedMatrixRelativeAccuracy) {
  const int n = 12;
  // H = G G^T + n I scaled to unit diagonal; A = D H D with D = diag(10^linspace(-8, 0)).
  std::mt19937_64 rng(11);
  std::vector<double> a = trn_reference::graded_symmetric(n, rng);
  std::vector<long double> al(a.begin(), a.end());
  const auto ref = jacobi_long_double(al, n);
  std::vector<double> ac(a), w(n), wl(n);
  const auto r = ts::dsyevj({}, false, ts::Uplo::lower, n, ac.data(), n, w.data(), {});
  ASSERT_EQ(r.info, 0);
  std::vector<double> lap(a);
  LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, lap.data(), n, wl.data());
  double worst = 0, worst_lapack = 0;
  for (int k = 0; k < n; ++k) {
    worst = std::max(worst, double(fabsl((long double)w[k] - ref[k]) / fabsl(ref[k])));
    worst_lapack = std::max(worst_lapack, double(fabsl((long double)wl[k] - ref[k]) / fabsl(ref[k])));
  }
  std::printf("[graded] smallest %.3Le largest %.3Le; dsyevj worst rel err %.2e (sweeps %d), dsyevd %.2e\n", ref[0],
              ref[n - 1], worst, r.sweeps, worst_lapack);
  EXPECT_LE(worst, 1e-13);
}


// The block path's graded case (four blocks of 32: every off-diagonal block is updated by balanced Ozaki
// DGEMMs): A = D H D, D = diag(10^linspace(-10, 0)), in its order and symmetrically permuted (every
// block pair then mixes scales). Bound (docs/trnsolver.md "Dsyevj and Dgesvdj: fp64 block Jacobi"):
// |lambda^ - lambda| / lambda <= c n u with c = 4 S ||H^-1||_2 (S sweeps). Two-sided: the error is not
// exactly zero (n = 128 eigenvalues through rounded rotations).
TEST(TrnsolverDsyevj, GradedBlockJacobiRelativeAccuracy) {
  const int n = 128;
  std::mt19937_64 rng(19);
  const std::vector<double> graded = trn_reference::graded_symmetric(n, rng, -10.0);
  // ||H^-1||_2 of H = D^-1 A D^-1 (unit diagonal), by LAPACKE dsyevd on H (well conditioned: exact enough).
  std::vector<double> h(graded.size()), hw(n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      h[i + j * n] = graded[i + j * n] / std::sqrt(graded[i + i * n] * graded[j + j * n]);
  LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, h.data(), n, hw.data());
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  for (bool permuted : {false, true}) {
    std::vector<double> a(graded.size());
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) a[i + j * n] = permuted ? graded[perm[i] + perm[j] * n] : graded[i + j * n];
    const auto ref = jacobi_long_double(std::vector<long double>(a.begin(), a.end()), n);
    std::vector<double> ac(a), w(n), wl(n), lap(a);
    ts::CallReport rep;
    const auto r = ts::dsyevj({}, true, ts::Uplo::lower, n, ac.data(), n, w.data(), {}, &rep);
    ASSERT_EQ(r.info, 0);
    LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, lap.data(), n, wl.data());
    double worst = 0, worst_lapack = 0;
    for (int k = 0; k < n; ++k) {
      worst = std::max(worst, double(fabsl((long double)w[k] - ref[k]) / fabsl(ref[k])));
      worst_lapack = std::max(worst_lapack, double(fabsl((long double)wl[k] - ref[k]) / fabsl(ref[k])));
    }
    const double c = 4.0 * r.sweeps / hw[0];
    std::printf("[graded block] n=%d %s: lambda %.2Le .. %.2Le, dsyevj worst rel err %.2e (%.3f of c n u, c = %.1f, "
                "%d sweeps), dsyevd %.2e\n",
                n, permuted ? "permuted" : "in order", ref[0], ref[n - 1], worst, worst / (c * n * kU64), c, r.sweeps,
                worst_lapack);
    EXPECT_LE(worst, c * n * kU64);
    EXPECT_GT(worst, 0.0) << "128 eigenvalues through rounded rotations: an exact match would be suspicious";
    EXPECT_GT(rep.profile.total_instructions, 0) << "the rotations ran on the engines";
  }
}

// Dsyevj's bits do not depend on host threads, emulated cores or the batch (every DGEMM is trnblas's
// deterministic Ozaki kernel; the host steps run in a fixed order).
TEST(TrnsolverDsyevj, BitIdenticalForAnyThreadOrCoreCount) {
  const int n = 70, batch = 2;  // three blocks of 32: balanced DGEMMs on the other rows
  std::vector<double> all;
  for (int k = 0; k < batch; ++k) {
    const auto a = random_symmetric(n, n, 900 + k);
    all.insert(all.end(), a.begin(), a.end());
  }
  ts::Settings s1, s2;
  s1.host_threads = 1;
  s2.host_threads = 2;
  s2.num_cores = 2;
  std::vector<double> a1(all), a2(all), a3(all.begin(), all.begin() + n * n), w1(n * batch), w2(n * batch), w3(n);
  ts::dsyevj_batched(s1, true, ts::Uplo::lower, n, a1.data(), n, w1.data(), {}, batch, nullptr);
  ts::dsyevj_batched(s2, true, ts::Uplo::lower, n, a2.data(), n, w2.data(), {}, batch, nullptr);
  ts::dsyevj_batched(s2, true, ts::Uplo::lower, n, a3.data(), n, w3.data(), {}, 1, nullptr);
  EXPECT_EQ(0, std::memcmp(w1.data(), w2.data(), w1.size() * sizeof(double)));
  EXPECT_EQ(0, std::memcmp(a1.data(), a2.data(), a1.size() * sizeof(double)));
  EXPECT_EQ(0, std::memcmp(w1.data(), w3.data(), w3.size() * sizeof(double))) << "a matrix's bits depend on the batch";
  EXPECT_EQ(0, std::memcmp(a1.data(), a3.data(), a3.size() * sizeof(double)));
}

}  // namespace

namespace {

// spotrf against LAPACKE_spotrf and the backward error ||A - L L^T||_F / ||A||_F <= n u (Higham
// Thm 10.3 gives |dA| <= gamma_{n+1} |L||L^T|; for these well-conditioned SPD matrices the normwise
// form with constant 1 holds with margin).
void check_potrf(int n, bool lower, std::uint64_t seed) {
  const int lda = n + 2;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd;
  std::vector<double> g(static_cast<std::size_t>(n) * n), a(static_cast<std::size_t>(lda) * n, 0.0);
  for (double& x : g) x = nd(rng);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += g[i + k * n] * g[j + k * n];
      a[i + static_cast<std::size_t>(j) * lda] = static_cast<double>(static_cast<float>(s / n + (i == j ? 1.0 : 0.0)));
    }
  std::vector<float> af(a.begin(), a.end()), ref(af);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (lower ? i < j : i > j) af[i + static_cast<std::size_t>(j) * lda] = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> before = af;
  ts::CallReport rep;
  const int info = ts::spotrf({}, lower ? ts::Uplo::lower : ts::Uplo::upper, n, af.data(), lda, &rep);
  ASSERT_EQ(info, 0) << n;
  ASSERT_EQ(LAPACKE_spotrf(LAPACK_COL_MAJOR, lower ? 'L' : 'U', n, ref.data(), lda), 0);
  double num = 0, den = 0, diff = 0, refn = 0;
  auto L = [&](int i, int j) -> double {  // lower-view factor
    if (j > i) return 0.0;
    return lower ? af[i + static_cast<std::size_t>(j) * lda] : af[j + static_cast<std::size_t>(i) * lda];
  };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      long double s = 0;
      for (int k = 0; k <= std::min(i, j); ++k) s += (long double)L(i, k) * L(j, k);
      const double e = double(s) - a[i + static_cast<std::size_t>(j) * lda];
      num += e * e;
      den += a[i + static_cast<std::size_t>(j) * lda] * a[i + static_cast<std::size_t>(j) * lda];
      if (i >= j) {
        const double r = lower ? ref[i + static_cast<std::size_t>(j) * lda] : ref[j + static_cast<std::size_t>(i) * lda];
        diff += (L(i, j) - r) * (L(i, j) - r);
        refn += r * r;
      }
      // The other triangle is neither read nor written.
      if (lower ? i < j : i > j) {
        EXPECT_TRUE(std::isnan(af[i + static_cast<std::size_t>(j) * lda]));
      }
    }
  const double backward = std::sqrt(num / den), vs_lapack = std::sqrt(diff / refn);
  EXPECT_LE(backward, msize(n) * kU32) << n;
  EXPECT_LE(vs_lapack, 4 * msize(n) * kU32) << n;
  EXPECT_GT(rep.profile.total_ns, 0.0);
  std::printf("[spotrf] n=%d %s backward=%.2e (n u=%.1e) vs spotrf=%.2e modeled=%.1f us\n", n, lower ? "L" : "U",
              backward, n * kU32, vs_lapack, rep.profile.total_ns * 1e-3);
}

TEST(TrnsolverSpotrf, BackwardErrorAndAgainstLapacke) {
  for (int n : {1, 5, 64, 130, 257}) {
    check_potrf(n, true, 900 + n);
    check_potrf(n, false, 950 + n);
  }
}

TEST(TrnsolverSpotrf, NotPositiveDefiniteGivesMinorOrder) {
  const int n = 150;
  std::vector<float> a(static_cast<std::size_t>(n) * n, 0.0f);
  for (int i = 0; i < n; ++i) a[i + static_cast<std::size_t>(i) * n] = 2.0f;
  a[140 + 140 * n] = -1.0f;  // leading minor of order 141 is not positive definite
  EXPECT_EQ(ts::spotrf({}, ts::Uplo::lower, n, a.data(), n), 141);
  std::vector<float> b(static_cast<std::size_t>(n) * n, 0.0f);
  for (int i = 0; i < n; ++i) b[i + static_cast<std::size_t>(i) * n] = 4.0f;
  b[3 + 3 * n] = 0.0f;
  EXPECT_EQ(ts::spotrf({}, ts::Uplo::upper, n, b.data(), n), 4);
}

}  // namespace

namespace {

// spotrs after spotrf: normwise backward error ||A X - B||_F / (||A||_F ||X||_F) <= n u, and X
// against LAPACKE_spotrf + spotrs.
TEST(TrnsolverSpotrs, SolvesAgainstLapacke) {
  for (int n : {3, 70, 200})
    for (bool lower : {true, false}) {
      const int nrhs = 5, lda = n + 1, ldb = n + 2;
      std::mt19937_64 rng(1300 + n);
      std::normal_distribution<double> nd;
      std::vector<double> g(static_cast<std::size_t>(n) * n);
      for (double& x : g) x = nd(rng);
      std::vector<float> a(static_cast<std::size_t>(lda) * n, 0.0f), b(static_cast<std::size_t>(ldb) * nrhs, 0.0f);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          double s = 0;
          for (int k = 0; k < n; ++k) s += g[i + k * n] * g[j + k * n];
          a[i + static_cast<std::size_t>(j) * lda] = static_cast<float>(s / n + (i == j ? 1.0 : 0.0));
        }
      for (int j = 0; j < nrhs; ++j)
        for (int i = 0; i < n; ++i) b[i + static_cast<std::size_t>(j) * ldb] = static_cast<float>(nd(rng));
      std::vector<float> f(a), x(b), rf(a), rx(b);
      const ts::Uplo u = lower ? ts::Uplo::lower : ts::Uplo::upper;
      ASSERT_EQ(ts::spotrf({}, u, n, f.data(), lda), 0);
      ts::CallReport rep;
      ts::spotrs({}, u, n, nrhs, f.data(), lda, x.data(), ldb, &rep);
      ASSERT_EQ(LAPACKE_spotrf(LAPACK_COL_MAJOR, lower ? 'L' : 'U', n, rf.data(), lda), 0);
      ASSERT_EQ(LAPACKE_spotrs(LAPACK_COL_MAJOR, lower ? 'L' : 'U', n, nrhs, rf.data(), lda, rx.data(), ldb), 0);
      double rn = 0, an = 0, xn = 0, dn = 0;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) an += double(a[i + j * lda]) * a[i + j * lda];
      for (int c = 0; c < nrhs; ++c)
        for (int i = 0; i < n; ++i) {
          long double s = 0;
          for (int k = 0; k < n; ++k) s += (long double)a[i + static_cast<std::size_t>(k) * lda] * x[k + static_cast<std::size_t>(c) * ldb];
          const double r = double(s) - b[i + static_cast<std::size_t>(c) * ldb];
          rn += r * r;
          const double xi = x[i + static_cast<std::size_t>(c) * ldb], ri = rx[i + static_cast<std::size_t>(c) * ldb];
          xn += xi * xi;
          dn += (xi - ri) * (xi - ri);
        }
      const double backward = std::sqrt(rn) / (std::sqrt(an) * std::sqrt(xn)), vs = std::sqrt(dn / xn);
      EXPECT_LE(backward, msize(n) * kU32) << n;
      EXPECT_LE(vs, 10 * msize(n) * kU32) << n;
      EXPECT_GT(rep.profile.total_ns, 0.0);
      std::printf("[spotrs] n=%d %s backward=%.2e vs LAPACKE=%.2e\n", n, lower ? "L" : "U", backward, vs);
    }
}

}  // namespace

namespace {

// dpotrf (panels on the host in fp64, trailing updates by Ozaki DSYRK on TensorE) and dpotrs
// against LAPACKE and the backward error ||A - L L^T||_F / ||A||_F <= n u64.
TEST(TrnsolverDpotrf, BackwardErrorAndSolve) {
  for (int n : {5, 140, 300})
    for (bool lower : {true, false}) {
      const int lda = n + 1;
      std::mt19937_64 rng(1700 + n);
      std::normal_distribution<double> nd;
      std::vector<double> g(static_cast<std::size_t>(n) * n), a(static_cast<std::size_t>(lda) * n, 0.0);
      for (double& x : g) x = nd(rng);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          double s = 0;
          for (int k = 0; k < n; ++k) s += g[i + k * n] * g[j + k * n];
          a[i + static_cast<std::size_t>(j) * lda] = s / n + (i == j ? 1.0 : 0.0);
        }
      std::vector<double> f(a), r(a);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
          if (lower ? i < j : i > j) f[i + static_cast<std::size_t>(j) * lda] = std::numeric_limits<double>::quiet_NaN();
      ts::CallReport rep;
      ASSERT_EQ(ts::dpotrf({}, lower ? ts::Uplo::lower : ts::Uplo::upper, n, f.data(), lda, &rep), 0);
      ASSERT_EQ(LAPACKE_dpotrf(LAPACK_COL_MAJOR, lower ? 'L' : 'U', n, r.data(), lda), 0);
      auto Lf = [&](int i, int j) -> long double {
        if (j > i) return 0.0L;
        return lower ? f[i + static_cast<std::size_t>(j) * lda] : f[j + static_cast<std::size_t>(i) * lda];
      };
      long double num = 0, den = 0;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          long double s = 0;
          for (int k = 0; k <= std::min(i, j); ++k) s += Lf(i, k) * Lf(j, k);
          const long double e = s - a[i + static_cast<std::size_t>(j) * lda];
          num += e * e;
          den += (long double)a[i + static_cast<std::size_t>(j) * lda] * a[i + static_cast<std::size_t>(j) * lda];
        }
      const double backward = std::sqrt(double(num / den));
      EXPECT_LE(backward, msize(n) * kU64) << n;
      if (n > 128) {
        EXPECT_GT(rep.profile.instructions[static_cast<int>(trn::Engine::tensor)], 0) << "Ozaki DSYRK on TensorE";
      }
      // Solve against LAPACKE dpotrs with the same right-hand side.
      std::vector<double> b(static_cast<std::size_t>(n) * 2), x(b);
      for (double& v : b) v = nd(rng);
      std::vector<double> xr(b);
      x = b;
      ts::dpotrs({}, lower ? ts::Uplo::lower : ts::Uplo::upper, n, 2, f.data(), lda, x.data(), n);
      ASSERT_EQ(LAPACKE_dpotrs(LAPACK_COL_MAJOR, lower ? 'L' : 'U', n, 2, r.data(), lda, xr.data(), n), 0);
      double dn = 0, xn = 0;
      for (std::size_t k = 0; k < x.size(); ++k) {
        dn += (x[k] - xr[k]) * (x[k] - xr[k]);
        xn += xr[k] * xr[k];
      }
      EXPECT_LE(std::sqrt(dn / xn), 10 * msize(n) * kU64) << n;
      std::printf("[dpotrf] n=%d %s backward=%.2e solve vs LAPACKE=%.2e tensor instr=%lld\n", n, lower ? "L" : "U",
                  backward, std::sqrt(dn / xn), (long long)rep.profile.instructions[0]);
    }
}

}  // namespace

namespace {

// sgetrf with partial pivoting against LAPACKE_sgetrf (same pivots on random matrices, factors
// close) and the backward error ||P A - L U||_F / ||A||_F <= n u; sgetrs N and T.
void check_getrf(int m, int n, bool pivot, std::uint64_t seed) {
  const int lda = m + 1;
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> nd;
  std::vector<float> a(static_cast<std::size_t>(lda) * n);
  for (float& x : a) x = nd(rng);
  if (!pivot)
    for (int i = 0; i < std::min(m, n); ++i) a[i + static_cast<std::size_t>(i) * lda] += static_cast<float>(2 * n);
  std::vector<float> f(a), r(a);
  const int k = std::min(m, n);
  std::vector<int> ip(k), rip(k);
  ts::CallReport rep;
  const int info = ts::sgetrf({}, m, n, f.data(), lda, pivot ? ip.data() : nullptr, &rep);
  ASSERT_EQ(info, 0);
  if (pivot) {
    ASSERT_EQ(LAPACKE_sgetrf(LAPACK_COL_MAJOR, m, n, r.data(), lda, rip.data()), 0);
    EXPECT_EQ(ip, rip) << "same pivots as LAPACKE sgetrf";
  }
  // P A: apply the interchanges to a copy of A in order.
  std::vector<double> pa(a.begin(), a.end());
  if (pivot)
    for (int i = 0; i < k; ++i)
      if (ip[i] - 1 != i)
        for (int c = 0; c < n; ++c) std::swap(pa[i + static_cast<std::size_t>(c) * lda], pa[ip[i] - 1 + static_cast<std::size_t>(c) * lda]);
  long double num = 0, den = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      long double s = 0;
      for (int l = 0; l <= std::min({i, j, k - 1}); ++l) {
        const long double L = (l == i) ? 1.0L : f[i + static_cast<std::size_t>(l) * lda];
        s += L * f[l + static_cast<std::size_t>(j) * lda];
      }
      const long double e = s - pa[i + static_cast<std::size_t>(j) * lda];
      num += e * e;
      den += (long double)pa[i + static_cast<std::size_t>(j) * lda] * pa[i + static_cast<std::size_t>(j) * lda];
    }
  const double backward = std::sqrt(double(num / den));
  EXPECT_LE(backward, msize(std::max(m, n)) * kU32) << m << "x" << n;
  std::printf("[sgetrf] %dx%d %s backward=%.2e modeled=%.1f us\n", m, n, pivot ? "pivot" : "no-pivot", backward,
              rep.profile.total_ns * 1e-3);
  if (m != n) return;
  for (bool trans : {false, true}) {
    std::vector<float> b(static_cast<std::size_t>(n) * 3), x;
    for (float& v : b) v = nd(rng);
    x = b;
    ts::sgetrs({}, trans, n, 3, f.data(), lda, pivot ? ip.data() : nullptr, x.data(), n);
    double rn = 0, an = 0, xn = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) an += double(a[i + j * lda]) * a[i + j * lda];
    for (int c = 0; c < 3; ++c)
      for (int i = 0; i < n; ++i) {
        long double s = 0;
        for (int l = 0; l < n; ++l)
          s += (long double)(trans ? a[l + static_cast<std::size_t>(i) * lda] : a[i + static_cast<std::size_t>(l) * lda]) *
               x[l + static_cast<std::size_t>(c) * n];
        const double e = double(s) - b[i + static_cast<std::size_t>(c) * n];
        rn += e * e;
        xn += double(x[i + c * n]) * x[i + c * n];
      }
    const double be = std::sqrt(rn) / (std::sqrt(an) * std::sqrt(xn));
    EXPECT_LE(be, msize(n) * kU32) << "getrs trans=" << trans;
    std::printf("[sgetrs] n=%d %s backward=%.2e\n", n, trans ? "T" : "N", be);
  }
}

TEST(TrnsolverSgetrf, PivotingAgainstLapackeAndSolves) {
  check_getrf(7, 7, true, 31);
  check_getrf(150, 150, true, 32);
  check_getrf(260, 200, true, 33);
  check_getrf(100, 140, true, 34);
  check_getrf(140, 140, false, 35);
}

TEST(TrnsolverSgetrf, TallPanelsBothKernels) {
  check_getrf(2200, 40, true, 36);   // transposed panel kernel: rows in two PSUM chunks
  check_getrf(600, 300, true, 37);   // three panels, the last one narrow
  check_getrf(15000, 3, true, 38);   // too tall for the transposed panel in SBUF: row-tile kernel
}

// spotrf and sgetrf give the same bits for any host thread or emulated core count (the factorization
// is one dependent sequence of launches; trnblas's GEMM/SYRK/TRSM plans do not depend on threads).
// n x n standard normal entries (column-major, ld n).
std::vector<float> normal_square(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> nd;
  std::vector<float> a(static_cast<std::size_t>(n) * n);
  for (float& x : a) x = nd(rng);
  return a;
}

TEST(TrnsolverFactorizations, BitIdenticalForAnyThreadCount) {
  const int n = 300;
  const std::vector<float> g = normal_square(n, 41);
  std::vector<float> spd(g.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += double(g[i + k * n]) * g[j + k * n];
      spd[i + static_cast<std::size_t>(j) * n] = static_cast<float>(s / n + (i == j ? 1.0 : 0.0));
    }
  ts::Settings s1, s2;
  s1.host_threads = 1;
  s2.host_threads = 2;
  s2.num_cores = 2;
  std::vector<float> c1(spd), c2(spd), l1(g), l2(g);
  ASSERT_EQ(ts::spotrf(s1, ts::Uplo::lower, n, c1.data(), n), 0);
  ASSERT_EQ(ts::spotrf(s2, ts::Uplo::lower, n, c2.data(), n), 0);
  EXPECT_EQ(0, std::memcmp(c1.data(), c2.data(), c1.size() * sizeof(float)));
  std::vector<int> p1(n), p2(n);
  ASSERT_EQ(ts::sgetrf(s1, n, n, l1.data(), n, p1.data()), 0);
  ASSERT_EQ(ts::sgetrf(s2, n, n, l2.data(), n, p2.data()), 0);
  EXPECT_EQ(p1, p2);
  EXPECT_EQ(0, std::memcmp(l1.data(), l2.data(), l1.size() * sizeof(float)));
}

TEST(TrnsolverSgetrf, ZeroPivotInfo) {
  const int n = 4;
  std::vector<float> a = {1, 2, 3, 4, 2, 4, 6, 8, 0, 1, 0, 1, 1, 0, 1, 0};  // column 2 = 2 x column 1
  std::vector<int> ip(n);
  EXPECT_EQ(ts::sgetrf({}, n, n, a.data(), n, ip.data()), 2);
}

// No pivoting (ipiv NULL) with an exact zero pivot in column 0: info = 1, that column is left
// unscaled and skipped (xGETF2), so row 0 and column 0 stay as they were and the rest is the
// unpivoted LU of A(1:, 1:) (reference: the same loop in long double, then rounded).
TEST(TrnsolverSgetrf, NoPivotZeroPivotSkipsTheColumn) {
  const int n = 40;
  std::vector<float> a = normal_square(n, 44);
  for (int i = 0; i < n; ++i) a[i + static_cast<std::size_t>(i) * n] += 2.0f * n;
  a[0] = 0.0f;
  std::vector<float> f(a);
  ASSERT_EQ(ts::sgetrf({}, n, n, f.data(), n, nullptr), 1);
  std::vector<long double> r(a.begin(), a.end());
  auto R = [&](int i, int j) -> long double& { return r[i + static_cast<std::size_t>(j) * n]; };
  for (int j = 1; j < n; ++j) {
    for (int i = j + 1; i < n; ++i) R(i, j) /= R(j, j);
    for (int k = j + 1; k < n; ++k)
      for (int i = j + 1; i < n; ++i) R(i, k) -= R(i, j) * R(j, k);
  }
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(f[i], a[i]) << "column 0 unscaled, row " << i;
    EXPECT_EQ(f[static_cast<std::size_t>(i) * n], a[static_cast<std::size_t>(i) * n]) << "row 0, column " << i;
  }
  double worst = 0;
  for (int j = 1; j < n; ++j)
    for (int i = 1; i < n; ++i)
      worst = std::max(worst, double(std::fabs(f[i + static_cast<std::size_t>(j) * n] - R(i, j)) / (1 + std::fabs(R(i, j)))));
  EXPECT_LE(worst, n * kU32) << "the rest is the unpivoted LU of A(1:, 1:)";
}

}  // namespace

namespace {

TEST(TrnsolverIrs, ForwardErrorAgainstDgesv) {
  const int n = 200;  // > 128: the trailing updates (in the low precision) take part
  struct Mode {
    trn::blas::GemmMode mode;
    const char* name;
  };
  for (double kappa : {1e1, 1e3, 1e6})
    for (const Mode m : {Mode{trn::blas::GemmMode::fp32, "DS"}, Mode{trn::blas::GemmMode::fp16, "DH"},
                         Mode{trn::blas::GemmMode::bf16, "DB"}}) {
      auto a = matrix_with_condition(n, kappa, 77);
      std::mt19937_64 rng(5);
      std::normal_distribution<double> nd;
      std::vector<double> xt(n), b(n), x(n), ref_a(a), ref_b(n);
      for (double& v : xt) v = nd(rng);
      for (int i = 0; i < n; ++i) {
        long double s = 0;
        for (int j = 0; j < n; ++j) s += (long double)a[i + j * n] * xt[j];
        b[i] = ref_b[i] = double(s);
      }
      std::vector<int> ip(n), rip(n);
      int iter = 0;
      const auto a0 = a;
      const int info = ts::dxgesv({}, m.mode, n, 1, a.data(), n, ip.data(), b.data(), n, x.data(), n, &iter);
      ASSERT_EQ(info, 0);
      ASSERT_EQ(LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, ref_a.data(), n, rip.data(), ref_b.data(), n), 0);
      double e = 0, er = 0, xn = 0;
      for (int i = 0; i < n; ++i) {
        e = std::max(e, std::fabs(x[i] - xt[i]));
        er = std::max(er, std::fabs(ref_b[i] - xt[i]));
        xn = std::max(xn, std::fabs(xt[i]));
      }
      EXPECT_LE(e / xn, 10 * er / xn + 1e-15) << m.name << " kappa " << kappa;
      if (iter >= 0) {
        EXPECT_EQ(0, std::memcmp(a.data(), a0.data(), a.size() * sizeof(double))) << "A unchanged without fallback";
      }
      if (m.mode == trn::blas::GemmMode::fp32 && kappa <= 1e6) {
        EXPECT_GE(iter, 1) << "fp32 LU + classical IR converges up to kappa 1e6";
      }
      std::printf("[%sgesv] kappa=%.0e iter=%d forward=%.2e dgesv=%.2e\n", m.name, kappa, iter, e / xn, er / xn);
    }
}

}  // namespace

namespace {

// dgetrf (recursive panels with Ozaki DGEMM updates and DMA interchanges, Ozaki trailing updates)
// against LAPACKE_dgetrf: the same pivots (LAPACK's partial pivoting choice), factors within the
// bound of docs/trnsolver.md "Dgetrf", a backward error ||P A - L U||_max <= gamma max|L||U| that is
// not vacuous (above u64/4: the test could fail both ways), and the same bits on 1 and 2 host
// threads and cores.
TEST(TrnsolverDgetrf, AgainstLapacke) {
  for (const auto& [m, n] : {std::pair{200, 200}, std::pair{260, 150}, std::pair{150, 260}}) {
    std::mt19937_64 rng(m * 7 + n);
    std::normal_distribution<double> nd;
    std::vector<double> a(static_cast<std::size_t>(m) * n);
    for (double& x : a) x = nd(rng);
    std::vector<double> f(a), r(a);
    const int k = std::min(m, n);
    std::vector<int> ip(k), rip(k);
    ts::CallReport rep;
    ASSERT_EQ(ts::dgetrf({}, m, n, f.data(), m, ip.data(), &rep), 0);
    ASSERT_EQ(LAPACKE_dgetrf(LAPACK_COL_MAJOR, m, n, r.data(), m, rip.data()), 0);
    EXPECT_EQ(ip, rip) << "LAPACK's pivots";
    double d = 0, rn = 0;
    for (std::size_t i = 0; i < f.size(); ++i) {
      d = std::max(d, std::fabs(f[i] - r[i]));
      rn = std::max(rn, std::fabs(r[i]));
    }
    EXPECT_LE(d / rn, std::max(m, n) * kU64 * 10) << m << "x" << n;
    // Backward error: (P A)(i, j) - sum_k L(i, k) U(k, j) against |L||U| (long double sums).
    std::vector<double> pa(a);
    for (int j = 0; j < k; ++j)
      if (ip[j] - 1 != j)
        for (int c = 0; c < n; ++c) std::swap(pa[j + static_cast<std::size_t>(c) * m], pa[ip[j] - 1 + static_cast<std::size_t>(c) * m]);
    double worst = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        long double s = 0, sa = 0;
        for (int q = 0; q <= std::min({i, j, k - 1}); ++q) {
          const long double l = q == i ? 1.0L : f[i + static_cast<std::size_t>(q) * m];
          const long double u = f[q + static_cast<std::size_t>(j) * m];
          s += l * u;
          sa += std::fabs(l * u);
        }
        if (sa > 0) worst = std::max(worst, double(std::fabs(s - pa[i + static_cast<std::size_t>(j) * m]) / sa));
      }
    const double gamma = 2.0 * (k + 2) * kU64;  // docs/trnsolver.md "Dgetrf": (k + 2) u Ozaki products, two roundings each
    EXPECT_LE(worst, gamma) << m << "x" << n;
    EXPECT_GT(worst, kU64 / 4) << "the check sees rounding: not vacuous";
    EXPECT_GT(rep.profile.instructions[static_cast<int>(trn::Engine::tensor)], 0);
    EXPECT_GT(rep.profile.instructions[static_cast<int>(trn::Engine::dma)], 0) << "interchanges by DMA";
    // Host steps: the 32-column leaves (xGETF2, O(32 m) per column), plus the Ozaki GEMMs' own.
    EXPECT_LE(rep.host_fp64_flops, 66.0 * m * k) << "O(32 m) host flops per column";
    // Determinism across host threads and cores.
    for (const int threads : {1, 2}) {
      ts::Settings st;
      st.host_threads = threads;
      st.num_cores = threads;
      std::vector<double> g(a);
      std::vector<int> gp(k);
      ASSERT_EQ(ts::dgetrf(st, m, n, g.data(), m, gp.data()), 0);
      EXPECT_EQ(0, std::memcmp(g.data(), f.data(), f.size() * sizeof(double))) << threads << " threads";
      EXPECT_EQ(gp, ip);
    }
    std::printf("[dgetrf] %dx%d max |LU - LAPACKE| / max|LU| = %.2e backward %.2e (bound %.2e)\n", m, n, d / rn, worst,
                gamma);
  }
}

// Rows whose pivot choice is a tie after rounding (equal magnitudes): IDAMAX's first index, as LAPACK.
TEST(TrnsolverDgetrf, TiesTakeTheFirstRowAsLapack) {
  const int n = 40;
  std::vector<double> a(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) a[i + static_cast<std::size_t>(j) * n] = ((i * 7 + j * 3) % 5) - 2.0 + (i == j ? 0.5 : 0.0);
  std::vector<double> f(a), r(a);
  std::vector<int> ip(n), rip(n);
  const int info = ts::dgetrf({}, n, n, f.data(), n, ip.data());
  EXPECT_EQ(info, LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, r.data(), n, rip.data()));
  EXPECT_EQ(ip, rip);
}

}  // namespace

namespace {

// Non-finite input: every routine terminates with a documented outcome.
TEST(TrnsolverNonFinite, FactorizationsAndIrsTerminate) {
  const int n = 40;
  std::vector<float> a(static_cast<std::size_t>(n) * n, 0.0f);
  for (int i = 0; i < n; ++i) a[i + static_cast<std::size_t>(i) * n] = 3.0f;
  a[5 + 5 * n] = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> c(a);
  EXPECT_EQ(ts::spotrf({}, ts::Uplo::lower, n, c.data(), n), 6) << "first non-finite pivot";
  c = a;
  std::vector<int> ip(n);
  EXPECT_EQ(ts::sgetrf({}, n, n, c.data(), n, ip.data()), 0) << "NaN pivot is not an exact zero: completes";
  std::vector<double> ad(a.begin(), a.end()), b(n, 1.0), x(n);
  int iter = 0;
  EXPECT_EQ(ts::dxgesv({}, trn::blas::GemmMode::bf16, n, 1, ad.data(), n, ip.data(), b.data(), n, x.data(), n, &iter), 0);
  EXPECT_EQ(iter, -2) << "non-finite A: fp64 fallback";
}

}  // namespace
