// trnsparse CSR x CSR SpGEMM (cuSPARSE SpGEMM / SpGEMMreuse on CSR): C = alpha A B + beta C for CSR
// matrices A (m x k) and B (k x n) of one generic value type, op(A) = op(B) = N (as cuSPARSE).
//
// Algorithm   Gustavson's row-by-row product (F. G. Gustavson, "Two fast algorithms for sparse
//             matrices: multiplication and permuted transposition", ACM TOMS 4(3), 1978), in the two
//             phases cuSPARSE exposes. Symbolic (host index work, workEstimation): row i of C is the
//             union over A's entries (i, k) of B's row k, columns sorted increasing — the structural
//             product (an entry that cancels to 0 is stored), the number of intermediate products
//             sum_(i,k) nnz(B row k) counted (SpGEMM_getNumProducts), and per entry of C the list of
//             its products (A's entry, B's entry) in A's storage order (kept for reuse). Numeric
//             (compute): the segment sums of those pairs on the engines (pair_sums.hpp: R_32F / C_32F
//             B's rows staged in SBUF by whole runs, a GpSimdE gather, VectorE products and GpSimdE
//             left-to-right sums in fp32; R_64F / C_64F the segmented slice-pair kernel on TensorE, exact, one
//             rounding); the sums stay in the value type in the descriptor's workspace. Copy: alpha s
//             + beta c as the same segment sums of the pairs (s, alpha), (c, beta) (beta == 0: c
//             unread). The BSR x BSR tile kernel stays (sparse.hpp).
// Accuracy    32-bit (u = 2^-24, gamma_j = j u / (1 - j u), k = the products summed into the entry):
//               |c_hat - c| <= gamma_{k+2} (|alpha| (|A||B|)_ij + |beta| |c_ij|)       (R_32F)
//             sqrt(2) gamma_{k+5} for C_32F. 64-bit (u = 2^-53): s rounded once, then alpha s + beta c
//             rounded once: |c_hat - c| <= 4.1 u (|alpha| |s_ij| + |beta| |c_ij|) (complex too), s = (A B)_ij
//             exactly — independent of k and of cancellation (unless the plan says "capped").
#pragma once
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trn/sparse/generic.hpp"

namespace trn::sparse {

// Entry e's products are q in [start[e], start[e + 1]): u index u[q], v index v[q] (host index work;
// the lists the engines' segment sums take, pair_sums.hpp).
struct PairLists {
  std::vector<std::int64_t> start{0}, u, v;
  std::int64_t entries() const { return static_cast<std::int64_t>(start.size()) - 1; }
  std::int64_t products() const { return static_cast<std::int64_t>(u.size()); }
  void add(std::int64_t ui, std::int64_t vi) {
    u.push_back(ui);
    v.push_back(vi);
  }
  void close_entry() { start.push_back(products()); }
};

// The product of the symbolic phase (pattern, base 0) and, after spgemm_csr_numeric, its sums.
struct CsrProduct {
  std::int64_t rows = 0, cols = 0;
  Value value = Value::f32;
  std::vector<std::int64_t> offsets;  // rows + 1
  std::vector<std::int64_t> columns;  // sorted within each row
  std::int64_t products = 0;          // intermediate products a_ik b_kj
  std::int64_t a_nnz = 0, b_nnz = 0;  // the operands' sizes at the symbolic phase (pairs index them)
  PairLists pairs;                    // per entry of C: (A's entry, B's entry) of each product, A's order
  std::vector<double> sums;  // (A B)_e per stored entry in the value type's layout (raw storage the engines
                             // write; empty before numeric)
  // Kept between calls, as cuSPARSE's SpGEMM descriptor keeps its work estimation (issue #30): the
  // staged plans (R_32F / C_32F; pattern only, element indices, no addresses) of the numeric phase
  // (for `pairs`, built by the first numeric call) and of the copy (alpha s + beta c). Caches, not the
  // product's value: `pairs` must not change while they are kept (a new symbolic phase makes a new
  // CsrProduct). numeric and store_values update them, so one CsrProduct takes one call at a time
  // (as a cuSPARSE SpGEMM descriptor); distinct products may run concurrently.
  mutable std::shared_ptr<const void> numeric_plan, copy_plan;
  std::int64_t nnz() const { return static_cast<std::int64_t>(columns.size()); }

  CsrProduct() = default;
  CsrProduct(const CsrProduct&) = default;
  CsrProduct(CsrProduct&&) noexcept = default;
  CsrProduct& operator=(const CsrProduct&) = default;
  CsrProduct& operator=(CsrProduct&&) noexcept = default;
  // Hands its large arrays to trnsparse's pool of warm blocks, so the next product's phases reuse
  // mapped pages instead of faulting fresh ones in (issue #30; trnsparse/src/spgemm_blocks.hpp).
  ~CsrProduct();
};

// A, B: CSR (format csr) of one value type, A.cols == B.rows; validates both.
CsrProduct spgemm_csr_symbolic(const SparseRef& A, const SparseRef& B);
// Fills C.sums (C: the symbolic product of the same A, B patterns) on the engines.
void spgemm_csr_numeric(const Settings& s, const SparseRef& A, const SparseRef& B, CsrProduct& C,
                        CallReport* report = nullptr);
// Writes C's offsets and columns into `out` (a CSR of C's shape and nnz, its index types and base).
void spgemm_csr_store_pattern(const CsrProduct& C, const SparseRef& out);
// out.values[e] = alpha sums[e] + beta out.values[e] (beta == 0 never reads them), on the engines.
void spgemm_csr_store_values(const Settings& s, const CsrProduct& C, Scalar alpha, Scalar beta, const SparseRef& out,
                             CallReport* report = nullptr);
std::string spgemm_csr_plan(const SparseRef& A, const SparseRef& B, const CsrProduct& C);

}  // namespace trn::sparse
