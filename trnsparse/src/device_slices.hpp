// The error-free fp64 slicing on GpSimdE / VectorE now lives in core's tile layer
// (trn/tile/fp64_slices.hpp), shared with trnblas's fp64 slice products; these names keep
// trnsparse's kernels and tests spelled as before.
#pragma once
#include "trn/tile/fp64_slices.hpp"

namespace trn::sparse {
using tile::device_slice_scratch_bytes;
using tile::DeviceSliceArgs;
using tile::kSliceOffsetBias;
using tile::slice_fp64_on_device;
}  // namespace trn::sparse
