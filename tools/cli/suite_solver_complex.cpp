// `trnsci validate/bench` suite "solver", complex Cholesky and LU: ?potrf + ?potrs and ?getrf + ?getrs
// (C, Z) with the two-sided bounds of docs/trnsolver.md "Complex Cholesky and LU" (error measures:
// tests/reference/factor_oracles.hpp, long double), and bench rows (LAPACK's flop counts x4 for complex:
// potrf 4 n^3 / 3, getrf 8 n^3 / 3), and ?heevd (C, Z) against LAPACKE zheevd (the oracle only).
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "complex_matrices.hpp"
#include "factor_oracles.hpp"
#include "registry.hpp"
#include "trn/solver/complex_factor.hpp"
#include "trn/solver/eig.hpp"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;

template <class T>
constexpr bool kFp32 = std::is_same_v<T, std::complex<float>>;

template <class T>
std::vector<T> gaussian(int m, int n, std::uint64_t seed) {
  return complex_matrix::random_matrix<T>(m, n, m, seed);
}
// G^H G / n + I (Hermitian positive definite, kappa ~ 5), exactly Hermitian.
template <class T>
std::vector<T> hpd(int n, std::uint64_t seed) {
  return complex_matrix::hpd_matrix<T>(n, n, seed);
}

struct Run {
  double backward = 0, solve = 0, host_seconds = 0;
  ts::CallReport rep;
};

// potrf (lower) then potrs on one right-hand side, or getrf then getrs (op N); the factorisation's report.
template <class T>
Run run(trn::Generation target, char kind, int n) {
  const std::vector<T> a0 = kind == 'p' ? hpd<T>(n, 600 + static_cast<std::uint64_t>(n))
                                        : gaussian<T>(n, n, 700 + static_cast<std::uint64_t>(n));
  const std::vector<T> b0 = gaussian<T>(n, 1, 800);
  std::vector<T> f = a0, x = b0;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  ts::Settings s;
  s.target = target;
  Run r;
  const double t0 = now_seconds();
  if (kind == 'p') {
    ts::potrf(s, ts::Uplo::lower, n, f.data(), n, &r.rep);
    r.host_seconds = seconds_since(t0);
    ts::potrs(s, ts::Uplo::lower, n, 1, f.data(), n, x.data(), n);
    r.backward = factor_oracle::cholesky_backward(n, a0.data(), f.data(), n, true);
  } else {
    ts::getrf(s, n, n, f.data(), n, ipiv.data(), &r.rep);
    r.host_seconds = seconds_since(t0);
    ts::getrs(s, ts::SolveOp::N, n, 1, f.data(), n, ipiv.data(), x.data(), n);
    r.backward = factor_oracle::lu_backward(n, n, a0.data(), f.data(), n, ipiv.data());
  }
  auto opa = [&](std::int64_t i, std::int64_t k) { return factor_oracle::wide(a0[i + k * n]); };
  r.solve = factor_oracle::solve_backward(n, 1, a0.data(), n, opa, b0.data(), x.data(), n);
  return r;
}

// Backward error in [u/64 (C only: it ran in fp32), 4 n u]; the solve's normwise backward error <= 8 n u.
template <class T>
CaseResult factor_case(char kind, int n) {
  const double u = kFp32<T> ? 0x1p-24 : 0x1p-53;
  const Run r = run<T>(trn::Generation::trn1, kind, n);
  CaseResult c;
  c.measured = r.backward;
  c.bound = 4 * n * u;
  if (kFp32<T>) c.lower = u / 64;
  c.pass = c.measured <= c.bound && (!kFp32<T> || c.measured >= c.lower) && r.solve <= 8 * n * u;
  c.note = std::string(kind == 'p' ? "potrs" : "getrs") + " ||b - A x||_F / (||A||_F ||x||_F) = " + sci(r.solve) +
           " (bound 8 n u); recursive panels (host leaves <= 32 columns), " + (kFp32<T> ? "fp32-mode" : "Ozaki") + " 4M TRSM/" +
           (kind == 'p' ? "HERK" : "GEMM") + " on TensorE";
  c.host_seconds = r.host_seconds;
  c.device = DeviceCost::from(r.rep.profile);
  return c;
}

template <class T>
void add_factor(Registry& reg, char kind, const char* op, const char* mode) {
  const std::string metric = kind == 'p' ? "||A - L L^H||_F / ||A||_F" : "||P A - L U||_F / ||A||_F";
  for (int n : {96, 256})
    reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = op, .mode = mode,
                           .shape = std::to_string(n) + "x" + std::to_string(n), .metric = metric,
                           .bound_text = std::string(kFp32<T> ? "[u/64, 4 n u]" : "4 n u") +
                                         "; solve <= 8 n u (docs/trnsolver.md)",
                           .size = static_cast<double>(n), .full_only = n > 96,
                           .run = [kind, n] { return factor_case<T>(kind, n); }});
  for (int n : {256, 512})
    reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode,
                      .shape = std::to_string(n) + "x" + std::to_string(n), .full_only = n > 256,
                      .run = [kind, n](trn::Generation target) {
                        Run r = run<T>(target, kind, n);
                        BenchResult b;
                        b.host_seconds = r.host_seconds;
                        b.error = r.backward;
                        b.error_metric = kind == 'p' ? "||A - L L^H||_F / ||A||_F" : "||P A - L U||_F / ||A||_F";
                        const double dn = n;
                        b.flops = (kind == 'p' ? 4.0 / 3 : 8.0 / 3) * dn * dn * dn;
                        b.device = DeviceCost::from(r.rep.profile);
                        return b;
                      }});
}

// heevd (vectors, lower) of a Gaussian Hermitian matrix: residual in [u/64 (C), 2 n u], orthogonality
// <= 4 n u, eigenvalues within 2 n u ||A||_2 of LAPACKE zheevd in double complex.
struct EigRun {
  double res = 0, orth = 0, val = 0, host_seconds = 0;
  ts::CallReport rep;
};
template <class T>
EigRun run_heevd(trn::Generation target, int n) {
  using R = typename T::value_type;
  std::vector<T> a = gaussian<T>(n, n, 900 + static_cast<std::uint64_t>(n));
  for (int j = 0; j < n; ++j) {
    a[j + static_cast<std::size_t>(j) * n] = T(a[j + static_cast<std::size_t>(j) * n].real(), 0);
    for (int i = j + 1; i < n; ++i) a[j + static_cast<std::size_t>(i) * n] = std::conj(a[i + static_cast<std::size_t>(j) * n]);
  }
  std::vector<T> v = a;
  std::vector<R> w(static_cast<std::size_t>(n));
  ts::Settings s;
  s.target = target;
  EigRun r;
  const double t0 = now_seconds();
  ts::heevd(s, true, ts::Uplo::lower, n, v.data(), n, w.data(), &r.rep);
  r.host_seconds = seconds_since(t0);
  r.res = factor_oracle::eig_residual(n, a.data(), n, v.data(), n, w.data());
  r.orth = factor_oracle::orthogonality(n, v.data(), n);
  std::vector<std::complex<double>> z(a.begin(), a.end());
  std::vector<double> ref(static_cast<std::size_t>(n));
  LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', n, reinterpret_cast<lapack_complex_double*>(z.data()), n, ref.data());
  double a2 = 0;
  for (double x : ref) a2 = std::max(a2, std::fabs(x));
  for (int i = 0; i < n; ++i) r.val = std::max(r.val, std::fabs(static_cast<double>(w[i]) - ref[i]) / a2);
  return r;
}

template <class T>
CaseResult heevd_case(int n) {
  const double u = kFp32<T> ? 0x1p-24 : 0x1p-53;
  const EigRun r = run_heevd<T>(trn::Generation::trn1, n);
  CaseResult c;
  c.measured = r.res;
  c.bound = 2 * n * u;
  if (kFp32<T>) c.lower = u / 64;
  c.pass = c.measured <= c.bound && (!kFp32<T> || c.measured >= c.lower) && r.orth <= 4 * n * u && r.val <= 2 * n * u;
  c.note = "||V^H V - I||_F = " + sci(r.orth) + " (bound 4 n u); max |lambda - zheevd| / ||A||_2 = " + sci(r.val) +
           " (bound 2 n u)";
  c.host_seconds = r.host_seconds;
  c.device = DeviceCost::from(r.rep.profile);
  return c;
}

template <class T>
void add_heevd(Registry& reg, const char* op, const char* mode) {
  for (int n : {64, 160})
    reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = op, .mode = mode,
                           .shape = std::to_string(n) + "x" + std::to_string(n), .metric = "||A V - V Lambda||_F / ||A||_F",
                           .bound_text = std::string(kFp32<T> ? "[u/64, 2 n u]" : "2 n u") +
                                         "; ||V^H V - I||_F <= 4 n u; eigenvalues 2 n u ||A||_2 (docs/trnsolver.md)",
                           .size = static_cast<double>(n), .full_only = n > 64, .run = [n] { return heevd_case<T>(n); }});
  for (int n : {128, 256})
    reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode,
                      .shape = std::to_string(n) + "x" + std::to_string(n), .full_only = n > 128,
                      .run = [n](trn::Generation target) {
                        EigRun r = run_heevd<T>(target, n);
                        BenchResult b;
                        b.host_seconds = r.host_seconds;
                        b.error = r.res;
                        b.error_metric = "||A V - V Lambda||_F / ||A||_F";
                        const double dn = n;
                        b.flops = 4.0 * (4.0 / 3 + 2.0) * dn * dn * dn;  // reduction + back-transformation, x4 complex
                        b.device = DeviceCost::from(r.rep.profile);
                        return b;
                      }});
}

void add_solver_complex(Registry& reg) {
  add_factor<std::complex<float>>(reg, 'p', "cpotrf", "recursive panels (host leaves <= 32) + fp32 4M HERK/GEMM");
  add_factor<std::complex<double>>(reg, 'p', "zpotrf", "recursive panels (host leaves <= 32) + Ozaki 4M HERK/GEMM");
  add_factor<std::complex<float>>(reg, 'g', "cgetrf", "recursive panels (host leaves <= 32) + fp32 4M TRSM/GEMM");
  add_factor<std::complex<double>>(reg, 'g', "zgetrf", "recursive panels (host leaves <= 32) + Ozaki 4M TRSM/GEMM");
  add_heevd<std::complex<float>>(reg, "cheevd", "hetrd (hemv + HER2K fp32) + D&C + unmqr");
  add_heevd<std::complex<double>>(reg, "zheevd", "hetrd (host hemv + Ozaki HER2K) + D&C + unmqr");
}

const Registrar kRegistrar(add_solver_complex);

}  // namespace
}  // namespace trnsci::cli
