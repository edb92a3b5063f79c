// trn::tile GEMM collective: C = alpha op(A) op(B) + beta C (or the raw fp32 sums) on one NeuronCore
// grid, as BLIS's loops around one micro-kernel. The one tile-GEMM of the project: trnblas's every
// precision mode (split terms, fp8, fp32, SYRK triangles) and its Ozaki fp64 schemes are drivers that
// fill BlockGemmArgs and call launch_gemm; the kernel below them is written on the smaller trn::tile
// collectives (trn/tile/matmul.hpp, trn/tile/view.hpp) and issues no instruction of its own choosing.
//
// Algorithm   C^T-oriented blocking: an output tile is [columns j of C (partitions, <= 128), rows i
//             of C (free, <= 512)] so that it maps to contiguous rows of column-major C.
//             stationary = op(B) tile [k, j], moving = op(A) tile [k, i]. Three plans (plan_gemm):
//             streaming and resident (the pass plans) and K-blocked. The loops, outermost first
//             (BLIS names in brackets; each is its own function):
//               program   [jc]  a block of 128*tiles_j columns (streaming: and of 512*tiles_i rows)
//                               gemm_block_kernel                          (src/tile/gemm_kernel.cpp)
//               passes    [ic]  row passes of 512*tiles_i rows over the program's columns
//               k tiles   [pc]  128-deep K tiles in increasing k: pack op(A) (and op(B)) into SBUF
//                               k_loop, pack_terms                        (gemm_kernel.cpp, gemm_steps.cpp)
//               macro-kernel    every live output tile of the pass (jr/ir), one PSUM bank each
//               micro-kernel    one product per (term pair) into the tile's accumulation group
//               epilogue        per output tile: evacuate(alpha), + beta C, cast, DMA out
//             The K-blocked plan (NKI's M/N/K blocking, src/tile/gemm_k_blocked.cpp) owns an
//             output block in fp32 SBUF and walks K in chunks of kKChunkTiles K tiles, each chunk
//             one accumulation group per output tile, added into the block on VectorE.
//             Packing DMAs the source tile into SBUF (casting to the load dtype) and, in the split
//             modes, splits it into bf16 terms (tile::split_terms). In the resident plan a program's
//             op(B) strip is packed once, K tile by K tile during its first pass, and reused by every
//             later pass; where two strips fit, consecutive programs use alternate strips so that the
//             next program's strip loads can overlap this program's passes. Operand tiles rotate
//             through `buffers` slots by K-tile index so that the DMA of K tile kt + buffers - 1
//             overlaps the matmuls of K tile kt; epilogue tiles rotate through up to one slot per
//             output tile of a pass, so that evacuating PSUM (which frees the banks for the next pass)
//             never waits for an earlier tile's DMA out. Raw mode stores the fp32 PSUM sums unscaled
//             (Ozaki partials). fp8 operands on NC-v3/v4 use TensorE's double_row mode: a K tile is
//             256 rows, row k0 + 2p + r on partition p, pair r (tile::partition_pairs), so each
//             nc_matmul contracts 256 rows at the cost of 128.
// Collectives tile::Accumulator (one accumulation group per output tile and K range: the first
//             product overwrites, later ones add), tile::PsumRing (the banks, fixed per output tile
//             of a pass; rotated over the output tiles in the K-blocked plan), tile::split_terms,
//             tile::evacuate and tile::add_beta_c_and_cast (the epilogue), tile::partition_pairs.
// Engines     DMA, TensorE, VectorE (and ScalarE for the bf16 roundings of the split modes).
// Memory      SBUF per partition as GemmPlan::sbuf_bytes (checked against the generation's capacity
//             by plan_gemm and against the kernel's peak by launch_gemm); PSUM: one 2 KiB bank per
//             output tile of a pass (at most the generation's psum_banks).
// Accuracy    per output element: the nc_matmul contract (fp32, k tile by k tile, and within a k tile
//             the term pairs in the given order; double_row K tiles are 256 deep, so fp8 bits on
//             trn2/trn3 differ from trn1's 128-deep tiles); epilogue fl(fl(alpha*acc) + fl(beta*c));
//             alpha == 1 skips the multiply, beta == 0 never reads C. The pass plans (block shape,
//             buffers) never change bits: the K order of every output element is fixed. The K-blocked
//             plan sums each chunk of kKChunkTiles K tiles in its own PSUM accumulation group and
//             adds the chunk sums in fp32 (RNE) in chunk order; it is chosen by (m, n, k, operand
//             bytes) against the smallest generation's SBUF, so bits depend on the shape, never on
//             the generation, host threads or emulated cores; with k <= one chunk the bits equal the
//             pass plans'.
// Limits      any m, n, k; triangle mode skips output tiles outside the triangle and moves crossing
//             tiles row by row so the other triangle is never read or written. SBUF and PSUM use is
//             checked by plan_gemm against the generation's capacities before anything runs.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "trn/core/core.hpp"
#include "trn/core/plan.hpp"

namespace trn::tile {

enum class Triangle : std::uint8_t { none, lower, upper };  // lower: keep C(i, j) with i >= j

// One problem of a launch. The driver supplies the operands as HBM views (any strides, any source
// dtype; the DMA converts to `load`) and the mode as (load dtype, split, term pairs).
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
  int buffers = 2;               // operand tile slots rotated by K-tile index (2..4)
  int epilogue_slots = 2;        // output-tile slots of the epilogue (2..tiles_i*tiles_j)
  int strip_slots = 1;           // resident plan: op(B) strips in SBUF (2: programs alternate)
  // K-blocked plan (NKI's M/N/K blocking): a program owns an output block of block_i 512-row x
  // block_j 128-column tiles, accumulated in fp32 SBUF across K chunks of kKChunkTiles K tiles;
  // each chunk is one PSUM accumulation group per output tile, in groups of 1 x tiles_j banks.
  bool k_blocked = false;
  int block_i = 0, block_j = 0;
};
// K tiles per chunk of the K-blocked plan: fixed (not fitted to a generation's SBUF) so that the
// association of the chunk sums is a function of k alone.
inline constexpr int kKChunkTiles = 4;
// K-blocked plan: op(A) chunks double-buffered (the next chunk loads while this one is used by
// every bank group), op(B) group slices in a ring of three (one loading ahead of the group in use).
inline constexpr int kAChunkSlots = 2, kBGroupSlots = 3;
// What decides the kernel's SBUF allocations besides the block shape: operand sources and terms,
// their byte sizes, and the epilogue's tiles. The planner counts exactly the allocations the
// kernel makes, each rounded up to kAllocAlignBytes as the allocator does.
struct SbufBytes {
  int a_sources = 1, b_sources = 1;  // source terms of op(A) / op(B)
  int split = 1;                     // bf16 terms made per loaded tile (split modes: fp32 tile + residual too)
  int term_bytes = 2;                // bytes of one term element
  bool read_c = false;               // beta != 0: a C tile per epilogue slot
  int cast_bytes = 0;                // bytes of C's element when the result is cast (0: stored as fp32)
  int k_rows = 1;                    // contraction rows per partition of a K tile (2: fp8 double_row)
  bool triangle = false;             // triangle mode (SYRK-style): the K-blocked plan does not apply
};
SbufBytes sbuf_bytes_of(const HardwareSpec& hw, const BlockGemmArgs& g);
// fp8 operands on a generation with TensorE's double_row mode: K tiles of 2 x 128 rows, one
// nc_matmul(perf_mode = double_row) each, at the cost of a 128-row one.
bool uses_double_row(const HardwareSpec& hw, const BlockGemmArgs& g);

// FFTW-style plan: what launch_gemm will run, why, and what it moves. print() gives one line.
struct GemmPlan {
  BlockShape block;
  std::array<int, 3> grid{1, 1, 1};       // programs: column blocks, row blocks, problems
  std::int64_t m = 0, n = 0, k = 0;       // largest problem of the launch
  int problems = 0;
  std::int64_t sbuf_bytes = 0;            // per partition, the block's operand and epilogue tiles
  std::int64_t load_elements = 0;         // operand elements DMAed into SBUF (per problem)
  std::int64_t matmuls = 0;               // nc_matmul instructions (per problem, dense)
  double tensor_bound_ns = 0;             // matmuls' TensorE occupancy at the generation's clock
  bool double_row = false;                // fp8 K tiles of 256 rows (nc_matmul perf_mode double_row)
  std::int64_t k_chunk_rows = 0;          // K-blocked plan: rows of op(A)/op(B) per PSUM accumulation group
  std::string why;                        // the rule that chose this shape
  std::string print() const;
};
static_assert(Plan<GemmPlan>);

GemmPlan plan_gemm(const HardwareSpec& hw, std::int64_t m, std::int64_t n, std::int64_t k, int problems, int pairs,
                   const SbufBytes& bytes, bool fp32_matmul);
// The plan launch_gemm runs for `problems` on `hw` (problems of one launch share modes; the plan is
// made for the largest of each extent and each byte count).
GemmPlan plan_launch(const HardwareSpec& hw, const std::vector<BlockGemmArgs>& problems);
// The block shape of plan_gemm (kept for tests of the plan rule).
BlockShape choose_block(const HardwareSpec& hw, std::int64_t m, std::int64_t n, std::int64_t k, const SbufBytes& bytes);

// One program of the grid (program_id(0): column block, (1): row block) for one problem.
void gemm_block_kernel(NeuronCore& nc, const BlockGemmArgs& g, const BlockShape& b);

// Launches gemm_block_kernel once per entry of `problems` (grid axis 2) over the blocks of C, with
// plan_launch's plan. `plan`, when given, receives the plan that ran. Throws trn::Error if the
// kernel's SBUF peak exceeds the plan's count (a planner bug, never a user error).
LaunchResult launch_gemm(const LaunchConfig& lc, const std::vector<BlockGemmArgs>& problems, GemmPlan* plan = nullptr);

}  // namespace trn::tile
