// trnblas Level 2 (docs/trnblas.md, "Levels 1 and 2").
//
// gemv, ger, symv, trmv run as GEMMs with one vector operand, written in "row" form so that
// positive increments need no copies: y^T = x^T op(A)^T is a 1 x m GEMM whose stationary operand
// is the vector x (one column, K on partitions) and whose moving operand streams A's tiles
// (up to gemm_moving_fmax columns per matmul); C = y^T is a 1 x m row with ld = incy.
//   float: trnblas's fp32 GEMM kernel (exact products, fp32 PSUM accumulation in increasing k per
//   128-deep tile, then the alpha/beta epilogue on VectorE): |error| <= gamma_{n+2} (|alpha| |A| |x|
//   + |beta| |y|) componentwise.
//   double: the fp64 slice pairs (detail::dgemv_row, src/ozaki.hpp: exact slice-pair products on
//   TensorE, an exact fold and the epilogue on the host side); ger, syr, spr (rank 1: elementwise)
//   on the host side, one costed round trip each (rank1_term), bit for bit the Ozaki DGEMM m x n x 1.
// symv and trmv first expand the stored triangle into a dense n x n staging matrix on the host
// (a copy with zeros, and ones on a unit diagonal: data movement only, the analogue of a masked
// DMA), then run the dense product. ger is the k = 1 GEMM A = x (alpha y)^T + 1 * A (alpha y first:
// see scaled; fp64 on the host side). Small fp32 gemv and ger calls issue the GEMM's instructions in
// one direct program (gemv_one_program, ger_one_program, complex_ger_one_program: no GEMM driver, no
// second launch); fp32 gemv of two tiles (len <= 256) issues the driver's own program directly
// (gemv_two_tiles: same trace).
// trsv: float runs trsv_kernel (column substitution with x on one partition's free axis: VectorE
// divide and updates; trsm_left_kernel's TensorE broadcasts beyond kTrsvMaxN); double is blocked by kTrsvBlock columns: each diagonal block is
// solved by substitution on the host side in fp64, each off-diagonal update x2 -= T21 x1 is an
// fp64 slice-pair product, so all but O(n * kTrsvBlock) of the n^2 flops run on TensorE.
// float tbsv reads band storage directly (tbsv_kernel: the band rows of each column only, one launch);
// the other band and packed calls stage a dense copy first.
// Negative increments: the vector is gathered into a contiguous host buffer first (and scattered
// back if written).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>

#include "level12_internal.hpp"
#include "ozaki.hpp"
#include "trn/blas/level12.hpp"
#include "trn/blas/level3.hpp"
#include "trn/tile/matmul.hpp"
#include "trn/tile/view.hpp"

namespace trn::blas {
namespace {

using l12::scatter;

// A contiguous copy of a strided vector on the scratch stack: every Level 2 temporary an engine or
// host step reads or writes as HBM lives there, so that the trace names it by allocation and its
// modeled time does not depend on the process's malloc history (docs/cost-model.md section 2).
template <class T>
ScratchVector<T> gather(const T* x, std::int64_t n, std::int64_t inc) {
  return l12::gather<T, ScratchAllocator<T>>(x, n, inc);
}

constexpr std::int64_t kTrsvBlock = 32;  // D trsv: columns solved per host-side diagonal block

// A BLAS vector as (pointer, positive step): contiguous copy when inc < 0 (read-only use).
template <class T>
struct VecIn {
  ScratchVector<T> copy;
  const T* p;
  std::int64_t inc;
  VecIn(const T* x, std::int64_t n, std::int64_t incx) : p(x), inc(incx) {
    if (incx <= 0) {
      copy = gather(x, n, incx);
      p = copy.data();
      inc = 1;
    }
  }
};

// The same for a vector that is written; flush() scatters the copy back.
template <class T>
struct VecOut {
  ScratchVector<T> copy;
  T* user;
  T* p;
  std::int64_t n, user_inc, inc;
  VecOut(T* y, std::int64_t len, std::int64_t incy, bool read) : user(y), p(y), n(len), user_inc(incy), inc(incy) {
    if (incy <= 0) {
      copy = read ? gather(y, len, incy) : ScratchVector<T>(static_cast<std::size_t>(len), T(0));
      p = copy.data();
      inc = 1;
    }
  }
  void flush() {
    if (!copy.empty()) scatter(copy, user, n, user_inc);
  }
};

// A small fp32 gemv as ONE direct program, without the GEMM driver (plan, operand slots, K loop).
// Algorithm   The instructions launch_gemm issues for this problem (one K tile, one output tile):
//             op(B) = op(A)^T's [K, len_y] tile (K = len_x on the partitions) and x [K, 1] by DMA;
//             one nc_matmul (stationary op(B), moving x, accumulate = false): PSUM[j] = the
//             micro-kernel's fma chain from +0 in increasing k (matmul_kernels.hpp); the epilogue
//             through the same tile functions (tile::evacuate with alpha; with beta != 0, y in by DMA
//             and tile::add_beta_c_and_cast: c = beta c, v = v + c); one DMA out. Same arithmetic on
//             the same operands in the same order, so the same bits; a new trace (no driver
//             allocations) and modeled time (docs/trnblas.md, "Small gemv in one program").
// Engines     DMA, TensorE, VectorE.
// Accuracy    As the GEMM path: |error| <= gamma_{K+2} (|alpha| |A| |x| + |beta| |y|).
// Limits      alpha != 0, K <= pmax (one K tile of fp32), len_y <= min(pmax, gemm_stationary_fmax) (one
//             output tile); other calls take the GEMM.
bool gemv_fits_one_program(const Settings& s, std::int64_t len_x, std::int64_t len_y, float alpha) {
  const HardwareSpec& hw = hardware_spec(s.target);
  return alpha != 0.0f && len_x <= hw.pmax && len_y <= std::min<std::int64_t>(hw.pmax, hw.gemm_stationary_fmax);
}

void gemv_one_program(const Settings& s, Op trans, std::int64_t len_x, std::int64_t len_y, float alpha, const float* A,
                      std::int64_t lda, const float* x, std::int64_t incx, float beta, float* y, std::int64_t incy,
                      CallReport* sub) {
  const auto K = static_cast<std::int32_t>(len_x), J = static_cast<std::int32_t>(len_y);
  l12::Report rep(s, sub);
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    // x, op(A)^T, y out and (beta != 0) y in, in this order as one allocation (l12::FirstTiles: the
    // tiles the four allocations gave, each a DMA's or an instruction's destination first); the PSUM
    // accumulator is its own allocation in PSUM.
    const bool with_c = beta != 0.0f;
    const l12::FirstTiles sb(nc.sbuf(), with_c ? std::initializer_list<l12::TileShape>{{K, 1}, {K, len_y}, {J, 1}, {J, 1}}
                                               : std::initializer_list<l12::TileShape>{{K, 1}, {K, len_y}, {J, 1}},
                             "gemv operands");
    const Tile &xs = sb[0], &b = sb[1], &v = sb[2];
    const Tile acc = nc.psum().alloc(DType::f32, J, {1}, "op(A) x", 0, AllocFill::none);
    struct FreePsum {
      OnChipMemory& m;
      const Tile& t;
      ~FreePsum() { m.free(t); }
    } free_acc{nc.psum(), acc};
    nc.dma_copy(xs, l12::hbm_f32(x, K, incx, 1, 1));
    // op(A)^T[k, j]: A(j, k) (trans N: rows of A on the free axis) or A(k, j) (trans T).
    nc.dma_copy(b, trans == Op::N ? l12::hbm_f32(A, K, lda, len_y, 1) : l12::hbm_f32(A, K, 1, len_y, lda));
    nc.nc_matmul(acc, b, xs, /*accumulate=*/false);
    tile::evacuate(nc, v, acc, alpha, /*accumulated=*/true);
    const Tile yh = l12::hbm_f32(y, J, incy, 1, 1);
    if (with_c) {
      const Tile& c = sb[3];
      nc.dma_copy(c, yh);
      tile::add_beta_c_and_cast(nc, v, &c, beta, nullptr);
    }
    nc.dma_copy(yh, v);
  });
  rep.add(std::move(r.trace));
}

// A fp32 gemv of two tiles (x or y longer than 128, neither longer than 256) as ONE direct program: the
// GEMM driver's program for it, without the driver.
// Algorithm   launch_gemm's plan for the 1 x len_y x len_x row product y^T = x^T op(A)^T is one streaming
//             pass of J = ceil(len_y / 128) output tiles (one PSUM bank each), four operand slots and J
//             epilogue slots (gemm_plan.cpp, choose_block); its program (gemm_kernel.cpp, pass_program)
//             issues, and this function issues in the same order:
//               per K tile kt (x's rows k0 = 128 kt .. k0 + tk): DMA x(k0 : k0 + tk) -> [tk, 1], DMA
//                 op(A)^T(k0 : k0 + tk, 0 : len_y) -> [tk, len_y], then per output tile jt: nc_matmul(bank
//                 jt, op(A)^T tile's columns of jt, x tile, accumulate = kt > 0) -- fp32 PSUM sums in
//                 increasing k;
//               per output tile: tile::evacuate with alpha into its epilogue slot; beta != 0: y's rows of
//                 the tile in by DMA to the slot's C tile, tile::add_beta_c_and_cast;
//               per output tile: one DMA to y.
//             Tiles allocated in the driver's order and sizes (allocate, allocate_slot): J PSUM banks
//             [128, 512]; operand slot u < 4: x term [128, 1], op(A)^T term [128, len_y]; epilogue slot
//             jt: [128, 512] fp32, then (beta != 0) C [128, 512]. Same instructions on the same operands
//             at the same addresses: the driver's trace records, bits and modeled time, without its plan,
//             poison-filled slots and generic packing -- and without its plan line in the report, as
//             gemv_one_program (docs/trnblas.md "Two-tile gemv in one program").
//             test_trnblas_gemv_two_tiles compares the two record by record.
// Engines     DMA, TensorE, VectorE.
// Accuracy    The GEMM path's: |error| <= gamma_{K+2} (|alpha| |A| |x| + |beta| |y|).
// Limits      alpha != 0, 1 <= len_x, len_y <= 256 with one of them above 128 (both <= 128:
//             gemv_one_program); a target with the driver's tile sizes for this plan (pmax and stationary
//             width 128, PSUM banks of 512 fp32: every generation); other calls take the GEMM.
constexpr std::int64_t kGemvTile = 128, kGemvBankWidth = 512;
constexpr int kGemvOperandSlots = 4;

bool gemv_fits_two_tiles(const Settings& s, std::int64_t len_x, std::int64_t len_y, float alpha) {
  const HardwareSpec& hw = hardware_spec(s.target);
  return alpha != 0.0f && len_x >= 1 && len_y >= 1 && std::max(len_x, len_y) > kGemvTile &&
         std::max(len_x, len_y) <= 2 * kGemvTile && hw.pmax == kGemvTile && hw.gemm_stationary_fmax == kGemvTile &&
         hw.psum_bank_bytes == 4 * kGemvBankWidth;
}

void gemv_two_tiles(const Settings& s, Op trans, std::int64_t len_x, std::int64_t len_y, float alpha, const float* A,
                    std::int64_t lda, const float* x, std::int64_t incx, float beta, float* y, std::int64_t incy,
                    CallReport* sub) {
  const std::int64_t k_tiles = (len_x + kGemvTile - 1) / kGemvTile, j_tiles = (len_y + kGemvTile - 1) / kGemvTile;
  const auto P = static_cast<std::int32_t>(kGemvTile);
  l12::Report rep(s, sub);
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    AllocScope sb(nc.sbuf()), ps(nc.psum());
    constexpr AllocFill kWrittenFirst = AllocFill::none;  // each is a DMA's or an instruction's destination first
    std::array<Tile, 2> acc, out, c_in;
    for (std::int64_t jt = 0; jt < j_tiles; ++jt)
      acc[jt] = ps.alloc(DType::f32, P, {kGemvBankWidth}, "op(A) x", 0, kWrittenFirst);
    std::array<Tile, kGemvOperandSlots> xs, at;
    for (int u = 0; u < kGemvOperandSlots; ++u) {
      xs[u] = sb.alloc(DType::f32, P, {1}, "x", 0, kWrittenFirst);
      at[u] = sb.alloc(DType::f32, P, {len_y}, "op(A)^T", 0, kWrittenFirst);
    }
    for (std::int64_t jt = 0; jt < j_tiles; ++jt) {
      out[jt] = sb.alloc(DType::f32, P, {kGemvBankWidth}, "y out", 0, kWrittenFirst);
      if (beta != 0.0f) c_in[jt] = sb.alloc(DType::f32, P, {kGemvBankWidth}, "y in", 0, kWrittenFirst);
    }
    const auto rows_of = [](std::int64_t len, std::int64_t t) {
      return static_cast<std::int32_t>(std::min(kGemvTile, len - t * kGemvTile));
    };
    for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
      const std::int64_t k0 = kt * kGemvTile;
      const std::int32_t tk = rows_of(len_x, kt);
      const Tile xk = xs[kt].rows(0, tk), ak = at[kt].rows(0, tk);
      nc.dma_copy(xk, tile::hbm_view(x + k0 * incx, DType::f32, tk, incx, {{1, 1}}));
      // op(A)^T[k, j]: A(j, k) (trans N: rows of A on the free axis) or A(k, j) (trans T).
      nc.dma_copy(ak, trans == Op::N ? tile::hbm_view(A + k0 * lda, DType::f32, tk, lda, {{len_y, 1}})
                                     : tile::hbm_view(A + k0, DType::f32, tk, 1, {{len_y, lda}}));
      for (std::int64_t jt = 0; jt < j_tiles; ++jt)
        nc.nc_matmul(acc[jt].rows(0, rows_of(len_y, jt)).cols(0, 1), ak.cols(jt * kGemvTile, rows_of(len_y, jt)), xk,
                     /*accumulate=*/kt > 0);
    }
    const auto y_tile = [&](std::int64_t jt) {
      return tile::hbm_view(y + jt * kGemvTile * incy, DType::f32, rows_of(len_y, jt), incy, {{1, 1}});
    };
    for (std::int64_t jt = 0; jt < j_tiles; ++jt) {
      const std::int32_t tj = rows_of(len_y, jt);
      const Tile v = out[jt].rows(0, tj).cols(0, 1);
      tile::evacuate(nc, v, acc[jt].rows(0, tj).cols(0, 1), alpha, /*accumulated=*/true);
      if (beta != 0.0f) {
        const Tile c = c_in[jt].rows(0, tj).cols(0, 1);
        nc.dma_copy(c, y_tile(jt));
        tile::add_beta_c_and_cast(nc, v, &c, beta, nullptr);
      }
    }
    for (std::int64_t jt = 0; jt < j_tiles; ++jt) nc.dma_copy(y_tile(jt), out[jt].rows(0, rows_of(len_y, jt)).cols(0, 1));
  });
  rep.add(std::move(r.trace));
}

// y^T = alpha x^T op(A)^T + beta y^T (one GEMM, row form). x has len_x = cols of op(A).
void gemv_row(const Settings& s, Op trans, std::int64_t m, std::int64_t n, float alpha, const float* A,
              std::int64_t lda, const float* x, std::int64_t incx, float beta, float* y, std::int64_t incy,
              CallReport* sub) {
  const std::int64_t len_x = trans == Op::N ? n : m, len_y = trans == Op::N ? m : n;
  VecIn<float> xv(x, len_x, incx);
  VecOut<float> yv(y, len_y, incy, beta != 0.0f);
  if (gemv_fits_one_program(s, len_x, len_y, alpha)) {
    gemv_one_program(s, trans, len_x, len_y, alpha, A, lda, xv.p, xv.inc, beta, yv.p, yv.inc, sub);
    if (!s.timing_only) yv.flush();
    return;
  }
  if (gemv_fits_two_tiles(s, len_x, len_y, alpha)) {
    gemv_two_tiles(s, trans, len_x, len_y, alpha, A, lda, xv.p, xv.inc, beta, yv.p, yv.inc, sub);
    if (!s.timing_only) yv.flush();
    return;
  }
  gemm(s, GemmMode::fp32, Op::N, trans == Op::N ? Op::T : Op::N, 1, len_y, len_x, alpha,
       MatrixRef{xv.p, DType::f32, xv.inc}, MatrixRef{A, DType::f32, lda}, beta,
       MutableMatrixRef{yv.p, DType::f32, yv.inc}, sub);
  if (!s.timing_only) yv.flush();
}

void gemv_row(const Settings& s, Op trans, std::int64_t m, std::int64_t n, double alpha, const double* A,
              std::int64_t lda, const double* x, std::int64_t incx, double beta, double* y, std::int64_t incy,
              CallReport* sub) {
  const std::int64_t len_x = trans == Op::N ? n : m, len_y = trans == Op::N ? m : n;
  VecIn<double> xv(x, len_x, incx);
  VecOut<double> yv(y, len_y, incy, beta != 0.0);
  detail::dgemv_row(s, trans == Op::N ? Op::T : Op::N, len_y, len_x, alpha, xv.p, xv.inc, A, lda, beta, yv.p, yv.inc,
                    sub);
  if (!s.timing_only) yv.flush();
}

// The stored triangle of a dense (ld lda) matrix as it crosses the host link: the hull of its
// columns, the n(n + 1)/2 elements it holds.
template <class C>
HostSpan triangle_span(const C* A, std::int64_t n, std::int64_t lda) {
  HostSpan h = HostSpan::matrix(A, n, n, lda);
  h.bytes = static_cast<std::size_t>(n * (n + 1) / 2) * sizeof(C);
  return h;
}

// A run of `count` elements of W fp32 words each: element k from src + k src_step to dst + k dst_step
// (steps in words); src == nullptr: the words of T(1) instead (a unit diagonal).
struct WordRun {
  const float* src;
  std::int64_t src_step;
  float* dst;
  std::int64_t dst_step;
  std::int64_t count;
};

// The runs in one program by DMA through SBUF, bit copies of the words: a contiguous run (steps W)
// as rows of up to 2048 words, a strided one pmax elements at a time (one per partition); the
// ones of a unit diagonal from an SBUF tile set once on VectorE.
template <class T>
void move_runs(const Settings& s, std::span<const WordRun> runs, l12::Report& rep) {
  constexpr std::int64_t W = sizeof(T) / sizeof(float), F = 2048;
  const auto P = static_cast<std::int32_t>(hardware_spec(s.target).pmax);
  std::array<float, W> one{};
  const T u(1);
  std::memcpy(one.data(), &u, sizeof(T));
  const bool fills = std::any_of(runs.begin(), runs.end(), [](const WordRun& g) { return g.src == nullptr; });
  const auto hbm = [](const float* p, std::int64_t rows, std::int64_t cols, std::int64_t step) {
    return HbmTensor::wrap(const_cast<float*>(p), DType::f32, {rows, cols}, {step, 1}).tile(0, static_cast<std::int32_t>(rows), 0, cols);
  };
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    AllocScope sb(nc.sbuf());
    const Tile rows = sb.alloc(DType::f32, P, {F}, "runs"), ones = sb.alloc(DType::f32, P, {W}, "ones");
    if (fills)
      for (std::int64_t c = 0; c < W; ++c) nc.memset(ones.cols(c, 1), one[static_cast<std::size_t>(c)]);
    std::int32_t row = 0;
    for (const WordRun& g : runs) {
      if (g.src != nullptr && g.src_step == W && g.dst_step == W) {  // contiguous
        for (std::int64_t c0 = 0; c0 < g.count * W; c0 += F) {
          const std::int64_t len = std::min(F, g.count * W - c0);
          const Tile v = rows.rows(row, 1).cols(0, len);
          nc.dma_copy(v, hbm(g.src + c0, 1, len, len));
          nc.dma_copy(hbm(g.dst + c0, 1, len, len), v);
          row = (row + 1) % P;
        }
        continue;
      }
      for (std::int64_t k0 = 0; k0 < g.count; k0 += P) {
        const std::int64_t cnt = std::min<std::int64_t>(P, g.count - k0);
        const Tile v = (g.src != nullptr ? rows : ones).rows(0, static_cast<std::int32_t>(cnt)).cols(0, W);
        if (g.src != nullptr) nc.dma_copy(v, hbm(g.src + k0 * g.src_step, cnt, W, g.src_step));
        nc.dma_copy(hbm(g.dst + k0 * g.dst_step, cnt, W, g.dst_step), v);
      }
    }
  });
  rep.add(r.trace);
}

// Dense n x n copy of a stored triangle: symmetric (mirror) or triangular (zeros; ones on a unit
// diagonal), by DMA (move_runs): per column its stored run (contiguous), for a symmetric matrix
// the mirrored run (a row of the stored triangle: step lda), then the unit diagonal (step n + 1).
// Bit copies, no arithmetic; zero elsewhere (a fresh buffer).
// The fp32 triangular case in one program of O(n / pmax) instructions instead of two DMAs per
// column: per block of up to pmax columns, one DMA of the columns' n x w block (column j on
// partition j - c0, its rows on the free axis: contiguous runs), one GpSimdE affine_select that
// keeps the stored triangle and writes +0 elsewhere (a select, not a product: Inf/NaN in the
// unreferenced triangle cannot leak), one more for a unit diagonal's 1.0, one DMA out. The same
// n x n matrix, bit for bit, as the run copies; the block DMA also reads the unreferenced triangle
// (inside the caller's n x n array, never used).
constexpr std::int64_t kStageTriangleMaxN = 16384;  // a column of the block in one SBUF partition row
ScratchVector<float> stage_triangle_f32(const Settings& s, Uplo uplo, std::int64_t n, const float* A, std::int64_t lda,
                                      bool unit, l12::Report& rep) {
  ScratchVector<float> full(static_cast<std::size_t>(n * n));
  const std::int64_t P = hardware_spec(s.target).pmax;
  const bool up = uplo == Uplo::upper;
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    AllocScope sb(nc.sbuf());
    const Tile cols = sb.alloc(DType::f32, static_cast<std::int32_t>(std::min(P, n)), {n}, "columns", 0, AllocFill::none);
    for (std::int64_t c0 = 0; c0 < n; c0 += P) {
      const auto w = static_cast<std::int32_t>(std::min(P, n - c0));
      const Tile t = cols.rows(0, w);
      nc.dma_copy(t, HbmTensor::wrap(const_cast<float*>(A) + c0 * lda, DType::f32, {w, n}, {lda, 1}).tile(0, w, 0, n));
      // v(p, i) = i - (c0 + p) (lower) or (c0 + p) - i (upper): >= 0 on the stored triangle.
      const std::array<std::int64_t, 2> pat{up ? -1 : 1, n};
      const std::int64_t off = up ? c0 : -c0, cm = up ? 1 : -1;
      nc.affine_select(t, std::span(&pat, 1), off, cm, unit ? AluOp::greater : AluOp::greater_equal, t, 0.0f);
      if (unit) nc.affine_select(t, std::span(&pat, 1), off, cm, AluOp::not_equal, t, 1.0f);
      nc.dma_copy(HbmTensor::wrap(full.data() + c0 * n, DType::f32, {w, n}, {n, 1}).tile(0, w, 0, n), t);
    }
  });
  rep.add(r.trace);
  return full;
}

// The fp64 triangular case likewise (dtrmv: two DMAs per column before), on the doubles' 32-bit words
// as fp32 words (a same-type DMA and affine_select's fp32 rows are bit copies, NaN patterns
// included: isa_gpsimd.cpp): per block of up to pmax columns one DMA of
// the n x w block ([w, n, 2] words), one affine_select whose pattern {{+-1, n}, {0, 2}} gives both
// words of element i the value of i (so whole doubles are kept or set to +0.0), and for a unit
// diagonal a second select on the high words alone (a step-2 view) that writes 0x3FF00000, the high
// word of 1.0 (its low word is the first select's 0). The same n x n matrix, bit for bit, as the run
// copies; new trace and modeled time.
constexpr std::int64_t kStageTriangleF64MaxN = kStageTriangleMaxN / 2;  // 2n words in one partition row
ScratchVector<double> stage_triangle_f64(const Settings& s, Uplo uplo, std::int64_t n, const double* A, std::int64_t lda,
                                       bool unit, l12::Report& rep) {
  ScratchVector<double> full(static_cast<std::size_t>(n * n));
  const std::int64_t P = hardware_spec(s.target).pmax;
  const bool up = uplo == Uplo::upper;
  const float kOneHighWord = std::bit_cast<float>(std::uint32_t{0x3FF00000});  // the high word of 1.0
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    AllocScope sb(nc.sbuf());
    const Tile cols = sb.alloc(DType::f32, static_cast<std::int32_t>(std::min(P, n)), {n, 2}, "columns (words)", 0,
                               AllocFill::none);
    for (std::int64_t c0 = 0; c0 < n; c0 += P) {
      const auto w = static_cast<std::int32_t>(std::min(P, n - c0));
      const Tile t = cols.rows(0, w);
      nc.dma_copy(t, tile::hbm_view(A + c0 * lda, DType::f32, w, 2 * lda, {{n, 2}, {2, 1}}));
      // v(p, i) = i - (c0 + p) (lower) or (c0 + p) - i (upper): >= 0 on the stored triangle.
      const std::array<std::array<std::int64_t, 2>, 2> pat{{{up ? -1 : 1, n}, {0, 2}}};
      const std::int64_t off = up ? c0 : -c0, cm = up ? 1 : -1;
      nc.affine_select(t, pat, off, cm, unit ? AluOp::greater : AluOp::greater_equal, t, 0.0f);
      if (unit) {
        const Tile high = t.slice(1, 1, 1);  // [w, n, 1]: the high words
        const std::array<std::int64_t, 2> one{up ? -1 : 1, n};
        nc.affine_select(high, std::span(&one, 1), off, cm, AluOp::not_equal, high, kOneHighWord);
      }
      nc.dma_copy(tile::hbm_view(full.data() + c0 * n, DType::f32, w, 2 * n, {{n, 2}, {2, 1}}), t);
    }
  });
  rep.add(std::move(r.trace));
  return full;
}

// The fp32 symmetric matrix of A's uplo triangle by DMA only, in one program: per block of up to
// pmax columns, one DMA of the columns' n x w block (column j on partition j - c0) and one of the
// rows' (row j of A on partition j - c0: partition stride 1, free stride lda), the rows' block
// written whole as the block's columns of full (full(i, j) = A(j, i): right on the mirrored part), then one DMA per
// column writes its stored run over it from the columns' block (full(i, j) = A(i, j) on the stored
// triangle and the diagonal). Bit copies only, so the same matrix, bit for bit, as move_runs' run
// copies; the unreferenced triangle's elements pass through full but are all overwritten. It replaces
// (session 21) move_runs' 4n DMAs (n > 24) and session 20's two affine_selects and GpSimdE
// bitwise_or over n^2 elements (n <= 24, ~45-120 host instructions per element in the emulator's
// bitvec path): callgrind through the shim, per call, ssymv n = 10 49.1k -> 31.6k, n = 24 143.9k ->
// 58.0k, n = 50 356.6k -> 119.2k; ssbmv n = 50, k = 7 505.7k -> 247.1k host instructions (xlintsts'
// SPB line, issue #30). The row DMA reads only elements of the caller's n x n block of A. New trace
// and modeled time.
ScratchVector<float> stage_symmetric_by_runs_f32(const Settings& s, Uplo uplo, std::int64_t n, const float* A,
                                                 std::int64_t lda, l12::Report& rep) {
  ScratchVector<float> full(static_cast<std::size_t>(n * n));
  const std::int64_t P = hardware_spec(s.target).pmax;
  const bool up = uplo == Uplo::upper;
  const auto program = [&](NeuronCore& nc) {
    AllocScope sb(nc.sbuf());
    const auto rows = static_cast<std::int32_t>(std::min(P, n));
    const Tile cols = sb.alloc(DType::f32, rows, {n}, "columns", 0, AllocFill::none);
    const Tile mirror = sb.alloc(DType::f32, rows, {n}, "rows (the mirrored triangle)", 0, AllocFill::none);
    for (std::int64_t c0 = 0; c0 < n; c0 += P) {
      const auto w = static_cast<std::int32_t>(std::min(P, n - c0));
      const Tile t = cols.rows(0, w), m = mirror.rows(0, w);
      nc.dma_copy(t, tile::hbm_view(A + c0 * lda, DType::f32, w, lda, {{n, 1}}));
      nc.dma_copy(m, tile::hbm_view(A + c0, DType::f32, w, 1, {{n, lda}}));
      nc.dma_copy(tile::hbm_view(full.data() + c0 * n, DType::f32, w, n, {{n, 1}}), m);
      for (std::int64_t j = c0; j < c0 + w; ++j) {
        const std::int64_t r0 = up ? 0 : j, len = up ? j + 1 : n - j;  // stored rows of column j
        nc.dma_copy(tile::hbm_view(full.data() + r0 + j * n, DType::f32, 1, len, {{len, 1}}),
                    t.rows(static_cast<std::int32_t>(j - c0), 1).cols(r0, len));
      }
    }
  };
  LaunchResult r = launch(s.launch_config(), [&program](NeuronCore& nc) { program(nc); });
  rep.add(std::move(r.trace));
  return full;
}

template <class T>
ScratchVector<T> stage(const Settings& s, Uplo uplo, std::int64_t n, const T* A, std::int64_t lda, bool symmetric, bool unit,
                     l12::Report& rep) {
  if constexpr (std::is_same_v<T, float>)
    if (!symmetric && n > 0 && n <= kStageTriangleMaxN) return stage_triangle_f32(s, uplo, n, A, lda, unit, rep);
  if constexpr (std::is_same_v<T, float>)
    if (symmetric && !unit && n > 0 && n <= kStageTriangleMaxN)
      return stage_symmetric_by_runs_f32(s, uplo, n, A, lda, rep);
  if constexpr (std::is_same_v<T, double>)
    if (!symmetric && n > 0 && n <= kStageTriangleF64MaxN) return stage_triangle_f64(s, uplo, n, A, lda, unit, rep);
  constexpr std::int64_t W = sizeof(T) / sizeof(float);
  ScratchVector<T> full(static_cast<std::size_t>(n * n), T(0));
  const auto word = [](const T* p) { return reinterpret_cast<const float*>(p); };
  const auto out = [&](std::int64_t i, std::int64_t j) { return reinterpret_cast<float*>(full.data() + i + j * n); };
  const bool up = uplo == Uplo::upper;
  std::vector<WordRun> runs;
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int64_t r0 = up ? 0 : j, len = up ? j + 1 : n - j;  // stored rows of column j
    runs.push_back({word(A + r0 + j * lda), W, out(r0, j), W, len});
    const std::int64_t m0 = up ? j + 1 : 0, mlen = up ? n - j - 1 : j;  // mirrored rows: A(j, i)
    if (symmetric && mlen > 0) runs.push_back({word(A + j + m0 * lda), W * lda, out(m0, j), W, mlen});
  }
  if (unit && n > 0) runs.push_back({nullptr, 0, out(0, 0), W * (n + 1), n});
  move_runs<T>(s, runs, rep);
  return full;
}

template <class T>
void gemv_t(const Settings& s, Op trans, std::int64_t m, std::int64_t n, T alpha, const T* A, std::int64_t lda,
            const T* x, std::int64_t incx, T beta, T* y, std::int64_t incy, CallReport* report) {
  l12::Report rep(s, report);
  if (m == 0 || n == 0 || (alpha == T(0) && beta == T(1))) return;
  gemv_row(s, trans, m, n, alpha, A, lda, x, incx, beta, y, incy, rep.sub());
  rep.add_sub();
}

template <class T>
void symv_t(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const T* A, std::int64_t lda, const T* x,
            std::int64_t incx, T beta, T* y, std::int64_t incy, CallReport* report) {
  l12::Report rep(s, report);
  if (n == 0 || (alpha == T(0) && beta == T(1))) return;
  ScratchVector<T> full;
  if (alpha != T(0)) full = stage(s, uplo, n, A, lda, true, false, rep);
  gemv_row(s, Op::N, n, n, alpha, full.empty() ? nullptr : full.data(), n, x, incx, beta, y, incy, rep.sub());
  rep.add_sub();
}

template <class T>
void trmv_t(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, const T* A, std::int64_t lda, T* x,
            std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n == 0) return;
  const ScratchVector<T> full = stage(s, uplo, n, A, lda, false, unit, rep);
  ScratchVector<T> xin = gather(x, n, incx), out(static_cast<std::size_t>(n), T(0));
  gemv_row(s, trans, n, n, T(1), full.data(), n, xin.data(), 1, T(0), out.data(), 1, rep.sub());
  rep.add_sub();
  if (!s.timing_only) scatter(out, x, n, incx);
}

// alpha v on a contiguous copy: fp32 on VectorE (scal), fp64 host side (recorded). The rank-1 and
// rank-2 updates scale their vector operand first, as the reference BLAS does (temp = alpha y_j,
// then a_ij + x_i temp): alpha (x_i y_j) instead overflows or underflows when x and y are near
// the ends of the exponent range and alpha is not (LAPACK's ssytf2 calls ssyr with alpha = -1/d
// on columns of size ~1/d: its scaled test matrices gave Inf and 0).
template <class T>
ScratchVector<T> scaled(const Settings& s, T alpha, ScratchVector<T> v, l12::Report& rep) {
  scal(s, static_cast<std::int64_t>(v.size()), alpha, v.data(), 1, rep.sub());
  rep.add_sub();
  return v;
}

// fp64 rank-1 updates (dger, dsyr, dspr) on the host side. A rank-1 update is elementwise -- one
// product and one add per element, no sum -- so, like daxpy, it is one costed host round trip
// (docs/cost-model.md section 7) instead of the Ozaki DGEMM m x n x 1 it was (16 or more TensorE
// passes and the CRT steps per call: 130-250 us of host time each in LAPACK's xlintstd). The term is
// the one that DGEMM gave, bit for bit: with k = 1 every row and column holds one element, so the
// scaled integers are exact and C' = x' t' is the exact product, rounded once to 53 bits and scaled
// back by a power of two (one more rounding only in fp64's subnormal range); an exact zero product
// is +0 (C' = 0); an Inf or NaN operand gives the IEEE recomputation 0 + x t (ozaki.cpp, finish_c).
double rank1_term(double x, double t) {
  const double p = x * t;
  if (std::fabs(p) >= 0x1p-1021 || !std::isfinite(x) || !std::isfinite(t)) return 0.0 + p;  // normal: fl(x t)
  if (x == 0.0 || t == 0.0) return 0.0;
  int ex = 0, et = 0;
  const double mx = std::frexp(x, &ex), mt = std::frexp(t, &et);
  return std::ldexp(mx * mt, ex + et);  // 53 bits, then the subnormal rounding (as scale2)
}

// fp32 ger in ONE program: the scal of y and the k = 1 GEMM of the general path (below), fused.
// Algorithm   t = alpha y on VectorE (scal's tensor_scalar), kept in SBUF as the stationary operand
//             [1, n]; x [1, m] is the moving operand; one nc_matmul (accumulate = false) gives
//             PSUM[j, i] = fma(t_j, x_i, +0) (the micro-kernel contract, matmul_kernels.hpp); then the
//             GEMM epilogue with alpha = beta = 1 through the same tile functions (tile::evacuate:
//             tensor_copy; tile::add_beta_c_and_cast: c = 1 * c, v = v + c) on C's [n, m] block
//             (column j of A on partition j, its rows on the free axis: contiguous runs), and one DMA out.
//             These are the instructions, operand dtypes and operand order the general path issues
//             (scal launch, then launch_gemm's single output tile: pack x and t, matmul, evacuate,
//             C in, beta, add, store), so every element has the same bits, signed zeros and NaNs
//             included; only the HBM round trip of t and the second launch go (new trace, new
//             modeled time: docs/trnblas.md, "ger (float) in one program").
// Engines     DMA, VectorE, TensorE.
// Accuracy    fl(a_ij + fl(x_i fl(alpha y_j))) with an exact-zero product counted as +0 (the GEMM's
//             fma from +0), as the general path.
// Limits      n <= min(pmax, gemm_stationary_fmax) (PSUM partitions and PE columns) and m <= one PSUM
//             bank of fp32 (psum_bank_bytes / 4) and gemm_moving_fmax; larger calls take the general path.
bool ger_fits_one_program(const Settings& s, std::int64_t m, std::int64_t n) {
  const HardwareSpec& hw = hardware_spec(s.target);
  return n <= std::min<std::int64_t>(hw.pmax, hw.gemm_stationary_fmax) && m <= hw.psum_bank_bytes / 4 &&
         m <= hw.gemm_moving_fmax;
}

void ger_one_program(const Settings& s, std::int64_t m, std::int64_t n, float alpha, const float* x, std::int64_t incx,
                     const float* y, std::int64_t incy, float* A, std::int64_t lda, l12::Report& rep) {
  const auto rows = static_cast<std::int32_t>(n);
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    // alpha y, x, the update and A's block, in this order as one allocation (l12::FirstTiles: the
    // tiles the four allocations gave, each a DMA's or an instruction's destination first); the PSUM
    // accumulator is its own allocation in PSUM.
    const l12::FirstTiles sb(nc.sbuf(), {{1, n}, {1, m}, {rows, m}, {rows, m}}, "ger operands");
    const Tile &t = sb[0], &xr = sb[1], &v = sb[2], &c = sb[3];
    const Tile acc = nc.psum().alloc(DType::f32, rows, {m}, "x (alpha y)^T", 0, AllocFill::none);
    struct FreePsum {
      OnChipMemory& m;
      const Tile& t;
      ~FreePsum() { m.free(t); }
    } free_acc{nc.psum(), acc};
    nc.dma_copy(t, l12::hbm_f32(y, 1, n * incy, n, incy));
    nc.tensor_scalar(t, t, AluOp::multiply, alpha);  // scal: fl(alpha y_j)
    nc.dma_copy(xr, l12::hbm_f32(x, 1, m * incx, m, incx));
    nc.nc_matmul(acc, t, xr, /*accumulate=*/false);
    tile::evacuate(nc, v, acc, 1.0f, /*accumulated=*/true);
    const Tile a = l12::hbm_f32(A, rows, lda, m, 1);
    nc.dma_copy(c, a);
    tile::add_beta_c_and_cast(nc, v, &c, 1.0f, nullptr);
    nc.dma_copy(a, v);
  });
  rep.add(std::move(r.trace));
}

// A = x t^T + A with t = alpha y (see scaled): fp32 as the k = 1 GEMM with alpha = beta = 1 (in one
// program when it fits: ger_one_program); fp64 on the host side (rank1_term). Either way each element
// is fl(a_ij + fl(x_i fl(alpha y_j))), the reference BLAS's rounding.
template <class T>
void ger_t(const Settings& s, std::int64_t m, std::int64_t n, T alpha, const T* x, std::int64_t incx, const T* y,
           std::int64_t incy, T* A, std::int64_t lda, CallReport* report) {
  l12::Report rep(s, report);
  if (m == 0 || n == 0 || alpha == T(0)) return;
  VecIn<T> xv(x, m, incx);
  if constexpr (std::is_same_v<T, float>) {
    if (ger_fits_one_program(s, m, n)) {
      const VecIn<float> yv(y, n, incy);
      return ger_one_program(s, m, n, alpha, xv.p, xv.inc, yv.p, yv.inc, A, lda, rep);
    }
  }
  const ScratchVector<T> t = scaled(s, alpha, gather(y, n, incy), rep);
  if constexpr (std::is_same_v<T, float>) {
    // op(X) = X^T with X = x as a 1 x m row (ld = inc); T = t as a 1 x n row (k = 1).
    gemm(s, GemmMode::fp32, Op::T, Op::N, m, n, 1, 1.0f, MatrixRef{xv.p, DType::f32, xv.inc},
         MatrixRef{t.data(), DType::f32, 1}, 1.0f, MutableMatrixRef{A, DType::f32, lda}, rep.sub());
    rep.add_sub();
  } else {
    const HostSpan as = HostSpan::matrix(A, m, n, lda);
    rep.host_step(HostStep{.name = "trnblas.dger.host", .flops = 2.0 * static_cast<double>(m * n),
                           .reads = {l12::vec_span(xv.p, m, xv.inc), HostSpan(t.data(), n), as}, .writes = {as}});
    if (s.timing_only) return;
    for (std::int64_t j = 0; j < n; ++j) {
      const double tj = t[static_cast<std::size_t>(j)];
      double* const a = A + j * lda;
      for (std::int64_t i = 0; i < m; ++i) a[i] = a[i] + rank1_term(xv.p[i * xv.inc], tj);
    }
  }
}

}  // namespace

// ---- gemv, ger, symv, trmv ------------------------------------------------------------------------

void gemv(const Settings& s, Op trans, std::int64_t m, std::int64_t n, float alpha, const float* A, std::int64_t lda,
          const float* x, std::int64_t incx, float beta, float* y, std::int64_t incy, CallReport* report) {
  gemv_t(s, trans, m, n, alpha, A, lda, x, incx, beta, y, incy, report);
}
void gemv(const Settings& s, Op trans, std::int64_t m, std::int64_t n, double alpha, const double* A,
          std::int64_t lda, const double* x, std::int64_t incx, double beta, double* y, std::int64_t incy,
          CallReport* report) {
  gemv_t(s, trans, m, n, alpha, A, lda, x, incx, beta, y, incy, report);
}

void ger(const Settings& s, std::int64_t m, std::int64_t n, float alpha, const float* x, std::int64_t incx,
         const float* y, std::int64_t incy, float* A, std::int64_t lda, CallReport* report) {
  ger_t(s, m, n, alpha, x, incx, y, incy, A, lda, report);
}
void ger(const Settings& s, std::int64_t m, std::int64_t n, double alpha, const double* x, std::int64_t incx,
         const double* y, std::int64_t incy, double* A, std::int64_t lda, CallReport* report) {
  ger_t(s, m, n, alpha, x, incx, y, incy, A, lda, report);
}

void symv(const Settings& s, Uplo uplo, std::int64_t n, float alpha, const float* A, std::int64_t lda,
          const float* x, std::int64_t incx, float beta, float* y, std::int64_t incy, CallReport* report) {
  symv_t(s, uplo, n, alpha, A, lda, x, incx, beta, y, incy, report);
}
void symv(const Settings& s, Uplo uplo, std::int64_t n, double alpha, const double* A, std::int64_t lda,
          const double* x, std::int64_t incx, double beta, double* y, std::int64_t incy, CallReport* report) {
  symv_t(s, uplo, n, alpha, A, lda, x, incx, beta, y, incy, report);
}

void trmv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, const float* A, std::int64_t lda,
          float* x, std::int64_t incx, CallReport* report) {
  trmv_t(s, uplo, trans, unit, n, A, lda, x, incx, report);
}
void trmv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, const double* A, std::int64_t lda,
          double* x, std::int64_t incx, CallReport* report) {
  trmv_t(s, uplo, trans, unit, n, A, lda, x, incx, report);
}

// ---- complex gemv (4M on real planes) -------------------------------------------------------------

namespace {

// The real and imaginary planes of a complex m x n matrix, contiguous (ld = m): host data movement.
template <class R>
std::pair<ScratchVector<R>, ScratchVector<R>> planes(std::int64_t m, std::int64_t n, const std::complex<R>* A,
                                                 std::int64_t lda) {
  ScratchVector<R> re(static_cast<std::size_t>(m * n)), im(re.size());
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      re[static_cast<std::size_t>(i + j * m)] = A[i + j * lda].real();
      im[static_cast<std::size_t>(i + j * m)] = A[i + j * lda].imag();
    }
  return {std::move(re), std::move(im)};
}

// p = op(A) x (conjugate: A^H x) as contiguous real planes (pr, pi) of length len_y, by ONE real
// GEMM-vector product with the real representation of op(A) (4M): element (i, k) becomes the block
// [ar -ai; ai ar] at rows 2i, 2i + 1 and columns 2k, 2k + 1 (host copies and sign flips: exact), x
// is read as its 2 len_x interleaved reals, and each part of p_i is one accumulation of 2 len_x
// exact products (fp32 PSUM for C; the Ozaki DGEMM for Z). One kernel (Z: one Ozaki call) per call.
template <class R>
void complex_product(const Settings& s, Op trans, bool conjugate, std::int64_t m, std::int64_t n,
                     const std::complex<R>* A, std::int64_t lda, const std::complex<R>* x, std::int64_t incx,
                     ScratchVector<R>& pr, ScratchVector<R>& pi, l12::Report& rep) {
  const std::int64_t len_x = trans == Op::N ? n : m, len_y = trans == Op::N ? m : n;
  const std::int64_t rows = 2 * len_y, cols = 2 * len_x;
  ScratchVector<R> real(static_cast<std::size_t>(rows * cols));  // traced: docs/cost-model.md section 2
  const R sc = conjugate ? R(-1) : R(1);
  for (std::int64_t k = 0; k < len_x; ++k)
    for (std::int64_t i = 0; i < len_y; ++i) {
      const std::complex<R> a = trans == Op::N ? A[i + k * lda] : A[k + i * lda];
      const R ar = a.real(), ai = sc * a.imag();
      R* col0 = real.data() + (2 * k) * rows + 2 * i;
      R* col1 = col0 + rows;
      col0[0] = ar;
      col0[1] = ai;
      col1[0] = -ai;
      col1[1] = ar;
    }
  const auto xv = gather(x, len_x, incx);
  // The real representation and x's gather are built on the host (copies and sign flips): A and x
  // there, the 2 len_y x 2 len_x matrix and the contiguous x back (docs/cost-model.md section 7).
  const std::int64_t a_rows = trans == Op::N ? len_y : len_x, a_cols = trans == Op::N ? len_x : len_y;
  rep.host_step(HostStep{.name = "trnblas.complex_gemv.pack",
                         .reads = {HostSpan::matrix(A, a_rows, a_cols, lda), l12::vec_span(x, len_x, incx)},
                         .writes = {HostSpan(real.data(), rows * cols), HostSpan(xv.data(), len_x)}});
  ScratchVector<std::complex<R>> p(static_cast<std::size_t>(len_y));
  gemv_row(l12::nested(s), Op::N, rows, cols, R(1), real.data(), rows, reinterpret_cast<const R*>(xv.data()), 1, R(0),
           reinterpret_cast<R*>(p.data()), 1, rep.sub());
  rep.add_sub();
  pr.resize(p.size());
  pi.resize(p.size());
  rep.host_step(HostStep{.name = "trnblas.complex_gemv.split",  // p's interleaved parts into two planes
                         .reads = {HostSpan(p.data(), len_y)},
                         .writes = {HostSpan(pr.data(), len_y), HostSpan(pi.data(), len_y)}});
  for (std::size_t i = 0; i < p.size(); ++i) {
    pr[i] = p[i].real();
    pi[i] = p[i].imag();
  }
}

// A small complex float gemv as ONE program (session 25, issue #30): what complex_product (through
// gemv_one_program) and l12::complex_axpby computed in two launches, in one.
// Algorithm   The same arithmetic on the same operands, so the same bits (checked against the two-launch
//             path over special values: test_trnblas_level2's ComplexGemvOneProgram tests). The real
//             representation of op(A) is staged on the host as before, its 2 len_y rows reordered
//             (the real parts' rows first, then the imaginary parts'): a row permutation of the
//             stationary matrix, which moves no term of any output's sum. On the device: DMA x (its
//             2 len_x interleaved reals, K on the partitions) and the stationary [2 len_x, 2 len_y];
//             two nc_matmuls (the real rows, then the imaginary rows, accumulate = false) into the two
//             columns of one PSUM tile [len_y, 2]: PSUM = the micro-kernel's fma chain from +0 in
//             increasing k, as the one matmul of gemv_one_program gave each row; tile::evacuate with
//             alpha = 1 (a copy, as there). Then y = alpha p + beta y per element with the planes as
//             [len_y, 1] columns: fl(fl(ar pr) - fl(ai pi)), fl(fl(ar pi) + fl(ai pr)) and, beta != 0,
//             the same of beta and y (y in by one DMA as [len_y, 2]) added to it -- complex_axpby's
//             roundings in its operand order, fl(fl(c a) op t) as ONE tensor_scalar with t the
//             per-partition operand (as the real axpy's column layout); one DMA of [len_y, 2] to y.
//             17 instructions with beta != 0, 10 without (the two launches: 25 and 15), no host split
//             of p and no second launch: a new trace and modeled time (docs/trnblas.md, "Session 25").
// Engines     DMA, TensorE, VectorE.
// Accuracy    As before: |error| <= gamma_{2 len_x + 2} (|alpha| |A| |x|) + gamma_2 |beta| |y| componentwise
//             per part (the fp32 PSUM sum of 2 len_x exact products, then complex_axpby's roundings).
// Limits      alpha != 0, incy > 0, 2 len_x <= pmax and 2 len_y <= min(pmax, gemm_stationary_fmax) (the calls
//             whose product took gemv_one_program); other calls take the two launches.
bool complex_gemv_fits_one_program(const Settings& s, std::int64_t len_x, std::int64_t len_y, cfloat alpha,
                                   std::int64_t incy) {
  const HardwareSpec& hw = hardware_spec(s.target);
  return alpha != cfloat(0.0f) && incy > 0 && 2 * len_x <= hw.pmax &&
         2 * len_y <= std::min<std::int64_t>(hw.pmax, hw.gemm_stationary_fmax);
}

void complex_gemv_one_program(const Settings& s, Op trans, bool conjugate, std::int64_t m, std::int64_t n, cfloat alpha,
                              const cfloat* A, std::int64_t lda, const cfloat* x, std::int64_t incx, cfloat beta,
                              cfloat* y, std::int64_t incy, l12::Report& rep) {
  const std::int64_t len_x = trans == Op::N ? n : m, len_y = trans == Op::N ? m : n;
  const std::int64_t K = 2 * len_x, J = len_y;
  // stationary[kk, c] (row-major, 2 J columns): column i the real part's row of output i, column J + i its
  // imaginary part's; rows 2k, 2k + 1 the real and imaginary part of x_k. complex_product's block
  // [ar -ai; ai ar] of element (i, k), transposed, with the rows 2i, 2i + 1 at i and J + i.
  ScratchVector<float> stationary(static_cast<std::size_t>(K * 2 * J));  // traced: docs/cost-model.md section 2
  const float sc = conjugate ? -1.0f : 1.0f;
  for (std::int64_t k = 0; k < len_x; ++k) {
    float* const row0 = stationary.data() + (2 * k) * 2 * J;
    float* const row1 = row0 + 2 * J;
    for (std::int64_t i = 0; i < len_y; ++i) {
      const cfloat a = trans == Op::N ? A[i + k * lda] : A[k + i * lda];
      const float ar = a.real(), ai = sc * a.imag();
      row0[i] = ar;
      row0[J + i] = ai;
      row1[i] = -ai;
      row1[J + i] = ar;
    }
  }
  const auto xv = gather(x, len_x, incx);
  const std::int64_t a_rows = trans == Op::N ? len_y : len_x, a_cols = trans == Op::N ? len_x : len_y;
  rep.host_step(HostStep{.name = "trnblas.complex_gemv.pack",
                         .reads = {HostSpan::matrix(A, a_rows, a_cols, lda), l12::vec_span(x, len_x, incx)},
                         .writes = {HostSpan(stationary.data(), K * 2 * J), HostSpan(xv.data(), len_x)}});
  const float ar = alpha.real(), ai = alpha.imag(), br = beta.real(), bi = beta.imag();
  const bool with_c = beta != cfloat(0.0f);
  const auto Ji = static_cast<std::int32_t>(J), Ki = static_cast<std::int32_t>(K);
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    // x, the stationary, p, the outputs with two scratch columns, and (beta != 0) y in: one allocation
    // (l12::FirstTiles), each tile a DMA's or an instruction's destination before it is read.
    const l12::FirstTiles sb(nc.sbuf(),
                             with_c ? std::initializer_list<l12::TileShape>{{Ki, 1}, {Ki, 2 * J}, {Ji, 2}, {Ji, 4}, {Ji, 2}}
                                    : std::initializer_list<l12::TileShape>{{Ki, 1}, {Ki, 2 * J}, {Ji, 2}, {Ji, 4}},
                             "complex gemv operands");
    const Tile &xs = sb[0], &b = sb[1], &p = sb[2], &work = sb[3];
    const Tile acc = nc.psum().alloc(DType::f32, Ji, {2}, "op(A) x", 0, AllocFill::none);
    struct FreePsum {
      OnChipMemory& m;
      const Tile& t;
      ~FreePsum() { m.free(t); }
    } free_acc{nc.psum(), acc};
    nc.dma_copy(xs, l12::hbm_f32(reinterpret_cast<const float*>(xv.data()), Ki, 1, 1, 1));
    nc.dma_copy(b, l12::hbm_f32(stationary.data(), Ki, 2 * J, 2 * J, 1));
    nc.nc_matmul(acc.cols(0, 1), b.cols(0, J), xs, /*accumulate=*/false);  // real parts
    nc.nc_matmul(acc.cols(1, 1), b.cols(J, J), xs, /*accumulate=*/false);  // imaginary parts
    tile::evacuate(nc, p, acc, 1.0f, /*accumulated=*/true);
    const Tile pr = p.cols(0, 1), pi = p.cols(1, 1);
    const Tile o0 = work.cols(0, 1), o1 = work.cols(1, 1), t = work.cols(2, 1), u = work.cols(3, 1);
    // out = fl(fl(ca a) op fl(cb b)): complex_axpby's combine, its last two steps as one instruction.
    const auto combine = [&](const Tile& out, const Tile& a, const Tile& bv, float ca, float cb, AluOp op) {
      nc.tensor_scalar(t, bv, AluOp::multiply, cb);
      nc.tensor_scalar(out, a, AluOp::multiply, ca, op, t);
    };
    combine(o0, pr, pi, ar, ai, AluOp::subtract);  // re(alpha p)
    combine(o1, pi, pr, ar, ai, AluOp::add);       // im(alpha p)
    const Tile yh = l12::hbm_f32(reinterpret_cast<float*>(y), Ji, 2 * incy, 2, 1);
    if (with_c) {
      const Tile& c = sb[4];
      nc.dma_copy(c, yh);
      const Tile yr = c.cols(0, 1), yi = c.cols(1, 1);
      combine(u, yr, yi, br, bi, AluOp::subtract);  // re(beta y)
      nc.tensor_tensor(o0, o0, u, AluOp::add);
      combine(u, yi, yr, br, bi, AluOp::add);       // im(beta y)
      nc.tensor_tensor(o1, o1, u, AluOp::add);
    }
    nc.dma_copy(yh, work.cols(0, 2));
  });
  rep.add(std::move(r.trace));
}

}  // namespace

void gemv(const Settings& s, Op trans, bool conjugate, std::int64_t m, std::int64_t n, cfloat alpha, const cfloat* A,
          std::int64_t lda, const cfloat* x, std::int64_t incx, cfloat beta, cfloat* y, std::int64_t incy,
          CallReport* report) {
  l12::Report rep(s, report);
  if (m == 0 || n == 0 || (alpha == cfloat(0.0f) && beta == cfloat(1.0f))) return;
  const std::int64_t len_y = trans == Op::N ? m : n;
  if (complex_gemv_fits_one_program(s, trans == Op::N ? n : m, len_y, alpha, incy))
    return complex_gemv_one_program(s, trans, conjugate, m, n, alpha, A, lda, x, incx, beta, y, incy, rep);
  ScratchVector<float> pr(static_cast<std::size_t>(len_y), 0.0f), pi(pr.size(), 0.0f);
  if (alpha != cfloat(0.0f)) complex_product(s, trans, conjugate, m, n, A, lda, x, incx, pr, pi, rep);
  l12::complex_axpby(s, len_y, alpha, pr.data(), pi.data(), beta, y, incy, rep);
}

void gemv(const Settings& s, Op trans, bool conjugate, std::int64_t m, std::int64_t n, cdouble alpha, const cdouble* A,
          std::int64_t lda, const cdouble* x, std::int64_t incx, cdouble beta, cdouble* y, std::int64_t incy,
          CallReport* report) {
  l12::Report rep(s, report);
  if (m == 0 || n == 0 || (alpha == cdouble(0.0) && beta == cdouble(1.0))) return;
  const std::int64_t len_y = trans == Op::N ? m : n;
  ScratchVector<double> pr(static_cast<std::size_t>(len_y), 0.0), pi(pr.size(), 0.0);
  if (alpha != cdouble(0.0)) complex_product(s, trans, conjugate, m, n, A, lda, x, incx, pr, pi, rep);
  // y = alpha p + beta y: elementwise fp64 on the host, one round trip (6 flops per element for
  // alpha p, 8 more for beta y and the sum).
  const HostSpan ys = l12::vec_span(y, len_y, incy);
  rep.host_step(HostStep{.name = "trnblas.zgemv.epilogue",
                         .flops = (beta == cdouble(0.0) ? 6.0 : 14.0) * static_cast<double>(len_y),
                         .reads = {HostSpan(pr.data(), len_y), HostSpan(pi.data(), len_y),
                                   beta == cdouble(0.0) ? HostSpan{} : ys},
                         .writes = {ys}});
  if (s.timing_only) return;
  cdouble* y0 = l12::first(y, len_y, incy);
  for (std::int64_t i = 0; i < len_y; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const double re = alpha.real() * pr[k] - alpha.imag() * pi[k], im = alpha.real() * pi[k] + alpha.imag() * pr[k];
    if (beta == cdouble(0.0)) {
      y0[i * incy] = cdouble(re, im);
    } else {
      const cdouble b = y0[i * incy];
      y0[i * incy] = cdouble(re + (beta.real() * b.real() - beta.imag() * b.imag()),
                             im + (beta.real() * b.imag() + beta.imag() * b.real()));
    }
  }
}

// ---- trsv ---------------------------------------------------------------------------------------

void trsv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, const float* A, std::int64_t lda,
          float* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n == 0) return;
  ScratchVector<float> b = gather(x, n, incx);
  // op(A) element (i, j): A[i + j lda] (N) or A[j + i lda] (T); its triangle flips with T.
  const bool lower = (uplo == Uplo::lower) == (trans == Op::N);
  const TrsmProblem p{.t = A,
                      .t_si = trans == Op::N ? 1 : lda,
                      .t_sj = trans == Op::N ? lda : 1,
                      .lower = lower,
                      .unit = unit,
                      .b = b.data(),
                      .ldb = n,
                      .n = n,
                      .nrhs = 1};
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    if (n <= kTrsvMaxN)
      trsv_kernel(nc, p);  // x on one partition: 2-3 instructions per row
    else
      trsm_left_kernel(nc, p);
  });
  rep.add(std::move(r.trace));
  if (!s.timing_only) scatter(b, x, n, incx);
}

void trsv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, const double* A, std::int64_t lda,
          double* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n == 0) return;
  ScratchVector<double> b = gather(x, n, incx);
  const bool lower = (uplo == Uplo::lower) == (trans == Op::N);
  const std::int64_t si = trans == Op::N ? 1 : lda, sj = trans == Op::N ? lda : 1;  // op(A)(i, j) = A[i si + j sj]
  const std::int64_t nb = (n + kTrsvBlock - 1) / kTrsvBlock;
  for (std::int64_t step = 0; step < nb; ++step) {
    const std::int64_t blk = lower ? step : nb - 1 - step;
    const std::int64_t j0 = blk * kTrsvBlock, j1 = std::min(n, j0 + kTrsvBlock), w = j1 - j0;
    // One round trip per diagonal block: its triangle and b[j0:j1] to the host, b[j0:j1] back;
    // w divisions (none for a unit diagonal) and w (w - 1) multiply-adds.
    HostSpan tri = HostSpan::strided(A + j0 * si + j0 * sj, w, si, w, sj);
    tri.bytes = static_cast<std::size_t>(w * (w + 1) / 2) * sizeof(double);
    const HostSpan bj(b.data() + j0, w);
    rep.host_step(HostStep{.name = "trnblas.dtrsv.diag_solve",
                           .flops = static_cast<double>((unit ? 0 : w) + w * (w - 1)),
                           .reads = {tri, bj},
                           .writes = {bj}});
    if (!s.timing_only) {
      // Diagonal block by column substitution, host side (fp64).
      for (std::int64_t jj = 0; jj < j1 - j0; ++jj) {
        const std::int64_t j = lower ? j0 + jj : j1 - 1 - jj;
        if (!unit) b[static_cast<std::size_t>(j)] /= A[j * si + j * sj];
        const double xj = b[static_cast<std::size_t>(j)];
        if (lower) {
          for (std::int64_t i = j + 1; i < j1; ++i) b[static_cast<std::size_t>(i)] -= A[i * si + j * sj] * xj;
        } else {
          for (std::int64_t i = j0; i < j; ++i) b[static_cast<std::size_t>(i)] -= A[i * si + j * sj] * xj;
        }
      }
    }
    // The rows still unsolved: b[r0:r1] -= op(A)[r0:r1, j0:j1] b[j0:j1] (fp64 Level 1/2 product, row form).
    const std::int64_t r0 = lower ? j1 : 0, r1 = lower ? n : j0;
    if (r1 <= r0) continue;
    const double* blockp = A + r0 * si + j0 * sj;  // op(A)[r0, j0]
    // y^T (1 x rows) = x^T (1 x w) * op(A)[r0:r1, j0:j1]^T: as A-storage that is the block of A
    // itself read transposed (N) or read as stored (T).
    detail::dgemv_row(s, trans == Op::N ? Op::T : Op::N, r1 - r0, j1 - j0, -1.0, b.data() + j0, 1, blockp, lda, 1.0,
                      b.data() + r0, 1, rep.sub());
    rep.add_sub();
  }
  if (!s.timing_only) scatter(b, x, n, incx);
}


// ---- banded and packed storage, syr/spr/syr2/spr2 -------------------------------------------------

namespace {

// Dense rows x cols column-major copy of a matrix given element by element (host data movement).
template <class T, class Alloc = ScratchAllocator<T>, class F>
std::vector<T, Alloc> dense(std::int64_t rows, std::int64_t cols, F&& get) {
  std::vector<T, Alloc> d(static_cast<std::size_t>(rows * cols), T(0));
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) d[static_cast<std::size_t>(i + j * rows)] = get(i, j);
  return d;
}

// Position of (i, j) of the stored triangle in packed storage.
std::int64_t packed_index(Uplo uplo, std::int64_t n, std::int64_t i, std::int64_t j) {
  return uplo == Uplo::upper ? i + j * (j + 1) / 2 : i + (2 * n - j - 1) * j / 2;
}
bool in_triangle(Uplo uplo, std::int64_t i, std::int64_t j) { return uplo == Uplo::upper ? i <= j : i >= j; }

// The stored triangle of a packed (AP) or band (A, lda, k) matrix moved to or from a dense n x n copy
// by DMA: one copy_segments segment per column, of its stored run (bit copies of the 32-bit words,
// as DCOPY's). The dense copy is zero outside the triangle (a fresh buffer).
template <class T>
struct StoredColumns {
  Uplo uplo;
  std::int64_t n;
  std::int64_t k = -1;  // band width (-1: packed)
  std::int64_t lda = 0;
  // Column j's stored run: its first row and length, and its offset in the packed / band storage.
  void run(std::int64_t j, std::int64_t& row, std::int64_t& len, std::int64_t& at) const {
    const bool up = uplo == Uplo::upper;
    if (k < 0) {
      row = up ? 0 : j;
      len = up ? j + 1 : n - j;
      at = packed_index(uplo, n, row, j);
      return;
    }
    row = up ? std::max<std::int64_t>(0, j - k) : j;
    len = (up ? j : std::min(n - 1, j + k)) - row + 1;
    at = (up ? k + row - j : 0) + j * lda;
  }
  void move(const Settings& s, const T* from_stored, T* to_stored, const T* from_dense, T* to_dense, l12::Report& rep) const {
    constexpr std::int64_t w = sizeof(T) / sizeof(float);
    std::vector<CopySegment> segs;
    for (std::int64_t j = 0; j < n; ++j) {
      std::int64_t row = 0, len = 0, at = 0;
      run(j, row, len, at);
      if (len <= 0) continue;
      const std::int64_t d = row + j * n;
      if (to_dense != nullptr)
        segs.push_back({reinterpret_cast<const float*>(from_stored + at), reinterpret_cast<float*>(to_dense + d), w * len});
      else
        segs.push_back({reinterpret_cast<const float*>(from_dense + d), reinterpret_cast<float*>(to_stored + at), w * len});
    }
    copy_segments(s, segs, rep.sub());
    rep.add_sub();
  }
  ScratchVector<T> to_dense(const Settings& s, const T* stored, l12::Report& rep) const {
    ScratchVector<T> d(static_cast<std::size_t>(n * n), T(0));
    move(s, stored, nullptr, nullptr, d.data(), rep);
    return d;
  }
  void to_stored(const Settings& s, const ScratchVector<T>& dense, T* stored, l12::Report& rep) const {
    move(s, nullptr, stored, dense.data(), nullptr, rep);
  }
};
template <class T>
ScratchVector<T> stage_packed(const Settings& s, Uplo uplo, std::int64_t n, const T* AP, l12::Report& rep) {
  return StoredColumns<T>{uplo, n}.to_dense(s, AP, rep);
}
// An fp32 band (kl sub-, ku super-diagonals, band storage A with ld lda) as a dense m x n
// column-major copy in one program: element (i, j) is A[ku + i - j + j lda] = base + i + j (lda - 1),
// so per block of up to pmax columns ONE DMA reads rows 0 .. r - 1 of the block (column j on
// partition j - c0 with partition stride lda - 1, its rows on the free axis; r = min(m, n + kl): no
// band element lies below row n - 1 + kl), two GpSimdE affine_selects keep i - j + ku >= 0 and
// j + kl - i >= 0 and write +0 elsewhere (selects, not products: whatever the rest of the array
// holds cannot leak), and one DMA writes the block; rows from r on stay the fresh buffer's +0. The
// block DMA also reads band-storage elements outside the band, all inside the caller's lda x n
// array (the largest offset, ku + kl + (n - 1) lda, is below n lda as lda >= kl + ku + 1).
// kl_select_first: the j + kl - i select is issued first (the upper triangle's order since session
// 19; the two selects write disjoint lanes, so the order changes the trace only). Session 20 folded
// stage_band_f32 and stage_general_band_f32 into this one helper: the same instructions in the same
// order on the same operands as each of them issued.
// From kBandRunsMinRows rows on (a host-time choice: the same matrix either way) the band is staged
// by stage_band_by_runs instead: the selects touch w x rows elements per block at ~22 host instructions
// each in the emulator, a run DMA ~1.2k host instructions per column (callgrind through the shim,
// stbmv n = 50, k = 7: 143k -> 83k per call).
constexpr std::int64_t kBandRunsMinRows = 32;
ScratchVector<float> stage_band_by_runs(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t kl,
                                        std::int64_t ku, const float* A, std::int64_t lda, l12::Report& rep);
ScratchVector<float> stage_band_by_selects(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t kl,
                                           std::int64_t ku, const float* A, std::int64_t lda, bool kl_select_first,
                                           l12::Report& rep) {
  const std::int64_t P = hardware_spec(s.target).pmax, rows = std::min(m, n + kl);
  if (rows >= kBandRunsMinRows && kl + ku + 1 <= kStageTriangleMaxN)
    return stage_band_by_runs(s, m, n, kl, ku, A, lda, rep);
  ScratchVector<float> full(static_cast<std::size_t>(m * n));
  const float* base = A + ku;
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    AllocScope sb(nc.sbuf());
    const Tile cols = sb.alloc(DType::f32, static_cast<std::int32_t>(std::min(P, n)), {rows}, "columns", 0, AllocFill::none);
    for (std::int64_t c0 = 0; c0 < n; c0 += P) {
      const auto w = static_cast<std::int32_t>(std::min(P, n - c0));
      const Tile t = cols.rows(0, w);
      nc.dma_copy(t, tile::hbm_view(base + c0 * (lda - 1), DType::f32, w, lda - 1, {{rows, 1}}));
      // v(p, i) = step i + off + cm p with j = c0 + p: i - j + ku >= 0 (rise) and j + kl - i >= 0 (down).
      const std::array<std::int64_t, 2> rise{1, rows}, down{-1, rows};
      const auto select_ku = [&] { nc.affine_select(t, std::span(&rise, 1), ku - c0, -1, AluOp::greater_equal, t, 0.0f); };
      const auto select_kl = [&] { nc.affine_select(t, std::span(&down, 1), c0 + kl, 1, AluOp::greater_equal, t, 0.0f); };
      if (kl_select_first) {
        select_kl();
        select_ku();
      } else {
        select_ku();
        select_kl();
      }
      nc.dma_copy(HbmTensor::wrap(full.data() + c0 * m, DType::f32, {w, rows}, {m, 1}).tile(0, w, 0, rows), t);
    }
  });
  rep.add(std::move(r.trace));
  return full;
}

// The same dense m x n band copy by DMA only: per block of up to pmax columns ONE DMA reads the
// kl + ku + 1 band-storage elements of every column (column j on partition j - c0: A + j lda, a
// contiguous run inside the caller's lda x n array), then one DMA per column writes its band rows
// i = max(0, j - ku) .. min(rows, j + kl + 1) - 1, element (i, j) = A[ku + i - j + j lda], to
// full + i + j m; every other element stays the fresh buffer's +0. Bit copies: the same matrix, bit
// for bit, as the selects (which keep exactly those elements and write +0 elsewhere), without their
// pass over w x rows elements. New trace and modeled time.
ScratchVector<float> stage_band_by_runs(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t kl,
                                        std::int64_t ku, const float* A, std::int64_t lda, l12::Report& rep) {
  ScratchVector<float> full(static_cast<std::size_t>(m * n));
  const std::int64_t P = hardware_spec(s.target).pmax, rows = std::min(m, n + kl), width = kl + ku + 1;
  const auto program = [&](NeuronCore& nc) {
    AllocScope sb(nc.sbuf());
    const Tile band = sb.alloc(DType::f32, static_cast<std::int32_t>(std::min(P, n)), {width}, "band columns", 0,
                               AllocFill::none);
    for (std::int64_t c0 = 0; c0 < n; c0 += P) {
      const auto w = static_cast<std::int32_t>(std::min(P, n - c0));
      const Tile t = band.rows(0, w);
      nc.dma_copy(t, tile::hbm_view(A + c0 * lda, DType::f32, w, lda, {{width, 1}}));
      for (std::int64_t j = c0; j < c0 + w; ++j) {
        const std::int64_t i0 = std::max<std::int64_t>(0, j - ku), i1 = std::min(rows, j + kl + 1);
        if (i1 <= i0) continue;
        nc.dma_copy(tile::hbm_view(full.data() + i0 + j * m, DType::f32, 1, i1 - i0, {{i1 - i0, 1}}),
                    t.rows(static_cast<std::int32_t>(j - c0), 1).cols(ku + i0 - j, i1 - i0));
      }
    }
  };
  LaunchResult r = launch(s.launch_config(), [&program](NeuronCore& nc) { program(nc); });
  rep.add(std::move(r.trace));
  return full;
}

// The fp32 band triangle (k off-diagonals, band storage A with ld lda) as a dense n x n copy in one
// program of O(n / pmax) instructions instead of two DMAs per column (copy_segments), the band
// analogue of stage_triangle_f32 (session 19): the same n x n matrix, bit for bit, as the per-column
// copies; new trace and modeled time (docs/trnblas.md). The triangle is the band kl = 0, ku = k
// (upper) or kl = k, ku = 0 (lower) of stage_band_by_selects.
ScratchVector<float> stage_band_f32(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t k, const float* A,
                                  std::int64_t lda, l12::Report& rep) {
  // The general band with kl = 0, ku = k (upper) or kl = k, ku = 0 (lower); the upper triangle's
  // j - i >= 0 select has always come first.
  const bool up = uplo == Uplo::upper;
  return stage_band_by_selects(s, n, n, up ? 0 : k, up ? k : 0, A, lda, /*kl_select_first=*/up, rep);
}

template <class T>
ScratchVector<T> stage_band(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t k, const T* A, std::int64_t lda,
                          l12::Report& rep) {
  if constexpr (std::is_same_v<T, float>)
    if (n > 0 && n <= kStageTriangleMaxN) return stage_band_f32(s, uplo, n, k, A, lda, rep);
  return StoredColumns<T>{uplo, n, k, lda}.to_dense(s, A, rep);
}

// The stored triangle of A += x t^T (rank 1: t = alpha x) or += x t1^T + y t2^T (rank 2: t1 = alpha y,
// t2 = alpha x), t scaled first (see scaled): SYRKX with k = 1 or 2 on the uplo triangle, alpha =
// beta = 1. Rank 1 gives the reference's fl(a_ij + fl(x_i fl(alpha x_j))); rank 2 accumulates the
// two products in PSUM (x's first) before adding a_ij.
// fp64 rank 1 (dsyr, dspr) runs on the host side as dger does (rank1_term: the bits of the SYRKX with k = 1):
// the stored triangle's element (i, j) at a[i + col(j)], col(j) = j lda (full) or the packed column's start.
void dsym_rank1_host(const Settings& s, Uplo uplo, std::int64_t n, double alpha, const double* x, std::int64_t incx,
                     double* a, std::int64_t lda, bool packed, l12::Report& rep) {
  const ScratchVector<double> xv = gather(x, n, incx), t = scaled(s, alpha, xv, rep);
  const HostSpan as = packed ? HostSpan(a, n * (n + 1) / 2) : HostSpan::matrix(a, n, n, lda);
  rep.host_step(HostStep{.name = "trnblas.dsyr.host", .flops = static_cast<double>(n * (n + 1)),
                         .reads = {HostSpan(xv.data(), n), HostSpan(t.data(), n), as}, .writes = {as}});
  if (s.timing_only) return;
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int64_t i0 = uplo == Uplo::upper ? 0 : j, i1 = uplo == Uplo::upper ? j + 1 : n;
    double* const col = packed ? a + packed_index(uplo, n, 0, j) : a + j * lda;  // element (i, j) at col[i]
    const double tj = t[static_cast<std::size_t>(j)];
    for (std::int64_t i = i0; i < i1; ++i) col[i] = col[i] + rank1_term(xv[static_cast<std::size_t>(i)], tj);
  }
}

// fp32 syr / syr2 / spr / spr2 in ONE program (session 20), for n within
// ger_fits_one_program's limits (one diagonal block of the SYRKX path: its block size is pmax).
// Algorithm   The SYRKX path below is a scal launch (t = alpha [x] or alpha [y x], k = 1 or 2) and
//             gemmt's one diagonal block: the stored triangle copied on the host into an n x n
//             scratch S (zeros elsewhere), the k-deep GEMM S = [x (y)] t^T + S with alpha = beta = 1,
//             the triangle copied back (spr / spr2: copy_segments launches stage the packed triangle
//             into a dense copy and back around that). Here the same S copies on the host (packed:
//             the stored runs DMAed straight into and out of the program), and one program: the
//             rows of the stationary t [k, n] and the moving [x (y)] [k, n] by DMA, t scaled on VectorE
//             (scal's tensor_scalar, fl(alpha v)), ONE nc_matmul (PSUM[j, i] = the k products of
//             column j and row i from +0, in the GEMM's operand layout), then ger_one_program's
//             epilogue (tile::evacuate, S in, tile::add_beta_c_and_cast with alpha = beta = 1) and
//             one DMA of S out: the GEMM driver's instructions on the same operands, so every stored
//             element has the SYRKX path's bits (signed zeros and NaNs included); only the scal's
//             HBM round trip and second launch go. New trace and modeled time (docs/trnblas.md).
// Engines     DMA, VectorE, TensorE.
// Accuracy    rank 1: fl(a_ij + fl(x_i fl(alpha x_j))); rank 2: fl(a_ij + (x_i fl(alpha y_j) +
//             y_i fl(alpha x_j))) with the two products summed in PSUM as the k = 2 GEMM does.
// Limits      n <= min(pmax, gemm_stationary_fmax); larger calls take the SYRKX path.
// The program of both: load_c(nc, c) fills c [n, n] (column j on partition j, its rows on the free
// axis) with the stored triangle and +0 elsewhere; store_v(nc, v) writes the triangle back. Both are
// called as template parameters (no std::function: it heap-copied each capturing lambda and called
// through it on every rank update).
template <class LoadC, class StoreV>
void sym_rank_program(const Settings& s, std::int64_t n, float alpha, const float* x, std::int64_t incx,
                      const float* y, std::int64_t incy, const LoadC& load_c, const StoreV& store_v,
                      l12::Report& rep) {
  const VecIn<float> xv(x, n, incx);
  const VecIn<float> yv(y != nullptr ? y : x, n, y != nullptr ? incy : incx);
  const std::int64_t k = y != nullptr ? 2 : 1;
  const auto rows = static_cast<std::int32_t>(n);
  const auto program = [&](NeuronCore& nc) {
    AllocScope sb(nc.sbuf()), ps(nc.psum());
    constexpr AllocFill kWrittenFirst = AllocFill::none;  // each is a DMA's or an instruction's destination first
    const auto K = static_cast<std::int32_t>(k);
    const Tile t = sb.alloc(DType::f32, K, {n}, "alpha [y x] rows", 0, kWrittenFirst);
    const Tile xy = sb.alloc(DType::f32, K, {n}, "[x y] rows", 0, kWrittenFirst);
    const Tile acc = ps.alloc(DType::f32, rows, {n}, "[x y] t^T", 0, kWrittenFirst);
    const Tile v = sb.alloc(DType::f32, rows, {n}, "update", 0, kWrittenFirst);
    const Tile c = sb.alloc(DType::f32, rows, {n}, "stored triangle", 0, kWrittenFirst);
    const auto row = [&](const VecIn<float>& u) { return tile::hbm_view(u.p, DType::f32, 1, n * u.inc, {{n, u.inc}}); };
    // right = alpha [y x] (rank 2) or alpha x (rank 1): row l of the stationary is column l of right.
    nc.dma_copy(t.rows(0, 1), row(k == 2 ? yv : xv));
    if (k == 2) nc.dma_copy(t.rows(1, 1), row(xv));
    nc.tensor_scalar(t, t, AluOp::multiply, alpha);  // scal: fl(alpha v)
    nc.dma_copy(xy.rows(0, 1), row(xv));
    if (k == 2) nc.dma_copy(xy.rows(1, 1), row(yv));
    nc.nc_matmul(acc, t, xy, /*accumulate=*/false);
    tile::evacuate(nc, v, acc, 1.0f, /*accumulated=*/true);
    load_c(nc, c);
    tile::add_beta_c_and_cast(nc, v, &c, 1.0f, nullptr);
    store_v(nc, v);
  };
  // The launch's std::function holds one reference (in place: no heap copy of the program).
  LaunchResult r = launch(s.launch_config(), [&program](NeuronCore& nc) { program(nc); });
  rep.add(std::move(r.trace));
}

// Dense storage: gemmt's host copies of the triangle into and out of the n x n scratch S, and one DMA
// each way between S and the program (the SYRKX path's GEMM reads and writes S so).
void sym_rank_one_program(const Settings& s, Uplo uplo, std::int64_t n, float alpha, const float* x, std::int64_t incx,
                          const float* y, std::int64_t incy, float* A, std::int64_t lda, l12::Report& rep) {
  const bool lower = uplo == Uplo::lower;
  const auto in_tri = [&](std::int64_t i, std::int64_t j) { return lower ? i >= j : i <= j; };
  ScratchVector<float> S(static_cast<std::size_t>(n * n));  // gemmt's diagonal-block scratch (traced)
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) S[static_cast<std::size_t>(i + j * n)] = in_tri(i, j) ? A[i + j * lda] : 0.0f;
  const Tile st = tile::hbm_view(S.data(), DType::f32, static_cast<std::int32_t>(n), n, {{n, 1}});
  sym_rank_program(
      s, n, alpha, x, incx, y, incy, [&](NeuronCore& nc, const Tile& c) { nc.dma_copy(c, st); },
      [&](NeuronCore& nc, const Tile& v) { nc.dma_copy(st, v); }, rep);
  if (s.timing_only) return;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      if (in_tri(i, j)) A[i + j * lda] = S[static_cast<std::size_t>(i + j * n)];
}

// Packed storage: c is +0 (one memset: the staged copy's zeros) with column j's stored run DMAed onto
// partition j, and each run written back from v: 2n + 1 instructions in this program instead of the
// two copy_segments launches (4n DMAs) and the dense copy's launches around the update.
void sym_rank_packed_one_program(const Settings& s, Uplo uplo, std::int64_t n, float alpha, const float* x,
                                 std::int64_t incx, const float* y, std::int64_t incy, float* AP, l12::Report& rep) {
  const StoredColumns<float> cols{uplo, n};
  const auto runs = [&](NeuronCore& nc, const Tile& sbuf_tile, bool to_sbuf) {
    for (std::int64_t j = 0; j < n; ++j) {
      std::int64_t row = 0, len = 0, at = 0;
      cols.run(j, row, len, at);
      const Tile on_chip = sbuf_tile.rows(static_cast<std::int32_t>(j), 1).cols(row, len);
      const Tile stored = tile::hbm_view(AP + at, DType::f32, 1, len, {{len, 1}});
      if (to_sbuf)
        nc.dma_copy(on_chip, stored);
      else
        nc.dma_copy(stored, on_chip);
    }
  };
  sym_rank_program(
      s, n, alpha, x, incx, y, incy,
      [&](NeuronCore& nc, const Tile& c) {
        nc.memset(c, 0.0f);
        runs(nc, c, true);
      },
      [&](NeuronCore& nc, const Tile& v) { runs(nc, v, false); }, rep);
}

template <class T>
void sym_rank(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const T* x, std::int64_t incx, const T* y,
              std::int64_t incy, T* A, std::int64_t lda, l12::Report& rep) {
  if constexpr (std::is_same_v<T, double>)
    if (y == nullptr) return dsym_rank1_host(s, uplo, n, alpha, x, incx, A, lda, false, rep);
  if constexpr (std::is_same_v<T, float>)
    if (n > 0 && ger_fits_one_program(s, n, n)) return sym_rank_one_program(s, uplo, n, alpha, x, incx, y, incy, A, lda, rep);
  ScratchVector<T> left = gather(x, n, incx), right = left;  // n x k each, ld n: [x (y)] and [(y) x]
  if (y != nullptr) {
    const ScratchVector<T> yv = gather(y, n, incy);
    left.insert(left.end(), yv.begin(), yv.end());
    right.insert(right.begin(), yv.begin(), yv.end());
  }
  right = scaled(s, alpha, std::move(right), rep);
  const std::int64_t k = y != nullptr ? 2 : 1;
  if constexpr (std::is_same_v<T, float>)
    ssyrkx(s, GemmMode::fp32, uplo, Op::N, n, k, 1.0f, left.data(), n, right.data(), n, 1.0f, A, lda, rep.sub());
  else
    dsyrkx(s, uplo, Op::N, n, k, 1.0, left.data(), n, right.data(), n, 1.0, A, lda, rep.sub());
  rep.add_sub();
}

// The same on packed storage: staged into a dense n x n copy by DMA, updated, the triangle written back by DMA.
template <class T>
void sym_rank_packed(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const T* x, std::int64_t incx, const T* y,
                     std::int64_t incy, T* AP, l12::Report& rep) {
  if constexpr (std::is_same_v<T, double>)  // fp64 rank 1 in place on the packed triangle (no staging)
    if (y == nullptr) return dsym_rank1_host(s, uplo, n, alpha, x, incx, AP, 0, true, rep);
  if constexpr (std::is_same_v<T, float>)
    if (n > 0 && ger_fits_one_program(s, n, n)) return sym_rank_packed_one_program(s, uplo, n, alpha, x, incx, y, incy, AP, rep);
  ScratchVector<T> full = stage_packed(s, uplo, n, AP, rep);
  sym_rank(s, uplo, n, alpha, x, incx, y, incy, full.data(), n, rep);
  StoredColumns<T>{uplo, n}.to_stored(s, full, AP, rep);
}

// The fp32 general band (kl sub-, ku super-diagonals) as a dense m x n copy in one program
// (stage_band_by_selects, session 19): the same matrix, bit for bit, as band_dense's per-column
// copies (4 instructions per pmax columns instead of two per column; used from n = 3); new trace and
// modeled time.
ScratchVector<float> stage_general_band_f32(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t kl,
                                            std::int64_t ku, const float* A, std::int64_t lda, l12::Report& rep) {
  return stage_band_by_selects(s, m, n, kl, ku, A, lda, /*kl_select_first=*/false, rep);
}

// Dense m x n column-major copy of a general band matrix (kl sub- and ku super-diagonals, band
// storage A with ld lda) by DMA: one copy_segments segment per column, its stored run (bit copies
// of the 32-bit words, as DCOPY's); zero outside the band (a fresh buffer). fp32 from n = 3: one program.
template <class T>
ScratchVector<T> band_dense(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t kl, std::int64_t ku, const T* A,
                          std::int64_t lda, l12::Report& rep) {
  // The per-column copies are two instructions a column: fewer than the block's four up to n = 2.
  if constexpr (std::is_same_v<T, float>)
    if (n > 2 && std::min(m, n + kl) <= kStageTriangleMaxN) return stage_general_band_f32(s, m, n, kl, ku, A, lda, rep);
  constexpr std::int64_t w = sizeof(T) / sizeof(float);
  ScratchVector<T> d(static_cast<std::size_t>(m * n), T(0));
  std::vector<CopySegment> segs;
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int64_t i0 = std::max<std::int64_t>(0, j - ku), i1 = std::min(m - 1, j + kl);
    if (i1 >= i0)
      segs.push_back({reinterpret_cast<const float*>(A + (ku + i0 - j) + j * lda),
                      reinterpret_cast<float*>(d.data() + i0 + j * m), w * (i1 - i0 + 1)});
  }
  copy_segments(s, segs, rep.sub());
  rep.add_sub();
  return d;
}

template <class T>
void gbmv_t(const Settings& s, Op trans, std::int64_t m, std::int64_t n, std::int64_t kl, std::int64_t ku, T alpha,
            const T* A, std::int64_t lda, const T* x, std::int64_t incx, T beta, T* y, std::int64_t incy,
            CallReport* report) {
  l12::Report rep(s, report);
  if (m == 0 || n == 0 || (alpha == T(0) && beta == T(1))) return;
  ScratchVector<T> d;
  if (alpha != T(0)) d = band_dense(s, m, n, kl, ku, A, lda, rep);
  gemv_row(s, trans, m, n, alpha, d.empty() ? nullptr : d.data(), m, x, incx, beta, y, incy, rep.sub());
  rep.add_sub();
}

// trmv_t on a triangle that tbmv / tpmv have just staged (the stored elements, +0 elsewhere): for a
// float non-unit diagonal trmv_t's own staging copy (stage_triangle_f32: a launch of a DMA, an
// affine_select and a DMA) would give `tri` back bit for bit, so the product runs on it directly;
// the same gemv_row on the same operands (same bits), one launch fewer (session 19).
template <class T>
bool trmv_on_staged(const Settings& s, Op trans, bool unit, std::int64_t n, const ScratchVector<T>& tri, T* x,
                    std::int64_t incx, CallReport* report) {
  if (!std::is_same_v<T, float> || unit || n == 0) return false;
  l12::Report rep(s, report);
  ScratchVector<T> xin = gather(x, n, incx), out(static_cast<std::size_t>(n), T(0));
  gemv_row(s, trans, n, n, T(1), tri.data(), n, xin.data(), 1, T(0), out.data(), 1, rep.sub());
  rep.add_sub();
  if (!s.timing_only) scatter(out, x, n, incx);
  return true;
}

// fp32 tbsv straight from band storage in one launch (tbsv_kernel) when the band fits one SBUF
// partition; false: the staged dense path (the double overload always says so).
bool tbsv_direct(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, std::int64_t k, const float* A,
                 std::int64_t lda, float* x, std::int64_t incx, CallReport* report) {
  if (n < 1 || n > kTrsvMaxN || n * (std::min(k, n - 1) + 1) > kTbsvBandElements) return false;
  l12::Report rep(s, report);
  ScratchVector<float> b = gather(x, n, incx);
  const BandSolve p{.a = A,
                    .lda = lda,
                    .n = n,
                    .k = k,
                    .upper_stored = uplo == Uplo::upper,
                    .transposed = trans != Op::N,
                    .unit = unit,
                    .b = b.data()};
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) { tbsv_kernel(nc, p); });
  rep.add(std::move(r.trace));
  if (!s.timing_only) scatter(b, x, n, incx);
  return true;
}
bool tbsv_direct(const Settings&, Uplo, Op, bool, std::int64_t, std::int64_t, const double*, std::int64_t, double*,
                 std::int64_t, CallReport*) {
  return false;
}

template <class T>
void sym_staged(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const ScratchVector<T>& tri, const T* x,
                std::int64_t incx, T beta, T* y, std::int64_t incy, CallReport* report) {
  symv_t(s, uplo, n, alpha, tri.empty() ? nullptr : tri.data(), n, x, incx, beta, y, incy, report);
}

}  // namespace

#define TRNBLAS_L2_EXTRA_IMPL(T)                                                                                        \
  void gbmv(const Settings& s, Op trans, std::int64_t m, std::int64_t n, std::int64_t kl, std::int64_t ku, T alpha,     \
            const T* A, std::int64_t lda, const T* x, std::int64_t incx, T beta, T* y, std::int64_t incy,               \
            CallReport* report) {                                                                                       \
    gbmv_t(s, trans, m, n, kl, ku, alpha, A, lda, x, incx, beta, y, incy, report);                                      \
  }                                                                                                                     \
  void sbmv(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t k, T alpha, const T* A, std::int64_t lda,        \
            const T* x, std::int64_t incx, T beta, T* y, std::int64_t incy, CallReport* report) {                      \
    l12::Report rep(s, report);                                                                                         \
    const ScratchVector<T> tri = n > 0 && alpha != T(0) ? stage_band(s, uplo, n, k, A, lda, rep) : ScratchVector<T>{};      \
    sym_staged(l12::nested(s), uplo, n, alpha, tri, x, incx, beta, y, incy, rep.sub());                                              \
    rep.add_sub();                                                                                                      \
  }                                                                                                                     \
  void spmv(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const T* AP, const T* x, std::int64_t incx, T beta,  \
            T* y, std::int64_t incy, CallReport* report) {                                                              \
    l12::Report rep(s, report);                                                                                         \
    const ScratchVector<T> tri = n > 0 && alpha != T(0) ? stage_packed(s, uplo, n, AP, rep) : ScratchVector<T>{};           \
    sym_staged(l12::nested(s), uplo, n, alpha, tri, x, incx, beta, y, incy, rep.sub());                                              \
    rep.add_sub();                                                                                                      \
  }                                                                                                                     \
  void tbmv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, std::int64_t k, const T* A,              \
            std::int64_t lda, T* x, std::int64_t incx, CallReport* report) {                                            \
    l12::Report rep(s, report);                                                                                         \
    const ScratchVector<T> tri = stage_band(s, uplo, n, k, A, lda, rep);                                                  \
    CallReport* const sub = rep.sub();                                                                                  \
    if (!trmv_on_staged(l12::nested(s), trans, unit, n, tri, x, incx, sub))                                             \
      trmv(l12::nested(s), uplo, trans, unit, n, tri.data(), std::max<std::int64_t>(1, n), x, incx, sub);              \
    rep.add_sub();                                                                                                      \
  }                                                                                                                     \
  void tbsv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, std::int64_t k, const T* A,              \
            std::int64_t lda, T* x, std::int64_t incx, CallReport* report) {                                            \
    if (tbsv_direct(s, uplo, trans, unit, n, k, A, lda, x, incx, report)) return;                                     \
    l12::Report rep(s, report);                                                                                         \
    const ScratchVector<T> tri = stage_band(s, uplo, n, k, A, lda, rep);                                                  \
    trsv(l12::nested(s), uplo, trans, unit, n, tri.data(), std::max<std::int64_t>(1, n), x, incx, rep.sub());                        \
    rep.add_sub();                                                                                                      \
  }                                                                                                                     \
  void tpmv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, const T* AP, T* x, std::int64_t incx,    \
            CallReport* report) {                                                                                       \
    l12::Report rep(s, report);                                                                                         \
    const ScratchVector<T> tri = stage_packed(s, uplo, n, AP, rep);                                                       \
    CallReport* const sub = rep.sub();                                                                                  \
    if (!trmv_on_staged(l12::nested(s), trans, unit, n, tri, x, incx, sub))                                             \
      trmv(l12::nested(s), uplo, trans, unit, n, tri.data(), std::max<std::int64_t>(1, n), x, incx, sub);              \
    rep.add_sub();                                                                                                      \
  }                                                                                                                     \
  void tpsv(const Settings& s, Uplo uplo, Op trans, bool unit, std::int64_t n, const T* AP, T* x, std::int64_t incx,    \
            CallReport* report) {                                                                                       \
    l12::Report rep(s, report);                                                                                         \
    const ScratchVector<T> tri = stage_packed(s, uplo, n, AP, rep);                                                       \
    trsv(l12::nested(s), uplo, trans, unit, n, tri.data(), std::max<std::int64_t>(1, n), x, incx, rep.sub());                        \
    rep.add_sub();                                                                                                      \
  }                                                                                                                     \
  void syr(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const T* x, std::int64_t incx, T* A,                  \
           std::int64_t lda, CallReport* report) {                                                                      \
    l12::Report rep(s, report);                                                                                         \
    if (n == 0 || alpha == T(0)) return;                                                                                \
    sym_rank<T>(s, uplo, n, alpha, x, incx, nullptr, 1, A, lda, rep);                                                   \
  }                                                                                                                     \
  void spr(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const T* x, std::int64_t incx, T* AP,                 \
           CallReport* report) {                                                                                        \
    l12::Report rep(s, report);                                                                                         \
    if (n == 0 || alpha == T(0)) return;                                                                                \
    sym_rank_packed<T>(s, uplo, n, alpha, x, incx, nullptr, 1, AP, rep);                                                \
  }                                                                                                                     \
  void syr2(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const T* x, std::int64_t incx, const T* y,           \
            std::int64_t incy, T* A, std::int64_t lda, CallReport* report) {                                            \
    l12::Report rep(s, report);                                                                                         \
    if (n == 0 || alpha == T(0)) return;                                                                                \
    sym_rank<T>(s, uplo, n, alpha, x, incx, y, incy, A, lda, rep);                                                      \
  }                                                                                                                     \
  void spr2(const Settings& s, Uplo uplo, std::int64_t n, T alpha, const T* x, std::int64_t incx, const T* y,           \
            std::int64_t incy, T* AP, CallReport* report) {                                                             \
    l12::Report rep(s, report);                                                                                         \
    if (n == 0 || alpha == T(0)) return;                                                                                \
    sym_rank_packed<T>(s, uplo, n, alpha, x, incx, y, incy, AP, rep);                                                   \
  }

TRNBLAS_L2_EXTRA_IMPL(float)
TRNBLAS_L2_EXTRA_IMPL(double)
#undef TRNBLAS_L2_EXTRA_IMPL

// ---- hemv, geru/gerc ------------------------------------------------------------------------------

namespace {

template <class R>
void hemv_t(const Settings& s, Uplo uplo, std::int64_t n, std::complex<R> alpha, const std::complex<R>* A,
            std::int64_t lda, const std::complex<R>* x, std::int64_t incx, std::complex<R> beta, std::complex<R>* y,
            std::int64_t incy, CallReport* report) {
  using C = std::complex<R>;
  l12::Report rep(s, report);
  if (n == 0 || (alpha == C(0) && beta == C(1))) return;
  ScratchVector<C> full;  // traced: docs/cost-model.md section 2
  if (alpha != C(0)) {
    // The Hermitian matrix staged densely (the mirror conjugated, the diagonal's imaginary parts
    // cleared: copies and sign flips), one host round trip.
    full = dense<C, ScratchAllocator<C>>(n, n, [&](std::int64_t i, std::int64_t j) {
      if (i == j) return C(A[i + i * lda].real(), R(0));
      return in_triangle(uplo, i, j) ? A[i + j * lda] : std::conj(A[j + i * lda]);  // conj: a sign flip
    });
    rep.host_step(HostStep{.name = "trnblas.hemv.stage", .flops = 0, .reads = {triangle_span(A, n, lda)},
                           .writes = {HostSpan(full.data(), n * n)}});
  }
  gemv(s, Op::N, false, n, n, alpha, full.empty() ? nullptr : full.data(), n, x, incx, beta, y, incy, rep.sub());
  rep.add_sub();
}

// Ar += U Yr^T and Ai += U Yi^T with U = [ur ui] (m x 2) and the n x 2 plane pairs of y.
template <class R>
void ger_planes(const Settings& s, bool conjugate, std::int64_t m, std::int64_t n, const ScratchVector<std::complex<R>>& u,
                const std::complex<R>* y, std::int64_t incy, std::complex<R>* A, std::int64_t lda, l12::Report& rep) {
  const ScratchVector<std::complex<R>> yv = gather(y, n, incy);
  const auto M = static_cast<std::size_t>(m), N = static_cast<std::size_t>(n);
  ScratchVector<R> operands(2 * M + 4 * N);  // U (m x 2), then Yr and Yi (n x 2 each)
  R* const U = operands.data();
  R* const Yr = U + 2 * M;
  R* const Yi = Yr + 2 * N;
  for (std::size_t i = 0; i < M; ++i) {
    U[i] = u[i].real();
    U[M + i] = u[i].imag();
  }
  const R sgn = conjugate ? R(1) : R(-1);  // ur yr - ui yi (geru) or ur yr + ui yi (gerc), with conj(y)
  for (std::size_t j = 0; j < N; ++j) {     // sign flips only: exact
    Yr[j] = yv[j].real();
    Yr[N + j] = sgn * yv[j].imag();
    Yi[j] = conjugate ? -yv[j].imag() : yv[j].imag();
    Yi[N + j] = yv[j].real();
  }
  auto [ar, ai] = planes(m, n, A, lda);
  // y's gather and the sign-flipped operands, A's split into planes: host copies (one round trip).
  rep.host_step(HostStep{.name = "trnblas.complex_ger.pack",
                         .reads = {HostSpan(u.data(), m), l12::vec_span(y, n, incy), HostSpan::matrix(A, m, n, lda)},
                         .writes = {HostSpan(U, 2 * m + 4 * n), HostSpan(ar.data(), m * n), HostSpan(ai.data(), m * n)}});
  for (auto [plane_ptr, Y] : {std::pair{&ar, Yr}, std::pair{&ai, Yi}}) {
    if constexpr (std::is_same_v<R, float>)
      gemm(s, GemmMode::fp32, Op::N, Op::T, m, n, 2, 1.0f, MatrixRef{U, DType::f32, m},
           MatrixRef{Y, DType::f32, n}, 1.0f, MutableMatrixRef{plane_ptr->data(), DType::f32, m}, rep.sub());
    else
      dgemm(s, Op::N, Op::T, m, n, 2, 1.0, U, m, Y, n, 1.0, plane_ptr->data(), m, rep.sub());
    rep.add_sub();
  }
  rep.host_step(HostStep{.name = "trnblas.complex_ger.merge",  // the planes interleaved back into A
                         .reads = {HostSpan(ar.data(), m * n), HostSpan(ai.data(), m * n)},
                         .writes = {HostSpan::matrix(A, m, n, lda)}});
  if (s.timing_only) return;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i)
      A[i + j * lda] = std::complex<R>(ar[static_cast<std::size_t>(i + j * m)], ai[static_cast<std::size_t>(i + j * m)]);
}

// Complex fp32 geru / gerc in ONE program: the x copy, u = alpha x (scal), the sign flips of the
// operand packing and both planes' k = 2 GEMMs of the general path (ger_planes), fused.
// Algorithm   x and y come in by DMA as two-partition tiles in both part orders, (re; im) and
//             (im; re) (partition stride +-1 float of the interleaved data; K = 2 on partitions).
//             u = alpha x with scal's VectorE instructions per element: t1 = x * ar, t2 = x_swapped * ai
//             on both partitions, then ui = t1 + t2 (partition 1) and ur = t1 - t2 (partition 0, the
//             one partition an instruction can address alone: partition starts are 32-aligned).
//             The stationary operands are the general path's packed planes, sign flips included:
//             real plane W_r = (yr; -1 * yi) (geru: y * -1, row 0 copied back) or (yr; yi) (gerc);
//             imaginary plane W_i = (yi; yr) (geru) or (-1 * yi; yr) (gerc). Two nc_matmuls with
//             moving u [2, m] (accumulate = false) give PSUM[j, i] = fma(u_1i, w_1j, fma(u_0i, w_0j, +0))
//             per plane into the two halves of one [n, 2m] PSUM tile; one tensor_tensor adds them,
//             read interleaved, to A's [n, 2m] block (column j of A on partition j, its re/im pairs
//             on the free axis: contiguous runs) and one DMA writes it back. The general path's
//             epilogue was tensor_copy (alpha = 1), c = 1 * c, v = v + c: the same sum, since
//             1 * c is c (a signalling NaN is quieted either way by the add). So each element is the
//             general path's fl(a + fl(fl(u_0 w_0) + u_1 w_1)) with u = fl(alpha x) rounded as scal
//             does: the same bits, signed zeros included; the one difference is the sign bit of a
//             NaN made from a NaN imaginary part of y by gerc (the host negation flipped it, the
//             multiply by -1 keeps it). New trace and modeled time (docs/trnblas.md, "Complex ger
//             in one program"): 28 instructions in 4 launches -> 14 (gerc) / 15 (geru) in one.
// Engines     DMA, VectorE, TensorE.
// Accuracy    Per component fl(a + fl(fl(ur yr) -+ ui yi)) (resp. ur yi +- ui yr) with ur, ui each
//             within gamma_2 |alpha|_1 |x_i|_1 of alpha x: |error| <= gamma_5 (|alpha|_1 |x_i|_1 |y_j|_1
//             + |a_ij|) per component, |v|_1 = |re| + |im|, barring underflow and overflow
//             (docs/trnblas.md, "Complex ger in one program").
// Limits      incx, incy != 0; n <= min(pmax, gemm_stationary_fmax) (PSUM partitions, PE columns);
//             2m fp32 in one PSUM bank and m <= gemm_moving_fmax. Larger calls take ger_planes.
bool complex_ger_fits_one_program(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t incx,
                                  std::int64_t incy) {
  const HardwareSpec& hw = hardware_spec(s.target);
  return incx != 0 && incy != 0 && n <= std::min<std::int64_t>(hw.pmax, hw.gemm_stationary_fmax) &&
         2 * m <= hw.psum_bank_bytes / 4 && m <= hw.gemm_moving_fmax;
}

void complex_ger_one_program(const Settings& s, bool conjugate, std::int64_t m, std::int64_t n, cfloat alpha,
                             const cfloat* x, std::int64_t incx, const cfloat* y, std::int64_t incy, cfloat* A,
                             std::int64_t lda, l12::Report& rep) {
  const auto rows = static_cast<std::int32_t>(n);
  // Element 0 of each vector (inc < 0: the last stored one, walked backwards) as floats: re at +0, im at +1.
  const float* const xf = reinterpret_cast<const float*>(l12::first(x, m, incx));
  const float* const yf = reinterpret_cast<const float*>(l12::first(y, n, incy));
  const float ar = alpha.real(), ai = alpha.imag();
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) {
    // The two-partition operands side by side in one tile, then A's block (l12::FirstTiles: one
    // allocation, no poison fill; every tile is a DMA's or an instruction's destination first).
    const l12::FirstTiles sb(nc.sbuf(), {{2, 3 * m + 3 * n}, {rows, 2 * m}}, "complex ger operands");
    const Tile& pairs = sb[0];
    const Tile& c = sb[1];
    const Tile x_ri = pairs.cols(0, m), x_ir = pairs.cols(m, m), u = pairs.cols(2 * m, m);
    const Tile y_ri = pairs.cols(3 * m, n), y_ir = pairs.cols(3 * m + n, n), y_rn = pairs.cols(3 * m + 2 * n, n);
    const Tile acc = nc.psum().alloc(DType::f32, rows, {2 * m}, "u W^T (re | im)", 0, AllocFill::none);
    struct FreePsum {
      OnChipMemory& m;
      const Tile& t;
      ~FreePsum() { m.free(t); }
    } free_acc{nc.psum(), acc};
    nc.dma_copy(x_ri, l12::hbm_f32(xf, 2, 1, m, 2 * incx));       // (xr; xi)
    nc.dma_copy(x_ir, l12::hbm_f32(xf + 1, 2, -1, m, 2 * incx));  // (xi; xr)
    nc.dma_copy(y_ri, l12::hbm_f32(yf, 2, 1, n, 2 * incy));       // (yr; yi)
    nc.dma_copy(y_ir, l12::hbm_f32(yf + 1, 2, -1, n, 2 * incy));  // (yi; yr)
    const Tile a = l12::hbm_f32(reinterpret_cast<float*>(A), rows, 2 * lda, 2 * m, 1);
    nc.dma_copy(c, a);
    // u = alpha x as scal: ur = fl(fl(xr ar) - fl(xi ai)), ui = fl(fl(xi ar) + fl(xr ai)).
    nc.tensor_scalar(x_ri, x_ri, AluOp::multiply, ar);  // (xr ar; xi ar)
    nc.tensor_scalar(x_ir, x_ir, AluOp::multiply, ai);  // (xi ai; xr ai)
    nc.tensor_tensor(u, x_ri, x_ir, AluOp::add);         // partition 1: ui (partition 0 is replaced next)
    nc.tensor_tensor(u.rows(0, 1), x_ri.rows(0, 1), x_ir.rows(0, 1), AluOp::subtract);  // ur
    // The planes' stationary operands, as ger_planes packs them.
    const Tile* w_re = &y_ri;
    const Tile* w_im = &y_ir;
    if (conjugate) {
      nc.tensor_scalar(y_ir.rows(0, 1), y_ir.rows(0, 1), AluOp::multiply, -1.0f);  // (-yi; yr)
    } else {
      nc.tensor_scalar(y_rn, y_ri, AluOp::multiply, -1.0f);  // (-yr; -yi), then row 0 back to yr
      nc.tensor_copy(y_rn.rows(0, 1), y_ri.rows(0, 1));
      w_re = &y_rn;
    }
    nc.nc_matmul(acc.cols(0, m), *w_re, u, /*accumulate=*/false);
    nc.nc_matmul(acc.cols(m, m), *w_im, u, /*accumulate=*/false);
    // A += the planes, read interleaved: free element 2i + p of A's block is plane p's element i.
    nc.tensor_tensor(c, tile::view(acc, 0, {{m, 1}, {2, m}}), c, AluOp::add);
    nc.dma_copy(a, c);
  });
  rep.add(std::move(r.trace));
}

}  // namespace

void hemv(const Settings& s, Uplo uplo, std::int64_t n, cfloat alpha, const cfloat* A, std::int64_t lda,
          const cfloat* x, std::int64_t incx, cfloat beta, cfloat* y, std::int64_t incy, CallReport* report) {
  hemv_t(s, uplo, n, alpha, A, lda, x, incx, beta, y, incy, report);
}
void hemv(const Settings& s, Uplo uplo, std::int64_t n, cdouble alpha, const cdouble* A, std::int64_t lda,
          const cdouble* x, std::int64_t incx, cdouble beta, cdouble* y, std::int64_t incy, CallReport* report) {
  hemv_t(s, uplo, n, alpha, A, lda, x, incx, beta, y, incy, report);
}

void ger(const Settings& s, bool conjugate, std::int64_t m, std::int64_t n, cfloat alpha, const cfloat* x,
         std::int64_t incx, const cfloat* y, std::int64_t incy, cfloat* A, std::int64_t lda, CallReport* report) {
  l12::Report rep(s, report);
  if (m == 0 || n == 0 || alpha == cfloat(0.0f)) return;
  if (complex_ger_fits_one_program(s, m, n, incx, incy)) {
    if (report != nullptr && report->plans_wanted)
      report->add_plan(std::string(conjugate ? "cgerc " : "cgeru ") + std::to_string(m) + " x " + std::to_string(n) +
                       ": one program (complex_ger_one_program: x, y in by DMA, u = alpha x on VectorE, both planes' "
                       "k = 2 products on TensorE, one add, one DMA out)");
    return complex_ger_one_program(s, conjugate, m, n, alpha, x, incx, y, incy, A, lda, rep);
  }
  ScratchVector<cfloat> u(static_cast<std::size_t>(m));
  copy(s, m, x, incx, u.data(), 1, rep.sub());  // x's gather: DMAs (exact)
  rep.add_sub();
  scal(s, m, alpha, u.data(), 1, rep.sub());  // u = alpha x on VectorE
  rep.add_sub();
  ger_planes(s, conjugate, m, n, u, y, incy, A, lda, rep);
}
// fp64 complex rank 1 (zgeru, zgerc; zher, zher2, zsyr, zsyr2 through rank_staged) on the host side, as
// dger and zaxpy are (session 26, issue #30): a rank-1 update is elementwise -- per element one complex
// product and one add, no sum over k -- so it is one costed host round trip (trnblas.zger.host) instead
// of the host scal of u = alpha x and one Ozaki DGEMM m x n x 2 per plane it was (27 k host
// instructions for LAPACK's 3 x 2 calls; zgeru_ + zgerc_ were 12.7 % of xlintstz's shim time).
// Algorithm   The reference ZGERU / ZGERC loops: t_j = alpha y_j (gerc: alpha conj(y_j)), then
//             a_ij = a_ij + x_i t_j, each complex product as Fortran evaluates it (re = fl(fl(ar br) -
//             fl(ai bi)), im = fl(fl(ar bi) + fl(ai br))); no column is skipped for y_j = 0 (the IEEE
//             result, as the engine forms).
// Accuracy    Each part within gamma_5 (|alpha|_1 |x_i|_1 |y_j|_1 + |a_ij|) barring underflow / overflow
//             (two roundings in t, two in the product, one in the add), the bound of the fp32 form
//             (docs/trnblas.md, "Complex ger in one program"); the Ozaki form's bits differ in the last place.
void ger(const Settings& s, bool conjugate, std::int64_t m, std::int64_t n, cdouble alpha, const cdouble* x,
         std::int64_t incx, const cdouble* y, std::int64_t incy, cdouble* A, std::int64_t lda, CallReport* report) {
  l12::Report rep(s, report);
  if (m == 0 || n == 0 || alpha == cdouble(0.0)) return;
  const HostSpan as = HostSpan::matrix(A, m, n, lda);
  rep.host_step(HostStep{.name = "trnblas.zger.host",
                         .flops = 6.0 * static_cast<double>(n) + 8.0 * static_cast<double>(m * n),
                         .reads = {l12::vec_span(x, m, incx), l12::vec_span(y, n, incy), as},
                         .writes = {as}});
  if (s.timing_only) return;
  const VecIn<cdouble> xv(x, m, incx), yv(y, n, incy);
  const auto mul = [](cdouble a, cdouble b) {  // Fortran's complex product, each step rounded
    return cdouble(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  };
  for (std::int64_t j = 0; j < n; ++j) {
    const cdouble yj = yv.p[j * yv.inc];
    const cdouble t = mul(alpha, conjugate ? std::conj(yj) : yj);
    cdouble* const a = A + j * lda;
    for (std::int64_t i = 0; i < m; ++i) a[i] += mul(xv.p[i * xv.inc], t);
  }
}

#define TRNBLAS_HBMV_HPMV(C)                                                                                     \
  void hbmv(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t k, C alpha, const C* A, std::int64_t lda,      \
            const C* x, std::int64_t incx, C beta, C* y, std::int64_t incy, CallReport* report) {                    \
    l12::Report rep(s, report);                                                                                       \
    const ScratchVector<C> tri = n > 0 && alpha != C(0) ? stage_band(s, uplo, n, k, A, lda, rep) : ScratchVector<C>{};    \
    hemv_t(s, uplo, n, alpha, tri.empty() ? nullptr : tri.data(), std::max<std::int64_t>(1, n), x, incx, beta, y,     \
           incy, rep.sub());                                                                                          \
    rep.add_sub();                                                                                                    \
  }                                                                                                                   \
  void hpmv(const Settings& s, Uplo uplo, std::int64_t n, C alpha, const C* AP, const C* x, std::int64_t incx,        \
            C beta, C* y, std::int64_t incy, CallReport* report) {                                                    \
    l12::Report rep(s, report);                                                                                       \
    const ScratchVector<C> tri = n > 0 && alpha != C(0) ? stage_packed(s, uplo, n, AP, rep) : ScratchVector<C>{};         \
    hemv_t(s, uplo, n, alpha, tri.empty() ? nullptr : tri.data(), std::max<std::int64_t>(1, n), x, incx, beta, y,     \
           incy, rep.sub());                                                                                          \
    rep.add_sub();                                                                                             \
  }
TRNBLAS_HBMV_HPMV(cfloat)
TRNBLAS_HBMV_HPMV(cdouble)
#undef TRNBLAS_HBMV_HPMV

namespace {

// The stored elements of a triangle as they cross the host link: the hull of the dense (ld lda),
// packed or band (k off-diagonals, ld lda) storage, the n(n + 1)/2 (band: n(k + 1) - k(k + 1)/2)
// elements it holds (triangle_span: above).
template <class C>
HostSpan packed_span(const C* AP, std::int64_t n) {
  return HostSpan(AP, n * (n + 1) / 2);
}
template <class C>
HostSpan band_span(const C* A, std::int64_t n, std::int64_t k, std::int64_t lda) {
  const std::int64_t kk = std::min(k, n - 1);
  HostSpan h = HostSpan::matrix(A, k + 1, n, lda);
  h.bytes = static_cast<std::size_t>(n * (kk + 1) - kk * (kk + 1) / 2) * sizeof(C);
  return h;
}

// Hermitian (her, her2) or complex symmetric (syr, syr2) rank-1/rank-2 update of the `uplo`
// triangle held by get/put (dense or packed; `stored`: its span): the triangle is staged into a
// dense n x n copy, updated by gerc (Hermitian) or geru (symmetric) once or twice (second term:
// conj(alpha) y x^H, resp. alpha y x^T), and written back (Hermitian: with a real diagonal). The
// staging and the write-back are host round trips of copies (trnblas.complex_rank.stage / .unstage).
template <class R, class Get, class Put>
void rank_staged(const Settings& s, bool hermitian, Uplo uplo, std::int64_t n, std::complex<R> alpha,
                 const std::complex<R>* x, std::int64_t incx, const std::complex<R>* y, std::int64_t incy, bool two,
                 HostSpan stored, Get&& get, Put&& put, CallReport* report) {
  using C = std::complex<R>;
  l12::Report rep(s, report);
  ScratchVector<C> full = dense<C>(n, n, [&](std::int64_t i, std::int64_t j) { return in_triangle(uplo, i, j) ? get(i, j) : C(0); });
  rep.host_step(HostStep{.name = "trnblas.complex_rank.stage", .flops = 0, .reads = {stored},
                         .writes = {HostSpan(full.data(), n * n)}});
  ger(s, hermitian, n, n, alpha, x, incx, two ? y : x, two ? incy : incx, full.data(), n, rep.sub());
  rep.add_sub();
  if (two) {
    ger(s, hermitian, n, n, hermitian ? std::conj(alpha) : alpha, y, incy, x, incx, full.data(), n, rep.sub());
    rep.add_sub();
  }
  HostSpan tri = triangle_span(full.data(), n, n);
  rep.host_step(HostStep{.name = "trnblas.complex_rank.unstage", .flops = 0, .reads = {tri}, .writes = {stored}});
  if (s.timing_only) return;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      if (in_triangle(uplo, i, j)) {
        const C v = full[static_cast<std::size_t>(i + j * n)];
        put(i, j, i == j && hermitian ? C(v.real(), R(0)) : v);
      }
}
template <class R, class Get, class Put>
void her_staged(const Settings& s, Uplo uplo, std::int64_t n, std::complex<R> alpha, const std::complex<R>* x,
                std::int64_t incx, const std::complex<R>* y, std::int64_t incy, bool two, HostSpan stored, Get&& get,
                Put&& put, CallReport* report) {
  rank_staged<R>(s, true, uplo, n, alpha, x, incx, y, incy, two, stored, std::forward<Get>(get), std::forward<Put>(put),
                 report);
}

}  // namespace

#define TRNBLAS_HER_IMPL(C, R)                                                                                        \
  void her(const Settings& s, Uplo uplo, std::int64_t n, R alpha, const C* x, std::int64_t incx, C* A,                 \
           std::int64_t lda, CallReport* report) {                                                                     \
    if (n == 0 || alpha == R(0)) { l12::Report quick(s, report); return; }                                           \
    her_staged<R>(s, uplo, n, C(alpha), x, incx, x, incx, false, triangle_span(A, n, lda),                             \
                  [&](std::int64_t i, std::int64_t j) { return A[i + j * lda]; },                                     \
                  [&](std::int64_t i, std::int64_t j, C v) { A[i + j * lda] = v; }, report);                           \
  }                                                                                                                    \
  void hpr(const Settings& s, Uplo uplo, std::int64_t n, R alpha, const C* x, std::int64_t incx, C* AP,                \
           CallReport* report) {                                                                                       \
    if (n == 0 || alpha == R(0)) { l12::Report quick(s, report); return; }                                           \
    her_staged<R>(s, uplo, n, C(alpha), x, incx, x, incx, false, packed_span(AP, n),                                   \
                  [&](std::int64_t i, std::int64_t j) { return AP[packed_index(uplo, n, i, j)]; },                     \
                  [&](std::int64_t i, std::int64_t j, C v) { AP[packed_index(uplo, n, i, j)] = v; }, report);          \
  }                                                                                                                    \
  void her2(const Settings& s, Uplo uplo, std::int64_t n, C alpha, const C* x, std::int64_t incx, const C* y,          \
            std::int64_t incy, C* A, std::int64_t lda, CallReport* report) {                                           \
    if (n == 0 || alpha == C(0)) { l12::Report quick(s, report); return; }                                           \
    her_staged<R>(s, uplo, n, alpha, x, incx, y, incy, true, triangle_span(A, n, lda),                                 \
                  [&](std::int64_t i, std::int64_t j) { return A[i + j * lda]; },                                     \
                  [&](std::int64_t i, std::int64_t j, C v) { A[i + j * lda] = v; }, report);                           \
  }                                                                                                                    \
  void hpr2(const Settings& s, Uplo uplo, std::int64_t n, C alpha, const C* x, std::int64_t incx, const C* y,          \
            std::int64_t incy, C* AP, CallReport* report) {                                                            \
    if (n == 0 || alpha == C(0)) { l12::Report quick(s, report); return; }                                           \
    her_staged<R>(s, uplo, n, alpha, x, incx, y, incy, true, packed_span(AP, n),                                       \
                  [&](std::int64_t i, std::int64_t j) { return AP[packed_index(uplo, n, i, j)]; },                     \
                  [&](std::int64_t i, std::int64_t j, C v) { AP[packed_index(uplo, n, i, j)] = v; }, report);          \
  }
TRNBLAS_HER_IMPL(cfloat, float)
TRNBLAS_HER_IMPL(cdouble, double)
#undef TRNBLAS_HER_IMPL

// ---- complex symv, syr, syr2, gbmv and the triangular tr/tb/tp mv and sv ----------------------------

namespace {

// op(A) of a triangular matrix held by get (stored element (r, c) of the uplo triangle), staged
// densely: zeros outside the triangle, ones on a unit diagonal, conjugated for op C (a sign flip).
template <class C, class Get>
ScratchVector<C> op_triangle(Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, Get&& get) {
  return dense<C>(n, n, [&](std::int64_t i, std::int64_t j) {
    if (i == j && unit) return C(1);
    const std::int64_t r = trans == Op::N ? i : j, c = trans == Op::N ? j : i;
    if (!in_triangle(uplo, r, c)) return C(0);
    const C v = get(r, c);
    return conjugate ? std::conj(v) : v;
  });
}
// The stored element (r, c) of a triangular band (tb layout) with k off-diagonals.
template <class C>
auto band_getter(Uplo uplo, std::int64_t k, const C* A, std::int64_t lda) {
  return [=](std::int64_t r, std::int64_t c) {
    if ((uplo == Uplo::upper ? c - r : r - c) > k) return C(0);
    return uplo == Uplo::upper ? A[(k + r - c) + c * lda] : A[(r - c) + c * lda];
  };
}

// x = E x for a dense n x n E: the complex product alone (one real GEMM-vector product, no alpha/beta
// epilogue: alpha = 1 would cost nothing but a 0 * Inf = NaN for an infinite part).
// The staging of op(A) (op_triangle) as one host round trip of copies and sign flips: the stored
// elements there, the dense E back (trnblas.complex_triangle.stage).
template <class C>
void record_triangle_staging(l12::Report& rep, HostSpan stored, const ScratchVector<C>& E, std::int64_t n) {
  rep.host_step(HostStep{.name = "trnblas.complex_triangle.stage", .flops = 0, .reads = {stored},
                         .writes = {HostSpan(E.data(), n * n)}});
}

template <class R>
void complex_trmv_dense(const Settings& s, std::int64_t n, HostSpan stored, const ScratchVector<std::complex<R>>& E,
                        std::complex<R>* x, std::int64_t incx, CallReport* report) {
  l12::Report rep(s, report);
  if (n == 0) return;
  record_triangle_staging(rep, stored, E, n);
  ScratchVector<R> pr, pi;
  complex_product(s, Op::N, false, n, n, E.data(), n, x, incx, pr, pi, rep);
  if (s.timing_only) return;
  ScratchVector<std::complex<R>> out(pr.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = {pr[i], pi[i]};
  scatter(out, x, n, incx);
}

// Rows of E (n x n) and of b multiplied by the reciprocals of E's diagonal: afterwards the diagonal
// is 1 (it is not read again). C: VectorE (reciprocal without overflow, then one complex product per
// element, l12::complex_reciprocal / complex_mul); Z: the same formulas in fp64 on the host side.
void unit_rows(const Settings& s, std::int64_t n, ScratchVector<cfloat>& E, ScratchVector<cfloat>& b, l12::Report& rep) {
  const auto N = static_cast<std::size_t>(n);
  ScratchVector<float> dr(N), di(N), rr(N), ri(N);
  for (std::size_t i = 0; i < N; ++i) {
    dr[i] = E[i + i * N].real();
    di[i] = E[i + i * N].imag();
  }
  l12::complex_reciprocal(s, n, dr.data(), di.data(), rr.data(), ri.data(), rep);
  // One elementwise product over the n^2 + n elements of E and b, the row's reciprocal broadcast to
  // each; the planes are made and merged back by host copies (two recorded round trips).
  const std::size_t M = N * N + N;
  ScratchVector<float> ar(M), ai(M), br(M), bi(M);
  for (std::size_t k = 0; k < M; ++k) {
    const cfloat v = k < N * N ? E[k] : b[k - N * N];
    const std::size_t row = k < N * N ? k % N : k - N * N;
    ar[k] = v.real();
    ai[k] = v.imag();
    br[k] = rr[row];
    bi[k] = ri[row];
  }
  const auto m = static_cast<std::int64_t>(M);
  rep.host_step(HostStep{.name = "trnblas.ctrsv.unit_rows_planes", .flops = 0,
                         .reads = {HostSpan(E.data(), n * n), HostSpan(b.data(), n), HostSpan(rr.data(), n), HostSpan(ri.data(), n)},
                         .writes = {HostSpan(ar.data(), m), HostSpan(ai.data(), m), HostSpan(br.data(), m), HostSpan(bi.data(), m)}});
  l12::complex_mul(s, m, ar.data(), ai.data(), br.data(), bi.data(), ar.data(), ai.data(), rep);
  rep.host_step(HostStep{.name = "trnblas.ctrsv.unit_rows_planes", .flops = 0,
                         .reads = {HostSpan(ar.data(), m), HostSpan(ai.data(), m)},
                         .writes = {HostSpan(E.data(), n * n), HostSpan(b.data(), n)}});
  for (std::size_t k = 0; k < M; ++k) (k < N * N ? E[k] : b[k - N * N]) = cfloat(ar[k], ai[k]);
}
void unit_rows(const Settings&, std::int64_t n, ScratchVector<cdouble>& E, ScratchVector<cdouble>& b, l12::Report& rep) {
  const auto N = static_cast<std::size_t>(n);
  // One round trip: E and b to the host and back; per row a Smith reciprocal (9 flops) and n + 1
  // complex products (6 each).
  rep.host_step(HostStep{.name = "trnblas.ztrsv.unit_rows",
                         .flops = static_cast<double>(n) * (9.0 + 6.0 * static_cast<double>(n + 1)),
                         .reads = {HostSpan(E.data(), n * n), HostSpan(b.data(), n)},
                         .writes = {HostSpan(E.data(), n * n), HostSpan(b.data(), n)}});
  for (std::size_t i = 0; i < N; ++i) {  // host side, fp64: the formulas of the float kernels
    const double dr = E[i + i * N].real(), di = E[i + i * N].imag();
    const double big = std::max(std::fabs(dr), std::fabs(di)), small = std::min(std::fabs(dr), std::fabs(di));
    const double den = big + small * (small / big);
    const double rr = (dr / big) / den, ri = -((di / big) / den);
    const auto mul = [&](cdouble v) { return cdouble(v.real() * rr - v.imag() * ri, v.real() * ri + v.imag() * rr); };
    for (std::size_t j = 0; j < N; ++j) E[i + j * N] = mul(E[i + j * N]);
    b[i] = mul(b[i]);
  }
}

// Solves E x = b for a dense triangular n x n E (lower or upper; unit: diagonal taken as 1).
template <class R>
void complex_trsv_dense(const Settings& s, bool lower, bool unit, std::int64_t n, HostSpan stored,
                        ScratchVector<std::complex<R>> E, std::complex<R>* x, std::int64_t incx, CallReport* report) {
  using C = std::complex<R>;
  l12::Report rep(s, report);
  if (n == 0) return;
  record_triangle_staging(rep, stored, E, n);
  ScratchVector<C> b = gather(x, n, incx);
  if (!unit) unit_rows(s, n, E, b, rep);
  // The real representation of the unit triangular E: element (i, j) becomes the 2 x 2 block
  // [er -ei; ei er] at rows 2i, 2i + 1 and columns 2j, 2j + 1 (copies and sign flips: exact); the
  // diagonal blocks are the identity. b, read as 2n reals, is already (re, im) interleaved.
  const std::int64_t m = 2 * n;
  ScratchVector<R> real(static_cast<std::size_t>(m * m), R(0));
  const auto at = [&](std::int64_t i, std::int64_t j) -> R& { return real[static_cast<std::size_t>(i + j * m)]; };
  for (std::int64_t j = 0; j < n; ++j) {
    at(2 * j, 2 * j) = at(2 * j + 1, 2 * j + 1) = R(1);
    for (std::int64_t i = lower ? j + 1 : 0; i < (lower ? n : j); ++i) {
      const C e = E[static_cast<std::size_t>(i + j * n)];
      at(2 * i, 2 * j) = at(2 * i + 1, 2 * j + 1) = e.real();
      at(2 * i, 2 * j + 1) = -e.imag();
      at(2 * i + 1, 2 * j) = e.imag();
    }
  }
  // The real representation is built on the host from E (copies and sign flips): one round trip.
  rep.host_step(HostStep{.name = "trnblas.complex_trsv.real_form", .flops = 0, .reads = {HostSpan(E.data(), n * n)},
                         .writes = {HostSpan(real.data(), m * m)}});
  trsv(l12::nested(s), lower ? Uplo::lower : Uplo::upper, Op::N, true, m, real.data(), m, reinterpret_cast<R*>(b.data()), 1,
       rep.sub());
  rep.add_sub();
  if (!s.timing_only) scatter(b, x, n, incx);
}

// The complex fp32 solve of n <= kComplexTrsvMaxN in one program (complex_trsv_kernel, session 27):
// b, op(A)'s strict triangle and either its diagonal (D's three rows) and both swapped, or, for a
// unit diagonal, the real form's second columns, staged on the host in one pass over the stored
// elements (copies and sign flips, one recorded round trip; level12_internal.hpp's layout), one
// launch, x scattered back.
// op_element(i, j) is op(A)'s element (i, j) (conjugated for op C) of its triangle.
template <class OpElement>
void complex_trsv_one_program(const Settings& s, bool lower, bool unit, std::int64_t n, HostSpan stored,
                              OpElement&& op_element, cfloat* x, std::int64_t incx, l12::Report& rep) {
  const std::int64_t n2 = 2 * n, sq = 2 * n * n, words = complex_trsv_staged_words(n, unit);
  ScratchVector<float> staged(static_cast<std::size_t>(words), 0.0f);
  float* const d = staged.data();                  // non-unit: D's three rows
  float* const xs = staged.data() + (unit ? 0 : 3 * n2);
  float* const after = xs + n2 + sq;  // non-unit: Ws, W's pairs swapped; unit: E's second real-form columns
  // The complex element at word w of W (b, then E), and after it its pair in Ws or, for a unit
  // diagonal, E's element's pair (-im, re) (the general path's host negation) in the second columns.
  const auto put = [&](std::int64_t w, cfloat v) {
    xs[w] = v.real();
    xs[w + 1] = v.imag();
    if (!unit) {
      after[w] = v.imag();
      after[w + 1] = v.real();
    } else if (w >= n2) {
      after[w - n2] = -v.imag();
      after[w - n2 + 1] = v.real();
    }
  };
  const cfloat* const x0 = l12::first(x, n, incx);
  for (std::int64_t i = 0; i < n; ++i) put(2 * i, x0[i * incx]);
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = lower ? j + 1 : 0; i < (lower ? n : j); ++i) put(n2 + n2 * j + 2 * i, op_element(i, j));
    if (!unit) {
      const cfloat v = op_element(j, j);
      d[2 * j] = d[2 * j + 1] = d[2 * n2 + 2 * j] = d[2 * n2 + 2 * j + 1] = v.real();
      d[n2 + 2 * j] = v.imag();
      d[n2 + 2 * j + 1] = -v.imag();
    }
  }
  rep.host_step(HostStep{.name = "trnblas.complex_trsv.stage", .flops = 0, .reads = {stored, l12::vec_span(x, n, incx)},
                         .writes = {HostSpan(staged.data(), words)}});
  const ComplexTrsvProblem p{.staged = staged.data(), .n = n, .lower = lower, .unit = unit};
  LaunchResult r = launch(s.launch_config(), [&](NeuronCore& nc) { complex_trsv_kernel(nc, p); });
  rep.add(std::move(r.trace));
  if (s.timing_only) return;
  cfloat* const out = l12::first(x, n, incx);
  for (std::int64_t i = 0; i < n; ++i) out[i * incx] = cfloat(xs[2 * i], xs[2 * i + 1]);
}

// op(A) x = b for a triangle held by get (stored element (r, c) of the uplo triangle): C with
// n <= kComplexTrsvMaxN in one program, otherwise op(A) staged densely and complex_trsv_dense.
template <class C, class Get>
void complex_trsv(const Settings& s, Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, HostSpan stored,
                  Get&& get, C* x, std::int64_t incx, CallReport* report) {
  const bool lower = (uplo == Uplo::lower) == (trans == Op::N);
  if constexpr (std::is_same_v<C, cfloat>) {
    if (n >= 1 && n <= kComplexTrsvMaxN) {
      l12::Report rep(s, report);
      if (report != nullptr && report->plans_wanted)
        report->add_plan("ctrsv " + std::to_string(n) +
                         ": one program (complex_trsv_kernel: Smith reciprocals of the diagonal, rows scaled "
                         "on VectorE, column substitution on the unit real form, 4 instructions per column)");
      return complex_trsv_one_program(s, lower, unit, n, stored, [&](std::int64_t i, std::int64_t j) {
        const C v = trans == Op::N ? get(i, j) : get(j, i);
        return conjugate ? std::conj(v) : v;
      }, x, incx, rep);
    }
  }
  complex_trsv_dense(s, lower, unit, n, stored, op_triangle<C>(uplo, trans, conjugate, unit, n, get), x, incx, report);
}

}  // namespace

#define TRNBLAS_L2_COMPLEX_EXTRA_IMPL(C)                                                                                 \
  void symv(const Settings& s, Uplo uplo, std::int64_t n, C alpha, const C* A, std::int64_t lda, const C* x,            \
            std::int64_t incx, C beta, C* y, std::int64_t incy, CallReport* report) {                                   \
    l12::Report rep(s, report);                                                                                         \
    const ScratchVector<C> full = n > 0 && alpha != C(0) ? stage(s, uplo, n, A, lda, true, false, rep) : ScratchVector<C>{};\
    gemv(s, Op::N, false, n, n, alpha, full.empty() ? nullptr : full.data(), std::max<std::int64_t>(1, n), x, incx,    \
         beta, y, incy, rep.sub());                                                                                     \
    rep.add_sub();                                                                                                      \
  }                                                                                                                     \
  void syr(const Settings& s, Uplo uplo, std::int64_t n, C alpha, const C* x, std::int64_t incx, C* A,                  \
           std::int64_t lda, CallReport* report) {                                                                      \
    if (n == 0 || alpha == C(0)) { l12::Report quick(s, report); return; }                                            \
    rank_staged<C::value_type>(s, false, uplo, n, alpha, x, incx, x, incx, false, triangle_span(A, n, lda),             \
                               [&](std::int64_t i, std::int64_t j) { return A[i + j * lda]; },                          \
                               [&](std::int64_t i, std::int64_t j, C v) { A[i + j * lda] = v; }, report);               \
  }                                                                                                                     \
  void syr2(const Settings& s, Uplo uplo, std::int64_t n, C alpha, const C* x, std::int64_t incx, const C* y,           \
            std::int64_t incy, C* A, std::int64_t lda, CallReport* report) {                                            \
    if (n == 0 || alpha == C(0)) { l12::Report quick(s, report); return; }                                            \
    rank_staged<C::value_type>(s, false, uplo, n, alpha, x, incx, y, incy, true, triangle_span(A, n, lda),              \
                               [&](std::int64_t i, std::int64_t j) { return A[i + j * lda]; },                          \
                               [&](std::int64_t i, std::int64_t j, C v) { A[i + j * lda] = v; }, report);               \
  }                                                                                                                     \
  void gbmv(const Settings& s, Op trans, bool conjugate, std::int64_t m, std::int64_t n, std::int64_t kl,               \
            std::int64_t ku, C alpha, const C* A, std::int64_t lda, const C* x, std::int64_t incx, C beta, C* y,        \
            std::int64_t incy, CallReport* report) {                                                                    \
    l12::Report rep(s, report);                                                                                         \
    ScratchVector<C> d;                                                                                                   \
    if (m > 0 && n > 0 && alpha != C(0)) d = band_dense(s, m, n, kl, ku, A, lda, rep);                                  \
    gemv(s, trans, conjugate, m, n, alpha, d.empty() ? nullptr : d.data(), std::max<std::int64_t>(1, m), x, incx, beta, \
         y, incy, rep.sub());                                                                                           \
    rep.add_sub();                                                                                                      \
  }                                                                                                                     \
  void trmv(const Settings& s, Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, const C* A,              \
            std::int64_t lda, C* x, std::int64_t incx, CallReport* report) {                                            \
    complex_trmv_dense(s, n, triangle_span(A, n, lda),                                                                 \
                       op_triangle<C>(uplo, trans, conjugate, unit, n, [&](std::int64_t r, std::int64_t c) {            \
                         return A[r + c * lda];                                                                         \
                       }), x, incx, report);                                                                            \
  }                                                                                                                     \
  void tbmv(const Settings& s, Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, std::int64_t k,          \
            const C* A, std::int64_t lda, C* x, std::int64_t incx, CallReport* report) {                                \
    complex_trmv_dense(s, n, band_span(A, n, k, lda),                                                                  \
                       op_triangle<C>(uplo, trans, conjugate, unit, n, band_getter(uplo, k, A, lda)), x, incx, report); \
  }                                                                                                                     \
  void tpmv(const Settings& s, Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, const C* AP, C* x,       \
            std::int64_t incx, CallReport* report) {                                                                    \
    complex_trmv_dense(s, n, packed_span(AP, n),                                                                       \
                       op_triangle<C>(uplo, trans, conjugate, unit, n, [&](std::int64_t r, std::int64_t c) {            \
                         return AP[packed_index(uplo, n, r, c)];                                                        \
                       }), x, incx, report);                                                                            \
  }                                                                                                                     \
  void trsv(const Settings& s, Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, const C* A,              \
            std::int64_t lda, C* x, std::int64_t incx, CallReport* report) {                                            \
    complex_trsv(s, uplo, trans, conjugate, unit, n, triangle_span(A, n, lda),                                        \
                 [&](std::int64_t r, std::int64_t c) { return A[r + c * lda]; }, x, incx, report);                     \
  }                                                                                                                     \
  void tbsv(const Settings& s, Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, std::int64_t k,          \
            const C* A, std::int64_t lda, C* x, std::int64_t incx, CallReport* report) {                                \
    complex_trsv(s, uplo, trans, conjugate, unit, n, band_span(A, n, k, lda), band_getter(uplo, k, A, lda), x, incx,  \
                 report);                                                                                              \
  }                                                                                                                     \
  void tpsv(const Settings& s, Uplo uplo, Op trans, bool conjugate, bool unit, std::int64_t n, const C* AP, C* x,       \
            std::int64_t incx, CallReport* report) {                                                                    \
    complex_trsv(s, uplo, trans, conjugate, unit, n, packed_span(AP, n),                                              \
                 [&](std::int64_t r, std::int64_t c) { return AP[packed_index(uplo, n, r, c)]; }, x, incx, report);   \
  }
TRNBLAS_L2_COMPLEX_EXTRA_IMPL(cfloat)
TRNBLAS_L2_COMPLEX_EXTRA_IMPL(cdouble)
#undef TRNBLAS_L2_COMPLEX_EXTRA_IMPL

}  // namespace trn::blas
