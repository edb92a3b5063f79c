// trn::blas::trtri_newton (narrow_trsm.cpp; trsm_narrow_kernel.cpp step 2'): X = T^-1 for fp32 and
// complex fp32 triangles of order <= kTrtriNewtonMaxOrder, the narrow TRSM kernel's Newton-Schulz
// block inverses applied to the block columns of I. Checked here:
//   - each column of X equals (==, i.e. to the sign of zeros) the narrow strsm / ctrsm of E x = e_j
//     — the structural claim: rows of X a block column does not compute are the narrow solve's
//     exact zeros;
//   - the residual bound of docs/trnblas.md "Triangular inverse by Newton-Schulz blocks", in long
//     double, on every uplo / diag case, well conditioned, graded and ill conditioned;
//   - X's other triangle and a unit diagonal are neither read (T) nor written (X), in place (X = T)
//     gives the same bits, and a non-finite result is reported with X restored (the caller
//     substitutes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "trn/blas/level3.hpp"
#include "trn/blas/narrow_trsm.hpp"

namespace {

namespace tb = trn::blas;
using cf = std::complex<float>;
using L = std::complex<long double>;
constexpr double kU32 = 0x1p-24;
constexpr float kSentinel = 7.0f;  // X's other triangle on entry: must stay

long double abs1(const L& v) { return std::fabs(v.real()) + std::fabs(v.imag()); }
L widen(float v) { return L(v, 0); }
L widen(cf v) { return L(v.real(), v.imag()); }
double gamma(double k) { return k * kU32 / (1 - k * kU32); }

enum class Kind { well, graded, ill };

// T (n x n, ld n): the triangle from `kind`, NaN in the other triangle and (unit) on the diagonal,
// which trtri_newton must not use.
template <class T>
std::vector<T> make_triangle(int n, bool lower, bool unit, Kind kind, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> ud(-1, 1);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto draw = [&](float scale) {
    if constexpr (std::is_same_v<T, float>) return scale * ud(rng);
    else return T(scale * ud(rng), scale * ud(rng));
  };
  std::vector<T> a(static_cast<std::size_t>(n) * n, T(nan));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (!(lower ? i >= j : i <= j)) continue;
      T& v = a[static_cast<std::size_t>(i + j * n)];
      if (i == j) {
        // graded: diagonal over 6 decades (cond by scaling, which the componentwise bound absorbs)
        const float g = kind == Kind::graded ? std::pow(10.0f, -6.0f * static_cast<float>(i) / n) : 1.0f;
        v = unit ? T(nan) : g * (T(1.5f) + draw(0.5f));
      } else {
        // ill: O(1) off-diagonal entries — cond(T) grows exponentially with the order
        // (Viswanath & Trefethen, SIAM J. Matrix Anal. Appl. 19, 1998); well: O(1/n)
        const float g = kind == Kind::graded ? std::pow(10.0f, -6.0f * static_cast<float>(std::max(i, j)) / n) : 1.0f;
        v = kind == Kind::ill ? draw(1.0f) : g * draw(1.0f / static_cast<float>(n));
      }
    }
  return a;
}

// Runs trtri_newton and checks: the other triangle (and a unit diagonal) untouched; |I - T X| <= g1 M + g2 BD M per
// element with M = I + |T| |X| and BD = blockdiag(|T_b| |T_b^-1|)^4 (real: g1 = gamma_{n+3},
// g2 = 4 gamma_{3 128 + 2}^2; complex with |z| = |re| + |im|: gamma_{3n+14}, 4 gamma_{6 128 + 4}^2 —
// the narrow TRSM's bounds with Z = I, tests test_trnblas_level3 / complex_tri). Returns the worst
// residual / bound and raises *block_cond to the largest entry of any |T_b| |T_b^-1|.
template <class T>
double check_inverse(int n, bool lower, bool unit, Kind kind, std::uint64_t seed, double* block_cond) {
  SCOPED_TRACE(testing::Message() << (std::is_same_v<T, float> ? "S" : "C") << " n " << n << " lower " << lower
                                  << " unit " << unit << " kind " << int(kind));
  const std::vector<T> A = make_triangle<T>(n, lower, unit, kind, seed);
  std::vector<T> X(A.size(), T(kSentinel));
  trn::TraceParts trace;
  const bool ok = tb::trtri_newton(tb::Settings{}.launch_config(), lower, unit, n, A.data(), n, X.data(), n, trace);
  EXPECT_TRUE(ok);
  EXPECT_FALSE(trace.parts.empty());
  if (!ok) return 0;
  const auto in_tri = [&](int i, int j) { return lower ? i >= j : i <= j; };
  const std::size_t nn = static_cast<std::size_t>(n);
  std::vector<L> t(nn * nn, L(0)), x(nn * nn, L(0));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const std::size_t e = i + j * nn;
      if (!in_tri(i, j) || (unit && i == j)) {  // not written (the diagonal blocks are merged on chip)
        EXPECT_EQ(X[e], T(kSentinel)) << "written at " << i << "," << j;
        if (unit && i == j) t[e] = x[e] = L(1);
        continue;
      }
      t[e] = widen(A[e]);
      x[e] = widen(X[e]);
      EXPECT_TRUE(std::isfinite(std::abs(x[e]))) << i << "," << j;
    }
  // BD: per 128-block, |T_b| |T_b^-1| (T_b^-1 by substitution in long double), then squared twice.
  std::vector<long double> bd(nn * nn, 0.0L);
  for (int b0 = 0; b0 < n; b0 += 128) {
    const int w = std::min(128, n - b0);
    std::vector<L> inv(static_cast<std::size_t>(w) * w, L(0));
    for (int c = 0; c < w; ++c) {  // column c of T_b^-1
      L* col = inv.data() + static_cast<std::size_t>(c) * w;
      col[c] = L(1);
      for (int s = 0; s < w; ++s) {
        const int i = lower ? s : w - 1 - s;
        L v = col[i];
        for (int k = 0; k < w; ++k)
          if (k != i && in_tri(i, k)) v -= t[(b0 + i) + (b0 + k) * nn] * col[k];
        col[i] = v / t[(b0 + i) + (b0 + i) * nn];
      }
    }
    std::vector<long double> p(static_cast<std::size_t>(w) * w), q(p.size());
    for (int j = 0; j < w; ++j)
      for (int i = 0; i < w; ++i) {
        long double acc = 0;
        for (int l = 0; l < w; ++l) acc += abs1(t[(b0 + i) + (b0 + l) * nn]) * abs1(inv[l + static_cast<std::size_t>(j) * w]);
        p[i + static_cast<std::size_t>(j) * w] = acc;
        *block_cond = std::max(*block_cond, static_cast<double>(acc));
      }
    for (int square = 0; square < 2; ++square) {
      for (int j = 0; j < w; ++j)
        for (int i = 0; i < w; ++i) {
          long double acc = 0;
          for (int l = 0; l < w; ++l) acc += p[i + static_cast<std::size_t>(l) * w] * p[l + static_cast<std::size_t>(j) * w];
          q[i + static_cast<std::size_t>(j) * w] = acc;
        }
      std::swap(p, q);
    }
    for (int j = 0; j < w; ++j)
      for (int i = 0; i < w; ++i) bd[(b0 + i) + (b0 + j) * nn] = p[i + static_cast<std::size_t>(j) * w];
  }
  const bool real = std::is_same_v<T, float>;
  const double g1 = real ? gamma(n + 3.0) : gamma(3.0 * n + 14), g2 = real ? 4 * gamma(3 * 128 + 2.0) * gamma(3 * 128 + 2.0)
                                                                          : 4 * gamma(6 * 128 + 4.0) * gamma(6 * 128 + 4.0);
  std::vector<long double> r(nn * nn), m(nn * nn);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      L acc = i == j ? L(1) : L(0);
      long double mag = i == j ? 1.0L : 0.0L;
      for (int k = 0; k < n; ++k) {
        const L tk = t[i + k * nn], xk = x[k + j * nn];
        if (tk == L(0) || xk == L(0)) continue;
        acc -= tk * xk;
        mag += abs1(tk) * abs1(xk);
      }
      r[i + j * nn] = abs1(acc);
      m[i + j * nn] = mag;
    }
  double worst = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      long double blockwise = 0;
      const int b0 = i / 128 * 128, w = std::min(128, n - b0);
      for (int l = b0; l < b0 + w; ++l) blockwise += bd[i + l * nn] * m[l + j * nn];
      const long double bound = g1 * m[i + j * nn] + g2 * blockwise;
      EXPECT_LE(r[i + j * nn], bound) << "element " << i << "," << j;
      if (bound > 0) worst = std::max(worst, static_cast<double>(r[i + j * nn] / bound));
    }
  return worst;
}

TEST(TrnblasTrtriNewton, EveryCaseWithinTheResidualBound) {
  // 200 = a full block and a partial one (two block columns, one with an off-diagonal block),
  // 300 = three blocks, 5 = one partial block; both triangles, both diagonals, three conditionings.
  double worst = 0, worst_ill = 0, cond = 0, cond_ill = 0;
  std::uint64_t seed = 900;
  for (const bool lower : {true, false})
    for (const bool unit : {false, true}) {
      worst = std::max(worst, check_inverse<float>(200, lower, unit, Kind::well, seed++, &cond));
      worst = std::max(worst, check_inverse<float>(300, lower, unit, Kind::graded, seed++, &cond));
      worst = std::max(worst, check_inverse<float>(5, lower, unit, Kind::well, seed++, &cond));
      worst = std::max(worst, check_inverse<cf>(200, lower, unit, Kind::well, seed++, &cond));
      worst = std::max(worst, check_inverse<cf>(140, lower, unit, Kind::graded, seed++, &cond));
      worst_ill = std::max(worst_ill, check_inverse<float>(100, lower, unit, Kind::ill, seed++, &cond_ill));
      worst_ill = std::max(worst_ill, check_inverse<cf>(100, lower, unit, Kind::ill, seed++, &cond_ill));
    }
  EXPECT_GT(worst, 0.0);  // not vacuous: the inverse is not exact
  EXPECT_GT(worst_ill, 0.0);
  EXPECT_GT(cond_ill, 1e6);  // the ill-conditioned blocks are
  RecordProperty("worst_residual_over_bound", std::to_string(worst));
  RecordProperty("worst_residual_over_bound_ill", std::to_string(worst_ill));
  RecordProperty("largest_block_condition", std::to_string(cond));
  RecordProperty("largest_block_condition_ill", std::to_string(cond_ill));
}

// Column j of X is the narrow TRSM's solve of E x = e_j (nrhs 1: the same kernel's step 2), equal
// entry by entry (== : the skipped rows are that solve's exact zeros, whose sign may differ).
template <class T>
void check_columns_are_narrow_solves(int n, bool lower, bool unit, std::uint64_t seed) {
  SCOPED_TRACE(testing::Message() << (std::is_same_v<T, float> ? "S" : "C") << " n " << n << " lower " << lower
                                  << " unit " << unit);
  const std::vector<T> A = make_triangle<T>(n, lower, unit, Kind::graded, seed);
  std::vector<T> X(A.size(), T(kSentinel));
  trn::TraceParts trace;
  ASSERT_TRUE(tb::trtri_newton(tb::Settings{}.launch_config(), lower, unit, n, A.data(), n, X.data(), n, trace));
  const tb::Uplo uplo = lower ? tb::Uplo::lower : tb::Uplo::upper;
  const tb::Diag diag = unit ? tb::Diag::unit : tb::Diag::non_unit;
  for (int j = 0; j < n; j += (j < 3 || j > n - 4 || j % 128 == 127 || j % 128 == 0) ? 1 : 17) {
    std::vector<T> e(static_cast<std::size_t>(n), T(0));
    e[static_cast<std::size_t>(j)] = T(1);
    if constexpr (std::is_same_v<T, float>)
      tb::strsm(tb::Settings{}, tb::GemmMode::fp32, tb::Side::left, uplo, tb::Op::N, diag, n, 1, 1.0f, A.data(), n,
                e.data(), n);
    else
      tb::ctrsm(tb::Settings{}, tb::GemmMode::fp32, tb::Side::left, uplo, tb::COp::N, diag, n, 1, cf(1), A.data(), n,
                e.data(), n);
    for (int i = lower ? j : 0; i < (lower ? n : j + 1); ++i) {
      if (unit && i == j) continue;
      ASSERT_EQ(X[static_cast<std::size_t>(i + j * n)], e[static_cast<std::size_t>(i)]) << "column " << j << " row " << i;
    }
  }
}

TEST(TrnblasTrtriNewton, ColumnsEqualTheNarrowSolvesOfTheIdentitysColumns) {
  std::uint64_t seed = 950;
  for (const bool lower : {true, false})
    for (const bool unit : {false, true}) {
      check_columns_are_narrow_solves<float>(300, lower, unit, seed++);
      check_columns_are_narrow_solves<cf>(200, lower, unit, seed++);
    }
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// In place (X = T, ld 160 > n, as xTRTRI): the triangle's bits equal the out-of-place result's, and
// everything else — the other triangle's NaNs, a unit diagonal, the rows past n — keeps its bits.
template <class T>
void check_in_place(int n, bool lower, bool unit, std::uint64_t seed) {
  SCOPED_TRACE(testing::Message() << (std::is_same_v<T, float> ? "S" : "C") << " n " << n << " lower " << lower
                                  << " unit " << unit);
  const int lda = 160;
  const std::vector<T> dense = make_triangle<T>(n, lower, unit, Kind::graded, seed);
  std::vector<T> A(static_cast<std::size_t>(lda) * n, T(-0.0f));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) A[static_cast<std::size_t>(i + j * lda)] = dense[static_cast<std::size_t>(i + j * n)];
  std::vector<T> X(A.size(), T(kSentinel)), expect = A;
  trn::TraceParts trace;
  ASSERT_TRUE(tb::trtri_newton(tb::Settings{}.launch_config(), lower, unit, n, A.data(), lda, X.data(), lda, trace));
  for (int j = 0; j < n; ++j)
    for (int i = lower ? j : 0; i < (lower ? n : j + 1); ++i)
      if (!(unit && i == j)) expect[static_cast<std::size_t>(i + j * lda)] = X[static_cast<std::size_t>(i + j * lda)];
  ASSERT_TRUE(tb::trtri_newton(tb::Settings{}.launch_config(), lower, unit, n, A.data(), lda, A.data(), lda, trace));
  EXPECT_TRUE(same_bits(A, expect));
}

TEST(TrnblasTrtriNewton, InPlaceGivesTheSameBitsAndKeepsTheOtherTriangle) {
  std::uint64_t seed = 970;
  for (const bool lower : {true, false})
    for (const bool unit : {false, true}) {
      check_in_place<float>(150, lower, unit, seed++);
      check_in_place<cf>(150, lower, unit, seed++);
    }
}

// Inf / NaN in T's triangle: the result is not finite, trtri_newton says so and restores X's
// triangle (trnsolver's trtri then substitutes); a NaN outside the triangle is never used.
TEST(TrnblasTrtriNewton, ReportsNonFiniteResultsAndRestoresX) {
  for (const bool lower : {true, false}) {
    std::vector<float> A = make_triangle<float>(150, lower, false, Kind::well, 5);
    std::vector<float> X(A.size(), kSentinel);
    trn::TraceParts trace;
    EXPECT_TRUE(tb::trtri_newton(tb::Settings{}.launch_config(), lower, false, 150, A.data(), 150, X.data(), 150, trace));
    A[lower ? 140 + 3 * 150 : 3 + 140 * 150] = std::numeric_limits<float>::infinity();
    std::vector<float> X0 = X, A0 = A;
    EXPECT_FALSE(tb::trtri_newton(tb::Settings{}.launch_config(), lower, false, 150, A.data(), 150, X.data(), 150, trace));
    EXPECT_TRUE(same_bits(X, X0));
    EXPECT_FALSE(tb::trtri_newton(tb::Settings{}.launch_config(), lower, false, 150, A.data(), 150, A.data(), 150, trace));
    EXPECT_TRUE(same_bits(A, A0));  // in place: A as it was
    std::vector<cf> C = make_triangle<cf>(150, lower, true, Kind::well, 6);
    std::vector<cf> Y(C.size(), cf(kSentinel));
    C[lower ? 149 : 149 * 150] = cf(0, std::numeric_limits<float>::quiet_NaN());
    EXPECT_FALSE(tb::trtri_newton(tb::Settings{}.launch_config(), lower, true, 150, C.data(), 150, Y.data(), 150, trace));
    EXPECT_TRUE(same_bits(Y, std::vector<cf>(C.size(), cf(kSentinel))));
  }
}

}  // namespace
