// trnsparse C shim: the Sliced-ELL descriptors (cusparseCreateSlicedEll / CreateConstSlicedEll,
// cuSPARSE 12). SpMV, SpMM and SpSV take them through their own entry points (trn/sparse/sell.hpp).
#include "capi_internal.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

// Argument positions as cuSPARSE's: 1 spMatDescr, 2 rows, 3 cols, 4 nnz, 5 sellValuesSize,
// 6 sliceSize, 7 sellSliceOffsets, 8 sellColInd, 9 sellValues, 10 / 11 index types, 12 idxBase,
// 13 valueType. The index arrays are validated by the compute calls (as every format here).
trnsparseStatus_t create_sell(trnsparseSpMatDescr_t* d, const sp::SellView& v, int ot, int ct, int base, int vt,
                              bool is_const, const char* fn) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "spMatDescr").nonnegative(v.rows, 2, "rows").nonnegative(v.cols, 3, "cols").nonnegative(v.nnz, 4, "nnz");
  c.require(v.values_size >= v.nnz, 5, "sellValuesSize").require(v.slice_size >= 1, 6, "sliceSize");
  c.require(v.slice_offsets != nullptr || (v.rows == 0 && v.values_size == 0), 7, "sellSliceOffsets");
  c.require(v.columns != nullptr || v.values_size == 0, 8, "sellColInd").require(v.values != nullptr || v.values_size == 0, 9, "sellValues");
  c.one_of(ot, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 10, "sellSliceOffsetsType");
  c.one_of(ct, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 11, "sellColIndType").one_of(base, {0, 1}, 12, "idxBase");
  c.require(is_known_value_type(vt), 13, "valueType");
  if (!c) return c.status();
  auto* m = new (std::nothrow) trnsparseSpMatDescr;
  if (m == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  m->format = TRNSPARSE_FORMAT_SLICED_ELLPACK;
  m->sell = v;
  m->sell.offsets_type = index_type(ot);
  m->sell.columns_type = index_type(ct);
  m->sell.base = index_base(base);
  return publish_spmat(m, d, &m->sell.value_type, vt, base, is_const);
}

sp::SellView sell_view(int64_t rows, int64_t cols, int64_t nnz, int64_t size, int64_t slice, const void* off, const void* col,
                       const void* val) {
  sp::SellView v;
  v.rows = rows;
  v.cols = cols;
  v.nnz = nnz;
  v.values_size = size;
  v.slice_size = slice;
  v.slice_offsets = off;
  v.columns = col;
  v.values = const_cast<void*>(val);
  return v;
}

}  // namespace

extern "C" {

trnsparseStatus_t trnsparseCreateSlicedEll(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz,
                                           int64_t sellValuesSize, int64_t sliceSize, void* off, void* col, void* val,
                                           trnsparseIndexType_t ot, trnsparseIndexType_t ct, trnsparseIndexBase_t base,
                                           trnDataType_t vt) {
  return create_sell(d, sell_view(rows, cols, nnz, sellValuesSize, sliceSize, off, col, val), enum_value(ot), enum_value(ct),
                     enum_value(base), enum_value(vt), false, "trnsparseCreateSlicedEll");
}
trnsparseStatus_t trnsparseCreateConstSlicedEll(trnsparseConstSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz,
                                                int64_t sellValuesSize, int64_t sliceSize, const void* off,
                                                const void* col, const void* val, trnsparseIndexType_t ot,
                                                trnsparseIndexType_t ct, trnsparseIndexBase_t base, trnDataType_t vt) {
  trnsparseSpMatDescr_t m = nullptr;
  const trnsparseStatus_t st =
      create_sell(d != nullptr ? &m : nullptr, sell_view(rows, cols, nnz, sellValuesSize, sliceSize, off, col, val),
                  enum_value(ot), enum_value(ct), enum_value(base), enum_value(vt), true, "trnsparseCreateConstSlicedEll");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = m;
  return st;
}

}  // extern "C"
