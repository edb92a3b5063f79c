// syevd / sytrd / orgtr / ormtr (S, D) against LAPACKE dsyevd / dsytrd (the oracle, never in the
// library) and long-double error measures computed here. Bounds of docs/trnsolver.md "syevd",
// two-sided: each error is below c n u (as accurate as documented) and the fp32 ones above u32 / 64
// (they really ran in fp32).
#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "trn/solver/eig.hpp"
#include "trnsolver.h"

namespace ts = trn::solver;

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

}  // namespace
