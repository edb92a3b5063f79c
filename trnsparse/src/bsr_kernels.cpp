#include "bsr_kernels.hpp"

#include "trn/tile/view.hpp"

#include <algorithm>
#include <climits>
#include <cstring>

#include "trn/core/scratch.hpp"
#include "trn/tile/matmul.hpp"

namespace trn::sparse::detail {

HbmTensor BlockPattern::stationary_view(std::int64_t b) const {
  std::byte* p = values + b * rb * cb * dtype_size(value_type);
  // Element (m = r, k = c) of the block: row-major at r * cb + c, column-major at r + c * rb.
  return row_major ? HbmTensor::wrap(p, value_type, {cb, rb}, {1, cb}) : HbmTensor::wrap(p, value_type, {cb, rb}, {rb, 1});
}

HbmTensor BlockPattern::block_view(std::int64_t b) const {
  std::byte* p = values + b * rb * cb * dtype_size(value_type);
  return row_major ? HbmTensor::wrap(p, value_type, {rb, cb}, {cb, 1}) : HbmTensor::wrap(p, value_type, {rb, cb}, {1, rb});
}

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Columns of C per PSUM accumulator: one bank of fp32 and at most one moving operand.
std::int64_t chunk_width(const HardwareSpec& hw) {
  return std::min<std::int64_t>(hw.gemm_moving_fmax, hw.psum_bank_bytes / 4);
}

// The fill of SBUF tiles every reader reads only where a DMA, engine or operator of the kernel wrote
// first (each use below says why): no NaN poison fill (AllocFill::none). Host work only: the same
// bytes are read. The poison's memset was 14 % of a warm small-block SDDMM's host instructions and
// 2 % of a CSR SDDMM's (s27/sddmm, callgrind).
constexpr AllocFill kWrittenFirst = AllocFill::none;

// Output tiles of the epilogue, double-buffered by row parity. Each is read only at the view
// [tm, nn] that evacuate (out), the C load (cold; the CSR kernel's memset) or the cast (outc) wrote
// just before: kWrittenFirst.
struct Epilogue {
  Tile out[2], cold[2], outc[2];
  bool read_c = false, cast = false;
  Epilogue(AllocScope& sbuf, const HardwareSpec& hw, std::int64_t width, float beta, DType c_dtype) {
    read_c = beta != 0.0f;
    cast = c_dtype != DType::f32;
    for (int i = 0; i < 2; ++i) {
      out[i] = sbuf.alloc(DType::f32, hw.gemm_stationary_fmax, {width}, "epilogue fp32", 0, kWrittenFirst);
      if (read_c) cold[i] = sbuf.alloc(DType::f32, hw.gemm_stationary_fmax, {width}, "C (beta)", 0, kWrittenFirst);
      if (cast) outc[i] = sbuf.alloc(c_dtype, hw.gemm_stationary_fmax, {width}, "C out", 0, kWrittenFirst);
    }
  }
  // v = alpha * acc (or 0 when nothing was accumulated) in out[slot]; returns the fp32 tile.
  Tile scale(NeuronCore& nc, int slot, const tile::Accumulator& acc, float alpha, int tm, std::int64_t nn) const {
    const Tile v = out[slot].rows(0, tm).cols(0, nn);
    tile::evacuate(nc, v, acc, alpha);
    return v;
  }
  // v += beta * c (cv already holds c), then the cast to C's dtype; returns the tile to store.
  Tile finish(NeuronCore& nc, int slot, const Tile& v, float beta, int tm, std::int64_t nn) const {
    const Tile cv = read_c ? cold[slot].rows(0, tm).cols(0, nn) : Tile{};
    const Tile o = cast ? outc[slot].rows(0, tm).cols(0, nn) : Tile{};
    return tile::add_beta_c_and_cast(nc, v, read_c ? &cv : nullptr, beta, cast ? &o : nullptr);
  }
};

}  // namespace

SpmmPlan plan_spmm(const HardwareSpec& hw, const SpmmArgs& g, int num_cores) {
  SpmmPlan p;
  p.n_chunks = static_cast<int>(std::max<std::int64_t>(1, ceil_div(g.n, chunk_width(hw))));
  // Row groups: enough programs for two host threads per emulated core, balanced by stored blocks
  // (+1 per row for its epilogue). Fixed by (pattern, num_cores): never by the host thread count.
  const std::int64_t brows = g.a.brows;
  const std::int64_t groups = std::max<std::int64_t>(1, std::min<std::int64_t>(brows, std::max(1, num_cores)));
  p.row_groups = static_cast<int>(groups);
  const std::int64_t total = g.a.row_start.back() + brows;
  p.group_start.assign(1, 0);
  std::int64_t acc = 0;
  for (std::int64_t r = 0; r < brows; ++r) {
    acc += g.a.row_start[r + 1] - g.a.row_start[r] + 1;
    const auto filled = static_cast<std::int64_t>(p.group_start.size());
    if (filled < groups && acc * groups >= total * filled) p.group_start.push_back(r + 1);
  }
  while (static_cast<std::int64_t>(p.group_start.size()) < groups + 1) p.group_start.push_back(brows);
  p.group_start.back() = brows;
  return p;
}

std::string SpmmPlan::print(std::int64_t m, std::int64_t n, std::int64_t k, bool b_resident,
                            const LaunchResult& r) const {
  PlanFacts f;
  f.routine = "spmm";
  f.shape = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  f.variant = std::string("BSR, grid ") + std::to_string(n_chunks) + " column chunks x " + std::to_string(row_groups) +
              " block-row groups, op(B) " + (b_resident ? "resident in SBUF" : "streamed per block");
  f.ops = std::to_string(r.trace.per_engine[static_cast<int>(Engine::tensor)]) + " nc_matmul";
  f.sbuf_bytes = r.sbuf_peak_bytes;
  f.psum_bytes = r.psum_peak_bytes;
  f.engines = "DMA, TensorE, VectorE";
  f.predicted_ns = predicted_ns;
  f.why = b_resident ? "a program's referenced op(B) strips fit SBUF beside its A buffers and epilogue tiles"
                     : "op(B) strips do not fit SBUF beside the A buffers (or alpha == 0): streamed per block";
  return f.print();
}

namespace {

// HBM view of `count` consecutive blocks b0.. of a pattern, read transposed: [cb (partition = k),
// count, rb] — one DMA for several stationary operands (a longer free pattern per partition row
// raises DMA efficiency, docs/cost-model.md section 3).
Tile blocks_view(const BlockPattern& a, std::int64_t b0, std::int64_t count) {
  const std::int64_t es = dtype_size(a.value_type);
  return tile::hbm_view(a.values + b0 * a.rb * a.cb * es, a.value_type, static_cast<std::int32_t>(a.cb),
                        a.row_major ? 1 : a.rb, {{count, a.rb * a.cb}, {a.rb, a.row_major ? a.cb : 1}});
}

// HBM view of op(B) rows for `count` consecutive block columns j0..: [cb (partition), count, nn].
Tile b_rows_view(const HbmTensor& b, std::int64_t cb, std::int64_t j0, std::int64_t count, std::int64_t n0,
                 std::int64_t nn) {
  return tile::stack_outer(b.tile(j0 * cb, static_cast<std::int32_t>(cb), n0, nn), count, cb * b.strides()[0]);
}

}  // namespace

void spmm_kernel(NeuronCore& nc, const SpmmArgs& g, const SpmmPlan& plan, std::atomic<bool>* b_resident) {
  const HardwareSpec& hw = nc.hw();
  const int P = hw.pmax, MT = hw.gemm_stationary_fmax;
  const std::int64_t W = chunk_width(hw);
  const BlockPattern& a = g.a;
  const std::int64_t n0 = std::int64_t{nc.program_id(0)} * W;
  const int group = nc.program_id(1);
  if (n0 >= g.n) return;
  const std::int64_t nn = std::min(W, g.n - n0);
  const std::int64_t r_begin = plan.group_start[static_cast<std::size_t>(group)];
  const std::int64_t r_end = plan.group_start[static_cast<std::size_t>(group) + 1];
  if (r_begin >= r_end) return;
  const std::int64_t k_chunks = ceil_div(a.cb, P), m_chunks = ceil_div(a.rb, MT);
  // Blocks that fit one tile (rb, cb <= 128) are loaded several per DMA: a run of consecutive blocks
  // of a block row (up to `group_blocks`) in one transfer, and op(B) rows of consecutive block
  // columns likewise. Larger blocks go sub-tile by sub-tile.
  const bool one_tile = k_chunks == 1 && m_chunks == 1;
  const std::int64_t group_blocks = one_tile ? std::clamp<std::int64_t>(2048 / a.rb, 1, 64) : 1;

  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  // The A and op(B) buffers are DMA destinations before any matmul reads them, and every matmul
  // reads only rows and columns its block's DMA wrote (tk <= cb rows, tm <= rb columns; ensure_b
  // loads the rows each product reads): no NaN poison fill (AllocFill::none; 4 MiB of memset per
  // launch for 128-blocks: 23 % of a packed C_32F BSR solve's host instructions, callgrind). Host
  // work only: the same bytes are read.
  // Resident plan: one SBUF slot per (referenced block column, 128-row chunk of it), slots in
  // increasing block column so that runs of columns are runs of slots.
  std::vector<std::int64_t> slot_of, cols_used;
  if (g.multiply) {
    slot_of.assign(static_cast<std::size_t>(a.bcols), -1);
    for (std::int64_t e = a.row_start[r_begin]; e < a.row_start[r_end]; ++e) {
      std::int64_t& s = slot_of[static_cast<std::size_t>(a.col[e])];
      if (s < 0) {
        s = 0;
        cols_used.push_back(a.col[e]);
      }
    }
    std::sort(cols_used.begin(), cols_used.end());
    for (std::size_t i = 0; i < cols_used.size(); ++i) slot_of[static_cast<std::size_t>(cols_used[i])] = static_cast<std::int64_t>(i);
  }
  const auto slots = static_cast<std::int64_t>(cols_used.size());
  // Resident when the strip fits next to the A buffers and the epilogue tiles (per partition).
  const std::int64_t strip_bytes = slots * k_chunks * nn * dtype_size(g.load);
  const std::int64_t other_bytes = 4 * group_blocks * (one_tile ? a.rb : MT) * dtype_size(g.load) + 6 * W * 4;
  const bool resident = slots > 0 && strip_bytes + other_bytes + kAllocAlignBytes * 16 <= hw.sbuf_partition_bytes;
  if (b_resident != nullptr && resident) b_resident->store(true);
  constexpr int kABuffers = 4;  // A groups in flight: loads run ahead of the matmuls
  Tile b_strip, a_buf[kABuffers], b_buf[2];
  // op(B) strips are loaded on first use, a run of up to kBRun consecutive referenced block columns
  // per DMA, so that the first matmuls do not wait for the whole strip.
  constexpr std::int64_t kBRun = 4;
  std::vector<std::int64_t> run_of;  // slot -> first slot of its run (-1 once loaded)
  if (resident) {
    b_strip = sbuf.alloc(g.load, P, {slots * k_chunks, nn}, "op(B) strip", 0, kWrittenFirst);
    run_of.assign(static_cast<std::size_t>(slots), 0);
    const auto full = [&](std::int64_t j) { return one_tile && (j + 1) * a.cb <= g.k_rows; };
    for (std::int64_t i = 0; i < slots;) {
      std::int64_t len = 1;
      if (full(cols_used[static_cast<std::size_t>(i)]))
        while (i + len < slots && len < kBRun && cols_used[static_cast<std::size_t>(i + len)] == cols_used[static_cast<std::size_t>(i)] + len &&
               full(cols_used[static_cast<std::size_t>(i + len)]))
          ++len;
      for (std::int64_t t = 0; t < len; ++t) run_of[static_cast<std::size_t>(i + t)] = i;
      i += len;
    }
  }
  auto ensure_b = [&](std::int64_t j) {
    const std::int64_t s = slot_of[static_cast<std::size_t>(j)];
    const std::int64_t first = run_of[static_cast<std::size_t>(s)];
    if (first < 0) return;
    std::int64_t len = 0;
    while (first + len < slots && run_of[static_cast<std::size_t>(first + len)] == first) run_of[static_cast<std::size_t>(first + len++)] = -1;
    const std::int64_t j0 = cols_used[static_cast<std::size_t>(first)];
    if (one_tile && (j0 + len) * a.cb <= g.k_rows) {
      nc.dma_copy(b_strip.slice(0, first, len).rows(0, static_cast<int>(a.cb)), b_rows_view(g.b, a.cb, j0, len, n0, nn));
      return;
    }
    for (std::int64_t kc = 0; kc < k_chunks; ++kc) {  // a single column (large or clipped blocks)
      const int tk = static_cast<int>(std::min({std::int64_t{P}, a.cb - kc * P, g.k_rows - j0 * a.cb - kc * P}));
      if (tk <= 0) continue;
      nc.dma_copy(b_strip.slice(0, first * k_chunks + kc, 1).reshape({nn}).rows(0, tk), g.b.tile(j0 * a.cb + kc * P, tk, n0, nn));
    }
  };
  if (g.multiply) {
    for (Tile& t : a_buf) t = sbuf.alloc(g.load, P, {group_blocks, one_tile ? a.rb : MT}, "A blocks", 0, kWrittenFirst);
    if (!resident)
      for (Tile& t : b_buf) t = sbuf.alloc(g.load, P, {nn}, "op(B) tile", 0, kWrittenFirst);
  }
  tile::PsumRing acc(psum, 2, MT, W, "spmm acc");  // by row parity
  const Epilogue epi(sbuf, hw, W, g.beta, g.c.dtype());

  std::int64_t parity = 0, b_parity = 0;
  for (std::int64_t r = r_begin; r < r_end; ++r)
    for (std::int64_t mc = 0; mc < m_chunks; ++mc) {
      const std::int64_t m0 = mc * MT;
      const int tm = static_cast<int>(std::min({std::int64_t{MT}, a.rb - m0, g.m_rows - r * a.rb - m0}));
      if (tm <= 0) continue;
      tile::Accumulator acc_t = acc.open(nc, tm, nn);
      const int slot = acc.slot();
      const std::int64_t e_end = g.multiply ? a.row_start[r + 1] : a.row_start[r];
      for (std::int64_t e0 = a.row_start[r]; e0 < e_end; e0 += group_blocks) {
        const std::int64_t count = std::min(group_blocks, e_end - e0);
        const int buf = static_cast<int>(parity++ % kABuffers);
        if (one_tile)  // one DMA per run of consecutive blocks in the value array
          for (std::int64_t i = 0; i < count;) {
            std::int64_t len = 1;
            while (i + len < count && a.block[e0 + i + len] == a.block[e0 + i] + len) ++len;
            nc.dma_copy(a_buf[buf].slice(0, i, len).rows(0, static_cast<int>(a.cb)), blocks_view(a, a.block[e0 + i], len));
            i += len;
          }
        if (resident)
          for (std::int64_t i = 0; i < count; ++i) ensure_b(a.col[e0 + i]);
        for (std::int64_t i = 0; i < count; ++i) {
          const std::int64_t e = e0 + i, j = a.col[e];
          for (std::int64_t kc = 0; kc < k_chunks; ++kc) {
            const std::int64_t k0 = kc * P;
            const int tk = static_cast<int>(std::min({std::int64_t{P}, a.cb - k0, g.k_rows - j * a.cb - k0}));
            if (tk <= 0) continue;
            Tile at;
            if (one_tile) {
              at = a_buf[buf].slice(0, i, 1).reshape({a.rb}).rows(0, tk).cols(0, tm);
            } else {
              at = a_buf[buf].slice(0, 0, 1).reshape({MT}).rows(0, tk).cols(0, tm);
              nc.dma_copy(at, a.stationary_view(a.block[e]).tile(k0, tk, m0, tm));
            }
            Tile bt;
            if (resident) {
              bt = b_strip.slice(0, slot_of[static_cast<std::size_t>(j)] * k_chunks + kc, 1).reshape({nn}).rows(0, tk);
            } else {
              bt = b_buf[b_parity++ % 2].rows(0, tk).cols(0, nn);
              nc.dma_copy(bt, g.b.tile(j * a.cb + k0, tk, n0, nn));
            }
            acc_t.matmul(at, bt);
          }
          if (!one_tile) parity++;  // sub-tile loads alternate buffers too
        }
      }
      const std::int64_t row0 = r * a.rb + m0;
      const Tile v = epi.scale(nc, slot, acc_t, g.alpha, tm, nn);
      if (epi.read_c) nc.dma_copy(epi.cold[slot].rows(0, tm).cols(0, nn), g.c.tile(row0, tm, n0, nn));
      const Tile o = epi.finish(nc, slot, v, g.beta, tm, nn);
      nc.dma_copy(g.c.tile(row0, tm, n0, nn), o);
    }
}

namespace {

// ---- SDDMM, small blocks: tiles of stored blocks (bsr_kernels.hpp, "Small blocks") ------------

// Declared GpSimdE costs (COMMON.md "GpSimdE custom operators": one int32 ALU op, load or store
// each): per moved element a load and a store; per block its two control words loaded, each times
// its block size plus the base (6).
constexpr double kMoveOps = 2, kBlockOps = 6;

// Consecutive stored blocks [e0, e1) of the pattern with consecutive value blocks, at most
// pmax / rb of them and gemm_moving_fmax / cb columns: block b of the tile on partitions
// b rb .. b rb + rb - 1 of the stationary operand and the output, columns b cb .. of the moving one.
struct SddmmBlockTile {
  std::int64_t e0 = 0, e1 = 0;
};

// SBUF bytes per partition of the small-block path, and whether it takes the call: f32 values in
// row-major blocks of at most 64 rows (two blocks per tile at least)
// and gemm_moving_fmax columns, op(A) and op(B) resident in SBUF beside the tile buffers.
std::int64_t small_blocks_bytes(const SddmmArgs& g, const HardwareSpec& hw) {
  const BlockPattern& c = g.c;
  const std::int64_t W = chunk_width(hw), es = dtype_size(g.load), k_tiles = ceil_div(g.k, hw.pmax);
  // op(A) and op(B) resident; the control words; two sets of (stationary, moving, alpha AB, compacted, C).
  return k_tiles * (c.brows * c.rb + c.bcols * c.cb) * es + 2 * k_tiles * (hw.gemm_stationary_fmax + W) * es +
         2 * c.row_start.back() * 4 + 2 * 3 * W * 4;
}
bool sddmm_small_blocks(const SddmmArgs& g, const HardwareSpec& hw) {
  const BlockPattern& c = g.c;
  return g.multiply && g.k > 0 && c.row_major && c.value_type == DType::f32 && 2 * c.rb <= hw.gemm_stationary_fmax &&
         c.cb <= chunk_width(hw) && small_blocks_bytes(g, hw) <= hw.sbuf_partition_bytes - 16 * kAllocAlignBytes;
}

void sddmm_small_blocks_kernel(NeuronCore& nc, const SddmmArgs& g, std::int64_t r_begin, std::int64_t r_end) {
  const HardwareSpec& hw = nc.hw();
  const int P = hw.pmax, MT = hw.gemm_stationary_fmax;
  const std::int64_t W = chunk_width(hw);
  const BlockPattern& c = g.c;
  const std::int64_t rb = c.rb, cb = c.cb, k_tiles = ceil_div(g.k, P), M = c.brows * rb, N = c.bcols * cb;
  const std::int64_t per_tile = std::max<std::int64_t>(1, std::min(MT / rb, W / cb));
  const int kp = static_cast<int>(std::min<std::int64_t>(P, g.k));  // partitions holding op(A) / op(B) rows

  // Tiles (host index work) and their control words: per block its row of op(A) and its column of
  // op(B) (the first of the block's rb rows / cb columns), one DMA per tile.
  std::vector<SddmmBlockTile> tiles;
  const std::int64_t e_begin = c.row_start[r_begin], e_end = c.row_start[r_end];
  for (std::int64_t e = e_begin; e < e_end; ++e) {
    if (tiles.empty() || tiles.back().e1 - tiles.back().e0 == per_tile || c.block[e] != c.block[e - 1] + 1)
      tiles.push_back(SddmmBlockTile{.e0 = e, .e1 = e});
    tiles.back().e1 = e + 1;
  }
  ScratchVector<std::int32_t> ctl_words(static_cast<std::size_t>(2 * (e_end - e_begin)));  // the control DMAs' source
  std::vector<std::int64_t> row_of(static_cast<std::size_t>(e_end - e_begin));
  for (std::int64_t r = r_begin; r < r_end; ++r)
    for (std::int64_t e = c.row_start[r]; e < c.row_start[r + 1]; ++e) {
      ctl_words[static_cast<std::size_t>(2 * (e - e_begin))] = static_cast<std::int32_t>(r);
      ctl_words[static_cast<std::size_t>(2 * (e - e_begin) + 1)] = static_cast<std::int32_t>(c.col[e]);
      row_of[static_cast<std::size_t>(e - e_begin)] = r;
    }

  // kWrittenFirst: the operand operator reads a_all / b_all only at the rows / columns of its blocks
  // (the windows `ensure` loaded; its declared inputs span more), ctl at its tile's words (its DMA),
  // the matmuls st / mv at [tk <= kp, nb rb] / [tk, nb cb] (the operator's copies), the diagonal
  // operator v at [tm, nn] (evacuate), the epilogue vc / cold at [tm, cb] (the diagonal, the C load).
  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  const Tile a_all = sbuf.alloc(g.load, P, {k_tiles, M}, "op(A) resident", 0, kWrittenFirst);
  const Tile b_all = sbuf.alloc(g.load, P, {k_tiles, N}, "op(B) resident", 0, kWrittenFirst);
  const std::int64_t stored = e_end - e_begin;
  const Tile ctl = sbuf.alloc(DType::i32, P, {2 * stored}, "control words", 0, kWrittenFirst);
  Tile st[2], mv[2], v[2], vc[2], cold[2];
  const bool read_c = g.beta != 0.0f;
  for (int i = 0; i < 2; ++i) {
    st[i] = sbuf.alloc(g.load, P, {k_tiles, MT}, "op(A) rows of the tile's blocks", 0, kWrittenFirst);
    mv[i] = sbuf.alloc(g.load, P, {k_tiles, W}, "op(B) columns of the tile's blocks", 0, kWrittenFirst);
    v[i] = sbuf.alloc(DType::f32, MT, {W}, "alpha AB", 0, kWrittenFirst);
    vc[i] = sbuf.alloc(DType::f32, MT, {cb}, "the tile's blocks", 0, kWrittenFirst);
    if (read_c) cold[i] = sbuf.alloc(DType::f32, MT, {cb}, "C (beta)", 0, kWrittenFirst);
  }
  tile::PsumRing acc(psum, 2, MT, W, "sddmm acc");

  // Before the first tile: per tile its control words (every partition the same row), all op(B)
  // columns the program's blocks use, then the op(A) rows in the order the tiles use them; a window
  // of kWindow rows / columns per DMA and K tile. A tile's operator waits for its own control words,
  // the op(B) loads and the op(A) windows of its rows only (issued before any operator reads them).
  auto load_ctl = [&](const SddmmBlockTile& t) {
    nc.dma_copy(ctl.rows(0, kp).cols(2 * (t.e0 - e_begin), 2 * (t.e1 - t.e0)),
                tile::hbm_view(ctl_words.data() + 2 * (t.e0 - e_begin), DType::i32, kp, 0, {{2 * (t.e1 - t.e0), 1}}));
  };
  if (!tiles.empty()) load_ctl(tiles[0]);
  constexpr std::int64_t kWindow = 128;
  std::vector<char> a_loaded(static_cast<std::size_t>(ceil_div(M, kWindow)), 0), b_loaded(static_cast<std::size_t>(ceil_div(N, kWindow)), 0);
  auto ensure = [&](const Tile& all, const HbmTensor& src, std::int64_t width, std::vector<char>& loaded, std::int64_t x0,
                    std::int64_t len) {
    for (std::int64_t wi = x0 / kWindow; wi <= (x0 + len - 1) / kWindow;) {
      if (loaded[static_cast<std::size_t>(wi)]) {
        ++wi;
        continue;
      }
      std::int64_t n = 0;  // consecutive windows not loaded yet, up to gemm_moving_fmax columns per DMA
      while (wi + n <= (x0 + len - 1) / kWindow && (n + 1) * kWindow <= W && !loaded[static_cast<std::size_t>(wi + n)])
        loaded[static_cast<std::size_t>(wi + n++)] = 1;
      const std::int64_t w0 = wi * kWindow, wl = std::min(n * kWindow, width - w0);
      for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
        const int tk = static_cast<int>(std::min<std::int64_t>(P, g.k - kt * P));
        nc.dma_copy(all.slice(0, kt, 1).reshape({width}).rows(0, tk).cols(w0, wl), src.tile(kt * P, tk, w0, wl));
      }
      wi += n;
    }
  };
  {  // op(B): runs of used windows, up to gemm_moving_fmax columns per DMA
    std::vector<char> used(b_loaded.size(), 0);
    for (std::int64_t e = e_begin; e < e_end; ++e)
      for (std::int64_t wi = c.col[e] * cb / kWindow; wi <= ((c.col[e] + 1) * cb - 1) / kWindow; ++wi) used[static_cast<std::size_t>(wi)] = 1;
    for (std::size_t wi = 0; wi < used.size();) {
      std::size_t n = 0;
      while (wi + n < used.size() && used[wi + n] && static_cast<std::int64_t>(n + 1) * kWindow <= W) ++n;
      if (n == 0) {
        ++wi;
        continue;
      }
      ensure(b_all, g.b, N, b_loaded, static_cast<std::int64_t>(wi) * kWindow,
             std::min(static_cast<std::int64_t>(n) * kWindow, N - static_cast<std::int64_t>(wi) * kWindow));
      wi += n;
    }
  }
  for (std::int64_t e = e_begin; e < e_end; ++e) ensure(a_all, g.a, M, a_loaded, row_of[static_cast<std::size_t>(e - e_begin)] * rb, rb);

  // GpSimdE: tile ti's blocks' op(A) rows and op(B) columns side by side (bit copies), into set ti % 2.
  auto gather_operands = [&](std::size_t ti) {
    const SddmmBlockTile& t = tiles[ti];
    const int buf = static_cast<int>(ti % 2);
    const std::int64_t nb = t.e1 - t.e0;
    const Tile out[] = {st[buf].rows(0, kp), mv[buf].rows(0, kp)};
    // One K tile: the operator reads the op(A) windows of the tile's rows only (rows in order: the
    // first and the last block's), so it need not wait for the later tiles' loads.
    std::int64_t a0 = 0, alen = M;
    if (k_tiles == 1) {
      a0 = row_of[static_cast<std::size_t>(t.e0 - e_begin)] * rb / kWindow * kWindow;
      alen = std::min(M, ((row_of[static_cast<std::size_t>(t.e1 - 1 - e_begin)] + 1) * rb + kWindow - 1) / kWindow * kWindow) - a0;
    }
    const Tile in[] = {k_tiles == 1 ? a_all.rows(0, kp).cols(a0, alen) : a_all.rows(0, kp), b_all.rows(0, kp),
                       ctl.rows(0, kp).cols(2 * (t.e0 - e_begin), 2 * nb)};
    const double cycles =
        hw.gpsimd_start + (kMoveOps * static_cast<double>((rb + cb) * k_tiles) + kBlockOps) * static_cast<double>(nb);
    const std::int64_t es = dtype_size(g.load);
    const std::int64_t k = g.k;
    nc.custom_op("sddmm_block_operands", out, in, cycles, [=](const CustomOpContext& x) {
      for (int p = 0; p < kp; ++p) {
        const auto* w = reinterpret_cast<const std::int32_t*>(x.inputs[2].at(p, 0));
        // The last K tile holds k - kt P rows (ensure's DMAs wrote only those): its other partitions
        // are neither read here nor by the matmuls (rows(0, tk)), so unwritten bytes are never copied.
        for (std::int64_t kt = 0; kt < k_tiles && p < k - kt * P; ++kt) {
          const std::byte* a = x.inputs[0].at(p, kt * M);  // k_tiles > 1: a0 = 0
          const std::byte* b = x.inputs[1].at(p, kt * N);
          std::byte* s = x.outputs[0].at(p, kt * MT);
          std::byte* m = x.outputs[1].at(p, kt * W);
          for (std::int64_t i = 0; i < nb; ++i) {
            std::memcpy(s + i * rb * es, a + (std::int64_t{w[2 * i]} * rb - a0) * es, static_cast<std::size_t>(rb * es));
            std::memcpy(m + i * cb * es, b + std::int64_t{w[2 * i + 1]} * cb * es, static_cast<std::size_t>(cb * es));
          }
        }
      }
    });
  };

  // C's values of tile ti (beta != 0): the tile's blocks are consecutive in C's values, [nb rb rows,
  // cb] from block block[e0].
  auto c_rows = [&](const SddmmBlockTile& t) {
    return tile::hbm_view(reinterpret_cast<float*>(c.values) + c.block[t.e0] * rb * cb, DType::f32,
                          static_cast<std::int32_t>((t.e1 - t.e0) * rb), cb, {{cb, 1}});
  };
  auto load_c = [&](std::size_t ti) {
    if (read_c) nc.dma_copy(cold[ti % 2].rows(0, static_cast<std::int32_t>((tiles[ti].e1 - tiles[ti].e0) * rb)), c_rows(tiles[ti]));
  };
  if (!tiles.empty()) {
    gather_operands(0);
    load_c(0);
  }
  for (std::size_t ti = 0; ti < tiles.size(); ++ti) {
    const SddmmBlockTile& t = tiles[ti];
    const int buf = static_cast<int>(ti % 2);
    const std::int64_t nb = t.e1 - t.e0;
    const int tm = static_cast<int>(nb * rb);
    const std::int64_t nn = nb * cb;
    // The next tile's operands are issued before this tile's diagonal (GpSimdE runs in issue order).
    // Its control words and C rows are issued here too: a DMA queue serves in issue order, so
    // after this tile's store they would wait for this tile's engines.
    if (ti + 1 < tiles.size()) {
      load_ctl(tiles[ti + 1]);
      gather_operands(ti + 1);
      load_c(ti + 1);
    }
    // Every block's rows against every block's columns; block b's own values are output rows
    // b rb .. and columns b cb .. (the other products are computed and never stored).
    tile::Accumulator acc_t = acc.open(nc, tm, nn);
    const int slot = acc.slot();
    for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
      const int tk = static_cast<int>(std::min<std::int64_t>(P, g.k - kt * P));
      acc_t.matmul(st[buf].slice(0, kt, 1).reshape({MT}).rows(0, tk).cols(0, tm),
                   mv[buf].slice(0, kt, 1).reshape({W}).rows(0, tk).cols(0, nn));
    }
    const Tile vs = v[slot].rows(0, tm).cols(0, nn);
    tile::evacuate(nc, vs, acc_t, g.alpha);
    // GpSimdE: partition p keeps its block's cb columns (p / rb) cb .. (bit copies).
    const Tile vk = vc[slot].rows(0, tm);
    {
      const Tile out[] = {vk}, in[] = {vs};
      const double cycles = hw.gpsimd_start + kMoveOps * static_cast<double>(cb) + kBlockOps;
      nc.custom_op("sddmm_block_diagonal", out, in, cycles, [=](const CustomOpContext& x) {
        for (int p = 0; p < tm; ++p)
          std::memcpy(x.outputs[0].at(p, 0), x.inputs[0].at(p, (p / rb) * cb), static_cast<std::size_t>(cb) * 4);
      });
    }
    const Tile dst = c_rows(t);
    const Tile cv = read_c ? cold[buf].rows(0, tm) : Tile{};
    nc.dma_copy(dst, tile::add_beta_c_and_cast(nc, vk, read_c ? &cv : nullptr, g.beta, nullptr));
  }
}

}  // namespace

void sddmm_bsr_kernel(NeuronCore& nc, const SddmmArgs& g, const SpmmPlan& plan) {
  const HardwareSpec& hw = nc.hw();
  const int P = hw.pmax, MT = hw.gemm_stationary_fmax;
  const std::int64_t W = chunk_width(hw);
  const BlockPattern& c = g.c;
  const int group = nc.program_id(1);
  const std::int64_t r_begin = plan.group_start[static_cast<std::size_t>(group)];
  const std::int64_t r_end = plan.group_start[static_cast<std::size_t>(group) + 1];
  if (r_begin >= r_end || c.row_start[r_begin] == c.row_start[r_end]) return;
  const bool multiply = g.multiply && g.k > 0;
  const std::int64_t k_tiles = multiply ? ceil_div(g.k, P) : 0, m_chunks = ceil_div(c.rb, MT);
  const std::int64_t es = dtype_size(g.load), N = c.bcols * c.cb;
  if (sddmm_small_blocks(g, hw)) return sddmm_small_blocks_kernel(nc, g, r_begin, r_end);

  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  // op(A) strips (double-buffered by block row) and, when it fits beside them, all of op(B) [K, N]
  // resident in SBUF, loaded on first use in runs of up to 4 block columns per DMA.
  const bool resident = multiply && 2 * k_tiles * MT * es <= hw.sbuf_partition_bytes / 2;
  const bool b_resident = resident && k_tiles * N * es + 2 * k_tiles * MT * es + 6 * W * 4 + 2 * W * es <=
                                          hw.sbuf_partition_bytes - 16 * kAllocAlignBytes;
  // kWrittenFirst: each matmul reads its strip / tile at [tk, tm] / [tk, nn] after their DMAs, and
  // b_all at the block columns ensure_b loaded.
  Tile a_strip[2], a_buf[2], b_buf[2], b_all;
  if (multiply) {
    if (resident)
      for (Tile& t : a_strip) t = sbuf.alloc(g.load, P, {k_tiles, MT}, "op(A) strip", 0, kWrittenFirst);
    for (int i = 0; i < 2; ++i) {
      if (!resident) a_buf[i] = sbuf.alloc(g.load, P, {MT}, "op(A) tile", 0, kWrittenFirst);
      if (!b_resident) b_buf[i] = sbuf.alloc(g.load, P, {W}, "op(B) tile", 0, kWrittenFirst);
    }
    if (b_resident) b_all = sbuf.alloc(g.load, P, {k_tiles, N}, "op(B) resident", 0, kWrittenFirst);
  }
  std::vector<char> used(static_cast<std::size_t>(b_resident ? c.bcols : 0), 0), loaded(used.size(), 0);
  if (b_resident)
    for (std::int64_t e = c.row_start[r_begin]; e < c.row_start[r_end]; ++e) used[static_cast<std::size_t>(c.col[e])] = 1;
  auto ensure_b = [&](std::int64_t j) {
    if (loaded[static_cast<std::size_t>(j)]) return;
    std::int64_t len = 0;
    while (j + len < c.bcols && len < 4 && used[static_cast<std::size_t>(j + len)] && !loaded[static_cast<std::size_t>(j + len)])
      loaded[static_cast<std::size_t>(j + len++)] = 1;
    for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
      const int tk = static_cast<int>(std::min<std::int64_t>(P, g.k - kt * P));
      nc.dma_copy(b_all.slice(0, kt, 1).reshape({N}).rows(0, tk).cols(j * c.cb, len * c.cb),
                  g.b.tile(kt * P, tk, j * c.cb, len * c.cb));
    }
  };
  tile::PsumRing acc(psum, 2, MT, W, "sddmm acc");  // by output tile
  const Epilogue epi(sbuf, hw, W, g.beta, c.value_type);

  std::int64_t parity = 0, strip_parity = 0;
  for (std::int64_t r = r_begin; r < r_end; ++r) {
    if (c.row_start[r] == c.row_start[r + 1]) continue;
    for (std::int64_t mc = 0; mc < m_chunks; ++mc) {
      const std::int64_t m0 = mc * MT, row0 = r * c.rb + m0;
      const int tm = static_cast<int>(std::min<std::int64_t>(MT, c.rb - m0));
      const Tile& strip = a_strip[strip_parity++ % 2];
      if (resident)
        for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
          const int tk = static_cast<int>(std::min<std::int64_t>(P, g.k - kt * P));
          nc.dma_copy(strip.slice(0, kt, 1).reshape({MT}).rows(0, tk).cols(0, tm), g.a.tile(kt * P, tk, row0, tm));
        }
      for (std::int64_t e = c.row_start[r]; e < c.row_start[r + 1]; ++e) {
        const std::int64_t j = c.col[e];
        const HbmTensor bv = c.block_view(c.block[e]);
        if (b_resident) ensure_b(j);
        for (std::int64_t n0 = 0; n0 < c.cb; n0 += W) {
          const std::int64_t nn = std::min(W, c.cb - n0);
          tile::Accumulator acc_t = acc.open(nc, tm, nn);
          const int slot = acc.slot();
          for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
            const std::int64_t k0 = kt * P;
            const int tk = static_cast<int>(std::min<std::int64_t>(P, g.k - k0));
            const int buf = static_cast<int>(parity++ % 2);
            Tile at;
            if (resident) {
              at = strip.slice(0, kt, 1).reshape({MT}).rows(0, tk).cols(0, tm);
            } else {
              at = a_buf[buf].rows(0, tk).cols(0, tm);
              nc.dma_copy(at, g.a.tile(k0, tk, row0, tm));
            }
            Tile bt;
            if (b_resident) {
              bt = b_all.slice(0, kt, 1).reshape({N}).rows(0, tk).cols(j * c.cb + n0, nn);
            } else {
              bt = b_buf[buf].rows(0, tk).cols(0, nn);
              nc.dma_copy(bt, g.b.tile(k0, tk, j * c.cb + n0, nn));
            }
            acc_t.matmul(at, bt);
          }
          const Tile v = epi.scale(nc, slot, acc_t, g.alpha, tm, nn);
          const Tile dst = bv.tile(m0, tm, n0, nn);
          if (epi.read_c) nc.dma_copy(epi.cold[slot].rows(0, tm).cols(0, nn), dst);
          nc.dma_copy(dst, epi.finish(nc, slot, v, g.beta, tm, nn));
        }
      }
    }
  }
}

void sddmm_csr_kernel(NeuronCore& nc, const SddmmCsrArgs& g, std::int64_t* tiles_visited) {
  const HardwareSpec& hw = nc.hw();
  const int P = hw.pmax, MT = hw.gemm_stationary_fmax;
  const std::int64_t W = chunk_width(hw);
  const CsrPattern& c = g.c;
  const std::int64_t row0 = std::int64_t{nc.program_id(1)} * MT;
  if (row0 >= c.rows) return;
  const int tm = static_cast<int>(std::min<std::int64_t>(MT, c.rows - row0));
  if (c.row_start[row0] == c.row_start[row0 + tm]) return;
  const bool multiply = g.multiply && g.k > 0;
  const std::int64_t k_tiles = multiply ? ceil_div(g.k, P) : 0;
  // Column chunks of this row tile that hold a stored entry.
  const std::int64_t n_chunks = ceil_div(c.cols, W);
  std::vector<bool> live(static_cast<std::size_t>(n_chunks), false);
  for (std::int64_t e = c.row_start[row0]; e < c.row_start[row0 + tm]; ++e) live[static_cast<std::size_t>(c.col[e] / W)] = true;

  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  const bool resident = multiply && k_tiles * MT * dtype_size(g.load) <= hw.sbuf_partition_bytes / 2;
  Tile a_strip, a_buf[2], b_buf[2];
  if (multiply) {  // kWrittenFirst: each matmul reads [tk, tm] / [tk, nn], loaded by the DMAs before it
    if (resident) a_strip = sbuf.alloc(g.load, P, {k_tiles, MT}, "op(A) strip", 0, kWrittenFirst);
    for (int i = 0; i < 2; ++i) {
      if (!resident) a_buf[i] = sbuf.alloc(g.load, P, {MT}, "op(A) tile", 0, kWrittenFirst);
      b_buf[i] = sbuf.alloc(g.load, P, {W}, "op(B) tile", 0, kWrittenFirst);
    }
    if (resident)
      for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
        const int tk = static_cast<int>(std::min<std::int64_t>(P, g.k - kt * P));
        nc.dma_copy(a_strip.slice(0, kt, 1).reshape({MT}).rows(0, tk).cols(0, tm), g.a.tile(kt * P, tk, row0, tm));
      }
  }
  tile::PsumRing acc(psum, 2, MT, W, "sddmm acc");  // by live column chunk
  const Epilogue epi(sbuf, hw, W, g.beta, c.value_type);
  const std::int64_t es = dtype_size(c.value_type);
  // Calls f(partition, first column, first entry, run length) for each run of consecutive stored
  // columns of the row tile inside [c0, c0 + nn).
  auto for_each_run = [&](std::int64_t c0, std::int64_t nn, auto&& f) {
    for (int p = 0; p < tm; ++p) {
      const std::int64_t r = row0 + p;
      const auto first = c.col.begin() + c.row_start[r], last = c.col.begin() + c.row_start[r + 1];
      std::int64_t e = std::lower_bound(first, last, c0) - c.col.begin();
      const std::int64_t e_end = std::lower_bound(first, last, c0 + nn) - c.col.begin();
      while (e < e_end) {
        std::int64_t len = 1;
        while (e + len < e_end && c.col[e + len] == c.col[e] + len) ++len;
        f(p, c.col[e], e, len);
        e += len;
      }
    }
  };
  // The view HbmTensor::wrap(values + e, {1, len}).tile(0, 1, 0, len) was (one partition of len
  // elements), without the tensor's two heap vectors per run (~10 k runs at 1024^2, 0.5 %).
  auto values_run = [&](std::int64_t e, std::int64_t len) {
    return tile::hbm_view(c.values + e * es, c.value_type, 1, len, {{len, 1}});
  };

  std::int64_t parity = 0;
  for (std::int64_t ch = 0; ch < n_chunks; ++ch) {
    if (!live[static_cast<std::size_t>(ch)]) continue;
    if (tiles_visited != nullptr) ++tiles_visited[nc.program_id(1)];  // one slot per program
    const std::int64_t c0 = ch * W, nn = std::min(W, c.cols - c0);
    tile::Accumulator acc_t = acc.open(nc, tm, nn);
    const int slot = acc.slot();
    for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
      const std::int64_t k0 = kt * P;
      const int tk = static_cast<int>(std::min<std::int64_t>(P, g.k - k0));
      const int buf = static_cast<int>(parity++ % 2);
      Tile at;
      if (resident) {
        at = a_strip.slice(0, kt, 1).reshape({MT}).rows(0, tk).cols(0, tm);
      } else {
        at = a_buf[buf].rows(0, tk).cols(0, tm);
        nc.dma_copy(at, g.a.tile(k0, tk, row0, tm));
      }
      const Tile bt = b_buf[buf].rows(0, tk).cols(0, nn);
      nc.dma_copy(bt, g.b.tile(k0, tk, c0, nn));
      acc_t.matmul(at, bt);
    }
    const Tile v = epi.scale(nc, slot, acc_t, g.alpha, tm, nn);
    if (epi.read_c) {
      const Tile cv = epi.cold[slot].rows(0, tm).cols(0, nn);
      nc.memset(cv, 0.0f);  // positions outside the pattern are computed but never stored
      for_each_run(c0, nn, [&](int p, std::int64_t col, std::int64_t e, std::int64_t len) {
        nc.dma_copy(cv.rows(p, 1).cols(col - c0, len), values_run(e, len));
      });
    }
    const Tile o = epi.finish(nc, slot, v, g.beta, tm, nn);
    for_each_run(c0, nn, [&](int p, std::int64_t col, std::int64_t e, std::int64_t len) {
      nc.dma_copy(values_run(e, len), o.rows(p, 1).cols(col - c0, len));
    });
  }
}

}  // namespace trn::sparse::detail
