// Issue #27's bad-input acceptance across the iterative routines, through the C API:
//  * NaN / Inf in the read triangle or matrix -> the documented info (docs/trnsolver.md, trnsolver.h),
//    a return (every iteration bounded: the test finishing is the "never a hang" check; ctest's
//    timeout is the net), the documented NaN outputs, A untouched where documented;
//  * a workspace one element below `_bufferSize` -> TRNSOLVER_STATUS_INVALID_VALUE, info = -position
//    of lwork (cuSOLVER order, handle not counted), every output untouched.
// The routines: S/D syevj, DsyevjBatched, Dgesvdj, DgesvdjBatched, Dsygvj, Dsyevd, Dsygvd, Dgesvd
// (NaN/Inf) and the same plus Dgeqrf, Dorgqr, Dpotrf (workspace). Oracles are the documented values,
// not the library.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "trnsolver.h"

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A diagonally dominant symmetric n x n matrix (lda = n), SPD: a valid input for every routine here.
std::vector<double> spd(int n) {
  std::vector<double> a(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) a[static_cast<std::size_t>(i + j * n)] = i == j ? n + 1.0 + i : 1.0 / (1 + i + j);
  return a;
}

// The same with one lower-triangle entry (row 2, column 1) set to v (the routines read uplo = LOWER).
std::vector<double> spd_with(int n, double v) {
  std::vector<double> a = spd(n);
  a[static_cast<std::size_t>(2 + 1 * n)] = v;
  return a;
}

bool all_nan(const std::vector<double>& w, std::size_t from, std::size_t count) {
  for (std::size_t i = from; i < from + count; ++i)
    if (!std::isnan(w[i])) return false;
  return true;
}

class Acceptance : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    ASSERT_EQ(trnsolverDnCreateSyevjInfo(&sj), TRNSOLVER_STATUS_SUCCESS);
    ASSERT_EQ(trnsolverDnCreateGesvdjInfo(&gj), TRNSOLVER_STATUS_SUCCESS);
  }
  void TearDown() override {
    trnsolverDnDestroyGesvdjInfo(gj);
    trnsolverDnDestroySyevjInfo(sj);
    trnsolverDnDestroy(h);
  }
  trnsolverDnHandle_t h = nullptr;
  syevjInfo_t sj = nullptr;
  gesvdjInfo_t gj = nullptr;
  static constexpr int n = 6;
  const trnsolverEigMode_t V = TRNSOLVER_EIG_MODE_VECTOR;
  const trnblasFillMode_t L = TRNBLAS_FILL_MODE_LOWER;
};

// ---- NaN / Inf ---------------------------------------------------------------------------------------

TEST_F(Acceptance, SyevjNonFiniteGivesInfoNPlus1NaNWAndAUntouched) {
  for (double bad : {kNaN, kInf, -kInf}) {
    std::vector<double> A = spd_with(n, bad), A0 = A, W(n, 0.0);
    int lwork = 0, info = -7;
    ASSERT_EQ(trnsolverDnDsyevj_bufferSize(h, V, L, n, A.data(), n, W.data(), &lwork, sj), TRNSOLVER_STATUS_SUCCESS);
    std::vector<double> work(static_cast<std::size_t>(std::max(lwork, 1)));
    ASSERT_EQ(trnsolverDnDsyevj(h, V, L, n, A.data(), n, W.data(), work.data(), lwork, &info, sj), TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info, n + 1) << bad;
    EXPECT_TRUE(all_nan(W, 0, n)) << bad;
    EXPECT_EQ(std::memcmp(A.data(), A0.data(), A.size() * sizeof(double)), 0) << bad;
    // fp32 (the tile kernel): the same contract.
    std::vector<float> Af(A0.begin(), A0.end()), Wf(n, 0.0f);
    ASSERT_EQ(trnsolverDnSsyevj_bufferSize(h, V, L, n, Af.data(), n, Wf.data(), &lwork, sj), TRNSOLVER_STATUS_SUCCESS);
    std::vector<float> workf(static_cast<std::size_t>(std::max(lwork, 1)));
    info = -7;
    ASSERT_EQ(trnsolverDnSsyevj(h, V, L, n, Af.data(), n, Wf.data(), workf.data(), lwork, &info, sj), TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info, n + 1) << bad;
    for (float w : Wf) EXPECT_TRUE(std::isnan(w)) << bad;
  }
}

TEST_F(Acceptance, SyevjBatchedNonFiniteMatrixGivesItsInfoOnlyAndNeighboursConverge) {
  constexpr int batch = 2;
  for (double bad : {kNaN, kInf}) {
    std::vector<double> A = spd(n), A1 = spd_with(n, bad), W(static_cast<std::size_t>(n) * batch, 0.0);
    A.insert(A.end(), A1.begin(), A1.end());
    std::vector<int> info(batch, -7);
    int lwork = 0;
    ASSERT_EQ(trnsolverDnDsyevjBatched_bufferSize(h, V, L, n, A.data(), n, W.data(), &lwork, sj, batch),
              TRNSOLVER_STATUS_SUCCESS);
    std::vector<double> work(static_cast<std::size_t>(std::max(lwork, 1)));
    ASSERT_EQ(trnsolverDnDsyevjBatched(h, V, L, n, A.data(), n, W.data(), work.data(), lwork, info.data(), sj, batch),
              TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info[0], 0) << bad;
    EXPECT_EQ(info[1], n + 1) << bad;
    EXPECT_TRUE(all_nan(W, n, n)) << bad;
    for (int i = 0; i < n; ++i) EXPECT_TRUE(std::isfinite(W[static_cast<std::size_t>(i)])) << bad;
  }
}

TEST_F(Acceptance, GesvdjNonFiniteGivesInfoMinPlus1AndNaNS) {
  constexpr int m = 7, k = 5;  // m x k, min = 5
  for (double bad : {kNaN, kInf}) {
    std::vector<double> A(static_cast<std::size_t>(m) * k);
    for (std::size_t i = 0; i < A.size(); ++i) A[i] = 1.0 / (1.0 + static_cast<double>(i % 11)) + (i % (m + 1) == 0 ? 3 : 0);
    A[9] = bad;
    std::vector<double> S(k, 0.0), U(static_cast<std::size_t>(m) * m), Vm(static_cast<std::size_t>(k) * k);
    int lwork = 0, info = -7;
    ASSERT_EQ(trnsolverDnDgesvdj_bufferSize(h, V, 0, m, k, A.data(), m, S.data(), U.data(), m, Vm.data(), k, &lwork, gj),
              TRNSOLVER_STATUS_SUCCESS);
    std::vector<double> work(static_cast<std::size_t>(std::max(lwork, 1)));
    ASSERT_EQ(trnsolverDnDgesvdj(h, V, 0, m, k, A.data(), m, S.data(), U.data(), m, Vm.data(), k, work.data(), lwork, &info, gj),
              TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info, k + 1) << bad;
    EXPECT_TRUE(all_nan(S, 0, k)) << bad;
    // Batched: the bad matrix second, its info min + 1, the first one 0.
    std::vector<double> Ab(A.size(), 0.0);
    for (int i = 0; i < k; ++i) Ab[static_cast<std::size_t>(i + i * m)] = 1.0 + i;
    Ab.insert(Ab.end(), A.begin(), A.end());
    std::vector<double> Sb(2 * k), Ub(2 * static_cast<std::size_t>(m) * m), Vb(2 * static_cast<std::size_t>(k) * k);
    std::vector<int> infob(2, -7);
    ASSERT_EQ(trnsolverDnDgesvdjBatched_bufferSize(h, V, m, k, Ab.data(), m, Sb.data(), Ub.data(), m, Vb.data(), k, &lwork,
                                                   gj, 2),
              TRNSOLVER_STATUS_SUCCESS);
    std::vector<double> workb(static_cast<std::size_t>(std::max(lwork, 1)));
    ASSERT_EQ(trnsolverDnDgesvdjBatched(h, V, m, k, Ab.data(), m, Sb.data(), Ub.data(), m, Vb.data(), k, workb.data(), lwork,
                                        infob.data(), gj, 2),
              TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(infob[0], 0) << bad;
    EXPECT_EQ(infob[1], k + 1) << bad;
  }
}

TEST_F(Acceptance, SygvjSyevdSygvdGesvdNonFiniteGiveTheirDocumentedInfo) {
  for (double bad : {kNaN, kInf}) {
    int lwork = 0, info = -7;
    // sygvj: n + 1 (NaN / Inf in A), trnsolver.h.
    std::vector<double> A = spd_with(n, bad), B = spd(n), W(n, 0.0);
    ASSERT_EQ(trnsolverDnDsygvj_bufferSize(h, TRNSOLVER_EIG_TYPE_1, V, L, n, A.data(), n, B.data(), n, W.data(), &lwork, sj),
              TRNSOLVER_STATUS_SUCCESS);
    std::vector<double> work(static_cast<std::size_t>(std::max(lwork, 1)));
    ASSERT_EQ(trnsolverDnDsygvj(h, TRNSOLVER_EIG_TYPE_1, V, L, n, A.data(), n, B.data(), n, W.data(), work.data(), lwork,
                                &info, sj),
              TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info, n + 1) << "sygvj " << bad;
    // syevd: n, W NaN, A untouched (docs/trnsolver.md "syevd").
    A = spd_with(n, bad);
    const std::vector<double> A0 = A;
    ASSERT_EQ(trnsolverDnDsyevd_bufferSize(h, V, L, n, A.data(), n, W.data(), &lwork), TRNSOLVER_STATUS_SUCCESS);
    work.assign(static_cast<std::size_t>(std::max(lwork, 1)), 0.0);
    info = -7;
    ASSERT_EQ(trnsolverDnDsyevd(h, V, L, n, A.data(), n, W.data(), work.data(), lwork, &info), TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info, n) << "syevd " << bad;
    EXPECT_TRUE(all_nan(W, 0, n)) << "syevd " << bad;
    EXPECT_EQ(std::memcmp(A.data(), A0.data(), A.size() * sizeof(double)), 0) << "syevd " << bad;
    // sygvd: n when the reduced C holds Inf / NaN (docs/trnsolver.md "sygvd").
    A = spd_with(n, bad);
    B = spd(n);
    ASSERT_EQ(trnsolverDnDsygvd_bufferSize(h, TRNSOLVER_EIG_TYPE_1, V, L, n, A.data(), n, B.data(), n, W.data(), &lwork),
              TRNSOLVER_STATUS_SUCCESS);
    work.assign(static_cast<std::size_t>(std::max(lwork, 1)), 0.0);
    info = -7;
    ASSERT_EQ(trnsolverDnDsygvd(h, TRNSOLVER_EIG_TYPE_1, V, L, n, A.data(), n, B.data(), n, W.data(), work.data(), lwork,
                                &info),
              TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info, n) << "sygvd " << bad;
    // gesvd: n - 1 (at least 1) when the Jacobi sweeps do not converge, e.g. Inf / NaN in A.
    A = spd_with(n, bad);
    std::vector<double> S(n), U(static_cast<std::size_t>(n) * n), VT(static_cast<std::size_t>(n) * n);
    ASSERT_EQ(trnsolverDnDgesvd_bufferSize(h, n, n, &lwork), TRNSOLVER_STATUS_SUCCESS);
    work.assign(static_cast<std::size_t>(std::max(lwork, 1)), 0.0);
    info = -7;
    ASSERT_EQ(trnsolverDnDgesvd(h, 'A', 'A', n, n, A.data(), n, S.data(), U.data(), n, VT.data(), n, work.data(), lwork,
                                nullptr, &info),
              TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info, n - 1) << "gesvd " << bad;
  }
}

// ---- workspace one element short -------------------------------------------------------------------

// Calls `run(lwork - 1)` after `size(&lwork)`: INVALID_VALUE, info = -position, outputs untouched.
template <class Size, class Run>
void expect_short_workspace_rejected(const char* what, int position, std::vector<std::vector<double>*> outputs, Size size,
                                     Run run) {
  int lwork = -1;
  ASSERT_EQ(size(&lwork), TRNSOLVER_STATUS_SUCCESS) << what;
  ASSERT_GE(lwork, 1) << what << ": a _bufferSize of 0 leaves no shorter workspace to test";
  std::vector<std::vector<double>> before;
  for (auto* o : outputs) before.push_back(*o);
  int info = 12345;
  EXPECT_EQ(run(lwork - 1, &info), TRNSOLVER_STATUS_INVALID_VALUE) << what;
  EXPECT_EQ(info, -position) << what;
  for (std::size_t i = 0; i < outputs.size(); ++i)
    EXPECT_EQ(std::memcmp(outputs[i]->data(), before[i].data(), before[i].size() * sizeof(double)), 0)
        << what << ": output " << i << " written";
}

TEST_F(Acceptance, WorkspaceBelowBufferSizeIsInvalidValueAtLworkPosition) {
  std::vector<double> A = spd(n), B = spd(n), W(2 * n, 0.0), work(4096, 0.0), S(n), U(n * n), Vm(n * n), tau(n, 0.0);
  std::vector<int> infos(2);
  expect_short_workspace_rejected(
      "Dsyevj", 8, {&A, &W}, [&](int* lw) { return trnsolverDnDsyevj_bufferSize(h, V, L, n, A.data(), n, W.data(), lw, sj); },
      [&](int lw, int* info) { return trnsolverDnDsyevj(h, V, L, n, A.data(), n, W.data(), work.data(), lw, info, sj); });
  expect_short_workspace_rejected(
      "Dsyevd", 8, {&A, &W}, [&](int* lw) { return trnsolverDnDsyevd_bufferSize(h, V, L, n, A.data(), n, W.data(), lw); },
      [&](int lw, int* info) { return trnsolverDnDsyevd(h, V, L, n, A.data(), n, W.data(), work.data(), lw, info); });
  expect_short_workspace_rejected(
      "Dsygvj", 11, {&A, &B, &W},
      [&](int* lw) {
        return trnsolverDnDsygvj_bufferSize(h, TRNSOLVER_EIG_TYPE_1, V, L, n, A.data(), n, B.data(), n, W.data(), lw, sj);
      },
      [&](int lw, int* info) {
        return trnsolverDnDsygvj(h, TRNSOLVER_EIG_TYPE_1, V, L, n, A.data(), n, B.data(), n, W.data(), work.data(), lw, info,
                                 sj);
      });
  expect_short_workspace_rejected(
      "Dsygvd", 11, {&A, &B, &W},
      [&](int* lw) {
        return trnsolverDnDsygvd_bufferSize(h, TRNSOLVER_EIG_TYPE_1, V, L, n, A.data(), n, B.data(), n, W.data(), lw);
      },
      [&](int lw, int* info) {
        return trnsolverDnDsygvd(h, TRNSOLVER_EIG_TYPE_1, V, L, n, A.data(), n, B.data(), n, W.data(), work.data(), lw, info);
      });
  expect_short_workspace_rejected(
      "Dgesvdj", 13, {&A, &S, &U, &Vm},
      [&](int* lw) {
        return trnsolverDnDgesvdj_bufferSize(h, V, 0, n, n, A.data(), n, S.data(), U.data(), n, Vm.data(), n, lw, gj);
      },
      [&](int lw, int* info) {
        return trnsolverDnDgesvdj(h, V, 0, n, n, A.data(), n, S.data(), U.data(), n, Vm.data(), n, work.data(), lw, info, gj);
      });
  expect_short_workspace_rejected(
      "Dgesvd", 13, {&A, &S, &U, &Vm}, [&](int* lw) { return trnsolverDnDgesvd_bufferSize(h, n, n, lw); },
      [&](int lw, int* info) {
        return trnsolverDnDgesvd(h, 'A', 'A', n, n, A.data(), n, S.data(), U.data(), n, Vm.data(), n, work.data(), lw, nullptr,
                                 info);
      });
  expect_short_workspace_rejected(
      "Dgeqrf", 7, {&A, &tau}, [&](int* lw) { return trnsolverDnDgeqrf_bufferSize(h, n, n, A.data(), n, lw); },
      [&](int lw, int* info) { return trnsolverDnDgeqrf(h, n, n, A.data(), n, tau.data(), work.data(), lw, info); });
  expect_short_workspace_rejected(
      "Dorgqr", 8, {&A}, [&](int* lw) { return trnsolverDnDorgqr_bufferSize(h, n, n, n, A.data(), n, tau.data(), lw); },
      [&](int lw, int* info) { return trnsolverDnDorgqr(h, n, n, n, A.data(), n, tau.data(), work.data(), lw, info); });
  expect_short_workspace_rejected(
      "Dpotrf", 6, {&A}, [&](int* lw) { return trnsolverDnDpotrf_bufferSize(h, L, n, A.data(), n, lw); },
      [&](int lw, int* info) { return trnsolverDnDpotrf(h, L, n, A.data(), n, work.data(), lw, info); });
  // Batched: info[0] carries -position (cuSOLVER's batched convention here: the first info).
  int lwork = 0;
  ASSERT_EQ(trnsolverDnDsyevjBatched_bufferSize(h, V, L, n, A.data(), n, W.data(), &lwork, sj, 1), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_GE(lwork, 1);
  const std::vector<double> A0 = A, W0 = W;
  EXPECT_EQ(trnsolverDnDsyevjBatched(h, V, L, n, A.data(), n, W.data(), work.data(), lwork - 1, infos.data(), sj, 1),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_LT(infos[0], 0);
  EXPECT_EQ(A, A0);
  EXPECT_EQ(std::memcmp(W.data(), W0.data(), W.size() * sizeof(double)), 0);
}

}  // namespace
