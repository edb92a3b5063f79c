// ssyevj: parallel two-sided Jacobi for one fp32 symmetric matrix, resident in SBUF.
//
// Algorithm (Brent & Luk 1985 round-robin ordering; rotation formula Golub & Van Loan, Matrix
// Computations 4th ed., Alg. 8.5.2 sym.schur2). The matrix is kept so that each step's n/2 disjoint
// pairs are the adjacent column pairs (2k, 2k+1). One step:
//   1. diag / superdiag of A broadcast to every partition: affine_select masks (GpSimdE) and a
//      ones-matmul on TensorE (exact: one nonzero term per output);
//   2. angles c_k, s_k on VectorE / ScalarE, computed redundantly on every partition so that they
//      are already broadcast along the free axis: theta = a_qq - a_pp,
//      t = 2 a_pq sgn(theta) / (|theta| + sqrt(theta^2 + 4 a_pq^2)), c = rsqrt(1 + t^2), s = t c;
//   3. B = A J P: every row tile rotates its column pairs (VectorE) and writes them to the positions
//      of the next round-robin pairing P (copies on GpSimdE);
//   4. B^T = P^T J^T A by TensorE transposes (exact for finite data);
//   5. A' = B^T J P = P^T J^T A J P (the same column rotation; A' is symmetric) and V' = V J P.
// After every sweep (n - 1 steps) off(A)_F is formed on ScalarE (square + row sums) and TensorE
// (ones-matmul over partitions) and read by the host to decide whether to stop.
//
// Engines: TensorE (broadcasts, transposes, partition sums), VectorE (rotations, angles),
// ScalarE (sqrt, rsqrt, squares), GpSimdE (masks, permutation copies), DMA (load, store).
// Sizes: n <= kSyevjMaxN; odd n is padded with a zero row/column that never rotates.
// Accuracy: docs/trnsolver.md (eigenvalues within c n u ||A||_2, orthogonality c n^1.5 u).
// Limits: |a_ij| < 2^58 (theta^2 must not overflow fp32); entries below 2^-50 ||A|| may be left
// unrotated (the sqrt argument is floored at 2^-100 to stay in ScalarE's valid range).
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cmath>
#include <numeric>
#include <memory>
#include <stdexcept>
#include <vector>

#include "jacobi_tiles.hpp"
#include "syevj_internal.hpp"
#include "trn/core/scratch.hpp"
#include "trn/tile/matmul.hpp"

namespace trn::solver::detail {
namespace {

struct Kernel {
  NeuronCore& nc;
  const JacobiProblemF32& p;
  std::int64_t n, N, m, P, T;
  std::vector<std::int64_t> r0, pt;  // row tiles
  std::vector<Tile> A, B, V, V2;
  Tile ones, D, S, C, Sn, E, O, tmp, theta, sg, r, work, den, mask, rowsum, scalar_sb;
  Tile ps_bcast, ps_trans, ps_sum;
  tile::PartitionSum squares;  // sum of squares over the row tiles into ps_sum

  Kernel(NeuronCore& nc_, const JacobiProblemF32& p_) : nc(nc_), p(p_) {
    n = p.n;
    N = n + (n % 2);
    m = N / 2;
    P = nc.hw().pmax;
    T = (N + P - 1) / P;
    for (std::int64_t t = 0; t < T; ++t) {
      r0.push_back(t * P);
      pt.push_back(std::min(P, N - t * P));
    }
  }

  // [rows, cols] column-major HBM matrix as a [row, col] view (rows become partitions).
  static HbmTensor colmajor(float* a, std::int64_t lda, std::int64_t rows, std::int64_t cols) {
    return HbmTensor::wrap(a, DType::f32, {rows, cols}, {1, lda});
  }

  // Allocates, loads, and measures ||A||_F and off(A)_F. Returns false when the matrix is done
  // already (non-finite input: info n + 1, W NaN, A untouched).
  bool setup(AllocScope& sb, AllocScope& ps) {
    const auto i32 = [](std::int64_t v) { return static_cast<std::int32_t>(v); };
    const std::int32_t Pi = i32(P);
    for (std::int64_t t = 0; t < T; ++t) {
      A.push_back(sb.alloc(DType::f32, i32(pt[t]), {N}, "A"));
      B.push_back(sb.alloc(DType::f32, i32(pt[t]), {N}, "B"));
      if (p.vectors) {
        V.push_back(sb.alloc(DType::f32, i32(pt[t]), {N}, "V"));
        V2.push_back(sb.alloc(DType::f32, i32(pt[t]), {N}, "V'"));
      }
    }
    ones = sb.alloc(DType::f32, Pi, {std::max(N, P)}, "ones");
    D = sb.alloc(DType::f32, Pi, {N}, "diag(A) broadcast");
    S = sb.alloc(DType::f32, Pi, {N}, "superdiag(A) broadcast");
    // Where VectorE and GpSimdE share the SBUF port (trn1), c and s live in PSUM: VectorE then takes
    // all four products of a rotation, each reading one SBUF and one PSUM operand (rotate_pairs);
    // elsewhere GpSimdE computes two of them in parallel from SBUF. Same bits either way.
    AllocScope& cs = nc.hw().shared_sbuf_port_vector_gpsimd ? ps : sb;
    C = cs.alloc(DType::f32, Pi, {m}, "c");
    Sn = cs.alloc(DType::f32, Pi, {m}, "s");
    E = sb.alloc(DType::f32, Pi, {m}, "rotated even columns");
    O = sb.alloc(DType::f32, Pi, {m}, "rotated odd columns");
    tmp = sb.alloc(DType::f32, Pi, {m}, "product");
    theta = sb.alloc(DType::f32, Pi, {m}, "theta");
    sg = sb.alloc(DType::f32, Pi, {m}, "2 sgn(theta)");
    r = sb.alloc(DType::f32, Pi, {m}, "theta^2 + 4 a_pq^2");
    den = sb.alloc(DType::f32, Pi, {m}, "denominator");
    work = sb.alloc(DType::f32, Pi, {N}, "masked row");
    mask = sb.alloc(DType::f32, Pi, {P}, "diagonal block");
    rowsum = sb.alloc(DType::f32, Pi, {1}, "row sums");
    scalar_sb = sb.alloc(DType::f32, 1, {1}, "scalar");
    ps_bcast = ps.alloc(DType::f32, Pi, {P}, "broadcast");
    ps_trans = ps.alloc(DType::f32, Pi, {std::min<std::int64_t>(N, nc.hw().psum_bank_bytes / 4)}, "transpose");
    ps_sum = ps.alloc(DType::f32, 1, {1}, "sum");
    squares = tile::PartitionSum(nc, ps_sum, ones, tile::PartitionSum::Layout::column);
    nc.memset(ones, 1.0f);

    load_symmetric();
    if (p.vectors) init_identity();
    sum_of_squares_start(false);
    fro = std::sqrt(static_cast<double>(sum_of_squares_read()));
    sum_of_squares_start(true);
    off = std::sqrt(static_cast<double>(sum_of_squares_read()));
    if (p.predict_sweeps < 0 && (!std::isfinite(fro) || !std::isfinite(off))) {
      res.info = static_cast<int>(n) + 1;
      res.residual = std::nan("");
      *p.result = res;
      std::fill(p.w, p.w + n, std::nanf(""));
      return false;
    }
    tol = ssyevj_effective_tolerance(n, p.tolerance);
    return true;
  }

  // After a sweep's off(A)_F (or the initial one): true when the matrix stops here (converged,
  // non-finite or out of sweeps); then its results are stored.
  bool finished() {
    const bool predicting = p.predict_sweeps >= 0;
    const bool converged = predicting ? res.sweeps >= p.predict_sweeps : std::isfinite(off) && off <= tol * fro;
    if (converged || (!predicting && !std::isfinite(off)) || res.sweeps >= p.max_sweeps) {
      res.residual = off;
      res.info = converged ? 0 : static_cast<int>(n) + 1;
      store(res);
      *p.result = res;
      return true;
    }
    return false;
  }
  double fro = 0, off = 0, tol = 0;
  SyevjResult res;

  // Reads the uplo triangle only: the other triangle is replaced by the mirrored elements through
  // affine_select (no arithmetic touches the unread values, so NaN there cannot leak).
  void load_symmetric() {
    const HbmTensor a = colmajor(p.a, p.lda, n, n);
    const bool lower = p.lower;
    for (std::int64_t t = 0; t < T; ++t) {
      nc.memset(B[t], 0.0f);
      const std::int64_t rows = std::min(pt[t], n - r0[t]);
      if (rows > 0) nc.dma_copy(B[t].rows(0, static_cast<std::int32_t>(rows)).cols(0, n), a.tile(r0[t], static_cast<std::int32_t>(rows), 0, n));
      // Keep the stored triangle (diagonal included): lower j <= i, upper j >= i; i = r0 + p.
      const std::array<std::int64_t, 2> step{lower ? -1 : 1, N};
      nc.affine_select(A[t], std::span(&step, 1), lower ? r0[t] : -r0[t], lower ? 1 : -1, AluOp::greater_equal, B[t],
                       0.0f);
    }
    // B <- strictly mirrored part: (A^T) restricted to the other triangle.
    transpose_into(A, B);
    for (std::int64_t t = 0; t < T; ++t) {
      const std::array<std::int64_t, 2> step{lower ? 1 : -1, N};
      // lower: keep j > i of the transpose; upper: keep j < i.
      nc.affine_select(B[t], std::span(&step, 1), lower ? -r0[t] : r0[t], lower ? -1 : 1, AluOp::greater, B[t], 0.0f);
      nc.tensor_tensor(A[t], A[t], B[t], AluOp::add);
    }
  }

  void init_identity() {
    for (std::int64_t t = 0; t < T; ++t) {
      const std::array<std::int64_t, 2> step{1, N};
      nc.affine_select(V[t], std::span(&step, 1), -r0[t], -1, AluOp::equal, ones.rows(0, static_cast<std::int32_t>(pt[t])).cols(0, N), 0.0f);
    }
  }

  // dst = src^T over the whole N x N matrix. VectorE transposes 32 x 32 blocks SBUF -> SBUF bit-exactly
  // (docs/numerics.md "nc_transpose"); on trn1 a TensorE transpose is a matmul with the identity
  // (fp32: four passes) followed by a PSUM evacuation, which costs more on the device and far more
  // on the host. TRNSOLVER_SYEVJ_TENSOR_TRANSPOSE=1 selects the TensorE path (for cost studies).
  void transpose_into(const std::vector<Tile>& src, const std::vector<Tile>& dst) {
    if (tensor_transpose) {
      transpose_tensor(src, dst);
      return;
    }
    for (const auto& [t, i0, u, j0] : transpose_blocks()) transpose_block(src, dst, t, i0, u, j0);
  }
  // The 32 x 32 blocks (row tile t, row i0; row tile u, row j0) of a VectorE transpose, in order.
  std::vector<std::array<std::int64_t, 4>> transpose_blocks() const {
    std::vector<std::array<std::int64_t, 4>> blocks;
    const std::int64_t b = nc.hw().vector_transpose_max;
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t i0 = 0; i0 < pt[t]; i0 += b)
        for (std::int64_t u = 0; u < T; ++u)
          for (std::int64_t j0 = 0; j0 < pt[u]; j0 += b) blocks.push_back({t, i0, u, j0});
    return blocks;
  }
  // dst rows r0[t]+i0.., cols r0[u]+j0..  <-  src rows r0[u]+j0.., cols r0[t]+i0..
  void transpose_block(const std::vector<Tile>& src, const std::vector<Tile>& dst, std::int64_t t, std::int64_t i0,
                       std::int64_t u, std::int64_t j0) {
    const std::int64_t b = nc.hw().vector_transpose_max;
    const auto bi = static_cast<std::int32_t>(std::min(b, pt[t] - i0));
    const auto bj = static_cast<std::int32_t>(std::min(b, pt[u] - j0));
    nc.nc_transpose(dst[t].rows(static_cast<std::int32_t>(i0), bi).cols(r0[u] + j0, bj),
                    src[u].rows(static_cast<std::int32_t>(j0), bj).cols(r0[t] + i0, bi), Engine::vector);
  }
  bool tensor_transpose = false;

  void transpose_tensor(const std::vector<Tile>& src, const std::vector<Tile>& dst) {
    const std::int64_t chunk = ps_trans.size[0];
    for (std::int64_t t = 0; t < T; ++t) {
      const auto rows = static_cast<std::int32_t>(pt[t]);
      for (std::int64_t c0 = 0; c0 < N; c0 += chunk) {
        const std::int64_t cw = std::min(chunk, N - c0);
        for (std::int64_t u = c0 / P; u < T && r0[u] < c0 + cw; ++u)
          nc.nc_transpose(ps_trans.rows(0, rows).cols(r0[u] - c0, pt[u]), src[u].cols(r0[t], pt[t]));
        nc.tensor_copy(dst[t].cols(c0, cw), ps_trans.rows(0, rows).cols(0, cw));
      }
    }
  }

  // Sum over the matrix of a_ij^2 (off-diagonal only if `off`), as fp32 on the engines, into
  // scalar_sb: row tile t's instructions (lockstep-able), then the read.
  void sum_of_squares_tile(bool off_only, std::int64_t t, int part) {
    const auto rows = static_cast<std::int32_t>(pt[t]);
    Tile src = A[t];
    if (off_only) src = work.rows(0, rows);
    const Tile sums = rowsum.rows(0, rows);
    if (part == 0 && off_only) {
      const std::array<std::int64_t, 2> step{1, N};
      nc.affine_select(work.rows(0, rows), std::span(&step, 1), -r0[t], -1, AluOp::not_equal, A[t], 0.0f);
    }
    if (part == 1) nc.activation(work.rows(0, rows), src, ActFunc::square, 0.0f, 1.0f, &sums);
    if (part == 2) squares.add(rowsum.rows(0, rows));
  }
  void sum_of_squares_start(bool off_only) {
    for (std::int64_t t = 0; t < T; ++t)
      for (int part = 0; part < 3; ++part) sum_of_squares_tile(off_only, t, part);
    squares.copy_out(scalar_sb);
  }
  float sum_of_squares_read() {
    float v = 0.0f;
    HbmTensor out = HbmTensor::wrap(&v, DType::f32, {1, 1});
    nc.dma_copy(out.tile(0, 1, 0, 1), scalar_sb);
    return v;
  }

  // D[:, j] = a_jj and S[:, j] = a_{j-1, j} on every partition: row tile t, which (D, S), part.
  void broadcast_diagonal(std::int64_t t, int which, int part) {
    const auto rows = static_cast<std::int32_t>(pt[t]);
    const std::array<std::int64_t, 2> step{1, pt[t]};
    const Tile& dst = which == 0 ? D : S;
    if (part == 0)
      nc.affine_select(mask.rows(0, rows).cols(0, pt[t]), std::span(&step, 1), -which, -1, AluOp::equal,
                       A[t].cols(r0[t], pt[t]), 0.0f);
    if (part == 1)
      tile::PartitionSum(nc, ps_bcast.cols(0, pt[t]), ones, tile::PartitionSum::Layout::broadcast)
          .add(mask.rows(0, rows).cols(0, pt[t]));
    if (part == 2) nc.tensor_copy(dst.cols(r0[t], pt[t]), ps_bcast.cols(0, pt[t]));
  }
  void broadcast_diagonals() {
    for (std::int64_t t = 0; t < T; ++t)
      for (int which = 0; which < 2; ++which)
        for (int part = 0; part < 3; ++part) broadcast_diagonal(t, which, part);
  }

  AngleArgs angle_args() const {
    return AngleArgs{AngleScratch{theta, sg, r, den, tmp}, D.slice(0, 0, m, 2), D.slice(0, 1, m, 2),
                     S.slice(0, 1, m, 2), C, Sn};
  }
  // Y = X J P for one row tile: columns (2k, 2k+1) rotated, then moved to their next positions.
  RotateArgs rotate_args(const Tile& X, const Tile& Y) const { return RotateArgs{X, Y, C, Sn, E, O, tmp, work}; }

  std::int64_t pad_position = -1;

  void store(const SyevjResult&) {
    broadcast_diagonals();
    ScratchVector<float> diag(static_cast<std::size_t>(N));  // traced: the scratch stack
    HbmTensor dh = HbmTensor::wrap(diag.data(), DType::f32, {1, N});
    nc.dma_copy(dh.tile(0, 1, 0, N), D.rows(0, 1));
    // Positions of the n true eigenpairs (the padding column, if any, is dropped).
    std::vector<std::int64_t> pos;
    for (std::int64_t j = 0; j < N; ++j)
      if (j != pad_position) pos.push_back(j);
    if (p.sort) {
      // Host: argsort of n values (comparisons and index moves only).
      std::stable_sort(pos.begin(), pos.end(), [&](std::int64_t x, std::int64_t y) { return diag[x] < diag[y]; });
    }
    if (p.vectors) {
      const HbmTensor out = colmajor(p.a, p.lda, n, n);
      for (std::int64_t k = 0; k < n; ++k)
        for (std::int64_t t = 0; t < T; ++t) {
          const std::int64_t rows = std::min(pt[t], n - r0[t]);
          if (rows <= 0) continue;
          nc.dma_copy(out.tile(r0[t], static_cast<std::int32_t>(rows), k, 1),
                      V[t].rows(0, static_cast<std::int32_t>(rows)).cols(pos[k], 1));
        }
    }
    for (std::int64_t k = 0; k < n; ++k) p.w[k] = diag[pos[k]];
  }
};

// One Jacobi step of every live kernel (same n), each instruction issued for all of them before
// the next, so that their dependency chains overlap on the engines (docs/writing-kernels.md
// "Execution order"); each kernel's own instruction sequence is that of a kernel run alone.
void lockstep_step(NeuronCore& nc, const std::vector<Kernel*>& ks) {
  const Kernel& k0 = *ks.front();
  const auto each = [&](auto&& f) {
    for (Kernel* k : ks) f(*k);
  };
  for (std::int64_t t = 0; t < k0.T; ++t)
    for (int which = 0; which < 2; ++which)
      for (int part = 0; part < 3; ++part) each([&](Kernel& k) { k.broadcast_diagonal(t, which, part); });
  std::vector<AngleArgs> angles;
  each([&](Kernel& k) { angles.push_back(k.angle_args()); });
  jacobi_angles(nc, angles);
  const auto rotate = [&](std::vector<Tile> Kernel::*x, std::vector<Tile> Kernel::*y) {
    for (std::int64_t t = 0; t < k0.T; ++t) {
      std::vector<RotateArgs> args;
      each([&](Kernel& k) { args.push_back(k.rotate_args((k.*x)[static_cast<std::size_t>(t)], (k.*y)[static_cast<std::size_t>(t)])); });
      rotate_pairs(nc, args, k0.m);
    }
  };
  rotate(&Kernel::A, &Kernel::B);  // B = A J P
  if (k0.tensor_transpose)
    each([&](Kernel& k) { k.transpose_tensor(k.B, k.A); });
  else
    for (const auto& blk : k0.transpose_blocks())  // A <- P^T J^T A
      each([&](Kernel& k) { k.transpose_block(k.B, k.A, blk[0], blk[1], blk[2], blk[3]); });
  rotate(&Kernel::A, &Kernel::B);  // B = P^T J^T A J P
  each([&](Kernel& k) { std::swap(k.A, k.B); });
  if (k0.p.vectors) {
    rotate(&Kernel::V, &Kernel::V2);
    each([&](Kernel& k) { std::swap(k.V, k.V2); });
  }
  // Position bookkeeping for the padding column (host integers).
  each([&](Kernel& k) {
    if (k.pad_position >= 0) k.pad_position = round_robin_next(k.pad_position, k.m);
  });
}

// off(A)_F of every live kernel, in lockstep.
void lockstep_off(const std::vector<Kernel*>& ks) {
  const Kernel& k0 = *ks.front();
  for (std::int64_t t = 0; t < k0.T; ++t)
    for (int part = 0; part < 3; ++part)
      for (Kernel* k : ks) k->sum_of_squares_tile(true, t, part);
  for (Kernel* k : ks) k->squares.copy_out(k->scalar_sb);
  for (Kernel* k : ks) k->off = std::sqrt(static_cast<double>(k->sum_of_squares_read()));
}

}  // namespace

std::int64_t syevj_lockstep_width(std::int64_t n) { return n + (n % 2) <= 128 ? 8 : 1; }

void syevj_f32_kernel(NeuronCore& nc, std::span<const JacobiProblemF32> problems) {
  AllocScope sb(nc.sbuf()), ps(nc.psum());
  std::vector<std::unique_ptr<Kernel>> kernels;
  std::vector<Kernel*> live;
  for (const JacobiProblemF32& p : problems) {
    kernels.push_back(std::make_unique<Kernel>(nc, p));
    Kernel& k = *kernels.back();
    k.pad_position = (p.n % 2 != 0) ? p.n : -1;
    k.tensor_transpose = p.tensor_transpose;
    if (k.setup(sb, ps) && !k.finished()) live.push_back(&k);
  }
  while (!live.empty()) {
    for (std::int64_t step = 0; step < live.front()->N - 1; ++step) lockstep_step(nc, live);
    for (Kernel* k : live) ++k->res.sweeps;
    lockstep_off(live);
    std::erase_if(live, [](Kernel* k) { return k->finished(); });
  }
}

}  // namespace trn::solver::detail
