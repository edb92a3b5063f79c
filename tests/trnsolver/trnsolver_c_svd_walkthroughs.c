/* trnsolver's SVDs from plain C99: the project's own walkthroughs of their call sequences as a C program
 * written against cuSOLVER/cuBLAS would make them (host memory; the stream is the default NULL one):
 *   gesvd / Xgesvd:        Dgesvd_bufferSize + Dgesvd (rwork NULL), or the params object, the 64-bit
 *                          workspace query and Xgesvd (TRN_R_64F); jobu = jobvt = 'A';
 *   gesvdaStridedBatched:  the fp32 workspace query and call with strides, per-matrix info and h_R_nrmF;
 *   Xgesvdp:               params, workspace query, Xgesvdp (VECTOR, econ 1) with h_err_sigma;
 *   Xgesvdr:               params, workspace query, Xgesvdr (jobu = jobv = 'S', rank, oversampling, iters);
 * and, for gesvd and Xgesvdp, ||A - U S V^T||_F with trnblas (Ddgmm, Dgemm, Dnrm2). The matrices and
 * expected results belong to test_trnsolver_gesvd.cpp and test_trnsolver_svd_family.cpp
 * (TrnsolverGesvd.SamplesPrintTheirDocumentedResults, TrnsolverSvdFamily.NvidiaSamples), which check
 * them against LAPACKE dgesvd, dense residual loops and matrices with exactly known singular values.
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of the routines called and trnblas.
 * Accuracy: that of the routines (docs/trnsolver.md "gesvd, Xgesvd", "SVD family").
 * Limits: column-major, lda = ldu = m, ldv(t) = n; m >= n; A left unchanged. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trnblas.h"
#include "trnsolverDn.h"
#include "trnsolver_c_walkthrough.h"

int trnsolver_walkthrough_gesvd(int x, int m, int n, const double* A, double* S, double* U, double* VT, double* r_err,
                                int* info);
int trnsolver_walkthrough_gesvda(int m, int n, int rank, int batch, const float* A, float* S, float* U, float* V,
                                 double* RnrmF, int* info);
int trnsolver_walkthrough_xgesvdp(int m, int n, const double* A, double* S, double* U, double* V, double* r_err,
                                  double* err_sigma, int* info);
int trnsolver_walkthrough_xgesvdr(int64_t m, int64_t n, int64_t rank, int64_t p, int64_t iters, const double* A,
                                  double* S, int* info);

/* r_err = ||A - U_k diag(S) Vt||_F for the m x n A and k = n singular triplets, computed with trnblas:
 * W = diag(S) VT (VT k x n, vt_rows 1) or W = V diag(S) (V n x k, vt_rows 0) by Ddgmm, then A - U W (or
 * A - U W^T) by Dgemm into a copy of A, then Dnrm2. Returns 0, a status, or -1 (allocation). */
static int svd_residual(int m, int n, const double* A, const double* U, const double* S, const double* v,
                        int vt_rows, double* r_err) {
  const double one = 1, minus_one = -1;
  trnblasHandle_t blas = NULL;
  double *w = (double*)malloc(sizeof(double) * (size_t)(n * n)), *r = (double*)malloc(sizeof(double) * (size_t)(m * n));
  int failed = 0;
  if (w == NULL || r == NULL) WALK_CHECK(-1);
  memcpy(r, A, sizeof(double) * (size_t)(m * n));
  WALK_CHECK(trnblasCreate(&blas));
  if (vt_rows) {
    WALK_CHECK(trnblasDdgmm(blas, TRNBLAS_SIDE_LEFT, n, n, v, n, S, 1, w, n));
    WALK_CHECK(trnblasDgemm(blas, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, n, &minus_one, U, m, w, n, &one, r, m));
  } else {
    WALK_CHECK(trnblasDdgmm(blas, TRNBLAS_SIDE_RIGHT, n, n, v, n, S, 1, w, n));
    WALK_CHECK(trnblasDgemm(blas, TRNBLAS_OP_N, TRNBLAS_OP_T, m, n, n, &minus_one, U, m, w, n, &one, r, m));
  }
  WALK_CHECK(trnblasDnrm2(blas, m * n, r, 1, r_err));
done:
  free(r);
  free(w);
  if (blas != NULL && trnblasDestroy(blas) != TRNBLAS_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* Full SVD (jobu = jobvt = 'A'): S (n), U (m x m), VT (n x n); x 0: Dgesvd, 1: Xgesvd. Returns 0, the first
 * status that was not SUCCESS, 100 + info for a nonzero info, or -1 (allocation). */
int trnsolver_walkthrough_gesvd(int x, int m, int n, const double* A, double* S, double* U, double* VT, double* r_err,
                                int* info) {
  const signed char jobu = 'A', jobvt = 'A';
  trnsolverDnHandle_t handle = NULL;
  trnsolverDnParams_t params = NULL;
  double* a_copy = (double*)malloc(sizeof(double) * (size_t)(m * n));
  void* work = NULL;
  int lwork = 0, failed = 0;
  size_t device_bytes = 0, host_bytes = 0;
  if (a_copy == NULL) WALK_CHECK(-1);
  memcpy(a_copy, A, sizeof(double) * (size_t)(m * n));
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnSetStream(handle, NULL));
  if (x) {
    WALK_CHECK(trnsolverDnCreateParams(&params));
    WALK_CHECK(trnsolverDnXgesvd_bufferSize(handle, params, jobu, jobvt, m, n, TRN_R_64F, a_copy, m, TRN_R_64F, S,
                                            TRN_R_64F, U, m, TRN_R_64F, VT, n, TRN_R_64F, &device_bytes, &host_bytes));
    work = malloc(device_bytes > 0 ? device_bytes : 1);
    if (work == NULL) WALK_CHECK(-1);
    WALK_CHECK(trnsolverDnXgesvd(handle, params, jobu, jobvt, m, n, TRN_R_64F, a_copy, m, TRN_R_64F, S, TRN_R_64F, U, m,
                                 TRN_R_64F, VT, n, TRN_R_64F, work, device_bytes, NULL, host_bytes, info));
  } else {
    WALK_CHECK(trnsolverDnDgesvd_bufferSize(handle, m, n, &lwork));
    work = malloc(sizeof(double) * (size_t)(lwork > 0 ? lwork : 1));
    if (work == NULL) WALK_CHECK(-1);
    WALK_CHECK(trnsolverDnDgesvd(handle, jobu, jobvt, m, n, a_copy, m, S, U, m, VT, n, (double*)work, lwork, NULL,
                                 info));
  }
  WALK_CHECK(*info != 0 ? 100 + *info : 0);
  WALK_CHECK(svd_residual(m, n, A, U, S, VT, 1, r_err));
done:
  free(work);
  free(a_copy);
  if (params != NULL && trnsolverDnDestroyParams(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* batch fp32 m x n matrices at stride m n: the leading `rank` singular triplets of each (S stride n,
 * U stride m n with ldu m, V stride n n with ldv n), info and h_R_nrmF per matrix. Returns as above. */
int trnsolver_walkthrough_gesvda(int m, int n, int rank, int batch, const float* A, float* S, float* U, float* V,
                                 double* RnrmF, int* info) {
  const long long stride_a = (long long)m * n, stride_s = n, stride_u = (long long)m * n, stride_v = (long long)n * n;
  trnsolverDnHandle_t handle = NULL;
  float *a_copy = (float*)malloc(sizeof(float) * (size_t)(stride_a * batch)), *work = NULL;
  int lwork = 0, failed = 0;
  if (a_copy == NULL) WALK_CHECK(-1);
  memcpy(a_copy, A, sizeof(float) * (size_t)(stride_a * batch));
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnSetStream(handle, NULL));
  WALK_CHECK(trnsolverDnSgesvdaStridedBatched_bufferSize(handle, TRNSOLVER_EIG_MODE_VECTOR, rank, m, n, a_copy, m,
                                                         stride_a, S, stride_s, U, m, stride_u, V, n, stride_v, &lwork,
                                                         batch));
  work = (float*)malloc(sizeof(float) * (size_t)(lwork > 0 ? lwork : 1));
  if (work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnSgesvdaStridedBatched(handle, TRNSOLVER_EIG_MODE_VECTOR, rank, m, n, a_copy, m, stride_a, S,
                                              stride_s, U, m, stride_u, V, n, stride_v, work, lwork, info, RnrmF,
                                              batch));
done:
  free(work);
  free(a_copy);
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* Economy SVD by the polar decomposition: S (n), U (m x n), V (n x n); err_sigma as Xgesvdp reports it;
 * r_err = ||A - U S V^T||_F by trnblas. Returns as trnsolver_walkthrough_gesvd. */
int trnsolver_walkthrough_xgesvdp(int m, int n, const double* A, double* S, double* U, double* V, double* r_err,
                                  double* err_sigma, int* info) {
  trnsolverDnHandle_t handle = NULL;
  trnsolverDnParams_t params = NULL;
  double* a_copy = (double*)malloc(sizeof(double) * (size_t)(m * n));
  size_t device_bytes = 0, host_bytes = 0;
  void *device_work = NULL, *host_work = NULL;
  int failed = 0;
  if (a_copy == NULL) WALK_CHECK(-1);
  memcpy(a_copy, A, sizeof(double) * (size_t)(m * n));
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnCreateParams(&params));
  WALK_CHECK(trnsolverDnXgesvdp_bufferSize(handle, params, TRNSOLVER_EIG_MODE_VECTOR, 1, m, n, TRN_R_64F, a_copy, m,
                                           TRN_R_64F, S, TRN_R_64F, U, m, TRN_R_64F, V, n, TRN_R_64F, &device_bytes,
                                           &host_bytes));
  device_work = malloc(device_bytes > 0 ? device_bytes : 1);
  host_work = malloc(host_bytes > 0 ? host_bytes : 1);
  if (device_work == NULL || host_work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnXgesvdp(handle, params, TRNSOLVER_EIG_MODE_VECTOR, 1, m, n, TRN_R_64F, a_copy, m, TRN_R_64F, S,
                                TRN_R_64F, U, m, TRN_R_64F, V, n, TRN_R_64F, device_work, device_bytes, host_work,
                                host_bytes, info, err_sigma));
  WALK_CHECK(*info != 0 ? 100 + *info : 0);
  WALK_CHECK(svd_residual(m, n, A, U, S, V, 0, r_err));
done:
  free(host_work);
  free(device_work);
  free(a_copy);
  if (params != NULL && trnsolverDnDestroyParams(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* The leading `rank` singular values S of the m x n A by the randomized SVD (oversampling p, iters
 * power iterations; U, V computed into scratch). Returns as trnsolver_walkthrough_gesvd. */
int trnsolver_walkthrough_xgesvdr(int64_t m, int64_t n, int64_t rank, int64_t p, int64_t iters, const double* A,
                                  double* S, int* info) {
  trnsolverDnHandle_t handle = NULL;
  trnsolverDnParams_t params = NULL;
  double *a_copy = (double*)malloc(sizeof(double) * (size_t)(m * n)), *u = NULL, *v = NULL;
  size_t device_bytes = 0, host_bytes = 0;
  void *device_work = NULL, *host_work = NULL;
  int failed = 0;
  u = (double*)malloc(sizeof(double) * (size_t)(m * m)); /* room for any jobu: ldu = m, m columns */
  v = (double*)malloc(sizeof(double) * (size_t)(n * n));
  if (a_copy == NULL || u == NULL || v == NULL) WALK_CHECK(-1);
  memcpy(a_copy, A, sizeof(double) * (size_t)(m * n));
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(trnsolverDnCreateParams(&params));
  WALK_CHECK(trnsolverDnXgesvdr_bufferSize(handle, params, 'S', 'S', m, n, rank, p, iters, TRN_R_64F, a_copy, m,
                                           TRN_R_64F, S, TRN_R_64F, u, m, TRN_R_64F, v, n, TRN_R_64F, &device_bytes,
                                           &host_bytes));
  device_work = malloc(device_bytes > 0 ? device_bytes : 1);
  host_work = malloc(host_bytes > 0 ? host_bytes : 1);
  if (device_work == NULL || host_work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnXgesvdr(handle, params, 'S', 'S', m, n, rank, p, iters, TRN_R_64F, a_copy, m, TRN_R_64F, S,
                                TRN_R_64F, u, m, TRN_R_64F, v, n, TRN_R_64F, device_work, device_bytes, host_work,
                                host_bytes, info));
done:
  free(host_work);
  free(device_work);
  free(v);
  free(u);
  free(a_copy);
  if (params != NULL && trnsolverDnDestroyParams(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}
