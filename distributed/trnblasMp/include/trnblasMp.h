/* trnblasMp.h - cuBLASMp-shaped C API of trnblasMp: distributed GEMM over MPI on emulated Trainium
 * devices (one MPI rank = one device; docs/scale-out.md). Same argument order, meaning and numeric
 * enum values as cuBLASMp with the trnblasMp/TRNBLASMP_ prefixes, except that the grid takes an
 * MPI communicator where cuBLASMp takes an NCCL one. Matrices are ScaLAPACK's 2-D block-cyclic
 * layout (descriptors), local blocks in host memory (column-major, leading dimension lld).
 * Collective calls (GridCreate, Gemm) first exchange their arguments over the grid's communicator, so
 * every rank returns the same status: a rank whose arguments differ from the others' (sizes, block
 * sizes, a grid of another shape) makes every rank return TRNBLASMP_STATUS_INVALID_VALUE rather than
 * hang. Every function returns a status and never aborts, exits or throws. */
#ifndef TRNBLASMP_H
#define TRNBLASMP_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "trnblas.h"
#include "trncore.h"
#include "trnprofile.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TRNBLASMP_VER_MAJOR 0
#define TRNBLASMP_VER_MINOR 1
#define TRNBLASMP_VER_PATCH 0
#define TRNBLASMP_VERSION (TRNBLASMP_VER_MAJOR * 10000 + TRNBLASMP_VER_MINOR * 100 + TRNBLASMP_VER_PATCH)

typedef enum trnblasMpStatus_t {
  TRNBLASMP_STATUS_SUCCESS = 0,
  TRNBLASMP_STATUS_NOT_INITIALIZED = 1,
  TRNBLASMP_STATUS_ALLOCATION_FAILED = 2,
  TRNBLASMP_STATUS_INVALID_VALUE = 3,
  TRNBLASMP_STATUS_ARCHITECTURE_MISMATCH = 4,
  TRNBLASMP_STATUS_EXECUTION_FAILED = 5,
  TRNBLASMP_STATUS_INTERNAL_ERROR = 6,
  TRNBLASMP_STATUS_NOT_SUPPORTED = 7
} trnblasMpStatus_t;

typedef enum trnblasMpGridLayout_t {
  TRNBLASMP_GRID_LAYOUT_COL_MAJOR = 0, /* rank r is process (r % nprow, r / nprow) */
  TRNBLASMP_GRID_LAYOUT_ROW_MAJOR = 1  /* rank r is process (r / npcol, r % npcol) */
} trnblasMpGridLayout_t;

typedef struct trnblasMpContext* trnblasMpHandle_t;
typedef struct trnblasMpGridImpl* trnblasMpGrid_t;
typedef struct trnblasMpMatrixDescriptorImpl* trnblasMpMatrixDescriptor_t;

/* Library management. The handle's device is one emulated Trainium of its target (trn1 by
 * default: 2 NeuronCores; trn2: 8); the stream is accepted and stored. */
trnblasMpStatus_t trnblasMpCreate(trnblasMpHandle_t* handle, trnStream_t stream);
trnblasMpStatus_t trnblasMpDestroy(trnblasMpHandle_t handle);
trnblasMpStatus_t trnblasMpSetStream(trnblasMpHandle_t handle, trnStream_t stream);
trnblasMpStatus_t trnblasMpGetStream(trnblasMpHandle_t handle, trnStream_t* stream);
trnblasMpStatus_t trnblasMpGetVersion(int* version);
const char* trnblasMpGetStatusName(trnblasMpStatus_t status);
const char* trnblasMpGetStatusString(trnblasMpStatus_t status);

/* Grids (collective over comm: nprow * npcol must be comm's size, every rank passes the same
 * nprow, npcol and layout). The grid keeps its own duplicate of comm. */
trnblasMpStatus_t trnblasMpGridCreate(int64_t nprow, int64_t npcol, trnblasMpGridLayout_t layout, MPI_Comm comm,
                                      trnblasMpGrid_t* grid);
trnblasMpStatus_t trnblasMpGridDestroy(trnblasMpGrid_t grid);

/* Block-cyclic matrix descriptors (local): m x n, mb x nb blocks, first block on process
 * (rsrc, csrc), local leading dimension lld >= max(1, local rows), type TRN_R_32F, TRN_R_64F,
 * TRN_C_32F or TRN_C_64F. */
trnblasMpStatus_t trnblasMpMatrixDescriptorCreate(int64_t m, int64_t n, int64_t mb, int64_t nb, int64_t rsrc,
                                                  int64_t csrc, int64_t lld, trnDataType_t type, trnblasMpGrid_t grid,
                                                  trnblasMpMatrixDescriptor_t* desc);
trnblasMpStatus_t trnblasMpMatrixDescriptorDestroy(trnblasMpMatrixDescriptor_t desc);

/* ScaLAPACK's NUMROC: rows or columns of an n-long dimension in nb blocks owned by process iproc. */
int64_t trnblasMpNumroc(int64_t n, int64_t nb, uint32_t iproc, uint32_t isrcproc, uint32_t nprocs);

/* C = alpha op(A) op(B) + beta C, SUMMA over trnblas's tile kernels (docs/scale-out.md). Supported:
 * op N, T, C (a transposed operand is redistributed first, any blocks); the whole matrices (ia = ja =
 * ib = jb = ic = jc = 1); computeType TRNBLAS_COMPUTE_32F (and its _PEDANTIC, _FAST_* and
 * _EMULATED_16BFX* variants, as trnblas runs them) on TRN_R_32F / TRN_C_32F operands,
 * TRNBLAS_COMPUTE_64F (Ozaki) on TRN_R_64F / TRN_C_64F; an op-N A's row blocks are C's, an op-N B's
 * column blocks are C's, with both op N A's column block is B's row block. alpha and beta point to
 * host values of the operands' type (float, double, trnComplex, trnDoubleComplex layouts).
 * _bufferSize gives the device workspace (the double-buffered K panels) and host workspace (0) that
 * trnblasMpGemm needs; both are collective. */
trnblasMpStatus_t trnblasMpGemm_bufferSize(trnblasMpHandle_t handle, trnblasOperation_t transA, trnblasOperation_t transB,
                                           int64_t m, int64_t n, int64_t k, const void* alpha, const void* a, int64_t ia,
                                           int64_t ja, trnblasMpMatrixDescriptor_t descA, const void* b, int64_t ib,
                                           int64_t jb, trnblasMpMatrixDescriptor_t descB, const void* beta, void* c,
                                           int64_t ic, int64_t jc, trnblasMpMatrixDescriptor_t descC,
                                           trnblasComputeType_t computeType, size_t* workspaceSizeInBytesOnDevice,
                                           size_t* workspaceSizeInBytesOnHost);
trnblasMpStatus_t trnblasMpGemm(trnblasMpHandle_t handle, trnblasOperation_t transA, trnblasOperation_t transB, int64_t m,
                                int64_t n, int64_t k, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                trnblasMpMatrixDescriptor_t descA, const void* b, int64_t ib, int64_t jb,
                                trnblasMpMatrixDescriptor_t descB, const void* beta, void* c, int64_t ic, int64_t jc,
                                trnblasMpMatrixDescriptor_t descC, trnblasComputeType_t computeType, void* d_work,
                                size_t workspaceSizeInBytesOnDevice, void* h_work, size_t workspaceSizeInBytesOnHost);

/* C = alpha op(A) op(A)^T + beta C on C's uplo triangle (n x n; the other triangle untouched):
 * the SUMMA GEMM on a copy of C, op(A)^T redistributed. trans N (A n x k, A's row blocks C's) or T
 * (A k x n, A's column blocks C's); C = T for real types, rejected for complex (HERK's). */
trnblasMpStatus_t trnblasMpSyrk_bufferSize(trnblasMpHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                           int64_t n, int64_t k, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                           trnblasMpMatrixDescriptor_t descA, const void* beta, void* c, int64_t ic,
                                           int64_t jc, trnblasMpMatrixDescriptor_t descC, trnblasComputeType_t computeType,
                                           size_t* workspaceSizeInBytesOnDevice, size_t* workspaceSizeInBytesOnHost);
trnblasMpStatus_t trnblasMpSyrk(trnblasMpHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t n,
                                int64_t k, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                trnblasMpMatrixDescriptor_t descA, const void* beta, void* c, int64_t ic, int64_t jc,
                                trnblasMpMatrixDescriptor_t descC, trnblasComputeType_t computeType, void* d_work,
                                size_t workspaceSizeInBytesOnDevice, void* h_work, size_t workspaceSizeInBytesOnHost);

/* op(A) X = alpha B (side LEFT) or X op(A) = alpha B (RIGHT), X overwriting B (m x n); A triangular
 * (uplo, diag). Right-looking block substitution over A's diagonal blocks (B's row block); any
 * block sizes of A (redistributed when they are not B's), transposes and the right side by
 * redistribution (docs/scale-out.md). */
trnblasMpStatus_t trnblasMpTrsm_bufferSize(trnblasMpHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                           trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                                           const void* alpha, const void* a, int64_t ia, int64_t ja,
                                           trnblasMpMatrixDescriptor_t descA, void* b, int64_t ib, int64_t jb,
                                           trnblasMpMatrixDescriptor_t descB, trnblasComputeType_t computeType,
                                           size_t* workspaceSizeInBytesOnDevice, size_t* workspaceSizeInBytesOnHost);
trnblasMpStatus_t trnblasMpTrsm(trnblasMpHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n, const void* alpha,
                                const void* a, int64_t ia, int64_t ja, trnblasMpMatrixDescriptor_t descA, void* b,
                                int64_t ib, int64_t jb, trnblasMpMatrixDescriptor_t descB, trnblasComputeType_t computeType,
                                void* d_work, size_t workspaceSizeInBytesOnDevice, void* h_work,
                                size_t workspaceSizeInBytesOnHost);

/* C = alpha op(A) + beta C (Geadd, m x n) or only C's uplo trapezoid (Tradd: upper i <= j, lower
 * i >= j); op(A) redistributed into C's layout unless op N with C's blocks; trnblas's GEAM per rank.
 * The type is the descriptors' (no compute type, as in cuBLASMp). */
trnblasMpStatus_t trnblasMpGeadd_bufferSize(trnblasMpHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n,
                                            const void* alpha, const void* a, int64_t ia, int64_t ja,
                                            trnblasMpMatrixDescriptor_t descA, const void* beta, void* c, int64_t ic,
                                            int64_t jc, trnblasMpMatrixDescriptor_t descC,
                                            size_t* workspaceSizeInBytesOnDevice, size_t* workspaceSizeInBytesOnHost);
trnblasMpStatus_t trnblasMpGeadd(trnblasMpHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n,
                                 const void* alpha, const void* a, int64_t ia, int64_t ja,
                                 trnblasMpMatrixDescriptor_t descA, const void* beta, void* c, int64_t ic, int64_t jc,
                                 trnblasMpMatrixDescriptor_t descC, void* d_work, size_t workspaceSizeInBytesOnDevice,
                                 void* h_work, size_t workspaceSizeInBytesOnHost);
trnblasMpStatus_t trnblasMpTradd_bufferSize(trnblasMpHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans,
                                            int64_t m, int64_t n, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                            trnblasMpMatrixDescriptor_t descA, const void* beta, void* c, int64_t ic,
                                            int64_t jc, trnblasMpMatrixDescriptor_t descC,
                                            size_t* workspaceSizeInBytesOnDevice, size_t* workspaceSizeInBytesOnHost);
trnblasMpStatus_t trnblasMpTradd(trnblasMpHandle_t handle, trnblasFillMode_t uplo, trnblasOperation_t trans, int64_t m,
                                 int64_t n, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                 trnblasMpMatrixDescriptor_t descA, const void* beta, void* c, int64_t ic, int64_t jc,
                                 trnblasMpMatrixDescriptor_t descC, void* d_work, size_t workspaceSizeInBytesOnDevice,
                                 void* h_work, size_t workspaceSizeInBytesOnHost);

/* Matmul (cuBLASMp's cublasMpMatmul): D = alpha op(A) op(B) + beta C with op and the compute type in a
 * matmul descriptor, a thin layer over Gemm: D must have C's layout (sizes, blocks, sources, type);
 * C's local block is copied into D (D may be C) and the Gemm of section 2 runs on D. Attributes:
 * TRANSA / TRANSB (trnblasOperation_t, default N), COMPUTE_TYPE (trnblasComputeType_t, the one
 * given to Create), each set and read as a 4-byte value; any other attribute NOT_SUPPORTED. C is
 * copied into D whatever beta (so D has the bits Gemm gives on C, beta = 0 included). */
typedef enum trnblasMpMatmulDescriptorAttribute_t {
  TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_TRANSA = 0,
  TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_TRANSB = 1,
  TRNBLASMP_MATMUL_DESCRIPTOR_ATTRIBUTE_COMPUTE_TYPE = 2
} trnblasMpMatmulDescriptorAttribute_t;
typedef struct trnblasMpMatmulDescriptorImpl* trnblasMpMatmulDescriptor_t;
trnblasMpStatus_t trnblasMpMatmulDescriptorCreate(trnblasMpMatmulDescriptor_t* matmulDesc, trnblasComputeType_t computeType);
trnblasMpStatus_t trnblasMpMatmulDescriptorDestroy(trnblasMpMatmulDescriptor_t matmulDesc);
trnblasMpStatus_t trnblasMpMatmulDescriptorAttributeSet(trnblasMpMatmulDescriptor_t matmulDesc,
                                                        trnblasMpMatmulDescriptorAttribute_t attr, const void* buf,
                                                        size_t sizeInBytes);
trnblasMpStatus_t trnblasMpMatmulDescriptorAttributeGet(trnblasMpMatmulDescriptor_t matmulDesc,
                                                        trnblasMpMatmulDescriptorAttribute_t attr, void* buf,
                                                        size_t sizeInBytes, size_t* sizeWritten);
trnblasMpStatus_t trnblasMpMatmul_bufferSize(trnblasMpHandle_t handle, trnblasMpMatmulDescriptor_t matmulDesc, int64_t m,
                                             int64_t n, int64_t k, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                             trnblasMpMatrixDescriptor_t descA, const void* b, int64_t ib, int64_t jb,
                                             trnblasMpMatrixDescriptor_t descB, const void* beta, const void* c, int64_t ic,
                                             int64_t jc, trnblasMpMatrixDescriptor_t descC, void* d, int64_t id, int64_t jd,
                                             trnblasMpMatrixDescriptor_t descD, size_t* workspaceSizeInBytesOnDevice,
                                             size_t* workspaceSizeInBytesOnHost);
trnblasMpStatus_t trnblasMpMatmul(trnblasMpHandle_t handle, trnblasMpMatmulDescriptor_t matmulDesc, int64_t m, int64_t n,
                                  int64_t k, const void* alpha, const void* a, int64_t ia, int64_t ja,
                                  trnblasMpMatrixDescriptor_t descA, const void* b, int64_t ib, int64_t jb,
                                  trnblasMpMatrixDescriptor_t descB, const void* beta, const void* c, int64_t ic, int64_t jc,
                                  trnblasMpMatrixDescriptor_t descC, void* d, int64_t id, int64_t jd,
                                  trnblasMpMatrixDescriptor_t descD, void* d_work, size_t workspaceSizeInBytesOnDevice,
                                  void* h_work, size_t workspaceSizeInBytesOnHost);

/* The plan of the handle's last successful Gemm, printed (SUMMA panel depth, allgathers, predicted
 * link and compute time; trnsci extension): at most `size` bytes with the terminating NUL. */
trnblasMpStatus_t trnblasMpGetLastPlan(trnblasMpHandle_t handle, char* text, size_t size);

/* The emulation surface of every trnsci library (trncore.h). GetLastProfile: this rank's device
 * (engine time and, in the C++ Report, the link transfers). */
TRN_EMULATION_API(trnblasMp, trnblasMp, trnblasMpHandle_t, trnblasMpStatus_t)
TRN_PROFILE_SIZED_API(trnblasMp, trnblasMpHandle_t, trnblasMpStatus_t)  /* trnprofile.h: the versioned trnProfile_t */

#ifdef __cplusplus
}
#endif

#endif /* TRNBLASMP_H */
