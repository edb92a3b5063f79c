// `trnsci validate/bench` suite "solver", the IRS family (issue #27): complex <t1><t2>gesv and the
// least-squares <t1><t2>gels (docs/trnsolver.md "IRS family"). Problems and the LAPACKE zgels
// reference: tests/reference/irs_problems.hpp (kappa 100; b = A x + 1e-3 noise for gels). Bound: ||x - x_ref||_inf / ||x_ref||_inf <= 4 n (kappa + kappa^2 eta) u_io, eta =
// ||r||_2 / ||x||_2 (||A||_2 = 1); the case also requires niters >= 1 (the refinement ran and
// converged; the factor is in the lower precision). Bench rows: LAPACKE ?gesv / ?gels on the same data
// as the native host time (irs_native.hpp).
#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "irs_native.hpp"
#include "irs_problems.hpp"
#include "registry.hpp"
#include "trn/solver/solver.hpp"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;

using irs_ref::kCx;
template <class T>
constexpr double kU = std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>> ? 0x1p-24 : 0x1p-53;

struct IrsRun {
  double error = 0, bound = 0;
  ts::IrsResult r;
  ts::CallReport rep;
  double seconds = 0;
  double native_seconds = 0;  // LAPACKE ?gesv / ?gels on the same data (bench rows only)
};

// One solve of the m x n problem (m == n: irs_gesv, else irs_gels) in the I/O type T.
template <class T>
IrsRun run_irs(trn::Generation target, int m, int n, double kappa, trn::blas::GemmMode mode, bool time_native = false) {
  irs_ref::Problem<T> p(m, n, 1, kappa, m == n ? 0.0 : 1e-3, static_cast<std::uint64_t>(7919 * m + n));
  std::vector<T> x(static_cast<std::size_t>(n));
  IrsRun out;
  if (time_native) out.native_seconds = irs_native::lapacke_seconds<T>(p);  // before the solve may touch p.A
  ts::IrsOptions o;
  o.lu_mode = mode;
  ts::Settings s;
  s.target = target;
  const double t0 = now_seconds();
  out.r = m == n ? ts::irs_gesv<T>(s, o, n, 1, p.A.data(), n, nullptr, p.B.data(), n, x.data(), n, &out.rep)
                 : ts::irs_gels<T>(s, o, m, n, 1, p.A.data(), m, p.B.data(), m, x.data(), n, &out.rep);
  out.seconds = seconds_since(t0);
  out.error = p.error(x);
  out.bound = p.bound(kU<T>);
  return out;
}

template <class T>
void add_irs(Registry& reg, const char* op, const char* variant, trn::blas::GemmMode mode, int m, int n, int bm, int bn) {
  const double kappa = 100;
  reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = op, .mode = variant,
                         .shape = std::to_string(m) + "x" + std::to_string(n) + ", kappa 100",
                         .metric = "||x - x_ref||_inf / ||x_ref||_inf",
                         .bound_text = "4 n (kappa + kappa^2 eta) u_io, niters >= 1 (docs/trnsolver.md \"IRS family\")",
                         .size = static_cast<double>(n),
                         .run = [=] {
                           const IrsRun r = run_irs<T>(trn::Generation::trn1, m, n, kappa, mode);
                           CaseResult c;
                           c.measured = r.error;
                           c.bound = r.bound;
                           c.pass = r.r.niters >= 1 && r.r.info == 0 && c.measured <= c.bound;
                           c.note = "niters " + std::to_string(r.r.niters) + "; reference LAPACKE zgels (fp64)";
                           c.host_seconds = r.seconds;
                           c.device = DeviceCost::from(r.rep.profile);
                           return c;
                         }});
  reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = variant,
                    .shape = std::to_string(bm) + "x" + std::to_string(bn), .full_only = bm > 512,
                    .run = [=](trn::Generation target) {
                      const IrsRun r = run_irs<T>(target, bm, bn, kappa, mode, true);
                      BenchResult b;
                      b.error = r.error;
                      b.error_metric = "||x - x_ref||_inf / ||x_ref||_inf";
                      b.host_seconds = r.seconds;
                      const double dm = bm, dn = bn;  // LU 2n^3/3, QR 2mn^2 - 2n^3/3 (x4 complex)
                      b.flops = (kCx<T> ? 4.0 : 1.0) * (bm == bn ? 2 * dn * dn * dn / 3 : 2 * dm * dn * dn - 2 * dn * dn * dn / 3);
                      b.device = DeviceCost::from(r.rep.profile);
                      b.native_seconds = r.native_seconds;
                      b.native_name = irs_native::lapacke_name<T>(bm == bn);
                      return b;
                    }});
}

void add_solver_irs(Registry& reg) {
  using GM = trn::blas::GemmMode;
  add_irs<std::complex<double>>(reg, "ZKgesv", "complex LU fp16 4M updates + classical IR (Ozaki residual)", GM::fp16,
                                192, 192, 512, 512);
  add_irs<double>(reg, "DHgels", "QR fp16 block reflectors + CSNE refinement (Ozaki residual)", GM::fp16, 192, 96, 512,
                  256);
  add_irs<float>(reg, "SBgels", "QR bf16 block reflectors + CSNE refinement (fp32 residual)", GM::bf16, 192, 96, 512,
                 256);
  add_irs<std::complex<float>>(reg, "CYgels", "QR tf32 4M block reflectors + CSNE refinement", GM::tf32, 128, 64, 512,
                               256);
  // The value types tools/acceptance_audit.py found without an IRS case (#27 acceptance audit, s12/audit):
  // fp32 and complex-fp32 gesv, complex-fp64 gels.
  add_irs<float>(reg, "SHgesv", "LU fp16 updates + classical IR (fp32 residual)", GM::fp16, 192, 192, 512, 512);
  add_irs<std::complex<float>>(reg, "CKgesv", "complex LU fp16 4M updates + classical IR", GM::fp16, 192, 192, 512, 512);
  add_irs<std::complex<double>>(reg, "ZKgels", "QR fp16 4M block reflectors + CSNE refinement (Ozaki residual)", GM::fp16,
                                192, 96, 512, 256);
}

const Registrar kRegistrar(add_solver_irs);

}  // namespace
}  // namespace trnsci::cli
