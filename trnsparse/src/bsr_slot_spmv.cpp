// fp32 BSR SpMV on small blocks as slot rows on VectorE (issue #30, s23/bsr32; bsr_kernels.hpp
// "Small-block SpMV").
//
// Why: the tile SpMM kernel (bsr_kernels.cpp spmm_kernel) issues one nc_matmul per stored block and
// a few DMAs per block row. For 4 x 4 blocks (and the 8 x 8 blocks of a C_32F matrix's real
// embedding) each of those instructions moves or multiplies a few dozen values, so the host time
// was the emulator's per-instruction cost (dispatch, trace record, schedule) of ~7 000 tiny
// instructions (bsrmv R_32F 2048^2 at 1 %: emu 200-260), and the modeled time was their fixed costs
// (roofline 270 / 713). Here the whole product is a few dozen instructions over all block rows.
//
// Layout. Block row I of op(A) (rb x cb blocks, t_I stored) is row j = I mod T of partition
// p = I / T, T = ceil(brows / pmax); its stored blocks are slots 0 .. t_I - 1 of S = max t_I, the
// other slots pads. Chunks of Tc rows per partition (the SBUF budget) are the unit of work:
//   values [p][r][s][jj][c] = element (r, c) of slot s's block (pads -0), host-packed per chunk;
//   index  [p][s][jj]       = the slot's block column of op(A) (pads: Kb, a row of zeros past x).
// x is copied by one DMA into a scratch table of Kb + 1 rows of cb values whose last row is +0.
// Per chunk: DMA the index words; dma_gather the x rows [p][s][jj][c]; DMA the values; one VectorE
// multiply values *= x broadcast over r (dense runs of S Tc cb values); the pairwise sum over slots
// (ceil(log2 S) levels of the halves [0, h) += [m - h, m), one add per r); one SBUF -> SBUF DMA of slot 0's
// sums to [c][r][jj]; then the pairwise sum over c (ceil(log2 cb) adds of dense halves); the epilogue alpha p (+ beta y)
// on VectorE and one DMA store (two when the last partition holds fewer block rows).
// A pad multiplies -0 by +0: its product is -0, which adds exactly (x + -0 = x for every x, also
// -0 and NaN), so pads change no bit and a non-finite x value reaches only the rows whose blocks
// meet it, as in the per-block kernel.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "bsr_kernels.hpp"
#include "trn/tile/matmul.hpp"
#include "trn/tile/view.hpp"

namespace trn::sparse::detail {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
std::int64_t ceil_log2(std::int64_t m) {
  std::int64_t d = 0;
  while ((std::int64_t{1} << d) < m) ++d;
  return d;
}

// SBUF bytes per partition of one chunk of `rows` block rows: values / products, gathered x, index
// words, the slot sums by column, the epilogue's two tiles.
std::int64_t chunk_bytes(std::int64_t S, std::int64_t rb, std::int64_t cb, std::int64_t rows) {
  return 4 * rows * (S * rb * cb + S * cb + S + rb * cb + 2 * rb);
}

}  // namespace

bool slot_spmv_applies(const HardwareSpec& hw, const SpmmArgs& g) {
  const BlockPattern& a = g.a;
  if (g.n != 1 || !g.multiply || a.value_type != DType::f32 || g.load != DType::f32 || g.b.dtype() != DType::f32 ||
      g.c.dtype() != DType::f32 || a.rb * a.cb > kSlotSpmvBlockElements)
    return false;
  // the logical size is the block grid's (BSR input; CSR as 128-blocks never gets here: 128^2 values)
  if (g.m_rows != a.brows * a.rb || g.k_rows != a.bcols * a.cb || a.brows == 0) return false;
  std::int64_t S = 0;
  for (std::int64_t r = 0; r < a.brows; ++r) S = std::max(S, a.row_start[r + 1] - a.row_start[r]);
  const std::int64_t T = ceil_div(a.brows, hw.pmax);
  const std::int64_t slots = ceil_div(a.brows, T) * T * S;
  return S > 0 && slots <= kSlotSpmvPadFactor * std::max<std::int64_t>(a.row_start.back(), 1) &&
         2 * chunk_bytes(S, a.rb, a.cb, 1) <= kSlotSpmvChunkBytes;
}

SlotSpmvPlan plan_slot_spmv(const HardwareSpec& hw, const SpmmArgs& g, int num_cores) {
  const BlockPattern& a = g.a;
  SlotSpmvPlan p;
  p.rb = a.rb;
  p.cb = a.cb;
  p.brows = a.brows;
  for (std::int64_t r = 0; r < a.brows; ++r) p.slots = std::max(p.slots, a.row_start[r + 1] - a.row_start[r]);
  p.per_partition = ceil_div(a.brows, hw.pmax);
  p.partitions = ceil_div(a.brows, p.per_partition);
  p.chunk = std::max<std::int64_t>(1, std::min(p.per_partition, kSlotSpmvChunkBytes / 2 / chunk_bytes(p.slots, a.rb, a.cb, 1)));
  p.chunks = ceil_div(p.per_partition, p.chunk);
  p.programs = static_cast<int>(std::min<std::int64_t>(p.chunks, std::max(1, num_cores)));
  return p;
}

std::string SlotSpmvPlan::print(std::int64_t m, std::int64_t k, const LaunchResult& r) const {
  PlanFacts f;
  f.routine = "spmv";
  f.shape = std::to_string(m) + "x" + std::to_string(k);
  f.variant = "BSR small blocks (" + std::to_string(rb) + "x" + std::to_string(cb) + ") as slot rows on VectorE: " +
              std::to_string(per_partition) + " block rows per partition in " + std::to_string(chunks) + " chunk(s), " +
              std::to_string(slots) + " slots a block row (pads -0), x gathered by indirect DMA, one multiply, pairwise sums over " +
              "slots then block columns (" + std::to_string(ceil_log2(slots) + ceil_log2(cb)) + " adds), grid " +
              std::to_string(programs) + " program(s)";
  f.ops = std::to_string(r.trace.per_engine[static_cast<int>(Engine::vector)]) + " VectorE, " +
          std::to_string(r.trace.per_engine[static_cast<int>(Engine::dma)]) + " DMA instructions";
  f.sbuf_bytes = r.sbuf_peak_bytes;
  f.psum_bytes = r.psum_peak_bytes;
  f.engines = "DMA (indirect gather), VectorE";
  f.predicted_ns = predicted_ns;
  f.why = "n = 1, fp32, blocks of <= " + std::to_string(kSlotSpmvBlockElements) +
          " values and padded slots <= " + std::to_string(kSlotSpmvPadFactor) +
          " x the stored blocks: one nc_matmul per block would be tiny";
  return f.print();
}

namespace {
// A pad's values, read as a stored block's are (any (r, c) of a block of <= kSlotSpmvBlockElements
// values): -0, which adds exactly to any sum, and +0 for slot 0, an empty block row's only term (the
// empty sum, as BLAS).
struct PadBlocks {
  float minus[kSlotSpmvBlockElements], plus[kSlotSpmvBlockElements];
};
const PadBlocks& pad_blocks() {
  static const PadBlocks pads = [] {
    PadBlocks b;
    std::fill_n(b.minus, kSlotSpmvBlockElements, -0.0f);
    std::fill_n(b.plus, kSlotSpmvBlockElements, 0.0f);
    return b;
  }();
  return pads;
}
// One partition's chunk of values, [r][q][c] for rows[q] (slot-row q's block, stored or a pad):
// row-major blocks' rows of kCb values as fixed-size moves (kCb 0: cb at run time), column-major
// blocks element by element. Every q is a copy, without a test per row (session 25: the packing was
// ~28 % of bsrmv R_32F's host time, most of it the per-row pad test and a fill loop of cb values).
template <std::int64_t kCb>
float* pack_partition(float* v, const float* const* rows, std::int64_t nq, std::int64_t rb, std::int64_t cb, bool row_major) {
  const std::int64_t n = kCb > 0 ? kCb : cb;
  if (row_major) {
    for (std::int64_t r = 0; r < rb; ++r)
      for (std::int64_t q = 0; q < nq; ++q, v += n) std::memcpy(v, rows[q] + r * n, static_cast<std::size_t>(n) * 4);
    return v;
  }
  for (std::int64_t r = 0; r < rb; ++r)
    for (std::int64_t q = 0; q < nq; ++q, v += n)
      for (std::int64_t c = 0; c < n; ++c) v[c] = rows[q][r + c * rb];
  return v;
}
}  // namespace

SlotSpmvOperands::SlotSpmvOperands(const SpmmArgs& g, const SlotSpmvPlan& p) {
  const BlockPattern& a = g.a;
  const std::int64_t S = p.slots, rb = p.rb, cb = p.cb, T = p.per_partition, Pu = p.partitions, Tc = p.chunk;
  const std::int64_t bs = rb * cb;
  // The pads are read as blocks of bs values (pad_blocks): slot_spmv_applies admits no larger block.
  if (bs > kSlotSpmvBlockElements) throw Error("trnsparse slot SpMV: a block larger than the pads");
  table_rows = a.bcols + 1;
  // Every element of values and index is written below, and the tables' first Kb rows by the
  // kernel's DMA of x: only the tables' last rows (the pads' +0) are set here.
  values = ScratchBuffer<float>(Pu * T * S * bs);
  index = ScratchBuffer<std::int32_t>(Pu * T * S);
  x = ScratchBuffer<float>(p.programs * table_rows * cb);
  for (int prog = 0; prog < p.programs; ++prog) std::fill_n(x.data() + (prog * table_rows + a.bcols) * cb, cb, 0.0f);
  // Written in storage order (chunk, partition, r, slot, row, c): the reads of a partition's few
  // blocks stay in cache, the writes stream.
  const auto* src = reinterpret_cast<const float*>(a.values);
  const PadBlocks& pads = pad_blocks();
  float* v = values.data();
  std::int32_t* ix = index.data();
  std::vector<const float*> block_of(static_cast<std::size_t>(S * Tc));  // [slot][row]: the slot's block or a pad
  for (std::int64_t j0 = 0; j0 < T; j0 += Tc) {
    const std::int64_t len = std::min(Tc, T - j0);
    for (std::int64_t part = 0; part < Pu; ++part) {
      const std::int64_t I0 = part * T + j0;  // the chunk's first block row in this partition
      for (std::int64_t s = 0; s < S; ++s)
        for (std::int64_t jj = 0; jj < len; ++jj) {
          const std::int64_t I = I0 + jj, e = I < a.brows ? a.row_start[I] + s : 0;
          const bool stored = I < a.brows && e < a.row_start[I + 1];
          block_of[static_cast<std::size_t>(s * len + jj)] = stored ? src + a.block[e] * bs : s == 0 ? pads.plus : pads.minus;
          *ix++ = static_cast<std::int32_t>(stored ? a.col[e] : a.bcols);
        }
      const float* const* rows = block_of.data();
      switch (cb) {
        case 1: v = pack_partition<1>(v, rows, S * len, rb, cb, a.row_major); break;
        case 2: v = pack_partition<2>(v, rows, S * len, rb, cb, a.row_major); break;
        case 4: v = pack_partition<4>(v, rows, S * len, rb, cb, a.row_major); break;
        case 8: v = pack_partition<8>(v, rows, S * len, rb, cb, a.row_major); break;
        default: v = pack_partition<0>(v, rows, S * len, rb, cb, a.row_major); break;
      }
    }
  }
}

void slot_spmv_kernel(NeuronCore& nc, const SpmmArgs& g, const SlotSpmvPlan& p, const SlotSpmvOperands& o) {
  const std::int64_t S = p.slots, rb = p.rb, cb = p.cb, T = p.per_partition, Tc = p.chunk, bs = rb * cb;
  const auto Pu = static_cast<std::int32_t>(p.partitions);
  const int program = nc.program_id(0);
  const std::int64_t q_begin = p.chunks * program / p.programs, q_end = p.chunks * (program + 1) / p.programs;
  if (q_begin >= q_end) return;
  const std::int64_t xs = g.b.strides()[0], ys = g.c.strides()[0];
  // the last partition's block rows (the others hold T each)
  const std::int64_t last_rows = p.brows - (p.partitions - 1) * T;
  float* const table_data = o.x.data() + program * o.table_rows * cb;
  const Tile table = tile::hbm_view(table_data, DType::f32, static_cast<std::int32_t>(o.table_rows), cb, {{cb, 1}});

  AllocScope sbuf(nc.sbuf());
  // Every buffer is written (DMA, gather, the epilogue) before it is read: no poison fill.
  constexpr AllocFill kWrittenFirst = AllocFill::none;
  Tile vals[2], xg[2], idx[2], sums[2], out[2], cold[2];
  for (int i = 0; i < 2 && i < q_end - q_begin; ++i) {
    vals[i] = sbuf.alloc(DType::f32, Pu, {S * bs * Tc}, "slot values", 0, kWrittenFirst);
    xg[i] = sbuf.alloc(DType::f32, Pu, {S * cb * Tc}, "gathered x", 0, kWrittenFirst);
    idx[i] = sbuf.alloc(DType::i32, Pu, {S * Tc}, "slot columns", 0, kWrittenFirst);
    sums[i] = sbuf.alloc(DType::f32, Pu, {cb * rb * Tc}, "slot sums by column", 0, kWrittenFirst);
    out[i] = sbuf.alloc(DType::f32, Pu, {rb * Tc}, "alpha p", 0, kWrittenFirst);
    if (g.beta != 0.0f) cold[i] = sbuf.alloc(DType::f32, Pu, {rb * Tc}, "y (beta)", 0, kWrittenFirst);
  }
  // x into the program's table, its first Kb rows (the last row stays +0)
  const std::int64_t K = g.k_rows;
  nc.dma_copy(tile::hbm_view(table_data, DType::f32, 1, K, {{K, 1}}), tile::hbm_view(g.b.data(), DType::f32, 1, K * xs, {{K, xs}}));
  // y rows of partitions [p0, p0 + parts), chunk rows [j0, j0 + rows): `rows` rb-runs per partition.
  const auto y_view = [&](std::int64_t p0, std::int32_t parts, std::int64_t j0, std::int64_t rows) {
    return tile::hbm_view(g.c.data() + ((p0 * T + j0) * rb * ys) * 4, DType::f32, parts, T * rb * ys, {{rows * rb, ys}});
  };
  // The chunk's DMAs between SBUF `on_chip` ([Pu, len * rb]) and y: every partition holding all its
  // rows, then the last one's valid rows.
  const auto y_transfer = [&](const Tile& on_chip, std::int64_t j0, std::int64_t len, bool store) {
    const std::int32_t full = last_rows >= j0 + len ? Pu : Pu - 1;
    const std::int64_t tail = std::clamp<std::int64_t>(last_rows - j0, 0, len);
    const auto move = [&](const Tile& hbm, const Tile& sb) { store ? nc.dma_copy(hbm, sb) : nc.dma_copy(sb, hbm); };
    if (full > 0) move(y_view(0, full, j0, len), on_chip.rows(0, full));
    if (full < Pu && tail > 0) {  // its first `tail` rows: of a flat tile, or of a [len, rb] view
      const Tile last = on_chip.rows(Pu - 1, 1);
      move(y_view(Pu - 1, 1, j0, tail), last.ndim == 1 ? last.cols(0, tail * rb) : last.slice(0, 0, tail));
    }
  };

  for (std::int64_t q = q_begin; q < q_end; ++q) {
    const int buf = static_cast<int>((q - q_begin) % 2);
    const std::int64_t j0 = q * Tc, len = std::min(Tc, T - j0), R = rb * len * cb;
    const Tile v = vals[buf].cols(0, S * R), x = xg[buf].cols(0, S * len * cb), ix = idx[buf].cols(0, S * len);
    nc.dma_copy(ix, tile::hbm_view(o.index.data() + p.partitions * S * j0, DType::i32, Pu, S * len, {{S * len, 1}}));
    nc.dma_gather(x, table, ix);
    nc.dma_copy(v, tile::hbm_view(o.values.data() + p.partitions * S * bs * j0, DType::f32, Pu, S * R, {{S * R, 1}}));
    // products: values[r][s][jj][c] *= x[s][jj][c] (x read once per r: a stride-0 dimension)
    const std::int64_t row_step = S * len * cb, L = len * cb;
    const Tile prod = tile::view(v, 0, {{rb, row_step}, {row_step, 1}});
    nc.tensor_tensor(prod, prod, tile::view(x, 0, {{rb, 0}, {row_step, 1}}), AluOp::multiply);
    for (std::int64_t m = S; m > 1;) {  // pairwise over slots: [0, h) += [m - h, m), one add per r
      const std::int64_t h = m / 2;  // (dense halves: one [rb, h L] view per level would go through
      for (std::int64_t r = 0; r < rb; ++r) {  // core's strided row copies, ~3x the host time)
        const Tile lo = v.cols(r * row_step, h * L);
        nc.tensor_tensor(lo, lo, v.cols(r * row_step + (m - h) * L, h * L), AluOp::add);
      }
      m -= h;
    }
    // slot 0's sums [r][jj][c] to w[c][r][jj] (one SBUF -> SBUF DMA), so that the sum over the
    // block's columns, the same pairwise way, adds dense halves
    const Tile w = sums[buf].cols(0, cb * rb * len);
    nc.dma_copy(w, tile::view(v, 0, {{cb, 1}, {rb, row_step}, {len, cb}}));
    for (std::int64_t m = cb; m > 1;) {
      const std::int64_t h = m / 2, n = rb * len;
      nc.tensor_tensor(w.cols(0, h * n), w.cols(0, h * n), w.cols((m - h) * n, h * n), AluOp::add);
      m -= h;
    }
    // p[jj][r] (element c = 0 of each (r, jj)); the epilogue fl(fl(alpha p) + fl(beta y)), alpha 1 skipped
    const Tile p_view = tile::view(w, 0, {{len, 1}, {rb, len}});  // p[jj][r] = w[0][r][jj]
    Tile y = p_view;
    if (g.alpha != 1.0f) {  // with beta = 0, fl(alpha p) + 0: an empty row's alpha (+0) is +0 for any
      y = out[buf].cols(0, len * rb);  // alpha, as BLAS's y := 0; y += alpha a x (exact otherwise)
      if (g.beta == 0.0f) nc.tensor_scalar(y, p_view, AluOp::multiply, g.alpha, AluOp::add, 0.0f);
      else nc.tensor_scalar(y, p_view, AluOp::multiply, g.alpha);
    }
    if (g.beta != 0.0f) {
      const Tile c = cold[buf].cols(0, len * rb);
      y_transfer(c, j0, len, false);
      y = tile::add_beta_c_and_cast(nc, y, &c, g.beta, nullptr);
    }
    y_transfer(y, j0, len, true);
  }
}

}  // namespace trn::sparse::detail
