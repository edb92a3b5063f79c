/* trnblas's emulated GEMMs from plain C99: the project's own walkthroughs of the cuBLAS-shaped emulation
 * call sequences on the caller's data:
 *   bf16x9: GemmEx with COMPUTE_32F, then SetEmulationStrategy(EAGER) and GemmEx with
 *           COMPUTE_32F_EMULATED_16BFX9; and Sgemm natively, then SetMathMode(FP32_EMULATED_BF16X9_MATH) +
 *           EAGER and Sgemm again;
 *   fixed point (fp64 by integer slices): SetWorkspace(NULL, 0) (trnblas keeps the emulation's working set
 *           in SBUF/PSUM and host memory and needs none), SetMathMode(FP64_EMULATED_FIXEDPOINT_MATH) (not for
 *           GemmEx with COMPUTE_64F_EMULATED_FIXEDPOINT, which asks through its compute type), EAGER, the
 *           mantissa control, the maximum (DYNAMIC) or exact (FIXED) mantissa bit count, for DYNAMIC a bit
 *           offset of -8; then Dgemm, GemmEx or Zgemm.
 * The data and expected results belong to test_trnblas_c_samples.cpp (TrnblasCSamples.Emulation*), which
 * checks them against CBLAS.
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of the emulated GEMMs.
 * Accuracy: that of the emulations (docs/trnblas.md). Limits: no transposition, leading dimension = rows. */
#include "trnblas_c_walkthrough.h"

#define NO TRNBLAS_OP_N

/* Cnative = A B (fp32, the native path), Cemulated = A B through bf16x9; use_sgemm 0: GemmEx, 1: Sgemm. */
int trnblas_walkthrough_bf16x9(int use_sgemm, int m, int n, int k, const float* A, const float* B, float* Cnative,
                               float* Cemulated) {
  const float alpha = 1.0f, beta = 0.0f;
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_walk_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  if (use_sgemm) {
    status = trnblasSgemm(handle, NO, NO, m, n, k, &alpha, A, m, B, k, &beta, Cnative, m);
    if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasSetMathMode(handle, TRNBLAS_FP32_EMULATED_BF16X9_MATH);
  } else {
    status = trnblasGemmEx(handle, NO, NO, m, n, k, &alpha, A, TRN_R_32F, m, B, TRN_R_32F, k, &beta, Cnative,
                           TRN_R_32F, m, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT);
  }
  if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasSetEmulationStrategy(handle, TRNBLAS_EMULATION_STRATEGY_EAGER);
  if (status == TRNBLAS_STATUS_SUCCESS) {
    if (use_sgemm)
      status = trnblasSgemm(handle, NO, NO, m, n, k, &alpha, A, m, B, k, &beta, Cemulated, m);
    else
      status = trnblasGemmEx(handle, NO, NO, m, n, k, &alpha, A, TRN_R_32F, m, B, TRN_R_32F, k, &beta, Cemulated,
                             TRN_R_32F, m, TRNBLAS_COMPUTE_32F_EMULATED_16BFX9, TRNBLAS_GEMM_DEFAULT);
  }
  return trnblas_walk_close(handle, status);
}

/* The fixed-point handle setup, in the order above. */
static trnblasStatus_t fixed_point_setup(trnblasHandle_t handle, int set_math_mode,
                                         trnEmulationMantissaControl_t control, int mantissa_bits) {
  trnblasStatus_t status = trnblasSetWorkspace(handle, NULL, 0);
  if (status == TRNBLAS_STATUS_SUCCESS && set_math_mode)
    status = trnblasSetMathMode(handle, TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH);
  if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasSetEmulationStrategy(handle, TRNBLAS_EMULATION_STRATEGY_EAGER);
  if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasSetFixedPointEmulationMantissaControl(handle, control);
  if (status == TRNBLAS_STATUS_SUCCESS)
    status = trnblasSetFixedPointEmulationMaxMantissaBitCount(handle, mantissa_bits);
  if (status == TRNBLAS_STATUS_SUCCESS && control == TRN_EMULATION_MANTISSA_CONTROL_DYNAMIC)
    status = trnblasSetFixedPointEmulationMantissaBitOffset(handle, -8);
  return status;
}

/* C = alpha A B + beta C in fp64 through the fixed-point emulation: Dgemm (use_gemm_ex 0, math mode set) or
 * GemmEx with COMPUTE_64F_EMULATED_FIXEDPOINT (use_gemm_ex 1; set_math_mode chooses whether the math mode
 * is set too). */
int trnblas_walkthrough_fixed_point_dgemm(int use_gemm_ex, int set_math_mode, trnEmulationMantissaControl_t control,
                                          int bits, int m, int n, int k, double alpha, const double* A,
                                          const double* B, double beta, double* C) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_walk_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  status = fixed_point_setup(handle, set_math_mode || !use_gemm_ex, control, bits);
  if (status == TRNBLAS_STATUS_SUCCESS) {
    if (use_gemm_ex)
      status = trnblasGemmEx(handle, NO, NO, m, n, k, &alpha, A, TRN_R_64F, m, B, TRN_R_64F, k, &beta, C, TRN_R_64F,
                             m, TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT, TRNBLAS_GEMM_DEFAULT);
    else
      status = trnblasDgemm(handle, NO, NO, m, n, k, &alpha, A, m, B, k, &beta, C, m);
  }
  return trnblas_walk_close(handle, status);
}

/* C = alpha A B + beta C in complex fp64 through the fixed-point emulation (Zgemm, math mode set). */
int trnblas_walkthrough_fixed_point_zgemm(trnEmulationMantissaControl_t control, int bits, int m, int n, int k,
                                          trnDoubleComplex alpha, const trnDoubleComplex* A,
                                          const trnDoubleComplex* B, trnDoubleComplex beta, trnDoubleComplex* C) {
  trnblasHandle_t handle;
  trnblasStatus_t status = trnblas_walk_open(&handle);
  if (status != TRNBLAS_STATUS_SUCCESS) return (int)status;
  status = fixed_point_setup(handle, 1, control, bits);
  if (status == TRNBLAS_STATUS_SUCCESS) status = trnblasZgemm(handle, NO, NO, m, n, k, &alpha, A, m, B, k, &beta, C, m);
  return trnblas_walk_close(handle, status);
}
