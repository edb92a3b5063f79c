// trsm_narrow_kernel: E Y = alpha Z for a few right-hand sides (fp32 real; complex below), the whole solve in one
// launch with every product on TensorE (issue #30: substitution with nrhs <= 4 is a chain of 3 n
// dependent VectorE instructions of free size nrhs, ~0.7 us per row).
//
// Algorithm  blocked TRSM with explicit inverses of the diagonal blocks (Du Croz & Higham, "Stability
//            of methods for matrix inversion", IMA J. Numer. Anal. 12, 1992, method 2 applied
//            blockwise; Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §14.2):
//   1. Every w x w diagonal block T_b (w <= pmax) is inverted by the Newton-Schulz iteration
//      X <- X - X (T X - I) from X_0 = diag(1 / t_ii) (Higham §14.5; Schulz 1933). For a triangular
//      T the residual I - X_0 T is strictly triangular, so nilpotent of index <= w, and each step
//      squares it: ceil(log2 w) steps reach T^-1 in exact arithmetic (7 for w = 128). TensorE's
//      matmul computes stationary^T moving, so the iteration runs on both W ~ T^-1 and V ~ T^-T:
//        W <- W - V^T (T W - I),  V <- V - W^T (T^T V - I),
//      whose errors G = W - T^-1, H^T = V - T^-T both become -H T G (quadratic), four 128^3 matmuls
//      per step and block; the blocks' steps are interleaved so one block's latencies hide another's.
//   2. Block rows in solve order: R_b = alpha Z_b - sum_k E_bk Y_k (the solved blocks, one PSUM
//      accumulation of matmuls with E_bk^T, loaded transposed by the DMA), then Y_b = V_b^T R_b (one
//      matmul) and one step of refinement in working precision, S = R_b - T_b Y_b, Y_b += V_b^T S
//      (Higham ch. 12: fixed-precision refinement of a solver that is not too unstable gives
//      componentwise backward stability). The host only loads the operands; no arithmetic.
// Engines    DMA: E's blocks (each diagonal block twice, as T_b and T_b^T), Z, Y. GpSimdE: the
//            triangle masks (affine_select). VectorE: the diagonal, PSUM evacuation, R_b, X updates.
//            TensorE: every product.
// Accuracy   u = 2^-24, gamma_k = k u / (1 - k u), |.| componentwise. The last Newton step gives
//            |V_b^T - T_b^-1| <= gamma_{2w+1} |T_b^-1| |T_b| |T_b^-1| to first order (its rounding
//            of T X and of X (T X - I); the earlier steps' errors are squared away), the forward-
//            error bound of the triangular inversion methods (Higham §14.2), so the first solve has
//            |y - T_b^-1 r| <= gamma_{3w+2} |T_b^-1| |T_b| |T_b^-1| |r|. After the refinement step,
//            r - T_b y' = (I - T_b V_b^T)(r - T_b y) - T_b V_b^T e_s - T_b e_c - T_b e_a with the
//            roundings e_s of s (gamma_{w+1} (|r| + |T_b||y|)), e_c of V^T s and e_a of the sum, so
//              |r_b - T_b y_b| <= gamma_{w+2} (|r_b| + |T_b| |y_b|) + 4 gamma_{3w+2}^2 (|T_b| |T_b^-1|)^4 |r_b|:
//            substitution's componentwise bound (Higham Thm 8.5) to first order, plus a second-order
//            term in cond(T_b). The update r_b = alpha z_b - E_bK y_K is the GEMM form's (fp32 PSUM,
//            gamma_{k+1}). Tested against OpenBLAS's fp64 solve (tests/trnblas/test_trnblas_level3.cpp,
//            ...complex_tri.cpp). Without the refinement step cgetrs' 512 residual was 1.1e-3 (U's
//            128-blocks are ill conditioned), with it 3.0e-7 (substitution: 3.2e-7).
// Limits     order <= kTrsmNarrowMaxOrder (the blocks of E's triangle stay in SBUF), nrhs <=
//            kTrsmNarrowMaxRhs. Non-finite input or output is the driver's business (level3.cpp
//            falls back to substitution, which propagates Inf/NaN as netlib does).
#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include "level3_internal.hpp"
#include "trn/tile/complex.hpp"
#include "trn/tile/view.hpp"

namespace trn::blas::detail {

namespace {

std::int32_t rows32(std::int64_t v) { return static_cast<std::int32_t>(v); }

// Every SBUF and PSUM tile of these kernels skips the allocator's NaN poison fill (host work only: not
// an instruction, no device time; core/include/trn/core/memory.hpp). Each byte any instruction here
// reads was written earlier in the launch, by a DMA, a memset, an affine_select (which writes every
// element), or an instruction's destination: the diagonal blocks and E_bk^T are DMA'd whole, the
// inverses' X_0 written whole before the Newton steps, every PSUM view is a non-accumulating matmul's
// destination before it is read; the [pmax, ...] tiles (Z, Y, R, S, t_ii, the block columns) are read
// only in the rows (width(b)) and columns their DMA or instruction wrote. So the poison was never read,
// and every output bit, trace record and modeled time is the same (issue #30, session 24: the fill
// was ~5 % of `xlintsts`' SGE path, whose strsm_/ctrsm_ calls are mostly of order 1-50 with nrhs <= 4).
constexpr AllocFill kWrittenFirst = AllocFill::none;

// ---- the launch's tiles as one allocation per memory (host work only; issue #30, session 25) ----
// A launch of these kernels allocates every SBUF and PSUM tile into an empty memory and frees none
// before the launch ends, so the allocator's placements depend only on the sequence of requests, and
// that sequence only on the PlanKey below (the loops over blocks, systems and block columns). The
// first launch of a key allocates tile by tile, as before, and records where each tile went
// (TilePlan); later launches of that key make ONE allocation per memory, of the recorded extent, and
// hand out the tiles as views at the recorded offsets: field for field the Tiles the allocator
// returned (base, offset, partitions, size), so every instruction, trace record, output bit and
// modeled time is the same. One allocation leaves the same peak (the memory's used bytes) only when
// the tiles lie end to end from offset 0; a plan with a gap (a PSUM bank skip) or with a tile that is
// not a poison-free fp32 [rows, cols] from partition 0 is not recorded, and its key keeps allocating
// tile by tile. Each view is checked against its recorded request (an internal error if the sequence
// ever differed). ~17 (real) to ~36 (complex) allocations of ~360 host instructions each per solve.
struct TilePlan {
  struct Slot {
    std::int32_t rows;
    std::int64_t cols, offset;  // fp32 columns; byte offset in every partition
  };
  std::vector<Slot> slots;
  std::int64_t extent = 0;  // bytes per partition, offset 0 to the end of the last tile
  std::int32_t rows = 1;    // the most partitions of any tile
};

// Everything the request sequence of a launch depends on.
struct PlanKey {
  const HardwareSpec* hw = nullptr;
  bool complex = false, inverse = false, lower = false;
  std::int64_t order = 0, nrhs = 0, systems = 0;
  bool operator==(const PlanKey&) const = default;
};

// The recorded plans of this thread's keys, direct-mapped by a hash of the key (LAPACK's getrs / trtrs
// sweep orders 1-50 in both triangles with nrhs 1, 2, 15: ~150 keys, each for a few calls; a table
// searched in order, or replaced round robin with fewer entries than the sweep, never hit).
struct PlanEntry {
  PlanKey key;
  bool valid = false;
  TilePlan sb, ps;
};
struct PlanCache {
  static constexpr std::size_t kEntries = 256;
  std::array<PlanEntry, kEntries> entries;
  static std::size_t slot(const PlanKey& k) {
    std::uint64_t h = static_cast<std::uint64_t>(k.order) * 0x9e3779b97f4a7c15ull;
    h ^= static_cast<std::uint64_t>(k.nrhs) * 0xc2b2ae3d27d4eb4full + static_cast<std::uint64_t>(k.systems) * 0x165667b19e3779f9ull;
    h ^= (k.complex ? 1u : 0u) | (k.inverse ? 2u : 0u) | (k.lower ? 4u : 0u);
    // The generation, not the spec's address: the slots (and so the host cost) do not move with ASLR.
    h ^= static_cast<std::uint64_t>(k.hw->generation) << 3;
    return static_cast<std::size_t>((h ^ (h >> 29)) % kEntries);
  }
  const PlanEntry* find(const PlanKey& k) const {
    const PlanEntry& e = entries[slot(k)];
    return e.valid && e.key == k ? &e : nullptr;
  }
  void store(const PlanKey& k, TilePlan&& sb, TilePlan&& ps) {
    PlanEntry& e = entries[slot(k)];
    e.key = k;
    e.valid = true;
    e.sb = std::move(sb);
    e.ps = std::move(ps);
  }
};
PlanCache& plan_cache() {
  thread_local PlanCache cache;
  return cache;
}

// One memory's tiles of a launch: AllocScope's alloc, recording (plan == nullptr) or slicing.
class TileArena {
 public:
  TileArena(OnChipMemory& mem, const TilePlan* plan) : scope_(mem), plan_(plan), empty_at_start_(mem.used_bytes() == 0) {
    // A plan was recorded from an empty memory; with live tiles its one allocation would land
    // elsewhere and first fit could place the tiles otherwise: allocate tile by tile (not stored).
    if (!empty_at_start_) plan_ = nullptr;
    if (plan_ != nullptr)
      all_ = scope_.alloc(DType::f32, plan_->rows, {plan_->extent / 4}, "narrow TRSM tiles", 0, AllocFill::none);
  }
  Tile alloc(DType dtype, std::int32_t partitions, std::initializer_list<std::int64_t> free_shape, std::string_view name,
             std::int32_t partition_start, AllocFill fill) {
    const bool plain = dtype == DType::f32 && free_shape.size() == 1 && partition_start == 0 && fill == AllocFill::none;
    if (plan_ == nullptr) {
      const Tile t = scope_.alloc(dtype, partitions, free_shape, name, partition_start, fill);
      recordable_ = recordable_ && plain;
      const std::int64_t cols = *free_shape.begin();
      const std::int64_t need = (cols * 4 + kAllocAlignBytes - 1) / kAllocAlignBytes * kAllocAlignBytes;
      record_.slots.push_back({partitions, cols, t.offset_bytes});
      record_.extent = std::max(record_.extent, t.offset_bytes + need);
      record_.rows = std::max(record_.rows, partitions);
      used_ += need;
      return t;
    }
    if (!plain || next_ >= plan_->slots.size() || plan_->slots[next_].rows != partitions ||
        plan_->slots[next_].cols != *free_shape.begin())
      throw Error("trnblas narrow TRSM: a tile request differs from the recorded plan of its launch");
    const TilePlan::Slot& s = plan_->slots[next_++];
    Tile t = all_;
    t.partitions = s.rows;
    t.base += s.offset;
    t.offset_bytes += s.offset;
    t.size[0] = s.cols;
    return t;
  }
  // The recorded plan, when one allocation can stand for its tiles (see above).
  bool take_record(TilePlan& out) {
    if (plan_ != nullptr || !recordable_ || !empty_at_start_ || used_ != record_.extent) return false;
    out = std::move(record_);
    return true;
  }

 private:
  AllocScope scope_;
  const TilePlan* plan_;
  bool empty_at_start_;
  Tile all_{};
  TilePlan record_;
  std::int64_t used_ = 0;
  bool recordable_ = true;
  std::size_t next_ = 0;
};

// What both kernels open with: blocks of pmax rows of an order-`order` triangle (the last one
// `width` rows) and the SBUF / PSUM arenas every tile of the launch lives in (their plans recorded
// when the launch ends normally).
struct BlockFrame {
  BlockFrame(NeuronCore& nc, const PlanKey& key)
      : P(nc.hw().pmax), order(key.order), blocks((order + P - 1) / P), Pi(rows32(P)), key_(key),
        plan_(plan_cache().find(key)), exceptions_(std::uncaught_exceptions()),
        sb(nc.sbuf(), plan_ != nullptr ? &plan_->sb : nullptr), ps(nc.psum(), plan_ != nullptr ? &plan_->ps : nullptr) {}
  ~BlockFrame() {
    if (plan_ != nullptr || std::uncaught_exceptions() != exceptions_) return;
    TilePlan s, p;
    if (sb.take_record(s) && ps.take_record(p)) plan_cache().store(key_, std::move(s), std::move(p));
  }
  BlockFrame(const BlockFrame&) = delete;
  BlockFrame& operator=(const BlockFrame&) = delete;
  std::int64_t width(std::int64_t b) const { return std::min(P, order - b * P); }
  const std::int64_t P, order, blocks;
  const std::int32_t Pi;  // P as a partition count

 private:
  const PlanKey key_;
  const PlanEntry* const plan_;
  const int exceptions_;

 public:
  TileArena sb, ps;
};

// The identity of the widest diagonal block, min(pmax, order) square (every use reads its leading
// w x w corner, w <= that width): a memset of ones and one affine_select keeping p - f == 0. Sized to
// the block rather than pmax x pmax, since a 1 x 1 solve otherwise spends most of its device and
// host time building a 128 x 128 identity it never reads (issue #30: xeigtsts ssg's strsm_ calls
// are mostly of order 1-4).
Tile identity_tile(NeuronCore& nc, BlockFrame& frame) {
  const std::int64_t w = frame.width(0);
  Tile ones = frame.sb.alloc(DType::f32, rows32(w), {w}, "ones", 0, kWrittenFirst);
  Tile ident = frame.sb.alloc(DType::f32, rows32(w), {w}, "identity", 0, kWrittenFirst);
  nc.memset(ones, 1.0f);
  const std::array<std::int64_t, 2> pattern{-1, w};  // p - f == 0
  nc.affine_select(ident, std::span(&pattern, 1), 0, 1, AluOp::equal, ones, 0.0f);
  return ident;
}

// ceil(log2 w): Newton steps that annihilate a strictly triangular residual of order w.
int newton_steps(std::int64_t w) {
  int steps = 0;
  while ((std::int64_t{1} << steps) < w) ++steps;
  return steps;
}

// Keeps the triangle of a w x w tile (partition = row index p, free = column index f) on which
// value = sign (p - f) satisfies cmp, zeros elsewhere (the unreferenced triangle may hold Inf/NaN).
void keep_triangle(NeuronCore& nc, const Tile& t, std::int64_t w, std::int64_t sign, AluOp cmp) {
  const std::array<std::int64_t, 2> pattern{-sign, w};
  nc.affine_select(t, std::span(&pattern, 1), 0, sign, cmp, t, 0.0f);
}

// The inverse's diagonal block x (w x w) written into X's stored block without touching the stored
// block's other triangle (and, unit, its diagonal): the two parts selected (zeros elsewhere, whose
// bits are 0) and OR-ed bitwise, so the stored values keep their bits (NaN payloads, -0), as
// trnsolver's sytrd merges its triangles. `stored` holds X's block as loaded; it is overwritten.
void merge_diagonal_block(NeuronCore& nc, const Tile& out, const Tile& x, const Tile& stored, std::int64_t w,
                          bool lower, bool unit) {
  const std::int64_t sign = lower ? 1 : -1;
  const std::array<std::int64_t, 2> mine{-sign, w}, theirs{sign, w};
  nc.affine_select(out, std::span(&mine, 1), 0, sign, unit ? AluOp::greater : AluOp::greater_equal, x, 0.0f);
  nc.affine_select(stored, std::span(&theirs, 1), 0, -sign, unit ? AluOp::greater_equal : AluOp::greater, stored, 0.0f);
  nc.tensor_tensor(out.bitcast(DType::u32), out.bitcast(DType::u32), stored.bitcast(DType::u32), AluOp::bitwise_or);
}

}  // namespace

namespace {

struct RealDiag {
  Tile t, u, w, v, pw, pv;  // T_b, T_b^T, W ~ T^-1, V ~ T^-T, T W - I, T^T V - I
};
// One system's tiles in a launch of the real kernel.
struct RealSystem {
  Tile zt, yt, rt, st;  // right-hand sides and solutions, block b in columns [b nrhs, (b + 1) nrhs)
  std::vector<RealDiag> d;
  std::vector<Tile> et;  // E_bk^T of the solved blocks k of block row b, at b blocks + k
  Tile diag, acc, yp;
};

}  // namespace

void trsm_narrow_kernel(NeuronCore& nc, const NarrowTrsm<float>& p) {
  trsm_narrow_kernel(nc, std::span<const NarrowTrsm<float>>(&p, 1));
}

// Systems of one shape in one launch: every phase below runs system by system inside each of its
// steps (loads, the Newton groups over the (system, block) pairs, the block rows), so a single
// system's launch is the instruction sequence it always was, and a batch's systems overlap.
void trsm_narrow_kernel(NeuronCore& nc, std::span<const NarrowTrsm<float>> systems) {
  const NarrowTrsm<float>& p0 = systems.front();
  BlockFrame frame(nc, PlanKey{&nc.hw(), false, p0.x != nullptr, p0.lower, p0.order, p0.nrhs,
                               static_cast<std::int64_t>(systems.size())});
  const std::int64_t P = frame.P, blocks = frame.blocks, nrhs = p0.nrhs;
  const auto nsys = static_cast<std::int64_t>(systems.size());
  // E(i, j) at e[i si + j sj]: the block (i0.., j0..) with partitions along i (direct) or j (transposed).
  const auto e_block = [&](const NarrowTrsm<float>& p, std::int64_t i0, std::int64_t h, std::int64_t j0, std::int64_t w,
                           bool transposed) {
    const float* base = p.e + i0 * p.si + j0 * p.sj;
    return transposed ? tile::hbm_view(base, DType::f32, rows32(w), p.sj, {{h, p.si}})
                      : tile::hbm_view(base, DType::f32, rows32(h), p.si, {{w, p.sj}});
  };
  const auto z_block = [&](const NarrowTrsm<float>& p, std::int64_t b) {
    return tile::hbm_view(p.z + b * P * p.es, DType::f32, rows32(frame.width(b)), p.es, {{nrhs, p.rs}});
  };

  const Tile ident = identity_tile(nc, frame);
  const auto col = [&](const Tile& t, std::int64_t b) { return t.rows(0, rows32(frame.width(b))).cols(b * nrhs, nrhs); };
  std::vector<RealSystem> sys(systems.size());
  const std::int64_t lsign = p0.lower ? 1 : -1;  // T lower: p - f >= 0
  for (std::int64_t q = 0; q < nsys; ++q) {
    const NarrowTrsm<float>& p = systems[static_cast<std::size_t>(q)];
    RealSystem& S = sys[static_cast<std::size_t>(q)];
    if (p.x == nullptr) {  // (the inverse: below)
      S.zt = frame.sb.alloc(DType::f32, frame.Pi, {blocks * nrhs}, "Z blocks", 0, kWrittenFirst);
      S.yt = frame.sb.alloc(DType::f32, frame.Pi, {blocks * nrhs}, "Y blocks", 0, kWrittenFirst);
      S.rt = frame.sb.alloc(DType::f32, frame.Pi, {blocks * nrhs}, "R blocks", 0, kWrittenFirst);
      S.st = frame.sb.alloc(DType::f32, frame.Pi, {blocks * nrhs}, "refinement residuals", 0, kWrittenFirst);
      for (std::int64_t b = 0; b < blocks; ++b) nc.dma_copy(col(S.zt, b), z_block(p, b));
    }
    // ---- 1. the inverses of the diagonal blocks --------------------------------------------------
    S.d.resize(static_cast<std::size_t>(blocks));
    for (std::int64_t b = 0; b < blocks; ++b) {
      const std::int64_t w = frame.width(b), e0 = b * P;
      RealDiag& x = S.d[static_cast<std::size_t>(b)];
      x.t = frame.sb.alloc(DType::f32, rows32(w), {w}, "T_b", 0, kWrittenFirst);
      x.u = frame.sb.alloc(DType::f32, rows32(w), {w}, "T_b^T", 0, kWrittenFirst);
      x.w = frame.sb.alloc(DType::f32, rows32(w), {w}, "W_b", 0, kWrittenFirst);
      x.v = frame.sb.alloc(DType::f32, rows32(w), {w}, "V_b", 0, kWrittenFirst);
      x.pw = frame.sb.alloc(DType::f32, rows32(w), {w}, "T W - I", 0, kWrittenFirst);
      x.pv = frame.sb.alloc(DType::f32, rows32(w), {w}, "T^T V - I", 0, kWrittenFirst);
      nc.dma_copy(x.t, e_block(p, e0, w, e0, w, false));
      nc.dma_copy(x.u, e_block(p, e0, w, e0, w, true));
    }
    // E_bk^T of the solved blocks k of every block row b (loads overlap the inversion).
    S.et.resize(static_cast<std::size_t>(blocks * blocks));
    for (std::int64_t b = 0; b < blocks; ++b)
      for (std::int64_t k = 0; k < blocks; ++k) {
        if (p.lower ? k >= b : k <= b) continue;
        Tile& t = S.et[static_cast<std::size_t>(b * blocks + k)];
        t = frame.sb.alloc(DType::f32, rows32(frame.width(k)), {frame.width(b)}, "E_bk^T", 0, kWrittenFirst);
        nc.dma_copy(t, e_block(p, b * P, frame.width(b), k * P, frame.width(k), true));
      }
  }
  for (RealSystem& S : sys) {
    S.diag = frame.sb.alloc(DType::f32, frame.Pi, {blocks}, "t_ii", 0, kWrittenFirst);
    for (std::int64_t b = 0; b < blocks; ++b) {
      const std::int64_t w = frame.width(b);
      RealDiag& x = S.d[static_cast<std::size_t>(b)];
      const Tile id = ident.rows(0, rows32(w)).cols(0, w);
      // The referenced triangle only; a unit diagonal is 1 whatever is stored.
      keep_triangle(nc, x.t, w, lsign, p0.unit ? AluOp::greater : AluOp::greater_equal);
      keep_triangle(nc, x.u, w, -lsign, p0.unit ? AluOp::greater : AluOp::greater_equal);
      if (p0.unit) {
        nc.tensor_tensor(x.t, x.t, id, AluOp::add);
        nc.tensor_tensor(x.u, x.u, id, AluOp::add);
        nc.tensor_copy(x.w, id);
      } else {  // X_0 = diag(1 / t_ii): t_ii by selecting the diagonal and summing each row (exact)
        const std::array<std::int64_t, 2> pattern{-1, w};
        nc.affine_select(x.pw, std::span(&pattern, 1), 0, 1, AluOp::equal, x.t, 0.0f);
        const Tile dcol = S.diag.rows(0, rows32(w)).cols(b, 1);
        nc.tensor_reduce(dcol, x.pw, AluOp::add);
        nc.tensor_scalar(x.w, id, AluOp::divide, dcol);
      }
      nc.tensor_copy(x.v, x.w);
    }
  }
  // PSUM: one set of products per block in flight (at most 4 blocks at once, 2 KiB each); the
  // blocks of all systems, g = system blocks + block, in groups of `slots`.
  const std::int64_t pairs = nsys * blocks, slots = std::min<std::int64_t>(pairs, 4);
  std::vector<std::array<Tile, 2>> pp(static_cast<std::size_t>(slots)), qq(static_cast<std::size_t>(slots));
  for (std::int64_t s = 0; s < slots; ++s)
    for (int f = 0; f < 2; ++f) {
      // No poison fill (host work only: the same trace): every view of them is a matmul's
      // non-accumulating destination before it is read, and a 1 x 1 solve (no Newton step) never
      // touches them, so poisoning 2 x 2 x 64 KiB of PSUM was a third of its host time.
      pp[static_cast<std::size_t>(s)][f] = frame.ps.alloc(DType::f32, frame.Pi, {P}, "T X", 0, kWrittenFirst);
      qq[static_cast<std::size_t>(s)][f] = frame.ps.alloc(DType::f32, frame.Pi, {P}, "X (T X - I)", 0, kWrittenFirst);
    }
  const auto ptile = [&](auto& set, std::int64_t g, int f) {
    const std::int64_t w = frame.width(g % blocks);
    return set[static_cast<std::size_t>(g % slots)][f].rows(0, rows32(w)).cols(0, w);
  };
  const auto block_of = [&](std::int64_t g) -> RealDiag& {
    return sys[static_cast<std::size_t>(g / blocks)].d[static_cast<std::size_t>(g % blocks)];
  };
  const auto newton_of = [&](std::int64_t g) { return newton_steps(frame.width(g % blocks)); };
  int steps = 0;
  for (std::int64_t b = 0; b < blocks; ++b) steps = std::max(steps, newton_steps(frame.width(b)));
  for (std::int64_t g0 = 0; g0 < pairs; g0 += slots) {  // groups of `slots` blocks, interleaved
    const std::int64_t g1 = std::min(pairs, g0 + slots);
    for (int step = 0; step < steps; ++step) {
      for (std::int64_t g = g0; g < g1; ++g) {
        if (step >= newton_of(g)) continue;
        const bool last = step + 1 == newton_of(g);  // V only: W is not read afterwards
        RealDiag& x = block_of(g);
        if (!last) nc.nc_matmul(ptile(pp, g, 0), x.u, x.w, false);  // T W
        nc.nc_matmul(ptile(pp, g, 1), x.t, x.v, false);              // T^T V
      }
      for (std::int64_t g = g0; g < g1; ++g) {
        if (step >= newton_of(g)) continue;
        const bool last = step + 1 == newton_of(g);
        RealDiag& x = block_of(g);
        const std::int64_t w = frame.width(g % blocks);
        const Tile id = ident.rows(0, rows32(w)).cols(0, w);
        if (!last) nc.tensor_tensor(x.pw, ptile(pp, g, 0), id, AluOp::subtract);
        nc.tensor_tensor(x.pv, ptile(pp, g, 1), id, AluOp::subtract);
      }
      for (std::int64_t g = g0; g < g1; ++g) {
        if (step >= newton_of(g)) continue;
        const bool last = step + 1 == newton_of(g);
        RealDiag& x = block_of(g);
        if (!last) nc.nc_matmul(ptile(qq, g, 0), x.v, x.pw, false);  // V^T (T W - I)
        nc.nc_matmul(ptile(qq, g, 1), x.w, x.pv, false);              // W^T (T^T V - I)
      }
      for (std::int64_t g = g0; g < g1; ++g) {
        if (step >= newton_of(g)) continue;
        const bool last = step + 1 == newton_of(g);
        RealDiag& x = block_of(g);
        if (!last) nc.tensor_tensor(x.w, x.w, ptile(qq, g, 0), AluOp::subtract);
        nc.tensor_tensor(x.v, x.v, ptile(qq, g, 1), AluOp::subtract);
      }
    }
  }

  // ---- 2'. the inverse: X = E^-1 by block columns --------------------------------------------------
  // Block column c of X solves E X_c = I_c, whose block rows before c in solve order are exact zeros
  // (not computed): its rows run c, c + 1, ... (lower; upper c, c - 1, ...) with step 2's arithmetic —
  // R_b = I (b = c) or 0 - sum_k E_bk X_kc over the solved k between c and b, X_bc = V_b^T R_b, one
  // refinement step — so each column of X is, to the sign of zeros, the narrow solve of E x = e_j
  // (tested bit for bit). The block columns are independent chains, interleaved step by step.
  if (p0.x != nullptr) {  // (one system)
    const NarrowTrsm<float>& p = p0;
    const std::vector<RealDiag>& d = sys[0].d;
    const std::vector<Tile>& et = sys[0].et;
    const auto ci = [](std::int64_t c) { return static_cast<std::size_t>(c); };
    std::vector<Tile> xc(ci(blocks)), rc(ci(blocks)), sc(ci(blocks)), acc(ci(blocks)), xp(ci(blocks));
    std::vector<Tile> stored(ci(blocks)), merged(ci(blocks));
    const auto x_view = [&](std::int64_t b, std::int64_t c) {
      return tile::hbm_view(p.x + b * P + c * P * p.ldx, DType::f32, rows32(frame.width(b)), 1, {{frame.width(c), p.ldx}});
    };
    for (std::int64_t c = 0; c < blocks; ++c) {
      xc[ci(c)] = frame.sb.alloc(DType::f32, frame.Pi, {blocks * P}, "X block column", 0, kWrittenFirst);
      rc[ci(c)] = frame.sb.alloc(DType::f32, frame.Pi, {P}, "R_bc", 0, kWrittenFirst);
      sc[ci(c)] = frame.sb.alloc(DType::f32, frame.Pi, {P}, "refinement residual", 0, kWrittenFirst);
      stored[ci(c)] = frame.sb.alloc(DType::f32, rows32(frame.width(c)), {frame.width(c)}, "X_cc as stored", 0, kWrittenFirst);
      merged[ci(c)] = frame.sb.alloc(DType::f32, rows32(frame.width(c)), {frame.width(c)}, "X_cc merged", 0, kWrittenFirst);
      acc[ci(c)] = frame.ps.alloc(DType::f32, frame.Pi, {P}, "E_bK X_Kc", 0, kWrittenFirst);
      xp[ci(c)] = frame.ps.alloc(DType::f32, frame.Pi, {P}, "V_b^T R_bc", 0, kWrittenFirst);
      nc.dma_copy(stored[ci(c)], x_view(c, c));  // before any write of X (X may be E: in place)
    }
    const auto row_of = [&](std::int64_t c, std::int64_t step) { return p.lower ? c + step : c - step; };
    const auto x_of = [&](std::int64_t k, std::int64_t c) {  // X_kc in block column c's tile
      return xc[ci(c)].rows(0, rows32(frame.width(k))).cols(k * P, frame.width(c));
    };
    const auto fit = [&](const Tile& t, std::int64_t b, std::int64_t c) {
      return t.rows(0, rows32(frame.width(b))).cols(0, frame.width(c));
    };
    for (std::int64_t step = 0; step < blocks; ++step) {
      std::vector<std::int64_t> cols;  // the block columns that have a block row at this step
      for (std::int64_t c = 0; c < blocks; ++c)
        if (const std::int64_t b = row_of(c, step); b >= 0 && b < blocks) cols.push_back(c);
      const auto r_of = [&](std::int64_t c) {
        const std::int64_t b = row_of(c, step);
        return step == 0 ? ident.rows(0, rows32(frame.width(b))).cols(0, frame.width(b)) : fit(rc[ci(c)], b, c);
      };
      if (step > 0) {
        for (const std::int64_t c : cols) {  // E_bK X_Kc, K the solved rows c..b-1 (upper: b+1..c)
          const std::int64_t b = row_of(c, step), k0 = p.lower ? c : b + 1, k1 = p.lower ? b : c + 1;
          for (std::int64_t k = k0; k < k1; ++k)
            nc.nc_matmul(fit(acc[ci(c)], b, c), et[static_cast<std::size_t>(b * blocks + k)], x_of(k, c), k != k0);
        }
        for (const std::int64_t c : cols) {
          const std::int64_t b = row_of(c, step);
          nc.tensor_scalar(fit(rc[ci(c)], b, c), fit(acc[ci(c)], b, c), AluOp::multiply, -1.0f);
        }
      }
      for (const std::int64_t c : cols) {
        const std::int64_t b = row_of(c, step);
        nc.nc_matmul(fit(xp[ci(c)], b, c), d[static_cast<std::size_t>(b)].v, r_of(c), false);  // V^T r
      }
      for (const std::int64_t c : cols) nc.tensor_copy(x_of(row_of(c, step), c), fit(xp[ci(c)], row_of(c, step), c));
      for (const std::int64_t c : cols) {  // refinement: s = r - T_b x, x += V^T s
        const std::int64_t b = row_of(c, step);
        nc.nc_matmul(fit(xp[ci(c)], b, c), d[static_cast<std::size_t>(b)].u, x_of(b, c), false);
      }
      for (const std::int64_t c : cols) {
        const std::int64_t b = row_of(c, step);
        nc.tensor_tensor(fit(sc[ci(c)], b, c), r_of(c), fit(xp[ci(c)], b, c), AluOp::subtract);
      }
      for (const std::int64_t c : cols) {
        const std::int64_t b = row_of(c, step);
        nc.nc_matmul(fit(xp[ci(c)], b, c), d[static_cast<std::size_t>(b)].v, fit(sc[ci(c)], b, c), false);
      }
      for (const std::int64_t c : cols) {
        const std::int64_t b = row_of(c, step);
        nc.tensor_tensor(x_of(b, c), x_of(b, c), fit(xp[ci(c)], b, c), AluOp::add);
        if (b == c) {
          merge_diagonal_block(nc, merged[ci(c)], x_of(c, c), stored[ci(c)], frame.width(c), p.lower, p.unit);
          nc.dma_copy(x_view(c, c), merged[ci(c)]);
        } else {
          nc.dma_copy(x_view(b, c), x_of(b, c));
        }
      }
    }
    return;
  }

  // ---- 2. block rows in solve order --------------------------------------------------------------
  for (std::int64_t q = 0; q < nsys; ++q) {
    const NarrowTrsm<float>& p = systems[static_cast<std::size_t>(q)];
    RealSystem& S = sys[static_cast<std::size_t>(q)];
    if (p.alpha != 1.0f)
      for (std::int64_t b = 0; b < blocks; ++b) nc.tensor_scalar(col(S.zt, b), col(S.zt, b), AluOp::multiply, p.alpha);
  }
  for (RealSystem& S : sys) {
    S.acc = frame.ps.alloc(DType::f32, frame.Pi, {blocks * nrhs}, "E_bK Y_K", 0, kWrittenFirst);
    S.yp = frame.ps.alloc(DType::f32, frame.Pi, {blocks * nrhs}, "V_b^T R_b", 0, kWrittenFirst);
  }
  std::vector<Tile> r(sys.size());
  for (std::int64_t step = 0; step < blocks; ++step) {
    const std::int64_t b = p0.lower ? step : blocks - 1 - step;
    bool solved = false;  // block row b has solved blocks (the same in every system)
    for (std::size_t q = 0; q < sys.size(); ++q) {
      RealSystem& S = sys[q];
      r[q] = col(S.zt, b);
      bool first = true;
      for (std::int64_t k = 0; k < blocks; ++k) {
        if (p0.lower ? k >= b : k <= b) continue;
        nc.nc_matmul(col(S.acc, b), S.et[static_cast<std::size_t>(b * blocks + k)], col(S.yt, k), !first);
        first = false;
      }
      solved = !first;
    }
    for (std::size_t q = 0; solved && q < sys.size(); ++q) {
      RealSystem& S = sys[q];
      nc.tensor_tensor(col(S.rt, b), col(S.zt, b), col(S.acc, b), AluOp::subtract);
      r[q] = col(S.rt, b);
    }
    for (std::size_t q = 0; q < sys.size(); ++q)  // y = V^T r
      nc.nc_matmul(col(sys[q].yp, b), sys[q].d[static_cast<std::size_t>(b)].v, r[q], false);
    for (RealSystem& S : sys) nc.tensor_copy(col(S.yt, b), col(S.yp, b));
    // One step of refinement in working precision: s = r - T_b y, y += V^T s.
    for (RealSystem& S : sys) nc.nc_matmul(col(S.yp, b), S.d[static_cast<std::size_t>(b)].u, col(S.yt, b), false);
    for (std::size_t q = 0; q < sys.size(); ++q)
      nc.tensor_tensor(col(sys[q].st, b), r[q], col(sys[q].yp, b), AluOp::subtract);
    for (RealSystem& S : sys) nc.nc_matmul(col(S.yp, b), S.d[static_cast<std::size_t>(b)].v, col(S.st, b), false);
    for (RealSystem& S : sys) nc.tensor_tensor(col(S.yt, b), col(S.yt, b), col(S.yp, b), AluOp::add);
    for (std::int64_t q = 0; q < nsys; ++q)
      nc.dma_copy(z_block(systems[static_cast<std::size_t>(q)], b), col(sys[static_cast<std::size_t>(q)].yt, b));
  }
}

// The complex form: every matrix as planes (re, im, and -im for a stationary operand) and every
// complex product as four real matmuls into two PSUM accumulations,
//   re = A_re^T B_re + (-A_im)^T B_im,   im = A_re^T B_im + A_im^T B_re
// (the 4M scheme; each component one fp32 PSUM sum of 2k exact products). The steps are those of
// the real kernel; X_0 = diag(1 / t_ii) by the scaled complex reciprocal of tile/complex.hpp.
// Accuracy (|z| = |re| + |im|): the real bound with every product's sum of w terms replaced by 2w
// (and the reciprocal's gamma_7 in X_0, which the Newton steps correct): |r_b - T_b y_b| <=
// gamma_{2w+4} (|r_b| + |T_b| |y_b|) + 4 gamma_{6w+4}^2 (|T_b| |T_b^-1|)^4 |r_b|.
void trsm_narrow_kernel(NeuronCore& nc, const NarrowTrsm<std::complex<float>>& p) {
  BlockFrame frame(nc, PlanKey{&nc.hw(), true, p.x != nullptr, p.lower, p.order, p.nrhs, 1});
  const std::int64_t P = frame.P, blocks = frame.blocks, nrhs = p.nrhs;
  const float* ef = reinterpret_cast<const float*>(p.e);
  float* zf = reinterpret_cast<float*>(p.z);
  // Plane `part` (0 re, 1 im) of E's block (i0.., j0..), partitions along i (direct) or j (transposed).
  const auto e_plane = [&](std::int64_t i0, std::int64_t h, std::int64_t j0, std::int64_t w, bool transposed, int part) {
    const float* base = ef + 2 * (i0 * p.si + j0 * p.sj) + part;
    return transposed ? tile::hbm_view(base, DType::f32, rows32(w), 2 * p.sj, {{h, 2 * p.si}})
                      : tile::hbm_view(base, DType::f32, rows32(h), 2 * p.si, {{w, 2 * p.sj}});
  };
  const auto z_plane = [&](std::int64_t b, int part) {
    return tile::hbm_view(zf + 2 * b * P * p.es + part, DType::f32, rows32(frame.width(b)), 2 * p.es, {{nrhs, 2 * p.rs}});
  };
  struct Cx {
    Tile re, im, nim;  // nim = -im (a stationary operand's imaginary plane in the real part)
  };
  const auto alloc_cx = [&](std::int64_t rows, std::int64_t cols, const char* name, bool with_nim) {
    Cx c;
    c.re = frame.sb.alloc(DType::f32, rows32(rows), {cols}, name, 0, kWrittenFirst);
    c.im = frame.sb.alloc(DType::f32, rows32(rows), {cols}, name, 0, kWrittenFirst);
    if (with_nim) c.nim = frame.sb.alloc(DType::f32, rows32(rows), {cols}, name, 0, kWrittenFirst);
    return c;
  };
  // dst (PSUM planes) = stat^T mov (complex), or += when accumulate.
  const auto cmatmul = [&](const Tile& dre, const Tile& dim, const Cx& stat, const Tile& mre, const Tile& mim,
                           bool accumulate) {
    nc.nc_matmul(dre, stat.re, mre, accumulate);
    nc.nc_matmul(dre, stat.nim, mim, true);
    nc.nc_matmul(dim, stat.re, mim, accumulate);
    nc.nc_matmul(dim, stat.im, mre, true);
  };

  const Tile ident = identity_tile(nc, frame);
  Cx zt, yt, rt, st;
  Tile scratch;
  const auto col = [&](const Tile& t, std::int64_t b) { return t.rows(0, rows32(frame.width(b))).cols(b * nrhs, nrhs); };
  if (p.x == nullptr) {  // (the inverse: below)
    zt = alloc_cx(P, blocks * nrhs, "Z blocks", false);
    yt = alloc_cx(P, blocks * nrhs, "Y blocks", false);
    rt = alloc_cx(P, blocks * nrhs, "R blocks", false);
    st = alloc_cx(P, blocks * nrhs, "refinement residuals", false);
    scratch = frame.sb.alloc(DType::f32, frame.Pi, {3 * nrhs}, "alpha z", 0, kWrittenFirst);
    for (std::int64_t b = 0; b < blocks; ++b) {
      nc.dma_copy(col(zt.re, b), z_plane(b, 0));
      nc.dma_copy(col(zt.im, b), z_plane(b, 1));
    }
  }

  struct Diag {
    Cx t, u, w, v, pw, pv;
  };
  std::vector<Diag> d(static_cast<std::size_t>(blocks));
  const std::int64_t lsign = p.lower ? 1 : -1;
  const AluOp keep = p.unit ? AluOp::greater : AluOp::greater_equal;
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t w = frame.width(b), e0 = b * P;
    Diag& x = d[static_cast<std::size_t>(b)];
    x.t = alloc_cx(w, w, "T_b", true);
    x.u = alloc_cx(w, w, "T_b^T", true);
    x.w = alloc_cx(w, w, "W_b", true);
    x.v = alloc_cx(w, w, "V_b", true);
    x.pw = alloc_cx(w, w, "T W - I", false);
    x.pv = alloc_cx(w, w, "T^T V - I", false);
    for (int part = 0; part < 2; ++part) {
      nc.dma_copy(part == 0 ? x.t.re : x.t.im, e_plane(e0, w, e0, w, false, part));
      nc.dma_copy(part == 0 ? x.u.re : x.u.im, e_plane(e0, w, e0, w, true, part));
    }
  }
  std::vector<Cx> et(static_cast<std::size_t>(blocks * blocks));
  for (std::int64_t b = 0; b < blocks; ++b)
    for (std::int64_t k = 0; k < blocks; ++k) {
      if (p.lower ? k >= b : k <= b) continue;
      Cx& t = et[static_cast<std::size_t>(b * blocks + k)];
      t = alloc_cx(frame.width(k), frame.width(b), "E_bk^T", true);
      nc.dma_copy(t.re, e_plane(b * P, frame.width(b), k * P, frame.width(k), true, 0));
      nc.dma_copy(t.im, e_plane(b * P, frame.width(b), k * P, frame.width(k), true, 1));
      // op(E)'s im and -im: the stored im and its negation, swapped for op C (E = conj(stored)).
      nc.tensor_scalar(t.nim, t.im, AluOp::multiply, -1.0f);
      if (p.conj) std::swap(t.im, t.nim);
    }
  Tile work = frame.sb.alloc(DType::f32, frame.Pi, {8 * blocks}, "t_ii and its reciprocal", 0, kWrittenFirst);
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t w = frame.width(b);
    Diag& x = d[static_cast<std::size_t>(b)];
    const Tile id = ident.rows(0, rows32(w)).cols(0, w);
    for (Cx* c : {&x.t, &x.u}) {
      const bool transposed = c == &x.u;
      keep_triangle(nc, c->re, w, transposed ? -lsign : lsign, keep);
      keep_triangle(nc, c->im, w, transposed ? -lsign : lsign, keep);
      if (p.unit) nc.tensor_tensor(c->re, c->re, id, AluOp::add);
      nc.tensor_scalar(c->nim, c->im, AluOp::multiply, -1.0f);
      if (p.conj) std::swap(c->im, c->nim);  // op C: E = conj(stored)
    }
    const auto wk = [&](int i) { return work.rows(0, rows32(w)).cols(8 * b + i, 1); };
    if (p.unit) {
      nc.tensor_copy(x.w.re, id);
      nc.memset(x.w.im, 0.0f);
      nc.memset(x.w.nim, 0.0f);
    } else {  // X_0 = diag(1 / t_ii)
      const std::array<std::int64_t, 2> pattern{-1, w};
      nc.affine_select(x.pw.re, std::span(&pattern, 1), 0, 1, AluOp::equal, x.t.re, 0.0f);
      nc.affine_select(x.pw.im, std::span(&pattern, 1), 0, 1, AluOp::equal, x.t.im, 0.0f);
      nc.tensor_reduce(wk(0), x.pw.re, AluOp::add);
      nc.tensor_reduce(wk(1), x.pw.im, AluOp::add);
      nc.tensor_tensor(wk(2), wk(0), wk(1), AluOp::abs_max);
      const tile::ReciprocalWork rw{wk(3), wk(4), wk(5), wk(0)};  // t reuses t_ii.re, read only before t is written
      const tile::ComplexPlanes r{wk(6), wk(7)};
      tile::complex_reciprocal(nc, wk(0), wk(1), wk(2), rw, r);
      nc.tensor_scalar(x.w.re, id, AluOp::multiply, r.re);
      nc.tensor_scalar(x.w.im, id, AluOp::multiply, r.im);
      nc.tensor_scalar(x.w.nim, id, AluOp::multiply, r.im, AluOp::multiply, -1.0f);
    }
    nc.tensor_copy(x.v.re, x.w.re);
    nc.tensor_copy(x.v.im, x.w.im);
    nc.tensor_copy(x.v.nim, x.w.nim);
  }
  // PSUM: [form][re, im] per block in flight (2 blocks at once, 2 KiB each); Q reuses P's banks.
  const std::int64_t slots = std::min<std::int64_t>(blocks, 2);
  std::vector<std::array<Tile, 4>> pp(static_cast<std::size_t>(slots));
  for (std::int64_t s = 0; s < slots; ++s)
    for (int f = 0; f < 4; ++f)  // no poison fill, as the real kernel's (written by a matmul first)
      pp[static_cast<std::size_t>(s)][f] =
          frame.ps.alloc(DType::f32, frame.Pi, {P}, "complex products", 0, kWrittenFirst);
  const auto ptile = [&](std::int64_t b, int f) {
    return pp[static_cast<std::size_t>(b % slots)][f].rows(0, rows32(frame.width(b))).cols(0, frame.width(b));
  };
  int steps = 0;
  for (std::int64_t b = 0; b < blocks; ++b) steps = std::max(steps, newton_steps(frame.width(b)));
  for (std::int64_t g0 = 0; g0 < blocks; g0 += slots) {
    const std::int64_t g1 = std::min(blocks, g0 + slots);
    for (int step = 0; step < steps; ++step) {
      const auto active = [&](std::int64_t b) { return step < newton_steps(frame.width(b)); };
      const auto last = [&](std::int64_t b) { return step + 1 == newton_steps(frame.width(b)); };
      for (std::int64_t b = g0; b < g1; ++b) {
        if (!active(b)) continue;
        Diag& x = d[static_cast<std::size_t>(b)];
        if (!last(b)) cmatmul(ptile(b, 0), ptile(b, 1), x.u, x.w.re, x.w.im, false);  // T W
        cmatmul(ptile(b, 2), ptile(b, 3), x.t, x.v.re, x.v.im, false);              // T^T V
      }
      for (std::int64_t b = g0; b < g1; ++b) {
        if (!active(b)) continue;
        Diag& x = d[static_cast<std::size_t>(b)];
        const Tile id = ident.rows(0, rows32(frame.width(b))).cols(0, frame.width(b));
        if (!last(b)) {
          nc.tensor_tensor(x.pw.re, ptile(b, 0), id, AluOp::subtract);
          nc.tensor_copy(x.pw.im, ptile(b, 1));
        }
        nc.tensor_tensor(x.pv.re, ptile(b, 2), id, AluOp::subtract);
        nc.tensor_copy(x.pv.im, ptile(b, 3));
      }
      for (std::int64_t b = g0; b < g1; ++b) {
        if (!active(b)) continue;
        Diag& x = d[static_cast<std::size_t>(b)];
        if (!last(b)) cmatmul(ptile(b, 0), ptile(b, 1), x.v, x.pw.re, x.pw.im, false);  // V^T (T W - I)
        cmatmul(ptile(b, 2), ptile(b, 3), x.w, x.pv.re, x.pv.im, false);              // W^T (T^T V - I)
      }
      for (std::int64_t b = g0; b < g1; ++b) {
        if (!active(b)) continue;
        Diag& x = d[static_cast<std::size_t>(b)];
        const auto update = [&](Cx& c, int f) {  // c -= Q, -im first (it reads the old im)
          nc.tensor_tensor(c.nim, ptile(b, f + 1), c.im, AluOp::subtract);
          nc.tensor_tensor(c.re, c.re, ptile(b, f), AluOp::subtract);
          nc.tensor_tensor(c.im, c.im, ptile(b, f + 1), AluOp::subtract);
        };
        if (!last(b)) update(x.w, 0);
        update(x.v, 2);
      }
    }
  }

  // The inverse X = E^-1 by block columns, as the real kernel's (its step 2'): R_bc = I + 0 i (b = c)
  // or 0 - sum_k E_bk X_kc, X_bc = V_b^T R_bc, one refinement step.
  if (p.x != nullptr) {
    const auto ci = [](std::int64_t c) { return static_cast<std::size_t>(c); };
    std::vector<Cx> xc(ci(blocks)), rc(ci(blocks)), sc(ci(blocks));
    std::vector<std::array<Tile, 2>> acc(ci(blocks)), xp(ci(blocks));
    Tile zeros = frame.sb.alloc(DType::f32, frame.Pi, {P}, "zeros", 0, kWrittenFirst);
    nc.memset(zeros, 0.0f);
    float* xf = reinterpret_cast<float*>(p.x);
    const auto x_plane = [&](std::int64_t b, std::int64_t c, int part) {
      return tile::hbm_view(xf + 2 * (b * P + c * P * p.ldx) + part, DType::f32, rows32(frame.width(b)), 2,
                            {{frame.width(c), 2 * p.ldx}});
    };
    std::vector<Cx> stored(ci(blocks)), merged(ci(blocks));
    for (std::int64_t c = 0; c < blocks; ++c) {
      xc[ci(c)] = alloc_cx(P, blocks * P, "X block column", false);
      rc[ci(c)] = alloc_cx(P, P, "R_bc", false);
      sc[ci(c)] = alloc_cx(P, P, "refinement residual", false);
      stored[ci(c)] = alloc_cx(frame.width(c), frame.width(c), "X_cc as stored", false);
      merged[ci(c)] = alloc_cx(frame.width(c), frame.width(c), "X_cc merged", false);
      for (int f = 0; f < 2; ++f) {
        acc[ci(c)][f] = frame.ps.alloc(DType::f32, frame.Pi, {P}, "E_bK X_Kc", 0, kWrittenFirst);
        xp[ci(c)][f] = frame.ps.alloc(DType::f32, frame.Pi, {P}, "V_b^T R_bc", 0, kWrittenFirst);
      }
      nc.dma_copy(stored[ci(c)].re, x_plane(c, c, 0));  // before any write of X (X may be E: in place)
      nc.dma_copy(stored[ci(c)].im, x_plane(c, c, 1));
    }
    const auto row_of = [&](std::int64_t c, std::int64_t step) { return p.lower ? c + step : c - step; };
    const auto x_of = [&](const Tile& t, std::int64_t k, std::int64_t c) {  // X_kc's plane in block column c's tile
      return t.rows(0, rows32(frame.width(k))).cols(k * P, frame.width(c));
    };
    const auto fit = [&](const Tile& t, std::int64_t b, std::int64_t c) {
      return t.rows(0, rows32(frame.width(b))).cols(0, frame.width(c));
    };
    for (std::int64_t step = 0; step < blocks; ++step) {
      std::vector<std::int64_t> cols;
      for (std::int64_t c = 0; c < blocks; ++c)
        if (const std::int64_t b = row_of(c, step); b >= 0 && b < blocks) cols.push_back(c);
      const auto r_re = [&](std::int64_t c) {
        const std::int64_t b = row_of(c, step);
        return step == 0 ? ident.rows(0, rows32(frame.width(b))).cols(0, frame.width(b)) : fit(rc[ci(c)].re, b, c);
      };
      const auto r_im = [&](std::int64_t c) {
        const std::int64_t b = row_of(c, step);
        return step == 0 ? zeros.rows(0, rows32(frame.width(b))).cols(0, frame.width(b)) : fit(rc[ci(c)].im, b, c);
      };
      if (step > 0) {
        for (const std::int64_t c : cols) {
          const std::int64_t b = row_of(c, step), k0 = p.lower ? c : b + 1, k1 = p.lower ? b : c + 1;
          const Cx& x = xc[ci(c)];
          for (std::int64_t k = k0; k < k1; ++k)
            cmatmul(fit(acc[ci(c)][0], b, c), fit(acc[ci(c)][1], b, c), et[static_cast<std::size_t>(b * blocks + k)],
                    x_of(x.re, k, c), x_of(x.im, k, c), k != k0);
        }
        for (const std::int64_t c : cols) {
          const std::int64_t b = row_of(c, step);
          nc.tensor_scalar(fit(rc[ci(c)].re, b, c), fit(acc[ci(c)][0], b, c), AluOp::multiply, -1.0f);
          nc.tensor_scalar(fit(rc[ci(c)].im, b, c), fit(acc[ci(c)][1], b, c), AluOp::multiply, -1.0f);
        }
      }
      for (const std::int64_t c : cols) {
        const std::int64_t b = row_of(c, step);
        cmatmul(fit(xp[ci(c)][0], b, c), fit(xp[ci(c)][1], b, c), d[static_cast<std::size_t>(b)].v, r_re(c), r_im(c),
                false);  // V^T r
      }
      for (const std::int64_t c : cols) {
        const std::int64_t b = row_of(c, step);
        nc.tensor_copy(x_of(xc[ci(c)].re, b, c), fit(xp[ci(c)][0], b, c));
        nc.tensor_copy(x_of(xc[ci(c)].im, b, c), fit(xp[ci(c)][1], b, c));
      }
      for (const std::int64_t c : cols) {  // refinement: s = r - T_b x, x += V^T s
        const std::int64_t b = row_of(c, step);
        cmatmul(fit(xp[ci(c)][0], b, c), fit(xp[ci(c)][1], b, c), d[static_cast<std::size_t>(b)].u,
                x_of(xc[ci(c)].re, b, c), x_of(xc[ci(c)].im, b, c), false);
      }
      for (const std::int64_t c : cols) {
        const std::int64_t b = row_of(c, step);
        nc.tensor_tensor(fit(sc[ci(c)].re, b, c), r_re(c), fit(xp[ci(c)][0], b, c), AluOp::subtract);
        nc.tensor_tensor(fit(sc[ci(c)].im, b, c), r_im(c), fit(xp[ci(c)][1], b, c), AluOp::subtract);
      }
      for (const std::int64_t c : cols) {
        const std::int64_t b = row_of(c, step);
        cmatmul(fit(xp[ci(c)][0], b, c), fit(xp[ci(c)][1], b, c), d[static_cast<std::size_t>(b)].v,
                fit(sc[ci(c)].re, b, c), fit(sc[ci(c)].im, b, c), false);
      }
      for (const std::int64_t c : cols) {
        const std::int64_t b = row_of(c, step);
        const Cx& x = xc[ci(c)];
        nc.tensor_tensor(x_of(x.re, b, c), x_of(x.re, b, c), fit(xp[ci(c)][0], b, c), AluOp::add);
        nc.tensor_tensor(x_of(x.im, b, c), x_of(x.im, b, c), fit(xp[ci(c)][1], b, c), AluOp::add);
        for (int part = 0; part < 2; ++part) {
          const Tile xpart = x_of(part == 0 ? x.re : x.im, b, c);
          if (b == c) {
            const Tile& out = part == 0 ? merged[ci(c)].re : merged[ci(c)].im;
            merge_diagonal_block(nc, out, xpart, part == 0 ? stored[ci(c)].re : stored[ci(c)].im, frame.width(c), p.lower,
                                 p.unit);
            nc.dma_copy(x_plane(c, c, part), out);
          } else {
            nc.dma_copy(x_plane(b, c, part), xpart);
          }
        }
      }
    }
    return;
  }

  if (p.alpha != std::complex<float>(1.0f))
    for (std::int64_t b = 0; b < blocks; ++b) {
      const std::int64_t w = frame.width(b);
      const auto s3 = [&](int i) { return scratch.rows(0, rows32(w)).cols(i * nrhs, nrhs); };
      tile::complex_scale(nc, {col(zt.re, b), col(zt.im, b)}, p.alpha.real(), p.alpha.imag(), s3(0), s3(1), s3(2));
    }
  Tile acc_re = frame.ps.alloc(DType::f32, frame.Pi, {blocks * nrhs}, "E_bK Y_K re", 0, kWrittenFirst);
  Tile acc_im = frame.ps.alloc(DType::f32, frame.Pi, {blocks * nrhs}, "E_bK Y_K im", 0, kWrittenFirst);
  Tile yp_re = frame.ps.alloc(DType::f32, frame.Pi, {blocks * nrhs}, "V_b^T R_b re", 0, kWrittenFirst);
  Tile yp_im = frame.ps.alloc(DType::f32, frame.Pi, {blocks * nrhs}, "V_b^T R_b im", 0, kWrittenFirst);
  for (std::int64_t step = 0; step < blocks; ++step) {
    const std::int64_t b = p.lower ? step : blocks - 1 - step;
    Tile r_re = col(zt.re, b), r_im = col(zt.im, b);
    bool first = true;
    for (std::int64_t k = 0; k < blocks; ++k) {
      if (p.lower ? k >= b : k <= b) continue;
      cmatmul(col(acc_re, b), col(acc_im, b), et[static_cast<std::size_t>(b * blocks + k)], col(yt.re, k),
              col(yt.im, k), !first);
      first = false;
    }
    if (!first) {
      nc.tensor_tensor(col(rt.re, b), col(zt.re, b), col(acc_re, b), AluOp::subtract);
      nc.tensor_tensor(col(rt.im, b), col(zt.im, b), col(acc_im, b), AluOp::subtract);
      r_re = col(rt.re, b);
      r_im = col(rt.im, b);
    }
    const Diag& x = d[static_cast<std::size_t>(b)];
    cmatmul(col(yp_re, b), col(yp_im, b), x.v, r_re, r_im, false);  // y = V^T r
    nc.tensor_copy(col(yt.re, b), col(yp_re, b));
    nc.tensor_copy(col(yt.im, b), col(yp_im, b));
    // One step of refinement in working precision: s = r - T_b y, y += V^T s.
    cmatmul(col(yp_re, b), col(yp_im, b), x.u, col(yt.re, b), col(yt.im, b), false);  // T_b y
    nc.tensor_tensor(col(st.re, b), r_re, col(yp_re, b), AluOp::subtract);
    nc.tensor_tensor(col(st.im, b), r_im, col(yp_im, b), AluOp::subtract);
    cmatmul(col(yp_re, b), col(yp_im, b), x.v, col(st.re, b), col(st.im, b), false);
    nc.tensor_tensor(col(yt.re, b), col(yt.re, b), col(yp_re, b), AluOp::add);
    nc.tensor_tensor(col(yt.im, b), col(yt.im, b), col(yp_im, b), AluOp::add);
    nc.dma_copy(z_plane(b, 0), col(yt.re, b));
    nc.dma_copy(z_plane(b, 1), col(yt.im, b));
  }
}

}  // namespace trn::blas::detail
