// ssyevj for one matrix of order n >= kSyevjBlockMinN: two-sided block Jacobi.
//
// Algorithm (Van Loan, "The block Jacobi method for computing the singular value decomposition",
// 1985, applied to the symmetric eigenproblem; block round-robin ordering of Brent & Luk 1985 as in
// Becka, Oksa & Vajtersic, Parallel Computing 28, 2002, section 2; convergence of such block
// methods: Hari, 2007). The matrix is padded to N = n rounded up to 2b (b = 8 or 16, block_size)
// with zero rows and columns, which no rotation ever couples to the rest (their 2 x 2 pivots have a_pq = 0 exactly, so
// c = 1, s = 0 and every product with them is an exact zero), and split into 2p = N / b blocks. A
// round pairs the blocks at positions (2k, 2k + 1), k < p; one round:
//   1. the p diagonal 2b x 2b subproblems [A_II A_IJ; A_JI A_JJ] are diagonalised together by the
//      packed batched kernel (syevj_f32_packed_kernel, one matrix per partition, VectorE/ScalarE/
//      GpSimdE), which returns their orthogonal eigenvector matrices Q_k (unsorted: a column keeps
//      its position);
//   2. with Qf = diag(Q_k) P (P: every block to its round-robin position of the next round, so that
//      the next pairs are adjacent again; 2p - 1 rounds = one outer sweep, after which the
//      arrangement is the identity): B = A Qf, A' = Qf^T B, V' = V Qf as TensorE GEMMs (trnblas
//      fp32 mode: exact products, fp32 PSUM accumulation), banded for N > kDenseMaxN.
// After every outer sweep off(A)_F and ||A||_F are formed on ScalarE (squares with row sums) and
// TensorE (partition sum), and read by the host: converged when off <= tol ||A||_F (the fp32 test of
// the rows kernel, ssyevj_effective_tolerance). Inner solves: one sweep of the packed kernel per subproblem and round (kInnerSweeps).
//
// Host side (index moves, no arithmetic): the copy of the uplo triangle into the padded work
// matrix, the assembly of Qf from the Q_k, the argsort of the eigenvalues, the placement of the
// columns; the host also reads the diagonal from the work matrix in HBM.
// Engines: packed kernel (VectorE, ScalarE, GpSimdE), TensorE (GEMMs, sums), ScalarE (squares), DMA.
// Sizes: n <= kSyevjMaxN; SBUF per launch: the packed kernel's p slots, GEMM tiles, one row tile.
// Accuracy: docs/trnsolver.md (each round adds ~sqrt(2b) u to the orthogonality of V).
// Limits: those of the packed kernel (|a_ij| < 2^58).
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

#include "jacobi_tiles.hpp"
#include "syevj_internal.hpp"

namespace trn::solver::detail {
namespace {


// Sum of all squares and of the off-diagonal squares of the N x N matrix a (leading dimension N), in
// fp32 on the engines: per tile of up to 128 columns, squares with free-axis sums on ScalarE (the
// diagonal zeroed by affine_select for the second), then a ones-matmul over partitions on TensorE
// accumulating into PSUM across tiles. The order of every sum depends on N only.
void sums_of_squares_kernel(NeuronCore& nc, float* a, std::int64_t N, float* out) {
  AllocScope sb(nc.sbuf()), ps(nc.psum());
  const std::int64_t P = nc.hw().pmax;
  const auto Pi = static_cast<std::int32_t>(P);
  const Tile x = sb.alloc(DType::f32, Pi, {N}, "columns"), off = sb.alloc(DType::f32, Pi, {N}, "off-diagonal"),
             sq = sb.alloc(DType::f32, Pi, {N}, "squares"), sums = sb.alloc(DType::f32, Pi, {2}, "row sums"),
             ones = sb.alloc(DType::f32, Pi, {1}, "ones"), res = sb.alloc(DType::f32, 2, {1}, "sums");
  const Tile total = ps.alloc(DType::f32, 2, {1}, "sums (PSUM)");
  nc.memset(ones, 1.0f);
  // Row r of the view is column r of a (contiguous in HBM); the off-diagonal test is r != j.
  const HbmTensor h = HbmTensor::wrap(a, DType::f32, {N, N});
  for (std::int64_t r0 = 0; r0 < N; r0 += P) {
    const auto rows = static_cast<std::int32_t>(std::min(P, N - r0));
    nc.dma_copy(x.rows(0, rows), h.tile(r0, rows, 0, N));
    const Tile s0 = sums.rows(0, rows).cols(0, 1), s1 = sums.rows(0, rows).cols(1, 1);
    nc.activation(sq.rows(0, rows), x.rows(0, rows), ActFunc::square, 0.0f, 1.0f, &s0);
    const std::array<std::int64_t, 2> step{1, N};
    nc.affine_select(off.rows(0, rows), std::span(&step, 1), -r0, -1, AluOp::not_equal, x.rows(0, rows), 0.0f);
    nc.activation(sq.rows(0, rows), off.rows(0, rows), ActFunc::square, 0.0f, 1.0f, &s1);
    nc.nc_matmul(total, sums.rows(0, rows), ones.rows(0, rows), r0 > 0);
  }
  nc.tensor_copy(res, total);
  nc.dma_copy(HbmTensor::wrap(out, DType::f32, {2, 1}).tile(0, 2, 0, 1), res);
}

// One inner sweep per subproblem and round: measured against full diagonalisation (to the packed
// kernel's own test) at n = 128/256, b = 16: the same 6-8 outer sweeps or one more, at 0.39x and
// 0.45x the modeled time (the packed kernel is latency-bound on p matrices).
constexpr int kInnerSweeps = 1;

// b = 8 (16 x 16 subproblems): the packed kernel's instructions are ~4x shorter than at b = 16
// and its cost per round ~4x lower, which outweighs twice the rounds up to n = 512 (measured:
// n = 128 11.6 vs 19.8 ms, n = 256 31 vs 53 ms modeled trn1). Above, the GEMMs of a round
// dominate: n = 1024 b = 16 512 ms (10 sweeps) vs b = 8 565 ms (9 sweeps).
constexpr std::int64_t kBlock8MaxN = 512;
std::int64_t block_size(std::int64_t n) { return n <= kBlock8MaxN ? 8 : 16; }

// Up to this order the rotations are applied as one dense N x N GEMM each (measured cheaper).
constexpr std::int64_t kDenseMaxN = 256;

struct BlockJacobi {
  const Settings& s;
  const SyevjParams& prm;
  bool vectors;
  std::int64_t n, N, blocks, pairs;
  std::vector<float> a, b, v, v2, q, qf, wsub;
  std::int64_t band_width = 0, band_depth = 0;  // W output columns per product, contraction W + 4b
  std::vector<std::int64_t> block_at;  // block_at[position] = original block index
  Trace trace;
  blas::Settings bs;

  std::int64_t kBlock;  // b: a pair of blocks is one packed subproblem (2b <= kSyevjPackedMaxN)

  BlockJacobi(const Settings& s_, const SyevjParams& p_, bool vectors_, std::int64_t n_, std::int64_t b_)
      : s(s_), prm(p_), vectors(vectors_), n(n_), kBlock(b_) {
    N = (n + 2 * kBlock - 1) / (2 * kBlock) * (2 * kBlock);
    blocks = N / kBlock;
    pairs = blocks / 2;
    const auto NN = static_cast<std::size_t>(N * N);
    a.assign(NN, 0.0f);
    b.assign(NN, 0.0f);
    if (vectors) {
      v.assign(NN, 0.0f);
      v2.assign(NN, 0.0f);
      for (std::int64_t i = 0; i < N; ++i) v[static_cast<std::size_t>(i + i * N)] = 1.0f;
    }
    q.assign(static_cast<std::size_t>(pairs * 4 * kBlock * kBlock), 0.0f);
    qf.assign(NN, 0.0f);
    // W: the widest of 128, 64, 32 that divides N and leaves a window narrower than N; else one
    // dense product (W = N: small matrices, where one GEMM is cheapest on both device and host).
    band_width = band_depth = N;
    for (const std::int64_t wd : {128, 64, 32})
      if (N % wd == 0 && wd + 4 * kBlock < N && N > kDenseMaxN) {
        band_width = wd;
        band_depth = wd + 4 * kBlock;
        break;
      }
    wsub.assign(static_cast<std::size_t>(pairs * 2 * kBlock), 0.0f);
    block_at.resize(static_cast<std::size_t>(blocks));
    std::iota(block_at.begin(), block_at.end(), 0);
    bs.target = s.target;
    bs.numerics = s.numerics;
    bs.host_threads = s.host_threads;
  }

  LaunchConfig one_core() const {
    LaunchConfig lc = s.launch_config();
    lc.num_cores = 1;        // one matrix: a sequence of dependent launches
    lc.core.execute = true;  // the host reads the sums; later launches read what earlier ones wrote
    return lc;
  }

  // {||A||_F^2, off(A)_F^2} of the work matrix.
  std::array<double, 2> sums() {
    float out[2] = {0.0f, 0.0f};
    LaunchResult r = launch(one_core(), [&](NeuronCore& nc) { sums_of_squares_kernel(nc, a.data(), N, out); });
    trace.append(r.trace);
    return {static_cast<double>(out[0]), static_cast<double>(out[1])};
  }

  // One round; false when a subproblem became non-finite.
  bool round() {
    const std::int64_t w = 2 * kBlock;
    std::vector<SyevjResult> sub(static_cast<std::size_t>(pairs));
    PackedJacobiProblemF32 pr;
    pr.a = a.data();
    pr.lda = N;
    pr.matrix_stride = w * (N + 1);  // diagonal block k at a + k w (N + 1)
    pr.w = wsub.data();
    pr.n = w;
    pr.count = pairs;
    pr.vectors = true;
    pr.lower = true;  // the work matrix is full; the lower triangle of the block is read
    pr.sort = false;  // a column keeps its position: the block arrangement stays known
    pr.tolerance = prm.tolerance;
    pr.max_sweeps = kInnerSweeps;
    pr.result = sub.data();
    pr.v_out = q.data();
    LaunchResult r = launch(one_core(), [&](NeuronCore& nc) { syevj_f32_packed_kernel(nc, pr); });
    trace.append(r.trace);
    for (const SyevjResult& x : sub)
      if (!std::isfinite(x.residual)) return false;
    // Qf = diag(Q_k) P: column block `to` = half h of Q_k in rows of pair k, where the block at
    // position 2k + h moves to to = round_robin_next(2k + h) (index moves on the host).
    std::fill(qf.begin(), qf.end(), 0.0f);
    std::vector<std::int64_t> next_block(static_cast<std::size_t>(blocks));
    for (std::int64_t k = 0; k < pairs; ++k)
      for (std::int64_t h = 0; h < 2; ++h) {
        const std::int64_t to = round_robin_next(2 * k + h, pairs);
        next_block[static_cast<std::size_t>(to)] = block_at[static_cast<std::size_t>(2 * k + h)];
        for (std::int64_t c = 0; c < kBlock; ++c)
          std::copy_n(q.data() + k * w * w + (h * kBlock + c) * w, w,
                      qf.data() + k * w + (to * kBlock + c) * N);
      }
    // Banded products: round_robin_next moves a block by at most two positions, so output columns
    // [c0, c0 + W) of A Qf need only rows [c0 - 2b, c0 + W + 2b) of Qf: one batched GEMM of N / W
    // products with that window as contraction (all zeros outside it are skipped; the zeros inside
    // add exactly, so every output is the rounded sum of its 2b nonzero products in PSUM order).
    std::vector<blas::MatrixRef> cols_in, q_cols, q_rows, rows_in, vin;
    std::vector<blas::MutableMatrixRef> cols_out, rows_out, vout;
    for (std::int64_t c0 = 0; c0 < N; c0 += band_width) {
      const std::int64_t s0 = std::clamp<std::int64_t>(c0 - 2 * kBlock, 0, N - band_depth);
      cols_in.push_back({a.data() + s0 * N, DType::f32, N});
      q_cols.push_back({qf.data() + s0 + c0 * N, DType::f32, N});
      cols_out.push_back({b.data() + c0 * N, DType::f32, N});
      rows_in.push_back({b.data() + s0, DType::f32, N});
      rows_out.push_back({a.data() + c0, DType::f32, N});
      if (vectors) {
        vin.push_back({v.data() + s0 * N, DType::f32, N});
        vout.push_back({v2.data() + c0 * N, DType::f32, N});
      }
    }
    const auto gemms = [&](blas::Op ta, std::int64_t m, std::int64_t nn, const std::vector<blas::MatrixRef>& x,
                           const std::vector<blas::MatrixRef>& y, const std::vector<blas::MutableMatrixRef>& z) {
      blas::CallReport gr;
      blas::gemm_batched(bs, blas::GemmMode::fp32, ta, blas::Op::N, m, nn, band_depth, 1.0f, x, y, 0.0f, z, &gr);
      trace.append(gr.trace);
    };
    gemms(blas::Op::N, N, band_width, cols_in, q_cols, cols_out);  // B = A Qf (columns)
    gemms(blas::Op::T, band_width, N, q_cols, rows_in, rows_out);  // A' = Qf^T B (rows)
    if (vectors) {
      gemms(blas::Op::N, N, band_width, vin, q_cols, vout);  // V' = V Qf
      v.swap(v2);
    }
    block_at.swap(next_block);
    return true;
  }
};

}  // namespace

SyevjResult ssyevj_block(const Settings& s, bool vectors, bool lower, std::int64_t n, float* A, std::int64_t lda,
                         float* W, const SyevjParams& p, CallReport* report) {
  BlockJacobi bj(s, p, vectors, n, block_size(n));
  const std::int64_t kBlock = bj.kBlock;
  const std::int64_t N = bj.N;
  // Only the uplo triangle is read (host copy into the padded work matrix, mirrored).
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i) {
      const float x = lower ? A[i + j * lda] : A[j + i * lda];
      bj.a[static_cast<std::size_t>(i + j * N)] = x;
      bj.a[static_cast<std::size_t>(j + i * N)] = x;
    }
  SyevjResult res;
  const auto finish_report = [&] {
    if (report == nullptr) return;
    report->profile = model_profile(bj.trace, s.target);
    report->trace = std::move(bj.trace);
  };
  std::array<double, 2> sq = bj.sums();
  const double fro = std::sqrt(sq[0]);
  double off = std::sqrt(sq[1]);
  if (!std::isfinite(fro) || !std::isfinite(off)) {  // non-finite input: A untouched, W NaN
    res.info = static_cast<int>(n) + 1;
    res.residual = std::nan("");
    std::fill(W, W + n, std::nanf(""));
    finish_report();
    return res;
  }
  const double tol = ssyevj_effective_tolerance(n, p.tolerance);
  bool finite = true;
  while (!(off <= tol * fro) && res.sweeps < p.max_sweeps && finite) {
    for (std::int64_t r = 0; r < bj.blocks - 1 && finite; ++r) finite = bj.round();
    ++res.sweeps;
    off = finite ? std::sqrt(bj.sums()[1]) : std::nan("");
    finite = finite && std::isfinite(off);
  }
  res.residual = off;
  res.info = off <= tol * fro ? 0 : static_cast<int>(n) + 1;
  // Eigenvalue k of position j: the diagonal of the work matrix (read back by DMA in the sums'
  // launches; here from the host copy of the same HBM buffer). Positions of padding are dropped.
  std::vector<std::int64_t> pos;
  for (std::int64_t j = 0; j < N; ++j)
    if (bj.block_at[static_cast<std::size_t>(j / kBlock)] * kBlock + j % kBlock < n) pos.push_back(j);
  const auto diag = [&](std::int64_t j) { return bj.a[static_cast<std::size_t>(j + j * N)]; };
  std::stable_sort(pos.begin(), pos.end(), [&](std::int64_t x, std::int64_t y) { return diag(x) < diag(y); });
  for (std::int64_t k = 0; k < n; ++k) W[k] = diag(pos[static_cast<std::size_t>(k)]);
  if (vectors)  // rows of V are the original indices (V' = V Q P permutes columns only)
    for (std::int64_t k = 0; k < n; ++k)
      std::copy_n(bj.v.data() + pos[static_cast<std::size_t>(k)] * N, n, A + k * lda);
  finish_report();
  return res;
}

}  // namespace trn::solver::detail
