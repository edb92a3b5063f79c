// trnsparse C shim: the legacy BSR routines (bsrmm, bsrmv) and the CSR <-> BSR conversions.
#include "capi_internal.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

sp::BsrView legacy_bsr(int dir, int mb, int nb, int nnzb, int bs, const trnsparseMatDescr* d, const float* val,
                       const int* row, const int* col) {
  return sp::BsrView{mb, nb, nnzb, bs, bs, row, col, const_cast<float*>(val), sp::IndexType::i32, sp::IndexType::i32,
                     d->base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, trn::DType::f32,
                     dir == TRNSPARSE_DIRECTION_ROW ? sp::BlockOrder::row : sp::BlockOrder::col};
}

}  // namespace

extern "C" {

// ---- legacy BSR ---------------------------------------------------------------------------------

trnsparseStatus_t trnsparseSbsrmm(trnsparseHandle_t h, trnsparseDirection_t dirA, trnsparseOperation_t transA,
                                  trnsparseOperation_t transB, int mb, int n, int kb, int nnzb, const float* alpha,
                                  const trnsparseMatDescr_t descrA, const float* val, const int* rowPtr,
                                  const int* colInd, const int blockSize, const float* B, const int ldb,
                                  const float* beta, float* C, int ldc) {
  const int dir = enum_value(dirA), ta = enum_value(transA), tb = enum_value(transB);
  return legacy_bsrmm(h, "trnsparseSbsrmm",
                      {dir, ta, tb, mb, n, kb, nnzb, blockSize, ldb, ldc, alpha, beta, descrA, val, rowPtr, colInd, B, C},
                      [&](std::int64_t rows_c, std::int64_t k) {
                        const sp::BsrView a = legacy_bsr(dir, mb, kb, nnzb, blockSize, descrA, val, rowPtr, colInd);
                        const sp::DenseRef b{B, trn::DType::f32, tb == 0 ? k : n, tb == 0 ? n : k, ldb, sp::Layout::col_major};
                        const sp::MutableDenseRef cm{C, trn::DType::f32, rows_c, n, ldc, sp::Layout::col_major};
                        sp::CallReport r;
                        r.plans_wanted = false;  // the profile only (as capi_spmm.cpp): no plan printed, so no prediction computed
                        sp::spmm(h->settings, op_of(ta), op_of(tb), *alpha, a, b, *beta, cm, &r);
                        store_profile(h, r);
                      });
}

trnsparseStatus_t trnsparseSbsrmv(trnsparseHandle_t h, trnsparseDirection_t dirA, trnsparseOperation_t transA, int mb,
                                  int nb, int nnzb, const float* alpha, const trnsparseMatDescr_t descrA,
                                  const float* val, const int* rowPtr, const int* colInd, int blockDim, const float* x,
                                  const float* beta, float* y) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  const int dir = enum_value(dirA), ta = enum_value(transA);
  Check c(g_log, "trnsparseSbsrmv", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!bsrmv_checks(c, h->strict, {dir, ta, mb, nb, nnzb, blockDim, alpha, beta, descrA, val, rowPtr, colInd, x, y}, false))
    return c.status();
  const sp::BsrView a = legacy_bsr(dir, mb, nb, nnzb, blockDim, descrA, val, rowPtr, colInd);
  return run(h, "trnsparseSbsrmv", {{"offsets", 9}, {"nnz", 5}, {"columns", 10}}, [&] {
    sp::CallReport r;
    r.plans_wanted = false;  // the profile only (as capi_spmm.cpp): no plan printed, so no prediction computed
    sp::spmv(h->settings, op_of(ta), *alpha, a, x, trn::DType::f32, *beta, y, trn::DType::f32, &r);
    store_profile(h, r);
  });
}

trnsparseStatus_t trnsparseXcsr2bsrNnz(trnsparseHandle_t h, trnsparseDirection_t dirA, int m, int n,
                                       const trnsparseMatDescr_t descrA, const int* rowPtr, const int* colInd,
                                       int blockDim, const trnsparseMatDescr_t descrC, int* bsrRowPtrC,
                                       int* nnzTotalDevHostPtr) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseXcsr2bsrNnz", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(enum_value(dirA), {0, 1}, 1, "dirA").nonnegative(m, 2, "m").nonnegative(n, 3, "n");
  c.require(g_mat_descrs.contains(descrA), 4, "descrA").not_null(rowPtr, 5, "csrSortedRowPtrA");
  c.require(blockDim >= 1, 7, "blockDim").require(g_mat_descrs.contains(descrC), 8, "descrC");
  c.not_null(bsrRowPtrC, 9, "bsrSortedRowPtrC").not_null(nnzTotalDevHostPtr, 10, "nnzTotalDevHostPtr");
  if (!c) return c.status();
  const std::int64_t nnz = std::int64_t{rowPtr[m]} - descrA->base;
  c.require(colInd != nullptr || nnz <= 0, 6, "csrSortedColIndA");
  if (!c) return c.status();
  const sp::CsrView csr{m, n, nnz, rowPtr, colInd, nullptr, sp::IndexType::i32, sp::IndexType::i32,
                        descrA->base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, trn::DType::f32};
  const std::int64_t mb = (std::int64_t{m} + blockDim - 1) / blockDim;
  const trn::HostStep step{.name = "trnsparse.csr2bsr.nnz", .flops = static_cast<double>(std::max<std::int64_t>(nnz, 0)),
                           .reads = {trn::HostSpan(rowPtr, std::int64_t{m} + 1), trn::HostSpan(colInd, nnz)},
                           .writes = {trn::HostSpan(bsrRowPtrC, mb + 1)}};
  return run_on_host(h, "trnsparseXcsr2bsrNnz", {{"offsets", 5}, {"nnz", 5}, {"columns", 6}, {"bsrRowPtrC", 9}}, step, [&] {
    const std::int64_t bnnz = sp::csr_to_bsr_nnz(csr, blockDim, descrC->base == 1 ? sp::IndexBase::one : sp::IndexBase::zero,
                                                  bsrRowPtrC, sp::IndexType::i32);
    *nnzTotalDevHostPtr = static_cast<int>(bnnz);
  });
}

trnsparseStatus_t trnsparseScsr2bsr(trnsparseHandle_t h, trnsparseDirection_t dirA, int m, int n,
                                    const trnsparseMatDescr_t descrA, const float* csrVal, const int* rowPtr,
                                    const int* colInd, int blockDim, const trnsparseMatDescr_t descrC, float* bsrVal,
                                    int* bsrRowPtr, int* bsrColInd) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseScsr2bsr", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(enum_value(dirA), {0, 1}, 1, "dirA").nonnegative(m, 2, "m").nonnegative(n, 3, "n");
  c.require(g_mat_descrs.contains(descrA), 4, "descrA").not_null(rowPtr, 6, "csrSortedRowPtrA");
  c.require(blockDim >= 1, 8, "blockDim").require(g_mat_descrs.contains(descrC), 9, "descrC");
  c.not_null(bsrRowPtr, 11, "bsrSortedRowPtrC");
  if (!c) return c.status();  // every argument checked before the row pointer is read
  const std::int64_t nnz = std::int64_t{rowPtr[m]} - descrA->base;
  c.require(csrVal != nullptr || nnz <= 0, 5, "csrSortedValA").require(colInd != nullptr || nnz <= 0, 7, "csrSortedColIndA");
  if (!c) return c.status();
  const sp::CsrView csr{m, n, nnz, rowPtr, colInd, const_cast<float*>(csrVal), sp::IndexType::i32, sp::IndexType::i32,
                        descrA->base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, trn::DType::f32};
  const std::int64_t mb = (std::int64_t{m} + blockDim - 1) / blockDim, nnzb = std::int64_t{bsrRowPtr[mb]} - descrC->base;
  const trn::HostStep step{.name = "trnsparse.csr2bsr.convert", .flops = static_cast<double>(std::max<std::int64_t>(nnz, 0)),
                           .reads = {trn::HostSpan(rowPtr, std::int64_t{m} + 1), trn::HostSpan(colInd, nnz), trn::HostSpan(csrVal, nnz),
                                     trn::HostSpan(bsrRowPtr, mb + 1)},
                           .writes = {trn::HostSpan(bsrColInd, nnzb),
                                      trn::HostSpan(bsrVal, span_count(double(nnzb) * blockDim * blockDim))}};
  return run_on_host(h, "trnsparseScsr2bsr",
                     {{"offsets", 6}, {"nnz", 6}, {"columns", 7}, {"values", 5}, {"bsrRowPtrC", 11}, {"bsrValC", 10}}, step,
                     [&] {
                       sp::csr_to_bsr(csr, blockDim, enum_value(dirA) == 0 ? sp::BlockOrder::row : sp::BlockOrder::col,
                                      descrC->base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, bsrRowPtr,
                                      sp::IndexType::i32, bsrColInd, bsrVal);
                     });
}

trnsparseStatus_t trnsparseSbsr2csr(trnsparseHandle_t h, trnsparseDirection_t dirA, int mb, int nb,
                                    const trnsparseMatDescr_t descrA, const float* bsrVal, const int* bsrRowPtr,
                                    const int* bsrColInd, int blockDim, const trnsparseMatDescr_t descrC, float* csrVal,
                                    int* csrRowPtr, int* csrColInd) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSbsr2csr", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.one_of(enum_value(dirA), {0, 1}, 1, "dirA").nonnegative(mb, 2, "mb").nonnegative(nb, 3, "nb");
  c.require(g_mat_descrs.contains(descrA), 4, "descrA").not_null(bsrRowPtr, 6, "bsrSortedRowPtrA");
  c.require(blockDim >= 1, 8, "blockDim").require(g_mat_descrs.contains(descrC), 9, "descrC");
  c.not_null(csrRowPtr, 11, "csrSortedRowPtrC");
  if (!c) return c.status();
  const std::int64_t nnzb = std::int64_t{bsrRowPtr[mb]} - descrA->base;
  c.require(bsrVal != nullptr || nnzb <= 0, 5, "bsrSortedValA").require(bsrColInd != nullptr || nnzb <= 0, 7, "bsrSortedColIndA");
  c.require(nnzb <= 0 || (csrVal != nullptr && csrColInd != nullptr), csrVal == nullptr ? 10 : 12,
            csrVal == nullptr ? "csrSortedValC" : "csrSortedColIndC");
  if (!c) return c.status();
  const sp::BsrView a = legacy_bsr(enum_value(dirA), mb, nb, std::max<std::int64_t>(nnzb, 0), blockDim, descrA, bsrVal,
                                   bsrRowPtr, bsrColInd);
  const std::int64_t stored = span_count(double(nnzb) * blockDim * blockDim);
  const trn::HostStep step{.name = "trnsparse.bsr2csr.convert", .flops = static_cast<double>(stored),
                           .reads = {trn::HostSpan(bsrRowPtr, std::int64_t{mb} + 1), trn::HostSpan(bsrColInd, std::max<std::int64_t>(nnzb, 0)),
                                     trn::HostSpan(bsrVal, stored)},
                           .writes = {trn::HostSpan(csrRowPtr, span_count(double(mb) * blockDim + 1)), trn::HostSpan(csrColInd, stored),
                                      trn::HostSpan(csrVal, stored)}};
  return run_on_host(h, "trnsparseSbsr2csr", {{"offsets", 6}, {"nnz", 6}, {"columns", 7}, {"csrRowPtrC", 11}}, step, [&] {
    sp::bsr_to_csr(a, descrC->base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, csrRowPtr, csrColInd, csrVal,
                   sp::IndexType::i32);
  });
}

}  // extern "C"
