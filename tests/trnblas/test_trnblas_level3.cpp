// trnblas Level 3 beyond GEMM/SYRK (TRSM, TRMM, SYMM, SYR2K, SYRKX; S and D) through the C API,
// against OpenBLAS's double-precision CBLAS on the same (promoted) data, with error bounds derived
// from the algorithms (docs/trnblas.md "Level 3"); netlib corner cases (alpha == 0, beta == 0 never
// reads C, quick returns, the unreferenced triangle is never read, NaN propagation); parameter
// positions of errors with the outputs untouched.
#include <cblas.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "blas_test_util.hpp"
#include "trn/blas/level3.hpp"
#include "trnblas.h"

namespace {

using blastest::Handle;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kU32 = 0x1p-24, kU64 = 0x1p-53;

// gamma_k = k u / (1 - k u) (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §3.1).
double gamma(double k, double u) { return k * u / (1.0 - k * u); }

template <class T>
std::vector<T> random_matrix(std::int64_t rows, std::int64_t cols, std::int64_t ld, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<T> x(static_cast<std::size_t>(ld * cols), T(-777));  // padding rows keep a sentinel
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) x[static_cast<std::size_t>(i + j * ld)] = static_cast<T>(d(g));
  return x;
}

// A triangular test matrix: the off-diagonal entries scaled by 2/order and a diagonal of magnitude
// in [1, 2) (well conditioned, so the bound is not vacuous); the unreferenced triangle (and the
// diagonal for unit matrices) holds NaN, which must never be read.
template <class T>
std::vector<T> triangular(std::int64_t order, std::int64_t ld, bool lower, bool unit, std::uint64_t seed) {
  std::vector<T> a = random_matrix<T>(order, order, ld, seed);
  for (std::int64_t j = 0; j < order; ++j)
    for (std::int64_t i = 0; i < order; ++i) {
      T& x = a[static_cast<std::size_t>(i + j * ld)];
      if (i == j)
        x = unit ? static_cast<T>(kNaN) : static_cast<T>((x < 0 ? -1.0 : 1.0) * (1.0 + std::fabs(double(x))));
      else if (lower ? i < j : i > j)
        x = static_cast<T>(kNaN);
      else
        x = static_cast<T>(double(x) * 2.0 / double(order));
    }
  return a;
}

// The order x order matrix op(A) in double with the triangle applied (zeros elsewhere, ones on a
// unit diagonal): what the reference and the bounds use.
template <class T>
std::vector<double> op_triangle(const std::vector<T>& a, std::int64_t order, std::int64_t lda, bool lower, bool trans,
                                bool unit) {
  std::vector<double> e(static_cast<std::size_t>(order * order), 0.0);
  for (std::int64_t j = 0; j < order; ++j)
    for (std::int64_t i = 0; i < order; ++i) {
      const bool in = lower ? i >= j : i <= j;  // (i, j) of the stored A
      const double v = !in ? 0.0 : (i == j && unit ? 1.0 : double(a[static_cast<std::size_t>(i + j * lda)]));
      e[static_cast<std::size_t>(trans ? j + i * order : i + j * order)] = v;
    }
  return e;
}

// |X| |Y| (or X Y without abs) for column-major double matrices (r x q) (q x c).
std::vector<double> product(const std::vector<double>& X, const std::vector<double>& Y, std::int64_t r, std::int64_t q,
                            std::int64_t c, bool abs) {
  std::vector<double> Z(static_cast<std::size_t>(r * c), 0.0);
  for (std::int64_t j = 0; j < c; ++j)
    for (std::int64_t l = 0; l < q; ++l) {
      const double y = abs ? std::fabs(Y[static_cast<std::size_t>(l + j * q)]) : Y[static_cast<std::size_t>(l + j * q)];
      for (std::int64_t i = 0; i < r; ++i) {
        const double x = X[static_cast<std::size_t>(i + l * r)];
        Z[static_cast<std::size_t>(i + j * r)] += (abs ? std::fabs(x) : x) * y;
      }
    }
  return Z;
}

template <class T>
std::vector<double> dense(const std::vector<T>& x, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  std::vector<double> d(static_cast<std::size_t>(rows * cols));
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) d[static_cast<std::size_t>(i + j * rows)] = x[static_cast<std::size_t>(i + j * ld)];
  return d;
}

struct Tri {
  trnblasSideMode_t side;
  trnblasFillMode_t uplo;
  trnblasOperation_t trans;
  trnblasDiagType_t diag;
  std::string name() const {
    return std::string(side == TRNBLAS_SIDE_LEFT ? "L" : "R") + (uplo == TRNBLAS_FILL_MODE_LOWER ? "L" : "U") +
           (trans == TRNBLAS_OP_N ? "N" : "T") + (diag == TRNBLAS_DIAG_UNIT ? "U" : "N");
  }
};

std::vector<Tri> all_triangular_cases() {
  std::vector<Tri> v;
  for (auto side : {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT})
    for (auto uplo : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER})
      for (auto trans : {TRNBLAS_OP_N, TRNBLAS_OP_T})
        for (auto diag : {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}) v.push_back({side, uplo, trans, diag});
  return v;
}

template <class T>
trnblasStatus_t call_trsm(trnblasHandle_t h, const Tri& c, std::int64_t m, std::int64_t n, const T* alpha, const T* A,
                          std::int64_t lda, T* B, std::int64_t ldb) {
  if constexpr (std::is_same_v<T, double>)
    return trnblasDtrsm(h, c.side, c.uplo, c.trans, c.diag, int(m), int(n), alpha, A, int(lda), B, int(ldb));
  else
    return trnblasStrsm_64(h, c.side, c.uplo, c.trans, c.diag, m, n, alpha, A, lda, B, ldb);
}

// TRSM: the computed X of op(A) X = alpha B (left) satisfies, element by element,
//   |alpha B - op(A) X^| <= gamma_{d+3} (|alpha B| + |op(A)| |X^|) =: R,   d = order of A,
// because every x_i is substitution with some summation order: the GEMM update sums exact
// products (fp32 TensorE) in fp32 PSUM (<= klen - 1 roundings), its epilogue rounds alpha*b and
// the sum (2), the diagonal kernel rounds each in-block product and difference (<= 2 (w - 1)) and
// the division (1); each term's path has at most d + 2 roundings (Higham Lemma 8.4 / Thm 8.5),
// one more covers alpha*b. Then X^ - X = op(A)^-1 (op(A) X^ - alpha B), so
//   |X^ - X| <= |op(A)^-1| R   (right side: R |op(A)^-1|),
// with X and op(A)^-1 from OpenBLAS's cblas_dtrsm in double (their own error ~ d 2^-53 relative is
// covered by a 1e-10 relative slack). fp64 (Ozaki updates): u = 2^-53 and gamma_{d+64}, the extra
// 61 roundings covering the fp64 reconstruction sum of the <= 45 slice products per element.
template <class T>
void check_trsm(const Tri& c, std::int64_t m, std::int64_t n, T alpha, std::uint64_t seed, bool substitution = false,
                bool narrow = false) {
  SCOPED_TRACE(c.name() + " m=" + std::to_string(m) + " n=" + std::to_string(n));
  const bool left = c.side == TRNBLAS_SIDE_LEFT, lower = c.uplo == TRNBLAS_FILL_MODE_LOWER;
  const bool trans = c.trans != TRNBLAS_OP_N, unit = c.diag == TRNBLAS_DIAG_UNIT;
  const std::int64_t d = left ? m : n, lda = d + 3, ldb = m + 2;
  const std::vector<T> A = triangular<T>(d, lda, lower, unit, seed);
  const std::vector<T> B0 = random_matrix<T>(m, n, ldb, seed + 1);
  std::vector<T> B = B0;
  Handle h;
  if (substitution) {  // the C++ API's Settings::trsm_substitution (no C setter)
    trn::blas::Settings st;
    st.trsm_substitution = true;
    const trn::blas::Side side = left ? trn::blas::Side::left : trn::blas::Side::right;
    const trn::blas::Uplo up = lower ? trn::blas::Uplo::lower : trn::blas::Uplo::upper;
    const trn::blas::Op op = trans ? trn::blas::Op::T : trn::blas::Op::N;
    const trn::blas::Diag dg = unit ? trn::blas::Diag::unit : trn::blas::Diag::non_unit;
    if constexpr (std::is_same_v<T, float>)
      trn::blas::strsm(st, trn::blas::GemmMode::fp32, side, up, op, dg, m, n, alpha, A.data(), lda, B.data(), ldb);
  } else {
    ASSERT_EQ(call_trsm<T>(h, c, m, n, &alpha, A.data(), lda, B.data(), ldb), TRNBLAS_STATUS_SUCCESS);
  }
  for (std::int64_t j = 0; j < n; ++j)  // the padding rows of B are untouched
    for (std::int64_t i = m; i < ldb; ++i) ASSERT_EQ(B[static_cast<std::size_t>(i + j * ldb)], T(-777));
  const std::vector<double> E = op_triangle(A, d, lda, lower, trans, unit);  // op(A), d x d
  // op(A)^-1 and X in double by OpenBLAS (op(A) given as a full lower/upper matrix, trans applied).
  const bool e_lower = lower != trans;
  std::vector<double> inv(static_cast<std::size_t>(d * d), 0.0);
  for (std::int64_t i = 0; i < d; ++i) inv[static_cast<std::size_t>(i + i * d)] = 1.0;
  cblas_dtrsm(CblasColMajor, CblasLeft, e_lower ? CblasLower : CblasUpper, CblasNoTrans, CblasNonUnit, int(d), int(d),
              1.0, E.data(), int(d), inv.data(), int(d));
  std::vector<double> X = dense(B0, m, n, ldb), Xh = dense(B, m, n, ldb), aB = X;
  for (double& v : aB) v = std::fabs(double(alpha) * v);
  cblas_dtrsm(CblasColMajor, left ? CblasLeft : CblasRight, e_lower ? CblasLower : CblasUpper, CblasNoTrans,
              CblasNonUnit, int(m), int(n), double(alpha), E.data(), int(d), X.data(), int(m));
  const double g = std::is_same_v<T, float> ? gamma(double(d + 3), kU32) : gamma(double(d + 64), kU64);
  std::vector<double> R = left ? product(E, Xh, d, d, n, true) : product(Xh, E, m, d, d, true);
  for (std::size_t i = 0; i < R.size(); ++i) R[i] += aB[i];  // |op(A)| |X^| + |alpha B|
  std::vector<double> blockwise(R.size(), 0.0);
  if (std::is_same_v<T, float> && !substitution) {
    // fp32 default: each 128 x 128 diagonal block T_b of E (blocks at multiples of 128 in E's
    // index space, whatever the solve order) is inverted by substitution and applied as a GEMM:
    // per block |T_b y_b - z_b| <= 2 gamma_{w+2} |T_b| |T_b^-1| |z_b| (Du Croz & Higham 1992),
    // |z_b| bounded by the same |op(A)| |X^| + |alpha B| rows. (T_b^-1 is the diagonal block of
    // op(A)^-1, `inv`.) Right side: the transposed form, multiplied from the right.
    const double g2 = 2.0 * gamma(130.0, kU32);
    std::vector<double> bd(static_cast<std::size_t>(d * d), 0.0);  // blockdiag(|T_b| |T_b^-1|) (right: |T_b^-1| |T_b|)
    for (std::int64_t b0 = 0; b0 < d; b0 += 128) {
      const std::int64_t w = std::min<std::int64_t>(128, d - b0);
      for (std::int64_t j = 0; j < w; ++j)
        for (std::int64_t i = 0; i < w; ++i) {
          double acc = 0;
          for (std::int64_t l = 0; l < w; ++l) {
            const auto at = [&](const std::vector<double>& M, std::int64_t r, std::int64_t c) {
              return std::fabs(M[static_cast<std::size_t>(b0 + r + (b0 + c) * d)]);
            };
            acc += left ? at(E, i, l) * at(inv, l, j) : at(inv, i, l) * at(E, l, j);
          }
          bd[static_cast<std::size_t>(b0 + i + (b0 + j) * d)] = acc;
        }
    }
    // <= kTrsmNarrowMaxRhs right-hand sides: T_b^-1 by Newton-Schulz on TensorE and one step of
    // refinement (trsm_narrow_kernel.cpp): the block residual is within the substitution bound (the
    // g term) plus the second-order 4 gamma_{3w+2}^2 (|T_b| |T_b^-1|)^4 |z_b| (right side:
    // (|T_b^-1| |T_b|)^4 from the right); bd^k <= bd^4 for k <= 4 since bd >= I.
    for (int square = 0; narrow && square < 2; ++square) {
      std::vector<double> sq(bd.size(), 0.0);
      for (std::int64_t b0 = 0; b0 < d; b0 += 128) {
        const std::int64_t w = std::min<std::int64_t>(128, d - b0);
        for (std::int64_t j = 0; j < w; ++j)
          for (std::int64_t i = 0; i < w; ++i) {
            double acc = 0;
            for (std::int64_t l = 0; l < w; ++l)
              acc += bd[static_cast<std::size_t>(b0 + i + (b0 + l) * d)] * bd[static_cast<std::size_t>(b0 + l + (b0 + j) * d)];
            sq[static_cast<std::size_t>(b0 + i + (b0 + j) * d)] = acc;
          }
      }
      bd = std::move(sq);
    }
    blockwise = left ? product(bd, R, d, d, n, false) : product(R, bd, m, d, d, false);
    const double gn = gamma(3.0 * 128 + 2, kU32);
    for (double& v : blockwise) v *= narrow ? 4.0 * gn * gn : g2;
  }
  for (std::size_t i = 0; i < R.size(); ++i) R[i] = g * R[i] + blockwise[i];
  const std::vector<double> bound = left ? product(inv, R, d, d, n, true) : product(R, inv, m, d, d, true);
  double worst = 0;
  for (std::size_t i = 0; i < X.size(); ++i) {
    ASSERT_TRUE(std::isfinite(Xh[i])) << i;
    const double err = std::fabs(Xh[i] - X[i]), b = bound[i] + 1e-10 * std::fabs(X[i]);
    ASSERT_LE(err, b) << "element " << i;
    worst = std::max(worst, err / b);
  }
  EXPECT_GT(worst, 0.0);  // the comparison is not vacuous: the solution is not exact
}

TEST(TrnblasLevel3, StrsmEveryCaseWithinTheInverseBlockBound) {
  // 200 = a full 128 block and a partial one (both solve orders meet a GEMM update); 130 / 131
  // right-hand sides = 2 per partition (131: one partition holds the remaining one).
  for (const Tri& c : all_triangular_cases()) {
    const bool left = c.side == TRNBLAS_SIDE_LEFT;
    check_trsm<float>(c, left ? 200 : 131, left ? 130 : 200, 0.75f, 11);
  }
  check_trsm<float>({TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_T, TRNBLAS_DIAG_NON_UNIT}, 5, 2100, 2.0f, 12);
}

TEST(TrnblasLevel3, StrsmFewRightHandSidesWithinTheNewtonInverseBound) {
  // <= kTrsmNarrowMaxRhs right-hand sides (the TensorE kernel): every case, 1..4 right-hand sides;
  // order 200 = a full block and a partial one of 72 (7 Newton steps each), 300 = three blocks.
  for (const Tri& c : all_triangular_cases())
    for (std::int64_t r = 1; r <= 4; ++r) {
      const bool left = c.side == TRNBLAS_SIDE_LEFT;
      const std::int64_t d = r == 2 ? 300 : 200;
      check_trsm<float>(c, left ? d : r, left ? r : d, r == 3 ? 1.0f : -0.75f, 40 + r, false, true);
    }
  check_trsm<float>({TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT}, 1, 3, 2.0f, 50,
                    false, true);
  check_trsm<float>({TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_T, TRNBLAS_DIAG_UNIT}, 5, 2, 2.0f, 51, false,
                    true);
}

TEST(TrnblasLevel3, StrsmFewRightHandSidesRunOnTensorEAndFallBackOnNonFiniteData) {
  const Tri c{TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT};
  const std::int64_t m = 260, n = 3;
  const std::vector<float> A = triangular<float>(m, m, true, false, 7);
  std::vector<float> B = random_matrix<float>(m, n, m, 8), B2 = B;
  const float one = 1.0f;
  Handle h;
  ASSERT_EQ(call_trsm<float>(h, c, m, n, &one, A.data(), m, B.data(), m), TRNBLAS_STATUS_SUCCESS);
  trnProfile_t p{};
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  // 3 blocks x 7 Newton steps x 4 matmuls - 1 (the last step updates V only) + the block rows.
  EXPECT_GE(p.instructions_per_engine[TRN_ENGINE_TENSOR], 3 * 7 * 3);
  EXPECT_LT(p.instructions_per_engine[TRN_ENGINE_VECTOR], m);  // no row-by-row substitution
  // A NaN in B: the inverse form would spread it over its block; the driver substitutes instead,
  // so the result is the substitution form's, bit for bit (NaN only in the rows that depend on it).
  B2[130] = std::nanf("");
  std::vector<float> B3 = B2;
  ASSERT_EQ(call_trsm<float>(h, c, m, n, &one, A.data(), m, B2.data(), m), TRNBLAS_STATUS_SUCCESS);
  trn::blas::Settings st;
  st.trsm_substitution = true;
  trn::blas::strsm(st, trn::blas::GemmMode::fp32, trn::blas::Side::left, trn::blas::Uplo::lower, trn::blas::Op::N,
                   trn::blas::Diag::non_unit, m, n, 1.0f, A.data(), m, B3.data(), m);
  EXPECT_EQ(0, std::memcmp(B2.data(), B3.data(), B2.size() * sizeof(float)));
  EXPECT_TRUE(std::isfinite(B2[129]));
  EXPECT_TRUE(std::isnan(B2[131]));
}

// Settings::trsm_whole_rhs (the distributed libraries' pieces of one solve): a solve split into
// pieces of its right-hand sides (left side: columns of B; right side: rows), each piece told the
// whole count, gives the whole call's bits in each of the three forms (narrow kernel <= 4, substitution
// 5..128, block inverses > 128). Chosen by the pieces' own counts, the 200-column solve's pieces
// (120 + 80) substitute where the whole inverts its blocks: other bits (what the field prevents).
TEST(TrnblasLevel3, StrsmPiecesToldTheWholeRightHandSideCountEqualTheWholeSolve) {
  namespace tb = trn::blas;
  const std::int64_t order = 150;
  const std::vector<float> A = triangular<float>(order, order, true, false, 31);
  for (const bool left : {true, false})
    for (const std::int64_t whole : {3, 40, 200}) {
      const std::int64_t m = left ? order : whole, n = left ? whole : order, ld = m;
      const std::vector<float> B = random_matrix<float>(m, n, ld, 32 + static_cast<std::uint64_t>(whole));
      const auto solve = [&](std::vector<float>& X, std::int64_t first, std::int64_t count, std::int64_t whole_rhs) {
        tb::Settings st;
        st.trsm_whole_rhs = whole_rhs;
        float* piece = X.data() + (left ? first * ld : first);
        tb::strsm(st, tb::GemmMode::fp32, left ? tb::Side::left : tb::Side::right, tb::Uplo::lower, tb::Op::N,
                  tb::Diag::non_unit, left ? m : count, left ? count : n, 0.5f, A.data(), order, piece, ld);
      };
      std::vector<float> one_call = B, pieces = B, own_counts = B;
      solve(one_call, 0, whole, 0);
      const std::int64_t cut = whole < 4 ? 1 : whole * 3 / 5;  // 1 + 2, 24 + 16, 120 + 80
      for (const auto& [first, count] : {std::pair{std::int64_t{0}, cut}, std::pair{cut, whole - cut}}) {
        solve(pieces, first, count, whole);
        solve(own_counts, first, count, 0);
      }
      const std::string what = std::string(left ? "left" : "right") + ", " + std::to_string(whole) + " right-hand sides";
      EXPECT_EQ(0, std::memcmp(one_call.data(), pieces.data(), B.size() * sizeof(float))) << what;
      if (whole == 200) {
        EXPECT_NE(0, std::memcmp(one_call.data(), own_counts.data(), B.size() * sizeof(float))) << what;
      }
    }
}

TEST(TrnblasLevel3, StrsmSubstitutionFormWithinTheComponentwiseBound) {
  // Settings::trsm_substitution: every right-hand side by substitution on VectorE. 2100
  // right-hand sides: two programs of the diagonal kernel (16 per partition, then 52 = 3 x 16 + 4).
  for (const Tri& c : all_triangular_cases()) {
    const bool left = c.side == TRNBLAS_SIDE_LEFT;
    check_trsm<float>(c, left ? 200 : 131, left ? 130 : 200, 0.75f, 11, true);
  }
  check_trsm<float>({TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_T, TRNBLAS_DIAG_NON_UNIT}, 5, 2100, 2.0f, 12,
                    true);
}

TEST(TrnblasLevel3, DtrsmWithinTheSubstitutionBound) {
  check_trsm<double>({TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT}, 150, 7, -1.5, 21);
  check_trsm<double>({TRNBLAS_SIDE_RIGHT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_T, TRNBLAS_DIAG_UNIT}, 5, 140, 1.0, 22);
}

TEST(TrnblasLevel3, StrsmRunsOnVectorEAndTensorEAndIsDeterministic) {
  const Tri c{TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT};
  const std::int64_t m = 160, n = 40;
  const std::vector<float> A = triangular<float>(m, m, false, false, 5);
  std::vector<float> B1 = random_matrix<float>(m, n, m, 6), B2 = B1;
  const float one = 1.0f;
  Handle h;
  ASSERT_EQ(call_trsm<float>(h, c, m, n, &one, A.data(), m, B1.data(), m), TRNBLAS_STATUS_SUCCESS);
  trnProfile_t p{};
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_TENSOR], 0);  // the off-diagonal update
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_VECTOR], 2 * m);  // the substitution steps
  EXPECT_GT(p.total_ns, 0.0);
  ASSERT_EQ(trnblasSetNumCores(h, 2), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(call_trsm<float>(h, c, m, n, &one, A.data(), m, B2.data(), m), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(0, std::memcmp(B1.data(), B2.data(), B1.size() * sizeof(float)));
}

TEST(TrnblasLevel3, TrsmCornerCases) {
  Handle h;
  const Tri c{TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT};
  const std::int64_t m = 6, n = 3;
  // alpha == 0: B = 0 and A (all NaN) is not read; NaN in B is overwritten as netlib does.
  std::vector<float> nan_a(m * m, float(kNaN)), B = random_matrix<float>(m, n, m, 1);
  B[4] = float(kNaN);
  const float zero = 0.0f, one = 1.0f;
  ASSERT_EQ(call_trsm<float>(h, c, m, n, &zero, nan_a.data(), m, B.data(), m), TRNBLAS_STATUS_SUCCESS);
  for (float v : B) EXPECT_EQ(v, 0.0f);
  // TRSM's B is its output: NULL is illegal even when alpha == 0 (TRMM's B is then not read).
  EXPECT_EQ(call_trsm<float>(h, c, m, n, &zero, nullptr, m, nullptr, m), TRNBLAS_STATUS_INVALID_VALUE);
  int position = 0;
  EXPECT_EQ(trnblasGetLastErrorParameter(h, &position), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(position, 10);
  std::vector<float> Cz(m * n, 7.0f);
  EXPECT_EQ(trnblasStrmm(h, c.side, c.uplo, c.trans, c.diag, m, n, &zero, nullptr, m, nullptr, m, Cz.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  for (float v : Cz) EXPECT_EQ(v, 0.0f);
  // m == 0 / n == 0: quick return, nothing read (NULL A and B accepted).
  EXPECT_EQ(call_trsm<float>(h, c, 0, n, &one, nullptr, 1, nullptr, 1), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(call_trsm<float>(h, c, m, 0, &one, nullptr, m, nullptr, m), TRNBLAS_STATUS_SUCCESS);
  // NaN propagation: a NaN in row 2 of column 1 reaches rows >= 2 of column 1 only (lower, left).
  const std::vector<float> A = triangular<float>(m, m, true, false, 2);
  B = random_matrix<float>(m, n, m, 3);
  B[2 + 1 * m] = float(kNaN);
  ASSERT_EQ(call_trsm<float>(h, c, m, n, &one, A.data(), m, B.data(), m), TRNBLAS_STATUS_SUCCESS);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i)
      EXPECT_EQ(std::isnan(B[i + j * m]), j == 1 && i >= 2) << i << "," << j;
}

// Every check of TRSM/TRMM in XERBLA order: the position is logged and B/C keep their bits.
TEST(TrnblasLevel3, TriangularErrorsNameTheirPositionAndWriteNothing) {
  Handle h;
  const int m = 4, n = 3;
  std::vector<float> A(16, 1.0f), B(12, 2.0f), C(12, 3.0f);
  const std::vector<float> B0 = B, C0 = C;
  const float one = 1.0f;
  const auto L = TRNBLAS_SIDE_LEFT;
  const auto lo = TRNBLAS_FILL_MODE_LOWER;
  const auto N = TRNBLAS_OP_N;
  const auto nu = TRNBLAS_DIAG_NON_UNIT;
  struct Case {
    trnblasStatus_t st;
    int position;
  };
  auto pos = [&](trnblasStatus_t st) {
    int p = -1;
    trnblasGetLastErrorParameter(h, &p);
    return Case{st, p};
  };
  const Case trsm_cases[] = {
      pos(trnblasStrsm(h, static_cast<trnblasSideMode_t>(2), lo, N, nu, m, n, &one, A.data(), 4, B.data(), 4)),
      pos(trnblasStrsm(h, L, TRNBLAS_FILL_MODE_FULL, N, nu, m, n, &one, A.data(), 4, B.data(), 4)),
      pos(trnblasStrsm(h, L, lo, TRNBLAS_OP_CONJG, nu, m, n, &one, A.data(), 4, B.data(), 4)),
      pos(trnblasStrsm(h, L, lo, N, static_cast<trnblasDiagType_t>(2), m, n, &one, A.data(), 4, B.data(), 4)),
      pos(trnblasStrsm(h, L, lo, N, nu, -1, n, &one, A.data(), 4, B.data(), 4)),
      pos(trnblasStrsm(h, L, lo, N, nu, m, -1, &one, A.data(), 4, B.data(), 4)),
      pos(trnblasStrsm(h, L, lo, N, nu, m, n, nullptr, A.data(), 4, B.data(), 4)),
      pos(trnblasStrsm(h, L, lo, N, nu, m, n, &one, nullptr, 4, B.data(), 4)),
      pos(trnblasStrsm(h, L, lo, N, nu, m, n, &one, A.data(), 3, B.data(), 4)),
      pos(trnblasStrsm(h, L, lo, N, nu, m, n, &one, A.data(), 4, nullptr, 4)),
      pos(trnblasStrsm(h, L, lo, N, nu, m, n, &one, A.data(), 4, B.data(), 3)),
  };
  const int trsm_expected[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  for (std::size_t i = 0; i < std::size(trsm_cases); ++i) {
    EXPECT_EQ(trsm_cases[i].st, TRNBLAS_STATUS_INVALID_VALUE) << i;
    EXPECT_EQ(trsm_cases[i].position, trsm_expected[i]) << i;
  }
  // Right side: lda is checked against n.
  EXPECT_EQ(trnblasStrsm(h, TRNBLAS_SIDE_RIGHT, lo, N, nu, 4, 3, &one, A.data(), 2, B.data(), 4),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(pos(TRNBLAS_STATUS_SUCCESS).position, 9);
  const Case trmm_cases[] = {
      pos(trnblasStrmm(h, L, lo, N, nu, m, n, &one, A.data(), 4, nullptr, 4, C.data(), 4)),
      pos(trnblasStrmm(h, L, lo, N, nu, m, n, &one, A.data(), 4, B.data(), 4, nullptr, 4)),
      pos(trnblasStrmm(h, L, lo, N, nu, m, n, &one, A.data(), 4, B.data(), 4, C.data(), 3)),
      pos(trnblasStrmm(h, L, lo, N, nu, m, n, &one, A.data(), 4, B.data(), 3, C.data(), 3)),  // ldb before ldc
  };
  const int trmm_expected[] = {10, 12, 13, 11};
  for (std::size_t i = 0; i < std::size(trmm_cases); ++i) {
    EXPECT_EQ(trmm_cases[i].st, TRNBLAS_STATUS_INVALID_VALUE) << i;
    EXPECT_EQ(trmm_cases[i].position, trmm_expected[i]) << i;
  }
  EXPECT_EQ(trnblasStrsm(nullptr, L, lo, N, nu, m, n, &one, A.data(), 4, B.data(), 4), TRNBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(B, B0);
  EXPECT_EQ(C, C0);
}

// TRMM: C = alpha op(A) B is a GEMM per block over the triangle's contraction range (exact
// products, fp32 PSUM sum, epilogue alpha*acc): |C^ - C| <= gamma_{d+1} |alpha| |op(A)| |B|
// (d + 1 roundings per term at most); OpenBLAS's cblas_dtrmm in double is the reference.
TEST(TrnblasLevel3, StrmmEveryCaseWithinTheGemmBoundAndInPlaceEqualsOutOfPlace) {
  Handle h;
  for (const Tri& c : all_triangular_cases()) {
    SCOPED_TRACE(c.name());
    const bool left = c.side == TRNBLAS_SIDE_LEFT, lower = c.uplo == TRNBLAS_FILL_MODE_LOWER;
    const bool trans = c.trans != TRNBLAS_OP_N, unit = c.diag == TRNBLAS_DIAG_UNIT;
    const std::int64_t m = left ? 150 : 20, n = left ? 20 : 150, d = left ? m : n, lda = d + 1, ldb = m, ldc = m + 1;
    const std::vector<float> A = triangular<float>(d, lda, lower, unit, 31);
    const std::vector<float> B = random_matrix<float>(m, n, ldb, 32);
    std::vector<float> C(static_cast<std::size_t>(ldc * n), float(kNaN));  // never read
    const float alpha = -1.25f;
    ASSERT_EQ(trnblasStrmm(h, c.side, c.uplo, c.trans, c.diag, int(m), int(n), &alpha, A.data(), int(lda), B.data(),
                           int(ldb), C.data(), int(ldc)),
              TRNBLAS_STATUS_SUCCESS);
    const std::vector<double> E = op_triangle(A, d, lda, lower, trans, unit);
    std::vector<double> ref = dense(B, m, n, ldb);
    const std::vector<double> absB = ref;
    cblas_dtrmm(CblasColMajor, left ? CblasLeft : CblasRight, lower != trans ? CblasLower : CblasUpper, CblasNoTrans,
                CblasNonUnit, int(m), int(n), double(alpha), E.data(), int(d), ref.data(), int(m));
    const std::vector<double> mag = left ? product(E, absB, d, d, n, true) : product(absB, E, m, d, d, true);
    const double g = gamma(double(d + 1), kU32) * std::fabs(double(alpha));
    const std::vector<double> got = dense(C, m, n, ldc);
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_LE(std::fabs(got[i] - ref[i]), g * mag[i] + 1e-12 * std::fabs(ref[i])) << i;
    // Reference TRMM's in-place form: C is B.
    std::vector<float> Bin(static_cast<std::size_t>(ldc * n), -9.0f);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) Bin[i + j * ldc] = B[i + j * ldb];
    ASSERT_EQ(trnblasStrmm(h, c.side, c.uplo, c.trans, c.diag, int(m), int(n), &alpha, A.data(), int(lda), Bin.data(),
                           int(ldc), Bin.data(), int(ldc)),
              TRNBLAS_STATUS_SUCCESS);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < ldc; ++i)
        ASSERT_EQ(Bin[i + j * ldc], i < m ? C[i + j * ldc] : -9.0f) << i << "," << j;
  }
}

TEST(TrnblasLevel3, DtrmmWithinTheBound) {
  Handle h;
  const std::int64_t m = 140, n = 6, lda = m;
  const std::vector<double> A = triangular<double>(m, lda, false, false, 41);
  const std::vector<double> B = random_matrix<double>(m, n, m, 42);
  std::vector<double> C(m * n, kNaN);
  const double alpha = 0.5;
  ASSERT_EQ(trnblasDtrmm(h, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_T, TRNBLAS_DIAG_NON_UNIT, int(m),
                         int(n), &alpha, A.data(), int(lda), B.data(), int(m), C.data(), int(m)),
            TRNBLAS_STATUS_SUCCESS);
  const std::vector<double> E = op_triangle(A, m, lda, false, true, false);  // lower
  std::vector<double> ref = B;
  cblas_dtrmm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, int(m), int(n), alpha, E.data(), int(m),
              ref.data(), int(m));
  const std::vector<double> mag = product(E, B, m, m, n, true);
  // Ozaki: the standard bound with u = 2^-53 and gamma_{d+64} (reconstruction sum), plus the
  // reference's own rounding (same order): 2 gamma.
  for (std::size_t i = 0; i < C.size(); ++i)
    ASSERT_LE(std::fabs(C[i] - ref[i]), 2 * gamma(double(m + 64), kU64) * alpha * mag[i]) << i;
}

// SYMM: C = alpha A B + beta C as one GEMM on the packed symmetric A:
// |C^ - C| <= gamma_{d+2} (|alpha| |A| |B| + |beta| |C|) (d product sums, alpha*acc, beta*c, add).
TEST(TrnblasLevel3, SsymmBothSidesWithinTheGemmBoundAndBetaZeroNeverReadsC) {
  Handle h;
  for (auto side : {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT})
    for (auto uplo : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER})
      for (float beta : {0.0f, -0.5f}) {
        const bool left = side == TRNBLAS_SIDE_LEFT, lower = uplo == TRNBLAS_FILL_MODE_LOWER;
        SCOPED_TRACE(std::to_string(left) + std::to_string(lower) + std::to_string(beta));
        const std::int64_t m = 70, n = 50, d = left ? m : n, lda = d + 2, ldc = m;
        std::vector<float> A = random_matrix<float>(d, d, lda, 51);
        std::vector<double> Afull(static_cast<std::size_t>(d * d));
        for (std::int64_t j = 0; j < d; ++j)
          for (std::int64_t i = 0; i < d; ++i) {
            const bool in = lower ? i >= j : i <= j;
            Afull[i + j * d] = in ? A[i + j * lda] : A[j + i * lda];
          }
        for (std::int64_t j = 0; j < d; ++j)  // the other triangle is never read
          for (std::int64_t i = 0; i < d; ++i)
            if (lower ? i < j : i > j) A[i + j * lda] = float(kNaN);
        const std::vector<float> B = random_matrix<float>(m, n, m, 52);
        std::vector<float> C = random_matrix<float>(m, n, ldc, 53);
        if (beta == 0.0f) std::fill(C.begin(), C.end(), float(kNaN));
        const std::vector<double> C0 = dense(C, m, n, ldc);
        const float alpha = 1.5f;
        ASSERT_EQ(trnblasSsymm(h, side, uplo, int(m), int(n), &alpha, A.data(), int(lda), B.data(), int(m), &beta,
                               C.data(), int(ldc)),
                  TRNBLAS_STATUS_SUCCESS);
        std::vector<double> ref = beta == 0.0f ? std::vector<double>(m * n, 0.0) : C0;
        const std::vector<double> Bd = dense(B, m, n, m);
        cblas_dsymm(CblasColMajor, left ? CblasLeft : CblasRight, CblasUpper, int(m), int(n), double(alpha),
                    Afull.data(), int(d), Bd.data(), int(m), double(beta), ref.data(), int(m));
        const std::vector<double> mag = left ? product(Afull, Bd, d, d, n, true) : product(Bd, Afull, m, d, d, true);
        const double g = gamma(double(d + 2), kU32);
        for (std::size_t i = 0; i < ref.size(); ++i) {
          const double b = g * (alpha * mag[i] + (beta == 0.0f ? 0.0 : std::fabs(beta * C0[i])));
          ASSERT_LE(std::fabs(double(C[i]) - ref[i]), b + 1e-12 * std::fabs(ref[i])) << i;
        }
      }
}

TEST(TrnblasLevel3, DsymmWithinTheBound) {
  Handle h;
  const int m = 9, n = 130;  // right side: A is 130 x 130
  std::vector<double> A = random_matrix<double>(n, n, n, 61);
  std::vector<double> Afull(A.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) Afull[i + j * n] = i <= j ? A[i + j * n] : A[j + i * n];
  for (int j = 0; j < n; ++j)
    for (int i = j + 1; i < n; ++i) A[i + j * n] = kNaN;
  const std::vector<double> B = random_matrix<double>(m, n, m, 62);
  std::vector<double> C = random_matrix<double>(m, n, m, 63), ref = C;
  const double alpha = -2.0, beta = 0.25;
  ASSERT_EQ(trnblasDsymm_64(h, TRNBLAS_SIDE_RIGHT, TRNBLAS_FILL_MODE_UPPER, m, n, &alpha, A.data(), n, B.data(), m,
                            &beta, C.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  const std::vector<double> C0 = ref;
  cblas_dsymm(CblasColMajor, CblasRight, CblasUpper, m, n, alpha, Afull.data(), n, B.data(), m, beta, ref.data(), m);
  const std::vector<double> mag = product(B, Afull, m, n, n, true);
  for (std::size_t i = 0; i < C.size(); ++i)
    ASSERT_LE(std::fabs(C[i] - ref[i]), 2 * gamma(n + 64.0, kU64) * (2.0 * mag[i] + std::fabs(beta * C0[i]))) << i;
}

// SYR2K / SYRKX on the uplo triangle; the other triangle keeps its bits.
// SYR2K: one contraction of length 2k: |C^ - C| <= gamma_{2k+2} (|alpha| (|opA| |opB|^T + |opB| |opA|^T) + |beta| |C|).
// SYRKX: length k: gamma_{k+2} (|alpha| |opA| |opB|^T + |beta| |C|).
template <class T>
void check_rank2k(bool syrkx, trnblasFillMode_t uplo, trnblasOperation_t trans, std::int64_t n, std::int64_t k, T beta) {
  SCOPED_TRACE(std::string(syrkx ? "syrkx" : "syr2k") + (uplo == TRNBLAS_FILL_MODE_LOWER ? " L" : " U") +
               (trans == TRNBLAS_OP_N ? "N" : "T") + " beta=" + std::to_string(double(beta)));
  const bool tr = trans != TRNBLAS_OP_N, lower = uplo == TRNBLAS_FILL_MODE_LOWER;
  const std::int64_t rows = tr ? k : n, cols = tr ? n : k, lda = rows + 1, ldb = rows + 2, ldc = n + 1;
  const std::vector<T> A = random_matrix<T>(rows, cols, lda, 71), B = random_matrix<T>(rows, cols, ldb, 72);
  std::vector<T> C = random_matrix<T>(n, n, ldc, 73);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      if (lower ? i < j : i > j)
        C[i + j * ldc] = T(5);  // the other triangle: must keep its bits
      else if (beta == T(0))
        C[i + j * ldc] = static_cast<T>(kNaN);  // beta == 0: never read
  const std::vector<T> C0 = C;
  const T alpha = T(0.75);
  Handle h;
  trnblasStatus_t st;
  if constexpr (std::is_same_v<T, float>)
    st = (syrkx ? trnblasSsyrkx : trnblasSsyr2k)(h, uplo, trans, int(n), int(k), &alpha, A.data(), int(lda), B.data(),
                                                  int(ldb), &beta, C.data(), int(ldc));
  else
    st = (syrkx ? trnblasDsyrkx_64 : trnblasDsyr2k_64)(h, uplo, trans, n, k, &alpha, A.data(), lda, B.data(), ldb,
                                                        &beta, C.data(), ldc);
  ASSERT_EQ(st, TRNBLAS_STATUS_SUCCESS);
  // op(A), op(B) as dense n x k doubles; the reference products by OpenBLAS dgemm.
  std::vector<double> oa(n * k), ob(n * k);
  for (std::int64_t l = 0; l < k; ++l)
    for (std::int64_t i = 0; i < n; ++i) {
      oa[i + l * n] = tr ? A[l + i * lda] : A[i + l * lda];
      ob[i + l * n] = tr ? B[l + i * ldb] : B[i + l * ldb];
    }
  std::vector<double> ref(n * n, 0.0), mag(n * n, 0.0), aa(oa), ab(ob);
  for (double& v : aa) v = std::fabs(v);
  for (double& v : ab) v = std::fabs(v);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, int(n), int(n), int(k), double(alpha), oa.data(), int(n),
              ob.data(), int(n), 0.0, ref.data(), int(n));
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, int(n), int(n), int(k), std::fabs(double(alpha)), aa.data(),
              int(n), ab.data(), int(n), 0.0, mag.data(), int(n));
  if (!syrkx) {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, int(n), int(n), int(k), double(alpha), ob.data(), int(n),
                oa.data(), int(n), 1.0, ref.data(), int(n));
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, int(n), int(n), int(k), std::fabs(double(alpha)), ab.data(),
                int(n), aa.data(), int(n), 1.0, mag.data(), int(n));
  }
  const double K = syrkx ? double(k) : 2.0 * double(k);
  const double g = std::is_same_v<T, float> ? gamma(K + 2, kU32) : 2 * gamma(K + 64, kU64);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < ldc; ++i) {
      const T got = C[i + j * ldc], old = C0[i + j * ldc];
      if (i >= n || (lower ? i < j : i > j)) {
        ASSERT_EQ(std::memcmp(&got, &old, sizeof(T)), 0) << "untouched " << i << "," << j;
        continue;
      }
      const double c0 = beta == T(0) ? 0.0 : double(old);
      const double r = ref[i + j * n] + double(beta) * c0;
      ASSERT_TRUE(std::isfinite(double(got))) << i << "," << j;
      ASSERT_LE(std::fabs(double(got) - r), g * (mag[i + j * n] + std::fabs(double(beta) * c0)) + 1e-12 * std::fabs(r))
          << i << "," << j;
    }
}

TEST(TrnblasLevel3, Ssyr2kAndSsyrkxTouchOnlyTheirTriangleWithinTheBound) {
  for (bool syrkx : {false, true})
    for (auto uplo : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER})
      for (auto trans : {TRNBLAS_OP_N, TRNBLAS_OP_T}) check_rank2k<float>(syrkx, uplo, trans, 150, 40, -0.5f);
  check_rank2k<float>(false, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, 33, 7, 0.0f);  // beta = 0: C not read
  check_rank2k<float>(true, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_T, 33, 7, 0.0f);
}

TEST(TrnblasLevel3, Dsyr2kAndDsyrkxWithinTheBound) {
  check_rank2k<double>(false, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_T, 20, 6, 1.0);
  check_rank2k<double>(true, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, 20, 6, 0.0);
}

TEST(TrnblasLevel3, Rank2kAndSymmErrorsNameTheirPositionAndCornerCases) {
  Handle h;
  std::vector<float> A(16, 1.0f), B(16, 1.0f), C(16, 3.0f);
  const std::vector<float> C0 = C;
  const float one = 1.0f, zero = 0.0f;
  const auto lo = TRNBLAS_FILL_MODE_LOWER;
  const auto N = TRNBLAS_OP_N;
  auto position = [&] {
    int p = -1;
    trnblasGetLastErrorParameter(h, &p);
    return p;
  };
  // Each call, then the position it logged.
  int i = 0;
  auto expect_at = [&](trnblasStatus_t st, int p) {
    EXPECT_EQ(st, TRNBLAS_STATUS_INVALID_VALUE) << i;
    EXPECT_EQ(position(), p) << i;
    ++i;
  };
  expect_at(trnblasSsyr2k(h, TRNBLAS_FILL_MODE_FULL, N, 4, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4), 1);
  expect_at(trnblasSsyr2k(h, lo, TRNBLAS_OP_CONJG, 4, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4), 2);
  expect_at(trnblasSsyr2k(h, lo, N, -1, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4), 3);
  expect_at(trnblasSsyr2k(h, lo, N, 4, -1, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4), 4);
  expect_at(trnblasSsyrkx(h, lo, N, 4, 4, nullptr, A.data(), 4, B.data(), 4, &one, C.data(), 4), 5);
  expect_at(trnblasSsyrkx(h, lo, N, 4, 4, &one, nullptr, 4, B.data(), 4, &one, C.data(), 4), 6);
  expect_at(trnblasSsyrkx(h, lo, N, 4, 4, &one, A.data(), 3, B.data(), 4, &one, C.data(), 4), 7);
  expect_at(trnblasSsyrkx(h, lo, N, 4, 4, &one, A.data(), 4, nullptr, 4, &one, C.data(), 4), 8);
  expect_at(trnblasSsyrkx(h, lo, TRNBLAS_OP_T, 4, 2, &one, A.data(), 2, B.data(), 1, &one, C.data(), 4), 9);
  expect_at(trnblasSsyrkx(h, lo, N, 4, 4, &one, A.data(), 4, B.data(), 4, nullptr, C.data(), 4), 10);
  expect_at(trnblasSsyrkx(h, lo, N, 4, 4, &one, A.data(), 4, B.data(), 4, &one, nullptr, 4), 11);
  expect_at(trnblasSsyrkx(h, lo, N, 4, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 3), 12);
  // SYMM: side 1, uplo 2, m 3, n 4, alpha 5, A 6, lda 7, B 8, ldb 9, beta 10, C 11, ldc 12.
  const auto L = TRNBLAS_SIDE_LEFT;
  expect_at(trnblasSsymm(h, static_cast<trnblasSideMode_t>(3), lo, 4, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4), 1);
  expect_at(trnblasSsymm(h, L, static_cast<trnblasFillMode_t>(5), 4, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4), 2);
  expect_at(trnblasSsymm(h, L, lo, -2, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4), 3);
  expect_at(trnblasSsymm(h, L, lo, 4, -2, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4), 4);
  expect_at(trnblasSsymm(h, L, lo, 4, 4, nullptr, A.data(), 4, B.data(), 4, &one, C.data(), 4), 5);
  expect_at(trnblasSsymm(h, L, lo, 4, 4, &one, nullptr, 4, B.data(), 4, &one, C.data(), 4), 6);
  expect_at(trnblasSsymm(h, TRNBLAS_SIDE_RIGHT, lo, 4, 2, &one, A.data(), 1, B.data(), 4, &one, C.data(), 4), 7);
  expect_at(trnblasSsymm(h, L, lo, 4, 4, &one, A.data(), 4, nullptr, 4, &one, C.data(), 4), 8);
  expect_at(trnblasSsymm(h, L, lo, 4, 4, &one, A.data(), 4, B.data(), 3, &one, C.data(), 4), 9);
  expect_at(trnblasSsymm(h, L, lo, 4, 4, &one, A.data(), 4, B.data(), 4, nullptr, C.data(), 4), 10);
  expect_at(trnblasSsymm(h, L, lo, 4, 4, &one, A.data(), 4, B.data(), 4, &one, nullptr, 4), 11);
  expect_at(trnblasSsymm(h, L, lo, 4, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 2), 12);
  EXPECT_EQ(C, C0);
  // alpha == 0 reads neither A nor B (NULL accepted); beta == 1 then is a no-op; k == 0 scales C.
  EXPECT_EQ(trnblasSsyr2k(h, lo, N, 4, 4, &zero, nullptr, 4, nullptr, 4, &one, C.data(), 4), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(trnblasSsymm(h, L, lo, 4, 4, &zero, nullptr, 4, nullptr, 4, &one, C.data(), 4), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(C, C0);
  const float two = 2.0f;
  EXPECT_EQ(trnblasSsyrkx(h, lo, N, 4, 0, &one, nullptr, 4, nullptr, 4, &two, C.data(), 4), TRNBLAS_STATUS_SUCCESS);
  for (int j = 0; j < 4; ++j)
    for (int r = 0; r < 4; ++r) EXPECT_EQ(C[r + j * 4], r >= j ? 6.0f : 3.0f);
  // n == 0: quick return with NULL everything.
  EXPECT_EQ(trnblasSsyr2k(h, lo, N, 0, 4, &one, nullptr, 1, nullptr, 1, &one, nullptr, 1), TRNBLAS_STATUS_SUCCESS);
}

}  // namespace
