/* NVIDIA's cuBLAS Level-2 samples (CUDALibrarySamples/cuBLAS/Level-2: gbmv, gemv, ger, sbmv, spmv,
 * spr, spr2, symv, syr, syr2, tbmv, tbsv, tpmv, tpsv, trmv, trsv in double; hbmv, hemv, her, her2,
 * hpmv, hpr, hpr2 in double complex) ported to trnblas by prefix substitution and host memory, as
 * C99 (trnblas_c_samples.h). n = 2 throughout, lda = 2, unit increments, upper triangles, no
 * transposition; x = [5 6] (complex: [5.1+6.2i 7.3+8.4i]), y = [7 8] (complex [1.1+2.2i 3.3+4.4i]). */
#include <string.h>

#include "trnblas_c_samples.h"

/* column-major [1 2; 3 4]; as a band matrix (kl = 0, ku = 1) it is [3 2; 0 4] */
static const double general_A[4] = {1.0, 3.0, 2.0, 4.0};
/* column-major [1 3; 3 4]; as an upper band (k = 1) it is [3 3; 3 4] */
static const double symmetric_A[4] = {1.0, 3.0, 3.0, 4.0};
static const double symmetric_AP[3] = {1.0, 3.0, 4.0};
static const double triangular_AP[3] = {1.0, 2.0, 4.0};
static const double sample_x[2] = {5.0, 6.0};
static const double sample_y[2] = {7.0, 8.0};

static const trnDoubleComplex complex_A[4] = {{1.1, 1.2}, {3.5, 3.6}, {2.3, 2.4}, {4.7, 4.8}};
static const trnDoubleComplex complex_x[2] = {{5.1, 6.2}, {7.3, 8.4}};
static const trnDoubleComplex complex_y[2] = {{1.1, 2.2}, {3.3, 4.4}};
/* the packed upper triangle of hpr and hpr2 (hpmv packs [1.1+1.2i 2.3+2.4i 4.7+4.8i]) */
static const trnDoubleComplex complex_AP[3] = {{1.1, 1.2}, {3.5, 3.6}, {4.7, 4.8}};

int trnblas_sample_gbmv(double y[2]) {
  const int m = 2, n = 2, lda = 2, kl = 0, ku = 1;
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  y[0] = y[1] = 0.0;
  status = trnblasDgbmv(handle, TRNBLAS_OP_N, m, n, kl, ku, &alpha, general_A, lda, sample_x, 1, &beta, y, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_gemv(double y[2]) {
  const int m = 2, n = 2, lda = 2;
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  y[0] = y[1] = 0.0;
  status = trnblasDgemv(handle, TRNBLAS_OP_N, m, n, &alpha, general_A, lda, sample_x, 1, &beta, y, 1);
  return trnblas_sample_close(handle, status);
}

/* A = 2 x y^T + A */
int trnblas_sample_ger(double A[4]) {
  const int m = 2, n = 2, lda = 2;
  const double alpha = 2.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(A, general_A, sizeof general_A);
  status = trnblasDger(handle, m, n, &alpha, sample_x, 1, sample_y, 1, A, lda);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_sbmv(double y[2]) {
  const int n = 2, k = 1, lda = 2;
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  y[0] = y[1] = 0.0;
  status = trnblasDsbmv(handle, TRNBLAS_FILL_MODE_UPPER, n, k, &alpha, symmetric_A, lda, sample_x, 1, &beta, y, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_spmv(double y[2]) {
  const int n = 2;
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  y[0] = y[1] = 0.0;
  status = trnblasDspmv(handle, TRNBLAS_FILL_MODE_UPPER, n, &alpha, symmetric_AP, sample_x, 1, &beta, y, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_spr(double AP[3]) {
  const int n = 2;
  const double alpha = 1.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(AP, symmetric_AP, sizeof symmetric_AP);
  status = trnblasDspr(handle, TRNBLAS_FILL_MODE_UPPER, n, &alpha, sample_x, 1, AP);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_spr2(double AP[3]) {
  const int n = 2;
  const double alpha = 1.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(AP, symmetric_AP, sizeof symmetric_AP);
  status = trnblasDspr2(handle, TRNBLAS_FILL_MODE_UPPER, n, &alpha, sample_x, 1, sample_y, 1, AP);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_symv(double y[2]) {
  const int n = 2, lda = 2;
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  y[0] = y[1] = 0.0;
  status = trnblasDsymv(handle, TRNBLAS_FILL_MODE_UPPER, n, &alpha, symmetric_A, lda, sample_x, 1, &beta, y, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_syr(double A[4]) {
  const int n = 2, lda = 2;
  const double alpha = 1.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(A, symmetric_A, sizeof symmetric_A);
  status = trnblasDsyr(handle, TRNBLAS_FILL_MODE_UPPER, n, &alpha, sample_x, 1, A, lda);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_syr2(double A[4]) {
  const int n = 2, lda = 2;
  const double alpha = 1.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(A, symmetric_A, sizeof symmetric_A);
  status = trnblasDsyr2(handle, TRNBLAS_FILL_MODE_UPPER, n, &alpha, sample_x, 1, sample_y, 1, A, lda);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_tbmv(double x[2]) {
  const int n = 2, k = 1, lda = 2;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(x, sample_x, sizeof sample_x);
  status = trnblasDtbmv(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n, k, general_A, lda, x, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_tbsv(double x[2]) {
  const int n = 2, k = 1, lda = 2;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(x, sample_x, sizeof sample_x);
  status = trnblasDtbsv(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n, k, general_A, lda, x, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_tpmv(double x[2]) {
  const int n = 2;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(x, sample_x, sizeof sample_x);
  status = trnblasDtpmv(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n, triangular_AP, x, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_tpsv(double x[2]) {
  const int n = 2;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(x, sample_x, sizeof sample_x);
  status = trnblasDtpsv(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n, triangular_AP, x, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_trmv(double x[2]) {
  const int n = 2, lda = 2;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(x, sample_x, sizeof sample_x);
  status = trnblasDtrmv(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n, general_A, lda, x, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_trsv(double x[2]) {
  const int n = 2, lda = 2;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(x, sample_x, sizeof sample_x);
  status = trnblasDtrsv(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n, general_A, lda, x, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_hbmv(trnDoubleComplex y[2]) {
  const int n = 2, k = 1, lda = 2;
  const trnDoubleComplex alpha = {1.0, 1.0}, beta = {0.0, 0.0};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  y[0] = y[1] = beta;
  status = trnblasZhbmv(handle, TRNBLAS_FILL_MODE_UPPER, n, k, &alpha, complex_A, lda, complex_x, 1, &beta, y, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_hemv(trnDoubleComplex y[2]) {
  const int n = 2, lda = 2;
  const trnDoubleComplex alpha = {1.0, 1.0}, beta = {0.0, 0.0};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  y[0] = y[1] = beta;
  status = trnblasZhemv(handle, TRNBLAS_FILL_MODE_UPPER, n, &alpha, complex_A, lda, complex_x, 1, &beta, y, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_her(trnDoubleComplex A[4]) {
  const int n = 2, lda = 2;
  const double alpha = 1.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(A, complex_A, sizeof complex_A);
  status = trnblasZher(handle, TRNBLAS_FILL_MODE_UPPER, n, &alpha, complex_x, 1, A, lda);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_her2(trnDoubleComplex A[4]) {
  const int n = 2, lda = 2;
  const trnDoubleComplex alpha = {1.0, 1.0};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(A, complex_A, sizeof complex_A);
  status = trnblasZher2(handle, TRNBLAS_FILL_MODE_UPPER, n, &alpha, complex_x, 1, complex_y, 1, A, lda);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_hpmv(trnDoubleComplex y[2]) {
  const int n = 2;
  const trnDoubleComplex AP[3] = {{1.1, 1.2}, {2.3, 2.4}, {4.7, 4.8}};
  const trnDoubleComplex alpha = {1.0, 1.0}, beta = {0.0, 0.0};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  y[0] = y[1] = beta;
  status = trnblasZhpmv(handle, TRNBLAS_FILL_MODE_UPPER, n, &alpha, AP, complex_x, 1, &beta, y, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_hpr(trnDoubleComplex AP[3]) {
  const int n = 2;
  const double alpha = 1.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(AP, complex_AP, sizeof complex_AP);
  status = trnblasZhpr(handle, TRNBLAS_FILL_MODE_UPPER, n, &alpha, complex_x, 1, AP);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_hpr2(trnDoubleComplex AP[3]) {
  const int n = 2;
  const trnDoubleComplex alpha = {1.0, 1.0};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(AP, complex_AP, sizeof complex_AP);
  status = trnblasZhpr2(handle, TRNBLAS_FILL_MODE_UPPER, n, &alpha, complex_x, 1, complex_y, 1, AP);
  return trnblas_sample_close(handle, status);
}
