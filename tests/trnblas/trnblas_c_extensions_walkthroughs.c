/* trnblas's cuBLAS Extensions from plain C99: the project's own walkthroughs of the cuBLAS-shaped call
 * sequences (Create, SetStream, the call(s), Destroy) of AxpyEx, DotEx, DotcEx, Nrm2Ex, RotEx, ScalEx (every
 * type R_64F / C_64F), dgmm, geam, GemmEx (COMPUTE_64F; with GEMM_AUTOTUNE: a warm-up and a default call,
 * then the tuning call and the cached one, as a tuning program makes them), GemmBatchedEx,
 * GemmStridedBatchedEx, GemmGroupedBatchedEx (R_32F, COMPUTE_32F), CherkEx / Cherk3mEx, CsyrkEx / Csyrk3mEx
 * (C_32F) and tpttr / trttp, on the caller's data. The data and expected results belong to
 * test_trnblas_c_samples.cpp (TrnblasCSamples.Extensions*), which checks them against CBLAS / LAPACKE.
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of the routines.
 * Accuracy: that of the routines (docs/trnblas.md). Limits: unit increments, no transposition, uplo
 * UPPER, side LEFT, leading dimension = rows; batches of at most 8 problems. */
#include "trnblas_c_walkthrough.h"

#define NO TRNBLAS_OP_N
#define UP TRNBLAS_FILL_MODE_UPPER
#define R64 TRN_R_64F
enum { max_batch = 8 };

int trnblas_walkthrough_axpy_ex(int n, double alpha, const double* x, double* y) {
  WALK_CALL(trnblasAxpyEx(handle, n, &alpha, R64, x, R64, 1, y, R64, 1, R64));
}

int trnblas_walkthrough_dot_ex(int n, const double* x, const double* y, double* result) {
  WALK_CALL(trnblasDotEx(handle, n, x, R64, 1, y, R64, 1, result, R64, R64));
}

int trnblas_walkthrough_dotc_ex(int n, const trnDoubleComplex* x, const trnDoubleComplex* y,
                                trnDoubleComplex* result) {
  WALK_CALL(trnblasDotcEx(handle, n, x, TRN_C_64F, 1, y, TRN_C_64F, 1, result, TRN_C_64F, TRN_C_64F));
}

int trnblas_walkthrough_nrm2_ex(int n, const double* x, double* result) {
  WALK_CALL(trnblasNrm2Ex(handle, n, x, R64, 1, result, R64, R64));
}

int trnblas_walkthrough_rot_ex(int n, double* x, double* y, double c, double s) {
  WALK_CALL(trnblasRotEx(handle, n, x, R64, 1, y, R64, 1, &c, &s, R64, R64));
}

int trnblas_walkthrough_scal_ex(int n, double alpha, double* x) {
  WALK_CALL(trnblasScalEx(handle, n, &alpha, R64, x, R64, 1, R64));
}

/* C = diag(x) A (side LEFT) */
int trnblas_walkthrough_dgmm(int m, int n, const double* A, const double* x, double* C) {
  WALK_CALL(trnblasDdgmm(handle, TRNBLAS_SIDE_LEFT, m, n, A, m, x, 1, C, m));
}

/* C = alpha A + beta B */
int trnblas_walkthrough_geam(int m, int n, double alpha, const double* A, double beta, const double* B, double* C) {
  WALK_CALL(trnblasDgeam(handle, NO, NO, m, n, &alpha, A, m, &beta, B, m, C, m));
}

/* C = A B in fp64 through GemmEx (COMPUTE_64F): one call (autotune 0) or the four calls of a tuning
 * program (DEFAULT_TENSOR_OP twice, then GEMM_AUTOTUNE twice; trnblas has one algorithm). */
int trnblas_walkthrough_gemm_ex(int autotune, int m, int n, int k, const double* A, const double* B, double* C) {
  const double alpha = 1.0, beta = 0.0;
  const trnblasGemmAlgo_t algos[4] = {TRNBLAS_GEMM_DEFAULT_TENSOR_OP, TRNBLAS_GEMM_DEFAULT_TENSOR_OP,
                                      TRNBLAS_GEMM_AUTOTUNE, TRNBLAS_GEMM_AUTOTUNE};
  const int calls = autotune ? 4 : 1;
  int call;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_walk_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  for (call = 0; call < calls && status == TRNBLAS_STATUS_SUCCESS; call++)
    status = trnblasGemmEx(handle, NO, NO, m, n, k, &alpha, A, R64, m, B, R64, k, &beta, C, R64, m, TRNBLAS_COMPUTE_64F,
                           algos[call]);
  return trnblas_walk_close(handle, status);
}

/* C[b] = A[b] B[b] (fp64, COMPUTE_64F) through arrays of pointers; matrices one after the other. */
int trnblas_walkthrough_gemm_batched_ex(int m, int n, int k, int batch, const double* A, const double* B, double* C) {
  const double alpha = 1.0, beta = 0.0;
  const void* a_array[max_batch];
  const void* b_array[max_batch];
  void* c_array[max_batch];
  int b;
  if (batch < 1 || batch > max_batch) return -1;
  for (b = 0; b < batch; ++b) {
    a_array[b] = A + b * m * k;
    b_array[b] = B + b * k * n;
    c_array[b] = C + b * m * n;
  }
  WALK_CALL(trnblasGemmBatchedEx(handle, NO, NO, m, n, k, &alpha, a_array, R64, m, b_array, R64, k, &beta, c_array,
                                 R64, m, batch, TRNBLAS_COMPUTE_64F, TRNBLAS_GEMM_DEFAULT_TENSOR_OP));
}

int trnblas_walkthrough_gemm_strided_batched_ex(int m, int n, int k, int batch, const double* A, const double* B,
                                                double* C) {
  const double alpha = 1.0, beta = 0.0;
  WALK_CALL(trnblasGemmStridedBatchedEx(handle, NO, NO, m, n, k, &alpha, A, R64, m, (long long)m * k, B, R64, k,
                                        (long long)k * n, &beta, C, R64, m, (long long)m * n, batch,
                                        TRNBLAS_COMPUTE_64F, TRNBLAS_GEMM_DEFAULT_TENSOR_OP));
}

/* fp32 (R_32F, COMPUTE_32F) grouped GEMMs: group g has group_size[g] products of shape (m, n, k)[g];
 * the problems' A, B, C one after the other (alpha 1, beta 0: C is never read). */
int trnblas_walkthrough_gemm_grouped_batched_ex(int group_count, const int* m, const int* n, const int* k,
                                                const int* group_size, const float* A, const float* B, float* C) {
  trnblasOperation_t trans[max_batch];
  float alpha[max_batch], beta[max_batch];
  const void* a_array[max_batch];
  const void* b_array[max_batch];
  void* c_array[max_batch];
  int g, p, problem = 0;
  if (group_count < 1 || group_count > max_batch) return -1;
  for (g = 0; g < group_count; ++g) {
    trans[g] = NO;
    alpha[g] = 1.0f;
    beta[g] = 0.0f;
    for (p = 0; p < group_size[g]; ++p, ++problem) {
      if (problem >= max_batch) return -1;
      a_array[problem] = A;
      b_array[problem] = B;
      c_array[problem] = C;
      A += m[g] * k[g];
      B += k[g] * n[g];
      C += m[g] * n[g];
    }
  }
  WALK_CALL(trnblasGemmGroupedBatchedEx(handle, trans, trans, m, n, k, alpha, a_array, TRN_R_32F, m, b_array,
                                        TRN_R_32F, k, beta, c_array, TRN_R_32F, m, group_count, group_size,
                                        TRNBLAS_COMPUTE_32F));
}

/* C (upper) = alpha A A^H + beta C, A n x k, C_32F: CherkEx (three_m 0) or Cherk3mEx (1). */
int trnblas_walkthrough_cherk_ex(int three_m, int n, int k, float alpha, const trnComplex* A, float beta,
                                 trnComplex* C) {
  if (three_m) WALK_CALL(trnblasCherk3mEx(handle, UP, NO, n, k, &alpha, A, TRN_C_32F, n, &beta, C, TRN_C_32F, n));
  WALK_CALL(trnblasCherkEx(handle, UP, NO, n, k, &alpha, A, TRN_C_32F, n, &beta, C, TRN_C_32F, n));
}

/* C (upper) = alpha A A^T + beta C, A n x k, C_32F: CsyrkEx (three_m 0) or Csyrk3mEx (1). */
int trnblas_walkthrough_csyrk_ex(int three_m, int n, int k, trnComplex alpha, const trnComplex* A, trnComplex beta,
                                 trnComplex* C) {
  if (three_m) WALK_CALL(trnblasCsyrk3mEx(handle, UP, NO, n, k, &alpha, A, TRN_C_32F, n, &beta, C, TRN_C_32F, n));
  WALK_CALL(trnblasCsyrkEx(handle, UP, NO, n, k, &alpha, A, TRN_C_32F, n, &beta, C, TRN_C_32F, n));
}

/* The upper triangle: packed AP -> full A (lda n; the strict lower part untouched), and back. */
int trnblas_walkthrough_tpttr(int n, const double* AP, double* A) {
  WALK_CALL(trnblasDtpttr(handle, UP, n, AP, A, n));
}

int trnblas_walkthrough_trttp(int n, const double* A, double* AP) {
  WALK_CALL(trnblasDtrttp(handle, UP, n, A, n, AP));
}
