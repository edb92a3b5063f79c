// trn::tile TensorE collectives: the steps around nc_matmul that the libraries repeat, each one
// owning its loop, flag, selector or slicing, so that a library kernel says what it computes and
// this layer issues the instructions.
//
// Layering (docs/architecture.md, "trn::tile TensorE collectives"): NeuronCore instructions (the
// ISA, no policy) -> these collectives (a written contract each: formula, operand shapes as
// partitions x free, memory, dtype, the instructions issued and their order) -> library drivers.
// Every collective issues exactly the instructions a hand-written kernel would, in the order given
// in its contract, so moving a kernel onto it changes neither bits nor modeled time.
//
// Notation: nc_matmul(dst, S, M, acc) is dst[m, n] (+)= sum_p S[p, m] M[p, n] (S stationary
// [K <= pmax, m <= gemm_stationary_fmax], M moving [K, n <= gemm_moving_fmax], dst PSUM fp32).
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "trn/core/memory.hpp"
#include "trn/core/neuron_core.hpp"

namespace trn::tile {

// ---- PSUM accumulation group ---------------------------------------------------------------
// One PSUM accumulation group: psum = sum of the products issued through it, in issue order (the
// nc_matmul accumulation contract, docs/numerics.md section 4).
//   Operands   psum: a PSUM fp32 view [m, n]; every product's stationary [K, m] and moving [K, n].
//   Issues     per product one nc_matmul with accumulate = false for the first product of the group
//              and true after it (this replaces the `first` / `t > 0` / `!empty` flags of hand
//              loops); copy_out one tensor_copy (PSUM -> SBUF, cast to dst's dtype) and restart.
//   Empty      a group with no product never wrote psum: started() says so (the evacuation then
//              writes zeros instead of reading PSUM, see evacuate).
class Accumulator {
 public:
  Accumulator() = default;
  Accumulator(NeuronCore& nc, const Tile& psum) : nc_(&nc), psum_(psum) {}

  const Tile& psum() const { return psum_; }
  bool started() const { return started_; }

  // psum (+)= stationary^T moving (perf_mode as nc_matmul's).
  void matmul(const Tile& stationary, const Tile& moving, MatmulPerfMode mode = MatmulPerfMode::none);
  // The split-term product: for each pair (s, m) in order, matmul(stationary[s], moving[m]).
  // With hi/lo terms and kHiLoPairs this is the bf16x3-style product of trnblas's mode table.
  struct TermPair {
    int stationary = 0, moving = 0;
  };
  void terms(std::span<const Tile> stationary, std::span<const Tile> moving, std::span<const TermPair> pairs);
  // dst = psum (one tensor_copy on `engine`, cast to dst's dtype), then restart: the next product
  // opens a new group on the same PSUM.
  void copy_out(const Tile& dst, Engine engine = Engine::vector);
  // The next product overwrites psum (a new group) without reading it out.
  void restart() { started_ = false; }

 private:
  NeuronCore* nc_ = nullptr;
  Tile psum_{};
  bool started_ = false;
};
using TermPair = Accumulator::TermPair;

// Term pairs of a hi/lo product (terms [hi, lo] on both sides), smallest products first:
// lo.hi, hi.lo, hi.hi (lo.lo, ~2^-16 relative, is dropped). kOneTerm: the single product hi.hi.
inline constexpr TermPair kHiLoPairs[] = {{1, 0}, {0, 1}, {0, 0}};
// The same products with the operands' roles exchanged (hi.lo, lo.hi, hi.hi as stationary.moving).
inline constexpr TermPair kHiLoPairsSwapped[] = {{0, 1}, {1, 0}, {0, 0}};
inline constexpr TermPair kOneTerm[] = {{0, 0}};

// dst[:, c0 + c] = stationary^T moving[:, c0 + c] for column chunks of `chunk` moving columns,
// each chunk its own one-product group (moving wider than gemm_moving_fmax, or than one bank).
//   Issues     ceil(n / chunk) nc_matmul (accumulate = false), in increasing column order.
void matmul_by_columns(NeuronCore& nc, const Tile& dst, const Tile& stationary, const Tile& moving,
                       std::int64_t chunk);

// ---- PSUM-bank rotation ----------------------------------------------------------------------
// `slots` PSUM accumulators of [partitions, width] fp32 used round robin (double / multi-buffered
// PSUM): the group of output tile t runs in slot t mod slots, so TensorE can fill one bank while
// the previous one is evacuated.
//   Memory     allocates the slots in order 0..slots-1 from `psum` (at construction).
//   Issues     nothing itself; open() hands out an Accumulator on the next slot.
class PsumRing {
 public:
  PsumRing(AllocScope& psum, int slots, std::int32_t partitions, std::int64_t width, std::string_view name,
           AllocFill fill = AllocFill::poison);
  // An empty group on the [rows, cols] corner of the next slot; slot() is that slot's index (to
  // rotate SBUF tiles that belong to it, e.g. its epilogue buffers).
  Accumulator open(NeuronCore& nc, std::int32_t rows, std::int64_t cols);
  int slot() const { return current_; }
  const Tile& operator[](int slot) const { return tiles_[static_cast<std::size_t>(slot)]; }

 private:
  std::vector<Tile> tiles_;
  std::int64_t next_ = 0;
  int current_ = -1;
};

// ---- Evacuation PSUM -> SBUF with alpha, beta and the cast -----------------------------------
// v = alpha * psum in fp32 SBUF, or v = 0 when nothing was accumulated (an empty group: its PSUM was
// never written and is not read).
//   Issues     one instruction on VectorE: memset (empty), tensor_copy (alpha == 1) or
//              tensor_scalar multiply by alpha.
void evacuate(NeuronCore& nc, const Tile& v, const Tile& psum, float alpha, bool accumulated);
inline void evacuate(NeuronCore& nc, const Tile& v, const Accumulator& acc, float alpha) {
  evacuate(nc, v, acc.psum(), alpha, acc.started());
}
// The epilogue's steps after alpha (BLIS's C := beta C + alpha AB), on the fp32 result v:
// with c (fp32 SBUF, already holding C; nullptr when beta == 0, so C is never read) c = beta * c
// and v = v + c on VectorE; then, with cast (C's dtype), cast = v. Returns the tile to store.
//   Issues     tensor_scalar, tensor_tensor (when c), tensor_copy (when cast), in that order.
Tile add_beta_c_and_cast(NeuronCore& nc, const Tile& v, const Tile* c, float beta, const Tile* cast);

// ---- bf16 term split -------------------------------------------------------------------------
// x (fp32 SBUF) as a sum of bf16 terms: term t = RN_bf16(x - sum_{s < t} term s), the residual
// kept exact in fp32 (the subtraction of a bf16 rounding of an fp32 value is exact). 2 terms are
// the hi/lo split of bf16x3, 3 the hi/mid/lo of bf16x6 (docs/numerics.md, trnblas modes).
struct SplitOperand {
  Tile x;                       // fp32 value [P, F]
  Tile resid;                   // fp32 scratch [P, F] (may be x itself: x is then consumed)
  std::span<const Tile> terms;  // bf16 [P, F] each, terms.size() >= 2
};
struct TermSplit {
  Engine round = Engine::vector;     // the roundings to bf16 (tensor_copy)
  Engine subtract = Engine::vector;  // the exact fp32 subtractions (tensor_tensor)
  InstrOptions options{Rounding::nearest_even};
  // terms[0] already holds RN(x) (a rounding DMA made it): begin with the first subtraction.
  bool first_term_loaded = false;
};
//   Issues     per operand, unless first_term_loaded: copy terms[0] = x (round engine); then for
//              t = 1..: resid = (t == 1 ? x : resid) - terms[t - 1] (subtract engine), copy
//              terms[t] = resid (round engine). Several operands are split in lockstep: each step
//              for every operand in turn (two independent chains alternate on the engines).
void split_terms(NeuronCore& nc, std::span<const SplitOperand> operands, const TermSplit& how);
inline void split_terms(NeuronCore& nc, const SplitOperand& operand, const TermSplit& how) {
  split_terms(nc, std::span(&operand, 1), how);
}

// ---- Cross-partition steps on TensorE ---------------------------------------------------------
// Partition broadcast of one row through a 0/1 selector (exact: one nonzero term per output).
//   Operands   sel, ones: fp32 SBUF [P, F] (ones holds 1.0); the selector's free size F is the
//              widest dst partition count it serves.
//   select     sel[p, m] = (p == row) for p < partitions: one GpSimd affine_select over ones.
//   broadcast  dst[m, n] = src[row, n] for m < F (dst [F, n]): one nc_matmul (accumulate = false)
//              with stationary sel[0:partitions, :], moving src [partitions, n].
class RowSelector {
 public:
  RowSelector(NeuronCore& nc, const Tile& sel, const Tile& ones) : nc_(&nc), sel_(sel), ones_(ones) {}
  void select(std::int64_t row, std::int32_t partitions);
  void broadcast(const Tile& dst, const Tile& src) const;

 private:
  NeuronCore* nc_;
  Tile sel_, ones_;
  std::int32_t partitions_ = 0;
};

// Sum over partitions through a ones operand, accumulated over row tiles (additions in fp32 PSUM
// in increasing partition order, then row tile by row tile).
//   broadcast  psum[m, n] (+)= sum_p x[p, n] for every m < psum.partitions: stationary
//              ones[0:rows, 0:psum.partitions], moving x [rows, n] (the sums land on every row).
//   column     psum[m, 0] (+)= sum_p x[p, m]: stationary x [rows, m], moving ones[0:rows, 0:1].
//   Issues     per add() one nc_matmul, the first of the group with accumulate = false.
class PartitionSum {
 public:
  enum class Layout : std::uint8_t { broadcast, column };
  PartitionSum() = default;
  PartitionSum(NeuronCore& nc, const Tile& psum, const Tile& ones, Layout layout)
      : acc_(nc, psum), ones_(ones), layout_(layout) {}
  void add(const Tile& x);
  void copy_out(const Tile& dst, Engine engine = Engine::vector) { acc_.copy_out(dst, engine); }
  const Accumulator& accumulator() const { return acc_; }

 private:
  Accumulator acc_;
  Tile ones_{};
  Layout layout_ = Layout::broadcast;
};

}  // namespace trn::tile
