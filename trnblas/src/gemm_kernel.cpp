#include "gemm_kernel.hpp"

#include "trn/tile/view.hpp"

#include <algorithm>
#include <array>
#include <deque>

#include "trn/tile/matmul.hpp"

namespace trn::blas::detail {

// Block plan. An output tile is 128 columns (j) x 512 rows (i) of C, one PSUM bank; a program's
// pass owns tiles_i x tiles_j <= 8 of them. Two plans:
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
// K-blocked plan: op(A) chunks double-buffered (the next chunk loads while this one is used by
// every bank group), op(B) group slices in a ring of three (one loading ahead of the group in use).
constexpr int kAChunkSlots = 2, kBGroupSlots = 3;

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

}  // namespace

namespace {

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

GemmPlan plan_gemm(const HardwareSpec& hw, std::int64_t m, std::int64_t n, std::int64_t k, int problems, int pairs,
                   const SbufBytes& bytes, bool fp32_matmul) {
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

std::string GemmPlan::print() const {
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

namespace {

// Which part of an output tile (columns j0.. of C as partitions, rows i0.. as free) lies in the
// triangle: for partition p the valid rows are [lo(p), hi(p)).
struct RowRange {
  std::int64_t lo, hi;
};
RowRange valid_rows(Triangle t, std::int64_t j, std::int64_t i0, std::int64_t i1) {
  if (t == Triangle::lower) return {std::max(i0, j), i1};
  if (t == Triangle::upper) return {i0, std::min(i1, j + 1)};
  return {i0, i1};
}

// Moves rows [p0, p0+np) of an on-chip tile from/to C, restricted to the triangle.
void move_tile(NeuronCore& nc, const Tile& sb, const HbmTensor& c, std::int64_t j0, std::int64_t i0, int tnj, int tni,
               Triangle tri, bool to_hbm) {
  bool full = true;
  for (int p = 0; p < tnj && full; p += std::max(1, tnj - 1)) {
    const RowRange r = valid_rows(tri, j0 + p, i0, i0 + tni);
    full = r.lo == i0 && r.hi == i0 + tni;
  }
  if (full) {
    const Tile h = c.tile(j0, tnj, i0, tni);
    to_hbm ? nc.dma_copy(h, sb.rows(0, tnj).cols(0, tni)) : nc.dma_copy(sb.rows(0, tnj).cols(0, tni), h);
    return;
  }
  for (int p = 0; p < tnj; ++p) {  // crossing the diagonal: one row (partition) at a time
    const RowRange r = valid_rows(tri, j0 + p, i0, i0 + tni);
    if (r.hi <= r.lo) continue;
    const Tile h = c.tile(j0 + p, 1, r.lo, r.hi - r.lo);
    const Tile s = sb.rows(p, 1).cols(r.lo - i0, r.hi - r.lo);
    to_hbm ? nc.dma_copy(h, s) : nc.dma_copy(s, h);
  }
}

bool tile_intersects(Triangle tri, std::int64_t j0, int tnj, std::int64_t i0, int tni) {
  if (tri == Triangle::lower) return i0 + tni - 1 >= j0;             // some i >= j
  if (tri == Triangle::upper) return i0 <= j0 + tnj - 1;             // some i <= j
  return true;
}

const InstrOptions kRne{Rounding::nearest_even};

// Packs one K tile of each source into SBUF and produces its terms (split on VectorE if asked).
// double_row packing of one K tile of tk <= 256 rows into a [128, 2, width] term tile: rows
// k0 + 2p + r to (p, r); an odd last row goes to (p, 0) with (p, 1) zeroed (adds +-0: no change).
void pack_double_row(NeuronCore& nc, const Tile& h, const Tile& term, int tk, int width) {
  const int pairs = tk / 2;
  if (tk % 2 != 0) nc.memset(term.rows(0, pairs + 1).cols(0, width), 0.0f);  // engines start at partition 0
  if (pairs > 0) nc.dma_copy(term.rows(0, pairs).cols(0, width), tile::partition_pairs(h.rows(0, 2 * pairs)));
  if (tk % 2 != 0) nc.dma_copy(term.rows(pairs, 1).cols(0, width).slice(0, 0, 1), h.rows(tk - 1, 1));
}

void pack_terms(NeuronCore& nc, const BlockGemmArgs& g, const std::vector<HbmTensor>& src, std::int64_t k0, int tk,
                std::int64_t f0, int width, const std::vector<Tile>& raw, const std::vector<Tile>& resid,
                const std::vector<Tile>& terms, bool double_row) {
  for (std::size_t s = 0; s < src.size(); ++s) {
    const Tile h = src[s].tile(k0, tk, f0, width);
    if (double_row) {
      pack_double_row(nc, h, terms[s], tk, width);
      continue;
    }
    if (g.split == 1) {
      nc.dma_copy(terms[s].rows(0, tk).cols(0, width), h);
      continue;
    }
    // x -> hi = bf16(x), r = x - hi (exact in fp32), mid = bf16(r), lo = bf16(r - mid).
    const Tile x = raw[s].rows(0, tk).cols(0, width);
    nc.dma_copy(x, h);
    const std::size_t t0 = s * static_cast<std::size_t>(g.split);
    std::array<Tile, 3> t;
    for (std::size_t i = 0; i < static_cast<std::size_t>(g.split); ++i) t[i] = terms[t0 + i].rows(0, tk).cols(0, width);
    // The roundings to bf16 run on ScalarE, the exact fp32 subtractions on VectorE: the two engines
    // split the work (same RNE conversion on either, docs/numerics.md).
    tile::split_terms(nc, tile::SplitOperand{x, resid[s].rows(0, tk).cols(0, width), std::span(t).first(static_cast<std::size_t>(g.split))},
                      tile::TermSplit{Engine::scalar, Engine::vector, kRne, false});
  }
}



// The operand slots of one K-tile buffer: per source the fp32 tile and residual (split modes
// only) and the terms the micro-kernel reads.
struct OperandSlot {
  std::vector<Tile> a_raw, a_res, a_terms, b_raw, b_res, b_terms;
};

// One output tile of a pass: columns j0.. (partitions) x rows i0.. (free) of C.
struct OutTile {
  std::int64_t j0, i0;
  int tnj, tni;
  bool live;  // intersects the triangle (always, without one)
};

// Everything a program's loops share: arguments, plan, tiles.
struct ProgramState {
  ProgramState(NeuronCore& core, const BlockGemmArgs& args, const BlockShape& shape)
      : nc(core), g(args), b(shape), double_row(uses_double_row(core.hw(), args)), k_rows(double_row ? 2 : 1),
        TK(core.hw().pmax * k_rows), TJ(core.hw().gemm_stationary_fmax),
        TI(static_cast<int>(core.hw().psum_bank_bytes / 4)) {}
  NeuronCore& nc;
  const BlockGemmArgs& g;
  const BlockShape& b;
  const bool double_row;   // fp8 on NC-v3/v4: K tiles of 2 x 128 rows
  const int k_rows;        // contraction rows per partition (2 with double_row)
  const int TK, TJ, TI;    // K tile (rows), output tile columns (stationary free), rows (moving free)
  int partitions_of(int tk) const { return (tk + k_rows - 1) / k_rows; }
  std::int64_t j_begin = 0;  // first column of the program
  int bn = 0, tiles_j = 0;   // columns of the program and their 128-column tiles
  bool compute = false;      // the product is needed (alpha != 0 and k > 0)
  int k_tiles = 0;
  std::vector<Tile> acc;          // PSUM accumulators, one bank per output tile of a pass
  std::vector<OperandSlot> slots;  // rotated by K-tile index
  std::vector<Tile> b_strip;      // resident plan: the op(B) strip, [k, k tile, j] per term
  bool strip_packed = false;
  struct EpilogueSlot {
    Tile out, cold, out_c;
  };
  std::vector<EpilogueSlot> epi;  // rotated by output tile
  bool read_c = false, cast_out = false;
  // Stores of evacuated output tiles not yet issued: the next pass's K loop issues one per K tile
  // after its packing DMAs, so that a pass's output does not hold up the operand loads that the
  // next pass's matmuls wait for (the program's last pass flushes them at its end).
  struct PendingStore {
    OutTile tile;
    std::size_t slot;
  };
  std::deque<PendingStore> stores;
};

// Store of one evacuated output tile: SBUF slot -> C (restricted to the triangle).
void store_tile(ProgramState& st, const ProgramState::PendingStore& ps) {
  const ProgramState::EpilogueSlot& slot = st.epi[ps.slot];
  const OutTile& o = ps.tile;
  move_tile(st.nc, st.cast_out ? slot.out_c : slot.out, st.g.c, o.j0, o.i0, o.tnj, o.tni, st.g.triangle, /*to_hbm=*/true);
}

void issue_one_store(ProgramState& st) {
  if (st.stores.empty()) return;
  store_tile(st, st.stores.front());
  st.stores.pop_front();
}

// The output tiles of the pass starting at row i_begin; ti outer.
std::vector<OutTile> pass_tiles(const ProgramState& st, std::int64_t i_begin, int bm) {
  std::vector<OutTile> outs;
  for (int ti = 0; ti < (bm + st.TI - 1) / st.TI; ++ti)
    for (int tj = 0; tj < st.tiles_j; ++tj) {
      const std::int64_t j0 = st.j_begin + std::int64_t{tj} * st.TJ, i0 = i_begin + std::int64_t{ti} * st.TI;
      const int tnj = std::min(st.TJ, static_cast<int>(st.g.n - j0)), tni = std::min(st.TI, static_cast<int>(st.g.m - i0));
      outs.push_back({j0, i0, tnj, tni, tile_intersects(st.g.triangle, j0, tnj, i0, tni)});
    }
  return outs;
}

bool any_live(const std::vector<OutTile>& outs) {
  return std::any_of(outs.begin(), outs.end(), [](const OutTile& o) { return o.live; });
}

// Micro-kernel: one output tile's matmuls for one K tile, one per term pair, in the pair order,
// into the tile's PSUM bank (the first of the tile's accumulation group starts it).
// b_terms hold columns j_origin.. and a_terms rows i_origin.. of the K tile.
void micro_kernel(ProgramState& st, const OutTile& o, const Tile& bank, const std::vector<Tile>& b_terms,
                  const std::vector<Tile>& a_terms, std::int64_t j_origin, std::int64_t i_origin, int tk,
                  bool first_k_tile) {
  const int tj = static_cast<int>((o.j0 - j_origin) / st.TJ), ti = static_cast<int>((o.i0 - i_origin) / st.TI);
  const int parts = st.partitions_of(tk);
  const MatmulPerfMode mode = st.double_row ? MatmulPerfMode::double_row : MatmulPerfMode::none;
  for (std::size_t p = 0; p < st.g.pairs.size(); ++p) {
    const auto [pa, pb] = st.g.pairs[p];
    st.nc.nc_matmul(bank.rows(0, o.tnj).cols(0, o.tni),
                    b_terms[static_cast<std::size_t>(pb)].rows(0, parts).cols(tj * st.TJ, o.tnj),
                    a_terms[static_cast<std::size_t>(pa)].rows(0, parts).cols(ti * st.TI, o.tni),
                    /*accumulate=*/!(first_k_tile && p == 0), mode);
  }
}

// Macro-kernel [jr, ir]: the micro-kernel over every live output tile of the pass.
void macro_kernel(ProgramState& st, const std::vector<OutTile>& outs, const std::vector<Tile>& b_terms,
                  const std::vector<Tile>& a_terms, std::int64_t i_begin, int tk, bool first_k_tile) {
  for (std::size_t t = 0; t < outs.size(); ++t)
    if (outs[t].live) micro_kernel(st, outs[t], st.acc[t], b_terms, a_terms, st.j_begin, i_begin, tk, first_k_tile);
}

// K loop [pc] of one pass: pack op(A) (and op(B), or the resident strip's next K tile during the
// first pass), then the macro-kernel.
void k_loop(ProgramState& st, const std::vector<OutTile>& outs, std::int64_t i_begin, int bm) {
  const BlockGemmArgs& g = st.g;
  for (int kt = 0; kt < st.k_tiles; ++kt) {
    const std::int64_t k0 = g.k_begin + std::int64_t{kt} * st.TK;
    const int tk = static_cast<int>(std::min<std::int64_t>(st.TK, g.k_end - k0));
    const OperandSlot& u = st.slots[static_cast<std::size_t>(kt % st.b.buffers)];
    pack_terms(st.nc, g, g.a_src, k0, tk, i_begin, bm, u.a_raw, u.a_res, u.a_terms, st.double_row);
    std::vector<Tile> b_now;
    if (st.b.resident) {
      for (const Tile& s : st.b_strip)
        b_now.push_back(st.double_row ? s.slice(0, kt, 1).reshape({2, st.bn}) : s.slice(0, kt, 1).reshape({st.bn}));
      if (!st.strip_packed)
        pack_terms(st.nc, g, g.b_src, k0, tk, st.j_begin, st.bn, u.b_raw, u.b_res, b_now, st.double_row);
    } else {
      b_now = u.b_terms;
      pack_terms(st.nc, g, g.b_src, k0, tk, st.j_begin, st.bn, u.b_raw, u.b_res, u.b_terms, st.double_row);
    }
    issue_one_store(st);
    macro_kernel(st, outs, b_now, u.a_terms, i_begin, tk, kt == 0);
  }
  st.strip_packed = true;
}

// The epilogue's steps after alpha, on the fp32 result v of output tile o: + beta C (C read into
// the slot), then the cast into the slot's C-typed tile. Shared by both plans' epilogues.
void add_beta_c_and_cast(ProgramState& st, const OutTile& o, const Tile& v, const ProgramState::EpilogueSlot& slot) {
  const Tile cv = st.read_c ? slot.cold.rows(0, o.tnj).cols(0, o.tni) : Tile{};
  const Tile oc = st.cast_out ? slot.out_c.rows(0, o.tnj).cols(0, o.tni) : Tile{};
  if (st.read_c) move_tile(st.nc, slot.cold, st.g.c, o.j0, o.i0, o.tnj, o.tni, st.g.triangle, /*to_hbm=*/false);
  tile::add_beta_c_and_cast(st.nc, v, st.read_c ? &cv : nullptr, st.g.beta, st.cast_out ? &oc : nullptr);
}

// Epilogue of one output tile: PSUM -> SBUF (times alpha), + beta * C, cast; the store to C is
// queued (ProgramState::stores). Slots rotate between output tiles.
void epilogue(ProgramState& st, const OutTile& o, const Tile& bank, std::size_t slot_index) {
  // The slot is about to be overwritten: its pending store must be issued first.
  while (std::any_of(st.stores.begin(), st.stores.end(),
                     [&](const ProgramState::PendingStore& ps) { return ps.slot == slot_index; }))
    issue_one_store(st);
  const ProgramState::EpilogueSlot& slot = st.epi[slot_index];
  NeuronCore& nc = st.nc;
  const BlockGemmArgs& g = st.g;
  const Tile a = bank.rows(0, o.tnj).cols(0, o.tni);
  const Tile v = slot.out.rows(0, o.tnj).cols(0, o.tni);
  tile::evacuate(nc, v, a, g.raw ? 1.0f : g.alpha, /*accumulated=*/st.compute);  // raw: the fp32 sums unscaled
  add_beta_c_and_cast(st, o, v, slot);
  st.stores.push_back({o, slot_index});
}

// Allocates the program's PSUM accumulators and SBUF tiles (the sizes plan_gemm accounted for).
void allocate(ProgramState& st, AllocScope& sbuf, AllocScope& psum, int pass_bm) {
  const BlockGemmArgs& g = st.g;
  for (int t = 0; t < st.b.tiles_i * st.b.tiles_j; ++t) st.acc.push_back(psum.alloc(DType::f32, st.TJ, {st.TI}, "gemm acc"));
  const int terms_a = static_cast<int>(g.a_src.size()) * g.split, terms_b = static_cast<int>(g.b_src.size()) * g.split;
  const DType term_dtype = g.split == 1 ? g.load : DType::bf16;
  if (st.compute) {
    st.slots.resize(static_cast<std::size_t>(st.b.buffers));
    for (OperandSlot& u : st.slots) {
      if (g.split > 1) {
        for (std::size_t s = 0; s < g.a_src.size(); ++s) {
          u.a_raw.push_back(sbuf.alloc(DType::f32, st.TK, {pass_bm}, "op(A) fp32 tile"));
          u.a_res.push_back(sbuf.alloc(DType::f32, st.TK, {pass_bm}, "op(A) residual"));
        }
        for (std::size_t s = 0; s < g.b_src.size(); ++s) {
          u.b_raw.push_back(sbuf.alloc(DType::f32, st.TK, {st.bn}, "op(B) fp32 tile"));
          u.b_res.push_back(sbuf.alloc(DType::f32, st.TK, {st.bn}, "op(B) residual"));
        }
      }
      const int P = st.partitions_of(st.TK);
      auto term = [&](std::int64_t width, const char* what) {
        return st.double_row ? sbuf.alloc(term_dtype, P, {2, width}, what) : sbuf.alloc(term_dtype, P, {width}, what);
      };
      for (int t = 0; t < terms_a; ++t) u.a_terms.push_back(term(pass_bm, "op(A) term"));
      if (!st.b.resident)
        for (int t = 0; t < terms_b; ++t) u.b_terms.push_back(term(st.bn, "op(B) term"));
    }
    if (st.b.resident) {
      // Strip slot program % strip_slots: [slot, k tile, (pair,) j] per term.
      const int slot = st.nc.program_id(0) % st.b.strip_slots;
      const int P = st.partitions_of(st.TK);
      for (int t = 0; t < terms_b; ++t)
        st.b_strip.push_back(
            st.double_row
                ? sbuf.alloc(term_dtype, P, {st.b.strip_slots, st.k_tiles, 2, st.bn}, "op(B) strips")
                      .slice(0, slot, 1)
                      .reshape({st.k_tiles, 2, st.bn})
                : sbuf.alloc(term_dtype, P, {st.b.strip_slots, st.k_tiles, st.bn}, "op(B) strips")
                      .slice(0, slot, 1)
                      .reshape({st.k_tiles, st.bn}));
    }
  }
  for (int e = 0; e < st.b.epilogue_slots; ++e) {
    ProgramState::EpilogueSlot slot;
    slot.out = sbuf.alloc(DType::f32, st.TJ, {st.TI}, "epilogue fp32");
    if (st.read_c) slot.cold = sbuf.alloc(DType::f32, st.TJ, {st.TI}, "C (beta)");
    slot.out_c = st.cast_out ? sbuf.alloc(g.c.dtype(), st.TJ, {st.TI}, "C out") : slot.out;
    st.epi.push_back(slot);
  }
}


// K-blocked program [jc, ic]: one output block of block_i x block_j tiles, accumulated in fp32 SBUF.
// Loops: K chunks [kc] of kKChunkTiles K tiles (op(A) chunk for the block's rows packed once per
// chunk, the next chunk's loaded ahead); bank groups of tiles_j column tiles (op(B) slice packed per
// group, the next group's loaded ahead); row tiles [ir] x column tiles [jr] of the group; the chunk's
// K tiles [pc] as one PSUM accumulation group per output tile (micro-kernel); then VectorE moves the
// bank into the block (first chunk) or adds it (later chunks, fp32 RNE), and in the last chunk runs
// the epilogue in place. Column tiles of the block are stored whole (rows of bm fp32) unless the
// result is cast, which stores tile by tile from epilogue slots.
void k_blocked_program(NeuronCore& nc, const BlockGemmArgs& g, const BlockShape& b) {
  ProgramState st(nc, g, b);
  const std::int64_t i0 = std::int64_t{nc.program_id(1)} * b.block_i * st.TI;
  const std::int64_t j0 = std::int64_t{nc.program_id(0)} * b.block_j * st.TJ;
  if (i0 >= g.m || j0 >= g.n) return;
  const int bm = static_cast<int>(std::min<std::int64_t>(std::int64_t{b.block_i} * st.TI, g.m - i0));
  const int bn = static_cast<int>(std::min<std::int64_t>(std::int64_t{b.block_j} * st.TJ, g.n - j0));
  const int tiles_i = (bm + st.TI - 1) / st.TI, tiles_j = (bn + st.TJ - 1) / st.TJ;
  const int group = std::min(b.tiles_j, tiles_j);
  const int groups = (tiles_j + group - 1) / group;
  st.j_begin = j0;
  st.bn = bn;
  st.tiles_j = tiles_j;
  st.compute = g.multiply && g.k_end > g.k_begin;
  st.k_tiles = st.compute ? static_cast<int>((g.k_end - g.k_begin + st.TK - 1) / st.TK) : 0;
  st.read_c = !g.raw && g.beta != 0.0f;
  st.cast_out = g.c.dtype() != DType::f32 && !g.raw;
  const int kc = std::min(kKChunkTiles, std::max(st.k_tiles, 1));
  const int chunks = (st.k_tiles + kc - 1) / kc;

  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  const Tile block = sbuf.alloc(DType::f32, st.TJ, {tiles_j, bm}, "C block (fp32, across K chunks)");
  for (int t = 0; t < std::min(nc.hw().psum_banks, group * tiles_i); ++t)
    st.acc.push_back(psum.alloc(DType::f32, st.TJ, {st.TI}, "gemm acc"));
  const DType term_dtype = g.load;
  const int P = st.partitions_of(st.TK);
  auto chunk_tile = [&](std::int64_t width, const char* what) {
    return st.double_row ? sbuf.alloc(term_dtype, P, {kc, 2, width}, what) : sbuf.alloc(term_dtype, P, {kc, width}, what);
  };
  std::vector<std::vector<Tile>> a_chunks(kAChunkSlots), b_groups(kBGroupSlots);  // [slot][source]
  if (st.compute) {
    for (auto& slot : a_chunks)
      for (std::size_t s = 0; s < g.a_src.size(); ++s) slot.push_back(chunk_tile(bm, "op(A) chunk"));
    for (auto& slot : b_groups)
      for (std::size_t s = 0; s < g.b_src.size(); ++s) slot.push_back(chunk_tile(std::int64_t{group} * st.TJ, "op(B) group"));
  }
  if (st.read_c || st.cast_out)
    for (int e = 0; e < b.epilogue_slots; ++e) {
      ProgramState::EpilogueSlot slot;
      if (st.read_c) slot.cold = sbuf.alloc(DType::f32, st.TJ, {st.TI}, "C (beta)");
      if (st.cast_out) slot.out_c = sbuf.alloc(g.c.dtype(), st.TJ, {st.TI}, "C out");
      st.epi.push_back(slot);
    }

  // K tile t of a chunk slot, as the micro-kernel's term tiles.
  auto terms_at = [&](const std::vector<Tile>& slot, int t) {
    std::vector<Tile> terms;
    for (const Tile& c : slot) {
      const std::int64_t width = st.double_row ? c.size[2] : c.size[1];
      terms.push_back(st.double_row ? c.slice(0, t, 1).reshape({2, width}) : c.slice(0, t, 1).reshape({width}));
    }
    return terms;
  };
  auto k_tile = [&](int kt) {
    const std::int64_t k0 = g.k_begin + std::int64_t{kt} * st.TK;
    return std::pair<std::int64_t, int>{k0, static_cast<int>(std::min<std::int64_t>(st.TK, g.k_end - k0))};
  };
  auto load_a = [&](int c) {
    const std::vector<Tile>& slot = a_chunks[static_cast<std::size_t>(c % kAChunkSlots)];
    for (int t = 0; t < kc && c * kc + t < st.k_tiles; ++t) {
      const auto [k0, tk] = k_tile(c * kc + t);
      pack_terms(nc, g, g.a_src, k0, tk, i0, bm, {}, {}, terms_at(slot, t), st.double_row);
    }
  };
  auto group_cols = [&](int gi) { return std::min(group * st.TJ, bn - gi * group * st.TJ); };
  auto load_b = [&](int q) {  // the q-th (chunk, group) of the program
    const int c = q / groups, gi = q % groups;
    const std::vector<Tile>& slot = b_groups[static_cast<std::size_t>(q % kBGroupSlots)];
    for (int t = 0; t < kc && c * kc + t < st.k_tiles; ++t) {
      const auto [k0, tk] = k_tile(c * kc + t);
      pack_terms(nc, g, g.b_src, k0, tk, j0 + std::int64_t{gi} * group * st.TJ, group_cols(gi), {}, {}, terms_at(slot, t),
                 st.double_row);
    }
  };
  auto block_view = [&](const OutTile& o) {
    return block.slice(0, static_cast<int>((o.j0 - j0) / st.TJ), 1).reshape({bm}).rows(0, o.tnj).cols(
        static_cast<int>(o.i0 - i0), o.tni);
  };
  int epi_slot = 0;
  // Epilogue in place on the block (the operations and order of `epilogue`): times alpha, + beta C,
  // cast; a cast result is stored from its slot now, an fp32 one with its column tile later.
  auto finish_tile = [&](const OutTile& o) {
    const Tile v = block_view(o);
    if (!st.compute)
      nc.memset(v, 0.0f);
    else if (!g.raw && g.alpha != 1.0f)
      nc.tensor_scalar(v, v, AluOp::multiply, g.alpha);
    if (!st.read_c && !st.cast_out) return;
    const ProgramState::EpilogueSlot& slot = st.epi[static_cast<std::size_t>(epi_slot)];
    epi_slot = (epi_slot + 1) % b.epilogue_slots;
    add_beta_c_and_cast(st, o, v, slot);
    if (st.cast_out) move_tile(nc, slot.out_c, g.c, o.j0, o.i0, o.tnj, o.tni, Triangle::none, /*to_hbm=*/true);
  };
  auto out_tile = [&](int gi, int ri, int tj) {
    const std::int64_t oj = j0 + (std::int64_t{gi} * group + tj) * st.TJ, oi = i0 + std::int64_t{ri} * st.TI;
    return OutTile{oj, oi, std::min(st.TJ, static_cast<int>(g.n - oj)), std::min(st.TI, static_cast<int>(g.m - oi)), true};
  };
  auto store_column = [&](int gi, int tj) {  // an fp32 result's column tile in one transfer
    if (st.cast_out) return;
    const OutTile o = out_tile(gi, 0, tj);
    const Tile col = block.slice(0, gi * group + tj, 1).reshape({bm});
    move_tile(nc, col, g.c, o.j0, i0, o.tnj, bm, Triangle::none, /*to_hbm=*/true);
  };

  if (!st.compute) {
    for (int gi = 0; gi < groups; ++gi)
      for (int tj = 0; tj < group && (gi * group + tj) * st.TJ < bn; ++tj) {
        for (int ri = 0; ri < tiles_i; ++ri) finish_tile(out_tile(gi, ri, tj));
        store_column(gi, tj);
      }
    return;
  }
  std::size_t bank_turn = 0;  // banks rotate over the output tiles, so an evacuation has 7 tiles' time
  load_a(0);
  load_b(0);
  for (int c = 0; c < chunks; ++c) {
    if (c + 1 < chunks) load_a(c + 1);
    const std::vector<Tile>& a_slot = a_chunks[static_cast<std::size_t>(c % kAChunkSlots)];
    const bool last = c + 1 == chunks;
    for (int gi = 0; gi < groups; ++gi) {
      const int q = c * groups + gi;
      if (q + 1 < chunks * groups) load_b(q + 1);
      const std::vector<Tile>& b_slot = b_groups[static_cast<std::size_t>(q % kBGroupSlots)];
      const std::int64_t j_origin = j0 + std::int64_t{gi} * group * st.TJ;
      std::vector<std::vector<Tile>> a_now, b_now;  // the chunk's K tiles as term tiles, per K tile
      for (int t = 0; t < kc && c * kc + t < st.k_tiles; ++t) {
        a_now.push_back(terms_at(a_slot, t));
        b_now.push_back(terms_at(b_slot, t));
      }
      for (int tj = 0; tj < group && (gi * group + tj) * st.TJ < bn; ++tj) {
        for (int ri = 0; ri < tiles_i; ++ri) {
          const OutTile o = out_tile(gi, ri, tj);
          const Tile& bank = st.acc[static_cast<std::size_t>(bank_turn++ % st.acc.size())];
          for (std::size_t t = 0; t < a_now.size(); ++t)
            micro_kernel(st, o, bank, b_now[t], a_now[t], j_origin, i0, k_tile(c * kc + static_cast<int>(t)).second, t == 0);
          const Tile sum = bank.rows(0, o.tnj).cols(0, o.tni), v = block_view(o);
          if (c == 0)
            nc.tensor_copy(v, sum);
          else
            nc.tensor_tensor(v, v, sum, AluOp::add, Engine::vector, kRne);
          if (last) finish_tile(o);
        }
        if (last) store_column(gi, tj);
      }
    }
  }
}

}  // namespace

// Program [jc]: a block of columns (and, streaming, of rows); its passes [ic] over the rows.
void gemm_block_kernel(NeuronCore& nc, const BlockGemmArgs& g, const BlockShape& b) {
  if (b.k_blocked) {
    k_blocked_program(nc, g, b);
    return;
  }
  ProgramState st(nc, g, b);
  // Streaming: program (j, i) owns one pass. Resident: program j owns all rows, in passes.
  st.j_begin = std::int64_t{nc.program_id(0)} * b.tiles_j * st.TJ;
  const std::int64_t pass_rows = std::int64_t{b.tiles_i} * st.TI;
  const std::int64_t i_first = b.resident ? 0 : std::int64_t{nc.program_id(1)} * pass_rows;
  const std::int64_t i_last = b.resident ? g.m : std::min(g.m, i_first + pass_rows);
  if (st.j_begin >= g.n || i_first >= g.m) return;
  st.bn = static_cast<int>(std::min<std::int64_t>(std::int64_t{b.tiles_j} * st.TJ, g.n - st.j_begin));
  st.tiles_j = (st.bn + st.TJ - 1) / st.TJ;
  bool program_live = false;
  for (std::int64_t i0 = i_first; i0 < i_last && !program_live; i0 += pass_rows)
    program_live = any_live(pass_tiles(st, i0, static_cast<int>(std::min(pass_rows, i_last - i0))));
  if (!program_live) return;

  st.compute = g.multiply && g.k_end > g.k_begin;
  st.k_tiles = st.compute ? static_cast<int>((g.k_end - g.k_begin + st.TK - 1) / st.TK) : 0;
  st.read_c = !g.raw && g.beta != 0.0f;
  st.cast_out = g.c.dtype() != DType::f32 && !g.raw;
  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  allocate(st, sbuf, psum, static_cast<int>(std::min(pass_rows, i_last - i_first)));

  int epi_slot = 0;
  for (std::int64_t i_begin = i_first; i_begin < i_last; i_begin += pass_rows) {
    const int bm = static_cast<int>(std::min(pass_rows, i_last - i_begin));
    const std::vector<OutTile> outs = pass_tiles(st, i_begin, bm);
    if (!any_live(outs)) continue;
    if (st.compute) k_loop(st, outs, i_begin, bm);
    for (std::size_t t = 0; t < outs.size(); ++t) {
      if (!outs[t].live) continue;
      epilogue(st, outs[t], st.acc[t], static_cast<std::size_t>(epi_slot));
      epi_slot = (epi_slot + 1) % b.epilogue_slots;
    }
  }
  while (!st.stores.empty()) issue_one_store(st);
}

LaunchResult launch_gemm(const LaunchConfig& base, const std::vector<BlockGemmArgs>& problems, GemmPlan* plan_out) {
  const HardwareSpec& hw = hardware_spec(base.core.generation);
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
  const GemmPlan plan = plan_gemm(hw, m, n, k, static_cast<int>(problems.size()), pairs, bytes, fp32_matmul);
  if (plan_out != nullptr) *plan_out = plan;
  LaunchConfig lc = base;
  lc.grid = plan.grid;
  const BlockShape b = plan.block;
  LaunchResult r =
      launch(lc, [&](NeuronCore& nc) { gemm_block_kernel(nc, problems[static_cast<std::size_t>(nc.program_id(2))], b); });
  // The plan's SBUF accounting must cover what the kernel allocated: otherwise a shape near the
  // capacity could pass planning and overflow SBUF inside the kernel.
  if (r.sbuf_peak_bytes > plan.sbuf_bytes)
    throw Error("trnblas: gemm plan under-counts SBUF: kernel used " + std::to_string(r.sbuf_peak_bytes) +
                                       " B/partition, plan " + std::to_string(plan.sbuf_bytes) + " (" + plan.print() + ")");
  return r;
}

}  // namespace trn::blas::detail
