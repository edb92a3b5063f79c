// `trnsci validate/bench` suite "solver", the IRS expert API through its C entry points (#27 audit,
// s13/solvgap): IRSXgesv and IRSXgels with main precision R_32F, R_64F, C_32F and C_64F (params with
// SetSolverPrecisions + REFINE_CLASSICAL, infos' Niters, _bufferSize workspace), and a bench row of
// the legacy DHgesv through trnsolverDnDHgesv (the IRS gesv family's fp64 row). Problems and oracle:
// tests/reference/irs_problems.hpp (A = Q1 diag(sigma) Q2^H, kappa 100; gels: b = A x + 1e-3 noise;
// x_ref from LAPACKE zgels in fp64). Bound (docs/trnsolver.md "IRS family"): ||x - x_ref||_inf /
// ||x_ref||_inf <= 4 n (kappa + kappa^2 eta) u_io; the case also requires niters >= 1 (the
// refinement ran: the factor is in the lower precision), info 0 and every status SUCCESS. Bench rows:
// LAPACK's flop counts (LU 2n^3/3, QR 2mn^2 - 2n^3/3; x4 complex) and LAPACKE ?gesv / ?gels in the
// I/O precision on the same data as the native host time.
#include <complex>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "irs_native.hpp"
#include "irs_problems.hpp"
#include "registry.hpp"
#include "solver_data.hpp"
#include "trnsolver.h"

namespace trnsci::cli {
namespace {

using solver_data::kCplx;
using solver_data::kU;

constexpr double kKappa = 100;

// The IRS main precision of a value type T.
template <class T>
constexpr trnsolverPrecType_t kMain = std::is_same_v<T, float>                 ? TRNSOLVER_R_32F
                                      : std::is_same_v<T, double>              ? TRNSOLVER_R_64F
                                      : std::is_same_v<T, std::complex<float>> ? TRNSOLVER_C_32F
                                                                               : TRNSOLVER_C_64F;

struct IrsxRun {
  double error = 0, bound = 0, seconds = 0;
  int niters = 0, info = -99, failed = 0;  // failed: calls that did not return SUCCESS
  trnProfile_t profile{};
};

// api 'x': IRSXgesv (m == n) or IRSXgels with lowest precision `low`, classical refinement;
// api 'l': the legacy trnsolverDnDHgesv (T double, m == n). One right-hand side.
template <class T>
IrsxRun run_irsx(char api, trn::Generation target, int m, int n, trnsolverPrecType_t low, irs_ref::Problem<T>& p) {
  trnsolverDnHandle_t h = nullptr;
  IrsxRun r;
  r.failed += trnsolverDnCreate(&h) != TRNSOLVER_STATUS_SUCCESS;
  trnsolverDnSetTarget(h, static_cast<trnTarget_t>(target));
  std::vector<T> a = p.A, b = p.B, x(static_cast<std::size_t>(n));
  std::size_t bytes = 0;
  const auto ok = [&r](trnsolverStatus_t s) { r.failed += s != TRNSOLVER_STATUS_SUCCESS; };
  if (api == 'x') {
    trnsolverDnIRSParams_t prm = nullptr;
    trnsolverDnIRSInfos_t inf = nullptr;
    ok(trnsolverDnIRSParamsCreate(&prm));
    ok(trnsolverDnIRSInfosCreate(&inf));
    ok(trnsolverDnIRSParamsSetSolverPrecisions(prm, kMain<T>, low));
    ok(trnsolverDnIRSParamsSetRefinementSolver(prm, TRNSOLVER_IRS_REFINE_CLASSICAL));
    ok(m == n ? trnsolverDnIRSXgesv_bufferSize(h, prm, n, 1, &bytes)
              : trnsolverDnIRSXgels_bufferSize(h, prm, m, n, 1, &bytes));
    std::vector<char> ws(std::max<std::size_t>(bytes, 1));
    const double t0 = now_seconds();
    ok(m == n ? trnsolverDnIRSXgesv(h, prm, inf, n, 1, a.data(), n, b.data(), n, x.data(), n, ws.data(), bytes,
                                    &r.niters, &r.info)
              : trnsolverDnIRSXgels(h, prm, inf, m, n, 1, a.data(), m, b.data(), m, x.data(), n, ws.data(), bytes,
                                    &r.niters, &r.info));
    r.seconds = seconds_since(t0);
    int infos_niters = -1;
    ok(trnsolverDnIRSInfosGetNiters(inf, &infos_niters));
    r.failed += infos_niters != r.niters;  // the infos report the call's niters
    trnsolverDnIRSInfosDestroy(inf);
    trnsolverDnIRSParamsDestroy(prm);
  } else if constexpr (std::is_same_v<T, double>) {
    std::vector<trnsolver_int_t> ipiv(static_cast<std::size_t>(n));
    ok(trnsolverDnDHgesv_bufferSize(h, n, 1, a.data(), n, ipiv.data(), b.data(), n, x.data(), n, nullptr, &bytes));
    std::vector<char> ws(std::max<std::size_t>(bytes, 1));
    const double t0 = now_seconds();
    ok(trnsolverDnDHgesv(h, n, 1, a.data(), n, ipiv.data(), b.data(), n, x.data(), n, ws.data(), bytes, &r.niters,
                         &r.info));
    r.seconds = seconds_since(t0);
  }
  trnsolverDnGetLastProfile(h, &r.profile);
  trnsolverDnDestroy(h);
  r.error = p.error(x);
  r.bound = p.bound(kU<T>);
  return r;
}

// A validate case (m x n) and a bench row (bm x bn) of one routine; api as run_irsx.
template <class T>
void add_irsx(Registry& reg, char api, const std::string& op, const std::string& mode, trnsolverPrecType_t low, int m,
              int n, int bm, int bn, bool validate = true) {
  const std::string metric = "||x - x_ref||_inf / ||x_ref||_inf";
  const auto problem = [](int pm, int pn) {
    return irs_ref::Problem<T>(pm, pn, 1, kKappa, pm == pn ? 0.0 : 1e-3, static_cast<std::uint64_t>(6007 * pm + pn));
  };
  if (validate)
    reg.add(ValidationCase{
        .suite = "solver", .library = "trnsolver", .op = op, .mode = mode,
        .shape = std::to_string(m) + "x" + std::to_string(n) + ", kappa 100", .metric = metric,
        .bound_text = "4 n (kappa + kappa^2 eta) u_io, niters >= 1, info 0 (docs/trnsolver.md \"IRS family\")",
        .size = static_cast<double>(n), .run = [=] {
          irs_ref::Problem<T> p = problem(m, n);
          const IrsxRun r = run_irsx<T>(api, trn::Generation::trn1, m, n, low, p);
          CaseResult c;
          c.measured = r.error;
          c.bound = r.bound;
          c.pass = r.niters >= 1 && r.info == 0 && r.failed == 0 && c.measured <= c.bound;
          c.note = "niters " + std::to_string(r.niters) + ", info " + std::to_string(r.info) + ", " +
                   std::to_string(r.failed) + " failed calls; reference LAPACKE zgels (fp64)";
          c.host_seconds = r.seconds;
          c.device = DeviceCost::from(r.profile);
          return c;
        }});
  reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode,
                    .shape = std::to_string(bm) + "x" + std::to_string(bn), .full_only = bm > 512,
                    .run = [=](trn::Generation target) {
                      irs_ref::Problem<T> p = problem(bm, bn);
                      const IrsxRun r = run_irsx<T>(api, target, bm, bn, low, p);
                      if (r.failed != 0 || r.info != 0 || r.niters < 0)
                        throw std::runtime_error("failed call, nonzero info or no convergence");
                      BenchResult b;
                      b.error = r.error;
                      b.error_metric = metric;
                      b.host_seconds = r.seconds;
                      const double dm = bm, dn = bn;
                      b.flops = (kCplx<T> ? 4.0 : 1.0) *
                                (bm == bn ? 2 * dn * dn * dn / 3 : 2 * dm * dn * dn - 2 * dn * dn * dn / 3);
                      b.device = DeviceCost::from(r.profile);
                      b.native_seconds = irs_native::lapacke_seconds<T>(p);
                      b.native_name = irs_native::lapacke_name<T>(bm == bn);
                      return b;
                    }});
}

void add_solver_irsx(Registry& reg) {
  using CF = std::complex<float>;
  using CD = std::complex<double>;
  // IRSXgesv: n 192 (the complex LU's panels are 128 wide: a 64-column trailing update in the lower mode).
  add_irsx<float>(reg, 'x', "SHgesv (IRSXgesv)", "C API, R_32F / R_16F, LU + classical IR", TRNSOLVER_R_16F, 192,
                  192, 512, 512);
  add_irsx<double>(reg, 'x', "DHgesv (IRSXgesv)", "C API, R_64F / R_16F, LU + classical IR (Ozaki residual)",
                   TRNSOLVER_R_16F, 192, 192, 512, 512);
  add_irsx<CF>(reg, 'x', "CKgesv (IRSXgesv)", "C API, C_32F / C_16F, complex LU 4M + classical IR", TRNSOLVER_C_16F,
               192, 192, 512, 512);
  add_irsx<CD>(reg, 'x', "ZKgesv (IRSXgesv)", "C API, C_64F / C_16F, complex LU 4M + classical IR (Ozaki residual)",
               TRNSOLVER_C_16F, 192, 192, 512, 512);
  // IRSXgels: QR block reflectors in the lowest precision + CSNE refinement.
  add_irsx<float>(reg, 'x', "SBgels (IRSXgels)", "C API, R_32F / R_16BF, QR + CSNE refinement", TRNSOLVER_R_16BF, 192,
                  96, 512, 256);
  add_irsx<double>(reg, 'x', "DHgels (IRSXgels)", "C API, R_64F / R_16F, QR + CSNE refinement (Ozaki residual)",
                   TRNSOLVER_R_16F, 192, 96, 512, 256);
  add_irsx<CF>(reg, 'x', "CYgels (IRSXgels)", "C API, C_32F / C_TF32, QR 4M + CSNE refinement", TRNSOLVER_C_TF32, 128,
               64, 512, 256);
  add_irsx<CD>(reg, 'x', "ZKgels (IRSXgels)", "C API, C_64F / C_16F, QR 4M + CSNE refinement (Ozaki residual)",
               TRNSOLVER_C_16F, 192, 96, 512, 256);
  // The legacy DHgesv's bench row (its validate cases are suite_solver.cpp's kappa sweep).
  add_irsx<double>(reg, 'l', "DHgesv", "C API, LU fp16 updates + classical IR (Ozaki residual)", TRNSOLVER_R_16F, 192,
                   192, 512, 512, false);
}

const Registrar kRegistrar(add_solver_irsx);

}  // namespace
}  // namespace trnsci::cli
