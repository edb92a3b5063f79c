// trnsolver.h: the C shim, written with the C-shim kit (core/include/trn/core/c_shim.hpp). Each
// entry point checks the handle, checks its arguments in cuSOLVER order (the first illegal one is
// logged with its 1-based position and reported as INVALID_VALUE, *info = -position when info is
// writable, nothing else written), then runs the C++ API inside `guarded`.
//
// This file: the handle, its settings, stream, deterministic mode, the emulation surface and logger,
// and the X API params object. The routines live beside it: capi_jacobi.cpp (syevj/sygvj/gesvdj),
// capi_factor.cpp (Cholesky, LU, their X API forms), capi_irs.cpp (IRS gesv), capi_qr.cpp (QR).
#include "capi_internal.hpp"
#include "trn/solver/qr.hpp"

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals

namespace {

// The kit's emulation surface (SetTarget ... GetLastErrorParameter, the logger family) over trnsolver handles.
constexpr trn::cshim::SurfaceCodes<Status> kSurfaceCodes{TRNSOLVER_STATUS_SUCCESS, TRNSOLVER_STATUS_NOT_INITIALIZED,
                                                     TRNSOLVER_STATUS_INVALID_VALUE};
using Surface =
    trn::cshim::ContextBinding<trnsolverDnContext, Status, &g_handles, &g_log, &kStatusMap, &kSurfaceCodes>;

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

// trnsci extension: the QR plan's panel width (Settings::qr_block_size; trn::solver::qr_panel_width
// resolves it against TRNSOLVER_QR_NB and the rule). nb: argument 1, 0 (the rule) .. kQrMaxPanelWidth.
trnsolverStatus_t trnsolverDnSetQrBlockSize(trnsolverDnHandle_t h, int nb) {
  if (!g_handles.contains(h)) return TRNSOLVER_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsolverDnSetQrBlockSize", TRNSOLVER_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!c.require(nb >= 0 && nb <= trn::solver::kQrMaxPanelWidth, 1, "nb")) return c.status();
  h->settings.qr_block_size = nb;
  return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnGetQrBlockSize(trnsolverDnHandle_t h, int* nb) {
  return Surface::get(h, "trnsolverDnGetQrBlockSize", nb, "nb",
                      [](const trnsolverDnContext& c) { return static_cast<int>(c.settings.qr_block_size); });
}

trnsolverStatus_t trnsolverDnSetEmulatedCores(trnsolverDnHandle_t h, int cores) { return trnsolverDnSetNumCores(h, cores); }
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
}  // extern "C"
