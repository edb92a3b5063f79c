/* trnblas Level-2 from plain C99: the project's own walkthroughs of the cuBLAS-shaped Level-2 call
 * sequences (Create, SetStream, the call, Destroy) for gbmv, gemv, ger, sbmv, spmv, spr, spr2, symv, syr,
 * syr2, tbmv, tbsv, tpmv, tpsv, trmv, trsv (double) and hbmv, hemv, her, her2, hpmv, hpr, hpr2 (double
 * complex), on the caller's data. The data and expected results belong to test_trnblas_c_samples.cpp
 * (TrnblasCSamples.Level2*), which checks them against OpenBLAS's CBLAS (the test oracle).
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of the Level-2 routines.
 * Accuracy: that of the routines (docs/trnblas.md).
 * Limits: unit increments, uplo UPPER, trans N, diag NON_UNIT, host pointer mode. */
#include "trnblas_c_walkthrough.h"

#define UP TRNBLAS_FILL_MODE_UPPER
#define NO TRNBLAS_OP_N
#define NU TRNBLAS_DIAG_NON_UNIT

int trnblas_walkthrough_dgbmv(int m, int n, int kl, int ku, double alpha, const double* A, int lda, const double* x,
                              double beta, double* y) {
  WALK_CALL(trnblasDgbmv(handle, NO, m, n, kl, ku, &alpha, A, lda, x, 1, &beta, y, 1));
}

int trnblas_walkthrough_dgemv(int m, int n, double alpha, const double* A, int lda, const double* x, double beta,
                              double* y) {
  WALK_CALL(trnblasDgemv(handle, NO, m, n, &alpha, A, lda, x, 1, &beta, y, 1));
}

int trnblas_walkthrough_dger(int m, int n, double alpha, const double* x, const double* y, double* A, int lda) {
  WALK_CALL(trnblasDger(handle, m, n, &alpha, x, 1, y, 1, A, lda));
}

int trnblas_walkthrough_dsbmv(int n, int k, double alpha, const double* A, int lda, const double* x, double beta,
                              double* y) {
  WALK_CALL(trnblasDsbmv(handle, UP, n, k, &alpha, A, lda, x, 1, &beta, y, 1));
}

int trnblas_walkthrough_dspmv(int n, double alpha, const double* AP, const double* x, double beta, double* y) {
  WALK_CALL(trnblasDspmv(handle, UP, n, &alpha, AP, x, 1, &beta, y, 1));
}

int trnblas_walkthrough_dspr(int n, double alpha, const double* x, double* AP) {
  WALK_CALL(trnblasDspr(handle, UP, n, &alpha, x, 1, AP));
}

int trnblas_walkthrough_dspr2(int n, double alpha, const double* x, const double* y, double* AP) {
  WALK_CALL(trnblasDspr2(handle, UP, n, &alpha, x, 1, y, 1, AP));
}

int trnblas_walkthrough_dsymv(int n, double alpha, const double* A, int lda, const double* x, double beta, double* y) {
  WALK_CALL(trnblasDsymv(handle, UP, n, &alpha, A, lda, x, 1, &beta, y, 1));
}

int trnblas_walkthrough_dsyr(int n, double alpha, const double* x, double* A, int lda) {
  WALK_CALL(trnblasDsyr(handle, UP, n, &alpha, x, 1, A, lda));
}

int trnblas_walkthrough_dsyr2(int n, double alpha, const double* x, const double* y, double* A, int lda) {
  WALK_CALL(trnblasDsyr2(handle, UP, n, &alpha, x, 1, y, 1, A, lda));
}

int trnblas_walkthrough_dtbmv(int n, int k, const double* A, int lda, double* x) {
  WALK_CALL(trnblasDtbmv(handle, UP, NO, NU, n, k, A, lda, x, 1));
}

int trnblas_walkthrough_dtbsv(int n, int k, const double* A, int lda, double* x) {
  WALK_CALL(trnblasDtbsv(handle, UP, NO, NU, n, k, A, lda, x, 1));
}

int trnblas_walkthrough_dtpmv(int n, const double* AP, double* x) {
  WALK_CALL(trnblasDtpmv(handle, UP, NO, NU, n, AP, x, 1));
}

int trnblas_walkthrough_dtpsv(int n, const double* AP, double* x) {
  WALK_CALL(trnblasDtpsv(handle, UP, NO, NU, n, AP, x, 1));
}

int trnblas_walkthrough_dtrmv(int n, const double* A, int lda, double* x) {
  WALK_CALL(trnblasDtrmv(handle, UP, NO, NU, n, A, lda, x, 1));
}

int trnblas_walkthrough_dtrsv(int n, const double* A, int lda, double* x) {
  WALK_CALL(trnblasDtrsv(handle, UP, NO, NU, n, A, lda, x, 1));
}

int trnblas_walkthrough_zhbmv(int n, int k, trnDoubleComplex alpha, const trnDoubleComplex* A, int lda,
                              const trnDoubleComplex* x, trnDoubleComplex beta, trnDoubleComplex* y) {
  WALK_CALL(trnblasZhbmv(handle, UP, n, k, &alpha, A, lda, x, 1, &beta, y, 1));
}

int trnblas_walkthrough_zhemv(int n, trnDoubleComplex alpha, const trnDoubleComplex* A, int lda,
                              const trnDoubleComplex* x, trnDoubleComplex beta, trnDoubleComplex* y) {
  WALK_CALL(trnblasZhemv(handle, UP, n, &alpha, A, lda, x, 1, &beta, y, 1));
}

int trnblas_walkthrough_zher(int n, double alpha, const trnDoubleComplex* x, trnDoubleComplex* A, int lda) {
  WALK_CALL(trnblasZher(handle, UP, n, &alpha, x, 1, A, lda));
}

int trnblas_walkthrough_zher2(int n, trnDoubleComplex alpha, const trnDoubleComplex* x, const trnDoubleComplex* y,
                              trnDoubleComplex* A, int lda) {
  WALK_CALL(trnblasZher2(handle, UP, n, &alpha, x, 1, y, 1, A, lda));
}

int trnblas_walkthrough_zhpmv(int n, trnDoubleComplex alpha, const trnDoubleComplex* AP, const trnDoubleComplex* x,
                              trnDoubleComplex beta, trnDoubleComplex* y) {
  WALK_CALL(trnblasZhpmv(handle, UP, n, &alpha, AP, x, 1, &beta, y, 1));
}

int trnblas_walkthrough_zhpr(int n, double alpha, const trnDoubleComplex* x, trnDoubleComplex* AP) {
  WALK_CALL(trnblasZhpr(handle, UP, n, &alpha, x, 1, AP));
}

int trnblas_walkthrough_zhpr2(int n, trnDoubleComplex alpha, const trnDoubleComplex* x, const trnDoubleComplex* y,
                              trnDoubleComplex* AP) {
  WALK_CALL(trnblasZhpr2(handle, UP, n, &alpha, x, 1, y, 1, AP));
}
