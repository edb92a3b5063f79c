// trn::tile GEMM collective, the K-blocked plan (contract in trn/tile/gemm.hpp; BlockShape::k_blocked).
//
// K-blocked program [jc, ic]: one output block of block_i x block_j tiles, accumulated in fp32 SBUF.
// Loops: K chunks [kc] of kKChunkTiles K tiles (op(A) chunk for the block's rows packed once per
// chunk, the next chunk's loaded ahead); bank groups of tiles_j column tiles (op(B) slice packed per
// group, the next group's loaded ahead); row tiles [ir] x column tiles [jr] of the group; the chunk's
// K tiles [pc] as one PSUM accumulation group per output tile (micro-kernel); then VectorE moves the
// bank into the block (first chunk) or adds it (later chunks, fp32 RNE), and in the last chunk runs
// the epilogue in place. Column tiles of the block are stored whole (rows of bm fp32) unless the
// result is cast, which stores tile by tile from epilogue slots. The banks rotate over the output
// tiles (tile::PsumRing), so an evacuation has the next tiles' matmuls to finish in.
#include <algorithm>
#include <utility>

#include "gemm_internal.hpp"

namespace trn::tile::gemm_detail {

namespace {

class KBlockedProgram {
 public:
  KBlockedProgram(NeuronCore& nc, const BlockGemmArgs& g, const BlockShape& b, std::int64_t i0, std::int64_t j0)
      : st_(nc, g, b), nc_(nc), g_(g), i0_(i0), j0_(j0),
        bm_(static_cast<int>(std::min<std::int64_t>(std::int64_t{b.block_i} * st_.TI, g.m - i0))),
        bn_(static_cast<int>(std::min<std::int64_t>(std::int64_t{b.block_j} * st_.TJ, g.n - j0))),
        tiles_i_((bm_ + st_.TI - 1) / st_.TI), tiles_j_((bn_ + st_.TJ - 1) / st_.TJ),
        group_(std::min(b.tiles_j, tiles_j_)), groups_((tiles_j_ + group_ - 1) / group_),
        sbuf_(nc.sbuf()), psum_(nc.psum()) {
    st_.j_begin = j0;
    st_.bn = bn_;
    st_.tiles_j = tiles_j_;
    st_.set_work();
    kc_ = std::min(kKChunkTiles, std::max(st_.k_tiles, 1));
    chunks_ = (st_.k_tiles + kc_ - 1) / kc_;
  }

  void run() {
    allocate();
    if (!st_.compute) {
      for (int gi = 0; gi < groups_; ++gi)
        for (int tj = 0; tj < group_ && (gi * group_ + tj) * st_.TJ < bn_; ++tj) {
          for (int ri = 0; ri < tiles_i_; ++ri) finish_tile(out_tile(gi, ri, tj));
          store_column(gi, tj);
        }
      return;
    }
    load_a(0);
    load_b(0);
    for (int c = 0; c < chunks_; ++c) {
      if (c + 1 < chunks_) load_a(c + 1);
      for (int gi = 0; gi < groups_; ++gi) group_chunk(c, gi);
    }
  }

 private:
  // The fp32 block, the PSUM banks, the op(A) chunk and op(B) group slots, and epilogue slots where
  // the result is scaled by beta or cast (the allocations plan_gemm accounts for, in this order).
  void allocate() {
    block_ = sbuf_.alloc(DType::f32, st_.TJ, {tiles_j_, bm_}, "C block (fp32, across K chunks)");
    st_.banks.emplace(psum_, std::min(nc_.hw().psum_banks, group_ * tiles_i_), st_.TJ, st_.TI, "gemm acc");
    const int P = st_.partitions_of(st_.TK);
    auto chunk_tile = [&](std::int64_t width, const char* what) {
      return st_.double_row ? sbuf_.alloc(g_.load, P, {kc_, 2, width}, what) : sbuf_.alloc(g_.load, P, {kc_, width}, what);
    };
    a_chunks_.resize(kAChunkSlots);
    b_groups_.resize(kBGroupSlots);
    if (st_.compute) {
      for (auto& slot : a_chunks_)
        for (std::size_t s = 0; s < g_.a_src.size(); ++s) slot.push_back(chunk_tile(bm_, "op(A) chunk"));
      for (auto& slot : b_groups_)
        for (std::size_t s = 0; s < g_.b_src.size(); ++s)
          slot.push_back(chunk_tile(std::int64_t{group_} * st_.TJ, "op(B) group"));
    }
    if (st_.read_c || st_.cast_out)
      for (int e = 0; e < st_.b.epilogue_slots; ++e) {
        ProgramState::EpilogueSlot slot;
        if (st_.read_c) slot.cold = sbuf_.alloc(DType::f32, st_.TJ, {st_.TI}, "C (beta)");
        if (st_.cast_out) slot.out_c = sbuf_.alloc(g_.c.dtype(), st_.TJ, {st_.TI}, "C out");
        st_.epi.push_back(slot);
      }
  }

  // K tile t of a chunk slot, as the micro-kernel's term tiles.
  std::vector<Tile> terms_at(const std::vector<Tile>& slot, int t) const {
    std::vector<Tile> terms;
    for (const Tile& c : slot) {
      const std::int64_t width = st_.double_row ? c.size[2] : c.size[1];
      terms.push_back(st_.double_row ? c.slice(0, t, 1).reshape({2, width}) : c.slice(0, t, 1).reshape({width}));
    }
    return terms;
  }
  // First row and row count of the program's K tile kt.
  std::pair<std::int64_t, int> k_tile(int kt) const {
    const std::int64_t k0 = g_.k_begin + std::int64_t{kt} * st_.TK;
    return {k0, static_cast<int>(std::min<std::int64_t>(st_.TK, g_.k_end - k0))};
  }
  // Packs the K tiles of chunk c of `src`'s free range [f0, f0 + width) into `slot`.
  void pack_chunk(const std::vector<HbmTensor>& src, const std::vector<Tile>& slot, int c, std::int64_t f0, int width) {
    for (int t = 0; t < kc_ && c * kc_ + t < st_.k_tiles; ++t) {
      const auto [k0, tk] = k_tile(c * kc_ + t);
      pack_terms(nc_, g_, src, k0, tk, f0, width, {}, {}, terms_at(slot, t), st_.double_row);
    }
  }
  void load_a(int c) { pack_chunk(g_.a_src, a_chunks_[static_cast<std::size_t>(c % kAChunkSlots)], c, i0_, bm_); }
  int group_cols(int gi) const { return std::min(group_ * st_.TJ, bn_ - gi * group_ * st_.TJ); }
  void load_b(int q) {  // the q-th (chunk, group) of the program
    const int c = q / groups_, gi = q % groups_;
    pack_chunk(g_.b_src, b_groups_[static_cast<std::size_t>(q % kBGroupSlots)], c,
               j0_ + std::int64_t{gi} * group_ * st_.TJ, group_cols(gi));
  }

  OutTile out_tile(int gi, int ri, int tj) const {
    const std::int64_t oj = j0_ + (std::int64_t{gi} * group_ + tj) * st_.TJ, oi = i0_ + std::int64_t{ri} * st_.TI;
    return OutTile{oj, oi, std::min(st_.TJ, static_cast<int>(g_.n - oj)), std::min(st_.TI, static_cast<int>(g_.m - oi)),
                   true};
  }
  Tile block_view(const OutTile& o) const {
    return block_.slice(0, static_cast<int>((o.j0 - j0_) / st_.TJ), 1).reshape({bm_}).rows(0, o.tnj).cols(
        static_cast<int>(o.i0 - i0_), o.tni);
  }

  // Chunk c of bank group gi: the op(B) slice of the next (chunk, group) is loaded ahead, then every
  // output tile of the group sums the chunk's K tiles in one accumulation group and VectorE moves
  // (first chunk) or adds (later chunks) the bank into the block; the last chunk finishes the tiles.
  void group_chunk(int c, int gi) {
    const int q = c * groups_ + gi;
    if (q + 1 < chunks_ * groups_) load_b(q + 1);
    const std::vector<Tile>& a_slot = a_chunks_[static_cast<std::size_t>(c % kAChunkSlots)];
    const std::vector<Tile>& b_slot = b_groups_[static_cast<std::size_t>(q % kBGroupSlots)];
    const bool last = c + 1 == chunks_;
    const std::int64_t j_origin = j0_ + std::int64_t{gi} * group_ * st_.TJ;
    std::vector<std::vector<Tile>> a_now, b_now;  // the chunk's K tiles as term tiles, per K tile
    for (int t = 0; t < kc_ && c * kc_ + t < st_.k_tiles; ++t) {
      a_now.push_back(terms_at(a_slot, t));
      b_now.push_back(terms_at(b_slot, t));
    }
    for (int tj = 0; tj < group_ && (gi * group_ + tj) * st_.TJ < bn_; ++tj) {
      for (int ri = 0; ri < tiles_i_; ++ri) {
        const OutTile o = out_tile(gi, ri, tj);
        Accumulator acc = st_.banks->open(nc_, o.tnj, o.tni);
        for (std::size_t t = 0; t < a_now.size(); ++t)
          micro_kernel(st_, o, acc, b_now[t], a_now[t], j_origin, i0_, k_tile(c * kc_ + static_cast<int>(t)).second);
        const Tile v = block_view(o);
        if (c == 0)
          acc.copy_out(v);
        else
          nc_.tensor_tensor(v, v, acc.psum(), AluOp::add, Engine::vector, kRne);
        if (last) finish_tile(o);
      }
      if (last) store_column(gi, tj);
    }
  }

  // Epilogue in place on the block (the operations and order of the pass plans' epilogue): times
  // alpha, + beta C, cast; a cast result is stored from its slot now, an fp32 one with its column
  // tile later (store_column).
  void finish_tile(const OutTile& o) {
    const Tile v = block_view(o);
    if (!st_.compute)
      nc_.memset(v, 0.0f);
    else if (!g_.raw && g_.alpha != 1.0f)
      nc_.tensor_scalar(v, v, AluOp::multiply, g_.alpha);
    if (!st_.read_c && !st_.cast_out) return;
    const ProgramState::EpilogueSlot& slot = st_.epi[static_cast<std::size_t>(epi_slot_)];
    epi_slot_ = (epi_slot_ + 1) % st_.b.epilogue_slots;
    add_beta_c_and_cast(st_, o, v, slot);
    if (st_.cast_out) move_tile(nc_, slot.out_c, g_.c, o.j0, o.i0, o.tnj, o.tni, Triangle::none, /*to_hbm=*/true);
  }
  void store_column(int gi, int tj) {  // an fp32 result's column tile in one transfer
    if (st_.cast_out) return;
    const OutTile o = out_tile(gi, 0, tj);
    const Tile col = block_.slice(0, gi * group_ + tj, 1).reshape({bm_});
    move_tile(nc_, col, g_.c, o.j0, i0_, o.tnj, bm_, Triangle::none, /*to_hbm=*/true);
  }

  ProgramState st_;
  NeuronCore& nc_;
  const BlockGemmArgs& g_;
  const std::int64_t i0_, j0_;  // the block's first row and column of C
  const int bm_, bn_;           // its rows and columns
  const int tiles_i_, tiles_j_, group_, groups_;  // its output tiles, the bank group width, the groups
  int kc_ = 1, chunks_ = 0;     // K tiles per chunk, chunks
  AllocScope sbuf_, psum_;
  Tile block_{};
  std::vector<std::vector<Tile>> a_chunks_, b_groups_;  // [slot][source]
  int epi_slot_ = 0;
};

}  // namespace

void k_blocked_program(NeuronCore& nc, const BlockGemmArgs& g, const BlockShape& b) {
  const int TI = static_cast<int>(nc.hw().psum_bank_bytes / 4), TJ = nc.hw().gemm_stationary_fmax;
  const std::int64_t i0 = std::int64_t{nc.program_id(1)} * b.block_i * TI;
  const std::int64_t j0 = std::int64_t{nc.program_id(0)} * b.block_j * TJ;
  if (i0 >= g.m || j0 >= g.n) return;
  KBlockedProgram(nc, g, b, i0, j0).run();
}

}  // namespace trn::tile::gemm_detail
