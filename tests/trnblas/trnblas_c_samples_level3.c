/* NVIDIA's cuBLAS Level-3 samples (CUDALibrarySamples/cuBLAS/Level-3: gemm, gemmBatched,
 * gemmStridedBatched, gemmGroupedBatched, symm, syrk, syr2k, syrkx, trmm, trsm, trsmBatched in
 * double; gemm3m in single complex; hemm, herk, her2k, herkx in double complex) ported to trnblas by
 * prefix substitution and host memory, as C99 (trnblas_c_samples.h). 2 x 2 matrices, column-major,
 * leading dimensions 2, alpha = 1 (complex: 1 + i) and beta = 0; C starts as zeros (the samples'
 * std::vector) or NaN (gemmGroupedBatched: beta = 0 must not read it). */
#include <math.h>
#include <string.h>

#include "trnblas_c_samples.h"

/* [1 2; 3 4] and [5 6; 7 8] column-major; the second batch entries [5 6; 7 8] and [9 10; 11 12] */
static const double general_A[4] = {1.0, 3.0, 2.0, 4.0};
static const double general_B[4] = {5.0, 7.0, 6.0, 8.0};
static const double second_B[4] = {9.0, 11.0, 10.0, 12.0};
/* [1 3; 3 4] and [5 7; 7 8] */
static const double symmetric_A[4] = {1.0, 3.0, 3.0, 4.0};
static const double symmetric_B[4] = {5.0, 7.0, 7.0, 8.0};
/* [1.1+1.2i 2.3+2.4i; 3.5+3.6i 4.7+4.8i], A and B of every complex sample */
static const trnDoubleComplex complex_A[4] = {{1.1, 1.2}, {3.5, 3.6}, {2.3, 2.4}, {4.7, 4.8}};

int trnblas_sample_gemm(double C[4]) {
  const int m = 2, n = 2, k = 2, lda = 2, ldb = 2, ldc = 2;
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasDgemm(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, general_A, lda, general_B, ldb, &beta, C,
                        ldc);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_gemm3m(trnComplex C[4]) {
  const int m = 2, n = 2, k = 2, lda = 2, ldb = 2, ldc = 2;
  const trnComplex A[4] = {{1.1f, 1.2f}, {3.5f, 3.6f}, {2.3f, 2.4f}, {4.7f, 4.8f}};
  const trnComplex alpha = {1.0f, 1.0f}, beta = {0.0f, 0.0f};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasCgemm3m(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A, lda, A, ldb, &beta, C, ldc);
  return trnblas_sample_close(handle, status);
}

/* C[b] = A[b] B[b] for the two pairs, through arrays of pointers */
int trnblas_sample_gemmBatched(double C[8]) {
  const int m = 2, n = 2, k = 2, lda = 2, ldb = 2, ldc = 2, batch_count = 2;
  const double alpha = 1.0, beta = 0.0;
  const double* const A_array[2] = {general_A, general_B};
  const double* const B_array[2] = {general_B, second_B};
  double* const C_array[2] = {C, C + 4};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 8 * sizeof *C);
  status = trnblasDgemmBatched(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A_array, lda, B_array, ldb, &beta,
                               C_array, ldc, batch_count);
  return trnblas_sample_close(handle, status);
}

/* the same two products with the matrices one after the other (strides m k, k n, m n) */
int trnblas_sample_gemmStridedBatched(double C[8]) {
  const int m = 2, n = 2, k = 2, lda = 2, ldb = 2, ldc = 2, batch_count = 2;
  const long long strideA = m * k, strideB = k * n, strideC = m * n;
  const double A[8] = {1.0, 3.0, 2.0, 4.0, 5.0, 7.0, 6.0, 8.0};
  const double B[8] = {5.0, 7.0, 6.0, 8.0, 9.0, 11.0, 10.0, 12.0};
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 8 * sizeof *C);
  status = trnblasDgemmStridedBatched(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A, lda, strideA, B, ldb,
                                      strideB, &beta, C, ldc, strideC, batch_count);
  return trnblas_sample_close(handle, status);
}

/* group 0: the two 2 x 2 products of gemmBatched; group 1: [1 2 3; 4 5 6; 7 8 9] [4 5 6; 7 8 9;
 * 10 11 12]. C: C0 (4), C1 (4), C2 (9), NaN before the call. */
int trnblas_sample_gemmGroupedBatched(double C[17]) {
  enum { group_count = 2 };
  const int m_array[group_count] = {2, 3}, n_array[group_count] = {2, 3}, k_array[group_count] = {2, 3};
  const int lda_array[group_count] = {2, 3}, ldb_array[group_count] = {2, 3}, ldc_array[group_count] = {2, 3};
  const int group_size[group_count] = {2, 1};
  const double A2[9] = {1.0, 4.0, 7.0, 2.0, 5.0, 8.0, 3.0, 6.0, 9.0};
  const double B2[9] = {4.0, 7.0, 10.0, 5.0, 8.0, 11.0, 6.0, 9.0, 12.0};
  const double* const A_array[3] = {general_A, general_B, A2};
  const double* const B_array[3] = {general_B, second_B, B2};
  double* const C_array[3] = {C, C + 4, C + 8};
  const double alpha_array[group_count] = {1.0, 1.0}, beta_array[group_count] = {0.0, 0.0};
  const trnblasOperation_t transa_array[group_count] = {TRNBLAS_OP_N, TRNBLAS_OP_N};
  const trnblasOperation_t transb_array[group_count] = {TRNBLAS_OP_N, TRNBLAS_OP_N};
  int i;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  for (i = 0; i < 17; i++) C[i] = nan("");
  status = trnblasDgemmGroupedBatched(handle, transa_array, transb_array, m_array, n_array, k_array, alpha_array,
                                      A_array, lda_array, B_array, ldb_array, beta_array, C_array, ldc_array,
                                      group_count, group_size);
  return trnblas_sample_close(handle, status);
}

/* C = alpha A B, A Hermitian (its upper triangle read), left side */
int trnblas_sample_hemm(trnDoubleComplex C[4]) {
  const int m = 2, n = 2, lda = 2, ldb = 2, ldc = 2;
  const trnDoubleComplex alpha = {1.0, 1.0}, beta = {0.0, 0.0};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasZhemm(handle, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, m, n, &alpha, complex_A, lda, complex_A, ldb,
                        &beta, C, ldc);
  return trnblas_sample_close(handle, status);
}

/* C (upper) = A A^H */
int trnblas_sample_herk(trnDoubleComplex C[4]) {
  const int n = 2, k = 2, lda = 2, ldc = 2;
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasZherk(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, k, &alpha, complex_A, lda, &beta, C, ldc);
  return trnblas_sample_close(handle, status);
}

/* C (upper) = alpha A B^H + conj(alpha) B A^H */
int trnblas_sample_her2k(trnDoubleComplex C[4]) {
  const int n = 2, k = 2, lda = 2, ldb = 2, ldc = 2;
  const trnDoubleComplex alpha = {1.0, 1.0};
  const double beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasZher2k(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, k, &alpha, complex_A, lda, complex_A, ldb,
                         &beta, C, ldc);
  return trnblas_sample_close(handle, status);
}

/* C (upper) = alpha A B^H, the diagonal's imaginary parts set to zero */
int trnblas_sample_herkx(trnDoubleComplex C[4]) {
  const int n = 2, k = 2, lda = 2, ldb = 2, ldc = 2;
  const trnDoubleComplex alpha = {1.0, 1.0};
  const double beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasZherkx(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, k, &alpha, complex_A, lda, complex_A, ldb,
                         &beta, C, ldc);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_symm(double C[4]) {
  const int m = 2, n = 2, lda = 2, ldb = 2, ldc = 2;
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasDsymm(handle, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, m, n, &alpha, symmetric_A, lda, symmetric_B,
                        ldb, &beta, C, ldc);
  return trnblas_sample_close(handle, status);
}

/* C (upper) = A^T A */
int trnblas_sample_syrk(double C[4]) {
  const int n = 2, k = 2, lda = 2, ldc = 2;
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasDsyrk(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_T, n, k, &alpha, symmetric_A, lda, &beta, C, ldc);
  return trnblas_sample_close(handle, status);
}

/* C (upper) = A B^T + B A^T */
int trnblas_sample_syr2k(double C[4]) {
  const int n = 2, k = 2, lda = 2, ldb = 2, ldc = 2;
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasDsyr2k(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, k, &alpha, symmetric_A, lda, symmetric_B, ldb,
                         &beta, C, ldc);
  return trnblas_sample_close(handle, status);
}

/* C (upper) = A B^T */
int trnblas_sample_syrkx(double C[4]) {
  const int n = 2, k = 2, lda = 2, ldb = 2, ldc = 2;
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasDsyrkx(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, k, &alpha, symmetric_A, lda, symmetric_B, ldb,
                         &beta, C, ldc);
  return trnblas_sample_close(handle, status);
}

/* C = triu(A) B, out of place as cuBLAS's v2 trmm */
int trnblas_sample_trmm(double C[4]) {
  const int m = 2, n = 2, lda = 2, ldb = 2, ldc = 2;
  const double alpha = 1.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasDtrmm(handle, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, m, n,
                        &alpha, general_A, lda, general_B, ldb, C, ldc);
  return trnblas_sample_close(handle, status);
}

/* B = triu(A)^-1 B */
int trnblas_sample_trsm(double B[4]) {
  const int m = 2, n = 2, lda = 2, ldb = 2;
  const double alpha = 1.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(B, general_B, sizeof general_B);
  status = trnblasDtrsm(handle, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, m, n,
                        &alpha, general_A, lda, B, ldb);
  return trnblas_sample_close(handle, status);
}

/* B[b] = triu(A[b])^-1 B[b] for the pairs of gemmBatched */
int trnblas_sample_trsmBatched(double B[8]) {
  const int m = 2, n = 2, lda = 2, ldb = 2, batch_count = 2;
  const double alpha = 1.0;
  const double* const A_array[2] = {general_A, general_B};
  double* const B_array[2] = {B, B + 4};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(B, general_B, sizeof general_B);
  memcpy(B + 4, second_B, sizeof second_B);
  status = trnblasDtrsmBatched(handle, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT,
                               m, n, &alpha, A_array, lda, B_array, ldb, batch_count);
  return trnblas_sample_close(handle, status);
}
