/* NVIDIA's cuBLAS samples (CUDALibrarySamples/cuBLAS: Level-1, Level-2, Level-3, Extensions,
 * Emulation) ported to trnblas by prefix substitution (cublas -> trnblas, CUBLAS_ -> TRNBLAS_, CUDA_R_/CUDA_C_ ->
 * TRN_R_/TRN_C_, cuComplex/cuDoubleComplex -> trnComplex/trnDoubleComplex) and host memory: no
 * cudaMalloc/cudaMemcpy, and cudaStreamCreate + cublasSetStream become trnblasSetStream(handle,
 * NULL), the default stream (trnsci executes synchronously, so cudaStreamSynchronize has nothing to
 * wait for). Each sample keeps its data, sizes and arguments; it writes what the sample prints into
 * the caller's arrays and returns 0, or the first status that was not TRNBLAS_STATUS_SUCCESS.
 * The samples are C99 (trnblas_c_samples_extensions.c; Levels 1, 2, 3 and Emulation are the project's
 * own trnblas_c_level{1,2,3}_walkthroughs.c and trnblas_c_emulation_walkthroughs.c, declared in
 * trnblas_c_walkthrough.h);
 * test_trnblas_c_samples.cpp compares their results with the values the samples document. */
#ifndef TRNBLAS_C_SAMPLES_H
#define TRNBLAS_C_SAMPLES_H

#include "trnblas.h"
#include "trnblas_c_walkthrough.h" /* trnblas_sample_open / _close */

#ifdef __cplusplus
extern "C" {
#endif

/* Extensions. */
int trnblas_sample_AxpyEx(double B[4]);
int trnblas_sample_DotEx(double* result);
int trnblas_sample_DotcEx(trnDoubleComplex* result);
int trnblas_sample_Nrm2Ex(double* result);
int trnblas_sample_RotEx(double A[4], double B[4]);
int trnblas_sample_ScalEx(double A[4]);
int trnblas_sample_dgmm(double C[4]);
int trnblas_sample_geam(double C[4]);
int trnblas_sample_GemmEx(double C[4]);
int trnblas_sample_GemmExAutoTuning(double C[4]);
int trnblas_sample_GemmBatchedEx(double C[8]);
int trnblas_sample_GemmStridedBatchedEx(double C[8]);
int trnblas_sample_GemmGroupedBatchedEx(float C[17]);
/* 2 x 2 single complex rank-2 updates, C (upper written, lower left 0); the 3m forms too */
int trnblas_sample_CherkEx(trnComplex C[4]);
int trnblas_sample_Cherk3mEx(trnComplex C[4]);
int trnblas_sample_CsyrkEx(trnComplex C[4]);
int trnblas_sample_Csyrk3mEx(trnComplex C[4]);
/* packed <-> full upper triangle, n = 2: A (4, lower entry left 0), AP (4: 3 written, the last 0) */
int trnblas_sample_tpttr(double A[4]);
int trnblas_sample_trttp(double AP[4]);

#ifdef __cplusplus
}
#endif

#endif
