// Complex GEMM (trn/blas/level3.hpp): complex products as real GEMMs on TensorE.
//
// 4M (Cgemm, Zgemm): the real representation. With op(A) = Ar + i sa Ai and op(B) = Br + i sb Bi
// (sa, sb = -1 for a conjugated operand), interleaved rows (2i: real part, 2i+1: imaginary part):
//
//   [Re C_i]   [ Ar(i,l)     -sa sb Ai(i,l) ] [Br(l)]        L (2m x 2k), packed on the host
//   [Im C_i] = [ sa Ai(i,l)   sb Ar(i,l)    ] [Bi(l)]        R (2k x n) = op(B) as real pairs
//
// summed over l: ONE real GEMM (2m x 2k) x (2k x n) whose output is the complex m x n product,
// interleaved, exactly C's layout. Each component is one fp32 PSUM accumulation of 2k exact
// products (fp32 mode), so |dRe| <= gamma_2k (|Ar||Br| + |Ai||Bi|), |dIm| <= gamma_2k
// (|Ar||Bi| + |Ai||Br|): componentwise, like a real GEMM. Packing copies values and flips sign
// bits (exact, no rounding). Real alpha and beta (the common 1/0 case) go straight into the real
// GEMM's epilogue on C viewed as a real 2m x n matrix; complex ones through complex_epilogue_kernel.
//
// 3M (Cgemm3m, Gauss's trick; Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
// §23.2.4): T1 = Ar Br, T2 = Ai Bi, T3 = (Ar + sa Ai)(Br + sb Bi) as three real GEMMs (the sums by
// plane_sum_kernel on VectorE), Re = T1 - sa sb T2, Im = T3 - T1 - sa sb T2 on VectorE. 3/4 of the
// TensorE work of 4M; the imaginary part's error is bounded by gamma_{k+4} ((|Ar| + |Ai|)(|Br| +
// |Bi|) + |Ar||Br| + |Ai||Bi|) only, which is not small relative to |Im C| when Im C cancels
// (Higham, "Stability of a method for multiplying complex matrices with three real matrix
// multiplications", SIAM J. Matrix Anal. Appl. 13(3), 1992).
//
// fp64 (Zgemm, Zgemm3m): the same real GEMMs through dgemm (Ozaki); the 3M sums and the complex
// epilogue run in fp64 on the host CPU (no NeuronCore engine computes in fp64), each one costed host
// round trip (trnblas.zgemm3m.sums, trnblas.zgemm.epilogue; docs/cost-model.md section 7).
#include <algorithm>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "level12_internal.hpp"
#include "level3_internal.hpp"
#include "trn/blas/level3.hpp"
#include "trn/core/scratch.hpp"

namespace trn::blas {

namespace {

using detail::Recorder;
using detail::require;

// Element (i, l) of op(X), X column-major complex with leading dimension ld; conjugated for C.
template <class T>
std::complex<T> op_at(const std::complex<T>* X, std::int64_t ld, COp op, std::int64_t i, std::int64_t l) {
  if (op == COp::N) return X[i + l * ld];
  const std::complex<T> v = X[l + i * ld];
  return op == COp::C ? std::complex<T>(v.real(), -v.imag()) : v;  // a sign-bit flip: exact
}

// Real GEMM on fp32 or fp64 data, N x N, through the GEMM machinery (trn::blas::gemm / dgemm).
template <class T>
void real_gemm(const Settings& s, GemmMode mode, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* A,
               std::int64_t lda, const T* B, std::int64_t ldb, T beta, T* C, std::int64_t ldc, Recorder& rec) {
  CallReport sub;
  if constexpr (std::is_same_v<T, double>)
    dgemm(s, Op::N, Op::N, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, &sub);
  else
    gemm(s, mode, Op::N, Op::N, m, n, k, alpha, {A, DType::f32, lda}, {B, DType::f32, ldb}, beta, {C, DType::f32, ldc},
         &sub);
  rec.add(sub);
}

// ---- VectorE kernels (fp32) ---------------------------------------------------------------------

// plane_sum_kernel: out = x + sign * y elementwise over `len` floats (3M's Ar + sa Ai, Br + sb Bi).
//   Layout [pmax partitions, chunk] slabs of the flat arrays; program p takes slab p.
//   Engines DMA in/out, one VectorE add or subtract per slab (one rounding per element).
constexpr std::int64_t kSlab = 2048;  // floats per partition per program

void plane_sum_kernel(NeuronCore& nc, const float* x, const float* y, float* out, std::int64_t len, bool subtract) {
  const std::int64_t P = nc.hw().pmax, per_program = P * kSlab;
  const std::int64_t base = static_cast<std::int64_t>(nc.program_id(0)) * per_program;
  const std::int64_t count = std::min(per_program, len - base);
  if (count <= 0) return;
  AllocScope sb(nc.sbuf());
  const std::int64_t full_rows = count / kSlab, tail = count % kSlab;
  auto run = [&](std::int64_t r0, std::int32_t rows, std::int64_t cols) {
    const auto view = [&](const float* p) {
      return HbmTensor::wrap(const_cast<float*>(p) + base, DType::f32, {rows + r0, cols}, {kSlab, 1}).tile(r0, rows, 0, cols);
    };
    Tile a = sb.alloc(DType::f32, rows, {cols}, "x");
    Tile b = sb.alloc(DType::f32, rows, {cols}, "y");
    nc.dma_copy(a, view(x));
    nc.dma_copy(b, view(y));
    nc.tensor_tensor(a, a, b, subtract ? AluOp::subtract : AluOp::add);
    nc.dma_copy(view(out), a);
  };
  if (full_rows > 0) run(0, static_cast<std::int32_t>(full_rows), kSlab);
  if (tail > 0) run(full_rows, 1, tail);
}

void plane_sum(const Settings& s, const float* x, const float* y, float* out, std::int64_t len, bool subtract,
               Recorder& rec) {
  if (len == 0) return;
  const std::int64_t per_program = hardware_spec(s.target).pmax * kSlab;
  const int programs = static_cast<int>((len + per_program - 1) / per_program);
  LaunchResult r = launch(s.launch_config({programs, 1, 1}),
                          [&](NeuronCore& nc) { plane_sum_kernel(nc, x, y, out, len, subtract); });
  rec.add(r.trace);
}

// What the epilogue combines: the interleaved product P (4M) or the planes T1, T2, T3 (3M); all
// m x n with leading dimension m (complex elements for P, reals for the planes).
struct EpilogueArgs {
  std::int64_t m = 0, n = 0;
  const float* p = nullptr;
  const float *t1 = nullptr, *t2 = nullptr, *t3 = nullptr;
  bool t2_subtract = true;  // 3M: Re = T1 - T2 (sa sb = 1) or T1 + T2 (sa sb = -1); Im likewise
  bool product = true;      // false: alpha == 0 or k == 0, the product is zero and is not read
  std::complex<float> alpha, beta;
  std::complex<float>* c = nullptr;
  std::int64_t ldc = 0;
};

// complex_epilogue_kernel: C = alpha P + beta C for complex alpha, beta (VectorE, fp32).
//   Layout   one column of C per partition (program p takes columns [p pmax, ...)), up to kRows
//            complex elements of it on the free axis, interleaved (re, im) as in HBM; real and
//            imaginary parts are step-2 views of the same tile.
//   Engines  DMA in/out; VectorE, per component, in this order (each step one rounding):
//            3M first forms Re = T1 -/+ T2 and Im = (T3 - T1) -/+ T2;
//            re = ar Pr - ai Pi,   im = ar Pi + ai Pr      (skipped when alpha == 1)
//            re += br Cr - bi Ci,  im += br Ci + bi Cr     (skipped when beta == 0: C not read)
//   Accuracy each component gains at most 4 roundings over the product's own error.
constexpr std::int64_t kRows = 1024;

void complex_epilogue_kernel(NeuronCore& nc, const EpilogueArgs& e) {
  const std::int64_t P = nc.hw().pmax;
  const std::int64_t j0 = static_cast<std::int64_t>(nc.program_id(0)) * P;
  const auto cols = static_cast<std::int32_t>(std::min(P, e.n - j0));
  if (cols <= 0) return;
  const std::int64_t w_max = std::min(kRows, e.m);
  // The eight tiles as ONE allocation without the poison fill (l12::FirstTiles, session 26, host only:
  // the same Tiles, field for field, as eight allocations in this order; 8 allocator calls and their
  // poison fills were ~4.8 k host instructions a call). Each is written before it is read: out by the
  // memset or the alpha step (both parts, every row), pin, cin, T1-T3 by their DMAs, u and v by the
  // multiplies ahead of each subtract / add that reads them.
  const l12::FirstTiles sb(nc.sbuf(),
                           {{cols, 2 * w_max}, {cols, 2 * w_max}, {cols, 2 * w_max}, {cols, w_max}, {cols, w_max},
                            {cols, w_max}, {cols, w_max}, {cols, w_max}},
                           "complex epilogue (C, product, old C, u, v, T1, T2, T3)");
  const Tile &out = sb[0], &pin = sb[1], &cin = sb[2], &u = sb[3], &v = sb[4], &t1 = sb[5], &t2 = sb[6], &t3 = sb[7];
  // HBM views field by field (l12::hbm_f32: the Tile HbmTensor::wrap(...).tile(...) gave, without the
  // wrap's two heap vectors per view).
  const auto* const cbase = reinterpret_cast<const float*>(e.c);
  const auto c_block = [&](std::int64_t i0, std::int64_t w) {  // C columns j0.., complex rows i0.. (re, im)
    return l12::hbm_f32(cbase + j0 * 2 * e.ldc + 2 * i0, cols, 2 * e.ldc, 2 * w, 1);
  };
  const bool alpha_one = e.alpha == std::complex<float>(1.0f, 0.0f), beta_zero = e.beta == std::complex<float>(0.0f);
  for (std::int64_t i0 = 0; i0 < e.m; i0 += kRows) {
    const std::int64_t w = std::min(kRows, e.m - i0);
    const Tile o = out.cols(0, 2 * w), ore = o.slice(0, 0, w, 2), oim = o.slice(0, 1, w, 2);
    const Tile uu = u.cols(0, w), vv = v.cols(0, w);
    if (!e.product) {
      nc.memset(o, 0.0f);
    } else {
      Tile pr, pi;
      if (e.p != nullptr) {
        const Tile pt = pin.cols(0, 2 * w);
        nc.dma_copy(pt, l12::hbm_f32(e.p + j0 * 2 * e.m + 2 * i0, cols, 2 * e.m, 2 * w, 1));
        pr = pt.slice(0, 0, w, 2);
        pi = pt.slice(0, 1, w, 2);
      } else {
        const Tile a = t1.cols(0, w), b = t2.cols(0, w), c3 = t3.cols(0, w);
        auto plane = [&](const float* q) { return l12::hbm_f32(q + j0 * e.m + i0, cols, e.m, w, 1); };
        nc.dma_copy(a, plane(e.t1));
        nc.dma_copy(b, plane(e.t2));
        nc.dma_copy(c3, plane(e.t3));
        const AluOp t2op = e.t2_subtract ? AluOp::subtract : AluOp::add;
        nc.tensor_tensor(c3, c3, a, AluOp::subtract);  // T3 - T1
        nc.tensor_tensor(c3, c3, b, t2op);             // Im = (T3 - T1) -/+ T2
        nc.tensor_tensor(a, a, b, t2op);               // Re = T1 -/+ T2
        pr = a;
        pi = c3;
      }
      if (alpha_one) {
        nc.tensor_copy(ore, pr);
        nc.tensor_copy(oim, pi);
      } else {
        nc.tensor_scalar(uu, pr, AluOp::multiply, e.alpha.real());
        nc.tensor_scalar(vv, pi, AluOp::multiply, e.alpha.imag());
        nc.tensor_tensor(ore, uu, vv, AluOp::subtract);
        nc.tensor_scalar(uu, pi, AluOp::multiply, e.alpha.real());
        nc.tensor_scalar(vv, pr, AluOp::multiply, e.alpha.imag());
        nc.tensor_tensor(oim, uu, vv, AluOp::add);
      }
    }
    if (!beta_zero) {
      const Tile ct = cin.cols(0, 2 * w), cre = ct.slice(0, 0, w, 2), cim = ct.slice(0, 1, w, 2);
      nc.dma_copy(ct, c_block(i0, w));
      nc.tensor_scalar(uu, cre, AluOp::multiply, e.beta.real());
      nc.tensor_scalar(vv, cim, AluOp::multiply, e.beta.imag());
      nc.tensor_tensor(uu, uu, vv, AluOp::subtract);
      nc.tensor_tensor(ore, ore, uu, AluOp::add);
      nc.tensor_scalar(uu, cim, AluOp::multiply, e.beta.real());
      nc.tensor_scalar(vv, cre, AluOp::multiply, e.beta.imag());
      nc.tensor_tensor(uu, uu, vv, AluOp::add);
      nc.tensor_tensor(oim, oim, uu, AluOp::add);
    }
    nc.dma_copy(c_block(i0, w), o);
  }
}

void complex_epilogue(const Settings& s, const EpilogueArgs& e, Recorder& rec) {
  const std::int64_t P = hardware_spec(s.target).pmax;
  const int programs = static_cast<int>((e.n + P - 1) / P);
  LaunchResult r = launch(s.launch_config({programs, 1, 1}), [&](NeuronCore& nc) { complex_epilogue_kernel(nc, e); });
  rec.add(r.trace);
}

// fp64: the same epilogue in fp64 on the host CPU, same order of operations, one round trip:
// per element the 3M combination (3 flops), alpha times the product (6) and beta C added (8).
void complex_epilogue(const Settings& s, std::int64_t m, std::int64_t n, const double* p, const double* t1,
                      const double* t2, const double* t3, bool t2_subtract, bool product, std::complex<double> alpha,
                      std::complex<double> beta, std::complex<double>* C, std::int64_t ldc, Recorder& rec) {
  const bool three = product && p == nullptr;
  const double per = (product ? (three ? 9.0 : 6.0) : 0.0) + (beta != 0.0 ? 8.0 : 0.0);
  const HostSpan c = HostSpan::matrix(C, m, n, ldc);
  rec.host_step(HostStep{.name = "trnblas.zgemm.epilogue",
                         .flops = per * static_cast<double>(m * n),
                         .reads = {!product ? HostSpan{} : three ? HostSpan(t1, m * n) : HostSpan(p, 2 * m * n),
                                   three ? HostSpan(t2, m * n) : HostSpan{}, three ? HostSpan(t3, m * n) : HostSpan{},
                                   beta != 0.0 ? c : HostSpan{}},
                         .writes = {c}});
  if (s.timing_only) return;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      double re = 0, im = 0;
      if (product) {
        double pr, pi;
        if (p != nullptr) {
          pr = p[2 * (i + j * m)];
          pi = p[2 * (i + j * m) + 1];
        } else {
          const std::size_t x = static_cast<std::size_t>(i + j * m);
          pi = t3[x] - t1[x];
          pi = t2_subtract ? pi - t2[x] : pi + t2[x];
          pr = t2_subtract ? t1[x] - t2[x] : t1[x] + t2[x];
        }
        re = alpha.real() * pr - alpha.imag() * pi;
        im = alpha.real() * pi + alpha.imag() * pr;
      }
      std::complex<double>& c = C[i + j * ldc];
      if (beta != 0.0) {
        re += beta.real() * c.real() - beta.imag() * c.imag();
        im += beta.real() * c.imag() + beta.imag() * c.real();
      }
      c = {re, im};
    }
}

// ---- the drivers --------------------------------------------------------------------------------

template <class T>
void complex_gemm(const Settings& s, GemmMode mode, ComplexAlgo algo, COp ta, COp tb, std::int64_t m, std::int64_t n,
                  std::int64_t k, std::complex<T> alpha, const std::complex<T>* A, std::int64_t lda,
                  const std::complex<T>* B, std::int64_t ldb, std::complex<T> beta, std::complex<T>* C,
                  std::int64_t ldc, CallReport* report) {
  using Cx = std::complex<T>;
  require(m >= 0 && n >= 0 && k >= 0, "m, n, k must be non-negative");
  require(lda >= std::max<std::int64_t>(1, ta == COp::N ? m : k) && ldb >= std::max<std::int64_t>(1, tb == COp::N ? k : n) &&
              ldc >= std::max<std::int64_t>(1, m),
          "lda, ldb, ldc too small");
  Recorder rec(s, report);
  const bool product = alpha != Cx(0) && k > 0;
  if (m == 0 || n == 0 || (!product && beta == Cx(1))) return;
  T* Cr = reinterpret_cast<T*>(C);  // C as a real 2m x n matrix, ld 2 ldc
  const bool real_scalars = alpha.imag() == T(0) && beta.imag() == T(0);
  if (!product) {  // C = beta C: never reads A or B
    if (real_scalars) return real_gemm<T>(s, mode, 2 * m, n, 0, T(0), nullptr, 1, nullptr, 1, beta.real(), Cr, 2 * ldc, rec);
    if constexpr (std::is_same_v<T, double>)
      return complex_epilogue(s, m, n, nullptr, nullptr, nullptr, nullptr, true, false, alpha, beta, C, ldc, rec);
    else
      return complex_epilogue(s, {.m = m, .n = n, .product = false, .alpha = alpha, .beta = beta, .c = C, .ldc = ldc}, rec);
  }
  const T sa = ta == COp::C ? T(-1) : T(1), sb = tb == COp::C ? T(-1) : T(1);
  if (algo == ComplexAlgo::four_m) {
    ScratchVector<T> L(static_cast<std::size_t>(4 * m * k)), R(static_cast<std::size_t>(2 * k * n));
    const std::int64_t ldl = 2 * m, ldr = 2 * k;
    for (std::int64_t l = 0; l < k; ++l)
      for (std::int64_t i = 0; i < m; ++i) {
        const Cx a = op_at(A, lda, ta == COp::C ? COp::T : ta, i, l);  // sa applied below
        L[static_cast<std::size_t>(2 * i + 2 * l * ldl)] = a.real();
        L[static_cast<std::size_t>(2 * i + (2 * l + 1) * ldl)] = -(sa * sb) * a.imag();
        L[static_cast<std::size_t>(2 * i + 1 + 2 * l * ldl)] = sa * a.imag();
        L[static_cast<std::size_t>(2 * i + 1 + (2 * l + 1) * ldl)] = sb * a.real();
      }
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t l = 0; l < k; ++l) {
        const Cx b = op_at(B, ldb, tb == COp::C ? COp::T : tb, l, j);
        R[static_cast<std::size_t>(2 * l + j * ldr)] = b.real();
        R[static_cast<std::size_t>(2 * l + 1 + j * ldr)] = b.imag();
      }
    if (real_scalars)  // one real GEMM straight into C, alpha and beta in its epilogue
      return real_gemm<T>(s, mode, 2 * m, n, 2 * k, alpha.real(), L.data(), ldl, R.data(), ldr, beta.real(), Cr,
                          2 * ldc, rec);
    ScratchVector<T> P(static_cast<std::size_t>(2 * m * n));
    real_gemm<T>(s, mode, 2 * m, n, 2 * k, T(1), L.data(), ldl, R.data(), ldr, T(0), P.data(), 2 * m, rec);
    if constexpr (std::is_same_v<T, double>)
      complex_epilogue(s, m, n, P.data(), nullptr, nullptr, nullptr, true, true, alpha, beta, C, ldc, rec);
    else
      complex_epilogue(s, {.m = m, .n = n, .p = P.data(), .alpha = alpha, .beta = beta, .c = C, .ldc = ldc}, rec);
    return;
  }
  // 3M: planes of op(A) (m x k) and op(B) (k x n) without the conjugation signs; sa, sb enter
  // the sums and the sign of T2.
  ScratchVector<T> ar(static_cast<std::size_t>(m * k)), ai(ar.size()), br(static_cast<std::size_t>(k * n)), bi(br.size());
  for (std::int64_t l = 0; l < k; ++l)
    for (std::int64_t i = 0; i < m; ++i) {
      const Cx a = op_at(A, lda, ta == COp::C ? COp::T : ta, i, l);
      ar[static_cast<std::size_t>(i + l * m)] = a.real();
      ai[static_cast<std::size_t>(i + l * m)] = a.imag();
    }
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t l = 0; l < k; ++l) {
      const Cx b = op_at(B, ldb, tb == COp::C ? COp::T : tb, l, j);
      br[static_cast<std::size_t>(l + j * k)] = b.real();
      bi[static_cast<std::size_t>(l + j * k)] = b.imag();
    }
  ScratchVector<T> as(ar.size()), bs(br.size()), t1(static_cast<std::size_t>(m * n)), t2(t1.size()), t3(t1.size());
  if constexpr (std::is_same_v<T, double>) {  // host fp64 (no fp64 engine): one round trip, one add per element
    rec.host_step(HostStep{.name = "trnblas.zgemm3m.sums",
                           .flops = static_cast<double>(m * k + k * n),
                           .reads = {HostSpan(ar.data(), m * k), HostSpan(ai.data(), m * k), HostSpan(br.data(), k * n),
                                     HostSpan(bi.data(), k * n)},
                           .writes = {HostSpan(as.data(), m * k), HostSpan(bs.data(), k * n)}});
    if (!s.timing_only) {
      for (std::size_t x = 0; x < as.size(); ++x) as[x] = ar[x] + sa * ai[x];
      for (std::size_t x = 0; x < bs.size(); ++x) bs[x] = br[x] + sb * bi[x];
    }
  } else {
    plane_sum(s, ar.data(), ai.data(), as.data(), m * k, sa < 0, rec);
    plane_sum(s, br.data(), bi.data(), bs.data(), k * n, sb < 0, rec);
  }
  real_gemm<T>(s, mode, m, n, k, T(1), ar.data(), m, br.data(), k, T(0), t1.data(), m, rec);
  real_gemm<T>(s, mode, m, n, k, T(1), ai.data(), m, bi.data(), k, T(0), t2.data(), m, rec);
  real_gemm<T>(s, mode, m, n, k, T(1), as.data(), m, bs.data(), k, T(0), t3.data(), m, rec);
  const bool t2_subtract = sa * sb > 0;
  if constexpr (std::is_same_v<T, double>)
    complex_epilogue(s, m, n, nullptr, t1.data(), t2.data(), t3.data(), t2_subtract, true, alpha, beta, C, ldc, rec);
  else
    complex_epilogue(s,
                     {.m = m, .n = n, .t1 = t1.data(), .t2 = t2.data(), .t3 = t3.data(), .t2_subtract = t2_subtract,
                      .alpha = alpha, .beta = beta, .c = C, .ldc = ldc},
                     rec);
}

}  // namespace

void cgemm(const Settings& s, GemmMode mode, ComplexAlgo algo, COp ta, COp tb, std::int64_t m, std::int64_t n,
           std::int64_t k, std::complex<float> alpha, const std::complex<float>* A, std::int64_t lda,
           const std::complex<float>* B, std::int64_t ldb, std::complex<float> beta, std::complex<float>* C,
           std::int64_t ldc, CallReport* report) {
  require(mode != GemmMode::fp64_ozaki, "fp64 data goes through zgemm");
  complex_gemm<float>(s, mode, algo, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
}

void zgemm(const Settings& s, ComplexAlgo algo, COp ta, COp tb, std::int64_t m, std::int64_t n, std::int64_t k,
           std::complex<double> alpha, const std::complex<double>* A, std::int64_t lda, const std::complex<double>* B,
           std::int64_t ldb, std::complex<double> beta, std::complex<double>* C, std::int64_t ldc,
           CallReport* report) {
  complex_gemm<double>(s, GemmMode::fp64_ozaki, algo, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, report);
}

}  // namespace trn::blas
