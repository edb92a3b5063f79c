/* NVIDIA's cuSOLVER gesvdaStridedBatched, Xgesvdp and Xgesvdr samples (CUDALibrarySamples/cuSOLVER/
 * gesvdaStridedBatched, Xgesvdp, Xgesvdr) ported to trnsolver/trnblas by prefix substitution and host
 * memory, as trnsolver_c_gesvd_samples.c: the samples' matrices, calls and printed results; each writes
 * what it printed and returns 0 or the first status that was not SUCCESS. C99;
 * test_trnsolver_svd_family.cpp checks the documented results (the samples' READMEs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trnblas.h"
#include "trnsolverDn.h"
#include "trnsolver_c_sample_util.h"

static void print_matrix_f(int m, int n, const float* A, int lda) {
  int i, j;
  for (i = 0; i < m; i++) {
    for (j = 0; j < n; j++) printf("%0.2f ", (double)A[j * lda + i]);
    printf("\n");
  }
}

/* gesvdaStridedBatched: two 3 x 2 fp32 matrices, rank = n, S, U, V and the residual norms. */
int trnsolver_sample_gesvda(float* S, double* s_err, double* RnrmF, int* info);
int trnsolver_sample_gesvda(float* S, double* s_err, double* RnrmF, int* info) {
  const int batchSize = 2, m = 3, n = 2, lda = 3, ldu = 3, ldv = 2, rank = 2;
  const long long strideA = 6, strideS = 2, strideU = 6, strideV = 4;
  const float A[12] = {1.0f, 4.0f, 2.0f, 2.0f, 5.0f, 1.0f, 10.0f, 8.0f, 6.0f, 9.0f, 7.0f, 5.0f};
  const float S_exact[4] = {7.065283497082729f, 1.040081297712078f, 18.839649186929730f, 0.260035600289472f};
  float U[12], V[8], d_A[12];
  float* d_work = NULL;
  int lwork = 0, idx, j, rc;
  trnsolverDnHandle_t cusolverH = NULL;
  const trnsolverEigMode_t jobz = TRNSOLVER_EIG_MODE_VECTOR;
  printf("A0 = (matlab base-1)\n");
  print_matrix_f(m, n, A, lda);
  printf("=====\n");
  printf("A1 = (matlab base-1)\n");
  print_matrix_f(m, n, A + strideA, lda);
  printf("=====\n");
  SAMPLE_CHECK(trnsolverDnCreate(&cusolverH));
  SAMPLE_CHECK(trnsolverDnSetStream(cusolverH, NULL));
  memcpy(d_A, A, sizeof A);
  SAMPLE_CHECK(trnsolverDnSgesvdaStridedBatched_bufferSize(cusolverH, jobz, rank, m, n, d_A, lda, strideA, S, strideS,
                                                           U, ldu, strideU, V, ldv, strideV, &lwork, batchSize));
  d_work = (float*)malloc(sizeof(float) * (size_t)lwork);
  if (d_work == NULL) return -2;
  rc = (int)trnsolverDnSgesvdaStridedBatched(cusolverH, jobz, rank, m, n, d_A, lda, strideA, S, strideS, U, ldu,
                                             strideU, V, ldv, strideV, d_work, lwork, info, RnrmF, batchSize);
  free(d_work);
  if (rc != 0) return rc;
  if (0 > info[0]) {
    printf("%d-th parameter is wrong \n", -info[0]);
    return -1;
  }
  for (idx = 0; idx < batchSize; idx++) {
    if (0 == info[idx]) printf("%d-th matrix, gesvda converges \n", idx);
    else printf("WARNING: info[%d] = %d : gesvda does not converge \n", idx, info[idx]);
  }
  *s_err = 0;
  for (idx = 0; idx < batchSize; idx++) {
    double ds_sup = 0;
    printf("S%d = (matlab base-1)\n", idx);
    print_matrix_f(rank, 1, S + idx * strideS, n);
    printf("=====\nU%d = (matlab base-1)\n", idx);
    print_matrix_f(m, rank, U + idx * strideU, ldu);
    printf("=====\nV%d = (matlab base-1)\n", idx);
    print_matrix_f(n, rank, V + idx * strideV, ldv);
    printf("=====\n");
    for (j = 0; j < n; j++) {
      const double err = fabs((double)S[idx * strideS + j] - (double)S_exact[idx * strideS + j]);
      ds_sup = (ds_sup > err) ? ds_sup : err;
    }
    printf("|S%d - S%d_exact|_sup = %E \n", idx, idx, ds_sup);
    printf("residual |A%d - U%d*S%d*V%d**H|_F = %E \n", idx, idx, idx, idx, RnrmF[idx]);
    *s_err = (*s_err > ds_sup) ? *s_err : ds_sup;
  }
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  return 0;
}

/* Xgesvdp: A 3 x 2 (fp64), jobz VECTOR, econ = 1; |S - S_exact|, |A - U S V^T| by the sample's own trnblas
 * calls (Ddgmm W = V S, Dgemm A - U W^T, Dnrm2) and h_err_sigma. */
int trnsolver_sample_xgesvdp(double* S, double* s_err, double* r_err, double* h_err_sigma, int* info);
int trnsolver_sample_xgesvdp(double* S, double* s_err, double* r_err, double* h_err_sigma, int* info) {
  const int m = 3, n = 2, lda = 3, ldu = 3, ldv = 2, minmn = 2, econ = 1;
  const double A[6] = {1.0, 4.0, 2.0, 2.0, 5.0, 1.0};
  const double S_exact[2] = {7.065283497082729, 1.040081297712078};
  const double h_one = 1, h_minus_one = -1;
  double d_A[6], U[9], V[4], d_W[6];
  size_t dev_bytes = 0, host_bytes = 0;
  void *d_work = NULL, *h_work = NULL;
  int j, rc;
  trnsolverDnHandle_t cusolverH = NULL;
  trnsolverDnParams_t params = NULL;
  trnblasHandle_t cublasH = NULL;
  const trnsolverEigMode_t jobz = TRNSOLVER_EIG_MODE_VECTOR;
  printf("A = (matlab base-1)\n");
  print_matrix(m, n, A, lda);
  printf("=====\n");
  SAMPLE_CHECK(trnsolverDnCreate(&cusolverH));
  SAMPLE_CHECK(trnblasCreate(&cublasH));
  SAMPLE_CHECK(trnsolverDnCreateParams(&params));
  memcpy(d_A, A, sizeof A);
  SAMPLE_CHECK(trnsolverDnXgesvdp_bufferSize(cusolverH, params, jobz, econ, m, n, TRN_R_64F, d_A, lda, TRN_R_64F, S,
                                             TRN_R_64F, U, ldu, TRN_R_64F, V, ldv, TRN_R_64F, &dev_bytes, &host_bytes));
  d_work = malloc(dev_bytes);
  if (d_work == NULL) return -2;
  if (0 < host_bytes) h_work = malloc(host_bytes);
  rc = (int)trnsolverDnXgesvdp(cusolverH, params, jobz, econ, m, n, TRN_R_64F, d_A, lda, TRN_R_64F, S, TRN_R_64F, U,
                               ldu, TRN_R_64F, V, ldv, TRN_R_64F, d_work, dev_bytes, h_work, host_bytes, info,
                               h_err_sigma);
  free(d_work);
  free(h_work);
  if (rc != 0) return rc;
  printf("after Xgesvdp: info = %d\n", *info);
  if (0 > *info) {
    printf("%d-th parameter is wrong \n", -*info);
    return -1;
  }
  printf("=====\nS = (matlab base-1)\n");
  print_matrix(minmn, 1, S, n);
  printf("=====\nU = (matlab base-1)\n");
  print_matrix(m, (econ) ? minmn : m, U, ldu);
  printf("=====\nV = (matlab base-1)\n");
  print_matrix((econ) ? minmn : n, n, V, ldv);
  printf("=====\n");
  *s_err = 0;
  for (j = 0; j < minmn; j++) {
    const double err = fabs(S[j] - S_exact[j]);
    *s_err = (*s_err > err) ? *s_err : err;
  }
  printf("|S - S_exact| = %E \n", *s_err);
  SAMPLE_CHECK(trnblasDdgmm(cublasH, TRNBLAS_SIDE_RIGHT, n, n, V, ldv, S, 1, d_W, lda));
  memcpy(d_A, A, sizeof A);
  SAMPLE_CHECK(trnblasDgemm(cublasH, TRNBLAS_OP_N, TRNBLAS_OP_T, m, n, n, &h_minus_one, U, ldu, d_W, lda, &h_one, d_A,
                            lda));
  SAMPLE_CHECK(trnblasDnrm2(cublasH, 6, d_A, 1, r_err));
  printf("|A - U*S*V**T| = %E \n", *r_err);
  printf("h_err_sigma = %E \n", *h_err_sigma);
  printf("h_err_sigma is 0 if the singular value of A is not close to zero\n");
  SAMPLE_CHECK(trnsolverDnDestroyParams(params));
  SAMPLE_CHECK(trnblasDestroy(cublasH));
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  return 0;
}

/* Xgesvdr: A 5 x 5 (fp64), rank 2, p 2, 2 iterations, jobu = jobv = 'S'; the relative errors of the two
 * leading singular values against S_ref and the sample's eps 1e-8. */
int trnsolver_sample_xgesvdr(double* S_gpu, double* max_relerr, int* info);
int trnsolver_sample_xgesvdr(double* S_gpu, double* max_relerr, int* info) {
  const int64_t m = 5, n = 5, lda = 5, ldu = 5, ldv = 5, iters = 2, rank = 2, p = 2;
  const signed char jobu = 'S', jobv = 'S';
  const double A[25] = {0.76420743, 0.61411544, 0.81724151, 0.42040879, 0.03446089, 0.03697287, 0.85962444,
                        0.67584086, 0.45594666, 0.02074835, 0.42018265, 0.39204509, 0.12657948, 0.90250559,
                        0.23076218, 0.50339844, 0.92974961, 0.21213988, 0.63962457, 0.58124562, 0.58325673,
                        0.11589871, 0.39831112, 0.21492685, 0.00540355};
  const double S_ref[5] = {2.36539241, 0.81117785, 0.68562255, 0.41390509, 0.01519322};
  const double eps = 1.E-8;
  double d_A[25], U[25], V[25];
  size_t dev_bytes = 0, host_bytes = 0;
  void *d_work = NULL, *h_work = NULL;
  int i, rc;
  trnsolverDnHandle_t cusolverH = NULL;
  trnsolverDnParams_t params = NULL;
  printf("A = (matlab base-1)\n");
  print_matrix((int)m, (int)n, A, (int)lda);
  printf("=====\n");
  SAMPLE_CHECK(trnsolverDnCreate(&cusolverH));
  SAMPLE_CHECK(trnsolverDnCreateParams(&params));
  memcpy(d_A, A, sizeof A);
  memset(S_gpu, 0, sizeof(double) * 5);
  printf("m = %ld, n = %ld, rank = %ld, p = %ld, iters = %ld\n", (long)m, (long)n, (long)rank, (long)p, (long)iters);
  SAMPLE_CHECK(trnsolverDnXgesvdr_bufferSize(cusolverH, params, jobu, jobv, m, n, rank, p, iters, TRN_R_64F, d_A, lda,
                                             TRN_R_64F, S_gpu, TRN_R_64F, U, ldu, TRN_R_64F, V, ldv, TRN_R_64F,
                                             &dev_bytes, &host_bytes));
  d_work = malloc(dev_bytes);
  if (d_work == NULL) return -2;
  if (0 < host_bytes) h_work = malloc(host_bytes);
  rc = (int)trnsolverDnXgesvdr(cusolverH, params, jobu, jobv, m, n, rank, p, iters, TRN_R_64F, d_A, lda, TRN_R_64F,
                               S_gpu, TRN_R_64F, U, ldu, TRN_R_64F, V, ldv, TRN_R_64F, d_work, dev_bytes, h_work,
                               host_bytes, info);
  free(d_work);
  free(h_work);
  if (rc != 0) return rc;
  printf("after Xgesvdr: info = %d\n", *info);
  if (0 > *info) {
    printf("%d-th parameter is wrong \n", -*info);
    return -1;
  }
  *max_relerr = 0;
  for (i = 0; i < rank; i++) {
    const double abs_err = fabs(S_ref[i] - S_gpu[i]), rel_err = abs_err / S_ref[i];
    *max_relerr = (*max_relerr > rel_err) ? *max_relerr : rel_err;
    printf("S_ref[%d]=%f  S_gpu=[%d]=%f  AbsErr=%E  RelErr=%E\n", i, S_ref[i], i, S_gpu[i], abs_err, rel_err);
  }
  printf("\nmax_relerr = %E, eps = %E\n", *max_relerr, eps);
  if (*max_relerr > eps) printf("Error: max_relerr is bigger than eps\n");
  else printf("Success: max_relerr is smaller than eps\n");
  SAMPLE_CHECK(trnsolverDnDestroyParams(params));
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  return 0;
}
