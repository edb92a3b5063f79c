// `trnsci validate/bench` suite "solver", complex Hermitian eigen beyond heevd and complex Jacobi (C, Z):
// heevdx (index range), hegvd, hegvdx, heevj, heevjBatched, hegvj, gesvdj, gesvdjBatched with the
// bounds of docs/trnsolver.md "Complex Hermitian eigen and complex Jacobi" (LAPACKE zheevd / zhegvd /
// zgesvd in double complex: oracles only; residuals in long double, tests/reference/factor_oracles.hpp).
// Bench rows count the heevd-equivalent flops 4 (4/3 + 2) n^3 (gesvdj: 4 (4 m n^2)), so rows compare.
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
#include "trn/solver/complex_eig.hpp"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;
using ZC = std::complex<double>;
using LC = std::complex<long double>;

template <class T>
constexpr bool kFp32 = std::is_same_v<T, std::complex<float>>;
constexpr double kRes = 4, kOrth = 4, kVal = 4, kKappa = 10;  // docs/trnsolver.md
constexpr int kBatch = 4;

template <class T>
std::vector<T> gaussian(int m, int n, std::uint64_t seed) {
  return complex_matrix::random_matrix<T>(m, n, m, seed);
}
template <class T>
std::vector<T> hermitian(int n, std::uint64_t seed, bool definite) {
  return definite ? complex_matrix::hpd_matrix<T>(n, n, seed) : complex_matrix::hermitian_matrix<T>(n, n, seed);
}

// What a run measured: the primary metric (residual or eigenvalue error), orthogonality, the eigenvalue or
// singular value error against LAPACKE (relative to the largest), host time, the report.
struct Measure {
  double res = 0, orth = 0, val = 0, host_seconds = 0;
  ts::CallReport rep;
};

double max_rel(const std::vector<double>& ref, const auto& got, std::size_t lo, std::size_t count) {
  double top = 0, err = 0;
  for (double x : ref) top = std::max(top, std::fabs(x));
  for (std::size_t j = 0; j < count; ++j) err = std::max(err, std::fabs(double(got[j]) - ref[lo + j]));
  return err / top;
}
std::vector<double> zheevd_ref(int n, const auto& a) {
  std::vector<ZC> z(a.begin(), a.end());
  std::vector<double> w(static_cast<std::size_t>(n));
  LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', n, reinterpret_cast<lapack_complex_double*>(z.data()), n, w.data());
  return w;
}

// heevdx (range I: eigenvalues n/4 + 1 .. 3n/4), heevj, heevjBatched ('x', 'j', 'b').
template <class T>
Measure run_standard(char kind, trn::Generation target, int n) {
  using R = typename T::value_type;
  const int count = kind == 'b' ? kBatch : 1;
  std::vector<T> a0(static_cast<std::size_t>(n) * n * count);
  for (int k = 0; k < count; ++k) {
    const std::vector<T> one = hermitian<T>(n, 1100 + static_cast<std::uint64_t>(n + k), false);
    std::copy(one.begin(), one.end(), a0.begin() + static_cast<std::ptrdiff_t>(n) * n * k);
  }
  std::vector<T> v = a0;
  std::vector<R> w(static_cast<std::size_t>(n) * count);
  ts::Settings s;
  s.target = target;
  Measure r;
  std::int64_t m = n, lo = 0;
  const double t0 = now_seconds();
  if (kind == 'x') {
    lo = n / 4;
    ts::heevdx(s, true, ts::EigSelect{ts::EigRange::index, 0, 0, n / 4 + 1, 3 * n / 4}, ts::Uplo::lower, n, v.data(),
               n, &m, w.data(), &r.rep);
  } else if (kind == 'j') {
    ts::heevj(s, true, ts::Uplo::lower, n, v.data(), n, w.data(), ts::SyevjParams{}, &r.rep);
  } else {
    ts::heevj_batched(s, true, ts::Uplo::lower, n, v.data(), n, w.data(), ts::SyevjParams{}, count, &r.rep);
  }
  r.host_seconds = seconds_since(t0);
  const long double na = factor_oracle::frob(n, n, [&](std::int64_t i, std::int64_t j) { return LC(a0[i + j * n]); });
  r.res = double(factor_oracle::frob(n, m, [&](std::int64_t i, std::int64_t j) {
            LC t = -LC(v[i + j * n]) * static_cast<long double>(w[j]);
            for (int k = 0; k < n; ++k) t += LC(a0[i + k * n]) * LC(v[k + j * n]);
            return t;
          }) / na);
  r.orth = double(factor_oracle::frob(m, m, [&](std::int64_t i, std::int64_t j) {
    LC t = i == j ? LC(-1) : LC(0);
    for (int k = 0; k < n; ++k) t += std::conj(LC(v[k + i * n])) * LC(v[k + j * n]);
    return t;
  }));
  r.val = max_rel(zheevd_ref(n, std::vector<T>(a0.begin(), a0.begin() + static_cast<std::ptrdiff_t>(n) * n)), w,
                  static_cast<std::size_t>(lo), static_cast<std::size_t>(m));
  return r;
}

// hegvd, hegvdx (index range), hegvj ('g', 'G', 'J'), itype 1: the eigenvalues against zhegvd (res = that
// error relative to max |lambda|), orth = ||X^H B X - I||_F.
template <class T>
Measure run_general(char kind, trn::Generation target, int n) {
  using R = typename T::value_type;
  const std::vector<T> a0 = hermitian<T>(n, 1200 + static_cast<std::uint64_t>(n), false);
  const std::vector<T> b0 = hermitian<T>(n, 1300 + static_cast<std::uint64_t>(n), true);
  std::vector<T> a = a0, b = b0;
  std::vector<R> w(static_cast<std::size_t>(n));
  ts::Settings s;
  s.target = target;
  Measure r;
  std::int64_t m = n, lo = 0;
  const double t0 = now_seconds();
  if (kind == 'g')
    ts::hegvd(s, 1, true, ts::Uplo::lower, n, a.data(), n, b.data(), n, w.data(), &r.rep);
  else if (kind == 'G')
    lo = n / 4, ts::hegvdx(s, 1, true, ts::EigSelect{ts::EigRange::index, 0, 0, n / 4 + 1, 3 * n / 4}, ts::Uplo::lower,
                           n, a.data(), n, b.data(), n, &m, w.data(), &r.rep);
  else
    ts::hegvj(s, 1, true, ts::Uplo::lower, n, a.data(), n, b.data(), n, w.data(), ts::SyevjParams{}, &r.rep);
  r.host_seconds = seconds_since(t0);
  std::vector<ZC> za(a0.begin(), a0.end()), zb(b0.begin(), b0.end());
  std::vector<double> ref(static_cast<std::size_t>(n));
  LAPACKE_zhegvd(LAPACK_COL_MAJOR, 1, 'N', 'L', n, reinterpret_cast<lapack_complex_double*>(za.data()), n,
                 reinterpret_cast<lapack_complex_double*>(zb.data()), n, ref.data());
  r.res = r.val = max_rel(ref, w, static_cast<std::size_t>(lo), static_cast<std::size_t>(m));
  r.orth = double(factor_oracle::frob(m, m, [&](std::int64_t i, std::int64_t j) {
    LC t = i == j ? LC(-1) : LC(0);
    for (int k = 0; k < n; ++k)
      for (int l = 0; l < n; ++l) t += std::conj(LC(a[k + i * n])) * LC(b0[k + l * n]) * LC(a[l + j * n]);
    return t;
  }));
  return r;
}

// gesvdj (econ, (n + n/2) x n) and gesvdjBatched (kBatch of n x n): ||A - U S V^H||_F / ||A||_F,
// max(||U^H U - I||, ||V^H V - I||), singular values against zgesvd.
template <class T>
Measure run_svd(char kind, trn::Generation target, int n) {
  using R = typename T::value_type;
  const bool batched = kind == 'S';
  const int m = batched ? n : n + n / 2, count = batched ? kBatch : 1, uc = batched ? m : n;
  const std::vector<T> a0 = gaussian<T>(m, n * count, 1400 + static_cast<std::uint64_t>(n));
  std::vector<T> a = a0, U(static_cast<std::size_t>(m) * uc * count), V(static_cast<std::size_t>(n) * n * count);
  std::vector<R> sv(static_cast<std::size_t>(n) * count);
  ts::Settings s;
  s.target = target;
  Measure r;
  const double t0 = now_seconds();
  if (batched)
    ts::gesvdj_batched(s, true, m, n, a.data(), m, sv.data(), U.data(), m, V.data(), n, ts::GesvdjParams{}, count, &r.rep);
  else
    ts::gesvdj(s, true, true, m, n, a.data(), m, sv.data(), U.data(), m, V.data(), n, ts::GesvdjParams{}, &r.rep);
  r.host_seconds = seconds_since(t0);
  const long double na = factor_oracle::frob(m, n, [&](std::int64_t i, std::int64_t j) { return LC(a0[i + j * m]); });
  r.res = double(factor_oracle::frob(m, n, [&](std::int64_t i, std::int64_t j) {
            LC t = LC(a0[i + j * m]);
            for (int k = 0; k < n; ++k) t -= LC(U[i + k * m]) * static_cast<long double>(sv[k]) * std::conj(LC(V[j + k * n]));
            return t;
          }) / na);
  auto orth = [&](const std::vector<T>& q, int rows, int cols) {
    return double(factor_oracle::frob(cols, cols, [&](std::int64_t i, std::int64_t j) {
      LC t = i == j ? LC(-1) : LC(0);
      for (int k = 0; k < rows; ++k) t += std::conj(LC(q[k + i * rows])) * LC(q[k + j * rows]);
      return t;
    }));
  };
  r.orth = std::max(orth(U, m, n), orth(V, n, n));
  std::vector<ZC> z(a0.begin(), a0.begin() + static_cast<std::ptrdiff_t>(m) * n);
  std::vector<double> ref(static_cast<std::size_t>(n)), sup(ref.size());
  LAPACKE_zgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, reinterpret_cast<lapack_complex_double*>(z.data()), m, ref.data(),
                 nullptr, 1, nullptr, 1, sup.data());
  r.val = max_rel(ref, sv, 0, static_cast<std::size_t>(n));
  return r;
}

template <class T>
Measure run_kind(char kind, trn::Generation target, int n) {
  if (kind == 'g' || kind == 'G' || kind == 'J') return run_general<T>(kind, target, n);
  if (kind == 's' || kind == 'S') return run_svd<T>(kind, target, n);
  return run_standard<T>(kind, target, n);
}

bool generalized(char kind) { return kind == 'g' || kind == 'G' || kind == 'J'; }

// Primary metric in [u/64 (C), c n u] (generalized: the eigenvalue error <= kVal kappa n u); orthogonality
// <= kOrth n u (generalized: X^H B X = I to kOrth kappa n u); eigenvalues / singular values kVal n u.
template <class T>
CaseResult eig_case(char kind, int n) {
  const double u = kFp32<T> ? 0x1p-24 : 0x1p-53, nu = (kind == 's' ? n + n / 2 : n) * u;
  const double k = generalized(kind) ? kKappa : 1;
  const Measure r = run_kind<T>(kind, trn::Generation::trn1, n);
  CaseResult c;
  c.measured = r.res;
  c.bound = (generalized(kind) ? kVal : kRes) * k * nu;
  if (kFp32<T>) c.lower = u / 64;
  c.pass = c.measured <= c.bound && (!kFp32<T> || c.measured >= c.lower) && r.orth <= kOrth * k * nu &&
           r.val <= kVal * k * nu;
  c.note = "orthogonality " + sci(r.orth) + " (bound " + sci(kOrth * k * nu) + "); values vs LAPACKE " + sci(r.val) +
           " (bound " + sci(kVal * k * nu) + ")";
  c.host_seconds = r.host_seconds;
  c.device = DeviceCost::from(r.rep.profile);
  return c;
}

struct Routine {
  char kind;
  const char* name;  // without the C/Z prefix
  const char* metric;
  const char* algorithm;
};
constexpr Routine kRoutines[] = {
    {'x', "heevdx", "||A V - V Lambda||_F / ||A||_F (range I)", "hetrd + D&C + unmqr of the selection"},
    {'g', "hegvd", "max |lambda - zhegvd| / max |lambda|", "potrf + 2 TRSM + heevd + TRSM"},
    {'G', "hegvdx", "max |lambda - zhegvd| / max |lambda| (range I)", "potrf + 2 TRSM + heevdx + TRSM"},
    {'j', "heevj", "||A V - V Lambda||_F / ||A||_F", "block Jacobi, host fp64 pairs + GEMM rotations"},
    {'b', "heevjBatched", "||A V - V Lambda||_F / ||A||_F (first)", "block Jacobi per matrix"},
    {'J', "hegvj", "max |lambda - zhegvd| / max |lambda|", "potrf + 2 TRSM + heevj + TRSM"},
    {'s', "gesvdj", "||A - U S V^H||_F / ||A||_F (econ, 1.5n x n)", "one-sided block Jacobi, Gram + GEMM rotations"},
    {'S', "gesvdjBatched", "||A - U S V^H||_F / ||A||_F (first)", "one-sided block Jacobi per matrix"},
};

template <class T>
void add_routines(Registry& reg) {
  const std::string p = kFp32<T> ? "c" : "z", mode = kFp32<T> ? "fp32 4M TensorE" : "Ozaki fp64 4M TensorE";
  for (const Routine& rt : kRoutines) {
    const char kind = rt.kind;
    const bool small = kind == 'b' || kind == 'S';  // cuSOLVER's batched forms: n <= 32
    for (int n : {small ? 16 : 48, small ? 32 : 96})
      reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = p + rt.name, .mode = mode,
                             .shape = std::to_string(n) + "x" + std::to_string(n), .metric = rt.metric,
                             .bound_text = "docs/trnsolver.md \"Complex Hermitian eigen and complex Jacobi\"",
                             .size = static_cast<double>(n), .full_only = n > 48,
                             .run = [kind, n] { return eig_case<T>(kind, n); }});
    for (int n : small ? std::vector<int>{32} : std::vector<int>{64, 128}) {
      reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = p + rt.name,
                        .variant = std::string(rt.algorithm) + ", " + mode,
                        .shape = std::to_string(n) + "x" + std::to_string(n), .full_only = n > 64,
                        .run = [kind, n, metric = rt.metric](trn::Generation target) {
                          const Measure r = run_kind<T>(kind, target, n);
                          BenchResult b;
                          b.host_seconds = r.host_seconds;
                          b.error = r.res;
                          b.error_metric = metric;
                          const double dn = n, count = (kind == 'b' || kind == 'S') ? kBatch : 1;
                          b.flops = count * 4.0 * (kind == 's' ? 4.0 * 1.5 : 4.0 / 3 + 2.0) * dn * dn * dn;
                          b.device = DeviceCost::from(r.rep.profile);
                          return b;
                        }});
    }
  }
}

void add_solver_complex_eig(Registry& reg) {
  add_routines<std::complex<float>>(reg);
  add_routines<std::complex<double>>(reg);
}

const Registrar kRegistrar(add_solver_complex_eig);

}  // namespace
}  // namespace trnsci::cli
