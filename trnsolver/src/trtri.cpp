// trtri: the inverse of a triangular matrix (LAPACK xTRTRI; cuSOLVER Xtrtri) as a triangular solve
// T X = I -- fp32 with n <= kTrtriNewtonMaxOrder by trnblas's Newton-Schulz block inverse in place
// (trtri_newton: one launch, every product on TensorE), larger fp32 on the triangular-solve tile
// kernel (trnblas trsm_left_kernel: TensorE broadcasts, VectorE updates), fp64 by substitution on the
// host CPU (recorded host step, as dpotrs) -- and the triangular solves it shares with sygvj / sygvd
// (detail::tri_solve). docs/trnsolver.md "Xtrtri".
// X is triangular like T, so column j of X = T^-1 e_j only involves T's trailing (lower: rows and columns
// j..n-1) or leading (upper: 0..j) block: trtri solves each column (fp64) or each block of kTrtriBlock
// columns (fp32 kernel) on that block alone -- n^3/3 flops (the textbook count, LAPACK xTRTI2's; fp32: plus
// O(n^2 kTrtriBlock) of the blocks' square corners) instead of the n^3 of a full solve on I. The skipped rows hold exact zeros in the full solve and subtract exact
// zeros from the others, so the computed inverse is the same, bit for bit, for finite T.
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "eig_internal.hpp"
#include "trn/blas/level12.hpp"  // trsm_left_kernel, the triangular-solve tile kernel
#include "trn/blas/narrow_trsm.hpp"

namespace trn::solver {
namespace detail {

void tri_solve(const Settings& s, const float* t, std::int64_t si, std::int64_t sj, bool lower, bool unit,
               std::int64_t n, std::int64_t cols, float* r, TraceParts& trace, double*, std::string_view) {
  LaunchConfig lc = s.launch_config();
  lc.num_cores = 1;
  lc.core.execute = true;
  const std::int64_t chunk = hardware_spec(s.target).gemm_moving_fmax;
  for (std::int64_t c0 = 0; c0 < cols; c0 += chunk) {
    const blas::TrsmProblem p{.t = t, .t_si = si, .t_sj = sj, .lower = lower, .unit = unit, .b = r + c0 * n, .ldb = n, .n = n,
                                .nrhs = std::min(chunk, cols - c0)};
    trace.add(launch(lc, [&](NeuronCore& nc) { blas::trsm_left_kernel(nc, p); }).trace);
  }
}
void tri_solve(const Settings&, const double* t, std::int64_t si, std::int64_t sj, bool lower, bool unit,
               std::int64_t n, std::int64_t cols, double* r, TraceParts& trace, double* flops, std::string_view step) {
  for (std::int64_t c = 0; c < cols; ++c) {
    double* x = r + c * n;
    if (lower)
      for (std::int64_t i = 0; i < n; ++i) {
        double v = x[i];
        for (std::int64_t k = 0; k < i; ++k) v -= t[i * si + k * sj] * x[k];
        x[i] = unit ? v : v / t[i * si + i * sj];
      }
    else
      for (std::int64_t i = n; i-- > 0;) {
        double v = x[i];
        for (std::int64_t k = i + 1; k < n; ++k) v -= t[i * si + k * sj] * x[k];
        x[i] = unit ? v : v / t[i * si + i * sj];
      }
  }
  const double f = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(cols);
  *flops += f;
  // One host round trip: the factor and the right-hand sides to the host, the solution back.
  record_host_step(trace, HostStep{.name = step, .flops = f,
                                   .reads = {HostSpan(t, n * n), HostSpan(r, n * cols)},
                                   .writes = {HostSpan(r, n * cols)}});
}


}  // namespace detail

namespace {

// Columns per fp32 kernel launch of the triangular inverse: each launch solves its columns on the
// trailing (lower) / leading (upper) block from its first / last column, so narrower blocks skip more of
// the full solve's zero work but launch more often. 256 measured best on the cost model (trn2 strtri
// n = 600 lower: 8.34 ms as a full solve, 6.82 ms at 128, 5.79 ms at 256, 10.3 ms at 64); n <= 256 stays
// one launch, as before (docs/trnsolver.md "Xtrtri").
constexpr std::int64_t kTrtriBlock = 256;

// X = T^-1 in r (n x n, ld n, entering as I), T dense n x n with zeros outside its triangle.
void tri_inverse(const Settings& s, const float* t, bool lower, bool unit, std::int64_t n, float* r,
                 TraceParts& trace, double*) {
  LaunchConfig lc = s.launch_config();
  lc.num_cores = 1;
  lc.core.execute = true;
  const std::int64_t block = std::min<std::int64_t>(kTrtriBlock, hardware_spec(s.target).gemm_moving_fmax);
  for (std::int64_t c0 = 0; c0 < n; c0 += block) {
    const std::int64_t w = std::min(block, n - c0), r0 = lower ? c0 : 0, rows = lower ? n - c0 : c0 + w;
    const blas::TrsmProblem p{.t = t + r0 + r0 * n, .t_si = 1, .t_sj = n, .lower = lower, .unit = unit,
                              .b = r + r0 + c0 * n, .ldb = n, .n = rows, .nrhs = w};
    trace.add(launch(lc, [&](NeuronCore& nc) { blas::trsm_left_kernel(nc, p); }).trace);
  }
}
void tri_inverse(const Settings&, const double* t, bool lower, bool unit, std::int64_t n, double* r, TraceParts& trace,
                 double* flops) {
  double f = 0;
  for (std::int64_t c = 0; c < n; ++c) {
    double* x = r + c * n;
    if (lower) {
      for (std::int64_t i = c; i < n; ++i) {
        double v = x[i];
        for (std::int64_t k = c; k < i; ++k) v -= t[i + k * n] * x[k];
        x[i] = unit ? v : v / t[i + i * n];
      }
      f += static_cast<double>(n - c) * static_cast<double>(n - c);
    } else {
      for (std::int64_t i = c + 1; i-- > 0;) {
        double v = x[i];
        for (std::int64_t k = i + 1; k <= c; ++k) v -= t[i + k * n] * x[k];
        x[i] = unit ? v : v / t[i + i * n];
      }
      f += static_cast<double>(c + 1) * static_cast<double>(c + 1);
    }
  }
  *flops += f;
  record_host_step(trace, HostStep{.name = "trnsolver.dtrtri.substitution", .flops = f,
                                   .reads = {HostSpan(t, n * n), HostSpan(r, n * n)}, .writes = {HostSpan(r, n * n)}});
}

template <class T>
int trtri_impl(const Settings& s, Uplo uplo, bool unit, std::int64_t n, T* A, std::int64_t lda, CallReport* report) {
  if (!(n >= 0 && lda >= std::max<std::int64_t>(1, n) && (n == 0 || A != nullptr)))
    throw UsageError("trnsolver", "trtri", "n >= 0, lda >= max(1, n), A not NULL");
  if (report != nullptr) *report = CallReport{};
  for (std::int64_t i = 0; !unit && i < n; ++i)  // an exactly zero diagonal: singular, nothing written
    if (A[i + i * lda] == T(0)) return static_cast<int>(i + 1);
  if (n == 0) return 0;
  const bool lower = uplo == Uplo::lower;
  // fp32, n <= kTrtriNewtonMaxOrder: trnblas's Newton-Schulz block inverse in place on A, one launch
  // (docs/trnblas.md "Triangular inverse by Newton-Schulz blocks"); a non-finite result leaves A as
  // it was and substitutes below. (No distributed caller: the choice by n is the same on every grid.)
  TraceParts trace;  // (a failed attempt's launch stays in it: the device spent that time)
  if constexpr (std::is_same_v<T, float>)
    if (n <= blas::kTrtriNewtonMaxOrder && blas::trtri_newton(s.launch_config(), lower, unit, n, A, lda, A, lda, trace)) {
      detail::finish_fp64_report(report, std::move(trace), s.target, 0);
      return 0;
    }
  const auto in_tri = [&](std::int64_t i, std::int64_t j) { return lower ? i >= j : i <= j; };
  // Dense T (zeros outside the triangle, a unit diagonal when `unit`: the kernel must not see the
  // caller's unreferenced values) and X = I.
  ScratchVector<T> t(static_cast<std::size_t>(n * n), T(0)), x(t.size(), T(0));
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < n; ++i)
      if (in_tri(i, j) && i != j) t[static_cast<std::size_t>(i + j * n)] = A[i + j * lda];
    t[static_cast<std::size_t>(j + j * n)] = unit ? T(1) : A[j + j * lda];
    x[static_cast<std::size_t>(j + j * n)] = T(1);
  }
  double flops = 0;
  tri_inverse(s, t.data(), lower, unit, n, x.data(), trace, &flops);
  for (std::int64_t j = 0; j < n; ++j)  // X's triangle (its diagonal too unless unit) into A
    for (std::int64_t i = 0; i < n; ++i)
      if (in_tri(i, j) && !(unit && i == j)) A[i + j * lda] = x[static_cast<std::size_t>(i + j * n)];
  detail::finish_fp64_report(report, std::move(trace), s.target, std::is_same_v<T, double> ? flops : 0);
  return 0;
}

}  // namespace

int trtri(const Settings& s, Uplo uplo, bool unit, std::int64_t n, float* A, std::int64_t lda, CallReport* report) {
  return trtri_impl(s, uplo, unit, n, A, lda, report);
}
int trtri(const Settings& s, Uplo uplo, bool unit, std::int64_t n, double* A, std::int64_t lda, CallReport* report) {
  return trtri_impl(s, uplo, unit, n, A, lda, report);
}

}  // namespace trn::solver
