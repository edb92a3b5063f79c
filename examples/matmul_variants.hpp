// The NKI matrix-multiplication tutorial's progression, on the emulator, for the cost model:
// C[M, N] = lhsT[K, M]^T @ rhs[K, N] with the left operand given pre-transposed, as in the tutorial.
//
//  naive_tiled_matmul_kernel   one 128 x 512 output tile at a time; for every K tile it loads a
//                              [128, 128] lhsT tile and a [128, 512] rhs tile (160 KiB per 16.8 MFLOP:
//                              arithmetic intensity ~102 < 222 flop/byte), so it is DMA-bound.
//  blocked_matmul_kernel       the "fully optimised" shape: blocks of BM x BN outputs accumulated in
//                              an fp32 SBUF result over K blocks of BK, double-buffered lhsT/rhs
//                              blocks (each loaded once per block), rotating PSUM banks so TensorE
//                              never waits for VectorE; compute-bound.
// Engines     DMA, TensorE, VectorE. Sizes: M multiple of block_m, N of block_n, K of block_k (the
//             blocked kernel); the naive kernel needs M % 128 == 0, N % 512 == 0, K % 128 == 0.
// Accuracy    naive: the nc_matmul contract (fp32, tile by tile). blocked: each K block summed in
//             PSUM, then added to the SBUF result in fp32 (one rounding per K block).
#pragma once
#include "trn/core/core.hpp"

namespace trn::examples {

struct BlockedMatmulConfig {
  int block_m = 2048;  // multiple of 128
  int block_n = 1024;  // multiple of 512
  int block_k = 1024;  // multiple of 128
};

// Grid: (N / 512, M / 128) programs... one program per 128 x 512 output tile.
void naive_tiled_matmul_kernel(NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& C);
LaunchResult naive_tiled_matmul(const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& C, LaunchConfig lc = {});

// Grid: one program per (block_m x block_n) block of C.
void blocked_matmul_kernel(NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& C,
                           const BlockedMatmulConfig& cfg);
LaunchResult blocked_matmul(const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& C,
                            const BlockedMatmulConfig& cfg, LaunchConfig lc = {});

}  // namespace trn::examples
