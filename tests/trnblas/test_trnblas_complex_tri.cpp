// trnblas Ctrsm/Ztrsm and Ctrmm/Ztrmm through the C API against OpenBLAS's double-complex CBLAS
// (cblas_ztrsm, cblas_ztrmm) on the same (promoted) data: every side/uplo/trans (N, T, C)/diag
// case at an order of 140 (two diagonal blocks of 128), bounds of docs/trnblas.md "Level 3"; the
// triangle of A that is not referenced (and a unit diagonal) hold NaN and must not leak; netlib's
// corner cases and parameter positions, outputs untouched on error. Also the complex GemmEx types
// (C_32F, C_64F, C_16BF and C_8I inputs, 16-bit complex C), C/Z gemmGroupedBatched and
// GemmGroupedBatchedEx, the int8 rows (COMPUTE_32I with int32 or int8 C, COMPUTE_32F with fp32 C:
// against 64-bit integer loops) and COMPUTE_16F.
#include <cblas.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "blas_test_util.hpp"
#include "trn/blas/level3.hpp"
#include "trn/core/dtype.hpp"
#include "trnblas.h"

namespace {

using blastest::Handle;
using cf = std::complex<float>;
using cd = std::complex<double>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kU32 = 0x1p-24, kU64 = 0x1p-53;

template <class Cx>
auto cp(Cx* p) {
  if constexpr (std::is_same_v<std::remove_const_t<Cx>, cf>)
    return reinterpret_cast<std::conditional_t<std::is_const_v<Cx>, const trnComplex*, trnComplex*>>(p);
  else
    return reinterpret_cast<std::conditional_t<std::is_const_v<Cx>, const trnDoubleComplex*, trnDoubleComplex*>>(p);
}

struct Case {
  trnblasSideMode_t side;
  trnblasFillMode_t uplo;
  trnblasOperation_t trans;
  trnblasDiagType_t diag;
};

std::vector<Case> every_case() {
  std::vector<Case> v;
  for (auto side : {TRNBLAS_SIDE_LEFT, TRNBLAS_SIDE_RIGHT})
    for (auto uplo : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER})
      for (auto trans : {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C})
        for (auto diag : {TRNBLAS_DIAG_NON_UNIT, TRNBLAS_DIAG_UNIT}) v.push_back({side, uplo, trans, diag});
  return v;
}

// A triangular order x order matrix with a well-conditioned triangle: off-diagonal entries of size
// 4/order, diagonal 1.5 + U(-0.5, 0.5) + i U(-1, 1). The other triangle (and the diagonal when unit)
// holds NaN in `stored` and zero in `ref` (what OpenBLAS reads is then irrelevant).
template <class Cx>
void triangular(std::int64_t order, const Case& c, std::uint64_t seed, std::vector<Cx>& stored, std::vector<cd>& ref) {
  using R = typename Cx::value_type;
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  stored.assign(static_cast<std::size_t>(order * order), Cx(R(kNaN), R(kNaN)));
  ref.assign(stored.size(), cd(0));
  const bool lower = c.uplo == TRNBLAS_FILL_MODE_LOWER;
  for (std::int64_t j = 0; j < order; ++j)
    for (std::int64_t i = 0; i < order; ++i) {
      if (lower ? i < j : i > j) continue;
      if (i == j && c.diag == TRNBLAS_DIAG_UNIT) continue;
      const double s = i == j ? 1.0 : 4.0 / static_cast<double>(order);
      const double re = i == j ? 1.5 + 0.5 * u(g) : s * u(g), im = s * u(g);
      const Cx v(static_cast<R>(re), static_cast<R>(im));
      stored[static_cast<std::size_t>(i + j * order)] = v;
      ref[static_cast<std::size_t>(i + j * order)] = cd(v);
    }
}

template <class Cx>
std::vector<Cx> random_cx(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<Cx> v(count);
  for (Cx& x : v) {
    const double re = d(g), im = d(g);
    x = Cx(static_cast<typename Cx::value_type>(re), static_cast<typename Cx::value_type>(im));
  }
  return v;
}

// Uniform int8 values over the whole range [-128, 127].
std::vector<std::int8_t> random_int8(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<std::int8_t> v(count);
  for (auto& x : v) x = static_cast<std::int8_t>(d(g));
  return v;
}

CBLAS_SIDE cside(const Case& c) { return c.side == TRNBLAS_SIDE_LEFT ? CblasLeft : CblasRight; }
CBLAS_UPLO cuplo(const Case& c) { return c.uplo == TRNBLAS_FILL_MODE_LOWER ? CblasLower : CblasUpper; }
CBLAS_TRANSPOSE ctrans(const Case& c) {
  return c.trans == TRNBLAS_OP_N ? CblasNoTrans : c.trans == TRNBLAS_OP_T ? CblasTrans : CblasConjTrans;
}
CBLAS_DIAG cdiag(const Case& c) { return c.diag == TRNBLAS_DIAG_UNIT ? CblasUnit : CblasNonUnit; }

template <class Cx>
trnblasStatus_t call_trsm(trnblasHandle_t h, const Case& c, int m, int n, const Cx* alpha, const Cx* A, int lda, Cx* B,
                          int ldb) {
  if constexpr (std::is_same_v<Cx, cf>)
    return trnblasCtrsm(h, c.side, c.uplo, c.trans, c.diag, m, n, cp(alpha), cp(A), lda, cp(B), ldb);
  else
    return trnblasZtrsm(h, c.side, c.uplo, c.trans, c.diag, m, n, cp(alpha), cp(A), lda, cp(B), ldb);
}
template <class Cx>
trnblasStatus_t call_trmm(trnblasHandle_t h, const Case& c, int m, int n, const Cx* alpha, const Cx* A, int lda,
                          const Cx* B, int ldb, Cx* C, int ldc) {
  if constexpr (std::is_same_v<Cx, cf>)
    return trnblasCtrmm(h, c.side, c.uplo, c.trans, c.diag, m, n, cp(alpha), cp(A), lda, cp(B), ldb, cp(C), ldc);
  else
    return trnblasZtrmm(h, c.side, c.uplo, c.trans, c.diag, m, n, cp(alpha), cp(A), lda, cp(B), ldb, cp(C), ldc);
}

// X solves op(A) X = alpha B (or X op(A) = alpha B). With the triangle's condition number below 4
// (diagonally dominant by construction), the forward error is at most a small multiple of the
// backward error: per column, max|X - Xref| <= 8 (order + 64) u max|Xref| (u of the data; the 64
// covers Ozaki's reconstruction sum for Z, the 4M epilogue and complex division for C).
template <class Cx>
void trsm_every_case(std::uint64_t seed) {
  const double u = std::is_same_v<Cx, cf> ? kU32 : kU64;
  Handle h;
  for (const Case& c : every_case()) {
    const bool left = c.side == TRNBLAS_SIDE_LEFT;
    const int m = left ? 140 : 19, n = left ? 19 : 140, order = left ? m : n, ldb = m + 3;
    std::vector<Cx> A;
    std::vector<cd> Aref;
    triangular(order, c, seed++, A, Aref);
    std::vector<Cx> B = random_cx<Cx>(static_cast<std::size_t>(ldb * n), seed++);
    for (int j = 0; j < n; ++j)  // padding rows must stay as they are
      for (int i = m; i < ldb; ++i) B[static_cast<std::size_t>(i + j * ldb)] = Cx(7, -7);
    std::vector<cd> X(B.begin(), B.end());
    const Cx alpha(0.75f, -0.5f);
    const cd al(alpha);
    cblas_ztrsm(CblasColMajor, cside(c), cuplo(c), ctrans(c), cdiag(c), m, n, &al, Aref.data(), order, X.data(), ldb);
    ASSERT_EQ(call_trsm<Cx>(h, c, m, n, &alpha, A.data(), order, B.data(), ldb), TRNBLAS_STATUS_SUCCESS);
    double err = 0, scale = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < ldb; ++i) {
        const std::size_t at = static_cast<std::size_t>(i + j * ldb);
        if (i >= m) {
          ASSERT_EQ(B[at], Cx(7, -7));
          continue;
        }
        ASSERT_TRUE(std::isfinite(std::abs(cd(B[at])))) << "NaN leaked from the unreferenced triangle";
        err = std::max(err, std::abs(cd(B[at]) - X[at]));
        scale = std::max(scale, std::abs(X[at]));
      }
    EXPECT_LE(err, 8.0 * (order + 64) * u * scale)
        << "side " << c.side << " uplo " << c.uplo << " trans " << c.trans << " diag " << c.diag;
    // A wrong conjugation or triangle would be off by O(1) relative to scale.
    EXPECT_GT(scale, 0.1);
  }
}

TEST(TrnblasComplexTri, CtrsmEveryCase) { trsm_every_case<cf>(100); }
TEST(TrnblasComplexTri, ZtrsmEveryCase) { trsm_every_case<cd>(200); }

// C = alpha op(A) B: each component is one 4M GEMM accumulation (contraction of at most 2 order
// real products) plus the complex epilogue: |dC| <= gamma_{2 order + 6} (|alpha| |op(A)| |B|)
// componentwise, with |.| of the real and imaginary parts summed (Higham §3.6).
template <class Cx>
void trmm_every_case(std::uint64_t seed, bool in_place) {
  const double u = std::is_same_v<Cx, cf> ? kU32 : kU64;
  Handle h;
  for (const Case& c : every_case()) {
    const bool left = c.side == TRNBLAS_SIDE_LEFT;
    const int m = left ? 140 : 9, n = left ? 9 : 140, order = left ? m : n, ldb = m + 1, ldc = m + 2;
    std::vector<Cx> A;
    std::vector<cd> Aref;
    triangular(order, c, seed++, A, Aref);
    std::vector<Cx> B = random_cx<Cx>(static_cast<std::size_t>(ldb * n), seed++);
    std::vector<cd> Cref(B.begin(), B.end());
    const Cx alpha(-0.5f, 1.25f);
    const cd al(alpha);
    std::vector<cd> Aabs(Aref.size());
    for (std::size_t i = 0; i < Aref.size(); ++i) Aabs[i] = std::abs(Aref[i].real()) + std::abs(Aref[i].imag());
    if (c.diag == TRNBLAS_DIAG_UNIT)
      for (int i = 0; i < order; ++i) Aabs[static_cast<std::size_t>(i + i * order)] = 1.0;
    std::vector<cd> Babs(Cref.size());
    for (std::size_t i = 0; i < Cref.size(); ++i) Babs[i] = std::abs(Cref[i].real()) + std::abs(Cref[i].imag());
    cblas_ztrmm(CblasColMajor, cside(c), cuplo(c), ctrans(c), cdiag(c), m, n, &al, Aref.data(), order, Cref.data(), ldb);
    const cd one(1);
    // |op(A)| |B| with the unit diagonal as 1 (ztrmm on the magnitudes, NoTrans/Trans alike).
    cblas_ztrmm(CblasColMajor, cside(c), cuplo(c), c.trans == TRNBLAS_OP_N ? CblasNoTrans : CblasTrans, CblasNonUnit, m,
                n, &one, Aabs.data(), order, Babs.data(), ldb);
    std::vector<Cx> C(static_cast<std::size_t>(ldc * n), Cx(9, 9));
    if (in_place) {
      ASSERT_EQ(call_trmm<Cx>(h, c, m, n, &alpha, A.data(), order, B.data(), ldb, B.data(), ldb),
                TRNBLAS_STATUS_SUCCESS);
    } else {
      ASSERT_EQ(call_trmm<Cx>(h, c, m, n, &alpha, A.data(), order, B.data(), ldb, C.data(), ldc),
                TRNBLAS_STATUS_SUCCESS);
    }
    const double g = (2.0 * order + 6) * u / (1 - (2.0 * order + 6) * u);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        const cd got = in_place ? cd(B[static_cast<std::size_t>(i + j * ldb)]) : cd(C[static_cast<std::size_t>(i + j * ldc)]);
        const cd want = Cref[static_cast<std::size_t>(i + j * ldb)];
        const double bound = g * std::abs(al) * Babs[static_cast<std::size_t>(i + j * ldb)].real() * 2.0;
        ASSERT_LE(std::abs(got.real() - want.real()), bound) << i << "," << j << " case " << c.side << c.uplo << c.trans << c.diag;
        ASSERT_LE(std::abs(got.imag() - want.imag()), bound) << i << "," << j;
      }
    if (!in_place) {
      for (int j = 0; j < n; ++j)
        for (int i = m; i < ldc; ++i) ASSERT_EQ(C[static_cast<std::size_t>(i + j * ldc)], Cx(9, 9));
    }
  }
}

TEST(TrnblasComplexTri, CtrmmEveryCase) { trmm_every_case<cf>(300, false); }
TEST(TrnblasComplexTri, ZtrmmEveryCase) { trmm_every_case<cd>(400, false); }
TEST(TrnblasComplexTri, CtrmmInPlace) { trmm_every_case<cf>(500, true); }

// Ctrsm's two forms against their residual bounds, every side/uplo/trans (N, T, C)/diag case at an
// order of 140 (a full 128 block and a partial one), in long double with |z| = |re| + |im|:
//   substitution (Settings::trsm_substitution): |alpha B - op(A) X^| <= g1 M, M = |alpha B| + |op(A)||X^|
//     (left; right: X^ op(A)), g1 = gamma_{3d+14}: on a term's path <= 2d PSUM additions of the 4M
//     GEMM update, 4 epilogue roundings, 3 per in-block complex update, 10 for the Smith reciprocal
//     and the product with it;
//   inverse-diagonal-block form (default): + g2 blockdiag(|T_b| |T_b^-1|) M (right: M blockdiag(
//     |T_b^-1| |T_b|)), g2 = gamma_{3w+10} + gamma_{2w+4} (W_b by complex substitution, then the
//     4M GEMM W_b z with its complex epilogue; Du Croz & Higham 1992, method 2 blockwise), w = 128,
//     T_b^-1 inverted here in long double. Blocks at multiples of 128 in op(A)'s index space.
//   narrow (<= kTrsmNarrowMaxRhs right-hand sides, the default): + g2 blockdiag((|T_b| |T_b^-1|)^4) M
//     (right: (|T_b^-1| |T_b|)^4), g2 = 4 gamma_{6w+4}^2: T_b^-1 by Newton-Schulz on TensorE and one
//     step of refinement (trsm_narrow_kernel.cpp) leave the substitution bound plus a second-order term.
void ctrsm_residual_case(const Case& c, bool substitution, std::uint64_t seed, double* worst, bool narrow = false) {
  using L = std::complex<long double>;
  const auto abs1 = [](L z) { return std::fabs(z.real()) + std::fabs(z.imag()); };
  const bool left = c.side == TRNBLAS_SIDE_LEFT;
  const int nrhs = narrow ? 3 : substitution ? 23 : 131;  // > 128 right-hand sides: the inverse form
  const int m = left ? 140 : nrhs, n = left ? nrhs : 140, d = left ? m : n;
  std::vector<cf> A;
  std::vector<cd> Aref;
  triangular(d, c, seed, A, Aref);
  const std::vector<cf> B0 = random_cx<cf>(static_cast<std::size_t>(m * n), seed + 1);
  std::vector<cf> X = B0;
  const cf alpha(0.75f, -0.5f);
  if (substitution) {
    trn::blas::Settings st;
    st.trsm_substitution = true;
    trn::blas::ctrsm(st, trn::blas::GemmMode::fp32, left ? trn::blas::Side::left : trn::blas::Side::right,
                     c.uplo == TRNBLAS_FILL_MODE_LOWER ? trn::blas::Uplo::lower : trn::blas::Uplo::upper,
                     c.trans == TRNBLAS_OP_N ? trn::blas::COp::N : c.trans == TRNBLAS_OP_T ? trn::blas::COp::T : trn::blas::COp::C,
                     c.diag == TRNBLAS_DIAG_UNIT ? trn::blas::Diag::unit : trn::blas::Diag::non_unit, m, n, alpha, A.data(),
                     d, X.data(), m);
  } else {
    Handle h;
    ASSERT_EQ(call_trsm<cf>(h, c, m, n, &alpha, A.data(), d, X.data(), m), TRNBLAS_STATUS_SUCCESS);
  }
  // op(A), dense, unit diagonal as ones.
  const std::size_t dd = static_cast<std::size_t>(d);
  std::vector<L> E(dd * dd, L(0));
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i) {
      const int r = c.trans == TRNBLAS_OP_N ? i : j, q = c.trans == TRNBLAS_OP_N ? j : i;
      L v = r == q && c.diag == TRNBLAS_DIAG_UNIT ? L(1) : L(Aref[static_cast<std::size_t>(r + q * d)].real(), Aref[static_cast<std::size_t>(r + q * d)].imag());
      if (c.trans == TRNBLAS_OP_C) v = std::conj(v);
      E[static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * dd] = v;
    }
  const auto at = [](std::vector<L>& M, std::size_t ld, int i, int j) -> L& { return M[static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * ld]; };
  // blockdiag(|T_b| |T_b^-1|) (left) or blockdiag(|T_b^-1| |T_b|) (right).
  std::vector<long double> BD(dd * dd, 0.0L);
  for (int b0 = 0; b0 < d; b0 += 128) {
    const int w = std::min(128, d - b0);
    const std::size_t ww = static_cast<std::size_t>(w);
    std::vector<L> T(ww * ww), W(ww * ww, L(0));
    for (int j = 0; j < w; ++j) {
      for (int i = 0; i < w; ++i) at(T, ww, i, j) = at(E, dd, b0 + i, b0 + j);
      at(W, ww, j, j) = L(1);
    }
    std::vector<L> G = T;  // Gauss-Jordan on a triangle: no pivoting needed
    for (int k = 0; k < w; ++k) {
      const L p = at(G, ww, k, k);
      for (int j = 0; j < w; ++j) {
        at(G, ww, k, j) /= p;
        at(W, ww, k, j) /= p;
      }
      for (int i = 0; i < w; ++i) {
        const L f = at(G, ww, i, k);
        if (i == k || f == L(0)) continue;
        for (int j = 0; j < w; ++j) {
          at(G, ww, i, j) -= f * at(G, ww, k, j);
          at(W, ww, i, j) -= f * at(W, ww, k, j);
        }
      }
    }
    std::vector<long double> P(ww * ww);
    for (int j = 0; j < w; ++j)
      for (int i = 0; i < w; ++i) {
        long double acc = 0;
        for (int l = 0; l < w; ++l)
          acc += left ? abs1(at(T, ww, i, l)) * abs1(at(W, ww, l, j)) : abs1(at(W, ww, i, l)) * abs1(at(T, ww, l, j));
        P[static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * ww] = acc;
      }
    for (int j = 0; j < w; ++j)
      for (int i = 0; i < w; ++i) {
        long double acc = P[static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * ww];
        BD[static_cast<std::size_t>(b0 + i) + static_cast<std::size_t>(b0 + j) * dd] = acc;
      }
    for (int square = 0; narrow && square < 2; ++square) {  // narrow: (|T_b| |T_b^-1|)^4
      for (int j = 0; j < w; ++j)
        for (int i = 0; i < w; ++i)
          P[static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * ww] =
              BD[static_cast<std::size_t>(b0 + i) + static_cast<std::size_t>(b0 + j) * dd];
      for (int j = 0; j < w; ++j)
        for (int i = 0; i < w; ++i) {
          long double acc = 0;
          for (int l = 0; l < w; ++l)
            acc += P[static_cast<std::size_t>(i) + static_cast<std::size_t>(l) * ww] *
                   P[static_cast<std::size_t>(l) + static_cast<std::size_t>(j) * ww];
          BD[static_cast<std::size_t>(b0 + i) + static_cast<std::size_t>(b0 + j) * dd] = acc;
        }
    }
  }
  const auto g = [](double k) { return k * kU32 / (1 - k * kU32); };
  const double g1 = g(3.0 * d + 14),
               g2 = narrow ? 4.0 * g(6.0 * 128 + 4) * g(6.0 * 128 + 4)
                           : substitution ? 0.0 : g(3.0 * 128 + 10) + g(2.0 * 128 + 4);
  const L al(alpha.real(), alpha.imag());
  std::vector<long double> M(static_cast<std::size_t>(m * n)), R(M.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      const std::size_t x = static_cast<std::size_t>(i + j * m);
      L r = al * L(B0[x].real(), B0[x].imag());
      long double mag = abs1(r);
      for (int l = 0; l < d; ++l) {
        const L e = left ? at(E, dd, i, l) : at(E, dd, l, j);
        const cf xv = left ? X[static_cast<std::size_t>(l + j * m)] : X[static_cast<std::size_t>(i + l * m)];
        r -= e * L(xv.real(), xv.imag());
        mag += abs1(e) * abs1(L(xv.real(), xv.imag()));
      }
      R[x] = abs1(r);
      M[x] = mag;
    }
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      long double blockwise = 0;
      for (int l = 0; l < d; ++l)
        blockwise += left ? BD[static_cast<std::size_t>(i) + static_cast<std::size_t>(l) * dd] * M[static_cast<std::size_t>(l + j * m)]
                          : M[static_cast<std::size_t>(i + l * m)] * BD[static_cast<std::size_t>(l) + static_cast<std::size_t>(j) * dd];
      const std::size_t x = static_cast<std::size_t>(i + j * m);
      const long double bound = g1 * M[x] + g2 * blockwise;
      ASSERT_LE(R[x], bound) << "side " << c.side << " uplo " << c.uplo << " trans " << c.trans << " diag " << c.diag
                             << " element " << i << "," << j;
      *worst = std::max(*worst, static_cast<double>(R[x] / bound));
    }
}

TEST(TrnblasComplexTri, CtrsmEveryCaseWithinTheInverseBlockBound) {
  double worst = 0;
  std::uint64_t seed = 600;
  for (const Case& c : every_case()) {
    ctrsm_residual_case(c, false, seed, &worst);
    seed += 2;
  }
  EXPECT_GT(worst, 0.0);  // not vacuous
  RecordProperty("worst_residual_over_bound", std::to_string(worst));
}

TEST(TrnblasComplexTri, CtrsmFewRightHandSidesWithinTheNewtonInverseBound) {
  double worst = 0;
  std::uint64_t seed = 800;
  for (const Case& c : every_case()) {
    ctrsm_residual_case(c, false, seed, &worst, true);
    seed += 2;
  }
  EXPECT_GT(worst, 0.0);
  RecordProperty("worst_residual_over_bound", std::to_string(worst));
}

TEST(TrnblasComplexTri, CtrsmSubstitutionFormWithinTheComponentwiseBound) {
  double worst = 0;
  std::uint64_t seed = 700;
  for (const Case& c : every_case()) {
    ctrsm_residual_case(c, true, seed, &worst);
    seed += 2;
  }
  EXPECT_GT(worst, 0.0);
  RecordProperty("worst_residual_over_bound", std::to_string(worst));
}

// The fp32 solve runs on the engines: the profile shows VectorE work (diagonal blocks) and TensorE
// work (the 4M updates).
TEST(TrnblasComplexTri, CtrsmRunsOnVectorAndTensorEngines) {
  Handle h;
  const Case c{TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, TRNBLAS_DIAG_NON_UNIT};
  std::vector<cf> A;
  std::vector<cd> Aref;
  triangular(200, c, 7, A, Aref);
  std::vector<cf> B = random_cx<cf>(200 * 4, 8);
  const cf alpha(1);
  ASSERT_EQ(call_trsm<cf>(h, c, 200, 4, &alpha, A.data(), 200, B.data(), 200), TRNBLAS_STATUS_SUCCESS);
  trnProfile_t p;
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_VECTOR], 0u);
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_TENSOR], 0u);
}

// netlib: alpha == 0 sets the output to zero without reading A (or, TRMM, B); m == 0 or n == 0 is
// a no-op.
TEST(TrnblasComplexTri, CornerCases) {
  Handle h;
  const Case c{TRNBLAS_SIDE_RIGHT, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_C, TRNBLAS_DIAG_NON_UNIT};
  std::vector<cf> A(16, cf(float(kNaN), float(kNaN))), B(12, cf(float(kNaN), 1)), C(12, cf(3, 3));
  const cf zero(0), one(1);
  ASSERT_EQ(trnblasCtrsm(h, c.side, c.uplo, c.trans, c.diag, 3, 4, cp(&zero), cp(A.data()), 4, cp(B.data()), 3),
            TRNBLAS_STATUS_SUCCESS);
  for (const cf& v : B) EXPECT_EQ(v, cf(0));
  ASSERT_EQ(trnblasCtrmm(h, c.side, c.uplo, c.trans, c.diag, 3, 4, cp(&zero), nullptr, 4, nullptr, 3, cp(C.data()), 3),
            TRNBLAS_STATUS_SUCCESS);
  for (const cf& v : C) EXPECT_EQ(v, cf(0));
  std::vector<cd> Bd(4, cd(5));
  const cd oned(1);
  ASSERT_EQ(trnblasZtrsm(h, c.side, c.uplo, c.trans, c.diag, 0, 4, cp(&oned), nullptr, 4, nullptr, 1),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasZtrmm(h, c.side, c.uplo, c.trans, c.diag, 4, 0, cp(&oned), nullptr, 1, nullptr, 4, nullptr, 4),
            TRNBLAS_STATUS_SUCCESS);
  (void)one;
}

// Positions as XERBLA numbers them (TRSM: side 1, uplo 2, trans 3, diag 4, m 5, n 6, alpha 7, A 8,
// lda 9, B 10, ldb 11; TRMM adds C 12, ldc 13); nothing is written on error.
TEST(TrnblasComplexTri, ArgumentPositions) {
  Handle h;
  std::vector<cd> A(16, cd(1)), B(16, cd(2)), C(16, cd(3));
  const cd one(1);
  const auto L = TRNBLAS_SIDE_LEFT;
  const auto lo = TRNBLAS_FILL_MODE_LOWER;
  const auto N = TRNBLAS_OP_N;
  const auto nu = TRNBLAS_DIAG_NON_UNIT;
  auto expect_pos = [&](trnblasStatus_t st, int pos) {
    EXPECT_EQ(st, TRNBLAS_STATUS_INVALID_VALUE);
    int got = 0;
    ASSERT_EQ(trnblasGetLastErrorParameter(h, &got), TRNBLAS_STATUS_SUCCESS);
    EXPECT_EQ(got, pos);
    for (const cd& v : B) EXPECT_EQ(v, cd(2));
    for (const cd& v : C) EXPECT_EQ(v, cd(3));
  };
  expect_pos(trnblasZtrsm(h, trnblasSideMode_t(2), lo, N, nu, 4, 4, cp(&one), cp(A.data()), 4, cp(B.data()), 4), 1);
  expect_pos(trnblasZtrsm(h, L, trnblasFillMode_t(7), N, nu, 4, 4, cp(&one), cp(A.data()), 4, cp(B.data()), 4), 2);
  expect_pos(trnblasZtrsm(h, L, lo, trnblasOperation_t(3), nu, 4, 4, cp(&one), cp(A.data()), 4, cp(B.data()), 4), 3);
  expect_pos(trnblasZtrsm(h, L, lo, N, trnblasDiagType_t(5), 4, 4, cp(&one), cp(A.data()), 4, cp(B.data()), 4), 4);
  expect_pos(trnblasZtrsm(h, L, lo, N, nu, -1, 4, cp(&one), cp(A.data()), 4, cp(B.data()), 4), 5);
  expect_pos(trnblasZtrsm(h, L, lo, N, nu, 4, -1, cp(&one), cp(A.data()), 4, cp(B.data()), 4), 6);
  expect_pos(trnblasZtrsm(h, L, lo, N, nu, 4, 4, cp(&one), cp(A.data()), 3, cp(B.data()), 4), 9);
  expect_pos(trnblasZtrsm(h, L, lo, N, nu, 4, 4, cp(&one), cp(A.data()), 4, cp(B.data()), 3), 11);
  expect_pos(trnblasZtrsm(h, L, lo, N, nu, 4, 4, nullptr, cp(A.data()), 4, cp(B.data()), 4), 7);
  expect_pos(trnblasZtrsm(h, L, lo, N, nu, 4, 4, cp(&one), nullptr, 4, cp(B.data()), 4), 8);
  expect_pos(trnblasZtrmm(h, L, lo, N, nu, 4, 4, cp(&one), cp(A.data()), 4, cp(B.data()), 4, cp(C.data()), 3), 13);
  expect_pos(trnblasZtrmm(h, L, lo, N, nu, 4, 4, cp(&one), cp(A.data()), 4, nullptr, 4, cp(C.data()), 4), 10);
  expect_pos(trnblasZtrmm(h, L, lo, N, nu, 4, 4, cp(&one), cp(A.data()), 4, cp(B.data()), 4, nullptr, 4), 12);
  const cf onef(1);
  std::vector<cf> Af(16, cf(1)), Bf(16, cf(2));
  EXPECT_EQ(trnblasCtrsm(h, L, lo, N, nu, 4, 4, cp(&onef), cp(Af.data()), 2, cp(Bf.data()), 4),
            TRNBLAS_STATUS_INVALID_VALUE);
  for (const cf& v : Bf) EXPECT_EQ(v, cf(2));
  EXPECT_EQ(trnblasCtrsm(nullptr, L, lo, N, nu, 4, 4, cp(&onef), cp(Af.data()), 4, cp(Bf.data()), 4),
            TRNBLAS_STATUS_NOT_INITIALIZED);
}

// ---- complex GemmEx types, C/Z grouped batches --------------------------------------------------

// GemmEx with C_32F (COMPUTE_32F) and GemmStridedBatchedEx with C_64F (COMPUTE_64F) are Cgemm /
// Zgemm: bit for bit the same results.
TEST(TrnblasComplexGemmEx, C32FAndC64FEqualCgemmAndZgemm) {
  Handle h;
  const int m = 9, n = 7, k = 13;
  auto A = random_cx<cf>(static_cast<std::size_t>(k * m), 1), B = random_cx<cf>(static_cast<std::size_t>(k * n), 2);
  auto C = random_cx<cf>(static_cast<std::size_t>(m * n), 3), C2 = C;
  const cf alpha(0.5f, -1.5f), beta(0.25f, 0.75f);
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_C, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), TRN_C_32F, k, B.data(), TRN_C_32F, k,
                          &beta, C.data(), TRN_C_32F, m, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasCgemm(h, TRNBLAS_OP_C, TRNBLAS_OP_N, m, n, k, cp(&alpha), cp(A.data()), k, cp(B.data()), k, cp(&beta),
                         cp(C2.data()), m),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(C, C2);
  const int batch = 3;
  auto Ad = random_cx<cd>(static_cast<std::size_t>(m * k * batch), 4), Bd = random_cx<cd>(static_cast<std::size_t>(k * n * batch), 5);
  auto Cd = random_cx<cd>(static_cast<std::size_t>(m * n * batch), 6), Cd2 = Cd;
  const cd ad(1.0, 0.5), bd(0.0, 0.0);
  ASSERT_EQ(trnblasGemmStridedBatchedEx(h, TRNBLAS_OP_N, TRNBLAS_OP_T, m, n, k, &ad, Ad.data(), TRN_C_64F, m, m * k,
                                        Bd.data(), TRN_C_64F, n, k * n, &bd, Cd.data(), TRN_C_64F, m, m * n, batch,
                                        TRNBLAS_COMPUTE_64F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  for (int b = 0; b < batch; ++b)
    ASSERT_EQ(trnblasZgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_T, m, n, k, cp(&ad), cp(Ad.data() + b * m * k), m,
                           cp(Bd.data() + b * k * n), n, cp(&bd), cp(Cd2.data() + b * m * n), m),
              TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Cd, Cd2);
}

// C_16BF A and B with C_32F C and COMPUTE_32F: the bf16 values widened exactly, every product exact,
// one fp32 PSUM accumulation of 2k products per component: |dC| <= gamma_{2k+4} (|A||B|) against
// OpenBLAS zgemm on the same (widened) values.
TEST(TrnblasComplexGemmEx, C16BFInputsAgainstOpenBlas) {
  Handle h;
  const int m = 12, n = 10, k = 150;
  auto Af = random_cx<cf>(static_cast<std::size_t>(m * k), 7), Bf = random_cx<cf>(static_cast<std::size_t>(k * n), 8);
  std::vector<std::uint16_t> A16(2 * Af.size()), B16(2 * Bf.size());
  std::vector<cd> Ad(Af.size()), Bd(Bf.size()), Aabs(Af.size()), Babs(Bf.size());
  for (std::size_t i = 0; i < Af.size(); ++i) {
    A16[2 * i] = trn::f32_to_bf16_rne(Af[i].real());
    A16[2 * i + 1] = trn::f32_to_bf16_rne(Af[i].imag());
    Ad[i] = cd(trn::bf16_to_f32(A16[2 * i]), trn::bf16_to_f32(A16[2 * i + 1]));
    Aabs[i] = std::abs(Ad[i].real()) + std::abs(Ad[i].imag());
  }
  for (std::size_t i = 0; i < Bf.size(); ++i) {
    B16[2 * i] = trn::f32_to_bf16_rne(Bf[i].real());
    B16[2 * i + 1] = trn::f32_to_bf16_rne(Bf[i].imag());
    Bd[i] = cd(trn::bf16_to_f32(B16[2 * i]), trn::bf16_to_f32(B16[2 * i + 1]));
    Babs[i] = std::abs(Bd[i].real()) + std::abs(Bd[i].imag());
  }
  std::vector<cf> C(static_cast<std::size_t>(m * n), cf(5, 5));
  const cf alpha(1), beta(0);
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A16.data(), TRN_C_16BF, m, B16.data(), TRN_C_16BF,
                          k, &beta, C.data(), TRN_C_32F, m, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  std::vector<cd> ref(C.size()), bound(C.size());
  const cd one(1), zero(0);
  cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, &one, Ad.data(), m, Bd.data(), k, &zero, ref.data(), m);
  cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, &one, Aabs.data(), m, Babs.data(), k, &zero, bound.data(), m);
  const double g = (2.0 * k + 4) * kU32;
  for (std::size_t i = 0; i < C.size(); ++i) {
    EXPECT_LE(std::abs(C[i].real() - ref[i].real()), g * bound[i].real());
    EXPECT_LE(std::abs(C[i].imag() - ref[i].imag()), g * bound[i].real());
  }
}

// 16-bit complex C (C_16F or C_16BF A, B and C, COMPUTE_32F): cgemm's fp32 result (products exact,
// one fp32 PSUM sum of 2k per part, complex epilogue), each part rounded once to C's type. Against a
// long-double loop on the widened values: |C - ref| <= u16 |ref| + 2 gamma_{2k+4}(u32) M per part,
// M = |alpha| sum |a||b| + |beta||c| (|z| = |re| + |im|); and bit for bit the C_32F-output call
// (with C widened) rounded once. beta == 0 never reads C (NaN there does not leak).
TEST(TrnblasComplexGemmEx, SixteenBitComplexCRoundsOncePerPart) {
  for (const int type : {static_cast<int>(TRN_C_16F), static_cast<int>(TRN_C_16BF)}) {
    Handle h;
    const bool bf = type == TRN_C_16BF;
    const auto to16 = [bf](float x) { return bf ? trn::f32_to_bf16_rne(x) : trn::f32_to_f16_rne(x); };
    const auto from16 = [bf](std::uint16_t v) { return bf ? trn::bf16_to_f32(v) : trn::f16_to_f32(v); };
    const int m = 12, n = 10, k = 150;
    const auto Af = random_cx<cf>(static_cast<std::size_t>(k * m), 31), Bf = random_cx<cf>(static_cast<std::size_t>(k * n), 32),
               Cf = random_cx<cf>(static_cast<std::size_t>(m * n), 33);
    auto pack = [&](const std::vector<cf>& v) {
      std::vector<std::uint16_t> out(2 * v.size());
      for (std::size_t i = 0; i < v.size(); ++i) {
        out[2 * i] = to16(v[i].real());
        out[2 * i + 1] = to16(v[i].imag());
      }
      return out;
    };
    auto widen = [&](const std::vector<std::uint16_t>& v) {
      std::vector<cf> out(v.size() / 2);
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = cf(from16(v[2 * i]), from16(v[2 * i + 1]));
      return out;
    };
    const std::vector<std::uint16_t> A16 = pack(Af), B16 = pack(Bf), C16 = pack(Cf);  // op(A) = A^T (A stored k x m)
    std::vector<std::uint16_t> C = C16;
    const cf alpha(0.7f, -0.45f), beta(-0.25f, 0.5f);
    ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, &alpha, A16.data(), trnDataType_t(type), k, B16.data(),
                            trnDataType_t(type), k, &beta, C.data(), trnDataType_t(type), m, TRNBLAS_COMPUTE_32F,
                            TRNBLAS_GEMM_DEFAULT),
              TRNBLAS_STATUS_SUCCESS);
    const std::vector<cf> Aw = widen(A16), Bw = widen(B16), Cw = widen(C16), got = widen(C);
    using L = std::complex<long double>;
    const auto abs1 = [](L z) { return std::fabs(z.real()) + std::fabs(z.imag()); };
    const long double u16 = bf ? 0x1p-8L : 0x1p-11L, g = (2.0L * k + 4) * kU32 / (1 - (2.0L * k + 4) * kU32);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        L s = 0;
        long double mag = 0;
        for (int l = 0; l < k; ++l) {
          const L a(Aw[static_cast<std::size_t>(l + i * k)].real(), Aw[static_cast<std::size_t>(l + i * k)].imag());
          const L b(Bw[static_cast<std::size_t>(l + j * k)].real(), Bw[static_cast<std::size_t>(l + j * k)].imag());
          s += a * b;
          mag += abs1(a) * abs1(b);
        }
        const std::size_t x = static_cast<std::size_t>(i + j * m);
        const L c(Cw[x].real(), Cw[x].imag()), al(alpha.real(), alpha.imag()), be(beta.real(), beta.imag());
        const L ref = al * s + be * c;
        const long double M = abs1(al) * mag + abs1(be) * abs1(c);
        EXPECT_LE(std::fabs(got[x].real() - ref.real()), u16 * std::fabs(ref.real()) + 2 * g * M) << i << "," << j;
        EXPECT_LE(std::fabs(got[x].imag() - ref.imag()), u16 * std::fabs(ref.imag()) + 2 * g * M) << i << "," << j;
      }
    // The C_32F-output call on the widened C, rounded once, is the same bits.
    std::vector<cf> C32 = Cw;
    ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, &alpha, A16.data(), trnDataType_t(type), k, B16.data(),
                            trnDataType_t(type), k, &beta, C32.data(), TRN_C_32F, m, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
              TRNBLAS_STATUS_SUCCESS);
    EXPECT_EQ(pack(C32), C);
    // beta == 0: C is not read (NaN in C gives finite results).
    std::vector<std::uint16_t> Cnan(C.size(), bf ? std::uint16_t{0x7fc0} : std::uint16_t{0x7e00});
    const cf zero(0);
    ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, &alpha, A16.data(), trnDataType_t(type), k, B16.data(),
                            trnDataType_t(type), k, &zero, Cnan.data(), trnDataType_t(type), m, TRNBLAS_COMPUTE_32F,
                            TRNBLAS_GEMM_DEFAULT),
              TRNBLAS_STATUS_SUCCESS);
    for (const cf& v : widen(Cnan)) EXPECT_TRUE(std::isfinite(v.real()) && std::isfinite(v.imag()));
  }
}

// C_8I A and B with C_32F C (COMPUTE_32F): every part is one fp32 sum of 2k integer products
// <= 2^14; with 2k <= 1024 the sums stay <= 2^24, so alpha = 1, beta = 0 gives the exact integer
// result (against a 64-bit integer loop, op C on A: conjugation exact).
TEST(TrnblasComplexGemmEx, Int8ComplexInputsGiveExactSums) {
  Handle h;
  const int m = 9, n = 7, k = 500;
  const std::vector<std::int8_t> A = random_int8(2 * static_cast<std::size_t>(k * m), 91),
                                 B = random_int8(2 * static_cast<std::size_t>(k * n), 92);
  std::vector<cf> C(static_cast<std::size_t>(m * n), cf(kNaN, kNaN));
  const cf one(1), zero(0);
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_C, TRNBLAS_OP_N, m, n, k, &one, A.data(), TRN_C_8I, k, B.data(), TRN_C_8I, k,
                          &zero, C.data(), TRN_C_32F, m, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      std::int64_t re = 0, im = 0;
      for (int l = 0; l < k; ++l) {
        const std::int64_t ar = A[2 * static_cast<std::size_t>(l + i * k)], ai = -A[2 * static_cast<std::size_t>(l + i * k) + 1];
        const std::int64_t br = B[2 * static_cast<std::size_t>(l + j * k)], bi = B[2 * static_cast<std::size_t>(l + j * k) + 1];
        re += ar * br - ai * bi;
        im += ar * bi + ai * br;
      }
      const cf got = C[static_cast<std::size_t>(i + j * m)];
      EXPECT_EQ(got.real(), static_cast<float>(re)) << i << "," << j;
      EXPECT_EQ(got.imag(), static_cast<float>(im)) << i << "," << j;
    }
}

// Unsupported combinations are NOT_SUPPORTED and write nothing; a bad compute type is INVALID at 17.
TEST(TrnblasComplexGemmEx, UnsupportedCombinations) {
  Handle h;
  std::vector<cf> A(4, cf(1)), B(4, cf(1)), C(4, cf(3));
  const cf one(1);
  auto call = [&](int at, int ct, int compute) {
    return trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, A.data(), trnDataType_t(at), 2, B.data(),
                         trnDataType_t(at), 2, &one, C.data(), trnDataType_t(ct), 2, trnblasComputeType_t(compute),
                         TRNBLAS_GEMM_DEFAULT);
  };
  EXPECT_EQ(call(TRN_C_32F, TRN_C_32F, TRNBLAS_COMPUTE_32F_FAST_8F_E4M3), TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(call(TRN_C_32F, TRN_R_32F, TRNBLAS_COMPUTE_32F), TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(call(TRN_C_16F, TRN_C_16BF, TRNBLAS_COMPUTE_32F), TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(call(TRN_C_16F, TRN_C_16F, TRNBLAS_COMPUTE_32F_FAST_TF32), TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(call(TRN_C_8I, TRN_C_32F, TRNBLAS_COMPUTE_32F_FAST_16BF), TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(call(TRN_C_8I, TRN_C_8I, TRNBLAS_COMPUTE_32F), TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(call(TRN_C_32F, TRN_C_32F, TRNBLAS_COMPUTE_64F), TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(call(TRN_C_32F, TRN_C_32F, 12345), TRNBLAS_STATUS_INVALID_VALUE);
  int pos = 0;
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &pos), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(pos, 17);
  for (const cf& v : C) EXPECT_EQ(v, cf(3));
  // COMPUTE_32F_FAST_16BF with C_32F data: the bf16 mode (its error band, not fp32's).
  const int m = 16, k = 256;
  auto Ar = random_cx<cf>(static_cast<std::size_t>(m * k), 9), Br = random_cx<cf>(static_cast<std::size_t>(k * m), 10);
  std::vector<cf> Cr(static_cast<std::size_t>(m * m)), Cx(Cr.size());
  const cf zero(0);
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, m, k, &one, Ar.data(), TRN_C_32F, m, Br.data(), TRN_C_32F, k,
                          &zero, Cr.data(), TRN_C_32F, m, TRNBLAS_COMPUTE_32F_FAST_16BF, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasCgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, m, k, cp(&one), cp(Ar.data()), m, cp(Br.data()), k, cp(&zero),
                         cp(Cx.data()), m),
            TRNBLAS_STATUS_SUCCESS);
  double num = 0, den = 0;
  for (std::size_t i = 0; i < Cr.size(); ++i) {
    num += std::norm(cd(Cr[i]) - cd(Cx[i]));
    den += std::norm(cd(Cx[i]));
  }
  const double rel = std::sqrt(num / den);
  EXPECT_GT(rel, 1e-4);  // bf16 inputs: not fp32's accuracy
  EXPECT_LT(rel, 1e-2);
}

// C/ZgemmGroupedBatched: every entry equals the separate Cgemm/Zgemm call; GemmGroupedBatchedEx
// with R_32F and R_64F equals Sgemm/Dgemm per entry.
TEST(TrnblasComplexGemmEx, GroupedBatchedEqualsSeparateCalls) {
  Handle h;
  const trnblasOperation_t ta[2] = {TRNBLAS_OP_N, TRNBLAS_OP_C}, tb[2] = {TRNBLAS_OP_T, TRNBLAS_OP_N};
  const int m[2] = {5, 3}, n[2] = {4, 6}, k[2] = {7, 2}, size[2] = {2, 1};
  const int lda[2] = {5, 2}, ldb[2] = {4, 2}, ldc[2] = {5, 3};
  const cd alpha[2] = {cd(1, 0.5), cd(-1, 0)}, beta[2] = {cd(0, 0), cd(0.5, 0.5)};
  std::vector<std::vector<cd>> A, B, C;
  const int group_of[3] = {0, 0, 1};
  for (int e = 0; e < 3; ++e) {
    const int g = group_of[e];
    A.push_back(random_cx<cd>(static_cast<std::size_t>(lda[g] * (ta[g] == TRNBLAS_OP_N ? k[g] : m[g])), 20 + e));
    B.push_back(random_cx<cd>(static_cast<std::size_t>(ldb[g] * (tb[g] == TRNBLAS_OP_N ? n[g] : k[g])), 30 + e));
    C.push_back(random_cx<cd>(static_cast<std::size_t>(ldc[g] * n[g]), 40 + e));
  }
  auto C2 = C;
  std::vector<const trnDoubleComplex*> ap, bp;
  std::vector<trnDoubleComplex*> cpv;
  for (int e = 0; e < 3; ++e) {
    ap.push_back(cp(static_cast<const cd*>(A[static_cast<std::size_t>(e)].data())));
    bp.push_back(cp(static_cast<const cd*>(B[static_cast<std::size_t>(e)].data())));
    cpv.push_back(cp(C[static_cast<std::size_t>(e)].data()));
  }
  ASSERT_EQ(trnblasZgemmGroupedBatched(h, ta, tb, m, n, k, cp(alpha), ap.data(), lda, bp.data(), ldb, cp(beta), cpv.data(),
                                       ldc, 2, size),
            TRNBLAS_STATUS_SUCCESS);
  for (int e = 0; e < 3; ++e) {
    const int g = group_of[e];
    ASSERT_EQ(trnblasZgemm(h, ta[g], tb[g], m[g], n[g], k[g], cp(&alpha[g]), ap[static_cast<std::size_t>(e)], lda[g],
                           bp[static_cast<std::size_t>(e)], ldb[g], cp(&beta[g]), cp(C2[static_cast<std::size_t>(e)].data()),
                           ldc[g]),
              TRNBLAS_STATUS_SUCCESS);
    EXPECT_EQ(C[static_cast<std::size_t>(e)], C2[static_cast<std::size_t>(e)]) << e;
  }
  // GemmGroupedBatchedEx, R_32F with COMPUTE_32F: one group of two entries, against Sgemm.
  const trnblasOperation_t tn[1] = {TRNBLAS_OP_N};
  const int mm[1] = {6}, nn[1] = {5}, kk[1] = {9}, one_group[1] = {2}, la[1] = {6}, lb[1] = {9}, lc[1] = {6};
  const float al[1] = {1.5f}, be[1] = {0.5f};
  std::vector<float> a0(54, 0.25f), a1(54, -0.5f), b0(45, 1.0f), b1(45, 2.0f), c0(30, 1.0f), c1(30, 3.0f);
  for (std::size_t i = 0; i < a0.size(); ++i) a0[i] += static_cast<float>(i) * 0.01f;
  auto c0r = c0, c1r = c1;
  const void* aa[2] = {a0.data(), a1.data()};
  const void* bb[2] = {b0.data(), b1.data()};
  void* cc[2] = {c0.data(), c1.data()};
  ASSERT_EQ(trnblasGemmGroupedBatchedEx(h, tn, tn, mm, nn, kk, al, aa, TRN_R_32F, la, bb, TRN_R_32F, lb, be, cc, TRN_R_32F,
                                        lc, 1, one_group, TRNBLAS_COMPUTE_32F),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 6, 5, 9, al, a0.data(), 6, b0.data(), 9, be, c0r.data(), 6),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 6, 5, 9, al, a1.data(), 6, b1.data(), 9, be, c1r.data(), 6),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(c0, c0r);
  EXPECT_EQ(c1, c1r);
  // Ex positions: a bad computeType is 19, a negative group_count 17.
  EXPECT_EQ(trnblasGemmGroupedBatchedEx(h, tn, tn, mm, nn, kk, al, aa, TRN_R_32F, la, bb, TRN_R_32F, lb, be, cc, TRN_R_32F,
                                        lc, 1, one_group, trnblasComputeType_t(999)),
            TRNBLAS_STATUS_INVALID_VALUE);
  int pos = 0;
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &pos), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(pos, 19);
  EXPECT_EQ(trnblasGemmGroupedBatchedEx(h, tn, tn, mm, nn, kk, al, aa, TRN_R_32F, la, bb, TRN_R_32F, lb, be, cc, TRN_R_32F,
                                        lc, -1, one_group, TRNBLAS_COMPUTE_32F),
            TRNBLAS_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &pos), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(pos, 17);
}

// COMPUTE_32I: int8 A and B, int32 C and scalars. The result is the exact integer (k = 2500 crosses
// two exact-PSUM chunks of 1024; extreme values make the sums exceed 2^24 in total), checked against
// a 64-bit integer loop, with transposes and beta != 0; alpha == 0, beta == 0 writes zeros.
TEST(TrnblasGemmEx32I, Int8ProductsAreExact) {
  Handle h;
  const int m = 7, n = 5, k = 2500;
  std::vector<std::int8_t> A = random_int8(static_cast<std::size_t>(k * m), 77),
                           B = random_int8(static_cast<std::size_t>(n * k), 177);  // A^T stored (k x m), B^T (n x k)
  for (int l = 0; l < k; ++l) A[static_cast<std::size_t>(l)] = -128;      // row 0 of op(A): all -128
  for (int l = 0; l < k; ++l) B[static_cast<std::size_t>(l * n)] = -128;  // column 0 of op(B): all -128
  std::vector<std::int32_t> C(static_cast<std::size_t>(m * n)), C0(C.size());
  for (std::size_t i = 0; i < C.size(); ++i) C[i] = C0[i] = static_cast<std::int32_t>(i * 1000) - 7;
  const std::int32_t alpha = 3, beta = -2;
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_T, TRNBLAS_OP_T, m, n, k, &alpha, A.data(), TRN_R_8I, k, B.data(), TRN_R_8I, n,
                          &beta, C.data(), TRN_R_32I, m, TRNBLAS_COMPUTE_32I, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      std::int64_t acc = 0;
      for (int l = 0; l < k; ++l)
        acc += std::int64_t{A[static_cast<std::size_t>(l + i * k)]} * std::int64_t{B[static_cast<std::size_t>(j + l * n)]};
      const std::int64_t want = alpha * acc + beta * std::int64_t{C0[static_cast<std::size_t>(i + j * m)]};
      EXPECT_EQ(C[static_cast<std::size_t>(i + j * m)], static_cast<std::int32_t>(want)) << i << "," << j;
    }
  EXPECT_EQ(C[0], static_cast<std::int32_t>(3LL * 2500 * 16384 + 2 * 7));  // 2^24 exceeded: still exact
  const std::int32_t zero = 0;
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &zero, nullptr, TRN_R_8I, m, nullptr, TRN_R_8I, k, &zero,
                          C.data(), TRN_R_32I, m, TRNBLAS_COMPUTE_32I, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  for (std::int32_t v : C) EXPECT_EQ(v, 0);
  // Other types with COMPUTE_32I are NOT_SUPPORTED.
  EXPECT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), TRN_R_8I, m, B.data(), TRN_R_8I, k,
                          &beta, C.data(), TRN_R_32F, m, TRNBLAS_COMPUTE_32I, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_NOT_SUPPORTED);
}

// COMPUTE_32I with an 8I C and float alpha, beta: the exact integer sum (k = 1500: two PSUM chunks),
// rounded once to fp32, fl(fl(alpha acc) + fl(beta c)), rounded to nearest even and saturated to
// [-128, 127]; the reference forms the same fp32 values from a 64-bit integer loop (products of two
// floats and the sum of two are exact in double here, so one cast rounds as fp32 would).
TEST(TrnblasGemmEx32I, Int8OutputRoundsAndSaturates) {
  Handle h;
  const int m = 8, n = 6, k = 1500;
  const std::vector<std::int8_t> A = random_int8(static_cast<std::size_t>(m * k), 78),
                                 B = random_int8(static_cast<std::size_t>(k * n), 178);
  std::vector<std::int8_t> C = random_int8(static_cast<std::size_t>(m * n), 278);
  const std::vector<std::int8_t> C0 = C;
  const float alpha = 0.0003f, beta = -0.75f;
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), TRN_R_8I, m, B.data(), TRN_R_8I, k,
                          &beta, C.data(), TRN_R_8I, m, TRNBLAS_COMPUTE_32I, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  int saturated = 0, inside = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      std::int64_t acc = 0;
      for (int l = 0; l < k; ++l)
        acc += std::int64_t{A[static_cast<std::size_t>(i + l * m)]} * std::int64_t{B[static_cast<std::size_t>(l + j * k)]};
      const float fa = static_cast<float>(acc);
      const float p = static_cast<float>(double(alpha) * double(fa));
      const float q = static_cast<float>(double(beta) * double(C0[static_cast<std::size_t>(i + j * m)]));
      const float v = static_cast<float>(double(p) + double(q));
      const double r = std::nearbyint(double(v));
      const int want = static_cast<int>(std::clamp(r, -128.0, 127.0));
      (r > 127 || r < -128 ? saturated : inside) += 1;
      EXPECT_EQ(C[static_cast<std::size_t>(i + j * m)], want) << i << "," << j;
    }
  EXPECT_GT(saturated, 0);
  EXPECT_GT(inside, 0);
}

// int8 A and B with fp32 C (COMPUTE_32F): exact products and fp32 sums below 2^24 (k = 1000), so
// alpha = 1, beta = 0 gives the exact integer result; with alpha = 0.7, beta = -1.5 the epilogue's two
// roundings: |C - ref| <= gamma_2 (|alpha acc| + |beta c|) against long double. Transposed A.
TEST(TrnblasGemmEx32I, Int8InputsWithFloatC) {
  Handle h;
  const int m = 10, n = 6, k = 1000;
  const std::vector<std::int8_t> A = random_int8(static_cast<std::size_t>(k * m), 79),
                                 B = random_int8(static_cast<std::size_t>(k * n), 179);
  std::vector<float> C(static_cast<std::size_t>(m * n), NAN);
  float alpha = 1.0f, beta = 0.0f;
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), TRN_R_8I, k, B.data(), TRN_R_8I, k,
                          &beta, C.data(), TRN_R_32F, m, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  std::vector<std::int64_t> exact(C.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      std::int64_t acc = 0;
      for (int l = 0; l < k; ++l)
        acc += std::int64_t{A[static_cast<std::size_t>(l + i * k)]} * std::int64_t{B[static_cast<std::size_t>(l + j * k)]};
      exact[static_cast<std::size_t>(i + j * m)] = acc;
      EXPECT_EQ(C[static_cast<std::size_t>(i + j * m)], static_cast<float>(acc)) << i << "," << j;
    }
  const std::vector<float> C0 = C;
  alpha = 0.7f;
  beta = -1.5f;
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), TRN_R_8I, k, B.data(), TRN_R_8I, k,
                          &beta, C.data(), TRN_R_32F, m, TRNBLAS_COMPUTE_32F_PEDANTIC, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  for (std::size_t x = 0; x < C.size(); ++x) {
    const long double a = static_cast<long double>(alpha) * exact[x], b = static_cast<long double>(beta) * C0[x];
    EXPECT_LE(std::fabs(C[x] - (a + b)), 2 * kU32 / (1 - 2 * kU32) * (std::fabs(a) + std::fabs(b))) << x;
  }
  // Other 32F compute types with int8 data stay NOT_SUPPORTED, nothing written.
  const std::vector<float> before = C;
  EXPECT_EQ(trnblasGemmEx(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), TRN_R_8I, k, B.data(), TRN_R_8I, k,
                          &beta, C.data(), TRN_R_32F, m, TRNBLAS_COMPUTE_32F_FAST_16BF, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(std::vector<float>(C.begin(), C.end()) == before, true);
}

// COMPUTE_16F: 16F A, B, C and binary16 alpha/beta. Products exact, fp32 accumulation, one rounding
// to fp16: |C - ref| <= u16 |ref| + gamma_{k+2}(u32) (|alpha| |A||B| + |beta||C|), ref in double.
TEST(TrnblasGemmEx16F, HalfComputeTypeRoundsOnce) {
  Handle h;
  const int m = 6, n = 4, k = 64;
  std::mt19937_64 g(5);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<std::uint16_t> A(static_cast<std::size_t>(m * k)), B(static_cast<std::size_t>(k * n)), C(static_cast<std::size_t>(m * n));
  auto h16 = [](float x) { return trn::f32_to_f16_rne(x); };
  for (auto& v : A) v = h16(d(g));
  for (auto& v : B) v = h16(d(g));
  for (auto& v : C) v = h16(d(g));
  const auto C0 = C;
  const std::uint16_t alpha = h16(1.5f), beta = h16(-0.5f);
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), TRN_R_16F, m, B.data(), TRN_R_16F, k,
                          &beta, C.data(), TRN_R_16F, m, TRNBLAS_COMPUTE_16F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double ref = 0, mag = 0;
      for (int l = 0; l < k; ++l) {
        const double p = double(trn::f16_to_f32(A[static_cast<std::size_t>(i + l * m)])) * trn::f16_to_f32(B[static_cast<std::size_t>(l + j * k)]);
        ref += p;
        mag += std::abs(p);
      }
      const double c0 = trn::f16_to_f32(C0[static_cast<std::size_t>(i + j * m)]);
      ref = 1.5 * ref - 0.5 * c0;
      mag = 1.5 * mag + 0.5 * std::abs(c0);
      const double got = trn::f16_to_f32(C[static_cast<std::size_t>(i + j * m)]);
      EXPECT_LE(std::abs(got - ref), 0x1p-11 * std::abs(ref) + (k + 4) * kU32 * mag * 2) << i << "," << j;
    }
  EXPECT_NE(C, C0);
}

}  // namespace
