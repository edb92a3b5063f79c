// libtrnblas_blas.so, Level 2: the Fortran BLAS entry points (one hidden length per CHARACTER
// argument). Real: every Level 2 routine; complex: GEMV, GBMV, HEMV, HBMV, HPMV, GERU, GERC, HER,
// HPR, HER2, HPR2 and the triangular ones (std::complex arrays: the layout of Fortran COMPLEX).
#include "level12_calls.hpp"

using namespace trnblas_abi;  // NOLINT: this file only defines the extern "C" entry points

extern "C" {

// P the type prefix, T the data type, SR the XERBLA prefix ("S", "D", "C", "Z").
#define TRNBLAS_F77_L2_GENERAL(P, T, SR)                                                                            \
  void P##gemv_(const char* trans, const int* m, const int* n, const T* alpha, const T* a, const int* lda,          \
                const T* x, const int* incx, const T* beta, T* y, const int* incy, size_t) {                        \
    gemv_call<T>({#P "gemv_", SR "GEMV "}, *trans, *m, *n, 0, 0, *alpha, a, *lda, x, *incx, *beta, y, *incy, false); \
  }                                                                                                                 \
  void P##gbmv_(const char* trans, const int* m, const int* n, const int* kl, const int* ku, const T* alpha,        \
                const T* a, const int* lda, const T* x, const int* incx, const T* beta, T* y, const int* incy,      \
                size_t) {                                                                                           \
    gemv_call<T>({#P "gbmv_", SR "GBMV "}, *trans, *m, *n, *kl, *ku, *alpha, a, *lda, x, *incx, *beta, y, *incy,    \
                 true);                                                                                             \
  }

#define TRNBLAS_F77_L2_TRIANGULAR(P, T, SR)                                                                         \
  void P##trmv_(const char* uplo, const char* trans, const char* diag, const int* n, const T* a, const int* lda,    \
                T* x, const int* incx, size_t, size_t, size_t) {                                                    \
    tr_call<T>({#P "trmv_", SR "TRMV "}, 0, false, *uplo, *trans, *diag, *n, 0, a, *lda, x, *incx);                 \
  }                                                                                                                 \
  void P##trsv_(const char* uplo, const char* trans, const char* diag, const int* n, const T* a, const int* lda,    \
                T* x, const int* incx, size_t, size_t, size_t) {                                                    \
    tr_call<T>({#P "trsv_", SR "TRSV "}, 0, true, *uplo, *trans, *diag, *n, 0, a, *lda, x, *incx);                  \
  }                                                                                                                 \
  void P##tbmv_(const char* uplo, const char* trans, const char* diag, const int* n, const int* k, const T* a,      \
                const int* lda, T* x, const int* incx, size_t, size_t, size_t) {                                    \
    tr_call<T>({#P "tbmv_", SR "TBMV "}, 1, false, *uplo, *trans, *diag, *n, *k, a, *lda, x, *incx);                \
  }                                                                                                                 \
  void P##tbsv_(const char* uplo, const char* trans, const char* diag, const int* n, const int* k, const T* a,      \
                const int* lda, T* x, const int* incx, size_t, size_t, size_t) {                                    \
    tr_call<T>({#P "tbsv_", SR "TBSV "}, 1, true, *uplo, *trans, *diag, *n, *k, a, *lda, x, *incx);                 \
  }                                                                                                                 \
  void P##tpmv_(const char* uplo, const char* trans, const char* diag, const int* n, const T* ap, T* x,             \
                const int* incx, size_t, size_t, size_t) {                                                          \
    tr_call<T>({#P "tpmv_", SR "TPMV "}, 2, false, *uplo, *trans, *diag, *n, 0, ap, 1, x, *incx);                   \
  }                                                                                                                 \
  void P##tpsv_(const char* uplo, const char* trans, const char* diag, const int* n, const T* ap, T* x,             \
                const int* incx, size_t, size_t, size_t) {                                                          \
    tr_call<T>({#P "tpsv_", SR "TPSV "}, 2, true, *uplo, *trans, *diag, *n, 0, ap, 1, x, *incx);                    \
  }

// SYMV/SBMV/SPMV (real) and HEMV/HBMV/HPMV (complex): DENSE, BAND, PACKED the symbols without '_',
// SR the XERBLA prefix, UD, UB, UP the rest of the XERBLA names.
#define TRNBLAS_F77_L2_SYMV(T, SR, DENSE, BAND, PACKED, UD, UB, UP)                                                 \
  void DENSE##_(const char* uplo, const int* n, const T* alpha, const T* a, const int* lda, const T* x,             \
                const int* incx, const T* beta, T* y, const int* incy, size_t) {                                    \
    symv_call<T>({#DENSE "_", SR UD}, 0, *uplo, *n, 0, *alpha, a, *lda, x, *incx, *beta, y, *incy);                 \
  }                                                                                                                 \
  void BAND##_(const char* uplo, const int* n, const int* k, const T* alpha, const T* a, const int* lda,            \
               const T* x, const int* incx, const T* beta, T* y, const int* incy, size_t) {                         \
    symv_call<T>({#BAND "_", SR UB}, 1, *uplo, *n, *k, *alpha, a, *lda, x, *incx, *beta, y, *incy);                 \
  }                                                                                                                 \
  void PACKED##_(const char* uplo, const int* n, const T* alpha, const T* ap, const T* x, const int* incx,          \
                 const T* beta, T* y, const int* incy, size_t) {                                                    \
    symv_call<T>({#PACKED "_", SR UP}, 2, *uplo, *n, 0, *alpha, ap, 1, x, *incx, *beta, y, *incy);                  \
  }

// GER (real), GERU and GERC (complex; CONJ: y conjugated).
#define TRNBLAS_F77_L2_GER(NAME, SRNAME, T, CONJ)                                                                   \
  void NAME##_(const int* m, const int* n, const T* alpha, const T* x, const int* incx, const T* y,                 \
               const int* incy, T* a, const int* lda) {                                                             \
    ger_call<T>({#NAME "_", SRNAME}, CONJ, *m, *n, *alpha, x, *incx, y, *incy, a, *lda);                            \
  }

// SYR/SPR/SYR2/SPR2 (real) and HER/HPR/HER2/HPR2 (complex): R1 and P1 take alpha of type A (real for
// HER/HPR), R2 and P2 of type T; U1, UP1, U2, UP2 the rest of the XERBLA names.
#define TRNBLAS_F77_L2_RANK(T, A, SR, R1, P1, R2, P2, U1, UP1, U2, UP2)                                             \
  void R1##_(const char* uplo, const int* n, const A* alpha, const T* x, const int* incx, T* a, const int* lda,     \
             size_t) {                                                                                              \
    syr_call<T, A>({#R1 "_", SR U1}, false, false, *uplo, *n, *alpha, x, *incx, nullptr, 1, a, *lda);               \
  }                                                                                                                 \
  void P1##_(const char* uplo, const int* n, const A* alpha, const T* x, const int* incx, T* ap, size_t) {          \
    syr_call<T, A>({#P1 "_", SR UP1}, true, false, *uplo, *n, *alpha, x, *incx, nullptr, 1, ap, 1);                 \
  }                                                                                                                 \
  void R2##_(const char* uplo, const int* n, const T* alpha, const T* x, const int* incx, const T* y,               \
             const int* incy, T* a, const int* lda, size_t) {                                                       \
    syr_call<T, T>({#R2 "_", SR U2}, false, true, *uplo, *n, *alpha, x, *incx, y, *incy, a, *lda);                  \
  }                                                                                                                 \
  void P2##_(const char* uplo, const int* n, const T* alpha, const T* x, const int* incx, const T* y,               \
             const int* incy, T* ap, size_t) {                                                                      \
    syr_call<T, T>({#P2 "_", SR UP2}, true, true, *uplo, *n, *alpha, x, *incx, y, *incy, ap, 1);                    \
  }

TRNBLAS_F77_L2_GENERAL(s, float, "S")
TRNBLAS_F77_L2_GENERAL(d, double, "D")
TRNBLAS_F77_L2_GENERAL(c, cfloat, "C")
TRNBLAS_F77_L2_GENERAL(z, cdouble, "Z")
TRNBLAS_F77_L2_TRIANGULAR(s, float, "S")
TRNBLAS_F77_L2_TRIANGULAR(d, double, "D")
TRNBLAS_F77_L2_TRIANGULAR(c, cfloat, "C")
TRNBLAS_F77_L2_TRIANGULAR(z, cdouble, "Z")
TRNBLAS_F77_L2_SYMV(float, "S", ssymv, ssbmv, sspmv, "SYMV ", "SBMV ", "SPMV ")
TRNBLAS_F77_L2_SYMV(double, "D", dsymv, dsbmv, dspmv, "SYMV ", "SBMV ", "SPMV ")
TRNBLAS_F77_L2_SYMV(cfloat, "C", chemv, chbmv, chpmv, "HEMV ", "HBMV ", "HPMV ")
TRNBLAS_F77_L2_SYMV(cdouble, "Z", zhemv, zhbmv, zhpmv, "HEMV ", "HBMV ", "HPMV ")
TRNBLAS_F77_L2_GER(sger, "SGER  ", float, false)
TRNBLAS_F77_L2_GER(dger, "DGER  ", double, false)
TRNBLAS_F77_L2_GER(cgeru, "CGERU ", cfloat, false)
TRNBLAS_F77_L2_GER(zgeru, "ZGERU ", cdouble, false)
TRNBLAS_F77_L2_GER(cgerc, "CGERC ", cfloat, true)
TRNBLAS_F77_L2_GER(zgerc, "ZGERC ", cdouble, true)
TRNBLAS_F77_L2_RANK(float, float, "S", ssyr, sspr, ssyr2, sspr2, "SYR  ", "SPR  ", "SYR2 ", "SPR2 ")
TRNBLAS_F77_L2_RANK(double, double, "D", dsyr, dspr, dsyr2, dspr2, "SYR  ", "SPR  ", "SYR2 ", "SPR2 ")
TRNBLAS_F77_L2_RANK(cfloat, float, "C", cher, chpr, cher2, chpr2, "HER  ", "HPR  ", "HER2 ", "HPR2 ")
TRNBLAS_F77_L2_RANK(cdouble, double, "Z", zher, zhpr, zher2, zhpr2, "HER  ", "HPR  ", "HER2 ", "HPR2 ")

}  // extern "C"
