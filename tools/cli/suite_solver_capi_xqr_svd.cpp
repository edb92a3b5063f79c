// `trnsci validate/bench` suite "solver", the 64-bit X names of QR and the SVD that
// tools/acceptance_audit.py found without a case (#27 acceptance audit, s12/audit): Xgeqrf and Xgesvd
// in R_32F / R_64F / C_32F / C_64F through the C API. Each case checks two things:
//  * the documented routing (docs/trnsolver.md "QR", "gesvd"): the X call's outputs are bit-equal to
//    the legacy {S,D,C,Z}geqrf / gesvd call on the same matrix (Xgeqrf: A and tau; Xgesvd: S, U, VT);
//  * an independent residual in long double: Xgeqrf ||R^H R - A^H A||_F / ||A||_F^2 (R^H R = A^H A for
//    an exact QR; <= 8 n u), Xgesvd ||A - U S VT||_F / ||A||_F (<= 8 n^1.5 u, the gesvd orthogonality
//    constant), two-sided in fp32 (>= u/64: the work ran in fp32).
// Measured: the residual; the case fails on any differing element or nonzero info. Bench rows: the X
// call alone on 256 x 192 (flops: geqrf 2 m n^2 - 2 n^3 / 3, gesvd ~ 4 m n^2 + 8 n^3 as LAPACK's
// working note counts the bidiagonal route; x4 complex).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "registry.hpp"
#include "solver_data.hpp"
#include "trnsolver.h"

namespace trnsci::cli {
namespace {

using solver_data::CL;
using solver_data::kCplx;
using solver_data::kU;
using solver_data::RealT;
using solver_data::wide;
template <class T>
constexpr bool kFp32 = std::is_same_v<RealT<T>, float>;
using solver_data::kType;
template <class T>
constexpr trnDataType_t kRealType = kFp32<T> ? TRN_R_32F : TRN_R_64F;

template <class T>
struct Legacy;
#define TRNSCI_LEGACY_QR_SVD(T, C, P)                                                     \
  template <>                                                                             \
  struct Legacy<T> {                                                                      \
    static C* c(T* p) { return reinterpret_cast<C*>(p); }                                 \
    static constexpr auto geqrf_buffer = &trnsolverDn##P##geqrf_bufferSize;               \
    static constexpr auto geqrf = &trnsolverDn##P##geqrf;                                 \
    static constexpr auto gesvd_buffer = &trnsolverDn##P##gesvd_bufferSize;               \
    static constexpr auto gesvd = &trnsolverDn##P##gesvd;                                 \
  };
TRNSCI_LEGACY_QR_SVD(float, float, S)
TRNSCI_LEGACY_QR_SVD(double, double, D)
TRNSCI_LEGACY_QR_SVD(std::complex<float>, trnComplex, C)
TRNSCI_LEGACY_QR_SVD(std::complex<double>, trnDoubleComplex, Z)
#undef TRNSCI_LEGACY_QR_SVD

template <class V>
std::int64_t differing(const V& a, const V& b) {
  std::int64_t d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d += std::memcmp(&a[i], &b[i], sizeof(a[i])) != 0;
  return d;
}

struct Run {
  double residual = 0, seconds = 0;
  std::int64_t differ = 0;
  int bad = 0;
  trnProfile_t profile{};
};

long double frob2(const std::vector<CL>& x) {
  long double s = 0;
  for (const CL& v : x) s += std::norm(v);
  return s;
}

// Xgeqrf vs ?geqrf; residual ||R^H R - A^H A||_F / ||A||_F^2.
template <class T>
Run run_xgeqrf(int m, int n, trn::Generation target) {
  trnsolverDnHandle_t h = nullptr;
  trnsolverDnParams_t p = nullptr;
  trnsolverDnCreate(&h);
  trnsolverDnCreateParams(&p);
  trnsolverDnSetTarget(h, static_cast<trnTarget_t>(target));
  const std::vector<T> a0 = solver_data::gaussian<T>(m, n, 3100 + static_cast<std::uint64_t>(n));
  std::vector<T> ax = a0, al = a0, tx(static_cast<std::size_t>(n)), tl(static_cast<std::size_t>(n));
  std::size_t dev = 0, host = 0;
  Run r;
  int info = -99, linfo = -99, lwork = 0;
  r.bad += trnsolverDnXgeqrf_bufferSize(h, p, m, n, kType<T>, ax.data(), m, kType<T>, tx.data(), kType<T>, &dev, &host) != 0;
  std::vector<char> wd(std::max<std::size_t>(dev, 1)), wh(std::max<std::size_t>(host, 1));
  const double t0 = now_seconds();
  r.bad += trnsolverDnXgeqrf(h, p, m, n, kType<T>, ax.data(), m, kType<T>, tx.data(), kType<T>, wd.data(), dev, wh.data(), host,
                             &info) != 0;
  r.seconds = seconds_since(t0);
  trnsolverDnGetLastProfile(h, &r.profile);
  r.bad += Legacy<T>::geqrf_buffer(h, m, n, Legacy<T>::c(al.data()), m, &lwork) != 0;
  std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
  r.bad += Legacy<T>::geqrf(h, m, n, Legacy<T>::c(al.data()), m, Legacy<T>::c(tl.data()), Legacy<T>::c(work.data()), lwork,
                            &linfo) != 0;
  r.bad += (info != 0) + (linfo != 0);
  r.differ = differing(ax, al) + differing(tx, tl);
  std::vector<CL> diff(static_cast<std::size_t>(n) * n), a(a0.size());
  for (std::size_t i = 0; i < a0.size(); ++i) a[i] = wide(a0[i]);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      CL rr = 0, aa = 0;
      for (int k = 0; k <= std::min(i, j); ++k) rr += std::conj(wide(ax[static_cast<std::size_t>(k) + static_cast<std::size_t>(i) * m])) * wide(ax[static_cast<std::size_t>(k) + static_cast<std::size_t>(j) * m]);
      for (int k = 0; k < m; ++k) aa += std::conj(a[static_cast<std::size_t>(k) + static_cast<std::size_t>(i) * m]) * a[static_cast<std::size_t>(k) + static_cast<std::size_t>(j) * m];
      diff[static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * n] = rr - aa;
    }
  r.residual = static_cast<double>(std::sqrt(frob2(diff)) / frob2(a));
  trnsolverDnDestroyParams(p);
  trnsolverDnDestroy(h);
  return r;
}

// Xgesvd (jobu = jobvt = 'A') vs ?gesvd; residual ||A - U S VT||_F / ||A||_F.
template <class T>
Run run_xgesvd(int m, int n, trn::Generation target) {
  using R = RealT<T>;
  trnsolverDnHandle_t h = nullptr;
  trnsolverDnParams_t p = nullptr;
  trnsolverDnCreate(&h);
  trnsolverDnCreateParams(&p);
  trnsolverDnSetTarget(h, static_cast<trnTarget_t>(target));
  const std::vector<T> a0 = solver_data::gaussian<T>(m, n, 3200 + static_cast<std::uint64_t>(n));
  std::vector<T> ax = a0, al = a0, ux(static_cast<std::size_t>(m) * m), ul(ux.size()), vx(static_cast<std::size_t>(n) * n),
                 vl(vx.size());
  std::vector<R> sx(static_cast<std::size_t>(n)), sl(sx.size());
  std::size_t dev = 0, host = 0;
  Run r;
  int info = -99, linfo = -99, lwork = 0;
  r.bad += trnsolverDnXgesvd_bufferSize(h, p, 'A', 'A', m, n, kType<T>, ax.data(), m, kRealType<T>, sx.data(), kType<T>,
                                        ux.data(), m, kType<T>, vx.data(), n, kType<T>, &dev, &host) != 0;
  std::vector<char> wd(std::max<std::size_t>(dev, 1)), wh(std::max<std::size_t>(host, 1));
  const double t0 = now_seconds();
  r.bad += trnsolverDnXgesvd(h, p, 'A', 'A', m, n, kType<T>, ax.data(), m, kRealType<T>, sx.data(), kType<T>, ux.data(), m,
                             kType<T>, vx.data(), n, kType<T>, wd.data(), dev, wh.data(), host, &info) != 0;
  r.seconds = seconds_since(t0);
  trnsolverDnGetLastProfile(h, &r.profile);
  r.bad += Legacy<T>::gesvd_buffer(h, m, n, &lwork) != 0;
  std::vector<T> work(static_cast<std::size_t>(std::max(lwork, 1)));
  r.bad += Legacy<T>::gesvd(h, 'A', 'A', m, n, Legacy<T>::c(al.data()), m, sl.data(), Legacy<T>::c(ul.data()), m,
                            Legacy<T>::c(vl.data()), n, Legacy<T>::c(work.data()), lwork, nullptr, &linfo) != 0;
  r.bad += (info != 0) + (linfo != 0);
  r.differ = differing(sx, sl) + differing(ux, ul) + differing(vx, vl);
  std::vector<CL> res(a0.size()), a(a0.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      const std::size_t at = static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * m;
      a[at] = wide(a0[at]);
      CL s = a[at];
      for (int k = 0; k < n; ++k)
        s -= wide(ux[static_cast<std::size_t>(i) + static_cast<std::size_t>(k) * m]) * static_cast<long double>(sx[static_cast<std::size_t>(k)]) *
             wide(vx[static_cast<std::size_t>(k) + static_cast<std::size_t>(j) * n]);
      res[at] = s;
    }
  r.residual = static_cast<double>(std::sqrt(frob2(res) / frob2(a)));
  trnsolverDnDestroyParams(p);
  trnsolverDnDestroy(h);
  return r;
}

template <class T>
void add_x(Registry& reg, bool qr, const std::string& tn) {
  const int n = 64;  // the validate case is 96 x 64
  const double u = kU<T>, bound = qr ? 8 * n * u : 8 * std::pow(n, 1.5) * u, lower = kFp32<T> ? u / 64 : NAN;
  const std::string op = std::string(qr ? "Xgeqrf " : "Xgesvd ") + tn;
  const std::string mode = qr ? "C API, bit-equal to ?geqrf" : "C API, jobu = jobvt = A, bit-equal to ?gesvd";
  const std::string metric = qr ? "||R^H R - A^H A||_F / ||A||_F^2" : "||A - U S VT||_F / ||A||_F";
  const auto run = [qr](int mm, int nn, trn::Generation g) { return qr ? run_xgeqrf<T>(mm, nn, g) : run_xgesvd<T>(mm, nn, g); };
  reg.add(ValidationCase{.suite = "solver", .library = "trnsolver", .op = op, .mode = mode, .shape = "96x64", .metric = metric,
                         .bound_text = std::string(kFp32<T> ? "[u/64, " : "[0, ") + (qr ? "8 n u]" : "8 n^1.5 u]") +
                                       "; 0 elements differing from the legacy call; info 0",
                         .size = n, .run = [run, bound, lower] {
                           const Run r = run(96, 64, trn::Generation::trn1);
                           CaseResult c;
                           c.measured = r.residual;
                           c.bound = bound;
                           c.lower = lower;
                           c.pass = r.bad == 0 && r.differ == 0 && c.measured <= bound && (std::isnan(lower) || c.measured >= lower);
                           c.note = std::to_string(r.differ) + " elements differing from the legacy call, " + std::to_string(r.bad) +
                                    " failed calls / nonzero info (both must be 0)";
                           c.host_seconds = r.seconds;
                           c.device = DeviceCost::from(r.profile);
                           return c;
                         }});
  reg.add(BenchCase{.suite = "solver", .library = "trnsolver", .op = op, .variant = mode, .shape = "256x192",
                    .run = [run, qr, metric](trn::Generation target) {
                      const Run r = run(256, 192, target);
                      if (r.bad != 0 || r.differ != 0) throw std::runtime_error("failed call or differs from the legacy call");
                      BenchResult b;
                      b.error = r.residual;
                      b.error_metric = metric;
                      b.host_seconds = r.seconds;
                      const double dm = 256, dn = 192, c = kCplx<T> ? 4.0 : 1.0;
                      b.flops = c * (qr ? 2 * dm * dn * dn - 2 * dn * dn * dn / 3 : 4 * dm * dn * dn + 8 * dn * dn * dn);
                      b.device = DeviceCost::from(r.profile);
                      return b;
                    }});
}

void add_solver_capi_xqr_svd(Registry& reg) {
  for (const bool qr : {true, false}) {
    add_x<float>(reg, qr, "R_32F");
    add_x<double>(reg, qr, "R_64F");
    add_x<std::complex<float>>(reg, qr, "C_32F");
    add_x<std::complex<double>>(reg, qr, "C_64F");
  }
}

const Registrar kRegistrar(add_solver_capi_xqr_svd);

}  // namespace
}  // namespace trnsci::cli
