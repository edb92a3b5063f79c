// lauum, potri (S, D, C, Z), laswp and larft: the inverse helpers of the Cholesky and QR families
// (LAPACK xLAUUM, xPOTRI, xLASWP, xLARFT; Anderson et al., LAPACK Users' Guide 3rd ed.). lauum is one
// TensorE GEMM of the zero-padded triangle (2 n^3 multiply-adds where LAPACK's blocked xLAUUM does
// n^3 / 3: the GEMM tiles stay full and the product is one call), potri = trtri + lauum, laswp the
// interchanges as DMAs through SBUF, larft the Gram matrix on TensorE and the k x k recurrence on
// the host. docs/trnsolver.md "Symmetric indefinite (sytrf) and inverses".
#include <algorithm>
#include <array>
#include <span>
#include <type_traits>
#include <vector>

#include "sym_steps.hpp"
#include "trn/blas/narrow_trsm.hpp"
#include "trn/core/host_step.hpp"
#include "trn/core/scratch.hpp"
#include "trn/tile/view.hpp"
#include "trn/solver/complex_factor.hpp"  // trtri (C, Z), potri (C, Z)
#include "trn/solver/eig.hpp"             // trtri (S, D)
#include "trn/solver/sym_indef.hpp"

namespace trn::solver {
namespace {

using detail::SymTraits;
using detail::WideOf;

template <class T>
T conj_of(T x) {
  if constexpr (SymTraits<T>::complex)
    return std::conj(x);
  else
    return x;
}

// The uplo triangle of src (n x n, ld lds) moved into dst (ld ldd) on the device (fp32 and complex
// fp32 data, as fp32 planes): the blocks inside the triangle by DMA through SBUF, each 128 x 128
// diagonal block merged on chip with dst's stored block — both parts selected (zeros elsewhere,
// whose bits are 0) and OR-ed bitwise, as trnblas's trtri_newton — so dst's other triangle keeps its
// bits and the triangle gets src's bits exactly. real_diagonal (complex): the diagonal's imaginary
// part is stored as +0 (a Hermitian result). Engines: DMA, GpSimdE (selects), VectorE (OR).
template <class T>
void move_triangle(const Settings& s, bool lower, std::int64_t n, const T* src, std::int64_t lds, T* dst,
                   std::int64_t ldd, bool real_diagonal, TraceParts& trace) {
  constexpr std::int64_t planes = SymTraits<T>::complex ? 2 : 1;
  LaunchConfig lc = s.launch_config();
  lc.num_cores = 1;
  lc.core.execute = true;
  trace.add(launch(lc, [&](NeuronCore& nc) {
              const std::int64_t P = nc.hw().pmax, blocks = (n + P - 1) / P;
              const auto width = [&](std::int64_t b) { return std::min(P, n - b * P); };
              // Plane `part` of block (bi, bj) of a matrix at base (ld elements): rows on partitions.
              const auto view = [&](const void* base, std::int64_t ld, std::int64_t bi, std::int64_t bj, int part) {
                return tile::hbm_view(static_cast<const float*>(base) + planes * (bi * P + bj * P * ld) + part,
                                      DType::f32, static_cast<std::int32_t>(width(bi)), planes,
                                      {{width(bj), planes * ld}});
              };
              const std::int64_t sign = lower ? 1 : -1;
              for (std::int64_t bj = 0; bj < blocks; ++bj)
                for (std::int64_t bi = lower ? bj : 0; bi < (lower ? blocks : bj + 1); ++bi)
                  for (int part = 0; part < planes; ++part) {
                    AllocScope sb(nc.sbuf());
                    const auto h = static_cast<std::int32_t>(width(bi));
                    const std::int64_t w = width(bj);
                    Tile a = sb.alloc(DType::f32, h, {w}, "src block");
                    nc.dma_copy(a, view(src, lds, bi, bj, part));
                    if (bi == bj) {
                      // mine: sign (p - f) >= 0 (the triangle; > 0 without the diagonal), theirs: the rest
                      const bool no_diag = real_diagonal && part == 1;
                      Tile b = sb.alloc(DType::f32, h, {w}, "dst block as stored");
                      Tile out = sb.alloc(DType::f32, h, {w}, "merged block");
                      nc.dma_copy(b, view(dst, ldd, bi, bj, part));
                      const std::array<std::int64_t, 2> mine{-sign, w}, theirs{sign, w};
                      nc.affine_select(out, std::span(&mine, 1), 0, sign, no_diag ? AluOp::greater : AluOp::greater_equal,
                                       a, 0.0f);
                      nc.affine_select(b, std::span(&theirs, 1), 0, -sign, AluOp::greater, b, 0.0f);
                      nc.tensor_tensor(out.bitcast(DType::u32), out.bitcast(DType::u32), b.bitcast(DType::u32),
                                       AluOp::bitwise_or);
                      nc.dma_copy(view(dst, ldd, bi, bj, part), out);
                    } else {
                      nc.dma_copy(view(dst, ldd, bi, bj, part), a);
                    }
                  }
            }).trace);
}

// The product of lauum on the padded triangle t (n x n, ld n) into the scratch c, and c's triangle
// stored into A: by a host step, or (device_store, S and C: potri) by move_triangle on the device.
template <class T>
void lauum_product(const Settings& s, bool lower, std::int64_t n, const T* t, T* c, T* A, std::int64_t lda,
                   bool device_store, TraceParts& trace) {
  detail::gemm_step<T>(detail::sym_blas_settings<T>(s), lower ? 'C' : 'N', lower ? 'N' : 'C', n, n, n, T(1), t, n, t, n,
                       T(0), c, n, trace);
  if constexpr (std::is_same_v<typename SymTraits<T>::Real, float>)
    if (device_store) return move_triangle(s, lower, n, c, n, A, lda, SymTraits<T>::complex, trace);
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = lower ? j : 0; i < (lower ? n : j + 1); ++i) A[i + j * lda] = c[i + j * n];
    if constexpr (SymTraits<T>::complex) A[j + j * lda] = T(c[j + j * n].real(), 0);  // Hermitian: real diagonal
  }
  record_host_step(trace, HostStep{.name = "trnsolver.lauum.store",
                                   .reads = {HostSpan(c, n * n)},
                                   .writes = {HostSpan::matrix(A, n, n, lda)}});
}

// A's uplo triangle := U U^H (upper) or L^H L (lower): the triangle zero-padded into a dense n x n
// scratch (host step: a move), one GEMM on TensorE, the result's triangle stored back (a move).
// (Both moves on the device, move_triangle, model slauum 256 at 27 / 17 us instead of 60 / 35 on
// trn1 / trn2, but the moves' DMA then bounds a 1.5 us GEMM — roofline 1.2 -> 2.0 / 3.3 — and their
// emulation doubles the host time, emu 1.2 -> 2.2: lauum alone keeps its host moves; potri, whose
// inverse is already on the device, stores on the device.)
template <class T>
void lauum_steps(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, TraceParts& trace) {
  if (n == 0) return;
  const bool lower = uplo == Uplo::lower;
  const auto nn = static_cast<std::size_t>(n * n);
  ScratchVector<T> t(nn, T(0)), c(nn, T(0));  // traced: the scratch stack (docs/cost-model.md section 2)
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = lower ? j : 0; i < (lower ? n : j + 1); ++i) t[i + j * n] = A[i + j * lda];
  record_host_step(trace, HostStep{.name = "trnsolver.lauum.pad",
                                   .reads = {HostSpan::matrix(A, n, n, lda)},
                                   .writes = {HostSpan(t.data(), n * n)}});
  lauum_product(s, lower, n, t.data(), c.data(), A, lda, false, trace);
}

template <class T>
void lauum_impl(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, CallReport* report) {
  detail::require_square("lauum", n, lda, A);
  if (report != nullptr) *report = CallReport{};
  TraceParts trace;
  lauum_steps(s, uplo, n, A, lda, trace);
  detail::finish_fp64_report(report, std::move(trace), s.target, 0);
}

// potri (S, D, C, Z): inv(U) or inv(L) in place by trtri (S, D: trtri.cpp; C, Z: complex_factor.cpp),
// then A^-1 = inv(U) inv(U)^H (lauum upper) or inv(L)^H inv(L) (lauum lower).
template <class T>
int potri_impl(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, CallReport* report) {
  detail::require_square("potri", n, lda, A);
  if (report != nullptr) *report = CallReport{};
  TraceParts trace;
  // S, C with n <= kTrtriNewtonMaxOrder: trnblas's Newton-Schulz inverse (trtri's) written straight
  // into lauum's zero-padded scratch, so neither A's in-place inverse nor the pad is moved; the same
  // bits as trtri then lauum. A non-finite inverse (the scratch restored to zeros) takes that path.
  if constexpr (std::is_same_v<typename SymTraits<T>::Real, float>)
    if (n >= 1 && n <= blas::kTrtriNewtonMaxOrder) {
      for (std::int64_t i = 0; i < n; ++i)  // trtri's singularity test: an exactly zero diagonal
        if (A[i + i * lda] == T(0)) return static_cast<int>(i + 1);
      const auto nn = static_cast<std::size_t>(n * n);
      ScratchVector<T> t(nn, T(0)), c(nn, T(0));
      if (blas::trtri_newton(s.launch_config(), uplo == Uplo::lower, false, n, A, lda, t.data(), n, trace)) {
        lauum_product(s, uplo == Uplo::lower, n, t.data(), c.data(), A, lda, true, trace);
        detail::finish_fp64_report(report, std::move(trace), s.target, 0);
        return 0;
      }
    }
  CallReport tri;
  const int info = trtri(s, uplo, false, n, A, lda, &tri);
  if (info != 0) return info;  // trtri wrote nothing
  trace.add(std::move(tri.trace));
  lauum_steps(s, uplo, n, A, lda, trace);
  detail::finish_fp64_report(report, std::move(trace), s.target, tri.host_fp64_flops);
  return 0;
}

// laswp: LAPACK's interchanges composed on the host into the one row permutation they make (index
// bookkeeping, no data), then moved by DMA as 32-bit words (u32: bit-exact for every element type):
// the touched rows' block read into SBUF 128 rows at a time (rows on partitions: every DMA queue
// busy), copied whole into a second SBUF block, each moved row overwritten there from its source row
// (one SBUF -> SBUF DMA per moved row, independent of one another), and the block written back. The
// result is the swaps' in LAPACK's order, element for element. Before (session 16) every interchange
// was four dependent one-row DMAs through HBM and two SBUF rows, one DMA queue of sixteen each
// (roofline 17-18 at 512 x 512; now 1.15-1.3). Engines: DMA only. Limits: the two SBUF copies of the
// touched span take at most half a partition per column chunk; a span too long for one column (over
// ~1.5 M rows on trn1) runs the interchanges one element column at a time instead.
template <class T>
void laswp_impl(const Settings& s, std::int64_t n, T* A, std::int64_t lda, std::int64_t k1, std::int64_t k2,
                const int* ipiv, std::int64_t incx, CallReport* report) {
  detail::require_args(n >= 0 && k1 >= 1 && k2 >= k1 && incx != 0 && ipiv != nullptr && (n == 0 || A != nullptr),
                       "laswp", "n >= 0, 1 <= k1 <= k2, incx != 0, ipiv and A not NULL");
  if (report != nullptr) *report = CallReport{};
  const std::int64_t count = k2 - k1 + 1, step = incx > 0 ? incx : -incx;
  std::vector<std::pair<std::int64_t, std::int64_t>> swaps;  // 0-based (row, pivot row) in order
  std::int64_t rows = k2;
  for (std::int64_t t = 0; t < count; ++t) {
    const std::int64_t i = incx > 0 ? k1 + t : k2 - t;         // LAPACK: ix walks ipiv from its start either way
    const std::int64_t ip = ipiv[(k1 - 1) + (i - k1) * step];  // LAPACK's ix for row i, either direction
    detail::require_args(ip >= 1 && ip <= lda, "laswp", "ipiv entries in [1, lda]");
    rows = std::max(rows, ip);
    if (ip != i) swaps.emplace_back(i - 1, ip - 1);
  }
  detail::require_args(lda >= rows, "laswp", "lda >= the largest row index");
  TraceParts trace;
  if (n > 0 && !swaps.empty()) {
    // source[i - lo]: the original row that ends in row i, for the touched rows [lo, hi].
    std::int64_t lo = rows, hi = -1;
    for (const auto& [a, b] : swaps) lo = std::min({lo, a, b}), hi = std::max({hi, a, b});
    const std::int64_t span = hi - lo + 1;
    std::vector<std::int64_t> source(static_cast<std::size_t>(span));
    for (std::int64_t i = 0; i < span; ++i) source[static_cast<std::size_t>(i)] = lo + i;
    for (const auto& [a, b] : swaps) std::swap(source[static_cast<std::size_t>(a - lo)], source[static_cast<std::size_t>(b - lo)]);
    constexpr std::int64_t kWords = sizeof(T) / 4;
    LaunchConfig lc = s.launch_config();
    lc.num_cores = 1;
    lc.core.execute = true;
    trace.add(launch(lc, [&](NeuronCore& nc) {
                const std::int64_t pmax = nc.sbuf().partitions();
                const std::int64_t blocks = (span + pmax - 1) / pmax;
                // Two SBUF copies of the span, half of a partition's bytes at most, per column chunk.
                const std::int64_t budget = nc.sbuf().partition_bytes() / 2;
                const std::int64_t chunk = std::clamp<std::int64_t>(budget / (2 * blocks * kWords * 4), 1, n);
                const HbmTensor full = HbmTensor::wrap(A, DType::u32, {rows, n, kWords}, {kWords, lda * kWords, 1});
                if (2 * blocks * kWords * 4 > budget) {  // a span of millions of rows: the interchanges one by one
                  for (const auto& [a, b] : swaps)
                    for (std::int64_t c = 0; c < n; ++c) {
                      AllocScope sb(nc.sbuf());
                      const Tile xa = sb.alloc(DType::u32, 1, {1, kWords}, "row a");
                      const Tile xb = sb.alloc(DType::u32, 1, {1, kWords}, "row b");
                      nc.dma_copy(xa, full.tile_nd({a, c, 0}, {1, 1, kWords}, 0));
                      nc.dma_copy(xb, full.tile_nd({b, c, 0}, {1, 1, kWords}, 0));
                      nc.dma_copy(full.tile_nd({a, c, 0}, {1, 1, kWords}, 0), xb);
                      nc.dma_copy(full.tile_nd({b, c, 0}, {1, 1, kWords}, 0), xa);
                    }
                  return;
                }
                for (std::int64_t c = 0; c < n; c += chunk) {
                  const std::int64_t cc = std::min(chunk, n - c);
                  AllocScope sb(nc.sbuf());
                  const auto np = static_cast<std::int32_t>(std::min(pmax, span));
                  const Tile in = sb.alloc(DType::u32, np, {blocks * cc, kWords}, "laswp rows");
                  const Tile out = sb.alloc(DType::u32, np, {blocks * cc, kWords}, "laswp permuted");
                  auto block = [&](const Tile& t, std::int64_t b) {
                    const auto rb = static_cast<std::int32_t>(std::min(pmax, span - b * pmax));
                    return t.rows(0, rb).slice(0, b * cc, cc);
                  };
                  auto row = [&](const Tile& t, std::int64_t i) {  // row lo + i of the span
                    return t.rows(static_cast<std::int32_t>(i % pmax), 1).slice(0, (i / pmax) * cc, cc);
                  };
                  for (std::int64_t b = 0; b < blocks; ++b) {
                    const auto rb = std::min(pmax, span - b * pmax);
                    nc.dma_copy(block(in, b), full.tile_nd({lo + b * pmax, c, 0}, {rb, cc, kWords}, 0));
                    nc.dma_copy(block(out, b), block(in, b));
                  }
                  for (std::int64_t i = 0; i < span; ++i)
                    if (source[static_cast<std::size_t>(i)] != lo + i)
                      nc.dma_copy(row(out, i), row(in, source[static_cast<std::size_t>(i)] - lo));
                  for (std::int64_t b = 0; b < blocks; ++b) {
                    const auto rb = std::min(pmax, span - b * pmax);
                    nc.dma_copy(full.tile_nd({lo + b * pmax, c, 0}, {rb, cc, kWords}, 0), block(out, b));
                  }
                }
              }).trace);
  }
  detail::finish_fp64_report(report, std::move(trace), s.target, 0);
}

// larft: G = V^H V (k x k, V explicit with its unit entries and zeros) on TensorE, then the
// recurrence T(0:j, j) = -tau_j T(0:j, 0:j) G(0:j, j) (forward) or T(j+1:k, j) = -tau_j
// T(j+1:k, j+1:k) G(j+1:k, j) (backward) in fp64 on the host; only T's triangle is written.
template <class T>
void larft_impl(const Settings& s, bool forward, std::int64_t n, std::int64_t k, const T* V, std::int64_t ldv,
                const T* tau, T* Tm, std::int64_t ldt, CallReport* report) {
  detail::require_args(n >= k && k >= 0 && ldv >= std::max<std::int64_t>(1, n) && ldt >= std::max<std::int64_t>(1, k) &&
                           (k == 0 || (V != nullptr && tau != nullptr && Tm != nullptr)),
                       "larft", "n >= k >= 0, ldv >= max(1, n), ldt >= max(1, k), V, tau, T not NULL");
  if (report != nullptr) *report = CallReport{};
  TraceParts trace;
  if (k == 0) return detail::finish_fp64_report(report, std::move(trace), s.target, 0);
  using W = WideOf<T>;
  std::vector<T> vx(static_cast<std::size_t>(n * k)), g(static_cast<std::size_t>(k * k));
  for (std::int64_t j = 0; j < k; ++j) {
    const std::int64_t one = forward ? j : n - k + j;  // the implicit unit of v_j
    for (std::int64_t i = 0; i < n; ++i)
      vx[i + j * n] = (forward ? i < one : i > one) ? T(0) : i == one ? T(1) : V[i + j * ldv];
  }
  record_host_step(trace, HostStep{.name = "trnsolver.larft.explicit_v",
                                   .reads = {HostSpan::matrix(V, n, k, ldv)},
                                   .writes = {HostSpan(vx.data(), n * k)}});
  detail::gemm_step<T>(detail::sym_blas_settings<T>(s), 'C', 'N', k, k, n, T(1), vx.data(), n, vx.data(), n, T(0),
                       g.data(), k, trace);
  std::vector<W> t(static_cast<std::size_t>(k * k), W(0)), z(static_cast<std::size_t>(k));
  for (std::int64_t q = 0; q < k; ++q) {
    const std::int64_t j = forward ? q : k - 1 - q, lo = forward ? 0 : j + 1, hi = forward ? j : k;
    const W tj = W(tau[j]);
    t[j + j * k] = tj;
    for (std::int64_t i = lo; i < hi; ++i) z[i] = W(g[i + j * k]);
    for (std::int64_t i = lo; i < hi; ++i) {  // T(i, j) = -tau_j sum_l T(i, l) z_l over the triangle
      W acc(0);
      for (std::int64_t l = forward ? i : lo; l < (forward ? hi : i + 1); ++l) acc += t[i + l * k] * z[l];
      t[i + j * k] = tj == W(0) ? W(0) : -tj * acc;
    }
  }
  for (std::int64_t j = 0; j < k; ++j)
    for (std::int64_t i = forward ? 0 : j; i < (forward ? j + 1 : k); ++i)
      Tm[i + j * ldt] = detail::from_wide<T>(t[i + j * k]);
  const double flops = detail::kMacFlops<T> * static_cast<double>(k * k * k) / 6.0;
  record_host_step(trace, HostStep{.name = "trnsolver.larft.recurrence",
                                   .flops = flops,
                                   .reads = {HostSpan(g.data(), k * k), HostSpan(tau, k)},
                                   .writes = {HostSpan::matrix(Tm, k, k, ldt)}});
  detail::finish_fp64_report(report, std::move(trace), s.target, flops);
}

}  // namespace

#define TRNSOLVER_LAUUM_DEFINE(T)                                                                           \
  void lauum(const Settings& s, Uplo uplo, std::int64_t n, T* A, std::int64_t lda, CallReport* report) {    \
    lauum_impl(s, uplo, n, A, lda, report);                                                                 \
  }                                                                                                         \
  void laswp(const Settings& s, std::int64_t n, T* A, std::int64_t lda, std::int64_t k1, std::int64_t k2,   \
             const int* ipiv, std::int64_t incx, CallReport* report) {                                      \
    laswp_impl(s, n, A, lda, k1, k2, ipiv, incx, report);                                                   \
  }                                                                                                         \
  void larft(const Settings& s, bool forward, std::int64_t n, std::int64_t k, const T* V, std::int64_t ldv, \
             const T* tau, T* Tm, std::int64_t ldt, CallReport* report) {                                   \
    larft_impl(s, forward, n, k, V, ldv, tau, Tm, ldt, report);                                             \
  }
TRNSOLVER_LAUUM_DEFINE(float)
TRNSOLVER_LAUUM_DEFINE(double)
TRNSOLVER_LAUUM_DEFINE(std::complex<float>)
TRNSOLVER_LAUUM_DEFINE(std::complex<double>)
#undef TRNSOLVER_LAUUM_DEFINE

int potri(const Settings& s, Uplo uplo, std::int64_t n, float* A, std::int64_t lda, CallReport* report) {
  return potri_impl(s, uplo, n, A, lda, report);
}
int potri(const Settings& s, Uplo uplo, std::int64_t n, double* A, std::int64_t lda, CallReport* report) {
  return potri_impl(s, uplo, n, A, lda, report);
}
int potri(const Settings& s, Uplo uplo, std::int64_t n, std::complex<float>* A, std::int64_t lda, CallReport* report) {
  return potri_impl(s, uplo, n, A, lda, report);
}
int potri(const Settings& s, Uplo uplo, std::int64_t n, std::complex<double>* A, std::int64_t lda,
          CallReport* report) {
  return potri_impl(s, uplo, n, A, lda, report);
}

}  // namespace trn::solver
