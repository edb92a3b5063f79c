/* trnsolver's symmetric eigensolvers and Xtrtri from plain C99: the project's own walkthroughs of their
 * call sequences as a C program written against cuSOLVER/cuBLAS would make them (host memory; trnsci runs
 * synchronously, so the stream is the default NULL one):
 *   syevd / syevdx:   handle, stream, D<routine>_bufferSize, the call (VECTOR, LOWER; syevdx range I);
 *   sygvd / sygvdx:   the same for A x = lambda B x (itype 1; sygvdx range I);
 *   Xsyevd / Xsyevdx: params object, the 64-bit workspace query (device + host bytes; the host buffer
 *                     only when its size is positive), the call with TRN_R_64F (Xsyevdx range ALL, whose
 *                     vl, vu, il, iu are not read);
 *   Xtrtri:           the 64-bit workspace query, the in-place inverse (UPPER, NON_UNIT), then
 *                     |I - A A^-1|_inf with trnblasGemmEx (R_64F, COMPUTE_64F).
 * The matrices and expected results belong to test_trnsolver_syevd.cpp and test_trnsolver_xeig.cpp
 * (TrnsolverSyevdSamples.*, TrnsolverXsyevd.*, TrnsolverXtrtri.*), which check them against known spectra,
 * LAPACKE dsygv, dense residual loops and an exact triangular inverse.
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of the routines called.
 * Accuracy: that of syevd/sygvd/Xsyevd/Xtrtri (docs/trnsolver.md "syevd, syevdx, ...", "Xtrtri").
 * Limits: column-major, lda = ldb = n; A and B left unchanged (V receives the eigenvectors). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trnblas.h"
#include "trnsolverDn.h"
#include "trnsolver_c_walkthrough.h"

int trnsolver_walkthrough_syevd(int x_range, int n, const double* A, int il, int iu, double* V, double* W, int* meig,
                                int* info);
int trnsolver_walkthrough_sygvd(int x_range, int n, const double* A, const double* B, int il, int iu, double* V,
                                double* W, int* meig, int* info);
int trnsolver_walkthrough_xsyevd(int x_range, int64_t n, const double* A, double* V, double* W, int64_t* meig,
                                 int* info);
int trnsolver_walkthrough_xtrtri(int64_t n, const double* A, double* A_inv, double* res_norm, int* info);

/* Eigenvalues W (ascending) and eigenvectors V (n x n) of the symmetric A: Dsyevd (x_range 0; meig = n)
 * or Dsyevdx with range I, il..iu (x_range 1; meig = iu - il + 1 columns defined). Returns 0, the first
 * status that was not SUCCESS, or -1 when a host allocation failed. */
int trnsolver_walkthrough_syevd(int x_range, int n, const double* A, int il, int iu, double* V, double* W, int* meig,
                                int* info) {
  const trnsolverEigMode_t jobz = TRNSOLVER_EIG_MODE_VECTOR;
  const trnblasFillMode_t uplo = TRNBLAS_FILL_MODE_LOWER;
  trnsolverDnHandle_t handle = NULL;
  double* work = NULL;
  int lwork = 0, failed = 0;
  *meig = n;
  memcpy(V, A, sizeof(double) * (size_t)(n * n));
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnSetStream(handle, NULL));
  if (x_range)
    WALK_CHECK(trnsolverDnDsyevdx_bufferSize(handle, jobz, TRNSOLVER_EIG_RANGE_I, uplo, n, V, n, 0.0, 0.0, il, iu, meig,
                                             W, &lwork));
  else
    WALK_CHECK(trnsolverDnDsyevd_bufferSize(handle, jobz, uplo, n, V, n, W, &lwork));
  work = (double*)malloc(sizeof(double) * (size_t)(lwork > 0 ? lwork : 1));
  if (work == NULL) WALK_CHECK(-1);
  if (x_range)
    WALK_CHECK(trnsolverDnDsyevdx(handle, jobz, TRNSOLVER_EIG_RANGE_I, uplo, n, V, n, 0.0, 0.0, il, iu, meig, W, work,
                                  lwork, info));
  else
    WALK_CHECK(trnsolverDnDsyevd(handle, jobz, uplo, n, V, n, W, work, lwork, info));
done:
  free(work);
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* A x = lambda B x (itype 1) for symmetric A and SPD B: Dsygvd (x_range 0) or Dsygvdx with range I,
 * il..iu (x_range 1). V holds the B-orthonormal eigenvectors. Returns as trnsolver_walkthrough_syevd. */
int trnsolver_walkthrough_sygvd(int x_range, int n, const double* A, const double* B, int il, int iu, double* V,
                                double* W, int* meig, int* info) {
  const trnsolverEigType_t itype = TRNSOLVER_EIG_TYPE_1;
  const trnsolverEigMode_t jobz = TRNSOLVER_EIG_MODE_VECTOR;
  const trnsolverEigRange_t range = TRNSOLVER_EIG_RANGE_I;
  const trnblasFillMode_t uplo = TRNBLAS_FILL_MODE_LOWER;
  trnsolverDnHandle_t handle = NULL;
  double *b_copy = (double*)malloc(sizeof(double) * (size_t)(n * n)), *work = NULL;
  int lwork = 0, failed = 0;
  *meig = n;
  if (b_copy == NULL) WALK_CHECK(-1);
  memcpy(V, A, sizeof(double) * (size_t)(n * n));
  memcpy(b_copy, B, sizeof(double) * (size_t)(n * n));
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnSetStream(handle, NULL));
  if (x_range)
    WALK_CHECK(trnsolverDnDsygvdx_bufferSize(handle, itype, jobz, range, uplo, n, V, n, b_copy, n, 0.0, 0.0, il, iu,
                                             meig, W, &lwork));
  else
    WALK_CHECK(trnsolverDnDsygvd_bufferSize(handle, itype, jobz, uplo, n, V, n, b_copy, n, W, &lwork));
  work = (double*)malloc(sizeof(double) * (size_t)(lwork > 0 ? lwork : 1));
  if (work == NULL) WALK_CHECK(-1);
  if (x_range)
    WALK_CHECK(trnsolverDnDsygvdx(handle, itype, jobz, range, uplo, n, V, n, b_copy, n, 0.0, 0.0, il, iu, meig, W, work,
                                  lwork, info));
  else
    WALK_CHECK(trnsolverDnDsygvd(handle, itype, jobz, uplo, n, V, n, b_copy, n, W, work, lwork, info));
done:
  free(work);
  free(b_copy);
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* The syevd problem through the 64-bit API: Xsyevd (x_range 0) or Xsyevdx with range ALL (x_range 1).
 * Returns as trnsolver_walkthrough_syevd. */
int trnsolver_walkthrough_xsyevd(int x_range, int64_t n, const double* A, double* V, double* W, int64_t* meig,
                                 int* info) {
  const trnsolverEigMode_t jobz = TRNSOLVER_EIG_MODE_VECTOR;
  const trnsolverEigRange_t range = TRNSOLVER_EIG_RANGE_ALL;
  const trnblasFillMode_t uplo = TRNBLAS_FILL_MODE_LOWER;
  trnsolverDnHandle_t handle = NULL;
  trnsolverDnParams_t params = NULL;
  size_t device_bytes = 0, host_bytes = 0;
  void *device_work = NULL, *host_work = NULL;
  double vl = 0, vu = 0; /* not read for range ALL */
  int failed = 0;
  *meig = n;
  memcpy(V, A, sizeof(double) * (size_t)(n * n));
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnSetStream(handle, NULL));
  WALK_CHECK(trnsolverDnCreateParams(&params));
  if (x_range)
    WALK_CHECK(trnsolverDnXsyevdx_bufferSize(handle, params, jobz, range, uplo, n, TRN_R_64F, V, n, &vl, &vu, 0, 0,
                                             meig, TRN_R_64F, W, TRN_R_64F, &device_bytes, &host_bytes));
  else
    WALK_CHECK(trnsolverDnXsyevd_bufferSize(handle, params, jobz, uplo, n, TRN_R_64F, V, n, TRN_R_64F, W, TRN_R_64F,
                                            &device_bytes, &host_bytes));
  device_work = malloc(device_bytes > 0 ? device_bytes : 1);
  if (device_work == NULL) WALK_CHECK(-1);
  if (host_bytes > 0) {
    host_work = malloc(host_bytes);
    if (host_work == NULL) WALK_CHECK(-1);
  }
  if (x_range)
    WALK_CHECK(trnsolverDnXsyevdx(handle, params, jobz, range, uplo, n, TRN_R_64F, V, n, &vl, &vu, 0, 0, meig,
                                  TRN_R_64F, W, TRN_R_64F, device_work, device_bytes, host_work, host_bytes, info));
  else
    WALK_CHECK(trnsolverDnXsyevd(handle, params, jobz, uplo, n, TRN_R_64F, V, n, TRN_R_64F, W, TRN_R_64F, device_work,
                                 device_bytes, host_work, host_bytes, info));
done:
  free(host_work);
  free(device_work);
  if (params != NULL && trnsolverDnDestroyParams(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* A_inv: the inverse of the upper triangular A (non-unit diagonal; the strict lower triangle of A_inv is
 * A's, untouched); res_norm = |I - A A_inv|_inf with A's strict lower triangle taken as zero (the caller
 * passes a triangular A). Returns as trnsolver_walkthrough_syevd. */
int trnsolver_walkthrough_xtrtri(int64_t n, const double* A, double* A_inv, double* res_norm, int* info) {
  const double alpha = -1, beta = 1;
  trnsolverDnHandle_t handle = NULL;
  trnblasHandle_t blas = NULL;
  size_t device_bytes = 0, host_bytes = 0;
  void *device_work = NULL, *host_work = NULL;
  double* residual = (double*)calloc((size_t)(n * n), sizeof(double));
  int64_t i, j;
  int failed = 0;
  if (residual == NULL) WALK_CHECK(-1);
  memcpy(A_inv, A, sizeof(double) * (size_t)(n * n));
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnSetStream(handle, NULL));
  WALK_CHECK(trnsolverDnXtrtri_bufferSize(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_DIAG_NON_UNIT, n, TRN_R_64F, A_inv,
                                          n, &device_bytes, &host_bytes));
  device_work = malloc(device_bytes > 0 ? device_bytes : 1);
  if (device_work == NULL) WALK_CHECK(-1);
  if (host_bytes > 0) {
    host_work = malloc(host_bytes);
    if (host_work == NULL) WALK_CHECK(-1);
  }
  WALK_CHECK(trnsolverDnXtrtri(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_DIAG_NON_UNIT, n, TRN_R_64F, A_inv, n,
                               device_work, device_bytes, host_work, host_bytes, info));
  for (i = 0; i < n; i++) residual[i * n + i] = 1.0;
  WALK_CHECK(trnblasCreate(&blas));
  WALK_CHECK(trnblasGemmEx(blas, TRNBLAS_OP_N, TRNBLAS_OP_N, (int)n, (int)n, (int)n, &alpha, A, TRN_R_64F, (int)n,
                           A_inv, TRN_R_64F, (int)n, &beta, residual, TRN_R_64F, (int)n, TRNBLAS_COMPUTE_64F,
                           TRNBLAS_GEMM_DEFAULT));
  *res_norm = 0.0;
  for (i = 0; i < n; i++) { /* the infinity norm: the largest row sum of |I - A A_inv| */
    double sum = 0.0;
    for (j = 0; j < n; j++) sum += fabs(residual[i + j * n]);
    *res_norm = *res_norm > sum ? *res_norm : sum;
  }
done:
  free(host_work);
  free(device_work);
  free(residual);
  if (blas != NULL && trnblasDestroy(blas) != TRNBLAS_STATUS_SUCCESS && failed == 0) failed = -2;
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}
