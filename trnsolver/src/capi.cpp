// trnsolver.h: the C shim, written with the C-shim kit (core/include/trn/core/c_shim.hpp). Each
// entry point checks the handle, checks its arguments in cuSOLVER order (the first illegal one is
// logged with its 1-based position and reported as INVALID_VALUE, *info = -position when info is
// writable, nothing else written), then runs the C++ API inside `guarded`.
#include "trnsolver.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "trn/core/c_shim.hpp"
#include "trn/solver/solver.hpp"

struct trnsolverDnContext {
  trn::solver::Settings settings;
  trnStream_t stream = nullptr;
  trnsolverDeterministicMode_t deterministic = TRNSOLVER_DETERMINISTIC_RESULTS;
  trnProfile_t last_profile{};
  trn::cshim::LastError last_error_param{0};  // atomic: a handle may serve several threads
};

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

using trn::cshim::ArgCheck;
using trn::cshim::enum_value;
using Status = trnsolverStatus_t;

trn::cshim::Logger g_log("TRNSOLVER");
trn::cshim::HandleRegistry<trnsolverDnContext> g_handles;
trn::cshim::HandleRegistry<syevjInfo> g_infos;
trn::cshim::HandleRegistry<gesvdjInfo> g_gesvdj_infos;

const trn::cshim::StatusMap<Status> kStatusMap{TRNSOLVER_STATUS_SUCCESS,      TRNSOLVER_STATUS_ALLOC_FAILED,
                                               TRNSOLVER_STATUS_NOT_SUPPORTED, TRNSOLVER_STATUS_INVALID_VALUE,
                                               TRNSOLVER_STATUS_EXECUTION_FAILED, TRNSOLVER_STATUS_INTERNAL_ERROR,
                                               &trnsolverGetStatusName};

using Check = ArgCheck<Status>;

// The kit's emulation surface (SetTarget ... GetLastErrorParameter, the logger family) over trnsolver handles.
constexpr trn::cshim::SurfaceCodes<Status> kSurfaceCodes{TRNSOLVER_STATUS_SUCCESS, TRNSOLVER_STATUS_NOT_INITIALIZED,
                                                     TRNSOLVER_STATUS_INVALID_VALUE};
using Surface =
    trn::cshim::ContextBinding<trnsolverDnContext, Status, &g_handles, &g_log, &kStatusMap, &kSurfaceCodes>;

// ---- syevjInfo_t and gesvdjInfo_t: the same parameter/result object for both Jacobi solvers ----------

// A new object of type T registered in `registry` and returned through `out` (handles and infos).
template <class T>
Status create_registered(trn::cshim::HandleRegistry<T>& registry, T** out) {
  return trn::cshim::create_registered(registry, out, TRNSOLVER_STATUS_INVALID_VALUE, TRNSOLVER_STATUS_ALLOC_FAILED,
                                       TRNSOLVER_STATUS_SUCCESS);
}

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

// Enum arguments travel as the caller's int (enum_value at the entry point: no enum-typed load).
trn::solver::Uplo to_uplo(int u) {
  return u == TRNBLAS_FILL_MODE_UPPER ? trn::solver::Uplo::upper : trn::solver::Uplo::lower;
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
               const T* A, int lda, const T* W, int* lwork, syevjInfo_t params, int batch, bool batched) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_syevj_common(c, jobz, uplo, n, A, lda, W);
  c.not_null(lwork, 7, "lwork").require(g_infos.contains(params), 8, "params");
  if (batched) c.nonnegative(batch, 9, "batchSize");
  if (!c) return c.status();
  *lwork = 1;  // no device workspace is needed; a positive size keeps the allocate-then-call pattern
  return TRNSOLVER_STATUS_SUCCESS;
}

template <class T>
Status run_syevj(const char* fn, trnsolverDnHandle_t h, int jobz, int uplo, int n, T* A,
                 int lda, T* W, T* work, int lwork, int* info, syevjInfo_t params, int batch, bool batched) {
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
    trn::solver::CallReport report;
    std::vector<trn::solver::SyevjResult> res;
    if constexpr (std::is_same_v<T, float>)
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

// itype (1), jobz (2), uplo (3), n (4), A (5), lda (6), B (7), ldb (8), W (9).
void check_sygvj_common(Check& c, int itype, int jobz, int uplo, int n, const void* A, int lda, const void* B, int ldb,
                        const void* W) {
  c.one_of(itype, {TRNSOLVER_EIG_TYPE_1, TRNSOLVER_EIG_TYPE_2, TRNSOLVER_EIG_TYPE_3}, 1, "itype")
      .one_of(jobz, {TRNSOLVER_EIG_MODE_NOVECTOR, TRNSOLVER_EIG_MODE_VECTOR}, 2, "jobz")
      .one_of(uplo, {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 3, "uplo")
      .nonnegative(n, 4, "n")
      .require(n == 0 || A != nullptr, 5, "A")
      .leading_dim(lda, n, 6, "lda")
      .require(n == 0 || B != nullptr, 7, "B")
      .leading_dim(ldb, n, 8, "ldb")
      .require(n == 0 || W != nullptr, 9, "W");
}

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

template <class T>
Status run_sygvj(const char* fn, trnsolverDnHandle_t h, int itype, int jobz, int uplo, int n, T* A, int lda, T* B,
                 int ldb, T* W, T* work, int lwork, int* info, syevjInfo_t params) {
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
    trn::solver::CallReport report;
    trn::solver::SyevjResult r;
    if constexpr (std::is_same_v<T, float>)
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

template <class T>
Status run_gesvdj(const char* fn, trnsolverDnHandle_t h, bool batched, int jobz, int econ, int m, int n, T* A, int lda,
                  T* S, T* U, int ldu, T* V, int ldv, T* work, int lwork, int* info, gesvdjInfo_t params, int batch) {
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
    trn::solver::CallReport report;
    std::vector<trn::solver::GesvdjResult> res;
    trn::solver::GesvdjParams p = params->params;
    if constexpr (std::is_same_v<T, float>) {
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

const char* trnsolverGetStatusName(trnsolverStatus_t s) {
  switch (enum_value(s)) {
    case TRNSOLVER_STATUS_SUCCESS: return "TRNSOLVER_STATUS_SUCCESS";
    case TRNSOLVER_STATUS_NOT_INITIALIZED: return "TRNSOLVER_STATUS_NOT_INITIALIZED";
    case TRNSOLVER_STATUS_ALLOC_FAILED: return "TRNSOLVER_STATUS_ALLOC_FAILED";
    case TRNSOLVER_STATUS_INVALID_VALUE: return "TRNSOLVER_STATUS_INVALID_VALUE";
    case TRNSOLVER_STATUS_ARCH_MISMATCH: return "TRNSOLVER_STATUS_ARCH_MISMATCH";
    case TRNSOLVER_STATUS_MAPPING_ERROR: return "TRNSOLVER_STATUS_MAPPING_ERROR";
    case TRNSOLVER_STATUS_EXECUTION_FAILED: return "TRNSOLVER_STATUS_EXECUTION_FAILED";
    case TRNSOLVER_STATUS_INTERNAL_ERROR: return "TRNSOLVER_STATUS_INTERNAL_ERROR";
    case TRNSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "TRNSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case TRNSOLVER_STATUS_NOT_SUPPORTED: return "TRNSOLVER_STATUS_NOT_SUPPORTED";
    case TRNSOLVER_STATUS_ZERO_PIVOT: return "TRNSOLVER_STATUS_ZERO_PIVOT";
    case TRNSOLVER_STATUS_INVALID_LICENSE: return "TRNSOLVER_STATUS_INVALID_LICENSE";
    case TRNSOLVER_STATUS_INVALID_WORKSPACE: return "TRNSOLVER_STATUS_INVALID_WORKSPACE";
    default: return "TRNSOLVER_STATUS_UNKNOWN";
  }
}

trnsolverStatus_t trnsolverGetVersion(int* version) {
  if (version == nullptr) return TRNSOLVER_STATUS_INVALID_VALUE;
  *version = TRNSOLVER_VERSION;
  return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnCreate(trnsolverDnHandle_t* handle) { return Surface::create(handle); }

trnsolverStatus_t trnsolverDnDestroy(trnsolverDnHandle_t h) { return Surface::destroy(h); }

trnsolverStatus_t trnsolverDnSetStream(trnsolverDnHandle_t h, trnStream_t s) {
  return Surface::set(h, [&](trnsolverDnContext& c) { c.stream = s; });
}

trnsolverStatus_t trnsolverDnGetStream(trnsolverDnHandle_t h, trnStream_t* s) {
  return Surface::get(h, "trnsolverDnGetStream", s, "streamId", [](const trnsolverDnContext& c) { return c.stream; });
}

trnsolverStatus_t trnsolverDnSetDeterministicMode(trnsolverDnHandle_t h, trnsolverDeterministicMode_t mode) {
  return Surface::set_one_of(h, "trnsolverDnSetDeterministicMode", enum_value(mode), {1, 2}, "mode",
                             [&](trnsolverDnContext& c) { c.deterministic = mode; });
}

trnsolverStatus_t trnsolverDnGetDeterministicMode(trnsolverDnHandle_t h, trnsolverDeterministicMode_t* mode) {
  return Surface::get(h, "trnsolverDnGetDeterministicMode", mode, "mode",
                      [](const trnsolverDnContext& c) { return c.deterministic; });
}

TRN_CSHIM_EMULATION_ENTRY_POINTS(trnsolverDn, trnsolver, Surface)

trnsolverStatus_t trnsolverDnSetEmulatedCores(trnsolverDnHandle_t h, int cores) { return trnsolverDnSetNumCores(h, cores); }

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

// ---- Cholesky ----------------------------------------------------------------------------------------

}  // extern "C"

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
  if (!c) {
    if (devInfo != nullptr && c.failed_position() > 0) *devInfo = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::solver::CallReport report;
    if constexpr (std::is_same_v<T, float>)
      *devInfo = trn::solver::spotrf(h->settings, to_uplo(uplo), n, A, lda, &report);
    else
      *devInfo = trn::solver::dpotrf(h->settings, to_uplo(uplo), n, A, lda, &report);
    h->last_profile = report.profile.to_c();
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
  if (!c) {
    if (devInfo != nullptr && c.failed_position() > 0) *devInfo = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::solver::CallReport report;
    if constexpr (std::is_same_v<T, float>)
      trn::solver::spotrs(h->settings, to_uplo(uplo), n, nrhs, A, lda, B, ldb, &report);
    else
      trn::solver::dpotrs(h->settings, to_uplo(uplo), n, nrhs, A, lda, B, ldb, &report);
    *devInfo = 0;
    h->last_profile = report.profile.to_c();
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

// ---- LU --------------------------------------------------------------------------------------------

trnsolverStatus_t trnsolverDnSgetrf_bufferSize(trnsolverDnHandle_t h, int m, int n, float* A, int lda, int* Lwork) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnSgetrf_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.nonnegative(m, 1, "m").nonnegative(n, 2, "n").require(m == 0 || n == 0 || A != nullptr, 3, "A")
      .leading_dim(lda, m, 4, "lda").not_null(Lwork, 5, "Lwork");
  if (!c) return c.status();
  *Lwork = 1;
  return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnSgetrf(trnsolverDnHandle_t h, int m, int n, float* A, int lda, float* Workspace,
                                    int* devIpiv, int* devInfo) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnSgetrf";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.nonnegative(m, 1, "m").nonnegative(n, 2, "n").require(m == 0 || n == 0 || A != nullptr, 3, "A")
      .leading_dim(lda, m, 4, "lda").not_null(Workspace, 5, "Workspace").not_null(devInfo, 7, "devInfo");
  if (!c) {
    if (devInfo != nullptr && c.failed_position() > 0) *devInfo = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::solver::CallReport report;
    *devInfo = trn::solver::sgetrf(h->settings, m, n, A, lda, devIpiv, &report);
    h->last_profile = report.profile.to_c();
  });
}

trnsolverStatus_t trnsolverDnSgetrs(trnsolverDnHandle_t h, trnblasOperation_t trans, int n, int nrhs, const float* A,
                                    int lda, const int* devIpiv, float* B, int ldb, int* devInfo) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnSgetrs";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(enum_value(trans), {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 1, "trans")
      .nonnegative(n, 2, "n")
      .nonnegative(nrhs, 3, "nrhs")
      .require(n == 0 || A != nullptr, 4, "A")
      .leading_dim(lda, n, 5, "lda")
      .require(n == 0 || nrhs == 0 || B != nullptr, 7, "B")
      .leading_dim(ldb, n, 8, "ldb")
      .not_null(devInfo, 9, "devInfo");
  // Every pivot index must lie in [1, n] (read-only check before anything is written).
  for (int k = 0; c && devIpiv != nullptr && k < n; ++k) c.require(devIpiv[k] >= 1 && devIpiv[k] <= n, 6, "devIpiv");
  if (!c) {
    if (devInfo != nullptr && c.failed_position() > 0) *devInfo = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::solver::CallReport report;
    trn::solver::sgetrs(h->settings, enum_value(trans) != TRNBLAS_OP_N, n, nrhs, A, lda, devIpiv, B, ldb, &report);
    *devInfo = 0;
    h->last_profile = report.profile.to_c();
  });
}

}  // extern "C"

namespace {

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

// IRS simple API: argument positions as cuSOLVER (n 1, nrhs 2, dA 3, ldda 4, dipiv 5, dB 6, lddb 7,
// dX 8, lddx 9, dWorkspace 10, lwork_bytes 11, iter 12, d_info 13).
// Workspace of the simple API: the fp32 LU factors, the rounded right-hand sides and the residual.
template <class T>
std::size_t gesv_bytes(int n, int nrhs) {
  return static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * sizeof(float) +
         static_cast<std::size_t>(n) * static_cast<std::size_t>(nrhs) * (sizeof(float) + sizeof(T));
}

template <class T>
void check_gesv(Check& c, int n, int nrhs, const T* dA, int ldda, const int* dipiv, const T* dB, int lddb,
                const T* dX, int lddx) {
  c.nonnegative(n, 1, "n").nonnegative(nrhs, 2, "nrhs").require(n == 0 || dA != nullptr, 3, "dA")
      .leading_dim(ldda, n, 4, "ldda").require(n == 0 || dipiv != nullptr, 5, "dipiv")
      .require(n == 0 || nrhs == 0 || dB != nullptr, 6, "dB").leading_dim(lddb, n, 7, "lddb")
      .require(n == 0 || nrhs == 0 || dX != nullptr, 8, "dX").leading_dim(lddx, n, 9, "lddx");
}

template <class T>
Status gesv_buffer(const char* fn, trnsolverDnHandle_t h, int n, int nrhs, T* dA, int ldda, int* dipiv,
                   T* dB, int lddb, T* dX, int lddx, size_t* lwork_bytes) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_gesv(c, n, nrhs, dA, ldda, dipiv, dB, lddb, dX, lddx);
  c.not_null(lwork_bytes, 11, "lwork_bytes");
  if (!c) return c.status();
  *lwork_bytes = gesv_bytes<T>(n, nrhs);
  return TRNSOLVER_STATUS_SUCCESS;
}

template <class T>
Status gesv_run(const char* fn, trn::blas::GemmMode mode, trnsolverDnHandle_t h, int n, int nrhs, T* dA,
                int ldda, int* dipiv, T* dB, int lddb, T* dX, int lddx, void* dWorkspace,
                size_t lwork_bytes, int* iter, int* d_info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_gesv(c, n, nrhs, dA, ldda, dipiv, dB, lddb, dX, lddx);
  c.require(lwork_bytes == 0 || dWorkspace != nullptr, 10, "dWorkspace")
      .require(lwork_bytes >= gesv_bytes<T>(n, nrhs), 11, "lwork_bytes")
      .not_null(iter, 12, "iter")
      .not_null(d_info, 13, "d_info");
  if (!c) {
    if (d_info != nullptr && c.failed_position() > 0) *d_info = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::solver::CallReport report;
    if constexpr (std::is_same_v<T, double>)
      *d_info = trn::solver::dxgesv(h->settings, mode, n, nrhs, dA, ldda, dipiv, dB, lddb, dX, lddx, iter, 50, &report);
    else
      *d_info = trn::solver::sxgesv(h->settings, mode, n, nrhs, dA, ldda, dipiv, dB, lddb, dX, lddx, iter, 50, &report);
    h->last_profile = report.profile.to_c();
  });
}

}  // namespace

extern "C" {

trnsolverStatus_t trnsolverDnDgetrf_bufferSize(trnsolverDnHandle_t h, int m, int n, double* A, int lda, int* Lwork) {
  return getrf_buffer("trnsolverDnDgetrf_bufferSize", h, m, n, A, lda, Lwork);
}

trnsolverStatus_t trnsolverDnDgetrf(trnsolverDnHandle_t h, int m, int n, double* A, int lda, double* Workspace,
                                    int* devIpiv, int* devInfo) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnDgetrf";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.nonnegative(m, 1, "m").nonnegative(n, 2, "n").require(m == 0 || n == 0 || A != nullptr, 3, "A")
      .leading_dim(lda, m, 4, "lda").not_null(Workspace, 5, "Workspace").not_null(devInfo, 7, "devInfo");
  if (!c) {
    if (devInfo != nullptr && c.failed_position() > 0) *devInfo = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::solver::CallReport report;
    *devInfo = trn::solver::dgetrf(h->settings, m, n, A, lda, devIpiv, &report);
    h->last_profile = report.profile.to_c();
  });
}

trnsolverStatus_t trnsolverDnDgetrs(trnsolverDnHandle_t h, trnblasOperation_t trans, int n, int nrhs, const double* A,
                                    int lda, const int* devIpiv, double* B, int ldb, int* devInfo) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnDgetrs";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(enum_value(trans), {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C}, 1, "trans")
      .nonnegative(n, 2, "n").nonnegative(nrhs, 3, "nrhs").require(n == 0 || A != nullptr, 4, "A")
      .leading_dim(lda, n, 5, "lda").require(n == 0 || nrhs == 0 || B != nullptr, 7, "B")
      .leading_dim(ldb, n, 8, "ldb").not_null(devInfo, 9, "devInfo");
  for (int k = 0; c && devIpiv != nullptr && k < n; ++k) c.require(devIpiv[k] >= 1 && devIpiv[k] <= n, 6, "devIpiv");
  if (!c) {
    if (devInfo != nullptr && c.failed_position() > 0) *devInfo = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::solver::CallReport report;
    trn::solver::dgetrs(h->settings, enum_value(trans) != TRNBLAS_OP_N, n, nrhs, A, lda, devIpiv, B, ldb, &report);
    *devInfo = 0;
    h->last_profile = report.profile.to_c();
  });
}

// One definition for the D and S I/O variants (T: the I/O type).
#define TRNSOLVER_DEFINE_GESV(NAME, T, MODE)                                                                       \
  trnsolverStatus_t NAME##_bufferSize(trnsolverDnHandle_t h, trnsolver_int_t n, trnsolver_int_t nrhs, T* dA,        \
                                      trnsolver_int_t ldda, trnsolver_int_t* dipiv, T* dB, trnsolver_int_t lddb,    \
                                      T* dX, trnsolver_int_t lddx, void*, size_t* lwork_bytes) {                    \
    return gesv_buffer(#NAME "_bufferSize", h, n, nrhs, dA, ldda, dipiv, dB, lddb, dX, lddx, lwork_bytes);          \
  }                                                                                                                 \
  trnsolverStatus_t NAME(trnsolverDnHandle_t h, trnsolver_int_t n, trnsolver_int_t nrhs, T* dA, trnsolver_int_t ldda, \
                         trnsolver_int_t* dipiv, T* dB, trnsolver_int_t lddb, T* dX, trnsolver_int_t lddx,          \
                         void* dWorkspace, size_t lwork_bytes, trnsolver_int_t* iter, trnsolver_int_t* d_info) {    \
    return gesv_run(#NAME, MODE, h, n, nrhs, dA, ldda, dipiv, dB, lddb, dX, lddx, dWorkspace, lwork_bytes, iter,    \
                    d_info);                                                                                        \
  }
TRNSOLVER_DEFINE_GESV(trnsolverDnDSgesv, double, trn::blas::GemmMode::fp32)
TRNSOLVER_DEFINE_GESV(trnsolverDnDHgesv, double, trn::blas::GemmMode::fp16)
TRNSOLVER_DEFINE_GESV(trnsolverDnDBgesv, double, trn::blas::GemmMode::bf16)
TRNSOLVER_DEFINE_GESV(trnsolverDnDXgesv, double, trn::blas::GemmMode::tf32)
TRNSOLVER_DEFINE_GESV(trnsolverDnSHgesv, float, trn::blas::GemmMode::fp16)
TRNSOLVER_DEFINE_GESV(trnsolverDnSBgesv, float, trn::blas::GemmMode::bf16)
TRNSOLVER_DEFINE_GESV(trnsolverDnSXgesv, float, trn::blas::GemmMode::tf32)
#undef TRNSOLVER_DEFINE_GESV

}  // extern "C"

// ---- IRS expert API ---------------------------------------------------------------------------------

struct trnsolverDnIRSParams {
  int refinement = TRNSOLVER_IRS_REFINE_NOT_SET;
  int main_prec = 0;    // 0: not set
  int lowest_prec = 0;  // 0: the main precision
  double tol = 0.0, tol_inner = 1e-4;
  int max_iters = 50, max_iters_inner = 50;
  bool fallback = true;
};

struct trnsolverDnIRSInfos {
  int niters = 0, outer_niters = 0, max_iters = 0;
  bool residual_requested = false;
  std::vector<double> history64;  // (max_iters + 1) x 2, column-major, main precision R_64F
  std::vector<float> history32;   // the same for R_32F
  bool history_f32 = false;
};

struct trnsolverDnParams {
  int algo[3] = {TRNSOLVER_ALG_0, TRNSOLVER_ALG_0, TRNSOLVER_ALG_0};  // per trnsolverDnFunction_t
};

namespace {

trn::cshim::HandleRegistry<trnsolverDnIRSParams> g_irs_params;
trn::cshim::HandleRegistry<trnsolverDnIRSInfos> g_irs_infos;
trn::cshim::HandleRegistry<trnsolverDnParams> g_dn_params;


constexpr std::initializer_list<int> kPrecTypes{
    TRNSOLVER_R_8I,  TRNSOLVER_R_8U,  TRNSOLVER_R_64F, TRNSOLVER_R_32F,  TRNSOLVER_R_16F,  TRNSOLVER_R_16BF,
    TRNSOLVER_R_TF32, TRNSOLVER_R_AP, TRNSOLVER_C_8I,  TRNSOLVER_C_8U,   TRNSOLVER_C_64F,  TRNSOLVER_C_32F,
    TRNSOLVER_C_16F, TRNSOLVER_C_16BF, TRNSOLVER_C_TF32, TRNSOLVER_C_AP};

// Lowest precision -> the LU's TensorE input format; false when the pair is not supported.
bool lu_format(int main, int lowest, trn::solver::IrsOptions& o) {
  if (main != TRNSOLVER_R_64F && main != TRNSOLVER_R_32F) return false;
  switch (lowest) {
    case TRNSOLVER_R_64F: o.lu_fp64 = true; return main == TRNSOLVER_R_64F;
    case TRNSOLVER_R_32F: o.lu_mode = trn::blas::GemmMode::fp32; return true;
    case TRNSOLVER_R_16F: o.lu_mode = trn::blas::GemmMode::fp16; return true;
    case TRNSOLVER_R_16BF: o.lu_mode = trn::blas::GemmMode::bf16; return true;
    case TRNSOLVER_R_TF32: o.lu_mode = trn::blas::GemmMode::tf32; return true;
    default: return false;
  }
}

bool gmres_family(int r) {
  return r == TRNSOLVER_IRS_REFINE_CLASSICAL_GMRES || r == TRNSOLVER_IRS_REFINE_GMRES ||
         r == TRNSOLVER_IRS_REFINE_GMRES_NOPCOND || r == TRNSOLVER_IRS_REFINE_GMRES_GMRES;
}

// Bytes: the LU factors, two n x nrhs vectors of the main precision, the Krylov basis.
std::size_t irs_bytes(const trnsolverDnIRSParams& p, int n, int nrhs) {
  const std::size_t el = p.main_prec == TRNSOLVER_R_32F ? sizeof(float) : sizeof(double);
  const std::size_t lu = p.lowest_prec == TRNSOLVER_R_64F ? sizeof(double) : sizeof(float);
  const auto nn = static_cast<std::size_t>(n);
  return nn * nn * lu + nn * static_cast<std::size_t>(nrhs) * 2 * el +
         nn * static_cast<std::size_t>(p.max_iters_inner + 1) * el;
}

// The IRS-specific statuses of IRSXgesv(_bufferSize), in the order cuSOLVER documents them.
void check_irs_params(Check& c, trnsolverDnIRSParams_t p, bool need_refinement) {
  c.require_or(g_irs_params.contains(p), TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED,
               "TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED", "params was not created");
  if (!c) return;
  trn::solver::IrsOptions o;
  const int lowest = p->lowest_prec == 0 ? p->main_prec : p->lowest_prec;
  c.require_or(lu_format(p->main_prec, lowest, o), TRNSOLVER_STATUS_IRS_PARAMS_INVALID_PREC,
               "TRNSOLVER_STATUS_IRS_PARAMS_INVALID_PREC",
               "main precision R_64F or R_32F; lowest R_64F (main R_64F), R_32F, R_16F, R_16BF or R_TF32");
  if (!need_refinement) return;
  c.require_or(p->refinement >= TRNSOLVER_IRS_REFINE_NONE && p->refinement <= TRNSOLVER_IRS_REFINE_GMRES_NOPCOND,
               TRNSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE, "TRNSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE",
               "the refinement solver is not set");
  c.require_or(p->refinement != TRNSOLVER_IRS_REFINE_GMRES_GMRES, TRNSOLVER_STATUS_IRS_NOT_SUPPORTED,
               "TRNSOLVER_STATUS_IRS_NOT_SUPPORTED", "GMRES_GMRES (nested GMRES) is not implemented");
}

template <class T>
void store_history(trnsolverDnIRSInfos& inf, const trn::solver::IrsResult& r, std::vector<T>& h) {
  const std::size_t ld = static_cast<std::size_t>(inf.max_iters) + 1;
  h.assign(2 * ld, T(0));
  for (std::size_t k = 0; k < r.residual_history.size() && k < ld; ++k) {
    h[k] = static_cast<T>(r.residual_history[k].first);
    h[k + ld] = static_cast<T>(r.residual_history[k].second);
  }
}

}  // namespace

extern "C" {

trnsolverStatus_t trnsolverDnIRSParamsCreate(trnsolverDnIRSParams_t* p) { return create_registered(g_irs_params, p); }
trnsolverStatus_t trnsolverDnIRSParamsDestroy(trnsolverDnIRSParams_t p) {
  if (!g_irs_params.erase(p)) return TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED;
  delete p;
  return TRNSOLVER_STATUS_SUCCESS;
}

}  // extern "C"

namespace {

// Setter of one params field: IRS_PARAMS_NOT_INITIALIZED for an unknown params, else the value check
// (position 2) and the store.
template <class F>
Status set_param(const char* fn, trnsolverDnIRSParams_t p, bool valid, const char* what, F&& store) {
  if (!g_irs_params.contains(p)) return TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE);
  if (!c.require(valid, 2, what)) return c.status();
  store(*p);
  return TRNSOLVER_STATUS_SUCCESS;
}

template <class F>
Status get_info(trnsolverDnIRSInfos_t inf, const void* out, F&& load) {
  if (!g_irs_infos.contains(inf)) return TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED;
  if (out == nullptr) return TRNSOLVER_STATUS_INVALID_VALUE;
  load(*inf);
  return TRNSOLVER_STATUS_SUCCESS;
}

bool is_prec(int v) { return std::find(kPrecTypes.begin(), kPrecTypes.end(), v) != kPrecTypes.end(); }

}  // namespace

extern "C" {

trnsolverStatus_t trnsolverDnIRSParamsSetRefinementSolver(trnsolverDnIRSParams_t p, trnsolverIRSRefinement_t r) {
  const int v = enum_value(r);
  return set_param("trnsolverDnIRSParamsSetRefinementSolver", p,
                   v >= TRNSOLVER_IRS_REFINE_NOT_SET && v <= TRNSOLVER_IRS_REFINE_GMRES_NOPCOND, "refinement_solver",
                   [&](trnsolverDnIRSParams& q) { q.refinement = v; });
}
trnsolverStatus_t trnsolverDnIRSParamsSetSolverMainPrecision(trnsolverDnIRSParams_t p, trnsolverPrecType_t m) {
  const int v = enum_value(m);
  return set_param("trnsolverDnIRSParamsSetSolverMainPrecision", p, is_prec(v), "solver_main_precision",
                   [&](trnsolverDnIRSParams& q) { q.main_prec = v; });
}
trnsolverStatus_t trnsolverDnIRSParamsSetSolverLowestPrecision(trnsolverDnIRSParams_t p, trnsolverPrecType_t l) {
  const int v = enum_value(l);
  return set_param("trnsolverDnIRSParamsSetSolverLowestPrecision", p, is_prec(v), "solver_lowest_precision",
                   [&](trnsolverDnIRSParams& q) { q.lowest_prec = v; });
}
trnsolverStatus_t trnsolverDnIRSParamsSetSolverPrecisions(trnsolverDnIRSParams_t p, trnsolverPrecType_t m,
                                                          trnsolverPrecType_t l) {
  if (!g_irs_params.contains(p)) return TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnIRSParamsSetSolverPrecisions", TRNSOLVER_STATUS_INVALID_VALUE);
  if (!c.require(is_prec(enum_value(m)), 2, "solver_main_precision").require(is_prec(enum_value(l)), 3,
                                                                              "solver_lowest_precision"))
    return c.status();
  p->main_prec = enum_value(m);
  p->lowest_prec = enum_value(l);
  return TRNSOLVER_STATUS_SUCCESS;
}
trnsolverStatus_t trnsolverDnIRSParamsSetTol(trnsolverDnIRSParams_t p, double val) {
  return set_param("trnsolverDnIRSParamsSetTol", p, val >= 0.0, "val", [&](trnsolverDnIRSParams& q) { q.tol = val; });
}
trnsolverStatus_t trnsolverDnIRSParamsSetTolInner(trnsolverDnIRSParams_t p, double val) {
  return set_param("trnsolverDnIRSParamsSetTolInner", p, val > 0.0 && val < 1.0, "val",
                   [&](trnsolverDnIRSParams& q) { q.tol_inner = val; });
}
trnsolverStatus_t trnsolverDnIRSParamsSetMaxIters(trnsolverDnIRSParams_t p, trnsolver_int_t maxiters) {
  return set_param("trnsolverDnIRSParamsSetMaxIters", p, maxiters > 0, "maxiters",
                   [&](trnsolverDnIRSParams& q) { q.max_iters = maxiters; });
}
trnsolverStatus_t trnsolverDnIRSParamsSetMaxItersInner(trnsolverDnIRSParams_t p, trnsolver_int_t maxiters_inner) {
  if (g_irs_params.contains(p) && maxiters_inner > p->max_iters) return TRNSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER;
  return set_param("trnsolverDnIRSParamsSetMaxItersInner", p, maxiters_inner > 0, "maxiters_inner",
                   [&](trnsolverDnIRSParams& q) { q.max_iters_inner = maxiters_inner; });
}
trnsolverStatus_t trnsolverDnIRSParamsGetMaxIters(trnsolverDnIRSParams_t p, trnsolver_int_t* maxiters) {
  return set_param("trnsolverDnIRSParamsGetMaxIters", p, maxiters != nullptr, "maxiters",
                   [&](trnsolverDnIRSParams& q) { *maxiters = q.max_iters; });
}
trnsolverStatus_t trnsolverDnIRSParamsEnableFallback(trnsolverDnIRSParams_t p) {
  return set_param("trnsolverDnIRSParamsEnableFallback", p, true, "", [](trnsolverDnIRSParams& q) { q.fallback = true; });
}
trnsolverStatus_t trnsolverDnIRSParamsDisableFallback(trnsolverDnIRSParams_t p) {
  return set_param("trnsolverDnIRSParamsDisableFallback", p, true, "",
                   [](trnsolverDnIRSParams& q) { q.fallback = false; });
}

trnsolverStatus_t trnsolverDnIRSInfosCreate(trnsolverDnIRSInfos_t* i) { return create_registered(g_irs_infos, i); }
trnsolverStatus_t trnsolverDnIRSInfosDestroy(trnsolverDnIRSInfos_t i) {
  if (!g_irs_infos.erase(i)) return TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED;
  delete i;
  return TRNSOLVER_STATUS_SUCCESS;
}
trnsolverStatus_t trnsolverDnIRSInfosGetNiters(trnsolverDnIRSInfos_t i, trnsolver_int_t* niters) {
  return get_info(i, niters, [&](trnsolverDnIRSInfos& q) { *niters = q.niters; });
}
trnsolverStatus_t trnsolverDnIRSInfosGetOuterNiters(trnsolverDnIRSInfos_t i, trnsolver_int_t* outer) {
  return get_info(i, outer, [&](trnsolverDnIRSInfos& q) { *outer = q.outer_niters; });
}
trnsolverStatus_t trnsolverDnIRSInfosGetMaxIters(trnsolverDnIRSInfos_t i, trnsolver_int_t* maxiters) {
  return get_info(i, maxiters, [&](trnsolverDnIRSInfos& q) { *maxiters = q.max_iters; });
}
trnsolverStatus_t trnsolverDnIRSInfosRequestResidual(trnsolverDnIRSInfos_t i) {
  return get_info(i, &i, [](trnsolverDnIRSInfos& q) { q.residual_requested = true; });
}
trnsolverStatus_t trnsolverDnIRSInfosGetResidualHistory(trnsolverDnIRSInfos_t i, void** history) {
  if (!g_irs_infos.contains(i)) return TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED;
  if (history == nullptr || !i->residual_requested) return TRNSOLVER_STATUS_INVALID_VALUE;
  *history = i->history_f32 ? static_cast<void*>(i->history32.data()) : static_cast<void*>(i->history64.data());
  return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSXgesv_bufferSize(trnsolverDnHandle_t h, trnsolverDnIRSParams_t p, trnsolver_int_t n,
                                                 trnsolver_int_t nrhs, size_t* lwork_bytes) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnIRSXgesv_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_irs_params(c, p, false);
  c.nonnegative(n, 2, "n").nonnegative(nrhs, 3, "nrhs").not_null(lwork_bytes, 4, "lwork_bytes");
  if (!c) return c.status();
  *lwork_bytes = irs_bytes(*p, n, nrhs);
  return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnIRSXgesv(trnsolverDnHandle_t h, trnsolverDnIRSParams_t p, trnsolverDnIRSInfos_t inf,
                                      trnsolver_int_t n, trnsolver_int_t nrhs, void* dA, trnsolver_int_t ldda,
                                      void* dB, trnsolver_int_t lddb, void* dX, trnsolver_int_t lddx,
                                      void* dWorkspace, size_t lwork_bytes, trnsolver_int_t* niters,
                                      trnsolver_int_t* d_info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsolverDnIRSXgesv";
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_irs_params(c, p, true);
  c.require_or(g_irs_infos.contains(inf), TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED,
               "TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED", "infos was not created");
  if (c)
    c.require_or(!gmres_family(p->refinement) || nrhs <= 1, TRNSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES,
                 "TRNSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES", "the GMRES solvers take nrhs = 1");
  c.nonnegative(n, 3, "n").nonnegative(nrhs, 4, "nrhs").require(n == 0 || dA != nullptr, 5, "dA")
      .leading_dim(ldda, n, 6, "ldda").require(n == 0 || nrhs == 0 || dB != nullptr, 7, "dB")
      .leading_dim(lddb, n, 8, "lddb").require(n == 0 || nrhs == 0 || dX != nullptr, 9, "dX")
      .leading_dim(lddx, n, 10, "lddx");
  if (c) {
    c.require(lwork_bytes == 0 || dWorkspace != nullptr, 11, "dWorkspace")
        .require(lwork_bytes >= irs_bytes(*p, n, nrhs), 12, "lwork_bytes");
  }
  c.not_null(niters, 13, "niters").not_null(d_info, 14, "d_info");
  if (!c) {
    if (d_info != nullptr && c.failed_position() > 0) *d_info = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::solver::IrsOptions o;
    lu_format(p->main_prec, p->lowest_prec == 0 ? p->main_prec : p->lowest_prec, o);
    using R = trn::solver::IrsRefinement;
    switch (p->refinement) {
      case TRNSOLVER_IRS_REFINE_NONE: o.refinement = R::none; break;
      case TRNSOLVER_IRS_REFINE_CLASSICAL_GMRES: o.refinement = R::classical_gmres; break;
      case TRNSOLVER_IRS_REFINE_GMRES: o.refinement = R::gmres; break;
      case TRNSOLVER_IRS_REFINE_GMRES_NOPCOND: o.refinement = R::gmres_nopcond; break;
      default: o.refinement = R::classical; break;
    }
    o.max_iters = p->max_iters;
    o.max_iters_inner = p->max_iters_inner;
    o.tol = p->tol;
    o.tol_inner = p->tol_inner;
    o.fallback = p->fallback;
    trn::solver::CallReport report;
    trn::solver::IrsResult r;
    const bool f32 = p->main_prec == TRNSOLVER_R_32F;
    if (f32)
      r = trn::solver::irs_gesv<float>(h->settings, o, n, nrhs, static_cast<float*>(dA), ldda, nullptr,
                                       static_cast<const float*>(dB), lddb, static_cast<float*>(dX), lddx, &report);
    else
      r = trn::solver::irs_gesv<double>(h->settings, o, n, nrhs, static_cast<double*>(dA), ldda, nullptr,
                                        static_cast<const double*>(dB), lddb, static_cast<double*>(dX), lddx, &report);
    *niters = r.niters;
    *d_info = r.info;
    inf->niters = r.niters;
    inf->outer_niters = r.outer_niters;
    inf->max_iters = o.max_iters;
    inf->history_f32 = f32;
    if (inf->residual_requested) {
      if (f32)
        store_history(*inf, r, inf->history32);
      else
        store_history(*inf, r, inf->history64);
    }
    h->last_profile = report.profile.to_c();
  });
}

}  // extern "C"

// ---- 64-bit generic API ------------------------------------------------------------------------------

namespace {

// dataType/computeType of the X API: TRN_R_32F or TRN_R_64F, the compute type equal to the data type.
bool x_types(int data, int compute) { return (data == TRN_R_32F || data == TRN_R_64F) && compute == data; }
std::size_t x_elem(int data) { return data == TRN_R_32F ? sizeof(float) : sizeof(double); }

// Leading checks of every X entry point: the handle, params (position 1).
bool x_begin(trnsolverDnHandle_t h) { return g_handles.contains(h); }

void check_x_types(Check& c, int data, int compute) {
  c.require_or(x_types(data, compute), TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
               "dataType / computeType: TRN_R_32F or TRN_R_64F, both the same");
}

// The 32-bit C++ routines take int pivots: n must fit.
void check_int_range(Check& c, std::int64_t v) {
  c.require_or(v <= std::numeric_limits<int>::max(), TRNSOLVER_STATUS_NOT_SUPPORTED, "TRNSOLVER_STATUS_NOT_SUPPORTED",
               "dimension above INT_MAX");
}

template <class F>
Status x_run(const char* fn, trnsolverDnHandle_t h, Check& c, int* info, F&& body) {
  if (!c) {
    if (info != nullptr && c.failed_position() > 0) *info = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    trn::solver::CallReport report;
    body(report);
    h->last_profile = report.profile.to_c();
  });
}

}  // namespace

extern "C" {

trnsolverStatus_t trnsolverDnCreateParams(trnsolverDnParams_t* p) { return create_registered(g_dn_params, p); }
trnsolverStatus_t trnsolverDnDestroyParams(trnsolverDnParams_t p) {
  if (!g_dn_params.erase(p)) return TRNSOLVER_STATUS_INVALID_VALUE;
  delete p;
  return TRNSOLVER_STATUS_SUCCESS;
}
trnsolverStatus_t trnsolverDnSetAdvOptions(trnsolverDnParams_t p, trnsolverDnFunction_t function,
                                           trnsolverAlgMode_t algo) {
  Check c(g_log, "trnsolverDnSetAdvOptions", TRNSOLVER_STATUS_INVALID_VALUE);
  const int f = enum_value(function), a = enum_value(algo);
  if (!c.require(g_dn_params.contains(p), 1, "params")
           .one_of(f, {TRNSOLVERDN_GETRF, TRNSOLVERDN_POTRF, TRNSOLVERDN_SYEVBATCHED}, 2, "function")
           .one_of(a, {TRNSOLVER_ALG_0, TRNSOLVER_ALG_1, TRNSOLVER_ALG_2}, 3, "algo"))
    return c.status();
  p->algo[f] = a;
  return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnXpotrf_bufferSize(trnsolverDnHandle_t h, trnsolverDnParams_t params,
                                               trnblasFillMode_t uplo, int64_t n, trnDataType_t dataTypeA,
                                               const void* A, int64_t lda, trnDataType_t computeType,
                                               size_t* dev_bytes, size_t* host_bytes) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnXpotrf_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.require(g_dn_params.contains(params), 1, "params")
      .one_of(enum_value(uplo), {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER}, 2, "uplo")
      .nonnegative(n, 3, "n").require(n == 0 || A != nullptr, 5, "A").leading_dim(lda, n, 6, "lda")
      .not_null(dev_bytes, 8, "workspaceInBytesOnDevice").not_null(host_bytes, 9, "workspaceInBytesOnHost");
  check_x_types(c, enum_value(dataTypeA), enum_value(computeType));
  if (!c) return c.status();
  *dev_bytes = x_elem(enum_value(dataTypeA));
  *host_bytes = 0;
  return TRNSOLVER_STATUS_SUCCESS;
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
      .not_null(bufferOnDevice, 8, "bufferOnDevice").require(dev_bytes >= x_elem(dt), 9, "workspaceInBytesOnDevice")
      .require(host_bytes == 0 || bufferOnHost != nullptr, 10, "bufferOnHost").not_null(info, 12, "info");
  check_x_types(c, dt, enum_value(computeType));
  return x_run(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    const auto u = to_uplo(enum_value(uplo));
    *info = dt == TRN_R_32F ? trn::solver::spotrf(h->settings, u, n, static_cast<float*>(A), lda, &rep)
                            : trn::solver::dpotrf(h->settings, u, n, static_cast<double*>(A), lda, &rep);
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
  check_x_types(c, dt, enum_value(dataTypeB));
  return x_run(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    const auto u = to_uplo(enum_value(uplo));
    if (dt == TRN_R_32F)
      trn::solver::spotrs(h->settings, u, n, nrhs, static_cast<const float*>(A), lda, static_cast<float*>(B), ldb, &rep);
    else
      trn::solver::dpotrs(h->settings, u, n, nrhs, static_cast<const double*>(A), lda, static_cast<double*>(B), ldb,
                          &rep);
    *info = 0;
  });
}

trnsolverStatus_t trnsolverDnXgetrf_bufferSize(trnsolverDnHandle_t h, trnsolverDnParams_t params, int64_t m,
                                               int64_t n, trnDataType_t dataTypeA, const void* A, int64_t lda,
                                               trnDataType_t computeType, size_t* dev_bytes, size_t* host_bytes) {
  if (!x_begin(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnXgetrf_bufferSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  c.require(g_dn_params.contains(params), 1, "params").nonnegative(m, 2, "m").nonnegative(n, 3, "n")
      .require(m == 0 || n == 0 || A != nullptr, 5, "A").leading_dim(lda, m, 6, "lda")
      .not_null(dev_bytes, 8, "workspaceInBytesOnDevice").not_null(host_bytes, 9, "workspaceInBytesOnHost");
  check_x_types(c, enum_value(dataTypeA), enum_value(computeType));
  if (!c) return c.status();
  *dev_bytes = x_elem(enum_value(dataTypeA));
  *host_bytes = 0;
  return TRNSOLVER_STATUS_SUCCESS;
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
      .not_null(bufferOnDevice, 9, "bufferOnDevice").require(dev_bytes >= x_elem(dt), 10, "workspaceInBytesOnDevice")
      .require(host_bytes == 0 || bufferOnHost != nullptr, 11, "bufferOnHost").not_null(info, 13, "info");
  check_x_types(c, dt, enum_value(computeType));
  check_int_range(c, std::min(m, n));
  return x_run(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    std::vector<int> piv(ipiv != nullptr ? static_cast<std::size_t>(std::min(m, n)) : 0);
    int* pp = ipiv != nullptr ? piv.data() : nullptr;
    *info = dt == TRN_R_32F ? trn::solver::sgetrf(h->settings, m, n, static_cast<float*>(A), lda, pp, &rep)
                            : trn::solver::dgetrf(h->settings, m, n, static_cast<double*>(A), lda, pp, &rep);
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
  check_x_types(c, dt, enum_value(dataTypeB));
  check_int_range(c, n);
  return x_run(fn, h, c, info, [&](trn::solver::CallReport& rep) {
    std::vector<int> piv(ipiv != nullptr ? static_cast<std::size_t>(n) : 0);
    for (std::size_t k = 0; k < piv.size(); ++k) piv[k] = static_cast<int>(ipiv[k]);
    const int* pp = ipiv != nullptr ? piv.data() : nullptr;
    const bool t = enum_value(trans) != TRNBLAS_OP_N;
    if (dt == TRN_R_32F)
      trn::solver::sgetrs(h->settings, t, n, nrhs, static_cast<const float*>(A), lda, pp, static_cast<float*>(B), ldb,
                          &rep);
    else
      trn::solver::dgetrs(h->settings, t, n, nrhs, static_cast<const double*>(A), lda, pp, static_cast<double*>(B), ldb,
                          &rep);
    *info = 0;
  });
}

}  // extern "C"
