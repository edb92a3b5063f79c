// trn::tile views: new Tiles over the same storage with another access pattern.
//
// The first floor above the ISA (docs/architecture.md "trn::tile views"). A Tile is a
// [partition, free...] access pattern (trn/core/memory.hpp); library code never edits its fields,
// it asks for a view here. Each function returns a new Tile, never copies data, emits no
// instruction, and checks what it can check: a view of a dense on-chip run must stay inside that
// run; a view of raw host (HBM) memory can only be checked for shape, since no extent is known.
// Free functions in the manner of CuTe's layout algebra (make_layout(shape, stride), composition):
// Tile's own members (rows, slice, cols, reshape, bitcast, broadcast_partitions) remain the
// sub-range views; these add explicit strides, repeats and raw memory.
//
// Failures throw trn::UsageError / trn::LimitError naming the function and the offending values.
#pragma once
#include <array>
#include <cstdint>
#include <initializer_list>

#include "trn/core/dtype.hpp"
#include "trn/core/memory.hpp"

namespace trn::tile {

// One free dimension of an access pattern: `size` elements, `stride` elements apart (0: the same
// element repeated, a broadcast; negative: walking backwards).
struct FreeDim {
  std::int64_t size = 1;
  std::int64_t stride = 0;
};

// A free access pattern of 1 to kMaxFreeDims dimensions, outermost first (the Tile convention).
class FreePattern {
 public:
  FreePattern() = default;
  FreePattern(std::initializer_list<FreeDim> dims);  // NOLINT(google-explicit-constructor): {{s, st}, ...}
  // Appends an inner dimension; throws LimitError past kMaxFreeDims.
  void push_back(FreeDim d);
  int rank() const { return rank_; }
  const FreeDim& operator[](int d) const { return dims_[static_cast<std::size_t>(d)]; }
  // Element offsets of the first and last addressed element relative to the origin ([0, 0] if
  // some size is 0: nothing is addressed).
  std::int64_t min_offset() const { return reach(-1); }
  std::int64_t max_offset() const { return reach(1); }
  bool empty() const;  // some dimension has size 0

 private:
  std::int64_t reach(int sign) const;  // sum of stride (size - 1) over the dims whose stride has this sign
  std::array<FreeDim, kMaxFreeDims> dims_{};
  int rank_ = 0;
};

// The elements of `dense`'s free run addressed by `pattern` from element `offset`, on the same
// partitions. `dense` must have a dense free pattern (Tile::free_contiguous(), e.g. a fresh
// allocation or a column range of one) and every addressed element must lie inside it:
// 0 <= offset + pattern.min_offset() and offset + pattern.max_offset() < dense.free_size().
// Dimensions past the pattern's rank are size 1, stride 0.
//   view(flat, 0, {{cols, rows}, {rows, 1}})   a column-major rows x cols matrix as [cols, rows]
//   view(flat, j, {{groups, w}, {len, 0}})     element j of each group, repeated len times
Tile view(const Tile& dense, std::int64_t offset, const FreePattern& pattern);

// Component `part` (0: real, 1: imaginary) of interleaved complex elements (re, im adjacent, as
// std::complex and the C APIs store them): `view(dense, 2 offset + part, pattern * 2)` with
// `offset` and `pattern` counted in complex elements. Complex arithmetic is then real
// instructions on the two planes (trn/tile/complex.hpp); nothing is repacked.
Tile complex_plane(const Tile& dense, int part, std::int64_t offset, const FreePattern& pattern);

// Free dimension `dim` of `t` (size 1) read `count` times: size count, stride 0 (NKI
// broadcast_to on a free axis). Engines read it like any pattern; writing it is a race.
Tile broadcast(const Tile& t, int dim, std::int64_t count);

// `count` copies of t's free pattern, `stride` elements apart, as a new outermost free
// dimension (t.ndim < kMaxFreeDims). stride 0 is a broadcast of the whole pattern (a row read by
// every group); a nonzero stride steps through storage the caller knows to be there (e.g. block
// columns of an HBM matrix), which this function cannot check.
Tile stack_outer(const Tile& t, std::int64_t count, std::int64_t stride);

// A tile over raw host memory (the emulated HBM, e.g. a C-API argument): `partitions` rows
// `partition_stride` elements apart from `base`, each row addressed by `pattern`. The tile is a
// DMA source or destination like any HbmTensor view (Tile carries no const). Only the shape is
// checked (partitions >= 0, sizes >= 0, byte offsets within int64): the caller owns the extent.
Tile hbm_view(const void* base, DType dtype, std::int32_t partitions, std::int64_t partition_stride,
              const FreePattern& pattern);

// A [rows, F] HBM tile (one free dimension, rows even) read as [rows / 2, 2, F]: partition p holds
// rows 2p and 2p + 1, the double_row layout of nc_matmul (two contraction rows per partition;
// trn/core/neuron_core.hpp). The partition stride must be a whole number of elements.
Tile partition_pairs(const Tile& rows);

}  // namespace trn::tile
