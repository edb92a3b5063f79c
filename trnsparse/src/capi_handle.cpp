// trnsparse C shim: the handle, status names, stream and pointer mode, strict mode, logging and the
// kit's emulation surface.
#include "capi_internal.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

// ---- handle, errors, streams -------------------------------------------------------------------

extern "C" {

trnsparseStatus_t trnsparseCreate(trnsparseHandle_t* handle) { return Surface::create(handle); }

trnsparseStatus_t trnsparseDestroy(trnsparseHandle_t handle) { return Surface::destroy(handle); }

trnsparseStatus_t trnsparseGetVersion(trnsparseHandle_t handle, int* version) {
  return Surface::get(handle, "trnsparseGetVersion", version, "version",
                      [](const trnsparseContext&) { return TRNSPARSE_VERSION; });
}

const char* trnsparseGetErrorName(trnsparseStatus_t status) {
  switch (enum_value(status)) {
    case 0: return "TRNSPARSE_STATUS_SUCCESS";
    case 1: return "TRNSPARSE_STATUS_NOT_INITIALIZED";
    case 2: return "TRNSPARSE_STATUS_ALLOC_FAILED";
    case 3: return "TRNSPARSE_STATUS_INVALID_VALUE";
    case 4: return "TRNSPARSE_STATUS_ARCH_MISMATCH";
    case 5: return "TRNSPARSE_STATUS_MAPPING_ERROR";
    case 6: return "TRNSPARSE_STATUS_EXECUTION_FAILED";
    case 7: return "TRNSPARSE_STATUS_INTERNAL_ERROR";
    case 8: return "TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case 9: return "TRNSPARSE_STATUS_ZERO_PIVOT";
    case 10: return "TRNSPARSE_STATUS_NOT_SUPPORTED";
    case 11: return "TRNSPARSE_STATUS_INSUFFICIENT_RESOURCES";
    default: return "TRNSPARSE_STATUS_UNKNOWN";
  }
}

const char* trnsparseGetErrorString(trnsparseStatus_t status) {
  switch (enum_value(status)) {
    case 0: return "success";
    case 1: return "handle not initialized (NULL, destroyed or foreign)";
    case 2: return "host memory allocation failed";
    case 3: return "invalid value for an argument or index array";
    case 4: return "architecture mismatch (never returned)";
    case 5: return "mapping error (never returned)";
    case 6: return "execution failed on the emulated NeuronCore";
    case 7: return "internal error";
    case 8: return "matrix type not supported";
    case 9: return "zero pivot";
    case 10: return "operation or data type not supported";
    case 11: return "insufficient resources";
    default: return "unknown status";
  }
}

trnsparseStatus_t trnsparseSetStream(trnsparseHandle_t handle, trnStream_t streamId) {
  return Surface::set(handle, [&](trnsparseContext& c) { c.stream = streamId; });
}

trnsparseStatus_t trnsparseGetStream(trnsparseHandle_t handle, trnStream_t* streamId) {
  return Surface::get(handle, "trnsparseGetStream", streamId, "streamId", [](const trnsparseContext& c) { return c.stream; });
}

trnsparseStatus_t trnsparseGetPointerMode(trnsparseHandle_t handle, trnsparsePointerMode_t* mode) {
  return Surface::get(handle, "trnsparseGetPointerMode", mode, "mode",
                      [](const trnsparseContext& c) { return static_cast<trnsparsePointerMode_t>(c.pointer_mode); });
}

trnsparseStatus_t trnsparseSetPointerMode(trnsparseHandle_t handle, trnsparsePointerMode_t mode) {
  const int v = enum_value(mode);
  // host memory either way: both modes behave the same
  return Surface::set_one_of(handle, "trnsparseSetPointerMode", v, {0, 1}, "mode",
                             [&](trnsparseContext& c) { c.pointer_mode = v; });
}


trnsparseStatus_t trnsparseSetStrictMode(trnsparseHandle_t handle, int enable) {
  return Surface::set(handle, [&](trnsparseContext& c) { c.strict = enable != 0; });
}

trnsparseStatus_t trnsparseGetStrictMode(trnsparseHandle_t handle, int* enable) {
  return Surface::get(handle, "trnsparseGetStrictMode", enable, "enable",
                      [](const trnsparseContext& c) { return c.strict ? 1 : 0; });
}

// The Krylov solvers' vector storage (extension, issue #28 s10/spgaps): TRN_R_32F (the operator's
// type, the default) or TRN_R_16BF (bf16 vectors, R_32F CSR operators; stochastic rounding as
// SetStochasticRounding sets it). Anything else: INVALID_VALUE at 1 (the setters' position), the handle unchanged.
trnsparseStatus_t trnsparseSetKrylovVectorType(trnsparseHandle_t handle, trnDataType_t vectorType) {
  const int v = enum_value(vectorType);
  return Surface::set_one_of(handle, "trnsparseSetKrylovVectorType", v, {TRN_R_32F, TRN_R_16BF}, "vectorType",
                             [&](trnsparseContext& c) { c.krylov_vector_type = v; });
}

trnsparseStatus_t trnsparseGetKrylovVectorType(trnsparseHandle_t handle, trnDataType_t* vectorType) {
  return Surface::get(handle, "trnsparseGetKrylovVectorType", vectorType, "vectorType",
                      [](const trnsparseContext& c) { return static_cast<trnDataType_t>(c.krylov_vector_type); });
}

// ---- logging: the cuSPARSE family on the kit's logger ---------------------------------------------

TRN_CSHIM_LOGGER_FILE_ENTRY_POINTS(trnsparse, trnsparseStatus_t, g_log, TRNSPARSE_STATUS_SUCCESS, TRNSPARSE_STATUS_INVALID_VALUE)

TRN_CSHIM_EMULATION_ENTRY_POINTS(trnsparse, trnsparse, Surface)

}  // extern "C"
