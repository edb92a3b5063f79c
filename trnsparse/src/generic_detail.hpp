// Index helpers shared by the generic API's arithmetic (generic.cpp) and conversions (convert.cpp):
// decoding an index array, walking the stored entries of a validated matrix or sparse vector.
#pragma once
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "trn/sparse/generic.hpp"

namespace trn::sparse::generic_detail {

// Calls f(std::integral_constant<std::size_t, W>) for a value width of 2, 4, 8 or 16 bytes (a value
// copy of compile-time size, not a memcpy call per value: the conversions' value moves), f(0) for
// any other width.
template <class F>
void with_value_width(std::size_t value_bytes, F&& f) {
  switch (value_bytes) {
    case 2: return f(std::integral_constant<std::size_t, 2>{});
    case 4: return f(std::integral_constant<std::size_t, 4>{});
    case 8: return f(std::integral_constant<std::size_t, 8>{});
    case 16: return f(std::integral_constant<std::size_t, 16>{});
    default: return f(std::integral_constant<std::size_t, 0>{});
  }
}

[[noreturn]] inline void invalid(const std::string& what, const std::string& item) {
  throw InvalidArgument("trnsparse: " + what, item);
}
inline std::int64_t idx(const void* p, IndexType t, std::int64_t i) {
  return t == IndexType::i32 ? std::int64_t{static_cast<const std::int32_t*>(p)[i]} : static_cast<const std::int64_t*>(p)[i];
}
inline std::int64_t base_value(IndexBase b) { return b == IndexBase::one ? 1 : 0; }

inline void put_index(const void* p, IndexType t, std::int64_t i, std::int64_t v) {
  if (t == IndexType::i32)
    static_cast<std::int32_t*>(const_cast<void*>(p))[i] = static_cast<std::int32_t>(v);
  else
    static_cast<std::int64_t*>(const_cast<void*>(p))[i] = v;
}

// The product's shape checks (spmm_host's and spmm_fp64's, in this order): A valid, one value type for
// A, B and C, op(B) K x n, C M x n. Returns {M, K} of op(A).
inline std::pair<std::int64_t, std::int64_t> check_product_shapes(GOp opA, GOp opB, const SparseRef& A, const DenseAny& B,
                                                                  const DenseAny& C) {
  validate(A);
  const std::int64_t M = opA == GOp::N ? A.rows : A.cols, K = opA == GOp::N ? A.cols : A.rows;
  const std::int64_t bk = opB == GOp::N ? B.rows : B.cols, bn = opB == GOp::N ? B.cols : B.rows;
  if (B.value != A.value || C.value != A.value) invalid("A, B and C must share one value type", "valueType");
  if (bk != K || bn != C.cols) invalid("op(B) is not K x n", "matB");
  if (C.rows != M) invalid("C is not M x n", "matC");
  return {M, K};
}

// A compressed pattern with base-0 indices: the entries of row i are start[i] .. start[i + 1].
struct RowPattern {
  std::vector<std::int64_t> start, col;
};
// The structural product of patterns a (rows x k) and b (k x b_cols): row i of the result is the
// union over a's entries (i, k) of b's row k, sorted (SpGEMM's symbolic phase, CSR or block
// pattern). Appends to offsets (which holds the first 0) and columns; returns the number of
// intermediate products sum over a's entries (i, k) of |b row k|.
// Index work only: a row's distinct columns are sorted by a bitmap of the columns when that is shorter
// than 4 words per column, else by std::sort (the same order either way).
inline std::int64_t structural_product(const RowPattern& a, const RowPattern& b, std::int64_t rows, std::int64_t b_cols,
                                       std::vector<std::int64_t>& offsets, std::vector<std::int64_t>& columns) {
  auto z = [](std::int64_t i) { return static_cast<std::size_t>(i); };
  std::int64_t products = 0;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t ea = a.start[z(i)]; ea < a.start[z(i) + 1]; ++ea) products += b.start[z(a.col[z(ea)]) + 1] - b.start[z(a.col[z(ea)])];
  columns.reserve(columns.size() + z(std::min(products, rows * b_cols)));
  offsets.reserve(offsets.size() + z(rows));
  std::vector<std::int64_t> mark(z(b_cols), -1);
  const std::int64_t words = (b_cols + 63) / 64;
  std::vector<std::uint64_t> bits(z(words), 0);
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::size_t first = columns.size();
    for (std::int64_t ea = a.start[z(i)]; ea < a.start[z(i) + 1]; ++ea) {
      const std::int64_t k = a.col[z(ea)];
      for (std::int64_t eb = b.start[z(k)]; eb < b.start[z(k) + 1]; ++eb) {
        const std::int64_t j = b.col[z(eb)];
        if (mark[z(j)] == i) continue;
        mark[z(j)] = i;
        columns.push_back(j);
      }
    }
    const auto n = static_cast<std::int64_t>(columns.size() - first);
    if (n > 1 && words <= 4 * n) {
      for (std::size_t e = first; e < columns.size(); ++e) bits[z(columns[e] / 64)] |= std::uint64_t{1} << (columns[e] % 64);
      std::size_t e = first;
      for (std::int64_t w = 0; w < words; ++w) {
        for (std::uint64_t m = bits[z(w)]; m != 0; m &= m - 1) columns[e++] = 64 * w + std::countr_zero(m);
        bits[z(w)] = 0;
      }
    } else {
      std::sort(columns.begin() + static_cast<std::ptrdiff_t>(first), columns.end());
    }
    offsets.push_back(static_cast<std::int64_t>(columns.size()));
  }
  return products;
}

// f(row, col, entry) for every stored entry of a validated matrix, in storage order.
template <class F>
void for_each_entry(const SparseRef& a, F&& f) {
  const std::int64_t b = base_value(a.base);
  if (a.format == SparseRef::Format::coo) {
    for (std::int64_t e = 0; e < a.nnz; ++e) f(idx(a.offsets, a.offsets_type, e) - b, idx(a.indices, a.indices_type, e) - b, e);
    return;
  }
  const bool csr = a.format == SparseRef::Format::csr;
  const std::int64_t major = csr ? a.rows : a.cols;
  for (std::int64_t m = 0; m < major; ++m) {
    const std::int64_t lo = idx(a.offsets, a.offsets_type, m) - b, hi = idx(a.offsets, a.offsets_type, m + 1) - b;
    for (std::int64_t e = lo; e < hi; ++e) {
      const std::int64_t minor = idx(a.indices, a.indices_type, e) - b;
      if (csr)
        f(m, minor, e);
      else
        f(minor, m, e);
    }
  }
}

// f(position, entry) for every entry of a validated sparse vector, in storage order.
// The index type is tested once, not per entry, so the loop over a typed array can vectorise.
template <class F>
void for_each_spvec(const SpVecRef& x, F&& f) {
  const std::int64_t b = base_value(x.base);
  auto each = [&](const auto* ix) {
    for (std::int64_t e = 0; e < x.nnz; ++e) f(std::int64_t{ix[e]} - b, e);
  };
  if (x.index_type == IndexType::i32)
    each(static_cast<const std::int32_t*>(x.indices));
  else
    each(static_cast<const std::int64_t*>(x.indices));
}

}  // namespace trn::sparse::generic_detail
