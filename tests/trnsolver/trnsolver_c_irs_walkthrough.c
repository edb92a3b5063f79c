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

#include "trnsolverDn.h"

int trnsolver_walkthrough_irs(int n, const double* A_in, const double* b_in, double* x_irs, double* x_lu, int* niters,
                              int* outer, double* history);

/* x_irs = A \ b by IRSXgesv, x_lu by Xgetrf + Xgetrs; niters, the outer iteration count and the first two
 * rows (iteration, residual) of the residual history. Returns 0, the first status that was not SUCCESS,
 * 100 + info / 300 + info / 400 + info for a nonzero info of IRSXgesv / Xgetrf / Xgetrs, 200 when the
 * history is missing, or -1 for sizes beyond the Limits. */
int trnsolver_walkthrough_irs(int n, const double* A_in, const double* b_in, double* x_irs, double* x_lu, int* niters,
                              int* outer, double* history) {
  const int nrhs = 1, lda = n;
  double A[64], B[8];
  trnsolverDnHandle_t handle = NULL;
  trnsolverDnIRSParams_t params = NULL;
  trnsolverDnIRSInfos_t infos = NULL;
  trnsolverDnParams_t xparams = NULL;
  void* work = NULL;
  void* hist = NULL;
  size_t lwork_bytes = 0, dev_bytes = 0, host_bytes = 0;
  int info = 0, maxiters = 0, status, i;
  int64_t ipiv[8];
  double LU[64];
  if (n < 1 || n > 8) return -1;
  for (i = 0; i < n * n; ++i) A[i] = A_in[i];
  for (i = 0; i < n; ++i) B[i] = b_in[i];
  if ((status = trnsolverDnCreate(&handle)) != TRNSOLVER_STATUS_SUCCESS) return status;
  if ((status = trnsolverDnIRSParamsCreate(&params)) != TRNSOLVER_STATUS_SUCCESS) return status;
  if ((status = trnsolverDnIRSInfosCreate(&infos)) != TRNSOLVER_STATUS_SUCCESS) return status;
  trnsolverDnIRSParamsSetSolverPrecisions(params, TRNSOLVER_R_64F, TRNSOLVER_R_16BF);
  trnsolverDnIRSParamsSetRefinementSolver(params, TRNSOLVER_IRS_REFINE_CLASSICAL_GMRES);
  trnsolverDnIRSParamsSetTol(params, 1e-14);
  trnsolverDnIRSParamsSetMaxIters(params, 20);
  trnsolverDnIRSParamsSetMaxItersInner(params, 10);
  trnsolverDnIRSParamsEnableFallback(params);
  trnsolverDnIRSInfosRequestResidual(infos);
  if ((status = trnsolverDnIRSXgesv_bufferSize(handle, params, n, nrhs, &lwork_bytes)) != TRNSOLVER_STATUS_SUCCESS)
    return status;
  work = malloc(lwork_bytes);
  status = trnsolverDnIRSXgesv(handle, params, infos, n, nrhs, A, lda, B, n, x_irs, n, work, lwork_bytes, niters,
                               &info);
  free(work);
  if (status != TRNSOLVER_STATUS_SUCCESS || info != 0) return status != 0 ? status : 100 + info;
  trnsolverDnIRSInfosGetOuterNiters(infos, outer);
  trnsolverDnIRSInfosGetMaxIters(infos, &maxiters);
  if (trnsolverDnIRSInfosGetResidualHistory(infos, &hist) != TRNSOLVER_STATUS_SUCCESS) return 200;
  for (i = 0; i < 2; ++i) { /* (iteration, residual) rows 0 and 1; leading dimension maxiters + 1 */
    history[2 * i] = ((const double*)hist)[i];
    history[2 * i + 1] = ((const double*)hist)[i + maxiters + 1];
  }
  trnsolverDnIRSInfosDestroy(infos);
  trnsolverDnIRSParamsDestroy(params);

  for (i = 0; i < n * n; ++i) LU[i] = A[i];
  for (i = 0; i < n; ++i) x_lu[i] = B[i];
  if ((status = trnsolverDnCreateParams(&xparams)) != TRNSOLVER_STATUS_SUCCESS) return status;
  trnsolverDnSetAdvOptions(xparams, TRNSOLVERDN_GETRF, TRNSOLVER_ALG_0);
  status = trnsolverDnXgetrf_bufferSize(handle, xparams, n, n, TRN_R_64F, LU, lda, TRN_R_64F, &dev_bytes, &host_bytes);
  if (status != TRNSOLVER_STATUS_SUCCESS) return status;
  work = malloc(dev_bytes);
  status = trnsolverDnXgetrf(handle, xparams, n, n, TRN_R_64F, LU, lda, ipiv, TRN_R_64F, work, dev_bytes, NULL,
                             host_bytes, &info);
  free(work);
  if (status != TRNSOLVER_STATUS_SUCCESS || info != 0) return status != 0 ? status : 300 + info;
  status = trnsolverDnXgetrs(handle, xparams, TRNBLAS_OP_N, n, nrhs, TRN_R_64F, LU, lda, ipiv, TRN_R_64F, x_lu, n,
                             &info);
  if (status != TRNSOLVER_STATUS_SUCCESS || info != 0) return status != 0 ? status : 400 + info;
  trnsolverDnDestroyParams(xparams);
  trnsolverDnDestroy(handle);
  return 0;
}
