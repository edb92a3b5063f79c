/* NVIDIA's cuSOLVER Jacobi samples ported by prefix substitution to host memory (C99).
 *
 * gesvdj: NVIDIA's cuSOLVER gesvdj sample (CUDALibrarySamples, cuSOLVER/gesvdj: "Singular Value
 * Decomposition with singular vector (via Jacobi method)") ported by prefix substitution to host
 * memory, compiled as C99: the 3 x 2 matrix A = [1 2; 4 5; 2 1], tolerance 1e-7, at most 15 sweeps,
 * full U and V (econ = 0), Dgesvdj. Returns 0 and fills S (2), U (3 x 3), V (2 x 2), info, the
 * residual and sweeps the library reports, or the first failing status. The test compares the
 * results with LAPACKE_dgesvd and ||A - U S V^T|| (the sample prints these). */
#include <stddef.h>

#include "trnsolverDn.h"

int trnsolver_sample_gesvdj(double* S, double* U, double* V, int* info, double* residual, int* sweeps);
int trnsolver_sample_gesvdj(double* S, double* U, double* V, int* info, double* residual, int* sweeps) {
  trnsolverDnHandle_t handle = NULL;
  gesvdjInfo_t gesvdj_params = NULL;
  const int m = 3, n = 2, lda = 3, ldu = 3, ldv = 2;
  /*       | 1 2 |
   *   A = | 4 5 |
   *       | 2 1 |   (column-major) */
  double A[6] = {1.0, 4.0, 2.0, 2.0, 5.0, 1.0};
  double work[64];
  int lwork = 0, status;
  const double tol = 1.e-7;
  const int max_sweeps = 15;
  const trnsolverEigMode_t jobz = TRNSOLVER_EIG_MODE_VECTOR;
  const int econ = 0;
  if ((status = trnsolverDnCreate(&handle)) != TRNSOLVER_STATUS_SUCCESS) return status;
  if ((status = trnsolverDnCreateGesvdjInfo(&gesvdj_params)) != TRNSOLVER_STATUS_SUCCESS) return status;
  if ((status = trnsolverDnXgesvdjSetTolerance(gesvdj_params, tol)) != TRNSOLVER_STATUS_SUCCESS) return status;
  if ((status = trnsolverDnXgesvdjSetMaxSweeps(gesvdj_params, max_sweeps)) != TRNSOLVER_STATUS_SUCCESS) return status;
  status = trnsolverDnDgesvdj_bufferSize(handle, jobz, econ, m, n, A, lda, S, U, ldu, V, ldv, &lwork, gesvdj_params);
  if (status != TRNSOLVER_STATUS_SUCCESS) return status;
  if (lwork < 1 || lwork > 64) return -1;
  status = trnsolverDnDgesvdj(handle, jobz, econ, m, n, A, lda, S, U, ldu, V, ldv, work, lwork, info, gesvdj_params);
  if (status != TRNSOLVER_STATUS_SUCCESS) return status;
  if ((status = trnsolverDnXgesvdjGetSweeps(handle, gesvdj_params, sweeps)) != TRNSOLVER_STATUS_SUCCESS) return status;
  if ((status = trnsolverDnXgesvdjGetResidual(handle, gesvdj_params, residual)) != TRNSOLVER_STATUS_SUCCESS) return status;
  trnsolverDnDestroyGesvdjInfo(gesvdj_params);
  trnsolverDnDestroy(handle);
  return 0;
}

/* sygvj: NVIDIA's cuSOLVER sygvj sample (CUDALibrarySamples, cuSOLVER/sygvj): A x = lambda B x
 * (itype 1) for A = [3.5 0.5 0; 0.5 3.5 0; 0 0 2], B = [10 2 3; 2 10 5; 3 5 10], lower, vectors,
 * tolerance 1e-7, at most 15 sweeps, Dsygvj. Returns 0 and fills W (3), X (3 x 3, in A), info, the
 * residual and sweeps; the test compares with LAPACKE_dsygv and |A X - B X diag(W)|. */
int trnsolver_sample_sygvj(double* W, double* X, int* info, double* residual, int* sweeps);
int trnsolver_sample_sygvj(double* W, double* X, int* info, double* residual, int* sweeps) {
  trnsolverDnHandle_t handle = NULL;
  syevjInfo_t syevj_params = NULL;
  const int m = 3, lda = 3, ldb = 3;
  double A[9] = {3.5, 0.5, 0.0, 0.5, 3.5, 0.0, 0.0, 0.0, 2.0};
  double B[9] = {10.0, 2.0, 3.0, 2.0, 10.0, 5.0, 3.0, 5.0, 10.0};
  double work[64];
  int lwork = 0, status, i;
  const trnsolverEigType_t itype = TRNSOLVER_EIG_TYPE_1;
  const trnsolverEigMode_t jobz = TRNSOLVER_EIG_MODE_VECTOR;
  const trnblasFillMode_t uplo = TRNBLAS_FILL_MODE_LOWER;
  if ((status = trnsolverDnCreate(&handle)) != TRNSOLVER_STATUS_SUCCESS) return status;
  if ((status = trnsolverDnCreateSyevjInfo(&syevj_params)) != TRNSOLVER_STATUS_SUCCESS) return status;
  if ((status = trnsolverDnXsyevjSetTolerance(syevj_params, 1.e-7)) != TRNSOLVER_STATUS_SUCCESS) return status;
  if ((status = trnsolverDnXsyevjSetMaxSweeps(syevj_params, 15)) != TRNSOLVER_STATUS_SUCCESS) return status;
  status = trnsolverDnDsygvj_bufferSize(handle, itype, jobz, uplo, m, A, lda, B, ldb, W, &lwork, syevj_params);
  if (status != TRNSOLVER_STATUS_SUCCESS) return status;
  if (lwork < 1 || lwork > 64) return -1;
  status = trnsolverDnDsygvj(handle, itype, jobz, uplo, m, A, lda, B, ldb, W, work, lwork, info, syevj_params);
  if (status != TRNSOLVER_STATUS_SUCCESS) return status;
  for (i = 0; i < 9; ++i) X[i] = A[i];
  if ((status = trnsolverDnXsyevjGetSweeps(handle, syevj_params, sweeps)) != TRNSOLVER_STATUS_SUCCESS) return status;
  if ((status = trnsolverDnXsyevjGetResidual(handle, syevj_params, residual)) != TRNSOLVER_STATUS_SUCCESS) return status;
  trnsolverDnDestroySyevjInfo(syevj_params);
  trnsolverDnDestroy(handle);
  return 0;
}
