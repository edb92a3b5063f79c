// Internals of trntensor shared by its source files.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trn/tensor/tensor.hpp"

namespace trn::tensor::detail {

// One dimension of a strided copy (elements).
struct CopyDim {
  std::int64_t extent;
  std::int64_t src_stride;
  std::int64_t dst_stride;
};
// dst[sum i_d dst_stride_d] = src[sum i_d src_stride_d] over every index tuple: host data movement
// (packing and unpacking of TTGT operands, C -> D copies). No arithmetic.
void copy_strided(DataType t, const void* src, void* dst, const std::vector<CopyDim>& dims);

// "'a'" for a letter label, the number otherwise.
std::string mode_name(std::int32_t label);

}  // namespace trn::tensor::detail
