// `trnsci validate/bench` suite "solver", the real Jacobi family through the C API where
// tools/acceptance_audit.py found a (family, type) without a case or row (#27 acceptance audit, s13/jacgap):
// {S,D}gesvdj (bench), {S,D}gesvdjBatched (validate + bench), {S,D}syevjBatched (D validate, bench),
// {S,D}sygvj (bench). Every run goes through trnsolverDn<P><routine>_bufferSize + the routine, with a
// handle whose target is the row's, and is checked against LAPACKE in fp64 (an oracle only) on the same
// (type-rounded) matrices:
//  * gesvdj / gesvdjBatched: max |sigma - dgesvd| / sigma_max over the matrices, bound
//    (6 u S K + K tol) ||A||_F / sigma_max of docs/trnsolver.md "gesvdj" (S sweeps, K = min(m, n), tol the
//    effective tolerance). gesvdjBatched cannot report its sweeps (NOT_SUPPORTED, as cuSOLVER), so the
//    case sets max_sweeps = kMaxSweeps and bounds with S = kMaxSweeps (info 0 says no matrix needed more).
//  * syevjBatched: max |lambda - ref| / ||A||_2 over the matrices, bound c max(n, 8) u (c = 3 fp32,
//    1 fp64: the bounds of the ssyevj / dsyevj cases, docs/trnsolver.md "Accuracy of syevj"); ref is
//    dsyevd for fp32 and long-double Jacobi for fp64 (an fp64 oracle's own error is as large as ours).
//  * sygvj (itype 1): max |lambda - dsygv| / max |lambda|, bound 8 n u kappa(B) (docs "sygvj").
// Bench rows: host time of the C call, modeled trn1 / trn2 time and roofline ratio from
// trnsolverDnGetLastProfile, the LAPACKE loop of the same work as the native column; flops as LAPACK's
// working notes count the dense equivalents (SVD 4 m n^2 + 8 n^3 (+ U, V) ~ 4 m n^2 + 22 n^3, syevd
// 4/3 n^3 + 2 n^3 with vectors, sygvd that + 7/3 n^3), so rows compare with their neighbours.
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "registry.hpp"
#include "solver_oracles.hpp"
#include "trn/solver/solver.hpp"
#include "trnsolver.h"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;
constexpr int kMaxSweeps = 15;  // gesvdjBatched's sweep budget (the cuSOLVER sample's), the S of its bound

template <class T>
constexpr bool kFp32 = std::is_same_v<T, float>;
template <class T>
constexpr double kUnit = kFp32<T> ? 0x1p-24 : 0x1p-53;

// The C entry points of a real value type.
template <class T>
struct Jac;
#define TRNSCI_JACOBI_CAPI(T, P)                                          \
  template <>                                                             \
  struct Jac<T> {                                                         \
    static constexpr auto gesvdj_buffer = &trnsolverDn##P##gesvdj_bufferSize; \
    static constexpr auto gesvdj = &trnsolverDn##P##gesvdj;               \
    static constexpr auto gesvdj_batched_buffer = &trnsolverDn##P##gesvdjBatched_bufferSize; \
    static constexpr auto gesvdj_batched = &trnsolverDn##P##gesvdjBatched; \
    static constexpr auto syevj_batched_buffer = &trnsolverDn##P##syevjBatched_bufferSize; \
    static constexpr auto syevj_batched = &trnsolverDn##P##syevjBatched;  \
    static constexpr auto sygvj_buffer = &trnsolverDn##P##sygvj_bufferSize; \
    static constexpr auto sygvj = &trnsolverDn##P##sygvj;                 \
  };
TRNSCI_JACOBI_CAPI(float, S)
TRNSCI_JACOBI_CAPI(double, D)
#undef TRNSCI_JACOBI_CAPI

// A handle on `target` and the two parameter objects; destroyed with the run.
struct Session {
  trnsolverDnHandle_t h = nullptr;
  gesvdjInfo_t svd = nullptr;
  syevjInfo_t eig = nullptr;
  explicit Session(trn::Generation target) {
    trnsolverDnCreate(&h);
    trnsolverDnSetTarget(h, static_cast<trnTarget_t>(target));
    trnsolverDnCreateGesvdjInfo(&svd);
    trnsolverDnCreateSyevjInfo(&eig);
  }
  ~Session() {
    trnsolverDnDestroyGesvdjInfo(svd);
    trnsolverDnDestroySyevjInfo(eig);
    trnsolverDnDestroy(h);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

// What a run measured: the metric and its bound, failed calls or nonzero infos, the C call's host
// time and profile, the LAPACKE time of the same work.
struct Run {
  double measured = 0, bound = 0, seconds = 0, native_seconds = 0;
  int bad = 0;
  std::string note;
  trnProfile_t profile{};
};

// `count` Gaussian m x n matrices (ld m), rounded to T, seed fixed by the routine and the shape.
template <class T>
std::vector<double> gaussian_batch(int m, int n, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd;
  std::vector<double> a(static_cast<std::size_t>(m) * n * count);
  for (double& x : a) x = static_cast<double>(static_cast<T>(nd(rng)));
  return a;
}

// `count` symmetric n x n matrices (G + G^T) / 2, rounded to T.
template <class T>
std::vector<double> symmetric_batch(int n, int count, std::uint64_t seed) {
  std::vector<double> g = gaussian_batch<T>(n, n, count, seed), a(g.size());
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  for (int k = 0; k < count; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        a[k * nn + i + static_cast<std::size_t>(j) * n] =
            static_cast<double>(static_cast<T>(0.5 * (g[k * nn + i + static_cast<std::size_t>(j) * n] + g[k * nn + j + static_cast<std::size_t>(i) * n])));
  return a;
}

double max_abs_diff(const double* x, const std::vector<double>& ref) {
  double e = 0;
  for (std::size_t k = 0; k < ref.size(); ++k) e = std::max(e, std::fabs(x[k] - ref[k]));
  return e;
}

// gesvdj (batched = false: one m x n, econ) or gesvdjBatched (count full SVDs) through the C API.
template <class T>
Run run_gesvdj(bool batched, int m, int n, int count, trn::Generation target) {
  const int k = std::min(m, n), ucols = batched ? m : k, vcols = batched ? n : k;
  const std::vector<double> a = gaussian_batch<T>(m, n, count, 6100 + static_cast<std::uint64_t>(m * 7 + n + count));
  std::vector<T> at(a.begin(), a.end()), s(static_cast<std::size_t>(k) * count),
      u(static_cast<std::size_t>(m) * ucols * count), v(static_cast<std::size_t>(n) * vcols * count);
  std::vector<int> info(static_cast<std::size_t>(count), -99);
  Session ss(target);
  Run r;
  int lwork = 0, sweeps = kMaxSweeps;
  r.bad += trnsolverDnXgesvdjSetMaxSweeps(ss.svd, kMaxSweeps) != 0;
  const auto jobz = TRNSOLVER_EIG_MODE_VECTOR;
  r.bad += (batched ? Jac<T>::gesvdj_batched_buffer(ss.h, jobz, m, n, at.data(), m, s.data(), u.data(), m, v.data(), n,
                                                    &lwork, ss.svd, count)
                    : Jac<T>::gesvdj_buffer(ss.h, jobz, 1, m, n, at.data(), m, s.data(), u.data(), m, v.data(), n, &lwork,
                                            ss.svd)) != 0;
  std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
  const double t0 = now_seconds();
  r.bad += (batched ? Jac<T>::gesvdj_batched(ss.h, jobz, m, n, at.data(), m, s.data(), u.data(), m, v.data(), n,
                                             work.data(), lwork, info.data(), ss.svd, count)
                    : Jac<T>::gesvdj(ss.h, jobz, 1, m, n, at.data(), m, s.data(), u.data(), m, v.data(), n, work.data(),
                                     lwork, info.data(), ss.svd)) != 0;
  r.seconds = seconds_since(t0);
  trnsolverDnGetLastProfile(ss.h, &r.profile);
  if (!batched) r.bad += trnsolverDnXgesvdjGetSweeps(ss.h, ss.svd, &sweeps) != 0;
  for (int x : info) r.bad += x != 0;
  // Per matrix: |sigma - dgesvd| / sigma_max against its own bound; the reported value is the worst
  // error, the bound the smallest of the matrices' bounds (so the case is at least as strict).
  const double tol = kFp32<T> ? ts::sgesvdj_effective_tolerance(std::max(m, n), 0) : ts::dgesvdj_effective_tolerance(std::max(m, n), 0);
  const std::size_t mn = static_cast<std::size_t>(m) * n;
  r.bound = INFINITY;
  double worst_rec = 0;
  for (int b = 0; b < count; ++b) {
    std::vector<double> lc(a.begin() + static_cast<std::ptrdiff_t>(mn * b), a.begin() + static_cast<std::ptrdiff_t>(mn * (b + 1)));
    std::vector<double> ref(static_cast<std::size_t>(k)), sup(static_cast<std::size_t>(k) + 1), sd(ref.size());
    LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, lc.data(), m, ref.data(), nullptr, 1, nullptr, 1, sup.data());
    for (int q = 0; q < k; ++q) sd[q] = s[static_cast<std::size_t>(b) * k + q];
    long double fro = 0, rec = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        long double x = a[mn * b + i + static_cast<std::size_t>(j) * m];
        fro += x * x;
        for (int q = 0; q < k; ++q)
          x -= static_cast<long double>(u[static_cast<std::size_t>(m) * ucols * b + i + static_cast<std::size_t>(q) * m]) * sd[q] *
               v[static_cast<std::size_t>(n) * vcols * b + j + static_cast<std::size_t>(q) * n];
        rec += x * x;
      }
    r.measured = std::max(r.measured, max_abs_diff(sd.data(), ref) / ref[0]);
    r.bound = std::min(r.bound, (6 * kUnit<T> * sweeps * k + k * tol) * std::sqrt(double(fro)) / ref[0]);
    worst_rec = std::max(worst_rec, double(std::sqrt(rec / fro)));
  }
  r.note = std::to_string(r.bad) + " failed calls / nonzero infos, " + (batched ? "S = max_sweeps " : "sweeps ") +
           std::to_string(sweeps) + ", worst ||A - U S V^T||_F/||A||_F " + sci(worst_rec);
  r.native_seconds = best_seconds(2, [&] {
    for (int b = 0; b < count; ++b) {
      std::vector<T> an(at.begin() + static_cast<std::ptrdiff_t>(mn * b), at.begin() + static_cast<std::ptrdiff_t>(mn * (b + 1)));
      std::vector<T> sn(static_cast<std::size_t>(k)), un(static_cast<std::size_t>(m) * ucols), vn(static_cast<std::size_t>(vcols) * n), sup(sn.size() + 1);
      const char job = batched ? 'A' : 'S';
      if constexpr (kFp32<T>)
        LAPACKE_sgesvd(LAPACK_COL_MAJOR, job, job, m, n, an.data(), m, sn.data(), un.data(), m, vn.data(), vcols, sup.data());
      else
        LAPACKE_dgesvd(LAPACK_COL_MAJOR, job, job, m, n, an.data(), m, sn.data(), un.data(), m, vn.data(), vcols, sup.data());
    }
  });
  return r;
}

// syevjBatched (vectors, lower) over `count` symmetric n x n matrices through the C API.
template <class T>
Run run_syevj_batched(int n, int count, trn::Generation target) {
  const std::vector<double> a = symmetric_batch<T>(n, count, 6200 + static_cast<std::uint64_t>(n + count));
  std::vector<T> at(a.begin(), a.end()), w(static_cast<std::size_t>(n) * count);
  std::vector<int> info(static_cast<std::size_t>(count), -99);
  Session ss(target);
  Run r;
  int lwork = 0;
  const auto jobz = TRNSOLVER_EIG_MODE_VECTOR;
  const auto lower = TRNBLAS_FILL_MODE_LOWER;
  r.bad += Jac<T>::syevj_batched_buffer(ss.h, jobz, lower, n, at.data(), n, w.data(), &lwork, ss.eig, count) != 0;
  std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
  const double t0 = now_seconds();
  r.bad += Jac<T>::syevj_batched(ss.h, jobz, lower, n, at.data(), n, w.data(), work.data(), lwork, info.data(), ss.eig,
                                 count) != 0;
  r.seconds = seconds_since(t0);
  trnsolverDnGetLastProfile(ss.h, &r.profile);
  for (int x : info) r.bad += x != 0;
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  for (int b = 0; b < count; ++b) {
    std::vector<double> lc(a.begin() + static_cast<std::ptrdiff_t>(nn * b), a.begin() + static_cast<std::ptrdiff_t>(nn * (b + 1)));
    std::vector<double> ref(static_cast<std::size_t>(n)), wd(ref.size());
    if constexpr (kFp32<T>) {
      LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, lc.data(), n, ref.data());
    } else {
      // fp64 against fp64 LAPACK would measure the oracle's own O(n u) error beside ours (dsyevd with
      // OPENBLAS_NUM_THREADS=1 moved this case from 2.1e-15 to 3.6e-15, over the m u bound): the fp64
      // case's reference is long-double Jacobi instead, so the bound speaks of trnsolver's error alone.
      const auto exact = trn_reference::jacobi_long_double(std::vector<long double>(lc.begin(), lc.end()), n);
      ref.assign(exact.begin(), exact.end());
    }
    for (int q = 0; q < n; ++q) wd[q] = w[static_cast<std::size_t>(b) * n + q];
    const double norm2 = std::max(std::fabs(ref.front()), std::fabs(ref.back()));
    r.measured = std::max(r.measured, max_abs_diff(wd.data(), ref) / norm2);
  }
  r.bound = (kFp32<T> ? 3.0 : 1.0) * std::max(n, 8) * kUnit<T>;
  r.note = std::to_string(r.bad) + " failed calls / nonzero infos (must be 0)";
  r.native_seconds = best_seconds(2, [&] {
    for (int b = 0; b < count; ++b) {
      std::vector<T> an(a.begin() + static_cast<std::ptrdiff_t>(nn * b), a.begin() + static_cast<std::ptrdiff_t>(nn * (b + 1))),
          wn(static_cast<std::size_t>(n));
      if constexpr (kFp32<T>) LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'V', 'L', n, an.data(), n, wn.data());
      else LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', n, an.data(), n, wn.data());
    }
  });
  return r;
}

// sygvj (itype 1, vectors, lower), B = G G^T / n + I, through the C API.
template <class T>
Run run_sygvj(int n, trn::Generation target) {
  std::mt19937_64 rng(6300 + static_cast<std::uint64_t>(n));
  std::vector<double> b = trn_reference::random_spd(n, rng);
  for (double& x : b) x = static_cast<double>(static_cast<T>(x));
  const std::vector<double> a = symmetric_batch<T>(n, 1, 6400 + static_cast<std::uint64_t>(n));
  std::vector<T> at(a.begin(), a.end()), bt(b.begin(), b.end()), w(static_cast<std::size_t>(n));
  Session ss(target);
  Run r;
  int lwork = 0, info = -99;
  const auto jobz = TRNSOLVER_EIG_MODE_VECTOR;
  const auto lower = TRNBLAS_FILL_MODE_LOWER;
  r.bad += Jac<T>::sygvj_buffer(ss.h, TRNSOLVER_EIG_TYPE_1, jobz, lower, n, at.data(), n, bt.data(), n, w.data(), &lwork,
                                ss.eig) != 0;
  std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
  const double t0 = now_seconds();
  r.bad += Jac<T>::sygvj(ss.h, TRNSOLVER_EIG_TYPE_1, jobz, lower, n, at.data(), n, bt.data(), n, w.data(), work.data(),
                         lwork, &info, ss.eig) != 0;
  r.seconds = seconds_since(t0);
  trnsolverDnGetLastProfile(ss.h, &r.profile);
  r.bad += info != 0;
  std::vector<double> ra(a), rb(b), ref(static_cast<std::size_t>(n)), bw(ref.size()), bc(b), wd(w.begin(), w.end());
  LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'N', 'L', n, ra.data(), n, rb.data(), n, ref.data());
  LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, bc.data(), n, bw.data());
  const double top = std::max(std::fabs(ref.front()), std::fabs(ref.back()));
  r.measured = max_abs_diff(wd.data(), ref) / top;
  r.bound = 8 * n * kUnit<T> * bw.back() / bw.front();
  r.note = std::to_string(r.bad) + " failed calls / nonzero info, kappa(B) " + sci(bw.back() / bw.front());
  r.native_seconds = best_seconds(2, [&] {
    std::vector<T> an(a.begin(), a.end()), bn(b.begin(), b.end()), wn(static_cast<std::size_t>(n));
    if constexpr (kFp32<T>) LAPACKE_ssygvd(LAPACK_COL_MAJOR, 1, 'V', 'L', n, an.data(), n, bn.data(), n, wn.data());
    else LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'V', 'L', n, an.data(), n, bn.data(), n, wn.data());
  });
  return r;
}

// One routine of the file: 'j' gesvdj, 'J' gesvdjBatched, 'b' syevjBatched, 'y' sygvj.
struct Shape {
  int m, n, count;
};
template <class T>
Run run_routine(char routine, Shape s, trn::Generation target) {
  if (routine == 'j' || routine == 'J') return run_gesvdj<T>(routine == 'J', s.m, s.n, s.count, target);
  if (routine == 'b') return run_syevj_batched<T>(s.n, s.count, target);
  return run_sygvj<T>(s.n, target);
}

std::string shape_text(char routine, Shape s) {
  const std::string mat = std::to_string(s.m) + "x" + std::to_string(s.n);
  return routine == 'J' || routine == 'b' ? std::to_string(s.count) + " x " + mat : mat;
}

double flops_of(char routine, Shape s) {
  const double m = s.m, n = s.n, c = s.count;
  if (routine == 'j' || routine == 'J') return c * (4 * m * n * n + 22 * n * n * n);
  if (routine == 'b') return c * (4.0 / 3 + 2) * n * n * n;
  return (4.0 / 3 + 2 + 7.0 / 3) * n * n * n;
}

struct Routine {
  char routine;
  const char* name;  // without the S/D prefix
  const char* mode;
  const char* metric;
  const char* bound_text;
};
constexpr Routine kGesvdj{'j', "gesvdj", "C API, econ, one-sided Jacobi", "max |sigma - dgesvd| / sigma_max",
                          "(6 u S K + K tol) ||A||_F / sigma_max (docs/trnsolver.md \"gesvdj\")"};
constexpr Routine kGesvdjBatched{'J', "gesvdjBatched", "C API, full U and V, max_sweeps 15",
                                 "max over matrices |sigma - dgesvd| / sigma_max",
                                 "(6 u S K + K tol) ||A||_F / sigma_max, S = max_sweeps (docs/trnsolver.md \"gesvdj\")"};
constexpr Routine kSyevjBatched{'b', "syevjBatched", "C API, vectors", "max over matrices |lambda - ref| / ||A||_2 (ref: dsyevd; fp64: long-double Jacobi)",
                                "3 max(n,8) u32 / max(n,8) u64 (docs/trnsolver.md \"Accuracy of syevj\")"};
constexpr Routine kSygvj{'y', "sygvj", "C API, itype 1, potrf + reduction + syevj", "max |lambda - dsygv| / max |lambda|",
                         "8 n u kappa(B) (docs/trnsolver.md \"sygvj\")"};

template <class T>
std::string op_of(const Routine& r) {
  return std::string(kFp32<T> ? "s" : "d") + r.name;
}

template <class T>
void add_case(Registry& reg, const Routine& r, Shape s) {
  reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = op_of<T>(r), .mode = r.mode,
                         .shape = shape_text(r.routine, s), .metric = r.metric, .bound_text = r.bound_text,
                         .size = static_cast<double>(s.n), .run = [r, s] {
                           const Run x = run_routine<T>(r.routine, s, trn::Generation::trn1);
                           CaseResult c;
                           c.measured = x.measured;
                           c.bound = x.bound;
                           c.pass = x.bad == 0 && c.measured <= c.bound;
                           c.note = x.note;
                           c.host_seconds = x.seconds;
                           c.device = DeviceCost::from(x.profile);
                           return c;
                         }});
}

template <class T>
void add_row(Registry& reg, const Routine& r, Shape s) {
  reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op_of<T>(r), .variant = r.mode,
                    .shape = shape_text(r.routine, s), .run = [r, s](trn::Generation target) {
                      const Run x = run_routine<T>(r.routine, s, target);
                      if (x.bad != 0) throw std::runtime_error(x.note);
                      BenchResult b;
                      b.error = x.measured;
                      b.error_metric = r.metric;
                      b.host_seconds = x.seconds;
                      b.flops = flops_of(r.routine, s);
                      b.device = DeviceCost::from(x.profile);
                      b.native_seconds = x.native_seconds;
                      b.native_name = std::string("LAPACKE ") + (kFp32<T> ? "s" : "d") +
                                      (r.routine == 'y' ? "sygvd" : r.routine == 'b' ? "syevd loop" : r.routine == 'J' ? "gesvd loop" : "gesvd") +
                                      " (OpenBLAS)";
                      return b;
                    }});
}

template <class T>
void add_type(Registry& reg) {
  add_case<T>(reg, kGesvdjBatched, {32, 24, 4});
  add_case<T>(reg, kGesvdjBatched, {24, 32, 4});  // m < n: the run on A^T
  if constexpr (!kFp32<T>) add_case<T>(reg, kSyevjBatched, {32, 32, 8});  // ssyevjBatched's cases: suite_solver.cpp
  add_row<T>(reg, kGesvdj, {128, 96, 1});
  add_row<T>(reg, kGesvdjBatched, {32, 32, 8});
  add_row<T>(reg, kSyevjBatched, {32, 32, kFp32<T> ? 64 : 8});
  add_row<T>(reg, kSygvj, {96, 96, 1});
}

void add_solver_capi_jacobi(Registry& reg) {
  add_type<float>(reg);
  add_type<double>(reg);
}

const Registrar kRegistrar(add_solver_capi_jacobi);

}  // namespace
}  // namespace trnsci::cli
