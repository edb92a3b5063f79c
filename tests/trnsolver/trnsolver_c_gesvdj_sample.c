/* NVIDIA's cuSOLVER gesvdj sample (CUDALibrarySamples, cuSOLVER/gesvdj: "Singular Value
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
