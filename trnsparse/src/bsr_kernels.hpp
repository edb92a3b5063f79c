// The block-sparse tile kernels behind trnsparse: BSR SpMM (SpMV is its one-column case), BSR SDDMM
// and CSR SDDMM. The drivers (sparse.cpp) validate, decode the index arrays into 0-based int64 and
// build these arguments; the kernels own SBUF/PSUM, DMA and instruction order.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "trn/core/core.hpp"

namespace trn::sparse::detail {

// A block pattern with 0-based int64 indices: block row r holds entries [row_start[r], row_start[r+1])
// of `col` (block columns, strictly increasing) and `block` (index of the block in the value array).
// Element (r, c) of block b lies at values + (b * rb * cb + (row_major ? r * cb + c : r + c * rb)) * size.
struct BlockPattern {
  std::int64_t brows = 0, bcols = 0, rb = 1, cb = 1;
  bool row_major = true;
  std::vector<std::int64_t> row_start, col, block;
  std::byte* values = nullptr;
  DType value_type = DType::f32;
  // [cb (k), rb (m)] view of block b, read transposed: the stationary operand of the block's matmul.
  HbmTensor stationary_view(std::int64_t b) const;
  // [rb, cb] view of block b (SDDMM output).
  HbmTensor block_view(std::int64_t b) const;
};

// C = alpha op(A) op(B) + beta C with op(A) given as a block pattern (already transposed for opA = T).
//
// Algorithm   Grid: axis 0 = column chunks of C (gemm_moving_fmax wide), axis 1 = groups of block
//             rows with balanced block counts. A program first loads, for every block column its
//             rows reference, the op(B) rows [k, n chunk] into SBUF once (resident plan; when they do
//             not fit in half of SBUF, each block's op(B) tile is streamed instead). Then per block
//             row and 128-row chunk of it: for each stored block (increasing column) and each
//             128-deep chunk of its columns, DMA the block (transposed view) into SBUF and issue one
//             nc_matmul [tk, tm]^T x [tk, n] into the row's PSUM accumulator (accumulate=false only
//             for the first); evacuate once: VectorE alpha (and beta C), cast, DMA out. Block rows
//             without stored blocks cost a memset (or only beta C). A tiles and PSUM accumulators
//             are double-buffered so that loads and the epilogue overlap the matmuls.
// Engines     DMA, TensorE, VectorE.
// Accuracy    per output element: fp32 sum, block by block in increasing column order and within a
//             block in increasing k, one rounding per step (the nc_matmul contract); then
//             fl(fl(alpha * acc) + fl(beta * c)), alpha == 1 skips the multiply.
// Limits      any block size >= 1, any n; blocks smaller than 128 x 128 under-fill the PE array.
struct SpmmArgs {
  BlockPattern a;
  HbmTensor b;          // op(B) as [K, n]
  HbmTensor c;          // C as [M, n]
  DType load = DType::f32;
  float alpha = 1.0f, beta = 0.0f;
  bool multiply = true;  // false: alpha == 0, A and B are not read
  std::int64_t n = 0;
  // Logical rows of op(A) and contraction length (<= the block grid's): a CSR matrix converted to
  // 128-blocks pads its last block row/column; padded rows are never stored, padded columns never
  // contracted.
  std::int64_t m_rows = 0, k_rows = 0;
};
// The SpMM kernel's plan (trn::Plan): the grid (column chunks x block-row groups balanced by stored
// blocks); each program keeps its op(B) strips resident in SBUF when they fit beside its A buffers
// and epilogue tiles, and streams them per block otherwise (spmm_kernel).
struct SpmmPlan {
  int row_groups = 1, n_chunks = 1;
  std::vector<std::int64_t> group_start;  // block rows of group g: [group_start[g], group_start[g+1])
  double predicted_ns = -1;  // the launch run timing-only before the call (-1: not predicted)
  // The plan with what the launch did: op(B) residency and the SBUF/PSUM peaks.
  std::string print(std::int64_t m, std::int64_t n, std::int64_t k, bool b_resident, const LaunchResult& r) const;
};
SpmmPlan plan_spmm(const HardwareSpec& hw, const SpmmArgs& g, int num_cores);
// b_resident: set when some program keeps its op(B) strips in SBUF.
void spmm_kernel(NeuronCore& nc, const SpmmArgs& g, const SpmmPlan& p, std::atomic<bool>* b_resident);

// C_block = alpha (op(A) op(B))_block + beta C_block for every stored block of C.
//
// Algorithm   Grid: axis 1 = groups of block rows.
//             Small blocks (s18/sparse; f32 values, row-major blocks of rb <= 64 rows and cb <=
//             gemm_moving_fmax columns, op(A) and op(B) resident in SBUF): the program's stored
//             blocks in storage order are cut into tiles of up to min(128 / rb, 512 / cb) blocks with
//             consecutive values. Before the first tile: the op(A) rows and op(B) columns the blocks
//             use (windows of 128, at most 512 per DMA). Per tile: DMA its control words (each
//             block's block row and column); GpSimdE (custom operator, bit copies) lays block b's
//             op(A) rows at stationary columns b rb .. and its op(B) columns at moving columns
//             b cb ..; one nc_matmul per K tile [tk, nb rb]^T x [tk, nb cb] into one PSUM bank
//             (block b's values are its diagonal block: rows b rb .., columns b cb ..; the other
//             products are computed and never stored); VectorE alpha; GpSimdE keeps each
//             partition's diagonal cb columns; beta C (one DMA of the tile's consecutive C rows
//             [nb rb, cb]) on VectorE; one DMA store. The next tile's operator, control words and C
//             rows are issued before this tile's diagonal and store (engines and DMA queues run in
//             issue order). Before s18 (and still for larger blocks, other value types,
//             column-major blocks, or operands that do not fit): per block row and 128-row chunk the
//             op(A) strip [K, tm] is loaded into SBUF once (K in 128-row tiles; streamed per block
//             when it does not fit in half of SBUF); per stored block and gemm_moving_fmax-wide
//             column chunk the op(B) tiles [tk, nn] are streamed (double-buffered) and contracted
//             into one PSUM bank; VectorE alpha/beta epilogue, written straight into the block's
//             values (one matmul, two VectorE instructions and one or two DMAs per block).
// Engines     DMA, TensorE, VectorE; GpSimdE (operand layout, data movement only) for small blocks.
// Accuracy    fp32 sum over K in increasing order (the nc_matmul contract: each output element's sum
//             does not depend on the tile's other rows or columns, so both paths give the same
//             bits), then the epilogue.
// Limits      Small blocks: the GpSimdE layout costs 2 (rb + cb) K-tile operations per block, and
//             TensorE computes nb^2 blocks' products for nb stored ones (cheap at rb, cb <= 64).
struct SddmmArgs {
  BlockPattern c;       // the output pattern (values read when beta != 0, always written)
  HbmTensor a;          // op(A) as [K, M]
  HbmTensor b;          // op(B) as [K, N]
  DType load = DType::f32;
  float alpha = 1.0f, beta = 0.0f;
  bool multiply = true;
  std::int64_t k = 0;
};
void sddmm_bsr_kernel(NeuronCore& nc, const SddmmArgs& g, const SpmmPlan& p);

// CSR pattern: the same contraction per (128-row tile, gemm_moving_fmax-column chunk) that holds a
// stored entry; the sampled entries move between SBUF and the CSR value array by one DMA per run of
// consecutive columns in a row (element-granular sampling is DMA work, not TensorE work).
struct CsrPattern {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::int64_t> row_start, col;
  std::byte* values = nullptr;
  DType value_type = DType::f32;
};
struct SddmmCsrArgs {
  CsrPattern c;
  HbmTensor a, b;
  DType load = DType::f32;
  float alpha = 1.0f, beta = 0.0f;
  bool multiply = true;
  std::int64_t k = 0;
};
// tiles_visited: one counter per program (grid axis 1 = 128-row tiles).
void sddmm_csr_kernel(NeuronCore& nc, const SddmmCsrArgs& g, std::int64_t* tiles_visited);

}  // namespace trn::sparse::detail

// ---- SDDMM's plan (sddmm_plan.cpp) ---------------------------------------------------------------
namespace trn::sparse::detail {

// What sddmm runs (trn::Plan): the output pattern's format and kernel grid, and the predicted
// modeled time -- the same launch run timing-only (nothing executes; the kernel's instructions
// follow C's pattern and the shapes alone), scheduled as the report is, computed when the plan is
// first printed (trn::LazyNs). SBUF/PSUM peaks and the nc_matmul count from the launch.
struct SddmmPlan {
  const char* format = "BSR";  // "BSR" or "CSR"
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t stored = 0;     // stored blocks (BSR) or entries (CSR) of C
  int programs = 1;            // BSR: block-row groups; CSR: 128-row tiles
  std::int64_t sbuf_bytes = -1, psum_bytes = -1, matmuls = -1;
  trn::LazyNs predicted_ns;
  std::string print() const;
};
// The dry runs of the two kernels (copies of the arguments: the prediction may run after the call).
double predict_sddmm_bsr_ns(const LaunchConfig& lc, const SddmmArgs& g, const SpmmPlan& p, const ReportSettings& rs);
double predict_sddmm_csr_ns(const LaunchConfig& lc, const SddmmCsrArgs& g, const ReportSettings& rs);
// The launch's peaks and matmul count into the plan.
void record_launch(SddmmPlan& plan, const LaunchResult& r);

}  // namespace trn::sparse::detail
