// Predicted modeled time of the fp64 factorisations (FactorPlan::predicted_ns of dpotrf and dgetrf;
// docs/cost-model.md section 9): their recursive panels issue hundreds of data-dependent small steps
// (Ozaki GEMMs whose precision follows the data, interchanges that follow the pivots), so the
// prediction is the driver itself replayed on a synthetic matrix of the plan's shape — uniform
// [-1, 1) entries from a fixed integer hash (dgetrf with pivoting: the typical partial-pivoting path)
// or the same made diagonally dominant (dgetrf without pivoting, dpotrf: symmetric) — and its
// report's modeled time. Exact for the synthetic data; other data differs by its interchanges and
// by the Ozaki moduli it asks.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "syevj_internal.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver {
namespace {

// Entry (i, j) of the synthetic matrix: a splitmix64 hash of (i, j) mapped to [-1, 1).
double synthetic_entry(std::int64_t i, std::int64_t j) {
  std::uint64_t z = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(j) + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1p-52 - 1.0;
}

std::vector<double> synthetic_matrix(std::int64_t m, std::int64_t n, bool dominant) {
  std::vector<double> a(static_cast<std::size_t>(m * n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i)
      a[static_cast<std::size_t>(i + j * m)] =
          i == j && dominant ? static_cast<double>(std::max(m, n)) : synthetic_entry(std::min(i, j), std::max(i, j));
  return a;
}

}  // namespace

double predict_dpotrf_ns(const Settings& s, const FactorPlan& plan) {
  if (plan.n <= 0) return 0.0;
  std::vector<double> a = synthetic_matrix(plan.n, plan.n, true);
  CallReport r;
  detail::dpotrf_driver(s, Uplo::lower, plan.n, a.data(), plan.n, &r, false);
  return r.profile.total_ns;
}

double predict_dgetrf_ns(const Settings& s, const FactorPlan& plan, bool pivot) {
  if (plan.m <= 0 || plan.n <= 0) return 0.0;
  std::vector<double> a = synthetic_matrix(plan.m, plan.n, !pivot);
  if (pivot)  // not symmetric: the hash of (i, j) itself
    for (std::int64_t j = 0; j < plan.n; ++j)
      for (std::int64_t i = 0; i < plan.m; ++i) a[static_cast<std::size_t>(i + j * plan.m)] = synthetic_entry(i, j);
  std::vector<int> ipiv(static_cast<std::size_t>(std::min(plan.m, plan.n)));
  CallReport r;
  detail::dgetrf_driver(s, plan.m, plan.n, a.data(), plan.m, pivot ? ipiv.data() : nullptr, &r, false);
  return r.profile.total_ns;
}

}  // namespace trn::solver
