// Predicted modeled time of the fp64 factorisations (FactorPlan::predicted_ns of dpotrf and dgetrf;
// docs/cost-model.md section 9): per panel the host step the driver records, priced by host_step_ns
// over the bytes and flops it will record, then the trailing update by trnblas's fp64 predictor
// (predict_dsyrk_ns / predict_dgemm_ns: the Ozaki product run timing-only on well-scaled
// operands), summed in the driver's order.
#include <algorithm>

#include "syevj_internal.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver {
namespace {

// Flops of the host's unblocked elimination of panel columns [j0, j0 + w) over `rows` rows (the
// drivers' own count: (rows - j)(1 + 2 (j0 + w - j)) per column j).
double panel_flops(std::int64_t rows, std::int64_t j0, std::int64_t w) {
  double f = 0;
  for (std::int64_t j = j0; j < j0 + w; ++j) f += static_cast<double>(rows - j) * (1.0 + 2.0 * static_cast<double>(j0 + w - j));
  return f;
}

}  // namespace

double predict_dpotrf_ns(const Settings& s, const FactorPlan& plan) {
  const HardwareSpec& hw = hardware_spec(s.target);
  const blas::Settings bs = detail::fp64_update_blas_settings(s);
  const std::int64_t n = plan.n, nb = plan.nb;
  double ns = 0;
  for (std::int64_t j0 = 0; j0 < n; j0 += nb) {
    const std::int64_t w = std::min(nb, n - j0), n2 = n - j0 - w;
    // The panel (n - j0) x w to the host and back (the upper triangle's transposed panel: the same bytes).
    ns += host_step_ns(2.0 * 8.0 * static_cast<double>((n - j0) * w), panel_flops(n, j0, w), hw);
    if (n2 > 0) ns += blas::predict_dsyrk_ns(bs, blas::Op::N, n2, w, -1.0);  // the upper's Op::T costs the same
  }
  return ns;
}

double predict_dgetrf_ns(const Settings& s, const FactorPlan& plan, bool pivot) {
  const HardwareSpec& hw = hardware_spec(s.target);
  const blas::Settings bs = detail::fp64_update_blas_settings(s);
  const std::int64_t m = plan.m, n = plan.n, nb = plan.nb, kmin = std::min(m, n);
  double ns = 0;
  for (std::int64_t j0 = 0; j0 < kmin; j0 += nb) {
    const std::int64_t w = std::min(nb, kmin - j0), n2 = n - j0 - w, m2 = m - j0 - w;
    // The typical path of partial pivoting: every column that has a row below it interchanges (random
    // data: column j keeps its diagonal with probability 1 / (m - j)); each interchange moves two
    // rows of the n - w columns outside the panel.
    const std::int64_t swaps = pivot ? std::min(w, std::max<std::int64_t>(0, m - 1 - j0)) : 0;
    const double flops = panel_flops(m, j0, w) + (n2 > 0 ? static_cast<double>(w * w * n2) : 0.0);
    const double elems = static_cast<double>((m - j0) * w + w * std::max<std::int64_t>(n2, 0) + 2 * swaps * (n - w));
    ns += host_step_ns(2.0 * 8.0 * elems, flops, hw);
    if (n2 > 0 && m2 > 0) ns += blas::predict_dgemm_ns(bs, blas::Op::N, blas::Op::N, m2, n2, w, -1.0, 1.0);
  }
  return ns;
}

}  // namespace trn::solver
