// The IRS family (issue #27): every <t1><t2>gesv pair not covered by test_trnsolver_irs (DD, SS and
// the complex ZZ ZC ZK ZE ZY CC CK CE CY), every <t1><t2>gels and IRSXgels, against LAPACKE
// (zgesv/dgesv, zgels/dgels in fp64 on the data rounded to the I/O type; oracle only). Matrices
// A = Q1 diag(sigma) Q2^H with sigma geometric from 1 to 1/kappa (kappa_2(A) = kappa exactly up to
// the rounding of A), so the bounds below are computed, not fitted:
//   gesv   ||x - x_ref||_inf / ||x_ref||_inf <= c n kappa u_io                 (c = 4)
//   gels   the same with kappa replaced by kappa + kappa^2 eta, eta = ||r||_2 / (||A||_2 ||x||_2)
//          (the least-squares condition number; Higham, ASNA 2nd ed., Thm 20.1)
// Two-sided: the factorisation really runs in the lower precision (REFINE_NONE's error is at least
// u_low / 100 and at most c n kappa u_low), and refinement is what brings the error to u_io.
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "irs_problems.hpp"
#include "trnsolver.h"

namespace {

using zd = std::complex<double>;

struct Handle {
  trnsolverDnHandle_t h = nullptr;
  Handle() { EXPECT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS); }
  ~Handle() { trnsolverDnDestroy(h); }
};

template <class C>
struct Traits;
template <>
struct Traits<double> {
  using T = double;
  static constexpr bool cx = false;
  static constexpr double u = 0x1p-53;
};
template <>
struct Traits<float> {
  using T = float;
  static constexpr bool cx = false;
  static constexpr double u = 0x1p-24;
};
template <>
struct Traits<trnDoubleComplex> {
  using T = std::complex<double>;
  static constexpr bool cx = true;
  static constexpr double u = 0x1p-53;
};
template <>
struct Traits<trnComplex> {
  using T = std::complex<float>;
  static constexpr bool cx = true;
  static constexpr double u = 0x1p-24;
};

// One problem in the C type's I/O type (tests/reference/irs_problems.hpp).
template <class C>
using Problem = irs_ref::Problem<typename Traits<C>::T>;

template <class C>
C* cp(std::vector<typename Traits<C>::T>& v) {
  return reinterpret_cast<C*>(v.data());
}

template <class C>
using GesvFn = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, C*, int, int*, C*, int, C*, int, void*, size_t,
                                     int*, int*);
template <class C>
using GesvBuf = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, C*, int, int*, C*, int, C*, int, void*, size_t*);
template <class C>
using GelsFn = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, int, C*, int, C*, int, C*, int, void*, size_t,
                                     int*, int*);
template <class C>
using GelsBuf = trnsolverStatus_t (*)(trnsolverDnHandle_t, int, int, int, C*, int, C*, int, C*, int, void*, size_t*);

struct Outcome {
  int iter = 0, info = 0;
  double error = 0, bound = 0;
};

template <class C>
Outcome run_gesv(GesvBuf<C> buf, GesvFn<C> fn, int n, double kappa, std::uint64_t seed) {
  Handle h;
  Problem<C> p(n, n, 2, kappa, 0.0, seed);
  auto A = p.A, X = std::vector<typename Traits<C>::T>(p.xref.size());
  std::vector<int> ipiv(n);
  size_t bytes = 0;
  EXPECT_EQ(buf(h.h, n, 2, cp<C>(A), n, ipiv.data(), cp<C>(p.B), n, cp<C>(X), n, nullptr, &bytes),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> ws(bytes);
  Outcome o;
  EXPECT_EQ(fn(h.h, n, 2, cp<C>(A), n, ipiv.data(), cp<C>(p.B), n, cp<C>(X), n, ws.data(), bytes, &o.iter, &o.info),
            TRNSOLVER_STATUS_SUCCESS);
  o.error = p.error(X);
  o.bound = p.bound(Traits<C>::u);
  return o;
}

template <class C>
Outcome run_gels(GelsBuf<C> buf, GelsFn<C> fn, int m, int n, double kappa, double noise, std::uint64_t seed) {
  Handle h;
  Problem<C> p(m, n, 2, kappa, noise, seed);
  auto A = p.A, X = std::vector<typename Traits<C>::T>(p.xref.size());
  size_t bytes = 0;
  EXPECT_EQ(buf(h.h, m, n, 2, cp<C>(A), m, cp<C>(p.B), m, cp<C>(X), n, nullptr, &bytes), TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> ws(bytes);
  Outcome o;
  EXPECT_EQ(fn(h.h, m, n, 2, cp<C>(A), m, cp<C>(p.B), m, cp<C>(X), n, ws.data(), bytes, &o.iter, &o.info),
            TRNSOLVER_STATUS_SUCCESS);
  o.error = p.error(X);
  o.bound = p.bound(Traits<C>::u);
  return o;
}

// Same precision: one factorisation, iter 0; mixed: refinement ran (iter >= 1) and converged.
void expect_converged(const Outcome& o, bool same, const std::string& name) {
  SCOPED_TRACE(name);
  EXPECT_EQ(o.info, 0);
  if (same)
    EXPECT_EQ(o.iter, 0);
  else
    EXPECT_GE(o.iter, 1);
  EXPECT_LE(o.error, o.bound) << "iter " << o.iter;
  std::printf("%-6s iter %3d error %.3g bound %.3g\n", name.c_str(), o.iter, o.error, o.bound);
}

#define GESV_CASE(P, C, SAME, N, KAPPA)                                                                       \
  expect_converged(run_gesv<C>(trnsolverDn##P##gesv_bufferSize, trnsolverDn##P##gesv, N, KAPPA, __LINE__), SAME, \
                   #P "gesv")
#define GELS_CASE(P, C, SAME, M, N, KAPPA, NOISE)                                                             \
  expect_converged(run_gels<C>(trnsolverDn##P##gels_bufferSize, trnsolverDn##P##gels, M, N, KAPPA, NOISE, __LINE__), \
                   SAME, #P "gels")

TEST(TrnsolverIrsFamily, GesvEveryNewPairConverges) {
  GESV_CASE(DD, double, true, 40, 100.0);
  GESV_CASE(SS, float, true, 40, 100.0);
  GESV_CASE(ZZ, trnDoubleComplex, true, 40, 100.0);
  GESV_CASE(ZC, trnDoubleComplex, false, 40, 100.0);
  GESV_CASE(ZK, trnDoubleComplex, false, 40, 100.0);
  GESV_CASE(ZE, trnDoubleComplex, false, 40, 30.0);
  GESV_CASE(ZY, trnDoubleComplex, false, 40, 100.0);
  GESV_CASE(CC, trnComplex, true, 40, 100.0);
  GESV_CASE(CK, trnComplex, false, 40, 100.0);
  GESV_CASE(CE, trnComplex, false, 40, 30.0);
  GESV_CASE(CY, trnComplex, false, 40, 100.0);
}

TEST(TrnsolverIrsFamily, GelsEveryPairConverges) {
  GELS_CASE(DD, double, true, 64, 32, 100.0, 1e-3);
  GELS_CASE(DS, double, false, 64, 32, 100.0, 1e-3);
  GELS_CASE(DH, double, false, 64, 32, 100.0, 1e-3);
  GELS_CASE(DB, double, false, 64, 32, 30.0, 1e-3);
  GELS_CASE(DX, double, false, 64, 32, 100.0, 1e-3);
  GELS_CASE(SS, float, true, 64, 32, 100.0, 1e-3);
  GELS_CASE(SH, float, false, 64, 32, 100.0, 1e-3);
  GELS_CASE(SB, float, false, 64, 32, 30.0, 1e-3);
  GELS_CASE(SX, float, false, 64, 32, 100.0, 1e-3);
  GELS_CASE(ZZ, trnDoubleComplex, true, 48, 24, 100.0, 1e-3);
  GELS_CASE(ZC, trnDoubleComplex, false, 48, 24, 100.0, 1e-3);
  GELS_CASE(ZK, trnDoubleComplex, false, 48, 24, 100.0, 1e-3);
  GELS_CASE(ZE, trnDoubleComplex, false, 48, 24, 30.0, 1e-3);
  GELS_CASE(ZY, trnDoubleComplex, false, 48, 24, 100.0, 1e-3);
  GELS_CASE(CC, trnComplex, true, 48, 24, 100.0, 1e-3);
  GELS_CASE(CK, trnComplex, false, 48, 24, 100.0, 1e-3);
  GELS_CASE(CE, trnComplex, false, 48, 24, 30.0, 1e-3);
  GELS_CASE(CY, trnComplex, false, 48, 24, 100.0, 1e-3);
}

// A large residual (eta ~ 1): the corrected semi-normal equations still reach the least-squares
// solution (plain refinement of R^-1 Q^H r would stall at kappa u_low eta).
TEST(TrnsolverIrsFamily, GelsLargeResidualReachesLeastSquaresSolution) {
  expect_converged(run_gels<double>(trnsolverDnDHgels_bufferSize, trnsolverDnDHgels, 80, 20, 50.0, 1.0, 7), false,
                   "DHgels eta~1");
  expect_converged(run_gels<trnComplex>(trnsolverDnCKgels_bufferSize, trnsolverDnCKgels, 60, 20, 50.0, 1.0, 8), false,
                   "CKgels eta~1");
}

// IRSXgesv / IRSXgels with the given precisions and refinement on problem p; returns X's error,
// niters and info.
template <class C>
Outcome run_irsx(Problem<C>& p, trnsolverPrecType_t main, trnsolverPrecType_t low, trnsolverIRSRefinement_t ref) {
  Handle h;
  trnsolverDnIRSParams_t prm = nullptr;
  trnsolverDnIRSInfos_t inf = nullptr;
  EXPECT_EQ(trnsolverDnIRSParamsCreate(&prm), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSInfosCreate(&inf), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSParamsSetSolverPrecisions(prm, main, low), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnIRSParamsSetRefinementSolver(prm, ref), TRNSOLVER_STATUS_SUCCESS);
  const bool ls = p.m != p.n;
  size_t bytes = 0;
  EXPECT_EQ(ls ? trnsolverDnIRSXgels_bufferSize(h.h, prm, p.m, p.n, p.nrhs, &bytes)
               : trnsolverDnIRSXgesv_bufferSize(h.h, prm, p.n, p.nrhs, &bytes),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> ws(bytes);
  auto A = p.A, X = std::vector<typename Traits<C>::T>(p.xref.size());
  Outcome o;
  EXPECT_EQ(ls ? trnsolverDnIRSXgels(h.h, prm, inf, p.m, p.n, p.nrhs, A.data(), p.m, p.B.data(), p.m, X.data(), p.n,
                                     ws.data(), bytes, &o.iter, &o.info)
               : trnsolverDnIRSXgesv(h.h, prm, inf, p.n, p.nrhs, A.data(), p.n, p.B.data(), p.n, X.data(), p.n,
                                     ws.data(), bytes, &o.iter, &o.info),
            TRNSOLVER_STATUS_SUCCESS);
  int niters = 99;
  EXPECT_EQ(trnsolverDnIRSInfosGetNiters(inf, &niters), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(niters, o.iter);
  trnsolverDnIRSInfosDestroy(inf);
  trnsolverDnIRSParamsDestroy(prm);
  o.error = p.error(X);
  o.bound = p.bound(Traits<C>::u);
  return o;
}

// Two-sided: REFINE_NONE's solution carries the lowest precision's error (the factorisation really
// ran in it: at least u_low / 100, at most c n kappa u_low), CLASSICAL removes it (<= c n kappa u_io).
// The complex LU's panels are 128 columns wide (fp32 host panels), so n = 192 puts a 64-column
// trailing update in the lower mode.
template <class C>
void two_sided(Problem<C>& p, trnsolverPrecType_t main, trnsolverPrecType_t low, double u_low, const char* name) {
  SCOPED_TRACE(name);
  const Outcome none = run_irsx<C>(p, main, low, TRNSOLVER_IRS_REFINE_NONE);
  EXPECT_EQ(none.iter, 0);
  EXPECT_GE(none.error, u_low / 100);
  EXPECT_LE(none.error, p.bound(u_low));
  const Outcome full = run_irsx<C>(p, main, low, TRNSOLVER_IRS_REFINE_CLASSICAL);
  EXPECT_GE(full.iter, 1);
  EXPECT_LE(full.error, full.bound);
  std::printf("%s: none %.3g (u_low %.3g), classical iter %d %.3g (bound %.3g)\n", name, none.error, u_low, full.iter,
              full.error, full.bound);
}

TEST(TrnsolverIrsFamily, IrsxTwoSidedLowPrecisionFactorAndRefinement) {
  Problem<trnDoubleComplex> z(192, 192, 1, 100.0, 0.0, 11);
  two_sided<trnDoubleComplex>(z, TRNSOLVER_C_64F, TRNSOLVER_C_16F, 0x1p-11, "IRSXgesv C_64F/C_16F");
  Problem<double> d(96, 48, 1, 100.0, 1e-2, 12);
  two_sided<double>(d, TRNSOLVER_R_64F, TRNSOLVER_R_16BF, 0x1p-8, "IRSXgels R_64F/R_16BF");
  Problem<trnComplex> c(64, 32, 2, 30.0, 1e-2, 13);
  two_sided<trnComplex>(c, TRNSOLVER_C_32F, TRNSOLVER_C_16BF, 0x1p-8, "IRSXgels C_32F/C_16BF");
}

// niters < 0 and the fallback: -2 (an element overflows fp32: the fallback solves in fp64, dA then
// holds its QR factors), -3 (an exactly zero column: R(4, 4) = 0 in the low-precision QR; the fp64
// fallback finds it too: d_info 4, dX untouched).
TEST(TrnsolverIrsFamily, GelsNitersAndFallback) {
  Handle h;
  Problem<double> p(40, 20, 1, 10.0, 1e-3, 21);
  for (double& v : p.A) v *= 1e20;  // kappa unchanged; A beyond fp32's range after the next line
  p.A[5] = 1e39;
  p.reference();
  auto A = p.A;
  std::vector<double> X(20, 0.0);
  size_t bytes = 0;
  ASSERT_EQ(trnsolverDnDSgels_bufferSize(h.h, 40, 20, 1, A.data(), 40, p.B.data(), 40, X.data(), 20, nullptr, &bytes),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> ws(bytes);
  int iter = 0, info = -7;
  ASSERT_EQ(trnsolverDnDSgels(h.h, 40, 20, 1, A.data(), 40, p.B.data(), 40, X.data(), 20, ws.data(), bytes, &iter, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(iter, -2);
  EXPECT_EQ(info, 0);
  EXPECT_NE(A, p.A);  // the fallback's factors
  EXPECT_LE(p.error(X), 1e-10);

  Problem<double> q(40, 20, 1, 10.0, 1e-3, 22);
  for (int i = 0; i < 40; ++i) q.A[i + 3 * 40] = 0.0;
  std::vector<double> Y(20, 42.0);
  A = q.A;
  ASSERT_EQ(trnsolverDnDHgels(h.h, 40, 20, 1, A.data(), 40, q.B.data(), 40, Y.data(), 20, ws.data(), bytes, &iter, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(iter, -3);
  EXPECT_EQ(info, 4);
  EXPECT_EQ(Y, std::vector<double>(20, 42.0));
}

// MaxIters spent without the fallback: niters = -MaxIters, X the last iterate.
TEST(TrnsolverIrsFamily, IrsxGelsMaxItersWithoutFallback) {
  Handle h;
  Problem<double> p(64, 32, 1, 100.0, 1e-3, 31);
  trnsolverDnIRSParams_t prm = nullptr;
  trnsolverDnIRSInfos_t inf = nullptr;
  ASSERT_EQ(trnsolverDnIRSParamsCreate(&prm), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnIRSInfosCreate(&inf), TRNSOLVER_STATUS_SUCCESS);
  trnsolverDnIRSParamsSetSolverPrecisions(prm, TRNSOLVER_R_64F, TRNSOLVER_R_16BF);
  trnsolverDnIRSParamsSetRefinementSolver(prm, TRNSOLVER_IRS_REFINE_CLASSICAL);
  trnsolverDnIRSParamsSetMaxIters(prm, 2);
  trnsolverDnIRSParamsDisableFallback(prm);
  size_t bytes = 0;
  ASSERT_EQ(trnsolverDnIRSXgels_bufferSize(h.h, prm, 64, 32, 1, &bytes), TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> ws(bytes);
  auto A = p.A;
  std::vector<double> X(32);
  int niters = 0, info = 0;
  ASSERT_EQ(trnsolverDnIRSXgels(h.h, prm, inf, 64, 32, 1, A.data(), 64, p.B.data(), 64, X.data(), 32, ws.data(), bytes,
                                &niters, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(niters, -2);
  EXPECT_EQ(A, p.A);  // no fallback: dA untouched
  EXPECT_GT(p.error(X), p.bound(0x1p-53));
  EXPECT_LT(p.error(X), 1e-2);
  // GMRES is not a least-squares refinement here; n > m; a destroyed infos.
  trnsolverDnIRSParamsSetRefinementSolver(prm, TRNSOLVER_IRS_REFINE_GMRES);
  EXPECT_EQ(trnsolverDnIRSXgels(h.h, prm, inf, 64, 32, 1, A.data(), 64, p.B.data(), 64, X.data(), 32, ws.data(), bytes,
                                &niters, &info),
            TRNSOLVER_STATUS_IRS_NOT_SUPPORTED);
  EXPECT_EQ(trnsolverDnIRSXgels_bufferSize(h.h, prm, 16, 32, 1, &bytes), TRNSOLVER_STATUS_INVALID_VALUE);
  trnsolverDnIRSInfosDestroy(inf);
  trnsolverDnIRSParamsSetRefinementSolver(prm, TRNSOLVER_IRS_REFINE_CLASSICAL);
  EXPECT_EQ(trnsolverDnIRSXgels(h.h, prm, inf, 64, 32, 1, A.data(), 64, p.B.data(), 64, X.data(), 32, ws.data(), bytes,
                                &niters, &info),
            TRNSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED);
  trnsolverDnIRSParamsDestroy(prm);
}

// Every argument in cuSOLVER's order: d_info = -position, INVALID_VALUE, dA/dX untouched.
TEST(TrnsolverIrsFamily, BadArgumentsByPosition) {
  Handle h;
  using Z = std::complex<double>;
  const int m = 12, n = 6;
  std::vector<Z> A(m * n, Z(1, 1)), B(m, Z(2, 0)), X(n, Z(7, 7));
  for (int i = 0; i < n; ++i) A[i + i * m] += Z(10, 0);
  auto* a = cp<trnDoubleComplex>(A);
  auto* b = cp<trnDoubleComplex>(B);
  auto* x = cp<trnDoubleComplex>(X);
  size_t bytes = 0;
  ASSERT_EQ(trnsolverDnZKgels_bufferSize(h.h, m, n, 1, a, m, b, m, x, n, nullptr, &bytes), TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> ws(bytes);
  const auto A0 = A, X0 = X;
  int iter = 0;
  struct Case {
    int pos;
    trnsolverStatus_t st;
  };
  auto gels = [&](int mm, int nn, int nrhs, trnDoubleComplex* pa, int lda, trnDoubleComplex* pb, int ldb,
                  trnDoubleComplex* px, int ldx, void* w, size_t lw, int* it, int expect_pos) {
    int info = 0;
    EXPECT_EQ(trnsolverDnZKgels(h.h, mm, nn, nrhs, pa, lda, pb, ldb, px, ldx, w, lw, it, &info),
              TRNSOLVER_STATUS_INVALID_VALUE)
        << "position " << expect_pos;
    EXPECT_EQ(info, -expect_pos);
    EXPECT_EQ(A, A0);
    EXPECT_EQ(X, X0);
  };
  gels(-1, n, 1, a, m, b, m, x, n, ws.data(), bytes, &iter, 1);
  gels(m, -1, 1, a, m, b, m, x, n, ws.data(), bytes, &iter, 2);
  gels(n - 1, n, 1, a, m, b, m, x, n, ws.data(), bytes, &iter, 2);  // n > m
  gels(m, n, -1, a, m, b, m, x, n, ws.data(), bytes, &iter, 3);
  gels(m, n, 1, nullptr, m, b, m, x, n, ws.data(), bytes, &iter, 4);
  gels(m, n, 1, a, m - 1, b, m, x, n, ws.data(), bytes, &iter, 5);
  gels(m, n, 1, a, m, nullptr, m, x, n, ws.data(), bytes, &iter, 6);
  gels(m, n, 1, a, m, b, m - 1, x, n, ws.data(), bytes, &iter, 7);
  gels(m, n, 1, a, m, b, m, nullptr, n, ws.data(), bytes, &iter, 8);
  gels(m, n, 1, a, m, b, m, x, n - 1, ws.data(), bytes, &iter, 9);
  gels(m, n, 1, a, m, b, m, x, n, nullptr, bytes, &iter, 10);
  gels(m, n, 1, a, m, b, m, x, n, ws.data(), bytes - 1, &iter, 11);  // workspace too small
  gels(m, n, 1, a, m, b, m, x, n, ws.data(), bytes, nullptr, 12);
  EXPECT_EQ(trnsolverDnZKgels(h.h, m, n, 1, a, m, b, m, x, n, ws.data(), bytes, &iter, nullptr),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnZKgels(nullptr, m, n, 1, a, m, b, m, x, n, ws.data(), bytes, &iter, nullptr),
            TRNSOLVER_STATUS_NOT_INITIALIZED);

  // gesv (complex fp32 I/O): dipiv at 5, the rest as gels after it.
  using Cf = std::complex<float>;
  std::vector<Cf> Af(n * n, Cf(1, 0)), Bf(n, Cf(1, 1)), Xf(n, Cf(3, 3));
  for (int i = 0; i < n; ++i) Af[i + i * n] += Cf(8, 0);
  std::vector<int> ipiv(n, -5);
  auto* af = cp<trnComplex>(Af);
  auto* bf = cp<trnComplex>(Bf);
  auto* xf = cp<trnComplex>(Xf);
  ASSERT_EQ(trnsolverDnCYgesv_bufferSize(h.h, n, 1, af, n, ipiv.data(), bf, n, xf, n, nullptr, &bytes),
            TRNSOLVER_STATUS_SUCCESS);
  const auto Af0 = Af, Xf0 = Xf;
  int info = 0;
  EXPECT_EQ(trnsolverDnCYgesv(h.h, n, 1, af, n, nullptr, bf, n, xf, n, ws.data(), bytes, &iter, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -5);
  EXPECT_EQ(trnsolverDnCYgesv(h.h, n, 1, af, n, ipiv.data(), bf, n, xf, n, ws.data(), bytes - 1, &iter, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -11);
  EXPECT_EQ(Af, Af0);
  EXPECT_EQ(Xf, Xf0);
  EXPECT_EQ(ipiv, std::vector<int>(n, -5));
  // The valid call: converged, pivots written.
  EXPECT_EQ(trnsolverDnCYgesv(h.h, n, 1, af, n, ipiv.data(), bf, n, xf, n, ws.data(), bytes, &iter, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_GE(iter, 0);
  for (int v : ipiv) EXPECT_TRUE(v >= 1 && v <= n);
}

}  // namespace
