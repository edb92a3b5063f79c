// syevd / sytrd / orgtr / ormtr (S, D) against LAPACKE dsyevd / dsytrd (the oracle, never in the
// library) and long-double error measures computed here. Bounds of docs/trnsolver.md "syevd",
// two-sided: each error is below c n u (as accurate as documented) and the fp32 ones above u32 / 64
// (they really ran in fp32).
#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "trn/solver/eig.hpp"
#include "trnsolver.h"
#include "walkthrough_problems.hpp"

namespace ts = trn::solver;

extern "C" int trnsolver_walkthrough_syevd(int x_range, int n, const double* A, int il, int iu, double* V, double* W,
                                           int* meig, int* info);
extern "C" int trnsolver_walkthrough_sygvd(int x_range, int n, const double* A, const double* B, int il, int iu,
                                           double* V, double* W, int* meig, int* info);

namespace {

using LD = long double;

template <class T>
double unit() {
  return std::is_same_v<T, float> ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
}

// docs/trnsolver.md "syevd": ||AV - V Lambda||_F / ||A||_F <= kCRes n u, ||V^T V - I||_F <= kCOrth n u,
// max |lambda - lambda_dsyevd| <= kCVal n u ||A||_2.
constexpr double kCRes = 1.0, kCOrth = 4.0, kCVal = 1.0;

std::vector<double> random_symmetric(std::int64_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd(0.0, 1.0);
  std::vector<double> a(static_cast<std::size_t>(n * n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i) a[i + j * n] = a[j + i * n] = nd(rng);
  return a;
}

std::vector<double> dsyevd_values(std::int64_t n, std::vector<double> a) {
  std::vector<double> w(static_cast<std::size_t>(n));
  EXPECT_EQ(LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', static_cast<int>(n), a.data(), static_cast<int>(n), w.data()), 0);
  return w;
}

struct Errors {
  double res = 0, orth = 0, val = 0;
};

// The measures of one syevd call on the symmetric a (exact in T's precision as given).
template <class T>
Errors measure(std::int64_t n, const std::vector<T>& a, const std::vector<T>& V, const std::vector<T>& W) {
  Errors e;
  LD anorm = 0, rr = 0, oo = 0;
  for (const T& x : a) anorm += LD(x) * LD(x);
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < n; ++i) {
      LD s = 0, g = 0;
      for (std::int64_t k = 0; k < n; ++k) {
        s += LD(a[i + k * n]) * LD(V[k + j * n]);
        g += LD(V[k + i * n]) * LD(V[k + j * n]);
      }
      s -= LD(V[i + j * n]) * LD(W[j]);
      g -= i == j ? 1 : 0;
      rr += s * s;
      oo += g * g;
    }
  }
  e.res = static_cast<double>(std::sqrt(rr / anorm));
  e.orth = static_cast<double>(std::sqrt(oo));
  std::vector<double> ad(a.begin(), a.end());
  const std::vector<double> ref = dsyevd_values(n, ad);
  const double a2 = std::max(std::fabs(ref.front()), std::fabs(ref.back()));
  for (std::int64_t j = 0; j < n; ++j) e.val = std::max(e.val, std::fabs(double(W[j]) - ref[j]) / a2);
  return e;
}

template <class T>
Errors run_syevd(std::int64_t n, unsigned seed, ts::Uplo uplo, std::int64_t lda_extra = 0) {
  const std::vector<double> a0 = random_symmetric(n, seed);
  std::vector<T> a(a0.begin(), a0.end());
  const std::int64_t lda = n + lda_extra;
  std::vector<T> A(static_cast<std::size_t>(lda * n), std::numeric_limits<T>::quiet_NaN()), W(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      if (uplo == ts::Uplo::lower ? i >= j : i <= j) A[i + j * lda] = a[i + j * n];
  ts::CallReport rep;
  EXPECT_EQ(ts::syevd(ts::Settings{}, true, uplo, n, A.data(), lda, W.data(), &rep), 0);
  std::vector<T> V(static_cast<std::size_t>(n * n));
  for (std::int64_t j = 0; j < n; ++j) std::copy(A.begin() + j * lda, A.begin() + j * lda + n, V.begin() + j * n);
  EXPECT_TRUE(std::is_sorted(W.begin(), W.end()));
  return measure(n, a, V, W);
}

template <class T>
void check_bounds(std::int64_t n, const Errors& e) {
  const double nu = static_cast<double>(std::max<std::int64_t>(n, 8)) * unit<T>();
  std::printf("n=%lld %s res %.2e (%.2f nu) orth %.2e (%.2f nu) val %.2e (%.2f nu)\n", static_cast<long long>(n),
              std::is_same_v<T, float> ? "S" : "D", e.res, e.res / nu, e.orth, e.orth / nu, e.val, e.val / nu);
  EXPECT_LE(e.res, kCRes * nu);
  EXPECT_LE(e.orth, kCOrth * nu);
  EXPECT_LE(e.val, kCVal * nu);
  if (std::is_same_v<T, float> && n >= 8) {
    EXPECT_GE(e.res, unit<float>() / 64);
    EXPECT_GE(e.orth, unit<float>() / 64);
  }
}

template <class T>
class TrnsolverSyevd : public ::testing::Test {};
using Types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(TrnsolverSyevd, Types);

TYPED_TEST(TrnsolverSyevd, RandomMatricesMeetTheBounds) {
  for (std::int64_t n : {1, 2, 7, 32, 33, 70, 130}) {
    const Errors e = run_syevd<TypeParam>(n, 100 + static_cast<unsigned>(n), n % 2 ? ts::Uplo::lower : ts::Uplo::upper,
                                          n % 3);
    check_bounds<TypeParam>(n, e);
  }
}

// Eigenvalues only (implicit QL on the whole tridiagonal): within the same bound of dsyevd's.
TYPED_TEST(TrnsolverSyevd, ValuesOnlyMatchDsyevd) {
  using T = TypeParam;
  const std::int64_t n = 45;
  const std::vector<double> a0 = random_symmetric(n, 7);
  std::vector<T> A(a0.begin(), a0.end()), W(static_cast<std::size_t>(n));
  ASSERT_EQ(ts::syevd(ts::Settings{}, false, ts::Uplo::lower, n, A.data(), n, W.data()), 0);
  const std::vector<T> a(a0.begin(), a0.end());  // the matrix as T holds it
  const std::vector<double> ref_t = dsyevd_values(n, std::vector<double>(a.begin(), a.end()));
  const double a2 = std::max(std::fabs(ref_t.front()), std::fabs(ref_t.back()));
  for (std::int64_t j = 0; j < n; ++j) EXPECT_LE(std::fabs(double(W[j]) - ref_t[j]), kCVal * n * unit<T>() * a2);
}

// Clustered and repeated eigenvalues exercise the deflation (both kinds): the identity plus a rank-2
// term, and a matrix with eigenvalues 1 (multiplicity n/2) and 1 + 1e-10.
TYPED_TEST(TrnsolverSyevd, RepeatedEigenvaluesDeflate) {
  using T = TypeParam;
  const std::int64_t n = 80;
  std::mt19937_64 rng(3);
  std::normal_distribution<double> nd;
  std::vector<double> q(static_cast<std::size_t>(n * n));
  for (double& x : q) x = nd(rng);
  std::vector<double> tau(static_cast<std::size_t>(n));
  LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, n, q.data(), n, tau.data());
  LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, n, n, q.data(), n, tau.data());
  std::vector<T> a(static_cast<std::size_t>(n * n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      double s = 0;
      for (std::int64_t k = 0; k < n; ++k) s += q[i + k * n] * (k < n / 2 ? 1.0 : 1.0 + 1e-10) * q[j + k * n];
      a[i + j * n] = static_cast<T>(s);
    }
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < j; ++i) a[i + j * n] = a[j + i * n];  // exactly symmetric in T
  std::vector<T> A = a, W(static_cast<std::size_t>(n));
  ASSERT_EQ(ts::syevd(ts::Settings{}, true, ts::Uplo::lower, n, A.data(), n, W.data()), 0);
  check_bounds<T>(n, measure(n, a, A, W));
}

// A non-finite entry in the read triangle: info = n, W NaN, A untouched, no hang; in the other
// triangle it is not read.
TYPED_TEST(TrnsolverSyevd, NonFiniteInputGivesInfoN) {
  using T = TypeParam;
  const std::int64_t n = 40;
  const std::vector<double> a0 = random_symmetric(n, 9);
  std::vector<T> A(a0.begin(), a0.end()), W(static_cast<std::size_t>(n));
  A[5 + 2 * n] = std::numeric_limits<T>::infinity();
  const std::vector<T> A0 = A;
  EXPECT_EQ(ts::syevd(ts::Settings{}, true, ts::Uplo::lower, n, A.data(), n, W.data()), n);
  EXPECT_TRUE(std::isnan(W[0]));
  EXPECT_EQ(std::memcmp(A.data(), A0.data(), A.size() * sizeof(T)), 0);
  EXPECT_EQ(ts::syevd(ts::Settings{}, true, ts::Uplo::upper, n, A.data(), n, W.data()), 0);
}

// sytrd / orgtr / ormtr: Q^T A Q = T (Q from orgtr), ormtr applies the same Q, both uplo; D and E match
// LAPACKE dsytrd's up to the signs of E (Householder vectors are unique up to sign).
TYPED_TEST(TrnsolverSyevd, SytrdOrgtrOrmtrReduceToTheTridiagonal) {
  using T = TypeParam;
  const std::int64_t n = 75;
  const std::vector<double> a0 = random_symmetric(n, 11);
  const std::vector<T> a(a0.begin(), a0.end());
  for (ts::Uplo uplo : {ts::Uplo::lower, ts::Uplo::upper}) {
    std::vector<T> A = a, D(n), E(n - 1), tau(n - 1);
    ASSERT_EQ(ts::sytrd(ts::Settings{}, uplo, n, A.data(), n, D.data(), E.data(), tau.data()), 0);
    std::vector<T> Q = A;
    ASSERT_EQ(ts::orgtr(ts::Settings{}, uplo, n, Q.data(), n, tau.data()), 0);
    std::vector<T> C = a;  // C = Q^T A, then (Q^T (Q^T A)^T)
    ASSERT_EQ(ts::ormtr(ts::Settings{}, true, uplo, true, n, n, A.data(), n, tau.data(), C.data(), n), 0);
    ASSERT_EQ(ts::ormtr(ts::Settings{}, false, uplo, false, n, n, A.data(), n, tau.data(), C.data(), n), 0);
    LD err = 0, orth = 0, cerr = 0, anorm = 0;
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) {
        LD t = 0, g = 0;
        for (std::int64_t k = 0; k < n; ++k) {
          LD aq = 0;
          for (std::int64_t l = 0; l < n; ++l) aq += LD(a[k + l * n]) * LD(Q[l + j * n]);
          t += LD(Q[k + i * n]) * aq;
          g += LD(Q[k + i * n]) * LD(Q[k + j * n]);
        }
        const LD tij = i == j ? LD(D[i]) : i == j + 1 ? LD(E[j]) : j == i + 1 ? LD(E[i]) : 0;
        err += (t - tij) * (t - tij);
        orth += (g - (i == j)) * (g - (i == j));
        cerr += (LD(C[i + j * n]) - tij) * (LD(C[i + j * n]) - tij);
        anorm += LD(a[i + j * n]) * LD(a[i + j * n]);
      }
    const double nu = n * unit<T>();
    EXPECT_LE(std::sqrt(err / anorm), kCRes * nu);
    EXPECT_LE(std::sqrt(orth), kCOrth * nu);
    EXPECT_LE(std::sqrt(cerr / anorm), 2 * kCRes * nu);
    std::vector<double> ad(a0), dd(n), ee(n - 1), tt(n - 1);
    LAPACKE_dsytrd(LAPACK_COL_MAJOR, uplo == ts::Uplo::lower ? 'L' : 'U', n, ad.data(), n, dd.data(), ee.data(), tt.data());
    for (std::int64_t i = 0; i < n; ++i) EXPECT_NEAR(double(D[i]), dd[i], 1e3 * nu);
    for (std::int64_t i = 0; i + 1 < n; ++i) EXPECT_NEAR(std::fabs(double(E[i])), std::fabs(ee[i]), 1e3 * nu);
  }
}

// The C99 walkthrough of the Dsyevd call sequence (trnsolver_c_eig_walkthroughs.c) on a 4 x 4 matrix with
// the exactly known spectrum (-1, 2, 3, 5): W to a few ulps of the largest, A V = V W, V orthonormal.
TEST(TrnsolverSyevdSamples, SyevdPrintsItsDocumentedResult) {
  const auto A = walkthrough::hadamard_symmetric();
  const double lambda[4] = {-1, 2, 3, 5};
  double V[16], W[4];
  int meig = -1, info = -1;
  ASSERT_EQ(trnsolver_walkthrough_syevd(0, 4, A.data(), 0, 0, V, W, &meig, &info), 0);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(meig, 4);
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(W[k], lambda[k], 1e-14 * 5) << k;
  EXPECT_LE(walkthrough::eigenpair_residual(4, A.data(), nullptr, V, W, 4), 1e-14 * 5 * 4);
  EXPECT_LE(walkthrough::orthonormality_error(4, nullptr, V, 4), 1e-14 * 4);
}

// Every argument in cuSOLVER's order: INVALID_VALUE, info = -position, nothing written; lwork one
// below _bufferSize; bad enum values as ints; a bad handle NOT_INITIALIZED.
TEST(TrnsolverSyevdCApi, BadInputPerArgumentLeavesOutputsUntouched) {
  trnsolverDnHandle_t h = nullptr;
  ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
  const int n = 6;
  std::vector<double> a(36, 1.5), w(6, -2.0), work(4096, 0.0), d(6), e(6), tau(6, 0.25), c(36, 3.0);
  const std::vector<double> a0 = a, w0 = w, c0 = c;
  int info = 0, lw = 0;
  const auto V = TRNSOLVER_EIG_MODE_VECTOR;
  const auto L = TRNBLAS_FILL_MODE_LOWER;
  ASSERT_EQ(trnsolverDnDsyevd_bufferSize(h, V, L, n, a.data(), n, w.data(), &lw), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(lw, 1 + 6 * n + 2 * n * n);
  auto expect_fail = [&](trnsolverStatus_t st, int pos, const char* what) {
    EXPECT_EQ(st, TRNSOLVER_STATUS_INVALID_VALUE) << what;
    EXPECT_EQ(info, -pos) << what;
    int last = 0;
    trnsolverDnGetLastErrorParameter(h, &last);
    EXPECT_EQ(last, pos) << what;
    EXPECT_EQ(a, a0) << what;
    EXPECT_EQ(w, w0) << what;
    EXPECT_EQ(c, c0) << what;
  };
  double* A = a.data();
  double* W = w.data();
  double* K = work.data();
  expect_fail(trnsolverDnDsyevd(h, static_cast<trnsolverEigMode_t>(7), L, n, A, n, W, K, lw, &info), 1, "jobz");
  expect_fail(trnsolverDnDsyevd(h, V, static_cast<trnblasFillMode_t>(9), n, A, n, W, K, lw, &info), 2, "uplo");
  expect_fail(trnsolverDnDsyevd(h, V, L, -1, A, n, W, K, lw, &info), 3, "n");
  expect_fail(trnsolverDnDsyevd(h, V, L, n, nullptr, n, W, K, lw, &info), 4, "A");
  expect_fail(trnsolverDnDsyevd(h, V, L, n, A, n - 1, W, K, lw, &info), 5, "lda");
  expect_fail(trnsolverDnDsyevd(h, V, L, n, A, n, nullptr, K, lw, &info), 6, "W");
  expect_fail(trnsolverDnDsyevd(h, V, L, n, A, n, W, nullptr, lw, &info), 7, "work");
  expect_fail(trnsolverDnDsyevd(h, V, L, n, A, n, W, K, lw - 1, &info), 8, "lwork");
  EXPECT_EQ(trnsolverDnDsyevd(h, V, L, n, A, n, W, K, lw, nullptr), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnDsyevd(nullptr, V, L, n, A, n, W, K, lw, &info), TRNSOLVER_STATUS_NOT_INITIALIZED);
  float fa[36] = {}, fw[6] = {};
  EXPECT_EQ(trnsolverDnSsyevd_bufferSize(h, V, L, n, fa, n, fw, nullptr), TRNSOLVER_STATUS_INVALID_VALUE);
  // sytrd: uplo 1, n 2, A 3, lda 4, d 5, e 6, tau 7, work 8, lwork 9.
  ASSERT_EQ(trnsolverDnDsytrd_bufferSize(h, L, n, A, n, d.data(), e.data(), tau.data(), &lw), TRNSOLVER_STATUS_SUCCESS);
  expect_fail(trnsolverDnDsytrd(h, static_cast<trnblasFillMode_t>(5), n, A, n, d.data(), e.data(), tau.data(), K, lw, &info), 1, "sytrd uplo");
  expect_fail(trnsolverDnDsytrd(h, L, n, A, n - 1, d.data(), e.data(), tau.data(), K, lw, &info), 4, "sytrd lda");
  expect_fail(trnsolverDnDsytrd(h, L, n, A, n, d.data(), nullptr, tau.data(), K, lw, &info), 6, "sytrd e");
  expect_fail(trnsolverDnDsytrd(h, L, n, A, n, d.data(), e.data(), tau.data(), K, lw - 1, &info), 9, "sytrd lwork");
  // orgtr: uplo 1, n 2, A 3, lda 4, tau 5, work 6, lwork 7.
  ASSERT_EQ(trnsolverDnDorgtr_bufferSize(h, L, n, A, n, tau.data(), &lw), TRNSOLVER_STATUS_SUCCESS);
  expect_fail(trnsolverDnDorgtr(h, L, -2, A, n, tau.data(), K, lw, &info), 2, "orgtr n");
  expect_fail(trnsolverDnDorgtr(h, L, n, A, n, nullptr, K, lw, &info), 5, "orgtr tau");
  expect_fail(trnsolverDnDorgtr(h, L, n, A, n, tau.data(), K, lw - 1, &info), 7, "orgtr lwork");
  // ormtr: side 1, uplo 2, trans 3, m 4, n 5, A 6, lda 7, tau 8, C 9, ldc 10, work 11, lwork 12.
  const auto S = TRNBLAS_SIDE_LEFT;
  ASSERT_EQ(trnsolverDnDormtr_bufferSize(h, S, L, TRNBLAS_OP_N, n, n, A, n, tau.data(), c.data(), n, &lw),
            TRNSOLVER_STATUS_SUCCESS);
  expect_fail(trnsolverDnDormtr(h, static_cast<trnblasSideMode_t>(3), L, TRNBLAS_OP_N, n, n, A, n, tau.data(), c.data(), n, K, lw, &info), 1, "ormtr side");
  expect_fail(trnsolverDnDormtr(h, S, L, static_cast<trnblasOperation_t>(8), n, n, A, n, tau.data(), c.data(), n, K, lw, &info), 3, "ormtr trans");
  expect_fail(trnsolverDnDormtr(h, S, L, TRNBLAS_OP_N, n, n, A, n, tau.data(), c.data(), n - 1, K, lw, &info), 10, "ormtr ldc");
  expect_fail(trnsolverDnDormtr(h, S, L, TRNBLAS_OP_N, n, n, A, n, tau.data(), c.data(), n, K, lw - 1, &info), 12, "ormtr lwork");
  // A successful call sets info 0 and a profile with TensorE time.
  ASSERT_EQ(trnsolverDnDsyevd_bufferSize(h, V, L, n, A, n, W, &lw), TRNSOLVER_STATUS_SUCCESS);
  for (int i = 0; i < n; ++i) a[i + i * n] = i;
  ASSERT_EQ(trnsolverDnDsyevd(h, V, L, n, A, n, W, K, lw, &info), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  trnProfile_t prof;
  ASSERT_EQ(trnsolverDnGetLastProfile(h, &prof), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_GT(prof.total_ns, 0.0);
  trnsolverDnDestroy(h);
}

// syevdx: the selection of the full syevd's spectrum (the eigenvalues bit for bit: the same computation;
// the vectors within 64 n u: only the selected columns are back-transformed, and the Ozaki GEMM's
// slicing depends on its operand), the others after them in W; range V counts (vl, vu], range I the
// il-th..iu-th.
TYPED_TEST(TrnsolverSyevd, SyevdxSelectsFromTheSpectrum) {
  using T = TypeParam;
  const std::int64_t n = 50;
  const std::vector<double> a0 = random_symmetric(n, 21);
  std::vector<T> full(a0.begin(), a0.end()), wf(static_cast<std::size_t>(n));
  ASSERT_EQ(ts::syevd(ts::Settings{}, true, ts::Uplo::lower, n, full.data(), n, wf.data()), 0);
  const double vl = (double(wf[10]) + double(wf[11])) / 2, vu = double(wf[20]);
  const ts::EigSelect sels[] = {{ts::EigRange::all, 0, 0, 1, 0}, {ts::EigRange::value, vl, vu, 1, 0},
                                {ts::EigRange::index, 0, 0, 5, 17}};
  const std::int64_t lo[] = {0, 11, 4}, count[] = {n, 10, 13};
  for (int k = 0; k < 3; ++k) {
    std::vector<T> A(a0.begin(), a0.end()), W(static_cast<std::size_t>(n));
    std::int64_t m = -1;
    ASSERT_EQ(ts::syevdx(ts::Settings{}, true, sels[k], ts::Uplo::lower, n, A.data(), n, &m, W.data()), 0);
    ASSERT_EQ(m, count[k]) << k;
    for (std::int64_t j = 0; j < m; ++j) {
      EXPECT_EQ(W[j], wf[lo[k] + j]) << k;
      for (std::int64_t i = 0; i < n; ++i) EXPECT_NEAR(A[i + j * n], full[i + (lo[k] + j) * n], 64 * n * unit<T>()) << k;
    }
    for (std::int64_t j = m; j < n; ++j) {
      EXPECT_EQ(W[j], wf[j < m + lo[k] ? j - m : j]) << k;  // the others, ascending
      for (std::int64_t i = 0; i < n; ++i) EXPECT_EQ(A[i + j * n], static_cast<T>(a0[i + j * n])) << k;
    }
  }
  std::vector<T> A(a0.begin(), a0.end()), W(static_cast<std::size_t>(n));
  std::int64_t m = 0;
  EXPECT_THROW(ts::syevdx(ts::Settings{}, true, {ts::EigRange::value, 1, 1, 1, 0}, ts::Uplo::lower, n, A.data(), n,
                          &m, W.data()),
               trn::UsageError);
  EXPECT_THROW(ts::syevdx(ts::Settings{}, true, {ts::EigRange::index, 0, 0, 3, 2}, ts::Uplo::lower, n, A.data(), n,
                          &m, W.data()),
               trn::UsageError);
}

// Dsyevdx range I (il 2, iu 3) on the same matrix: meig 2, W = (2, 3), those two eigenpairs.
TEST(TrnsolverSyevdSamples, SyevdxPrintsItsDocumentedResult) {
  const auto A = walkthrough::hadamard_symmetric();
  double V[16], W[4];
  int meig = -1, info = -1;
  ASSERT_EQ(trnsolver_walkthrough_syevd(1, 4, A.data(), 2, 3, V, W, &meig, &info), 0);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(meig, 2);
  EXPECT_NEAR(W[0], 2.0, 1e-14 * 5);
  EXPECT_NEAR(W[1], 3.0, 1e-14 * 5);
  EXPECT_LE(walkthrough::eigenpair_residual(4, A.data(), nullptr, V, W, 2), 1e-14 * 5 * 4);
  EXPECT_LE(walkthrough::orthonormality_error(4, nullptr, V, 2), 1e-14 * 4);
}

// Dsygvd and Dsygvdx (range I, il 1, iu 2) for A x = lambda B x, A the matrix above and B a tridiagonal
// SPD matrix of this test: eigenvalues against LAPACKE_dsygv, A X = B X W and X^T B X = I.
TEST(TrnsolverSyevdSamples, SygvdAndSygvdxPrintTheirDocumentedResults) {
  const auto A = walkthrough::hadamard_symmetric();
  const double B[16] = {4, 1, 0, 0, 1, 5, 1, 0, 0, 1, 6, 1, 0, 0, 1, 7};
  double ra[16], rb[16], rw[4];
  std::copy(A.begin(), A.end(), ra);
  std::copy(B, B + 16, rb);
  ASSERT_EQ(LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'N', 'L', 4, ra, 4, rb, 4, rw), 0);
  for (int x = 0; x <= 1; ++x) {
    SCOPED_TRACE(x ? "sygvdx" : "sygvd");
    double V[16], W[4];
    int meig = -1, info = -1;
    ASSERT_EQ(trnsolver_walkthrough_sygvd(x, 4, A.data(), B, 1, 2, V, W, &meig, &info), 0);
    EXPECT_EQ(info, 0);
    EXPECT_EQ(meig, x ? 2 : 4);
    for (int k = 0; k < meig; ++k) EXPECT_NEAR(W[k], rw[k], 1e-14) << k;
    EXPECT_LE(walkthrough::eigenpair_residual(4, A.data(), B, V, W, meig), 1e-13);
    EXPECT_LE(walkthrough::orthonormality_error(4, B, V, meig), 1e-13);
  }
}

TEST(TrnsolverSyevdCApi, SyevdxRangeArguments) {
  trnsolverDnHandle_t h = nullptr;
  ASSERT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
  const int n = 5;
  std::vector<float> a(25, 0.0f), w(5, -1.0f), work(1024);
  for (int i = 0; i < n; ++i) a[i + i * n] = static_cast<float>(i);
  const std::vector<float> a0 = a, w0 = w;
  const auto V = TRNSOLVER_EIG_MODE_VECTOR;
  const auto L = TRNBLAS_FILL_MODE_LOWER;
  int lw = 0, meig = -7, info = 0;
  ASSERT_EQ(trnsolverDnSsyevdx_bufferSize(h, V, TRNSOLVER_EIG_RANGE_V, L, n, a.data(), n, 0.5f, 2.5f, 0, 0, &meig,
                                          w.data(), &lw),
            TRNSOLVER_STATUS_SUCCESS);
  auto fail = [&](trnsolverStatus_t st, int pos, const char* what) {
    EXPECT_EQ(st, TRNSOLVER_STATUS_INVALID_VALUE) << what;
    EXPECT_EQ(info, -pos) << what;
    EXPECT_EQ(a, a0) << what;
    EXPECT_EQ(w, w0) << what;
    EXPECT_EQ(meig, -7) << what;
  };
  float* A = a.data();
  float* W = w.data();
  fail(trnsolverDnSsyevdx(h, V, static_cast<trnsolverEigRange_t>(1004), L, n, A, n, 0, 1, 1, 1, &meig, W, work.data(), lw, &info), 2, "range");
  fail(trnsolverDnSsyevdx(h, V, TRNSOLVER_EIG_RANGE_V, L, n, A, n, 2, 2, 1, 1, &meig, W, work.data(), lw, &info), 8, "vl >= vu");
  fail(trnsolverDnSsyevdx(h, V, TRNSOLVER_EIG_RANGE_I, L, n, A, n, 0, 0, 0, 2, &meig, W, work.data(), lw, &info), 9, "il");
  fail(trnsolverDnSsyevdx(h, V, TRNSOLVER_EIG_RANGE_I, L, n, A, n, 0, 0, 3, 6, &meig, W, work.data(), lw, &info), 10, "iu");
  fail(trnsolverDnSsyevdx(h, V, TRNSOLVER_EIG_RANGE_I, L, n, A, n, 0, 0, 1, 2, nullptr, W, work.data(), lw, &info), 11, "meig");
  fail(trnsolverDnSsyevdx(h, V, TRNSOLVER_EIG_RANGE_ALL, L, n, A, n, 0, 0, 0, 0, &meig, W, work.data(), lw - 1, &info), 14, "lwork");
  ASSERT_EQ(trnsolverDnSsyevdx(h, V, TRNSOLVER_EIG_RANGE_V, L, n, A, n, 0.5f, 2.5f, 0, 0, &meig, W, work.data(), lw, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(meig, 2);  // eigenvalues 1 and 2 in (0.5, 2.5]
  EXPECT_FLOAT_EQ(W[0], 1.0f);
  EXPECT_FLOAT_EQ(W[1], 2.0f);
  trnsolverDnDestroy(h);
}

}  // namespace
