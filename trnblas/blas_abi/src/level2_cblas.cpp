// libtrnblas_blas.so, Level 2: the CBLAS entry points, layouts as reference CBLAS maps them
// (cblas_sgemv.c, cblas_ssymv.c, cblas_strmv.c, cblas_cgemv.c, cblas_chemv.c, cblas_cgerc.c,
// cblas_cher.c, cblas_cher2.c, ...). Row-major A is column-major B = A^T: GEMV/GBMV flip trans and
// swap m/n (and kl/ku); GER swaps m/n and x/y; symmetric and triangular routines swap uplo,
// triangular ones also flip trans. For complex data B = A^T is, for a Hermitian A, conj(A) with the
// other triangle stored; the conjugations this needs are sign flips of imaginary parts (exact, no
// arithmetic), done on the host side as reference CBLAS does: of a contiguous copy of x (and y for
// HER2), and of y or x in place around the call. Real routines take scalars by value, complex ones
// by pointer (S: T or const void*, read after the layout check).
#include <vector>

#include "level12_calls.hpp"

namespace trnblas_abi {
namespace {

// A contiguous conjugated copy of the n-vector x (walk order kept: a negative increment is walked
// backwards). incx == 0 is an argument error reported by the routine, so x is passed unchanged.
template <class T>
struct ConjCopy {
  std::vector<T> data;
  const T* ptr;
  int inc;
  ConjCopy(int n, const T* x, int incx) : ptr(x), inc(incx) {
    if (incx == 0 || n <= 0 || x == nullptr) return;
    data.resize(static_cast<std::size_t>(n));
    const std::int64_t step = incx, start = incx < 0 ? -(static_cast<std::int64_t>(n) - 1) * step : 0;
    for (std::int64_t i = 0; i < n; ++i) data[static_cast<std::size_t>(i)] = std::conj(x[start + i * step]);
    ptr = data.data();
    inc = 1;
  }
};
template <class T>
void conj_in_place(int n, T* y, int incy) {
  if (incy == 0 || n <= 0 || y == nullptr) return;
  const std::int64_t step = incy < 0 ? -static_cast<std::int64_t>(incy) : incy;
  for (std::int64_t i = 0; i < n; ++i) y[i * step] = std::conj(y[i * step]);
}

// GEMV and GBMV (band). Row-major: A x = B^T x, A^T x = B x, A^H x = conj(B) x (real data: C is T).
template <class T, class S>
void cblas_gemv(const char* symbol, const char* srname, bool band, int layout, int trans, int m, int n, int kl, int ku,
                S alpha, const T* A, int lda, const T* x, int incx, S beta, T* y, int incy) {
  CblasArgs call(symbol, srname, layout);
  if (!call) return;
  const T al = scalar_value<T>(alpha), be = scalar_value<T>(beta);
  const char t = call.trans(trans, 2, "Illegal TransA setting, %d\n");
  if (!call) return;
  const Entry& e = call.entry();
  if (!call.row()) return gemv_call<T>(e, t, m, n, kl, ku, al, A, lda, x, incx, be, y, incy, band);
  const bool conj_n = is_complex_v<T> && t == 'C';
  gemv_call<T>(e, t == 'N' ? 'T' : 'N', n, m, ku, kl, al, A, lda, x, incx, be, y, incy, band, conj_n);
}

// SYMV/SBMV/SPMV and HEMV/HBMV/HPMV (kind 0, 1, 2). Complex row-major: A x = conj(B conj(x)), so
// conj(y) = conj(alpha) B conj(x) + conj(beta) conj(y).
template <class T, class S>
void cblas_symv(const char* symbol, const char* srname, int kind, int layout, int uplo, int n, int k, S alpha,
                const T* A, int lda, const T* x, int incx, S beta, T* y, int incy) {
  CblasArgs call(symbol, srname, layout);
  const char ul = call.uplo(uplo, 2);
  if (!call) return;
  const Entry& e = call.entry();
  const T al = scalar_value<T>(alpha), be = scalar_value<T>(beta);
  if constexpr (is_complex_v<T>) {
    if (call.row()) {
      const ConjCopy<T> cx(n, x, incx);
      conj_in_place(n, y, incy);
      symv_call<T>(e, kind, ul, n, k, std::conj(al), A, lda, cx.ptr, cx.inc, std::conj(be), y, incy);
      conj_in_place(n, y, incy);
      return;
    }
  }
  symv_call<T>(e, kind, ul, n, k, al, A, lda, x, incx, be, y, incy);
}

// TRMV/TRSV/TBMV/TBSV/TPMV/TPSV (kind 0, 1, 2; solve). Row-major: uplo swaps, N becomes T, T
// becomes N; complex C becomes N on conjugated data: op(A) x = conj(B conj(x)) with B = A^T as
// stored, so x is conjugated in place before and after the call (sign flips: exact).
template <class T>
void cblas_tr(const char* symbol, const char* srname, int kind, bool solve, int layout, int uplo, int trans, int diag,
              int n, int k, const T* A, int lda, T* x, int incx) {
  CblasArgs call(symbol, srname, layout);
  const char ul = call.uplo(uplo, 2), t = call.trans(trans, 3, "Illegal TransA setting, %d\n"), dg = call.diag(diag, 4);
  if (!call) return;
  const Entry& e = call.entry();
  if (!call.row()) return tr_call<T>(e, kind, solve, ul, t, dg, n, k, A, lda, x, incx);
  if constexpr (is_complex_v<T>) {
    if (t == 'C') {
      conj_in_place(n, x, incx);
      tr_call<T>(e, kind, solve, ul, 'N', dg, n, k, A, lda, x, incx);
      conj_in_place(n, x, incx);
      return;
    }
  }
  tr_call<T>(e, kind, solve, ul, t == 'N' ? 'T' : 'N', dg, n, k, A, lda, x, incx);
}

// GER, GERU and GERC (conjugate). Row-major GER/GERU: B += alpha y x^T; GERC: A += alpha x y^H is
// B += alpha conj(y) x^T (a GERU).
template <class T, class S>
void cblas_ger(const char* symbol, const char* srname, bool conjugate, int layout, int m, int n, S alpha, const T* x,
               int incx, const T* y, int incy, T* A, int lda) {
  CblasArgs call(symbol, srname, layout);
  if (!call) return;
  const Entry& e = call.entry();
  const T al = scalar_value<T>(alpha);
  if (!call.row()) return ger_call<T>(e, conjugate, m, n, al, x, incx, y, incy, A, lda);
  if constexpr (is_complex_v<T>) {
    if (conjugate) {
      const ConjCopy<T> cy(n, y, incy);
      return ger_call<T>(e, false, n, m, al, cy.ptr, cy.inc, x, incx, A, lda);
    }
  }
  ger_call<T>(e, false, n, m, al, y, incy, x, incx, A, lda);
}

// SYR/SPR/SYR2/SPR2 and HER/HPR/HER2/HPR2 (packed, two; alpha of type A). Complex row-major HER/HPR:
// B += alpha conj(x) conj(x)^H; HER2/HPR2: B += alpha conj(y) conj(x)^H + conj(alpha) conj(x)
// conj(y)^H, i.e. HER2 with x and y swapped and conjugated.
template <class T, class A>
void cblas_syr(const char* symbol, const char* srname, bool packed, bool two, int layout, int uplo, int n, A alpha,
               const T* x, int incx, const T* y, int incy, T* a, int lda) {
  CblasArgs call(symbol, srname, layout);
  const char ul = call.uplo(uplo, 2);
  if (!call) return;
  const Entry& e = call.entry();
  if constexpr (is_complex_v<T>) {
    if (call.row()) {
      const ConjCopy<T> cx(n, x, incx);
      if (!two) return syr_call<T, A>(e, packed, false, ul, n, alpha, cx.ptr, cx.inc, nullptr, 1, a, lda);
      const ConjCopy<T> cy(n, y, incy);
      return syr_call<T, A>(e, packed, true, ul, n, alpha, cy.ptr, cy.inc, cx.ptr, cx.inc, a, lda);
    }
  }
  syr_call<T, A>(e, packed, two, ul, n, alpha, x, incx, y, incy, a, lda);
}

}  // namespace
}  // namespace trnblas_abi

using namespace trnblas_abi;  // NOLINT: what follows only defines the extern "C" entry points

extern "C" {

// P the type prefix, T the data type, SR the XERBLA prefix, S the scalar parameter type (T, or
// const void* for complex), V the array element type of the signature (T, or void for complex).
#define TRNBLAS_CBLAS_L2_GENERAL(P, T, SR, S, V)                                                                    \
  void cblas_##P##gemv(int layout, int trans, int m, int n, S alpha, const V* a, int lda, const V* x, int incx,     \
                       S beta, V* y, int incy) {                                                                    \
    cblas_gemv<T, S>("cblas_" #P "gemv", SR "GEMV ", false, layout, trans, m, n, 0, 0, alpha, in<T>(a), lda,        \
                     in<T>(x), incx, beta, out<T>(y), incy);                                                        \
  }                                                                                                                 \
  void cblas_##P##gbmv(int layout, int trans, int m, int n, int kl, int ku, S alpha, const V* a, int lda,          \
                       const V* x, int incx, S beta, V* y, int incy) {                                              \
    cblas_gemv<T, S>("cblas_" #P "gbmv", SR "GBMV ", true, layout, trans, m, n, kl, ku, alpha, in<T>(a), lda,       \
                     in<T>(x), incx, beta, out<T>(y), incy);                                                        \
  }
#define TRNBLAS_CBLAS_L2_TRIANGULAR(P, T, SR, V)                                                                    \
  void cblas_##P##trmv(int layout, int uplo, int trans, int diag, int n, const V* a, int lda, V* x, int incx) {     \
    cblas_tr<T>("cblas_" #P "trmv", SR "TRMV ", 0, false, layout, uplo, trans, diag, n, 0, in<T>(a), lda, out<T>(x), \
                incx);                                                                                              \
  }                                                                                                                 \
  void cblas_##P##trsv(int layout, int uplo, int trans, int diag, int n, const V* a, int lda, V* x, int incx) {     \
    cblas_tr<T>("cblas_" #P "trsv", SR "TRSV ", 0, true, layout, uplo, trans, diag, n, 0, in<T>(a), lda, out<T>(x), \
                incx);                                                                                              \
  }                                                                                                                 \
  void cblas_##P##tbmv(int layout, int uplo, int trans, int diag, int n, int k, const V* a, int lda, V* x,          \
                       int incx) {                                                                                  \
    cblas_tr<T>("cblas_" #P "tbmv", SR "TBMV ", 1, false, layout, uplo, trans, diag, n, k, in<T>(a), lda, out<T>(x), \
                incx);                                                                                              \
  }                                                                                                                 \
  void cblas_##P##tbsv(int layout, int uplo, int trans, int diag, int n, int k, const V* a, int lda, V* x,          \
                       int incx) {                                                                                  \
    cblas_tr<T>("cblas_" #P "tbsv", SR "TBSV ", 1, true, layout, uplo, trans, diag, n, k, in<T>(a), lda, out<T>(x), \
                incx);                                                                                              \
  }                                                                                                                 \
  void cblas_##P##tpmv(int layout, int uplo, int trans, int diag, int n, const V* ap, V* x, int incx) {             \
    cblas_tr<T>("cblas_" #P "tpmv", SR "TPMV ", 2, false, layout, uplo, trans, diag, n, 0, in<T>(ap), 1, out<T>(x),  \
                incx);                                                                                              \
  }                                                                                                                 \
  void cblas_##P##tpsv(int layout, int uplo, int trans, int diag, int n, const V* ap, V* x, int incx) {             \
    cblas_tr<T>("cblas_" #P "tpsv", SR "TPSV ", 2, true, layout, uplo, trans, diag, n, 0, in<T>(ap), 1, out<T>(x),   \
                incx);                                                                                              \
  }
// SYMV/SBMV/SPMV (real) and HEMV/HBMV/HPMV (complex): DENSE, BAND, PACKED the symbols without
// "cblas_", UD, UB, UP the rest of the XERBLA names.
#define TRNBLAS_CBLAS_L2_SYMV(T, SR, S, V, DENSE, BAND, PACKED, UD, UB, UP)                                         \
  void cblas_##DENSE(int layout, int uplo, int n, S alpha, const V* a, int lda, const V* x, int incx, S beta, V* y, \
                     int incy) {                                                                                    \
    cblas_symv<T, S>("cblas_" #DENSE, SR UD, 0, layout, uplo, n, 0, alpha, in<T>(a), lda, in<T>(x), incx, beta,     \
                     out<T>(y), incy);                                                                              \
  }                                                                                                                 \
  void cblas_##BAND(int layout, int uplo, int n, int k, S alpha, const V* a, int lda, const V* x, int incx, S beta, \
                    V* y, int incy) {                                                                               \
    cblas_symv<T, S>("cblas_" #BAND, SR UB, 1, layout, uplo, n, k, alpha, in<T>(a), lda, in<T>(x), incx, beta,      \
                     out<T>(y), incy);                                                                              \
  }                                                                                                                 \
  void cblas_##PACKED(int layout, int uplo, int n, S alpha, const V* ap, const V* x, int incx, S beta, V* y,        \
                      int incy) {                                                                                   \
    cblas_symv<T, S>("cblas_" #PACKED, SR UP, 2, layout, uplo, n, 0, alpha, in<T>(ap), 1, in<T>(x), incx, beta,     \
                     out<T>(y), incy);                                                                              \
  }
// GER (real), GERU and GERC (complex).
#define TRNBLAS_CBLAS_L2_GER(NAME, SRNAME, T, S, V, CONJ)                                                           \
  void cblas_##NAME(int layout, int m, int n, S alpha, const V* x, int incx, const V* y, int incy, V* a, int lda) { \
    cblas_ger<T, S>("cblas_" #NAME, SRNAME, CONJ, layout, m, n, alpha, in<T>(x), incx, in<T>(y), incy, out<T>(a),   \
                    lda);                                                                                           \
  }
// SYR/SPR/SYR2/SPR2 (real) and HER/HPR/HER2/HPR2 (complex): R1 and P1 take alpha of type A (by
// value: real for HER/HPR), R2 and P2 of type S.
#define TRNBLAS_CBLAS_L2_RANK(T, A, SR, S, V, R1, P1, R2, P2, U1, UP1, U2, UP2)                                     \
  void cblas_##R1(int layout, int uplo, int n, A alpha, const V* x, int incx, V* a, int lda) {                      \
    cblas_syr<T, A>("cblas_" #R1, SR U1, false, false, layout, uplo, n, alpha, in<T>(x), incx, nullptr, 1,          \
                    out<T>(a), lda);                                                                                \
  }                                                                                                                 \
  void cblas_##P1(int layout, int uplo, int n, A alpha, const V* x, int incx, V* ap) {                              \
    cblas_syr<T, A>("cblas_" #P1, SR UP1, true, false, layout, uplo, n, alpha, in<T>(x), incx, nullptr, 1,          \
                    out<T>(ap), 1);                                                                                 \
  }                                                                                                                 \
  void cblas_##R2(int layout, int uplo, int n, S alpha, const V* x, int incx, const V* y, int incy, V* a,           \
                  int lda) {                                                                                        \
    cblas_syr<T, T>("cblas_" #R2, SR U2, false, true, layout, uplo, n, scalar_value<T>(alpha), in<T>(x), incx,      \
                    in<T>(y), incy, out<T>(a), lda);                                                                \
  }                                                                                                                 \
  void cblas_##P2(int layout, int uplo, int n, S alpha, const V* x, int incx, const V* y, int incy, V* ap) {        \
    cblas_syr<T, T>("cblas_" #P2, SR UP2, true, true, layout, uplo, n, scalar_value<T>(alpha), in<T>(x), incx,      \
                    in<T>(y), incy, out<T>(ap), 1);                                                                 \
  }

TRNBLAS_CBLAS_L2_GENERAL(s, float, "S", float, float)
TRNBLAS_CBLAS_L2_GENERAL(d, double, "D", double, double)
TRNBLAS_CBLAS_L2_GENERAL(c, cfloat, "C", const void*, void)
TRNBLAS_CBLAS_L2_GENERAL(z, cdouble, "Z", const void*, void)
TRNBLAS_CBLAS_L2_TRIANGULAR(s, float, "S", float)
TRNBLAS_CBLAS_L2_TRIANGULAR(d, double, "D", double)
TRNBLAS_CBLAS_L2_TRIANGULAR(c, cfloat, "C", void)
TRNBLAS_CBLAS_L2_TRIANGULAR(z, cdouble, "Z", void)
TRNBLAS_CBLAS_L2_SYMV(float, "S", float, float, ssymv, ssbmv, sspmv, "SYMV ", "SBMV ", "SPMV ")
TRNBLAS_CBLAS_L2_SYMV(double, "D", double, double, dsymv, dsbmv, dspmv, "SYMV ", "SBMV ", "SPMV ")
TRNBLAS_CBLAS_L2_SYMV(cfloat, "C", const void*, void, chemv, chbmv, chpmv, "HEMV ", "HBMV ", "HPMV ")
TRNBLAS_CBLAS_L2_SYMV(cdouble, "Z", const void*, void, zhemv, zhbmv, zhpmv, "HEMV ", "HBMV ", "HPMV ")
TRNBLAS_CBLAS_L2_GER(sger, "SGER  ", float, float, float, false)
TRNBLAS_CBLAS_L2_GER(dger, "DGER  ", double, double, double, false)
TRNBLAS_CBLAS_L2_GER(cgeru, "CGERU ", cfloat, const void*, void, false)
TRNBLAS_CBLAS_L2_GER(zgeru, "ZGERU ", cdouble, const void*, void, false)
TRNBLAS_CBLAS_L2_GER(cgerc, "CGERC ", cfloat, const void*, void, true)
TRNBLAS_CBLAS_L2_GER(zgerc, "ZGERC ", cdouble, const void*, void, true)
TRNBLAS_CBLAS_L2_RANK(float, float, "S", float, float, ssyr, sspr, ssyr2, sspr2, "SYR  ", "SPR  ", "SYR2 ", "SPR2 ")
TRNBLAS_CBLAS_L2_RANK(double, double, "D", double, double, dsyr, dspr, dsyr2, dspr2, "SYR  ", "SPR  ", "SYR2 ", "SPR2 ")
TRNBLAS_CBLAS_L2_RANK(cfloat, float, "C", const void*, void, cher, chpr, cher2, chpr2, "HER  ", "HPR  ", "HER2 ", "HPR2 ")
TRNBLAS_CBLAS_L2_RANK(cdouble, double, "Z", const void*, void, zher, zhpr, zher2, zhpr2, "HER  ", "HPR  ", "HER2 ",
                      "HPR2 ")

}  // extern "C"
