// `trnsci validate/bench` suite "solver", ?gesvdaStridedBatched through its C entry point with a batch
// and a truncated rank (#27 audit; the "SVD family" rows run the C++ gesvda on one matrix at rank n).
// Per matrix: the rank-r approximation's residual ||A - U_r S_r V_r^H||_F (long double, from the
// routine's U, S, V) against the Eckart-Young optimum E_r = (sum_{i>r} sigma_i^2)^(1/2) with sigma from
// LAPACKE dgesvd / zgesvd in double (the oracle), the routine's h_R_nrmF against that residual, and the
// r singular values against sigma. Bounds: docs/trnsolver.md "Validate cases of the solves, the batched
// Cholesky, the Q routines and the selected eigensolvers". Bench row flops: an SVD's 4 m n^2 + 22 n^3
// per matrix (x4 complex), as the "SVD family" rows.
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "registry.hpp"
#include "solver_data.hpp"
#include "trnsolver.h"

namespace trnsci::cli {
namespace {

using namespace solver_data;  // CL, kCplx, RealT, kU, wide, gaussian

template <class T>
struct Api;
#define TRNSCI_GESVDA_CAPI(T, C, P)                                           \
  template <>                                                                 \
  struct Api<T> {                                                             \
    static C* c(T* p) { return reinterpret_cast<C*>(p); }                    \
    static constexpr auto buffer = &trnsolverDn##P##gesvdaStridedBatched_bufferSize; \
    static constexpr auto run = &trnsolverDn##P##gesvdaStridedBatched;       \
  };
TRNSCI_GESVDA_CAPI(float, float, S)
TRNSCI_GESVDA_CAPI(double, double, D)
TRNSCI_GESVDA_CAPI(std::complex<float>, trnComplex, C)
TRNSCI_GESVDA_CAPI(std::complex<double>, trnDoubleComplex, Z)
#undef TRNSCI_GESVDA_CAPI

// LAPACKE dgesvd / zgesvd singular values (descending) of the m x n matrix a, in double.
template <class T>
std::vector<double> sigma(int m, int n, const T* a) {
  std::vector<double> s(static_cast<std::size_t>(n)), sup(static_cast<std::size_t>(n));
  if constexpr (kCplx<T>) {
    std::vector<std::complex<double>> c(a, a + static_cast<std::size_t>(m) * n), d(1);
    LAPACKE_zgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, reinterpret_cast<lapack_complex_double*>(c.data()), m, s.data(),
                   reinterpret_cast<lapack_complex_double*>(d.data()), 1,
                   reinterpret_cast<lapack_complex_double*>(d.data()), 1, sup.data());
  } else {
    std::vector<double> c(a, a + static_cast<std::size_t>(m) * n), d(1);
    LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, c.data(), m, s.data(), d.data(), 1, d.data(), 1, sup.data());
  }
  return s;
}

struct Run {
  double optimum = 0, nrm = 0, val = 0;  // the three measures, relative to ||A||_F (worst over the batch)
  int bad = 0;                           // failed status / nonzero info
  double host_seconds = 0;
  trn::Profile profile;
};

// batch Gaussian m x n matrices, rank r, jobz VECTOR, U m x r (ld m), V n x r (ld n).
template <class T>
Run run_batched(int m, int n, int r, int batch, trn::Generation target) {
  using R = RealT<T>;
  using A = Api<T>;
  const long long sa = static_cast<long long>(m) * n, su = static_cast<long long>(m) * r, sv = static_cast<long long>(n) * r;
  const std::vector<T> a = gaussian<T>(m, n * batch, 6100 + static_cast<std::uint64_t>(m + n));
  std::vector<R> s(static_cast<std::size_t>(r) * batch);
  std::vector<T> u(static_cast<std::size_t>(su) * batch), v(static_cast<std::size_t>(sv) * batch);
  std::vector<int> info(static_cast<std::size_t>(batch), -99);
  std::vector<double> h_nrm(static_cast<std::size_t>(batch), -1);
  trnsolverDnHandle_t h = nullptr;
  trnsolverDnCreate(&h);
  trnsolverDnSetTarget(h, static_cast<trnTarget_t>(target));
  int lwork = 0;
  std::vector<T> ac = a;
  Run out;
  out.bad += A::buffer(h, TRNSOLVER_EIG_MODE_VECTOR, r, m, n, A::c(ac.data()), m, sa, s.data(), r, A::c(u.data()), m, su,
                       A::c(v.data()), n, sv, &lwork, batch) != TRNSOLVER_STATUS_SUCCESS;
  std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
  const double t0 = now_seconds();
  out.bad += A::run(h, TRNSOLVER_EIG_MODE_VECTOR, r, m, n, A::c(ac.data()), m, sa, s.data(), r, A::c(u.data()), m, su,
                    A::c(v.data()), n, sv, A::c(work.data()), lwork, info.data(), h_nrm.data(), batch) !=
             TRNSOLVER_STATUS_SUCCESS;
  out.host_seconds = seconds_since(t0);
  trnProfile_t prof{};
  trnsolverDnGetLastProfile(h, &prof);
  out.profile = trn::Profile::from_c(prof);
  trnsolverDnDestroy(h);
  for (int k = 0; k < batch; ++k) {
    out.bad += info[static_cast<std::size_t>(k)] != 0;
    const T* ak = a.data() + sa * k;
    const std::vector<double> sg = sigma<T>(m, n, ak);
    long double an = 0, res = 0, tail = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        CL x = wide(ak[i + static_cast<std::size_t>(j) * m]);
        an += std::norm(x);
        for (int l = 0; l < r; ++l)
          x -= wide(u[su * k + i + static_cast<std::size_t>(l) * m]) * static_cast<long double>(s[r * k + l]) *
               std::conj(wide(v[sv * k + j + static_cast<std::size_t>(l) * n]));
        res += std::norm(x);
      }
    for (int i = r; i < n; ++i) tail += static_cast<long double>(sg[i]) * sg[i];
    const double fa = double(std::sqrt(an)), ours = double(std::sqrt(res));
    out.optimum = std::max(out.optimum, std::fabs(ours - double(std::sqrt(tail))) / fa);
    out.nrm = std::max(out.nrm, std::fabs(h_nrm[static_cast<std::size_t>(k)] - ours) / fa);
    for (int i = 0; i < r; ++i) out.val = std::max(out.val, std::fabs(double(s[r * k + i]) - sg[i]) / fa);
  }
  return out;
}

// |residual - E_r| / ||A||_F <= 48 n u (2 ||dA||_F + rounding, ||dA||_F <= 16 n u ||A||_F the backward error
// of "SVD family"); |h_R_nrmF - residual| and |s_i - sigma_i| <= 16 n u ||A||_F; every info 0.
template <class T>
void add_row(Registry& reg, const std::string& op, const std::string& mode) {
  const int m = 64, n = 40, r = 8, batch = 3;
  reg.add(ValidationCase{
      .suite = "solver", .library = "trnsolver", .op = op, .mode = mode, .shape = "3 x 64x40, rank 8",
      .metric = "max over matrices | ||A - U_r S_r V_r^H||_F - E_r | / ||A||_F (E_r: Eckart-Young, dgesvd)",
      .bound_text = "48 n u; |h_R_nrmF - residual|, |s - sigma| <= 16 n u ||A||_F; info 0 (docs/trnsolver.md)",
      .size = 64.0, .run = [mode] {
        const Run x = run_batched<T>(m, n, r, batch, trn::Generation::trn1);
        CaseResult c;
        const double b16 = 16.0 * n * kU<T>;
        c.measured = x.bad == 0 ? x.optimum : std::numeric_limits<double>::infinity();
        c.bound = 3 * b16;
        c.pass = c.measured <= c.bound && x.nrm <= b16 && x.val <= b16;
        c.note = "|h_R_nrmF - residual|/||A||_F " + sci(x.nrm) + ", max|s - sigma|/||A||_F " + sci(x.val) +
                 " (bounds " + sci(b16) + "); " + std::to_string(x.bad) + " failed calls / nonzero info; " + mode;
        c.host_seconds = x.host_seconds;
        c.device = DeviceCost::from(x.profile);
        return c;
      }});
  reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode, .shape = "8 x 128x96, rank 16",
                    .run = [](trn::Generation target) {
                      const Run x = run_batched<T>(128, 96, 16, 8, target);
                      BenchResult b;
                      b.error = x.optimum;
                      b.error_metric = "| ||A - U_r S_r V_r^H||_F - E_r | / ||A||_F";
                      b.host_seconds = x.host_seconds;
                      const double dm = 128, dn = 96;
                      b.flops = 8 * (kCplx<T> ? 4.0 : 1.0) * (4 * dm * dn * dn + 22 * dn * dn * dn);
                      b.device = DeviceCost::from(x.profile);
                      return b;
                    }});
}

void add_solver_gesvda_batched(Registry& reg) {
  add_row<float>(reg, "sgesvdaStridedBatched", "C API strided batch, fp32 Jacobi");
  add_row<double>(reg, "dgesvdaStridedBatched", "C API strided batch, fp64 Jacobi");
  add_row<std::complex<float>>(reg, "cgesvdaStridedBatched", "C API strided batch, gebrd + fp32 Jacobi");
  add_row<std::complex<double>>(reg, "zgesvdaStridedBatched", "C API strided batch, gebrd + fp64 Jacobi");
}

const Registrar kRegistrar(add_solver_gesvda_batched);

}  // namespace
}  // namespace trnsci::cli
