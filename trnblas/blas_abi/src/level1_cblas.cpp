// libtrnblas_blas.so, Level 1: the CBLAS entry points (no layout: the Fortran-level calls directly).
// Real routines take scalars by value, complex ones by pointer (reference cblas.h).
#include "level12_calls.hpp"

using namespace trnblas_abi;  // NOLINT: this file only defines the extern "C" entry points

extern "C" {

// P the type prefix, T the data type, R its real type, RP the prefix of ?ROT, NRM, ASUM and IAMAX
// the names of the reductions; S the scalar parameter type (T, or const void* for complex) and V
// the vector element type of the signature (T, or void for complex).
#define TRNBLAS_CBLAS_L1(P, T, R, RP, NRM, ASUM, IAMAX, S, V)                                                       \
  void cblas_##P##axpy(int n, S alpha, const V* x, int incx, V* y, int incy) {                                      \
    axpy_call<T>({"cblas_" #P "axpy", "", true}, n, scalar_value<T>(alpha), in<T>(x), incx, out<T>(y), incy);       \
  }                                                                                                                 \
  void cblas_##P##scal(int n, S alpha, V* x, int incx) {                                                            \
    scal_call<T>({"cblas_" #P "scal", "", true}, n, scalar_value<T>(alpha), out<T>(x), incx);                       \
  }                                                                                                                 \
  void cblas_##P##copy(int n, const V* x, int incx, V* y, int incy) {                                               \
    copy_call<T>({"cblas_" #P "copy", "", true}, n, in<T>(x), incx, out<T>(y), incy);                               \
  }                                                                                                                 \
  void cblas_##P##swap(int n, V* x, int incx, V* y, int incy) {                                                     \
    swap_call<T>({"cblas_" #P "swap", "", true}, n, out<T>(x), incx, out<T>(y), incy);                              \
  }                                                                                                                 \
  void cblas_##RP##rot(int n, T* x, int incx, T* y, int incy, R c, R s) {                                           \
    rot_call<T>({"cblas_" #RP "rot", "", true}, n, x, incx, y, incy, c, s);                                         \
  }                                                                                                                 \
  R cblas_##NRM(int n, const T* x, int incx) { return nrm2_call<T>({"cblas_" #NRM, "", true}, n, x, incx); }         \
  R cblas_##ASUM(int n, const T* x, int incx) { return asum_call<T>({"cblas_" #ASUM, "", true}, n, x, incx); }       \
  /* CBLAS_INDEX (size_t), 0-based: reference cblas_isamax.c returns iamax - 1, or 0 */                            \
  size_t cblas_##IAMAX(int n, const T* x, int incx) {                                                               \
    const int i = iamax_call<T>({"cblas_" #IAMAX, "", true}, n, x, incx);                                          \
    return i > 0 ? static_cast<size_t>(i - 1) : 0;                                                                  \
  }

TRNBLAS_CBLAS_L1(s, float, float, s, snrm2, sasum, isamax, float, float)
TRNBLAS_CBLAS_L1(d, double, double, d, dnrm2, dasum, idamax, double, double)
TRNBLAS_CBLAS_L1(c, cfloat, float, cs, scnrm2, scasum, icamax, const void*, void)
TRNBLAS_CBLAS_L1(z, cdouble, double, zd, dznrm2, dzasum, izamax, const void*, void)

float cblas_sdot(int n, const float* x, int incx, const float* y, int incy) {
  return dot_call<float>({"cblas_sdot", "", true}, false, n, x, incx, y, incy);
}
double cblas_ddot(int n, const double* x, int incx, const double* y, int incy) {
  return dot_call<double>({"cblas_ddot", "", true}, false, n, x, incx, y, incy);
}

// Complex only: DOTU/DOTC (results through a pointer) and the real-scalar SCAL (CSSCAL, ZDSCAL).
#define TRNBLAS_CBLAS_L1_COMPLEX(P, T, R, RS)                                                                       \
  void cblas_##P##dotu_sub(int n, const void* x, int incx, const void* y, int incy, void* dot) {                   \
    *out<T>(dot) = dot_call<T>({"cblas_" #P "dotu_sub", "", true}, false, n, in<T>(x), incx, in<T>(y), incy);       \
  }                                                                                                                 \
  void cblas_##P##dotc_sub(int n, const void* x, int incx, const void* y, int incy, void* dot) {                   \
    *out<T>(dot) = dot_call<T>({"cblas_" #P "dotc_sub", "", true}, true, n, in<T>(x), incx, in<T>(y), incy);        \
  }                                                                                                                 \
  void cblas_##RS##scal(int n, R alpha, void* x, int incx) {                                                        \
    scal_call<T>({"cblas_" #RS "scal", "", true}, n, alpha, out<T>(x), incx);                                      \
  }

TRNBLAS_CBLAS_L1_COMPLEX(c, cfloat, float, cs)
TRNBLAS_CBLAS_L1_COMPLEX(z, cdouble, double, zd)

// SDSDOT and DSDOT (reference cblas.h: cblas_sdsdot(N, alpha, X, incX, Y, incY)).
float cblas_sdsdot(int n, float alpha, const float* x, int incx, const float* y, int incy) {
  return static_cast<float>(dsdot_call({"cblas_sdsdot", "", true}, &alpha, n, x, incx, y, incy));
}
double cblas_dsdot(int n, const float* x, int incx, const float* y, int incy) {
  return dsdot_call({"cblas_dsdot", "", true}, nullptr, n, x, incx, y, incy);
}

// Plane rotation setups and the modified rotation (reference cblas.h's cblas_crotg/zrotg take void
// pointers).
#define TRNBLAS_CBLAS_ROT(P, T)                                                                                     \
  void cblas_##P##rotg(T* a, T* b, T* c, T* s) { rotg_call<T>({"cblas_" #P "rotg", "", true}, a, b, c, s); }        \
  void cblas_##P##rotm(int n, T* x, int incx, T* y, int incy, const T* param) {                                     \
    rotm_call<T>({"cblas_" #P "rotm", "", true}, n, x, incx, y, incy, param);                                       \
  }                                                                                                                 \
  void cblas_##P##rotmg(T* d1, T* d2, T* x1, T y1, T* param) {                                                      \
    rotmg_call<T>({"cblas_" #P "rotmg", "", true}, d1, d2, x1, y1, param);                                          \
  }
#define TRNBLAS_CBLAS_CROTG(P, T, R)                                                                                \
  void cblas_##P##rotg(void* a, void* b, R* c, void* s) {                                                           \
    rotg_call<T>({"cblas_" #P "rotg", "", true}, out<T>(a), in<T>(b), c, out<T>(s));                               \
  }

TRNBLAS_CBLAS_ROT(s, float)
TRNBLAS_CBLAS_ROT(d, double)
TRNBLAS_CBLAS_CROTG(c, cfloat, float)
TRNBLAS_CBLAS_CROTG(z, cdouble, double)

}  // extern "C"
