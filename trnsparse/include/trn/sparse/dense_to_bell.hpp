// trnsparse DenseToSparse into a Blocked-ELL matrix (cusparseDenseToSparse_analysis / _convert with a
// cusparseCreateBlockedEll destination). Values are moved, never combined, so every value type the
// descriptors accept converts (fp16, bf16, fp32, fp64, complex-fp32, complex-fp64): an element is
// `bytes` wide and made of `parts` IEEE components, and it is nonzero when a component is not +-0
// (NaN counts, as the CSR conversion's x != 0).
//
// Analysis: the pattern. Block row i's nonzero blocks (block x block tiles of A with a nonzero
// element), in ascending block column, fill its ellCols / block slots of ellColInd (from the index
// base), the remaining slots get -1. A block row with more nonzero blocks than slots is refused
// (InvalidArgument "matB": ellCols is the caller's, as cuSPARSE requires it at CreateBlockedEll) and
// nothing is written. Convert: the values. ellColInd (as analysis left it, or as the caller set it)
// is validated (-1 or a block column in range, distinct within a block row), every nonzero block of A
// must be one of its slots (else "matB", nothing written), and ellValue (rows x ellCols, row-major)
// receives each slot's block, zeros for an empty slot. Both run on the host (index work and moves:
// one costed host step each, trn/core/host_step.hpp).
#pragma once
#include <cstddef>
#include <cstdint>

#include "trn/sparse/sparse.hpp"

namespace trn::sparse {

struct ElementBytes {
  std::size_t bytes = 4;
  int parts = 1;  // 2 for complex values
};
// A dense rows x cols matrix of ElementBytes elements: (i, j) at data[i + j ld] (col_major) or data[i ld + j].
struct DenseBytes {
  const void* data = nullptr;
  std::int64_t rows = 0, cols = 0, ld = 0;
  Layout layout = Layout::col_major;
  ElementBytes elem;
};
// The destination: a Blocked-ELL matrix as cusparseCreateBlockedEll describes it (BlockedEllView's
// layout) with ElementBytes values.
struct BlockedEllBytes {
  std::int64_t rows = 0, cols = 0, block = 1, ell_cols = 0;
  void* col_ind = nullptr;
  void* values = nullptr;
  IndexType index_type = IndexType::i32;
  IndexBase base = IndexBase::zero;
  ElementBytes elem;
};

// Writes B's ellColInd from the nonzero blocks of A (same shape as B).
void dense_to_blocked_ell_analysis(const DenseBytes& A, const BlockedEllBytes& B);
// Writes B's ellValue from A by the pattern in ellColInd.
void dense_to_blocked_ell_convert(const DenseBytes& A, const BlockedEllBytes& B);

}  // namespace trn::sparse
