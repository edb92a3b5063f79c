// trnblas Level 3 beyond GEMM/SYRK (trn/blas/level3.hpp): blocked drivers over the GEMM machinery
// of blas.hpp, and the diagonal-block triangular-solve tile kernel of TRSM.
//
// Where the arithmetic happens:
//   fp32 (S*)  every product and sum on the emulated engines: the off-diagonal work as
//              trn::blas::gemm on TensorE (fp32 PSUM), TRSM's diagonal blocks on VectorE
//              (diag_solve_kernel below). The host only packs operands (copies, no arithmetic).
//   fp64 (D*)  the products through trn::blas::dgemm (Ozaki scheme: exact slice products on the
//              emulated TensorE, slicing and reconstruction in fp64 on the host side of the kernel);
//              TRSM's diagonal blocks are split recursively (trn/blas/trsm_fp64.hpp): the
//              off-diagonal products as Ozaki GEMMs, leaves of at most 32 columns by substitution in
//              fp64 on the host side (no NeuronCore engine computes in fp64), each a costed host step
//              (docs/trnblas.md "Level 3", "fp64 TRSM: recursive diagonal blocks").
#include "trn/blas/level3.hpp"
#include "trn/blas/trsm_fp64.hpp"

#include "level3_internal.hpp"
#include "trn/tile/complex.hpp"
#include "trn/tile/view.hpp"
#include "trn/core/scratch.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <climits>
#include <complex>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <vector>

namespace trn::blas {

namespace {

using detail::Recorder;
using detail::require;

Op flip(Op op) { return op == Op::N ? Op::T : Op::N; }

template <class T>
constexpr bool kComplex = !std::is_floating_point_v<T>;

// op(X) of a column-major matrix X: element (i, j) of op(X) at p[i + j ld] (N) or p[j + i ld] (T),
// conjugated when conj (complex data, TRNBLAS_OP_C: op T with conj; a sign-bit flip, exact).
template <class T>
struct OpView {
  const T* p = nullptr;
  std::int64_t ld = 1;
  Op op = Op::N;
  bool conj = false;
  T at(std::int64_t i, std::int64_t j) const {
    const T v = op == Op::N ? p[i + j * ld] : p[j + i * ld];
    if constexpr (kComplex<T>)
      if (conj) return std::conj(v);
    return v;
  }
  // op(X)[i0:, j0:] (a null view stays null: alpha == 0 calls pass no operands).
  OpView sub(std::int64_t i0, std::int64_t j0) const {
    if (p == nullptr) return *this;
    return {op == Op::N ? p + i0 + j0 * ld : p + j0 + i0 * ld, ld, op, conj};
  }
  OpView transposed() const { return {p, ld, flip(op), conj}; }
  // Element strides of (i, j) in units of T.
  std::int64_t stride_i() const { return op == Op::N ? 1 : ld; }
  std::int64_t stride_j() const { return op == Op::N ? ld : 1; }
};

// C = alpha op(A) op(B) + beta C through the GEMM machinery: trn::blas::gemm (fp32 data, TensorE in
// `mode`) or trn::blas::dgemm (fp64 data, Ozaki). Same corner cases as those.
// Complex data: cgemm / zgemm (4M) with op N, T or C (a conjugated untransposed view never occurs).
template <class T>
COp complex_op(const OpView<T>& v) {
  require(!(v.conj && v.op == Op::N), "conjugated untransposed operand");
  return v.op == Op::N ? COp::N : v.conj ? COp::C : COp::T;
}

template <class T>
void gemm_any(const Settings& s, GemmMode mode, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, OpView<T> a,
              OpView<T> b, T beta, T* C, std::int64_t ldc, Recorder& rec) {
  if (m == 0 || n == 0) return;
  Settings s_sub = s;  // the caller's report models the merged trace once
  s_sub.report_trace_only = true;
  CallReport sub;
  if constexpr (std::is_same_v<T, std::complex<float>>)
    cgemm(s_sub, mode, ComplexAlgo::four_m, complex_op(a), complex_op(b), m, n, k, alpha, a.p, a.ld, b.p, b.ld, beta,
          C, ldc, &sub);
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    zgemm(s_sub, ComplexAlgo::four_m, complex_op(a), complex_op(b), m, n, k, alpha, a.p, a.ld, b.p, b.ld, beta, C,
          ldc, &sub);
  else if constexpr (std::is_same_v<T, double>)
    dgemm(s_sub, a.op, b.op, m, n, k, alpha, a.p, a.ld, b.p, b.ld, beta, C, ldc, &sub);
  else
    gemm(s_sub, mode, a.op, b.op, m, n, k, alpha, {a.p, DType::f32, a.ld}, {b.p, DType::f32, b.ld}, beta,
         {C, DType::f32, ldc}, &sub);
  rec.add(sub);
}

// B = 0 (alpha == 0 of TRSM/TRMM: netlib sets the output to zero without reading A or B). A fill,
// not arithmetic; skipped in timing-only runs, whose memory contents are meaningless.
template <class T>
void zero_fill(const Settings& s, std::int64_t m, std::int64_t n, T* B, std::int64_t ldb) {
  if (s.timing_only) return;
  for (std::int64_t j = 0; j < n; ++j) std::fill(B + j * ldb, B + j * ldb + m, T(0));
}

std::int64_t block_size(const Settings& s) { return hardware_spec(s.target).pmax; }

// ---- TRSM diagonal blocks -----------------------------------------------------------------------

// One diagonal block E (w x w, lower or upper triangular; element (i, j) at t[i si + j sj]) and
// the right-hand sides it solves in place: rhs r, element i at b[r rs + i es] (r < nrhs).
// Each right-hand side is scaled by `scale` first (alpha for the first block of a TRSM, 1 after a
// GEMM update has applied it).
template <class T>
struct DiagBlock {
  const T* t = nullptr;
  std::int64_t si = 1, sj = 1, w = 0;
  bool lower = true, unit = false;
  bool conj = false;  // complex: E is the conjugate of the stored block (TRNBLAS_OP_C)
  T* b = nullptr;
  std::int64_t rs = 1, es = 1, nrhs = 0;
  T scale = 1;
};

// diag_solve_kernel: E y = scale * b for a group of right-hand sides, column-oriented substitution
// (Golub & Van Loan, Matrix Computations, 4th ed., Alg. 3.1.3).
//
//   Layout   right-hand sides on SBUF partitions, `groups` of them per partition (free shape
//            [groups, w], element i of rhs r0 + p groups + g at [p, g, i]); E's block (w x w,
//            column-major) broadcast to every partition by one DMA (partition stride 0). Every
//            step is then per-partition VectorE work over all groups at once: no cross-partition
//            traffic, and 3 w instructions per call whatever the number of right-hand sides.
//   Engines  DMA in/out; VectorE: y_j = y_j / e_jj (one rounding; skipped for unit diagonals),
//            then u = e_{i,j} * y_j and y_i = y_i - u for the unsolved i (two roundings) — the
//            floating-point operations of scalar substitution, in the same order. The operands of
//            the update are stride-0 views (e's column repeated over the groups, y_j over i).
//   Accuracy componentwise backward stable: the computed y solves (E + dE) y = scale*b with
//            |dE| <= gamma_w |E| (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
//            Thm 8.5), gamma_w = w u / (1 - w u), u = 2^-24.
//   Limits   w <= pmax, rows <= pmax; SBUF per partition (w^2 + 2 groups w) * 4 bytes.
//            The broadcast moves rows * w^2 elements per call: docs/trnblas.md.
void diag_solve_group(NeuronCore& nc, const DiagBlock<float>& d, std::int64_t r0, std::int32_t rows,
                      std::int64_t groups) {
  const std::int64_t w = d.w;
  AllocScope sb(nc.sbuf());
  Tile y = sb.alloc(DType::f32, rows, {groups, w}, "right-hand sides: [group, element] per partition");
  Tile e = sb.alloc(DType::f32, rows, {w * w}, "diagonal block (column-major) on every partition");
  Tile u = sb.alloc(DType::f32, rows, {groups, w}, "update");
  // B as [rhs partition, group, element]: rhs r0 + p groups + g.
  const Tile bsrc = tile::hbm_view(d.b + r0 * d.rs, DType::f32, rows, groups * d.rs, {{groups, d.rs}, {w, d.es}});
  // E broadcast: partition stride 0, free pattern [j][i] -> e[j w + i] = E(i, j).
  const Tile esrc = tile::hbm_view(d.t, DType::f32, rows, 0, {{w, d.sj}, {w, d.si}});
  nc.dma_copy(y, bsrc);
  nc.dma_copy(e, esrc);
  if (d.scale != 1.0f) nc.tensor_scalar(y, y, AluOp::multiply, d.scale);
  for (std::int64_t step = 0; step < w; ++step) {
    const std::int64_t j = d.lower ? step : w - 1 - step;
    const Tile yj = y.slice(1, j, 1);  // [groups, 1]
    if (!d.unit) nc.tensor_scalar(yj, yj, AluOp::divide, e.cols(j * w + j, 1));
    const std::int64_t i0 = d.lower ? j + 1 : 0, len = d.lower ? w - 1 - j : j;  // unsolved elements
    if (len == 0) continue;
    const Tile ecol = tile::stack_outer(e.cols(j * w + i0, len), groups, 0);  // e_{i0..i0+len, j}, per group
    const Tile yrep = tile::broadcast(yj, 1, len);  // y_j of each group, repeated over the len elements
    const Tile uu = u.slice(1, 0, len), ys = y.slice(1, i0, len);
    nc.tensor_tensor(uu, ecol, yrep, AluOp::multiply);
    nc.tensor_tensor(ys, ys, uu, AluOp::subtract);
  }
  nc.dma_copy(bsrc, y);
}

// diag_solve_complex_group: the complex form of diag_solve_group (Ctrsm), same layout with a
// trailing (re, im) axis: right-hand sides [groups, w, 2] per partition, E's block [w, w, 2]
// broadcast to every partition; the real and imaginary planes are step-2 views, so complex
// arithmetic is real VectorE instructions on planes (nothing is repacked).
//   Engines  DMA in/out; VectorE per column j:
//            the reciprocal of e_jj per partition, scaled against overflow (Smith's idea, Higham
//            §27.4): m = max(|er|, |ei|), (er', ei') = (er, ei) / m, q = m (er'^2 + ei'^2),
//            1 / e = (er' / q, -ei' / q) — 8 instructions on [rows, 1]; y_j = y_j * (1 / e)
//            (6); then y_i -= e_ij y_j for the unsolved i: re and im of the product with one
//            rounding per product and per sum (8). TRNBLAS_OP_C: E's imaginary plane is negated
//            once after the load (exact).
//   Accuracy each complex product and quotient is a few roundings (|d(xy)| <= sqrt(2) gamma_2
//            |x||y|; the reciprocal <= gamma_7 |1/e|), so the computed y solves (E + dE) y = scale*b
//            with |dE| <= gamma_{w+8}-class |E| (the complex form of Higham Thm 8.5, §3.6).
//   Limits   w <= pmax, rows <= pmax; SBUF per partition (2 w^2 + 6 groups w) * 4 bytes.
void diag_solve_complex_group(NeuronCore& nc, const DiagBlock<std::complex<float>>& d, std::int64_t r0,
                              std::int32_t rows, std::int64_t groups) {
  const std::int64_t w = d.w;
  AllocScope sb(nc.sbuf());
  Tile y = sb.alloc(DType::f32, rows, {groups * w * 2}, "right-hand sides: [group, element, re/im]");
  Tile e = sb.alloc(DType::f32, rows, {w * w * 2}, "diagonal block [j, i, re/im] on every partition");
  Tile u = sb.alloc(DType::f32, rows, {3 * groups * w}, "products");
  Tile rc = sb.alloc(DType::f32, rows, {8}, "reciprocal of the pivot");
  // Plane `part` (0: re, 1: im) of the interleaved complex elements of y or e from element off,
  // [s0, s1] with element strides st0, st1; a real [s0, s1] view of the product scratch.
  const auto plane = [](const Tile& flat, int part, std::int64_t off, std::int64_t s0, std::int64_t st0, std::int64_t s1,
                        std::int64_t st1) { return tile::complex_plane(flat, part, off, {{s0, st0}, {s1, st1}}); };
  const auto view = [](const Tile& flat, std::int64_t s0, std::int64_t st0, std::int64_t s1, std::int64_t st1) {
    return tile::view(flat, 0, {{s0, st0}, {s1, st1}});
  };
  // B and E as interleaved (re, im) floats: [groups, w, 2] per right-hand-side partition, E's block
  // [w, w, 2] broadcast (partition stride 0).
  const Tile bsrc = tile::hbm_view(d.b + r0 * d.rs, DType::f32, rows, groups * 2 * d.rs,
                                   {{groups, 2 * d.rs}, {w, 2 * d.es}, {2, 1}});
  const Tile esrc = tile::hbm_view(d.t, DType::f32, rows, 0, {{w, 2 * d.sj}, {w, 2 * d.si}, {2, 1}});
  const Tile ydst = y.reshape({groups, w, 2}), edst = e.reshape({w, w, 2});
  nc.dma_copy(ydst, bsrc);
  nc.dma_copy(edst, esrc);
  if (d.conj) {
    const Tile ei = e.slice(0, 1, w * w, 2);
    nc.tensor_scalar(ei, ei, AluOp::multiply, -1.0f);
  }
  const Tile u1 = u.slice(0, 0, groups * w), u2 = u.slice(0, groups * w, groups * w),
             u3 = u.slice(0, 2 * groups * w, groups * w);
  const tile::ComplexPlanes y_all{plane(y, 0, 0, groups, w, w, 1), plane(y, 1, 0, groups, w, w, 1)};
  if (d.scale != std::complex<float>(1.0f))  // y = scale * y (complex scale, immediates)
    tile::complex_scale(nc, y_all, d.scale.real(), d.scale.imag(), view(u1, groups, w, w, 1), view(u2, groups, w, w, 1),
                        view(u3, groups, w, w, 1));
  const Tile m = rc.cols(0, 1);
  const tile::ReciprocalWork work{rc.cols(1, 1), rc.cols(2, 1), rc.cols(3, 1), rc.cols(4, 1)};
  const tile::ComplexPlanes recip{rc.cols(5, 1), rc.cols(6, 1)};
  for (std::int64_t step = 0; step < w; ++step) {
    const std::int64_t j = d.lower ? step : w - 1 - step;
    if (!d.unit) {  // y_j = y_j * (1 / e_jj)
      const Tile ejr = e.cols(2 * (j * w + j), 1), eji = e.cols(2 * (j * w + j) + 1, 1);
      nc.tensor_tensor(m, ejr, eji, AluOp::abs_max);
      tile::complex_reciprocal(nc, ejr, eji, m, work, recip);
      const tile::ComplexPlanes yj{plane(y, 0, j, groups, w, 1, 1), plane(y, 1, j, groups, w, 1, 1)};
      tile::complex_scale(nc, yj, recip.re, recip.im, view(u1, groups, 1, 1, 1), view(u2, groups, 1, 1, 1),
                          view(u3, groups, 1, 1, 1));
    }
    const std::int64_t i0 = d.lower ? j + 1 : 0, len = d.lower ? w - 1 - j : j;  // unsolved elements
    if (len == 0) continue;
    // y_i -= e_{i, j} y_j over the unsolved i: e's column repeated over the groups, y_j over the i.
    const tile::ComplexPlanes ec{plane(e, 0, j * w + i0, groups, 0, len, 1), plane(e, 1, j * w + i0, groups, 0, len, 1)};
    const tile::ComplexPlanes yj{plane(y, 0, j, groups, w, len, 0), plane(y, 1, j, groups, w, len, 0)};
    const tile::ComplexPlanes ys{plane(y, 0, i0, groups, w, len, 1), plane(y, 1, i0, groups, w, len, 1)};
    tile::complex_multiply_subtract(nc, ys, ec, yj, view(u1, groups, w, len, 1), view(u2, groups, w, len, 1));
  }
  nc.dma_copy(bsrc, ydst);
}

// Program p of the grid solves right-hand sides [p * per_program, ...): up to pmax partitions of
// `groups` each, the remainder (fewer than `groups`) on one more partition.
template <class T>
void diag_solve_kernel_any(NeuronCore& nc, const DiagBlock<T>& d, std::int64_t per_program, std::int64_t groups) {
  const std::int64_t r0 = static_cast<std::int64_t>(nc.program_id(0)) * per_program;
  const std::int64_t count = std::min(per_program, d.nrhs - r0);
  if (count <= 0) return;
  const std::int64_t full = count / groups, rest = count % groups;
  const auto group = [&](std::int64_t start, std::int32_t rows, std::int64_t g) {
    if constexpr (std::is_same_v<T, float>)
      diag_solve_group(nc, d, start, rows, g);
    else
      diag_solve_complex_group(nc, d, start, rows, g);
  };
  if (full > 0) group(r0, static_cast<std::int32_t>(full), groups);
  if (rest > 0) group(r0 + full * groups, 1, rest);
}

// fp32 data (real and complex) on the engines. Right-hand sides per partition: real 16 (SBUF:
// 2 * 16 * 128 * 4 B), complex 8 (6 * 8 * 128 * 4 B).
template <class T>
void diag_solve_engines(const Settings& s, const DiagBlock<T>& d, Recorder& rec) {
  constexpr std::int64_t kMaxGroups = std::is_same_v<T, float> ? 16 : 8;
  const std::int64_t P = block_size(s);
  const std::int64_t groups = std::clamp<std::int64_t>((d.nrhs + P - 1) / P, 1, kMaxGroups);
  const std::int64_t per_program = P * groups;
  const std::int64_t programs = (d.nrhs + per_program - 1) / per_program;
  require(programs <= INT_MAX, "too many right-hand sides");
  LaunchResult r = launch(s.launch_config({static_cast<int>(programs), 1, 1}),
                          [&](NeuronCore& nc) { diag_solve_kernel_any(nc, d, per_program, groups); });
  rec.add(r.trace);
}

// fp64 (real and complex): the same substitution, in the same order, in fp64 on the host side of
// the kernel (no NeuronCore engine computes in fp64). Same bound with u = 2^-53.
template <class T>
void diag_solve_host(const Settings& s, const DiagBlock<T>& d) {
  if (s.timing_only) return;
  const auto E = [&](std::int64_t i, std::int64_t j) {
    const T v = d.t[i * d.si + j * d.sj];
    if constexpr (kComplex<T>)
      if (d.conj) return std::conj(v);
    return v;
  };
  for (std::int64_t r = 0; r < d.nrhs; ++r) {
    T* y = d.b + r * d.rs;
    auto Y = [&](std::int64_t i) -> T& { return y[i * d.es]; };
    if (d.scale != T(1))
      for (std::int64_t i = 0; i < d.w; ++i) Y(i) *= d.scale;
    for (std::int64_t step = 0; step < d.w; ++step) {
      const std::int64_t j = d.lower ? step : d.w - 1 - step;
      if (!d.unit) Y(j) /= E(j, j);
      const std::int64_t i0 = d.lower ? j + 1 : 0, i1 = d.lower ? d.w : j;
      for (std::int64_t i = i0; i < i1; ++i) Y(i) -= E(i, j) * Y(j);
    }
  }
}
void diag_solve(const Settings& s, const DiagBlock<float>& d, Recorder& rec) { diag_solve_engines(s, d, rec); }
void diag_solve(const Settings& s, const DiagBlock<std::complex<float>>& d, Recorder& rec) {
  diag_solve_engines(s, d, rec);
}
// One host round trip per diagonal block: E's triangle and the block's right-hand sides to the host,
// the solutions back; w^2 flops per right-hand side (w divisions, w(w-1)/2 multiply-subtracts; x4
// complex).
template <class T>
void diag_solve_round_trip(const Settings& s, const DiagBlock<T>& d, Recorder& rec) {
  HostSpan e = HostSpan::strided(d.t, d.w, d.si, d.w, d.sj);
  e.bytes = static_cast<std::size_t>(d.w * (d.w + 1) / 2) * sizeof(T);
  const HostSpan b = HostSpan::strided(d.b, d.w, d.es, d.nrhs, d.rs);
  rec.host_step(HostStep{.name = kComplex<T> ? "trnblas.ztrsm.diag_solve" : "trnblas.dtrsm.diag_solve",
                         .flops = (kComplex<T> ? 4.0 : 1.0) * static_cast<double>(d.w * d.w * d.nrhs),
                         .reads = {e, b},
                         .writes = {b}});
  diag_solve_host(s, d);
}
void diag_solve(const Settings& s, const DiagBlock<double>& d, Recorder& rec) { diag_solve_round_trip(s, d, rec); }
void diag_solve(const Settings& s, const DiagBlock<std::complex<double>>& d, Recorder& rec) {
  diag_solve_round_trip(s, d, rec);
}

// ---- TRSM ---------------------------------------------------------------------------------------

// The inverse-diagonal-block form (fp32 data, real and complex; Du Croz & Higham, "Stability of
// methods for matrix inversion", IMA J. Numer. Anal. 12, 1992, method 2 applied blockwise). First
// W_b = T_b^-1 of every w x w diagonal block T_b of E (blocks at multiples of pmax), all in one
// launch, one program per block: diag_solve_group / diag_solve_complex_group on the identity's w
// columns (column substitution, componentwise |T W - I| <= gamma_w |T| |W| real, gamma_{3w+10} in
// |re| + |im| complex; the other triangle of W stays 0). Then, per block in solve order, after the
// GEMM update, Y_b = scale W_b Z_b by one GEMM on TensorE (K = w; complex: the 4M GEMM), reading a
// host copy of Z_b (the output overwrites it). Residual of a block: |T y - scale z| <= 2 gamma_{w+2}
// |T| |W| |scale z| (complex: gamma_{3w+10} + gamma_{2w+4}) — bounded by the block's condition, not
// componentwise like substitution (Settings::trsm_substitution).
template <class T>
std::vector<ScratchVector<T>> invert_diagonal_blocks(const Settings& s, const OpView<T>& E, std::int64_t order,
                                                   bool lower, bool unit, Recorder& rec) {
  const std::int64_t nb = block_size(s), blocks = (order + nb - 1) / nb;
  require(blocks <= INT_MAX, "too many diagonal blocks");
  std::vector<ScratchVector<T>> W(static_cast<std::size_t>(blocks));  // traced: the scratch stack
  std::vector<DiagBlock<T>> d(static_cast<std::size_t>(blocks));
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t e0 = b * nb, w = std::min(nb, order - e0);
    auto& wb = W[static_cast<std::size_t>(b)];
    wb.assign(static_cast<std::size_t>(w * w), T(0));
    for (std::int64_t i = 0; i < w; ++i) wb[static_cast<std::size_t>(i + i * w)] = T(1);
    const OpView<T> t = E.sub(e0, e0);
    DiagBlock<T>& db = d[static_cast<std::size_t>(b)];
    db.t = t.p;
    db.si = t.stride_i();
    db.sj = t.stride_j();
    db.w = w;
    db.lower = lower;
    db.unit = unit;
    db.conj = E.conj;
    db.b = wb.data();
    db.rs = w;
    db.es = 1;
    db.nrhs = w;
  }
  LaunchResult r = launch(s.launch_config({static_cast<int>(blocks), 1, 1}), [&](NeuronCore& nc) {
    const DiagBlock<T>& db = d[static_cast<std::size_t>(nc.program_id(0))];
    if constexpr (std::is_same_v<T, float>)
      diag_solve_group(nc, db, 0, static_cast<std::int32_t>(db.w), 1);
    else
      diag_solve_complex_group(nc, db, 0, static_cast<std::int32_t>(db.w), 1);
  });
  rec.add(r.trace);
  return W;
}

// Y_b = scale W Z_b for one block (see invert_diagonal_blocks). Returns false, having written
// nothing, when the block must be solved by substitution instead: W or Z_b holds an Inf or NaN
// (the GEMM would multiply it by W's exact zeros and spread it over the whole block, where
// substitution keeps netlib's propagation: only the rows that depend on it). The finiteness scan is
// host logic of the driver (not in the modeled profile).
template <class T>
bool apply_inverse_diagonal_block(const Settings& s, GemmMode mode, const ScratchVector<T>& W, std::int64_t w, bool left,
                                  std::int64_t m, std::int64_t n, T scale, T* Zb, std::int64_t ldb, Recorder& rec) {
  if (!s.timing_only) {
    const auto finite = [](const T& v) {
      if constexpr (kComplex<T>) return std::isfinite(v.real()) && std::isfinite(v.imag());
      else return std::isfinite(v);
    };
    if (!std::all_of(W.begin(), W.end(), finite)) return false;
    const std::int64_t rows = left ? w : m, cols = left ? n : w;
    for (std::int64_t j = 0; j < cols; ++j)
      if (!std::all_of(Zb + j * ldb, Zb + j * ldb + rows, finite)) return false;
  }
  if (left) {  // Y_b (w x n) = scale W Z_b
    ScratchVector<T> z(static_cast<std::size_t>(w * n));  // (timing-only: contents meaningless, not copied)
    for (std::int64_t j = 0; j < n && !s.timing_only; ++j) std::copy_n(Zb + j * ldb, w, z.begin() + j * w);
    gemm_any<T>(s, mode, w, n, w, scale, {W.data(), w, Op::N}, {z.data(), w, Op::N}, T(0), Zb, ldb, rec);
  } else {  // X_b (m x w) = Y_b^T = scale Z_b^T W^T, Z_b^T = B[:, b] (a plain transpose: Y = X^T)
    ScratchVector<T> z(static_cast<std::size_t>(m * w));
    for (std::int64_t j = 0; j < w && !s.timing_only; ++j) std::copy_n(Zb + j * ldb, m, z.begin() + j * m);
    gemm_any<T>(s, mode, m, w, w, scale, {z.data(), m, Op::N}, {W.data(), w, Op::T}, T(0), Zb, ldb, rec);
  }
  return true;
}

// One triangular system of trsm_impl: E Y = alpha Z with E = op(A), Y = X, Z = B (left) or
// E = op(A)^T, Y = X^T, Z = B^T (right); rows of Y and Z are rows (left) or columns (right) of B.
template <class T>
struct TriSystem {
  const Settings& s;
  GemmMode mode;
  OpView<T> E;
  bool left, lower, unit, conj;
  std::int64_t m, n;  // B is m x n
  T* B;
  std::int64_t ldb;
  Recorder& rec;
  std::int64_t nrhs() const { return left ? n : m; }
  T* rows(std::int64_t e0) const { return left ? B + e0 : B + e0 * ldb; }  // Z[e0, :]
};

// Z[e0:e0+w] = beta Z[e0:e0+w] - E[e0:e0+w, k0:k0+klen] Y[k0:k0+klen]: one GEMM (fp32 PSUM for S/C,
// Ozaki for D/Z) whose contraction is the solved range.
template <class T>
void update_rows(const TriSystem<T>& t, std::int64_t e0, std::int64_t w, std::int64_t k0, std::int64_t klen, T beta) {
  const OpView<T> e_bk = t.E.sub(e0, k0);  // w x klen
  if (t.left)  // B[e0:e0+w, :] = -E[b, K] X[K, :] + beta B[e0:e0+w, :]
    gemm_any<T>(t.s, t.mode, w, t.n, klen, T(-1), e_bk, {t.B + k0, t.ldb, Op::N}, beta, t.B + e0, t.ldb, t.rec);
  else  // B[:, e0:e0+w] = -X[:, K] op(A)[K, b] + beta B[:, e0:e0+w], op(A)[K, b] = E[b, K]^T
    gemm_any<T>(t.s, t.mode, t.m, w, klen, T(-1), {t.B + k0 * t.ldb, t.ldb, Op::N}, e_bk.transposed(), beta,
                t.B + e0 * t.ldb, t.ldb, t.rec);
}

// The diagonal block E[e0:e0+w, e0:e0+w] by substitution on every right-hand side (scaled first).
template <class T>
void substitute_block(const TriSystem<T>& t, std::int64_t e0, std::int64_t w, T scale) {
  const OpView<T> e_bb = t.E.sub(e0, e0);
  DiagBlock<T> d;
  d.t = e_bb.p;
  d.si = e_bb.stride_i();
  d.sj = e_bb.stride_j();
  d.w = w;
  d.lower = t.lower;
  d.unit = t.unit;
  d.conj = t.conj;
  d.b = t.rows(e0);
  d.rs = t.left ? t.ldb : 1;
  d.es = t.left ? 1 : t.ldb;
  d.nrhs = t.nrhs();
  d.scale = scale;
  diag_solve(t.s, d, t.rec);
}

// The first part of a recursive split of w columns: half the leaves, rounded down (at least one).
std::int64_t recursive_split(std::int64_t w, std::int64_t leaf) {
  const std::int64_t leaves = (w + leaf - 1) / leaf;
  return std::max<std::int64_t>(1, leaves / 2) * leaf;
}

// fp64 data (D, Z): Y[e0:e0+w] by the recursive split of trn/blas/trsm_fp64.hpp. The half solved
// first takes `scale` (alpha at the top); the update applies it to the other half (GEMM beta), whose
// solve then scales by 1. Leaves (w <= leaf): host substitution, one costed host step each.
template <class T>
void solve_recursive(const TriSystem<T>& t, std::int64_t e0, std::int64_t w, T scale, std::int64_t leaf) {
  if (w <= leaf) return substitute_block(t, e0, w, scale);
  const std::int64_t n1 = recursive_split(w, leaf), n2 = w - n1;
  if (t.lower) {  // forward: Y1, then Z2 = scale Z2 - E21 Y1, then Y2
    solve_recursive(t, e0, n1, scale, leaf);
    update_rows(t, e0 + n1, n2, e0, n1, scale);
    solve_recursive(t, e0 + n1, n2, T(1), leaf);
  } else {  // backward: Y2, then Z1 = scale Z1 - E12 Y2, then Y1
    solve_recursive(t, e0 + n1, n2, scale, leaf);
    update_rows(t, e0, n1, e0 + n1, n2, scale);
    solve_recursive(t, e0, n1, T(1), leaf);
  }
}

template <class T>
constexpr bool kFp32Class = std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>>;

// fp32 data (real and complex) with at most kTrsmNarrowMaxRhs right-hand sides: the whole solve as one TensorE
// kernel (trsm_narrow_kernel.cpp: Newton-Schulz inverses of the diagonal blocks, block rows by
// matmuls). Returns false, B as it was, when the result is not finite: Inf/NaN in the data (which
// the inverse form spreads over a whole block, where substitution keeps netlib's propagation) or an
// overflowing inverse; the caller then substitutes. The finiteness scan and the copy of B are host
// logic of the driver (not in the modeled profile).
template <class T>
bool solve_narrow(const TriSystem<T>& t, T alpha) {
  detail::NarrowTrsm<T> p;
  p.e = t.E.p;
  p.si = t.E.stride_i();
  p.sj = t.E.stride_j();
  p.order = t.left ? t.m : t.n;
  p.lower = t.lower;
  p.unit = t.unit;
  p.conj = t.conj;
  p.z = t.B;
  p.es = t.left ? 1 : t.ldb;
  p.rs = t.left ? t.ldb : 1;
  p.nrhs = t.nrhs();
  p.alpha = alpha;
  std::vector<T> saved;
  const auto finite = [](const T& v) {
    if constexpr (kComplex<T>) return std::isfinite(v.real()) && std::isfinite(v.imag());
    else return std::isfinite(v);
  };
  const auto for_each_rhs = [&](auto&& f) {
    for (std::int64_t r = 0; r < p.nrhs; ++r) f(r);
  };
  if (!t.s.timing_only) {
    saved.resize(static_cast<std::size_t>(p.order * p.nrhs));
    for_each_rhs([&](std::int64_t r) {
      for (std::int64_t i = 0; i < p.order; ++i) saved[static_cast<std::size_t>(r * p.order + i)] = p.z[i * p.es + r * p.rs];
    });
  }
  LaunchResult lr = launch(t.s.launch_config({1, 1, 1}), [&](NeuronCore& nc) { detail::trsm_narrow_kernel(nc, p); });
  t.rec.add(lr.trace);
  if (t.s.timing_only) return true;
  bool ok = true;
  for_each_rhs([&](std::int64_t r) {
    for (std::int64_t i = 0; i < p.order; ++i) ok = ok && finite(p.z[i * p.es + r * p.rs]);
  });
  if (ok) return true;
  for_each_rhs([&](std::int64_t r) {
    for (std::int64_t i = 0; i < p.order; ++i) p.z[i * p.es + r * p.rs] = saved[static_cast<std::size_t>(r * p.order + i)];
  });
  return false;
}

// fp32 data (S, C): blocks of pmax rows of Y in solve order (forward for lower E); each block first
// takes the GEMM update Z_b = alpha Z_b - E[b, solved] Y[solved] (one GEMM, the whole solved range as
// its contraction, fp32 PSUM), then the diagonal block: by default its inverse applied as a GEMM
// (apply_inverse_diagonal_block), with Settings::trsm_substitution by substitution on every
// right-hand side.
template <class T>
void solve_blocked(const TriSystem<T>& t, T alpha) {
  const std::int64_t order = t.left ? t.m : t.n, nb = block_size(t.s), blocks = (order + nb - 1) / nb;
  // The right-hand sides the algorithm is chosen by: the whole solve's when this call is a piece of
  // one (Settings::trsm_whole_rhs), so every split of it takes the same branch below.
  const std::int64_t choice_rhs = std::max(t.nrhs(), t.s.trsm_whole_rhs);
  if (!t.s.trsm_substitution && t.mode == GemmMode::fp32 && choice_rhs <= kTrsmNarrowMaxRhs &&
      order <= kTrsmNarrowMaxOrder && solve_narrow(t, alpha))
    return;
  // W_b = T_b^-1 per diagonal block, when there are more right-hand sides than partitions. With
  // nrhs <= pmax the substitution kernel solves them all in one pass of 3w (complex 22w) VectorE
  // instructions over w elements per partition — what inverting a block costs — so the inverse form
  // would only add its GEMMs (and its looser bound).
  std::vector<ScratchVector<T>> inverses;
  if (!t.s.trsm_substitution && choice_rhs > block_size(t.s))
    inverses = invert_diagonal_blocks<T>(t.s, t.E, order, t.lower, t.unit, t.rec);
  for (std::int64_t step = 0; step < blocks; ++step) {
    const std::int64_t e0 = (t.lower ? step : blocks - 1 - step) * nb, w = std::min(nb, order - e0);
    const std::int64_t k0 = t.lower ? 0 : e0 + w, klen = t.lower ? e0 : order - e0 - w;  // solved range
    T scale = alpha;
    if (klen > 0) {
      update_rows(t, e0, w, k0, klen, alpha);
      scale = T(1);
    }
    if (!inverses.empty() && apply_inverse_diagonal_block<T>(t.s, t.mode, inverses[static_cast<std::size_t>(e0 / nb)],
                                                             w, t.left, t.m, t.n, scale, t.rows(e0), t.ldb, t.rec))
      continue;
    substitute_block(t, e0, w, scale);
  }
}

// TRSM: op(A) X = alpha B (left) or X op(A) = alpha B (right), B overwritten by X. fp32 data by
// solve_blocked, fp64 data by solve_recursive with leaves of `leaf` columns (0: kFp64TrsmLeaf).
template <class T>
void trsm_impl(const Settings& s, GemmMode mode, Side side, Uplo uplo, Op trans, bool conj, Diag diag,
               std::int64_t m, std::int64_t n, T alpha, const T* A, std::int64_t lda, T* B, std::int64_t ldb,
               CallReport* report, std::int64_t leaf = 0) {
  const bool left = side == Side::left;
  const std::int64_t order = left ? m : n, nrhs = left ? n : m;
  require(m >= 0 && n >= 0, "m, n must be non-negative");
  require(lda >= std::max<std::int64_t>(1, order) && ldb >= std::max<std::int64_t>(1, m), "lda, ldb too small");
  require(leaf >= 0 && leaf <= kFp64TrsmMaxLeaf, "fp64 TRSM leaf must be in 1..32");
  Recorder rec(s, report);
  if (m == 0 || n == 0) return;
  if (alpha == T(0)) return zero_fill(s, m, n, B, ldb);
  const OpView<T> op_a{A, lda, trans, conj};
  const bool lower = ((uplo == Uplo::lower) == (trans == Op::N)) == left;
  const TriSystem<T> t{s, mode, left ? op_a : op_a.transposed(), left, lower, diag == Diag::unit, conj, m, n, B, ldb, rec};
  if constexpr (kFp32Class<T>) {
    solve_blocked(t, alpha);
  } else {
    const std::int64_t l = leaf > 0 ? leaf : kFp64TrsmLeaf;
    if (report != nullptr) report->add_plan(plan_fp64_trsm(order, nrhs, kComplex<T>, l));
    solve_recursive(t, 0, order, alpha, l);
  }
}

// ---- TRMM ---------------------------------------------------------------------------------------

// Whether the m x n column-major regions at X (ldx) and Y (ldy) share any element address range.
template <class T>
bool overlaps(const T* X, std::int64_t ldx, const T* Y, std::int64_t ldy, std::int64_t m, std::int64_t n) {
  const auto lo_x = reinterpret_cast<std::uintptr_t>(X), lo_y = reinterpret_cast<std::uintptr_t>(Y);
  const auto hi_x = reinterpret_cast<std::uintptr_t>(X + (n - 1) * ldx + m);
  const auto hi_y = reinterpret_cast<std::uintptr_t>(Y + (n - 1) * ldy + m);
  return lo_x < hi_y && lo_y < hi_x;
}

// Blocks of pmax rows (left) or columns (right) of C; each is one GEMM over exactly the
// contraction range the triangle of op(A) covers, with op(A)'s panel packed on the host (a copy:
// the other triangle as zeros, a unit diagonal as ones, so the unreferenced triangle is never read).
template <class T>
void trmm_impl(const Settings& s, GemmMode mode, Side side, Uplo uplo, Op trans, bool conj, Diag diag,
               std::int64_t m, std::int64_t n, T alpha, const T* A, std::int64_t lda, const T* B, std::int64_t ldb, T* C,
               std::int64_t ldc, CallReport* report) {
  const bool left = side == Side::left;
  const std::int64_t order = left ? m : n;
  detail::require_side_shapes(m, n, order, lda, ldb, ldc);
  Recorder rec(s, report);
  if (m == 0 || n == 0) return;
  if (alpha == T(0)) return zero_fill(s, m, n, C, ldc);
  // Traced temporaries (the GEMMs read them as HBM) are ScratchVectors here and below: modeled time
  // independent of malloc's history (docs/cost-model.md section 2, "Scratch addresses").
  ScratchVector<T> b_copy;  // in place (C is B, the reference-BLAS form): the GEMMs read a copy of B
  if (overlaps(B, ldb, C, ldc, m, n)) {
    b_copy.resize(static_cast<std::size_t>(m * n));
    for (std::int64_t j = 0; j < n; ++j) std::copy(B + j * ldb, B + j * ldb + m, b_copy.begin() + j * m);
    B = b_copy.data();
    ldb = m;
  }
  const OpView<T> op_a{A, lda, trans, conj};
  const bool lower = (uplo == Uplo::lower) == (trans == Op::N);  // op(A) lower triangular
  const bool unit = diag == Diag::unit;
  auto tri = [&](std::int64_t i, std::int64_t j) -> T {  // op(A)(i, j) with the triangle applied
    if (lower ? i < j : i > j) return T(0);
    return i == j && unit ? T(1) : op_a.at(i, j);
  };
  const std::int64_t nb = block_size(s);
  ScratchVector<T> panel;
  for (std::int64_t b0 = 0; b0 < order; b0 += nb) {
    const std::int64_t w = std::min(nb, order - b0);
    if (left) {  // C[b, :] = alpha op(A)[b, K] B[K, :]
      const std::int64_t k0 = lower ? 0 : b0, klen = lower ? b0 + w : order - b0;
      panel.assign(static_cast<std::size_t>(w * klen), T(0));
      for (std::int64_t kk = 0; kk < klen; ++kk)
        for (std::int64_t i = 0; i < w; ++i) panel[static_cast<std::size_t>(i + kk * w)] = tri(b0 + i, k0 + kk);
      gemm_any<T>(s, mode, w, n, klen, alpha, {panel.data(), w, Op::N}, {B + k0, ldb, Op::N}, T(0), C + b0, ldc, rec);
    } else {  // C[:, b] = alpha B[:, K] op(A)[K, b]
      const std::int64_t k0 = lower ? b0 : 0, klen = lower ? order - b0 : b0 + w;
      panel.assign(static_cast<std::size_t>(klen * w), T(0));
      for (std::int64_t j = 0; j < w; ++j)
        for (std::int64_t kk = 0; kk < klen; ++kk) panel[static_cast<std::size_t>(kk + j * klen)] = tri(k0 + kk, b0 + j);
      gemm_any<T>(s, mode, m, w, klen, alpha, {B + k0 * ldb, ldb, Op::N}, {panel.data(), klen, Op::N}, T(0),
                  C + b0 * ldc, ldc, rec);
    }
  }
}

// ---- SYMM ---------------------------------------------------------------------------------------

// The full symmetric A is packed on the host from its uplo triangle (a copy), then one GEMM.
template <class T>
void symm_impl(const Settings& s, GemmMode mode, Side side, Uplo uplo, std::int64_t m, std::int64_t n, T alpha,
               const T* A, std::int64_t lda, const T* B, std::int64_t ldb, T beta, T* C, std::int64_t ldc,
               CallReport* report) {
  const bool left = side == Side::left;
  const std::int64_t order = left ? m : n;
  detail::require_side_shapes(m, n, order, lda, ldb, ldc);
  Recorder rec(s, report);
  if (m == 0 || n == 0) return;
  ScratchVector<T> full;  // traced: the scratch stack
  const T* a_full = nullptr;  // alpha == 0: A and B are not read
  if (alpha != T(0)) {
    full.resize(static_cast<std::size_t>(order * order));
    const bool lower = uplo == Uplo::lower;
    for (std::int64_t j = 0; j < order; ++j)
      for (std::int64_t i = 0; i < order; ++i)
        full[static_cast<std::size_t>(i + j * order)] = (lower ? i >= j : i <= j) ? A[i + j * lda] : A[j + i * lda];
    a_full = full.data();
  }
  const OpView<T> a{a_full, order, Op::N}, b{B, ldb, Op::N};
  if (left)
    gemm_any<T>(s, mode, m, n, m, alpha, a, b, beta, C, ldc, rec);
  else
    gemm_any<T>(s, mode, m, n, n, alpha, b, a, beta, C, ldc, rec);
}

// ---- SYR2K / SYRKX: the uplo triangle of a GEMM -------------------------------------------------

// C = alpha a b + beta C on the uplo triangle (a: n x K, b: K x n). Blocks of pmax rows of C: the
// rectangle beside the diagonal block is one GEMM straight on C; the diagonal block goes through a
// w x w scratch that holds only C's uplo triangle (zeros elsewhere), so the other triangle of C is
// neither read nor written.
template <class T>
void gemmt(const Settings& s, GemmMode mode, Uplo uplo, std::int64_t n, std::int64_t K, T alpha, OpView<T> a,
           OpView<T> b, T beta, T* C, std::int64_t ldc, Recorder& rec) {
  if (n == 0 || ((alpha == T(0) || K == 0) && beta == T(1))) return;
  if (K == 0) alpha = T(0);  // C = beta C: the GEMMs then read no operand
  const bool lower = uplo == Uplo::lower;
  const std::int64_t nb = block_size(s);
  ScratchVector<T> scratch(static_cast<std::size_t>(nb * nb));  // traced: the scratch stack
  for (std::int64_t i0 = 0; i0 < n; i0 += nb) {
    const std::int64_t w = std::min(nb, n - i0);
    if (lower && i0 > 0)
      gemm_any<T>(s, mode, w, i0, K, alpha, a.sub(i0, 0), b, beta, C + i0, ldc, rec);
    if (!lower && i0 + w < n)
      gemm_any<T>(s, mode, w, n - i0 - w, K, alpha, a.sub(i0, 0), b.sub(0, i0 + w), beta, C + i0 + (i0 + w) * ldc,
                  ldc, rec);
    auto in_tri = [&](std::int64_t i, std::int64_t j) { return lower ? i >= j : i <= j; };
    T* S = scratch.data();
    for (std::int64_t j = 0; j < w; ++j)
      for (std::int64_t i = 0; i < w; ++i)
        S[i + j * w] = beta != T(0) && in_tri(i, j) ? C[(i0 + i) + (i0 + j) * ldc] : T(0);
    gemm_any<T>(s, mode, w, w, K, alpha, a.sub(i0, 0), b.sub(0, i0), beta, S, w, rec);
    if (s.timing_only) continue;
    for (std::int64_t j = 0; j < w; ++j)
      for (std::int64_t i = 0; i < w; ++i)
        if (in_tri(i, j)) C[(i0 + i) + (i0 + j) * ldc] = S[i + j * w];
  }
}

void check_rank2k(std::int64_t n, std::int64_t k, Op trans, std::int64_t lda, std::int64_t ldb, std::int64_t ldc) {
  const std::int64_t rows = trans == Op::N ? n : k;
  require(n >= 0 && k >= 0, "n, k must be non-negative");
  require(lda >= std::max<std::int64_t>(1, rows) && ldb >= std::max<std::int64_t>(1, rows) &&
              ldc >= std::max<std::int64_t>(1, n),
          "lda, ldb, ldc too small");
}

// SYR2K as one contraction of length 2k: [op(A) op(B)] [op(B) op(A)]^T, packed on the host (a copy),
// so each element of C is one fp32 PSUM accumulation (the op(A) op(B)^T terms first), then the
// epilogue alpha * acc + beta * c.
template <class T>
void syr2k_impl(const Settings& s, GemmMode mode, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, T alpha,
                const T* A, std::int64_t lda, const T* B, std::int64_t ldb, T beta, T* C, std::int64_t ldc,
                CallReport* report) {
  check_rank2k(n, k, trans, lda, ldb, ldc);
  Recorder rec(s, report);
  if (n == 0) return;
  if (alpha == T(0) || k == 0) return gemmt<T>(s, mode, uplo, n, 0, alpha, {}, {}, beta, C, ldc, rec);
  const OpView<T> op_a{A, lda, trans}, op_b{B, ldb, trans};
  ScratchVector<T> left(static_cast<std::size_t>(n * 2 * k)), right(left.size());  // n x 2k each, ld n; traced
  for (std::int64_t l = 0; l < k; ++l)
    for (std::int64_t i = 0; i < n; ++i) {
      left[static_cast<std::size_t>(i + l * n)] = right[static_cast<std::size_t>(i + (k + l) * n)] = op_a.at(i, l);
      right[static_cast<std::size_t>(i + l * n)] = left[static_cast<std::size_t>(i + (k + l) * n)] = op_b.at(i, l);
    }
  gemmt<T>(s, mode, uplo, n, 2 * k, alpha, {left.data(), n, Op::N}, {right.data(), n, Op::T}, beta, C, ldc, rec);
}

template <class T>
void syrkx_impl(const Settings& s, GemmMode mode, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, T alpha,
                const T* A, std::int64_t lda, const T* B, std::int64_t ldb, T beta, T* C, std::int64_t ldc,
                CallReport* report) {
  check_rank2k(n, k, trans, lda, ldb, ldc);
  Recorder rec(s, report);
  if (alpha == T(0) || k == 0) return gemmt<T>(s, mode, uplo, n, 0, alpha, {}, {}, beta, C, ldc, rec);
  // op(B)^T is k x n: the transpose of the op(B) view.
  gemmt<T>(s, mode, uplo, n, k, alpha, {A, lda, trans}, OpView<T>{B, ldb, trans}.transposed(), beta, C, ldc, rec);
}

void require_fp32_class(GemmMode mode) { require(mode != GemmMode::fp64_ozaki, "fp64 data goes through the D routines"); }

}  // namespace

void strsm(const Settings& s, GemmMode mode, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m, std::int64_t n,
           float alpha, const float* A, std::int64_t lda, float* B, std::int64_t ldb, CallReport* report) {
  require_fp32_class(mode);
  trsm_impl<float>(s, mode, side, uplo, trans, false, diag, m, n, alpha, A, lda, B, ldb, report);
}
void dtrsm(const Settings& s, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m, std::int64_t n, double alpha,
           const double* A, std::int64_t lda, double* B, std::int64_t ldb, CallReport* report) {
  trsm_impl<double>(s, GemmMode::fp64_ozaki, side, uplo, trans, false, diag, m, n, alpha, A, lda, B, ldb, report);
}

void dtrsm_with_leaf(const Settings& s, std::int64_t leaf, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m,
                     std::int64_t n, double alpha, const double* A, std::int64_t lda, double* B, std::int64_t ldb,
                     CallReport* report) {
  require(leaf >= 1, "fp64 TRSM leaf must be in 1..32");
  trsm_impl<double>(s, GemmMode::fp64_ozaki, side, uplo, trans, false, diag, m, n, alpha, A, lda, B, ldb, report, leaf);
}

// The recursion of solve_recursive counted: leaves of at most `leaf` columns, one update between the
// two halves of every split, depth the longest chain of splits.
Fp64TrsmPlan plan_fp64_trsm(std::int64_t order, std::int64_t nrhs, bool complex_data, std::int64_t leaf) {
  require(leaf >= 1 && leaf <= kFp64TrsmMaxLeaf && order >= 0 && nrhs >= 0, "fp64 TRSM plan: 1 <= leaf <= 32");
  Fp64TrsmPlan p;
  p.order = order;
  p.nrhs = nrhs;
  p.leaf = leaf;
  p.complex_data = complex_data;
  p.leaves = order > 0 ? (order + leaf - 1) / leaf : 0;
  p.updates = std::max<std::int64_t>(0, p.leaves - 1);
  for (std::int64_t w = order; w > leaf; w = w - recursive_split(w, leaf)) ++p.depth;  // the larger half
  return p;
}

std::string Fp64TrsmPlan::print() const {
  const char* t = complex_data ? "ztrsm" : "dtrsm";
  return std::string(t) + " plan, order " + std::to_string(order) + ", nrhs " + std::to_string(nrhs) +
         ": recursive diagonal blocks, leaf " + std::to_string(leaf) + " columns (chosen by modeled time, trn1/trn2); " +
         std::to_string(leaves) + " host substitution leaves (trnblas." + t + ".diag_solve), " +
         std::to_string(updates) + " Ozaki " + (complex_data ? "ZGEMM (4M)" : "DGEMM") + " updates on TensorE, depth " +
         std::to_string(depth);
}

void strmm(const Settings& s, GemmMode mode, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m, std::int64_t n,
           float alpha, const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float* C, std::int64_t ldc,
           CallReport* report) {
  require_fp32_class(mode);
  trmm_impl<float>(s, mode, side, uplo, trans, false, diag, m, n, alpha, A, lda, B, ldb, C, ldc, report);
}
void dtrmm(const Settings& s, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m, std::int64_t n, double alpha,
           const double* A, std::int64_t lda, const double* B, std::int64_t ldb, double* C, std::int64_t ldc,
           CallReport* report) {
  trmm_impl<double>(s, GemmMode::fp64_ozaki, side, uplo, trans, false, diag, m, n, alpha, A, lda, B, ldb, C, ldc, report);
}

namespace {
Op real_op(COp op) { return op == COp::N ? Op::N : Op::T; }
}  // namespace

void ctrsm(const Settings& s, GemmMode mode, Side side, Uplo uplo, COp trans, Diag diag, std::int64_t m, std::int64_t n,
           std::complex<float> alpha, const std::complex<float>* A, std::int64_t lda, std::complex<float>* B,
           std::int64_t ldb, CallReport* report) {
  require_fp32_class(mode);
  trsm_impl<std::complex<float>>(s, mode, side, uplo, real_op(trans), trans == COp::C, diag, m, n, alpha, A, lda, B,
                                 ldb, report);
}
void ztrsm(const Settings& s, Side side, Uplo uplo, COp trans, Diag diag, std::int64_t m, std::int64_t n,
           std::complex<double> alpha, const std::complex<double>* A, std::int64_t lda, std::complex<double>* B,
           std::int64_t ldb, CallReport* report) {
  trsm_impl<std::complex<double>>(s, GemmMode::fp64_ozaki, side, uplo, real_op(trans), trans == COp::C, diag, m, n,
                                  alpha, A, lda, B, ldb, report);
}
void ztrsm_with_leaf(const Settings& s, std::int64_t leaf, Side side, Uplo uplo, COp trans, Diag diag, std::int64_t m,
                     std::int64_t n, std::complex<double> alpha, const std::complex<double>* A, std::int64_t lda,
                     std::complex<double>* B, std::int64_t ldb, CallReport* report) {
  require(leaf >= 1, "fp64 TRSM leaf must be in 1..32");
  trsm_impl<std::complex<double>>(s, GemmMode::fp64_ozaki, side, uplo, real_op(trans), trans == COp::C, diag, m, n,
                                  alpha, A, lda, B, ldb, report, leaf);
}
void ctrmm(const Settings& s, GemmMode mode, Side side, Uplo uplo, COp trans, Diag diag, std::int64_t m, std::int64_t n,
           std::complex<float> alpha, const std::complex<float>* A, std::int64_t lda, const std::complex<float>* B,
           std::int64_t ldb, std::complex<float>* C, std::int64_t ldc, CallReport* report) {
  require_fp32_class(mode);
  trmm_impl<std::complex<float>>(s, mode, side, uplo, real_op(trans), trans == COp::C, diag, m, n, alpha, A, lda, B,
                                 ldb, C, ldc, report);
}
void ztrmm(const Settings& s, Side side, Uplo uplo, COp trans, Diag diag, std::int64_t m, std::int64_t n,
           std::complex<double> alpha, const std::complex<double>* A, std::int64_t lda, const std::complex<double>* B,
           std::int64_t ldb, std::complex<double>* C, std::int64_t ldc, CallReport* report) {
  trmm_impl<std::complex<double>>(s, GemmMode::fp64_ozaki, side, uplo, real_op(trans), trans == COp::C, diag, m, n,
                                  alpha, A, lda, B, ldb, C, ldc, report);
}

void ssymm(const Settings& s, GemmMode mode, Side side, Uplo uplo, std::int64_t m, std::int64_t n, float alpha,
           const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc,
           CallReport* report) {
  require_fp32_class(mode);
  symm_impl<float>(s, mode, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
}
void dsymm(const Settings& s, Side side, Uplo uplo, std::int64_t m, std::int64_t n, double alpha, const double* A,
           std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C, std::int64_t ldc,
           CallReport* report) {
  symm_impl<double>(s, GemmMode::fp64_ozaki, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc, report);
}

void ssyr2k(const Settings& s, GemmMode mode, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, float alpha,
            const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc,
            CallReport* report) {
  require_fp32_class(mode);
  syr2k_impl<float>(s, mode, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
}
void dsyr2k(const Settings& s, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, double alpha, const double* A,
            std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C, std::int64_t ldc,
            CallReport* report) {
  syr2k_impl<double>(s, GemmMode::fp64_ozaki, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
}

void ssyrkx(const Settings& s, GemmMode mode, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, float alpha,
            const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc,
            CallReport* report) {
  require_fp32_class(mode);
  syrkx_impl<float>(s, mode, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
}
void dsyrkx(const Settings& s, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, double alpha, const double* A,
            std::int64_t lda, const double* B, std::int64_t ldb, double beta, double* C, std::int64_t ldc,
            CallReport* report) {
  syrkx_impl<double>(s, GemmMode::fp64_ozaki, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
}

// ---- int8 GEMM, exact int32 result (COMPUTE_32I) -----------------------------------------------

// Every int8 value is a bfloat16 value (|v| <= 128 needs 8 significant bits), every product of two
// is an integer of magnitude <= 2^14, exact in fp32, and a sum of <= 1024 of them stays <= 2^24, so
// an fp32 PSUM accumulation over a K chunk of <= 1024 is exact in any order. The chunks are TensorE
// GEMMs in the native bf16 mode (fp32 results, integer-valued); the host adds the chunk results
// and forms alpha * acc + beta * C in 64-bit integers, wrapped to int32 (two's complement), as an
// integer epilogue (no rounding anywhere: the result is the exact integer, modulo 2^32).
namespace {

// bf16 bit pattern of an int8 value (exact: |v| <= 128 needs 8 significant bits).
std::uint16_t int8_as_bf16(std::int8_t v) {
  return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(v)) >> 16);
}

// op(X) of an int8 matrix as bf16 bit patterns, rows x cols packed with leading dimension rows. The
// GEMM reads it as HBM: on the scratch stack (docs/cost-model.md section 2, "Scratch addresses").
ScratchVector<std::uint16_t> int8_op_as_bf16(Op t, std::int64_t rows, std::int64_t cols, const std::int8_t* X,
                                             std::int64_t ld) {
  ScratchVector<std::uint16_t> out(static_cast<std::size_t>(rows * cols));
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i)
      out[static_cast<std::size_t>(i + j * rows)] = int8_as_bf16(t == Op::N ? X[i + j * ld] : X[j + i * ld]);
  return out;
}

// The exact integer op(A) op(B) (m x n, ld m): TensorE GEMMs over K chunks of <= 1024 (exact fp32
// PSUM sums) into `part` (traced: a ScratchVector), chunk results added in 64-bit integers. Empty
// when s.timing_only.
// `partials` is set to the chunk results as the device range the host epilogue fetches (one
// m x n fp32 block per chunk, the buffer reused).
constexpr std::int64_t kInt8Chunk = 1024;  // 1024 * 2^14 = 2^24: exact fp32 sums
std::vector<std::int64_t> int8_products(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k,
                                        const std::int8_t* A, std::int64_t lda, const std::int8_t* B, std::int64_t ldb,
                                        ScratchVector<float>& part, HostSpan& partials, detail::Recorder& rec) {
  constexpr std::int64_t kChunk = kInt8Chunk;
  std::vector<std::int64_t> acc(static_cast<std::size_t>(m * n), 0);
  if (k == 0) return acc;
  const ScratchVector<std::uint16_t> a16 = int8_op_as_bf16(ta, m, k, A, lda), b16 = int8_op_as_bf16(tb, k, n, B, ldb);
  part.assign(static_cast<std::size_t>(m * n), 0.0f);
  partials = HostSpan(part.data(), m * n);
  partials.bytes *= static_cast<std::size_t>((k + kChunk - 1) / kChunk);
  for (std::int64_t k0 = 0; k0 < k; k0 += kChunk) {
    const std::int64_t kc = std::min(kChunk, k - k0);
    CallReport sub;
    gemm(s, GemmMode::native, Op::N, Op::N, m, n, kc, 1.0f, {a16.data() + k0 * m, DType::bf16, m},
         {b16.data() + k0, DType::bf16, k}, 0.0f, {part.data(), DType::f32, m}, &sub);
    rec.add(sub);
    if (!s.timing_only)
      for (std::size_t i = 0; i < part.size(); ++i) acc[i] += static_cast<std::int64_t>(part[i]);
  }
  return acc;
}

// The host epilogue's round trip: the chunk results and C (when beta != 0) to the host, C back;
// per output the chunk additions and alpha acc + beta c (3 operations; integer or fp32, declared).
template <class C>
void record_int8_epilogue(detail::Recorder& rec, std::string_view name, std::int64_t m, std::int64_t n, std::int64_t k,
                          const HostSpan& partials, bool beta_used, const C* c, std::int64_t ldc) {
  const HostSpan cs = HostSpan::matrix(c, m, n, ldc);
  const double chunks = static_cast<double>((k + kInt8Chunk - 1) / kInt8Chunk);
  rec.host_step(HostStep{.name = name, .flops = (chunks + 3.0) * static_cast<double>(m * n),
                         .reads = {partials, beta_used ? cs : HostSpan{}}, .writes = {cs}});
}

}  // namespace

// Every int8 value is a bfloat16 value (|v| <= 128 needs 8 significant bits), every product of two
// is an integer of magnitude <= 2^14, exact in fp32, and a sum of <= 1024 of them stays <= 2^24, so
// an fp32 PSUM accumulation over a K chunk of <= 1024 is exact in any order. The chunks are TensorE
// GEMMs in the native bf16 mode (fp32 results, integer-valued); the host adds the chunk results
// and forms alpha * acc + beta * C in 64-bit integers, wrapped to int32 (two's complement), as an
// integer epilogue (no rounding anywhere: the result is the exact integer, modulo 2^32).
void gemm_i8(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, std::int32_t alpha,
             const std::int8_t* A, std::int64_t lda, const std::int8_t* B, std::int64_t ldb, std::int32_t beta,
             std::int32_t* C, std::int64_t ldc, CallReport* report) {
  require(m >= 0 && n >= 0 && k >= 0, "m, n, k must be non-negative");
  detail::Recorder rec(s, report);
  if (m == 0 || n == 0) return;
  ScratchVector<float> part;  // written by the GEMMs: traced
  HostSpan partials;
  const std::int64_t kk = alpha != 0 ? k : 0;
  const std::vector<std::int64_t> acc = int8_products(s, ta, tb, m, n, kk, A, lda, B, ldb, part, partials, rec);
  record_int8_epilogue(rec, "trnblas.gemm_i8.epilogue", m, n, kk, partials, beta != 0, C, ldc);
  if (s.timing_only) return;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      std::int64_t v = static_cast<std::int64_t>(alpha) * acc[static_cast<std::size_t>(i + j * m)];
      if (beta != 0) v += static_cast<std::int64_t>(beta) * C[i + j * ldc];
      C[i + j * ldc] = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v)));
    }
}

// As gemm_i8, with the float epilogue of cuBLASLt's int8-output row: the exact sum rounded once to
// fp32, fl(fl(alpha * acc) + fl(beta * c)), then the engines' fp32 -> int8 conversion (RNE, saturate,
// NaN -> 0; trn::f32_to_int_saturate). Host side, like gemm_i8's integer epilogue.
void gemm_i8_to_i8(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                   const std::int8_t* A, std::int64_t lda, const std::int8_t* B, std::int64_t ldb, float beta,
                   std::int8_t* C, std::int64_t ldc, CallReport* report) {
  require(m >= 0 && n >= 0 && k >= 0, "m, n, k must be non-negative");
  detail::Recorder rec(s, report);
  if (m == 0 || n == 0) return;
  ScratchVector<float> part;  // written by the GEMMs: traced
  HostSpan partials;
  const std::int64_t kk = alpha != 0.0f ? k : 0;
  const std::vector<std::int64_t> acc = int8_products(s, ta, tb, m, n, kk, A, lda, B, ldb, part, partials, rec);
  record_int8_epilogue(rec, "trnblas.gemm_i8_to_i8.epilogue", m, n, kk, partials, beta != 0.0f, C, ldc);
  if (s.timing_only) return;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      float v = alpha * static_cast<float>(acc[static_cast<std::size_t>(i + j * m)]);
      if (beta != 0.0f) v += beta * static_cast<float>(C[i + j * ldc]);
      C[i + j * ldc] = static_cast<std::int8_t>(trn::f32_to_int_saturate(DType::i8, v));
    }
}

void gemm_i8_f32(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                 const std::int8_t* A, std::int64_t lda, const std::int8_t* B, std::int64_t ldb, float beta, float* C,
                 std::int64_t ldc, CallReport* report) {
  require(m >= 0 && n >= 0 && k >= 0, "m, n, k must be non-negative");
  detail::Recorder rec(s, report);
  if (m == 0 || n == 0) return;
  const bool products = alpha != 0.0f && k > 0;
  ScratchVector<std::uint16_t> a16, b16;  // read by the GEMM: traced
  if (products) {
    a16 = int8_op_as_bf16(ta, m, k, A, lda);
    b16 = int8_op_as_bf16(tb, k, n, B, ldb);
  }
  CallReport sub;
  gemm(s, GemmMode::native, Op::N, Op::N, m, n, products ? k : 0, alpha, {products ? a16.data() : nullptr, DType::bf16, std::max<std::int64_t>(1, m)},
       {products ? b16.data() : nullptr, DType::bf16, std::max<std::int64_t>(1, k)}, beta, {C, DType::f32, ldc}, &sub);
  rec.add(sub);
}

}  // namespace trn::blas
