// op(A)'s row pattern of a CSR / CSC / COO matrix (shared by the fp64 row groups, rows_fp64.cpp, and
// the segmented SpMV kernel, segmented_spmv.cpp): a stable counting sort of the stored entries
// (storage order) by their row of op(A), every op(A) row in increasing column. Index work only.
#pragma once
#include <cstdint>
#include <vector>

#include "generic_detail.hpp"
#include "spgemm_blocks.hpp"
#include "trn/sparse/generic.hpp"

namespace trn::sparse {

// op(A)'s rows: row r holds entries [start[r], start[r + 1]) of (col, entry) in increasing column.
struct OpPattern {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::int64_t> start, col, entry;
  OpPattern() = default;
  OpPattern(OpPattern&&) = default;
  OpPattern& operator=(OpPattern&&) = default;
  // The arrays back to the thread's warm blocks (spgemm_blocks.hpp; op_pattern takes them from there).
  ~OpPattern() {
    detail::give_warm_block(start);
    detail::give_warm_block(col);
    detail::give_warm_block(entry);
  }
};

inline OpPattern op_pattern(const SparseRef& A, GOp opA) {
  auto z = [](std::int64_t i) { return static_cast<std::size_t>(i); };
  const bool tr = opA != GOp::N;
  OpPattern p;
  p.rows = tr ? A.cols : A.rows;
  p.cols = tr ? A.rows : A.cols;
  // Large arrays from the calling thread's warm blocks when pooled (spgemm_blocks.hpp; ~OpPattern
  // hands them back): no first-touch page faults on the thread's next call.
  detail::warm_capacity(p.start, z(p.rows) + 1);
  detail::warm_capacity(p.col, z(A.nnz));
  detail::warm_capacity(p.entry, z(A.nnz));
  p.start.assign(z(p.rows) + 1, 0);
  generic_detail::for_each_entry(A, [&](std::int64_t i, std::int64_t j, std::int64_t) { ++p.start[z(tr ? j : i) + 1]; });
  for (std::int64_t r = 0; r < p.rows; ++r) p.start[z(r) + 1] += p.start[z(r)];
  std::vector<std::int64_t> next(p.start.begin(), p.start.end() - 1);
  p.col.resize(z(A.nnz));
  p.entry.resize(z(A.nnz));
  generic_detail::for_each_entry(A, [&](std::int64_t i, std::int64_t j, std::int64_t e) {
    const std::int64_t at = next[z(tr ? j : i)]++;
    p.col[z(at)] = tr ? i : j;
    p.entry[z(at)] = e;
  });
  return p;
}

}  // namespace trn::sparse
