// fp32 and complex-fp32 (R_32F, C_32F) sparse triangular solves (SpSV / SpSM) on the emulated
// engines, blocked: 128-row blocks in solve order, each one TensorE update and a few Jacobi sweeps of
// its diagonal block (docs/trnsparse.md "the blocked schedule", "C_32F: the blocked schedule in 4M").
//
// Algorithm   Rows of op(A) in solve order (position q = i for a lower op(A), n - 1 - i for an upper
//             one, so the triangle is lower in q) are cut into blocks of 128; block b holds rows
//             q = 128 b .. 128 b + 127 on partitions 0..127. The stored 128 x 128 blocks of the strict
//             triangle are staged densely by the host (values copied into zeros, transposed so a
//             column of A's block is a partition: the matmul stationary; data movement, no
//             arithmetic). One launch runs, per block b in solve order:
//               r_b  = fl(alpha b_b) - sum_{j < b, stored} L_bj y_j    VectorE multiply; TensorE matmuls
//                                         accumulated in PSUM (fp32, exact products); VectorE subtract
//               y_b  = fl(r_b / d_b)                                    VectorE divide (unit: copy)
//               repeat levels(b) - 1 times:                            Jacobi sweep of the diagonal block
//                 y_b = fl(fl(r_b - N_b y_b) / d_b)                    TensorE matmul, VectorE subtract, divide
//             N_b the strict part of the diagonal block. A row of the block's in-block level l has all its
//             in-block dependencies at levels < l, so after sweep l its value is final and every later
//             sweep recomputes the same bits from the same final inputs (the other rows' entries are
//             exact zeros in N_b); after levels(b) - 1 sweeps every row is final. The right-hand
//             sides (op(B), staged [128, blocks x columns]) go in with one DMA, the solution out with
//             one; the blocks of L stream in strips of 16 planes of 128 x 128 per DMA through a ring of
//             four buffers, so the loads run ahead of the chain.
//             C_32F (4M, as trnblas's Cgemm and trnsparse's complex SpMM): each stored block is staged
//             as its real and imaginary planes Lr, Li (8 blocks per strip; op(A) = C flips Li's sign,
//             op(B) = C op(B)'s imaginary parts: data movement). The solution of block b is kept in SBUF
//             as three planes [-yi | yr | yi], so one PSUM accumulation takes both products of a block:
//               ps += Lr [yr | yi] + Li [-yi | yr] = [Lr yr - Li yi | Lr yi + Li yr] = [Re | Im] of L y
//             (two matmuls per stored block and per sweep, the moving operands two contiguous windows).
//             alpha b: one multiply per part (real alpha) or the level-set path's complex product; the
//             division: the level-set path's formula (t_re d_re + t_im d_im, t_im d_re - t_re d_im) /
//             (d_re^2 + d_im^2), |d|^2 formed once per row; the -yi plane from the same operands as yi.
//             Dependent steps: sum over blocks of levels(b) (113 for the bench's 4096 x 4096 lower
//             0.5%, against its 48 global levels), but each is three instructions (C_32F: two matmuls
//             and at most seven VectorE instructions) on data in SBUF / PSUM, where a level-set step is
//             two DMA round trips and one gather descriptor per entry.
// Engines     DMA (right-hand sides, staged blocks, solution), TensorE (updates, sweeps), VectorE.
//             One program on one core: deterministic for any host-thread or core count.
// Accuracy    (u = 2^-24, gamma_j = j u / (1 - j u); Higham, ASNA 2nd ed., §3.1, §3.6 and Thm 8.5.) Row i of
//             block b is y_i = fl(fl(r_i - s_i) / t_ii), r_i = fl(fl(alpha b_i) - S_i) (no subtract
//             when the block row stores no off-diagonal block): S_i sums the row's k1 off-block
//             products, s_i its k2 in-block ones, both on TensorE (nc_matmul: the product enters a
//             fused multiply-add, one rounding per step; per stored block one PSUM add; exact zero
//             terms change nothing). A product therefore meets at most k1 roundings in S_i (k2 in
//             s_i), then the two subtractions: k1 + 2 (k2 + 1); alpha b_i meets 3; the divide one more
//             on every term, moved onto t_ii. With k = k1 + k2 the row's off-diagonal entries,
//             y_hat solves (T + dT) y_hat = alpha b + db, |dT| <= gamma_{k+2} |T|, |db| <= gamma_{k+2} |alpha b|:
//               |y_hat - y| <= gamma_{k+2} M(T)^-1 (|T| |y_hat| + |alpha b|)
//             (M(T) the comparison matrix, |T^-1| <= M(T)^-1), inside the level-set path's bound
//             (gamma_{k+3} in these terms; docs/trnsparse.md), which the tests and `trnsci validate` check. The bits differ from the level-set path's (fused products,
//             blocked sum order). SpSM's column c has SpSV's bits: every operation is per column.
//             C_32F: each part of S_i (s_i) is one PSUM sum of 2 k1 (2 k2) exact real products (the
//             two planes), so a product meets at most 2 k1 + 2 (2 k2 + 1) roundings in t_i's part;
//             per part the error is <= gamma_{2k+2} sum_j (|ar||yr| + |ai||yi|) (resp. |ar||yi| +
//             |ai||yr|), each <= |t_ij||y_j|, so in modulus <= sqrt(2) gamma_{2k+2} sum_j |t_ij||y_j|.
//             fl(alpha b) is within sqrt(2) gamma_2 |alpha b| (Lemma 3.5), two part-wise roundings
//             more give <= sqrt(2) gamma_4 |alpha b|; the division y = t / d (1 + e), |e| <= sqrt(2)
//             gamma_4 (Lemma 3.5), moved onto t_ii as 1 / (1 + e) - 1, <= sqrt(2) gamma_5. So
//               |y_hat - y| <= sqrt(2) gamma_{max(2k+2, 5)} M(T)^-1 (|T| |y_hat| + |alpha b|)
//             (|.| the complex modulus): 2k where the level sets' complex bound has k (their products
//             are complex multiplies summed k-deep, docs/trnsparse.md), the cost of 4M's real sums.
// Limits      Inf / NaN: the dense stationaries hold exact zeros, and 0 * Inf = NaN would reach rows
//             that do not depend on an infinite y_j. A solve whose output holds an Inf or NaN (which
//             every Inf / NaN met on the way produces) is therefore solved again by the level sets
//             (the host scans the output; the report adds both launches), so Inf / NaN propagate only
//             along dependencies, as before. C_32F forms |d|^2 in fp32, as the level sets: diagonals
//             with |d| >= 2^64 overflow there. Host memory: one strip (1 MiB), refilled per DMA from
//             each entry's place in its strip (StripEntries: 16 bytes per stored entry); SBUF:
//             the right-hand sides and the solution, 2 x blocks x columns words per partition (C_32F
//             5 x), column passes keep that within 64 KiB.
#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "generic_host.hpp"
#include "trn/core/spmd.hpp"
#include "trn/sparse/triangular.hpp"

namespace trn::sparse {

namespace {

using generic_host::at;
std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

constexpr std::int64_t kB = kTriangularBlock;
constexpr std::int64_t kGroupSlots = 16;          // stored blocks per DMA (a [128, 16 x 128] fp32 strip: 8 KiB per partition)
constexpr std::int64_t kRing = 4;                 // strip buffers: the loads run up to three strips ahead
constexpr std::int64_t kSbufColumnWords = 8192;   // blocks x columns per pass (right-hand sides and solution: 64 KiB)
constexpr std::int64_t kMaxColumns = 512;         // matmul moving free size (one PSUM bank)
// C_32F: op(B) (2 planes) and the solution (3 planes: -im, re, im) per block and column within 64 KiB
constexpr std::int64_t kComplexColumnWords = 16384;

// The staged pattern: per block row, its stored column blocks (increasing, the diagonal block last
// when its strict part has entries), grouped by kGroupSlots into DMA strips.
struct BlockPlan {
  std::int64_t n = 0, nb = 0;
  std::int64_t planes = 1;                // words per value: 1 (R_32F), 2 (C_32F: a real and an imaginary plane per slot)
  std::vector<std::int64_t> slot_start;   // block row b: slots slot_start[b] .. slot_start[b + 1]
  std::vector<std::int64_t> slot_block;   // the column block of each slot (== b: the diagonal block)
  std::vector<std::int64_t> strip_width;  // slots in that strip
  std::vector<std::int64_t> slot_in_strip;
  std::int64_t rows_in(std::int64_t b) const { return std::min(kB, n - b * kB); }
};

std::int64_t solve_pos(const TriangularAnalysis& t, std::int64_t i) { return t.lower_op ? i : t.n - 1 - i; }

BlockPlan plan_blocks(const TriangularAnalysis& t) {
  BlockPlan p;
  p.n = t.n;
  p.planes = t.value == Value::c32 ? 2 : 1;
  const std::int64_t group = kGroupSlots / p.planes;  // slots per strip: 16 planes of 128 x 128 either way
  p.nb = (t.n + kB - 1) / kB;
  std::vector<std::int64_t> seen(z(p.nb), -1), cols;
  p.slot_start.push_back(0);
  for (std::int64_t b = 0; b < p.nb; ++b) {
    cols.clear();
    for (std::int64_t q = b * kB; q < b * kB + p.rows_in(b); ++q) {
      const std::int64_t i = t.lower_op ? q : t.n - 1 - q;
      for (std::int64_t e = t.start[z(i)]; e < t.start[z(i) + 1]; ++e) {
        const std::int64_t bj = solve_pos(t, t.col[z(e)]) / kB;
        if (seen[z(bj)] != b) {
          seen[z(bj)] = b;
          cols.push_back(bj);
        }
      }
    }
    std::sort(cols.begin(), cols.end());  // increasing: the diagonal block (the largest) last
    const std::int64_t first = static_cast<std::int64_t>(p.slot_block.size());
    for (std::size_t s = 0; s < cols.size(); ++s) {
      const std::int64_t in_strip = static_cast<std::int64_t>(s) % group;
      if (in_strip == 0) {
        const std::int64_t width = std::min<std::int64_t>(group, static_cast<std::int64_t>(cols.size() - s));
        for (std::int64_t w = 0; w < width; ++w) p.strip_width.push_back(width);
      }
      p.slot_block.push_back(cols[s]);
      p.slot_in_strip.push_back(in_strip);
    }
    p.slot_start.push_back(first + static_cast<std::int64_t>(cols.size()));
  }
  return p;
}

// Word of element [c, r] (column c of the slot's column block, row r of its block row) of plane
// `plane` (0 real, 1 imaginary) of slot s within its strip: partition c holds the strip's planes
// one after the other, each 128 words.
std::int64_t strip_at(const BlockPlan& p, std::int64_t s, std::int64_t plane, std::int64_t c, std::int64_t r) {
  return c * p.strip_width[z(s)] * p.planes * kB + (p.slot_in_strip[z(s)] * p.planes + plane) * kB + r;
}

// Where each stored entry of the strict triangle goes: grouped by strip (in the kernels' strip
// order), its word in the strip (the real plane's; the imaginary plane's is kB further) and its
// entry number in A's values. Built once per solve in one pass over the entries (one binary search
// among its block row's slots each), so staging a strip touches only that strip's entries.
struct StripEntries {
  std::vector<std::int64_t> start;  // strip k: entries start[k] .. start[k + 1]
  std::vector<std::int64_t> word, src;
};

struct BlockedSolve {
  const TriangularAnalysis* t = nullptr;
  const BlockPlan* plan = nullptr;
  const float* values = nullptr;    // A's values (NULL in timing-only runs: nothing is staged)
  float* strip = nullptr;           // one strip of stored blocks, [128, <= 16 x 128], zeros outside the entries
  const StripEntries* entries = nullptr;  // where each entry goes (NULL in timing-only runs)
  const float* diag = nullptr;      // [128, nb]: partition p, block b -> the diagonal of that row
  float* rhs = nullptr;             // [128, nb x mb]: op(B) in, the solution out (same buffer)
  std::int64_t mb = 1;              // columns of this pass
  float alpha = 1;
  float alpha_im = 0;               // C_32F: alpha's imaginary part
  float* out = nullptr;             // C_32F: the solution [128, nb x 2 mb] (rhs holds op(B) [128, nb x 2 mb])
};

struct BlockedCounts {
  std::int64_t matmuls = 0, sweeps = 0, strips = 0;
};

Tile hbm_rows(const float* base, std::int64_t width, std::int32_t rows, std::int64_t first, std::int64_t count) {
  return HbmTensor::wrap(const_cast<float*>(base), DType::f32, {kB, width}).tile(0, rows, first, count);
}

StripEntries place_entries(const TriangularAnalysis& t, const BlockPlan& p) {
  StripEntries se;
  std::vector<std::int64_t> slot_strip(p.slot_block.size());
  std::int64_t strips = 0;
  for (std::size_t s = 0; s < p.slot_block.size(); ++s) {
    if (p.slot_in_strip[s] == 0) ++strips;
    slot_strip[s] = strips - 1;
  }
  se.start.assign(z(strips) + 1, 0);
  const std::size_t entries = t.col.size();
  std::vector<std::int64_t> strip_of(entries), word_of(entries);
  for (std::int64_t b = 0; b < p.nb; ++b) {
    const auto first = p.slot_block.begin() + p.slot_start[z(b)], last = p.slot_block.begin() + p.slot_start[z(b) + 1];
    for (std::int64_t q = b * kB; q < b * kB + p.rows_in(b); ++q) {
      const std::int64_t i = t.lower_op ? q : t.n - 1 - q;
      for (std::int64_t e = t.start[z(i)]; e < t.start[z(i) + 1]; ++e) {
        const std::int64_t qj = solve_pos(t, t.col[z(e)]);
        // the slot of column block qj / kB in block row b: slots are sorted by column block
        const std::int64_t s = p.slot_start[z(b)] + (std::lower_bound(first, last, qj / kB) - first);
        strip_of[z(e)] = slot_strip[z(s)];
        word_of[z(e)] = strip_at(p, s, 0, qj % kB, q % kB);
        ++se.start[z(strip_of[z(e)]) + 1];
      }
    }
  }
  for (std::size_t k = 1; k < se.start.size(); ++k) se.start[k] += se.start[k - 1];
  std::vector<std::int64_t> next(se.start.begin(), se.start.end() - 1);
  se.word.resize(entries);
  se.src.resize(entries);
  for (std::size_t e = 0; e < entries; ++e) {
    const std::int64_t at_k = next[z(strip_of[e])]++;
    se.word[z(at_k)] = word_of[e];
    se.src[z(at_k)] = t.src[e];
  }
  return se;
}

// The entries of strip k into `strip` (write = 1), or their words back to zero (write = 0), so the
// buffer is all zeros between strips: host data movement, O(entries of the strip). The strip is
// what the emulated HBM holds for this DMA; the host reuses one buffer because every instruction
// executes when issued. C_32F: the two parts in their planes; op(A) = C stores the conjugate (a
// sign flip: data movement).
void stage_strip(const TriangularAnalysis& t, const BlockPlan& p, const StripEntries* se, std::int64_t k, const float* values,
                 float* strip, int write) {
  if (values == nullptr || se == nullptr) return;
  for (std::int64_t x = se->start[z(k)]; x < se->start[z(k) + 1]; ++x) {
    const std::size_t w = z(se->word[z(x)]), e = z(se->src[z(x)]);
    if (p.planes == 1) {
      strip[w] = write != 0 ? values[e] : 0.0f;
      continue;
    }
    strip[w] = write != 0 ? values[2 * e] : 0.0f;
    strip[w + z(kB)] = write != 0 ? (t.op == GOp::C ? -values[2 * e + 1] : values[2 * e + 1]) : 0.0f;
  }
}

// Slot s opens the next strip of stored blocks: stage it, one DMA into the next ring buffer, and
// clear the staging buffer again (both kernels; C_32F's strips hold the two planes).
void load_next_strip(NeuronCore& nc, const BlockedSolve& g, std::int64_t s, const Tile* ring, std::int64_t& strip,
                     BlockedCounts& n) {
  const TriangularAnalysis& t = *g.t;
  const BlockPlan& p = *g.plan;
  ++strip;
  const std::int64_t w = p.strip_width[z(s)] * p.planes * kB;
  stage_strip(t, p, g.entries, strip, g.values, g.strip, 1);
  nc.dma_copy(ring[strip % kRing].cols(0, w),
              HbmTensor::wrap(g.strip, DType::f32, {kB, w}).tile(0, static_cast<std::int32_t>(kB), 0, w));
  stage_strip(t, p, g.entries, strip, g.values, g.strip, 0);
  ++n.strips;
}

void blocked_kernel(NeuronCore& nc, const BlockedSolve& g, BlockedCounts& n) {
  const TriangularAnalysis& t = *g.t;
  const BlockPlan& p = *g.plan;
  const std::int64_t nb = p.nb, mb = g.mb, width = nb * mb;
  AllocScope sb(nc.sbuf()), pp(nc.psum());
  const Tile bt = sb.alloc(DType::f32, kB, {width}, "op(B) blocks");
  const Tile yt = sb.alloc(DType::f32, kB, {width}, "solution blocks");
  const Tile dt = sb.alloc(DType::f32, kB, {nb}, "diagonal");
  const Tile rt = sb.alloc(DType::f32, kB, {mb}, "r = alpha b - L y");
  const Tile tt = sb.alloc(DType::f32, kB, {mb}, "r - N y");
  Tile ring[kRing];
  for (Tile& r : ring) r = sb.alloc(DType::f32, kB, {kGroupSlots * kB}, "stored blocks (transposed)");
  const Tile ps_off = pp.alloc(DType::f32, kB, {kMaxColumns}, "off-block sums");
  const Tile ps_in = pp.alloc(DType::f32, kB, {kMaxColumns}, "in-block sums");
  nc.dma_copy(bt, hbm_rows(g.rhs, width, static_cast<std::int32_t>(kB), 0, width));
  if (!t.unit) nc.dma_copy(dt, hbm_rows(g.diag, nb, static_cast<std::int32_t>(kB), 0, nb));
  std::int64_t strip = -1;
  for (std::int64_t b = 0; b < nb; ++b) {
    const auto P = static_cast<std::int32_t>(p.rows_in(b));
    const Tile r = rt.rows(0, P), y = yt.rows(0, P).cols(b * mb, mb), ps = ps_off.rows(0, P).cols(0, mb);
    nc.tensor_scalar(r, bt.rows(0, P).cols(b * mb, mb), AluOp::multiply, g.alpha);
    bool updated = false;
    Tile diag_block;
    for (std::int64_t s = p.slot_start[z(b)]; s < p.slot_start[z(b) + 1]; ++s) {
      if (p.slot_in_strip[z(s)] == 0) load_next_strip(nc, g, s, ring, strip, n);
      const std::int64_t j = p.slot_block[z(s)];
      const Tile stationary = ring[strip % kRing].rows(0, static_cast<std::int32_t>(p.rows_in(j))).cols(p.slot_in_strip[z(s)] * kB, P);
      if (j == b) {
        diag_block = stationary;
        continue;
      }
      nc.nc_matmul(ps, stationary, yt.rows(0, static_cast<std::int32_t>(kB)).cols(j * mb, mb), updated);
      updated = true;
      ++n.matmuls;
    }
    if (updated) nc.tensor_tensor(r, r, ps, AluOp::subtract);
    if (t.unit)
      nc.tensor_copy(y, r);
    else
      nc.tensor_scalar(y, r, AluOp::divide, dt.rows(0, P).cols(b, 1));
    const Tile psi = ps_in.rows(0, P).cols(0, mb), tmp = tt.rows(0, P);
    for (std::int64_t sweep = 1; sweep < t.block_levels[z(b)]; ++sweep) {
      nc.nc_matmul(psi, diag_block, y, false);
      ++n.matmuls;
      ++n.sweeps;
      if (t.unit) {
        nc.tensor_tensor(y, r, psi, AluOp::subtract);
        continue;
      }
      nc.tensor_tensor(tmp, r, psi, AluOp::subtract);
      nc.tensor_scalar(y, tmp, AluOp::divide, dt.rows(0, P).cols(b, 1));
    }
  }
  nc.dma_copy(hbm_rows(g.rhs, width, static_cast<std::int32_t>(kB), 0, width), yt);
}

// C_32F. Per block b the SBUF solution holds three planes, [-yi | yr | yi] (mb columns each), so
// that both moving operands of the 4M update are contiguous windows: the real plane of a stored
// block multiplies [yr | yi], the imaginary plane [-yi | yr], and one PSUM accumulation per block
// row holds [Re | Im] of L y = (Lr yr - Li yi) + i (Lr yi + Li yr):
//   ps[:, 0:mb]  = sum Lr yr + Li (-yi)      ps[:, mb:2mb] = sum Lr yi + Li yr
// The division by d_i is the level-set path's formula (triangular_engine.cpp divide_by_diagonal):
// (t_re d_re + t_im d_im, t_im d_re - t_re d_im) / (d_re^2 + d_im^2), each operation one fp32
// rounding, |d|^2 formed once per row for the whole solve.
struct ComplexTiles {
  Tile dt, den, rt, tt, xt, zt, nt, a1;
};

// y (= [yr | yi], [P, 2 mb]) and yneg (= -yi, [P, mb]) from src (= [t_re | t_im]): t / d_b, or t
// itself for a unit diagonal. Six VectorE instructions (two for a unit diagonal); yneg is
// computed from the same operands as yi, so it is exactly -yi.
void complex_divide(NeuronCore& nc, const TriangularAnalysis& t, const ComplexTiles& w, std::int64_t nb, std::int64_t b,
                    std::int32_t P, std::int64_t mb, const Tile& src, const Tile& y, const Tile& yneg) {
  if (t.unit) {
    nc.tensor_copy(y, src);
    nc.tensor_scalar(yneg, src.cols(mb, mb), AluOp::multiply, -1.0f);
    return;
  }
  const Tile dr = w.dt.rows(0, P).cols(b, 1), di = w.dt.rows(0, P).cols(nb + b, 1), den = w.den.rows(0, P).cols(b, 1);
  const Tile x = w.xt.rows(0, P).cols(0, 2 * mb), zz = w.zt.rows(0, P).cols(0, 2 * mb), num = w.nt.rows(0, P).cols(0, 2 * mb);
  nc.tensor_scalar(x, src, AluOp::multiply, dr);   // [t_re d_re | t_im d_re]
  nc.tensor_scalar(zz, src, AluOp::multiply, di);  // [t_re d_im | t_im d_im]
  nc.tensor_tensor(num.cols(0, mb), x.cols(0, mb), zz.cols(mb, mb), AluOp::add);        // t_re d_re + t_im d_im
  nc.tensor_tensor(num.cols(mb, mb), x.cols(mb, mb), zz.cols(0, mb), AluOp::subtract);  // t_im d_re - t_re d_im
  nc.tensor_scalar(y, num, AluOp::divide, den);
  nc.tensor_scalar(yneg, num.cols(mb, mb), AluOp::divide, den, AluOp::multiply, -1.0f);
}

void blocked_kernel_complex(NeuronCore& nc, const BlockedSolve& g, BlockedCounts& n) {
  const TriangularAnalysis& t = *g.t;
  const BlockPlan& p = *g.plan;
  const std::int64_t nb = p.nb, mb = g.mb, w2 = 2 * mb, w3 = 3 * mb;
  AllocScope sb(nc.sbuf()), pp(nc.psum());
  const Tile bt = sb.alloc(DType::f32, kB, {nb * w2}, "op(B) blocks (re | im)");
  const Tile yt = sb.alloc(DType::f32, kB, {nb * w3}, "solution blocks (-im | re | im)");
  ComplexTiles w;
  w.dt = sb.alloc(DType::f32, kB, {2 * nb}, "diagonal (re | im)");
  w.den = sb.alloc(DType::f32, kB, {2 * nb}, "|d|^2");
  w.rt = sb.alloc(DType::f32, kB, {w2}, "r = alpha b - L y");
  w.tt = sb.alloc(DType::f32, kB, {w2}, "r - N y");
  w.xt = sb.alloc(DType::f32, kB, {w2}, "t d_re");
  w.zt = sb.alloc(DType::f32, kB, {w2}, "t d_im");
  w.nt = sb.alloc(DType::f32, kB, {w2}, "t conj(d)");
  w.a1 = sb.alloc(DType::f32, kB, {mb}, "alpha b temp");
  Tile ring[kRing];
  for (Tile& r : ring) r = sb.alloc(DType::f32, kB, {kGroupSlots * kB}, "stored blocks (transposed, re | im planes)");
  const Tile ps_off = pp.alloc(DType::f32, kB, {kMaxColumns}, "off-block sums (re | im)");
  const Tile ps_in = pp.alloc(DType::f32, kB, {kMaxColumns}, "in-block sums (re | im)");
  nc.dma_copy(bt, hbm_rows(g.rhs, nb * w2, static_cast<std::int32_t>(kB), 0, nb * w2));
  if (!t.unit) {  // |d|^2 = d_re^2 + d_im^2 for every row, once
    nc.dma_copy(w.dt, hbm_rows(g.diag, 2 * nb, static_cast<std::int32_t>(kB), 0, 2 * nb));
    const Tile den = w.den.cols(0, nb), tmp = w.den.cols(nb, nb);
    nc.tensor_tensor(den, w.dt.cols(0, nb), w.dt.cols(0, nb), AluOp::multiply);
    nc.tensor_tensor(tmp, w.dt.cols(nb, nb), w.dt.cols(nb, nb), AluOp::multiply);
    nc.tensor_tensor(den, den, tmp, AluOp::add);
  }
  std::int64_t strip = -1;
  for (std::int64_t b = 0; b < nb; ++b) {
    const auto P = static_cast<std::int32_t>(p.rows_in(b));
    const Tile r = w.rt.rows(0, P), ps = ps_off.rows(0, P).cols(0, w2);
    const Tile y = yt.rows(0, P).cols(b * w3 + mb, w2), yneg = yt.rows(0, P).cols(b * w3, mb);
    const Tile br = bt.rows(0, P).cols(b * w2, mb), bi = bt.rows(0, P).cols(b * w2 + mb, mb);
    if (g.alpha_im == 0.0f) {
      nc.tensor_scalar(r, bt.rows(0, P).cols(b * w2, w2), AluOp::multiply, g.alpha);
    } else {  // alpha b: the level-set path's complex product (scale_rhs), one rounding per product and sum
      const Tile rr = r.cols(0, mb), ri = r.cols(mb, mb), tmp = w.a1.rows(0, P);
      nc.tensor_scalar(ri, bi, AluOp::multiply, g.alpha);
      nc.tensor_scalar(tmp, br, AluOp::multiply, g.alpha_im);
      nc.tensor_tensor(ri, ri, tmp, AluOp::add);  // im = ar bi + ai br
      nc.tensor_scalar(rr, br, AluOp::multiply, g.alpha);
      nc.tensor_scalar(tmp, bi, AluOp::multiply, g.alpha_im);
      nc.tensor_tensor(rr, rr, tmp, AluOp::subtract);  // re = ar br - ai bi
    }
    bool updated = false;
    Tile diag_re, diag_im;
    for (std::int64_t s = p.slot_start[z(b)]; s < p.slot_start[z(b) + 1]; ++s) {
      if (p.slot_in_strip[z(s)] == 0) load_next_strip(nc, g, s, ring, strip, n);
      const std::int64_t j = p.slot_block[z(s)];
      const Tile planes = ring[strip % kRing].rows(0, static_cast<std::int32_t>(p.rows_in(j)));
      const Tile lr = planes.cols(2 * p.slot_in_strip[z(s)] * kB, P), li = planes.cols((2 * p.slot_in_strip[z(s)] + 1) * kB, P);
      if (j == b) {
        diag_re = lr;
        diag_im = li;
        continue;
      }
      const Tile yj = yt.rows(0, static_cast<std::int32_t>(kB));
      nc.nc_matmul(ps, lr, yj.cols(j * w3 + mb, w2), updated);  // [Lr yr | Lr yi]
      nc.nc_matmul(ps, li, yj.cols(j * w3, w2), true);          // + [-Li yi | Li yr]
      updated = true;
      n.matmuls += 2;
    }
    if (updated) nc.tensor_tensor(r, r, ps, AluOp::subtract);
    complex_divide(nc, t, w, nb, b, P, mb, r, y, yneg);
    const Tile psi = ps_in.rows(0, P).cols(0, w2), tmp = w.tt.rows(0, P);
    for (std::int64_t sweep = 1; sweep < t.block_levels[z(b)]; ++sweep) {
      nc.nc_matmul(psi, diag_re, y, false);
      nc.nc_matmul(psi, diag_im, yt.rows(0, P).cols(b * w3, w2), true);
      n.matmuls += 2;
      ++n.sweeps;
      if (t.unit) {  // y = r - N y; -yi = (N y)_im - r_im, the same rounding with the sign flipped
        nc.tensor_tensor(y, r, psi, AluOp::subtract);
        nc.tensor_tensor(yneg, psi.cols(mb, mb), r.cols(mb, mb), AluOp::subtract);
        continue;
      }
      nc.tensor_tensor(tmp, r, psi, AluOp::subtract);
      complex_divide(nc, t, w, nb, b, P, mb, tmp, y, yneg);
    }
  }
  // [yr | yi] of every block out (the -yi planes stay on chip)
  const Tile solved = yt.reshape({nb, w3}).slice(1, mb, w2);
  nc.dma_copy(HbmTensor::wrap(g.out, DType::f32, {kB, nb, w2}).tile_nd({0, 0, 0}, {kB, nb, w2}, 0), solved);
}

PlanFacts blocked_facts(const TriangularAnalysis& t, std::int64_t m, const BlockPlan& p, const BlockedCounts& n, bool fell_back,
                        double ns) {
  PlanFacts f;
  f.routine = m == 1 ? "spsv" : "spsm";
  f.shape = triangular_shape(t, m);
  f.variant = std::string(value_name(t.value)) + ": blocked, " + std::to_string(p.nb) + " blocks of 128 rows in solve order, " +
              std::to_string(p.slot_block.size()) + " stored 128 x 128 blocks staged densely" +
              (p.planes == 2 ? " as real and imaginary planes (4M: two matmuls per block and sweep)" : "") + " (" + std::to_string(n.strips) +
              " strip DMAs), " + std::to_string(n.matmuls) + " matmuls, " + std::to_string(n.sweeps) +
              " Jacobi sweeps of diagonal blocks (" + std::to_string(t.block_steps()) + " dependent steps against " +
              std::to_string(t.levels()) + " levels)" + (fell_back ? "; Inf / NaN in the output: solved again by level sets" : "");
  f.ops = triangular_ops_text(t, m);
  f.engines = "DMA (right-hand sides, staged blocks, solution), TensorE (block updates, sweeps), VectorE (subtract, divide)";
  f.predicted_ns = ns;
  f.why = p.planes == 2 ? "complex-fp32 values: a level-set step costs two DMA round trips and a descriptor per entry; a block step is two "
                          "matmuls and at most seven VectorE instructions on SBUF / PSUM data"
                        : "fp32 values: a level-set step costs two DMA round trips and a descriptor per entry; a block step is three "
                          "instructions on SBUF / PSUM data";
  return f;
}

// The solution (column-major n x m values of p.planes words) into C, or, when it holds an Inf or a
// NaN, the level sets' solve instead (see Limits); the report either way.
void finish_blocked(const Settings& s, const TriangularAnalysis& t, const BlockPlan& p, const BlockedCounts& counts, Trace trace,
                    const std::vector<float>& solution, const void* values, const void* diagonal, Scalar alpha, GOp opB,
                    const DenseAny& B, const DenseAny& C, CallReport* report) {
  const std::int64_t n = t.n, m = C.cols;
  const bool run = !solution.empty();
  bool finite = true;
  for (const float v : solution) finite = finite && std::isfinite(v);
  if (!finite) {  // Inf / NaN: the level sets propagate them along dependencies only (see Limits)
    CallReport blocked;
    const bool wanted = report != nullptr && report->plans_wanted;
    if (report != nullptr) finish_report(blocked, std::move(trace), ReportSettings::of(s));
    triangular_solve_engines(s, t, values, diagonal, alpha, opB, B, C, report);
    if (report == nullptr) return;
    Profile total = blocked.profile;
    append_sequential(total, report->profile);
    report->profile = total;
    if (wanted) report->add_plan(blocked_facts(t, m, p, counts, true, total.total_ns).print());
    return;
  }
  for (std::int64_t c = 0; c < m && run; ++c)
    for (std::int64_t i = 0; i < n; ++i) {
      const std::size_t k = z(i + c * n);
      if (p.planes == 1)
        static_cast<float*>(C.data)[at(C, i, c)] = solution[k];
      else
        static_cast<std::complex<float>*>(C.data)[at(C, i, c)] = {solution[2 * k], solution[2 * k + 1]};
    }
  if (report == nullptr) return;
  const bool wanted = report->plans_wanted;
  finish_report(*report, std::move(trace), ReportSettings::of(s));
  report->blocks = static_cast<std::int64_t>(p.slot_block.size());
  report->matmuls = counts.matmuls;
  if (wanted) report->add_plan(blocked_facts(t, m, p, counts, false, report->profile.total_ns).print());
}

// The BlockedSolve of one column pass of either value type: the solve's fixed parts (values and
// entries NULL in timing-only runs) and the pass's width and alpha; the caller sets rhs / out.
BlockedSolve column_pass(const TriangularAnalysis& t, const BlockPlan& p, const void* values, const StripEntries* entries,
                         std::vector<float>& strip, const std::vector<float>& diag, std::int64_t mb, Scalar alpha) {
  BlockedSolve g;
  g.t = &t;
  g.plan = &p;
  g.values = static_cast<const float*>(values);
  g.strip = strip.data();
  g.entries = entries;
  g.diag = diag.data();
  g.mb = mb;
  g.alpha = static_cast<float>(alpha.real());
  g.alpha_im = static_cast<float>(alpha.imag());  // read by the C_32F kernel only
  return g;
}

// C_32F: op(B), the diagonal and the solution as real and imaginary planes (host data movement;
// conjugates for op(A) = C and op(B) = C are sign flips), then blocked_kernel_complex per pass.
void solve_blocked_complex(const Settings& s, const TriangularAnalysis& t, const void* values, const void* diagonal, Scalar alpha,
                           GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report) {
  using cf = std::complex<float>;
  const std::int64_t n = t.n, m = C.cols, nb = (n + kB - 1) / kB;
  const BlockPlan p = plan_blocks(t);
  const bool run = !s.timing_only;
  const StripEntries entries = run ? place_entries(t, p) : StripEntries{};
  std::vector<float> strip(z(kB * kGroupSlots * kB), 0.0f);
  std::vector<float> diag(z(kB * 2 * nb), 0.0f);
  if (!t.unit && run)
    for (std::int64_t q = 0; q < n; ++q) {
      const std::int64_t i = t.lower_op ? q : n - 1 - q;
      const cf d = diagonal != nullptr ? static_cast<const cf*>(diagonal)[i] : static_cast<const cf*>(values)[t.diag[z(i)]];
      diag[z((q % kB) * 2 * nb + q / kB)] = d.real();
      diag[z((q % kB) * 2 * nb + nb + q / kB)] = t.op == GOp::C ? -d.imag() : d.imag();
    }
  const std::int64_t mb_max = std::clamp<std::int64_t>(kComplexColumnWords / (5 * nb), 1, kMaxColumns / 2);
  const cf* b = static_cast<const cf*>(B.data);
  BlockedCounts counts;
  Trace trace;
  std::vector<float> rhs, out;
  std::vector<float> solution(run ? z(2 * n * m) : 0);  // column-major n x m, (re, im) pairs
  for (std::int64_t c0 = 0; c0 < m && n > 0; c0 += mb_max) {
    BlockedSolve g = column_pass(t, p, run ? values : nullptr, run ? &entries : nullptr, strip, diag, std::min(mb_max, m - c0), alpha);
    const std::int64_t width = nb * 2 * g.mb;  // per block: mb real parts, then mb imaginary parts
    rhs.assign(z(kB * width), 0.0f);
    out.assign(z(kB * width), 0.0f);
    auto word = [&](std::int64_t q, std::int64_t part, std::int64_t c) { return z((q % kB) * width + (q / kB) * 2 * g.mb + part * g.mb + c); };
    if (run)
      for (std::int64_t c = 0; c < g.mb; ++c)
        for (std::int64_t q = 0; q < n; ++q) {
          const std::int64_t i = t.lower_op ? q : n - 1 - q;
          const cf v = opB == GOp::N ? b[at(B, i, c0 + c)] : b[at(B, c0 + c, i)];
          rhs[word(q, 0, c)] = v.real();
          rhs[word(q, 1, c)] = opB == GOp::C ? -v.imag() : v.imag();
        }
    g.rhs = rhs.data();
    g.out = out.data();
    LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) { blocked_kernel_complex(nc, g, counts); });
    trace.append(std::move(r.trace));
    if (run)
      for (std::int64_t c = 0; c < g.mb; ++c)
        for (std::int64_t q = 0; q < n; ++q) {
          const std::int64_t i = t.lower_op ? q : n - 1 - q;
          solution[z(2 * (i + (c0 + c) * n))] = out[word(q, 0, c)];
          solution[z(2 * (i + (c0 + c) * n) + 1)] = out[word(q, 1, c)];
        }
  }
  finish_blocked(s, t, p, counts, std::move(trace), solution, values, diagonal, alpha, opB, B, C, report);
}

}  // namespace

bool blocked_preferred(const TriangularAnalysis& t, std::int64_t ncols) {
  (void)ncols;
  const std::int64_t nb = (t.n + kB - 1) / kB;
  if (t.n == 0) return false;
  if (t.value == Value::c32) {
    if (5 * nb > kComplexColumnWords) return false;
    // C_32F, fitted to modeled trn2 times (docs/trnsparse.md): the staged blocks stream through the
    // ring while the chain runs, so the blocked schedule costs the larger of ~0.5 us per stored block
    // (two 64 KiB planes) and ~1.6 us per dependent step (two matmuls, up to seven dependent VectorE
    // instructions); a level-set level ~6 us (a chain of one-row levels) plus ~0.006 us per stored
    // entry (its gather descriptor). Bench matrix: 264 against 571 (modeled 256 / 575); a 1024-row
    // chain: 1651 against 6150 (modeled 1617 / 6817).
    const double blocked_us = std::max(0.5 * static_cast<double>(t.block_slots), 1.6 * static_cast<double>(t.block_steps() + nb));
    return blocked_us <= 6.0 * static_cast<double>(t.levels()) + 0.006 * static_cast<double>(t.col.size());
  }
  if (t.value != Value::f32 || nb > kSbufColumnWords) return false;
  // Modeled costs measured on the bench matrix (4096 lower, 0.5%; docs/trnsparse.md): a level-set
  // level ~8 us (trn2; 15 us trn1: two DMA round trips and a gather descriptor per entry); the blocked
  // schedule ~0.5 us per stored 128 x 128 block (its 64 KiB DMA on trn1) and ~0.6 us per dependent
  // step (a matmul and two VectorE instructions). A chain inside every block (a grid in natural
  // order: 128 steps per block) or a scattered pattern on a large n (every block pair stored) keeps
  // the level sets.
  const double blocked_us = 0.5 * static_cast<double>(t.block_slots) + 0.6 * static_cast<double>(t.block_steps() + nb);
  return blocked_us <= 8.0 * static_cast<double>(t.levels());
}

void triangular_solve_blocked(const Settings& s, const TriangularAnalysis& t, const void* values, const void* diagonal,
                              Scalar alpha, GOp opB, const DenseAny& B, const DenseAny& C, CallReport* report) {
  if (t.value == Value::c32) return solve_blocked_complex(s, t, values, diagonal, alpha, opB, B, C, report);
  const std::int64_t n = t.n, m = C.cols;
  const BlockPlan p = plan_blocks(t);
  const bool run = !s.timing_only;
  const StripEntries entries = run ? place_entries(t, p) : StripEntries{};
  std::vector<float> strip(z(kB * kGroupSlots * kB), 0.0f);
  std::vector<float> diag(z(kB * p.nb), 1.0f);
  if (!t.unit && run)
    for (std::int64_t q = 0; q < n; ++q) {
      const std::int64_t i = t.lower_op ? q : n - 1 - q;
      diag[z((q % kB) * p.nb + q / kB)] =
          diagonal != nullptr ? static_cast<const float*>(diagonal)[i] : static_cast<const float*>(values)[t.diag[z(i)]];
    }
  const std::int64_t mb_max = std::clamp<std::int64_t>(kSbufColumnWords / p.nb, 1, kMaxColumns);
  const float* b = static_cast<const float*>(B.data);
  BlockedCounts counts;
  Trace trace;
  std::vector<float> rhs;
  std::vector<float> solution(run ? z(n * m) : 0);  // column-major n x m, C written after the scan
  for (std::int64_t c0 = 0; c0 < m && n > 0; c0 += mb_max) {
    BlockedSolve g = column_pass(t, p, run ? values : nullptr, run ? &entries : nullptr, strip, diag, std::min(mb_max, m - c0), alpha);
    const std::int64_t width = p.nb * g.mb;
    rhs.assign(z(kB * width), 0.0f);
    if (run)
      for (std::int64_t c = 0; c < g.mb; ++c)
        for (std::int64_t q = 0; q < n; ++q) {
          const std::int64_t i = t.lower_op ? q : n - 1 - q;
          rhs[z((q % kB) * width + (q / kB) * g.mb + c)] = opB == GOp::N ? b[at(B, i, c0 + c)] : b[at(B, c0 + c, i)];
        }
    g.rhs = rhs.data();
    LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) { blocked_kernel(nc, g, counts); });
    trace.append(std::move(r.trace));
    if (run)
      for (std::int64_t c = 0; c < g.mb; ++c)
        for (std::int64_t q = 0; q < n; ++q) {
          const std::int64_t i = t.lower_op ? q : n - 1 - q;
          solution[z(i + (c0 + c) * n)] = rhs[z((q % kB) * width + (q / kB) * g.mb + c)];
        }
  }
  finish_blocked(s, t, p, counts, std::move(trace), solution, values, diagonal, alpha, opB, B, C, report);
}

}  // namespace trn::sparse
