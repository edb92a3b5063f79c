// trnsparse C shim: SpGEMM (work estimation, compute, copy) over BSR.
#include "capi_internal.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

Check& spgemm_checks(Check& c, int opA, int opB, const void* alpha, const trnsparseSpMatDescr* A,
                     const trnsparseSpMatDescr* B, const void* beta, const trnsparseSpMatDescr* C, int ct, int alg,
                     const trnsparseSpGEMMDescr* d) {
  c.one_of(opA, {0}, 1, "opA").one_of(opB, {0}, 2, "opB").not_null(alpha, 3, "alpha");
  c.require(g_spmats.contains(A) && A->format == TRNSPARSE_FORMAT_BSR, 4, "matA");
  c.require(g_spmats.contains(B) && B->format == TRNSPARSE_FORMAT_BSR, 5, "matB").not_null(beta, 6, "beta");
  c.require(g_spmats.contains(C) && C->format == TRNSPARSE_FORMAT_BSR && !C->is_const, 7, "matC");
  c.one_of(ct, {TRN_R_32F, TRN_R_64F}, 8, "computeType").one_of(alg, {0, 1, 2, 3, 4, 5}, 9, "alg");
  c.require(g_spgemms.contains(d), 10, "spgemmDescr");
  if (!c) return c;
  c.require(*static_cast<const float*>(beta) == 0.0f, 6, "beta");  // SpGEMM overwrites C
  c.require_or(ct == TRN_R_32F && !A->wide && !B->wide && !C->wide, TRNSPARSE_STATUS_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_NOT_SUPPORTED", "fp64 values or compute: no fp64 tile path");
  c.require(A->bsr.bcols == B->bsr.brows && A->bsr.col_block == B->bsr.row_block && A->bsr.value_type == B->bsr.value_type,
            5, "matB");
  c.require(C->bsr.brows == A->bsr.brows && C->bsr.bcols == B->bsr.bcols && C->bsr.row_block == A->bsr.row_block &&
                C->bsr.col_block == B->bsr.col_block && C->bsr.value_type == trn::DType::f32,
            7, "matC");
  check_sparse(c, A, 4, "matA");
  return check_sparse(c, B, 5, "matB");
}

}  // namespace

extern "C" {

trnsparseStatus_t trnsparseSpGEMM_createDescr(trnsparseSpGEMMDescr_t* descr) {
  if (descr == nullptr) return TRNSPARSE_STATUS_INVALID_VALUE;
  auto* d = new (std::nothrow) trnsparseSpGEMMDescr;
  if (d == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  g_spgemms.insert(d);
  *descr = d;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpGEMM_destroyDescr(trnsparseSpGEMMDescr_t descr) {
  if (!g_spgemms.erase(descr)) return TRNSPARSE_STATUS_INVALID_VALUE;
  delete descr;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpGEMM_workEstimation(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                                 const void* alpha, trnsparseConstSpMatDescr_t A,
                                                 trnsparseConstSpMatDescr_t B, const void* beta, trnsparseSpMatDescr_t C,
                                                 trnDataType_t ct, trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t d,
                                                 size_t* bufferSize1, void* externalBuffer1) {
  (void)externalBuffer1;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpGEMM_workEstimation", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spgemm_checks(c, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg), d)
           .not_null(bufferSize1, 11, "bufferSize1"))
    return c.status();
  *bufferSize1 = kBufferBytes;
  return trn::cshim::guarded(g_log, "trnsparseSpGEMM_workEstimation", kStatusMap, [&] {
    d->result = sp::spgemm_symbolic(A->bsr, B->bsr);
    d->phase = 1;
  });
}

trnsparseStatus_t trnsparseSpGEMM_compute(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                          const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstSpMatDescr_t B,
                                          const void* beta, trnsparseSpMatDescr_t C, trnDataType_t ct,
                                          trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t d, size_t* bufferSize2,
                                          void* externalBuffer2) {
  (void)externalBuffer2;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpGEMM_compute", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spgemm_checks(c, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg), d)
           .not_null(bufferSize2, 11, "bufferSize2")
           .require(d->phase >= 1, 10, "spgemmDescr"))  // workEstimation first
    return c.status();
  *bufferSize2 = kBufferBytes;
  const float a = *static_cast<const float*>(alpha);
  return trn::cshim::guarded(g_log, "trnsparseSpGEMM_compute", kStatusMap, [&] {
    sp::CallReport r;
    sp::spgemm_numeric(h->settings, a, A->bsr, B->bsr, d->result, &r);
    store_profile(h, r);
    d->phase = 2;
    C->bsr.bnnz = d->result.fill.bnnz;  // SpMatGetSize now reports C's block count
  });
}

trnsparseStatus_t trnsparseSpGEMM_copy(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                       const void* alpha, trnsparseConstSpMatDescr_t A, trnsparseConstSpMatDescr_t B,
                                       const void* beta, trnsparseSpMatDescr_t C, trnDataType_t ct, trnsparseSpGEMMAlg_t alg,
                                       trnsparseSpGEMMDescr_t d) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpGEMM_copy", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spgemm_checks(c, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg), d)
           .require(d->phase == 2, 11, "spgemmDescr"))  // compute first
    return c.status();
  sp::BsrView& out = C->bsr;
  const sp::OwnedBsr& res = d->result;
  const std::int64_t bnnz = res.fill.bnnz;
  c.require(out.bnnz == bnnz && out.offsets != nullptr && (bnnz == 0 || (out.columns != nullptr && out.values != nullptr)), 7,
            "matC");
  if (!c) return c.status();
  // Index copy (host) into C's index type and base; values copied block by block in C's order.
  const std::int64_t base = out.base == sp::IndexBase::one ? 1 : 0, rb = res.row_block, cb = res.col_block;
  auto store = [](const void* p, sp::IndexType t, std::int64_t i, std::int64_t v) {
    if (t == sp::IndexType::i32)
      static_cast<std::int32_t*>(const_cast<void*>(p))[i] = static_cast<std::int32_t>(v);
    else
      static_cast<std::int64_t*>(const_cast<void*>(p))[i] = v;
  };
  for (std::int64_t r = 0; r <= res.brows; ++r) store(out.offsets, out.offsets_type, r, res.offsets[static_cast<std::size_t>(r)] + base);
  const auto* src = reinterpret_cast<const float*>(res.values.data());
  auto* dst = static_cast<float*>(out.values);
  for (std::int64_t e = 0; e < bnnz; ++e) {
    store(out.columns, out.columns_type, e, res.columns[static_cast<std::size_t>(e)] + base);
    for (std::int64_t r = 0; r < rb; ++r)
      for (std::int64_t k = 0; k < cb; ++k)
        dst[e * rb * cb + (out.order == sp::BlockOrder::row ? r * cb + k : r + k * rb)] = src[e * rb * cb + r * cb + k];
  }
  return TRNSPARSE_STATUS_SUCCESS;
}

}  // extern "C"
