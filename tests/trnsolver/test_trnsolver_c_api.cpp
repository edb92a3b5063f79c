// trnsolver C API: handle and syevjInfo_t lifecycle, the cuSOLVER call pattern (bufferSize ->
// allocate -> call) against LAPACKE dsyevd, argument checks in cuSOLVER order (position logged,
// info = -position, A and W untouched), GetSweeps/GetResidual, batched info, profiles.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "solver_reference.hpp"
#include "trnsolverDn.h"

extern "C" int trnsolver_c_header_check(void);

namespace {

std::string g_last_log;
void capture(const char* msg) { g_last_log = msg; }

struct TrnsolverCApi : ::testing::Test {
  trnsolverDnHandle_t h = nullptr;
  syevjInfo_t params = nullptr;
  void SetUp() override {
    ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    ASSERT_EQ(trnsolverDnCreateSyevjInfo(&params), TRNSOLVER_STATUS_SUCCESS);
    trnsolverSetLoggerCallback(&capture);
  }
  void TearDown() override {
    trnsolverSetLoggerCallback(nullptr);
    EXPECT_EQ(trnsolverDnDestroySyevjInfo(params), TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
  }
};

TEST_F(TrnsolverCApi, HeaderCompilesAsCAndEnumsMatchCusolver) {
  EXPECT_EQ(trnsolver_c_header_check(), 1 + 3);
  EXPECT_EQ(TRNSOLVER_STATUS_NOT_SUPPORTED, 9);
  EXPECT_EQ(TRNSOLVER_STATUS_INVALID_WORKSPACE, 31);
  EXPECT_EQ(TRNSOLVER_EIG_MODE_NOVECTOR, 0);
  int v = 0;
  EXPECT_EQ(trnsolverGetVersion(&v), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(v, TRNSOLVER_VERSION);
  EXPECT_STREQ(trnsolverGetStatusName(TRNSOLVER_STATUS_INVALID_VALUE), "TRNSOLVER_STATUS_INVALID_VALUE");
}

TEST_F(TrnsolverCApi, SsyevjSampleFlowMatchesDsyevd) {
  // The syevj call flow (params, tolerance, sweeps, workspace query, call, sweeps/residual queries) on a
  // 3 x 3 matrix of this test with the exact spectrum {1, 3, 5} (the block [2 1; 1 2] has eigenvalues 1, 3).
  const int n = 3, lda = 3;
  float A[] = {2.0f, 1.0f, 0.0f, 1.0f, 2.0f, 0.0f, 0.0f, 0.0f, 5.0f};
  float W[3];
  int lwork = 0, info = -7, sweeps = -1;
  double residual = -1;
  ASSERT_EQ(trnsolverDnXsyevjSetTolerance(params, 1e-7), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnXsyevjSetMaxSweeps(params, 15), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnSsyevj_bufferSize(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, A, lda, W, &lwork,
                                         params),
            TRNSOLVER_STATUS_SUCCESS);
  ASSERT_GE(lwork, 1);
  std::vector<float> work(static_cast<std::size_t>(lwork));
  ASSERT_EQ(trnsolverDnSsyevj(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, A, lda, W, work.data(), lwork,
                              &info, params),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_NEAR(W[0], 1.0f, 1e-6);
  EXPECT_NEAR(W[1], 3.0f, 1e-6);
  EXPECT_NEAR(W[2], 5.0f, 1e-6);
  EXPECT_EQ(trnsolverDnXsyevjGetSweeps(h, params, &sweeps), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnXsyevjGetResidual(h, params, &residual), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_GE(sweeps, 1);
  EXPECT_LE(residual, 1e-6);
  trnProfile_t prof{};
  EXPECT_EQ(trnsolverDnGetLastProfile(h, &prof), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_GT(prof.total_ns, 0.0);
  EXPECT_GT(prof.instructions_per_engine[TRN_ENGINE_TENSOR], 0);
}

TEST_F(TrnsolverCApi, DsyevjAndBatchedAgainstDsyevd) {
  const int n = 20, lda = 21, batch = 3;
  std::vector<double> A, ref;
  for (int k = 0; k < batch; ++k) {
    auto a = solver_test::random_symmetric(n, lda, 40 + k);
    a.resize(static_cast<std::size_t>(lda) * n);
    const auto r = solver_test::dsyevd_values(a, n, lda);
    A.insert(A.end(), a.begin(), a.end());
    ref.insert(ref.end(), r.begin(), r.end());
  }
  std::vector<double> W(n * batch);
  std::vector<int> info(batch, -9);
  int lwork = 0;
  ASSERT_EQ(trnsolverDnDsyevjBatched_bufferSize(h, TRNSOLVER_EIG_MODE_NOVECTOR, TRNBLAS_FILL_MODE_UPPER, n, A.data(),
                                                lda, W.data(), &lwork, params, batch),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<double> work(static_cast<std::size_t>(lwork));
  ASSERT_EQ(trnsolverDnDsyevjBatched(h, TRNSOLVER_EIG_MODE_NOVECTOR, TRNBLAS_FILL_MODE_UPPER, n, A.data(), lda,
                                     W.data(), work.data(), lwork, info.data(), params, batch),
            TRNSOLVER_STATUS_SUCCESS);
  for (int k = 0; k < batch; ++k) {
    EXPECT_EQ(info[k], 0);
    for (int j = 0; j < n; ++j) EXPECT_NEAR(W[j + k * n], ref[j + k * n], 1e-13);
  }
  int sweeps = 0;
  EXPECT_EQ(trnsolverDnXsyevjGetSweeps(h, params, &sweeps), TRNSOLVER_STATUS_NOT_SUPPORTED);
  // Single fp32 matrix through the same handle, upper triangle.
  std::vector<float> Af(A.begin(), A.begin() + lda * n), Wf(n);
  int one = -1;
  ASSERT_EQ(trnsolverDnSsyevj(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_UPPER, n, Af.data(), lda, Wf.data(),
                              work.data() == nullptr ? nullptr : reinterpret_cast<float*>(work.data()), 1, &one, params),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(one, 0);
  for (int j = 0; j < n; ++j) EXPECT_NEAR(Wf[j], ref[j], 1e-5);
}

TEST_F(TrnsolverCApi, InvalidArgumentsReportPositionAndWriteNothing) {
  const int n = 4;
  std::vector<float> A(16, 1.0f), W(4, -5.0f), work(4);
  const auto A0 = A;
  const auto W0 = W;
  int info = 0;
  struct Bad {
    int position;
    trnsolverStatus_t st;
  };
  auto call = [&](trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int nn, float* a, int lda, float* w, float* wk,
                  int lwork, int* inf) {
    return trnsolverDnSsyevj(h, jobz, uplo, nn, a, lda, w, wk, lwork, inf, params);
  };
  const auto V = TRNSOLVER_EIG_MODE_VECTOR;
  const auto L = TRNBLAS_FILL_MODE_LOWER;
  EXPECT_EQ(call(static_cast<trnsolverEigMode_t>(7), L, n, A.data(), n, W.data(), work.data(), 4, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -1);
  EXPECT_NE(g_last_log.find("parameter number 1"), std::string::npos) << g_last_log;
  EXPECT_EQ(call(V, TRNBLAS_FILL_MODE_FULL, n, A.data(), n, W.data(), work.data(), 4, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -2);
  EXPECT_EQ(call(V, L, -1, A.data(), n, W.data(), work.data(), 4, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -3);
  EXPECT_EQ(call(V, L, n, nullptr, n, W.data(), work.data(), 4, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -4);
  EXPECT_EQ(call(V, L, n, A.data(), n - 1, W.data(), work.data(), 4, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -5);
  EXPECT_EQ(call(V, L, n, A.data(), n, nullptr, work.data(), 4, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -6);
  EXPECT_EQ(call(V, L, n, A.data(), n, W.data(), nullptr, 4, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -7);
  EXPECT_EQ(call(V, L, n, A.data(), n, W.data(), work.data(), 0, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -8);
  EXPECT_EQ(call(V, L, n, A.data(), n, W.data(), work.data(), 4, nullptr), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnSsyevj(h, V, L, n, A.data(), n, W.data(), work.data(), 4, &info, nullptr),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -10);
  EXPECT_EQ(trnsolverDnSsyevjBatched(h, V, L, n, A.data(), n, W.data(), work.data(), 4, &info, params, -1),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -11);
  EXPECT_EQ(std::memcmp(A.data(), A0.data(), A.size() * sizeof(float)), 0);
  EXPECT_EQ(std::memcmp(W.data(), W0.data(), W.size() * sizeof(float)), 0);
  // Too large for the SBUF-resident kernel: NOT_SUPPORTED, nothing written.
  std::vector<float> big(1);
  EXPECT_EQ(call(V, L, 5000, big.data(), 5000, W.data(), work.data(), 4, &info), TRNSOLVER_STATUS_NOT_SUPPORTED);
  // Handles and parameter objects.
  EXPECT_EQ(trnsolverDnSsyevj(nullptr, V, L, n, A.data(), n, W.data(), work.data(), 4, &info, params),
            TRNSOLVER_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(trnsolverDnXsyevjSetMaxSweeps(params, 0), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnXsyevjSetTolerance(params, -1.0), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnXsyevjSetTolerance(nullptr, 1e-6), TRNSOLVER_STATUS_INVALID_VALUE);
  trnStream_t s = reinterpret_cast<trnStream_t>(0x1234);
  EXPECT_EQ(trnsolverDnSetStream(h, s), TRNSOLVER_STATUS_SUCCESS);
  trnStream_t got = nullptr;
  EXPECT_EQ(trnsolverDnGetStream(h, &got), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(got, s);
  EXPECT_EQ(trnsolverDnSetDeterministicMode(h, static_cast<trnsolverDeterministicMode_t>(5)), TRNSOLVER_STATUS_INVALID_VALUE);
  trnsolverDnHandle_t dead = nullptr;
  ASSERT_EQ(trnsolverDnCreate(&dead), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnDestroy(dead), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnDestroy(dead), TRNSOLVER_STATUS_NOT_INITIALIZED);
}

TEST_F(TrnsolverCApi, NotConvergedIsInfoNPlusOne) {
  const int n = 24;
  auto a = solver_test::random_symmetric(n, n, 5);
  std::vector<float> A(a.begin(), a.end()), W(n), work(1);
  int info = 0;
  ASSERT_EQ(trnsolverDnXsyevjSetMaxSweeps(params, 1), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnSsyevj(h, TRNSOLVER_EIG_MODE_NOVECTOR, TRNBLAS_FILL_MODE_LOWER, n, A.data(), n, W.data(),
                              work.data(), 1, &info, params),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, n + 1);
  int sweeps = 0;
  EXPECT_EQ(trnsolverDnXsyevjGetSweeps(h, params, &sweeps), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(sweeps, 1);
}

TEST_F(TrnsolverCApi, SpotrfSampleFlowAndArgumentChecks) {
  // The cuSOLVER potrf sample flow on a 3 x 3 SPD matrix; result against LAPACKE_spotrf.
  const int n = 3, lda = 3;
  float A[] = {4.0f, 2.0f, 2.0f, 2.0f, 5.0f, 3.0f, 2.0f, 3.0f, 6.0f};
  float R[9];
  std::memcpy(R, A, sizeof A);
  int lwork = 0, info = -9;
  ASSERT_EQ(trnsolverDnSpotrf_bufferSize(h, TRNBLAS_FILL_MODE_LOWER, n, A, lda, &lwork), TRNSOLVER_STATUS_SUCCESS);
  std::vector<float> work(static_cast<std::size_t>(lwork));
  ASSERT_EQ(trnsolverDnSpotrf(h, TRNBLAS_FILL_MODE_LOWER, n, A, lda, work.data(), lwork, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  ASSERT_EQ(LAPACKE_spotrf(LAPACK_COL_MAJOR, 'L', n, R, lda), 0);
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) EXPECT_NEAR(A[i + j * lda], R[i + j * lda], 1e-6);
  EXPECT_EQ(A[0 + 1 * lda], 2.0f) << "upper triangle untouched";
  // Not positive definite: devInfo = order of the failing minor.
  float B[] = {1.0f, 2.0f, 0.0f, 2.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f};
  ASSERT_EQ(trnsolverDnSpotrf(h, TRNBLAS_FILL_MODE_LOWER, n, B, lda, work.data(), lwork, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 2);
  // Bad arguments: devInfo = -position, A untouched.
  float C[9];
  std::memcpy(C, R, sizeof R);
  EXPECT_EQ(trnsolverDnSpotrf(h, TRNBLAS_FILL_MODE_FULL, n, C, lda, work.data(), lwork, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -1);
  EXPECT_EQ(trnsolverDnSpotrf(h, TRNBLAS_FILL_MODE_LOWER, n, C, 2, work.data(), lwork, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -4);
  EXPECT_EQ(trnsolverDnSpotrf(h, TRNBLAS_FILL_MODE_LOWER, n, C, lda, work.data(), 0, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -6);
  EXPECT_EQ(std::memcmp(C, R, sizeof R), 0);
  // potrs with the factor R (LAPACKE's): solve A x = b for b = A * (1, 2, 3).
  float b[] = {4.0f + 4.0f + 6.0f, 2.0f + 10.0f + 9.0f, 2.0f + 6.0f + 18.0f};
  ASSERT_EQ(trnsolverDnSpotrs(h, TRNBLAS_FILL_MODE_LOWER, n, 1, R, lda, b, n, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_NEAR(b[0], 1.0f, 1e-5);
  EXPECT_NEAR(b[1], 2.0f, 1e-5);
  EXPECT_NEAR(b[2], 3.0f, 1e-5);
  EXPECT_EQ(trnsolverDnSpotrs(h, TRNBLAS_FILL_MODE_LOWER, n, -1, R, lda, b, n, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -3);
  EXPECT_EQ(trnsolverDnSpotrs(h, TRNBLAS_FILL_MODE_LOWER, n, 1, R, lda, b, 1, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -7);
  // The same through the fp64 entry points.
  double Ad[] = {4.0, 2.0, 2.0, 2.0, 5.0, 3.0, 2.0, 3.0, 6.0}, bd[] = {14.0, 21.0, 26.0}, wd[1];
  ASSERT_EQ(trnsolverDnDpotrf_bufferSize(h, TRNBLAS_FILL_MODE_UPPER, n, Ad, lda, &lwork), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnDpotrf(h, TRNBLAS_FILL_MODE_UPPER, n, Ad, lda, wd, 1, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  ASSERT_EQ(trnsolverDnDpotrs(h, TRNBLAS_FILL_MODE_UPPER, n, 1, Ad, lda, bd, n, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_NEAR(bd[0], 1.0, 1e-14);
  EXPECT_NEAR(bd[1], 2.0, 1e-14);
  EXPECT_NEAR(bd[2], 3.0, 1e-14);
}

TEST_F(TrnsolverCApi, SgetrfSampleFlowAndArgumentChecks) {
  // The cuSOLVER getrf sample's matrix A = [1 2 3; 4 5 6; 7 8 10], b = (1, 2, 3): x = (-1/3, 2/3, 0).
  const int n = 3, lda = 3;
  float A[] = {1.0f, 4.0f, 7.0f, 2.0f, 5.0f, 8.0f, 3.0f, 6.0f, 10.0f};
  float b[] = {1.0f, 2.0f, 3.0f};
  int lwork = 0, info = -1, ipiv[3] = {0, 0, 0};
  ASSERT_EQ(trnsolverDnSgetrf_bufferSize(h, n, n, A, lda, &lwork), TRNSOLVER_STATUS_SUCCESS);
  std::vector<float> work(static_cast<std::size_t>(lwork));
  ASSERT_EQ(trnsolverDnSgetrf(h, n, n, A, lda, work.data(), ipiv, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  float R[] = {1.0f, 4.0f, 7.0f, 2.0f, 5.0f, 8.0f, 3.0f, 6.0f, 10.0f};
  int rip[3];
  ASSERT_EQ(LAPACKE_sgetrf(LAPACK_COL_MAJOR, n, n, R, lda, rip), 0);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(ipiv[i], rip[i]);
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(A[i], R[i], 1e-6);
  ASSERT_EQ(trnsolverDnSgetrs(h, TRNBLAS_OP_N, n, 1, A, lda, ipiv, b, n, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_NEAR(b[0], -1.0f / 3.0f, 1e-6);
  EXPECT_NEAR(b[1], 2.0f / 3.0f, 1e-6);
  EXPECT_NEAR(b[2], 0.0f, 1e-6);
  // Bad arguments.
  EXPECT_EQ(trnsolverDnSgetrf(h, n, n, A, 2, work.data(), ipiv, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -4);
  EXPECT_EQ(trnsolverDnSgetrs(h, static_cast<trnblasOperation_t>(9), n, 1, A, lda, ipiv, b, n, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -1);
  int bad[3] = {1, 7, 3};
  const float b0[] = {b[0], b[1], b[2]};
  EXPECT_EQ(trnsolverDnSgetrs(h, TRNBLAS_OP_N, n, 1, A, lda, bad, b, n, &info), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -6);
  EXPECT_EQ(std::memcmp(b, b0, sizeof b0), 0);
}

TEST_F(TrnsolverCApi, DgetrfAndIrsGesvSampleFlow) {
  // cuSOLVER's getrf sample matrix through the fp64 and IRS entry points.
  const int n = 3;
  double A[] = {1.0, 4.0, 7.0, 2.0, 5.0, 8.0, 3.0, 6.0, 10.0}, B[] = {1.0, 2.0, 3.0}, X[3];
  const double A0[] = {1.0, 4.0, 7.0, 2.0, 5.0, 8.0, 3.0, 6.0, 10.0};
  int ipiv[3], iter = -99, info = -99;
  size_t bytes = 0;
  ASSERT_EQ(trnsolverDnDBgesv_bufferSize(h, n, 1, A, n, ipiv, B, n, X, n, nullptr, &bytes), TRNSOLVER_STATUS_SUCCESS);
  std::vector<unsigned char> ws(bytes);
  ASSERT_EQ(trnsolverDnDBgesv(h, n, 1, A, n, ipiv, B, n, X, n, ws.data(), bytes, &iter, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_GE(iter, 0);
  EXPECT_NEAR(X[0], -1.0 / 3.0, 1e-15);
  EXPECT_NEAR(X[1], 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(X[2], 0.0, 1e-15);
  EXPECT_EQ(std::memcmp(A, A0, sizeof A0), 0) << "dA unchanged when refinement converged";
  EXPECT_EQ(trnsolverDnDSgesv(h, n, 1, A, n, ipiv, B, n, X, n, ws.data(), bytes - 1, &iter, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -11);
  int lwork = 0;
  ASSERT_EQ(trnsolverDnDgetrf_bufferSize(h, n, n, A, n, &lwork), TRNSOLVER_STATUS_SUCCESS);
  std::vector<double> work(static_cast<std::size_t>(lwork));
  ASSERT_EQ(trnsolverDnDgetrf(h, n, n, A, n, work.data(), ipiv, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  ASSERT_EQ(trnsolverDnDgetrs(h, TRNBLAS_OP_N, n, 1, A, n, ipiv, B, n, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_NEAR(B[0], -1.0 / 3.0, 1e-15);
  EXPECT_NEAR(B[1], 2.0 / 3.0, 1e-15);
}

}  // namespace
