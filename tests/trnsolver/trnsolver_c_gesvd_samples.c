/* NVIDIA's cuSOLVER gesvd and Xgesvd samples (CUDALibrarySamples/cuSOLVER/gesvd, Xgesvd) ported to
 * trnsolver/trnblas by prefix substitution and host memory, as trnsolver_c_eig_samples.c: A 3 x 2,
 * jobu = jobvt = 'A', then |S - S_exact| and |A - U S VT| with the sample's own trnblas calls (Ddgmm
 * W = S VT, Dgemm A - U W, Dnrm2). x: 0 runs Dgesvd (work from Dgesvd_bufferSize, rwork NULL as the
 * sample), 1 Xgesvd (TRN_R_64F, params). Writes S, U, VT, the two errors and info; returns 0 or the first
 * status that was not SUCCESS. C99; test_trnsolver_gesvd.cpp checks the documented results (README). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trnblas.h"
#include "trnsolverDn.h"
#include "trnsolver_c_sample_util.h"

int trnsolver_sample_gesvd(int x, double* S, double* U, double* VT, double* s_err, double* r_err, int* info);
int trnsolver_sample_gesvd(int x, double* S, double* U, double* VT, double* s_err, double* r_err, int* info) {
  const int m = 3, n = 2, lda = 3, ldu = 3, ldvt = 2;
  const double A[6] = {1.0, 4.0, 2.0, 2.0, 5.0, 1.0};
  const double S_exact[2] = {7.065283497082729, 1.040081297712078};
  double d_A[6], d_W[6];
  const double h_one = 1, h_minus_one = -1;
  const signed char jobu = 'A', jobvt = 'A';
  trnsolverDnHandle_t cusolverH = NULL;
  trnsolverDnParams_t params = NULL;
  trnblasHandle_t cublasH = NULL;
  double *d_work = NULL, *d_rwork = NULL;
  int lwork = 0, j, rc;
  size_t dev_bytes = 0, host_bytes = 0;
  printf("A = (matlab base-1)\n");
  print_matrix(m, n, A, lda);
  printf("=====\n");
  SAMPLE_CHECK(trnsolverDnCreate(&cusolverH));
  SAMPLE_CHECK(trnblasCreate(&cublasH));
  SAMPLE_CHECK(trnsolverDnSetStream(cusolverH, NULL));
  memcpy(d_A, A, sizeof A);
  if (x) {
    SAMPLE_CHECK(trnsolverDnCreateParams(&params));
    SAMPLE_CHECK(trnsolverDnXgesvd_bufferSize(cusolverH, params, jobu, jobvt, m, n, TRN_R_64F, d_A, lda, TRN_R_64F, S,
                                              TRN_R_64F, U, ldu, TRN_R_64F, VT, ldvt, TRN_R_64F, &dev_bytes,
                                              &host_bytes));
    d_work = (double*)malloc(dev_bytes);
    if (d_work == NULL) return -2;
    rc = (int)trnsolverDnXgesvd(cusolverH, params, jobu, jobvt, m, n, TRN_R_64F, d_A, lda, TRN_R_64F, S, TRN_R_64F, U,
                                ldu, TRN_R_64F, VT, ldvt, TRN_R_64F, d_work, dev_bytes, NULL, host_bytes, info);
  } else {
    SAMPLE_CHECK(trnsolverDnDgesvd_bufferSize(cusolverH, m, n, &lwork));
    d_work = (double*)malloc(sizeof(double) * (size_t)lwork);
    if (d_work == NULL) return -2;
    rc = (int)trnsolverDnDgesvd(cusolverH, jobu, jobvt, m, n, d_A, lda, S, U, ldu, VT, ldvt, d_work, lwork, d_rwork,
                                info);
  }
  free(d_work);
  if (rc != 0) return rc;
  printf(x ? "after Xgesvd: info = %d\n" : "after gesvd: info_gpu = %d\n", *info);
  if (0 == *info) {
    printf("%s converges \n", x ? "Xgesvd" : "gesvd");
  } else if (0 > *info) {
    printf("%d-th parameter is wrong \n", -*info);
    return -1;
  } else {
    printf("WARNING: info = %d : gesvd does not converge \n", *info);
  }
  printf("S = singular values (matlab base-1)\n");
  print_matrix(n, 1, S, n);
  printf("U = left singular vectors (matlab base-1)\n");
  print_matrix(m, m, U, ldu);
  printf("VT = right singular vectors (matlab base-1)\n");
  print_matrix(n, n, VT, ldvt);
  *s_err = 0;
  for (j = 0; j < n; j++) {
    const double err = fabs(S[j] - S_exact[j]);
    *s_err = (*s_err > err) ? *s_err : err;
  }
  printf("|S - S_exact| = %E \n", *s_err);
  SAMPLE_CHECK(trnblasDdgmm(cublasH, TRNBLAS_SIDE_LEFT, n, n, VT, ldvt, S, 1, d_W, lda));
  memcpy(d_A, A, sizeof A);
  SAMPLE_CHECK(trnblasDgemm(cublasH, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, n, &h_minus_one, U, ldu, d_W, lda, &h_one, d_A,
                            lda));
  SAMPLE_CHECK(trnblasDnrm2(cublasH, lda * n, d_A, 1, r_err));
  printf("|A - U*S*VT| = %E \n", *r_err);
  if (params != NULL) SAMPLE_CHECK(trnsolverDnDestroyParams(params));
  SAMPLE_CHECK(trnblasDestroy(cublasH));
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  return 0;
}
