/* trnsparse.h - cuSPARSE-shaped C API of trnsparse: block-sparse (BSR) SpMM / SpMV / SDDMM as tile
 * kernels on an emulated NeuronCore. Prefix substitution (cusparse -> trnsparse, CUSPARSE ->
 * TRNSPARSE, CUDA_R_ -> TRN_R_) ports a cuSPARSE program: same function names, argument order and
 * meaning, same numeric enum values (cuSPARSE 12.6.3, CUDA 13 headers). Differences: pointers are
 * host pointers, execution is synchronous (streams are stored and returned), no external buffer is
 * ever needed (the _bufferSize queries return a small fixed size and NULL buffers are accepted).
 * Parameter positions in log lines are 1-based and do not count the handle. Semantics, accuracy
 * and limits: docs/trnsparse.md. Pure C (C99). */
#ifndef TRNSPARSE_H
#define TRNSPARSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trnComplex.h"
#include "trncore.h"
#include "trnprofile.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TRNSPARSE_VER_MAJOR 0
#define TRNSPARSE_VER_MINOR 1
#define TRNSPARSE_VER_PATCH 0
#define TRNSPARSE_VERSION (TRNSPARSE_VER_MAJOR * 1000 + TRNSPARSE_VER_MINOR * 100 + TRNSPARSE_VER_PATCH)

/* ---- opaque types ------------------------------------------------------------------------- */
struct trnsparseContext;
typedef struct trnsparseContext* trnsparseHandle_t;
struct trnsparseMatDescr;
typedef struct trnsparseMatDescr* trnsparseMatDescr_t;
struct trnsparseSpMatDescr;
struct trnsparseDnMatDescr;
struct trnsparseDnVecDescr;
typedef struct trnsparseSpMatDescr* trnsparseSpMatDescr_t;
typedef struct trnsparseDnMatDescr* trnsparseDnMatDescr_t;
typedef struct trnsparseDnVecDescr* trnsparseDnVecDescr_t;
typedef struct trnsparseSpMatDescr const* trnsparseConstSpMatDescr_t;
typedef struct trnsparseDnMatDescr const* trnsparseConstDnMatDescr_t;
typedef struct trnsparseDnVecDescr const* trnsparseConstDnVecDescr_t;

/* ---- enums (cuSPARSE values) -------------------------------------------------------------- */
typedef enum {
  TRNSPARSE_STATUS_SUCCESS = 0,
  TRNSPARSE_STATUS_NOT_INITIALIZED = 1,
  TRNSPARSE_STATUS_ALLOC_FAILED = 2,
  TRNSPARSE_STATUS_INVALID_VALUE = 3,
  TRNSPARSE_STATUS_ARCH_MISMATCH = 4,
  TRNSPARSE_STATUS_MAPPING_ERROR = 5,
  TRNSPARSE_STATUS_EXECUTION_FAILED = 6,
  TRNSPARSE_STATUS_INTERNAL_ERROR = 7,
  TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
  TRNSPARSE_STATUS_ZERO_PIVOT = 9,
  TRNSPARSE_STATUS_NOT_SUPPORTED = 10,
  TRNSPARSE_STATUS_INSUFFICIENT_RESOURCES = 11
} trnsparseStatus_t;

typedef enum { TRNSPARSE_POINTER_MODE_HOST = 0, TRNSPARSE_POINTER_MODE_DEVICE = 1 } trnsparsePointerMode_t;
typedef enum {
  TRNSPARSE_MATRIX_TYPE_GENERAL = 0,
  TRNSPARSE_MATRIX_TYPE_SYMMETRIC = 1,
  TRNSPARSE_MATRIX_TYPE_HERMITIAN = 2,
  TRNSPARSE_MATRIX_TYPE_TRIANGULAR = 3
} trnsparseMatrixType_t;
typedef enum { TRNSPARSE_FILL_MODE_LOWER = 0, TRNSPARSE_FILL_MODE_UPPER = 1 } trnsparseFillMode_t;
typedef enum { TRNSPARSE_DIAG_TYPE_NON_UNIT = 0, TRNSPARSE_DIAG_TYPE_UNIT = 1 } trnsparseDiagType_t;
typedef enum { TRNSPARSE_INDEX_BASE_ZERO = 0, TRNSPARSE_INDEX_BASE_ONE = 1 } trnsparseIndexBase_t;
typedef enum {
  TRNSPARSE_OPERATION_NON_TRANSPOSE = 0,
  TRNSPARSE_OPERATION_TRANSPOSE = 1,
  TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2 /* real values: the same as TRANSPOSE */
} trnsparseOperation_t;
/* Legacy block order (bsrmm, bsrmv, csr2bsr): ROW = 0. Not the same numbers as trnsparseOrder_t. */
typedef enum { TRNSPARSE_DIRECTION_ROW = 0, TRNSPARSE_DIRECTION_COLUMN = 1 } trnsparseDirection_t;
typedef enum {
  TRNSPARSE_FORMAT_CSR = 1,
  TRNSPARSE_FORMAT_CSC = 2,
  TRNSPARSE_FORMAT_COO = 3,
  TRNSPARSE_FORMAT_BLOCKED_ELL = 5,
  TRNSPARSE_FORMAT_BSR = 6,
  TRNSPARSE_FORMAT_SLICED_ELLPACK = 7
} trnsparseFormat_t;
/* Generic API: dense layout and BSR block order: ROW = 2. */
typedef enum { TRNSPARSE_ORDER_COL = 1, TRNSPARSE_ORDER_ROW = 2 } trnsparseOrder_t;
typedef enum { TRNSPARSE_INDEX_16U = 1, TRNSPARSE_INDEX_32I = 2, TRNSPARSE_INDEX_64I = 3 } trnsparseIndexType_t;
typedef enum { TRNSPARSE_SPMAT_FILL_MODE = 0, TRNSPARSE_SPMAT_DIAG_TYPE = 1 } trnsparseSpMatAttribute_t;
typedef enum {
  TRNSPARSE_SPMV_ALG_DEFAULT = 0,
  TRNSPARSE_SPMV_CSR_ALG1 = 2,
  TRNSPARSE_SPMV_CSR_ALG2 = 3,
  TRNSPARSE_SPMV_COO_ALG1 = 1,
  TRNSPARSE_SPMV_COO_ALG2 = 4,
  TRNSPARSE_SPMV_SELL_ALG1 = 5,
  TRNSPARSE_SPMV_BSR_ALG1 = 6
} trnsparseSpMVAlg_t;
typedef enum {
  TRNSPARSE_SPMM_ALG_DEFAULT = 0,
  TRNSPARSE_SPMM_COO_ALG1 = 1,
  TRNSPARSE_SPMM_COO_ALG2 = 2,
  TRNSPARSE_SPMM_COO_ALG3 = 3,
  TRNSPARSE_SPMM_COO_ALG4 = 5,
  TRNSPARSE_SPMM_CSR_ALG1 = 4,
  TRNSPARSE_SPMM_CSR_ALG2 = 6,
  TRNSPARSE_SPMM_CSR_ALG3 = 12,
  TRNSPARSE_SPMM_BLOCKED_ELL_ALG1 = 13,
  TRNSPARSE_SPMM_BSR_ALG1 = 14
} trnsparseSpMMAlg_t;
typedef enum { TRNSPARSE_SDDMM_ALG_DEFAULT = 0 } trnsparseSDDMMAlg_t;

/* ---- handle, errors, streams -------------------------------------------------------------- */
trnsparseStatus_t trnsparseCreate(trnsparseHandle_t* handle);
trnsparseStatus_t trnsparseDestroy(trnsparseHandle_t handle);
trnsparseStatus_t trnsparseGetVersion(trnsparseHandle_t handle, int* version);
const char* trnsparseGetErrorName(trnsparseStatus_t status);
const char* trnsparseGetErrorString(trnsparseStatus_t status);
trnsparseStatus_t trnsparseSetStream(trnsparseHandle_t handle, trnStream_t streamId);
trnsparseStatus_t trnsparseGetStream(trnsparseHandle_t handle, trnStream_t* streamId);
trnsparseStatus_t trnsparseGetPointerMode(trnsparseHandle_t handle, trnsparsePointerMode_t* mode);
trnsparseStatus_t trnsparseSetPointerMode(trnsparseHandle_t handle, trnsparsePointerMode_t mode);

/* Strict mode (extension, default off): restores cuSPARSE's documented limits where trnsparse is a
 * superset — legacy bsrmm/bsrmv with transA != NON_TRANSPOSE or blockDim == 1, and
 * CONJUGATE_TRANSPOSE anywhere, become INVALID_VALUE at their parameter position. */
trnsparseStatus_t trnsparseSetStrictMode(trnsparseHandle_t handle, int enable);
trnsparseStatus_t trnsparseGetStrictMode(trnsparseHandle_t handle, int* enable);
/* Krylov vector storage (trnsci extension): TRN_R_32F (default: the solvers' vectors in the
 * operator's value type) or TRN_R_16BF (the CSR solvers' vectors rounded to bf16 after every update,
 * R_32F CSR operators only — other operators then return NOT_SUPPORTED). The rounding is
 * nearest-even, or stochastic when SetStochasticRounding(handle, 1, seed) is on (the same seed gives
 * the same bits). Another vectorType: INVALID_VALUE at 1. docs/trnsparse.md "bf16 vectors and SR". */
trnsparseStatus_t trnsparseSetKrylovVectorType(trnsparseHandle_t handle, trnDataType_t vectorType);
trnsparseStatus_t trnsparseGetKrylovVectorType(trnsparseHandle_t handle, trnDataType_t* vectorType);

/* ---- logging -------------------------------------------------------------------------------
 * cuSPARSE's logger (callback with level and function name; level 1 = error) and cuBLAS-style
 * configure/callback. TRNSPARSE_LOGINFO_DBG=1 / TRNSPARSE_LOGDEST_DBG=stdout|stderr|<file> turn
 * logging on from the environment. Lines: " ** On entry to <fn> parameter number <i> (<name>) had an
 * illegal value" and "<fn>: <STATUS>: <why>". */
typedef trnLoggerCallback_t trnsparseLoggerCallback_t;
typedef trnLogCallback_t trnsparseLogCallback;
trnsparseStatus_t trnsparseLoggerSetFile(FILE* file);
trnsparseStatus_t trnsparseLoggerOpenFile(const char* logFile);
trnsparseStatus_t trnsparseLoggerSetLevel(int level);
trnsparseStatus_t trnsparseLoggerSetMask(int mask);
trnsparseStatus_t trnsparseLoggerForceDisable(void);

/* ---- the emulation surface every trnsci library has (trncore.h, TRN_EMULATION_API): the handle's
 * generation, numerics profile, SR, emulated NeuronCores;
 * Set/Get Target, NumericsProfile, StochasticRounding(enable, seed), NumCores; GetLastProfile
 * (modeled cost of the last compute call, docs/cost-model.md); GetLastErrorParameter (1-based
 * position of the last illegal argument, 0 if none); trnsparseLoggerConfigure, trnsparseSet/GetLoggerCallback,
 * trnsparseLoggerSetCallback. ---- */
TRN_EMULATION_API(trnsparse, trnsparse, trnsparseHandle_t, trnsparseStatus_t)
TRN_PROFILE_SIZED_API(trnsparse, trnsparseHandle_t, trnsparseStatus_t)  /* trnprofile.h: the versioned trnProfile_t */

/* ---- legacy matrix descriptor --------------------------------------------------------------- */
trnsparseStatus_t trnsparseCreateMatDescr(trnsparseMatDescr_t* descrA);
trnsparseStatus_t trnsparseDestroyMatDescr(trnsparseMatDescr_t descrA);
trnsparseStatus_t trnsparseSetMatType(trnsparseMatDescr_t descrA, trnsparseMatrixType_t type);
trnsparseMatrixType_t trnsparseGetMatType(const trnsparseMatDescr_t descrA);
trnsparseStatus_t trnsparseSetMatFillMode(trnsparseMatDescr_t descrA, trnsparseFillMode_t fillMode);
trnsparseFillMode_t trnsparseGetMatFillMode(const trnsparseMatDescr_t descrA);
trnsparseStatus_t trnsparseSetMatDiagType(trnsparseMatDescr_t descrA, trnsparseDiagType_t diagType);
trnsparseDiagType_t trnsparseGetMatDiagType(const trnsparseMatDescr_t descrA);
trnsparseStatus_t trnsparseSetMatIndexBase(trnsparseMatDescr_t descrA, trnsparseIndexBase_t base);
trnsparseIndexBase_t trnsparseGetMatIndexBase(const trnsparseMatDescr_t descrA);

/* ---- generic API descriptors ---------------------------------------------------------------- */
trnsparseStatus_t trnsparseCreateBsr(trnsparseSpMatDescr_t* spMatDescr, int64_t brows, int64_t bcols, int64_t bnnz,
                                     int64_t rowBlockSize, int64_t colBlockSize, void* bsrRowOffsets, void* bsrColInd,
                                     void* bsrValues, trnsparseIndexType_t bsrRowOffsetsType,
                                     trnsparseIndexType_t bsrColIndType, trnsparseIndexBase_t idxBase,
                                     trnDataType_t valueType, trnsparseOrder_t order);
trnsparseStatus_t trnsparseCreateConstBsr(trnsparseConstSpMatDescr_t* spMatDescr, int64_t brows, int64_t bcols,
                                          int64_t bnnz, int64_t rowBlockDim, int64_t colBlockDim,
                                          const void* bsrRowOffsets, const void* bsrColInd, const void* bsrValues,
                                          trnsparseIndexType_t bsrRowOffsetsType, trnsparseIndexType_t bsrColIndType,
                                          trnsparseIndexBase_t idxBase, trnDataType_t valueType, trnsparseOrder_t order);
trnsparseStatus_t trnsparseCreateCsr(trnsparseSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
                                     void* csrRowOffsets, void* csrColInd, void* csrValues,
                                     trnsparseIndexType_t csrRowOffsetsType, trnsparseIndexType_t csrColIndType,
                                     trnsparseIndexBase_t idxBase, trnDataType_t valueType);
trnsparseStatus_t trnsparseCreateConstCsr(trnsparseConstSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                          int64_t nnz, const void* csrRowOffsets, const void* csrColInd,
                                          const void* csrValues, trnsparseIndexType_t csrRowOffsetsType,
                                          trnsparseIndexType_t csrColIndType, trnsparseIndexBase_t idxBase,
                                          trnDataType_t valueType);
/* COO (SpMM/SpMV only; entries sorted by row, then by strictly increasing column). */
trnsparseStatus_t trnsparseCreateCoo(trnsparseSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
                                     void* cooRowInd, void* cooColInd, void* cooValues, trnsparseIndexType_t cooIdxType,
                                     trnsparseIndexBase_t idxBase, trnDataType_t valueType);
trnsparseStatus_t trnsparseCreateConstCoo(trnsparseConstSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                          int64_t nnz, const void* cooRowInd, const void* cooColInd,
                                          const void* cooValues, trnsparseIndexType_t cooIdxType,
                                          trnsparseIndexBase_t idxBase, trnDataType_t valueType);
/* CSC (SpMM/SpMV: computed as the CSR of A^T with opA flipped; row indices strictly increasing
 * within a column). */
trnsparseStatus_t trnsparseCreateCsc(trnsparseSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
                                     void* cscColOffsets, void* cscRowInd, void* cscValues,
                                     trnsparseIndexType_t cscColOffsetsType, trnsparseIndexType_t cscRowIndType,
                                     trnsparseIndexBase_t idxBase, trnDataType_t valueType);
trnsparseStatus_t trnsparseCreateConstCsc(trnsparseConstSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                          int64_t nnz, const void* cscColOffsets, const void* cscRowInd,
                                          const void* cscValues, trnsparseIndexType_t cscColOffsetsType,
                                          trnsparseIndexType_t cscRowIndType, trnsparseIndexBase_t idxBase,
                                          trnDataType_t valueType);
/* Blocked-ELL (SpMM/SpMV): ellColInd[(rows / ellBlockSize) x (ellCols / ellBlockSize)] row-major, -1
 * marks an empty slot; ellValue rows x ellCols row-major. rows, cols and ellCols multiples of
 * ellBlockSize, block columns distinct within a block row. Lowered to BSR blocks (values copied). */
trnsparseStatus_t trnsparseCreateBlockedEll(trnsparseSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                            int64_t ellBlockSize, int64_t ellCols, void* ellColInd, void* ellValue,
                                            trnsparseIndexType_t ellIdxType, trnsparseIndexBase_t idxBase,
                                            trnDataType_t valueType);
trnsparseStatus_t trnsparseCreateConstBlockedEll(trnsparseConstSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                                 int64_t ellBlockSize, int64_t ellCols, const void* ellColInd,
                                                 const void* ellValue, trnsparseIndexType_t ellIdxType,
                                                 trnsparseIndexBase_t idxBase, trnDataType_t valueType);
trnsparseStatus_t trnsparseBlockedEllGet(trnsparseSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols,
                                         int64_t* ellBlockSize, int64_t* ellCols, void** ellColInd, void** ellValue,
                                         trnsparseIndexType_t* ellIdxType, trnsparseIndexBase_t* idxBase,
                                         trnDataType_t* valueType);
trnsparseStatus_t trnsparseConstBlockedEllGet(trnsparseConstSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols,
                                              int64_t* ellBlockSize, int64_t* ellCols, const void** ellColInd,
                                              const void** ellValue, trnsparseIndexType_t* ellIdxType,
                                              trnsparseIndexBase_t* idxBase, trnDataType_t* valueType);
/* Sliced-ELL (SpMV, SpSV; SpMM too, an extension): ceil(rows / sliceSize) slices of sliceSize rows;
 * slice s owns slots sellSliceOffsets[s] .. [s + 1] of sellColInd / sellValues (sellValuesSize in
 * all), column-major within the slice (slot j of the slice's row r at offset + j * sliceSize + r);
 * column -1 marks padding. Slice offsets are array positions (start at 0). */
trnsparseStatus_t trnsparseCreateSlicedEll(trnsparseSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
                                           int64_t sellValuesSize, int64_t sliceSize, void* sellSliceOffsets,
                                           void* sellColInd, void* sellValues, trnsparseIndexType_t sellSliceOffsetsType,
                                           trnsparseIndexType_t sellColIndType, trnsparseIndexBase_t idxBase,
                                           trnDataType_t valueType);
trnsparseStatus_t trnsparseCreateConstSlicedEll(trnsparseConstSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                                int64_t nnz, int64_t sellValuesSize, int64_t sliceSize,
                                                const void* sellSliceOffsets, const void* sellColInd,
                                                const void* sellValues, trnsparseIndexType_t sellSliceOffsetsType,
                                                trnsparseIndexType_t sellColIndType, trnsparseIndexBase_t idxBase,
                                                trnDataType_t valueType);
trnsparseStatus_t trnsparseDestroySpMat(trnsparseConstSpMatDescr_t spMatDescr);
trnsparseStatus_t trnsparseSpMatGetSize(trnsparseConstSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols,
                                        int64_t* nnz);
trnsparseStatus_t trnsparseSpMatGetFormat(trnsparseConstSpMatDescr_t spMatDescr, trnsparseFormat_t* format);
trnsparseStatus_t trnsparseSpMatGetIndexBase(trnsparseConstSpMatDescr_t spMatDescr, trnsparseIndexBase_t* idxBase);
trnsparseStatus_t trnsparseSpMatGetValues(trnsparseSpMatDescr_t spMatDescr, void** values);
trnsparseStatus_t trnsparseSpMatSetValues(trnsparseSpMatDescr_t spMatDescr, void* values);
trnsparseStatus_t trnsparseSpMatGetAttribute(trnsparseConstSpMatDescr_t spMatDescr, trnsparseSpMatAttribute_t attribute,
                                             void* data, size_t dataSize);
trnsparseStatus_t trnsparseSpMatSetAttribute(trnsparseSpMatDescr_t spMatDescr, trnsparseSpMatAttribute_t attribute,
                                             void* data, size_t dataSize);

trnsparseStatus_t trnsparseCreateDnMat(trnsparseDnMatDescr_t* dnMatDescr, int64_t rows, int64_t cols, int64_t ld,
                                       void* values, trnDataType_t valueType, trnsparseOrder_t order);
trnsparseStatus_t trnsparseCreateConstDnMat(trnsparseConstDnMatDescr_t* dnMatDescr, int64_t rows, int64_t cols,
                                            int64_t ld, const void* values, trnDataType_t valueType,
                                            trnsparseOrder_t order);
trnsparseStatus_t trnsparseDestroyDnMat(trnsparseConstDnMatDescr_t dnMatDescr);
trnsparseStatus_t trnsparseCreateDnVec(trnsparseDnVecDescr_t* dnVecDescr, int64_t size, void* values,
                                       trnDataType_t valueType);
trnsparseStatus_t trnsparseCreateConstDnVec(trnsparseConstDnVecDescr_t* dnVecDescr, int64_t size, const void* values,
                                            trnDataType_t valueType);
trnsparseStatus_t trnsparseDestroyDnVec(trnsparseConstDnVecDescr_t dnVecDescr);

/* ---- generic compute -------------------------------------------------------------------------
 * matA of SpMM/SpMV: BSR (the tile path) or CSR (converted on the host to 128 x 128 BSR blocks per
 * call, values copied; docs/trnsparse.md). computeType: TRN_R_32F. Values: TRN_R_32F, TRN_R_16BF,
 * TRN_R_16F (TRN_R_64F: NOT_SUPPORTED). Index arrays are validated in O(nnz) on every call. */
trnsparseStatus_t trnsparseSpMM_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                           const void* alpha, trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnMatDescr_t matB, const void* beta,
                                           trnsparseDnMatDescr_t matC, trnDataType_t computeType,
                                           trnsparseSpMMAlg_t alg, size_t* bufferSize);
trnsparseStatus_t trnsparseSpMM_preprocess(trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                           const void* alpha, trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnMatDescr_t matB, const void* beta,
                                           trnsparseDnMatDescr_t matC, trnDataType_t computeType,
                                           trnsparseSpMMAlg_t alg, void* externalBuffer);
trnsparseStatus_t trnsparseSpMM(trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                const void* alpha, trnsparseConstSpMatDescr_t matA, trnsparseConstDnMatDescr_t matB,
                                const void* beta, trnsparseDnMatDescr_t matC, trnDataType_t computeType,
                                trnsparseSpMMAlg_t alg, void* externalBuffer);
trnsparseStatus_t trnsparseSpMV_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA, const void* alpha,
                                           trnsparseConstSpMatDescr_t matA, trnsparseConstDnVecDescr_t vecX,
                                           const void* beta, trnsparseDnVecDescr_t vecY, trnDataType_t computeType,
                                           trnsparseSpMVAlg_t alg, size_t* bufferSize);
trnsparseStatus_t trnsparseSpMV_preprocess(trnsparseHandle_t handle, trnsparseOperation_t opA, const void* alpha,
                                           trnsparseConstSpMatDescr_t matA, trnsparseConstDnVecDescr_t vecX,
                                           const void* beta, trnsparseDnVecDescr_t vecY, trnDataType_t computeType,
                                           trnsparseSpMVAlg_t alg, void* externalBuffer);
trnsparseStatus_t trnsparseSpMV(trnsparseHandle_t handle, trnsparseOperation_t opA, const void* alpha,
                                trnsparseConstSpMatDescr_t matA, trnsparseConstDnVecDescr_t vecX, const void* beta,
                                trnsparseDnVecDescr_t vecY, trnDataType_t computeType, trnsparseSpMVAlg_t alg,
                                void* externalBuffer);
trnsparseStatus_t trnsparseSDDMM_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                            trnsparseOperation_t opB, const void* alpha,
                                            trnsparseConstDnMatDescr_t matA, trnsparseConstDnMatDescr_t matB,
                                            const void* beta, trnsparseSpMatDescr_t matC, trnDataType_t computeType,
                                            trnsparseSDDMMAlg_t alg, size_t* bufferSize);
trnsparseStatus_t trnsparseSDDMM_preprocess(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                            trnsparseOperation_t opB, const void* alpha,
                                            trnsparseConstDnMatDescr_t matA, trnsparseConstDnMatDescr_t matB,
                                            const void* beta, trnsparseSpMatDescr_t matC, trnDataType_t computeType,
                                            trnsparseSDDMMAlg_t alg, void* externalBuffer);
trnsparseStatus_t trnsparseSDDMM(trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                 const void* alpha, trnsparseConstDnMatDescr_t matA, trnsparseConstDnMatDescr_t matB,
                                 const void* beta, trnsparseSpMatDescr_t matC, trnDataType_t computeType,
                                 trnsparseSDDMMAlg_t alg, void* externalBuffer);

/* ---- SpGEMM: C = alpha A B for BSR x BSR (cuSPARSE's work-estimation / compute / copy phases) ----
 * matC is created with CreateBsr(brows(A), bcols(B), 0, rowBlock(A), colBlock(B), NULL, NULL, NULL, ...);
 * after compute, SpMatGetSize gives its block count, the caller allocates the arrays, sets them with
 * trnsparseBsrSetPointers (extension: cuSPARSE has no BSR set-pointers) and calls copy. opA = opB =
 * NON_TRANSPOSE, beta = 0, A and B BSR of one value type, A's column blocks = B's row blocks. The
 * buffers are not used (sizes 256 bytes; NULL accepted). */
struct trnsparseSpGEMMDescr;
typedef struct trnsparseSpGEMMDescr* trnsparseSpGEMMDescr_t;
typedef enum {
  TRNSPARSE_SPGEMM_DEFAULT = 0,
  TRNSPARSE_SPGEMM_CSR_ALG_DETERMINITIC = 1,
  TRNSPARSE_SPGEMM_CSR_ALG_NONDETERMINITIC = 2,
  TRNSPARSE_SPGEMM_ALG1 = 3,
  TRNSPARSE_SPGEMM_ALG2 = 4,
  TRNSPARSE_SPGEMM_ALG3 = 5
} trnsparseSpGEMMAlg_t;
trnsparseStatus_t trnsparseSpGEMM_createDescr(trnsparseSpGEMMDescr_t* descr);
trnsparseStatus_t trnsparseSpGEMM_destroyDescr(trnsparseSpGEMMDescr_t descr);
trnsparseStatus_t trnsparseSpGEMM_workEstimation(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                                 trnsparseOperation_t opB, const void* alpha,
                                                 trnsparseConstSpMatDescr_t matA, trnsparseConstSpMatDescr_t matB,
                                                 const void* beta, trnsparseSpMatDescr_t matC, trnDataType_t computeType,
                                                 trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t spgemmDescr,
                                                 size_t* bufferSize1, void* externalBuffer1);
trnsparseStatus_t trnsparseSpGEMM_compute(trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                          const void* alpha, trnsparseConstSpMatDescr_t matA,
                                          trnsparseConstSpMatDescr_t matB, const void* beta, trnsparseSpMatDescr_t matC,
                                          trnDataType_t computeType, trnsparseSpGEMMAlg_t alg,
                                          trnsparseSpGEMMDescr_t spgemmDescr, size_t* bufferSize2,
                                          void* externalBuffer2);
trnsparseStatus_t trnsparseSpGEMM_copy(trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                       const void* alpha, trnsparseConstSpMatDescr_t matA,
                                       trnsparseConstSpMatDescr_t matB, const void* beta, trnsparseSpMatDescr_t matC,
                                       trnDataType_t computeType, trnsparseSpGEMMAlg_t alg,
                                       trnsparseSpGEMMDescr_t spgemmDescr);
trnsparseStatus_t trnsparseBsrSetPointers(trnsparseSpMatDescr_t spMatDescr, void* bsrRowOffsets, void* bsrColInd,
                                          void* bsrValues);

/* ---- SpGEMM on CSR (cuSPARSE's protocol) and SpGEMMreuse --------------------------------------
 * With CSR matA, matB (one value type: R_32F, R_64F, C_32F, C_64F; computeType the same) and a CSR
 * matC created with nnz 0 and NULL columns/values: workEstimation (called twice: NULL buffer ->
 * bufferSize1, then with a buffer: the symbolic product), compute (likewise: bufferSize2, then the
 * numeric product; SpMatGetSize then reports nnz(C)), CsrSetPointers, copy (C = alpha A B + beta C on
 * C's pattern; beta != 0 reads the values the caller put in C's new arrays). getNumProducts gives the
 * intermediate products; estimateMemory (ALG2/ALG3) reports bufferSize3 then bufferSize2.
 * SpGEMMreuse: workEstimation (symbolic), nnz (SpMatGetSize reports nnz(C)), copy (C's offsets and
 * columns), compute (values; repeatable after A's and B's values change). opA = opB = NON_TRANSPOSE.
 * Host step per compute (docs/trnsparse.md "SpGEMM on CSR"). */
trnsparseStatus_t trnsparseSpGEMM_getNumProducts(trnsparseSpGEMMDescr_t spgemmDescr, int64_t* num_prods);
trnsparseStatus_t trnsparseSpGEMM_estimateMemory(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                                 trnsparseOperation_t opB, const void* alpha,
                                                 trnsparseConstSpMatDescr_t matA, trnsparseConstSpMatDescr_t matB,
                                                 const void* beta, trnsparseSpMatDescr_t matC, trnDataType_t computeType,
                                                 trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t spgemmDescr,
                                                 float chunk_fraction, size_t* bufferSize3, void* externalBuffer3,
                                                 size_t* bufferSize2);
trnsparseStatus_t trnsparseSpGEMMreuse_workEstimation(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                                      trnsparseOperation_t opB, trnsparseConstSpMatDescr_t matA,
                                                      trnsparseConstSpMatDescr_t matB, trnsparseSpMatDescr_t matC,
                                                      trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t spgemmDescr,
                                                      size_t* bufferSize1, void* externalBuffer1);
trnsparseStatus_t trnsparseSpGEMMreuse_nnz(trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                           trnsparseConstSpMatDescr_t matA, trnsparseConstSpMatDescr_t matB,
                                           trnsparseSpMatDescr_t matC, trnsparseSpGEMMAlg_t alg,
                                           trnsparseSpGEMMDescr_t spgemmDescr, size_t* bufferSize2, void* externalBuffer2,
                                           size_t* bufferSize3, void* externalBuffer3, size_t* bufferSize4,
                                           void* externalBuffer4);
trnsparseStatus_t trnsparseSpGEMMreuse_copy(trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                            trnsparseConstSpMatDescr_t matA, trnsparseConstSpMatDescr_t matB,
                                            trnsparseSpMatDescr_t matC, trnsparseSpGEMMAlg_t alg,
                                            trnsparseSpGEMMDescr_t spgemmDescr, size_t* bufferSize5,
                                            void* externalBuffer5);
trnsparseStatus_t trnsparseSpGEMMreuse_compute(trnsparseHandle_t handle, trnsparseOperation_t opA,
                                               trnsparseOperation_t opB, const void* alpha,
                                               trnsparseConstSpMatDescr_t matA, trnsparseConstSpMatDescr_t matB,
                                               const void* beta, trnsparseSpMatDescr_t matC, trnDataType_t computeType,
                                               trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t spgemmDescr);

/* ---- SpSV / SpSM: sparse triangular solves (cuSPARSE 12 generic API) --------------------------
 * op(A) Y = alpha X (SpSV, vectors) and op(A) C = alpha op(B) (SpSM, dense matrices), A a square CSR
 * or COO matrix (R_32F, R_64F, C_32F, C_64F; computeType the same) of which only the triangle named
 * by SpMatSetAttribute(FILL_MODE) is read, with DIAG_TYPE UNIT (the diagonal is not read) or
 * NON_UNIT. bufferSize / analysis (level scheduling, stored in the descriptor) / solve, as cuSPARSE.
 * A zero pivot (a non-unit row whose diagonal is not stored or is 0) makes solve return
 * TRNSPARSE_STATUS_ZERO_PIVOT with the output untouched (cuSPARSE 12 leaves it unspecified).
 * updateMatrix: new values of A (UPDATE_GENERAL: nnz values) or of its diagonal (UPDATE_DIAGONAL:
 * n values) for the next solves without a new analysis. docs/trnsparse.md "Sparse triangular solves". */
typedef enum { TRNSPARSE_SPSV_ALG_DEFAULT = 0 } trnsparseSpSVAlg_t;
typedef enum { TRNSPARSE_SPSV_UPDATE_GENERAL = 0, TRNSPARSE_SPSV_UPDATE_DIAGONAL = 1 } trnsparseSpSVUpdate_t;
struct trnsparseSpSVDescr;
typedef struct trnsparseSpSVDescr* trnsparseSpSVDescr_t;
trnsparseStatus_t trnsparseSpSV_createDescr(trnsparseSpSVDescr_t* descr);
trnsparseStatus_t trnsparseSpSV_destroyDescr(trnsparseSpSVDescr_t descr);
trnsparseStatus_t trnsparseSpSV_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA, const void* alpha,
                                           trnsparseConstSpMatDescr_t matA, trnsparseConstDnVecDescr_t vecX,
                                           trnsparseDnVecDescr_t vecY, trnDataType_t computeType, trnsparseSpSVAlg_t alg,
                                           trnsparseSpSVDescr_t spsvDescr, size_t* bufferSize);
trnsparseStatus_t trnsparseSpSV_analysis(trnsparseHandle_t handle, trnsparseOperation_t opA, const void* alpha,
                                         trnsparseConstSpMatDescr_t matA, trnsparseConstDnVecDescr_t vecX,
                                         trnsparseDnVecDescr_t vecY, trnDataType_t computeType, trnsparseSpSVAlg_t alg,
                                         trnsparseSpSVDescr_t spsvDescr, void* externalBuffer);
trnsparseStatus_t trnsparseSpSV_solve(trnsparseHandle_t handle, trnsparseOperation_t opA, const void* alpha,
                                      trnsparseConstSpMatDescr_t matA, trnsparseConstDnVecDescr_t vecX,
                                      trnsparseDnVecDescr_t vecY, trnDataType_t computeType, trnsparseSpSVAlg_t alg,
                                      trnsparseSpSVDescr_t spsvDescr);
trnsparseStatus_t trnsparseSpSV_updateMatrix(trnsparseHandle_t handle, trnsparseSpSVDescr_t spsvDescr, void* newValues,
                                             trnsparseSpSVUpdate_t updatePart);

typedef enum { TRNSPARSE_SPSM_ALG_DEFAULT = 0 } trnsparseSpSMAlg_t;
typedef enum { TRNSPARSE_SPSM_UPDATE_GENERAL = 0, TRNSPARSE_SPSM_UPDATE_DIAGONAL = 1 } trnsparseSpSMUpdate_t;
struct trnsparseSpSMDescr;
typedef struct trnsparseSpSMDescr* trnsparseSpSMDescr_t;
trnsparseStatus_t trnsparseSpSM_createDescr(trnsparseSpSMDescr_t* descr);
trnsparseStatus_t trnsparseSpSM_destroyDescr(trnsparseSpSMDescr_t descr);
trnsparseStatus_t trnsparseSpSM_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                           const void* alpha, trnsparseConstSpMatDescr_t matA,
                                           trnsparseConstDnMatDescr_t matB, trnsparseDnMatDescr_t matC,
                                           trnDataType_t computeType, trnsparseSpSMAlg_t alg,
                                           trnsparseSpSMDescr_t spsmDescr, size_t* bufferSize);
trnsparseStatus_t trnsparseSpSM_analysis(trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                         const void* alpha, trnsparseConstSpMatDescr_t matA,
                                         trnsparseConstDnMatDescr_t matB, trnsparseDnMatDescr_t matC,
                                         trnDataType_t computeType, trnsparseSpSMAlg_t alg, trnsparseSpSMDescr_t spsmDescr,
                                         void* externalBuffer);
trnsparseStatus_t trnsparseSpSM_solve(trnsparseHandle_t handle, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                      const void* alpha, trnsparseConstSpMatDescr_t matA, trnsparseConstDnMatDescr_t matB,
                                      trnsparseDnMatDescr_t matC, trnDataType_t computeType, trnsparseSpSMAlg_t alg,
                                      trnsparseSpSMDescr_t spsmDescr);
trnsparseStatus_t trnsparseSpSM_updateMatrix(trnsparseHandle_t handle, trnsparseSpSMDescr_t spsmDescr, void* newValues,
                                             trnsparseSpSMUpdate_t updatePart);

/* ---- Krylov solvers on BSR operators (trnsci extension, not in cuSPARSE) ----------------------
 * Solve A x = b for a square BSR matA with fp32 values (other formats: NOT_SUPPORTED); vecB and vecX
 * fp32 of length rows(A), vecX holds the initial guess on entry and the solution on exit. Stop when
 * ||r|| <= tolerance ||b|| (info 0), after maxIterations (info 1) or on breakdown (info 2: CG
 * p^T A p <= 0; BiCGStab (r^, r), (r^, v) or (t, t) = 0; GMRES R_jj = 0). *iterations receives the
 * iterations (GMRES: Arnoldi steps) done; residualHistory, if not NULL, receives
 * min(iterations + 1, maxIterations + 1) values ||r_k|| / ||b|| (it must hold maxIterations + 1).
 * A zero diagonal entry with JACOBI preconditioning is INVALID_VALUE at matA. GetLastProfile then
 * reports the summed modeled time of every launch (total_ns only). docs/trnsparse.md. */
/* BLOCK_JACOBI: the diagonal blocks (square, <= 128) inverted once without pivoting; a singular one
 * is INVALID_VALUE at matA. */
/* CSR operators (issue #28): matA CSR of TRN_R_32F, TRN_R_64F, TRN_C_32F or TRN_C_64F values, vecB
 * and vecX of the same value type; CG then needs A Hermitian positive definite (inner products
 * conjugate their first argument). precond NONE, JACOBI, ILU0 (M = L U from csrilu02, applied by
 * two SpSV solves) or IC0 (M = L L^H from csric02; A's lower triangle); BLOCK_JACOBI is BSR's and ILU0 /
 * IC0 CSR's (else NOT_SUPPORTED). A zero pivot of the factorization (or no stored diagonal) is
 * INVALID_VALUE at matA, outputs untouched. info 2 also when a scalar became NaN / Inf (the
 * iterate is then the last finite one). docs/trnsparse.md "Krylov solvers in fp64 and complex". */
typedef enum {
  TRNSPARSE_PRECOND_NONE = 0,
  TRNSPARSE_PRECOND_JACOBI = 1,
  TRNSPARSE_PRECOND_BLOCK_JACOBI = 2,
  TRNSPARSE_PRECOND_ILU0 = 3,
  TRNSPARSE_PRECOND_IC0 = 4
} trnsparsePreconditioner_t;
trnsparseStatus_t trnsparseBsrCg(trnsparseHandle_t handle, trnsparseConstSpMatDescr_t matA, trnsparseConstDnVecDescr_t vecB,
                                 trnsparseDnVecDescr_t vecX, float tolerance, int maxIterations,
                                 trnsparsePreconditioner_t precond, int* iterations, float* residualHistory, int* info);
trnsparseStatus_t trnsparseBsrBicgstab(trnsparseHandle_t handle, trnsparseConstSpMatDescr_t matA,
                                       trnsparseConstDnVecDescr_t vecB, trnsparseDnVecDescr_t vecX, float tolerance,
                                       int maxIterations, trnsparsePreconditioner_t precond, int* iterations,
                                       float* residualHistory, int* info);
/* Restarted GMRES(restart), restart >= 1 Krylov vectors per cycle. */
trnsparseStatus_t trnsparseBsrGmres(trnsparseHandle_t handle, trnsparseConstSpMatDescr_t matA,
                                    trnsparseConstDnVecDescr_t vecB, trnsparseDnVecDescr_t vecX, float tolerance,
                                    int maxIterations, int restart, trnsparsePreconditioner_t precond, int* iterations,
                                    float* residualHistory, int* info);

/* ---- Block-sparse attention, one head (trnsci extension, not in cuSPARSE) ----------------------
 * mask: a square BSR descriptor with square blocks of size <= 128 (its values are not read);
 * seq = rows(mask); Q, K, V, O, dO, dQ, dK, dV: seq x headDim row-major fp32, 1 <= headDim <= 128;
 * logsumexp: seq floats. tileType TRN_R_32F (exact products) or TRN_R_16BF (inputs and
 * probabilities rounded to bf16); fp32 softmax and accumulation. Forward: O = softmax(scale Q K^T
 * on the stored blocks) V, logsumexp optional (NULL: not written). Backward (FlashAttention-2): dQ,
 * dK, dV from dO and the forward's O and logsumexp. */
trnsparseStatus_t trnsparseBlockSparseAttentionForward(trnsparseHandle_t handle, trnsparseConstSpMatDescr_t mask,
                                                       int64_t headDim, const float* Q, const float* K, const float* V,
                                                       float scale, float* O, float* logsumexp, trnDataType_t tileType);
trnsparseStatus_t trnsparseBlockSparseAttentionBackward(trnsparseHandle_t handle, trnsparseConstSpMatDescr_t mask,
                                                        int64_t headDim, const float* Q, const float* K, const float* V,
                                                        const float* O, const float* dO, const float* logsumexp,
                                                        float scale, float* dQ, float* dK, float* dV,
                                                        trnDataType_t tileType);

/* ---- legacy BSR (relaxed limits: transA T allowed, blockDim >= 1; docs/trnsparse.md) ----------- */
trnsparseStatus_t trnsparseSbsrmm(trnsparseHandle_t handle, trnsparseDirection_t dirA, trnsparseOperation_t transA,
                                  trnsparseOperation_t transB, int mb, int n, int kb, int nnzb, const float* alpha,
                                  const trnsparseMatDescr_t descrA, const float* bsrSortedValA,
                                  const int* bsrSortedRowPtrA, const int* bsrSortedColIndA, const int blockSize,
                                  const float* B, const int ldb, const float* beta, float* C, int ldc);
/* fp64 (Dbsrmm, Dbsrmv) and complex-fp64 (Zbsrmv): the generic API's fp64 BSR path, one Ozaki GEMM per block row
 * on TensorE (docs/trnsparse.md "fp64 BSR and Blocked-ELL on TensorE"); complex-fp32 (Cbsrmv): the real 2 x 2
 * embedding on TensorE; transA may also be CONJUGATE_TRANSPOSE for complex (strict mode: NON_TRANSPOSE only, as
 * cuSPARSE). */
trnsparseStatus_t trnsparseDbsrmm(trnsparseHandle_t handle, trnsparseDirection_t dirA, trnsparseOperation_t transA,
                                  trnsparseOperation_t transB, int mb, int n, int kb, int nnzb, const double* alpha,
                                  const trnsparseMatDescr_t descrA, const double* bsrSortedValA,
                                  const int* bsrSortedRowPtrA, const int* bsrSortedColIndA, const int blockSize,
                                  const double* B, const int ldb, const double* beta, double* C, int ldc);
trnsparseStatus_t trnsparseSbsrmv(trnsparseHandle_t handle, trnsparseDirection_t dirA, trnsparseOperation_t transA,
                                  int mb, int nb, int nnzb, const float* alpha, const trnsparseMatDescr_t descrA,
                                  const float* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
                                  int blockDim, const float* x, const float* beta, float* y);
trnsparseStatus_t trnsparseDbsrmv(trnsparseHandle_t handle, trnsparseDirection_t dirA, trnsparseOperation_t transA,
                                  int mb, int nb, int nnzb, const double* alpha, const trnsparseMatDescr_t descrA,
                                  const double* bsrSortedValA, const int* bsrSortedRowPtrA,
                                  const int* bsrSortedColIndA, int blockDim, const double* x, const double* beta,
                                  double* y);
trnsparseStatus_t trnsparseCbsrmv(trnsparseHandle_t handle, trnsparseDirection_t dirA, trnsparseOperation_t transA,
                                  int mb, int nb, int nnzb, const trnComplex* alpha, const trnsparseMatDescr_t descrA,
                                  const trnComplex* bsrSortedValA, const int* bsrSortedRowPtrA,
                                  const int* bsrSortedColIndA, int blockDim, const trnComplex* x, const trnComplex* beta,
                                  trnComplex* y);
trnsparseStatus_t trnsparseZbsrmv(trnsparseHandle_t handle, trnsparseDirection_t dirA, trnsparseOperation_t transA,
                                  int mb, int nb, int nnzb, const trnDoubleComplex* alpha,
                                  const trnsparseMatDescr_t descrA, const trnDoubleComplex* bsrSortedValA,
                                  const int* bsrSortedRowPtrA, const int* bsrSortedColIndA, int blockDim,
                                  const trnDoubleComplex* x, const trnDoubleComplex* beta, trnDoubleComplex* y);
trnsparseStatus_t trnsparseXcsr2bsrNnz(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
                                       const trnsparseMatDescr_t descrA, const int* csrSortedRowPtrA,
                                       const int* csrSortedColIndA, int blockDim, const trnsparseMatDescr_t descrC,
                                       int* bsrSortedRowPtrC, int* nnzTotalDevHostPtr);
trnsparseStatus_t trnsparseScsr2bsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
                                    const trnsparseMatDescr_t descrA, const float* csrSortedValA,
                                    const int* csrSortedRowPtrA, const int* csrSortedColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, float* bsrSortedValC, int* bsrSortedRowPtrC,
                                    int* bsrSortedColIndC);
trnsparseStatus_t trnsparseSbsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
                                    const trnsparseMatDescr_t descrA, const float* bsrSortedValA,
                                    const int* bsrSortedRowPtrA, const int* bsrSortedColIndA, int blockDim,
                                    const trnsparseMatDescr_t descrC, float* csrSortedValC, int* csrSortedRowPtrC,
                                    int* csrSortedColIndC);


/* ---- the generic API in every value type (cuSPARSE 12.6) ---------------------------------------
 * Value types of CSR, CSC and COO descriptors, dense matrices and vectors, sparse vectors:
 * TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F (and TRN_R_16F / TRN_R_16BF as before). Where the
 * arithmetic runs (docs/trnsparse.md "Generic API: value types"): TRN_R_32F (and 16-bit) SpMV/SpMM
 * keep the TensorE BSR-block path; TRN_C_32F SpMV/SpMM run on TensorE through the real 2 x 2 embedding;
 * TRN_R_64F and TRN_C_64F SpMV/SpMM/SDDMM run on TensorE through trnblas's fp64 products (row groups:
 * docs/trnsparse.md "fp64 CSR, CSC, COO, SELL and SDDMM on TensorE"); the sparse-vector operations
 * run as one costed host step each; computeType equal to the value type. Conversions and sorts move values, no arithmetic. */
struct trnsparseSpVecDescr;
typedef struct trnsparseSpVecDescr* trnsparseSpVecDescr_t;
typedef struct trnsparseSpVecDescr const* trnsparseConstSpVecDescr_t;
typedef enum { TRNSPARSE_ACTION_SYMBOLIC = 0, TRNSPARSE_ACTION_NUMERIC = 1 } trnsparseAction_t;
typedef enum { TRNSPARSE_CSR2CSC_ALG_DEFAULT = 1, TRNSPARSE_CSR2CSC_ALG1 = 1 } trnsparseCsr2CscAlg_t;
typedef enum { TRNSPARSE_SPARSETODENSE_ALG_DEFAULT = 0 } trnsparseSparseToDenseAlg_t;
typedef enum { TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT = 0 } trnsparseDenseToSparseAlg_t;

/* sparse vector: nnz indices in [idxBase, size + idxBase), checked by every operation. */
trnsparseStatus_t trnsparseCreateSpVec(trnsparseSpVecDescr_t* spVecDescr, int64_t size, int64_t nnz, void* indices,
                                       void* values, trnsparseIndexType_t idxType, trnsparseIndexBase_t idxBase,
                                       trnDataType_t valueType);
trnsparseStatus_t trnsparseCreateConstSpVec(trnsparseConstSpVecDescr_t* spVecDescr, int64_t size, int64_t nnz,
                                            const void* indices, const void* values, trnsparseIndexType_t idxType,
                                            trnsparseIndexBase_t idxBase, trnDataType_t valueType);
trnsparseStatus_t trnsparseDestroySpVec(trnsparseConstSpVecDescr_t spVecDescr);
trnsparseStatus_t trnsparseSpVecGet(trnsparseSpVecDescr_t spVecDescr, int64_t* size, int64_t* nnz, void** indices,
                                    void** values, trnsparseIndexType_t* idxType, trnsparseIndexBase_t* idxBase,
                                    trnDataType_t* valueType);
trnsparseStatus_t trnsparseConstSpVecGet(trnsparseConstSpVecDescr_t spVecDescr, int64_t* size, int64_t* nnz,
                                         const void** indices, const void** values, trnsparseIndexType_t* idxType,
                                         trnsparseIndexBase_t* idxBase, trnDataType_t* valueType);
trnsparseStatus_t trnsparseSpVecGetIndexBase(trnsparseConstSpVecDescr_t spVecDescr, trnsparseIndexBase_t* idxBase);
trnsparseStatus_t trnsparseSpVecGetValues(trnsparseSpVecDescr_t spVecDescr, void** values);
trnsparseStatus_t trnsparseConstSpVecGetValues(trnsparseConstSpVecDescr_t spVecDescr, const void** values);
trnsparseStatus_t trnsparseSpVecSetValues(trnsparseSpVecDescr_t spVecDescr, void* values);

/* dense vector and matrix getters / setters */
trnsparseStatus_t trnsparseDnVecGet(trnsparseDnVecDescr_t dnVecDescr, int64_t* size, void** values,
                                    trnDataType_t* valueType);
trnsparseStatus_t trnsparseConstDnVecGet(trnsparseConstDnVecDescr_t dnVecDescr, int64_t* size, const void** values,
                                         trnDataType_t* valueType);
trnsparseStatus_t trnsparseDnVecGetValues(trnsparseDnVecDescr_t dnVecDescr, void** values);
trnsparseStatus_t trnsparseConstDnVecGetValues(trnsparseConstDnVecDescr_t dnVecDescr, const void** values);
trnsparseStatus_t trnsparseDnVecSetValues(trnsparseDnVecDescr_t dnVecDescr, void* values);
trnsparseStatus_t trnsparseDnMatGet(trnsparseDnMatDescr_t dnMatDescr, int64_t* rows, int64_t* cols, int64_t* ld,
                                    void** values, trnDataType_t* type, trnsparseOrder_t* order);
trnsparseStatus_t trnsparseConstDnMatGet(trnsparseConstDnMatDescr_t dnMatDescr, int64_t* rows, int64_t* cols,
                                         int64_t* ld, const void** values, trnDataType_t* type,
                                         trnsparseOrder_t* order);
trnsparseStatus_t trnsparseDnMatGetValues(trnsparseDnMatDescr_t dnMatDescr, void** values);
trnsparseStatus_t trnsparseConstDnMatGetValues(trnsparseConstDnMatDescr_t dnMatDescr, const void** values);
trnsparseStatus_t trnsparseDnMatSetValues(trnsparseDnMatDescr_t dnMatDescr, void* values);
/* Strided batches: SpMM computes them (matC's batchCount; matA a CSR or COO and matB of that count or
 * 1, shared), one batch after the other; SpMV, SDDMM and the conversions return NOT_SUPPORTED for
 * batchCount > 1 (logged). */
trnsparseStatus_t trnsparseDnMatSetStridedBatch(trnsparseDnMatDescr_t dnMatDescr, int batchCount, int64_t batchStride);
trnsparseStatus_t trnsparseDnMatGetStridedBatch(trnsparseConstDnMatDescr_t dnMatDescr, int* batchCount,
                                                int64_t* batchStride);

/* sparse matrix getters / setters (CSR, CSC, COO); CsrSetStridedBatch's offsetsBatchStride may be 0
 * (every batch shares the row offsets). */
trnsparseStatus_t trnsparseConstSpMatGetValues(trnsparseConstSpMatDescr_t spMatDescr, const void** values);
trnsparseStatus_t trnsparseSpMatGetStridedBatch(trnsparseConstSpMatDescr_t spMatDescr, int* batchCount);
trnsparseStatus_t trnsparseCooSetStridedBatch(trnsparseSpMatDescr_t spMatDescr, int batchCount, int64_t batchStride);
trnsparseStatus_t trnsparseCsrSetStridedBatch(trnsparseSpMatDescr_t spMatDescr, int batchCount,
                                              int64_t offsetsBatchStride, int64_t columnsValuesBatchStride);
/* BSR strided batch: offsets, columns and values strides (0 = shared); SpMM runs the batches. */
trnsparseStatus_t trnsparseBsrSetStridedBatch(trnsparseSpMatDescr_t spMatDescr, int batchCount, int64_t offsetsBatchStride,
                                              int64_t columnsBatchStride, int64_t ValuesBatchStride);
trnsparseStatus_t trnsparseCsrGet(trnsparseSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols, int64_t* nnz,
                                  void** csrRowOffsets, void** csrColInd, void** csrValues,
                                  trnsparseIndexType_t* csrRowOffsetsType, trnsparseIndexType_t* csrColIndType,
                                  trnsparseIndexBase_t* idxBase, trnDataType_t* valueType);
trnsparseStatus_t trnsparseConstCsrGet(trnsparseConstSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols,
                                       int64_t* nnz, const void** csrRowOffsets, const void** csrColInd,
                                       const void** csrValues, trnsparseIndexType_t* csrRowOffsetsType,
                                       trnsparseIndexType_t* csrColIndType, trnsparseIndexBase_t* idxBase,
                                       trnDataType_t* valueType);
trnsparseStatus_t trnsparseCscGet(trnsparseSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols, int64_t* nnz,
                                  void** cscColOffsets, void** cscRowInd, void** cscValues,
                                  trnsparseIndexType_t* cscColOffsetsType, trnsparseIndexType_t* cscRowIndType,
                                  trnsparseIndexBase_t* idxBase, trnDataType_t* valueType);
trnsparseStatus_t trnsparseConstCscGet(trnsparseConstSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols,
                                       int64_t* nnz, const void** cscColOffsets, const void** cscRowInd,
                                       const void** cscValues, trnsparseIndexType_t* cscColOffsetsType,
                                       trnsparseIndexType_t* cscRowIndType, trnsparseIndexBase_t* idxBase,
                                       trnDataType_t* valueType);
trnsparseStatus_t trnsparseCooGet(trnsparseSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols, int64_t* nnz,
                                  void** cooRowInd, void** cooColInd, void** cooValues, trnsparseIndexType_t* idxType,
                                  trnsparseIndexBase_t* idxBase, trnDataType_t* valueType);
trnsparseStatus_t trnsparseConstCooGet(trnsparseConstSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols,
                                       int64_t* nnz, const void** cooRowInd, const void** cooColInd,
                                       const void** cooValues, trnsparseIndexType_t* idxType,
                                       trnsparseIndexBase_t* idxBase, trnDataType_t* valueType);
trnsparseStatus_t trnsparseCsrSetPointers(trnsparseSpMatDescr_t spMatDescr, void* csrRowOffsets, void* csrColInd,
                                          void* csrValues);
trnsparseStatus_t trnsparseCscSetPointers(trnsparseSpMatDescr_t spMatDescr, void* cscColOffsets, void* cscRowInd,
                                          void* cscValues);
trnsparseStatus_t trnsparseCooSetPointers(trnsparseSpMatDescr_t spMatDescr, void* cooRows, void* cooColumns,
                                          void* cooValues);

/* sparse-vector operations (host step, any value type; vecY of the same value type). Axpby:
 * Y = alpha X + beta Y; Gather: X.values[i] = Y[X.indices[i]]; Scatter: Y[X.indices[i]] = X.values[i];
 * Rot: (X, Y[idx]) = (c X + s Y[idx], c Y[idx] - s X); SpVV: result = sum op(X)_i Y[idx_i]. */
trnsparseStatus_t trnsparseAxpby(trnsparseHandle_t handle, const void* alpha, trnsparseConstSpVecDescr_t vecX,
                                 const void* beta, trnsparseDnVecDescr_t vecY);
trnsparseStatus_t trnsparseGather(trnsparseHandle_t handle, trnsparseConstDnVecDescr_t vecY, trnsparseSpVecDescr_t vecX);
trnsparseStatus_t trnsparseScatter(trnsparseHandle_t handle, trnsparseConstSpVecDescr_t vecX, trnsparseDnVecDescr_t vecY);
trnsparseStatus_t trnsparseRot(trnsparseHandle_t handle, const void* c_coeff, const void* s_coeff,
                               trnsparseSpVecDescr_t vecX, trnsparseDnVecDescr_t vecY);
trnsparseStatus_t trnsparseSpVV_bufferSize(trnsparseHandle_t handle, trnsparseOperation_t opX,
                                           trnsparseConstSpVecDescr_t vecX, trnsparseConstDnVecDescr_t vecY,
                                           const void* result, trnDataType_t computeType, size_t* bufferSize);
trnsparseStatus_t trnsparseSpVV(trnsparseHandle_t handle, trnsparseOperation_t opX, trnsparseConstSpVecDescr_t vecX,
                                trnsparseConstDnVecDescr_t vecY, void* result, trnDataType_t computeType,
                                void* externalBuffer);

/* conversions (values copied, never combined; index arrays validated first) */
trnsparseStatus_t trnsparseSparseToDense_bufferSize(trnsparseHandle_t handle, trnsparseConstSpMatDescr_t matA,
                                                    trnsparseDnMatDescr_t matB, trnsparseSparseToDenseAlg_t alg,
                                                    size_t* bufferSize);
trnsparseStatus_t trnsparseSparseToDense(trnsparseHandle_t handle, trnsparseConstSpMatDescr_t matA,
                                         trnsparseDnMatDescr_t matB, trnsparseSparseToDenseAlg_t alg,
                                         void* externalBuffer);
/* DenseToSparse: _analysis counts the nonzeros (x != 0), writes the CSR row / CSC column offsets and
 * sets the descriptor's nnz; the caller allocates, calls Csr/Csc/CooSetPointers, then _convert. */
trnsparseStatus_t trnsparseDenseToSparse_bufferSize(trnsparseHandle_t handle, trnsparseConstDnMatDescr_t matA,
                                                    trnsparseSpMatDescr_t matB, trnsparseDenseToSparseAlg_t alg,
                                                    size_t* bufferSize);
trnsparseStatus_t trnsparseDenseToSparse_analysis(trnsparseHandle_t handle, trnsparseConstDnMatDescr_t matA,
                                                  trnsparseSpMatDescr_t matB, trnsparseDenseToSparseAlg_t alg,
                                                  void* externalBuffer);
trnsparseStatus_t trnsparseDenseToSparse_convert(trnsparseHandle_t handle, trnsparseConstDnMatDescr_t matA,
                                                 trnsparseSpMatDescr_t matB, trnsparseDenseToSparseAlg_t alg,
                                                 void* externalBuffer);
trnsparseStatus_t trnsparseCsr2cscEx2(trnsparseHandle_t handle, int m, int n, int nnz, const void* csrVal,
                                      const int* csrRowPtr, const int* csrColInd, void* cscVal, int* cscColPtr,
                                      int* cscRowInd, trnDataType_t valType, trnsparseAction_t copyValues,
                                      trnsparseIndexBase_t idxBase, trnsparseCsr2CscAlg_t alg, void* buffer);
trnsparseStatus_t trnsparseCsr2cscEx2_bufferSize(trnsparseHandle_t handle, int m, int n, int nnz, const void* csrVal,
                                                 const int* csrRowPtr, const int* csrColInd, void* cscVal,
                                                 int* cscColPtr, int* cscRowInd, trnDataType_t valType,
                                                 trnsparseAction_t copyValues, trnsparseIndexBase_t idxBase,
                                                 trnsparseCsr2CscAlg_t alg, size_t* bufferSize);
trnsparseStatus_t trnsparseXcoo2csr(trnsparseHandle_t handle, const int* cooRowInd, int nnz, int m,
                                    int* csrSortedRowPtr, trnsparseIndexBase_t idxBase);
trnsparseStatus_t trnsparseXcsr2coo(trnsparseHandle_t handle, const int* csrSortedRowPtr, int nnz, int m,
                                    int* cooRowInd, trnsparseIndexBase_t idxBase);
/* sorts (stable; P, length nnz, is permuted along: P_out[k] = P_in[source of entry k]). Xcoosort
 * sorts by (row, column) or (column, row) and accepts either index base (rows in [0, m], columns in
 * [0, n]); Xcsrsort/Xcscsort sort within each row/column and use descrA's index base. */
trnsparseStatus_t trnsparseXcoosort_bufferSizeExt(trnsparseHandle_t handle, int m, int n, int nnz, const int* cooRowsA,
                                                  const int* cooColsA, size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseXcoosortByRow(trnsparseHandle_t handle, int m, int n, int nnz, int* cooRowsA, int* cooColsA,
                                         int* P, void* pBuffer);
trnsparseStatus_t trnsparseXcoosortByColumn(trnsparseHandle_t handle, int m, int n, int nnz, int* cooRowsA,
                                            int* cooColsA, int* P, void* pBuffer);
trnsparseStatus_t trnsparseXcsrsort_bufferSizeExt(trnsparseHandle_t handle, int m, int n, int nnz,
                                                  const int* csrRowPtrA, const int* csrColIndA,
                                                  size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseXcsrsort(trnsparseHandle_t handle, int m, int n, int nnz, const trnsparseMatDescr_t descrA,
                                    const int* csrRowPtrA, int* csrColIndA, int* P, void* pBuffer);
trnsparseStatus_t trnsparseXcscsort_bufferSizeExt(trnsparseHandle_t handle, int m, int n, int nnz,
                                                  const int* cscColPtrA, const int* cscRowIndA,
                                                  size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseXcscsort(trnsparseHandle_t handle, int m, int n, int nnz, const trnsparseMatDescr_t descrA,
                                    const int* cscColPtrA, int* cscRowIndA, int* P, void* pBuffer);
/* p = 0, 1, ..., n - 1 (deprecated in cuSPARSE 12, kept for the coosort sample). */
trnsparseStatus_t trnsparseCreateIdentityPermutation(trnsparseHandle_t handle, int n, int* p);

/* ---- tridiagonal / pentadiagonal solvers (cuSPARSE gtsv2 family, gpsvInterleavedBatch) ---------
 * S without pivoting (gtsv2_nopivot, gtsv2StridedBatch, interleaved algo 0) and C in the batched
 * forms (StridedBatch, interleaved algo 0) run on the engines in fp32 (Thomas recurrences: S on
 * VectorE, C on GpSimdE lanes); every other call runs fp64 arithmetic on GpSimdE (software fp64, one system per lane)
 * (trn/sparse/banded.hpp, docs/trnsparse.md "Tridiagonal and pentadiagonal solvers"):
 * gtsv2 LU with partial pivoting, gtsv2_nopivot / gtsv2StridedBatch Gaussian elimination without
 * pivoting, gtsvInterleavedBatch algo 0 / 1 / 2 = no pivoting / partial pivoting / Givens QR,
 * gpsvInterleavedBatch algo 0 = Givens QR. The out-of-matrix band entries are never read; the
 * interleaved forms leave dl, d, du (ds, dw) unchanged. An exactly zero pivot in any system:
 * TRNSPARSE_STATUS_ZERO_PIVOT with x / B untouched. pBuffer is not used (NULL allowed). */
trnsparseStatus_t trnsparseSgtsv2_bufferSizeExt(trnsparseHandle_t handle, int m, int n, const float* dl,
                                                const float* d, const float* du, const float* B, int ldb,
                                                size_t* bufferSizeInBytes);
trnsparseStatus_t trnsparseDgtsv2_bufferSizeExt(trnsparseHandle_t handle, int m, int n, const double* dl,
                                                const double* d, const double* du, const double* B, int ldb,
                                                size_t* bufferSizeInBytes);
trnsparseStatus_t trnsparseCgtsv2_bufferSizeExt(trnsparseHandle_t handle, int m, int n, const trnComplex* dl,
                                                const trnComplex* d, const trnComplex* du, const trnComplex* B,
                                                int ldb, size_t* bufferSizeInBytes);
trnsparseStatus_t trnsparseZgtsv2_bufferSizeExt(trnsparseHandle_t handle, int m, int n, const trnDoubleComplex* dl,
                                                const trnDoubleComplex* d, const trnDoubleComplex* du,
                                                const trnDoubleComplex* B, int ldb, size_t* bufferSizeInBytes);
trnsparseStatus_t trnsparseSgtsv2(trnsparseHandle_t handle, int m, int n, const float* dl, const float* d,
                                  const float* du, float* B, int ldb, void* pBuffer);
trnsparseStatus_t trnsparseDgtsv2(trnsparseHandle_t handle, int m, int n, const double* dl, const double* d,
                                  const double* du, double* B, int ldb, void* pBuffer);
trnsparseStatus_t trnsparseCgtsv2(trnsparseHandle_t handle, int m, int n, const trnComplex* dl, const trnComplex* d,
                                  const trnComplex* du, trnComplex* B, int ldb, void* pBuffer);
trnsparseStatus_t trnsparseZgtsv2(trnsparseHandle_t handle, int m, int n, const trnDoubleComplex* dl,
                                  const trnDoubleComplex* d, const trnDoubleComplex* du, trnDoubleComplex* B, int ldb,
                                  void* pBuffer);
trnsparseStatus_t trnsparseSgtsv2_nopivot_bufferSizeExt(trnsparseHandle_t handle, int m, int n, const float* dl,
                                                        const float* d, const float* du, const float* B, int ldb,
                                                        size_t* bufferSizeInBytes);
trnsparseStatus_t trnsparseDgtsv2_nopivot_bufferSizeExt(trnsparseHandle_t handle, int m, int n, const double* dl,
                                                        const double* d, const double* du, const double* B, int ldb,
                                                        size_t* bufferSizeInBytes);
trnsparseStatus_t trnsparseCgtsv2_nopivot_bufferSizeExt(trnsparseHandle_t handle, int m, int n, const trnComplex* dl,
                                                        const trnComplex* d, const trnComplex* du,
                                                        const trnComplex* B, int ldb, size_t* bufferSizeInBytes);
trnsparseStatus_t trnsparseZgtsv2_nopivot_bufferSizeExt(trnsparseHandle_t handle, int m, int n,
                                                        const trnDoubleComplex* dl, const trnDoubleComplex* d,
                                                        const trnDoubleComplex* du, const trnDoubleComplex* B,
                                                        int ldb, size_t* bufferSizeInBytes);
trnsparseStatus_t trnsparseSgtsv2_nopivot(trnsparseHandle_t handle, int m, int n, const float* dl, const float* d,
                                          const float* du, float* B, int ldb, void* pBuffer);
trnsparseStatus_t trnsparseDgtsv2_nopivot(trnsparseHandle_t handle, int m, int n, const double* dl, const double* d,
                                          const double* du, double* B, int ldb, void* pBuffer);
trnsparseStatus_t trnsparseCgtsv2_nopivot(trnsparseHandle_t handle, int m, int n, const trnComplex* dl,
                                          const trnComplex* d, const trnComplex* du, trnComplex* B, int ldb,
                                          void* pBuffer);
trnsparseStatus_t trnsparseZgtsv2_nopivot(trnsparseHandle_t handle, int m, int n, const trnDoubleComplex* dl,
                                          const trnDoubleComplex* d, const trnDoubleComplex* du, trnDoubleComplex* B,
                                          int ldb, void* pBuffer);
trnsparseStatus_t trnsparseSgtsv2StridedBatch_bufferSizeExt(trnsparseHandle_t handle, int m, const float* dl,
                                                            const float* d, const float* du, const float* x,
                                                            int batchCount, int batchStride,
                                                            size_t* bufferSizeInBytes);
trnsparseStatus_t trnsparseDgtsv2StridedBatch_bufferSizeExt(trnsparseHandle_t handle, int m, const double* dl,
                                                            const double* d, const double* du, const double* x,
                                                            int batchCount, int batchStride,
                                                            size_t* bufferSizeInBytes);
trnsparseStatus_t trnsparseCgtsv2StridedBatch_bufferSizeExt(trnsparseHandle_t handle, int m, const trnComplex* dl,
                                                            const trnComplex* d, const trnComplex* du,
                                                            const trnComplex* x, int batchCount, int batchStride,
                                                            size_t* bufferSizeInBytes);
trnsparseStatus_t trnsparseZgtsv2StridedBatch_bufferSizeExt(trnsparseHandle_t handle, int m,
                                                            const trnDoubleComplex* dl, const trnDoubleComplex* d,
                                                            const trnDoubleComplex* du, const trnDoubleComplex* x,
                                                            int batchCount, int batchStride,
                                                            size_t* bufferSizeInBytes);
trnsparseStatus_t trnsparseSgtsv2StridedBatch(trnsparseHandle_t handle, int m, const float* dl, const float* d,
                                              const float* du, float* x, int batchCount, int batchStride,
                                              void* pBuffer);
trnsparseStatus_t trnsparseDgtsv2StridedBatch(trnsparseHandle_t handle, int m, const double* dl, const double* d,
                                              const double* du, double* x, int batchCount, int batchStride,
                                              void* pBuffer);
trnsparseStatus_t trnsparseCgtsv2StridedBatch(trnsparseHandle_t handle, int m, const trnComplex* dl,
                                              const trnComplex* d, const trnComplex* du, trnComplex* x,
                                              int batchCount, int batchStride, void* pBuffer);
trnsparseStatus_t trnsparseZgtsv2StridedBatch(trnsparseHandle_t handle, int m, const trnDoubleComplex* dl,
                                              const trnDoubleComplex* d, const trnDoubleComplex* du,
                                              trnDoubleComplex* x, int batchCount, int batchStride, void* pBuffer);
trnsparseStatus_t trnsparseSgtsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t handle, int algo, int m,
                                                               const float* dl, const float* d, const float* du,
                                                               const float* x, int batchCount,
                                                               size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseDgtsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t handle, int algo, int m,
                                                               const double* dl, const double* d, const double* du,
                                                               const double* x, int batchCount,
                                                               size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseCgtsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t handle, int algo, int m,
                                                               const trnComplex* dl, const trnComplex* d,
                                                               const trnComplex* du, const trnComplex* x,
                                                               int batchCount, size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseZgtsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t handle, int algo, int m,
                                                               const trnDoubleComplex* dl, const trnDoubleComplex* d,
                                                               const trnDoubleComplex* du, const trnDoubleComplex* x,
                                                               int batchCount, size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseSgtsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m, float* dl, float* d,
                                                 float* du, float* x, int batchCount, void* pBuffer);
trnsparseStatus_t trnsparseDgtsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m, double* dl, double* d,
                                                 double* du, double* x, int batchCount, void* pBuffer);
trnsparseStatus_t trnsparseCgtsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m, trnComplex* dl,
                                                 trnComplex* d, trnComplex* du, trnComplex* x, int batchCount,
                                                 void* pBuffer);
trnsparseStatus_t trnsparseZgtsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m, trnDoubleComplex* dl,
                                                 trnDoubleComplex* d, trnDoubleComplex* du, trnDoubleComplex* x,
                                                 int batchCount, void* pBuffer);
trnsparseStatus_t trnsparseSgpsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t handle, int algo, int m,
                                                               const float* ds, const float* dl, const float* d,
                                                               const float* du, const float* dw, const float* x,
                                                               int batchCount, size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseDgpsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t handle, int algo, int m,
                                                               const double* ds, const double* dl, const double* d,
                                                               const double* du, const double* dw, const double* x,
                                                               int batchCount, size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseCgpsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t handle, int algo, int m,
                                                               const trnComplex* ds, const trnComplex* dl,
                                                               const trnComplex* d, const trnComplex* du,
                                                               const trnComplex* dw, const trnComplex* x,
                                                               int batchCount, size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseZgpsvInterleavedBatch_bufferSizeExt(trnsparseHandle_t handle, int algo, int m,
                                                               const trnDoubleComplex* ds, const trnDoubleComplex* dl,
                                                               const trnDoubleComplex* d, const trnDoubleComplex* du,
                                                               const trnDoubleComplex* dw, const trnDoubleComplex* x,
                                                               int batchCount, size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseSgpsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m, float* ds, float* dl,
                                                 float* d, float* du, float* dw, float* x, int batchCount,
                                                 void* pBuffer);
trnsparseStatus_t trnsparseDgpsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m, double* ds, double* dl,
                                                 double* d, double* du, double* dw, double* x, int batchCount,
                                                 void* pBuffer);
trnsparseStatus_t trnsparseCgpsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m, trnComplex* ds,
                                                 trnComplex* dl, trnComplex* d, trnComplex* du, trnComplex* dw,
                                                 trnComplex* x, int batchCount, void* pBuffer);
trnsparseStatus_t trnsparseZgpsvInterleavedBatch(trnsparseHandle_t handle, int algo, int m, trnDoubleComplex* ds,
                                                 trnDoubleComplex* dl, trnDoubleComplex* d, trnDoubleComplex* du,
                                                 trnDoubleComplex* dw, trnDoubleComplex* x, int batchCount,
                                                 void* pBuffer);

/* ---- general-BSR conversions (legacy API, int32 indices; trn/sparse/gebsr.hpp) -----------------
 * csr2gebsr: a sorted CSR -> rowBlockDim x colBlockDim blocks (dirA: block layout), the row
 * pointer from Xcsr2gebsrNnz first; gebsr2gebsc: general BSR -> general BSC, blocks copied
 * unchanged. Host index work (values moved, never combined). pBuffer is not used (may be NULL). */
trnsparseStatus_t trnsparseXcsr2gebsrNnz(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
                                         const trnsparseMatDescr_t descrA, const int* csrSortedRowPtrA,
                                         const int* csrSortedColIndA, const trnsparseMatDescr_t descrC,
                                         int* bsrSortedRowPtrC, int rowBlockDim, int colBlockDim,
                                         int* nnzTotalDevHostPtr, void* pBuffer);
trnsparseStatus_t trnsparseScsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const float* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, int* pBufferSize);
trnsparseStatus_t trnsparseScsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const float* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, size_t* pBufferSize);
trnsparseStatus_t trnsparseScsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const float* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    const trnsparseMatDescr_t descrC, float* bsrSortedValC, int* bsrSortedRowPtrC, int* bsrSortedColIndC, int rowBlockDim,
    int colBlockDim, void* pBuffer);
trnsparseStatus_t trnsparseSgebsr2gebsc_bufferSize(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const float* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    int* pBufferSize);
trnsparseStatus_t trnsparseSgebsr2gebsc_bufferSizeExt(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const float* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    size_t* pBufferSize);
trnsparseStatus_t trnsparseSgebsr2gebsc(trnsparseHandle_t handle, int mb, int nb, int nnzb, const float* bsrSortedVal,
    const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim, float* bscVal,
    int* bscRowInd, int* bscColPtr, trnsparseAction_t copyValues, trnsparseIndexBase_t idxBase, void* pBuffer);
trnsparseStatus_t trnsparseDcsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const double* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, int* pBufferSize);
trnsparseStatus_t trnsparseDcsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const double* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, size_t* pBufferSize);
trnsparseStatus_t trnsparseDcsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const double* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    const trnsparseMatDescr_t descrC, double* bsrSortedValC, int* bsrSortedRowPtrC, int* bsrSortedColIndC, int rowBlockDim,
    int colBlockDim, void* pBuffer);
trnsparseStatus_t trnsparseDgebsr2gebsc_bufferSize(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const double* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    int* pBufferSize);
trnsparseStatus_t trnsparseDgebsr2gebsc_bufferSizeExt(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const double* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    size_t* pBufferSize);
trnsparseStatus_t trnsparseDgebsr2gebsc(trnsparseHandle_t handle, int mb, int nb, int nnzb, const double* bsrSortedVal,
    const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim, double* bscVal,
    int* bscRowInd, int* bscColPtr, trnsparseAction_t copyValues, trnsparseIndexBase_t idxBase, void* pBuffer);
trnsparseStatus_t trnsparseCcsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const trnComplex* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, int* pBufferSize);
trnsparseStatus_t trnsparseCcsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const trnComplex* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, size_t* pBufferSize);
trnsparseStatus_t trnsparseCcsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const trnComplex* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    const trnsparseMatDescr_t descrC, trnComplex* bsrSortedValC, int* bsrSortedRowPtrC, int* bsrSortedColIndC, int rowBlockDim,
    int colBlockDim, void* pBuffer);
trnsparseStatus_t trnsparseCgebsr2gebsc_bufferSize(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const trnComplex* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    int* pBufferSize);
trnsparseStatus_t trnsparseCgebsr2gebsc_bufferSizeExt(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const trnComplex* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    size_t* pBufferSize);
trnsparseStatus_t trnsparseCgebsr2gebsc(trnsparseHandle_t handle, int mb, int nb, int nnzb, const trnComplex* bsrSortedVal,
    const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim, trnComplex* bscVal,
    int* bscRowInd, int* bscColPtr, trnsparseAction_t copyValues, trnsparseIndexBase_t idxBase, void* pBuffer);
trnsparseStatus_t trnsparseZcsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const trnDoubleComplex* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, int* pBufferSize);
trnsparseStatus_t trnsparseZcsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const trnDoubleComplex* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, size_t* pBufferSize);
trnsparseStatus_t trnsparseZcsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const trnDoubleComplex* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    const trnsparseMatDescr_t descrC, trnDoubleComplex* bsrSortedValC, int* bsrSortedRowPtrC, int* bsrSortedColIndC, int rowBlockDim,
    int colBlockDim, void* pBuffer);
trnsparseStatus_t trnsparseZgebsr2gebsc_bufferSize(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const trnDoubleComplex* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    int* pBufferSize);
trnsparseStatus_t trnsparseZgebsr2gebsc_bufferSizeExt(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const trnDoubleComplex* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    size_t* pBufferSize);
trnsparseStatus_t trnsparseZgebsr2gebsc(trnsparseHandle_t handle, int mb, int nb, int nnzb, const trnDoubleComplex* bsrSortedVal,
    const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim, trnDoubleComplex* bscVal,
    int* bscRowInd, int* bscColPtr, trnsparseAction_t copyValues, trnsparseIndexBase_t idxBase, void* pBuffer);

/* ---- gebsr2gebsr, gebsr2csr (legacy API, deprecated in CUDA 12.8; int32 indices) --------------
 * gebsr2gebsr: general BSR A (rowBlockDimA x colBlockDimA) -> general BSR C (rowBlockDimC x
 * colBlockDimC), the row pointer from Xgebsr2gebsrNnz first; C's blocks are those meeting a stored
 * block of A (explicit zeros included), A's block layout (dirA) kept. gebsr2csr: every value of
 * every stored block becomes a CSR entry (Xgebsr2csr: the pattern only). Host index work (values
 * moved, never combined); pBuffer is not used (may be NULL). docs/trnsparse.md "gebsr2gebsr". */
trnsparseStatus_t trnsparseXgebsr2gebsrNnz(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb, int nnzb,
    const trnsparseMatDescr_t descrA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA, int rowBlockDimA,
    int colBlockDimA, const trnsparseMatDescr_t descrC, int* bsrSortedRowPtrC, int rowBlockDimC, int colBlockDimC,
    int* nnzTotalDevHostPtr, void* pBuffer);
trnsparseStatus_t trnsparseXgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    const trnsparseMatDescr_t descrA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA, int rowBlockDim, int colBlockDim,
    const trnsparseMatDescr_t descrC, int* csrSortedRowPtrC, int* csrSortedColIndC);
trnsparseStatus_t trnsparseSgebsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const float* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, int* pBufferSize);
trnsparseStatus_t trnsparseSgebsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const float* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, size_t* pBufferSize);
trnsparseStatus_t trnsparseSgebsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb, int nnzb,
    const trnsparseMatDescr_t descrA, const float* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, const trnsparseMatDescr_t descrC, float* bsrSortedValC, int* bsrSortedRowPtrC,
    int* bsrSortedColIndC, int rowBlockDimC, int colBlockDimC, void* pBuffer);
trnsparseStatus_t trnsparseSgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    const trnsparseMatDescr_t descrA, const float* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDim, int colBlockDim, const trnsparseMatDescr_t descrC, float* csrSortedValC, int* csrSortedRowPtrC,
    int* csrSortedColIndC);
trnsparseStatus_t trnsparseDgebsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const double* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, int* pBufferSize);
trnsparseStatus_t trnsparseDgebsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const double* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, size_t* pBufferSize);
trnsparseStatus_t trnsparseDgebsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb, int nnzb,
    const trnsparseMatDescr_t descrA, const double* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, const trnsparseMatDescr_t descrC, double* bsrSortedValC, int* bsrSortedRowPtrC,
    int* bsrSortedColIndC, int rowBlockDimC, int colBlockDimC, void* pBuffer);
trnsparseStatus_t trnsparseDgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    const trnsparseMatDescr_t descrA, const double* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDim, int colBlockDim, const trnsparseMatDescr_t descrC, double* csrSortedValC, int* csrSortedRowPtrC,
    int* csrSortedColIndC);
trnsparseStatus_t trnsparseCgebsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const trnComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, int* pBufferSize);
trnsparseStatus_t trnsparseCgebsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const trnComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, size_t* pBufferSize);
trnsparseStatus_t trnsparseCgebsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb, int nnzb,
    const trnsparseMatDescr_t descrA, const trnComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, const trnsparseMatDescr_t descrC, trnComplex* bsrSortedValC, int* bsrSortedRowPtrC,
    int* bsrSortedColIndC, int rowBlockDimC, int colBlockDimC, void* pBuffer);
trnsparseStatus_t trnsparseCgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    const trnsparseMatDescr_t descrA, const trnComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDim, int colBlockDim, const trnsparseMatDescr_t descrC, trnComplex* csrSortedValC, int* csrSortedRowPtrC,
    int* csrSortedColIndC);
trnsparseStatus_t trnsparseZgebsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const trnDoubleComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, int* pBufferSize);
trnsparseStatus_t trnsparseZgebsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const trnDoubleComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, size_t* pBufferSize);
trnsparseStatus_t trnsparseZgebsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb, int nnzb,
    const trnsparseMatDescr_t descrA, const trnDoubleComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, const trnsparseMatDescr_t descrC, trnDoubleComplex* bsrSortedValC, int* bsrSortedRowPtrC,
    int* bsrSortedColIndC, int rowBlockDimC, int colBlockDimC, void* pBuffer);
trnsparseStatus_t trnsparseZgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    const trnsparseMatDescr_t descrA, const trnDoubleComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDim, int colBlockDim, const trnsparseMatDescr_t descrC, trnDoubleComplex* csrSortedValC, int* csrSortedRowPtrC,
    int* csrSortedColIndC);

/* ---- csrgeam2: C = alpha A + beta B on CSR (legacy API, int32 indices, sorted columns) ----------
 * C's pattern is the union of A's and B's whatever alpha and beta are; Xcsrgeam2Nnz writes C's row
 * offsets (descrC's base) and nnz, csrgeam2 checks C's offsets are those and writes the columns and
 * values: one costed fp64 host step (trn/sparse/csrgeam.hpp, docs/trnsparse.md "csrgeam2"). Matrix
 * type GENERAL only (else MATRIX_TYPE_NOT_SUPPORTED); the buffer is not used. GetProperty: the
 * TRNSPARSE_VER_* numbers. */
trnsparseStatus_t trnsparseGetProperty(libraryPropertyType type, int* value);
trnsparseStatus_t trnsparseScsrgeam2_bufferSizeExt(trnsparseHandle_t handle, int m, int n, const float* alpha,
                                                   const trnsparseMatDescr_t descrA, int nnzA,
                                                   const float* csrSortedValA, const int* csrSortedRowPtrA,
                                                   const int* csrSortedColIndA, const float* beta,
                                                   const trnsparseMatDescr_t descrB, int nnzB,
                                                   const float* csrSortedValB, const int* csrSortedRowPtrB,
                                                   const int* csrSortedColIndB, const trnsparseMatDescr_t descrC,
                                                   const float* csrSortedValC, const int* csrSortedRowPtrC,
                                                   const int* csrSortedColIndC, size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseDcsrgeam2_bufferSizeExt(trnsparseHandle_t handle, int m, int n, const double* alpha,
                                                   const trnsparseMatDescr_t descrA, int nnzA,
                                                   const double* csrSortedValA, const int* csrSortedRowPtrA,
                                                   const int* csrSortedColIndA, const double* beta,
                                                   const trnsparseMatDescr_t descrB, int nnzB,
                                                   const double* csrSortedValB, const int* csrSortedRowPtrB,
                                                   const int* csrSortedColIndB, const trnsparseMatDescr_t descrC,
                                                   const double* csrSortedValC, const int* csrSortedRowPtrC,
                                                   const int* csrSortedColIndC, size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseCcsrgeam2_bufferSizeExt(trnsparseHandle_t handle, int m, int n, const trnComplex* alpha,
                                                   const trnsparseMatDescr_t descrA, int nnzA,
                                                   const trnComplex* csrSortedValA, const int* csrSortedRowPtrA,
                                                   const int* csrSortedColIndA, const trnComplex* beta,
                                                   const trnsparseMatDescr_t descrB, int nnzB,
                                                   const trnComplex* csrSortedValB, const int* csrSortedRowPtrB,
                                                   const int* csrSortedColIndB, const trnsparseMatDescr_t descrC,
                                                   const trnComplex* csrSortedValC, const int* csrSortedRowPtrC,
                                                   const int* csrSortedColIndC, size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseZcsrgeam2_bufferSizeExt(trnsparseHandle_t handle, int m, int n,
                                                   const trnDoubleComplex* alpha, const trnsparseMatDescr_t descrA,
                                                   int nnzA, const trnDoubleComplex* csrSortedValA,
                                                   const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                                   const trnDoubleComplex* beta, const trnsparseMatDescr_t descrB,
                                                   int nnzB, const trnDoubleComplex* csrSortedValB,
                                                   const int* csrSortedRowPtrB, const int* csrSortedColIndB,
                                                   const trnsparseMatDescr_t descrC,
                                                   const trnDoubleComplex* csrSortedValC, const int* csrSortedRowPtrC,
                                                   const int* csrSortedColIndC, size_t* pBufferSizeInBytes);
trnsparseStatus_t trnsparseXcsrgeam2Nnz(trnsparseHandle_t handle, int m, int n, const trnsparseMatDescr_t descrA,
                                        int nnzA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                        const trnsparseMatDescr_t descrB, int nnzB, const int* csrSortedRowPtrB,
                                        const int* csrSortedColIndB, const trnsparseMatDescr_t descrC,
                                        int* csrSortedRowPtrC, int* nnzTotalDevHostPtr, void* workspace);
trnsparseStatus_t trnsparseScsrgeam2(trnsparseHandle_t handle, int m, int n, const float* alpha,
                                     const trnsparseMatDescr_t descrA, int nnzA, const float* csrSortedValA,
                                     const int* csrSortedRowPtrA, const int* csrSortedColIndA, const float* beta,
                                     const trnsparseMatDescr_t descrB, int nnzB, const float* csrSortedValB,
                                     const int* csrSortedRowPtrB, const int* csrSortedColIndB,
                                     const trnsparseMatDescr_t descrC, float* csrSortedValC, int* csrSortedRowPtrC,
                                     int* csrSortedColIndC, void* pBuffer);
trnsparseStatus_t trnsparseDcsrgeam2(trnsparseHandle_t handle, int m, int n, const double* alpha,
                                     const trnsparseMatDescr_t descrA, int nnzA, const double* csrSortedValA,
                                     const int* csrSortedRowPtrA, const int* csrSortedColIndA, const double* beta,
                                     const trnsparseMatDescr_t descrB, int nnzB, const double* csrSortedValB,
                                     const int* csrSortedRowPtrB, const int* csrSortedColIndB,
                                     const trnsparseMatDescr_t descrC, double* csrSortedValC, int* csrSortedRowPtrC,
                                     int* csrSortedColIndC, void* pBuffer);
trnsparseStatus_t trnsparseCcsrgeam2(trnsparseHandle_t handle, int m, int n, const trnComplex* alpha,
                                     const trnsparseMatDescr_t descrA, int nnzA, const trnComplex* csrSortedValA,
                                     const int* csrSortedRowPtrA, const int* csrSortedColIndA, const trnComplex* beta,
                                     const trnsparseMatDescr_t descrB, int nnzB, const trnComplex* csrSortedValB,
                                     const int* csrSortedRowPtrB, const int* csrSortedColIndB,
                                     const trnsparseMatDescr_t descrC, trnComplex* csrSortedValC,
                                     int* csrSortedRowPtrC, int* csrSortedColIndC, void* pBuffer);
trnsparseStatus_t trnsparseZcsrgeam2(trnsparseHandle_t handle, int m, int n, const trnDoubleComplex* alpha,
                                     const trnsparseMatDescr_t descrA, int nnzA,
                                     const trnDoubleComplex* csrSortedValA, const int* csrSortedRowPtrA,
                                     const int* csrSortedColIndA, const trnDoubleComplex* beta,
                                     const trnsparseMatDescr_t descrB, int nnzB,
                                     const trnDoubleComplex* csrSortedValB, const int* csrSortedRowPtrB,
                                     const int* csrSortedColIndB, const trnsparseMatDescr_t descrC,
                                     trnDoubleComplex* csrSortedValC, int* csrSortedRowPtrC, int* csrSortedColIndC,
                                     void* pBuffer);

/* nnz: the nonzeros (x != 0; complex: either part; NaN counts) of each row (dirA ROW) or column of
 * the column-major m x n A, and their total (descrA GENERAL; its base is not used). Counting only. */
trnsparseStatus_t trnsparseSnnz(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
                                const trnsparseMatDescr_t descrA, const float* A, int lda, int* nnzPerRowCol,
                                int* nnzTotalDevHostPtr);
trnsparseStatus_t trnsparseDnnz(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
                                const trnsparseMatDescr_t descrA, const double* A, int lda, int* nnzPerRowCol,
                                int* nnzTotalDevHostPtr);
trnsparseStatus_t trnsparseCnnz(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
                                const trnsparseMatDescr_t descrA, const trnComplex* A, int lda, int* nnzPerRowCol,
                                int* nnzTotalDevHostPtr);
trnsparseStatus_t trnsparseZnnz(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
                                const trnsparseMatDescr_t descrA, const trnDoubleComplex* A, int lda,
                                int* nnzPerRowCol, int* nnzTotalDevHostPtr);

/* ---- incomplete factorizations csric02 / csrilu02 (cuSPARSE's legacy preconditioners, deprecated
 * there, kept for the cg / bicgstab samples) --------------------------------------------------
 * IC(0) on the lower triangle / ILU(0) on the whole sorted CSR pattern, in place in csrVal, fp64
 * arithmetic (docs/trnsparse.md "Incomplete factorizations"). _analysis validates the pattern and
 * finds the structural zero; the factorization stops at the first zero pivot (missing diagonal,
 * ILU u_ii == 0 after the boost, IC pivot not > 0) and then writes nothing; Xcsr*02_zeroPivot returns
 * TRNSPARSE_STATUS_ZERO_PIVOT with its row in the matrix's index base, else SUCCESS and -1. The
 * buffer is never used (any pointer, NULL included). The factorization uses the pattern its info
 * was analyzed with. The info type names keep cuSPARSE's spelling (no prefix). */
typedef enum { TRNSPARSE_SOLVE_POLICY_NO_LEVEL = 0, TRNSPARSE_SOLVE_POLICY_USE_LEVEL = 1 } trnsparseSolvePolicy_t;
struct csric02Info;
typedef struct csric02Info* csric02Info_t;
struct csrilu02Info;
typedef struct csrilu02Info* csrilu02Info_t;
trnsparseStatus_t trnsparseCreateCsric02Info(csric02Info_t* info);
trnsparseStatus_t trnsparseDestroyCsric02Info(csric02Info_t info);
trnsparseStatus_t trnsparseCreateCsrilu02Info(csrilu02Info_t* info);
trnsparseStatus_t trnsparseDestroyCsrilu02Info(csrilu02Info_t info);
trnsparseStatus_t trnsparseXcsric02_zeroPivot(trnsparseHandle_t handle, csric02Info_t info, int* position);
trnsparseStatus_t trnsparseXcsrilu02_zeroPivot(trnsparseHandle_t handle, csrilu02Info_t info, int* position);
trnsparseStatus_t trnsparseScsric02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                               const trnsparseMatDescr_t descrA, float* csrSortedValA,
                                               const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                               csric02Info_t info, int* pBufferSizeInBytes);
trnsparseStatus_t trnsparseScsric02_bufferSizeExt(trnsparseHandle_t handle, int m, int nnz,
                                                  const trnsparseMatDescr_t descrA, float* csrSortedVal,
                                                  const int* csrSortedRowPtr, const int* csrSortedColInd,
                                                  csric02Info_t info, size_t* pBufferSize);
trnsparseStatus_t trnsparseScsric02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                             const trnsparseMatDescr_t descrA, const float* csrSortedValA,
                                             const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                             csric02Info_t info, trnsparseSolvePolicy_t policy, void* pBuffer);
trnsparseStatus_t trnsparseScsric02(trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA,
                                    float* csrSortedValA_valM, const int* csrSortedRowPtrA,
                                    const int* csrSortedColIndA, csric02Info_t info, trnsparseSolvePolicy_t policy,
                                    void* pBuffer);
trnsparseStatus_t trnsparseScsrilu02_numericBoost(trnsparseHandle_t handle, csrilu02Info_t info, int enable_boost,
                                                  double* tol, float* boost_val);
trnsparseStatus_t trnsparseScsrilu02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                                const trnsparseMatDescr_t descrA, float* csrSortedValA,
                                                const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                                csrilu02Info_t info, int* pBufferSizeInBytes);
trnsparseStatus_t trnsparseScsrilu02_bufferSizeExt(trnsparseHandle_t handle, int m, int nnz,
                                                   const trnsparseMatDescr_t descrA, float* csrSortedVal,
                                                   const int* csrSortedRowPtr, const int* csrSortedColInd,
                                                   csrilu02Info_t info, size_t* pBufferSize);
trnsparseStatus_t trnsparseScsrilu02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                              const trnsparseMatDescr_t descrA, const float* csrSortedValA,
                                              const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                              csrilu02Info_t info, trnsparseSolvePolicy_t policy, void* pBuffer);
trnsparseStatus_t trnsparseScsrilu02(trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA,
                                     float* csrSortedValA_valM, const int* csrSortedRowPtrA,
                                     const int* csrSortedColIndA, csrilu02Info_t info, trnsparseSolvePolicy_t policy,
                                     void* pBuffer);
trnsparseStatus_t trnsparseDcsric02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                               const trnsparseMatDescr_t descrA, double* csrSortedValA,
                                               const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                               csric02Info_t info, int* pBufferSizeInBytes);
trnsparseStatus_t trnsparseDcsric02_bufferSizeExt(trnsparseHandle_t handle, int m, int nnz,
                                                  const trnsparseMatDescr_t descrA, double* csrSortedVal,
                                                  const int* csrSortedRowPtr, const int* csrSortedColInd,
                                                  csric02Info_t info, size_t* pBufferSize);
trnsparseStatus_t trnsparseDcsric02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                             const trnsparseMatDescr_t descrA, const double* csrSortedValA,
                                             const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                             csric02Info_t info, trnsparseSolvePolicy_t policy, void* pBuffer);
trnsparseStatus_t trnsparseDcsric02(trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA,
                                    double* csrSortedValA_valM, const int* csrSortedRowPtrA,
                                    const int* csrSortedColIndA, csric02Info_t info, trnsparseSolvePolicy_t policy,
                                    void* pBuffer);
trnsparseStatus_t trnsparseDcsrilu02_numericBoost(trnsparseHandle_t handle, csrilu02Info_t info, int enable_boost,
                                                  double* tol, double* boost_val);
trnsparseStatus_t trnsparseDcsrilu02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                                const trnsparseMatDescr_t descrA, double* csrSortedValA,
                                                const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                                csrilu02Info_t info, int* pBufferSizeInBytes);
trnsparseStatus_t trnsparseDcsrilu02_bufferSizeExt(trnsparseHandle_t handle, int m, int nnz,
                                                   const trnsparseMatDescr_t descrA, double* csrSortedVal,
                                                   const int* csrSortedRowPtr, const int* csrSortedColInd,
                                                   csrilu02Info_t info, size_t* pBufferSize);
trnsparseStatus_t trnsparseDcsrilu02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                              const trnsparseMatDescr_t descrA, const double* csrSortedValA,
                                              const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                              csrilu02Info_t info, trnsparseSolvePolicy_t policy, void* pBuffer);
trnsparseStatus_t trnsparseDcsrilu02(trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA,
                                     double* csrSortedValA_valM, const int* csrSortedRowPtrA,
                                     const int* csrSortedColIndA, csrilu02Info_t info, trnsparseSolvePolicy_t policy,
                                     void* pBuffer);
trnsparseStatus_t trnsparseCcsric02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                               const trnsparseMatDescr_t descrA, trnComplex* csrSortedValA,
                                               const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                               csric02Info_t info, int* pBufferSizeInBytes);
trnsparseStatus_t trnsparseCcsric02_bufferSizeExt(trnsparseHandle_t handle, int m, int nnz,
                                                  const trnsparseMatDescr_t descrA, trnComplex* csrSortedVal,
                                                  const int* csrSortedRowPtr, const int* csrSortedColInd,
                                                  csric02Info_t info, size_t* pBufferSize);
trnsparseStatus_t trnsparseCcsric02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                             const trnsparseMatDescr_t descrA, const trnComplex* csrSortedValA,
                                             const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                             csric02Info_t info, trnsparseSolvePolicy_t policy, void* pBuffer);
trnsparseStatus_t trnsparseCcsric02(trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA,
                                    trnComplex* csrSortedValA_valM, const int* csrSortedRowPtrA,
                                    const int* csrSortedColIndA, csric02Info_t info, trnsparseSolvePolicy_t policy,
                                    void* pBuffer);
trnsparseStatus_t trnsparseCcsrilu02_numericBoost(trnsparseHandle_t handle, csrilu02Info_t info, int enable_boost,
                                                  double* tol, trnComplex* boost_val);
trnsparseStatus_t trnsparseCcsrilu02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                                const trnsparseMatDescr_t descrA, trnComplex* csrSortedValA,
                                                const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                                csrilu02Info_t info, int* pBufferSizeInBytes);
trnsparseStatus_t trnsparseCcsrilu02_bufferSizeExt(trnsparseHandle_t handle, int m, int nnz,
                                                   const trnsparseMatDescr_t descrA, trnComplex* csrSortedVal,
                                                   const int* csrSortedRowPtr, const int* csrSortedColInd,
                                                   csrilu02Info_t info, size_t* pBufferSize);
trnsparseStatus_t trnsparseCcsrilu02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                              const trnsparseMatDescr_t descrA, const trnComplex* csrSortedValA,
                                              const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                              csrilu02Info_t info, trnsparseSolvePolicy_t policy, void* pBuffer);
trnsparseStatus_t trnsparseCcsrilu02(trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA,
                                     trnComplex* csrSortedValA_valM, const int* csrSortedRowPtrA,
                                     const int* csrSortedColIndA, csrilu02Info_t info, trnsparseSolvePolicy_t policy,
                                     void* pBuffer);
trnsparseStatus_t trnsparseZcsric02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                               const trnsparseMatDescr_t descrA, trnDoubleComplex* csrSortedValA,
                                               const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                               csric02Info_t info, int* pBufferSizeInBytes);
trnsparseStatus_t trnsparseZcsric02_bufferSizeExt(trnsparseHandle_t handle, int m, int nnz,
                                                  const trnsparseMatDescr_t descrA, trnDoubleComplex* csrSortedVal,
                                                  const int* csrSortedRowPtr, const int* csrSortedColInd,
                                                  csric02Info_t info, size_t* pBufferSize);
trnsparseStatus_t trnsparseZcsric02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                             const trnsparseMatDescr_t descrA, const trnDoubleComplex* csrSortedValA,
                                             const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                             csric02Info_t info, trnsparseSolvePolicy_t policy, void* pBuffer);
trnsparseStatus_t trnsparseZcsric02(trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA,
                                    trnDoubleComplex* csrSortedValA_valM, const int* csrSortedRowPtrA,
                                    const int* csrSortedColIndA, csric02Info_t info, trnsparseSolvePolicy_t policy,
                                    void* pBuffer);
trnsparseStatus_t trnsparseZcsrilu02_numericBoost(trnsparseHandle_t handle, csrilu02Info_t info, int enable_boost,
                                                  double* tol, trnDoubleComplex* boost_val);
trnsparseStatus_t trnsparseZcsrilu02_bufferSize(trnsparseHandle_t handle, int m, int nnz,
                                                const trnsparseMatDescr_t descrA, trnDoubleComplex* csrSortedValA,
                                                const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                                csrilu02Info_t info, int* pBufferSizeInBytes);
trnsparseStatus_t trnsparseZcsrilu02_bufferSizeExt(trnsparseHandle_t handle, int m, int nnz,
                                                   const trnsparseMatDescr_t descrA, trnDoubleComplex* csrSortedVal,
                                                   const int* csrSortedRowPtr, const int* csrSortedColInd,
                                                   csrilu02Info_t info, size_t* pBufferSize);
trnsparseStatus_t trnsparseZcsrilu02_analysis(trnsparseHandle_t handle, int m, int nnz,
                                              const trnsparseMatDescr_t descrA, const trnDoubleComplex* csrSortedValA,
                                              const int* csrSortedRowPtrA, const int* csrSortedColIndA,
                                              csrilu02Info_t info, trnsparseSolvePolicy_t policy, void* pBuffer);
trnsparseStatus_t trnsparseZcsrilu02(trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA,
                                     trnDoubleComplex* csrSortedValA_valM, const int* csrSortedRowPtrA,
                                     const int* csrSortedColIndA, csrilu02Info_t info, trnsparseSolvePolicy_t policy,
                                     void* pBuffer);
/* DenseToSparse into a Blocked-ELL matB (the three DenseToSparse calls above): rows, cols and
 * ellCols multiples of ellBlockSize (CreateBlockedEll), any value type. _analysis writes ellColInd:
 * the block columns of each block row's nonzero blocks (a block with an element x != 0), ascending,
 * then -1 (INVALID_VALUE at matB when a block row has more than ellCols / ellBlockSize of them);
 * _convert fills ellValue by the pattern in ellColInd (zeros in empty slots; INVALID_VALUE at matB
 * when a nonzero block of A is not in it). */
/* ---- end of the incomplete-factorization block ---- */

#ifdef __cplusplus
}
#endif
#endif /* TRNSPARSE_H */
