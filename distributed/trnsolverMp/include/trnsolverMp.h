/* trnsolverMp.h - cuSOLVERMp-shaped C API of trnsolverMp: distributed dense factorizations over MPI on
 * emulated Trainium devices (one MPI rank = one device; docs/scale-out.md section 6). The same
 * functions, argument order, meaning and numeric enum values as cuSOLVERMp 0.7 (cusolverMp.h) with the
 * trnsolverMp / TRNSOLVERMP_ prefixes; statuses are trnsolver's (cuSOLVER's cusolverStatus_t values),
 * data and compute types trncore's trnDataType_t (cudaDataType's values), operations and fill modes
 * trnblas's. The grid takes an MPI communicator where cuSOLVERMp takes an NCCL one. Matrices are
 * ScaLAPACK's 2-D block-cyclic layout (descriptors), local blocks in host memory (column-major,
 * leading dimension LLD_A); ia = ja = 1 only (the whole matrix; other offsets NOT_SUPPORTED).
 *
 * Collective calls (CreateDeviceGrid, every routine and its _bufferSize) check their arguments locally
 * in cuSOLVERMp's order, then exchange (status, arguments) over the grid's communicator before any
 * other message: every rank returns the same status, and a rank whose arguments differ from the
 * others' makes every rank return TRNSOLVER_STATUS_INVALID_VALUE rather than hang. info: 0 on success;
 * -i on a rank whose own i-th argument (handle not counted) is illegal (the other ranks' info is not
 * written); i > 0 from the factorization (the same i on every rank). Every function returns a status
 * and never aborts, exits or throws; on an error status no output but info is written. */
#ifndef TRNSOLVERMP_H
#define TRNSOLVERMP_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "trnblas.h"
#include "trncore.h"
#include "trnsolver.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TRNSOLVERMP_VER_MAJOR 0
#define TRNSOLVERMP_VER_MINOR 1
#define TRNSOLVERMP_VER_PATCH 0
/* cuSOLVERMp's formula (major * 1000 + minor * 100 + patch). */
#define TRNSOLVERMP_VERSION (TRNSOLVERMP_VER_MAJOR * 1000 + TRNSOLVERMP_VER_MINOR * 100 + TRNSOLVERMP_VER_PATCH)

typedef enum trnsolverMpGridMapping_t {
  TRNSOLVERMP_GRID_MAPPING_ROW_MAJOR = 1, /* rank r is process (r / npcol, r % npcol) */
  TRNSOLVERMP_GRID_MAPPING_COL_MAJOR = 0  /* rank r is process (r % nprow, r / nprow) */
} trnsolverMpGridMapping_t;

struct trnsolverMpGrid;
typedef struct trnsolverMpGrid* trnsolverMpGrid_t;
struct trnsolverMpMatrixDescriptor;
typedef struct trnsolverMpMatrixDescriptor* trnsolverMpMatrixDescriptor_t;
struct trnsolverMpHandle;
typedef struct trnsolverMpHandle* trnsolverMpHandle_t;

/* Library management. deviceId is stored (the emulated device is the handle's target: trn1 by
 * default, 2 NeuronCores; trn2 8); the stream is stored and returned. */
trnsolverStatus_t trnsolverMpCreate(trnsolverMpHandle_t* handle, int deviceId, trnStream_t stream);
trnsolverStatus_t trnsolverMpDestroy(trnsolverMpHandle_t handle);
trnsolverStatus_t trnsolverMpGetStream(trnsolverMpHandle_t handle, trnStream_t* stream);
trnsolverStatus_t trnsolverMpGetVersion(trnsolverMpHandle_t handle, int* version);

/* Grids (collective over comm: numRowDevices * numColDevices must be comm's size, every rank passes
 * the same shape and mapping; trnblasMp's grid: a duplicate of comm and its row / column splits). */
trnsolverStatus_t trnsolverMpCreateDeviceGrid(trnsolverMpHandle_t handle, trnsolverMpGrid_t* grid, MPI_Comm comm,
                                              int32_t numRowDevices, int32_t numColDevices,
                                              trnsolverMpGridMapping_t mapping);
trnsolverStatus_t trnsolverMpDestroyGrid(trnsolverMpGrid_t grid);

/* Block-cyclic matrix descriptors (local): M_A x N_A in MB_A x NB_A blocks, first block on process
 * (RSRC_A, CSRC_A), LLD_A >= max(1, local rows); dataType TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F. */
trnsolverStatus_t trnsolverMpCreateMatrixDesc(trnsolverMpMatrixDescriptor_t* desc, trnsolverMpGrid_t grid,
                                              trnDataType_t dataType, int64_t M_A, int64_t N_A, int64_t MB_A,
                                              int64_t NB_A, uint32_t RSRC_A, uint32_t CSRC_A, int64_t LLD_A);
trnsolverStatus_t trnsolverMpDestroyMatrixDesc(trnsolverMpMatrixDescriptor_t desc);

/* ScaLAPACK's NUMROC: the rows or columns of an n-long dimension in nb blocks process iproc owns. */
int64_t trnsolverMpNUMROC(int64_t n, int64_t nb, uint32_t iproc, uint32_t isrcproc, uint32_t nprocs);

/* P A = L U with partial pivoting of the M x N matrix A (square blocks MB_A = NB_A), in place.
 * d_ipiv: this rank's LOCr(M_A) pivots in ScaLAPACK PDGETRF's layout (local row il of global row
 * i < min(M, N): the 1-based global row it was interchanged with; the same on every process column),
 * or NULL: no pivoting. computeType: the descriptor's type. info > 0: U(info, info) is exactly zero
 * (the factorization completed). Algorithm and bits: docs/scale-out.md section 6.2. */
trnsolverStatus_t trnsolverMpGetrf_bufferSize(trnsolverMpHandle_t handle, int64_t M, int64_t N, void* d_A, int64_t IA,
                                              int64_t JA, trnsolverMpMatrixDescriptor_t descrA, int64_t* d_ipiv,
                                              trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                              size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverMpGetrf(trnsolverMpHandle_t handle, int64_t M, int64_t N, void* d_A, int64_t IA, int64_t JA,
                                   trnsolverMpMatrixDescriptor_t descrA, int64_t* d_ipiv, trnDataType_t computeType,
                                   void* d_work, size_t workspaceInBytesOnDevice, void* h_work,
                                   size_t workspaceInBytesOnHost, int* info);

/* op(A) X = B with Getrf's factors and pivots (trans N, T or C), B N x NRHS overwritten by X. */
trnsolverStatus_t trnsolverMpGetrs_bufferSize(trnsolverMpHandle_t handle, trnblasOperation_t trans, int64_t N,
                                              int64_t NRHS, const void* d_A, int64_t IA, int64_t JA,
                                              trnsolverMpMatrixDescriptor_t descrA, const int64_t* d_ipiv, void* d_B,
                                              int64_t IB, int64_t JB, trnsolverMpMatrixDescriptor_t descrB,
                                              trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                              size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverMpGetrs(trnsolverMpHandle_t handle, trnblasOperation_t trans, int64_t N, int64_t NRHS,
                                   const void* d_A, int64_t IA, int64_t JA, trnsolverMpMatrixDescriptor_t descrA,
                                   const int64_t* d_ipiv, void* d_B, int64_t IB, int64_t JB,
                                   trnsolverMpMatrixDescriptor_t descrB, trnDataType_t computeType, void* d_work,
                                   size_t workspaceInBytesOnDevice, void* h_work, size_t workspaceInBytesOnHost,
                                   int* d_info);

/* A = L L^H (uplo lower) or U^H U (upper) of the Hermitian (symmetric) positive definite n x n matrix,
 * in place on the uplo triangle (square blocks). info > 0: the leading minor of order info is not
 * positive definite (the same info on every rank). */
trnsolverStatus_t trnsolverMpPotrf_bufferSize(trnsolverMpHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                              const void* a, int64_t ia, int64_t ja, trnsolverMpMatrixDescriptor_t descA,
                                              trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                              size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverMpPotrf(trnsolverMpHandle_t handle, trnblasFillMode_t uplo, int64_t n, void* a, int64_t ia,
                                   int64_t ja, trnsolverMpMatrixDescriptor_t descA, trnDataType_t computeType,
                                   void* d_work, size_t workspaceInBytesOnDevice, void* h_work,
                                   size_t workspaceInBytesOnHost, int* info);

/* A X = B with Potrf's factor, B n x nrhs overwritten by X. */
trnsolverStatus_t trnsolverMpPotrs_bufferSize(trnsolverMpHandle_t handle, trnblasFillMode_t uplo, int64_t n, int64_t nrhs,
                                              const void* a, int64_t ia, int64_t ja, trnsolverMpMatrixDescriptor_t descA,
                                              const void* b, int64_t ib, int64_t jb, trnsolverMpMatrixDescriptor_t descB,
                                              trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                              size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverMpPotrs(trnsolverMpHandle_t handle, trnblasFillMode_t uplo, int64_t n, int64_t nrhs,
                                   const void* a, int64_t ia, int64_t ja, trnsolverMpMatrixDescriptor_t descA, void* b,
                                   int64_t ib, int64_t jb, trnsolverMpMatrixDescriptor_t descB,
                                   trnDataType_t computeType, void* d_work, size_t workspaceInBytesOnDevice,
                                   void* h_work, size_t workspaceInBytesOnHost, int* info);

/* A = Q R (Householder; LAPACK's xGEQRF storage: R on and above the diagonal, the reflectors v_i below it,
 * v_i(i) = 1 implicit) of the M x N matrix A (square blocks MB_A = NB_A), in place. d_tau: this rank's
 * LOCc(JA + min(M, N) - 1) scalars in ScaLAPACK PDGEQRF's layout (tau of local column jl; the same on
 * every process row), H_i = I - tau_i v_i v_i^H, Q = H_1 ... H_k. info: 0 (or -i). Algorithm, accuracy
 * and bits: docs/scale-out.md section 6.3. */
trnsolverStatus_t trnsolverMpGeqrf_bufferSize(trnsolverMpHandle_t handle, int64_t M, int64_t N, void* d_A, int64_t IA,
                                              int64_t JA, trnsolverMpMatrixDescriptor_t descrA, trnDataType_t computeType,
                                              size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverMpGeqrf(trnsolverMpHandle_t handle, int64_t M, int64_t N, void* d_A, int64_t IA, int64_t JA,
                                   trnsolverMpMatrixDescriptor_t descrA, void* d_tau, trnDataType_t computeType, void* d_work,
                                   size_t workspaceInBytesOnDevice, void* h_work, size_t workspaceInBytesOnHost,
                                   int* d_info);

/* C = op(Q) C with Q = H_1 ... H_K from Geqrf's reflectors in A (M x at least K) and d_tau; C M x N with A's
 * row distribution (same grid, MB and RSRC). side: TRNBLAS_SIDE_LEFT only (RIGHT: NOT_SUPPORTED, as
 * cuSOLVERMp: "the current implementation only support[s] CUBLAS_SIDE_LEFT"). trans: N or T (real), N or C
 * (complex), as LAPACK's xORMQR / xUNMQR. */
trnsolverStatus_t trnsolverMpOrmqr_bufferSize(trnsolverMpHandle_t handle, trnblasSideMode_t side, trnblasOperation_t trans,
                                              int64_t M, int64_t N, int64_t K, const void* d_A, int64_t IA, int64_t JA,
                                              trnsolverMpMatrixDescriptor_t descrA, const void* d_tau, void* d_C, int64_t IC,
                                              int64_t JC, trnsolverMpMatrixDescriptor_t descrC, trnDataType_t computeType,
                                              size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverMpOrmqr(trnsolverMpHandle_t handle, trnblasSideMode_t side, trnblasOperation_t trans, int64_t M,
                                   int64_t N, int64_t K, const void* d_A, int64_t IA, int64_t JA,
                                   trnsolverMpMatrixDescriptor_t descrA, const void* d_tau, void* d_C, int64_t IC, int64_t JC,
                                   trnsolverMpMatrixDescriptor_t descrC, trnDataType_t computeType, void* d_work,
                                   size_t workspaceInBytesOnDevice, void* h_work, size_t workspaceInBytesOnHost,
                                   int* d_info);

/* Least squares min ||A X - B|| of the M x N matrix A of full rank (trans N with M >= N only, cuSOLVERMp's
 * supported case, "only supported via QR factorization"; others NOT_SUPPORTED): Geqrf, Q^H B,
 * R X = (Q^H B)(1:N); X overwrites B's first N rows, A its QR. info > 0:
 * R(info, info) is exactly zero (rank deficient; B not written). */
trnsolverStatus_t trnsolverMpGels_bufferSize(trnsolverMpHandle_t handle, trnblasOperation_t trans, int64_t M, int64_t N,
                                             int64_t NRHS, void* d_A, int64_t IA, int64_t JA,
                                             trnsolverMpMatrixDescriptor_t descrA, void* d_B, int64_t IB, int64_t JB,
                                             trnsolverMpMatrixDescriptor_t descrB, trnDataType_t computeType,
                                             size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverMpGels(trnsolverMpHandle_t handle, trnblasOperation_t trans, int64_t M, int64_t N, int64_t NRHS,
                                  void* d_A, int64_t IA, int64_t JA, trnsolverMpMatrixDescriptor_t descrA, void* d_B,
                                  int64_t IB, int64_t JB, trnsolverMpMatrixDescriptor_t descrB, trnDataType_t computeType,
                                  void* d_work, size_t workspaceInBytesOnDevice, void* h_work,
                                  size_t workspaceInBytesOnHost, int* d_info);

/* The explicit Q (cuSOLVERMp's cusolverMpOrgqr; LAPACK xORGQR / xUNGQR): the m x n matrix A (m >= n >= k >= 0)
 * holding Geqrf's reflectors in its first k columns is overwritten by the first n columns of
 * Q = H_1 ... H_k (d_tau: Geqrf's, LOCc layout). Square blocks. Parameter positions: m 1, n 2, k 3, d_A 4,
 * ia 5, ja 6, descA 7, d_tau 8, computeType 9, d_work 10, d_info 14 (_bufferSize: its sizes 10, 11).
 * Algorithm and accuracy: docs/scale-out.md section 6.3. */
trnsolverStatus_t trnsolverMpOrgqr_bufferSize(trnsolverMpHandle_t handle, int64_t m, int64_t n, int64_t k, const void* d_A,
                                              int64_t ia, int64_t ja, trnsolverMpMatrixDescriptor_t descA, const void* d_tau,
                                              trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                              size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverMpOrgqr(trnsolverMpHandle_t handle, int64_t m, int64_t n, int64_t k, void* d_A, int64_t ia, int64_t ja,
                                   trnsolverMpMatrixDescriptor_t descA, const void* d_tau, trnDataType_t computeType,
                                   void* d_work, size_t workspaceInBytesOnDevice, void* h_work, size_t workspaceInBytesOnHost,
                                   int* d_info);

/* Eigenvalues (and, jobz "V", eigenvectors) of the real symmetric or complex Hermitian N x N matrix A from
 * its uplo triangle (square blocks; Hermitian: the diagonal's imaginary parts are not read): D (N real
 * values of the working precision -- float for TRN_R_32F / TRN_C_32F, double for TRN_R_64F / TRN_C_64F --
 * on every rank) ascending, Z (N x N, A's type, grid, MB, NB and RSRC) the eigenvectors; A destroyed.
 * jobz: cuSOLVERMp's string, "N" or "V". TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F (cuSOLVERMp's
 * table; complex is the Hermitian solver, ScaLAPACK's PZHEEVD). info: 0; i > 0 when i off-diagonal
 * elements of a tridiagonal subproblem did not converge; N when A holds Inf/NaN (D NaN). The _bufferSize
 * takes d_A, d_D and d_Z as cusolverMpSyevd_bufferSize does (not read: NULL is allowed). Algorithm,
 * bounds and bits: docs/scale-out.md 6.5. */
trnsolverStatus_t trnsolverMpSyevd_bufferSize(trnsolverMpHandle_t handle, const char* jobz, trnblasFillMode_t uplo, int64_t N,
                                              void* d_A, int64_t IA, int64_t JA, trnsolverMpMatrixDescriptor_t descrA,
                                              void* d_D, void* d_Z, int64_t IZ, int64_t JZ,
                                              trnsolverMpMatrixDescriptor_t descrZ, trnDataType_t computeType,
                                              size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverMpSyevd(trnsolverMpHandle_t handle, const char* jobz, trnblasFillMode_t uplo, int64_t N, void* d_A,
                                   int64_t IA, int64_t JA, trnsolverMpMatrixDescriptor_t descrA, void* d_D, void* d_Z,
                                   int64_t IZ, int64_t JZ, trnsolverMpMatrixDescriptor_t descrZ, trnDataType_t computeType,
                                   void* d_work, size_t workspaceInBytesOnDevice, void* h_work, size_t workspaceInBytesOnHost,
                                   int* d_info);

/* A x = lambda B x (itype TRNSOLVER_EIG_TYPE_1; 2 and 3: NOT_SUPPORTED, as cuSOLVERMp's "the current
 * implementation supports ibtype = CUSOLVER_EIG_TYPE_1") for symmetric (Hermitian) A and symmetric
 * (Hermitian) positive definite B (M x M, B distributed as A), S, D, C and Z: B's uplo triangle
 * overwritten by its Cholesky factor, W (M real values, as Syevd's D) the eigenvalues ascending, Z (jobz
 * VECTOR) the eigenvectors with Z^H B Z = I. jobz NOVECTOR and uplo upper (cuSOLVERMp: VECTOR and lower
 * only) are accepted. info: M + i when B's leading minor of order i is not positive definite (W, Z not
 * written), else Syevd's. */
trnsolverStatus_t trnsolverMpSygvd_bufferSize(trnsolverMpHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                              trnblasFillMode_t uplo, int64_t M, int64_t IA, int64_t JA,
                                              trnsolverMpMatrixDescriptor_t descrA, int64_t IB, int64_t JB,
                                              trnsolverMpMatrixDescriptor_t descrB, int64_t IZ, int64_t JZ,
                                              trnsolverMpMatrixDescriptor_t descrZ, trnDataType_t computeType,
                                              size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverMpSygvd(trnsolverMpHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                   trnblasFillMode_t uplo, int64_t M, void* d_A, int64_t IA, int64_t JA,
                                   trnsolverMpMatrixDescriptor_t descrA, void* d_B, int64_t IB, int64_t JB,
                                   trnsolverMpMatrixDescriptor_t descrB, void* d_W, void* d_Z, int64_t IZ, int64_t JZ,
                                   trnsolverMpMatrixDescriptor_t descrZ, trnDataType_t computeType, void* d_work,
                                   size_t workspaceInBytesOnDevice, void* h_work, size_t workspaceInBytesOnHost, int* d_info);

/* The emulation surface of every trnsci library (trncore.h). GetLastProfile: this rank's device. */
TRN_EMULATION_API(trnsolverMp, trnsolverMp, trnsolverMpHandle_t, trnsolverStatus_t)
TRN_PROFILE_SIZED_API(trnsolverMp, trnsolverMpHandle_t, trnsolverStatus_t)  /* trnprofile.h: the versioned trnProfile_t */

#ifdef __cplusplus
}
#endif

#endif /* TRNSOLVERMP_H */
