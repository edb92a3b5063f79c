// trn::tile GEMM collective, the plan: block shape, SBUF accounting, GemmPlan (contract in
// trn/tile/gemm.hpp).
#include <algorithm>
#include <string>

#include "trn/tile/gemm.hpp"

namespace trn::tile {

// Block plan. An output tile is 128 columns (j) x 512 rows (i) of C, one PSUM bank; a program's
// pass owns tiles_i x tiles_j <= 8 of them. Two pass plans (the K-blocked plan is at best_k_blocked):
//  - streaming: a program owns one pass's block and streams both op(A) and op(B) K tiles through
//    the DMA: load volume m * blocks_j + n * blocks_i;
//  - resident: a program owns a strip of 128 * tiles_j columns for all of m. It loads its op(B)
//    strip (every K tile) into SBUF once, then makes passes over m, streaming only op(A): volume
//    m * blocks_j + n. Needs the strip to fit in half of SBUF.
// The plan with the least volume wins (on ties: more programs, then larger i passes, since op(A)
// is the contiguous moving operand and op(B) the transposed stationary one). Problems of at least
// 2^28 multiply-adds get at least two programs when the shape allows, so that a second host thread
// or emulated core has work; smaller ones stay whole (splitting 512^3 bf16 models 40% slower on
// one NeuronCore: per-program latency is serialised).
// The plan depends on (m, n, k, term bytes) only, never on host threads or emulated cores: under
// stochastic rounding the random bits are a function of (program, instruction, element), so the
// decomposition must be fixed for bits to be independent of both. Otherwise bits never depend on
// the plan: the K order of every output element is fixed.
bool uses_double_row(const HardwareSpec& hw, const BlockGemmArgs& g) {
  return hw.fp8_double_row && g.split == 1 && is_fp8(g.load);
}

SbufBytes sbuf_bytes_of(const HardwareSpec& hw, const BlockGemmArgs& g) {
  SbufBytes b;
  b.k_rows = uses_double_row(hw, g) ? 2 : 1;
  b.a_sources = static_cast<int>(g.a_src.size());
  b.b_sources = static_cast<int>(g.b_src.size());
  b.split = g.split;
  b.term_bytes = static_cast<int>(dtype_size(g.split == 1 ? g.load : DType::bf16));
  b.read_c = !g.raw && g.beta != 0.0f;
  b.cast_bytes = g.c.dtype() != DType::f32 && !g.raw ? static_cast<int>(dtype_size(g.c.dtype())) : 0;
  b.triangle = g.triangle != Triangle::none;
  return b;
}

namespace {

constexpr int kMinBuffers = 2, kMaxBuffers = 4;

std::int64_t blocks_of(std::int64_t len, std::int64_t b) { return (len + b - 1) / b; }

std::int64_t aligned(std::int64_t bytes) { return (bytes + kAllocAlignBytes - 1) / kAllocAlignBytes * kAllocAlignBytes; }

// Per-partition SBUF of a block shape: the allocations `allocate` makes (operand slots, the
// resident strips, the epilogue slots), each rounded up as the allocator rounds it.
std::int64_t sbuf_need(const HardwareSpec& hw, std::int64_t m, std::int64_t n, std::int64_t k, const SbufBytes& l,
                       const BlockShape& b) {
  const std::int64_t tile_i = hw.psum_bank_bytes / 4, tile_j = hw.gemm_stationary_fmax;
  const std::int64_t k_tiles = std::max<std::int64_t>(1, blocks_of(k, std::int64_t{hw.pmax} * l.k_rows));
  const std::int64_t pass_i = std::min<std::int64_t>(b.tiles_i * tile_i, m), strip_j = std::min<std::int64_t>(b.tiles_j * tile_j, n);
  const int terms_a = l.a_sources * l.split, terms_b = l.b_sources * l.split;
  const std::int64_t row_bytes = std::int64_t{l.term_bytes} * l.k_rows;  // per free element of a term tile
  const std::int64_t epilogue = aligned(4 * tile_i) + (l.read_c ? aligned(4 * tile_i) : 0) +
                                (l.cast_bytes > 0 ? aligned(l.cast_bytes * tile_i) : 0);
  if (b.k_blocked) {
    // The fp32 block, kAChunkSlots op(A) chunks, kBGroupSlots op(B) group slices, and epilogue
    // slots only where the result is scaled by beta or cast (otherwise it is stored from the block).
    const std::int64_t bm = std::min<std::int64_t>(std::int64_t{b.block_i} * tile_i, m);
    const std::int64_t tiles_j = blocks_of(std::min<std::int64_t>(std::int64_t{b.block_j} * tile_j, n), tile_j);
    const std::int64_t group = std::min<std::int64_t>(b.tiles_j, tiles_j) * tile_j;
    const std::int64_t kc = std::min<std::int64_t>(kKChunkTiles, k_tiles);
    const std::int64_t slot_epilogue = (l.read_c ? aligned(4 * tile_i) : 0) + (l.cast_bytes > 0 ? aligned(l.cast_bytes * tile_i) : 0);
    return aligned(4 * tiles_j * bm) + kAChunkSlots * terms_a * aligned(row_bytes * kc * bm) +
           kBGroupSlots * terms_b * aligned(row_bytes * kc * group) + (slot_epilogue > 0 ? b.epilogue_slots * slot_epilogue : 0);
  }
  std::int64_t slot = terms_a * aligned(row_bytes * pass_i);  // one operand slot
  if (l.split > 1) slot += 2 * (l.a_sources * aligned(4 * pass_i) + l.b_sources * aligned(4 * strip_j));
  if (!b.resident) slot += terms_b * aligned(row_bytes * strip_j);
  const std::int64_t strips = b.resident ? terms_b * aligned(row_bytes * b.strip_slots * k_tiles * strip_j) : 0;
  return b.buffers * slot + strips + b.epilogue_slots * epilogue;
}

struct Candidate {
  BlockShape shape;
  std::int64_t volume = -1, programs = 0;  // volume -1: nothing fits
};

// The pass plans (streaming and resident) with the least DMA volume that fit `capacity` bytes per
// partition (before the extra buffers of choose_block).
Candidate best_pass_plan(const HardwareSpec& hw, std::int64_t m, std::int64_t n, std::int64_t k, const SbufBytes& bytes,
                         std::int64_t capacity, std::int64_t min_programs) {
  const std::int64_t tile_i = hw.psum_bank_bytes / 4, tile_j = hw.gemm_stationary_fmax;
  Candidate best;
  for (int resident = 0; resident <= 1; ++resident)
    for (int ti = 1; ti <= hw.psum_banks; ++ti) {
      if ((ti - 1) * tile_i >= m) break;  // no pass would use the extra row tiles
      for (int tj = 1; ti * tj <= hw.psum_banks; ++tj) {
        if ((tj - 1) * tile_j >= n) break;
        const BlockShape shape{ti, tj, resident != 0, kMinBuffers, 2};
        if (sbuf_need(hw, m, n, k, bytes, shape) > capacity) continue;
        const std::int64_t bi = blocks_of(m, ti * tile_i), bj = blocks_of(n, tj * tile_j);
        const std::int64_t programs = resident ? bj : bi * bj;
        if (programs < min_programs) continue;
        const std::int64_t volume = m * bj + n * (resident ? 1 : bi);
        const bool better = best.volume < 0 || volume < best.volume ||
                            (volume == best.volume && (programs > best.programs ||
                                                       (programs == best.programs && ti > best.shape.tiles_i)));
        if (better) best = {shape, volume, programs};
      }
    }
  return best;
}

// The K-blocked plan with the least DMA volume that fits `capacity`: output blocks of bi x bj
// tiles, op(A) read once per column block and op(B) once per row block. On equal volume: more
// programs, then the smaller block. Not for the split modes (their fp32 staging tiles per K tile)
// or triangle mode (crossing tiles are moved row by row).
Candidate best_k_blocked(const HardwareSpec& hw, std::int64_t m, std::int64_t n, std::int64_t k, const SbufBytes& bytes,
                         std::int64_t capacity, std::int64_t min_programs) {
  const std::int64_t tile_i = hw.psum_bank_bytes / 4, tile_j = hw.gemm_stationary_fmax;
  Candidate best;
  if (bytes.split != 1 || bytes.triangle) return best;
  for (std::int64_t bi = 1; bi <= blocks_of(m, tile_i); ++bi)
    for (std::int64_t bj = 1; bj <= blocks_of(n, tile_j); ++bj) {
      BlockShape shape;
      shape.k_blocked = true;
      shape.block_i = static_cast<int>(bi);
      shape.block_j = static_cast<int>(bj);
      shape.tiles_i = 1;
      shape.tiles_j = static_cast<int>(std::min<std::int64_t>(hw.psum_banks, bj));
      shape.epilogue_slots = 2;
      if (sbuf_need(hw, m, n, k, bytes, shape) > capacity) break;  // grows with bj
      const std::int64_t rb = blocks_of(m, bi * tile_i), cb = blocks_of(n, bj * tile_j);
      const std::int64_t programs = rb * cb;
      if (programs < min_programs) continue;
      const std::int64_t volume = m * cb + n * rb;
      if (best.volume < 0 || volume < best.volume || (volume == best.volume && programs > best.programs))
        best = {shape, volume, programs};
    }
  return best;
}

// The smallest SBUF of any generation: whether K is chunked (which changes the association of the
// sums) is decided against it, so that it does not depend on the generation.
std::int64_t smallest_sbuf_partition_bytes() {
  std::int64_t least = hardware_spec(Generation::trn1).sbuf_partition_bytes;
  for (Generation g : {Generation::trn2, Generation::trn3}) least = std::min(least, hardware_spec(g).sbuf_partition_bytes);
  return least;
}

}  // namespace

BlockShape choose_block(const HardwareSpec& hw, std::int64_t m, std::int64_t n, std::int64_t k, const SbufBytes& bytes) {
  const std::int64_t tile_i = hw.psum_bank_bytes / 4, tile_j = hw.gemm_stationary_fmax;
  const std::int64_t max_programs = blocks_of(m, tile_i) * blocks_of(n, tile_j);
  const bool big = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) >= 0x1p28;
  const std::int64_t min_programs = big ? std::min<std::int64_t>(2, max_programs) : 1;
  // K-blocked only where it moves strictly less than every pass plan (it adds a VectorE pass over
  // the block per K chunk).
  const std::int64_t least = smallest_sbuf_partition_bytes();
  const Candidate kb = best_k_blocked(hw, m, n, k, bytes, least, min_programs);
  const Candidate pp = best_pass_plan(hw, m, n, k, bytes, least, min_programs);
  if (kb.volume >= 0 && (pp.volume < 0 || kb.volume < pp.volume)) {
    BlockShape best = best_k_blocked(hw, m, n, k, bytes, hw.sbuf_partition_bytes, min_programs).shape;
    // Epilogue slots (used only when the result is scaled by beta or cast) up to 4.
    while (best.epilogue_slots < 4) {
      BlockShape more = best;
      ++more.epilogue_slots;
      if (sbuf_need(hw, m, n, k, bytes, more) > hw.sbuf_partition_bytes) break;
      best = more;
    }
    return best;
  }
  BlockShape best = best_pass_plan(hw, m, n, k, bytes, hw.sbuf_partition_bytes, min_programs).shape;
  // Then as many operand slots as SBUF holds (up to kMaxBuffers): each extra slot lets one more
  // K tile's DMA run ahead of the matmuls, hiding the DMA's fixed latency (docs/cost-model.md).
  while (best.buffers < kMaxBuffers) {
    BlockShape more = best;
    ++more.buffers;
    if (sbuf_need(hw, m, n, k, bytes, more) > hw.sbuf_partition_bytes) break;
    best = more;
  }
  // And an epilogue slot per output tile of a pass where SBUF holds them.
  while (best.epilogue_slots < best.tiles_i * best.tiles_j) {
    BlockShape more = best;
    ++more.epilogue_slots;
    if (sbuf_need(hw, m, n, k, bytes, more) > hw.sbuf_partition_bytes) break;
    best = more;
  }
  // And a second op(B) strip for the next program where SBUF holds it.
  if (best.resident) {
    BlockShape more = best;
    more.strip_slots = 2;
    if (sbuf_need(hw, m, n, k, bytes, more) <= hw.sbuf_partition_bytes) best = more;
  }
  return best;
}

namespace {
// plan_gemm of the last call on this thread, returned again for the same arguments: a loop of small
// calls of one shape plans once (choose_block was ~5 % of an 8x8 Sgemv's host instructions). Kept
// only for the built-in generation tables (hardware_spec: immutable), never for a caller's spec.
struct PlanMemo {
  bool valid = false;
  const HardwareSpec* hw = nullptr;
  std::int64_t m = 0, n = 0, k = 0;
  int problems = 0, pairs = 0;
  SbufBytes bytes;
  bool fp32_matmul = false;
  GemmPlan plan;
};

bool same_bytes(const SbufBytes& a, const SbufBytes& b) {
  return a.a_sources == b.a_sources && a.b_sources == b.b_sources && a.split == b.split &&
         a.term_bytes == b.term_bytes && a.read_c == b.read_c && a.cast_bytes == b.cast_bytes &&
         a.k_rows == b.k_rows && a.triangle == b.triangle;
}
static_assert(sizeof(SbufBytes) == 32, "SbufBytes changed: compare the new field in same_bytes");

GemmPlan plan_gemm_uncached(const HardwareSpec& hw, std::int64_t m, std::int64_t n, std::int64_t k, int problems,
                            int pairs, const SbufBytes& bytes, bool fp32_matmul);
}  // namespace

GemmPlan plan_gemm(const HardwareSpec& hw, std::int64_t m, std::int64_t n, std::int64_t k, int problems, int pairs,
                   const SbufBytes& bytes, bool fp32_matmul) {
  if (&hw != &hardware_spec(hw.generation)) return plan_gemm_uncached(hw, m, n, k, problems, pairs, bytes, fp32_matmul);
  thread_local PlanMemo memo;
  if (!(memo.valid && memo.hw == &hw && memo.m == m && memo.n == n && memo.k == k && memo.problems == problems &&
        memo.pairs == pairs && same_bytes(memo.bytes, bytes) && memo.fp32_matmul == fp32_matmul)) {
    memo.valid = false;  // stays false if planning throws
    memo.plan = plan_gemm_uncached(hw, m, n, k, problems, pairs, bytes, fp32_matmul);
    memo.hw = &hw;
    memo.m = m;
    memo.n = n;
    memo.k = k;
    memo.problems = problems;
    memo.pairs = pairs;
    memo.bytes = bytes;
    memo.fp32_matmul = fp32_matmul;
    memo.valid = true;
  }
  return memo.plan;
}

namespace {
GemmPlan plan_gemm_uncached(const HardwareSpec& hw, std::int64_t m, std::int64_t n, std::int64_t k, int problems,
                            int pairs, const SbufBytes& bytes, bool fp32_matmul) {
  GemmPlan p;
  p.block = choose_block(hw, m, n, k, bytes);
  p.m = m;
  p.n = n;
  p.k = k;
  p.problems = problems;
  const std::int64_t tile_i = hw.psum_bank_bytes / 4, tile_j = hw.gemm_stationary_fmax;
  const bool kb = p.block.k_blocked;
  const std::int64_t bj = blocks_of(n, (kb ? p.block.block_j : p.block.tiles_j) * tile_j),
                     bi = blocks_of(m, (kb ? p.block.block_i : p.block.tiles_i) * tile_i);
  p.grid = {static_cast<int>(bj), p.block.resident ? 1 : static_cast<int>(bi), problems};
  p.sbuf_bytes = sbuf_need(hw, m, n, k, bytes, p.block);
  p.load_elements = k * (m * bj + n * (p.block.resident ? 1 : bi));
  p.k_chunk_rows = std::int64_t{kKChunkTiles} * hw.pmax * bytes.k_rows;
  const std::int64_t k_tiles = blocks_of(k, std::int64_t{hw.pmax} * bytes.k_rows);
  p.double_row = bytes.k_rows == 2;
  p.matmuls = blocks_of(m, tile_i) * blocks_of(n, tile_j) * k_tiles * pairs;
  // One nc_matmul of a full moving tile occupies TensorE for max(min(64, 128), 512) cycles
  // (docs/cost-model.md section 1), four times that for fp32 operands; partial tiles are counted
  // as full (an upper bound).
  p.tensor_bound_ns = static_cast<double>(p.matmuls) * static_cast<double>(std::max<std::int64_t>(64, tile_i)) /
                      hw.tensor_ghz * (fp32_matmul ? 4.0 : 1.0);
  p.why = kb ? "least DMA volume: output block accumulated in fp32 SBUF across K chunks, op(A) read once per "
               "column block and op(B) once per row block"
        : p.block.resident ? "least DMA volume: op(B) strip resident in SBUF, op(A) streamed once per strip"
                           : "least DMA volume: op(A) and op(B) streamed per block";
  return p;
}
}  // namespace

namespace {
std::string plan_text(const GemmPlan& p);

// The fields plan_text prints (tensor_bound_ns is not printed).
bool prints_alike(const GemmPlan& a, const GemmPlan& b) {
  const BlockShape &x = a.block, &y = b.block;
  return x.tiles_i == y.tiles_i && x.tiles_j == y.tiles_j && x.resident == y.resident && x.buffers == y.buffers &&
         x.epilogue_slots == y.epilogue_slots && x.strip_slots == y.strip_slots && x.k_blocked == y.k_blocked &&
         x.block_i == y.block_i && x.block_j == y.block_j && a.grid == b.grid && a.m == b.m && a.n == b.n &&
         a.k == b.k && a.problems == b.problems && a.sbuf_bytes == b.sbuf_bytes &&
         a.load_elements == b.load_elements && a.matmuls == b.matmuls && a.double_row == b.double_row &&
         a.k_chunk_rows == b.k_chunk_rows && a.why == b.why;
}
}  // namespace

// A loop of small GEMMs prints the same plan on every call: the text of the thread's last plan is
// kept and returned while the plan prints alike (a dozen to_string concatenations per call).
std::string GemmPlan::print() const {
  static_assert(sizeof(BlockShape) == 36 && sizeof(GemmPlan) == 160, "GemmPlan changed: update prints_alike");
  thread_local GemmPlan last;
  thread_local std::string text;
  thread_local bool have = false;
  if (!have || !prints_alike(*this, last)) {
    text = plan_text(*this);
    last = *this;
    have = true;
  }
  return text;
}

namespace {
std::string plan_text(const GemmPlan& p) {
  const auto& [block, grid, m, n, k, problems, sbuf_bytes, load_elements, matmuls, tensor_bound_ns, double_row,
               k_chunk_rows, why] = p;
  std::string s = "gemm plan " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  if (problems > 1) s += " x" + std::to_string(problems) + " problems";
  if (double_row) s += " (fp8 double_row: 256-row K tiles)";
  if (block.k_blocked) {
    s += ": block " + std::to_string(std::min<std::int64_t>(block.block_i * 512, m)) + " rows x " +
         std::to_string(std::min<std::int64_t>(block.block_j * 128, n)) +
         " cols accumulated in fp32 SBUF across K chunks of " + std::to_string(k_chunk_rows) + " rows (VectorE adds " +
         "each chunk's PSUM sums), bank groups 1x" + std::to_string(block.tiles_j) + ", " + std::to_string(kAChunkSlots) +
         " op(A) chunk slots, " + std::to_string(kBGroupSlots) + " op(B) group slots, loops jc>ic>kc>group>(ir,jr)>pc>" +
         "nc_matmul, grid " + std::to_string(grid[0]) + "x" + std::to_string(grid[1]) + "x" + std::to_string(grid[2]) +
         ", SBUF " + std::to_string(sbuf_bytes) + " B/partition, loads " + std::to_string(load_elements) + " elements, " +
         std::to_string(matmuls) + " matmuls; why: " + why;
    return s;
  }
  s += ": block " + std::to_string(block.tiles_i * 512) + " rows x " + std::to_string(block.tiles_j * 128) +
       " cols (" + std::to_string(block.tiles_i) + "x" + std::to_string(block.tiles_j) + " PSUM banks), " +
       (block.resident ? "resident op(B) strip" : "streaming") + ", " + std::to_string(block.buffers) +
       " operand buffers, " + std::to_string(block.epilogue_slots) + " epilogue slots, " +
       (block.resident ? std::to_string(block.strip_slots) + " strip slots, " : std::string()) + "loops jc>ic>pc>macro(jr,ir)>nc_matmul, grid " + std::to_string(grid[0]) + "x" +
       std::to_string(grid[1]) + "x" + std::to_string(grid[2]) + ", SBUF " + std::to_string(sbuf_bytes) +
       " B/partition, loads " + std::to_string(load_elements) + " elements, " + std::to_string(matmuls) +
       " matmuls; why: " + why;
  return s;
}
}  // namespace

GemmPlan plan_launch(const HardwareSpec& hw, const std::vector<BlockGemmArgs>& problems) {
  std::int64_t m = 1, n = 1, k = 0;
  int pairs = 1;
  bool fp32_matmul = false;
  SbufBytes bytes = problems.empty() ? SbufBytes{} : sbuf_bytes_of(hw, problems.front());
  for (const auto& p : problems) {
    m = std::max(m, p.m);
    n = std::max(n, p.n);
    k = std::max(k, p.k_end - p.k_begin);
    pairs = std::max(pairs, static_cast<int>(p.pairs.size()));
    fp32_matmul = fp32_matmul || (p.split == 1 && p.load == DType::f32);
    const SbufBytes q = sbuf_bytes_of(hw, p);  // problems of one launch share modes; take the largest of each
    bytes.a_sources = std::max(bytes.a_sources, q.a_sources);
    bytes.b_sources = std::max(bytes.b_sources, q.b_sources);
    bytes.split = std::max(bytes.split, q.split);
    bytes.term_bytes = std::max(bytes.term_bytes, q.term_bytes);
    bytes.read_c = bytes.read_c || q.read_c;
    bytes.cast_bytes = std::max(bytes.cast_bytes, q.cast_bytes);
    bytes.k_rows = std::max(bytes.k_rows, q.k_rows);
  }
  return plan_gemm(hw, m, n, k, static_cast<int>(problems.size()), pairs, bytes, fp32_matmul);
}

}  // namespace trn::tile
