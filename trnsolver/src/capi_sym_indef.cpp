// trnsolver.h, the symmetric-indefinite routines and the inverse helpers: sytrf, sytri, lauum, potri,
// laswp and their _bufferSize twins (S, D, C, Z), Xsytrs and Xlarft (64-bit API). Each
// checks its arguments in cuSOLVER's order (info = -position where there is an info), a workspace
// smaller than its _bufferSize is INVALID_VALUE, outputs untouched on error. Conventions: capi.cpp.
#include <complex>
#include <type_traits>

#include "capi_internal.hpp"
#include "trn/solver/complex_factor.hpp"
#include "trn/solver/sym_indef.hpp"

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals
using trn::cshim::as_cpp;

namespace {

Check& check_uplo(Check& c, int uplo, int pos) {
  return c.one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, pos, "uplo");
}

// The int workspace (elements) each routine requires: its _bufferSize answer.
std::int64_t sytrf_lwork(int n) {
  const std::int64_t m = std::max(1, n);
  return m * std::min(trn::solver::kSytrfPanel, m);  // int64: no overflow for any int n
}
int sytri_lwork(int n) { return std::max(1, n); }

// The leading checks of every routine on (uplo, n, A, lda) at positions 1..4 (sytrf_bufferSize has
// no uplo: first = 1 then is n).
void check_square(Check& c, int n, const void* A, int lda, int first) {
  c.nonnegative(n, first, "n").require(n == 0 || A != nullptr, first + 1, "A").leading_dim(lda, n, first + 2, "lda");
}

Status buffer_answer(Check& c, int* lwork, int pos, int value) {
  if (!c.not_null(lwork, pos, "lwork")) return c.status();
  *lwork = value;
  return TRNSOLVER_STATUS_SUCCESS;
}

// sytrf_bufferSize: n 1, A 2, lda 3, lwork 4.
template <class T>
Status sytrf_buffer(const char* fn, trnsolverDnHandle_t h, int n, T* A, int lda, int* lwork) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_square(c, n, A, lda, 1);
  const std::int64_t w = sytrf_lwork(std::max(n, 0));
  c.require_or(w <= std::numeric_limits<int>::max(), TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
               "workspace above INT_MAX elements");
  return buffer_answer(c, lwork, 4, static_cast<int>(std::min<std::int64_t>(w, std::numeric_limits<int>::max())));
}

// sytrf: uplo 1, n 2, A 3, lda 4, ipiv 5, work 6, lwork 7, info 8.
template <class T>
Status sytrf_run(const char* fn, trnsolverDnHandle_t h, int uplo, int n, T* A, int lda, int* ipiv, T* work, int lwork,
                 int* info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_uplo(c, uplo, 1);
  check_square(c, n, A, lda, 2);
  c.require(n == 0 || ipiv != nullptr, 5, "ipiv")
      .not_null(work, 6, "work")
      .require(lwork >= sytrf_lwork(std::max(n, 0)), 7, "lwork (below sytrf_bufferSize)")
      .not_null(info, 8, "info");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    *info = trn::solver::sytrf(h->settings, to_uplo(uplo), n, as_cpp(A), lda, ipiv, &rep);
  });
}

// sytri_bufferSize: uplo 1, n 2, A 3, lda 4, ipiv 5, lwork 6; sytri: ... work 6, lwork 7, info 8.
template <class T>
Status sytri_buffer(const char* fn, trnsolverDnHandle_t h, int uplo, int n, T* A, int lda, const int* ipiv,
                    int* lwork) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_uplo(c, uplo, 1);
  check_square(c, n, A, lda, 2);
  c.require(n == 0 || ipiv != nullptr, 5, "ipiv");
  return buffer_answer(c, lwork, 6, sytri_lwork(std::max(n, 0)));
}

template <class T>
Status sytri_run(const char* fn, trnsolverDnHandle_t h, int uplo, int n, T* A, int lda, const int* ipiv, T* work,
                 int lwork, int* info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_uplo(c, uplo, 1);
  check_square(c, n, A, lda, 2);
  c.require(n == 0 || ipiv != nullptr, 5, "ipiv");
  if (c) c.require(trn::solver::sytrf_pivots_valid(to_uplo(uplo), n, ipiv), 5, "ipiv (sytrf's pattern)");
  c.not_null(work, 6, "work")
      .require(lwork >= sytri_lwork(std::max(n, 0)), 7, "lwork (below sytri_bufferSize)")
      .not_null(info, 8, "info");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    *info = trn::solver::sytri(h->settings, to_uplo(uplo), n, as_cpp(A), lda, ipiv, &rep);
  });
}

// lauum / potri (S, D, C, Z) _bufferSize: uplo 1, n 2, A 3, lda 4, lwork 5.
template <class T>
Status lauum_buffer(const char* fn, trnsolverDnHandle_t h, int uplo, int n, T* A, int lda, int* lwork) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_uplo(c, uplo, 1);
  check_square(c, n, A, lda, 2);
  return buffer_answer(c, lwork, 5, 1);
}

// lauum / potri (S, D, C, Z): uplo 1, n 2, A 3, lda 4, work 5, lwork 6 (>= 1), devInfo 7 (cuSOLVER's
// potri has lauum's arguments in lauum's positions, so every potri is this one path).
template <class T>
Status lauum_run(const char* fn, trnsolverDnHandle_t h, int uplo, int n, T* A, int lda, T* work, int lwork,
                 int* devInfo, bool inverse) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_uplo(c, uplo, 1);
  check_square(c, n, A, lda, 2);
  c.not_null(work, 5, "work")
      .require(lwork >= 1, 6, "lwork (below the _bufferSize answer)")
      .not_null(devInfo, 7, "devInfo");
  return run_checked(fn, h, c, devInfo, [&](trn::solver::CallReport& rep) {
    if (inverse) {  // S/D: sym_indef.hpp (trtri + lauum); C/Z: complex_factor.hpp
      *devInfo = trn::solver::potri(h->settings, to_uplo(uplo), n, as_cpp(A), lda, &rep);
      return;
    }
    trn::solver::lauum(h->settings, to_uplo(uplo), n, as_cpp(A), lda, &rep);
    *devInfo = 0;
  });
}

// laswp: n 1, A 2, lda 3, k1 4, k2 5, devIpiv 6 (read-only check: entries in [1, lda]), incx 7.
template <class T>
Status laswp_run(const char* fn, trnsolverDnHandle_t h, int n, T* A, int lda, int k1, int k2, const int* ipiv,
                 int incx) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.nonnegative(n, 1, "n")
      .require(n == 0 || A != nullptr, 2, "A")
      .require(lda >= std::max(1, k2), 3, "lda")
      .require(k1 >= 1, 4, "k1")
      .require(k2 >= k1, 5, "k2")
      .not_null(ipiv, 6, "devIpiv");
  const std::int64_t step = incx > 0 ? incx : -static_cast<std::int64_t>(incx);
  for (std::int64_t i = k1; c && i <= k2; ++i) {
    const int p = ipiv[(k1 - 1) + (i - k1) * step];
    c.require(p >= 1 && p <= lda, 6, "devIpiv (entries in [1, lda])");
  }
  c.require(incx != 0, 7, "incx");
  return run_checked(fn, h, c, nullptr, [&](trn::solver::CallReport& rep) {
    trn::solver::laswp(h->settings, n, as_cpp(A), lda, k1, k2, ipiv, incx, &rep);
  });
}

}  // namespace

#define TRNSOLVER_DEFINE_SYM_INDEF(P, T)                                                                         \
  trnsolverStatus_t trnsolverDn##P##sytrf_bufferSize(trnsolverDnHandle_t h, int n, T* A, int lda, int* lwork) {  \
    return sytrf_buffer("trnsolverDn" #P "sytrf_bufferSize", h, n, A, lda, lwork);                               \
  }                                                                                                              \
  trnsolverStatus_t trnsolverDn##P##sytrf(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, T* A, int lda,   \
                                          int* ipiv, T* work, int lwork, int* info) {                            \
    return sytrf_run("trnsolverDn" #P "sytrf", h, enum_value(uplo), n, A, lda, ipiv, work, lwork, info);         \
  }                                                                                                              \
  trnsolverStatus_t trnsolverDn##P##sytri_bufferSize(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, T* A, \
                                                     int lda, const int* ipiv, int* lwork) {                     \
    return sytri_buffer("trnsolverDn" #P "sytri_bufferSize", h, enum_value(uplo), n, A, lda, ipiv, lwork);       \
  }                                                                                                              \
  trnsolverStatus_t trnsolverDn##P##sytri(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, T* A, int lda,   \
                                          const int* ipiv, T* work, int lwork, int* info) {                      \
    return sytri_run("trnsolverDn" #P "sytri", h, enum_value(uplo), n, A, lda, ipiv, work, lwork, info);         \
  }                                                                                                              \
  trnsolverStatus_t trnsolverDn##P##lauum_bufferSize(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, T* A, \
                                                     int lda, int* lwork) {                                      \
    return lauum_buffer("trnsolverDn" #P "lauum_bufferSize", h, enum_value(uplo), n, A, lda, lwork);             \
  }                                                                                                              \
  trnsolverStatus_t trnsolverDn##P##lauum(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, T* A, int lda,   \
                                          T* work, int lwork, int* devInfo) {                                    \
    return lauum_run("trnsolverDn" #P "lauum", h, enum_value(uplo), n, A, lda, work, lwork, devInfo, false);     \
  }                                                                                                              \
  trnsolverStatus_t trnsolverDn##P##laswp(trnsolverDnHandle_t h, int n, T* A, int lda, int k1, int k2,           \
                                          const int* devIpiv, int incx) {                                        \
    return laswp_run("trnsolverDn" #P "laswp", h, n, A, lda, k1, k2, devIpiv, incx);                             \
  }

extern "C" {
TRNSOLVER_DEFINE_SYM_INDEF(S, float)
TRNSOLVER_DEFINE_SYM_INDEF(D, double)
TRNSOLVER_DEFINE_SYM_INDEF(C, trnComplex)
TRNSOLVER_DEFINE_SYM_INDEF(Z, trnDoubleComplex)

// potri (S, D, C, Z): the inverse from the Cholesky factor, on lauum's checks.
#define TRNSOLVER_DEFINE_POTRI(P, T)                                                                              \
  trnsolverStatus_t trnsolverDn##P##potri_bufferSize(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, T* A, int lda, \
                                                     int* lwork) {                                                \
    return lauum_buffer("trnsolverDn" #P "potri_bufferSize", h, enum_value(uplo), n, A, lda, lwork);              \
  }                                                                                                               \
  trnsolverStatus_t trnsolverDn##P##potri(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, T* A, int lda, T* work, \
                                          int lwork, int* devInfo) {                                              \
    return lauum_run("trnsolverDn" #P "potri", h, enum_value(uplo), n, A, lda, work, lwork, devInfo, true);      \
  }
TRNSOLVER_DEFINE_POTRI(S, float)
TRNSOLVER_DEFINE_POTRI(D, double)
TRNSOLVER_DEFINE_POTRI(C, trnComplex)
TRNSOLVER_DEFINE_POTRI(Z, trnDoubleComplex)
#undef TRNSOLVER_DEFINE_POTRI
}  // extern "C"
#undef TRNSOLVER_DEFINE_SYM_INDEF

// ---- the 64-bit API: Xsytrs, Xlarft ----------------------------------------------------------------------

namespace {

bool x_any_type(int t) { return t == TRN_R_32F || t == TRN_R_64F || t == TRN_C_32F || t == TRN_C_64F; }

// Xsytrs (and its bufferSize, whose checks stop at ldb): uplo 1, n 2, nrhs 3, dataTypeA 4, A 5, lda 6,
// ipiv 7, dataTypeB 8, B 9, ldb 10. The int64 pivots are range-checked and converted to `piv`.
void check_xsytrs(Check& c, int uplo, std::int64_t n, std::int64_t nrhs, int ta, const void* A, std::int64_t lda,
                  const std::int64_t* ipiv, int tb, const void* B, std::int64_t ldb, std::vector<int>* piv) {
  check_uplo(c, uplo, 1);
  c.nonnegative(n, 2, "n")
      .nonnegative(nrhs, 3, "nrhs")
      .require_or(x_any_type(ta), TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
                  "dataTypeA: TRN_R_32F, TRN_R_64F, TRN_C_32F or TRN_C_64F")
      .require(n == 0 || A != nullptr, 5, "A")
      .leading_dim(lda, n, 6, "lda")
      .require(n == 0 || ipiv != nullptr, 7, "ipiv");
  check_int_range(c, n);
  if (c && piv != nullptr && n > 0) {
    piv->resize(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k)
      (*piv)[static_cast<std::size_t>(k)] = ipiv[k] >= -n && ipiv[k] <= n ? static_cast<int>(ipiv[k]) : 0;
    c.require(trn::solver::sytrf_pivots_valid(to_uplo(uplo), n, piv->data()), 7, "ipiv (sytrf's pattern)");
  }
  c.require_or(tb == ta, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED", "dataTypeB = dataTypeA")
      .require(n == 0 || nrhs == 0 || B != nullptr, 9, "B")
      .leading_dim(ldb, n, 10, "ldb");
}

// Xlarft (and its bufferSize, whose checks stop at computeType): params 1, direct 2, storev 3, n 4,
// k 5, dataTypeV 6, V 7, ldv 8, dataTypeTau 9, tau 10, dataTypeT 11, T 12, ldt 13, computeType 14.
void check_xlarft(Check& c, trnsolverDnParams_t params, int direct, int storev, std::int64_t n, std::int64_t k, int tv,
                  const void* V, std::int64_t ldv, int ttau, const void* tau, int tt, const void* T, std::int64_t ldt,
                  int tc) {
  c.require(g_dn_params.contains(params), 1, "params")
      .one_of(direct, {TRNBLAS_DIRECT_FORWARD, TRNBLAS_DIRECT_BACKWARD}, 2, "direct")
      .one_of(storev, {TRNBLAS_STOREV_COLUMNWISE, TRNBLAS_STOREV_ROWWISE}, 3, "storev")
      .require_or(storev != TRNBLAS_STOREV_ROWWISE, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
                  "storev: TRNBLAS_STOREV_COLUMNWISE only (as cuSOLVER)")
      .nonnegative(n, 4, "n")
      .require(k >= 0 && k <= n, 5, "k (0 <= k <= n)")
      .require_or(x_any_type(tv), TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
                  "dataTypeV: TRN_R_32F, TRN_R_64F, TRN_C_32F or TRN_C_64F")
      .require(k == 0 || V != nullptr, 7, "V")
      .leading_dim(ldv, n, 8, "ldv")
      .require_or(ttau == tv, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
                  "dataTypeTau = dataTypeV")
      .require(k == 0 || tau != nullptr, 10, "tau")
      .require_or(tt == tv, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED", "dataTypeT = dataTypeV")
      .require(k == 0 || T != nullptr, 12, "T")
      .leading_dim(ldt, k, 13, "ldt")
      .require_or(tc == tv, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
                  "computeType = dataTypeV");
}

Status x_buffer_answer(Check& c, size_t* dev, int dev_pos, size_t* host, std::size_t bytes) {
  return x_size_answer(x_size_outputs(c, dev, host, dev_pos), dev, host, [&] { return bytes; });
}

}  // namespace

extern "C" {

trnsolverStatus_t trnsolverDnXsytrs_bufferSize(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int64_t n, int64_t nrhs,
                                               trnDataType_t dataTypeA, const void* A, int64_t lda, const int64_t* ipiv,
                                               trnDataType_t dataTypeB, void* B, int64_t ldb, size_t* dev_bytes,
                                               size_t* host_bytes) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnXsytrs_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int ta = enum_value(dataTypeA);
  check_xsytrs(c, enum_value(uplo), n, nrhs, ta, A, lda, ipiv, enum_value(dataTypeB), B, ldb, nullptr);
  return x_buffer_answer(c, dev_bytes, 11, host_bytes, x_factor_elem(ta));
}

trnsolverStatus_t trnsolverDnXsytrs(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int64_t n, int64_t nrhs,
                                    trnDataType_t dataTypeA, const void* A, int64_t lda, const int64_t* ipiv,
                                    trnDataType_t dataTypeB, void* B, int64_t ldb, void* bufferOnDevice,
                                    size_t dev_bytes, void* bufferOnHost, size_t host_bytes, int* info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnXsytrs";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int ta = enum_value(dataTypeA), u = enum_value(uplo);
  std::vector<int> piv;
  check_xsytrs(c, u, n, nrhs, ta, A, lda, ipiv, enum_value(dataTypeB), B, ldb, &piv);
  c.not_null(bufferOnDevice, 11, "bufferOnDevice")
      .require(dev_bytes >= x_factor_elem(ta), 12, "workspaceInBytesOnDevice (below Xsytrs_bufferSize)")
      .require(host_bytes == 0 || bufferOnHost != nullptr, 13, "bufferOnHost")
      .not_null(info, 15, "info");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    with_x_type(ta, A, [&](auto* a) {
      using T = std::remove_const_t<std::remove_pointer_t<decltype(a)>>;
      trn::solver::sytrs(h->settings, to_uplo(u), n, nrhs, a, lda, piv.data(), static_cast<T*>(B), ldb, &rep);
    });
    *info = 0;
  });
}

trnsolverStatus_t trnsolverDnXlarft_bufferSize(trnsolverDnHandle_t h, trnsolverDnParams_t params,
                                               trnsolverDirectMode_t direct, trnsolverStorevMode_t storev, int64_t n,
                                               int64_t k, trnDataType_t dataTypeV, const void* V, int64_t ldv,
                                               trnDataType_t dataTypeTau, const void* tau, trnDataType_t dataTypeT,
                                               void* T, int64_t ldt, trnDataType_t computeType, size_t* dev_bytes,
                                               size_t* host_bytes) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnXlarft_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int tv = enum_value(dataTypeV);
  check_xlarft(c, params, enum_value(direct), enum_value(storev), n, k, tv, V, ldv, enum_value(dataTypeTau), tau,
               enum_value(dataTypeT), T, ldt, enum_value(computeType));
  return x_buffer_answer(c, dev_bytes, 15, host_bytes, x_factor_elem(tv));
}

trnsolverStatus_t trnsolverDnXlarft(trnsolverDnHandle_t h, trnsolverDnParams_t params, trnsolverDirectMode_t direct,
                                    trnsolverStorevMode_t storev, int64_t n, int64_t k, trnDataType_t dataTypeV,
                                    const void* V, int64_t ldv, trnDataType_t dataTypeTau, const void* tau,
                                    trnDataType_t dataTypeT, void* T, int64_t ldt, trnDataType_t computeType,
                                    void* bufferOnDevice, size_t dev_bytes, void* bufferOnHost, size_t host_bytes) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnXlarft";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int tv = enum_value(dataTypeV), dir = enum_value(direct);
  check_xlarft(c, params, dir, enum_value(storev), n, k, tv, V, ldv, enum_value(dataTypeTau), tau,
               enum_value(dataTypeT), T, ldt, enum_value(computeType));
  c.not_null(bufferOnDevice, 15, "bufferOnDevice")
      .require(dev_bytes >= x_factor_elem(tv), 16, "workspaceInBytesOnDevice (below Xlarft_bufferSize)")
      .require(host_bytes == 0 || bufferOnHost != nullptr, 17, "bufferOnHost");
  return run_checked(fn, h, c, nullptr, [&](trn::solver::CallReport& rep) {
    with_x_type(tv, V, [&](auto* v) {
      using E = std::remove_const_t<std::remove_pointer_t<decltype(v)>>;
      trn::solver::larft(h->settings, dir == TRNBLAS_DIRECT_FORWARD, n, k, v, ldv, static_cast<const E*>(tau),
                         static_cast<E*>(T), ldt, &rep);
    });
  });
}

}  // extern "C"
