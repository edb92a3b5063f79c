#include "gemm_kernel.hpp"

#include <algorithm>

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
SbufBytes sbuf_bytes_of(const BlockGemmArgs& g) {
  const std::int64_t term = dtype_size(g.split == 1 ? g.load : DType::bf16);
  const std::int64_t split_scratch = g.split > 1 ? 2 * 4 : 0;  // fp32 tile + residual
  SbufBytes b;
  b.a_streamed = 2 * static_cast<std::int64_t>(g.a_src.size()) * (g.split * term + split_scratch);
  b.b_streamed = 2 * static_cast<std::int64_t>(g.b_src.size()) * (g.split * term + split_scratch);
  b.b_strip = static_cast<std::int64_t>(g.b_src.size()) * g.split * term;
  b.b_split_scratch = 2 * static_cast<std::int64_t>(g.b_src.size()) * split_scratch;
  return b;
}

BlockShape choose_block(const HardwareSpec& hw, std::int64_t m, std::int64_t n, std::int64_t k, const SbufBytes& bytes) {
  const std::int64_t tile_i = hw.psum_bank_bytes / 4, tile_j = hw.gemm_stationary_fmax;
  const auto blocks = [](std::int64_t len, std::int64_t b) { return (len + b - 1) / b; };
  const std::int64_t k_tiles = std::max<std::int64_t>(1, blocks(k, hw.pmax));
  const std::int64_t max_programs = blocks(m, tile_i) * blocks(n, tile_j);
  const bool big = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) >= 0x1p28;
  const std::int64_t min_programs = big ? std::min<std::int64_t>(2, max_programs) : 1;
  BlockShape best;
  std::int64_t best_volume = -1, best_programs = 0;
  for (int resident = 0; resident <= 1; ++resident)
    for (int ti = 1; ti <= hw.psum_banks; ++ti) {
      if ((ti - 1) * tile_i >= m) break;  // no pass would use the extra row tiles
      for (int tj = 1; ti * tj <= hw.psum_banks; ++tj) {
        if ((tj - 1) * tile_j >= n) break;
        // Per-partition SBUF of the plan: operand tiles plus the epilogue's three [128, 512] tiles.
        const std::int64_t pass_i = std::min<std::int64_t>(ti * tile_i, m), strip_j = std::min<std::int64_t>(tj * tile_j, n);
        const std::int64_t need = bytes.a_streamed * pass_i + 3 * tile_i * 4 +
                                  (resident ? k_tiles * strip_j * bytes.b_strip + bytes.b_split_scratch * strip_j
                                            : bytes.b_streamed * strip_j);
        if (need > hw.sbuf_partition_bytes) continue;
        const std::int64_t bi = blocks(m, ti * tile_i), bj = blocks(n, tj * tile_j);
        const std::int64_t programs = resident ? bj : bi * bj;
        if (programs < min_programs) continue;
        const std::int64_t volume = m * bj + n * (resident ? 1 : bi);
        const bool better = best_volume < 0 || volume < best_volume ||
                            (volume == best_volume && (programs > best_programs ||
                                                       (programs == best_programs && ti > best.tiles_i)));
        if (better) {
          best_volume = volume;
          best_programs = programs;
          best = BlockShape{ti, tj, resident != 0};
        }
      }
    }
  return best;
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

// Loads one K tile of a source into SBUF and produces its terms (split on VectorE if asked).
void load_terms(NeuronCore& nc, const BlockGemmArgs& g, const std::vector<HbmTensor>& src, std::int64_t k0, int tk,
                std::int64_t f0, int width, const std::vector<Tile>& raw, const std::vector<Tile>& resid,
                const std::vector<Tile>& terms) {
  for (std::size_t s = 0; s < src.size(); ++s) {
    const Tile h = src[s].tile(k0, tk, f0, width);
    if (g.split == 1) {
      nc.dma_copy(terms[s].rows(0, tk).cols(0, width), h);
      continue;
    }
    // x -> hi = bf16(x), r = x - hi (exact in fp32), mid = bf16(r), lo = bf16(r - mid).
    const Tile x = raw[s].rows(0, tk).cols(0, width);
    const Tile r = resid[s].rows(0, tk).cols(0, width);
    nc.dma_copy(x, h);
    const std::size_t t0 = s * static_cast<std::size_t>(g.split);
    const Tile hi = terms[t0].rows(0, tk).cols(0, width);
    nc.tensor_copy(hi, x, Engine::vector, kRne);
    nc.tensor_tensor(r, x, hi, AluOp::subtract, Engine::vector, kRne);
    const Tile mid = terms[t0 + 1].rows(0, tk).cols(0, width);
    nc.tensor_copy(mid, r, Engine::vector, kRne);
    if (g.split == 3) {
      nc.tensor_tensor(r, r, mid, AluOp::subtract, Engine::vector, kRne);
      nc.tensor_copy(terms[t0 + 2].rows(0, tk).cols(0, width), r, Engine::vector, kRne);
    }
  }
}

}  // namespace

void gemm_block_kernel(NeuronCore& nc, const BlockGemmArgs& g, const BlockShape& b) {
  const HardwareSpec& hw = nc.hw();
  const int TK = hw.pmax, TJ = hw.gemm_stationary_fmax, TI = static_cast<int>(hw.psum_bank_bytes / 4);
  // Streaming: program (j, i) owns one pass. Resident: program j owns all rows, in passes.
  const std::int64_t j_begin = std::int64_t{nc.program_id(0)} * b.tiles_j * TJ;
  const std::int64_t pass_rows = std::int64_t{b.tiles_i} * TI;
  const std::int64_t i_first = b.resident ? 0 : std::int64_t{nc.program_id(1)} * pass_rows;
  const std::int64_t i_last = b.resident ? g.m : std::min(g.m, i_first + pass_rows);
  if (j_begin >= g.n || i_first >= g.m) return;
  const int bn = static_cast<int>(std::min<std::int64_t>(std::int64_t{b.tiles_j} * TJ, g.n - j_begin));
  const int tiles_j = (bn + TJ - 1) / TJ;

  struct OutTile {
    std::int64_t j0, i0;
    int tnj, tni;
    bool live;
  };
  // The output tiles of the pass starting at row i_begin; ti outer.
  auto pass_tiles = [&](std::int64_t i_begin, int bm) {
    std::vector<OutTile> outs;
    for (int ti = 0; ti < (bm + TI - 1) / TI; ++ti)
      for (int tj = 0; tj < tiles_j; ++tj) {
        const std::int64_t j0 = j_begin + std::int64_t{tj} * TJ, i0 = i_begin + std::int64_t{ti} * TI;
        const int tnj = std::min(TJ, static_cast<int>(g.n - j0)), tni = std::min(TI, static_cast<int>(g.m - i0));
        outs.push_back({j0, i0, tnj, tni, tile_intersects(g.triangle, j0, tnj, i0, tni)});
      }
    return outs;
  };
  auto any_live = [](const std::vector<OutTile>& outs) {
    return std::any_of(outs.begin(), outs.end(), [](const OutTile& o) { return o.live; });
  };
  bool program_live = false;
  for (std::int64_t i0 = i_first; i0 < i_last && !program_live; i0 += pass_rows)
    program_live = any_live(pass_tiles(i0, static_cast<int>(std::min(pass_rows, i_last - i0))));
  if (!program_live) return;

  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  std::vector<Tile> acc;
  for (int t = 0; t < b.tiles_i * b.tiles_j; ++t) acc.push_back(psum.alloc(DType::f32, TJ, {TI}, "gemm acc"));

  const bool compute = g.multiply && g.k_end > g.k_begin;
  const int pass_bm = static_cast<int>(std::min(pass_rows, i_last - i_first));
  const int k_tiles = compute ? static_cast<int>((g.k_end - g.k_begin + TK - 1) / TK) : 0;
  const int terms_a = static_cast<int>(g.a_src.size()) * g.split, terms_b = static_cast<int>(g.b_src.size()) * g.split;
  const DType term_dtype = g.split == 1 ? g.load : DType::bf16;
  // Operand tiles are double-buffered by K-tile parity, so that the DMA (and split) of K tile kt+1
  // does not wait for the matmuls still reading K tile kt (a WAR hazard in the cost model's
  // schedule). Values, hence bits, do not depend on the buffer.
  struct Buffers {
    std::vector<Tile> a_raw, a_res, a_terms, b_raw, b_res, b_terms;
  };
  Buffers buf[2];
  std::vector<Tile> b_strip;
  if (compute) {
    for (Buffers& u : buf) {
      if (g.split > 1) {
        for (std::size_t s = 0; s < g.a_src.size(); ++s) {
          u.a_raw.push_back(sbuf.alloc(DType::f32, TK, {pass_bm}, "op(A) fp32 tile"));
          u.a_res.push_back(sbuf.alloc(DType::f32, TK, {pass_bm}, "op(A) residual"));
        }
        for (std::size_t s = 0; s < g.b_src.size(); ++s) {
          u.b_raw.push_back(sbuf.alloc(DType::f32, TK, {bn}, "op(B) fp32 tile"));
          u.b_res.push_back(sbuf.alloc(DType::f32, TK, {bn}, "op(B) residual"));
        }
      }
      for (int t = 0; t < terms_a; ++t) u.a_terms.push_back(sbuf.alloc(term_dtype, TK, {pass_bm}, "op(A) term"));
      if (!b.resident)
        for (int t = 0; t < terms_b; ++t) u.b_terms.push_back(sbuf.alloc(term_dtype, TK, {bn}, "op(B) term"));
    }
    if (b.resident) {
      // The program's op(B) strip, every K tile: [k, k tile, j] per term, loaded once.
      for (int t = 0; t < terms_b; ++t) b_strip.push_back(sbuf.alloc(term_dtype, TK, {k_tiles, bn}, "op(B) strip"));
      for (int kt = 0; kt < k_tiles; ++kt) {
        const std::int64_t k0 = g.k_begin + std::int64_t{kt} * TK;
        const int tk = static_cast<int>(std::min<std::int64_t>(TK, g.k_end - k0));
        std::vector<Tile> slot;
        for (const Tile& s : b_strip) slot.push_back(s.slice(0, kt, 1).reshape({bn}));
        const Buffers& u = buf[kt % 2];
        load_terms(nc, g, g.b_src, k0, tk, j_begin, bn, u.b_raw, u.b_res, slot);
      }
    }
  }
  const Tile out = sbuf.alloc(DType::f32, TJ, {TI}, "epilogue fp32");
  const bool read_c = !g.raw && g.beta != 0.0f;
  const Tile cold = read_c ? sbuf.alloc(DType::f32, TJ, {TI}, "C (beta)") : Tile{};
  const bool cast_out = g.c.dtype() != DType::f32 && !g.raw;
  const Tile out_c = cast_out ? sbuf.alloc(g.c.dtype(), TJ, {TI}, "C out") : out;

  for (std::int64_t i_begin = i_first; i_begin < i_last; i_begin += pass_rows) {
    const int bm = static_cast<int>(std::min(pass_rows, i_last - i_begin));
    const std::vector<OutTile> outs = pass_tiles(i_begin, bm);
    if (!any_live(outs)) continue;
    if (compute) {
      for (int kt = 0; kt < k_tiles; ++kt) {
        const std::int64_t k0 = g.k_begin + std::int64_t{kt} * TK;
        const int tk = static_cast<int>(std::min<std::int64_t>(TK, g.k_end - k0));
        const Buffers& u = buf[kt % 2];
        load_terms(nc, g, g.a_src, k0, tk, i_begin, bm, u.a_raw, u.a_res, u.a_terms);
        std::vector<Tile> b_now = u.b_terms;
        if (b.resident) {
          b_now.clear();
          for (const Tile& s : b_strip) b_now.push_back(s.slice(0, kt, 1).reshape({bn}));
        } else {
          load_terms(nc, g, g.b_src, k0, tk, j_begin, bn, u.b_raw, u.b_res, u.b_terms);
        }
        for (std::size_t t = 0; t < outs.size(); ++t) {
          const OutTile& o = outs[t];
          if (!o.live) continue;
          const int tj = static_cast<int>((o.j0 - j_begin) / TJ), ti = static_cast<int>((o.i0 - i_begin) / TI);
          for (std::size_t p = 0; p < g.pairs.size(); ++p) {
            const auto [pa, pb] = g.pairs[p];
            nc.nc_matmul(acc[t].rows(0, o.tnj).cols(0, o.tni),
                         b_now[static_cast<std::size_t>(pb)].rows(0, tk).cols(tj * TJ, o.tnj),
                         u.a_terms[static_cast<std::size_t>(pa)].rows(0, tk).cols(ti * TI, o.tni),
                         /*accumulate=*/!(kt == 0 && p == 0));
          }
        }
      }
    }
    // Epilogue per output tile of the pass.
    for (std::size_t t = 0; t < outs.size(); ++t) {
      const OutTile& o = outs[t];
      if (!o.live) continue;
      const Tile a = acc[t].rows(0, o.tnj).cols(0, o.tni);
      const Tile v = out.rows(0, o.tnj).cols(0, o.tni);
      if (!compute)
        nc.memset(v, 0.0f);
      else if (g.raw || g.alpha == 1.0f)
        nc.tensor_copy(v, a);
      else
        nc.tensor_scalar(v, a, AluOp::multiply, g.alpha);
      if (read_c) {
        const Tile cv = cold.rows(0, o.tnj).cols(0, o.tni);
        move_tile(nc, cold, g.c, o.j0, o.i0, o.tnj, o.tni, g.triangle, /*to_hbm=*/false);
        nc.tensor_scalar(cv, cv, AluOp::multiply, g.beta);
        nc.tensor_tensor(v, v, cv, AluOp::add);
      }
      if (cast_out) nc.tensor_copy(out_c.rows(0, o.tnj).cols(0, o.tni), v);
      move_tile(nc, out_c, g.c, o.j0, o.i0, o.tnj, o.tni, g.triangle, /*to_hbm=*/true);
    }
  }
}

LaunchResult launch_gemm(const LaunchConfig& base, const std::vector<BlockGemmArgs>& problems) {
  const HardwareSpec& hw = hardware_spec(base.core.generation);
  std::int64_t m = 1, n = 1, k = 0;
  SbufBytes bytes;
  for (const auto& p : problems) {
    m = std::max(m, p.m);
    n = std::max(n, p.n);
    k = std::max(k, p.k_end - p.k_begin);
    const SbufBytes q = sbuf_bytes_of(p);
    bytes.a_streamed = std::max(bytes.a_streamed, q.a_streamed);
    bytes.b_streamed = std::max(bytes.b_streamed, q.b_streamed);
    bytes.b_strip = std::max(bytes.b_strip, q.b_strip);
    bytes.b_split_scratch = std::max(bytes.b_split_scratch, q.b_split_scratch);
  }
  const BlockShape b = choose_block(hw, m, n, k, bytes);
  const std::int64_t bj = std::int64_t{b.tiles_j} * hw.gemm_stationary_fmax, bi = std::int64_t{b.tiles_i} * (hw.psum_bank_bytes / 4);
  LaunchConfig lc = base;
  lc.grid = {static_cast<int>((n + bj - 1) / bj), b.resident ? 1 : static_cast<int>((m + bi - 1) / bi),
             static_cast<int>(problems.size())};
  return launch(lc, [&](NeuronCore& nc) { gemm_block_kernel(nc, problems[static_cast<std::size_t>(nc.program_id(2))], b); });
}

}  // namespace trn::blas::detail
