/* trnsolverDnIRSXgesv and Xgetrf + Xgetrs from plain C99: the project's own walkthrough of the IRS
 * expert API's call sequence (IRS params and infos objects, solver precisions R_64F / R_16BF, refinement
 * CLASSICAL_GMRES, tolerance, iteration limits, fallback, residual history requested, the workspace
 * query, the solve, the infos queries, destroy) and of the 64-bit getrf/getrs sequence (params object,
 * SetAdvOptions, the workspace query, Xgetrf, Xgetrs) as a C program written against cuSOLVER would make
 * it. The system and its expected result belong to test_trnsolver_irs.cpp (TrnsolverIrsSample.*), which
 * passes A and b in and checks x against an integer solution and LAPACKE_dgesv.
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of IRSXgesv and Xgetrf/Xgetrs.
 * Accuracy: that of IRSXgesv and Xgetrf (docs/trnsolver.md "Iterative refinement").
 * Limits: n <= 8, one right-hand side, lda = ldb = n; A and b left unchanged. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trnsolverDn.h"
#include "trnsolver_c_walkthrough.h"

int trnsolver_walkthrough_irs(int n, const double* A_in, const double* b_in, double* x_irs, double* x_lu, int* niters,
                              int* outer, double* history);

/* The first two rows (iteration, residual) of the IRS residual history: a column-major table whose
 * leading dimension is the maximum iteration count + 1 (docs/trnsolver.md "Iterative refinement"). */
static void copy_history_rows(const double* table, int max_iters, double* history) {
  int row;
  for (row = 0; row < 2; ++row) {
    history[2 * row] = table[row];
    history[2 * row + 1] = table[row + max_iters + 1];
  }
}

/* x_irs = A \ b by IRSXgesv (A and b copied: the solver may keep its factors in place). Returns as below. */
static int irs_solve(trnsolverDnHandle_t handle, int n, const double* A_in, const double* b_in, double* x_irs,
                     int* niters, int* outer, double* history) {
  trnsolverDnIRSParams_t params = NULL;
  trnsolverDnIRSInfos_t infos = NULL;
  double a[64], b[8];
  void* work = NULL;
  void* table = NULL;
  size_t work_bytes = 0;
  int info = 0, max_iters = 0, failed = 0;
  memcpy(a, A_in, sizeof(double) * (size_t)(n * n));
  memcpy(b, b_in, sizeof(double) * (size_t)n);
  WALK_CHECK(trnsolverDnIRSParamsCreate(&params));
  WALK_CHECK(trnsolverDnIRSInfosCreate(&infos));
  WALK_CHECK(trnsolverDnIRSParamsSetSolverPrecisions(params, TRNSOLVER_R_64F, TRNSOLVER_R_16BF));
  WALK_CHECK(trnsolverDnIRSParamsSetRefinementSolver(params, TRNSOLVER_IRS_REFINE_CLASSICAL_GMRES));
  WALK_CHECK(trnsolverDnIRSParamsSetTol(params, 1e-14));
  WALK_CHECK(trnsolverDnIRSParamsSetMaxIters(params, 20));
  WALK_CHECK(trnsolverDnIRSParamsSetMaxItersInner(params, 10));
  WALK_CHECK(trnsolverDnIRSParamsEnableFallback(params));
  WALK_CHECK(trnsolverDnIRSInfosRequestResidual(infos));
  WALK_CHECK(trnsolverDnIRSXgesv_bufferSize(handle, params, n, 1, &work_bytes));
  work = malloc(work_bytes > 0 ? work_bytes : 1);
  if (work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnIRSXgesv(handle, params, infos, n, 1, a, n, b, n, x_irs, n, work, work_bytes, niters, &info));
  WALK_CHECK(info != 0 ? 100 + info : 0);
  WALK_CHECK(trnsolverDnIRSInfosGetOuterNiters(infos, outer));
  WALK_CHECK(trnsolverDnIRSInfosGetMaxIters(infos, &max_iters));
  WALK_CHECK(trnsolverDnIRSInfosGetResidualHistory(infos, &table) != TRNSOLVER_STATUS_SUCCESS ? 200 : 0);
  copy_history_rows((const double*)table, max_iters, history);
done:
  free(work);
  if (infos != NULL && trnsolverDnIRSInfosDestroy(infos) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  if (params != NULL && trnsolverDnIRSParamsDestroy(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* x_lu = A \ b by the 64-bit Xgetrf (params object, SetAdvOptions ALG_0, workspace query) + Xgetrs. */
static int lu_solve(trnsolverDnHandle_t handle, int n, const double* A_in, const double* b_in, double* x_lu) {
  trnsolverDnParams_t params = NULL;
  double lu[64];
  int64_t pivots[8];
  void* device_work = NULL;
  size_t device_bytes = 0, host_bytes = 0;
  int info = 0, failed = 0;
  memcpy(lu, A_in, sizeof(double) * (size_t)(n * n));
  memcpy(x_lu, b_in, sizeof(double) * (size_t)n);
  WALK_CHECK(trnsolverDnCreateParams(&params));
  WALK_CHECK(trnsolverDnSetAdvOptions(params, TRNSOLVERDN_GETRF, TRNSOLVER_ALG_0));
  WALK_CHECK(trnsolverDnXgetrf_bufferSize(handle, params, n, n, TRN_R_64F, lu, n, TRN_R_64F, &device_bytes,
                                          &host_bytes));
  device_work = malloc(device_bytes > 0 ? device_bytes : 1);
  if (device_work == NULL) WALK_CHECK(-1);
  WALK_CHECK(trnsolverDnXgetrf(handle, params, n, n, TRN_R_64F, lu, n, pivots, TRN_R_64F, device_work, device_bytes,
                               NULL, host_bytes, &info));
  WALK_CHECK(info != 0 ? 300 + info : 0);
  WALK_CHECK(trnsolverDnXgetrs(handle, params, TRNBLAS_OP_N, n, 1, TRN_R_64F, lu, n, pivots, TRN_R_64F, x_lu, n,
                               &info));
  WALK_CHECK(info != 0 ? 400 + info : 0);
done:
  free(device_work);
  if (params != NULL && trnsolverDnDestroyParams(params) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}

/* x_irs = A \ b by IRSXgesv, x_lu by Xgetrf + Xgetrs; niters, the outer iteration count and the first two
 * rows (iteration, residual) of the residual history. Returns 0, the first status that was not SUCCESS,
 * 100 + info / 300 + info / 400 + info for a nonzero info of IRSXgesv / Xgetrf / Xgetrs, 200 when the
 * history is missing, or -1 for sizes beyond the Limits or a failed allocation. */
int trnsolver_walkthrough_irs(int n, const double* A_in, const double* b_in, double* x_irs, double* x_lu, int* niters,
                              int* outer, double* history) {
  trnsolverDnHandle_t handle = NULL;
  int failed = 0;
  if (n < 1 || n > 8) return -1;
  WALK_CHECK(trnsolverDnCreate(&handle));
  WALK_CHECK(irs_solve(handle, n, A_in, b_in, x_irs, niters, outer, history));
  WALK_CHECK(lu_solve(handle, n, A_in, b_in, x_lu));
done:
  if (handle != NULL && trnsolverDnDestroy(handle) != TRNSOLVER_STATUS_SUCCESS && failed == 0) failed = -2;
  return failed;
}
