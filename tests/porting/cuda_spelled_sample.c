/* A cuBLAS + cuFFT host program written with CUDA's names (its memory already host memory, the part
 * of a port done by hand: docs/porting.md). The build runs tools/port-cuda.sh on this file and
 * compiles the output as C99 against the trnsci headers (tests/porting/CMakeLists.txt); the program
 * checks its own results against values known independently and returns 0 when all hold. Every
 * header a CUDA library sample includes is included, so each must map to a shipped trn*.h. */
#include <cuComplex.h>
#include <cublas_api.h>
#include <cublas_v2.h>
#include <cufft.h>
#include <cufftXt.h>
#include <curand.h>
#include <cusolverDn.h>
#include <cusolver_common.h>
#include <cusparse.h>
#include <cusparse_v2.h>
#include <cutensor.h>
#include <library_types.h>
#include <math.h>
#include <stdio.h>

static int blas_part(void) {
  cublasHandle_t handle = NULL;
  cudaStream_t stream = NULL; /* cudaStreamCreate removed by hand: execution is synchronous */
  const float A[6] = {1, 2, 3, 4, 5, 6};  /* 2 x 3, column-major */
  float dA[8], dB[3] = {1, 1, 1}, dC[2] = {-1, -1}, C[2] = {0, 0}; /* "device" buffers: host memory */
  const float alpha = 1.0f, beta = 0.0f;
  cudaDataType t = CUDA_R_32F;
  cuComplex z = cuCaddf(make_cuComplex(1.0f, 2.0f), make_cuComplex(0.5f, -1.0f));
  int major = -1, ok = 1;
  ok &= cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS;
  ok &= cublasSetStream(handle, stream) == CUBLAS_STATUS_SUCCESS;
  ok &= cublasSetMatrix(2, 3, sizeof(float), A, 2, dA, 2) == CUBLAS_STATUS_SUCCESS;
  ok &= cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 1, 3, &alpha, dA, t, 2, dB, CUDA_R_32F, 3, &beta, dC,
                     CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS;
  ok &= cublasGetVector(2, sizeof(float), dC, 1, C, 1) == CUBLAS_STATUS_SUCCESS;
  ok &= C[0] == 9.0f && C[1] == 12.0f; /* row sums of A */
  ok &= cublasSgemv_v2(handle, CUBLAS_OP_T, 2, 3, &alpha, dA, 2, dC, 1, &beta, dB, 1) == CUBLAS_STATUS_SUCCESS;
  ok &= dB[0] == 33.0f && dB[1] == 75.0f && dB[2] == 117.0f; /* A^T (9, 12), exact in fp32 */
  ok &= cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS && major >= 0;
  ok &= cuCrealf(z) == 1.5f && cuCimagf(z) == 1.0f;
  ok &= cublasDestroy_v2(handle) == CUBLAS_STATUS_SUCCESS;
  printf("ported cuBLAS part: C = (%g, %g) %s\n", C[0], C[1], ok ? "ok" : "FAILED");
  return ok;
}

static int fft_part(void) {
  cufftHandle plan;
  long long n = 8;
  size_t ws_est = 0, ws = 0, limit = 0;
  cuComplex x[8], y[8];
  int i, ok = 1;
  for (i = 0; i < 8; ++i) x[i] = make_cuComplex((float)i, 0.0f);
  ok &= cufftCreate(&plan) == CUFFT_SUCCESS;
  ok &= cufftXtSetWorkAreaPolicy(plan, CUFFT_WORKAREA_MINIMAL, &limit) == CUFFT_SUCCESS;
  ok &= cufftXtGetSizeMany(plan, 1, &n, NULL, 1, 0, CUDA_C_32F, NULL, 1, 0, CUDA_C_32F, 1, &ws_est, CUDA_C_32F) ==
        CUFFT_SUCCESS;
  ok &= cufftXtMakePlanMany(plan, 1, &n, NULL, 1, 0, CUDA_C_32F, NULL, 1, 0, CUDA_C_32F, 1, &ws, CUDA_C_32F) ==
        CUFFT_SUCCESS;
  ok &= ws == ws_est;
  ok &= cufftXtExec(plan, x, y, CUFFT_FORWARD) == CUFFT_SUCCESS;
  /* DFT of 0..7: X0 = 28, X4 = -4 exactly; |X1 + 4 - 9.657i| within fp32 rounding */
  ok &= y[0].x == 28.0f && fabsf(y[0].y) < 1e-5f && fabsf(y[4].x + 4.0f) < 1e-5f;
  ok &= fabsf(y[1].x + 4.0f) < 1e-4f && fabsf(y[1].y - 9.6568542f) < 1e-4f;
  ok &= cufftDestroy(plan) == CUFFT_SUCCESS;
  printf("ported cuFFT part: X0 = %g, X1 = (%g, %g) %s\n", y[0].x, y[1].x, y[1].y, ok ? "ok" : "FAILED");
  return ok;
}

int main(void) {
  const int ok = blas_part() & fft_part();
  return ok ? 0 : 1;
}
