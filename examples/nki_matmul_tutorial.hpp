// The four kernels of the NKI matrix-multiplication tutorial (MMTUT, docs/references.md; the source
// is `matrix_multiplication_nki_kernels.py` of aws-neuron/nki-samples), ported loop for loop to the
// tile API: result[M, N] = lhsT[K, M]^T @ rhs[K, N], the left operand delivered transposed.
//
//  nki_matmul_tiled            for m, n: for k: load lhsT[k, m] [128,128] and rhs[k, n] [128,512],
//                              matmul into one PSUM bank; copy to SBUF; store. DMA-bound.
//  nki_matmul_hoist_load       lhsT's K column of tiles loaded once per m, rhs's once per (m, n).
//  nki_matmul_block_free_dim   blocks of 2 x 2 output tiles: each loaded lhsT / rhs tile feeds two
//                              output tiles.
//  nki_matmul_fully_optimized  M, N and K blocked (TILES_IN_BLOCK_M/N/K = 16/2/8 by default): rhs
//                              rows of BLOCK_N and lhsT rows of BLOCK_M per DMA, K blocks summed
//                              into SBUF result tiles by VectorE, results packed to BLOCK_N rows.
//
// Engines      DMA, TensorE, VectorE (tensor_copy / tensor_tensor / memset).
// Buffers      NKI allocates a tile declared in a loop body afresh every iteration and lets the
//              compiler rotate physical buffers; here every such tile rotates through
//              `TutorialOptions::buffers` copies (fewer when SBUF cannot hold them, see each kernel),
//              PSUM tiles through the 8 banks. Execution order is the program order written here.
// Accuracy     tiled / hoisted / free-dimension blocking: the nc_matmul contract over all of K (fp32
//              PSUM), one rounding to result's dtype. fully optimized: each K block of BLOCK_K summed
//              in PSUM, then added into a result tile of lhsT's dtype (as the tutorial does: one
//              rounding to that dtype per K block, so bf16 inputs lose accuracy with K / BLOCK_K).
// Limits       M % 128, K % 128, N % 512 == 0 (and multiples of the block sizes); lhsT, rhs and
//              result share one dtype (bf16 or fp32 in the tutorial).
#pragma once
#include <string>
#include <vector>

#include "trn/core/core.hpp"

namespace trn::examples {

struct TutorialOptions {
  int buffers = 4;             // physical copies of each loop-local SBUF tile (compiler rotation)
  int tiles_in_block_m = 16;   // fully optimized kernel's meta-parameters (tutorial defaults)
  int tiles_in_block_n = 2;
  int tiles_in_block_k = 8;
};

void nki_matmul_tiled(NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& result,
                      const TutorialOptions& opt = {});
void nki_matmul_hoist_load(NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& result,
                           const TutorialOptions& opt = {});
void nki_matmul_block_free_dimension(NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs,
                                     const HbmTensor& result, const TutorialOptions& opt = {});
void nki_matmul_fully_optimized(NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs, const HbmTensor& result,
                                const TutorialOptions& opt = {});

enum class TutorialKernel { tiled, hoist_load, block_free_dimension, fully_optimized };
inline constexpr TutorialKernel kTutorialKernels[] = {TutorialKernel::tiled, TutorialKernel::hoist_load,
                                                      TutorialKernel::block_free_dimension,
                                                      TutorialKernel::fully_optimized};
const char* tutorial_kernel_name(TutorialKernel k);
void run_tutorial_kernel(TutorialKernel k, NeuronCore& nc, const HbmTensor& lhsT, const HbmTensor& rhs,
                         const HbmTensor& result, const TutorialOptions& opt = {});

// Published measurements of these kernels on hardware, the cost model's calibration set
// (docs/cost-model.md section 5). The trn1 latencies are the older revision of MMTUT's table
// (bf16, lhs 4096 x 8192 (M x K), rhs 8192 x 8192); the trn2 "active %" figures are the current
// revision's neuron-profile engine activity (fp32 inputs, same shape).
struct PublishedFigure {
  TutorialKernel kernel;
  Generation target;
  DType dtype;
  enum class Metric { latency_ms, tensor_active, dma_active, vector_active } metric;
  double published;
};
const std::vector<PublishedFigure>& tutorial_published_figures();

struct CalibrationRow {
  PublishedFigure figure;
  double modeled = 0;   // same unit as published (ms or percent), schedule as written
  double modeled_reorder = 0;  // the same under compiler-style reordering (ScheduleMode::reorder)
  double error = 0;     // latency: relative (modeled / published - 1); activity: percentage points
  double tolerance = 0; // 0.20 relative, or 10 points
  bool pass = false;
};
// Runs the kernels timing-only at the tutorial's shape (one NeuronCore) and costs each figure.
std::vector<CalibrationRow> tutorial_calibration();
std::string calibration_table_markdown(const std::vector<CalibrationRow>& rows);

}  // namespace trn::examples
