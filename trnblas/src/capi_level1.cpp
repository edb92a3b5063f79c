// trnblas.h, Level 1: the C shim over trn/blas/level12.hpp. Checks run in signature order
// (positions 1-based, not counting the handle) before anything is read or written: scalar and
// result pointers, increments (every vector must span an addressable extent; inc == 0 is allowed,
// also for a written vector, whose result is then the reference BLAS's element-by-element loop's:
// cuBLAS documents no error for it and netlib's xblat1 calls swap/rot/axpy so), then, unless n <= 0
// makes the call a quick return, the vector pointers.
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
using blas_capi::valid_handle;
using blas_capi::vector_addressable;
using trn::blas::CallReport;
using trn::blas::Settings;

// blas_capi::run with the body passed through a std::function that holds one reference (stored in
// place): a lambda capturing the call's arguments would be copied to the heap on every call.
template <class F>
trnblasStatus_t run(trnblasHandle_t h, const char* fn, F&& body) {
  return blas_capi::run(h, fn, [&body](const Settings& s, CallReport* r) { body(s, r); });
}


// Where each argument of a Level 1 signature sits (0: absent).
struct Pos {
  int alpha = 0, x = 0, incx = 0, y = 0, incy = 0, result = 0, c = 0, s = 0;
};

// The common checks; *quick is set when n <= 0 (nothing beyond the checked pointers is touched).
template <class I>
trnblasStatus_t check(trnblasHandle_t h, const char* fn, const Pos& p, I n, const void* alpha, const void* x, I incx,
                      const void* y, I incy, const void* result, const void* c, const void* s, bool* quick) {
  auto chk = arg_check(h, fn);
  if (p.alpha != 0) chk.not_null(alpha, p.alpha, "alpha");
  if (p.incx != 0) chk.require(vector_addressable(n, incx), p.incx, "incx");
  if (p.incy != 0) chk.require(vector_addressable(n, incy), p.incy, "incy");
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
trnblasStatus_t iamax_impl(trnblasHandle_t h, const char* fn, bool largest, I n, const T* x, I incx, I* result,
                           const Pos& p = Pos{.x = 2, .incx = 3, .result = 4}) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  if (auto st = check<I>(h, fn, p, n, nullptr, x, incx, nullptr, 0, result, nullptr, nullptr, &quick);
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
trnblasStatus_t norm_impl(trnblasHandle_t h, const char* fn, F&& op, I n, const T* x, I incx, R* result,
                          const Pos& p = Pos{.x = 2, .incx = 3, .result = 4}) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  if (auto st = check<I>(h, fn, p, n, nullptr, x, incx, nullptr, 0, result, nullptr, nullptr, &quick);
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
trnblasStatus_t axpy_impl(trnblasHandle_t h, const char* fn, I n, const T* alpha, const T* x, I incx, T* y, I incy,
                          const Pos& p = Pos{.alpha = 2, .x = 3, .incx = 4, .y = 5, .incy = 6}) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  if (auto st = check<I>(h, fn, p, n, alpha, x, incx, y, incy, nullptr, nullptr, nullptr, &quick); st != TRNBLAS_STATUS_SUCCESS)
    return st;
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (!quick) trn::blas::axpy(s, n, *cpp(alpha), cpp(x), incx, cpp(y), incy, rep);
  });
}

// scal (n 1, alpha 2, x 3, incx 4).
template <class I, class A, class T>
trnblasStatus_t scal_impl(trnblasHandle_t h, const char* fn, I n, const A* alpha, T* x, I incx,
                          const Pos& p = Pos{.alpha = 2, .x = 3, .incx = 4}) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  // incx <= 0 is the reference BLAS's quick return, so it is not an error here.
  if (auto st = check<I>(h, fn, p, n, alpha, x, incx, nullptr, 0, nullptr, nullptr, nullptr, &quick);
      st != TRNBLAS_STATUS_SUCCESS)
    return st;
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (!quick) trn::blas::scal(s, n, *cpp(alpha), cpp(x), incx, rep);
  });
}

// copy / swap (n 1, x 2, incx 3, y 4, incy 5).
template <class I, class T, class F>
trnblasStatus_t pair_impl(trnblasHandle_t h, const char* fn, F&& op, I n, T* x, I incx, T* y, I incy,
                          const Pos& p = Pos{.x = 2, .incx = 3, .y = 4, .incy = 5}) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  if (auto st = check<I>(h, fn, p, n, nullptr, x, incx, y, incy, nullptr, nullptr, nullptr, &quick); st != TRNBLAS_STATUS_SUCCESS)
    return st;
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (!quick) op(s, n, cpp(x), incx, cpp(y), incy, rep);
  });
}

// dot (n 1, x 2, incx 3, y 4, incy 5, result 6).
template <class I, class T>
trnblasStatus_t dot_impl(trnblasHandle_t h, const char* fn, bool conjugate, I n, const T* x, I incx, const T* y, I incy,
                         T* result, const Pos& p = Pos{.x = 2, .incx = 3, .y = 4, .incy = 5, .result = 6}) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
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

// rot (n 1, x 2, incx 3, y 4, incy 5, c 6, s 7); s is real (Srot, Csrot) or complex (Crot).
template <class I, class T, class R, class S>
trnblasStatus_t rot_impl(trnblasHandle_t h, const char* fn, I n, T* x, I incx, T* y, I incy, const R* c, const S* sn,
                         const Pos& p = Pos{.x = 2, .incx = 3, .y = 4, .incy = 5, .c = 6, .s = 7}) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  if (auto st = check<I>(h, fn, p, n, nullptr, x, incx, y, incy, nullptr, c, sn, &quick); st != TRNBLAS_STATUS_SUCCESS)
    return st;
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (!quick) trn::blas::rot(s, n, cpp(x), incx, cpp(y), incy, *c, *cpp(sn), rep);
  });
}

// rotm (n 1, x 2, incx 3, y 4, incy 5, param 6).
template <class I, class T>
trnblasStatus_t rotm_impl(trnblasHandle_t h, const char* fn, I n, T* x, I incx, T* y, I incy, const T* param,
                          const Pos& p = Pos{.x = 2, .incx = 3, .y = 4, .incy = 5, .s = 6}) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  bool quick = false;
  if (auto st = check<I>(h, fn, Pos{.incx = p.incx, .incy = p.incy}, n, nullptr, x, incx, y, incy, nullptr, nullptr,
                         nullptr, &quick);
      st != TRNBLAS_STATUS_SUCCESS)
    return st;
  auto chk = arg_check(h, fn);  // then param (position 6) and, unless n <= 0, the vectors
  chk.not_null(param, p.s, "param");
  if (!quick) chk.not_null(x, p.x, "x").not_null(y, p.y, "y");
  if (!chk) return chk.status();
  return run(h, fn, [&](const Settings& s, CallReport* rep) {
    if (!quick) trn::blas::rotm(s, n, x, incx, y, incy, param, rep);
  });
}

// rotg (a 1, b 2, c 3, s 4) and rotmg (d1 1, d2 2, x1 3, y1 4, param 5): scalar setups. The outputs
// are written only after every pointer was checked.
template <class T, class B, class R, class S>
trnblasStatus_t rotg_impl(trnblasHandle_t h, const char* fn, T* a, B* b, R* c, S* sn) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  auto chk = arg_check(h, fn);
  chk.not_null(a, 1, "a").not_null(b, 2, "b").not_null(c, 3, "c").not_null(sn, 4, "s");
  if (!chk) return chk.status();
  return run(h, fn, [&](const Settings&, CallReport*) {
    auto av = *cpp(a);
    auto bv = *cpp(b);
    R cv{};
    auto sv = *cpp(sn);
    trn::blas::rotg(av, bv, cv, sv);
    store(a, av);
    store(b, bv);  // the real forms return z in b; the complex forms leave b as it was
    *c = cv;
    store(sn, sv);
  });
}

template <class T>
trnblasStatus_t rotmg_impl(trnblasHandle_t h, const char* fn, T* d1, T* d2, T* x1, const T* y1, T* param) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  auto chk = arg_check(h, fn);
  chk.not_null(d1, 1, "d1").not_null(d2, 2, "d2").not_null(x1, 3, "x1").not_null(y1, 4, "y1").not_null(param, 5, "param");
  if (!chk) return chk.status();
  return run(h, fn, [&](const Settings&, CallReport*) {
    T v[3] = {*d1, *d2, *x1}, out[5];
    std::memcpy(out, param, sizeof out);  // the entries a flag does not use are left as they were
    trn::blas::rotmg(v[0], v[1], v[2], *y1, out);
    *d1 = v[0];
    *d2 = v[1];
    *x1 = v[2];
    std::memcpy(param, out, sizeof out);
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

// ---- the *Ex forms: data and execution types as values --------------------------------------------
// Supported: the storage types of the S, D, C and Z routines (TRN_R_32F, TRN_R_64F, TRN_C_32F,
// TRN_C_64F) with the execution type of that routine, plus the mixed forms (real alpha or c, s with
// complex vectors; a real result of a complex nrm2/asum); and cuBLAS's 16-bit forms (TRN_R_16F,
// TRN_R_16BF data, results and rotation c/s of that type, alpha 32F, execution 32F) of AxpyEx,
// DotEx/DotcEx, Nrm2Ex, ScalEx, RotEx. Every other combination: NOT_SUPPORTED, nothing written.

// The 16-bit storage type of a data type value, if it is one.
bool half_type(int t, trn::DType* dt) {
  if (t == TRN_R_16F) *dt = trn::DType::f16;
  else if (t == TRN_R_16BF) *dt = trn::DType::bf16;
  else return false;
  return true;
}
// A 16-bit c or s widened to fp32 (exact).
float widen(const void* v, trn::DType dt) {
  std::uint16_t bits = 0;
  std::memcpy(&bits, v, sizeof bits);
  return trn::decode_float(trn::float_format(dt), bits);
}

// The 16-bit forms: the checks of the typed routine (positions p), then body(settings, report).
template <class I, class F>
trnblasStatus_t half_call(trnblasHandle_t h, const char* fn, const Pos& p, I n, const void* alpha, const void* x, I incx,
                          const void* y, I incy, const void* result, const void* c, const void* sn, F&& body) {
  bool quick = false;
  if (auto st = check<I>(h, fn, p, n, alpha, x, incx, y, incy, result, c, sn, &quick); st != TRNBLAS_STATUS_SUCCESS)
    return st;
  return run(h, fn, [&](const Settings& s, CallReport* rep) { body(s, rep); });
}
enum class Kind { none, r32, r64, c32, c64 };
Kind kind_of(int t) {
  switch (t) {
    case TRN_R_32F: return Kind::r32;
    case TRN_R_64F: return Kind::r64;
    case TRN_C_32F: return Kind::c32;
    case TRN_C_64F: return Kind::c64;
    default: return Kind::none;
  }
}
// The real kind of a complex kind (and a real kind itself).
Kind real_of(Kind k) { return k == Kind::c32 ? Kind::r32 : k == Kind::c64 ? Kind::r64 : k; }

// Calls f with a value of the C type of kind k (float, double, trnFloatComplex, trnDoubleComplex).
template <class F>
trnblasStatus_t with_type(Kind k, F&& f) {
  switch (k) {
    case Kind::r32: return f(float{});
    case Kind::r64: return f(double{});
    case Kind::c32: return f(trnFloatComplex{});
    case Kind::c64: return f(trnDoubleComplex{});
    case Kind::none: break;
  }
  return TRNBLAS_STATUS_NOT_SUPPORTED;
}
// The real C type of a C type.
template <class T> struct RealOf { using type = T; };
template <> struct RealOf<trnFloatComplex> { using type = float; };
template <> struct RealOf<trnDoubleComplex> { using type = double; };
template <class T> using real_t = typename RealOf<T>::type;

// The NOT_SUPPORTED answer (logged) for a type combination outside the table above.
trnblasStatus_t types_supported(trnblasHandle_t h, const char* fn, bool ok) {
  auto chk = arg_check(h, fn);
  chk.require_or(ok, TRNBLAS_STATUS_NOT_SUPPORTED, "TRNBLAS_STATUS_NOT_SUPPORTED",
                 "data/execution types: 32F, 64F, C_32F, C_64F as the S/D/C/Z routines, or 16F/16BF data with 32F execution");
  return chk.status();
}

// AxpyEx: n 1, alpha 2, alphaType 3, x 4, xType 5, incx 6, y 7, yType 8, incy 9, executionType 10.
template <class I>
trnblasStatus_t axpy_ex(trnblasHandle_t h, const char* fn, I n, const void* alpha, int at, const void* x, int xt, I incx,
                        void* y, int yt, I incy, int et) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const Kind k = kind_of(xt);
  trn::DType dt{};
  if (half_type(xt, &dt) && yt == xt && at == TRN_R_32F && et == TRN_R_32F)
    return half_call<I>(h, fn, Pos{.alpha = 2, .x = 4, .incx = 6, .y = 7, .incy = 9}, n, alpha, x, incx, y, incy, nullptr,
                        nullptr, nullptr, [&](const Settings& s, CallReport* rep) {
                          if (n > 0) trn::blas::axpy(s, n, *static_cast<const float*>(alpha), dt, x, incx, y, incy, rep);
                        });
  if (auto st = types_supported(h, fn, k != Kind::none && at == xt && yt == xt && et == xt); st != TRNBLAS_STATUS_SUCCESS)
    return st;
  return with_type(k, [&](auto t) {
    using T = decltype(t);
    return axpy_impl<I, T>(h, fn, n, static_cast<const T*>(alpha), static_cast<const T*>(x), incx, static_cast<T*>(y),
                           incy, Pos{.alpha = 2, .x = 4, .incx = 6, .y = 7, .incy = 9});
  });
}

// DotEx / DotcEx: n 1, x 2, xType 3, incx 4, y 5, yType 6, incy 7, result 8, resultType 9, executionType 10.
template <class I>
trnblasStatus_t dot_ex(trnblasHandle_t h, const char* fn, bool conjugate, I n, const void* x, int xt, I incx,
                       const void* y, int yt, I incy, void* result, int rt, int et) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const Kind k = kind_of(xt);
  trn::DType dt{};
  if (half_type(xt, &dt) && yt == xt && rt == xt && et == TRN_R_32F) {
    // The result is written only on success (a staging copy: check() ran before).
    return half_call<I>(h, fn, Pos{.x = 2, .incx = 4, .y = 5, .incy = 7, .result = 8}, n, nullptr, x, incx, y, incy,
                        result, nullptr, nullptr, [&](const Settings& s, CallReport* rep) {
                          std::uint16_t r = 0;
                          trn::blas::dot(s, n, dt, x, incx, y, incy, &r, rep);
                          std::memcpy(result, &r, sizeof r);
                        });
  }
  if (auto st = types_supported(h, fn, k != Kind::none && yt == xt && rt == xt && et == xt); st != TRNBLAS_STATUS_SUCCESS)
    return st;
  return with_type(k, [&](auto t) {
    using T = decltype(t);
    return dot_impl<I, T>(h, fn, conjugate, n, static_cast<const T*>(x), incx, static_cast<const T*>(y), incy,
                          static_cast<T*>(result), Pos{.x = 2, .incx = 4, .y = 5, .incy = 7, .result = 8});
  });
}

// Nrm2Ex / AsumEx: n 1, x 2, xType 3, incx 4, result 5, resultType 6, executionType 7. The result
// (and the execution) type of a complex x is its real type, as Scnrm2 / Dzasum return.
template <class I, bool Nrm2>
trnblasStatus_t norm_ex(trnblasHandle_t h, const char* fn, I n, const void* x, int xt, I incx, void* result, int rt,
                        int et) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const Kind k = kind_of(xt);
  trn::DType dt{};
  if (Nrm2 && half_type(xt, &dt) && rt == xt && et == TRN_R_32F)
    return half_call<I>(h, fn, Pos{.x = 2, .incx = 4, .result = 5}, n, nullptr, x, incx, nullptr, I{0}, result, nullptr,
                        nullptr, [&](const Settings& s, CallReport* rep) {
                          std::uint16_t r = 0;
                          trn::blas::nrm2(s, n, dt, x, incx, &r, rep);
                          std::memcpy(result, &r, sizeof r);
                        });
  const bool ok = k != Kind::none && kind_of(rt) == real_of(k) && (et == xt || et == rt);
  if (auto st = types_supported(h, fn, ok); st != TRNBLAS_STATUS_SUCCESS) return st;
  return with_type(k, [&](auto t) {
    using T = decltype(t);
    using R = real_t<T>;
    using C = std::remove_const_t<std::remove_pointer_t<decltype(cpp(static_cast<const T*>(x)))>>;
    const Pos p{.x = 2, .incx = 4, .result = 5};
    if constexpr (Nrm2)
      return norm_impl<I, T, R>(h, fn, nrm2_op<C>, n, static_cast<const T*>(x), incx, static_cast<R*>(result), p);
    else
      return norm_impl<I, T, R>(h, fn, asum_op<C>, n, static_cast<const T*>(x), incx, static_cast<R*>(result), p);
  });
}

// IamaxEx / IaminEx: n 1, x 2, xType 3, incx 4, result 5.
template <class I>
trnblasStatus_t iamax_ex(trnblasHandle_t h, const char* fn, bool largest, I n, const void* x, int xt, I incx, I* result) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const Kind k = kind_of(xt);
  if (auto st = types_supported(h, fn, k != Kind::none); st != TRNBLAS_STATUS_SUCCESS) return st;
  return with_type(k, [&](auto t) {
    using T = decltype(t);
    return iamax_impl<I, T>(h, fn, largest, n, static_cast<const T*>(x), incx, result, Pos{.x = 2, .incx = 4, .result = 5});
  });
}

// ScalEx: n 1, alpha 2, alphaType 3, x 4, xType 5, incx 6, executionType 7 (alpha of x's type, or
// real alpha with complex x as Csscal; the execution type is x's).
template <class I>
trnblasStatus_t scal_ex(trnblasHandle_t h, const char* fn, I n, const void* alpha, int at, void* x, int xt, I incx, int et) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const Kind k = kind_of(xt);
  trn::DType dt{};
  if (half_type(xt, &dt) && at == TRN_R_32F && et == TRN_R_32F)
    return half_call<I>(h, fn, Pos{.alpha = 2, .x = 4, .incx = 6}, n, alpha, x, incx, nullptr, I{0}, nullptr, nullptr,
                        nullptr, [&](const Settings& s, CallReport* rep) {
                          if (n > 0) trn::blas::scal(s, n, *static_cast<const float*>(alpha), dt, x, incx, rep);
                        });
  const bool mixed = at != xt;
  const bool ok = k != Kind::none && (at == xt || kind_of(at) == real_of(k)) && et == xt;
  if (auto st = types_supported(h, fn, ok); st != TRNBLAS_STATUS_SUCCESS) return st;
  return with_type(k, [&](auto t) {
    using T = decltype(t);
    const Pos p{.alpha = 2, .x = 4, .incx = 6};
    if (mixed) return scal_impl<I, real_t<T>, T>(h, fn, n, static_cast<const real_t<T>*>(alpha), static_cast<T*>(x), incx, p);
    return scal_impl<I, T, T>(h, fn, n, static_cast<const T*>(alpha), static_cast<T*>(x), incx, p);
  });
}

// CopyEx / SwapEx: n 1, x 2, xType 3, incx 4, y 5, yType 6, incy 7.
template <class I, bool Swap>
trnblasStatus_t pair_ex(trnblasHandle_t h, const char* fn, I n, void* x, int xt, I incx, void* y, int yt, I incy) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const Kind k = kind_of(xt);
  if (auto st = types_supported(h, fn, k != Kind::none && yt == xt); st != TRNBLAS_STATUS_SUCCESS) return st;
  return with_type(k, [&](auto t) {
    using T = decltype(t);
    using C = std::remove_pointer_t<decltype(cpp(static_cast<T*>(x)))>;
    const Pos p{.x = 2, .incx = 4, .y = 5, .incy = 7};
    if constexpr (Swap) return pair_impl<I, T>(h, fn, swap_op<C>, n, static_cast<T*>(x), incx, static_cast<T*>(y), incy, p);
    else return pair_impl<I, T>(h, fn, copy_op<C>, n, static_cast<T*>(x), incx, static_cast<T*>(y), incy, p);
  });
}

// RotEx: n 1, x 2, xType 3, incx 4, y 5, yType 6, incy 7, c 8, s 9, csType 10, executionType 11.
// c is always real; s is real (csType real: Srot/Drot/Csrot/Zdrot) or complex (csType = xType: Crot/Zrot).
template <class I>
trnblasStatus_t rot_ex(trnblasHandle_t h, const char* fn, I n, void* x, int xt, I incx, void* y, int yt, I incy,
                       const void* c, const void* sn, int cst, int et) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const Kind k = kind_of(xt);
  trn::DType dt{};
  if (half_type(xt, &dt) && yt == xt && cst == xt && et == TRN_R_32F)
    return half_call<I>(h, fn, Pos{.x = 2, .incx = 4, .y = 5, .incy = 7, .c = 8, .s = 9}, n, nullptr, x, incx, y, incy,
                        nullptr, c, sn, [&](const Settings& s, CallReport* rep) {
                          if (n > 0) trn::blas::rot(s, n, dt, x, incx, y, incy, widen(c, dt), widen(sn, dt), rep);
                        });
  const bool complex_s = cst == xt && real_of(k) != k;
  const bool ok = k != Kind::none && yt == xt && (kind_of(cst) == real_of(k) || complex_s) && et == xt;
  if (auto st = types_supported(h, fn, ok); st != TRNBLAS_STATUS_SUCCESS) return st;
  return with_type(k, [&](auto t) {
    using T = decltype(t);
    using R = real_t<T>;
    const Pos p{.x = 2, .incx = 4, .y = 5, .incy = 7, .c = 8, .s = 9};
    if constexpr (!std::is_same_v<R, T>) {
      if (complex_s)
        return rot_impl<I, T, R, T>(h, fn, n, static_cast<T*>(x), incx, static_cast<T*>(y), incy, static_cast<const R*>(c),
                                    static_cast<const T*>(sn), p);
    }
    return rot_impl<I, T, R, R>(h, fn, n, static_cast<T*>(x), incx, static_cast<T*>(y), incy, static_cast<const R*>(c),
                                static_cast<const R*>(sn), p);
  });
}

// RotmEx: n 1, x 2, xType 3, incx 4, y 5, yType 6, incy 7, param 8, paramType 9, executionType 10 (real only).
template <class I>
trnblasStatus_t rotm_ex(trnblasHandle_t h, const char* fn, I n, void* x, int xt, I incx, void* y, int yt, I incy,
                        const void* param, int pt, int et) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const Kind k = kind_of(xt);
  const bool ok = (k == Kind::r32 || k == Kind::r64) && yt == xt && pt == xt && et == xt;
  if (auto st = types_supported(h, fn, ok); st != TRNBLAS_STATUS_SUCCESS) return st;
  const Pos p{.x = 2, .incx = 4, .y = 5, .incy = 7, .s = 8};
  if (k == Kind::r32)
    return rotm_impl<I, float>(h, fn, n, static_cast<float*>(x), incx, static_cast<float*>(y), incy,
                               static_cast<const float*>(param), p);
  return rotm_impl<I, double>(h, fn, n, static_cast<double*>(x), incx, static_cast<double*>(y), incy,
                              static_cast<const double*>(param), p);
}

}  // namespace

extern "C" {

trnblasStatus_t trnblasSrotg(trnblasHandle_t h, float* a, float* b, float* c, float* s) {
  return rotg_impl(h, "trnblasSrotg", a, b, c, s);
}
trnblasStatus_t trnblasDrotg(trnblasHandle_t h, double* a, double* b, double* c, double* s) {
  return rotg_impl(h, "trnblasDrotg", a, b, c, s);
}
trnblasStatus_t trnblasCrotg(trnblasHandle_t h, trnFloatComplex* a, trnFloatComplex* b, float* c, trnFloatComplex* s) {
  return rotg_impl(h, "trnblasCrotg", a, b, c, s);
}
trnblasStatus_t trnblasZrotg(trnblasHandle_t h, trnDoubleComplex* a, trnDoubleComplex* b, double* c,
                             trnDoubleComplex* s) {
  return rotg_impl(h, "trnblasZrotg", a, b, c, s);
}
trnblasStatus_t trnblasSrotmg(trnblasHandle_t h, float* d1, float* d2, float* x1, const float* y1, float* param) {
  return rotmg_impl(h, "trnblasSrotmg", d1, d2, x1, y1, param);
}
trnblasStatus_t trnblasDrotmg(trnblasHandle_t h, double* d1, double* d2, double* x1, const double* y1, double* param) {
  return rotmg_impl(h, "trnblasDrotmg", d1, d2, x1, y1, param);
}
trnblasStatus_t trnblasRotgEx(trnblasHandle_t h, void* a, void* b, trnDataType_t abType, void* c, void* s,
                              trnDataType_t csType, trnDataType_t executiontype) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const char* fn = "trnblasRotgEx";
  const Kind k = kind_of(abType);
  // s has a's type; c is real (csType: the real type, or the complex one for the complex forms).
  const bool ok = k != Kind::none && (kind_of(csType) == real_of(k) || csType == abType) && executiontype == abType;
  if (auto st = types_supported(h, fn, ok); st != TRNBLAS_STATUS_SUCCESS) return st;
  return with_type(k, [&](auto t) {
    using T = decltype(t);
    return rotg_impl(h, fn, static_cast<T*>(a), static_cast<T*>(b), static_cast<real_t<T>*>(c), static_cast<T*>(s));
  });
}
trnblasStatus_t trnblasRotmgEx(trnblasHandle_t h, void* d1, trnDataType_t d1Type, void* d2, trnDataType_t d2Type,
                               void* x1, trnDataType_t x1Type, const void* y1, trnDataType_t y1Type, void* param,
                               trnDataType_t paramType, trnDataType_t executiontype) {
  if (!valid_handle(h)) return TRNBLAS_STATUS_NOT_INITIALIZED;
  const char* fn = "trnblasRotmgEx";
  const Kind k = kind_of(d1Type);
  const bool ok = (k == Kind::r32 || k == Kind::r64) && d2Type == d1Type && x1Type == d1Type && y1Type == d1Type &&
                  paramType == d1Type && executiontype == d1Type;
  if (auto st = types_supported(h, fn, ok); st != TRNBLAS_STATUS_SUCCESS) return st;
  if (k == Kind::r32)
    return rotmg_impl(h, fn, static_cast<float*>(d1), static_cast<float*>(d2), static_cast<float*>(x1),
                      static_cast<const float*>(y1), static_cast<float*>(param));
  return rotmg_impl(h, fn, static_cast<double*>(d1), static_cast<double*>(d2), static_cast<double*>(x1),
                    static_cast<const double*>(y1), static_cast<double*>(param));
}

#define TRNBLAS_L1_EX(I, SUF)                                                                                         \
  trnblasStatus_t trnblasAxpyEx##SUF(trnblasHandle_t h, I n, const void* alpha, trnDataType_t alphaType,             \
                                     const void* x, trnDataType_t xType, I incx, void* y, trnDataType_t yType, I incy, \
                                     trnDataType_t executiontype) {                                                   \
    return axpy_ex<I>(h, "trnblasAxpyEx" #SUF, n, alpha, alphaType, x, xType, incx, y, yType, incy, executiontype);   \
  }                                                                                                                   \
  trnblasStatus_t trnblasDotEx##SUF(trnblasHandle_t h, I n, const void* x, trnDataType_t xType, I incx, const void* y, \
                                    trnDataType_t yType, I incy, void* result, trnDataType_t resultType,              \
                                    trnDataType_t executionType) {                                                    \
    return dot_ex<I>(h, "trnblasDotEx" #SUF, false, n, x, xType, incx, y, yType, incy, result, resultType,            \
                     executionType);                                                                                  \
  }                                                                                                                   \
  trnblasStatus_t trnblasDotcEx##SUF(trnblasHandle_t h, I n, const void* x, trnDataType_t xType, I incx,              \
                                     const void* y, trnDataType_t yType, I incy, void* result,                        \
                                     trnDataType_t resultType, trnDataType_t executionType) {                         \
    return dot_ex<I>(h, "trnblasDotcEx" #SUF, true, n, x, xType, incx, y, yType, incy, result, resultType,            \
                     executionType);                                                                                  \
  }                                                                                                                   \
  trnblasStatus_t trnblasNrm2Ex##SUF(trnblasHandle_t h, I n, const void* x, trnDataType_t xType, I incx,              \
                                     void* result, trnDataType_t resultType, trnDataType_t executionType) {           \
    return norm_ex<I, true>(h, "trnblasNrm2Ex" #SUF, n, x, xType, incx, result, resultType, executionType);           \
  }                                                                                                                   \
  trnblasStatus_t trnblasAsumEx##SUF(trnblasHandle_t h, I n, const void* x, trnDataType_t xType, I incx,              \
                                     void* result, trnDataType_t resultType, trnDataType_t executiontype) {           \
    return norm_ex<I, false>(h, "trnblasAsumEx" #SUF, n, x, xType, incx, result, resultType, executiontype);          \
  }                                                                                                                   \
  trnblasStatus_t trnblasIamaxEx##SUF(trnblasHandle_t h, I n, const void* x, trnDataType_t xType, I incx,             \
                                      I* result) {                                                                    \
    return iamax_ex<I>(h, "trnblasIamaxEx" #SUF, true, n, x, xType, incx, result);                                    \
  }                                                                                                                   \
  trnblasStatus_t trnblasIaminEx##SUF(trnblasHandle_t h, I n, const void* x, trnDataType_t xType, I incx,             \
                                      I* result) {                                                                    \
    return iamax_ex<I>(h, "trnblasIaminEx" #SUF, false, n, x, xType, incx, result);                                   \
  }                                                                                                                   \
  trnblasStatus_t trnblasScalEx##SUF(trnblasHandle_t h, I n, const void* alpha, trnDataType_t alphaType, void* x,     \
                                     trnDataType_t xType, I incx, trnDataType_t executionType) {                      \
    return scal_ex<I>(h, "trnblasScalEx" #SUF, n, alpha, alphaType, x, xType, incx, executionType);                   \
  }                                                                                                                   \
  trnblasStatus_t trnblasCopyEx##SUF(trnblasHandle_t h, I n, const void* x, trnDataType_t xType, I incx, void* y,     \
                                     trnDataType_t yType, I incy) {                                                   \
    return pair_ex<I, false>(h, "trnblasCopyEx" #SUF, n, const_cast<void*>(x), xType, incx, y, yType, incy);          \
  }                                                                                                                   \
  trnblasStatus_t trnblasSwapEx##SUF(trnblasHandle_t h, I n, void* x, trnDataType_t xType, I incx, void* y,           \
                                     trnDataType_t yType, I incy) {                                                   \
    return pair_ex<I, true>(h, "trnblasSwapEx" #SUF, n, x, xType, incx, y, yType, incy);                              \
  }                                                                                                                   \
  trnblasStatus_t trnblasRotEx##SUF(trnblasHandle_t h, I n, void* x, trnDataType_t xType, I incx, void* y,            \
                                    trnDataType_t yType, I incy, const void* c, const void* s, trnDataType_t csType,  \
                                    trnDataType_t executiontype) {                                                    \
    return rot_ex<I>(h, "trnblasRotEx" #SUF, n, x, xType, incx, y, yType, incy, c, s, csType, executiontype);         \
  }                                                                                                                   \
  trnblasStatus_t trnblasRotmEx##SUF(trnblasHandle_t h, I n, void* x, trnDataType_t xType, I incx, void* y,           \
                                     trnDataType_t yType, I incy, const void* param, trnDataType_t paramType,         \
                                     trnDataType_t executiontype) {                                                   \
    return rotm_ex<I>(h, "trnblasRotmEx" #SUF, n, x, xType, incx, y, yType, incy, param, paramType, executiontype);   \
  }
TRNBLAS_L1_EX(int, )
TRNBLAS_L1_EX(int64_t, _64)
#undef TRNBLAS_L1_EX

#define TRNBLAS_L1_ROTM(P, T)                                                                                         \
  trnblasStatus_t trnblas##P##rotm(trnblasHandle_t h, int n, T* x, int incx, T* y, int incy, const T* param) {       \
    return rotm_impl<int, T>(h, "trnblas" #P "rotm", n, x, incx, y, incy, param);                                     \
  }                                                                                                                   \
  trnblasStatus_t trnblas##P##rotm_64(trnblasHandle_t h, int64_t n, T* x, int64_t incx, T* y, int64_t incy,          \
                                      const T* param) {                                                               \
    return rotm_impl<int64_t, T>(h, "trnblas" #P "rotm_64", n, x, incx, y, incy, param);                              \
  }
TRNBLAS_L1_ROTM(S, float)
TRNBLAS_L1_ROTM(D, double)
#undef TRNBLAS_L1_ROTM

#define TRNBLAS_L1_CROT(P, T, R)                                                                                      \
  trnblasStatus_t trnblas##P##rot(trnblasHandle_t h, int n, T* x, int incx, T* y, int incy, const R* c, const T* s) { \
    return rot_impl<int, T, R, T>(h, "trnblas" #P "rot", n, x, incx, y, incy, c, s);                                  \
  }                                                                                                                   \
  trnblasStatus_t trnblas##P##rot_64(trnblasHandle_t h, int64_t n, T* x, int64_t incx, T* y, int64_t incy,           \
                                     const R* c, const T* s) {                                                        \
    return rot_impl<int64_t, T, R, T>(h, "trnblas" #P "rot_64", n, x, incx, y, incy, c, s);                           \
  }
TRNBLAS_L1_CROT(C, trnFloatComplex, float)
TRNBLAS_L1_CROT(Z, trnDoubleComplex, double)
#undef TRNBLAS_L1_CROT

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
    return pair_impl<int, T>(h, "trnblas" #P "copy", copy_op<T>, n, const_cast<T*>(x), incx, y, incy);          \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##copy_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, T* y, int64_t incy) {    \
    return pair_impl<int64_t, T>(h, "trnblas" #P "copy_64", copy_op<T>, n, const_cast<T*>(x), incx, y, incy);   \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##swap(trnblasHandle_t h, int n, T* x, int incx, T* y, int incy) {                         \
    return pair_impl<int, T>(h, "trnblas" #P "swap", swap_op<T>, n, x, incx, y, incy);                           \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##swap_64(trnblasHandle_t h, int64_t n, T* x, int64_t incx, T* y, int64_t incy) {          \
    return pair_impl<int64_t, T>(h, "trnblas" #P "swap_64", swap_op<T>, n, x, incx, y, incy);                    \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##dot(trnblasHandle_t h, int n, const T* x, int incx, const T* y, int incy, T* r) {        \
    return dot_impl<int, T>(h, "trnblas" #P "dot", false, n, x, incx, y, incy, r);                                            \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##dot_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, const T* y, int64_t incy, \
                                     T* r) {                                                                           \
    return dot_impl<int64_t, T>(h, "trnblas" #P "dot_64", false, n, x, incx, y, incy, r);                                    \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##rot(trnblasHandle_t h, int n, T* x, int incx, T* y, int incy, const T* c, const T* s) {  \
    return rot_impl<int, T, T, T>(h, "trnblas" #P "rot", n, x, incx, y, incy, c, s);                                         \
  }                                                                                                                    \
  trnblasStatus_t trnblas##P##rot_64(trnblasHandle_t h, int64_t n, T* x, int64_t incx, T* y, int64_t incy, const T* c, \
                                     const T* s) {                                                                     \
    return rot_impl<int64_t, T, T, T>(h, "trnblas" #P "rot_64", n, x, incx, y, incy, c, s);                                  \
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
    return pair_impl<int, T>(h, "trnblas" #P "copy", copy_op<std::complex<R>>, n, const_cast<T*>(x), incx, y,    \
                             incy);                                                                                     \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##copy_64(trnblasHandle_t h, int64_t n, const T* x, int64_t incx, T* y, int64_t incy) {     \
    return pair_impl<int64_t, T>(h, "trnblas" #P "copy_64", copy_op<std::complex<R>>, n, const_cast<T*>(x),      \
                                 incx, y, incy);                                                                        \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##swap(trnblasHandle_t h, int n, T* x, int incx, T* y, int incy) {                          \
    return pair_impl<int, T>(h, "trnblas" #P "swap", swap_op<std::complex<R>>, n, x, incx, y, incy);              \
  }                                                                                                                     \
  trnblasStatus_t trnblas##P##swap_64(trnblasHandle_t h, int64_t n, T* x, int64_t incx, T* y, int64_t incy) {           \
    return pair_impl<int64_t, T>(h, "trnblas" #P "swap_64", swap_op<std::complex<R>>, n, x, incx, y, incy);       \
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
    return rot_impl<int, T, R, R>(h, "trnblas" #RR "rot", n, x, incx, y, incy, c, s);                                      \
  }                                                                                                                     \
  trnblasStatus_t trnblas##RR##rot_64(trnblasHandle_t h, int64_t n, T* x, int64_t incx, T* y, int64_t incy,             \
                                      const R* c, const R* s) {                                                         \
    return rot_impl<int64_t, T, R, R>(h, "trnblas" #RR "rot_64", n, x, incx, y, incy, c, s);                               \
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
