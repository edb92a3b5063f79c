/* NVIDIA's cuSOLVER potrfBatched sample (CUDALibrarySamples/cuSOLVER/potrfBatched) ported to trnsolver by
 * prefix substitution and host memory, as trnsolver_c_eig_samples.c (cudaMalloc of each matrix and of
 * the pointer arrays become host arrays, cudaMemcpyAsync a copy, the stream NULL). Two 3 x 3 matrices:
 * A0 = L0 L0^T (SPD), A1 not SPD (info 2); then Dpotrs with B0 = (1, 1, 1) for both, X0 = A0 \ B0.
 * Writes infoArray, L0, X0 and potrsBatched's info; returns 0 or the first status that was not SUCCESS.
 * C99; test_trnsolver_batched.cpp checks the documented results (README). */
#include <stdio.h>
#include <string.h>

#include "trnsolverDn.h"
#include "trnsolver_c_sample_util.h"

int trnsolver_sample_potrf_batched(int* infoArray, double* L0, double* X0, int* potrs_info);
int trnsolver_sample_potrf_batched(int* infoArray, double* L0, double* X0, int* potrs_info) {
  trnsolverDnHandle_t cusolverH = NULL;
  const trnblasFillMode_t uplo = TRNBLAS_FILL_MODE_LOWER;
  const int batchSize = 2, nrhs = 1, m = 3, lda = 3, ldb = 3;
  const double A0[9] = {1.0, 2.0, 3.0, 2.0, 5.0, 5.0, 3.0, 5.0, 12.0};
  const double A1[9] = {1.0, 2.0, 3.0, 2.0, 4.0, 5.0, 3.0, 5.0, 12.0};
  const double B0[3] = {1.0, 1.0, 1.0};
  double dA0[9], dA1[9], dB0[3], dB1[3];
  double* Aarray[2];
  double* Barray[2];
  int j;
  Aarray[0] = dA0;
  Aarray[1] = dA1;
  Barray[0] = dB0;
  Barray[1] = dB1;
  printf("A0 = (matlab base-1)\n");
  print_matrix(m, m, A0, lda);
  printf("=====\n");
  printf("A1 = (matlab base-1)\n");
  print_matrix(m, m, A1, lda);
  printf("=====\n");
  printf("B0 = (matlab base-1)\n");
  print_matrix(m, 1, B0, ldb);
  printf("=====\n");
  SAMPLE_CHECK(trnsolverDnCreate(&cusolverH));
  SAMPLE_CHECK(trnsolverDnSetStream(cusolverH, NULL));
  memcpy(dA0, A0, sizeof A0);
  memcpy(dA1, A1, sizeof A1);
  memcpy(dB0, B0, sizeof B0);
  memcpy(dB1, B0, sizeof B0);
  SAMPLE_CHECK(trnsolverDnDpotrfBatched(cusolverH, uplo, m, Aarray, lda, infoArray, batchSize));
  memcpy(L0, dA0, sizeof dA0);
  for (j = 0; j < batchSize; j++) printf("info[%d] = %d\n", j, infoArray[j]);
  printf("L = (matlab base-1), upper triangle is don't care \n");
  print_matrix(m, m, L0, lda);
  printf("=====\n");
  SAMPLE_CHECK(trnsolverDnDpotrsBatched(cusolverH, uplo, m, nrhs, Aarray, lda, Barray, ldb, potrs_info, batchSize));
  memcpy(X0, dB0, sizeof dB0);
  printf("after potrsBatched: infoArray[0] = %d\n", *potrs_info);
  if (0 > *potrs_info) {
    printf("%d-th parameter is wrong \n", -*potrs_info);
    return -1;
  }
  printf("X0 = (matlab base-1)\n");
  print_matrix(m, 1, X0, ldb);
  printf("=====\n");
  SAMPLE_CHECK(trnsolverDnDestroy(cusolverH));
  return 0;
}
