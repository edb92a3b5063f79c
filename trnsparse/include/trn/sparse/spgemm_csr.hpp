// trnsparse CSR x CSR SpGEMM (cuSPARSE SpGEMM / SpGEMMreuse on CSR): C = alpha A B + beta C for CSR
// matrices A (m x k) and B (k x n) of one generic value type, op(A) = op(B) = N (as cuSPARSE).
//
// Algorithm   Gustavson's row-by-row product (F. G. Gustavson, "Two fast algorithms for sparse
//             matrices: multiplication and permuted transposition", ACM TOMS 4(3), 1978), in the two
//             phases cuSPARSE exposes. Symbolic (host index work, workEstimation): row i of C is the
//             union over A's entries (i, k) of B's row k, columns sorted increasing — the structural
//             product (an entry that cancels to 0 is stored), the number of intermediate products
//             sum_(i,k) nnz(B row k) counted (SpGEMM_getNumProducts). Numeric (compute): ONE costed
//             host step ("trnsparse.spgemm.host"): a dense fp64 (complex<double>) accumulator row
//             takes a_ik b_kj for A's entries of row i in storage order and, for each, B's row k in
//             storage order; the sums are kept in fp64 until copy writes alpha s + beta c rounded
//             once to the value type. fp32 takes this path too (docs/trnsparse.md "SpGEMM on CSR":
//             the 128-block TensorE product costs bnnz(A) x bnnz(B)-block matmuls of mostly-empty
//             blocks at the densities CSR SpGEMM sees). The BSR x BSR tile kernel stays (sparse.hpp).
// Accuracy    (u = 2^-53, gamma_k = k u / (1 - k u), k = the products summed into the entry):
//               |c_hat - c| <= gamma_{k+2} (|alpha| (|A||B|)_ij + |beta| |c_ij|)       (real)
//             sqrt(2) gamma_{k+4} for complex values, plus u32 |c| for fp32 / complex-fp32 outputs
//             (the final rounding; u32 = 2^-24).
#pragma once
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "trn/sparse/generic.hpp"

namespace trn::sparse {

// The product of the symbolic phase (pattern, base 0) and, after spgemm_csr_numeric, its sums.
struct CsrProduct {
  std::int64_t rows = 0, cols = 0;
  Value value = Value::f32;
  std::vector<std::int64_t> offsets;  // rows + 1
  std::vector<std::int64_t> columns;  // sorted within each row
  std::int64_t products = 0;          // intermediate products a_ik b_kj
  std::vector<std::complex<double>> sums;  // (A B)_e per stored entry, fp64 (empty before numeric)
  std::int64_t nnz() const { return static_cast<std::int64_t>(columns.size()); }
};

// A, B: CSR (format csr) of one value type, A.cols == B.rows; validates both.
CsrProduct spgemm_csr_symbolic(const SparseRef& A, const SparseRef& B);
// Fills C.sums (C: the symbolic product of the same A, B patterns); one host step in the report.
void spgemm_csr_numeric(const Settings& s, const SparseRef& A, const SparseRef& B, CsrProduct& C,
                        CallReport* report = nullptr);
// Writes C's offsets and columns into `out` (a CSR of C's shape and nnz, its index types and base).
void spgemm_csr_store_pattern(const CsrProduct& C, const SparseRef& out);
// out.values[e] = alpha sums[e] + beta out.values[e] (beta == 0 never reads them), rounded once to
// the value type; a host step of its own ("trnsparse.spgemm.copy.host") in the report.
void spgemm_csr_store_values(const Settings& s, const CsrProduct& C, Scalar alpha, Scalar beta, const SparseRef& out,
                             CallReport* report = nullptr);
std::string spgemm_csr_plan(const SparseRef& A, const SparseRef& B, const CsrProduct& C);

}  // namespace trn::sparse
