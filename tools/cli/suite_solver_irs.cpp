// `trnsci validate/bench` suite "solver", the IRS family (issue #27): complex <t1><t2>gesv and the
// least-squares <t1><t2>gels (docs/trnsolver.md "IRS family"). Problems: A = Q1 diag(sigma) Q2^H
// with sigma geometric from 1 to 1/kappa (Q from LAPACKE zgeqrf/zungqr on Gaussian matrices), b =
// A x + noise; the reference is LAPACKE zgels in fp64 on the data rounded to the I/O type (oracle
// only). Bound: ||x - x_ref||_inf / ||x_ref||_inf <= 4 n (kappa + kappa^2 eta) u_io, eta =
// ||r||_2 / ||x||_2 (||A||_2 = 1); the case also requires niters >= 1 (the refinement ran and
// converged; the factor is in the lower precision).
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "registry.hpp"
#include "trn/solver/solver.hpp"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;
using zd = std::complex<double>;

template <class T>
constexpr bool kCx = !std::is_floating_point_v<T>;
template <class T>
constexpr double kU = std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>> ? 0x1p-24 : 0x1p-53;

template <class T>
T to_t(zd v) {
  if constexpr (kCx<T>)
    return T(v);
  else
    return T(v.real());
}

std::vector<zd> unitary(int k, bool cx, std::mt19937_64& rng) {
  std::normal_distribution<double> nd;
  std::vector<zd> q(static_cast<std::size_t>(k) * k), tau(static_cast<std::size_t>(k));
  for (zd& x : q) x = zd(nd(rng), cx ? nd(rng) : 0.0);
  auto* p = reinterpret_cast<lapack_complex_double*>(q.data());
  LAPACKE_zgeqrf(LAPACK_COL_MAJOR, k, k, p, k, reinterpret_cast<lapack_complex_double*>(tau.data()));
  LAPACKE_zungqr(LAPACK_COL_MAJOR, k, k, k, p, k, reinterpret_cast<lapack_complex_double*>(tau.data()));
  return q;
}

struct IrsRun {
  double error = 0, bound = 0;
  ts::IrsResult r;
  ts::CallReport rep;
  double seconds = 0;
};

// One solve of the m x n problem (m == n: irs_gesv, else irs_gels) in the I/O type T.
template <class T>
IrsRun run_irs(trn::Generation target, int m, int n, double kappa, trn::blas::GemmMode mode) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(7919 * m + n));
  std::normal_distribution<double> nd;
  const auto q1 = unitary(m, kCx<T>, rng), q2 = unitary(n, kCx<T>, rng);
  std::vector<T> a(static_cast<std::size_t>(m) * n), b(static_cast<std::size_t>(m)), x(static_cast<std::size_t>(n));
  std::vector<zd> xt(static_cast<std::size_t>(n));
  for (zd& v : xt) v = zd(nd(rng), kCx<T> ? nd(rng) : 0.0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      zd s = 0;
      for (int k = 0; k < n; ++k) s += q1[i + k * m] * std::pow(kappa, -double(k) / (n - 1)) * std::conj(q2[j + k * n]);
      a[i + static_cast<std::size_t>(j) * m] = to_t<T>(s);
    }
  const double noise = m == n ? 0.0 : 1e-3;
  for (int i = 0; i < m; ++i) {
    zd s = zd(noise * nd(rng), 0);
    for (int j = 0; j < n; ++j) s += zd(a[i + static_cast<std::size_t>(j) * m]) * xt[j];
    b[i] = to_t<T>(s);
  }
  std::vector<zd> ra(a.begin(), a.end()), rb(b.begin(), b.end());
  LAPACKE_zgels(LAPACK_COL_MAJOR, 'N', m, n, 1, reinterpret_cast<lapack_complex_double*>(ra.data()), m,
                reinterpret_cast<lapack_complex_double*>(rb.data()), m);
  IrsRun out;
  ts::IrsOptions o;
  o.lu_mode = mode;
  ts::Settings s;
  s.target = target;
  const double t0 = now_seconds();
  out.r = m == n ? ts::irs_gesv<T>(s, o, n, 1, a.data(), n, nullptr, b.data(), n, x.data(), n, &out.rep)
                 : ts::irs_gels<T>(s, o, m, n, 1, a.data(), m, b.data(), m, x.data(), n, &out.rep);
  out.seconds = seconds_since(t0);
  double e = 0, xn = 0, r2 = 0, x2 = 0;
  for (int i = 0; i < n; ++i) {
    e = std::max(e, std::abs(zd(x[i]) - rb[i]));
    xn = std::max(xn, std::abs(rb[i]));
    x2 += std::norm(rb[i]);
  }
  for (int i = n; i < m; ++i) r2 += std::norm(rb[i]);
  out.error = e / xn;
  out.bound = 4.0 * n * (kappa + kappa * kappa * std::sqrt(r2 / x2)) * kU<T>;
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
                      const IrsRun r = run_irs<T>(target, bm, bn, kappa, mode);
                      BenchResult b;
                      b.error = r.error;
                      b.error_metric = "||x - x_ref||_inf / ||x_ref||_inf";
                      b.host_seconds = r.seconds;
                      const double dm = bm, dn = bn;  // LU 2n^3/3, QR 2mn^2 - 2n^3/3 (x4 complex)
                      b.flops = (kCx<T> ? 4.0 : 1.0) * (bm == bn ? 2 * dn * dn * dn / 3 : 2 * dm * dn * dn - 2 * dn * dn * dn / 3);
                      b.device = DeviceCost::from(r.rep.profile);
                      return b;
                    }});
}

void add_solver_irs(Registry& reg) {
  using GM = trn::blas::GemmMode;
  add_irs<std::complex<double>>(reg, "ZKgesv", "complex LU fp16 4M updates + classical IR (Ozaki residual)", GM::fp16,
                                192, 192, 512, 512);
  add_irs<double>(reg, "DHgels", "QR fp16 block reflectors + CSNE refinement (Ozaki residual)", GM::fp16, 192, 96, 1024,
                  512);
  add_irs<float>(reg, "SBgels", "QR bf16 block reflectors + CSNE refinement (fp32 residual)", GM::bf16, 192, 96, 1024,
                 512);
  add_irs<std::complex<float>>(reg, "CYgels", "QR tf32 4M block reflectors + CSNE refinement", GM::tf32, 128, 64, 512,
                               256);
}

const Registrar kRegistrar(add_solver_irs);

}  // namespace
}  // namespace trnsci::cli
