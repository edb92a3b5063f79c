/* The call sequences of the CUDALibrarySamples cuSOLVER programs the other C99 walkthroughs do not
 * cover (tools/acceptance_audit.py's samples table): getrf, Xpotrf, syevj, syevjBatched,
 * gesvdjBatched, the <t1><t2>gesv IRS program (DHgesv) and IRSXgesv's niters query. The project's own
 * programs (NVIDIA's code is not committed: docs/trnsolver.md), written as a C program against
 * cusolverDn.h would make them after the prefix substitution; the matrices and the checks of the
 * results belong to test_trnsolver_acceptance.cpp (TrnsolverCSamples.*), which compares them with dense
 * loops there.
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of the routines called.
 * Accuracy: that of the routines (docs/trnsolver.md). Limits: column-major, leading dimensions = row
 * counts, n <= 64, one right-hand side. Every function leaves its inputs unchanged and returns 0, the
 * first status that was not SUCCESS, 100 + info when a routine's info was not 0, or -1 when a host
 * allocation failed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trnsolverDn.h"
#include "trnsolver_c_walkthrough.h"

int trnsolver_sample_getrf(int n, const double* A, const double* b, double* x, int* ipiv);
int trnsolver_sample_xpotrf(int n, const double* A, const double* b, double* x);
int trnsolver_sample_syevj(int n, const double* A, double* W, double* V, double* residual, int* sweeps);
int trnsolver_sample_syevj_batched(int n, int batch, const double* A, double* W, double* V, int* info);
int trnsolver_sample_gesvdj_batched(int m, int n, int batch, const double* A, double* S, double* U, double* V, int* info);
int trnsolver_sample_dhgesv(int n, const double* A, const double* b, double* x, int* iter);
int trnsolver_sample_irsxgesv_niters(int n, const double* A, const double* b, double* x, int* niters);

static double* copy_of(const double* src, size_t count) {
  double* p = (double*)malloc(sizeof(double) * (count > 0 ? count : 1));
  if (p != NULL) memcpy(p, src, sizeof(double) * count);
  return p;
}

/* getrf sample: Dgetrf_bufferSize, Dgetrf with pivoting, Dgetrs (op N): x = A \ b, ipiv 1-based. */
int trnsolver_sample_getrf(int n, const double* A, const double* b, double* x, int* ipiv) {
  trnsolverDnHandle_t handle = NULL;
  double *a = NULL, *work = NULL;
  int lwork = 0, info = 0, failed = 0;
  WALK_CHECK(trnsolverDnCreate(&handle));
  a = copy_of(A, (size_t)n * (size_t)n);
  if (a == NULL) WALK_CHECK(-1);
  memcpy(x, b, sizeof(double) * (size_t)n);
  WALK_CHECK(trnsolverDnDgetrf_bufferSize(handle, n, n, a, n, &lwork));
  work = (double*)malloc(sizeof(double) * (size_t)(lwork > 0 ? lwork : 1));
  if (work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnDgetrf(handle, n, n, a, n, work, ipiv, &info));
  WALK_CHECK(info != 0 ? 100 + info : 0);
  WALK_CHECK(trnsolverDnDgetrs(handle, TRNBLAS_OP_N, n, 1, a, n, ipiv, x, n, &info));
  WALK_CHECK(info != 0 ? 100 + info : 0);
done:
  free(work);
  free(a);
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* Xpotrf sample: params, Xpotrf_bufferSize (device and host bytes), Xpotrf (lower, R_64F), Xpotrs. */
int trnsolver_sample_xpotrf(int n, const double* A, const double* b, double* x) {
  trnsolverDnHandle_t handle = NULL;
  trnsolverDnParams_t params = NULL;
  double* a = NULL;
  void *dev = NULL, *host = NULL;
  size_t dev_bytes = 0, host_bytes = 0;
  int info = 0, failed = 0;
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnCreateParams(&params));
  a = copy_of(A, (size_t)n * (size_t)n);
  if (a == NULL) WALK_CHECK(-1);
  memcpy(x, b, sizeof(double) * (size_t)n);
  WALK_CHECK(trnsolverDnXpotrf_bufferSize(handle, params, TRNBLAS_FILL_MODE_LOWER, n, TRN_R_64F, a, n, TRN_R_64F,
                                          &dev_bytes, &host_bytes));
  dev = malloc(dev_bytes > 0 ? dev_bytes : 1);
  host = malloc(host_bytes > 0 ? host_bytes : 1);
  if (dev == NULL || host == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnXpotrf(handle, params, TRNBLAS_FILL_MODE_LOWER, n, TRN_R_64F, a, n, TRN_R_64F, dev, dev_bytes, host,
                               host_bytes, &info));
  WALK_CHECK(info != 0 ? 100 + info : 0);
  WALK_CHECK(trnsolverDnXpotrs(handle, params, TRNBLAS_FILL_MODE_LOWER, n, 1, TRN_R_64F, a, n, TRN_R_64F, x, n, &info));
  WALK_CHECK(info != 0 ? 100 + info : 0);
done:
  free(host);
  free(dev);
  free(a);
  if (params != NULL && trnsolverDnDestroyParams(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* syevj sample: syevjInfo with tolerance 1e-7 and 15 sweeps, Dsyevj_bufferSize, Dsyevj (vectors, lower),
 * then the sweeps and residual it reports. V (n x n) receives the eigenvectors. */
int trnsolver_sample_syevj(int n, const double* A, double* W, double* V, double* residual, int* sweeps) {
  trnsolverDnHandle_t handle = NULL;
  syevjInfo_t params = NULL;
  double* work = NULL;
  int lwork = 0, info = 0, failed = 0;
  memcpy(V, A, sizeof(double) * (size_t)n * (size_t)n);
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnCreateSyevjInfo(&params));
  WALK_CHECK(trnsolverDnXsyevjSetTolerance(params, 1.e-7));
  WALK_CHECK(trnsolverDnXsyevjSetMaxSweeps(params, 15));
  WALK_CHECK(trnsolverDnDsyevj_bufferSize(handle, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, V, n, W, &lwork,
                                          params));
  work = (double*)malloc(sizeof(double) * (size_t)(lwork > 0 ? lwork : 1));
  if (work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnDsyevj(handle, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, V, n, W, work, lwork, &info,
                               params));
  WALK_CHECK(info != 0 ? 100 + info : 0);
  WALK_CHECK(trnsolverDnXsyevjGetSweeps(handle, params, sweeps));
  WALK_CHECK(trnsolverDnXsyevjGetResidual(handle, params, residual));
done:
  free(work);
  if (params != NULL && trnsolverDnDestroySyevjInfo(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* syevjBatched sample: sorted eigenvalues (SetSortEig 1), DsyevjBatched_bufferSize, DsyevjBatched over
 * `batch` n x n matrices stored one after the other; info[batch]. */
int trnsolver_sample_syevj_batched(int n, int batch, const double* A, double* W, double* V, int* info) {
  trnsolverDnHandle_t handle = NULL;
  syevjInfo_t params = NULL;
  double* work = NULL;
  int lwork = 0, failed = 0;
  memcpy(V, A, sizeof(double) * (size_t)n * (size_t)n * (size_t)batch);
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnCreateSyevjInfo(&params));
  WALK_CHECK(trnsolverDnXsyevjSetTolerance(params, 1.e-7));
  WALK_CHECK(trnsolverDnXsyevjSetMaxSweeps(params, 15));
  WALK_CHECK(trnsolverDnXsyevjSetSortEig(params, 1));
  WALK_CHECK(trnsolverDnDsyevjBatched_bufferSize(handle, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, V, n, W,
                                                 &lwork, params, batch));
  work = (double*)malloc(sizeof(double) * (size_t)(lwork > 0 ? lwork : 1));
  if (work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnDsyevjBatched(handle, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, V, n, W, work, lwork,
                                      info, params, batch));
done:
  free(work);
  if (params != NULL && trnsolverDnDestroySyevjInfo(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* gesvdjBatched sample: sorted singular values, DgesvdjBatched_bufferSize, DgesvdjBatched (full U m x m and
 * V n x n per matrix) over `batch` m x n matrices; info[batch]. */
int trnsolver_sample_gesvdj_batched(int m, int n, int batch, const double* A, double* S, double* U, double* V, int* info) {
  trnsolverDnHandle_t handle = NULL;
  gesvdjInfo_t params = NULL;
  double *a = NULL, *work = NULL;
  int lwork = 0, failed = 0;
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnCreateGesvdjInfo(&params));
  WALK_CHECK(trnsolverDnXgesvdjSetTolerance(params, 1.e-7));
  WALK_CHECK(trnsolverDnXgesvdjSetMaxSweeps(params, 15));
  WALK_CHECK(trnsolverDnXgesvdjSetSortEig(params, 1));
  a = copy_of(A, (size_t)m * (size_t)n * (size_t)batch);
  if (a == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnDgesvdjBatched_bufferSize(handle, TRNSOLVER_EIG_MODE_VECTOR, m, n, a, m, S, U, m, V, n, &lwork,
                                                  params, batch));
  work = (double*)malloc(sizeof(double) * (size_t)(lwork > 0 ? lwork : 1));
  if (work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnDgesvdjBatched(handle, TRNSOLVER_EIG_MODE_VECTOR, m, n, a, m, S, U, m, V, n, work, lwork, info,
                                       params, batch));
done:
  free(work);
  free(a);
  if (params != NULL && trnsolverDnDestroyGesvdjInfo(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* The <t1><t2>gesv IRS sample's sequence: DHgesv_bufferSize (bytes), DHgesv (fp16 LU + fp64 refinement);
 * iter as DHgesv reports it (> 0 refined, < 0 fallback). B is given as an n x 1 column with ldb = n
 * (NVIDIA's program copies it with a cudaMemcpy2D that CUDA itself rejects: docs/trnsolver.md). */
int trnsolver_sample_dhgesv(int n, const double* A, const double* b, double* x, int* iter) {
  trnsolverDnHandle_t handle = NULL;
  double *a = NULL, *bb = NULL;
  trnsolver_int_t* ipiv = NULL;
  void* work = NULL;
  size_t bytes = 0;
  trnsolver_int_t niter = 0, info = 0;
  int failed = 0;
  WALK_CHECK(trnsolverDnCreate(&handle));
  a = copy_of(A, (size_t)n * (size_t)n);
  bb = copy_of(b, (size_t)n);
  ipiv = (trnsolver_int_t*)malloc(sizeof(trnsolver_int_t) * (size_t)n);
  if (a == NULL || bb == NULL || ipiv == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnDHgesv_bufferSize(handle, n, 1, a, n, ipiv, bb, n, x, n, NULL, &bytes));
  work = malloc(bytes > 0 ? bytes : 1);
  if (work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnDHgesv(handle, n, 1, a, n, ipiv, bb, n, x, n, work, bytes, &niter, &info));
  *iter = (int)niter;
  WALK_CHECK(info != 0 ? 100 + (int)info : 0);
done:
  free(work);
  free(ipiv);
  free(bb);
  free(a);
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* The IRS Xgesv sample's sequence with its niters query: params (R_64F main, R_32F lowest, classical
 * refinement, tol 1e-12), infos, IRSXgesv_bufferSize, IRSXgesv, IRSInfosGetNiters (equal to the
 * returned niters). */
int trnsolver_sample_irsxgesv_niters(int n, const double* A, const double* b, double* x, int* niters) {
  trnsolverDnHandle_t handle = NULL;
  trnsolverDnIRSParams_t params = NULL;
  trnsolverDnIRSInfos_t infos = NULL;
  double *a = NULL, *bb = NULL;
  void* work = NULL;
  size_t bytes = 0;
  trnsolver_int_t returned = 0, queried = 0, info = 0;
  int failed = 0;
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnIRSParamsCreate(&params));
  WALK_CHECK(trnsolverDnIRSInfosCreate(&infos));
  WALK_CHECK(trnsolverDnIRSParamsSetSolverPrecisions(params, TRNSOLVER_R_64F, TRNSOLVER_R_32F));
  WALK_CHECK(trnsolverDnIRSParamsSetRefinementSolver(params, TRNSOLVER_IRS_REFINE_CLASSICAL));
  WALK_CHECK(trnsolverDnIRSParamsSetTol(params, 1e-12));
  a = copy_of(A, (size_t)n * (size_t)n);
  bb = copy_of(b, (size_t)n);
  if (a == NULL || bb == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnIRSXgesv_bufferSize(handle, params, n, 1, &bytes));
  work = malloc(bytes > 0 ? bytes : 1);
  if (work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnIRSXgesv(handle, params, infos, n, 1, a, n, bb, n, x, n, work, bytes, &returned, &info));
  WALK_CHECK(info != 0 ? 100 + (int)info : 0);
  WALK_CHECK(trnsolverDnIRSInfosGetNiters(infos, &queried));
  WALK_CHECK(queried != returned ? 300 : 0);
  *niters = (int)queried;
done:
  free(work);
  free(bb);
  free(a);
  if (infos != NULL && trnsolverDnIRSInfosDestroy(infos) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (params != NULL && trnsolverDnIRSParamsDestroy(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}
