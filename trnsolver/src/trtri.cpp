// trtri: the inverse of a triangular matrix (LAPACK xTRTRI; cuSOLVER Xtrtri) as a triangular solve
// T X = I -- fp32 on the triangular-solve tile kernel (trnblas trsm_left_kernel: TensorE broadcasts,
// VectorE updates), fp64 by substitution on the host CPU (recorded host step, as dpotrs) -- and the
// triangular solves it shares with sygvj / sygvd (detail::tri_solve). docs/trnsolver.md "Xtrtri".
#include <algorithm>
#include <vector>

#include "eig_internal.hpp"
#include "trn/blas/level12.hpp"  // trsm_left_kernel, the triangular-solve tile kernel

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

template <class T>
int trtri_impl(const Settings& s, Uplo uplo, bool unit, std::int64_t n, T* A, std::int64_t lda, CallReport* report) {
  if (!(n >= 0 && lda >= std::max<std::int64_t>(1, n) && (n == 0 || A != nullptr)))
    throw UsageError("trnsolver", "trtri", "n >= 0, lda >= max(1, n), A not NULL");
  if (report != nullptr) *report = CallReport{};
  for (std::int64_t i = 0; !unit && i < n; ++i)  // an exactly zero diagonal: singular, nothing written
    if (A[i + i * lda] == T(0)) return static_cast<int>(i + 1);
  if (n == 0) return 0;
  const bool lower = uplo == Uplo::lower;
  const auto in_tri = [&](std::int64_t i, std::int64_t j) { return lower ? i >= j : i <= j; };
  // Dense T (zeros outside the triangle, a unit diagonal when `unit`: the kernel must not see the
  // caller's unreferenced values) and X = I.
  std::vector<T> t(static_cast<std::size_t>(n * n), T(0)), x(t.size(), T(0));
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < n; ++i)
      if (in_tri(i, j) && i != j) t[static_cast<std::size_t>(i + j * n)] = A[i + j * lda];
    t[static_cast<std::size_t>(j + j * n)] = unit ? T(1) : A[j + j * lda];
    x[static_cast<std::size_t>(j + j * n)] = T(1);
  }
  TraceParts trace;
  double flops = 0;
  detail::tri_solve(s, t.data(), 1, n, lower, unit, n, n, x.data(), trace, &flops, "trnsolver.dtrtri.substitution");
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
