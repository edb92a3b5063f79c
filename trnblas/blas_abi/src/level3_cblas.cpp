// libtrnblas_blas.so, Level 3: the CBLAS entry points (enums passed as int: the same ABI as
// reference cblas.h's enum parameters). A row-major call is the column-major call on the transposed
// storage, as reference CBLAS maps it (cblas_sgemm.c, cblas_ssyrk.c, cblas_strsm.c, ...): operands
// and dimensions swap, triangles and sides mirror.
#include "level3_calls.hpp"

namespace trnblas_abi {
namespace {

// Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: swap the operands and m/n.
// S: T, or const void* for complex scalars (read after the checks, as CGEMM does).
template <class T, class S>
void cblas_gemm(const char* symbol, const char* srname, int layout, int transa, int transb, int m, int n, int k,
                S alpha, const T* A, int lda, const T* B, int ldb, S beta, T* C, int ldc) {
  CblasArgs call(symbol, srname, layout);
  const char ta = call.trans(transa, 2, "Illegal TransA setting, %d\n"), tb = call.trans(transb, 3, "Illegal TransB setting, %d\n");
  if (!call) return;
  if (!call.row())
    gemm_call<T, S>(call.entry(), ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  else
    gemm_call<T, S>(call.entry(), tb, ta, n, m, k, alpha, B, ldb, A, lda, beta, C, ldc);
}

// SYRK (two: SYR2K). Row-major: the upper triangle of C is the lower triangle of C^T, and A A^T of a
// row-major A is A^T A of the same memory read column-major. (Reference CBLAS reports a bad
// row-major uplo as parameter 3; uplo is parameter 2 in both layouts, which is what this library
// reports.)
template <class T>
void cblas_rank_k(const char* symbol, const char* srname, bool two, int layout, int uplo, int trans, int n, int k,
                  T alpha, const T* A, int lda, const T* B, int ldb, T beta, T* C, int ldc) {
  CblasArgs call(symbol, srname, layout);
  const char ul = call.uplo(uplo, 2), tr = call.trans(trans, 3, "Illegal Trans setting, %d\n");
  if (!call) return;
  const char t = call.row() ? (tr == 'N' ? 'T' : 'N') : tr;
  if (two)
    syr2k_call<T>(call.entry(), ul, t, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  else
    syrk_call<T>(call.entry(), ul, t, n, k, alpha, A, lda, beta, C, ldc);
}

// Reference CBLAS's cblas_?trsm.c / cblas_?trmm.c: row-major swaps side and uplo and m/n; the
// enums are parameters 2-5 (layout is 1).
template <class T>
void cblas_triangular(const char* symbol, const char* srname, bool trmm, int layout, int side, int uplo, int transa,
                      int diag, int m, int n, T alpha, const T* A, int lda, T* B, int ldb) {
  CblasArgs call(symbol, srname, layout);
  const char sd = call.side(side, 2), ul = call.uplo(uplo, 3), ta = call.trans(transa, 4, "Illegal Trans setting, %d\n"),
             dg = call.diag(diag, 5);
  if (!call) return;
  if (call.row())
    triangular_call<T>(call.entry(), trmm, sd, ul, ta, dg, n, m, alpha, A, lda, B, ldb);
  else
    triangular_call<T>(call.entry(), trmm, sd, ul, ta, dg, m, n, alpha, A, lda, B, ldb);
}

// cblas_?symm.c: row-major swaps side, uplo and m/n. cblas_?hemm.c maps the same way: the stored
// Hermitian A read column-major is A^T = conj(A), itself Hermitian in the other triangle.
template <class T>
void cblas_symm(const char* symbol, const char* srname, bool herm, int layout, int side, int uplo, int m, int n,
                T alpha, const T* A, int lda, const T* B, int ldb, T beta, T* C, int ldc) {
  CblasArgs call(symbol, srname, layout);
  const char sd = call.side(side, 2), ul = call.uplo(uplo, 3);
  if (!call) return;
  if (call.row())
    symm_call<T>(call.entry(), sd, ul, n, m, alpha, A, lda, B, ldb, beta, C, ldc, herm);
  else
    symm_call<T>(call.entry(), sd, ul, m, n, alpha, A, lda, B, ldb, beta, C, ldc, herm);
}

// cblas_?herk.c / cblas_?her2k.c: row-major swaps uplo and trans N <-> C (CblasTrans is rejected
// as parameter 3 in both layouts); C^T = conj(C) turns her2k's alpha into conj(alpha).
template <class T>
void cblas_herk(const char* symbol, const char* srname, bool two, int layout, int uplo, int trans, int n, int k,
                real_t<T> alpha, const T* A, int lda, const T* B, int ldb, T alpha2, real_t<T> beta, T* C, int ldc) {
  CblasArgs call(symbol, srname, layout);
  const char ul = call.uplo(uplo, 2), tr = call.herk_trans(trans, 3);
  if (!call) return;
  herk_call<T>(call.entry(), ul, tr, n, k, alpha, A, lda, B, ldb, call.row() ? std::conj(alpha2) : alpha2, beta, C, ldc, two);
}

}  // namespace
}  // namespace trnblas_abi

using namespace trnblas_abi;  // NOLINT: what follows only defines the extern "C" entry points

extern "C" {

void cblas_sgemm(int layout, int transa, int transb, int m, int n, int k, float alpha, const float* A, int lda,
                 const float* B, int ldb, float beta, float* C, int ldc) {
  cblas_gemm<float, float>("cblas_sgemm", "SGEMM ", layout, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                           ldc);
}
void cblas_dgemm(int layout, int transa, int transb, int m, int n, int k, double alpha, const double* A, int lda,
                 const double* B, int ldb, double beta, double* C, int ldc) {
  cblas_gemm<double, double>("cblas_dgemm", "DGEMM ", layout, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                             ldc);
}
void cblas_cgemm(int layout, int transa, int transb, int m, int n, int k, const void* alpha, const void* A, int lda,
                 const void* B, int ldb, const void* beta, void* C, int ldc) {
  cblas_gemm<cfloat, const void*>("cblas_cgemm", "CGEMM ", layout, transa, transb, m, n, k, alpha, in<cfloat>(A), lda,
                                  in<cfloat>(B), ldb, beta, out<cfloat>(C), ldc);
}
void cblas_zgemm(int layout, int transa, int transb, int m, int n, int k, const void* alpha, const void* A, int lda,
                 const void* B, int ldb, const void* beta, void* C, int ldc) {
  cblas_gemm<cdouble, const void*>("cblas_zgemm", "ZGEMM ", layout, transa, transb, m, n, k, alpha, in<cdouble>(A),
                                   lda, in<cdouble>(B), ldb, beta, out<cdouble>(C), ldc);
}

// One macro per routine shape: NAME the symbol without "cblas_", SR the XERBLA name, T the data
// type, S the scalar parameter type (T, or const void* for complex scalars, read at the call), P the
// pointer type of the arrays (T or void).
#define TRNBLAS_CBLAS_SYRK(NAME, SR, T, S, P)                                                                       \
  void cblas_##NAME(int layout, int uplo, int trans, int n, int k, S alpha, const P* A, int lda, S beta, P* C,      \
                    int ldc) {                                                                                      \
    cblas_rank_k<T>("cblas_" #NAME, SR, false, layout, uplo, trans, n, k, scalar_value<T>(alpha), in<T>(A), lda,    \
                    nullptr, 0, scalar_value<T>(beta), out<T>(C), ldc);                                             \
  }
#define TRNBLAS_CBLAS_SYR2K(NAME, SR, T, S, P)                                                                      \
  void cblas_##NAME(int layout, int uplo, int trans, int n, int k, S alpha, const P* A, int lda, const P* B,        \
                    int ldb, S beta, P* C, int ldc) {                                                               \
    cblas_rank_k<T>("cblas_" #NAME, SR, true, layout, uplo, trans, n, k, scalar_value<T>(alpha), in<T>(A), lda,     \
                    in<T>(B), ldb, scalar_value<T>(beta), out<T>(C), ldc);                                          \
  }
#define TRNBLAS_CBLAS_TRIANGULAR(NAME, SR, T, S, P, TRMM)                                                           \
  void cblas_##NAME(int layout, int side, int uplo, int transa, int diag, int m, int n, S alpha, const P* A,        \
                    int lda, P* B, int ldb) {                                                                       \
    cblas_triangular<T>("cblas_" #NAME, SR, TRMM, layout, side, uplo, transa, diag, m, n, scalar_value<T>(alpha),   \
                        in<T>(A), lda, out<T>(B), ldb);                                                             \
  }
#define TRNBLAS_CBLAS_SYMM(NAME, SR, T, S, P, HERM)                                                                 \
  void cblas_##NAME(int layout, int side, int uplo, int m, int n, S alpha, const P* A, int lda, const P* B,         \
                    int ldb, S beta, P* C, int ldc) {                                                               \
    cblas_symm<T>("cblas_" #NAME, SR, HERM, layout, side, uplo, m, n, scalar_value<T>(alpha), in<T>(A), lda,        \
                  in<T>(B), ldb, scalar_value<T>(beta), out<T>(C), ldc);                                            \
  }
#define TRNBLAS_CBLAS_HERK(P, SR, T, R)                                                                             \
  void cblas_##P##herk(int layout, int uplo, int trans, int n, int k, R alpha, const void* A, int lda, R beta,      \
                       void* C, int ldc) {                                                                          \
    cblas_herk<T>("cblas_" #P "herk", SR "HERK ", false, layout, uplo, trans, n, k, alpha, in<T>(A), lda, nullptr,  \
                  lda, T(0), beta, out<T>(C), ldc);                                                                 \
  }                                                                                                                 \
  void cblas_##P##her2k(int layout, int uplo, int trans, int n, int k, const void* alpha, const void* A, int lda,   \
                        const void* B, int ldb, R beta, void* C, int ldc) {                                         \
    cblas_herk<T>("cblas_" #P "her2k", SR "HER2K", true, layout, uplo, trans, n, k, R(0), in<T>(A), lda, in<T>(B),  \
                  ldb, scalar_at<T>(alpha), beta, out<T>(C), ldc);                                                  \
  }

TRNBLAS_CBLAS_SYRK(ssyrk, "SSYRK ", float, float, float)
TRNBLAS_CBLAS_SYRK(dsyrk, "DSYRK ", double, double, double)
TRNBLAS_CBLAS_SYRK(csyrk, "CSYRK ", cfloat, const void*, void)
TRNBLAS_CBLAS_SYRK(zsyrk, "ZSYRK ", cdouble, const void*, void)
TRNBLAS_CBLAS_SYR2K(ssyr2k, "SSYR2K", float, float, float)
TRNBLAS_CBLAS_SYR2K(dsyr2k, "DSYR2K", double, double, double)
TRNBLAS_CBLAS_SYR2K(csyr2k, "CSYR2K", cfloat, const void*, void)
TRNBLAS_CBLAS_SYR2K(zsyr2k, "ZSYR2K", cdouble, const void*, void)
TRNBLAS_CBLAS_TRIANGULAR(strsm, "STRSM ", float, float, float, false)
TRNBLAS_CBLAS_TRIANGULAR(dtrsm, "DTRSM ", double, double, double, false)
TRNBLAS_CBLAS_TRIANGULAR(ctrsm, "CTRSM ", cfloat, const void*, void, false)
TRNBLAS_CBLAS_TRIANGULAR(ztrsm, "ZTRSM ", cdouble, const void*, void, false)
TRNBLAS_CBLAS_TRIANGULAR(strmm, "STRMM ", float, float, float, true)
TRNBLAS_CBLAS_TRIANGULAR(dtrmm, "DTRMM ", double, double, double, true)
TRNBLAS_CBLAS_TRIANGULAR(ctrmm, "CTRMM ", cfloat, const void*, void, true)
TRNBLAS_CBLAS_TRIANGULAR(ztrmm, "ZTRMM ", cdouble, const void*, void, true)
TRNBLAS_CBLAS_SYMM(ssymm, "SSYMM ", float, float, float, false)
TRNBLAS_CBLAS_SYMM(dsymm, "DSYMM ", double, double, double, false)
TRNBLAS_CBLAS_SYMM(csymm, "CSYMM ", cfloat, const void*, void, false)
TRNBLAS_CBLAS_SYMM(zsymm, "ZSYMM ", cdouble, const void*, void, false)
TRNBLAS_CBLAS_SYMM(chemm, "CHEMM ", cfloat, const void*, void, true)
TRNBLAS_CBLAS_SYMM(zhemm, "ZHEMM ", cdouble, const void*, void, true)
TRNBLAS_CBLAS_HERK(c, "C", cfloat, float)
TRNBLAS_CBLAS_HERK(z, "Z", cdouble, double)

}  // extern "C"
