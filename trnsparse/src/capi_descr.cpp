// trnsparse C shim: the legacy matrix descriptor and the generic descriptors (sparse matrix, dense
// matrix, dense vector) with their getters and setters.
#include "capi_internal.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

trnsparseStatus_t create_bsr(trnsparseSpMatDescr_t* d, int64_t brows, int64_t bcols, int64_t bnnz, int64_t rb, int64_t cb,
                             const void* off, const void* col, const void* val, int ot, int ct, int base, int vt, int order,
                             bool is_const, const char* fn) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "spMatDescr").nonnegative(brows, 2, "brows").nonnegative(bcols, 3, "bcols").nonnegative(bnnz, 4, "bnnz");
  c.require(rb >= 1, 5, "rowBlockSize").require(cb >= 1, 6, "colBlockSize");
  c.require(trn::cshim::checked_mul(brows, rb) >= 0 && trn::cshim::checked_mul(bcols, cb) >= 0 &&
                trn::cshim::checked_mul(trn::cshim::checked_mul(rb, cb), std::max<int64_t>(bnnz, 1)) >= 0,
            5, "rowBlockSize");
  // Arrays may be NULL at creation (an SpGEMM output gets them later via BsrSetPointers); compute
  // calls validate them.
  (void)off;
  c.require(col != nullptr || bnnz == 0, 8, "bsrColInd").require(val != nullptr || bnnz == 0, 9, "bsrValues");
  c.one_of(ot, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 10, "bsrRowOffsetsType");
  c.one_of(ct, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 11, "bsrColIndType").one_of(base, {0, 1}, 12, "idxBase");
  c.require(is_known_value_type(vt), 13, "valueType").one_of(order, {TRNSPARSE_ORDER_COL, TRNSPARSE_ORDER_ROW}, 14, "order");
  if (!c) return c.status();
  auto* m = new (std::nothrow) trnsparseSpMatDescr;
  if (m == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  m->format = TRNSPARSE_FORMAT_BSR;
  m->bsr = sp::BsrView{brows, bcols, bnnz, rb, cb, off, col, const_cast<void*>(val), index_type(ot), index_type(ct),
                       base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, trn::DType::f32,
                       order == TRNSPARSE_ORDER_ROW ? sp::BlockOrder::row : sp::BlockOrder::col};
  return publish_spmat(m, d, &m->bsr.value_type, vt, base, is_const);
}

// CSR, or CSC (csc: offsets per column, row indices; the same argument positions).
trnsparseStatus_t create_csr(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz, const void* off,
                             const void* col, const void* val, int ot, int ct, int base, int vt, bool is_const,
                             const char* fn, bool csc = false) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "spMatDescr").nonnegative(rows, 2, "rows").nonnegative(cols, 3, "cols").nonnegative(nnz, 4, "nnz");
  c.require(off != nullptr || (csc ? cols : rows) == 0, 5, csc ? "cscColOffsets" : "csrRowOffsets");
  c.require(col != nullptr || nnz == 0, 6, csc ? "cscRowInd" : "csrColInd");
  c.require(val != nullptr || nnz == 0, 7, csc ? "cscValues" : "csrValues");
  c.one_of(ot, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 8, csc ? "cscColOffsetsType" : "csrRowOffsetsType");
  c.one_of(ct, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 9, csc ? "cscRowIndType" : "csrColIndType");
  c.one_of(base, {0, 1}, 10, "idxBase").require(is_known_value_type(vt), 11, "valueType");
  if (!c) return c.status();
  auto* m = new (std::nothrow) trnsparseSpMatDescr;
  if (m == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  const sp::IndexBase b = base == 1 ? sp::IndexBase::one : sp::IndexBase::zero;
  m->format = csc ? TRNSPARSE_FORMAT_CSC : TRNSPARSE_FORMAT_CSR;
  trn::DType tile = trn::DType::f32;
  (void)value_dtype(vt, &tile);
  m->csr = sp::CsrView{rows, cols, nnz, off, col, const_cast<void*>(val), index_type(ot), index_type(ct), b, tile};
  m->csc = sp::CscView{rows, cols, nnz, off, col, const_cast<void*>(val), index_type(ot), index_type(ct), b, tile};
  return publish_spmat(m, d, &m->csr.value_type, vt, base, is_const);
}

trnsparseStatus_t create_ell(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t bs, int64_t ell_cols,
                             const void* ci, const void* val, int it, int base, int vt, bool is_const, const char* fn) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "spMatDescr").nonnegative(rows, 2, "rows").nonnegative(cols, 3, "cols");
  c.require(bs >= 1 && rows % std::max<int64_t>(bs, 1) == 0 && cols % std::max<int64_t>(bs, 1) == 0, 4, "ellBlockSize");
  c.require(ell_cols >= 0 && ell_cols <= cols && ell_cols % std::max<int64_t>(bs, 1) == 0 &&
                trn::cshim::checked_mul(rows, ell_cols) >= 0,
            5, "ellCols");
  const bool stored = rows > 0 && ell_cols > 0;
  c.require(ci != nullptr || !stored, 6, "ellColInd").require(val != nullptr || !stored, 7, "ellValue");
  c.one_of(it, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 8, "ellIdxType").one_of(base, {0, 1}, 9, "idxBase");
  c.require(is_known_value_type(vt), 10, "valueType");
  if (!c) return c.status();
  auto* m = new (std::nothrow) trnsparseSpMatDescr;
  if (m == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  m->format = TRNSPARSE_FORMAT_BLOCKED_ELL;
  m->ell = sp::BlockedEllView{rows, cols, bs, ell_cols, ci, const_cast<void*>(val), index_type(it),
                              base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, trn::DType::f32};
  return publish_spmat(m, d, &m->ell.value_type, vt, base, is_const);
}

trnsparseStatus_t create_coo(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz, const void* ri,
                             const void* ci, const void* val, int it, int base, int vt, bool is_const, const char* fn) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "spMatDescr").nonnegative(rows, 2, "rows").nonnegative(cols, 3, "cols").nonnegative(nnz, 4, "nnz");
  c.require(ri != nullptr || nnz == 0, 5, "cooRowInd").require(ci != nullptr || nnz == 0, 6, "cooColInd");
  c.require(val != nullptr || nnz == 0, 7, "cooValues").one_of(it, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 8, "cooIdxType");
  c.one_of(base, {0, 1}, 9, "idxBase").require(is_known_value_type(vt), 10, "valueType");
  if (!c) return c.status();
  auto* m = new (std::nothrow) trnsparseSpMatDescr;
  if (m == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  m->format = TRNSPARSE_FORMAT_COO;
  m->coo = sp::CooView{rows, cols, nnz, ri, ci, const_cast<void*>(val), index_type(it),
                       base == 1 ? sp::IndexBase::one : sp::IndexBase::zero, trn::DType::f32};
  return publish_spmat(m, d, &m->coo.value_type, vt, base, is_const);
}

trnsparseStatus_t create_dnmat(trnsparseDnMatDescr_t* d, int64_t rows, int64_t cols, int64_t ld, const void* values,
                               int vt, int order, bool is_const, const char* fn) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "dnMatDescr").nonnegative(rows, 2, "rows").nonnegative(cols, 3, "cols");
  c.one_of(order, {TRNSPARSE_ORDER_COL, TRNSPARSE_ORDER_ROW}, 7, "order");
  if (!c) return c.status();
  const int64_t inner = order == TRNSPARSE_ORDER_COL ? rows : cols, outer = order == TRNSPARSE_ORDER_COL ? cols : rows;
  c.leading_dim(ld, inner, 4, "ld").require(outer == 0 || trn::cshim::checked_mul(ld, outer) >= 0, 4, "ld");
  c.require(values != nullptr || rows == 0 || cols == 0, 5, "values").require(is_known_value_type(vt), 6, "valueType");
  if (!c) return c.status();
  auto* m = new (std::nothrow) trnsparseDnMatDescr;
  if (m == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  m->m = sp::MutableDenseRef{const_cast<void*>(values), trn::DType::f32, rows, cols, ld,
                             order == TRNSPARSE_ORDER_COL ? sp::Layout::col_major : sp::Layout::row_major};
  m->wide = !value_dtype(vt, &m->m.dtype);
  m->value_type = vt;
  m->is_const = is_const;
  g_dnmats.insert(m);
  *d = m;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t create_dnvec(trnsparseDnVecDescr_t* d, int64_t size, const void* values, int vt, bool is_const,
                               const char* fn) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "dnVecDescr").nonnegative(size, 2, "size").require(values != nullptr || size == 0, 3, "values");
  c.require(is_known_value_type(vt), 4, "valueType");
  if (!c) return c.status();
  auto* v = new (std::nothrow) trnsparseDnVecDescr;
  if (v == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  v->values = const_cast<void*>(values);
  v->size = size;
  v->wide = !value_dtype(vt, &v->dtype);
  v->value_type = vt;
  v->is_const = is_const;
  g_dnvecs.insert(v);
  *d = v;
  return TRNSPARSE_STATUS_SUCCESS;
}

// The legacy matrix descriptor's fields: a setter accepts the enum values 0..max (cuSPARSE's), a getter
// of an unknown descriptor returns 0.
trnsparseStatus_t set_mat_field(trnsparseMatDescr_t d, int trnsparseMatDescr::*field, int value, int max) {
  if (!g_mat_descrs.contains(d) || value < 0 || value > max) return TRNSPARSE_STATUS_INVALID_VALUE;
  d->*field = value;
  return TRNSPARSE_STATUS_SUCCESS;
}
template <class Enum>
Enum get_mat_field(const trnsparseMatDescr* d, int trnsparseMatDescr::*field) {
  return static_cast<Enum>(g_mat_descrs.contains(d) ? d->*field : 0);
}

}  // namespace

extern "C" {

// ---- legacy matrix descriptor -------------------------------------------------------------------

trnsparseStatus_t trnsparseCreateMatDescr(trnsparseMatDescr_t* descrA) {
  return trn::cshim::create_registered(g_mat_descrs, descrA, TRNSPARSE_STATUS_INVALID_VALUE, TRNSPARSE_STATUS_ALLOC_FAILED,
                                       TRNSPARSE_STATUS_SUCCESS);
}
trnsparseStatus_t trnsparseDestroyMatDescr(trnsparseMatDescr_t descrA) {
  return g_mat_descrs.destroy(descrA) ? TRNSPARSE_STATUS_SUCCESS : TRNSPARSE_STATUS_INVALID_VALUE;
}
trnsparseStatus_t trnsparseSetMatType(trnsparseMatDescr_t d, trnsparseMatrixType_t type) {
  return set_mat_field(d, &trnsparseMatDescr::type, enum_value(type), 3);
}
trnsparseMatrixType_t trnsparseGetMatType(const trnsparseMatDescr_t d) {
  return get_mat_field<trnsparseMatrixType_t>(d, &trnsparseMatDescr::type);
}
trnsparseStatus_t trnsparseSetMatFillMode(trnsparseMatDescr_t d, trnsparseFillMode_t fill) {
  return set_mat_field(d, &trnsparseMatDescr::fill, enum_value(fill), 1);
}
trnsparseFillMode_t trnsparseGetMatFillMode(const trnsparseMatDescr_t d) {
  return get_mat_field<trnsparseFillMode_t>(d, &trnsparseMatDescr::fill);
}
trnsparseStatus_t trnsparseSetMatDiagType(trnsparseMatDescr_t d, trnsparseDiagType_t diag) {
  return set_mat_field(d, &trnsparseMatDescr::diag, enum_value(diag), 1);
}
trnsparseDiagType_t trnsparseGetMatDiagType(const trnsparseMatDescr_t d) {
  return get_mat_field<trnsparseDiagType_t>(d, &trnsparseMatDescr::diag);
}
trnsparseStatus_t trnsparseSetMatIndexBase(trnsparseMatDescr_t d, trnsparseIndexBase_t base) {
  return set_mat_field(d, &trnsparseMatDescr::base, enum_value(base), 1);
}
trnsparseIndexBase_t trnsparseGetMatIndexBase(const trnsparseMatDescr_t d) {
  return get_mat_field<trnsparseIndexBase_t>(d, &trnsparseMatDescr::base);
}

// ---- generic descriptors ------------------------------------------------------------------------

trnsparseStatus_t trnsparseCreateBsr(trnsparseSpMatDescr_t* d, int64_t brows, int64_t bcols, int64_t bnnz, int64_t rb,
                                     int64_t cb, void* off, void* col, void* val, trnsparseIndexType_t ot,
                                     trnsparseIndexType_t ct, trnsparseIndexBase_t base, trnDataType_t vt,
                                     trnsparseOrder_t order) {
  return create_bsr(d, brows, bcols, bnnz, rb, cb, off, col, val, enum_value(ot), enum_value(ct), enum_value(base),
                    enum_value(vt), enum_value(order), false, "trnsparseCreateBsr");
}
trnsparseStatus_t trnsparseCreateConstBsr(trnsparseConstSpMatDescr_t* d, int64_t brows, int64_t bcols, int64_t bnnz,
                                          int64_t rb, int64_t cb, const void* off, const void* col, const void* val,
                                          trnsparseIndexType_t ot, trnsparseIndexType_t ct, trnsparseIndexBase_t base,
                                          trnDataType_t vt, trnsparseOrder_t order) {
  trnsparseSpMatDescr_t m = nullptr;
  const trnsparseStatus_t st = create_bsr(d != nullptr ? &m : nullptr, brows, bcols, bnnz, rb, cb, off, col, val,
                                          enum_value(ot), enum_value(ct), enum_value(base), enum_value(vt),
                                          enum_value(order), true, "trnsparseCreateConstBsr");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = m;
  return st;
}
trnsparseStatus_t trnsparseCreateCsr(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz, void* off,
                                     void* col, void* val, trnsparseIndexType_t ot, trnsparseIndexType_t ct,
                                     trnsparseIndexBase_t base, trnDataType_t vt) {
  return create_csr(d, rows, cols, nnz, off, col, val, enum_value(ot), enum_value(ct), enum_value(base), enum_value(vt),
                    false, "trnsparseCreateCsr");
}
trnsparseStatus_t trnsparseCreateConstCsr(trnsparseConstSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz,
                                          const void* off, const void* col, const void* val, trnsparseIndexType_t ot,
                                          trnsparseIndexType_t ct, trnsparseIndexBase_t base, trnDataType_t vt) {
  trnsparseSpMatDescr_t m = nullptr;
  const trnsparseStatus_t st = create_csr(d != nullptr ? &m : nullptr, rows, cols, nnz, off, col, val, enum_value(ot),
                                          enum_value(ct), enum_value(base), enum_value(vt), true, "trnsparseCreateConstCsr");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = m;
  return st;
}
trnsparseStatus_t trnsparseCreateCoo(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz, void* ri,
                                     void* ci, void* val, trnsparseIndexType_t it, trnsparseIndexBase_t base,
                                     trnDataType_t vt) {
  return create_coo(d, rows, cols, nnz, ri, ci, val, enum_value(it), enum_value(base), enum_value(vt), false,
                    "trnsparseCreateCoo");
}
trnsparseStatus_t trnsparseCreateConstCoo(trnsparseConstSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz,
                                          const void* ri, const void* ci, const void* val, trnsparseIndexType_t it,
                                          trnsparseIndexBase_t base, trnDataType_t vt) {
  trnsparseSpMatDescr_t m = nullptr;
  const trnsparseStatus_t st = create_coo(d != nullptr ? &m : nullptr, rows, cols, nnz, ri, ci, val, enum_value(it),
                                          enum_value(base), enum_value(vt), true, "trnsparseCreateConstCoo");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = m;
  return st;
}
trnsparseStatus_t trnsparseCreateCsc(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz, void* off,
                                     void* ind, void* val, trnsparseIndexType_t ot, trnsparseIndexType_t it,
                                     trnsparseIndexBase_t base, trnDataType_t vt) {
  return create_csr(d, rows, cols, nnz, off, ind, val, enum_value(ot), enum_value(it), enum_value(base), enum_value(vt),
                    false, "trnsparseCreateCsc", /*csc=*/true);
}
trnsparseStatus_t trnsparseCreateConstCsc(trnsparseConstSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t nnz,
                                          const void* off, const void* ind, const void* val, trnsparseIndexType_t ot,
                                          trnsparseIndexType_t it, trnsparseIndexBase_t base, trnDataType_t vt) {
  trnsparseSpMatDescr_t m = nullptr;
  const trnsparseStatus_t st = create_csr(d != nullptr ? &m : nullptr, rows, cols, nnz, off, ind, val, enum_value(ot),
                                          enum_value(it), enum_value(base), enum_value(vt), true, "trnsparseCreateConstCsc",
                                          /*csc=*/true);
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = m;
  return st;
}
trnsparseStatus_t trnsparseCreateBlockedEll(trnsparseSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t bs,
                                            int64_t ellCols, void* ci, void* val, trnsparseIndexType_t it,
                                            trnsparseIndexBase_t base, trnDataType_t vt) {
  return create_ell(d, rows, cols, bs, ellCols, ci, val, enum_value(it), enum_value(base), enum_value(vt), false,
                    "trnsparseCreateBlockedEll");
}
trnsparseStatus_t trnsparseCreateConstBlockedEll(trnsparseConstSpMatDescr_t* d, int64_t rows, int64_t cols, int64_t bs,
                                                 int64_t ellCols, const void* ci, const void* val, trnsparseIndexType_t it,
                                                 trnsparseIndexBase_t base, trnDataType_t vt) {
  trnsparseSpMatDescr_t m = nullptr;
  const trnsparseStatus_t st = create_ell(d != nullptr ? &m : nullptr, rows, cols, bs, ellCols, ci, val, enum_value(it),
                                          enum_value(base), enum_value(vt), true, "trnsparseCreateConstBlockedEll");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = m;
  return st;
}
trnsparseStatus_t trnsparseConstBlockedEllGet(trnsparseConstSpMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* bs,
                                              int64_t* ellCols, const void** ci, const void** val,
                                              trnsparseIndexType_t* it, trnsparseIndexBase_t* base, trnDataType_t* vt) {
  Check c(g_log, "trnsparseBlockedEllGet", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d) && d->format == TRNSPARSE_FORMAT_BLOCKED_ELL, 1, "spMatDescr");
  c.not_null(rows, 2, "rows").not_null(cols, 3, "cols").not_null(bs, 4, "ellBlockSize").not_null(ellCols, 5, "ellCols");
  c.not_null(ci, 6, "ellColInd").not_null(val, 7, "ellValue").not_null(it, 8, "ellIdxType").not_null(base, 9, "idxBase");
  if (!c.not_null(vt, 10, "valueType")) return c.status();
  const sp::BlockedEllView& e = d->ell;
  *rows = e.rows;
  *cols = e.cols;
  *bs = e.block;
  *ellCols = e.ell_cols;
  *ci = e.col_ind;
  *val = e.values;
  *it = e.index_type == sp::IndexType::i64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
  *base = static_cast<trnsparseIndexBase_t>(d->base);
  *vt = static_cast<trnDataType_t>(d->value_type);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseBlockedEllGet(trnsparseSpMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* bs,
                                         int64_t* ellCols, void** ci, void** val, trnsparseIndexType_t* it,
                                         trnsparseIndexBase_t* base, trnDataType_t* vt) {
  const void* cci = nullptr;
  const void* cval = nullptr;
  const trnsparseStatus_t st = trnsparseConstBlockedEllGet(d, rows, cols, bs, ellCols, ci != nullptr ? &cci : nullptr,
                                                           val != nullptr ? &cval : nullptr, it, base, vt);
  if (st == TRNSPARSE_STATUS_SUCCESS) {
    *ci = const_cast<void*>(cci);
    *val = const_cast<void*>(cval);
  }
  return st;
}
trnsparseStatus_t trnsparseDestroySpMat(trnsparseConstSpMatDescr_t d) {
  if (!g_spmats.erase(d)) return TRNSPARSE_STATUS_INVALID_VALUE;
  delete d;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatGetSize(trnsparseConstSpMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* nnz) {
  Check c(g_log, "trnsparseSpMatGetSize", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d), 1, "spMatDescr").not_null(rows, 2, "rows").not_null(cols, 3, "cols").not_null(nnz, 4, "nnz");
  if (!c) return c.status();
  *rows = sp_rows(d);
  *cols = sp_cols(d);
  switch (d->format) {
    case TRNSPARSE_FORMAT_BSR: *nnz = d->bsr.bnnz; break;  // blocks
    case TRNSPARSE_FORMAT_CSR: *nnz = d->csr.nnz; break;
    case TRNSPARSE_FORMAT_CSC: *nnz = d->csc.nnz; break;
    case TRNSPARSE_FORMAT_BLOCKED_ELL: *nnz = d->ell.rows * d->ell.ell_cols; break;  // stored values incl. empty slots
    case TRNSPARSE_FORMAT_SLICED_ELLPACK: *nnz = d->sell.nnz; break;  // as created (padding not counted)
    default: *nnz = d->coo.nnz;
  }
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatGetFormat(trnsparseConstSpMatDescr_t d, trnsparseFormat_t* format) {
  Check c(g_log, "trnsparseSpMatGetFormat", TRNSPARSE_STATUS_INVALID_VALUE);
  if (!c.require(g_spmats.contains(d), 1, "spMatDescr").not_null(format, 2, "format")) return c.status();
  *format = static_cast<trnsparseFormat_t>(d->format);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatGetIndexBase(trnsparseConstSpMatDescr_t d, trnsparseIndexBase_t* idxBase) {
  Check c(g_log, "trnsparseSpMatGetIndexBase", TRNSPARSE_STATUS_INVALID_VALUE);
  if (!c.require(g_spmats.contains(d), 1, "spMatDescr").not_null(idxBase, 2, "idxBase")) return c.status();
  *idxBase = static_cast<trnsparseIndexBase_t>(d->base);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatGetValues(trnsparseSpMatDescr_t d, void** values) {
  Check c(g_log, "trnsparseSpMatGetValues", TRNSPARSE_STATUS_INVALID_VALUE);
  if (!c.require(g_spmats.contains(d), 1, "spMatDescr").not_null(values, 2, "values")) return c.status();
  *values = sp_values(d);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatSetValues(trnsparseSpMatDescr_t d, void* values) {
  Check c(g_log, "trnsparseSpMatSetValues", TRNSPARSE_STATUS_INVALID_VALUE);
  if (!c.require(g_spmats.contains(d), 1, "spMatDescr").not_null(values, 2, "values")) return c.status();
  sp_values(d) = values;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatGetAttribute(trnsparseConstSpMatDescr_t d, trnsparseSpMatAttribute_t attribute,
                                             void* data, size_t dataSize) {
  Check c(g_log, "trnsparseSpMatGetAttribute", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d), 1, "spMatDescr").one_of(enum_value(attribute), {0, 1}, 2, "attribute");
  c.not_null(data, 3, "data").require(dataSize == sizeof(int), 4, "dataSize");
  if (!c) return c.status();
  const int v = enum_value(attribute) == TRNSPARSE_SPMAT_FILL_MODE ? d->fill : d->diag;
  std::memcpy(data, &v, sizeof v);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpMatSetAttribute(trnsparseSpMatDescr_t d, trnsparseSpMatAttribute_t attribute, void* data,
                                             size_t dataSize) {
  Check c(g_log, "trnsparseSpMatSetAttribute", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d), 1, "spMatDescr").one_of(enum_value(attribute), {0, 1}, 2, "attribute");
  c.not_null(data, 3, "data").require(dataSize == sizeof(int), 4, "dataSize");
  if (!c) return c.status();
  int v = 0;
  std::memcpy(&v, data, sizeof v);
  if (!c.one_of(v, {0, 1}, 3, "data")) return c.status();
  (enum_value(attribute) == TRNSPARSE_SPMAT_FILL_MODE ? d->fill : d->diag) = v;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseCreateDnMat(trnsparseDnMatDescr_t* d, int64_t rows, int64_t cols, int64_t ld, void* values,
                                       trnDataType_t vt, trnsparseOrder_t order) {
  return create_dnmat(d, rows, cols, ld, values, enum_value(vt), enum_value(order), false, "trnsparseCreateDnMat");
}
trnsparseStatus_t trnsparseCreateConstDnMat(trnsparseConstDnMatDescr_t* d, int64_t rows, int64_t cols, int64_t ld,
                                            const void* values, trnDataType_t vt, trnsparseOrder_t order) {
  trnsparseDnMatDescr_t m = nullptr;
  const trnsparseStatus_t st = create_dnmat(d != nullptr ? &m : nullptr, rows, cols, ld, values, enum_value(vt),
                                            enum_value(order), true, "trnsparseCreateConstDnMat");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = m;
  return st;
}
trnsparseStatus_t trnsparseDestroyDnMat(trnsparseConstDnMatDescr_t d) {
  if (!g_dnmats.erase(d)) return TRNSPARSE_STATUS_INVALID_VALUE;
  delete d;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseCreateDnVec(trnsparseDnVecDescr_t* d, int64_t size, void* values, trnDataType_t vt) {
  return create_dnvec(d, size, values, enum_value(vt), false, "trnsparseCreateDnVec");
}
trnsparseStatus_t trnsparseCreateConstDnVec(trnsparseConstDnVecDescr_t* d, int64_t size, const void* values,
                                            trnDataType_t vt) {
  trnsparseDnVecDescr_t v = nullptr;
  const trnsparseStatus_t st = create_dnvec(d != nullptr ? &v : nullptr, size, values, enum_value(vt), true,
                                            "trnsparseCreateConstDnVec");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = v;
  return st;
}
trnsparseStatus_t trnsparseDestroyDnVec(trnsparseConstDnVecDescr_t d) {
  if (!g_dnvecs.erase(d)) return TRNSPARSE_STATUS_INVALID_VALUE;
  delete d;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseBsrSetPointers(trnsparseSpMatDescr_t d, void* offsets, void* columns, void* values) {
  Check c(g_log, "trnsparseBsrSetPointers", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d) && d->format == TRNSPARSE_FORMAT_BSR, 1, "spMatDescr").not_null(offsets, 2, "bsrRowOffsets");
  if (!c) return c.status();
  c.require(columns != nullptr || d->bsr.bnnz == 0, 3, "bsrColInd").require(values != nullptr || d->bsr.bnnz == 0, 4, "bsrValues");
  if (!c) return c.status();
  d->bsr.offsets = offsets;
  d->bsr.columns = columns;
  d->bsr.values = values;
  return TRNSPARSE_STATUS_SUCCESS;
}

}  // extern "C"
