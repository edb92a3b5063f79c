/* trnsolverDnDpotrfBatched + DpotrsBatched from plain C99: the project's own walkthrough of the batched
 * Cholesky call sequence (handle, stream, arrays of matrix pointers, potrfBatched with one info per
 * matrix, potrsBatched with its single info, destroy) as a C program written against cuSOLVER's
 * cusolverDn<t>potrfBatched would make it. The matrices and their expected results belong to
 * test_trnsolver_batched.cpp (TrnsolverPotrfBatched.SamplePrintsItsDocumentedResult), which checks the
 * factors and solutions against matrices built from known integer factors and solutions.
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of trnsolverDnDpotrfBatched/potrsBatched.
 * Accuracy: that of trnsolverDnDpotrf (docs/trnsolver.md "potrfBatched / potrsBatched").
 * Limits: batch <= 8, n <= 8; lda = ldb = n; one right-hand side per matrix; uplo LOWER. */
#include <string.h>

#include "trnsolverDn.h"

int trnsolver_walkthrough_potrf_batched(int n, int batch, const double* A, const double* B, double* L, double* X,
                                        int* infoArray, int* potrs_info);

/* A: batch column-major n x n matrices stored one after the other (left unchanged); B: batch vectors of n.
 * L receives the factored matrices (lower triangle meaningful where infoArray[k] is 0), X what
 * potrsBatched leaves in each right-hand side (a solution only for matrices whose infoArray[k] is 0:
 * potrsBatched, as cuSOLVER's, reports parameter errors only and solves with whatever the array holds).
 * Returns 0, the first status that was not SUCCESS, or -1 for sizes beyond the Limits. */
int trnsolver_walkthrough_potrf_batched(int n, int batch, const double* A, const double* B, double* L, double* X,
                                        int* infoArray, int* potrs_info) {
  trnsolverDnHandle_t handle = NULL;
  double work_a[8 * 64], work_b[8 * 8];
  double* a_array[8];
  double* b_array[8];
  int k, status;
  if (n < 1 || n > 8 || batch < 1 || batch > 8) return -1;
  memcpy(work_a, A, sizeof(double) * (size_t)(n * n * batch));
  memcpy(work_b, B, sizeof(double) * (size_t)(n * batch));
  for (k = 0; k < batch; ++k) {
    a_array[k] = work_a + k * n * n;
    b_array[k] = work_b + k * n;
  }
  if ((status = trnsolverDnCreate(&handle)) != TRNSOLVER_STATUS_SUCCESS) return status;
  status = trnsolverDnSetStream(handle, NULL); /* trnsci runs synchronously: the default stream */
  if (status == TRNSOLVER_STATUS_SUCCESS)
    status = trnsolverDnDpotrfBatched(handle, TRNBLAS_FILL_MODE_LOWER, n, a_array, n, infoArray, batch);
  if (status == TRNSOLVER_STATUS_SUCCESS) {
    memcpy(L, work_a, sizeof(double) * (size_t)(n * n * batch));
    status = trnsolverDnDpotrsBatched(handle, TRNBLAS_FILL_MODE_LOWER, n, 1, a_array, n, b_array, n, potrs_info,
                                      batch);
  }
  if (status == TRNSOLVER_STATUS_SUCCESS) memcpy(X, work_b, sizeof(double) * (size_t)(n * batch));
  if (trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && status == TRNSOLVER_STATUS_SUCCESS) status = -2;
  return status;
}
