// libtrnblas_blas.so, Level 3: the Fortran BLAS entry points (S, D, C, Z GEMM, SYRK, SYR2K, TRSM,
// TRMM, SYMM; C, Z HEMM, HERK, HER2K). Arguments by reference, one hidden length per CHARACTER
// argument; complex scalars and arrays as void* (interleaved (re, im), Fortran COMPLEX).
#include "level3_calls.hpp"

using namespace trnblas_abi;  // NOLINT: this file only defines the extern "C" entry points

extern "C" {

void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
            const float* a, const int* lda, const float* b, const int* ldb, const float* beta, float* c,
            const int* ldc, size_t, size_t) {
  gemm_call<float>({"sgemm_", "SGEMM "}, *transa, *transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta, double* c,
            const int* ldc, size_t, size_t) {
  gemm_call<double>({"dgemm_", "DGEMM "}, *transa, *transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}
// CGEMM/ZGEMM read alpha and beta only after the argument checks.
void cgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const void* alpha,
            const void* a, const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc,
            size_t, size_t) {
  gemm_call<cfloat, const void*>({"cgemm_", "CGEMM "}, *transa, *transb, *m, *n, *k, alpha, in<cfloat>(a), *lda,
                                 in<cfloat>(b), *ldb, beta, out<cfloat>(c), *ldc);
}
void zgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const void* alpha,
            const void* a, const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc,
            size_t, size_t) {
  gemm_call<cdouble, const void*>({"zgemm_", "ZGEMM "}, *transa, *transb, *m, *n, *k, alpha, in<cdouble>(a), *lda,
                                  in<cdouble>(b), *ldb, beta, out<cdouble>(c), *ldc);
}

// One macro per routine shape: NAME the symbol without '_', SR the XERBLA name, T the data type, P
// the pointer type of the arguments (T for real routines, void for complex ones).
#define TRNBLAS_F77_SYRK(NAME, SR, T, P)                                                                            \
  void NAME##_(const char* uplo, const char* trans, const int* n, const int* k, const P* alpha, const P* a,         \
               const int* lda, const P* beta, P* c, const int* ldc, size_t, size_t) {                               \
    syrk_call<T>({#NAME "_", SR}, *uplo, *trans, *n, *k, scalar_at<T>(alpha), in<T>(a), *lda, scalar_at<T>(beta),   \
                 out<T>(c), *ldc);                                                                                  \
  }
#define TRNBLAS_F77_SYR2K(NAME, SR, T, P)                                                                           \
  void NAME##_(const char* uplo, const char* trans, const int* n, const int* k, const P* alpha, const P* a,         \
               const int* lda, const P* b, const int* ldb, const P* beta, P* c, const int* ldc, size_t, size_t) {   \
    syr2k_call<T>({#NAME "_", SR}, *uplo, *trans, *n, *k, scalar_at<T>(alpha), in<T>(a), *lda, in<T>(b), *ldb,      \
                  scalar_at<T>(beta), out<T>(c), *ldc);                                                             \
  }
#define TRNBLAS_F77_TRIANGULAR(NAME, SR, T, P, TRMM)                                                                \
  void NAME##_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n, \
               const P* alpha, const P* a, const int* lda, P* b, const int* ldb, size_t, size_t, size_t, size_t) {   \
    triangular_call<T>({#NAME "_", SR}, TRMM, *side, *uplo, *transa, *diag, *m, *n, scalar_at<T>(alpha), in<T>(a),  \
                       *lda, out<T>(b), *ldb);                                                                      \
  }
#define TRNBLAS_F77_SYMM(NAME, SR, T, P, HERM)                                                                      \
  void NAME##_(const char* side, const char* uplo, const int* m, const int* n, const P* alpha, const P* a,          \
               const int* lda, const P* b, const int* ldb, const P* beta, P* c, const int* ldc, size_t, size_t) {   \
    symm_call<T>({#NAME "_", SR}, *side, *uplo, *m, *n, scalar_at<T>(alpha), in<T>(a), *lda, in<T>(b), *ldb,        \
                 scalar_at<T>(beta), out<T>(c), *ldc, HERM);                                                        \
  }
// CHERK/ZHERK: alpha and beta real; CHER2K/ZHER2K: alpha complex, beta real.
#define TRNBLAS_F77_HERK(P, SR, T, R)                                                                               \
  void P##herk_(const char* uplo, const char* trans, const int* n, const int* k, const R* alpha, const void* a,     \
                const int* lda, const R* beta, void* c, const int* ldc, size_t, size_t) {                           \
    herk_call<T>({#P "herk_", SR "HERK "}, *uplo, *trans, *n, *k, *alpha, in<T>(a), *lda, nullptr, *lda, T(0),      \
                 *beta, out<T>(c), *ldc, false);                                                                    \
  }                                                                                                                 \
  void P##her2k_(const char* uplo, const char* trans, const int* n, const int* k, const void* alpha, const void* a, \
                 const int* lda, const void* b, const int* ldb, const R* beta, void* c, const int* ldc, size_t,     \
                 size_t) {                                                                                          \
    herk_call<T>({#P "her2k_", SR "HER2K"}, *uplo, *trans, *n, *k, R(0), in<T>(a), *lda, in<T>(b), *ldb,            \
                 scalar_at<T>(alpha), *beta, out<T>(c), *ldc, true);                                                \
  }

TRNBLAS_F77_SYRK(ssyrk, "SSYRK ", float, float)
TRNBLAS_F77_SYRK(dsyrk, "DSYRK ", double, double)
TRNBLAS_F77_SYRK(csyrk, "CSYRK ", cfloat, void)
TRNBLAS_F77_SYRK(zsyrk, "ZSYRK ", cdouble, void)
TRNBLAS_F77_SYR2K(ssyr2k, "SSYR2K", float, float)
TRNBLAS_F77_SYR2K(dsyr2k, "DSYR2K", double, double)
TRNBLAS_F77_SYR2K(csyr2k, "CSYR2K", cfloat, void)
TRNBLAS_F77_SYR2K(zsyr2k, "ZSYR2K", cdouble, void)
TRNBLAS_F77_TRIANGULAR(strsm, "STRSM ", float, float, false)
TRNBLAS_F77_TRIANGULAR(dtrsm, "DTRSM ", double, double, false)
TRNBLAS_F77_TRIANGULAR(ctrsm, "CTRSM ", cfloat, void, false)
TRNBLAS_F77_TRIANGULAR(ztrsm, "ZTRSM ", cdouble, void, false)
TRNBLAS_F77_TRIANGULAR(strmm, "STRMM ", float, float, true)
TRNBLAS_F77_TRIANGULAR(dtrmm, "DTRMM ", double, double, true)
TRNBLAS_F77_TRIANGULAR(ctrmm, "CTRMM ", cfloat, void, true)
TRNBLAS_F77_TRIANGULAR(ztrmm, "ZTRMM ", cdouble, void, true)
TRNBLAS_F77_SYMM(ssymm, "SSYMM ", float, float, false)
TRNBLAS_F77_SYMM(dsymm, "DSYMM ", double, double, false)
TRNBLAS_F77_SYMM(csymm, "CSYMM ", cfloat, void, false)
TRNBLAS_F77_SYMM(zsymm, "ZSYMM ", cdouble, void, false)
TRNBLAS_F77_SYMM(chemm, "CHEMM ", cfloat, void, true)
TRNBLAS_F77_SYMM(zhemm, "ZHEMM ", cdouble, void, true)
TRNBLAS_F77_HERK(c, "C", cfloat, float)
TRNBLAS_F77_HERK(z, "Z", cdouble, double)

}  // extern "C"
