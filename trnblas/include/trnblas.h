/* trnblas.h - cuBLAS-shaped C API of trnblas: GEMM, SYRK, TRSM, TRMM, SYMM, SYR2K, SYRKX and complex
 * GEMM as tile kernels on the emulated NeuronCore. Same argument order, meaning and numeric enum
 * values as cuBLAS v2 with the trnblas/TRNBLAS_ prefixes, so a prefix substitution ports code.
 * Column-major; host pointers; synchronous (streams are accepted and stored). Every function
 * returns a status and never aborts, exits or throws; on error nothing is written and the
 * parameter position is logged (1-based, not counting the handle, as cuBLAS/XERBLA number them). */
#ifndef TRNBLAS_H
#define TRNBLAS_H

#include <stddef.h>
#include <stdint.h>

#include "trnComplex.h"
#include "trncore.h"
#include "trnprofile.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TRNBLAS_VER_MAJOR 0
#define TRNBLAS_VER_MINOR 1
#define TRNBLAS_VER_PATCH 0
#define TRNBLAS_VERSION (TRNBLAS_VER_MAJOR * 10000 + TRNBLAS_VER_MINOR * 100 + TRNBLAS_VER_PATCH)

typedef enum trnblasStatus_t {
  TRNBLAS_STATUS_SUCCESS = 0,
  TRNBLAS_STATUS_NOT_INITIALIZED = 1,
  TRNBLAS_STATUS_ALLOC_FAILED = 3,
  TRNBLAS_STATUS_INVALID_VALUE = 7,
  TRNBLAS_STATUS_ARCH_MISMATCH = 8,
  TRNBLAS_STATUS_MAPPING_ERROR = 11,
  TRNBLAS_STATUS_EXECUTION_FAILED = 13,
  TRNBLAS_STATUS_INTERNAL_ERROR = 14,
  TRNBLAS_STATUS_NOT_SUPPORTED = 15,
  TRNBLAS_STATUS_LICENSE_ERROR = 16
} trnblasStatus_t;

typedef enum trnblasOperation_t {
  TRNBLAS_OP_N = 0,
  TRNBLAS_OP_T = 1,
  TRNBLAS_OP_C = 2, /* real data: same as T */
  TRNBLAS_OP_HERMITAN = 2,
  TRNBLAS_OP_CONJG = 3 /* placeholder in cuBLAS, rejected */
} trnblasOperation_t;

typedef enum trnblasFillMode_t { TRNBLAS_FILL_MODE_LOWER = 0, TRNBLAS_FILL_MODE_UPPER = 1, TRNBLAS_FILL_MODE_FULL = 2 } trnblasFillMode_t;
typedef enum trnblasDiagType_t { TRNBLAS_DIAG_NON_UNIT = 0, TRNBLAS_DIAG_UNIT = 1 } trnblasDiagType_t;
typedef enum trnblasSideMode_t { TRNBLAS_SIDE_LEFT = 0, TRNBLAS_SIDE_RIGHT = 1 } trnblasSideMode_t;
typedef enum trnblasPointerMode_t { TRNBLAS_POINTER_MODE_HOST = 0, TRNBLAS_POINTER_MODE_DEVICE = 1 } trnblasPointerMode_t;
typedef enum trnblasAtomicsMode_t { TRNBLAS_ATOMICS_NOT_ALLOWED = 0, TRNBLAS_ATOMICS_ALLOWED = 1 } trnblasAtomicsMode_t;

typedef enum trnblasMath_t {
  TRNBLAS_DEFAULT_MATH = 0,
  TRNBLAS_TENSOR_OP_MATH = 1,
  TRNBLAS_PEDANTIC_MATH = 2,
  TRNBLAS_TF32_TENSOR_OP_MATH = 3,
  TRNBLAS_FP32_EMULATED_BF16X9_MATH = 4,
  TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH = 8,
  TRNBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} trnblasMath_t;

typedef enum trnblasComputeType_t {
  TRNBLAS_COMPUTE_16F = 64,
  TRNBLAS_COMPUTE_16F_PEDANTIC = 65,
  TRNBLAS_COMPUTE_32F = 68, /* fp32 on TensorE (4-pass cost), exact products, fp32 PSUM */
  TRNBLAS_COMPUTE_32F_PEDANTIC = 69,
  TRNBLAS_COMPUTE_64F = 70, /* no fp64 engine: the Ozaki scheme, as 64F_EMULATED_FIXEDPOINT */
  TRNBLAS_COMPUTE_64F_PEDANTIC = 71,
  TRNBLAS_COMPUTE_32I = 72,
  TRNBLAS_COMPUTE_32I_PEDANTIC = 73,
  TRNBLAS_COMPUTE_32F_FAST_16F = 74,
  TRNBLAS_COMPUTE_32F_FAST_16BF = 75,
  TRNBLAS_COMPUTE_32F_FAST_TF32 = 77,
  TRNBLAS_COMPUTE_32F_EMULATED_16BFX9 = 78,
  TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT = 79,
  /* trnsci extensions (>= 1000) */
  TRNBLAS_COMPUTE_32F_FAST_8F_E4M3 = 1000, /* inputs rounded to Neuron's IEEE-style fp8 e4m3, fp32 PSUM */
  TRNBLAS_COMPUTE_32F_FAST_8F_E5M2 = 1001, /* inputs rounded to fp8 e5m2, fp32 PSUM */
  TRNBLAS_COMPUTE_32F_EMULATED_16BFX3 = 1002, /* PSUM-compensated hi*hi + hi*lo + lo*hi */
  TRNBLAS_COMPUTE_32F_EMULATED_16BFX6 = 1003  /* PSUM-compensated, 6 cross products of 3 terms */
} trnblasComputeType_t;

typedef enum trnblasGemmAlgo_t {
  TRNBLAS_GEMM_DFALT = -1,
  TRNBLAS_GEMM_DEFAULT = -1,
  TRNBLAS_GEMM_ALGO0 = 0,
  TRNBLAS_GEMM_ALGO1 = 1,
  TRNBLAS_GEMM_ALGO2 = 2,
  TRNBLAS_GEMM_ALGO3 = 3,
  TRNBLAS_GEMM_ALGO4 = 4,
  TRNBLAS_GEMM_ALGO5 = 5,
  TRNBLAS_GEMM_ALGO6 = 6,
  TRNBLAS_GEMM_ALGO7 = 7,
  TRNBLAS_GEMM_ALGO8 = 8,
  TRNBLAS_GEMM_ALGO9 = 9,
  TRNBLAS_GEMM_ALGO10 = 10,
  TRNBLAS_GEMM_ALGO11 = 11,
  TRNBLAS_GEMM_ALGO12 = 12,
  TRNBLAS_GEMM_ALGO13 = 13,
  TRNBLAS_GEMM_ALGO14 = 14,
  TRNBLAS_GEMM_ALGO15 = 15,
  TRNBLAS_GEMM_ALGO16 = 16,
  TRNBLAS_GEMM_ALGO17 = 17,
  TRNBLAS_GEMM_ALGO18 = 18,
  TRNBLAS_GEMM_ALGO19 = 19,
  TRNBLAS_GEMM_ALGO20 = 20,
  TRNBLAS_GEMM_ALGO21 = 21,
  TRNBLAS_GEMM_ALGO22 = 22,
  TRNBLAS_GEMM_ALGO23 = 23,
  TRNBLAS_GEMM_DEFAULT_TENSOR_OP = 99,
  TRNBLAS_GEMM_DFALT_TENSOR_OP = 99,
  TRNBLAS_GEMM_ALGO0_TENSOR_OP = 100,
  TRNBLAS_GEMM_ALGO1_TENSOR_OP = 101,
  TRNBLAS_GEMM_ALGO2_TENSOR_OP = 102,
  TRNBLAS_GEMM_ALGO3_TENSOR_OP = 103,
  TRNBLAS_GEMM_ALGO4_TENSOR_OP = 104,
  TRNBLAS_GEMM_ALGO5_TENSOR_OP = 105,
  TRNBLAS_GEMM_ALGO6_TENSOR_OP = 106,
  TRNBLAS_GEMM_ALGO7_TENSOR_OP = 107,
  TRNBLAS_GEMM_ALGO8_TENSOR_OP = 108,
  TRNBLAS_GEMM_ALGO9_TENSOR_OP = 109,
  TRNBLAS_GEMM_ALGO10_TENSOR_OP = 110,
  TRNBLAS_GEMM_ALGO11_TENSOR_OP = 111,
  TRNBLAS_GEMM_ALGO12_TENSOR_OP = 112,
  TRNBLAS_GEMM_ALGO13_TENSOR_OP = 113,
  TRNBLAS_GEMM_ALGO14_TENSOR_OP = 114,
  TRNBLAS_GEMM_ALGO15_TENSOR_OP = 115,
  TRNBLAS_GEMM_AUTOTUNE = 999
} trnblasGemmAlgo_t; /* every cuBLAS value is accepted; one algorithm exists */

typedef enum trnblasEmulationStrategy_t {
  TRNBLAS_EMULATION_STRATEGY_DEFAULT = 0,
  TRNBLAS_EMULATION_STRATEGY_PERFORMANT = 1,
  TRNBLAS_EMULATION_STRATEGY_EAGER = 2
} trnblasEmulationStrategy_t;

typedef enum trnblasEmulationMantissaControl_t {
  TRNBLAS_EMULATION_MANTISSA_CONTROL_DYNAMIC = 0,
  TRNBLAS_EMULATION_MANTISSA_CONTROL_FIXED = 1
} trnblasEmulationMantissaControl_t;

typedef enum trnblasEmulationSpecialValuesSupport_t {
  TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_NONE = 0,
  TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_INFINITY = 1,
  TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_NAN = 2,
  TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT = 0xFFFF
} trnblasEmulationSpecialValuesSupport_t;

/* trnsci extension: the algorithm of the fp64 fixed-point emulation (trnblasDgemm, Dsyrk, GemmEx
 * with COMPUTE_64F*). Ozaki-II (CRT residues, Ozaki, Uchino, Imamura, arXiv:2504.08009) is the
 * default; Ozaki-I (8-bit slices) stays selectable. Also TRNBLAS_EMULATION_SCHEME=ozaki1|ozaki2 at
 * trnblasCreate. The mantissa knobs apply to both (docs/trnblas.md, fp64). */
typedef enum trnblasEmulationScheme_t {
  TRNBLAS_EMULATION_SCHEME_OZAKI_II = 0,
  TRNBLAS_EMULATION_SCHEME_OZAKI_I = 1
} trnblasEmulationScheme_t;

/* CUDA 13 declares the mantissa control and the special-value mask in library_types.h, outside
 * cuBLAS (cudaEmulationMantissaControl_t, CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC, ...); the prefix
 * substitution cuda -> trn / CUDA_ -> TRN_ gives these names, the same types and values as above. */
#ifndef TRN_EMULATION_NAMES_DEFINED
#define TRN_EMULATION_NAMES_DEFINED
typedef trnblasEmulationMantissaControl_t trnEmulationMantissaControl_t;
typedef trnblasEmulationSpecialValuesSupport_t trnEmulationSpecialValuesSupport_t;
#define TRN_EMULATION_MANTISSA_CONTROL_DYNAMIC TRNBLAS_EMULATION_MANTISSA_CONTROL_DYNAMIC
#define TRN_EMULATION_MANTISSA_CONTROL_FIXED TRNBLAS_EMULATION_MANTISSA_CONTROL_FIXED
#define TRN_EMULATION_SPECIAL_VALUES_SUPPORT_NONE TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_NONE
#define TRN_EMULATION_SPECIAL_VALUES_SUPPORT_INFINITY TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_INFINITY
#define TRN_EMULATION_SPECIAL_VALUES_SUPPORT_NAN TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_NAN
#define TRN_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT TRNBLAS_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT
#endif

/* cuBLAS names cudaDataType as cublasDataType_t. */
typedef trnDataType_t trnblasDataType_t;

struct trnblasContext;
typedef struct trnblasContext* trnblasHandle_t;
typedef trnLogCallback_t trnblasLogCallback;

/* ---- lifecycle, helpers, settings ---- */
trnblasStatus_t trnblasCreate(trnblasHandle_t* handle);
trnblasStatus_t trnblasDestroy(trnblasHandle_t handle);
trnblasStatus_t trnblasGetVersion(trnblasHandle_t handle, int* version);
const char* trnblasGetStatusName(trnblasStatus_t status);
const char* trnblasGetStatusString(trnblasStatus_t status);
trnblasStatus_t trnblasSetStream(trnblasHandle_t handle, trnStream_t stream);
trnblasStatus_t trnblasGetStream(trnblasHandle_t handle, trnStream_t* stream);
trnblasStatus_t trnblasSetPointerMode(trnblasHandle_t handle, trnblasPointerMode_t mode);
trnblasStatus_t trnblasGetPointerMode(trnblasHandle_t handle, trnblasPointerMode_t* mode);
trnblasStatus_t trnblasSetAtomicsMode(trnblasHandle_t handle, trnblasAtomicsMode_t mode);
trnblasStatus_t trnblasGetAtomicsMode(trnblasHandle_t handle, trnblasAtomicsMode_t* mode);
trnblasStatus_t trnblasSetMathMode(trnblasHandle_t handle, trnblasMath_t mode);
trnblasStatus_t trnblasGetMathMode(trnblasHandle_t handle, trnblasMath_t* mode);
trnblasStatus_t trnblasSetWorkspace(trnblasHandle_t handle, void* workspace, size_t workspaceSizeInBytes);
trnblasStatus_t trnblasSetEmulationStrategy(trnblasHandle_t handle, trnblasEmulationStrategy_t strategy);
trnblasStatus_t trnblasGetEmulationStrategy(trnblasHandle_t handle, trnblasEmulationStrategy_t* strategy);
trnblasStatus_t trnblasSetEmulationSpecialValuesSupport(trnblasHandle_t handle, trnblasEmulationSpecialValuesSupport_t mask);
trnblasStatus_t trnblasGetEmulationSpecialValuesSupport(trnblasHandle_t handle, trnblasEmulationSpecialValuesSupport_t* mask);
trnblasStatus_t trnblasSetFixedPointEmulationMantissaControl(trnblasHandle_t handle, trnblasEmulationMantissaControl_t control);
trnblasStatus_t trnblasGetFixedPointEmulationMantissaControl(trnblasHandle_t handle, trnblasEmulationMantissaControl_t* control);
trnblasStatus_t trnblasSetFixedPointEmulationMaxMantissaBitCount(trnblasHandle_t handle, int maxBits);
trnblasStatus_t trnblasGetFixedPointEmulationMaxMantissaBitCount(trnblasHandle_t handle, int* maxBits);
trnblasStatus_t trnblasSetFixedPointEmulationMantissaBitOffset(trnblasHandle_t handle, int offset);
trnblasStatus_t trnblasGetFixedPointEmulationMantissaBitOffset(trnblasHandle_t handle, int* offset);
/* The pointed-to int receives the mantissa bits the last fixed-point call used, or -1 if not emulated. */
trnblasStatus_t trnblasSetFixedPointEmulationMantissaBitCountPointer(trnblasHandle_t handle, int* bits);
trnblasStatus_t trnblasGetFixedPointEmulationMantissaBitCountPointer(trnblasHandle_t handle, int** bits);
trnblasStatus_t trnblasSetFixedPointEmulationScheme(trnblasHandle_t handle, trnblasEmulationScheme_t scheme); /* extension */
trnblasStatus_t trnblasGetFixedPointEmulationScheme(trnblasHandle_t handle, trnblasEmulationScheme_t* scheme); /* extension */
/* ---- the emulation surface every trnsci library has (trncore.h, TRN_EMULATION_API): trnblasSetTarget ...
 * Set/Get Target, NumericsProfile, StochasticRounding(enable, seed), NumCores; GetLastProfile
 * (modeled cost of the last compute call, docs/cost-model.md); GetLastErrorParameter (1-based
 * position of the last illegal argument, 0 if none); trnblasLoggerConfigure, trnblasSet/GetLoggerCallback,
 * trnblasLoggerSetCallback. ---- */
TRN_EMULATION_API(trnblas, trnblas, trnblasHandle_t, trnblasStatus_t)
TRN_PROFILE_SIZED_API(trnblas, trnblasHandle_t, trnblasStatus_t)  /* trnprofile.h: the versioned trnProfile_t */

/* ---- GEMM ---- */
trnblasStatus_t trnblasSgemm(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m, int n,
                             int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                             const float* beta, float* C, int ldc);
trnblasStatus_t trnblasSgemm_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
                                int64_t n, int64_t k, const float* alpha, const float* A, int64_t lda, const float* B,
                                int64_t ldb, const float* beta, float* C, int64_t ldc);
trnblasStatus_t trnblasDgemm(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m, int n,
                             int k, const double* alpha, const double* A, int lda, const double* B, int ldb,
                             const double* beta, double* C, int ldc);
trnblasStatus_t trnblasDgemm_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
                                int64_t n, int64_t k, const double* alpha, const double* A, int64_t lda, const double* B,
                                int64_t ldb, const double* beta, double* C, int64_t ldc);
trnblasStatus_t trnblasGemmEx(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m, int n,
                              int k, const void* alpha, const void* A, trnDataType_t Atype, int lda, const void* B,
                              trnDataType_t Btype, int ldb, const void* beta, void* C, trnDataType_t Ctype, int ldc,
                              trnblasComputeType_t computeType, trnblasGemmAlgo_t algo);
trnblasStatus_t trnblasGemmEx_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
                                 int64_t n, int64_t k, const void* alpha, const void* A, trnDataType_t Atype, int64_t lda,
                                 const void* B, trnDataType_t Btype, int64_t ldb, const void* beta, void* C,
                                 trnDataType_t Ctype, int64_t ldc, trnblasComputeType_t computeType,
                                 trnblasGemmAlgo_t algo);
trnblasStatus_t trnblasGemmBatchedEx(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,
                                     int n, int k, const void* alpha, const void* const Aarray[], trnDataType_t Atype,
                                     int lda, const void* const Barray[], trnDataType_t Btype, int ldb, const void* beta,
                                     void* const Carray[], trnDataType_t Ctype, int ldc, int batchCount,
                                     trnblasComputeType_t computeType, trnblasGemmAlgo_t algo);
trnblasStatus_t trnblasGemmBatchedEx_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                        int64_t m, int64_t n, int64_t k, const void* alpha, const void* const Aarray[],
                                        trnDataType_t Atype, int64_t lda, const void* const Barray[],
                                        trnDataType_t Btype, int64_t ldb, const void* beta, void* const Carray[],
                                        trnDataType_t Ctype, int64_t ldc, int64_t batchCount,
                                        trnblasComputeType_t computeType, trnblasGemmAlgo_t algo);
trnblasStatus_t trnblasGemmStridedBatchedEx(trnblasHandle_t handle, trnblasOperation_t transa,
                                            trnblasOperation_t transb, int m, int n, int k, const void* alpha,
                                            const void* A, trnDataType_t Atype, int lda, long long strideA,
                                            const void* B, trnDataType_t Btype, int ldb, long long strideB,
                                            const void* beta, void* C, trnDataType_t Ctype, int ldc, long long strideC,
                                            int batchCount, trnblasComputeType_t computeType, trnblasGemmAlgo_t algo);
trnblasStatus_t trnblasGemmStridedBatchedEx_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                               trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                               const void* alpha, const void* A, trnDataType_t Atype, int64_t lda,
                                               long long strideA, const void* B, trnDataType_t Btype, int64_t ldb,
                                               long long strideB, const void* beta, void* C, trnDataType_t Ctype,
                                               int64_t ldc, long long strideC, int64_t batchCount,
                                               trnblasComputeType_t computeType, trnblasGemmAlgo_t algo);
trnblasStatus_t trnblasSgemmStridedBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                           trnblasOperation_t transb, int m, int n, int k, const float* alpha,
                                           const float* A, int lda, long long strideA, const float* B, int ldb,
                                           long long strideB, const float* beta, float* C, int ldc, long long strideC,
                                           int batchCount);
trnblasStatus_t trnblasSgemmStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                              trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                              const float* alpha, const float* A, int64_t lda, long long strideA,
                                              const float* B, int64_t ldb, long long strideB, const float* beta,
                                              float* C, int64_t ldc, long long strideC, int64_t batchCount);

/* Batched GEMM: S/D/C/Z gemmBatched (arrays of batchCount pointers: Aarray 7, lda 8, Barray 9, ldb 10,
 * beta 11, Carray 12, ldc 13, batchCount 14) and DgemmStridedBatched (as SgemmStridedBatched). */
trnblasStatus_t trnblasSgemmBatched(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                   int m, int n, int k, const float* alpha, const float* const Aarray[], int lda,
                                   const float* const Barray[], int ldb, const float* beta, float* const Carray[],
                                   int ldc, int batchCount);
trnblasStatus_t trnblasSgemmBatched_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                   int64_t m, int64_t n, int64_t k, const float* alpha, const float* const Aarray[], int64_t lda,
                                   const float* const Barray[], int64_t ldb, const float* beta, float* const Carray[],
                                   int64_t ldc, int64_t batchCount);
trnblasStatus_t trnblasDgemmBatched(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                   int m, int n, int k, const double* alpha, const double* const Aarray[], int lda,
                                   const double* const Barray[], int ldb, const double* beta, double* const Carray[],
                                   int ldc, int batchCount);
trnblasStatus_t trnblasDgemmBatched_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                   int64_t m, int64_t n, int64_t k, const double* alpha, const double* const Aarray[], int64_t lda,
                                   const double* const Barray[], int64_t ldb, const double* beta, double* const Carray[],
                                   int64_t ldc, int64_t batchCount);
trnblasStatus_t trnblasCgemmBatched(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                   int m, int n, int k, const trnComplex* alpha, const trnComplex* const Aarray[], int lda,
                                   const trnComplex* const Barray[], int ldb, const trnComplex* beta, trnComplex* const Carray[],
                                   int ldc, int batchCount);
trnblasStatus_t trnblasCgemmBatched_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                   int64_t m, int64_t n, int64_t k, const trnComplex* alpha, const trnComplex* const Aarray[], int64_t lda,
                                   const trnComplex* const Barray[], int64_t ldb, const trnComplex* beta, trnComplex* const Carray[],
                                   int64_t ldc, int64_t batchCount);
trnblasStatus_t trnblasZgemmBatched(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                   int m, int n, int k, const trnDoubleComplex* alpha, const trnDoubleComplex* const Aarray[], int lda,
                                   const trnDoubleComplex* const Barray[], int ldb, const trnDoubleComplex* beta, trnDoubleComplex* const Carray[],
                                   int ldc, int batchCount);
trnblasStatus_t trnblasZgemmBatched_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                   int64_t m, int64_t n, int64_t k, const trnDoubleComplex* alpha, const trnDoubleComplex* const Aarray[], int64_t lda,
                                   const trnDoubleComplex* const Barray[], int64_t ldb, const trnDoubleComplex* beta, trnDoubleComplex* const Carray[],
                                   int64_t ldc, int64_t batchCount);
/* S/DgemmGroupedBatched: group_count groups, group g has group_size[g] problems sharing transa_array[g] ...
 * ldc_array[g]; Aarray/Barray/Carray list the problems of all groups in order. */
trnblasStatus_t trnblasSgemmGroupedBatched(trnblasHandle_t handle, const trnblasOperation_t transa_array[],
                                          const trnblasOperation_t transb_array[], const int m_array[],
                                          const int n_array[], const int k_array[], const float alpha_array[],
                                          const float* const Aarray[], const int lda_array[], const float* const Barray[],
                                          const int ldb_array[], const float beta_array[], float* const Carray[],
                                          const int ldc_array[], int group_count, const int group_size[]);
trnblasStatus_t trnblasSgemmGroupedBatched_64(trnblasHandle_t handle, const trnblasOperation_t transa_array[],
                                          const trnblasOperation_t transb_array[], const int64_t m_array[],
                                          const int64_t n_array[], const int64_t k_array[], const float alpha_array[],
                                          const float* const Aarray[], const int64_t lda_array[], const float* const Barray[],
                                          const int64_t ldb_array[], const float beta_array[], float* const Carray[],
                                          const int64_t ldc_array[], int64_t group_count, const int64_t group_size[]);
trnblasStatus_t trnblasDgemmGroupedBatched(trnblasHandle_t handle, const trnblasOperation_t transa_array[],
                                          const trnblasOperation_t transb_array[], const int m_array[],
                                          const int n_array[], const int k_array[], const double alpha_array[],
                                          const double* const Aarray[], const int lda_array[], const double* const Barray[],
                                          const int ldb_array[], const double beta_array[], double* const Carray[],
                                          const int ldc_array[], int group_count, const int group_size[]);
trnblasStatus_t trnblasDgemmGroupedBatched_64(trnblasHandle_t handle, const trnblasOperation_t transa_array[],
                                          const trnblasOperation_t transb_array[], const int64_t m_array[],
                                          const int64_t n_array[], const int64_t k_array[], const double alpha_array[],
                                          const double* const Aarray[], const int64_t lda_array[], const double* const Barray[],
                                          const int64_t ldb_array[], const double beta_array[], double* const Carray[],
                                          const int64_t ldc_array[], int64_t group_count, const int64_t group_size[]);
/* C/ZgemmGroupedBatched (as Sgemm's, complex scalars; 4M complex GEMMs) and GemmGroupedBatchedEx
 * (real types as GemmEx: 32F / 16F / 16BF A and B with a 32F compute type and float scalars, 64F with
 * a 64F one; positions Aarray 7, Atype 8, lda 9, Barray 10, Btype 11, ldb 12, beta 13, Carray 14,
 * Ctype 15, ldc 16, group_count 17, group_size 18, computeType 19). */
trnblasStatus_t trnblasCgemmGroupedBatched(trnblasHandle_t handle, const trnblasOperation_t transa_array[],
    const trnblasOperation_t transb_array[], const int m_array[], const int n_array[], const int k_array[],
    const trnComplex alpha_array[], const trnComplex* const Aarray[], const int lda_array[], const trnComplex* const Barray[],
    const int ldb_array[], const trnComplex beta_array[], trnComplex* const Carray[], const int ldc_array[], int group_count,
    const int group_size[]);
trnblasStatus_t trnblasCgemmGroupedBatched_64(trnblasHandle_t handle, const trnblasOperation_t transa_array[],
    const trnblasOperation_t transb_array[], const int64_t m_array[], const int64_t n_array[], const int64_t k_array[],
    const trnComplex alpha_array[], const trnComplex* const Aarray[], const int64_t lda_array[], const trnComplex* const Barray[],
    const int64_t ldb_array[], const trnComplex beta_array[], trnComplex* const Carray[], const int64_t ldc_array[], int64_t group_count,
    const int64_t group_size[]);
trnblasStatus_t trnblasZgemmGroupedBatched(trnblasHandle_t handle, const trnblasOperation_t transa_array[],
    const trnblasOperation_t transb_array[], const int m_array[], const int n_array[], const int k_array[],
    const trnDoubleComplex alpha_array[], const trnDoubleComplex* const Aarray[], const int lda_array[], const trnDoubleComplex* const Barray[],
    const int ldb_array[], const trnDoubleComplex beta_array[], trnDoubleComplex* const Carray[], const int ldc_array[], int group_count,
    const int group_size[]);
trnblasStatus_t trnblasZgemmGroupedBatched_64(trnblasHandle_t handle, const trnblasOperation_t transa_array[],
    const trnblasOperation_t transb_array[], const int64_t m_array[], const int64_t n_array[], const int64_t k_array[],
    const trnDoubleComplex alpha_array[], const trnDoubleComplex* const Aarray[], const int64_t lda_array[], const trnDoubleComplex* const Barray[],
    const int64_t ldb_array[], const trnDoubleComplex beta_array[], trnDoubleComplex* const Carray[], const int64_t ldc_array[], int64_t group_count,
    const int64_t group_size[]);
trnblasStatus_t trnblasGemmGroupedBatchedEx(trnblasHandle_t handle, const trnblasOperation_t transa_array[],
    const trnblasOperation_t transb_array[], const int m_array[], const int n_array[], const int k_array[],
    const void* alpha_array, const void* const Aarray[], trnDataType_t Atype, const int lda_array[],
    const void* const Barray[], trnDataType_t Btype, const int ldb_array[], const void* beta_array,
    void* const Carray[], trnDataType_t Ctype, const int ldc_array[], int group_count, const int group_size[],
    trnblasComputeType_t computeType);
trnblasStatus_t trnblasGemmGroupedBatchedEx_64(trnblasHandle_t handle, const trnblasOperation_t transa_array[],
    const trnblasOperation_t transb_array[], const int64_t m_array[], const int64_t n_array[], const int64_t k_array[],
    const void* alpha_array, const void* const Aarray[], trnDataType_t Atype, const int64_t lda_array[],
    const void* const Barray[], trnDataType_t Btype, const int64_t ldb_array[], const void* beta_array,
    void* const Carray[], trnDataType_t Ctype, const int64_t ldc_array[], int64_t group_count, const int64_t group_size[],
    trnblasComputeType_t computeType);
trnblasStatus_t trnblasDgemmStridedBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                           trnblasOperation_t transb, int m, int n, int k, const double* alpha,
                                           const double* A, int lda, long long strideA, const double* B, int ldb,
                                           long long strideB, const double* beta, double* C, int ldc, long long strideC,
                                           int batchCount);
trnblasStatus_t trnblasDgemmStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                              trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                              const double* alpha, const double* A, int64_t lda, long long strideA,
                                              const double* B, int64_t ldb, long long strideB, const double* beta,
                                              double* C, int64_t ldc, long long strideC, int64_t batchCount);

/* ---- SYRK: only the uplo triangle of C is read or written ---- */
trnblasStatus_t trnblasSsyrk(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,
                             const float* alpha, const float* A, int lda, const float* beta, float* C, int ldc);
trnblasStatus_t trnblasSsyrk_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                                int64_t k, const float* alpha, const float* A, int64_t lda, const float* beta, float* C,
                                int64_t ldc);
trnblasStatus_t trnblasDsyrk(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,
                             const double* alpha, const double* A, int lda, const double* beta, double* C, int ldc);
trnblasStatus_t trnblasDsyrk_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                                int64_t k, const double* alpha, const double* A, int64_t lda, const double* beta,
                                double* C, int64_t ldc);

/* ---- Level 1 (S/D/C/Z and the *Ex forms) ---- */
/* Real S and D, cuBLAS signatures; pointer mode host (scalars and results through host pointers).
 * Vectors as the reference BLAS: inc < 0 walks the vector backwards; n <= 0 is a quick return
 * (results 0). nrm2, asum, scal and i?amax/i?amin return at once (result 0) when incx <= 0, as the
 * reference BLAS does. inc == 0 repeats one element; a written vector with inc == 0 (axpy, swap,
 * rot, rotm) gets the reference BLAS's element-by-element result, as cuBLAS accepts it too. i?amax/i?amin: 1-based index of the first extreme
 * |x_i|, or of the first NaN when x holds one. Engines, accumulation orders, bounds: docs/trnblas.md. */
trnblasStatus_t trnblasIsamax(trnblasHandle_t handle, int n, const float* x, int incx, int* result);
trnblasStatus_t trnblasIsamax_64(trnblasHandle_t handle, int64_t n, const float* x, int64_t incx, int64_t* result);
trnblasStatus_t trnblasIsamin(trnblasHandle_t handle, int n, const float* x, int incx, int* result);
trnblasStatus_t trnblasIsamin_64(trnblasHandle_t handle, int64_t n, const float* x, int64_t incx, int64_t* result);
trnblasStatus_t trnblasSasum(trnblasHandle_t handle, int n, const float* x, int incx, float* result);
trnblasStatus_t trnblasSasum_64(trnblasHandle_t handle, int64_t n, const float* x, int64_t incx, float* result);
trnblasStatus_t trnblasSnrm2(trnblasHandle_t handle, int n, const float* x, int incx, float* result);
trnblasStatus_t trnblasSnrm2_64(trnblasHandle_t handle, int64_t n, const float* x, int64_t incx, float* result);
trnblasStatus_t trnblasSaxpy(trnblasHandle_t handle, int n, const float* alpha, const float* x, int incx, float* y,
                             int incy);
trnblasStatus_t trnblasSaxpy_64(trnblasHandle_t handle, int64_t n, const float* alpha, const float* x, int64_t incx,
                                float* y, int64_t incy);
trnblasStatus_t trnblasScopy(trnblasHandle_t handle, int n, const float* x, int incx, float* y, int incy);
trnblasStatus_t trnblasScopy_64(trnblasHandle_t handle, int64_t n, const float* x, int64_t incx, float* y, int64_t
                                incy);
trnblasStatus_t trnblasSdot(trnblasHandle_t handle, int n, const float* x, int incx, const float* y, int incy, float*
                            result);
trnblasStatus_t trnblasSdot_64(trnblasHandle_t handle, int64_t n, const float* x, int64_t incx, const float* y,
                               int64_t incy, float* result);
trnblasStatus_t trnblasSrot(trnblasHandle_t handle, int n, float* x, int incx, float* y, int incy, const float* c,
                            const float* s);
trnblasStatus_t trnblasSrot_64(trnblasHandle_t handle, int64_t n, float* x, int64_t incx, float* y, int64_t incy,
                               const float* c, const float* s);
trnblasStatus_t trnblasSscal(trnblasHandle_t handle, int n, const float* alpha, float* x, int incx);
trnblasStatus_t trnblasSscal_64(trnblasHandle_t handle, int64_t n, const float* alpha, float* x, int64_t incx);
trnblasStatus_t trnblasSswap(trnblasHandle_t handle, int n, float* x, int incx, float* y, int incy);
trnblasStatus_t trnblasSswap_64(trnblasHandle_t handle, int64_t n, float* x, int64_t incx, float* y, int64_t incy);
trnblasStatus_t trnblasIdamax(trnblasHandle_t handle, int n, const double* x, int incx, int* result);
trnblasStatus_t trnblasIdamax_64(trnblasHandle_t handle, int64_t n, const double* x, int64_t incx, int64_t* result);
trnblasStatus_t trnblasIdamin(trnblasHandle_t handle, int n, const double* x, int incx, int* result);
trnblasStatus_t trnblasIdamin_64(trnblasHandle_t handle, int64_t n, const double* x, int64_t incx, int64_t* result);
trnblasStatus_t trnblasDasum(trnblasHandle_t handle, int n, const double* x, int incx, double* result);
trnblasStatus_t trnblasDasum_64(trnblasHandle_t handle, int64_t n, const double* x, int64_t incx, double* result);
trnblasStatus_t trnblasDnrm2(trnblasHandle_t handle, int n, const double* x, int incx, double* result);
trnblasStatus_t trnblasDnrm2_64(trnblasHandle_t handle, int64_t n, const double* x, int64_t incx, double* result);
trnblasStatus_t trnblasDaxpy(trnblasHandle_t handle, int n, const double* alpha, const double* x, int incx, double* y,
                             int incy);
trnblasStatus_t trnblasDaxpy_64(trnblasHandle_t handle, int64_t n, const double* alpha, const double* x, int64_t incx,
                                double* y, int64_t incy);
trnblasStatus_t trnblasDcopy(trnblasHandle_t handle, int n, const double* x, int incx, double* y, int incy);
trnblasStatus_t trnblasDcopy_64(trnblasHandle_t handle, int64_t n, const double* x, int64_t incx, double* y, int64_t
                                incy);
trnblasStatus_t trnblasDdot(trnblasHandle_t handle, int n, const double* x, int incx, const double* y, int incy,
                            double* result);
trnblasStatus_t trnblasDdot_64(trnblasHandle_t handle, int64_t n, const double* x, int64_t incx, const double* y,
                               int64_t incy, double* result);
trnblasStatus_t trnblasDrot(trnblasHandle_t handle, int n, double* x, int incx, double* y, int incy, const double* c,
                            const double* s);
trnblasStatus_t trnblasDrot_64(trnblasHandle_t handle, int64_t n, double* x, int64_t incx, double* y, int64_t incy,
                               const double* c, const double* s);
trnblasStatus_t trnblasDscal(trnblasHandle_t handle, int n, const double* alpha, double* x, int incx);
trnblasStatus_t trnblasDscal_64(trnblasHandle_t handle, int64_t n, const double* alpha, double* x, int64_t incx);
trnblasStatus_t trnblasDswap(trnblasHandle_t handle, int n, double* x, int incx, double* y, int incy);
trnblasStatus_t trnblasDswap_64(trnblasHandle_t handle, int64_t n, double* x, int64_t incx, double* y, int64_t incy);

/* Complex C and Z (and the mixed forms Scasum, Scnrm2, Csscal, Csrot, Dzasum, Dznrm2, Zdscal, Zdrot):
 * the same rules; i?amax/i?amin compare |re| + |im| as the reference BLAS's icamax does. */
trnblasStatus_t trnblasIcamax(trnblasHandle_t handle, int n, const trnComplex* x, int incx, int* result);
trnblasStatus_t trnblasIcamax_64(trnblasHandle_t handle, int64_t n, const trnComplex* x, int64_t incx, int64_t*
                                 result);
trnblasStatus_t trnblasIcamin(trnblasHandle_t handle, int n, const trnComplex* x, int incx, int* result);
trnblasStatus_t trnblasIcamin_64(trnblasHandle_t handle, int64_t n, const trnComplex* x, int64_t incx, int64_t*
                                 result);
trnblasStatus_t trnblasScasum(trnblasHandle_t handle, int n, const trnComplex* x, int incx, float* result);
trnblasStatus_t trnblasScasum_64(trnblasHandle_t handle, int64_t n, const trnComplex* x, int64_t incx, float* result);
trnblasStatus_t trnblasScnrm2(trnblasHandle_t handle, int n, const trnComplex* x, int incx, float* result);
trnblasStatus_t trnblasScnrm2_64(trnblasHandle_t handle, int64_t n, const trnComplex* x, int64_t incx, float* result);
trnblasStatus_t trnblasCaxpy(trnblasHandle_t handle, int n, const trnComplex* alpha, const trnComplex* x, int incx,
                             trnComplex* y, int incy);
trnblasStatus_t trnblasCaxpy_64(trnblasHandle_t handle, int64_t n, const trnComplex* alpha, const trnComplex* x,
                                int64_t incx, trnComplex* y, int64_t incy);
trnblasStatus_t trnblasCcopy(trnblasHandle_t handle, int n, const trnComplex* x, int incx, trnComplex* y, int incy);
trnblasStatus_t trnblasCcopy_64(trnblasHandle_t handle, int64_t n, const trnComplex* x, int64_t incx, trnComplex* y,
                                int64_t incy);
trnblasStatus_t trnblasCdotu(trnblasHandle_t handle, int n, const trnComplex* x, int incx, const trnComplex* y, int
                             incy, trnComplex* result);
trnblasStatus_t trnblasCdotu_64(trnblasHandle_t handle, int64_t n, const trnComplex* x, int64_t incx, const
                                trnComplex* y, int64_t incy, trnComplex* result);
trnblasStatus_t trnblasCdotc(trnblasHandle_t handle, int n, const trnComplex* x, int incx, const trnComplex* y, int
                             incy, trnComplex* result);
trnblasStatus_t trnblasCdotc_64(trnblasHandle_t handle, int64_t n, const trnComplex* x, int64_t incx, const
                                trnComplex* y, int64_t incy, trnComplex* result);
trnblasStatus_t trnblasCsrot(trnblasHandle_t handle, int n, trnComplex* x, int incx, trnComplex* y, int incy, const
                             float* c, const float* s);
trnblasStatus_t trnblasCsrot_64(trnblasHandle_t handle, int64_t n, trnComplex* x, int64_t incx, trnComplex* y, int64_t
                                incy, const float* c, const float* s);
trnblasStatus_t trnblasCscal(trnblasHandle_t handle, int n, const trnComplex* alpha, trnComplex* x, int incx);
trnblasStatus_t trnblasCscal_64(trnblasHandle_t handle, int64_t n, const trnComplex* alpha, trnComplex* x, int64_t
                                incx);
trnblasStatus_t trnblasCsscal(trnblasHandle_t handle, int n, const float* alpha, trnComplex* x, int incx);
trnblasStatus_t trnblasCsscal_64(trnblasHandle_t handle, int64_t n, const float* alpha, trnComplex* x, int64_t incx);
trnblasStatus_t trnblasCswap(trnblasHandle_t handle, int n, trnComplex* x, int incx, trnComplex* y, int incy);
trnblasStatus_t trnblasCswap_64(trnblasHandle_t handle, int64_t n, trnComplex* x, int64_t incx, trnComplex* y, int64_t
                                incy);
trnblasStatus_t trnblasIzamax(trnblasHandle_t handle, int n, const trnDoubleComplex* x, int incx, int* result);
trnblasStatus_t trnblasIzamax_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex* x, int64_t incx, int64_t*
                                 result);
trnblasStatus_t trnblasIzamin(trnblasHandle_t handle, int n, const trnDoubleComplex* x, int incx, int* result);
trnblasStatus_t trnblasIzamin_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex* x, int64_t incx, int64_t*
                                 result);
trnblasStatus_t trnblasDzasum(trnblasHandle_t handle, int n, const trnDoubleComplex* x, int incx, double* result);
trnblasStatus_t trnblasDzasum_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex* x, int64_t incx, double*
                                 result);
trnblasStatus_t trnblasDznrm2(trnblasHandle_t handle, int n, const trnDoubleComplex* x, int incx, double* result);
trnblasStatus_t trnblasDznrm2_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex* x, int64_t incx, double*
                                 result);
trnblasStatus_t trnblasZaxpy(trnblasHandle_t handle, int n, const trnDoubleComplex* alpha, const trnDoubleComplex* x,
                             int incx, trnDoubleComplex* y, int incy);
trnblasStatus_t trnblasZaxpy_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex* alpha, const
                                trnDoubleComplex* x, int64_t incx, trnDoubleComplex* y, int64_t incy);
trnblasStatus_t trnblasZcopy(trnblasHandle_t handle, int n, const trnDoubleComplex* x, int incx, trnDoubleComplex* y,
                             int incy);
trnblasStatus_t trnblasZcopy_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex* x, int64_t incx,
                                trnDoubleComplex* y, int64_t incy);
trnblasStatus_t trnblasZdotu(trnblasHandle_t handle, int n, const trnDoubleComplex* x, int incx, const
                             trnDoubleComplex* y, int incy, trnDoubleComplex* result);
trnblasStatus_t trnblasZdotu_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex* x, int64_t incx, const
                                trnDoubleComplex* y, int64_t incy, trnDoubleComplex* result);
trnblasStatus_t trnblasZdotc(trnblasHandle_t handle, int n, const trnDoubleComplex* x, int incx, const
                             trnDoubleComplex* y, int incy, trnDoubleComplex* result);
trnblasStatus_t trnblasZdotc_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex* x, int64_t incx, const
                                trnDoubleComplex* y, int64_t incy, trnDoubleComplex* result);
trnblasStatus_t trnblasZdrot(trnblasHandle_t handle, int n, trnDoubleComplex* x, int incx, trnDoubleComplex* y, int
                             incy, const double* c, const double* s);
trnblasStatus_t trnblasZdrot_64(trnblasHandle_t handle, int64_t n, trnDoubleComplex* x, int64_t incx,
                                trnDoubleComplex* y, int64_t incy, const double* c, const double* s);
trnblasStatus_t trnblasZscal(trnblasHandle_t handle, int n, const trnDoubleComplex* alpha, trnDoubleComplex* x, int
                             incx);
trnblasStatus_t trnblasZscal_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex* alpha, trnDoubleComplex* x,
                                int64_t incx);
trnblasStatus_t trnblasZdscal(trnblasHandle_t handle, int n, const double* alpha, trnDoubleComplex* x, int incx);
trnblasStatus_t trnblasZdscal_64(trnblasHandle_t handle, int64_t n, const double* alpha, trnDoubleComplex* x, int64_t
                                 incx);
trnblasStatus_t trnblasZswap(trnblasHandle_t handle, int n, trnDoubleComplex* x, int incx, trnDoubleComplex* y, int
                             incy);
trnblasStatus_t trnblasZswap_64(trnblasHandle_t handle, int64_t n, trnDoubleComplex* x, int64_t incx,
                                trnDoubleComplex* y, int64_t incy);

/* Plane rotations. rotg / rotmg set a rotation up from two scalars (LAPACK 3.10's safe-scaling rotg,
 * the reference BLAS's rotmg; host scalar arithmetic: a 2-element setup), rotm and rot apply one.
 * Crot / Zrot: real c, complex s, (x, y) = (c x + s y, c y - conj(s) x). Positions as cuBLAS's. */
trnblasStatus_t trnblasSrotg(trnblasHandle_t handle, float* a, float* b, float* c, float* s);
trnblasStatus_t trnblasDrotg(trnblasHandle_t handle, double* a, double* b, double* c, double* s);
trnblasStatus_t trnblasCrotg(trnblasHandle_t handle, trnComplex* a, trnComplex* b, float* c, trnComplex* s);
trnblasStatus_t trnblasZrotg(trnblasHandle_t handle, trnDoubleComplex* a, trnDoubleComplex* b, double* c,
                             trnDoubleComplex* s);
trnblasStatus_t trnblasSrotm(trnblasHandle_t handle, int n, float* x, int incx, float* y, int incy, const float* param);
trnblasStatus_t trnblasSrotm_64(trnblasHandle_t handle, int64_t n, float* x, int64_t incx, float* y, int64_t incy,
                                const float* param);
trnblasStatus_t trnblasDrotm(trnblasHandle_t handle, int n, double* x, int incx, double* y, int incy,
                             const double* param);
trnblasStatus_t trnblasDrotm_64(trnblasHandle_t handle, int64_t n, double* x, int64_t incx, double* y, int64_t incy,
                                const double* param);
trnblasStatus_t trnblasSrotmg(trnblasHandle_t handle, float* d1, float* d2, float* x1, const float* y1, float* param);
trnblasStatus_t trnblasDrotmg(trnblasHandle_t handle, double* d1, double* d2, double* x1, const double* y1,
                              double* param);
trnblasStatus_t trnblasCrot(trnblasHandle_t handle, int n, trnComplex* x, int incx, trnComplex* y, int incy,
                            const float* c, const trnComplex* s);
trnblasStatus_t trnblasCrot_64(trnblasHandle_t handle, int64_t n, trnComplex* x, int64_t incx, trnComplex* y,
                               int64_t incy, const float* c, const trnComplex* s);
trnblasStatus_t trnblasZrot(trnblasHandle_t handle, int n, trnDoubleComplex* x, int incx, trnDoubleComplex* y,
                            int incy, const double* c, const trnDoubleComplex* s);
trnblasStatus_t trnblasZrot_64(trnblasHandle_t handle, int64_t n, trnDoubleComplex* x, int64_t incx,
                               trnDoubleComplex* y, int64_t incy, const double* c, const trnDoubleComplex* s);

/* The *Ex forms (cuBLAS signatures; types as trnDataType_t values). Supported: TRN_R_32F, TRN_R_64F,
 * TRN_C_32F, TRN_C_64F data with the execution type of the matching S/D/C/Z routine, the mixed forms
 * (real alpha for a complex x in ScalEx, real c and s in RotEx, the real result of a complex
 * Nrm2Ex/AsumEx), and 16-bit data (TRN_R_16F, TRN_R_16BF) with TRN_R_32F execution in AxpyEx and
 * ScalEx (alpha 32F), DotEx/DotcEx and Nrm2Ex (result of the data's type), RotEx (c, s of the data's
 * type): the fp32 routine on the widened data, each written element or result rounded once (RNE).
 * Others: TRNBLAS_STATUS_NOT_SUPPORTED, nothing written. */
trnblasStatus_t trnblasAxpyEx(trnblasHandle_t handle, int n, const void* alpha, trnDataType_t alphaType, const void* x,
                              trnDataType_t xType, int incx, void* y, trnDataType_t yType, int incy,
                              trnDataType_t executiontype);
trnblasStatus_t trnblasAxpyEx_64(trnblasHandle_t handle, int64_t n, const void* alpha, trnDataType_t alphaType,
                                 const void* x, trnDataType_t xType, int64_t incx, void* y, trnDataType_t yType,
                                 int64_t incy, trnDataType_t executiontype);
trnblasStatus_t trnblasDotEx(trnblasHandle_t handle, int n, const void* x, trnDataType_t xType, int incx, const void* y,
                             trnDataType_t yType, int incy, void* result, trnDataType_t resultType,
                             trnDataType_t executionType);
trnblasStatus_t trnblasDotEx_64(trnblasHandle_t handle, int64_t n, const void* x, trnDataType_t xType, int64_t incx,
                                const void* y, trnDataType_t yType, int64_t incy, void* result,
                                trnDataType_t resultType, trnDataType_t executionType);
trnblasStatus_t trnblasDotcEx(trnblasHandle_t handle, int n, const void* x, trnDataType_t xType, int incx,
                              const void* y, trnDataType_t yType, int incy, void* result, trnDataType_t resultType,
                              trnDataType_t executionType);
trnblasStatus_t trnblasDotcEx_64(trnblasHandle_t handle, int64_t n, const void* x, trnDataType_t xType, int64_t incx,
                                 const void* y, trnDataType_t yType, int64_t incy, void* result,
                                 trnDataType_t resultType, trnDataType_t executionType);
trnblasStatus_t trnblasNrm2Ex(trnblasHandle_t handle, int n, const void* x, trnDataType_t xType, int incx, void* result,
                              trnDataType_t resultType, trnDataType_t executionType);
trnblasStatus_t trnblasNrm2Ex_64(trnblasHandle_t handle, int64_t n, const void* x, trnDataType_t xType, int64_t incx,
                                 void* result, trnDataType_t resultType, trnDataType_t executionType);
trnblasStatus_t trnblasAsumEx(trnblasHandle_t handle, int n, const void* x, trnDataType_t xType, int incx, void* result,
                              trnDataType_t resultType, trnDataType_t executiontype);
trnblasStatus_t trnblasAsumEx_64(trnblasHandle_t handle, int64_t n, const void* x, trnDataType_t xType, int64_t incx,
                                 void* result, trnDataType_t resultType, trnDataType_t executiontype);
trnblasStatus_t trnblasIamaxEx(trnblasHandle_t handle, int n, const void* x, trnDataType_t xType, int incx, int* result);
trnblasStatus_t trnblasIamaxEx_64(trnblasHandle_t handle, int64_t n, const void* x, trnDataType_t xType, int64_t incx,
                                  int64_t* result);
trnblasStatus_t trnblasIaminEx(trnblasHandle_t handle, int n, const void* x, trnDataType_t xType, int incx, int* result);
trnblasStatus_t trnblasIaminEx_64(trnblasHandle_t handle, int64_t n, const void* x, trnDataType_t xType, int64_t incx,
                                  int64_t* result);
trnblasStatus_t trnblasScalEx(trnblasHandle_t handle, int n, const void* alpha, trnDataType_t alphaType, void* x,
                              trnDataType_t xType, int incx, trnDataType_t executionType);
trnblasStatus_t trnblasScalEx_64(trnblasHandle_t handle, int64_t n, const void* alpha, trnDataType_t alphaType, void* x,
                                 trnDataType_t xType, int64_t incx, trnDataType_t executionType);
trnblasStatus_t trnblasCopyEx(trnblasHandle_t handle, int n, const void* x, trnDataType_t xType, int incx, void* y,
                              trnDataType_t yType, int incy);
trnblasStatus_t trnblasCopyEx_64(trnblasHandle_t handle, int64_t n, const void* x, trnDataType_t xType, int64_t incx,
                                 void* y, trnDataType_t yType, int64_t incy);
trnblasStatus_t trnblasSwapEx(trnblasHandle_t handle, int n, void* x, trnDataType_t xType, int incx, void* y,
                              trnDataType_t yType, int incy);
trnblasStatus_t trnblasSwapEx_64(trnblasHandle_t handle, int64_t n, void* x, trnDataType_t xType, int64_t incx, void* y,
                                 trnDataType_t yType, int64_t incy);
trnblasStatus_t trnblasRotEx(trnblasHandle_t handle, int n, void* x, trnDataType_t xType, int incx, void* y,
                             trnDataType_t yType, int incy, const void* c, const void* s, trnDataType_t csType,
                             trnDataType_t executiontype);
trnblasStatus_t trnblasRotEx_64(trnblasHandle_t handle, int64_t n, void* x, trnDataType_t xType, int64_t incx, void* y,
                                trnDataType_t yType, int64_t incy, const void* c, const void* s, trnDataType_t csType,
                                trnDataType_t executiontype);
trnblasStatus_t trnblasRotgEx(trnblasHandle_t handle, void* a, void* b, trnDataType_t abType, void* c, void* s,
                              trnDataType_t csType, trnDataType_t executiontype);
trnblasStatus_t trnblasRotmEx(trnblasHandle_t handle, int n, void* x, trnDataType_t xType, int incx, void* y,
                              trnDataType_t yType, int incy, const void* param, trnDataType_t paramType,
                              trnDataType_t executiontype);
trnblasStatus_t trnblasRotmEx_64(trnblasHandle_t handle, int64_t n, void* x, trnDataType_t xType, int64_t incx,
                                 void* y, trnDataType_t yType, int64_t incy, const void* param,
                                 trnDataType_t paramType, trnDataType_t executiontype);
trnblasStatus_t trnblasRotmgEx(trnblasHandle_t handle, void* d1, trnDataType_t d1Type, void* d2, trnDataType_t d2Type,
                               void* x1, trnDataType_t x1Type, const void* y1, trnDataType_t y1Type, void* param,
                               trnDataType_t paramType, trnDataType_t executiontype);

/* ---- Level 2 (S/D/C/Z; general, banded, symmetric/Hermitian, packed, triangular) ---- */
/* Real S and D: gemv, ger, symv, trmv, trsv (cuBLAS signatures; checks in reference-BLAS XERBLA
 * order). beta == 0 never reads y; alpha == 0 never reads A or x. */
trnblasStatus_t trnblasSgemv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, const float* alpha, const
                             float* A, int lda, const float* x, int incx, const float* beta, float* y, int incy);
trnblasStatus_t trnblasSger(trnblasHandle_t handle, int m, int n, const float* alpha, const float* x, int incx, const
                            float* y, int incy, float* A, int lda);
trnblasStatus_t trnblasSsymv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const float* alpha, const float*
                             A, int lda, const float* x, int incx, const float* beta, float* y, int incy);
trnblasStatus_t trnblasStrmv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const float* A, int lda, float* x, int incx);
trnblasStatus_t trnblasStrsv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const float* A, int lda, float* x, int incx);
trnblasStatus_t trnblasSgemv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n, const float*
                                alpha, const float* A, int64_t lda, const float* x, int64_t incx, const float* beta,
                                float* y, int64_t incy);
trnblasStatus_t trnblasSger_64(trnblasHandle_t handle, int64_t m, int64_t n, const float* alpha, const float* x,
                               int64_t incx, const float* y, int64_t incy, float* A, int64_t lda);
trnblasStatus_t trnblasSsymv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const float* alpha, const
                                float* A, int64_t lda, const float* x, int64_t incx, const float* beta, float* y,
                                int64_t incy);
trnblasStatus_t trnblasStrmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const float* A, int64_t lda, float* x, int64_t
                                incx);
trnblasStatus_t trnblasStrsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const float* A, int64_t lda, float* x, int64_t
                                incx);
trnblasStatus_t trnblasDgemv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, const double* alpha,
                             const double* A, int lda, const double* x, int incx, const double* beta, double* y, int
                             incy);
trnblasStatus_t trnblasDger(trnblasHandle_t handle, int m, int n, const double* alpha, const double* x, int incx,
                            const double* y, int incy, double* A, int lda);
trnblasStatus_t trnblasDsymv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const double* alpha, const double*
                             A, int lda, const double* x, int incx, const double* beta, double* y, int incy);
trnblasStatus_t trnblasDtrmv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const double* A, int lda, double* x, int incx);
trnblasStatus_t trnblasDtrsv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const double* A, int lda, double* x, int incx);
trnblasStatus_t trnblasDgemv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n, const double*
                                alpha, const double* A, int64_t lda, const double* x, int64_t incx, const double*
                                beta, double* y, int64_t incy);
trnblasStatus_t trnblasDger_64(trnblasHandle_t handle, int64_t m, int64_t n, const double* alpha, const double* x,
                               int64_t incx, const double* y, int64_t incy, double* A, int64_t lda);
trnblasStatus_t trnblasDsymv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const double* alpha, const
                                double* A, int64_t lda, const double* x, int64_t incx, const double* beta, double* y,
                                int64_t incy);
trnblasStatus_t trnblasDtrmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const double* A, int64_t lda, double* x, int64_t
                                incx);
trnblasStatus_t trnblasDtrsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const double* A, int64_t lda, double* x, int64_t
                                incx);
/* Banded (gbmv, sbmv, tbmv, tbsv), packed (spmv, tpmv, tpsv, spr, spr2) and rank-1/rank-2 (syr, syr2)
 * routines, real S and D, reference-BLAS storage layouts (docs/trnblas.md). */
trnblasStatus_t trnblasSgbmv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, int kl, int ku, const
                             float* alpha, const float* A, int lda, const float* x, int incx, const float* beta,
                             float* y, int incy);
trnblasStatus_t trnblasSsbmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, int k, const float* alpha, const
                             float* A, int lda, const float* x, int incx, const float* beta, float* y, int incy);
trnblasStatus_t trnblasSspmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const float* alpha, const float*
                             AP, const float* x, int incx, const float* beta, float* y, int incy);
trnblasStatus_t trnblasStbmv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, int k, const float* A, int lda, float* x, int incx);
trnblasStatus_t trnblasStbsv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, int k, const float* A, int lda, float* x, int incx);
trnblasStatus_t trnblasStpmv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const float* AP, float* x, int incx);
trnblasStatus_t trnblasStpsv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const float* AP, float* x, int incx);
trnblasStatus_t trnblasSsyr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const float* alpha, const float* x,
                            int incx, float* A, int lda);
trnblasStatus_t trnblasSspr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const float* alpha, const float* x,
                            int incx, float* AP);
trnblasStatus_t trnblasSsyr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const float* alpha, const float*
                             x, int incx, const float* y, int incy, float* A, int lda);
trnblasStatus_t trnblasSspr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const float* alpha, const float*
                             x, int incx, const float* y, int incy, float* AP);
trnblasStatus_t trnblasSgbmv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n, int64_t kl,
                                int64_t ku, const float* alpha, const float* A, int64_t lda, const float* x, int64_t
                                incx, const float* beta, float* y, int64_t incy);
trnblasStatus_t trnblasSsbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, int64_t k, const float*
                                alpha, const float* A, int64_t lda, const float* x, int64_t incx, const float* beta,
                                float* y, int64_t incy);
trnblasStatus_t trnblasSspmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const float* alpha, const
                                float* AP, const float* x, int64_t incx, const float* beta, float* y, int64_t incy);
trnblasStatus_t trnblasStbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, int64_t k, const float* A, int64_t lda, float* x,
                                int64_t incx);
trnblasStatus_t trnblasStbsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, int64_t k, const float* A, int64_t lda, float* x,
                                int64_t incx);
trnblasStatus_t trnblasStpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const float* AP, float* x, int64_t incx);
trnblasStatus_t trnblasStpsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const float* AP, float* x, int64_t incx);
trnblasStatus_t trnblasSsyr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const float* alpha, const
                               float* x, int64_t incx, float* A, int64_t lda);
trnblasStatus_t trnblasSspr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const float* alpha, const
                               float* x, int64_t incx, float* AP);
trnblasStatus_t trnblasSsyr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const float* alpha, const
                                float* x, int64_t incx, const float* y, int64_t incy, float* A, int64_t lda);
trnblasStatus_t trnblasSspr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const float* alpha, const
                                float* x, int64_t incx, const float* y, int64_t incy, float* AP);
trnblasStatus_t trnblasDgbmv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, int kl, int ku, const
                             double* alpha, const double* A, int lda, const double* x, int incx, const double* beta,
                             double* y, int incy);
trnblasStatus_t trnblasDsbmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, int k, const double* alpha, const
                             double* A, int lda, const double* x, int incx, const double* beta, double* y, int incy);
trnblasStatus_t trnblasDspmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const double* alpha, const double*
                             AP, const double* x, int incx, const double* beta, double* y, int incy);
trnblasStatus_t trnblasDtbmv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, int k, const double* A, int lda, double* x, int incx);
trnblasStatus_t trnblasDtbsv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, int k, const double* A, int lda, double* x, int incx);
trnblasStatus_t trnblasDtpmv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const double* AP, double* x, int incx);
trnblasStatus_t trnblasDtpsv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const double* AP, double* x, int incx);
trnblasStatus_t trnblasDsyr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const double* alpha, const double*
                            x, int incx, double* A, int lda);
trnblasStatus_t trnblasDspr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const double* alpha, const double*
                            x, int incx, double* AP);
trnblasStatus_t trnblasDsyr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const double* alpha, const double*
                             x, int incx, const double* y, int incy, double* A, int lda);
trnblasStatus_t trnblasDspr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const double* alpha, const double*
                             x, int incx, const double* y, int incy, double* AP);
trnblasStatus_t trnblasDgbmv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n, int64_t kl,
                                int64_t ku, const double* alpha, const double* A, int64_t lda, const double* x,
                                int64_t incx, const double* beta, double* y, int64_t incy);
trnblasStatus_t trnblasDsbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, int64_t k, const double*
                                alpha, const double* A, int64_t lda, const double* x, int64_t incx, const double*
                                beta, double* y, int64_t incy);
trnblasStatus_t trnblasDspmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const double* alpha, const
                                double* AP, const double* x, int64_t incx, const double* beta, double* y, int64_t
                                incy);
trnblasStatus_t trnblasDtbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, int64_t k, const double* A, int64_t lda, double* x,
                                int64_t incx);
trnblasStatus_t trnblasDtbsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, int64_t k, const double* A, int64_t lda, double* x,
                                int64_t incx);
trnblasStatus_t trnblasDtpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const double* AP, double* x, int64_t incx);
trnblasStatus_t trnblasDtpsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const double* AP, double* x, int64_t incx);
trnblasStatus_t trnblasDsyr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const double* alpha, const
                               double* x, int64_t incx, double* A, int64_t lda);
trnblasStatus_t trnblasDspr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const double* alpha, const
                               double* x, int64_t incx, double* AP);
trnblasStatus_t trnblasDsyr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const double* alpha, const
                                double* x, int64_t incx, const double* y, int64_t incy, double* A, int64_t lda);
trnblasStatus_t trnblasDspr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const double* alpha, const
                                double* x, int64_t incx, const double* y, int64_t incy, double* AP);
/* Complex gemv (op N, T or C), each also _64. */
trnblasStatus_t trnblasCgemv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, const trnComplex* alpha,
                             const trnComplex* A, int lda, const trnComplex* x, int incx, const trnComplex* beta,
                             trnComplex* y, int incy);
trnblasStatus_t trnblasCgemv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n,
                                const trnComplex* alpha, const trnComplex* A, int64_t lda, const trnComplex* x,
                                int64_t incx, const trnComplex* beta, trnComplex* y, int64_t incy);
trnblasStatus_t trnblasZgemv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                             const trnDoubleComplex* alpha, const trnDoubleComplex* A, int lda,
                             const trnDoubleComplex* x, int incx, const trnDoubleComplex* beta, trnDoubleComplex* y,
                             int incy);
trnblasStatus_t trnblasZgemv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n,
                                const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda,
                                const trnDoubleComplex* x, int64_t incx, const trnDoubleComplex* beta,
                                trnDoubleComplex* y, int64_t incy);
/* hemv (the imaginary parts of A's diagonal are taken as 0), geru, gerc; each also _64. */
trnblasStatus_t trnblasChemv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnComplex* alpha, const
                             trnComplex* A, int lda, const trnComplex* x, int incx, const trnComplex* beta,
                             trnComplex* y, int incy);
trnblasStatus_t trnblasCgeru(trnblasHandle_t handle, int m, int n, const trnComplex* alpha, const trnComplex* x, int
                             incx, const trnComplex* y, int incy, trnComplex* A, int lda);
trnblasStatus_t trnblasCgerc(trnblasHandle_t handle, int m, int n, const trnComplex* alpha, const trnComplex* x, int
                             incx, const trnComplex* y, int incy, trnComplex* A, int lda);
trnblasStatus_t trnblasChemv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnComplex* alpha,
                                const trnComplex* A, int64_t lda, const trnComplex* x, int64_t incx, const trnComplex*
                                beta, trnComplex* y, int64_t incy);
trnblasStatus_t trnblasCgeru_64(trnblasHandle_t handle, int64_t m, int64_t n, const trnComplex* alpha, const
                                trnComplex* x, int64_t incx, const trnComplex* y, int64_t incy, trnComplex* A, int64_t
                                lda);
trnblasStatus_t trnblasCgerc_64(trnblasHandle_t handle, int64_t m, int64_t n, const trnComplex* alpha, const
                                trnComplex* x, int64_t incx, const trnComplex* y, int64_t incy, trnComplex* A, int64_t
                                lda);
trnblasStatus_t trnblasZhemv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnDoubleComplex* alpha,
                             const trnDoubleComplex* A, int lda, const trnDoubleComplex* x, int incx, const
                             trnDoubleComplex* beta, trnDoubleComplex* y, int incy);
trnblasStatus_t trnblasZgeru(trnblasHandle_t handle, int m, int n, const trnDoubleComplex* alpha, const
                             trnDoubleComplex* x, int incx, const trnDoubleComplex* y, int incy, trnDoubleComplex* A,
                             int lda);
trnblasStatus_t trnblasZgerc(trnblasHandle_t handle, int m, int n, const trnDoubleComplex* alpha, const
                             trnDoubleComplex* x, int incx, const trnDoubleComplex* y, int incy, trnDoubleComplex* A,
                             int lda);
trnblasStatus_t trnblasZhemv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnDoubleComplex*
                                alpha, const trnDoubleComplex* A, int64_t lda, const trnDoubleComplex* x, int64_t
                                incx, const trnDoubleComplex* beta, trnDoubleComplex* y, int64_t incy);
trnblasStatus_t trnblasZgeru_64(trnblasHandle_t handle, int64_t m, int64_t n, const trnDoubleComplex* alpha, const
                                trnDoubleComplex* x, int64_t incx, const trnDoubleComplex* y, int64_t incy,
                                trnDoubleComplex* A, int64_t lda);
trnblasStatus_t trnblasZgerc_64(trnblasHandle_t handle, int64_t m, int64_t n, const trnDoubleComplex* alpha, const
                                trnDoubleComplex* x, int64_t incx, const trnDoubleComplex* y, int64_t incy,
                                trnDoubleComplex* A, int64_t lda);
/* hbmv, hpmv (band and packed Hermitian), each also _64. */
trnblasStatus_t trnblasChbmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, int k, const trnComplex* alpha,
                             const trnComplex* A, int lda, const trnComplex* x, int incx, const trnComplex* beta,
                             trnComplex* y, int incy);
trnblasStatus_t trnblasChpmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnComplex* alpha, const
                             trnComplex* AP, const trnComplex* x, int incx, const trnComplex* beta, trnComplex* y, int
                             incy);
trnblasStatus_t trnblasChbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, int64_t k, const
                                trnComplex* alpha, const trnComplex* A, int64_t lda, const trnComplex* x, int64_t
                                incx, const trnComplex* beta, trnComplex* y, int64_t incy);
trnblasStatus_t trnblasChpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnComplex* alpha,
                                const trnComplex* AP, const trnComplex* x, int64_t incx, const trnComplex* beta,
                                trnComplex* y, int64_t incy);
trnblasStatus_t trnblasZhbmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, int k, const trnDoubleComplex*
                             alpha, const trnDoubleComplex* A, int lda, const trnDoubleComplex* x, int incx, const
                             trnDoubleComplex* beta, trnDoubleComplex* y, int incy);
trnblasStatus_t trnblasZhpmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnDoubleComplex* alpha,
                             const trnDoubleComplex* AP, const trnDoubleComplex* x, int incx, const trnDoubleComplex*
                             beta, trnDoubleComplex* y, int incy);
trnblasStatus_t trnblasZhbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, int64_t k, const
                                trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda, const
                                trnDoubleComplex* x, int64_t incx, const trnDoubleComplex* beta, trnDoubleComplex* y,
                                int64_t incy);
trnblasStatus_t trnblasZhpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnDoubleComplex*
                                alpha, const trnDoubleComplex* AP, const trnDoubleComplex* x, int64_t incx, const
                                trnDoubleComplex* beta, trnDoubleComplex* y, int64_t incy);
/* her, hpr (real alpha), her2, hpr2: the uplo triangle only, real diagonal; each also _64. */
trnblasStatus_t trnblasCher(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const float* alpha, const
                            trnComplex* x, int incx, trnComplex* A, int lda);
trnblasStatus_t trnblasChpr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const float* alpha, const
                            trnComplex* x, int incx, trnComplex* AP);
trnblasStatus_t trnblasCher2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnComplex* alpha, const
                             trnComplex* x, int incx, const trnComplex* y, int incy, trnComplex* A, int lda);
trnblasStatus_t trnblasChpr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnComplex* alpha, const
                             trnComplex* x, int incx, const trnComplex* y, int incy, trnComplex* AP);
trnblasStatus_t trnblasCher_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const float* alpha, const
                               trnComplex* x, int64_t incx, trnComplex* A, int64_t lda);
trnblasStatus_t trnblasChpr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const float* alpha, const
                               trnComplex* x, int64_t incx, trnComplex* AP);
trnblasStatus_t trnblasCher2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnComplex* alpha,
                                const trnComplex* x, int64_t incx, const trnComplex* y, int64_t incy, trnComplex* A,
                                int64_t lda);
trnblasStatus_t trnblasChpr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnComplex* alpha,
                                const trnComplex* x, int64_t incx, const trnComplex* y, int64_t incy, trnComplex* AP);
trnblasStatus_t trnblasZher(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const double* alpha, const
                            trnDoubleComplex* x, int incx, trnDoubleComplex* A, int lda);
trnblasStatus_t trnblasZhpr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const double* alpha, const
                            trnDoubleComplex* x, int incx, trnDoubleComplex* AP);
trnblasStatus_t trnblasZher2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnDoubleComplex* alpha,
                             const trnDoubleComplex* x, int incx, const trnDoubleComplex* y, int incy,
                             trnDoubleComplex* A, int lda);
trnblasStatus_t trnblasZhpr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnDoubleComplex* alpha,
                             const trnDoubleComplex* x, int incx, const trnDoubleComplex* y, int incy,
                             trnDoubleComplex* AP);
trnblasStatus_t trnblasZher_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const double* alpha, const
                               trnDoubleComplex* x, int64_t incx, trnDoubleComplex* A, int64_t lda);
trnblasStatus_t trnblasZhpr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const double* alpha, const
                               trnDoubleComplex* x, int64_t incx, trnDoubleComplex* AP);
trnblasStatus_t trnblasZher2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnDoubleComplex*
                                alpha, const trnDoubleComplex* x, int64_t incx, const trnDoubleComplex* y, int64_t
                                incy, trnDoubleComplex* A, int64_t lda);
trnblasStatus_t trnblasZhpr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnDoubleComplex*
                                alpha, const trnDoubleComplex* x, int64_t incx, const trnDoubleComplex* y, int64_t
                                incy, trnDoubleComplex* AP);

/* Complex symmetric (symv, syr, syr2), banded (gbmv) and triangular (tr/tb/tp mv and sv; op N, T or C)
 * forms, each also _64; the stored operand is staged densely, then the complex gemv (4M) or, for the
 * solves, the real triangular solve of the unit system's real representation (docs/trnblas.md). */
trnblasStatus_t trnblasCsymv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnComplex* alpha, const
                             trnComplex* A, int lda, const trnComplex* x, int incx, const trnComplex* beta,
                             trnComplex* y, int incy);
trnblasStatus_t trnblasCsyr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnComplex* alpha, const
                            trnComplex* x, int incx, trnComplex* A, int lda);
trnblasStatus_t trnblasCsyr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnComplex* alpha, const
                             trnComplex* x, int incx, const trnComplex* y, int incy, trnComplex* A, int lda);
trnblasStatus_t trnblasCgbmv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, int kl, int ku, const
                             trnComplex* alpha, const trnComplex* A, int lda, const trnComplex* x, int incx, const
                             trnComplex* beta, trnComplex* y, int incy);
trnblasStatus_t trnblasCtrmv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const trnComplex* A, int lda, trnComplex* x, int incx);
trnblasStatus_t trnblasCtrsv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const trnComplex* A, int lda, trnComplex* x, int incx);
trnblasStatus_t trnblasCtbmv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, int k, const trnComplex* A, int lda, trnComplex* x, int
                             incx);
trnblasStatus_t trnblasCtbsv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, int k, const trnComplex* A, int lda, trnComplex* x, int
                             incx);
trnblasStatus_t trnblasCtpmv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const trnComplex* AP, trnComplex* x, int incx);
trnblasStatus_t trnblasCtpsv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const trnComplex* AP, trnComplex* x, int incx);
trnblasStatus_t trnblasCsymv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnComplex* alpha,
                                const trnComplex* A, int64_t lda, const trnComplex* x, int64_t incx, const trnComplex*
                                beta, trnComplex* y, int64_t incy);
trnblasStatus_t trnblasCsyr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnComplex* alpha,
                               const trnComplex* x, int64_t incx, trnComplex* A, int64_t lda);
trnblasStatus_t trnblasCsyr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnComplex* alpha,
                                const trnComplex* x, int64_t incx, const trnComplex* y, int64_t incy, trnComplex* A,
                                int64_t lda);
trnblasStatus_t trnblasCgbmv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n, int64_t kl,
                                int64_t ku, const trnComplex* alpha, const trnComplex* A, int64_t lda, const
                                trnComplex* x, int64_t incx, const trnComplex* beta, trnComplex* y, int64_t incy);
trnblasStatus_t trnblasCtrmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const trnComplex* A, int64_t lda, trnComplex* x,
                                int64_t incx);
trnblasStatus_t trnblasCtrsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const trnComplex* A, int64_t lda, trnComplex* x,
                                int64_t incx);
trnblasStatus_t trnblasCtbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, int64_t k, const trnComplex* A, int64_t lda,
                                trnComplex* x, int64_t incx);
trnblasStatus_t trnblasCtbsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, int64_t k, const trnComplex* A, int64_t lda,
                                trnComplex* x, int64_t incx);
trnblasStatus_t trnblasCtpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const trnComplex* AP, trnComplex* x, int64_t incx);
trnblasStatus_t trnblasCtpsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const trnComplex* AP, trnComplex* x, int64_t incx);
trnblasStatus_t trnblasZsymv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnDoubleComplex* alpha,
                             const trnDoubleComplex* A, int lda, const trnDoubleComplex* x, int incx, const
                             trnDoubleComplex* beta, trnDoubleComplex* y, int incy);
trnblasStatus_t trnblasZsyr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnDoubleComplex* alpha,
                            const trnDoubleComplex* x, int incx, trnDoubleComplex* A, int lda);
trnblasStatus_t trnblasZsyr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnDoubleComplex* alpha,
                             const trnDoubleComplex* x, int incx, const trnDoubleComplex* y, int incy,
                             trnDoubleComplex* A, int lda);
trnblasStatus_t trnblasZgbmv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, int kl, int ku, const
                             trnDoubleComplex* alpha, const trnDoubleComplex* A, int lda, const trnDoubleComplex* x,
                             int incx, const trnDoubleComplex* beta, trnDoubleComplex* y, int incy);
trnblasStatus_t trnblasZtrmv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const trnDoubleComplex* A, int lda, trnDoubleComplex* x,
                             int incx);
trnblasStatus_t trnblasZtrsv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const trnDoubleComplex* A, int lda, trnDoubleComplex* x,
                             int incx);
trnblasStatus_t trnblasZtbmv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, int k, const trnDoubleComplex* A, int lda,
                             trnDoubleComplex* x, int incx);
trnblasStatus_t trnblasZtbsv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, int k, const trnDoubleComplex* A, int lda,
                             trnDoubleComplex* x, int incx);
trnblasStatus_t trnblasZtpmv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const trnDoubleComplex* AP, trnDoubleComplex* x, int
                             incx);
trnblasStatus_t trnblasZtpsv(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                             trnblasDiagType_t diag, int n, const trnDoubleComplex* AP, trnDoubleComplex* x, int
                             incx);
trnblasStatus_t trnblasZsymv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnDoubleComplex*
                                alpha, const trnDoubleComplex* A, int64_t lda, const trnDoubleComplex* x, int64_t
                                incx, const trnDoubleComplex* beta, trnDoubleComplex* y, int64_t incy);
trnblasStatus_t trnblasZsyr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnDoubleComplex*
                               alpha, const trnDoubleComplex* x, int64_t incx, trnDoubleComplex* A, int64_t lda);
trnblasStatus_t trnblasZsyr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n, const trnDoubleComplex*
                                alpha, const trnDoubleComplex* x, int64_t incx, const trnDoubleComplex* y, int64_t
                                incy, trnDoubleComplex* A, int64_t lda);
trnblasStatus_t trnblasZgbmv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n, int64_t kl,
                                int64_t ku, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda,
                                const trnDoubleComplex* x, int64_t incx, const trnDoubleComplex* beta,
                                trnDoubleComplex* y, int64_t incy);
trnblasStatus_t trnblasZtrmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const trnDoubleComplex* A, int64_t lda,
                                trnDoubleComplex* x, int64_t incx);
trnblasStatus_t trnblasZtrsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const trnDoubleComplex* A, int64_t lda,
                                trnDoubleComplex* x, int64_t incx);
trnblasStatus_t trnblasZtbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, int64_t k, const trnDoubleComplex* A, int64_t lda,
                                trnDoubleComplex* x, int64_t incx);
trnblasStatus_t trnblasZtbsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, int64_t k, const trnDoubleComplex* A, int64_t lda,
                                trnDoubleComplex* x, int64_t incx);
trnblasStatus_t trnblasZtpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const trnDoubleComplex* AP, trnDoubleComplex* x,
                                int64_t incx);
trnblasStatus_t trnblasZtpsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t n, const trnDoubleComplex* AP, trnDoubleComplex* x,
                                int64_t incx);

/* ---- Level 3 beyond GEMM/SYRK (S/D/C/Z) and BLAS-like extensions ---- */
/* S/D; docs/trnblas.md "Level 3". TRSM solves in place (B := X); TRMM is cuBLAS's out-of-place form
 * (C = alpha op(A) B, C may be B). Only the uplo triangle of A (TRSM/TRMM/SYMM) or C (SYR2K/SYRKX)
 * is read or written. */
trnblasStatus_t trnblasStrsm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, const float* alpha,
                             const float* A, int lda, float* B, int ldb);
trnblasStatus_t trnblasStrsm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                const float* alpha, const float* A, int64_t lda, float* B, int64_t ldb);
trnblasStatus_t trnblasDtrsm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, const double* alpha,
                             const double* A, int lda, double* B, int ldb);
trnblasStatus_t trnblasDtrsm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                const double* alpha, const double* A, int64_t lda, double* B, int64_t ldb);
trnblasStatus_t trnblasStrmm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, const float* alpha,
                             const float* A, int lda, const float* B, int ldb, float* C, int ldc);
trnblasStatus_t trnblasStrmm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                const float* alpha, const float* A, int64_t lda, const float* B, int64_t ldb, float* C,
                                int64_t ldc);
trnblasStatus_t trnblasDtrmm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, const double* alpha,
                             const double* A, int lda, const double* B, int ldb, double* C, int ldc);
trnblasStatus_t trnblasDtrmm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                const double* alpha, const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
                                int64_t ldc);

/* Batched LU and inverse (cuBLAS BLAS-like extensions): S, D, C, Z; docs/trnblas.md "Batched LU".
 * getrfBatched: P may be NULL (no pivoting); info[b] = k if U(k,k) is exactly zero. getrsBatched:
 * devIpiv may be NULL; *info (host) = 0 or -position of the illegal argument. getriBatched: out of
 * place into C; info[b] = k for U(k,k) == 0 (C[b] not written). matinvBatched: n <= 32. */
trnblasStatus_t trnblasSgetrfBatched(trnblasHandle_t handle, int n, float* const A[], int lda, int* P, int* info,
                                      int batchSize);
trnblasStatus_t trnblasSgetrsBatched(trnblasHandle_t handle, trnblasOperation_t trans, int n, int nrhs,
                                      const float* const Aarray[], int lda, const int* devIpiv, float* const Barray[],
                                      int ldb, int* info, int batchSize);
trnblasStatus_t trnblasSgetriBatched(trnblasHandle_t handle, int n, const float* const A[], int lda, const int* P,
                                      float* const C[], int ldc, int* info, int batchSize);
trnblasStatus_t trnblasSmatinvBatched(trnblasHandle_t handle, int n, const float* const A[], int lda,
                                       float* const Ainv[], int lda_inv, int* info, int batchSize);
trnblasStatus_t trnblasDgetrfBatched(trnblasHandle_t handle, int n, double* const A[], int lda, int* P, int* info,
                                      int batchSize);
trnblasStatus_t trnblasDgetrsBatched(trnblasHandle_t handle, trnblasOperation_t trans, int n, int nrhs,
                                      const double* const Aarray[], int lda, const int* devIpiv, double* const Barray[],
                                      int ldb, int* info, int batchSize);
trnblasStatus_t trnblasDgetriBatched(trnblasHandle_t handle, int n, const double* const A[], int lda, const int* P,
                                      double* const C[], int ldc, int* info, int batchSize);
trnblasStatus_t trnblasDmatinvBatched(trnblasHandle_t handle, int n, const double* const A[], int lda,
                                       double* const Ainv[], int lda_inv, int* info, int batchSize);
trnblasStatus_t trnblasCgetrfBatched(trnblasHandle_t handle, int n, trnComplex* const A[], int lda, int* P, int* info,
                                      int batchSize);
trnblasStatus_t trnblasCgetrsBatched(trnblasHandle_t handle, trnblasOperation_t trans, int n, int nrhs,
                                      const trnComplex* const Aarray[], int lda, const int* devIpiv, trnComplex* const Barray[],
                                      int ldb, int* info, int batchSize);
trnblasStatus_t trnblasCgetriBatched(trnblasHandle_t handle, int n, const trnComplex* const A[], int lda, const int* P,
                                      trnComplex* const C[], int ldc, int* info, int batchSize);
trnblasStatus_t trnblasCmatinvBatched(trnblasHandle_t handle, int n, const trnComplex* const A[], int lda,
                                       trnComplex* const Ainv[], int lda_inv, int* info, int batchSize);
trnblasStatus_t trnblasZgetrfBatched(trnblasHandle_t handle, int n, trnDoubleComplex* const A[], int lda, int* P, int* info,
                                      int batchSize);
trnblasStatus_t trnblasZgetrsBatched(trnblasHandle_t handle, trnblasOperation_t trans, int n, int nrhs,
                                      const trnDoubleComplex* const Aarray[], int lda, const int* devIpiv, trnDoubleComplex* const Barray[],
                                      int ldb, int* info, int batchSize);
trnblasStatus_t trnblasZgetriBatched(trnblasHandle_t handle, int n, const trnDoubleComplex* const A[], int lda, const int* P,
                                      trnDoubleComplex* const C[], int ldc, int* info, int batchSize);
trnblasStatus_t trnblasZmatinvBatched(trnblasHandle_t handle, int n, const trnDoubleComplex* const A[], int lda,
                                       trnDoubleComplex* const Ainv[], int lda_inv, int* info, int batchSize);
/* trsmBatched (S/D/C/Z): TRSM per entry of the pointer arrays; positions as Strsm, batchCount 12. */
trnblasStatus_t trnblasStrsmBatched(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                     trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, const float* alpha,
                                     const float* const A[], int lda, float* const B[], int ldb, int batchCount);
trnblasStatus_t trnblasStrsmBatched_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                        trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                        const float* alpha, const float* const A[], int64_t lda, float* const B[],
                                        int64_t ldb, int64_t batchCount);
trnblasStatus_t trnblasDtrsmBatched(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                     trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, const double* alpha,
                                     const double* const A[], int lda, double* const B[], int ldb, int batchCount);
trnblasStatus_t trnblasDtrsmBatched_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                        trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                        const double* alpha, const double* const A[], int64_t lda, double* const B[],
                                        int64_t ldb, int64_t batchCount);
trnblasStatus_t trnblasCtrsmBatched(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                     trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, const trnComplex* alpha,
                                     const trnComplex* const A[], int lda, trnComplex* const B[], int ldb, int batchCount);
trnblasStatus_t trnblasCtrsmBatched_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                        trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                        const trnComplex* alpha, const trnComplex* const A[], int64_t lda, trnComplex* const B[],
                                        int64_t ldb, int64_t batchCount);
trnblasStatus_t trnblasZtrsmBatched(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                     trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, const trnDoubleComplex* alpha,
                                     const trnDoubleComplex* const A[], int lda, trnDoubleComplex* const B[], int ldb, int batchCount);
trnblasStatus_t trnblasZtrsmBatched_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                        trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                        const trnDoubleComplex* alpha, const trnDoubleComplex* const A[], int64_t lda, trnDoubleComplex* const B[],
                                        int64_t ldb, int64_t batchCount);

/* C/Z TRSM and TRMM: as S/D with trans N, T or C (conjugate transpose). */
trnblasStatus_t trnblasCtrsm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, const trnComplex* alpha,
                             const trnComplex* A, int lda, trnComplex* B, int ldb);
trnblasStatus_t trnblasCtrsm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                const trnComplex* alpha, const trnComplex* A, int64_t lda, trnComplex* B, int64_t ldb);
trnblasStatus_t trnblasCtrmm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, const trnComplex* alpha,
                             const trnComplex* A, int lda, const trnComplex* B, int ldb, trnComplex* C, int ldc);
trnblasStatus_t trnblasCtrmm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                const trnComplex* alpha, const trnComplex* A, int64_t lda, const trnComplex* B, int64_t ldb,
                                trnComplex* C, int64_t ldc);
trnblasStatus_t trnblasZtrsm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, const trnDoubleComplex* alpha,
                             const trnDoubleComplex* A, int lda, trnDoubleComplex* B, int ldb);
trnblasStatus_t trnblasZtrsm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda, trnDoubleComplex* B, int64_t ldb);
trnblasStatus_t trnblasZtrmm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n, const trnDoubleComplex* alpha,
                             const trnDoubleComplex* A, int lda, const trnDoubleComplex* B, int ldb, trnDoubleComplex* C, int ldc);
trnblasStatus_t trnblasZtrmm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda, const trnDoubleComplex* B, int64_t ldb,
                                trnDoubleComplex* C, int64_t ldc);
trnblasStatus_t trnblasSsymm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo, int m, int n,
                             const float* alpha, const float* A, int lda, const float* B, int ldb, const float* beta,
                             float* C, int ldc);
trnblasStatus_t trnblasSsymm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo, int64_t m,
                                int64_t n, const float* alpha, const float* A, int64_t lda, const float* B, int64_t ldb,
                                const float* beta, float* C, int64_t ldc);
trnblasStatus_t trnblasDsymm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo, int m, int n,
                             const double* alpha, const double* A, int lda, const double* B, int ldb, const double* beta,
                             double* C, int ldc);
trnblasStatus_t trnblasDsymm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo, int64_t m,
                                int64_t n, const double* alpha, const double* A, int64_t lda, const double* B, int64_t ldb,
                                const double* beta, double* C, int64_t ldc);
/* SYR2K: C = alpha (op(A) op(B)^T + op(B) op(A)^T) + beta C; SYRKX: C = alpha op(A) op(B)^T + beta C. */
trnblasStatus_t trnblasSsyr2k(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                              int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                              const float* beta, float* C, int ldc);
trnblasStatus_t trnblasSsyr2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                 int64_t n, int64_t k, const float* alpha, const float* A, int64_t lda, const float* B,
                                 int64_t ldb, const float* beta, float* C, int64_t ldc);
trnblasStatus_t trnblasDsyr2k(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                              int k, const double* alpha, const double* A, int lda, const double* B, int ldb,
                              const double* beta, double* C, int ldc);
trnblasStatus_t trnblasDsyr2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                 int64_t n, int64_t k, const double* alpha, const double* A, int64_t lda, const double* B,
                                 int64_t ldb, const double* beta, double* C, int64_t ldc);
trnblasStatus_t trnblasSsyrkx(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                              int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                              const float* beta, float* C, int ldc);
trnblasStatus_t trnblasSsyrkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                 int64_t n, int64_t k, const float* alpha, const float* A, int64_t lda, const float* B,
                                 int64_t ldb, const float* beta, float* C, int64_t ldc);
trnblasStatus_t trnblasDsyrkx(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                              int k, const double* alpha, const double* A, int lda, const double* B, int ldb,
                              const double* beta, double* C, int ldc);
trnblasStatus_t trnblasDsyrkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                 int64_t n, int64_t k, const double* alpha, const double* A, int64_t lda, const double* B,
                                 int64_t ldb, const double* beta, double* C, int64_t ldc);
/* Complex GEMM (transa/transb N, T or C = conjugate transpose): 4M, one real GEMM of the real
 * representation (Cgemm, Zgemm, the strided batches); 3M, Gauss's three real GEMMs (Cgemm3m, Zgemm3m:
 * less TensorE work, weaker imaginary-part accuracy). docs/trnblas.md "Complex GEMM". */
trnblasStatus_t trnblasCgemm(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,
                             int n, int k, const trnComplex* alpha, const trnComplex* A, int lda, const trnComplex* B, int ldb,
                             const trnComplex* beta, trnComplex* C, int ldc);
trnblasStatus_t trnblasCgemm_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                int64_t m, int64_t n, int64_t k, const trnComplex* alpha, const trnComplex* A, int64_t lda,
                                const trnComplex* B, int64_t ldb, const trnComplex* beta, trnComplex* C, int64_t ldc);
trnblasStatus_t trnblasZgemm(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,
                             int n, int k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int lda, const trnDoubleComplex* B, int ldb,
                             const trnDoubleComplex* beta, trnDoubleComplex* C, int ldc);
trnblasStatus_t trnblasZgemm_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                int64_t m, int64_t n, int64_t k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda,
                                const trnDoubleComplex* B, int64_t ldb, const trnDoubleComplex* beta, trnDoubleComplex* C, int64_t ldc);
trnblasStatus_t trnblasCgemm3m(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,
                             int n, int k, const trnComplex* alpha, const trnComplex* A, int lda, const trnComplex* B, int ldb,
                             const trnComplex* beta, trnComplex* C, int ldc);
trnblasStatus_t trnblasCgemm3m_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                int64_t m, int64_t n, int64_t k, const trnComplex* alpha, const trnComplex* A, int64_t lda,
                                const trnComplex* B, int64_t ldb, const trnComplex* beta, trnComplex* C, int64_t ldc);
trnblasStatus_t trnblasZgemm3m(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,
                             int n, int k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int lda, const trnDoubleComplex* B, int ldb,
                             const trnDoubleComplex* beta, trnDoubleComplex* C, int ldc);
trnblasStatus_t trnblasZgemm3m_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                int64_t m, int64_t n, int64_t k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda,
                                const trnDoubleComplex* B, int64_t ldb, const trnDoubleComplex* beta, trnDoubleComplex* C, int64_t ldc);
trnblasStatus_t trnblasCgemmStridedBatched(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                           int m, int n, int k, const trnComplex* alpha, const trnComplex* A, int lda,
                                           long long strideA, const trnComplex* B, int ldb, long long strideB,
                                           const trnComplex* beta, trnComplex* C, int ldc, long long strideC, int batchCount);
trnblasStatus_t trnblasCgemmStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                              int64_t m, int64_t n, int64_t k, const trnComplex* alpha, const trnComplex* A,
                                              int64_t lda, long long strideA, const trnComplex* B, int64_t ldb,
                                              long long strideB, const trnComplex* beta, trnComplex* C, int64_t ldc,
                                              long long strideC, int64_t batchCount);
trnblasStatus_t trnblasZgemmStridedBatched(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                           int m, int n, int k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int lda,
                                           long long strideA, const trnDoubleComplex* B, int ldb, long long strideB,
                                           const trnDoubleComplex* beta, trnDoubleComplex* C, int ldc, long long strideC, int batchCount);
trnblasStatus_t trnblasZgemmStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                              int64_t m, int64_t n, int64_t k, const trnDoubleComplex* alpha, const trnDoubleComplex* A,
                                              int64_t lda, long long strideA, const trnDoubleComplex* B, int64_t ldb,
                                              long long strideB, const trnDoubleComplex* beta, trnDoubleComplex* C, int64_t ldc,
                                              long long strideC, int64_t batchCount);

/* GEAM (C = alpha op(A) + beta op(B); in place: C == A with transa N and lda == ldc, or C == B with
 * transb N and ldb == ldc) and DGMM (C = A diag(x) for mode RIGHT, diag(x) A for LEFT; C may be A with
 * lda == ldc). docs/trnblas.md "GEAM and DGMM". */
trnblasStatus_t trnblasSgeam(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,
                             int n, const float* alpha, const float* A, int lda, const float* beta, const float* B,
                             int ldb, float* C, int ldc);
trnblasStatus_t trnblasSgeam_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
                             int64_t n, const float* alpha, const float* A, int64_t lda, const float* beta, const float* B,
                             int64_t ldb, float* C, int64_t ldc);
trnblasStatus_t trnblasDgeam(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,
                             int n, const double* alpha, const double* A, int lda, const double* beta, const double* B,
                             int ldb, double* C, int ldc);
trnblasStatus_t trnblasDgeam_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
                             int64_t n, const double* alpha, const double* A, int64_t lda, const double* beta, const double* B,
                             int64_t ldb, double* C, int64_t ldc);
trnblasStatus_t trnblasCgeam(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,
                             int n, const trnComplex* alpha, const trnComplex* A, int lda, const trnComplex* beta, const trnComplex* B,
                             int ldb, trnComplex* C, int ldc);
trnblasStatus_t trnblasCgeam_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
                             int64_t n, const trnComplex* alpha, const trnComplex* A, int64_t lda, const trnComplex* beta, const trnComplex* B,
                             int64_t ldb, trnComplex* C, int64_t ldc);
trnblasStatus_t trnblasZgeam(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,
                             int n, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int lda, const trnDoubleComplex* beta, const trnDoubleComplex* B,
                             int ldb, trnDoubleComplex* C, int ldc);
trnblasStatus_t trnblasZgeam_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
                             int64_t n, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda, const trnDoubleComplex* beta, const trnDoubleComplex* B,
                             int64_t ldb, trnDoubleComplex* C, int64_t ldc);
trnblasStatus_t trnblasSdgmm(trnblasHandle_t handle, trnblasSideMode_t mode, int m, int n, const float* A,
                             int lda, const float* x, int incx, float* C, int ldc);
trnblasStatus_t trnblasSdgmm_64(trnblasHandle_t handle, trnblasSideMode_t mode, int64_t m, int64_t n, const float* A,
                             int64_t lda, const float* x, int64_t incx, float* C, int64_t ldc);
trnblasStatus_t trnblasDdgmm(trnblasHandle_t handle, trnblasSideMode_t mode, int m, int n, const double* A,
                             int lda, const double* x, int incx, double* C, int ldc);
trnblasStatus_t trnblasDdgmm_64(trnblasHandle_t handle, trnblasSideMode_t mode, int64_t m, int64_t n, const double* A,
                             int64_t lda, const double* x, int64_t incx, double* C, int64_t ldc);
trnblasStatus_t trnblasCdgmm(trnblasHandle_t handle, trnblasSideMode_t mode, int m, int n, const trnComplex* A,
                             int lda, const trnComplex* x, int incx, trnComplex* C, int ldc);
trnblasStatus_t trnblasCdgmm_64(trnblasHandle_t handle, trnblasSideMode_t mode, int64_t m, int64_t n, const trnComplex* A,
                             int64_t lda, const trnComplex* x, int64_t incx, trnComplex* C, int64_t ldc);
trnblasStatus_t trnblasZdgmm(trnblasHandle_t handle, trnblasSideMode_t mode, int m, int n, const trnDoubleComplex* A,
                             int lda, const trnDoubleComplex* x, int incx, trnDoubleComplex* C, int ldc);
trnblasStatus_t trnblasZdgmm_64(trnblasHandle_t handle, trnblasSideMode_t mode, int64_t m, int64_t n, const trnDoubleComplex* A,
                             int64_t lda, const trnDoubleComplex* x, int64_t incx, trnDoubleComplex* C, int64_t ldc);

/* Complex SYRK/HERK family and SYMM/HEMM (uplo triangle only; herk/her2k/herkx: real beta (herk: real
 * alpha too), the diagonal's imaginary parts read and written as zero; trans N or T for sym, N or C for
 * herm). docs/trnblas.md "Complex SYRK, HERK, HEMM". */
trnblasStatus_t trnblasCsyrk(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                             int k, const trnComplex* alpha, const trnComplex* A, int lda, const trnComplex* beta, trnComplex* C, int ldc);
trnblasStatus_t trnblasCherk(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                             int k, const float* alpha, const trnComplex* A, int lda, const float* beta, trnComplex* C, int ldc);
trnblasStatus_t trnblasCsyr2k(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                             int k, const trnComplex* alpha, const trnComplex* A, int lda, const trnComplex* B, int ldb,
                             const trnComplex* beta, trnComplex* C, int ldc);
trnblasStatus_t trnblasCsyrkx(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                             int k, const trnComplex* alpha, const trnComplex* A, int lda, const trnComplex* B, int ldb,
                             const trnComplex* beta, trnComplex* C, int ldc);
trnblasStatus_t trnblasCher2k(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                             int k, const trnComplex* alpha, const trnComplex* A, int lda, const trnComplex* B, int ldb,
                             const float* beta, trnComplex* C, int ldc);
trnblasStatus_t trnblasCherkx(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                             int k, const trnComplex* alpha, const trnComplex* A, int lda, const trnComplex* B, int ldb,
                             const float* beta, trnComplex* C, int ldc);
trnblasStatus_t trnblasCsymm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo, int m,
                             int n, const trnComplex* alpha, const trnComplex* A, int lda, const trnComplex* B, int ldb,
                             const trnComplex* beta, trnComplex* C, int ldc);
trnblasStatus_t trnblasChemm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo, int m,
                             int n, const trnComplex* alpha, const trnComplex* A, int lda, const trnComplex* B, int ldb,
                             const trnComplex* beta, trnComplex* C, int ldc);
trnblasStatus_t trnblasCsyrk_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                             int64_t k, const trnComplex* alpha, const trnComplex* A, int64_t lda, const trnComplex* beta, trnComplex* C, int64_t ldc);
trnblasStatus_t trnblasCherk_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                             int64_t k, const float* alpha, const trnComplex* A, int64_t lda, const float* beta, trnComplex* C, int64_t ldc);
trnblasStatus_t trnblasCsyr2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                             int64_t k, const trnComplex* alpha, const trnComplex* A, int64_t lda, const trnComplex* B, int64_t ldb,
                             const trnComplex* beta, trnComplex* C, int64_t ldc);
trnblasStatus_t trnblasCsyrkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                             int64_t k, const trnComplex* alpha, const trnComplex* A, int64_t lda, const trnComplex* B, int64_t ldb,
                             const trnComplex* beta, trnComplex* C, int64_t ldc);
trnblasStatus_t trnblasCher2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                             int64_t k, const trnComplex* alpha, const trnComplex* A, int64_t lda, const trnComplex* B, int64_t ldb,
                             const float* beta, trnComplex* C, int64_t ldc);
trnblasStatus_t trnblasCherkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                             int64_t k, const trnComplex* alpha, const trnComplex* A, int64_t lda, const trnComplex* B, int64_t ldb,
                             const float* beta, trnComplex* C, int64_t ldc);
trnblasStatus_t trnblasCsymm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo, int64_t m,
                             int64_t n, const trnComplex* alpha, const trnComplex* A, int64_t lda, const trnComplex* B, int64_t ldb,
                             const trnComplex* beta, trnComplex* C, int64_t ldc);
trnblasStatus_t trnblasChemm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo, int64_t m,
                             int64_t n, const trnComplex* alpha, const trnComplex* A, int64_t lda, const trnComplex* B, int64_t ldb,
                             const trnComplex* beta, trnComplex* C, int64_t ldc);
trnblasStatus_t trnblasZsyrk(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                             int k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int lda, const trnDoubleComplex* beta, trnDoubleComplex* C, int ldc);
trnblasStatus_t trnblasZherk(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                             int k, const double* alpha, const trnDoubleComplex* A, int lda, const double* beta, trnDoubleComplex* C, int ldc);
trnblasStatus_t trnblasZsyr2k(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                             int k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int lda, const trnDoubleComplex* B, int ldb,
                             const trnDoubleComplex* beta, trnDoubleComplex* C, int ldc);
trnblasStatus_t trnblasZsyrkx(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                             int k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int lda, const trnDoubleComplex* B, int ldb,
                             const trnDoubleComplex* beta, trnDoubleComplex* C, int ldc);
trnblasStatus_t trnblasZher2k(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                             int k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int lda, const trnDoubleComplex* B, int ldb,
                             const double* beta, trnDoubleComplex* C, int ldc);
trnblasStatus_t trnblasZherkx(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n,
                             int k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int lda, const trnDoubleComplex* B, int ldb,
                             const double* beta, trnDoubleComplex* C, int ldc);
trnblasStatus_t trnblasZsymm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo, int m,
                             int n, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int lda, const trnDoubleComplex* B, int ldb,
                             const trnDoubleComplex* beta, trnDoubleComplex* C, int ldc);
trnblasStatus_t trnblasZhemm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo, int m,
                             int n, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int lda, const trnDoubleComplex* B, int ldb,
                             const trnDoubleComplex* beta, trnDoubleComplex* C, int ldc);
trnblasStatus_t trnblasZsyrk_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                             int64_t k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda, const trnDoubleComplex* beta, trnDoubleComplex* C, int64_t ldc);
trnblasStatus_t trnblasZherk_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                             int64_t k, const double* alpha, const trnDoubleComplex* A, int64_t lda, const double* beta, trnDoubleComplex* C, int64_t ldc);
trnblasStatus_t trnblasZsyr2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                             int64_t k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda, const trnDoubleComplex* B, int64_t ldb,
                             const trnDoubleComplex* beta, trnDoubleComplex* C, int64_t ldc);
trnblasStatus_t trnblasZsyrkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                             int64_t k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda, const trnDoubleComplex* B, int64_t ldb,
                             const trnDoubleComplex* beta, trnDoubleComplex* C, int64_t ldc);
trnblasStatus_t trnblasZher2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                             int64_t k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda, const trnDoubleComplex* B, int64_t ldb,
                             const double* beta, trnDoubleComplex* C, int64_t ldc);
trnblasStatus_t trnblasZherkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                             int64_t k, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda, const trnDoubleComplex* B, int64_t ldb,
                             const double* beta, trnDoubleComplex* C, int64_t ldc);
trnblasStatus_t trnblasZsymm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo, int64_t m,
                             int64_t n, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda, const trnDoubleComplex* B, int64_t ldb,
                             const trnDoubleComplex* beta, trnDoubleComplex* C, int64_t ldc);
trnblasStatus_t trnblasZhemm_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo, int64_t m,
                             int64_t n, const trnDoubleComplex* alpha, const trnDoubleComplex* A, int64_t lda, const trnDoubleComplex* B, int64_t ldb,
                             const trnDoubleComplex* beta, trnDoubleComplex* C, int64_t ldc);

/* cuBLAS Extensions: the rank-k updates with typed A and C. A is TRN_C_32F or TRN_C_8I (complex int8
 * pairs, widened exactly and multiplied in the bf16 mode), C is TRN_C_32F; other types return
 * NOT_SUPPORTED. Positions: uplo 1, trans 2, n 3, k 4, alpha 5, A 6, Atype 7, lda 8, beta 9, C 10,
 * Ctype 11, ldc 12. The 3m forms compute what CsyrkEx/CherkEx compute (4M products: the rank-k
 * kernels have no 3M split). */
trnblasStatus_t trnblasCsyrkEx(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,
                               const trnComplex* alpha, const void* A, trnDataType_t Atype, int lda,
                               const trnComplex* beta, void* C, trnDataType_t Ctype, int ldc);
trnblasStatus_t trnblasCsyrkEx_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                                  int64_t k, const trnComplex* alpha, const void* A, trnDataType_t Atype, int64_t lda,
                                  const trnComplex* beta, void* C, trnDataType_t Ctype, int64_t ldc);
trnblasStatus_t trnblasCsyrk3mEx(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,
                                 const trnComplex* alpha, const void* A, trnDataType_t Atype, int lda,
                                 const trnComplex* beta, void* C, trnDataType_t Ctype, int ldc);
trnblasStatus_t trnblasCsyrk3mEx_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                    int64_t n, int64_t k, const trnComplex* alpha, const void* A, trnDataType_t Atype,
                                    int64_t lda, const trnComplex* beta, void* C, trnDataType_t Ctype, int64_t ldc);
trnblasStatus_t trnblasCherkEx(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,
                               const float* alpha, const void* A, trnDataType_t Atype, int lda, const float* beta,
                               void* C, trnDataType_t Ctype, int ldc);
trnblasStatus_t trnblasCherkEx_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                                  int64_t k, const float* alpha, const void* A, trnDataType_t Atype, int64_t lda,
                                  const float* beta, void* C, trnDataType_t Ctype, int64_t ldc);
trnblasStatus_t trnblasCherk3mEx(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int n, int k,
                                 const float* alpha, const void* A, trnDataType_t Atype, int lda, const float* beta,
                                 void* C, trnDataType_t Ctype, int ldc);
trnblasStatus_t trnblasCherk3mEx_64(trnblasHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                    int64_t n, int64_t k, const float* alpha, const void* A, trnDataType_t Atype,
                                    int64_t lda, const float* beta, void* C, trnDataType_t Ctype, int64_t ldc);

/* cuBLAS Extensions: a triangular matrix between LAPACK's packed (TP) and full (TR) storage, uplo's
 * triangle only (the other one of A is not touched). tpttr: uplo 1, n 2, AP 3, A 4, lda 5; trttp:
 * uplo 1, n 2, A 3, lda 4, AP 5. */
trnblasStatus_t trnblasStpttr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const float* AP, float* A,
                              int lda);
trnblasStatus_t trnblasDtpttr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const double* AP, double* A,
                              int lda);
trnblasStatus_t trnblasCtpttr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnComplex* AP,
                              trnComplex* A, int lda);
trnblasStatus_t trnblasZtpttr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnDoubleComplex* AP,
                              trnDoubleComplex* A, int lda);
trnblasStatus_t trnblasStrttp(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const float* A, int lda,
                              float* AP);
trnblasStatus_t trnblasDtrttp(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const double* A, int lda,
                              double* AP);
trnblasStatus_t trnblasCtrttp(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnComplex* A, int lda,
                              trnComplex* AP);
trnblasStatus_t trnblasZtrttp(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const trnDoubleComplex* A, int lda,
                              trnDoubleComplex* AP);

/* ---- Helpers, mixed-type and batched gemv, GEMM name-compatibility forms (capi_helpers.cpp,
 * capi_level2_batched.cpp). Memory is host memory: Set/Get Vector/Matrix are strided host copies with
 * cuBLAS's checks (elemSize, increments, leading dimensions > 0: INVALID_VALUE; an unaddressable
 * pointer: MAPPING_ERROR); the Async forms take any stream and complete before returning. */
trnblasStatus_t trnblasGetProperty(libraryPropertyType type, int* value);
trnblasStatus_t trnblasSetVector(int n, int elemSize, const void* x, int incx, void* devicePtr, int incy);
trnblasStatus_t trnblasGetVector(int n, int elemSize, const void* x, int incx, void* y, int incy);
trnblasStatus_t trnblasSetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb);
trnblasStatus_t trnblasGetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb);
trnblasStatus_t trnblasSetVectorAsync(int n, int elemSize, const void* hostPtr, int incx, void* devicePtr, int incy,
                                      trnStream_t stream);
trnblasStatus_t trnblasGetVectorAsync(int n, int elemSize, const void* devicePtr, int incx, void* hostPtr, int incy,
                                      trnStream_t stream);
trnblasStatus_t trnblasSetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb,
                                      trnStream_t stream);
trnblasStatus_t trnblasGetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb,
                                      trnStream_t stream);
trnblasStatus_t trnblasSetVector_64(int64_t n, int64_t elemSize, const void* x, int64_t incx, void* devicePtr,
                                    int64_t incy);
trnblasStatus_t trnblasGetVector_64(int64_t n, int64_t elemSize, const void* x, int64_t incx, void* y, int64_t incy);
trnblasStatus_t trnblasSetMatrix_64(int64_t rows, int64_t cols, int64_t elemSize, const void* A, int64_t lda, void* B,
                                    int64_t ldb);
trnblasStatus_t trnblasGetMatrix_64(int64_t rows, int64_t cols, int64_t elemSize, const void* A, int64_t lda, void* B,
                                    int64_t ldb);
trnblasStatus_t trnblasSetVectorAsync_64(int64_t n, int64_t elemSize, const void* hostPtr, int64_t incx,
                                         void* devicePtr, int64_t incy, trnStream_t stream);
trnblasStatus_t trnblasGetVectorAsync_64(int64_t n, int64_t elemSize, const void* devicePtr, int64_t incx,
                                         void* hostPtr, int64_t incy, trnStream_t stream);
trnblasStatus_t trnblasSetMatrixAsync_64(int64_t rows, int64_t cols, int64_t elemSize, const void* A, int64_t lda,
                                         void* B, int64_t ldb, trnStream_t stream);
trnblasStatus_t trnblasGetMatrixAsync_64(int64_t rows, int64_t cols, int64_t elemSize, const void* A, int64_t lda,
                                         void* B, int64_t ldb, trnStream_t stream);

/* rotg / rotmg under their _64 names (no size argument: the same functions). */
trnblasStatus_t trnblasSrotg_64(trnblasHandle_t handle, float* a, float* b, float* c, float* s);
trnblasStatus_t trnblasDrotg_64(trnblasHandle_t handle, double* a, double* b, double* c, double* s);
trnblasStatus_t trnblasCrotg_64(trnblasHandle_t handle, trnComplex* a, trnComplex* b, float* c, trnComplex* s);
trnblasStatus_t trnblasZrotg_64(trnblasHandle_t handle, trnDoubleComplex* a, trnDoubleComplex* b, double* c,
                                trnDoubleComplex* s);
trnblasStatus_t trnblasSrotmg_64(trnblasHandle_t handle, float* d1, float* d2, float* x1, const float* y1,
                                 float* param);
trnblasStatus_t trnblasDrotmg_64(trnblasHandle_t handle, double* d1, double* d2, double* x1, const double* y1,
                                 double* param);

/* GEMM name-compatibility forms over the GemmEx machinery: Hgemm* = GemmEx with 16F A, B, C and
 * COMPUTE_16F; SgemmEx = GemmEx with COMPUTE_32F; CgemmEx and Cgemm3mEx = GemmEx with complex types and
 * COMPUTE_32F; Cgemm3mBatched / StridedBatched = CgemmBatched / StridedBatched (the 3M algorithm is
 * cuBLAS's internal choice; trnsci's complex GEMM is its 4M real representation, docs/trnblas.md). */
trnblasStatus_t trnblasHgemm(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m, int n,
                             int k, const trnHalf* alpha, const trnHalf* A, int lda, const trnHalf* B, int ldb,
                             const trnHalf* beta, trnHalf* C, int ldc);
trnblasStatus_t trnblasHgemm_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
                                int64_t n, int64_t k, const trnHalf* alpha, const trnHalf* A, int64_t lda,
                                const trnHalf* B, int64_t ldb, const trnHalf* beta, trnHalf* C, int64_t ldc);
trnblasStatus_t trnblasHgemmBatched(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,
                                    int n, int k, const trnHalf* alpha, const trnHalf* const Aarray[], int lda,
                                    const trnHalf* const Barray[], int ldb, const trnHalf* beta,
                                    trnHalf* const Carray[], int ldc, int batchCount);
trnblasStatus_t trnblasHgemmBatched_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                       int64_t m, int64_t n, int64_t k, const trnHalf* alpha,
                                       const trnHalf* const Aarray[], int64_t lda, const trnHalf* const Barray[],
                                       int64_t ldb, const trnHalf* beta, trnHalf* const Carray[], int64_t ldc,
                                       int64_t batchCount);
trnblasStatus_t trnblasHgemmStridedBatched(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                           int m, int n, int k, const trnHalf* alpha, const trnHalf* A, int lda,
                                           long long int strideA, const trnHalf* B, int ldb, long long int strideB,
                                           const trnHalf* beta, trnHalf* C, int ldc, long long int strideC,
                                           int batchCount);
trnblasStatus_t trnblasHgemmStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                              trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                              const trnHalf* alpha, const trnHalf* A, int64_t lda,
                                              long long int strideA, const trnHalf* B, int64_t ldb,
                                              long long int strideB, const trnHalf* beta, trnHalf* C, int64_t ldc,
                                              long long int strideC, int64_t batchCount);
trnblasStatus_t trnblasSgemmEx(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,
                               int n, int k, const float* alpha, const void* A, trnDataType Atype, int lda,
                               const void* B, trnDataType Btype, int ldb, const float* beta, void* C,
                               trnDataType Ctype, int ldc);
trnblasStatus_t trnblasSgemmEx_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                  int64_t m, int64_t n, int64_t k, const float* alpha, const void* A,
                                  trnDataType Atype, int64_t lda, const void* B, trnDataType Btype, int64_t ldb,
                                  const float* beta, void* C, trnDataType Ctype, int64_t ldc);
trnblasStatus_t trnblasCgemmEx(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,
                               int n, int k, const trnComplex* alpha, const void* A, trnDataType Atype, int lda,
                               const void* B, trnDataType Btype, int ldb, const trnComplex* beta, void* C,
                               trnDataType Ctype, int ldc);
trnblasStatus_t trnblasCgemmEx_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                  int64_t m, int64_t n, int64_t k, const trnComplex* alpha, const void* A,
                                  trnDataType Atype, int64_t lda, const void* B, trnDataType Btype, int64_t ldb,
                                  const trnComplex* beta, void* C, trnDataType Ctype, int64_t ldc);
trnblasStatus_t trnblasCgemm3mEx(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,
                                 int n, int k, const trnComplex* alpha, const void* A, trnDataType Atype, int lda,
                                 const void* B, trnDataType Btype, int ldb, const trnComplex* beta, void* C,
                                 trnDataType Ctype, int ldc);
trnblasStatus_t trnblasCgemm3mEx_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                    int64_t m, int64_t n, int64_t k, const trnComplex* alpha, const void* A,
                                    trnDataType Atype, int64_t lda, const void* B, trnDataType Btype, int64_t ldb,
                                    const trnComplex* beta, void* C, trnDataType Ctype, int64_t ldc);
trnblasStatus_t trnblasCgemm3mBatched(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                      int m, int n, int k, const trnComplex* alpha, const trnComplex* const Aarray[],
                                      int lda, const trnComplex* const Barray[], int ldb, const trnComplex* beta,
                                      trnComplex* const Carray[], int ldc, int batchCount);
trnblasStatus_t trnblasCgemm3mBatched_64(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                         int64_t m, int64_t n, int64_t k, const trnComplex* alpha,
                                         const trnComplex* const Aarray[], int64_t lda,
                                         const trnComplex* const Barray[], int64_t ldb, const trnComplex* beta,
                                         trnComplex* const Carray[], int64_t ldc, int64_t batchCount);
trnblasStatus_t trnblasCgemm3mStridedBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                             trnblasOperation_t transb, int m, int n, int k, const trnComplex* alpha,
                                             const trnComplex* A, int lda, long long int strideA, const trnComplex* B,
                                             int ldb, long long int strideB, const trnComplex* beta, trnComplex* C,
                                             int ldc, long long int strideC, int batchCount);
trnblasStatus_t trnblasCgemm3mStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                                trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                                const trnComplex* alpha, const trnComplex* A, int64_t lda,
                                                long long int strideA, const trnComplex* B, int64_t ldb,
                                                long long int strideB, const trnComplex* beta, trnComplex* C,
                                                int64_t ldc, long long int strideC, int64_t batchCount);

/* gemvBatched / gemvStridedBatched: y_b = alpha op(A_b) x_b + beta y_b for b < batchCount, each a gemv
 * on the tile kernels (one report for the call). S/D/C/Z, and the mixed forms with float scalars:
 * HSH (half A, x, y), HSS (half A, x; float y), TST (bfloat16 A, x, y), TSS (bfloat16 A, x; float y) —
 * the 16-bit operands widen exactly to fp32, the product is the fp32 gemv's, a 16-bit y is rounded to
 * nearest even once at the end. */
#define TRNBLAS_GEMV_BATCHED_DECL(NAME, TA, TS, TY)                                                                    \
  trnblasStatus_t trnblas##NAME##gemvBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,          \
                                             const TS* alpha, const TA* const Aarray[], int lda,                      \
                                             const TA* const xarray[], int incx, const TS* beta,                      \
                                             TY* const yarray[], int incy, int batchCount);                           \
  trnblasStatus_t trnblas##NAME##gemvBatched_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,          \
                                                int64_t n, const TS* alpha, const TA* const Aarray[], int64_t lda,    \
                                                const TA* const xarray[], int64_t incx, const TS* beta,               \
                                                TY* const yarray[], int64_t incy, int64_t batchCount);                \
  trnblasStatus_t trnblas##NAME##gemvStridedBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,   \
                                                    const TS* alpha, const TA* A, int lda, long long int strideA,     \
                                                    const TA* x, int incx, long long int stridex, const TS* beta,     \
                                                    TY* y, int incy, long long int stridey, int batchCount);          \
  trnblasStatus_t trnblas##NAME##gemvStridedBatched_64(                                                               \
      trnblasHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n, const TS* alpha, const TA* A,           \
      int64_t lda, long long int strideA, const TA* x, int64_t incx, long long int stridex, const TS* beta, TY* y,    \
      int64_t incy, long long int stridey, int64_t batchCount);
TRNBLAS_GEMV_BATCHED_DECL(S, float, float, float)
TRNBLAS_GEMV_BATCHED_DECL(D, double, double, double)
TRNBLAS_GEMV_BATCHED_DECL(C, trnComplex, trnComplex, trnComplex)
TRNBLAS_GEMV_BATCHED_DECL(Z, trnDoubleComplex, trnDoubleComplex, trnDoubleComplex)
TRNBLAS_GEMV_BATCHED_DECL(HSH, trnHalf, float, trnHalf)
TRNBLAS_GEMV_BATCHED_DECL(HSS, trnHalf, float, float)
TRNBLAS_GEMV_BATCHED_DECL(TST, trnBfloat16, float, trnBfloat16)
TRNBLAS_GEMV_BATCHED_DECL(TSS, trnBfloat16, float, float)
#undef TRNBLAS_GEMV_BATCHED_DECL

/* Batched QR and least squares (cuBLAS BLAS-like extensions, S/D/C/Z; docs/trnblas.md "Batched QR").
 * geqrfBatched: A[b] = Q R in place (Householder vectors below the diagonal, LAPACK's storage),
 * TauArray[b] min(m, n) scalars. gelsBatched: m >= n and trans N only (else NOT_SUPPORTED), A[b]
 * overwritten by its QR, C[b](0:n, :) by the least-squares solution; devInfoArray[b] = k if R(k,k)
 * is exactly zero. For both, *info (host) = 0 or -position of the illegal argument. */
#define TRNBLAS_QR_BATCHED_DECL(P, T)                                                                               \
  trnblasStatus_t trnblas##P##geqrfBatched(trnblasHandle_t handle, int m, int n, T* const Aarray[], int lda,       \
                                           T* const TauArray[], int* info, int batchSize);                        \
  trnblasStatus_t trnblas##P##gelsBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, int nrhs, \
                                          T* const Aarray[], int lda, T* const Carray[], int ldc, int* info,       \
                                          int* devInfoArray, int batchSize);
TRNBLAS_QR_BATCHED_DECL(S, float)
TRNBLAS_QR_BATCHED_DECL(D, double)
TRNBLAS_QR_BATCHED_DECL(C, trnComplex)
TRNBLAS_QR_BATCHED_DECL(Z, trnDoubleComplex)
#undef TRNBLAS_QR_BATCHED_DECL

/* Uint8gemmBias (declared, undocumented by NVIDIA; gemmlowp's EightBitIntGemm semantics, docs/trnblas.md
 * "Uint8gemmBias"): C = clamp_[0,255](((sum (op(A) + A_bias)(op(B) + B_bias) + C_bias) * C_mult
 * + 2^(C_shift-1)) >> C_shift), exact integers, 0 <= C_shift <= 31, transc != N: C stored transposed. */
trnblasStatus_t trnblasUint8gemmBias(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                                     trnblasOperation_t transc, int m, int n, int k, const unsigned char* A, int A_bias,
                                     int lda, const unsigned char* B, int B_bias, int ldb, unsigned char* C, int C_bias,
                                     int ldc, int C_mult, int C_shift);

#ifdef __cplusplus
}
#endif
#include "trnblas_v2_names.h" /* the _v2 spellings (trnblasSgemm_v2 ...), as cublas_api.h declares them */
#endif /* TRNBLAS_H */
