// trn::tile GEMM collective, what its two kernels share (contract in trn/tile/gemm.hpp): the pass
// plans (gemm_kernel.cpp) and the K-blocked plan (gemm_k_blocked.cpp) run on one ProgramState and
// the same steps (gemm_steps.cpp): triangle-restricted moves between SBUF and C, operand packing,
// the micro-kernel, and the epilogue's steps after alpha.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "../warm_vector.hpp"
#include "trn/tile/gemm.hpp"
#include "trn/tile/matmul.hpp"

namespace trn::tile::gemm_detail {

inline constexpr InstrOptions kRne{Rounding::nearest_even};

// One output tile: columns j0.. (partitions) x rows i0.. (free) of C.
struct OutTile {
  std::int64_t j0, i0;
  int tnj, tni;
  bool live;  // intersects the triangle (always, without one)
};

// The operand slots of one K-tile buffer (pass plans): per source the fp32 tile and residual
// (split modes only) and the terms the micro-kernel reads.
// The program's lists are WarmVectors: their heap blocks are reused by the thread's next program
// (the split modes' staging lists stay plain: empty, they cost no heap block, and a WarmVector
// costs two thread-local lookups whether it is used or not).
struct OperandSlot {
  std::vector<Tile> a_raw, a_res;
  detail::WarmVector<Tile> a_terms;
  std::vector<Tile> b_raw, b_res;
  detail::WarmVector<Tile> b_terms;
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
  bool read_c = false, cast_out = false;
  // Sets compute, k_tiles, read_c and cast_out from the arguments.
  void set_work() {
    compute = g.multiply && g.k_end > g.k_begin;
    k_tiles = compute ? static_cast<int>((g.k_end - g.k_begin + TK - 1) / TK) : 0;
    read_c = !g.raw && g.beta != 0.0f;
    cast_out = g.c.dtype() != DType::f32 && !g.raw;
  }
  std::optional<PsumRing> banks;   // pass plans: one per output tile of a pass; K-blocked: rotated
  detail::WarmVector<Accumulator> accs;   // pass plans: the groups of the current pass, one per output tile
  detail::WarmVector<OperandSlot> slots;  // rotated by K-tile index
  detail::WarmVector<Tile> b_strip;       // resident plan: the op(B) strip, [k, k tile, j] per term
  bool strip_packed = false;
  struct EpilogueSlot {
    Tile out, cold, out_c;
  };
  detail::WarmVector<EpilogueSlot> epi;  // rotated by output tile
  // Stores of evacuated output tiles not yet issued: the next pass's K loop issues one per K tile
  // after its packing DMAs, so that a pass's output does not hold up the operand loads that the
  // next pass's matmuls wait for (the program's last pass flushes them at its end). Oldest first
  // (at most one per epilogue slot: erasing the front is a short move).
  struct PendingStore {
    OutTile tile;
    std::size_t slot;
  };
  detail::WarmVector<PendingStore> stores;
};

// Moves rows [0, tnj) x columns [0, tni) of an on-chip tile from/to C at (j0, i0), restricted to the
// triangle: one DMA for a tile inside it, one per partition (its valid row run) for a crossing tile.
void move_tile(NeuronCore& nc, const Tile& sb, const HbmTensor& c, std::int64_t j0, std::int64_t i0, int tnj, int tni,
               Triangle tri, bool to_hbm);

// Packs one K tile (rows k0.., tk of them) of each source's free range [f0, f0 + width) into SBUF as
// its terms: a DMA into the term (split == 1), the double_row pair layout, or a DMA into the fp32
// `raw` tile split into g.split bf16 terms (tile::split_terms; roundings on ScalarE, subtractions
// on VectorE).
void pack_terms(NeuronCore& nc, const BlockGemmArgs& g, const std::vector<HbmTensor>& src, std::int64_t k0, int tk,
                std::int64_t f0, int width, const std::vector<Tile>& raw, const std::vector<Tile>& resid,
                const std::vector<Tile>& terms, bool double_row);

// Micro-kernel: one output tile's products for one K tile of tk rows, one per term pair in the pair
// order, into the tile's accumulation group. b_terms hold columns j_origin.. and a_terms rows
// i_origin.. of the K tile.
void micro_kernel(ProgramState& st, const OutTile& o, Accumulator& acc, const std::vector<Tile>& b_terms,
                  const std::vector<Tile>& a_terms, std::int64_t j_origin, std::int64_t i_origin, int tk);

// The epilogue's steps after alpha, on the fp32 result v of output tile o: + beta C (C read into the
// slot), then the cast into the slot's C-typed tile (tile::add_beta_c_and_cast).
void add_beta_c_and_cast(ProgramState& st, const OutTile& o, const Tile& v, const ProgramState::EpilogueSlot& slot);

// The K-blocked program (BlockShape::k_blocked).
void k_blocked_program(NeuronCore& nc, const BlockGemmArgs& g, const BlockShape& b);

}  // namespace trn::tile::gemm_detail
