/* spmm_bell_half_example.cpp - a cuSPARSE program written with CUDA's names (trnsci's own, not one of
 * NVIDIA's samples) that needs what NVIDIA's spmm_blockedell sample needs after the porting rule:
 * __half host arrays initialised from float literals, static_cast<float>(__half), the cuda_fp16.h
 * conversions (__float2half, __float2half_rn, __half2float, __double2half), cudaGetDeviceProperties,
 * and cusparseSpMM on a Blocked-ELL matrix of CUDA_R_16F values with CUDA_R_32F compute. The build
 * ports it with tools/port-cuda.sh and compiles it against the host stand-in for the CUDA runtime
 * (tests/porting/cuda_runtime/), with no hand edit (tests/trnsparse/CMakeLists.txt).
 *
 * The problem: C = alpha * A * B + beta * C with A 6 x 6 in Blocked-ELL, 2 x 2 blocks, two block
 * slots per block row (block row 1 has one block and a padding slot, column index -1), B 6 x 3
 * column-major with ldb 8 > rows, C 6 x 3 column-major with ldc 7, alpha 2, beta 0.5. Every value is
 * a small multiple of 1/4, so every product and sum is exact in fp32 and C is exactly representable
 * in fp16: the check is bit-exact against a double loop over the dense form of A. */
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <cusparse.h>
#include <cstdio>
#include <cstdlib>

#define CHECK_CUDA(func)                                                                 \
  {                                                                                      \
    cudaError_t status = (func);                                                         \
    if (status != cudaSuccess) {                                                         \
      std::printf("CUDA API failed at line %d with error: %s (%d)\n", __LINE__,          \
                  cudaGetErrorString(status), status);                                   \
      return EXIT_FAILURE;                                                               \
    }                                                                                    \
  }
#define CHECK_CUSPARSE(func)                                                             \
  {                                                                                      \
    cusparseStatus_t status = (func);                                                    \
    if (status != CUSPARSE_STATUS_SUCCESS) {                                             \
      std::printf("CUSPARSE API failed at line %d with error: %s (%d)\n", __LINE__,      \
                  cusparseGetErrorString(status), (int)status);                          \
      return EXIT_FAILURE;                                                               \
    }                                                                                    \
  }

int main() {
  const int rows = 6, cols = 6, block = 2, ell_cols = 4, n = 3, ldb = 8, ldc = 7;
  const int block_rows = rows / block, slots = ell_cols / block;
  int hA_columns[] = {0, 2, /**/ 1, -1, /**/ 2, 0};  // block columns of each block row's slots
  // ellValue: rows x ell_cols, row-major (slot s of block row r holds columns [s*2, s*2+2) of rows 2r, 2r+1)
  __half hA_values[] = {1.0f, -2.0f, 0.5f,  0.0f,   //
                        3.0f, 0.25f, -1.0f, 4.0f,   //
                        2.0f, 1.5f,  0.0f,  0.0f,   //
                        -0.5f, 6.0f, 0.0f,  0.0f,   //
                        1.0f, 0.0f,  -3.0f, 2.0f,   //
                        0.75f, 5.0f, 1.0f,  -1.0f};
  __half hB[ldb * n], hC[ldc * n], hC_initial[ldc * n];
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < ldb; ++i) hB[i + j * ldb] = __float2half(i < cols ? 0.5f * (i - 2 * j) + 0.25f : 999.0f);
  for (int k = 0; k < ldc * n; ++k) hC_initial[k] = hC[k] = __float2half_rn(static_cast<float>(k % 5) - 2.0f);
  const float alpha = 2.0f, beta = 0.5f;

  cudaDeviceProp props;
  CHECK_CUDA(cudaGetDeviceProperties(&props, 0))
  if (props.major < 7) {
    std::printf("Blocked-ELL SpMM needs compute capability 7.0\n");
    return 2;
  }

  int* dA_columns;
  __half *dA_values, *dB, *dC;
  CHECK_CUDA(cudaMalloc((void**)&dA_columns, sizeof hA_columns))
  CHECK_CUDA(cudaMalloc((void**)&dA_values, sizeof hA_values))
  CHECK_CUDA(cudaMalloc((void**)&dB, sizeof hB))
  CHECK_CUDA(cudaMalloc((void**)&dC, sizeof hC))
  CHECK_CUDA(cudaMemcpy(dA_columns, hA_columns, sizeof hA_columns, cudaMemcpyHostToDevice))
  CHECK_CUDA(cudaMemcpy(dA_values, hA_values, sizeof hA_values, cudaMemcpyHostToDevice))
  CHECK_CUDA(cudaMemcpy(dB, hB, sizeof hB, cudaMemcpyHostToDevice))
  CHECK_CUDA(cudaMemcpy(dC, hC, sizeof hC, cudaMemcpyHostToDevice))

  cusparseHandle_t handle = NULL;
  cusparseSpMatDescr_t matA;
  cusparseDnMatDescr_t matB, matC;
  void* dBuffer = NULL;
  size_t bufferSize = 0;
  CHECK_CUSPARSE(cusparseCreate(&handle))
  CHECK_CUSPARSE(cusparseCreateBlockedEll(&matA, rows, cols, block, ell_cols, dA_columns, dA_values, CUSPARSE_INDEX_32I,
                                          CUSPARSE_INDEX_BASE_ZERO, CUDA_R_16F))
  CHECK_CUSPARSE(cusparseCreateDnMat(&matB, cols, n, ldb, dB, CUDA_R_16F, CUSPARSE_ORDER_COL))
  CHECK_CUSPARSE(cusparseCreateDnMat(&matC, rows, n, ldc, dC, CUDA_R_16F, CUSPARSE_ORDER_COL))
  CHECK_CUSPARSE(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                         &alpha, matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_BLOCKED_ELL_ALG1,
                                         &bufferSize))
  CHECK_CUDA(cudaMalloc(&dBuffer, bufferSize))
  CHECK_CUSPARSE(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA,
                              matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_BLOCKED_ELL_ALG1, dBuffer))
  CHECK_CUSPARSE(cusparseDestroySpMat(matA))
  CHECK_CUSPARSE(cusparseDestroyDnMat(matB))
  CHECK_CUSPARSE(cusparseDestroyDnMat(matC))
  CHECK_CUSPARSE(cusparseDestroy(handle))
  CHECK_CUDA(cudaMemcpy(hC, dC, sizeof hC, cudaMemcpyDeviceToHost))

  // The dense form of A from the Blocked-ELL arrays, then C = alpha A B + beta C in double.
  double dense[6][6] = {};
  for (int br = 0; br < block_rows; ++br)
    for (int s = 0; s < slots; ++s) {
      const int bc = hA_columns[br * slots + s];
      if (bc < 0) continue;
      for (int i = 0; i < block; ++i)
        for (int j = 0; j < block; ++j)
          dense[br * block + i][bc * block + j] = __half2float(hA_values[(br * block + i) * ell_cols + s * block + j]);
    }
  int correct = 1;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int k = 0; k < cols; ++k) sum += dense[i][k] * static_cast<float>(hB[k + j * ldb]);
      const float want = __half2float(__double2half(alpha * sum + beta * static_cast<float>(hC_initial[i + j * ldc])));
      const float got = hC[i + j * ldc];
      if (got != want) correct = 0;
    }
  for (int i = rows; i < ldc; ++i)  // the padding rows of C keep their values
    for (int j = 0; j < n; ++j)
      if (static_cast<float>(hC[i + j * ldc]) != static_cast<float>(hC_initial[i + j * ldc])) correct = 0;
  if (correct)
    std::printf("spmm_bell_half_example test PASSED\n");
  else
    std::printf("spmm_bell_half_example test FAILED: wrong result\n");
  CHECK_CUDA(cudaFree(dBuffer))
  CHECK_CUDA(cudaFree(dA_columns))
  CHECK_CUDA(cudaFree(dA_values))
  CHECK_CUDA(cudaFree(dB))
  CHECK_CUDA(cudaFree(dC))
  return EXIT_SUCCESS;
}
