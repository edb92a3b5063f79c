// trnblas.h, Level 1: the C shim over trn/blas/level12.hpp. Checks run in signature order
// (positions 1-based, not counting the handle) before anything is read or written: scalar and
// result pointers, increments (a written vector needs inc != 0; every vector must span an
// addressable extent), then, unless n <= 0 makes the call a quick return, the vector pointers.
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "capi_internal.hpp"
#include "trn/blas/level12.hpp"

namespace {

using blas_capi::arg_check;
using blas_capi::cpp;
using blas_capi::store;
using blas_capi::run;
using blas_capi::valid_handle;
using blas_capi::vector_addressable;
using trn::blas::CallReport;
using trn::blas::Settings;


// Where each argument of a Level 1 signature sits (0: absent).
struct Pos {
  int alpha = 0, x = 0, incx = 0, y = 0, incy = 0, result = 0, c = 0, s = 0;
  bool x_written = false, y_written = false;
};

// The common checks; *quick is set when n <= 0 (nothing beyond the checked pointers is touched).
template <class I>
trnblasStatus_t check(trnblasHandle_t h, const char* fn, const Pos& p, I n, const void* alpha, const void* x, I incx,
                      const void* y, I incy, const void* result, const void* c, const void* s, bool* quick) {
  auto chk = arg_check(h, fn);
  if (p.alpha != 0) chk.not_null(alpha, p.alpha, "alpha");
  if (p.incx != 0)
    chk.require(!(p.x_written && incx == 0) && vector_addressable(n, incx), p.incx, "incx");
  if (p.incy != 0)
    chk.require(!(p.y_written && incy == 0) && vector_addressable(n, incy), p.incy, "incy");
  if (p.result != 0) chk.not_null(result, p.result, "result");
  if (p.c != 0) chk.not_null(c, p.c, "c");
  if (p.s != 0) chk.not_null(s, p.s, "s");
  *quick = n <= 0;
  if (!*quick) {
    if (p.x != 0) chk.not_null(x, p.x, "x");
    if (p.y != 0) chk.not_null(y, p.y, "y");
  }
  return chk.status();
}

// i?amax / i?amin (n 1, x 2, incx 3, result 4).
template <class I, class T>
trnblasStatus_t iamax_impl(trnblasHandle_t h, const char* fn, bool largest, I n, const T* x, I incx, I* result) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  if (auto st = check<I>(h, fn, Pos{.x = 2, .incx = 3, .result = 4}, n, nullptr, x, incx, nullptr, 0, result, nullptr,
                         nullptr, &quick);
      st != TRNBLAS_STATUS_SUCCESS)
    return st;
  std::int64_t r = 0;
  const trnblasStatus_t st = run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (!quick) r = largest ? trn::blas::iamax(s, n, cpp(x), incx, rep) : trn::blas::iamin(s, n, cpp(x), incx, rep);
  });
  if (st == TRNBLAS_STATUS_SUCCESS) *result = static_cast<I>(r);  // r <= n fits I
  return st;
}

// asum / nrm2 (n 1, x 2, incx 3, result 4).
template <class I, class T, class R, class F>
trnblasStatus_t norm_impl(trnblasHandle_t h, const char* fn, F&& op, I n, const T* x, I incx, R* result) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  if (auto st = check<I>(h, fn, Pos{.x = 2, .incx = 3, .result = 4}, n, nullptr, x, incx, nullptr, 0, result, nullptr,
                         nullptr, &quick);
      st != TRNBLAS_STATUS_SUCCESS)
    return st;
  R r = 0;
  const trnblasStatus_t st = run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (!quick) r = op(s, n, cpp(x), incx, rep);
  });
  if (st == TRNBLAS_STATUS_SUCCESS) *result = r;
  return st;
}

// axpy (n 1, alpha 2, x 3, incx 4, y 5, incy 6).
template <class I, class T>
trnblasStatus_t axpy_impl(trnblasHandle_t h, const char* fn, I n, const T* alpha, const T* x, I incx, T* y, I incy) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  const Pos p{.alpha = 2, .x = 3, .incx = 4, .y = 5, .incy = 6, .y_written = true};
  if (auto st = check<I>(h, fn, p, n, alpha, x, incx, y, incy, nullptr, nullptr, nullptr, &quick); st != TRNBLAS_STATUS_SUCCESS)
    return st;
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (!quick) trn::blas::axpy(s, n, *cpp(alpha), cpp(x), incx, cpp(y), incy, rep);
  });
}

// scal (n 1, alpha 2, x 3, incx 4).
template <class I, class A, class T>
trnblasStatus_t scal_impl(trnblasHandle_t h, const char* fn, I n, const A* alpha, T* x, I incx) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  // incx <= 0 is the reference BLAS's quick return, so it is not an error here.
  if (auto st = check<I>(h, fn, Pos{.alpha = 2, .x = 3, .incx = 4}, n, alpha, x, incx, nullptr, 0, nullptr, nullptr,
                         nullptr, &quick);
      st != TRNBLAS_STATUS_SUCCESS)
    return st;
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (!quick) trn::blas::scal(s, n, *cpp(alpha), cpp(x), incx, rep);
  });
}

// copy / swap (n 1, x 2, incx 3, y 4, incy 5).
template <class I, class T, class F>
trnblasStatus_t pair_impl(trnblasHandle_t h, const char* fn, bool x_written, F&& op, I n, T* x, I incx, T* y, I incy) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  const Pos p{.x = 2, .incx = 3, .y = 4, .incy = 5, .x_written = x_written, .y_written = true};
  if (auto st = check<I>(h, fn, p, n, nullptr, x, incx, y, incy, nullptr, nullptr, nullptr, &quick); st != TRNBLAS_STATUS_SUCCESS)
    return st;
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (!quick) op(s, n, cpp(x), incx, cpp(y), incy, rep);
  });
}

// dot (n 1, x 2, incx 3, y 4, incy 5, result 6).
template <class I, class T>
trnblasStatus_t dot_impl(trnblasHandle_t h, const char* fn, bool conjugate, I n, const T* x, I incx, const T* y, I incy,
                         T* result) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  const Pos p{.x = 2, .incx = 3, .y = 4, .incy = 5, .result = 6};
  if (auto st = check<I>(h, fn, p, n, nullptr, x, incx, y, incy, result, nullptr, nullptr, &quick); st != TRNBLAS_STATUS_SUCCESS)
    return st;
  using C = std::remove_const_t<std::remove_pointer_t<decltype(cpp(x))>>;
  C r{};
  const trnblasStatus_t st = run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (quick) return;
    if constexpr (std::is_floating_point_v<C>) r = trn::blas::dot(s, n, x, incx, y, incy, rep);
    else r = trn::blas::dot(s, n, cpp(x), incx, cpp(y), incy, conjugate, rep);
  });
  if (st == TRNBLAS_STATUS_SUCCESS) store(result, r);
  return st;
}

// rot (n 1, x 2, incx 3, y 4, incy 5, c 6, s 7).
template <class I, class T, class R>
trnblasStatus_t rot_impl(trnblasHandle_t h, const char* fn, I n, T* x, I incx, T* y, I incy, const R* c, const R* sn) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  const Pos p{.x = 2, .incx = 3, .y = 4, .incy = 5, .c = 6, .s = 7, .x_written = true, .y_written = true};
  if (auto st = check<I>(h, fn, p, n, nullptr, x, incx, y, incy, nullptr, c, sn, &quick); st != TRNBLAS_STATUS_SUCCESS)
    return st;
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (!quick) trn::blas::rot(s, n, cpp(x), incx, cpp(y), incy, *c, *sn, rep);
  });
}

template <class T>
auto asum_op(const Settings& s, std::int64_t n, const T* x, std::int64_t incx, CallReport* r) {
  return trn::blas::asum(s, n, x, incx, r);
}
template <class T>
auto nrm2_op(const Settings& s, std::int64_t n, const T* x, std::int64_t incx, CallReport* r) {
  return trn::blas::nrm2(s, n, x, incx, r);
}
template <class T>
void copy_op(const Settings& s, std::int64_t n, T* x, std::int64_t incx, T* y, std::int64_t incy, CallReport* r) {
  trn::blas::copy(s, n, static_cast<const T*>(x), incx, y, incy, r);
}
template <class T>
void swap_op(const Settings& s, std::int64_t n, T* x, std::int64_t incx, T* y, std::int64_t incy, CallReport* r) {
  trn::blas::swap(s, n, x, incx, y, incy, r);
}

}  // namespace

extern "C" {

#define TRNBLAS_L1_TYPED(P, T)                                                                                        \
  trnblasStatus_t trnblasI##P##amax(trnblasHandle_t h, int n, const T* x, int incx, int* r) {                        \
    return iamax_impl<int, T>(h, "trnblasI" #P "amax", true, n, x, incx, r);                                          \
  }                                                                                                                   \
  trnblasStatus_t trnblasI##P##amax_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, int64_t* r) {         \
    return iamax_impl<int64_t, T>(h, "trnblasI" #P "amax_64", true, n, x, incx, r);                                   \
  }                                                                                                                   \
  trnblasStatus_t trnblasI##P##amin(trnblasHandle_t h, int n, const T* x, int incx, int* r) {                        \
    return iamax_impl<int, T>(h, "trnblasI" #P "amin", false, n, x, incx, r);                                         \
  }                                                                                                                   \
  trnblasStatus_t trnblasI##P##amin_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, int64_t* r) {         \
    return iamax_impl<int64_t, T>(h, "trnblasI" #P "amin_64", false, n, x, incx, r);                                  \
  }

TRNBLAS_L1_TYPED(s, float)
TRNBLAS_L1_TYPED(d, double)
TRNBLAS_L1_TYPED(c, trnFloatComplex)
TRNBLAS_L1_TYPED(z, trnDoubleComplex)

#define TRNBLAS_L1_REAL(P, T)                                                                                          \
  trnblasStatus_t trnblas##P##asum(trnblasHandle_t h, int n, const T* x, int incx, T* r) {                             \
    return norm_impl<int, T, T>(h, "trnblas" #P "asum", asum_op<T>, n, x, incx, r);                                       \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##asum_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, T* r) {                  \
    return norm_impl<int64_t, T, T>(h, "trnblas" #P "asum_64", asum_op<T>, n, x, incx, r);                                \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##nrm2(trnblasHandle_t h, int n, const T* x, int incx, T* r) {                             \
    return norm_impl<int, T, T>(h, "trnblas" #P "nrm2", nrm2_op<T>, n, x, incx, r);                                       \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##nrm2_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, T* r) {                  \
    return norm_impl<int64_t, T, T>(h, "trnblas" #P "nrm2_64", nrm2_op<T>, n, x, incx, r);                                \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##axpy(trnblasHandle_t h, int n, const T* alpha, const T* x, int incx, T* y, int incy) {   \
    return axpy_impl<int, T>(h, "trnblas" #P "axpy", n, alpha, x, incx, y, incy);                                      \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##axpy_64(trnblasHandle_t h, int64_t n, const T* alpha, const T* x, int64_t incx, T* y,    \
                                      int64_t incy) {                                                                  \
    return axpy_impl<int64_t, T>(h, "trnblas" #P "axpy_64", n, alpha, x, incx, y, incy);                               \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##copy(trnblasHandle_t h, int n, const T* x, int incx, T* y, int incy) {                   \
    return pair_impl<int, T>(h, "trnblas" #P "copy", false, copy_op<T>, n, const_cast<T*>(x), incx, y, incy);          \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##copy_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, T* y, int64_t incy) {    \
    return pair_impl<int64_t, T>(h, "trnblas" #P "copy_64", false, copy_op<T>, n, const_cast<T*>(x), incx, y, incy);   \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##swap(trnblasHandle_t h, int n, T* x, int incx, T* y, int incy) {                         \
    return pair_impl<int, T>(h, "trnblas" #P "swap", true, swap_op<T>, n, x, incx, y, incy);                           \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##swap_64(trnblasHandle_t h, int64_t n, T* x, int64_t incx, T* y, int64_t incy) {          \
    return pair_impl<int64_t, T>(h, "trnblas" #P "swap_64", true, swap_op<T>, n, x, incx, y, incy);                    \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##dot(trnblasHandle_t h, int n, const T* x, int incx, const T* y, int incy, T* r) {        \
    return dot_impl<int, T>(h, "trnblas" #P "dot", false, n, x, incx, y, incy, r);                                            \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##dot_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, const T* y, int64_t incy, \
                                     T* r) {                                                                           \
    return dot_impl<int64_t, T>(h, "trnblas" #P "dot_64", false, n, x, incx, y, incy, r);                                    \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##rot(trnblasHandle_t h, int n, T* x, int incx, T* y, int incy, const T* c, const T* s) {  \
    return rot_impl<int, T, T>(h, "trnblas" #P "rot", n, x, incx, y, incy, c, s);                                         \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##rot_64(trnblasHandle_t h, int64_t n, T* x, int64_t incx, T* y, int64_t incy, const T* c, \
                                     const T* s) {                                                                     \
    return rot_impl<int64_t, T, T>(h, "trnblas" #P "rot_64", n, x, incx, y, incy, c, s);                                  \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##scal(trnblasHandle_t h, int n, const T* alpha, T* x, int incx) {                         \
    return scal_impl<int, T, T>(h, "trnblas" #P "scal", n, alpha, x, incx);                                               \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##scal_64(trnblasHandle_t h, int64_t n, const T* alpha, T* x, int64_t incx) {              \
    return scal_impl<int64_t, T, T>(h, "trnblas" #P "scal_64", n, alpha, x, incx);                                        \
  }

TRNBLAS_L1_REAL(S, float)
TRNBLAS_L1_REAL(D, double)

// Complex: P is C or Z (LP in lower case), RP the real prefix of the mixed forms (S, D), RR/RS the
// prefixes of the real-scalar rot/scal (Cs, Css), R the real type.
#define TRNBLAS_L1_COMPLEX(P, LP, RP, RR, RS, T, R)                                                                         \
  trnblasStatus_t trnblas##RP##LP##asum(trnblasHandle_t h, int n, const T* x, int incx, R* r) {                          \
    return norm_impl<int, T, R>(h, "trnblas" #RP #LP "asum", asum_op<std::complex<R>>, n, x, incx, r);                   \
  }                                                                                                                     \
  trnblasStatus_t trnblas##RP##LP##asum_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, R* r) {               \
    return norm_impl<int64_t, T, R>(h, "trnblas" #RP #LP "asum_64", asum_op<std::complex<R>>, n, x, incx, r);            \
  }                                                                                                                     \
  trnblasStatus_t trnblas##RP##LP##nrm2(trnblasHandle_t h, int n, const T* x, int incx, R* r) {                          \
    return norm_impl<int, T, R>(h, "trnblas" #RP #LP "nrm2", nrm2_op<std::complex<R>>, n, x, incx, r);                   \
  }                                                                                                                     \
  trnblasStatus_t trnblas##RP##LP##nrm2_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, R* r) {               \
    return norm_impl<int64_t, T, R>(h, "trnblas" #RP #LP "nrm2_64", nrm2_op<std::complex<R>>, n, x, incx, r);            \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##axpy(trnblasHandle_t h, int n, const T* alpha, const T* x, int incx, T* y, int incy) {    \
    return axpy_impl<int, T>(h, "trnblas" #P "axpy", n, alpha, x, incx, y, incy);                                       \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##axpy_64(trnblasHandle_t h, int64_t n, const T* alpha, const T* x, int64_t incx, T* y,     \
                                      int64_t incy) {                                                                   \
    return axpy_impl<int64_t, T>(h, "trnblas" #P "axpy_64", n, alpha, x, incx, y, incy);                                \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##copy(trnblasHandle_t h, int n, const T* x, int incx, T* y, int incy) {                    \
    return pair_impl<int, T>(h, "trnblas" #P "copy", false, copy_op<std::complex<R>>, n, const_cast<T*>(x), incx, y,    \
                             incy);                                                                                     \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##copy_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, T* y, int64_t incy) {     \
    return pair_impl<int64_t, T>(h, "trnblas" #P "copy_64", false, copy_op<std::complex<R>>, n, const_cast<T*>(x),      \
                                 incx, y, incy);                                                                        \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##swap(trnblasHandle_t h, int n, T* x, int incx, T* y, int incy) {                          \
    return pair_impl<int, T>(h, "trnblas" #P "swap", true, swap_op<std::complex<R>>, n, x, incx, y, incy);              \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##swap_64(trnblasHandle_t h, int64_t n, T* x, int64_t incx, T* y, int64_t incy) {           \
    return pair_impl<int64_t, T>(h, "trnblas" #P "swap_64", true, swap_op<std::complex<R>>, n, x, incx, y, incy);       \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##dotu(trnblasHandle_t h, int n, const T* x, int incx, const T* y, int incy, T* r) {        \
    return dot_impl<int, T>(h, "trnblas" #P "dotu", false, n, x, incx, y, incy, r);                                     \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##dotu_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, const T* y, int64_t incy, \
                                      T* r) {                                                                           \
    return dot_impl<int64_t, T>(h, "trnblas" #P "dotu_64", false, n, x, incx, y, incy, r);                              \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##dotc(trnblasHandle_t h, int n, const T* x, int incx, const T* y, int incy, T* r) {        \
    return dot_impl<int, T>(h, "trnblas" #P "dotc", true, n, x, incx, y, incy, r);                                      \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##dotc_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, const T* y, int64_t incy, \
                                      T* r) {                                                                           \
    return dot_impl<int64_t, T>(h, "trnblas" #P "dotc_64", true, n, x, incx, y, incy, r);                               \
  }                                                                                                                     \
  trnblasStatus_t trnblas##RR##rot(trnblasHandle_t h, int n, T* x, int incx, T* y, int incy, const R* c, const R* s) {  \
    return rot_impl<int, T, R>(h, "trnblas" #RR "rot", n, x, incx, y, incy, c, s);                                      \
  }                                                                                                                     \
  trnblasStatus_t trnblas##RR##rot_64(trnblasHandle_t h, int64_t n, T* x, int64_t incx, T* y, int64_t incy,             \
                                      const R* c, const R* s) {                                                         \
    return rot_impl<int64_t, T, R>(h, "trnblas" #RR "rot_64", n, x, incx, y, incy, c, s);                               \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##scal(trnblasHandle_t h, int n, const T* alpha, T* x, int incx) {                          \
    return scal_impl<int, T, T>(h, "trnblas" #P "scal", n, alpha, x, incx);                                             \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##scal_64(trnblasHandle_t h, int64_t n, const T* alpha, T* x, int64_t incx) {               \
    return scal_impl<int64_t, T, T>(h, "trnblas" #P "scal_64", n, alpha, x, incx);                                      \
  }                                                                                                                     \
  trnblasStatus_t trnblas##RS##cal(trnblasHandle_t h, int n, const R* alpha, T* x, int incx) {                          \
    return scal_impl<int, R, T>(h, "trnblas" #RS "cal", n, alpha, x, incx);                                             \
  }                                                                                                                     \
  trnblasStatus_t trnblas##RS##cal_64(trnblasHandle_t h, int64_t n, const R* alpha, T* x, int64_t incx) {               \
    return scal_impl<int64_t, R, T>(h, "trnblas" #RS "cal_64", n, alpha, x, incx);                                      \
  }

TRNBLAS_L1_COMPLEX(C, c, S, Cs, Css, trnFloatComplex, float)
TRNBLAS_L1_COMPLEX(Z, z, D, Zd, Zds, trnDoubleComplex, double)

}  // extern "C"
