// trnsparse C shim: SpSV and SpSM (sparse triangular solves: bufferSize / analysis / solve /
// updateMatrix) over CSR and COO in every generic value type (trn/sparse/triangular.hpp). SpSV is
// SpSM with one column: both share one argument chain and one descriptor type.
#include <string>

#include "capi_internal.hpp"
#include "trn/sparse/triangular.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

// What analysis leaves for solve: the level-scheduled triangle and the attributes it was built for.
struct TriangularDescr {
  sp::TriangularAnalysis t;
  bool analyzed = false;
  int fill = 0, diag = 0, format = 0;
  const void* values = nullptr;    // updateMatrix UPDATE_GENERAL (else matA's values at solve)
  const void* diagonal = nullptr;  // updateMatrix UPDATE_DIAGONAL
};
struct trnsparseSpSVDescr : TriangularDescr {};
struct trnsparseSpSMDescr : TriangularDescr {};

namespace {

trn::cshim::HandleRegistry<trnsparseSpSVDescr> g_spsvs;
trn::cshim::HandleRegistry<trnsparseSpSMDescr> g_spsms;

// A dense operand (DnVec or DnMat) as the solve sees it.
struct Operand {
  bool registered = false, is_const = false;
  int value_type = 0;
  sp::DenseAny d;
};
Operand operand(const trnsparseDnVecDescr* v) {
  if (!g_dnvecs.contains(v)) return {};
  return {true, v->is_const, v->value_type,
          {v->values, generic_value(v->value_type), v->size, 1, std::max<std::int64_t>(v->size, 1), sp::Layout::col_major}};
}
Operand operand(const trnsparseDnMatDescr* m) {
  if (!g_dnmats.contains(m)) return {};
  return {true, m->is_const, m->value_type, dense_any(m)};
}

// Argument positions (1-based, the handle not counted): SpSV has no opB.
struct Positions {
  int opA, opB, alpha, A, B, C, ct, alg, descr, buffer;
};
constexpr Positions kSpSV{1, 0, 2, 3, 4, 5, 6, 7, 8, 9};
constexpr Positions kSpSM{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

struct Call {
  int opA = 0, opB = 0;
  const void* alpha = nullptr;
  const trnsparseSpMatDescr* A = nullptr;
  Operand B, C;
  int ct = 0, alg = 0;
  bool descr_ok = false;
};

// Length of matA's values array as the analysis indexes it (SELL: every slot, padding included).
std::int64_t stored_slots(const trnsparseSpMatDescr* A) {
  return A->format == TRNSPARSE_FORMAT_SLICED_ELLPACK ? A->sell.values_size : generic_of(A).nnz;
}

// The chain shared by bufferSize, analysis and solve.
// Strict mode (trnsparseSetStrictMode): CONJUGATE_TRANSPOSE rejected, as by every other operation.
Check& triangular_checks(Check& c, const Call& a, const Positions& p, bool strict) {
  c.one_of(a.opA, {0, 1, 2}, p.opA, "opA").require(!strict || a.opA != 2, p.opA, "opA");
  if (p.opB != 0) c.one_of(a.opB, {0, 1, 2}, p.opB, "opB").require(!strict || a.opB != 2, p.opB, "opB");
  c.not_null(a.alpha, p.alpha, "alpha").require(g_spmats.contains(a.A), p.A, "matA");
  c.require(a.B.registered, p.B, p.opB != 0 ? "matB" : "vecX").require(a.C.registered && !a.C.is_const, p.C, p.opB != 0 ? "matC" : "vecY");
  c.one_of(a.ct, {TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F}, p.ct, "computeType").one_of(a.alg, {0}, p.alg, "alg");
  c.require(a.descr_ok, p.descr, p.opB != 0 ? "spsmDescr" : "spsvDescr");
  if (!c) return c;
  const int vt = a.A->value_type;
  c.require_or(a.A->format == TRNSPARSE_FORMAT_CSR || a.A->format == TRNSPARSE_FORMAT_COO ||
                   a.A->format == TRNSPARSE_FORMAT_SLICED_ELLPACK,
               TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "triangular solves take matA in CSR, COO or SELL (as cuSPARSE)");
  c.require_or(a.A->batch_count == 1, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "triangular solves of a strided batch");
  c.require_or(is_generic_value_type(vt) && a.B.value_type == vt && a.C.value_type == vt && a.ct == vt,
               TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "triangular solves: matA, the dense operands and computeType of one value type (R_32F, R_64F, C_32F, C_64F)");
  const std::int64_t n = sp_rows(a.A), m = a.C.d.cols;
  c.require(sp_cols(a.A) == n, p.A, "matA");
  c.require(a.opB == 0 ? (a.B.d.rows == n && a.B.d.cols == m) : (a.B.d.cols == n && a.B.d.rows == m), p.B,
            p.opB != 0 ? "matB" : "vecX");
  return c.require(a.C.d.rows == n, p.C, p.opB != 0 ? "matC" : "vecY");
}

trnsparseStatus_t buffer_size(trnsparseHandle_t h, const char* fn, const Call& a, const Positions& p, size_t* size) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  triangular_checks(c, a, p, h->strict).not_null(size, p.buffer, "bufferSize");
  if (!check_sparse(c, a.A, p.A, "matA")) return c.status();
  *size = kBufferBytes;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t analysis(trnsparseHandle_t h, const char* fn, const Call& a, const Positions& p, TriangularDescr* d) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!check_sparse(triangular_checks(c, a, p, h->strict), a.A, p.A, "matA")) return c.status();
  return run(h, fn, {{"matA", p.A}}, [&] {
    TriangularDescr fresh;
    const bool lower = a.A->fill == TRNSPARSE_FILL_MODE_LOWER, unit = a.A->diag == TRNSPARSE_DIAG_TYPE_UNIT;
    fresh.t = a.A->format == TRNSPARSE_FORMAT_SLICED_ELLPACK
                  ? sp::analyze_triangular(a.A->sell, generic_value(a.A->value_type), lower, unit, gop_of(a.opA))
                  : sp::analyze_triangular(generic_of(a.A), lower, unit, gop_of(a.opA));
    fresh.analyzed = true;
    fresh.fill = a.A->fill;
    fresh.diag = a.A->diag;
    fresh.format = a.A->format;
    static_cast<TriangularDescr&>(*d) = std::move(fresh);
  });
}

trnsparseStatus_t solve(trnsparseHandle_t h, const char* fn, const Call& a, const Positions& p, TriangularDescr* d) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!triangular_checks(c, a, p, h->strict)) return c.status();
  // The analysis must be of this matrix's shape, op and attributes (its pattern is not re-read).
  const sp::TriangularAnalysis& t = d->t;
  c.require(d->analyzed && t.n == sp_rows(a.A) && t.nnz == stored_slots(a.A) && t.value == generic_value(a.A->value_type) &&
                t.op == gop_of(a.opA) && d->fill == a.A->fill && d->diag == a.A->diag && d->format == a.A->format,
            p.descr, p.opB != 0 ? "spsmDescr" : "spsvDescr");
  if (!c) return c.status();
  const void* values = d->values != nullptr ? d->values : a.A->format == TRNSPARSE_FORMAT_SLICED_ELLPACK ? a.A->sell.values
                                                                                                        : generic_of(a.A).values;
  const std::int64_t row = sp::first_zero_pivot(t, values, d->diagonal);
  if (!c.require_or(row < 0, TRNSPARSE_STATUS_ZERO_PIVOT, "TRNSPARSE_STATUS_ZERO_PIVOT",
                    "zero pivot in row " + std::to_string(row) + " of op(A) (a non-unit diagonal not stored or 0)"))
    return c.status();
  return run(h, fn, {{"matA", p.A}, {"matB", p.B}, {"matC", p.C}}, [&] {
    sp::CallReport r;
    sp::triangular_solve(h->settings, t, values, d->diagonal, load_scalar(a.alpha, a.A->value_type), gop_of(a.opB), a.B.d,
                         a.C.d, &r);
    store_profile(h, r);
  });
}

trnsparseStatus_t update_matrix(trnsparseHandle_t h, const char* fn, TriangularDescr* d, bool registered, void* v, int part) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.require(registered && d->analyzed, 1, "descr").not_null(v, 2, "newValues").one_of(part, {0, 1}, 3, "updatePart");
  if (!c) return c.status();
  if (part == 0) {  // UPDATE_GENERAL: all of A's values (the diagonal with them)
    d->values = v;
    d->diagonal = nullptr;
  } else {
    d->diagonal = v;
  }
  return TRNSPARSE_STATUS_SUCCESS;
}

// Enums arrive as the caller's ints (enum_value at the entry point: never copied as an enum).
Call spsv_call(int opA, const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t x, trnsparseDnVecDescr_t y,
               int ct, int alg, trnsparseSpSVDescr_t d) {
  return {opA, 0, alpha, A, operand(x), operand(y), ct, alg, g_spsvs.contains(d)};
}
Call spsm_call(int opA, int opB, const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstDnMatDescr_t B,
               trnsparseDnMatDescr_t C, int ct, int alg, trnsparseSpSMDescr_t d) {
  return {opA, opB, alpha, A, operand(B), operand(C), ct, alg, g_spsms.contains(d)};
}

}  // namespace

extern "C" {

trnsparseStatus_t trnsparseSpSV_createDescr(trnsparseSpSVDescr_t* descr) {
  return trn::cshim::create_registered(g_spsvs, descr, TRNSPARSE_STATUS_INVALID_VALUE, TRNSPARSE_STATUS_ALLOC_FAILED,
                                       TRNSPARSE_STATUS_SUCCESS);
}
trnsparseStatus_t trnsparseSpSV_destroyDescr(trnsparseSpSVDescr_t descr) {
  return g_spsvs.destroy(descr) ? TRNSPARSE_STATUS_SUCCESS : TRNSPARSE_STATUS_INVALID_VALUE;
}
trnsparseStatus_t trnsparseSpSV_bufferSize(trnsparseHandle_t h, trnsparseOperation_t opA, const void* alpha,
                                           trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t x,
                                           trnsparseDnVecDescr_t y, trnDataType_t ct, trnsparseSpSVAlg_t alg,
                                           trnsparseSpSVDescr_t d, size_t* bufferSize) {
  return buffer_size(h, "trnsparseSpSV_bufferSize", spsv_call(enum_value(opA), alpha, A, x, y, enum_value(ct), enum_value(alg), d), kSpSV,
                                         bufferSize);
}
trnsparseStatus_t trnsparseSpSV_analysis(trnsparseHandle_t h, trnsparseOperation_t opA, const void* alpha,
                                         trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t x, trnsparseDnVecDescr_t y,
                                         trnDataType_t ct, trnsparseSpSVAlg_t alg, trnsparseSpSVDescr_t d,
                                         void* externalBuffer) {
  (void)externalBuffer;
  return analysis(h, "trnsparseSpSV_analysis", spsv_call(enum_value(opA), alpha, A, x, y, enum_value(ct), enum_value(alg), d), kSpSV, d);
}
trnsparseStatus_t trnsparseSpSV_solve(trnsparseHandle_t h, trnsparseOperation_t opA, const void* alpha,
                                      trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t x, trnsparseDnVecDescr_t y,
                                      trnDataType_t ct, trnsparseSpSVAlg_t alg, trnsparseSpSVDescr_t d) {
  return solve(h, "trnsparseSpSV_solve", spsv_call(enum_value(opA), alpha, A, x, y, enum_value(ct), enum_value(alg), d), kSpSV, d);
}
trnsparseStatus_t trnsparseSpSV_updateMatrix(trnsparseHandle_t h, trnsparseSpSVDescr_t d, void* newValues,
                                             trnsparseSpSVUpdate_t updatePart) {
  return update_matrix(h, "trnsparseSpSV_updateMatrix", d, g_spsvs.contains(d), newValues, enum_value(updatePart));
}

trnsparseStatus_t trnsparseSpSM_createDescr(trnsparseSpSMDescr_t* descr) {
  return trn::cshim::create_registered(g_spsms, descr, TRNSPARSE_STATUS_INVALID_VALUE, TRNSPARSE_STATUS_ALLOC_FAILED,
                                       TRNSPARSE_STATUS_SUCCESS);
}
trnsparseStatus_t trnsparseSpSM_destroyDescr(trnsparseSpSMDescr_t descr) {
  return g_spsms.destroy(descr) ? TRNSPARSE_STATUS_SUCCESS : TRNSPARSE_STATUS_INVALID_VALUE;
}
trnsparseStatus_t trnsparseSpSM_bufferSize(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                           const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstDnMatDescr_t B,
                                           trnsparseDnMatDescr_t C, trnDataType_t ct, trnsparseSpSMAlg_t alg,
                                           trnsparseSpSMDescr_t d, size_t* bufferSize) {
  return buffer_size(h, "trnsparseSpSM_bufferSize", spsm_call(enum_value(opA), enum_value(opB), alpha, A, B, C, enum_value(ct), enum_value(alg), d), kSpSM,
                                         bufferSize);
}
trnsparseStatus_t trnsparseSpSM_analysis(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                         const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstDnMatDescr_t B,
                                         trnsparseDnMatDescr_t C, trnDataType_t ct, trnsparseSpSMAlg_t alg,
                                         trnsparseSpSMDescr_t d, void* externalBuffer) {
  (void)externalBuffer;
  return analysis(h, "trnsparseSpSM_analysis", spsm_call(enum_value(opA), enum_value(opB), alpha, A, B, C, enum_value(ct), enum_value(alg), d), kSpSM, d);
}
trnsparseStatus_t trnsparseSpSM_solve(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                      const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstDnMatDescr_t B,
                                      trnsparseDnMatDescr_t C, trnDataType_t ct, trnsparseSpSMAlg_t alg,
                                      trnsparseSpSMDescr_t d) {
  return solve(h, "trnsparseSpSM_solve", spsm_call(enum_value(opA), enum_value(opB), alpha, A, B, C, enum_value(ct), enum_value(alg), d), kSpSM, d);
}
trnsparseStatus_t trnsparseSpSM_updateMatrix(trnsparseHandle_t h, trnsparseSpSMDescr_t d, void* newValues,
                                             trnsparseSpSMUpdate_t updatePart) {
  return update_matrix(h, "trnsparseSpSM_updateMatrix", d, g_spsms.contains(d), newValues, enum_value(updatePart));
}

}  // extern "C"
