// spotrf: blocked right-looking Cholesky (LAPACK spotrf's order). Per block of nb = pmax columns:
// the diagonal block by the tile kernel below, the rows under it by trnblas STRSM (L21 = A21 L11^-T,
// inverse diagonal block + GEMM on TensorE), the trailing matrix by trnblas SYRK, all fp32 mode.
//
// Diagonal-block kernel (one launch per block, its rows as one row tile in SBUF, fp32; the kernel
// also takes taller panels, rows j0..n-1, then doing the panel's solve itself). For each column j
// (the unblocked right-looking loop of LAPACK xPOTF2):
//   bc[:, k]  = a_kj on every partition        TensorE: ones stationary, diag(column j) moving
//   r         = rsqrt(a_jj)                     ScalarE (NaN when a_jj <= 0: non-positive pivot)
//   l_i       = a_ij r  (i > j, else 0)        VectorE, GpSimdE mask
//   a_ik     -= l_i (a_kj r)   for k > j        VectorE (rank-1 update of the panel's remaining columns)
//   a_jj      = a_jj r = sqrt(a_jj)
// Engines: TensorE (row broadcast), VectorE, ScalarE, GpSimdE, DMA. Accuracy: backward error
// ||A - L L^T|| / ||A|| = O(n u) (Higham, Accuracy and Stability of Numerical Algorithms, Thm 10.3).
// Limits: rsqrt's valid range [2^-87, 2^97] bounds the pivots (outside: treated as not positive
// definite). The first non-finite diagonal entry after the panel gives info.
#include <algorithm>
#include <cmath>

#include "syevj_internal.hpp"
#include "trn/blas/level3.hpp"  // strsm

namespace trn::solver {
namespace {

struct PanelProblem {
  float* a = nullptr;         // element (i, j) of the lower-view matrix at a[i * si + j * sj]
  std::int64_t si = 1, sj = 1;
  std::int64_t j0 = 0, nb = 0, n = 0;
};

void potrf_panel_kernel(NeuronCore& nc, const PanelProblem& pp) {
  const std::int64_t P = nc.hw().pmax, rows_total = pp.n - pp.j0, nb = pp.nb;
  const std::int64_t T = (rows_total + P - 1) / P;
  AllocScope sb(nc.sbuf()), ps(nc.psum());
  const HbmTensor view = HbmTensor::wrap(pp.a + pp.j0 * pp.si + pp.j0 * pp.sj, DType::f32, {rows_total, nb}, {pp.si, pp.sj});
  std::vector<Tile> tiles;
  for (std::int64_t t = 0; t < T; ++t) {
    const auto rows = static_cast<std::int32_t>(std::min(P, rows_total - t * P));
    tiles.push_back(sb.alloc(DType::f32, rows, {nb}, "panel"));
    nc.dma_copy(tiles.back(), view.tile(t * P, rows, 0, nb));
  }
  const auto Pi = static_cast<std::int32_t>(P);
  Tile ones = sb.alloc(DType::f32, Pi, {P}, "ones");
  Tile sel = sb.alloc(DType::f32, Pi, {P}, "diag(column j)");
  Tile ident = sb.alloc(DType::f32, Pi, {nb}, "identity");
  Tile r = sb.alloc(DType::f32, Pi, {1}, "rsqrt(a_jj)");
  Tile lrow = sb.alloc(DType::f32, Pi, {nb}, "a_jk r");
  Tile lcol = sb.alloc(DType::f32, Pi, {1}, "l_ij");
  Tile upd = sb.alloc(DType::f32, Pi, {nb}, "rank-1 term");
  Tile bc = ps.alloc(DType::f32, Pi, {nb}, "row j broadcast");
  nc.memset(ones, 1.0f);
  {
    const std::array<std::int64_t, 2> pat{-1, nb};
    nc.affine_select(ident, std::span(&pat, 1), 0, 1, AluOp::equal, ones.cols(0, nb), 0.0f);
  }
  Tile& diag = tiles[0];  // rows j0 .. j0 + nb - 1 hold the diagonal block
  const auto dr = diag.partitions;
  {
    // The diagonal block's strict upper part is the unread triangle of A: replace it by zeros
    // (a select, so NaN there cannot leak into the row broadcasts below).
    const std::array<std::int64_t, 2> pat{-1, nb};
    nc.affine_select(diag, std::span(&pat, 1), 0, 1, AluOp::greater_equal, diag, 0.0f);
  }
  for (std::int64_t j = 0; j < nb; ++j) {
    // Column j of the diagonal block, moved onto the free axis of every partition: a diagonal
    // matrix diag(a_kj) (VectorE) times a ones stationary (TensorE) gives bc[i, k] = a_kj (exact:
    // one nonzero term). Only the stored triangle is used (the strict upper part was zeroed).
    nc.tensor_scalar(sel.rows(0, dr).cols(0, nb), ident.rows(0, dr), AluOp::multiply, diag.cols(j, 1));
    nc.nc_matmul(bc, ones.rows(0, dr), sel.rows(0, dr).cols(0, nb), false);
    nc.activation(r, bc.cols(j, 1), ActFunc::rsqrt);
    nc.tensor_scalar(lrow, bc, AluOp::multiply, r);  // a_jk / sqrt(a_jj)
    for (std::int64_t t = 0; t < T; ++t) {
      const std::int32_t rows = tiles[t].partitions;
      const Tile lc = lcol.rows(0, rows);
      nc.tensor_scalar(lc, tiles[t].cols(j, 1), AluOp::multiply, r.rows(0, rows));
      if (t == 0) {
        // Keep l_ij only below the diagonal (p > j); row j becomes sqrt(a_jj), rows above stay.
        const std::array<std::int64_t, 2> one{0, 1};
        nc.affine_select(lc, std::span(&one, 1), -j, 1, AluOp::greater, lc, 0.0f);
      }
      if (j + 1 < nb) {
        nc.tensor_scalar(upd.rows(0, rows).cols(j + 1, nb - j - 1), lrow.rows(0, rows).cols(j + 1, nb - j - 1),
                         AluOp::multiply, lc);
        nc.tensor_tensor(tiles[t].cols(j + 1, nb - j - 1), tiles[t].cols(j + 1, nb - j - 1),
                         upd.rows(0, rows).cols(j + 1, nb - j - 1), AluOp::subtract);
      }
      if (t == 0) {
        // Column j of the diagonal tile: l_ij below, sqrt(a_jj) = a_jj r on the diagonal, unchanged above.
        const std::array<std::int64_t, 2> one{0, 1};
        nc.affine_select(upd.rows(0, rows).cols(0, 1), std::span(&one, 1), -j, 1, AluOp::equal,
                         lrow.rows(0, rows).cols(j, 1), 0.0f);  // sqrt(a_jj) on partition j
        nc.affine_select(lrow.rows(0, rows).cols(0, 1), std::span(&one, 1), -j, 1, AluOp::less,
                         tiles[t].cols(j, 1), 0.0f);            // unchanged entries above (p < j)
        nc.tensor_tensor(lc, lc, upd.rows(0, rows).cols(0, 1), AluOp::add);
        nc.tensor_tensor(tiles[t].cols(j, 1), lc, lrow.rows(0, rows).cols(0, 1), AluOp::add);
      } else {
        nc.tensor_copy(tiles[t].cols(j, 1), lc);
      }
    }
  }
  // Store the lower part of the panel only (the diagonal tile's strict upper part is the other
  // triangle of A and was never changed, but it is not written back either).
  for (std::int64_t t = 0; t < T; ++t) {
    const auto rows = tiles[t].partitions;
    if (t == 0) {
      for (std::int32_t i = 0; i < rows; ++i) {
        const std::int64_t w = std::min<std::int64_t>(i + 1, nb);
        nc.dma_copy(view.tile(i, 1, 0, w), tiles[0].rows(i, 1).cols(0, w));
      }
    } else {
      nc.dma_copy(view.tile(t * P, rows, 0, nb), tiles[t]);
    }
  }
}

}  // namespace

int spotrf(const Settings& s, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, CallReport* report) {
  if (n < 0 || lda < std::max<std::int64_t>(1, n) || (n > 0 && A == nullptr))
    throw UsageError("trnsolver", "argument", "spotrf: n >= 0, lda >= max(1, n), A not NULL");
  if (report != nullptr) *report = CallReport{};
  Trace trace;
  LaunchConfig lc = s.launch_config();
  lc.num_cores = 1;        // one factorization: a sequence of dependent launches
  lc.core.execute = true;  // later panels read what earlier launches wrote
  const bool lower = uplo == Uplo::lower;
  // Lower view of the stored triangle: (i, j) -> A[i + j lda] (lower) or A[j + i lda] (upper).
  const std::int64_t si = lower ? 1 : lda, sj = lower ? lda : 1;
  const std::int64_t nb = hardware_spec(s.target).pmax;
  trn::blas::Settings bs;
  bs.target = s.target;
  bs.numerics = s.numerics;
  bs.host_threads = s.host_threads;
  int info = 0;
  for (std::int64_t j0 = 0; j0 < n && info == 0; j0 += nb) {
    const std::int64_t w = std::min(nb, n - j0);
    // The column loop factors the diagonal block only (one row tile: ~8 dependent instructions per
    // column whatever n); the rows below are one TRSM, mostly TensorE work (as LAPACK spotrf).
    PanelProblem pp{A, si, sj, j0, w, j0 + w};
    LaunchResult r = launch(lc, [&](NeuronCore& nc) { potrf_panel_kernel(nc, pp); });
    trace.append(r.trace);
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
    // L21 = A21 L11^-T (lower) / U12 = U11^-T A12 (upper): trnblas STRSM in fp32 mode, which inverts
    // the diagonal block on VectorE (3w instructions) and applies it by one GEMM on TensorE
    // (Du Croz & Higham 1992, method 2 blockwise; the bound is docs/trnblas.md's for that form).
    {
      blas::CallReport tr;
      if (lower)
        blas::strsm(bs, blas::GemmMode::fp32, blas::Side::right, blas::Uplo::lower, blas::Op::T, blas::Diag::non_unit,
                    n2, w, 1.0f, A + j0 + j0 * lda, lda, A + (j0 + w) + j0 * lda, lda, &tr);
      else
        blas::strsm(bs, blas::GemmMode::fp32, blas::Side::left, blas::Uplo::upper, blas::Op::T, blas::Diag::non_unit,
                    w, n2, 1.0f, A + j0 + j0 * lda, lda, A + j0 + (j0 + w) * lda, lda, &tr);
      trace.append(tr.trace);
    }
    // Trailing update A22 -= L21 L21^T (lower) / U12^T U12 (upper) on TensorE via trnblas SYRK.
    blas::CallReport br;
    if (lower)
      blas::syrk(bs, blas::GemmMode::fp32, blas::Uplo::lower, blas::Op::N, n2, w, -1.0f,
                 {A + (j0 + w) + j0 * lda, DType::f32, lda}, 1.0f, {A + (j0 + w) + (j0 + w) * lda, DType::f32, lda}, &br);
    else
      blas::syrk(bs, blas::GemmMode::fp32, blas::Uplo::upper, blas::Op::T, n2, w, -1.0f,
                 {A + j0 + (j0 + w) * lda, DType::f32, lda}, 1.0f, {A + (j0 + w) + (j0 + w) * lda, DType::f32, lda}, &br);
    trace.append(br.trace);
  }
  if (report != nullptr) {
    report->profile = model_profile(trace, s.target);
    report->trace = std::move(trace);
  }
  return info;
}

}  // namespace trn::solver

#include "trn/blas/level12.hpp"  // trsm_left_kernel, the triangular-solve tile kernel

namespace trn::solver {

void spotrs(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const float* A, std::int64_t lda, float* B,
            std::int64_t ldb, CallReport* report) {
  if (n < 0 || nrhs < 0 || lda < std::max<std::int64_t>(1, n) || ldb < std::max<std::int64_t>(1, n) ||
      (n > 0 && nrhs > 0 && (A == nullptr || B == nullptr)))
    throw UsageError("trnsolver", "argument", "spotrs: n, nrhs >= 0, lda, ldb >= max(1, n), A and B not NULL");
  if (report != nullptr) *report = CallReport{};
  if (n == 0 || nrhs == 0) return;
  LaunchConfig lc = s.launch_config();
  lc.num_cores = 1;        // one factorization: a sequence of dependent launches
  lc.core.execute = true;  // later panels read what earlier launches wrote
  const std::int64_t chunk = hardware_spec(s.target).gemm_moving_fmax;
  // Lower view L (i, j): A[i + j lda] (uplo lower) or A[j + i lda] (upper, L = U^T).
  const bool lower = uplo == Uplo::lower;
  const std::int64_t si = lower ? 1 : lda, sj = lower ? lda : 1;
  Trace trace;
  for (std::int64_t c0 = 0; c0 < nrhs; c0 += chunk) {
    const std::int64_t w = std::min(chunk, nrhs - c0);
    // L y = b, then L^T x = y.
    const blas::TrsmProblem fwd{.t = A, .t_si = si, .t_sj = sj, .lower = true, .b = B + c0 * ldb, .ldb = ldb, .n = n, .nrhs = w};
    const blas::TrsmProblem bwd{.t = A, .t_si = sj, .t_sj = si, .lower = false, .b = B + c0 * ldb, .ldb = ldb, .n = n, .nrhs = w};
    for (const blas::TrsmProblem* p : {&fwd, &bwd}) {
      LaunchResult r = launch(lc, [&](NeuronCore& nc) { blas::trsm_left_kernel(nc, *p); });
      trace.append(r.trace);
    }
  }
  if (report != nullptr) {
    report->profile = model_profile(trace, s.target);
    report->trace = std::move(trace);
  }
}

}  // namespace trn::solver

namespace trn::solver {

int dpotrf(const Settings& s, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, CallReport* report) {
  if (n < 0 || lda < std::max<std::int64_t>(1, n) || (n > 0 && A == nullptr))
    throw UsageError("trnsolver", "argument", "dpotrf: n >= 0, lda >= max(1, n), A not NULL");
  if (report != nullptr) *report = CallReport{};
  const bool lower = uplo == Uplo::lower;
  const std::int64_t si = lower ? 1 : lda, sj = lower ? lda : 1;
  auto L = [&](std::int64_t i, std::int64_t j) -> double& { return A[i * si + j * sj]; };
  const std::int64_t nb = hardware_spec(s.target).pmax;
  trn::blas::Settings bs;
  bs.target = s.target;
  bs.host_threads = s.host_threads;
  Trace trace;
  double host = 0;
  int info = 0;
  for (std::int64_t j0 = 0; j0 < n && info == 0; j0 += nb) {
    const std::int64_t w = std::min(nb, n - j0);
    // Host fp64: unblocked Cholesky of the panel (diagonal block and the rows below it).
    for (std::int64_t j = j0; j < j0 + w && info == 0; ++j) {
      const double d = L(j, j);
      if (!(d > 0.0) || !std::isfinite(d)) {
        info = static_cast<int>(j + 1);
        break;
      }
      const double r = std::sqrt(d);
      L(j, j) = r;
      for (std::int64_t i = j + 1; i < n; ++i) L(i, j) /= r;
      for (std::int64_t k = j + 1; k < j0 + w; ++k)
        for (std::int64_t i = k; i < n; ++i) L(i, k) -= L(i, j) * L(k, j);
      host += static_cast<double>(n - j) * (1.0 + 2.0 * static_cast<double>(j0 + w - j));
    }
    const std::int64_t n2 = n - j0 - w;
    if (info != 0 || n2 <= 0) continue;
    blas::CallReport br;
    if (lower)
      blas::dsyrk(bs, blas::Uplo::lower, blas::Op::N, n2, w, -1.0, A + (j0 + w) + j0 * lda, lda, 1.0,
                  A + (j0 + w) + (j0 + w) * lda, lda, &br);
    else
      blas::dsyrk(bs, blas::Uplo::upper, blas::Op::T, n2, w, -1.0, A + j0 + (j0 + w) * lda, lda, 1.0,
                  A + (j0 + w) + (j0 + w) * lda, lda, &br);
    trace.append(br.trace);
  }
  if (report != nullptr) {
    report->profile = model_profile(trace, s.target);
    report->trace = std::move(trace);
    report->host_fp64_flops = host;
  }
  return info;
}

void dpotrs(const Settings& s, Uplo uplo, std::int64_t n, std::int64_t nrhs, const double* A, std::int64_t lda,
            double* B, std::int64_t ldb, CallReport* report) {
  if (n < 0 || nrhs < 0 || lda < std::max<std::int64_t>(1, n) || ldb < std::max<std::int64_t>(1, n) ||
      (n > 0 && nrhs > 0 && (A == nullptr || B == nullptr)))
    throw UsageError("trnsolver", "argument", "dpotrs: n, nrhs >= 0, lda, ldb >= max(1, n), A and B not NULL");
  if (report != nullptr) {
    *report = CallReport{};
    report->profile.target = s.target;
  }
  const bool lower = uplo == Uplo::lower;
  const std::int64_t si = lower ? 1 : lda, sj = lower ? lda : 1;
  auto L = [&](std::int64_t i, std::int64_t j) { return A[i * si + j * sj]; };
  for (std::int64_t c = 0; c < nrhs; ++c) {
    double* b = B + c * ldb;
    for (std::int64_t j = 0; j < n; ++j) {  // L y = b (column-oriented forward substitution)
      b[j] /= L(j, j);
      for (std::int64_t i = j + 1; i < n; ++i) b[i] -= L(i, j) * b[j];
    }
    for (std::int64_t j = n - 1; j >= 0; --j) {  // L^T x = y
      double t = b[j];
      for (std::int64_t i = j + 1; i < n; ++i) t -= L(i, j) * b[i];
      b[j] = t / L(j, j);
    }
  }
  if (report != nullptr) report->host_fp64_flops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(nrhs);
}

}  // namespace trn::solver
