// potrfBatched / potrsBatched (S, D) through the C API: each matrix's factor and solution bit for bit
// those of Spotrf/Dpotrf and Spotrs/Dpotrs on it (a non-SPD matrix in the batch reports its own info
// and does not disturb the others), the factor against LAPACKE dpotrf, argument positions with outputs
// untouched, and the project's own C99 walkthrough of the batched call sequence (trnsolver_c_batched_walkthrough.c).
#include <gtest/gtest.h>
#include <lapacke.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "trnsolver.h"

extern "C" int trnsolver_walkthrough_potrf_batched(int n, int batch, const double* A, const double* B, double* L,
                                                   double* X, int* infoArray, int* potrs_info);

namespace {

template <class T>
std::vector<T> spd(int n, int lda, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd;
  std::vector<double> g(static_cast<std::size_t>(n) * n);
  for (double& x : g) x = nd(rng);
  std::vector<T> a(static_cast<std::size_t>(lda) * n, T(-9));  // -9: the padding rows
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double s = i == j ? 1.0 : 0.0;
      for (int k = 0; k < n; ++k) s += g[i + k * n] * g[j + k * n] / n;
      a[i + j * lda] = static_cast<T>(s);
    }
  return a;
}

template <class T>
void batched_equals_single(trnblasFillMode_t uplo, int n, int lda, int batch, int nan_rhs = -1) {
  SCOPED_TRACE(testing::Message() << (sizeof(T) == 4 ? "S" : "D") << " n " << n << " uplo " << uplo << " batch "
                                  << batch);
  trnsolverDnHandle_t h;
  ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
  std::vector<std::vector<T>> a, b;
  for (int k = 0; k < batch; ++k) {
    a.push_back(spd<T>(n, lda, 70 + k));
    b.push_back(std::vector<T>(static_cast<std::size_t>(lda), T(1 + k)));
  }
  a[1][(n / 2) * (lda + 1)] = T(-1);  // matrix 1: leading minor of order n/2 + 1 not positive definite
  if (nan_rhs >= 0) b[static_cast<std::size_t>(nan_rhs)][static_cast<std::size_t>(n / 3)] = T(NAN);
  auto fa = a, fb = b;
  std::vector<T*> pa, pb;
  for (int k = 0; k < batch; ++k) {
    pa.push_back(fa[k].data());
    pb.push_back(fb[k].data());
  }
  std::vector<int> info(batch, -7);
  int sinfo = -7;
  if constexpr (sizeof(T) == 4) {
    ASSERT_EQ(trnsolverDnSpotrfBatched(h, uplo, n, pa.data(), lda, info.data(), batch), TRNSOLVER_STATUS_SUCCESS);
    ASSERT_EQ(trnsolverDnSpotrsBatched(h, uplo, n, 1, pa.data(), lda, pb.data(), lda, &sinfo, batch),
              TRNSOLVER_STATUS_SUCCESS);
  } else {
    ASSERT_EQ(trnsolverDnDpotrfBatched(h, uplo, n, pa.data(), lda, info.data(), batch), TRNSOLVER_STATUS_SUCCESS);
    ASSERT_EQ(trnsolverDnDpotrsBatched(h, uplo, n, 1, pa.data(), lda, pb.data(), lda, &sinfo, batch),
              TRNSOLVER_STATUS_SUCCESS);
  }
  EXPECT_EQ(sinfo, 0);
  std::vector<T> work(1 << 16);
  for (int k = 0; k < batch; ++k) {
    SCOPED_TRACE(k);
    auto one = a[k], rhs = b[k];
    int i1 = -7, i2 = -7;
    if constexpr (sizeof(T) == 4) {
      ASSERT_EQ(trnsolverDnSpotrf(h, uplo, n, one.data(), lda, work.data(), 1 << 16, &i1), TRNSOLVER_STATUS_SUCCESS);
      ASSERT_EQ(trnsolverDnSpotrs(h, uplo, n, 1, one.data(), lda, rhs.data(), lda, &i2), TRNSOLVER_STATUS_SUCCESS);
    } else {
      ASSERT_EQ(trnsolverDnDpotrf(h, uplo, n, one.data(), lda, work.data(), 1 << 16, &i1), TRNSOLVER_STATUS_SUCCESS);
      ASSERT_EQ(trnsolverDnDpotrs(h, uplo, n, 1, one.data(), lda, rhs.data(), lda, &i2), TRNSOLVER_STATUS_SUCCESS);
    }
    EXPECT_EQ(info[k], i1);
    EXPECT_EQ(info[k], k == 1 ? n / 2 + 1 : 0);
    EXPECT_EQ(0, std::memcmp(one.data(), fa[k].data(), one.size() * sizeof(T)));
    EXPECT_EQ(0, std::memcmp(rhs.data(), fb[k].data(), rhs.size() * sizeof(T)));
    if (k == 1) continue;
    // The factor against LAPACKE dpotrf (fp64) in the uplo triangle: |L - L_ref| <= 8 n u max|L|.
    std::vector<double> ref(a[k].begin(), a[k].end());
    const char ul = uplo == TRNBLAS_FILL_MODE_LOWER ? 'L' : 'U';
    ASSERT_EQ(LAPACKE_dpotrf(LAPACK_COL_MAJOR, ul, n, ref.data(), lda), 0);
    const double u = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (ul == 'L' ? i >= j : i <= j) {
          EXPECT_NEAR(fa[k][i + j * lda], ref[i + j * lda], 8 * n * u * 4);
        }
  }
  trnsolverDnDestroy(h);
}

TEST(TrnsolverPotrfBatched, EachMatrixAsTheSingleCall) {
  batched_equals_single<float>(TRNBLAS_FILL_MODE_LOWER, 20, 23, 3);
  batched_equals_single<double>(TRNBLAS_FILL_MODE_UPPER, 20, 20, 3);
  batched_equals_single<float>(TRNBLAS_FILL_MODE_UPPER, 70, 70, 2);
}

// SpotrsBatched runs each solve over the whole batch, up to kTrsmNarrowBatch = 32 matrices per
// launch of the narrow TRSM kernel with their Newton steps interleaved: still every matrix's bits
// those of Spotrs on it alone — across two launches (40 matrices), with two 128-blocks (n 200), and
// with a NaN right-hand side (that matrix's solves fall back to substitution, as Spotrs's do).
TEST(TrnsolverPotrfBatched, SpotrsBatchedInterleavedEqualsSingleCallsBitForBit) {
  batched_equals_single<float>(TRNBLAS_FILL_MODE_LOWER, 128, 130, 40, 3);
  batched_equals_single<float>(TRNBLAS_FILL_MODE_UPPER, 200, 200, 5, 4);
  batched_equals_single<float>(TRNBLAS_FILL_MODE_LOWER, 37, 37, 33);
}

TEST(TrnsolverPotrfBatched, ArgumentPositions) {
  trnsolverDnHandle_t h;
  ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
  const int n = 4;
  std::vector<double> a0(16, 0.0), a1(16, 0.0), b0(4, 1.0), b1(4, 2.0);
  for (int i = 0; i < n; ++i) a0[i * 5] = a1[i * 5] = 2.0;
  const auto A0 = a0, A1 = a1, B0 = b0, B1 = b1;
  double* pa[2] = {a0.data(), a1.data()};
  double* pnull[2] = {a0.data(), nullptr};
  double* pb[2] = {b0.data(), b1.data()};
  const auto L = TRNBLAS_FILL_MODE_LOWER;
  const auto IV = TRNSOLVER_STATUS_INVALID_VALUE;
  int info[2] = {5, 5};
  auto check = [&](trnsolverStatus_t st, int pos) {
    EXPECT_EQ(st, IV) << pos;
    EXPECT_EQ(info[0], -pos) << pos;
    EXPECT_EQ(a0, A0);
    EXPECT_EQ(a1, A1);
    EXPECT_EQ(b0, B0);
    EXPECT_EQ(b1, B1);
    info[0] = info[1] = 5;
  };
  int bad = 3;
  trnblasFillMode_t bad_uplo;
  std::memcpy(&bad_uplo, &bad, sizeof bad);
  check(trnsolverDnDpotrfBatched(h, bad_uplo, n, pa, n, info, 2), 1);
  check(trnsolverDnDpotrfBatched(h, L, -1, pa, n, info, 2), 2);
  check(trnsolverDnDpotrfBatched(h, L, n, nullptr, n, info, 2), 3);
  check(trnsolverDnDpotrfBatched(h, L, n, pnull, n, info, 2), 3);
  check(trnsolverDnDpotrfBatched(h, L, n, pa, n - 1, info, 2), 4);
  check(trnsolverDnDpotrfBatched(h, L, n, pa, n, info, -1), 6);
  EXPECT_EQ(trnsolverDnDpotrfBatched(h, L, n, pa, n, nullptr, 2), IV);
  check(trnsolverDnDpotrsBatched(h, L, n, 2, pa, n, pb, n, info, 2), 3);
  check(trnsolverDnDpotrsBatched(h, L, n, 1, pnull, n, pb, n, info, 2), 4);
  check(trnsolverDnDpotrsBatched(h, L, n, 1, pa, n, pnull, n, info, 2), 6);
  check(trnsolverDnDpotrsBatched(h, L, n, 1, pa, n, pb, n - 1, info, 2), 7);
  check(trnsolverDnDpotrsBatched(h, L, n, 1, pa, n, pb, n, info, -2), 9);
  EXPECT_EQ(info[1], 5);
  // batchSize 0 and n 0: nothing to do, SUCCESS.
  EXPECT_EQ(trnsolverDnDpotrfBatched(h, L, n, pa, n, info, 0), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnSpotrfBatched(h, L, 0, nullptr, 1, info, 2), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info[0], 0);
  EXPECT_EQ(info[1], 0);
  trnsolverDnDestroy(h);
}

TEST(TrnsolverPotrfBatched, SamplePrintsItsDocumentedResult) {
  // The C99 walkthrough of potrfBatched + potrsBatched (trnsolver_c_batched_walkthrough.c) on three 3 x 3
  // matrices built here: A0 = L0 L0^T and A2 = L2 L2^T from integer factors (so Cholesky's factor is
  // exactly L0, L2), A1 whose leading 2 x 2 minor is negative (info 2); B_k = A_k x_k for integer x_k.
  const double L0[9] = {2, -1, 1, 0, 3, 2, 0, 0, 1}, L2[9] = {1, 2, -1, 0, 1, 1, 0, 0, 3};  // column-major
  const double x0[3] = {1, -1, 2}, x2[3] = {2, 0, -1};
  double A[27], B[9] = {0, 0, 0, 1, 1, 1, 0, 0, 0};
  const double A1[9] = {1, 2, 0, 2, 3, 0, 0, 0, 1};  // minor 1 * 3 - 2 * 2 = -1
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {  // A_k = L_k L_k^T by a dense loop
      double s0 = 0, s2 = 0;
      for (int k = 0; k < 3; ++k) {
        s0 += L0[i + 3 * k] * L0[j + 3 * k];
        s2 += L2[i + 3 * k] * L2[j + 3 * k];
      }
      A[i + 3 * j] = s0;
      A[18 + i + 3 * j] = s2;
      A[9 + i + 3 * j] = A1[i + 3 * j];
    }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      B[i] += A[i + 3 * j] * x0[j];
      B[6 + i] += A[18 + i + 3 * j] * x2[j];
    }
  int info[3] = {-1, -1, -1}, pinfo = -1;
  double L[27], X[9];
  ASSERT_EQ(trnsolver_walkthrough_potrf_batched(3, 3, A, B, L, X, info, &pinfo), 0);
  EXPECT_EQ(info[0], 0);
  EXPECT_EQ(info[1], 2);
  EXPECT_EQ(info[2], 0);
  EXPECT_EQ(pinfo, 0);
  for (int j = 0; j < 3; ++j)
    for (int i = j; i < 3; ++i) {  // integer factors with integer square roots on the diagonal: exact
      EXPECT_NEAR(L[i + 3 * j], L0[i + 3 * j], 1e-15) << i << "," << j;
      EXPECT_NEAR(L[18 + i + 3 * j], L2[i + 3 * j], 1e-15) << i << "," << j;
    }
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(X[i], x0[i], 1e-13);
    EXPECT_NEAR(X[6 + i], x2[i], 1e-13);
  }
}

}  // namespace
