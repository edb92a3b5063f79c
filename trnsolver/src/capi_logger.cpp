// trnsolver.h, the cuSOLVER handle extras: the cusolverDnLogger* family (on the kit's logger, the
// same one trnsolverLoggerConfigure drives), Set/GetMathMode, Set/GetEmulationStrategy and
// GetProperty. The math mode and the emulation strategy are recorded per handle and returned; no
// value changes a result (docs/trnsolver.md "Logger, math mode and properties"). Conventions: capi.cpp.
#include "capi_internal.hpp"

using namespace trn::solver::capi;  // NOLINT: the shim's shared internals

namespace {

constexpr trn::cshim::SurfaceCodes<Status> kCodes{TRNSOLVER_STATUS_SUCCESS, TRNSOLVER_STATUS_NOT_INITIALIZED,
                                                  TRNSOLVER_STATUS_INVALID_VALUE};
using Handles = trn::cshim::ContextBinding<trnsolverDnContext, Status, &g_handles, &g_log, &kStatusMap, &kCodes>;

}  // namespace

extern "C" {

trnsolverStatus_t trnsolverDnSetMathMode(trnsolverDnHandle_t h, trnsolverMathMode_t mode) {
  const int v = enum_value(mode);
  return Handles::set_one_of(h, "trnsolverDnSetMathMode", v,
                             {TRNSOLVER_DEFAULT_MATH, TRNSOLVER_FP32_EMULATED_BF16X9_MATH}, "mode",
                             [&](trnsolverDnContext& c) { c.math_mode = v; });
}
trnsolverStatus_t trnsolverDnGetMathMode(trnsolverDnHandle_t h, trnsolverMathMode_t* mode) {
  return Handles::get(h, "trnsolverDnGetMathMode", mode, "mode",
                      [](const trnsolverDnContext& c) { return static_cast<trnsolverMathMode_t>(c.math_mode); });
}
trnsolverStatus_t trnsolverDnSetEmulationStrategy(trnsolverDnHandle_t h, trnEmulationStrategy_t strategy) {
  const int v = enum_value(strategy);
  return Handles::set_one_of(
      h, "trnsolverDnSetEmulationStrategy", v,
      {TRN_EMULATION_STRATEGY_DEFAULT, TRN_EMULATION_STRATEGY_PERFORMANT, TRN_EMULATION_STRATEGY_EAGER}, "strategy",
      [&](trnsolverDnContext& c) { c.emulation_strategy = v; });
}
trnsolverStatus_t trnsolverDnGetEmulationStrategy(trnsolverDnHandle_t h, trnEmulationStrategy_t* strategy) {
  return Handles::get(h, "trnsolverDnGetEmulationStrategy", strategy, "strategy", [](const trnsolverDnContext& c) {
    return static_cast<trnEmulationStrategy_t>(c.emulation_strategy);
  });
}

trnsolverStatus_t trnsolverGetProperty(libraryPropertyType type, int* value) {
  const int t = enum_value(type);
  Check c(g_log, "trnsolverGetProperty", TRNSOLVER_STATUS_INVALID_VALUE);
  if (!c.one_of(t, {MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL}, 1, "type").not_null(value, 2, "value"))
    return c.status();
  *value = t == MAJOR_VERSION ? TRNSOLVER_VER_MAJOR : t == MINOR_VERSION ? TRNSOLVER_VER_MINOR : TRNSOLVER_VER_PATCH;
  return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnLoggerSetCallback(trnsolverDnLoggerCallback_t callback) {
  g_log.set_level_callback(callback);
  return TRNSOLVER_STATUS_SUCCESS;
}
TRN_CSHIM_LOGGER_FILE_ENTRY_POINTS(trnsolverDn, trnsolverStatus_t, g_log, TRNSOLVER_STATUS_SUCCESS,
                                   TRNSOLVER_STATUS_INVALID_VALUE)

}  // extern "C"
