// trn::tile fp64 slicing: the error-free 8-bit slicing of fp64 values on the engines, the device form
// of trn::blas::slices::cut_slices (trn/blas/fp64_slices.hpp), bit for bit. Shared by trnsparse's
// segmented slice-pair SpMV (docs/trnsparse.md "Slicing on the device") and trnblas's fp64 slice
// products (Ozaki scheme I, the fp64 Level 1/2 slice pairs; docs/trnblas.md "Slicing on the device").
//
// Algorithm   No engine computes in fp64, but DMA moves bytes: an fp64 value v arrives in SBUF as its
//             two little-endian uint32 words (lo, hi). With field = (hi >> 20) & 0x7ff and
//             E = max(field, 1), the 53-bit magnitude m = ((hi & 0xfffff) | [field != 0] 2^20) 2^32 + lo
//             gives |v| = m 2^(E - 1075) (subnormals included). cut_slices(v, -e, S) truncates
//             |v| 2^-e toward zero into base-256 digits and applies v's sign, so slice s is
//             sign(v) ((m >> (k0 - 8 s)) & 255) with k0 = o - E, o = kSliceOffsetBias + e supplied
//             per value (the host's exponent pass; e the line's largest exponent). Four slices come
//             from one 32-bit word: word_j = m >> K_j (kept to 32 bits), K_j = k0 - 24 - 32 j, built
//             as (lo >> K) | (mhi << (32 - K)) | (mhi >> (K - 32)) | (lo << -K): a shift amount
//             outside [0, 32) (negative ones zero-extend to >= 2^31) gives 0 (docs/numerics.md,
//             bitvec ops), so the four terms cover every K branch-free. Slice 4 j + b =
//             (word_j >> (24 - 8 b)) & 255, times 1 - 2 (hi >> 31), written as bf16 (|.| <= 255:
//             exact; a negative v's zero slices are -0, as cut_slices's trunc gives).
// Engines     GpSimdE: every op on the 32-bit words (bitvec and native integer ops: exact in both
//             numerics profiles; VectorE's bitvec ops round-trip operands above 2^24 through fp32
//             under trn1_measured, I1308). VectorE: the shift amounts, exponent terms and the signed
//             bf16 result (integers below 2^21: exact on the fp32 path of either profile).
//             22 instructions per call (24 with zero_non_finite); per value about 20 + 17 W VectorE/GpSimdE element-ops
//             (W = ceil(S / 4) words).
// Accuracy    Exact: every slice equals cut_slices(v, -e, S) bit for bit for finite v with
//             |v| < 2^e and v 2^-e normal (cut_slices rounds a subnormal v 2^-e once, as ldexp; this
//             form truncates it exactly). Inf / NaN: with zero_non_finite their slices are 0 (as
//             cut_slices's: field == 0x7ff adds 2^16 to k0, beyond every shift); without it the caller
//             writes 0 in their place.
// Limits      o = kSliceOffsetBias + e with -1073 <= e <= 1024 (any int32 o is safe: a k0 outside
//             [-32, 64 + 32 W) gives zero slices). S <= kVectorMaxSlices. Tiles in SBUF only
//             (GpSimdE cannot read PSUM).
#pragma once
#include <cstdint>

#include "trn/core/neuron_core.hpp"

namespace trn::tile {

// o = kSliceOffsetBias + e: k0 = o - E = 53 + e - (E - 1022) - 8 is the shift that brings slice 0's
// 8 bits of m to the bottom.
inline constexpr std::int32_t kSliceOffsetBias = 1067;

// Values addressed as [outer, inner] (outer * inner of them per partition): words [P, outer * inner * 2]
// u32 (dense, lo then hi), offsets an int32 view [P, (outer, inner)] (it may broadcast), dst a dense
// bf16 [P, outer * inner * S] run (value-major, slice inner). Scratch is allocated and freed in SBUF.
struct DeviceSliceArgs {
  Tile dst, words, offsets;
  std::int64_t outer = 1, inner = 1;
  int S = 1;
  bool zero_non_finite = false;  // Inf / NaN words give zero slices (2 more VectorE instructions)
};
void slice_fp64_on_device(NeuronCore& nc, const DeviceSliceArgs& a);

// SBUF bytes per partition the scratch of one call takes per value (for the caller's SBUF budget).
std::int64_t device_slice_scratch_bytes(int S, bool zero_non_finite = false);

}  // namespace trn::tile
