/* trnsolver's QR family from plain C99: the project's own walkthroughs of three call sequences as a C
 * program written against cuSOLVER/cuBLAS would make them (host memory; trnsci runs synchronously, so the
 * streams are the default NULL one):
 *   orgqr:  handles, streams, Dgeqrf_bufferSize + Dorgqr_bufferSize (one workspace of the larger), Dgeqrf,
 *           Dorgqr, then |I - Q^T Q| by trnblasDgemm + trnblasDnrm2;
 *   ormqr:  Dgeqrf, Dormqr (left, transposed: Q^T b), trnblasDtrsm (R x = Q^T b): a square solve;
 *   Xgeqrf: params object, the 64-bit workspace query (device and host bytes), Xgeqrf (TRN_R_64F).
 * The matrices and expected results belong to test_trnsolver_qr.cpp (TrnsolverQrSamples.*), which checks
 * them against LAPACKE dgeqrf/dorgqr and known integer solutions.
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of geqrf/orgqr/ormqr and trnblas.
 * Accuracy: that of Dgeqrf/Dorgqr/Dormqr (docs/trnsolver.md "QR").
 * Limits: column-major, lda = ldb = m; A left unchanged; n <= m. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trnblas.h"
#include "trnsolverDn.h"
#include "trnsolver_c_walkthrough.h"

int trnsolver_walkthrough_orgqr(int m, int n, const double* A, double* Q, double* orth);
int trnsolver_walkthrough_ormqr(int n, const double* A, const double* b, double* x);
int trnsolver_walkthrough_xgeqrf(int64_t m, int64_t n, const double* A, double* A_out, double* tau);

/* Returns a malloc'ed copy of the count doubles at src, or NULL. */
static double* copy_of(const double* src, size_t count) {
  double* dst = (double*)malloc(sizeof(double) * (count > 0 ? count : 1));
  if (dst != NULL) memcpy(dst, src, sizeof(double) * count);
  return dst;
}

/* Q (m x n, ldq = m): the explicit thin Q of A = Q R; orth = ||I - Q^T Q||_F computed with trnblas.
 * Returns 0, the first status that was not SUCCESS, 100 + info for a nonzero info, or -1 (allocation). */
int trnsolver_walkthrough_orgqr(int m, int n, const double* A, double* Q, double* orth) {
  const double one = 1, minus_one = -1;
  trnsolverDnHandle_t solver = NULL;
  trnblasHandle_t blas = NULL;
  double *tau = NULL, *work = NULL, *gram = NULL;
  int lwork_geqrf = 0, lwork_orgqr = 0, lwork, info = 0, i, failed = 0;
  memcpy(Q, A, sizeof(double) * (size_t)(m * n)); /* factored in place: Q is the working array */
  tau = (double*)malloc(sizeof(double) * (size_t)n);
  gram = (double*)calloc((size_t)(n * n), sizeof(double));
  if (tau == NULL || gram == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnCreate(&solver));
  WALK_CHECK(trnblasCreate(&blas));
  WALK_CHECK(trnsolverDnSetStream(solver, NULL));
  WALK_CHECK(trnblasSetStream(blas, NULL));
  WALK_CHECK(trnsolverDnDgeqrf_bufferSize(solver, m, n, Q, m, &lwork_geqrf));
  WALK_CHECK(trnsolverDnDorgqr_bufferSize(solver, m, n, n, Q, m, tau, &lwork_orgqr));
  lwork = lwork_geqrf > lwork_orgqr ? lwork_geqrf : lwork_orgqr;
  work = (double*)malloc(sizeof(double) * (size_t)(lwork > 0 ? lwork : 1));
  if (work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnDgeqrf(solver, m, n, Q, m, tau, work, lwork, &info));
  WALK_CHECK(info != 0 ? 100 + info : 0);
  WALK_CHECK(trnsolverDnDorgqr(solver, m, n, n, Q, m, tau, work, lwork, &info));
  WALK_CHECK(info != 0 ? 100 + info : 0);
  for (i = 0; i < n; i++) gram[i + i * n] = 1.0;
  WALK_CHECK(trnblasDgemm(blas, TRNBLAS_OP_T, TRNBLAS_OP_N, n, n, m, &minus_one, Q, m, Q, m, &one, gram, n));
  WALK_CHECK(trnblasDnrm2(blas, n * n, gram, 1, orth));
done:
  free(work);
  free(gram);
  free(tau);
  if (blas != NULL && trnblasDestroy(blas) != TRNBLAS_STATUS_SUCCESS && failed == 0) failed = -2;
  if (solver != NULL && trnsolverDnDestroy(solver) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* x = A \ b for the n x n nonsingular A through A = Q R: Q^T b by Dormqr, then R x = Q^T b by Dtrsm.
 * Returns as trnsolver_walkthrough_orgqr. */
int trnsolver_walkthrough_ormqr(int n, const double* A, const double* b, double* x) {
  const double one = 1;
  trnsolverDnHandle_t solver = NULL;
  trnblasHandle_t blas = NULL;
  double *qr = copy_of(A, (size_t)(n * n)), *tau = NULL, *work = NULL;
  int lwork_geqrf = 0, lwork_ormqr = 0, lwork, info = 0, failed = 0;
  tau = (double*)malloc(sizeof(double) * (size_t)n);
  if (qr == NULL || tau == NULL) WALK_CHECK(-1);
  memcpy(x, b, sizeof(double) * (size_t)n);
  WALK_CHECK(trnsolverDnCreate(&solver));
  WALK_CHECK(trnblasCreate(&blas));
  WALK_CHECK(trnsolverDnDgeqrf_bufferSize(solver, n, n, qr, n, &lwork_geqrf));
  WALK_CHECK(trnsolverDnDormqr_bufferSize(solver, TRNBLAS_SIDE_LEFT, TRNBLAS_OP_T, n, 1, n, qr, n, tau, x, n,
                                          &lwork_ormqr));
  lwork = lwork_geqrf > lwork_ormqr ? lwork_geqrf : lwork_ormqr;
  work = (double*)malloc(sizeof(double) * (size_t)(lwork > 0 ? lwork : 1));
  if (work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnDgeqrf(solver, n, n, qr, n, tau, work, lwork, &info));
  WALK_CHECK(info != 0 ? 100 + info : 0);
  WALK_CHECK(trnsolverDnDormqr(solver, TRNBLAS_SIDE_LEFT, TRNBLAS_OP_T, n, 1, n, qr, n, tau, x, n, work, lwork, &info));
  WALK_CHECK(info != 0 ? 100 + info : 0);
  WALK_CHECK(trnblasDtrsm(blas, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n, 1,
                          &one, qr, n, x, n));
done:
  free(work);
  free(tau);
  free(qr);
  if (blas != NULL && trnblasDestroy(blas) != TRNBLAS_STATUS_SUCCESS && failed == 0) failed = -2;
  if (solver != NULL && trnsolverDnDestroy(solver) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* A_out (m x n): Xgeqrf's factored A (R above the diagonal, the Householder vectors below), tau (n).
 * Returns as trnsolver_walkthrough_orgqr. */
int trnsolver_walkthrough_xgeqrf(int64_t m, int64_t n, const double* A, double* A_out, double* tau) {
  trnsolverDnHandle_t solver = NULL;
  trnsolverDnParams_t params = NULL;
  size_t device_bytes = 0, host_bytes = 0;
  void *device_work = NULL, *host_work = NULL;
  int info = 0, failed = 0;
  memcpy(A_out, A, sizeof(double) * (size_t)(m * n));
  WALK_CHECK(trnsolverDnCreate(&solver));
  WALK_CHECK(trnsolverDnSetStream(solver, NULL));
  WALK_CHECK(trnsolverDnCreateParams(&params));
  WALK_CHECK(trnsolverDnXgeqrf_bufferSize(solver, params, m, n, TRN_R_64F, A_out, m, TRN_R_64F, tau, TRN_R_64F,
                                          &device_bytes, &host_bytes));
  device_work = malloc(device_bytes > 0 ? device_bytes : 1);
  host_work = malloc(host_bytes > 0 ? host_bytes : 1);
  if (device_work == NULL || host_work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnXgeqrf(solver, params, m, n, TRN_R_64F, A_out, m, TRN_R_64F, tau, TRN_R_64F, device_work,
                               device_bytes, host_work, host_bytes, &info));
  WALK_CHECK(info != 0 ? 100 + info : 0);
done:
  free(host_work);
  free(device_work);
  if (params != NULL && trnsolverDnDestroyParams(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (solver != NULL && trnsolverDnDestroy(solver) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}
