// trnsparse C shim: the conversions and sorts of the generic and legacy APIs (SparseToDense,
// DenseToSparse, Csr2cscEx2, Xcoo2csr / Xcsr2coo, Xcoosort / Xcsrsort / Xcscsort,
// CreateIdentityPermutation). Host index work (trn/sparse/generic.hpp): every index array is checked
// before the first output is written, an out-of-range index is INVALID_VALUE at its array's position.
#include <numeric>

#include "capi_dense_to_bell.hpp"
#include "capi_internal.hpp"
#include "generic_host.hpp"

using namespace trn::sparse::capi;  // NOLINT: the shim files share one internal namespace

namespace {

// A generic sparse descriptor (CSR / CSC / COO, one of the four value types) and a dense matrix of
// the same shape and value type. sparse_written: the sparse side is the output.
Check& conversion_checks(Check& c, const trnsparseSpMatDescr* s, int s_pos, const trnsparseDnMatDescr* d, int d_pos,
                         bool sparse_written, int alg, bool bell_ok = false) {
  c.require(g_spmats.contains(s) && (!sparse_written || !s->is_const), s_pos, "sparse matrix");
  c.require(g_dnmats.contains(d) && (sparse_written || !d->is_const), d_pos, "dense matrix");
  c.one_of(alg, {0}, 3, "alg");
  if (!c) return c;
  const bool format_ok = generic_format(s->format) || (bell_ok && s->format == TRNSPARSE_FORMAT_BLOCKED_ELL);
  c.require_or(format_ok && is_generic_value_type(s->value_type), TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "conversions: CSR, CSC or COO (SparseToDense: and Blocked-ELL) of TRN_R_32F/R_64F/C_32F/C_64F values");
  c.require_or(s->batch_count == 1 && d->batch_count == 1, TRNSPARSE_STATUS_NOT_SUPPORTED,
               "TRNSPARSE_STATUS_NOT_SUPPORTED", "strided batches are not converted in this release");
  if (!c) return c;
  return c.require(d->value_type == s->value_type && d->m.rows == sp_rows(s) && d->m.cols == sp_cols(s), d_pos,
                   "dense matrix");
}

// The C++ layer's array names -> the descriptor's position.
std::initializer_list<std::pair<const char*, int>> matrix_items(int pos) {
  static const std::initializer_list<std::pair<const char*, int>> at1{
      {"offsets", 1}, {"columns", 1}, {"nnz", 1}, {"values", 1}, {"cooRowInd", 1}, {"cooColInd", 1}, {"matB", 2}};
  static const std::initializer_list<std::pair<const char*, int>> at2{
      {"offsets", 2}, {"columns", 2}, {"nnz", 2}, {"values", 2}, {"matB", 2}};
  return pos == 1 ? at1 : at2;
}

// A Blocked-ELL matA's array names -> position 1 (SparseToDense), matB 2.
std::initializer_list<std::pair<const char*, int>> bell_items() {
  static const std::initializer_list<std::pair<const char*, int>> at{
      {"ellBlockSize", 1}, {"rows", 1}, {"ellCols", 1}, {"ellColInd", 1}, {"values", 1}, {"valueType", 2}, {"matB", 2}};
  return at;
}

// Csr2cscEx2 scalar arguments shared by _bufferSize and the call.
Check& csr2csc_checks(Check& c, int m, int n, int nnz, int vt, int action, int base, int alg) {
  c.nonnegative(m, 1, "m").nonnegative(n, 2, "n").nonnegative(nnz, 3, "nnz");
  c.one_of(vt, {TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F, TRN_R_16F, TRN_R_16BF}, 10, "valType");
  c.one_of(action, {TRNSPARSE_ACTION_SYMBOLIC, TRNSPARSE_ACTION_NUMERIC}, 11, "copyValues");
  return c.one_of(base, {0, 1}, 12, "idxBase").one_of(alg, {TRNSPARSE_CSR2CSC_ALG1}, 13, "alg");
}

// The host round trip of DenseToSparse (index work, docs/cost-model.md section 7): the dense matrix
// read and the sparse arrays written back, one declared operation per dense element and per stored
// entry. offsets_only: the analysis, which writes a compressed format's offsets alone. (SparseToDense
// is a device program, s14/spcross.)
trn::HostStep dense_conversion_step(const char* name, const sp::SparseRef& sp_ref, const sp::DenseAny& d,
                                    bool offsets_only = false) {
  namespace gh = trn::sparse::generic_host;
  const auto arrays = gh::sparse_spans(sp_ref);
  trn::HostStep step{.name = name, .flops = static_cast<double>(d.rows * d.cols + (offsets_only ? 0 : sp_ref.nnz))};
  step.reads = {gh::dense_span(d)};
  if (!offsets_only) step.writes = {arrays[0], arrays[1], arrays[2]};
  else if (sp_ref.format != sp::SparseRef::Format::coo) step.writes = {arrays[0]};
  return step;
}

// Xcoosort / Xcsrsort / Xcscsort _bufferSizeExt: sizes only.
trnsparseStatus_t sort_buffer_size(trnsparseHandle_t h, const char* fn, int m, int n, int nnz, size_t* bytes) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.nonnegative(m, 1, "m").nonnegative(n, 2, "n").nonnegative(nnz, 3, "nnz");
  if (!c.not_null(bytes, 6, "pBufferSizeInBytes")) return c.status();
  *bytes = kBufferBytes;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t coosort(trnsparseHandle_t h, const char* fn, int m, int n, int nnz, int* rows, int* cols, int* P,
                          bool by_row) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.nonnegative(m, 1, "m").nonnegative(n, 2, "n").nonnegative(nnz, 3, "nnz");
  c.require(rows != nullptr || nnz == 0, 4, "cooRowsA").require(cols != nullptr || nnz == 0, 5, "cooColsA");
  if (!c.require(P != nullptr || nnz == 0, 6, "P")) return c.status();
  // Host index work (a sort): one round trip, the arrays read and written back.
  const trn::HostStep step{.name = "trnsparse.coosort.sort", .flops = static_cast<double>(nnz),
                           .reads = {trn::HostSpan(rows, nnz), trn::HostSpan(cols, nnz), trn::HostSpan(P, nnz)},
                           .writes = {trn::HostSpan(rows, nnz), trn::HostSpan(cols, nnz), trn::HostSpan(P, nnz)}};
  return run_on_host(h, fn, {{"cooRowsA", 4}, {"cooColsA", 5}, {"P", 6}}, step,
                     [&] { sp::coo_sort(m, n, nnz, rows, cols, P, by_row); });
}

// Xcsrsort (major = rows) / Xcscsort (major = columns).
trnsparseStatus_t compressed_sort(trnsparseHandle_t h, const char* fn, int m, int n, int nnz, const trnsparseMatDescr* d,
                                  const int* offsets, int* indices, int* P, bool csr) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.nonnegative(m, 1, "m").nonnegative(n, 2, "n").nonnegative(nnz, 3, "nnz");
  c.require(g_mat_descrs.contains(d), 4, "descrA").not_null(offsets, 5, "offsets");
  if (!c.require(indices != nullptr || nnz == 0, 6, "indices").require(P != nullptr || nnz == 0, 7, "P")) return c.status();
  const trn::HostStep step{.name = csr ? "trnsparse.csrsort.sort" : "trnsparse.cscsort.sort", .flops = static_cast<double>(nnz),
                           .reads = {trn::HostSpan(offsets, std::int64_t{csr ? m : n} + 1), trn::HostSpan(indices, nnz),
                                     trn::HostSpan(P, nnz)},
                           .writes = {trn::HostSpan(indices, nnz), trn::HostSpan(P, nnz)}};
  return run_on_host(h, fn, {{"offsets", 5}, {"indices", 6}, {"P", 7}}, step, [&] {
    sp::compressed_sort(csr ? m : n, csr ? n : m, nnz, offsets, indices, P, index_base(d->base));
  });
}

}  // namespace

extern "C" {

trnsparseStatus_t trnsparseSparseToDense_bufferSize(trnsparseHandle_t h, trnsparseConstSpMatDescr_t A,
                                                    trnsparseDnMatDescr_t B, trnsparseSparseToDenseAlg_t alg,
                                                    size_t* bufferSize) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSparseToDense_bufferSize", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!conversion_checks(c, A, 1, B, 2, false, enum_value(alg), true).not_null(bufferSize, 4, "bufferSize")) return c.status();
  *bufferSize = kBufferBytes;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseSparseToDense(trnsparseHandle_t h, trnsparseConstSpMatDescr_t A, trnsparseDnMatDescr_t B,
                                         trnsparseSparseToDenseAlg_t alg, void* externalBuffer) {
  (void)externalBuffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseSparseToDense", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!conversion_checks(c, A, 1, B, 2, false, enum_value(alg), true)) return c.status();
  // A device program (s14/spcross): zero-fill by DMA, the values scattered by DMA descriptors.
  const bool bell = A->format == TRNSPARSE_FORMAT_BLOCKED_ELL;
  return run(h, "trnsparseSparseToDense", bell ? bell_items() : matrix_items(1), [&] {
    sp::CallReport r;
    if (bell)
      sp::sparse_to_dense(h->settings, A->ell, generic_value(A->value_type), dense_any(B), &r);
    else
      sp::sparse_to_dense(h->settings, generic_of(A), dense_any(B), &r);
    store_profile(h, r);
  });
}

trnsparseStatus_t trnsparseDenseToSparse_bufferSize(trnsparseHandle_t h, trnsparseConstDnMatDescr_t A,
                                                    trnsparseSpMatDescr_t B, trnsparseDenseToSparseAlg_t alg,
                                                    size_t* bufferSize) {
  if (is_blocked_ell_target(B))  // Blocked-ELL destination: capi_dense_to_bell.cpp
    return dense_to_blocked_ell(h, "trnsparseDenseToSparse_bufferSize", BellPhase::buffer_size, A, B, enum_value(alg), bufferSize);
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseDenseToSparse_bufferSize", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!conversion_checks(c, B, 2, A, 1, true, enum_value(alg)).not_null(bufferSize, 4, "bufferSize")) return c.status();
  *bufferSize = kBufferBytes;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseDenseToSparse_analysis(trnsparseHandle_t h, trnsparseConstDnMatDescr_t A,
                                                  trnsparseSpMatDescr_t B, trnsparseDenseToSparseAlg_t alg,
                                                  void* externalBuffer) {
  (void)externalBuffer;
  if (is_blocked_ell_target(B))
    return dense_to_blocked_ell(h, "trnsparseDenseToSparse_analysis", BellPhase::analysis, A, B, enum_value(alg), nullptr);
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseDenseToSparse_analysis", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!conversion_checks(c, B, 2, A, 1, true, enum_value(alg))) return c.status();
  const trn::HostStep step = dense_conversion_step("trnsparse.dense2sparse.analysis", generic_of(B), dense_any(A), true);
  return run_on_host(h, "trnsparseDenseToSparse_analysis", matrix_items(2), step, [&] {
    const std::int64_t nnz = sp::dense_to_sparse_analysis(dense_any(A), generic_of(B));
    B->csr.nnz = B->csc.nnz = B->coo.nnz = nnz;  // SpMatGetSize reports it; the caller allocates
  });
}

trnsparseStatus_t trnsparseDenseToSparse_convert(trnsparseHandle_t h, trnsparseConstDnMatDescr_t A,
                                                 trnsparseSpMatDescr_t B, trnsparseDenseToSparseAlg_t alg,
                                                 void* externalBuffer) {
  (void)externalBuffer;
  if (is_blocked_ell_target(B))
    return dense_to_blocked_ell(h, "trnsparseDenseToSparse_convert", BellPhase::convert, A, B, enum_value(alg), nullptr);
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseDenseToSparse_convert", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!conversion_checks(c, B, 2, A, 1, true, enum_value(alg))) return c.status();
  const trn::HostStep step = dense_conversion_step("trnsparse.dense2sparse.convert", generic_of(B), dense_any(A));
  return run_on_host(h, "trnsparseDenseToSparse_convert", matrix_items(2), step,
                     [&] { sp::dense_to_sparse_convert(dense_any(A), generic_of(B)); });
}

trnsparseStatus_t trnsparseCsr2cscEx2_bufferSize(trnsparseHandle_t h, int m, int n, int nnz, const void*, const int*,
                                                 const int*, void*, int*, int*, trnDataType_t vt, trnsparseAction_t act,
                                                 trnsparseIndexBase_t base, trnsparseCsr2CscAlg_t alg,
                                                 size_t* bufferSize) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseCsr2cscEx2_bufferSize", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!csr2csc_checks(c, m, n, nnz, enum_value(vt), enum_value(act), enum_value(base), enum_value(alg))
           .not_null(bufferSize, 14, "bufferSize"))
    return c.status();
  *bufferSize = kBufferBytes;
  return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseCsr2cscEx2(trnsparseHandle_t h, int m, int n, int nnz, const void* csrVal, const int* csrRowPtr,
                                      const int* csrColInd, void* cscVal, int* cscColPtr, int* cscRowInd,
                                      trnDataType_t vt, trnsparseAction_t act, trnsparseIndexBase_t base,
                                      trnsparseCsr2CscAlg_t alg, void* buffer) {
  (void)buffer;
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseCsr2cscEx2", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  const bool numeric = enum_value(act) == TRNSPARSE_ACTION_NUMERIC;
  csr2csc_checks(c, m, n, nnz, enum_value(vt), enum_value(act), enum_value(base), enum_value(alg));
  c.require(csrVal != nullptr || !numeric || nnz == 0, 4, "csrVal").not_null(csrRowPtr, 5, "csrRowPtr");
  c.require(csrColInd != nullptr || nnz == 0, 6, "csrColInd").require(cscVal != nullptr || !numeric || nnz == 0, 7, "cscVal");
  c.not_null(cscColPtr, 8, "cscColPtr").require(cscRowInd != nullptr || nnz == 0, 9, "cscRowInd");
  if (!c) return c.status();
  const std::int64_t vbytes = numeric ? static_cast<std::int64_t>(value_type_bytes(enum_value(vt))) * nnz : 0;
  const trn::HostStep step{.name = "trnsparse.csr2csc.convert", .flops = static_cast<double>(nnz),
                           .reads = {trn::HostSpan(csrRowPtr, std::int64_t{m} + 1), trn::HostSpan(csrColInd, nnz),
                                     trn::HostSpan(static_cast<const char*>(csrVal), vbytes)},
                           .writes = {trn::HostSpan(cscColPtr, std::int64_t{n} + 1), trn::HostSpan(cscRowInd, nnz),
                                      trn::HostSpan(static_cast<const char*>(cscVal), vbytes)}};
  return run_on_host(h, "trnsparseCsr2cscEx2",
                     {{"csrRowPtr", 5}, {"csrColInd", 6}, {"cscColPtr", 8}, {"cscRowInd", 9}, {"cscVal", 7}}, step, [&] {
                       sp::csr_to_csc(m, n, nnz, csrVal, csrRowPtr, csrColInd, cscVal, cscColPtr, cscRowInd,
                                      value_type_bytes(enum_value(vt)), numeric, index_base(enum_value(base)));
                     });
}

trnsparseStatus_t trnsparseXcoo2csr(trnsparseHandle_t h, const int* cooRowInd, int nnz, int m, int* csrSortedRowPtr,
                                    trnsparseIndexBase_t idxBase) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseXcoo2csr", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.require(cooRowInd != nullptr || nnz == 0, 1, "cooRowInd").nonnegative(nnz, 2, "nnz").nonnegative(m, 3, "m");
  if (!c.not_null(csrSortedRowPtr, 4, "csrSortedRowPtr").one_of(enum_value(idxBase), {0, 1}, 5, "idxBase")) return c.status();
  const trn::HostStep step{.name = "trnsparse.coo2csr.convert", .flops = static_cast<double>(nnz),
                           .reads = {trn::HostSpan(cooRowInd, nnz)},
                           .writes = {trn::HostSpan(csrSortedRowPtr, std::int64_t{m} + 1)}};
  return run_on_host(h, "trnsparseXcoo2csr", {{"cooRowInd", 1}, {"csrSortedRowPtr", 4}}, step,
                     [&] { sp::coo_to_csr(cooRowInd, nnz, m, csrSortedRowPtr, index_base(enum_value(idxBase))); });
}

trnsparseStatus_t trnsparseXcsr2coo(trnsparseHandle_t h, const int* csrSortedRowPtr, int nnz, int m, int* cooRowInd,
                                    trnsparseIndexBase_t idxBase) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseXcsr2coo", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.not_null(csrSortedRowPtr, 1, "csrSortedRowPtr").nonnegative(nnz, 2, "nnz").nonnegative(m, 3, "m");
  c.require(cooRowInd != nullptr || nnz == 0, 4, "cooRowInd");
  if (!c.one_of(enum_value(idxBase), {0, 1}, 5, "idxBase")) return c.status();
  const trn::HostStep step{.name = "trnsparse.csr2coo.convert", .flops = static_cast<double>(nnz),
                           .reads = {trn::HostSpan(csrSortedRowPtr, std::int64_t{m} + 1)},
                           .writes = {trn::HostSpan(cooRowInd, nnz)}};
  return run_on_host(h, "trnsparseXcsr2coo", {{"csrSortedRowPtr", 1}, {"cooRowInd", 4}}, step,
                     [&] { sp::csr_to_coo(csrSortedRowPtr, nnz, m, cooRowInd, index_base(enum_value(idxBase))); });
}

trnsparseStatus_t trnsparseXcoosort_bufferSizeExt(trnsparseHandle_t h, int m, int n, int nnz, const int*, const int*,
                                                  size_t* bytes) {
  return sort_buffer_size(h, "trnsparseXcoosort_bufferSizeExt", m, n, nnz, bytes);
}
trnsparseStatus_t trnsparseXcoosortByRow(trnsparseHandle_t h, int m, int n, int nnz, int* rows, int* cols, int* P, void*) {
  return coosort(h, "trnsparseXcoosortByRow", m, n, nnz, rows, cols, P, true);
}
trnsparseStatus_t trnsparseXcoosortByColumn(trnsparseHandle_t h, int m, int n, int nnz, int* rows, int* cols, int* P,
                                            void*) {
  return coosort(h, "trnsparseXcoosortByColumn", m, n, nnz, rows, cols, P, false);
}
trnsparseStatus_t trnsparseXcsrsort_bufferSizeExt(trnsparseHandle_t h, int m, int n, int nnz, const int*, const int*,
                                                  size_t* bytes) {
  return sort_buffer_size(h, "trnsparseXcsrsort_bufferSizeExt", m, n, nnz, bytes);
}
trnsparseStatus_t trnsparseXcsrsort(trnsparseHandle_t h, int m, int n, int nnz, const trnsparseMatDescr_t d,
                                    const int* rowPtr, int* colInd, int* P, void*) {
  return compressed_sort(h, "trnsparseXcsrsort", m, n, nnz, d, rowPtr, colInd, P, true);
}
trnsparseStatus_t trnsparseXcscsort_bufferSizeExt(trnsparseHandle_t h, int m, int n, int nnz, const int*, const int*,
                                                  size_t* bytes) {
  return sort_buffer_size(h, "trnsparseXcscsort_bufferSizeExt", m, n, nnz, bytes);
}
trnsparseStatus_t trnsparseXcscsort(trnsparseHandle_t h, int m, int n, int nnz, const trnsparseMatDescr_t d,
                                    const int* colPtr, int* rowInd, int* P, void*) {
  return compressed_sort(h, "trnsparseXcscsort", m, n, nnz, d, colPtr, rowInd, P, false);
}

trnsparseStatus_t trnsparseCreateIdentityPermutation(trnsparseHandle_t h, int n, int* p) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, "trnsparseCreateIdentityPermutation", TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  if (!c.nonnegative(n, 1, "n").require(p != nullptr || n == 0, 2, "p")) return c.status();
  // Written by the host: one round trip back, one declared operation per element.
  const trn::HostStep step{.name = "trnsparse.identity_permutation.host", .flops = static_cast<double>(n),
                           .writes = {trn::HostSpan(p, n)}};
  return run_on_host(h, "trnsparseCreateIdentityPermutation", {}, step, [&] { std::iota(p, p + n, 0); });
}

}  // extern "C"
