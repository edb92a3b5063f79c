// trnsparse C shim: the general-BSR conversions of the legacy API (issue #28, fourth slice):
// {S,D,C,Z}csr2gebsr (+ _bufferSize, _bufferSizeExt), Xcsr2gebsrNnz, {S,D,C,Z}gebsr2gebsc
// (+ _bufferSize, _bufferSizeExt) over trn/sparse/gebsr.hpp. Positions as cuSPARSE's (handle not
// counted); descriptors of MATRIX_TYPE_GENERAL only; every index array validated before anything
// is written (outputs untouched on error).
#include "capi_internal.hpp"
#include "trn/sparse/gebsr.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

// The CSR operand of csr2gebsr / Xcsr2gebsrNnz: dirA, m, n, descrA, its arrays, the block dims.
struct CsrIn {
  int dir, m, n;
  const trnsparseMatDescr* descr;
  const void* val;  // NULL for Nnz (the pattern only)
  const int *row, *col;
  int rb, cb;
};
struct Pos {
  int val, row, col, rb, cb;
};

Check& csr_in_checks(Check& c, const CsrIn& a, const Pos& p) {
  c.one_of(a.dir, {TRNSPARSE_DIRECTION_ROW, TRNSPARSE_DIRECTION_COLUMN}, 1, "dirA").nonnegative(a.m, 2, "m").nonnegative(a.n, 3, "n");
  c.require(g_mat_descrs.contains(a.descr), 4, "descrA");
  if (!c) return c;
  c.require_or(a.descr->type == TRNSPARSE_MATRIX_TYPE_GENERAL, TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "only TRNSPARSE_MATRIX_TYPE_GENERAL");
  return c.not_null(a.row, p.row, "csrSortedRowPtrA").require(a.rb >= 1, p.rb, "rowBlockDim").require(a.cb >= 1, p.cb, "colBlockDim");
}
// The checks that read the row pointer (its last entry: may the value and column arrays be NULL?),
// made only after every other argument passed: no array is read before then.
Check& csr_in_arrays(Check& c, const CsrIn& a, const Pos& p) {
  if (!c) return c;
  const std::int64_t nnz = std::int64_t{a.row[a.m]} - a.descr->base;
  if (p.val != 0) c.require(a.val != nullptr || nnz <= 0, p.val, "csrSortedValA");
  return c.require(a.col != nullptr || nnz <= 0, p.col, "csrSortedColIndA");
}
sp::CsrView csr_view(const CsrIn& a) {
  const std::int64_t nnz = std::int64_t{a.row[a.m]} - a.descr->base;
  // The pattern-only calls have no values: the view points at the column array (never read as values).
  void* values = const_cast<void*>(a.val != nullptr ? a.val : static_cast<const void*>(a.col));
  return {a.m, a.n, nnz, a.row, a.col, values, sp::IndexType::i32, sp::IndexType::i32, index_base(a.descr->base), trn::DType::f32};
}

template <class S>
trnsparseStatus_t csr2gebsr_size(trnsparseHandle_t h, const char* fn, const CsrIn& a, S* size) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!csr_in_arrays(csr_in_checks(c, a, {5, 6, 7, 8, 9}).not_null(size, 10, "pBufferSize"), a, {5, 6, 7, 8, 9})) return c.status();
  *size = static_cast<S>(kBufferBytes);
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t csr2gebsr_nnz(trnsparseHandle_t h, const CsrIn& a, const trnsparseMatDescr* descrC, int* rowC, int* total) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsparseXcsr2gebsrNnz";
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  csr_in_checks(c, a, {0, 5, 6, 9, 10}).require(g_mat_descrs.contains(descrC), 7, "descrC").not_null(rowC, 8, "bsrSortedRowPtrC");
  if (!csr_in_arrays(c.not_null(total, 11, "nnzTotalDevHostPtr"), a, {0, 5, 6, 9, 10})) return c.status();
  const sp::CsrView csr = csr_view(a);
  const std::int64_t mb = (a.m + a.rb - 1) / a.rb;
  std::vector<std::int32_t> row(static_cast<std::size_t>(mb) + 1);
  std::int64_t nnzb = 0;
  const trnsparseStatus_t st = run(h, fn, {{"offsets", 5}, {"nnz", 5}, {"columns", 6}, {"nnzb", 9}}, [&] {
    nnzb = sp::csr_to_gebsr_nnz(csr, a.rb, a.cb, index_base(descrC->base), row.data());
  });
  if (st != TRNSPARSE_STATUS_SUCCESS) return st;
  std::copy(row.begin(), row.end(), rowC);
  *total = static_cast<int>(nnzb);
  // Host index work: one round trip (the CSR pattern read, the block row offsets and the count back).
  set_host_profile(h, trn::HostStep{.name = "trnsparse.csr2gebsr.nnz", .flops = static_cast<double>(csr.nnz),
                                    .reads = {trn::HostSpan(a.row, std::int64_t{a.m} + 1), trn::HostSpan(a.col, csr.nnz)},
                                    .writes = {trn::HostSpan(rowC, mb + 1), trn::HostSpan(total, 1)}});
  return st;
}

template <class T>
trnsparseStatus_t csr2gebsr(trnsparseHandle_t h, const char* fn, const CsrIn& a, const trnsparseMatDescr* descrC, T* valC,
                            int* rowC, int* colC) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  csr_in_checks(c, a, {5, 6, 7, 12, 13}).require(g_mat_descrs.contains(descrC), 8, "descrC");
  if (!csr_in_arrays(c.not_null(rowC, 10, "bsrSortedRowPtrC"), a, {5, 6, 7, 12, 13})) return c.status();
  const sp::CsrView csr = csr_view(a);
  const sp::BlockOrder order = a.dir == TRNSPARSE_DIRECTION_ROW ? sp::BlockOrder::row : sp::BlockOrder::col;
  const trnsparseStatus_t st =
      run(h, fn, {{"offsets", 6}, {"nnz", 6}, {"columns", 7}, {"values", 5}, {"nnzb", 12}, {"bsrRowPtrC", 10}, {"bsrValC", 9}},
          [&] { sp::csr_to_gebsr(csr, a.rb, a.cb, order, index_base(descrC->base), rowC, colC, valC, sizeof(T)); });
  if (st != TRNSPARSE_STATUS_SUCCESS) return st;
  // Host index work: one round trip (the CSR read, the blocks written back; nnzb as the call left it).
  const std::int64_t mb = (a.m + a.rb - 1) / a.rb, nnzb = std::int64_t{rowC[mb]} - descrC->base;
  set_host_profile(h, trn::HostStep{.name = "trnsparse.csr2gebsr.convert", .flops = static_cast<double>(csr.nnz),
                                    .reads = {trn::HostSpan(a.row, std::int64_t{a.m} + 1), trn::HostSpan(a.col, csr.nnz),
                                              trn::HostSpan(static_cast<const T*>(a.val), csr.nnz)},
                                    .writes = {trn::HostSpan(rowC, mb + 1), trn::HostSpan(colC, nnzb),
                                               trn::HostSpan(valC, nnzb * a.rb * a.cb)}});
  return st;
}

// The general-BSR operand of gebsr2gebsc.
struct BsrIn {
  int mb, nb, nnzb;
  const void* val;
  const int *row, *col;
  int rb, cb;
};
Check& bsr_in_checks(Check& c, const BsrIn& a, bool values_needed) {
  c.nonnegative(a.mb, 1, "mb").nonnegative(a.nb, 2, "nb").nonnegative(a.nnzb, 3, "nnzb");
  c.require(a.val != nullptr || a.nnzb == 0 || !values_needed, 4, "bsrSortedVal").not_null(a.row, 5, "bsrSortedRowPtr");
  return c.require(a.col != nullptr || a.nnzb == 0, 6, "bsrSortedColInd").require(a.rb >= 1, 7, "rowBlockDim").require(a.cb >= 1, 8, "colBlockDim");
}

template <class S>
trnsparseStatus_t gebsc_size(trnsparseHandle_t h, const char* fn, const BsrIn& a, S* size) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!bsr_in_checks(c, a, false).not_null(size, 9, "pBufferSize")) return c.status();
  *size = static_cast<S>(kBufferBytes);
  return TRNSPARSE_STATUS_SUCCESS;
}

template <class T>
trnsparseStatus_t gebsr2gebsc(trnsparseHandle_t h, const char* fn, const BsrIn& a, T* bscVal, int* bscRowInd, int* bscColPtr,
                              int copy, int base) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  const bool numeric = copy == TRNSPARSE_ACTION_NUMERIC;
  bsr_in_checks(c, a, numeric).require(bscVal != nullptr || a.nnzb == 0 || !numeric, 9, "bscVal");
  c.require(bscRowInd != nullptr || a.nnzb == 0, 10, "bscRowInd").not_null(bscColPtr, 11, "bscColPtr");
  if (!c.one_of(copy, {TRNSPARSE_ACTION_SYMBOLIC, TRNSPARSE_ACTION_NUMERIC}, 12, "copyValues").one_of(base, {0, 1}, 13, "idxBase"))
    return c.status();
  // SYMBOLIC reads no values: the view points at the column array then (never read as values).
  const void* values = numeric ? a.val : static_cast<const void*>(a.col);
  const sp::BsrView bsr{a.mb, a.nb, a.nnzb, a.rb, a.cb, a.row, a.col, const_cast<void*>(values), sp::IndexType::i32,
                        sp::IndexType::i32, index_base(base), trn::DType::f32, sp::BlockOrder::row};
  // Host index work: one round trip (the BSR read, the BSC written back), one declared operation per block.
  const std::int64_t cells = numeric ? std::int64_t{a.nnzb} * a.rb * a.cb : 0;
  const trn::HostStep step{.name = "trnsparse.gebsr2gebsc.convert", .flops = static_cast<double>(a.nnzb),
                           .reads = {trn::HostSpan(a.row, std::int64_t{a.mb} + 1), trn::HostSpan(a.col, a.nnzb),
                                     trn::HostSpan(static_cast<const T*>(a.val), cells)},
                           .writes = {trn::HostSpan(bscColPtr, std::int64_t{a.nb} + 1), trn::HostSpan(bscRowInd, a.nnzb),
                                      trn::HostSpan(bscVal, cells)}};
  return run_on_host(h, fn, {{"offsets", 5}, {"bnnz", 3}, {"columns", 6}, {"values", 4}}, step,
                     [&] { sp::gebsr_to_gebsc(bsr, sizeof(T), numeric, bscVal, bscRowInd, bscColPtr); });
}

}  // namespace

extern "C" {
trnsparseStatus_t trnsparseXcsr2gebsrNnz(trnsparseHandle_t h, trnsparseDirection_t dirA, int m, int n,
                                         const trnsparseMatDescr_t descrA, const int* rowA, const int* colA,
                                         const trnsparseMatDescr_t descrC, int* rowC, int rb, int cb, int* total,
                                         void* pBuffer) {
  (void)pBuffer;
  return csr2gebsr_nnz(h, {enum_value(dirA), m, n, descrA, nullptr, rowA, colA, rb, cb}, descrC, rowC, total);
}
trnsparseStatus_t trnsparseScsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const float* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, int* pBufferSize) {
  return csr2gebsr_size(handle, "trnsparseScsr2gebsr_bufferSize",
                        {enum_value(dirA), m, n, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, rowBlockDim, colBlockDim},
                        pBufferSize);
}
trnsparseStatus_t trnsparseScsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const float* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, size_t* pBufferSize) {
  return csr2gebsr_size(handle, "trnsparseScsr2gebsr_bufferSizeExt",
                        {enum_value(dirA), m, n, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, rowBlockDim, colBlockDim},
                        pBufferSize);
}
trnsparseStatus_t trnsparseScsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const float* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    const trnsparseMatDescr_t descrC, float* bsrSortedValC, int* bsrSortedRowPtrC, int* bsrSortedColIndC, int rowBlockDim,
    int colBlockDim, void* pBuffer) {
  (void)pBuffer;
  return csr2gebsr(handle, "trnsparseScsr2gebsr",
                   {enum_value(dirA), m, n, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, rowBlockDim, colBlockDim},
                   descrC, bsrSortedValC, bsrSortedRowPtrC, bsrSortedColIndC);
}
trnsparseStatus_t trnsparseSgebsr2gebsc_bufferSize(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const float* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    int* pBufferSize) {
  return gebsc_size(handle, "trnsparseSgebsr2gebsc_bufferSize",
                    {mb, nb, nnzb, bsrSortedVal, bsrSortedRowPtr, bsrSortedColInd, rowBlockDim, colBlockDim}, pBufferSize);
}
trnsparseStatus_t trnsparseSgebsr2gebsc_bufferSizeExt(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const float* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    size_t* pBufferSize) {
  return gebsc_size(handle, "trnsparseSgebsr2gebsc_bufferSizeExt",
                    {mb, nb, nnzb, bsrSortedVal, bsrSortedRowPtr, bsrSortedColInd, rowBlockDim, colBlockDim}, pBufferSize);
}
trnsparseStatus_t trnsparseSgebsr2gebsc(trnsparseHandle_t handle, int mb, int nb, int nnzb, const float* bsrSortedVal,
    const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim, float* bscVal,
    int* bscRowInd, int* bscColPtr, trnsparseAction_t copyValues, trnsparseIndexBase_t idxBase, void* pBuffer) {
  (void)pBuffer;
  return gebsr2gebsc(handle, "trnsparseSgebsr2gebsc",
                     {mb, nb, nnzb, bsrSortedVal, bsrSortedRowPtr, bsrSortedColInd, rowBlockDim, colBlockDim}, bscVal, bscRowInd,
                     bscColPtr, enum_value(copyValues), enum_value(idxBase));
}
trnsparseStatus_t trnsparseDcsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const double* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, int* pBufferSize) {
  return csr2gebsr_size(handle, "trnsparseDcsr2gebsr_bufferSize",
                        {enum_value(dirA), m, n, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, rowBlockDim, colBlockDim},
                        pBufferSize);
}
trnsparseStatus_t trnsparseDcsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const double* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, size_t* pBufferSize) {
  return csr2gebsr_size(handle, "trnsparseDcsr2gebsr_bufferSizeExt",
                        {enum_value(dirA), m, n, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, rowBlockDim, colBlockDim},
                        pBufferSize);
}
trnsparseStatus_t trnsparseDcsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const double* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    const trnsparseMatDescr_t descrC, double* bsrSortedValC, int* bsrSortedRowPtrC, int* bsrSortedColIndC, int rowBlockDim,
    int colBlockDim, void* pBuffer) {
  (void)pBuffer;
  return csr2gebsr(handle, "trnsparseDcsr2gebsr",
                   {enum_value(dirA), m, n, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, rowBlockDim, colBlockDim},
                   descrC, bsrSortedValC, bsrSortedRowPtrC, bsrSortedColIndC);
}
trnsparseStatus_t trnsparseDgebsr2gebsc_bufferSize(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const double* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    int* pBufferSize) {
  return gebsc_size(handle, "trnsparseDgebsr2gebsc_bufferSize",
                    {mb, nb, nnzb, bsrSortedVal, bsrSortedRowPtr, bsrSortedColInd, rowBlockDim, colBlockDim}, pBufferSize);
}
trnsparseStatus_t trnsparseDgebsr2gebsc_bufferSizeExt(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const double* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    size_t* pBufferSize) {
  return gebsc_size(handle, "trnsparseDgebsr2gebsc_bufferSizeExt",
                    {mb, nb, nnzb, bsrSortedVal, bsrSortedRowPtr, bsrSortedColInd, rowBlockDim, colBlockDim}, pBufferSize);
}
trnsparseStatus_t trnsparseDgebsr2gebsc(trnsparseHandle_t handle, int mb, int nb, int nnzb, const double* bsrSortedVal,
    const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim, double* bscVal,
    int* bscRowInd, int* bscColPtr, trnsparseAction_t copyValues, trnsparseIndexBase_t idxBase, void* pBuffer) {
  (void)pBuffer;
  return gebsr2gebsc(handle, "trnsparseDgebsr2gebsc",
                     {mb, nb, nnzb, bsrSortedVal, bsrSortedRowPtr, bsrSortedColInd, rowBlockDim, colBlockDim}, bscVal, bscRowInd,
                     bscColPtr, enum_value(copyValues), enum_value(idxBase));
}
trnsparseStatus_t trnsparseCcsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const trnComplex* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, int* pBufferSize) {
  return csr2gebsr_size(handle, "trnsparseCcsr2gebsr_bufferSize",
                        {enum_value(dirA), m, n, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, rowBlockDim, colBlockDim},
                        pBufferSize);
}
trnsparseStatus_t trnsparseCcsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const trnComplex* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, size_t* pBufferSize) {
  return csr2gebsr_size(handle, "trnsparseCcsr2gebsr_bufferSizeExt",
                        {enum_value(dirA), m, n, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, rowBlockDim, colBlockDim},
                        pBufferSize);
}
trnsparseStatus_t trnsparseCcsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const trnComplex* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    const trnsparseMatDescr_t descrC, trnComplex* bsrSortedValC, int* bsrSortedRowPtrC, int* bsrSortedColIndC, int rowBlockDim,
    int colBlockDim, void* pBuffer) {
  (void)pBuffer;
  return csr2gebsr(handle, "trnsparseCcsr2gebsr",
                   {enum_value(dirA), m, n, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, rowBlockDim, colBlockDim},
                   descrC, bsrSortedValC, bsrSortedRowPtrC, bsrSortedColIndC);
}
trnsparseStatus_t trnsparseCgebsr2gebsc_bufferSize(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const trnComplex* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    int* pBufferSize) {
  return gebsc_size(handle, "trnsparseCgebsr2gebsc_bufferSize",
                    {mb, nb, nnzb, bsrSortedVal, bsrSortedRowPtr, bsrSortedColInd, rowBlockDim, colBlockDim}, pBufferSize);
}
trnsparseStatus_t trnsparseCgebsr2gebsc_bufferSizeExt(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const trnComplex* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    size_t* pBufferSize) {
  return gebsc_size(handle, "trnsparseCgebsr2gebsc_bufferSizeExt",
                    {mb, nb, nnzb, bsrSortedVal, bsrSortedRowPtr, bsrSortedColInd, rowBlockDim, colBlockDim}, pBufferSize);
}
trnsparseStatus_t trnsparseCgebsr2gebsc(trnsparseHandle_t handle, int mb, int nb, int nnzb, const trnComplex* bsrSortedVal,
    const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim, trnComplex* bscVal,
    int* bscRowInd, int* bscColPtr, trnsparseAction_t copyValues, trnsparseIndexBase_t idxBase, void* pBuffer) {
  (void)pBuffer;
  return gebsr2gebsc(handle, "trnsparseCgebsr2gebsc",
                     {mb, nb, nnzb, bsrSortedVal, bsrSortedRowPtr, bsrSortedColInd, rowBlockDim, colBlockDim}, bscVal, bscRowInd,
                     bscColPtr, enum_value(copyValues), enum_value(idxBase));
}
trnsparseStatus_t trnsparseZcsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const trnDoubleComplex* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, int* pBufferSize) {
  return csr2gebsr_size(handle, "trnsparseZcsr2gebsr_bufferSize",
                        {enum_value(dirA), m, n, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, rowBlockDim, colBlockDim},
                        pBufferSize);
}
trnsparseStatus_t trnsparseZcsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const trnDoubleComplex* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    int rowBlockDim, int colBlockDim, size_t* pBufferSize) {
  return csr2gebsr_size(handle, "trnsparseZcsr2gebsr_bufferSizeExt",
                        {enum_value(dirA), m, n, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, rowBlockDim, colBlockDim},
                        pBufferSize);
}
trnsparseStatus_t trnsparseZcsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int m, int n,
    const trnsparseMatDescr_t descrA, const trnDoubleComplex* csrSortedValA, const int* csrSortedRowPtrA, const int* csrSortedColIndA,
    const trnsparseMatDescr_t descrC, trnDoubleComplex* bsrSortedValC, int* bsrSortedRowPtrC, int* bsrSortedColIndC, int rowBlockDim,
    int colBlockDim, void* pBuffer) {
  (void)pBuffer;
  return csr2gebsr(handle, "trnsparseZcsr2gebsr",
                   {enum_value(dirA), m, n, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, rowBlockDim, colBlockDim},
                   descrC, bsrSortedValC, bsrSortedRowPtrC, bsrSortedColIndC);
}
trnsparseStatus_t trnsparseZgebsr2gebsc_bufferSize(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const trnDoubleComplex* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    int* pBufferSize) {
  return gebsc_size(handle, "trnsparseZgebsr2gebsc_bufferSize",
                    {mb, nb, nnzb, bsrSortedVal, bsrSortedRowPtr, bsrSortedColInd, rowBlockDim, colBlockDim}, pBufferSize);
}
trnsparseStatus_t trnsparseZgebsr2gebsc_bufferSizeExt(trnsparseHandle_t handle, int mb, int nb, int nnzb,
    const trnDoubleComplex* bsrSortedVal, const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim,
    size_t* pBufferSize) {
  return gebsc_size(handle, "trnsparseZgebsr2gebsc_bufferSizeExt",
                    {mb, nb, nnzb, bsrSortedVal, bsrSortedRowPtr, bsrSortedColInd, rowBlockDim, colBlockDim}, pBufferSize);
}
trnsparseStatus_t trnsparseZgebsr2gebsc(trnsparseHandle_t handle, int mb, int nb, int nnzb, const trnDoubleComplex* bsrSortedVal,
    const int* bsrSortedRowPtr, const int* bsrSortedColInd, int rowBlockDim, int colBlockDim, trnDoubleComplex* bscVal,
    int* bscRowInd, int* bscColPtr, trnsparseAction_t copyValues, trnsparseIndexBase_t idxBase, void* pBuffer) {
  (void)pBuffer;
  return gebsr2gebsc(handle, "trnsparseZgebsr2gebsc",
                     {mb, nb, nnzb, bsrSortedVal, bsrSortedRowPtr, bsrSortedColInd, rowBlockDim, colBlockDim}, bscVal, bscRowInd,
                     bscColPtr, enum_value(copyValues), enum_value(idxBase));
}

}  // extern "C"
