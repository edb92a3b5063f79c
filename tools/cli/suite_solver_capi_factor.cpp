// `trnsci validate/bench` suite "solver", the factorisations and solves tools/acceptance_audit.py found
// without a case of their own (#27 audit, s12/audit): the 64-bit X API's Xgetrf + Xgetrs and Xpotrf +
// Xpotrs in R_32F / R_64F / C_32F / C_64F, and the legacy S/D getrf + getrs and potrf + potrs, all
// through the C entry points (workspace queries, int64 pivots, info checked). Oracles: long-double
// residuals of tests/reference/factor_oracles.hpp (independent of the library's kernels).
// Bounds (docs/trnsolver.md "Validate cases of the solves, the batched Cholesky, the Q routines and the
// selected eigensolvers", and "Acceptance audit"): ||P A - L U||_F / ||A||_F and ||A - L L^H||_F /
// ||A||_F <= 8 n u, the solve's ||B - A X||_F / (||A||_F ||X||_F) <= 8 n u, two-sided for the fp32
// types (>= u/64: the work really ran in fp32); every info 0. The case's measure is the larger of the
// factor and solve errors. Bench rows: the factorisation and the solve separately (each row's
// modeled time is that call's profile), LAPACK's flop counts (getrf 2n^3/3, potrf n^3/3, getrs / potrs
// 2 n^2 nrhs; x4 complex).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "factor_oracles.hpp"
#include "registry.hpp"
#include "solver_data.hpp"
#include "trnsolver.h"

namespace trnsci::cli {
namespace {

using solver_data::kCplx;
using solver_data::kU;
template <class T>
constexpr bool kFp32 = std::is_same_v<solver_data::RealT<T>, float>;
constexpr int kRhs = 3;

using solver_data::kType;

// G G^H / n + I (kappa ~ 5), both triangles stored (Hermitian: real diagonal).
template <class T>
std::vector<T> spd(int n, std::uint64_t seed) {
  const std::vector<T> g = solver_data::gaussian<T>(n, n, seed);
  std::vector<T> a(g.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) {
      std::complex<long double> s = i == j ? n : 0;
      for (int k = 0; k < n; ++k) s += solver_data::wide(g[i + static_cast<std::size_t>(k) * n]) * std::conj(solver_data::wide(g[j + static_cast<std::size_t>(k) * n]));
      s /= static_cast<long double>(n);
      if constexpr (kCplx<T>) {
        const T v(static_cast<solver_data::RealT<T>>(s.real()), static_cast<solver_data::RealT<T>>(i == j ? 0 : s.imag()));
        a[i + static_cast<std::size_t>(j) * n] = v;
        a[j + static_cast<std::size_t>(i) * n] = std::conj(v);
      } else {
        a[i + static_cast<std::size_t>(j) * n] = a[j + static_cast<std::size_t>(i) * n] = static_cast<T>(s.real());
      }
    }
  return a;
}

struct Run {
  double factor_error = 0, solve_error = 0, factor_seconds = 0, solve_seconds = 0;
  int bad_info = 0;
  trnProfile_t factor_profile{}, solve_profile{};
};

// The legacy S/D entry points (getrf/getrs, potrf/potrs) of one type.
template <class T>
struct Legacy;
#define TRNSCI_LEGACY_FACTOR(T, P)                                               \
  template <>                                                                    \
  struct Legacy<T> {                                                             \
    static constexpr auto getrf_buffer = &trnsolverDn##P##getrf_bufferSize;      \
    static constexpr auto getrf = &trnsolverDn##P##getrf;                        \
    static constexpr auto getrs = &trnsolverDn##P##getrs;                        \
    static constexpr auto potrf_buffer = &trnsolverDn##P##potrf_bufferSize;      \
    static constexpr auto potrf = &trnsolverDn##P##potrf;                        \
    static constexpr auto potrs = &trnsolverDn##P##potrs;                        \
  };
TRNSCI_LEGACY_FACTOR(float, S)
TRNSCI_LEGACY_FACTOR(double, D)
#undef TRNSCI_LEGACY_FACTOR

// One factorisation + solve through the C API: api 'x' (X API) or 'l' (legacy), kind 'g' (LU, op N)
// or 'p' (Cholesky, lower). Fills the errors, host times, profiles and the count of nonzero infos /
// failed statuses.
template <class T>
Run run_capi(char api, char kind, int n, trn::Generation target) {
  trnsolverDnHandle_t h = nullptr;
  trnsolverDnParams_t params = nullptr;
  trnsolverDnCreate(&h);
  trnsolverDnCreateParams(&params);
  trnsolverDnSetTarget(h, static_cast<trnTarget_t>(target));
  const std::vector<T> a0 = kind == 'p' ? spd<T>(n, 2100 + static_cast<std::uint64_t>(n))
                                        : solver_data::gaussian<T>(n, n, 2200 + static_cast<std::uint64_t>(n));
  const std::vector<T> b0 = solver_data::gaussian<T>(n, kRhs, 2300);
  std::vector<T> f = a0, x = b0;
  std::vector<std::int64_t> ipiv64(static_cast<std::size_t>(n));
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  int info_f = -99, info_s = -99, failed = 0;
  Run r;
  double t0 = now_seconds();
  if (api == 'x') {
    std::size_t dev = 0, host = 0;
    failed += kind == 'g' ? trnsolverDnXgetrf_bufferSize(h, params, n, n, kType<T>, f.data(), n, kType<T>, &dev, &host)
                          : trnsolverDnXpotrf_bufferSize(h, params, TRNBLAS_FILL_MODE_LOWER, n, kType<T>, f.data(), n,
                                                         kType<T>, &dev, &host);
    std::vector<char> wd(std::max<std::size_t>(dev, 1)), wh(std::max<std::size_t>(host, 1));
    t0 = now_seconds();
    failed += kind == 'g' ? trnsolverDnXgetrf(h, params, n, n, kType<T>, f.data(), n, ipiv64.data(), kType<T>, wd.data(),
                                              dev, wh.data(), host, &info_f)
                          : trnsolverDnXpotrf(h, params, TRNBLAS_FILL_MODE_LOWER, n, kType<T>, f.data(), n, kType<T>,
                                              wd.data(), dev, wh.data(), host, &info_f);
    r.factor_seconds = seconds_since(t0);
    trnsolverDnGetLastProfile(h, &r.factor_profile);
    t0 = now_seconds();
    failed += kind == 'g' ? trnsolverDnXgetrs(h, params, TRNBLAS_OP_N, n, kRhs, kType<T>, f.data(), n, ipiv64.data(),
                                              kType<T>, x.data(), n, &info_s)
                          : trnsolverDnXpotrs(h, params, TRNBLAS_FILL_MODE_LOWER, n, kRhs, kType<T>, f.data(), n, kType<T>,
                                              x.data(), n, &info_s);
    for (int i = 0; i < n; ++i) ipiv[static_cast<std::size_t>(i)] = static_cast<int>(ipiv64[static_cast<std::size_t>(i)]);
  } else if constexpr (!kCplx<T>) {
    using L = Legacy<T>;
    int lwork = 0;
    failed += kind == 'g' ? L::getrf_buffer(h, n, n, f.data(), n, &lwork)
                          : L::potrf_buffer(h, TRNBLAS_FILL_MODE_LOWER, n, f.data(), n, &lwork);
    std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
    t0 = now_seconds();
    failed += kind == 'g' ? L::getrf(h, n, n, f.data(), n, work.data(), ipiv.data(), &info_f)
                          : L::potrf(h, TRNBLAS_FILL_MODE_LOWER, n, f.data(), n, work.data(), lwork, &info_f);
    r.factor_seconds = seconds_since(t0);
    trnsolverDnGetLastProfile(h, &r.factor_profile);
    t0 = now_seconds();
    failed += kind == 'g' ? L::getrs(h, TRNBLAS_OP_N, n, kRhs, f.data(), n, ipiv.data(), x.data(), n, &info_s)
                          : L::potrs(h, TRNBLAS_FILL_MODE_LOWER, n, kRhs, f.data(), n, x.data(), n, &info_s);
  }
  r.solve_seconds = seconds_since(t0);
  trnsolverDnGetLastProfile(h, &r.solve_profile);
  trnsolverDnDestroyParams(params);
  trnsolverDnDestroy(h);
  r.bad_info = failed + (info_f != 0) + (info_s != 0);
  r.factor_error = kind == 'g' ? factor_oracle::lu_backward(n, n, a0.data(), f.data(), n, ipiv.data())
                               : factor_oracle::cholesky_backward(n, a0.data(), f.data(), n, true);
  const auto at = [&](std::int64_t i, std::int64_t k) { return factor_oracle::wide(a0[i + k * n]); };
  r.solve_error = factor_oracle::solve_backward(n, kRhs, a0.data(), n, at, b0.data(), x.data(), n);
  return r;
}

template <class T>
void add_capi(Registry& reg, char api, char kind, const std::string& op, const std::string& mode) {
  const int n = 96;
  const double lower = kFp32<T> ? kU<T> / 64 : NAN, bound = 8 * n * kU<T>;
  const std::string what = kind == 'g' ? "||P A - L U||_F / ||A||_F" : "||A - L L^H||_F / ||A||_F";
  reg.add(ValidationCase{
      .suite = "solver", .library = "trnsolver", .op = op, .mode = mode,
      .shape = std::to_string(n) + "x" + std::to_string(n) + ", nrhs 3",
      .metric = "max(" + what + ", ||B - A X||_F / (||A||_F ||X||_F))",
      .bound_text = std::string(kFp32<T> ? "[u/64, 8 n u]" : "8 n u") + "; info 0 (docs/trnsolver.md)",
      .size = n, .run = [api, kind, n, lower, bound, what] {
        const Run r = run_capi<T>(api, kind, n, trn::Generation::trn1);
        CaseResult c;
        c.measured = std::max(r.factor_error, r.solve_error);
        c.bound = bound;
        c.lower = lower;
        c.pass = r.bad_info == 0 && c.measured <= bound && (std::isnan(lower) || c.measured >= lower);
        c.note = what + " " + sci(r.factor_error) + ", solve " + sci(r.solve_error) + "; " + std::to_string(r.bad_info) +
                 " nonzero info / failed calls (must be 0)";
        c.host_seconds = r.factor_seconds + r.solve_seconds;
        c.device = DeviceCost::from(r.factor_profile);
        return c;
      }});
  // Two bench rows from one run each: the factorisation's and the solve's own profile and host time.
  // The legacy D rows are s12/dtrsm's (bench rows dgetrf / dgetrs / dpotrf / dpotrs): not repeated here.
  if (api == 'l' && !kFp32<T>) return;
  for (const bool solve : {false, true}) {
    const std::string row_op = solve ? (api == 'x' ? (kind == 'g' ? "Xgetrs" : "Xpotrs") + op.substr(op.find(' '))
                                                   : op.substr(0, 1) + (kind == 'g' ? "getrs" : "potrs"))
                                     : op.substr(0, op.find('+'));
    reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = row_op, .variant = mode,
                      .shape = solve ? "512x512, nrhs 3" : "512x512",
                      .run = [api, kind, solve, what](trn::Generation target) {
                        const int nb = 512;
                        const Run r = run_capi<T>(api, kind, nb, target);
                        if (r.bad_info != 0) throw std::runtime_error("nonzero info or failed call");
                        BenchResult b;
                        b.error = solve ? r.solve_error : r.factor_error;
                        b.error_metric = solve ? "||B - A X||_F / (||A||_F ||X||_F)" : what;
                        b.host_seconds = solve ? r.solve_seconds : r.factor_seconds;
                        const double dn = nb, c = kCplx<T> ? 4.0 : 1.0;
                        b.flops = c * (solve ? 2 * dn * dn * kRhs : (kind == 'g' ? 2 * dn * dn * dn / 3 : dn * dn * dn / 3));
                        b.device = DeviceCost::from(solve ? r.solve_profile : r.factor_profile);
                        return b;
                      }});
  }
}

void add_solver_capi_factor(Registry& reg) {
  add_capi<float>(reg, 'x', 'g', "Xgetrf R_32F", "C API, Xgetrf + Xgetrs (Sgetrf's kernels)");
  add_capi<double>(reg, 'x', 'g', "Xgetrf R_64F", "C API, Xgetrf + Xgetrs (Dgetrf's kernels)");
  add_capi<std::complex<float>>(reg, 'x', 'g', "Xgetrf C_32F", "C API, Xgetrf + Xgetrs (Cgetrf's kernels)");
  add_capi<std::complex<double>>(reg, 'x', 'g', "Xgetrf C_64F", "C API, Xgetrf + Xgetrs (Zgetrf's kernels)");
  add_capi<float>(reg, 'x', 'p', "Xpotrf R_32F", "C API, Xpotrf + Xpotrs (Spotrf's kernels)");
  add_capi<double>(reg, 'x', 'p', "Xpotrf R_64F", "C API, Xpotrf + Xpotrs (Dpotrf's kernels)");
  add_capi<std::complex<float>>(reg, 'x', 'p', "Xpotrf C_32F", "C API, Xpotrf + Xpotrs (Cpotrf's kernels)");
  add_capi<std::complex<double>>(reg, 'x', 'p', "Xpotrf C_64F", "C API, Xpotrf + Xpotrs (Zpotrf's kernels)");
  add_capi<float>(reg, 'l', 'g', "sgetrf+getrs", "C API, Sgetrf + Sgetrs");
  add_capi<double>(reg, 'l', 'g', "dgetrf+getrs", "C API, Dgetrf + Dgetrs");
  add_capi<float>(reg, 'l', 'p', "spotrf+potrs", "C API, Spotrf + Spotrs");
  add_capi<double>(reg, 'l', 'p', "dpotrf+potrs", "C API, Dpotrf + Dpotrs");
}

const Registrar kRegistrar(add_solver_capi_factor);

}  // namespace
}  // namespace trnsci::cli
