/* trnsolverDnDgesvdj and trnsolverDnDsygvj from plain C99: the project's own walkthroughs of the Jacobi
 * call sequences (handle, the gesvdjInfo / syevjInfo object, tolerance, maximum sweeps, the workspace
 * query, the call, info, the sweeps and residual queries, destroy) as a C program written against
 * cuSOLVER's cusolverDn<t>gesvdj / sygvj would make it. The matrices and their expected results belong
 * to test_trnsolver_gesvdj.cpp and test_trnsolver_sygvj.cpp (*.CusolverSamplePortReproduces), which
 * check them against LAPACKE dgesvd / dsygv and dense residual loops.
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of Dgesvdj / Dsygvj.
 * Accuracy: that of Dgesvdj / Dsygvj (docs/trnsolver.md "gesvdj", "sygvj").
 * Limits: column-major, leading dimensions = row counts; tolerance 1e-7, at most 15 sweeps. */
#include <stdlib.h>
#include <string.h>

#include "trnsolverDn.h"
#include "trnsolver_c_walkthrough.h"

int trnsolver_walkthrough_gesvdj(int m, int n, const double* A, double* S, double* U, double* V, int* info,
                                 double* residual, int* sweeps);
int trnsolver_walkthrough_sygvj(int n, const double* A, const double* B, double* W, double* X, int* info,
                                double* residual, int* sweeps);

/* Full SVD (econ 0) of the m x n A (left unchanged): S (min(m, n)), U (m x m), V (n x n); info, and the
 * residual and sweeps gesvdj reports. Returns 0, the first status that was not SUCCESS, or -1 when a
 * host allocation failed. */
int trnsolver_walkthrough_gesvdj(int m, int n, const double* A, double* S, double* U, double* V, int* info,
                                 double* residual, int* sweeps) {
  trnsolverDnHandle_t handle = NULL;
  gesvdjInfo_t params = NULL;
  double *a_copy = NULL, *work = NULL;
  int lwork = 0, failed = 0;
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnCreateGesvdjInfo(&params));
  WALK_CHECK(trnsolverDnXgesvdjSetTolerance(params, 1.e-7));
  WALK_CHECK(trnsolverDnXgesvdjSetMaxSweeps(params, 15));
  a_copy = (double*)malloc(sizeof(double) * (size_t)(m * n));
  if (a_copy == NULL) WALK_CHECK(-1);
  memcpy(a_copy, A, sizeof(double) * (size_t)(m * n));
  WALK_CHECK(trnsolverDnDgesvdj_bufferSize(handle, TRNSOLVER_EIG_MODE_VECTOR, 0, m, n, a_copy, m, S, U, m, V, n, &lwork,
                                           params));
  work = (double*)malloc(sizeof(double) * (size_t)(lwork > 0 ? lwork : 1));
  if (work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnDgesvdj(handle, TRNSOLVER_EIG_MODE_VECTOR, 0, m, n, a_copy, m, S, U, m, V, n, work, lwork, info,
                                params));
  WALK_CHECK(trnsolverDnXgesvdjGetSweeps(handle, params, sweeps));
  WALK_CHECK(trnsolverDnXgesvdjGetResidual(handle, params, residual));
done:
  free(work);
  free(a_copy);
  if (params != NULL && trnsolverDnDestroyGesvdjInfo(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* A x = lambda B x (itype 1, lower triangles read) for the n x n symmetric A and SPD B (left unchanged):
 * W (n), X (n x n, the eigenvectors Dsygvj leaves in A's place); info, residual and sweeps. Returns as
 * trnsolver_walkthrough_gesvdj. */
int trnsolver_walkthrough_sygvj(int n, const double* A, const double* B, double* W, double* X, int* info,
                                double* residual, int* sweeps) {
  trnsolverDnHandle_t handle = NULL;
  syevjInfo_t params = NULL;
  double *b_copy = NULL, *work = NULL;
  int lwork = 0, failed = 0;
  const size_t bytes = sizeof(double) * (size_t)(n * n);
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnCreateSyevjInfo(&params));
  WALK_CHECK(trnsolverDnXsyevjSetTolerance(params, 1.e-7));
  WALK_CHECK(trnsolverDnXsyevjSetMaxSweeps(params, 15));
  b_copy = (double*)malloc(bytes);
  if (b_copy == NULL) WALK_CHECK(-1);
  memcpy(X, A, bytes); /* Dsygvj overwrites A with the eigenvectors: work in X */
  memcpy(b_copy, B, bytes);
  WALK_CHECK(trnsolverDnDsygvj_bufferSize(handle, TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_MODE_VECTOR,
                                          TRNBLAS_FILL_MODE_LOWER, n, X, n, b_copy, n, W, &lwork, params));
  work = (double*)malloc(sizeof(double) * (size_t)(lwork > 0 ? lwork : 1));
  if (work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnDsygvj(handle, TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, X,
                               n, b_copy, n, W, work, lwork, info, params));
  WALK_CHECK(trnsolverDnXsyevjGetSweeps(handle, params, sweeps));
  WALK_CHECK(trnsolverDnXsyevjGetResidual(handle, params, residual));
done:
  free(work);
  free(b_copy);
  if (params != NULL && trnsolverDnDestroySyevjInfo(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}
