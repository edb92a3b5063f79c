// General (rectangular-block) BSR conversions: csr2gebsr and gebsr2gebsc (trn/sparse/gebsr.hpp).
#include "trn/sparse/gebsr.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

#include "generic_detail.hpp"

namespace trn::sparse {

using generic_detail::idx;
using generic_detail::invalid;

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

// Sorted block columns of every block row of a validated CSR: block row I's are cols[start[I] .. start[I + 1]).
struct BlockPattern {
  std::vector<std::int64_t> start, cols;
};
BlockPattern block_pattern(const CsrView& a, std::int64_t rb, std::int64_t cb) {
  if (rb < 1) invalid("rowBlockDim must be >= 1", "rowBlockDim");
  if (cb < 1) invalid("colBlockDim must be >= 1", "colBlockDim");
  validate(a);
  const std::int64_t mb = (a.rows + rb - 1) / rb, nb = (a.cols + cb - 1) / cb, b = generic_detail::base_value(a.base);
  BlockPattern p;
  p.start.assign(z(mb) + 1, 0);
  std::vector<std::int64_t> mark(z(nb), -1);
  for (std::int64_t I = 0; I < mb; ++I) {
    const std::size_t first = p.cols.size();
    for (std::int64_t i = I * rb; i < std::min(a.rows, (I + 1) * rb); ++i)
      for (std::int64_t e = idx(a.offsets, a.offsets_type, i) - b; e < idx(a.offsets, a.offsets_type, i + 1) - b; ++e) {
        const std::int64_t J = (idx(a.columns, a.columns_type, e) - b) / cb;
        if (mark[z(J)] == I) continue;
        mark[z(J)] = I;
        p.cols.push_back(J);
      }
    std::sort(p.cols.begin() + static_cast<std::ptrdiff_t>(first), p.cols.end());
    p.start[z(I) + 1] = static_cast<std::int64_t>(p.cols.size());
  }
  if (p.cols.size() > static_cast<std::size_t>(INT_MAX)) invalid("nnzb does not fit an int", "nnzb");
  return p;
}

}  // namespace

std::int64_t csr_to_gebsr_nnz(const CsrView& csr, std::int64_t rb, std::int64_t cb, IndexBase out_base,
                              std::int32_t* bsr_row_ptr) {
  const BlockPattern p = block_pattern(csr, rb, cb);
  const std::int64_t ob = generic_detail::base_value(out_base);
  for (std::size_t I = 0; I < p.start.size(); ++I) bsr_row_ptr[I] = static_cast<std::int32_t>(p.start[I] + ob);
  return static_cast<std::int64_t>(p.cols.size());
}

void csr_to_gebsr(const CsrView& csr, std::int64_t rb, std::int64_t cb, BlockOrder order, IndexBase out_base,
                  const std::int32_t* bsr_row_ptr, std::int32_t* bsr_col_ind, void* bsr_val, std::size_t value_bytes) {
  const BlockPattern p = block_pattern(csr, rb, cb);
  const std::int64_t ob = generic_detail::base_value(out_base), b = generic_detail::base_value(csr.base);
  for (std::size_t I = 0; I < p.start.size(); ++I)
    if (bsr_row_ptr[I] != p.start[I] + ob) invalid("bsrSortedRowPtrC differs from Xcsr2gebsrNnz's", "bsrRowPtrC");
  if (!p.cols.empty() && (bsr_col_ind == nullptr || bsr_val == nullptr)) invalid("bsrSortedColIndC or bsrSortedValC is NULL", "bsrValC");
  const std::size_t block_bytes = z(rb * cb) * value_bytes;
  auto* out = static_cast<std::byte*>(bsr_val);
  if (!p.cols.empty()) std::memset(out, 0, p.cols.size() * block_bytes);
  for (std::size_t k = 0; k < p.cols.size(); ++k) bsr_col_ind[k] = static_cast<std::int32_t>(p.cols[k] + ob);
  const auto* in = static_cast<const std::byte*>(csr.values);
  for (std::int64_t i = 0; i < csr.rows; ++i) {
    const std::int64_t I = i / rb, r = i % rb;
    const auto first = p.cols.begin() + p.start[z(I)], last = p.cols.begin() + p.start[z(I) + 1];
    for (std::int64_t e = idx(csr.offsets, csr.offsets_type, i) - b; e < idx(csr.offsets, csr.offsets_type, i + 1) - b; ++e) {
      const std::int64_t j = idx(csr.columns, csr.columns_type, e) - b, c = j % cb;
      const std::size_t k = z(std::lower_bound(first, last, j / cb) - p.cols.begin());
      const std::int64_t at = order == BlockOrder::row ? r * cb + c : r + c * rb;
      std::memcpy(out + k * block_bytes + z(at) * value_bytes, in + z(e) * value_bytes, value_bytes);
    }
  }
}

void gebsr_to_gebsc(const BsrView& bsr, std::size_t value_bytes, bool numeric, void* bsc_val, std::int32_t* bsc_row_ind,
                    std::int32_t* bsc_col_ptr) {
  validate(bsr);
  const std::int64_t b = generic_detail::base_value(bsr.base);
  std::vector<std::int64_t> count(z(bsr.bcols) + 1, 0);
  for (std::int64_t k = 0; k < bsr.bnnz; ++k) ++count[z(idx(bsr.columns, bsr.columns_type, k) - b) + 1];
  for (std::size_t J = 1; J < count.size(); ++J) count[J] += count[J - 1];
  for (std::size_t J = 0; J < count.size(); ++J) bsc_col_ptr[J] = static_cast<std::int32_t>(count[J] + b);
  const std::size_t block_bytes = z(bsr.row_block * bsr.col_block) * value_bytes;
  const auto* in = static_cast<const std::byte*>(bsr.values);
  auto* out = static_cast<std::byte*>(bsc_val);
  for (std::int64_t I = 0; I < bsr.brows; ++I)
    for (std::int64_t k = idx(bsr.offsets, bsr.offsets_type, I) - b; k < idx(bsr.offsets, bsr.offsets_type, I + 1) - b; ++k) {
      const std::int64_t to = count[z(idx(bsr.columns, bsr.columns_type, k) - b)]++;
      bsc_row_ind[z(to)] = static_cast<std::int32_t>(I + b);
      if (numeric) std::memcpy(out + z(to) * block_bytes, in + z(k) * block_bytes, block_bytes);
    }
}

}  // namespace trn::sparse
