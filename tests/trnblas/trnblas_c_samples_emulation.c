/* NVIDIA's cuBLAS Emulation samples (CUDALibrarySamples/cuBLAS/Emulation: bf16x9_gemmEx, bf16x9_sgemm,
 * dgemm_dynamic, dgemm_fixed, gemmEx_dynamic, gemmEx_fixed, zgemm_dynamic, zgemm_fixed) ported to
 * trnblas by prefix substitution and host memory, as C99 (trnblas_c_samples.h); cudaEmulation* and
 * CUDA_EMULATION_* become trnEmulation* / TRN_EMULATION_* (trnblas.h). The fixed-point samples size
 * a workspace with their helper getFixedPointWorkspaceSizeInBytes and pass it to cublasSetWorkspace;
 * trnblas keeps the emulation's working set in SBUF/PSUM and host memory, so the port binds none
 * (trnblasSetWorkspace(handle, NULL, 0)). The gemm_grading directory is a grading tool, not a
 * sample, and is not ported. */
#include <string.h>

#include "trnblas_c_samples.h"

/* 4 x 4, A = {1 .. 16} column-major, B = A^T: C = A A^T, integers below 2^11 */
static const float square_A[16] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f,
                                   9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f};
static const float square_B[16] = {1.0f, 5.0f, 9.0f, 13.0f, 2.0f, 6.0f, 10.0f, 14.0f,
                                   3.0f, 7.0f, 11.0f, 15.0f, 4.0f, 8.0f, 12.0f, 16.0f};
/* 2 x 2: A = [1 3; 2 4], B = [5 7; 6 8] (column-major {1 2 3 4}, {5 6 7 8}) */
static const double emulated_A[4] = {1.0, 2.0, 3.0, 4.0};
static const double emulated_B[4] = {5.0, 6.0, 7.0, 8.0};
static const trnDoubleComplex emulated_ZA[4] = {{1.0, 1.0}, {2.0, -2.0}, {3.0, -3.0}, {4.0, 4.0}};
static const trnDoubleComplex emulated_ZB[4] = {{5.0, 5.0}, {6.0, -6.0}, {7.0, -7.0}, {8.0, 8.0}};

/* GemmEx twice: COMPUTE_32F, then COMPUTE_32F_EMULATED_16BFX9 under the eager strategy */
int trnblas_sample_bf16x9_gemmEx(float Cnative[16], float Cemulated[16]) {
  const int m = 4, n = 4, k = 4, lda = 4, ldb = 4, ldc = 4;
  const float alpha = 1.0f, beta = 0.0f;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(Cnative, 0, 16 * sizeof *Cnative);
  memset(Cemulated, 0, 16 * sizeof *Cemulated);
  status = trnblasGemmEx(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, square_A, TRN_R_32F, lda, square_B,
                         TRN_R_32F, ldb, &beta, Cnative, TRN_R_32F, ldc, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT);
  if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasSetEmulationStrategy(handle, TRNBLAS_EMULATION_STRATEGY_EAGER);
  if (status == TRNBLAS_STATUS_SUCCESS)
    status = trnblasGemmEx(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, square_A, TRN_R_32F, lda, square_B,
                           TRN_R_32F, ldb, &beta, Cemulated, TRN_R_32F, ldc, TRNBLAS_COMPUTE_32F_EMULATED_16BFX9,
                           TRNBLAS_GEMM_DEFAULT);
  return trnblas_sample_close(handle, status);
}

/* Sgemm twice: the default math mode, then FP32_EMULATED_BF16X9_MATH under the eager strategy */
int trnblas_sample_bf16x9_sgemm(float Cnative[16], float Cemulated[16]) {
  const int m = 4, n = 4, k = 4, lda = 4, ldb = 4, ldc = 4;
  const float alpha = 1.0f, beta = 0.0f;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(Cnative, 0, 16 * sizeof *Cnative);
  memset(Cemulated, 0, 16 * sizeof *Cemulated);
  status = trnblasSgemm(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, square_A, lda, square_B, ldb, &beta,
                        Cnative, ldc);
  if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasSetMathMode(handle, TRNBLAS_FP32_EMULATED_BF16X9_MATH);
  if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasSetEmulationStrategy(handle, TRNBLAS_EMULATION_STRATEGY_EAGER);
  if (status == TRNBLAS_STATUS_SUCCESS)
    status = trnblasSgemm(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, square_A, lda, square_B, ldb, &beta,
                          Cemulated, ldc);
  return trnblas_sample_close(handle, status);
}

/* The fixed-point samples' handle setup, in their order: workspace, math mode (all but gemmEx_dynamic,
 * which asks for emulation through its compute type), eager strategy, mantissa control, the maximum
 * (or, FIXED, exact) mantissa bit count, and for DYNAMIC an offset of -8 bits to the automatic choice. */
static trnblasStatus_t fixed_point_setup(trnblasHandle_t handle, int set_math_mode,
                                         trnEmulationMantissaControl_t control, int mantissa_bits) {
  trnblasStatus_t status = trnblasSetWorkspace(handle, NULL, 0);
  if (status == TRNBLAS_STATUS_SUCCESS && set_math_mode)
    status = trnblasSetMathMode(handle, TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH);
  if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasSetEmulationStrategy(handle, TRNBLAS_EMULATION_STRATEGY_EAGER);
  if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasSetFixedPointEmulationMantissaControl(handle, control);
  if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasSetFixedPointEmulationMaxMantissaBitCount(handle, mantissa_bits);
  if (status == TRNBLAS_STATUS_SUCCESS && control == TRN_EMULATION_MANTISSA_CONTROL_DYNAMIC)
    status = trnblasSetFixedPointEmulationMantissaBitOffset(handle, -8);
  return status;
}

/* Dgemm (use_gemm_ex 0) or GemmEx with COMPUTE_64F_EMULATED_FIXEDPOINT on the 2 x 2 data */
static int emulated_dgemm(int use_gemm_ex, int set_math_mode, trnEmulationMantissaControl_t control, int bits,
                          double C[4]) {
  const int m = 2, n = 2, k = 2, lda = 2, ldb = 2, ldc = 2;
  const double alpha = 1.0, beta = 0.0;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = fixed_point_setup(handle, set_math_mode, control, bits);
  if (status == TRNBLAS_STATUS_SUCCESS) {
    if (use_gemm_ex)
      status = trnblasGemmEx(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, emulated_A, TRN_R_64F, lda,
                             emulated_B, TRN_R_64F, ldb, &beta, C, TRN_R_64F, ldc,
                             TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT, TRNBLAS_GEMM_DEFAULT);
    else
      status = trnblasDgemm(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, emulated_A, lda, emulated_B, ldb, &beta,
                            C, ldc);
  }
  return trnblas_sample_close(handle, status);
}

/* up to 79 mantissa bits (10 int8 slices in cuBLAS's Ozaki-I terms), dynamic, offset -8 */
int trnblas_sample_dgemm_dynamic(double C[4]) {
  return emulated_dgemm(0, 1, TRN_EMULATION_MANTISSA_CONTROL_DYNAMIC, 79, C);
}
/* exactly 55 mantissa bits */
int trnblas_sample_dgemm_fixed(double C[4]) { return emulated_dgemm(0, 1, TRN_EMULATION_MANTISSA_CONTROL_FIXED, 55, C); }
int trnblas_sample_gemmEx_dynamic(double C[4]) {
  return emulated_dgemm(1, 0, TRN_EMULATION_MANTISSA_CONTROL_DYNAMIC, 79, C);
}
int trnblas_sample_gemmEx_fixed(double C[4]) { return emulated_dgemm(1, 1, TRN_EMULATION_MANTISSA_CONTROL_FIXED, 55, C); }

/* Zgemm, alpha = 1 - i, on A = [1+i 3-3i; 2-2i 4+4i], B = [5+5i 7-7i; 6-6i 8+8i] */
static int emulated_zgemm(trnEmulationMantissaControl_t control, int bits, trnDoubleComplex C[4]) {
  const int m = 2, n = 2, k = 2, lda = 2, ldb = 2, ldc = 2;
  const trnDoubleComplex alpha = {1.0, -1.0}, beta = {0.0, 0.0};
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_sample_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  memset(C, 0, 4 * sizeof *C);
  status = fixed_point_setup(handle, 1, control, bits);
  if (status == TRNBLAS_STATUS_SUCCESS)
    status = trnblasZgemm(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, emulated_ZA, lda, emulated_ZB, ldb, &beta,
                          C, ldc);
  return trnblas_sample_close(handle, status);
}

int trnblas_sample_zgemm_dynamic(trnDoubleComplex C[4]) {
  return emulated_zgemm(TRN_EMULATION_MANTISSA_CONTROL_DYNAMIC, 79, C);
}
int trnblas_sample_zgemm_fixed(trnDoubleComplex C[4]) { return emulated_zgemm(TRN_EMULATION_MANTISSA_CONTROL_FIXED, 55, C); }
