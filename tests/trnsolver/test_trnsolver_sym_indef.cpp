// Symmetric indefinite (sytrf/sytrs/sytri), lauum, potri (S, D), laswp, larft and their C entry
// points (with Xsytrs, Xlarft, C/Z potrf/potrsBatched, the logger family, math mode, GetProperty).
// Oracles: LAPACKE in double / double complex (dsytrs/zsytrs and dsytri/zsytri run on OUR factors:
// they accept them only if they are in LAPACK's storage and ipiv convention; dlaswp, dlarft, dpotri)
// and long-double residuals computed here. Bounds of docs/trnsolver.md "Symmetric indefinite (sytrf)
// and inverses", two-sided where the routine has a fp32 path: below c n u, above u / 64 for S/C (the
// fp32 path really ran).
#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <random>
#include <type_traits>
#include <vector>

#include "trn/solver/complex_factor.hpp"
#include "trn/solver/sym_indef.hpp"
#include "trnsolver.h"

namespace ts = trn::solver;

namespace {

template <class T>
struct Tr {
  using Real = T;
  using Wide = double;
  static constexpr bool complex = false;
};
template <class R>
struct Tr<std::complex<R>> {
  using Real = R;
  using Wide = std::complex<double>;
  static constexpr bool complex = true;
};
template <class T>
double u_of() {
  return std::is_same_v<typename Tr<T>::Real, float> ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
}
template <class T>
constexpr bool kSingle = std::is_same_v<typename Tr<T>::Real, float>;

using LD = long double;
using LC = std::complex<long double>;
template <class T>
LC lc(T x) {
  if constexpr (Tr<T>::complex)
    return LC(x.real(), x.imag());
  else
    return LC(static_cast<LD>(x), 0);
}
template <class T>
T make(double re, double im) {
  if constexpr (Tr<T>::complex)
    return T(static_cast<typename Tr<T>::Real>(re), static_cast<typename Tr<T>::Real>(im));
  else
    return static_cast<T>(re);
}

// A random symmetric (complex symmetric for C/Z: A = A^T, no conjugate) indefinite matrix, both
// triangles stored, entries N(0, 1).
template <class T>
std::vector<T> sym_matrix(std::int64_t n, std::int64_t lda, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd(0.0, 1.0);
  std::vector<T> a(static_cast<std::size_t>(lda * n), T(0));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i) {
      const double re = nd(rng), im = Tr<T>::complex ? nd(rng) : 0.0;
      a[i + j * lda] = a[j + i * lda] = make<T>(re, im);
    }
  return a;
}

// A general rows x cols matrix (ld rows), entries N(0, 1).
template <class T>
std::vector<T> random_matrix(std::int64_t rows, std::int64_t cols, std::int64_t ld, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd(0.0, 1.0);
  std::vector<T> a(static_cast<std::size_t>(ld * cols), T(0));
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) {
      const double re = nd(rng), im = Tr<T>::complex ? nd(rng) : 0.0;
      a[i + j * ld] = make<T>(re, im);
    }
  return a;
}

template <class T>
LD frob(std::int64_t m, std::int64_t n, const std::vector<LC>& x) {
  LD s = 0;
  for (std::int64_t i = 0; i < m * n; ++i) s += std::norm(x[static_cast<std::size_t>(i)]);
  return std::sqrt(s);
}

// The factor / pivots in double (complex double) for LAPACKE.
template <class T>
std::vector<typename Tr<T>::Wide> widen(const std::vector<T>& a) {
  std::vector<typename Tr<T>::Wide> w(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) w[i] = typename Tr<T>::Wide(a[i]);
  return w;
}

// LAPACKE ?sytrs on our factor (double precision): X for B.
template <class T>
std::vector<typename Tr<T>::Wide> lapacke_sytrs(char uplo, std::int64_t n, std::int64_t nrhs, const std::vector<T>& f,
                                                std::int64_t lda, const std::vector<int>& ipiv,
                                                std::vector<typename Tr<T>::Wide> b) {
  auto fw = widen(f);
  std::vector<lapack_int> piv(ipiv.begin(), ipiv.end());
  lapack_int rc;
  if constexpr (Tr<T>::complex)
    rc = LAPACKE_zsytrs(LAPACK_COL_MAJOR, uplo, static_cast<lapack_int>(n), static_cast<lapack_int>(nrhs),
                        reinterpret_cast<lapack_complex_double*>(fw.data()), static_cast<lapack_int>(lda), piv.data(),
                        reinterpret_cast<lapack_complex_double*>(b.data()), static_cast<lapack_int>(n));
  else
    rc = LAPACKE_dsytrs(LAPACK_COL_MAJOR, uplo, static_cast<lapack_int>(n), static_cast<lapack_int>(nrhs), fw.data(),
                        static_cast<lapack_int>(lda), piv.data(), b.data(), static_cast<lapack_int>(n));
  EXPECT_EQ(rc, 0);
  return b;
}

// ||A X - B||_F / (||A||_F ||X||_F) in long double, A n x n (both triangles), X and B n x nrhs.
template <class T, class X, class B>
double backward(std::int64_t n, std::int64_t nrhs, const std::vector<T>& a, std::int64_t lda, const X& x, const B& b) {
  std::vector<LC> r(static_cast<std::size_t>(n * nrhs)), av(static_cast<std::size_t>(n * n)), xv(r.size());
  for (std::int64_t c = 0; c < nrhs; ++c)
    for (std::int64_t i = 0; i < n; ++i) {
      LC s = -lc(b[static_cast<std::size_t>(i + c * n)]);
      for (std::int64_t k = 0; k < n; ++k) s += lc(a[i + k * lda]) * lc(x[static_cast<std::size_t>(k + c * n)]);
      r[static_cast<std::size_t>(i + c * n)] = s;
      xv[static_cast<std::size_t>(i + c * n)] = lc(x[static_cast<std::size_t>(i + c * n)]);
    }
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) av[static_cast<std::size_t>(i + j * n)] = lc(a[i + j * lda]);
  return static_cast<double>(frob<T>(n, nrhs, r) / (frob<T>(n, n, av) * frob<T>(n, nrhs, xv)));
}

template <class T>
class SymIndef : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(SymIndef, Types);

// docs/trnsolver.md: the backward error of the solve with sytrf's factors (LAPACKE's sytrs on them
// in fp64, so the factor's error dominates) <= 8 n u; above u / 64 for S/C. One panel (n = 40), a
// panel and a remainder (n = 100), three panels (n = 150); both triangles.
TYPED_TEST(SymIndef, SytrfFactorsSolveThroughLapacke) {
  using T = TypeParam;
  using W = typename Tr<T>::Wide;
  const double u = u_of<T>();
  for (const std::int64_t n : {1, 2, 40, 100, 150})
    for (const bool upper : {false, true}) {
      const std::int64_t lda = n + 3;
      const auto a0 = sym_matrix<T>(n, lda, 7 + static_cast<std::uint64_t>(n));
      auto f = a0;
      std::vector<int> ipiv(static_cast<std::size_t>(n), 0);
      ts::CallReport rep;
      const int info = ts::sytrf({}, upper ? ts::Uplo::upper : ts::Uplo::lower, n, f.data(), lda, ipiv.data(), &rep);
      ASSERT_EQ(info, 0) << n;
      for (std::int64_t j = 0; j < n; ++j)  // the other triangle untouched
        for (std::int64_t i = 0; i < n; ++i)
          if (upper ? i > j : i < j) {
            ASSERT_EQ(f[i + j * lda], a0[i + j * lda]);
          }
      for (std::int64_t k = 0; k < n; ++k) ASSERT_TRUE(ipiv[k] != 0 && std::abs(ipiv[k]) <= n);
      if (n >= 100) {  // random indefinite data: both block sizes occur
        EXPECT_TRUE(std::any_of(ipiv.begin(), ipiv.end(), [](int p) { return p < 0; })) << n;
      }
      std::vector<W> b(static_cast<std::size_t>(n * 2));
      for (std::size_t i = 0; i < b.size(); ++i) b[i] = W(std::sin(1.0 + static_cast<double>(i)));
      const auto x = lapacke_sytrs<T>(upper ? 'U' : 'L', n, 2, f, lda, ipiv, b);
      const double be = backward<T>(n, 2, a0, lda, x, b);
      EXPECT_LE(be, 8.0 * static_cast<double>(n) * u) << "n " << n << " upper " << upper;
      if (kSingle<T> && n >= 40) {
        EXPECT_GE(be, u / 64) << n;
      }
      if (n >= 100) {
        EXPECT_GT(rep.profile.total_ns, 0.0) << "the trailing SYRKX ran on the engines";
      }
    }
}

// sytrs (C++) on sytrf's factors agrees with the residual bound; sytri's A^-1: ||A X - I|| <= c n kappa u
// measured as ||A X - I||_F / (||A||_F ||X||_F) <= 8 n u (a backward-error form), and X matches
// LAPACKE ?sytri on the same factors to 8 n kappa u relative.
TYPED_TEST(SymIndef, SytrsAndSytriFromFactors) {
  using T = TypeParam;
  const double u = u_of<T>();
  for (const bool upper : {false, true}) {
    const std::int64_t n = 90, lda = n;
    const auto uplo = upper ? ts::Uplo::upper : ts::Uplo::lower;
    const auto a0 = sym_matrix<T>(n, lda, 31);
    auto f = a0;
    std::vector<int> ipiv(static_cast<std::size_t>(n));
    ASSERT_EQ(ts::sytrf({}, uplo, n, f.data(), lda, ipiv.data()), 0);
    std::vector<T> b(static_cast<std::size_t>(n * 3));
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = make<T>(std::cos(0.3 * static_cast<double>(i)), 0.5);
    auto x = b;
    ts::sytrs({}, uplo, n, 3, f.data(), lda, ipiv.data(), x.data(), n);
    EXPECT_LE(backward<T>(n, 3, a0, lda, x, b), 8.0 * static_cast<double>(n) * u);
    auto inv = f;
    ASSERT_EQ(ts::sytri({}, uplo, n, inv.data(), lda, ipiv.data()), 0);
    std::vector<T> xi(static_cast<std::size_t>(n * n)), id(xi.size(), T(0));
    for (std::int64_t j = 0; j < n; ++j) {
      id[j + j * n] = T(1);
      for (std::int64_t i = 0; i < n; ++i) {
        const bool stored = upper ? i <= j : i >= j;
        xi[i + j * n] = stored ? inv[i + j * lda] : inv[j + i * lda];
      }
    }
    EXPECT_LE(backward<T>(n, n, a0, lda, xi, id), 8.0 * static_cast<double>(n) * u) << upper;
  }
}

// lauum: U U^H / L^H L against the long-double product: ||E||_F / ||R||_F <= 4 n u, > u / 64 for S/C.
TYPED_TEST(SymIndef, LauumAgainstLongDouble) {
  using T = TypeParam;
  const double u = u_of<T>();
  for (const bool upper : {false, true}) {
    const std::int64_t n = 70, lda = 73;
    auto a = sym_matrix<T>(n, lda, 5);
    const auto a0 = a;
    ts::lauum({}, upper ? ts::Uplo::upper : ts::Uplo::lower, n, a.data(), lda);
    LD err = 0, ref = 0;
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) {
        const bool stored = upper ? i <= j : i >= j;
        if (!stored) {
          ASSERT_EQ(a[i + j * lda], a0[i + j * lda]);
          continue;
        }
        LC s = 0;  // upper: sum_k U(i,k) conj(U(j,k)), k >= j; lower: sum_k conj(L(k,i)) L(k,j), k >= i
        for (std::int64_t k = upper ? j : i; k < n; ++k)
          s += upper ? lc(a0[i + k * lda]) * std::conj(lc(a0[j + k * lda]))
                     : std::conj(lc(a0[k + i * lda])) * lc(a0[k + j * lda]);
        err += std::norm(lc(a[i + j * lda]) - s);
        ref += std::norm(s);
      }
    const double rel = static_cast<double>(std::sqrt(err / ref));
    EXPECT_LE(rel, 4.0 * static_cast<double>(n) * u) << upper;
    if (kSingle<T>) {
      EXPECT_GE(rel, u / 64);
    }
  }
}

// laswp: bit-identical to LAPACKE ?laswp (forward and backward incx, a repeated and an identity pivot).
TYPED_TEST(SymIndef, LaswpMatchesLapacke) {
  using T = TypeParam;
  using W = typename Tr<T>::Wide;
  const std::int64_t m = 9, n = 5, lda = 11;
  const std::vector<int> ipiv{3, 2, 9, 9, 1, 6, 8};
  for (const int incx : {1, -1}) {
    auto a = random_matrix<T>(lda, n, lda, 3);  // lda x n filled (rows beyond m too: untouched by both)
    auto w = widen(a);
    ts::CallReport rep;
    ts::laswp({}, n, a.data(), lda, 2, 7, ipiv.data(), incx, &rep);
    std::vector<lapack_int> piv(ipiv.begin(), ipiv.end());
    if constexpr (Tr<T>::complex)
      LAPACKE_zlaswp(LAPACK_COL_MAJOR, n, reinterpret_cast<lapack_complex_double*>(w.data()), lda, 2, 7, piv.data(),
                     incx);
    else
      LAPACKE_dlaswp(LAPACK_COL_MAJOR, n, w.data(), lda, 2, 7, piv.data(), incx);
    for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(W(a[i]), w[i]) << i << " incx " << incx;
    EXPECT_GT(rep.profile.total_ns, 0.0) << "DMAs ran";
    (void)m;
  }
}

// larft (forward / backward columnwise) against LAPACKE ?larft on reflectors of a random V:
// ||T - T_lapack||_F / ||T_lapack||_F <= 4 n u (the Gram GEMM's rounding), > u / 64 for S/C.
TYPED_TEST(SymIndef, LarftAgainstLapacke) {
  using T = TypeParam;
  using W = typename Tr<T>::Wide;
  const double u = u_of<T>();
  const std::int64_t n = 60, k = 12, ldv = 61, ldt = 13;
  for (const bool forward : {true, false}) {
    auto v = random_matrix<T>(ldv, k, ldv, 11);
    std::vector<T> tau(static_cast<std::size_t>(k));
    for (std::int64_t j = 0; j < k; ++j) tau[j] = make<T>(1.0 + 0.05 * static_cast<double>(j), j == 3 ? 0.0 : 0.2);
    tau[5] = T(0);  // H_5 = I: its column of T is zero
    std::vector<T> t(static_cast<std::size_t>(ldt * k), make<T>(7, 7));
    ts::larft({}, forward, n, k, v.data(), ldv, tau.data(), t.data(), ldt);
    // LAPACK reads the explicit unit / zero positions of V: give it V with them set.
    auto vw = widen(v);
    for (std::int64_t j = 0; j < k; ++j) {
      const std::int64_t one = forward ? j : n - k + j;
      for (std::int64_t i = 0; i < n; ++i)
        if (forward ? i < one : i > one) vw[i + j * ldv] = W(0);
      vw[one + j * ldv] = W(1);
    }
    auto tw = widen(tau);
    std::vector<W> tl(static_cast<std::size_t>(ldt * k), W(0));
    const char dir = forward ? 'F' : 'B';
    if constexpr (Tr<T>::complex)
      LAPACKE_zlarft(LAPACK_COL_MAJOR, dir, 'C', n, k, reinterpret_cast<lapack_complex_double*>(vw.data()), ldv,
                     reinterpret_cast<lapack_complex_double*>(tw.data()),
                     reinterpret_cast<lapack_complex_double*>(tl.data()), ldt);
    else
      LAPACKE_dlarft(LAPACK_COL_MAJOR, dir, 'C', n, k, vw.data(), ldv, tw.data(), tl.data(), ldt);
    LD err = 0, ref = 0;
    for (std::int64_t j = 0; j < k; ++j)
      for (std::int64_t i = 0; i < k; ++i) {
        const bool tri = forward ? i <= j : i >= j;
        if (!tri) {
          ASSERT_EQ(t[i + j * ldt], make<T>(7, 7)) << "outside the triangle untouched";
          continue;
        }
        err += std::norm(lc(t[i + j * ldt]) - lc(tl[i + j * ldt]));
        ref += std::norm(lc(tl[i + j * ldt]));
      }
    const double rel = static_cast<double>(std::sqrt(err / ref));
    EXPECT_LE(rel, 4.0 * static_cast<double>(n) * u) << forward;
    if (kSingle<T>) {
      EXPECT_GE(rel, u / 64);
    }
  }
}

// Exactly singular D: info = the first zero pivot, the factorization completed; sytri reports it and
// leaves A; NaN: sytrf returns (bounded loop) with info > 0.
TYPED_TEST(SymIndef, SingularAndNaN) {
  using T = TypeParam;
  const std::int64_t n = 6;
  std::vector<T> a(static_cast<std::size_t>(n * n), T(0));
  for (std::int64_t i = 0; i < n; ++i) a[i + i * n] = i == 2 ? T(0) : make<T>(1.0 + static_cast<double>(i), 0);
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  EXPECT_EQ(ts::sytrf({}, ts::Uplo::lower, n, a.data(), n, ipiv.data()), 3);
  const auto f = a;
  EXPECT_EQ(ts::sytri({}, ts::Uplo::lower, n, a.data(), n, ipiv.data()), 3);
  EXPECT_EQ(a, f);
  // Upper runs on the index-reversed matrix; info is still A's index (as LAPACK xSYTRF 'U'), here of
  // the only zero pivot, and two zero pivots report the one LAPACK meets first (k = n .. 1: the last).
  for (std::int64_t i = 0; i < n; ++i) a[i + i * n] = i == 1 ? T(0) : make<T>(1.0 + static_cast<double>(i), 0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      if (i != j) a[i + j * n] = T(0);
  EXPECT_EQ(ts::sytrf({}, ts::Uplo::upper, n, a.data(), n, ipiv.data()), 2);
  for (std::int64_t i = 0; i < n; ++i) a[i + i * n] = i == 1 || i == 4 ? T(0) : make<T>(1.0 + static_cast<double>(i), 0);
  EXPECT_EQ(ts::sytrf({}, ts::Uplo::upper, n, a.data(), n, ipiv.data()), 5);
  EXPECT_EQ(ts::sytrf({}, ts::Uplo::lower, n, a.data(), n, ipiv.data()), 2);
  auto z = sym_matrix<T>(n, n, 1);
  z[0] = make<T>(std::nan(""), 0);
  EXPECT_GT(ts::sytrf({}, ts::Uplo::upper, n, z.data(), n, ipiv.data()), 0);
}

// potri (S, D): ||A X - I||_F / (||A||_F ||X||_F) <= 8 n u and X against LAPACKE dpotri.
template <class T>
void potri_case(bool upper) {
  const std::int64_t n = 50, lda = 52;
  std::mt19937_64 rng(9);
  std::normal_distribution<double> nd;
  std::vector<double> b(static_cast<std::size_t>(n * n));
  for (auto& x : b) x = nd(rng);
  std::vector<T> a(static_cast<std::size_t>(lda * n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      double s = i == j ? 1.0 : 0.0;
      for (std::int64_t k = 0; k < n; ++k) s += b[k + i * n] * b[k + j * n] / static_cast<double>(n);
      a[i + j * lda] = static_cast<T>(s);
    }
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j + 1; i < n; ++i) a[j + i * lda] = a[i + j * lda];
  const auto a0 = a;
  const auto uplo = upper ? ts::Uplo::upper : ts::Uplo::lower;
  std::vector<double> ad(a.begin(), a.end());
  ASSERT_EQ(LAPACKE_dpotrf(LAPACK_COL_MAJOR, upper ? 'U' : 'L', n, ad.data(), lda), 0);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<T>(ad[i]);
  ASSERT_EQ(ts::potri({}, uplo, n, a.data(), lda), 0);
  std::vector<T> x(static_cast<std::size_t>(n * n)), id(x.size(), T(0));
  for (std::int64_t j = 0; j < n; ++j) {
    id[j + j * n] = T(1);
    for (std::int64_t i = 0; i < n; ++i) x[i + j * n] = (upper ? i <= j : i >= j) ? a[i + j * lda] : a[j + i * lda];
  }
  EXPECT_LE(backward<T>(n, n, a0, lda, x, id), 8.0 * static_cast<double>(n) * u_of<T>()) << upper;
}
TEST(SymIndefPotri, SAndDAgainstResidual) {
  for (const bool upper : {false, true}) {
    potri_case<float>(upper);
    potri_case<double>(upper);
  }
  std::vector<double> z(4, 0.0);  // a zero diagonal of the factor: info 1, A untouched
  z[3] = 1.0;
  const auto z0 = z;
  EXPECT_EQ(ts::potri({}, ts::Uplo::lower, 2, z.data(), 2), 1);
  EXPECT_EQ(z, z0);
}

// ---- the C API -------------------------------------------------------------------------------------

struct Handle {
  trnsolverDnHandle_t h = nullptr;
  Handle() { EXPECT_EQ(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS); }
  ~Handle() { trnsolverDnDestroy(h); }
};

// Dsytrf: every argument position, info = -position, A / ipiv untouched; lwork below the bufferSize
// answer: INVALID_VALUE; success equals the C++ call bit for bit.
TEST(SymIndefCApi, DsytrfArgumentsAndWorkspace) {
  Handle H;
  const int n = 70, lda = 70;
  auto a = sym_matrix<double>(n, lda, 2);
  int lwork = 0;
  ASSERT_EQ(trnsolverDnDsytrf_bufferSize(H.h, n, a.data(), lda, &lwork), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_GE(lwork, n);
  EXPECT_EQ(trnsolverDnDsytrf_bufferSize(H.h, -1, a.data(), lda, &lwork), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnDsytrf_bufferSize(H.h, n, a.data(), lda, nullptr), TRNSOLVER_STATUS_INVALID_VALUE);
  std::vector<double> work(static_cast<std::size_t>(lwork));
  std::vector<int> ipiv(n, -7);
  const auto a0 = a;
  const auto ipiv0 = ipiv;
  struct Bad {
    int pos;
    int uplo, n, lda, lwork;
    bool null_a, null_ipiv, null_work;
  };
  const Bad cases[] = {{1, 9, n, lda, lwork, false, false, false},    {2, 0, -1, lda, lwork, false, false, false},
                       {3, 0, n, lda, lwork, true, false, false},     {4, 0, n, n - 1, lwork, false, false, false},
                       {5, 0, n, lda, lwork, false, true, false},     {6, 0, n, lda, lwork, false, false, true},
                       {7, 0, n, lda, lwork - 1, false, false, false}};
  for (const Bad& b : cases) {
    int info = 0;
    const auto st =
        trnsolverDnDsytrf(H.h, static_cast<trnblasFillMode_t>(b.uplo), b.n, b.null_a ? nullptr : a.data(), b.lda,
                          b.null_ipiv ? nullptr : ipiv.data(), b.null_work ? nullptr : work.data(), b.lwork, &info);
    EXPECT_EQ(st, TRNSOLVER_STATUS_INVALID_VALUE) << b.pos;
    EXPECT_EQ(info, -b.pos);
    int pos = 0;
    trnsolverDnGetLastErrorParameter(H.h, &pos);
    EXPECT_EQ(pos, b.pos);
    EXPECT_EQ(a, a0);
    EXPECT_EQ(ipiv, ipiv0);
  }
  EXPECT_EQ(trnsolverDnDsytrf(H.h, TRNBLAS_FILL_MODE_LOWER, n, a.data(), lda, ipiv.data(), work.data(), lwork, nullptr),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(
      trnsolverDnDsytrf(nullptr, TRNBLAS_FILL_MODE_LOWER, n, a.data(), lda, ipiv.data(), work.data(), lwork, nullptr),
      TRNSOLVER_STATUS_NOT_INITIALIZED);
  int info = -1;
  ASSERT_EQ(trnsolverDnDsytrf(H.h, TRNBLAS_FILL_MODE_UPPER, n, a.data(), lda, ipiv.data(), work.data(), lwork, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  auto f = a0;
  std::vector<int> p2(n);
  ts::sytrf({}, ts::Uplo::upper, n, f.data(), lda, p2.data());
  EXPECT_EQ(a, f);
  EXPECT_EQ(ipiv, p2);
  // sytri: a malformed ipiv is argument 5; lwork below the answer argument 7; then A^-1.
  int lw = 0;
  ASSERT_EQ(trnsolverDnDsytri_bufferSize(H.h, TRNBLAS_FILL_MODE_UPPER, n, a.data(), lda, ipiv.data(), &lw),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<double> w2(static_cast<std::size_t>(lw));
  auto bad = ipiv;
  bad[0] = n + 1;
  const auto fa = a;
  EXPECT_EQ(trnsolverDnDsytri(H.h, TRNBLAS_FILL_MODE_UPPER, n, a.data(), lda, bad.data(), w2.data(), lw, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -5);
  EXPECT_EQ(trnsolverDnDsytri(H.h, TRNBLAS_FILL_MODE_UPPER, n, a.data(), lda, ipiv.data(), w2.data(), lw - 1, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -7);
  EXPECT_EQ(a, fa);
  ASSERT_EQ(trnsolverDnDsytri(H.h, TRNBLAS_FILL_MODE_UPPER, n, a.data(), lda, ipiv.data(), w2.data(), lw, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
}

// Xsytrs: the int64 pivots of a Zsytrf factor; ipiv pattern (7), workspace (12), types (NOT_SUPPORTED).
TEST(SymIndefCApi, XsytrsAndComplexSytrf) {
  Handle H;
  using Z = std::complex<double>;
  const int n = 30;
  auto a0 = sym_matrix<Z>(n, n, 4);
  auto a = a0;
  int lwork = 0;
  ASSERT_EQ(trnsolverDnZsytrf_bufferSize(H.h, n, reinterpret_cast<trnDoubleComplex*>(a.data()), n, &lwork),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<Z> work(static_cast<std::size_t>(lwork));
  std::vector<int> ipiv(n);
  int info = -1;
  ASSERT_EQ(trnsolverDnZsytrf(H.h, TRNBLAS_FILL_MODE_LOWER, n, reinterpret_cast<trnDoubleComplex*>(a.data()), n,
                              ipiv.data(), reinterpret_cast<trnDoubleComplex*>(work.data()), lwork, &info),
            TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(info, 0);
  std::vector<int64_t> p64(ipiv.begin(), ipiv.end());
  std::vector<Z> b(static_cast<std::size_t>(n)), x;
  for (int i = 0; i < n; ++i) b[i] = Z(1.0 / (1 + i), -0.5);
  x = b;
  size_t dev = 0, host = 7;
  ASSERT_EQ(trnsolverDnXsytrs_bufferSize(H.h, TRNBLAS_FILL_MODE_LOWER, n, 1, TRN_C_64F, a.data(), n, p64.data(),
                                         TRN_C_64F, x.data(), n, &dev, &host),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(host, 0u);
  std::vector<char> buf(dev);
  auto bad = p64;
  bad[n - 1] = -static_cast<int64_t>(n);  // a 2x2 block starting at the last row: not sytrf's pattern
  if (ipiv[n - 1] < 0) bad[n - 1] = 0;
  EXPECT_EQ(trnsolverDnXsytrs(H.h, TRNBLAS_FILL_MODE_LOWER, n, 1, TRN_C_64F, a.data(), n, bad.data(), TRN_C_64F,
                              x.data(), n, buf.data(), dev, nullptr, 0, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -7);
  EXPECT_EQ(trnsolverDnXsytrs(H.h, TRNBLAS_FILL_MODE_LOWER, n, 1, TRN_C_64F, a.data(), n, p64.data(), TRN_C_64F,
                              x.data(), n, buf.data(), dev - 1, nullptr, 0, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -12);
  EXPECT_EQ(trnsolverDnXsytrs(H.h, TRNBLAS_FILL_MODE_LOWER, n, 1, TRN_C_64F, a.data(), n, p64.data(), TRN_R_64F,
                              x.data(), n, buf.data(), dev, nullptr, 0, &info),
            TRNSOLVER_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(x, b);
  ASSERT_EQ(trnsolverDnXsytrs(H.h, TRNBLAS_FILL_MODE_LOWER, n, 1, TRN_C_64F, a.data(), n, p64.data(), TRN_C_64F,
                              x.data(), n, buf.data(), dev, nullptr, 0, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_LE(backward<Z>(n, 1, a0, n, x, b), 8.0 * n * u_of<Z>());
}

// lauum / potri / laswp / Xlarft entry points: positions, workspace, and a success equal to C++.
TEST(SymIndefCApi, LauumPotriLaswpXlarft) {
  Handle H;
  const int n = 20;
  auto a = sym_matrix<float>(n, n, 8);
  const auto a0 = a;
  int lw = 0, info = 0;
  ASSERT_EQ(trnsolverDnSlauum_bufferSize(H.h, TRNBLAS_FILL_MODE_UPPER, n, a.data(), n, &lw), TRNSOLVER_STATUS_SUCCESS);
  std::vector<float> w(static_cast<std::size_t>(lw));
  EXPECT_EQ(trnsolverDnSlauum(H.h, TRNBLAS_FILL_MODE_UPPER, n, a.data(), n, w.data(), 0, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -6);
  EXPECT_EQ(trnsolverDnSlauum(H.h, TRNBLAS_FILL_MODE_UPPER, n, a.data(), n - 1, w.data(), lw, &info),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -4);
  EXPECT_EQ(a, a0);
  ASSERT_EQ(trnsolverDnSlauum(H.h, TRNBLAS_FILL_MODE_UPPER, n, a.data(), n, w.data(), lw, &info),
            TRNSOLVER_STATUS_SUCCESS);
  auto ref = a0;
  ts::lauum({}, ts::Uplo::upper, n, ref.data(), n);
  EXPECT_EQ(a, ref);
  // Dpotri: a zero diagonal of the factor is devInfo 2.
  std::vector<double> d(static_cast<std::size_t>(n * n), 0.0);
  for (int i = 0; i < n; ++i) d[i + i * n] = i == 1 ? 0.0 : 2.0;
  std::vector<double> dw(1);
  ASSERT_EQ(trnsolverDnDpotri(H.h, TRNBLAS_FILL_MODE_LOWER, n, d.data(), n, dw.data(), 1, &info),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(info, 2);
  // Claswp: devIpiv out of range is argument 6, incx 0 argument 7.
  std::vector<trnComplex> c(static_cast<std::size_t>(n * 3));
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = trnComplex{static_cast<float>(i), -1.0f};
  const std::vector<int> piv{4, 3, 3};
  int bad_piv[] = {4, n + 1, 3};
  EXPECT_EQ(trnsolverDnClaswp(H.h, 3, c.data(), n, 1, 3, bad_piv, 1), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnClaswp(H.h, 3, c.data(), n, 1, 3, piv.data(), 0), TRNSOLVER_STATUS_INVALID_VALUE);
  int pos = 0;
  trnsolverDnGetLastErrorParameter(H.h, &pos);
  EXPECT_EQ(pos, 7);
  ASSERT_EQ(trnsolverDnClaswp(H.h, 3, c.data(), n, 1, 3, piv.data(), 1), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(c[0].x, 3.0f);  // row 1 <- row 4 (column 0)
  // Xlarft: ROWWISE NOT_SUPPORTED; k > n argument 5; workspace argument 16.
  trnsolverDnParams_t prm = nullptr;
  ASSERT_EQ(trnsolverDnCreateParams(&prm), TRNSOLVER_STATUS_SUCCESS);
  const int64_t m = 12, k = 4;
  auto v = random_matrix<double>(m, k, m, 6);
  std::vector<double> tau{1.2, 1.5, 0.0, 1.1}, t(16, -3.0);
  size_t dev = 0, host = 0;
  ASSERT_EQ(
      trnsolverDnXlarft_bufferSize(H.h, prm, TRNBLAS_DIRECT_FORWARD, TRNBLAS_STOREV_COLUMNWISE, m, k, TRN_R_64F,
                                   v.data(), m, TRN_R_64F, tau.data(), TRN_R_64F, t.data(), k, TRN_R_64F, &dev, &host),
      TRNSOLVER_STATUS_SUCCESS);
  std::vector<char> buf(dev);
  EXPECT_EQ(trnsolverDnXlarft(H.h, prm, TRNBLAS_DIRECT_FORWARD, TRNBLAS_STOREV_ROWWISE, m, k, TRN_R_64F, v.data(), m,
                              TRN_R_64F, tau.data(), TRN_R_64F, t.data(), k, TRN_R_64F, buf.data(), dev, nullptr, 0),
            TRNSOLVER_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(
      trnsolverDnXlarft(H.h, prm, TRNBLAS_DIRECT_FORWARD, TRNBLAS_STOREV_COLUMNWISE, k - 1, k, TRN_R_64F, v.data(), m,
                        TRN_R_64F, tau.data(), TRN_R_64F, t.data(), k, TRN_R_64F, buf.data(), dev, nullptr, 0),
      TRNSOLVER_STATUS_INVALID_VALUE);
  trnsolverDnGetLastErrorParameter(H.h, &pos);
  EXPECT_EQ(pos, 5);
  EXPECT_EQ(
      trnsolverDnXlarft(H.h, prm, TRNBLAS_DIRECT_FORWARD, TRNBLAS_STOREV_COLUMNWISE, m, k, TRN_R_64F, v.data(), m,
                        TRN_R_64F, tau.data(), TRN_R_64F, t.data(), k, TRN_R_64F, buf.data(), dev - 1, nullptr, 0),
      TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(t, std::vector<double>(16, -3.0));
  ASSERT_EQ(trnsolverDnXlarft(H.h, prm, TRNBLAS_DIRECT_BACKWARD, TRNBLAS_STOREV_COLUMNWISE, m, k, TRN_R_64F, v.data(),
                              m, TRN_R_64F, tau.data(), TRN_R_64F, t.data(), k, TRN_R_64F, buf.data(), dev, nullptr, 0),
            TRNSOLVER_STATUS_SUCCESS);
  std::vector<double> tr(16, -3.0);
  ts::larft({}, false, m, k, v.data(), m, tau.data(), tr.data(), k);
  EXPECT_EQ(t, tr);
  trnsolverDnDestroyParams(prm);
}

// C/Z potrfBatched / potrsBatched: each matrix bit-equal to the single-matrix call.
TEST(SymIndefCApi, ComplexPotrfPotrsBatched) {
  Handle H;
  using C = std::complex<float>;
  const int n = 9, batch = 3;
  std::vector<std::vector<C>> mats, rhs;
  std::vector<trnComplex*> ap, bp;
  for (int k = 0; k < batch; ++k) {
    std::vector<C> m(static_cast<std::size_t>(n * n));
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        m[i + j * n] = i == j ? C(static_cast<float>(n + k), 0)
                              : C(0.1f * static_cast<float>(i - j), 0.05f * static_cast<float>(i + j));
    for (int j = 0; j < n; ++j)
      for (int i = j + 1; i < n; ++i) m[j + i * n] = std::conj(m[i + j * n]);
    mats.push_back(m);
    rhs.emplace_back(static_cast<std::size_t>(n), C(1, -1));
  }
  const auto orig = mats;
  for (int k = 0; k < batch; ++k) {
    ap.push_back(reinterpret_cast<trnComplex*>(mats[k].data()));
    bp.push_back(reinterpret_cast<trnComplex*>(rhs[k].data()));
  }
  std::vector<int> infos(batch, -9);
  ASSERT_EQ(trnsolverDnCpotrfBatched(H.h, TRNBLAS_FILL_MODE_LOWER, n, ap.data(), n, infos.data(), batch),
            TRNSOLVER_STATUS_SUCCESS);
  int info = -1;
  EXPECT_EQ(trnsolverDnCpotrsBatched(H.h, TRNBLAS_FILL_MODE_LOWER, n, 2, ap.data(), n, bp.data(), n, &info, batch),
            TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(info, -3);
  ASSERT_EQ(trnsolverDnCpotrsBatched(H.h, TRNBLAS_FILL_MODE_LOWER, n, 1, ap.data(), n, bp.data(), n, &info, batch),
            TRNSOLVER_STATUS_SUCCESS);
  for (int k = 0; k < batch; ++k) {
    EXPECT_EQ(infos[k], 0);
    auto f = orig[k];
    ASSERT_EQ(ts::potrf({}, ts::Uplo::lower, n, f.data(), n), 0);
    EXPECT_EQ(mats[k], f);
    std::vector<C> x(static_cast<std::size_t>(n), C(1, -1));
    ts::potrs({}, ts::Uplo::lower, n, 1, f.data(), n, x.data(), n);
    EXPECT_EQ(rhs[k], x);
  }
  std::vector<std::complex<double>> zm(4, {0, 0});
  zm[0] = {4, 0};
  zm[3] = {-1, 0};  // not positive definite at 2
  trnDoubleComplex* zp[] = {reinterpret_cast<trnDoubleComplex*>(zm.data())};
  ASSERT_EQ(trnsolverDnZpotrfBatched(H.h, TRNBLAS_FILL_MODE_UPPER, 2, zp, 2, infos.data(), 1),
            TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(infos[0], 2);
}

// Logger family, math mode, emulation strategy, GetProperty.
std::vector<std::string>* g_seen = nullptr;
void seen(int level, const char* fn, const char* msg) {
  if (g_seen != nullptr) g_seen->push_back(std::to_string(level) + " " + fn + " " + msg);
}
TEST(SymIndefCApi, LoggerMathModeProperty) {
  Handle H;
  std::vector<std::string> log;
  g_seen = &log;
  ASSERT_EQ(trnsolverDnLoggerSetCallback(&seen), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnLoggerSetLevel(1), TRNSOLVER_STATUS_SUCCESS);
  int lw = 0;
  EXPECT_EQ(trnsolverDnSsytrf_bufferSize(H.h, -2, nullptr, 1, &lw), TRNSOLVER_STATUS_INVALID_VALUE);
  ASSERT_FALSE(log.empty());
  EXPECT_NE(log.back().find("trnsolverDnSsytrf_bufferSize"), std::string::npos) << log.back();
  EXPECT_EQ(trnsolverDnLoggerSetLevel(6), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnLoggerSetMask(-1), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnLoggerSetFile(nullptr), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverDnLoggerOpenFile(""), TRNSOLVER_STATUS_INVALID_VALUE);
  // A stream receives the messages until ForceDisable (the callback, as every trnsci logger's, always does).
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(trnsolverDnLoggerSetFile(f), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnSsytri_bufferSize(H.h, TRNBLAS_FILL_MODE_LOWER, -3, nullptr, 1, nullptr, &lw),
            TRNSOLVER_STATUS_INVALID_VALUE);
  const long written = std::ftell(f);
  EXPECT_GT(written, 0L);
  ASSERT_EQ(trnsolverDnLoggerForceDisable(), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(trnsolverDnSsytrf_bufferSize(H.h, -2, nullptr, 1, &lw), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(std::ftell(f), written) << "force-disabled";
  std::fclose(f);
  trnsolverDnLoggerSetCallback(nullptr);
  g_seen = nullptr;

  trnsolverMathMode_t mode{};
  ASSERT_EQ(trnsolverDnGetMathMode(H.h, &mode), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(mode, TRNSOLVER_DEFAULT_MATH);
  EXPECT_EQ(trnsolverDnSetMathMode(H.h, static_cast<trnsolverMathMode_t>(3)), TRNSOLVER_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnsolverDnSetMathMode(H.h, TRNSOLVER_FP32_EMULATED_BF16X9_MATH), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnGetMathMode(H.h, &mode), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(mode, TRNSOLVER_FP32_EMULATED_BF16X9_MATH);
  EXPECT_EQ(trnsolverDnGetMathMode(nullptr, &mode), TRNSOLVER_STATUS_NOT_INITIALIZED);
  trnEmulationStrategy_t st{};
  ASSERT_EQ(trnsolverDnGetEmulationStrategy(H.h, &st), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(st, TRN_EMULATION_STRATEGY_DEFAULT);
  EXPECT_EQ(trnsolverDnSetEmulationStrategy(H.h, static_cast<trnEmulationStrategy_t>(-1)),
            TRNSOLVER_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnsolverDnSetEmulationStrategy(H.h, TRN_EMULATION_STRATEGY_EAGER), TRNSOLVER_STATUS_SUCCESS);
  ASSERT_EQ(trnsolverDnGetEmulationStrategy(H.h, &st), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(st, TRN_EMULATION_STRATEGY_EAGER);
  // The math mode changes no bit (docs): sytrf under BF16X9 + EAGER equals the default.
  auto a = sym_matrix<float>(80, 80, 12), b = a;
  std::vector<int> p1(80), p2(80);
  std::vector<float> w(80 * 64);
  int info = 0;
  ASSERT_EQ(trnsolverDnSsytrf(H.h, TRNBLAS_FILL_MODE_LOWER, 80, a.data(), 80, p1.data(), w.data(), 80 * 64, &info),
            TRNSOLVER_STATUS_SUCCESS);
  ts::sytrf({}, ts::Uplo::lower, 80, b.data(), 80, p2.data());
  EXPECT_EQ(a, b);

  int v = -1;
  ASSERT_EQ(trnsolverGetProperty(MAJOR_VERSION, &v), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(v, TRNSOLVER_VER_MAJOR);
  ASSERT_EQ(trnsolverGetProperty(MINOR_VERSION, &v), TRNSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(v, TRNSOLVER_VER_MINOR);
  EXPECT_EQ(trnsolverGetProperty(static_cast<libraryPropertyType>(3), &v), TRNSOLVER_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsolverGetProperty(PATCH_LEVEL, nullptr), TRNSOLVER_STATUS_INVALID_VALUE);
}

}  // namespace
