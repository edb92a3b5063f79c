/* NVIDIA's cuSOLVER QR samples (CUDALibrarySamples/cuSOLVER: orgqr, ormqr, Xgeqrf) ported to trnsolver
 * by prefix substitution (cusolver -> trnsolver, cublas -> trnblas, CUSOLVER_/CUBLAS_ -> TRNSOLVER_/
 * TRNBLAS_, CUDA_R_ -> TRN_R_) and host memory: the host stand-in for the CUDA runtime is the identity
 * (cudaMalloc + cudaMemcpyAsync of A become a host copy, cudaStreamCreate + SetStream the default
 * stream NULL, cudaStreamSynchronize nothing: trnsci executes synchronously). Each keeps its data,
 * sizes, arguments and workspace queries, prints what the sample prints, writes it into the caller's
 * arrays and returns 0, or the first status that was not SUCCESS (-1: a negative info, where the
 * sample exits). C99; test_trnsolver_qr.cpp checks the documented results (README "Sample example
 * output") and LAPACKE. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trnblas.h"
#include "trnsolverDn.h"
#include "trnsolver_c_sample_util.h"


/* cuSOLVER/orgqr: A = [1 2; 4 5; 2 1] (3 x 2), Dgeqrf then Dorgqr; Q (3 x 2) and |I - Q^T Q| by
 * trnblasDgemm + trnblasDnrm2 as the sample does with cuBLAS. */
int trnsolver_sample_orgqr(double* Q, double* orth);
int trnsolver_sample_orgqr(double* Q, double* orth) {
  const int m = 3, n = 2, lda = 3;
  const double A[6] = {1.0, 4.0, 2.0, 2.0, 5.0, 1.0};
  double d_A[6], d_tau[2], R[4];
  const double h_one = 1, h_minus_one = -1;
  trnsolverDnHandle_t cusolverH = NULL;
  trnblasHandle_t cublasH = NULL;
  int lwork_geqrf = 0, lwork_orgqr = 0, lwork, info = 0, i;
  double* d_work;
  printf("A = (matlab base-1)\n");
  print_matrix(m, n, A, lda);
  printf("=====\n");
  SAMPLE_CHECK(trnsolverDnCreate(&cusolverH));
  SAMPLE_CHECK(trnblasCreate(&cublasH));
  SAMPLE_CHECK(trnsolverDnSetStream(cusolverH, NULL));
  SAMPLE_CHECK(trnblasSetStream(cublasH, NULL));
  memcpy(d_A, A, sizeof A);
  SAMPLE_CHECK(trnsolverDnDgeqrf_bufferSize(cusolverH, m, n, d_A, lda, &lwork_geqrf));
  SAMPLE_CHECK(trnsolverDnDorgqr_bufferSize(cusolverH, m, n, n, d_A, lda, d_tau, &lwork_orgqr));
  lwork = lwork_geqrf > lwork_orgqr ? lwork_geqrf : lwork_orgqr;
  d_work = (double*)malloc(sizeof(double) * (size_t)lwork);
  if (d_work == NULL) return -2;
  SAMPLE_CHECK(trnsolverDnDgeqrf(cusolverH, m, n, d_A, lda, d_tau, d_work, lwork, &info));
  printf("after geqrf: info = %d\n", info);
  if (0 > info) return -1;
  SAMPLE_CHECK(trnsolverDnDorgqr(cusolverH, m, n, n, d_A, lda, d_tau, d_work, lwork, &info));
  printf("after orgqr: info = %d\n", info);
  if (0 > info) return -1;
  memcpy(Q, d_A, sizeof d_A);
  printf("Q = (matlab base-1)\n");
  print_matrix(m, n, Q, lda);
  memset(R, 0, sizeof R);
  for (i = 0; i < n; i++) R[i + i * n] = 1.0;
  SAMPLE_CHECK(trnblasDgemm(cublasH, TRNBLAS_OP_T, TRNBLAS_OP_N, n, n, m, &h_minus_one, d_A, lda, d_A, lda, &h_one, R,
                            n));
  SAMPLE_CHECK(trnblasDnrm2(cublasH, n * n, R, 1, orth));
  printf("|I - Q**T*Q| = %E\n", *orth);
  free(d_work);
  SAMPLE_CHECK(trnblasDestroy(cublasH));
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  return 0;
}

/* cuSOLVER/ormqr: A x = b for A = [1 2 3; 4 5 6; 2 1 1], b = (6 15 4)': Dgeqrf, Dormqr (left, Q^T b),
 * trnblasDtrsm (R x = Q^T b); documented x = (1 1 1)'. */
int trnsolver_sample_ormqr(double* X);
int trnsolver_sample_ormqr(double* X) {
  const int m = 3, lda = 3, ldb = 3, nrhs = 1;
  const double A[9] = {1.0, 4.0, 2.0, 2.0, 5.0, 1.0, 3.0, 6.0, 1.0};
  const double B[3] = {6.0, 15.0, 4.0};
  double d_A[9], d_B[3], d_tau[3];
  const double one = 1;
  trnsolverDnHandle_t cusolverH = NULL;
  trnblasHandle_t cublasH = NULL;
  int lwork_geqrf = 0, lwork_ormqr = 0, lwork, info = 0;
  double* d_work;
  SAMPLE_CHECK(trnsolverDnCreate(&cusolverH));
  SAMPLE_CHECK(trnblasCreate(&cublasH));
  memcpy(d_A, A, sizeof A);
  memcpy(d_B, B, sizeof B);
  SAMPLE_CHECK(trnsolverDnDgeqrf_bufferSize(cusolverH, m, m, d_A, lda, &lwork_geqrf));
  SAMPLE_CHECK(trnsolverDnDormqr_bufferSize(cusolverH, TRNBLAS_SIDE_LEFT, TRNBLAS_OP_T, m, nrhs, m, d_A, lda, d_tau,
                                            d_B, ldb, &lwork_ormqr));
  lwork = lwork_geqrf > lwork_ormqr ? lwork_geqrf : lwork_ormqr;
  d_work = (double*)malloc(sizeof(double) * (size_t)lwork);
  if (d_work == NULL) return -2;
  SAMPLE_CHECK(trnsolverDnDgeqrf(cusolverH, m, m, d_A, lda, d_tau, d_work, lwork, &info));
  printf("after geqrf: info = %d\n", info);
  if (0 > info) return -1;
  SAMPLE_CHECK(trnsolverDnDormqr(cusolverH, TRNBLAS_SIDE_LEFT, TRNBLAS_OP_T, m, nrhs, m, d_A, lda, d_tau, d_B, ldb,
                                 d_work, lwork, &info));
  printf("after ormqr: info = %d\n", info);
  if (0 > info) return -1;
  SAMPLE_CHECK(trnblasDtrsm(cublasH, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, m,
                            nrhs, &one, d_A, lda, d_B, ldb));
  memcpy(X, d_B, sizeof d_B);
  printf("X = (matlab base-1)\n");
  print_matrix(m, nrhs, X, ldb);
  free(d_work);
  SAMPLE_CHECK(trnblasDestroy(cublasH));
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  return 0;
}

/* cuSOLVER/Xgeqrf: A = [1 2 3; 2 5 5; 3 5 12] (data_type double), params created, workspace queried on
 * device and host; documented tau = (1.27 1.80 0.00) and the factored A. */
int trnsolver_sample_Xgeqrf(double* A_out, double* tau_out);
int trnsolver_sample_Xgeqrf(double* A_out, double* tau_out) {
  const int64_t m = 3, lda = 3;
  const double A[9] = {1.0, 2.0, 3.0, 2.0, 5.0, 5.0, 3.0, 5.0, 12.0};
  double d_A[9], d_tau[3] = {0, 0, 0};
  trnsolverDnHandle_t cusolverH = NULL;
  trnsolverDnParams_t params = NULL;
  size_t workspaceInBytesOnDevice = 0, workspaceInBytesOnHost = 0;
  void *d_work = NULL, *h_work = NULL;
  int info = 0;
  SAMPLE_CHECK(trnsolverDnCreate(&cusolverH));
  SAMPLE_CHECK(trnsolverDnSetStream(cusolverH, NULL));
  SAMPLE_CHECK(trnsolverDnCreateParams(&params));
  memcpy(d_A, A, sizeof A);
  SAMPLE_CHECK(trnsolverDnXgeqrf_bufferSize(cusolverH, params, m, m, TRN_R_64F, d_A, lda, TRN_R_64F, d_tau, TRN_R_64F,
                                            &workspaceInBytesOnDevice, &workspaceInBytesOnHost));
  d_work = malloc(workspaceInBytesOnDevice);
  if (d_work == NULL) return -2;
  if (workspaceInBytesOnHost > 0) {
    h_work = malloc(workspaceInBytesOnHost);
    if (h_work == NULL) return -2;
  }
  SAMPLE_CHECK(trnsolverDnXgeqrf(cusolverH, params, m, m, TRN_R_64F, d_A, lda, TRN_R_64F, d_tau, TRN_R_64F, d_work,
                                 workspaceInBytesOnDevice, h_work, workspaceInBytesOnHost, &info));
  printf("after Xgeqrf: info = %d\n", info);
  if (0 > info) return -1;
  memcpy(A_out, d_A, sizeof d_A);
  memcpy(tau_out, d_tau, sizeof d_tau);
  printf("tau = (matlab base-1)\n");
  print_matrix((int)m, 1, tau_out, (int)m);
  printf("=====\nA = (matlab base-1)\n");
  print_matrix((int)m, (int)m, A_out, (int)lda);
  printf("=====\n");
  free(d_work);
  free(h_work);
  SAMPLE_CHECK(trnsolverDnDestroyParams(params));
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  return 0;
}
