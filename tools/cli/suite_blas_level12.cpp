// Validation cases of trnblas Levels 1 and 2 (suite "blas"; docs/trnblas.md, "Levels 1 and 2"):
//   * sgemv's normwise error against a double-double reference lies in the fp32-accumulation band
//     of trn/blas/modes.hpp (the same model as the fp32 GEMM: [u/(2 sqrt 3), sqrt(k) u]);
//   * snrm2 of vectors whose squares overflow or underflow fp32 is within its bound
//     (n + 2) u / 2 + 2 u of the long-double norm (netlib's nrm2 does not overflow there either);
//   * dgemv (fp64 slice pairs) is at least as accurate as OpenBLAS's dgemv (within 2x of its
//     normwise error against a double-double reference);
//   * ddot (fp64 slice pairs) on Ogita-Rump-Oishi's ill-conditioned GenDot vectors (cond 1e10, 1e16,
//     1e30) is within 2.02 u of the exact dot product (blastest::ExactSum), relative, at any condition;
//   * ctrsv / ztrsv (row scaling by 1/a_ii, then the real substitution of order 2n): the largest
//     componentwise backward error (metric max_comp_rel) max_i |op(A) x - b|_i / (|op(A)| |x| + |b|)_i, in long double,
//     is within gamma_{4n+24} (docs/trnblas.md, "Complex trsv").
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <type_traits>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "blas_reference.hpp"
#include "registry.hpp"
#include "suite_blas_capi.hpp"
#include "trn/blas/level12.hpp"
#include "trn/blas/modes.hpp"
#include "trnblas.h"

namespace trnsci::cli {
namespace {

using namespace blas_capi_suite;  // NOLINT: the typed C-API helpers of this suite family

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
  r.note = "OpenBLAS dgemv " + sci(openblas) + "; slice pairs exact on TensorE";
  return r;
}

// ddot on GenDot(n, cond) (Ogita, Rump, Oishi, SISC 26(6) 2005, Algorithm 6.1): relative error
// against the exact dot product; bound 2.02 u (src/ozaki.hpp, gemv_slice_pairs), for any cond.
// trnblasDdot on Ogita-Rump-Oishi GenDot data, under one of the two fp64 strategies of a single
// long dot product (docs/trnblas.md): EAGER keeps the slice pairs (|err| <= 2.02 u |x^T y|); the
// default strategy splits n <= ~4200 terms over the partitions as Dot2 (|err| <= u |x^T y| +
// 2 gamma_{n+2}^2 |x|^T |y|, src/ozaki.hpp), reported as the error over that bound.
CaseResult ddot_gendot_case(int n, double cond, trnblasEmulationStrategy_t strategy) {
  std::mt19937_64 g(static_cast<std::uint64_t>(std::log10(cond)) + 300);
  std::vector<double> x, y;
  blastest::gen_dot(static_cast<std::size_t>(n), cond, g, x, y);
  const double exact = blastest::exact_dot(x, y);
  Handle h;
  if (trnblasSetEmulationStrategy(h.h, strategy) != TRNBLAS_STATUS_SUCCESS)
    throw std::runtime_error("trnblasSetEmulationStrategy failed");
  double got = 0;
  const double t0 = now_seconds();
  if (trnblasDdot(h.h, n, x.data(), 1, y.data(), 1, &got) != TRNBLAS_STATUS_SUCCESS) throw std::runtime_error("trnblasDdot failed");
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.device = h.device();
  const double openblas = cblas_ddot(n, x.data(), 1, y.data(), 1);
  constexpr double u = 0x1p-53;
  if (strategy == TRNBLAS_EMULATION_STRATEGY_EAGER) {
    r.measured = std::fabs(got - exact) / std::fabs(exact);
    r.bound = 2.02 * u;
  } else {
    double abs_dot = 0;  // |x|^T |y|, rounded upward enough: (1 + 2 n u) covers its own rounding
    for (int i = 0; i < n; ++i) abs_dot += std::fabs(x[static_cast<std::size_t>(i)] * y[static_cast<std::size_t>(i)]);
    abs_dot *= 1 + 2 * (n + 1) * u;
    const double gamma = (n + 2) * u / (1 - (n + 2) * u);
    r.measured = std::fabs(got - exact) / (u * std::fabs(exact) + 2 * gamma * gamma * abs_dot);
    r.bound = 1.0;
  }
  r.pass = r.measured <= r.bound;
  r.note = "OpenBLAS ddot rel. error " + sci(std::fabs(openblas - exact) / std::fabs(exact)) + "; one-sided (exact results occur)";
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

// ---- one case per precision (S, D, C, Z) for the core Level 1 and 2 routines ------------------
// Metric: the largest error relative to the magnitude its bound uses, |z| = |re| + |im| for complex
// values, against long-double loops over the same inputs. Bounds (docs/trnblas.md "Levels 1 and 2";
// u of the precision): axpy gamma_2 (real: fl(fl(a x) + y)) / gamma_3 (complex: each part of a x is
// two products and a sum) per element of |a||x| + |y|; dot / dotc gamma_{n+2} / gamma_{n+3} of
// sum |x||y|; asum gamma_{n'} (n' = n, 2n complex: positive terms); nrm2 (n' + 2) u / 2 + 2 u
// relative; i?amax exact; gemv 2 gamma_{2k+7} of |a|(|A||x|) + |b||y| (the complex bound per part,
// twice for |re| + |im|; real gamma_{k+4}); trsv's residual gamma_{n+2} of |T||x| (S; complex
// gamma_{4n+24} as ctrsv's case); ger/geru gamma_3 (the k = 1 GEMM: PSUM rounds the product, then
// fl(fl(a acc) + A)) / 2 gamma_6 (u = a x on VectorE: 3 per part; the k = 2 plane GEMM: 2 PSUM
// roundings; + A) of |a||x||y| + |A|. D and Z: the
// Ozaki DGEMM or host fp64 add the allowance the Dtrsm tests use (k + 64 in place of k).
template <class T> double ozaki_slack() { return std::is_same_v<real_of<T>, double> ? 62.0 : 0.0; }

template <class T> CaseResult l1_case(const std::string& op, int n) {
  const std::vector<T> x = random<T>(static_cast<std::size_t>(n), 111), y0 = random<T>(static_cast<std::size_t>(n), 112);
  std::vector<T> y = y0;
  const T alpha = alpha_value<T>();
  const double u = unit_roundoff<T>(), slack = ozaki_slack<T>(), np = kComplex<T> ? 2.0 * n : n;
  Handle h;
  CaseResult r;
  trnblasStatus_t st = TRNBLAS_STATUS_SUCCESS;
  T dot{};
  real_of<T> real_result = 0;
  int index = 0;
  const double t0 = now_seconds();
  if (op == "axpy") {
    st = [&] { TRNBLAS_TYPED_CALL(T, axpy, h.h, n, api(&alpha), api(x.data()), 1, api(y.data()), 1); }();
  } else if (op == "dot") {
    st = [&]() -> trnblasStatus_t {
      if constexpr (std::is_same_v<T, float>) return trnblasSdot(h.h, n, x.data(), 1, y0.data(), 1, &dot);
      else if constexpr (std::is_same_v<T, double>) return trnblasDdot(h.h, n, x.data(), 1, y0.data(), 1, &dot);
      else if constexpr (std::is_same_v<T, std::complex<float>>) return trnblasCdotc(h.h, n, api(x.data()), 1, api(y0.data()), 1, api(&dot));
      else return trnblasZdotc(h.h, n, api(x.data()), 1, api(y0.data()), 1, api(&dot));
    }();
  } else if (op == "nrm2" || op == "asum") {
    const bool nrm = op == "nrm2";
    st = [&]() -> trnblasStatus_t {
      if constexpr (std::is_same_v<T, float>) return (nrm ? trnblasSnrm2 : trnblasSasum)(h.h, n, x.data(), 1, &real_result);
      else if constexpr (std::is_same_v<T, double>) return (nrm ? trnblasDnrm2 : trnblasDasum)(h.h, n, x.data(), 1, &real_result);
      else if constexpr (std::is_same_v<T, std::complex<float>>) return (nrm ? trnblasScnrm2 : trnblasScasum)(h.h, n, api(x.data()), 1, &real_result);
      else return (nrm ? trnblasDznrm2 : trnblasDzasum)(h.h, n, api(x.data()), 1, &real_result);
    }();
  } else {  // iamax
    st = [&]() -> trnblasStatus_t {
      if constexpr (std::is_same_v<T, float>) return trnblasIsamax(h.h, n, x.data(), 1, &index);
      else if constexpr (std::is_same_v<T, double>) return trnblasIdamax(h.h, n, x.data(), 1, &index);
      else if constexpr (std::is_same_v<T, std::complex<float>>) return trnblasIcamax(h.h, n, api(x.data()), 1, &index);
      else return trnblasIzamax(h.h, n, api(x.data()), 1, &index);
    }();
  }
  r.host_seconds = seconds_since(t0);
  if (st != TRNBLAS_STATUS_SUCCESS) throw std::runtime_error("trnblas ?" + op + " failed");
  r.device = h.device();
  const auto mag = [](T v) { return static_cast<double>(abs1(wide(v))); };  // |re| + |im| (BLAS's complex |.|)
  if (op == "axpy") {
    double worst = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const L exact = wide(alpha) * wide(x[i]) + wide(y0[i]);
      worst = std::max(worst, static_cast<double>(abs1(wide(y[i]) - exact) / (abs1(wide(alpha)) * abs1(wide(x[i])) + abs1(wide(y0[i])))));
    }
    r.measured = worst;
    r.bound = gamma_u(kComplex<T> ? 3 : 2, u);
  } else if (op == "dot") {
    L exact = 0;
    long double m = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      exact += std::conj(wide(x[i])) * wide(y0[i]);  // conj is the identity on real values
      m += abs1(wide(x[i])) * abs1(wide(y0[i]));
    }
    r.measured = static_cast<double>(abs1(wide(dot) - exact) / m);
    r.bound = gamma_u(n + (kComplex<T> ? 3.0 : 2.0) + slack, u);
  } else if (op == "asum" || op == "nrm2") {
    long double exact = 0, sq = 0;
    for (const T& v : x) {
      exact += abs1(wide(v));
      sq += std::norm(wide(v));
    }
    if (op == "nrm2") exact = std::sqrt(sq);
    r.measured = static_cast<double>(std::fabs(real_result - exact) / exact);
    r.bound = op == "asum" ? gamma_u(np + slack, u) : (np + 2 + slack) * u / 2 + 2 * u;
  } else {
    int first = 0;
    for (int i = 1; i < n; ++i)
      if (mag(x[static_cast<std::size_t>(i)]) > mag(x[static_cast<std::size_t>(first)])) first = i;
    r.measured = index == first + 1 ? 0.0 : 1.0;
    r.bound = 0;
  }
  r.pass = r.measured <= r.bound;
  r.note = std::is_same_v<real_of<T>, float> ? "VectorE on the split planes" : "fp64: host side / Ozaki DGEMM";
  return r;
}

template <class T> CaseResult l2_case(const std::string& op, int n) {
  const std::vector<T> A = random<T>(static_cast<std::size_t>(n) * n, 121), x = random<T>(static_cast<std::size_t>(n), 122),
                       y0 = random<T>(static_cast<std::size_t>(n), 123);
  std::vector<T> y = y0, Aout = A;
  const T alpha = alpha_value<T>(), beta = [] {
    if constexpr (kComplex<T>) return T(-0.25, 0.5);
    else return T(-0.25);
  }();
  const double u = unit_roundoff<T>(), slack = ozaki_slack<T>();
  std::vector<T> T_lower = A;  // trsv: well-conditioned lower triangle, NaN above (never read)
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      T& t = T_lower[ix(i, j, n)];
      if (i < j) t = T(std::numeric_limits<real_of<T>>::quiet_NaN());
      else if (i == j) t = T(2) + t;
      else t /= real_of<T>(n);
    }
  Handle h;
  CaseResult r;
  trnblasStatus_t st;
  const double t0 = now_seconds();
  if (op == "gemv") {
    st = [&] { TRNBLAS_TYPED_CALL(T, gemv, h.h, TRNBLAS_OP_N, n, n, api(&alpha), api(A.data()), n, api(x.data()), 1, api(&beta), api(y.data()), 1); }();
  } else if (op == "trsv") {
    st = [&] { TRNBLAS_TYPED_CALL(T, trsv, h.h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT, n, api(T_lower.data()), n, api(y.data()), 1); }();
  } else {  // ger (real) / geru (complex)
    st = [&]() -> trnblasStatus_t {
      if constexpr (std::is_same_v<T, float>) return trnblasSger(h.h, n, n, &alpha, x.data(), 1, y0.data(), 1, Aout.data(), n);
      else if constexpr (std::is_same_v<T, double>) return trnblasDger(h.h, n, n, &alpha, x.data(), 1, y0.data(), 1, Aout.data(), n);
      else if constexpr (std::is_same_v<T, std::complex<float>>) return trnblasCgeru(h.h, n, n, api(&alpha), api(x.data()), 1, api(y0.data()), 1, api(Aout.data()), n);
      else return trnblasZgeru(h.h, n, n, api(&alpha), api(x.data()), 1, api(y0.data()), 1, api(Aout.data()), n);
    }();
  }
  r.host_seconds = seconds_since(t0);
  if (st != TRNBLAS_STATUS_SUCCESS) throw std::runtime_error("trnblas ?" + op + " failed");
  r.device = h.device();
  double worst = 0;
  if (op == "gemv") {
    for (int i = 0; i < n; ++i) {
      L s = 0;
      long double m = 0;
      for (int k = 0; k < n; ++k) {
        s += wide(A[ix(i, k, n)]) * wide(x[static_cast<std::size_t>(k)]);
        m += abs1(wide(A[ix(i, k, n)])) * abs1(wide(x[static_cast<std::size_t>(k)]));
      }
      const std::size_t k = static_cast<std::size_t>(i);
      const L exact = wide(alpha) * s + wide(beta) * wide(y0[k]);
      const long double w = abs1(wide(alpha)) * m + abs1(wide(beta)) * abs1(wide(y0[k]));
      worst = std::max(worst, static_cast<double>(abs1(wide(y[k]) - exact) / w));
    }
    r.bound = kComplex<T> ? 2 * gamma_u(2.0 * n + 7 + slack, u) : gamma_u(n + 4.0 + slack, u);
  } else if (op == "trsv") {
    for (int i = 0; i < n; ++i) {
      L res = wide(y0[static_cast<std::size_t>(i)]);
      long double m = 0;
      for (int k = 0; k <= i; ++k) {
        res -= wide(T_lower[ix(i, k, n)]) * wide(y[static_cast<std::size_t>(k)]);
        m += abs1(wide(T_lower[ix(i, k, n)])) * abs1(wide(y[static_cast<std::size_t>(k)]));
      }
      worst = std::max(worst, static_cast<double>(abs1(res) / m));
    }
    r.bound = kComplex<T> ? gamma_u(4.0 * n + 24 + slack, u) : gamma_u(n + 2.0 + slack, u);
  } else {
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const L xy = wide(x[static_cast<std::size_t>(i)]) * wide(y0[static_cast<std::size_t>(j)]);
        const L exact = wide(alpha) * xy + wide(A[ix(i, j, n)]);
        const long double w = abs1(wide(alpha)) * abs1(wide(x[static_cast<std::size_t>(i)])) * abs1(wide(y0[static_cast<std::size_t>(j)])) +
                              abs1(wide(A[ix(i, j, n)]));
        worst = std::max(worst, static_cast<double>(abs1(wide(Aout[ix(i, j, n)]) - exact) / w));
      }
    r.bound = kComplex<T> ? 2 * gamma_u(6 + slack, u) : gamma_u(3 + slack, u);
  }
  r.measured = worst;
  r.pass = r.measured <= r.bound;
  r.note = std::is_same_v<real_of<T>, float> ? "TensorE GEMM / substitution kernel" : "fp64: Ozaki DGEMM / host substitution";
  return r;
}

// More Level 1 and 2 routines per precision, same metric (|z| = |re| + |im|, long-double loops):
//   scal (complex: ?scal with a complex alpha) gamma_1 / gamma_2 of |alpha||x|; rot (complex: cs/zd rot,
//   real c and s) gamma_2 of |c||x| + |s||y|; gbmv (kl 3, ku 2), symv (complex: hemv, the diagonal's
//   imaginary parts read as zero) and trmv (upper, T/C, non-unit) as gemv: gamma_{n+4} / 2 gamma_{2n+7}
//   of |alpha||M||x| + |beta||y| (trmv: alpha = 1, beta = 0, the result in x); syr / her and syr2 /
//   her2 on the lower triangle (the upper keeps its bits): gamma_3 / 2 gamma_6 and gamma_4 / 2 gamma_12
//   of |alpha||x||y| (+ its transpose term) + |A| (her2: gerc twice). D and Z + 62 (Ozaki).
template <class T> CaseResult l2_more_case(const std::string& op, int n) {
  const bool vector_op = op == "scal" || op == "rot";
  std::vector<T> A = vector_op ? std::vector<T>() : random<T>(static_cast<std::size_t>(n) * n, 131);
  const std::vector<T> x0 = random<T>(static_cast<std::size_t>(n), 132), y0 = random<T>(static_cast<std::size_t>(n), 133);
  std::vector<T> x = x0, y = y0;
  const T alpha = alpha_value<T>(), beta = [] {
    if constexpr (kComplex<T>) return T(-0.25, 0.5);
    else return T(-0.25);
  }();
  const real_of<T> alpha_r = std::real(alpha), c = real_of<T>(0.6), sn = real_of<T>(0.8);
  const real_of<T> nan = std::numeric_limits<real_of<T>>::quiet_NaN();
  const int kl = 3, ku = 2;
  const bool rank_update = op == "syr" || op == "syr2";
  if (rank_update || op == "symv")  // the lower triangle is referenced; the upper holds NaN
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < j; ++i) A[ix(i, j, n)] = T(nan);
  if (op == "trmv")  // upper, non-unit, well scaled
    for (int j = 0; j < n; ++j)
      for (int i = j + 1; i < n; ++i) A[ix(i, j, n)] = T(nan);
  const std::vector<T> A0 = A;
  Handle h;
  CaseResult r;
  const double t0 = now_seconds();
  const trnblasStatus_t st = [&]() -> trnblasStatus_t {
    if (op == "scal") TRNBLAS_TYPED_CALL(T, scal, h.h, n, api(&alpha), api(x.data()), 1);
    if (op == "rot")
      TRNBLAS_BY_TYPE(T, trnblasSrot, trnblasDrot, trnblasCsrot, trnblasZdrot, h.h, n, api(x.data()), 1, api(y.data()), 1,
                      &c, &sn);
    if (op == "gbmv") {
      std::vector<T> band(static_cast<std::size_t>(kl + ku + 1) * n, T(0));  // band storage, ld kl + ku + 1
      for (int j = 0; j < n; ++j)
        for (int i = std::max(0, j - ku); i <= std::min(n - 1, j + kl); ++i)
          band[static_cast<std::size_t>(ku + i - j) + static_cast<std::size_t>(j) * (kl + ku + 1)] = A[ix(i, j, n)];
      A = band;
      TRNBLAS_TYPED_CALL(T, gbmv, h.h, TRNBLAS_OP_N, n, n, kl, ku, api(&alpha), api(band.data()), kl + ku + 1,
                         api(x.data()), 1, api(&beta), api(y.data()), 1);
    }
    if (op == "symv")
      TRNBLAS_BY_TYPE(T, trnblasSsymv, trnblasDsymv, trnblasChemv, trnblasZhemv, h.h, TRNBLAS_FILL_MODE_LOWER, n,
                      api(&alpha), api(A.data()), n, api(x.data()), 1, api(&beta), api(y.data()), 1);
    if (op == "trmv")
      TRNBLAS_TYPED_CALL(T, trmv, h.h, TRNBLAS_FILL_MODE_UPPER, kComplex<T> ? TRNBLAS_OP_C : TRNBLAS_OP_T,
                         TRNBLAS_DIAG_NON_UNIT, n, api(A.data()), n, api(x.data()), 1);
    if (op == "syr") {
      if constexpr (kComplex<T>)
        TRNBLAS_BY_TYPE(T, trnblasSsyr, trnblasDsyr, trnblasCher, trnblasZher, h.h, TRNBLAS_FILL_MODE_LOWER, n, &alpha_r,
                        api(x.data()), 1, api(A.data()), n);
      else
        TRNBLAS_TYPED_CALL(T, syr, h.h, TRNBLAS_FILL_MODE_LOWER, n, &alpha, x.data(), 1, A.data(), n);
    }
    TRNBLAS_BY_TYPE(T, trnblasSsyr2, trnblasDsyr2, trnblasCher2, trnblasZher2, h.h, TRNBLAS_FILL_MODE_LOWER, n,
                    api(&alpha), api(x.data()), 1, api(y.data()), 1, api(A.data()), n);
  }();
  r.host_seconds = seconds_since(t0);
  if (st != TRNBLAS_STATUS_SUCCESS) throw std::runtime_error("trnblas ?" + op + " failed");
  r.device = h.device();
  const double u = unit_roundoff<T>(), slack = ozaki_slack<T>();
  const L al = wide(alpha), be = wide(beta);
  double worst = 0;
  const auto take = [&](L got, L exact, long double mag) {
    const long double e = abs1(got - exact);
    const double q = static_cast<double>(e / mag);
    worst = std::max(worst, std::isfinite(q) ? q : INFINITY);
  };
  const auto herm = [&](L v) { return kComplex<T> ? std::conj(v) : v; };
  if (vector_op) {
    for (int i = 0; i < n; ++i) {
      const std::size_t k = static_cast<std::size_t>(i);
      if (op == "scal") {
        take(wide(x[k]), al * wide(x0[k]), abs1(al) * abs1(wide(x0[k])));
      } else {
        take(wide(x[k]), L(c) * wide(x0[k]) + L(sn) * wide(y0[k]), c * abs1(wide(x0[k])) + sn * abs1(wide(y0[k])));
        take(wide(y[k]), L(c) * wide(y0[k]) - L(sn) * wide(x0[k]), c * abs1(wide(y0[k])) + sn * abs1(wide(x0[k])));
      }
    }
    r.bound = op == "scal" ? gamma_u(kComplex<T> ? 2 : 1, u) : gamma_u(2, u);
  } else if (!rank_update) {
    // The dense operator M with y = alpha M x + beta y (trmv: x = M x).
    const auto M = [&](int i, int j) -> L {
      if (op == "gbmv") return j - ku <= i && i <= j + kl ? wide(A0[ix(i, j, n)]) : L(0);
      if (op == "symv") {
        if (i == j) return kComplex<T> ? L(wide(A0[ix(i, i, n)]).real(), 0) : wide(A0[ix(i, i, n)]);
        return i > j ? wide(A0[ix(i, j, n)]) : herm(wide(A0[ix(j, i, n)]));
      }
      return i >= j ? herm(wide(A0[ix(j, i, n)])) : L(0);  // trmv: op(A) = A^T / A^H of the upper A
    };
    const bool tr = op == "trmv";
    for (int i = 0; i < n; ++i) {
      L s = 0;
      long double mag = 0;
      for (int j = 0; j < n; ++j) {
        s += M(i, j) * wide(x0[static_cast<std::size_t>(j)]);
        mag += abs1(M(i, j)) * abs1(wide(x0[static_cast<std::size_t>(j)]));
      }
      const std::size_t k = static_cast<std::size_t>(i);
      if (tr) take(wide(x[k]), s, mag);
      else take(wide(y[k]), al * s + be * wide(y0[k]), abs1(al) * mag + abs1(be) * abs1(wide(y0[k])));
    }
    r.bound = kComplex<T> ? 2 * gamma_u(2.0 * n + 7 + slack, u) : gamma_u(n + 4.0 + slack, u);
  } else {
    bool upper_kept = true;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        if (i < j) {
          upper_kept = upper_kept && std::memcmp(&A[ix(i, j, n)], &A0[ix(i, j, n)], sizeof(T)) == 0;
          continue;
        }
        const L xi = wide(x0[static_cast<std::size_t>(i)]), xj = wide(x0[static_cast<std::size_t>(j)]);
        const L yi = wide(y0[static_cast<std::size_t>(i)]), yj = wide(y0[static_cast<std::size_t>(j)]);
        L a0 = wide(A0[ix(i, j, n)]);
        if (kComplex<T> && i == j) a0 = L(a0.real(), 0);
        L upd;
        long double mag;
        if (op == "syr") {
          const L a = kComplex<T> ? L(alpha_r) : al;
          upd = a * xi * herm(xj);
          mag = abs1(a) * abs1(xi) * abs1(xj);
        } else {
          upd = al * xi * herm(yj) + (kComplex<T> ? std::conj(al) : al) * yi * herm(xj);
          mag = abs1(al) * (abs1(xi) * abs1(yj) + abs1(yi) * abs1(xj));
        }
        L got = wide(A[ix(i, j, n)]);
        if (kComplex<T> && i == j && got.imag() != 0) got = L(NAN, NAN);  // a Hermitian diagonal is written real
        take(got, a0 + upd, mag + abs1(a0));
      }
    if (!upper_kept) worst = INFINITY;
    r.bound = op == "syr" ? (kComplex<T> ? 2 * gamma_u(6 + slack, u) : gamma_u(3 + slack, u))
                          : (kComplex<T> ? 2 * gamma_u(12 + slack, u) : gamma_u(4 + slack, u));
  }
  r.measured = worst;
  r.pass = r.measured <= r.bound;
  r.note = std::is_same_v<real_of<T>, float> ? "fp32 kernels on the engines" : "fp64: host side / slice pairs";
  return r;
}

// DSDOT / SDSDOT (C++ API; the BLAS shim's sdsdot_/dsdot_): the fp64 sum of the widened floats (the
// fp64 slice pairs 1 x 1 x n), at least as accurate as the reference BLAS's double loop:
// |dsdot - exact| <= gamma_n(u64) sum |x y|; sdsdot adds sb and rounds once to float:
// |sdsdot - exact| <= u32 |exact| + gamma_{n+1}(u64) (|sb| + sum |x y|). Metric: the error over that bound's
// magnitude (sum |x y|, or |exact| for sdsdot's rounding term), judged against the bound.
CaseResult dsdot_case(bool with_sb, int n) {
  const std::vector<float> x = blastest::uniform_f(static_cast<std::size_t>(n), 141), y = blastest::uniform_f(static_cast<std::size_t>(n), 142);
  const float sb = 0.25f;
  trn::blas::Settings settings;
  trn::blas::CallReport rep;
  const double t0 = now_seconds();
  const double got = with_sb ? double(trn::blas::sdsdot(settings, n, sb, x.data(), 1, y.data(), 1, &rep))
                             : trn::blas::dsdot(settings, n, x.data(), 1, y.data(), 1, &rep);
  CaseResult r;
  r.host_seconds = seconds_since(t0);
  r.device = DeviceCost::from(rep.profile);
  long double exact = with_sb ? sb : 0.0L, mag = with_sb ? sb : 0.0L;
  for (int i = 0; i < n; ++i) {
    exact += static_cast<long double>(x[static_cast<std::size_t>(i)]) * y[static_cast<std::size_t>(i)];
    mag += std::fabs(static_cast<long double>(x[static_cast<std::size_t>(i)]) * y[static_cast<std::size_t>(i)]);
  }
  const double g = gamma_u(n + 1.0, 0x1p-53);
  const long double err = std::fabs(got - exact);
  // The bound u32 |exact| + g mag (sdsdot) or g mag (dsdot), written as err / mag <= bound.
  r.measured = static_cast<double>(err / mag);
  r.bound = with_sb ? static_cast<double>(0x1p-24 * std::fabs(exact) / mag) + g : g;
  r.pass = r.measured <= r.bound;
  r.note = "fp64 slice pairs 1 x 1 x n of the widened floats; reference BLAS sums in fp64";
  return r;
}

template <class T> void add_level12_typed(Registry& reg) {
  const std::string p = prefix<T>(), precision = std::is_same_v<real_of<T>, float> ? "fp32" : "fp64";
  auto add = [&](ValidationCase c) { add_blas_case(reg, std::move(c)); };
  const auto l1_name = [&](const std::string& op) {
    if (op == "iamax") return "i" + p + "amax";
    if constexpr (kComplex<T>) {
      if (op == "dot") return p + "dotc";
      if (op == "nrm2" || op == "asum") return (std::is_same_v<T, std::complex<float>> ? "sc" : "dz") + op;
    }
    return p + op;
  };
  for (const char* op : {"axpy", "dot", "asum", "nrm2", "iamax"})
    add({.op = l1_name(op), .mode = precision, .shape = "n = 1000", .metric = std::string(op) == "iamax" ? "bit_exact" : "max_comp_rel",
         .bound_text = "per routine and precision (suite_blas_level12.cpp)", .size = 1000,
         .run = [op = std::string(op)] { return l1_case<T>(op, 1000); }});
  for (const char* op : {"scal", "rot", "gbmv", "symv", "trmv", "syr", "syr2"}) {
    const std::string o = op;
    std::string name = p + o;
    if (kComplex<T>) {
      const std::string r = std::is_same_v<T, std::complex<float>> ? "cs" : "zd";
      name = o == "rot" ? r + "rot" : o == "symv" ? p + "hemv" : o == "syr" ? p + "her" : o == "syr2" ? p + "her2" : name;
    }
    add({.op = name, .mode = precision, .shape = o == "scal" || o == "rot" ? "n = 1000" : "96",
         .metric = "max_comp_rel", .bound_text = "per routine and precision (suite_blas_level12.cpp)",
         .run = [o] { return l2_more_case<T>(o, o == "scal" || o == "rot" ? 1000 : 96); }});
  }
  for (const char* op : {"gemv", "trsv", "ger"}) {
    const std::string o = op;
    if (o == "gemv" && !kComplex<T>) continue;  // sgemv / dgemv: the cases above
    if (o == "trsv" && kComplex<T>) continue;   // ctrsv / ztrsv: the cases above
    add({.op = o == "ger" && kComplex<T> ? p + "geru" : p + o, .mode = precision, .shape = "96",
         .metric = o == "trsv" ? "max_comp_residual" : "max_comp_rel",
         .bound_text = "per routine and precision (suite_blas_level12.cpp)", .size = 96,
         .run = [o] { return l2_case<T>(o, 96); }});
  }
}

void add_blas_level12(Registry& reg) {
  auto add = [&](ValidationCase c) { add_blas_case(reg, std::move(c)); };
  const trn::blas::ModeTraits& fp32 = trn::blas::mode_traits(trn::blas::GemmMode::fp32);
  for (int n : {256, 1024})
    add({.op = "sgemv", .mode = "fp32 TensorE", .shape = std::to_string(n) + "^2", .metric = "normwise_rel",
         .bound_text = std::string("model ") + fp32.model_text + " (trn/blas/modes.hpp)", .size = static_cast<double>(n),
         .full_only = n > 256, .run = [n] { return sgemv_case(n); }});
  for (float scale : {1e30f, 1e-30f})
    add({.op = "snrm2", .mode = "fp32 VectorE, scaled", .shape = std::string("10000, |x| ~ ") + (scale > 1 ? "1e30" : "1e-30"),
         .metric = "max_comp_rel", .bound_text = "(n + 2) u / 2 + 2 u (docs/trnblas.md)",
         .run = [scale] { return snrm2_case(10000, scale); }});
  for (double cond : {1e10, 1e16, 1e30}) {
    add({.op = "ddot", .mode = "fp64 slice pairs, EAGER", .shape = "n = 1000, cond " + sci(cond),
         .metric = "max_comp_rel", .bound_text = "2.02 u |x^T y| (src/ozaki.hpp)",
         .experiment = "Ogita-Rump-Oishi GenDot (SISC 2005, Alg. 6.1)",
         .run = [cond] { return ddot_gendot_case(1000, cond, TRNBLAS_EMULATION_STRATEGY_EAGER); }});
    add({.op = "ddot", .mode = "fp64 Dot2 split, default", .shape = "n = 1000, cond " + sci(cond),
         .metric = "max_err_over_bound", .bound_text = "u |x^T y| + 2 gamma_{n+2}^2 |x|^T |y| (src/ozaki.hpp)",
         .experiment = "Ogita-Rump-Oishi GenDot (SISC 2005, Alg. 6.1)",
         .run = [cond] { return ddot_gendot_case(1000, cond, TRNBLAS_EMULATION_STRATEGY_DEFAULT); }});
  }
  add({.op = "dgemv", .mode = "fp64 slice pairs", .shape = "128^2, phi 2", .metric = "normwise_rel",
       .bound_text = "<= 2 x OpenBLAS dgemv", .experiment = "GEMMul8 phi generator (Uchino et al., SC '25)",
       .run = [] { return dgemv_case(128); }});
  add({.op = "ctrsv", .mode = "fp32 VectorE + substitution kernel", .shape = "96, lower, op C", .metric = "max_comp_rel",
       .bound_text = "gamma_{4n+24}, u = 2^-24 (docs/trnblas.md)", .run = [] { return ctrsv_case<float>(96); }});
  add({.op = "ztrsv", .mode = "fp64 host scaling + DTRSV", .shape = "96, lower, op C", .metric = "max_comp_rel",
       .bound_text = "gamma_{4n+24}, u = 2^-53 (docs/trnblas.md)", .run = [] { return ctrsv_case<double>(96); }});
  for_each_precision([&](auto tag) { add_level12_typed<decltype(tag)>(reg); });
  for (bool with_sb : {false, true})
    add({.op = with_sb ? "sdsdot" : "dsdot", .mode = "fp64 sum (slice pairs)", .shape = "n = 1000", .metric = "max_comp_rel",
         .bound_text = "gamma_n(u64) of sum |x y| (sdsdot: + u32 |result|)", .run = [with_sb] { return dsdot_case(with_sb, 1000); }});
}

const Registrar kRegistrar(add_blas_level12);

}  // namespace
}  // namespace trnsci::cli
