// Host round trips in trnsolver profiles (#26, docs/cost-model.md section 7): the fp64 routines whose
// work runs on the host CPU (Dsyevj, Dgesvdj, Dpotrf/Dgetrf panels, Dpotrs/Dgetrs) report it as host
// round-trip time; device-only routines (Ssyevj, Spotrf) report none.
#include <gtest/gtest.h>

#include <random>
#include <string_view>
#include <vector>

#include "trn/core/host_step.hpp"
#include "trn/solver/solver.hpp"

namespace {

namespace ts = trn::solver;

// A symmetric positive definite n x n matrix (diagonally dominant), column-major.
template <class T>
std::vector<T> spd(std::int64_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> a(static_cast<std::size_t>(n * n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i <= j; ++i) {
      const double v = i == j ? 2.0 * static_cast<double>(n) : u(g);
      a[static_cast<std::size_t>(i + j * n)] = a[static_cast<std::size_t>(j + i * n)] = static_cast<T>(v);
    }
  return a;
}

// Host steps of the trace recorded under `name`.
std::int64_t named_steps(const trn::Trace& t, std::string_view name) {
  std::int64_t k = 0;
  for (const trn::Instruction& ins : t.instructions)
    k += ins.opcode == trn::Opcode::host_compute && trn::host_step_name(ins.host_label) == name;
  return k;
}

// `steps` round trips named `name` (and possibly others, e.g. the Ozaki DGEMMs of a trailing update).
void expect_host_time(const ts::CallReport& r, std::string_view name, std::int64_t steps, const char* what) {
  const trn::Profile& p = r.profile;
  EXPECT_EQ(named_steps(r.trace, name), steps) << what;
  EXPECT_GE(p.host_steps, steps) << what;
  EXPECT_GT(p.host_roundtrip_ns, 0.0) << what;
  EXPECT_GT(p.host_flops, 0.0) << what;
  EXPECT_GE(p.total_ns, p.host_critical_ns) << what;
  EXPECT_GT(p.host_critical_ns, 0.0) << what;
  EXPECT_EQ(r.trace.host_steps, p.host_steps) << what;
}

TEST(HostSteps, Fp64JacobiRoutinesReportTheirHostRoundTrip) {
  const std::int64_t n = 24;
  auto a = spd<double>(n, 1);
  std::vector<double> w(static_cast<std::size_t>(n));
  ts::CallReport r;
  ts::dsyevj({}, true, ts::Uplo::lower, n, a.data(), n, w.data(), {}, &r);
  expect_host_time(r, "trnsolver.dsyevj.jacobi", 1, "dsyevj");
  EXPECT_EQ(r.profile.total_instructions, 0);
  EXPECT_DOUBLE_EQ(r.profile.total_ns, r.profile.host_roundtrip_ns);  // nothing else to overlap
  EXPECT_DOUBLE_EQ(r.profile.host_flops, r.host_fp64_flops);

  auto b = spd<double>(n, 2);
  std::vector<double> s(static_cast<std::size_t>(n)), U(static_cast<std::size_t>(n * n)), V(U.size());
  ts::CallReport rs;
  ts::dgesvdj({}, true, false, n, n, b.data(), n, s.data(), U.data(), n, V.data(), n, {}, &rs);
  expect_host_time(rs, "trnsolver.dgesvdj.jacobi", 1, "dgesvdj");
}

TEST(HostSteps, Fp64FactorizationsAndSolvesReportTheirPanels) {
  const std::int64_t n = 150;  // two panels of 128 and 22 columns
  auto a = spd<double>(n, 3);
  ts::CallReport r;
  ASSERT_EQ(ts::dpotrf({}, ts::Uplo::lower, n, a.data(), n, &r), 0);
  expect_host_time(r, "trnsolver.dpotrf.panel", 2, "dpotrf");
  EXPECT_GT(r.profile.total_instructions, 0);  // the trailing update runs on the device
  std::vector<double> x(static_cast<std::size_t>(n), 1.0);
  ts::CallReport rs;
  ts::dpotrs({}, ts::Uplo::lower, n, 1, a.data(), n, x.data(), n, &rs);
  expect_host_time(rs, "trnsolver.dpotrs.substitution", 1, "dpotrs");

  auto g = spd<double>(n, 4);
  std::vector<int> piv(static_cast<std::size_t>(n));
  ts::CallReport rg;
  ASSERT_EQ(ts::dgetrf({}, n, n, g.data(), n, piv.data(), &rg), 0);
  expect_host_time(rg, "trnsolver.dgetrf.panel", 2, "dgetrf");
  ts::CallReport rt;
  ts::dgetrs({}, false, n, 1, g.data(), n, piv.data(), x.data(), n, &rt);
  expect_host_time(rt, "trnsolver.dgetrs.substitution", 1, "dgetrs");
}

TEST(HostSteps, DeviceOnlyRoutinesHaveNoHostTime) {
  const std::int64_t n = 24;
  auto a = spd<float>(n, 5);
  std::vector<float> w(static_cast<std::size_t>(n));
  ts::CallReport r;
  ts::ssyevj({}, true, ts::Uplo::lower, n, a.data(), n, w.data(), {}, &r);
  EXPECT_GT(r.profile.total_ns, 0.0);
  EXPECT_EQ(r.profile.host_steps, 0);
  EXPECT_EQ(r.profile.host_roundtrip_ns, 0.0);
  auto p = spd<float>(n, 6);
  ts::CallReport rp;
  ASSERT_EQ(ts::spotrf({}, ts::Uplo::lower, n, p.data(), n, &rp), 0);
  EXPECT_EQ(rp.profile.host_steps, 0);
  EXPECT_EQ(rp.profile.host_roundtrip_ns, 0.0);
}

}  // namespace
