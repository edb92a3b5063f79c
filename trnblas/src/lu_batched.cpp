// Batched LU (trn/blas/level3.hpp "Batched LU"): getrfBatched, getrsBatched, getriBatched of many
// small matrices. A tile machine wins here by putting the BATCH on the partition axis: partition p
// of a program holds matrix b0 + p whole (n x n, column-major on the free axis), so every step of
// the factorization is one instruction for up to 128 matrices, with no cross-partition traffic.
//
//   getrf_batched_kernel (fp32 real; complex as planes, below)   right-looking unblocked LU with partial pivoting, the operation
//     order of LAPACK's SGETF2 (Anderson et al., LAPACK Users' Guide, 3rd ed.; Golub & Van Loan,
//     Matrix Computations, 4th ed., Alg. 3.4.1), per column k:
//       GpSimdE  pivot search (first i >= k maximising |a_ik|, ISAMAX's rule) and the exchange of
//                rows k and i_piv over all n columns: comparisons and data movement only, per
//                partition (the index differs per matrix), as a custom GpSimd operator; records
//                the 1-based pivot and INFO (first k with a zero pivot, LAPACK's convention).
//       VectorE  l = a[k+1:, k] / a_kk (one rounding; a zero pivot divides by 1 instead, so the
//                column stays as it is, as SGETF2 skips the scaling), then the rank-1 update
//                a[k+1:, k+1:] -= l u^T, u = a[k, k+1:], as TWO instructions over stride-0 views
//                (l repeated over the columns, u over the rows): fl(a - fl(l u)).
//     Accuracy: the computed factors satisfy L U = P A + dA, |dA| <= gamma_n |L| |U| (Higham,
//     Accuracy and Stability of Numerical Algorithms, 2nd ed., Thm 9.3), u = 2^-24.
//   getrs_batched_kernel (fp32)   row exchanges of B by the pivots (GpSimd, data movement), then the
//     column-oriented substitutions L y = P b (unit) and U x = y (Golub & Van Loan Alg. 3.1.3/3.1.4;
//     transposed: U^T, then L^T, then the exchanges in reverse), per column j: x_j /= e_jj, then
//     x_i -= e_ij x_j for the unsolved i over all right-hand sides at once (stride-0 views).
//     Higham Thm 8.5: each solve is componentwise backward stable, |dE| <= gamma_n |E|.
//   getri: the inverse as the solution of A X = I (getrs with B = I): error as getrs with n
//     right-hand sides (Higham §14.3, "method B"-like bounds, |X A - I| <= c_n u |X| |L| |U|).
//
// Limits: one matrix per partition: the matrix and its product scratch (2 n^2 floats real, 4 n^2
// complex, plus O(n)) must fit a partition, n <= 155 (S) / 110 (C) on trn1 (getrf_batched_max_n).
// One DMA per matrix (the pointer array puts every matrix at its own address).
// Complex single (C): the same kernels on (re, im) planes: the pivot measure |re| + |im| (ICAMAX's)
// on VectorE, the division as a multiplication by a Smith-scaled reciprocal, complex products as
// four real ones (sub_product, divide_by below). fp64 (D, Z): the same operations in the same order
// on the host CPU (no NeuronCore engine computes in fp64), one costed host round trip per call for
// the whole batch (trnblas.{d,z}{getrf,getrs}_batched.host; docs/cost-model.md section 7).
#include <algorithm>
#include <climits>
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "level3_internal.hpp"
#include "small_batched.hpp"
#include "trn/core/for_each_scalar.hpp"
#include "trn/core/scratch.hpp"
#include "trn/tile/complex.hpp"
#include "trn/tile/view.hpp"
#include "trn/blas/level3.hpp"

namespace trn::blas {

namespace {

using namespace small_batched;  // NOLINT(google-build-using-namespace): the shared batched pieces

// GpSimd: exchange elements k and q (W floats each) of `count` vectors with element stride `step`.
template <class T>
void exchange_elements(const Tile& t, std::int32_t p, std::int64_t k, std::int64_t q, std::int64_t count,
                       std::int64_t step) {
  constexpr std::int64_t w = kWidth<T>;
  for (std::int64_t r = 0; r < count; ++r)
    for (std::int64_t c = 0; c < w; ++c) {
      const std::int64_t ik = w * (k + r * step) + c, iq = w * (q + r * step) + c;
      const float a = load_f32(t, p, ik), b = load_f32(t, p, iq);
      store_f32(t, p, ik, b);
      store_f32(t, p, iq, a);
    }
}

// ---- getrf (fp32 real and complex, engines) -----------------------------------------------------

template <class T>
struct GetrfArgs {
  std::int64_t n = 0, lda = 0, batch = 0;
  T* const* A = nullptr;
  int* piv = nullptr;  // n per matrix, 1-based; null: no pivoting
  int* info = nullptr;
};

template <class T>
void getrf_batched_kernel(NeuronCore& nc, const GetrfArgs<T>& g) {
  constexpr std::int64_t w = kWidth<T>;
  const auto [b0, rows] = batch_rows(nc, g.batch);  // (no lambda below captures them)
  if (rows <= 0) return;
  const std::int64_t n = g.n;
  AllocScope sb(nc.sbuf());
  Tile a = sb.alloc(DType::f32, rows, {w * n * n}, "one matrix per partition, column-major");
  Tile t = sb.alloc(DType::f32, rows, {w == 1 ? n * n : std::max<std::int64_t>(2 * n * n, 3 * n)}, "products");
  Tile mag = sb.alloc(DType::f32, rows, {2 * n}, "pivot magnitudes |re| + |im| (complex)");
  Tile rc = sb.alloc(DType::f32, rows, {8}, "pivot reciprocal");
  Tile piv = sb.alloc(DType::i32, rows, {n}, "pivots (1-based)");
  Tile info = sb.alloc(DType::i32, rows, {1}, "info");
  for (std::int32_t p = 0; p < rows; ++p)
    nc.dma_copy(sbuf_matrix(a, p, w * n, n), hbm_matrix(g.A[b0 + p], DType::f32, w * n, n, w * g.lda));
  const bool pivoting = g.piv != nullptr;
  for (std::int64_t k = 0; k < n; ++k) {
    // The pivot measure: |a_ik| (real, read by the GpSimd operator) or |re| + |im| (complex: VectorE,
    // ICAMAX's measure), for i >= k.
    if constexpr (!std::is_same_v<T, float>) {
      const std::int64_t len = n - k;
      const Tile re = ev<T>(a, k + k * n, 1, 0, len, 1, 0), im = ev<T>(a, k + k * n, 1, 0, len, 1, 1);
      const Tile m0 = view2(mag, 0, 1, 0, len, 1), m1 = view2(mag, n, 1, 0, len, 1);
      nc.tensor_scalar(m0, re, AluOp::abs_max, 0.0f);
      nc.tensor_scalar(m1, im, AluOp::abs_max, 0.0f);
      nc.tensor_tensor(m0, m0, m1, AluOp::add);
    }
    const Tile outs[] = {a, piv, info};
    const Tile ins[] = {a, mag};
    nc.custom_op(pivoting ? "lu_pivot_row_exchange" : "lu_zero_pivot_check", outs, ins, gpsimd_cost(nc, (2 + w) * n),
                 [k, n, pivoting](const CustomOpContext& ctx) {
                   const Tile& m = ctx.outputs[0];
                   const auto measure = [&](std::int32_t p, std::int64_t i) {
                     if constexpr (std::is_same_v<T, float>)
                       return std::abs(load_f32(m, p, i + k * n));
                     else
                       return load_f32(ctx.inputs[1], p, i - k);
                   };
                   const auto nonzero = [&](std::int32_t p, std::int64_t i) {
                     bool nz = false;
                     for (std::int64_t c = 0; c < kWidth<T>; ++c) nz = nz || load_f32(m, p, kWidth<T> * (i + k * n) + c) != 0.0f;
                     return nz;
                   };
                   for (std::int32_t p = 0; p < m.partitions; ++p) {
                     if (k == 0) store_i32(ctx.outputs[2], p, 0, 0);
                     std::int64_t best = k;
                     if (pivoting) {  // I?AMAX: the first index of the largest measure
                       float bmax = measure(p, k);
                       for (std::int64_t i = k + 1; i < n; ++i)
                         if (measure(p, i) > bmax) {
                           bmax = measure(p, i);
                           best = i;
                         }
                       store_i32(ctx.outputs[1], p, k, static_cast<std::int32_t>(best + 1));
                     }
                     if (nonzero(p, best)) {
                       if (best != k) exchange_elements<T>(m, p, k, best, n, n);
                     } else if (load_i32(ctx.outputs[2], p, 0) == 0) {
                       store_i32(ctx.outputs[2], p, 0, static_cast<std::int32_t>(k + 1));
                     }
                   }
                 });
    const std::int64_t len = n - 1 - k;
    if (len == 0) continue;
    divide_by<T>(nc, a, k + k * n, {&a, k + 1 + k * n, 0, 1}, 1, len, rc, t, true);
    // a[k+1:, k+1:] -= l u^T: [j][i] views, l repeated over the columns, u over the rows.
    sub_product<T>(nc, {&a, k + 1 + (k + 1) * n, n, 1}, {&a, k + 1 + k * n, 0, 1}, {&a, k + (k + 1) * n, n, 0}, len, len,
                   t);
  }
  for (std::int32_t p = 0; p < rows; ++p) {
    nc.dma_copy(hbm_matrix(g.A[b0 + p], DType::f32, w * n, n, w * g.lda), sbuf_matrix(a, p, w * n, n));
    if (pivoting) nc.dma_copy(hbm_matrix(g.piv + (b0 + p) * n, DType::i32, n, 1, n), sbuf_matrix(piv, p, n, 1));
  }
  Tile info_dst = HbmTensor::wrap(g.info + b0, DType::i32, {rows, 1}, {1, 1}).tile(0, rows, 0, 1);
  nc.dma_copy(info_dst, info);
}

// ---- getrs (fp32 real and complex, engines) -----------------------------------------------------

template <class T>
struct GetrsArgs {
  COp trans = COp::N;
  std::int64_t n = 0, nrhs = 0, lda = 0, ldb = 0, batch = 0;
  const T* const* A = nullptr;
  const int* piv = nullptr;  // null: no pivoting
  T* const* B = nullptr;
  std::int64_t chunk = 0;  // right-hand sides per pass
};

template <class T>
void getrs_batched_kernel(NeuronCore& nc, const GetrsArgs<T>& g) {
  constexpr std::int64_t w = kWidth<T>;
  const auto [b0, rows] = batch_rows(nc, g.batch);  // (no lambda below captures them)
  if (rows <= 0) return;
  const std::int64_t n = g.n, cmax = g.chunk;
  AllocScope sb(nc.sbuf());
  Tile lu = sb.alloc(DType::f32, rows, {w * n * n}, "LU factors, one matrix per partition");
  Tile x = sb.alloc(DType::f32, rows, {w * cmax * n}, "right-hand sides [rhs, element]");
  Tile t = sb.alloc(DType::f32, rows, {3 * cmax * n}, "products");
  Tile rc = sb.alloc(DType::f32, rows, {8}, "pivot reciprocal");
  Tile piv = sb.alloc(DType::i32, rows, {n}, "pivots");
  for (std::int32_t p = 0; p < rows; ++p) {
    nc.dma_copy(sbuf_matrix(lu, p, w * n, n), hbm_matrix(g.A[b0 + p], DType::f32, w * n, n, w * g.lda));
    if (g.piv != nullptr) nc.dma_copy(sbuf_matrix(piv, p, n, 1), hbm_matrix(g.piv + (b0 + p) * n, DType::i32, n, 1, n));
  }
  if (g.trans == COp::C && w == 2) {  // op C: the factors conjugated once (exact sign flips)
    const Tile im = lu.slice(0, 1, n * n, 2);
    nc.tensor_scalar(im, im, AluOp::multiply, -1.0f);
  }
  for (std::int64_t r0 = 0; r0 < g.nrhs; r0 += cmax) {
    const std::int64_t nr = std::min(cmax, g.nrhs - r0);
    for (std::int32_t p = 0; p < rows; ++p)
      nc.dma_copy(sbuf_matrix(x, p, w * n, nr), hbm_matrix(g.B[b0 + p] + r0 * g.ldb, DType::f32, w * n, nr, w * g.ldb));
    // Row exchanges: forward before the solves (N), in reverse after them (T, C).
    const auto exchange = [&](bool forward) {
      if (g.piv == nullptr) return;
      const Tile outs[] = {x};
      const Tile ins[] = {x, piv};
      nc.custom_op("lu_apply_row_exchanges", outs, ins, gpsimd_cost(nc, 2 * w * n * nr),
                   [n, nr, forward](const CustomOpContext& ctx) {
                     for (std::int32_t p = 0; p < ctx.outputs[0].partitions; ++p)
                       for (std::int64_t s = 0; s < n; ++s) {
                         const std::int64_t k = forward ? s : n - 1 - s;
                         const std::int64_t q = load_i32(ctx.inputs[1], p, k) - 1;
                         if (q != k && q >= 0 && q < n) exchange_elements<T>(ctx.outputs[0], p, k, q, nr, n);
                       }
                   });
    };
    if (g.trans == COp::N) {
      exchange(true);
      substitute<T>(nc, lu, x, t, rc, n, nr, 1, n, true, true, n);    // L y = P b
      substitute<T>(nc, lu, x, t, rc, n, nr, 1, n, false, false, n);  // U x = y
    } else {
      substitute<T>(nc, lu, x, t, rc, n, nr, n, 1, true, false, n);  // op(U) y = b
      substitute<T>(nc, lu, x, t, rc, n, nr, n, 1, false, true, n);  // op(L) z = y
      exchange(false);                                             // x = P^T z
    }
    for (std::int32_t p = 0; p < rows; ++p)
      nc.dma_copy(hbm_matrix(g.B[b0 + p] + r0 * g.ldb, DType::f32, w * n, nr, w * g.ldb), sbuf_matrix(x, p, w * n, nr));
  }
}

// ---- host side (fp64 real and complex): the same operations in the same order --------------------

template <class T>
double abs1(const T& v) {  // LAPACK's pivot measure: |x| (real), |re| + |im| (ICAMAX / IZAMAX)
  if constexpr (std::is_floating_point_v<T>)
    return std::abs(static_cast<double>(v));
  else
    return std::abs(static_cast<double>(v.real())) + std::abs(static_cast<double>(v.imag()));
}

template <class T>
void getrf_host(std::int64_t n, T* a, std::int64_t lda, int* piv, int& info) {
  info = 0;
  for (std::int64_t k = 0; k < n; ++k) {
    std::int64_t best = k;
    if (piv != nullptr) {
      double bmax = abs1(a[k + k * lda]);
      for (std::int64_t i = k + 1; i < n; ++i)
        if (abs1(a[i + k * lda]) > bmax) {
          bmax = abs1(a[i + k * lda]);
          best = i;
        }
      piv[k] = static_cast<int>(best + 1);
    }
    if (a[best + k * lda] != T(0)) {
      if (best != k)
        for (std::int64_t j = 0; j < n; ++j) std::swap(a[k + j * lda], a[best + j * lda]);
      for (std::int64_t i = k + 1; i < n; ++i) a[i + k * lda] /= a[k + k * lda];
    } else if (info == 0) {
      info = static_cast<int>(k + 1);
    }
    for (std::int64_t j = k + 1; j < n; ++j)
      for (std::int64_t i = k + 1; i < n; ++i) a[i + j * lda] -= a[i + k * lda] * a[k + j * lda];
  }
}

template <class T>
void getrs_host(COp trans, std::int64_t n, std::int64_t nrhs, const T* a, std::int64_t lda, const int* piv, T* b,
                std::int64_t ldb) {
  const bool c = trans == COp::C;
  for (std::int64_t r = 0; r < nrhs; ++r) {
    T* x = b + r * ldb;
    const auto exchange = [&](std::int64_t k) {
      const std::int64_t q = piv[k] - 1;
      if (q != k && q >= 0 && q < n) std::swap(x[k], x[q]);
    };
    if (trans == COp::N) {
      if (piv != nullptr)
        for (std::int64_t k = 0; k < n; ++k) exchange(k);
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = j + 1; i < n; ++i) x[i] -= a[i + j * lda] * x[j];
      for (std::int64_t j = n - 1; j >= 0; --j) {
        x[j] /= a[j + j * lda];
        for (std::int64_t i = 0; i < j; ++i) x[i] -= a[i + j * lda] * x[j];
      }
    } else {
      for (std::int64_t j = 0; j < n; ++j) {  // U^T (or U^H) y = b: E(i, j) = op(U(j, i))
        x[j] /= conj_if(a[j + j * lda], c);
        for (std::int64_t i = j + 1; i < n; ++i) x[i] -= conj_if(a[j + i * lda], c) * x[j];
      }
      for (std::int64_t j = n - 1; j >= 0; --j)
        for (std::int64_t i = 0; i < j; ++i) x[i] -= conj_if(a[j + i * lda], c) * x[j];
      if (piv != nullptr)
        for (std::int64_t k = n - 1; k >= 0; --k) exchange(k);
    }
  }
}

// fp64 flops of getrf_host on one n x n matrix: per column k the pivot measure and comparison over
// n - k rows (real 1, complex 3: |re| + |im|), n - k - 1 divisions (real 1, complex 11) and the
// (n - k - 1)^2 multiply-subtracts of the update (real 2, complex 8).
template <class T>
double getrf_host_flops(std::int64_t n, bool pivoting) {
  constexpr bool cx = !std::is_floating_point_v<T>;
  double f = 0;
  for (std::int64_t k = 0; k < n; ++k) {
    const auto r = static_cast<double>(n - k - 1);
    f += (pivoting ? (cx ? 3.0 : 1.0) * (r + 1) : 0.0) + (cx ? 11.0 : 1.0) * r + (cx ? 8.0 : 2.0) * r * r;
  }
  return f;
}

// SBUF budget per partition of getrs: the LU factors plus the chunk of right-hand sides and its
// product scratch.
template <class T>
std::int64_t getrs_chunk(const Settings& s, std::int64_t n, std::int64_t nrhs) {
  constexpr std::int64_t w = kWidth<T>;
  const std::int64_t floats = hardware_spec(s.target).sbuf_partition_bytes / 4 - w * n * n - n - 64;
  return std::clamp<std::int64_t>(floats / std::max<std::int64_t>(1, (w + 3) * n), 1, std::min<std::int64_t>(nrhs, 512));
}

}  // namespace

std::int64_t getrf_batched_max_n(const Settings& s, bool complex) {
  // The factors (n^2 elements) and the product scratch (n^2 real products, 2 n^2 complex) per
  // partition, plus the pivots and the magnitudes.
  const std::int64_t floats = hardware_spec(s.target).sbuf_partition_bytes / 4 - 64, per = complex ? 4 : 2;
  std::int64_t n = 1;
  while (per * (n + 1) * (n + 1) + 4 * (n + 1) <= floats) ++n;
  return n;
}

template <class T>
void getrf_batched(const Settings& s, std::int64_t n, T* const A[], std::int64_t lda, int* piv, int* info,
                   std::int64_t batch, CallReport* report) {
  require(n >= 0 && batch >= 0 && lda >= std::max<std::int64_t>(1, n), "n, lda, batch");
  Recorder rec(s, report);
  if (n == 0 || batch == 0) {
    if (!s.timing_only)
      for (std::int64_t b = 0; b < batch; ++b) info[b] = 0;
    return;
  }
  if constexpr (kOnEngines<T>) {
    require(n <= getrf_batched_max_n(s, kWidth<T> == 2), "n too large for one matrix per SBUF partition");
    GetrfArgs<T> g{n, lda, batch, A, piv, info};
    LaunchResult r = launch(s.launch_config({launch_programs(batch, hardware_spec(s.target).pmax), 1, 1}),
                            [&](NeuronCore& nc) { getrf_batched_kernel(nc, g); });
    rec.add(r.trace);
  } else {
    const HostSpan a = batch_span(A, batch, n, n, lda), p = piv != nullptr ? HostSpan(piv, batch * n) : HostSpan{};
    rec.host_step(HostStep{.name = std::is_floating_point_v<T> ? "trnblas.dgetrf_batched.host" : "trnblas.zgetrf_batched.host",
                           .flops = static_cast<double>(batch) * getrf_host_flops<T>(n, piv != nullptr),
                           .reads = {a},
                           .writes = {a, p, HostSpan(info, batch)}});
    if (s.timing_only) return;
    for (std::int64_t b = 0; b < batch; ++b) getrf_host(n, A[b], lda, piv == nullptr ? nullptr : piv + b * n, info[b]);
  }
}

template <class T>
void getrs_batched(const Settings& s, COp trans, std::int64_t n, std::int64_t nrhs, const T* const A[],
                   std::int64_t lda, const int* piv, T* const B[], std::int64_t ldb, std::int64_t batch,
                   CallReport* report) {
  require(n >= 0 && nrhs >= 0 && batch >= 0 && lda >= std::max<std::int64_t>(1, n) && ldb >= std::max<std::int64_t>(1, n),
          "n, nrhs, lda, ldb, batch");
  Recorder rec(s, report);
  if (n == 0 || nrhs == 0 || batch == 0) return;
  if constexpr (kOnEngines<T>) {
    require(n <= getrf_batched_max_n(s, kWidth<T> == 2), "n too large for one matrix per SBUF partition");
    const COp op = std::is_same_v<T, float> && trans == COp::C ? COp::T : trans;
    GetrsArgs<T> g{op, n, nrhs, lda, ldb, batch, A, piv, B, getrs_chunk<T>(s, n, nrhs)};
    LaunchResult r = launch(s.launch_config({launch_programs(batch, hardware_spec(s.target).pmax), 1, 1}),
                            [&](NeuronCore& nc) { getrs_batched_kernel(nc, g); });
    rec.add(r.trace);
  } else {
    // Per right-hand side: n divisions and n (n - 1) multiply-subtracts, 2 n^2 flops (complex: 4x).
    const HostSpan x = batch_span(B, batch, n, nrhs, ldb);
    rec.host_step(HostStep{.name = std::is_floating_point_v<T> ? "trnblas.dgetrs_batched.host" : "trnblas.zgetrs_batched.host",
                           .flops = (std::is_floating_point_v<T> ? 2.0 : 8.0) * static_cast<double>(batch * nrhs * n * n),
                           .reads = {batch_span(A, batch, n, n, lda), piv != nullptr ? HostSpan(piv, batch * n) : HostSpan{}, x},
                           .writes = {x}});
    if (s.timing_only) return;
    for (std::int64_t b = 0; b < batch; ++b)
      getrs_host(trans, n, nrhs, A[b], lda, piv == nullptr ? nullptr : piv + b * n, B[b], ldb);
  }
}

template <class T>
void getri_batched(const Settings& s, std::int64_t n, const T* const A[], std::int64_t lda, const int* piv,
                   T* const C[], std::int64_t ldc, int* info, std::int64_t batch, CallReport* report) {
  require(n >= 0 && batch >= 0 && lda >= std::max<std::int64_t>(1, n) && ldc >= std::max<std::int64_t>(1, n),
          "n, lda, ldc, batch");
  // INFO: the first zero on U's diagonal (comparisons only); those entries' C stays untouched.
  std::vector<const T*> a_ok;
  std::vector<T*> c_ok;
  ScratchVector<int> piv_ok;  // the kernel reads it as HBM: the scratch stack (docs/cost-model.md section 2)
  if (piv != nullptr) piv_ok.reserve(static_cast<std::size_t>(std::max<std::int64_t>(batch, 0) * n));
  for (std::int64_t b = 0; b < batch; ++b) {
    int bad = 0;
    for (std::int64_t k = 0; k < n && bad == 0; ++k)
      if (A[b][k + k * lda] == T(0)) bad = static_cast<int>(k + 1);
    info[b] = bad;
    if (bad != 0) continue;
    a_ok.push_back(A[b]);
    c_ok.push_back(C[b]);
    if (piv != nullptr) piv_ok.insert(piv_ok.end(), piv + b * n, piv + (b + 1) * n);
    for (std::int64_t j = 0; j < n; ++j)  // C = I (a fill), then A X = I solved in place
      for (std::int64_t i = 0; i < n; ++i) C[b][i + j * ldc] = i == j ? T(1) : T(0);
  }
  getrs_batched<T>(s, COp::N, n, n, a_ok.data(), lda, piv == nullptr ? nullptr : piv_ok.data(), c_ok.data(), ldc,
                   static_cast<std::int64_t>(a_ok.size()), report);
}

#define TRNBLAS_LU_INSTANTIATE(T)                                                                                  \
  template void getrf_batched<T>(const Settings&, std::int64_t, T* const[], std::int64_t, int*, int*, std::int64_t, \
                                 CallReport*);                                                                     \
  template void getrs_batched<T>(const Settings&, COp, std::int64_t, std::int64_t, const T* const[], std::int64_t, \
                                 const int*, T* const[], std::int64_t, std::int64_t, CallReport*);                 \
  template void getri_batched<T>(const Settings&, std::int64_t, const T* const[], std::int64_t, const int*,       \
                                 T* const[], std::int64_t, int*, std::int64_t, CallReport*);
TRN_FOR_EACH_SDCZ(TRNBLAS_LU_INSTANTIATE)
#undef TRNBLAS_LU_INSTANTIATE

}  // namespace trn::blas
