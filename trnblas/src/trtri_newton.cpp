// trtri_newton: the triangular inverse X = T^-1 (fp32, complex fp32) as one launch of the narrow
// TRSM kernel in its inverse form (trsm_narrow_kernel.cpp, step 2'). The bound and its derivation:
// docs/trnblas.md "Triangular inverse by Newton-Schulz blocks".
#include "trn/blas/trtri_newton.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
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

bool trtri_newton(const LaunchConfig& lc, bool lower, bool unit, std::int64_t n, const float* T, std::int64_t ldt,
                  float* X, std::int64_t ldx, TraceParts& trace) {
  return trtri_newton_impl(lc, lower, unit, n, T, ldt, X, ldx, trace);
}
bool trtri_newton(const LaunchConfig& lc, bool lower, bool unit, std::int64_t n, const std::complex<float>* T,
                  std::int64_t ldt, std::complex<float>* X, std::int64_t ldx, TraceParts& trace) {
  return trtri_newton_impl(lc, lower, unit, n, T, ldt, X, ldx, trace);
}

}  // namespace trn::blas
