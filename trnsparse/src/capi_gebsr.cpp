// trnsparse C shim: the general-BSR conversions of the legacy API (issue #28, fourth slice):
// {S,D,C,Z}csr2gebsr (+ _bufferSize, _bufferSizeExt), Xcsr2gebsrNnz, {S,D,C,Z}gebsr2gebsc
// (+ _bufferSize, _bufferSizeExt), {S,D,C,Z}gebsr2gebsr (+ _bufferSize, _bufferSizeExt),
// Xgebsr2gebsrNnz, {X,S,D,C,Z}gebsr2csr over trn/sparse/gebsr.hpp. Positions as cuSPARSE's (handle not
// counted); descriptors of MATRIX_TYPE_GENERAL only; every index array validated before anything
// is written (outputs untouched on error).
#include <climits>

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


// ---- gebsr2gebsr / gebsr2csr ------------------------------------------------------------------
// The general-BSR operand A: dirA, mb, nb, nnzb (gebsr2csr has none: -1, read from the row
// pointer), descrA, its arrays (val NULL for the pattern-only calls), its block dims.
struct GebsrIn {
  int dir, mb, nb, nnzb;
  const trnsparseMatDescr* descr;
  const void* val;
  const int *row, *col;
  int rb, cb;
};
// cuSPARSE's positions of A's arguments (0: the call has no such argument).
struct GebsrPos {
  int nnzb, descr, val, row, col, rb, cb;
};
constexpr GebsrPos kGebsr2gebsrPos{4, 5, 6, 7, 8, 9, 10};  // _bufferSize and gebsr2gebsr
constexpr GebsrPos kGebsrNnzPos{4, 5, 0, 6, 7, 8, 9};      // Xgebsr2gebsrNnz
constexpr GebsrPos kGebsr2csrPos{0, 4, 5, 6, 7, 8, 9};     // <t>gebsr2csr
constexpr GebsrPos kXgebsr2csrPos{0, 4, 0, 5, 6, 7, 8};    // Xgebsr2csr

// dirA, mb, nb, nnzb, descrA (GENERAL only), the arrays, the block dims, in cuSPARSE's order.
// gebsr2csr has no nnzb: whether its value and column arrays may be NULL depends on the row
// pointer's last entry, so those two are checked by gebsr_in_arrays, after every other argument
// (no array is read before then).
Check& gebsr_in_checks(Check& c, const GebsrIn& a, const GebsrPos& p) {
  c.one_of(a.dir, {TRNSPARSE_DIRECTION_ROW, TRNSPARSE_DIRECTION_COLUMN}, 1, "dirA").nonnegative(a.mb, 2, "mb").nonnegative(a.nb, 3, "nb");
  if (p.nnzb != 0) c.nonnegative(a.nnzb, p.nnzb, "nnzb");
  c.require(g_mat_descrs.contains(a.descr), p.descr, "descrA");
  if (!c) return c;
  c.require_or(a.descr->type == TRNSPARSE_MATRIX_TYPE_GENERAL, TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "only TRNSPARSE_MATRIX_TYPE_GENERAL");
  if (p.nnzb != 0 && p.val != 0) c.require(a.val != nullptr || a.nnzb == 0, p.val, "bsrSortedValA");
  c.not_null(a.row, p.row, "bsrSortedRowPtrA");
  if (p.nnzb != 0) c.require(a.col != nullptr || a.nnzb == 0, p.col, "bsrSortedColIndA");
  c.require(a.rb >= 1, p.rb, "rowBlockDimA").require(a.cb >= 1, p.cb, "colBlockDimA");
  // m = mb rowBlockDimA and n = nb colBlockDimA are ints in cuSPARSE (and C's row pointer has m + 1
  // entries at most): checked here, before any buffer is sized from them.
  return c.require(std::int64_t{a.mb} * a.rb <= INT_MAX, p.rb, "rowBlockDimA").require(std::int64_t{a.nb} * a.cb <= INT_MAX, p.cb, "colBlockDimA");
}
Check& gebsr_in_arrays(Check& c, const GebsrIn& a, const GebsrPos& p) {
  if (!c || p.nnzb != 0) return c;
  const std::int64_t nnzb = std::int64_t{a.row[a.mb]} - a.descr->base;
  if (p.val != 0) c.require(a.val != nullptr || nnzb <= 0, p.val, "bsrSortedValA");
  return c.require(a.col != nullptr || nnzb <= 0, p.col, "bsrSortedColIndA");
}
std::int64_t nnzb_of(const GebsrIn& a) { return a.nnzb >= 0 ? a.nnzb : std::max(std::int64_t{a.row[a.mb]} - a.descr->base, std::int64_t{0}); }
sp::BsrView gebsr_view(const GebsrIn& a) {
  // The pattern-only calls have no values: the view points at the column array (never read as values).
  void* values = const_cast<void*>(a.val != nullptr ? a.val : static_cast<const void*>(a.col));
  return {a.mb, a.nb, nnzb_of(a), a.rb, a.cb, a.row, a.col, values, sp::IndexType::i32, sp::IndexType::i32,
          index_base(a.descr->base), trn::DType::f32, a.dir == TRNSPARSE_DIRECTION_ROW ? sp::BlockOrder::row : sp::BlockOrder::col};
}
// The host round trip of a general-BSR conversion (docs/cost-model.md section 7): A's arrays read,
// C's written back, one declared operation per value moved (or per block, pattern only).
template <class T>
trn::HostStep gebsr_step(const char* name, const GebsrIn& a, std::int64_t rows_c, const int* row_c, const int* col_c, const T* val_c,
                         std::pair<std::int64_t, std::int64_t> entries_c) {
  const std::int64_t nnzb = nnzb_of(a), cells = a.val != nullptr ? span_count(double(nnzb) * a.rb * a.cb) : 0;
  return trn::HostStep{.name = name, .flops = static_cast<double>(a.val != nullptr ? cells : nnzb),
                       .reads = {trn::HostSpan(a.row, std::int64_t{a.mb} + 1), trn::HostSpan(a.col, nnzb),
                                 trn::HostSpan(static_cast<const T*>(a.val), cells)},
                       .writes = {trn::HostSpan(row_c, rows_c + 1), trn::HostSpan(col_c, entries_c.first),
                                  trn::HostSpan(val_c, val_c != nullptr ? entries_c.second : 0)}};
}

template <class S>
trnsparseStatus_t gebsr2gebsr_size(trnsparseHandle_t h, const char* fn, const GebsrIn& a, int rbc, int cbc, S* size) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  gebsr_in_checks(c, a, kGebsr2gebsrPos).require(rbc >= 1, 11, "rowBlockDimC").require(cbc >= 1, 12, "colBlockDimC");
  if (!c.not_null(size, 13, "pBufferSize")) return c.status();
  *size = static_cast<S>(kBufferBytes);
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t gebsr2gebsr_nnz(trnsparseHandle_t h, const GebsrIn& a, const trnsparseMatDescr* descrC, int* rowC, int rbc,
                                  int cbc, int* total) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  const char* fn = "trnsparseXgebsr2gebsrNnz";
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  gebsr_in_checks(c, a, kGebsrNnzPos).require(g_mat_descrs.contains(descrC), 10, "descrC").not_null(rowC, 11, "bsrSortedRowPtrC");
  c.require(rbc >= 1, 12, "rowBlockDimC").require(cbc >= 1, 13, "colBlockDimC");
  if (!c.not_null(total, 14, "nnzTotalDevHostPtr")) return c.status();
  const sp::BsrView bsr = gebsr_view(a);
  const std::int64_t mbc = (bsr.rows() + rbc - 1) / rbc;
  std::vector<std::int32_t> row;
  std::int64_t nnzb = 0;
  const trnsparseStatus_t st = run(h, fn, {{"offsets", 6}, {"nnz", 4}, {"columns", 7}, {"brows", 8}, {"nnzbC", 12}}, [&] {
    row.resize(static_cast<std::size_t>(mbc) + 1);  // mbc is meaningful only once the shape passed
    nnzb = sp::gebsr_to_gebsr_nnz(bsr, rbc, cbc, index_base(descrC->base), row.data());
  });
  if (st != TRNSPARSE_STATUS_SUCCESS) return st;
  std::copy(row.begin(), row.end(), rowC);
  *total = static_cast<int>(nnzb);
  set_host_profile(h, gebsr_step<float>("trnsparse.gebsr2gebsr.nnz", a, mbc, rowC, total, nullptr, {1, 0}));
  return st;
}

template <class T>
trnsparseStatus_t gebsr2gebsr(trnsparseHandle_t h, const char* fn, const GebsrIn& a, const trnsparseMatDescr* descrC, T* valC,
                              int* rowC, int* colC, int rbc, int cbc) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  gebsr_in_checks(c, a, kGebsr2gebsrPos).require(g_mat_descrs.contains(descrC), 11, "descrC");
  c.require(valC != nullptr || a.nnzb <= 0, 12, "bsrSortedValC").not_null(rowC, 13, "bsrSortedRowPtrC");
  c.require(colC != nullptr || a.nnzb <= 0, 14, "bsrSortedColIndC");
  if (!c.require(rbc >= 1, 15, "rowBlockDimC").require(cbc >= 1, 16, "colBlockDimC")) return c.status();
  const sp::BsrView bsr = gebsr_view(a);
  const trnsparseStatus_t st = run(h, fn,
                                   {{"offsets", 7}, {"nnz", 4}, {"columns", 8}, {"values", 6}, {"brows", 9}, {"bsrRowPtrC", 13},
                                    {"bsrColIndC", 14}, {"bsrValC", 12}, {"nnzbC", 15}},
                                   [&] {
    sp::gebsr_to_gebsr(bsr, sizeof(T), rbc, cbc, index_base(descrC->base), rowC, colC, valC);
  });
  if (st != TRNSPARSE_STATUS_SUCCESS) return st;
  const std::int64_t mbc = (bsr.rows() + rbc - 1) / rbc, nnzbc = std::int64_t{rowC[mbc]} - descrC->base;
  set_host_profile(h, gebsr_step("trnsparse.gebsr2gebsr.convert", a, mbc, rowC, colC, valC,
                                 {nnzbc, span_count(double(nnzbc) * rbc * cbc)}));
  return st;
}

// <t>gebsr2csr (valC != NULL) and Xgebsr2csr (a.val and valC NULL): positions p, C's descrC, rowC,
// colC (and valC) after A's.
template <class T>
trnsparseStatus_t gebsr2csr(trnsparseHandle_t h, const char* fn, const GebsrIn& a, const GebsrPos& p,
                            const trnsparseMatDescr* descrC, T* valC, int* rowC, int* colC) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  const bool numeric = p.val != 0;
  const int at = p.cb + 1;  // descrC, then (valC,) rowC, colC
  gebsr_in_checks(c, a, p).require(g_mat_descrs.contains(descrC), at, "descrC").not_null(rowC, at + 1 + int{numeric}, "csrSortedRowPtrC");
  const bool stored = gebsr_in_arrays(c, a, p) && nnzb_of(a) > 0;
  if (numeric) c.require(valC != nullptr || !stored, at + 1, "csrSortedValC");
  if (!c.require(colC != nullptr || !stored, at + 2 + int{numeric}, "csrSortedColIndC")) return c.status();
  const sp::BsrView bsr = gebsr_view(a);
  const auto body = [&] { sp::gebsr_to_csr(bsr, sizeof(T), index_base(descrC->base), rowC, colC, valC); };
  // The C++ layer's array names -> cuSPARSE's positions ("nnz": the row pointer's last entry).
  const trnsparseStatus_t st =
      numeric ? run(h, fn, {{"offsets", 6}, {"nnz", 6}, {"columns", 7}, {"values", 5}, {"brows", 8}, {"nnzbC", 8}, {"csrColIndC", 13}}, body)
              : run(h, fn, {{"offsets", 5}, {"nnz", 5}, {"columns", 6}, {"brows", 7}, {"nnzbC", 7}, {"csrColIndC", 11}}, body);
  if (st != TRNSPARSE_STATUS_SUCCESS) return st;
  const std::int64_t m = bsr.rows(), nnz = std::int64_t{rowC[m]} - descrC->base;
  set_host_profile(h, gebsr_step(numeric ? "trnsparse.gebsr2csr.convert" : "trnsparse.gebsr2csr.pattern", a, m, rowC, colC,
                                 valC, {nnz, nnz}));
  return st;
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

trnsparseStatus_t trnsparseXgebsr2gebsrNnz(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb, int nnzb,
    const trnsparseMatDescr_t descrA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA, int rowBlockDimA,
    int colBlockDimA, const trnsparseMatDescr_t descrC, int* bsrSortedRowPtrC, int rowBlockDimC, int colBlockDimC,
    int* nnzTotalDevHostPtr, void* pBuffer) {
  (void)pBuffer;
  return gebsr2gebsr_nnz(handle, {enum_value(dirA), mb, nb, nnzb, descrA, nullptr, bsrSortedRowPtrA, bsrSortedColIndA, rowBlockDimA,
                                  colBlockDimA}, descrC, bsrSortedRowPtrC, rowBlockDimC, colBlockDimC, nnzTotalDevHostPtr);
}
trnsparseStatus_t trnsparseXgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    const trnsparseMatDescr_t descrA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA, int rowBlockDim, int colBlockDim,
    const trnsparseMatDescr_t descrC, int* csrSortedRowPtrC, int* csrSortedColIndC) {
  return gebsr2csr<float>(handle, "trnsparseXgebsr2csr", {enum_value(dirA), mb, nb, -1, descrA, nullptr, bsrSortedRowPtrA,
                          bsrSortedColIndA, rowBlockDim, colBlockDim}, kXgebsr2csrPos, descrC, nullptr, csrSortedRowPtrC,
                          csrSortedColIndC);
}
trnsparseStatus_t trnsparseSgebsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const float* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, int* pBufferSize) {
  return gebsr2gebsr_size(handle, "trnsparseSgebsr2gebsr_bufferSize", {enum_value(dirA), mb, nb, nnzb, descrA, bsrSortedValA,
                          bsrSortedRowPtrA, bsrSortedColIndA, rowBlockDimA, colBlockDimA}, rowBlockDimC, colBlockDimC, pBufferSize);
}
trnsparseStatus_t trnsparseSgebsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const float* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, size_t* pBufferSize) {
  return gebsr2gebsr_size(handle, "trnsparseSgebsr2gebsr_bufferSizeExt", {enum_value(dirA), mb, nb, nnzb, descrA, bsrSortedValA,
                          bsrSortedRowPtrA, bsrSortedColIndA, rowBlockDimA, colBlockDimA}, rowBlockDimC, colBlockDimC, pBufferSize);
}
trnsparseStatus_t trnsparseSgebsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb, int nnzb,
    const trnsparseMatDescr_t descrA, const float* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, const trnsparseMatDescr_t descrC, float* bsrSortedValC, int* bsrSortedRowPtrC,
    int* bsrSortedColIndC, int rowBlockDimC, int colBlockDimC, void* pBuffer) {
  (void)pBuffer;
  return gebsr2gebsr(handle, "trnsparseSgebsr2gebsr", {enum_value(dirA), mb, nb, nnzb, descrA, bsrSortedValA, bsrSortedRowPtrA,
                     bsrSortedColIndA, rowBlockDimA, colBlockDimA}, descrC, bsrSortedValC, bsrSortedRowPtrC, bsrSortedColIndC,
                     rowBlockDimC, colBlockDimC);
}
trnsparseStatus_t trnsparseSgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    const trnsparseMatDescr_t descrA, const float* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDim, int colBlockDim, const trnsparseMatDescr_t descrC, float* csrSortedValC, int* csrSortedRowPtrC,
    int* csrSortedColIndC) {
  return gebsr2csr(handle, "trnsparseSgebsr2csr", {enum_value(dirA), mb, nb, -1, descrA, bsrSortedValA, bsrSortedRowPtrA,
                   bsrSortedColIndA, rowBlockDim, colBlockDim}, kGebsr2csrPos, descrC, csrSortedValC, csrSortedRowPtrC,
                   csrSortedColIndC);
}
trnsparseStatus_t trnsparseDgebsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const double* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, int* pBufferSize) {
  return gebsr2gebsr_size(handle, "trnsparseDgebsr2gebsr_bufferSize", {enum_value(dirA), mb, nb, nnzb, descrA, bsrSortedValA,
                          bsrSortedRowPtrA, bsrSortedColIndA, rowBlockDimA, colBlockDimA}, rowBlockDimC, colBlockDimC, pBufferSize);
}
trnsparseStatus_t trnsparseDgebsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const double* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, size_t* pBufferSize) {
  return gebsr2gebsr_size(handle, "trnsparseDgebsr2gebsr_bufferSizeExt", {enum_value(dirA), mb, nb, nnzb, descrA, bsrSortedValA,
                          bsrSortedRowPtrA, bsrSortedColIndA, rowBlockDimA, colBlockDimA}, rowBlockDimC, colBlockDimC, pBufferSize);
}
trnsparseStatus_t trnsparseDgebsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb, int nnzb,
    const trnsparseMatDescr_t descrA, const double* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, const trnsparseMatDescr_t descrC, double* bsrSortedValC, int* bsrSortedRowPtrC,
    int* bsrSortedColIndC, int rowBlockDimC, int colBlockDimC, void* pBuffer) {
  (void)pBuffer;
  return gebsr2gebsr(handle, "trnsparseDgebsr2gebsr", {enum_value(dirA), mb, nb, nnzb, descrA, bsrSortedValA, bsrSortedRowPtrA,
                     bsrSortedColIndA, rowBlockDimA, colBlockDimA}, descrC, bsrSortedValC, bsrSortedRowPtrC, bsrSortedColIndC,
                     rowBlockDimC, colBlockDimC);
}
trnsparseStatus_t trnsparseDgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    const trnsparseMatDescr_t descrA, const double* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDim, int colBlockDim, const trnsparseMatDescr_t descrC, double* csrSortedValC, int* csrSortedRowPtrC,
    int* csrSortedColIndC) {
  return gebsr2csr(handle, "trnsparseDgebsr2csr", {enum_value(dirA), mb, nb, -1, descrA, bsrSortedValA, bsrSortedRowPtrA,
                   bsrSortedColIndA, rowBlockDim, colBlockDim}, kGebsr2csrPos, descrC, csrSortedValC, csrSortedRowPtrC,
                   csrSortedColIndC);
}
trnsparseStatus_t trnsparseCgebsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const trnComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, int* pBufferSize) {
  return gebsr2gebsr_size(handle, "trnsparseCgebsr2gebsr_bufferSize", {enum_value(dirA), mb, nb, nnzb, descrA, bsrSortedValA,
                          bsrSortedRowPtrA, bsrSortedColIndA, rowBlockDimA, colBlockDimA}, rowBlockDimC, colBlockDimC, pBufferSize);
}
trnsparseStatus_t trnsparseCgebsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const trnComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, size_t* pBufferSize) {
  return gebsr2gebsr_size(handle, "trnsparseCgebsr2gebsr_bufferSizeExt", {enum_value(dirA), mb, nb, nnzb, descrA, bsrSortedValA,
                          bsrSortedRowPtrA, bsrSortedColIndA, rowBlockDimA, colBlockDimA}, rowBlockDimC, colBlockDimC, pBufferSize);
}
trnsparseStatus_t trnsparseCgebsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb, int nnzb,
    const trnsparseMatDescr_t descrA, const trnComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, const trnsparseMatDescr_t descrC, trnComplex* bsrSortedValC, int* bsrSortedRowPtrC,
    int* bsrSortedColIndC, int rowBlockDimC, int colBlockDimC, void* pBuffer) {
  (void)pBuffer;
  return gebsr2gebsr(handle, "trnsparseCgebsr2gebsr", {enum_value(dirA), mb, nb, nnzb, descrA, bsrSortedValA, bsrSortedRowPtrA,
                     bsrSortedColIndA, rowBlockDimA, colBlockDimA}, descrC, bsrSortedValC, bsrSortedRowPtrC, bsrSortedColIndC,
                     rowBlockDimC, colBlockDimC);
}
trnsparseStatus_t trnsparseCgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    const trnsparseMatDescr_t descrA, const trnComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDim, int colBlockDim, const trnsparseMatDescr_t descrC, trnComplex* csrSortedValC, int* csrSortedRowPtrC,
    int* csrSortedColIndC) {
  return gebsr2csr(handle, "trnsparseCgebsr2csr", {enum_value(dirA), mb, nb, -1, descrA, bsrSortedValA, bsrSortedRowPtrA,
                   bsrSortedColIndA, rowBlockDim, colBlockDim}, kGebsr2csrPos, descrC, csrSortedValC, csrSortedRowPtrC,
                   csrSortedColIndC);
}
trnsparseStatus_t trnsparseZgebsr2gebsr_bufferSize(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const trnDoubleComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, int* pBufferSize) {
  return gebsr2gebsr_size(handle, "trnsparseZgebsr2gebsr_bufferSize", {enum_value(dirA), mb, nb, nnzb, descrA, bsrSortedValA,
                          bsrSortedRowPtrA, bsrSortedColIndA, rowBlockDimA, colBlockDimA}, rowBlockDimC, colBlockDimC, pBufferSize);
}
trnsparseStatus_t trnsparseZgebsr2gebsr_bufferSizeExt(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    int nnzb, const trnsparseMatDescr_t descrA, const trnDoubleComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, int rowBlockDimC, int colBlockDimC, size_t* pBufferSize) {
  return gebsr2gebsr_size(handle, "trnsparseZgebsr2gebsr_bufferSizeExt", {enum_value(dirA), mb, nb, nnzb, descrA, bsrSortedValA,
                          bsrSortedRowPtrA, bsrSortedColIndA, rowBlockDimA, colBlockDimA}, rowBlockDimC, colBlockDimC, pBufferSize);
}
trnsparseStatus_t trnsparseZgebsr2gebsr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb, int nnzb,
    const trnsparseMatDescr_t descrA, const trnDoubleComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDimA, int colBlockDimA, const trnsparseMatDescr_t descrC, trnDoubleComplex* bsrSortedValC, int* bsrSortedRowPtrC,
    int* bsrSortedColIndC, int rowBlockDimC, int colBlockDimC, void* pBuffer) {
  (void)pBuffer;
  return gebsr2gebsr(handle, "trnsparseZgebsr2gebsr", {enum_value(dirA), mb, nb, nnzb, descrA, bsrSortedValA, bsrSortedRowPtrA,
                     bsrSortedColIndA, rowBlockDimA, colBlockDimA}, descrC, bsrSortedValC, bsrSortedRowPtrC, bsrSortedColIndC,
                     rowBlockDimC, colBlockDimC);
}
trnsparseStatus_t trnsparseZgebsr2csr(trnsparseHandle_t handle, trnsparseDirection_t dirA, int mb, int nb,
    const trnsparseMatDescr_t descrA, const trnDoubleComplex* bsrSortedValA, const int* bsrSortedRowPtrA, const int* bsrSortedColIndA,
    int rowBlockDim, int colBlockDim, const trnsparseMatDescr_t descrC, trnDoubleComplex* csrSortedValC, int* csrSortedRowPtrC,
    int* csrSortedColIndC) {
  return gebsr2csr(handle, "trnsparseZgebsr2csr", {enum_value(dirA), mb, nb, -1, descrA, bsrSortedValA, bsrSortedRowPtrA,
                   bsrSortedColIndA, rowBlockDim, colBlockDim}, kGebsr2csrPos, descrC, csrSortedValC, csrSortedRowPtrC,
                   csrSortedColIndC);
}

}  // extern "C"
