/* NVIDIA's cuBLAS Extensions samples (CUDALibrarySamples/cuBLAS/Extensions: AxpyEx, DotEx, DotcEx,
 * Nrm2Ex, RotEx, ScalEx, dgmm, geam, GemmEx, GemmExAutoTuning, GemmBatchedEx, GemmStridedBatchedEx,
 * GemmGroupedBatchedEx, CherkEx, Cherk3mEx, CsyrkEx, Csyrk3mEx, tpttr, trttp) ported to trnblas by prefix substitution and host memory, as C99
 * (trnblas_c_samples.h). The samples' traits<double>::cuda_data_type is TRN_R_64F (CUDA_R_64F),
 * traits<cuDoubleComplex> TRN_C_64F and traits<float> TRN_R_32F. The Level-1 Ex samples use the
 * vectors of Level-1 (A = [1 2 3 4], B = [5 6 7 8]); the matrix ones the 2 x 2 data of Level-3. */
#include <math.h>
#include <string.h>

#include "trnblas_c_samples.h"

static const double sample_A[4] = {1.0, 2.0, 3.0, 4.0};
static const double sample_B[4] = {5.0, 6.0, 7.0, 8.0};
/* [1 2; 3 4], [5 6; 7 8], [9 10; 11 12] column-major */
static const double general_A[4] = {1.0, 3.0, 2.0, 4.0};
static const double general_B[4] = {5.0, 7.0, 6.0, 8.0};
static const double second_B[4] = {9.0, 11.0, 10.0, 12.0};

/* B = 2.1 A + B, every type double */
int trnblas_sample_AxpyEx(double B[4]) {
  const double alpha = 2.1;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(B, sample_B, sizeof sample_B);
  status = trnblasAxpyEx(handle, 4, &alpha, TRN_R_64F, sample_A, TRN_R_64F, 1, B, TRN_R_64F, 1, TRN_R_64F);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_DotEx(double* result) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  status = trnblasDotEx(handle, 4, sample_A, TRN_R_64F, 1, sample_B, TRN_R_64F, 1, result, TRN_R_64F, TRN_R_64F);
  return trnblas_sample_close(handle, status);
}

/* result = conj(A) . B on the complex vectors of the dotc sample */
int trnblas_sample_DotcEx(trnDoubleComplex* result) {
  const trnDoubleComplex A[4] = {{1.1, 1.2}, {2.3, 2.4}, {3.5, 3.6}, {4.7, 4.8}};
  const trnDoubleComplex B[4] = {{5.1, 5.2}, {6.3, 6.4}, {7.5, 7.6}, {8.7, 8.8}};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  status = trnblasDotcEx(handle, 4, A, TRN_C_64F, 1, B, TRN_C_64F, 1, result, TRN_C_64F, TRN_C_64F);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_Nrm2Ex(double* result) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  status = trnblasNrm2Ex(handle, 4, sample_A, TRN_R_64F, 1, result, TRN_R_64F, TRN_R_64F);
  return trnblas_sample_close(handle, status);
}

/* [A; B] = [c s; -s c] [A; B], c = 2.1, s = 1.2 */
int trnblas_sample_RotEx(double A[4], double B[4]) {
  const double c = 2.1, s = 1.2;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(A, sample_A, sizeof sample_A);
  memcpy(B, sample_B, sizeof sample_B);
  status = trnblasRotEx(handle, 4, A, TRN_R_64F, 1, B, TRN_R_64F, 1, &c, &s, TRN_R_64F, TRN_R_64F);
  return trnblas_sample_close(handle, status);
}

/* A = 2.2 A */
int trnblas_sample_ScalEx(double A[4]) {
  const double alpha = 2.2;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(A, sample_A, sizeof sample_A);
  status = trnblasScalEx(handle, 4, &alpha, TRN_R_64F, A, TRN_R_64F, 1, TRN_R_64F);
  return trnblas_sample_close(handle, status);
}

/* C = diag(x) A with A = {1, 2, 3, 4} column-major ([1 3; 2 4]) and x = [5 6] */
int trnblas_sample_dgmm(double C[4]) {
  const int m = 2, n = 2, lda = 2, ldc = 2;
  const double x[2] = {5.0, 6.0};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasDdgmm(handle, TRNBLAS_SIDE_LEFT, m, n, sample_A, lda, x, 1, C, ldc);
  return trnblas_sample_close(handle, status);
}

/* C = A + 2 B */
int trnblas_sample_geam(double C[4]) {
  const int m = 2, n = 2, lda = 2, ldb = 2, ldc = 2;
  const double alpha = 1.0, beta = 2.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasDgeam(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, &alpha, general_A, lda, &beta, general_B, ldb, C, ldc);
  return trnblas_sample_close(handle, status);
}

/* C = A B in double, COMPUTE_64F (trnblas: the fp64 fixed-point emulation) */
int trnblas_sample_GemmEx(double C[4]) {
  const int m = 2, n = 2, k = 2, lda = 2, ldb = 2, ldc = 2;
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = trnblasGemmEx(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, general_A, TRN_R_64F, lda, general_B,
                         TRN_R_64F, ldb, &beta, C, TRN_R_64F, ldc, TRNBLAS_COMPUTE_64F, TRNBLAS_GEMM_DEFAULT_TENSOR_OP);
  return trnblas_sample_close(handle, status);
}

/* GemmEx four times: twice with the default algorithm (a warm-up and a timed call), twice with
 * GEMM_AUTOTUNE (the tuning call and the cached one). The sample times the last two with CUDA
 * events; trnblas has one algorithm and reports the modeled device time of each call through
 * trnblasGetLastProfile instead, so the port keeps the four calls and the result. */
int trnblas_sample_GemmExAutoTuning(double C[4]) {
  const int m = 2, n = 2, k = 2, lda = 2, ldb = 2, ldc = 2;
  const double alpha = 1.0, beta = 0.0;
  const trnblasGemmAlgo_t algos[4] = {TRNBLAS_GEMM_DEFAULT_TENSOR_OP, TRNBLAS_GEMM_DEFAULT_TENSOR_OP,
                                      TRNBLAS_GEMM_AUTOTUNE, TRNBLAS_GEMM_AUTOTUNE};
  int call;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  for (call = 0; call < 4 && status == TRNBLAS_STATUS_SUCCESS; call++)
    status = trnblasGemmEx(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, general_A, TRN_R_64F, lda, general_B,
                           TRN_R_64F, ldb, &beta, C, TRN_R_64F, ldc, TRNBLAS_COMPUTE_64F, algos[call]);
  return trnblas_sample_close(handle, status);
}

/* the two products of gemmBatched through GemmBatchedEx, double, COMPUTE_64F */
int trnblas_sample_GemmBatchedEx(double C[8]) {
  const int m = 2, n = 2, k = 2, lda = 2, ldb = 2, ldc = 2, batch_count = 2;
  const double alpha = 1.0, beta = 0.0;
  const void* const A_array[2] = {general_A, general_B};
  const void* const B_array[2] = {general_B, second_B};
  void* const C_array[2] = {C, C + 4};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 8 * sizeof *C);
  status = trnblasGemmBatchedEx(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A_array, TRN_R_64F, lda, B_array,
                                TRN_R_64F, ldb, &beta, C_array, TRN_R_64F, ldc, batch_count, TRNBLAS_COMPUTE_64F,
                                TRNBLAS_GEMM_DEFAULT_TENSOR_OP);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_GemmStridedBatchedEx(double C[8]) {
  const int m = 2, n = 2, k = 2, lda = 2, ldb = 2, ldc = 2, batch_count = 2;
  const long long strideA = m * k, strideB = k * n, strideC = m * n;
  const double A[8] = {1.0, 3.0, 2.0, 4.0, 5.0, 7.0, 6.0, 8.0};
  const double B[8] = {5.0, 7.0, 6.0, 8.0, 9.0, 11.0, 10.0, 12.0};
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 8 * sizeof *C);
  status = trnblasGemmStridedBatchedEx(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A, TRN_R_64F, lda, strideA, B,
                                       TRN_R_64F, ldb, strideB, &beta, C, TRN_R_64F, ldc, strideC, batch_count,
                                       TRNBLAS_COMPUTE_64F, TRNBLAS_GEMM_DEFAULT_TENSOR_OP);
  return trnblas_sample_close(handle, status);
}

/* the products of gemmGroupedBatched in float, COMPUTE_32F; C NaN before the call */
int trnblas_sample_GemmGroupedBatchedEx(float C[17]) {
  enum { group_count = 2 };
  const int m_array[group_count] = {2, 3}, n_array[group_count] = {2, 3}, k_array[group_count] = {2, 3};
  const int lda_array[group_count] = {2, 3}, ldb_array[group_count] = {2, 3}, ldc_array[group_count] = {2, 3};
  const int group_size[group_count] = {2, 1};
  const float A0[4] = {1.0f, 3.0f, 2.0f, 4.0f}, A1[4] = {5.0f, 7.0f, 6.0f, 8.0f};
  const float A2[9] = {1.0f, 4.0f, 7.0f, 2.0f, 5.0f, 8.0f, 3.0f, 6.0f, 9.0f};
  const float B0[4] = {5.0f, 7.0f, 6.0f, 8.0f}, B1[4] = {9.0f, 11.0f, 10.0f, 12.0f};
  const float B2[9] = {4.0f, 7.0f, 10.0f, 5.0f, 8.0f, 11.0f, 6.0f, 9.0f, 12.0f};
  const void* const A_array[3] = {A0, A1, A2};
  const void* const B_array[3] = {B0, B1, B2};
  void* const C_array[3] = {C, C + 4, C + 8};
  const float alpha_array[group_count] = {1.0f, 1.0f}, beta_array[group_count] = {0.0f, 0.0f};
  const trnblasOperation_t transa_array[group_count] = {TRNBLAS_OP_N, TRNBLAS_OP_N};
  const trnblasOperation_t transb_array[group_count] = {TRNBLAS_OP_N, TRNBLAS_OP_N};
  int i;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  for (i = 0; i < 17; i++) C[i] = nanf("");
  status = trnblasGemmGroupedBatchedEx(handle, transa_array, transb_array, m_array, n_array, k_array, alpha_array,
                                       A_array, TRN_R_32F, lda_array, B_array, TRN_R_32F, ldb_array, beta_array,
                                       C_array, TRN_R_32F, ldc_array, group_count, group_size, TRNBLAS_COMPUTE_32F);
  return trnblas_sample_close(handle, status);
}

/* C (upper) = A A^H in single complex, A [1.1+1.2i 2.3+2.4i; 3.5+3.6i 4.7+4.8i], A and C C_32F */
static int herk_ex_sample(int three_m, trnComplex C[4]) {
  const int n = 2, k = 2, lda = 2, ldc = 2;
  const trnComplex A[4] = {{1.1f, 1.2f}, {3.5f, 3.6f}, {2.3f, 2.4f}, {4.7f, 4.8f}};
  const float alpha = 1.0f, beta = 0.0f;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  if (three_m)
    status = trnblasCherk3mEx(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, k, &alpha, A, TRN_C_32F, lda, &beta, C,
                              TRN_C_32F, ldc);
  else
    status = trnblasCherkEx(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, k, &alpha, A, TRN_C_32F, lda, &beta, C,
                            TRN_C_32F, ldc);
  return trnblas_sample_close(handle, status);
}
int trnblas_sample_CherkEx(trnComplex C[4]) { return herk_ex_sample(0, C); }
int trnblas_sample_Cherk3mEx(trnComplex C[4]) { return herk_ex_sample(1, C); }

/* C (upper) = (1 + i) A A^T, A (column-major) {1.1+1.2i, 3.5+3.6i, 3.5+3.6i, 4.7+4.8i}: the data of
 * the samples' source, which differs from the matrix their comment draws */
static int syrk_ex_sample(int three_m, trnComplex C[4]) {
  const int n = 2, k = 2, lda = 2, ldc = 2;
  const trnComplex A[4] = {{1.1f, 1.2f}, {3.5f, 3.6f}, {3.5f, 3.6f}, {4.7f, 4.8f}};
  const trnComplex alpha = {1.0f, 1.0f}, beta = {0.0f, 0.0f};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  if (three_m)
    status = trnblasCsyrk3mEx(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, k, &alpha, A, TRN_C_32F, lda, &beta, C,
                              TRN_C_32F, ldc);
  else
    status = trnblasCsyrkEx(handle, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, n, k, &alpha, A, TRN_C_32F, lda, &beta, C,
                            TRN_C_32F, ldc);
  return trnblas_sample_close(handle, status);
}
int trnblas_sample_CsyrkEx(trnComplex C[4]) { return syrk_ex_sample(0, C); }
int trnblas_sample_Csyrk3mEx(trnComplex C[4]) { return syrk_ex_sample(1, C); }

/* the upper triangle packed as {1, 3, 2} (the sample's AP has a fourth entry, 4, never read) into a
 * zeroed 2 x 2 A */
int trnblas_sample_tpttr(double A[4]) {
  const int n = 2, lda = 2;
  const double AP[4] = {1.0, 3.0, 2.0, 4.0};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(A, 0, 4 * sizeof *A);
  status = trnblasDtpttr(handle, TRNBLAS_FILL_MODE_UPPER, n, AP, A, lda);
  return trnblas_sample_close(handle, status);
}

/* the upper triangle of [1 2; 3 4] packed into a zeroed 4-entry AP */
int trnblas_sample_trttp(double AP[4]) {
  const int n = 2, lda = 2;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(AP, 0, 4 * sizeof *AP);
  status = trnblasDtrttp(handle, TRNBLAS_FILL_MODE_UPPER, n, general_A, lda, AP);
  return trnblas_sample_close(handle, status);
}
