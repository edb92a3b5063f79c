// trn::tile GEMM collective, the steps both kernels share (gemm_internal.hpp; contract in
// trn/tile/gemm.hpp).
#include <algorithm>
#include <array>
#include <span>

#include "gemm_internal.hpp"
#include "trn/tile/view.hpp"

namespace trn::tile::gemm_detail {

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

// double_row packing of one K tile of tk <= 256 rows into a [128, 2, width] term tile: rows
// k0 + 2p + r to (p, r); an odd last row goes to (p, 0) with (p, 1) zeroed (adds +-0: no change).
void pack_double_row(NeuronCore& nc, const Tile& h, const Tile& term, int tk, int width) {
  const int pairs = tk / 2;
  if (tk % 2 != 0) nc.memset(term.rows(0, pairs + 1).cols(0, width), 0.0f);  // engines start at partition 0
  if (pairs > 0) nc.dma_copy(term.rows(0, pairs).cols(0, width), partition_pairs(h.rows(0, 2 * pairs)));
  if (tk % 2 != 0) nc.dma_copy(term.rows(pairs, 1).cols(0, width).slice(0, 0, 1), h.rows(tk - 1, 1));
}

}  // namespace

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
    split_terms(nc, SplitOperand{x, resid[s].rows(0, tk).cols(0, width), std::span(t).first(static_cast<std::size_t>(g.split))},
                TermSplit{Engine::scalar, Engine::vector, kRne, false});
  }
}

void micro_kernel(ProgramState& st, const OutTile& o, Accumulator& acc, const std::vector<Tile>& b_terms,
                  const std::vector<Tile>& a_terms, std::int64_t j_origin, std::int64_t i_origin, int tk) {
  const int tj = static_cast<int>((o.j0 - j_origin) / st.TJ), ti = static_cast<int>((o.i0 - i_origin) / st.TI);
  const int parts = st.partitions_of(tk);
  const MatmulPerfMode mode = st.double_row ? MatmulPerfMode::double_row : MatmulPerfMode::none;
  for (const auto& [pa, pb] : st.g.pairs)
    acc.matmul(b_terms[static_cast<std::size_t>(pb)].rows(0, parts).cols(tj * st.TJ, o.tnj),
               a_terms[static_cast<std::size_t>(pa)].rows(0, parts).cols(ti * st.TI, o.tni), mode);
}

void add_beta_c_and_cast(ProgramState& st, const OutTile& o, const Tile& v, const ProgramState::EpilogueSlot& slot) {
  const Tile cv = st.read_c ? slot.cold.rows(0, o.tnj).cols(0, o.tni) : Tile{};
  const Tile oc = st.cast_out ? slot.out_c.rows(0, o.tnj).cols(0, o.tni) : Tile{};
  if (st.read_c) move_tile(st.nc, slot.cold, st.g.c, o.j0, o.i0, o.tnj, o.tni, st.g.triangle, /*to_hbm=*/false);
  tile::add_beta_c_and_cast(st.nc, v, st.read_c ? &cv : nullptr, st.g.beta, st.cast_out ? &oc : nullptr);
}

}  // namespace trn::tile::gemm_detail
