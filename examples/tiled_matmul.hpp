// Tiled matmul on the emulated NeuronCore: C[M, N] = A[M, K] @ B[K, N].
//
// Algorithm   Each SPMD program owns a block of C of block_m x block_n (block_m a multiple of 128,
//             block_n a multiple of the PSUM bank width 512, (block_m/128)*(block_n/512) <= 8 PSUM
//             banks). For each 128-deep K tile it loads A^T (transposed DMA, cast to the compute
//             dtype) and B into SBUF once, then issues one nc_matmul per (128 x 512) sub-block,
//             accumulating in PSUM across K tiles (accumulate=false for the first). The finished
//             PSUM accumulators are copied to SBUF by VectorE (cast to C's dtype) and stored by DMA.
// Engines     DMA (loads/stores), TensorE (nc_matmul), VectorE (PSUM -> SBUF copy).
// Sizes       any M, N, K >= 1; edge tiles are partial (K tiles < 128 rows, M/N edges narrower).
// Accuracy    inputs rounded once to the compute dtype (RNE); every element is then the fp32
//             sequential sum over k = 0..K-1 (tile by tile), i.e. |error| <= gamma_K * sum|a||b|
//             on top of the input rounding. Bits are independent of the block shape and thread count.
// Limits      A, B, C fp32 (or any dtype) row-major in HBM; compute dtype must be a TensorE input type.
#pragma once
#include <cstdint>

#include "trn/core/core.hpp"

namespace trn::examples {

struct TiledMatmulConfig {
  DType compute = DType::bf16;
  int block_m = 256;   // rows of C per program (multiple of 128)
  int block_n = 2048;  // columns of C per program (multiple of 512)
};

// Emits the kernel for the program at nc.program_id(0) (rows) / program_id(1) (columns).
void tiled_matmul_kernel(NeuronCore& nc, const HbmTensor& A, const HbmTensor& B, const HbmTensor& C,
                         const TiledMatmulConfig& cfg);

// Launches the kernel over the grid that covers C. Returns the launch result (trace etc.).
LaunchResult tiled_matmul(const HbmTensor& A, const HbmTensor& B, const HbmTensor& C, const TiledMatmulConfig& cfg,
                          LaunchConfig launch_cfg = {});

}  // namespace trn::examples
