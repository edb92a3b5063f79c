// trnsparse C shim: SpMM, SpMV and SDDMM with their bufferSize / preprocess protocol.
#include "capi_internal.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

// The product's path: the tile path (fp32-class values, computeType TRN_R_32F), the complex-fp32
// embedding on the same tile kernels (matA a CSR / CSC / COO / BSR / Blocked-ELL of TRN_C_32F
// values, trn/sparse/generic.hpp spmm_c32), or the host step (matA a CSR / CSC / COO of TRN_R_64F
// or TRN_C_64F values); the dense operands and computeType of that same type, as cuSPARSE's table
// of supported combinations; BSR / Blocked-ELL of TRN_R_64F / TRN_C_64F values take Ozaki GEMMs per
// block row (spmm_fp64; an R_64F SpMV on small blocks the dgemv row groups). SpMV also takes a Sliced-ELL matA of those types (gathered to CSR,
// trn/sparse/sell.hpp; host step in every wide type).
Check& path_checks(Check& c, const trnsparseSpMatDescr* A, int b_type, bool b_wide, int c_type, bool c_wide, int ct,
                   bool sell_ok = false) {
  if (!c) return c;
  if (!A->wide && !b_wide && !c_wide)
    return c.require_or(ct == TRN_R_32F, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
                        "fp32-class values take the TensorE path: computeType TRN_R_32F");
  const bool block = A->format == TRNSPARSE_FORMAT_BSR || A->format == TRNSPARSE_FORMAT_BLOCKED_ELL;
  c.require_or(generic_format(A->format) || block || (sell_ok && A->format == TRNSPARSE_FORMAT_SLICED_ELLPACK),
               TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               sell_ok ? "fp64 and complex values: matA CSR, CSC, COO, BSR, Blocked-ELL or SELL"
                       : "fp64 and complex values: matA CSR, CSC, COO, BSR or Blocked-ELL");
  return c.require_or(A->value_type == b_type && A->value_type == c_type && ct == A->value_type,
                      TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
                      "fp64 and complex values: matA, the dense operands and computeType of one value type");
}

// Strided batches of SpMM (cuSPARSE's spmm_*_batched): C has the batch count, A (CSR or COO) and B
// either the same count or 1 (shared by every batch). Every batch's index arrays are validated
// before the first is computed.
Check& batch_checks(Check& c, const trnsparseSpMatDescr* A, const trnsparseDnMatDescr* B, const trnsparseDnMatDescr* C) {
  if (!c) return c;
  const int nb = C->batch_count;
  c.require_or((A->batch_count == 1 || A->batch_count == nb) && (B->batch_count == 1 || B->batch_count == nb) &&
                   (nb == 1 || A->batch_count == nb || B->batch_count == nb),
               TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "strided batches: matC's batch count, matA's and matB's equal to it or 1");
  c.require_or(A->batch_count == 1 || A->format == TRNSPARSE_FORMAT_CSR || A->format == TRNSPARSE_FORMAT_COO ||
                   A->format == TRNSPARSE_FORMAT_BSR,
               TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED", "strided batches of CSR, COO or BSR");
  for (int b = 1; b < A->batch_count && c; ++b) {
    const trnsparseSpMatDescr one = batch_of(A, b);
    check_sparse(c, &one, 4, "matA");
  }
  return c;
}

// The report of batches run one after the other: batch 0's report, then each one's profile and plan appended.
void accumulate_batch(sp::CallReport& total, sp::CallReport&& r, int batch) {
  if (batch == 0) {
    total = std::move(r);
  } else {
    trn::append_sequential(total.profile, r.profile);
    total.add_plan(r.plan);
  }
}

// SpMM argument chain shared by _bufferSize, _preprocess and the call.
Check& spmm_checks(Check& c, trnsparseHandle_t h, int opA, int opB, const void* alpha, const trnsparseSpMatDescr* A,
                   const trnsparseDnMatDescr* B, const void* beta, const trnsparseDnMatDescr* C, int computeType, int alg) {
  c.one_of(opA, {0, 1, 2}, 1, "opA").one_of(opB, {0, 1, 2}, 2, "opB").not_null(alpha, 3, "alpha");
  c.require(!h->strict || opA != 2, 1, "opA").require(!h->strict || opB != 2, 2, "opB");
  c.require(g_spmats.contains(A), 4, "matA").require(g_dnmats.contains(B), 5, "matB").not_null(beta, 6, "beta");
  c.require(g_dnmats.contains(C) && !C->is_const, 7, "matC");
  c.one_of(computeType, {TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F}, 8, "computeType");
  c.one_of(alg, {0, 1, 2, 3, 4, 5, 6, 12, 13, 14}, 9, "alg");
  if (!path_checks(c, A, B->value_type, B->wide, C->value_type, C->wide, computeType) || !batch_checks(c, A, B, C))
    return c;
  const std::int64_t M = opA == 0 ? sp_rows(A) : sp_cols(A), K = opA == 0 ? sp_cols(A) : sp_rows(A);
  const std::int64_t n = C->m.cols;
  c.require(opB == 0 ? (B->m.rows == K && B->m.cols == n) : (B->m.rows == n && B->m.cols == K), 5, "matB");
  c.require(C->m.rows == M, 7, "matC");
  return check_sparse(c, A, 4, "matA");
}

Check& spmv_checks(Check& c, bool strict, int opA, const void* alpha, const trnsparseSpMatDescr* A, const trnsparseDnVecDescr* x,
                   const void* beta, const trnsparseDnVecDescr* y, int computeType, int alg) {
  c.one_of(opA, {0, 1, 2}, 1, "opA").require(!strict || opA != 2, 1, "opA").not_null(alpha, 2, "alpha");
  c.require(g_spmats.contains(A), 3, "matA");
  c.require(g_dnvecs.contains(x), 4, "vecX").not_null(beta, 5, "beta").require(g_dnvecs.contains(y) && !y->is_const, 6, "vecY");
  c.one_of(computeType, {TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F}, 7, "computeType").one_of(alg, {0, 1, 2, 3, 4, 5, 6}, 8, "alg");
  if (!path_checks(c, A, x->value_type, x->wide, y->value_type, y->wide, computeType, /*sell_ok=*/true)) return c;
  c.require_or(A->batch_count == 1, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "SpMV of a strided batch (cuSPARSE's SpMV has no batches)");
  const std::int64_t M = opA == 0 ? sp_rows(A) : sp_cols(A), K = opA == 0 ? sp_cols(A) : sp_rows(A);
  c.require(x->size == K, 4, "vecX").require(y->size == M, 6, "vecY");
  return check_sparse(c, A, 3, "matA");
}

Check& sddmm_checks(Check& c, bool strict, int opA, int opB, const void* alpha, const trnsparseDnMatDescr* A,
                    const trnsparseDnMatDescr* B, const void* beta, const trnsparseSpMatDescr* C, int computeType, int alg) {
  c.one_of(opA, {0, 1, 2}, 1, "opA").one_of(opB, {0, 1, 2}, 2, "opB").not_null(alpha, 3, "alpha");
  c.require(!strict || opA != 2, 1, "opA").require(!strict || opB != 2, 2, "opB");
  c.require(g_dnmats.contains(A), 4, "matA").require(g_dnmats.contains(B), 5, "matB").not_null(beta, 6, "beta");
  c.require(g_spmats.contains(C) && !C->is_const, 7, "matC");
  c.one_of(computeType, {TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F}, 8, "computeType").one_of(alg, {0}, 9, "alg");
  if (!c) return c;
  // cuSPARSE's SDDMM table: fp32-class A/B with computeType R_32F (the TensorE kernels), or A, B, C
  // and computeType all R_64F, all C_32F or all C_64F (the host step, trn/sparse/generic.hpp).
  if (!A->wide && !B->wide && !C->wide)
    c.require_or(computeType == TRN_R_32F, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
                 "fp32-class values take the TensorE path: computeType TRN_R_32F");
  else
    c.require_or(A->value_type == B->value_type && A->value_type == C->value_type && computeType == A->value_type,
                 TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
                 "fp64 and complex values: matA, matB, matC and computeType of one value type");
  c.require_or(C->format == TRNSPARSE_FORMAT_BSR || C->format == TRNSPARSE_FORMAT_CSR, TRNSPARSE_STATUS_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_NOT_SUPPORTED", "SDDMM output patterns are CSR or BSR (as cuSPARSE)");
  const std::int64_t M = sp_rows(C), N = sp_cols(C), K = opA == 0 ? A->m.cols : A->m.rows;
  c.require(opA == 0 ? A->m.rows == M : A->m.cols == M, 4, "matA");
  c.require(opB == 0 ? (B->m.rows == K && B->m.cols == N) : (B->m.rows == N && B->m.cols == K), 5, "matB");
  // Strided batches (cuSPARSE's sddmm_csr_batched): matC a CSR of batchCount batches, matA and matB
  // of that count or 1; every batch's pattern validated before the first is computed.
  const int nb = C->batch_count;
  c.require_or((A->batch_count == 1 || A->batch_count == nb) && (B->batch_count == 1 || B->batch_count == nb),
               TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "strided batches: matA's and matB's batch count equal to matC's or 1");
  for (int b = 1; b < nb && c; ++b) {
    const trnsparseSpMatDescr one = batch_of(C, b);
    check_sparse(c, &one, 7, "matC");
  }
  return check_sparse(c, C, 7, "matC");
}

float fp32_scalar(const void* p) { return *static_cast<const float*>(p); }

// One wide product (validated): C_32F on TensorE through the real embedding (CSR / CSC / COO / BSR /
// Blocked-ELL); R_64F / C_64F BSR / Blocked-ELL through spmm_fp64 (TensorE; block_fp64.cpp), CSR / CSC /
// COO on the host step.
void wide_product(trnsparseHandle_t h, sp::GOp opA, sp::GOp opB, const void* alpha, const trnsparseSpMatDescr& A,
                  const sp::DenseAny& B, const void* beta, const sp::DenseAny& C, sp::CallReport* r) {
  const sp::Scalar al = load_scalar(alpha, A.value_type), be = load_scalar(beta, A.value_type);
  const sp::Value v = generic_value(A.value_type);
  if (A.value_type != TRN_C_32F && A.format == TRNSPARSE_FORMAT_BSR)  // TensorE (block_fp64.cpp)
    sp::spmm_fp64(h->settings, opA, opB, al, A.bsr, v, B, be, C, r);
  else if (A.value_type != TRN_C_32F && A.format == TRNSPARSE_FORMAT_BLOCKED_ELL)
    sp::spmm_fp64(h->settings, opA, opB, al, A.ell, v, B, be, C, r);
  else if (A.value_type != TRN_C_32F)
    sp::spmm_host(h->settings, opA, opB, al, generic_of(&A), B, be, C, r);
  else if (A.format == TRNSPARSE_FORMAT_BSR)
    sp::spmm_c32(h->settings, opA, opB, al, A.bsr, B, be, C, r);
  else if (A.format == TRNSPARSE_FORMAT_BLOCKED_ELL)
    sp::spmm_c32(h->settings, opA, opB, al, A.ell, B, be, C, r);
  else
    sp::spmm_c32(h->settings, opA, opB, al, generic_of(&A), B, be, C, r);
}

// One batch of an fp64 / complex SDDMM (validated by sddmm_checks): C_32F on TensorE (trn/sparse/generic.hpp
// sddmm_c32), R_64F / C_64F the host step, on C's CSR or BSR pattern.
void sddmm_wide(trnsparseHandle_t h, sp::GOp opA, sp::GOp opB, const void* alpha, const trnsparseDnMatDescr& A,
                const trnsparseDnMatDescr& B, const void* beta, const trnsparseSpMatDescr& C, sp::CallReport* r) {
  const sp::Scalar al = load_scalar(alpha, C.value_type), be = load_scalar(beta, C.value_type);
  if (C.value_type == TRN_C_32F && C.format == TRNSPARSE_FORMAT_BSR)  // TensorE: the real interleaved form
    sp::sddmm_c32(h->settings, opA, opB, al, dense_any(&A), dense_any(&B), be, C.bsr, r);
  else if (C.value_type == TRN_C_32F)
    sp::sddmm_c32(h->settings, opA, opB, al, dense_any(&A), dense_any(&B), be, generic_of(&C), r);
  else if (C.format == TRNSPARSE_FORMAT_BSR)
    sp::sddmm_host(h->settings, opA, opB, al, dense_any(&A), dense_any(&B), be, C.bsr, generic_value(C.value_type), r);
  else
    sp::sddmm_host(h->settings, opA, opB, al, dense_any(&A), dense_any(&B), be, generic_of(&C), r);
}

}  // namespace

extern "C" {

// ---- SpMM ---------------------------------------------------------------------------------------

trnsparseStatus_t trnsparseSpMM_bufferSize(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                           const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstDnMatDescr_t B,
                                           const void* beta, trnsparseDnMatDescr_t C, trnDataType_t ct,
                                           trnsparseSpMMAlg_t alg, size_t* bufferSize) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpMM_bufferSize", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spmm_checks(c, h, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg))
           .not_null(bufferSize, 10, "bufferSize"))
    return c.status();
  *bufferSize = kBufferBytes;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpMM_preprocess(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                           const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstDnMatDescr_t B,
                                           const void* beta, trnsparseDnMatDescr_t C, trnDataType_t ct,
                                           trnsparseSpMMAlg_t alg, void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpMM_preprocess", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  spmm_checks(c, h, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg));
  return c.status();
}

trnsparseStatus_t trnsparseSpMM(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstDnMatDescr_t B,
                                const void* beta, trnsparseDnMatDescr_t C, trnDataType_t ct, trnsparseSpMMAlg_t alg,
                                void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpMM", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spmm_checks(c, h, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg)))
    return c.status();
  const int o_a = enum_value(opA), o_b = enum_value(opB);
  return trn::cshim::guarded(g_log, "trnsparseSpMM", kStatusMap, [&] {
    sp::CallReport total;
    for (int batch = 0; batch < C->batch_count; ++batch) {  // batches run one after the other
      const trnsparseSpMatDescr a = batch_of(A, batch);
      const trnsparseDnMatDescr b = batch_of(B, batch), cm = batch_of(C, batch);
      sp::CallReport r;
      r.plans_wanted = false;  // the profile only: no plan printed, so no prediction computed
      if (A->wide) {
        wide_product(h, gop_of(o_a), gop_of(o_b), alpha, a, dense_any(&b), beta, dense_any(&cm), &r);
      } else {
        const float al = *static_cast<const float*>(alpha), be = *static_cast<const float*>(beta);
        visit(&a, [&](const auto& v) { sp::spmm(h->settings, op_of(o_a), op_of(o_b), al, v, dense_of(&b), be, cm.m, &r); });
      }
      accumulate_batch(total, std::move(r), batch);
    }
    store_profile(h, total);
  });
}

// ---- SpMV ---------------------------------------------------------------------------------------

trnsparseStatus_t trnsparseSpMV_bufferSize(trnsparseHandle_t h, trnsparseOperation_t opA, const void* alpha,
                                           trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t x, const void* beta,
                                           trnsparseDnVecDescr_t y, trnDataType_t ct, trnsparseSpMVAlg_t alg,
                                           size_t* bufferSize) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpMV_bufferSize", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spmv_checks(c, h->strict, enum_value(opA), alpha, A, x, beta, y, enum_value(ct), enum_value(alg)).not_null(bufferSize, 9, "bufferSize"))
    return c.status();
  *bufferSize = kBufferBytes;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpMV_preprocess(trnsparseHandle_t h, trnsparseOperation_t opA, const void* alpha,
                                           trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t x, const void* beta,
                                           trnsparseDnVecDescr_t y, trnDataType_t ct, trnsparseSpMVAlg_t alg,
                                           void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpMV_preprocess", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  spmv_checks(c, h->strict, enum_value(opA), alpha, A, x, beta, y, enum_value(ct), enum_value(alg));
  return c.status();
}

trnsparseStatus_t trnsparseSpMV(trnsparseHandle_t h, trnsparseOperation_t opA, const void* alpha,
                                trnsparseConstSpMatDescr_t A, trnsparseConstDnVecDescr_t x, const void* beta,
                                trnsparseDnVecDescr_t y, trnDataType_t ct, trnsparseSpMVAlg_t alg, void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpMV", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spmv_checks(c, h->strict, enum_value(opA), alpha, A, x, beta, y, enum_value(ct), enum_value(alg))) return c.status();
  if (A->wide)
    return trn::cshim::guarded(g_log, "trnsparseSpMV", kStatusMap, [&] {
      sp::CallReport r;
      const sp::GOp o = gop_of(enum_value(opA));
      const sp::Scalar al = load_scalar(alpha, A->value_type), be = load_scalar(beta, A->value_type);
      const std::int64_t M = o == sp::GOp::N ? sp_rows(A) : sp_cols(A), K = o == sp::GOp::N ? sp_cols(A) : sp_rows(A);
      const sp::Value v = generic_value(A->value_type);
      if (A->format == TRNSPARSE_FORMAT_SLICED_ELLPACK)
        sp::spmv_host(h->settings, o, al, A->sell, v, x->values, be, y->values, &r);
      else if (A->value_type == TRN_C_32F || !generic_format(A->format))  // the n = 1 product on TensorE
        wide_product(h, o, sp::GOp::N, alpha, *A, {x->values, v, K, 1, std::max<std::int64_t>(K, 1), sp::Layout::col_major},
                     beta, {y->values, v, M, 1, std::max<std::int64_t>(M, 1), sp::Layout::col_major}, &r);
      else
        sp::spmv_host(h->settings, o, al, generic_of(A), x->values, be, y->values, &r);
      store_profile(h, r);
    });
  const float a = *static_cast<const float*>(alpha), b = *static_cast<const float*>(beta);
  return trn::cshim::guarded(g_log, "trnsparseSpMV", kStatusMap, [&] {
    sp::CallReport r;
    r.plans_wanted = false;  // the profile only: no plan printed, so no prediction computed
    visit(A, [&](const auto& v) {
      sp::spmv(h->settings, op_of(enum_value(opA)), a, v, x->values, x->dtype, b, y->values, y->dtype, &r);
    });
    store_profile(h, r);
  });
}

// ---- SDDMM --------------------------------------------------------------------------------------

trnsparseStatus_t trnsparseSDDMM_bufferSize(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                            const void* alpha, trnsparseConstDnMatDescr_t A,
                                            trnsparseConstDnMatDescr_t B, const void* beta, trnsparseSpMatDescr_t C,
                                            trnDataType_t ct, trnsparseSDDMMAlg_t alg, size_t* bufferSize) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSDDMM_bufferSize", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!sddmm_checks(c, h->strict, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg))
           .not_null(bufferSize, 10, "bufferSize"))
    return c.status();
  *bufferSize = kBufferBytes;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSDDMM_preprocess(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                            const void* alpha, trnsparseConstDnMatDescr_t A,
                                            trnsparseConstDnMatDescr_t B, const void* beta, trnsparseSpMatDescr_t C,
                                            trnDataType_t ct, trnsparseSDDMMAlg_t alg, void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSDDMM_preprocess", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  sddmm_checks(c, h->strict, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg));
  return c.status();
}

trnsparseStatus_t trnsparseSDDMM(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                 const void* alpha, trnsparseConstDnMatDescr_t A, trnsparseConstDnMatDescr_t B,
                                 const void* beta, trnsparseSpMatDescr_t C, trnDataType_t ct, trnsparseSDDMMAlg_t alg,
                                 void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSDDMM", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!sddmm_checks(c, h->strict, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg)))
    return c.status();
  const int o_a = enum_value(opA), o_b = enum_value(opB);
  return trn::cshim::guarded(g_log, "trnsparseSDDMM", kStatusMap, [&] {
    sp::CallReport total;
    for (int batch = 0; batch < C->batch_count; ++batch) {  // batches run one after the other
      const trnsparseDnMatDescr da = batch_of(A, batch), db = batch_of(B, batch);
      const trnsparseSpMatDescr cs = batch_of(C, batch);
      sp::CallReport r;
      r.plans_wanted = false;  // the profile only: no plan printed, so no prediction computed
      if (C->wide)
        sddmm_wide(h, gop_of(o_a), gop_of(o_b), alpha, da, db, beta, cs, &r);
      else if (C->format == TRNSPARSE_FORMAT_BSR)
        sp::sddmm(h->settings, op_of(o_a), op_of(o_b), fp32_scalar(alpha), dense_of(&da), dense_of(&db), fp32_scalar(beta),
                  cs.bsr, &r);
      else
        sp::sddmm(h->settings, op_of(o_a), op_of(o_b), fp32_scalar(alpha), dense_of(&da), dense_of(&db), fp32_scalar(beta),
                  cs.csr, &r);
      accumulate_batch(total, std::move(r), batch);
    }
    store_profile(h, total);
  });
}

}  // extern "C"
