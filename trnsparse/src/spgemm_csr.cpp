// CSR x CSR SpGEMM: Gustavson's symbolic and numeric phases (trn/sparse/spgemm_csr.hpp states the
// algorithm, its source and the accuracy bound).
#include "trn/sparse/spgemm_csr.hpp"

#include <algorithm>
#include <vector>

#include "generic_detail.hpp"
#include "generic_host.hpp"

namespace trn::sparse {

using namespace generic_detail;  // NOLINT: the generic API's index helpers
using namespace generic_host;    // NOLINT: the host-step helpers

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

using Rows = RowPattern;  // a validated CSR's offsets and columns, base 0
Rows rows_of(const SparseRef& a) {
  Rows r;
  const std::int64_t b = base_value(a.base);
  for (std::int64_t i = 0; i <= a.rows; ++i) r.start.push_back(idx(a.offsets, a.offsets_type, i) - b);
  for (std::int64_t e = 0; e < a.nnz; ++e) r.col.push_back(idx(a.indices, a.indices_type, e) - b);
  return r;
}

void check_operands(const SparseRef& A, const SparseRef& B) {
  if (A.format != SparseRef::Format::csr) invalid("spgemm: A must be CSR", "matA");
  if (B.format != SparseRef::Format::csr) invalid("spgemm: B must be CSR", "matB");
  validate(A);
  validate(B);
  if (A.cols != B.rows) invalid("spgemm: A's columns must equal B's rows", "matB");
  if (A.value != B.value) invalid("spgemm: A and B need one value type", "matB");
}

template <class T>
void numeric_typed(const SparseRef& A, const SparseRef& B, const Rows& ra, const Rows& rb, CsrProduct& C) {
  using V = Acc<T>;
  std::vector<V> acc(z(C.cols), V{});
  C.sums.assign(C.columns.size(), {});
  for (std::int64_t i = 0; i < C.rows; ++i) {
    for (std::int64_t ea = ra.start[z(i)]; ea < ra.start[z(i) + 1]; ++ea) {
      const V a = load<T>(A.values, ea);
      const std::int64_t k = ra.col[z(ea)];
      for (std::int64_t eb = rb.start[z(k)]; eb < rb.start[z(k) + 1]; ++eb) acc[z(rb.col[z(eb)])] += a * load<T>(B.values, eb);
    }
    for (std::int64_t e = C.offsets[z(i)]; e < C.offsets[z(i) + 1]; ++e) {
      V& x = acc[z(C.columns[z(e)])];
      C.sums[z(e)] = std::complex<double>(x);
      x = V{};
    }
  }
}

template <class T>
void store_typed(const CsrProduct& C, Scalar alpha, Scalar beta, void* out) {
  using V = Acc<T>;
  const V al = from_scalar<V>(alpha), be = from_scalar<V>(beta);
  const bool read_c = beta != Scalar{};
  for (std::int64_t e = 0; e < C.nnz(); ++e) {
    V v = al * from_scalar<V>(C.sums[z(e)]);
    if (read_c) v += be * load<T>(out, e);
    store<T>(out, e, v);
  }
}

PlanFacts copy_plan(const CsrProduct& C) {
  PlanFacts p;
  p.routine = "spgemm_copy";
  p.shape = std::to_string(C.rows) + "x" + std::to_string(C.cols) + " nnz(C)=" + std::to_string(C.nnz());
  p.variant = std::string(value_name(C.value)) + ": alpha s + beta c from the fp64 sums, rounded once (host)";
  p.engines = "host CPU (costed host step), host link";
  p.why = "the epilogue of the host-step product";
  return p;
}

}  // namespace

CsrProduct spgemm_csr_symbolic(const SparseRef& A, const SparseRef& B) {
  check_operands(A, B);
  const Rows ra = rows_of(A), rb = rows_of(B);
  CsrProduct c;
  c.rows = A.rows;
  c.cols = B.cols;
  c.value = A.value;
  c.offsets.push_back(0);
  c.products = structural_product(ra, rb, A.rows, B.cols, c.offsets, c.columns);
  return c;
}

namespace {

PlanFacts spgemm_csr_facts(const SparseRef& A, const SparseRef& B, const CsrProduct& C) {
  PlanFacts p;
  p.routine = "spgemm";
  p.shape = std::to_string(A.rows) + "x" + std::to_string(A.cols) + " nnz=" + std::to_string(A.nnz) + " * " +
            std::to_string(B.rows) + "x" + std::to_string(B.cols) + " nnz=" + std::to_string(B.nnz) +
            " -> nnz(C)=" + std::to_string(C.nnz());
  p.variant = std::string("CSR ") + value_name(A.value) +
              ": Gustavson row products with a dense fp64 accumulator row on the host (one round trip)";
  p.ops = std::to_string(C.products) + " products";
  p.engines = "host CPU (costed host step), host link";
  p.why = "each product a_ik b_kj scatters into a data-dependent column of C: no gather/scatter DMA on the "
          "emulated core and no fp64 engine; BSR x BSR (block-clustered patterns) takes the TensorE kernel";
  return p;
}

}  // namespace

std::string spgemm_csr_plan(const SparseRef& A, const SparseRef& B, const CsrProduct& C) {
  return spgemm_csr_facts(A, B, C).print();
}

void spgemm_csr_numeric(const Settings& s, const SparseRef& A, const SparseRef& B, CsrProduct& C, CallReport* report) {
  check_operands(A, B);
  if (C.rows != A.rows || C.cols != B.cols || C.value != A.value) invalid("spgemm: C is not the symbolic product of A B", "matC");
  const Rows ra = rows_of(A), rb = rows_of(B);
  dispatch(A.value, [&](auto t) { numeric_typed<decltype(t)>(A, B, ra, rb, C); });
  const double per = is_complex(A.value) ? 8.0 : 2.0;
  auto joined = [](HostSpan x, const HostSpan& y) {  // two index arrays counted as one read
    x.bytes += y.bytes;
    return x;
  };
  const auto a = sparse_spans(A), b = sparse_spans(B);
  HostSpan sums = bytes_span(C.sums.data(), C.nnz(), sizeof(std::complex<double>));
  sums.bytes = static_cast<std::size_t>(C.nnz()) * value_bytes(C.value);  // kept in the descriptor's workspace
  finish_host(s,
              HostStep{.name = "trnsparse.spgemm.host", .flops = per * static_cast<double>(C.products),
                       .reads = {joined(a[0], a[1]), a[2], joined(b[0], b[1]), b[2]}, .writes = {sums}},
              spgemm_csr_facts(A, B, C), report);
}

void spgemm_csr_store_pattern(const CsrProduct& C, const SparseRef& out) {
  if (out.rows != C.rows || out.cols != C.cols || out.nnz != C.nnz()) invalid("spgemm: C's size is not the product's", "matC");
  if (out.offsets == nullptr || (C.nnz() > 0 && out.indices == nullptr)) invalid("spgemm: C's arrays are not set", "matC");
  const std::int64_t b = base_value(out.base);
  for (std::int64_t i = 0; i <= C.rows; ++i) put_index(out.offsets, out.offsets_type, i, C.offsets[z(i)] + b);
  for (std::int64_t e = 0; e < C.nnz(); ++e) put_index(out.indices, out.indices_type, e, C.columns[z(e)] + b);
}

void spgemm_csr_store_values(const Settings& s, const CsrProduct& C, Scalar alpha, Scalar beta, const SparseRef& out,
                             CallReport* report) {
  if (out.nnz != C.nnz() || out.value != C.value || C.sums.size() != C.columns.size())
    invalid("spgemm: C is not the computed product", "matC");
  if (C.nnz() > 0 && out.values == nullptr) invalid("spgemm: C's values are not set", "matC");
  dispatch(C.value, [&](auto t) { store_typed<decltype(t)>(C, alpha, beta, out.values); });
  const HostSpan v = bytes_span(out.values, C.nnz(), value_bytes(C.value));
  const double per = is_complex(C.value) ? 14.0 : 3.0;
  finish_host(s,
              HostStep{.name = "trnsparse.spgemm.copy.host", .flops = per * static_cast<double>(C.nnz()),
                       .reads = {beta != Scalar{} ? v : HostSpan{}}, .writes = {v}},
              copy_plan(C), report);
}

}  // namespace trn::sparse
