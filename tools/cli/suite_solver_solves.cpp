// `trnsci validate/bench` suite "solver", the solves and batched Cholesky #27 added without a case of
// their own: D/C/Z getrs (op N, T, C) and potrs (lower and upper), dgetrf (validate and bench) and
// dpotrf (bench), and S/D/C/Z potrfBatched / potrsBatched
// through the C API (cuSOLVER's pointer arrays). Bounds: docs/trnsolver.md "Validate cases of the
// solves, the batched Cholesky, the Q routines and the selected eigensolvers"; error measures in long
// double (tests/reference/factor_oracles.hpp), independent of the library's kernels. Each batched factor
// is also checked bit-equal to the single-matrix C call (the documented semantics). Bench rows use
// LAPACK's flop counts (getrs / potrs 2 n^2 nrhs, potrf n^3 / 3; x4 complex).
#include <lapacke.h>

#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "complex_matrices.hpp"
#include "factor_oracles.hpp"
#include "registry.hpp"
#include "solver_data.hpp"
#include "trn/solver/complex_factor.hpp"
#include "trnsolver.h"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;
using solver_data::kCplx;
using solver_data::kU;
template <class T>
constexpr bool kFp32 = std::is_same_v<solver_data::RealT<T>, float>;
constexpr int kRhs = 3;

// Symmetric / Hermitian positive definite G^H G / n + I (kappa ~ 5), both triangles stored.
template <class T>
std::vector<T> spd(int n, std::uint64_t seed) {
  if constexpr (kCplx<T>) {
    return complex_matrix::hpd_matrix<T>(n, n, seed);
  } else {
    const std::vector<T> g = solver_data::gaussian<T>(n, n, seed);
    std::vector<T> a(g.size());
    for (int j = 0; j < n; ++j)
      for (int i = 0; i <= j; ++i) {
        long double s = i == j ? n : 0;
        for (int k = 0; k < n; ++k) s += static_cast<long double>(g[k + i * n]) * g[k + j * n];
        a[i + static_cast<std::size_t>(j) * n] = a[j + static_cast<std::size_t>(i) * n] = static_cast<T>(s / n);
      }
    return a;
  }
}

ts::Settings on(trn::Generation target) {
  ts::Settings s;
  s.target = target;
  return s;
}

// The real fp64 routines have their own names (dgetrf / dgetrs / dpotrf / dpotrs); C and Z the
// generic ones of complex_factor.hpp.
template <class T>
void lu_factor(const ts::Settings& s, int n, T* f, int* ipiv, ts::CallReport* rep = nullptr) {
  if constexpr (std::is_same_v<T, double>) ts::dgetrf(s, n, n, f, n, ipiv, rep);
  else ts::getrf(s, n, n, f, n, ipiv, rep);
}
template <class T>
void lu_solve(const ts::Settings& s, ts::SolveOp op, int n, const T* f, const int* ipiv, T* x, ts::CallReport* rep) {
  if constexpr (std::is_same_v<T, double>) ts::dgetrs(s, op != ts::SolveOp::N, n, kRhs, f, n, ipiv, x, n, rep);
  else ts::getrs(s, op, n, kRhs, f, n, ipiv, x, n, rep);
}
template <class T>
void chol_factor(const ts::Settings& s, ts::Uplo uplo, int n, T* l, ts::CallReport* rep = nullptr) {
  if constexpr (std::is_same_v<T, double>) ts::dpotrf(s, uplo, n, l, n, rep);
  else ts::potrf(s, uplo, n, l, n, rep);
}
template <class T>
void chol_solve(const ts::Settings& s, ts::Uplo uplo, int n, const T* l, T* x, ts::CallReport* rep) {
  if constexpr (std::is_same_v<T, double>) ts::dpotrs(s, uplo, n, kRhs, l, n, x, n, rep);
  else ts::potrs(s, uplo, n, kRhs, l, n, x, n, rep);
}

struct Run {
  double measured = 0, host_seconds = 0;
  std::string note;
  ts::CallReport rep;
};

// getrs (kind 'g': ops N, T, C on one getrf) or potrs (kind 'p': lower and upper): the worst normwise
// backward error ||B - op(A) X||_F / (||A||_F ||X||_F) over them; host time and report of the first solve.
template <class T>
Run run_solve(char kind, int n, trn::Generation target) {
  const std::vector<T> a0 = kind == 'p' ? spd<T>(n, 610 + static_cast<std::uint64_t>(n))
                                        : solver_data::gaussian<T>(n, n, 710 + static_cast<std::uint64_t>(n));
  const std::vector<T> b0 = solver_data::gaussian<T>(n, kRhs, 810);
  const auto at = [&](std::int64_t i, std::int64_t k) { return factor_oracle::wide(a0[i + k * n]); };
  Run r;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  std::vector<T> f = a0;
  if (kind == 'g') lu_factor<T>(on(target), n, f.data(), ipiv.data());
  for (int v = 0; v < (kind == 'g' && kCplx<T> ? 3 : 2); ++v) {  // real data: op C is op T
    std::vector<T> x = b0;
    ts::CallReport rep;
    const double t0 = now_seconds();
    double e = 0;
    if (kind == 'g') {
      const ts::SolveOp op = v == 0 ? ts::SolveOp::N : v == 1 ? ts::SolveOp::T : ts::SolveOp::C;
      lu_solve<T>(on(target), op, n, f.data(), ipiv.data(), x.data(), &rep);
      const double secs = seconds_since(t0);
      e = factor_oracle::solve_backward(n, kRhs, a0.data(), n,
                                        [&](std::int64_t i, std::int64_t k) {
                                          return v == 0 ? at(i, k) : v == 1 ? at(k, i) : std::conj(at(k, i));
                                        },
                                        b0.data(), x.data(), n);
      if (v == 0) r.host_seconds = secs;
      r.note += std::string(v == 0 ? "op N " : v == 1 ? ", T " : ", C ") + sci(e);
    } else {
      const ts::Uplo uplo = v == 0 ? ts::Uplo::lower : ts::Uplo::upper;
      std::vector<T> l = a0;
      chol_factor<T>(on(target), uplo, n, l.data());
      const double t1 = now_seconds();
      chol_solve<T>(on(target), uplo, n, l.data(), x.data(), &rep);
      if (v == 0) r.host_seconds = seconds_since(t1);
      e = factor_oracle::solve_backward(n, kRhs, a0.data(), n, at, b0.data(), x.data(), n);
      r.note += std::string(v == 0 ? "lower " : ", upper ") + sci(e);
    }
    if (v == 0) r.rep = rep;
    r.measured = std::max(r.measured, e);
  }
  return r;
}

// The C entry points of the batched Cholesky and of the single-matrix potrf (the bit-equality reference).
template <class T>
struct Capi;
#define TRNSCI_BATCHED_CAPI(T, C, P)                                                                             \
  template <>                                                                                                     \
  struct Capi<T> {                                                                                                \
    static C* c(T* p) { return reinterpret_cast<C*>(p); }                                                        \
    static C** c(T** p) { return reinterpret_cast<C**>(p); }                                                     \
    static constexpr auto potrf_batched = &trnsolverDn##P##potrfBatched;                                         \
    static constexpr auto potrs_batched = &trnsolverDn##P##potrsBatched;                                         \
    static constexpr auto potrf_buffer = &trnsolverDn##P##potrf_bufferSize;                                      \
    static constexpr auto potrf = &trnsolverDn##P##potrf;                                                         \
  };
TRNSCI_BATCHED_CAPI(float, float, S)
TRNSCI_BATCHED_CAPI(double, double, D)
TRNSCI_BATCHED_CAPI(std::complex<float>, trnComplex, C)
TRNSCI_BATCHED_CAPI(std::complex<double>, trnDoubleComplex, Z)
#undef TRNSCI_BATCHED_CAPI

// potrfBatched (kind 'f', lower) then potrsBatched (kind 's', nrhs 1) over `batch` SPD / HPD matrices:
// 'f' the worst ||A - L L^H||_F / ||A||_F, 's' the worst solve backward error; either fails unless
// every info is 0 and every batched factor is bit-equal to trnsolverDn?potrf's on the same matrix.
template <class T>
Run run_batched(char kind, int n, int batch, trn::Generation target) {
  using A = Capi<T>;
  trnsolverDnHandle_t h = nullptr;
  trnsolverDnCreate(&h);
  trnsolverDnSetTarget(h, static_cast<trnTarget_t>(target));
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  std::vector<std::vector<T>> a0(batch), f(batch), x(batch), b0(batch);
  std::vector<T*> fp(batch), xp(batch);
  for (int k = 0; k < batch; ++k) {
    a0[k] = spd<T>(n, 1500 + static_cast<std::uint64_t>(n * 16 + k));
    f[k] = a0[k];
    b0[k] = x[k] = solver_data::gaussian<T>(n, 1, 1600 + static_cast<std::uint64_t>(k));
    fp[k] = f[k].data();
    xp[k] = x[k].data();
  }
  std::vector<int> info(static_cast<std::size_t>(batch), -99);
  int sinfo = -99;
  Run r;
  trnProfile_t prof{};
  double t0 = now_seconds();
  trnsolverStatus_t st = A::potrf_batched(h, TRNBLAS_FILL_MODE_LOWER, n, A::c(fp.data()), n, info.data(), batch);
  if (kind == 'f') {
    r.host_seconds = seconds_since(t0);
    trnsolverDnGetLastProfile(h, &prof);
  } else {
    t0 = now_seconds();
    st = st != TRNSOLVER_STATUS_SUCCESS ? st
                                        : A::potrs_batched(h, TRNBLAS_FILL_MODE_LOWER, n, 1, A::c(fp.data()), n,
                                                           A::c(xp.data()), n, &sinfo, batch);
    r.host_seconds = seconds_since(t0);
    trnsolverDnGetLastProfile(h, &prof);
  }
  int bad = st != TRNSOLVER_STATUS_SUCCESS || (kind == 's' && sinfo != 0), differ = 0;
  int lwork = 0, dinfo = -99;
  for (int k = 0; k < batch; ++k) {
    bad += info[k] != 0;
    std::vector<T> single = a0[k];
    A::potrf_buffer(h, TRNBLAS_FILL_MODE_LOWER, n, A::c(single.data()), n, &lwork);
    std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
    A::potrf(h, TRNBLAS_FILL_MODE_LOWER, n, A::c(single.data()), n, A::c(work.data()), lwork, &dinfo);
    differ += std::memcmp(single.data(), f[k].data(), nn * sizeof(T)) != 0;
    const auto at = [&](std::int64_t i, std::int64_t j) { return factor_oracle::wide(a0[k][i + j * n]); };
    const double e = kind == 'f' ? factor_oracle::cholesky_backward(n, a0[k].data(), f[k].data(), n, true)
                                 : factor_oracle::solve_backward(n, 1, a0[k].data(), n, at, b0[k].data(), x[k].data(), n);
    r.measured = std::max(r.measured, e);
  }
  trnsolverDnDestroy(h);
  r.rep.profile = trn::Profile::from_c(prof);
  r.note = std::to_string(batch - bad) + "/" + std::to_string(batch) + " info 0, " + std::to_string(differ) +
           " factors differing from the single ?potrf call (must be 0)";
  if (bad != 0 || differ != 0) r.measured = std::numeric_limits<double>::infinity();
  return r;
}

// LAPACKE (OpenBLAS) on the same problem, for the bench rows' native column (the oracle's time only):
// kind 'g' / 'p' the solve (op N / lower, nrhs kRhs) on LAPACKE's own factors, 'G' / 'P' the factorisation.
template <class T>
int lapacke_getrf(int n, T* a, int* ipiv) {
  if constexpr (std::is_same_v<T, float>) return LAPACKE_sgetrf(LAPACK_COL_MAJOR, n, n, a, n, ipiv);
  else if constexpr (std::is_same_v<T, double>) return LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, a, n, ipiv);
  else if constexpr (kFp32<T>) return LAPACKE_cgetrf(LAPACK_COL_MAJOR, n, n, reinterpret_cast<lapack_complex_float*>(a), n, ipiv);
  else return LAPACKE_zgetrf(LAPACK_COL_MAJOR, n, n, reinterpret_cast<lapack_complex_double*>(a), n, ipiv);
}
template <class T>
int lapacke_getrs(int n, const T* a, const int* ipiv, T* b) {
  if constexpr (std::is_same_v<T, float>) return LAPACKE_sgetrs(LAPACK_COL_MAJOR, 'N', n, kRhs, a, n, ipiv, b, n);
  else if constexpr (std::is_same_v<T, double>) return LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', n, kRhs, a, n, ipiv, b, n);
  else if constexpr (kFp32<T>)
    return LAPACKE_cgetrs(LAPACK_COL_MAJOR, 'N', n, kRhs, reinterpret_cast<const lapack_complex_float*>(a), n, ipiv,
                          reinterpret_cast<lapack_complex_float*>(b), n);
  else
    return LAPACKE_zgetrs(LAPACK_COL_MAJOR, 'N', n, kRhs, reinterpret_cast<const lapack_complex_double*>(a), n, ipiv,
                          reinterpret_cast<lapack_complex_double*>(b), n);
}
template <class T>
int lapacke_potrf(int n, T* a) {
  if constexpr (std::is_same_v<T, float>) return LAPACKE_spotrf(LAPACK_COL_MAJOR, 'L', n, a, n);
  else if constexpr (std::is_same_v<T, double>) return LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, a, n);
  else if constexpr (kFp32<T>) return LAPACKE_cpotrf(LAPACK_COL_MAJOR, 'L', n, reinterpret_cast<lapack_complex_float*>(a), n);
  else return LAPACKE_zpotrf(LAPACK_COL_MAJOR, 'L', n, reinterpret_cast<lapack_complex_double*>(a), n);
}
template <class T>
int lapacke_potrs(int n, const T* a, T* b) {
  if constexpr (std::is_same_v<T, float>) return LAPACKE_spotrs(LAPACK_COL_MAJOR, 'L', n, kRhs, a, n, b, n);
  else if constexpr (std::is_same_v<T, double>) return LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', n, kRhs, a, n, b, n);
  else if constexpr (kFp32<T>)
    return LAPACKE_cpotrs(LAPACK_COL_MAJOR, 'L', n, kRhs, reinterpret_cast<const lapack_complex_float*>(a), n,
                          reinterpret_cast<lapack_complex_float*>(b), n);
  else
    return LAPACKE_zpotrs(LAPACK_COL_MAJOR, 'L', n, kRhs, reinterpret_cast<const lapack_complex_double*>(a), n,
                          reinterpret_cast<lapack_complex_double*>(b), n);
}
template <class T>
double native_seconds(char kind, int n) {
  const bool spd_matrix = kind == 'p' || kind == 'P';
  const std::vector<T> a0 = spd_matrix ? spd<T>(n, 610 + static_cast<std::uint64_t>(n))
                                       : solver_data::gaussian<T>(n, n, 710 + static_cast<std::uint64_t>(n));
  const std::vector<T> b0 = solver_data::gaussian<T>(n, kRhs, 810);
  std::vector<T> f = a0, x = b0;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  if (kind == 'G' || kind == 'P')
    return best_seconds(3, [&] {
      f = a0;
      if (kind == 'G') lapacke_getrf<T>(n, f.data(), ipiv.data());
      else lapacke_potrf<T>(n, f.data());
    });
  if (kind == 'g') lapacke_getrf<T>(n, f.data(), ipiv.data());
  else lapacke_potrf<T>(n, f.data());
  return best_seconds(3, [&] {
    x = b0;
    if (kind == 'g') lapacke_getrs<T>(n, f.data(), ipiv.data(), x.data());
    else lapacke_potrs<T>(n, f.data(), x.data());
  });
}
template <class T>
const char* native_name(char kind) {
  static const std::string name = std::string("LAPACKE ") + (std::is_same_v<T, double> ? "d" : kFp32<T> ? "c" : "z");
  static const std::string g = name + "getrs (OpenBLAS)", p = name + "potrs (OpenBLAS)", G = name + "getrf (OpenBLAS)",
                           P = name + "potrf (OpenBLAS)";
  return (kind == 'g' ? g : kind == 'p' ? p : kind == 'G' ? G : P).c_str();
}

// Two-sided: at most the bound, at least u/64 (fp32 types: the work really ran in fp32; every type: the
// measure sees rounding, so the case can fail both ways).
CaseResult to_case(const Run& r, double lower, double bound, const std::string& how) {
  CaseResult c;
  c.measured = r.measured;
  c.bound = bound;
  c.lower = lower;
  c.pass = r.measured <= bound && (std::isnan(lower) || r.measured >= lower);
  c.note = r.note + "; " + how;
  c.host_seconds = r.host_seconds;
  c.device = DeviceCost::from(r.rep.profile);
  return c;
}

template <class T>
void add_solve(Registry& reg, char kind, const std::string& op, const std::string& mode) {
  const int n = 96;
  const double lower = kU<T> / 64, bound = 8 * n * kU<T>;
  reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = op, .mode = mode,
                         .shape = std::to_string(n) + "x" + std::to_string(n) + ", nrhs 3",
                         .metric = "max over " + std::string(kind == 'g' ? (kCplx<T> ? "op N/T/C" : "op N/T") : "uplo L/U") +
                                   " ||B - op(A) X||_F / (||A||_F ||X||_F)",
                         .bound_text = "[u/64, 8 n u] (docs/trnsolver.md)",
                         .size = n, .run = [kind, n, lower, bound, mode] {
                           return to_case(run_solve<T>(kind, n, trn::Generation::trn1), lower, bound, mode);
                         }});
  reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode, .shape = "512x512, nrhs 3",
                    .run = [kind](trn::Generation target) {
                      const Run r = run_solve<T>(kind, 512, target);
                      BenchResult b;
                      b.error = r.measured;
                      b.error_metric = "||B - op(A) X||_F / (||A||_F ||X||_F)";
                      b.host_seconds = r.host_seconds;
                      b.flops = (kCplx<T> ? 4.0 : 1.0) * 2.0 * 512 * 512 * kRhs;
                      b.device = DeviceCost::from(r.rep.profile);
                      b.native_seconds = native_seconds<T>(kind, 512);
                      b.native_name = native_name<T>(kind);
                      return b;
                    }});
}

template <class T>
void add_batched(Registry& reg, const std::string& p, const std::string& mode) {
  for (const char kind : {'f', 's'}) {
    const std::string op = p + (kind == 'f' ? "potrfBatched" : "potrsBatched");
    const int n = 64, batch = 4;
    const double lower = kFp32<T> ? kU<T> / 64 : NAN, bound = (kind == 'f' ? 4 : 8) * n * kU<T>;
    reg.add(ValidationCase{
        .suite = "solver", .library = "trnsolver", .op = op, .mode = mode,
        .shape = std::to_string(batch) + " x " + std::to_string(n) + "x" + std::to_string(n),
        .metric = kind == 'f' ? "max over matrices ||A - L L^H||_F / ||A||_F"
                              : "max over matrices ||b - A x||_F / (||A||_F ||x||_F)",
        .bound_text = std::string(kFp32<T> ? "[u/64, " : "[0, ") + (kind == 'f' ? "4" : "8") +
                      " n u]; every info 0; factors bit-equal to ?potrf (docs/trnsolver.md)",
        .size = static_cast<double>(n) * batch, .run = [kind, n, lower, bound, mode] {
          return to_case(run_batched<T>(kind, n, batch, trn::Generation::trn1), lower, bound, mode);
        }});
    reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode, .shape = "16 x 128x128",
                      .run = [kind](trn::Generation target) {
                        const Run r = run_batched<T>(kind, 128, 16, target);
                        BenchResult b;
                        b.error = r.measured;
                        b.error_metric = kind == 'f' ? "||A - L L^H||_F / ||A||_F" : "||b - A x||_F / (||A||_F ||x||_F)";
                        b.host_seconds = r.host_seconds;
                        const double dn = 128;
                        b.flops = 16 * (kCplx<T> ? 4.0 : 1.0) * (kind == 'f' ? dn * dn * dn / 3 : 2 * dn * dn);
                        b.device = DeviceCost::from(r.rep.profile);
                        return b;
                      }});
  }
}

// dgetrf (kind 'g') or dpotrf ('p', lower) of the matrices run_solve uses: the backward error
// ||P A - L U||_F / ||A||_F or ||A - L L^T||_F / ||A||_F (long double) and the call's report.
Run run_real_factor(char kind, int n, trn::Generation target) {
  const std::vector<double> a0 = kind == 'p' ? spd<double>(n, 610 + static_cast<std::uint64_t>(n))
                                             : solver_data::gaussian<double>(n, n, 710 + static_cast<std::uint64_t>(n));
  std::vector<double> f = a0;
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  Run r;
  const double t0 = now_seconds();
  if (kind == 'g') lu_factor<double>(on(target), n, f.data(), ipiv.data(), &r.rep);
  else chol_factor<double>(on(target), ts::Uplo::lower, n, f.data(), &r.rep);
  r.host_seconds = seconds_since(t0);
  r.measured = kind == 'g' ? factor_oracle::lu_backward(n, n, a0.data(), f.data(), n, ipiv.data())
                           : factor_oracle::cholesky_backward(n, a0.data(), f.data(), n, true);
  r.note = kind == 'g' ? "partial pivoting" : "lower";
  return r;
}

// dgetrf: a validate case ([u/64, 4 n u], as the complex factorisations) and bench rows; dpotrf:
// bench rows (its validate cases are suite_solver.cpp's). LAPACK's flop counts 2 n^3 / 3, n^3 / 3.
void add_real_factors(Registry& reg) {
  for (int n : {96, 256})
    reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = "dgetrf",
                           .mode = "fp64 recursive panels (32-column host leaves) + Ozaki DGEMM, DMA interchanges",
                           .shape = std::to_string(n) + "x" + std::to_string(n), .metric = "||P A - L U||_F / ||A||_F",
                           .bound_text = "[u/64, 4 n u] (docs/trnsolver.md)", .size = static_cast<double>(n),
                           .full_only = n > 96, .run = [n] {
                             return to_case(run_real_factor('g', n, trn::Generation::trn1), kU<double> / 64,
                                            4 * n * kU<double>, "recursive panels, Ozaki updates");
                           }});
  for (const char kind : {'g', 'p'})
    for (int n : {256, 512})
      reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = kind == 'g' ? "dgetrf" : "dpotrf",
                        .variant = kind == 'g' ? "fp64 recursive panels + Ozaki DGEMM, DMA interchanges"
                                               : "fp64 recursive panels + Ozaki DSYRK",
                        .shape = std::to_string(n) + "x" + std::to_string(n), .full_only = n > 256,
                        .run = [kind, n](trn::Generation target) {
                          const Run r = run_real_factor(kind, n, target);
                          BenchResult b;
                          b.error = r.measured;
                          b.error_metric = kind == 'g' ? "||P A - L U||_F / ||A||_F" : "||A - L L^T||_F / ||A||_F";
                          b.host_seconds = r.host_seconds;
                          const double dn = n;
                          b.flops = (kind == 'g' ? 2.0 / 3 : 1.0 / 3) * dn * dn * dn;
                          b.device = DeviceCost::from(r.rep.profile);
                          b.native_seconds = native_seconds<double>(kind == 'g' ? 'G' : 'P', n);
                          b.native_name = native_name<double>(kind == 'g' ? 'G' : 'P');
                          return b;
                        }});
}

void add_solver_solves(Registry& reg) {
  add_solve<double>(reg, 'g', "dgetrs", "two dtrsm (recursive, Ozaki DGEMM updates, 32-column host leaves), DMA interchanges");
  add_solve<double>(reg, 'p', "dpotrs", "two dtrsm (recursive, Ozaki DGEMM updates, 32-column host leaves)");
  add_real_factors(reg);
  add_solve<std::complex<float>>(reg, 'g', "cgetrs", "ctrsm (4M, fp32) on TensorE, interchanges by DMA");
  add_solve<std::complex<double>>(reg, 'g', "zgetrs", "ztrsm (4M, Ozaki) on TensorE, interchanges by DMA");
  add_solve<std::complex<float>>(reg, 'p', "cpotrs", "two ctrsm (4M, fp32) on TensorE");
  add_solve<std::complex<double>>(reg, 'p', "zpotrs", "two ztrsm (4M, Ozaki) on TensorE");
  add_batched<float>(reg, "s", "each matrix spotrf / spotrs (fp32 panels + SYRK)");
  add_batched<double>(reg, "d", "each matrix dpotrf / dpotrs (fp64 recursive panels + Ozaki DSYRK, DTRSM)");
  add_batched<std::complex<float>>(reg, "c", "each matrix cpotrf / cpotrs (fp64 host blocks + fp32 4M HERK)");
  add_batched<std::complex<double>>(reg, "z", "each matrix zpotrf / zpotrs (fp64 host blocks + Ozaki 4M HERK)");
}

const Registrar kRegistrar(add_solver_solves);

}  // namespace
}  // namespace trnsci::cli
