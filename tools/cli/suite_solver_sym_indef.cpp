// `trnsci validate/bench` suite "solver", symmetric indefinite and the inverse helpers (misc, #27):
// ?sytrf (S, D, C, Z: the backward error of LAPACKE ?sytrs run on OUR factors, which it accepts only
// in LAPACK's storage and ipiv convention), ?sytrs, ?sytri, ?lauum, ?potri, ?larft (S, D) and dlaswp
// with the bounds of docs/trnsolver.md "Symmetric indefinite (sytrf) and inverses"; LAPACKE is the
// oracle, never in the library. Bench rows: the same cases at a larger n, flops the usual figures.
// C/Z sytri, lauum, potri (Hermitian positive definite, factor by LAPACKE zpotrf) and laswp (exact
// against LAPACKE zlaswp) were added by the #27 audit (s10/solvval); Xsytrs (S, D, C, Z), Xlarft C_32F /
// C_64F (against LAPACKE zlarft) through the C entry points, and slaswp by s13/solvgap.
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "complex_matrices.hpp"
#include "registry.hpp"
#include "solver_data.hpp"
#include "trn/solver/complex_factor.hpp"  // potri (C, Z)
#include "trn/solver/sym_indef.hpp"
#include "trnsolver.h"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;
using LC = std::complex<long double>;

template <class T>
constexpr bool kCx = !std::is_floating_point_v<T>;
template <class T>
double unit() {
  return std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>> ? 0x1p-24 : 0x1p-53;
}
template <class T>
LC lc(T x) {
  if constexpr (kCx<T>)
    return LC(x.real(), x.imag());
  else
    return LC(static_cast<long double>(x), 0);
}
template <class T>
T from(double re, double im) {
  if constexpr (kCx<T>)
    return T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(im));
  else
    return static_cast<T>(re);
}

// Symmetric (complex symmetric for C/Z), N(0, 1) entries; spd: B^T B / n + I instead (real).
template <class T>
std::vector<T> sym_data(int n, std::uint64_t seed, bool spd = false) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd;
  std::vector<double> g(static_cast<std::size_t>(n) * n);
  for (auto& x : g) x = nd(rng);
  std::vector<T> a(g.size());
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) {
      double re = g[i + static_cast<std::size_t>(j) * n], im = kCx<T> ? g[j + static_cast<std::size_t>(i) * n] : 0.0;
      if (spd) {
        re = i == j ? 1.0 : 0.0;
        for (int k = 0; k < n; ++k)
          re += g[k + static_cast<std::size_t>(i) * n] * g[k + static_cast<std::size_t>(j) * n] / n;
        im = 0;
      }
      a[i + static_cast<std::size_t>(j) * n] = a[j + static_cast<std::size_t>(i) * n] = from<T>(re, im);
    }
  return a;
}

// ||A X - B||_F / (||A||_F ||X||_F) in long double (A n x n full, X and B n x r).
template <class T, class X, class B>
double backward_error(int n, int r, const std::vector<T>& a, const X& x, const B& b) {
  long double res = 0, na = 0, nx = 0;
  for (int c = 0; c < r; ++c)
    for (int i = 0; i < n; ++i) {
      LC s = -lc(b[i + static_cast<std::size_t>(c) * n]);
      for (int k = 0; k < n; ++k)
        s += lc(a[i + static_cast<std::size_t>(k) * n]) * lc(x[k + static_cast<std::size_t>(c) * n]);
      res += std::norm(s);
      nx += std::norm(lc(x[i + static_cast<std::size_t>(c) * n]));
    }
  for (const T& v : a) na += std::norm(lc(v));
  return static_cast<double>(std::sqrt(res / (na * nx)));
}

// The full symmetric matrix from the uplo triangle of an n x n result.
// hermitian: the other triangle is the conjugate (potri's A^-1 for C/Z), else the transpose.
template <class T>
std::vector<T> full_from(const std::vector<T>& t, int n, bool upper, bool hermitian = false) {
  std::vector<T> f(t.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const bool stored = upper ? i <= j : i >= j;
      T x = stored ? t[i + static_cast<std::size_t>(j) * n] : t[j + static_cast<std::size_t>(i) * n];
      if constexpr (kCx<T>)
        if (hermitian && !stored) x = std::conj(x);
      f[i + static_cast<std::size_t>(j) * n] = x;
    }
  return f;
}

ts::Settings on(trn::Generation target) {
  ts::Settings s;
  s.target = target;
  return s;
}

// host_seconds: the library call's alone, taken before the error measure (an O(n^3) long-double
// residual for sytri / potri / lauum that the row used to time with the call).
CaseResult finish(CaseResult c, double measured, double lower, double bound, const ts::CallReport& rep,
                  double host_seconds, std::string note) {
  c.host_seconds = host_seconds;
  c.measured = measured;
  c.lower = lower;
  c.bound = bound;
  c.pass = measured >= lower && measured <= bound;
  c.note = std::move(note);
  c.device = DeviceCost::from(rep.profile);
  return c;
}

// kind 'f' sytrf (LAPACKE ?sytrs on our factors), 's' sytrs, 'i' sytri, 'p' potri (factor by
// LAPACKE dpotrf), 'l' lauum; the metric is a backward error (lauum: relative error of the product).
template <class T>
CaseResult sym_case(char kind, int n, trn::Generation target = trn::Generation::trn1) {
  const double u = unit<T>(), lower = std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>> ? 0 : u / 64;
  const bool upper = n % 2 == 0;  // both triangles over the sizes the registry uses
  const auto uplo = upper ? ts::Uplo::upper : ts::Uplo::lower;
  std::vector<T> a = sym_data<T>(n, 4242 + static_cast<std::uint64_t>(n), kind == 'p');
  if constexpr (kCx<T>)  // potri C/Z: Hermitian positive definite B^H B / n + I with complex entries
    if (kind == 'p') a = complex_matrix::hpd_matrix<T>(n, n, 4242 + static_cast<std::uint64_t>(n));
  std::vector<T> f = a, rhs(static_cast<std::size_t>(n) * 2);
  for (std::size_t i = 0; i < rhs.size(); ++i) rhs[i] = from<T>(std::sin(1.0 + static_cast<double>(i)), 0.25);
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  ts::CallReport rep;
  CaseResult c;
  double t0 = now_seconds();
  if (kind == 'p') {
    using W = std::conditional_t<kCx<T>, std::complex<double>, double>;
    std::vector<W> d(a.begin(), a.end());
    if constexpr (kCx<T>)
      LAPACKE_zpotrf(LAPACK_COL_MAJOR, upper ? 'U' : 'L', n, reinterpret_cast<lapack_complex_double*>(d.data()), n);
    else
      LAPACKE_dpotrf(LAPACK_COL_MAJOR, upper ? 'U' : 'L', n, d.data(), n);
    for (std::size_t i = 0; i < a.size(); ++i) f[i] = static_cast<T>(d[i]);
    t0 = now_seconds();
    const int info = ts::potri(on(target), uplo, n, f.data(), n, &rep);
    const double secs = seconds_since(t0);
    std::vector<T> id(f.size(), T(0));
    for (int i = 0; i < n; ++i) id[i + static_cast<std::size_t>(i) * n] = T(1);
    if (info != 0) return finish(c, INFINITY, 0, 8.0 * n * u, rep, secs, "potri info " + std::to_string(info));
    return finish(c, backward_error(n, n, a, full_from(f, n, upper, true), id), 0, 8.0 * n * u, rep, secs,
                  "||A X - I||_F / (||A||_F ||X||_F); trtri + lauum (GEMM on TensorE)");
  }
  if (kind == 'l') {
    ts::lauum(on(target), uplo, n, f.data(), n, &rep);
    const double secs = seconds_since(t0);
    long double err = 0, ref = 0;
    for (int j = 0; j < n; ++j)
      for (int i = upper ? 0 : j; i < (upper ? j + 1 : n); ++i) {
        LC s = 0;
        for (int k = upper ? j : i; k < n; ++k)
          s += upper
                   ? lc(a[i + static_cast<std::size_t>(k) * n]) * std::conj(lc(a[j + static_cast<std::size_t>(k) * n]))
                   : std::conj(lc(a[k + static_cast<std::size_t>(i) * n])) * lc(a[k + static_cast<std::size_t>(j) * n]);
        err += std::norm(lc(f[i + static_cast<std::size_t>(j) * n]) - s);
        ref += std::norm(s);
      }
    return finish(c, static_cast<double>(std::sqrt(err / ref)), lower, 4.0 * n * u, rep, secs,
                  "||E||_F / ||U U^H||_F against a long-double product; one GEMM on TensorE");
  }
  const int info = ts::sytrf(on(target), uplo, n, f.data(), n, ipiv.data(), kind == 'f' ? &rep : nullptr);
  const double factor_secs = seconds_since(t0);
  if (kind == 'i') {
    t0 = now_seconds();
    ts::sytri(on(target), uplo, n, f.data(), n, ipiv.data(), &rep);
    const double secs = seconds_since(t0);
    std::vector<T> id(f.size(), T(0));
    for (int i = 0; i < n; ++i) id[i + static_cast<std::size_t>(i) * n] = T(1);
    return finish(c, backward_error(n, n, a, full_from(f, n, upper), id), 0, 8.0 * n * u, rep, secs,
                  "||A X - I||_F / (||A||_F ||X||_F); sytrs on I, fp64 host");
  }
  if (kind == 's') {
    t0 = now_seconds();
    std::vector<T> x = rhs;
    ts::sytrs(on(target), uplo, n, 2, f.data(), n, ipiv.data(), x.data(), n, &rep);
    const double secs = seconds_since(t0);
    return finish(c, backward_error(n, 2, a, x, rhs), lower, 8.0 * n * u, rep, secs,
                  "||A X - B||_F / (||A||_F ||X||_F); product-form solve, fp64 host");
  }
  using W = std::conditional_t<kCx<T>, std::complex<double>, double>;
  std::vector<W> fw(f.begin(), f.end()), x(rhs.begin(), rhs.end());
  std::vector<lapack_int> piv(ipiv.begin(), ipiv.end());
  if constexpr (kCx<T>)
    LAPACKE_zsytrs(LAPACK_COL_MAJOR, upper ? 'U' : 'L', n, 2, reinterpret_cast<lapack_complex_double*>(fw.data()), n,
                   piv.data(), reinterpret_cast<lapack_complex_double*>(x.data()), n);
  else
    LAPACKE_dsytrs(LAPACK_COL_MAJOR, upper ? 'U' : 'L', n, 2, fw.data(), n, piv.data(), x.data(), n);
  CaseResult r =
      finish(c, backward_error(n, 2, a, x, rhs), lower, 8.0 * n * u, rep, factor_secs,
             "LAPACKE ?sytrs on our factors: ||A x - b||_F / (||A||_F ||x||_F); info " + std::to_string(info));
  r.pass = r.pass && info == 0;
  return r;
}

// A C API handle on a target, destroyed with the run.
struct CHandle {
  trnsolverDnHandle_t h = nullptr;
  explicit CHandle(trn::Generation target) {
    trnsolverDnCreate(&h);
    trnsolverDnSetTarget(h, static_cast<trnTarget_t>(target));
  }
  ~CHandle() { trnsolverDnDestroy(h); }
  CHandle(const CHandle&) = delete;
  CHandle& operator=(const CHandle&) = delete;
};

// ?laswp through its C entry point: rows 1 .. n of the n x n A (lda n), incx 1.
template <class T>
trnsolverStatus_t capi_laswp(trnsolverDnHandle_t h, int n, T* a, const int* ipiv) {
  if constexpr (std::is_same_v<T, float>)
    return trnsolverDnSlaswp(h, n, a, n, 1, n, ipiv, 1);
  else if constexpr (std::is_same_v<T, double>)
    return trnsolverDnDlaswp(h, n, a, n, 1, n, ipiv, 1);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return trnsolverDnClaswp(h, n, reinterpret_cast<trnComplex*>(a), n, 1, n, ipiv, 1);
  else
    return trnsolverDnZlaswp(h, n, reinterpret_cast<trnDoubleComplex*>(a), n, 1, n, ipiv, 1);
}

// laswp / larft: laswp (through its C entry point) bit-exact against LAPACKE dlaswp / zlaswp
// (measured: differing elements, bound 0);
// larft (forward) ||T - T_dlarft||_F / ||T_dlarft||_F in [u/64 (fp32), 4 n u].
template <class T>
CaseResult aux_case(char kind, int n, trn::Generation target = trn::Generation::trn1) {
  const int k = std::max(1, n / 8);
  const auto v = sym_data<T>(n, 99);
  ts::CallReport rep;
  CaseResult c;
  const double t0 = now_seconds();
  if (kind == 'w') {
    std::vector<int> ipiv(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) ipiv[i] = std::min(n, i + 1 + (i * 7) % 5);
    std::vector<T> a = v;
    using W = std::conditional_t<kCx<T>, std::complex<double>, double>;
    std::vector<W> ref(v.begin(), v.end());
    CHandle h(target);
    const double t1 = now_seconds();
    const bool ok = capi_laswp(h.h, n, a.data(), ipiv.data()) == TRNSOLVER_STATUS_SUCCESS;
    const double secs = seconds_since(t1);
    trnProfile_t profile{};
    trnsolverDnGetLastProfile(h.h, &profile);
    std::vector<lapack_int> piv(ipiv.begin(), ipiv.end());
    if constexpr (kCx<T>)
      LAPACKE_zlaswp(LAPACK_COL_MAJOR, n, reinterpret_cast<lapack_complex_double*>(ref.data()), n, 1, n, piv.data(), 1);
    else
      LAPACKE_dlaswp(LAPACK_COL_MAJOR, n, ref.data(), n, 1, n, piv.data(), 1);
    double diff = ok ? 0 : INFINITY;  // a failed status fails the case
    for (std::size_t i = 0; i < a.size(); ++i) diff += static_cast<W>(a[i]) != ref[i] ? 1 : 0;
    CaseResult r = finish(c, diff, 0, 0, rep, secs, std::string("elements differing from LAPACKE ") +
                                                      (kCx<T> ? "zlaswp" : "dlaswp") + "; C API, DMA through SBUF");
    r.device = DeviceCost::from(profile);
    return r;
  }
  if constexpr (kCx<T>) {
    return c;  // larft: S and D only (registered so)
  } else {
    std::vector<T> tau(static_cast<std::size_t>(k)), t(static_cast<std::size_t>(k) * k, T(0));
    for (int j = 0; j < k; ++j) {  // tau_j = 2 / ||v_j||^2: every H_j orthogonal, as from geqrf
      double nv = 1;
      for (int i = j + 1; i < n; ++i)
        nv += static_cast<double>(v[i + static_cast<std::size_t>(j) * n]) * v[i + static_cast<std::size_t>(j) * n];
      tau[j] = static_cast<T>(2.0 / nv);
    }
    ts::larft(on(target), true, n, k, v.data(), n, tau.data(), t.data(), k, &rep);
    const double secs = seconds_since(t0);
    std::vector<double> vd(v.begin(), v.end()), td(tau.begin(), tau.end()), tl(t.size(), 0.0);
    for (int j = 0; j < k; ++j) {
      for (int i = 0; i < j; ++i) vd[i + static_cast<std::size_t>(j) * n] = 0;
      vd[j + static_cast<std::size_t>(j) * n] = 1;
    }
    LAPACKE_dlarft(LAPACK_COL_MAJOR, 'F', 'C', n, k, vd.data(), n, td.data(), tl.data(), k);
    double err = 0, ref = 0;
    for (int j = 0; j < k; ++j)
      for (int i = 0; i <= j; ++i) {
        const double d =
            static_cast<double>(t[i + static_cast<std::size_t>(j) * k]) - tl[i + static_cast<std::size_t>(j) * k];
        err += d * d;
        ref += tl[i + static_cast<std::size_t>(j) * k] * tl[i + static_cast<std::size_t>(j) * k];
      }
    const double u = unit<T>();
    CaseResult r = finish(c, std::sqrt(err / ref), std::is_same_v<T, float> ? u / 64 : 0, 4.0 * n * u, rep, secs,
                          "against LAPACKE dlarft (forward, columnwise); Gram V^T V on TensorE");
    return r;
  }
}

template <class T>
void add_sym(Registry& reg, const std::string& p, char kind, const char* name, const char* mode, const char* metric,
             const char* bound, double flops_per_n3) {
  const std::string op = p + name;
  reg.add(ValidationCase{.suite = "solver",
                         .library = "trnsolver",
                         .op = op,
                         .mode = mode,
                         .shape = "96x96",
                         .metric = metric,
                         .bound_text = bound,
                         .size = 96.0,
                         .run = [kind] { return sym_case<T>(kind, 96); }});
  reg.add(BenchCase{.suite = "solver",
                    .library = "trnsolver",
                    .op = op,
                    .variant = mode,
                    .shape = "256x256",
                    .run = [kind, metric, flops_per_n3](trn::Generation target) {
                      return bench_of(sym_case<T>(kind, 256, target), metric, flops_per_n3 * 256.0 * 256 * 256);
                    }});
}

// LAPACKE ?laswp (kind 'w', aux_case's pivots) or ?larft (kind 't', forward columnwise, n x n/8, the unit
// diagonal and zeros explicit, tau 2 / ||v||^2) in T's own precision: the bench rows' native host time.
template <class T>
double native_aux_seconds(char kind, int n) {
  const int k = std::max(1, n / 8);
  const std::vector<T> v0 = sym_data<T>(n, 99);
  std::vector<T> a = v0, tau(static_cast<std::size_t>(k), T(0)), t(static_cast<std::size_t>(k) * k);
  std::vector<lapack_int> piv(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) piv[i] = std::min(n, i + 1 + (i * 7) % 5);
  for (int j = 0; kind == 't' && j < k; ++j) {
    double nv = 1;
    for (int i = 0; i < n; ++i) {
      T& x = a[i + static_cast<std::size_t>(j) * n];
      x = i < j ? T(0) : i == j ? T(1) : x;
      nv += i > j ? std::norm(lc(x)) : 0.0;
    }
    tau[j] = from<T>(2.0 / nv, 0);
  }
  return best_seconds(3, [&] {
    if constexpr (std::is_same_v<T, float>) {
      if (kind == 'w') LAPACKE_slaswp(LAPACK_COL_MAJOR, n, a.data(), n, 1, n, piv.data(), 1);
      else LAPACKE_slarft(LAPACK_COL_MAJOR, 'F', 'C', n, k, a.data(), n, tau.data(), t.data(), k);
    } else if constexpr (std::is_same_v<T, double>) {
      if (kind == 'w') LAPACKE_dlaswp(LAPACK_COL_MAJOR, n, a.data(), n, 1, n, piv.data(), 1);
      else LAPACKE_dlarft(LAPACK_COL_MAJOR, 'F', 'C', n, k, a.data(), n, tau.data(), t.data(), k);
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      auto* pa = reinterpret_cast<lapack_complex_float*>(a.data());
      if (kind == 'w') LAPACKE_claswp(LAPACK_COL_MAJOR, n, pa, n, 1, n, piv.data(), 1);
      else LAPACKE_clarft(LAPACK_COL_MAJOR, 'F', 'C', n, k, pa, n, reinterpret_cast<lapack_complex_float*>(tau.data()),
                          reinterpret_cast<lapack_complex_float*>(t.data()), k);
    } else {
      auto* pa = reinterpret_cast<lapack_complex_double*>(a.data());
      if (kind == 'w') LAPACKE_zlaswp(LAPACK_COL_MAJOR, n, pa, n, 1, n, piv.data(), 1);
      else LAPACKE_zlarft(LAPACK_COL_MAJOR, 'F', 'C', n, k, pa, n, reinterpret_cast<lapack_complex_double*>(tau.data()),
                          reinterpret_cast<lapack_complex_double*>(t.data()), k);
    }
  });
}
// "LAPACKE <p><routine> (OpenBLAS)" with T's precision letter.
template <class T>
std::string lapacke_name(const char* routine) {
  const char* p = std::is_same_v<T, float>                 ? "s"
                  : std::is_same_v<T, double>              ? "d"
                  : std::is_same_v<T, std::complex<float>> ? "c"
                                                           : "z";
  return std::string("LAPACKE ") + p + routine + " (OpenBLAS)";
}
// The bench row of a case with its LAPACKE native time.
BenchResult with_native(BenchResult b, double seconds, std::string name) {
  b.native_seconds = seconds;
  b.native_name = std::move(name);
  return b;
}

// ?laswp: exact against LAPACKE dlaswp / zlaswp (the complex values compared as double complex).
template <class T>
void add_laswp(Registry& reg, const std::string& op) {
  const std::string metric = std::string("elements differing from LAPACKE ") + (kCx<T> ? "zlaswp" : "dlaswp");
  reg.add(ValidationCase{.suite = "solver",
                         .library = "trnsolver",
                         .op = op,
                         .mode = "C API, DMA through SBUF",
                         .shape = "96x96",
                         .metric = metric,
                         .bound_text = "0",
                         .size = 96.0,
                         .run = [] { return aux_case<T>('w', 96); }});
  reg.add(BenchCase{.suite = "solver",
                    .library = "trnsolver",
                    .op = op,
                    .variant = "C API, DMA through SBUF",
                    .shape = "512x512",
                    .run = [metric](trn::Generation target) {
                      return with_native(bench_of(aux_case<T>('w', 512, target), metric.c_str(), 0.0),
                                         native_aux_seconds<T>('w', 512), lapacke_name<T>("laswp"));
                    }});
}

// ---- the 64-bit API through its C entry points: Xsytrs (S, D, C, Z) and Xlarft (C_32F, C_64F) --------

// Xsytrs on the factors of sytrf (the same data as sym_case's, uplo as given), nrhs 2: the backward
// error ||A X - B||_F / (||A||_F ||X||_F) in long double; a failed status or info counts as infinite.
template <class T>
CaseResult xsytrs_case(int n, bool upper, trn::Generation target = trn::Generation::trn1) {
  using solver_data::kType;
  const std::vector<T> a = sym_data<T>(n, 4242 + static_cast<std::uint64_t>(n));
  std::vector<T> f = a, rhs(static_cast<std::size_t>(n) * 2);
  for (std::size_t i = 0; i < rhs.size(); ++i) rhs[i] = from<T>(std::sin(1.0 + static_cast<double>(i)), 0.25);
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  const int finfo = ts::sytrf(on(target), upper ? ts::Uplo::upper : ts::Uplo::lower, n, f.data(), n, ipiv.data());
  const std::vector<std::int64_t> ipiv64(ipiv.begin(), ipiv.end());
  const auto fill = upper ? TRNBLAS_FILL_MODE_UPPER : TRNBLAS_FILL_MODE_LOWER;
  std::vector<T> x = rhs;
  CHandle c(target);
  std::size_t dev = 0, host = 0;
  int failed = trnsolverDnXsytrs_bufferSize(c.h, fill, n, 2, kType<T>, f.data(), n, ipiv64.data(), kType<T>, x.data(),
                                            n, &dev, &host) != TRNSOLVER_STATUS_SUCCESS;
  std::vector<char> wd(std::max<std::size_t>(dev, 1)), wh(std::max<std::size_t>(host, 1));
  int info = -99;
  const double t0 = now_seconds();
  failed += trnsolverDnXsytrs(c.h, fill, n, 2, kType<T>, f.data(), n, ipiv64.data(), kType<T>, x.data(), n, wd.data(),
                              dev, wh.data(), host, &info) != TRNSOLVER_STATUS_SUCCESS;
  const double secs = seconds_since(t0);
  trnProfile_t profile{};
  trnsolverDnGetLastProfile(c.h, &profile);
  const ts::CallReport rep;  // finish's profile: replaced by the C API's below
  const double u = unit<T>();
  const bool fp32 = std::is_same_v<solver_data::RealT<T>, float>;
  const bool ok = failed == 0 && info == 0 && finfo == 0;
  CaseResult r = finish(CaseResult{}, ok ? backward_error(n, 2, a, x, rhs) : INFINITY, fp32 ? u / 64 : 0, 8.0 * n * u,
                        rep, secs,
                        std::string(upper ? "uplo U" : "uplo L") + "; sytrf info " + std::to_string(finfo) +
                            ", Xsytrs info " + std::to_string(info) + ", " + std::to_string(failed) + " failed calls");
  r.device = DeviceCost::from(profile);
  return r;
}

// LAPACKE ?sytrs on LAPACKE ?sytrf's factors of the same data (upper, nrhs 2): the native host time.
template <class T>
double native_sytrs_seconds(int n) {
  std::vector<T> f = sym_data<T>(n, 4242 + static_cast<std::uint64_t>(n)), rhs(static_cast<std::size_t>(n) * 2, T(1));
  std::vector<T> x;
  std::vector<lapack_int> piv(static_cast<std::size_t>(n));
  if constexpr (std::is_same_v<T, float>) {
    LAPACKE_ssytrf(LAPACK_COL_MAJOR, 'U', n, f.data(), n, piv.data());
    return best_seconds(3, [&] {
      x = rhs;
      LAPACKE_ssytrs(LAPACK_COL_MAJOR, 'U', n, 2, f.data(), n, piv.data(), x.data(), n);
    });
  } else if constexpr (std::is_same_v<T, double>) {
    LAPACKE_dsytrf(LAPACK_COL_MAJOR, 'U', n, f.data(), n, piv.data());
    return best_seconds(3, [&] {
      x = rhs;
      LAPACKE_dsytrs(LAPACK_COL_MAJOR, 'U', n, 2, f.data(), n, piv.data(), x.data(), n);
    });
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    auto* pf = reinterpret_cast<lapack_complex_float*>(f.data());
    LAPACKE_csytrf(LAPACK_COL_MAJOR, 'U', n, pf, n, piv.data());
    return best_seconds(3, [&] {
      x = rhs;
      LAPACKE_csytrs(LAPACK_COL_MAJOR, 'U', n, 2, pf, n, piv.data(), reinterpret_cast<lapack_complex_float*>(x.data()), n);
    });
  } else {
    auto* pf = reinterpret_cast<lapack_complex_double*>(f.data());
    LAPACKE_zsytrf(LAPACK_COL_MAJOR, 'U', n, pf, n, piv.data());
    return best_seconds(3, [&] {
      x = rhs;
      LAPACKE_zsytrs(LAPACK_COL_MAJOR, 'U', n, 2, pf, n, piv.data(), reinterpret_cast<lapack_complex_double*>(x.data()), n);
    });
  }
}

// Xsytrs C API: validate n = 96 with both triangles (the larger error), bench n = 256 upper.
template <class T>
void add_xsytrs(Registry& reg, const std::string& op, const std::string& mode) {
  const std::string metric = "||A X - B||_F / (||A||_F ||X||_F)";
  const char* bound = std::is_same_v<solver_data::RealT<T>, float> ? "[u/64, 8 n u]; info 0" : "[0, 8 n u]; info 0";
  reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = op, .mode = mode, .shape = "96x96, nrhs 2",
                         .metric = "max over uplo L/U " + metric, .bound_text = bound, .size = 96.0, .run = [] {
                           CaseResult lo = xsytrs_case<T>(96, false), up = xsytrs_case<T>(96, true);
                           CaseResult& worse = lo.measured >= up.measured ? lo : up;
                           worse.pass = lo.pass && up.pass;
                           worse.host_seconds = lo.host_seconds + up.host_seconds;
                           return worse;
                         }});
  reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode, .shape = "256x256, nrhs 2",
                    .run = [metric](trn::Generation target) {
                      const CaseResult c = xsytrs_case<T>(256, true, target);
                      if (!c.pass) throw std::runtime_error("failed call, nonzero info or error out of bound");
                      return with_native(bench_of(c, metric.c_str(), (kCx<T> ? 4.0 : 1.0) * 2.0 * 256 * 256 * 2),
                                         native_sytrs_seconds<T>(256), lapacke_name<T>("sytrs"));
                    }});
}

// Xlarft (C_32F / C_64F, forward, columnwise) through the C API against LAPACKE zlarft on the same
// data widened to double complex: ||T - T_zlarft||_F / ||T_zlarft||_F. V n x k complex (N(0, 1) parts;
// the unit diagonal and zeros above implicit), tau_j = (1 - e^{i theta_j}) / ||v_j||^2, which makes
// every H_j = I - tau_j v_j v_j^H unitary (tau + conj(tau) = |tau|^2 ||v||^2) with a genuinely
// complex tau (a real tau would not see a missing conjugate).
template <class T>
CaseResult xlarft_case(int n, trn::Generation target = trn::Generation::trn1) {
  using solver_data::kType;
  using ZD = std::complex<double>;
  const int k = std::max(1, n / 8);
  const std::vector<T> v = solver_data::gaussian<T>(n, k, 99 + static_cast<std::uint64_t>(n));
  std::vector<T> tau(static_cast<std::size_t>(k)), t(static_cast<std::size_t>(k) * k, T(0));
  for (int j = 0; j < k; ++j) {
    double nv = 1;
    for (int i = j + 1; i < n; ++i) nv += std::norm(static_cast<ZD>(v[i + static_cast<std::size_t>(j) * n]));
    tau[j] = static_cast<T>((1.0 - std::polar(1.0, 1.0 + 0.37 * j)) / nv);
  }
  CHandle c(target);
  trnsolverDnParams_t params = nullptr;
  trnsolverDnCreateParams(&params);
  std::size_t dev = 0, host = 0;
  int failed = trnsolverDnXlarft_bufferSize(c.h, params, TRNBLAS_DIRECT_FORWARD, TRNBLAS_STOREV_COLUMNWISE, n, k,
                                            kType<T>, v.data(), n, kType<T>, tau.data(), kType<T>, t.data(), k,
                                            kType<T>, &dev, &host) != TRNSOLVER_STATUS_SUCCESS;
  std::vector<char> wd(std::max<std::size_t>(dev, 1)), wh(std::max<std::size_t>(host, 1));
  const double t0 = now_seconds();
  failed += trnsolverDnXlarft(c.h, params, TRNBLAS_DIRECT_FORWARD, TRNBLAS_STOREV_COLUMNWISE, n, k, kType<T>, v.data(),
                              n, kType<T>, tau.data(), kType<T>, t.data(), k, kType<T>, wd.data(), dev, wh.data(),
                              host) != TRNSOLVER_STATUS_SUCCESS;
  const double secs = seconds_since(t0);
  trnProfile_t profile{};
  trnsolverDnGetLastProfile(c.h, &profile);
  trnsolverDnDestroyParams(params);
  const ts::CallReport rep;  // finish's profile: replaced by the C API's below
  std::vector<ZD> vd(v.begin(), v.end()), td(tau.begin(), tau.end()), tl(t.size(), 0.0);
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < j; ++i) vd[i + static_cast<std::size_t>(j) * n] = 0;
    vd[j + static_cast<std::size_t>(j) * n] = 1;
  }
  LAPACKE_zlarft(LAPACK_COL_MAJOR, 'F', 'C', n, k, reinterpret_cast<lapack_complex_double*>(vd.data()), n,
                 reinterpret_cast<lapack_complex_double*>(td.data()), reinterpret_cast<lapack_complex_double*>(tl.data()),
                 k);
  double err = 0, ref = 0;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i <= j; ++i) {
      err += std::norm(static_cast<ZD>(t[i + static_cast<std::size_t>(j) * k]) - tl[i + static_cast<std::size_t>(j) * k]);
      ref += std::norm(tl[i + static_cast<std::size_t>(j) * k]);
    }
  const double u = unit<T>();
  CaseResult r = finish(CaseResult{}, failed == 0 ? std::sqrt(err / ref) : INFINITY,
                        std::is_same_v<T, std::complex<float>> ? u / 64 : 0, 4.0 * n * u, rep, secs,
                        "against LAPACKE zlarft (forward, columnwise), complex tau; " + std::to_string(failed) +
                            " failed calls; Gram V^H V on TensorE");
  r.device = DeviceCost::from(profile);
  return r;
}

template <class T>
void add_xlarft_complex(Registry& reg, const std::string& op) {
  const char* metric = "||T - T_zlarft||_F / ||T_zlarft||_F";
  const char* mode = "C API, forward, columnwise";
  reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = op, .mode = mode, .shape = "96x12",
                         .metric = metric,
                         .bound_text = std::is_same_v<T, std::complex<float>> ? "[u/64, 4 n u]" : "[0, 4 n u]",
                         .size = 96.0, .run = [] { return xlarft_case<T>(96); }});
  reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode, .shape = "512x64",
                    .run = [metric](trn::Generation target) {
                      return with_native(bench_of(xlarft_case<T>(512, target), metric, 4.0 * 2.0 * 512 * 64 * 64),
                                         native_aux_seconds<T>('t', 512), lapacke_name<T>("larft"));
                    }});
}

void add_solver_sym_indef(Registry& reg) {
  const char* be = "||A x - b||_F / (||A||_F ||x||_F)";
  add_sym<float>(reg, "s", 'f', "sytrf", "Bunch-Kaufman, fp64 host panels + fp32 SYRKX", be, "[u/64, 8 n u]", 1.0 / 3);
  add_sym<double>(reg, "d", 'f', "sytrf", "Bunch-Kaufman, fp64 host panels + Ozaki SYRKX", be, "[0, 8 n u]", 1.0 / 3);
  add_sym<std::complex<float>>(reg, "c", 'f', "sytrf", "complex symmetric, fp32 SYRKX (4M)", be, "[u/64, 8 n u]",
                               4.0 / 3);
  add_sym<std::complex<double>>(reg, "z", 'f', "sytrf", "complex symmetric, Ozaki SYRKX (4M)", be, "[0, 8 n u]",
                                4.0 / 3);
  add_sym<float>(reg, "s", 's', "sytrs", "product-form solve, fp64 host", be, "[u/64, 8 n u]", 4.0 / 256);
  add_sym<double>(reg, "d", 's', "sytrs", "product-form solve, fp64 host", be, "[0, 8 n u]", 4.0 / 256);
  const char* inv = "||A X - I||_F / (||A||_F ||X||_F)";
  add_sym<float>(reg, "s", 'i', "sytri", "sytrs on I, fp64 host", inv, "[0, 8 n u]", 2.0);
  add_sym<double>(reg, "d", 'i', "sytri", "sytrs on I, fp64 host", inv, "[0, 8 n u]", 2.0);
  add_sym<float>(reg, "s", 'p', "potri", "trtri + lauum (fp32 GEMM)", inv, "[0, 8 n u]", 1.0);
  add_sym<double>(reg, "d", 'p', "potri", "trtri + lauum (Ozaki GEMM)", inv, "[0, 8 n u]", 1.0);
  const char* rel = "||E||_F / ||U U^T||_F";
  add_sym<float>(reg, "s", 'l', "lauum", "one fp32 GEMM on TensorE", rel, "[u/64, 4 n u]", 2.0);
  add_sym<double>(reg, "d", 'l', "lauum", "one Ozaki GEMM on TensorE", rel, "[0, 4 n u]", 2.0);
  // C/Z (#27 audit): sytri of a complex symmetric A, potri of a Hermitian positive definite one, lauum
  // U U^H; LAPACK's complex flop counts (x4 of the real ones).
  add_sym<std::complex<float>>(reg, "c", 'i', "sytri", "complex symmetric, sytrs on I, fp64 host", inv, "[0, 8 n u]", 8.0);
  add_sym<std::complex<double>>(reg, "z", 'i', "sytri", "complex symmetric, sytrs on I, fp64 host", inv, "[0, 8 n u]", 8.0);
  add_sym<std::complex<float>>(reg, "c", 'p', "potri", "trtri (ctrsm) + lauum (fp32 4M GEMM)", inv, "[0, 8 n u]", 4.0);
  add_sym<std::complex<double>>(reg, "z", 'p', "potri", "trtri (ztrsm) + lauum (Ozaki 4M GEMM)", inv, "[0, 8 n u]", 4.0);
  const char* relh = "||E||_F / ||U U^H||_F";
  add_sym<std::complex<float>>(reg, "c", 'l', "lauum", "one fp32 4M GEMM on TensorE", relh, "[u/64, 4 n u]", 8.0);
  add_sym<std::complex<double>>(reg, "z", 'l', "lauum", "one Ozaki 4M GEMM on TensorE", relh, "[0, 4 n u]", 8.0);
  for (const bool f32 : {true, false}) {
    const std::string op = f32 ? "Xlarft R_32F" : "Xlarft R_64F";
    reg.add(ValidationCase{.suite = "solver",
                           .library = "trnsolver",
                           .op = op,
                           .mode = "forward, columnwise",
                           .shape = "96x12",
                           .metric = "||T - T_dlarft||_F / ||T_dlarft||_F",
                           .bound_text = f32 ? "[u/64, 4 n u]" : "[0, 4 n u]",
                           .size = 96.0,
                           .run = [f32] { return f32 ? aux_case<float>('t', 96) : aux_case<double>('t', 96); }});
    reg.add(BenchCase{.suite = "solver",
                      .library = "trnsolver",
                      .op = op,
                      .variant = "forward, columnwise",
                      .shape = "512x64",
                      .run = [f32](trn::Generation target) {
                        const CaseResult c =
                            f32 ? aux_case<float>('t', 512, target) : aux_case<double>('t', 512, target);
                        return with_native(bench_of(c, "||T - T_dlarft||_F / ||T_dlarft||_F", 2.0 * 512 * 64 * 64),
                                           f32 ? native_aux_seconds<float>('t', 512) : native_aux_seconds<double>('t', 512),
                                           f32 ? lapacke_name<float>("larft") : lapacke_name<double>("larft"));
                      }});
  }
  add_laswp<float>(reg, "slaswp");  // S: s13/solvgap
  add_laswp<double>(reg, "dlaswp");
  add_laswp<std::complex<float>>(reg, "claswp");  // C/Z: #27 audit
  add_laswp<std::complex<double>>(reg, "zlaswp");
  add_xsytrs<float>(reg, "Xsytrs R_32F", "C API, Xsytrs on sytrf's factors (int64 pivots)");
  add_xsytrs<double>(reg, "Xsytrs R_64F", "C API, Xsytrs on sytrf's factors (int64 pivots)");
  add_xsytrs<std::complex<float>>(reg, "Xsytrs C_32F", "C API, Xsytrs on sytrf's factors (int64 pivots), complex symmetric");
  add_xsytrs<std::complex<double>>(reg, "Xsytrs C_64F", "C API, Xsytrs on sytrf's factors (int64 pivots), complex symmetric");
  add_xlarft_complex<std::complex<float>>(reg, "Xlarft C_32F");
  add_xlarft_complex<std::complex<double>>(reg, "Xlarft C_64F");
}

const Registrar kRegistrar(add_solver_sym_indef);

}  // namespace
}  // namespace trnsci::cli
