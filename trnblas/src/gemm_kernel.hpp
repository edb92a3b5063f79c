// The one GEMM tile kernel behind every trnblas mode.
//
// Algorithm   C^T-oriented blocking: an output tile is [columns j of C (partitions, <= 128),
//             rows i of C (free, <= 512)] so that it maps to contiguous rows of column-major C.
//             stationary = op(B) tile [k, j], moving = op(A) tile [k, i]. A pass covers a block
//             of (128 * tiles_j) columns x (512 * tiles_i) rows, tiles_i * tiles_j <= 8 PSUM banks.
//             For every 128-deep K tile (increasing k) it DMAs the op(A) and op(B) tiles into SBUF
//             (casting to the load dtype), optionally splits them on VectorE into bf16 terms, and
//             issues one nc_matmul per (term pair, output tile) into that tile's PSUM bank
//             (accumulate=false only for the first). A program is one pass (streaming plan) or a
//             column strip for all rows whose op(B) terms are loaded into SBUF once and reused by
//             every pass (resident plan); choose_block picks the plan with the least DMA volume
//             that fits in SBUF. Operand tiles are double-buffered by K-tile parity. Epilogue:
//             VectorE alpha/beta in fp32, cast to C's dtype, DMA out. Raw mode stores the fp32
//             PSUM sums unscaled (Ozaki partials).
// Engines     DMA, TensorE, VectorE.
// Accuracy    per output element: the nc_matmul contract (fp32, k tile by k tile, and within a k tile
//             the term pairs in the given order); epilogue fl(fl(alpha*acc) + fl(beta*c)); alpha == 1
//             skips the multiply, beta == 0 never reads C.
// Limits      any m, n, k; triangle mode skips output tiles outside the triangle and moves crossing
//             tiles row by row so the other triangle is never read or written.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "trn/core/core.hpp"

namespace trn::blas::detail {

enum class Triangle : std::uint8_t { none, lower, upper };  // lower: keep C(i, j) with i >= j

struct BlockGemmArgs {
  std::vector<HbmTensor> a_src;  // op(A) as [K, M] views (one per source term)
  std::vector<HbmTensor> b_src;  // op(B) as [K, N] views
  DType load = DType::bf16;      // SBUF dtype the DMA converts the sources to
  int split = 1;                 // bf16 terms per loaded tile made on VectorE (1: none; 2 or 3)
  std::vector<std::pair<int, int>> pairs;  // (A term, B term) in accumulation order
  std::int64_t m = 0, n = 0, k_begin = 0, k_end = 0;
  HbmTensor c;                   // C as [N, M] (row j = column j of C)
  float alpha = 1.0f, beta = 0.0f;
  bool multiply = true;          // false: alpha == 0 (A and B are not read)
  bool raw = false;              // store fp32 sums, no alpha/beta
  Triangle triangle = Triangle::none;
};

struct BlockShape {
  int tiles_i = 4, tiles_j = 2;  // 512-row and 128-column tiles per pass (<= PSUM banks)
  bool resident = false;         // program = a column strip for all rows, op(B) strip kept in SBUF
};
// SBUF bytes per partition the kernel needs per element of each operand tile (see
// gemm_block_kernel): `streamed` per double-buffered op(A) row / op(B) column (terms, and for split
// modes the fp32 tile and residual, two buffers each); `strip` per (k, j) element of a resident
// op(B) strip (its terms).
struct SbufBytes {
  std::int64_t a_streamed = 0, b_streamed = 0, b_strip = 0, b_split_scratch = 0;
};
SbufBytes sbuf_bytes_of(const BlockGemmArgs& g);
BlockShape choose_block(const HardwareSpec& hw, std::int64_t m, std::int64_t n, std::int64_t k, const SbufBytes& bytes);

void gemm_block_kernel(NeuronCore& nc, const BlockGemmArgs& g, const BlockShape& b);

// Launches gemm_block_kernel once per entry of `problems` (grid axis 2) over the blocks of C.
LaunchResult launch_gemm(const LaunchConfig& lc, const std::vector<BlockGemmArgs>& problems);

}  // namespace trn::blas::detail
