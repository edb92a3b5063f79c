/* trnsolver_lapack.h - libtrnsolver_lapack.so, the LAPACK ABI shim of trnsolver (issue #27).
 *
 * A separate shared library that exports Fortran LAPACK symbols (dpotrf_, sgetrf_, zgeqrf_, ...; the
 * list: trnsolver_lapack.map and docs/trnsolver.md "LAPACK ABI shim") answered by trnsolver's C++ kit,
 * so that unmodified LAPACK users (numpy.linalg, scipy.linalg, Fortran codes, LAPACKE) run their
 * factorisations on the emulated NeuronCore:
 *
 *     LD_PRELOAD=libtrnsolver_lapack.so ./program      (the program's own LAPACK stays loaded)
 *
 * ABI: LP64 (32-bit INTEGER), gfortran calling convention (every argument by reference, one hidden
 * size_t length per CHARACTER argument appended at the end; only the first character is read, so C
 * callers that omit the lengths work too). Column-major; complex arrays interleaved (re, im).
 *
 * Semantics are reference LAPACK 3.11's: arguments checked in its order, a bad argument i reported
 * through xerbla_(SRNAME, i) with INFO = -i and every output untouched; LWORK = -1 answers the
 * workspace query with reference LAPACK's optimal size (its ILAENV defaults) in WORK(1); INFO > 0 as
 * LAPACK (a non-positive-definite minor, an exactly zero pivot, ...).
 *
 * Fall-through: a call the kit cannot answer (a routine, option, size or value range trnsolver does
 * not have: e.g. CTRTRI, ?GELS with M < N, ?GELS of a matrix LAPACK would rescale) goes unchanged to
 * the next definition of the same symbol in the search order (dlsym(RTLD_NEXT), e.g. the program's
 * liblapack.so.3) - never answered approximately. When there is none, INFO = TRNSOLVER_LAPACK_UNANSWERED,
 * one line is printed on stderr, and the outputs are untouched. A failure inside the emulator (an
 * exception the argument checks could not foresee) sets INFO = TRNSOLVER_LAPACK_FAILED and prints one
 * line. The library never aborts or exits.
 *
 * Environment (read on every call):
 *   TRNSOLVER_LAPACK_TARGET    trn1 (default) | trn2 | trn3
 *   TRNSOLVER_LAPACK_NUMERICS  ideal (default) | trn1_measured
 *   TRN_NUM_THREADS            host threads of the emulator (default: all hardware threads)
 *   TRNSOLVER_LAPACK_TRACE     unset or 0: off; 1 or stderr: stderr; any other value: the file the lines
 *                              are appended to. One line per call ("trnsolver_lapack dpotrf_ uplo=L n=8
 *                              lda=8 -> answered info=0 instructions=..." or "-> passed through (why)",
 *                              "-> xerbla(4)", "-> unanswered (...)"), and at exit one summary line per
 *                              routine: "trnsolver_lapack: summary dpotrf_ answered=3 passed=1 bad_args=0
 *                              unanswered=0 failed=0".
 * The precision each routine runs at is fixed by trnsolver (S/C: fp32 tile kernels; D/Z: fp64 by the
 * Ozaki scheme on TensorE and fp64 host steps): docs/trnsolver.md.
 *
 * Error handler: the library's xerbla_ is WEAK (a program's own XERBLA wins, as LAPACK's test programs
 * define); the default prints " ** On entry to DPOTRF parameter number  4 had an illegal value" and
 * RETURNS (reference LAPACK's XERBLA stops the program; this library never does).                    */
#ifndef TRNSOLVER_LAPACK_H
#define TRNSOLVER_LAPACK_H

#include <stddef.h>

/* INFO of a call the shim could not answer and no next library could take. */
#define TRNSOLVER_LAPACK_UNANSWERED (-1000)
/* INFO of a call that failed inside the emulator (the line on stderr says why). */
#define TRNSOLVER_LAPACK_FAILED (-1001)

#ifdef __cplusplus
extern "C" {
#endif

void xerbla_(const char* srname, const int* info, size_t srname_len);

#ifdef __cplusplus
}
#endif

#endif /* TRNSOLVER_LAPACK_H */
