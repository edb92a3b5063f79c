// `trnsci validate/bench` suite "solver": trnsolver's Jacobi eigensolvers against LAPACKE dsyevd
// (OpenBLAS) and, for the graded matrix of Demmel & Veselic, against a long-double Jacobi written
// here. LAPACKE is a reference only.
#include <lapacke.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "registry.hpp"
#include "solver_oracles.hpp"
#include "trn/solver/solver.hpp"

namespace trnsci::cli {
namespace {

namespace ts = trn::solver;
using trn_reference::jacobi_long_double;  // tests/reference/solver_oracles.hpp (shared with the tests)

std::vector<double> random_symmetric(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd;
  std::vector<double> g(static_cast<std::size_t>(n) * n), a(g.size());
  for (double& x : g) x = nd(rng);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) a[i + static_cast<std::size_t>(j) * n] = 0.5 * (g[i + j * n] + g[j + i * n]);
  return a;
}

std::vector<double> dsyevd_values(std::vector<double> a, int n) {
  std::vector<double> w(static_cast<std::size_t>(n));
  LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, a.data(), n, w.data());
  return w;
}

double max_value_error(const std::vector<double>& w, const std::vector<double>& ref) {
  double norm2 = 0, err = 0;
  for (double x : ref) norm2 = std::max(norm2, std::fabs(x));
  for (std::size_t k = 0; k < w.size(); ++k) err = std::max(err, std::fabs(w[k] - ref[k]));
  return err / norm2;
}

// Eigenvalues of a random symmetric matrix by Ssyevj (fp32 tile kernel) or Dsyevj (host fp64).
CaseResult eig_case(int n, bool fp32) {
  const auto a = random_symmetric(n, 1000 + static_cast<std::uint64_t>(n));
  std::vector<double> ad(a);
  if (fp32)
    for (double& x : ad) x = static_cast<double>(static_cast<float>(x));
  // fp64 is measured against long-double Jacobi: an fp64 oracle's own O(n u) error is as large as
  // dsyevj's bound (suite_solver_capi_jacobi.cpp's syevjBatched case, OPENBLAS_NUM_THREADS=1).
  std::vector<double> ref;
  if (fp32) {
    ref = dsyevd_values(ad, n);
  } else {
    const auto exact = jacobi_long_double(std::vector<long double>(ad.begin(), ad.end()), n);
    ref.assign(exact.begin(), exact.end());
  }
  std::vector<double> w(static_cast<std::size_t>(n));
  ts::CallReport rep;
  const double t0 = now_seconds();
  ts::SyevjResult r;
  if (fp32) {
    std::vector<float> af(ad.begin(), ad.end()), wf(static_cast<std::size_t>(n));
    r = ts::ssyevj({}, true, ts::Uplo::lower, n, af.data(), n, wf.data(), {}, &rep);
    w.assign(wf.begin(), wf.end());
  } else {
    r = ts::dsyevj({}, true, ts::Uplo::lower, n, ad.data(), n, w.data(), {}, &rep);
  }
  CaseResult c;
  c.host_seconds = seconds_since(t0);
  c.measured = max_value_error(w, ref);
  const double u = fp32 ? 0x1p-24 : 0x1p-53;
  c.bound = (fp32 ? 3.0 : 1.0) * std::max(n, 8) * u;
  c.pass = r.info == 0 && c.measured <= c.bound;
  c.note = "info " + std::to_string(r.info) + ", " + std::to_string(r.sweeps) + " sweeps, off(A)_F " + sci(r.residual) +
           (fp32 ? "" : "; fp64 block Jacobi: host pair subproblems, Ozaki DGEMM rotations");
  c.device = DeviceCost::from(rep.profile);
  return c;
}

// The ssyevj / dsyevj bench row: vectors, random symmetric n x n (seed 77), eigenvalues against
// LAPACKE dsyevd, native LAPACKE ?syevd.
BenchResult syevj_bench(int n, bool fp32, trn::Generation target) {
  const auto a = random_symmetric(n, 77);
  std::vector<double> ad(a), wd(static_cast<std::size_t>(n));
  ts::Settings s;
  s.target = target;
  ts::CallReport rep;
  const double t0 = now_seconds();
  if (fp32) {
    std::vector<float> af(a.begin(), a.end()), w(static_cast<std::size_t>(n));
    ts::ssyevj(s, true, ts::Uplo::lower, n, af.data(), n, w.data(), {}, &rep);
    wd.assign(w.begin(), w.end());
  } else {
    ts::dsyevj(s, true, ts::Uplo::lower, n, ad.data(), n, wd.data(), {}, &rep);
  }
  BenchResult b;
  b.host_seconds = seconds_since(t0);
  std::vector<double> ref(a);
  if (fp32)
    for (double& x : ref) x = static_cast<double>(static_cast<float>(x));
  b.error = max_value_error(wd, dsyevd_values(ref, n));
  b.error_metric = "max |lambda - dsyevd| / ||A||_2";
  b.flops = 0;
  b.device = DeviceCost::from(rep.profile);
  b.native_name = fp32 ? "LAPACKE ssyevd (OpenBLAS)" : "LAPACKE dsyevd (OpenBLAS)";
  b.native_seconds = best_seconds(2, [&] {
    std::vector<float> an(a.begin(), a.end()), wn(static_cast<std::size_t>(n));
    std::vector<double> dn(a), dw(static_cast<std::size_t>(n));
    if (fp32)
      LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'V', 'L', n, an.data(), n, wn.data());
    else
      LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', n, dn.data(), n, dw.data());
  });
  return b;
}

// SsyevjBatched over `batch` random symmetric n x n matrices (fp32): the worst eigenvalue error of
// any matrix against LAPACKE_dsyevd, relative to its ||A||_2.
CaseResult eig_batched_case(int n, int batch) {
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  std::vector<float> af(nn * static_cast<std::size_t>(batch)), wf(static_cast<std::size_t>(n) * batch);
  std::vector<std::vector<double>> refs;
  for (int k = 0; k < batch; ++k) {
    auto a = random_symmetric(n, 5000 + static_cast<std::uint64_t>(n) * 1000 + static_cast<std::uint64_t>(k));
    for (double& x : a) x = static_cast<double>(static_cast<float>(x));
    std::copy(a.begin(), a.end(), af.begin() + static_cast<std::ptrdiff_t>(nn * k));
    refs.push_back(dsyevd_values(a, n));
  }
  ts::CallReport rep;
  const double t0 = now_seconds();
  const auto rs = ts::ssyevj_batched({}, true, ts::Uplo::lower, n, af.data(), n, wf.data(), {}, batch, &rep);
  CaseResult c;
  c.host_seconds = seconds_since(t0);
  int failed = 0, max_sweeps = 0;
  c.measured = 0;
  for (int k = 0; k < batch; ++k) {
    const std::vector<double> w(wf.begin() + static_cast<std::ptrdiff_t>(n) * k, wf.begin() + static_cast<std::ptrdiff_t>(n) * (k + 1));
    c.measured = std::max(c.measured, max_value_error(w, refs[static_cast<std::size_t>(k)]));
    failed += rs[static_cast<std::size_t>(k)].info != 0;
    max_sweeps = std::max(max_sweeps, rs[static_cast<std::size_t>(k)].sweeps);
  }
  c.bound = 3.0 * std::max(n, 8) * 0x1p-24;
  c.pass = failed == 0 && c.measured <= c.bound;
  c.note = std::to_string(batch - failed) + "/" + std::to_string(batch) + " info 0, at most " + std::to_string(max_sweeps) + " sweeps";
  c.device = DeviceCost::from(rep.profile);
  return c;
}

// Singular values of a random Gaussian m x n matrix by Sgesvdj (fp32 tile kernel) or Dgesvdj (host
// fp64) against LAPACKE_dgesvd, with the reconstruction ||A - U S V^T||_F / ||A||_F.
CaseResult svd_case(int m, int n, bool fp32) {
  std::mt19937_64 rng(2000 + static_cast<std::uint64_t>(m * 131 + n));
  std::normal_distribution<double> nd;
  std::vector<double> a(static_cast<std::size_t>(m) * n);
  for (double& x : a) x = fp32 ? static_cast<double>(static_cast<float>(nd(rng))) : nd(rng);
  const int k = std::min(m, n);
  std::vector<double> ref(static_cast<std::size_t>(k)), superb(static_cast<std::size_t>(k) + 1), lc(a);
  LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, lc.data(), m, ref.data(), nullptr, 1, nullptr, 1, superb.data());
  std::vector<double> s(static_cast<std::size_t>(k)), u(static_cast<std::size_t>(m) * k), v(static_cast<std::size_t>(n) * k);
  ts::CallReport rep;
  const double t0 = now_seconds();
  ts::GesvdjResult r;
  if (fp32) {
    std::vector<float> af(a.begin(), a.end()), sf(s.size()), uf(u.size()), vf(v.size());
    r = ts::sgesvdj({}, true, true, m, n, af.data(), m, sf.data(), uf.data(), m, vf.data(), n, {}, &rep);
    s.assign(sf.begin(), sf.end());
    u.assign(uf.begin(), uf.end());
    v.assign(vf.begin(), vf.end());
  } else {
    std::vector<double> ac(a);
    r = ts::dgesvdj({}, true, true, m, n, ac.data(), m, s.data(), u.data(), m, v.data(), n, {}, &rep);
  }
  CaseResult c;
  c.host_seconds = seconds_since(t0);
  double err = 0, fro = 0, rec = 0;
  for (int i = 0; i < k; ++i) err = std::max(err, std::fabs(s[i] - ref[i]));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double x = a[i + static_cast<std::size_t>(j) * m];
      fro += x * x;
      for (int q = 0; q < k; ++q) x -= u[i + static_cast<std::size_t>(q) * m] * s[q] * v[j + static_cast<std::size_t>(q) * n];
      rec += x * x;
    }
  c.measured = err / ref[0];
  const double uu = fp32 ? 0x1p-24 : 0x1p-53;
  // Rotation backward error 6 u per rotation, S (K - 1) rotations per column, plus the stopping
  // tolerance (docs/trnsolver.md "gesvdj").
  const double tol = fp32 ? ts::sgesvdj_effective_tolerance(std::max(m, n), 0) : ts::dgesvdj_effective_tolerance(std::max(m, n), 0);
  c.bound = (6 * uu * r.sweeps * k + k * tol) * std::sqrt(fro) / ref[0];
  c.pass = r.info == 0 && c.measured <= c.bound;
  c.note = "info " + std::to_string(r.info) + ", " + std::to_string(r.sweeps) + " sweeps, ||A - U S V^T||_F/||A||_F " +
           sci(std::sqrt(rec / fro)) + (fp32 ? "" : "; fp64 block Jacobi: host pair subproblems, Ozaki DGEMM rotations");
  c.device = DeviceCost::from(rep.profile);
  return c;
}

// A x = lambda B x (itype 1) by Ssygvj / Dsygvj against LAPACKE_dsygv, B = G G^T / n + I.
CaseResult sygvj_case(int n, bool fp32) {
  std::mt19937_64 rng(3000 + static_cast<std::uint64_t>(n));
  std::vector<double> b = trn_reference::random_spd(n, rng);
  auto a = random_symmetric(n, 4000 + static_cast<std::uint64_t>(n));
  if (fp32) {
    for (double& x : a) x = static_cast<double>(static_cast<float>(x));
    for (double& x : b) x = static_cast<double>(static_cast<float>(x));
  }
  std::vector<double> ra(a), rb(b), ref(static_cast<std::size_t>(n)), w(ref.size()), bw(ref.size()), bc(b);
  LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'N', 'L', n, ra.data(), n, rb.data(), n, ref.data());
  LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, bc.data(), n, bw.data());
  ts::CallReport rep;
  const double t0 = now_seconds();
  ts::SyevjResult r;
  if (fp32) {
    std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end()), wf(w.size());
    r = ts::ssygvj({}, 1, true, ts::Uplo::lower, n, af.data(), n, bf.data(), n, wf.data(), {}, &rep);
    w.assign(wf.begin(), wf.end());
  } else {
    r = ts::dsygvj({}, 1, true, ts::Uplo::lower, n, a.data(), n, b.data(), n, w.data(), {}, &rep);
  }
  CaseResult c;
  c.host_seconds = seconds_since(t0);
  c.measured = max_value_error(w, ref);
  // Cholesky, the two triangular solves and syevj: 8 n u kappa(B) (docs/trnsolver.md "sygvj").
  c.bound = 8 * n * (fp32 ? 0x1p-24 : 0x1p-53) * bw.back() / bw.front();
  c.pass = r.info == 0 && c.measured <= c.bound;
  c.note = "info " + std::to_string(r.info) + ", " + std::to_string(r.sweeps) + " sweeps, kappa(B) " +
           sci(bw.back() / bw.front()) + (fp32 ? "" : "; Cholesky panels and solves on the host, Jacobi rotations as Ozaki DGEMMs");
  if (fp32) c.device = DeviceCost::from(rep.profile);
  return c;
}


// A = D H D, H = G G^T + n I at unit diagonal, D = diag(10^linspace(lo, 0)) (numerics reference 5.3);
// n = 12: one block (the host subproblem is the whole run), n = 64: four blocks (Ozaki DGEMM rotations).
CaseResult graded_case(int n, double lo) {
  std::mt19937_64 rng(n == 12 ? 11 : 19);
  std::vector<double> a = trn_reference::graded_symmetric(n, rng, lo);
  std::vector<long double> al(a.begin(), a.end());
  const auto ref = jacobi_long_double(al, n);
  std::vector<double> ac(a), w(n);
  const double t0 = now_seconds();
  const auto r = ts::dsyevj({}, false, ts::Uplo::lower, n, ac.data(), n, w.data(), {});
  const double secs = seconds_since(t0);
  const auto wl = dsyevd_values(a, n);
  double worst = 0, worst_lapack = 0;
  for (int k = 0; k < n; ++k) {
    worst = std::max(worst, double(fabsl((long double)w[k] - ref[k]) / fabsl(ref[k])));
    worst_lapack = std::max(worst_lapack, double(fabsl((long double)wl[k] - ref[k]) / fabsl(ref[k])));
  }
  CaseResult c;
  c.measured = worst;
  c.bound = 1e-13;
  c.pass = r.info == 0 && worst <= c.bound;
  c.note = "LAPACKE dsyevd on the same matrix: " + sci(worst_lapack) + "; " + std::to_string(r.sweeps) + " sweeps";
  c.host_seconds = secs;
  return c;
}

// spotrf (fp32 tile kernels + trnblas SYRK) / dpotrf (host fp64 panels + Ozaki DSYRK): backward
// error ||A - L L^T||_F / ||A||_F of an SPD matrix G G^T / n + I, bound n u (Higham Thm 10.3).
CaseResult potrf_case(int n, bool fp32) {
  std::mt19937_64 rng(2000 + static_cast<std::uint64_t>(n));
  std::normal_distribution<double> nd;
  std::vector<double> g(static_cast<std::size_t>(n) * n), a(g.size());
  for (double& x : g) x = nd(rng);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += g[i + k * n] * g[j + k * n];
      a[i + static_cast<std::size_t>(j) * n] = s / n + (i == j ? 1.0 : 0.0);
    }
  if (fp32)
    for (double& x : a) x = static_cast<double>(static_cast<float>(x));
  std::vector<double> l(a);
  ts::CallReport rep;
  const double t0 = now_seconds();
  int info = 0;
  if (fp32) {
    std::vector<float> f(a.begin(), a.end());
    info = ts::spotrf({}, ts::Uplo::lower, n, f.data(), n, &rep);
    l.assign(f.begin(), f.end());
  } else {
    info = ts::dpotrf({}, ts::Uplo::lower, n, l.data(), n, &rep);
  }
  CaseResult c;
  c.host_seconds = seconds_since(t0);
  long double num = 0, den = 0;
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) {
      long double s = 0;
      for (int k = 0; k <= j; ++k) s += (long double)l[i + static_cast<std::size_t>(k) * n] * l[j + static_cast<std::size_t>(k) * n];
      const long double e = s - a[i + static_cast<std::size_t>(j) * n];
      num += e * e;
      den += (long double)a[i + static_cast<std::size_t>(j) * n] * a[i + static_cast<std::size_t>(j) * n];
    }
  c.measured = std::sqrt(double(num / den));
  c.bound = n * (fp32 ? 0x1p-24 : 0x1p-53);
  c.pass = info == 0 && c.measured <= c.bound;
  c.note = std::string("info ") + std::to_string(info) +
           (fp32 ? "; panels on Vector/Scalar, SYRK on TensorE" : "; host fp64 panels, Ozaki DSYRK on TensorE");
  c.device = DeviceCost::from(rep.profile);
  return c;
}

// OpenBLAS's thread count, when OpenBLAS is the LAPACK loaded (weak: another LAPACK leaves them null).
extern "C" void openblas_set_num_threads(int) __attribute__((weak));
extern "C" int openblas_get_num_threads() __attribute__((weak));

// LAPACKE_dgesv on one OpenBLAS thread: its blocked LU's rounding, and so the reference error the
// acceptance bound scales, depends on OpenBLAS's thread count. Under `mpirun`, where a rank sees one
// core, the kappa 1e6 bound shrank from 7.7e-11 to 5.0e-11 while the result (the same bits on every
// rank count) stayed 6.6e-11. One thread makes the bound the same wherever the case runs.
void reference_dgesv_one_thread(int n, double* a, int* ipiv, double* b) {
  const int threads = openblas_get_num_threads != nullptr ? openblas_get_num_threads() : 0;
  if (openblas_set_num_threads != nullptr) openblas_set_num_threads(1);
  LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, a, n, ipiv, b, n);
  if (openblas_set_num_threads != nullptr && threads > 0) openblas_set_num_threads(threads);
}

// D<low>gesv on A = Q1 diag(kappa^(-i/(n-1))) Q2^T built from Householder reflections written
// here (no LAPACK needed for the matrix): forward error against the exact x, next to LAPACKE dgesv.
CaseResult gesv_case(trn::blas::GemmMode mode, double kappa) {
  const int n = 200;
  std::mt19937_64 rng(99);
  std::normal_distribution<double> nd;
  // A = H1 D H2 with Householder H = I - 2 v v^T / (v^T v).
  std::vector<double> v1(n), v2(n), a(static_cast<std::size_t>(n) * n), xt(n), b(n);
  for (double& x : v1) x = nd(rng);
  for (double& x : v2) x = nd(rng);
  double s1 = 0, s2 = 0;
  for (int i = 0; i < n; ++i) {
    s1 += v1[i] * v1[i];
    s2 += v2[i] * v2[i];
  }
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      long double s = 0;
      for (int k = 0; k < n; ++k) {
        const long double h1 = (i == k ? 1.0L : 0.0L) - 2.0L * v1[i] * v1[k] / s1;
        const long double h2 = (k == j ? 1.0L : 0.0L) - 2.0L * v2[k] * v2[j] / s2;
        s += h1 * std::pow(kappa, -double(k) / (n - 1)) * h2;
      }
      a[i + static_cast<std::size_t>(j) * n] = double(s);
    }
  for (double& x : xt) x = nd(rng);
  for (int i = 0; i < n; ++i) {
    long double s = 0;
    for (int j = 0; j < n; ++j) s += (long double)a[i + static_cast<std::size_t>(j) * n] * xt[j];
    b[i] = double(s);
  }
  std::vector<double> ac(a), x(n), ra(a), rb(b);
  std::vector<int> ip(n), rip(n);
  int iter = 0;
  ts::CallReport rep;
  const double t0 = now_seconds();
  const int info = ts::dxgesv({}, mode, n, 1, ac.data(), n, ip.data(), b.data(), n, x.data(), n, &iter, 50, &rep);
  const double secs = seconds_since(t0);
  reference_dgesv_one_thread(n, ra.data(), rip.data(), rb.data());
  double e = 0, er = 0, xn = 0;
  for (int i = 0; i < n; ++i) {
    e = std::max(e, std::fabs(x[i] - xt[i]));
    er = std::max(er, std::fabs(rb[i] - xt[i]));
    xn = std::max(xn, std::fabs(xt[i]));
  }
  CaseResult c;
  c.measured = e / xn;
  // 10 x LAPACKE's error, or kappa u when larger: IR with fp64 residuals converges to a forward error
  // limited by cond(A) u (Carson & Higham, SISC 40(2), 2018, section 3), which one particular LU may beat
  // by a factor the fp16 / bf16 factorisations need not match (DHgesv kappa 1e6: 0.6 kappa u).
  c.bound = std::max(10 * er / xn, kappa * 0x1p-53) + 1e-15;
  c.pass = info == 0 && c.measured <= c.bound;
  c.note = "iter " + std::to_string(iter) + (iter < 0 ? " (fp64 fallback)" : "") + "; LAPACKE dgesv " + sci(er / xn);
  c.host_seconds = secs;
  c.device = DeviceCost::from(rep.profile);
  return c;
}

// HPL-MxP (numerics reference 4.3): a_ij ~ U(-0.5, 0.5), a_ii = sum_j |a_ij|, LU without pivoting
// with bf16 trailing-update inputs, GMRES-IR (CLASSICAL_GMRES); scaled residual ||A x - b||_inf /
// (eps (||A||_inf ||x||_inf + ||b||_inf) n) in long double, acceptance < 16.
CaseResult hpl_mxp_case(int n) {
  std::mt19937_64 rng(1234);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<double> a(static_cast<std::size_t>(n) * n), b(n), x(n);
  for (double& v : a) v = u(rng);
  for (int i = 0; i < n; ++i) {
    double row = 0;
    for (int j = 0; j < n; ++j) row += std::fabs(a[i + static_cast<std::size_t>(j) * n]);
    a[i + static_cast<std::size_t>(i) * n] = row;
  }
  for (double& v : b) v = u(rng);
  ts::IrsOptions o;
  o.lu_mode = trn::blas::GemmMode::bf16;
  o.refinement = ts::IrsRefinement::classical_gmres;
  o.pivoting = false;
  o.fallback = false;
  ts::CallReport rep;
  const double t0 = now_seconds();
  const ts::IrsResult r = ts::irs_gesv<double>({}, o, n, 1, a.data(), n, nullptr, b.data(), n, x.data(), n, &rep);
  const double secs = seconds_since(t0);
  long double rn = 0, an = 0, xn = 0, bn = 0;
  for (int i = 0; i < n; ++i) {
    long double s = -(long double)b[i], row = 0;
    for (int j = 0; j < n; ++j) {
      s += (long double)a[i + static_cast<std::size_t>(j) * n] * x[j];
      row += std::fabs((long double)a[i + static_cast<std::size_t>(j) * n]);
    }
    rn = std::max(rn, std::fabs(s));
    an = std::max(an, row);
    xn = std::max<long double>(xn, std::fabs(x[i]));
    bn = std::max<long double>(bn, std::fabs(b[i]));
  }
  CaseResult c;
  c.measured = double(rn / ((long double)DBL_EPSILON * (an * xn + bn) * n));
  c.bound = 16;
  c.pass = r.niters >= 0 && c.measured < c.bound;
  c.note = "niters " + std::to_string(r.niters) + ", outer " + std::to_string(r.outer_niters);
  c.host_seconds = secs;
  c.device = DeviceCost::from(rep.profile);
  return c;
}

void add_solver(Registry& reg) {
  auto add = reg.adder("solver", "trnsolver");
  for (int n : {32, 64, 128, 256})  // n >= 144 runs the two-sided block Jacobi (docs/trnsolver.md)
    add({.op = "ssyevj", .mode = n >= 144 ? "fp32 block Jacobi (b = 8)" : "fp32 round-robin Jacobi", .shape = std::to_string(n) + "x" + std::to_string(n),
         .metric = "max |lambda - dsyevd| / ||A||_2", .bound_text = "3 max(n,8) u32 (docs/trnsolver.md)",
         .experiment = "Jacobi sweeps and accuracy (numerics reference 5.2)", .size = static_cast<double>(n),
         .full_only = n > 64, .run = [n] { return eig_case(n, true); }});
  for (const auto& [n, batch] : {std::pair{32, 256}, std::pair{64, 32}, std::pair{128, 16}})  // docs/trnsolver.md
    add({.op = "ssyevjBatched", .mode = n <= 32 ? "fp32 packed Jacobi (a matrix per partition)" : "fp32 block Jacobi, fused updates",
         .shape = std::to_string(batch) + " x " + std::to_string(n) + "x" + std::to_string(n),
         .metric = "max over matrices |lambda - dsyevd| / ||A||_2", .bound_text = "3 max(n,8) u32 (docs/trnsolver.md)",
         .experiment = "Jacobi sweeps and accuracy (numerics reference 5.2)", .size = static_cast<double>(n) * batch,
         .full_only = n > 64, .run = [n, batch] { return eig_batched_case(n, batch); }});
  for (int n : {32, 128})
    add({.op = "dsyevj", .mode = "fp64 block Jacobi, Ozaki DGEMM rotations", .shape = std::to_string(n) + "x" + std::to_string(n),
         .metric = "max |lambda - ref| / ||A||_2 (ref: long-double Jacobi)", .bound_text = "max(n,8) u64", .size = static_cast<double>(n),
         .full_only = n > 32, .run = [n] { return eig_case(n, false); }});
  add({.op = "dsyevj", .mode = "fp64 Jacobi, relative threshold", .shape = "12x12 graded, kappa 1e16",
       .metric = "max relative eigenvalue error", .bound_text = "<= 1e-13 (Demmel-Veselic)",
       .experiment = "graded matrix D H D (numerics reference 5.3)", .run = [] { return graded_case(12, -8.0); }});
  add({.op = "dsyevj", .mode = "fp64 block Jacobi, balanced Ozaki DGEMM rotations", .shape = "64x64 graded, D 1e-10..1",
       .metric = "max relative eigenvalue error", .bound_text = "<= 1e-13 (Demmel-Veselic)",
       .experiment = "graded matrix D H D (numerics reference 5.3)", .run = [] { return graded_case(64, -10.0); }});

  for (const auto& [m, n] : std::vector<std::pair<int, int>>{{64, 48}, {48, 64}, {256, 128}})
    for (bool fp32 : {true, false})
      add({.op = fp32 ? "sgesvdj" : "dgesvdj", .mode = fp32 ? "fp32 one-sided Jacobi" : "fp64 one-sided block Jacobi, Ozaki DGEMMs",
           .shape = std::to_string(m) + "x" + std::to_string(n), .metric = "max |sigma - dgesvd| / sigma_max",
           .bound_text = "(6 u S K + K tol) ||A||_F / sigma_max (docs/trnsolver.md)", .size = static_cast<double>(m),
           .full_only = m > 64, .run = [m, n, fp32] { return svd_case(m, n, fp32); }});

  for (int n : {32, 128})
    for (bool fp32 : {true, false})
      add({.op = fp32 ? "ssygvj" : "dsygvj", .mode = "itype 1, potrf + reduction + syevj",
           .shape = std::to_string(n) + "x" + std::to_string(n), .metric = "max |lambda - dsygv| / max |lambda|",
           .bound_text = "8 n u kappa(B) (docs/trnsolver.md)", .size = static_cast<double>(n), .full_only = n > 32,
           .run = [n, fp32] { return sygvj_case(n, fp32); }});

  for (int n : {256, 1024})
    for (bool fp32 : {true, false})
      add({.op = fp32 ? "spotrf" : "dpotrf", .mode = fp32 ? "fp32 blocked right-looking" : "fp64 recursive panels + Ozaki",
           .shape = std::to_string(n) + "x" + std::to_string(n), .metric = "||A - L L^T||_F / ||A||_F",
           .bound_text = "n u (Higham Thm 10.3)", .size = static_cast<double>(n), .full_only = n > 256,
           .run = [n, fp32] { return potrf_case(n, fp32); }});

  struct Low {
    trn::blas::GemmMode mode;
    const char* name;
  };
  for (double kappa : {1e1, 1e3, 1e6})
    for (const Low low : {Low{trn::blas::GemmMode::fp32, "DSgesv"}, Low{trn::blas::GemmMode::fp16, "DHgesv"},
                          Low{trn::blas::GemmMode::bf16, "DBgesv"}})
      add({.op = low.name, .mode = "classical IR, Ozaki residual", .shape = "200x200, kappa " + sci(kappa),
           .metric = "forward error ||x - x_true||_inf / ||x_true||_inf", .bound_text = "max(10 x LAPACKE dgesv, kappa u)",
           .experiment = "LU-IR (numerics reference 4.2)", .full_only = kappa > 1e3,
           .run = [low, kappa] { return gesv_case(low.mode, kappa); }});

  for (int n : {1024, 2048})
    add({.op = "DBgesv (IRSXgesv)", .mode = "bf16 LU without pivoting, GMRES-IR, Ozaki residual",
         .shape = std::to_string(n) + "x" + std::to_string(n) + ", diagonally dominant",
         .metric = "HPL-MxP scaled residual", .bound_text = "< 16 (HPL-MxP)",
         .experiment = "HPL-MxP (numerics reference 4.3)", .size = static_cast<double>(n), .full_only = n > 1024,
         .run = [n] { return hpl_mxp_case(n); }});

  for (int n : {64, 128, 256})
    reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = "ssyevj", .variant = "vectors",
                      .shape = std::to_string(n) + "x" + std::to_string(n), .full_only = n > 64,
                      .run = [n](trn::Generation target) { return syevj_bench(n, true, target); }});
  for (int n : {64, 128})  // fp64 block Jacobi: host pair subproblems, Ozaki DGEMM rotations
    reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = "dsyevj", .variant = "vectors, block Jacobi + Ozaki DGEMMs",
                      .shape = std::to_string(n) + "x" + std::to_string(n), .full_only = n > 64,
                      .run = [n](trn::Generation target) { return syevj_bench(n, false, target); }});
}

const Registrar kRegistrar(add_solver);

}  // namespace
}  // namespace trnsci::cli
