/* A plain C consumer of the installed libraries, linked as a CUDA program links cuBLAS/cuRAND
 * (cc app.c -ltrnblas -ltrnrand): one SGEMM and one Philox draw, each checked against a value
 * known independently (2I * 2I = 4I; Random123's first known-answer word for key 0, counter 0). */
#include <stdio.h>
#include <trnblas.h>
#include <trnrand.h>

int main(void) {
  trnblasHandle_t h = NULL;
  const float A[4] = {2, 0, 0, 2};
  float C[4] = {-1, -1, -1, -1};
  const float one = 1.0f, zero = 0.0f;
  int version = 0;
  const int blas_ok = trnblasCreate(&h) == TRNBLAS_STATUS_SUCCESS && trnblasGetVersion(h, &version) == 0 &&
                      trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, A, 2, A, 2, &zero, C, 2) == 0 &&
                      C[0] == 4.0f && C[1] == 0.0f && C[2] == 0.0f && C[3] == 4.0f &&
                      trnblasDestroy(h) == TRNBLAS_STATUS_SUCCESS;
  trnrandGenerator_t g = NULL;
  unsigned int words[4] = {0, 0, 0, 0};
  const int rand_ok = trnrandCreateGeneratorHost(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10) == TRNRAND_STATUS_SUCCESS &&
                      trnrandSetPseudoRandomGeneratorSeed(g, 0) == 0 && trnrandGenerate(g, words, 4) == 0 &&
                      trnrandDestroyGenerator(g) == TRNRAND_STATUS_SUCCESS;
  printf("c consumer: trnblas %d %s, trnrand %08x %s\n", version, blas_ok ? "ok" : "FAILED", words[0],
         rand_ok && words[0] == 0x6627e8d5u ? "ok" : "FAILED");
  return blas_ok && rand_ok && words[0] == 0x6627e8d5u ? 0 : 1;
}
