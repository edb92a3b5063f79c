// Validation cases of trnblas Levels 1 and 2 (suite "blas"; docs/trnblas.md, "Levels 1 and 2"):
//   * sgemv's normwise error against a double-double reference lies in the fp32-accumulation band
//     of trn/blas/modes.hpp (the same model as the fp32 GEMM: [u/(2 sqrt 3), sqrt(k) u]);
//   * snrm2 of vectors whose squares overflow or underflow fp32 is within its bound
//     (n + 2) u / 2 + 2 u of the long-double norm (netlib's nrm2 does not overflow there either);
//   * dgemv through the Ozaki DGEMM is at least as accurate as OpenBLAS's dgemv (within 2x of its
//     normwise error against a double-double reference);
//   * ctrsv / ztrsv (row scaling by 1/a_ii, then the real substitution of order 2n): the largest
//     componentwise backward error (metric max_comp_rel) max_i |op(A) x - b|_i / (|op(A)| |x| + |b|)_i, in long double,
//     is within gamma_{4n+24} (docs/trnblas.md, "Complex trsv").
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <type_traits>
#include <limits>
#include <string>
#include <vector>

#include "blas_reference.hpp"
#include "registry.hpp"
#include "suite_blas_capi.hpp"
#include "trn/blas/modes.hpp"
#include "trnblas.h"

namespace trnsci::cli {
namespace {

using blas_capi_suite::device_from;
using blas_capi_suite::Handle;

CaseResult sgemv_case(int n) {
  const std::vector<float> A = blastest::uniform_f(static_cast<std::size_t>(n) * n, 101), x = blastest::uniform_f(n, 102);
  std::vector<float> y(n);
  Handle h;
  const float one = 1.0f, zero = 0.0f;
  const double t0 = now_seconds();
  if (trnblasSgemv(h.h, TRNBLAS_OP_N, n, n, &one, A.data(), n, x.data(), 1, &zero, y.data(), 1) != TRNBLAS_STATUS_SUCCESS)
    throw std::runtime_error("trnblasSgemv failed");
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.device = device_from(h.profile());
  std::vector<double> exact(n), got(y.begin(), y.end());
  for (int i = 0; i < n; ++i)
    exact[static_cast<std::size_t>(i)] = blastest::dot2(
        n, [&](std::int64_t k) { return static_cast<double>(A[static_cast<std::size_t>(i + k * n)]); },
        [&](std::int64_t k) { return static_cast<double>(x[static_cast<std::size_t>(k)]); });
  r.measured = rel_frobenius(got, exact);
  const auto [lo, hi] = trn::blas::mode_traits(trn::blas::GemmMode::fp32).band(n);
  r.lower = lo;
  r.bound = hi;
  r.pass = r.measured >= lo && r.measured <= hi;
  r.note = "x stationary, A's tiles moving on TensorE (fp32, exact products)";
  return r;
}

CaseResult snrm2_case(int n, float scale) {
  std::vector<float> x = blastest::uniform_f(n, 103);
  long double s = 0;
  for (float& v : x) {
    v *= scale;
    const long double q = static_cast<long double>(v) / scale;
    s += q * q;
  }
  const long double exact = std::sqrt(s) * scale;
  Handle h;
  float got = 0;
  const double t0 = now_seconds();
  if (trnblasSnrm2(h.h, n, x.data(), 1, &got) != TRNBLAS_STATUS_SUCCESS) throw std::runtime_error("trnblasSnrm2 failed");
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.device = device_from(h.profile());
  r.measured = static_cast<double>(std::fabs(got - exact) / exact);
  const double u = std::numeric_limits<float>::epsilon() / 2;
  r.bound = (n + 2) * u / 2 + 2 * u;
  r.pass = std::isfinite(got) && r.measured <= r.bound;
  r.note = "two-pass power-of-two scaling; squares of the raw values would " +
           std::string(scale > 1 ? "overflow" : "underflow") + " fp32";
  return r;
}

CaseResult dgemv_case(int n) {
  std::vector<double> A = blastest::phi_matrix(static_cast<std::size_t>(n) * n, 2.0, 104), x = blastest::phi_matrix(n, 2.0, 105);
  std::vector<double> y(n), yo(n);
  Handle h;
  const double one = 1.0, zero = 0.0;
  const double t0 = now_seconds();
  if (trnblasDgemv(h.h, TRNBLAS_OP_N, n, n, &one, A.data(), n, x.data(), 1, &zero, y.data(), 1) != TRNBLAS_STATUS_SUCCESS)
    throw std::runtime_error("trnblasDgemv failed");
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.device = device_from(h.profile());
  cblas_dgemv(CblasColMajor, CblasNoTrans, n, n, 1.0, A.data(), n, x.data(), 1, 0.0, yo.data(), 1);
  std::vector<double> exact(n);
  for (int i = 0; i < n; ++i)
    exact[static_cast<std::size_t>(i)] =
        blastest::dot2(n, [&](std::int64_t k) { return A[static_cast<std::size_t>(i + k * n)]; },
                       [&](std::int64_t k) { return x[static_cast<std::size_t>(k)]; });
  r.measured = rel_frobenius(y, exact);
  const double openblas = rel_frobenius(yo, exact);
  r.bound = 2.0 * openblas + std::numeric_limits<double>::denorm_min();
  r.pass = r.measured <= r.bound;
  r.note = "OpenBLAS dgemv " + sci(openblas) + "; Ozaki slices exact on TensorE";
  return r;
}

// Lower-triangular n x n complex A (diagonal 2 + U(-1,1) + i U(-1,1), off-diagonal U(-1,1)/n), op C.
template <class R>
CaseResult ctrsv_case(int n) {
  using C = std::complex<R>;
  const std::vector<float> f = blastest::uniform_f(2 * static_cast<std::size_t>(n) * (n + 1), 106);
  std::vector<C> A(static_cast<std::size_t>(n) * n, C(0)), b(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i) {
      const std::size_t k = 2 * static_cast<std::size_t>(i + j * n);
      A[static_cast<std::size_t>(i + j * n)] =
          i == j ? C(R(2) + R(f[k]), R(f[k + 1])) : C(R(f[k]) / R(n), R(f[k + 1]) / R(n));
    }
  for (int i = 0; i < n; ++i) b[static_cast<std::size_t>(i)] = C(R(f[2 * static_cast<std::size_t>(n) * n + 2 * i]), R(f[2 * static_cast<std::size_t>(n) * n + 2 * i + 1]));
  std::vector<C> x = b;
  Handle h;
  const double t0 = now_seconds();
  trnblasStatus_t st;
  if constexpr (std::is_same_v<R, float>)
    st = trnblasCtrsv(h.h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_C, TRNBLAS_DIAG_NON_UNIT, n,
                      reinterpret_cast<const trnComplex*>(A.data()), n, reinterpret_cast<trnComplex*>(x.data()), 1);
  else
    st = trnblasZtrsv(h.h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_C, TRNBLAS_DIAG_NON_UNIT, n,
                      reinterpret_cast<const trnDoubleComplex*>(A.data()), n,
                      reinterpret_cast<trnDoubleComplex*>(x.data()), 1);
  if (st != TRNBLAS_STATUS_SUCCESS) throw std::runtime_error("trnblas ?trsv failed");
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.device = device_from(h.profile());
  using L = std::complex<long double>;
  const auto abs1 = [](L v) { return std::fabs(v.real()) + std::fabs(v.imag()); };
  double worst = 0;
  for (int i = 0; i < n; ++i) {  // op(A) = A^H: row i of A^H is conj of column i of A
    L res = -L(b[static_cast<std::size_t>(i)].real(), b[static_cast<std::size_t>(i)].imag());
    long double mag = abs1(res);
    for (int j = i; j < n; ++j) {
      const C a = std::conj(A[static_cast<std::size_t>(j + i * n)]);
      const L t = L(a.real(), a.imag()) * L(x[static_cast<std::size_t>(j)].real(), x[static_cast<std::size_t>(j)].imag());
      res += t;
      mag += abs1(L(a.real(), a.imag())) * abs1(L(x[static_cast<std::size_t>(j)].real(), x[static_cast<std::size_t>(j)].imag()));
    }
    worst = std::max(worst, static_cast<double>(abs1(res) / mag));
  }
  const double u = std::numeric_limits<R>::epsilon() / 2, d = 4.0 * n + 24;
  r.measured = worst;
  r.bound = d * u / (1 - d * u);
  r.pass = r.measured <= r.bound;
  r.note = std::is_same_v<R, float> ? "rows scaled by 1/a_ii on VectorE, real substitution of order 2n"
                                    : "rows scaled in fp64 on the host, real DTRSV of order 2n (Ozaki updates)";
  return r;
}

void add_blas_level12(Registry& reg) {
  auto add = [&](ValidationCase c) {
    c.suite = "blas";
    c.library = "trnblas";
    reg.add(std::move(c));
  };
  const trn::blas::ModeTraits& fp32 = trn::blas::mode_traits(trn::blas::GemmMode::fp32);
  for (int n : {256, 1024})
    add({.op = "sgemv", .mode = "fp32 TensorE", .shape = std::to_string(n) + "^2", .metric = "normwise_rel",
         .bound_text = std::string("model ") + fp32.model_text + " (trn/blas/modes.hpp)", .size = static_cast<double>(n),
         .full_only = n > 256, .run = [n] { return sgemv_case(n); }});
  for (float scale : {1e30f, 1e-30f})
    add({.op = "snrm2", .mode = "fp32 VectorE, scaled", .shape = std::string("10000, |x| ~ ") + (scale > 1 ? "1e30" : "1e-30"),
         .metric = "max_comp_rel", .bound_text = "(n + 2) u / 2 + 2 u (docs/trnblas.md)",
         .run = [scale] { return snrm2_case(10000, scale); }});
  add({.op = "dgemv", .mode = "Ozaki bf16 slices", .shape = "128^2, phi 2", .metric = "normwise_rel",
       .bound_text = "<= 2 x OpenBLAS dgemv", .experiment = "GEMMul8 phi generator (Uchino et al., SC '25)",
       .run = [] { return dgemv_case(128); }});
  add({.op = "ctrsv", .mode = "fp32 VectorE + substitution kernel", .shape = "96, lower, op C", .metric = "max_comp_rel",
       .bound_text = "gamma_{4n+24}, u = 2^-24 (docs/trnblas.md)", .run = [] { return ctrsv_case<float>(96); }});
  add({.op = "ztrsv", .mode = "fp64 host scaling + DTRSV", .shape = "96, lower, op C", .metric = "max_comp_rel",
       .bound_text = "gamma_{4n+24}, u = 2^-53 (docs/trnblas.md)", .run = [] { return ctrsv_case<double>(96); }});
}

const Registrar kRegistrar(add_blas_level12);

}  // namespace
}  // namespace trnsci::cli
