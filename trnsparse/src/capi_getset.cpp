// trnsparse C shim: the generic descriptors' getters and setters (CSR / CSC / COO Get and
// SetPointers, strided batches, the sparse vector, dense vector and dense matrix accessors). The
// non-const getters are the const ones with the pointers cast back, as cuSPARSE pairs them.
#include "capi_internal.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

trnsparseIndexType_t index_enum(sp::IndexType t) {
  return t == sp::IndexType::i64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
}

// CsrGet / CscGet / CooGet: positions 1 descriptor, 2 rows, 3 cols, 4 nnz, 5..7 the arrays, then
// the index type(s) (COO has one: `second_type` NULL and no position for it), base, value type.
trnsparseStatus_t get_sparse(const char* fn, const trnsparseSpMatDescr* d, int format, int64_t* rows, int64_t* cols,
                             int64_t* nnz, const void** a, const void** b, const void** v, trnsparseIndexType_t* ta,
                             trnsparseIndexType_t* tb, trnsparseIndexBase_t* base, trnDataType_t* vt) {
  const bool coo = format == TRNSPARSE_FORMAT_COO;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d) && d->format == format, 1, "spMatDescr");
  c.not_null(rows, 2, "rows").not_null(cols, 3, "cols").not_null(nnz, 4, "nnz");
  c.not_null(a, 5, coo ? "cooRowInd" : "offsets").not_null(b, 6, coo ? "cooColInd" : "indices").not_null(v, 7, "values");
  c.not_null(ta, 8, coo ? "idxType" : "offsetsType");
  if (!coo) c.not_null(tb, 9, "indicesType");
  c.not_null(base, coo ? 9 : 10, "idxBase").not_null(vt, coo ? 10 : 11, "valueType");
  if (!c) return c.status();
  const sp::SparseRef r = generic_of(d);
  *rows = r.rows;
  *cols = r.cols;
  *nnz = r.nnz;
  *a = r.offsets;
  *b = r.indices;
  *v = r.values;
  *ta = index_enum(r.offsets_type);
  if (!coo) *tb = index_enum(r.indices_type);
  *base = static_cast<trnsparseIndexBase_t>(d->base);
  *vt = static_cast<trnDataType_t>(d->value_type);
  return TRNSPARSE_STATUS_SUCCESS;
}

// The mutable form of a const getter: temporaries for the three array outputs, cast back on success.
template <class F>
trnsparseStatus_t get_mutable(void** a, void** b, void** v, F&& const_get) {
  const void* ca = nullptr;
  const void* cb = nullptr;
  const void* cv = nullptr;
  const trnsparseStatus_t st = const_get(a != nullptr ? &ca : nullptr, b != nullptr ? &cb : nullptr, v != nullptr ? &cv : nullptr);
  if (st == TRNSPARSE_STATUS_SUCCESS) {
    *a = const_cast<void*>(ca);
    *b = const_cast<void*>(cb);
    *v = const_cast<void*>(cv);
  }
  return st;
}

// CsrSetPointers / CscSetPointers / CooSetPointers: the descriptor keeps its sizes and types.
trnsparseStatus_t set_pointers(const char* fn, trnsparseSpMatDescr* d, int format, void* a, void* b, void* v) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d) && d->format == format && !d->is_const, 1, "spMatDescr");
  if (!c) return c.status();
  const sp::SparseRef r = generic_of(d);
  const std::int64_t major = format == TRNSPARSE_FORMAT_CSR ? r.rows : format == TRNSPARSE_FORMAT_CSC ? r.cols : -1;
  c.require(a != nullptr || (major >= 0 ? major == 0 : r.nnz == 0), 2, "offsets");
  c.require(b != nullptr || r.nnz == 0, 3, "indices").require(v != nullptr || r.nnz == 0, 4, "values");
  if (!c) return c.status();
  if (format == TRNSPARSE_FORMAT_COO) {
    d->coo.row_ind = a;
    d->coo.col_ind = b;
    d->coo.values = v;
  } else {  // create_csr keeps the CSR and CSC views of one set of arrays
    d->csr.offsets = d->csc.offsets = a;
    d->csr.columns = d->csc.row_ind = b;
    d->csr.values = d->csc.values = v;
  }
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t create_spvec(trnsparseSpVecDescr_t* d, int64_t size, int64_t nnz, const void* indices,
                               const void* values, int it, int base, int vt, bool is_const, const char* fn) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  c.not_null(d, 1, "spVecDescr").nonnegative(size, 2, "size").require(nnz >= 0 && nnz <= size, 3, "nnz");
  c.require(indices != nullptr || nnz == 0, 4, "indices").require(values != nullptr || nnz == 0, 5, "values");
  c.one_of(it, {TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_64I}, 6, "idxType").one_of(base, {0, 1}, 7, "idxBase");
  c.require(is_generic_value_type(vt), 8, "valueType");
  if (!c) return c.status();
  auto* x = new (std::nothrow) trnsparseSpVecDescr;
  if (x == nullptr) return TRNSPARSE_STATUS_ALLOC_FAILED;
  x->v = sp::SpVecRef{size, nnz, indices, const_cast<void*>(values), index_type(it), index_base(base), generic_value(vt)};
  x->value_type = vt;
  x->is_const = is_const;
  g_spvecs.insert(x);
  *d = x;
  return TRNSPARSE_STATUS_SUCCESS;
}

// One pointer out of a descriptor (the Get/SetValues family): position 1 the descriptor, 2 the pointer.
template <class Registry, class D>
trnsparseStatus_t get_one(const char* fn, const Registry& reg, const D* d, const void** out, const void* value) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  if (!c.require(reg.contains(d), 1, "descr").not_null(out, 2, "values")) return c.status();
  *out = value;
  return TRNSPARSE_STATUS_SUCCESS;
}
// SetValues: field(d) = value after the checks (NULL only for an empty operand, empty(d)).
template <class Registry, class D, class Field, class Empty>
trnsparseStatus_t set_values(const char* fn, const Registry& reg, D* d, void* value, Field&& field, Empty&& empty) {
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE);
  if (!c.require(reg.contains(d) && !d->is_const, 1, "descr")) return c.status();
  if (!c.require(value != nullptr || empty(d), 2, "values")) return c.status();
  field(d) = value;
  return TRNSPARSE_STATUS_SUCCESS;
}

}  // namespace

extern "C" {

// ---- CSR / CSC / COO ----------------------------------------------------------------------------

trnsparseStatus_t trnsparseConstCsrGet(trnsparseConstSpMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* nnz,
                                       const void** off, const void** col, const void** val, trnsparseIndexType_t* ot,
                                       trnsparseIndexType_t* ct, trnsparseIndexBase_t* base, trnDataType_t* vt) {
  return get_sparse("trnsparseConstCsrGet", d, TRNSPARSE_FORMAT_CSR, rows, cols, nnz, off, col, val, ot, ct, base, vt);
}
trnsparseStatus_t trnsparseCsrGet(trnsparseSpMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* nnz, void** off,
                                  void** col, void** val, trnsparseIndexType_t* ot, trnsparseIndexType_t* ct,
                                  trnsparseIndexBase_t* base, trnDataType_t* vt) {
  return get_mutable(off, col, val, [&](const void** a, const void** b, const void** v) {
    return get_sparse("trnsparseCsrGet", d, TRNSPARSE_FORMAT_CSR, rows, cols, nnz, a, b, v, ot, ct, base, vt);
  });
}
trnsparseStatus_t trnsparseConstCscGet(trnsparseConstSpMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* nnz,
                                       const void** off, const void** ind, const void** val, trnsparseIndexType_t* ot,
                                       trnsparseIndexType_t* it, trnsparseIndexBase_t* base, trnDataType_t* vt) {
  return get_sparse("trnsparseConstCscGet", d, TRNSPARSE_FORMAT_CSC, rows, cols, nnz, off, ind, val, ot, it, base, vt);
}
trnsparseStatus_t trnsparseCscGet(trnsparseSpMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* nnz, void** off,
                                  void** ind, void** val, trnsparseIndexType_t* ot, trnsparseIndexType_t* it,
                                  trnsparseIndexBase_t* base, trnDataType_t* vt) {
  return get_mutable(off, ind, val, [&](const void** a, const void** b, const void** v) {
    return get_sparse("trnsparseCscGet", d, TRNSPARSE_FORMAT_CSC, rows, cols, nnz, a, b, v, ot, it, base, vt);
  });
}
trnsparseStatus_t trnsparseConstCooGet(trnsparseConstSpMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* nnz,
                                       const void** ri, const void** ci, const void** val, trnsparseIndexType_t* it,
                                       trnsparseIndexBase_t* base, trnDataType_t* vt) {
  return get_sparse("trnsparseConstCooGet", d, TRNSPARSE_FORMAT_COO, rows, cols, nnz, ri, ci, val, it, nullptr, base, vt);
}
trnsparseStatus_t trnsparseCooGet(trnsparseSpMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* nnz, void** ri,
                                  void** ci, void** val, trnsparseIndexType_t* it, trnsparseIndexBase_t* base,
                                  trnDataType_t* vt) {
  return get_mutable(ri, ci, val, [&](const void** a, const void** b, const void** v) {
    return get_sparse("trnsparseCooGet", d, TRNSPARSE_FORMAT_COO, rows, cols, nnz, a, b, v, it, nullptr, base, vt);
  });
}
trnsparseStatus_t trnsparseCsrSetPointers(trnsparseSpMatDescr_t d, void* off, void* col, void* val) {
  return set_pointers("trnsparseCsrSetPointers", d, TRNSPARSE_FORMAT_CSR, off, col, val);
}
trnsparseStatus_t trnsparseCscSetPointers(trnsparseSpMatDescr_t d, void* off, void* ind, void* val) {
  return set_pointers("trnsparseCscSetPointers", d, TRNSPARSE_FORMAT_CSC, off, ind, val);
}
trnsparseStatus_t trnsparseCooSetPointers(trnsparseSpMatDescr_t d, void* ri, void* ci, void* val) {
  return set_pointers("trnsparseCooSetPointers", d, TRNSPARSE_FORMAT_COO, ri, ci, val);
}
trnsparseStatus_t trnsparseConstSpMatGetValues(trnsparseConstSpMatDescr_t d, const void** values) {
  return get_one("trnsparseConstSpMatGetValues", g_spmats, d, values,
                 g_spmats.contains(d) ? sp_values(const_cast<trnsparseSpMatDescr*>(d)) : nullptr);
}

// ---- strided batches (SpMM computes them; docs/trnsparse.md) -------------------------------------

trnsparseStatus_t trnsparseSpMatGetStridedBatch(trnsparseConstSpMatDescr_t d, int* batchCount) {
  Check c(g_log, "trnsparseSpMatGetStridedBatch", TRNSPARSE_STATUS_INVALID_VALUE);
  if (!c.require(g_spmats.contains(d), 1, "spMatDescr").not_null(batchCount, 2, "batchCount")) return c.status();
  *batchCount = d->batch_count;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseCooSetStridedBatch(trnsparseSpMatDescr_t d, int batchCount, int64_t batchStride) {
  Check c(g_log, "trnsparseCooSetStridedBatch", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d) && d->format == TRNSPARSE_FORMAT_COO, 1, "spMatDescr");
  c.require(batchCount >= 1, 2, "batchCount");
  c.require(batchStride == 0 || batchStride >= d->coo.nnz, 3, "batchStride");  // 0: every batch shares A
  if (!c) return c.status();
  d->batch_count = batchCount;
  d->offsets_stride = d->values_stride = batchStride;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseCsrSetStridedBatch(trnsparseSpMatDescr_t d, int batchCount, int64_t offsetsBatchStride,
                                              int64_t columnsValuesBatchStride) {
  Check c(g_log, "trnsparseCsrSetStridedBatch", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d) && d->format == TRNSPARSE_FORMAT_CSR, 1, "spMatDescr").require(batchCount >= 1, 2, "batchCount");
  c.require(offsetsBatchStride >= 0, 3, "offsetsBatchStride");  // 0: every batch shares the offsets
  c.require(columnsValuesBatchStride == 0 || columnsValuesBatchStride >= d->csr.nnz, 4, "columnsValuesBatchStride");
  if (!c) return c.status();
  d->batch_count = batchCount;
  d->offsets_stride = offsetsBatchStride;
  d->values_stride = columnsValuesBatchStride;
  return TRNSPARSE_STATUS_SUCCESS;
}
// BSR batches (cuSPARSE 12.x): offsets, columns and values each with its own stride (0: shared by
// every batch); SpMM runs the batches one after the other.
trnsparseStatus_t trnsparseBsrSetStridedBatch(trnsparseSpMatDescr_t d, int batchCount, int64_t offsetsBatchStride,
                                              int64_t columnsBatchStride, int64_t ValuesBatchStride) {
  Check c(g_log, "trnsparseBsrSetStridedBatch", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spmats.contains(d) && d->format == TRNSPARSE_FORMAT_BSR, 1, "spMatDescr").require(batchCount >= 1, 2, "batchCount");
  if (!c) return c.status();
  const sp::BsrView& v = d->bsr;
  c.require(offsetsBatchStride == 0 || offsetsBatchStride >= v.brows + 1, 3, "offsetsBatchStride");
  c.require(columnsBatchStride == 0 || columnsBatchStride >= v.bnnz, 4, "columnsBatchStride");
  const std::int64_t block_values = trn::cshim::checked_mul(trn::cshim::checked_mul(v.row_block, v.col_block), v.bnnz);
  c.require(ValuesBatchStride == 0 || (block_values >= 0 && ValuesBatchStride >= block_values), 5, "ValuesBatchStride");
  if (!c) return c.status();
  d->batch_count = batchCount;
  d->offsets_stride = offsetsBatchStride;
  d->columns_stride = columnsBatchStride;
  d->values_stride = ValuesBatchStride;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseDnMatSetStridedBatch(trnsparseDnMatDescr_t d, int batchCount, int64_t batchStride) {
  Check c(g_log, "trnsparseDnMatSetStridedBatch", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_dnmats.contains(d), 1, "dnMatDescr").require(batchCount >= 1, 2, "batchCount");
  if (!c) return c.status();
  const std::int64_t outer = d->m.layout == sp::Layout::col_major ? d->m.cols : d->m.rows;
  if (!c.require(batchStride >= (batchCount > 1 ? d->m.ld * outer : 0), 3, "batchStride")) return c.status();
  d->batch_count = batchCount;
  d->batch_stride = batchStride;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseDnMatGetStridedBatch(trnsparseConstDnMatDescr_t d, int* batchCount, int64_t* batchStride) {
  Check c(g_log, "trnsparseDnMatGetStridedBatch", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_dnmats.contains(d), 1, "dnMatDescr").not_null(batchCount, 2, "batchCount").not_null(batchStride, 3, "batchStride");
  if (!c) return c.status();
  *batchCount = d->batch_count;
  *batchStride = d->batch_stride;
  return TRNSPARSE_STATUS_SUCCESS;
}

// ---- sparse vector --------------------------------------------------------------------------------

trnsparseStatus_t trnsparseCreateSpVec(trnsparseSpVecDescr_t* d, int64_t size, int64_t nnz, void* indices, void* values,
                                       trnsparseIndexType_t it, trnsparseIndexBase_t base, trnDataType_t vt) {
  return create_spvec(d, size, nnz, indices, values, enum_value(it), enum_value(base), enum_value(vt), false,
                      "trnsparseCreateSpVec");
}
trnsparseStatus_t trnsparseCreateConstSpVec(trnsparseConstSpVecDescr_t* d, int64_t size, int64_t nnz,
                                            const void* indices, const void* values, trnsparseIndexType_t it,
                                            trnsparseIndexBase_t base, trnDataType_t vt) {
  trnsparseSpVecDescr_t x = nullptr;
  const trnsparseStatus_t st = create_spvec(d != nullptr ? &x : nullptr, size, nnz, indices, values, enum_value(it),
                                            enum_value(base), enum_value(vt), true, "trnsparseCreateConstSpVec");
  if (st == TRNSPARSE_STATUS_SUCCESS) *d = x;
  return st;
}
trnsparseStatus_t trnsparseDestroySpVec(trnsparseConstSpVecDescr_t d) {
  if (!g_spvecs.erase(d)) return TRNSPARSE_STATUS_INVALID_VALUE;
  delete d;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseConstSpVecGet(trnsparseConstSpVecDescr_t d, int64_t* size, int64_t* nnz, const void** indices,
                                         const void** values, trnsparseIndexType_t* it, trnsparseIndexBase_t* base,
                                         trnDataType_t* vt) {
  Check c(g_log, "trnsparseSpVecGet", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_spvecs.contains(d), 1, "spVecDescr").not_null(size, 2, "size").not_null(nnz, 3, "nnz");
  c.not_null(indices, 4, "indices").not_null(values, 5, "values").not_null(it, 6, "idxType");
  if (!c.not_null(base, 7, "idxBase").not_null(vt, 8, "valueType")) return c.status();
  *size = d->v.size;
  *nnz = d->v.nnz;
  *indices = d->v.indices;
  *values = d->v.values;
  *it = index_enum(d->v.index_type);
  *base = d->v.base == sp::IndexBase::one ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO;
  *vt = static_cast<trnDataType_t>(d->value_type);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseSpVecGet(trnsparseSpVecDescr_t d, int64_t* size, int64_t* nnz, void** indices, void** values,
                                    trnsparseIndexType_t* it, trnsparseIndexBase_t* base, trnDataType_t* vt) {
  void* unused = nullptr;
  return get_mutable(indices, values, &unused, [&](const void** a, const void** b, const void**) {
    return trnsparseConstSpVecGet(d, size, nnz, a, b, it, base, vt);
  });
}
trnsparseStatus_t trnsparseSpVecGetIndexBase(trnsparseConstSpVecDescr_t d, trnsparseIndexBase_t* base) {
  Check c(g_log, "trnsparseSpVecGetIndexBase", TRNSPARSE_STATUS_INVALID_VALUE);
  if (!c.require(g_spvecs.contains(d), 1, "spVecDescr").not_null(base, 2, "idxBase")) return c.status();
  *base = d->v.base == sp::IndexBase::one ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseConstSpVecGetValues(trnsparseConstSpVecDescr_t d, const void** values) {
  return get_one("trnsparseConstSpVecGetValues", g_spvecs, d, values, g_spvecs.contains(d) ? d->v.values : nullptr);
}
trnsparseStatus_t trnsparseSpVecGetValues(trnsparseSpVecDescr_t d, void** values) {
  return get_one("trnsparseSpVecGetValues", g_spvecs, d, const_cast<const void**>(values),
                 g_spvecs.contains(d) ? d->v.values : nullptr);
}
trnsparseStatus_t trnsparseSpVecSetValues(trnsparseSpVecDescr_t d, void* values) {
  return set_values("trnsparseSpVecSetValues", g_spvecs, d, values, [](auto* x) -> void*& { return x->v.values; },
                    [](auto* x) { return x->v.nnz == 0; });
}

// ---- dense vector and matrix ----------------------------------------------------------------------

trnsparseStatus_t trnsparseConstDnVecGet(trnsparseConstDnVecDescr_t d, int64_t* size, const void** values,
                                         trnDataType_t* vt) {
  Check c(g_log, "trnsparseDnVecGet", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_dnvecs.contains(d), 1, "dnVecDescr").not_null(size, 2, "size").not_null(values, 3, "values");
  if (!c.not_null(vt, 4, "valueType")) return c.status();
  *size = d->size;
  *values = d->values;
  *vt = static_cast<trnDataType_t>(d->value_type);
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseDnVecGet(trnsparseDnVecDescr_t d, int64_t* size, void** values, trnDataType_t* vt) {
  void* unused_a = nullptr;
  void* unused_b = nullptr;
  return get_mutable(values, &unused_a, &unused_b, [&](const void** v, const void**, const void**) {
    return trnsparseConstDnVecGet(d, size, v, vt);
  });
}
trnsparseStatus_t trnsparseConstDnVecGetValues(trnsparseConstDnVecDescr_t d, const void** values) {
  return get_one("trnsparseConstDnVecGetValues", g_dnvecs, d, values, g_dnvecs.contains(d) ? d->values : nullptr);
}
trnsparseStatus_t trnsparseDnVecGetValues(trnsparseDnVecDescr_t d, void** values) {
  return get_one("trnsparseDnVecGetValues", g_dnvecs, d, const_cast<const void**>(values),
                 g_dnvecs.contains(d) ? d->values : nullptr);
}
trnsparseStatus_t trnsparseDnVecSetValues(trnsparseDnVecDescr_t d, void* values) {
  return set_values("trnsparseDnVecSetValues", g_dnvecs, d, values, [](auto* x) -> void*& { return x->values; },
                    [](auto* x) { return x->size == 0; });
}
trnsparseStatus_t trnsparseConstDnMatGet(trnsparseConstDnMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* ld,
                                         const void** values, trnDataType_t* type, trnsparseOrder_t* order) {
  Check c(g_log, "trnsparseDnMatGet", TRNSPARSE_STATUS_INVALID_VALUE);
  c.require(g_dnmats.contains(d), 1, "dnMatDescr").not_null(rows, 2, "rows").not_null(cols, 3, "cols");
  c.not_null(ld, 4, "ld").not_null(values, 5, "values").not_null(type, 6, "type");
  if (!c.not_null(order, 7, "order")) return c.status();
  *rows = d->m.rows;
  *cols = d->m.cols;
  *ld = d->m.ld;
  *values = d->m.data;
  *type = static_cast<trnDataType_t>(d->value_type);
  *order = d->m.layout == sp::Layout::col_major ? TRNSPARSE_ORDER_COL : TRNSPARSE_ORDER_ROW;
  return TRNSPARSE_STATUS_SUCCESS;
}
trnsparseStatus_t trnsparseDnMatGet(trnsparseDnMatDescr_t d, int64_t* rows, int64_t* cols, int64_t* ld, void** values,
                                    trnDataType_t* type, trnsparseOrder_t* order) {
  void* unused_a = nullptr;
  void* unused_b = nullptr;
  return get_mutable(values, &unused_a, &unused_b, [&](const void** v, const void**, const void**) {
    return trnsparseConstDnMatGet(d, rows, cols, ld, v, type, order);
  });
}
trnsparseStatus_t trnsparseConstDnMatGetValues(trnsparseConstDnMatDescr_t d, const void** values) {
  return get_one("trnsparseConstDnMatGetValues", g_dnmats, d, values, g_dnmats.contains(d) ? d->m.data : nullptr);
}
trnsparseStatus_t trnsparseDnMatGetValues(trnsparseDnMatDescr_t d, void** values) {
  return get_one("trnsparseDnMatGetValues", g_dnmats, d, const_cast<const void**>(values),
                 g_dnmats.contains(d) ? d->m.data : nullptr);
}
trnsparseStatus_t trnsparseDnMatSetValues(trnsparseDnMatDescr_t d, void* values) {
  return set_values("trnsparseDnMatSetValues", g_dnmats, d, values, [](auto* x) -> void*& { return x->m.data; },
                    [](auto* x) { return x->m.rows == 0 || x->m.cols == 0; });
}

}  // extern "C"
