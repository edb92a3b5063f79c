// General access patterns over a tile's storage: the hardware's [partition, free...] descriptor
// (ARCH2: up to four free dimensions with element strides; NKI index expressions and `.ap()`).
// trn::Tile's views (rows, slice, reshape) cover boxes; an index expression such as NKI's
// `t[i_p, i_f2 * F1 + i_f1]` permutes free axes, which only a pattern states. The Python NKI front
// end (python/src/nki_core.cpp) builds every view through this one function.
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "trn/core/memory.hpp"

namespace trn {

// `count` partitions from row `first` of `root`, element (0, ...) at flat element `offset` of that
// row, free dimensions dims[d] = {size, stride} in elements, outermost first (1..kMaxFreeDims).
// `root` must be free-contiguous (an allocation, or a whole HBM tensor as one row) and every element
// the pattern reaches must lie inside it (LimitError otherwise). partition_step (elements): 0 keeps
// root's own partition rows (on-chip tiles must); a one-row HBM root may give its partitions any
// stride (the partition axis of an HBM view is any axis of the tensor).
Tile access_pattern(const Tile& root, std::int32_t first, std::int32_t count, std::int64_t partition_step,
                    std::int64_t offset, std::span<const std::array<std::int64_t, 2>> dims);

}  // namespace trn
