// The tridiagonalization's column product y = A x, fp32 (sytrd.cpp's xLATRD: one per column of a
// panel, on the panel's staged symmetric copy).
//
// Algorithm   trnblas gemv(Op::N, n, n, 1, A, lda, x, 1, 0, y, 1) with 128 < n <= 256 runs trnblas's
//             GEMM driver on the 1 x n x n row product y^T = x^T A^T (level2.cpp, gemv_row): a plan,
//             four operand slots and two epilogue slots allocated (and poison-filled), the terms packed
//             through the generic K loop -- ~13 us of host time per column, against ~1.6 us for the
//             one-program gemv of n <= 128 (docs/trnsolver.md, session 18). This kernel issues the
//             driver's instructions for that plan directly, in the driver's order, on tiles at the
//             driver's SBUF / PSUM offsets:
//               per K tile kt (rows k0 = 128 kt .. k0 + tk of A^T): DMA x(k0 : k0 + tk) -> [tk, 1],
//                 DMA A^T(k0 : k0 + tk, 0 : n) -> [tk, n] (partition k: A's column k, contiguous), then
//                 per output tile jt (128 rows of y): nc_matmul(PSUM bank jt, A^T tile's columns of jt,
//                 x tile, accumulate = kt > 0) -- the fp32 PSUM sums in increasing k;
//               per output tile: tile::evacuate (alpha = 1: a VectorE tensor_copy) into its epilogue
//                 slot; then per output tile one DMA to y.
//             Slots: operand slot kt at kt (64 + round64(4 n)) bytes per partition ([128, 1] x term,
//             then [128, n] A^T term), the four slots the driver allocates (K tiles <= 2 use two of
//             them), epilogue slot jt after them at jt * 2048 ([128, 512] fp32), PSUM bank jt at
//             jt * 2048. Same instructions on the same operands at the same addresses: the same trace
//             records, bits and modeled time as the driver; a test compares the two record by record
//             for every n in (128, 256] on each target (tests/trnsolver/test_trnsolver_column_gemv.cpp).
// Engines     DMA, TensorE, VectorE.
// Accuracy    trnblas gemv's: |y - A x| <= gamma_{n+2} |A| |x| componentwise (exact fp32 products, fp32
//             PSUM accumulation in increasing k).
// Limits      128 < n <= 256 (two K tiles, two output tiles), one emulated core, not timing-only, ideal
//             numerics without stochastic rounding (the settings the test covers), a target whose pmax,
//             stationary width and moving width are 128, 128 and 512; any other call runs trnblas gemv
//             itself.
#include "column_gemv.hpp"

#include <algorithm>
#include <array>

#include "trn/blas/level12.hpp"
#include "trn/tile/matmul.hpp"
#include "trn/tile/view.hpp"

namespace trn::solver::detail {
namespace {

constexpr std::int64_t kTile = 128;         // K tile and output tile (pmax = stationary width)
constexpr std::int64_t kEpilogueWidth = 512;  // the driver's epilogue tiles: [128, gemm_moving_fmax] fp32
constexpr int kOperandSlots = 4;            // the driver's K-tile buffers for this plan

bool fits(const blas::Settings& s, std::int64_t n) {
  const HardwareSpec& hw = hardware_spec(s.target);
  return n > kTile && n <= 2 * kTile && !s.timing_only && s.num_cores <= 1 && s.numerics == Numerics::ideal &&
         !s.stochastic_rounding && hw.pmax == kTile && hw.gemm_stationary_fmax == kTile &&
         hw.gemm_moving_fmax == kEpilogueWidth;
}

}  // namespace

void column_gemv(const blas::Settings& s, std::int64_t n, const float* A, std::int64_t lda, const float* x, float* y,
                 TraceParts& trace) {
  if (!fits(s, n)) {
    blas::CallReport r;
    blas::gemv(s, blas::Op::N, n, n, 1.0f, A, lda, x, 1, 0.0f, y, 1, &r);
    trace.add(std::move(r.trace));
    return;
  }
  const std::int64_t k_tiles = (n + kTile - 1) / kTile, j_tiles = k_tiles;
  const auto P = static_cast<std::int32_t>(kTile);
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    AllocScope sb(nc.sbuf()), ps(nc.psum());
    constexpr AllocFill kWrittenFirst = AllocFill::none;  // each is a DMA's or an instruction's destination first
    std::array<Tile, kOperandSlots> xs, at;
    for (int u = 0; u < kOperandSlots; ++u) {
      xs[u] = sb.alloc(DType::f32, P, {1}, "x", 0, kWrittenFirst);
      at[u] = sb.alloc(DType::f32, P, {n}, "A^T", 0, kWrittenFirst);
    }
    std::array<Tile, 2> acc, out;
    for (int t = 0; t < 2; ++t) acc[t] = ps.alloc(DType::f32, P, {kEpilogueWidth}, "A x", 0, kWrittenFirst);
    for (int t = 0; t < 2; ++t) out[t] = sb.alloc(DType::f32, P, {kEpilogueWidth}, "y out", 0, kWrittenFirst);
    for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
      const std::int64_t k0 = kt * kTile;
      const auto tk = static_cast<std::int32_t>(std::min(kTile, n - k0));
      const Tile xk = xs[kt].rows(0, tk), ak = at[kt].rows(0, tk);
      nc.dma_copy(xk, tile::hbm_view(x + k0, DType::f32, tk, 1, {{1, 1}}));
      nc.dma_copy(ak, tile::hbm_view(A + k0 * lda, DType::f32, tk, lda, {{n, 1}}));
      for (std::int64_t jt = 0; jt < j_tiles; ++jt) {
        const std::int64_t j0 = jt * kTile;
        const auto tj = static_cast<std::int32_t>(std::min(kTile, n - j0));
        nc.nc_matmul(acc[jt].rows(0, tj).cols(0, 1), ak.cols(j0, tj), xk, /*accumulate=*/kt > 0);
      }
    }
    for (std::int64_t jt = 0; jt < j_tiles; ++jt) {
      const auto tj = static_cast<std::int32_t>(std::min(kTile, n - jt * kTile));
      tile::evacuate(nc, out[jt].rows(0, tj).cols(0, 1), acc[jt].rows(0, tj).cols(0, 1), 1.0f, /*accumulated=*/true);
    }
    for (std::int64_t jt = 0; jt < j_tiles; ++jt) {
      const std::int64_t j0 = jt * kTile;
      const auto tj = static_cast<std::int32_t>(std::min(kTile, n - j0));
      nc.dma_copy(tile::hbm_view(y + j0, DType::f32, tj, 1, {{1, 1}}), out[jt].rows(0, tj).cols(0, 1));
    }
  });
  trace.add(std::move(r.trace));
}

}  // namespace trn::solver::detail
