// trnsolver.h, the 64-bit generic API of the symmetric eigensolver: Xsyevd, Xsyevdx, XsyevBatched with
// their _bufferSize twins, dispatching by data type to the S/D syevd / syevdx of syevd.cpp and the C/Z
// heevd / heevdx (hetrd.cpp, heevdx.cpp; dataTypeW the real type of dataTypeA), and Xtrtri (trtri.cpp, C/Z complex_factor.cpp; no params argument, as cuSOLVER). Conventions: capi.cpp; positions counted without the handle (params 1).
// Workspace: syevd's element count (LAPACK xSYEVD's lwork) times the element size on the device, none
// on the host; a smaller workspaceInBytesOnDevice -> INVALID_VALUE.
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "capi_internal.hpp"
#include "trn/solver/complex_eig.hpp"
#include "trn/solver/complex_factor.hpp"  // trtri (C, Z)

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals

namespace {

// One X eigensolver call's arguments (enums as the caller's ints).
struct XEig {
  bool x = false, batched = false;  // Xsyevdx / XsyevBatched
  int jobz = 0, range = TRNSOLVER_EIG_RANGE_ALL, uplo = 0;
  std::int64_t n = 0;
  int dta = 0;
  const void* A = nullptr;
  std::int64_t lda = 0;
  const void *vl = nullptr, *vu = nullptr;
  std::int64_t il = 1, iu = 0;
  const std::int64_t* meig = nullptr;
  int dtw = 0;
  const void* W = nullptr;
  int dtc = 0;
  std::int64_t batch = 1;
  // Position of dataTypeW and what follows: Xsyevdx has range (3) and vl .. meig (9 .. 13) more.
  int shift() const { return x ? 6 : 0; }
};

// The eigensolvers' data types: TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F (computeType = dataTypeA,
// dataTypeW = eig_real(dataTypeA)); element bytes.
bool eig_type(int dt) { return dt == TRN_R_32F || dt == TRN_R_64F || dt == TRN_C_32F || dt == TRN_C_64F; }
int eig_real(int dt) { return dt == TRN_C_32F ? TRN_R_32F : dt == TRN_C_64F ? TRN_R_64F : dt; }
std::size_t eig_elem(int dt) { return x_elem(eig_real(dt)) * (dt == eig_real(dt) ? 1 : 2); }

double bound_value(const void* p, int dt) {
  return dt == TRN_R_32F ? static_cast<double>(*static_cast<const float*>(p)) : *static_cast<const double*>(p);
}

void check_xeig(Check& c, trnsolverDnParams_t params, const XEig& a) {
  const int r = a.x ? 1 : 0;
  c.require(g_dn_params.contains(params), 1, "params")
      .one_of(a.jobz, {TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}, 2, "jobz");
  if (a.x) c.one_of(a.range, {TRNSOLVER_EIG_RANGE_ALL, TRNSOLVER_EIG_RANGE_I, TRNSOLVER_EIG_RANGE_V}, 3, "range");
  c.one_of(a.uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 3 + r, "uplo").nonnegative(a.n, 4 + r, "n")
      .require(a.n == 0 || a.A != nullptr, 6 + r, "A").leading_dim(a.lda, a.n, 7 + r, "lda");
  if (a.x) {
    const bool v = a.range == TRNSOLVER_EIG_RANGE_V, real = eig_type(a.dta);
    c.require(!v || a.vl != nullptr, 9, "vl").require(!v || a.vu != nullptr, 10, "vu");
    if (c && real)
      check_selection(c, a.range, a.n, v ? bound_value(a.vl, eig_real(a.dta)) : 0.0,
                      v ? bound_value(a.vu, eig_real(a.dta)) : 0.0, a.il, a.iu, 9);
    c.not_null(a.meig, 13, "meig");
  }
  c.require(a.n == 0 || a.W != nullptr, 9 + a.shift(), "W");
  c.require_or(eig_type(a.dta) && a.dtc == a.dta, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
               "dataTypeA / computeType: TRN_R_32F, TRN_R_64F, TRN_C_32F or TRN_C_64F, both the same");
  c.require_or(a.dtw == eig_real(a.dta), TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
               "dataTypeW = the real type of dataTypeA");
}

// Device bytes the call requires: syevd's workspace (one matrix) in elements of dataTypeA.
std::size_t xeig_bytes(Check& c, const XEig& a) {
  const std::int64_t elems = std::max<std::int64_t>(1, trn::solver::syevd_workspace('e', a.n,
                                                                                    a.jobz == TRNSOLVER_EIG_MODE_VECTOR));
  const auto esz = static_cast<std::int64_t>(eig_elem(a.dta));
  c.require_or(elems <= std::numeric_limits<std::int64_t>::max() / esz, TRNSOLVER_STATUS_NOT_SUPPORTED,
               "TRNSOLVER_STATUS_NOT_SUPPORTED", "workspace above INT64_MAX bytes");
  return c ? static_cast<std::size_t>(elems * esz) : 0;
}

Status xeig_buffer_size(const char* fn, trnsolverDnHandle_t h, trnsolverDnParams_t params, const XEig& a,
                        std::size_t* dev_bytes, std::size_t* host_bytes) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_xeig(c, params, a);
  x_size_outputs(c, dev_bytes, host_bytes, 11 + a.shift());
  if (a.batched) c.nonnegative(a.batch, 13, "batchSize");
  return x_size_answer(c, dev_bytes, host_bytes, [&] { return xeig_bytes(c, a); });
}

// syevd / heevd (the element type picks the overload).
template <class T, class R>
int evd(const trn::solver::Settings& s, bool vectors, trn::solver::Uplo uplo, std::int64_t n, T* A, std::int64_t lda,
        R* W, trn::solver::CallReport* rep) {
  if constexpr (std::is_same_v<T, R>)
    return trn::solver::syevd(s, vectors, uplo, n, A, lda, W, rep);
  else
    return trn::solver::heevd(s, vectors, uplo, n, A, lda, W, rep);
}

template <class T, class R>
void xeig_body(const trn::solver::Settings& s, const XEig& a, T* A, R* W, std::int64_t* meig, int* info,
               trn::solver::CallReport& rep) {
  const bool vectors = a.jobz == TRNSOLVER_EIG_MODE_VECTOR;
  const auto uplo = to_uplo(a.uplo);
  if (a.x) {
    const bool v = a.range == TRNSOLVER_EIG_RANGE_V;
    const int dr = eig_real(a.dta);
    const auto sel = to_select(a.range, v ? bound_value(a.vl, dr) : 0, v ? bound_value(a.vu, dr) : 0, a.il, a.iu);
    if constexpr (std::is_same_v<T, R>)
      *info = trn::solver::syevdx(s, vectors, sel, uplo, a.n, A, a.lda, meig, W, &rep);
    else
      *info = trn::solver::heevdx(s, vectors, sel, uplo, a.n, A, a.lda, meig, W, &rep);
    return;
  }
  if (!a.batched) {
    *info = evd(s, vectors, uplo, a.n, A, a.lda, W, &rep);
    return;
  }
  // XsyevBatched: matrix k at A + k lda n, its eigenvalues at W + k n, info[k]; one joined report.
  // syevd / heevd finish once through finish_fp64_report on r and hand r to no nested call (their
  // ormqr / unmqr has its own report): r is the batch's trace sink (run_batch), so the matrices' parts
  // join the batch's unjoined and each matrix is not modelled on its own (nobody read those profiles).
  run_batch(s, a.batch, rep, [&](std::int64_t k, trn::solver::CallReport& r) {
    info[k] = evd(s, vectors, uplo, a.n, A + k * a.lda * a.n, a.lda, W + k * a.n, &r);
  }, /*sink_parts=*/true);
}

Status xeig_run(const char* fn, trnsolverDnHandle_t h, trnsolverDnParams_t params, const XEig& a, void* A, void* W,
                std::int64_t* meig, void* buf_dev, std::size_t dev_bytes, void* buf_host, std::size_t host_bytes,
                int* info) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int o = a.shift();
  check_xeig(c, params, a);
  c.not_null(buf_dev, 11 + o, "bufferOnDevice");
  if (c) {
    const std::size_t need = xeig_bytes(c, a);
    if (c) c.require(dev_bytes >= need, 12 + o, "workspaceInBytesOnDevice");
  }
  c.require(host_bytes == 0 || buf_host != nullptr, 13 + o, "bufferOnHost").not_null(info, 15 + o, "info");
  if (a.batched) c.nonnegative(a.batch, 16, "batchSize");
  const bool fits = a.n <= 0 || a.lda < a.n || a.batch <= std::numeric_limits<std::int64_t>::max() / a.lda / a.n;
  c.require_or(!a.batched || fits,  // lda < n: rejected above (no division by 0)
               TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED", "lda n batchSize above INT64_MAX");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    if (a.dta == TRN_R_32F)
      xeig_body(h->settings, a, static_cast<float*>(A), static_cast<float*>(W), meig, info, rep);
    else if (a.dta == TRN_R_64F)
      xeig_body(h->settings, a, static_cast<double*>(A), static_cast<double*>(W), meig, info, rep);
    else if (a.dta == TRN_C_32F)
      xeig_body(h->settings, a, static_cast<std::complex<float>*>(A), static_cast<float*>(W), meig, info, rep);
    else
      xeig_body(h->settings, a, static_cast<std::complex<double>*>(A), static_cast<double*>(W), meig, info, rep);
  });
}

// Xtrtri: uplo 1, diag 2, n 3, dataTypeA 4, A 5, lda 6, then bufferOnDevice 7, workspaceInBytesOnDevice 8,
// bufferOnHost 9, workspaceInBytesOnHost 10, info 11 (_bufferSize: 7, 8). One element of device
// workspace, none on the host.
void check_xtrtri(Check& c, int uplo, int diag, std::int64_t n, int dt, const void* A, std::int64_t lda) {
  c.one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 1, "uplo")
      .one_of(diag, {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}, 2, "diag").nonnegative(n, 3, "n")
      .require(n == 0 || A != nullptr, 5, "A").leading_dim(lda, n, 6, "lda");
  check_x_factor_types(c, dt, dt);  // R_32F, R_64F, C_32F, C_64F
}

}  // namespace

extern "C" {

trnsolverStatus_t trnsolverDnXsyevd_bufferSize(trnsolverDnHandle_t h, trnsolverDnParams_t params,
                                               trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int64_t n,
                                               trnDataType_t dataTypeA, const void* A, int64_t lda,
                                               trnDataType_t dataTypeW, const void* W, trnDataType_t computeType,
                                               size_t* dev_bytes, size_t* host_bytes) {
  const XEig a{.jobz = enum_value(jobz), .uplo = enum_value(uplo), .n = n, .dta = enum_value(dataTypeA), .A = A,
               .lda = lda, .dtw = enum_value(dataTypeW), .W = W, .dtc = enum_value(computeType)};
  return xeig_buffer_size("trnsolverDnXsyevd_bufferSize", h, params, a, dev_bytes, host_bytes);
}

trnsolverStatus_t trnsolverDnXsyevd(trnsolverDnHandle_t h, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int64_t n, trnDataType_t dataTypeA, void* A, int64_t lda,
                                    trnDataType_t dataTypeW, void* W, trnDataType_t computeType, void* bufferOnDevice,
                                    size_t dev_bytes, void* bufferOnHost, size_t host_bytes, int* info) {
  const XEig a{.jobz = enum_value(jobz), .uplo = enum_value(uplo), .n = n, .dta = enum_value(dataTypeA), .A = A,
               .lda = lda, .dtw = enum_value(dataTypeW), .W = W, .dtc = enum_value(computeType)};
  return xeig_run("trnsolverDnXsyevd", h, params, a, A, W, nullptr, bufferOnDevice, dev_bytes, bufferOnHost,
                  host_bytes, info);
}

trnsolverStatus_t trnsolverDnXsyevBatched_bufferSize(trnsolverDnHandle_t h, trnsolverDnParams_t params,
                                                     trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int64_t n,
                                                     trnDataType_t dataTypeA, const void* A, int64_t lda,
                                                     trnDataType_t dataTypeW, const void* W,
                                                     trnDataType_t computeType, size_t* dev_bytes, size_t* host_bytes,
                                                     int64_t batchSize) {
  const XEig a{.batched = true, .jobz = enum_value(jobz), .uplo = enum_value(uplo), .n = n,
               .dta = enum_value(dataTypeA), .A = A, .lda = lda, .dtw = enum_value(dataTypeW), .W = W,
               .dtc = enum_value(computeType), .batch = batchSize};
  return xeig_buffer_size("trnsolverDnXsyevBatched_bufferSize", h, params, a, dev_bytes, host_bytes);
}

trnsolverStatus_t trnsolverDnXsyevBatched(trnsolverDnHandle_t h, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
                                          trnblasFillMode_t uplo, int64_t n, trnDataType_t dataTypeA, void* A,
                                          int64_t lda, trnDataType_t dataTypeW, void* W, trnDataType_t computeType,
                                          void* bufferOnDevice, size_t dev_bytes, void* bufferOnHost,
                                          size_t host_bytes, int* info, int64_t batchSize) {
  const XEig a{.batched = true, .jobz = enum_value(jobz), .uplo = enum_value(uplo), .n = n,
               .dta = enum_value(dataTypeA), .A = A, .lda = lda, .dtw = enum_value(dataTypeW), .W = W,
               .dtc = enum_value(computeType), .batch = batchSize};
  return xeig_run("trnsolverDnXsyevBatched", h, params, a, A, W, nullptr, bufferOnDevice, dev_bytes, bufferOnHost,
                  host_bytes, info);
}

trnsolverStatus_t trnsolverDnXsyevdx_bufferSize(trnsolverDnHandle_t h, trnsolverDnParams_t params,
                                                trnsolverEigMode_t jobz, trnsolverEigRange_t range,
                                                trnblasFillMode_t uplo, int64_t n, trnDataType_t dataTypeA,
                                                const void* A, int64_t lda, void* vl, void* vu, int64_t il,
                                                int64_t iu, int64_t* h_meig, trnDataType_t dataTypeW, const void* W,
                                                trnDataType_t computeType, size_t* dev_bytes, size_t* host_bytes) {
  const XEig a{.x = true, .jobz = enum_value(jobz), .range = enum_value(range), .uplo = enum_value(uplo), .n = n,
               .dta = enum_value(dataTypeA), .A = A, .lda = lda, .vl = vl, .vu = vu, .il = il, .iu = iu,
               .meig = h_meig, .dtw = enum_value(dataTypeW), .W = W, .dtc = enum_value(computeType)};
  return xeig_buffer_size("trnsolverDnXsyevdx_bufferSize", h, params, a, dev_bytes, host_bytes);
}

trnsolverStatus_t trnsolverDnXsyevdx(trnsolverDnHandle_t h, trnsolverDnParams_t params, trnsolverEigMode_t jobz,
                                     trnsolverEigRange_t range, trnblasFillMode_t uplo, int64_t n,
                                     trnDataType_t dataTypeA, void* A, int64_t lda, void* vl, void* vu, int64_t il,
                                     int64_t iu, int64_t* meig64, trnDataType_t dataTypeW, void* W,
                                     trnDataType_t computeType, void* bufferOnDevice, size_t dev_bytes,
                                     void* bufferOnHost, size_t host_bytes, int* info) {
  const XEig a{.x = true, .jobz = enum_value(jobz), .range = enum_value(range), .uplo = enum_value(uplo), .n = n,
               .dta = enum_value(dataTypeA), .A = A, .lda = lda, .vl = vl, .vu = vu, .il = il, .iu = iu,
               .meig = meig64, .dtw = enum_value(dataTypeW), .W = W, .dtc = enum_value(computeType)};
  return xeig_run("trnsolverDnXsyevdx", h, params, a, A, W, meig64, bufferOnDevice, dev_bytes, bufferOnHost,
                  host_bytes, info);
}

trnsolverStatus_t trnsolverDnXtrtri_bufferSize(trnsolverDnHandle_t h, trnblasFillMode_t uplo, trnblasDiagType_t diag,
                                               int64_t n, trnDataType_t dataTypeA, void* A, int64_t lda,
                                               size_t* dev_bytes, size_t* host_bytes) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnXtrtri_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int dt = enum_value(dataTypeA);
  check_xtrtri(c, enum_value(uplo), enum_value(diag), n, dt, A, lda);
  x_size_outputs(c, dev_bytes, host_bytes, 7);
  return x_size_answer(c, dev_bytes, host_bytes, [&] { return x_factor_elem(dt); });
}

trnsolverStatus_t trnsolverDnXtrtri(trnsolverDnHandle_t h, trnblasFillMode_t uplo, trnblasDiagType_t diag, int64_t n,
                                    trnDataType_t dataTypeA, void* A, int64_t lda, void* bufferOnDevice,
                                    size_t dev_bytes, void* bufferOnHost, size_t host_bytes, int* info) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnXtrtri";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int dt = enum_value(dataTypeA), ul = enum_value(uplo);
  const bool unit = enum_value(diag) == TRNBLAS_DIAG_UNIT;
  check_xtrtri(c, ul, enum_value(diag), n, dt, A, lda);
  c.not_null(bufferOnDevice, 7, "bufferOnDevice").require(dev_bytes >= x_factor_elem(dt), 8, "workspaceInBytesOnDevice")
      .require(host_bytes == 0 || bufferOnHost != nullptr, 9, "bufferOnHost").not_null(info, 11, "info");
  return run_checked(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    with_x_type(dt, A, [&](auto* a) { *info = trn::solver::trtri(h->settings, to_uplo(ul), unit, n, a, lda, &rep); });
  });
}

}  // extern "C"
