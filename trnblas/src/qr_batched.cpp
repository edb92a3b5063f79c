// Batched Householder QR and least squares (trn/blas/level3.hpp "Batched QR"): cuBLAS's
// geqrfBatched and gelsBatched of many small matrices. As the batched LU (lu_batched.cpp), the
// BATCH is on the partition axis: partition p of a program holds matrix b0 + p whole (m x n,
// column-major on the free axis), so each step is one instruction for up to 128 matrices.
// trnblas sits below trnsolver, so this is its own small unblocked QR, not trnsolver's geqrf.
//
//   qr_batched_kernel (fp32 real; complex as (re, im) planes)   LAPACK's xGEQR2 order (Anderson et
//     al., LAPACK Users' Guide, 3rd ed.; Golub & Van Loan, Matrix Computations, 4th ed., Alg. 5.2.1),
//     per column k, the reflector of xLARFG without its rescaling loop:
//       ScalarE  ssq = sum |x_i|^2 over x = A(k+1:m, k) (square with the free-axis sum), and
//                |alpha|^2 + ssq -> sqrt (ScalarE's sqrt, correctly rounded in its range)
//       VectorE  beta = -sign(re alpha) sqrt(.), tau = ((beta - re alpha) / beta, -im alpha / beta),
//                x *= 1 / (alpha - beta) (real: one reciprocal; complex: the Smith-scaled
//                reciprocal of trn::tile), R(k, k) = beta; when x = 0 and im alpha = 0 the
//                reflector is H = I (tau = 0), selected per partition by exact 0/1 masks.
//                Then H^H applied to A(k:m, k+1:n) (and to C for gels): y = v^H A as a sum over
//                the rows in order (each product rounded, then added), t = conj(tau) y, and the
//                rank-1 update A -= v t over stride-0 views (two roundings per entry).
//     gels (m >= n, trans N, as cuBLAS): the same reflectors applied to C as they are made
//       (C := Q^H C), then R X = C(0:n, :) by column-oriented back substitution (lu_batched's
//       substitute); devInfo = the first k with R(k, k) exactly zero (GpSimd, comparisons only).
//     Accuracy (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., Thm 19.4, 20.3):
//       the computed R is the exact R of A + dA, ||dA_j|| <= c m n u ||A_j|| columnwise, and the
//       least-squares solution solves min ||(A + dA) x - (b + db)|| with the same kind of bound;
//       u = 2^-24 (fp32), 2^-53 (fp64). The scaled norm of xNRM2/xLAPY2 is not used: entries
//       must keep |a|^2 inside fp32's normal range (about 2^-58 < |a| < 2^59 for nonzero columns).
//
// Limits: one matrix per partition: A, C and their product scratch must fit a partition
// (qr_batched_fits). fp64 (D, Z): the same operations in the same order on the host CPU, one costed
// host round trip per call for the whole batch (trnblas.{d,z}{geqrf,gels}_batched.host).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <vector>

#include "level3_internal.hpp"
#include "small_batched.hpp"
#include "trn/core/for_each_scalar.hpp"
#include "trn/blas/level3.hpp"

namespace trn::blas {

namespace {

using namespace small_batched;  // NOLINT(google-build-using-namespace): the shared batched pieces

template <class T>
struct QrArgs {
  std::int64_t m = 0, n = 0, lda = 0, batch = 0;
  T* const* A = nullptr;
  T* const* tau = nullptr;  // geqrf: min(m, n) per matrix; null for gels
  std::int64_t nrhs = 0, ldc = 0;
  T* const* C = nullptr;  // gels: right-hand sides (m x nrhs); null for geqrf
  int* info = nullptr;    // gels: per matrix, the first k (1-based) with R(k, k) == 0, else 0
};

// Floats per partition the kernel needs (see the allocations of qr_batched_kernel).
std::int64_t qr_floats(bool complex, std::int64_t m, std::int64_t n, std::int64_t nrhs) {
  const std::int64_t w = complex ? 2 : 1, cols = std::max<std::int64_t>({n, nrhs, 1});
  return w * m * (n + nrhs + cols + 1) + 3 * std::max(m, nrhs) + w * (cols + n) + 64;
}

// Per-partition scalars of one reflector, each a [P, 1] column of one small tile.
struct Scalars {
  Tile ssq, flag, nf, r2, sn, beta, bsafe, tr, ti, ntr, dr, di, mag, bo, io, t, rcp;
  tile::ReciprocalWork w;
  tile::ComplexPlanes r;
  explicit Scalars(const Tile& s) {
    Tile* all[] = {&ssq, &flag, &nf, &r2, &sn, &beta, &bsafe, &tr, &ti, &ntr, &dr, &di, &mag, &bo, &io, &t, &rcp,
                   &w.er, &w.ei, &w.q, &w.t, &r.re, &r.im};
    for (std::int64_t c = 0; c < static_cast<std::int64_t>(std::size(all)); ++c) *all[c] = s.cols(c, 1);
  }
};
constexpr std::int64_t kScalars = 23;

// The reflector H = I - tau v v^H of column k (v(k) = 1, v(k+1:m) stored over x): sets the
// scalars tau (tr, ti), beta_out (bo, io: the new A(k, k)) and scales x in place (xLARFG).
template <class T>
void make_reflector(NeuronCore& nc, const Tile& a, const Tile& sq, const Tile& scratch, const Scalars& s,
                    std::int64_t m, std::int64_t k) {
  constexpr std::int64_t w = kWidth<T>;
  constexpr bool cx = w == 2;
  const std::int64_t len = m - k - 1, kk = k + k * m;
  const Tile ar = ev<T>(a, kk, 1, 0, 1, 1, 0), ai = cx ? ev<T>(a, kk, 1, 0, 1, 1, 1) : Tile{};
  // Every float of x (both planes of a complex x).
  const auto x = [&] { return view2(a, w * (kk + 1), 1, 0, w * len, 1); };
  if (len > 0)
    nc.activation(view2(sq, 0, 1, 0, w * len, 1), x(), ActFunc::square, 0.0f, 1.0f, &s.ssq);
  else
    nc.memset(s.ssq, 0.0f);
  nc.tensor_scalar(s.flag, s.ssq, AluOp::equal, 0.0f);  // H = I: x = 0 (and im alpha = 0)
  nc.tensor_tensor(s.r2, ar, ar, AluOp::multiply);
  if constexpr (cx) {
    nc.tensor_scalar(s.t, ai, AluOp::equal, 0.0f);
    nc.tensor_tensor(s.flag, s.flag, s.t, AluOp::multiply);
    nc.tensor_tensor(s.t, ai, ai, AluOp::multiply);
    nc.tensor_tensor(s.r2, s.r2, s.t, AluOp::add);
  }
  nc.tensor_tensor(s.r2, s.r2, s.ssq, AluOp::add);
  nc.tensor_scalar(s.nf, s.flag, AluOp::multiply, -1.0f, AluOp::add, 1.0f);
  nc.activation(s.r2, s.r2, ActFunc::sqrt);  // ScalarE
  // beta = -sign(re alpha) |(alpha, x)|: sn = 1 - 2 (re alpha >= 0).
  nc.tensor_scalar(s.sn, ar, AluOp::greater_equal, 0.0f, AluOp::multiply, -2.0f);
  nc.tensor_scalar(s.sn, s.sn, AluOp::add, 1.0f);
  nc.tensor_tensor(s.beta, s.sn, s.r2, AluOp::multiply);
  nc.tensor_scalar(s.bsafe, s.beta, AluOp::multiply, s.nf, AluOp::add, s.flag);  // beta, or 1 for H = I
  // tau = (beta - re alpha) / beta, -im alpha / beta; 0 for H = I (+0: the mask product plus 0).
  nc.tensor_tensor(s.tr, s.beta, ar, AluOp::subtract);
  nc.tensor_scalar(s.tr, s.tr, AluOp::divide, s.bsafe);
  nc.tensor_scalar(s.tr, s.tr, AluOp::multiply, s.nf, AluOp::add, 0.0f);
  // The new A(k, k): beta, or alpha for H = I.
  nc.tensor_tensor(s.t, ar, s.flag, AluOp::multiply);
  nc.tensor_scalar(s.bo, s.beta, AluOp::multiply, s.nf, AluOp::add, s.t);
  // d = alpha - beta (1 for H = I), then x *= 1 / d.
  nc.tensor_tensor(s.dr, ar, s.beta, AluOp::subtract);
  nc.tensor_scalar(s.dr, s.dr, AluOp::multiply, s.nf, AluOp::add, s.flag);
  if constexpr (!cx) {
    nc.tensor_scalar(s.rcp, s.dr, AluOp::divide, 1.0f, AluOp::bypass, 0.0f, Engine::vector, true);  // 1 / d
    if (len > 0) nc.tensor_scalar(x(), x(), AluOp::multiply, s.rcp);
  } else {
    nc.tensor_scalar(s.ti, ai, AluOp::divide, s.bsafe, AluOp::multiply, -1.0f);
    nc.tensor_scalar(s.ti, s.ti, AluOp::multiply, s.nf, AluOp::add, 0.0f);
    nc.tensor_tensor(s.io, ai, s.flag, AluOp::multiply);
    nc.tensor_scalar(s.di, ai, AluOp::multiply, s.nf, AluOp::add, 0.0f);
    nc.tensor_tensor(s.mag, s.dr, s.di, AluOp::abs_max);
    tile::complex_reciprocal(nc, s.dr, s.di, s.mag, s.w, s.r);
    if (len > 0) {
      const auto plane = [&](int c) { return ev<T>(a, kk + 1, 1, 0, len, 1, c); };
      tile::complex_scale(nc, {plane(0), plane(1)}, s.r.re, s.r.im, view2(scratch, 0, 1, 0, len, 1),
                          view2(scratch, len, 1, 0, len, 1), view2(scratch, 2 * len, 1, 0, len, 1));
    }
  }
}

// H^H applied to `cols` columns of tgt (element (i, j) at off + i + j ld), rows k..m-1, with v in
// a(k:m, k) (A(k, k) set to 1 by the caller) and cv = conj(v) for complex; y: w cols floats.
template <class T>
void apply_reflector(NeuronCore& nc, const Tile& a, const Tile& cv, const Tile& tgt, std::int64_t off,
                     std::int64_t ld, std::int64_t cols, const Tile& y, const Tile& scratch, const Scalars& s,
                     std::int64_t m, std::int64_t k) {
  constexpr std::int64_t w = kWidth<T>;
  // y = -(A(k, :) + sum_{i>k} conj(v_i) A(i, :)) = -v^H A, one row at a time.
  nc.tensor_scalar(view2(y, 0, cols, w, w, 1), view2(tgt, w * (off + k), cols, w * ld, w, 1), AluOp::multiply, -1.0f);
  const Tile& vs = w == 1 ? a : cv;
  for (std::int64_t i = k + 1; i < m; ++i)
    sub_product<T>(nc, {&y, 0, 0, 1}, {&vs, i + (w == 1 ? k * m : 0), 0, 0}, {&tgt, off + i, 0, ld}, 1, cols, scratch);
  // t = conj(tau) v^H A = -conj(tau) y (real: y tau (-1), the sign flip exact).
  if constexpr (w == 1) {
    nc.tensor_scalar(y.cols(0, cols), y.cols(0, cols), AluOp::multiply, s.tr, AluOp::multiply, -1.0f);
  } else {
    const Tile yr = view2(y, 0, 1, 0, cols, 2), yi = view2(y, 1, 1, 0, cols, 2);
    tile::complex_scale(nc, {yr, yi}, s.ntr, s.ti, view2(scratch, 0, 1, 0, cols, 1),
                        view2(scratch, cols, 1, 0, cols, 1), view2(scratch, 2 * cols, 1, 0, cols, 1));
  }
  // tgt(k:m, :) -= v t: [j][i] views, v repeated over the columns, t over the rows.
  sub_product<T>(nc, {&tgt, off + k, ld, 1}, {&a, k + k * m, 0, 1}, {&y, 0, 1, 0}, cols, m - k, scratch);
}

template <class T>
void qr_batched_kernel(NeuronCore& nc, const QrArgs<T>& g) {
  constexpr std::int64_t w = kWidth<T>;
  const auto [b0, rows] = batch_rows(nc, g.batch);  // (no lambda below captures them)
  if (rows <= 0) return;
  const std::int64_t m = g.m, n = g.n, nrhs = g.C != nullptr ? g.nrhs : 0, kmax = std::min(m, n);
  const std::int64_t cols = std::max<std::int64_t>({n, nrhs, 1});
  AllocScope sb(nc.sbuf());
  Tile a = sb.alloc(DType::f32, rows, {w * m * n}, "one matrix per partition, column-major");
  Tile c = sb.alloc(DType::f32, rows, {std::max<std::int64_t>(1, w * m * nrhs)}, "right-hand sides (gels)");
  Tile t = sb.alloc(DType::f32, rows, {w * m * cols + 3 * std::max(m, nrhs)}, "products");
  Tile y = sb.alloc(DType::f32, rows, {w * cols}, "v^H A");
  Tile cv = sb.alloc(DType::f32, rows, {w * m}, "conj(v) (complex)");
  Tile tau = sb.alloc(DType::f32, rows, {std::max<std::int64_t>(1, w * kmax)}, "tau");
  Tile sc = sb.alloc(DType::f32, rows, {kScalars}, "reflector scalars");
  Tile info = sb.alloc(DType::i32, rows, {1}, "info");
  const Scalars s(sc);
  for (std::int32_t p = 0; p < rows; ++p) {
    nc.dma_copy(sbuf_matrix(a, p, w * m, n), hbm_matrix(g.A[b0 + p], DType::f32, w * m, n, w * g.lda));
    if (nrhs > 0) nc.dma_copy(sbuf_matrix(c, p, w * m, nrhs), hbm_matrix(g.C[b0 + p], DType::f32, w * m, nrhs, w * g.ldc));
  }
  for (std::int64_t k = 0; k < kmax; ++k) {
    const std::int64_t kk = k + k * m;
    make_reflector<T>(nc, a, t, t, s, m, k);
    nc.tensor_copy(view2(tau, w * k, 1, 0, 1, 1), s.tr);
    if constexpr (w == 2) nc.tensor_copy(view2(tau, w * k + 1, 1, 0, 1, 1), s.ti);
    const bool trailing = k + 1 < n || nrhs > 0;
    if (trailing) {
      nc.memset(ev<T>(a, kk, 1, 0, 1, 1, 0), 1.0f);  // v(k) = 1 while H is applied
      if constexpr (w == 2) {
        nc.memset(ev<T>(a, kk, 1, 0, 1, 1, 1), 0.0f);
        nc.tensor_scalar(s.ntr, s.tr, AluOp::multiply, -1.0f);
        const std::int64_t len = m - k - 1;
        if (len > 0) {
          nc.tensor_copy(ev<T>(cv, k + 1, 1, 0, len, 1, 0), ev<T>(a, kk + 1, 1, 0, len, 1, 0));
          nc.tensor_scalar(ev<T>(cv, k + 1, 1, 0, len, 1, 1), ev<T>(a, kk + 1, 1, 0, len, 1, 1), AluOp::multiply, -1.0f);
        }
      }
      if (k + 1 < n) apply_reflector<T>(nc, a, cv, a, (k + 1) * m, m, n - k - 1, y, t, s, m, k);
      if (nrhs > 0) apply_reflector<T>(nc, a, cv, c, 0, m, nrhs, y, t, s, m, k);
    }
    nc.tensor_copy(ev<T>(a, kk, 1, 0, 1, 1, 0), s.bo);
    if constexpr (w == 2) nc.tensor_copy(ev<T>(a, kk, 1, 0, 1, 1, 1), s.io);
  }
  if (g.C != nullptr) {
    // devInfo: the first zero on R's diagonal (comparisons only, GpSimd).
    const Tile outs[] = {info};
    const Tile ins[] = {a};
    nc.custom_op("qr_zero_diagonal_check", outs, ins, gpsimd_cost(nc, w * n), [n, m](const CustomOpContext& ctx) {
      for (std::int32_t p = 0; p < ctx.outputs[0].partitions; ++p) {
        std::int32_t bad = 0;
        for (std::int64_t k = 0; k < n && bad == 0; ++k) {
          bool nz = false;
          for (std::int64_t e = 0; e < kWidth<T>; ++e) nz = nz || load_f32(ctx.inputs[0], p, kWidth<T> * (k + k * m) + e) != 0.0f;
          if (!nz) bad = static_cast<std::int32_t>(k + 1);
        }
        store_i32(ctx.outputs[0], p, 0, bad);
      }
    });
    if (nrhs > 0) substitute<T>(nc, a, c, t, sc.cols(kScalars - 8, 8), n, nrhs, 1, m, false, false, m);
  }
  for (std::int32_t p = 0; p < rows; ++p) {
    nc.dma_copy(hbm_matrix(g.A[b0 + p], DType::f32, w * m, n, w * g.lda), sbuf_matrix(a, p, w * m, n));
    if (g.tau != nullptr && kmax > 0)
      nc.dma_copy(hbm_matrix(g.tau[b0 + p], DType::f32, w * kmax, 1, w * kmax), sbuf_matrix(tau, p, w * kmax, 1));
    if (nrhs > 0) nc.dma_copy(hbm_matrix(g.C[b0 + p], DType::f32, w * m, nrhs, w * g.ldc), sbuf_matrix(c, p, w * m, nrhs));
  }
  if (g.info != nullptr) {
    Tile info_dst = HbmTensor::wrap(g.info + b0, DType::i32, {rows, 1}, {1, 1}).tile(0, rows, 0, 1);
    nc.dma_copy(info_dst, info);
  }
}

// ---- host side (fp64 real and complex): the kernel's reflectors in its order -------------------

template <class T>
double norm2(const T& v) {
  if constexpr (std::is_floating_point_v<T>)
    return v * v;
  else
    return v.real() * v.real() + v.imag() * v.imag();
}

// H^H of column k applied to `cols` columns of tgt (leading dimension ld), v in a(k:m, k), v(k) = 1.
template <class T>
void apply_reflector_host(std::int64_t m, std::int64_t k, const T* a, std::int64_t lda, T tau, T* tgt,
                          std::int64_t ld, std::int64_t cols) {
  for (std::int64_t j = 0; j < cols; ++j) {
    T* col = tgt + j * ld;
    T y = col[k];
    for (std::int64_t i = k + 1; i < m; ++i) y += conj_if(a[i + k * lda], true) * col[i];
    const T t = conj_if(tau, true) * y;
    col[k] -= t;
    for (std::int64_t i = k + 1; i < m; ++i) col[i] -= a[i + k * lda] * t;
  }
}

template <class T>
void qr_host(std::int64_t m, std::int64_t n, T* a, std::int64_t lda, T* tau, std::int64_t nrhs, T* c,
             std::int64_t ldc) {
  for (std::int64_t k = 0; k < std::min(m, n); ++k) {
    T* x = a + k + 1 + k * lda;
    const std::int64_t len = m - k - 1;
    double ssq = 0;
    for (std::int64_t i = 0; i < len; ++i) ssq += norm2(x[i]);
    const T alpha = a[k + k * lda];
    const double ar = std::real(alpha), ai = std::imag(alpha);
    T tk = T(0);
    if (ssq != 0 || ai != 0) {
      const double beta = (ar >= 0 ? -1.0 : 1.0) * std::sqrt(ar * ar + ai * ai + ssq);
      if constexpr (std::is_floating_point_v<T>)
        tk = (beta - ar) / beta;
      else
        tk = T((beta - ar) / beta, -ai / beta);
      const T r = T(1) / (alpha - T(beta));
      for (std::int64_t i = 0; i < len; ++i) x[i] *= r;
      a[k + k * lda] = T(beta);
    }
    if (tau != nullptr) tau[k] = tk;
    if (tk == T(0)) continue;  // H = I
    const T save = a[k + k * lda];
    a[k + k * lda] = T(1);
    apply_reflector_host(m, k, a, lda, tk, a + (k + 1) * lda, lda, n - k - 1);
    if (c != nullptr) apply_reflector_host(m, k, a, lda, tk, c, ldc, nrhs);
    a[k + k * lda] = save;
  }
}

// gels's last step: info = the first zero of R's diagonal (0: none), then R X = C(0:n, :).
template <class T>
int solve_r_host(std::int64_t n, const T* a, std::int64_t lda, std::int64_t nrhs, T* c, std::int64_t ldc) {
  int info = 0;
  for (std::int64_t k = 0; k < n && info == 0; ++k)
    if (a[k + k * lda] == T(0)) info = static_cast<int>(k + 1);
  for (std::int64_t r = 0; r < nrhs; ++r) {
    T* x = c + r * ldc;
    for (std::int64_t j = n - 1; j >= 0; --j) {
      x[j] /= a[j + j * lda];
      for (std::int64_t i = 0; i < j; ++i) x[i] -= a[i + j * lda] * x[j];
    }
  }
  return info;
}

// fp64 flops of qr_host per matrix: per column the norm (2 len real, 4 len complex), the scaling of
// x (1 / 6 per element) and per target column a dot and an update over m - k rows (4 / 16 each).
template <class T>
double qr_host_flops(std::int64_t m, std::int64_t n, std::int64_t nrhs) {
  constexpr bool cx = !std::is_floating_point_v<T>;
  double f = 0;
  for (std::int64_t k = 0; k < std::min(m, n); ++k) {
    const auto len = static_cast<double>(m - k - 1), cols = static_cast<double>(n - k - 1 + nrhs);
    f += (cx ? 10.0 : 3.0) * len + 20.0 + (cx ? 16.0 : 4.0) * (len + 1) * cols;
  }
  return f + (cx ? 8.0 : 2.0) * static_cast<double>(nrhs * n * n);
}

template <class T>
void qr_batched(const Settings& s, const QrArgs<T>& g, CallReport* report, const char* host_name) {
  Recorder rec(s, report);
  if (g.batch == 0) return;
  if (g.m == 0 || g.n == 0) {  // nothing to factor; gels with n = 0 leaves C as it is
    if (g.info != nullptr && !s.timing_only)
      for (std::int64_t b = 0; b < g.batch; ++b) g.info[b] = 0;
    return;
  }
  if constexpr (kOnEngines<T>) {
    require(qr_batched_fits(s, kWidth<T> == 2, g.m, g.n, g.C != nullptr ? g.nrhs : 0),
            "m, n, nrhs too large for one matrix per SBUF partition");
    LaunchResult r = launch(s.launch_config({launch_programs(g.batch, hardware_spec(s.target).pmax), 1, 1}),
                            [&](NeuronCore& nc) { qr_batched_kernel(nc, g); });
    rec.add(r.trace);
  } else {
    const std::int64_t nrhs = g.C != nullptr ? g.nrhs : 0;
    const HostSpan a = batch_span(g.A, g.batch, g.m, g.n, g.lda);
    const HostSpan c = nrhs > 0 ? batch_span(g.C, g.batch, g.m, nrhs, g.ldc) : HostSpan{};
    const HostSpan tau = g.tau != nullptr ? batch_span(g.tau, g.batch, std::min(g.m, g.n), 1, 1) : HostSpan{};
    const HostSpan info = g.info != nullptr ? HostSpan(g.info, g.batch) : HostSpan{};
    rec.host_step(HostStep{.name = host_name,
                           .flops = static_cast<double>(g.batch) * qr_host_flops<T>(g.m, g.n, nrhs),
                           .reads = {a, c},
                           .writes = {a, c, tau, info}});
    if (s.timing_only) return;
    for (std::int64_t b = 0; b < g.batch; ++b) {
      qr_host(g.m, g.n, g.A[b], g.lda, g.tau != nullptr ? g.tau[b] : nullptr, nrhs, nrhs > 0 ? g.C[b] : nullptr, g.ldc);
      if (g.C != nullptr) g.info[b] = solve_r_host(g.n, g.A[b], g.lda, nrhs, nrhs > 0 ? g.C[b] : nullptr, g.ldc);
    }
  }
}

template <class T>
constexpr const char* kHostName[2] = {
    std::is_floating_point_v<T> ? "trnblas.dgeqrf_batched.host" : "trnblas.zgeqrf_batched.host",
    std::is_floating_point_v<T> ? "trnblas.dgels_batched.host" : "trnblas.zgels_batched.host"};

}  // namespace

bool qr_batched_fits(const Settings& s, bool complex, std::int64_t m, std::int64_t n, std::int64_t nrhs) {
  const std::int64_t limit = hardware_spec(s.target).sbuf_partition_bytes / 4;
  // Each dimension alone needs at least its own floats per partition; rejecting a larger one first also
  // keeps qr_floats' products far from int64 overflow (a fuzzer found m n overflowing).
  if (std::max({m, n, nrhs}) > limit) return false;
  return qr_floats(complex, m, n, nrhs) <= limit;
}

template <class T>
void geqrf_batched(const Settings& s, std::int64_t m, std::int64_t n, T* const A[], std::int64_t lda, T* const tau[],
                   std::int64_t batch, CallReport* report) {
  require(m >= 0 && n >= 0 && batch >= 0 && lda >= std::max<std::int64_t>(1, m), "m, n, lda, batch");
  QrArgs<T> g{m, n, lda, batch, A, tau};
  qr_batched<T>(s, g, report, kHostName<T>[0]);
}

template <class T>
void gels_batched(const Settings& s, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* const A[], std::int64_t lda,
                  T* const C[], std::int64_t ldc, int* info, std::int64_t batch, CallReport* report) {
  require(m >= n && n >= 0 && nrhs >= 0 && batch >= 0 && lda >= std::max<std::int64_t>(1, m) &&
              ldc >= std::max<std::int64_t>(1, m),
          "m >= n, nrhs, lda, ldc, batch");
  QrArgs<T> g{m, n, lda, batch, A, nullptr, nrhs, ldc, C, info};
  qr_batched<T>(s, g, report, kHostName<T>[1]);
}

#define TRNBLAS_QR_INSTANTIATE(T)                                                                                   \
  template void geqrf_batched<T>(const Settings&, std::int64_t, std::int64_t, T* const[], std::int64_t, T* const[], \
                                 std::int64_t, CallReport*);                                                       \
  template void gels_batched<T>(const Settings&, std::int64_t, std::int64_t, std::int64_t, T* const[],             \
                                std::int64_t, T* const[], std::int64_t, int*, std::int64_t, CallReport*);
TRN_FOR_EACH_SDCZ(TRNBLAS_QR_INSTANTIATE)
#undef TRNBLAS_QR_INSTANTIATE

}  // namespace trn::blas
