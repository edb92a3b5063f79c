// Sliced-ELL: index rules, the CSR pattern as slot numbers, and the SpMV / SpMM / SpSV paths over it
// (trn/sparse/sell.hpp; docs/trnsparse.md "Sliced-ELL").
#include "trn/sparse/sell.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "generic_detail.hpp"
#include "generic_host.hpp"

namespace trn::sparse {

using generic_detail::idx;
using generic_detail::invalid;

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }
std::int64_t num_slices(const SellView& a) { return a.rows == 0 ? 0 : (a.rows - 1) / a.slice_size + 1; }

// Sizes and slice offsets (each array blamed for its own fault).
void check_shape(const SellView& a) {
  if (a.rows < 0) invalid("negative number of rows", "rows");
  if (a.cols < 0) invalid("negative number of columns", "cols");
  if (a.nnz < 0) invalid("negative number of stored entries", "nnz");
  if (a.slice_size < 1) invalid("sliceSize must be >= 1", "sliceSize");
  if (a.values_size < a.nnz) invalid("sellValuesSize smaller than nnz", "sellValuesSize");
  const std::int64_t ns = num_slices(a);
  if (a.slice_offsets == nullptr) {
    if (ns > 0 || a.values_size > 0) invalid("sellSliceOffsets is NULL", "sellSliceOffsets");
    return;
  }
  if (idx(a.slice_offsets, a.offsets_type, 0) != 0) invalid("sellSliceOffsets[0] must be 0", "sellSliceOffsets");
  for (std::int64_t s = 0; s < ns; ++s) {
    const std::int64_t lo = idx(a.slice_offsets, a.offsets_type, s), hi = idx(a.slice_offsets, a.offsets_type, s + 1);
    if (hi < lo || hi > a.values_size || (hi - lo) % a.slice_size != 0)
      invalid("slice " + std::to_string(s) + ": offsets decreasing, past sellValuesSize, or not whole columns of sliceSize rows",
              "sellSliceOffsets");
  }
  if (idx(a.slice_offsets, a.offsets_type, ns) != a.values_size)
    invalid("sellSliceOffsets[slices] differs from sellValuesSize", "sellValuesSize");
  if (a.values_size > 0 && a.columns == nullptr) invalid("sellColInd is NULL", "sellColInd");
  if (a.values_size > 0 && a.values == nullptr) invalid("values is NULL", "values");
}

}  // namespace

SellPattern sell_pattern(const SellView& a) {
  check_shape(a);
  SellPattern p;
  p.offsets.assign(z(a.rows) + 1, 0);
  const std::int64_t b = generic_detail::base_value(a.base), S = a.slice_size;
  std::vector<std::pair<std::int64_t, std::int64_t>> row;  // (column, slot) of one row
  for (std::int64_t s = 0; s < num_slices(a); ++s) {
    const std::int64_t lo = idx(a.slice_offsets, a.offsets_type, s);
    const std::int64_t width = (idx(a.slice_offsets, a.offsets_type, s + 1) - lo) / S;
    if (width == 0) continue;  // an empty slice (then S may exceed the arrays: never walked)
    for (std::int64_t r = 0; r < S; ++r) {
      const std::int64_t i = s * S + r;
      row.clear();
      for (std::int64_t j = 0; j < width; ++j) {
        const std::int64_t slot = lo + j * S + r, c = idx(a.columns, a.columns_type, slot);
        if (c == -1) continue;  // padding
        if (i >= a.rows) invalid("row " + std::to_string(i) + " past rows holds an entry (slot " + std::to_string(slot) + ")", "sellColInd");
        if (c - b < 0 || c - b >= a.cols) invalid("column index out of range at slot " + std::to_string(slot), "sellColInd");
        row.emplace_back(c - b, slot);
      }
      if (i >= a.rows) continue;
      std::sort(row.begin(), row.end());
      for (std::size_t e = 0; e < row.size(); ++e) {
        if (e > 0 && row[e].first == row[e - 1].first) invalid("column repeated in row " + std::to_string(i), "sellColInd");
        p.columns.push_back(row[e].first);
        p.slot.push_back(row[e].second);
      }
      p.offsets[z(i) + 1] = static_cast<std::int64_t>(p.columns.size());
    }
  }
  for (std::size_t i = 1; i < p.offsets.size(); ++i) p.offsets[i] = std::max(p.offsets[i], p.offsets[i - 1]);  // empty slices
  if (static_cast<std::int64_t>(p.columns.size()) != a.nnz) invalid("stored (non-padding) slots differ from nnz", "nnz");
  return p;
}

void validate(const SellView& a) { (void)sell_pattern(a); }

CsrView SellAsCsr::view(DType value_type) const {
  return CsrView{rows, cols, static_cast<std::int64_t>(pattern.columns.size()), pattern.offsets.data(), pattern.columns.data(),
                 const_cast<std::byte*>(values.data()), IndexType::i64, IndexType::i64, IndexBase::zero, value_type};
}
SparseRef SellAsCsr::ref(Value value) const {
  return SparseRef{SparseRef::Format::csr, rows, cols, static_cast<std::int64_t>(pattern.columns.size()), pattern.offsets.data(),
                   pattern.columns.data(), const_cast<std::byte*>(values.data()), IndexType::i64, IndexType::i64,
                   IndexBase::zero, value};
}

SellAsCsr sell_as_csr(const SellView& a, std::size_t value_bytes) {
  SellAsCsr o;
  o.pattern = sell_pattern(a);
  o.rows = a.rows;
  o.cols = a.cols;
  o.values.resize(o.pattern.slot.size() * value_bytes);
  const auto* src = static_cast<const std::byte*>(a.values);
  for (std::size_t e = 0; e < o.pattern.slot.size(); ++e)
    std::memcpy(o.values.data() + e * value_bytes, src + z(o.pattern.slot[e]) * value_bytes, value_bytes);
  return o;
}

namespace {

// The SELL -> CSR gather of a call (sell_as_csr) as the host round trip it is, added to the call's
// report: the SELL arrays read, the CSR arrays written back, one declared index operation per slot.
void record_gather(const Settings& s, const SellView& A, const SellAsCsr& c, std::size_t vbytes, CallReport* report) {
  using generic_host::bytes_span;
  using generic_host::index_span;
  const std::int64_t slices = (A.rows + A.slice_size - 1) / std::max<std::int64_t>(1, A.slice_size);
  const auto nnz = static_cast<std::int64_t>(c.pattern.columns.size());
  const HostStep step{
      .name = "trnsparse.sell2csr.gather", .flops = static_cast<double>(A.values_size),
      .reads = {index_span(A.slice_offsets, slices + 1, A.offsets_type), index_span(A.columns, A.values_size, A.columns_type),
                bytes_span(A.values, A.values_size, vbytes)},
      .writes = {HostSpan(c.pattern.offsets.data(), A.rows + 1), HostSpan(c.pattern.columns.data(), nnz),
                 bytes_span(c.values.data(), nnz, vbytes)}};
  generic_host::prepend_host_step(s, step, report);
  if (report == nullptr || !report->plans_wanted) return;
  // The gather in the call's plan, its line first (the step runs first), so that the plan's
  // predictions add up to the call: this step's is what the profile adds for it (host_step_ns).
  PlanFacts f;
  f.routine = "sell2csr";
  f.shape = std::to_string(A.rows) + "x" + std::to_string(A.cols) + ", " + std::to_string(slices) + " slices of " +
            std::to_string(A.slice_size);
  f.variant = "host gather of the slots into CSR order";
  f.ops = std::to_string(A.values_size) + " slots, " + std::to_string(nnz) + " stored";
  f.engines = "host CPU (costed host step), host link";
  f.predicted_ns = generic_host::predict_host_step_ns(s, step);
  f.why = "no indirect-DMA primitive in core: SELL takes the CSR path (docs/trnsparse.md \"Sliced-ELL\")";
  report->plan = report->plan.empty() ? f.print() : f.print() + "\n" + report->plan;
}

}  // namespace

void spmv(const Settings& s, Op opA, float alpha, const SellView& A, const void* x, DType x_type, float beta, void* y,
          DType y_type, CallReport* report) {
  const SellAsCsr c = sell_as_csr(A, z(dtype_size(A.value_type)));
  spmv(s, opA, alpha, c.view(A.value_type), x, x_type, beta, y, y_type, report);
  record_gather(s, A, c, z(dtype_size(A.value_type)), report);
}

void spmm(const Settings& s, Op opA, Op opB, float alpha, const SellView& A, const DenseRef& B, float beta,
          const MutableDenseRef& C, CallReport* report) {
  const SellAsCsr c = sell_as_csr(A, z(dtype_size(A.value_type)));
  spmm(s, opA, opB, alpha, c.view(A.value_type), B, beta, C, report);
  record_gather(s, A, c, z(dtype_size(A.value_type)), report);
}

void spmv_host(const Settings& s, GOp opA, Scalar alpha, const SellView& A, Value value, const void* x, Scalar beta, void* y,
               CallReport* report) {
  const SellAsCsr c = sell_as_csr(A, value_bytes(value));
  if (value == Value::c32) {  // C_32F: the gathered CSR on TensorE (generic.hpp spmm_c32), as a CSR C_32F SpMV
    const std::int64_t M = opA == GOp::N ? A.rows : A.cols, K = opA == GOp::N ? A.cols : A.rows;
    spmm_c32(s, opA, GOp::N, alpha, c.ref(value),
             DenseAny{const_cast<void*>(x), value, K, 1, std::max<std::int64_t>(K, 1), Layout::col_major}, beta,
             DenseAny{y, value, M, 1, std::max<std::int64_t>(M, 1), Layout::col_major}, report);
  } else {
    spmv_host(s, opA, alpha, c.ref(value), x, beta, y, report);
  }
  record_gather(s, A, c, value_bytes(value), report);
}

TriangularAnalysis analyze_triangular(const SellView& A, Value value, bool lower, bool unit, GOp op) {
  const SellPattern p = sell_pattern(A);
  const SparseRef r{SparseRef::Format::csr, A.rows, A.cols, A.nnz, p.offsets.data(), p.columns.data(), A.values,
                    IndexType::i64, IndexType::i64, IndexBase::zero, value};
  TriangularAnalysis t = analyze_triangular(r, lower, unit, op);
  for (auto& e : t.src) e = p.slot[z(e)];
  for (auto& d : t.diag)
    if (d >= 0) d = p.slot[z(d)];
  t.nnz = A.values_size;
  return t;
}

}  // namespace trn::sparse
