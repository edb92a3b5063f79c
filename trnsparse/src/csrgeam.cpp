// csrgeam2: the union-pattern merge (host index work) and the engines' alpha a + beta b of trn/sparse/csrgeam.hpp.
#include "trn/sparse/csrgeam.hpp"

#include <vector>

#include "generic_detail.hpp"
#include "generic_host.hpp"
#include "pair_sums.hpp"
#include "trn/core/spmd.hpp"

namespace trn::sparse {

using namespace generic_detail;  // NOLINT: index helpers
using namespace generic_host;    // NOLINT: host-step helpers

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

// Row i's entries [lo, hi) of a validated CSR, base removed from the columns.
struct Row {
  const SparseRef& a;
  std::int64_t e, hi, base;
  Row(const SparseRef& m, std::int64_t i)
      : a(m), e(idx(m.offsets, m.offsets_type, i) - base_value(m.base)), hi(idx(m.offsets, m.offsets_type, i + 1) - base_value(m.base)),
        base(base_value(m.base)) {}
  bool done() const { return e >= hi; }
  std::int64_t col() const { return idx(a.indices, a.indices_type, e) - base; }
};

// f(column, entry of A or -1, entry of B or -1) for every entry of row i of the union, in column order.
template <class F>
void merge_row(const SparseRef& A, const SparseRef& B, std::int64_t i, F&& f) {
  Row a(A, i), b(B, i);
  while (!a.done() || !b.done()) {
    const std::int64_t ca = a.done() ? INT64_MAX : a.col(), cb = b.done() ? INT64_MAX : b.col();
    const std::int64_t c = std::min(ca, cb);
    f(c, ca == c ? a.e++ : -1, cb == c ? b.e++ : -1);
  }
}

void check_shapes(const SparseRef& A, const SparseRef& B) {
  if (A.rows != B.rows || A.cols != B.cols) invalid("csrgeam2: A and B must have one shape", "shape");
  if (A.value != B.value) invalid("csrgeam2: A and B must have one value type", "valueType");
}

// C's columns (host index work) and per entry of C its terms: (A's entry, 0) and / or (nnz(A) + B's
// entry, 1) against the coefficients [alpha, beta].
PairLists merge_terms(const SparseRef& A, const SparseRef& B, const SparseRef& C) {
  PairLists L;
  const std::int64_t cb = base_value(C.base);
  std::int64_t out = 0;
  for (std::int64_t i = 0; i < A.rows; ++i)
    merge_row(A, B, i, [&](std::int64_t c, std::int64_t ea, std::int64_t eb) {
      put_index(C.indices, IndexType::i32, out++, c + cb);
      if (ea >= 0) L.add(ea, 0);
      if (eb >= 0) L.add(A.nnz + eb, 1);
      L.close_entry();
    });
  return L;
}

}  // namespace

std::int64_t csrgeam_nnz(const SparseRef& A, const SparseRef& B, IndexBase c_base, std::int32_t* c_offsets) {
  check_shapes(A, B);
  validate(A);
  validate(B);
  std::vector<std::int64_t> off(z(A.rows) + 1, 0);
  for (std::int64_t i = 0; i < A.rows; ++i) {
    std::int64_t n = 0;
    merge_row(A, B, i, [&](std::int64_t, std::int64_t, std::int64_t) { ++n; });
    off[z(i) + 1] = off[z(i)] + n;
  }
  if (off.back() > INT32_MAX - 1) invalid("csrgeam2: C has more than 2^31 - 2 entries", "nnzC");
  for (std::size_t i = 0; i < off.size(); ++i) c_offsets[i] = static_cast<std::int32_t>(off[i] + base_value(c_base));
  return off.back();
}

void csrgeam(const Settings& s, Scalar alpha, const SparseRef& A, Scalar beta, const SparseRef& B, const SparseRef& C,
             CallReport* report) {
  std::vector<std::int32_t> want(z(A.rows) + 1);
  const std::int64_t nnz = csrgeam_nnz(A, B, C.base, want.data());
  for (std::int64_t i = 0; i <= A.rows; ++i)
    if (idx(C.offsets, IndexType::i32, i) != want[z(i)]) invalid("csrgeam2: C's row offsets are not Xcsrgeam2Nnz's", "offsetsC");
  if (nnz > 0 && (C.indices == nullptr || C.values == nullptr)) invalid("csrgeam2: C's columns or values are NULL", "columnsC");
  const PairLists L = merge_terms(A, B, C);
  const std::vector<double> coef = pair_coefficients(A.value, alpha, beta);
  Trace trace;
  const PairRun run = pair_sums(s, A.value, L, {A.values, A.nnz, B.values, B.nnz}, {coef.data(), 2}, C.values, trace);
  PlanFacts p;
  p.routine = "csrgeam2";
  p.shape = std::to_string(A.rows) + "x" + std::to_string(A.cols) + " nnzA=" + std::to_string(A.nnz) + " nnzB=" + std::to_string(B.nnz) +
            " nnzC=" + std::to_string(nnz);
  p.variant = std::string(value_name(A.value)) +
              ": row-wise merge of sorted columns (host index work), alpha a + beta b as segment sums of (a, alpha), (b, beta): " +
              "";
  p.ops = std::to_string(static_cast<long long>(pair_flops(A.value, L))) + " flops";
  p.why = value_is_single(A.value) ? "fp32 values: consecutive entries of C per partition, A's and B's values staged by runs, two slots per entry"
                                   : "no fp64 engine: exact slice pairs on TensorE (the segmented SpMV kernel), one rounding";
  finish_pair_report(s, std::move(trace), p, run, report);
}

}  // namespace trn::sparse
