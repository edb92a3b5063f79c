// trn::tile streaming-rows launch: an elementwise kernel over packed HBM buffers of n elements.
//
// The buffers are viewed as rows of `row_width` elements; program b < blocks takes rows
// [b pmax, min((b + 1) pmax, rows)) on as many partitions, and when n is not a multiple of
// row_width one more program takes the tail (n mod row_width elements) on one partition. The
// grid is a function of n alone (not of host threads), so traces and bits do not depend on the
// machine. Every program's HBM regions are disjoint, as launch() requires. row_width is a tiling
// choice (free elements per instruction), not a hardware limit.
#pragma once
#include <cstdint>
#include <functional>

#include "trn/core/dtype.hpp"
#include "trn/core/memory.hpp"
#include "trn/core/spmd.hpp"

namespace trn::tile {

// The rows one program streams: rows [row0, row0 + partitions) of width `width` (the tail program:
// row `row0` = rows, one partition, width n mod row_width).
struct RowBlock {
  std::int64_t row0 = 0;
  std::int32_t partitions = 0;
  std::int64_t width = 0;
  std::int64_t row_width = 0;  // the buffers' row pitch in elements
  // This block of a packed buffer of `dtype` elements as an HBM tile [partitions, width]
  // (a DMA source or destination).
  Tile of(const void* buffer, DType dtype) const;
};

// Launches body once per program over n elements in rows of row_width (> 0) elements under
// `config` (its grid is replaced). Nothing is launched for n = 0 (the result is empty).
LaunchResult launch_rows(const LaunchConfig& config, std::int64_t n, std::int64_t row_width,
                         const std::function<void(NeuronCore&, const RowBlock&)>& body);

}  // namespace trn::tile
