// Tridiagonal solves without pivoting in fp32 on the emulated engines: R_32F gtsv2_nopivot,
// gtsv2StridedBatch and gtsvInterleavedBatch algo 0 on VectorE (below), batched C_32F on GpSimdE fp32
// lanes (the "C_32F" part further down has its own algorithm note) (docs/trnsparse.md "Tridiagonal and
// pentadiagonal solvers", "On the engines").
//
// Algorithm   The Thomas algorithm (Gaussian elimination without pivoting on a tridiagonal matrix;
//             Conte & de Boor 1980, §7.4), one system per partition (128 systems per program), the
//             rows of a system along the free axis, every recurrence one VectorE tensor_tensor_scan
//             (r_i = op1(op0(d0_i, r_{i-1}), d1_i)) over all partitions at once. With s_i = -u_ii
//             (the negated pivot):
//               c_i = -(dl_i du_{i-1})                      multiply, negate
//               s_i = c_i / s_{i-1} - d_i                    scan divide / subtract, s_{-1} = 1 (c_0 = 0)
//               e_i = dl_i / s_{i-1}                         divide    (= -l_i, l_i = dl_i / u_{i-1,i-1})
//               y_i = e_i y_{i-1} + b_i                      scan multiply / add, y_{-1} = 0
//               g_i = y_i / s_i,  h_i = du_i / s_i           divide (du_{m-1} = 0)
//               x_i = h_i x_{i+1} - g_i                      scan multiply / subtract over reversed rows
//             The rows go in chunks of kChunkRows columns (the scans carry their last column into
//             the next chunk, which gives the bits of one long scan: docs/numerics.md). g and h go to
//             an HBM scratch (DMA) and come back chunk by chunk in reverse order through a DMA view
//             with a negative element stride, so that the back substitution is a forward scan; x goes
//             out the same way into a staging array, copied into the caller's right-hand side by the
//             host only when no system met a zero pivot (nothing is written otherwise).
//             Zero pivots: per chunk, VectorE marks s_i == 0, turns the marks into row numbers (GpSimd
//             iota) and keeps the smallest per system; the host reads one number per system.
// Engines     DMA (bands and right-hand sides in, the g / h scratch, x out), VectorE (every
//             arithmetic step, the zero-pivot marks), GpSimdE (iota of row numbers). One program per
//             128 systems; programs spread over cores; same bits for any host thread or core count
//             (systems are independent, each is one partition's fixed instruction sequence).
// Accuracy    u = 2^-24 (Higham, ASNA 2nd ed., §9.6): every step above rounds once in fp32, giving
//             (A + dA) x_hat = b with |dA| <= gamma_7 |L_hat| |U_hat| (3 roundings in a pivot,
//             1 in y, 3 in x; derivation in docs/trnsparse.md), and |L||U| <= 3|A| for A
//             diagonally dominant (by rows or columns), symmetric positive definite or an M-matrix:
//             normwise backward error <= 3 gamma_7 ~ 21 u.
// Limits      Row numbers in the zero-pivot message are exact below 2^24 (fp32 iota values).
#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "banded_steps.hpp"
#include "generic_host.hpp"
#include "scratch_buffer.hpp"
#include "trn/core/spmd.hpp"
#include "trn/sparse/banded.hpp"
#include "trn/tile/gpsimd_fp64.hpp"

namespace trn::sparse {

namespace {

std::size_t z(std::int64_t i) { return static_cast<std::size_t>(i); }

constexpr std::int64_t kChunkRows = 2048;  // rows per chunk: 13 fp32 tiles of 8 KiB per partition
constexpr float kNoZero = 1073741824.0f;   // 2^30: "no zero pivot" (above every exact row number)

// One call's data: the caller's bands and right-hand sides, the HBM scratch of g and h, the staging
// array of x (all [count][m] fp32) and the first zero-pivot row of each system.
struct ThomasJob {
  const BandedSystems* b = nullptr;
  float *g = nullptr, *h = nullptr, *out = nullptr, *zero_row = nullptr;
  std::int64_t chunk = kChunkRows;
  std::int32_t* zero_first = nullptr;  // C_32F: the first zero row of each system (-1: none)
};

// The zero-pivot bookkeeping: marks, candidate rows, row numbers ([P, L]); the first zero row so
// far and the chunk's ([P, 1]).
struct ZeroMarks {
  Tile mark, cand, idx, zmin, zchunk;
};

struct ThomasTiles {
  Tile dl, dup, d, du, rhs, s, y, c, g, h, carry;
  ZeroMarks z;
};

// The [P, L] tiles skip the allocation's NaN fill (AllocFill::none; host work only, ~6 MB of stores
// per program at L = 1024): every instruction reads column ranges [0, L) (s, y: [0, L]) of the chunk
// that a DMA, memset, iota or an earlier instruction of the chunk wrote (load_chunk sets dl_0 / du_{m-1}
// to 0; the s / y carries are set at the program's start).
constexpr AllocFill kWrittenFirst = AllocFill::none;

ZeroMarks alloc_marks(AllocScope& sb, std::int32_t P, std::int64_t L) {
  return {sb.alloc(DType::f32, P, {L}, "zero marks", 0, kWrittenFirst), sb.alloc(DType::f32, P, {L}, "zero rows", 0, kWrittenFirst),
          sb.alloc(DType::f32, P, {L}, "row numbers", 0, kWrittenFirst), sb.alloc(DType::f32, P, {1}, "first zero row"),
          sb.alloc(DType::f32, P, {1}, "chunk's first zero row")};
}

// Rows [r0, r0 + len) of systems [s0, s0 + P) of a caller array (element i of system s at
// i * es + s * ss; ss = 0: one matrix read by every partition, a DMA broadcast).
Tile system_rows(const void* base, std::int64_t count, std::int64_t m, std::int64_t es, std::int64_t ss, std::int64_t s0,
                 std::int32_t P, std::int64_t r0, std::int64_t len) {
  return HbmTensor::wrap(const_cast<void*>(base), DType::f32, {count, m}, {ss, es}).tile(s0, P, r0, len);
}
Tile band_rows(const ThomasJob& j, int k, std::int64_t s0, std::int32_t P, std::int64_t r0, std::int64_t len) {
  const BandedSystems& b = *j.b;
  return system_rows(b.band[z(k)], b.count, b.m, b.elem_stride, b.sys_stride, s0, P, r0, len);
}
// Rows [r0, r0 + len) of a [count][m] scratch array read last row first (a negative element stride).
Tile reversed_rows(float* base, std::int64_t m, std::int64_t count, std::int64_t s0, std::int32_t P, std::int64_t r0,
                   std::int64_t len) {
  return HbmTensor::wrap(base + r0 + len - 1, DType::f32, {count, len}, {m, -1}).tile(s0, P, 0, len);
}

ThomasTiles alloc_thomas(AllocScope& sb, std::int32_t P, std::int64_t L) {
  ThomasTiles w;
  const auto row = [&](std::int64_t n, const char* name) { return sb.alloc(DType::f32, P, {n}, name, 0, kWrittenFirst); };
  w.dl = row(L, "dl");
  w.dup = row(L, "du (row above)");
  w.d = row(L, "d");
  w.du = row(L, "du");
  w.rhs = row(L, "b / x");
  w.s = row(L + 1, "-pivots (carry first)");
  w.y = row(L + 1, "y (carry first)");
  w.c = row(L, "-dl du / multipliers");
  w.g = row(L, "g");
  w.h = row(L, "h");
  w.z = alloc_marks(sb, P, L);
  w.carry = sb.alloc(DType::f32, P, {1}, "x carry");
  return w;
}

// The bands and right-hand sides of rows [r0, r0 + L) into SBUF. Entries outside the matrix
// (dl_0, du_{m-1}) are not read: their columns are set to 0 on VectorE.
void load_chunk(NeuronCore& nc, const ThomasJob& j, const ThomasTiles& w, std::int64_t s0, std::int32_t P,
                std::int64_t r0, std::int64_t L) {
  const BandedSystems& b = *j.b;
  const std::int64_t lo = r0 == 0 ? 1 : 0, hi = r0 + L == b.m ? L - 1 : L;
  if (lo == 1) {
    nc.memset(w.dl.rows(0, P).cols(0, 1), 0.0f);
    nc.memset(w.dup.rows(0, P).cols(0, 1), 0.0f);
  }
  if (L > lo) {
    nc.dma_copy(w.dl.rows(0, P).cols(lo, L - lo), band_rows(j, 0, s0, P, r0 + lo, L - lo));
    nc.dma_copy(w.dup.rows(0, P).cols(lo, L - lo), band_rows(j, 2, s0, P, r0 + lo - 1, L - lo));
  }
  nc.dma_copy(w.d.rows(0, P).cols(0, L), band_rows(j, 1, s0, P, r0, L));
  if (hi > 0) nc.dma_copy(w.du.rows(0, P).cols(0, hi), band_rows(j, 2, s0, P, r0, hi));
  if (hi < L) nc.memset(w.du.rows(0, P).cols(hi, 1), 0.0f);
  nc.dma_copy(w.rhs.rows(0, P).cols(0, L), system_rows(b.x, b.count, b.m, b.x_elem_stride, b.x_sys_stride, s0, P, r0, L));
}

// zmin = min(zmin, the first row r0 + k of the chunk with piv[:, k] == 0; kNoZero if none), VectorE
// (the row numbers by GpSimd iota): cand = (1 - mark) 2^30 + mark row, each term exact.
void mark_zero_pivots(NeuronCore& nc, const ZeroMarks& w, const Tile& piv, std::int32_t P, std::int64_t r0, std::int64_t L) {
  const Tile mark = w.mark.rows(0, P).cols(0, L), cand = w.cand.rows(0, P).cols(0, L), idx = w.idx.rows(0, P).cols(0, L);
  const std::array<std::array<std::int64_t, 2>, 1> rows{{{1, L}}};
  nc.iota(idx, rows, r0, 0);
  nc.tensor_scalar(mark, piv, AluOp::equal, 0.0f);
  nc.tensor_scalar(cand, mark, AluOp::multiply, -kNoZero, AluOp::add, kNoZero);
  nc.tensor_tensor(mark, mark, idx, AluOp::multiply);
  nc.tensor_tensor(cand, cand, mark, AluOp::add);
  nc.tensor_reduce(w.zchunk.rows(0, P), cand, AluOp::minimum);
  nc.tensor_tensor(w.zmin.rows(0, P), w.zmin.rows(0, P), w.zchunk.rows(0, P), AluOp::minimum);
}

// The elimination of rows [r0, r0 + L): pivots, y, g and h (to the scratch), zero-pivot marks.
void forward_chunk(NeuronCore& nc, const ThomasJob& j, const ThomasTiles& w, std::int64_t s0, std::int32_t P,
                   std::int64_t r0, std::int64_t L) {
  const std::int64_t m = j.b->m, count = j.b->count;
  load_chunk(nc, j, w, s0, P, r0, L);
  const Tile c = w.c.rows(0, P).cols(0, L), dl = w.dl.rows(0, P).cols(0, L);
  const Tile s = w.s.rows(0, P), y = w.y.rows(0, P), g = w.g.rows(0, P).cols(0, L), h = w.h.rows(0, P).cols(0, L);
  nc.tensor_tensor(c, dl, w.dup.rows(0, P).cols(0, L), AluOp::multiply);
  nc.tensor_scalar(c, c, AluOp::multiply, -1.0f);
  nc.tensor_tensor_scan(s.cols(1, L), c, w.d.rows(0, P).cols(0, L), s.cols(0, 1), AluOp::divide, AluOp::subtract);
  nc.tensor_tensor(c, dl, s.cols(0, L), AluOp::divide);
  nc.tensor_tensor_scan(y.cols(1, L), c, w.rhs.rows(0, P).cols(0, L), y.cols(0, 1), AluOp::multiply, AluOp::add);
  nc.tensor_tensor(g, y.cols(1, L), s.cols(1, L), AluOp::divide);
  nc.tensor_tensor(h, w.du.rows(0, P).cols(0, L), s.cols(1, L), AluOp::divide);
  mark_zero_pivots(nc, w.z, s.cols(1, L), P, r0, L);
  nc.dma_copy(system_rows(j.g, count, m, 1, m, s0, P, r0, L), g);
  nc.dma_copy(system_rows(j.h, count, m, 1, m, s0, P, r0, L), h);
  nc.tensor_copy(s.cols(0, 1), s.cols(L, 1));
  nc.tensor_copy(y.cols(0, 1), y.cols(L, 1));
}

// The back substitution of rows [r0, r0 + L) (last row first): x_i = h_i x_{i+1} - g_i.
void backward_chunk(NeuronCore& nc, const ThomasJob& j, const ThomasTiles& w, std::int64_t s0, std::int32_t P,
                    std::int64_t r0, std::int64_t L) {
  const std::int64_t m = j.b->m, count = j.b->count;
  const Tile g = w.g.rows(0, P).cols(0, L), h = w.h.rows(0, P).cols(0, L), x = w.rhs.rows(0, P).cols(0, L);
  nc.dma_copy(g, reversed_rows(j.g, m, count, s0, P, r0, L));
  nc.dma_copy(h, reversed_rows(j.h, m, count, s0, P, r0, L));
  nc.tensor_tensor_scan(x, h, g, w.carry.rows(0, P), AluOp::multiply, AluOp::subtract);
  nc.tensor_copy(w.carry.rows(0, P), x.cols(L - 1, 1));
  nc.dma_copy(reversed_rows(j.out, m, count, s0, P, r0, L), x);
}

// Program p: systems [p pmax, p pmax + P), every chunk forward, then every chunk backward.
void thomas_program(NeuronCore& nc, const ThomasJob& j) {
  const std::int64_t m = j.b->m, pmax = nc.hw().pmax;
  const std::int64_t s0 = nc.program_id() * pmax;
  const auto P = static_cast<std::int32_t>(std::min(pmax, j.b->count - s0));
  const std::int64_t L = std::min(j.chunk, m);
  AllocScope sb(nc.sbuf());
  const ThomasTiles w = alloc_thomas(sb, P, L);
  nc.memset(w.s.rows(0, P).cols(0, 1), 1.0f);
  nc.memset(w.y.rows(0, P).cols(0, 1), 0.0f);
  nc.memset(w.z.zmin.rows(0, P), kNoZero);
  nc.memset(w.carry.rows(0, P), 0.0f);
  for (std::int64_t r0 = 0; r0 < m; r0 += L) forward_chunk(nc, j, w, s0, P, r0, std::min(L, m - r0));
  nc.dma_copy(system_rows(j.zero_row, j.b->count, 1, 1, 1, s0, P, 0, 1), w.z.zmin.rows(0, P));
  for (std::int64_t r0 = (m - 1) / L * L; r0 >= 0; r0 -= L) backward_chunk(nc, j, w, s0, P, r0, std::min(L, m - r0));
}

// ---- C_32F: the same recurrences as one GpSimdE operator per chunk (fp32 lanes) ------------------
// A complex pivot recurrence is not a real scan. s13/tridiag ran it as row steps of [P, 1] VectorE
// instructions (33 per row, 3% of VectorE's peak rate); here each lane runs its system's rows in
// C++ float, the same instructions' formulas in the same order (trn/tile/complex.hpp: products,
// multiply-subtract, the scaled reciprocal; abs_max as VectorE computes it), so the bits are the
// VectorE sequence's (host speed: lanes four to an SSE2 vector, element by element the same
// operations; s27/band). Per row i, r_{-1} = y_{-1} = x_m = 0, dl_0 = du_{-1} = du_{m-1} = 0:
//   p = dl_i du_{i-1}; u = d_i - p r_{i-1}; mag = max(|Re u|, |Im u|) (zero pivot iff mag == 0);
//   r_i = 1 / u (scaled by mag); l = dl_i r_{i-1}; y_i = b_i - l y_{i-1}; g_i = y_i r_i; h_i = du_i r_i
//   and, last row first, x_i = g_i - h_i x_{i+1}.
// g and h go to an HBM scratch; x to the staging array (copied out only without a zero pivot).

constexpr std::int64_t kChunkRowsC32 = 2048;  // 14 words per row: dl d du b (2 each), g h (4), x (2)

using CF = std::complex<float>;

// The formulas below are written once for one lane (F = float) and for four lanes side by side (F =
// F4, GCC vector extensions: SSE2, the build's baseline, one instruction per line for four lanes).
// Each line is one IEEE fp32 operation, element by element in the vector form, so four lanes give
// the bits of four runs of the one-lane form (the build has no FMA contraction: -ffp-contract=off).
using F4 = float __attribute__((vector_size(16)));
using I4 = std::int32_t __attribute__((vector_size(16)));

// A complex value (or four, one a lane) as its two parts.
template <class F>
struct Cx {
  F re, im;
};

// The VectorE sequences of trn/tile/complex.hpp (each line one instruction, one rounding).
template <class F>
[[gnu::always_inline]] inline Cx<F> lane_multiply(Cx<F> a, Cx<F> b) {  // complex_multiply
  F re = a.re * b.re;
  F t = a.im * b.im;
  re = re - t;
  F im = a.re * b.im;
  t = a.im * b.re;
  return {re, im + t};
}
template <class F>
[[gnu::always_inline]] inline Cx<F> lane_multiply_subtract(Cx<F> acc, Cx<F> a, Cx<F> b) {  // acc - a b
  F t1 = a.re * b.re;
  F t2 = a.im * b.im;
  t1 = t1 - t2;
  const F re = acc.re - t1;
  t1 = a.re * b.im;
  t2 = a.im * b.re;
  t1 = t1 + t2;
  return {re, acc.im - t1};
}
inline float lane_abs_max(float a, float b) {  // AluOp::abs_max (isa_vector.cpp max_ieee of the moduli)
  a = std::fabs(a), b = std::fabs(b);
  if (a != a || b != b) return a + b;
  if (a == b) return std::bit_cast<float>(std::bit_cast<std::uint32_t>(a) & std::bit_cast<std::uint32_t>(b));
  return a > b ? a : b;
}
// The same rule for four lanes: the moduli's sum where either is NaN, else their bits' and where
// they are equal, else the larger (masks from the element-wise compares, -1 where true).
[[gnu::always_inline]] inline F4 lane_abs_max(F4 a, F4 b) {
  const I4 magnitude_bits = {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff};
  const I4 ai = std::bit_cast<I4>(a) & magnitude_bits, bi = std::bit_cast<I4>(b) & magnitude_bits;
  a = std::bit_cast<F4>(ai), b = std::bit_cast<F4>(bi);
  const I4 nan = (a != a) | (b != b), equal = a == b, greater = a > b;
  const I4 larger = (ai & greater) | (bi & ~greater);
  const I4 pick = (std::bit_cast<I4>(a + b) & nan) | (~nan & ((ai & bi & equal) | (larger & ~equal)));
  return std::bit_cast<F4>(pick);
}
template <class F>
[[gnu::always_inline]] inline Cx<F> lane_reciprocal(Cx<F> e, F m) {  // complex_reciprocal
  const F er = e.re / m, ei = e.im / m;
  F q = er * er;
  const F t = ei * ei;
  q = q + t;
  q = q * m;
  return {er / q, (ei / q) * -1.0f};
}

// The first zero row: `zero` becomes i where mag == 0 and no zero was met before.
inline void mark_zero(float mag, std::int32_t& zero, std::int32_t i) {
  if (mag == 0.0f && zero < 0) zero = i;
}
[[gnu::always_inline]] inline void mark_zero(F4 mag, I4& zero, std::int32_t i) {
  const I4 now = (mag == 0.0f) & (zero < 0);
  zero = (now & i) | (~now & zero);
}

// What a row step carries to the next row: r_{i-1}, y_{i-1}, du_{i-1}, the first zero row.
template <class F, class Z>
struct RowCarry {
  Cx<F> r, y, du;
  Z zero;
};

// Row i of the elimination (the header's recurrence; dl = 0 on row 0, du = 0 on row m - 1): g_i and h_i.
template <class F, class Z>
[[gnu::always_inline]] inline void forward_row(RowCarry<F, Z>& c, Cx<F> dl, Cx<F> d, Cx<F> du, Cx<F> b, std::int32_t i,
                                               Cx<F>& g, Cx<F>& h) {
  const Cx<F> u = lane_multiply_subtract(d, lane_multiply(dl, c.du), c.r);
  const F mag = lane_abs_max(u.re, u.im);
  mark_zero(mag, c.zero, i);
  const Cx<F> r = lane_reciprocal(u, mag);
  c.y = lane_multiply_subtract(b, lane_multiply(dl, c.r), c.y);
  g = lane_multiply(c.y, r);
  h = lane_multiply(du, r);
  c.r = r, c.du = du;
}

// Lane ops per row (tile::GpsimdOps, native fp32): forward 6 + 8 + 5 (abs, abs, NaN tests, max) + 8
// + 6 + 8 + 6 + 6 = 53 fp32, 2 int32 (zero-pivot bookkeeping), 10 words in (dl d du b, du_{i-1}),
// 4 out (g, h); backward 8 fp32, 4 words in, 2 out.
constexpr tile::GpsimdOps kForwardRowC32{.fp32 = 53, .int32 = 2, .load_words = 10, .store_words = 4};
constexpr tile::GpsimdOps kBackRowC32{.fp32 = 8, .load_words = 4, .store_words = 2};

// The state a lane carries between chunks: r_{i-1}, y_{i-1}, du_{i-1}, x_{i+1}, the first zero row.
struct LaneCarry {
  CF r, y, du, x;
  std::int32_t zero;
};

// bands: dl, d, du, b at rows [k L, (k + 1) L) of one tile (an operator keeps <= 4 operands: a
// trace record holds 4 regions).
struct C32Tiles {
  Tile bands, gh, x, carry;
  Tile band(int k, std::int32_t P, std::int64_t L, std::int64_t first, std::int64_t n) const {
    return bands.rows(0, P).slice(0, k * L + first, n);
  }
};

// bands, g / h and x skip the allocation's NaN fill (AllocFill::none; host work only, ~7 MB of stores
// per program at L = 1024): the operators read only what the DMAs or the forward operator wrote (the
// lanes never read dl_0 or du_{m-1}, the two band entries no DMA brings in).
C32Tiles alloc_c32(AllocScope& sb, std::int32_t P, std::int64_t L) {
  constexpr AllocFill kWrittenFirst = AllocFill::none;
  return {sb.alloc(DType::u32, P, {4 * L, 2}, "dl, d, du, b", 0, kWrittenFirst),
          sb.alloc(DType::u32, P, {L, 4}, "g, h", 0, kWrittenFirst), sb.alloc(DType::u32, P, {L, 2}, "x", 0, kWrittenFirst),
          sb.alloc(DType::u32, P, {9}, "carry (r, y, du, x, first zero row)")};
}

// Rows [r, r + n) of systems [s0, s0 + P) of an interleaved complex-fp32 array as [P, n, 2] words.
Tile c32_rows(const void* base, std::int64_t count, std::int64_t m, std::int64_t es, std::int64_t ss, std::int64_t s0,
              std::int32_t P, std::int64_t r, std::int64_t n) {
  return HbmTensor::wrap(const_cast<void*>(base), DType::u32, {count, m, 2}, {2 * ss, 2 * es, 1}).tile_nd({s0, r, 0}, {P, n, 2}, 0);
}

// Value i of a lane's row of an operand (`row`: the operand's bytes in that partition, Tile::at(q, 0)).
Cx<float> lane_value(const std::byte* row, std::int64_t i) {
  float v[2];
  std::memcpy(v, row + i * static_cast<std::int64_t>(sizeof(CF)), sizeof(CF));
  return {v[0], v[1]};
}
void set_lane_value(std::byte* row, std::int64_t i, Cx<float> v) {
  const float parts[2] = {v.re, v.im};
  std::memcpy(row + i * static_cast<std::int64_t>(sizeof(CF)), parts, sizeof(CF));
}
// Value i of four lanes' rows (rows[0 .. 3]) as their parts, and back.
[[gnu::always_inline]] inline Cx<F4> lanes_value(const std::byte* const* rows, std::int64_t i) {
  const Cx<float> v0 = lane_value(rows[0], i), v1 = lane_value(rows[1], i), v2 = lane_value(rows[2], i),
                  v3 = lane_value(rows[3], i);
  return {F4{v0.re, v1.re, v2.re, v3.re}, F4{v0.im, v1.im, v2.im, v3.im}};
}
[[gnu::always_inline]] inline void set_lanes_value(std::byte* const* rows, std::int64_t i, Cx<F4> v) {
  for (int l = 0; l < 4; ++l) set_lane_value(rows[l], i, {v.re[l], v.im[l]});
}

// Lanes run in groups of kLaneGroupC32 partitions in lockstep (row k of every lane of the group
// before row k + 1): a lane's row is a chain of dependent products and divisions (the reciprocal);
// the group's chains are independent, so the host overlaps them, four lanes to a vector (F4). Host
// speed only: each lane runs its own operations in its own order.
constexpr std::int32_t kLaneGroupC32 = 8;

// Rows [r0, r0 + L) of lanes [q0, q0 + K): pivots, reciprocals, y, g, h (the header's recurrence).
// K = 1, or a multiple of 4 (four lanes a vector).
template <int K>
void forward_lanes_c32(const CustomOpContext& ctx, std::int32_t q0, std::int64_t m, std::int64_t r0, std::int64_t L,
                       std::int64_t stride) {
  constexpr int W = K % 4 == 0 ? 4 : 1, N = K / W;  // lanes per vector, vectors
  using F = std::conditional_t<W == 4, F4, float>;
  using Z = std::conditional_t<W == 4, I4, std::int32_t>;
  const std::byte* bands[K];
  std::byte* gh[K];
  LaneCarry c[K];
  for (int l = 0; l < K; ++l) {
    bands[l] = ctx.inputs[0].at(q0 + l, 0);
    gh[l] = ctx.outputs[0].at(q0 + l, 0);
    c[l] = LaneCarry{};
    if (r0 > 0) std::memcpy(&c[l], ctx.outputs[1].at(q0 + l, 0), sizeof c[l]);
    else c[l].zero = -1;
  }
  RowCarry<F, Z> rc[N];
  for (int v = 0; v < N; ++v)
    for (int w = 0; w < W; ++w) {
      const LaneCarry& cl = c[v * W + w];
      const auto set = [&](auto& to, auto from) {
        if constexpr (W == 4) to[w] = from;
        else to = from;
      };
      set(rc[v].r.re, cl.r.real()), set(rc[v].r.im, cl.r.imag()), set(rc[v].y.re, cl.y.real());
      set(rc[v].y.im, cl.y.imag()), set(rc[v].du.re, cl.du.real()), set(rc[v].du.im, cl.du.imag());
      set(rc[v].zero, cl.zero);
    }
  const auto value = [](const std::byte* const* rows, std::int64_t i) {
    if constexpr (W == 4) return lanes_value(rows, i);
    else return lane_value(rows[0], i);
  };
  const auto set_value = [](std::byte* const* rows, std::int64_t i, Cx<F> v) {
    if constexpr (W == 4) set_lanes_value(rows, i, v);
    else set_lane_value(rows[0], i, v);
  };
  for (std::int64_t k = 0; k < L; ++k) {
    const std::int64_t i = r0 + k;
    for (int v = 0; v < N; ++v) {
      const std::byte* const* in = bands + v * W;
      const Cx<F> dl = i == 0 ? Cx<F>{} : value(in, k), du = i == m - 1 ? Cx<F>{} : value(in, 2 * stride + k);
      Cx<F> g, h;
      forward_row(rc[v], dl, value(in, stride + k), du, value(in, 3 * stride + k), static_cast<std::int32_t>(i), g, h);
      set_value(gh + v * W, 2 * k, g);
      set_value(gh + v * W, 2 * k + 1, h);
    }
  }
  for (int v = 0; v < N; ++v)
    for (int w = 0; w < W; ++w) {
      LaneCarry& cl = c[v * W + w];
      const auto get = [&](const auto& from) -> auto {
        if constexpr (W == 4) return from[w];
        else return from;
      };
      cl.r = {get(rc[v].r.re), get(rc[v].r.im)}, cl.y = {get(rc[v].y.re), get(rc[v].y.im)};
      cl.du = {get(rc[v].du.re), get(rc[v].du.im)}, cl.zero = get(rc[v].zero);
    }
  for (int l = 0; l < K; ++l) std::memcpy(ctx.outputs[1].at(q0 + l, 0), &c[l], sizeof c[l]);
}

// Rows [r0, r0 + L) of lanes [q0, q0 + K), last first: x_i = g_i - h_i x_{i+1}.
template <int K>
void back_lanes_c32(const CustomOpContext& ctx, std::int32_t q0, std::int64_t L) {
  constexpr int W = K % 4 == 0 ? 4 : 1, N = K / W;
  using F = std::conditional_t<W == 4, F4, float>;
  const std::byte* gh[K];
  std::byte* x[K];
  LaneCarry c[K];
  for (int l = 0; l < K; ++l) {
    gh[l] = ctx.inputs[0].at(q0 + l, 0);
    x[l] = ctx.outputs[0].at(q0 + l, 0);
    std::memcpy(&c[l], ctx.outputs[1].at(q0 + l, 0), sizeof c[l]);
  }
  Cx<F> xc[N];
  for (int v = 0; v < N; ++v)
    for (int w = 0; w < W; ++w) {
      if constexpr (W == 4) xc[v].re[w] = c[v * W + w].x.real(), xc[v].im[w] = c[v * W + w].x.imag();
      else xc[v] = {c[v].x.real(), c[v].x.imag()};
    }
  for (std::int64_t k = L - 1; k >= 0; --k)
    for (int v = 0; v < N; ++v) {
      if constexpr (W == 4) {
        xc[v] = lane_multiply_subtract(lanes_value(gh + v * W, 2 * k), lanes_value(gh + v * W, 2 * k + 1), xc[v]);
        set_lanes_value(x + v * W, k, xc[v]);
      } else {
        xc[v] = lane_multiply_subtract(lane_value(gh[v], 2 * k), lane_value(gh[v], 2 * k + 1), xc[v]);
        set_lane_value(x[v], k, xc[v]);
      }
    }
  for (int v = 0; v < N; ++v)
    for (int w = 0; w < W; ++w) {
      if constexpr (W == 4) c[v * W + w].x = {xc[v].re[w], xc[v].im[w]};
      else c[v].x = {xc[v].re, xc[v].im};
    }
  for (int l = 0; l < K; ++l) std::memcpy(ctx.outputs[1].at(q0 + l, 0), &c[l], sizeof c[l]);
}

// Rows [r0, r0 + L): the bands in (dl_0 and du_{m-1} not read), the forward operator, g / h out.
void forward_chunk_c32(NeuronCore& nc, const ThomasJob& j, const C32Tiles& w, std::int64_t s0, std::int32_t P,
                       std::int64_t r0, std::int64_t L) {
  const BandedSystems& b = *j.b;
  const std::int64_t m = b.m, lo = r0 == 0 ? 1 : 0, hi = r0 + L == m ? L - 1 : L;
  auto rows = [&](const void* base, std::int64_t es, std::int64_t ss, std::int64_t first, std::int64_t n) {
    return c32_rows(base, b.count, m, es, ss, s0, P, r0 + first, n);
  };
  const std::int64_t S = j.chunk < m ? j.chunk : m;  // the tile's rows per band
  if (L > lo) nc.dma_copy(w.band(0, P, S, lo, L - lo), rows(b.band[0], b.elem_stride, b.sys_stride, lo, L - lo));
  nc.dma_copy(w.band(1, P, S, 0, L), rows(b.band[1], b.elem_stride, b.sys_stride, 0, L));
  if (hi > 0) nc.dma_copy(w.band(2, P, S, 0, hi), rows(b.band[2], b.elem_stride, b.sys_stride, 0, hi));
  nc.dma_copy(w.band(3, P, S, 0, L), rows(b.x, b.x_elem_stride, b.x_sys_stride, 0, L));
  const Tile outs[] = {w.gh.rows(0, P).slice(0, 0, L), w.carry.rows(0, P)};
  const Tile ins[] = {w.bands.rows(0, P)};
  nc.custom_op("thomas_c32_forward", outs, ins, tile::gpsimd_op_cycles(nc.hw(), kForwardRowC32, L),
               [P, m, r0, L, S](const CustomOpContext& ctx) {
                 generic_host::over_lane_groups<kLaneGroupC32>(P, [&](std::int32_t q0, auto lanes) {
                   forward_lanes_c32<decltype(lanes)::value>(ctx, q0, m, r0, L, S);
                 });
               });
  nc.dma_copy(HbmTensor::wrap(j.g, DType::u32, {b.count, m, 4}).tile_nd({s0, r0, 0}, {P, L, 4}, 0), outs[0]);
}

void backward_chunk_c32(NeuronCore& nc, const ThomasJob& j, const C32Tiles& w, std::int64_t s0, std::int32_t P,
                        std::int64_t r0, std::int64_t L) {
  const std::int64_t m = j.b->m, count = j.b->count;
  const Tile gh = w.gh.rows(0, P).slice(0, 0, L);
  nc.dma_copy(gh, HbmTensor::wrap(j.g, DType::u32, {count, m, 4}).tile_nd({s0, r0, 0}, {P, L, 4}, 0));
  const Tile outs[] = {w.x.rows(0, P).slice(0, 0, L), w.carry.rows(0, P)};
  const Tile ins[] = {gh};
  nc.custom_op("thomas_c32_back", outs, ins, tile::gpsimd_op_cycles(nc.hw(), kBackRowC32, L),
               [P, L](const CustomOpContext& ctx) {
                 generic_host::over_lane_groups<kLaneGroupC32>(P, [&](std::int32_t q0, auto lanes) { back_lanes_c32<decltype(lanes)::value>(ctx, q0, L); });
               });
  nc.dma_copy(HbmTensor::wrap(j.out, DType::u32, {count, m, 2}).tile_nd({s0, r0, 0}, {P, L, 2}, 0), outs[0]);
}

void thomas_c32_program(NeuronCore& nc, const ThomasJob& j) {
  const std::int64_t m = j.b->m, pmax = nc.hw().pmax;
  const std::int64_t s0 = nc.program_id() * pmax;
  const auto P = static_cast<std::int32_t>(std::min(pmax, j.b->count - s0));
  const std::int64_t L = std::min(j.chunk, m);
  AllocScope sb(nc.sbuf());
  const C32Tiles w = alloc_c32(sb, P, L);
  for (std::int64_t r0 = 0; r0 < m; r0 += L) forward_chunk_c32(nc, j, w, s0, P, r0, std::min(L, m - r0));
  for (std::int64_t r0 = (m - 1) / L * L; r0 >= 0; r0 -= L) backward_chunk_c32(nc, j, w, s0, P, r0, std::min(L, m - r0));
  // the first zero row: carry word 8 (LaneCarry::zero)
  nc.dma_copy(HbmTensor::wrap(j.zero_first, DType::u32, {j.b->count, 1}).tile(s0, P, 0, 1), w.carry.rows(0, P).cols(8, 1));
}

PlanFacts thomas_facts(const char* routine, const BandedSystems& b, std::int64_t programs, double ns) {
  PlanFacts f;
  f.routine = routine;
  f.shape = std::to_string(b.count) + " tridiagonal system(s) of size " + std::to_string(b.m) +
            (b.sys_stride == 0 && b.count > 1 ? " (one matrix, " + std::to_string(b.count) + " right-hand sides)" : "");
  const bool cplx = b.value == Value::c32;
  f.variant = std::string(cplx ? "C_32F" : "R_32F") + ": Thomas algorithm (no pivoting) in fp32, one system per partition, " +
              std::to_string(programs) + " program(s) of <= pmax systems, rows in chunks of " +
              std::to_string(std::min(cplx ? kChunkRowsC32 : kChunkRows, b.m)) +
              (cplx ? ", the recurrences as one GpSimdE operator per chunk (fp32 lanes, the VectorE row-step formulas)"
                    : ", each recurrence one tensor_tensor_scan");
  f.ops = std::to_string(static_cast<long long>((cplx ? 32.0 : 8.0) * static_cast<double>(b.m) * static_cast<double>(b.count))) +
          " flops";
  f.engines = cplx ? "DMA (bands, right-hand sides, g/h scratch, x out), GpSimdE (custom operators thomas_c32_forward / "
                     "thomas_c32_back, fp32)"
                   : "DMA (bands, right-hand sides, g/h scratch, reversed reads, x out), VectorE (scans, divides, "
                     "zero-pivot marks), GpSimdE (row numbers)";
  f.predicted_ns = ns;
  f.why = cplx ? "systems are independent: one per GpSimd lane; a complex recurrence is not a real scan (per-lane code)"
               : "systems are independent: 128 per instruction; each recurrence along a system is one scan";
  return f;
}

}  // namespace

bool banded_on_engines(Value v, BandedAlgo algo, int half, bool batched) {
  return (v == Value::f32 || (v == Value::c32 && batched)) && algo == BandedAlgo::no_pivot && half == 1;
}

void banded_solve_engines(const Settings& s, const char* routine, const BandedSystems& b, CallReport* report) {
  const std::int64_t m = b.m, count = b.count;
  const bool cplx = b.value == Value::c32;
  // complex: g and h interleaved per row ([count][m][4] words), x as [count][m][2]. HBM scratch the
  // programs' DMAs write in full (every system's every row chunk) before any DMA reads it back:
  // scratch-stack blocks without a zero fill. A fresh heap block of this size faulted its pages in on
  // every call (~6 MB at 256 x 1024 C_32F: ~20 ms of the row's ~35 ms host time unless an earlier
  // call had left glibc's mmap threshold raised).
  ScratchBuffer<float> g, h, out;
  g.allocate(z((cplx ? 4 : 1) * m * count), false);
  h.allocate(z(cplx ? 0 : m * count), false);
  out.allocate(z((cplx ? 2 : 1) * m * count), false);
  std::vector<float> zero_row(z(count), kNoZero);
  std::vector<std::int32_t> zero_first(z(cplx ? count : 0), -1);
  const ThomasJob j{&b, g.data(), h.data(), out.data(), zero_row.data(), cplx ? kChunkRowsC32 : kChunkRows, zero_first.data()};
  const std::int64_t pmax = hardware_spec(s.target).pmax;
  const std::int64_t programs = (count + pmax - 1) / pmax;
  LaunchResult r = launch(s.launch_config({static_cast<int>(programs), 1, 1}), [&](NeuronCore& nc) {
    if (cplx)
      thomas_c32_program(nc, j);
    else
      thomas_program(nc, j);
  });
  if (!s.timing_only) {
    for (std::int64_t k = 0; k < count; ++k) {
      if (!cplx && zero_row[z(k)] != kNoZero) throw ZeroPivot(k, static_cast<std::int64_t>(zero_row[z(k)]));
      if (cplx && zero_first[z(k)] >= 0) throw ZeroPivot(k, zero_first[z(k)]);
    }
    const auto* staging = reinterpret_cast<const std::byte*>(out.data());
    if (cplx)
      banded_steps::copy_solutions_out<CF>(staging, b.x, count, m, b.x_elem_stride, b.x_sys_stride);
    else
      banded_steps::copy_solutions_out<float>(staging, b.x, count, m, b.x_elem_stride, b.x_sys_stride);
  }
  if (report == nullptr) return;
  const bool wanted = report->plans_wanted;
  finish_report(*report, std::move(r.trace), ReportSettings::of(s));
  report->blocks = programs;
  if (wanted) report->add_plan(thomas_facts(routine, b, programs, report->profile.total_ns).print());
}

}  // namespace trn::sparse
