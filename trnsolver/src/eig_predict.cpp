// Plans and predicted modeled times of the eigensolvers whose prediction is not a launch run
// timing-only of one kernel (docs/cost-model.md section 9): Dsyevj (one host round trip whose
// flops depend on the rotations the data needs: an estimate of them) and syevd (the divide and
// conquer's deflation depends on the data: a random matrix's assumed).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "trn/solver/eig.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver {

double dsyevj_sweep_flops(std::int64_t n, bool vectors, double sweeps) {
  const auto x = static_cast<double>(n);
  return sweeps * x * (x - 1) / 2.0 * (12.0 * x + 20.0 + (vectors ? 6.0 * x : 0.0));
}

double dsyevj_rotation_sweeps(std::int64_t n) {
  return n < 2 ? 0.0 : 2.5 + 0.8 * std::log2(static_cast<double>(n));
}

double predict_dsyevj_ns(const Settings& s, const DsyevjPlan& plan, double rotation_sweeps) {
  if (plan.n <= 0 || plan.batch <= 0) return 0;
  const auto nn = static_cast<double>(plan.n * plan.n * plan.batch), w = static_cast<double>(plan.n * plan.batch);
  const double bytes = 8.0 * (nn + w + (plan.vectors ? nn : 0.0));
  return host_step_ns(bytes, static_cast<double>(plan.batch) * dsyevj_sweep_flops(plan.n, plan.vectors, rotation_sweeps),
                      hardware_spec(s.target));
}

DsyevjPlan plan_dsyevj(const Settings& s, std::int64_t n, std::int64_t batch, bool vectors, const SyevjParams& p) {
  DsyevjPlan plan;
  plan.n = n;
  plan.batch = batch;
  plan.vectors = vectors;
  plan.max_sweeps = p.max_sweeps;
  plan.rotation_sweeps = std::min(dsyevj_rotation_sweeps(n), static_cast<double>(p.max_sweeps));
  plan.predicted_ns = trn::LazyNs([s, q = plan] { return predict_dsyevj_ns(s, q, q.rotation_sweeps); });
  return plan;
}

std::string DsyevjPlan::print() const {
  PlanFacts f;
  f.routine = "dsyevj";
  f.shape = "n=" + std::to_string(n) + (batch != 1 ? " batch " + std::to_string(batch) : std::string());
  f.variant = "cyclic Jacobi in fp64 on the host (one round trip)";
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "%.3g host flops assumed: %.2f full sweeps of rotations (2.5 + 0.8 log2(n), random data at the default "
                "tolerance; converged pairs are skipped, so the data decides)",
                static_cast<double>(batch) * dsyevj_sweep_flops(n, vectors, rotation_sweeps), rotation_sweeps);
  f.ops = buf;
  f.engines = "host CPU, DMA";
  f.predicted_ns = predicted_ns.get();
  f.why = "no engine computes in fp64";
  return f.print();
}
static_assert(trn::Plan<DsyevjPlan>);

}  // namespace trn::solver

// ---- syevd ----------------------------------------------------------------------------------------

namespace trn::solver {

template <class T>
double predict_syevd_ns(const Settings& s, std::int64_t n, bool vectors) {
  if (n <= 0) return 0;
  std::mt19937_64 g(0x5eed5eedULL);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> a(static_cast<std::size_t>(n * n)), w(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i)
      a[static_cast<std::size_t>(i + j * n)] = a[static_cast<std::size_t>(j + i * n)] = static_cast<T>(u(g));
  CallReport r;
  r.plans_wanted = false;  // its own plan is never printed (nor predicted)
  syevd(s, vectors, Uplo::lower, n, a.data(), n, w.data(), &r);
  return r.profile.total_ns;
}
template double predict_syevd_ns<float>(const Settings&, std::int64_t, bool);
template double predict_syevd_ns<double>(const Settings&, std::int64_t, bool);

}  // namespace trn::solver
