/* The project's own C99 walkthroughs of trnblas's C API (trnblas_c_level{1,2,3}_walkthroughs.c,
 * trnblas_c_extensions_walkthroughs.c, trnblas_c_emulation_walkthroughs.c; test_trnblas_c_samples.cpp
 * drives and checks them): their declarations and what they share -- the handle opened as a cuBLAS program
 * opens it (trnblasCreate, then the stream binding: NULL, the default stream, since trnsci executes
 * synchronously) and closed with the computation's status winning over the destruction's. (They replace
 * NVIDIA's cuBLAS samples, which earlier sessions ported and ran; see docs/trnblas.md.) */
#ifndef TRNBLAS_C_WALKTHROUGH_H
#define TRNBLAS_C_WALKTHROUGH_H

#include "trnblas.h"

#ifdef __cplusplus
extern "C" {
#endif

/* trnblasCreate, then the stream binding. On failure no handle is left open. */
static inline trnblasStatus_t trnblas_walk_open(trnblasHandle_t* handle) {
  trnblasStatus_t status = trnblasCreate(handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return status;
  status = trnblasSetStream(*handle, NULL);
  if (status != TRNBLAS_STATUS_SUCCESS) trnblasDestroy(*handle);
  return status;
}

/* trnblasDestroy; the status of the computation wins over the one of the destruction. */
static inline int trnblas_walk_close(trnblasHandle_t handle, trnblasStatus_t status) {
  const trnblasStatus_t destroyed = trnblasDestroy(handle);
  return status != TRNBLAS_STATUS_SUCCESS ? (int)status : (int)destroyed;
}

/* Open a handle, make `call` (an expression naming `handle`), close it: the computation's status wins. */
#define WALK_CALL(call)                                       \
  do {                                                        \
    trnblasHandle_t handle;                                   \
    trnblasStatus_t status = trnblas_walk_open(&handle);    \
    if (status != TRNBLAS_STATUS_SUCCESS) return (int)status; \
    status = (call);                                          \
    return trnblas_walk_close(handle, status);              \
  } while (0)

/* Level-1 walkthroughs (trnblas_c_level1_walkthroughs.c): each opens a handle, makes its call(s) on
 * the caller's data (vectors with unit increments; in/out arrays updated in place) and closes it.
 * Returns 0 or the first status that was not SUCCESS. */
int trnblas_walkthrough_iamax_iamin(int n, const double* x, int* imax, int* imin);
int trnblas_walkthrough_asum_dot_nrm2(int n, const double* x, const double* y, double sums[3]);
int trnblas_walkthrough_axpy(int n, double alpha, const double* x, double* y);
int trnblas_walkthrough_copy(int n, const double* x, double* y);
int trnblas_walkthrough_scal(int n, double alpha, double* x);
int trnblas_walkthrough_swap(int n, double* x, double* y);
int trnblas_walkthrough_zdotc(int n, const trnDoubleComplex* x, const trnDoubleComplex* y, trnDoubleComplex* result);
int trnblas_walkthrough_rot(int n, double* x, double* y, double c, double s);
int trnblas_walkthrough_rotg(double* a, double* b, double* c, double* s);
int trnblas_walkthrough_rotm(int n, double* x, double* y, const double param[5]);
int trnblas_walkthrough_rotmg(double* d1, double* d2, double* x1, double y1, double param[5]);

/* Level-2 walkthroughs (trnblas_c_level2_walkthroughs.c): one call each on the caller's data, column-major,
 * unit increments, uplo UPPER, trans N, diag NON_UNIT (the triangular ones), results in place. */
int trnblas_walkthrough_dgbmv(int m, int n, int kl, int ku, double alpha, const double* A, int lda, const double* x,
                              double beta, double* y);
int trnblas_walkthrough_dgemv(int m, int n, double alpha, const double* A, int lda, const double* x, double beta,
                              double* y);
int trnblas_walkthrough_dger(int m, int n, double alpha, const double* x, const double* y, double* A, int lda);
int trnblas_walkthrough_dsbmv(int n, int k, double alpha, const double* A, int lda, const double* x, double beta,
                              double* y);
int trnblas_walkthrough_dspmv(int n, double alpha, const double* AP, const double* x, double beta, double* y);
int trnblas_walkthrough_dspr(int n, double alpha, const double* x, double* AP);
int trnblas_walkthrough_dspr2(int n, double alpha, const double* x, const double* y, double* AP);
int trnblas_walkthrough_dsymv(int n, double alpha, const double* A, int lda, const double* x, double beta, double* y);
int trnblas_walkthrough_dsyr(int n, double alpha, const double* x, double* A, int lda);
int trnblas_walkthrough_dsyr2(int n, double alpha, const double* x, const double* y, double* A, int lda);
int trnblas_walkthrough_dtbmv(int n, int k, const double* A, int lda, double* x);
int trnblas_walkthrough_dtbsv(int n, int k, const double* A, int lda, double* x);
int trnblas_walkthrough_dtpmv(int n, const double* AP, double* x);
int trnblas_walkthrough_dtpsv(int n, const double* AP, double* x);
int trnblas_walkthrough_dtrmv(int n, const double* A, int lda, double* x);
int trnblas_walkthrough_dtrsv(int n, const double* A, int lda, double* x);
int trnblas_walkthrough_zhbmv(int n, int k, trnDoubleComplex alpha, const trnDoubleComplex* A, int lda,
                              const trnDoubleComplex* x, trnDoubleComplex beta, trnDoubleComplex* y);
int trnblas_walkthrough_zhemv(int n, trnDoubleComplex alpha, const trnDoubleComplex* A, int lda,
                              const trnDoubleComplex* x, trnDoubleComplex beta, trnDoubleComplex* y);
int trnblas_walkthrough_zher(int n, double alpha, const trnDoubleComplex* x, trnDoubleComplex* A, int lda);
int trnblas_walkthrough_zher2(int n, trnDoubleComplex alpha, const trnDoubleComplex* x, const trnDoubleComplex* y,
                              trnDoubleComplex* A, int lda);
int trnblas_walkthrough_zhpmv(int n, trnDoubleComplex alpha, const trnDoubleComplex* AP, const trnDoubleComplex* x,
                              trnDoubleComplex beta, trnDoubleComplex* y);
int trnblas_walkthrough_zhpr(int n, double alpha, const trnDoubleComplex* x, trnDoubleComplex* AP);
int trnblas_walkthrough_zhpr2(int n, trnDoubleComplex alpha, const trnDoubleComplex* x, const trnDoubleComplex* y,
                              trnDoubleComplex* AP);

/* Level-3 walkthroughs (trnblas_c_level3_walkthroughs.c): column-major with leading dimension = row count,
 * no transposition (syrk: A^T A, as trans T), uplo UPPER, side LEFT, diag NON_UNIT; batches stored one
 * after the other (at most 8 problems), results in place. */
int trnblas_walkthrough_dgemm(int m, int n, int k, double alpha, const double* A, const double* B, double beta,
                              double* C);
int trnblas_walkthrough_cgemm3m(int m, int n, int k, trnComplex alpha, const trnComplex* A, const trnComplex* B,
                                trnComplex beta, trnComplex* C);
int trnblas_walkthrough_dgemm_batched(int m, int n, int k, int batch, const double* A, const double* B, double* C);
int trnblas_walkthrough_dgemm_strided_batched(int m, int n, int k, int batch, const double* A, const double* B,
                                              double* C);
int trnblas_walkthrough_dgemm_grouped_batched(int group_count, const int* m, const int* n, const int* k,
                                              const int* group_size, const double* A, const double* B, double* C);
int trnblas_walkthrough_zhemm(int m, int n, trnDoubleComplex alpha, const trnDoubleComplex* A,
                              const trnDoubleComplex* B, trnDoubleComplex beta, trnDoubleComplex* C);
int trnblas_walkthrough_zherk(int n, int k, double alpha, const trnDoubleComplex* A, double beta, trnDoubleComplex* C);
int trnblas_walkthrough_zher2k(int n, int k, trnDoubleComplex alpha, const trnDoubleComplex* A,
                               const trnDoubleComplex* B, double beta, trnDoubleComplex* C);
int trnblas_walkthrough_zherkx(int n, int k, trnDoubleComplex alpha, const trnDoubleComplex* A,
                               const trnDoubleComplex* B, double beta, trnDoubleComplex* C);
int trnblas_walkthrough_dsymm(int m, int n, double alpha, const double* A, const double* B, double beta, double* C);
int trnblas_walkthrough_dsyrk(int n, int k, double alpha, const double* A, double beta, double* C);
int trnblas_walkthrough_dsyr2k(int n, int k, double alpha, const double* A, const double* B, double beta, double* C);
int trnblas_walkthrough_dsyrkx(int n, int k, double alpha, const double* A, const double* B, double beta, double* C);
int trnblas_walkthrough_dtrmm(int m, int n, double alpha, const double* A, const double* B, double* C);
int trnblas_walkthrough_dtrsm(int m, int n, double alpha, const double* A, double* B);
int trnblas_walkthrough_dtrsm_batched(int m, int n, int batch, double alpha, const double* A, double* B);

/* Emulation walkthroughs (trnblas_c_emulation_walkthroughs.c): no transposition, leading dimension = rows. */
int trnblas_walkthrough_bf16x9(int use_sgemm, int m, int n, int k, const float* A, const float* B, float* Cnative,
                               float* Cemulated);
int trnblas_walkthrough_fixed_point_dgemm(int use_gemm_ex, int set_math_mode, trnEmulationMantissaControl_t control,
                                          int bits, int m, int n, int k, double alpha, const double* A,
                                          const double* B, double beta, double* C);
int trnblas_walkthrough_fixed_point_zgemm(trnEmulationMantissaControl_t control, int bits, int m, int n, int k,
                                          trnDoubleComplex alpha, const trnDoubleComplex* A,
                                          const trnDoubleComplex* B, trnDoubleComplex beta, trnDoubleComplex* C);

/* Extensions walkthroughs (trnblas_c_extensions_walkthroughs.c); see that file for the conventions. */
int trnblas_walkthrough_axpy_ex(int n, double alpha, const double* x, double* y);
int trnblas_walkthrough_dot_ex(int n, const double* x, const double* y, double* result);
int trnblas_walkthrough_dotc_ex(int n, const trnDoubleComplex* x, const trnDoubleComplex* y,
                                trnDoubleComplex* result);
int trnblas_walkthrough_nrm2_ex(int n, const double* x, double* result);
int trnblas_walkthrough_rot_ex(int n, double* x, double* y, double c, double s);
int trnblas_walkthrough_scal_ex(int n, double alpha, double* x);
int trnblas_walkthrough_dgmm(int m, int n, const double* A, const double* x, double* C);
int trnblas_walkthrough_geam(int m, int n, double alpha, const double* A, double beta, const double* B, double* C);
int trnblas_walkthrough_gemm_ex(int autotune, int m, int n, int k, const double* A, const double* B, double* C);
int trnblas_walkthrough_gemm_batched_ex(int m, int n, int k, int batch, const double* A, const double* B, double* C);
int trnblas_walkthrough_gemm_strided_batched_ex(int m, int n, int k, int batch, const double* A, const double* B,
                                                double* C);
int trnblas_walkthrough_gemm_grouped_batched_ex(int group_count, const int* m, const int* n, const int* k,
                                                const int* group_size, const float* A, const float* B, float* C);
int trnblas_walkthrough_cherk_ex(int three_m, int n, int k, float alpha, const trnComplex* A, float beta,
                                 trnComplex* C);
int trnblas_walkthrough_csyrk_ex(int three_m, int n, int k, trnComplex alpha, const trnComplex* A, trnComplex beta,
                                 trnComplex* C);
int trnblas_walkthrough_tpttr(int n, const double* AP, double* A);
int trnblas_walkthrough_trttp(int n, const double* A, double* AP);

#ifdef __cplusplus
}
#endif

#endif
