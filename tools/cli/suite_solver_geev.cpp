// `trnsci validate/bench` suite "solver", the non-symmetric eigensolver (docs/trnsolver.md "Non-symmetric
// eigen (Xgeev)"): geev with right vectors on a Gaussian matrix, its residual ||A V - V L||_F /
// (||A||_F ||V||_F) in long double (two-sided for the fp32 routines: at most 4 n u, at least u / 64) and a
// bench row (Golub & Van Loan 7.5.6's count of the Schur decomposition with vectors, 25 n^3, x4 complex).
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "registry.hpp"
#include "solver_data.hpp"
#include "trn/solver/geev.hpp"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;
using namespace solver_data;  // CL, kCplx, RealT, kU, wide, gaussian

// geev of a Gaussian n x n matrix; returns the relative residual (real data: a pair's vectors unpacked).
template <class T>
double run_geev(int n, trn::Generation target, ts::CallReport* rep, double* host_seconds) {
  ts::Settings st;
  st.target = target;
  const std::vector<T> a = gaussian<T>(n, n, 4242 + static_cast<std::uint64_t>(n));
  std::vector<T> vr(a.size());
  std::vector<T> w = a;
  std::vector<CL> lam(static_cast<std::size_t>(n)), v(a.size());
  const double t0 = now_seconds();
  if constexpr (kCplx<T>) {
    std::vector<T> ev(static_cast<std::size_t>(n));
    ts::geev(st, true, n, w.data(), n, ev.data(), vr.data(), n, rep);
    *host_seconds = seconds_since(t0);
    for (int j = 0; j < n; ++j) lam[j] = CL(ev[j].real(), ev[j].imag());
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = CL(vr[k].real(), vr[k].imag());
  } else {
    std::vector<T> wr(static_cast<std::size_t>(n)), wi(wr.size());
    ts::geev(st, true, n, w.data(), n, wr.data(), wi.data(), vr.data(), n, rep);
    *host_seconds = seconds_since(t0);
    for (int j = 0; j < n; ++j) {
      lam[j] = CL(wr[j], wi[j]);
      const bool first = wi[j] > 0, second = j > 0 && wi[j] < 0 && wi[j - 1] > 0;
      for (int i = 0; i < n; ++i) {
        const std::size_t at = i + static_cast<std::size_t>(j) * n;
        v[at] = first ? CL(vr[at], vr[at + n]) : second ? CL(vr[at - n], -static_cast<long double>(vr[at])) : CL(vr[at], 0);
      }
    }
  }
  long double r = 0, an = 0, vn = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      CL acc = -lam[j] * v[i + static_cast<std::size_t>(j) * n];
      for (int k = 0; k < n; ++k) {
        const T x = a[i + static_cast<std::size_t>(k) * n];
        acc += CL(std::real(x), std::imag(x)) * v[k + static_cast<std::size_t>(j) * n];
      }
      r += std::norm(acc);
      an += std::norm(CL(std::real(a[i + static_cast<std::size_t>(j) * n]), std::imag(a[i + static_cast<std::size_t>(j) * n])));
      vn += std::norm(v[i + static_cast<std::size_t>(j) * n]);
    }
  return static_cast<double>(std::sqrt(r) / (std::sqrt(an) * std::sqrt(vn)));
}

template <class T>
void add_rows(Registry& reg, const char* op, const char* mode) {
  const int n = 48;
  reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = op, .mode = mode, .shape = "48x48",
                         .metric = "||A V - V L||_F / (||A||_F ||V||_F)",
                         .bound_text = "[u/64 (fp32), 4 n u] (docs/trnsolver.md \"Non-symmetric eigen (Xgeev)\")",
                         .size = 48.0, .run = [mode, n] {
                           CaseResult c;
                           ts::CallReport rep;
                           c.measured = run_geev<T>(n, trn::Generation::trn1, &rep, &c.host_seconds);
                           c.bound = 4.0 * n * kU<T>;
                           c.lower = std::is_same_v<RealT<T>, float> ? kU<T> / 64 : 0;
                           c.pass = c.measured >= c.lower && c.measured <= c.bound;
                           c.note = mode;
                           c.device = DeviceCost::from(rep.profile);
                           return c;
                         }});
  reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode, .shape = "128x128",
                    .run = [](trn::Generation target) {
                      BenchResult b;
                      ts::CallReport rep;
                      b.error = run_geev<T>(128, target, &rep, &b.host_seconds);
                      b.error_metric = "||A V - V L||_F / (||A||_F ||V||_F)";
                      b.flops = (kCplx<T> ? 4.0 : 1.0) * 25.0 * 128.0 * 128.0 * 128.0;
                      b.device = DeviceCost::from(rep.profile);
                      return b;
                    }});
}

void add_solver_geev(Registry& reg) {
  add_rows<float>(reg, "Xgeev R_32F", "xGEHRD (xLAHR2 panels, n > 66) + Francis double-shift QR (host) + trevc, VR = Z X fp32 GEMM");
  add_rows<double>(reg, "Xgeev R_64F", "xGEHD2 + Francis double-shift QR (host) + trevc, VR = Z X Ozaki GEMM");
  add_rows<std::complex<float>>(reg, "Xgeev C_32F", "xGEHRD (xLAHR2 panels, n > 66) + single-shift QR (host) + trevc, VR = Z X 4M GEMM");
  add_rows<std::complex<double>>(reg, "Xgeev C_64F", "xGEHD2 + single-shift QR (host) + trevc, VR = Z X Ozaki 4M GEMM");
}

const Registrar kRegistrar(add_solver_geev);

}  // namespace
}  // namespace trnsci::cli
