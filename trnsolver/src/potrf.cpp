// spotrf: blocked right-looking Cholesky (LAPACK spotrf's order). Per block of nb = pmax columns:
// the diagonal block and its inverse by the tile kernel below, the rows under it by one trnblas
// GEMM with that inverse (L21 = A21 L11^-T on TensorE), the trailing matrix by trnblas SYRK, all
// fp32 mode.
//
// Diagonal-block kernel (one launch per block, its rows as one tile in SBUF, fp32). For each
// column j (the unblocked right-looking loop of LAPACK xPOTF2, column j of the Schur complement S,
// kept symmetric so that row j is column j):
//   bc[:, k]  = s_jk on every partition        TensorE: selector stationary (identity column j,
//                                               stride 0), row j moving (its 32-partition group)
//   r_j       = rsqrt(s_jj)                     ScalarE (NaN when s_jj <= 0: non-positive pivot),
//                                               kept in column j of a [nb, nb] tile
//   s_ik     -= (s_ij r_j)(s_kj r_j)  i, k > j  VectorE (rank-1 update; rows i <= j by a 0/1 factor)
// Column j is not touched after its step, so the block is scaled once at the end:
// l_ij = s_ij r_j (l_jj = s_jj r_j = sqrt(s_jj)) by one VectorE multiply with the r tile — the same
// products as scaling column by column, 6 dependent instructions per column instead of 12.
// Beside it (off its dependency chain), when asked: X = L^-1 by column-oriented substitution, row j
// of X broadcast by a TensorE selector matmul, scaled by r_j, and taken from the rows below
// (4 instructions per column); |L X - I| <= gamma_nb |L| |X| (Higham Thm 8.5 per column of I, with
// r_j for 1/l_jj: one more rounding).
// Engines: TensorE (row broadcast), VectorE, ScalarE, GpSimdE, DMA. Accuracy: backward error
// ||A - L L^T|| / ||A|| = O(n u) (Higham, Accuracy and Stability of Numerical Algorithms, Thm 10.3).
// Limits: nb <= pmax; rsqrt's valid range [2^-87, 2^97] bounds the pivots (outside: treated as
// not positive definite). The first non-finite diagonal entry after the block gives info.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "factor_recursive.hpp"
#include "solve_batch.hpp"
#include "syevj_internal.hpp"
#include "trn/blas/level12.hpp"
#include "trn/blas/narrow_trsm.hpp"
#include "trn/blas/trsm_fp64.hpp"  // the DTRSMs' plan
#include "trn/tile/matmul.hpp"
#include "trn/tile/view.hpp"
#include "trn/core/host_step.hpp"

namespace trn::solver {
namespace {

struct DiagBlockProblem {
  float* a = nullptr;         // element (i, j) of the lower-view matrix at a[i * si + j * sj]
  std::int64_t si = 1, sj = 1;
  std::int64_t j0 = 0, nb = 0;  // the block's rows and columns j0 .. j0 + nb - 1
  float* inverse = nullptr;     // L11^-1, nb x nb column-major (ld nb), or nullptr
};

void potrf_diag_kernel(NeuronCore& nc, const DiagBlockProblem& pp) {
  constexpr std::int32_t kQuad = 32;  // the engines' partition-start quantum
  const std::int64_t nb = pp.nb;
  const auto rows = static_cast<std::int32_t>(nb);
  AllocScope sb(nc.sbuf()), ps(nc.psum());
  const HbmTensor view = HbmTensor::wrap(pp.a + pp.j0 * pp.si + pp.j0 * pp.sj, DType::f32, {nb, nb}, {pp.si, pp.sj});
  Tile d = sb.alloc(DType::f32, rows, {nb}, "diagonal block");
  nc.dma_copy(d, view.tile(0, rows, 0, nb));
  Tile ones = sb.alloc(DType::f32, rows, {nb}, "ones");
  Tile sel = sb.alloc(DType::f32, rows, {nb}, "strict lower part; scratch");
  Tile ident = sb.alloc(DType::f32, rows, {nb}, "identity");
  Tile rall = sb.alloc(DType::f32, rows, {nb}, "rsqrt(s_jj) in column j");
  Tile below = sb.alloc(DType::f32, rows, {nb}, "strictly lower mask");
  Tile lrow = sb.alloc(DType::f32, rows, {nb}, "s_jk r_j");
  Tile lcol = sb.alloc(DType::f32, rows, {1}, "s_ij r_j (i > j)");
  Tile upd = sb.alloc(DType::f32, rows, {nb}, "rank-1 term");
  Tile bc = ps.alloc(DType::f32, rows, {nb}, "column j broadcast");
  const bool inv = pp.inverse != nullptr;
  Tile x, xr, xu, bx;
  if (inv) {
    x = sb.alloc(DType::f32, rows, {nb}, "L^-1, row j unscaled until the end");
    xr = sb.alloc(DType::f32, rows, {nb}, "row j of L^-1");
    xu = sb.alloc(DType::f32, rows, {nb}, "l_ij (L^-1)_jc");
    bx = ps.alloc(DType::f32, rows, {nb}, "row j of X broadcast");
  }
  nc.memset(ones, 1.0f);
  {
    const std::array<std::int64_t, 2> pat{-1, nb};
    nc.affine_select(ident, std::span(&pat, 1), 0, 1, AluOp::equal, ones, 0.0f);
    if (inv) nc.tensor_copy(x, ident);
    // The strict upper part is the unread triangle of A: replace it by the mirror of the strict
    // lower part (selects, so NaN there cannot leak into the broadcasts below), making the block
    // symmetric: row j of the Schur complement is then column j, and the broadcast below moves
    // row j (32 partitions, the columns k >= j) instead of diag(column j) (nb x nb). The rank-1
    // updates keep it symmetric exactly (up[i, k] = lr_k lcol_i and lr_k = lcol_k bit for bit).
    nc.affine_select(sel, std::span(&pat, 1), 0, 1, AluOp::greater, d, 0.0f);  // strict lower
    nc.affine_select(d, std::span(&pat, 1), 0, 1, AluOp::greater_equal, d, 0.0f);
    // upd = (strict lower)^T by VectorE 32 x 32 transposes (bit copies) of the blocks on and below
    // the diagonal; the blocks above are zero.
    nc.memset(upd, 0.0f);
    for (std::int32_t bi = 0; bi < rows; bi += kQuad)
      for (std::int32_t bj = 0; bj <= bi; bj += kQuad) {
        const std::int32_t pi = std::min(kQuad, rows - bi), pj = std::min(kQuad, rows - bj);
        nc.nc_transpose(upd.rows(bj, pj).cols(bi, pi), sel.rows(bi, pi).cols(bj, pj), Engine::vector);
      }
    nc.tensor_tensor(d, d, upd, AluOp::add);  // disjoint supports: exact
    // below[i, j] = (i > j): the 0/1 factor keeping l_ij for the rows under the diagonal (the
    // entries it zeroes are finite: zeros or updated entries of the upper part).
    nc.affine_select(below, std::span(&pat, 1), 0, 1, AluOp::greater, ones, 0.0f);
  }
  for (std::int64_t j = 0; j < nb; ++j) {
    // Row j (= column j, the block is symmetric) onto every partition: a TensorE selector matmul
    // contracting over the 32-partition group holding j only, the stationary a stride-0 view of
    // the identity's column j: bc[i, k] = s_jk = s_kj for k >= j (exact: one nonzero term).
    const auto jp = static_cast<std::int32_t>(j);
    const std::int32_t q0 = jp / kQuad * kQuad, qn = std::min(kQuad, rows - q0);
    const Tile ident_j = ident.rows(q0, qn).cols(j, 1);
    const Tile selj = tile::broadcast(ident_j, 0, nb);  // selj[q, m] = (q == j), repeated along m (stride 0)
    tile::Accumulator(nc, bc.cols(j, nb - j)).matmul(selj, d.rows(q0, qn).cols(j, nb - j));
    const Tile r = rall.cols(j, 1);
    nc.activation(r, bc.cols(j, 1), ActFunc::rsqrt);
    if (j + 1 == nb) break;
    // Only rows i > j change: the update runs on the aligned partition range [k0, nb) covering
    // them (rows k0..j of it take l_ij = 0 through the mask, as before on all rows).
    const std::int64_t rest = nb - j - 1;
    const std::int32_t k0 = detail::aligned_partition_start(jp + 1, rows), kn = rows - k0;
    const Tile rk = r.rows(k0, kn), lk = lcol.rows(k0, kn);
    const Tile lr = lrow.rows(k0, kn).cols(j + 1, rest), up = upd.rows(k0, kn).cols(j + 1, rest);
    const Tile dr = d.rows(k0, kn).cols(j + 1, rest);
    nc.tensor_scalar(lr, bc.rows(k0, kn).cols(j + 1, rest), AluOp::multiply, rk);  // l_kj
    nc.tensor_scalar(lk, d.rows(k0, kn).cols(j, 1), AluOp::multiply, rk, AluOp::multiply,
                     below.rows(k0, kn).cols(j, 1));  // l_ij, i > j
    nc.tensor_scalar(up, lr, AluOp::multiply, lk);
    nc.tensor_tensor(dr, dr, up, AluOp::subtract);
    if (inv) {
      // Column-oriented substitution L X = I beside the factorization (Golub & Van Loan Alg. 3.1.3):
      // row j of X is final once scaled by r_j = 1 / l_jj; the rows below take -l_ij times it.
      // These instructions are off the factorization's dependency chain. Only columns <= j of
      // row j are nonzero.
      const std::int64_t c = j + 1;
      const Tile selk = tile::broadcast(ident_j, 0, kn);  // the same selector onto the rows [k0, nb) only
      const Tile xk = x.rows(k0, kn).cols(0, c), xrk = xr.rows(k0, kn).cols(0, c), xuk = xu.rows(k0, kn).cols(0, c);
      tile::Accumulator(nc, bx.rows(k0, kn).cols(0, c)).matmul(selk, x.rows(q0, qn).cols(0, c));  // bx[p, c] = x_jc
      nc.tensor_scalar(xrk, bx.rows(k0, kn).cols(0, c), AluOp::multiply, rk);
      nc.tensor_scalar(xuk, xrk, AluOp::multiply, lk);
      nc.tensor_tensor(xk, xk, xuk, AluOp::subtract);
    }
  }
  nc.tensor_tensor(d, d, rall, AluOp::multiply);  // l_ij = s_ij r_j
  if (inv) {
    // Row p of X unscaled: scale by r_p (the diagonal of the r tile, by a mask-and-sum).
    Tile rd = lcol;
    nc.tensor_tensor(sel, rall, ident, AluOp::multiply);
    nc.tensor_reduce(rd, sel, AluOp::add);
    nc.tensor_scalar(x, x, AluOp::multiply, rd);
    nc.dma_copy(HbmTensor::wrap(pp.inverse, DType::f32, {nb, nb}, {1, nb}).tile(0, rows, 0, nb), x);
  }
  // Store the lower part only (the strict upper part is the other triangle of A, not written).
  for (std::int32_t i = 0; i < rows; ++i) {
    const std::int64_t w = i + 1;
    nc.dma_copy(view.tile(i, 1, 0, w), d.rows(i, 1).cols(0, w));
  }
}

// A placeholder device address for timing-only runs (never dereferenced; distinct per operand so
// that the HBM dependencies are those of separate arrays).
float* placeholder(std::uintptr_t k) { return reinterpret_cast<float*>(k << 40); }

}  // namespace

double predict_spotrf_ns(const Settings& s, const FactorPlan& plan, bool lower) {
  blas::Settings bs = detail::step_blas_settings(s);
  bs.report_trace_only = false;
  blas::Settings ts = bs;
  ts.timing_only = true;
  LaunchConfig lc = s.launch_config();
  lc.num_cores = 1;
  lc.core.execute = false;
  const std::int64_t n = plan.n, nb = plan.nb;
  double ns = 0;
  for (std::int64_t j0 = 0; j0 < n; j0 += nb) {
    const std::int64_t w = std::min(nb, n - j0), n2 = n - j0 - w;
    const DiagBlockProblem pp{placeholder(1), 1, n, j0, w, n2 > 0 ? placeholder(2) : nullptr};
    ns += model_trace(launch(lc, [&](NeuronCore& nc) { potrf_diag_kernel(nc, pp); }).trace, ReportSettings{s.target}).total_ns;
    if (n2 <= 0) continue;
    std::vector<blas::CopySegment> cols;
    const std::int64_t count = lower ? w : n2, len = lower ? n2 : w;
    for (std::int64_t c = 0; c < count; ++c) cols.push_back({placeholder(3) + c * n, placeholder(4) + c * len, len});
    blas::CallReport cr;
    blas::copy_segments(ts, cols, &cr);
    ns += cr.profile.total_ns;
    ns += lower ? blas::predict_gemm_ns(bs, blas::GemmMode::fp32, blas::Op::N, blas::Op::T, n2, w, w, 1.0f, 0.0f)
                : blas::predict_gemm_ns(bs, blas::GemmMode::fp32, blas::Op::N, blas::Op::N, w, n2, w, 1.0f, 0.0f);
    ns += blas::predict_syrk_ns(bs, blas::GemmMode::fp32, lower ? blas::Op::N : blas::Op::T, n2, w, -1.0f, 1.0f);
  }
  return ns;
}

int spotrf(const Settings& s, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, CallReport* report) {
  if (n < 0 || lda < std::max<std::int64_t>(1, n) || (n > 0 && A == nullptr))
    throw UsageError("trnsolver", "argument", "spotrf: n >= 0, lda >= max(1, n), A not NULL");
  if (report != nullptr) *report = CallReport{};
  TraceParts trace;
  LaunchConfig lc = s.launch_config();
  lc.num_cores = 1;        // one factorization: a sequence of dependent launches
  lc.core.execute = true;  // later panels read what earlier launches wrote
  const bool lower = uplo == Uplo::lower;
  // Lower view of the stored triangle: (i, j) -> A[i + j lda] (lower) or A[j + i lda] (upper).
  const std::int64_t si = lower ? 1 : lda, sj = lower ? lda : 1;
  FactorPlan plan = plan_potrf(s, n, false);
  if (report != nullptr) plan.predicted_ns = trn::LazyNs([s, p = plan, lower] { return predict_spotrf_ns(s, p, lower); });
  const std::int64_t nb = plan.nb;
  const blas::Settings bs = detail::step_blas_settings(s);
  int info = 0;
  std::vector<float> inverse;  // L11^-1 of the current block (the kernel's output)
  for (std::int64_t j0 = 0; j0 < n && info == 0; j0 += nb) {
    const std::int64_t w = std::min(nb, n - j0);
    // The column loop factors the diagonal block only (one tile: 8 dependent instructions per
    // column whatever n); the rows below are one TRSM, mostly TensorE work (as LAPACK spotrf).
    inverse.assign(static_cast<std::size_t>(w * w), 0.0f);
    DiagBlockProblem pp{A, si, sj, j0, w, n - j0 - w > 0 ? inverse.data() : nullptr};
    LaunchResult r = launch(lc, [&](NeuronCore& nc) { potrf_diag_kernel(nc, pp); });
    trace.add(std::move(r.trace));
    // The first non-positive or non-finite pivot of this panel gives info (LAPACK: order of the minor).
    for (std::int64_t j = 0; j < w; ++j) {
      const float d = A[(j0 + j) * si + (j0 + j) * sj];
      if (!(std::isfinite(d) && d > 0.0f)) {
        info = static_cast<int>(j0 + j + 1);
        break;
      }
    }
    const std::int64_t n2 = n - j0 - w;
    if (info != 0 || n2 <= 0) continue;
    // L21 = A21 L11^-T (lower) / U12 = L11^-1 A12 (upper) by one TensorE GEMM (fp32 mode) with the
    // inverse the block kernel computed (Du Croz & Higham, IMA J. Numer. Anal. 12, 1992, method 2
    // blockwise, as trnblas STRSM's inverse form; the residual is bounded by the block's
    // condition). The GEMM reads a copy of the block column (its output overwrites it), made by DMA
    // (trnblas copy_segments: one segment per column of the block column).
    {
      blas::CallReport gr, cr;
      std::vector<blas::CopySegment> cols;
      if (lower) {
        std::vector<float> z(static_cast<std::size_t>(n2 * w));
        for (std::int64_t c = 0; c < w; ++c) cols.push_back({A + (j0 + w) + (j0 + c) * lda, z.data() + c * n2, n2});
        blas::copy_segments(bs, cols, &cr);
        trace.add(std::move(cr.trace));
        blas::gemm(bs, blas::GemmMode::fp32, blas::Op::N, blas::Op::T, n2, w, w, 1.0f, {z.data(), DType::f32, n2},
                   {inverse.data(), DType::f32, w}, 0.0f, {A + (j0 + w) + j0 * lda, DType::f32, lda}, &gr);
      } else {
        std::vector<float> z(static_cast<std::size_t>(w * n2));
        for (std::int64_t c = 0; c < n2; ++c) cols.push_back({A + j0 + (j0 + w + c) * lda, z.data() + c * w, w});
        blas::copy_segments(bs, cols, &cr);
        trace.add(std::move(cr.trace));
        blas::gemm(bs, blas::GemmMode::fp32, blas::Op::N, blas::Op::N, w, n2, w, 1.0f, {inverse.data(), DType::f32, w},
                   {z.data(), DType::f32, w}, 0.0f, {A + j0 + (j0 + w) * lda, DType::f32, lda}, &gr);
      }
      trace.add(std::move(gr.trace));
    }
    // Trailing update A22 -= L21 L21^T (lower) / U12^T U12 (upper) on TensorE via trnblas SYRK.
    blas::CallReport br;
    if (lower)
      blas::syrk(bs, blas::GemmMode::fp32, blas::Uplo::lower, blas::Op::N, n2, w, -1.0f,
                 {A + (j0 + w) + j0 * lda, DType::f32, lda}, 1.0f, {A + (j0 + w) + (j0 + w) * lda, DType::f32, lda}, &br);
    else
      blas::syrk(bs, blas::GemmMode::fp32, blas::Uplo::upper, blas::Op::T, n2, w, -1.0f,
                 {A + j0 + (j0 + w) * lda, DType::f32, lda}, 1.0f, {A + (j0 + w) + (j0 + w) * lda, DType::f32, lda}, &br);
    trace.add(std::move(br.trace));
  }
  detail::finish_factor_report(report, std::move(trace), s.target, plan);
  return info;
}

}  // namespace trn::solver

namespace trn::solver {

void spotrs(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const float* A, std::int64_t lda, float* B,
            std::int64_t ldb, CallReport* report) {
  if (n < 0 || nrhs < 0 || lda < std::max<std::int64_t>(1, n) || ldb < std::max<std::int64_t>(1, n) ||
      (n > 0 && nrhs > 0 && (A == nullptr || B == nullptr)))
    throw UsageError("trnsolver", "argument", "spotrs: n, nrhs >= 0, lda, ldb >= max(1, n), A and B not NULL");
  if (report != nullptr) *report = CallReport{};
  if (n == 0 || nrhs == 0) return;
  // Lower view L (i, j): A[i + j lda] (uplo lower) or A[j + i lda] (upper, L = U^T).
  const bool lower = uplo == Uplo::lower;
  const std::int64_t si = lower ? 1 : lda, sj = lower ? lda : 1;
  TraceParts trace;
  detail::strsm_left(s, A, si, sj, true, false, n, nrhs, B, ldb, trace);   // L y = b
  detail::strsm_left(s, A, sj, si, false, false, n, nrhs, B, ldb, trace);  // L^T x = y
  detail::finish_fp64_report(report, std::move(trace), s.target, 0);
}

// spotrs on every matrix of a batch: the two solves as spotrs's (strsm_left's settings and view),
// each over the whole batch by trnblas's strsm_left_batch (solve_batch.hpp).
void detail::spotrs_batch(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const float* const* A,
                          std::int64_t lda, float* const* B, std::int64_t ldb, std::int64_t batch, TraceParts& trace) {
  if (n < 0 || nrhs < 0 || batch < 0 || lda < std::max<std::int64_t>(1, n) || ldb < std::max<std::int64_t>(1, n) ||
      (n > 0 && nrhs > 0 && batch > 0 && (A == nullptr || B == nullptr)))
    throw UsageError("trnsolver", "argument", "spotrs batch: n, nrhs, batch >= 0, lda, ldb >= max(1, n), A and B not NULL");
  if (n == 0 || nrhs == 0 || batch == 0) return;
  trn::blas::Settings bs;  // strsm_left's (getrf.cpp)
  static_cast<EmulatorSettings&>(bs) = s;
  bs.num_cores = 1;
  bs.trsm_substitution = nrhs > blas::kTrsmNarrowMaxRhs;
  bs.report_trace_only = true;
  const bool lower = uplo == Uplo::lower;
  const std::int64_t si = lower ? 1 : lda, sj = lower ? lda : 1;
  // The view (i, j) -> A[i vi + j vj], lower_view or not, as strsm_left passes it to strsm.
  const auto solve = [&](std::int64_t vi, std::int64_t vj, bool lower_view) {
    const bool direct = vi == 1;
    blas::strsm_left_batch(bs, lower_view == direct ? blas::Uplo::lower : blas::Uplo::upper,
                           direct ? blas::Op::N : blas::Op::T, blas::Diag::non_unit, n, nrhs, 1.0f, A, direct ? vj : vi,
                           B, ldb, batch, trace);
  };
  solve(si, sj, true);   // L y = b
  solve(sj, si, false);  // L^T x = y
}

}  // namespace trn::solver

namespace trn::solver {

// dpotrf's recursive panel: LAPACK dpotrf2's order (factor_recursive.cpp).
int dpotrf(const Settings& s, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, CallReport* report) {
  return detail::dpotrf_driver(s, uplo, n, A, lda, report, true);
}

int detail::dpotrf_driver(const Settings& s, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, CallReport* report,
                          bool with_plan) {
  if (n < 0 || lda < std::max<std::int64_t>(1, n) || (n > 0 && A == nullptr))
    throw UsageError("trnsolver", "argument", "dpotrf: n >= 0, lda >= max(1, n), A not NULL");
  if (report != nullptr) *report = CallReport{};
  const bool lower = uplo == Uplo::lower;
  FactorPlan plan = plan_potrf(s, n, true);
  if (report != nullptr) plan.predicted_ns = trn::LazyNs([s, p = plan] { return predict_dpotrf_ns(s, p); });
  TraceParts trace;
  double host = 0;
  int info = 0;
  detail::potrf_blocked(detail::RecursiveFactor{s, blas::GemmMode::fp64_ozaki, false, info, host, trace}, lower, n, A,
                        lda, plan.nb);
  if (with_plan)
    detail::finish_factor_report(report, std::move(trace), s.target, plan, host);
  else
    detail::finish_fp64_report(report, std::move(trace), s.target, host);
  return info;
}

void dpotrs(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const double* A, std::int64_t lda,
            double* B, std::int64_t ldb, CallReport* report) {
  detail::begin_fp64_solve(s, "dpotrs", n, nrhs, A, lda, B, ldb, report);
  if (n == 0 || nrhs == 0) return;
  // L L^T X = B (lower) or U^T U X = B (upper): two trnblas DTRSMs on the stored triangle.
  TraceParts trace;
  const bool lower = uplo == Uplo::lower;
  const auto N = blas::Op::N, T = blas::Op::T;
  const auto D = blas::Diag::non_unit;
  detail::dtrsm_left(s, uplo, lower ? N : T, D, n, nrhs, A, lda, B, ldb, trace);
  detail::dtrsm_left(s, uplo, lower ? T : N, D, n, nrhs, A, lda, B, ldb, trace);
  detail::finish_fp64_report(report, std::move(trace), s.target, 0);
  if (report != nullptr) report->add_plan(blas::plan_fp64_trsm(n, nrhs, false));  // each of the two DTRSMs
}

FactorPlan plan_potrf(const Settings& s, std::int64_t n, bool fp64) {
  FactorPlan plan;
  plan.routine = fp64 ? "dpotrf" : "spotrf";
  plan.m = plan.n = n;
  plan.nb = hardware_spec(s.target).pmax;  // one diagonal-block column per partition
  plan.panels = n > 0 ? (n + plan.nb - 1) / plan.nb : 0;
  plan.host_panels = fp64;
  plan.update_mode = fp64 ? blas::GemmMode::fp64_ozaki : blas::GemmMode::fp32;
  plan.why = fp64 ? "recursive panels (Ozaki DSYRK/DGEMM; a column's sqrt and scaling on the host), trailing updates "
                    "by Ozaki DSYRK"
                  : "diagonal block by one tile kernel (8 dependent instructions per column), rows below by "
                    "TRSM and the trailing matrix by SYRK on TensorE (LAPACK spotrf's split)";
  return plan;
}

std::string FactorPlan::print() const {
  PlanFacts f;
  f.routine = routine;
  f.shape = m == n ? "n=" + std::to_string(n) : std::to_string(m) + "x" + std::to_string(n);
  f.variant = "blocked right-looking, panel width " + std::to_string(nb) + ", " + std::to_string(panels) + " panels";
  if (host_panels)
    f.variant += " (fp64: recursive, Ozaki updates; per column one O(m) host step)";
  else if (routine == "sgetrf")
    f.variant += transposed_from < 0 ? ", row-tile panel kernel"
                                     : ", transposed panel kernel from column " + std::to_string(transposed_from);
  f.ops = std::string("trailing updates in trnblas mode ") + blas::gemm_mode_name(update_mode);
  f.engines = host_panels ? "TensorE (Ozaki updates), DMA (interchanges), host CPU (pivot search, scaling, Ozaki "
                            "slicing)"
                          : "VectorE, ScalarE, GpSimdE, TensorE, DMA";
  f.predicted_ns = predicted_ns.get();
  f.why = why;
  return f.print();
}
static_assert(trn::Plan<FactorPlan>);

}  // namespace trn::solver
