// trnsolver.h, QR: geqrf, orgqr/ungqr, ormqr/unmqr (S, D, C, Z) with their _bufferSize twins, and the
// 64-bit Xgeqrf. Conventions: capi.cpp. Arguments in cuSOLVER order (positions not counting the
// handle); the workspace the routine requires is its _bufferSize (trn::solver::qr_workspace).
#include <complex>
#include <type_traits>

#include "capi_internal.hpp"
#include "trn/solver/qr.hpp"

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals

namespace {

using trn::cshim::as_cpp;
template <class C>
constexpr bool kComplex = !std::is_same_v<trn::cshim::cpp_element_t<C>, C>;
// The precision prefix of a C element type (the routines' panel width depends on it).
template <class C>
constexpr char kPrefix = std::is_same_v<C, float> ? 's' : std::is_same_v<C, double> ? 'd'
                         : std::is_same_v<C, trnComplex> ? 'c' : 'z';

// The workspace as the C API's int Lwork; NOT_SUPPORTED beyond INT_MAX elements.
int workspace_int(Check& c, std::int64_t elems) {
  c.require_or(elems <= std::numeric_limits<int>::max(), TRNSOLVER_STATUS_NOT_SUPPORTED,
               "TRNSOLVER_STATUS_NOT_SUPPORTED", "workspace above INT_MAX elements");
  return static_cast<int>(std::min<std::int64_t>(elems, std::numeric_limits<int>::max()));
}

// ---- geqrf: m 1, n 2, A 3, lda 4, then TAU 5, Workspace 6, Lwork 7, devInfo 8 (or lwork 5) -----------

void check_geqrf(Check& c, int m, int n, const void* A, int lda) {
  c.nonnegative(m, 1, "m").nonnegative(n, 2, "n").require(m == 0 || n == 0 || A != nullptr, 3, "A")
      .leading_dim(lda, m, 4, "lda");
}

Status geqrf_buffer(const char* fn, char P, trnsolverDnHandle_t h, int m, int n, const void* A, int lda, int* lwork) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_geqrf(c, m, n, A, lda);
  c.not_null(lwork, 5, "lwork");
  if (!c) return c.status();
  const int ws =
      workspace_int(c, trn::solver::qr_workspace(P, 'q', m, n, std::min(m, n), true, h->settings.qr_block_size));
  if (!c) return c.status();
  *lwork = ws;
  return TRNSOLVER_STATUS_SUCCESS;
}

template <class C>
Status geqrf_run(const char* fn, trnsolverDnHandle_t h, int m, int n, C* A, int lda, C* tau, C* work, int lwork,
                 int* info) {
  constexpr char P = kPrefix<C>;
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_geqrf(c, m, n, A, lda);
  c.require(m == 0 || n == 0 || tau != nullptr, 5, "TAU").not_null(work, 6, "Workspace");
  if (c)
    c.require(lwork >= trn::solver::qr_workspace(P, 'q', m, n, std::min(m, n), true, h->settings.qr_block_size), 7,
              "Lwork");
  c.not_null(info, 8, "devInfo");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    *info = trn::solver::geqrf(h->settings, m, n, as_cpp(A), lda, as_cpp(tau), &rep);
  });
}

// ---- orgqr/ungqr: m 1, n 2, k 3, A 4, lda 5, tau 6, then work 7, lwork 8, info 9 (or lwork 7) ----------

void check_orgqr(Check& c, int m, int n, int k, const void* A, int lda, const void* tau) {
  c.nonnegative(m, 1, "m").require(n >= 0 && n <= m, 2, "n").require(k >= 0 && k <= n, 3, "k")
      .require(n == 0 || A != nullptr, 4, "A").leading_dim(lda, m, 5, "lda")
      .require(k == 0 || tau != nullptr, 6, "tau");
}

Status orgqr_buffer(const char* fn, char P, trnsolverDnHandle_t h, int m, int n, int k, const void* A, int lda,
                    const void* tau, int* lwork) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_orgqr(c, m, n, k, A, lda, tau);
  c.not_null(lwork, 7, "lwork");
  if (!c) return c.status();
  const int ws = workspace_int(c, trn::solver::qr_workspace(P, 'g', m, n, k, true, h->settings.qr_block_size));
  if (!c) return c.status();
  *lwork = ws;
  return TRNSOLVER_STATUS_SUCCESS;
}

template <class C>
Status orgqr_run(const char* fn, trnsolverDnHandle_t h, int m, int n, int k, C* A, int lda, const C* tau, C* work,
                 int lwork, int* info) {
  constexpr char P = kPrefix<C>;
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_orgqr(c, m, n, k, A, lda, tau);
  c.not_null(work, 7, "work");
  if (c) c.require(lwork >= trn::solver::qr_workspace(P, 'g', m, n, k, true, h->settings.qr_block_size), 8, "lwork");
  c.not_null(info, 9, "info");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    *info = trn::solver::orgqr(h->settings, m, n, k, as_cpp(A), lda, as_cpp(tau), &rep);
  });
}

// ---- ormqr/unmqr: side 1, trans 2, m 3, n 4, k 5, A 6, lda 7, tau 8, C 9, ldc 10, then work 11,
// lwork 12, devInfo 13 (or lwork 11) ------------------------------------------------------------------

template <class T>
void check_ormqr(Check& c, int side, int trans, int m, int n, int k, const void* A, int lda, const void* tau,
                 const void* C, int ldc) {
  const int nq = side == TRNBLAS_SIDE_LEFT ? m : n;
  if constexpr (kComplex<T>)
    c.one_of(side, {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT}, 1, "side").one_of(trans, {TRNBLAS_OP_N, TRNBLAS_OP_C}, 2,
                                                                            "trans");
  else
    c.one_of(side, {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT}, 1, "side")
        .one_of(trans, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 2, "trans");
  c.nonnegative(m, 3, "m").nonnegative(n, 4, "n").require(k >= 0 && k <= nq, 5, "k")
      .require(k == 0 || A != nullptr, 6, "A").leading_dim(lda, nq, 7, "lda")
      .require(k == 0 || tau != nullptr, 8, "tau").require(m == 0 || n == 0 || C != nullptr, 9, "C")
      .leading_dim(ldc, m, 10, "ldc");
}

template <class T>
Status ormqr_buffer(const char* fn, trnsolverDnHandle_t h, int side, int trans, int m, int n, int k, const T* A,
                    int lda, const T* tau, const T* C, int ldc, int* lwork) {
  constexpr char P = kPrefix<T>;
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_ormqr<T>(c, side, trans, m, n, k, A, lda, tau, C, ldc);
  c.not_null(lwork, 11, "lwork");
  if (!c) return c.status();
  const int ws =
      workspace_int(c, trn::solver::qr_workspace(P, 'm', m, n, k, side == TRNBLAS_SIDE_LEFT, h->settings.qr_block_size));
  if (!c) return c.status();
  *lwork = ws;
  return TRNSOLVER_STATUS_SUCCESS;
}

template <class T>
Status ormqr_run(const char* fn, trnsolverDnHandle_t h, int side, int trans, int m, int n, int k, const T* A, int lda,
                 const T* tau, T* C, int ldc, T* work, int lwork, int* info) {
  constexpr char P = kPrefix<T>;
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_ormqr<T>(c, side, trans, m, n, k, A, lda, tau, C, ldc);
  c.not_null(work, 11, "work");
  const bool left = side == TRNBLAS_SIDE_LEFT;
  if (c) c.require(lwork >= trn::solver::qr_workspace(P, 'm', m, n, k, left, h->settings.qr_block_size), 12, "lwork");
  c.not_null(info, 13, "devInfo");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    *info = trn::solver::ormqr(h->settings, left, trans != TRNBLAS_OP_N, m, n, k, as_cpp(A), lda, as_cpp(tau),
                               as_cpp(C), ldc, &rep);
  });
}

// ---- Xgeqrf: params 1, m 2, n 3, dataTypeA 4, A 5, lda 6, dataTypeTau 7, tau 8, computeType 9 -------

std::size_t x_qr_elem(int t) {
  switch (t) {
    case TRN_R_32F: return sizeof(float);
    case TRN_R_64F: return sizeof(double);
    case TRN_C_32F: return 2 * sizeof(float);
    default: return 2 * sizeof(double);
  }
}

void check_xgeqrf(Check& c, trnsolverDnParams_t params, std::int64_t m, std::int64_t n, int dta, const void* A,
                  std::int64_t lda, int dtt, const void* tau, int dtc) {
  c.require(g_dn_params.contains(params), 1, "params").nonnegative(m, 2, "m").nonnegative(n, 3, "n")
      .require(m == 0 || n == 0 || A != nullptr, 5, "A").leading_dim(lda, m, 6, "lda")
      .require(m == 0 || n == 0 || tau != nullptr, 8, "tau");
  c.require_or((dta == TRN_R_32F || dta == TRN_R_64F || dta == TRN_C_32F || dta == TRN_C_64F) && dtt == dta &&
                   dtc == dta,
               TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
               "dataTypeA = dataTypeTau = computeType, one of TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F");
}

std::size_t xgeqrf_bytes(trnsolverDnHandle_t h, std::int64_t m, std::int64_t n, int dt) {
  const char P = dt == TRN_R_32F ? 's' : dt == TRN_R_64F ? 'd' : dt == TRN_C_32F ? 'c' : 'z';
  return static_cast<std::size_t>(trn::solver::qr_workspace(P, 'q', m, n, std::min(m, n), true, h->settings.qr_block_size)) *
         x_qr_elem(dt);
}

}  // namespace

extern "C" {

#define TRNSOLVER_DEFINE_QR(P, T, ORG, ORM)                                                                         \
  trnsolverStatus_t trnsolverDn##P##geqrf_bufferSize(trnsolverDnHandle_t h, int m, int n, T* A, int lda,          \
                                                     int* lwork) {                                                  \
    return geqrf_buffer("trnsolverDn" #P "geqrf_bufferSize", kPrefix<T>, h, m, n, A, lda, lwork);                              \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##geqrf(trnsolverDnHandle_t h, int m, int n, T* A, int lda, T* TAU, T* Workspace, \
                                          int Lwork, int* devInfo) {                                                \
    return geqrf_run("trnsolverDn" #P "geqrf", h, m, n, A, lda, TAU, Workspace, Lwork, devInfo);                   \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##ORG##_bufferSize(trnsolverDnHandle_t h, int m, int n, int k, const T* A,       \
                                                     int lda, const T* tau, int* lwork) {                           \
    return orgqr_buffer("trnsolverDn" #P #ORG "_bufferSize", kPrefix<T>, h, m, n, k, A, lda, tau, lwork);                     \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##ORG(trnsolverDnHandle_t h, int m, int n, int k, T* A, int lda, const T* tau,   \
                                        T* work, int lwork, int* info) {                                            \
    return orgqr_run("trnsolverDn" #P #ORG, h, m, n, k, A, lda, tau, work, lwork, info);                           \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##ORM##_bufferSize(trnsolverDnHandle_t h, trnblasSideMode_t side,               \
                                                     trnblasOperation_t trans, int m, int n, int k, const T* A,     \
                                                     int lda, const T* tau, const T* C, int ldc, int* lwork) {      \
    return ormqr_buffer("trnsolverDn" #P #ORM "_bufferSize", h, enum_value(side), enum_value(trans), m, n, k, A,   \
                        lda, tau, C, ldc, lwork);                                                                   \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##ORM(trnsolverDnHandle_t h, trnblasSideMode_t side, trnblasOperation_t trans,   \
                                        int m, int n, int k, const T* A, int lda, const T* tau, T* C, int ldc,      \
                                        T* work, int lwork, int* devInfo) {                                         \
    return ormqr_run("trnsolverDn" #P #ORM, h, enum_value(side), enum_value(trans), m, n, k, A, lda, tau, C, ldc,  \
                     work, lwork, devInfo);                                                                         \
  }
TRNSOLVER_DEFINE_QR(S, float, orgqr, ormqr)
TRNSOLVER_DEFINE_QR(D, double, orgqr, ormqr)
TRNSOLVER_DEFINE_QR(C, trnComplex, ungqr, unmqr)
TRNSOLVER_DEFINE_QR(Z, trnDoubleComplex, ungqr, unmqr)
#undef TRNSOLVER_DEFINE_QR

trnsolverStatus_t trnsolverDnXgeqrf_bufferSize(trnsolverDnHandle_t h, trnsolverDnParams_t params, int64_t m,
                                               int64_t n, trnDataType_t dataTypeA, const void* A, int64_t lda,
                                               trnDataType_t dataTypeTau, const void* tau, trnDataType_t computeType,
                                               size_t* dev_bytes, size_t* host_bytes) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnXgeqrf_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int dt = enum_value(dataTypeA);
  check_xgeqrf(c, params, m, n, dt, A, lda, enum_value(dataTypeTau), tau, enum_value(computeType));
  x_size_outputs(c, dev_bytes, host_bytes, 10);
  return x_size_answer(c, dev_bytes, host_bytes, [&] { return xgeqrf_bytes(h, m, n, dt); });
}

trnsolverStatus_t trnsolverDnXgeqrf(trnsolverDnHandle_t h, trnsolverDnParams_t params, int64_t m, int64_t n,
                                    trnDataType_t dataTypeA, void* A, int64_t lda, trnDataType_t dataTypeTau,
                                    void* tau, trnDataType_t computeType, void* bufferOnDevice, size_t dev_bytes,
                                    void* bufferOnHost, size_t host_bytes, int* info) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnXgeqrf";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int dt = enum_value(dataTypeA);
  check_xgeqrf(c, params, m, n, dt, A, lda, enum_value(dataTypeTau), tau, enum_value(computeType));
  c.not_null(bufferOnDevice, 10, "bufferOnDevice");
  if (c) c.require(dev_bytes >= xgeqrf_bytes(h, m, n, dt), 11, "workspaceInBytesOnDevice");
  c.require(host_bytes == 0 || bufferOnHost != nullptr, 12, "bufferOnHost").not_null(info, 14, "info");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    const auto& s = h->settings;
    switch (dt) {
      case TRN_R_32F: *info = trn::solver::geqrf(s, m, n, static_cast<float*>(A), lda, static_cast<float*>(tau), &rep); break;
      case TRN_R_64F: *info = trn::solver::geqrf(s, m, n, static_cast<double*>(A), lda, static_cast<double*>(tau), &rep); break;
      case TRN_C_32F:
        *info = trn::solver::geqrf(s, m, n, static_cast<std::complex<float>*>(A), lda,
                                   static_cast<std::complex<float>*>(tau), &rep);
        break;
      default:
        *info = trn::solver::geqrf(s, m, n, static_cast<std::complex<double>*>(A), lda,
                                   static_cast<std::complex<double>*>(tau), &rep);
    }
  });
}

}  // extern "C"
