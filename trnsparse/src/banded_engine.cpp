// Tridiagonal solves without pivoting in fp32 (R_32F) on the emulated engines: gtsv2_nopivot,
// gtsv2StridedBatch and gtsvInterleavedBatch algo 0 (docs/trnsparse.md "Tridiagonal and
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
#include <string>
#include <vector>

#include "generic_host.hpp"
#include "trn/core/spmd.hpp"
#include "trn/sparse/banded.hpp"
#include "trn/tile/complex.hpp"

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

ZeroMarks alloc_marks(AllocScope& sb, std::int32_t P, std::int64_t L) {
  return {sb.alloc(DType::f32, P, {L}, "zero marks"), sb.alloc(DType::f32, P, {L}, "zero rows"),
          sb.alloc(DType::f32, P, {L}, "row numbers"), sb.alloc(DType::f32, P, {1}, "first zero row"),
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
  w.dl = sb.alloc(DType::f32, P, {L}, "dl");
  w.dup = sb.alloc(DType::f32, P, {L}, "du (row above)");
  w.d = sb.alloc(DType::f32, P, {L}, "d");
  w.du = sb.alloc(DType::f32, P, {L}, "du");
  w.rhs = sb.alloc(DType::f32, P, {L}, "b / x");
  w.s = sb.alloc(DType::f32, P, {L + 1}, "-pivots (carry first)");
  w.y = sb.alloc(DType::f32, P, {L + 1}, "y (carry first)");
  w.c = sb.alloc(DType::f32, P, {L}, "-dl du / multipliers");
  w.g = sb.alloc(DType::f32, P, {L}, "g");
  w.h = sb.alloc(DType::f32, P, {L}, "h");
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

// ---- C_32F: re / im planes; the recurrences as row steps of [P, 1] instructions --------------
// A complex pivot recurrence is not a real scan, so each row is a few VectorE instructions over
// the partitions (trn/tile/complex.hpp: products, multiply-subtract, the scaled reciprocal);
// everything without a row-to-row dependence runs over the whole chunk at once.

constexpr std::int64_t kChunkRowsC32 = 1024;  // 24 fp32 [P, L] planes of 4 KiB per partition

using tile::ComplexPlanes;

struct ThomasC32Tiles {
  ComplexPlanes dl, dup, piv, du, y, pl, rq, g, h, ycarry, xcarry;  // piv: d, reduced in place
  Tile mag, t1, t2;                                                // y: b, reduced in place
  tile::ReciprocalWork rw;
  ZeroMarks z;
};

ComplexPlanes alloc_planes(AllocScope& sb, std::int32_t P, std::int64_t L, const char* name) {
  return {sb.alloc(DType::f32, P, {L}, name), sb.alloc(DType::f32, P, {L}, name)};
}
ComplexPlanes view(const ComplexPlanes& c, std::int32_t P, std::int64_t col, std::int64_t n) {
  return {c.re.rows(0, P).cols(col, n), c.im.rows(0, P).cols(col, n)};
}

ThomasC32Tiles alloc_thomas_c32(AllocScope& sb, std::int32_t P, std::int64_t L) {
  ThomasC32Tiles w;
  w.dl = alloc_planes(sb, P, L, "dl");
  w.dup = alloc_planes(sb, P, L, "du (row above)");
  w.piv = alloc_planes(sb, P, L, "d / pivots");
  w.du = alloc_planes(sb, P, L, "du");
  w.y = alloc_planes(sb, P, L, "b / y");
  w.pl = alloc_planes(sb, P, L, "dl du / multipliers");
  w.rq = alloc_planes(sb, P, L + 1, "1 / pivots (carry first)");
  w.g = alloc_planes(sb, P, L, "g / x");
  w.h = alloc_planes(sb, P, L, "h");
  w.ycarry = alloc_planes(sb, P, 1, "y carry");
  w.xcarry = alloc_planes(sb, P, 1, "x carry");
  w.mag = sb.alloc(DType::f32, P, {L}, "max(|re|, |im|) of the pivots");
  w.t1 = sb.alloc(DType::f32, P, {L}, "temp");
  w.t2 = sb.alloc(DType::f32, P, {L}, "temp");
  w.rw = {sb.alloc(DType::f32, P, {1}, "er"), sb.alloc(DType::f32, P, {1}, "ei"), sb.alloc(DType::f32, P, {1}, "q"),
          sb.alloc(DType::f32, P, {1}, "t")};
  w.z = alloc_marks(sb, P, L);
  return w;
}

// Plane k (0 re, 1 im) of rows [r0, r0 + len) of systems [s0, s0 + P) of an interleaved complex array.
Tile plane_rows(const void* base, int k, std::int64_t count, std::int64_t m, std::int64_t es, std::int64_t ss,
                std::int64_t s0, std::int32_t P, std::int64_t r0, std::int64_t len) {
  return system_rows(static_cast<const float*>(base) + k, count, m, 2 * es, 2 * ss, s0, P, r0, len);
}

// As load_chunk, per plane: dl_0 and du_{m-1} are not read (0 on VectorE).
void load_chunk_c32(NeuronCore& nc, const ThomasJob& j, const ThomasC32Tiles& w, std::int64_t s0, std::int32_t P,
                    std::int64_t r0, std::int64_t L) {
  const BandedSystems& b = *j.b;
  const std::int64_t lo = r0 == 0 ? 1 : 0, hi = r0 + L == b.m ? L - 1 : L;
  auto band = [&](int band_k, int k, std::int64_t first, std::int64_t len) {
    return plane_rows(b.band[z(band_k)], k, b.count, b.m, b.elem_stride, b.sys_stride, s0, P, first, len);
  };
  for (int k = 0; k < 2; ++k) {
    const Tile dl = k == 0 ? w.dl.re : w.dl.im, dup = k == 0 ? w.dup.re : w.dup.im, d = k == 0 ? w.piv.re : w.piv.im;
    const Tile du = k == 0 ? w.du.re : w.du.im, y = k == 0 ? w.y.re : w.y.im;
    if (lo == 1) {
      nc.memset(dl.rows(0, P).cols(0, 1), 0.0f);
      nc.memset(dup.rows(0, P).cols(0, 1), 0.0f);
    }
    if (L > lo) {
      nc.dma_copy(dl.rows(0, P).cols(lo, L - lo), band(0, k, r0 + lo, L - lo));
      nc.dma_copy(dup.rows(0, P).cols(lo, L - lo), band(2, k, r0 + lo - 1, L - lo));
    }
    nc.dma_copy(d.rows(0, P).cols(0, L), band(1, k, r0, L));
    if (hi > 0) nc.dma_copy(du.rows(0, P).cols(0, hi), band(2, k, r0, hi));
    if (hi < L) nc.memset(du.rows(0, P).cols(hi, 1), 0.0f);
    nc.dma_copy(y.rows(0, P).cols(0, L), plane_rows(b.x, k, b.count, b.m, b.x_elem_stride, b.x_sys_stride, s0, P, r0, L));
  }
}

// Rows [r0, r0 + L): u_ii = d_i - (dl_i du_{i-1}) / u_{i-1,i-1} and its reciprocal row by row;
// then l = dl / u_{i-1,i-1} (chunk), y_i = b_i - l_i y_{i-1} row by row, g = y / u, h = du / u
// (chunk) to the scratch.
void forward_chunk_c32(NeuronCore& nc, const ThomasJob& j, const ThomasC32Tiles& w, std::int64_t s0, std::int32_t P,
                       std::int64_t r0, std::int64_t L) {
  const std::int64_t m = j.b->m, count = j.b->count;
  load_chunk_c32(nc, j, w, s0, P, r0, L);
  const Tile t1 = w.t1.rows(0, P).cols(0, L), c1 = w.t1.rows(0, P).cols(0, 1), c2 = w.t2.rows(0, P).cols(0, 1);
  tile::complex_multiply(nc, view(w.pl, P, 0, L), view(w.dl, P, 0, L), view(w.dup, P, 0, L), t1);
  for (std::int64_t i = 0; i < L; ++i) {
    const ComplexPlanes u = view(w.piv, P, i, 1);
    tile::complex_multiply_subtract(nc, u, view(w.pl, P, i, 1), view(w.rq, P, i, 1), c1, c2);
    const Tile mag = w.mag.rows(0, P).cols(i, 1);
    nc.tensor_tensor(mag, u.re, u.im, AluOp::abs_max);
    const tile::ReciprocalWork rw{w.rw.er.rows(0, P), w.rw.ei.rows(0, P), w.rw.q.rows(0, P), w.rw.t.rows(0, P)};
    tile::complex_reciprocal(nc, u.re, u.im, mag, rw, view(w.rq, P, i + 1, 1));
  }
  mark_zero_pivots(nc, w.z, w.mag.rows(0, P).cols(0, L), P, r0, L);
  tile::complex_multiply(nc, view(w.pl, P, 0, L), view(w.dl, P, 0, L), view(w.rq, P, 0, L), t1);
  for (std::int64_t i = 0; i < L; ++i)
    tile::complex_multiply_subtract(nc, view(w.y, P, i, 1), view(w.pl, P, i, 1),
                                    i == 0 ? view(w.ycarry, P, 0, 1) : view(w.y, P, i - 1, 1), c1, c2);
  tile::complex_multiply(nc, view(w.g, P, 0, L), view(w.y, P, 0, L), view(w.rq, P, 1, L), t1);
  tile::complex_multiply(nc, view(w.h, P, 0, L), view(w.du, P, 0, L), view(w.rq, P, 1, L), t1);
  const ComplexPlanes g = view(w.g, P, 0, L), h = view(w.h, P, 0, L);
  for (int k = 0; k < 2; ++k) {
    nc.dma_copy(system_rows(j.g + k * count * m, count, m, 1, m, s0, P, r0, L), k == 0 ? g.re : g.im);
    nc.dma_copy(system_rows(j.h + k * count * m, count, m, 1, m, s0, P, r0, L), k == 0 ? h.re : h.im);
  }
  nc.tensor_copy(w.ycarry.re.rows(0, P), w.y.re.rows(0, P).cols(L - 1, 1));
  nc.tensor_copy(w.ycarry.im.rows(0, P), w.y.im.rows(0, P).cols(L - 1, 1));
  nc.tensor_copy(w.rq.re.rows(0, P).cols(0, 1), w.rq.re.rows(0, P).cols(L, 1));
  nc.tensor_copy(w.rq.im.rows(0, P).cols(0, 1), w.rq.im.rows(0, P).cols(L, 1));
}

// Rows [r0, r0 + L), last first: x_i = g_i - h_i x_{i+1}, row by row.
void backward_chunk_c32(NeuronCore& nc, const ThomasJob& j, const ThomasC32Tiles& w, std::int64_t s0, std::int32_t P,
                        std::int64_t r0, std::int64_t L) {
  const std::int64_t m = j.b->m, count = j.b->count;
  const Tile c1 = w.t1.rows(0, P).cols(0, 1), c2 = w.t2.rows(0, P).cols(0, 1);
  const ComplexPlanes g = view(w.g, P, 0, L), h = view(w.h, P, 0, L);
  for (int k = 0; k < 2; ++k) {
    nc.dma_copy(k == 0 ? g.re : g.im, reversed_rows(j.g + k * count * m, m, count, s0, P, r0, L));
    nc.dma_copy(k == 0 ? h.re : h.im, reversed_rows(j.h + k * count * m, m, count, s0, P, r0, L));
  }
  for (std::int64_t i = 0; i < L; ++i)
    tile::complex_multiply_subtract(nc, view(w.g, P, i, 1), view(w.h, P, i, 1),
                                    i == 0 ? view(w.xcarry, P, 0, 1) : view(w.g, P, i - 1, 1), c1, c2);
  nc.tensor_copy(w.xcarry.re.rows(0, P), w.g.re.rows(0, P).cols(L - 1, 1));
  nc.tensor_copy(w.xcarry.im.rows(0, P), w.g.im.rows(0, P).cols(L - 1, 1));
  for (int k = 0; k < 2; ++k) nc.dma_copy(reversed_rows(j.out + k * count * m, m, count, s0, P, r0, L), k == 0 ? g.re : g.im);
}

void thomas_c32_program(NeuronCore& nc, const ThomasJob& j) {
  const std::int64_t m = j.b->m, pmax = nc.hw().pmax;
  const std::int64_t s0 = nc.program_id() * pmax;
  const auto P = static_cast<std::int32_t>(std::min(pmax, j.b->count - s0));
  const std::int64_t L = std::min(j.chunk, m);
  AllocScope sb(nc.sbuf());
  const ThomasC32Tiles w = alloc_thomas_c32(sb, P, L);
  for (const Tile& t : {w.rq.re, w.rq.im, w.ycarry.re, w.ycarry.im, w.xcarry.re, w.xcarry.im}) nc.memset(t.rows(0, P).cols(0, 1), 0.0f);
  nc.memset(w.z.zmin.rows(0, P), kNoZero);
  for (std::int64_t r0 = 0; r0 < m; r0 += L) forward_chunk_c32(nc, j, w, s0, P, r0, std::min(L, m - r0));
  nc.dma_copy(system_rows(j.zero_row, j.b->count, 1, 1, 1, s0, P, 0, 1), w.z.zmin.rows(0, P));
  for (std::int64_t r0 = (m - 1) / L * L; r0 >= 0; r0 -= L) backward_chunk_c32(nc, j, w, s0, P, r0, std::min(L, m - r0));
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
              (cplx ? ", the three recurrences as row steps of [P, 1] complex instructions (33 per row)"
                    : ", each recurrence one tensor_tensor_scan");
  f.ops = std::to_string(static_cast<long long>((cplx ? 32.0 : 8.0) * static_cast<double>(b.m) * static_cast<double>(b.count))) +
          " flops";
  f.engines = "DMA (bands, right-hand sides, g/h scratch, reversed reads, x out), VectorE (scans, divides, zero-pivot "
              "marks), GpSimdE (row numbers)";
  f.predicted_ns = ns;
  f.why = cplx ? "systems are independent: 128 per instruction; a complex recurrence is not a real scan (row steps)"
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
  const std::int64_t words = (cplx ? 2 : 1) * m * count;  // complex: the re plane, then the im plane
  std::vector<float> g(z(words)), h(z(words)), out(z(words)), zero_row(z(count), kNoZero);
  const ThomasJob j{&b, g.data(), h.data(), out.data(), zero_row.data(), cplx ? kChunkRowsC32 : kChunkRows};
  const std::int64_t pmax = hardware_spec(s.target).pmax;
  const std::int64_t programs = (count + pmax - 1) / pmax;
  LaunchResult r = launch(s.launch_config({static_cast<int>(programs), 1, 1}), [&](NeuronCore& nc) {
    if (cplx)
      thomas_c32_program(nc, j);
    else
      thomas_program(nc, j);
  });
  if (!s.timing_only) {
    for (std::int64_t k = 0; k < count; ++k)
      if (zero_row[z(k)] != kNoZero) throw ZeroPivot(k, static_cast<std::int64_t>(zero_row[z(k)]));
    auto* x = static_cast<float*>(b.x);
    const int w = cplx ? 2 : 1;
    for (int p = 0; p < w; ++p)
      for (std::int64_t k = 0; k < count; ++k)
        for (std::int64_t i = 0; i < m; ++i)
          x[w * (i * b.x_elem_stride + k * b.x_sys_stride) + p] = out[z(p * m * count + k * m + i)];
  }
  if (report == nullptr) return;
  const bool wanted = report->plans_wanted;
  finish_report(*report, std::move(r.trace), ReportSettings::of(s));
  report->blocks = programs;
  if (wanted) report->add_plan(thomas_facts(routine, b, programs, report->profile.total_ns).print());
}

}  // namespace trn::sparse
