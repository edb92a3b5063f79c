/* NVIDIA's cuSOLVER syevd, syevdx, sygvd and sygvdx samples (CUDALibrarySamples/cuSOLVER/syevd, syevdx,
 * sygvd, sygvdx) ported to trnsolver by prefix
 * substitution (cusolver -> trnsolver, cublas -> trnblas, CUSOLVER_/CUBLAS_ -> TRNSOLVER_/TRNBLAS_) and
 * host memory, as trnsolver_c_qr_samples.c: the host stand-in for the CUDA runtime is the identity
 * (cudaMalloc + cudaMemcpyAsync of A become a host copy, the stream is NULL, cudaStreamSynchronize
 * nothing: trnsci executes synchronously). It keeps the sample's data, sizes, arguments and workspace
 * query, prints what the sample prints, writes V, W and |lambda - W| into the caller's arrays and
 * returns 0, or the first status that was not SUCCESS (-1: a negative info, where the sample exits).
 * C99; test_trnsolver_syevd.cpp checks the documented results (README "Sample example output"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trnblas.h"
#include "trnsolverDn.h"
#include "trnsolver_c_sample_util.h"

/* The samples' common ending: info, W, V, then |lambda - W| over the m eigenvalues (into *sup). */
static int print_result(const char* routine, int info, int m, const double* W, const double* V, int lda,
                        const double* lambda, int meig, double* sup) {
  int i;
  printf("after %s: info = %d\n", routine, info);
  if (0 > info) {
    printf("%d-th parameter is wrong \n", -info);
    return -1;
  }
  printf("eigenvalue = (matlab base-1), ascending order\n");
  for (i = 0; i < m; i++) printf("W[%i] = %E\n", i + 1, W[i]);
  printf("V = (matlab base-1)\n");
  print_matrix(m, m, V, lda);
  printf("=====\n");
  if (meig >= 0) printf("Eigenvalues found = %d\n", meig);
  *sup = 0;
  for (i = 0; i < m; i++) {
    const double error = fabs(lambda[i] - W[i]);
    *sup = *sup > error ? *sup : error;
  }
  printf("|lambda - W| = %E\n", *sup);
  return 0;
}

/* cuSOLVER/syevd: A = [3.5 0.5 0; 0.5 3.5 0; 0 0 2], Dsyevd (VECTOR, LOWER); lambda = (2, 3, 4). */
int trnsolver_sample_syevd(double* V, double* W, double* lambda_sup);
int trnsolver_sample_syevd(double* V, double* W, double* lambda_sup) {
  const int m = 3, lda = 3;
  const double A[9] = {3.5, 0.5, 0.0, 0.5, 3.5, 0.0, 0.0, 0.0, 2.0};
  const double lambda[3] = {2.0, 3.0, 4.0};
  double d_A[9], d_W[3];
  trnsolverDnHandle_t cusolverH = NULL;
  int info = 0, lwork = 0;
  double* d_work;
  const trnsolverEigMode_t jobz = TRNSOLVER_EIG_MODE_VECTOR;
  const trnblasFillMode_t uplo = TRNBLAS_FILL_MODE_LOWER;
  printf("A = (matlab base-1)\n");
  print_matrix(m, m, A, lda);
  printf("=====\n");
  SAMPLE_CHECK(trnsolverDnCreate(&cusolverH));
  SAMPLE_CHECK(trnsolverDnSetStream(cusolverH, NULL));
  memcpy(d_A, A, sizeof A);
  SAMPLE_CHECK(trnsolverDnDsyevd_bufferSize(cusolverH, jobz, uplo, m, d_A, lda, d_W, &lwork));
  d_work = (double*)malloc(sizeof(double) * (size_t)lwork);
  if (d_work == NULL) return -2;
  SAMPLE_CHECK(trnsolverDnDsyevd(cusolverH, jobz, uplo, m, d_A, lda, d_W, d_work, lwork, &info));
  memcpy(V, d_A, sizeof d_A);
  memcpy(W, d_W, sizeof d_W);
  if (print_result("syevd", info, m, W, V, lda, lambda, -1, lambda_sup) != 0) {
    free(d_work);
    return -1;
  }
  free(d_work);
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  return 0;
}

/* cuSOLVER/syevdx: the same A, Dsyevdx with range I, il = 1, iu = 2 (VECTOR, LOWER): meig = 2. */
int trnsolver_sample_syevdx(double* V, double* W, int* meig, double* lambda_sup);
int trnsolver_sample_syevdx(double* V, double* W, int* meig, double* lambda_sup) {
  const int m = 3, lda = 3;
  const double A[9] = {3.5, 0.5, 0.0, 0.5, 3.5, 0.0, 0.0, 0.0, 2.0};
  const double lambda[3] = {2.0, 3.0, 4.0};
  double d_A[9], d_W[3] = {0, 0, 0};
  const double vl = 0.0, vu = 0.0;
  const int il = 1, iu = 2;
  trnsolverDnHandle_t cusolverH = NULL;
  int info = 0, lwork = 0, h_meig = 0;
  double* d_work;
  const trnsolverEigMode_t jobz = TRNSOLVER_EIG_MODE_VECTOR;
  const trnsolverEigRange_t range = TRNSOLVER_EIG_RANGE_I;
  const trnblasFillMode_t uplo = TRNBLAS_FILL_MODE_LOWER;
  printf("A = (matlab base-1)\n");
  print_matrix(m, m, A, lda);
  printf("=====\n");
  SAMPLE_CHECK(trnsolverDnCreate(&cusolverH));
  SAMPLE_CHECK(trnsolverDnSetStream(cusolverH, NULL));
  memcpy(d_A, A, sizeof A);
  SAMPLE_CHECK(trnsolverDnDsyevdx_bufferSize(cusolverH, jobz, range, uplo, m, d_A, lda, vl, vu, il, iu, &h_meig, d_W,
                                             &lwork));
  d_work = (double*)malloc(sizeof(double) * (size_t)lwork);
  if (d_work == NULL) return -2;
  SAMPLE_CHECK(trnsolverDnDsyevdx(cusolverH, jobz, range, uplo, m, d_A, lda, vl, vu, il, iu, &h_meig, d_W, d_work,
                                  lwork, &info));
  memcpy(V, d_A, sizeof d_A);
  memcpy(W, d_W, sizeof d_W);
  *meig = h_meig;
  if (print_result("syevd", info, m, W, V, lda, lambda, h_meig, lambda_sup) != 0) {
    free(d_work);
    return -1;
  }
  free(d_work);
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  return 0;
}

/* cuSOLVER/sygvd and sygvdx: the same A, B = [10 2 3; 2 10 5; 3 5 10], itype 1 (A x = lambda B x),
 * VECTOR, LOWER; sygvdx with range I, il = 1, iu = 2 (meig = 2; W holds all three eigenvalues, the
 * selected first, as the README output shows). x_range: 0 runs Dsygvd, 1 Dsygvdx. Both samples print
 * "after sygvd" (NVIDIA's sygvdx sample keeps that text). */
int trnsolver_sample_sygvd(int x_range, double* V, double* W, int* meig, double* lambda_sup);
int trnsolver_sample_sygvd(int x_range, double* V, double* W, int* meig, double* lambda_sup) {
  const int m = 3, lda = 3;
  const double A[9] = {3.5, 0.5, 0.0, 0.5, 3.5, 0.0, 0.0, 0.0, 2.0};
  const double B[9] = {10.0, 2.0, 3.0, 2.0, 10.0, 5.0, 3.0, 5.0, 10.0};
  const double lambda[3] = {0.158660256604, 0.370751508101882, 0.6};
  double d_A[9], d_B[9], d_W[3] = {0, 0, 0};
  const double vl = 0.0, vu = 0.0;
  const int il = 1, iu = 2;
  trnsolverDnHandle_t cusolverH = NULL;
  int info = 0, lwork = 0, h_meig = 0;
  double* d_work;
  const trnsolverEigType_t itype = TRNSOLVER_EIG_TYPE_1;
  const trnsolverEigMode_t jobz = TRNSOLVER_EIG_MODE_VECTOR;
  const trnsolverEigRange_t range = TRNSOLVER_EIG_RANGE_I;
  const trnblasFillMode_t uplo = TRNBLAS_FILL_MODE_LOWER;
  printf("A = (matlab base-1)\n");
  print_matrix(m, m, A, lda);
  printf("=====\n");
  printf("B = (matlab base-1)\n");
  print_matrix(m, m, B, lda);
  printf("=====\n");
  SAMPLE_CHECK(trnsolverDnCreate(&cusolverH));
  SAMPLE_CHECK(trnsolverDnSetStream(cusolverH, NULL));
  memcpy(d_A, A, sizeof A);
  memcpy(d_B, B, sizeof B);
  if (x_range)
    SAMPLE_CHECK(trnsolverDnDsygvdx_bufferSize(cusolverH, itype, jobz, range, uplo, m, d_A, lda, d_B, lda, vl, vu, il,
                                               iu, &h_meig, d_W, &lwork));
  else
    SAMPLE_CHECK(trnsolverDnDsygvd_bufferSize(cusolverH, itype, jobz, uplo, m, d_A, lda, d_B, lda, d_W, &lwork));
  d_work = (double*)malloc(sizeof(double) * (size_t)lwork);
  if (d_work == NULL) return -2;
  if (x_range)
    SAMPLE_CHECK(trnsolverDnDsygvdx(cusolverH, itype, jobz, range, uplo, m, d_A, lda, d_B, lda, vl, vu, il, iu, &h_meig,
                                    d_W, d_work, lwork, &info));
  else
    SAMPLE_CHECK(trnsolverDnDsygvd(cusolverH, itype, jobz, uplo, m, d_A, lda, d_B, lda, d_W, d_work, lwork, &info));
  memcpy(V, d_A, sizeof d_A);
  memcpy(W, d_W, sizeof d_W);
  *meig = x_range ? h_meig : m;
  if (print_result("sygvd", info, m, W, V, lda, lambda, x_range ? h_meig : -1, lambda_sup) != 0) {
    free(d_work);
    return -1;
  }
  free(d_work);
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  return 0;
}

/* cuSOLVER/Xsyevd and Xsyevdx: the syevd sample's A through the 64-bit API (data_type double:
 * TRN_R_64F for A, W and the compute type; params from trnsolverDnCreateParams; device and host
 * workspace from _bufferSize, the host buffer allocated only when its size is positive). Xsyevdx with
 * range ALL, il = iu = 0 and vl, vu not set (as NVIDIA's sample: only range V reads them).
 * x_range: 0 runs Xsyevd, 1 Xsyevdx. Prints "after Xsyevd" / "after Xsyevdx". */
int trnsolver_sample_xsyevd(int x_range, double* V, double* W, long long* meig, double* lambda_sup);
int trnsolver_sample_xsyevd(int x_range, double* V, double* W, long long* meig, double* lambda_sup) {
  const int64_t m = 3, lda = 3;
  const double A[9] = {3.5, 0.5, 0.0, 0.5, 3.5, 0.0, 0.0, 0.0, 2.0};
  const double lambda[3] = {2.0, 3.0, 4.0};
  double d_A[9], d_W[3] = {0, 0, 0};
  double vl = 0, vu = 0; /* not read for range ALL */
  int64_t h_meig = 0;
  trnsolverDnHandle_t cusolverH = NULL;
  trnsolverDnParams_t params = NULL;
  int info = 0;
  size_t workspaceInBytesOnDevice = 0, workspaceInBytesOnHost = 0;
  void *d_work = NULL, *h_work = NULL;
  const trnsolverEigMode_t jobz = TRNSOLVER_EIG_MODE_VECTOR;
  const trnsolverEigRange_t range = TRNSOLVER_EIG_RANGE_ALL;
  const trnblasFillMode_t uplo = TRNBLAS_FILL_MODE_LOWER;
  int rc;
  printf("A = (matlab base-1)\n");
  print_matrix((int)m, (int)m, A, (int)lda);
  printf("=====\n");
  SAMPLE_CHECK(trnsolverDnCreate(&cusolverH));
  SAMPLE_CHECK(trnsolverDnSetStream(cusolverH, NULL));
  SAMPLE_CHECK(trnsolverDnCreateParams(&params));
  memcpy(d_A, A, sizeof A);
  if (x_range)
    SAMPLE_CHECK(trnsolverDnXsyevdx_bufferSize(cusolverH, params, jobz, range, uplo, m, TRN_R_64F, d_A, lda, &vl, &vu,
                                               0L, 0L, &h_meig, TRN_R_64F, d_W, TRN_R_64F, &workspaceInBytesOnDevice,
                                               &workspaceInBytesOnHost));
  else
    SAMPLE_CHECK(trnsolverDnXsyevd_bufferSize(cusolverH, params, jobz, uplo, m, TRN_R_64F, d_A, lda, TRN_R_64F, d_W,
                                              TRN_R_64F, &workspaceInBytesOnDevice, &workspaceInBytesOnHost));
  d_work = malloc(workspaceInBytesOnDevice);
  if (d_work == NULL) return -2;
  if (0 < workspaceInBytesOnHost) {
    h_work = malloc(workspaceInBytesOnHost);
    if (h_work == NULL) return -2;
  }
  if (x_range)
    rc = (int)trnsolverDnXsyevdx(cusolverH, params, jobz, range, uplo, m, TRN_R_64F, d_A, lda, &vl, &vu, 0L, 0L,
                                 &h_meig, TRN_R_64F, d_W, TRN_R_64F, d_work, workspaceInBytesOnDevice, h_work,
                                 workspaceInBytesOnHost, &info);
  else
    rc = (int)trnsolverDnXsyevd(cusolverH, params, jobz, uplo, m, TRN_R_64F, d_A, lda, TRN_R_64F, d_W, TRN_R_64F,
                                d_work, workspaceInBytesOnDevice, h_work, workspaceInBytesOnHost, &info);
  free(d_work);
  free(h_work);
  if (rc != 0) return rc;
  memcpy(V, d_A, sizeof d_A);
  memcpy(W, d_W, sizeof d_W);
  *meig = x_range ? (long long)h_meig : (long long)m;
  if (print_result(x_range ? "Xsyevdx" : "Xsyevd", info, (int)m, W, V, (int)lda, lambda, -1, lambda_sup) != 0)
    return -1;
  SAMPLE_CHECK(trnsolverDnDestroyParams(params));
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  return 0;
}

/* cuSOLVER/Xtrtri: the inverse of an upper triangular, diagonally dominant random matrix (non-unit), then
 * |I - A A^-1|_inf against eps = 1e-15 with a GEMM (the sample's cublasGemmEx: trnblasGemmEx, R_64F).
 * Differences from NVIDIA's sample, for a fast test: n = 100 (not 1000) and a fixed-seed generator (an
 * LCG, uniform in [-1, 1)) in place of std::random_device. (The sample's generate_random_matrix
 * resets lda to n: lda = n here too.) Writes the residual norm and info; returns 0 or the first status
 * that was not SUCCESS. */
int trnsolver_sample_xtrtri(double* res_norm, int* h_info);
int trnsolver_sample_xtrtri(double* res_norm, int* h_info) {
  enum { n = 100 };
  const int64_t lda = n;
  static double h_A[n * n], d_A_inv[n * n], h_A_res[n * n];
  unsigned long long state = 12345u;
  int64_t i, j;
  const double alpha = -1, beta = 1;
  size_t dev_bytes = 0, host_bytes = 0;
  void *d_work = NULL, *h_work = NULL;
  trnsolverDnHandle_t handle = NULL;
  trnblasHandle_t cublasH = NULL;
  const trnblasFillMode_t uplo = TRNBLAS_FILL_MODE_UPPER;
  const trnblasDiagType_t diag = TRNBLAS_DIAG_NON_UNIT;
  int rc;
  printf("Generating random diagonal dominant matrix...\n");
  for (j = 0; j < n; ++j)
    for (i = 0; i < n; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      h_A[i + j * lda] = (double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
    }
  for (j = 0; j < n; ++j) { /* make_diag_dominant_matrix */
    double col_sum = 0;
    for (i = 0; i < n; ++i) col_sum += fabs(h_A[i + j * lda]);
    h_A[j + j * lda] += col_sum;
  }
  for (j = 0; j < n; j++) /* zero lower triangle */
    for (i = j + 1; i < n; i++) h_A[j * lda + i] = 0;
  printf("Initializing required CUDA and cuSOLVER miscellaneous variables...\n");
  SAMPLE_CHECK(trnsolverDnCreate(&handle));
  SAMPLE_CHECK(trnsolverDnSetStream(handle, NULL));
  printf("Allocating required device memory...\n");
  printf("Copying input data to the device...\n");
  memcpy(d_A_inv, h_A, sizeof h_A);
  *h_info = 0;
  printf("Querying required device and host workspace size...\n");
  SAMPLE_CHECK(trnsolverDnXtrtri_bufferSize(handle, uplo, diag, n, TRN_R_64F, d_A_inv, lda, &dev_bytes, &host_bytes));
  printf("Allocating required device workspace...\n");
  d_work = malloc(dev_bytes);
  if (d_work == NULL) return -2;
  printf("Allocating required host workspace...\n");
  if (host_bytes) {
    h_work = malloc(host_bytes);
    if (h_work == NULL) return -2;
  }
  printf("Computing the inverse of a %s triangular matrix...\n", (uplo == TRNBLAS_FILL_MODE_UPPER ? "upper" : "lower"));
  rc = (int)trnsolverDnXtrtri(handle, uplo, diag, n, TRN_R_64F, d_A_inv, lda, d_work, dev_bytes, h_work, host_bytes,
                              h_info);
  free(d_work);
  free(h_work);
  if (rc != 0) return rc;
  printf("Copying information back to the host...\n");
  printf("Checking returned information...\n");
  if (*h_info > 0) {
    fprintf(stderr, "warning: leading minor of order %d is not p.d.\n", *h_info);
  } else if (*h_info < 0) {
    fprintf(stderr, "error: %d-th argument had an illegal value\n", *h_info);
  }
  printf("Verifying results...\n");
  memset(h_A_res, 0, sizeof h_A_res);
  for (i = 0; i < n; i++) h_A_res[i * lda + i] = 1.0;
  SAMPLE_CHECK(trnblasCreate(&cublasH));
  SAMPLE_CHECK(trnblasGemmEx(cublasH, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &alpha, h_A, TRN_R_64F, (int)lda, d_A_inv,
                             TRN_R_64F, (int)lda, &beta, h_A_res, TRN_R_64F, (int)lda, TRNBLAS_COMPUTE_64F,
                             TRNBLAS_GEMM_DEFAULT));
  *res_norm = 0.0;
  for (i = 0; i < n; i++) {
    double sum = 0.0;
    for (j = 0; j < n; j++) sum += fabs(h_A_res[i + j * lda]);
    *res_norm = *res_norm > sum ? *res_norm : sum;
  }
  printf("Check: %s\n", (*res_norm > 1.e-15 ? "FAILED" : "PASSED"));
  SAMPLE_CHECK(trnblasDestroy(cublasH));
  printf("Destroying CUDA and cuSOLVER miscellaneous variables...\n");
  SAMPLE_CHECK(trnsolverDnDestroy(handle));
  printf("Freeing memory...\n");
  printf("Done...\n");
  return 0;
}
