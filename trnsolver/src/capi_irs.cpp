// trnsolver.h, iterative refinement: the simple gesv family (<t1><t2>gesv) and the IRS expert API
// (IRSParams, IRSInfos, IRSXgesv). Conventions: capi.cpp.
#include "capi_internal.hpp"

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals

namespace {

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
  return run_checked(fn, h, c, d_info, [&](trn::solver::CallReport& report) {
    if constexpr (std::is_same_v<T, double>)
      *d_info = trn::solver::dxgesv(h->settings, mode, n, nrhs, dA, ldda, dipiv, dB, lddb, dX, lddx, iter, 50, &report);
    else
      *d_info = trn::solver::sxgesv(h->settings, mode, n, nrhs, dA, ldda, dipiv, dB, lddb, dX, lddx, iter, 50, &report);
  });
}

}  // namespace

extern "C" {

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

namespace {

trn::cshim::HandleRegistry<trnsolverDnIRSParams> g_irs_params;
trn::cshim::HandleRegistry<trnsolverDnIRSInfos> g_irs_infos;


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
