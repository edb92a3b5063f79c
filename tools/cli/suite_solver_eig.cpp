// `trnsci validate/bench` suite "solver", symmetric eigensolver by tridiagonalization: ?syevd (S, D)
// with the two-sided bounds of docs/trnsolver.md "syevd" against LAPACKE dsyevd's eigenvalues (the
// oracle), and a bench row with LAPACKE ?syevd's host time (same matrix, vectors) in its metric text;
// the row's flop count is 9 n^3 (the usual figure for syevd with vectors). ?sygvd (itype 1) the same
// way against LAPACKE dsygv, with the bounds of docs/trnsolver.md "sygvd" (κ(B) from dsyevd of B);
// ?gesvd and Xtrtri's trtri (S, D, C, Z; validate cases) with the bounds of "gesvd" and "Xtrtri".
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "registry.hpp"
#include "trn/solver/complex_factor.hpp"  // trtri (C, Z)
#include "trn/solver/eig.hpp"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;

template <class T>
struct RealOf {  // the real type of an element type (itself for real ones)
  using type = T;
};
template <class R>
struct RealOf<std::complex<R>> {
  using type = R;
};

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
                        // The call's profile only, as the C entry points ask: syevd's plan predicts its
                        // time by replaying syevd on a synthetic matrix (eig_predict.cpp), a second run
                        // that is not the call and not in its trace (the emulator bound's work).
                        rep.plans_wanted = false;
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

// sygvd, itype 1, B = G G^T / n + I: eigenvalues vs LAPACKE dsygv, residual ||AX - BXW||_F /
// ((||A||_F + ||B||_F max|w|) ||X||_F), ||X^T B X - I||_F, kappa_2(B).
struct GenErrors {
  double res = 0, orth = 0, val = 0, kappa = 0, lapacke_seconds = 0;
};

template <class T>
GenErrors run_sygvd(trn::Generation target, int n, ts::CallReport* rep, double* host_seconds) {
  const std::vector<double> a0 = symmetric(n, 901 + static_cast<std::uint64_t>(n)),
                            g = symmetric(n, 902 + static_cast<std::uint64_t>(n));
  std::vector<double> b0(static_cast<std::size_t>(n) * n, 0.0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double x = i == j ? 1.0 : 0.0;
      for (int k = 0; k < n; ++k) x += g[i + static_cast<std::size_t>(k) * n] * g[j + static_cast<std::size_t>(k) * n] / n;
      b0[i + static_cast<std::size_t>(j) * n] = static_cast<T>(x);
    }
  const std::vector<T> a(a0.begin(), a0.end()), b(b0.begin(), b0.end());
  std::vector<T> x = a, bf = b, w(static_cast<std::size_t>(n));
  ts::Settings s;
  s.target = target;
  const double t0 = now_seconds();
  ts::sygvd(s, 1, true, ts::Uplo::lower, n, x.data(), n, bf.data(), n, w.data(), rep);
  *host_seconds = seconds_since(t0);
  GenErrors e;
  std::vector<T> la = a, lb = b, lw(static_cast<std::size_t>(n));
  const double t1 = now_seconds();
  if constexpr (std::is_same_v<T, float>)
    LAPACKE_ssygvd(LAPACK_COL_MAJOR, 1, 'V', 'L', n, la.data(), n, lb.data(), n, lw.data());
  else
    LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'V', 'L', n, la.data(), n, lb.data(), n, lw.data());
  e.lapacke_seconds = seconds_since(t1);
  std::vector<double> ra(a.begin(), a.end()), rb(b.begin(), b.end()), wref(static_cast<std::size_t>(n)), bw(wref);
  LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'N', 'L', n, ra.data(), n, rb.data(), n, wref.data());
  std::vector<double> bk(b.begin(), b.end());
  LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, bk.data(), n, bw.data());
  e.kappa = bw.back() / bw.front();
  const auto at = [n](const std::vector<T>& m, int i, int j) { return static_cast<long double>(m[i + static_cast<std::size_t>(j) * n]); };
  const double lmax = std::max(std::fabs(wref.front()), std::fabs(wref.back()));
  long double rr = 0, oo = 0, an = 0, bn = 0, xn = 0;
  std::vector<long double> bx(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      long double ax = 0, y = 0;
      for (int k = 0; k < n; ++k) {
        ax += at(a, i, k) * at(x, k, j);
        y += at(b, i, k) * at(x, k, j);
      }
      bx[static_cast<std::size_t>(i)] = y;
      rr += (ax - y * w[j]) * (ax - y * w[j]);
      an += at(a, i, j) * at(a, i, j);
      bn += at(b, i, j) * at(b, i, j);
      xn += at(x, i, j) * at(x, i, j);
    }
    for (int i = 0; i < n; ++i) {  // column j of X^T B X - I
      long double d = i == j ? -1 : 0;
      for (int k = 0; k < n; ++k) d += at(x, k, i) * bx[static_cast<std::size_t>(k)];
      oo += d * d;
    }
  }
  e.res = static_cast<double>(std::sqrt(rr) / ((std::sqrt(an) + std::sqrt(bn) * lmax) * std::sqrt(xn)));
  e.orth = static_cast<double>(std::sqrt(oo));
  for (int j = 0; j < n; ++j) e.val = std::max(e.val, std::fabs(double(w[j]) - wref[j]) / lmax);
  return e;
}

// docs/trnsolver.md "sygvd": residual in [u/64 (fp32), 8 n u kappa(B)], ||X^T B X - I||_F <= 8 n^1.5 u
// kappa(B), max|w - w_dsygv| <= 8 n u kappa(B) max|w|.
template <class T>
CaseResult sygvd_case(int n) {
  constexpr bool f32 = std::is_same_v<T, float>;
  const double u = f32 ? 0x1p-24 : 0x1p-53;
  ts::CallReport rep;
  CaseResult c;
  const GenErrors e = run_sygvd<T>(trn::Generation::trn1, n, &rep, &c.host_seconds);
  const double bound = 8 * n * u * e.kappa;
  c.measured = e.res;
  c.bound = bound;
  c.lower = f32 ? u / 64 : 0;
  c.pass = c.measured >= c.lower && c.measured <= c.bound && e.orth <= bound * std::sqrt(double(n)) && e.val <= bound;
  c.note = "kappa(B) = " + sci(e.kappa) + "; ||X^T B X - I||_F = " + sci(e.orth) + " (bound 8 n^1.5 u kappa = " +
           sci(bound * std::sqrt(double(n))) + "); max|w - w_dsygv|/max|w| = " + sci(e.val) + " (bound 8 n u kappa)";
  c.device = DeviceCost::from(rep.profile);
  return c;
}

template <class T>
void add_sygvd(Registry& reg, const char* op, const char* mode) {
  reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = op, .mode = mode, .shape = "64x64 itype 1",
                         .metric = "||AX - BXW||_F / ((||A||_F + ||B||_F max|w|) ||X||_F)",
                         .bound_text = "[u/64 (fp32), 8 n u kappa(B)]; ||X^T B X - I||_F <= 8 n^1.5 u kappa(B); "
                                       "|w - w_dsygv| <= 8 n u kappa(B) max|w|",
                         .size = 64.0, .run = [] { return sygvd_case<T>(64); }});
  reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode, .shape = "128x128 itype 1",
                    .run = [op](trn::Generation target) {
                      ts::CallReport rep;
                      rep.plans_wanted = false;  // the call's profile only: syevd's plan replays syevd
                      BenchResult b;
                      const GenErrors e = run_sygvd<T>(target, 128, &rep, &b.host_seconds);
                      b.error = e.val;
                      b.error_metric = std::string("max|w - w_dsygv| / max|w|; LAPACKE ") + op + " host " +
                                       sci(e.lapacke_seconds) + " s";
                      const double dn = 128;
                      b.flops = 14 * dn * dn * dn;  // syevd's 9 n^3, potrf n^3/3, reduction and back-transform
                      b.device = DeviceCost::from(rep.profile);
                      return b;
                    }});
}

// gesvd (jobu = jobvt = 'A') on a random m x n: ||A - U S V^T||_F / ||A||_F in [u/64 (fp32), 8 n^1.5 u];
// ||U^T U - I||_F <= 8 m^1.5 u, max|s - s_dgesvd| <= 8 m u s_1 (docs/trnsolver.md "gesvd").
template <class T>
CaseResult gesvd_case(int m, int n, trn::Generation target = trn::Generation::trn1) {
  constexpr bool f32 = std::is_same_v<T, float>;
  const double u = f32 ? 0x1p-24 : 0x1p-53;
  const std::vector<double> g = symmetric(m, 431);  // its first n columns: a dense m x n
  const std::vector<T> a(g.begin(), g.begin() + static_cast<std::ptrdiff_t>(m) * n);
  std::vector<T> w = a, s(static_cast<std::size_t>(n)), uu(static_cast<std::size_t>(m) * m), vt(static_cast<std::size_t>(n) * n);
  ts::CallReport rep;
  CaseResult c;
  const double t0 = now_seconds();
  ts::Settings st;
  st.target = target;
  const int info = ts::gesvd(st, 'A', 'A', m, n, w.data(), m, s.data(), uu.data(), m, vt.data(), n, &rep);
  c.host_seconds = seconds_since(t0);
  std::vector<double> r(a.begin(), a.end()), sref(static_cast<std::size_t>(n)), sup(static_cast<std::size_t>(n)), d(1);
  LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, r.data(), m, sref.data(), d.data(), 1, d.data(), 1, sup.data());
  long double rr = 0, an = 0, oo = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      long double x = a[i + static_cast<std::size_t>(j) * m];
      an += x * x;
      for (int k = 0; k < n; ++k) x -= (long double)uu[i + static_cast<std::size_t>(k) * m] * s[k] * vt[k + static_cast<std::size_t>(j) * n];
      rr += x * x;
    }
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      long double x = i == j ? -1 : 0;
      for (int k = 0; k < m; ++k) x += (long double)uu[k + static_cast<std::size_t>(i) * m] * uu[k + static_cast<std::size_t>(j) * m];
      oo += x * x;
    }
  double val = 0;
  for (int k = 0; k < n; ++k) val = std::max(val, std::fabs(double(s[k]) - sref[k]) / sref[0]);
  const double orth = static_cast<double>(std::sqrt(oo));
  c.measured = static_cast<double>(std::sqrt(rr / an));
  c.bound = 8 * std::pow(n, 1.5) * u;
  c.lower = f32 ? u / 64 : 0;
  c.pass = info == 0 && c.measured >= c.lower && c.measured <= c.bound && orth <= 8 * std::pow(m, 1.5) * u &&
           val <= 8 * m * u;
  c.note = "||U^T U - I||_F = " + sci(orth) + " (bound 8 m^1.5 u); max|s - s_dgesvd|/s_1 = " + sci(val) +
           " (bound 8 m u); one-sided Jacobi (gesvdj) behind xGESVD's interface";
  c.device = DeviceCost::from(rep.profile);
  return c;
}

// trtri (upper, non-unit, diagonal in [1, 3] (complex: plus an imaginary part in (-1, 1)), off-diagonal
// O(1/n)): max|T X - I| in [u/64 (fp32, C), 8 n u (S, D) or 16 n u (C, Z)] (docs/trnsolver.md "Xtrtri").
template <class T>
CaseResult trtri_case(int n, trn::Generation target = trn::Generation::trn1) {
  constexpr bool cx = !std::is_floating_point_v<T>;
  using R = typename RealOf<T>::type;
  using L = std::conditional_t<cx, std::complex<long double>, long double>;  // the residual's accumulator
  constexpr bool f32 = std::is_same_v<R, float>;
  const double u = f32 ? 0x1p-24 : 0x1p-53;
  const std::vector<double> g = symmetric(n, 433), gi = symmetric(n, 434);
  const auto make = [](double re, double im) {
    if constexpr (cx) return T(static_cast<R>(re), static_cast<R>(im));
    else return static_cast<T>(re);
  };
  std::vector<T> t(static_cast<std::size_t>(n) * n, T(0));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) {
      const std::size_t k = i + static_cast<std::size_t>(j) * n;
      t[k] = i == j ? make(2.0 + std::tanh(g[k]), std::tanh(gi[k])) : make(g[k] / n, gi[k] / n);
    }
  std::vector<T> x = t;
  ts::CallReport rep;
  CaseResult c;
  const double t0 = now_seconds();
  ts::Settings st;
  st.target = target;
  const int info = ts::trtri(st, ts::Uplo::upper, false, n, x.data(), n, &rep);
  c.host_seconds = seconds_since(t0);
  double rmax = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) {
      L r = i == j ? L(-1) : L(0);
      for (int k = i; k <= j; ++k) r += L(t[i + static_cast<std::size_t>(k) * n]) * L(x[k + static_cast<std::size_t>(j) * n]);
      rmax = std::max(rmax, static_cast<double>(std::abs(r)));
    }
  c.measured = rmax;
  c.bound = (cx ? 16 : 8) * n * u;
  c.lower = f32 ? u / 64 : 0;
  c.pass = info == 0 && c.measured >= c.lower && c.measured <= c.bound;
  c.note = cx ? (f32 ? "T X = I by trnblas ctrsm on TensorE (4M, fp32)" : "T X = I by trnblas ztrsm (Ozaki updates on TensorE, fp64 diagonal blocks on the host)")
              : f32 ? "T X = I on the triangular-solve tile kernel" : "fp64 host substitution (a recorded host step)";
  c.device = DeviceCost::from(rep.profile);
  return c;
}

void add_gesvd_trtri(Registry& reg) {
  for (bool f32 : {true, false}) {
    reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = f32 ? "sgesvd" : "dgesvd",
                      .variant = "jobu = jobvt = A, one-sided Jacobi", .shape = "128x96",
                      .run = [f32](trn::Generation target) {
                        const CaseResult c = f32 ? gesvd_case<float>(128, 96, target) : gesvd_case<double>(128, 96, target);
                        return bench_of(c, "||A - U S V^T||_F / ||A||_F", 4.0 * 128 * 128 * 96 + 22.0 * 96 * 96 * 96);
                      }});
    reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = f32 ? "Xtrtri R_32F" : "Xtrtri R_64F",
                      .variant = f32 ? "triangular-solve tile kernel" : "fp64 host substitution", .shape = "256x256 upper",
                      .run = [f32](trn::Generation target) {
                        const CaseResult c = f32 ? trtri_case<float>(256, target) : trtri_case<double>(256, target);
                        return bench_of(c, "max |T X - I|", 256.0 * 256 * 256 / 3);
                      }});
    reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = f32 ? "sgesvd" : "dgesvd",
                           .mode = "jobu = jobvt = A, one-sided Jacobi", .shape = "64x40",
                           .metric = "||A - U S V^T||_F / ||A||_F",
                           .bound_text = "[u/64 (fp32), 8 n^1.5 u]; ||U^T U - I||_F <= 8 m^1.5 u; |s - s_dgesvd| <= 8 m u s_1",
                           .size = 64.0,
                           .run = [f32] { return f32 ? gesvd_case<float>(64, 40) : gesvd_case<double>(64, 40); }});
    reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = f32 ? "Xtrtri R_32F" : "Xtrtri R_64F",
                           .mode = f32 ? "triangular-solve tile kernel" : "fp64 host substitution", .shape = "96x96 upper",
                           .metric = "max |T X - I|", .bound_text = "[u/64 (fp32), 8 n u]", .size = 96.0,
                           .run = [f32] { return f32 ? trtri_case<float>(96) : trtri_case<double>(96); }});
  }
  // Complex Xtrtri (C_32F, C_64F): trnblas ctrsm / ztrsm on the identity; 4 n^3 / 3 real flops (xTRTRI's
  // n^3 / 3 complex multiply-adds).
  for (bool c32 : {true, false}) {
    const char* op = c32 ? "Xtrtri C_32F" : "Xtrtri C_64F";
    const char* how = c32 ? "ctrsm on TensorE (4M, fp32)" : "ztrsm (Ozaki updates, host fp64 diagonal blocks)";
    reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = how, .shape = "256x256 upper",
                      .run = [c32](trn::Generation target) {
                        const CaseResult c = c32 ? trtri_case<std::complex<float>>(256, target)
                                                 : trtri_case<std::complex<double>>(256, target);
                        return bench_of(c, "max |T X - I|", 4.0 * 256 * 256 * 256 / 3);
                      }});
    reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = op, .mode = how, .shape = "96x96 upper",
                           .metric = "max |T X - I|", .bound_text = c32 ? "[u/64, 16 n u]" : "[0, 16 n u]", .size = 96.0,
                           .run = [c32] {
                             return c32 ? trtri_case<std::complex<float>>(96) : trtri_case<std::complex<double>>(96);
                           }});
  }
}

void add_solver_eig(Registry& reg) {
  add_syevd<float>(reg, "ssyevd", "tridiagonal + divide and conquer, fp32 TensorE");
  add_syevd<double>(reg, "dsyevd", "tridiagonal + divide and conquer, Ozaki TensorE");
  add_sygvd<float>(reg, "ssygvd", "Cholesky reduction + syevd, fp32 TensorE");
  add_sygvd<double>(reg, "dsygvd", "Cholesky reduction + syevd, Ozaki TensorE");
  add_gesvd_trtri(reg);
}

const Registrar kRegistrar(add_solver_eig);

}  // namespace
}  // namespace trnsci::cli
