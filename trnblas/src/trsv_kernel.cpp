// Triangular solve T X = B (T n x n lower or upper, B n x nrhs) as one tile kernel: the column
// form of substitution (Golub & Van Loan Alg. 3.1.3 "column-oriented forward substitution").
//
// B's rows live in SBUF row tiles (partitions = rows); T is loaded in column panels of pmax
// columns (partitions = rows of T). For each column j (ascending for lower, descending for upper):
//   bc[:, :]  = B[j, :] and tj[:, :] = T[j, panel] on every partition   TensorE selector matmuls
//   y         = B[j, :] / t_jj                                           VectorE divide (one rounding)
//   B[j, :]   = y   (rows p != j kept by 0/1 per-partition factors: exact)
//   B[i, :]  -= t_ij y   for the rows i not yet solved                  VectorE (mask on GpSimdE)
// Accuracy: componentwise backward stable, |dT| <= n u |T| (Higham, Thm 8.5).
// Limits: nrhs <= gemm_moving_fmax per call (the driver splits wider B).
// A TRSM (left side, no transpose of the stored view): trnblas's strsv and trnsolver's potrs/getrs use it.
#include <algorithm>
#include <array>
#include <span>

#include "level12_internal.hpp"
#include "trn/blas/level12.hpp"
#include "trn/tile/matmul.hpp"

namespace trn::blas {

void trsm_left_kernel(NeuronCore& nc, const TrsmProblem& pr) {
  const std::int64_t P = nc.hw().pmax, n = pr.n, m = pr.nrhs;
  const std::int64_t T = (n + P - 1) / P;
  const auto Pi = static_cast<std::int32_t>(P);
  AllocScope sb(nc.sbuf()), ps(nc.psum());
  const HbmTensor tview = HbmTensor::wrap(const_cast<float*>(pr.t), DType::f32, {n, n}, {pr.t_si, pr.t_sj});
  const HbmTensor bview = HbmTensor::wrap(pr.b, DType::f32, {n, m}, {1, pr.ldb});
  std::vector<Tile> bt, tt;
  for (std::int64_t t = 0; t < T; ++t) {
    const auto rows = static_cast<std::int32_t>(std::min(P, n - t * P));
    bt.push_back(sb.alloc(DType::f32, rows, {m}, "B rows"));
    tt.push_back(sb.alloc(DType::f32, rows, {P}, "T column panel"));
    nc.dma_copy(bt.back(), bview.tile(t * P, rows, 0, m));
  }
  Tile ones = sb.alloc(DType::f32, Pi, {P}, "ones");
  Tile sel = sb.alloc(DType::f32, Pi, {P}, "row selector");
  Tile keep = sb.alloc(DType::f32, Pi, {1}, "p != j");
  Tile put = sb.alloc(DType::f32, Pi, {1}, "p == j");
  Tile tcol = sb.alloc(DType::f32, Pi, {1}, "t_ij");
  Tile y = sb.alloc(DType::f32, Pi, {m}, "solution row");
  Tile upd = sb.alloc(DType::f32, Pi, {m}, "update");
  Tile tjj = sb.alloc(DType::f32, Pi, {1}, "t_jj");
  Tile bc = ps.alloc(DType::f32, Pi, {m}, "B row broadcast");
  Tile tc = ps.alloc(DType::f32, Pi, {P}, "T row broadcast");
  nc.memset(ones, 1.0f);
  tile::RowSelector selector(nc, sel, ones);  // row j of a tile onto every partition
  std::int64_t loaded_panel = -1;
  for (std::int64_t step = 0; step < n; ++step) {
    const std::int64_t j = pr.lower ? step : n - 1 - step;
    const std::int64_t panel = j / P, tj = j / P, jj = j % P;
    if (panel != loaded_panel) {
      const std::int64_t c0 = panel * P, cw = std::min(P, n - c0);
      for (std::int64_t t = 0; t < T; ++t)
        nc.dma_copy(tt[t].cols(0, cw), tview.tile(t * P, tt[t].partitions, c0, cw));
      // Only the stored triangle of the diagonal tile may be used: the other one is unreferenced
      // (BLAS) and may hold Inf/NaN, which the selector matmul would turn into NaN (0 x Inf).
      const std::array<std::int64_t, 2> tri{pr.lower ? -1 : 1, cw};  // lower: p - c >= 0, upper: c - p >= 0
      nc.affine_select(tt[panel].cols(0, cw), std::span(&tri, 1), 0, pr.lower ? 1 : -1, AluOp::greater_equal,
                       tt[panel].cols(0, cw), 0.0f);
      loaded_panel = panel;
    }
    selector.select(jj, bt[tj].partitions);
    selector.broadcast(bc, bt[tj]);                                                      // B[j, :]
    if (pr.unit) {
      nc.tensor_copy(y, bc);  // y = b_j
    } else {
      selector.broadcast(tc.cols(0, 1), tt[tj].cols(jj, 1));                              // t_jj
      nc.tensor_copy(tjj, tc.cols(0, 1));
      nc.tensor_scalar(y, bc, AluOp::divide, tjj);                                        // y = b_j / t_jj
    }
    for (std::int64_t t = 0; t < T; ++t) {
      const bool pending = pr.lower ? t >= tj : t <= tj;  // row tiles holding unsolved rows
      if (!pending) continue;
      const std::int32_t rows = bt[t].partitions;
      const Tile tcl = tcol.rows(0, rows);
      if (t == tj) {
        // t_ij only for the unsolved rows (i > j lower, i < j upper), 0 elsewhere.
        const std::array<std::int64_t, 2> one{0, 1};
        nc.affine_select(tcl, std::span(&one, 1), pr.lower ? -jj : jj, pr.lower ? 1 : -1, AluOp::greater,
                         tt[t].cols(jj, 1), 0.0f);
      } else {
        nc.tensor_copy(tcl, tt[t].cols(jj, 1));
      }
      nc.tensor_scalar(upd.rows(0, rows), y.rows(0, rows), AluOp::multiply, tcl);
      nc.tensor_tensor(bt[t], bt[t], upd.rows(0, rows), AluOp::subtract);
      if (t == tj) {
        const std::array<std::int64_t, 2> one{0, 1};
        nc.affine_select(keep.rows(0, rows), std::span(&one, 1), -jj, 1, AluOp::not_equal, ones.rows(0, rows).cols(0, 1), 0.0f);
        nc.affine_select(put.rows(0, rows), std::span(&one, 1), -jj, 1, AluOp::equal, ones.rows(0, rows).cols(0, 1), 0.0f);
        nc.tensor_scalar(bt[t], bt[t], AluOp::multiply, keep.rows(0, rows));
        nc.tensor_scalar(upd.rows(0, rows), y.rows(0, rows), AluOp::multiply, put.rows(0, rows));
        nc.tensor_tensor(bt[t], bt[t], upd.rows(0, rows), AluOp::add);
      }
    }
  }
  for (std::int64_t t = 0; t < T; ++t) nc.dma_copy(bview.tile(t * P, bt[t].partitions, 0, m), bt[t]);
}

namespace {
// One column step of the column-oriented substitution on partition 0 (trsv_kernel, tbsv_kernel):
//   x_j = x_j / t_jj (VectorE divide; not for a unit diagonal), then for the len unsolved rows
//   i0 .. i0 + len - 1 that column j reaches: x_i = x_i - t_ij x_j (a VectorE multiply into upd, then
//   a subtract). In t (T on partition 0), t_jj is word diag_word and t_ij are len words from col_word
//   on, col_step apart.
void substitute_column(NeuronCore& nc, const Tile& x, const Tile& upd, const Tile& t, bool unit, std::int64_t j,
                       std::int64_t diag_word, std::int64_t col_word, std::int64_t col_step, std::int64_t i0,
                       std::int64_t len) {
  const Tile xj = x.cols(j, 1);
  if (!unit) nc.tensor_scalar(xj, xj, AluOp::divide, t.cols(diag_word, 1));
  if (len <= 0) return;
  const Tile xi = x.cols(i0, len), u = upd.cols(0, len);
  nc.tensor_scalar(u, t.slice(0, col_word, len, col_step), AluOp::multiply, xj);
  nc.tensor_tensor(xi, xi, u, AluOp::subtract);
}
}  // namespace

// One right-hand side (trnblas's float trsv; the complex trsv's real form of order 2n): the same
// column-oriented substitution with x on the free axis of one partition, so no step crosses
// partitions and each instruction touches only the elements it computes.
//
// Algorithm: Golub & Van Loan Alg. 3.1.3 (the reference BLAS xTRSV's column form, "NoTrans" loop).
//   x[0, :] = b (one DMA); op(T)'s stored triangle is loaded in column panels onto partition 0
//   (kTrsvPanelElements words: columns [c0, c1) with the rows they use, lower [c0, n), upper [0, c1),
//   in T's storage order so each DMA run is contiguous). For each column j in order:
//     x_j  = x_j / t_jj                       VectorE tensor_scalar divide (not for a unit diagonal)
//     u    = t_ij x_j   (i unsolved)          VectorE tensor_scalar multiply, x_j a [1, 1] scalar
//     x_i  = x_i - u                          VectorE tensor_tensor subtract
//   2 or 3 instructions per row (trsm_left_kernel: 13 on 128 partitions).
// Engines: DMA and VectorE only.
// Accuracy: the same roundings as trsm_left_kernel and the reference loop for finite data — x_j =
//   fl(b_j / t_jj), x_i = fl(x_i - fl(t_ij x_j)) in the same order — so componentwise backward
//   stable, |dT| <= n u |T| (Higham, Thm 8.5). Only the unsolved rows are written and only the stored
//   triangle is read, so a -0 in x or an Inf/NaN elsewhere in T or x stays where IEEE puts it (the
//   selector matmuls and 0/1 masks of trsm_left_kernel turned such cases into +0 or NaN).
// Limits: nrhs == 1, n <= kTrsvMaxN (x and its update row live on one partition).
void trsv_kernel(NeuronCore& nc, const TrsmProblem& pr) {
  const std::int64_t n = pr.n;
  if (pr.nrhs != 1 || n < 1 || n > kTrsvMaxN)
    throw UsageError("trn::blas::trsv_kernel", "problem", "needs nrhs == 1 and 1 <= n <= kTrsvMaxN");
  const std::int64_t w_max = std::max<std::int64_t>(1, kTrsvPanelElements / n);
  // x, t_ij x_j and the T panel as one allocation (l12::FirstTiles): x is written whole by the first
  // DMA, upd and the panel before each read.
  const l12::FirstTiles sb(nc.sbuf(), {{1, n}, {1, n}, {1, std::min(n, w_max) * n}}, "trsv x, update, T panel");
  const Tile &x = sb[0], &upd = sb[1], &tp = sb[2];
  const Tile xh = HbmTensor::wrap(pr.b, DType::f32, {1, n}).tile(0, 1, 0, n);
  nc.dma_copy(x, xh);
  // T's contiguous storage axis: op(T)'s columns (t_si == 1) or its rows (t_sj == 1).
  const bool by_columns = pr.t_si == 1 || pr.t_sj != 1;
  for (std::int64_t done = 0; done < n; done += w_max) {
    const std::int64_t c0 = pr.lower ? done : std::max<std::int64_t>(0, n - done - w_max);
    const std::int64_t c1 = pr.lower ? std::min(n, done + w_max) : n - done, w = c1 - c0;
    const std::int64_t r0 = pr.lower ? c0 : 0, r1 = pr.lower ? n : c1, h = r1 - r0;
    // op(T)(i, j) of the panel is tp[(i - r0) ai + (j - c0) aj].
    const std::int64_t ai = by_columns ? 1 : w, aj = by_columns ? h : 1;
    float* t00 = const_cast<float*>(pr.t) + r0 * pr.t_si + c0 * pr.t_sj;
    const HbmTensor panel = by_columns ? HbmTensor::wrap(t00, DType::f32, {1, w, h}, {1, pr.t_sj, pr.t_si})
                                       : HbmTensor::wrap(t00, DType::f32, {1, h, w}, {1, pr.t_si, pr.t_sj});
    nc.dma_copy(tp.cols(0, w * h), by_columns ? panel.tile_nd({0, 0, 0}, {1, w, h}) : panel.tile_nd({0, 0, 0}, {1, h, w}));
    for (std::int64_t k = 0; k < w; ++k) {
      const std::int64_t j = pr.lower ? c0 + k : c1 - 1 - k;
      const std::int64_t i0 = pr.lower ? j + 1 : 0, len = pr.lower ? n - 1 - j : j;
      const auto word = [&](std::int64_t i) { return (i - r0) * ai + (j - c0) * aj; };  // op(T)(i, j) in tp
      substitute_column(nc, x, upd, tp, pr.unit, j, word(j), word(i0), ai, i0, len);
    }
  }
  nc.dma_copy(xh, x);
}

// One right-hand side of a triangular band solve, op(T) x = b, straight from band storage (session
// 19, issue #30): tbsv staged the band into a dense n x n copy first (stage_band_f32: a launch of
// its own, two affine_selects and an HBM round trip) and then ran trsv_kernel over full columns, out-
// of-band zeros included.
// Algorithm: trsv_kernel's column substitution (Golub & Van Loan Alg. 3.1.3) restricted to the band,
//   as the reference BLAS's xTBSV loops are: with kk = min(k, n - 1), the kk + 1 storage rows a
//   solve uses (upper: rows k - kk .. k; lower: 0 .. kk) are loaded onto partition 0 by one DMA
//   ([n, kk + 1] runs of stride lda: only elements of the caller's lda x n array), so op(T)(i, j)
//   is word (kk + i - j) + j (kk + 1) (upper storage) or (i - j) + j (kk + 1) (lower) of that row,
//   transposed by swapping i and j. Column j of op(T) below (above) the diagonal is then a run of
//   step 1 (no transpose) or kk (transpose). For each column j in the reference order:
//     x_j = x_j / t_jj                        VectorE tensor_scalar divide (not for a unit diagonal)
//     u   = t_ij x_j  (the band rows i only)   VectorE tensor_scalar multiply, x_j a [1, 1] scalar
//     x_i = x_i - u                           VectorE tensor_tensor subtract
// Engines: DMA and VectorE only.
// Accuracy: every in-band element gets the roundings of trsv_kernel on the dense expansion, in the
//   same order (x_j = fl(b_j / t_jj), x_i = fl(x_i - fl(t_ij x_j))), so componentwise backward stable
//   with at most kk + 1 terms per row: (T + dT) x = b, |dT| <= gamma_{kk+1} |T| (Higham, Thm 8.5).
//   The dense path also subtracted fl(0 x_j) from each x_i outside the band; this kernel does not,
//   as the reference loops do not. So the bits are the dense path's except where that made a
//   difference: x_i = -0 with a product -0 (the dense path gave +0) and an Inf or NaN x_j (0 x_j =
//   NaN spread over the column's out-of-band rows; here it stays in the band, as in the reference).
// Limits: n <= kTrsvMaxN and n (kk + 1) <= kTbsvBandElements (one SBUF partition); larger calls
//   take the staged dense path.
void tbsv_kernel(NeuronCore& nc, const BandSolve& pr) {
  const std::int64_t n = pr.n, kk = std::min(pr.k, n - 1), L = kk + 1;
  if (n < 1 || n > kTrsvMaxN || pr.k < 0 || n * L > kTbsvBandElements || pr.lda < pr.k + 1)
    throw UsageError("trn::blas::tbsv_kernel", "problem", "needs 1 <= n <= kTrsvMaxN, lda > k >= 0, n (min(k, n - 1) + 1) <= kTbsvBandElements");
  // x, t_ij x_j and the band as one allocation (l12::FirstTiles): x is written whole by the first DMA,
  // upd and the band before each read.
  const l12::FirstTiles sb(nc.sbuf(), {{1, n}, {1, std::max<std::int64_t>(1, kk)}, {1, n * L}}, "tbsv x, update, band");
  const Tile &x = sb[0], &upd = sb[1], &band = sb[2];
  // The HBM views field by field (session 23, host only): x is the Tile HbmTensor::wrap(b, f32, {1, n})
  // .tile(0, 1, 0, n) returned, the band the one wrap(a + row0, f32, {1, n, L}, {1, lda, 1})
  // .tile_nd({0, 0, 0}, {1, n, L}) returned -- without the two tensors' four heap vectors per call.
  const Tile xh = l12::hbm_f32(pr.b, 1, n, n, 1);
  nc.dma_copy(x, xh);
  const std::int64_t row0 = pr.upper_stored ? pr.k - kk : 0;  // the first storage row used
  Tile stored = l12::hbm_f32(pr.a + row0, 1, 1, n, pr.lda);   // [1, n] columns, lda apart ...
  stored.ndim = 2;                                             // ... of L consecutive rows each
  stored.size = {n, L, 1, 1};
  stored.stride = {pr.lda, 1, 0, 0};
  nc.dma_copy(band.cols(0, n * L), stored);
  // Word of T(r, c) (r, c in the band) in `band`, and of op(T)(i, j).
  const auto word_t = [&](std::int64_t r, std::int64_t c) { return (pr.upper_stored ? kk + r - c : r - c) + c * L; };
  const auto word_op = [&](std::int64_t i, std::int64_t j) { return pr.transposed ? word_t(j, i) : word_t(i, j); };
  const bool lower = pr.upper_stored == pr.transposed;  // op(T)'s triangle
  const std::int64_t step = pr.transposed ? kk : 1;     // between op(T)(i, j) and op(T)(i + 1, j)
  for (std::int64_t s = 0; s < n; ++s) {
    const std::int64_t j = lower ? s : n - 1 - s;
    const std::int64_t i0 = lower ? j + 1 : std::max<std::int64_t>(0, j - kk);
    const std::int64_t len = lower ? std::min(n - 1, j + kk) - j : j - i0;
    substitute_column(nc, x, upd, band, pr.unit, j, word_op(j, j), word_op(i0, j), step, i0, len);
  }
  nc.dma_copy(xh, x);
}

// The complex fp32 triangular solve op(A) x = b of order n <= kComplexTrsvMaxN in ONE program
// (session 27, issue #30). The general path (level2.cpp complex_trsv_dense) ran three launches with
// host packing between them: Smith's reciprocals of the diagonal, the rows of E = op(A) and b scaled
// by them (planes packed on the host), then trsv_kernel on the unit real form of order 2n built on
// the host. This kernel runs the same arithmetic on one partition's free axis, in one launch, with
// every VectorE operand one-dimensional (dense or stride 2: core's element loops, not its generic
// rows).
// Algorithm   Non-unit (unit: only step 4, the second columns staged by the host as the general
//   path's real form). The host stages (level12_internal.hpp) the diagonal as three rows of 2n
//   words, D = [(dr, dr) pairs | (di, -di) pairs | (dr, dr) pairs], then W = [b | E] and Ws, W with
//   each pair swapped, (im, re).
//   1. r_i = 1 / d_i by Smith's branch-free form (l12::complex_reciprocal's operations in its order:
//      big = max(|dr|, |di|), small = min, den = fl(fl(fl(small / big) small) + big), rr = fl(fl(dr /
//      big) / den), c = fl(fl(di / big) / den) = -ri). D's rows 0-1 against rows 1-2 give [big |
//      big] and [small | small] in one abs_max / abs_min each, so D's rows 0-1 become [(rr, rr) |
//      (c, -c)] pairs, the factors each word of a complex element is multiplied by: 7 instructions.
//   2. One SBUF-to-SBUF DMA repeats the two rows n + 1 times: R1 and R2 match W word for word (a
//      source dimension of step 0).
//   3. P = W R1 = (er rr, ei rr), Q = Ws R2 = (ei c, -(er c)), W = P + Q (dense): re = fl(fl(er rr) +
//      fl(ei c)) = fl(fl(er rr) - fl(ei ri)), im = fl(fl(ei rr) - fl(er c)) = fl(fl(er ri) + fl(ei rr)):
//      complex_mul's rounded products and sums, the signs folded into the factors. Now b' = r b and
//      column j of E' = D^-1 E is the real form's column 2j (er', ei' pairs); its column 2j + 1, the
//      pairs (-ei', er'), is written by a multiply by -1 (exact) and the sum re again (stride 2).
//   4. Column substitution on the real form of the unit E': for each column j in the reference
//      order, the rows i of op(A)'s triangle past j get x_i -= e'_ij re(x_j) from column 2j and
//      x_i -= (-ei', er')_ij im(x_j) from column 2j + 1 (substitute_column: a multiply into upd and
//      a subtract, 2(n - 1 - j) words, lower: 2j first, upper: 2j + 1 first as trsv_kernel's upper
//      order), 4 instructions per column.
//   DMAs: the staged words in (1), the solution out (1). 4n + 11 instructions (unit: 4n - 2).
// Engines     DMA and VectorE.
// Accuracy    Every word is the general path's: the same roundings in the same order (steps 1-3 are
//   complex_reciprocal and complex_mul on the same operands; step 4 is trsv_kernel's loop on the same
//   real form), except that the real form's zero at (2j + 1, 2j) is no longer applied (x_j's
//   imaginary part took fl(x - 0 re(x_j)): NaN when re(x_j) was infinite, and -0 became +0), as in
//   the reference CTRSV, which does not update x_j by its own column. Componentwise backward error
//   (docs/trnblas.md "Session 27, s27/ctrsv"): |b - op(A) x| <= sqrt(2) gamma_{2n+10} (|b| + |op(A)|
//   |x|) barring underflow and overflow.
// Limits      1 <= n <= kComplexTrsvMaxN (the trace and one SBUF partition's words, level12_internal.hpp).
void complex_trsv_kernel(NeuronCore& nc, const ComplexTrsvProblem& pr) {
  const std::int64_t n = pr.n, n2 = 2 * n, sq = 2 * n * n, words = complex_trsv_staged_words(n, pr.unit);
  if (n < 1 || n > kComplexTrsvMaxN)
    throw UsageError("trn::blas::complex_trsv_kernel", "problem", "needs 1 <= n <= kComplexTrsvMaxN");
  const std::int64_t lead = pr.unit ? 0 : 3 * n2;  // D's words before b
  const std::int64_t xa = n2 + sq;                 // W = [b | E]: the words the rows' scaling covers
  // The staged words, t_ij x_j, E's second real-form columns (non-unit), R1 | R2 and three scratch
  // rows: one allocation (l12::FirstTiles); each tile is a DMA's or an instruction's destination
  // before it is read.
  const std::array<l12::TileShape, 7> shapes{{{1, words}, {1, n2}, {1, sq}, {1, 2 * xa}, {1, 2 * n2}, {1, 2 * n2}, {1, 2 * n2}}};
  const l12::FirstTiles sb(nc.sbuf(), std::span(shapes.data(), pr.unit ? 2 : 7), "complex trsv");
  const Tile& staged = sb[0];
  const Tile& upd = sb[1];
  const Tile staged_hbm = l12::hbm_f32(pr.staged, 1, words, words, 1);
  nc.dma_copy(staged, staged_hbm);
  const Tile x = staged.cols(lead, n2), e = staged.cols(lead + n2, sq);
  const auto pairs = [](const Tile& t, std::int64_t part, std::int64_t count) { return t.slice(0, part, count, 2); };
  Tile second = pr.unit ? staged.cols(lead + xa, sq) : sb[2];  // the real form's columns 2j + 1
  if (!pr.unit) {
    const Tile &r = sb[3], &den = sb[4], &big = sb[5], &small = sb[6];
    const Tile num = staged.cols(0, 2 * n2), shifted = staged.cols(n2, 2 * n2);  // D's rows 0-1 and 1-2
    nc.tensor_tensor(big, num, shifted, AluOp::abs_max);    // [big | big]
    nc.tensor_tensor(small, num, shifted, AluOp::abs_min);  // [small | small]
    nc.tensor_tensor(den, small, big, AluOp::divide);  // t = small / big (<= 1)
    nc.tensor_tensor(den, den, small, AluOp::multiply);
    nc.tensor_tensor(den, den, big, AluOp::add);       // big + small t
    nc.tensor_tensor(num, num, big, AluOp::divide);
    nc.tensor_tensor(num, num, den, AluOp::divide);    // [(rr, rr) | (c, -c)]
    Tile repeated = num;  // [2][n + 1][2n]: each row n + 1 times
    repeated.ndim = 3;
    repeated.size = {2, n + 1, n2, 1};
    repeated.stride = {n2, 0, 1, 0};
    nc.dma_copy(r, repeated);
    const Tile r1 = r.cols(0, xa), r2 = r.cols(xa, xa), w = staged.cols(lead, xa), ws = staged.cols(lead + xa, xa);
    const std::int64_t ne = n * n;  // E's pairs
    nc.tensor_tensor(r1, w, r1, AluOp::multiply);   // P: (er rr, ei rr)
    nc.tensor_tensor(r2, ws, r2, AluOp::multiply);  // Q: (ei c, -(er c))
    nc.tensor_tensor(w, r1, r2, AluOp::add);        // (re, im) of e r
    nc.tensor_scalar(pairs(second, 0, ne), pairs(e, 1, ne), AluOp::multiply, -1.0f);
    nc.tensor_tensor(pairs(second, 1, ne), pairs(r1.cols(n2, sq), 0, ne), pairs(r2.cols(n2, sq), 0, ne), AluOp::add);
  }
  for (std::int64_t step = 0; step + 1 < n; ++step) {
    const std::int64_t j = pr.lower ? step : n - 1 - step;
    const std::int64_t i0 = pr.lower ? 2 * (j + 1) : 0, len = pr.lower ? 2 * (n - 1 - j) : 2 * j;
    for (const bool imaginary : {!pr.lower, pr.lower})
      substitute_column(nc, x, upd, imaginary ? second : e, true, 2 * j + (imaginary ? 1 : 0), 0, n2 * j + i0, 1, i0, len);
  }
  nc.dma_copy(staged_hbm.cols(lead, n2), x);
}

}  // namespace trn::blas
