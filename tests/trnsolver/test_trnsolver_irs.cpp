// Mixed-precision iterative refinement (IRS expert API, S<low>gesv) and the 64-bit X API, against
// LAPACKE (dgesv, sgesv, dgetrf, sgetrf, dpotrf/dpotrs) and long-double residuals/right-hand sides
// computed in the test. numerics.md §4.2's LU-IR / GMRES-IR table is reproduced for the
// Trainium-style LU (bf16 or fp16 TensorE inputs, fp32 PSUM, fp32 panels).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "solver_oracles.hpp"
#include "solver_reference.hpp"
#include "trnsolver.h"

using namespace solver_test;

namespace {

struct Handle {
  trnsolverDnHandle_t h = nullptr;
  Handle() { EXPECT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS); }
  ~Handle() { trnsolverDnDestroy(h); }
};

// b = A x in long double, rounded once.
std::vector<double> times(const std::vector<double>& a, const std::vector<double>& x, int n) {
  std::vector<double> b(n);
  for (int i = 0; i < n; ++i) {
    long double s = 0;
    for (int j = 0; j < n; ++j) s += (long double)a[i + static_cast<std::size_t>(j) * n] * x[j];
    b[i] = double(s);
  }
  return b;
}

template <class T>
double forward_error(const std::vector<T>& x, const std::vector<double>& xt) {
  double e = 0, xn = 0;
  for (std::size_t i = 0; i < xt.size(); ++i) {
    e = std::max(e, std::fabs(double(x[i]) - xt[i]));
    xn = std::max(xn, std::fabs(xt[i]));
  }
  return e / xn;
}

double dgesv_forward_error(std::vector<double> a, std::vector<double> b, const std::vector<double>& xt, int n) {
  std::vector<int> ip(n);
  EXPECT_EQ(LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, a.data(), n, ip.data(), b.data(), n), 0);
  return forward_error(b, xt);
}

struct IrsRun {
  trnsolverStatus_t status = TRNSOLVER_STATUS_SUCCESS;
  int niters = 0, outer = 0, info = 0;
  double forward = 0;
  std::vector<double> history;  // (max_iters + 1) x 2
};

struct IrsConfig {
  trnsolverIRSRefinement_t refine = TRNSOLVER_IRS_REFINE_CLASSICAL;
  trnsolverPrecType_t lowest = TRNSOLVER_R_16BF;
  double tol = 0, tol_inner = 0;
  int max_iters = 50, max_iters_inner = 50;
  bool fallback = true;
};

// One IRSXgesv call (main precision R_64F) on A x = b; A is not modified unless the fallback ran.
IrsRun irs_solve(trnsolverDnHandle_t h, const IrsConfig& c, std::vector<double>& a, const std::vector<double>& b,
                 const std::vector<double>& xt, int n) {
  trnsolverDnIRSParams_t p = nullptr;
  trnsolverDnIRSInfos_t inf = nullptr;
  EXPECT_EQ(trnsolverDnIRSParamsCreate(&p), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSInfosCreate(&inf), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSParamsSetSolverPrecisions(p, TRNSOLVER_R_64F, c.lowest), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSParamsSetRefinementSolver(p, c.refine), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSParamsSetMaxIters(p, c.max_iters), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSParamsSetMaxItersInner(p, c.max_iters_inner), TRNSOLVER_STATUS_SUCCESS);
  if (c.tol > 0) {
    EXPECT_EQ(trnsolverDnIRSParamsSetTol(p, c.tol), TRNSOLVER_STATUS_SUCCESS);
  }
  if (c.tol_inner > 0) {
    EXPECT_EQ(trnsolverDnIRSParamsSetTolInner(p, c.tol_inner), TRNSOLVER_STATUS_SUCCESS);
  }
  if (!c.fallback) {
    EXPECT_EQ(trnsolverDnIRSParamsDisableFallback(p), TRNSOLVER_STATUS_SUCCESS);
  }
  EXPECT_EQ(trnsolverDnIRSInfosRequestResidual(inf), TRNSOLVER_STATUS_SUCCESS);
  size_t bytes = 0;
  EXPECT_EQ(trnsolverDnIRSXgesv_bufferSize(h, p, n, 1, &bytes), TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> ws(bytes);
  std::vector<double> bb(b), x(static_cast<std::size_t>(n));
  IrsRun r;
  r.status = trnsolverDnIRSXgesv(h, p, inf, n, 1, a.data(), n, bb.data(), n, x.data(), n, ws.data(), bytes, &r.niters,
                                 &r.info);
  int niters = 0, maxit = 0;
  EXPECT_EQ(trnsolverDnIRSInfosGetNiters(inf, &niters), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(niters, r.niters);
  EXPECT_EQ(trnsolverDnIRSInfosGetOuterNiters(inf, &r.outer), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSInfosGetMaxIters(inf, &maxit), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(maxit, c.max_iters);
  void* hist = nullptr;
  EXPECT_EQ(trnsolverDnIRSInfosGetResidualHistory(inf, &hist), TRNSOLVER_STATUS_SUCCESS);
  const auto* hd = static_cast<const double*>(hist);
  r.history.assign(hd, hd + 2 * (c.max_iters + 1));
  r.forward = forward_error(x, xt);
  EXPECT_EQ(bb, b) << "dB is input only";
  trnsolverDnIRSInfosDestroy(inf);
  trnsolverDnIRSParamsDestroy(p);
  return r;
}

// numerics.md §4.2 rows (kappa, lowest precision) and the published LU-IR steps (-1: diverges) and
// GMRES-IR steps / forward error (pure bf16 / fp16 LU, n = 100).
struct TableRow {
  double kappa;
  trnsolverPrecType_t lowest;
  const char* name;
  int lu_ir_steps;
  int gmres_steps;
  double gmres_forward;
};
constexpr TableRow kTable[] = {
    {1e1, TRNSOLVER_R_16BF, "bf16", 11, 2, 4.1e-15}, {1e1, TRNSOLVER_R_16F, "fp16", 6, 2, 1.8e-15},
    {1e2, TRNSOLVER_R_16BF, "bf16", 17, 3, 5.8e-15}, {1e2, TRNSOLVER_R_16F, "fp16", 7, 2, 8.4e-15},
    {1e3, TRNSOLVER_R_16BF, "bf16", -1, 3, 3.5e-14}, {1e3, TRNSOLVER_R_16F, "fp16", 12, 2, 7.1e-14},
    {1e4, TRNSOLVER_R_16BF, "bf16", -1, 3, 2.7e-13}, {1e4, TRNSOLVER_R_16F, "fp16", -1, 2, 5.8e-13},
    {1e6, TRNSOLVER_R_16BF, "bf16", -1, 3, 2.8e-11}, {1e8, TRNSOLVER_R_16F, "fp16", -1, 3, 2.0e-9},
    {1e10, TRNSOLVER_R_16BF, "bf16", -1, 3, 3.7e-7},
};

// The Trainium-style LU (only the trailing updates take low-precision inputs; fp32 PSUM and
// panels) is more accurate than §4.2's LU that rounds every operation, so LU-IR must converge
// wherever the table's does, in at most as many steps (+1), and beyond it for bf16 at kappa 1e3;
// GMRES-IR's outer steps must match the table within one step, its forward error within 10x of the
// table's (or of LAPACKE dgesv's).
void check_table(trnsolverPrecType_t lowest) {
  const int n = 160;  // > 128: the trailing update (in the low precision) takes part in the LU
  Handle g;
  for (const TableRow& row : kTable) {
    if (row.lowest != lowest) continue;
    auto a = matrix_with_condition(n, row.kappa, 2024);
    const std::vector<double> xt(n, 1.0);
    const auto b = times(a, xt, n);
    const auto a0 = a;
    // §4.2's stopping test: normwise backward error <= 4 u64; GMRES tol 1e-6, <= 100 its per step.
    IrsConfig lu{TRNSOLVER_IRS_REFINE_CLASSICAL, row.lowest, 4 * 0x1p-53, 0, 50, 50, false};
    const IrsRun c = irs_solve(g.h, lu, a, b, xt, n);
    ASSERT_EQ(c.status, TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(a, a0) << "fallback disabled: dA unchanged";
    if (row.lu_ir_steps > 0 || (row.kappa == 1e3 && lowest == TRNSOLVER_R_16BF)) {
      EXPECT_GE(c.niters, 1) << "LU-IR converges, kappa " << row.kappa << " " << row.name;
      EXPECT_LE(c.niters, row.lu_ir_steps > 0 ? row.lu_ir_steps + 1 : 20) << row.kappa << " " << row.name;
    }
    IrsConfig gm{TRNSOLVER_IRS_REFINE_CLASSICAL_GMRES, row.lowest, 4 * 0x1p-53, 1e-6, 1000, 100, false};
    const IrsRun r = irs_solve(g.h, gm, a, b, xt, n);
    ASSERT_EQ(r.status, TRNSOLVER_STATUS_SUCCESS);
    const double ref = dgesv_forward_error(a0, b, xt, n);
    if (c.niters >= 0) {
      EXPECT_LE(c.forward, 10 * ref) << "LU-IR forward error, kappa " << row.kappa;
    }
    std::printf("[irs-table] kappa=%.0e %s LU-IR %d (%.1e) GMRES-IR %d steps / %d its (%.1e) dgesv %.1e\n", row.kappa,
                row.name, c.niters, c.forward, r.outer, r.niters, r.forward, ref);
    EXPECT_GE(r.niters, 0) << "GMRES-IR converges up to kappa 1e10";
    EXPECT_LE(std::abs(r.outer - row.gmres_steps), 1) << row.kappa << " " << row.name;
    EXPECT_LE(r.forward, 10 * std::max(row.gmres_forward, ref)) << row.kappa << " " << row.name;
    // Residual history: row 0 is x0 (iteration 0), counts ascend, the last row is niters.
    const std::size_t ld = 1001;
    EXPECT_EQ(r.history[0], 0.0);
    std::size_t last = 0;
    while (last + 1 < ld && r.history[last + 1] > 0) ++last;
    EXPECT_EQ(static_cast<int>(r.history[last]), r.niters);
    EXPECT_EQ(last, static_cast<std::size_t>(r.outer));
    EXPECT_LT(r.history[ld + last], r.history[ld]) << "the residual decreased";
  }
}

TEST(TrnsolverIrsTable, Bf16LuIrAndGmresIr) { check_table(TRNSOLVER_R_16BF); }
TEST(TrnsolverIrsTable, Fp16LuIrAndGmresIr) { check_table(TRNSOLVER_R_16F); }

}  // namespace

namespace {

// DBgesv through the expert API with GMRES refinement reaches 10x LAPACKE dgesv's forward error up
// to kappa 1e6 (the acceptance); every refinement solver converges at kappa 1e3.
TEST(TrnsolverIrsExpert, Bf16GmresMatchesDgesvUpToKappa1e6) {
  const int n = 150;
  Handle g;
  for (double kappa : {1e2, 1e4, 1e6}) {
    auto a = matrix_with_condition(n, kappa, 91);
    std::mt19937_64 rng(3);
    std::normal_distribution<double> nd;
    std::vector<double> xt(n);
    for (double& v : xt) v = nd(rng);
    const auto b = times(a, xt, n);
    const double ref = dgesv_forward_error(a, b, xt, n);
    for (auto refine : {TRNSOLVER_IRS_REFINE_CLASSICAL_GMRES, TRNSOLVER_IRS_REFINE_GMRES}) {
      std::vector<double> w(a);
      // CLASSICAL_GMRES stops each inner solve at TolInner = 1e-4: at kappa 1e6 its three or four
      // outer steps need more than the default 50 iterations in total.
      IrsConfig c{refine, TRNSOLVER_R_16BF, 0, 0, 100, 50, true};
      const IrsRun r = irs_solve(g.h, c, w, b, xt, n);
      ASSERT_EQ(r.status, TRNSOLVER_STATUS_SUCCESS);
      EXPECT_EQ(r.info, 0);
      EXPECT_GE(r.niters, 1) << "converged without the fallback, kappa " << kappa;
      EXPECT_EQ(w, a) << "dA unchanged when the refinement converged";
      EXPECT_LE(r.forward, 10 * ref) << "kappa " << kappa << " refine " << refine;
      std::printf("[DBgesv-IRS] kappa=%.0e refine=%d niters=%d outer=%d forward=%.2e dgesv=%.2e\n", kappa, refine,
                  r.niters, r.outer, r.forward, ref);
    }
  }
}

TEST(TrnsolverIrsExpert, EverySolverAndLowestPrecisionConverges) {
  const int n = 140;
  Handle g;
  auto a = matrix_with_condition(n, 1e3, 17);
  const std::vector<double> xt(n, 1.0);
  const auto b = times(a, xt, n);
  const double ref = dgesv_forward_error(a, b, xt, n);
  struct Case {
    trnsolverIRSRefinement_t refine;
    trnsolverPrecType_t lowest;
  };
  for (const Case cs : {Case{TRNSOLVER_IRS_REFINE_CLASSICAL, TRNSOLVER_R_64F}, Case{TRNSOLVER_IRS_REFINE_CLASSICAL, TRNSOLVER_R_32F},
                        Case{TRNSOLVER_IRS_REFINE_CLASSICAL, TRNSOLVER_R_TF32},
                        Case{TRNSOLVER_IRS_REFINE_GMRES_NOPCOND, TRNSOLVER_R_16F},
                        Case{TRNSOLVER_IRS_REFINE_CLASSICAL_GMRES, TRNSOLVER_R_16F}}) {
    std::vector<double> w(a);
    IrsConfig c{cs.refine, cs.lowest, 0, 0, 50, 50, true};
    const IrsRun r = irs_solve(g.h, c, w, b, xt, n);
    ASSERT_EQ(r.status, TRNSOLVER_STATUS_SUCCESS);
    std::printf("[IRSXgesv] refine=%d lowest=%d niters=%d outer=%d forward=%.2e dgesv=%.2e\n", cs.refine, cs.lowest,
                r.niters, r.outer, r.forward, ref);
    EXPECT_LE(r.forward, 10 * ref);
    if (cs.refine != TRNSOLVER_IRS_REFINE_GMRES_NOPCOND) {
      EXPECT_GE(r.niters, 1);
    } else {
      EXPECT_EQ(r.niters, -50) << "unpreconditioned GMRES does not converge in 50 iterations at kappa 1e3: fallback";
    }
  }
  // NONE: the LU solve alone (bf16 updates): niters 0, forward error of a low-precision solve.
  std::vector<double> w(a);
  const IrsRun r = irs_solve(g.h, IrsConfig{TRNSOLVER_IRS_REFINE_NONE, TRNSOLVER_R_16BF, 0, 0, 50, 50, true}, w, b, xt, n);
  EXPECT_EQ(r.niters, 0);
  EXPECT_EQ(r.outer, 0);
  EXPECT_GT(r.forward, 100 * ref) << "no refinement: the bf16-update LU's accuracy";
  EXPECT_LT(r.forward, 1.0);
}

// Fallback disabled and no convergence: niters = -MaxIters, dA unchanged, dX the last iterate;
// enabled: dX from dgetrf + dgetrs (within 10x LAPACKE dgesv) and dA its LU factors.
TEST(TrnsolverIrsExpert, FallbackAndNegativeNiters) {
  const int n = 140;
  Handle g;
  auto a = matrix_with_condition(n, 1e7, 23);
  const std::vector<double> xt(n, 1.0);
  const auto b = times(a, xt, n);
  std::vector<double> w(a);
  const IrsRun off = irs_solve(g.h, IrsConfig{TRNSOLVER_IRS_REFINE_CLASSICAL, TRNSOLVER_R_16BF, 0, 0, 6, 6, false}, w, b, xt, n);
  EXPECT_EQ(off.niters, -6);
  EXPECT_EQ(w, a);
  const IrsRun on = irs_solve(g.h, IrsConfig{TRNSOLVER_IRS_REFINE_CLASSICAL, TRNSOLVER_R_16BF, 0, 0, 6, 6, true}, w, b, xt, n);
  EXPECT_EQ(on.niters, -6);
  EXPECT_NE(w, a) << "the fallback's LU factors";
  std::vector<double> lu(a);
  std::vector<int> ip(n);
  ASSERT_EQ(LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, lu.data(), n, ip.data()), 0);
  double d = 0;
  for (std::size_t i = 0; i < lu.size(); ++i) d = std::max(d, std::fabs(lu[i] - w[i]));
  EXPECT_LT(d, 1e-8) << "the fallback's factors are dgetrf's (pivots alike; small pivots amplify rounding)";
  EXPECT_LE(on.forward, 10 * dgesv_forward_error(a, b, xt, n));
}

// S<low>gesv (fp32 I/O, residual in fp32 on TensorE) against LAPACKE sgesv: forward error within 10x
// (plus n u32 for the kappa = 10 case where both are at rounding level).
TEST(TrnsolverIrsSimple, SingleIoAgainstSgesv) {
  const int n = 150;
  Handle g;
  using Fn = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, float*, int, int*, float*, int, float*, int, void*,
                                   size_t, int*, int*);
  using Bs = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, float*, int, int*, float*, int, float*, int, void*,
                                   size_t*);
  struct V {
    Fn fn;
    Bs bs;
    const char* name;
  };
  for (double kappa : {1e1, 1e3}) {
    const auto ad = matrix_with_condition(n, kappa, 5);
    std::vector<float> a(ad.begin(), ad.end());
    std::vector<double> xt(n, 1.0), a_widened(a.begin(), a.end());
    const auto bd = times(a_widened, xt, n);
    std::vector<float> b(bd.begin(), bd.end());
    std::vector<float> ra(a), rb(b);
    std::vector<int> rip(n);
    ASSERT_EQ(LAPACKE_sgesv(LAPACK_COL_MAJOR, n, 1, ra.data(), n, rip.data(), rb.data(), n), 0);
    const double ref = forward_error(rb, xt);
    for (const V v : {V{trnsolverDnSHgesv, trnsolverDnSHgesv_bufferSize, "SH"},
                      V{trnsolverDnSBgesv, trnsolverDnSBgesv_bufferSize, "SB"},
                      V{trnsolverDnSXgesv, trnsolverDnSXgesv_bufferSize, "SX"}}) {
      std::vector<float> w(a), bb(b), x(n);
      std::vector<int> ip(n);
      size_t bytes = 0;
      ASSERT_EQ(v.bs(g.h, n, 1, w.data(), n, ip.data(), bb.data(), n, x.data(), n, nullptr, &bytes),
                TRNSOLVER_STATUS_SUCCESS);
      std::vector<char> ws(bytes);
      int iter = 0, info = -1;
      ASSERT_EQ(v.fn(g.h, n, 1, w.data(), n, ip.data(), bb.data(), n, x.data(), n, ws.data(), bytes, &iter, &info),
                TRNSOLVER_STATUS_SUCCESS);
      EXPECT_EQ(info, 0);
      EXPECT_GE(iter, 1) << v.name << " kappa " << kappa;
      EXPECT_EQ(w, a);
      EXPECT_EQ(bb, b);
      const double e = forward_error(x, xt);
      EXPECT_LE(e, 10 * ref + n * 0x1p-24) << v.name << " kappa " << kappa;
      std::printf("[%sgesv] kappa=%.0e iter=%d forward=%.2e sgesv=%.2e\n", v.name, kappa, iter, e, ref);
    }
  }
}

// The 64-bit X API against LAPACKE: Xgetrf (same pivots, factors), Xgetrs (N and T), Xpotrf/Xpotrs.
TEST(TrnsolverXApi, GetrfGetrsPotrfPotrsAgainstLapacke) {
  Handle g;
  trnsolverDnParams_t p = nullptr;
  ASSERT_EQ(trnsolverDnCreateParams(&p), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnSetAdvOptions(p, TRNSOLVERDN_GETRF, TRNSOLVER_ALG_0), TRNSOLVER_STATUS_SUCCESS);
  const int m = 150, n = 140, lda = 152;
  std::mt19937_64 rng(8);
  std::normal_distribution<double> nd;
  std::vector<double> a(static_cast<std::size_t>(lda) * n);
  for (double& v : a) v = nd(rng);
  for (int dt : {TRN_R_64F, TRN_R_32F}) {
    const bool f32 = dt == TRN_R_32F;
    std::vector<double> ad(a);
    std::vector<float> af(a.begin(), a.end());
    void* A = f32 ? static_cast<void*>(af.data()) : static_cast<void*>(ad.data());
    size_t dev = 0, host = 0;
    ASSERT_EQ(trnsolverDnXgetrf_bufferSize(g.h, p, m, n, trnDataType_t(dt), A, lda, trnDataType_t(dt), &dev, &host),
              TRNSOLVER_STATUS_SUCCESS);
    std::vector<char> wd(dev), wh(host + 1);
    std::vector<int64_t> ip(n);
    int info = -1;
    ASSERT_EQ(trnsolverDnXgetrf(g.h, p, m, n, trnDataType_t(dt), A, lda, ip.data(), trnDataType_t(dt), wd.data(), dev,
                                wh.data(), host, &info),
              TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info, 0);
    std::vector<double> lr(a);
    std::vector<int> rip(n);
    ASSERT_EQ(LAPACKE_dgetrf(LAPACK_COL_MAJOR, m, n, lr.data(), lda, rip.data()), 0);
    for (int k = 0; k < n; ++k) EXPECT_EQ(ip[k], rip[k]) << "pivot " << k << (f32 ? " S" : " D");
    double d = 0, mx = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        const std::size_t at = i + static_cast<std::size_t>(j) * lda;
        d = std::max(d, std::fabs((f32 ? double(af[at]) : ad[at]) - lr[at]));
        mx = std::max(mx, std::fabs(lr[at]));
      }
    EXPECT_LE(d / mx, f32 ? 1e-4 : 1e-12);
    // Xgetrs on the square leading n x n part's factors: solve with LAPACKE dgetrs on the same factors.
    const int nn = n;
    std::vector<double> sq(static_cast<std::size_t>(nn) * nn);
    for (int j = 0; j < nn; ++j)
      for (int i = 0; i < nn; ++i) sq[i + static_cast<std::size_t>(j) * nn] = a[i + static_cast<std::size_t>(j) * lda];
    std::vector<double> sd(sq);
    std::vector<float> sf(sq.begin(), sq.end());
    void* S = f32 ? static_cast<void*>(sf.data()) : static_cast<void*>(sd.data());
    ASSERT_EQ(trnsolverDnXgetrf(g.h, p, nn, nn, trnDataType_t(dt), S, nn, ip.data(), trnDataType_t(dt), wd.data(), dev,
                                wh.data(), host, &info),
              TRNSOLVER_STATUS_SUCCESS);
    for (trnblasOperation_t op : {TRNBLAS_OP_N, TRNBLAS_OP_T}) {
      std::vector<double> bd(static_cast<std::size_t>(nn) * 2);
      for (double& v : bd) v = nd(rng);
      std::vector<float> bf(bd.begin(), bd.end());
      void* Bp = f32 ? static_cast<void*>(bf.data()) : static_cast<void*>(bd.data());
      std::vector<double> rf(sq), rb(bd);
      std::vector<int> rp(nn);
      ASSERT_EQ(LAPACKE_dgetrf(LAPACK_COL_MAJOR, nn, nn, rf.data(), nn, rp.data()), 0);
      ASSERT_EQ(LAPACKE_dgetrs(LAPACK_COL_MAJOR, op == TRNBLAS_OP_N ? 'N' : 'T', nn, 2, rf.data(), nn, rp.data(), rb.data(),
                               nn),
                0);
      ASSERT_EQ(trnsolverDnXgetrs(g.h, p, op, nn, 2, trnDataType_t(dt), S, nn, ip.data(), trnDataType_t(dt), Bp, nn, &info),
                TRNSOLVER_STATUS_SUCCESS);
      EXPECT_EQ(info, 0);
      double e = 0, xn = 0;
      for (std::size_t i = 0; i < rb.size(); ++i) {
        e = std::max(e, std::fabs((f32 ? double(bf[i]) : bd[i]) - rb[i]));
        xn = std::max(xn, std::fabs(rb[i]));
      }
      EXPECT_LE(e / xn, f32 ? 1e-3 : 1e-11) << (f32 ? "S" : "D") << " op " << op;
    }
    // Xpotrf / Xpotrs on an SPD matrix (lower), against LAPACKE dpotrf / dpotrs.
    std::mt19937_64 r2(12);
    const auto spd = trn_reference::random_spd(nn, r2);
    std::vector<double> pd(spd), rf(spd);
    std::vector<float> pf(spd.begin(), spd.end());
    void* P = f32 ? static_cast<void*>(pf.data()) : static_cast<void*>(pd.data());
    ASSERT_EQ(trnsolverDnXpotrf_bufferSize(g.h, p, TRNBLAS_FILL_MODE_LOWER, nn, trnDataType_t(dt), P, nn,
                                           trnDataType_t(dt), &dev, &host),
              TRNSOLVER_STATUS_SUCCESS);
    ASSERT_EQ(trnsolverDnXpotrf(g.h, p, TRNBLAS_FILL_MODE_LOWER, nn, trnDataType_t(dt), P, nn, trnDataType_t(dt),
                                wd.data(), dev, wh.data(), host, &info),
              TRNSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(info, 0);
    ASSERT_EQ(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', nn, rf.data(), nn), 0);
    std::vector<double> bd(nn);
    for (double& v : bd) v = nd(rng);
    std::vector<float> bf(bd.begin(), bd.end());
    std::vector<double> rb(bd);
    ASSERT_EQ(LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', nn, 1, rf.data(), nn, rb.data(), nn), 0);
    ASSERT_EQ(trnsolverDnXpotrs(g.h, p, TRNBLAS_FILL_MODE_LOWER, nn, 1, trnDataType_t(dt), P, nn, trnDataType_t(dt),
                                f32 ? static_cast<void*>(bf.data()) : static_cast<void*>(bd.data()), nn, &info),
              TRNSOLVER_STATUS_SUCCESS);
    double e = 0, xn = 0;
    for (int i = 0; i < nn; ++i) {
      e = std::max(e, std::fabs((f32 ? double(bf[i]) : bd[i]) - rb[i]));
      xn = std::max(xn, std::fabs(rb[i]));
    }
    EXPECT_LE(e / xn, f32 ? 1e-4 : 1e-12) << (f32 ? "S" : "D") << " potrs";
  }
  EXPECT_EQ(trnsolverDnDestroyParams(p), TRNSOLVER_STATUS_SUCCESS);
}

// Bad input: the first illegal argument's position, info = -position, outputs untouched.
TEST(TrnsolverXApi, BadInput) {
  Handle g;
  trnsolverDnParams_t p = nullptr;
  ASSERT_EQ(trnsolverDnCreateParams(&p), TRNSOLVER_STATUS_SUCCESS);
  const int n = 4;
  std::vector<double> a(16, 1.0), a0(a);
  std::vector<int64_t> ip(n, 7), ip0(ip);
  double w = 0;
  int info = 0;
  EXPECT_EQ(trnsolverDnXgetrf(g.h, nullptr, n, n, TRN_R_64F, a.data(), n, ip.data(), TRN_R_64F, &w, 8, nullptr, 0, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -1);
  EXPECT_EQ(trnsolverDnXgetrf(g.h, p, n, n, TRN_R_64F, a.data(), n - 1, ip.data(), TRN_R_64F, &w, 8, nullptr, 0, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -6);
  EXPECT_EQ(trnsolverDnXgetrf(g.h, p, n, n, TRN_R_64F, a.data(), n, ip.data(), TRN_R_64F, &w, 0, nullptr, 0, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -10) << "workspaceInBytesOnDevice too small";
  EXPECT_EQ(trnsolverDnXgetrf(g.h, p, n, n, TRN_R_64F, a.data(), n, ip.data(), TRN_R_32F, &w, 8, nullptr, 0, &info),
            TRNSOLVER_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(trnsolverDnXgetrf(g.h, p, n, n, TRN_R_16F, a.data(), n, ip.data(), TRN_R_16F, &w, 8, nullptr, 0, &info),
            TRNSOLVER_STATUS_NOT_SUPPORTED);
  std::vector<int64_t> bad{1, 2, 9, 4};
  std::vector<double> b(n, 1.0), b0(b);
  EXPECT_EQ(trnsolverDnXgetrs(g.h, p, TRNBLAS_OP_N, n, 1, TRN_R_64F, a.data(), n, bad.data(), TRN_R_64F, b.data(), n, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -8);
  EXPECT_EQ(trnsolverDnXgetrs(g.h, p, trnblasOperation_t(7), n, 1, TRN_R_64F, a.data(), n, nullptr, TRN_R_64F, b.data(), n,
                              &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -2);
  EXPECT_EQ(trnsolverDnXpotrf(g.h, p, TRNBLAS_FILL_MODE_LOWER, -1, TRN_R_64F, a.data(), n, TRN_R_64F, &w, 8, nullptr, 0,
                              &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -3);
  EXPECT_EQ(trnsolverDnXpotrs(g.h, p, TRNBLAS_FILL_MODE_LOWER, n, 1, TRN_R_64F, a.data(), n, TRN_R_64F, nullptr, n, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -9);
  EXPECT_EQ(a, a0);
  EXPECT_EQ(ip, ip0);
  EXPECT_EQ(b, b0);
  EXPECT_EQ(trnsolverDnSetAdvOptions(p, trnsolverDnFunction_t(3), TRNSOLVER_ALG_0), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnSetAdvOptions(p, TRNSOLVERDN_POTRF, trnsolverAlgMode_t(5)), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnXgetrf(nullptr, p, n, n, TRN_R_64F, a.data(), n, ip.data(), TRN_R_64F, &w, 8, nullptr, 0, &info),
            TRNSOLVER_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(trnsolverDnDestroyParams(p), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnDestroyParams(p), TRNSOLVER_STATUS_INVALID_VALUE) << "destroyed twice";
}

TEST(TrnsolverIrsExpert, BadInputAndParams) {
  Handle g;
  trnsolverDnIRSParams_t p = nullptr;
  trnsolverDnIRSInfos_t inf = nullptr;
  ASSERT_EQ(trnsolverDnIRSParamsCreate(&p), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnIRSInfosCreate(&inf), TRNSOLVER_STATUS_SUCCESS);
  const int n = 8;
  std::vector<double> a(64, 0.0), b(8, 1.0), x(8, -3.0);
  for (int i = 0; i < n; ++i) a[i + 8 * i] = 2.0;
  const auto a0 = a, x0 = x;
  std::vector<char> ws(1 << 16);
  int niters = 99, info = 99;
  auto call = [&](trnsolverDnIRSParams_t pp, trnsolverDnIRSInfos_t ii, int nrhs, int ldda, size_t bytes) {
    return trnsolverDnIRSXgesv(g.h, pp, ii, n, nrhs, a.data(), ldda, b.data(), n, x.data(), n, ws.data(), bytes, &niters,
                               &info);
  };
  size_t bytes = 0;
  EXPECT_EQ(trnsolverDnIRSXgesv_bufferSize(g.h, p, n, 1, &bytes), TRNSOLVER_STATUS_IRS_PARAMS_INVALID_PREC)
      << "main precision not set";
  EXPECT_EQ(trnsolverDnIRSParamsSetSolverMainPrecision(p, trnsolverPrecType_t(1300)), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnIRSParamsSetSolverMainPrecision(p, TRNSOLVER_R_64F), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSParamsSetSolverLowestPrecision(p, TRNSOLVER_R_16BF), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnIRSXgesv_bufferSize(g.h, p, n, 1, &bytes), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(call(p, inf, 1, n, bytes), TRNSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE) << "refinement NOT_SET";
  EXPECT_EQ(trnsolverDnIRSParamsSetRefinementSolver(p, trnsolverIRSRefinement_t(1107)), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnIRSParamsSetRefinementSolver(p, TRNSOLVER_IRS_REFINE_GMRES_GMRES), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(call(p, inf, 1, n, bytes), TRNSOLVER_STATUS_IRS_NOT_SUPPORTED);
  EXPECT_EQ(trnsolverDnIRSParamsSetRefinementSolver(p, TRNSOLVER_IRS_REFINE_GMRES), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(call(p, inf, 2, n, bytes), TRNSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES);
  EXPECT_EQ(call(nullptr, inf, 1, n, bytes), TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED);
  EXPECT_EQ(call(p, nullptr, 1, n, bytes), TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED);
  EXPECT_EQ(call(p, inf, 1, n - 1, bytes), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -6);
  EXPECT_EQ(call(p, inf, 1, n, bytes - 1), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -12);
  EXPECT_EQ(niters, 99) << "niters untouched on a rejected call";
  EXPECT_EQ(a, a0);
  EXPECT_EQ(x, x0);
  // lowest R_64F needs main R_64F; main R_16F is not an I/O precision.
  EXPECT_EQ(trnsolverDnIRSParamsSetSolverPrecisions(p, TRNSOLVER_R_32F, TRNSOLVER_R_64F), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(call(p, inf, 1, n, bytes), TRNSOLVER_STATUS_IRS_PARAMS_INVALID_PREC);
  EXPECT_EQ(trnsolverDnIRSParamsSetSolverPrecisions(p, TRNSOLVER_R_16F, TRNSOLVER_R_16F), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(call(p, inf, 1, n, bytes), TRNSOLVER_STATUS_IRS_PARAMS_INVALID_PREC);
  // Limits of the iteration counts.
  int mi = 0;
  EXPECT_EQ(trnsolverDnIRSParamsSetMaxIters(p, 0), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnIRSParamsSetMaxIters(p, 20), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSParamsGetMaxIters(p, &mi), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(mi, 20);
  EXPECT_EQ(trnsolverDnIRSParamsSetMaxItersInner(p, 21), TRNSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER);
  EXPECT_EQ(trnsolverDnIRSParamsSetTolInner(p, 0.0), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnIRSParamsSetTol(p, -1.0), TRNSOLVER_STATUS_INVALID_VALUE);
  void* hist = nullptr;
  EXPECT_EQ(trnsolverDnIRSInfosGetResidualHistory(inf, &hist), TRNSOLVER_STATUS_INVALID_VALUE) << "not requested";
  EXPECT_EQ(trnsolverDnIRSInfosGetNiters(nullptr, &mi), TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED);
  // A working fp32 call (main R_32F) on the diagonal system: x = 1/2 exactly.
  std::vector<float> af(64, 0.0f), bf(8, 1.0f), xf(8);
  for (int i = 0; i < n; ++i) af[i + 8 * i] = 2.0f;
  EXPECT_EQ(trnsolverDnIRSParamsSetSolverPrecisions(p, TRNSOLVER_R_32F, TRNSOLVER_R_16BF), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSParamsSetRefinementSolver(p, TRNSOLVER_IRS_REFINE_CLASSICAL), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSInfosRequestResidual(inf), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnIRSXgesv_bufferSize(g.h, p, n, 1, &bytes), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnIRSXgesv(g.h, p, inf, n, 1, af.data(), n, bf.data(), n, xf.data(), n, ws.data(), bytes, &niters,
                                &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_GE(niters, 1);
  for (float v : xf) EXPECT_EQ(v, 0.5f);
  ASSERT_EQ(trnsolverDnIRSInfosGetResidualHistory(inf, &hist), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(static_cast<const float*>(hist)[21], 0.0f) << "row 0 residual of the exact x0";
  EXPECT_EQ(trnsolverDnIRSInfosDestroy(inf), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSInfosDestroy(inf), TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED);
  EXPECT_EQ(trnsolverDnIRSParamsDestroy(p), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSParamsSetTol(p, 1e-10), TRNSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED);
}

}  // namespace

#include "trn/solver/solver.hpp"

namespace {

// HPL-MxP acceptance (numerics.md §4.3): scaled residual ||A x - b||_inf / (eps (||A||_inf ||x||_inf +
// ||b||_inf) n) < 16 for a diagonally dominant random matrix, LU without pivoting with bf16 TensorE
// inputs, GMRES-IR; residual evaluated in long double in the test.
TEST(TrnsolverIrsHplMxp, ScaledResidualBelow16) {
  const int n = 1024;
  std::mt19937_64 rng(1234);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<double> a(static_cast<std::size_t>(n) * n), b(n), x(n);
  for (double& v : a) v = u(rng);
  for (int i = 0; i < n; ++i) {
    double row = 0;
    for (int j = 0; j < n; ++j) row += std::fabs(a[i + static_cast<std::size_t>(j) * n]);
    a[i + static_cast<std::size_t>(i) * n] = row;
  }
  for (double& v : b) v = u(rng);
  trn::solver::IrsOptions o;
  o.lu_mode = trn::blas::GemmMode::bf16;
  o.refinement = trn::solver::IrsRefinement::classical_gmres;
  o.pivoting = false;
  o.fallback = false;
  trn::solver::CallReport rep;
  const auto r = trn::solver::irs_gesv<double>({}, o, n, 1, a.data(), n, nullptr, b.data(), n, x.data(), n, &rep);
  ASSERT_GE(r.niters, 1);
  long double rn = 0, an = 0, xn = 0, bn = 0;
  for (int i = 0; i < n; ++i) {
    long double s = -(long double)b[i], row = 0;
    for (int j = 0; j < n; ++j) {
      s += (long double)a[i + static_cast<std::size_t>(j) * n] * x[j];
      row += std::fabs(a[i + static_cast<std::size_t>(j) * n]);
    }
    rn = std::max(rn, std::fabs(s));
    an = std::max(an, row);
    xn = std::max<long double>(xn, std::fabs(x[i]));
    bn = std::max<long double>(bn, std::fabs(b[i]));
  }
  const double scaled = double(rn / (0x1p-52L * (an * xn + bn) * n));
  std::printf("[HPL-MxP] n=%d niters=%d outer=%d scaled residual %.3e modeled trn1 %.1f ms\n", n, r.niters,
              r.outer_niters, scaled, rep.profile.total_ns * 1e-6);
  EXPECT_LT(scaled, 16.0);
}

}  // namespace

extern "C" int trnsolver_walkthrough_irs(int n, const double* A, const double* b, double* x_irs, double* x_lu,
                                         int* niters, int* outer, double* history);

namespace {

TEST(TrnsolverIrsSample, CSequenceMatchesDgesv) {
  // The C99 walkthrough of the IRS expert API and Xgetrf/Xgetrs (trnsolver_c_irs_walkthrough.c) on a 4 x 4
  // non-symmetric, diagonally dominant integer system built here with b = A x for the x below. One
  // component is -1/3 (not an fp32 number), so the fp32 solve cannot be exact and the walkthrough
  // exercises the refinement loop (with an all-integer x the narrow TRSM's refined fp32 solve already
  // met the stopping test: 0 iterations).
  const int n = 4;
  const std::vector<double> a0 = {7, -1, 2, 0, 3, 9, -2, 1, -1, 2, 8, 3, 2, 0, -3, 6};  // column-major
  const double x_true[4] = {1, -2, 3, -1.0 / 3.0};
  std::vector<double> b0(n, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) b0[i] += a0[i + n * j] * x_true[j];
  double xi[4] = {0, 0, 0, 0}, xl[4] = {0, 0, 0, 0}, hist[4] = {-1, -1, -1, -1};
  int niters = -7, outer = -7;
  ASSERT_EQ(trnsolver_walkthrough_irs(n, a0.data(), b0.data(), xi, xl, &niters, &outer, hist), 0);
  std::vector<double> a = a0, b = b0;
  std::vector<int> ip(n);
  ASSERT_EQ(LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, a.data(), n, ip.data(), b.data(), n), 0);
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(xi[i], b[i], 1e-14);
    EXPECT_NEAR(xl[i], b[i], 1e-14);
    EXPECT_NEAR(xi[i], x_true[i], 1e-13);
  }
  EXPECT_GE(niters, 1);
  EXPECT_GE(outer, 1);
  EXPECT_EQ(hist[0], 0.0) << "history row 0: iteration 0";
  EXPECT_GE(hist[2], 1.0) << "row 1: after the first outer step";
  EXPECT_LT(hist[3], hist[1]) << "the residual decreased";
}

}  // namespace

namespace {

TEST(TrnsolverIrsSimple, SingleIoBadInput) {
  Handle g;
  const int n = 4;
  std::vector<float> a(16, 1.0f), b(4, 1.0f), x(4, -2.0f);
  const auto a0 = a, x0 = x;
  std::vector<int> ip(n, -9);
  size_t bytes = 0;
  ASSERT_EQ(trnsolverDnSBgesv_bufferSize(g.h, n, 1, a.data(), n, ip.data(), b.data(), n, x.data(), n, nullptr, &bytes),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> ws(bytes);
  int iter = 77, info = 0;
  EXPECT_EQ(trnsolverDnSBgesv(g.h, n, 1, a.data(), n, ip.data(), b.data(), n, x.data(), n, ws.data(), bytes - 1, &iter,
                              &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -11);
  EXPECT_EQ(trnsolverDnSHgesv(g.h, n, 1, a.data(), n - 1, ip.data(), b.data(), n, x.data(), n, ws.data(), bytes, &iter,
                              &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -4);
  EXPECT_EQ(trnsolverDnSXgesv(g.h, n, 1, a.data(), n, nullptr, b.data(), n, x.data(), n, ws.data(), bytes, &iter, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -5);
  EXPECT_EQ(iter, 77);
  EXPECT_EQ(a, a0);
  EXPECT_EQ(x, x0);
  EXPECT_EQ(ip, std::vector<int>(n, -9));
  // A holding Inf: iter = -2 and the fp32 fallback (Sgetrf + Sgetrs) produced X.
  std::vector<float> d(16, 0.0f);
  for (int i = 0; i < n; ++i) d[i + 4 * i] = 2.0f;
  d[1] = std::numeric_limits<float>::infinity();
  ASSERT_EQ(trnsolverDnSHgesv(g.h, n, 1, d.data(), n, ip.data(), b.data(), n, x.data(), n, ws.data(), bytes, &iter, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(iter, -2);
}

}  // namespace
