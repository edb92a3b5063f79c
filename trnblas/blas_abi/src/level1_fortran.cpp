// libtrnblas_blas.so, Level 1: the Fortran BLAS entry points. Complex arguments and results are
// std::complex (interleaved (re, im), the layout of Fortran COMPLEX); complex FUNCTIONs (CDOTU, ...)
// return by value in registers as gfortran does.
#include "level12_calls.hpp"

using namespace trnblas_abi;  // NOLINT: this file only defines the extern "C" entry points

extern "C" {

// P the type prefix, T the data type, R its real type, RP the prefix of ?ROT (s, d, cs, zd), NRM,
// ASUM and IAMAX the names of the reductions.
#define TRNBLAS_F77_L1(P, T, R, RP, NRM, ASUM, IAMAX)                                                               \
  void P##axpy_(const int* n, const T* alpha, const T* x, const int* incx, T* y, const int* incy) {                 \
    axpy_call<T>({#P "axpy_", ""}, *n, *alpha, x, *incx, y, *incy);                                                 \
  }                                                                                                                 \
  void P##scal_(const int* n, const T* alpha, T* x, const int* incx) {                                              \
    scal_call<T>({#P "scal_", ""}, *n, *alpha, x, *incx);                                                           \
  }                                                                                                                 \
  void P##copy_(const int* n, const T* x, const int* incx, T* y, const int* incy) {                                 \
    copy_call<T>({#P "copy_", ""}, *n, x, *incx, y, *incy);                                                         \
  }                                                                                                                 \
  void P##swap_(const int* n, T* x, const int* incx, T* y, const int* incy) {                                       \
    swap_call<T>({#P "swap_", ""}, *n, x, *incx, y, *incy);                                                         \
  }                                                                                                                 \
  void RP##rot_(const int* n, T* x, const int* incx, T* y, const int* incy, const R* c, const R* s) {               \
    rot_call<T>({#RP "rot_", ""}, *n, x, *incx, y, *incy, *c, *s);                                                  \
  }                                                                                                                 \
  R NRM##_(const int* n, const T* x, const int* incx) { return nrm2_call<T>({#NRM "_", ""}, *n, x, *incx); }         \
  R ASUM##_(const int* n, const T* x, const int* incx) { return asum_call<T>({#ASUM "_", ""}, *n, x, *incx); }       \
  int IAMAX##_(const int* n, const T* x, const int* incx) { return iamax_call<T>({#IAMAX "_", ""}, *n, x, *incx); }

TRNBLAS_F77_L1(s, float, float, s, snrm2, sasum, isamax)
TRNBLAS_F77_L1(d, double, double, d, dnrm2, dasum, idamax)
TRNBLAS_F77_L1(c, cfloat, float, cs, scnrm2, scasum, icamax)
TRNBLAS_F77_L1(z, cdouble, double, zd, dznrm2, dzasum, izamax)

float sdot_(const int* n, const float* x, const int* incx, const float* y, const int* incy) {
  return dot_call<float>({"sdot_", ""}, false, *n, x, *incx, y, *incy);
}
double ddot_(const int* n, const double* x, const int* incx, const double* y, const int* incy) {
  return dot_call<double>({"ddot_", ""}, false, *n, x, *incx, y, *incy);
}

// Complex only: DOTU, DOTC and the real-scalar SCAL (CSSCAL, ZDSCAL).
#define TRNBLAS_F77_L1_COMPLEX(P, T, R, RS)                                                                         \
  T P##dotu_(const int* n, const T* x, const int* incx, const T* y, const int* incy) {                              \
    return dot_call<T>({#P "dotu_", ""}, false, *n, x, *incx, y, *incy);                                           \
  }                                                                                                                 \
  T P##dotc_(const int* n, const T* x, const int* incx, const T* y, const int* incy) {                              \
    return dot_call<T>({#P "dotc_", ""}, true, *n, x, *incx, y, *incy);                                            \
  }                                                                                                                 \
  void RS##scal_(const int* n, const R* alpha, T* x, const int* incx) {                                             \
    scal_call<T>({#RS "scal_", ""}, *n, *alpha, x, *incx);                                                          \
  }

TRNBLAS_F77_L1_COMPLEX(c, cfloat, float, cs)
TRNBLAS_F77_L1_COMPLEX(z, cdouble, double, zd)

// SDSDOT (REAL FUNCTION: sb + the fp64 dot of REAL vectors, rounded to REAL) and DSDOT (DOUBLE
// PRECISION FUNCTION).
float sdsdot_(const int* n, const float* sb, const float* x, const int* incx, const float* y, const int* incy) {
  return static_cast<float>(dsdot_call({"sdsdot_", ""}, sb, *n, x, *incx, y, *incy));
}
double dsdot_(const int* n, const float* x, const int* incx, const float* y, const int* incy) {
  return dsdot_call({"dsdot_", ""}, nullptr, *n, x, *incx, y, *incy);
}

// Plane rotation setups and the modified rotation.
#define TRNBLAS_F77_ROT(P, T)                                                                                       \
  void P##rotg_(T* a, T* b, T* c, T* s) { rotg_call<T>({#P "rotg_", ""}, a, b, c, s); }                             \
  void P##rotm_(const int* n, T* x, const int* incx, T* y, const int* incy, const T* param) {                       \
    rotm_call<T>({#P "rotm_", ""}, *n, x, *incx, y, *incy, param);                                                  \
  }                                                                                                                 \
  void P##rotmg_(T* d1, T* d2, T* x1, const T* y1, T* param) {                                                      \
    rotmg_call<T>({#P "rotmg_", ""}, d1, d2, x1, *y1, param);                                                       \
  }

TRNBLAS_F77_ROT(s, float)
TRNBLAS_F77_ROT(d, double)
void crotg_(cfloat* a, const cfloat* b, float* c, cfloat* s) { rotg_call<cfloat>({"crotg_", ""}, a, b, c, s); }
void zrotg_(cdouble* a, const cdouble* b, double* c, cdouble* s) { rotg_call<cdouble>({"zrotg_", ""}, a, b, c, s); }

}  // extern "C"
