// ssyevj / ssyevj_batched for n >= kSyevjBlockMinN: two-sided block Jacobi.
//
// Algorithm (Van Loan, "The block Jacobi method for computing the singular value decomposition",
// 1985, applied to the symmetric eigenproblem; block round-robin ordering of Brent & Luk 1985 as in
// Becka, Oksa & Vajtersic, Parallel Computing 28, 2002, section 2; convergence of such block
// methods: Hari, 2007). The matrix is padded to N = n rounded up to 2b (b = 8 or 16, block_size)
// with zero rows and columns, which no rotation ever couples to the rest (their 2 x 2 pivots have
// a_pq = 0 exactly, so c = 1, s = 0 and every product with them is an exact zero), and split into
// 2p = N / b blocks. A round pairs the blocks at positions (2k, 2k + 1), k < p; one round:
//   1. the p diagonal 2b x 2b subproblems [A_II A_IJ; A_JI A_JJ] get one sweep (kInnerSweeps) of
//      the packed batched kernel (syevj_f32_packed_kernel, one matrix per partition, VectorE/
//      ScalarE/GpSimdE), which returns their orthogonal eigenvector matrices Q_k (unsorted: a column
//      keeps its position);
//   2. with Qf = diag(Q_k) P (P: every block to its round-robin position of the next round, so that
//      the next pairs are adjacent again; 2p - 1 rounds = one outer sweep, after which the
//      arrangement is the identity): B = A Qf, A' = Qf^T B, V' = V Qf as TensorE GEMMs (trnblas
//      fp32 mode: exact products, fp32 PSUM accumulation), banded for N > kDenseMaxN.
// After every outer sweep off(A)_F and ||A||_F are formed on ScalarE (squares with row sums) and
// TensorE (partition sum), and read by the host: converged when off <= tol ||A||_F (the fp32 test of
// the rows kernel, ssyevj_effective_tolerance). A batch runs in lockstep groups (BlockJacobi).
//
// Host side (index moves, no arithmetic): the copy of the uplo triangle into the padded work
// matrix, the assembly of Qf from the Q_k, the argsort of the eigenvalues, the placement of the
// columns; the host also reads the diagonal from the work matrix in HBM.
// Engines: packed kernel (VectorE, ScalarE, GpSimdE), TensorE (GEMMs, sums), ScalarE (squares), DMA.
// Sizes: n <= kSyevjMaxN; SBUF per launch: the packed kernel's slots, GEMM tiles, one row tile.
// Accuracy: docs/trnsolver.md (the rows kernel's bounds hold with the same constants; measured
// <= 0.52 of each at n = 256..1024).
// Limits: those of the packed kernel (|a_ij| < 2^58).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <memory>
#include <numeric>
#include <span>
#include <vector>

#include "jacobi_tiles.hpp"
#include "trn/blas/level12.hpp"
#include "syevj_internal.hpp"
#include "trn/core/scratch.hpp"
#include "trn/tile/matmul.hpp"

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
  tile::PartitionSum total(nc, ps.alloc(DType::f32, 2, {1}, "sums (PSUM)"), ones, tile::PartitionSum::Layout::column);
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
    total.add(sums.rows(0, rows));
  }
  total.copy_out(res);
  nc.dma_copy(HbmTensor::wrap(out, DType::f32, {2, 1}).tile(0, 2, 0, 1), res);
}

// Order up to which a round's products run fused in one tile (congruence_kernel) instead of three
// trnblas GEMM calls: one partition tile holds a whole N x N matrix (pmax = 128 on every generation).
constexpr std::int64_t kFusedMaxN = 128;

// One matrix of a round, N <= kFusedMaxN: A (column-major, ld N) becomes Qf^T A Qf and V becomes
// V Qf, in place. qt holds Qf row-major (row k contiguous: the host assembles it so).
struct CongruenceProblem {
  float* a;
  float* v;  // nullptr: no eigenvectors
  const float* qt;
};

// The products of a round for N <= kFusedMaxN, one matrix after another through a ring of three
// tile sets (the next matrix's loads overlap this one's matmuls and stores). Per matrix, fp32
// operands on TensorE (exact products, fp32 PSUM accumulation over k = 0..N-1 in order: the same
// sums, bit for bit, as the trnblas fp32 GEMMs B = A Qf, A' = Qf^T B, V' = V Qf of the general path):
//   B   = matmul(stationary = A's columns on partitions, moving = Qf's rows)  -> B's rows on partitions
//   A'^T = matmul(stationary = B's rows, moving = Qf's rows)                  -> A''s columns
//   V'^T = matmul(stationary = Qf's rows, moving = V's columns)               -> V''s columns
// so that every load and store is one contiguous N-float row per partition and B never leaves the
// chip (the general path moves B through HBM twice). PSUM results are copied to SBUF on VectorE
// (B) and ScalarE (A', V'), exact copies. Engines: DMA, TensorE, VectorE, ScalarE. SBUF: 3 x 6 N floats per
// partition; PSUM: 3 x 3 N floats per partition (N = 128: 9 KiB, 4.5 KiB).
void congruence_kernel(NeuronCore& nc, std::span<const CongruenceProblem> problems, std::int64_t N) {
  AllocScope sb(nc.sbuf()), ps(nc.psum());
  const auto Ni = static_cast<std::int32_t>(N);
  struct Slot {
    Tile a, q, v, b, at, vt, pb, pa, pv;
  };
  std::array<Slot, 3> ring;
  for (Slot& t : ring) {
    t.a = sb.alloc(DType::f32, Ni, {N}, "A columns");
    t.q = sb.alloc(DType::f32, Ni, {N}, "Qf rows");
    t.v = sb.alloc(DType::f32, Ni, {N}, "V columns");
    t.b = sb.alloc(DType::f32, Ni, {N}, "B rows");
    t.at = sb.alloc(DType::f32, Ni, {N}, "A' columns");
    t.vt = sb.alloc(DType::f32, Ni, {N}, "V' columns");
    t.pb = ps.alloc(DType::f32, Ni, {N}, "B (PSUM)");
    t.pa = ps.alloc(DType::f32, Ni, {N}, "A' (PSUM)");
    t.pv = ps.alloc(DType::f32, Ni, {N}, "V' (PSUM)");
  }
  // Row r of an {N, N} view of a column-major matrix is its column r (contiguous).
  const auto view = [&](const float* x) { return HbmTensor::wrap(const_cast<float*>(x), DType::f32, {N, N}).tile(0, N, 0, N); };
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const CongruenceProblem& pr = problems[i];
    const Slot& t = ring[i % ring.size()];
    nc.dma_copy(t.a, view(pr.a));
    nc.dma_copy(t.q, view(pr.qt));
    if (pr.v != nullptr) nc.dma_copy(t.v, view(pr.v));
    tile::Accumulator pb(nc, t.pb), pa(nc, t.pa), pv(nc, t.pv);  // one product each
    pb.matmul(t.a, t.q);
    pb.copy_out(t.b);
    pa.matmul(t.b, t.q);
    pa.copy_out(t.at, Engine::scalar);
    nc.dma_copy(view(pr.a), t.at);
    if (pr.v != nullptr) {
      pv.matmul(t.q, t.v);
      pv.copy_out(t.vt, Engine::scalar);
      nc.dma_copy(view(pr.v), t.vt);
    }
  }
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

// A group of same-order matrices swept in lockstep (the same rounds; each matrix's subproblems,
// products and sums are its own, so its bits do not depend on the group).
struct BlockJacobi {
  const Settings& s;
  const SyevjParams& prm;
  bool vectors;
  std::int64_t n, kBlock, N, blocks, pairs, count, stride;  // work matrix m at m * stride
  // Traced as HBM by the group's launches: the scratch stack (docs/cost-model.md section 2), so the
  // modeled dependencies do not depend on the process's malloc history.
  ScratchVector<float> a, b, v, v2, q, qf, wsub, sums_out, packed_readback;
  std::int64_t band_width = 0, band_depth = 0;  // W output columns per product, contraction W + 4b
  std::vector<std::int64_t> block_at;  // block_at[position] = original block index (every matrix)
  std::vector<std::int64_t> previous_block_at;
  TraceParts trace;  // every launch's trace, joined once by the caller
  blas::Settings bs;
  // >= 0: the plan's prediction (ssyevj_block_dry_ns) -- nothing executes (launches timing-only,
  // the packed kernel exactly kInnerSweeps sweeps per round), exactly this many outer sweeps.
  int dry_sweeps = -1;

  BlockJacobi(const Settings& s_, const SyevjParams& p_, bool vectors_, std::int64_t n_, std::int64_t b_,
              std::int64_t count_, int dry_sweeps_)
      : s(s_), prm(p_), vectors(vectors_), n(n_), kBlock(b_), count(count_), dry_sweeps(dry_sweeps_) {
    N = (n + 2 * kBlock - 1) / (2 * kBlock) * (2 * kBlock);
    blocks = N / kBlock;
    pairs = blocks / 2;
    // stride N (N + 1) = p 2b (N + 1): diagonal block k of matrix m is subproblem m p + k at a
    // uniform stride 2b (N + 1), so one packed problem covers the pairs of every matrix.
    stride = N * (N + 1);
    const auto all = static_cast<std::size_t>(count * stride);
    a.assign(all, 0.0f);
    b.assign(all, 0.0f);
    if (vectors) {
      v.assign(all, 0.0f);
      v2.assign(all, 0.0f);
      for (std::int64_t m = 0; m < count; ++m)
        for (std::int64_t i = 0; i < N; ++i) v[static_cast<std::size_t>(m * stride + i + i * N)] = 1.0f;
    }
    q.assign(static_cast<std::size_t>(count * pairs * 4 * kBlock * kBlock), 0.0f);
    qf.assign(static_cast<std::size_t>(count * N * N), 0.0f);
    // W: the widest of 128, 64, 32 that divides N and leaves a window narrower than N; else one
    // dense product (W = N: small matrices, where one GEMM is cheapest on both device and host).
    band_width = band_depth = N;
    for (const std::int64_t wd : {128, 64, 32})
      if (N % wd == 0 && wd + 4 * kBlock < N && N > kDenseMaxN) {
        band_width = wd;
        band_depth = wd + 4 * kBlock;
        break;
      }
    wsub.assign(static_cast<std::size_t>(count * pairs * 2 * kBlock), 0.0f);
    block_at.resize(static_cast<std::size_t>(blocks));
    std::iota(block_at.begin(), block_at.end(), 0);
    bs.target = s.target;
    bs.numerics = s.numerics;
    bs.host_threads = s.host_threads;
    bs.timing_only = dry_sweeps >= 0;
  }

  float* work(std::int64_t m) { return a.data() + m * stride; }

  LaunchConfig config(std::int64_t programs) const {
    LaunchConfig lc = s.launch_config({static_cast<int>(programs), 1, 1});
    lc.core.execute = dry_sweeps < 0;  // the host reads the sums; later launches read what earlier ones wrote
    return lc;
  }

  // {||A||_F^2, off(A)_F^2} of each listed work matrix, one launch.
  std::vector<std::array<double, 2>> sums(const std::vector<std::int64_t>& ms) {
    // The sums land in a buffer of this group (a fresh host vector could take another concurrent
    // group's address, and the cost model would order the two groups by it).
    ScratchVector<float>& out = sums_out;
    out.assign(2 * ms.size(), 0.0f);
    LaunchResult r = launch(config(1), [&](NeuronCore& nc) {
      for (std::size_t i = 0; i < ms.size(); ++i) sums_of_squares_kernel(nc, work(ms[i]), N, out.data() + 2 * i);
    });
    trace.add(std::move(r.trace));
    std::vector<std::array<double, 2>> res(ms.size());
    for (std::size_t i = 0; i < ms.size(); ++i)
      res[i] = {static_cast<double>(out[2 * i]), static_cast<double>(out[2 * i + 1])};
    return res;
  }

  // One round for the `live` matrices; returns those whose subproblems became non-finite (they
  // take no update). The packed kernel runs over the subproblems of the whole group (contiguous;
  // finished matrices' lanes are rotated and never used again).
  std::vector<std::int64_t> round(const std::vector<std::int64_t>& live) {
    const std::int64_t w = 2 * kBlock, total = count * pairs;
    std::vector<SyevjResult> sub(static_cast<std::size_t>(total));
    const std::int64_t per_program = packed_capacity(hardware_spec(s.target), w, true);
    const std::int64_t programs = (total + per_program - 1) / per_program;
    // Allocated once per group (a buffer per round could reuse another group's address).
    const std::int64_t readback_floats = packed_readback_floats(per_program, w, hardware_spec(s.target).pmax);
    const auto readback = static_cast<std::size_t>(programs * readback_floats);
    if (packed_readback.size() < readback) packed_readback.assign(readback, 0.0f);
    LaunchResult r = launch(config(programs), [&](NeuronCore& nc) {
      const std::int64_t k = nc.linear_program_id();
      const std::int64_t first = total * k / programs, last = total * (k + 1) / programs;
      PackedJacobiProblemF32 pr;
      pr.a = a.data() + first * w * (N + 1);
      pr.lda = N;
      pr.matrix_stride = w * (N + 1);  // diagonal block k of matrix m: a + (m p + k) w (N + 1)
      pr.w = wsub.data() + first * w;
      pr.n = w;
      pr.count = last - first;
      pr.readback = packed_readback.data() + k * readback_floats;
      pr.vectors = true;
      pr.lower = true;  // the work matrix is full; the lower triangle of the block is read
      pr.sort = false;  // a column keeps its position: the block arrangement stays known
      pr.tolerance = prm.tolerance;
      pr.max_sweeps = kInnerSweeps;
      if (dry_sweeps >= 0) pr.predict_sweeps = kInnerSweeps;
      pr.result = sub.data() + first;
      pr.v_out = q.data() + first * w * w;
      syevj_f32_packed_kernel(nc, pr);
    });
    trace.add(std::move(r.trace));
    std::vector<std::int64_t> failed, updated;
    for (const std::int64_t m : live) {
      bool finite = true;
      for (std::int64_t k = 0; k < pairs; ++k) finite = finite && std::isfinite(sub[static_cast<std::size_t>(m * pairs + k)].residual);
      (finite ? updated : failed).push_back(m);
    }
    // Qf = diag(Q_k) P: column block `to` = half h of Q_k in rows of pair k, where the block at
    // position 2k + h moves to to = round_robin_next(2k + h) (index moves on the host).
    std::vector<std::int64_t> next_block(static_cast<std::size_t>(blocks));
    for (std::int64_t k = 0; k < pairs; ++k)
      for (std::int64_t h = 0; h < 2; ++h)
        next_block[static_cast<std::size_t>(round_robin_next(2 * k + h, pairs))] = block_at[static_cast<std::size_t>(2 * k + h)];
    // Column-major for the GEMMs; row-major (row k of Qf contiguous) for the fused kernel.
    const bool fused = N <= kFusedMaxN;
    const std::int64_t row_step = fused ? N : 1, col_step = fused ? 1 : N;
    for (const std::int64_t m : updated) {
      float* qm = qf.data() + m * N * N;
      std::fill(qm, qm + N * N, 0.0f);
      for (std::int64_t k = 0; k < pairs; ++k)
        for (std::int64_t h = 0; h < 2; ++h) {
          const std::int64_t to = round_robin_next(2 * k + h, pairs);
          for (std::int64_t c = 0; c < kBlock; ++c) {
            const float* src = q.data() + (m * pairs + k) * w * w + (h * kBlock + c) * w;
            float* dst = qm + k * w * row_step + (to * kBlock + c) * col_step;
            for (std::int64_t i = 0; i < w; ++i) dst[i * row_step] = src[i];
          }
        }
    }
    if (fused)
      fused_updates(updated);
    else
      gemm_updates(updated, failed);
    previous_block_at = block_at;  // the arrangement of the failed matrices
    block_at.swap(next_block);
    return failed;
  }

  // N <= kFusedMaxN: one tile per matrix, the three products fused, B kept on chip, A and V in
  // place (qf row-major).
  void fused_updates(const std::vector<std::int64_t>& updated) {
    std::vector<CongruenceProblem> prs;
    for (const std::int64_t m : updated)
      prs.push_back({a.data() + m * stride, vectors ? v.data() + m * stride : nullptr, qf.data() + m * N * N});
    if (prs.empty()) return;
    LaunchResult lr = launch(config(1), [&](NeuronCore& nc) { congruence_kernel(nc, prs, N); });
    trace.add(std::move(lr.trace));
  }

  // N > kFusedMaxN: B = A Qf, A' = Qf^T B, V' = V Qf as trnblas fp32 GEMMs (qf column-major).
  // Banded products: round_robin_next moves a block by at most two positions, so output columns
  // [c0, c0 + W) of A Qf need only rows [c0 - 2b, c0 + W + 2b) of Qf: one batched GEMM of N / W
  // products per matrix with that window as contraction (all zeros outside it are skipped; the
  // zeros inside add exactly, so every output is the rounded sum of its 2b nonzero products in
  // PSUM order).
  void gemm_updates(const std::vector<std::int64_t>& updated, const std::vector<std::int64_t>& failed) {
    std::vector<blas::MatrixRef> cols_in, q_cols, rows_in, vin;
    std::vector<blas::MutableMatrixRef> cols_out, rows_out, vout;
    for (const std::int64_t m : updated) {
      float *am = a.data() + m * stride, *bm = b.data() + m * stride, *qm = qf.data() + m * N * N;
      for (std::int64_t c0 = 0; c0 < N; c0 += band_width) {
        const std::int64_t s0 = std::clamp<std::int64_t>(c0 - 2 * kBlock, 0, N - band_depth);
        cols_in.push_back({am + s0 * N, DType::f32, N});
        q_cols.push_back({qm + s0 + c0 * N, DType::f32, N});
        cols_out.push_back({bm + c0 * N, DType::f32, N});
        rows_in.push_back({bm + s0, DType::f32, N});
        rows_out.push_back({am + c0, DType::f32, N});
        if (vectors) {
          vin.push_back({v.data() + m * stride + s0 * N, DType::f32, N});
          vout.push_back({v2.data() + m * stride + c0 * N, DType::f32, N});
        }
      }
    }
    const auto gemms = [&](blas::Op ta, std::int64_t mm, std::int64_t nn, const std::vector<blas::MatrixRef>& x,
                           const std::vector<blas::MatrixRef>& y, const std::vector<blas::MutableMatrixRef>& z) {
      if (x.empty()) return;
      blas::CallReport gr;
      blas::gemm_batched(bs, blas::GemmMode::fp32, ta, blas::Op::N, mm, nn, band_depth, 1.0f, x, y, 0.0f, z, &gr);
      trace.add(std::move(gr.trace));
    };
    gemms(blas::Op::N, N, band_width, cols_in, q_cols, cols_out);  // B = A Qf (columns)
    gemms(blas::Op::T, band_width, N, q_cols, rows_in, rows_out);  // A' = Qf^T B (rows)
    if (vectors) {
      gemms(blas::Op::N, N, band_width, vin, q_cols, vout);  // V' = V Qf
      for (const std::int64_t m : failed) std::copy_n(v.data() + m * stride, N * N, v2.data() + m * stride);
      v.swap(v2);  // (matrices finished earlier are never read again)
    }
  }

  // Eigenvalues (sorted if `sort`) to w and, with vectors, eigenvectors to x (n x n, ld) of matrix m,
  // whose blocks are arranged as `at`.
  void finish(std::int64_t m, const std::vector<std::int64_t>& at, bool sort, float* w, float* x, std::int64_t ld) {
    std::vector<std::int64_t> pos;  // positions holding an original (not padding) index
    for (std::int64_t j = 0; j < N; ++j)
      if (at[static_cast<std::size_t>(j / kBlock)] * kBlock + j % kBlock < n) pos.push_back(j);
    const float* am = work(m);
    const auto diag = [&](std::int64_t j) { return am[j + j * N]; };
    if (sort) std::stable_sort(pos.begin(), pos.end(), [&](std::int64_t i, std::int64_t j) { return diag(i) < diag(j); });
    for (std::int64_t k = 0; k < n; ++k) w[k] = diag(pos[static_cast<std::size_t>(k)]);
    if (vectors) {  // rows of V are the original indices (V' = V Qf permutes columns only)
      // The columns in eigenvalue order, by DMA (copy_segments: one segment per column).
      std::vector<blas::CopySegment> cols;
      for (std::int64_t k = 0; k < n; ++k)
        cols.push_back({v.data() + m * stride + pos[static_cast<std::size_t>(k)] * N, x + k * ld, n});
      blas::CallReport cr;
      blas::copy_segments(bs, cols, &cr);
      trace.add(std::move(cr.trace));
    }
  }
};

// Matrices first .. first + count of the batch (matrix k at A + k n lda, W + k n). Returns the
// group's work buffers (the caller keeps them while other cores' groups run, so that no two
// concurrent groups share HBM addresses, which the cost model would read as dependencies).
std::unique_ptr<BlockJacobi> block_group(const Settings& s, bool vectors, bool lower, std::int64_t n, float* A, std::int64_t lda, float* W,
                 const SyevjParams& p, std::int64_t first, std::int64_t count, SyevjResult* results, TraceParts& trace,
                 int dry_sweeps) {
  auto owned = std::make_unique<BlockJacobi>(s, p, vectors, n, block_size(n), count, dry_sweeps);
  BlockJacobi& bj = *owned;
  const std::int64_t N = bj.N;
  const auto in = [&](std::int64_t m) { return A + (first + m) * n * lda; };
  // Only the uplo triangle is read (host copy into the padded work matrix, mirrored).
  for (std::int64_t m = 0; m < count && dry_sweeps < 0; ++m) {  // (dry: A is a placeholder)
    const float* x = in(m);
    float* a = bj.work(m);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = j; i < n; ++i) {
        const float e = lower ? x[i + j * lda] : x[j + i * lda];
        a[i + j * N] = e;
        a[j + i * N] = e;
      }
  }
  std::vector<std::int64_t> live(static_cast<std::size_t>(count));
  std::iota(live.begin(), live.end(), 0);
  const auto sq = bj.sums(live);
  std::vector<double> fro(static_cast<std::size_t>(count)), off(static_cast<std::size_t>(count));
  std::vector<std::int64_t> finite;
  for (std::int64_t m = 0; m < count; ++m) {
    fro[static_cast<std::size_t>(m)] = std::sqrt(sq[static_cast<std::size_t>(m)][0]);
    off[static_cast<std::size_t>(m)] = std::sqrt(sq[static_cast<std::size_t>(m)][1]);
    if (std::isfinite(fro[static_cast<std::size_t>(m)]) && std::isfinite(off[static_cast<std::size_t>(m)])) {
      finite.push_back(m);
      continue;
    }
    SyevjResult& r = results[first + m];  // non-finite input: A untouched, W NaN, no sweep
    r.info = static_cast<int>(n) + 1;
    r.residual = std::nan("");
    std::fill(W + (first + m) * n, W + (first + m + 1) * n, std::nanf(""));
  }
  live.swap(finite);
  const double tol = ssyevj_effective_tolerance(n, p.tolerance);
  const auto finish = [&](std::int64_t m, int sweeps, bool converged, const std::vector<std::int64_t>& at) {
    SyevjResult& r = results[first + m];
    r.sweeps = sweeps;
    r.residual = off[static_cast<std::size_t>(m)];
    r.info = converged ? 0 : static_cast<int>(n) + 1;
    bj.finish(m, at, p.sort_eig, W + (first + m) * n, in(m), lda);
  };
  for (int sweeps = 0;; ++sweeps) {
    std::vector<std::int64_t> still;
    for (const std::int64_t m : live) {
      const double o = off[static_cast<std::size_t>(m)];
      const bool converged = dry_sweeps >= 0 ? sweeps >= dry_sweeps : o <= tol * fro[static_cast<std::size_t>(m)];
      if (converged || !std::isfinite(o) || sweeps >= p.max_sweeps)
        finish(m, sweeps, converged, bj.block_at);
      else
        still.push_back(m);
    }
    live.swap(still);
    if (live.empty()) break;
    for (std::int64_t r = 0; r < bj.blocks - 1 && !live.empty(); ++r) {
      const std::vector<std::int64_t> failed = bj.round(live);
      for (const std::int64_t m : failed) {  // a subproblem became non-finite: stop this matrix
        off[static_cast<std::size_t>(m)] = std::nan("");
        finish(m, sweeps + 1, false, bj.previous_block_at);
        std::erase(live, m);
      }
    }
    if (live.empty()) break;
    const auto now = bj.sums(live);
    for (std::size_t i = 0; i < live.size(); ++i) off[static_cast<std::size_t>(live[i])] = std::sqrt(now[i][1]);
  }
  trace.add(std::move(bj.trace));
  return owned;
}

}  // namespace

namespace {

// The block Jacobi of a batch (ssyevj_block_batched; dry_sweeps >= 0: BlockJacobi::dry_sweeps).
std::vector<SyevjResult> block_batched(const Settings& s, bool vectors, bool lower, std::int64_t n, float* A,
                                       std::int64_t lda, float* W, const SyevjParams& p, std::int64_t batch,
                                       CallReport* report, int dry_sweeps) {
  std::vector<SyevjResult> results(static_cast<std::size_t>(batch));
  const std::int64_t N = (n + 31) / 32 * 32;
  // Groups of at most ~2^26 work floats (five N x N buffers per matrix), and at least one group per
  // emulated core: group g runs on core g % cores (its launches' instructions are placed there), so
  // the cores sweep their groups concurrently on the modeled device, as the rows kernel spreads a
  // batch's programs. A matrix's bits do not depend on its group.
  const int cores = std::max(1, s.num_cores);
  const std::int64_t group = std::max<std::int64_t>(
      1, std::min((std::int64_t{1} << 26) / (5 * N * N), (batch + cores - 1) / cores));
  TraceParts parts;
  std::vector<std::unique_ptr<BlockJacobi>> wave;  // the groups of one round over the cores
  int g = 0;
  for (std::int64_t first = 0; first < batch; first += group, ++g) {
    TraceParts gp;
    if (static_cast<int>(wave.size()) == cores) wave.clear();
    wave.push_back(block_group(s, vectors, lower, n, A, lda, W, p, first, std::min(group, batch - first), results.data(), gp,
                               dry_sweeps));
    if (group < batch)  // several groups: each on its core
      for (Trace& t : gp.parts)
        for (Instruction& ins : t.instructions) ins.core = g % cores;
    parts.add(std::move(gp));
  }
  if (report != nullptr) {
    finish_report(*report, std::move(parts).join(), detail::sub_call_settings(report, ReportSettings::of(s)));
  }
  return results;
}

}  // namespace

std::vector<SyevjResult> ssyevj_block_batched(const Settings& s, bool vectors, bool lower, std::int64_t n, float* A,
                                              std::int64_t lda, float* W, const SyevjParams& p, std::int64_t batch,
                                              CallReport* report) {
  return block_batched(s, vectors, lower, n, A, lda, W, p, batch, report, -1);
}

double ssyevj_block_dry_ns(const Settings& s, bool vectors, std::int64_t n, std::int64_t batch, const SyevjParams& p,
                           int sweeps) {
  float* const a = reinterpret_cast<float*>(std::uintptr_t{1} << 40);  // never dereferenced
  ScratchVector<float> w(static_cast<std::size_t>(n * batch));
  CallReport r;
  block_batched(s, vectors, true, n, a, n, w.data(), p, batch, &r, sweeps);
  return r.profile.total_ns;
}

SyevjResult ssyevj_block(const Settings& s, bool vectors, bool lower, std::int64_t n, float* A, std::int64_t lda,
                         float* W, const SyevjParams& p, CallReport* report) {
  return ssyevj_block_batched(s, vectors, lower, n, A, lda, W, p, 1, report).front();
}

}  // namespace trn::solver::detail
