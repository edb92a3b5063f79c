// fp64 operands cut into 8-bit slices on the engines (issues #27 / #30): the device form of the host
// slicing loops of Ozaki scheme I (gemm_ozaki_slices) and the fp64 Level 1/2 slice pairs
// (gemv_slice_pairs), on core's trn::tile::slice_fp64_on_device (trn/tile/fp64_slices.hpp).
//
// Algorithm   An operand op(X) (K x F, element (kk, f) at X[kk xk + f xf]) is DMAed from HBM as its
//             uint32 word pairs, partitions over the contraction index in blocks (kk = kk0 + p Rb + r:
//             128 partitions of Rb = K / 128 rows, then one partition per row of the K % 128 tail),
//             the free pattern over (r, f) in the order memory is contiguous. Each value's offset
//             o = tk[kk] + tf[f] (the host's exponent pass: kSliceOffsetBias + the line's exponent and
//             the contraction balancing, cut_slices's -shift) is two broadcast DMAs and one VectorE
//             add; the slices are cut by slice_fp64_on_device (zero_non_finite: Inf / NaN give zero
//             slices, as cut_slices) and DMAed to out[kk ok + f of + s os] as bf16.
// Engines     DMA (8 bytes in and 2 S bytes out per value, 8 bytes of offsets per partition row),
//             GpSimdE / VectorE (slice_fp64_on_device: 24 instructions per program, about 22 + 17 W
//             element-ops per value, W = ceil(S / 4)), VectorE (the offset add). One launch for all
//             operands of a call; programs of <= 128 partitions x a free chunk that fits SBUF.
// Accuracy    Exact: every slice equals cut_slices(x, -e, S)'s as a number (a negative value's zero
//             slices may be -0 where cut_slices gives +0; the partial sums and folds start at +0, so
//             no result bit sees it) whenever x 2^-e is normal or zero: guaranteed for a line whose
//             exponent spread is <= kDeviceSlicingMaxSpread (device_slicing_exact). Callers keep
//             the host loop otherwise (cut_slices rounds a subnormal x 2^-e once; the device truncates).
// Limits      S <= kVectorMaxSlices; |tk + tf| < 2^20; offsets int32. K, F >= 0.
#pragma once
#include <cstdint>
#include <vector>

#include "trn/core/spmd.hpp"
#include "trn/core/trace.hpp"

namespace trn::blas::detail {

// One operand op(X) to slice (see the header above for the index maps).
struct SliceOperand {
  const double* x = nullptr;
  std::int64_t K = 0, F = 0, xk = 0, xf = 0;        // element (kk, f) at x[kk xk + f xf], strides >= 0
  const std::int32_t* tk = nullptr;                 // offset term per contraction index (K of them)
  const std::int32_t* tf = nullptr;                 // offset term per line (F of them)
  std::uint16_t* out = nullptr;                     // slice s of (kk, f) at out[kk ok + f of + s os] (bf16)
  std::int64_t ok = 0, of = 0, os = 0;
  int S = 1;
};

// The largest exponent spread of a line for which the device slicing equals cut_slices (x 2^-e stays
// normal: its exponent is >= 1 - spread >= -1021).
inline constexpr int kDeviceSlicingMaxSpread = 1022;
inline bool device_slicing_exact(int spread) { return spread <= kDeviceSlicingMaxSpread; }
// Below this many operand elements the host loop is cheaper on the cost model (the slicing launch's
// fixed cost: ddot 1000, four programs, models 44.0 us against 38.8 us with host slicing; ddot 1024,
// 39.3 -> 34.3 us) and in host time per call (issue #30's small calls): such calls keep it.
inline constexpr double kDeviceSlicingMinElements = 4096;

// Slices every operand in one launch under `lc` (grid set here); the launch's trace is appended.
void slice_on_device(LaunchConfig lc, const std::vector<SliceOperand>& operands, Trace& trace);

}  // namespace trn::blas::detail
