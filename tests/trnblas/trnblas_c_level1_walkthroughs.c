/* trnblas Level-1 from plain C99: the project's own walkthroughs of the cuBLAS-shaped Level-1 call
 * sequences (Create, SetStream, the call, Destroy) for amax/amin, asum, dot, nrm2, axpy, copy, scal,
 * swap, Zdotc, rot, rotg, rotm and rotmg, on the caller's data. The data and the expected results belong
 * to test_trnblas_c_samples.cpp (TrnblasCSamples.Level1*), which checks them against OpenBLAS's CBLAS
 * (the test oracle) and exact values.
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of the Level-1 routines.
 * Accuracy: that of the routines (docs/trnblas.md). Limits: unit increments, host pointer mode. */
#include "trnblas_c_walkthrough.h"

int trnblas_walkthrough_iamax_iamin(int n, const double* x, int* imax, int* imin) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_walk_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  status = trnblasIdamax(handle, n, x, 1, imax);
  if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasIdamin(handle, n, x, 1, imin);
  return trnblas_walk_close(handle, status);
}

/* sums = (asum(x), dot(x, y), nrm2(x)) */
int trnblas_walkthrough_asum_dot_nrm2(int n, const double* x, const double* y, double sums[3]) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_walk_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  status = trnblasDasum(handle, n, x, 1, &sums[0]);
  if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasDdot(handle, n, x, 1, y, 1, &sums[1]);
  if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasDnrm2(handle, n, x, 1, &sums[2]);
  return trnblas_walk_close(handle, status);
}

/* y = alpha x + y */
int trnblas_walkthrough_axpy(int n, double alpha, const double* x, double* y) {
  WALK_CALL(trnblasDaxpy(handle, n, &alpha, x, 1, y, 1));
}

/* y = x */
int trnblas_walkthrough_copy(int n, const double* x, double* y) {
  WALK_CALL(trnblasDcopy(handle, n, x, 1, y, 1));
}

/* x = alpha x */
int trnblas_walkthrough_scal(int n, double alpha, double* x) {
  WALK_CALL(trnblasDscal(handle, n, &alpha, x, 1));
}

/* x <-> y */
int trnblas_walkthrough_swap(int n, double* x, double* y) {
  WALK_CALL(trnblasDswap(handle, n, x, 1, y, 1));
}

/* result = conj(x) . y */
int trnblas_walkthrough_zdotc(int n, const trnDoubleComplex* x, const trnDoubleComplex* y, trnDoubleComplex* result) {
  WALK_CALL(trnblasZdotc(handle, n, x, 1, y, 1, result));
}

/* [x; y] = [c s; -s c] [x; y] */
int trnblas_walkthrough_rot(int n, double* x, double* y, double c, double s) {
  WALK_CALL(trnblasDrot(handle, n, x, 1, y, 1, &c, &s));
}

/* The Givens rotation zeroing (a, b): a becomes r, b the reconstruction value z. */
int trnblas_walkthrough_rotg(double* a, double* b, double* c, double* s) {
  WALK_CALL(trnblasDrotg(handle, a, b, c, s));
}

/* [x_i; y_i] = H [x_i; y_i], H from param (param[0] the flag, netlib's encoding). */
int trnblas_walkthrough_rotm(int n, double* x, double* y, const double param[5]) {
  WALK_CALL(trnblasDrotm(handle, n, x, 1, y, 1, param));
}

/* The modified rotation zeroing y1 against x1 with weights d1, d2 (all three updated), H into param. */
int trnblas_walkthrough_rotmg(double* d1, double* d2, double* x1, double y1, double param[5]) {
  WALK_CALL(trnblasDrotmg(handle, d1, d2, x1, &y1, param));
}
