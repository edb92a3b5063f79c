// General (rectangular-block) BSR conversions: csr2gebsr, gebsr2gebsc, gebsr2gebsr and gebsr2csr
// (trn/sparse/gebsr.hpp).
#include "trn/sparse/gebsr.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <type_traits>
#include <vector>

#include "generic_detail.hpp"

namespace trn::sparse {

using generic_detail::idx;
using generic_detail::invalid;
using generic_detail::with_value_width;

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }


// Sorted block columns of every block row of a validated CSR: block row I's are cols[start[I] .. start[I + 1]).
struct BlockPattern {
  std::vector<std::int64_t> start, cols;
};
// Merges the sorted run cols[run ..) into a block row's sorted columns cols[first .. run) (runs
// hold no column twice, nor one the row already has): a no-op when the run starts above the row's
// last column. scratch: the merge's buffer, reused across block rows.
void merge_run(std::vector<std::int64_t>& cols, std::size_t first, std::size_t run, std::vector<std::int64_t>& scratch) {
  if (run == first || run == cols.size() || cols[run - 1] < cols[run]) return;
  const auto at = [&](std::size_t k) { return cols.begin() + static_cast<std::ptrdiff_t>(k); };
  scratch.resize(cols.size() - first);
  std::merge(at(first), at(run), at(run), cols.end(), scratch.begin());
  std::copy(scratch.begin(), scratch.end(), at(first));
}

// The quotient x / d of every x in [0, count), by one pass of additions (no division per entry).
std::vector<std::int64_t> quotients(std::int64_t count, std::int64_t d) {
  std::vector<std::int64_t> q(z(count));
  for (std::int64_t x = 0, v = 0, r = 0; x < count; ++x) {
    q[z(x)] = v;
    if (++r == d) r = 0, ++v;
  }
  return q;
}

BlockPattern block_pattern(const CsrView& a, std::int64_t rb, std::int64_t cb) {
  if (rb < 1) invalid("rowBlockDim must be >= 1", "rowBlockDim");
  if (cb < 1) invalid("colBlockDim must be >= 1", "colBlockDim");
  validate(a);
  const std::int64_t mb = (a.rows + rb - 1) / rb, nb = (a.cols + cb - 1) / cb, b = generic_detail::base_value(a.base);
  BlockPattern p;
  p.start.assign(z(mb) + 1, 0);
  // Each CSR row of block row I adds one sorted run of new block columns (its columns strictly
  // increase; mark[J] == I drops the ones I already has), merged in: the sorted columns a sort of
  // the block row gave (s26/conv). block_col: j / cb per column, without a division per entry.
  std::vector<std::int64_t> mark(z(nb), -1), scratch;
  const std::vector<std::int64_t> block_col = quotients(a.cols, cb);
  for (std::int64_t I = 0; I < mb; ++I) {
    const std::size_t first = p.cols.size();
    for (std::int64_t i = I * rb; i < std::min(a.rows, (I + 1) * rb); ++i) {
      const std::size_t run = p.cols.size();
      for (std::int64_t e = idx(a.offsets, a.offsets_type, i) - b; e < idx(a.offsets, a.offsets_type, i + 1) - b; ++e) {
        const std::int64_t J = block_col[z(idx(a.columns, a.columns_type, e) - b)];
        if (mark[z(J)] == I) continue;
        mark[z(J)] = I;
        p.cols.push_back(J);
      }
      merge_run(p.cols, first, run, scratch);
    }
    p.start[z(I) + 1] = static_cast<std::int64_t>(p.cols.size());
  }
  if (p.cols.size() > static_cast<std::size_t>(INT_MAX)) invalid("nnzb does not fit an int", "nnzb");
  return p;
}

// The rbC x cbC block pattern of a general BSR A (validated here): C block row I collects the C
// block columns covered by every stored A block whose rows meet I's (every value of a stored block
// counts, explicit zeros included: cuSPARSE's gebsr2gebsr = gebsr2csr then csr2gebsr).
BlockPattern gebsr_block_pattern(const BsrView& a, std::int64_t rbc, std::int64_t cbc) {
  if (rbc < 1) invalid("rowBlockDimC must be >= 1", "rowBlockDimC");
  if (cbc < 1) invalid("colBlockDimC must be >= 1", "colBlockDimC");
  validate(a);
  const std::int64_t m = a.brows * a.row_block, n = a.bcols * a.col_block;
  if (m > INT_MAX || n > INT_MAX) invalid("mb * rowBlockDimA or nb * colBlockDimA does not fit an int", "brows");
  const std::int64_t mbc = (m + rbc - 1) / rbc, nbc = (n + cbc - 1) / cbc, b = generic_detail::base_value(a.base);
  BlockPattern p;
  p.start.assign(z(mbc) + 1, 0);
  // Each A block row meeting I adds one sorted run of new columns (A's block columns increase within
  // a block row, so its C columns J do too; seen[J] == I drops the ones I already has), and the runs
  // are merged: the sorted, distinct columns sort + unique gave, without sorting (s26/conv).
  std::vector<std::int64_t> seen(z(nbc), -1), scratch;
  const std::vector<std::int64_t> block_col = quotients(n, cbc);  // col / cbc, no division per block
  for (std::int64_t I = 0; I < mbc; ++I) {
    const std::size_t first = p.cols.size();
    const std::int64_t i_end = std::min(a.brows, ((I + 1) * rbc + a.row_block - 1) / a.row_block);
    for (std::int64_t i = I * rbc / a.row_block; i < i_end; ++i) {
      const std::size_t run = p.cols.size();
      for (std::int64_t k = idx(a.offsets, a.offsets_type, i) - b; k < idx(a.offsets, a.offsets_type, i + 1) - b; ++k) {
        const std::int64_t j = idx(a.columns, a.columns_type, k) - b;
        for (std::int64_t J = block_col[z(j * a.col_block)]; J <= block_col[z((j + 1) * a.col_block - 1)]; ++J)
          if (seen[z(J)] != I) {
            seen[z(J)] = I;
            p.cols.push_back(J);
          }
      }
      merge_run(p.cols, first, run, scratch);
    }
    p.start[z(I) + 1] = static_cast<std::int64_t>(p.cols.size());
  }
  if (p.cols.size() >= static_cast<std::size_t>(INT_MAX)) invalid("nnzb of C (+ base) does not fit an int", "nnzbC");
  return p;
}

// Moves every value of every stored block of A into C's zero-filled blocks (pattern p), W bytes each
// (W = 0: value_bytes at run time). A value at (row, col) lands in C block (row / rbc, col / cbc):
// block row i's rows r0 .. r1 - 1 that fall in one C block row I are visited together, and a walk
// over I's sorted columns finds the slot of each A block's first C column J0 = j cb / cbc (A's
// block columns increase within a block row); the block covers J0 .. J1 and all of them are stored
// in I (the pattern holds every column a stored block covers), so column J is at slot(J0) + J - J0.
// The quotients col / cbc come from one table (no division per value).
// Every (row, col) is one value of A, so the order of the writes does not matter: the bytes are
// those of the per-value lower_bound walk this replaced (s26/conv).
template <std::size_t W>
void scatter_values(const BsrView& a, std::size_t value_bytes, std::int64_t rbc, std::int64_t cbc, const BlockPattern& p,
                    std::byte* out) {
  const std::size_t vb = W != 0 ? W : value_bytes;
  const std::int64_t rb = a.row_block, cb = a.col_block, b = generic_detail::base_value(a.base);
  const std::size_t c_block = z(rbc * cbc), a_block = z(rb * cb);
  // Element strides inside a block: (row, column) -> row * sr + column * sc.
  const std::int64_t a_sr = a.order == BlockOrder::row ? cb : 1, a_sc = a.order == BlockOrder::row ? 1 : rb;
  const std::int64_t c_sr = a.order == BlockOrder::row ? cbc : 1, c_sc = a.order == BlockOrder::row ? 1 : rbc;
  const std::vector<std::int64_t> block_col = quotients(a.bcols * cb, cbc);  // col / cbc
  const auto* in = static_cast<const std::byte*>(a.values);
  const std::int64_t* cols = p.cols.data();
  for (std::int64_t i = 0; i < a.brows; ++i) {
    const std::int64_t k0 = idx(a.offsets, a.offsets_type, i) - b, k1 = idx(a.offsets, a.offsets_type, i + 1) - b;
    for (std::int64_t r0 = 0; r0 < rb;) {
      const std::int64_t I = (i * rb + r0) / rbc, r1 = std::min(rb, (I + 1) * rbc - i * rb);
      std::int64_t s = p.start[z(I)];
      for (std::int64_t k = k0; k < k1; ++k) {
        const std::int64_t j = idx(a.columns, a.columns_type, k) - b, J0 = block_col[z(j * cb)];
        while (cols[s] < J0) ++s;
        const std::byte* block = in + z(k) * a_block * vb;
        for (std::int64_t r = r0; r < r1; ++r) {
          const std::int64_t rr = i * rb + r - I * rbc;
          std::int64_t slot = s, cc = j * cb - J0 * cbc;
          for (std::int64_t c = 0; c < cb; ++c, ++cc) {
            if (cc == cbc) {
              cc = 0;
              ++slot;
            }
            std::byte* to = out + (z(slot) * c_block + z(rr * c_sr + cc * c_sc)) * vb;
            const std::byte* from = block + z(r * a_sr + c * a_sc) * vb;
            if constexpr (W != 0)
              std::memcpy(to, from, W);
            else
              std::memcpy(to, from, vb);
          }
        }
      }
      r0 = r1;
    }
  }
}

// Writes C's block columns (from ob) and, when bsr_val is not NULL, its zero-filled blocks with
// every value of every stored block of A moved in (value_bytes each, A's block order kept for C).
void scatter_gebsr(const BsrView& a, std::size_t value_bytes, std::int64_t rbc, std::int64_t cbc, const BlockPattern& p,
                   std::int64_t ob, std::int32_t* bsr_col_ind, void* bsr_val) {
  for (std::size_t k = 0; k < p.cols.size(); ++k) bsr_col_ind[k] = static_cast<std::int32_t>(p.cols[k] + ob);
  if (bsr_val == nullptr || p.cols.empty()) return;
  auto* out = static_cast<std::byte*>(bsr_val);
  std::memset(out, 0, p.cols.size() * z(rbc * cbc) * value_bytes);
  with_value_width(value_bytes, [&](auto width) { scatter_values<decltype(width)::value>(a, value_bytes, rbc, cbc, p, out); });
}

void write_row_ptr(const BlockPattern& p, std::int64_t ob, std::int32_t* row_ptr) {
  for (std::size_t I = 0; I < p.start.size(); ++I) row_ptr[I] = static_cast<std::int32_t>(p.start[I] + ob);
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
  const std::vector<std::int64_t> block_col = quotients(csr.cols, cb);
  with_value_width(value_bytes, [&](auto width) {
    constexpr std::size_t W = decltype(width)::value;
    const std::size_t vb = W != 0 ? W : value_bytes;
    // Element strides inside a block: (row, column) -> row * sr + column * sc.
    const std::int64_t sr = order == BlockOrder::row ? cb : 1, sc = order == BlockOrder::row ? 1 : rb;
    for (std::int64_t i = 0, I = 0, r = 0; i < csr.rows; ++i) {
      // A CSR row's columns strictly increase (validate), so its block columns j / cb do too: a forward
      // walk over block row I's sorted block columns finds each one's slot (the slot a lower_bound finds).
      const std::int64_t* slot = p.cols.data() + p.start[z(I)];
      const std::int64_t* hi = p.cols.data() + p.start[z(I) + 1];
      for (std::int64_t e = idx(csr.offsets, csr.offsets_type, i) - b; e < idx(csr.offsets, csr.offsets_type, i + 1) - b; ++e) {
        const std::int64_t j = idx(csr.columns, csr.columns_type, e) - b, J = block_col[z(j)];
        while (slot != hi && *slot < J) ++slot;
        std::byte* to = out + z(slot - p.cols.data()) * block_bytes + z(r * sr + (j - J * cb) * sc) * vb;
        if constexpr (W != 0)
          std::memcpy(to, in + z(e) * W, W);
        else
          std::memcpy(to, in + z(e) * vb, vb);
      }
      if (++r == rb) r = 0, ++I;
    }
  });
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

std::int64_t gebsr_to_gebsr_nnz(const BsrView& a, std::int64_t rbc, std::int64_t cbc, IndexBase out_base,
                               std::int32_t* bsr_row_ptr_c) {
  const BlockPattern p = gebsr_block_pattern(a, rbc, cbc);
  write_row_ptr(p, generic_detail::base_value(out_base), bsr_row_ptr_c);
  return static_cast<std::int64_t>(p.cols.size());
}

void gebsr_to_gebsr(const BsrView& a, std::size_t value_bytes, std::int64_t rbc, std::int64_t cbc, IndexBase out_base,
                    const std::int32_t* bsr_row_ptr_c, std::int32_t* bsr_col_ind_c, void* bsr_val_c) {
  const BlockPattern p = gebsr_block_pattern(a, rbc, cbc);
  const std::int64_t ob = generic_detail::base_value(out_base);
  for (std::size_t I = 0; I < p.start.size(); ++I)
    if (bsr_row_ptr_c[I] != p.start[I] + ob) invalid("bsrSortedRowPtrC differs from Xgebsr2gebsrNnz's", "bsrRowPtrC");
  if (!p.cols.empty() && (bsr_col_ind_c == nullptr || bsr_val_c == nullptr)) invalid("bsrSortedColIndC or bsrSortedValC is NULL", "bsrValC");
  scatter_gebsr(a, value_bytes, rbc, cbc, p, ob, bsr_col_ind_c, bsr_val_c);
}

void gebsr_to_csr(const BsrView& a, std::size_t value_bytes, IndexBase out_base, std::int32_t* csr_row_ptr,
                  std::int32_t* csr_col_ind, void* csr_val) {
  // A CSR is the general BSR of 1 x 1 blocks (cuSPARSE: gebsr2gebsr with rowBlockDimC = colBlockDimC = 1
  // is gebsr2csr); its pattern is every value of every stored block. A's block columns strictly
  // increase within a block row (validate), so CSR row r of block row i is the concatenation of its
  // blocks' row r: columns j cb .. j cb + cb - 1 per block, already sorted and distinct. Written
  // directly (s16/sparse): the arrays gebsr_block_pattern(a, 1, 1) + scatter_gebsr wrote, bit for bit
  // (every slot written once, so no zero fill is needed), without their per-row sort and per-value
  // binary search; the checks and their order are theirs.
  validate(a);
  const std::int64_t m = a.brows * a.row_block, n = a.bcols * a.col_block;
  if (m > INT_MAX || n > INT_MAX) invalid("mb * rowBlockDimA or nb * colBlockDimA does not fit an int", "brows");
  const std::int64_t total = a.bnnz * a.row_block * a.col_block;
  if (total >= static_cast<std::int64_t>(INT_MAX)) invalid("nnzb of C (+ base) does not fit an int", "nnzbC");
  if (total > 0 && csr_col_ind == nullptr) invalid("csrSortedColIndC is NULL", "csrColIndC");
  const std::int64_t ob = generic_detail::base_value(out_base), b = generic_detail::base_value(a.base);
  const std::int64_t rb = a.row_block, cb = a.col_block;
  csr_row_ptr[0] = static_cast<std::int32_t>(ob);
  const std::size_t a_block = z(rb * cb);
  const auto* in = static_cast<const std::byte*>(a.values);
  auto* out = static_cast<std::byte*>(csr_val);
  // Element strides inside a block: (row, column) -> row * sr + column * sc; values of compile-time
  // width (s26/conv: no per-value switch or block-order branch).
  const std::int64_t sr = a.order == BlockOrder::row ? cb : 1, sc = a.order == BlockOrder::row ? 1 : rb;
  with_value_width(out != nullptr ? value_bytes : 0, [&](auto width) {
    constexpr std::size_t W = decltype(width)::value;
    std::int64_t e = 0;
    for (std::int64_t i = 0; i < a.brows; ++i) {
      const std::int64_t k0 = idx(a.offsets, a.offsets_type, i) - b, k1 = idx(a.offsets, a.offsets_type, i + 1) - b;
      for (std::int64_t r = 0; r < rb; ++r) {
        for (std::int64_t k = k0; k < k1; ++k) {
          const std::int64_t j = idx(a.columns, a.columns_type, k) - b;
          const std::byte* from = in + (z(k) * a_block + z(r * sr)) * value_bytes;
          for (std::int64_t c = 0; c < cb; ++c, ++e) {
            csr_col_ind[e] = static_cast<std::int32_t>(j * cb + c + ob);
            if constexpr (W != 0)
              std::memcpy(out + z(e) * W, from + z(c * sc) * W, W);
            else if (out != nullptr)
              std::memcpy(out + z(e) * value_bytes, from + z(c * sc) * value_bytes, value_bytes);
          }
        }
        csr_row_ptr[i * rb + r + 1] = static_cast<std::int32_t>(e + ob);
      }
    }
  });
}

}  // namespace trn::sparse
