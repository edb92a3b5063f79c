// trnsparse csrgeam2: C = alpha A + beta B for CSR matrices A, B (m x n, int32 indices, sorted
// columns, any index base each) of one generic value type, into a CSR C of its own base.
//
// Pattern     C's pattern is the union of A's and B's, whatever alpha and beta are (an entry whose
//             sum is 0, or whose matrix is scaled by 0, stays stored): csrgeam_nnz() merges each
//             row's two sorted column lists (host index work, like SpGEMM's symbolic phase) and
//             writes C's row offsets; csrgeam() checks that C's offsets are that pattern's, then
//             writes the columns and values.
// Where it runs  ONE costed host step ("trnsparse.csrgeam2.host", trn/core/host_step.hpp): the two
//             matrices cross the host link, each output entry is alpha a + beta b (or one term) in
//             fp64 / complex<double>, rounded once to the storage type. A merge of data-dependent
//             column lists has no gather DMA on the emulated core (docs/trnsparse.md "csrgeam2").
// Accuracy    |c_hat - c| <= u_s |c| + gamma_3 (|alpha a| + |beta b|) (complex sqrt(2) gamma_5),
//             u_s = 2^-24 for 32-bit storage, 0 for 64-bit; gamma_k = k 2^-53 / (1 - k 2^-53).
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
