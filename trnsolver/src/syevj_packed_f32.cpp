// ssyevj for small n (n <= kSyevjPackedMaxN): many fp32 matrices per instruction.
//
// Layout (as trnblas's batched LU, lu_batched.cpp): the BATCH is on the partition axis and along
// the free axis. Partition p, slot g of a program holds one whole matrix, N x N column-major
// (N = n rounded up to even; element (i, j) at free offset g N^2 + i + j N). Every instruction of a
// Jacobi step then acts on all rows x G matrices of the program at once, and no step moves data
// between partitions: the two-sided rotation needs no transpose (rows and columns are both free-axis
// access patterns) and no broadcast (the 2x2 pivots of a matrix are in its own partition).
//
// Algorithm: the parallel two-sided Jacobi of syevj_f32.cpp (Brent & Luk 1985 round-robin ordering,
// rotation of Golub & Van Loan, Matrix Computations 4th ed., Alg. 8.5.2, `jacobi_angles`). One step:
//   1. angles c_k, s_k of the pairs (2k, 2k+1) from strided views of the diagonal and superdiagonal
//      (VectorE / ScalarE, [G, m] per partition);
//   2. B = A J P: the four products x_p c, x_q s, x_p s, x_q c of every column pair (c, s repeated
//      along the column by a stride-0 view), then c x_p - s x_q and s x_p + c x_q written straight to
//      the columns' next round-robin positions P (in place: all products are taken first);
//   3. A' = P^T J^T B: the same on row pairs (row views: element stride N);
//   4. V' = V J P (vectors only).
//   c and s live in PSUM, so each product reads one SBUF and one PSUM operand (ISA tensor_tensor:
//   one element per cycle instead of two). Products on VectorE (one on GpSimdE where the two do
//   not share the SBUF port, trn2+), even outputs on VectorE, odd outputs on GpSimdE (same fp32
//   arithmetic, same bits on either engine).
// After each sweep (N - 1 steps; the round-robin arrangement is then the identity again) every
// matrix's off(A)_F^2 is formed on VectorE (squares, diagonal zeroed, a pairwise tree of adds over
// its N^2 elements in a fixed order) and read by the host, which tests each matrix on its own. A
// matrix that has converged (or reached max_sweeps, or became non-finite) is written out at once by
// DMA and never read again; the program keeps sweeping its other matrices and stops when all are
// done. Its lanes keep being rotated, but nothing of them is used.
//
// Determinism: every instruction is elementwise per matrix (fp32, same operation order for every
// lane) and the per-matrix sums use a tree that depends only on N, so a matrix's bits do not depend
// on its partition, its slot, the other matrices of its program, the batch size, the host threads or
// the emulated cores (tested).
//
// Engines: VectorE (angles, products, rotations, norms), ScalarE (sqrt, rsqrt in jacobi_angles), GpSimdE
// (odd outputs, triangle selection), DMA (one load per slot, one store per matrix).
// Sizes: n <= kSyevjPackedMaxN; per matrix slot 4 N^2 + 7 N/2 floats of SBUF (3 N^2 + ... without
// vectors), so up to `packed_capacity` matrices per program (1024 for n = 32 on trn1).
// Accuracy: as syevj_f32.cpp (every rotation applied as two separately rounded one-sided rotations).
// Limits: as syevj_f32.cpp (|a_ij| < 2^58; entries below ~2^-50 may be left unrotated).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "jacobi_tiles.hpp"
#include "syevj_internal.hpp"
#include "trn/tile/view.hpp"

namespace trn::solver::detail {
namespace {

// SBUF floats per matrix slot: A, V (vectors), the product scratch (2 N^2: four [m, N] planes, also
// the load buffer and the norm scratch), angles (c, s and five work planes of m).
std::int64_t slot_floats(std::int64_t N, bool vectors) {
  const std::int64_t NN = N * N;
  return NN * (vectors ? 4 : 3) + 7 * (N / 2);
}

// A view of a flat [rows, F] tile: element `off` and then dims {size, stride} outermost first.
Tile pattern(const Tile& flat, std::int64_t off, const tile::FreePattern& dims) { return tile::view(flat, off, dims); }

struct PackedKernel {
  NeuronCore& nc;
  const PackedJacobiProblemF32& p;
  std::int64_t n, N, m, NN, G, rows;
  Tile A, V, T, C, S, C_sb;  // C, S in PSUM; C_sb an SBUF copy of c when gpsimd_product
  AngleScratch ang;
  bool gpsimd_product = false;

  PackedKernel(NeuronCore& nc_, const PackedJacobiProblemF32& p_) : nc(nc_), p(p_) {
    n = p.n;
    N = n + (n % 2);
    m = N / 2;
    NN = N * N;
    const std::int64_t P = nc.hw().pmax;
    G = (p.count + P - 1) / P;
    rows = (p.count + G - 1) / G;
    if (p.readback == nullptr) throw UsageError("syevj_f32_packed_kernel", "readback", "a caller-owned read-back buffer");
  }

  // The read-back buffer: off(A)^2 and ||A||^2 per matrix, the diagonals, one matrix's V.
  float* fro_readback() const { return p.readback; }
  float* off_readback() const { return p.readback + rows * G; }
  float* diag_readback() const { return p.readback + 2 * rows * G; }
  float* v_readback() const { return p.readback + 2 * rows * G + rows * G * N; }

  std::int64_t matrix_stride() const { return p.matrix_stride > 0 ? p.matrix_stride : n * p.lda; }

  // Matrix l of this program sits at partition l % rows, slot l / rows.
  std::int32_t part(std::int64_t l) const { return static_cast<std::int32_t>(l % rows); }
  std::int64_t slot(std::int64_t l) const { return l / rows; }

  // Lines (columns when unit = N, rows when unit = 1) pos, pos + step, ... of every matrix, each
  // line N elements with element stride `along`.
  Tile lines(const Tile& X, std::int64_t unit, std::int64_t along, std::int64_t pos, std::int64_t count,
             std::int64_t step) const {
    return pattern(X, pos * unit, {{G, NN}, {count, step * unit}, {N, along}});
  }
  // Pairs k0 .. k0 + count of a [G, m, N] product plane (contiguous).
  Tile plane(std::int64_t q, std::int64_t k0, std::int64_t count) const {
    return pattern(T, q * G * m * N + k0 * N, {{G, m * N}, {count, N}, {N, 1}});
  }
  // c or s of pairs k0 .. k0 + count, repeated along the line (stride 0).
  Tile repeated(const Tile& cs, std::int64_t k0, std::int64_t count) const {
    return pattern(cs, k0, {{G, m}, {count, 1}, {N, 0}});
  }

  // X <- X J P (unit = N: column pairs) or P^T J^T X (unit = 1: row pairs), in place.
  void rotate(const Tile& X, std::int64_t unit) {
    const std::int64_t along = unit == N ? 1 : N;
    const Engine g = Engine::gpsimd;
    const Tile xe = lines(X, unit, along, 0, m, 2), xo = lines(X, unit, along, 1, m, 2);
    // c and s are read from PSUM (one SBUF and one PSUM input: one element per cycle instead of two,
    // ISA tensor_tensor); GpSimdE cannot read PSUM, so where it runs in parallel with VectorE (no
    // shared SBUF port) it takes one product with c from an SBUF copy.
    nc.tensor_tensor(plane(0, 0, m), xe, repeated(C, 0, m), AluOp::multiply);
    nc.tensor_tensor(plane(2, 0, m), xe, repeated(S, 0, m), AluOp::multiply);
    nc.tensor_tensor(plane(1, 0, m), xo, repeated(S, 0, m), AluOp::multiply);
    if (gpsimd_product)
      nc.tensor_tensor(plane(3, 0, m), xo, repeated(C_sb, 0, m), AluOp::multiply, g);
    else
      nc.tensor_tensor(plane(3, 0, m), xo, repeated(C, 0, m), AluOp::multiply);
    // e_k = c x_p - s x_q goes to round_robin_next(2k), o_k = s x_p + c x_q to round_robin_next(2k + 1).
    const auto even = [&](std::int64_t k0, std::int64_t count, std::int64_t pos, std::int64_t step) {
      nc.tensor_tensor(lines(X, unit, along, pos, count, step), plane(0, k0, count), plane(1, k0, count),
                       AluOp::subtract);
    };
    const auto odd = [&](std::int64_t k0, std::int64_t count, std::int64_t pos, std::int64_t step) {
      nc.tensor_tensor(lines(X, unit, along, pos, count, step), plane(2, k0, count), plane(3, k0, count), AluOp::add,
                       g);
    };
    if (m == 1) {
      even(0, 1, 0, 1);
      odd(0, 1, 1, 1);
      return;
    }
    even(0, 1, 0, 1);                       // top_0 stays
    if (m > 2) even(1, m - 2, 4, 2);        // top_k -> top_{k+1}
    even(m - 1, 1, 2 * m - 1, 1);           // top_{m-1} -> bot_{m-1}
    odd(0, 1, 2, 1);                        // bot_0 -> top_1
    odd(1, m - 1, 1, 2);                    // bot_k -> bot_{k-1}
  }

  void step() {
    jacobi_angles(nc, ang, pattern(A, 0, {{G, NN}, {m, 2 * (N + 1)}}), pattern(A, N + 1, {{G, NN}, {m, 2 * (N + 1)}}),
                  pattern(A, 1, {{G, NN}, {m, 2 * (N + 1)}}), C, S);
    if (gpsimd_product) nc.tensor_copy(C_sb, C);
    rotate(A, N);  // columns
    rotate(A, 1);  // rows
    if (p.vectors) rotate(V, N);
  }

  // Per matrix: sum of a_ij^2 (off-diagonal only if `off`) in fp32, by squares and a pairwise tree
  // over the N^2 elements (fixed order: depends on N only). Returns [rows * G] values, partition-major.
  std::vector<float> sums_of_squares(bool off) {
    const Tile sq = T.cols(0, G * NN);
    nc.tensor_tensor(sq, A, A, AluOp::multiply);
    if (off) nc.memset(pattern(sq, 0, {{G, NN}, {N, N + 1}}), 0.0f);
    for (std::int64_t len = NN; len > 1;) {
      const std::int64_t h = len / 2;
      const Tile lo = pattern(sq, 0, {{G, NN}, {h, 1}});
      nc.tensor_tensor(lo, lo, pattern(sq, len - h, {{G, NN}, {h, 1}}), AluOp::add);
      len -= h;
    }
    float* out = off ? off_readback() : fro_readback();
    const HbmTensor h = HbmTensor::wrap(out, DType::f32, {rows, G});
    nc.dma_copy(h.tile(0, static_cast<std::int32_t>(rows), 0, G), pattern(sq, 0, {{G, NN}}));
    return std::vector<float>(out, out + rows * G);
  }

  // One matrix (column-major, leading dimension ld) in HBM as a one-partition [cols, rows] view.
  static Tile hbm_matrix(float* a, std::int64_t partitions, std::int64_t pstride, std::int64_t rows_,
                         std::int64_t cols, std::int64_t ld) {
    return tile::hbm_view(a, DType::f32, static_cast<std::int32_t>(partitions), pstride, {{cols, ld}, {rows_, 1}});
  }

  // Reads the uplo triangle only: the other is replaced by the mirrored elements through
  // affine_select (no arithmetic touches the unread values, so NaN there cannot leak).
  void load_symmetric() {
    const Tile raw = T.cols(0, G * NN), mirror = T.cols(G * NN, G * NN);
    nc.memset(raw, 0.0f);
    const std::int64_t stride = matrix_stride();
    for (std::int64_t g = 0; g < G; ++g) {
      const std::int64_t first = g * rows, cnt = std::min(rows, p.count - first);
      if (cnt <= 0) break;
      const auto c32 = static_cast<std::int32_t>(cnt);
      nc.dma_copy(pattern(raw.rows(0, c32), g * NN, {{n, N}, {n, 1}}),
                  hbm_matrix(p.a + first * stride, cnt, stride, n, n, p.lda));
    }
    // Free pattern (g, j, i) of element (i, j): keep i >= j (lower) or i <= j (upper) of the load.
    const std::array<std::array<std::int64_t, 2>, 3> keep_lower{{{0, G}, {-1, N}, {1, N}}},
        keep_upper{{{0, G}, {1, N}, {-1, N}}};
    const Tile full = pattern(A, 0, {{G, NN}, {N, N}, {N, 1}});
    nc.affine_select(full, p.lower ? keep_lower : keep_upper, 0, 0, AluOp::greater_equal,
                     pattern(raw, 0, {{G, NN}, {N, N}, {N, 1}}), 0.0f);
    // Mirror: element (i, j) <- load (j, i) strictly inside the unread triangle.
    const Tile mirror_full = pattern(mirror, 0, {{G, NN}, {N, N}, {N, 1}});
    nc.affine_select(mirror_full, p.lower ? keep_upper : keep_lower, 0, 0, AluOp::greater,
                     pattern(raw, 0, {{G, NN}, {N, 1}, {N, N}}), 0.0f);
    nc.tensor_tensor(A, A, mirror, AluOp::add);
  }

  void init_identity() {
    nc.memset(V, 0.0f);
    nc.memset(pattern(V, 0, {{G, NN}, {N, N + 1}}), 1.0f);
  }

  // Writes matrix l's eigenvalues (from `diag`, [rows, G, N] partition-major) and vectors.
  void finish(std::int64_t l, const std::vector<float>& diag, const SyevjResult& res) {
    const std::int64_t base = (part(l) * G + slot(l)) * N;
    std::vector<std::int64_t> pos(static_cast<std::size_t>(n));
    std::iota(pos.begin(), pos.end(), 0);  // after whole sweeps the arrangement is the identity
    if (p.sort) {  // host: argsort of n values (comparisons and index moves only)
      std::stable_sort(pos.begin(), pos.end(), [&](std::int64_t x, std::int64_t y) {
        return diag[static_cast<std::size_t>(base + x)] < diag[static_cast<std::size_t>(base + y)];
      });
    }
    float* w = p.w + l * n;
    for (std::int64_t k = 0; k < n; ++k) w[k] = diag[static_cast<std::size_t>(base + pos[static_cast<std::size_t>(k)])];
    if (p.vectors) {
      // V from SBUF to its output: one DMA when the order is kept, else one DMA per column placing the
      // columns in eigenvalue order.
      float* a = p.v_out != nullptr ? p.v_out + l * n * n : p.a + l * matrix_stride();
      const std::int64_t ld = p.v_out != nullptr ? n : p.lda;
      if (!p.sort)
        nc.dma_copy(hbm_matrix(a, 1, n * n, n, n, ld), pattern(V.rows(part(l), 1), slot(l) * NN, {{n, N}, {n, 1}}));
      for (std::int64_t k = 0; k < (p.sort ? n : 0); ++k)
        nc.dma_copy(hbm_matrix(a + k * ld, 1, n, n, 1, ld),
                    pattern(V.rows(part(l), 1), slot(l) * NN + pos[static_cast<std::size_t>(k)] * N, {{1, N}, {n, 1}}));
    }
    p.result[l] = res;
  }

  std::vector<float> read_diagonals() {
    float* d = diag_readback();
    const HbmTensor h = HbmTensor::wrap(d, DType::f32, {rows, G * N});
    Tile dst = h.tile(0, static_cast<std::int32_t>(rows), 0, G * N);
    nc.dma_copy(dst, pattern(A, 0, {{G, NN}, {N, N + 1}}));
    return std::vector<float>(d, d + rows * G * N);
  }

  void run(AllocScope& sb, AllocScope& ps) {
    const auto r32 = static_cast<std::int32_t>(rows);
    gpsimd_product = !nc.hw().shared_sbuf_port_vector_gpsimd;
    A = sb.alloc(DType::f32, r32, {G * NN}, "A (matrix per slot)");
    if (p.vectors) V = sb.alloc(DType::f32, r32, {G * NN}, "V");
    T = sb.alloc(DType::f32, r32, {2 * G * NN}, "products / load / squares");
    C = ps.alloc(DType::f32, r32, {G * m}, "c");
    S = ps.alloc(DType::f32, r32, {G * m}, "s");
    if (gpsimd_product) C_sb = sb.alloc(DType::f32, r32, {G * m}, "c (SBUF copy)");
    ang = AngleScratch{sb.alloc(DType::f32, r32, {G * m}, "theta"), sb.alloc(DType::f32, r32, {G * m}, "2 sgn(theta)"),
                       sb.alloc(DType::f32, r32, {G * m}, "theta^2 + 4 a_pq^2"),
                       sb.alloc(DType::f32, r32, {G * m}, "denominator"), sb.alloc(DType::f32, r32, {G * m}, "product")};
    load_symmetric();
    if (p.vectors) init_identity();

    const double tol = ssyevj_effective_tolerance(n, p.tolerance);
    const std::vector<float> fro2 = sums_of_squares(false);
    std::vector<float> off2 = sums_of_squares(true);
    std::vector<SyevjResult> res(static_cast<std::size_t>(p.count));
    std::vector<char> done(static_cast<std::size_t>(p.count), 0);
    const auto at = [&](const std::vector<float>& v, std::int64_t l) {
      return static_cast<double>(v[static_cast<std::size_t>(part(l) * G + slot(l))]);
    };
    std::int64_t remaining = p.count;
    const bool predicting = p.predict_sweeps >= 0;
    // Non-finite input: info n + 1, W NaN, A untouched, no sweep counted.
    for (std::int64_t l = 0; l < p.count; ++l) {
      const double fro = std::sqrt(at(fro2, l)), off = std::sqrt(at(off2, l));
      if (predicting || (std::isfinite(fro) && std::isfinite(off))) continue;
      SyevjResult r;
      r.info = static_cast<int>(n) + 1;
      r.residual = std::nan("");
      std::fill(p.w + l * n, p.w + (l + 1) * n, std::nanf(""));
      p.result[l] = r;
      done[static_cast<std::size_t>(l)] = 1;
      --remaining;
    }
    for (int sweep = 0;; ++sweep) {
      // Test every live matrix after `sweep` sweeps; finish the converged, stalled or exhausted.
      std::vector<std::int64_t> finishing;
      for (std::int64_t l = 0; l < p.count; ++l) {
        if (done[static_cast<std::size_t>(l)]) continue;
        const double fro = std::sqrt(at(fro2, l)), off = std::sqrt(at(off2, l));
        SyevjResult& r = res[static_cast<std::size_t>(l)];
        r.sweeps = sweep;
        r.residual = off;
        const bool converged = predicting ? sweep >= p.predict_sweeps : off <= tol * fro;
        if (converged || (!predicting && !std::isfinite(off)) || sweep >= p.max_sweeps) {
          r.info = converged ? 0 : static_cast<int>(n) + 1;
          finishing.push_back(l);
        }
      }
      if (!finishing.empty()) {
        const std::vector<float> diag = read_diagonals();
        for (const std::int64_t l : finishing) {
          finish(l, diag, res[static_cast<std::size_t>(l)]);
          done[static_cast<std::size_t>(l)] = 1;
        }
        remaining -= static_cast<std::int64_t>(finishing.size());
      }
      if (remaining == 0) break;
      for (std::int64_t s = 0; s < N - 1; ++s) step();
      off2 = sums_of_squares(true);
    }
  }
};

}  // namespace

std::int64_t packed_capacity(const HardwareSpec& hw, std::int64_t n, bool vectors) {
  const std::int64_t N = n + (n % 2);
  // Twelve allocations, each rounded up to kAllocAlignBytes; the rest of a partition holds slots.
  const std::int64_t budget = hw.sbuf_partition_bytes - 12 * kAllocAlignBytes;
  const std::int64_t per_slot = 4 * slot_floats(N, vectors);
  // c and s in PSUM: one bank each at most, and within VectorE's PSUM free-size limit as the
  // products read them, repeated along each line ([G, m, N] elements: G <= 8 for N = 32 on trn1;
  // found by a test at 1300 matrices of n = 32, which asked for 11 slots).
  const std::int64_t psum_slots =
      std::min(hw.psum_bank_bytes / 4 / (N / 2), hw.vector_psum_fmax / ((N / 2) * N));
  return hw.pmax * std::max<std::int64_t>(1, std::min(budget / per_slot, psum_slots));
}

std::int64_t packed_readback_floats(std::int64_t count, std::int64_t n, std::int64_t pmax) {
  const std::int64_t N = n + (n % 2), G = (count + pmax - 1) / pmax, rows = (count + G - 1) / G;
  return 2 * rows * G + rows * G * N + n * n;
}

void syevj_f32_packed_kernel(NeuronCore& nc, const PackedJacobiProblemF32& p) {
  PackedKernel k(nc, p);
  AllocScope sb(nc.sbuf()), ps(nc.psum());
  k.run(sb, ps);
}

}  // namespace trn::solver::detail
