// Index helpers shared by the generic API's arithmetic (generic.cpp) and conversions (convert.cpp):
// decoding an index array, walking the stored entries of a validated matrix or sparse vector.
#pragma once
#include <cstdint>
#include <string>

#include "trn/sparse/generic.hpp"

namespace trn::sparse::generic_detail {

[[noreturn]] inline void invalid(const std::string& what, const std::string& item) {
  throw InvalidArgument("trnsparse: " + what, item);
}
inline std::int64_t idx(const void* p, IndexType t, std::int64_t i) {
  return t == IndexType::i32 ? std::int64_t{static_cast<const std::int32_t*>(p)[i]} : static_cast<const std::int64_t*>(p)[i];
}
inline std::int64_t base_value(IndexBase b) { return b == IndexBase::one ? 1 : 0; }

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
template <class F>
void for_each_spvec(const SpVecRef& x, F&& f) {
  const std::int64_t b = base_value(x.base);
  for (std::int64_t e = 0; e < x.nnz; ++e) f(idx(x.indices, x.index_type, e) - b, e);
}

}  // namespace trn::sparse::generic_detail
