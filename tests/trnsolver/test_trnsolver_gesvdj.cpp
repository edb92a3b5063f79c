// gesvdj (one-sided Jacobi SVD) through the C API: singular values against LAPACKE_dgesvd, the
// orthogonality of U and V, the reconstruction ||A - U S V^T|| / ||A||, econ and full mode (U
// completed), rank deficiency, batched, NOVECTOR, non-finite input and sweep limits, argument
// positions with outputs untouched, relative accuracy on a graded matrix against a long-double
// one-sided Jacobi written here, and the project's own C99 walkthrough of the gesvdj call sequence.
//
// Bounds (u = 2^-24 for S, 2^-53 for D; S = executed sweeps, K = min(m, n), M = max(m, n),
// tol = the effective tolerance max(tol, 4 sqrt(M) u)):
//   - A plane rotation applied in floating point is exact up to a perturbation of <= 6u relative to
//     the pair it rotates (Golub & Van Loan, Matrix Computations 4th ed., 5.1.10); every column takes
//     part in at most S (K - 1) rotations, so the computed columns are those of (A + dA) J_exact with
//     ||dA||_F <= 6 u S K ||A||_F (first order).
//   - At exit every column pair satisfies |x_p^T x_q| <= tol ||x_p|| ||x_q|| (rotations of the last
//     sweep only shrink it), so the normalised columns are orthonormal to K tol in Frobenius norm,
//     and the column norms are the singular values of the computed columns to K tol ||A||_2 (Weyl).
//   Hence |sigma_i - sigma_ref,i| <= (6 u S K + K tol) ||A||_F, ||A - U S V^T||_F / ||A||_F <= the same
//   factor, ||V^T V - I||_F <= 6 u S K sqrt(K) (the accumulated rotations), ||U^T U - I||_F <=
//   cols (tol + 2 M u) (pairwise orthogonality plus the normalisation's rounding; the completed
//   columns come from a second Jacobi run, bounded alike with its own M).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "solver_reference.hpp"
#include "trn/solver/solver.hpp"
#include "trnsolver.h"

extern "C" int trnsolver_walkthrough_gesvdj(int m, int n, const double* A, double* S, double* U, double* V, int* info,
                                            double* residual, int* sweeps);

namespace {

std::vector<double> random_matrix(int m, int n, int lda, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd(0.0, 1.0);
  std::vector<double> a(static_cast<std::size_t>(lda) * std::max(n, 1), 0.0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) a[i + static_cast<std::size_t>(j) * lda] = nd(rng);
  return a;
}

std::vector<double> dgesvd_values(std::vector<double> a, int m, int n, int lda) {
  std::vector<double> s(static_cast<std::size_t>(std::min(m, n))), superb(s.size() + 1);
  EXPECT_EQ(LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, a.data(), lda, s.data(), nullptr, 1, nullptr, 1,
                           superb.data()),
            0);
  return s;
}

// ||Q^T Q - I||_F of the rows x cols column-major Q (long double).
template <class T>
double orthogonality(const T* q, int rows, int cols, int ld) {
  long double f = 0;
  for (int a = 0; a < cols; ++a)
    for (int b = 0; b < cols; ++b) {
      long double d = 0;
      for (int i = 0; i < rows; ++i) d += (long double)q[i + a * ld] * (long double)q[i + b * ld];
      d -= a == b ? 1 : 0;
      f += d * d;
    }
  return std::sqrt(static_cast<double>(f));
}

struct Gesvdj {
  trnsolverDnHandle_t h = nullptr;
  gesvdjInfo_t params = nullptr;
  Gesvdj() {
    EXPECT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(trnsolverDnCreateGesvdjInfo(&params), TRNSOLVER_STATUS_SUCCESS);
  }
  ~Gesvdj() {
    trnsolverDnDestroyGesvdjInfo(params);
    trnsolverDnDestroy(h);
  }
};

template <class T>
trnsolverStatus_t call(Gesvdj& g, bool vectors, int econ, int m, int n, T* A, int lda, T* S, T* U, int ldu, T* V,
                       int ldv, int* info) {
  const trnsolverEigMode_t jobz = vectors ? TRNSOLVER_EIG_MODE_VECTOR : TRNSOLVER_EIG_MODE_NOVECTOR;
  int lwork = 0;
  T work[4];
  if constexpr (std::is_same_v<T, float>) {
    EXPECT_EQ(trnsolverDnSgesvdj_bufferSize(g.h, jobz, econ, m, n, A, lda, S, U, ldu, V, ldv, &lwork, g.params),
              TRNSOLVER_STATUS_SUCCESS);
    return trnsolverDnSgesvdj(g.h, jobz, econ, m, n, A, lda, S, U, ldu, V, ldv, work, lwork, info, g.params);
  } else {
    EXPECT_EQ(trnsolverDnDgesvdj_bufferSize(g.h, jobz, econ, m, n, A, lda, S, U, ldu, V, ldv, &lwork, g.params),
              TRNSOLVER_STATUS_SUCCESS);
    return trnsolverDnDgesvdj(g.h, jobz, econ, m, n, A, lda, S, U, ldu, V, ldv, work, lwork, info, g.params);
  }
}

// One matrix: every bound of the header comment.
template <class T>
void check_svd(int m, int n, int econ, const std::vector<double>& a64, int lda) {
  SCOPED_TRACE(testing::Message() << "m " << m << " n " << n << " econ " << econ);
  const double u = std::is_same_v<T, float> ? 0x1p-24 : 0x1p-53;
  const int K = std::min(m, n), M = std::max(m, n);
  const int ucols = econ ? K : m, vcols = econ ? K : n;
  std::vector<T> A(a64.begin(), a64.end()), S(static_cast<std::size_t>(K)), U(static_cast<std::size_t>(m) * ucols, T(-9)),
      V(static_cast<std::size_t>(n) * vcols, T(-9));
  const std::vector<T> A0 = A;
  Gesvdj g;
  int info = -7;
  ASSERT_EQ(call<T>(g, true, econ, m, n, A.data(), lda, S.data(), U.data(), m, V.data(), n, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(A, A0);  // A is not modified
  int sweeps = 0;
  double residual = -1;
  ASSERT_EQ(trnsolverDnXgesvdjGetSweeps(g.h, g.params, &sweeps), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnXgesvdjGetResidual(g.h, g.params, &residual), TRNSOLVER_STATUS_SUCCESS);
  const double tol = std::is_same_v<T, float> ? trn::solver::sgesvdj_effective_tolerance(M, 0)
                                              : trn::solver::dgesvdj_effective_tolerance(M, 0);
  EXPECT_LE(residual, tol);
  EXPECT_LE(sweeps, (std::is_same_v<T, float> ? 12 : 15));  // quadratic convergence: ~log2 of the bits
  // Singular values (the sample's data are exact in both types: the references use the same A).
  std::vector<double> ref = dgesvd_values(std::vector<double>(A0.begin(), A0.end()), m, n, lda);
  double fro = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) fro += double(A0[i + j * lda]) * double(A0[i + j * lda]);
  fro = std::sqrt(fro);
  const double factor = 6 * u * sweeps * K + K * tol;
  const double lapack = 8 * M * 0x1p-53;  // dgesvd's own backward error (LAPACK Users' Guide 4.9)
  for (int i = 0; i < K; ++i) {
    EXPECT_NEAR(S[i], ref[i], (factor + lapack) * fro) << "sigma " << i;
    if (i > 0) {
      EXPECT_GE(S[i - 1], S[i]);
    }
  }
  // Reconstruction and orthogonality.
  long double r2 = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      long double x = A0[i + j * lda];
      for (int k = 0; k < K; ++k) x -= (long double)U[i + k * m] * S[k] * V[j + k * n];
      r2 += x * x;
    }
  EXPECT_LE(std::sqrt(static_cast<double>(r2)), factor * fro);
  if (std::getenv("GESVDJ_PRINT") != nullptr)
    std::printf("m %d n %d econ %d sweeps %d recon %.2e (bound %.2e) orthU %.2e orthV %.2e\n", m, n, econ, sweeps,
                static_cast<double>(std::sqrt(r2)) / fro, factor, orthogonality(U.data(), m, ucols, m),
                orthogonality(V.data(), n, vcols, n));
  EXPECT_LE(orthogonality(V.data(), n, vcols, n), 6 * u * sweeps * K * std::sqrt(double(K)) + vcols * (tol + 2 * M * u));
  EXPECT_LE(orthogonality(U.data(), m, ucols, m), ucols * (tol + 2 * M * u));
}

TEST(TrnsolverGesvdj, SingleAgainstDgesvdEconAndFull) {
  const int shapes[][2] = {{1, 1}, {5, 3}, {3, 5}, {8, 8}, {17, 6}, {6, 17}, {33, 32}, {130, 9}};
  std::uint64_t seed = 11;
  for (const auto& s : shapes)
    for (int econ : {0, 1}) {
      const auto a = random_matrix(s[0], s[1], s[0] + 1, seed++);
      check_svd<float>(s[0], s[1], econ, a, s[0] + 1);
    }
}

TEST(TrnsolverGesvdj, DoubleAgainstDgesvdEconAndFull) {
  const int shapes[][2] = {{1, 1}, {7, 4}, {4, 7}, {16, 16}, {40, 13}};
  std::uint64_t seed = 77;
  for (const auto& s : shapes)
    for (int econ : {0, 1}) check_svd<double>(s[0], s[1], econ, random_matrix(s[0], s[1], s[0], seed++), s[0]);
}

// Rank 4 matrices: the U columns of the zero singular values (and of full mode) are completed to an
// orthonormal basis by the projector run.
TEST(TrnsolverGesvdj, RankDeficientCompletesU) {
  for (int dbl = 0; dbl < 2; ++dbl) {
    const int m = 12, n = 9, r = 4;
    const auto b = random_matrix(m, r, m, 5), c = random_matrix(r, n, r, 6);
    std::vector<double> a(static_cast<std::size_t>(m) * n, 0.0);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        for (int k = 0; k < r; ++k) a[i + j * m] += b[i + k * m] * c[k + j * r];
    for (int econ : {0, 1}) {
      if (dbl)
        check_svd<double>(m, n, econ, a, m);
      else
        check_svd<float>(m, n, econ, a, m);
    }
  }
}

TEST(TrnsolverGesvdj, NovectorLeavesUVUntouchedAndMatchesVectors) {
  const int m = 10, n = 7;
  const auto a = random_matrix(m, n, m, 3);
  std::vector<float> A(a.begin(), a.end()), S1(n), S2(n), U(m * m, 5.0f), V(n * n, 6.0f);
  Gesvdj g;
  int info = -1;
  ASSERT_EQ(call<float>(g, false, 0, m, n, A.data(), m, S1.data(), U.data(), m, V.data(), n, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_TRUE(std::all_of(U.begin(), U.end(), [](float x) { return x == 5.0f; }));
  EXPECT_TRUE(std::all_of(V.begin(), V.end(), [](float x) { return x == 6.0f; }));
  ASSERT_EQ(call<float>(g, true, 0, m, n, A.data(), m, S2.data(), U.data(), m, V.data(), n, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(S1, S2);  // the same sweeps: vectors only add the V accumulation
}

TEST(TrnsolverGesvdj, BatchedMatchesSingleAndSortOff) {
  const int m = 6, n = 4, batch = 3, lda = 7, ldu = 6, ldv = 5;
  std::vector<float> A(static_cast<std::size_t>(lda) * n * batch), S(n * batch), U(ldu * m * batch), V(ldv * n * batch);
  for (int b = 0; b < batch; ++b) {
    const auto a = random_matrix(m, n, lda, 100 + b);
    std::copy(a.begin(), a.end(), A.begin() + b * lda * n);
  }
  Gesvdj g;
  std::vector<int> info(batch, -5);
  int lwork = 0;
  ASSERT_EQ(trnsolverDnSgesvdjBatched_bufferSize(g.h, TRNSOLVER_EIG_MODE_VECTOR, m, n, A.data(), lda, S.data(), U.data(),
                                                 ldu, V.data(), ldv, &lwork, g.params, batch),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<float> work(static_cast<std::size_t>(lwork));
  ASSERT_EQ(trnsolverDnSgesvdjBatched(g.h, TRNSOLVER_EIG_MODE_VECTOR, m, n, A.data(), lda, S.data(), U.data(), ldu,
                                      V.data(), ldv, work.data(), lwork, info.data(), g.params, batch),
            TRNSOLVER_STATUS_SUCCESS);
  double res;
  EXPECT_EQ(trnsolverDnXgesvdjGetResidual(g.h, g.params, &res), TRNSOLVER_STATUS_NOT_SUPPORTED);
  for (int b = 0; b < batch; ++b) {
    EXPECT_EQ(info[b], 0);
    std::vector<float> Ab(A.begin() + b * lda * n, A.begin() + (b + 1) * lda * n), Sb(n), Ub(m * m), Vb(n * n);
    int ib = -1;
    ASSERT_EQ(call<float>(g, true, 0, m, n, Ab.data(), lda, Sb.data(), Ub.data(), m, Vb.data(), n, &ib), TRNSOLVER_STATUS_SUCCESS);
    for (int k = 0; k < n; ++k) EXPECT_EQ(S[b * n + k], Sb[k]);  // same kernel, same bits
    for (int j = 0; j < m; ++j)
      for (int i = 0; i < m; ++i) EXPECT_EQ(U[b * ldu * m + i + j * ldu], Ub[i + j * m]);
  }
  // sort_svd = 0: the same multiset of values, in the order the sweeps leave them.
  ASSERT_EQ(trnsolverDnXgesvdjSetSortEig(g.params, 0), TRNSOLVER_STATUS_SUCCESS);
  std::vector<float> S2(S.size());
  ASSERT_EQ(trnsolverDnSgesvdjBatched(g.h, TRNSOLVER_EIG_MODE_NOVECTOR, m, n, A.data(), lda, S2.data(), U.data(), ldu,
                                      V.data(), ldv, work.data(), lwork, info.data(), g.params, batch),
            TRNSOLVER_STATUS_SUCCESS);
  for (int b = 0; b < batch; ++b) {
    std::vector<float> x(S2.begin() + b * n, S2.begin() + (b + 1) * n), y(S.begin() + b * n, S.begin() + (b + 1) * n);
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    EXPECT_EQ(x, y);
  }
}

// The batched driver runs up to jacobi_group_size matrices (8 at 32 x 32) in one launch with their
// instructions interleaved (gesvdj.cpp, jacobi_f32_group): 10 matrices are a group of 8 and one of 2.
// Each matrix must still give the single call's bits -- S, U, V and info -- including a NaN member
// (info n + 1, S NaN, U and V untouched) and a rank-1 member (U completed by the projector's run),
// whose neighbours in the group keep sweeping after they stopped.
TEST(TrnsolverGesvdj, BatchedGroupsMatchSingleCallsBitForBit) {
  const int m = 32, n = 32, batch = 10, lda = 33;
  std::vector<float> A(static_cast<std::size_t>(lda) * n * batch);
  for (int b = 0; b < batch; ++b) {
    const auto a = random_matrix(m, n, lda, 300 + b);
    float* ab = A.data() + static_cast<std::size_t>(b) * lda * n;
    std::copy(a.begin(), a.end(), ab);
    if (b == 3) ab[3 + 4 * lda] = std::nanf("");
    if (b == 6)
      for (int j = 1; j < n; ++j)
        for (int i = 0; i < m; ++i) ab[i + j * lda] = ab[i] * static_cast<float>(j + 1);
  }
  const std::vector<float> A0 = A;
  std::vector<float> S(static_cast<std::size_t>(n) * batch), U(static_cast<std::size_t>(m) * m * batch, 0.0f),
      V(static_cast<std::size_t>(n) * n * batch, 0.0f);
  Gesvdj g;
  std::vector<int> info(batch, -5);
  int lwork = 0;
  ASSERT_EQ(trnsolverDnSgesvdjBatched_bufferSize(g.h, TRNSOLVER_EIG_MODE_VECTOR, m, n, A.data(), lda, S.data(), U.data(),
                                                 m, V.data(), n, &lwork, g.params, batch),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<float> work(static_cast<std::size_t>(lwork));
  ASSERT_EQ(trnsolverDnSgesvdjBatched(g.h, TRNSOLVER_EIG_MODE_VECTOR, m, n, A.data(), lda, S.data(), U.data(), m,
                                      V.data(), n, work.data(), lwork, info.data(), g.params, batch),
            TRNSOLVER_STATUS_SUCCESS);
  const auto same_bits = [](const float* x, const float* y, int count) { return std::memcmp(x, y, sizeof(float) * count) == 0; };
  for (int b = 0; b < batch; ++b) {
    std::vector<float> Ab(A0.begin() + static_cast<std::ptrdiff_t>(b) * lda * n,
                          A0.begin() + static_cast<std::ptrdiff_t>(b + 1) * lda * n),
        Sb(n), Ub(static_cast<std::size_t>(m) * m, 0.0f), Vb(static_cast<std::size_t>(n) * n, 0.0f);
    int ib = -5;
    ASSERT_EQ(call<float>(g, true, 0, m, n, Ab.data(), lda, Sb.data(), Ub.data(), m, Vb.data(), n, &ib),
              TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info[b], ib) << "matrix " << b;
    EXPECT_TRUE(same_bits(S.data() + b * n, Sb.data(), n)) << "S of matrix " << b;
    EXPECT_TRUE(same_bits(U.data() + static_cast<std::size_t>(b) * m * m, Ub.data(), m * m)) << "U of matrix " << b;
    EXPECT_TRUE(same_bits(V.data() + static_cast<std::size_t>(b) * n * n, Vb.data(), n * n)) << "V of matrix " << b;
  }
  EXPECT_EQ(info[3], n + 1);
  EXPECT_TRUE(std::isnan(S[3 * n]));
  EXPECT_LE(S[6 * n + 1], 1e-5f * S[6 * n]);  // rank 1: the other singular values at rounding level
}

// SgesvdjBatched packs matrices of at most 64 rows 128 / slot per partition range (slot 32 or 64,
// block-diagonal partition sums, each matrix finished when it stops): every matrix's bits, info and
// sweep count must be those of its own call, for both slot heights, wide and tall shapes, odd
// column counts (the padding column), a partly filled last pack, a NaN member (its rows must not
// reach the other slots), a rank-1 member (the projector run) and a sweep limit that stops every
// member unconverged.
TEST(TrnsolverGesvdj, PackedBatchesMatchSingleCallsBitForBit) {
  struct Case {
    int m, n, batch, sweeps, nan_member, rank1_member;
  };
  const Case cases[] = {{17, 6, 5, 15, 2, -1}, {6, 17, 7, 15, -1, 3}, {40, 33, 6, 15, 0, 5},
                        {31, 31, 11, 15, -1, -1}, {64, 48, 3, 2, -1, -1}, {2, 3, 9, 0, 4, -1}};
  trn::solver::Settings s;
  for (const auto target : {trn::Generation::trn1, trn::Generation::trn2}) {
    s.target = target;
    std::uint64_t seed = 900;
    for (const Case& c : cases) {
      const int lda = c.m + 1, k = std::min(c.m, c.n);
      std::vector<float> A(static_cast<std::size_t>(lda) * c.n * c.batch);
      for (int b = 0; b < c.batch; ++b) {
        const auto a = random_matrix(c.m, c.n, lda, seed++);
        float* ab = A.data() + static_cast<std::size_t>(b) * lda * c.n;
        for (std::size_t i = 0; i < a.size(); ++i) ab[i] = static_cast<float>(a[i]) * (b % 2 == 0 ? 1.0f : 3.0e5f);
        if (b == c.nan_member) ab[1] = std::nanf("");
        if (b == c.rank1_member)
          for (int j = 1; j < c.n; ++j)
            for (int i = 0; i < c.m; ++i) ab[i + j * lda] = ab[i] * static_cast<float>(j + 1);
      }
      trn::solver::GesvdjParams p;
      p.max_sweeps = c.sweeps;
      std::vector<float> S(static_cast<std::size_t>(k) * c.batch), U(static_cast<std::size_t>(c.m) * c.m * c.batch),
          V(static_cast<std::size_t>(c.n) * c.n * c.batch);
      std::vector<float> Aw = A;
      const auto res = trn::solver::sgesvdj_batched(s, true, c.m, c.n, Aw.data(), lda, S.data(), U.data(), c.m, V.data(),
                                                    c.n, p, c.batch);
      for (int b = 0; b < c.batch; ++b) {
        std::vector<float> Ab(A.begin() + static_cast<std::ptrdiff_t>(b) * lda * c.n,
                              A.begin() + static_cast<std::ptrdiff_t>(b + 1) * lda * c.n),
            Sb(k), Ub(static_cast<std::size_t>(c.m) * c.m), Vb(static_cast<std::size_t>(c.n) * c.n);
        const auto one = trn::solver::sgesvdj_batched(s, true, c.m, c.n, Ab.data(), lda, Sb.data(), Ub.data(), c.m,
                                                      Vb.data(), c.n, p, 1);
        const std::string what = std::to_string(c.m) + "x" + std::to_string(c.n) + " matrix " + std::to_string(b);
        EXPECT_EQ(res[b].info, one[0].info) << what;
        EXPECT_EQ(res[b].sweeps, one[0].sweeps) << what;
        EXPECT_EQ(std::memcmp(S.data() + static_cast<std::size_t>(b) * k, Sb.data(), sizeof(float) * k), 0) << what;
        EXPECT_EQ(std::memcmp(U.data() + static_cast<std::size_t>(b) * c.m * c.m, Ub.data(), sizeof(float) * Ub.size()), 0)
            << what;
        EXPECT_EQ(std::memcmp(V.data() + static_cast<std::size_t>(b) * c.n * c.n, Vb.data(), sizeof(float) * Vb.size()), 0)
            << what;
      }
      if (c.nan_member >= 0) {
        EXPECT_EQ(res[c.nan_member].info, k + 1);
      }
    }
  }
}

TEST(TrnsolverGesvdj, NonFiniteAndSweepLimit) {
  Gesvdj g;
  const int m = 20, n = 20;
  auto a = random_matrix(m, n, m, 9);
  std::vector<float> A(a.begin(), a.end()), S(n), U(m * m), V(n * n);
  int info = 0;
  ASSERT_EQ(trnsolverDnXgesvdjSetMaxSweeps(g.params, 1), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(call<float>(g, true, 0, m, n, A.data(), m, S.data(), U.data(), m, V.data(), n, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, n + 1);  // one sweep cannot orthogonalise 20 random columns to 4 sqrt(20) u
  int sweeps = 0;
  EXPECT_EQ(trnsolverDnXgesvdjGetSweeps(g.h, g.params, &sweeps), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(sweeps, 1);
  ASSERT_EQ(trnsolverDnXgesvdjSetMaxSweeps(g.params, 100), TRNSOLVER_STATUS_SUCCESS);
  A[3 + 4 * m] = std::nanf("");
  for (int dbl = 0; dbl < 2; ++dbl) {
    info = 0;
    if (dbl) {
      std::vector<double> Ad(A.begin(), A.end()), Sd(n), Ud(m * m), Vd(n * n);
      ASSERT_EQ(call<double>(g, true, 0, m, n, Ad.data(), m, Sd.data(), Ud.data(), m, Vd.data(), n, &info), TRNSOLVER_STATUS_SUCCESS);
      EXPECT_TRUE(std::isnan(Sd[0]));
    } else {
      ASSERT_EQ(call<float>(g, true, 0, m, n, A.data(), m, S.data(), U.data(), m, V.data(), n, &info), TRNSOLVER_STATUS_SUCCESS);
      EXPECT_TRUE(std::isnan(S[0]));
    }
    EXPECT_EQ(info, n + 1);
  }
}

// Every argument rejected in cuSOLVER order: INVALID_VALUE, *info = -position, logged position,
// nothing else written.
TEST(TrnsolverGesvdj, ArgumentPositionsLeaveOutputsUntouched) {
  Gesvdj g;
  const int m = 4, n = 3;
  std::vector<float> A(16, 1.5f), S(4, 2.5f), U(16, 3.5f), V(9, 4.5f), work(4, 0.0f);
  const auto A0 = A, S0 = S, U0 = U, V0 = V;
  const auto vec = TRNSOLVER_EIG_MODE_VECTOR;
  trnsolverEigMode_t bad_jobz;
  const int bad = 7;
  std::memcpy(&bad_jobz, &bad, sizeof bad);
  struct Case {
    int position;
    trnsolverStatus_t st;
    int info;
  };
  std::vector<Case> cases;
  auto run = [&](int pos, trnsolverEigMode_t jobz, int mm, int nn, float* a, int lda, float* s, float* u, int ldu, float* v,
                 int ldv, float* w, int lwork, gesvdjInfo_t p) {
    int info = 99;
    const trnsolverStatus_t st = trnsolverDnSgesvdj(g.h, jobz, 0, mm, nn, a, lda, s, u, ldu, v, ldv, w, lwork, &info, p);
    cases.push_back({pos, st, info});
  };
  run(1, bad_jobz, m, n, A.data(), m, S.data(), U.data(), m, V.data(), n, work.data(), 1, g.params);
  run(3, vec, -1, n, A.data(), m, S.data(), U.data(), m, V.data(), n, work.data(), 1, g.params);
  run(4, vec, m, -2, A.data(), m, S.data(), U.data(), m, V.data(), n, work.data(), 1, g.params);
  run(5, vec, m, n, nullptr, m, S.data(), U.data(), m, V.data(), n, work.data(), 1, g.params);
  run(6, vec, m, n, A.data(), m - 1, S.data(), U.data(), m, V.data(), n, work.data(), 1, g.params);
  run(7, vec, m, n, A.data(), m, nullptr, U.data(), m, V.data(), n, work.data(), 1, g.params);
  run(8, vec, m, n, A.data(), m, S.data(), nullptr, m, V.data(), n, work.data(), 1, g.params);
  run(9, vec, m, n, A.data(), m, S.data(), U.data(), m - 1, V.data(), n, work.data(), 1, g.params);
  run(10, vec, m, n, A.data(), m, S.data(), U.data(), m, nullptr, n, work.data(), 1, g.params);
  run(11, vec, m, n, A.data(), m, S.data(), U.data(), m, V.data(), n - 1, work.data(), 1, g.params);
  run(12, vec, m, n, A.data(), m, S.data(), U.data(), m, V.data(), n, nullptr, 1, g.params);
  run(13, vec, m, n, A.data(), m, S.data(), U.data(), m, V.data(), n, work.data(), 0, g.params);
  run(15, vec, m, n, A.data(), m, S.data(), U.data(), m, V.data(), n, work.data(), 1, nullptr);
  for (const Case& c : cases) {
    EXPECT_EQ(c.st, TRNSOLVER_STATUS_INVALID_VALUE) << "position " << c.position;
    EXPECT_EQ(c.info, -c.position);
  }
  int pos = -1;
  (void)pos;
  EXPECT_EQ(trnsolverDnSgesvdj(g.h, vec, 0, m, n, A.data(), m, S.data(), U.data(), m, V.data(), n, work.data(), 1,
                               nullptr, g.params),
            TRNSOLVER_STATUS_INVALID_VALUE);  // info (14) NULL
  EXPECT_EQ(trnsolverDnSgesvdj(g.h, vec, 0, 2000, n, A.data(), 2000, S.data(), U.data(), 2000, V.data(), n, work.data(), 1,
                               nullptr, g.params),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(A, A0);
  EXPECT_EQ(S, S0);
  EXPECT_EQ(U, U0);
  EXPECT_EQ(V, V0);
  // Beyond the SBUF-resident kernel: NOT_SUPPORTED (after the argument checks).
  int info = 0;
  std::vector<float> big(2000 * 2, 1.0f), bs(2), bu(1), bv(4);
  EXPECT_EQ(trnsolverDnSgesvdj(g.h, TRNSOLVER_EIG_MODE_NOVECTOR, 0, 2000, 2, big.data(), 2000, bs.data(), bu.data(), 2000,
                               bv.data(), 2, work.data(), 1, &info, g.params),
            TRNSOLVER_STATUS_NOT_SUPPORTED);
  // Destroyed parameters are an invalid params argument.
  gesvdjInfo_t p2 = nullptr;
  ASSERT_EQ(trnsolverDnCreateGesvdjInfo(&p2), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnDestroyGesvdjInfo(p2), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnDestroyGesvdjInfo(p2), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnXgesvdjSetTolerance(g.params, -1.0), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnXgesvdjSetMaxSweeps(g.params, 0), TRNSOLVER_STATUS_INVALID_VALUE);
}

// Demmel & Veselic (SIMAX 13(4), 1992): one-sided Jacobi with the relative stopping test computes
// every singular value of A = B D (B well conditioned, D a wide-range column scaling) to relative
// accuracy ~ kappa(B) u, however small. Reference: the same algorithm in long double, written here.
std::vector<long double> jacobi_long_double(std::vector<long double> a, int m, int n) {
  for (int sweep = 0; sweep < 60; ++sweep) {
    bool rotated = false;
    for (int p = 0; p < n - 1; ++p)
      for (int q = p + 1; q < n; ++q) {
        long double al = 0, be = 0, ga = 0;
        for (int i = 0; i < m; ++i) {
          al += a[i + p * m] * a[i + p * m];
          be += a[i + q * m] * a[i + q * m];
          ga += a[i + p * m] * a[i + q * m];
        }
        if (std::fabs(ga) <= 1e-19L * std::sqrt(al * be)) continue;
        rotated = true;
        const long double zeta = (be - al) / (2 * ga);
        const long double t = (zeta >= 0 ? 1 : -1) / (std::fabs(zeta) + std::sqrt(1 + zeta * zeta));
        const long double c = 1 / std::sqrt(1 + t * t), s = c * t;
        for (int i = 0; i < m; ++i) {
          const long double x = a[i + p * m], y = a[i + q * m];
          a[i + p * m] = c * x - s * y;
          a[i + q * m] = s * x + c * y;
        }
      }
    if (!rotated) break;
  }
  std::vector<long double> s(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    long double x = 0;
    for (int i = 0; i < m; ++i) x += a[i + j * m] * a[i + j * m];
    s[j] = std::sqrt(x);
  }
  std::sort(s.rbegin(), s.rend());
  return s;
}

TEST(TrnsolverDgesvdj, GradedMatrixRelativeAccuracy) {
  const int m = 12, n = 8;
  const auto b = random_matrix(m, n, m, 21);
  std::vector<double> a(b);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) a[i + j * m] *= std::pow(10.0, -2.0 * j);  // columns 1 ... 1e-14
  std::vector<double> S(n), U(m * m), V(n * n);
  Gesvdj g;
  int info = -1;
  ASSERT_EQ(call<double>(g, false, 0, m, n, a.data(), m, S.data(), U.data(), m, V.data(), n, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  const auto ref = jacobi_long_double(std::vector<long double>(a.begin(), a.end()), m, n);
  const auto lap = dgesvd_values(a, m, n, m);
  double worst = 0, worst_lapack = 0;
  for (int k = 0; k < n; ++k) {
    worst = std::max(worst, static_cast<double>(std::fabs((S[k] - ref[k]) / ref[k])));
    worst_lapack = std::max(worst_lapack, static_cast<double>(std::fabs((lap[k] - ref[k]) / ref[k])));
  }
  EXPECT_LE(worst, 1e-13);  // kappa(B) ~ 10 for a 12 x 8 Gaussian B: ~ 10 n u with margin
  std::printf("graded 12 x 8 (sigma 1 ... 1e-14): max relative error Dgesvdj %.2e, LAPACKE dgesvd %.2e\n", worst,
              worst_lapack);
}

// The block path's graded case (80 columns: three blocks of 32, the rotations balanced Ozaki DGEMMs):
// A = B D, B 100 x 80 Gaussian, D = diag(10^linspace(-10, 0)) with the columns shuffled (every block pair
// mixes scales). Bound (docs/trnsolver.md "Dsyevj and Dgesvdj: fp64 block Jacobi"): |sigma^ - sigma| /
// sigma <= c n u, c = 4 S kappa(B) (S sweeps); kappa(B) from LAPACKE dgesvd on B. Two-sided: not exactly 0.
TEST(TrnsolverDgesvdj, GradedBlockJacobiRelativeAccuracy) {
  const int m = 100, n = 80;
  const auto b = random_matrix(m, n, m, 23);
  const auto sb = dgesvd_values(b, m, n, m);
  std::vector<int> perm(n);
  for (int j = 0; j < n; ++j) perm[j] = j;
  std::mt19937_64 rng(5);
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<double> a(b);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) a[i + j * m] *= std::pow(10.0, -10.0 + 10.0 * perm[j] / (n - 1));
  std::vector<double> S(n), U(m * n), V(n * n), ac(a);
  trn::solver::CallReport rep;
  const auto r = trn::solver::dgesvdj({}, true, true, m, n, ac.data(), m, S.data(), U.data(), m, V.data(), n, {}, &rep);
  ASSERT_EQ(r.info, 0);
  const auto ref = jacobi_long_double(std::vector<long double>(a.begin(), a.end()), m, n);
  const auto lap = dgesvd_values(a, m, n, m);
  double worst = 0, worst_lapack = 0;
  for (int k = 0; k < n; ++k) {
    worst = std::max(worst, static_cast<double>(std::fabs((S[k] - ref[k]) / ref[k])));
    worst_lapack = std::max(worst_lapack, static_cast<double>(std::fabs((lap[k] - ref[k]) / ref[k])));
  }
  const double c = 4.0 * r.sweeps * sb[0] / sb[n - 1], u = 0x1p-53;
  std::printf("graded 100 x 80 block (sigma %.1Le .. %.1Le): Dgesvdj worst rel err %.2e (%.3f of c n u, c = %.1f, %d "
              "sweeps), LAPACKE dgesvd %.2e\n",
              ref[n - 1], ref[0], worst, worst / (c * n * u), c, r.sweeps, worst_lapack);
  EXPECT_LE(worst, c * n * u);
  EXPECT_GT(worst, 0.0);
  EXPECT_GT(rep.profile.total_instructions, 0) << "the rotations and Gram matrices ran on TensorE";
}

// The C99 walkthrough of the gesvdj call sequence (trnsolver_c_jacobi_walkthroughs.c) on a 4 x 3 integer
// matrix of this test: S against LAPACKE_dgesvd, ||A - U S V^T|| by a dense loop, U's orthogonality and
// the reported sweeps / residual.
TEST(TrnsolverGesvdj, CusolverSamplePortReproduces) {
  const int m = 4, n = 3;
  const std::vector<double> A = {2, -1, 0, 3, 1, 4, -2, 0, 0, 1, 5, -1};  // column-major
  double S[3], U[16], V[9], residual = -1;
  int info = -1, sweeps = -1;
  ASSERT_EQ(trnsolver_walkthrough_gesvdj(m, n, A.data(), S, U, V, &info, &residual, &sweeps), 0);
  EXPECT_EQ(info, 0);
  const auto ref = dgesvd_values(A, m, n, m);
  for (int k = 0; k < n; ++k) EXPECT_NEAR(S[k], ref[k], 1e-14 * ref[0]);
  double r = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double x = A[i + j * m];
      for (int k = 0; k < n; ++k) x -= U[i + k * m] * S[k] * V[j + k * n];
      r = std::max(r, std::fabs(x));
    }
  EXPECT_LE(r, 1e-13);
  EXPECT_LE(orthogonality(U, m, m, m), 3 * 1e-7);  // the tolerance 1e-7 bounds each pair
  EXPECT_GE(sweeps, 1);
  EXPECT_LE(sweeps, 15);
  EXPECT_LE(residual, 1e-7);
}

// Regression (fuzz_trnsolver, tests/fuzz/corpus/trnsolver/regression-gesvdj-identical-columns):
// identical columns rotate into an exact zero column, and ScalarE's sqrt(0) (outside its valid
// range) made that singular value NaN. Zero columns now have norm exactly 0, and their U columns
// are completed.
TEST(TrnsolverGesvdj, FuzzRegressionIdenticalColumnsGiveZeroSingularValues) {
  const int m = 5, n = 5;
  std::vector<double> a(static_cast<std::size_t>(m) * n, -1.0);
  a[2 + 2 * m] = -0.875;
  a[3 + 2 * m] = a[4 + 2 * m] = -8.0;  // columns 0, 1, 3, 4 identical: rank 2
  for (int econ : {0, 1}) check_svd<float>(m, n, econ, a, m);
  std::vector<float> A(a.begin(), a.end()), S(n), U(m * m), V(n * n);
  Gesvdj g;
  int info = -1;
  ASSERT_EQ(call<float>(g, true, 0, m, n, A.data(), m, S.data(), U.data(), m, V.data(), n, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  for (int k = 2; k < n; ++k) EXPECT_LE(S[k], 1e-5f * S[0]) << k;  // rank 2: the rest is rounding
  for (float x : S) EXPECT_TRUE(std::isfinite(x));
}

// Regression (fuzz_trnsolver, corpus regression-gesvdj-empty-null): m or n = 0 allows NULL
// matrices; the batched driver offset them per matrix (UBSan: offset applied to a null pointer).
TEST(TrnsolverGesvdj, FuzzRegressionEmptyBatchWithNullPointers) {
  Gesvdj g;
  int info[3] = {-1, -1, -1};
  float work[1];
  EXPECT_EQ(trnsolverDnSgesvdjBatched(g.h, TRNSOLVER_EIG_MODE_VECTOR, 4, 0, nullptr, 4, nullptr, nullptr, 4, nullptr, 1,
                                      work, 1, info, g.params, 3),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info[0], 0);
  EXPECT_EQ(info[2], 0);
  EXPECT_EQ(trnsolverDnSgesvdj(g.h, TRNSOLVER_EIG_MODE_VECTOR, 0, 0, 5, nullptr, 1, nullptr, nullptr, 1, nullptr, 5, work,
                               1, info, g.params),
            TRNSOLVER_STATUS_SUCCESS);
}

// Regression (fuzz_trnsolver, corpus regression-gesvdj-large-entry): an entry of 1.2e14 made the
// angle formula's theta^2 ~ ||a||^4 overflow fp32 (S = NaN). A is now scaled by a power of two so
// that max |a_ij| is in [2^19, 2^20); large and tiny scales give the same relative results.
TEST(TrnsolverGesvdj, FuzzRegressionLargeAndTinyScales) {
  const std::vector<double> row = {0.75, -1.18107e14, -1.0};
  check_svd<float>(1, 3, 0, row, 1);
  auto a = random_matrix(9, 6, 9, 44);
  for (double scale : {0x1p100, 0x1p-100}) {
    std::vector<double> b(a);
    for (double& x : b) x = static_cast<double>(static_cast<float>(x * scale));
    check_svd<float>(9, 6, 0, b, 9);
  }
}

}  // namespace
