// trnblas GEAM (C = alpha op(A) + beta op(B)) and DGMM (C = A diag(x) or diag(x) A), S/D/C/Z
// (docs/trnblas.md "GEAM and DGMM").
//
// fp32 data (S, C): one VectorE tile kernel each. Complex data is handled as real planes: a complex
// element is the pair (re, im) in HBM, the SBUF tile keeps the pairs interleaved ([w, 2] free
// shape) and the real and imaginary parts are step views of it, so no data is rearranged.
// fp64 data (D, Z): no NeuronCore engine computes in fp64; the same operations in the same order
// run on the host CPU as one costed round trip per call (trnblas.{d,z}geam.host,
// trnblas.{d,z}dgmm.host; docs/cost-model.md section 7).
#include <algorithm>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "level12_internal.hpp"
#include "level3_internal.hpp"
#include "trn/blas/level3.hpp"
#include "trn/tile/complex.hpp"

namespace trn::blas {

namespace {

using detail::Recorder;
using detail::require;

template <class T>
struct Elem {  // real type R and floats per element E
  using R = T;
  static constexpr int E = 1;
};
template <class R_>
struct Elem<std::complex<R_>> {
  using R = R_;
  static constexpr int E = 2;
};

// An operand's transpose and conjugation: op N, T (transpose) or C (conjugate transpose).
struct OpSpec {
  bool trans = false, conj = false;
};
OpSpec spec(Op op) { return {op != Op::N, false}; }
OpSpec spec(COp op) { return {op != COp::N, op == COp::C}; }

constexpr std::int64_t kRows = 1024;  // elements of a column per tile (free axis)

// op(X) (m x n) of a column-major X (ld in elements of E floats) as an HBM tensor of floats indexed
// [column j of op(X), row i of op(X), component]: the transpose is a stride swap, no copy.
HbmTensor op_view(const float* x, int E, std::int64_t m, std::int64_t n, std::int64_t ld, bool trans) {
  const std::int64_t col = E * ld, row = E;
  return HbmTensor::wrap(const_cast<float*>(x), DType::f32, {n, m, E},
                         trans ? std::vector<std::int64_t>{row, col, 1} : std::vector<std::int64_t>{col, row, 1});
}

struct GeamArgs {
  int E = 1;  // 1 real, 2 complex
  std::int64_t m = 0, n = 0;
  std::complex<float> alpha, beta;
  const float *a = nullptr, *b = nullptr;
  std::int64_t lda = 0, ldb = 0, ldc = 0;
  OpSpec opa, opb;
  float* c = nullptr;
};

// dst = s op(x) for real s (E = 1) or complex s (E = 2, x conjugated when `conj`), on the
// interleaved [w, E] tiles dst and x; u is a [w, 1] scratch. Each output component is
// fl(fl(sr xr) - fl(si xi)) (re) or fl(fl(sr xi') + fl(si xr)) (im): two roundings per term.
void scale_into(NeuronCore& nc, int E, const Tile& dst, const Tile& x, std::complex<float> s, bool conj, const Tile& u) {
  if (E == 1) {
    nc.tensor_scalar(dst, x, AluOp::multiply, s.real());
    return;
  }
  const float sg = conj ? -1.0f : 1.0f;  // the conjugate's sign folded into the (exact) scalar
  const Tile xr = x.slice(1, 0, 1), xi = x.slice(1, 1, 1), dr = dst.slice(1, 0, 1), di = dst.slice(1, 1, 1);
  // dst may not alias x: the real part is written before the imaginary part reads xr.
  nc.tensor_scalar(dr, xr, AluOp::multiply, s.real());
  nc.tensor_scalar(u, xi, AluOp::multiply, sg * s.imag());
  nc.tensor_tensor(dr, dr, u, AluOp::subtract);
  nc.tensor_scalar(di, xi, AluOp::multiply, sg * s.real());
  nc.tensor_scalar(u, xr, AluOp::multiply, s.imag());
  nc.tensor_tensor(di, di, u, AluOp::add);
}

// geam_kernel: C = alpha op(A) + beta op(B) (VectorE, fp32; complex as interleaved planes).
//   Layout   one column of C per partition (program p takes columns [p pmax, (p + 1) pmax)), up to
//            kRows elements of it on the free axis as [w, E] (E = 2: re, im interleaved as in HBM).
//            op(A), op(B) are read through transposing (stride-swapped) DMA views.
//   Engines  DMA in/out; VectorE: T_A = alpha op(A) and T_B = beta op(B) (scale_into), C = T_A + T_B.
//            alpha == 0 never reads A, beta == 0 never reads B; both zero: C = 0 (memset).
//   Accuracy each component is fl(T_A + T_B), at most 3 roundings per term:
//            |C^ - C| <= gamma_3 (|alpha| |op(A)| + |beta| |op(B)|) componentwise (real: gamma_2).
//   Aliasing C may be A (or B) with the same leading dimension and op N: each tile is read
//            completely before the same region is written, and programs own disjoint columns.
void geam_kernel(NeuronCore& nc, const GeamArgs& g) {
  const std::int64_t P = nc.hw().pmax;
  const std::int64_t j0 = static_cast<std::int64_t>(nc.program_id(0)) * P;
  const auto cols = static_cast<std::int32_t>(std::min(P, g.n - j0));
  if (cols <= 0) return;
  AllocScope sb(nc.sbuf());
  const std::int64_t w_max = std::min(kRows, g.m);
  Tile ta = sb.alloc(DType::f32, cols, {w_max, g.E}, "alpha op(A)");
  Tile tb = sb.alloc(DType::f32, cols, {w_max, g.E}, "beta op(B)");
  Tile xa = sb.alloc(DType::f32, cols, {w_max, g.E}, "op(A)");
  Tile xb = sb.alloc(DType::f32, cols, {w_max, g.E}, "op(B)");
  Tile u = sb.alloc(DType::f32, cols, {w_max, 1}, "scratch");
  const bool use_a = g.alpha != 0.0f, use_b = g.beta != 0.0f;
  const HbmTensor cv = op_view(g.c, g.E, g.m, g.n, g.ldc, false);
  for (std::int64_t i0 = 0; i0 < g.m; i0 += kRows) {
    const std::int64_t w = std::min(kRows, g.m - i0);
    const Tile oa = ta.slice(0, 0, w), ob = tb.slice(0, 0, w), uu = u.slice(0, 0, w);
    if (use_a) {
      const Tile x = xa.slice(0, 0, w);
      nc.dma_copy(x, op_view(g.a, g.E, g.m, g.n, g.lda, g.opa.trans).tile_nd({j0, i0, 0}, {cols, w, g.E}, 0));
      scale_into(nc, g.E, oa, x, g.alpha, g.opa.conj, uu);
    }
    if (use_b) {
      const Tile x = xb.slice(0, 0, w);
      nc.dma_copy(x, op_view(g.b, g.E, g.m, g.n, g.ldb, g.opb.trans).tile_nd({j0, i0, 0}, {cols, w, g.E}, 0));
      scale_into(nc, g.E, ob, x, g.beta, g.opb.conj, uu);
    }
    if (use_a && use_b)
      nc.tensor_tensor(oa, oa, ob, AluOp::add);
    else if (!use_a && !use_b)
      nc.memset(oa, 0.0f);
    nc.dma_copy(cv.tile_nd({j0, i0, 0}, {cols, w, g.E}, 0), use_a || !use_b ? oa : ob);
  }
}

template <class T>
std::complex<typename Elem<T>::R> as_complex(T v) {
  return std::complex<typename Elem<T>::R>(v);
}

// fp64 (and the reference order): the kernel's operations in the kernel's order, on the host.
template <class T>
T host_scale(T x, T s, bool conj) {
  if constexpr (std::is_same_v<T, double>) {
    return s * x;
  } else {
    const double sg = conj ? -1.0 : 1.0;
    const double re = s.real() * x.real() - sg * s.imag() * x.imag();
    const double im = sg * s.real() * x.imag() + s.imag() * x.real();
    return {re, im};
  }
}

template <class T, class O>
void geam_impl(const Settings& s, O ta, O tb, std::int64_t m, std::int64_t n, T alpha, const T* A, std::int64_t lda,
               T beta, const T* B, std::int64_t ldb, T* C, std::int64_t ldc, CallReport* report) {
  using R = typename Elem<T>::R;
  const OpSpec sa = spec(ta), sb = spec(tb);
  require(m >= 0 && n >= 0, "m, n must be non-negative");
  require(lda >= std::max<std::int64_t>(1, sa.trans ? n : m) && ldb >= std::max<std::int64_t>(1, sb.trans ? n : m) &&
              ldc >= std::max<std::int64_t>(1, m),
          "lda, ldb, ldc too small");
  const bool use_a = alpha != T(0), use_b = beta != T(0);
  require((!use_a || A != nullptr) && (!use_b || B != nullptr) && C != nullptr, "null matrix");
  require(!(use_a && A == C && (sa.trans || lda != ldc)) && !(use_b && B == C && (sb.trans || ldb != ldc)),
          "in-place geam needs op N and the same leading dimension");
  Recorder rec(s, report);
  if (m == 0 || n == 0) return;
  if constexpr (std::is_same_v<R, float>) {
    GeamArgs g{.E = Elem<T>::E, .m = m, .n = n, .alpha = as_complex(alpha), .beta = as_complex(beta),
               .a = reinterpret_cast<const float*>(A), .b = reinterpret_cast<const float*>(B), .lda = lda, .ldb = ldb,
               .ldc = ldc, .opa = sa, .opb = sb, .c = reinterpret_cast<float*>(C)};
    const std::int64_t P = hardware_spec(s.target).pmax;
    const int programs = static_cast<int>((n + P - 1) / P);
    require((n + P - 1) / P <= INT32_MAX, "n too large");
    LaunchResult r = launch(s.launch_config({programs, 1, 1}), [&](NeuronCore& nc) { geam_kernel(nc, g); });
    rec.add(r.trace);
  } else {
    // Per element: a scaling per used operand (1 flop real, 6 complex) and their sum (1 real, 2 complex).
    constexpr bool cx = Elem<T>::E == 2;
    const double per = (use_a ? (cx ? 6.0 : 1.0) : 0.0) + (use_b ? (cx ? 6.0 : 1.0) : 0.0) +
                       (use_a && use_b ? (cx ? 2.0 : 1.0) : 0.0);
    const auto operand = [&](bool used, const T* X, std::int64_t ld, const OpSpec& o) {
      return used ? (o.trans ? HostSpan::matrix(X, n, m, ld) : HostSpan::matrix(X, m, n, ld)) : HostSpan{};
    };
    rec.host_step(HostStep{.name = cx ? "trnblas.zgeam.host" : "trnblas.dgeam.host",
                           .flops = per * static_cast<double>(m * n),
                           .reads = {operand(use_a, A, lda, sa), operand(use_b, B, ldb, sb)},
                           .writes = {HostSpan::matrix(C, m, n, ldc)}});
    if (s.timing_only) return;
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) {
        const auto at = [&](const T* X, std::int64_t ld, const OpSpec& o) { return o.trans ? X[j + i * ld] : X[i + j * ld]; };
        T v(0);
        if (use_a) v = host_scale(at(A, lda, sa), alpha, sa.conj);
        if (use_b) v = use_a ? v + host_scale(at(B, ldb, sb), beta, sb.conj) : host_scale(at(B, ldb, sb), beta, sb.conj);
        C[i + j * ldc] = v;
      }
  }
}

// dgmm_kernel: C = A diag(x) (right) or diag(x) A (left) (VectorE, fp32; complex as planes).
//   Layout   as geam_kernel (one column of C per partition). Right: x_j is a per-partition scalar
//            ([cols, E] tile); left: the rows' x_i are one DMA broadcast to every partition
//            ([cols, w, E], partition stride 0). x is contiguous (the host gathers a strided x,
//            data movement only).
//   Engines  DMA; VectorE: real one multiply; complex re = fl(fl(ar xr) - fl(ai xi)),
//            im = fl(fl(ar xi) + fl(ai xr)).
//   Accuracy real: correctly rounded product; complex: |C^ - C| <= gamma_2 |a| |x| per component.
//   Aliasing C may be A (same leading dimension).
struct DgmmArgs {
  int E = 1;
  bool left = false;
  std::int64_t m = 0, n = 0;
  const float *a = nullptr, *x = nullptr;  // x contiguous, E floats per element
  std::int64_t lda = 0, ldc = 0;
  float* c = nullptr;
};

void dgmm_kernel(NeuronCore& nc, const DgmmArgs& d) {
  const std::int64_t P = nc.hw().pmax;
  const std::int64_t j0 = static_cast<std::int64_t>(nc.program_id(0)) * P;
  const auto cols = static_cast<std::int32_t>(std::min(P, d.n - j0));
  if (cols <= 0) return;
  AllocScope sb(nc.sbuf());
  const std::int64_t w_max = std::min(kRows, d.m);
  Tile at = sb.alloc(DType::f32, cols, {w_max, d.E}, "A");
  Tile ot = sb.alloc(DType::f32, cols, {w_max, d.E}, "C");
  Tile xt = sb.alloc(DType::f32, cols, {d.left ? w_max : 1, d.E}, "x");
  Tile u = sb.alloc(DType::f32, cols, {w_max, 1}, "scratch");
  const HbmTensor av = op_view(d.a, d.E, d.m, d.n, d.lda, false), cv = op_view(d.c, d.E, d.m, d.n, d.ldc, false);
  // x as [element, component]; right: the columns' scalars once per program.
  const HbmTensor xv = HbmTensor::wrap(const_cast<float*>(d.x), DType::f32, {d.left ? d.m : d.n, d.E});
  if (!d.left) nc.dma_copy(xt.reshape({d.E}), xv.tile(j0, cols, 0, d.E));
  for (std::int64_t i0 = 0; i0 < d.m; i0 += kRows) {
    const std::int64_t w = std::min(kRows, d.m - i0);
    const Tile a = at.slice(0, 0, w), o = ot.slice(0, 0, w), uu = u.slice(0, 0, w);
    nc.dma_copy(a, av.tile_nd({j0, i0, 0}, {cols, w, d.E}, 0));
    if (d.left) {
      const HbmTensor row = HbmTensor::wrap(const_cast<float*>(d.x), DType::f32, {1, d.m * d.E});
      nc.dma_copy(xt.slice(0, 0, w).reshape({w * d.E}), row.tile_broadcast(0, cols, i0 * d.E, w * d.E));
    }
    const Tile x = d.left ? xt.slice(0, 0, w) : xt;
    if (d.E == 1) {
      if (d.left)
        nc.tensor_tensor(o, a, x, AluOp::multiply);
      else
        nc.tensor_scalar(o, a, AluOp::multiply, x.reshape({1}));
    } else {
      const tile::ComplexPlanes ac{a.slice(1, 0, 1), a.slice(1, 1, 1)}, oc{o.slice(1, 0, 1), o.slice(1, 1, 1)};
      if (d.left) {
        tile::complex_multiply(nc, oc, ac, {x.slice(1, 0, 1), x.slice(1, 1, 1)}, uu);
      } else {  // one scalar per partition (column)
        const Tile flat = xt.reshape({d.E});
        tile::complex_multiply(nc, oc, ac, flat.cols(0, 1), flat.cols(1, 1), uu);
      }
    }
    nc.dma_copy(cv.tile_nd({j0, i0, 0}, {cols, w, d.E}, 0), o);
  }
}

template <class T>
void dgmm_impl(const Settings& s, Side mode, std::int64_t m, std::int64_t n, const T* A, std::int64_t lda, const T* x,
               std::int64_t incx, T* C, std::int64_t ldc, CallReport* report) {
  using R = typename Elem<T>::R;
  require(m >= 0 && n >= 0, "m, n must be non-negative");
  require(lda >= std::max<std::int64_t>(1, m) && ldc >= std::max<std::int64_t>(1, m), "lda, ldc too small");
  require(!(A == C && lda != ldc), "in-place dgmm needs lda == ldc");
  Recorder rec(s, report);
  if (m == 0 || n == 0) return;
  require(A != nullptr && x != nullptr && C != nullptr, "null operand");
  const bool left = mode == Side::left;
  const std::vector<T> xs = l12::gather(x, left ? m : n, incx);  // data movement
  if constexpr (std::is_same_v<R, float>) {
    DgmmArgs d{.E = Elem<T>::E, .left = left, .m = m, .n = n, .a = reinterpret_cast<const float*>(A),
               .x = reinterpret_cast<const float*>(xs.data()), .lda = lda, .ldc = ldc, .c = reinterpret_cast<float*>(C)};
    const std::int64_t P = hardware_spec(s.target).pmax;
    require((n + P - 1) / P <= INT32_MAX, "n too large");
    const int programs = static_cast<int>((n + P - 1) / P);
    LaunchResult r = launch(s.launch_config({programs, 1, 1}), [&](NeuronCore& nc) { dgmm_kernel(nc, d); });
    rec.add(r.trace);
  } else {
    constexpr bool cx = Elem<T>::E == 2;
    rec.host_step(HostStep{.name = cx ? "trnblas.zdgmm.host" : "trnblas.ddgmm.host",
                           .flops = (cx ? 6.0 : 1.0) * static_cast<double>(m * n),
                           .reads = {HostSpan::matrix(A, m, n, lda), l12::vec_span(x, left ? m : n, incx)},
                           .writes = {HostSpan::matrix(C, m, n, ldc)}});
    if (s.timing_only) return;
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) {
        const T a = A[i + j * lda], v = xs[static_cast<std::size_t>(left ? i : j)];
        if constexpr (std::is_same_v<T, double>) {
          C[i + j * ldc] = a * v;
        } else {
          const double re = a.real() * v.real() - a.imag() * v.imag();
          const double im = a.real() * v.imag() + a.imag() * v.real();
          C[i + j * ldc] = {re, im};
        }
      }
  }
}

}  // namespace

void sgeam(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, float alpha, const float* A,
           std::int64_t lda, float beta, const float* B, std::int64_t ldb, float* C, std::int64_t ldc,
           CallReport* report) {
  geam_impl<float>(s, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc, report);
}
void dgeam(const Settings& s, Op ta, Op tb, std::int64_t m, std::int64_t n, double alpha, const double* A,
           std::int64_t lda, double beta, const double* B, std::int64_t ldb, double* C, std::int64_t ldc,
           CallReport* report) {
  geam_impl<double>(s, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc, report);
}
void cgeam(const Settings& s, COp ta, COp tb, std::int64_t m, std::int64_t n, std::complex<float> alpha,
           const std::complex<float>* A, std::int64_t lda, std::complex<float> beta, const std::complex<float>* B,
           std::int64_t ldb, std::complex<float>* C, std::int64_t ldc, CallReport* report) {
  geam_impl<std::complex<float>>(s, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc, report);
}
void zgeam(const Settings& s, COp ta, COp tb, std::int64_t m, std::int64_t n, std::complex<double> alpha,
           const std::complex<double>* A, std::int64_t lda, std::complex<double> beta, const std::complex<double>* B,
           std::int64_t ldb, std::complex<double>* C, std::int64_t ldc, CallReport* report) {
  geam_impl<std::complex<double>>(s, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc, report);
}

void sdgmm(const Settings& s, Side mode, std::int64_t m, std::int64_t n, const float* A, std::int64_t lda,
           const float* x, std::int64_t incx, float* C, std::int64_t ldc, CallReport* report) {
  dgmm_impl<float>(s, mode, m, n, A, lda, x, incx, C, ldc, report);
}
void ddgmm(const Settings& s, Side mode, std::int64_t m, std::int64_t n, const double* A, std::int64_t lda,
           const double* x, std::int64_t incx, double* C, std::int64_t ldc, CallReport* report) {
  dgmm_impl<double>(s, mode, m, n, A, lda, x, incx, C, ldc, report);
}
void cdgmm(const Settings& s, Side mode, std::int64_t m, std::int64_t n, const std::complex<float>* A,
           std::int64_t lda, const std::complex<float>* x, std::int64_t incx, std::complex<float>* C,
           std::int64_t ldc, CallReport* report) {
  dgmm_impl<std::complex<float>>(s, mode, m, n, A, lda, x, incx, C, ldc, report);
}
void zdgmm(const Settings& s, Side mode, std::int64_t m, std::int64_t n, const std::complex<double>* A,
           std::int64_t lda, const std::complex<double>* x, std::int64_t incx, std::complex<double>* C,
           std::int64_t ldc, CallReport* report) {
  dgmm_impl<std::complex<double>>(s, mode, m, n, A, lda, x, incx, C, ldc, report);
}

}  // namespace trn::blas
