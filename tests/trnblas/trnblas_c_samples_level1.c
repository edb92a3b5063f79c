/* NVIDIA's cuBLAS Level-1 samples (CUDALibrarySamples/cuBLAS/Level-1: amax, amin, asum, axpy, copy,
 * dot, dotc, nrm2, rot, rotg, rotm, rotmg, scal, swap) ported to trnblas by prefix substitution and
 * host memory, as C99 (trnblas_c_samples.h). Every sample works on A = [1 2 3 4], B = [5 6 7 8]
 * (dotc: the complex vectors A = [1.1+1.2i ...], B = [5.1+5.2i ...]) with unit increments. */
#include <string.h>

#include "trnblas_c_samples.h"

static const double sample_A[4] = {1.0, 2.0, 3.0, 4.0};
static const double sample_B[4] = {5.0, 6.0, 7.0, 8.0};

int trnblas_sample_amax(int* result) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  status = trnblasIdamax(handle, 4, sample_A, 1, result);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_amin(int* result) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  status = trnblasIdamin(handle, 4, sample_A, 1, result);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_asum(double* result) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  status = trnblasDasum(handle, 4, sample_A, 1, result);
  return trnblas_sample_close(handle, status);
}

/* B = 2.1 A + B */
int trnblas_sample_axpy(double B[4]) {
  const double alpha = 2.1;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(B, sample_B, sizeof sample_B);
  status = trnblasDaxpy(handle, 4, &alpha, sample_A, 1, B, 1);
  return trnblas_sample_close(handle, status);
}

/* B (zeros) = A */
int trnblas_sample_copy(double B[4]) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(B, 0, 4 * sizeof *B);
  status = trnblasDcopy(handle, 4, sample_A, 1, B, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_dot(double* result) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  status = trnblasDdot(handle, 4, sample_A, 1, sample_B, 1, result);
  return trnblas_sample_close(handle, status);
}

/* result = conj(A) . B */
int trnblas_sample_dotc(trnDoubleComplex* result) {
  const trnDoubleComplex A[4] = {{1.1, 1.2}, {2.3, 2.4}, {3.5, 3.6}, {4.7, 4.8}};
  const trnDoubleComplex B[4] = {{5.1, 5.2}, {6.3, 6.4}, {7.5, 7.6}, {8.7, 8.8}};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  status = trnblasZdotc(handle, 4, A, 1, B, 1, result);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_nrm2(double* result) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  status = trnblasDnrm2(handle, 4, sample_A, 1, result);
  return trnblas_sample_close(handle, status);
}

/* [A; B] = [c s; -s c] [A; B] with c = 2.1, s = 1.2 (not a rotation: the sample's values) */
int trnblas_sample_rot(double A[4], double B[4]) {
  const double c = 2.1, s = 1.2;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(A, sample_A, sizeof sample_A);
  memcpy(B, sample_B, sizeof sample_B);
  status = trnblasDrot(handle, 4, A, 1, B, 1, &c, &s);
  return trnblas_sample_close(handle, status);
}

/* the Givens rotation zeroing (2.1, 1.2): A becomes r, B the reconstruction value z */
int trnblas_sample_rotg(double* A, double* B, double* c, double* s) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  *A = 2.1;
  *B = 1.2;
  *c = 2.1;
  *s = 1.2;
  status = trnblasDrotg(handle, A, B, c, s);
  return trnblas_sample_close(handle, status);
}

/* modified rotation with flag param[0] = 1: H = [h11 1; -1 h22], h11 = 5, h22 = 8 */
int trnblas_sample_rotm(double A[4], double B[4]) {
  const double param[5] = {1.0, 5.0, 6.0, 7.0, 8.0};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(A, sample_A, sizeof sample_A);
  memcpy(B, sample_B, sizeof sample_B);
  status = trnblasDrotm(handle, 4, A, 1, B, 1, param);
  return trnblas_sample_close(handle, status);
}

/* construct the modified rotation for d1 = A = 1, d2 = B = 5, x1 = X = 2.1, y1 = 1.2 */
int trnblas_sample_rotmg(double* A, double* B, double* X, double param[5]) {
  const double Y = 1.2;
  const double param_in[5] = {1.0, 5.0, 6.0, 7.0, 8.0};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  *A = 1.0;
  *B = 5.0;
  *X = 2.1;
  memcpy(param, param_in, sizeof param_in);
  status = trnblasDrotmg(handle, A, B, X, &Y, param);
  return trnblas_sample_close(handle, status);
}

/* A = 2.2 A */
int trnblas_sample_scal(double A[4]) {
  const double alpha = 2.2;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(A, sample_A, sizeof sample_A);
  status = trnblasDscal(handle, 4, &alpha, A, 1);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_swap(double A[4], double B[4]) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memcpy(A, sample_A, sizeof sample_A);
  memcpy(B, sample_B, sizeof sample_B);
  status = trnblasDswap(handle, 4, A, 1, B, 1);
  return trnblas_sample_close(handle, status);
}
