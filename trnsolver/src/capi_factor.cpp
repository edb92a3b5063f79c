// trnsolver.h, factorisations: potrf/potrs, getrf/getrs and their 64-bit X API forms. Conventions:
// capi.cpp.
#include <complex>
#include <type_traits>

#include "capi_internal.hpp"
#include "trn/solver/complex_factor.hpp"

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals
using trn::cshim::as_cpp;

namespace {

template <class T>
Status potrf_buffer(const char* fn, trnsolverDnHandle_t h, int uplo, int n, T* A, int lda, int* Lwork) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(enum_value(uplo), {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 1, "uplo")
      .nonnegative(n, 2, "n")
      .require(n == 0 || A != nullptr, 3, "A")
      .leading_dim(lda, n, 4, "lda")
      .not_null(Lwork, 5, "Lwork");
  if (!c) return c.status();
  *Lwork = 1;  // no workspace is needed
  return TRNSOLVER_STATUS_SUCCESS;
}

// potrf (potri, S/D/C/Z: capi_sym_indef.cpp, on lauum's path).
template <class T>
Status potrf_run(const char* fn, trnsolverDnHandle_t h, int uplo, int n, T* A, int lda, T* Workspace,
                 int Lwork, int* devInfo) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(enum_value(uplo), {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 1, "uplo")
      .nonnegative(n, 2, "n")
      .require(n == 0 || A != nullptr, 3, "A")
      .leading_dim(lda, n, 4, "lda")
      .not_null(Workspace, 5, "Workspace")
      .require(Lwork >= 1, 6, "Lwork")
      .not_null(devInfo, 7, "devInfo");
  return run_checked(fn, h, c, devInfo, [&](trn::solver::CallReport& report) {
    if constexpr (std::is_same_v<T, float>)
      *devInfo = trn::solver::spotrf(h->settings, to_uplo(uplo), n, A, lda, &report);
    else if constexpr (std::is_same_v<T, double>)
      *devInfo = trn::solver::dpotrf(h->settings, to_uplo(uplo), n, A, lda, &report);
    else
      *devInfo = trn::solver::potrf(h->settings, to_uplo(uplo), n, as_cpp(A), lda, &report);
  });
}

template <class T>
Status potrs_run(const char* fn, trnsolverDnHandle_t h, int uplo, int n, int nrhs, const T* A, int lda,
                 T* B, int ldb, int* devInfo) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(enum_value(uplo), {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 1, "uplo")
      .nonnegative(n, 2, "n")
      .nonnegative(nrhs, 3, "nrhs")
      .require(n == 0 || A != nullptr, 4, "A")
      .leading_dim(lda, n, 5, "lda")
      .require(n == 0 || nrhs == 0 || B != nullptr, 6, "B")
      .leading_dim(ldb, n, 7, "ldb")
      .not_null(devInfo, 8, "devInfo");
  return run_checked(fn, h, c, devInfo, [&](trn::solver::CallReport& report) {
    if constexpr (std::is_same_v<T, float>)
      trn::solver::spotrs(h->settings, to_uplo(uplo), n, nrhs, A, lda, B, ldb, &report);
    else if constexpr (std::is_same_v<T, double>)
      trn::solver::dpotrs(h->settings, to_uplo(uplo), n, nrhs, A, lda, B, ldb, &report);
    else
      trn::solver::potrs(h->settings, to_uplo(uplo), n, nrhs, as_cpp(A), lda, as_cpp(B), ldb, &report);
    *devInfo = 0;
  });
}

}  // namespace

extern "C" {

trnsolverStatus_t trnsolverDnSpotrf_bufferSize(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, float* A, int lda,
                                               int* Lwork) {
  return potrf_buffer("trnsolverDnSpotrf_bufferSize", h, enum_value(uplo), n, A, lda, Lwork);
}
trnsolverStatus_t trnsolverDnDpotrf_bufferSize(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, double* A, int lda,
                                               int* Lwork) {
  return potrf_buffer("trnsolverDnDpotrf_bufferSize", h, enum_value(uplo), n, A, lda, Lwork);
}
trnsolverStatus_t trnsolverDnSpotrf(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, float* A, int lda,
                                    float* Workspace, int Lwork, int* devInfo) {
  return potrf_run("trnsolverDnSpotrf", h, enum_value(uplo), n, A, lda, Workspace, Lwork, devInfo);
}
trnsolverStatus_t trnsolverDnDpotrf(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, double* A, int lda,
                                    double* Workspace, int Lwork, int* devInfo) {
  return potrf_run("trnsolverDnDpotrf", h, enum_value(uplo), n, A, lda, Workspace, Lwork, devInfo);
}
trnsolverStatus_t trnsolverDnSpotrs(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, int nrhs, const float* A,
                                    int lda, float* B, int ldb, int* devInfo) {
  return potrs_run("trnsolverDnSpotrs", h, enum_value(uplo), n, nrhs, A, lda, B, ldb, devInfo);
}
trnsolverStatus_t trnsolverDnDpotrs(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, int nrhs, const double* A,
                                    int lda, double* B, int ldb, int* devInfo) {
  return potrs_run("trnsolverDnDpotrs", h, enum_value(uplo), n, nrhs, A, lda, B, ldb, devInfo);
}

}  // extern "C"

namespace {

// ---- LU: getrf m 1, n 2, A 3, lda 4, Workspace 5, devIpiv 6, devInfo 7 (bufferSize: Lwork 5); getrs
// trans 1, n 2, nrhs 3, A 4, lda 5, devIpiv 6, B 7, ldb 8, devInfo 9 ---------------------------------

template <class T>
Status getrf_buffer(const char* fn, trnsolverDnHandle_t h, int m, int n, T* A, int lda, int* Lwork) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.nonnegative(m, 1, "m").nonnegative(n, 2, "n").require(m == 0 || n == 0 || A != nullptr, 3, "A")
      .leading_dim(lda, m, 4, "lda").not_null(Lwork, 5, "Lwork");
  if (!c) return c.status();
  *Lwork = 1;
  return TRNSOLVER_STATUS_SUCCESS;
}

template <class T>
Status getrf_run(const char* fn, trnsolverDnHandle_t h, int m, int n, T* A, int lda, T* Workspace, int* devIpiv,
                 int* devInfo) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.nonnegative(m, 1, "m").nonnegative(n, 2, "n").require(m == 0 || n == 0 || A != nullptr, 3, "A")
      .leading_dim(lda, m, 4, "lda").not_null(Workspace, 5, "Workspace").not_null(devInfo, 7, "devInfo");
  return run_checked(fn, h, c, devInfo, [&](trn::solver::CallReport& report) {
    if constexpr (std::is_same_v<T, float>)
      *devInfo = trn::solver::sgetrf(h->settings, m, n, A, lda, devIpiv, &report);
    else if constexpr (std::is_same_v<T, double>)
      *devInfo = trn::solver::dgetrf(h->settings, m, n, A, lda, devIpiv, &report);
    else
      *devInfo = trn::solver::getrf(h->settings, m, n, as_cpp(A), lda, devIpiv, &report);
  });
}

trn::solver::SolveOp to_solve_op(int trans) {
  return trans == TRNBLAS_OP_N ? trn::solver::SolveOp::N
         : trans == TRNBLAS_OP_T ? trn::solver::SolveOp::T : trn::solver::SolveOp::C;
}

// ---- the X API factorisations in R_32F, R_64F, C_32F, C_64F (compute type = data type) ---------------

// One name per routine over the four element types (the X dispatcher's typed internal functions).
int x_potrf(const trn::solver::Settings& s, trn::solver::Uplo u, std::int64_t n, float* A, std::int64_t lda,
            trn::solver::CallReport* r) { return trn::solver::spotrf(s, u, n, A, lda, r); }
int x_potrf(const trn::solver::Settings& s, trn::solver::Uplo u, std::int64_t n, double* A, std::int64_t lda,
            trn::solver::CallReport* r) { return trn::solver::dpotrf(s, u, n, A, lda, r); }
template <class T>
int x_potrf(const trn::solver::Settings& s, trn::solver::Uplo u, std::int64_t n, std::complex<T>* A, std::int64_t lda,
            trn::solver::CallReport* r) { return trn::solver::potrf(s, u, n, A, lda, r); }
void x_potrs(const trn::solver::Settings& s, trn::solver::Uplo u, std::int64_t n, std::int64_t nrhs, const float* A,
             std::int64_t lda, float* B, std::int64_t ldb, trn::solver::CallReport* r) {
  trn::solver::spotrs(s, u, n, nrhs, A, lda, B, ldb, r);
}
void x_potrs(const trn::solver::Settings& s, trn::solver::Uplo u, std::int64_t n, std::int64_t nrhs, const double* A,
             std::int64_t lda, double* B, std::int64_t ldb, trn::solver::CallReport* r) {
  trn::solver::dpotrs(s, u, n, nrhs, A, lda, B, ldb, r);
}
template <class T>
void x_potrs(const trn::solver::Settings& s, trn::solver::Uplo u, std::int64_t n, std::int64_t nrhs,
             const std::complex<T>* A, std::int64_t lda, std::complex<T>* B, std::int64_t ldb,
             trn::solver::CallReport* r) {
  trn::solver::potrs(s, u, n, nrhs, A, lda, B, ldb, r);
}
int x_getrf(const trn::solver::Settings& s, std::int64_t m, std::int64_t n, float* A, std::int64_t lda, int* p,
            trn::solver::CallReport* r) { return trn::solver::sgetrf(s, m, n, A, lda, p, r); }
int x_getrf(const trn::solver::Settings& s, std::int64_t m, std::int64_t n, double* A, std::int64_t lda, int* p,
            trn::solver::CallReport* r) { return trn::solver::dgetrf(s, m, n, A, lda, p, r); }
template <class T>
int x_getrf(const trn::solver::Settings& s, std::int64_t m, std::int64_t n, std::complex<T>* A, std::int64_t lda,
            int* p, trn::solver::CallReport* r) { return trn::solver::getrf(s, m, n, A, lda, p, r); }
void x_getrs(const trn::solver::Settings& s, int trans, std::int64_t n, std::int64_t nrhs, const float* A,
             std::int64_t lda, const int* p, float* B, std::int64_t ldb, trn::solver::CallReport* r) {
  trn::solver::sgetrs(s, trans != TRNBLAS_OP_N, n, nrhs, A, lda, p, B, ldb, r);
}
void x_getrs(const trn::solver::Settings& s, int trans, std::int64_t n, std::int64_t nrhs, const double* A,
             std::int64_t lda, const int* p, double* B, std::int64_t ldb, trn::solver::CallReport* r) {
  trn::solver::dgetrs(s, trans != TRNBLAS_OP_N, n, nrhs, A, lda, p, B, ldb, r);
}
template <class T>
void x_getrs(const trn::solver::Settings& s, int trans, std::int64_t n, std::int64_t nrhs, const std::complex<T>* A,
             std::int64_t lda, const int* p, std::complex<T>* B, std::int64_t ldb, trn::solver::CallReport* r) {
  trn::solver::getrs(s, to_solve_op(trans), n, nrhs, A, lda, p, B, ldb, r);
}

template <class T>
Status getrs_run(const char* fn, trnsolverDnHandle_t h, int trans, int n, int nrhs, const T* A, int lda,
                 const int* devIpiv, T* B, int ldb, int* devInfo) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(trans, {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 1, "trans")
      .nonnegative(n, 2, "n")
      .nonnegative(nrhs, 3, "nrhs")
      .require(n == 0 || A != nullptr, 4, "A")
      .leading_dim(lda, n, 5, "lda")
      .require(n == 0 || nrhs == 0 || B != nullptr, 7, "B")
      .leading_dim(ldb, n, 8, "ldb")
      .not_null(devInfo, 9, "devInfo");
  // Every pivot index must lie in [1, n] (read-only check before anything is written).
  for (int k = 0; c && devIpiv != nullptr && k < n; ++k) c.require(devIpiv[k] >= 1 && devIpiv[k] <= n, 6, "devIpiv");
  return run_checked(fn, h, c, devInfo, [&](trn::solver::CallReport& report) {
    if constexpr (std::is_same_v<T, float>)
      trn::solver::sgetrs(h->settings, trans != TRNBLAS_OP_N, n, nrhs, A, lda, devIpiv, B, ldb, &report);
    else if constexpr (std::is_same_v<T, double>)
      trn::solver::dgetrs(h->settings, trans != TRNBLAS_OP_N, n, nrhs, A, lda, devIpiv, B, ldb, &report);
    else
      trn::solver::getrs(h->settings, to_solve_op(trans), n, nrhs, as_cpp(A), lda, devIpiv, as_cpp(B), ldb, &report);
    *devInfo = 0;
  });
}

}  // namespace

extern "C" {

trnsolverStatus_t trnsolverDnSgetrf_bufferSize(trnsolverDnHandle_t h, int m, int n, float* A, int lda, int* Lwork) {
  return getrf_buffer("trnsolverDnSgetrf_bufferSize", h, m, n, A, lda, Lwork);
}
trnsolverStatus_t trnsolverDnDgetrf_bufferSize(trnsolverDnHandle_t h, int m, int n, double* A, int lda, int* Lwork) {
  return getrf_buffer("trnsolverDnDgetrf_bufferSize", h, m, n, A, lda, Lwork);
}
trnsolverStatus_t trnsolverDnSgetrf(trnsolverDnHandle_t h, int m, int n, float* A, int lda, float* Workspace,
                                    int* devIpiv, int* devInfo) {
  return getrf_run("trnsolverDnSgetrf", h, m, n, A, lda, Workspace, devIpiv, devInfo);
}
trnsolverStatus_t trnsolverDnDgetrf(trnsolverDnHandle_t h, int m, int n, double* A, int lda, double* Workspace,
                                    int* devIpiv, int* devInfo) {
  return getrf_run("trnsolverDnDgetrf", h, m, n, A, lda, Workspace, devIpiv, devInfo);
}
trnsolverStatus_t trnsolverDnSgetrs(trnsolverDnHandle_t h, trnblasOperation_t trans, int n, int nrhs, const float* A,
                                    int lda, const int* devIpiv, float* B, int ldb, int* devInfo) {
  return getrs_run("trnsolverDnSgetrs", h, enum_value(trans), n, nrhs, A, lda, devIpiv, B, ldb, devInfo);
}
trnsolverStatus_t trnsolverDnDgetrs(trnsolverDnHandle_t h, trnblasOperation_t trans, int n, int nrhs, const double* A,
                                    int lda, const int* devIpiv, double* B, int ldb, int* devInfo) {
  return getrs_run("trnsolverDnDgetrs", h, enum_value(trans), n, nrhs, A, lda, devIpiv, B, ldb, devInfo);
}

trnsolverStatus_t trnsolverDnXpotrf_bufferSize(trnsolverDnHandle_t h, trnsolverDnParams_t params,
                                               trnblasFillMode_t uplo, int64_t n, trnDataType_t dataTypeA,
                                               const void* A, int64_t lda, trnDataType_t computeType,
                                               size_t* dev_bytes, size_t* host_bytes) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnXpotrf_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.require(g_dn_params.contains(params), 1, "params")
      .one_of(enum_value(uplo), {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 2, "uplo")
      .nonnegative(n, 3, "n").require(n == 0 || A != nullptr, 5, "A").leading_dim(lda, n, 6, "lda");
  x_size_outputs(c, dev_bytes, host_bytes, 8);
  check_x_factor_types(c, enum_value(dataTypeA), enum_value(computeType));
  return x_size_answer(c, dev_bytes, host_bytes, [&] { return x_factor_elem(enum_value(dataTypeA)); });
}

trnsolverStatus_t trnsolverDnXpotrf(trnsolverDnHandle_t h, trnsolverDnParams_t params, trnblasFillMode_t uplo,
                                    int64_t n, trnDataType_t dataTypeA, void* A, int64_t lda,
                                    trnDataType_t computeType, void* bufferOnDevice, size_t dev_bytes,
                                    void* bufferOnHost, size_t host_bytes, int* info) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnXpotrf";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int dt = enum_value(dataTypeA);
  c.require(g_dn_params.contains(params), 1, "params")
      .one_of(enum_value(uplo), {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 2, "uplo")
      .nonnegative(n, 3, "n").require(n == 0 || A != nullptr, 5, "A").leading_dim(lda, n, 6, "lda")
      .not_null(bufferOnDevice, 8, "bufferOnDevice").require(dev_bytes >= x_factor_elem(dt), 9, "workspaceInBytesOnDevice")
      .require(host_bytes == 0 || bufferOnHost != nullptr, 10, "bufferOnHost").not_null(info, 12, "info");
  check_x_factor_types(c, dt, enum_value(computeType));
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    const auto u = to_uplo(enum_value(uplo));
    with_x_type(dt, A, [&](auto* a) { *info = x_potrf(h->settings, u, n, a, lda, &rep); });
  });
}

trnsolverStatus_t trnsolverDnXpotrs(trnsolverDnHandle_t h, trnsolverDnParams_t params, trnblasFillMode_t uplo,
                                    int64_t n, int64_t nrhs, trnDataType_t dataTypeA, const void* A, int64_t lda,
                                    trnDataType_t dataTypeB, void* B, int64_t ldb, int* info) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnXpotrs";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int dt = enum_value(dataTypeA);
  c.require(g_dn_params.contains(params), 1, "params")
      .one_of(enum_value(uplo), {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 2, "uplo")
      .nonnegative(n, 3, "n").nonnegative(nrhs, 4, "nrhs").require(n == 0 || A != nullptr, 6, "A")
      .leading_dim(lda, n, 7, "lda").require(n == 0 || nrhs == 0 || B != nullptr, 9, "B")
      .leading_dim(ldb, n, 10, "ldb").not_null(info, 11, "info");
  check_x_factor_types(c, dt, enum_value(dataTypeB));
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    const auto u = to_uplo(enum_value(uplo));
    with_x_type(dt, A, [&](auto* a) {
      using T = std::remove_const_t<std::remove_pointer_t<decltype(a)>>;
      x_potrs(h->settings, u, n, nrhs, a, lda, static_cast<T*>(B), ldb, &rep);
    });
    *info = 0;
  });
}

trnsolverStatus_t trnsolverDnXgetrf_bufferSize(trnsolverDnHandle_t h, trnsolverDnParams_t params, int64_t m,
                                               int64_t n, trnDataType_t dataTypeA, const void* A, int64_t lda,
                                               trnDataType_t computeType, size_t* dev_bytes, size_t* host_bytes) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnXgetrf_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.require(g_dn_params.contains(params), 1, "params").nonnegative(m, 2, "m").nonnegative(n, 3, "n")
      .require(m == 0 || n == 0 || A != nullptr, 5, "A").leading_dim(lda, m, 6, "lda");
  x_size_outputs(c, dev_bytes, host_bytes, 8);
  check_x_factor_types(c, enum_value(dataTypeA), enum_value(computeType));
  return x_size_answer(c, dev_bytes, host_bytes, [&] { return x_factor_elem(enum_value(dataTypeA)); });
}

trnsolverStatus_t trnsolverDnXgetrf(trnsolverDnHandle_t h, trnsolverDnParams_t params, int64_t m, int64_t n,
                                    trnDataType_t dataTypeA, void* A, int64_t lda, int64_t* ipiv,
                                    trnDataType_t computeType, void* bufferOnDevice, size_t dev_bytes,
                                    void* bufferOnHost, size_t host_bytes, int* info) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnXgetrf";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int dt = enum_value(dataTypeA);
  c.require(g_dn_params.contains(params), 1, "params").nonnegative(m, 2, "m").nonnegative(n, 3, "n")
      .require(m == 0 || n == 0 || A != nullptr, 5, "A").leading_dim(lda, m, 6, "lda")
      .not_null(bufferOnDevice, 9, "bufferOnDevice").require(dev_bytes >= x_factor_elem(dt), 10, "workspaceInBytesOnDevice")
      .require(host_bytes == 0 || bufferOnHost != nullptr, 11, "bufferOnHost").not_null(info, 13, "info");
  check_x_factor_types(c, dt, enum_value(computeType));
  check_int_range(c, std::min(m, n));
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    std::vector<int> piv(ipiv != nullptr ? static_cast<std::size_t>(std::min(m, n)) : 0);
    int* pp = ipiv != nullptr ? piv.data() : nullptr;
    with_x_type(dt, A, [&](auto* a) { *info = x_getrf(h->settings, m, n, a, lda, pp, &rep); });
    std::copy(piv.begin(), piv.end(), ipiv);
  });
}

trnsolverStatus_t trnsolverDnXgetrs(trnsolverDnHandle_t h, trnsolverDnParams_t params, trnblasOperation_t trans,
                                    int64_t n, int64_t nrhs, trnDataType_t dataTypeA, const void* A, int64_t lda,
                                    const int64_t* ipiv, trnDataType_t dataTypeB, void* B, int64_t ldb, int* info) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnXgetrs";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int dt = enum_value(dataTypeA);
  c.require(g_dn_params.contains(params), 1, "params")
      .one_of(enum_value(trans), {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 2, "trans")
      .nonnegative(n, 3, "n").nonnegative(nrhs, 4, "nrhs").require(n == 0 || A != nullptr, 6, "A")
      .leading_dim(lda, n, 7, "lda").require(n == 0 || nrhs == 0 || B != nullptr, 10, "B")
      .leading_dim(ldb, n, 11, "ldb").not_null(info, 12, "info");
  for (int64_t k = 0; c && ipiv != nullptr && k < n; ++k) c.require(ipiv[k] >= 1 && ipiv[k] <= n, 8, "ipiv");
  check_x_factor_types(c, dt, enum_value(dataTypeB));
  check_int_range(c, n);
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    std::vector<int> piv(ipiv != nullptr ? static_cast<std::size_t>(n) : 0);
    for (std::size_t k = 0; k < piv.size(); ++k) piv[k] = static_cast<int>(ipiv[k]);
    const int* pp = ipiv != nullptr ? piv.data() : nullptr;
    with_x_type(dt, A, [&](auto* a) {
      using T = std::remove_const_t<std::remove_pointer_t<decltype(a)>>;
      x_getrs(h->settings, enum_value(trans), n, nrhs, a, lda, pp, static_cast<T*>(B), ldb, &rep);
    });
    *info = 0;
  });
}

}  // extern "C"

// ---- complex (C, Z): potrf/potrs/getrf/getrs through the templates above (potri: capi_sym_indef.cpp) ----


#define TRNSOLVER_DEFINE_COMPLEX_FACTOR(P, C)                                                                     \
  trnsolverStatus_t trnsolverDn##P##potrf_bufferSize(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, C* A,   \
                                                     int lda, int* Lwork) {                                        \
    return potrf_buffer("trnsolverDn" #P "potrf_bufferSize", h, enum_value(uplo), n, A, lda, Lwork);               \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##potrf(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, C* A, int lda,     \
                                          C* Workspace, int Lwork, int* devInfo) {                                  \
    return potrf_run("trnsolverDn" #P "potrf", h, enum_value(uplo), n, A, lda, Workspace, Lwork, devInfo);         \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##potrs(trnsolverDnHandle_t h, trnblasFillMode_t uplo, int n, int nrhs,          \
                                          const C* A, int lda, C* B, int ldb, int* devInfo) {                       \
    return potrs_run("trnsolverDn" #P "potrs", h, enum_value(uplo), n, nrhs, A, lda, B, ldb, devInfo);             \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##getrf_bufferSize(trnsolverDnHandle_t h, int m, int n, C* A, int lda,           \
                                                     int* Lwork) {                                                 \
    return getrf_buffer("trnsolverDn" #P "getrf_bufferSize", h, m, n, A, lda, Lwork);                               \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##getrf(trnsolverDnHandle_t h, int m, int n, C* A, int lda, C* Workspace,        \
                                          int* devIpiv, int* devInfo) {                                             \
    return getrf_run("trnsolverDn" #P "getrf", h, m, n, A, lda, Workspace, devIpiv, devInfo);                       \
  }                                                                                                                 \
  trnsolverStatus_t trnsolverDn##P##getrs(trnsolverDnHandle_t h, trnblasOperation_t trans, int n, int nrhs,        \
                                          const C* A, int lda, const int* devIpiv, C* B, int ldb, int* devInfo) {   \
    return getrs_run("trnsolverDn" #P "getrs", h, enum_value(trans), n, nrhs, A, lda, devIpiv, B, ldb, devInfo);   \
  }

extern "C" {
TRNSOLVER_DEFINE_COMPLEX_FACTOR(C, trnComplex)
TRNSOLVER_DEFINE_COMPLEX_FACTOR(Z, trnDoubleComplex)
}  // extern "C"
#undef TRNSOLVER_DEFINE_COMPLEX_FACTOR
