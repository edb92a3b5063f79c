/* trnblas Level-3 from plain C99: the project's own walkthroughs of the cuBLAS-shaped Level-3 call
 * sequences (Create, SetStream, the call, Destroy) for gemm, Cgemm3m, gemmBatched (arrays of pointers),
 * gemmStridedBatched, gemmGroupedBatched, Zhemm, Zherk, Zher2k, Zherkx, symm, syrk, syr2k, syrkx, trmm
 * (out of place, as cuBLAS's v2), trsm and trsmBatched, on the caller's data. The data and expected results
 * belong to test_trnblas_c_samples.cpp (TrnblasCSamples.Level3*), which checks them against OpenBLAS's
 * CBLAS (the test oracle) and long-double loops.
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of the Level-3 routines.
 * Accuracy: that of the routines (docs/trnblas.md).
 * Limits: see trnblas_c_walkthrough.h; batches of at most 8 problems. */
#include "trnblas_c_walkthrough.h"

#define UP TRNBLAS_FILL_MODE_UPPER
#define NO TRNBLAS_OP_N
#define LEFT TRNBLAS_SIDE_LEFT
#define NU TRNBLAS_DIAG_NON_UNIT
enum { max_batch = 8 };

int trnblas_walkthrough_dgemm(int m, int n, int k, double alpha, const double* A, const double* B, double beta,
                              double* C) {
  WALK_CALL(trnblasDgemm(handle, NO, NO, m, n, k, &alpha, A, m, B, k, &beta, C, m));
}

int trnblas_walkthrough_cgemm3m(int m, int n, int k, trnComplex alpha, const trnComplex* A, const trnComplex* B,
                                trnComplex beta, trnComplex* C) {
  WALK_CALL(trnblasCgemm3m(handle, NO, NO, m, n, k, &alpha, A, m, B, k, &beta, C, m));
}

/* C[b] = A[b] B[b] through arrays of pointers (alpha 1, beta 0). */
int trnblas_walkthrough_dgemm_batched(int m, int n, int k, int batch, const double* A, const double* B, double* C) {
  const double alpha = 1.0, beta = 0.0;
  const double* a_array[max_batch];
  const double* b_array[max_batch];
  double* c_array[max_batch];
  int b;
  if (batch < 1 || batch > max_batch) return -1;
  for (b = 0; b < batch; ++b) {
    a_array[b] = A + b * m * k;
    b_array[b] = B + b * k * n;
    c_array[b] = C + b * m * n;
  }
  WALK_CALL(trnblasDgemmBatched(handle, NO, NO, m, n, k, &alpha, a_array, m, b_array, k, &beta, c_array, m, batch));
}

/* The same products with the matrices one after the other (strides m k, k n, m n). */
int trnblas_walkthrough_dgemm_strided_batched(int m, int n, int k, int batch, const double* A, const double* B,
                                              double* C) {
  const double alpha = 1.0, beta = 0.0;
  WALK_CALL(trnblasDgemmStridedBatched(handle, NO, NO, m, n, k, &alpha, A, m, (long long)m * k, B, k,
                                       (long long)k * n, &beta, C, m, (long long)m * n, batch));
}

/* group g: group_size[g] products of shape (m[g], n[g], k[g]); the problems' A, B, C one after the other
 * (alpha 1, beta 0: C is never read). */
int trnblas_walkthrough_dgemm_grouped_batched(int group_count, const int* m, const int* n, const int* k,
                                              const int* group_size, const double* A, const double* B, double* C) {
  trnblasOperation_t trans[max_batch];
  double alpha[max_batch], beta[max_batch];
  const double* a_array[max_batch];
  const double* b_array[max_batch];
  double* c_array[max_batch];
  int g, p, problem = 0;
  if (group_count < 1 || group_count > max_batch) return -1;
  for (g = 0; g < group_count; ++g) {
    trans[g] = NO;
    alpha[g] = 1.0;
    beta[g] = 0.0;
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
  WALK_CALL(trnblasDgemmGroupedBatched(handle, trans, trans, m, n, k, alpha, a_array, m, b_array, k, beta, c_array, m,
                                       group_count, group_size));
}

int trnblas_walkthrough_zhemm(int m, int n, trnDoubleComplex alpha, const trnDoubleComplex* A,
                              const trnDoubleComplex* B, trnDoubleComplex beta, trnDoubleComplex* C) {
  WALK_CALL(trnblasZhemm(handle, LEFT, UP, m, n, &alpha, A, m, B, m, &beta, C, m));
}

int trnblas_walkthrough_zherk(int n, int k, double alpha, const trnDoubleComplex* A, double beta, trnDoubleComplex* C) {
  WALK_CALL(trnblasZherk(handle, UP, NO, n, k, &alpha, A, n, &beta, C, n));
}

int trnblas_walkthrough_zher2k(int n, int k, trnDoubleComplex alpha, const trnDoubleComplex* A,
                               const trnDoubleComplex* B, double beta, trnDoubleComplex* C) {
  WALK_CALL(trnblasZher2k(handle, UP, NO, n, k, &alpha, A, n, B, n, &beta, C, n));
}

int trnblas_walkthrough_zherkx(int n, int k, trnDoubleComplex alpha, const trnDoubleComplex* A,
                               const trnDoubleComplex* B, double beta, trnDoubleComplex* C) {
  WALK_CALL(trnblasZherkx(handle, UP, NO, n, k, &alpha, A, n, B, n, &beta, C, n));
}

int trnblas_walkthrough_dsymm(int m, int n, double alpha, const double* A, const double* B, double beta, double* C) {
  WALK_CALL(trnblasDsymm(handle, LEFT, UP, m, n, &alpha, A, m, B, m, &beta, C, m));
}

/* C (upper) = alpha A^T A + beta C for the k x n A */
int trnblas_walkthrough_dsyrk(int n, int k, double alpha, const double* A, double beta, double* C) {
  WALK_CALL(trnblasDsyrk(handle, UP, TRNBLAS_OP_T, n, k, &alpha, A, k, &beta, C, n));
}

int trnblas_walkthrough_dsyr2k(int n, int k, double alpha, const double* A, const double* B, double beta, double* C) {
  WALK_CALL(trnblasDsyr2k(handle, UP, NO, n, k, &alpha, A, n, B, n, &beta, C, n));
}

int trnblas_walkthrough_dsyrkx(int n, int k, double alpha, const double* A, const double* B, double beta, double* C) {
  WALK_CALL(trnblasDsyrkx(handle, UP, NO, n, k, &alpha, A, n, B, n, &beta, C, n));
}

/* C = alpha triu(A) B, out of place */
int trnblas_walkthrough_dtrmm(int m, int n, double alpha, const double* A, const double* B, double* C) {
  WALK_CALL(trnblasDtrmm(handle, LEFT, UP, NO, NU, m, n, &alpha, A, m, B, m, C, m));
}

/* B = alpha triu(A)^-1 B */
int trnblas_walkthrough_dtrsm(int m, int n, double alpha, const double* A, double* B) {
  WALK_CALL(trnblasDtrsm(handle, LEFT, UP, NO, NU, m, n, &alpha, A, m, B, m));
}

/* B[b] = alpha triu(A[b])^-1 B[b] through arrays of pointers */
int trnblas_walkthrough_dtrsm_batched(int m, int n, int batch, double alpha, const double* A, double* B) {
  const double* a_array[max_batch];
  double* b_array[max_batch];
  int b;
  if (batch < 1 || batch > max_batch) return -1;
  for (b = 0; b < batch; ++b) {
    a_array[b] = A + b * m * m;
    b_array[b] = B + b * m * n;
  }
  WALK_CALL(trnblasDtrsmBatched(handle, LEFT, UP, NO, NU, m, n, &alpha, a_array, m, b_array, m, batch));
}
