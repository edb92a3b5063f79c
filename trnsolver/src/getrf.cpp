// sgetrf / sgetrs: blocked right-looking LU with partial pivoting (Golub & Van Loan Alg. 3.4.2).
// Per panel of w <= pmax columns: the panel kernel (below: the transposed kernel when the panel's
// rows fit in SBUF that way, else the row-tile kernel), the row swaps on the other columns (DMA),
// U12 = L11^-1 A12 by trnblas STRSM (inverse diagonal block + TensorE GEMM), A22 -= L21 U12 by
// trnblas GEMM.
//
// Row-tile panel kernel (rows j0..m-1 resident in SBUF as row tiles). For each column j:
//   pivot search  |a_ij| (VectorE, rows i < j masked to -1 by GpSimdE), columns moved onto one
//                 partition by VectorE 32 x 32 transposes, max (VectorE reduce), first index of the
//                 max (VectorE compare, GpSimdE iota, VectorE min-reduce); the host reads the index
//                 and the pivot magnitude (two scalars) to steer the next instructions
//   row swap      SBUF -> SBUF DMAs of the two partitions
//   elimination   pivot row broadcast by a TensorE selector matmul, l_i = a_ij / a_jj (VectorE
//                 divide, one rounding), rank-1 update of the panel's remaining columns (VectorE)
// then the same swaps are applied to the columns outside the panel (DMA through SBUF).
// Zero pivot: recorded in info, the column is left unscaled (LAPACK xGETF2).
// Accuracy: backward error ||PA - LU|| / ||A|| = O(n u) times the growth factor (Higham Thm 9.5).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "factor_recursive.hpp"
#include "interchanges.hpp"
#include "syevj_internal.hpp"
#include "trn/core/host_step.hpp"
#include "trn/blas/level3.hpp"   // strsm
#include "trn/blas/trsm_fp64.hpp"  // the DTRSMs' plan
#include "trn/tile/matmul.hpp"
#include "trn/tile/view.hpp"

namespace trn::solver {
namespace {

struct LuPanel {
  float* a = nullptr;
  std::int64_t lda = 0, m = 0, n = 0, j0 = 0, w = 0;
  bool pivot = true;
  int* ipiv = nullptr;  // global, 1-based (nullptr: no pivoting)
  int* info = nullptr;
  // Prediction (timing-only, nothing computed): the pivot search's scalars are not read; column j
  // takes the typical path, an interchange with the row half way down the rows below it.
  bool typical = false;
};

// The pivot row the kernels use: the device's candidate, or the typical path's when predicting.
std::int64_t pivot_row_of(const LuPanel& lp, std::int64_t j, std::int64_t rows, float& pivot_mag, float cand) {
  if (lp.typical) {
    pivot_mag = 1.0f;
    return j + (rows - j) / 2;
  }
  const auto cand_row = static_cast<std::int64_t>(cand);
  return std::isfinite(pivot_mag) && cand_row >= j && cand_row < rows ? cand_row : j;
}

// The panel's row swaps (LAPACK xLASWP), in order, as DMAs through SBUF: per interchange four row
// copies of up to kSwapChunk columns, over the columns [lo, hi) that span the columns outside the
// panel — whole rows when there are columns on both sides. Issued before the factored panel is
// stored, which overwrites the panel's columns of these rows: half the DMAs of swapping each side
// separately.
void apply_row_swaps(NeuronCore& nc, const LuPanel& lp, const std::vector<std::int64_t>& swaps) {
  constexpr std::int64_t kSwapChunk = 4096;  // columns per copy (16 KiB of one partition)
  const std::int64_t lo = lp.j0 == 0 ? lp.w : 0, hi = lp.j0 + lp.w >= lp.n ? lp.j0 : lp.n;
  if (hi <= lo) return;  // no columns outside the panel
  const std::int64_t chunk = std::min(kSwapChunk, hi - lo);
  AllocScope sb(nc.sbuf());
  const HbmTensor full = HbmTensor::wrap(lp.a, DType::f32, {lp.m, lp.n}, {1, lp.lda});
  Tile swap_a = sb.alloc(DType::f32, 1, {chunk}, "row a");
  Tile swap_b = sb.alloc(DType::f32, 1, {chunk}, "row b");
  for (std::size_t j = 0; j < swaps.size(); ++j) {
    const auto jl = static_cast<std::int64_t>(j);
    if (swaps[j] == jl) continue;
    const std::int64_t ra = lp.j0 + jl, rb = lp.j0 + swaps[j];
    for (std::int64_t c = lo; c < hi; c += chunk) {
      const std::int64_t cc = std::min(chunk, hi - c);
      nc.dma_copy(swap_a.cols(0, cc), full.tile(ra, 1, c, cc));
      nc.dma_copy(swap_b.cols(0, cc), full.tile(rb, 1, c, cc));
      nc.dma_copy(full.tile(ra, 1, c, cc), swap_b.cols(0, cc));
      nc.dma_copy(full.tile(rb, 1, c, cc), swap_a.cols(0, cc));
    }
  }
}

void lu_panel_kernel(NeuronCore& nc, const LuPanel& lp) {
  const std::int64_t P = nc.hw().pmax, R = lp.m - lp.j0, w = lp.w;
  const std::int64_t T = (R + P - 1) / P;
  const std::int64_t b = nc.hw().vector_transpose_max;
  const auto Pi = static_cast<std::int32_t>(P);
  AllocScope sb(nc.sbuf()), ps(nc.psum());
  const HbmTensor full = HbmTensor::wrap(lp.a, DType::f32, {lp.m, lp.n}, {1, lp.lda});
  std::vector<Tile> tiles;
  for (std::int64_t t = 0; t < T; ++t) {
    const auto rows = static_cast<std::int32_t>(std::min(P, R - t * P));
    tiles.push_back(sb.alloc(DType::f32, rows, {w}, "panel"));
    nc.dma_copy(tiles.back(), full.tile(lp.j0 + t * P, rows, lp.j0, w));
  }
  Tile ones = sb.alloc(DType::f32, Pi, {P}, "ones");
  Tile sel = sb.alloc(DType::f32, Pi, {P}, "row selector");
  Tile absc = sb.alloc(DType::f32, Pi, {1}, "|a_ij|");
  Tile row = sb.alloc(DType::f32, 1, {T * P}, "|column| on one partition");
  Tile idx = sb.alloc(DType::f32, 1, {T * P}, "row index");
  Tile mx = sb.alloc(DType::f32, 1, {2}, "max, argmax");
  Tile cand = sb.alloc(DType::f32, 1, {T * P}, "candidate index");
  Tile piv = sb.alloc(DType::f32, Pi, {1}, "pivot");
  Tile lcol = sb.alloc(DType::f32, Pi, {1}, "l_ij");
  Tile keep = sb.alloc(DType::f32, Pi, {1}, "unchanged part of column j");
  Tile upd = sb.alloc(DType::f32, Pi, {w}, "rank-1 term");
  Tile swap_a = sb.alloc(DType::f32, 1, {std::max<std::int64_t>(w, 1)}, "row a");
  Tile swap_b = sb.alloc(DType::f32, 1, {std::max<std::int64_t>(w, 1)}, "row b");
  Tile bc = ps.alloc(DType::f32, Pi, {w}, "pivot row broadcast");
  nc.memset(ones, 1.0f);
  tile::RowSelector pivot_row(nc, sel, ones);
  {
    const std::array<std::int64_t, 2> lin{1, T * P};
    nc.iota(idx, std::span(&lin, 1), 0, 0);
  }
  std::vector<std::int64_t> swaps;  // local pivot row of each column
  float scalars[2] = {0, 0};
  const HbmTensor sh = HbmTensor::wrap(scalars, DType::f32, {1, 2});
  for (std::int64_t j = 0; j < w; ++j) {
    const std::int64_t tj = j / P, jj = j % P;
    std::int64_t p_row = j;
    float pivot_mag = 0.0f;
    if (lp.pivot) {
      nc.memset(row, -1.0f);
      for (std::int64_t t = tj; t < T; ++t) {
        const std::int32_t rows = tiles[t].partitions;
        const std::array<std::int64_t, 2> one{0, 1};
        // |a_ij| for the unreduced rows (global local-row t*P + p >= j), -1 elsewhere.
        nc.tensor_scalar(absc.rows(0, rows), tiles[t].cols(j, 1), AluOp::abs_max, 0.0f);
        nc.affine_select(absc.rows(0, rows), std::span(&one, 1), t * P - j, 1, AluOp::greater_equal,
                         absc.rows(0, rows), -1.0f);
        for (std::int32_t r0 = 0; r0 < rows; r0 += static_cast<std::int32_t>(b)) {
          const auto br = static_cast<std::int32_t>(std::min<std::int64_t>(b, rows - r0));
          nc.nc_transpose(row.cols(t * P + r0, br), absc.rows(r0, br), Engine::vector);
        }
      }
      nc.tensor_reduce(mx.cols(0, 1), row, AluOp::maximum);
      // First index attaining the max: idx where equal, else a large value; then the minimum.
      nc.tensor_scalar(cand, row, AluOp::not_equal, mx.cols(0, 1), AluOp::multiply, 1e9f);  // 0 or 1e9
      nc.tensor_tensor(cand, cand, idx, AluOp::add);
      nc.tensor_reduce(mx.cols(1, 1), cand, AluOp::minimum);
      nc.dma_copy(sh.tile(0, 1, 0, 2), mx);
      pivot_mag = scalars[0];
      p_row = pivot_row_of(lp, j, R, pivot_mag, scalars[1]);
      if (p_row != j) {
        // Swap partitions (rows) j and p_row of the panel.
        const Tile ra = tiles[tj].rows(static_cast<std::int32_t>(jj), 1);
        const Tile rb = tiles[p_row / P].rows(static_cast<std::int32_t>(p_row % P), 1);
        nc.dma_copy(swap_a, ra);
        nc.dma_copy(swap_b, rb);
        nc.dma_copy(ra, swap_b);
        nc.dma_copy(rb, swap_a);
      }
    }
    swaps.push_back(p_row);
    if (lp.ipiv != nullptr) lp.ipiv[lp.j0 + j] = static_cast<int>(lp.j0 + p_row + 1);
    // Pivot row broadcast: bc[i, k] = a_jk.
    pivot_row.select(jj, tiles[tj].partitions);
    pivot_row.broadcast(bc, tiles[tj]);
    if (!lp.pivot) {
      nc.tensor_copy(mx.cols(0, 1), bc.rows(0, 1).cols(j, 1));
      nc.dma_copy(sh.tile(0, 1, 0, 1), mx.cols(0, 1));
      pivot_mag = lp.typical ? 1.0f : std::fabs(scalars[0]);
    }
    if (pivot_mag == 0.0f) {  // exactly singular column: LAPACK records it and does not scale
      if (*lp.info == 0) *lp.info = static_cast<int>(lp.j0 + j + 1);
      continue;
    }
    nc.tensor_copy(piv, bc.cols(j, 1));
    for (std::int64_t t = tj; t < T; ++t) {
      const std::int32_t rows = tiles[t].partitions;
      const Tile lc = lcol.rows(0, rows);
      nc.tensor_scalar(lc, tiles[t].cols(j, 1), AluOp::divide, piv.rows(0, rows));
      if (t == tj) {
        const std::array<std::int64_t, 2> one{0, 1};
        nc.affine_select(lc, std::span(&one, 1), -jj, 1, AluOp::greater, lc, 0.0f);            // rows below j
        nc.affine_select(keep.rows(0, rows), std::span(&one, 1), -jj, 1, AluOp::less_equal,
                         tiles[t].cols(j, 1), 0.0f);                                            // rows <= j
      }
      if (j + 1 < w) {
        nc.tensor_scalar(upd.rows(0, rows).cols(j + 1, w - j - 1), bc.rows(0, rows).cols(j + 1, w - j - 1),
                         AluOp::multiply, lc);
        nc.tensor_tensor(tiles[t].cols(j + 1, w - j - 1), tiles[t].cols(j + 1, w - j - 1),
                         upd.rows(0, rows).cols(j + 1, w - j - 1), AluOp::subtract);
      }
      if (t == tj)
        nc.tensor_tensor(tiles[t].cols(j, 1), lc, keep.rows(0, rows), AluOp::add);
      else
        nc.tensor_copy(tiles[t].cols(j, 1), lc);
    }
  }
  if (lp.pivot) apply_row_swaps(nc, lp, swaps);  // whole rows, before the panel's store
  for (std::int64_t t = 0; t < T; ++t) nc.dma_copy(full.tile(lp.j0 + t * P, tiles[t].partitions, lp.j0, w), tiles[t]);
}

// Transposed panel kernel: column k of the panel on partition k, its rows on the free axis (so a
// row interchange is a swap of two free-axis columns and a pivot search is one free-axis reduction,
// whatever the number of rows). For each column j:
//   pivot search  |a_ij| for i >= j, max, first index of the max (VectorE, on the 32-partition
//                 group holding partition j: the engines' partition-start alignment); the host
//                 reads the index and the pivot magnitude (two scalars) to steer the next instructions
//   row swap      three VectorE copies of free-axis columns, every partition at once
//   elimination   column j of the transposed panel (u_jk, a_jj) onto the free axis of j's
//                 32-partition group (TensorE, exact), stat[q, k] = (q == j) u_jk for k > j;
//                 l_i = a_ij / a_jj for i > j on that group only (VectorE divide, one rounding);
//                 the rank-1 term u_jk l_i on every partition k by one TensorE matmul per 512 rows
//                 (stat stationary, l moving: one nonzero term, the product rounded once as a
//                 multiply); a_ik -= it (VectorE, one PSUM input). Same operations and bits as
//                 dividing on every partition and multiplying on ScalarE (the previous version),
//                 with one pass over the rows per column fewer on VectorE and none on ScalarE
// Partition j keeps a_ij unscaled until the end, where every partition k divides its entries below
// the diagonal by its pivot a_kk (the same division, so the same l_ij bits; a zero pivot's column
// stays unscaled as in LAPACK xGETF2). The instructions per column do not grow with the panel's
// height (the row-tile kernel above needs ~10 per row tile of 128 rows); the floating-point
// operations are the row-tile kernel's, in the same order. Non-finite l_i: its product with the
// mask's zeros also writes NaN into the panel's earlier columns of that row; a non-finite entry of
// column j (rows >= the aligned start covering j) makes the whole panel NaN from step j on (the
// transposition matmul multiplies it by the identity's zeros).
// Limits: w <= pmax; SBUF 3 (m - j0) + 2 * 4 gemm_moving_fmax floats per partition
// (lu_panel_transposed_fits; the driver uses the row-tile kernel beyond).
std::int64_t transposed_psum_chunk(const HardwareSpec& hw) { return 4 * static_cast<std::int64_t>(hw.gemm_moving_fmax); }

bool lu_panel_transposed_fits(const HardwareSpec& hw, std::int64_t rows) {
  const std::int64_t floats = 3 * rows + 2 * transposed_psum_chunk(hw) + 2 * hw.pmax + 16;
  return floats * 4 + 32 * 1024 <= hw.sbuf_partition_bytes;  // 32 KiB left for the row-swap buffers
}

void lu_panel_transposed_kernel(NeuronCore& nc, const LuPanel& lp) {
  const std::int64_t R = lp.m - lp.j0, w = lp.w, mm = nc.hw().gemm_moving_fmax;
  const std::int64_t C = std::min(R, transposed_psum_chunk(nc.hw()));
  const std::int32_t W = static_cast<std::int32_t>(w), quad = 32;
  AllocScope sb(nc.sbuf()), ps(nc.psum());
  const HbmTensor panel_t = HbmTensor::wrap(lp.a + lp.j0 + lp.j0 * lp.lda, DType::f32, {w, R}, {lp.lda, 1});
  Tile at = sb.alloc(DType::f32, W, {R}, "panel^T");
  nc.dma_copy(at, panel_t.tile(0, W, 0, R));
  Tile work = sb.alloc(DType::f32, W, {R}, "|a_ij|, candidate index; scaled panel");
  Tile idx = sb.alloc(DType::f32, W, {R}, "row index");
  Tile ones = sb.alloc(DType::f32, W, {w}, "ones");
  Tile ident = sb.alloc(DType::f32, W, {w}, "identity");
  Tile stat = sb.alloc(DType::f32, W, {w}, "u_jk on partition j (k > j), else 0");
  Tile mx = sb.alloc(DType::f32, W, {2}, "max, argmax");
  Tile piv = sb.alloc(DType::f32, W, {1}, "pivot");
  Tile col = sb.alloc(DType::f32, W, {1}, "swapped column");
  Tile l = sb.alloc(DType::f32, W, {C}, "l_i on the group of partition j");
  // In PSUM: VectorE's subtract with one PSUM and one SBUF input runs at one element per cycle
  // (two with both in SBUF). bc and upd fill PSUM's 16 KiB per partition.
  Tile bc = ps.alloc(DType::f32, W, {C}, "rank-1 term u_jk l_i");
  Tile upd = ps.alloc(DType::f32, W, {C}, "pivot-search term; column j of panel^T along the free axis");
  nc.memset(ones, 1.0f);
  {
    const std::array<std::int64_t, 2> lin{1, R}, diag{-1, w};
    nc.iota(idx, std::span(&lin, 1), 0, 0);
    nc.affine_select(ident, std::span(&diag, 1), 0, 1, AluOp::equal, ones, 0.0f);
  }
  std::vector<std::int64_t> swaps;  // local pivot row of each column
  float scalars[2] = {0, 0};
  const HbmTensor sh = HbmTensor::wrap(scalars, DType::f32, {1, 2});
  for (std::int64_t j = 0; j < w; ++j) {
    const auto jp = static_cast<std::int32_t>(j);
    std::int64_t p_row = j;
    float pivot_mag = 0.0f;
    if (lp.pivot) {
      const std::int32_t q0 = jp / quad * quad, qn = std::min(quad, W - q0);
      const Tile wj = work.rows(q0, qn).cols(j, R - j), mq = mx.rows(q0, qn);
      nc.tensor_scalar(wj, at.rows(q0, qn).cols(j, R - j), AluOp::abs_max, 0.0f);
      nc.tensor_reduce(mq.cols(0, 1), wj, AluOp::maximum);
      // First index attaining the max: idx where equal, else a large value; then the minimum. The
      // 0-or-1e9 term goes through PSUM (upd is free here) when it fits, for the faster add.
      const Tile big = R - j <= C ? upd.rows(q0, qn).cols(0, R - j) : wj;
      nc.tensor_scalar(big, wj, AluOp::not_equal, mq.cols(0, 1), AluOp::multiply, 1e9f);  // 0 or 1e9
      nc.tensor_tensor(wj, big, idx.rows(q0, qn).cols(j, R - j), AluOp::add);
      nc.tensor_reduce(mq.cols(1, 1), wj, AluOp::minimum);
      nc.dma_copy(sh.tile(0, 1, 0, 2), mx.rows(jp, 1));  // partition j's (max, argmax)
      pivot_mag = scalars[0];
      p_row = pivot_row_of(lp, j, R, pivot_mag, scalars[1]);
      if (p_row != j) {  // rows j and p_row of the panel: free-axis columns of panel^T
        nc.tensor_copy(col, at.cols(j, 1));
        nc.tensor_copy(at.cols(j, 1), at.cols(p_row, 1));
        nc.tensor_copy(at.cols(p_row, 1), col);
      }
    } else {
      nc.dma_copy(sh.tile(0, 1, 0, 1), at.rows(jp, 1).cols(j, 1));
      pivot_mag = lp.typical ? 1.0f : std::fabs(scalars[0]);
    }
    swaps.push_back(p_row);
    if (lp.ipiv != nullptr) lp.ipiv[lp.j0 + j] = static_cast<int>(lp.j0 + p_row + 1);
    if (pivot_mag == 0.0f) {  // exactly singular column: LAPACK records it and does not scale
      if (*lp.info == 0) *lp.info = static_cast<int>(lp.j0 + j + 1);
      continue;
    }
    if (j + 1 >= R || j + 1 >= w) continue;  // no rows below the pivot, or no columns right of it
    // Only partitions k > j change: work on the aligned partition range [k0, w) that covers them;
    // the group of 32 partitions holding j computes l and is the contraction of the rank-1 matmul.
    const std::int32_t qj = jp / quad * quad, kq = std::min(quad, W - qj);
    const std::int32_t ka = detail::aligned_partition_start(jp, W), kk = W - ka;  // covers j
    const std::int32_t k0 = detail::aligned_partition_start(jp + 1, W), kn = W - k0;  // covers k > j
    // Column j of panel^T (u_jk = panel^T[k, j], and a_jj) along the free axis of j's group:
    // ut[q, c] = panel^T[ka + c, j] (TensorE: the column as a stride-0 stationary, the identity
    // moving; exact, one nonzero term).
    const Tile col_j = tile::broadcast(at.rows(ka, kk).cols(j, 1), 0, kq);
    const Tile ut = upd.rows(qj, kq).cols(0, kk), pivot_g = ut.cols(j - ka, 1);
    tile::Accumulator(nc, ut).matmul(col_j, ident.rows(ka, kk).cols(ka, kk));
    // stat[q, k] = (q == j) u_jk for k > j, 0 for k <= j (a 0/1 factor: the entries it zeroes are
    // finite unless the panel is).
    const Tile st = stat.rows(qj, kq).cols(0, kn);
    nc.tensor_scalar(st, ut.cols(k0 - ka, kn), AluOp::multiply, ident.rows(qj, kq).cols(j, 1));
    if (jp + 1 > k0) nc.memset(st.cols(0, jp + 1 - k0), 0.0f);
    const Tile at_j = at.rows(qj, kq), at_k = at.rows(k0, kn), bc_k = bc.rows(k0, kn), l_j = l.rows(qj, kq);
    for (std::int64_t c0 = j; c0 < R; c0 += C) {
      const std::int64_t i0 = c0 == j ? 1 : 0, len = std::min(C, R - c0) - i0;  // rows strictly below j
      if (len == 0) continue;
      // l_i = a_ij / a_jj on j's group (VectorE divide, one rounding; the group's other rows divide
      // finite entries by the pivot and meet zeros of stat), then bc[k, i] = u_jk l_i by TensorE
      // (one nonzero term: the product rounded once, as a multiply) and a_ik -= bc[k, i].
      nc.tensor_scalar(l_j.cols(0, len), at_j.cols(c0 + i0, len), AluOp::divide, pivot_g);
      tile::matmul_by_columns(nc, bc_k, st, l_j.cols(0, len), mm);
      const Tile as = at_k.cols(c0 + i0, len);
      nc.tensor_tensor(as, as, bc_k.cols(0, len), AluOp::subtract);
    }
  }
  // l_ik = a_ik / a_kk below the diagonal (i > k); a zero pivot divides by 1 (column left unscaled).
  {
    const std::array<std::int64_t, 2> diag_pat{1, w}, tri{1, R};
    Tile dsel = stat;  // [w, w] scratch (no longer needed)
    nc.affine_select(dsel, std::span(&diag_pat, 1), 0, -1, AluOp::equal, at.cols(0, w), 0.0f);  // i == k
    nc.tensor_reduce(piv, dsel, AluOp::add);                                                      // a_kk
    nc.tensor_scalar(piv, piv, AluOp::equal, 0.0f, AluOp::add, piv);                             // 0 -> 1
    nc.tensor_scalar(work, at, AluOp::divide, piv);
    nc.affine_select(work, std::span(&tri, 1), 0, -1, AluOp::greater, work, 0.0f);                // i > k
    nc.affine_select(at, std::span(&tri, 1), 0, -1, AluOp::less_equal, at, 0.0f);                 // i <= k
    nc.tensor_tensor(at, at, work, AluOp::add);
  }
  if (lp.pivot) apply_row_swaps(nc, lp, swaps);  // whole rows, before the panel's store
  nc.dma_copy(panel_t.tile(0, W, 0, R), at);
}

LaunchConfig config_of(const Settings& s) {
  LaunchConfig lc = s.launch_config();
  lc.num_cores = 1;        // one factorization: a sequence of dependent launches
  lc.core.execute = true;  // the host reads pivots between launches
  return lc;
}

}  // namespace

void detail::strsm_left(const Settings& s, const float* t, std::int64_t si, std::int64_t sj, bool lower, bool unit,
                        std::int64_t n, std::int64_t nrhs, float* B, std::int64_t ldb, TraceParts& trace) {
  if (n == 0 || nrhs == 0) return;
  trn::blas::Settings bs;
  static_cast<EmulatorSettings&>(bs) = s;
  bs.num_cores = 1;
  // Substitution in every diagonal block for more than kTrsmNarrowMaxRhs right-hand sides: the
  // componentwise bound of the tile kernel this replaces (with <= 128 right-hand sides STRSM
  // substitutes anyway). With few right-hand sides substitution is a chain of 3 n dependent VectorE
  // instructions; STRSM's narrow kernel solves with TensorE inverses of the diagonal blocks and a
  // refinement step instead (componentwise to first order, plus a second-order term in cond(T_b):
  // docs/trnblas.md "TRSM with few right-hand sides").
  bs.trsm_substitution = nrhs > blas::kTrsmNarrowMaxRhs;
  bs.report_trace_only = true;  // the caller models its whole trace once
  // The view (i, j) -> t[i si + j sj] is the column-major matrix t (ld sj) when si == 1, else the
  // transpose of the column-major matrix t (ld si), whose other triangle it is.
  const bool direct = si == 1;
  const blas::Uplo uplo = lower == direct ? blas::Uplo::lower : blas::Uplo::upper;
  blas::CallReport r;
  blas::strsm(bs, blas::GemmMode::fp32, blas::Side::left, uplo, direct ? blas::Op::N : blas::Op::T,
              unit ? blas::Diag::unit : blas::Diag::non_unit, n, nrhs, 1.0f, t, direct ? sj : si, B, ldb, &r);
  trace.add(std::move(r.trace));
}

double predict_sgetrf_ns(const Settings& s, const FactorPlan& plan, bool pivot) {
  blas::Settings bs = detail::step_blas_settings(s);
  bs.report_trace_only = false;
  blas::Settings ts = bs;
  ts.timing_only = true;
  LaunchConfig lc = config_of(s);
  lc.core.execute = false;
  const std::int64_t m = plan.m, n = plan.n, nb = plan.nb, kmin = std::min(m, n);
  // Placeholder device addresses (never dereferenced: nothing executes); one array A.
  float* const a = reinterpret_cast<float*>(std::uintptr_t{1} << 40);
  int info = 0;
  double ns = 0;
  for (std::int64_t j0 = 0; j0 < kmin; j0 += nb) {
    const std::int64_t w = std::min(nb, kmin - j0), n2 = n - j0 - w, m2 = m - j0 - w;
    LuPanel lp{a, m, m, n, j0, w, pivot, nullptr, &info, true};
    const bool transposed = plan.transposed(j0);
    ns += model_trace(launch(lc, [&](NeuronCore& nc) {
                        if (transposed)
                          lu_panel_transposed_kernel(nc, lp);
                        else
                          lu_panel_kernel(nc, lp);
                      }).trace,
                      ReportSettings{s.target})
              .total_ns;
    if (n2 <= 0) continue;
    blas::CallReport tr;
    blas::strsm(ts, blas::GemmMode::fp32, blas::Side::left, blas::Uplo::lower, blas::Op::N, blas::Diag::unit, w, n2,
                1.0f, a + j0 + j0 * m, m, a + j0 + (j0 + w) * m, m, &tr);
    ns += tr.profile.total_ns;
    if (m2 > 0)
      ns += blas::predict_gemm_ns(bs, plan.update_mode, blas::Op::N, blas::Op::N, m2, n2, w, -1.0f, 1.0f);
  }
  return ns;
}

int sgetrf(const Settings& s, std::int64_t m, std::int64_t n, float* A, std::int64_t lda, int* ipiv, CallReport* report) {
  return detail::sgetrf_mode(s, blas::GemmMode::fp32, m, n, A, lda, ipiv, report);
}

// sgetrf with the trailing updates in `mode` (fp32 for sgetrf; fp16/bf16/tf32 for the IR solvers).
int detail::sgetrf_mode(const Settings& s, blas::GemmMode mode, std::int64_t m, std::int64_t n, float* A, std::int64_t lda,
                int* ipiv, CallReport* report) {
  if (m < 0 || n < 0 || lda < std::max<std::int64_t>(1, m) || (m > 0 && n > 0 && A == nullptr))
    throw UsageError("trnsolver", "argument", "sgetrf: m, n >= 0, lda >= max(1, m), A not NULL");
  if (report != nullptr) *report = CallReport{};
  FactorPlan plan = plan_getrf(s, m, n, mode, false);
  if (report != nullptr)
    plan.predicted_ns = trn::LazyNs([s, p = plan, pivot = ipiv != nullptr] { return predict_sgetrf_ns(s, p, pivot); });
  const std::int64_t nb = plan.nb, kmin = std::min(m, n);
  const blas::Settings bs = detail::step_blas_settings(s);
  TraceParts trace;
  int info = 0;
  for (std::int64_t j0 = 0; j0 < kmin; j0 += nb) {
    const std::int64_t w = std::min(nb, kmin - j0);
    LuPanel lp{A, lda, m, n, j0, w, ipiv != nullptr, ipiv, &info};
    const bool transposed = plan.transposed(j0);
    LaunchResult r = launch(config_of(s), [&](NeuronCore& nc) {
      if (transposed)
        lu_panel_transposed_kernel(nc, lp);
      else
        lu_panel_kernel(nc, lp);
    });
    trace.add(std::move(r.trace));
    const std::int64_t n2 = n - j0 - w, m2 = m - j0 - w;
    if (n2 <= 0) continue;
    // U12 = L11^-1 A12 (unit lower triangular solve: trnblas STRSM in fp32 mode, the diagonal block
    // inverted on VectorE and applied by one TensorE GEMM), then A22 -= L21 U12 (trnblas GEMM).
    {
      blas::CallReport tr;
      blas::strsm(bs, blas::GemmMode::fp32, blas::Side::left, blas::Uplo::lower, blas::Op::N, blas::Diag::unit, w, n2,
                  1.0f, A + j0 + j0 * lda, lda, A + j0 + (j0 + w) * lda, lda, &tr);
      trace.add(std::move(tr.trace));
    }
    if (m2 <= 0) continue;
    blas::CallReport br;
    blas::gemm(bs, mode, blas::Op::N, blas::Op::N, m2, n2, w, -1.0f,
               {A + (j0 + w) + j0 * lda, DType::f32, lda}, {A + j0 + (j0 + w) * lda, DType::f32, lda}, 1.0f,
               {A + (j0 + w) + (j0 + w) * lda, DType::f32, lda}, &br);
    trace.add(std::move(br.trace));
  }
  detail::finish_factor_report(report, std::move(trace), s.target, plan);
  return info;
}

FactorPlan plan_getrf(const Settings& s, std::int64_t m, std::int64_t n, blas::GemmMode update_mode, bool fp64) {
  const HardwareSpec& hw = hardware_spec(s.target);
  FactorPlan plan;
  plan.routine = fp64 ? "dgetrf" : "sgetrf";
  plan.m = m;
  plan.n = n;
  plan.nb = hw.pmax;  // one panel column per partition
  const std::int64_t kmin = std::min(m, n);
  plan.panels = kmin > 0 ? (kmin + plan.nb - 1) / plan.nb : 0;
  plan.host_panels = fp64;
  plan.update_mode = fp64 ? blas::GemmMode::fp64_ozaki : update_mode;
  if (fp64) {
    plan.why = "recursive panels (Ozaki DGEMM updates, DMA interchanges; a column's pivot search and scaling on the "
               "host), U12 by recursive Ozaki TRSM, A22 -= L21 U12 by Ozaki DGEMM";
    return plan;
  }
  // The transposed panel kernel once the panel's rows fit SBUF (rows shrink panel by panel).
  for (std::int64_t j0 = 0; j0 < kmin && plan.transposed_from < 0; j0 += plan.nb)
    if (lu_panel_transposed_fits(hw, m - j0)) plan.transposed_from = j0;
  plan.why = plan.transposed_from < 0 ? std::string("no panel's rows fit SBUF as panel^T: row-tile kernel throughout")
                                      : "panel rows fit SBUF as panel^T (3 rows + PSUM chunks per partition, 32 KiB "
                                        "for swaps) from j0 = " + std::to_string(plan.transposed_from) +
                                        "; row-tile kernel before";
  return plan;
}

void sgetrs(const Settings& s, bool trans, std::int64_t n, std::int64_t nrhs, const float* A, std::int64_t lda,
            const int* ipiv, float* B, std::int64_t ldb, CallReport* report) {
  if (n < 0 || nrhs < 0 || lda < std::max<std::int64_t>(1, n) || ldb < std::max<std::int64_t>(1, n) ||
      (n > 0 && nrhs > 0 && (A == nullptr || B == nullptr)))
    throw UsageError("trnsolver", "argument", "sgetrs: n, nrhs >= 0, lda, ldb >= max(1, n), A and B not NULL");
  if (report != nullptr) *report = CallReport{};
  if (n == 0 || nrhs == 0) return;
  TraceParts trace;
  if (!trans) {
    detail::apply_interchanges(s, ipiv, 0, n, true, n, nrhs, B, ldb, sizeof(float), trace);  // P B (DMA)
    detail::strsm_left(s, A, 1, lda, true, true, n, nrhs, B, ldb, trace);
    detail::strsm_left(s, A, 1, lda, false, false, n, nrhs, B, ldb, trace);
  } else {
    // A^T = U^T L^T P: U^T y = b (lower view of U), L^T z = y (unit, upper view of L), then P^T.
    detail::strsm_left(s, A, lda, 1, true, false, n, nrhs, B, ldb, trace);
    detail::strsm_left(s, A, lda, 1, false, true, n, nrhs, B, ldb, trace);
    detail::apply_interchanges(s, ipiv, 0, n, false, n, nrhs, B, ldb, sizeof(float), trace);
  }
  // As dgetrs: a sub-call's report (the refinement solvers' solves, detail::SubCallParts) is neither
  // joined nor modeled here; a caller's own report is modeled as before (no host flops).
  detail::finish_fp64_report(report, std::move(trace), s.target, 0);
}

}  // namespace trn::solver

namespace trn::solver {

// U12 = L11^-1 A12 for the unit lower w x w triangle L11 (ld ldl), A12 w x cols (ld ldb): recursive
// halving (the top half solved, the bottom half updated by one Ozaki DGEMM, then solved) down to
// diagonal blocks of 16 rows, solved by trnblas DTRSM (its fp64 substitution host step, 16^2 cols
// flops per block: O(16 w cols) over the triangle, not O(w^2 cols)). factor_recursive.cpp.
void detail::dgetrf_u12(const Settings& s, std::int64_t w, std::int64_t cols, const double* L, std::int64_t ldl,
                        double* B, std::int64_t ldb, TraceParts& trace) {
  int info = 0;
  double host = 0;
  detail::getrf_u12(detail::RecursiveFactor{s, blas::GemmMode::fp64_ozaki, true, info, host, trace}, w, cols, L, ldl, B, ldb);
}

void dgetrf_u12(const Settings& s, std::int64_t w, std::int64_t cols, const double* L, std::int64_t ldl, double* B,
                std::int64_t ldb, CallReport* report) {
  TraceParts trace;
  detail::dgetrf_u12(s, w, cols, L, ldl, B, ldb, trace);
  if (report != nullptr) finish_report(*report, std::move(trace).join(), ReportSettings{s.target});
}

int dgetrf(const Settings& s, std::int64_t m, std::int64_t n, double* A, std::int64_t lda, int* ipiv, CallReport* report) {
  return detail::dgetrf_driver(s, m, n, A, lda, ipiv, report, true);
}

int detail::dgetrf_driver(const Settings& s, std::int64_t m, std::int64_t n, double* A, std::int64_t lda, int* ipiv,
                          CallReport* report, bool with_plan) {
  if (m < 0 || n < 0 || lda < std::max<std::int64_t>(1, m) || (m > 0 && n > 0 && A == nullptr))
    throw UsageError("trnsolver", "argument", "dgetrf: m, n >= 0, lda >= max(1, m), A not NULL");
  if (report != nullptr) *report = CallReport{};
  FactorPlan plan = plan_getrf(s, m, n, blas::GemmMode::fp64_ozaki, true);
  if (report != nullptr)
    plan.predicted_ns = trn::LazyNs([s, p = plan, pivot = ipiv != nullptr] { return predict_dgetrf_ns(s, p, pivot); });
  TraceParts trace;
  double host = 0;
  int info = 0;
  detail::getrf_blocked(detail::RecursiveFactor{s, blas::GemmMode::fp64_ozaki, ipiv != nullptr, info, host, trace}, m, n, A,
                        lda, ipiv, plan.nb);
  if (with_plan)
    detail::finish_factor_report(report, std::move(trace), s.target, plan, host);
  else
    detail::finish_fp64_report(report, std::move(trace), s.target, host);
  return info;
}

namespace detail {

BatchTraceSink& batch_trace_sink() {
  thread_local BatchTraceSink sink;
  return sink;
}

const Report*& SubCallReport::current() {
  thread_local const Report* report = nullptr;
  return report;
}

void finish_fp64_report(CallReport* report, TraceParts&& trace, Generation target, double host_fp64_flops) {
  if (report == nullptr) return;
  if (const BatchTraceSink& sink = batch_trace_sink(); sink.report == report && sink.parts != nullptr) {
    sink.parts->add(std::move(trace));
    report->host_fp64_flops = host_fp64_flops;
    return;
  }
  finish_report(*report, std::move(trace).join(), sub_call_settings(report, ReportSettings{target}));
  report->host_fp64_flops = host_fp64_flops;
}

void finish_factor_report(CallReport* report, TraceParts&& trace, Generation target, const FactorPlan& plan,
                          double host_fp64_flops) {
  finish_fp64_report(report, std::move(trace), target, host_fp64_flops);
  if (report != nullptr) report->add_plan(plan);
}

void dtrsm_left(const Settings& s, blas::Uplo uplo, blas::Op op, blas::Diag diag, std::int64_t n, std::int64_t nrhs,
                const double* A, std::int64_t lda, double* B, std::int64_t ldb, TraceParts& trace) {
  if (n <= 0 || nrhs <= 0) return;
  blas::CallReport r;
  blas::dtrsm(fp64_update_blas_settings(s), blas::Side::left, uplo, op, diag, n, nrhs, 1.0, A, lda, B, ldb, &r);
  trace.add(std::move(r.trace));
}

void begin_fp64_solve(const Settings& s, const char* name, std::int64_t n, std::int64_t nrhs, const double* A,
                      std::int64_t lda, const double* B, std::int64_t ldb, CallReport* report) {
  if (n < 0 || nrhs < 0 || lda < std::max<std::int64_t>(1, n) || ldb < std::max<std::int64_t>(1, n) ||
      (n > 0 && nrhs > 0 && (A == nullptr || B == nullptr)))
    throw UsageError("trnsolver", "argument", std::string(name) + ": n, nrhs >= 0, lda, ldb >= max(1, n), A and B not NULL");
  if (report != nullptr) {
    *report = CallReport{};
    report->profile.target = s.target;
  }
}

}  // namespace detail

void dgetrs(const Settings& s, bool trans, std::int64_t n, std::int64_t nrhs, const double* A, std::int64_t lda,
            const int* ipiv, double* B, std::int64_t ldb, CallReport* report) {
  detail::begin_fp64_solve(s, "dgetrs", n, nrhs, A, lda, B, ldb, report);
  if (n == 0 || nrhs == 0) return;
  TraceParts trace;
  const auto L = blas::Uplo::lower, U = blas::Uplo::upper;
  const auto N = blas::Op::N, T = blas::Op::T;
  if (!trans) {  // L U X = P B: the interchanges (DMA), then L (unit) and U by trnblas DTRSM
    detail::apply_interchanges(s, ipiv, 0, n, true, n, nrhs, B, ldb, sizeof(double), trace);
    detail::dtrsm_left(s, L, N, blas::Diag::unit, n, nrhs, A, lda, B, ldb, trace);
    detail::dtrsm_left(s, U, N, blas::Diag::non_unit, n, nrhs, A, lda, B, ldb, trace);
  } else {  // U^T L^T P X = B
    detail::dtrsm_left(s, U, T, blas::Diag::non_unit, n, nrhs, A, lda, B, ldb, trace);
    detail::dtrsm_left(s, L, T, blas::Diag::unit, n, nrhs, A, lda, B, ldb, trace);
    detail::apply_interchanges(s, ipiv, 0, n, false, n, nrhs, B, ldb, sizeof(double), trace);
  }
  detail::finish_fp64_report(report, std::move(trace), s.target, 0);
  if (report != nullptr) report->add_plan(blas::plan_fp64_trsm(n, nrhs, false));  // each of the two DTRSMs
}

}  // namespace trn::solver
