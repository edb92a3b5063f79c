// trnsparse csrgeam2: C = alpha A + beta B for CSR matrices A, B (m x n, int32 indices, sorted
// columns, any index base each) of one generic value type, into a CSR C of its own base.
//
// Pattern     C's pattern is the union of A's and B's, whatever alpha and beta are (an entry whose
//             sum is 0, or whose matrix is scaled by 0, stays stored): csrgeam_nnz() merges each
//             row's two sorted column lists (host index work, like SpGEMM's symbolic phase) and
//             writes C's row offsets; csrgeam() checks that C's offsets are that pattern's, then
//             writes the columns and values.
// Where it runs  The values on the engines (pair_sums.hpp): per entry of C its one or two terms (a,
//             alpha), (b, beta) as a segment sum. R_32F / C_32F: a segment of consecutive entries of C per
//             partition, A's and B's values of the segment staged by two DMA runs, a GpSimdE gather
//             into a two-slot layout (slot 0 alpha a, slot 1 beta b, 0 x 0 where absent), VectorE
//             products and slot 0 + slot 1: fl(fl(alpha a) + fl(beta b)) (one term: fl(alpha a)). R_64F / C_64F: the segmented slice-pair kernel (exact products
//             on TensorE, host exponents + fold), alpha a + beta b rounded once per part.
//             (docs/trnsparse.md "SpGEMM and csrgeam2 numeric phases on the engines".)
// Accuracy    32-bit: |c_hat - c| <= gamma_2 (|alpha a| + |beta b|) in u = 2^-24 (complex sqrt(2)
//             gamma_3; gamma_k = k u / (1 - k u)). 64-bit: |c_hat - c| <= 2.02 u |c|, u = 2^-53
//             (unless the plan says "capped": a row whose two terms are more than ~1000 binades apart).
#pragma once
#include <cstdint>

#include "trn/sparse/generic.hpp"

namespace trn::sparse {

// Writes C's row offsets (m + 1, base c_base) of the union pattern; returns its nnz. A and B are
// validated (InvalidArgument naming "offsets" / "columns" / "nnz"; the caller tells which matrix).
std::int64_t csrgeam_nnz(const SparseRef& A, const SparseRef& B, IndexBase c_base, std::int32_t* c_offsets);

// C = alpha A + beta B on C's offsets (they must be csrgeam_nnz's: else InvalidArgument "offsetsC").
void csrgeam(const Settings& s, Scalar alpha, const SparseRef& A, Scalar beta, const SparseRef& B, const SparseRef& C,
             CallReport* report = nullptr);

}  // namespace trn::sparse
