/* trnsolver.h - cuSOLVER-Dn-shaped C API of trnsolver: Jacobi symmetric eigensolvers as tile
 * kernels on the emulated NeuronCore. Same function names (cusolver -> trnsolver), argument order,
 * meaning and numeric enum values as cuSOLVER Dn (cusolverDn.h, cusolver_common.h of CUDA 13);
 * fill modes are trnblasFillMode_t. Column-major; host pointers; synchronous (streams are stored).
 * Every function returns a status and never aborts, exits or throws; on an invalid argument
 * nothing is written and the parameter position is logged (1-based, not counting the handle).
 * The fp64 (D) eigensolvers run on the host CPU in fp64: see docs/trnsolver.md.                  */
#ifndef TRNSOLVER_H
#define TRNSOLVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* FILE: trnsolverDnLoggerSetFile */

#include "trnblas.h"
#include "trncore.h"
#include "trnprofile.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TRNSOLVER_VER_MAJOR 0
#define TRNSOLVER_VER_MINOR 1
#define TRNSOLVER_VER_PATCH 0
#define TRNSOLVER_VERSION (TRNSOLVER_VER_MAJOR * 1000 + TRNSOLVER_VER_MINOR * 100 + TRNSOLVER_VER_PATCH)

typedef enum trnsolverStatus_t {
  TRNSOLVER_STATUS_SUCCESS = 0,
  TRNSOLVER_STATUS_NOT_INITIALIZED = 1,
  TRNSOLVER_STATUS_ALLOC_FAILED = 2,
  TRNSOLVER_STATUS_INVALID_VALUE = 3,
  TRNSOLVER_STATUS_ARCH_MISMATCH = 4,
  TRNSOLVER_STATUS_MAPPING_ERROR = 5,
  TRNSOLVER_STATUS_EXECUTION_FAILED = 6,
  TRNSOLVER_STATUS_INTERNAL_ERROR = 7,
  TRNSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
  TRNSOLVER_STATUS_NOT_SUPPORTED = 9,
  TRNSOLVER_STATUS_ZERO_PIVOT = 10,
  TRNSOLVER_STATUS_INVALID_LICENSE = 11,
  TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED = 12,
  TRNSOLVER_STATUS_IRS_PARAMS_INVALID = 13,
  TRNSOLVER_STATUS_IRS_PARAMS_INVALID_PREC = 14,
  TRNSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE = 15,
  TRNSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER = 16,
  TRNSOLVER_STATUS_IRS_INTERNAL_ERROR = 20,
  TRNSOLVER_STATUS_IRS_NOT_SUPPORTED = 21,
  TRNSOLVER_STATUS_IRS_OUT_OF_RANGE = 22,
  TRNSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES = 23,
  TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED = 25,
  TRNSOLVER_STATUS_IRS_INFOS_NOT_DESTROYED = 26,
  TRNSOLVER_STATUS_IRS_MATRIX_SINGULAR = 30,
  TRNSOLVER_STATUS_INVALID_WORKSPACE = 31
} trnsolverStatus_t;

typedef enum trnsolverEigMode_t { TRNSOLVER_EIG_MODE_NOVECTOR = 0, TRNSOLVER_EIG_MODE_VECTOR = 1 } trnsolverEigMode_t;

typedef enum trnsolverEigType_t {
  TRNSOLVER_EIG_TYPE_1 = 1, /* A x = lambda B x */
  TRNSOLVER_EIG_TYPE_2 = 2, /* A B x = lambda x */
  TRNSOLVER_EIG_TYPE_3 = 3  /* B A x = lambda x */
} trnsolverEigType_t;

typedef enum trnsolverDeterministicMode_t {
  TRNSOLVER_DETERMINISTIC_RESULTS = 1,
  TRNSOLVER_ALLOW_NON_DETERMINISTIC_RESULTS = 2
} trnsolverDeterministicMode_t;

typedef struct trnsolverDnContext* trnsolverDnHandle_t;
/* cuSOLVER's unprefixed parameter type keeps its name. */
struct syevjInfo;
typedef struct syevjInfo* syevjInfo_t;
struct gesvdjInfo;
typedef struct gesvdjInfo* gesvdjInfo_t;

/* ---- handle ------------------------------------------------------------------------------------ */
trnsolverStatus_t trnsolverDnCreate(trnsolverDnHandle_t* handle);
trnsolverStatus_t trnsolverDnDestroy(trnsolverDnHandle_t handle);
trnsolverStatus_t trnsolverDnSetStream(trnsolverDnHandle_t handle, trnStream_t streamId);
trnsolverStatus_t trnsolverDnGetStream(trnsolverDnHandle_t handle, trnStream_t* streamId);
/* Results are bitwise reproducible in both modes (accepted and stored). */
trnsolverStatus_t trnsolverDnSetDeterministicMode(trnsolverDnHandle_t handle, trnsolverDeterministicMode_t mode);
trnsolverStatus_t trnsolverDnGetDeterministicMode(trnsolverDnHandle_t handle, trnsolverDeterministicMode_t* mode);
trnsolverStatus_t trnsolverGetVersion(int* version);
const char* trnsolverGetStatusName(trnsolverStatus_t status);

/* ---- the emulation surface every trnsci library has (trncore.h, TRN_EMULATION_API): cores spread batches;
 * the last profile of the D (fp64) eigensolvers is all zeros: that work runs on the host CPU
 * (docs/trnsolver.md).
 * Set/Get Target, NumericsProfile, StochasticRounding(enable, seed), NumCores; GetLastProfile
 * (modeled cost of the last compute call, docs/cost-model.md); GetLastErrorParameter (1-based
 * position of the last illegal argument, 0 if none); trnsolverLoggerConfigure, trnsolverSet/GetLoggerCallback,
 * trnsolverLoggerSetCallback. ---- */
/* Logging: TRNSOLVER_LOGINFO_DBG=1, TRNSOLVER_LOGDEST_DBG = stdout | stderr | <file>. */
typedef trnLogCallback_t trnsolverLogCallback;
TRN_EMULATION_API(trnsolverDn, trnsolver, trnsolverDnHandle_t, trnsolverStatus_t)
TRN_PROFILE_SIZED_API(trnsolverDn, trnsolverDnHandle_t, trnsolverStatus_t)  /* trnprofile.h: the versioned trnProfile_t */
/* Earlier name of trnsolverDnSetNumCores (kept). */
trnsolverStatus_t trnsolverDnSetEmulatedCores(trnsolverDnHandle_t handle, int cores);

/* ---- syevj parameters ------------------------------------------------------------------------- */
/* Defaults: tolerance = machine epsilon of the type, max_sweeps = 100, sort_eig = 1. */
trnsolverStatus_t trnsolverDnCreateSyevjInfo(syevjInfo_t* info);
trnsolverStatus_t trnsolverDnDestroySyevjInfo(syevjInfo_t info);
trnsolverStatus_t trnsolverDnXsyevjSetTolerance(syevjInfo_t info, double tolerance);
trnsolverStatus_t trnsolverDnXsyevjSetMaxSweeps(syevjInfo_t info, int max_sweeps);
trnsolverStatus_t trnsolverDnXsyevjSetSortEig(syevjInfo_t info, int sort_eig);
/* After syevj: off(A)_F of the last matrix and the sweeps executed. After syevjBatched:
 * TRNSOLVER_STATUS_NOT_SUPPORTED (as cuSOLVER). */
trnsolverStatus_t trnsolverDnXsyevjGetResidual(trnsolverDnHandle_t handle, syevjInfo_t info, double* residual);
trnsolverStatus_t trnsolverDnXsyevjGetSweeps(trnsolverDnHandle_t handle, syevjInfo_t info, int* executed_sweeps);

/* ---- syevj ------------------------------------------------------------------------------------- */
/* lwork in elements; the host implementation needs no workspace but reports 1 and checks it. */
trnsolverStatus_t trnsolverDnSsyevj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n, const float* A, int lda, const float* W,
                                               int* lwork, syevjInfo_t params);
trnsolverStatus_t trnsolverDnDsyevj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n, const double* A, int lda,
                                               const double* W, int* lwork, syevjInfo_t params);
trnsolverStatus_t trnsolverDnSsyevj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    float* A, int lda, float* W, float* work, int lwork, int* info,
                                    syevjInfo_t params);
trnsolverStatus_t trnsolverDnDsyevj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    double* A, int lda, double* W, double* work, int lwork, int* info,
                                    syevjInfo_t params);
/* Batched: A_k(i, j) = A[i + lda j + lda n k], W_k(j) = W[j + n k], info[k] per matrix; any n up to
 * the single-matrix limit (cuSOLVER's n <= 32 is not imposed). */
trnsolverStatus_t trnsolverDnSsyevjBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                      trnblasFillMode_t uplo, int n, const float* A, int lda,
                                                      const float* W, int* lwork, syevjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnDsyevjBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                      trnblasFillMode_t uplo, int n, const double* A, int lda,
                                                      const double* W, int* lwork, syevjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnSsyevjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                           int n, float* A, int lda, float* W, float* work, int lwork, int* info,
                                           syevjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnDsyevjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                           int n, double* A, int lda, double* W, double* work, int lwork, int* info,
                                           syevjInfo_t params, int batchSize);

/* ---- sygvj: generalized symmetric-definite eigenproblem ------------------------------------------ */
/* B = L L^T (potrf), reduction to C = L^-1 A L^-T (itype 1) or L^T A L (2, 3), syevj(C), back
 * transformation. Uses syevjInfo_t (tolerance, max_sweeps; W ascending). With VECTOR A is
 * overwritten by the eigenvectors X (X^T B X = I for itype 1, 2; X^T B^-1 X = I for 3), B's uplo
 * triangle by the Cholesky factor. info: 0, -i, n + 1 not converged (or NaN / Inf in A), n + i
 * when the leading minor of order i of B is not positive definite (nothing written). */
trnsolverStatus_t trnsolverDnSsygvj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n, const float* A,
                                               int lda, const float* B, int ldb, const float* W, int* lwork,
                                               syevjInfo_t params);
trnsolverStatus_t trnsolverDnDsygvj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n, const double* A,
                                               int lda, const double* B, int ldb, const double* W, int* lwork,
                                               syevjInfo_t params);
trnsolverStatus_t trnsolverDnSsygvj(trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, float* A, int lda, float* B, int ldb, float* W,
                                    float* work, int lwork, int* info, syevjInfo_t params);
trnsolverStatus_t trnsolverDnDsygvj(trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, double* A, int lda, double* B, int ldb, double* W,
                                    double* work, int lwork, int* info, syevjInfo_t params);

/* ---- gesvdj: one-sided Jacobi SVD --------------------------------------------------------------- */
/* Defaults: tolerance = machine epsilon of the type (floored at 4 sqrt(max(m, n)) u: a dot product
 * of that length is not more accurate), max_sweeps = 100, sort_svd = 1 (gesvdjBatched only: gesvdj
 * always sorts, descending). GetResidual: the largest |a_p^T a_q| / (||a_p|| ||a_q||) over the
 * column pairs in the last sweep (the quantity the tolerance bounds); after gesvdjBatched
 * GetResidual / GetSweeps return TRNSOLVER_STATUS_NOT_SUPPORTED (as cuSOLVER). */
trnsolverStatus_t trnsolverDnCreateGesvdjInfo(gesvdjInfo_t* info);
trnsolverStatus_t trnsolverDnDestroyGesvdjInfo(gesvdjInfo_t info);
trnsolverStatus_t trnsolverDnXgesvdjSetTolerance(gesvdjInfo_t info, double tolerance);
trnsolverStatus_t trnsolverDnXgesvdjSetMaxSweeps(gesvdjInfo_t info, int max_sweeps);
trnsolverStatus_t trnsolverDnXgesvdjSetSortEig(gesvdjInfo_t info, int sort_svd);
trnsolverStatus_t trnsolverDnXgesvdjGetResidual(trnsolverDnHandle_t handle, gesvdjInfo_t info, double* residual);
trnsolverStatus_t trnsolverDnXgesvdjGetSweeps(trnsolverDnHandle_t handle, gesvdjInfo_t info, int* executed_sweeps);

/* A = U diag(S) V^T, S descending. econ = 0: U m x m, V n x n; econ != 0: U m x min(m, n), V
 * n x min(m, n). jobz NOVECTOR: S only (U, V not referenced). info: 0, -i, or min(m, n) + 1 when
 * the sweeps did not converge (or A holds NaN / Inf: S is then NaN). A is not modified. S: tile
 * kernel (fp32, max(m, n) <= 1024, else NOT_SUPPORTED); D: on the host CPU in fp64 (empty profile).
 * lwork in elements (the implementation needs none; 1 is reported and checked). */
trnsolverStatus_t trnsolverDnSgesvdj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int econ, int m,
                                                int n, const float* A, int lda, const float* S, const float* U,
                                                int ldu, const float* V, int ldv, int* lwork, gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnDgesvdj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int econ, int m,
                                                int n, const double* A, int lda, const double* S, const double* U,
                                                int ldu, const double* V, int ldv, int* lwork, gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnSgesvdj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int econ, int m, int n,
                                     float* A, int lda, float* S, float* U, int ldu, float* V, int ldv, float* work,
                                     int lwork, int* info, gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnDgesvdj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int econ, int m, int n,
                                     double* A, int lda, double* S, double* U, int ldu, double* V, int ldv,
                                     double* work, int lwork, int* info, gesvdjInfo_t params);
/* Batched (full U and V): A_k = A + lda n k, S_k = S + min(m, n) k, U_k = U + ldu m k, V_k = V +
 * ldv n k, info[k]; any m, n up to the single-matrix limit (cuSOLVER's 32 is not imposed). */
trnsolverStatus_t trnsolverDnSgesvdjBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int m,
                                                       int n, const float* A, int lda, const float* S,
                                                       const float* U, int ldu, const float* V, int ldv, int* lwork,
                                                       gesvdjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnDgesvdjBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int m,
                                                       int n, const double* A, int lda, const double* S,
                                                       const double* U, int ldu, const double* V, int ldv, int* lwork,
                                                       gesvdjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnSgesvdjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int m, int n,
                                            float* A, int lda, float* S, float* U, int ldu, float* V, int ldv,
                                            float* work, int lwork, int* info, gesvdjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnDgesvdjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int m, int n,
                                            double* A, int lda, double* S, double* U, int ldu, double* V, int ldv,
                                            double* work, int lwork, int* info, gesvdjInfo_t params, int batchSize);

/* ---- Cholesky ---------------------------------------------------------------------------------- */
/* Blocked right-looking; panels on Vector/Scalar/GpSimd engines, trailing updates by trnblas SYRK on
 * TensorE (fp32). devInfo: 0, -i bad parameter i, i > 0 leading minor of order i not positive
 * definite. Lwork in elements (1: no workspace is needed). */
trnsolverStatus_t trnsolverDnSpotrf_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, float* A,
                                               int lda, int* Lwork);
trnsolverStatus_t trnsolverDnSpotrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, float* A, int lda,
                                    float* Workspace, int Lwork, int* devInfo);
/* fp64: trailing updates by trnblas Ozaki DSYRK on TensorE, the panels on the host CPU in fp64. */
trnsolverStatus_t trnsolverDnDpotrf_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, double* A,
                                               int lda, int* Lwork);
trnsolverStatus_t trnsolverDnDpotrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, double* A, int lda,
                                    double* Workspace, int Lwork, int* devInfo);
/* Solves A X = B with potrf's factor; devInfo 0 or -i. S: two triangular-solve tile kernels.
 * D: the triangular solves run on the host CPU in fp64 (empty profile). */
trnsolverStatus_t trnsolverDnDpotrs(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, int nrhs,
                                    const double* A, int lda, double* B, int ldb, int* devInfo);
trnsolverStatus_t trnsolverDnSpotrs(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, int nrhs, const float* A,
                                    int lda, float* B, int ldb, int* devInfo);

/* ---- LU ---------------------------------------------------------------------------------------- */
/* Partial pivoting (devIpiv 1-based, min(m, n) entries; devIpiv == NULL: no pivoting). devInfo: 0,
 * -i, or i > 0 when U(i, i) is exactly zero (the factorization is completed). Panels on
 * Vector/Scalar/GpSimd with TensorE broadcasts, U12 by a triangular-solve tile kernel, trailing
 * update by trnblas GEMM (fp32, TensorE). */
trnsolverStatus_t trnsolverDnSgetrf_bufferSize(trnsolverDnHandle_t handle, int m, int n, float* A, int lda, int* Lwork);
trnsolverStatus_t trnsolverDnSgetrf(trnsolverDnHandle_t handle, int m, int n, float* A, int lda, float* Workspace,
                                    int* devIpiv, int* devInfo);
/* trans: TRNBLAS_OP_N or TRNBLAS_OP_T (OP_C = OP_T for real data). The row interchanges of B are a
 * permutation applied on the host (no arithmetic; a costed host round trip in the profile); the
 * triangular solves are tile kernels. */
trnsolverStatus_t trnsolverDnSgetrs(trnsolverDnHandle_t handle, trnblasOperation_t trans, int n, int nrhs,
                                    const float* A, int lda, const int* devIpiv, float* B, int ldb, int* devInfo);

/* fp64 LU: panels and U12 solve on the host CPU in fp64, trailing updates by Ozaki DGEMM on TensorE;
 * Dgetrs on the host CPU in fp64. */
trnsolverStatus_t trnsolverDnDgetrf_bufferSize(trnsolverDnHandle_t handle, int m, int n, double* A, int lda, int* Lwork);
trnsolverStatus_t trnsolverDnDgetrf(trnsolverDnHandle_t handle, int m, int n, double* A, int lda, double* Workspace,
                                    int* devIpiv, int* devInfo);
trnsolverStatus_t trnsolverDnDgetrs(trnsolverDnHandle_t handle, trnblasOperation_t trans, int n, int nrhs,
                                    const double* A, int lda, const int* devIpiv, double* B, int ldb, int* devInfo);

/* ---- complex Cholesky and LU (C: trnComplex, Z: trnDoubleComplex) -------------------------------- */
/* Blocked right-looking as the real routines: the panels (potrf: nb x nb diagonal blocks; getrf: the
 * m x nb panels with their pivot search by |re| + |im| and row interchanges) on the host CPU in fp64,
 * everything else by trnblas complex TRSM / HERK / GEMM (4M) on TensorE: fp32 mode (C), Ozaki fp64 (Z).
 * devInfo as the real routines; potrf reads the diagonal's real parts only. potri (trtri + lauum, as S/D): A^-1 from potrf's
 * factor (uplo triangle), devInfo i > 0 when the factor's i-th diagonal element is zero.
 * getrs trans: OP_N, OP_T or OP_C (conjugate transpose). Lwork/lwork in elements (1: none needed). */
trnsolverStatus_t trnsolverDnCpotrf_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, trnComplex* A,
                                               int lda, int* Lwork);
trnsolverStatus_t trnsolverDnZpotrf_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                               trnDoubleComplex* A, int lda, int* Lwork);
trnsolverStatus_t trnsolverDnCpotrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, trnComplex* A, int lda,
                                    trnComplex* Workspace, int Lwork, int* devInfo);
trnsolverStatus_t trnsolverDnZpotrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, trnDoubleComplex* A,
                                    int lda, trnDoubleComplex* Workspace, int Lwork, int* devInfo);
trnsolverStatus_t trnsolverDnCpotrs(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, int nrhs,
                                    const trnComplex* A, int lda, trnComplex* B, int ldb, int* devInfo);
trnsolverStatus_t trnsolverDnZpotrs(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, int nrhs,
                                    const trnDoubleComplex* A, int lda, trnDoubleComplex* B, int ldb, int* devInfo);
trnsolverStatus_t trnsolverDnCpotri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, trnComplex* A,
                                               int lda, int* lwork);
trnsolverStatus_t trnsolverDnZpotri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                               trnDoubleComplex* A, int lda, int* lwork);
trnsolverStatus_t trnsolverDnCpotri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, trnComplex* A, int lda,
                                    trnComplex* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnZpotri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, trnDoubleComplex* A,
                                    int lda, trnDoubleComplex* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnCgetrf_bufferSize(trnsolverDnHandle_t handle, int m, int n, trnComplex* A, int lda,
                                               int* Lwork);
trnsolverStatus_t trnsolverDnZgetrf_bufferSize(trnsolverDnHandle_t handle, int m, int n, trnDoubleComplex* A, int lda,
                                               int* Lwork);
trnsolverStatus_t trnsolverDnCgetrf(trnsolverDnHandle_t handle, int m, int n, trnComplex* A, int lda,
                                    trnComplex* Workspace, int* devIpiv, int* devInfo);
trnsolverStatus_t trnsolverDnZgetrf(trnsolverDnHandle_t handle, int m, int n, trnDoubleComplex* A, int lda,
                                    trnDoubleComplex* Workspace, int* devIpiv, int* devInfo);
trnsolverStatus_t trnsolverDnCgetrs(trnsolverDnHandle_t handle, trnblasOperation_t trans, int n, int nrhs,
                                    const trnComplex* A, int lda, const int* devIpiv, trnComplex* B, int ldb,
                                    int* devInfo);
trnsolverStatus_t trnsolverDnZgetrs(trnsolverDnHandle_t handle, trnblasOperation_t trans, int n, int nrhs,
                                    const trnDoubleComplex* A, int lda, const int* devIpiv, trnDoubleComplex* B,
                                    int ldb, int* devInfo);

/* ---- complex Hermitian eigensolver (C, Z): heevd = hetrd + real divide and conquer + unmtr -------- */
/* Arguments, devInfo and workspace rules as S/D syevd, sytrd, orgtr, ormtr (W, d, e real); unmtr's
 * trans: OP_N or OP_C (OP_T -> INVALID_VALUE, position 3). See docs/trnsolver.md "heevd". */
trnsolverStatus_t trnsolverDnCheevd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo,
                                               int n, const trnComplex* A, int lda, const float* W, int* lwork);
trnsolverStatus_t trnsolverDnCheevd(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    trnComplex* A, int lda, float* W, trnComplex* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnChetrd_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, const trnComplex* A,
                                               int lda, const float* d, const float* e, const trnComplex* tau, int* lwork);
trnsolverStatus_t trnsolverDnChetrd(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, trnComplex* A, int lda, float* d,
                                    float* e, trnComplex* tau, trnComplex* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnCungtr_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, const trnComplex* A,
                                               int lda, const trnComplex* tau, int* lwork);
trnsolverStatus_t trnsolverDnCungtr(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, trnComplex* A, int lda,
                                    const trnComplex* tau, trnComplex* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnCunmtr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                               trnblasOperation_t trans, int m, int n, const trnComplex* A, int lda,
                                               const trnComplex* tau, const trnComplex* C, int ldc, int* lwork);
trnsolverStatus_t trnsolverDnCunmtr(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                    trnblasOperation_t trans, int m, int n, trnComplex* A, int lda, trnComplex* tau, trnComplex* C, int ldc,
                                    trnComplex* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnZheevd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo,
                                               int n, const trnDoubleComplex* A, int lda, const double* W, int* lwork);
trnsolverStatus_t trnsolverDnZheevd(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    trnDoubleComplex* A, int lda, double* W, trnDoubleComplex* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnZhetrd_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, const trnDoubleComplex* A,
                                               int lda, const double* d, const double* e, const trnDoubleComplex* tau, int* lwork);
trnsolverStatus_t trnsolverDnZhetrd(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, trnDoubleComplex* A, int lda, double* d,
                                    double* e, trnDoubleComplex* tau, trnDoubleComplex* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnZungtr_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, const trnDoubleComplex* A,
                                               int lda, const trnDoubleComplex* tau, int* lwork);
trnsolverStatus_t trnsolverDnZungtr(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, trnDoubleComplex* A, int lda,
                                    const trnDoubleComplex* tau, trnDoubleComplex* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnZunmtr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                               trnblasOperation_t trans, int m, int n, const trnDoubleComplex* A, int lda,
                                               const trnDoubleComplex* tau, const trnDoubleComplex* C, int ldc, int* lwork);
trnsolverStatus_t trnsolverDnZunmtr(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                    trnblasOperation_t trans, int m, int n, trnDoubleComplex* A, int lda, trnDoubleComplex* tau, trnDoubleComplex* C, int ldc,
                                    trnDoubleComplex* work, int lwork, int* devInfo);

/* ---- mixed-precision iterative refinement (IRS simple API) --------------------------------------- */
typedef int trnsolver_int_t;
/* D<low>gesv: LU with partial pivoting whose trailing updates run on TensorE with <low> inputs (S:
 * fp32, H: fp16, B: bf16, X: tf32; fp32 PSUM; panels fp32), classical refinement with the residual
 * in fp64 by the Ozaki scheme on TensorE. iter >= 0: refinement iterations (the count includes
 * one correction applied after the residual test first passes); iter < 0: X comes from the fp64
 * fallback (dgetrf + dgetrs): -2 A overflows fp32, -3 zero pivot in the low-precision LU, -50 no
 * convergence in 50 iterations. dA is unchanged unless the fallback ran (then its LU factors).
 * lwork_bytes from _bufferSize; dWorkspace may be NULL when it is 0. d_info: 0, -i, or i > 0. */
#define TRNSOLVER_DECLARE_GESV(NAME, T)                                                                           \
  trnsolverStatus_t NAME##_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t n, trnsolver_int_t nrhs, T* dA,   \
                                      trnsolver_int_t ldda, trnsolver_int_t* dipiv, T* dB, trnsolver_int_t lddb,    \
                                      T* dX, trnsolver_int_t lddx, void* dWorkspace, size_t* lwork_bytes);          \
  trnsolverStatus_t NAME(trnsolverDnHandle_t handle, trnsolver_int_t n, trnsolver_int_t nrhs, T* dA,                \
                         trnsolver_int_t ldda, trnsolver_int_t* dipiv, T* dB, trnsolver_int_t lddb, T* dX,          \
                         trnsolver_int_t lddx, void* dWorkspace, size_t lwork_bytes, trnsolver_int_t* iter,         \
                         trnsolver_int_t* d_info);
TRNSOLVER_DECLARE_GESV(trnsolverDnDSgesv, double)
TRNSOLVER_DECLARE_GESV(trnsolverDnDHgesv, double)
TRNSOLVER_DECLARE_GESV(trnsolverDnDBgesv, double)
TRNSOLVER_DECLARE_GESV(trnsolverDnDXgesv, double)

/* S<low>gesv: fp32 I/O (cuSOLVER SHgesv, SBgesv, SXgesv). LU trailing updates on TensorE with fp16,
 * bf16 or tf32 inputs (fp32 PSUM; panels fp32); classical refinement with the residual in fp32
 * (trnblas GEMM, fp32 mode, TensorE); tolerance sqrt(n) eps32 ||A||_inf ||x||_inf. iter and d_info
 * as the D variants (-2: A holds Inf/NaN; fallback: Sgetrf + Sgetrs). */
TRNSOLVER_DECLARE_GESV(trnsolverDnSHgesv, float)
TRNSOLVER_DECLARE_GESV(trnsolverDnSBgesv, float)
TRNSOLVER_DECLARE_GESV(trnsolverDnSXgesv, float)
/* TRNSOLVER_DECLARE_GESV is #undef-ed after the IRS family block below, which reuses it. */

/* ---- IRS expert API ------------------------------------------------------------------------------ */
typedef enum trnsolverIRSRefinement_t {
  TRNSOLVER_IRS_REFINE_NOT_SET = 1100,
  TRNSOLVER_IRS_REFINE_NONE = 1101,
  TRNSOLVER_IRS_REFINE_CLASSICAL = 1102,
  TRNSOLVER_IRS_REFINE_CLASSICAL_GMRES = 1103,
  TRNSOLVER_IRS_REFINE_GMRES = 1104,
  TRNSOLVER_IRS_REFINE_GMRES_GMRES = 1105, /* accepted by SetRefinementSolver; IRSXgesv: IRS_NOT_SUPPORTED */
  TRNSOLVER_IRS_REFINE_GMRES_NOPCOND = 1106,
  TRNSOLVER_PREC_DD = 1150,
  TRNSOLVER_PREC_SS = 1151,
  TRNSOLVER_PREC_SHT = 1152
} trnsolverIRSRefinement_t;

typedef enum trnsolverPrecType_t {
  TRNSOLVER_R_8I = 1201,
  TRNSOLVER_R_8U = 1202,
  TRNSOLVER_R_64F = 1203,
  TRNSOLVER_R_32F = 1204,
  TRNSOLVER_R_16F = 1205,
  TRNSOLVER_R_16BF = 1206,
  TRNSOLVER_R_TF32 = 1207,
  TRNSOLVER_R_AP = 1208,
  TRNSOLVER_C_8I = 1211,
  TRNSOLVER_C_8U = 1212,
  TRNSOLVER_C_64F = 1213,
  TRNSOLVER_C_32F = 1214,
  TRNSOLVER_C_16F = 1215,
  TRNSOLVER_C_16BF = 1216,
  TRNSOLVER_C_TF32 = 1217,
  TRNSOLVER_C_AP = 1218
} trnsolverPrecType_t;

struct trnsolverDnIRSParams;
typedef struct trnsolverDnIRSParams* trnsolverDnIRSParams_t;
struct trnsolverDnIRSInfos;
typedef struct trnsolverDnIRSInfos* trnsolverDnIRSInfos_t;

/* Defaults: refinement NOT_SET (must be set), main precision not set (must be R_64F, R_32F, C_64F or C_32F),
 * lowest precision = main, Tol 0 (= sqrt(n) eps of the main precision, cuSOLVER's test), TolInner
 * 1e-4, MaxIters 50 (outer + inner), MaxItersInner 50, fallback enabled. A NULL or destroyed params
 * -> IRS_PARAMS_NOT_INITIALIZED; MaxIters / MaxItersInner <= 0 -> INVALID_VALUE; MaxItersInner >
 * MaxIters -> IRS_PARAMS_INVALID_MAXITER. */
trnsolverStatus_t trnsolverDnIRSParamsCreate(trnsolverDnIRSParams_t* params_ptr);
trnsolverStatus_t trnsolverDnIRSParamsDestroy(trnsolverDnIRSParams_t params);
trnsolverStatus_t trnsolverDnIRSParamsSetRefinementSolver(trnsolverDnIRSParams_t params,
                                                          trnsolverIRSRefinement_t refinement_solver);
trnsolverStatus_t trnsolverDnIRSParamsSetSolverMainPrecision(trnsolverDnIRSParams_t params,
                                                             trnsolverPrecType_t solver_main_precision);
trnsolverStatus_t trnsolverDnIRSParamsSetSolverLowestPrecision(trnsolverDnIRSParams_t params,
                                                               trnsolverPrecType_t solver_lowest_precision);
trnsolverStatus_t trnsolverDnIRSParamsSetSolverPrecisions(trnsolverDnIRSParams_t params,
                                                          trnsolverPrecType_t solver_main_precision,
                                                          trnsolverPrecType_t solver_lowest_precision);
trnsolverStatus_t trnsolverDnIRSParamsSetTol(trnsolverDnIRSParams_t params, double val);
trnsolverStatus_t trnsolverDnIRSParamsSetTolInner(trnsolverDnIRSParams_t params, double val);
trnsolverStatus_t trnsolverDnIRSParamsSetMaxIters(trnsolverDnIRSParams_t params, trnsolver_int_t maxiters);
trnsolverStatus_t trnsolverDnIRSParamsSetMaxItersInner(trnsolverDnIRSParams_t params, trnsolver_int_t maxiters_inner);
trnsolverStatus_t trnsolverDnIRSParamsGetMaxIters(trnsolverDnIRSParams_t params, trnsolver_int_t* maxiters);
trnsolverStatus_t trnsolverDnIRSParamsEnableFallback(trnsolverDnIRSParams_t params);
trnsolverStatus_t trnsolverDnIRSParamsDisableFallback(trnsolverDnIRSParams_t params);

/* Infos of one IRSXgesv call: Niters (outer + inner; < 0 as iter of the simple API), OuterNiters,
 * the MaxIters of that call, and with RequestResidual (before the call) the residual history: a
 * column-major (MaxIters + 1) x 2 matrix in the main precision, row k = (total iterations so far,
 * max over the right-hand sides of ||b - A x||_inf) after the k-th residual evaluation (row 0: the
 * LU solve's x0), rows beyond the last evaluation zero. GetResidualHistory without RequestResidual
 * -> INVALID_VALUE. NULL or destroyed infos -> IRS_INFOS_NOT_INITIALIZED. */
trnsolverStatus_t trnsolverDnIRSInfosCreate(trnsolverDnIRSInfos_t* infos_ptr);
trnsolverStatus_t trnsolverDnIRSInfosDestroy(trnsolverDnIRSInfos_t infos);
trnsolverStatus_t trnsolverDnIRSInfosGetNiters(trnsolverDnIRSInfos_t infos, trnsolver_int_t* niters);
trnsolverStatus_t trnsolverDnIRSInfosGetOuterNiters(trnsolverDnIRSInfos_t infos, trnsolver_int_t* outer_niters);
trnsolverStatus_t trnsolverDnIRSInfosRequestResidual(trnsolverDnIRSInfos_t infos);
trnsolverStatus_t trnsolverDnIRSInfosGetResidualHistory(trnsolverDnIRSInfos_t infos, void** residual_history);
trnsolverStatus_t trnsolverDnIRSInfosGetMaxIters(trnsolverDnIRSInfos_t infos, trnsolver_int_t* maxiters);

/* dA, dB, dX of the main precision (double for R_64F, float for R_32F, trnDoubleComplex for C_64F,
 * trnComplex for C_32F); lowest precision the main one (R_64F: Dgetrf; C_64F: Zgetrf; R_32F / C_32F:
 * the fp32 LU), or a lower one of the same domain: R_32F, R_16F, R_16BF, R_TF32 for a real main, C_32F,
 * C_16F, C_16BF, C_TF32 for a complex one (the LU's TensorE input format). Refinement NONE, CLASSICAL,
 * CLASSICAL_GMRES (GMRES-IR: inner GMRES to TolInner), GMRES (restarted GMRES preconditioned by the
 * LU, run to the outer tolerance), GMRES_NOPCOND; the GMRES solvers take nrhs = 1 and a real main
 * precision (else IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES). Statuses: IRS_PARAMS_NOT_INITIALIZED,
 * IRS_INFOS_NOT_INITIALIZED, IRS_PARAMS_INVALID_PREC, IRS_PARAMS_INVALID_REFINE (NOT_SET or a
 * PREC_* value), IRS_NOT_SUPPORTED (GMRES_GMRES), else INVALID_VALUE with the position (params 1,
 * infos 2, n 3, nrhs 4, dA 5, ldda 6, dB 7, lddb 8, dX 9, lddx 10, dWorkspace 11, lwork_bytes 12,
 * niters 13, d_info 14). Fallback disabled: niters < 0 leaves dA unchanged and dX the last iterate
 * (-max_iters) or unwritten (-2, -3). */
trnsolverStatus_t trnsolverDnIRSXgesv_bufferSize(trnsolverDnHandle_t handle, trnsolverDnIRSParams_t params,
                                                 trnsolver_int_t n, trnsolver_int_t nrhs, size_t* lwork_bytes);
trnsolverStatus_t trnsolverDnIRSXgesv(trnsolverDnHandle_t handle, trnsolverDnIRSParams_t gesv_irs_params,
                                      trnsolverDnIRSInfos_t gesv_irs_infos, trnsolver_int_t n, trnsolver_int_t nrhs,
                                      void* dA, trnsolver_int_t ldda, void* dB, trnsolver_int_t lddb, void* dX,
                                      trnsolver_int_t lddx, void* dWorkspace, size_t lwork_bytes,
                                      trnsolver_int_t* niters, trnsolver_int_t* d_info);

/* ---- 64-bit generic API ---------------------------------------------------------------------------- */
typedef enum trnsolverDnFunction_t {
  TRNSOLVERDN_GETRF = 0,
  TRNSOLVERDN_POTRF = 1,
  TRNSOLVERDN_SYEVBATCHED = 2
} trnsolverDnFunction_t;
typedef enum trnsolverAlgMode_t {
  TRNSOLVER_ALG_0 = 0, /* default algorithm */
  TRNSOLVER_ALG_1 = 1,
  TRNSOLVER_ALG_2 = 2
} trnsolverAlgMode_t;
struct trnsolverDnParams;
typedef struct trnsolverDnParams* trnsolverDnParams_t;

/* SetAdvOptions stores the algorithm (validated) and has no effect: one algorithm per routine. */
trnsolverStatus_t trnsolverDnCreateParams(trnsolverDnParams_t* params);
trnsolverStatus_t trnsolverDnDestroyParams(trnsolverDnParams_t params);
trnsolverStatus_t trnsolverDnSetAdvOptions(trnsolverDnParams_t params, trnsolverDnFunction_t function,
                                           trnsolverAlgMode_t algo);

/* dataTypeA = computeType = TRN_R_32F (Spotrf/Sgetrf kernels) or TRN_R_64F (Dpotrf/Dgetrf); any other
 * pairing -> NOT_SUPPORTED. Workspace: one element on the device (a non-zero size keeps the
 * allocate-then-call pattern), none on the host; info 0, -i (position not counting the handle) or
 * i > 0 as the 32-bit routines. ipiv: int64_t, 1-based, NULL = no pivoting (getrf). */
trnsolverStatus_t trnsolverDnXpotrf_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                               trnblasFillMode_t uplo, int64_t n, trnDataType_t dataTypeA,
                                               const void* A, int64_t lda, trnDataType_t computeType,
                                               size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXpotrf(trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnblasFillMode_t uplo,
                                    int64_t n, trnDataType_t dataTypeA, void* A, int64_t lda,
                                    trnDataType_t computeType, void* bufferOnDevice, size_t workspaceInBytesOnDevice,
                                    void* bufferOnHost, size_t workspaceInBytesOnHost, int* info);
trnsolverStatus_t trnsolverDnXpotrs(trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnblasFillMode_t uplo,
                                    int64_t n, int64_t nrhs, trnDataType_t dataTypeA, const void* A, int64_t lda,
                                    trnDataType_t dataTypeB, void* B, int64_t ldb, int* info);
trnsolverStatus_t trnsolverDnXgetrf_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params, int64_t m,
                                               int64_t n, trnDataType_t dataTypeA, const void* A, int64_t lda,
                                               trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                               size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXgetrf(trnsolverDnHandle_t handle, trnsolverDnParams_t params, int64_t m, int64_t n,
                                    trnDataType_t dataTypeA, void* A, int64_t lda, int64_t* ipiv,
                                    trnDataType_t computeType, void* bufferOnDevice, size_t workspaceInBytesOnDevice,
                                    void* bufferOnHost, size_t workspaceInBytesOnHost, int* info);
trnsolverStatus_t trnsolverDnXgetrs(trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnblasOperation_t trans,
                                    int64_t n, int64_t nrhs, trnDataType_t dataTypeA, const void* A, int64_t lda,
                                    const int64_t* ipiv, trnDataType_t dataTypeB, void* B, int64_t ldb, int* info);


/* ---- QR: geqrf, orgqr/ungqr, ormqr/unmqr, Xgeqrf ----------------------------------------------------
 * Blocked Householder QR with compact-WY block reflectors (docs/trnsolver.md "QR"): panels of 32
 * columns as recorded host steps, the block reflector products as trnblas GEMMs on TensorE (fp32 mode
 * for S/C, Ozaki fp64 for D/Z). LAPACK conventions: R on and above the diagonal of A, the Householder
 * vectors below it, H_i = I - tau_i v_i v_i^H, Q = H_1 ... H_k. The _bufferSize value (elements of the
 * routine's type; never less than 1) is what the routine requires: Lwork below it -> INVALID_VALUE,
 * *devInfo = -(position of Lwork). devInfo 0 on success, -i for the i-th argument (not counting the
 * handle). ormqr/unmqr: side TRNBLAS_SIDE_LEFT/RIGHT; trans N or T (real; C accepted as T), N or C
 * (complex). */
trnsolverStatus_t trnsolverDnSgeqrf_bufferSize(trnsolverDnHandle_t handle, int m, int n, float* A, int lda, int* lwork);
trnsolverStatus_t trnsolverDnSgeqrf(trnsolverDnHandle_t handle, int m, int n, float* A, int lda, float* TAU, float* Workspace,
                                      int Lwork, int* devInfo);
trnsolverStatus_t trnsolverDnDgeqrf_bufferSize(trnsolverDnHandle_t handle, int m, int n, double* A, int lda, int* lwork);
trnsolverStatus_t trnsolverDnDgeqrf(trnsolverDnHandle_t handle, int m, int n, double* A, int lda, double* TAU, double* Workspace,
                                      int Lwork, int* devInfo);
trnsolverStatus_t trnsolverDnCgeqrf_bufferSize(trnsolverDnHandle_t handle, int m, int n, trnComplex* A, int lda, int* lwork);
trnsolverStatus_t trnsolverDnCgeqrf(trnsolverDnHandle_t handle, int m, int n, trnComplex* A, int lda, trnComplex* TAU, trnComplex* Workspace,
                                      int Lwork, int* devInfo);
trnsolverStatus_t trnsolverDnZgeqrf_bufferSize(trnsolverDnHandle_t handle, int m, int n, trnDoubleComplex* A, int lda, int* lwork);
trnsolverStatus_t trnsolverDnZgeqrf(trnsolverDnHandle_t handle, int m, int n, trnDoubleComplex* A, int lda, trnDoubleComplex* TAU, trnDoubleComplex* Workspace,
                                      int Lwork, int* devInfo);
trnsolverStatus_t trnsolverDnSorgqr_bufferSize(trnsolverDnHandle_t handle, int m, int n, int k, const float* A, int lda,
                                                const float* tau, int* lwork);
trnsolverStatus_t trnsolverDnSorgqr(trnsolverDnHandle_t handle, int m, int n, int k, float* A, int lda, const float* tau,
                                      float* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnDorgqr_bufferSize(trnsolverDnHandle_t handle, int m, int n, int k, const double* A, int lda,
                                                const double* tau, int* lwork);
trnsolverStatus_t trnsolverDnDorgqr(trnsolverDnHandle_t handle, int m, int n, int k, double* A, int lda, const double* tau,
                                      double* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnCungqr_bufferSize(trnsolverDnHandle_t handle, int m, int n, int k, const trnComplex* A, int lda,
                                                const trnComplex* tau, int* lwork);
trnsolverStatus_t trnsolverDnCungqr(trnsolverDnHandle_t handle, int m, int n, int k, trnComplex* A, int lda, const trnComplex* tau,
                                      trnComplex* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnZungqr_bufferSize(trnsolverDnHandle_t handle, int m, int n, int k, const trnDoubleComplex* A, int lda,
                                                const trnDoubleComplex* tau, int* lwork);
trnsolverStatus_t trnsolverDnZungqr(trnsolverDnHandle_t handle, int m, int n, int k, trnDoubleComplex* A, int lda, const trnDoubleComplex* tau,
                                      trnDoubleComplex* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnSormqr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasOperation_t trans,
                                                int m, int n, int k, const float* A, int lda, const float* tau,
                                                const float* C, int ldc, int* lwork);
trnsolverStatus_t trnsolverDnSormqr(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasOperation_t trans, int m,
                                      int n, int k, const float* A, int lda, const float* tau, float* C, int ldc,
                                      float* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnDormqr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasOperation_t trans,
                                                int m, int n, int k, const double* A, int lda, const double* tau,
                                                const double* C, int ldc, int* lwork);
trnsolverStatus_t trnsolverDnDormqr(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasOperation_t trans, int m,
                                      int n, int k, const double* A, int lda, const double* tau, double* C, int ldc,
                                      double* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnCunmqr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasOperation_t trans,
                                                int m, int n, int k, const trnComplex* A, int lda, const trnComplex* tau,
                                                const trnComplex* C, int ldc, int* lwork);
trnsolverStatus_t trnsolverDnCunmqr(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasOperation_t trans, int m,
                                      int n, int k, const trnComplex* A, int lda, const trnComplex* tau, trnComplex* C, int ldc,
                                      trnComplex* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnZunmqr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasOperation_t trans,
                                                int m, int n, int k, const trnDoubleComplex* A, int lda, const trnDoubleComplex* tau,
                                                const trnDoubleComplex* C, int ldc, int* lwork);
trnsolverStatus_t trnsolverDnZunmqr(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasOperation_t trans, int m,
                                      int n, int k, const trnDoubleComplex* A, int lda, const trnDoubleComplex* tau, trnDoubleComplex* C, int ldc,
                                      trnDoubleComplex* work, int lwork, int* devInfo);

/* trnsci extension (cuSOLVER has no block-size option: cusolverDnSetAdvOptions selects algorithms
 * only): the panel width nb of every QR routine of this handle (geqrf, orgqr/ungqr, ormqr/unmqr,
 * Xgeqrf and their _bufferSize, so set it before querying the workspace). nb = 0 (the default): the
 * plan's rule (S 8, C 4, D/Z 128, or TRNSOLVER_QR_NB when set); 1 .. 128: this width, ahead of the
 * environment variable. Other values: INVALID_VALUE (parameter 1), the setting unchanged. Results
 * depend on nb (the blocking changes the rounding), as in LAPACK. docs/trnsolver.md "QR". */
trnsolverStatus_t trnsolverDnSetQrBlockSize(trnsolverDnHandle_t handle, int nb);
trnsolverStatus_t trnsolverDnGetQrBlockSize(trnsolverDnHandle_t handle, int* nb);

/* dataTypeA = dataTypeTau = computeType: TRN_R_32F, TRN_R_64F, TRN_C_32F or TRN_C_64F (the S, D, C, Z
 * routine); any other combination -> NOT_SUPPORTED. Device workspace: the _bufferSize bytes (less ->
 * INVALID_VALUE, *info = -11); none on the host. params: from trnsolverDnCreateParams. */
trnsolverStatus_t trnsolverDnXgeqrf_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params, int64_t m,
                                               int64_t n, trnDataType_t dataTypeA, const void* A, int64_t lda,
                                               trnDataType_t dataTypeTau, const void* tau, trnDataType_t computeType,
                                               size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXgeqrf(trnsolverDnHandle_t handle, trnsolverDnParams_t params, int64_t m, int64_t n,
                                    trnDataType_t dataTypeA, void* A, int64_t lda, trnDataType_t dataTypeTau,
                                    void* tau, trnDataType_t computeType, void* bufferOnDevice,
                                    size_t workspaceInBytesOnDevice, void* bufferOnHost,
                                    size_t workspaceInBytesOnHost, int* info);

/* ---- Symmetric eigensolver by tridiagonalization: syevd, sytrd, orgtr, ormtr (S, D) -----------------
 * docs/trnsolver.md "syevd": blocked Householder tridiagonalization (symv and syr2k on TensorE, the
 * panels' corrections as host steps), divide and conquer on the tridiagonal (secular equations on the
 * host in fp64, the eigenvector merges as TensorE GEMMs), back-transformation by compact-WY GEMMs.
 * fp32 mode for S, Ozaki fp64 for D. syevd: W ascending; with VECTOR A holds the eigenvectors, with
 * NOVECTOR A's contents are destroyed; devInfo 0, -i (i-th argument, not counting the handle), i > 0
 * when i off-diagonal elements of a tridiagonal subproblem did not converge, n when A holds Inf/NaN.
 * The _bufferSize value (elements, >= 1) is what the routine requires: lwork below it -> INVALID_VALUE.
 * syevdx: range ALL, V (eigenvalues in (vl, vu], vl < vu) or I (the il-th to iu-th, 1 <= il <= iu <= n);
 * *meig of them in W[0, meig) and, with VECTOR, their eigenvectors in A's first meig columns. */
typedef enum trnsolverEigRange_t {
  TRNSOLVER_EIG_RANGE_ALL = 1001,
  TRNSOLVER_EIG_RANGE_I = 1002,
  TRNSOLVER_EIG_RANGE_V = 1003
} trnsolverEigRange_t;
trnsolverStatus_t trnsolverDnSsyevd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                               int n, const float* A, int lda, const float* W, int* lwork);
trnsolverStatus_t trnsolverDnSsyevd(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    float* A, int lda, float* W, float* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnSsyevdx_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                trnsolverEigRange_t range, trnblasFillMode_t uplo, int n, const float* A,
                                                int lda, float vl, float vu, int il, int iu, int* meig, const float* W,
                                                int* lwork);
trnsolverStatus_t trnsolverDnSsyevdx(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                     trnblasFillMode_t uplo, int n, float* A, int lda, float vl, float vu, int il, int iu,
                                     int* meig, float* W, float* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnSsytrd_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, const float* A,
                                               int lda, const float* d, const float* e, const float* tau, int* lwork);
trnsolverStatus_t trnsolverDnSsytrd(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, float* A, int lda, float* d,
                                    float* e, float* tau, float* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnSorgtr_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, const float* A,
                                               int lda, const float* tau, int* lwork);
trnsolverStatus_t trnsolverDnSorgtr(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, float* A, int lda,
                                    const float* tau, float* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnSormtr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                               trnblasOperation_t trans, int m, int n, const float* A, int lda,
                                               const float* tau, const float* C, int ldc, int* lwork);
trnsolverStatus_t trnsolverDnSormtr(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                    trnblasOperation_t trans, int m, int n, float* A, int lda, float* tau, float* C, int ldc,
                                    float* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnDsyevd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                               int n, const double* A, int lda, const double* W, int* lwork);
trnsolverStatus_t trnsolverDnDsyevd(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    double* A, int lda, double* W, double* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnDsyevdx_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                trnsolverEigRange_t range, trnblasFillMode_t uplo, int n, const double* A,
                                                int lda, double vl, double vu, int il, int iu, int* meig, const double* W,
                                                int* lwork);
trnsolverStatus_t trnsolverDnDsyevdx(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                     trnblasFillMode_t uplo, int n, double* A, int lda, double vl, double vu, int il, int iu,
                                     int* meig, double* W, double* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnDsytrd_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, const double* A,
                                               int lda, const double* d, const double* e, const double* tau, int* lwork);
trnsolverStatus_t trnsolverDnDsytrd(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, double* A, int lda, double* d,
                                    double* e, double* tau, double* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnDorgtr_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, const double* A,
                                               int lda, const double* tau, int* lwork);
trnsolverStatus_t trnsolverDnDorgtr(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, double* A, int lda,
                                    const double* tau, double* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnDormtr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                               trnblasOperation_t trans, int m, int n, const double* A, int lda,
                                               const double* tau, const double* C, int ldc, int* lwork);
trnsolverStatus_t trnsolverDnDormtr(trnsolverDnHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                                    trnblasOperation_t trans, int m, int n, double* A, int lda, double* tau, double* C, int ldc,
                                    double* work, int lwork, int* devInfo);

/* ---- sygvd / sygvdx: generalized symmetric-definite eigenproblem by divide and conquer (S, D) --------
 * docs/trnsolver.md "sygvd": the reduction of sygvj (B = L L^T, C = L^-1 A L^-T or L^T A L) around
 * syevd / syevdx. itype 1/2/3 as sygvj; range, vl, vu, il, iu as syevdx. With VECTOR A's first n
 * (sygvd) or *meig (sygvdx) columns hold X (X^T B X = I for itype 1, 2; X^T B^-1 X = I for 3); B's
 * uplo triangle holds the Cholesky factor. info: 0, -i, syevd's i > 0, n + i when the leading minor
 * of order i of B is not positive definite (nothing written). lwork: the _bufferSize value (as syevd). */
trnsolverStatus_t trnsolverDnSsygvd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n, const float* A,
                                               int lda, const float* B, int ldb, const float* W, int* lwork);
trnsolverStatus_t trnsolverDnSsygvd(trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, float* A, int lda, float* B, int ldb, float* W,
                                    float* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnSsygvdx_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                                trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                                trnblasFillMode_t uplo, int n, const float* A, int lda, const float* B,
                                                int ldb, float vl, float vu, int il, int iu, int* meig, const float* W,
                                                int* lwork);
trnsolverStatus_t trnsolverDnSsygvdx(trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                     trnsolverEigRange_t range, trnblasFillMode_t uplo, int n, float* A, int lda,
                                     float* B, int ldb, float vl, float vu, int il, int iu, int* meig, float* W, float* work,
                                     int lwork, int* info);
trnsolverStatus_t trnsolverDnDsygvd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n, const double* A,
                                               int lda, const double* B, int ldb, const double* W, int* lwork);
trnsolverStatus_t trnsolverDnDsygvd(trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, double* A, int lda, double* B, int ldb, double* W,
                                    double* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnDsygvdx_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                                trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                                trnblasFillMode_t uplo, int n, const double* A, int lda, const double* B,
                                                int ldb, double vl, double vu, int il, int iu, int* meig, const double* W,
                                                int* lwork);
trnsolverStatus_t trnsolverDnDsygvdx(trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                     trnsolverEigRange_t range, trnblasFillMode_t uplo, int n, double* A, int lda,
                                     double* B, int ldb, double vl, double vu, int il, int iu, int* meig, double* W, double* work,
                                     int lwork, int* info);

/* ---- 64-bit generic API of the symmetric eigensolver: Xsyevd, Xsyevdx, XsyevBatched ------------------
 * docs/trnsolver.md "X API eigensolvers": dataTypeA = dataTypeW = computeType = TRN_R_32F (Ssyevd) or
 * TRN_R_64F (Dsyevd); the complex types (heevd) answer NOT_SUPPORTED in this version. Device workspace:
 * syevd's lwork elements of dataTypeA (below it -> INVALID_VALUE), none on the host. vl / vu: host
 * pointers to a value of dataTypeW, read for range V only. XsyevBatched: batchSize matrices at A + k lda n,
 * eigenvalues at W + k n, info[k] each (tridiagonalization + divide and conquer per matrix). Positions
 * counted without the handle (params 1). */
trnsolverStatus_t trnsolverDnXsyevd_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int64_t n,
                                               trnDataType_t dataTypeA, const void* A, int64_t lda,
                                               trnDataType_t dataTypeW, const void* W, trnDataType_t computeType,
                                               size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXsyevd(trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int64_t n, trnDataType_t dataTypeA, void* A, int64_t lda,
                                    trnDataType_t dataTypeW, void* W, trnDataType_t computeType, void* bufferOnDevice,
                                    size_t workspaceInBytesOnDevice, void* bufferOnHost, size_t workspaceInBytesOnHost,
                                    int* info);
trnsolverStatus_t trnsolverDnXsyevBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                                     trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int64_t n,
                                                     trnDataType_t dataTypeA, const void* A, int64_t lda,
                                                     trnDataType_t dataTypeW, const void* W,
                                                     trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                                     size_t* workspaceInBytesOnHost, int64_t batchSize);
trnsolverStatus_t trnsolverDnXsyevBatched(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                          trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int64_t n,
                                          trnDataType_t dataTypeA, void* A, int64_t lda, trnDataType_t dataTypeW,
                                          void* W, trnDataType_t computeType, void* bufferOnDevice,
                                          size_t workspaceInBytesOnDevice, void* bufferOnHost,
                                          size_t workspaceInBytesOnHost, int* info, int64_t batchSize);
trnsolverStatus_t trnsolverDnXsyevdx_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                                trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                                trnblasFillMode_t uplo, int64_t n, trnDataType_t dataTypeA,
                                                const void* A, int64_t lda, void* vl, void* vu, int64_t il, int64_t iu,
                                                int64_t* h_meig, trnDataType_t dataTypeW, const void* W,
                                                trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                                size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXsyevdx(trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
                                     trnsolverEigRange_t range, trnblasFillMode_t uplo, int64_t n,
                                     trnDataType_t dataTypeA, void* A, int64_t lda, void* vl, void* vu, int64_t il,
                                     int64_t iu, int64_t* meig64, trnDataType_t dataTypeW, void* W,
                                     trnDataType_t computeType, void* bufferOnDevice, size_t workspaceInBytesOnDevice,
                                     void* bufferOnHost, size_t workspaceInBytesOnHost, int* info);

/* ---- potrfBatched / potrsBatched: cuSOLVER's pointer-array batched Cholesky (S, D) ----------------------
 * Matrix k: Aarray[k] (n x n, lda), infoArray[k] as potrf's devInfo; each runs the single-matrix potrf /
 * potrs, bit for bit that call's result whatever the batch. potrsBatched: nrhs must be 1 (as cuSOLVER;
 * else INVALID_VALUE, position 3), d_info one int (0, or -position). NULL pointers in the arrays are
 * rejected at the array's position (for n > 0). */
trnsolverStatus_t trnsolverDnSpotrfBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, float* Aarray[],
                                           int lda, int* infoArray, int batchSize);
trnsolverStatus_t trnsolverDnDpotrfBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, double* Aarray[],
                                           int lda, int* infoArray, int batchSize);
trnsolverStatus_t trnsolverDnSpotrsBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, int nrhs,
                                           float* A[], int lda, float* B[], int ldb, int* d_info, int batchSize);
trnsolverStatus_t trnsolverDnDpotrsBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, int nrhs,
                                           double* A[], int lda, double* B[], int ldb, int* d_info, int batchSize);

/* ---- gesvd (S, D) and Xgesvd: LAPACK-style SVD by one-sided Jacobi --------------------------------------
 * docs/trnsolver.md "gesvd": gesvdj's Jacobi SVD behind xGESVD's interface. m >= n (as cuSOLVER; n > m
 * -> INVALID_VALUE at n). jobu / jobvt: 'A' all, 'S' the first n, 'O' over A, 'N' none (not both 'O').
 * S descending. devInfo: 0, -i, or n - 1 (at least 1) when the sweeps did not converge (Inf/NaN input).
 * _bufferSize: 1 element (no workspace needed); rwork is not used (may be NULL). Xgesvd: dataTypeA =
 * dataTypeS = dataTypeU = dataTypeVT = computeType = TRN_R_32F or TRN_R_64F (complex: NOT_SUPPORTED
 * in this version); one element of device workspace, none on the host. fp32: m <= 1024. */
trnsolverStatus_t trnsolverDnSgesvd_bufferSize(trnsolverDnHandle_t handle, int m, int n, int* lwork);
trnsolverStatus_t trnsolverDnDgesvd_bufferSize(trnsolverDnHandle_t handle, int m, int n, int* lwork);
trnsolverStatus_t trnsolverDnSgesvd(trnsolverDnHandle_t handle, signed char jobu, signed char jobvt, int m, int n,
                                    float* A, int lda, float* S, float* U, int ldu, float* VT, int ldvt, float* work,
                                    int lwork, float* rwork, int* info);
trnsolverStatus_t trnsolverDnDgesvd(trnsolverDnHandle_t handle, signed char jobu, signed char jobvt, int m, int n,
                                    double* A, int lda, double* S, double* U, int ldu, double* VT, int ldvt,
                                    double* work, int lwork, double* rwork, int* info);
trnsolverStatus_t trnsolverDnXgesvd_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params, signed char jobu,
                                               signed char jobvt, int64_t m, int64_t n, trnDataType_t dataTypeA,
                                               const void* A, int64_t lda, trnDataType_t dataTypeS, const void* S,
                                               trnDataType_t dataTypeU, const void* U, int64_t ldu,
                                               trnDataType_t dataTypeVT, const void* VT, int64_t ldvt,
                                               trnDataType_t computeType, size_t* workspaceInBytesOnDevice,
                                               size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXgesvd(trnsolverDnHandle_t handle, trnsolverDnParams_t params, signed char jobu,
                                    signed char jobvt, int64_t m, int64_t n, trnDataType_t dataTypeA, void* A,
                                    int64_t lda, trnDataType_t dataTypeS, void* S, trnDataType_t dataTypeU, void* U,
                                    int64_t ldu, trnDataType_t dataTypeVT, void* VT, int64_t ldvt,
                                    trnDataType_t computeType, void* bufferOnDevice, size_t workspaceInBytesOnDevice,
                                    void* bufferOnHost, size_t workspaceInBytesOnHost, int* info);

/* ---- Xtrtri: inverse of a triangular matrix (64-bit API, no params argument as cuSOLVER) ------------
 * docs/trnsolver.md "Xtrtri": T X = I by the triangular-solve tile kernel (TRN_R_32F), fp64 host
 * substitution (TRN_R_64F) or trnblas ctrsm / ztrsm on TensorE (TRN_C_32F 4M fp32, TRN_C_64F Ozaki).
 * info: 0, -i, or i when A(i, i) is exactly zero (nothing written). One element of device workspace,
 * none on the host. */
trnsolverStatus_t trnsolverDnXtrtri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, trnblasDiagType_t diag,
                                               int64_t n, trnDataType_t dataTypeA, void* A, int64_t lda,
                                               size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXtrtri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, trnblasDiagType_t diag,
                                    int64_t n, trnDataType_t dataTypeA, void* A, int64_t lda, void* bufferOnDevice,
                                    size_t workspaceInBytesOnDevice, void* bufferOnHost, size_t workspaceInBytesOnHost,
                                    int* info);

/* ---- complex Hermitian eigen and complex Jacobi (C, Z): heevdx, hegvd, hegvdx, heevj, hegvj,
 * heevjBatched, gesvdj, gesvdjBatched with their _bufferSize twins (cuSOLVER's signatures) --------------
 * docs/trnsolver.md "Complex Hermitian eigen and complex Jacobi". heevdx / hegvd / hegvdx: heevd's
 * tridiagonalization + divide and conquer with syevdx's selection and sygvd's reduction (info: as
 * syevdx / sygvd; n + i when B's leading minor of order i is not positive definite). heevj / hegvj /
 * heevjBatched / gesvdj / gesvdjBatched: block Jacobi with the rotations applied as complex GEMMs on
 * TensorE (info n + 1 / min(m, n) + 1 when not converged or the input holds Inf/NaN); syevjInfo_t /
 * gesvdjInfo_t as for the real routines. Workspace: 1 element (Jacobi) or syevd's. */
trnsolverStatus_t trnsolverDnCheevdx_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                trnsolverEigRange_t range, trnblasFillMode_t uplo, int n,
                                                const trnComplex* A, int lda, float vl, float vu, int il, int iu,
                                                int* meig, const float* W, int* lwork);
trnsolverStatus_t trnsolverDnCheevdx(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                     trnblasFillMode_t uplo, int n, trnComplex* A, int lda, float vl, float vu,
                                     int il, int iu, int* meig, float* W, trnComplex* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnChegvd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                               const trnComplex* A, int lda, const trnComplex* B, int ldb,
                                               const float* W, int* lwork);
trnsolverStatus_t trnsolverDnChegvd(trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, trnComplex* A, int lda, trnComplex* B, int ldb,
                                    float* W, trnComplex* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnChegvdx_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                                trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                                trnblasFillMode_t uplo, int n, const trnComplex* A, int lda,
                                                const trnComplex* B, int ldb, float vl, float vu, int il, int iu,
                                                int* meig, const float* W, int* lwork);
trnsolverStatus_t trnsolverDnChegvdx(trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                     trnsolverEigRange_t range, trnblasFillMode_t uplo, int n, trnComplex* A, int lda,
                                     trnComplex* B, int ldb, float vl, float vu, int il, int iu, int* meig, float* W,
                                     trnComplex* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnCheevj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n, const trnComplex* A, int lda,
                                               const float* W, int* lwork, syevjInfo_t params);
trnsolverStatus_t trnsolverDnCheevj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                    int n, trnComplex* A, int lda, float* W, trnComplex* work, int lwork, int* info,
                                    syevjInfo_t params);
trnsolverStatus_t trnsolverDnChegvj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                               const trnComplex* A, int lda, const trnComplex* B, int ldb,
                                               const float* W, int* lwork, syevjInfo_t params);
trnsolverStatus_t trnsolverDnChegvj(trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, trnComplex* A, int lda, trnComplex* B, int ldb,
                                    float* W, trnComplex* work, int lwork, int* info, syevjInfo_t params);
trnsolverStatus_t trnsolverDnCheevjBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                      trnblasFillMode_t uplo, int n, const trnComplex* A, int lda,
                                                      const float* W, int* lwork, syevjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnCheevjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                           trnblasFillMode_t uplo, int n, trnComplex* A, int lda, float* W,
                                           trnComplex* work, int lwork, int* info, syevjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnCgesvdj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int econ, int m,
                                                int n, const trnComplex* A, int lda, const float* S,
                                                const trnComplex* U, int ldu, const trnComplex* V, int ldv,
                                                int* lwork, gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnCgesvdj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int econ, int m, int n,
                                     trnComplex* A, int lda, float* S, trnComplex* U, int ldu, trnComplex* V, int ldv,
                                     trnComplex* work, int lwork, int* info, gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnCgesvdjBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int m,
                                                       int n, const trnComplex* A, int lda, const float* S,
                                                       const trnComplex* U, int ldu, const trnComplex* V, int ldv,
                                                       int* lwork, gesvdjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnCgesvdjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int m, int n,
                                            trnComplex* A, int lda, float* S, trnComplex* U, int ldu, trnComplex* V,
                                            int ldv, trnComplex* work, int lwork, int* info, gesvdjInfo_t params,
                                            int batchSize);
trnsolverStatus_t trnsolverDnZheevdx_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                trnsolverEigRange_t range, trnblasFillMode_t uplo, int n,
                                                const trnDoubleComplex* A, int lda, double vl, double vu, int il,
                                                int iu, int* meig, const double* W, int* lwork);
trnsolverStatus_t trnsolverDnZheevdx(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                     trnblasFillMode_t uplo, int n, trnDoubleComplex* A, int lda, double vl,
                                     double vu, int il, int iu, int* meig, double* W, trnDoubleComplex* work,
                                     int lwork, int* info);
trnsolverStatus_t trnsolverDnZhegvd_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                               const trnDoubleComplex* A, int lda, const trnDoubleComplex* B, int ldb,
                                               const double* W, int* lwork);
trnsolverStatus_t trnsolverDnZhegvd(trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, trnDoubleComplex* A, int lda, trnDoubleComplex* B,
                                    int ldb, double* W, trnDoubleComplex* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnZhegvdx_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                                trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                                trnblasFillMode_t uplo, int n, const trnDoubleComplex* A, int lda,
                                                const trnDoubleComplex* B, int ldb, double vl, double vu, int il,
                                                int iu, int* meig, const double* W, int* lwork);
trnsolverStatus_t trnsolverDnZhegvdx(trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                     trnsolverEigRange_t range, trnblasFillMode_t uplo, int n, trnDoubleComplex* A,
                                     int lda, trnDoubleComplex* B, int ldb, double vl, double vu, int il, int iu,
                                     int* meig, double* W, trnDoubleComplex* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnZheevj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n, const trnDoubleComplex* A, int lda,
                                               const double* W, int* lwork, syevjInfo_t params);
trnsolverStatus_t trnsolverDnZheevj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                    int n, trnDoubleComplex* A, int lda, double* W, trnDoubleComplex* work, int lwork,
                                    int* info, syevjInfo_t params);
trnsolverStatus_t trnsolverDnZhegvj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigType_t itype,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                               const trnDoubleComplex* A, int lda, const trnDoubleComplex* B, int ldb,
                                               const double* W, int* lwork, syevjInfo_t params);
trnsolverStatus_t trnsolverDnZhegvj(trnsolverDnHandle_t handle, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, trnDoubleComplex* A, int lda, trnDoubleComplex* B,
                                    int ldb, double* W, trnDoubleComplex* work, int lwork, int* info,
                                    syevjInfo_t params);
trnsolverStatus_t trnsolverDnZheevjBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                                      trnblasFillMode_t uplo, int n, const trnDoubleComplex* A,
                                                      int lda, const double* W, int* lwork, syevjInfo_t params,
                                                      int batchSize);
trnsolverStatus_t trnsolverDnZheevjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz,
                                           trnblasFillMode_t uplo, int n, trnDoubleComplex* A, int lda, double* W,
                                           trnDoubleComplex* work, int lwork, int* info, syevjInfo_t params,
                                           int batchSize);
trnsolverStatus_t trnsolverDnZgesvdj_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int econ, int m,
                                                int n, const trnDoubleComplex* A, int lda, const double* S,
                                                const trnDoubleComplex* U, int ldu, const trnDoubleComplex* V,
                                                int ldv, int* lwork, gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnZgesvdj(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int econ, int m, int n,
                                     trnDoubleComplex* A, int lda, double* S, trnDoubleComplex* U, int ldu,
                                     trnDoubleComplex* V, int ldv, trnDoubleComplex* work, int lwork, int* info,
                                     gesvdjInfo_t params);
trnsolverStatus_t trnsolverDnZgesvdjBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int m,
                                                       int n, const trnDoubleComplex* A, int lda, const double* S,
                                                       const trnDoubleComplex* U, int ldu, const trnDoubleComplex* V,
                                                       int ldv, int* lwork, gesvdjInfo_t params, int batchSize);
trnsolverStatus_t trnsolverDnZgesvdjBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int m, int n,
                                            trnDoubleComplex* A, int lda, double* S, trnDoubleComplex* U, int ldu,
                                            trnDoubleComplex* V, int ldv, trnDoubleComplex* work, int lwork,
                                            int* info, gesvdjInfo_t params, int batchSize);
/* ---- IRS family: <t1><t2>gesv for every pair, <t1><t2>gels, IRSXgels (issue #27) ---------------- */
/* <t1><t2>gesv for the pairs above and DD, SS, ZZ, ZC, ZK, ZE, ZY, CC, CK, CE, CY (Z/C: complex
 * I/O; second letter the factorisation's precision: C fp32, K fp16, E bf16, Y tf32 inputs of the
 * complex LU's 4M trailing updates on TensorE; DD, SS, ZZ, CC: one LU and solve in the I/O precision,
 * no refinement, iter 0). <t1><t2>gels: least squares min ||B - A X||_2, A m x n with m >= n
 * (INVALID_VALUE at position 2 otherwise) and full rank: Householder QR in the lower precision
 * (block reflectors on TensorE in the pair's mode), x0 = R^-1 Q^H b, classical refinement by the
 * corrected semi-normal equations with r = b - A x and A^H r in the I/O precision; stops on the
 * residual test of gesv or when a step is small (||d||_inf <= sqrt(n) eps ||x||_inf). iter: as gesv
 * (-3: a zero R(i, i) in the low-precision QR); the fallback is QR in the I/O precision (dA then
 * holds its factors; d_info = i > 0 when R(i, i) = 0, dX untouched). Argument positions: m 1, n 2,
 * nrhs 3, dA 4, ldda 5 (>= max(1, m)), dB 6, lddb 7 (>= max(1, m)), dX 8, lddx 9 (>= max(1, n)),
 * dWorkspace 10, lwork_bytes 11 (from _bufferSize; smaller -> INVALID_VALUE), iter 12, d_info 13. */
#define TRNSOLVER_DECLARE_IRS_GELS(NAME, T)                                                                       \
  trnsolverStatus_t NAME##_bufferSize(trnsolverDnHandle_t handle, trnsolver_int_t m, trnsolver_int_t n,             \
                                      trnsolver_int_t nrhs, T* dA, trnsolver_int_t ldda, T* dB, trnsolver_int_t lddb, \
                                      T* dX, trnsolver_int_t lddx, void* dWorkspace, size_t* lwork_bytes);          \
  trnsolverStatus_t NAME(trnsolverDnHandle_t handle, trnsolver_int_t m, trnsolver_int_t n, trnsolver_int_t nrhs,    \
                         T* dA, trnsolver_int_t ldda, T* dB, trnsolver_int_t lddb, T* dX, trnsolver_int_t lddx,     \
                         void* dWorkspace, size_t lwork_bytes, trnsolver_int_t* iter, trnsolver_int_t* d_info);
TRNSOLVER_DECLARE_GESV(trnsolverDnDDgesv, double)
TRNSOLVER_DECLARE_GESV(trnsolverDnSSgesv, float)
TRNSOLVER_DECLARE_GESV(trnsolverDnZZgesv, trnDoubleComplex)
TRNSOLVER_DECLARE_GESV(trnsolverDnZCgesv, trnDoubleComplex)
TRNSOLVER_DECLARE_GESV(trnsolverDnZKgesv, trnDoubleComplex)
TRNSOLVER_DECLARE_GESV(trnsolverDnZEgesv, trnDoubleComplex)
TRNSOLVER_DECLARE_GESV(trnsolverDnZYgesv, trnDoubleComplex)
TRNSOLVER_DECLARE_GESV(trnsolverDnCCgesv, trnComplex)
TRNSOLVER_DECLARE_GESV(trnsolverDnCKgesv, trnComplex)
TRNSOLVER_DECLARE_GESV(trnsolverDnCEgesv, trnComplex)
TRNSOLVER_DECLARE_GESV(trnsolverDnCYgesv, trnComplex)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnDDgels, double)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnDSgels, double)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnDHgels, double)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnDBgels, double)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnDXgels, double)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnSSgels, float)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnSHgels, float)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnSBgels, float)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnSXgels, float)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnZZgels, trnDoubleComplex)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnZCgels, trnDoubleComplex)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnZKgels, trnDoubleComplex)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnZEgels, trnDoubleComplex)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnZYgels, trnDoubleComplex)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnCCgels, trnComplex)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnCKgels, trnComplex)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnCEgels, trnComplex)
TRNSOLVER_DECLARE_IRS_GELS(trnsolverDnCYgels, trnComplex)
#undef TRNSOLVER_DECLARE_IRS_GELS
#undef TRNSOLVER_DECLARE_GESV

/* IRSXgels: IRSXgesv's least-squares form (semantics as <t1><t2>gels; params and infos as IRSXgesv).
 * Main precision R_64F, R_32F, C_64F or C_32F (IRSXgesv now takes C_64F/C_32F too: complex LU,
 * classical refinement); lowest the main one or a lower one of the same domain; refinement CLASSICAL
 * or NONE (the GMRES solvers: IRS_NOT_SUPPORTED). Positions: params 1, infos 2, m 3, n 4 (<= m),
 * nrhs 5, dA 6, ldda 7, dB 8, lddb 9, dX 10, lddx 11, dWorkspace 12, lwork_bytes 13, niters 14,
 * d_info 15; _bufferSize: params 1, m 2, n 3, nrhs 4, lwork_bytes 5. */
trnsolverStatus_t trnsolverDnIRSXgels_bufferSize(trnsolverDnHandle_t handle, trnsolverDnIRSParams_t params,
                                                 trnsolver_int_t m, trnsolver_int_t n, trnsolver_int_t nrhs,
                                                 size_t* lwork_bytes);
trnsolverStatus_t trnsolverDnIRSXgels(trnsolverDnHandle_t handle, trnsolverDnIRSParams_t gels_irs_params,
                                      trnsolverDnIRSInfos_t gels_irs_infos, trnsolver_int_t m, trnsolver_int_t n,
                                      trnsolver_int_t nrhs, void* dA, trnsolver_int_t ldda, void* dB,
                                      trnsolver_int_t lddb, void* dX, trnsolver_int_t lddx, void* dWorkspace,
                                      size_t lwork_bytes, trnsolver_int_t* niters, trnsolver_int_t* d_info);
/* ---- SVD family: gebrd, orgbr/ungbr, C/Z gesvd, gesvdaStridedBatched, Xgesvdp, Xgesvdr -----------------
 * docs/trnsolver.md "SVD family". gebrd: m >= n (cuSOLVER's restriction), LAPACK xGEBRD's storage; orgbr /
 * ungbr: side TRNBLAS_SIDE_LEFT generates Q, TRNBLAS_SIDE_RIGHT P^H (LAPACK xORGBR's 'Q' / 'P'). C/Z gesvd:
 * as S/D gesvd (m >= n), gebrd + the real bidiagonal's Jacobi SVD. gesvdaStridedBatched: 1 <= rank <= n <= m,
 * d_info one per matrix, h_R_nrmF[i] = ||A_i - U_i S_i V_i^H||_F. Xgesvdp: QDWH polar decomposition +
 * Hermitian eigensolver, any m, n, h_err_sigma as cuSOLVER; Xgesvdr: randomized SVD, jobu / jobv 'S' or
 * 'N', 1 <= k, k + p <= min(m, n), Urand m x k, Vrand n x k. X types: R_32F, R_64F, C_32F, C_64F (S the
 * real type). */
trnsolverStatus_t trnsolverDnSgebrd_bufferSize(trnsolverDnHandle_t handle, int m, int n, int* Lwork);
trnsolverStatus_t trnsolverDnSgebrd(trnsolverDnHandle_t handle, int m, int n, float* A, int lda, float* D, float* E,
                                    float* TAUQ, float* TAUP, float* Work, int Lwork, int* devInfo);
trnsolverStatus_t trnsolverDnDgebrd_bufferSize(trnsolverDnHandle_t handle, int m, int n, int* Lwork);
trnsolverStatus_t trnsolverDnDgebrd(trnsolverDnHandle_t handle, int m, int n, double* A, int lda, double* D, double* E,
                                    double* TAUQ, double* TAUP, double* Work, int Lwork, int* devInfo);
trnsolverStatus_t trnsolverDnCgebrd_bufferSize(trnsolverDnHandle_t handle, int m, int n, int* Lwork);
trnsolverStatus_t trnsolverDnCgebrd(trnsolverDnHandle_t handle, int m, int n, trnComplex* A, int lda, float* D, float*
                                    E, trnComplex* TAUQ, trnComplex* TAUP, trnComplex* Work, int Lwork, int* devInfo);
trnsolverStatus_t trnsolverDnZgebrd_bufferSize(trnsolverDnHandle_t handle, int m, int n, int* Lwork);
trnsolverStatus_t trnsolverDnZgebrd(trnsolverDnHandle_t handle, int m, int n, trnDoubleComplex* A, int lda, double* D,
                                    double* E, trnDoubleComplex* TAUQ, trnDoubleComplex* TAUP, trnDoubleComplex* Work,
                                    int Lwork, int* devInfo);
trnsolverStatus_t trnsolverDnSorgbr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side, int m, int n, int k,
                                               const float* A, int lda, const float* tau, int* lwork);
trnsolverStatus_t trnsolverDnSorgbr(trnsolverDnHandle_t handle, trnblasSideMode_t side, int m, int n, int k, float* A,
                                    int lda, const float* tau, float* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnDorgbr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side, int m, int n, int k,
                                               const double* A, int lda, const double* tau, int* lwork);
trnsolverStatus_t trnsolverDnDorgbr(trnsolverDnHandle_t handle, trnblasSideMode_t side, int m, int n, int k, double* A,
                                    int lda, const double* tau, double* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnCungbr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side, int m, int n, int k,
                                               const trnComplex* A, int lda, const trnComplex* tau, int* lwork);
trnsolverStatus_t trnsolverDnCungbr(trnsolverDnHandle_t handle, trnblasSideMode_t side, int m, int n, int k, trnComplex*
                                    A, int lda, const trnComplex* tau, trnComplex* work, int lwork, int* info);
trnsolverStatus_t trnsolverDnZungbr_bufferSize(trnsolverDnHandle_t handle, trnblasSideMode_t side, int m, int n, int k,
                                               const trnDoubleComplex*A, int lda, const trnDoubleComplex*tau, int*
                                               lwork);
trnsolverStatus_t trnsolverDnZungbr(trnsolverDnHandle_t handle, trnblasSideMode_t side, int m, int n, int k,
                                    trnDoubleComplex* A, int lda, const trnDoubleComplex*tau, trnDoubleComplex* work,
                                    int lwork, int* info);
trnsolverStatus_t trnsolverDnCgesvd_bufferSize(trnsolverDnHandle_t handle, int m, int n, int* lwork);
trnsolverStatus_t trnsolverDnCgesvd(trnsolverDnHandle_t handle, signed char jobu, signed char jobvt, int m, int n,
                                    trnComplex* A, int lda, float* S, trnComplex* U, int ldu, trnComplex* VT, int ldvt,
                                    trnComplex* work, int lwork, float* rwork, int* info);
trnsolverStatus_t trnsolverDnZgesvd_bufferSize(trnsolverDnHandle_t handle, int m, int n, int* lwork);
trnsolverStatus_t trnsolverDnZgesvd(trnsolverDnHandle_t handle, signed char jobu, signed char jobvt, int m, int n,
                                    trnDoubleComplex* A, int lda, double* S, trnDoubleComplex* U, int ldu,
                                    trnDoubleComplex* VT, int ldvt, trnDoubleComplex* work, int lwork, double* rwork,
                                    int* info);
trnsolverStatus_t trnsolverDnSgesvdaStridedBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int
                                                              rank, int m, int n, const float* d_A, int lda, long long
                                                              int strideA, const float* d_S, long long int strideS,
                                                              const float* d_U, int ldu, long long int strideU, const
                                                              float* d_V, int ldv, long long int strideV, int* lwork,
                                                              int batchSize);
trnsolverStatus_t trnsolverDnSgesvdaStridedBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank, int m,
                                                   int n, const float* d_A, int lda, long long int strideA, float* d_S,
                                                   long long int strideS, float* d_U, int ldu, long long int strideU,
                                                   float* d_V, int ldv, long long int strideV, float* d_work, int lwork,
                                                   int* d_info, double* h_R_nrmF, int batchSize);
trnsolverStatus_t trnsolverDnDgesvdaStridedBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int
                                                              rank, int m, int n, const double* d_A, int lda, long long
                                                              int strideA, const double* d_S, long long int strideS,
                                                              const double* d_U, int ldu, long long int strideU, const
                                                              double* d_V, int ldv, long long int strideV, int* lwork,
                                                              int batchSize);
trnsolverStatus_t trnsolverDnDgesvdaStridedBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank, int m,
                                                   int n, const double* d_A, int lda, long long int strideA, double*
                                                   d_S, long long int strideS, double* d_U, int ldu, long long int
                                                   strideU, double* d_V, int ldv, long long int strideV, double* d_work,
                                                   int lwork, int* d_info, double* h_R_nrmF, int batchSize);
trnsolverStatus_t trnsolverDnCgesvdaStridedBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int
                                                              rank, int m, int n, const trnComplex* d_A, int lda, long
                                                              long int strideA, const float* d_S, long long int strideS,
                                                              const trnComplex* d_U, int ldu, long long int strideU,
                                                              const trnComplex* d_V, int ldv, long long int strideV,
                                                              int* lwork, int batchSize);
trnsolverStatus_t trnsolverDnCgesvdaStridedBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank, int m,
                                                   int n, const trnComplex* d_A, int lda, long long int strideA, float*
                                                   d_S, long long int strideS, trnComplex* d_U, int ldu, long long int
                                                   strideU, trnComplex* d_V, int ldv, long long int strideV, trnComplex*
                                                   d_work, int lwork, int* d_info, double* h_R_nrmF, int batchSize);
trnsolverStatus_t trnsolverDnZgesvdaStridedBatched_bufferSize(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int
                                                              rank, int m, int n, const trnDoubleComplex*d_A, int lda,
                                                              long long int strideA, const double* d_S, long long int
                                                              strideS, const trnDoubleComplex*d_U, int ldu, long long
                                                              int strideU, const trnDoubleComplex*d_V, int ldv, long
                                                              long int strideV, int* lwork, int batchSize);
trnsolverStatus_t trnsolverDnZgesvdaStridedBatched(trnsolverDnHandle_t handle, trnsolverEigMode_t jobz, int rank, int m,
                                                   int n, const trnDoubleComplex*d_A, int lda, long long int strideA,
                                                   double* d_S, long long int strideS, trnDoubleComplex* d_U, int ldu,
                                                   long long int strideU, trnDoubleComplex* d_V, int ldv, long long int
                                                   strideV, trnDoubleComplex* d_work, int lwork, int* d_info, double*
                                                   h_R_nrmF, int batchSize);
trnsolverStatus_t trnsolverDnXgesvdp_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                                trnsolverEigMode_t jobz, int econ, int64_t m, int64_t n, trnDataType_t
                                                dataTypeA, const void* A, int64_t lda, trnDataType_t dataTypeS, const
                                                void* S, trnDataType_t dataTypeU, const void* U, int64_t ldu,
                                                trnDataType_t dataTypeV, const void* V, int64_t ldv, trnDataType_t
                                                computeType, size_t* workspaceInBytesOnDevice, size_t*
                                                workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXgesvdp(trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
                                     int econ, int64_t m, int64_t n, trnDataType_t dataTypeA, void* A, int64_t lda,
                                     trnDataType_t dataTypeS, void* S, trnDataType_t dataTypeU, void* U, int64_t ldu,
                                     trnDataType_t dataTypeV, void* V, int64_t ldv, trnDataType_t computeType, void*
                                     bufferOnDevice, size_t workspaceInBytesOnDevice, void* bufferOnHost, size_t
                                     workspaceInBytesOnHost, int* d_info, double* h_err_sigma);
trnsolverStatus_t trnsolverDnXgesvdr_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params, signed char
                                                jobu, signed char jobv, int64_t m, int64_t n, int64_t k, int64_t p,
                                                int64_t niters, trnDataType_t dataTypeA, const void* A, int64_t lda,
                                                trnDataType_t dataTypeSrand, const void* Srand, trnDataType_t
                                                dataTypeUrand, const void* Urand, int64_t ldUrand, trnDataType_t
                                                dataTypeVrand, const void* Vrand, int64_t ldVrand, trnDataType_t
                                                computeType, size_t* workspaceInBytesOnDevice, size_t*
                                                workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXgesvdr(trnsolverDnHandle_t handle, trnsolverDnParams_t params, signed char jobu, signed
                                     char jobv, int64_t m, int64_t n, int64_t k, int64_t p, int64_t niters,
                                     trnDataType_t dataTypeA, void* A, int64_t lda, trnDataType_t dataTypeSrand, void*
                                     Srand, trnDataType_t dataTypeUrand, void* Urand, int64_t ldUrand, trnDataType_t
                                     dataTypeVrand, void* Vrand, int64_t ldVrand, trnDataType_t computeType, void*
                                     bufferOnDevice, size_t workspaceInBytesOnDevice, void* bufferOnHost, size_t
                                     workspaceInBytesOnHost, int* d_info);

/* ==== misc (#27): symmetric indefinite, inverses, laswp, Xlarft, batched complex Cholesky, logger,
 * math mode, GetProperty. docs/trnsolver.md "Symmetric indefinite (sytrf) and inverses" and "Logger,
 * math mode and properties". Positions below do not count the handle. ==================================== */

/* cudaEmulationStrategy_t (library_types.h; port-cuda.sh: cudaEmulation -> trnEmulation). */
#ifndef TRN_EMULATION_STRATEGY_DEFINED
#define TRN_EMULATION_STRATEGY_DEFINED
typedef enum trnEmulationStrategy_t {
  TRN_EMULATION_STRATEGY_DEFAULT = 0,
  TRN_EMULATION_STRATEGY_PERFORMANT = 1,
  TRN_EMULATION_STRATEGY_EAGER = 2
} trnEmulationStrategy_t;
typedef trnEmulationStrategy_t trnEmulationStrategy;
#endif

typedef enum trnsolverMathMode_t {
  TRNSOLVER_DEFAULT_MATH = 1,
  TRNSOLVER_FP32_EMULATED_BF16X9_MATH = 2
} trnsolverMathMode_t;

/* cusolver_common.h's Householder storage / direction enums (also in trnsolver_common.h, same guard). */
#ifndef TRNSOLVER_STOREV_DIRECT_DEFINED
#define TRNSOLVER_STOREV_DIRECT_DEFINED
typedef enum { TRNBLAS_STOREV_COLUMNWISE = 0, TRNBLAS_STOREV_ROWWISE = 1 } trnsolverStorevMode_t;
typedef enum { TRNBLAS_DIRECT_FORWARD = 0, TRNBLAS_DIRECT_BACKWARD = 1 } trnsolverDirectMode_t;
#endif

/* Math mode and emulation strategy (per handle; defaults DEFAULT_MATH, STRATEGY_DEFAULT). Recorded and
 * returned; neither changes a result: trnsolver's fp32 products already run in trnblas's fp32 GEMM mode,
 * whose products are exact like BF16x9's (docs/trnsolver.md). Illegal value: INVALID_VALUE (position 1). */
trnsolverStatus_t trnsolverDnSetMathMode(trnsolverDnHandle_t handle, trnsolverMathMode_t mode);
trnsolverStatus_t trnsolverDnGetMathMode(trnsolverDnHandle_t handle, trnsolverMathMode_t* mode);
trnsolverStatus_t trnsolverDnSetEmulationStrategy(trnsolverDnHandle_t handle, trnEmulationStrategy_t strategy);
trnsolverStatus_t trnsolverDnGetEmulationStrategy(trnsolverDnHandle_t handle, trnEmulationStrategy_t* strategy);
/* MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL of trnsolver (TRNSOLVER_VER_*). */
trnsolverStatus_t trnsolverGetProperty(libraryPropertyType type, int* value);

/* cuSOLVER's logger family, library-wide, on the same logger as trnsolverLoggerConfigure. */
typedef void (*trnsolverDnLoggerCallback_t)(int logLevel, const char* functionName, const char* message);
trnsolverStatus_t trnsolverDnLoggerSetCallback(trnsolverDnLoggerCallback_t callback);
trnsolverStatus_t trnsolverDnLoggerSetFile(FILE* file);
trnsolverStatus_t trnsolverDnLoggerOpenFile(const char* logFile);
trnsolverStatus_t trnsolverDnLoggerSetLevel(int level);
trnsolverStatus_t trnsolverDnLoggerSetMask(int mask);
trnsolverStatus_t trnsolverDnLoggerForceDisable(void);

/* sytrf (S, D, C, Z; C/Z complex symmetric): blocked Bunch-Kaufman, LAPACK's storage and ipiv; info > 0:
 * D(info, info) exactly zero. bufferSize: n 1, A 2, lda 3, lwork 4 (n * 64 elements, at least 1);
 * sytrf: uplo 1, n 2, A 3, lda 4, ipiv 5, work 6, lwork 7 (smaller than bufferSize: INVALID_VALUE), info 8.
 * sytri: A^-1 from sytrf's factors; uplo 1, n 2, A 3, lda 4, ipiv 5 (checked: LAPACK's pattern), work 6,
 * lwork 7 (n, at least 1), info 8 (> 0: a 1x1 block of D exactly zero, A untouched).
 * lauum: U U^H or L^H L of the triangle; uplo 1, n 2, A 3, lda 4, work 5, lwork 6 (1), devInfo 7.
 * potri (S, D; C/Z above): trtri + lauum, arguments as lauum; devInfo > 0: the factor's diagonal zero.
 * laswp: n 1, A 2, lda 3, k1 4, k2 5, devIpiv 6 (entries in [1, lda]), incx 7 (nonzero). */
#define TRNSOLVER_MISC_DECLARE(P, T)                                                                                \
  trnsolverStatus_t trnsolverDn##P##sytrf_bufferSize(trnsolverDnHandle_t handle, int n, T* A, int lda, int* lwork); \
  trnsolverStatus_t trnsolverDn##P##sytrf(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, T* A, int lda, \
                                          int* ipiv, T* work, int lwork, int* info);                               \
  trnsolverStatus_t trnsolverDn##P##sytri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,    \
                                                     T* A, int lda, const int* ipiv, int* lwork);                  \
  trnsolverStatus_t trnsolverDn##P##sytri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, T* A, int lda, \
                                          const int* ipiv, T* work, int lwork, int* info);                         \
  trnsolverStatus_t trnsolverDn##P##lauum_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,    \
                                                     T* A, int lda, int* lwork);                                   \
  trnsolverStatus_t trnsolverDn##P##lauum(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, T* A, int lda, \
                                          T* work, int lwork, int* devInfo);                                       \
  trnsolverStatus_t trnsolverDn##P##laswp(trnsolverDnHandle_t handle, int n, T* A, int lda, int k1, int k2,         \
                                          const int* devIpiv, int incx);
TRNSOLVER_MISC_DECLARE(S, float)
TRNSOLVER_MISC_DECLARE(D, double)
TRNSOLVER_MISC_DECLARE(C, trnComplex)
TRNSOLVER_MISC_DECLARE(Z, trnDoubleComplex)
#undef TRNSOLVER_MISC_DECLARE
trnsolverStatus_t trnsolverDnSpotri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, float* A,
                                               int lda, int* lwork);
trnsolverStatus_t trnsolverDnDpotri_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, double* A,
                                               int lda, int* lwork);
trnsolverStatus_t trnsolverDnSpotri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, float* A, int lda,
                                    float* work, int lwork, int* devInfo);
trnsolverStatus_t trnsolverDnDpotri(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, double* A, int lda,
                                    double* work, int lwork, int* devInfo);

/* C/Z potrfBatched / potrsBatched: as S/D (each matrix the single-matrix cpotrf/zpotrf, cpotrs/zpotrs). */
trnsolverStatus_t trnsolverDnCpotrfBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                           trnComplex* Aarray[], int lda, int* infoArray, int batchSize);
trnsolverStatus_t trnsolverDnZpotrfBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n,
                                           trnDoubleComplex* Aarray[], int lda, int* infoArray, int batchSize);
trnsolverStatus_t trnsolverDnCpotrsBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, int nrhs,
                                           trnComplex* A[], int lda, trnComplex* B[], int ldb, int* d_info,
                                           int batchSize);
trnsolverStatus_t trnsolverDnZpotrsBatched(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int n, int nrhs,
                                           trnDoubleComplex* A[], int lda, trnDoubleComplex* B[], int ldb,
                                           int* d_info, int batchSize);

/* Xsytrs (no params argument, as cuSOLVER): uplo 1, n 2, nrhs 3, dataTypeA 4, A 5, lda 6, ipiv 7 (int64,
 * LAPACK's pattern), dataTypeB 8 (= dataTypeA; R_32F, R_64F, C_32F, C_64F), B 9, ldb 10, bufferOnDevice
 * 11, workspaceInBytesOnDevice 12 (one element), bufferOnHost 13, workspaceInBytesOnHost 14, info 15.
 * Xlarft: params 1, direct 2, storev 3 (COLUMNWISE only, else NOT_SUPPORTED, as cuSOLVER), n 4, k 5
 * (n >= k), dataTypeV 6, V 7, ldv 8, dataTypeTau 9, tau 10, dataTypeT 11, T 12, ldt 13, computeType 14
 * (all four equal), bufferOnDevice 15, workspaceInBytesOnDevice 16 (one element), bufferOnHost 17,
 * workspaceInBytesOnHost 18; no info (cuSOLVER has none). */
trnsolverStatus_t trnsolverDnXsytrs_bufferSize(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                               int64_t nrhs, trnDataType_t dataTypeA, const void* A, int64_t lda,
                                               const int64_t* ipiv, trnDataType_t dataTypeB, void* B, int64_t ldb,
                                               size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXsytrs(trnsolverDnHandle_t handle, trnblasFillMode_t uplo, int64_t n, int64_t nrhs,
                                    trnDataType_t dataTypeA, const void* A, int64_t lda, const int64_t* ipiv,
                                    trnDataType_t dataTypeB, void* B, int64_t ldb, void* bufferOnDevice,
                                    size_t workspaceInBytesOnDevice, void* bufferOnHost, size_t workspaceInBytesOnHost,
                                    int* info);
trnsolverStatus_t trnsolverDnXlarft_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                               trnsolverDirectMode_t direct, trnsolverStorevMode_t storev, int64_t n,
                                               int64_t k, trnDataType_t dataTypeV, const void* V, int64_t ldv,
                                               trnDataType_t dataTypeTau, const void* tau, trnDataType_t dataTypeT,
                                               void* T, int64_t ldt, trnDataType_t computeType,
                                               size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXlarft(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                    trnsolverDirectMode_t direct, trnsolverStorevMode_t storev, int64_t n, int64_t k,
                                    trnDataType_t dataTypeV, const void* V, int64_t ldv, trnDataType_t dataTypeTau,
                                    const void* tau, trnDataType_t dataTypeT, void* T, int64_t ldt,
                                    trnDataType_t computeType, void* bufferOnDevice, size_t workspaceInBytesOnDevice,
                                    void* bufferOnHost, size_t workspaceInBytesOnHost);
/* ==== end misc (#27) ======================================================================================= */

/* ==== geev (#27): the non-symmetric eigensolver, 64-bit API (cusolverDnXgeev) ===========================
 * docs/trnsolver.md "Non-symmetric eigen (Xgeev)". Eigenvalues and right eigenvectors of a general n x n
 * matrix A (overwritten). dataTypeA = dataTypeVL = dataTypeVR = computeType: TRN_R_32F, TRN_R_64F,
 * TRN_C_32F or TRN_C_64F. Real A: dataTypeW = dataTypeA (W holds 2n values, the real parts then the
 * imaginary parts) or its complex type (W holds n complex values); VR packs a conjugate pair's vector
 * as LAPACK xGEEV does (columns j, j+1 = real, imaginary part). Complex A: dataTypeW = dataTypeA.
 * jobvl must be TRNSOLVER_EIG_MODE_NOVECTOR (VECTOR -> NOT_SUPPORTED, as cuSOLVER 12.x), ldvl >= 1;
 * jobvr VECTOR: ldvr >= max(1, n), else ldvr >= 1. n above 2^28 -> NOT_SUPPORTED. Device and host
 * workspace as _bufferSize reports (smaller -> INVALID_VALUE). info: 0, -i (parameter i), or i > 0:
 * the QR iteration did not converge, eigenvalues i+1 .. n (1-based) converged, no vectors (LAPACK's);
 * a NaN/Inf in A gives info = n. Positions counted without the handle (params 1 ... info 21). */
trnsolverStatus_t trnsolverDnXgeev_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                              trnsolverEigMode_t jobvl, trnsolverEigMode_t jobvr, int64_t n,
                                              trnDataType_t dataTypeA, const void* A, int64_t lda,
                                              trnDataType_t dataTypeW, const void* W, trnDataType_t dataTypeVL,
                                              const void* VL, int64_t ldvl, trnDataType_t dataTypeVR, const void* VR,
                                              int64_t ldvr, trnDataType_t computeType,
                                              size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost);
trnsolverStatus_t trnsolverDnXgeev(trnsolverDnHandle_t handle, trnsolverDnParams_t params, trnsolverEigMode_t jobvl,
                                   trnsolverEigMode_t jobvr, int64_t n, trnDataType_t dataTypeA, void* A, int64_t lda,
                                   trnDataType_t dataTypeW, void* W, trnDataType_t dataTypeVL, void* VL, int64_t ldvl,
                                   trnDataType_t dataTypeVR, void* VR, int64_t ldvr, trnDataType_t computeType,
                                   void* bufferOnDevice, size_t workspaceInBytesOnDevice, void* bufferOnHost,
                                   size_t workspaceInBytesOnHost, int* info);
/* ==== end geev (#27) ======================================================================================= */

#ifdef __cplusplus
}
#endif

#endif /* TRNSOLVER_H */
