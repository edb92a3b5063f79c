// DenseToSparse into Blocked-ELL: the pattern (analysis) and the values (convert). The header
// trn/sparse/dense_to_bell.hpp states the rules.
#include "trn/sparse/dense_to_bell.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "generic_detail.hpp"

namespace trn::sparse {

using generic_detail::base_value;
using generic_detail::idx;
using generic_detail::invalid;
using generic_detail::put_index;

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

const std::byte* element(const DenseBytes& a, std::int64_t r, std::int64_t c) {
  const std::int64_t off = a.layout == Layout::col_major ? r + c * a.ld : r * a.ld + c;
  return static_cast<const std::byte*>(a.data) + off * static_cast<std::int64_t>(a.elem.bytes);
}

// A component is nonzero when a bit other than its sign bit is set (+-0 are zero, NaN is not).
bool nonzero(const std::byte* p, const ElementBytes& e) {
  const std::size_t w = e.bytes / static_cast<std::size_t>(e.parts);
  for (int k = 0; k < e.parts; ++k, p += w) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, p, w);  // little-endian: the component's low bytes
    if ((bits & ~(std::uint64_t{1} << (8 * w - 1))) != 0) return true;
  }
  return false;
}

bool block_nonzero(const DenseBytes& a, std::int64_t block, std::int64_t bi, std::int64_t bj) {
  for (std::int64_t r = bi * block; r < (bi + 1) * block; ++r)
    for (std::int64_t c = bj * block; c < (bj + 1) * block; ++c)
      if (nonzero(element(a, r, c), a.elem)) return true;
  return false;
}

void check_shapes(const DenseBytes& A, const BlockedEllBytes& B) {
  if (A.rows != B.rows || A.cols != B.cols) invalid("the dense matrix and matB differ in shape", "matA");
  if (A.elem.bytes != B.elem.bytes || A.elem.parts != B.elem.parts) invalid("value types differ", "matA");
  if (B.block < 1 || B.rows % B.block != 0 || B.cols % B.block != 0 || B.ell_cols % B.block != 0 || B.ell_cols > B.cols)
    invalid("rows, cols and ellCols must be multiples of ellBlockSize, ellCols <= cols", "matB");
}

// The block columns (base 0, -1 empty) of B's slots, validated.
std::vector<std::int64_t> slots_of(const BlockedEllBytes& B) {
  const std::int64_t brows = B.rows / B.block, slots = B.ell_cols / B.block, bcols = B.cols / B.block;
  std::vector<std::int64_t> cols(z(brows * slots), -1), seen(z(bcols), -1);
  for (std::int64_t i = 0; i < brows; ++i)
    for (std::int64_t t = 0; t < slots; ++t) {
      const std::int64_t raw = idx(B.col_ind, B.index_type, i * slots + t);
      if (raw == -1) continue;
      const std::int64_t c = raw - base_value(B.base);
      if (c < 0 || c >= bcols) invalid("ellColInd: block column out of range at slot " + std::to_string(i * slots + t), "matB");
      if (seen[z(c)] == i) invalid("ellColInd: block column repeated in block row " + std::to_string(i), "matB");
      seen[z(c)] = i;
      cols[z(i * slots + t)] = c;
    }
  return cols;
}

}  // namespace

void dense_to_blocked_ell_analysis(const DenseBytes& A, const BlockedEllBytes& B) {
  check_shapes(A, B);
  const std::int64_t brows = B.rows / B.block, slots = B.ell_cols / B.block, bcols = B.cols / B.block;
  std::vector<std::int64_t> cols(z(brows * slots), -1);
  for (std::int64_t i = 0; i < brows; ++i) {
    std::int64_t used = 0;
    for (std::int64_t j = 0; j < bcols; ++j) {
      if (!block_nonzero(A, B.block, i, j)) continue;
      if (used == slots)
        invalid("block row " + std::to_string(i) + " has more nonzero blocks than ellCols / ellBlockSize = " +
                    std::to_string(slots),
                "matB");
      cols[z(i * slots + used++)] = j;
    }
  }
  const std::int64_t b = base_value(B.base);
  for (std::int64_t s = 0; s < brows * slots; ++s) put_index(B.col_ind, B.index_type, s, cols[z(s)] < 0 ? -1 : cols[z(s)] + b);
}

void dense_to_blocked_ell_convert(const DenseBytes& A, const BlockedEllBytes& B) {
  check_shapes(A, B);
  const std::int64_t brows = B.rows / B.block, slots = B.ell_cols / B.block, bcols = B.cols / B.block;
  const std::vector<std::int64_t> cols = slots_of(B);
  std::vector<char> in_pattern(z(bcols), 0);
  for (std::int64_t i = 0; i < brows; ++i) {  // every nonzero block must have a slot
    std::fill(in_pattern.begin(), in_pattern.end(), 0);
    for (std::int64_t t = 0; t < slots; ++t)
      if (cols[z(i * slots + t)] >= 0) in_pattern[z(cols[z(i * slots + t)])] = 1;
    for (std::int64_t j = 0; j < bcols; ++j)
      if (in_pattern[z(j)] == 0 && block_nonzero(A, B.block, i, j))
        invalid("block (" + std::to_string(i) + ", " + std::to_string(j) +
                    ") of A is nonzero but not in ellColInd (call DenseToSparse_analysis first)",
                "matB");
  }
  const std::size_t w = A.elem.bytes;
  auto* out = static_cast<std::byte*>(B.values);
  for (std::int64_t i = 0; i < brows; ++i)
    for (std::int64_t t = 0; t < slots; ++t) {
      const std::int64_t c = cols[z(i * slots + t)];
      for (std::int64_t r = 0; r < B.block; ++r) {
        std::byte* dst = out + ((i * B.block + r) * B.ell_cols + t * B.block) * static_cast<std::int64_t>(w);
        for (std::int64_t q = 0; q < B.block; ++q, dst += w) {
          if (c < 0)
            std::memset(dst, 0, w);
          else
            std::memcpy(dst, element(A, i * B.block + r, c * B.block + q), w);
        }
      }
    }
}

}  // namespace trn::sparse
