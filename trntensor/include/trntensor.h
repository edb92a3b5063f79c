/* trntensor.h - tensor contractions (cuTENSOR 2.x shaped) and NumPy einsum on trnsci's emulated
 * NeuronCore. A prefix substitution cutensor -> trntensor, CUTENSOR -> TRNTENSOR ports a cuTENSOR 2
 * contraction program to host memory: same function names, argument order and meaning, same
 * numeric enum values. Execution is synchronous; pointers are host pointers; the stream is stored
 * and ignored. Tensor descriptors are generalised column-major by default (NULL strides: first
 * mode fastest), as in cuTENSOR. The einsum extension (trntensorEinsum) takes NumPy-style
 * row-major views instead (NULL strides: last axis fastest); see docs/trntensor.md. Pure C99. */
#ifndef TRNTENSOR_H
#define TRNTENSOR_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "trncore.h"
#include "trnprofile.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TRNTENSOR_MAJOR 2
#define TRNTENSOR_MINOR 0
#define TRNTENSOR_PATCH 0
#define TRNTENSOR_VERSION (TRNTENSOR_MAJOR * 10000 + TRNTENSOR_MINOR * 100 + TRNTENSOR_PATCH)

typedef enum trntensorStatus_t {
  TRNTENSOR_STATUS_SUCCESS = 0,
  TRNTENSOR_STATUS_NOT_INITIALIZED = 1,
  TRNTENSOR_STATUS_ALLOC_FAILED = 3,
  TRNTENSOR_STATUS_INVALID_VALUE = 7,
  TRNTENSOR_STATUS_ARCH_MISMATCH = 8,
  TRNTENSOR_STATUS_MAPPING_ERROR = 11,
  TRNTENSOR_STATUS_EXECUTION_FAILED = 13,
  TRNTENSOR_STATUS_INTERNAL_ERROR = 14,
  TRNTENSOR_STATUS_NOT_SUPPORTED = 15,
  TRNTENSOR_STATUS_LICENSE_ERROR = 16,
  TRNTENSOR_STATUS_CUBLAS_ERROR = 17,
  TRNTENSOR_STATUS_CUDA_ERROR = 18,
  TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE = 19,
  TRNTENSOR_STATUS_INSUFFICIENT_DRIVER = 20,
  TRNTENSOR_STATUS_IO_ERROR = 21
} trntensorStatus_t;

/* Data types: cuTENSOR 2.x takes cudaDataType_t, so trntensorDataType_t IS trnDataType_t (the type of
 * TRN_R_32F after the prefix rule): a program passing TRN_R_32F (ported CUDA_R_32F) or TRNTENSOR_R_32F
 * compiles as C and as C++. Contractions support R_32F (with the 32F-family compute descriptors), R_64F
 * (with COMPUTE_DESC_64F), R_16BF / R_16F (with 32F or their 16-bit descriptor), C_32F (with 32F,
 * TF32, 3XTF32: trnblas 4M complex GEMM) and C_64F (with 64F: zgemm through Ozaki); the other values
 * are recognised and return NOT_SUPPORTED. Complex data is interleaved (re, im). */
typedef trnDataType_t trntensorDataType_t;
#define TRNTENSOR_R_16F TRN_R_16F
#define TRNTENSOR_C_16F TRN_C_16F
#define TRNTENSOR_R_16BF TRN_R_16BF
#define TRNTENSOR_C_16BF TRN_C_16BF
#define TRNTENSOR_R_32F TRN_R_32F
#define TRNTENSOR_C_32F TRN_C_32F
#define TRNTENSOR_R_64F TRN_R_64F
#define TRNTENSOR_C_64F TRN_C_64F
#define TRNTENSOR_R_4I TRN_R_4I
#define TRNTENSOR_C_4I TRN_C_4I
#define TRNTENSOR_R_4U TRN_R_4U
#define TRNTENSOR_C_4U TRN_C_4U
#define TRNTENSOR_R_8I TRN_R_8I
#define TRNTENSOR_C_8I TRN_C_8I
#define TRNTENSOR_R_8U TRN_R_8U
#define TRNTENSOR_C_8U TRN_C_8U
#define TRNTENSOR_R_16I TRN_R_16I
#define TRNTENSOR_C_16I TRN_C_16I
#define TRNTENSOR_R_16U TRN_R_16U
#define TRNTENSOR_C_16U TRN_C_16U
#define TRNTENSOR_R_32I TRN_R_32I
#define TRNTENSOR_C_32I TRN_C_32I
#define TRNTENSOR_R_32U TRN_R_32U
#define TRNTENSOR_C_32U TRN_C_32U
#define TRNTENSOR_R_64I TRN_R_64I
#define TRNTENSOR_C_64I TRN_C_64I
#define TRNTENSOR_R_64U TRN_R_64U
#define TRNTENSOR_C_64U TRN_C_64U

/* Element-wise operators (cuTENSOR values). Contractions accept IDENTITY and CONJ on A and B (the
 * identity on real data; on complex data the operand runs as op C, the conjugation folded into the
 * sign of the imaginary plane's products); CONJ on complex C: NOT_SUPPORTED. */
typedef enum trntensorOperator_t {
  TRNTENSOR_OP_IDENTITY = 1,
  TRNTENSOR_OP_SQRT = 2,
  TRNTENSOR_OP_RELU = 8,
  TRNTENSOR_OP_CONJ = 9,
  TRNTENSOR_OP_RCP = 10,
  TRNTENSOR_OP_SIGMOID = 11,
  TRNTENSOR_OP_TANH = 12,
  TRNTENSOR_OP_EXP = 22,
  TRNTENSOR_OP_LOG = 23,
  TRNTENSOR_OP_ABS = 24,
  TRNTENSOR_OP_NEG = 25,
  TRNTENSOR_OP_SIN = 26,
  TRNTENSOR_OP_COS = 27,
  TRNTENSOR_OP_TAN = 28,
  TRNTENSOR_OP_SINH = 29,
  TRNTENSOR_OP_COSH = 30,
  TRNTENSOR_OP_ASIN = 31,
  TRNTENSOR_OP_ACOS = 32,
  TRNTENSOR_OP_ATAN = 33,
  TRNTENSOR_OP_ASINH = 34,
  TRNTENSOR_OP_ACOSH = 35,
  TRNTENSOR_OP_ATANH = 36,
  TRNTENSOR_OP_CEIL = 37,
  TRNTENSOR_OP_FLOOR = 38,
  TRNTENSOR_OP_MISH = 39,
  TRNTENSOR_OP_SWISH = 40,
  TRNTENSOR_OP_SOFT_PLUS = 41,
  TRNTENSOR_OP_SOFT_SIGN = 42,
  TRNTENSOR_OP_ADD = 3,
  TRNTENSOR_OP_MUL = 5,
  TRNTENSOR_OP_MAX = 6,
  TRNTENSOR_OP_MIN = 7,
  TRNTENSOR_OP_UNKNOWN = 126
} trntensorOperator_t;

/* Algorithms: every value is accepted; the planner always picks the lowering that moves the
 * fewest elements (transpose-free when the strides allow, TTGT otherwise), or the one of least
 * modeled device time under TRNTENSOR_PLAN_PREFERENCE_OBJECTIVE = MODELED_TIME. */
typedef enum trntensorAlgo_t {
  TRNTENSOR_ALGO_DEFAULT_PATIENT = -6,
  TRNTENSOR_ALGO_GETT = -4,
  TRNTENSOR_ALGO_TGETT = -3,
  TRNTENSOR_ALGO_TTGT = -2,
  TRNTENSOR_ALGO_DEFAULT = -1
} trntensorAlgo_t;

typedef enum trntensorWorksizePreference_t {
  TRNTENSOR_WORKSPACE_MIN = 1,
  TRNTENSOR_WORKSPACE_DEFAULT = 2,
  TRNTENSOR_WORKSPACE_MAX = 3
} trntensorWorksizePreference_t;

typedef enum trntensorJitMode_t { TRNTENSOR_JIT_MODE_NONE = 0, TRNTENSOR_JIT_MODE_DEFAULT = 1 } trntensorJitMode_t;
typedef enum trntensorAutotuneMode_t { TRNTENSOR_AUTOTUNE_MODE_NONE = 0, TRNTENSOR_AUTOTUNE_MODE_INCREMENTAL = 1 } trntensorAutotuneMode_t;
typedef enum trntensorCacheMode_t { TRNTENSOR_CACHE_MODE_NONE = 0, TRNTENSOR_CACHE_MODE_PEDANTIC = 1 } trntensorCacheMode_t;

typedef enum trntensorOperationDescriptorAttribute_t {
  TRNTENSOR_OPERATION_DESCRIPTOR_TAG = 0,           /* int32_t */
  TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE = 1,   /* trntensorDataType_t (read-only here) */
  TRNTENSOR_OPERATION_DESCRIPTOR_FLOPS = 2,         /* float, read-only */
  TRNTENSOR_OPERATION_DESCRIPTOR_MOVED_BYTES = 3,   /* float, read-only */
  TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT = 4,
  TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT = 5,
  TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE = 6
} trntensorOperationDescriptorAttribute_t;

typedef enum trntensorPlanPreferenceAttribute_t {
  TRNTENSOR_PLAN_PREFERENCE_AUTOTUNE_MODE = 0,
  TRNTENSOR_PLAN_PREFERENCE_CACHE_MODE = 1,
  TRNTENSOR_PLAN_PREFERENCE_INCREMENTAL_COUNT = 2,
  TRNTENSOR_PLAN_PREFERENCE_ALGO = 3,
  TRNTENSOR_PLAN_PREFERENCE_KERNEL_RANK = 4,
  TRNTENSOR_PLAN_PREFERENCE_JIT = 5,
  TRNTENSOR_PLAN_PREFERENCE_OBJECTIVE = 1000 /* extension: trntensorPlanObjective_t (int32_t) */
} trntensorPlanPreferenceAttribute_t;

/* What the planner minimises (extension). DEFAULT: contractions take the lowering that moves the
 * fewest elements, einsum paths the fewest FLOPs (opt_einsum's count). MODELED_TIME: the least
 * modeled device time on the handle's target, from the core cost model (contraction lowerings:
 * each candidate estimated by a timing-only run; einsum paths: each step priced as its GEMM). Set
 * per plan preference (TRNTENSOR_PLAN_PREFERENCE_OBJECTIVE, for CreatePlan and
 * EstimateWorkspaceSize) or per handle for einsum (trntensorSetPlannerObjective). fp32-family
 * compute on real data is modeled exactly; 64F and complex contraction lowerings keep DEFAULT. */
typedef enum trntensorPlanObjective_t {
  TRNTENSOR_OBJECTIVE_DEFAULT = 0,
  TRNTENSOR_OBJECTIVE_MODELED_TIME = 1
} trntensorPlanObjective_t;

typedef enum trntensorPlanAttribute_t { TRNTENSOR_PLAN_REQUIRED_WORKSPACE = 0 /* uint64_t */ } trntensorPlanAttribute_t;

typedef struct trntensorHandle* trntensorHandle_t;
typedef struct trntensorTensorDescriptor* trntensorTensorDescriptor_t;
typedef struct trntensorOperationDescriptor* trntensorOperationDescriptor_t;
typedef struct trntensorPlanPreference* trntensorPlanPreference_t;
typedef struct trntensorPlan* trntensorPlan_t;
typedef struct trntensorComputeDescriptor* trntensorComputeDescriptor_t;

/* Compute descriptors and the trnblas GEMM mode each runs as (docs/trntensor.md, "Accuracy"). */
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_16F;   /* inputs rounded to fp16, fp32 PSUM */
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_16BF;  /* inputs rounded to bf16, fp32 PSUM */
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_TF32;  /* inputs rounded to tf32, fp32 PSUM */
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_3XTF32;/* big + small tf32 split, 3 tf32 GEMMs */
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_32F;   /* fp32 tiles, exact products, fp32 PSUM */
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_64F;   /* Ozaki fp64 through trnblas dgemm */
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_9X16BF;/* bf16x9 split (9 cross products) */

const char* trntensorGetErrorString(const trntensorStatus_t error);
size_t trntensorGetVersion(void);

trntensorStatus_t trntensorCreate(trntensorHandle_t* handle);
trntensorStatus_t trntensorDestroy(trntensorHandle_t handle);

/* numModes <= 64; extent[i] > 0; stride NULL = packed, first mode fastest; strides in elements.
 * alignmentRequirement: a power of two (bytes) the data pointers are promised to have; the data
 * pointers are checked against their element size. */
trntensorStatus_t trntensorCreateTensorDescriptor(const trntensorHandle_t handle, trntensorTensorDescriptor_t* desc,
                                                  const uint32_t numModes, const int64_t extent[], const int64_t stride[],
                                                  trntensorDataType_t dataType, uint32_t alignmentRequirement);
trntensorStatus_t trntensorDestroyTensorDescriptor(trntensorTensorDescriptor_t desc);

/* D[modeD] = alpha opA(A[modeA]) opB(B[modeB]) + beta opC(C[modeC]). */
trntensorStatus_t trntensorCreateContraction(const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc,
                                             const trntensorTensorDescriptor_t descA, const int32_t modeA[],
                                             trntensorOperator_t opA, const trntensorTensorDescriptor_t descB,
                                             const int32_t modeB[], trntensorOperator_t opB,
                                             const trntensorTensorDescriptor_t descC, const int32_t modeC[],
                                             trntensorOperator_t opC, const trntensorTensorDescriptor_t descD,
                                             const int32_t modeD[], const trntensorComputeDescriptor_t descCompute);
trntensorStatus_t trntensorDestroyOperationDescriptor(trntensorOperationDescriptor_t desc);
trntensorStatus_t trntensorOperationDescriptorSetAttribute(const trntensorHandle_t handle,
                                                           trntensorOperationDescriptor_t desc,
                                                           trntensorOperationDescriptorAttribute_t attr, const void* buf,
                                                           size_t sizeInBytes);
trntensorStatus_t trntensorOperationDescriptorGetAttribute(const trntensorHandle_t handle,
                                                           trntensorOperationDescriptor_t desc,
                                                           trntensorOperationDescriptorAttribute_t attr, void* buf,
                                                           size_t sizeInBytes);

trntensorStatus_t trntensorCreatePlanPreference(const trntensorHandle_t handle, trntensorPlanPreference_t* pref,
                                                trntensorAlgo_t algo, trntensorJitMode_t jitMode);
trntensorStatus_t trntensorDestroyPlanPreference(trntensorPlanPreference_t pref);
trntensorStatus_t trntensorPlanPreferenceSetAttribute(const trntensorHandle_t handle, trntensorPlanPreference_t pref,
                                                      trntensorPlanPreferenceAttribute_t attr, const void* buf,
                                                      size_t sizeInBytes);

/* planPref / pref may be NULL: the default preference. */
trntensorStatus_t trntensorEstimateWorkspaceSize(const trntensorHandle_t handle,
                                                 const trntensorOperationDescriptor_t desc,
                                                 const trntensorPlanPreference_t planPref,
                                                 const trntensorWorksizePreference_t workspacePref,
                                                 uint64_t* workspaceSizeEstimate);
trntensorStatus_t trntensorCreatePlan(const trntensorHandle_t handle, trntensorPlan_t* plan,
                                      const trntensorOperationDescriptor_t desc, const trntensorPlanPreference_t pref,
                                      uint64_t workspaceSizeLimit);
trntensorStatus_t trntensorDestroyPlan(trntensorPlan_t plan);
trntensorStatus_t trntensorPlanGetAttribute(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                            trntensorPlanAttribute_t attr, void* buf, size_t sizeInBytes);

/* alpha, beta: float for the 32F-family compute descriptors, double for 64F, complex float / complex
 * double (re, im) for C_32F / C_64F data (SCALAR_TYPE). beta == 0 never
 * reads C. D may alias C (same layout); when D != C, C is never written. The workspace must hold
 * TRNTENSOR_PLAN_REQUIRED_WORKSPACE bytes (INSUFFICIENT_WORKSPACE otherwise) and be 16-byte aligned. */
trntensorStatus_t trntensorContract(const trntensorHandle_t handle, const trntensorPlan_t plan, const void* alpha,
                                    const void* A, const void* B, const void* beta, const void* C, void* D,
                                    void* workspace, uint64_t workspaceSize, trnStream_t stream);

/* Trinary contraction (cuTENSOR 2.x): E[modeE] = alpha opA(A) opB(B) opC(C) + beta opD(D); D and E
 * carry the same modes, E may alias D (same layout). Lowered to two binary contractions through a
 * workspace intermediate; the planner picks the pair contracted first by FLOPs (then intermediate
 * size). opA, opB, opC: IDENTITY or CONJ; opD: IDENTITY (CONJ on complex D: NOT_SUPPORTED). */
trntensorStatus_t trntensorCreateContractionTrinary(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc, const trntensorTensorDescriptor_t descA,
    const int32_t modeA[], trntensorOperator_t opA, const trntensorTensorDescriptor_t descB, const int32_t modeB[],
    trntensorOperator_t opB, const trntensorTensorDescriptor_t descC, const int32_t modeC[], trntensorOperator_t opC,
    const trntensorTensorDescriptor_t descD, const int32_t modeD[], trntensorOperator_t opD,
    const trntensorTensorDescriptor_t descE, const int32_t modeE[], const trntensorComputeDescriptor_t descCompute);
trntensorStatus_t trntensorContractTrinary(const trntensorHandle_t handle, const trntensorPlan_t plan, const void* alpha,
                                           const void* A, const void* B, const void* C, const void* beta, const void* D,
                                           void* E, void* workspace, uint64_t workspaceSize, trnStream_t stream);

/* D[modeD] = alpha * sum over the modes of A absent from D (A[modeA]) + beta * C[modeC]. opReduce:
 * TRNTENSOR_OP_ADD (MUL, MAX, MIN return NOT_SUPPORTED). Runs as a contraction with a scalar 1 (a
 * GEMM against a ones operand), so the sum happens on TensorE in the compute descriptor's precision. */
trntensorStatus_t trntensorCreateReduction(const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc,
                                           const trntensorTensorDescriptor_t descA, const int32_t modeA[],
                                           trntensorOperator_t opA, const trntensorTensorDescriptor_t descC,
                                           const int32_t modeC[], trntensorOperator_t opC,
                                           const trntensorTensorDescriptor_t descD, const int32_t modeD[],
                                           trntensorOperator_t opReduce, const trntensorComputeDescriptor_t descCompute);
trntensorStatus_t trntensorReduce(const trntensorHandle_t handle, const trntensorPlan_t plan, const void* alpha,
                                  const void* A, const void* beta, const void* C, void* D, void* workspace,
                                  uint64_t workspaceSize, trnStream_t stream);
/* B[modeB] = alpha * A[modeA] (modeB a permutation of modeA): a contraction with a scalar 1. */
trntensorStatus_t trntensorCreatePermutation(const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc,
                                             const trntensorTensorDescriptor_t descA, const int32_t modeA[],
                                             trntensorOperator_t opA, const trntensorTensorDescriptor_t descB,
                                             const int32_t modeB[], const trntensorComputeDescriptor_t descCompute);
trntensorStatus_t trntensorPermute(const trntensorHandle_t handle, const trntensorPlan_t plan, const void* alpha,
                                   const void* A, void* B, trnStream_t stream);

/* D[modeD] = opAC(alpha * A[modeA], gamma * C[modeC]) with opAC = ADD, MUL, MAX or MIN, opA/opC
 * IDENTITY (or CONJ); C carries D's modes, A a subset of them (broadcast along the others). R_32F
 * data and COMPUTE_DESC_32F (VectorE computes in fp32); the permutations into and out of D's mode
 * order are DMA kernels. No workspace argument: buffers are allocated inside. */
trntensorStatus_t trntensorCreateElementwiseBinary(const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc,
                                                   const trntensorTensorDescriptor_t descA, const int32_t modeA[],
                                                   trntensorOperator_t opA, const trntensorTensorDescriptor_t descC,
                                                   const int32_t modeC[], trntensorOperator_t opC,
                                                   const trntensorTensorDescriptor_t descD, const int32_t modeD[],
                                                   trntensorOperator_t opAC, const trntensorComputeDescriptor_t descCompute);
trntensorStatus_t trntensorElementwiseBinaryExecute(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                                    const void* alpha, const void* A, const void* gamma, const void* C,
                                                    void* D, trnStream_t stream);

/* ---- element-wise trinary (cuTENSOR 2.x) ----
 * D[modeD] = opABC(opAB(alpha opA(A[modeA]), beta opB(B[modeB])), gamma opC(C[modeC])): C carries D's
 * modes, A and B subsets of them (broadcast along the others); opAB, opABC: ADD, MUL, MAX or MIN;
 * opA, opB, opC: IDENTITY (or CONJ, the identity on the real data it takes). R_32F data and
 * COMPUTE_DESC_32F (VectorE computes in fp32); alpha, beta, gamma are float. */
trntensorStatus_t trntensorCreateElementwiseTrinary(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc, const trntensorTensorDescriptor_t descA,
    const int32_t modeA[], trntensorOperator_t opA, const trntensorTensorDescriptor_t descB, const int32_t modeB[],
    trntensorOperator_t opB, const trntensorTensorDescriptor_t descC, const int32_t modeC[], trntensorOperator_t opC,
    const trntensorTensorDescriptor_t descD, const int32_t modeD[], trntensorOperator_t opAB, trntensorOperator_t opABC,
    const trntensorComputeDescriptor_t descCompute);
trntensorStatus_t trntensorElementwiseTrinaryExecute(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                                     const void* alpha, const void* A, const void* beta, const void* B,
                                                     const void* gamma, const void* C, void* D, trnStream_t stream);

/* ---- block-sparse tensors and contraction (cuTENSOR 2.x) ----
 * A block-sparse tensor: numModes (<= 8) modes, mode i cut into numSectionsPerMode[i] sections whose
 * extents follow one another in extent[] (mode 0's first); numNonZeroBlocks stored blocks, block b at
 * section coordinates nonZeroCoordinates[b * numModes + i]. stride: NULL (every block packed,
 * generalised column-major) or numModes strides per block, block after block. Block pointers are
 * passed at execution, one per stored block, in the descriptor's order. */
typedef struct trntensorBlockSparseTensorDescriptor* trntensorBlockSparseTensorDescriptor_t;
trntensorStatus_t trntensorCreateBlockSparseTensorDescriptor(
    trntensorHandle_t handle, trntensorBlockSparseTensorDescriptor_t* desc, const uint32_t numModes,
    const uint64_t numNonZeroBlocks, const uint32_t numSectionsPerMode[], const int64_t extent[],
    const int32_t nonZeroCoordinates[], const int64_t stride[], trntensorDataType_t dataType);
trntensorStatus_t trntensorDestroyBlockSparseTensorDescriptor(trntensorBlockSparseTensorDescriptor_t desc);
/* D = alpha opA(A) opB(B) + beta opC(C) over the stored blocks: every stored block of D is computed
 * (explicit zeros where no block pair contributes); blocks of D that are not stored are not. C and D
 * carry the same modes and the same block structure (C may be D). The sections of a mode agree
 * across operands. Each D block is one dense contraction per contributing (A block, B block) pair,
 * accumulated in D's block (beta of the first pair, 1 after), on trntensor's dense machinery. */
trntensorStatus_t trntensorCreateBlockSparseContraction(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t* desc, const trntensorBlockSparseTensorDescriptor_t descA,
    const int32_t modeA[], trntensorOperator_t opA, const trntensorBlockSparseTensorDescriptor_t descB,
    const int32_t modeB[], trntensorOperator_t opB, const trntensorBlockSparseTensorDescriptor_t descC,
    const int32_t modeC[], trntensorOperator_t opC, const trntensorBlockSparseTensorDescriptor_t descD,
    const int32_t modeD[], const trntensorComputeDescriptor_t descCompute);
trntensorStatus_t trntensorBlockSparseContract(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                               const void* alpha, const void* const A[], const void* const B[],
                                               const void* beta, const void* const C[], void* const D[],
                                               void* workspace, uint64_t workspaceSize, trnStream_t stream);

/* ---- plan cache (cuTENSOR 2.x) ----
 * Each handle caches the plans trntensorCreatePlan makes (default 64 entries, least recently used
 * evicted), keyed by the operation, the preference's algorithm and objective, and the handle's target;
 * a plan preference with TRNTENSOR_PLAN_PREFERENCE_CACHE_MODE = NONE bypasses it. Resizing to 0 turns
 * the cache off; resizing empties it. The file is versioned text (docs/trntensor.md, "Plan cache"):
 * reading a corrupt, truncated or foreign file returns TRNTENSOR_STATUS_IO_ERROR and leaves the cache
 * as it was. */
trntensorStatus_t trntensorHandleResizePlanCache(trntensorHandle_t handle, const uint32_t numEntries);
trntensorStatus_t trntensorHandleWritePlanCacheToFile(const trntensorHandle_t handle, const char filename[]);
trntensorStatus_t trntensorHandleReadPlanCacheFromFile(trntensorHandle_t handle, const char filename[],
                                                       uint32_t* numCachelinesRead);
/* Every attribute TRNTENSOR_PLAN_PREFERENCE_* holds (int32_t; the values set, else the defaults:
 * AUTOTUNE_MODE NONE, CACHE_MODE PEDANTIC, INCREMENTAL_COUNT 0, the algo and JIT mode of creation,
 * KERNEL_RANK 0, OBJECTIVE DEFAULT). */
trntensorStatus_t trntensorPlanPreferenceGetAttribute(const trntensorHandle_t handle,
                                                      const trntensorPlanPreference_t pref,
                                                      trntensorPlanPreferenceAttribute_t attr, void* buf,
                                                      size_t sizeInBytes);
/* The CUDA runtime API version whose conventions the C types follow (CUDA 13.0: 13000, CUDART's
 * major * 1000 + minor * 10 encoding); there is no CUDA runtime underneath. */
#define TRNTENSOR_CUDART_VERSION 13000
size_t trntensorGetCudartVersion(void);

/* Plan description (lowering, GEMM shape, per-operand op/ld or packing, FLOPs, modeled trn1 time)
 * written NUL-terminated into buf (truncated to bufSize). Extension. */
trntensorStatus_t trntensorPlanDescribe(const trntensorHandle_t handle, const trntensorPlan_t plan, char* buf,
                                        size_t bufSize);

/* ---- einsum (extension) ------------------------------------------------------------------------ */

/* A NumPy-style operand: shape and strides in elements, row-major convention (strides NULL:
 * C-contiguous, last axis fastest). cuTENSOR descriptors are column-major by default: an einsum
 * view of shape (s0, s1, ..., s{r-1}) is the descriptor with modes reversed, or the same modes with
 * explicit strides, which is what trntensorEinsum builds internally. */
typedef struct trntensorEinsumOperand_t {
  const void* data;
  int32_t rank;
  const int64_t* shape;
  const int64_t* strides;
} trntensorEinsumOperand_t;

typedef enum trntensorEinsumPath_t {
  TRNTENSOR_EINSUM_PATH_AUTO = 0,    /* optimal up to 8 operands, dynamic programming up to 14, greedy beyond */
  TRNTENSOR_EINSUM_PATH_GREEDY = 1,
  TRNTENSOR_EINSUM_PATH_OPTIMAL = 2, /* exhaustive with FLOP pruning, <= 8 operands */
  TRNTENSOR_EINSUM_PATH_DYNAMIC_PROGRAMMING = 3 /* exact minimum over operand subsets, <= 16 operands */
} trntensorEinsumPath_t;

/* output = einsum(subscripts, inputs...): NumPy semantics (implicit / explicit output, '...',
 * repeated labels). Every operand and the output hold dataType elements (R_32F, R_64F, C_32F or
 * C_64F); the
 * output's shape must be the result's. Malformed subscripts -> INVALID_VALUE with a log message
 * pointing at the offending character; the output is untouched on any error. */
trntensorStatus_t trntensorEinsum(const trntensorHandle_t handle, const char* subscripts, int32_t numInputs,
                                  const trntensorEinsumOperand_t inputs[], void* output, int32_t outputRank,
                                  const int64_t outputShape[], const int64_t outputStrides[],
                                  trntensorDataType_t dataType, const trntensorComputeDescriptor_t descCompute,
                                  trntensorEinsumPath_t pathMode);

/* The contraction order only (data pointers unused): path[2*i], path[2*i+1] for the numInputs - 1
 * steps in opt_einsum's linear format; FLOPs as opt_einsum counts them. Any output may be NULL. */
trntensorStatus_t trntensorEinsumPath(const trntensorHandle_t handle, const char* subscripts, int32_t numInputs,
                                      const trntensorEinsumOperand_t inputs[], trntensorEinsumPath_t pathMode,
                                      int32_t* path, double* naiveFlops, double* optimizedFlops,
                                      double* largestIntermediate);

/* The objective trntensorEinsum and trntensorEinsumPath plan with (extension; default DEFAULT). */
trntensorStatus_t trntensorSetPlannerObjective(trntensorHandle_t handle, trntensorPlanObjective_t objective);

/* ---- the emulation surface every trnsci library has (trncore.h, TRN_EMULATION_API): the last
 * profile is that of the last Contract / Einsum / Reduce / Permute / elementwise call;
 * Set/Get Target, NumericsProfile, StochasticRounding(enable, seed), NumCores; GetLastProfile
 * (modeled cost of the last compute call, docs/cost-model.md); GetLastErrorParameter (1-based
 * position of the last illegal argument, 0 if none); trntensorLoggerConfigure, trntensorSet/GetLoggerCallback,
 * trntensorLoggerSetCallback. ---- */
TRN_EMULATION_API(trntensor, trntensor, trntensorHandle_t, trntensorStatus_t)
TRN_PROFILE_SIZED_API(trntensor, trntensorHandle_t, trntensorStatus_t)  /* trnprofile.h: the versioned trnProfile_t */

/* ---- the rest of cuTENSOR's logger (TRNTENSOR_LOGINFO_DBG / TRNTENSOR_LOGDEST_DBG as in cuBLAS) ---- */
typedef trnLoggerCallback_t trntensorLoggerCallback_t;
typedef trnLogCallback_t trntensorLogCallback;
trntensorStatus_t trntensorLoggerOpenFile(const char* logFile);
trntensorStatus_t trntensorLoggerSetLevel(int32_t level);
trntensorStatus_t trntensorLoggerForceDisable(void);
/* LoggerSetFile: log to an open stream (NULL: INVALID_VALUE); LoggerSetMask: bit 0 errors as SetLevel
 * (0..31, other bits accepted: trntensor logs only errors). */
trntensorStatus_t trntensorLoggerSetFile(FILE* file);
trntensorStatus_t trntensorLoggerSetMask(int32_t mask);

#ifdef __cplusplus
}
#endif
#endif /* TRNTENSOR_H */
