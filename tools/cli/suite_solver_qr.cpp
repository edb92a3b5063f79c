// `trnsci validate/bench` suite "solver", QR: ?geqrf + ?orgqr/?ungqr (S, D, C, Z) with the two-sided
// bounds of docs/trnsolver.md "QR" (error measures: tests/reference/qr_oracles.hpp, long double), and
// a bench row for geqrf (LAPACK's flop count 2 m n^2 - 2 n^3 / 3, x4 for complex).
#include <complex>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "qr_oracles.hpp"
#include "registry.hpp"
#include "solver_data.hpp"
#include "trn/solver/qr.hpp"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;

using solver_data::gaussian;
template <class T>
constexpr bool kComplex = solver_data::kCplx<T>;
template <class T>
constexpr bool kFp32 = std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>>;

// geqrf then orgqr on an m x n Gaussian matrix; the report of geqrf.
template <class T>
qr_oracle::QrErrors run_qr(trn::Generation target, int m, int n, ts::CallReport* rep, double* host_seconds) {
  const int k = std::min(m, n);
  const std::vector<T> a0 = gaussian<T>(m, n, 4242 + static_cast<std::uint64_t>(m + n));
  std::vector<T> f = a0, tau(static_cast<std::size_t>(k));
  ts::Settings s;
  s.target = target;
  const double t0 = now_seconds();
  ts::geqrf(s, m, n, f.data(), m, tau.data(), rep);
  *host_seconds = seconds_since(t0);
  std::vector<T> q(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(m) * k);
  ts::orgqr(s, m, k, k, q.data(), m, tau.data());
  return qr_oracle::qr_errors(m, n, a0.data(), f.data(), m, q.data(), m);
}

// Backward error ||A - QR||_F / ||A||_F in [u_eff / 64, max(m, n) u_eff] and ||Q^H Q - I||_F <=
// 4 max(m, n) u_eff (docs/trnsolver.md "QR").
template <class T>
CaseResult qr_case(int m, int n) {
  const double u = kFp32<T> ? 0x1p-24 : 0x1p-53, mn = std::max(m, n);
  ts::CallReport rep;
  CaseResult c;
  const qr_oracle::QrErrors e = run_qr<T>(trn::Generation::trn1, m, n, &rep, &c.host_seconds);
  c.measured = e.backward;
  c.bound = mn * u;
  c.lower = u / 64;
  c.pass = c.measured >= c.lower && c.measured <= c.bound && e.orth <= 4 * mn * u;
  c.note = "||Q^H Q - I||_F = " + sci(e.orth) + " (bound 4 max(m,n) u = " + sci(4 * mn * u) + "); " +
           (kFp32<T> ? "fp32 host panels, fp32-mode GEMMs on TensorE" : "fp64 host panels, Ozaki GEMMs on TensorE");
  c.device = DeviceCost::from(rep.profile);
  return c;
}

template <class T>
void add_qr(Registry& reg, const char* op, const char* mode) {
  for (const auto& [m, n] : {std::pair{96, 64}, std::pair{256, 192}}) {
    reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = op, .mode = mode,
                           .shape = std::to_string(m) + "x" + std::to_string(n), .metric = "||A - QR||_F / ||A||_F",
                           .bound_text = "[u/64, max(m,n) u]; ||Q^H Q - I||_F <= 4 max(m,n) u (docs/trnsolver.md)",
                           .size = static_cast<double>(m), .full_only = m > 96,
                           .run = [m, n] { return qr_case<T>(m, n); }});
  }
  for (const auto& [m, n] : {std::pair{256, 256}, std::pair{1024, 256}}) {
    reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode,
                      .shape = std::to_string(m) + "x" + std::to_string(n), .full_only = m > 256,
                      .run = [m, n](trn::Generation target) {
                        ts::CallReport rep;
                        BenchResult b;
                        const qr_oracle::QrErrors e = run_qr<T>(target, m, n, &rep, &b.host_seconds);
                        b.error = e.backward;
                        b.error_metric = "||A - QR||_F / ||A||_F";
                        const double dm = m, dn = n;
                        b.flops = (kComplex<T> ? 4.0 : 1.0) * (2 * dm * dn * dn - 2 * dn * dn * dn / 3);
                        b.device = DeviceCost::from(rep.profile);
                        return b;
                      }});
  }
}

void add_solver_qr(Registry& reg) {
  add_qr<float>(reg, "sgeqrf", "fp32 panels (host) + fp32 GEMMs");
  add_qr<double>(reg, "dgeqrf", "fp64 panels (host) + Ozaki GEMMs");
  add_qr<std::complex<float>>(reg, "cgeqrf", "fp32 panels (host) + fp32 4M GEMMs");
  add_qr<std::complex<double>>(reg, "zgeqrf", "fp64 panels (host) + Ozaki 4M GEMMs");
}

const Registrar kRegistrar(add_solver_qr);

}  // namespace
}  // namespace trnsci::cli
