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

extern "C" {
int trnsolver_sample_getrf(int n, const double* A, const double* b, double* x, int* ipiv);
int trnsolver_sample_xpotrf(int n, const double* A, const double* b, double* x);
int trnsolver_sample_syevj(int n, const double* A, double* W, double* V, double* residual, int* sweeps);
int trnsolver_sample_syevj_batched(int n, int batch, const double* A, double* W, double* V, int* info);
int trnsolver_sample_gesvdj_batched(int m, int n, int batch, const double* A, double* S, double* U, double* V, int* info);
int trnsolver_sample_dhgesv(int n, const double* A, const double* b, double* x, int* iter);
int trnsolver_sample_irsxgesv_niters(int n, const double* A, const double* b, double* x, int* niters);
}

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

// ---- the C99 programs over the CUDALibrarySamples call sequences (trnsolver_c_sample_walkthroughs.c) --
// Each result is checked against a dense double loop: solves by the normwise backward error
// |b - A x|_inf / (|A|_inf |x|_inf + |b|_inf) <= 4 n u (LU / Cholesky backward stability with a small
// constant; IRS refines to the fp64 level), eigen and singular pairs by |A v - lambda v|_inf <=
// 8 n u |A|_inf per pair (Jacobi's bound with the documented constant, docs/trnsolver.md).

constexpr double kU = 0x1p-53;

double inf_norm(const std::vector<double>& a, int rows, int cols) {
  double best = 0;
  for (int i = 0; i < rows; ++i) {
    double row = 0;
    for (int j = 0; j < cols; ++j) row += std::fabs(a[static_cast<std::size_t>(i + j * rows)]);
    best = std::max(best, row);
  }
  return best;
}

double backward_error(const std::vector<double>& A, int n, const std::vector<double>& x, const std::vector<double>& b) {
  double r = 0, xn = 0, bn = 0;
  for (int i = 0; i < n; ++i) {
    long double s = b[static_cast<std::size_t>(i)];
    for (int j = 0; j < n; ++j) s -= static_cast<long double>(A[static_cast<std::size_t>(i + j * n)]) * x[static_cast<std::size_t>(j)];
    r = std::max(r, static_cast<double>(std::fabs(s)));
    xn = std::max(xn, std::fabs(x[static_cast<std::size_t>(i)]));
    bn = std::max(bn, std::fabs(b[static_cast<std::size_t>(i)]));
  }
  return r / (inf_norm(A, n, n) * xn + bn);
}

// max over k of |A v_k - w_k v_k|_inf for the n x n symmetric A and column-major V.
double eigen_residual(const double* A, int n, const double* W, const double* V) {
  double worst = 0;
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i) {
      long double s = -static_cast<long double>(W[k]) * V[i + k * n];
      for (int j = 0; j < n; ++j) s += static_cast<long double>(A[i + j * n]) * V[j + k * n];
      worst = std::max(worst, static_cast<double>(std::fabs(s)));
    }
  return worst;
}

std::vector<double> rhs(int n) {
  std::vector<double> b(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) b[static_cast<std::size_t>(i)] = 1.0 + i;
  return b;
}

TEST(TrnsolverCSamples, GetrfXpotrfDhgesvIrsxgesvSolve) {
  constexpr int n = 8;
  std::vector<double> A = spd(n), b = rhs(n), x(n);
  A[static_cast<std::size_t>(0 + 5 * n)] = 7.5;  // not symmetric: getrf pivots
  std::vector<int> ipiv(n);
  ASSERT_EQ(trnsolver_sample_getrf(n, A.data(), b.data(), x.data(), ipiv.data()), 0);
  EXPECT_LE(backward_error(A, n, x, b), 4 * n * kU);
  for (int p : ipiv) EXPECT_TRUE(p >= 1 && p <= n);
  int iter = 0;
  ASSERT_EQ(trnsolver_sample_dhgesv(n, A.data(), b.data(), x.data(), &iter), 0);
  EXPECT_LE(backward_error(A, n, x, b), 4 * n * kU) << "iter " << iter;
  int niters = -99;
  ASSERT_EQ(trnsolver_sample_irsxgesv_niters(n, A.data(), b.data(), x.data(), &niters), 0);
  EXPECT_LE(backward_error(A, n, x, b), 4 * n * kU) << "niters " << niters;
  EXPECT_GE(niters, 0);
  const std::vector<double> S = spd(n);
  ASSERT_EQ(trnsolver_sample_xpotrf(n, S.data(), b.data(), x.data()), 0);
  EXPECT_LE(backward_error(S, n, x, b), 4 * n * kU);
}

TEST(TrnsolverCSamples, SyevjAndSyevjBatchedEigenpairs) {
  constexpr int n = 6, batch = 3;
  const std::vector<double> A = spd(n);
  std::vector<double> W(n), Vm(static_cast<std::size_t>(n) * n);
  double residual = -1;
  int sweeps = -1;
  ASSERT_EQ(trnsolver_sample_syevj(n, A.data(), W.data(), Vm.data(), &residual, &sweeps), 0);
  EXPECT_LE(eigen_residual(A.data(), n, W.data(), Vm.data()), 8 * n * kU * inf_norm(A, n, n) + 1e-7 * inf_norm(A, n, n));
  EXPECT_TRUE(sweeps >= 1 && sweeps <= 15) << sweeps;
  EXPECT_GE(residual, 0.0);
  for (int i = 1; i < n; ++i) EXPECT_LE(W[static_cast<std::size_t>(i - 1)], W[static_cast<std::size_t>(i)]);
  std::vector<double> Ab;
  for (int k = 0; k < batch; ++k) {
    std::vector<double> Ak = spd(n);
    for (int i = 0; i < n; ++i) Ak[static_cast<std::size_t>(i + i * n)] += 3.0 * k;
    Ab.insert(Ab.end(), Ak.begin(), Ak.end());
  }
  std::vector<double> Wb(static_cast<std::size_t>(n) * batch), Vb(Ab.size());
  std::vector<int> info(batch, -7);
  ASSERT_EQ(trnsolver_sample_syevj_batched(n, batch, Ab.data(), Wb.data(), Vb.data(), info.data()), 0);
  for (int k = 0; k < batch; ++k) {
    const std::size_t off = static_cast<std::size_t>(k) * n * n;
    EXPECT_EQ(info[static_cast<std::size_t>(k)], 0);
    EXPECT_LE(eigen_residual(Ab.data() + off, n, Wb.data() + static_cast<std::size_t>(k) * n, Vb.data() + off),
              8 * n * kU * inf_norm(A, n, n) * 2 + 1e-7 * 2 * inf_norm(A, n, n));
  }
}

TEST(TrnsolverCSamples, GesvdjBatchedReconstructs) {
  constexpr int m = 5, n = 4, batch = 2;
  std::vector<double> A(static_cast<std::size_t>(m) * n * batch);
  for (std::size_t i = 0; i < A.size(); ++i) A[i] = std::sin(1.0 + static_cast<double>(i)) + (i % (m + 1) == 0 ? 2 : 0);
  std::vector<double> S(static_cast<std::size_t>(n) * batch), U(static_cast<std::size_t>(m) * m * batch),
      Vm(static_cast<std::size_t>(n) * n * batch);
  std::vector<int> info(batch, -7);
  ASSERT_EQ(trnsolver_sample_gesvdj_batched(m, n, batch, A.data(), S.data(), U.data(), Vm.data(), info.data()), 0);
  for (int k = 0; k < batch; ++k) {
    EXPECT_EQ(info[static_cast<std::size_t>(k)], 0);
    const double* a = A.data() + static_cast<std::size_t>(k) * m * n;
    const double* s = S.data() + static_cast<std::size_t>(k) * n;
    const double* u = U.data() + static_cast<std::size_t>(k) * m * m;
    const double* v = Vm.data() + static_cast<std::size_t>(k) * n * n;
    double worst = 0, norm = 0;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        long double r = a[i + j * m];
        for (int l = 0; l < n; ++l) r -= static_cast<long double>(u[i + l * m]) * s[l] * v[j + l * n];
        worst = std::max(worst, static_cast<double>(std::fabs(r)));
        norm = std::max(norm, std::fabs(a[i + j * m]));
      }
    for (int l = 1; l < n; ++l) EXPECT_GE(s[l - 1], s[l]);
    // Converged to the 1e-7 tolerance the program sets: reconstruction within 8 max(m,n) u + tol.
    EXPECT_LE(worst, (8.0 * m * kU + 1e-7) * n * norm) << "matrix " << k;
  }
}

}  // namespace
