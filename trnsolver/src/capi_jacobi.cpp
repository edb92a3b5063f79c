// trnsolver.h, Jacobi family: syevj/syevjBatched, sygvj, gesvdj/gesvdjBatched and their info objects
// (syevjInfo_t, gesvdjInfo_t). Conventions: capi.cpp.
#include "capi_internal.hpp"
#include "trn/solver/complex_eig.hpp"

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals

struct syevjInfo {
  trn::solver::SyevjParams params;
  int sweeps = 0;
  double residual = 0.0;
  bool last_was_batched = false;
};

struct gesvdjInfo {
  trn::solver::GesvdjParams params;
  int sweeps = 0;
  double residual = 0.0;
  bool last_was_batched = false;
};

namespace {

using trn::cshim::as_cpp;
template <class T>
constexpr bool kComplexT = std::is_same_v<T, trnComplex> || std::is_same_v<T, trnDoubleComplex>;

trn::cshim::HandleRegistry<syevjInfo> g_infos;
trn::cshim::HandleRegistry<gesvdjInfo> g_gesvdj_infos;

// ---- syevjInfo_t and gesvdjInfo_t: the same parameter/result object for both Jacobi solvers ----------

template <class Info>
Status destroy_info(trn::cshim::HandleRegistry<Info>& registry, Info* info) {
  if (!registry.erase(info)) return TRNSOLVER_STATUS_INVALID_VALUE;
  delete info;
  return TRNSOLVER_STATUS_SUCCESS;
}

template <class Info>
Status set_tolerance(const char* fn, const trn::cshim::HandleRegistry<Info>& registry, Info* info, double tolerance) {
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE);
  if (!c.require(registry.contains(info), 1, "info").require(tolerance >= 0.0, 2, "tolerance")) return c.status();
  info->params.tolerance = tolerance;
  return TRNSOLVER_STATUS_SUCCESS;
}

template <class Info>
Status set_max_sweeps(const char* fn, const trn::cshim::HandleRegistry<Info>& registry, Info* info, int max_sweeps) {
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE);
  if (!c.require(registry.contains(info), 1, "info").require(max_sweeps > 0, 2, "max_sweeps")) return c.status();
  info->params.max_sweeps = max_sweeps;
  return TRNSOLVER_STATUS_SUCCESS;
}

// SetSortEig: `sort` is the params member (sort_eig for syevj, sort_svd for gesvdj).
template <class Info, class Params>
Status set_sort(const char* fn, const trn::cshim::HandleRegistry<Info>& registry, Info* info, bool Params::*sort,
                int value) {
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE);
  if (!c.require(registry.contains(info), 1, "info")) return c.status();
  info->params.*sort = value != 0;
  return TRNSOLVER_STATUS_SUCCESS;
}

// GetResidual / GetSweeps: what the last non-batched call on `info` recorded (cuSOLVER reports
// NOT_SUPPORTED after a batched call).
template <class Info, class Value>
Status get_result(const char* fn, trnsolverDnHandle_t h, const trn::cshim::HandleRegistry<Info>& registry, Info* info,
                  Value Info::*member, Value* out, const char* out_name, const char* batched_note) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.require(registry.contains(info), 1, "info").not_null(out, 2, out_name);
  if (c) c.require_or(!info->last_was_batched, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
                      batched_note);
  if (!c) return c.status();
  *out = info->*member;
  return TRNSOLVER_STATUS_SUCCESS;
}

// Arguments common to every syevj entry point: jobz (1), uplo (2), n (3), A (4), lda (5), W (6).
void check_syevj_common(Check& c, int jobz, int uplo, int n, const void* A, int lda,
                        const void* W) {
  c.one_of(enum_value(jobz), {TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}, 1, "jobz")
      .one_of(enum_value(uplo), {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 2, "uplo")
      .nonnegative(n, 3, "n")
      .require(n == 0 || A != nullptr, 4, "A")
      .leading_dim(lda, n, 5, "lda")
      .require(n == 0 || W != nullptr, 6, "W");
}

// The fp32 kernel keeps the matrix in SBUF: larger n is a documented NOT_SUPPORTED.
void check_size(Check& c, bool fp32, int n) {
  if (fp32)
    c.require_or(n <= trn::solver::kSyevjMaxN, TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
                 "n exceeds the SBUF-resident Jacobi kernel's limit (kSyevjMaxN)");
}

template <class T>
Status bufsize(const char* fn, trnsolverDnHandle_t h, int jobz, int uplo, int n,
               const T* A, int lda, const void* W, int* lwork, syevjInfo_t params, int batch, bool batched) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_syevj_common(c, jobz, uplo, n, A, lda, W);
  c.not_null(lwork, 7, "lwork").require(g_infos.contains(params), 8, "params");
  if (batched) c.nonnegative(batch, 9, "batchSize");
  if (!c) return c.status();
  *lwork = 1;  // no device workspace is needed; a positive size keeps the allocate-then-call pattern
  return TRNSOLVER_STATUS_SUCCESS;
}

template <class T, class R>
Status run_syevj(const char* fn, trnsolverDnHandle_t h, int jobz, int uplo, int n, T* A,
                 int lda, R* W, T* work, int lwork, int* info, syevjInfo_t params, int batch, bool batched) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_syevj_common(c, jobz, uplo, n, A, lda, W);
  c.require(work != nullptr, 7, "work").require(lwork >= 1, 8, "lwork").not_null(info, 9, "info");
  c.require(g_infos.contains(params), 10, "params");
  if (batched) c.nonnegative(batch, 11, "batchSize");
  check_size(c, std::is_same_v<T, float>, n);
  if (!c) {
    if (info != nullptr && c.failed_position() > 0) *info = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    const bool vectors = enum_value(jobz) == TRNSOLVER_EIG_MODE_VECTOR;
    trn::solver::SyevjParams p = params->params;
    if (!batched) p.sort_eig = true;
    trn::solver::CallReport report = profile_report();
    std::vector<trn::solver::SyevjResult> res;
    if constexpr (kComplexT<T>)
      res = batched ? trn::solver::heevj_batched(h->settings, vectors, to_uplo(uplo), n, as_cpp(A), lda, W, p, batch, &report)
                    : std::vector{trn::solver::heevj(h->settings, vectors, to_uplo(uplo), n, as_cpp(A), lda, W, p, &report)};
    else if constexpr (std::is_same_v<T, float>)
      res = batched ? trn::solver::ssyevj_batched(h->settings, vectors, to_uplo(uplo), n, A, lda, W, p, batch, &report)
                    : std::vector{trn::solver::ssyevj(h->settings, vectors, to_uplo(uplo), n, A, lda, W, p, &report)};
    else
      res = trn::solver::dsyevj_batched(h->settings, vectors, to_uplo(uplo), n, A, lda, W, p, batched ? batch : 1,
                                        &report);
    if (batched) {
      for (int k = 0; k < batch; ++k) info[k] = n == 0 ? 0 : res[static_cast<std::size_t>(k)].info;
    } else {
      *info = res.empty() ? 0 : res.front().info;
    }
    params->last_was_batched = batched;
    params->sweeps = res.empty() ? 0 : res.back().sweeps;
    params->residual = res.empty() ? 0.0 : res.back().residual;
    h->last_profile = report.profile.to_c();
  });
}

// ---- sygvj ---------------------------------------------------------------------------------------

Status sygvj_bufsize(const char* fn, trnsolverDnHandle_t h, int itype, int jobz, int uplo, int n, const void* A, int lda,
                     const void* B, int ldb, const void* W, int* lwork, syevjInfo_t params) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_sygvj_common(c, itype, jobz, uplo, n, A, lda, B, ldb, W);
  c.not_null(lwork, 10, "lwork").require(g_infos.contains(params), 11, "params");
  if (!c) return c.status();
  *lwork = 1;
  return TRNSOLVER_STATUS_SUCCESS;
}

template <class T, class R>
Status run_sygvj(const char* fn, trnsolverDnHandle_t h, int itype, int jobz, int uplo, int n, T* A, int lda, T* B,
                 int ldb, R* W, T* work, int lwork, int* info, syevjInfo_t params) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_sygvj_common(c, itype, jobz, uplo, n, A, lda, B, ldb, W);
  c.require(work != nullptr, 10, "work").require(lwork >= 1, 11, "lwork").not_null(info, 12, "info");
  c.require(g_infos.contains(params), 13, "params");
  check_size(c, std::is_same_v<T, float>, n);
  if (!c) {
    if (info != nullptr && c.failed_position() > 0) *info = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    const bool vectors = jobz == TRNSOLVER_EIG_MODE_VECTOR;
    trn::solver::CallReport report = profile_report();
    trn::solver::SyevjResult r;
    if constexpr (kComplexT<T>)
      r = trn::solver::hegvj(h->settings, itype, vectors, to_uplo(uplo), n, as_cpp(A), lda, as_cpp(B), ldb, W,
                             params->params, &report);
    else if constexpr (std::is_same_v<T, float>)
      r = trn::solver::ssygvj(h->settings, itype, vectors, to_uplo(uplo), n, A, lda, B, ldb, W, params->params, &report);
    else
      r = trn::solver::dsygvj(h->settings, itype, vectors, to_uplo(uplo), n, A, lda, B, ldb, W, params->params, &report);
    *info = r.info;
    params->last_was_batched = false;
    params->sweeps = r.sweeps;
    params->residual = r.residual;
    h->last_profile = report.profile.to_c();
  });
}

// ---- gesvdj --------------------------------------------------------------------------------------

// Arguments of every gesvdj entry point in cuSOLVER order. pos0: position of jobz (1); `econ`
// shifts the rest by one for the non-batched calls. Returns the position after ldv.
int check_gesvdj_common(Check& c, bool has_econ, int jobz, int m, int n, const void* A, int lda, const void* S,
                        const void* U, int ldu, const void* V, int ldv) {
  const int o = has_econ ? 1 : 0;  // econ (2) is any int: 0 full, else economy
  const bool vectors = jobz == TRNSOLVER_EIG_MODE_VECTOR;
  const bool empty = m == 0 || n == 0;
  c.one_of(jobz, {TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}, 1, "jobz")
      .nonnegative(m, 2 + o, "m")
      .nonnegative(n, 3 + o, "n")
      .require(empty || A != nullptr, 4 + o, "A")
      .leading_dim(lda, m, 5 + o, "lda")
      .require(empty || S != nullptr, 6 + o, "S")
      .require(empty || !vectors || U != nullptr, 7 + o, "U")
      .leading_dim(ldu, m, 8 + o, "ldu")
      .require(empty || !vectors || V != nullptr, 9 + o, "V")
      .leading_dim(ldv, n, 10 + o, "ldv");
  return 11 + o;
}

void check_gesvdj_size(Check& c, bool fp32, int m, int n) {
  if (fp32)
    c.require_or(std::max(m, n) <= trn::solver::kGesvdjMaxDim, TRNSOLVER_STATUS_NOT_SUPPORTED,
                 "TRNSOLVER_STATUS_NOT_SUPPORTED", "max(m, n) exceeds the SBUF-resident Jacobi kernel's limit (kGesvdjMaxDim)");
}

Status gesvdj_bufsize(const char* fn, trnsolverDnHandle_t h, bool has_econ, int jobz, int m, int n, const void* A,
                      int lda, const void* S, const void* U, int ldu, const void* V, int ldv, int* lwork,
                      gesvdjInfo_t params, int batch, bool batched) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int next = check_gesvdj_common(c, has_econ, jobz, m, n, A, lda, S, U, ldu, V, ldv);
  c.not_null(lwork, next, "lwork").require(g_gesvdj_infos.contains(params), next + 1, "params");
  if (batched) c.nonnegative(batch, next + 2, "batchSize");
  if (!c) return c.status();
  *lwork = 1;  // no device workspace is needed; a positive size keeps the allocate-then-call pattern
  return TRNSOLVER_STATUS_SUCCESS;
}

template <class T, class R>
Status run_gesvdj(const char* fn, trnsolverDnHandle_t h, bool batched, int jobz, int econ, int m, int n, T* A, int lda,
                  R* S, T* U, int ldu, T* V, int ldv, T* work, int lwork, int* info, gesvdjInfo_t params, int batch) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  const int next = check_gesvdj_common(c, !batched, jobz, m, n, A, lda, S, U, ldu, V, ldv);
  c.require(work != nullptr, next, "work").require(lwork >= 1, next + 1, "lwork").not_null(info, next + 2, "info");
  c.require(g_gesvdj_infos.contains(params), next + 3, "params");
  if (batched) c.nonnegative(batch, next + 4, "batchSize");
  check_gesvdj_size(c, std::is_same_v<T, float>, m, n);
  if (!c) {
    if (info != nullptr && c.failed_position() > 0) *info = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    const bool vectors = jobz == TRNSOLVER_EIG_MODE_VECTOR;
    const int count = batched ? batch : 1;
    trn::solver::CallReport report = profile_report();
    std::vector<trn::solver::GesvdjResult> res;
    trn::solver::GesvdjParams p = params->params;
    if constexpr (kComplexT<T>) {
      res = batched ? trn::solver::gesvdj_batched(h->settings, vectors, m, n, as_cpp(A), lda, S, as_cpp(U), ldu, as_cpp(V),
                                                  ldv, p, count, &report)
                    : std::vector{trn::solver::gesvdj(h->settings, vectors, econ != 0, m, n, as_cpp(A), lda, S, as_cpp(U),
                                                      ldu, as_cpp(V), ldv, p, &report)};
    } else if constexpr (std::is_same_v<T, float>) {
      res = batched ? trn::solver::sgesvdj_batched(h->settings, vectors, m, n, A, lda, S, U, ldu, V, ldv, p, count, &report)
                    : std::vector{trn::solver::sgesvdj(h->settings, vectors, econ != 0, m, n, A, lda, S, U, ldu, V, ldv,
                                                       p, &report)};
    } else {
      res = batched ? trn::solver::dgesvdj_batched(h->settings, vectors, m, n, A, lda, S, U, ldu, V, ldv, p, count, &report)
                    : std::vector{trn::solver::dgesvdj(h->settings, vectors, econ != 0, m, n, A, lda, S, U, ldu, V, ldv,
                                                       p, &report)};
    }
    for (int k = 0; k < count; ++k) info[k] = k < static_cast<int>(res.size()) ? res[static_cast<std::size_t>(k)].info : 0;
    params->last_was_batched = batched;
    params->sweeps = res.empty() ? 0 : res.back().sweeps;
    params->residual = res.empty() ? 0.0 : res.back().residual;
    h->last_profile = report.profile.to_c();
  });
}

}  // namespace

extern "C" {

// ---- syevjInfo_t ----------------------------------------------------------------------------------

trnsolverStatus_t trnsolverDnCreateSyevjInfo(syevjInfo_t* info) { return create_registered(g_infos, info); }
trnsolverStatus_t trnsolverDnDestroySyevjInfo(syevjInfo_t info) { return destroy_info(g_infos, info); }
trnsolverStatus_t trnsolverDnXsyevjSetTolerance(syevjInfo_t info, double tolerance) {
  return set_tolerance("trnsolverDnXsyevjSetTolerance", g_infos, info, tolerance);
}
trnsolverStatus_t trnsolverDnXsyevjSetMaxSweeps(syevjInfo_t info, int max_sweeps) {
  return set_max_sweeps("trnsolverDnXsyevjSetMaxSweeps", g_infos, info, max_sweeps);
}
trnsolverStatus_t trnsolverDnXsyevjSetSortEig(syevjInfo_t info, int sort_eig) {
  return set_sort("trnsolverDnXsyevjSetSortEig", g_infos, info, &trn::solver::SyevjParams::sort_eig, sort_eig);
}
trnsolverStatus_t trnsolverDnXsyevjGetResidual(trnsolverDnHandle_t h, syevjInfo_t info, double* residual) {
  return get_result("trnsolverDnXsyevjGetResidual", h, g_infos, info, &syevjInfo::residual, residual, "residual",
                    "not available after syevjBatched");
}
trnsolverStatus_t trnsolverDnXsyevjGetSweeps(trnsolverDnHandle_t h, syevjInfo_t info, int* executed_sweeps) {
  return get_result("trnsolverDnXsyevjGetSweeps", h, g_infos, info, &syevjInfo::sweeps, executed_sweeps,
                    "executed_sweeps", "not available after syevjBatched");
}

// ---- sygvj ------------------------------------------------------------------------------------------

trnsolverStatus_t trnsolverDnSsygvj_bufferSize(trnsolverDnHandle_t h, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n, const float* A, int lda, const float* B,
                                               int ldb, const float* W, int* lwork, syevjInfo_t params) {
  return sygvj_bufsize("trnsolverDnSsygvj_bufferSize", h, enum_value(itype), enum_value(jobz), enum_value(uplo), n, A,
                       lda, B, ldb, W, lwork, params);
}
trnsolverStatus_t trnsolverDnDsygvj_bufferSize(trnsolverDnHandle_t h, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                               trnblasFillMode_t uplo, int n, const double* A, int lda, const double* B,
                                               int ldb, const double* W, int* lwork, syevjInfo_t params) {
  return sygvj_bufsize("trnsolverDnDsygvj_bufferSize", h, enum_value(itype), enum_value(jobz), enum_value(uplo), n, A,
                       lda, B, ldb, W, lwork, params);
}
trnsolverStatus_t trnsolverDnSsygvj(trnsolverDnHandle_t h, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, float* A, int lda, float* B, int ldb, float* W,
                                    float* work, int lwork, int* info, syevjInfo_t params) {
  return run_sygvj("trnsolverDnSsygvj", h, enum_value(itype), enum_value(jobz), enum_value(uplo), n, A, lda, B, ldb, W,
                   work, lwork, info, params);
}
trnsolverStatus_t trnsolverDnDsygvj(trnsolverDnHandle_t h, trnsolverEigType_t itype, trnsolverEigMode_t jobz,
                                    trnblasFillMode_t uplo, int n, double* A, int lda, double* B, int ldb, double* W,
                                    double* work, int lwork, int* info, syevjInfo_t params) {
  return run_sygvj("trnsolverDnDsygvj", h, enum_value(itype), enum_value(jobz), enum_value(uplo), n, A, lda, B, ldb, W,
                   work, lwork, info, params);
}

// ---- gesvdjInfo_t ---------------------------------------------------------------------------------

trnsolverStatus_t trnsolverDnCreateGesvdjInfo(gesvdjInfo_t* info) { return create_registered(g_gesvdj_infos, info); }
trnsolverStatus_t trnsolverDnDestroyGesvdjInfo(gesvdjInfo_t info) { return destroy_info(g_gesvdj_infos, info); }
trnsolverStatus_t trnsolverDnXgesvdjSetTolerance(gesvdjInfo_t info, double tolerance) {
  return set_tolerance("trnsolverDnXgesvdjSetTolerance", g_gesvdj_infos, info, tolerance);
}
trnsolverStatus_t trnsolverDnXgesvdjSetMaxSweeps(gesvdjInfo_t info, int max_sweeps) {
  return set_max_sweeps("trnsolverDnXgesvdjSetMaxSweeps", g_gesvdj_infos, info, max_sweeps);
}
trnsolverStatus_t trnsolverDnXgesvdjSetSortEig(gesvdjInfo_t info, int sort_svd) {
  return set_sort("trnsolverDnXgesvdjSetSortEig", g_gesvdj_infos, info, &trn::solver::GesvdjParams::sort_svd, sort_svd);
}
trnsolverStatus_t trnsolverDnXgesvdjGetResidual(trnsolverDnHandle_t h, gesvdjInfo_t info, double* residual) {
  return get_result("trnsolverDnXgesvdjGetResidual", h, g_gesvdj_infos, info, &gesvdjInfo::residual, residual,
                    "residual", "not available after gesvdjBatched");
}
trnsolverStatus_t trnsolverDnXgesvdjGetSweeps(trnsolverDnHandle_t h, gesvdjInfo_t info, int* executed_sweeps) {
  return get_result("trnsolverDnXgesvdjGetSweeps", h, g_gesvdj_infos, info, &gesvdjInfo::sweeps, executed_sweeps,
                    "executed_sweeps", "not available after gesvdjBatched");
}

// ---- gesvdj ---------------------------------------------------------------------------------------

trnsolverStatus_t trnsolverDnSgesvdj_bufferSize(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int econ, int m, int n,
                                                const float* A, int lda, const float* S, const float* U, int ldu,
                                                const float* V, int ldv, int* lwork, gesvdjInfo_t params) {
  (void)econ;
  return gesvdj_bufsize("trnsolverDnSgesvdj_bufferSize", h, true, enum_value(jobz), m, n, A, lda, S, U, ldu, V, ldv,
                        lwork, params, 1, false);
}
trnsolverStatus_t trnsolverDnDgesvdj_bufferSize(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int econ, int m, int n,
                                                const double* A, int lda, const double* S, const double* U, int ldu,
                                                const double* V, int ldv, int* lwork, gesvdjInfo_t params) {
  (void)econ;
  return gesvdj_bufsize("trnsolverDnDgesvdj_bufferSize", h, true, enum_value(jobz), m, n, A, lda, S, U, ldu, V, ldv,
                        lwork, params, 1, false);
}
trnsolverStatus_t trnsolverDnSgesvdjBatched_bufferSize(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int m, int n,
                                                       const float* A, int lda, const float* S, const float* U, int ldu,
                                                       const float* V, int ldv, int* lwork, gesvdjInfo_t params,
                                                       int batchSize) {
  return gesvdj_bufsize("trnsolverDnSgesvdjBatched_bufferSize", h, false, enum_value(jobz), m, n, A, lda, S, U, ldu, V,
                        ldv, lwork, params, batchSize, true);
}
trnsolverStatus_t trnsolverDnDgesvdjBatched_bufferSize(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int m, int n,
                                                       const double* A, int lda, const double* S, const double* U,
                                                       int ldu, const double* V, int ldv, int* lwork,
                                                       gesvdjInfo_t params, int batchSize) {
  return gesvdj_bufsize("trnsolverDnDgesvdjBatched_bufferSize", h, false, enum_value(jobz), m, n, A, lda, S, U, ldu, V,
                        ldv, lwork, params, batchSize, true);
}
trnsolverStatus_t trnsolverDnSgesvdj(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int econ, int m, int n, float* A,
                                     int lda, float* S, float* U, int ldu, float* V, int ldv, float* work, int lwork,
                                     int* info, gesvdjInfo_t params) {
  return run_gesvdj("trnsolverDnSgesvdj", h, false, enum_value(jobz), econ, m, n, A, lda, S, U, ldu, V, ldv, work, lwork,
                    info, params, 1);
}
trnsolverStatus_t trnsolverDnDgesvdj(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int econ, int m, int n, double* A,
                                     int lda, double* S, double* U, int ldu, double* V, int ldv, double* work, int lwork,
                                     int* info, gesvdjInfo_t params) {
  return run_gesvdj("trnsolverDnDgesvdj", h, false, enum_value(jobz), econ, m, n, A, lda, S, U, ldu, V, ldv, work, lwork,
                    info, params, 1);
}
trnsolverStatus_t trnsolverDnSgesvdjBatched(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int m, int n, float* A,
                                            int lda, float* S, float* U, int ldu, float* V, int ldv, float* work,
                                            int lwork, int* info, gesvdjInfo_t params, int batchSize) {
  return run_gesvdj("trnsolverDnSgesvdjBatched", h, true, enum_value(jobz), 0, m, n, A, lda, S, U, ldu, V, ldv, work,
                    lwork, info, params, batchSize);
}
trnsolverStatus_t trnsolverDnDgesvdjBatched(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int m, int n, double* A,
                                            int lda, double* S, double* U, int ldu, double* V, int ldv, double* work,
                                            int lwork, int* info, gesvdjInfo_t params, int batchSize) {
  return run_gesvdj("trnsolverDnDgesvdjBatched", h, true, enum_value(jobz), 0, m, n, A, lda, S, U, ldu, V, ldv, work,
                    lwork, info, params, batchSize);
}

// ---- syevj ------------------------------------------------------------------------------------------

trnsolverStatus_t trnsolverDnSsyevj_bufferSize(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                               int n, const float* A, int lda, const float* W, int* lwork,
                                               syevjInfo_t params) {
  return bufsize("trnsolverDnSsyevj_bufferSize", h, enum_value(jobz), enum_value(uplo), n, A, lda, W, lwork, params, 1, false);
}
trnsolverStatus_t trnsolverDnDsyevj_bufferSize(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                               int n, const double* A, int lda, const double* W, int* lwork,
                                               syevjInfo_t params) {
  return bufsize("trnsolverDnDsyevj_bufferSize", h, enum_value(jobz), enum_value(uplo), n, A, lda, W, lwork, params, 1, false);
}
trnsolverStatus_t trnsolverDnSsyevjBatched_bufferSize(trnsolverDnHandle_t h, trnsolverEigMode_t jobz,
                                                      trnblasFillMode_t uplo, int n, const float* A, int lda,
                                                      const float* W, int* lwork, syevjInfo_t params, int batch) {
  return bufsize("trnsolverDnSsyevjBatched_bufferSize", h, enum_value(jobz), enum_value(uplo), n, A, lda, W, lwork, params, batch, true);
}
trnsolverStatus_t trnsolverDnDsyevjBatched_bufferSize(trnsolverDnHandle_t h, trnsolverEigMode_t jobz,
                                                      trnblasFillMode_t uplo, int n, const double* A, int lda,
                                                      const double* W, int* lwork, syevjInfo_t params, int batch) {
  return bufsize("trnsolverDnDsyevjBatched_bufferSize", h, enum_value(jobz), enum_value(uplo), n, A, lda, W, lwork, params, batch, true);
}

trnsolverStatus_t trnsolverDnSsyevj(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    float* A, int lda, float* W, float* work, int lwork, int* info,
                                    syevjInfo_t params) {
  return run_syevj("trnsolverDnSsyevj", h, enum_value(jobz), enum_value(uplo), n, A, lda, W, work, lwork, info, params, 1, false);
}
trnsolverStatus_t trnsolverDnDsyevj(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,
                                    double* A, int lda, double* W, double* work, int lwork, int* info,
                                    syevjInfo_t params) {
  return run_syevj("trnsolverDnDsyevj", h, enum_value(jobz), enum_value(uplo), n, A, lda, W, work, lwork, info, params, 1, false);
}
trnsolverStatus_t trnsolverDnSsyevjBatched(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                           int n, float* A, int lda, float* W, float* work, int lwork, int* info,
                                           syevjInfo_t params, int batch) {
  return run_syevj("trnsolverDnSsyevjBatched", h, enum_value(jobz), enum_value(uplo), n, A, lda, W, work, lwork, info, params, batch, true);
}
trnsolverStatus_t trnsolverDnDsyevjBatched(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, trnblasFillMode_t uplo,
                                           int n, double* A, int lda, double* W, double* work, int lwork, int* info,
                                           syevjInfo_t params, int batch) {
  return run_syevj("trnsolverDnDsyevjBatched", h, enum_value(jobz), enum_value(uplo), n, A, lda, W, work, lwork, info, params, batch, true);
}

// ---- complex Jacobi (C, Z): heevj, heevjBatched, hegvj, gesvdj, gesvdjBatched and their _bufferSize --------
// (the templates above with the complex drivers of heevj.cpp / heevdx.cpp; complex_eig.hpp).
#define TRNSOLVER_DEFINE_COMPLEX_JACOBI(P, T, R)                                                                    \
  trnsolverStatus_t trnsolverDn##P##heevj_bufferSize(trnsolverDnHandle_t h, trnsolverEigMode_t jobz,                \
                                                     trnblasFillMode_t uplo, int n, const T* A, int lda,             \
                                                     const R* W, int* lwork, syevjInfo_t params) {                   \
    return bufsize("trnsolverDn" #P "heevj_bufferSize", h, enum_value(jobz), enum_value(uplo), n, A, lda, W, lwork,  \
                   params, 1, false);                                                                                \
  }                                                                                                                  \
  trnsolverStatus_t trnsolverDn##P##heevjBatched_bufferSize(trnsolverDnHandle_t h, trnsolverEigMode_t jobz,         \
                                                            trnblasFillMode_t uplo, int n, const T* A, int lda,      \
                                                            const R* W, int* lwork, syevjInfo_t params, int batch) { \
    return bufsize("trnsolverDn" #P "heevjBatched_bufferSize", h, enum_value(jobz), enum_value(uplo), n, A, lda, W,  \
                   lwork, params, batch, true);                                                                      \
  }                                                                                                                  \
  trnsolverStatus_t trnsolverDn##P##heevj(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, trnblasFillMode_t uplo,   \
                                          int n, T* A, int lda, R* W, T* work, int lwork, int* info,                 \
                                          syevjInfo_t params) {                                                      \
    return run_syevj("trnsolverDn" #P "heevj", h, enum_value(jobz), enum_value(uplo), n, A, lda, W, work, lwork,     \
                     info, params, 1, false);                                                                        \
  }                                                                                                                  \
  trnsolverStatus_t trnsolverDn##P##heevjBatched(trnsolverDnHandle_t h, trnsolverEigMode_t jobz,                    \
                                                 trnblasFillMode_t uplo, int n, T* A, int lda, R* W, T* work,        \
                                                 int lwork, int* info, syevjInfo_t params, int batch) {              \
    return run_syevj("trnsolverDn" #P "heevjBatched", h, enum_value(jobz), enum_value(uplo), n, A, lda, W, work,     \
                     lwork, info, params, batch, true);                                                              \
  }                                                                                                                  \
  trnsolverStatus_t trnsolverDn##P##hegvj_bufferSize(trnsolverDnHandle_t h, trnsolverEigType_t itype,               \
                                                     trnsolverEigMode_t jobz, trnblasFillMode_t uplo, int n,         \
                                                     const T* A, int lda, const T* B, int ldb, const R* W,           \
                                                     int* lwork, syevjInfo_t params) {                               \
    return sygvj_bufsize("trnsolverDn" #P "hegvj_bufferSize", h, enum_value(itype), enum_value(jobz),               \
                         enum_value(uplo), n, A, lda, B, ldb, W, lwork, params);                                     \
  }                                                                                                                  \
  trnsolverStatus_t trnsolverDn##P##hegvj(trnsolverDnHandle_t h, trnsolverEigType_t itype, trnsolverEigMode_t jobz, \
                                          trnblasFillMode_t uplo, int n, T* A, int lda, T* B, int ldb, R* W,         \
                                          T* work, int lwork, int* info, syevjInfo_t params) {                       \
    return run_sygvj("trnsolverDn" #P "hegvj", h, enum_value(itype), enum_value(jobz), enum_value(uplo), n, A, lda,  \
                     B, ldb, W, work, lwork, info, params);                                                          \
  }                                                                                                                  \
  trnsolverStatus_t trnsolverDn##P##gesvdj_bufferSize(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int econ,     \
                                                      int m, int n, const T* A, int lda, const R* S, const T* U,     \
                                                      int ldu, const T* V, int ldv, int* lwork,                      \
                                                      gesvdjInfo_t params) {                                         \
    (void)econ;                                                                                                      \
    return gesvdj_bufsize("trnsolverDn" #P "gesvdj_bufferSize", h, true, enum_value(jobz), m, n, A, lda, S, U, ldu,  \
                          V, ldv, lwork, params, 1, false);                                                          \
  }                                                                                                                  \
  trnsolverStatus_t trnsolverDn##P##gesvdjBatched_bufferSize(                                                       \
      trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int m, int n, const T* A, int lda, const R* S, const T* U,     \
      int ldu, const T* V, int ldv, int* lwork, gesvdjInfo_t params, int batchSize) {                                \
    return gesvdj_bufsize("trnsolverDn" #P "gesvdjBatched_bufferSize", h, false, enum_value(jobz), m, n, A, lda, S,  \
                          U, ldu, V, ldv, lwork, params, batchSize, true);                                           \
  }                                                                                                                  \
  trnsolverStatus_t trnsolverDn##P##gesvdj(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int econ, int m, int n,  \
                                           T* A, int lda, R* S, T* U, int ldu, T* V, int ldv, T* work, int lwork,    \
                                           int* info, gesvdjInfo_t params) {                                         \
    return run_gesvdj("trnsolverDn" #P "gesvdj", h, false, enum_value(jobz), econ, m, n, A, lda, S, U, ldu, V, ldv,  \
                      work, lwork, info, params, 1);                                                                 \
  }                                                                                                                  \
  trnsolverStatus_t trnsolverDn##P##gesvdjBatched(trnsolverDnHandle_t h, trnsolverEigMode_t jobz, int m, int n,     \
                                                  T* A, int lda, R* S, T* U, int ldu, T* V, int ldv, T* work,        \
                                                  int lwork, int* info, gesvdjInfo_t params, int batchSize) {        \
    return run_gesvdj("trnsolverDn" #P "gesvdjBatched", h, true, enum_value(jobz), 0, m, n, A, lda, S, U, ldu, V,    \
                      ldv, work, lwork, info, params, batchSize);                                                    \
  }
TRNSOLVER_DEFINE_COMPLEX_JACOBI(C, trnComplex, float)
TRNSOLVER_DEFINE_COMPLEX_JACOBI(Z, trnDoubleComplex, double)
#undef TRNSOLVER_DEFINE_COMPLEX_JACOBI
}  // extern "C"
