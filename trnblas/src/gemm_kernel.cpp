#include "gemm_kernel.hpp"

#include <algorithm>

namespace trn::blas::detail {

// Block shape = how many PSUM tiles (128 columns j x 512 rows i) one program owns, at most one
// per PSUM bank. Every program streams its op(A) rows (bm per K tile) and op(B) columns (bn per K
// tile) through the DMA, so the total load volume is m * blocks_j + n * blocks_i: choose the shape
// that minimises it (on ties, larger i blocks: op(A) is the contiguous moving operand, op(B) the
// transposed stationary one). The shape depends on (m, n) only, never on host threads or emulated
// cores: under stochastic rounding the random bits are a function of (program, instruction,
// element), so the decomposition must be fixed for bits to be independent of both. Small problems
// (512 x 512 and below) are one program, which leaves a second host thread idle; splitting them
// would model them 40% slower on one NeuronCore (per-program latency serialised). Bits never
// depend on the block shape otherwise: the K order of every output element is fixed.
BlockShape choose_block(const HardwareSpec& hw, std::int64_t m, std::int64_t n) {
  const std::int64_t tile_i = hw.psum_bank_bytes / 4, tile_j = hw.gemm_stationary_fmax;
  const auto blocks = [](std::int64_t len, std::int64_t b) { return (len + b - 1) / b; };
  BlockShape best;
  std::int64_t best_volume = -1;
  for (int ti = 1; ti <= hw.psum_banks; ++ti) {
    if ((ti - 1) * tile_i >= m) break;  // no program would own the extra row tiles
    for (int tj = 1; ti * tj <= hw.psum_banks; ++tj) {
      if ((tj - 1) * tile_j >= n) break;
      const std::int64_t bi = blocks(m, ti * tile_i), bj = blocks(n, tj * tile_j);
      const std::int64_t volume = m * bj + n * bi;
      if (best_volume < 0 || volume < best_volume || (volume == best_volume && ti > best.tiles_i)) {
        best_volume = volume;
        best.tiles_i = ti;
        best.tiles_j = tj;
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
  const std::int64_t j_begin = std::int64_t{nc.program_id(0)} * b.tiles_j * TJ;
  const std::int64_t i_begin = std::int64_t{nc.program_id(1)} * b.tiles_i * TI;
  if (j_begin >= g.n || i_begin >= g.m) return;
  const int bn = static_cast<int>(std::min<std::int64_t>(std::int64_t{b.tiles_j} * TJ, g.n - j_begin));
  const int bm = static_cast<int>(std::min<std::int64_t>(std::int64_t{b.tiles_i} * TI, g.m - i_begin));
  const int tiles_j = (bn + TJ - 1) / TJ, tiles_i = (bm + TI - 1) / TI;

  struct OutTile {
    std::int64_t j0, i0;
    int tnj, tni;
    bool live;
  };
  // ti outer: consecutive matmuls share the (wide) moving op(A) tile.
  std::vector<OutTile> outs;
  for (int ti = 0; ti < tiles_i; ++ti)
    for (int tj = 0; tj < tiles_j; ++tj) {
      const std::int64_t j0 = j_begin + std::int64_t{tj} * TJ, i0 = i_begin + std::int64_t{ti} * TI;
      const int tnj = std::min(TJ, static_cast<int>(g.n - j0)), tni = std::min(TI, static_cast<int>(g.m - i0));
      outs.push_back({j0, i0, tnj, tni, tile_intersects(g.triangle, j0, tnj, i0, tni)});
    }
  if (std::none_of(outs.begin(), outs.end(), [](const OutTile& o) { return o.live; })) return;

  AllocScope sbuf(nc.sbuf()), psum(nc.psum());
  std::vector<Tile> acc;
  for (std::size_t t = 0; t < outs.size(); ++t) acc.push_back(psum.alloc(DType::f32, TJ, {TI}, "gemm acc"));

  const bool compute = g.multiply && g.k_end > g.k_begin;
  if (compute) {
    const int terms_a = static_cast<int>(g.a_src.size()) * g.split, terms_b = static_cast<int>(g.b_src.size()) * g.split;
    const DType term_dtype = g.split == 1 ? g.load : DType::bf16;
    std::vector<Tile> a_raw, a_res, a_terms, b_raw, b_res, b_terms;
    if (g.split > 1) {
      for (std::size_t s = 0; s < g.a_src.size(); ++s) {
        a_raw.push_back(sbuf.alloc(DType::f32, TK, {bm}, "op(A) fp32 tile"));
        a_res.push_back(sbuf.alloc(DType::f32, TK, {bm}, "op(A) residual"));
      }
      for (std::size_t s = 0; s < g.b_src.size(); ++s) {
        b_raw.push_back(sbuf.alloc(DType::f32, TK, {bn}, "op(B) fp32 tile"));
        b_res.push_back(sbuf.alloc(DType::f32, TK, {bn}, "op(B) residual"));
      }
    }
    for (int t = 0; t < terms_a; ++t) a_terms.push_back(sbuf.alloc(term_dtype, TK, {bm}, "op(A) term"));
    for (int t = 0; t < terms_b; ++t) b_terms.push_back(sbuf.alloc(term_dtype, TK, {bn}, "op(B) term"));

    bool first = true;
    for (std::int64_t k0 = g.k_begin; k0 < g.k_end; k0 += TK) {
      const int tk = static_cast<int>(std::min<std::int64_t>(TK, g.k_end - k0));
      load_terms(nc, g, g.a_src, k0, tk, i_begin, bm, a_raw, a_res, a_terms);
      load_terms(nc, g, g.b_src, k0, tk, j_begin, bn, b_raw, b_res, b_terms);
      for (std::size_t t = 0; t < outs.size(); ++t) {
        const OutTile& o = outs[t];
        if (!o.live) continue;
        const int tj = static_cast<int>((o.j0 - j_begin) / TJ), ti = static_cast<int>((o.i0 - i_begin) / TI);
        for (std::size_t p = 0; p < g.pairs.size(); ++p) {
          const auto [pa, pb] = g.pairs[p];
          nc.nc_matmul(acc[t].rows(0, o.tnj).cols(0, o.tni),
                       b_terms[static_cast<std::size_t>(pb)].rows(0, tk).cols(tj * TJ, o.tnj),
                       a_terms[static_cast<std::size_t>(pa)].rows(0, tk).cols(ti * TI, o.tni),
                       /*accumulate=*/!(first && p == 0));
        }
      }
      first = false;
    }
  }

  // Epilogue per output tile.
  const Tile out = sbuf.alloc(DType::f32, TJ, {TI}, "epilogue fp32");
  const Tile cold = sbuf.alloc(DType::f32, TJ, {TI}, "C (beta)");
  const bool cast_out = g.c.dtype() != DType::f32 && !g.raw;
  const Tile out_c = cast_out ? sbuf.alloc(g.c.dtype(), TJ, {TI}, "C out") : out;
  const bool read_c = !g.raw && g.beta != 0.0f;
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

LaunchResult launch_gemm(const LaunchConfig& base, const std::vector<BlockGemmArgs>& problems) {
  const HardwareSpec& hw = hardware_spec(base.core.generation);
  std::int64_t m = 1, n = 1;
  for (const auto& p : problems) {
    m = std::max(m, p.m);
    n = std::max(n, p.n);
  }
  const BlockShape b = choose_block(hw, m, n);
  const std::int64_t bj = std::int64_t{b.tiles_j} * hw.gemm_stationary_fmax, bi = std::int64_t{b.tiles_i} * (hw.psum_bank_bytes / 4);
  LaunchConfig lc = base;
  lc.grid = {static_cast<int>((n + bj - 1) / bj), static_cast<int>((m + bi - 1) / bi), static_cast<int>(problems.size())};
  return launch(lc, [&](NeuronCore& nc) { gemm_block_kernel(nc, problems[static_cast<std::size_t>(nc.program_id(2))], b); });
}

}  // namespace trn::blas::detail
