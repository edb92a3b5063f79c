// trnsolver.h, symmetric/Hermitian eigensolver by tridiagonalization: syevd, syevdx, sygvd, sygvdx, sytrd, orgtr,
// ormtr (S, D), heevd, hetrd, ungtr, unmtr (C, Z) with their
// _bufferSize twins. Conventions: capi.cpp. Arguments in cuSOLVER order (positions not counting the
// handle); the workspace the routine requires is its _bufferSize (lwork below it -> INVALID_VALUE).
#include <algorithm>

#include "capi_internal.hpp"
#include "trn/solver/complex_eig.hpp"
#include "trn/solver/eig.hpp"
#include "trn/solver/qr.hpp"
#include <type_traits>

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals

namespace {

template <class T>
constexpr char kPrefix = std::is_same_v<T, float> ? 's' : std::is_same_v<T, double> ? 'd'
                         : std::is_same_v<T, trnComplex> ? 'c' : 'z';
template <class T>
constexpr bool kComplex = kPrefix<T> == 'c' || kPrefix<T> == 'z';
using trn::cshim::as_cpp;

int workspace_int(Check& c, std::int64_t elems) {
  c.require_or(elems <= std::numeric_limits<int>::max(), TRNSOLVER_STATUS_NOT_SUPPORTED,
               "TRNSOLVER_STATUS_NOT_SUPPORTED", "workspace above INT_MAX elements");
  return static_cast<int>(std::min<std::int64_t>(elems, std::numeric_limits<int>::max()));
}

// The bufferSize pattern: the handle, the routine's argument checks, lwork (position), then the size
// (computed only for arguments that passed).
template <class Checks, class Size>
Status buffer_size(const char* fn, trnsolverDnHandle_t h, int* lwork, int pos, Checks&& checks, Size&& elems) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  checks(c);
  c.not_null(lwork, pos, "lwork");
  if (!c) return c.status();
  const int ws = workspace_int(c, elems());
  if (!c) return c.status();
  *lwork = ws;
  return TRNSOLVER_STATUS_SUCCESS;
}

// ---- syevd: jobz 1, uplo 2, n 3, A 4, lda 5, W 6, then work 7, lwork 8, devInfo 9 (or lwork 7) --------

void check_syevd(Check& c, int jobz, int uplo, int n, const void* A, int lda, const void* W) {
  c.one_of(jobz, {TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}, 1, "jobz")
      .one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 2, "uplo")
      .nonnegative(n, 3, "n").require(n == 0 || A != nullptr, 4, "A").leading_dim(lda, n, 5, "lda")
      .require(n == 0 || W != nullptr, 6, "W");
}

std::int64_t syevd_ws(int jobz, int n) {
  return std::max<std::int64_t>(1, trn::solver::syevd_workspace('e', n, jobz == TRNSOLVER_EIG_MODE_VECTOR));
}

template <class T, class R>
Status syevd_run(const char* fn, trnsolverDnHandle_t h, int jobz, int uplo, int n, T* A, int lda, R* W, T* work,
                 int lwork, int* info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_syevd(c, jobz, uplo, n, A, lda, W);
  c.not_null(work, 7, "work");
  if (c) c.require(lwork >= syevd_ws(jobz, n), 8, "lwork");
  c.not_null(info, 9, "devInfo");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    const bool v = jobz == TRNSOLVER_EIG_MODE_VECTOR;
    if constexpr (kComplex<T>)
      *info = trn::solver::heevd(h->settings, v, to_uplo(uplo), n, as_cpp(A), lda, W, &rep);
    else
      *info = trn::solver::syevd(h->settings, v, to_uplo(uplo), n, A, lda, W, &rep);
  });
}

// ---- syevdx: jobz 1, range 2, uplo 3, n 4, A 5, lda 6, vl 7, vu 8, il 9, iu 10, meig 11, W 12, then
// work 13, lwork 14, devInfo 15 (or lwork 13) ---------------------------------------------------------------

void check_syevdx(Check& c, int jobz, int range, int uplo, int n, const void* A, int lda, double vl, double vu,
                  int il, int iu, const int* meig, const void* W) {
  c.one_of(jobz, {TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}, 1, "jobz")
      .one_of(range, {TRNSOLVER_EIG_RANGE_ALL, TRNSOLVER_EIG_RANGE_I, TRNSOLVER_EIG_RANGE_V}, 2, "range")
      .one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 3, "uplo")
      .nonnegative(n, 4, "n").require(n == 0 || A != nullptr, 5, "A").leading_dim(lda, n, 6, "lda");
  check_selection(c, range, n, vl, vu, il, iu, 7);
  c.not_null(meig, 11, "meig").require(n == 0 || W != nullptr, 12, "W");
}

template <class T, class R>
Status syevdx_run(const char* fn, trnsolverDnHandle_t h, int jobz, int range, int uplo, int n, T* A, int lda, R vl,
                  R vu, int il, int iu, int* meig, R* W, T* work, int lwork, int* info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_syevdx(c, jobz, range, uplo, n, A, lda, vl, vu, il, iu, meig, W);
  c.not_null(work, 13, "work");
  if (c) c.require(lwork >= syevd_ws(jobz, n), 14, "lwork");
  c.not_null(info, 15, "devInfo");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    std::int64_t m = 0;
    if constexpr (kComplex<T>)
      *info = trn::solver::heevdx(h->settings, jobz == TRNSOLVER_EIG_MODE_VECTOR, to_select(range, vl, vu, il, iu),
                                  to_uplo(uplo), n, as_cpp(A), lda, &m, W, &rep);
    else
      *info = trn::solver::syevdx(h->settings, jobz == TRNSOLVER_EIG_MODE_VECTOR, to_select(range, vl, vu, il, iu),
                                  to_uplo(uplo), n, A, lda, &m, W, &rep);
    *meig = static_cast<int>(m);
  });
}

// ---- sygvd: itype 1, jobz 2, uplo 3, n 4, A 5, lda 6, B 7, ldb 8, W 9, then work 10, lwork 11, info 12
// (or lwork 10); sygvdx: itype 1, jobz 2, range 3, uplo 4, n 5, A 6, lda 7, B 8, ldb 9, vl 10, vu 11,
// il 12, iu 13, meig 14, W 15, then work 16, lwork 17, info 18 (or lwork 16) ---------------------------

template <class T, class R>
Status sygvd_run(const char* fn, trnsolverDnHandle_t h, int itype, int jobz, int uplo, int n, T* A, int lda, T* B,
                 int ldb, R* W, T* work, int lwork, int* info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_sygvj_common(c, itype, jobz, uplo, n, A, lda, B, ldb, W);
  c.not_null(work, 10, "work");
  if (c) c.require(lwork >= syevd_ws(jobz, n), 11, "lwork");
  c.not_null(info, 12, "info");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    if constexpr (kComplex<T>)
      *info = trn::solver::hegvd(h->settings, itype, jobz == TRNSOLVER_EIG_MODE_VECTOR, to_uplo(uplo), n, as_cpp(A), lda,
                                 as_cpp(B), ldb, W, &rep);
    else
      *info = trn::solver::sygvd(h->settings, itype, jobz == TRNSOLVER_EIG_MODE_VECTOR, to_uplo(uplo), n, A, lda, B, ldb,
                                 W, &rep);
  });
}

void check_sygvdx(Check& c, int itype, int jobz, int range, int uplo, int n, const void* A, int lda, const void* B,
                  int ldb, double vl, double vu, int il, int iu, const int* meig, const void* W) {
  c.one_of(itype, {TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_TYPE_2, TRNSOLVER_EIG_TYPE_3}, 1, "itype")
      .one_of(jobz, {TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}, 2, "jobz")
      .one_of(range, {TRNSOLVER_EIG_RANGE_ALL, TRNSOLVER_EIG_RANGE_I, TRNSOLVER_EIG_RANGE_V}, 3, "range")
      .one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 4, "uplo")
      .nonnegative(n, 5, "n").require(n == 0 || A != nullptr, 6, "A").leading_dim(lda, n, 7, "lda")
      .require(n == 0 || B != nullptr, 8, "B").leading_dim(ldb, n, 9, "ldb");
  check_selection(c, range, n, vl, vu, il, iu, 10);
  c.not_null(meig, 14, "meig").require(n == 0 || W != nullptr, 15, "W");
}

template <class T, class R>
Status sygvdx_run(const char* fn, trnsolverDnHandle_t h, int itype, int jobz, int range, int uplo, int n, T* A,
                  int lda, T* B, int ldb, R vl, R vu, int il, int iu, int* meig, R* W, T* work, int lwork, int* info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_sygvdx(c, itype, jobz, range, uplo, n, A, lda, B, ldb, vl, vu, il, iu, meig, W);
  c.not_null(work, 16, "work");
  if (c) c.require(lwork >= syevd_ws(jobz, n), 17, "lwork");
  c.not_null(info, 18, "info");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    std::int64_t m = 0;
    if constexpr (kComplex<T>)
      *info = trn::solver::hegvdx(h->settings, itype, jobz == TRNSOLVER_EIG_MODE_VECTOR, to_select(range, vl, vu, il, iu),
                                  to_uplo(uplo), n, as_cpp(A), lda, as_cpp(B), ldb, &m, W, &rep);
    else
      *info = trn::solver::sygvdx(h->settings, itype, jobz == TRNSOLVER_EIG_MODE_VECTOR, to_select(range, vl, vu, il, iu),
                                  to_uplo(uplo), n, A, lda, B, ldb, &m, W, &rep);
    *meig = static_cast<int>(m);
  });
}

// ---- sytrd: uplo 1, n 2, A 3, lda 4, d 5, e 6, tau 7, then work 8, lwork 9, info 10 (or lwork 8) ------

void check_sytrd(Check& c, int uplo, int n, const void* A, int lda, const void* d, const void* e, const void* tau) {
  c.one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 1, "uplo").nonnegative(n, 2, "n")
      .require(n == 0 || A != nullptr, 3, "A").leading_dim(lda, n, 4, "lda").require(n == 0 || d != nullptr, 5, "d")
      .require(n <= 1 || e != nullptr, 6, "e").require(n <= 1 || tau != nullptr, 7, "tau");
}

std::int64_t sytrd_ws(int n) { return trn::solver::syevd_workspace('t', n, false); }

template <class T, class R>
Status sytrd_run(const char* fn, trnsolverDnHandle_t h, int uplo, int n, T* A, int lda, R* d, R* e, T* tau, T* work,
                 int lwork, int* info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_sytrd(c, uplo, n, A, lda, d, e, tau);
  c.not_null(work, 8, "work");
  if (c) c.require(lwork >= sytrd_ws(n), 9, "lwork");
  c.not_null(info, 10, "info");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    R e0 = 0;  // n <= 1: e and tau may be NULL (nothing is written to them)
    T t0{};
    if constexpr (kComplex<T>)
      *info = trn::solver::hetrd(h->settings, to_uplo(uplo), n, as_cpp(A), lda, d, e ? e : &e0, as_cpp(tau ? tau : &t0),
                                 &rep);
    else
      *info = trn::solver::sytrd(h->settings, to_uplo(uplo), n, A, lda, d, e ? e : &e0, tau ? tau : &t0, &rep);
  });
}

// ---- orgtr: uplo 1, n 2, A 3, lda 4, tau 5, then work 6, lwork 7, info 8 (or lwork 6) -----------------

void check_orgtr(Check& c, int uplo, int n, const void* A, int lda, const void* tau) {
  c.one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 1, "uplo").nonnegative(n, 2, "n")
      .require(n == 0 || A != nullptr, 3, "A").leading_dim(lda, n, 4, "lda").require(n <= 1 || tau != nullptr, 5, "tau");
}

template <class T>
std::int64_t orgtr_ws(int n) {
  const std::int64_t k = std::max(n - 1, 0);
  return trn::solver::qr_workspace(kPrefix<T>, 'g', k, k, k);
}

template <class T>
Status orgtr_run(const char* fn, trnsolverDnHandle_t h, int uplo, int n, T* A, int lda, const T* tau, T* work,
                 int lwork, int* info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_orgtr(c, uplo, n, A, lda, tau);
  c.not_null(work, 6, "work");
  if (c) c.require(lwork >= orgtr_ws<T>(n), 7, "lwork");
  c.not_null(info, 8, "info");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    if constexpr (kComplex<T>)
      *info = trn::solver::ungtr(h->settings, to_uplo(uplo), n, as_cpp(A), lda, as_cpp(tau), &rep);
    else
      *info = trn::solver::orgtr(h->settings, to_uplo(uplo), n, A, lda, tau, &rep);
  });
}

// ---- ormtr: side 1, uplo 2, trans 3, m 4, n 5, A 6, lda 7, tau 8, C 9, ldc 10, then work 11, lwork 12,
// info 13 (or lwork 11) ----------------------------------------------------------------------------------

void check_ormtr(Check& c, int side, int uplo, int trans, int m, int n, const void* A, int lda, const void* tau,
                 const void* C, int ldc, bool complex = false) {
  const int nq = side == TRNBLAS_SIDE_LEFT ? m : n;
  c.one_of(side, {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT}, 1, "side")
      .one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 2, "uplo")
      .one_of(trans, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 3, "trans")
      .require(!complex || trans != TRNBLAS_OP_T, 3, "trans (unmtr: N or C)").nonnegative(m, 4, "m")
      .nonnegative(n, 5, "n").require(nq <= 1 || A != nullptr, 6, "A").leading_dim(lda, nq, 7, "lda")
      .require(nq <= 1 || tau != nullptr, 8, "tau").require(m == 0 || n == 0 || C != nullptr, 9, "C")
      .leading_dim(ldc, m, 10, "ldc");
}

template <class T>
std::int64_t ormtr_ws(int side, int m, int n) {
  const bool left = side == TRNBLAS_SIDE_LEFT;
  const std::int64_t k = std::max((left ? m : n) - 1, 0);
  return trn::solver::qr_workspace(kPrefix<T>, 'm', left ? k : m, left ? n : k, k, left);
}

template <class T>
Status ormtr_run(const char* fn, trnsolverDnHandle_t h, int side, int uplo, int trans, int m, int n, const T* A,
                 int lda, const T* tau, T* C, int ldc, T* work, int lwork, int* info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_ormtr(c, side, uplo, trans, m, n, A, lda, tau, C, ldc, kComplex<T>);
  c.not_null(work, 11, "work");
  if (c) c.require(lwork >= ormtr_ws<T>(side, m, n), 12, "lwork");
  c.not_null(info, 13, "devInfo");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    const bool left = side == TRNBLAS_SIDE_LEFT, t = trans != TRNBLAS_OP_N;
    if constexpr (kComplex<T>)
      *info = trn::solver::unmtr(h->settings, left, to_uplo(uplo), t, m, n, as_cpp(A), lda, as_cpp(tau), as_cpp(C), ldc,
                                 &rep);
    else
      *info = trn::solver::ormtr(h->settings, left, to_uplo(uplo), t, m, n, A, lda, tau, C, ldc, &rep);
  });
}

}  // namespace

extern "C" {

#define TRNSOLVER_DEFINE_EIG(P, T, R, EVD, TRD, GTR, MTR)                                                              \
  trnsolverStatus_t trnsolverDn##P##EVD##_bufferSize(trnsolverDnHandle_t h, trnsolverEigMode_t jobz,                   \
                                                     trnblasFillMode_t uplo, int n, const T* A, int lda,               \
                                                     const R* W, int* lwork) {                                         \
    const int jz = enum_value(jobz), ul = enum_value(uplo);                                                            \
    return buffer_size("trnsolverDn" #P #EVD "_bufferSize", h, lwork, 7,                                               \
                       [&](Check& c) { check_syevd(c, jz, ul, n, A, lda, W); },                                        \
                       [&] { return syevd_ws(jz, n); });                                                               \
  }                                                                                                                    \
  trnsolverStatus_t trnsolverDn##P##EVD(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, trnblasFillMode_t uplo,        \
                                          int n, T* A, int lda, R* W, T* work, int lwork, int* devInfo) {              \
    return syevd_run("trnsolverDn" #P #EVD, h, enum_value(jobz), enum_value(uplo), n, A, lda, W, work, lwork,          \
                     devInfo);                                                                                         \
  }                                                                                                                    \
  trnsolverStatus_t trnsolverDn##P##TRD##_bufferSize(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n,             \
                                                     const T* A, int lda, const R* d, const R* e, const T* tau,        \
                                                     int* lwork) {                                                     \
    const int ul = enum_value(uplo);                                                                                   \
    return buffer_size("trnsolverDn" #P #TRD "_bufferSize", h, lwork, 8,                                               \
                       [&](Check& c) { check_sytrd(c, ul, n, A, lda, d, e, tau); },                                    \
                       [&] { return sytrd_ws(n); });                                                                   \
  }                                                                                                                    \
  trnsolverStatus_t trnsolverDn##P##TRD(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, T* A, int lda,           \
                                          R* d, R* e, T* tau, T* work, int lwork, int* info) {                         \
    return sytrd_run("trnsolverDn" #P #TRD, h, enum_value(uplo), n, A, lda, d, e, tau, work, lwork, info);             \
  }                                                                                                                    \
  trnsolverStatus_t trnsolverDn##P##GTR##_bufferSize(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n,             \
                                                     const T* A, int lda, const T* tau, int* lwork) {                  \
    const int ul = enum_value(uplo);                                                                                   \
    return buffer_size("trnsolverDn" #P #GTR "_bufferSize", h, lwork, 6,                                               \
                       [&](Check& c) { check_orgtr(c, ul, n, A, lda, tau); },                                          \
                       [&] { return orgtr_ws<T>(n); });                                                                \
  }                                                                                                                    \
  trnsolverStatus_t trnsolverDn##P##GTR(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, T* A, int lda,           \
                                          const T* tau, T* work, int lwork, int* info) {                               \
    return orgtr_run("trnsolverDn" #P #GTR, h, enum_value(uplo), n, A, lda, tau, work, lwork, info);                   \
  }                                                                                                                    \
  trnsolverStatus_t trnsolverDn##P##MTR##_bufferSize(trnsolverDnHandle_t h, trnblasSideMode_t side,                    \
                                                     trnblasFillMode_t uplo, trnblasOperation_t trans, int m,          \
                                                     int n, const T* A, int lda, const T* tau, const T* C, int ldc,    \
                                                     int* lwork) {                                                     \
    const int sd = enum_value(side), ul = enum_value(uplo), tr = enum_value(trans);                                    \
    return buffer_size("trnsolverDn" #P #MTR "_bufferSize", h, lwork, 11,                                              \
                       [&](Check& c) { check_ormtr(c, sd, ul, tr, m, n, A, lda, tau, C, ldc, kComplex<T>); },          \
                       [&] { return ormtr_ws<T>(sd, m, n); });                                                         \
  }                                                                                                                    \
  trnsolverStatus_t trnsolverDn##P##MTR(trnsolverDnHandle_t h, trnblasSideMode_t side, trnblasFillMode_t uplo,         \
                                          trnblasOperation_t trans, int m, int n, T* A, int lda, T* tau, T* C,         \
                                          int ldc, T* work, int lwork, int* devInfo) {                                 \
    return ormtr_run("trnsolverDn" #P #MTR, h, enum_value(side), enum_value(uplo), enum_value(trans), m, n, A,         \
                     lda, tau, C, ldc, work, lwork, devInfo);                                                          \
  }
// syevdx, sygvd, sygvdx (S, D) and heevdx, hegvd, hegvdx (C, Z; W, vl, vu of the real type R).
#define TRNSOLVER_DEFINE_EVDX(P, T, R, EVDX, GVD, GVDX)                                                                                    \
  trnsolverStatus_t trnsolverDn##P##EVDX##_bufferSize(                                                                 \
      trnsolverDnHandle_t h, trnsolverEigMode_t jobz, trnsolverEigRange_t range, trnblasFillMode_t uplo, int n,        \
      const T* A, int lda, R vl, R vu, int il, int iu, int* meig, const R* W, int* lwork) {                            \
    const int jz = enum_value(jobz), rg = enum_value(range), ul = enum_value(uplo);                                    \
    return buffer_size("trnsolverDn" #P #EVDX "_bufferSize", h, lwork, 13,                                             \
                       [&](Check& c) { check_syevdx(c, jz, rg, ul, n, A, lda, vl, vu, il, iu, meig, W); },             \
                       [&] { return syevd_ws(jz, n); });                                                               \
  }                                                                                                                    \
  trnsolverStatus_t trnsolverDn##P##EVDX(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, trnsolverEigRange_t range,  \
                                           trnblasFillMode_t uplo, int n, T* A, int lda, R vl, R vu, int il, int iu,   \
                                           int* meig, R* W, T* work, int lwork, int* devInfo) {                        \
    return syevdx_run("trnsolverDn" #P #EVDX, h, enum_value(jobz), enum_value(range), enum_value(uplo), n, A,       \
                      lda, vl, vu, il, iu, meig, W, work, lwork, devInfo);                                             \
  }                                                                                                                  \
  trnsolverStatus_t trnsolverDn##P##GVD##_bufferSize(trnsolverDnHandle_t h, trnsolverEigType_t itype,              \
                                                     trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,        \
                                                     const T* A, int lda, const T* B, int ldb, const R* W,          \
                                                     int* lwork) {                                                  \
    const int it = enum_value(itype), jz = enum_value(jobz), ul = enum_value(uplo);                                 \
    return buffer_size("trnsolverDn" #P #GVD "_bufferSize", h, lwork, 10,                                          \
                       [&](Check& c) { check_sygvj_common(c, it, jz, ul, n, A, lda, B, ldb, W); },                  \
                       [&] { return syevd_ws(jz, n); });                                                            \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##GVD(trnsolverDnHandle_t h, trnsolverEigType_t itype, trnsolverEigMode_t jobz,\
                                          trnblasFillMode_t uplo, int n, T* A, int lda, T* B, int ldb, R* W,        \
                                          T* work, int lwork, int* devInfo) {                                       \
    return sygvd_run("trnsolverDn" #P #GVD, h, enum_value(itype), enum_value(jobz), enum_value(uplo), n, A, lda, \
                     B, ldb, W, work, lwork, devInfo);                                                              \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##GVDX##_bufferSize(                                                             \
      trnsolverDnHandle_t h, trnsolverEigType_t itype, trnsolverEigMode_t jobz, trnsolverEigRange_t range,         \
      trnblasFillMode_t uplo, int n, const T* A, int lda, const T* B, int ldb, R vl, R vu, int il, int iu,          \
      int* meig, const R* W, int* lwork) {                                                                          \
    const int it = enum_value(itype), jz = enum_value(jobz), rg = enum_value(range), ul = enum_value(uplo);         \
    return buffer_size(                                                                                             \
        "trnsolverDn" #P #GVDX "_bufferSize", h, lwork, 16,                                                        \
        [&](Check& c) { check_sygvdx(c, it, jz, rg, ul, n, A, lda, B, ldb, vl, vu, il, iu, meig, W); },             \
        [&] { return syevd_ws(jz, n); });                                                                           \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##GVDX(trnsolverDnHandle_t h, trnsolverEigType_t itype, trnsolverEigMode_t jobz, \
                                           trnsolverEigRange_t range, trnblasFillMode_t uplo, int n, T* A, int lda, \
                                           T* B, int ldb, R vl, R vu, int il, int iu, int* meig, R* W, T* work,     \
                                           int lwork, int* devInfo) {                                               \
    return sygvdx_run("trnsolverDn" #P #GVDX, h, enum_value(itype), enum_value(jobz), enum_value(range),        \
                      enum_value(uplo), n, A, lda, B, ldb, vl, vu, il, iu, meig, W, work, lwork, devInfo);          \
  }
TRNSOLVER_DEFINE_EIG(S, float, float, syevd, sytrd, orgtr, ormtr)
TRNSOLVER_DEFINE_EIG(D, double, double, syevd, sytrd, orgtr, ormtr)
TRNSOLVER_DEFINE_EIG(C, trnComplex, float, heevd, hetrd, ungtr, unmtr)
TRNSOLVER_DEFINE_EIG(Z, trnDoubleComplex, double, heevd, hetrd, ungtr, unmtr)
TRNSOLVER_DEFINE_EVDX(S, float, float, syevdx, sygvd, sygvdx)
TRNSOLVER_DEFINE_EVDX(D, double, double, syevdx, sygvd, sygvdx)
TRNSOLVER_DEFINE_EVDX(C, trnComplex, float, heevdx, hegvd, hegvdx)
TRNSOLVER_DEFINE_EVDX(Z, trnDoubleComplex, double, heevdx, hegvd, hegvdx)
#undef TRNSOLVER_DEFINE_EVDX
#undef TRNSOLVER_DEFINE_EIG

}  // extern "C"
