/* The cuSOLVER IRS expert-API and 64-bit getrf/getrs calling sequences, ported by prefix substitution
 * to host memory, in C99 (the test target compiles this file as C with -pedantic): a 3 x 3 system
 * solved by IRSXgesv (main R_64F, lowest R_16BF, CLASSICAL_GMRES, residual history requested) and by
 * Xgetrf + Xgetrs (TRN_R_64F). Returns 0 and x (3) from each path, niters, outer iterations and the
 * first two residual-history rows; the C++ test checks them against LAPACKE_dgesv. */
#include <stdint.h>
#include <stdlib.h>

#include "trnsolverDn.h"

int trnsolver_sample_irs(double* x_irs, double* x_lu, int* niters, int* outer, double* history);
int trnsolver_sample_irs(double* x_irs, double* x_lu, int* niters, int* outer, double* history) {
  const int n = 3, nrhs = 1, lda = 3;
  double A[9] = {4.0, 1.0, 2.0, 1.0, 5.0, 3.0, 2.0, 3.0, 6.0}; /* column-major */
  double B[3] = {1.0, 2.0, 3.0};
  trnsolverDnHandle_t handle = NULL;
  trnsolverDnIRSParams_t params = NULL;
  trnsolverDnIRSInfos_t infos = NULL;
  trnsolverDnParams_t xparams = NULL;
  void* work = NULL;
  void* hist = NULL;
  size_t lwork_bytes = 0, dev_bytes = 0, host_bytes = 0;
  int info = 0, maxiters = 0, status, i;
  int64_t ipiv[3];
  double LU[9];
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
  status = trnsolverDnIRSXgesv(handle, params, infos, n, nrhs, A, lda, B, n, x_irs, n, work, lwork_bytes, niters, &info);
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

  for (i = 0; i < 9; ++i) LU[i] = A[i];
  for (i = 0; i < 3; ++i) x_lu[i] = B[i];
  if ((status = trnsolverDnCreateParams(&xparams)) != TRNSOLVER_STATUS_SUCCESS) return status;
  trnsolverDnSetAdvOptions(xparams, TRNSOLVERDN_GETRF, TRNSOLVER_ALG_0);
  status = trnsolverDnXgetrf_bufferSize(handle, xparams, n, n, TRN_R_64F, LU, lda, TRN_R_64F, &dev_bytes, &host_bytes);
  if (status != TRNSOLVER_STATUS_SUCCESS) return status;
  work = malloc(dev_bytes);
  status = trnsolverDnXgetrf(handle, xparams, n, n, TRN_R_64F, LU, lda, ipiv, TRN_R_64F, work, dev_bytes, NULL,
                             host_bytes, &info);
  free(work);
  if (status != TRNSOLVER_STATUS_SUCCESS || info != 0) return status != 0 ? status : 300 + info;
  status = trnsolverDnXgetrs(handle, xparams, TRNBLAS_OP_N, n, nrhs, TRN_R_64F, LU, lda, ipiv, TRN_R_64F, x_lu, n, &info);
  if (status != TRNSOLVER_STATUS_SUCCESS || info != 0) return status != 0 ? status : 400 + info;
  trnsolverDnDestroyParams(xparams);
  trnsolverDnDestroy(handle);
  return 0;
}
