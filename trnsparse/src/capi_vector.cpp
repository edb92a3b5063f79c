// trnsparse C shim: the sparse-vector operations (Axpby, Gather, Scatter, Rot, SpVV) over the
// generic descriptors, every value type (trn/sparse/generic.hpp: host steps, moves for Gather /
// Scatter). The sparse vector's indices are checked before anything is written.
#include "capi_internal.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

// vecX (a sparse vector) and vecY (a dense vector of X's size and value type), at their positions.
Check& pair_checks(Check& c, const trnsparseSpVecDescr* x, int x_pos, bool x_written, const trnsparseDnVecDescr* y,
                   int y_pos, bool y_written) {
  c.require(g_spvecs.contains(x) && (!x_written || !x->is_const), x_pos, "vecX");
  c.require(g_dnvecs.contains(y) && (!y_written || !y->is_const), y_pos, "vecY");
  if (!c) return c;
  return c.require(y->value_type == x->value_type && y->size == x->v.size && (y->values != nullptr || y->size == 0),
                   y_pos, "vecY");
}

void store_scalar(void* p, int vt, sp::Scalar s) {
  switch (vt) {
    case TRN_R_64F: *static_cast<double*>(p) = s.real(); break;
    case TRN_C_32F:
      static_cast<float*>(p)[0] = static_cast<float>(s.real());
      static_cast<float*>(p)[1] = static_cast<float>(s.imag());
      break;
    case TRN_C_64F:
      static_cast<double*>(p)[0] = s.real();
      static_cast<double*>(p)[1] = s.imag();
      break;
    default: *static_cast<float*>(p) = static_cast<float>(s.real());
  }
}

// SpVV argument chain shared by _bufferSize and the call (positions: opX 1, vecX 2, vecY 3,
// result 4, computeType 5).
Check& spvv_checks(Check& c, int opX, const trnsparseSpVecDescr* x, const trnsparseDnVecDescr* y, const void* result,
                   int ct) {
  c.one_of(opX, {TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE}, 1, "opX");
  pair_checks(c, x, 2, false, y, 3, false).not_null(result, 4, "result");
  c.one_of(ct, {TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F}, 5, "computeType");
  if (!c) return c;
  return c.require_or(ct == x->value_type, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
                      "SpVV: computeType must be the vectors' value type");
}

const std::initializer_list<std::pair<const char*, int>> kVecX2{{"indices", 2}, {"nnz", 2}, {"values", 2}};

}  // namespace

extern "C" {

trnsparseStatus_t trnsparseAxpby(trnsparseHandle_t h, const void* alpha, trnsparseConstSpVecDescr_t x, const void* beta,
                                 trnsparseDnVecDescr_t y) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseAxpby", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.not_null(alpha, 1, "alpha").not_null(beta, 3, "beta");
  if (!pair_checks(c, x, 2, false, y, 4, true)) return c.status();
  return run(h, "trnsparseAxpby", kVecX2, [&] {
    sp::CallReport r;
    sp::axpby(h->settings, load_scalar(alpha, x->value_type), x->v, load_scalar(beta, x->value_type), y->values, &r);
    store_profile(h, r);
  });
}

trnsparseStatus_t trnsparseGather(trnsparseHandle_t h, trnsparseConstDnVecDescr_t y, trnsparseSpVecDescr_t x) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseGather", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!pair_checks(c, x, 2, true, y, 1, false)) return c.status();
  return run(h, "trnsparseGather", kVecX2, [&] {
    sp::CallReport r;
    sp::gather(h->settings, y->values, x->v, &r);
    store_profile(h, r);
  });
}

trnsparseStatus_t trnsparseScatter(trnsparseHandle_t h, trnsparseConstSpVecDescr_t x, trnsparseDnVecDescr_t y) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseScatter", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!pair_checks(c, x, 1, false, y, 2, true)) return c.status();
  return run(h, "trnsparseScatter", {{"indices", 1}, {"nnz", 1}, {"values", 1}}, [&] {
    sp::CallReport r;
    sp::scatter(h->settings, x->v, y->values, &r);
    store_profile(h, r);
  });
}

trnsparseStatus_t trnsparseRot(trnsparseHandle_t h, const void* c_coeff, const void* s_coeff, trnsparseSpVecDescr_t x,
                               trnsparseDnVecDescr_t y) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseRot", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.not_null(c_coeff, 1, "c_coeff").not_null(s_coeff, 2, "s_coeff");
  if (!pair_checks(c, x, 3, true, y, 4, true)) return c.status();
  return run(h, "trnsparseRot", {{"indices", 3}, {"nnz", 3}, {"values", 3}}, [&] {
    sp::CallReport r;
    sp::rot(h->settings, load_scalar(c_coeff, x->value_type), load_scalar(s_coeff, x->value_type), x->v, y->values, &r);
    store_profile(h, r);
  });
}

trnsparseStatus_t trnsparseSpVV_bufferSize(trnsparseHandle_t h, trnsparseOperation_t opX, trnsparseConstSpVecDescr_t x,
                                           trnsparseConstDnVecDescr_t y, const void* result, trnDataType_t ct,
                                           size_t* bufferSize) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpVV_bufferSize", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spvv_checks(c, enum_value(opX), x, y, result, enum_value(ct)).not_null(bufferSize, 6, "bufferSize"))
    return c.status();
  *bufferSize = kBufferBytes;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpVV(trnsparseHandle_t h, trnsparseOperation_t opX, trnsparseConstSpVecDescr_t x,
                                trnsparseConstDnVecDescr_t y, void* result, trnDataType_t ct, void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpVV", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spvv_checks(c, enum_value(opX), x, y, result, enum_value(ct))) return c.status();
  return run(h, "trnsparseSpVV", kVecX2, [&] {
    sp::CallReport r;
    const sp::Scalar v = sp::spvv(h->settings, gop_of(enum_value(opX)), x->v, y->values, &r);
    store_scalar(result, x->value_type, v);
    store_profile(h, r);
  });
}

}  // extern "C"
