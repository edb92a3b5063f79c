// CSR x CSR SpGEMM: Gustavson's symbolic and numeric phases (trn/sparse/spgemm_csr.hpp states the
// algorithm, its source and the accuracy bound).
#include "trn/sparse/spgemm_csr.hpp"

#include <algorithm>
#include <vector>

#include "bit_list.hpp"
#include "generic_detail.hpp"
#include "generic_host.hpp"
#include "pair_sums.hpp"
#include "spgemm_blocks.hpp"
#include "trn/core/spmd.hpp"

namespace trn::sparse {

using namespace generic_detail;  // NOLINT: the generic API's index helpers
using namespace generic_host;    // NOLINT: the host-step helpers

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

using Rows = RowPattern;  // a validated CSR's offsets and columns, base 0
using detail::give_warm_block;
using detail::take_warm_block;

// to[i] = p[i] - b for n indices of type t (one loop per index type; a warm block when pooled).
void indices_of(const void* p, IndexType t, std::int64_t n, std::int64_t b, std::vector<std::int64_t>& to) {
  if (to.capacity() < z(n)) to = take_warm_block<std::int64_t>(z(n));
  to.resize(z(n));
  if (t == IndexType::i32)
    std::transform(static_cast<const std::int32_t*>(p), static_cast<const std::int32_t*>(p) + n, to.begin(),
                   [b](std::int32_t x) { return std::int64_t{x} - b; });
  else
    std::transform(static_cast<const std::int64_t*>(p), static_cast<const std::int64_t*>(p) + n, to.begin(),
                   [b](std::int64_t x) { return x - b; });
}

Rows rows_of(const SparseRef& a) {
  Rows r;
  const std::int64_t b = base_value(a.base);
  indices_of(a.offsets, a.offsets_type, a.rows + 1, b, r.start);
  if (a.nnz > 0) indices_of(a.indices, a.indices_type, a.nnz, b, r.col);
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

// The structural product (generic_detail::structural_product's pattern: row i of C the union of B's
// rows k over A's entries (i, k), columns increasing) and per entry of C its products (A's entry, B's
// entry) in A's storage order, then B's: the order the host loop summed in. Index work only, one row
// at a time, over a dense per-column counter `at` (0 for every column between rows):
//  1. a walk over the row's products counts each column's products (at[j]) and lists its distinct
//     columns: as bits of a bitmap of B's columns when that is at most 4 words per product of the
//     row (read back in increasing order, detail::read_set_bits), else in first-seen order (at[j] was
//     0), then std::sort — the same sorted list either way;
//  2. per distinct column in order, at[j] becomes its first list position (a running sum of the
//     counts: C's list starts);
//  3. a second walk (the row's B rows still in cache) writes each product's pair at at[j]++, so an
//     entry's pairs come in A's storage order;
//  4. at[j] = 0 again for the row's columns; the row's columns and list ends are appended to C's.
// No branch per product on the bitmap path, and no per-column marker array. `products` is sum over
// A's entries of |B row k|. Writes c.offsets, c.columns, c.products and c.pairs.
struct SymbolicArrays {
  const std::int64_t* __restrict astart;
  const std::int64_t* __restrict acol;
  const std::int64_t* __restrict bstart;
  const std::int64_t* __restrict bcol;
  std::int64_t* __restrict at;        // b_cols counters, all 0 on entry and on return
  std::uint64_t* __restrict bits;     // (b_cols + 63) / 64 words, all 0 on entry and on return
  std::int64_t* __restrict row_col;   // a row's distinct columns at most, + 4 (the bitmap's read-back)
  std::int64_t* __restrict row_end;   // a row's distinct columns at most: the row's list ends
  std::int64_t* __restrict offsets;   // rows + 1
  std::int64_t* __restrict u;         // products
  std::int64_t* __restrict v;         // products
};

// Rows [0, rows) of the product: offsets, pairs, and C's columns and list ends appended per row.
void symbolic_row_walks(const SymbolicArrays& s, std::int64_t rows, std::int64_t words, std::vector<std::int64_t>& columns,
                        std::vector<std::int64_t>& start) {
  std::int64_t q = 0;  // list positions so far
  s.offsets[0] = 0;
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int64_t ea0 = s.astart[i], ea1 = s.astart[i + 1];
    std::int64_t row_products = 0;
    for (std::int64_t ea = ea0; ea < ea1; ++ea) row_products += s.bstart[s.acol[ea] + 1] - s.bstart[s.acol[ea]];
    std::int64_t n = 0;  // the row's distinct columns
    if (words <= 4 * row_products) {
      for (std::int64_t ea = ea0; ea < ea1; ++ea) {
        const std::int64_t k = s.acol[ea];
        for (std::int64_t eb = s.bstart[k]; eb < s.bstart[k + 1]; ++eb) {
          const std::int64_t j = s.bcol[eb];
          s.bits[j >> 6] |= std::uint64_t{1} << (j & 63);
          ++s.at[j];
        }
      }
      for (std::int64_t w = 0; w < words; ++w) {
        n += detail::read_set_bits(s.bits[w], 64 * w, s.row_col + n);
        s.bits[w] = 0;
      }
    } else {
      for (std::int64_t ea = ea0; ea < ea1; ++ea) {
        const std::int64_t k = s.acol[ea];
        for (std::int64_t eb = s.bstart[k]; eb < s.bstart[k + 1]; ++eb) {
          const std::int64_t j = s.bcol[eb];
          if (s.at[j]++ == 0) s.row_col[n++] = j;
        }
      }
      std::sort(s.row_col, s.row_col + n);
    }
    for (std::int64_t c = 0; c < n; ++c) {  // count -> the column's first position
      const std::int64_t j = s.row_col[c];
      const std::int64_t count = s.at[j];
      s.at[j] = q;
      q += count;
      s.row_end[c] = q;
    }
    for (std::int64_t ea = ea0; ea < ea1; ++ea) {
      const std::int64_t k = s.acol[ea];
      for (std::int64_t eb = s.bstart[k]; eb < s.bstart[k + 1]; ++eb) {
        const std::int64_t p = s.at[s.bcol[eb]]++;
        s.u[p] = ea;
        s.v[p] = eb;
      }
    }
    for (std::int64_t c = 0; c < n; ++c) s.at[s.row_col[c]] = 0;
    columns.insert(columns.end(), s.row_col, s.row_col + n);
    start.insert(start.end(), s.row_end, s.row_end + n);
    s.offsets[i + 1] = static_cast<std::int64_t>(columns.size());
  }
}

void symbolic_rows(const Rows& ra, const Rows& rb, std::int64_t rows, std::int64_t b_cols, std::int64_t products, CsrProduct& c) {
  // entries of C at most: min(products, rows * b_cols), without the product's int64 overflow (int64
  // indices allow rows * b_cols beyond 2^63 for hypersparse operands)
  const std::size_t most = z(b_cols > 0 && rows > products / b_cols ? products : std::min(products, rows * b_cols));
  c.offsets.resize(z(rows) + 1);
  c.columns = take_warm_block<std::int64_t>(most);
  c.columns.reserve(most);
  PairLists& L = c.pairs;
  L.start = take_warm_block<std::int64_t>(most + 1);
  L.start.reserve(most + 1);
  L.start.assign(1, 0);
  L.u = take_warm_block<std::int64_t>(z(products));
  L.u.resize(z(products));
  L.v = take_warm_block<std::int64_t>(z(products));
  L.v.resize(z(products));
  const std::int64_t words = (b_cols + 63) / 64;
  // a row's distinct columns at most: min(b_cols, its products)
  std::int64_t row_most = 0;
  for (std::int64_t i = 0; i < rows; ++i) {
    std::int64_t row_products = 0;
    for (std::int64_t ea = ra.start[z(i)]; ea < ra.start[z(i) + 1]; ++ea)
      row_products += rb.start[z(ra.col[z(ea)]) + 1] - rb.start[z(ra.col[z(ea)])];
    row_most = std::max(row_most, std::min(row_products, b_cols));
  }
  std::vector<std::int64_t> at(z(b_cols), 0), row_col(z(row_most) + 4), row_end(z(row_most));
  std::vector<std::uint64_t> bits(z(words), 0);
  const SymbolicArrays s{ra.start.data(), ra.col.data(), rb.start.data(), rb.col.data(), at.data(),    bits.data(),
                         row_col.data(),  row_end.data(), c.offsets.data(), L.u.data(),  L.v.data()};
  symbolic_row_walks(s, rows, words, c.columns, L.start);
  c.products = products;
}

PlanFacts copy_plan(const CsrProduct& C, bool read_c) {
  PlanFacts p;
  p.routine = "spgemm_copy";
  p.shape = std::to_string(C.rows) + "x" + std::to_string(C.cols) + " nnz(C)=" + std::to_string(C.nnz());
  p.variant = std::string(value_name(C.value)) + (read_c ? ": alpha s + beta c" : ": alpha s (beta = 0: c unread)") +
              " as segment sums of (s, alpha), (c, beta): ";
  p.ops = std::to_string(static_cast<long long>((is_complex(C.value) ? 8.0 : 2.0) * (read_c ? 2.0 : 1.0) *
                                                static_cast<double>(C.nnz()))) +
          " flops";
  p.why = "the epilogue of the engines' product, on the engines";
  return p;
}

}  // namespace

CsrProduct::~CsrProduct() {
  for (std::vector<std::int64_t>* v : {&offsets, &columns, &pairs.start, &pairs.u, &pairs.v}) give_warm_block(*v);
  give_warm_block(sums);
}

CsrProduct spgemm_csr_symbolic(const SparseRef& A, const SparseRef& B) {
  check_operands(A, B);
  Rows ra = rows_of(A), rb = rows_of(B);
  CsrProduct c;
  c.rows = A.rows;
  c.cols = B.cols;
  c.value = A.value;
  std::int64_t products = 0;
  for (std::int64_t ea = 0; ea < A.nnz; ++ea) products += rb.start[z(ra.col[z(ea)]) + 1] - rb.start[z(ra.col[z(ea)])];
  symbolic_rows(ra, rb, A.rows, B.cols, products, c);
  c.a_nnz = A.nnz;
  c.b_nnz = B.nnz;
  for (Rows* r : {&ra, &rb}) {
    give_warm_block(r->start);
    give_warm_block(r->col);
  }
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
              ": Gustavson products listed per entry of C (host index work, symbolic phase), summed on the engines: ";
  p.ops = std::to_string(C.products) + " products";
  p.engines = value_is_single(A.value) ? "DMA (gathers), VectorE (fp32 products, tensor_reduce sums)"
                                 : "host (exponents + gather, fold), DMA, GpSimdE, VectorE, TensorE";
  p.why = value_is_single(A.value) ? "fp32 values: consecutive entries of C per partition, B's rows staged by whole runs"
                             : "no fp64 engine: exact slice pairs on TensorE (the segmented SpMV kernel), one rounding";
  return p;
}

}  // namespace

std::string spgemm_csr_plan(const SparseRef& A, const SparseRef& B, const CsrProduct& C) {
  return spgemm_csr_facts(A, B, C).print();
}

void spgemm_csr_numeric(const Settings& s, const SparseRef& A, const SparseRef& B, CsrProduct& C, CallReport* report) {
  check_operands(A, B);
  if (C.rows != A.rows || C.cols != B.cols || C.value != A.value) invalid("spgemm: C is not the symbolic product of A B", "matC");
  if (A.nnz != C.a_nnz || B.nnz != C.b_nnz) invalid("spgemm: A or B changed its pattern since the work estimation", "matA");
  const std::size_t vb = value_bytes(C.value);
  if (C.sums.capacity() < (z(C.nnz()) * vb + 7) / 8) C.sums = take_warm_block<double>((z(C.nnz()) * vb + 7) / 8);
  C.sums.assign((z(C.nnz()) * vb + 7) / 8, 0.0);
  Trace trace;
  const PairRun run =
      pair_sums(s, C.value, C.pairs, {A.values, A.nnz}, {B.values, B.nnz}, C.sums.data(), trace, &C.numeric_plan);
  finish_pair_report(s, std::move(trace), spgemm_csr_facts(A, B, C), run, report);
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
  const std::size_t vb = value_bytes(C.value);
  if (out.nnz != C.nnz() || out.value != C.value || C.sums.size() != (z(C.nnz()) * vb + 7) / 8)
    invalid("spgemm: C is not the computed product", "matC");
  if (C.nnz() > 0 && out.values == nullptr) invalid("spgemm: C's values are not set", "matC");
  const bool read_c = beta != Scalar{};
  const std::int64_t n = C.nnz();
  const std::vector<double> coef = pair_coefficients(C.value, alpha, beta);
  Trace trace;
  // per entry e: (e, 0) = alpha s, then (nnz + e, 1) = beta c when read
  const PairRun run = pair_sums_fixed(s, C.value, n, read_c, {C.sums.data(), n, out.values, read_c ? n : 0}, {coef.data(), 2},
                                      out.values, trace, &C.copy_plan);
  finish_pair_report(s, std::move(trace), copy_plan(C, read_c), run, report);
}

}  // namespace trn::sparse
