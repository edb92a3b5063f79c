// trtri_newton: the triangular inverse X = T^-1 (fp32, complex fp32) as one launch of the narrow
// TRSM kernel in its inverse form (trsm_narrow_kernel.cpp, step 2'). The bound and its derivation:
// docs/trnblas.md "Triangular inverse by Newton-Schulz blocks". strsm_left_batch: batches of narrow
// solves, several systems per launch (the kernel's span form).
#include "trn/blas/narrow_trsm.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "level3_internal.hpp"
#include "trn/core/error.hpp"

namespace trn::blas {
namespace {

template <class T>
bool trtri_newton_impl(const LaunchConfig& lc, bool lower, bool unit, std::int64_t n, const T* t, std::int64_t ldt,
                       T* x, std::int64_t ldx, TraceParts& trace) {
  if (!(n >= 1 && n <= kTrtriNewtonMaxOrder && ldt >= n && ldx >= n && t != nullptr && x != nullptr))
    throw UsageError("trnblas", "trtri_newton", "1 <= n <= kTrtriNewtonMaxOrder, ldt, ldx >= n, T and X not NULL");
  detail::NarrowTrsm<T> p;
  p.e = t;
  p.si = 1;
  p.sj = ldt;
  p.order = n;
  p.lower = lower;
  p.unit = unit;
  p.x = x;
  p.ldx = ldx;
  // X's triangle as it was (host logic of the driver, not in the modeled profile), for the fallback.
  const auto for_triangle = [&](auto&& f) {
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = lower ? j : 0; i < (lower ? n : j + 1); ++i)
        if (!(unit && i == j)) f(i, j);  // a unit diagonal is not written
  };
  std::vector<T> saved;
  saved.reserve(static_cast<std::size_t>(n * (n + 1) / 2));
  for_triangle([&](std::int64_t i, std::int64_t j) { saved.push_back(x[i + j * ldx]); });
  LaunchConfig one = lc;
  one.num_cores = 1;
  one.core.execute = true;
  trace.add(launch(one, [&](NeuronCore& nc) { detail::trsm_narrow_kernel(nc, p); }).trace);
  // Host logic of the driver (not in the modeled profile): the triangle's finiteness.
  const auto finite = [](const T& v) {
    if constexpr (std::is_same_v<T, float>) return std::isfinite(v);
    else return std::isfinite(v.real()) && std::isfinite(v.imag());
  };
  bool ok = true;
  for_triangle([&](std::int64_t i, std::int64_t j) { ok = ok && finite(x[i + j * ldx]); });
  if (ok) return true;
  std::size_t k = 0;
  for_triangle([&](std::int64_t i, std::int64_t j) { x[i + j * ldx] = saved[k++]; });
  return false;
}

}  // namespace

void strsm_left_batch(const Settings& s, Uplo uplo, Op trans, Diag diag, std::int64_t m, std::int64_t n, float alpha,
                      const float* const* A, std::int64_t lda, float* const* B, std::int64_t ldb, std::int64_t batch,
                      TraceParts& trace) {
  if (!(m >= 0 && n >= 0 && batch >= 0 && lda >= std::max<std::int64_t>(1, m) && ldb >= std::max<std::int64_t>(1, m) &&
        (batch == 0 || (A != nullptr && B != nullptr))))
    throw UsageError("trnblas", "strsm_left_batch", "m, n, batch >= 0, lda, ldb >= max(1, m), A and B not NULL");
  const auto single = [&](std::int64_t k, const Settings& ss) {
    CallReport r;
    strsm(ss, GemmMode::fp32, Side::left, uplo, trans, diag, m, n, alpha, A[k], lda, B[k], ldb, &r);
    trace.add(std::move(r.trace));
  };
  // strsm's own choice of its narrow kernel (level3.cpp solve_blocked), so each system's bits are its call's.
  if (s.trsm_substitution || n > kTrsmNarrowMaxRhs || m > kTrsmNarrowMaxOrder || m == 0 || n == 0 || alpha == 0.0f) {
    for (std::int64_t k = 0; k < batch; ++k) single(k, s);
    return;
  }
  const bool lower = (uplo == Uplo::lower) == (trans == Op::N);  // op(A) lower
  Settings substitute = s;
  substitute.trsm_substitution = true;  // what strsm runs after its narrow kernel's non-finite result
  std::vector<detail::NarrowTrsm<float>> systems;
  std::vector<float> saved;
  for (std::int64_t k0 = 0; k0 < batch; k0 += kTrsmNarrowBatch) {
    const std::int64_t count = std::min(kTrsmNarrowBatch, batch - k0);
    systems.assign(static_cast<std::size_t>(count), {});
    for (std::int64_t q = 0; q < count; ++q) {
      detail::NarrowTrsm<float>& p = systems[static_cast<std::size_t>(q)];
      p.e = A[k0 + q];
      p.si = trans == Op::N ? 1 : lda;  // op(A)(i, j) at e[i si + j sj]
      p.sj = trans == Op::N ? lda : 1;
      p.order = m;
      p.lower = lower;
      p.unit = diag == Diag::unit;
      p.z = B[k0 + q];
      p.es = 1;
      p.rs = ldb;
      p.nrhs = n;
      p.alpha = alpha;
    }
    // B as it was (host logic of the driver, as strsm's), for a system whose result is not finite.
    if (!s.timing_only) {
      saved.resize(static_cast<std::size_t>(count * m * n));
      for (std::int64_t q = 0; q < count; ++q)
        for (std::int64_t j = 0; j < n; ++j)
          std::copy_n(B[k0 + q] + j * ldb, m, saved.begin() + (q * n + j) * m);
    }
    trace.add(launch(s.launch_config({1, 1, 1}), [&](NeuronCore& nc) {
                detail::trsm_narrow_kernel(nc, std::span<const detail::NarrowTrsm<float>>(systems));
              }).trace);
    if (s.timing_only) continue;
    for (std::int64_t q = 0; q < count; ++q) {
      float* b = B[k0 + q];
      bool ok = true;
      for (std::int64_t j = 0; j < n && ok; ++j)
        ok = std::all_of(b + j * ldb, b + j * ldb + m, [](float v) { return std::isfinite(v); });
      if (ok) continue;
      for (std::int64_t j = 0; j < n; ++j) std::copy_n(saved.begin() + (q * n + j) * m, m, b + j * ldb);
      single(k0 + q, substitute);
    }
  }
}

bool trtri_newton(const LaunchConfig& lc, bool lower, bool unit, std::int64_t n, const float* T, std::int64_t ldt,
                  float* X, std::int64_t ldx, TraceParts& trace) {
  return trtri_newton_impl(lc, lower, unit, n, T, ldt, X, ldx, trace);
}
bool trtri_newton(const LaunchConfig& lc, bool lower, bool unit, std::int64_t n, const std::complex<float>* T,
                  std::int64_t ldt, std::complex<float>* X, std::int64_t ldx, TraceParts& trace) {
  return trtri_newton_impl(lc, lower, unit, n, T, ldt, X, ldx, trace);
}

}  // namespace trn::blas
