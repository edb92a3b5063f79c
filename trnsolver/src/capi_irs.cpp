// trnsolver.h, iterative refinement: the simple families (<t1><t2>gesv, <t1><t2>gels) and the IRS
// expert API (IRSParams, IRSInfos, IRSXgesv, IRSXgels). Conventions: capi.cpp.
#include <complex>
#include <type_traits>

#include "capi_internal.hpp"

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals
using trn::cshim::as_cpp;
using trn::cshim::cpp_element_t;

namespace {

// The simple API's shape: gesv (n x n, LU) or gels (m x n, m >= n, QR; m comes first, so every
// position from n on is gesv's + 1 up to dipiv, which gels lacks: from dB on they coincide).
struct Shape {
  int m, n, nrhs;
  bool qr;
};
// The factor precision of a <t1><t2> pair: the TensorE mode of its updates, or `same` (DD, SS, CC,
// ZZ: factor in the I/O precision, no refinement).
struct Variant {
  trn::blas::GemmMode mode;
  bool same;
};

template <class T>
constexpr bool kWide = std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>;
template <class T>
constexpr std::size_t kLowBytes = std::is_same_v<T, float> || std::is_same_v<T, double> ? sizeof(float)
                                                                                         : 2 * sizeof(float);

// Workspace of the simple API (T the C++ I/O type): the low-precision factors (and QR's tau), the
// rounded right-hand sides and the residual.
template <class T>
std::size_t simple_bytes(const Shape& s, bool same) {
  const std::size_t f = same ? sizeof(T) : kLowBytes<T>, m = static_cast<std::size_t>(s.m),
                    n = static_cast<std::size_t>(s.n);
  return m * n * f + (s.qr ? n * f : 0) + m * static_cast<std::size_t>(s.nrhs) * (f + sizeof(T));
}

// Arguments up to lddx in cuSOLVER's order (gesv: n 1, nrhs 2, dA 3, ldda 4, dipiv 5, dB 6, lddb 7,
// dX 8, lddx 9; gels: m 1, n 2, nrhs 3, dA 4, ldda 5, dB 6, ...).
template <class C>
void check_simple(Check& c, const Shape& s, const C* dA, int ldda, const int* dipiv, const C* dB, int lddb,
                  const C* dX, int lddx) {
  const int o = s.qr ? 1 : 0;
  if (s.qr) c.nonnegative(s.m, 1, "m");
  c.nonnegative(s.n, 1 + o, "n");
  if (s.qr) c.require(s.n <= s.m, 2, "n <= m");
  c.nonnegative(s.nrhs, 2 + o, "nrhs").require(s.n == 0 || dA != nullptr, 3 + o, "dA").leading_dim(ldda, s.m, 4 + o, "ldda");
  if (!s.qr) c.require(s.n == 0 || dipiv != nullptr, 5, "dipiv");
  c.require(s.n == 0 || s.nrhs == 0 || dB != nullptr, 6, "dB").leading_dim(lddb, s.m, 7, "lddb")
      .require(s.n == 0 || s.nrhs == 0 || dX != nullptr, 8, "dX").leading_dim(lddx, s.n, 9, "lddx");
}

template <class C>
Status simple_buffer(const char* fn, bool same, trnsolverDnHandle_t h, const Shape& s, C* dA, int ldda, int* dipiv,
                     C* dB, int lddb, C* dX, int lddx, size_t* lwork_bytes) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_simple(c, s, dA, ldda, dipiv, dB, lddb, dX, lddx);
  c.not_null(lwork_bytes, 11, "lwork_bytes");
  if (!c) return c.status();
  *lwork_bytes = simple_bytes<cpp_element_t<C>>(s, same);
  return TRNSOLVER_STATUS_SUCCESS;
}

// <t1><t2>gesv / gels: classical refinement, 50 iterations, fallback (same: one factorisation and
// solve in the I/O precision).
template <class C>
Status simple_run(const char* fn, Variant v, trnsolverDnHandle_t h, const Shape& s, C* dA, int ldda, int* dipiv, C* dB,
                  int lddb, C* dX, int lddx, void* dWorkspace, size_t lwork_bytes, int* iter, int* d_info) {
  using T = cpp_element_t<C>;
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_simple(c, s, dA, ldda, dipiv, dB, lddb, dX, lddx);
  c.require(lwork_bytes == 0 || dWorkspace != nullptr, 10, "dWorkspace")
      .require(lwork_bytes >= simple_bytes<T>(s, v.same), 11, "lwork_bytes")
      .not_null(iter, 12, "iter")
      .not_null(d_info, 13, "d_info");
  return run_checked(fn, h, c, d_info, [&](trn::solver::CallReport& report) {
    trn::solver::IrsOptions o;
    o.lu_mode = v.mode;
    o.lu_fp64 = v.same && kWide<T>;
    if (v.same) o.refinement = trn::solver::IrsRefinement::none;
    const trn::solver::IrsResult r =
        s.qr ? trn::solver::irs_gels<T>(h->settings, o, s.m, s.n, s.nrhs, as_cpp(dA), ldda, as_cpp(dB), lddb,
                                        as_cpp(dX), lddx, &report)
             : trn::solver::irs_gesv<T>(h->settings, o, s.n, s.nrhs, as_cpp(dA), ldda, dipiv, as_cpp(dB), lddb,
                                        as_cpp(dX), lddx, &report);
    *iter = r.niters;
    *d_info = r.info;
  });
}

constexpr Variant kFp32{trn::blas::GemmMode::fp32, false}, kFp16{trn::blas::GemmMode::fp16, false},
    kBf16{trn::blas::GemmMode::bf16, false}, kTf32{trn::blas::GemmMode::tf32, false},
    kSame{trn::blas::GemmMode::fp32, true};

}  // namespace

extern "C" {

// One definition per <t1><t2> pair (T: the C I/O type, V: the factor precision).
#define TRNSOLVER_DEFINE_GESV(NAME, T, V)                                                                          \
  trnsolverStatus_t NAME##_bufferSize(trnsolverDnHandle_t h, trnsolver_int_t n, trnsolver_int_t nrhs, T* dA,        \
                                      trnsolver_int_t ldda, trnsolver_int_t* dipiv, T* dB, trnsolver_int_t lddb,    \
                                      T* dX, trnsolver_int_t lddx, void*, size_t* lwork_bytes) {                    \
    return simple_buffer(#NAME "_bufferSize", V.same, h, Shape{n, n, nrhs, false}, dA, ldda, dipiv, dB, lddb, dX,   \
                         lddx, lwork_bytes);                                                                        \
  }                                                                                                                 \
  trnsolverStatus_t NAME(trnsolverDnHandle_t h, trnsolver_int_t n, trnsolver_int_t nrhs, T* dA, trnsolver_int_t ldda, \
                         trnsolver_int_t* dipiv, T* dB, trnsolver_int_t lddb, T* dX, trnsolver_int_t lddx,          \
                         void* dWorkspace, size_t lwork_bytes, trnsolver_int_t* iter, trnsolver_int_t* d_info) {    \
    return simple_run(#NAME, V, h, Shape{n, n, nrhs, false}, dA, ldda, dipiv, dB, lddb, dX, lddx, dWorkspace,      \
                      lwork_bytes, iter, d_info);                                                                   \
  }
#define TRNSOLVER_DEFINE_GELS(NAME, T, V)                                                                          \
  trnsolverStatus_t NAME##_bufferSize(trnsolverDnHandle_t h, trnsolver_int_t m, trnsolver_int_t n,                  \
                                      trnsolver_int_t nrhs, T* dA, trnsolver_int_t ldda, T* dB, trnsolver_int_t lddb, \
                                      T* dX, trnsolver_int_t lddx, void*, size_t* lwork_bytes) {                    \
    return simple_buffer(#NAME "_bufferSize", V.same, h, Shape{m, n, nrhs, true}, dA, ldda, nullptr, dB, lddb, dX,  \
                         lddx, lwork_bytes);                                                                        \
  }                                                                                                                 \
  trnsolverStatus_t NAME(trnsolverDnHandle_t h, trnsolver_int_t m, trnsolver_int_t n, trnsolver_int_t nrhs, T* dA,  \
                         trnsolver_int_t ldda, T* dB, trnsolver_int_t lddb, T* dX, trnsolver_int_t lddx,            \
                         void* dWorkspace, size_t lwork_bytes, trnsolver_int_t* iter, trnsolver_int_t* d_info) {    \
    return simple_run(#NAME, V, h, Shape{m, n, nrhs, true}, dA, ldda, nullptr, dB, lddb, dX, lddx, dWorkspace,     \
                      lwork_bytes, iter, d_info);                                                                   \
  }
// Both routines of a pair.
#define TRNSOLVER_DEFINE_IRS_PAIR(P, T, V)  \
  TRNSOLVER_DEFINE_GESV(trnsolverDn##P##gesv, T, V) \
  TRNSOLVER_DEFINE_GELS(trnsolverDn##P##gels, T, V)
TRNSOLVER_DEFINE_IRS_PAIR(DD, double, kSame)
TRNSOLVER_DEFINE_IRS_PAIR(DS, double, kFp32)
TRNSOLVER_DEFINE_IRS_PAIR(DH, double, kFp16)
TRNSOLVER_DEFINE_IRS_PAIR(DB, double, kBf16)
TRNSOLVER_DEFINE_IRS_PAIR(DX, double, kTf32)
TRNSOLVER_DEFINE_IRS_PAIR(SS, float, kSame)
TRNSOLVER_DEFINE_IRS_PAIR(SH, float, kFp16)
TRNSOLVER_DEFINE_IRS_PAIR(SB, float, kBf16)
TRNSOLVER_DEFINE_IRS_PAIR(SX, float, kTf32)
TRNSOLVER_DEFINE_IRS_PAIR(ZZ, trnDoubleComplex, kSame)
TRNSOLVER_DEFINE_IRS_PAIR(ZC, trnDoubleComplex, kFp32)
TRNSOLVER_DEFINE_IRS_PAIR(ZK, trnDoubleComplex, kFp16)
TRNSOLVER_DEFINE_IRS_PAIR(ZE, trnDoubleComplex, kBf16)
TRNSOLVER_DEFINE_IRS_PAIR(ZY, trnDoubleComplex, kTf32)
TRNSOLVER_DEFINE_IRS_PAIR(CC, trnComplex, kSame)
TRNSOLVER_DEFINE_IRS_PAIR(CK, trnComplex, kFp16)
TRNSOLVER_DEFINE_IRS_PAIR(CE, trnComplex, kBf16)
TRNSOLVER_DEFINE_IRS_PAIR(CY, trnComplex, kTf32)
#undef TRNSOLVER_DEFINE_IRS_PAIR
#undef TRNSOLVER_DEFINE_GELS
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

// Lowest precision -> the factorisation's TensorE input format; false when the pair is not
// supported (main R_64F, R_32F, C_64F, C_32F; lowest the main precision, or a lower one of the
// same domain: R_32F/C_32F, R_16F/C_16F, R_16BF/C_16BF, R_TF32/C_TF32).
bool lu_format(int main, int lowest, trn::solver::IrsOptions& o) {
  const bool cx = main == TRNSOLVER_C_64F || main == TRNSOLVER_C_32F;
  if (!cx && main != TRNSOLVER_R_64F && main != TRNSOLVER_R_32F) return false;
  const int shift = cx ? TRNSOLVER_C_64F - TRNSOLVER_R_64F : 0;  // the C_ values are the R_ ones + 10
  if (lowest == main) {
    o.lu_fp64 = main == TRNSOLVER_R_64F || main == TRNSOLVER_C_64F;
    return true;
  }
  switch (lowest - shift) {
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

// Bytes: the factors (QR: and tau), two m x nrhs vectors of the main precision, the Krylov basis
// (gesv).
std::size_t irs_bytes(const trnsolverDnIRSParams& p, const Shape& s) {
  const bool cx = p.main_prec == TRNSOLVER_C_64F || p.main_prec == TRNSOLVER_C_32F;
  const std::size_t re = p.main_prec == TRNSOLVER_R_32F || p.main_prec == TRNSOLVER_C_32F ? sizeof(float)
                                                                                            : sizeof(double);
  const std::size_t el = cx ? 2 * re : re;
  const bool same = p.lowest_prec == 0 || p.lowest_prec == p.main_prec;
  const std::size_t lu = (same ? re : sizeof(float)) * (cx ? 2 : 1);
  const auto m = static_cast<std::size_t>(s.m), n = static_cast<std::size_t>(s.n);
  const std::size_t krylov = s.qr ? 0 : n * static_cast<std::size_t>(p.max_iters_inner + 1) * el;
  return m * n * lu + (s.qr ? n * lu : 0) + m * static_cast<std::size_t>(s.nrhs) * 2 * el + krylov;
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
               "main precision R_64F, R_32F, C_64F or C_32F; lowest the main one or R_32F, R_16F, R_16BF, R_TF32 (C_ for C_ main)");
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

}  // extern "C"

namespace {

// IRSXgesv(_bufferSize) and IRSXgels(_bufferSize): positions as IRSXgesv's (params 1, infos 2, n 3,
// ...); IRSXgels has m at 3 and every later position one higher.
Status irsx_buffer(const char* fn, trnsolverDnHandle_t h, trnsolverDnIRSParams_t p, const Shape& s,
                   size_t* lwork_bytes) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_irs_params(c, p, false);
  const int o = s.qr ? 1 : 0;
  if (s.qr) c.nonnegative(s.m, 2, "m");
  c.nonnegative(s.n, 2 + o, "n");
  if (s.qr) c.require(s.n <= s.m, 3, "n <= m");
  c.nonnegative(s.nrhs, 3 + o, "nrhs").not_null(lwork_bytes, 4 + o, "lwork_bytes");
  if (!c) return c.status();
  *lwork_bytes = irs_bytes(*p, s);
  return TRNSOLVER_STATUS_SUCCESS;
}

trn::solver::IrsOptions irsx_options(const trnsolverDnIRSParams& p) {
  trn::solver::IrsOptions o;
  lu_format(p.main_prec, p.lowest_prec == 0 ? p.main_prec : p.lowest_prec, o);
  using R = trn::solver::IrsRefinement;
  switch (p.refinement) {
    case TRNSOLVER_IRS_REFINE_NONE: o.refinement = R::none; break;
    case TRNSOLVER_IRS_REFINE_CLASSICAL_GMRES: o.refinement = R::classical_gmres; break;
    case TRNSOLVER_IRS_REFINE_GMRES: o.refinement = R::gmres; break;
    case TRNSOLVER_IRS_REFINE_GMRES_NOPCOND: o.refinement = R::gmres_nopcond; break;
    default: o.refinement = R::classical; break;
  }
  o.max_iters = p.max_iters;
  o.max_iters_inner = p.max_iters_inner;
  o.tol = p.tol;
  o.tol_inner = p.tol_inner;
  o.fallback = p.fallback;
  return o;
}

// One solve of the main precision's C++ type T.
template <class T>
trn::solver::IrsResult irsx_solve(trnsolverDnHandle_t h, const trn::solver::IrsOptions& o, const Shape& s, void* dA,
                                  int ldda, void* dB, int lddb, void* dX, int lddx, trn::solver::CallReport* report) {
  if (s.qr)
    return trn::solver::irs_gels<T>(h->settings, o, s.m, s.n, s.nrhs, static_cast<T*>(dA), ldda,
                                    static_cast<const T*>(dB), lddb, static_cast<T*>(dX), lddx, report);
  return trn::solver::irs_gesv<T>(h->settings, o, s.n, s.nrhs, static_cast<T*>(dA), ldda, nullptr,
                                  static_cast<const T*>(dB), lddb, static_cast<T*>(dX), lddx, report);
}

Status irsx_run(const char* fn, trnsolverDnHandle_t h, trnsolverDnIRSParams_t p, trnsolverDnIRSInfos_t inf,
                const Shape& s, void* dA, int ldda, void* dB, int lddb, void* dX, int lddx, void* dWorkspace,
                size_t lwork_bytes, int* niters, int* d_info) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  check_irs_params(c, p, true);
  c.require_or(g_irs_infos.contains(inf), TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED,
               "TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED", "infos was not created");
  if (c && s.qr)
    c.require_or(!gmres_family(p->refinement), TRNSOLVER_STATUS_IRS_NOT_SUPPORTED, "TRNSOLVER_STATUS_IRS_NOT_SUPPORTED",
                 "IRSXgels refines by CLASSICAL (or NONE) only");
  const bool cx = c && (p->main_prec == TRNSOLVER_C_64F || p->main_prec == TRNSOLVER_C_32F);
  if (c)
    c.require_or(!gmres_family(p->refinement) || (s.nrhs <= 1 && !cx),
                 TRNSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES,
                 "TRNSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES", "the GMRES solvers take nrhs = 1, real");
  const int o = s.qr ? 1 : 0;
  if (s.qr) c.nonnegative(s.m, 3, "m");
  c.nonnegative(s.n, 3 + o, "n");
  if (s.qr) c.require(s.n <= s.m, 4, "n <= m");
  c.nonnegative(s.nrhs, 4 + o, "nrhs").require(s.n == 0 || dA != nullptr, 5 + o, "dA")
      .leading_dim(ldda, s.m, 6 + o, "ldda").require(s.n == 0 || s.nrhs == 0 || dB != nullptr, 7 + o, "dB")
      .leading_dim(lddb, s.m, 8 + o, "lddb").require(s.n == 0 || s.nrhs == 0 || dX != nullptr, 9 + o, "dX")
      .leading_dim(lddx, s.n, 10 + o, "lddx");
  if (c) {
    c.require(lwork_bytes == 0 || dWorkspace != nullptr, 11 + o, "dWorkspace")
        .require(lwork_bytes >= irs_bytes(*p, s), 12 + o, "lwork_bytes");
  }
  c.not_null(niters, 13 + o, "niters").not_null(d_info, 14 + o, "d_info");
  if (!c) {
    if (d_info != nullptr && c.failed_position() > 0) *d_info = -c.failed_position();
    return c.status();
  }
  return trn::cshim::guarded(g_log, fn, kStatusMap, [&] {
    const trn::solver::IrsOptions o = irsx_options(*p);
    trn::solver::CallReport report = profile_report();
    trn::solver::IrsResult r;
    const bool f32 = p->main_prec == TRNSOLVER_R_32F || p->main_prec == TRNSOLVER_C_32F;
    switch (p->main_prec) {
      case TRNSOLVER_R_32F: r = irsx_solve<float>(h, o, s, dA, ldda, dB, lddb, dX, lddx, &report); break;
      case TRNSOLVER_C_64F:
        r = irsx_solve<std::complex<double>>(h, o, s, dA, ldda, dB, lddb, dX, lddx, &report);
        break;
      case TRNSOLVER_C_32F: r = irsx_solve<std::complex<float>>(h, o, s, dA, ldda, dB, lddb, dX, lddx, &report); break;
      default: r = irsx_solve<double>(h, o, s, dA, ldda, dB, lddb, dX, lddx, &report); break;
    }
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

}  // namespace

extern "C" {

trnsolverStatus_t trnsolverDnIRSXgesv_bufferSize(trnsolverDnHandle_t h, trnsolverDnIRSParams_t p, trnsolver_int_t n,
                                                 trnsolver_int_t nrhs, size_t* lwork_bytes) {
  return irsx_buffer("trnsolverDnIRSXgesv_bufferSize", h, p, Shape{n, n, nrhs, false}, lwork_bytes);
}

trnsolverStatus_t trnsolverDnIRSXgesv(trnsolverDnHandle_t h, trnsolverDnIRSParams_t p, trnsolverDnIRSInfos_t inf,
                                      trnsolver_int_t n, trnsolver_int_t nrhs, void* dA, trnsolver_int_t ldda,
                                      void* dB, trnsolver_int_t lddb, void* dX, trnsolver_int_t lddx,
                                      void* dWorkspace, size_t lwork_bytes, trnsolver_int_t* niters,
                                      trnsolver_int_t* d_info) {
  return irsx_run("trnsolverDnIRSXgesv", h, p, inf, Shape{n, n, nrhs, false}, dA, ldda, dB, lddb, dX, lddx,
                  dWorkspace, lwork_bytes, niters, d_info);
}

trnsolverStatus_t trnsolverDnIRSXgels_bufferSize(trnsolverDnHandle_t h, trnsolverDnIRSParams_t p, trnsolver_int_t m,
                                                 trnsolver_int_t n, trnsolver_int_t nrhs, size_t* lwork_bytes) {
  return irsx_buffer("trnsolverDnIRSXgels_bufferSize", h, p, Shape{m, n, nrhs, true}, lwork_bytes);
}

trnsolverStatus_t trnsolverDnIRSXgels(trnsolverDnHandle_t h, trnsolverDnIRSParams_t p, trnsolverDnIRSInfos_t inf,
                                      trnsolver_int_t m, trnsolver_int_t n, trnsolver_int_t nrhs, void* dA,
                                      trnsolver_int_t ldda, void* dB, trnsolver_int_t lddb, void* dX,
                                      trnsolver_int_t lddx, void* dWorkspace, size_t lwork_bytes,
                                      trnsolver_int_t* niters, trnsolver_int_t* d_info) {
  return irsx_run("trnsolverDnIRSXgels", h, p, inf, Shape{m, n, nrhs, true}, dA, ldda, dB, lddb, dX, lddx,
                  dWorkspace, lwork_bytes, niters, d_info);
}

}  // extern "C"
