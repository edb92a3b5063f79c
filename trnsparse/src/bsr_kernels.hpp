// The block-sparse tile kernels behind trnsparse: BSR SpMM (SpMV is its one-column case), BSR SDDMM
// and CSR SDDMM. The drivers (sparse.cpp) validate, decode the index arrays into 0-based int64 and
// build these arguments; the kernels own SBUF/PSUM, DMA and instruction order.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "trn/core/core.hpp"
#include "trn/core/scratch.hpp"

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

// Small-block SpMV: y = alpha op(A) x + beta y for n = 1 on small blocks (bsr_slot_spmv.cpp, s23/bsr32).
//
// Algorithm   Block row I of op(A) is row I mod T of partition I / T (T = ceil(block rows / pmax));
//             its t_I stored blocks are slots 0 .. t_I - 1 of S = max_I t_I (pattern only), the rest
//             pads (value -0, x row +0). The host packs, per chunk of Tc rows per partition, the
//             slots' values as [partition][r][slot][row][c] and their block columns as index words
//             (data movement, as the CSR path's copy into 128 x 128 tiles). Per chunk: DMA the index
//             words, dma_gather the rows of x (a per-program scratch copy of x, by one DMA, with one
//             more row of zeros for the pads), DMA the values, one VectorE multiply by x broadcast
//             over r, a pairwise sum over slots (ceil(log2 S) levels: [0, h) += [m - h, m), h =
//             floor(m / 2), one add per r), an SBUF -> SBUF DMA of the sums to [c][r][row], the pairwise sum over the
//             block's columns (ceil(log2 cb) adds), then alpha (skipped
//             for 1) and beta y (y read only when beta != 0) on VectorE, one or two DMA stores.
//             Grid: the chunks split over min(chunks, num_cores) programs.
// Engines     DMA (direct and indirect), VectorE.
// Accuracy    per output, d = ceil(log2 S) + ceil(log2 cb) (pattern only): every product is rounded
//             once and passes through at most d additions (the pads' -0 products add exactly),
//             then fl(fl(alpha p) + fl(beta y)): |y_hat - y| <= gamma_{d+3} (|alpha| |op(A)| |x| +
//             |beta| |y|) in u32 (docs/trnsparse.md "Session 23"). The bits depend on the pattern
//             (S) and the values only: not on T, chunks, programs, cores or threads.
// Limits      n = 1, fp32 A, x and y, alpha != 0; blocks of <= kSlotSpmvBlockElements values; padded
//             slots <= kSlotSpmvPadFactor x the stored blocks (rows of very unequal lengths keep the
//             per-block kernel); one chunk row of two buffers within kSlotSpmvChunkBytes per partition.
inline constexpr std::int64_t kSlotSpmvBlockElements = 64;  // up to 8 x 8: a C_32F 4 x 4 block embedded
inline constexpr std::int64_t kSlotSpmvPadFactor = 4;
inline constexpr std::int64_t kSlotSpmvChunkBytes = 96 * 1024;
bool slot_spmv_applies(const HardwareSpec& hw, const SpmmArgs& g);
// The layout (trn::Plan): pattern, target partitions and core count only.
struct SlotSpmvPlan {
  std::int64_t rb = 1, cb = 1, brows = 0;
  std::int64_t slots = 0;          // S
  std::int64_t per_partition = 0;  // T: block rows per partition
  std::int64_t partitions = 0;     // partitions holding block rows: ceil(brows / T)
  std::int64_t chunk = 1;          // Tc: block rows per partition in one chunk
  std::int64_t chunks = 1;
  int programs = 1;
  double predicted_ns = -1;
  std::string print(std::int64_t m, std::int64_t k, const LaunchResult& r) const;
};
SlotSpmvPlan plan_slot_spmv(const HardwareSpec& hw, const SpmmArgs& g, int num_cores);
// A buffer on the thread's scratch stack (trn/core/scratch.hpp) left uninitialized: for operands the
// host fills completely (a ScratchVector would zero them first).
template <class T>
class ScratchBuffer {
 public:
  ScratchBuffer() = default;
  explicit ScratchBuffer(std::int64_t n) : n_(n), p_(n > 0 ? ScratchAllocator<T>().allocate(static_cast<std::size_t>(n)) : nullptr) {}
  ScratchBuffer(ScratchBuffer&& o) noexcept : n_(std::exchange(o.n_, 0)), p_(std::exchange(o.p_, nullptr)) {}
  ScratchBuffer& operator=(ScratchBuffer&& o) noexcept {
    std::swap(n_, o.n_);
    std::swap(p_, o.p_);
    return *this;
  }
  ~ScratchBuffer() {
    if (p_ != nullptr) ScratchAllocator<T>().deallocate(p_, static_cast<std::size_t>(n_));
  }
  T* data() const { return p_; }

 private:
  std::int64_t n_ = 0;
  T* p_ = nullptr;
};
// The host-packed operands (scratch HBM: the trace names them by allocation).
struct SlotSpmvOperands {
  SlotSpmvOperands(const SpmmArgs& g, const SlotSpmvPlan& p);
  ScratchBuffer<float> values;         // chunk by chunk: [partition][r][slot][row][c]
  ScratchBuffer<std::int32_t> index;  // chunk by chunk: [partition][slot][row]
  ScratchBuffer<float> x;              // per program: x's Kb rows of cb, then a row of +0
  std::int64_t table_rows = 0;         // Kb + 1
};
void slot_spmv_kernel(NeuronCore& nc, const SpmmArgs& g, const SlotSpmvPlan& p, const SlotSpmvOperands& o);

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

// A plan's prediction: `kernel`'s launch run timing-only (nothing executes; the instructions follow
// the pattern and the shapes alone), scheduled as the call's report is.
template <class Kernel>
double predicted_launch_ns(LaunchConfig lc, const Kernel& kernel, const ReportSettings& rs) {
  lc.core.execute = false;
  return model_trace(launch(lc, kernel).trace, rs).total_ns;
}

// What sddmm runs (trn::Plan): the output pattern's format and kernel grid, and the predicted
// modeled time -- the same launch run timing-only (nothing executes; the kernel's instructions
// follow C's pattern and the shapes alone), scheduled as the report is. SBUF/PSUM peaks and the
// nc_matmul count from the launch.
struct SddmmPlan {
  const char* format = "BSR";  // "BSR" or "CSR"
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t stored = 0;     // stored blocks (BSR) or entries (CSR) of C
  int programs = 1;            // BSR: block-row groups; CSR: 128-row tiles
  std::int64_t sbuf_bytes = -1, psum_bytes = -1, matmuls = -1;
  trn::LazyNs predicted_ns;
  std::string print() const;
};
// The launch's peaks and matmul count into the plan.
void record_launch(SddmmPlan& plan, const LaunchResult& r);
// Adds the plan of a call that ran to `report` (its profile modeled, finish_report), with the
// prediction: the kernels' dry run issues the run's very records (both kernels follow C's pattern and
// the shapes alone; no record depends on a value) and is scheduled with the report's settings, so the
// dry run's modeled time is the report's, bit for bit (PlanPrediction.SddmmPredictedTimeMatchesTheModeledTime). The
// plan takes that time from the report rather than launching and scheduling the kernel a second time
// (s27/sddmm: a quarter of a warm 1024^2 CSR call's host instructions).
void add_plan_after_run(Report& report, SddmmPlan& plan);

}  // namespace trn::sparse::detail
