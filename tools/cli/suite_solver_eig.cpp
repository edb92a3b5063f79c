// `trnsci validate/bench` suite "solver", symmetric eigensolver by tridiagonalization: ?syevd (S, D)
// with the two-sided bounds of docs/trnsolver.md "syevd" against LAPACKE dsyevd's eigenvalues (the
// oracle), and a bench row with LAPACKE ?syevd's host time (same matrix, vectors) in its metric text;
// the row's flop count is 9 n^3 (the usual figure for syevd with vectors).
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "registry.hpp"
#include "trn/solver/eig.hpp"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;

std::vector<double> symmetric(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd;
  std::vector<double> a(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) a[i + static_cast<std::size_t>(j) * n] = a[j + static_cast<std::size_t>(i) * n] = nd(rng);
  return a;
}

struct EigErrors {
  double res = 0, orth = 0, val = 0;  // ||AV - VW||_F/||A||_F, ||V^T V - I||_F, max|w - w_ref| / ||A||_2
  double lapacke_seconds = 0;          // LAPACKE ?syevd with vectors on the same matrix (as T)
};

template <class T>
EigErrors run_syevd(trn::Generation target, int n, ts::CallReport* rep, double* host_seconds) {
  const std::vector<double> a0 = symmetric(n, 777 + static_cast<std::uint64_t>(n));
  const std::vector<T> a(a0.begin(), a0.end());
  std::vector<T> v = a, w(static_cast<std::size_t>(n));
  ts::Settings s;
  s.target = target;
  const double t0 = now_seconds();
  ts::syevd(s, true, ts::Uplo::lower, n, v.data(), n, w.data(), rep);
  *host_seconds = seconds_since(t0);
  EigErrors e;
  std::vector<T> lv = a, lw(static_cast<std::size_t>(n));
  const double t1 = now_seconds();
  if constexpr (std::is_same_v<T, float>)
    LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'V', 'L', n, lv.data(), n, lw.data());
  else
    LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', n, lv.data(), n, lw.data());
  e.lapacke_seconds = seconds_since(t1);
  std::vector<double> ref(a.begin(), a.end()), wref(static_cast<std::size_t>(n));
  LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, ref.data(), n, wref.data());
  long double anorm = 0, rr = 0, oo = 0;
  const auto at = [n](const std::vector<T>& m, int i, int j) { return static_cast<long double>(m[i + static_cast<std::size_t>(j) * n]); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      long double r = -at(v, i, j) * w[j], g = i == j ? -1 : 0;
      for (int k = 0; k < n; ++k) {
        r += at(a, i, k) * at(v, k, j);
        g += at(v, k, i) * at(v, k, j);
      }
      rr += r * r;
      oo += g * g;
      anorm += at(a, i, j) * at(a, i, j);
    }
  e.res = static_cast<double>(std::sqrt(rr / anorm));
  e.orth = static_cast<double>(std::sqrt(oo));
  const double a2 = std::max(std::fabs(wref.front()), std::fabs(wref.back()));
  for (int j = 0; j < n; ++j) e.val = std::max(e.val, std::fabs(double(w[j]) - wref[j]) / a2);
  return e;
}

// docs/trnsolver.md "syevd": residual in [u/64, n u] (fp32; fp64 from 0), ||V^T V - I||_F <= 4 n u,
// max|w - w_dsyevd| <= n u ||A||_2.
template <class T>
CaseResult syevd_case(int n) {
  constexpr bool f32 = std::is_same_v<T, float>;
  const double u = f32 ? 0x1p-24 : 0x1p-53, nu = n * u;
  ts::CallReport rep;
  CaseResult c;
  const EigErrors e = run_syevd<T>(trn::Generation::trn1, n, &rep, &c.host_seconds);
  c.measured = e.res;
  c.bound = nu;
  c.lower = f32 ? u / 64 : 0;
  c.pass = c.measured >= c.lower && c.measured <= c.bound && e.orth <= 4 * nu && e.val <= nu;
  c.note = "||V^T V - I||_F = " + sci(e.orth) + " (bound 4 n u = " + sci(4 * nu) + "); max|w - w_dsyevd|/||A||_2 = " +
           sci(e.val) + " (bound n u); " + (f32 ? "fp32-mode TensorE" : "Ozaki fp64 TensorE") +
           ", fp64 host secular equations";
  c.device = DeviceCost::from(rep.profile);
  return c;
}

template <class T>
void add_syevd(Registry& reg, const char* op, const char* mode) {
  for (int n : {64, 200}) {
    reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = op, .mode = mode,
                           .shape = std::to_string(n) + "x" + std::to_string(n), .metric = "||AV - VW||_F / ||A||_F",
                           .bound_text = "[u/64 (fp32), n u]; ||V^T V - I||_F <= 4 n u; |w - w_dsyevd| <= n u ||A||_2",
                           .size = static_cast<double>(n), .full_only = n > 64,
                           .run = [n] { return syevd_case<T>(n); }});
  }
  for (int n : {128, 256}) {
    reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode,
                      .shape = std::to_string(n) + "x" + std::to_string(n), .full_only = n > 128,
                      .run = [n, op](trn::Generation target) {
                        ts::CallReport rep;
                        BenchResult b;
                        const EigErrors e = run_syevd<T>(target, n, &rep, &b.host_seconds);
                        b.error = e.val;
                        b.error_metric = std::string("max|w - w_dsyevd| / ||A||_2; LAPACKE ") + op + " host " +
                                         sci(e.lapacke_seconds) + " s";
                        const double dn = n;
                        b.flops = 9 * dn * dn * dn;
                        b.device = DeviceCost::from(rep.profile);
                        return b;
                      }});
  }
}

void add_solver_eig(Registry& reg) {
  add_syevd<float>(reg, "ssyevd", "tridiagonal + divide and conquer, fp32 TensorE");
  add_syevd<double>(reg, "dsyevd", "tridiagonal + divide and conquer, Ozaki TensorE");
}

const Registrar kRegistrar(add_solver_eig);

}  // namespace
}  // namespace trnsci::cli
