/* NVIDIA's cuSOLVER Xgeev samples (CUDALibrarySamples/cuSOLVER/Xgeev: cusolver_Xgeev_example1/2/3.cu,
 * SPDX-FileCopyrightText: Copyright (c) 2024 NVIDIA CORPORATION & AFFILIATES, Apache-2.0) ported to
 * trnsolver by prefix substitution (cusolver -> trnsolver, cublas -> trnblas, CUSOLVER_/CUBLAS_ ->
 * TRNSOLVER_/TRNBLAS_, CUDA_R_/CUDA_C_ -> TRN_R_/TRN_C_, cuDoubleComplex -> trnDoubleComplex) and host
 * memory: the host stand-in for the CUDA runtime is the identity (cudaMalloc + cudaMemcpyAsync become a
 * host copy, cudaMallocHost malloc, the stream NULL, cudaStreamSynchronize nothing: trnsci executes
 * synchronously). C99 instead of the samples' C++11 (std::vector -> arrays). Each keeps its data, sizes,
 * arguments and workspace queries, prints what the sample prints, writes its results into the caller's
 * arrays and returns 0, or the first status that was not SUCCESS (-1: info != 0, where the sample
 * stops). Shared steps (handle + params, workspace queries + the call) are folded into two helpers. test_trnsolver_geev.cpp checks the README's "Sample example output". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trnblas.h"
#include "trnsolverDn.h"
#include "trnsolver_c_sample_util.h"

static void print_complex_matrix(int m, int n, const trnDoubleComplex* A, int lda) {
  int i, j;
  for (i = 0; i < m; i++) {
    for (j = 0; j < n; j++) printf("%0.2f + %0.2fj ", A[j * lda + i].x, A[j * lda + i].y);
    printf("\n");
  }
}

/* The workspace queries and the Xgeev call the three samples share (jobvl NOVECTOR, ldvl 1, jobvr
 * VECTOR); `dt` every data type but W's (`dtw`). */
static int run_xgeev(trnsolverDnHandle_t h, trnsolverDnParams_t params, int64_t n, trnDataType_t dt, void* d_A,
                     int64_t lda, trnDataType_t dtw, void* d_W, void* d_VR, int64_t ldvr, int* info) {
  size_t dev_bytes = 0, host_bytes = 0;
  void *d_work, *h_work;
  SAMPLE_CHECK(trnsolverDnXgeev_bufferSize(h, params, TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR, n, dt,
                                           d_A, lda, dtw, d_W, dt, NULL, 1, dt, d_VR, ldvr, dt, &dev_bytes,
                                           &host_bytes));
  h_work = malloc(host_bytes);
  d_work = malloc(dev_bytes);
  if (h_work == NULL || d_work == NULL) return -2;
  SAMPLE_CHECK(trnsolverDnXgeev(h, params, TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR, n, dt, d_A, lda,
                                dtw, d_W, dt, NULL, 1, dt, d_VR, ldvr, dt, d_work, dev_bytes, h_work, host_bytes,
                                info));
  free(d_work);
  free(h_work);
  if (*info != 0) return -1;
  printf("info = %d : Xgeev converged\n", *info);
  printf("eigenvalues = (matlab base -1) \n");
  return 0;
}

/* The samples' step 1: the solver handle on the (NULL) stream, and the params object. */
static int open_solver(trnsolverDnHandle_t* h, trnsolverDnParams_t* params) {
  SAMPLE_CHECK(trnsolverDnCreate(h));
  SAMPLE_CHECK(trnsolverDnSetStream(*h, NULL));
  SAMPLE_CHECK(trnsolverDnCreateParams(params));
  return 0;
}

/* Example 1: the real 3 x 3 A, every type TRN_R_64F (W: 3 real parts, then 3 imaginary parts); the
 * residual |A VR - VR diag(W)| by trnblasDdgmm / trnblasDgemm / trnblasDnrm2 as the sample computes it. */
int trnsolver_sample_xgeev1(double* W, double* VR, double* res);
int trnsolver_sample_xgeev1(double* W, double* VR, double* res) {
  const int64_t n = 3, lda = 3, ldr = 3, ldvr = 3;
  const double A[9] = {1.0, 7.0, 4.0, 2.0, 4.0, 2.0, -3.0, -2.0, 1.0};
  double d_A[9], d_R[9];
  const double h_minus_one = -1.0, h_one = 1.0;
  trnsolverDnHandle_t cusolverH = NULL;
  trnblasHandle_t cublasH = NULL;
  trnsolverDnParams_t params = NULL;
  int info = 0, k;
  printf("A = (matlab base -1) \n");
  print_matrix(3, 3, A, 3);
  printf("=====\n");
  SAMPLE_CHECK(open_solver(&cusolverH, &params));
  SAMPLE_CHECK(trnblasCreate(&cublasH));
  SAMPLE_CHECK(trnblasSetStream(cublasH, NULL));
  memcpy(d_A, A, sizeof A);
  memset(W, 0, 6 * sizeof(double));
  SAMPLE_CHECK(run_xgeev(cusolverH, params, n, TRN_R_64F, d_A, lda, TRN_R_64F, W, VR, ldvr, &info));
  for (k = 1; k <= n; k++) printf("WR[%d] + 1i* WI[%d] = %E + 1i*%E\n", k, k, W[k - 1], W[n + k - 1]);
  printf("=====\n");
  printf("VR = (matlab base -1) \n");
  print_matrix(3, 3, VR, 3);
  printf("=====\n");
  memcpy(d_A, A, sizeof A);
  SAMPLE_CHECK(trnblasDdgmm(cublasH, TRNBLAS_SIDE_RIGHT, n, n, VR, ldvr, W, 1, d_R, ldr));
  SAMPLE_CHECK(trnblasDgemm(cublasH, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &h_minus_one, d_A, lda, VR, ldvr, &h_one, d_R,
                            ldr));
  for (k = 0; k < n; k++) {
    if (W[n + k] != 0) {
      SAMPLE_CHECK(trnblasDgemm(cublasH, TRNBLAS_OP_N, TRNBLAS_OP_N, n, 1, 1, &h_minus_one, VR + (k + 1) * ldvr, ldvr,
                                W + n + k, 1, &h_one, d_R + k * ldvr, ldr));
      SAMPLE_CHECK(trnblasDgemm(cublasH, TRNBLAS_OP_N, TRNBLAS_OP_N, n, 1, 1, &h_one, VR + k * ldvr, ldvr, W + n + k, 1,
                                &h_one, d_R + (k + 1) * ldvr, ldr));
      k++;
    }
  }
  SAMPLE_CHECK(trnblasDnrm2(cublasH, n * ldr, d_R, 1, res));
  printf("|A*VR - VR*diag(W)| = %E \n", *res);
  SAMPLE_CHECK(trnsolverDnDestroyParams(params));
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  SAMPLE_CHECK(trnblasDestroy(cublasH));
  return 0;
}

/* Example 2: the same A with the eigenvalues promoted to complex (dataTypeW TRN_C_64F): W as 3
 * (re, im) pairs. */
int trnsolver_sample_xgeev2(double* W, double* VR);
int trnsolver_sample_xgeev2(double* W, double* VR) {
  const int64_t n = 3, lda = 3, ldvr = 3;
  const double A[9] = {1.0, 7.0, 4.0, 2.0, 4.0, 2.0, -3.0, -2.0, 1.0};
  double d_A[9];
  trnDoubleComplex d_W[3];
  trnsolverDnHandle_t cusolverH = NULL;
  trnsolverDnParams_t params = NULL;
  int info = 0, k;
  printf("A = (matlab base -1) \n");
  print_matrix(3, 3, A, 3);
  printf("=====\n");
  SAMPLE_CHECK(open_solver(&cusolverH, &params));
  memcpy(d_A, A, sizeof A);
  SAMPLE_CHECK(run_xgeev(cusolverH, params, n, TRN_R_64F, d_A, lda, TRN_C_64F, d_W, VR, ldvr, &info));
  print_complex_matrix(3, 1, d_W, 1);
  printf("=====\n");
  printf("VR = \n");
  print_matrix(3, 3, VR, 3);
  printf("=====\n");
  for (k = 0; k < 3; k++) {
    W[2 * k] = d_W[k].x;
    W[2 * k + 1] = d_W[k].y;
  }
  SAMPLE_CHECK(trnsolverDnDestroyParams(params));
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  return 0;
}

/* Example 3: the complex 3 x 3 A (TRN_C_64F throughout); the residual by trnblasZdgmm / trnblasZgemm /
 * trnblasDznrm2. W and VR as (re, im) pairs. */
int trnsolver_sample_xgeev3(double* W, double* VR, double* res);
int trnsolver_sample_xgeev3(double* W, double* VR, double* res) {
  const int64_t n = 3, lda = 3, ldr = 3, ldvr = 3;
  trnDoubleComplex A[9], d_A[9], d_W[3], d_VR[9], d_R[9];
  const trnDoubleComplex h_minus_one = {-1.0, 0.0}, h_one = {1.0, 0.0};
  trnsolverDnHandle_t cusolverH = NULL;
  trnblasHandle_t cublasH = NULL;
  trnsolverDnParams_t params = NULL;
  int info = 0;
  A[0] = make_trnDoubleComplex(2., 1.);
  A[1] = make_trnDoubleComplex(2., 1.);
  A[2] = make_trnDoubleComplex(1., 2.);
  A[0 + lda] = make_trnDoubleComplex(-1., 0.);
  A[1 + lda] = make_trnDoubleComplex(-3., 1.);
  A[2 + lda] = make_trnDoubleComplex(-1., 2.);
  A[0 + 2 * lda] = make_trnDoubleComplex(1., 2.);
  A[1 + 2 * lda] = make_trnDoubleComplex(2., 3.);
  A[2 + 2 * lda] = make_trnDoubleComplex(0., 1.);
  printf("A = (matlab base -1) \n");
  print_complex_matrix(3, 3, A, 3);
  printf("=====\n");
  SAMPLE_CHECK(open_solver(&cusolverH, &params));
  SAMPLE_CHECK(trnblasCreate(&cublasH));
  SAMPLE_CHECK(trnblasSetStream(cublasH, NULL));
  memcpy(d_A, A, sizeof A);
  SAMPLE_CHECK(run_xgeev(cusolverH, params, n, TRN_C_64F, d_A, lda, TRN_C_64F, d_W, d_VR, ldvr, &info));
  print_complex_matrix(3, 1, d_W, 1);
  printf("=====\n");
  printf("VR = \n");
  print_complex_matrix(3, 3, d_VR, 3);
  printf("=====\n");
  memcpy(d_A, A, sizeof A);
  SAMPLE_CHECK(trnblasZdgmm(cublasH, TRNBLAS_SIDE_RIGHT, n, n, d_VR, ldvr, d_W, 1, d_R, ldr));
  SAMPLE_CHECK(trnblasZgemm(cublasH, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &h_minus_one, d_A, lda, d_VR, ldvr, &h_one,
                            d_R, ldr));
  SAMPLE_CHECK(trnblasDznrm2(cublasH, n * ldr, d_R, 1, res));
  printf("|A*VR - VR*diag(W)| = %E \n", *res);
  memcpy(W, d_W, sizeof d_W);
  memcpy(VR, d_VR, sizeof d_VR);
  SAMPLE_CHECK(trnsolverDnDestroyParams(params));
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  SAMPLE_CHECK(trnblasDestroy(cublasH));
  return 0;
}
