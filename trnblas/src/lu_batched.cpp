// Batched LU (trn/blas/level3.hpp "Batched LU"): getrfBatched, getrsBatched, getriBatched of many
// small matrices. A tile machine wins here by putting the BATCH on the partition axis: partition p
// of a program holds matrix b0 + p whole (n x n, column-major on the free axis), so every step of
// the factorization is one instruction for up to 128 matrices, with no cross-partition traffic.
//
//   getrf_batched_kernel (fp32)   right-looking unblocked LU with partial pivoting, the operation
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
// Limits: one matrix per partition: (n^2 + 2 n) * 4 bytes of SBUF (the matrix and one scratch of
// the same size) must fit a partition, n <= 156 on trn1. One DMA per matrix (the pointer array puts
// every matrix at its own address).
// fp64 (D, Z): the same operations in the same order on the host side of the library (no NeuronCore
// engine computes in fp64), so the modeled profile has no instructions for them. Complex single (C)
// needs a planes form of these kernels and is not provided yet.
#include <algorithm>
#include <climits>
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "level3_internal.hpp"
#include "trn/blas/level3.hpp"

namespace trn::blas {

namespace {

using detail::Recorder;

void require(bool ok, const char* what) {
  if (!ok) throw UsageError("trnblas", "argument", what);
}

// A [s0, s1] view of a flat SBUF tile from element off, element strides st0, st1.
Tile view2(const Tile& flat, std::int64_t off, std::int64_t s0, std::int64_t st0, std::int64_t s1, std::int64_t st1) {
  Tile v = flat.slice(0, off, 1);
  v.ndim = 2;
  v.size = {s0, s1, 1, 1};
  v.stride = {st0, st1, 0, 0};
  return v;
}

// One matrix (rows x cols, column-major with leading dimension ld) in HBM as the [cols, rows]
// source / destination of a one-partition DMA.
Tile hbm_matrix(const void* p, DType dt, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  Tile t = HbmTensor::wrap(const_cast<void*>(p), dt, {1, rows}, {0, 1}).tile(0, 1, 0, rows);
  t.ndim = 2;
  t.size = {cols, rows, 1, 1};
  t.stride = {ld, 1, 0, 0};
  return t;
}

// The partition row p of a flat tile as [cols, rows] with stride rows.
Tile sbuf_matrix(const Tile& flat, std::int32_t p, std::int64_t rows, std::int64_t cols) {
  Tile t = flat.rows(p, 1);
  t.ndim = 2;
  t.size = {cols, rows, 1, 1};
  t.stride = {rows, 1, 0, 0};
  return t;
}

float load_f32(const Tile& t, std::int32_t p, std::int64_t i) {
  float v;
  std::memcpy(&v, t.at(p, i), 4);
  return v;
}
void store_f32(const Tile& t, std::int32_t p, std::int64_t i, float v) { std::memcpy(t.at(p, i), &v, 4); }
std::int32_t load_i32(const Tile& t, std::int32_t p, std::int64_t i) {
  std::int32_t v;
  std::memcpy(&v, t.at(p, i), 4);
  return v;
}
void store_i32(const Tile& t, std::int32_t p, std::int64_t i, std::int32_t v) { std::memcpy(t.at(p, i), &v, 4); }

// Declared GpSimd cost of a per-partition loop touching `elements` values per partition.
double gpsimd_cost(const NeuronCore& nc, std::int64_t elements) {
  return nc.hw().gpsimd_start + 2.0 * static_cast<double>(elements);
}

// ---- getrf (fp32, engines) ----------------------------------------------------------------------

struct GetrfArgs {
  std::int64_t n = 0, lda = 0, batch = 0;
  float* const* A = nullptr;
  int* piv = nullptr;  // n per matrix, 1-based; null: no pivoting
  int* info = nullptr;
};

void getrf_batched_kernel(NeuronCore& nc, const GetrfArgs& g) {
  const std::int32_t P = nc.hw().pmax;
  const std::int64_t b0 = static_cast<std::int64_t>(nc.program_id(0)) * P;
  const auto rows = static_cast<std::int32_t>(std::min<std::int64_t>(P, g.batch - b0));
  if (rows <= 0) return;
  const std::int64_t n = g.n;
  AllocScope sb(nc.sbuf());
  Tile a = sb.alloc(DType::f32, rows, {n * n}, "one matrix per partition, column-major");
  Tile t = sb.alloc(DType::f32, rows, {n * n}, "rank-1 update products");
  Tile dv = sb.alloc(DType::f32, rows, {2}, "pivot is zero; safe divisor");
  Tile piv = sb.alloc(DType::i32, rows, {n}, "pivots (1-based)");
  Tile info = sb.alloc(DType::i32, rows, {1}, "info");
  for (std::int32_t p = 0; p < rows; ++p) nc.dma_copy(sbuf_matrix(a, p, n, n), hbm_matrix(g.A[b0 + p], DType::f32, n, n, g.lda));
  const bool pivoting = g.piv != nullptr;
  for (std::int64_t k = 0; k < n; ++k) {
    const Tile outs[] = {a, piv, info};
    const Tile ins[] = {a};
    nc.custom_op(pivoting ? "lu_pivot_row_exchange" : "lu_zero_pivot_check", outs, ins, gpsimd_cost(nc, 3 * n),
                 [k, n, pivoting](const CustomOpContext& ctx) {
                   const Tile& m = ctx.outputs[0];
                   for (std::int32_t p = 0; p < m.partitions; ++p) {
                     if (k == 0) store_i32(ctx.outputs[2], p, 0, 0);
                     std::int64_t best = k;
                     if (pivoting) {  // ISAMAX: the first index of the largest |a_ik|
                       float bmax = std::abs(load_f32(m, p, k + k * n));
                       for (std::int64_t i = k + 1; i < n; ++i) {
                         const float v = std::abs(load_f32(m, p, i + k * n));
                         if (v > bmax) {
                           bmax = v;
                           best = i;
                         }
                       }
                       store_i32(ctx.outputs[1], p, k, static_cast<std::int32_t>(best + 1));
                     }
                     if (load_f32(m, p, best + k * n) != 0.0f) {
                       if (best != k)
                         for (std::int64_t j = 0; j < n; ++j) {
                           const float x = load_f32(m, p, k + j * n), y = load_f32(m, p, best + j * n);
                           store_f32(m, p, k + j * n, y);
                           store_f32(m, p, best + j * n, x);
                         }
                     } else if (load_i32(ctx.outputs[2], p, 0) == 0) {
                       store_i32(ctx.outputs[2], p, 0, static_cast<std::int32_t>(k + 1));
                     }
                   }
                 });
    const std::int64_t len = n - 1 - k;
    if (len == 0) continue;
    const Tile akk = a.cols(k + k * n, 1), zero = dv.cols(0, 1), div = dv.cols(1, 1);
    nc.tensor_scalar(zero, akk, AluOp::equal, 0.0f);
    nc.tensor_tensor(div, akk, zero, AluOp::add);  // a_kk, or 1 for a zero pivot (exact either way)
    const Tile col = a.cols(k + 1 + k * n, len);
    nc.tensor_scalar(col, col, AluOp::divide, div);
    const Tile l = view2(a, k + 1 + k * n, len, 0, len, 1);    // [j][i] = l_i
    const Tile u = view2(a, k + (k + 1) * n, len, n, len, 0);  // [j][i] = u_j
    const Tile prod = view2(t, 0, len, len, len, 1);
    const Tile trailing = view2(a, k + 1 + (k + 1) * n, len, n, len, 1);
    nc.tensor_tensor(prod, l, u, AluOp::multiply);
    nc.tensor_tensor(trailing, trailing, prod, AluOp::subtract);
  }
  for (std::int32_t p = 0; p < rows; ++p) {
    nc.dma_copy(hbm_matrix(g.A[b0 + p], DType::f32, n, n, g.lda), sbuf_matrix(a, p, n, n));
    if (pivoting) nc.dma_copy(hbm_matrix(g.piv + (b0 + p) * n, DType::i32, n, 1, n), sbuf_matrix(piv, p, n, 1));
  }
  Tile info_dst = HbmTensor::wrap(g.info + b0, DType::i32, {rows, 1}, {1, 1}).tile(0, rows, 0, 1);
  nc.dma_copy(info_dst, info);
}

// ---- getrs (fp32, engines) ----------------------------------------------------------------------

struct GetrsArgs {
  Op trans = Op::N;
  std::int64_t n = 0, nrhs = 0, lda = 0, ldb = 0, batch = 0;
  const float* const* A = nullptr;
  const int* piv = nullptr;  // null: no pivoting
  float* const* B = nullptr;
  std::int64_t chunk = 0;  // right-hand sides per pass
};

// x (per partition [nrhs, n], element i of rhs r at r n + i) := E^-1 x, E(i, j) at lu[i si + j sj].
void substitute(NeuronCore& nc, const Tile& lu, const Tile& x, const Tile& t, std::int64_t n, std::int64_t nrhs,
                std::int64_t si, std::int64_t sj, bool lower, bool unit) {
  for (std::int64_t step = 0; step < n; ++step) {
    const std::int64_t j = lower ? step : n - 1 - step;
    const Tile xj = view2(x, j, nrhs, n, 1, 1);
    if (!unit) nc.tensor_scalar(xj, xj, AluOp::divide, lu.cols(j * si + j * sj, 1));
    const std::int64_t i0 = lower ? j + 1 : 0, len = lower ? n - 1 - j : j;
    if (len == 0) continue;
    const Tile e = view2(lu, i0 * si + j * sj, nrhs, 0, len, si);
    const Tile xrep = view2(x, j, nrhs, n, len, 0);
    const Tile xs = view2(x, i0, nrhs, n, len, 1);
    const Tile prod = view2(t, 0, nrhs, len, len, 1);
    nc.tensor_tensor(prod, e, xrep, AluOp::multiply);
    nc.tensor_tensor(xs, xs, prod, AluOp::subtract);
  }
}

void getrs_batched_kernel(NeuronCore& nc, const GetrsArgs& g) {
  const std::int32_t P = nc.hw().pmax;
  const std::int64_t b0 = static_cast<std::int64_t>(nc.program_id(0)) * P;
  const auto rows = static_cast<std::int32_t>(std::min<std::int64_t>(P, g.batch - b0));
  if (rows <= 0) return;
  const std::int64_t n = g.n, cmax = g.chunk;
  AllocScope sb(nc.sbuf());
  Tile lu = sb.alloc(DType::f32, rows, {n * n}, "LU factors, one matrix per partition");
  Tile x = sb.alloc(DType::f32, rows, {cmax * n}, "right-hand sides [rhs, element]");
  Tile t = sb.alloc(DType::f32, rows, {cmax * n}, "update products");
  Tile piv = sb.alloc(DType::i32, rows, {n}, "pivots");
  for (std::int32_t p = 0; p < rows; ++p) {
    nc.dma_copy(sbuf_matrix(lu, p, n, n), hbm_matrix(g.A[b0 + p], DType::f32, n, n, g.lda));
    if (g.piv != nullptr) nc.dma_copy(sbuf_matrix(piv, p, n, 1), hbm_matrix(g.piv + (b0 + p) * n, DType::i32, n, 1, n));
  }
  const bool notrans = g.trans == Op::N;
  for (std::int64_t r0 = 0; r0 < g.nrhs; r0 += cmax) {
    const std::int64_t nr = std::min(cmax, g.nrhs - r0);
    for (std::int32_t p = 0; p < rows; ++p)
      nc.dma_copy(sbuf_matrix(x, p, n, nr), hbm_matrix(g.B[b0 + p] + r0 * g.ldb, DType::f32, n, nr, g.ldb));
    // Row exchanges: forward before the solves (N), in reverse after them (T).
    const auto exchange = [&](bool forward) {
      if (g.piv == nullptr) return;
      const Tile outs[] = {x};
      const Tile ins[] = {x, piv};
      nc.custom_op("lu_apply_row_exchanges", outs, ins, gpsimd_cost(nc, 2 * n * nr),
                   [n, nr, forward](const CustomOpContext& ctx) {
                     const Tile& xt = ctx.outputs[0];
                     for (std::int32_t p = 0; p < xt.partitions; ++p)
                       for (std::int64_t s = 0; s < n; ++s) {
                         const std::int64_t k = forward ? s : n - 1 - s;
                         const std::int64_t q = load_i32(ctx.inputs[1], p, k) - 1;
                         if (q == k || q < 0 || q >= n) continue;
                         for (std::int64_t r = 0; r < nr; ++r) {
                           const float a = load_f32(xt, p, k + r * n), b = load_f32(xt, p, q + r * n);
                           store_f32(xt, p, k + r * n, b);
                           store_f32(xt, p, q + r * n, a);
                         }
                       }
                   });
    };
    if (notrans) {
      exchange(true);
      substitute(nc, lu, x, t, n, nr, 1, n, true, true);    // L y = P b
      substitute(nc, lu, x, t, n, nr, 1, n, false, false);  // U x = y
    } else {
      substitute(nc, lu, x, t, n, nr, n, 1, true, false);  // U^T y = b
      substitute(nc, lu, x, t, n, nr, n, 1, false, true);  // L^T z = y
      exchange(false);                                      // x = P^T z
    }
    for (std::int32_t p = 0; p < rows; ++p)
      nc.dma_copy(hbm_matrix(g.B[b0 + p] + r0 * g.ldb, DType::f32, n, nr, g.ldb), sbuf_matrix(x, p, n, nr));
  }
}

int launch_programs(std::int64_t batch, std::int32_t P) {
  const std::int64_t programs = (batch + P - 1) / P;
  require(programs <= INT_MAX, "batch too large");
  return static_cast<int>(programs);
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
T conj_if(const T& v, bool c) {
  if constexpr (std::is_floating_point_v<T>) {
    return v;
  } else {
    return c ? std::conj(v) : v;
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

// SBUF budget per partition of getrs: the LU factors plus the chunk of right-hand sides and its
// product scratch.
std::int64_t getrs_chunk(const Settings& s, std::int64_t n, std::int64_t nrhs) {
  const std::int64_t floats = hardware_spec(s.target).sbuf_partition_bytes / 4 - n * n - n - 64;
  return std::clamp<std::int64_t>(floats / std::max<std::int64_t>(1, 2 * n), 1, std::min<std::int64_t>(nrhs, 512));
}

}  // namespace

std::int64_t getrf_batched_max_n(const Settings& s) {
  // Two n x n fp32 matrices (the factors and the product scratch) and the pivots per partition.
  const std::int64_t floats = hardware_spec(s.target).sbuf_partition_bytes / 4 - 64;
  std::int64_t n = 1;
  while (2 * (n + 1) * (n + 1) + 2 * (n + 1) <= floats) ++n;
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
  if constexpr (std::is_same_v<T, float>) {
    require(n <= getrf_batched_max_n(s), "n too large for one matrix per SBUF partition");
    GetrfArgs g{n, lda, batch, A, piv, info};
    LaunchResult r = launch(s.launch_config({launch_programs(batch, hardware_spec(s.target).pmax), 1, 1}),
                            [&](NeuronCore& nc) { getrf_batched_kernel(nc, g); });
    rec.add(r.trace);
  } else {
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
  if constexpr (std::is_same_v<T, float>) {
    require(n <= getrf_batched_max_n(s), "n too large for one matrix per SBUF partition");
    GetrsArgs g{trans == COp::N ? Op::N : Op::T, n, nrhs, lda, ldb, batch, A, piv, B, getrs_chunk(s, n, nrhs)};
    LaunchResult r = launch(s.launch_config({launch_programs(batch, hardware_spec(s.target).pmax), 1, 1}),
                            [&](NeuronCore& nc) { getrs_batched_kernel(nc, g); });
    rec.add(r.trace);
  } else {
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
  std::vector<int> piv_ok;
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
TRNBLAS_LU_INSTANTIATE(float)
TRNBLAS_LU_INSTANTIATE(double)
TRNBLAS_LU_INSTANTIATE(std::complex<double>)
#undef TRNBLAS_LU_INSTANTIATE

}  // namespace trn::blas
