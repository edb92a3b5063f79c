// Plans and predicted modeled times of the eigensolvers whose prediction is not a launch run
// timing-only of one kernel (docs/cost-model.md section 9): Dsyevj (block Jacobi whose pair visits
// rotate while the data needs it: an estimate of the rotating sweeps) and syevd (the divide and
// conquer's deflation depends on the data: a random matrix's assumed).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <random>
#include <string>
#include <vector>

#include "eig_internal.hpp"
#include "jacobi_f64.hpp"
#include "prediction_memo.hpp"
#include "syevj_internal.hpp"
#include "trn/blas/blas.hpp"
#include "trn/core/cost_model.hpp"
#include "trn/solver/eig.hpp"
#include "trn/solver/qr.hpp"
#include "trn/solver/solver.hpp"

namespace trn::solver {

double dsyevj_sweep_flops(std::int64_t n, bool vectors, double sweeps) {
  (void)vectors;  // the eigenvectors' updates are DGEMMs on TensorE
  double f = 0;
  for (const auto& [bi, bj] : detail::jacobi_block_pairs(n, detail::jacobi_f64_block())) {
    const auto k = static_cast<std::int64_t>(detail::jacobi_pair_columns(n, detail::jacobi_f64_block(), bi, bj).size());
    f += detail::jacobi_pair_step_cost(k).flops + static_cast<double>((n - k) * k + k * k);
  }
  return sweeps * f;
}

double dsyevj_rotation_sweeps(std::int64_t n) {
  return n < 2 ? 0.0 : std::round(4.0 + 0.66 * std::log2(static_cast<double>(n)));
}

namespace {
// One matrix's modeled time (syevj_f64.cpp's steps): the prepare step, `rotating` sweeps in which every
// pair visit rotates (the host subproblem with every pair rotated once, the balanced DGEMM of the other
// rows, the eigenvectors' DGEMM), one confirming sweep of pair steps that rotate nothing, the finish.
double dsyevj_matrix_ns(const Settings& s, std::int64_t n, bool vectors, double rotating) {
  const HardwareSpec& hw = hardware_spec(s.target);
  blas::Settings bs = detail::fp64_update_blas_settings(s);
  bs.dgemm_dot2_max_macs = 0;  // as the Jacobi updates (jacobi_f64.cpp, jacobi_update_settings)
  const auto nn = static_cast<double>(n * n);
  double visit = 0, idle = 0;
  for (const auto& [bi, bj] : detail::jacobi_block_pairs(n, detail::jacobi_f64_block())) {
    const auto k = static_cast<std::int64_t>(detail::jacobi_pair_columns(n, detail::jacobi_f64_block(), bi, bj).size());
    const std::int64_t rows = n - k;
    const auto kk = static_cast<double>(k * k), rk = static_cast<double>(rows * k);
    visit += host_step_ns(16.0 * (kk + rk), detail::jacobi_pair_step_cost(k).flops + rk + kk, hw);
    if (rows > 0) visit += blas::predict_dgemm_ns(bs, blas::Op::N, blas::Op::N, rows, k, k, 1.0, 0.0);
    if (vectors) visit += blas::predict_dgemm_ns(bs, blas::Op::N, blas::Op::N, n, k, k, 1.0, 0.0);
    idle += host_step_ns(16.0 * kk, 0.0, hw);
  }
  const double prepare = host_step_ns(16.0 * nn, 0.0, hw);
  const double finish = host_step_ns(8.0 * (nn + static_cast<double>(n) + (vectors ? 2.0 * nn : 0.0)), 2.0 * nn, hw);
  return prepare + rotating * visit + idle + finish;
}
}  // namespace

double predict_dsyevj_ns(const Settings& s, const DsyevjPlan& plan, double rotation_sweeps) {
  if (plan.n <= 0 || plan.batch <= 0) return 0;
  return static_cast<double>(plan.batch) * dsyevj_matrix_ns(s, plan.n, plan.vectors, rotation_sweeps);
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
  f.variant = "block Jacobi in fp64 (blocks of " + std::to_string(detail::jacobi_f64_block()) +
              "): host pair subproblems, rotations as balanced Ozaki DGEMMs";
  char buf[240];
  std::snprintf(buf, sizeof buf,
                "%zu block pairs per sweep; %.0f rotating sweeps assumed (round(4 + 0.66 log2(n)), random data at the "
                "default tolerance; the data decides) + 1 confirming; %.3g host flops of the pair subproblems",
                detail::jacobi_block_pairs(n, detail::jacobi_f64_block()).size(), rotation_sweeps,
                static_cast<double>(batch) * dsyevj_sweep_flops(n, vectors, rotation_sweeps));
  f.ops = buf;
  f.engines = "TensorE (Ozaki DGEMMs), host CPU (pair subproblems, Ozaki scaling/reconstruction), DMA";
  f.predicted_ns = predicted_ns.get();
  f.why = "no engine computes in fp64: the O(n^3) rotations as exact integer GEMMs, the O(b^3) pair subproblems on the host";
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

template <class T>
double detail::remembered_syevd_prediction_ns(const Settings& s, std::int64_t n, bool vectors) {
  // Everything predict_syevd_ns's modeled time depends on (prediction_memo.hpp): the element type,
  // every Settings field, n, vectors and the panel widths read from the environment at each call
  // (sytrd's, ormqr's).
  using Key = std::tuple<bool, detail::SettingsKey, std::int64_t, bool, std::int64_t, std::int64_t>;
  static detail::PredictionMemo<Key> kept;
  constexpr char prefix = std::is_same_v<T, float> ? 's' : 'd';
  const Key key{prefix == 's', detail::settings_key(s), n, vectors, sytrd_panel_width(), qr_panel_width(prefix, s.qr_block_size)};
  return kept.get(key, [&] { return predict_syevd_ns<T>(s, n, vectors); });
}
template double detail::remembered_syevd_prediction_ns<float>(const Settings&, std::int64_t, bool);
template double detail::remembered_syevd_prediction_ns<double>(const Settings&, std::int64_t, bool);

}  // namespace trn::solver
