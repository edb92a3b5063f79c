// trnsparse C shim: SpGEMM (work estimation, compute, copy) over BSR.
#include "capi_internal.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

// BSR x BSR: fp32-class values, beta = 0, matching block shapes.
Check& bsr_checks(Check& c, const void* beta, const trnsparseSpMatDescr* A, const trnsparseSpMatDescr* B,
                  const trnsparseSpMatDescr* C, int ct) {
  c.require(*static_cast<const float*>(beta) == 0.0f, 6, "beta");  // SpGEMM overwrites C
  c.require_or(ct == TRN_R_32F && !A->wide && !B->wide && !C->wide, TRNSPARSE_STATUS_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_NOT_SUPPORTED", "fp64 values or compute: no fp64 tile path");
  c.require(A->bsr.bcols == B->bsr.brows && A->bsr.col_block == B->bsr.row_block && A->bsr.value_type == B->bsr.value_type,
            5, "matB");
  return c.require(C->bsr.brows == A->bsr.brows && C->bsr.bcols == B->bsr.bcols && C->bsr.row_block == A->bsr.row_block &&
                       C->bsr.col_block == B->bsr.col_block && C->bsr.value_type == trn::DType::f32,
                   7, "matC");
}

// CSR x CSR (trn/sparse/spgemm_csr.hpp): one generic value type for A, B, C and computeType.
Check& csr_checks(Check& c, const trnsparseSpMatDescr* A, const trnsparseSpMatDescr* B, const trnsparseSpMatDescr* C,
                  int ct) {
  const int vt = A->value_type;
  c.require_or(is_generic_value_type(vt) && B->value_type == vt && C->value_type == vt && ct == vt,
               TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "CSR SpGEMM: matA, matB, matC and computeType of one value type (R_32F, R_64F, C_32F, C_64F)");
  c.require_or(A->batch_count == 1 && B->batch_count == 1 && C->batch_count == 1, TRNSPARSE_STATUS_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_NOT_SUPPORTED", "SpGEMM of strided batches");
  c.require(sp_cols(A) == sp_rows(B), 5, "matB");
  return c.require(sp_rows(C) == sp_rows(A) && sp_cols(C) == sp_cols(B), 7, "matC");
}

// The chain every SpGEMM phase shares, at SpGEMM's positions (matA 4, matB 5, matC 7, descr 10)
// or SpGEMMreuse's pattern phases' (no alpha, beta, computeType: matA 3, matB 4, matC 5, descr 7).
struct Pos {
  int alpha, A, B, beta, C, ct, alg, d;
};
constexpr Pos kPhase{3, 4, 5, 6, 7, 8, 9, 10};
constexpr Pos kReusePattern{0, 3, 4, 0, 5, 0, 6, 7};
Check& spgemm_checks(Check& c, const Pos& p, int opA, int opB, const void* alpha, const trnsparseSpMatDescr* A,
                     const trnsparseSpMatDescr* B, const void* beta, const trnsparseSpMatDescr* C, int ct, int alg,
                     const trnsparseSpGEMMDescr* d) {
  c.one_of(opA, {0}, 1, "opA").one_of(opB, {0}, 2, "opB");
  if (p.alpha != 0) c.not_null(alpha, p.alpha, "alpha");
  c.require(g_spmats.contains(A) && (A->format == TRNSPARSE_FORMAT_BSR || A->format == TRNSPARSE_FORMAT_CSR), p.A, "matA");
  if (!c) return c;
  if (p.ct == 0) ct = A->value_type;  // the reuse pattern phases take none
  c.require(g_spmats.contains(B) && B->format == A->format, p.B, "matB");
  if (p.beta != 0) c.not_null(beta, p.beta, "beta");
  c.require(g_spmats.contains(C) && C->format == A->format && !C->is_const, p.C, "matC");
  if (p.ct != 0) c.one_of(ct, {TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F}, p.ct, "computeType");
  c.one_of(alg, {0, 1, 2, 3, 4, 5}, p.alg, "alg").require(g_spgemms.contains(d), p.d, "spgemmDescr");
  if (!c) return c;
  if (A->format == TRNSPARSE_FORMAT_CSR)
    csr_checks(c, A, B, C, ct);
  else if (p.beta == 0)
    c.require_or(false, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED", "SpGEMMreuse takes CSR operands");
  else
    bsr_checks(c, beta, A, B, C, ct);
  check_sparse(c, A, p.A, "matA");
  return check_sparse(c, B, p.B, "matB");
}

void set_nnz(trnsparseSpMatDescr* C, std::int64_t nnz) { C->csr.nnz = C->csc.nnz = C->coo.nnz = nnz; }

// The CSR phases (SpGEMM's and SpGEMMreuse's; the caller has checked the chain).
trnsparseStatus_t csr_estimate(trnsparseHandle_t h, const char* fn, const Pos& p, const trnsparseSpMatDescr* A,
                               const trnsparseSpMatDescr* B, trnsparseSpGEMMDescr* d) {
  return run(h, fn, {{"matA", p.A}, {"matB", p.B}}, [&] {
    d->csr = sp::spgemm_csr_symbolic(generic_of(A), generic_of(B));
    d->is_csr = true;
    d->phase = 1;
    d->reuse_phase = 0;
  });
}
// numeric: receives the numeric phase's profile too (SpGEMMreuse_compute's first part).
trnsparseStatus_t csr_compute(trnsparseHandle_t h, const char* fn, const Pos& p, const trnsparseSpMatDescr* A,
                              const trnsparseSpMatDescr* B, trnsparseSpGEMMDescr* d, trn::Profile* numeric = nullptr) {
  return run(h, fn, {{"matA", p.A}, {"matB", p.B}, {"matC", p.C}}, [&] {
    sp::CallReport r;
    sp::spgemm_csr_numeric(h->settings, generic_of(A), generic_of(B), d->csr, &r);
    store_profile(h, r);
    if (numeric != nullptr) *numeric = r.profile;
    d->phase = 2;
  });
}
// C's pattern and/or values from the product (values: alpha s + beta c). before: a launch of the same
// call that ran first (SpGEMMreuse_compute's numeric phase): the stored profile is both, one after the other.
trnsparseStatus_t csr_store(trnsparseHandle_t h, const char* fn, const Pos& p, bool pattern, const void* alpha,
                            const void* beta, trnsparseSpMatDescr* C, trnsparseSpGEMMDescr* d,
                            const trn::Profile* before = nullptr) {
  return run(h, fn, {{"matC", p.C}}, [&] {
    const sp::SparseRef out = generic_of(C);
    if (alpha != nullptr && d->csr.nnz() > 0 && out.values == nullptr)  // checked before C's pattern is written
      throw sp::InvalidArgument("trnsparse: spgemm: C's values are not set", "matC");
    if (pattern) sp::spgemm_csr_store_pattern(d->csr, out);
    if (alpha == nullptr) return;
    sp::CallReport r;
    sp::spgemm_csr_store_values(h->settings, d->csr, load_scalar(alpha, C->value_type), load_scalar(beta, C->value_type), out,
                                &r);
    if (before != nullptr) {
      trn::Profile both = *before;
      trn::append_sequential(both, r.profile);
      r.profile = both;
    }
    store_profile(h, r);
  });
}


}  // namespace

extern "C" {

trnsparseStatus_t trnsparseSpGEMM_createDescr(trnsparseSpGEMMDescr_t* descr) {
  return trn::cshim::create_registered(g_spgemms, descr, TRNSPARSE_STATUS_INVALID_VALUE, TRNSPARSE_STATUS_ALLOC_FAILED,
                                       TRNSPARSE_STATUS_SUCCESS);
}

trnsparseStatus_t trnsparseSpGEMM_destroyDescr(trnsparseSpGEMMDescr_t descr) {
  return g_spgemms.destroy(descr) ? TRNSPARSE_STATUS_SUCCESS : TRNSPARSE_STATUS_INVALID_VALUE;
}

trnsparseStatus_t trnsparseSpGEMM_workEstimation(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                                 const void* alpha, trnsparseConstSpMatDescr_t A,
                                                 trnsparseConstSpMatDescr_t B, const void* beta, trnsparseSpMatDescr_t C,
                                                 trnDataType_t ct, trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t d,
                                                 size_t* bufferSize1, void* externalBuffer1) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpGEMM_workEstimation", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spgemm_checks(c, kPhase, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg), d)
           .not_null(bufferSize1, 11, "bufferSize1"))
    return c.status();
  *bufferSize1 = kBufferBytes;
  if (A->format == TRNSPARSE_FORMAT_CSR)  // cuSPARSE's two calls: NULL buffer = the size query
    return externalBuffer1 == nullptr ? TRNSPARSE_STATUS_SUCCESS
                                      : csr_estimate(h, "trnsparseSpGEMM_workEstimation", kPhase, A, B, d);
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
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpGEMM_compute", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spgemm_checks(c, kPhase, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg), d)
           .not_null(bufferSize2, 11, "bufferSize2")
           .require(c && d->phase >= 1 && d->is_csr == (A->format == TRNSPARSE_FORMAT_CSR), 10, "spgemmDescr"))  // workEstimation first
    return c.status();
  *bufferSize2 = kBufferBytes;
  if (A->format == TRNSPARSE_FORMAT_CSR) {
    if (externalBuffer2 == nullptr) return TRNSPARSE_STATUS_SUCCESS;
    const trnsparseStatus_t st = csr_compute(h, "trnsparseSpGEMM_compute", kPhase, A, B, d);
    if (st == TRNSPARSE_STATUS_SUCCESS) set_nnz(C, d->csr.nnz());  // SpMatGetSize now reports nnz(C)
    return st;
  }
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
  if (!spgemm_checks(c, kPhase, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg), d)
           .require(c && d->phase == 2 && d->is_csr == (A->format == TRNSPARSE_FORMAT_CSR), 11, "spgemmDescr"))  // compute first
    return c.status();
  if (A->format == TRNSPARSE_FORMAT_CSR) return csr_store(h, "trnsparseSpGEMM_copy", kPhase, true, alpha, beta, C, d);
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

trnsparseStatus_t trnsparseSpGEMM_getNumProducts(trnsparseSpGEMMDescr_t d, int64_t* num_prods) {
  Check c(g_log, "trnsparseSpGEMM_getNumProducts", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spgemms.contains(d) && d->phase >= 1, 1, "spgemmDescr").not_null(num_prods, 2, "num_prods");
  if (c) c.require_or(d->is_csr, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED", "products of a BSR SpGEMM");
  if (!c) return c.status();
  *num_prods = d->csr.products;
  return TRNSPARSE_STATUS_SUCCESS;
}

// ALG2 / ALG3's memory estimate: the sizes of the chunked compute's buffers (no buffer is used).
trnsparseStatus_t trnsparseSpGEMM_estimateMemory(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                                 const void* alpha, trnsparseConstSpMatDescr_t A,
                                                 trnsparseConstSpMatDescr_t B, const void* beta, trnsparseSpMatDescr_t C,
                                                 trnDataType_t ct, trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t d,
                                                 float chunk_fraction, size_t* bufferSize3, void* externalBuffer3,
                                                 size_t* bufferSize2) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpGEMM_estimateMemory", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spgemm_checks(c, kPhase, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg), d)
           .one_of(enum_value(alg), {TRNSPARSE_SPGEMM_ALG2, TRNSPARSE_SPGEMM_ALG3}, 9, "alg")
           .require(c && d->phase >= 1 && d->is_csr && A->format == TRNSPARSE_FORMAT_CSR, 10, "spgemmDescr")
           .require(chunk_fraction > 0.0f && chunk_fraction <= 1.0f, 11, "chunk_fraction")
           .not_null(bufferSize3, 12, "bufferSize3")
           .require(externalBuffer3 == nullptr || bufferSize2 != nullptr, 14, "bufferSize2"))
    return c.status();
  *bufferSize3 = kBufferBytes;
  if (externalBuffer3 != nullptr) *bufferSize2 = kBufferBytes;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpGEMMreuse_workEstimation(trnsparseHandle_t h, trnsparseOperation_t opA,
                                                      trnsparseOperation_t opB, trnsparseConstSpMatDescr_t A,
                                                      trnsparseConstSpMatDescr_t B, trnsparseSpMatDescr_t C,
                                                      trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t d,
                                                      size_t* bufferSize1, void* externalBuffer1) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpGEMMreuse_workEstimation", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spgemm_checks(c, kReusePattern, enum_value(opA), enum_value(opB), nullptr, A, B, nullptr, C, 0, enum_value(alg), d)
           .not_null(bufferSize1, 8, "bufferSize1"))
    return c.status();
  *bufferSize1 = kBufferBytes;
  return externalBuffer1 == nullptr ? TRNSPARSE_STATUS_SUCCESS
                                    : csr_estimate(h, "trnsparseSpGEMMreuse_workEstimation", kReusePattern, A, B, d);
}

trnsparseStatus_t trnsparseSpGEMMreuse_nnz(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                           trnsparseConstSpMatDescr_t A, trnsparseConstSpMatDescr_t B, trnsparseSpMatDescr_t C,
                                           trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t d, size_t* bufferSize2,
                                           void* externalBuffer2, size_t* bufferSize3, void* externalBuffer3,
                                           size_t* bufferSize4, void* externalBuffer4) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpGEMMreuse_nnz", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spgemm_checks(c, kReusePattern, enum_value(opA), enum_value(opB), nullptr, A, B, nullptr, C, 0, enum_value(alg), d)
           .require(c && d->phase >= 1 && d->is_csr, 7, "spgemmDescr")
           .not_null(bufferSize2, 8, "bufferSize2")
           .not_null(bufferSize3, 10, "bufferSize3")
           .not_null(bufferSize4, 12, "bufferSize4"))
    return c.status();
  *bufferSize2 = *bufferSize3 = *bufferSize4 = kBufferBytes;
  if (externalBuffer2 == nullptr || externalBuffer3 == nullptr || externalBuffer4 == nullptr) return TRNSPARSE_STATUS_SUCCESS;
  set_nnz(C, d->csr.nnz());  // SpMatGetSize now reports nnz(C)
  d->reuse_phase = 1;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSpGEMMreuse_copy(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                            trnsparseConstSpMatDescr_t A, trnsparseConstSpMatDescr_t B,
                                            trnsparseSpMatDescr_t C, trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t d,
                                            size_t* bufferSize5, void* externalBuffer5) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpGEMMreuse_copy", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spgemm_checks(c, kReusePattern, enum_value(opA), enum_value(opB), nullptr, A, B, nullptr, C, 0, enum_value(alg), d)
           .require(c && d->reuse_phase >= 1 && d->is_csr, 7, "spgemmDescr")
           .not_null(bufferSize5, 8, "bufferSize5"))
    return c.status();
  *bufferSize5 = kBufferBytes;
  if (externalBuffer5 == nullptr) return TRNSPARSE_STATUS_SUCCESS;
  const trnsparseStatus_t st = csr_store(h, "trnsparseSpGEMMreuse_copy", kReusePattern, true, nullptr, nullptr, C, d);
  if (st == TRNSPARSE_STATUS_SUCCESS) d->reuse_phase = 2;
  return st;
}

trnsparseStatus_t trnsparseSpGEMMreuse_compute(trnsparseHandle_t h, trnsparseOperation_t opA, trnsparseOperation_t opB,
                                               const void* alpha, trnsparseConstSpMatDescr_t A,
                                               trnsparseConstSpMatDescr_t B, const void* beta, trnsparseSpMatDescr_t C,
                                               trnDataType_t ct, trnsparseSpGEMMAlg_t alg, trnsparseSpGEMMDescr_t d) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSpGEMMreuse_compute", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!spgemm_checks(c, kPhase, enum_value(opA), enum_value(opB), alpha, A, B, beta, C, enum_value(ct), enum_value(alg), d)
           .require(c && d->reuse_phase == 2 && d->is_csr, 10, "spgemmDescr")  // reuse_copy first
           .require_or(!c || A->format == TRNSPARSE_FORMAT_CSR, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
                       "SpGEMMreuse takes CSR operands"))
    return c.status();
  // cuSPARSE's SpGEMMreuse_compute computes C = alpha op(A) op(B) + beta C: GetLastProfile reports both
  // launches (the numeric phase, then alpha s + beta c), one after the other.
  trn::Profile numeric;
  const trnsparseStatus_t st = csr_compute(h, "trnsparseSpGEMMreuse_compute", kPhase, A, B, d, &numeric);
  return st != TRNSPARSE_STATUS_SUCCESS ? st
                                        : csr_store(h, "trnsparseSpGEMMreuse_compute", kPhase, false, alpha, beta, C, d, &numeric);
}

}  // extern "C"
