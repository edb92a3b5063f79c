// trnsparse C shim: DenseToSparse_bufferSize / _analysis / _convert into a Blocked-ELL matrix over
// trn/sparse/dense_to_bell.hpp (positions as cuSPARSE's: matA 1, matB 2, alg 3, buffer 4).
#include "capi_dense_to_bell.hpp"

#include "capi_internal.hpp"
#include "trn/sparse/dense_to_bell.hpp"

namespace trn::sparse::capi {

namespace {

sp::ElementBytes element_of(int vt) {
  return {value_type_bytes(vt), vt == TRN_C_32F || vt == TRN_C_64F ? 2 : 1};
}

// The bytes of A's elements (the hull spans the gaps between its columns or rows).
trn::HostSpan dense_bytes_span(const sp::DenseBytes& a) {
  trn::HostSpan s;
  if (a.rows <= 0 || a.cols <= 0) return s;
  const std::int64_t inner = a.layout == sp::Layout::col_major ? a.rows : a.cols;
  const std::int64_t outer = a.layout == sp::Layout::col_major ? a.cols : a.rows;
  const auto w = static_cast<std::int64_t>(a.elem.bytes);
  s.data = a.data;
  s.hull = static_cast<std::size_t>(((outer - 1) * a.ld + inner) * w);
  s.bytes = static_cast<std::size_t>(a.rows * a.cols * w);
  return s;
}

}  // namespace

bool is_blocked_ell_target(trnsparseConstSpMatDescr_t B) {
  return g_spmats.contains(B) && B->format == TRNSPARSE_FORMAT_BLOCKED_ELL;
}

trnsparseStatus_t dense_to_blocked_ell(trnsparseHandle_t h, const char* fn, BellPhase phase, trnsparseConstDnMatDescr_t A,
                                       trnsparseSpMatDescr_t B, int alg, size_t* bufferSize) {
  if (!g_handles.contains(h)) return TRNSPARSE_STATUS_NOT_INITIALIZED;
  Check c(g_log, fn, TRNSPARSE_STATUS_INVALID_VALUE, &h->last_error_param);
  c.require(g_dnmats.contains(A), 1, "matA").require(is_blocked_ell_target(B) && !B->is_const, 2, "matB");
  c.one_of(alg, {0}, 3, "alg");
  if (phase == BellPhase::buffer_size) c.not_null(bufferSize, 4, "bufferSize");
  if (!c) return c.status();
  c.require_or(A->batch_count == 1, TRNSPARSE_STATUS_NOT_SUPPORTED, "TRNSPARSE_STATUS_NOT_SUPPORTED",
               "strided batches are not converted in this release");
  if (!c.require(A->value_type == B->value_type && A->m.rows == B->ell.rows && A->m.cols == B->ell.cols, 1, "matA"))
    return c.status();
  if (phase == BellPhase::buffer_size) {
    *bufferSize = kBufferBytes;
    return TRNSPARSE_STATUS_SUCCESS;
  }
  const sp::BlockedEllView& e = B->ell;
  const sp::ElementBytes elem = element_of(B->value_type);
  const sp::DenseBytes a{A->m.data, A->m.rows, A->m.cols, A->m.ld, A->m.layout, elem};
  const sp::BlockedEllBytes b{e.rows, e.cols, e.block, e.ell_cols, const_cast<void*>(e.col_ind), e.values, e.index_type, e.base, elem};
  const std::int64_t slots = e.block > 0 ? e.rows / e.block * (e.ell_cols / e.block) : 0;
  const trn::HostSpan col_ind(static_cast<const std::byte*>(e.col_ind), slots * static_cast<std::int64_t>(index_bytes_of(e.index_type)));
  const trn::HostSpan values(static_cast<const std::byte*>(e.values), span_count(static_cast<double>(e.rows) * static_cast<double>(e.ell_cols) * static_cast<double>(elem.bytes)));
  const double ops = static_cast<double>(a.rows) * static_cast<double>(a.cols);
  if (phase == BellPhase::analysis)
    return run_on_host(h, fn, {{"matA", 1}, {"matB", 2}},
                       trn::HostStep{.name = "trnsparse.dense2bell.analysis", .flops = ops, .reads = {dense_bytes_span(a)}, .writes = {col_ind}},
                       [&] { sp::dense_to_blocked_ell_analysis(a, b); });
  return run_on_host(h, fn, {{"matA", 1}, {"matB", 2}},
                     trn::HostStep{.name = "trnsparse.dense2bell.convert", .flops = ops, .reads = {dense_bytes_span(a), col_ind}, .writes = {values}},
                     [&] { sp::dense_to_blocked_ell_convert(a, b); });
}

}  // namespace trn::sparse::capi
