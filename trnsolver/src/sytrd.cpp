// sytrd / orgtr / ormtr: blocked Householder tridiagonalization (LAPACK xSYTRD with xLATRD's panel,
// Dongarra, Hammarling & Sorensen, J. Comput. Appl. Math. 27, 1989; Golub & Van Loan, Matrix
// Computations 4th ed., 8.3.1) and the formation / application of its Q through the QR drivers.
//
// Per panel of nb columns (lower storage), column i of the panel:
//   host step  column i brought up to date with the panel's earlier reflectors and their W columns
//              (A(i:N, i) -= A(i:N, 0:i) W(i, 0:i)^T + W(i:N, 0:i) A(i, 0:i)^T), xLARFG's reflector,
//              and the previous column's W corrections (the four O(N nb) products of xLATRD);
//              working precision, dot products accumulated in fp64
//   TensorE    y = A22 v (fp32 mode) for S -- half of the reduction's 4n^3/3 flops, the BLAS-2 part a
//              one-stage reduction cannot avoid: one trnblas GEMV on a dense symmetric copy of the
//              panel's trailing matrix, staged once per panel by DMA and VectorE transposes
//              (stage_symmetric_lower; trnblas symv staged its triangle again for every column, ~1000
//              DMAs of ~465 bytes each at n = 256); for D an fp64 host step (the Ozaki GEMV's
//              host scaling and reconstruction would cost ~40x the product's flops: n = 256 modeled
//              173 ms with it, 58 ms without)
// then A22 -= V W^T + W V^T by one trnblas SYR2K (the other half, BLAS-3). The last panel (N <= nb)
// runs all its columns through the same loop without a trailing update.
// Upper storage is the lower algorithm on the reversed matrix J A J (J the exchange matrix): LAPACK's
// upper reflectors are the reversed lower ones, Q_upper = J Q_lower J (index moves only).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <complex>
#include <span>
#include <type_traits>

#include "column_dots.hpp"
#include "eig_internal.hpp"
#include "trn/blas/level12.hpp"
#include "trn/blas/level3.hpp"
#include "trn/solver/qr.hpp"

namespace trn::solver {
namespace detail {
namespace {

// The complex symv/syr2k steps (hetrd.cpp) join the overload sets of the real ones below.
using detail::symv;
using detail::syr2k;

// x^H y (x^T y for real data) accumulated in fp64.
template <class T>
Fp64<T> dotc(std::int64_t n, const T* x, const T* y) {
  Fp64<T> s = 0;
  for (std::int64_t i = 0; i < n; ++i) s += conj_fp64(to_fp64(x[i])) * to_fp64(y[i]);
  return s;
}

// out[c] = dotc(n, X + c ldx, y) for c < count. Real fp32 data: eight columns at a time, each sum its
// own chain in increasing i (the fp64 product of two floats is exact, so every chain is dotc's sequence
// of roundings, fused or not): the same bits as dotc, without one dependent fp64 add per element.
template <class T>
void dot_columns(std::int64_t n, std::int64_t count, const T* X, std::int64_t ldx, const T* y, Fp64<T>* out) {
  std::int64_t c = 0;
  if constexpr (std::is_same_v<T, float>) {
    if (host_simd() == HostSimd::avx512) {  // the same chains, lanes of transposed 8 x 8 blocks (column_dots.hpp)
      for (; c < count; c += 8)
        column_dots_fp64_avx512(n, static_cast<int>(std::min<std::int64_t>(8, count - c)), X + c * ldx, ldx, y,
                                out + c);
      return;
    }
    constexpr int kChains = 8;
    for (; c + kChains <= count; c += kChains) {
      std::array<double, kChains> s{};
      const float* x = X + c * ldx;
      for (std::int64_t i = 0; i < n; ++i) {
        const double yi = y[i];
        for (int k = 0; k < kChains; ++k) s[k] += static_cast<double>(x[i + k * ldx]) * yi;
      }
      for (int k = 0; k < kChains; ++k) out[c + k] = s[k];
    }
  }
  for (; c < count; ++c) out[c] = dotc(n, X + c * ldx, y);
}

// xLARFG (real): (alpha; x) -> (beta; 0) by H = I - tau v v^T, v = (1; x'); returns tau.
template <class T>
T larfg(std::int64_t len, T& alpha, T* x) {
  if (len <= 1) return T(0);
  double xnorm = 0, scale = 0;
  for (std::int64_t i = 0; i < len - 1; ++i) scale = std::max(scale, std::fabs(static_cast<double>(x[i])));
  if (scale == 0.0) return T(0);
  for (std::int64_t i = 0; i < len - 1; ++i) xnorm += (x[i] / scale) * (x[i] / scale);
  xnorm = scale * std::sqrt(xnorm);
  const double a = static_cast<double>(alpha), beta = -std::copysign(std::hypot(a, xnorm), a);
  const T tau = static_cast<T>((beta - a) / beta);
  const double scal = 1.0 / (a - beta);
  for (std::int64_t i = 0; i < len - 1; ++i) x[i] = static_cast<T>(x[i] * scal);
  alpha = static_cast<T>(beta);
  return tau;
}

// The panel's trailing matrix as a dense symmetric copy (S): full (N x N, ld N) from the lower
// triangle of a (N x N, lda), once per panel, so that each column's y = A22 v is one GEMV on a
// contiguous square of `full` instead of trnblas symv's staging of its triangle (per column, one DMA
// pair per stored run and one per pmax elements of each mirrored row: ~1000 DMAs of ~465 bytes per
// column at n = 256, 147 250 in the whole reduction).
// Algorithm: per 128 x 128 block (r0, c0) of the lower triangle (r0 >= c0), one DMA brings it to SBUF
//   with column c0 + p on partition p (rows on the free axis: contiguous runs), its transpose is made
//   by VectorE 32 x 32 transposes (element copies), and DMAs write the block and its transpose to
//   full's (r0, c0) and (c0, r0) blocks. A diagonal block keeps the stored triangle f >= p of the block
//   and the transpose's strict other part f < p (two GpSimdE affine_selects writing +0 elsewhere, then
//   one VectorE bitwise or of the two as u32 words), so the unreferenced triangle's words never reach
//   full, whatever they hold.
// Engines: DMA, VectorE (transposes, or), GpSimdE (selects). No arithmetic: full holds bit copies of
//   the stored words, the same matrix trnblas symv stages (level2.cpp, stage), so y is the same GEMV
//   of the same values, bit for bit.
// Limits: SBUF 4 x 128 floats per partition.
void stage_symmetric_lower(EigSteps& st, std::int64_t N, const float* a, std::int64_t lda, float* full) {
  const std::int64_t B = 128, Q = 32;
  LaunchConfig lc = st.bs.launch_config();
  lc.num_cores = 1;
  LaunchResult r = launch(lc, [&](NeuronCore& nc) {
    AllocScope sb(nc.sbuf());
    const auto P = static_cast<std::int32_t>(B);
    const Tile blk = sb.alloc(DType::f32, P, {B}, "lower block", 0, AllocFill::none);
    const Tile tr = sb.alloc(DType::f32, P, {B}, "transposed block", 0, AllocFill::none);
    const Tile lo = sb.alloc(DType::f32, P, {B}, "diagonal block: stored part", 0, AllocFill::none);
    const Tile up = sb.alloc(DType::f32, P, {B}, "diagonal block: mirrored part", 0, AllocFill::none);
    const auto hbm = [](const float* p, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
      // rows partitions of `cols` contiguous words each, partition i at p + i ld
      return HbmTensor::wrap(const_cast<float*>(p), DType::f32, {rows, cols}, {ld, 1})
          .tile(0, static_cast<std::int32_t>(rows), 0, cols);
    };
    for (std::int64_t c0 = 0; c0 < N; c0 += B) {
      const std::int64_t w = std::min(B, N - c0);
      for (std::int64_t r0 = c0; r0 < N; r0 += B) {
        const std::int64_t h = std::min(B, N - r0);
        // b[p, f] = a(r0 + f, c0 + p); t[p, f] = b[f, p] = a(r0 + p, c0 + f)
        const Tile b = blk.rows(0, static_cast<std::int32_t>(w)).cols(0, h);
        const Tile t = tr.rows(0, static_cast<std::int32_t>(h)).cols(0, w);
        nc.dma_copy(b, hbm(a + r0 + c0 * lda, w, h, lda));
        for (std::int64_t q = 0; q < w; q += Q)
          for (std::int64_t f = 0; f < h; f += Q) {
            const std::int64_t qn = std::min(Q, w - q), fn = std::min(Q, h - f);
            nc.nc_transpose(t.rows(static_cast<std::int32_t>(f), static_cast<std::int32_t>(fn)).cols(q, qn),
                            b.rows(static_cast<std::int32_t>(q), static_cast<std::int32_t>(qn)).cols(f, fn),
                            Engine::vector);
          }
        if (r0 > c0) {
          nc.dma_copy(hbm(full + r0 + c0 * N, w, h, N), b);
          nc.dma_copy(hbm(full + c0 + r0 * N, h, w, N), t);
          continue;
        }
        // v(p, f) = f - p: the stored triangle is v >= 0 in b, the mirrored part v < 0 in t.
        const std::array<std::int64_t, 2> pat{1, w};
        const Tile l = lo.rows(0, static_cast<std::int32_t>(w)).cols(0, w);
        const Tile u = up.rows(0, static_cast<std::int32_t>(w)).cols(0, w);
        nc.affine_select(l, std::span(&pat, 1), 0, -1, AluOp::greater_equal, b, 0.0f);
        nc.affine_select(u, std::span(&pat, 1), 0, -1, AluOp::less, t, 0.0f);
        nc.tensor_tensor(l.bitcast(DType::u32), l.bitcast(DType::u32), u.bitcast(DType::u32), AluOp::bitwise_or);
        nc.dma_copy(hbm(full + c0 + c0 * N, w, w, N), l);
      }
    }
  });
  st.trace.add(std::move(r.trace));
}

// y = full(0:n, 0:n) x for the staged symmetric copy (ld ldf): trnblas gemv, the product symv runs on
// its own staging (same values, same GEMM; one direct program for n <= 256, level2.cpp).
void symv(EigSteps& st, std::int64_t n, const float* full, std::int64_t ldf, const float* x, float* y) {
  detail::StepReport r;
  blas::gemv(st.bs, blas::Op::N, n, n, 1.0f, full, ldf, x, 1, 0.0f, y, 1, &r);
  st.trace.add(std::move(r.trace));
}
void symv(EigSteps& st, std::int64_t n, const double* A, std::int64_t lda, const double* x, double* y) {
  if (st.host_symv) {  // y = A x from the lower triangle, fp64 on the host
    std::fill(y, y + n, 0.0);
    for (std::int64_t j = 0; j < n; ++j) {
      double s = A[j + j * lda] * x[j];
      for (std::int64_t i = j + 1; i < n; ++i) {
        s += A[i + j * lda] * x[i];
        y[i] += A[i + j * lda] * x[j];
      }
      y[j] += s;
    }
    const double flops = 2.0 * static_cast<double>(n * n);
    st.host_flops += flops;
    record_host_step(st.trace, HostStep{.name = "trnsolver.sytrd.symv", .flops = flops,
                                        .reads = {HostSpan::matrix(A, n, n, lda), HostSpan(x, n)},
                                        .writes = {HostSpan(y, n)}});
    return;
  }
  detail::StepReport r;
  blas::symv(st.bs, blas::Uplo::lower, n, 1.0, A, lda, x, 1, 0.0, y, 1, &r);
  st.trace.add(std::move(r.trace));
}
void syr2k(EigSteps& st, std::int64_t n, std::int64_t k, const float* V, std::int64_t ldv, const float* W,
           std::int64_t ldw, float* C, std::int64_t ldc) {
  detail::StepReport r;
  blas::ssyr2k(st.bs, blas::GemmMode::fp32, blas::Uplo::lower, blas::Op::N, n, k, -1.0f, V, ldv, W, ldw, 1.0f, C, ldc,
               &r);
  st.trace.add(std::move(r.trace));
}
void syr2k(EigSteps& st, std::int64_t n, std::int64_t k, const double* V, std::int64_t ldv, const double* W,
           std::int64_t ldw, double* C, std::int64_t ldc) {
  detail::StepReport r;
  blas::dsyr2k(st.bs, blas::Uplo::lower, blas::Op::N, n, k, -1.0, V, ldv, W, ldw, 1.0, C, ldc, &r);
  st.trace.add(std::move(r.trace));
}

// xLATRD's corrections of W(:, j) after y = A22 v_j (LAPACK xLATRD / zlatrd, lower): w -= A V^H-terms and
// W V^H-terms, w *= tau, w += alpha v with alpha = -tau/2 (w^H v); conjugates are identities for real
// data. Returns flops (complex: 4 real operations per complex one).
template <class T>
inline __attribute__((always_inline)) double finish_w(std::int64_t N, std::int64_t j, const T* a, std::int64_t lda,
                                                      T* W, std::int64_t ldw, T tau_j) {
  using F = Fp64<T>;
  const std::int64_t r0 = j + 1, len = N - r0;
  const T* v = a + r0 + j * lda;
  T* w = W + r0 + j * ldw;
  std::vector<F> t1(static_cast<std::size_t>(j)), t2(t1.size()), acc(static_cast<std::size_t>(len));
  dot_columns(len, j, W + r0, ldw, v, t1.data());
  dot_columns(len, j, a + r0, lda, v, t2.data());
  // Column by column (contiguous, vectorizable): each acc[i] still takes its j terms in increasing c.
  for (std::int64_t i = 0; i < len; ++i) acc[i] = to_fp64(w[i]);
  for (std::int64_t c = 0; c < j; ++c) {
    const T* ac = a + r0 + c * lda;
    const T* wc = W + r0 + c * ldw;
    const F t1c = t1[c], t2c = t2[c];
    for (std::int64_t i = 0; i < len; ++i) acc[i] -= to_fp64(ac[i]) * t1c + to_fp64(wc[i]) * t2c;
  }
  for (std::int64_t i = 0; i < len; ++i) acc[i] = acc[i] * to_fp64(tau_j);
  F wv = 0;
  for (std::int64_t i = 0; i < len; ++i) wv += conj_fp64(to_fp64(from_fp64<T>(acc[i]))) * to_fp64(v[i]);
  const F alpha = -0.5 * to_fp64(tau_j) * wv;
  for (std::int64_t i = 0; i < len; ++i) w[i] = from_fp64<T>(to_fp64(from_fp64<T>(acc[i])) + alpha * to_fp64(v[i]));
  const double ops = kIsComplex<T> ? 4.0 : 1.0;
  return ops * (8.0 * static_cast<double>(len * j) + 6.0 * static_cast<double>(len));
}

// Column j of the panel up to date (A(j:N, j) -= A(j:N, 0:j) W(j, 0:j)^H + W(j:N, 0:j) A(j, 0:j)^H, a
// Hermitian diagonal kept real), then its reflector (xLARFG; complex: beta real, so d and e are real).
// tau[N - 1] is not written (LAPACK's tau has N - 1 entries). Returns flops.
template <class T>
inline __attribute__((always_inline)) double prepare_column(std::int64_t N, std::int64_t j, T* a, std::int64_t lda,
                                                            const T* W, std::int64_t ldw, double* d, double* e,
                                                            T* tau) {
  using F = Fp64<T>;
  const auto diagonal = [](F x) { return F(std::real(x)); };  // the identity for real data
  // Column by column (contiguous, vectorizable): each s[i] still takes its j terms in increasing c;
  // column j is written only at the end and read by none of the terms (they use columns c < j).
  const std::int64_t len = N - j;
  std::vector<F> s(static_cast<std::size_t>(len));
  for (std::int64_t i = 0; i < len; ++i) s[i] = to_fp64(a[j + i + j * lda]);
  s[0] = diagonal(s[0]);
  for (std::int64_t c = 0; c < j; ++c) {
    const T* ac = a + j + c * lda;
    const T* wc = W + j + c * ldw;
    const F wj = conj_fp64(to_fp64(W[j + c * ldw])), aj = conj_fp64(to_fp64(a[j + c * lda]));
    for (std::int64_t i = 0; i < len; ++i) s[i] -= to_fp64(ac[i]) * wj + to_fp64(wc[i]) * aj;
  }
  for (std::int64_t i = 0; i < len; ++i) a[j + i + j * lda] = from_fp64<T>(i == 0 ? diagonal(s[i]) : s[i]);
  d[j] = std::real(to_fp64(a[j + j * lda]));
  if (j + 1 < N) {
    T* col = a + (j + 1) + j * lda;
    if constexpr (kIsComplex<T>)
      tau[j] = larfg_complex(N - j - 1, col[0], col + 1);
    else
      tau[j] = larfg(N - j - 1, col[0], col + 1);
    e[j] = std::real(to_fp64(col[0]));
    col[0] = T(1);
  }
  const double ops = kIsComplex<T> ? 4.0 : 1.0;
  return ops * (4.0 * static_cast<double>((N - j) * j) + 3.0 * static_cast<double>(N - j));
}

// finish_w and prepare_column compiled for AVX-512 (8 doubles a vector where the baseline build has SSE2's
// 2): their column loops are elementwise (each element's terms in increasing c) and their reductions
// stay scalar chains in order (-ffp-contract=off, no reassociation), so each element takes the same
// operations in the same order -- the same bits; latrd calls these when host_simd() is avx512.
template <class T>
__attribute__((target("avx512f,avx512bw,avx512vl"))) double finish_w_avx512(std::int64_t N, std::int64_t j,
                                                                             const T* a, std::int64_t lda, T* W,
                                                                             std::int64_t ldw, T tau_j) {
  return finish_w(N, j, a, lda, W, ldw, tau_j);
}
template <class T>
__attribute__((target("avx512f,avx512bw,avx512vl"))) double prepare_column_avx512(std::int64_t N, std::int64_t j,
                                                                                   T* a, std::int64_t lda,
                                                                                   const T* W, std::int64_t ldw,
                                                                                   double* d, double* e, T* tau) {
  return prepare_column(N, j, a, lda, W, ldw, d, e, tau);
}

// xLATRD on the N x N trailing matrix a (lower), w columns, W (N x w, ld N). full (S): a's dense
// symmetric copy (ld N, stage_symmetric_lower), which the products read; nullptr: a's lower triangle.
template <class T>
void latrd(EigSteps& st, std::int64_t N, std::int64_t w, T* a, std::int64_t lda, T* W, double* d, double* e, T* tau,
           const T* full) {
  // The host keeps the panel's V and W between its steps (it computes them); what crosses the link
  // per column is the fresh column j from the device, y = A22 v from the symv, and v for the next
  // symv; the whole panel (V and W, for the SYR2K) goes back after its last column.
  const bool wide = host_simd() == HostSimd::avx512;
  for (std::int64_t j = 0; j <= w; ++j) {
    double flops = 0;
    if (j > 0 && j < N)
      flops += wide ? finish_w_avx512(N, j - 1, a, lda, W, N, tau[j - 1]) : finish_w(N, j - 1, a, lda, W, N, tau[j - 1]);
    if (j < w)
      flops += wide ? prepare_column_avx512(N, j, a, lda, W, N, d, e, tau) : prepare_column(N, j, a, lda, W, N, d, e, tau);
    st.host_flops += flops;
    const std::int64_t c = std::min(j, w - 1);
    const HostSpan column = HostSpan(a + c + c * lda, N - c), y = j > 0 ? HostSpan(W + j + (j - 1) * N, N - j) : HostSpan{};
    const bool last = j == w;
    record_host_step(st.trace, HostStep{.name = "trnsolver.sytrd.column", .flops = flops,
                                        .reads = {last ? HostSpan{} : column, y},
                                        .writes = {last ? HostSpan::matrix(a, N, w, lda) : column,
                                                   last ? HostSpan(W, N * w) : HostSpan{}}});
    if (j < w && j + 1 < N) {
      // A22 = rows and columns j+1.. of the panel's trailing matrix: not yet touched by the panel's
      // columns (only column j and earlier are), so the copy staged at the panel's start is current.
      const T* a22 = full != nullptr ? full + (j + 1) + (j + 1) * N : a + (j + 1) + (j + 1) * lda;
      symv(st, N - j - 1, a22, full != nullptr ? N : lda, a + (j + 1) + j * lda, W + (j + 1) + j * N);
    }
  }
}

template <class T>
void sytrd_lower_impl(EigSteps& st, std::int64_t n, T* a, std::int64_t lda, ScratchVector<double>& d,
                      ScratchVector<double>& e, T* tau) {
  d.assign(static_cast<std::size_t>(n), 0.0);
  e.assign(static_cast<std::size_t>(std::max<std::int64_t>(n - 1, 1)), 0.0);
  const std::int64_t nb = sytrd_panel_width();
  ScratchVector<T> W;  // traced: the scratch stack (docs/cost-model.md section 2)
  ScratchVector<T> full;  // S: the panel's trailing matrix, dense symmetric (stage_symmetric_lower)
  for (std::int64_t i0 = 0; i0 < n; i0 += nb) {
    const std::int64_t N = n - i0, w = N <= nb ? N : nb;
    W.assign(static_cast<std::size_t>(N * w), T(0));
    T* p = a + i0 + i0 * lda;
    const T* staged = nullptr;
    if constexpr (std::is_same_v<T, float>) {
      if (N > 1) {
        full.resize(static_cast<std::size_t>(N * N));
        stage_symmetric_lower(st, N, p, lda, full.data());
        staged = full.data();
      }
    }
    latrd(st, N, w, p, lda, W.data(), d.data() + i0, e.data() + i0, tau + i0, staged);
    if (w < N) syr2k(st, N - w, w, p + w, lda, W.data() + w, N, p + w + w * lda, lda);
  }
}

}  // namespace

void sytrd_lower(EigSteps& st, std::int64_t n, float* a, std::int64_t lda, ScratchVector<double>& d,
                 ScratchVector<double>& e, float* tau) {
  sytrd_lower_impl(st, n, a, lda, d, e, tau);
}
void sytrd_lower(EigSteps& st, std::int64_t n, double* a, std::int64_t lda, ScratchVector<double>& d,
                 ScratchVector<double>& e, double* tau) {
  sytrd_lower_impl(st, n, a, lda, d, e, tau);
}
void sytrd_lower(EigSteps& st, std::int64_t n, std::complex<float>* a, std::int64_t lda, ScratchVector<double>& d,
                 ScratchVector<double>& e, std::complex<float>* tau) {
  sytrd_lower_impl(st, n, a, lda, d, e, tau);
}
void sytrd_lower(EigSteps& st, std::int64_t n, std::complex<double>* a, std::int64_t lda, ScratchVector<double>& d,
                 ScratchVector<double>& e, std::complex<double>* tau) {
  sytrd_lower_impl(st, n, a, lda, d, e, tau);
}

}  // namespace detail

std::int64_t sytrd_panel_width() {
  const char* env = std::getenv("TRNSOLVER_SYTRD_NB");
  const long v = env != nullptr ? std::strtol(env, nullptr, 10) : 0;
  return v >= 1 && v <= 256 ? v : kSytrdPanelWidth;
}

namespace {

using detail::EigSteps;

template <class T>
constexpr char prefix() {
  return std::is_same_v<T, float> ? 's' : std::is_same_v<T, double> ? 'd' : std::is_same_v<T, std::complex<float>> ? 'c' : 'z';
}

void check(bool ok, const char* fn, const char* what) {
  if (!ok) throw UsageError("trnsolver", "argument", std::string(fn) + ": " + what);
}

template <class T>
EigSteps begin(const Settings& s, CallReport* report) {
  if (report != nullptr) *report = CallReport{};
  constexpr bool kFp32 = prefix<T>() == 's' || prefix<T>() == 'c';
  return EigSteps{kFp32 ? detail::step_blas_settings(s) : detail::fp64_update_blas_settings(s), {}, 0,
                  plan_syevd(prefix<T>(), 't', 0, false).host_symv};
}

void finish(const Settings& s, CallReport* report, EigSteps& st, const SyevdPlan& plan) {
  detail::finish_fp64_report(report, std::move(st.trace), s.target, st.host_flops);
  if (report != nullptr) report->add_plan(plan);
}

// The upper triangle of A (n x n, lda) as the lower triangle of B = J A J (ld n), and back.
template <class T>
std::vector<T> reversed_lower(std::int64_t n, const T* A, std::int64_t lda) {
  std::vector<T> B(static_cast<std::size_t>(n * n), T(0));
  for (std::int64_t c = 0; c < n; ++c)
    for (std::int64_t r = c; r < n; ++r) B[r + c * n] = A[(n - 1 - r) + (n - 1 - c) * lda];
  return B;
}
template <class T>
std::vector<T> reversed(const T* x, std::int64_t count) {
  std::vector<T> r(static_cast<std::size_t>(std::max<std::int64_t>(count, 1)));
  for (std::int64_t i = 0; i < count; ++i) r[i] = x[count - 1 - i];
  return r;
}

template <class T>
void record_moves(EigSteps& st, HostSpan read, HostSpan write) {
  record_host_step(st.trace, HostStep{.name = "trnsolver.sytrd.reverse", .flops = 0, .reads = {read}, .writes = {write}});
}

template <class T, class R>
int sytrd_impl(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, R* D, R* E, T* tau,
               CallReport* report) {
  check(n >= 0 && lda >= std::max<std::int64_t>(1, n) && (n == 0 || (A && D && E && tau)), "sytrd/hetrd",
        "n >= 0, lda >= max(1, n), A, D, E, tau not NULL");
  const SyevdPlan plan = plan_syevd(prefix<T>(), 't', n, false);
  EigSteps st = begin<T>(s, report);
  ScratchVector<double> d, e;
  if (n > 0) {
    const HostSpan a = HostSpan::matrix(A, n, n, lda);
    if (uplo == Uplo::lower) {
      detail::sytrd_lower(st, n, A, lda, d, e, tau);
      for (std::int64_t j = 0; j + 1 < n; ++j) A[(j + 1) + j * lda] = T(static_cast<R>(e[j]));
    } else {
      std::vector<T> B = reversed_lower(n, A, lda), tb(static_cast<std::size_t>(n));
      record_moves<T>(st, a, HostSpan(B.data(), n * n));
      detail::sytrd_lower(st, n, B.data(), n, d, e, tb.data());
      for (std::int64_t j = 0; j + 1 < n; ++j) B[(j + 1) + j * n] = T(static_cast<R>(e[j]));
      for (std::int64_t c = 0; c < n; ++c)
        for (std::int64_t r = c; r < n; ++r) A[(n - 1 - r) + (n - 1 - c) * lda] = B[r + c * n];
      std::reverse(d.begin(), d.end());
      std::reverse(e.begin(), e.begin() + (n - 1));
      for (std::int64_t j = 0; j + 1 < n; ++j) tau[j] = tb[n - 2 - j];
    }
    for (std::int64_t j = 0; j < n; ++j) D[j] = static_cast<R>(d[j]);
    for (std::int64_t j = 0; j + 1 < n; ++j) E[j] = static_cast<R>(e[j]);
    record_moves<T>(st, a, HostSpan(D, n));
  }
  finish(s, report, st, plan);
  return 0;
}

// The lower reflectors (n x n, ld) as ormqr/orgqr's (n-1) reflectors at (1, 0).
template <class T>
void append(EigSteps& st, CallReport& r) {
  st.trace.add(std::move(r.trace));
}

template <class T>
int ormtr_lower(const Settings& s, EigSteps& st, bool left, bool trans, std::int64_t m, std::int64_t n, const T* A,
                std::int64_t lda, const T* tau, T* C, std::int64_t ldc) {
  const std::int64_t nq = left ? m : n;
  if (nq <= 1 || m == 0 || n == 0) return 0;
  CallReport r;
  if (left)
    ormqr(s, true, trans, m - 1, n, nq - 1, A + 1, lda, tau, C + 1, ldc, &r);
  else
    ormqr(s, false, trans, m, n - 1, nq - 1, A + 1, lda, tau, C + ldc, ldc, &r);
  append<T>(st, r);
  return 0;
}

template <class T>
int ormtr_impl(const Settings& s, bool left, Uplo uplo, bool trans, std::int64_t m, std::int64_t n, const T* A,
               std::int64_t lda, const T* tau, T* C, std::int64_t ldc, CallReport* report) {
  const std::int64_t nq = left ? m : n;
  check(m >= 0 && n >= 0 && lda >= std::max<std::int64_t>(1, nq) && ldc >= std::max<std::int64_t>(1, m) &&
            (nq <= 1 || (A && tau)) && (m == 0 || n == 0 || C),
        "ormtr", "m, n >= 0, lda >= max(1, nq), ldc >= max(1, m), A, tau, C not NULL");
  const SyevdPlan plan = plan_syevd(prefix<T>(), 'm', nq, true);
  EigSteps st = begin<T>(s, report);
  if (uplo == Uplo::lower) {
    ormtr_lower(s, st, left, trans, m, n, A, lda, tau, C, ldc);
  } else if (nq > 1 && m > 0 && n > 0) {  // op(J Q J) C = J op(Q) (J C); C op(J Q J) = (C J) op(Q) J
    const std::vector<T> B = reversed_lower(nq, A, lda), tb = reversed(tau, nq - 1);
    std::vector<T> Cr(static_cast<std::size_t>(m * n));
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) Cr[i + j * m] = left ? C[(m - 1 - i) + j * ldc] : C[i + (n - 1 - j) * ldc];
    const HostSpan c = HostSpan::matrix(C, m, n, ldc), cr(Cr.data(), m * n);
    record_moves<T>(st, c, cr);
    ormtr_lower(s, st, left, trans, m, n, B.data(), nq, tb.data(), Cr.data(), m);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) (left ? C[(m - 1 - i) + j * ldc] : C[i + (n - 1 - j) * ldc]) = Cr[i + j * m];
    record_moves<T>(st, cr, c);
  }
  finish(s, report, st, plan);
  return 0;
}

template <class T>
int orgtr_impl(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, const T* tau,
               CallReport* report) {
  check(n >= 0 && lda >= std::max<std::int64_t>(1, n) && (n == 0 || A) && (n <= 1 || tau), "orgtr",
        "n >= 0, lda >= max(1, n), A and tau not NULL");
  const SyevdPlan plan = plan_syevd(prefix<T>(), 'g', n, true);
  EigSteps st = begin<T>(s, report);
  if (n > 0) {
    // Q = diag(1, Q') with Q' = orgqr of the reflectors at (1, 0), moved one column right (xORGTR).
    std::vector<T> B = uplo == Uplo::lower ? std::vector<T>{} : reversed_lower(n, A, lda);
    const std::vector<T> tb = uplo == Uplo::lower ? std::vector<T>(tau, tau + (n - 1)) : reversed(tau, n - 1);
    T* L = uplo == Uplo::lower ? A : B.data();
    const std::int64_t ld = uplo == Uplo::lower ? lda : n;
    for (std::int64_t j = n - 1; j >= 1; --j)
      for (std::int64_t i = j + 1; i < n; ++i) L[i + j * ld] = L[i + (j - 1) * ld];
    for (std::int64_t i = 0; i < n; ++i) L[i] = L[i * ld] = T(0);
    L[0] = T(1);
    record_moves<T>(st, HostSpan::matrix(A, n, n, lda), HostSpan::matrix(L, n, n, ld));
    if (n > 1) {
      CallReport r;
      orgqr(s, n - 1, n - 1, n - 1, L + 1 + ld, ld, tb.data(), &r);
      append<T>(st, r);
    }
    if (uplo == Uplo::upper) {
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < n; ++i) A[i + j * lda] = B[(n - 1 - i) + (n - 1 - j) * n];
      record_moves<T>(st, HostSpan(B.data(), n * n), HostSpan::matrix(A, n, n, lda));
    }
  }
  finish(s, report, st, plan);
  return 0;
}

}  // namespace

int sytrd(const Settings& s, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, float* D, float* E, float* tau,
          CallReport* report) {
  return sytrd_impl(s, uplo, n, A, lda, D, E, tau, report);
}
int sytrd(const Settings& s, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, double* D, double* E,
          double* tau, CallReport* report) {
  return sytrd_impl(s, uplo, n, A, lda, D, E, tau, report);
}
int orgtr(const Settings& s, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, const float* tau,
          CallReport* report) {
  return orgtr_impl(s, uplo, n, A, lda, tau, report);
}
int orgtr(const Settings& s, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, const double* tau,
          CallReport* report) {
  return orgtr_impl(s, uplo, n, A, lda, tau, report);
}
int ormtr(const Settings& s, bool left, Uplo uplo, bool trans, std::int64_t m, std::int64_t n, const float* A,
          std::int64_t lda, const float* tau, float* C, std::int64_t ldc, CallReport* report) {
  return ormtr_impl(s, left, uplo, trans, m, n, A, lda, tau, C, ldc, report);
}
int ormtr(const Settings& s, bool left, Uplo uplo, bool trans, std::int64_t m, std::int64_t n, const double* A,
          std::int64_t lda, const double* tau, double* C, std::int64_t ldc, CallReport* report) {
  return ormtr_impl(s, left, uplo, trans, m, n, A, lda, tau, C, ldc, report);
}

// Complex Hermitian (C, Z): the same drivers on complex data (hetrd.cpp's reduction, ungqr/unmqr).
#define TRNSOLVER_HERM_DEFINE(T, R)                                                                              \
  int hetrd(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, R* D, R* E, T* tau,           \
            CallReport* report) {                                                                                 \
    return sytrd_impl(s, uplo, n, A, lda, D, E, tau, report);                                                     \
  }                                                                                                               \
  int ungtr(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, const T* tau,                 \
            CallReport* report) {                                                                                 \
    return orgtr_impl(s, uplo, n, A, lda, tau, report);                                                           \
  }                                                                                                               \
  int unmtr(const Settings& s, bool left, Uplo uplo, bool trans, std::int64_t m, std::int64_t n, const T* A,    \
            std::int64_t lda, const T* tau, T* C, std::int64_t ldc, CallReport* report) {                        \
    return ormtr_impl(s, left, uplo, trans, m, n, A, lda, tau, C, ldc, report);                                   \
  }
TRNSOLVER_HERM_DEFINE(std::complex<float>, float)
TRNSOLVER_HERM_DEFINE(std::complex<double>, double)
#undef TRNSOLVER_HERM_DEFINE

}  // namespace trn::solver
