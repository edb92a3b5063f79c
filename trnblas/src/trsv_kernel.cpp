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

}  // namespace trn::blas
