/* trnblas_blas.h - libtrnblas_blas.so, the BLAS ABI shim of trnblas.
 *
 * A separate shared library that exports the Fortran BLAS symbols sgemm_, dgemm_, ssyrk_, dsyrk_,
 * strsm_, dtrsm_, strmm_, dtrmm_, ssymm_, dsymm_, ssyr2k_, dsyr2k_, cgemm_, zgemm_ and the complex
 * Level 3 c/z trsm_, trmm_, symm_, hemm_, syrk_, herk_, syr2k_, her2k_ (complex: interleaved
 * (re, im) pairs, trnblas's 4M complex GEMM; CHERK's alpha and beta and CHER2K's beta are real,
 * passed as float* / double*) and the CBLAS symbols of the
 * same routines (cblas_sgemm, ...), and the Level 1 and 2 routines trnblas has (docs/trnblas.md,
 * "BLAS ABI shim": every real one, complex Level 1, every complex Level 2 routine, ?ROTG/?ROTM/
 * ?ROTMG, SDSDOT and DSDOT), so that unmodified programs run their BLAS on
 * the emulated NeuronCore:
 *
 *     LD_PRELOAD=libtrnblas_blas.so ./program        (or link -ltrnblas_blas before -lblas)
 *
 * ABI: LP64 (32-bit int), gfortran calling convention (every argument by reference, one hidden
 * size_t length per CHARACTER argument appended at the end; the routines read only the first
 * character, so C callers that omit the lengths work too). Column-major; CBLAS row-major calls are
 * mapped to column-major by swapping operands, as reference CBLAS does.
 *
 * Semantics are netlib's: arguments are checked in reference-BLAS order (SGEMM INFO 1, 2, 3, 4, 5,
 * 8, 10, 13; SSYRK INFO 1, 2, 3, 4, 7, 10; STRSM/STRMM INFO 1, 2, 3, 4, 5, 6, 9, 11; SSYMM INFO
 * 1, 2, 3, 4, 7, 9, 12; SSYR2K INFO 1, 2, 3, 4, 7, 9, 12; 'C'/'c' is accepted as 'T' for real data; letters in
 * either case) and reported through xerbla_ (Fortran entry points) or cblas_xerbla (CBLAS entry
 * points, parameter number = Fortran INFO + 1 with reference CBLAS's row-major swaps), after which
 * the routine returns without touching its output. Quick returns as netlib: m == 0 or n == 0, or (alpha == 0
 * or k == 0) and beta == 1 -> no-op; beta == 0 never reads C; alpha == 0 never reads A or B (TRSM,
 * TRMM: B = 0). The triangle a routine does not reference is never read (A) or written (C).
 *
 * Environment (read on every call, so a program may switch between calls):
 *   TRNBLAS_COMPUTE   fp32 (default, faithful fp32) | tf32 | fp16 | bf16 | bf16x3 | bf16x6 |
 *                     bf16x9 | fp8_e4m3 | fp8_e5m2 - the S routines' GEMM mode (trnblas.h), Level 3
 *                     only (Levels 1 and 2 compute in fp32). The D routines always use the
 *                     Ozaki-scheme FP64 emulation (or fp64 on the host side, level12.hpp).
 *   TRNBLAS_TARGET    trn1 (default) | trn2 | trn3
 *   TRNBLAS_NUMERICS  ideal (default) | trn1_measured
 *   TRN_NUM_THREADS   host threads of the emulator (default: all hardware threads)
 *   TRNBLAS_BLAS_TRACE  unset or 0: off; 1 or stderr: one line per call on stderr; any other value:
 *                     the file the lines are appended to. A line names the entry point, its
 *                     arguments, the mode and the outcome ("xerbla(8)" or "tensor_passes=N
 *                     instructions=M": the nc_matmul and all emulated instructions it issued; a
 *                     DTRSM whose A has at most 128 rows runs only its host-side fp64 substitution).
 *   TRNBLAS_BLAS_COUNT  unset or 0: off; otherwise a file written at exit (the value at the first
 *                     counted call):
 *                     "<calls> <entry point>" per entry point called (most first; every call that
 *                     would write a TRNBLAS_BLAS_TRACE line, errors included), then "<total> total".
 *                     No per-call I/O: an untraced run's call count.
 *   TRNBLAS_BLAS_PROFILE unset or 0: off; otherwise a file written at exit (the value at the first
 *                     profiled call): "<calls> <CPU s> <CPU us per call> <share %> <entry point>"
 *                     per entry point called (most CPU first; the calling thread's CPU time of the
 *                     whole call, CLOCK_THREAD_CPUTIME_ID: run with TRN_NUM_THREADS=1 to include
 *                     every program), then the same for the total. A measuring tool.
 * An unknown value prints one warning line on stderr and the default is used.
 *
 * Error handlers: the library's xerbla_ and cblas_xerbla are WEAK and overridable (a program's own
 * XERBLA wins, with or without LD_PRELOAD). The defaults print to stderr and RETURN:
 *   xerbla_:      " ** On entry to SGEMM  parameter number  8 had an illegal value"
 *   cblas_xerbla: "Parameter 9 to routine cblas_sgemm was incorrect"
 * Reference CBLAS's cblas_xerbla calls exit(-1) (and reference LAPACK's XERBLA stops); this library
 * deliberately never terminates the process. For compatibility with programs built against
 * reference CBLAS, the library also exports reference CBLAS's globals RowMajorStrg and
 * CBLAS_CallFromC and maintains them as reference CBLAS does (a handler modelled on reference
 * cblas_xerbla reads RowMajorStrg to undo the row-major parameter swap).
 *
 * This header declares the Fortran entry points and the error handlers. For the CBLAS prototypes
 * include any cblas.h (netlib or OpenBLAS): the enum values are reference CBLAS's (CblasRowMajor
 * 101, CblasColMajor 102; CblasNoTrans 111, CblasTrans 112, CblasConjTrans 113; CblasUpper 121,
 * CblasLower 122). Do not include it together with another BLAS's f77blas.h.                       */
#ifndef TRNBLAS_BLAS_H
#define TRNBLAS_BLAS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
            const float* a, const int* lda, const float* b, const int* ldb, const float* beta, float* c,
            const int* ldc, size_t transa_len, size_t transb_len);
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta, double* c,
            const int* ldc, size_t transa_len, size_t transb_len);
void ssyrk_(const char* uplo, const char* trans, const int* n, const int* k, const float* alpha, const float* a,
            const int* lda, const float* beta, float* c, const int* ldc, size_t uplo_len, size_t trans_len);
void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha, const double* a,
            const int* lda, const double* beta, double* c, const int* ldc, size_t uplo_len, size_t trans_len);
void strsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const float* alpha, const float* a, const int* lda, float* b, const int* ldb, size_t side_len,
            size_t uplo_len, size_t transa_len, size_t diag_len);
void dtrsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const double* alpha, const double* a, const int* lda, double* b, const int* ldb, size_t side_len,
            size_t uplo_len, size_t transa_len, size_t diag_len);
void strmm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const float* alpha, const float* a, const int* lda, float* b, const int* ldb, size_t side_len,
            size_t uplo_len, size_t transa_len, size_t diag_len);
void dtrmm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const double* alpha, const double* a, const int* lda, double* b, const int* ldb, size_t side_len,
            size_t uplo_len, size_t transa_len, size_t diag_len);
void ssymm_(const char* side, const char* uplo, const int* m, const int* n, const float* alpha, const float* a,
            const int* lda, const float* b, const int* ldb, const float* beta, float* c, const int* ldc,
            size_t side_len, size_t uplo_len);
void dsymm_(const char* side, const char* uplo, const int* m, const int* n, const double* alpha, const double* a,
            const int* lda, const double* b, const int* ldb, const double* beta, double* c, const int* ldc,
            size_t side_len, size_t uplo_len);
void ssyr2k_(const char* uplo, const char* trans, const int* n, const int* k, const float* alpha, const float* a,
             const int* lda, const float* b, const int* ldb, const float* beta, float* c, const int* ldc,
             size_t uplo_len, size_t trans_len);
void dsyr2k_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha, const double* a,
             const int* lda, const double* b, const int* ldb, const double* beta, double* c, const int* ldc,
             size_t uplo_len, size_t trans_len);

void cgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const void* alpha,
            const void* a, const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc,
            size_t transa_len, size_t transb_len);
void zgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const void* alpha,
            const void* a, const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc,
            size_t transa_len, size_t transb_len);

/* Complex Level 3 beyond GEMM (P = c, Cx = float pairs; P = z, double pairs), same argument order as
 * the reference routines; scalars by pointer. */
void ctrsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const void* alpha, const void* a, const int* lda, void* b, const int* ldb, size_t, size_t, size_t, size_t);
void ctrmm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const void* alpha, const void* a, const int* lda, void* b, const int* ldb, size_t, size_t, size_t, size_t);
void csymm_(const char* side, const char* uplo, const int* m, const int* n, const void* alpha, const void* a,
            const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc, size_t, size_t);
void chemm_(const char* side, const char* uplo, const int* m, const int* n, const void* alpha, const void* a,
            const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc, size_t, size_t);
void csyrk_(const char* uplo, const char* trans, const int* n, const int* k, const void* alpha, const void* a,
            const int* lda, const void* beta, void* c, const int* ldc, size_t, size_t);
void cherk_(const char* uplo, const char* trans, const int* n, const int* k, const float* alpha, const void* a,
            const int* lda, const float* beta, void* c, const int* ldc, size_t, size_t);
void csyr2k_(const char* uplo, const char* trans, const int* n, const int* k, const void* alpha, const void* a,
             const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc, size_t, size_t);
void cher2k_(const char* uplo, const char* trans, const int* n, const int* k, const void* alpha, const void* a,
             const int* lda, const void* b, const int* ldb, const float* beta, void* c, const int* ldc, size_t, size_t);
void ztrsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const void* alpha, const void* a, const int* lda, void* b, const int* ldb, size_t, size_t, size_t, size_t);
void ztrmm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const void* alpha, const void* a, const int* lda, void* b, const int* ldb, size_t, size_t, size_t, size_t);
void zsymm_(const char* side, const char* uplo, const int* m, const int* n, const void* alpha, const void* a,
            const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc, size_t, size_t);
void zhemm_(const char* side, const char* uplo, const int* m, const int* n, const void* alpha, const void* a,
            const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc, size_t, size_t);
void zsyrk_(const char* uplo, const char* trans, const int* n, const int* k, const void* alpha, const void* a,
            const int* lda, const void* beta, void* c, const int* ldc, size_t, size_t);
void zherk_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha, const void* a,
            const int* lda, const double* beta, void* c, const int* ldc, size_t, size_t);
void zsyr2k_(const char* uplo, const char* trans, const int* n, const int* k, const void* alpha, const void* a,
             const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc, size_t, size_t);
void zher2k_(const char* uplo, const char* trans, const int* n, const int* k, const void* alpha, const void* a,
             const int* lda, const void* b, const int* ldb, const double* beta, void* c, const int* ldc, size_t, size_t);

/* Weak default, overridable by the program (see above). srname is the blank-padded routine name.
 * The CBLAS handler, void cblas_xerbla(int info, const char* rout, const char* form, ...), is
 * declared by cblas.h (OpenBLAS's spells the strings char*; the ABI is the same) and not here.   */
void xerbla_(const char* srname, const int* info, size_t srname_len);

#ifdef __cplusplus
}
#endif
#endif /* TRNBLAS_BLAS_H */
