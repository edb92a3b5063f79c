// Host round trips in trnsolver profiles (#26, docs/cost-model.md section 7): the fp64 routines whose
// work runs partly on the host CPU (Dsyevj/Dgesvdj pair subproblems, Dpotrf/Dgetrf 32-column leaves, the
// Dpotrs/Dgetrs DTRSM diagonal blocks) report it as host round-trip time; device-only routines (Ssyevj, Spotrf)
// report none.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
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

// Dsyevj / Dgesvdj (block Jacobi, jacobi_f64.hpp): n = 24 is one block of 32, so one pair step per sweep,
// one prepare and one finish step; the eigen/singular vector updates (and Dgesvdj's Gram matrices and
// column rotations) are Ozaki DGEMMs (device instructions, and trnblas's own host steps).
TEST(HostSteps, Fp64JacobiRoutinesReportTheirHostRoundTrip) {
  const std::int64_t n = 24;
  auto a = spd<double>(n, 1);
  std::vector<double> w(static_cast<std::size_t>(n));
  ts::CallReport r;
  const ts::SyevjResult res = ts::dsyevj({}, true, ts::Uplo::lower, n, a.data(), n, w.data(), {}, &r);
  ASSERT_EQ(res.info, 0);
  expect_host_time(r, "trnsolver.dsyevj.pair", res.sweeps, "dsyevj");
  EXPECT_EQ(named_steps(r.trace, "trnsolver.dsyevj.prepare"), 1);
  EXPECT_EQ(named_steps(r.trace, "trnsolver.dsyevj.finish"), 1);
  EXPECT_GT(r.profile.total_instructions, 0);  // the rotations run on TensorE
  EXPECT_GT(r.profile.total_ns, r.profile.host_roundtrip_ns);
  EXPECT_GE(r.profile.host_flops, r.host_fp64_flops);  // plus the Ozaki DGEMMs' host scaling/reconstruction

  auto b = spd<double>(n, 2);
  std::vector<double> s(static_cast<std::size_t>(n)), U(static_cast<std::size_t>(n * n)), V(U.size());
  ts::CallReport rs;
  const ts::GesvdjResult gs = ts::dgesvdj({}, true, false, n, n, b.data(), n, s.data(), U.data(), n, V.data(), n, {}, &rs);
  ASSERT_EQ(gs.info, 0);
  expect_host_time(rs, "trnsolver.dgesvdj.pair", gs.sweeps, "dgesvdj");
  EXPECT_EQ(named_steps(rs.trace, "trnsolver.dgesvdj.finish"), 1);
  EXPECT_GT(rs.profile.total_instructions, 0);
}

TEST(HostSteps, Fp64FactorizationsAndSolvesReportTheirPanels) {
  const std::int64_t n = 150;  // two panels of 128 and 22 columns
  auto a = spd<double>(n, 3);
  ts::CallReport r;
  ASSERT_EQ(ts::dpotrf({}, ts::Uplo::lower, n, a.data(), n, &r), 0);
  expect_host_time(r, "trnsolver.dpotrf.leaf", 5, "dpotrf");  // 32-column leaves: 4 of panel 1, panel 2 (22)
  EXPECT_GT(r.profile.total_instructions, 0);  // the trailing update runs on the device
  std::vector<double> x(static_cast<std::size_t>(n), 1.0);
  ts::CallReport rs;
  ts::dpotrs({}, ts::Uplo::lower, n, 1, a.data(), n, x.data(), n, &rs);
  // Two DTRSMs, each split recursively into 5 leaves of <= 32 columns (trn/blas/trsm_fp64.hpp).
  expect_host_time(rs, "trnblas.dtrsm.diag_solve", 10, "dpotrs");
  EXPECT_NE(rs.plan.find("leaf 32 columns"), std::string::npos) << rs.plan;
  EXPECT_GT(rs.profile.instructions[static_cast<int>(trn::Engine::tensor)] + rs.profile.instructions[static_cast<int>(trn::Engine::gpsimd)], 0)
      << "the updates on TensorE (Ozaki) or GpSimdE (small products as Dot2)";

  auto g = spd<double>(n, 4);
  std::vector<int> piv(static_cast<std::size_t>(n));
  ts::CallReport rg;
  ASSERT_EQ(ts::dgetrf({}, n, n, g.data(), n, piv.data(), &rg), 0);
  expect_host_time(rg, "trnsolver.dgetrf.leaf", 5, "dgetrf");  // 32-column leaves, as dpotrf
  ts::CallReport rt;
  ts::dgetrs({}, false, n, 1, g.data(), n, piv.data(), x.data(), n, &rt);
  expect_host_time(rt, "trnblas.dtrsm.diag_solve", 10, "dgetrs");
  EXPECT_NE(rt.plan.find("dtrsm plan, order 150, nrhs 1"), std::string::npos) << rt.plan;
  EXPECT_GT(rt.profile.instructions[static_cast<int>(trn::Engine::dma)], 0) << "interchanges by DMA";
  EXPECT_LE(rg.host_fp64_flops, 66.0 * n * n) << "O(32 n) host flops per column (the leaves)";
}

// Host steps of the trace recorded under `name`: their declared flops and bytes each way.
struct Totals {
  double flops = 0, to_host = 0, back = 0;
};
Totals named_totals(const trn::Trace& t, std::string_view name) {
  Totals r;
  for (const trn::Instruction& ins : t.instructions)
    if (ins.opcode == trn::Opcode::host_compute && trn::host_step_name(ins.host_label) == name) {
      r.flops += ins.declared_cycles;
      r.to_host += static_cast<double>(ins.bytes_read);
      r.back += static_cast<double>(ins.bytes_written);
    }
  return r;
}

TEST(HostSteps, IrsNormsResidualsAndUpdatesAreHostRoundTrips) {
  const std::int64_t n = 60, nrhs = 2;
  auto a = spd<double>(n, 7);
  std::vector<double> b(static_cast<std::size_t>(n * nrhs)), x(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = 1.0 + 0.01 * static_cast<double>(i % 7);
  ts::IrsOptions o;
  o.refinement = ts::IrsRefinement::classical;
  ts::CallReport r;
  const ts::IrsResult res = ts::irs_gesv<double>({}, o, n, nrhs, a.data(), n, nullptr, b.data(), n, x.data(), n, &r);
  ASSERT_EQ(res.info, 0);
  ASSERT_GE(res.outer_niters, 1);
  const double N = static_cast<double>(n), NR = static_cast<double>(n * nrhs);
  // ||A||_inf once: A to the host, 2 n^2 flops.
  EXPECT_EQ(named_steps(r.trace, "trnsolver.irs.anorm"), 1);
  EXPECT_DOUBLE_EQ(named_totals(r.trace, "trnsolver.irs.anorm").flops, 2 * N * N);
  EXPECT_DOUBLE_EQ(named_totals(r.trace, "trnsolver.irs.anorm").to_host, 8 * N * N);
  // One residual test per evaluation: X and r to the host (16 n nrhs bytes), 4 n nrhs flops.
  const auto evals = static_cast<std::int64_t>(res.residual_history.size());
  EXPECT_EQ(named_steps(r.trace, "trnsolver.irs.residual_norms"), evals);
  EXPECT_DOUBLE_EQ(named_totals(r.trace, "trnsolver.irs.residual_norms").flops, 4 * NR * static_cast<double>(evals));
  EXPECT_DOUBLE_EQ(named_totals(r.trace, "trnsolver.irs.residual_norms").to_host, 16 * NR * static_cast<double>(evals));
  // One update x += d per outer step: X and d there, X back, n nrhs adds.
  EXPECT_EQ(named_steps(r.trace, "trnsolver.irs.update"), res.outer_niters);
  const Totals u = named_totals(r.trace, "trnsolver.irs.update");
  EXPECT_DOUBLE_EQ(u.flops, NR * res.outer_niters);
  EXPECT_DOUBLE_EQ(u.to_host, 16 * NR * res.outer_niters);
  EXPECT_DOUBLE_EQ(u.back, 8 * NR * res.outer_niters);
  EXPECT_GT(r.profile.host_critical_ns, 0.0);

  // GMRES-IR: a start, one Arnoldi step per inner iteration and a solution per outer step.
  auto g = spd<double>(n, 8);
  std::vector<double> xg(static_cast<std::size_t>(n));
  o.refinement = ts::IrsRefinement::gmres;
  ts::CallReport rg;
  const ts::IrsResult gres = ts::irs_gesv<double>({}, o, n, 1, g.data(), n, nullptr, b.data(), n, xg.data(), n, &rg);
  ASSERT_EQ(gres.info, 0);
  EXPECT_EQ(named_steps(rg.trace, "trnsolver.irs.gmres_start"), gres.outer_niters);
  EXPECT_EQ(named_steps(rg.trace, "trnsolver.irs.gmres_solution"), gres.outer_niters);
  EXPECT_GE(named_steps(rg.trace, "trnsolver.irs.arnoldi"), gres.outer_niters);
}

// The copy of A into the LU's working array is a host round trip for every I/O type: float I/O's
// fp32 copy with its Inf/NaN test (copy_a), fp64's cast (cast_a), the fp64 LU's copy (copy_a64);
// A there, the working copy back, one operation per element.
TEST(HostSteps, IrsCopiesOfAAreHostRoundTrips) {
  const std::int64_t n = 40;
  const double N = static_cast<double>(n);
  auto a = spd<float>(n, 9);
  std::vector<float> b(static_cast<std::size_t>(n), 1.0f), x(b.size());
  ts::IrsOptions o;
  ts::CallReport r;
  ASSERT_EQ(ts::irs_gesv<float>({}, o, n, 1, a.data(), n, nullptr, b.data(), n, x.data(), n, &r).info, 0);
  const auto expect_copy = [&](const trn::Trace& t, const char* name, double to_host, double back) {
    EXPECT_EQ(named_steps(t, name), 1) << name;
    EXPECT_EQ(named_steps(t, "trnsolver.irs.cast_a"), 0) << name;
    const Totals c = named_totals(t, name);
    EXPECT_DOUBLE_EQ(c.flops, N * N) << name;
    EXPECT_DOUBLE_EQ(c.to_host, to_host) << name;
    EXPECT_DOUBLE_EQ(c.back, back) << name;
  };
  expect_copy(r.trace, "trnsolver.irs.copy_a", 4 * N * N, 4 * N * N);
  o.lu_fp64 = true;
  auto ad = spd<double>(n, 9);
  std::vector<double> bd(static_cast<std::size_t>(n), 1.0), xd(bd.size());
  ts::CallReport rw;
  ASSERT_EQ(ts::irs_gesv<double>({}, o, n, 1, ad.data(), n, nullptr, bd.data(), n, xd.data(), n, &rw).info, 0);
  expect_copy(rw.trace, "trnsolver.irs.copy_a64", 8 * N * N, 8 * N * N);
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

// Sgetrs's row interchanges of B are DMA instructions (interchanges.cpp), no host round trip: two
// copies (HBM -> SBUF, SBUF -> HBM) per moved row; with ipiv = identity none; the result is the
// permuted solve (checked against the identity-pivot solve of the permuted B).
TEST(HostSteps, SgetrsInterchangesAreDmaNotHostSteps) {
  const std::int64_t n = 40, nrhs = 3;
  auto a = spd<float>(n, 7);
  std::vector<float> b(static_cast<std::size_t>(n * nrhs));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = 1.0f + 0.25f * static_cast<float>(i % 11);
  std::vector<int> ipiv(static_cast<std::size_t>(n)), ident(ipiv.size());
  for (std::int64_t k = 0; k < n; ++k) ipiv[static_cast<std::size_t>(k)] = ident[static_cast<std::size_t>(k)] = static_cast<int>(k + 1);
  ipiv[3] = 9;  // rows 3 and 8 of B trade places (one interchange)
  ts::CallReport r0, r1;
  std::vector<float> x1 = b, x0 = b;
  for (std::int64_t c = 0; c < nrhs; ++c) std::swap(x0[static_cast<std::size_t>(3 + c * n)], x0[static_cast<std::size_t>(8 + c * n)]);
  ts::sgetrs({}, false, n, nrhs, a.data(), n, ident.data(), x0.data(), n, &r0);
  ts::sgetrs({}, false, n, nrhs, a.data(), n, ipiv.data(), x1.data(), n, &r1);
  EXPECT_EQ(x0, x1) << "P B by DMA = B permuted beforehand";
  EXPECT_EQ(r1.profile.host_steps, 0);
  EXPECT_EQ(r0.profile.host_steps, 0);
  const auto dma = static_cast<int>(trn::Engine::dma);
  EXPECT_EQ(r1.profile.instructions[dma] - r0.profile.instructions[dma], 4) << "2 moved rows x (load, store)";
}

// FactorPlan's predicted time of spotrf (docs/cost-model.md section 8: the panel kernels run
// timing-only, the staging copies, TRSM GEMMs and SYRKs by trnblas's predictors, summed before the
// run) against the modeled time of the call: within +-10%, both sides, for one to four panels and
// both triangles.
TEST(PlanPrediction, SpotrfPredictedTimeMatchesTheModeledTime) {
  for (const std::int64_t n : {100, 200, 300, 500})
    for (const ts::Uplo uplo : {ts::Uplo::lower, ts::Uplo::upper}) {
      auto a = spd<float>(n, 9);
      ts::CallReport r;
      ASSERT_EQ(ts::spotrf({}, uplo, n, a.data(), n, &r), 0);
      const auto at = r.plan.find("predicted ");
      ASSERT_NE(at, std::string::npos) << r.plan;
      const double predicted = std::stod(r.plan.substr(at + 10)) * 1e3, actual = r.profile.total_ns;
      EXPECT_NEAR(predicted / actual, 1.0, 0.10) << "n " << n << (uplo == ts::Uplo::lower ? " lower" : " upper")
                                                 << ": predicted " << predicted << " ns, modeled " << actual << " ns";
      std::printf("prediction spotrf n=%lld %s: predicted %.2f us, modeled %.2f us (%+.1f%%)\n", static_cast<long long>(n),
                  uplo == ts::Uplo::lower ? "lower" : "upper", predicted * 1e-3, actual * 1e-3, 100 * (predicted / actual - 1));
    }
}

}  // namespace
