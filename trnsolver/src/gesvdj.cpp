// gesvdj: one-sided Jacobi SVD (Hestenes 1958; Demmel & Veselic, SIMAX 13(4), 1992; Drmac &
// Veselic, SIMAX 29(4), 2008). The fp32 tile kernel and the fp64 block Jacobi (Ozaki DGEMM
// rotations, jacobi_f64.hpp) share the drivers: both produce the rotated columns (normalised), their norms and the accumulated rotations in
// round-robin position order; the drivers order them (host index moves), complete U where needed
// and write S, U, V.
//
// sgesvdj_kernel: one fp32 matrix X (M x K, M >= K: A or A^T), resident in SBUF.
//   Layout: X as row tiles [<= 128 rows (partitions), N = K + K % 2 columns], V (K x N) likewise;
//           each step's K/2 disjoint pairs are the adjacent column pairs (2k, 2k + 1).
//   Step:   1. alpha_k = ||x_2k||^2, beta_k = ||x_2k+1||^2, gamma_k = x_2k^T x_2k+1: elementwise
//              products of the column pairs on VectorE, summed over the partitions by a TensorE
//              matmul with a ones stationary (fp32 PSUM; the sums land broadcast on every partition);
//           2. the sweep's orthogonality measure max_k gamma_k^2 / (alpha_k beta_k) on VectorE;
//           3. (c_k, s_k) diagonalising [[alpha, gamma], [gamma, beta]] (jacobi_angles: VectorE,
//              ScalarE) -- the rotation that makes the pair orthogonal;
//           4. X' = X J P and V' = V J P (rotate_pairs: VectorE / GpSimdE).
//   After every sweep (K - 1 or K steps) the host reads one scalar (the sweep's measure) and stops
//   when sqrt(measure) <= max(tol, 4 sqrt(M) u32).
//   Finish: column norms (ScalarE squares, TensorE partition sums, ScalarE sqrt), U = X / norms on
//           VectorE; DMA out.
//   Engines: TensorE, VectorE, ScalarE, GpSimdE, DMA. Sizes: M, K <= kGesvdjMaxDim.
//   Accuracy: docs/trnsolver.md "gesvdj". Scaling: the driver passes A scaled by a power of two to
//   max |a_ij| in [2^19, 2^20) (exact), so the squares stay in range for any finite fp32 input;
//   column pairs below 2^-35 max |a_ij| are not measured (they count as zero columns).
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <span>
#include <type_traits>

#include "jacobi_f64.hpp"
#include "jacobi_tiles.hpp"
#include "syevj_internal.hpp"
#include "trn/blas/level12.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scratch.hpp"
#include "trn/solver/solver.hpp"
#include "trn/tile/matmul.hpp"

namespace trn::solver {
namespace {

using detail::AngleScratch;
using detail::jacobi_angles;
using detail::rotate_pairs;

void require(bool ok, const char* what) {
  if (!ok) throw UsageError("trnsolver", "argument", what);
}

// The Jacobi run of one tall matrix, in round-robin position order.
template <class T>
struct JacobiColumns {
  std::int64_t N = 0, pad = -1;  // padded column count; position of the zero padding column (-1: none)
  // Written by the fp32 kernel's DMAs (traced as HBM): the scratch stack (docs/cost-model.md section 2).
  ScratchVector<T> xn;           // M x N, column-major: the rotated columns divided by their norms
  ScratchVector<T> norms;        // N column norms
  ScratchVector<T> v;            // K x N accumulated rotations (when vectors)
  GesvdjResult res;
};

// ---- fp32 tile kernel -----------------------------------------------------------------------------

struct Kernel {
  NeuronCore& nc;
  HbmTensor a;  // M x K view of A (or A^T)
  std::int64_t M, K, N, mp, P, T, TV;
  bool vectors;
  double tol;
  int max_sweeps;
  int exponent = 0;  // X is held as A 2^-exponent (exact): max |a_ij| in [2^19, 2^20)
  JacobiColumns<float>& out;
  std::vector<std::int64_t> r0, pt, v0, pv;
  std::vector<Tile> X, Y, V, V2;
  Tile ones, alpha, beta, gamma, ratio, C, Sn, E, O, work, prod, rmax, smax, sig, scalar_sb, ps;
  AngleScratch as;
  std::int64_t chunk = 0;

  Kernel(NeuronCore& nc_, HbmTensor a_, std::int64_t M_, std::int64_t K_, bool vec, double tol_, int sweeps,
         JacobiColumns<float>& o)
      : nc(nc_), a(std::move(a_)), M(M_), K(K_), vectors(vec), tol(tol_), max_sweeps(sweeps), out(o) {
    N = K + K % 2;
    mp = N / 2;
    P = nc.hw().pmax;
    T = (M + P - 1) / P;
    TV = (K + P - 1) / P;
    for (std::int64_t t = 0; t < T; ++t) {
      r0.push_back(t * P);
      pt.push_back(std::min(P, M - t * P));
    }
    for (std::int64_t t = 0; t < TV; ++t) {
      v0.push_back(t * P);
      pv.push_back(std::min(P, K - t * P));
    }
  }

  // Sums over the partitions (all row tiles of X) of f(row tile, first pair, pairs) -> [rows, cw],
  // broadcast to every partition of dst [P, width] in chunks of one PSUM bank.
  template <class F>
  void partition_sum(const Tile& dst, std::int64_t width, const F& f) {
    for (std::int64_t c0 = 0; c0 < width; c0 += chunk) {
      const std::int64_t cw = std::min(chunk, width - c0);
      tile::PartitionSum sum(nc, ps.cols(0, cw), ones, tile::PartitionSum::Layout::broadcast);
      for (std::int64_t t = 0; t < T; ++t) {
        const Tile pr = prod.rows(0, static_cast<std::int32_t>(pt[t])).cols(0, cw);
        f(X[t], c0, cw, pr);
        sum.add(pr);
      }
      sum.copy_out(dst.cols(c0, cw));
    }
  }

  void run(AllocScope& sb, AllocScope& pm) {
    setup(sb, pm);
    if (!start()) return;
    while (sweeping()) {
      begin_sweep();
      for (std::int64_t step = 0; step < N - 1; ++step) jacobi_step();
      end_sweep();
    }
    end_run();
  }

  // The phases of run(), which the batched driver (jacobi_f32_group) interleaves over several
  // matrices: each matrix's own instructions, in the same order, on its own tiles.
  bool converged = false;
  double measure = 0;
  float* scalar_slot = nullptr;  // where read_scalar lands (nullptr: a local of read_scalar)

  void setup(AllocScope& sb, AllocScope& pm) {
    alloc_tiles(sb, pm);
    load_inputs();
  }

  // Kernel::setup's allocations (the packed driver fills the tiles its own way).
  void alloc_tiles(AllocScope& sb, AllocScope& pm) {
    const auto i32 = [](std::int64_t v) { return static_cast<std::int32_t>(v); };
    const std::int32_t Pi = i32(P);
    chunk = std::min<std::int64_t>(nc.hw().psum_bank_bytes / 4, std::max(N, mp));
    for (std::int64_t t = 0; t < T; ++t) {
      X.push_back(sb.alloc(DType::f32, i32(pt[t]), {N}, "X"));
      Y.push_back(sb.alloc(DType::f32, i32(pt[t]), {N}, "X'"));
    }
    if (vectors)
      for (std::int64_t t = 0; t < TV; ++t) {
        V.push_back(sb.alloc(DType::f32, i32(pv[t]), {N}, "V"));
        V2.push_back(sb.alloc(DType::f32, i32(pv[t]), {N}, "V'"));
      }
    ones = sb.alloc(DType::f32, Pi, {std::max(N, P)}, "ones");
    for (Tile* t : {&alpha, &beta, &gamma, &ratio, &C, &Sn, &E, &O, &as.theta, &as.sg, &as.r, &as.den, &as.tmp})
      *t = sb.alloc(DType::f32, Pi, {mp}, "pair values");
    work = sb.alloc(DType::f32, Pi, {N}, "work");
    prod = sb.alloc(DType::f32, Pi, {std::max(N, mp)}, "products");
    sig = sb.alloc(DType::f32, Pi, {N}, "column norms");
    rmax = sb.alloc(DType::f32, Pi, {1}, "step max");
    smax = sb.alloc(DType::f32, Pi, {1}, "sweep max");
    scalar_sb = sb.alloc(DType::f32, 1, {1}, "scalar");
    ps = pm.alloc(DType::f32, Pi, {chunk}, "partition sums");
  }

  void load_inputs() {
    const auto i32 = [](std::int64_t v) { return static_cast<std::int32_t>(v); };
    nc.memset(ones, 1.0f);

    for (std::int64_t t = 0; t < T; ++t) {
      nc.memset(X[t], 0.0f);  // the padding column (odd K) is zero and never rotates
      nc.dma_copy(X[t].cols(0, K), a.tile(r0[t], i32(pt[t]), 0, K));
      if (exponent != 0) nc.tensor_scalar(X[t], X[t], AluOp::multiply, std::ldexp(1.0f, -exponent));
    }
    if (vectors)
      for (std::int64_t t = 0; t < TV; ++t) {
        const std::array<std::int64_t, 2> step{1, N};  // identity: column == row
        nc.affine_select(V[t], std::span(&step, 1), -v0[t], -1, AluOp::equal, ones.rows(0, i32(pv[t])).cols(0, N), 0.0f);
      }
  }

  // Non-finite input: a NaN would make every measure NaN; report it instead of sweeping (false).
  bool start() {
    GesvdjResult& res = out.res;
    partition_sum(sig, N, [&](const Tile& x, std::int64_t c0, std::int64_t cw, const Tile& pr) {
      nc.activation(pr, x.rows(0, pr.partitions).cols(c0, cw), ActFunc::square);
    });
    nc.tensor_reduce(rmax, sig, AluOp::add);
    if (!std::isfinite(read_scalar(rmax))) {
      res.info = static_cast<int>(K) + 1;
      res.residual = std::nan("");
      out.norms.assign(static_cast<std::size_t>(N), std::nanf(""));
      return false;
    }
    return true;
  }
  bool sweeping() const { return !converged && out.res.sweeps < max_sweeps; }
  void begin_sweep() { nc.memset(smax, 0.0f); }
  void end_sweep() {
    ++out.res.sweeps;
    measure = std::sqrt(static_cast<double>(read_scalar(smax)));
    converged = measure <= tol;
  }
  void end_run() {
    out.res.residual = measure;
    out.res.info = converged ? 0 : static_cast<int>(K) + 1;
    finish();
  }

  float read_scalar(const Tile& t) {
    nc.tensor_copy(scalar_sb, t.rows(0, 1).cols(0, 1));
    float local = 0.0f;
    float* v = scalar_slot != nullptr ? scalar_slot : &local;
    *v = 0.0f;
    HbmTensor h = HbmTensor::wrap(v, DType::f32, {1, 1});
    nc.dma_copy(h.tile(0, 1, 0, 1), scalar_sb);
    return *v;
  }

  // The elementwise products of the column pairs' sums: x_2k^2 (which 0: alpha), x_2k+1^2 (1: beta),
  // x_2k x_2k+1 (2: gamma), pairs c0 .. c0 + cw of row tile x into pr.
  const Tile& pair_sums(int which) const { return which == 0 ? alpha : which == 1 ? beta : gamma; }
  void pair_product(int which, const Tile& x, std::int64_t c0, std::int64_t cw, const Tile& pr) {
    const Tile xe = x.slice(0, 2 * c0, cw, 2), xo = x.slice(0, 2 * c0 + 1, cw, 2);
    nc.tensor_tensor(pr, which == 1 ? xo : xe, which == 0 ? xe : xo, AluOp::multiply);
  }
  // ratio = gamma^2 / (alpha beta + 2^-60) and the sweep's running maximum (see jacobi_step).
  static constexpr int kMeasureInstructions = 6;
  void measure_instruction(int i) {
    switch (i) {
      case 0: nc.tensor_tensor(ratio, gamma, gamma, AluOp::multiply); break;
      case 1: nc.tensor_tensor(as.tmp, alpha, beta, AluOp::multiply); break;
      case 2: nc.tensor_scalar(as.tmp, as.tmp, AluOp::add, std::ldexp(1.0f, -60)); break;
      case 3: nc.tensor_tensor(ratio, ratio, as.tmp, AluOp::divide); break;
      case 4: nc.tensor_reduce(rmax, ratio, AluOp::maximum); break;
      default: nc.tensor_tensor(smax, smax, rmax, AluOp::maximum); break;
    }
  }

  void jacobi_step() {
    for (int which = 0; which < 3; ++which)
      partition_sum(pair_sums(which), mp, [&](const Tile& x, std::int64_t c0, std::int64_t cw, const Tile& pr) {
        pair_product(which, x, c0, cw, pr);
      });
    // gamma^2 / (alpha beta + 2^-60): the pair's squared cosine. With max |a_ij| in [2^19, 2^20) the
    // floor ignores only pairs whose geometric-mean column norm is below 2^-15 = 2^-35 max |a_ij|
    // (far below rounding noise, ~2^-24 sqrt(M) max |a_ij|: those columns count as zero, and the
    // angle formula's 2^-100 sqrt floor would not rotate them anyway).
    for (int i = 0; i < kMeasureInstructions; ++i) measure_instruction(i);
    jacobi_angles(nc, as, alpha, beta, gamma, C, Sn);
    for (std::int64_t t = 0; t < T; ++t) rotate_pairs(nc, X[t], Y[t], C, Sn, E, O, as.tmp, work, mp);
    std::swap(X, Y);
    if (vectors) {
      for (std::int64_t t = 0; t < TV; ++t) rotate_pairs(nc, V[t], V2[t], C, Sn, E, O, as.tmp, work, mp);
      std::swap(V, V2);
    }
    if (out.pad >= 0) out.pad = detail::round_robin_next(out.pad, mp);
  }

  void finish() {
    partition_sum(sig, N, [&](const Tile& x, std::int64_t c0, std::int64_t cw, const Tile& pr) {
      nc.activation(pr, x.rows(0, pr.partitions).cols(c0, cw), ActFunc::square);
    });
    // sqrt on ScalarE is valid on [2^-116, 2^118] (docs/numerics.md): the argument is floored at
    // 2^-100 and a zero column's norm restored to exactly 0 by a 0/1 mask (VectorE). (Found by
    // fuzz_trnsolver: identical columns rotate into an exact zero column, whose sqrt(0) was NaN.)
    nc.tensor_scalar(work, sig, AluOp::greater, 0.0f);
    nc.activation(sig, sig, ActFunc::sqrt, std::ldexp(1.0f, -100));
    nc.tensor_tensor(sig, sig, work, AluOp::multiply);
    out.xn.assign(static_cast<std::size_t>(M * N), 0.0f);
    const HbmTensor xh = HbmTensor::wrap(out.xn.data(), DType::f32, {M, N}, {1, M});
    for (std::int64_t t = 0; t < T; ++t) {
      const auto rows = static_cast<std::int32_t>(pt[t]);
      nc.tensor_tensor(Y[t], X[t], sig.rows(0, rows), AluOp::divide);  // zero columns: 0/0, replaced by the driver
      nc.dma_copy(xh.tile(r0[t], rows, 0, N), Y[t]);
    }
    if (exponent != 0) nc.tensor_scalar(sig, sig, AluOp::multiply, std::ldexp(1.0f, exponent));  // exact
    out.norms.assign(static_cast<std::size_t>(N), 0.0f);
    HbmTensor nh = HbmTensor::wrap(out.norms.data(), DType::f32, {1, N});
    nc.dma_copy(nh.tile(0, 1, 0, N), sig.rows(0, 1));
    if (!vectors) return;
    out.v.assign(static_cast<std::size_t>(K * N), 0.0f);
    const HbmTensor vh = HbmTensor::wrap(out.v.data(), DType::f32, {K, N}, {1, K});
    for (std::int64_t t = 0; t < TV; ++t) nc.dma_copy(vh.tile(v0[t], static_cast<std::int32_t>(pv[t]), 0, N), V[t]);
  }
};

// One fp32 matrix (M x K view `a`) through the tile kernel.
JacobiColumns<float> jacobi_f32(const Settings& s, const HbmTensor& a, std::int64_t M, std::int64_t K, bool vectors,
                                const GesvdjParams& p, int exponent, TraceParts* trace) {
  JacobiColumns<float> out;
  out.N = K + K % 2;
  out.pad = K % 2 != 0 ? K : -1;
  LaunchConfig lc = s.launch_config({1, 1, 1});
  lc.core.execute = true;  // the host reads one convergence scalar per sweep
  const double tol = sgesvdj_effective_tolerance(M, p.tolerance);
  LaunchResult r = launch(lc, [&](NeuronCore& nc) {
    Kernel k(nc, a, M, K, vectors, tol, p.max_sweeps, out);
    k.exponent = exponent;
    AllocScope sb(nc.sbuf()), pm(nc.psum());
    k.run(sb, pm);
  });
  if (trace != nullptr) trace->add(std::move(r.trace));
  return out;
}

// Several fp32 matrices of one shape (M x K views in[i].a, strides rs, cs) through the tile kernel in
// one launch, their Jacobi steps interleaved instruction by instruction (gesvdjBatched).
// Algorithm: each matrix runs exactly jacobi_f32's instructions (Kernel::run's phases: setup, the
//   finiteness check, its own sweeps and convergence reads, finish) on its own tiles, so its results
//   are those of jacobi_f32, bit for bit; only the order in which the matrices' instructions reach
//   the engines changes: within a step, each instruction is issued for every matrix before the next
//   (jacobi_step_group). One matrix's step is a chain of short dependent instructions (the partition
//   sums, the angles, the rotations), each waiting on the one before on another engine, and every
//   engine runs its stream in order: the other matrices' copies of an instruction fill those waits.
//   A matrix whose sweeps converge stops (its later steps are not issued), as it would alone.
// Engines: those of jacobi_f32. Accuracy: jacobi_f32's (same bits).
// Limits: jacobi_group_size matrices per launch (SBUF: every matrix's tiles at once; PSUM: one
//   bank of partition sums each).
// One Jacobi step of several kernels of one shape, interleaved instruction by instruction: each
// instruction of Kernel::jacobi_step is issued for every kernel before the next one (the pair sums'
// products, matmuls and PSUM copies; the measure; jacobi_angles and rotate_pairs on spans of
// problems, as syevj's lockstep kernel). Per kernel the instructions and their order are
// jacobi_step's, so are the bits.
void jacobi_step_group(std::span<Kernel* const> ks) {
  if (ks.size() == 1) {
    ks[0]->jacobi_step();
    return;
  }
  NeuronCore& nc = ks[0]->nc;
  const Kernel& k0 = *ks[0];
  std::vector<tile::PartitionSum> sums(ks.size());
  for (int which = 0; which < 3; ++which)
    for (std::int64_t c0 = 0; c0 < k0.mp; c0 += k0.chunk) {  // Kernel::partition_sum over the pairs
      const std::int64_t cw = std::min(k0.chunk, k0.mp - c0);
      for (std::size_t i = 0; i < ks.size(); ++i)
        sums[i] = tile::PartitionSum(nc, ks[i]->ps.cols(0, cw), ks[i]->ones, tile::PartitionSum::Layout::broadcast);
      for (std::int64_t t = 0; t < k0.T; ++t) {  // (a pack of fewer matrices has fewer rows)
        const auto rows = [&](const Kernel* k) { return static_cast<std::int32_t>(k->pt[static_cast<std::size_t>(t)]); };
        for (Kernel* k : ks) k->pair_product(which, k->X[t], c0, cw, k->prod.rows(0, rows(k)).cols(0, cw));
        for (std::size_t i = 0; i < ks.size(); ++i) sums[i].add(ks[i]->prod.rows(0, rows(ks[i])).cols(0, cw));
      }
      for (std::size_t i = 0; i < ks.size(); ++i) sums[i].copy_out(ks[i]->pair_sums(which).cols(c0, cw));
    }
  for (int j = 0; j < Kernel::kMeasureInstructions; ++j)
    for (Kernel* k : ks) k->measure_instruction(j);
  std::vector<detail::AngleArgs> angles;
  for (Kernel* k : ks) angles.push_back({k->as, k->alpha, k->beta, k->gamma, k->C, k->Sn});
  jacobi_angles(nc, std::span<const detail::AngleArgs>(angles));
  std::vector<detail::RotateArgs> rot;
  for (std::int64_t t = 0; t < k0.T; ++t) {
    rot.clear();
    for (Kernel* k : ks) rot.push_back({k->X[t], k->Y[t], k->C, k->Sn, k->E, k->O, k->as.tmp, k->work});
    rotate_pairs(nc, std::span<const detail::RotateArgs>(rot), k0.mp);
  }
  for (Kernel* k : ks) std::swap(k->X, k->Y);
  if (k0.vectors) {
    for (std::int64_t t = 0; t < k0.TV; ++t) {
      rot.clear();
      for (Kernel* k : ks) rot.push_back({k->V[t], k->V2[t], k->C, k->Sn, k->E, k->O, k->as.tmp, k->work});
      rotate_pairs(nc, std::span<const detail::RotateArgs>(rot), k0.mp);
    }
    for (Kernel* k : ks) std::swap(k->V, k->V2);
  }
  for (Kernel* k : ks)
    if (k->out.pad >= 0) k->out.pad = detail::round_robin_next(k->out.pad, k->mp);
}

struct JacobiInput {
  const float* a;
  int exponent;
};

std::int64_t jacobi_group_size(const HardwareSpec& hw, std::int64_t M, std::int64_t K, bool vectors) {
  const std::int64_t P = hw.pmax, N = K + K % 2, mp = N / 2, T = (M + P - 1) / P, TV = (K + P - 1) / P;
  // Kernel::setup's tiles, floats per partition (X, X', V, V', ones, 13 pair values, work, products,
  // norms, the maxima and the scalar).
  const std::int64_t floats = 2 * N * T + (vectors ? 2 * N * TV : 0) + std::max(N, P) + 13 * mp + 2 * N +
                              std::max(N, mp) + 3;
  const std::int64_t by_sbuf = hw.sbuf_partition_bytes / 2 / (4 * floats);
  const std::int64_t by_psum = hw.psum_partition_bytes / hw.psum_bank_bytes;
  return std::clamp<std::int64_t>(std::min(by_sbuf, by_psum), 1, 8);
}

// Matrices of at most 64 rows share the 128 partitions: the slot height (32 or 64: a tile of that
// many partitions must start at a multiple of it) or 0 when a matrix needs a partition range of its own.
std::int64_t jacobi_pack_slot(const HardwareSpec& hw, std::int64_t M) {
  if (M <= 32 && hw.pmax >= 64) return 32;
  if (M <= 64 && hw.pmax >= 128) return 64;
  return 0;
}

// G matrices' Jacobi columns of K columns each, padded to an even count N (pad: the zero column K
// when K is odd, else -1), as both batched kernels start them.
std::vector<JacobiColumns<float>> padded_jacobi_columns(std::size_t G, std::int64_t K) {
  std::vector<JacobiColumns<float>> out(G);
  for (JacobiColumns<float>& o : out) {
    o.N = K + K % 2;
    o.pad = K % 2 != 0 ? K : -1;
  }
  return out;
}

// Several fp32 matrices of at most 64 rows through the tile kernel, packed hw.pmax / slot per 128
// partitions (jacobi_pack_slot), the packs' steps interleaved as jacobi_step_group (gesvdjBatched).
// Algorithm: matrix b of a pack occupies partitions [b slot, b slot + M) of the pack's X (and
//   [b slot, b slot + K) of V); every other partition of X holds +0 (memset; a non-finite matrix's
//   rows are cleared after its check). One Kernel on the pack's partitions runs Kernel::jacobi_step
//   (elementwise instructions on all rows: the same fp32 operations on each element as the single
//   call's), except that its ones operand is block diagonal -- ones[k][m] = 1 iff k and m are in the
//   same slot and k is one of that matrix's M rows -- so the TensorE partition sums give each row
//   its own matrix's sums. Bits: PSUM[m] is the fma chain from +0 over k = 0 .. 127 in increasing k
//   (matmul_kernels.hpp); the terms of other slots' rows are fma(0, x, acc) with x finite (rotations
//   of finite values, or +0), which returns acc exactly (0 x = +-0, and acc + -0 = acc since acc is
//   never -0: it starts at +0, and an fp32 sum is -0 only when both operands are), so the chain is
//   the single call's over its own M rows. Per matrix, the finiteness check (one matmul over its own
//   rows only: a NaN must not reach the other slots), the sweeps' convergence reads (its own slot's
//   running maximum, by DMA) and the finish (column norms, U = X / norms, DMA out) are its own. A
//   matrix that stops (converged or out of sweeps) is finished at once, before the pack's next step,
//   so what it leaves is its state at its last sweep, exactly as the single call's; the pack's later
//   steps keep rotating its rows (finite values that no other slot reads), which is the per-matrix
//   freeze without a select per step.
// Engines: those of jacobi_f32. Accuracy: jacobi_f32's (same bits; test BatchedGroupsMatchSingleCalls).
// Limits: M <= 64; packs per launch as jacobi_group_size.
std::vector<JacobiColumns<float>> jacobi_f32_packed(const Settings& s, const std::vector<JacobiInput>& in,
                                                    std::int64_t rs, std::int64_t cs, std::int64_t M, std::int64_t K,
                                                    bool vectors, const GesvdjParams& p, TraceParts* trace) {
  const std::size_t G = in.size();
  std::vector<JacobiColumns<float>> out = padded_jacobi_columns(G, K);
  const HardwareSpec& hw = hardware_spec(s.target);
  const std::int64_t slot = jacobi_pack_slot(hw, M), per_pack = hw.pmax / slot;
  const std::size_t packs = (G + static_cast<std::size_t>(per_pack) - 1) / static_cast<std::size_t>(per_pack);
  ScratchVector<float> words(G, 0.0f);  // each matrix's convergence scalar: its own host word
  LaunchConfig lc = s.launch_config({1, 1, 1});
  lc.core.execute = true;  // the host reads one convergence scalar per matrix and sweep
  const double tol = sgesvdj_effective_tolerance(M, p.tolerance);
  struct Member {
    std::size_t pack = 0;
    std::int32_t row = 0;  // first partition of its slot
    bool live = false, converged = false, done = false;
    double measure = 0;
  };
  std::vector<Member> mem(G);
  std::vector<JacobiColumns<float>> pack_out(packs);  // the pack kernels' own (unused) results
  LaunchResult r = launch(lc, [&](NeuronCore& nc) {
    AllocScope sb(nc.sbuf()), pm(nc.psum());
    const auto i32 = [](std::int64_t v) { return static_cast<std::int32_t>(v); };
    std::vector<std::unique_ptr<Kernel>> ks;
    for (std::size_t k = 0; k < packs; ++k) {
      const std::int64_t members = std::min<std::int64_t>(per_pack, static_cast<std::int64_t>(G - k * per_pack));
      const std::int64_t rows = members * slot;
      ks.push_back(std::make_unique<Kernel>(nc, HbmTensor{}, rows, K, vectors, tol, p.max_sweeps, pack_out[k]));
      Kernel& kp = *ks.back();
      kp.pv = {rows};  // V in the same slots as X
      kp.alloc_tiles(sb, pm);
      nc.memset(kp.ones, 0.0f);
      nc.memset(kp.X[0], 0.0f);
      if (vectors) nc.memset(kp.V[0], 0.0f);
      for (std::int64_t b = 0; b < members; ++b) {
        const std::size_t i = k * static_cast<std::size_t>(per_pack) + static_cast<std::size_t>(b);
        mem[i].pack = k;
        mem[i].row = i32(b * slot);
        nc.memset(kp.ones.rows(mem[i].row, i32(M)).cols(b * slot, slot), 1.0f);
      }
    }
    // Per matrix: Kernel::load_inputs and Kernel::start on its slot.
    for (std::size_t i = 0; i < G; ++i) {
      Kernel& kp = *ks[mem[i].pack];
      const std::int32_t r0 = mem[i].row;
      const Tile x = kp.X[0].rows(r0, i32(M));
      const HbmTensor a = HbmTensor::wrap(const_cast<float*>(in[i].a), DType::f32, {M, K}, {rs, cs});
      nc.dma_copy(x.cols(0, K), a.tile(0, i32(M), 0, K));
      if (in[i].exponent != 0) nc.tensor_scalar(x, x, AluOp::multiply, std::ldexp(1.0f, -in[i].exponent));
      if (vectors) {
        const std::array<std::int64_t, 2> step{1, kp.N};  // identity: column == row
        nc.affine_select(kp.V[0].rows(r0, i32(K)), std::span(&step, 1), 0, -1, AluOp::equal,
                         kp.ones.rows(r0, i32(K)).cols(r0, kp.N), 0.0f);
      }
    }
    for (std::size_t i = 0; i < G; ++i) {
      Kernel& kp = *ks[mem[i].pack];
      const std::int32_t r0 = mem[i].row, sl = i32(slot);
      const Tile sig = kp.sig.rows(r0, sl);
      for (std::int64_t c0 = 0; c0 < kp.N; c0 += kp.chunk) {
        const std::int64_t cw = std::min(kp.chunk, kp.N - c0);
        tile::PartitionSum sum(nc, kp.ps.rows(r0, sl).cols(0, cw), kp.ones.rows(r0, i32(M)).cols(r0, slot),
                               tile::PartitionSum::Layout::broadcast);
        const Tile pr = kp.prod.rows(r0, i32(M)).cols(0, cw);
        nc.activation(pr, kp.X[0].rows(r0, i32(M)).cols(c0, cw), ActFunc::square);
        sum.add(pr);
        sum.copy_out(sig.cols(c0, cw));
      }
      nc.tensor_reduce(kp.rmax.rows(r0, sl), sig, AluOp::add);
      nc.dma_copy(HbmTensor::wrap(&words[i], DType::f32, {1, 1}).tile(0, 1, 0, 1), kp.rmax.rows(r0, 1));
      mem[i].live = std::isfinite(words[i]);
      if (!mem[i].live) {
        out[i].res.info = static_cast<int>(K) + 1;
        out[i].res.residual = std::nan("");
        out[i].norms.assign(static_cast<std::size_t>(kp.N), std::nanf(""));
        nc.memset(kp.X[0].rows(r0, sl), 0.0f);  // no NaN reaches the other slots' sums
      }
    }
    const auto sweeping = [&](std::size_t i) {
      return mem[i].live && !mem[i].done && !mem[i].converged && out[i].res.sweeps < p.max_sweeps;
    };
    // Kernel::end_run and Kernel::finish of the pack's members in `who`: the norms of every slot (the
    // same instructions as the single call's, on all rows), each member's rows out.
    const auto finish = [&](std::size_t k, const std::vector<std::size_t>& who) {
      Kernel& kp = *ks[k];
      kp.partition_sum(kp.sig, kp.N, [&](const Tile& x, std::int64_t c0, std::int64_t cw, const Tile& pr) {
        nc.activation(pr, x.rows(0, pr.partitions).cols(c0, cw), ActFunc::square);
      });
      nc.tensor_scalar(kp.work, kp.sig, AluOp::greater, 0.0f);
      nc.activation(kp.sig, kp.sig, ActFunc::sqrt, std::ldexp(1.0f, -100));
      nc.tensor_tensor(kp.sig, kp.sig, kp.work, AluOp::multiply);
      const auto rows = static_cast<std::int32_t>(kp.pt[0]);
      nc.tensor_tensor(kp.Y[0], kp.X[0], kp.sig.rows(0, rows), AluOp::divide);  // zero columns: 0/0, replaced by the driver
      for (const std::size_t i : who) {
        JacobiColumns<float>& o = out[i];
        const std::int32_t r0 = mem[i].row;
        o.res.residual = mem[i].measure;
        o.res.info = mem[i].converged ? 0 : static_cast<int>(K) + 1;
        o.xn.assign(static_cast<std::size_t>(M * kp.N), 0.0f);
        const HbmTensor xh = HbmTensor::wrap(o.xn.data(), DType::f32, {M, kp.N}, {1, M});
        nc.dma_copy(xh.tile(0, i32(M), 0, kp.N), kp.Y[0].rows(r0, i32(M)));
        const Tile sig = kp.sig.rows(r0, i32(slot));
        if (in[i].exponent != 0) nc.tensor_scalar(sig, sig, AluOp::multiply, std::ldexp(1.0f, in[i].exponent));  // exact
        o.norms.assign(static_cast<std::size_t>(kp.N), 0.0f);
        HbmTensor nh = HbmTensor::wrap(o.norms.data(), DType::f32, {1, kp.N});
        nc.dma_copy(nh.tile(0, 1, 0, kp.N), sig.rows(0, 1));
        mem[i].done = true;
        if (!vectors) continue;
        o.v.assign(static_cast<std::size_t>(K * kp.N), 0.0f);
        const HbmTensor vh = HbmTensor::wrap(o.v.data(), DType::f32, {K, kp.N}, {1, K});
        nc.dma_copy(vh.tile(0, i32(K), 0, kp.N), kp.V[0].rows(r0, i32(K)));
      }
    };
    std::vector<Kernel*> active;
    std::vector<std::size_t> stopping;
    for (;;) {
      for (std::size_t k = 0; k < packs; ++k) {  // the members that stopped: their results now
        stopping.clear();
        for (std::size_t i = 0; i < G; ++i)
          if (mem[i].pack == k && mem[i].live && !mem[i].done && !sweeping(i)) stopping.push_back(i);
        if (!stopping.empty()) finish(k, stopping);
      }
      active.clear();
      for (std::size_t k = 0; k < packs; ++k)
        for (std::size_t i = 0; i < G; ++i)
          if (mem[i].pack == k && sweeping(i)) {
            active.push_back(ks[k].get());
            break;
          }
      if (active.empty()) break;
      for (Kernel* kp : active) kp->begin_sweep();
      for (std::int64_t step = 0; step < out[0].N - 1; ++step) {
        jacobi_step_group(active);
        for (std::size_t i = 0; i < G; ++i)
          if (sweeping(i) && out[i].pad >= 0) out[i].pad = detail::round_robin_next(out[i].pad, ks[0]->mp);
      }
      for (std::size_t i = 0; i < G; ++i) {
        if (!sweeping(i)) continue;
        Kernel& kp = *ks[mem[i].pack];
        ++out[i].res.sweeps;
        nc.dma_copy(HbmTensor::wrap(&words[i], DType::f32, {1, 1}).tile(0, 1, 0, 1), kp.smax.rows(mem[i].row, 1));
        mem[i].measure = std::sqrt(static_cast<double>(words[i]));
        mem[i].converged = mem[i].measure <= tol;
      }
    }
  });
  if (trace != nullptr) trace->add(std::move(r.trace));
  return out;
}

std::vector<JacobiColumns<float>> jacobi_f32_group(const Settings& s, const std::vector<JacobiInput>& in,
                                                   std::int64_t rs, std::int64_t cs, std::int64_t M, std::int64_t K,
                                                   bool vectors, const GesvdjParams& p, TraceParts* trace) {
  const std::size_t G = in.size();
  std::vector<JacobiColumns<float>> out = padded_jacobi_columns(G, K);
  ScratchVector<float> slots(G, 0.0f);  // each matrix's convergence scalar: its own host word (traced: scratch)
  LaunchConfig lc = s.launch_config({1, 1, 1});
  lc.core.execute = true;  // the host reads one convergence scalar per matrix and sweep
  const double tol = sgesvdj_effective_tolerance(M, p.tolerance);
  LaunchResult r = launch(lc, [&](NeuronCore& nc) {
    AllocScope sb(nc.sbuf()), pm(nc.psum());
    std::vector<std::unique_ptr<Kernel>> ks;
    for (std::size_t i = 0; i < G; ++i) {
      const HbmTensor a = HbmTensor::wrap(const_cast<float*>(in[i].a), DType::f32, {M, K}, {rs, cs});
      ks.push_back(std::make_unique<Kernel>(nc, a, M, K, vectors, tol, p.max_sweeps, out[i]));
      ks.back()->exponent = in[i].exponent;
      ks.back()->scalar_slot = &slots[i];
    }
    for (auto& k : ks) k->setup(sb, pm);
    std::vector<Kernel*> live, sweep;
    for (auto& k : ks)
      if (k->start()) live.push_back(k.get());
    for (;;) {
      sweep.clear();
      for (Kernel* k : live)
        if (k->sweeping()) sweep.push_back(k);
      if (sweep.empty()) break;
      for (Kernel* k : sweep) k->begin_sweep();
      for (std::int64_t step = 0; step < out[0].N - 1; ++step) jacobi_step_group(sweep);
      for (Kernel* k : sweep) k->end_sweep();
    }
    for (Kernel* k : live) k->end_run();
  });
  if (trace != nullptr) trace->add(std::move(r.trace));
  return out;
}

// ---- fp64: one-sided block Jacobi, rotations as Ozaki DGEMMs ------------------------------------------

// One block pair of the one-sided sweep (jacobi_f64.hpp): G = X(:, idx)^T X(:, idx) by the Ozaki DGEMM,
// the largest pair cosine |g_pq| / sqrt(g_pp g_qq) of G (into *measure), one inner sweep of the host
// Jacobi on G (Demmel-Veselic threshold; zero columns skipped), and when it rotated X(:, idx) U by the
// balanced Ozaki DGEMM (column p's exponent from sqrt(g_pp), its norm) and V(:, idx) U. Returns whether
// it rotated.
bool gesvdj_pair_f64(const Settings& s, std::int64_t M, std::int64_t K, ScratchVector<double>& x, ScratchVector<double>& v,
                     const std::vector<std::int64_t>& idx, double tol, double* measure, TraceParts& trace, double& flops) {
  const auto k = static_cast<std::int64_t>(idx.size());
  // Every buffer the trace records (here, and gram / balanced / plain_dgemm's operands) is scratch: on
  // the heap one reused bytes another freed, a false dependency that moved with malloc's history
  // (docs/trnsolver.md "Session 24, heap-dependent modeled time").
  ScratchVector<double> xb(static_cast<std::size_t>(M * k)), G(static_cast<std::size_t>(k * k)), u(G.size(), 0.0);
  for (std::int64_t j = 0; j < k; ++j) std::copy_n(x.begin() + idx[j] * M, M, xb.begin() + j * M);
  detail::gram_dgemm(s, M, k, xb.data(), G.data(), trace);
  ScratchVector<double> g(G);
  for (std::int64_t j = 0; j < k; ++j) {
    u[j + j * k] = 1.0;
    for (std::int64_t i = 0; i < j; ++i) g[i + j * k] = g[j + i * k];  // exactly symmetric: the lower triangle
  }
  for (std::int64_t j = 0; j < k; ++j)
    for (std::int64_t i = j + 1; i < k; ++i) {
      const double d = std::sqrt(g[i + i * k]) * std::sqrt(g[j + j * k]);
      if (d > 0) *measure = std::max(*measure, std::fabs(g[i + j * k]) / d);
    }
  double step_flops = 3.0 * static_cast<double>(k * k);
  const bool rotated = detail::host_symmetric_jacobi(k, g.data(), u.data(), tol, detail::kJacobiF64InnerSweeps, true, step_flops);
  if (rotated) step_flops += static_cast<double>(M * k + k * k);  // the power-of-two balancing
  flops += step_flops;
  record_host_step(trace, HostStep{.name = "trnsolver.dgesvdj.pair", .flops = step_flops,
                                   .reads = {HostSpan(G.data(), k * k), HostSpan(xb.data(), rotated ? M * k : 0)},
                                   .writes = {HostSpan(u.data(), k * k), HostSpan(xb.data(), rotated ? M * k : 0)}});
  if (!rotated) return false;
  std::vector<int> e(static_cast<std::size_t>(k));
  for (std::int64_t p = 0; p < k; ++p) e[p] = detail::scale_exponent(std::sqrt(G[p + p * k]));
  ScratchVector<double> ub(u), y(xb.size());
  detail::balanced_dgemm(s, M, k, xb.data(), ub.data(), e, y.data(), trace);
  for (std::int64_t j = 0; j < k; ++j) std::copy_n(y.begin() + j * M, M, x.begin() + idx[j] * M);
  if (!v.empty()) {
    ScratchVector<double> vin(static_cast<std::size_t>(K * k)), vout(vin.size());
    for (std::int64_t j = 0; j < k; ++j) std::copy_n(v.begin() + idx[j] * K, K, vin.begin() + j * K);
    detail::plain_dgemm(s, K, k, vin.data(), u.data(), vout.data(), trace);
    for (std::int64_t j = 0; j < k; ++j) std::copy_n(vout.begin() + j * K, K, v.begin() + idx[j] * K);
  }
  return true;
}

// The one-sided block Jacobi of one fp64 matrix (M x K view a, M >= K): sweeps of gesvdj_pair_f64 until
// one rotates nothing (then every pair's cosine is <= tol: Demmel & Veselic's test), then the column
// norms and the normalised columns (host step trnsolver.dgesvdj.finish, O(M K)). Columns stay in place.
JacobiColumns<double> jacobi_f64(const Settings& s, const double* a, std::int64_t rs, std::int64_t cs, std::int64_t M,
                                 std::int64_t K, bool vectors, const GesvdjParams& p, TraceParts& trace, double* flops) {
  JacobiColumns<double> out;
  out.N = K;
  ScratchVector<double> x(static_cast<std::size_t>(M * K), 0.0), v;  // traced: scratch (gesvdj_pair_f64)
  bool finite = true;
  for (std::int64_t j = 0; j < K; ++j)
    for (std::int64_t i = 0; i < M; ++i) {
      const double val = a[i * rs + j * cs];
      finite = finite && std::isfinite(val);
      x[static_cast<std::size_t>(i + j * M)] = val;
    }
  record_host_step(trace, HostStep{.name = "trnsolver.dgesvdj.prepare", .flops = 0, .reads = {HostSpan(x.data(), M * K)},
                                   .writes = {HostSpan(x.data(), M * K)}});
  if (!finite) {
    out.res.info = static_cast<int>(K) + 1;
    out.res.residual = std::nan("");
    out.norms.assign(static_cast<std::size_t>(K), std::nan(""));
    return out;
  }
  if (vectors) {
    v.assign(static_cast<std::size_t>(K * K), 0.0);
    for (std::int64_t i = 0; i < K; ++i) v[static_cast<std::size_t>(i + i * K)] = 1.0;
  }
  const double tol = dgesvdj_effective_tolerance(M, p.tolerance);
  const auto pairs = detail::jacobi_block_pairs(K, detail::jacobi_f64_block());
  bool converged = false;
  double measure = 0;
  while (!converged && out.res.sweeps < p.max_sweeps) {
    bool rotated = false;
    measure = 0;
    for (const auto& [bi, bj] : pairs)
      rotated = gesvdj_pair_f64(s, M, K, x, v, detail::jacobi_pair_columns(K, detail::jacobi_f64_block(), bi, bj), tol,
                                &measure, trace, *flops) ||
                rotated;
    ++out.res.sweeps;
    converged = !rotated;
  }
  out.res.residual = measure;
  out.res.info = converged ? 0 : static_cast<int>(K) + 1;
  out.norms.assign(static_cast<std::size_t>(K), 0.0);
  out.xn.assign(static_cast<std::size_t>(M * K), 0.0);
  for (std::int64_t j = 0; j < K; ++j) {
    double s2 = 0;
    for (std::int64_t i = 0; i < M; ++i) s2 += x[static_cast<std::size_t>(i + j * M)] * x[static_cast<std::size_t>(i + j * M)];
    const double nrm = std::sqrt(s2);
    out.norms[static_cast<std::size_t>(j)] = nrm;
    for (std::int64_t i = 0; i < M; ++i) out.xn[static_cast<std::size_t>(i + j * M)] = x[static_cast<std::size_t>(i + j * M)] / nrm;
  }
  out.v.assign(v.begin(), v.end());
  const double f = 3.0 * static_cast<double>(M * K);
  *flops += f;
  record_host_step(trace, HostStep{.name = "trnsolver.dgesvdj.finish", .flops = f, .reads = {HostSpan(x.data(), M * K)},
                                   .writes = {HostSpan(out.xn.data(), M * K), HostSpan(out.norms.data(), K)}});
  return out;
}

// ---- drivers ----------------------------------------------------------------------------------------

template <class T>
struct Ops;  // the precision-specific steps: the Jacobi run and U1 U1^T
template <>
struct Ops<float> {
  const Settings& s;
  TraceParts* trace;
  JacobiColumns<float> jacobi(const float* a, std::int64_t rs, std::int64_t cs, std::int64_t M, std::int64_t K,
                              bool vectors, const GesvdjParams& p) const {
    // The squares of the Gram entries must stay inside fp32 and ScalarE's sqrt range [2^-116,
    // 2^118] (theta^2 ~ ||a||^4): the matrix is scaled by a power of two so that max |a_ij| is in
    // [2^19, 2^20) -- exact, undone on the singular values. Then alpha <= M 2^40 <= 2^50 and
    // theta^2, 4 gamma^2 <= 2^102, while rounding-level columns (~2^-24 sqrt(M) 2^20) keep theta^2
    // far above the angle formula's 2^-100 floor. The exponent comes from a host scan (comparisons only, no
    // arithmetic on the data). (Found by fuzz_trnsolver: an entry of 1.2e14 made theta^2 overflow.)
    return jacobi_f32(s, HbmTensor::wrap(const_cast<float*>(a), DType::f32, {M, K}, {rs, cs}), M, K, vectors, p,
                      exponent_of(a, rs, cs, M, K), trace);
  }
  static int exponent_of(const float* a, std::int64_t rs, std::int64_t cs, std::int64_t M, std::int64_t K) {
    float amax = 0.0f;
    for (std::int64_t j = 0; j < K; ++j)
      for (std::int64_t i = 0; i < M; ++i) {
        const float v = std::fabs(a[i * rs + j * cs]);
        if (v > amax) amax = v;
      }
    return amax > 0.0f && std::isfinite(amax) ? std::ilogb(amax) + 1 - 20 : 0;
  }
  // W = I - U1 U1^T (M x M) by trnblas GEMM on TensorE (fp32).
  void projector(std::int64_t M, std::int64_t g, const float* u1, float* w) const {
    for (std::int64_t i = 0; i < M; ++i) w[i + i * M] = 1.0f;
    if (g == 0) return;
    blas::Settings bs;
    static_cast<EmulatorSettings&>(bs) = s;
    blas::CallReport br;
    blas::gemm(bs, blas::GemmMode::fp32, blas::Op::N, blas::Op::T, M, M, g, -1.0f, {u1, DType::f32, M},
               {u1, DType::f32, M}, 1.0f, {w, DType::f32, M}, trace != nullptr ? &br : nullptr);
    if (trace != nullptr) trace->add(std::move(br.trace));
  }
  // The output columns: each {src, dst, length} copied by DMA (trnblas copy_segments).
  void place(const std::vector<blas::CopySegment>& segments) const {
    blas::Settings bs;
    static_cast<EmulatorSettings&>(bs) = s;
    blas::CallReport cr;
    blas::copy_segments(bs, segments, trace != nullptr ? &cr : nullptr);
    if (trace != nullptr) trace->add(std::move(cr.trace));
  }
  static constexpr double u = 0x1p-24;
};
template <>
struct Ops<double> {
  const Settings& s;
  TraceParts* trace;
  double* flops;
  JacobiColumns<double> jacobi(const double* a, std::int64_t rs, std::int64_t cs, std::int64_t M, std::int64_t K,
                               bool vectors, const GesvdjParams& p) const {
    return jacobi_f64(s, a, rs, cs, M, K, vectors, p, *trace, flops);
  }
  // W = I - U1 U1^T (M x M) by trnblas's Ozaki DGEMM on TensorE.
  void projector(std::int64_t M, std::int64_t g, const double* u1, double* w) const {
    for (std::int64_t i = 0; i < M; ++i) w[i + i * M] = 1.0;
    if (g == 0) return;
    blas::CallReport br;
    blas::dgemm(detail::fp64_update_blas_settings(s), blas::Op::N, blas::Op::T, M, M, g, -1.0, u1, M, u1, M, 1.0, w, M, &br);
    trace->add(std::move(br.trace));
  }
  // The output columns, copied on the host (index moves).
  struct Segment {
    const double* src;
    double* dst;
    std::int64_t length;
  };
  void place(const std::vector<Segment>& segments) const {
    for (const Segment& g : segments) std::copy(g.src, g.src + g.length, g.dst);
  }
  static constexpr double u = 0x1p-53;
};

// One matrix: Jacobi on the tall orientation, ordering, U completion, outputs.
template <class T>
GesvdjResult gesvdj_one(const Ops<T>& ops, bool vectors, bool econ, bool sort, std::int64_t m, std::int64_t n,
                        const T* A, std::int64_t lda, T* S, T* U, std::int64_t ldu, T* V, std::int64_t ldv,
                        const GesvdjParams& p, const JacobiColumns<T>* ran = nullptr) {
  const bool tall = m >= n;
  const std::int64_t M = tall ? m : n, K = tall ? n : m;
  if (K == 0) return {};
  JacobiColumns<T> own;  // the Jacobi run, unless the caller ran it (`ran`: jacobi_f32_group)
  if (ran == nullptr) own = ops.jacobi(A, tall ? 1 : lda, tall ? lda : 1, M, K, vectors, p);
  const JacobiColumns<T>& jc = ran != nullptr ? *ran : own;
  if (jc.res.info == static_cast<int>(K) + 1 && std::isnan(jc.res.residual)) {
    std::fill(S, S + K, std::numeric_limits<T>::quiet_NaN());
    return jc.res;
  }
  // Positions of the K true columns (the padding column dropped), by descending norm when sorting
  // (host: comparisons and index moves only).
  std::vector<std::int64_t> pos;
  for (std::int64_t j = 0; j < jc.N; ++j)
    if (j != jc.pad) pos.push_back(j);
  if (sort)
    std::stable_sort(pos.begin(), pos.end(), [&](std::int64_t x, std::int64_t y) {
      return jc.norms[static_cast<std::size_t>(x)] > jc.norms[static_cast<std::size_t>(y)];
    });
  T smax = 0;
  for (std::int64_t k = 0; k < K; ++k) {
    S[k] = jc.norms[static_cast<std::size_t>(pos[static_cast<std::size_t>(k)])];
    smax = std::max(smax, S[k]);
  }
  if (!vectors) return jc.res;
  // U_x (M x cols): the normalised columns, except those of (numerically) zero singular values
  // (<= M u sigma_max: their direction is rounding noise) and, in full mode, the columns beyond K:
  // those come from a second Jacobi run on the projector I - U1 U1^T onto the complement of the
  // good columns (its singular values are 1 and 0: the columns of norm ~1 are an orthonormal basis
  // of the complement).
  const std::int64_t cols = econ ? K : M;
  const T zero_below = static_cast<T>(static_cast<double>(M) * Ops<T>::u) * smax;
  // A = U_x S V_x^T when tall; A^T = U_x S V_x^T (so U = V_x, V = U_x) when wide: the columns of
  // U_x (M long) and V_x (K long) go straight to their output columns.
  T* const ux = tall ? U : V;
  T* const vx = tall ? V : U;
  const std::int64_t ldux = tall ? ldu : ldv, ldvx = tall ? ldv : ldu;
  using Segment = std::conditional_t<std::is_same_v<T, float>, blas::CopySegment, typename Ops<double>::Segment>;
  std::vector<Segment> out;
  std::vector<std::int64_t> missing;
  ScratchVector<T> u1;  // traced (the projector's operand), as w below: scratch, not heap
  for (std::int64_t k = 0; k < cols; ++k) {
    if (k < K && S[k] > zero_below) {
      const T* src = jc.xn.data() + pos[static_cast<std::size_t>(k)] * M;
      out.push_back({src, ux + k * ldux, M});
      u1.insert(u1.end(), src, src + M);
    } else {
      missing.push_back(k);
    }
  }
  JacobiColumns<T> cj;  // kept until the copies ran
  if (!missing.empty()) {
    const std::int64_t g = static_cast<std::int64_t>(u1.size()) / M;
    ScratchVector<T> w(static_cast<std::size_t>(M * M), T(0));
    ops.projector(M, g, u1.data(), w.data());
    GesvdjParams q;  // defaults: the projector's run is internal, not the caller's sweep budget
    cj = ops.jacobi(w.data(), 1, M, M, M, false, q);
    std::vector<std::int64_t> cpos;
    for (std::int64_t j = 0; j < cj.N; ++j)
      if (j != cj.pad) cpos.push_back(j);
    std::stable_sort(cpos.begin(), cpos.end(), [&](std::int64_t x, std::int64_t y) {
      return cj.norms[static_cast<std::size_t>(x)] > cj.norms[static_cast<std::size_t>(y)];
    });
    for (std::size_t i = 0; i < missing.size(); ++i) out.push_back({cj.xn.data() + cpos[i] * M, ux + missing[i] * ldux, M});
  }
  // V_x (K x K): the accumulated rotations in the same order.
  for (std::int64_t k = 0; k < K; ++k) out.push_back({jc.v.data() + pos[static_cast<std::size_t>(k)] * K, vx + k * ldvx, K});
  ops.place(out);
  return jc.res;
}

void check_args(bool vectors, bool econ, std::int64_t m, std::int64_t n, std::int64_t lda, const void* A, const void* S,
                const void* U, std::int64_t ldu, const void* V, std::int64_t ldv, std::int64_t batch,
                const GesvdjParams& p) {
  require(m >= 0 && n >= 0, "m, n >= 0");
  require(lda >= std::max<std::int64_t>(1, m), "lda >= max(1, m)");
  require(!vectors || ldu >= std::max<std::int64_t>(1, m), "ldu >= max(1, m)");
  require(!vectors || ldv >= std::max<std::int64_t>(1, n), "ldv >= max(1, n)");
  require(batch >= 0, "batch >= 0");
  require(p.max_sweeps >= 0, "max_sweeps >= 0");
  (void)econ;
  const bool empty = m == 0 || n == 0 || batch == 0;
  require(empty || (A != nullptr && S != nullptr), "A and S not NULL");
  require(empty || !vectors || (U != nullptr && V != nullptr), "U and V not NULL");
}

template <class T>
std::vector<GesvdjResult> run_batch(const Ops<T>& ops, bool vectors, bool econ, bool sort, std::int64_t m,
                                    std::int64_t n, T* A, std::int64_t lda, T* S, T* U, std::int64_t ldu, T* V,
                                    std::int64_t ldv, const GesvdjParams& p, std::int64_t batch) {
  std::vector<GesvdjResult> res(static_cast<std::size_t>(batch));
  const std::int64_t k = std::min(m, n);
  if (k == 0) return res;  // nothing to do; A, S, U, V may be NULL (no pointer arithmetic on them)
  if constexpr (std::is_same_v<T, float>) {
    if (batch > 1) {  // the Jacobi runs of up to jacobi_group_size matrices in one launch, interleaved
      const bool tall = m >= n;
      const std::int64_t M = tall ? m : n, rs = tall ? 1 : lda, cs = tall ? lda : 1;
      const HardwareSpec& hw = hardware_spec(ops.s.target);
      const std::int64_t slot = jacobi_pack_slot(hw, M);
      // Packed (M <= 64): jacobi_group_size packs of hw.pmax / slot matrices each (a pack's tiles are
      // those of one kernel on all of its rows, one PSUM bank).
      const std::int64_t G = slot > 0 ? (hw.pmax / slot) * jacobi_group_size(hw, hw.pmax, k, vectors)
                                      : jacobi_group_size(hw, M, k, vectors);
      for (std::int64_t b0 = 0; b0 < batch; b0 += G) {
        const std::int64_t g = std::min(G, batch - b0);
        std::vector<JacobiInput> in;
        for (std::int64_t b = b0; b < b0 + g; ++b) {
          const float* a = A + b * lda * n;
          in.push_back({a, Ops<float>::exponent_of(a, rs, cs, M, k)});
        }
        const std::vector<JacobiColumns<float>> jcs =
            slot > 0 && g > 1 ? jacobi_f32_packed(ops.s, in, rs, cs, M, k, vectors, p, ops.trace)
                              : jacobi_f32_group(ops.s, in, rs, cs, M, k, vectors, p, ops.trace);
        for (std::int64_t b = b0; b < b0 + g; ++b)
          res[static_cast<std::size_t>(b)] =
              gesvdj_one(ops, vectors, econ, sort, m, n, A + b * lda * n, lda, S + b * k,
                         vectors ? U + b * ldu * m : nullptr, ldu, vectors ? V + b * ldv * n : nullptr, ldv, p,
                         &jcs[static_cast<std::size_t>(b - b0)]);
      }
      return res;
    }
  }
  for (std::int64_t b = 0; b < batch; ++b)
    res[static_cast<std::size_t>(b)] =
        gesvdj_one(ops, vectors, econ, sort, m, n, A + b * lda * n, lda, S + b * k, vectors ? U + b * ldu * m : nullptr,
                   ldu, vectors ? V + b * ldv * n : nullptr, ldv, p);
  return res;
}

std::vector<GesvdjResult> sgesvdj_any(const Settings& s, bool vectors, bool econ, bool sort, std::int64_t m,
                                      std::int64_t n, float* A, std::int64_t lda, float* S, float* U, std::int64_t ldu,
                                      float* V, std::int64_t ldv, const GesvdjParams& p, std::int64_t batch,
                                      CallReport* report) {
  check_args(vectors, econ, m, n, lda, A, S, U, ldu, V, ldv, batch, p);
  require(std::max(m, n) <= kGesvdjMaxDim, "max(m, n) <= kGesvdjMaxDim (SBUF-resident kernel)");
  if (report != nullptr) *report = CallReport{};
  TraceParts trace;
  const Ops<float> ops{s, &trace};
  auto res = run_batch(ops, vectors, econ, sort, m, n, A, lda, S, U, ldu, V, ldv, p, batch);
  if (report != nullptr) {
    finish_report(*report, std::move(trace).join(), detail::sub_call_settings(report, ReportSettings{s.target}));
  }
  return res;
}

std::vector<GesvdjResult> dgesvdj_any(const Settings& s, bool vectors, bool econ, bool sort, std::int64_t m,
                                      std::int64_t n, double* A, std::int64_t lda, double* S, double* U,
                                      std::int64_t ldu, double* V, std::int64_t ldv, const GesvdjParams& p,
                                      std::int64_t batch, CallReport* report) {
  check_args(vectors, econ, m, n, lda, A, S, U, ldu, V, ldv, batch, p);
  if (report != nullptr) *report = CallReport{};
  double flops = 0;
  TraceParts trace;
  const Ops<double> ops{s, &trace, &flops};
  auto res = run_batch(ops, vectors, econ, sort, m, n, A, lda, S, U, ldu, V, ldv, p, batch);
  detail::finish_fp64_report(report, std::move(trace), s.target, flops);
  return res;
}

}  // namespace

double sgesvdj_effective_tolerance(std::int64_t rows, double tol) {
  const double floor = 4.0 * std::sqrt(static_cast<double>(std::max<std::int64_t>(rows, 1))) * 0x1p-24;
  return std::max(tol > 0 ? tol : static_cast<double>(FLT_EPSILON), floor);
}
double dgesvdj_effective_tolerance(std::int64_t rows, double tol) {
  const double floor = 4.0 * std::sqrt(static_cast<double>(std::max<std::int64_t>(rows, 1))) * 0x1p-53;
  return std::max(tol > 0 ? tol : DBL_EPSILON, floor);
}

GesvdjResult sgesvdj(const Settings& s, bool vectors, bool econ, std::int64_t m, std::int64_t n, float* A,
                     std::int64_t lda, float* S, float* U, std::int64_t ldu, float* V, std::int64_t ldv,
                     const GesvdjParams& p, CallReport* report) {
  return sgesvdj_any(s, vectors, econ, true, m, n, A, lda, S, U, ldu, V, ldv, p, 1, report).front();
}
GesvdjResult dgesvdj(const Settings& s, bool vectors, bool econ, std::int64_t m, std::int64_t n, double* A,
                     std::int64_t lda, double* S, double* U, std::int64_t ldu, double* V, std::int64_t ldv,
                     const GesvdjParams& p, CallReport* report) {
  return dgesvdj_any(s, vectors, econ, true, m, n, A, lda, S, U, ldu, V, ldv, p, 1, report).front();
}
std::vector<GesvdjResult> sgesvdj_batched(const Settings& s, bool vectors, std::int64_t m, std::int64_t n, float* A,
                                          std::int64_t lda, float* S, float* U, std::int64_t ldu, float* V,
                                          std::int64_t ldv, const GesvdjParams& p, std::int64_t batch,
                                          CallReport* report) {
  return sgesvdj_any(s, vectors, false, p.sort_svd, m, n, A, lda, S, U, ldu, V, ldv, p, batch, report);
}
std::vector<GesvdjResult> dgesvdj_batched(const Settings& s, bool vectors, std::int64_t m, std::int64_t n, double* A,
                                          std::int64_t lda, double* S, double* U, std::int64_t ldu, double* V,
                                          std::int64_t ldv, const GesvdjParams& p, std::int64_t batch,
                                          CallReport* report) {
  return dgesvdj_any(s, vectors, false, p.sort_svd, m, n, A, lda, S, U, ldu, V, ldv, p, batch, report);
}

}  // namespace trn::solver
