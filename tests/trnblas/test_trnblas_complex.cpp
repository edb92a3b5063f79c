// trnblas complex GEMM (Cgemm/Zgemm = 4M, Cgemm3m/Zgemm3m = 3M, strided batches) through the C
// API, against OpenBLAS's cblas_zgemm on the same (promoted) data, with componentwise bounds derived
// from each algorithm (docs/trnblas.md "Complex GEMM"), the documented accuracy difference of 3M,
// netlib corner cases and the parameter positions of errors.
#include <cblas.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "blas_test_util.hpp"
#include "trnblas.h"

namespace {

using blastest::Handle;
using Zd = std::complex<double>;

constexpr double kU32 = 0x1p-24, kU64 = 0x1p-53;
double gamma(double k, double u) { return k * u / (1.0 - k * u); }

template <class Cx>
std::vector<Cx> random_cmatrix(std::int64_t count, std::uint64_t seed, double im_scale = 1.0) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<Cx> v(static_cast<std::size_t>(count));
  for (Cx& z : v) {
    z.x = static_cast<decltype(z.x)>(d(g));
    z.y = static_cast<decltype(z.y)>(im_scale * d(g));
  }
  return v;
}

template <class Cx>
std::vector<Zd> promote(const std::vector<Cx>& v) {
  std::vector<Zd> z(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) z[i] = {double(v[i].x), double(v[i].y)};
  return z;
}

CBLAS_TRANSPOSE cblas_op(trnblasOperation_t t) {
  return t == TRNBLAS_OP_N ? CblasNoTrans : t == TRNBLAS_OP_T ? CblasTrans : CblasConjTrans;
}
const char* op_name(trnblasOperation_t t) { return t == TRNBLAS_OP_N ? "N" : t == TRNBLAS_OP_T ? "T" : "C"; }

// Element (i, l) of op(X) (promoted), conjugated for C.
Zd op_at(const std::vector<Zd>& X, std::int64_t ld, trnblasOperation_t t, std::int64_t i, std::int64_t l) {
  if (t == TRNBLAS_OP_N) return X[static_cast<std::size_t>(i + l * ld)];
  const Zd v = X[static_cast<std::size_t>(l + i * ld)];
  return t == TRNBLAS_OP_C ? std::conj(v) : v;
}

struct Problem {
  trnblasOperation_t ta, tb;
  std::int64_t m, n, k;
  Zd alpha, beta;
};

enum class Algo { four_m, three_m };

// Runs one complex GEMM and checks every component against OpenBLAS (cblas_zgemm, double) with the
// algorithm's bound. With Mr = sum |Ar||Br| + |Ai||Bi|, Mi = sum |Ar||Bi| + |Ai||Br|, S = sum
// (|Ar| + |Ai|)(|Br| + |Bi|) over the contraction (|x| of the real and imaginary parts of op(A), op(B)):
//   4M: P_re = one fp32 PSUM sum of 2k exact products: |dP_re| <= gamma_2k Mr, |dP_im| <= gamma_2k Mi.
//   3M: T1, T2 sums of k exact products (gamma_k), T3 of products of rounded sums (gamma_{k+2}),
//       Re = T1 -/+ T2 (+1), Im = (T3 - T1) -/+ T2 (+2): |dP_re| <= gamma_{k+1} Mr,
//       |dP_im| <= gamma_{k+4} (S + Mr).
//   epilogue re = ar Pre - ai Pim + br Cre - bi Cim, each product and sum rounded once (<= 4 more
//   roundings on any term): |dC_re| <= gamma_{K+4} (|ar| E_re + |ai| E_im + |br||Cre| + |bi||Cim|),
//   E the magnitude the product's bound uses (Mr / Mi, or Mr / S + Mr), K its gamma index; Im alike.
// fp64 (Ozaki GEMMs, host fp64 epilogue): u = 2^-53 and K + 64 (the Ozaki reconstruction sum).
// Returns the largest error of the imaginary parts relative to the 4M bound (for the 3M test).
template <class Cx>
double check(const Problem& p, Algo algo, std::uint64_t seed, double im_scale = 1.0) {
  constexpr bool f64 = std::is_same_v<Cx, trnDoubleComplex>;
  SCOPED_TRACE(std::string(op_name(p.ta)) + op_name(p.tb) + (algo == Algo::three_m ? " 3M" : " 4M"));
  const std::int64_t ra = p.ta == TRNBLAS_OP_N ? p.m : p.k, ca = p.ta == TRNBLAS_OP_N ? p.k : p.m;
  const std::int64_t rb = p.tb == TRNBLAS_OP_N ? p.k : p.n, cb = p.tb == TRNBLAS_OP_N ? p.n : p.k;
  const std::int64_t lda = ra + 1, ldb = rb + 2, ldc = p.m + 3;
  const auto A = random_cmatrix<Cx>(lda * ca, seed, im_scale), B = random_cmatrix<Cx>(ldb * cb, seed + 1, im_scale);
  auto C = random_cmatrix<Cx>(ldc * p.n, seed + 2);
  const auto C0 = promote(C);
  Cx alpha, beta;
  alpha.x = static_cast<decltype(alpha.x)>(p.alpha.real());
  alpha.y = static_cast<decltype(alpha.x)>(p.alpha.imag());
  beta.x = static_cast<decltype(alpha.x)>(p.beta.real());
  beta.y = static_cast<decltype(alpha.x)>(p.beta.imag());
  Handle h;
  trnblasStatus_t st;
  if constexpr (f64)
    st = (algo == Algo::four_m ? trnblasZgemm : trnblasZgemm3m)(h, p.ta, p.tb, int(p.m), int(p.n), int(p.k), &alpha,
                                                                A.data(), int(lda), B.data(), int(ldb), &beta, C.data(),
                                                                int(ldc));
  else
    st = (algo == Algo::four_m ? trnblasCgemm_64 : trnblasCgemm3m_64)(h, p.ta, p.tb, p.m, p.n, p.k, &alpha, A.data(),
                                                                      lda, B.data(), ldb, &beta, C.data(), ldc);
  EXPECT_EQ(st, TRNBLAS_STATUS_SUCCESS);
  const auto Ad = promote(A), Bd = promote(B);
  std::vector<Zd> ref = C0;
  const Zd al(double(alpha.x), double(alpha.y)), be(double(beta.x), double(beta.y));
  cblas_zgemm(CblasColMajor, cblas_op(p.ta), cblas_op(p.tb), int(p.m), int(p.n), int(p.k), &al, Ad.data(), int(lda),
              Bd.data(), int(ldb), &be, ref.data(), int(ldc));
  const double u = f64 ? kU64 : kU32, extra = f64 ? 64 : 0;
  const double K = algo == Algo::four_m ? 2.0 * p.k : p.k + 4.0;
  const double g = gamma(K + 4 + extra, u), g4m = gamma(2.0 * p.k + 4 + extra, u);
  double worst_im_vs_4m = 0;
  for (std::int64_t j = 0; j < p.n; ++j)
    for (std::int64_t i = 0; i < p.m; ++i) {
      double mr = 0, mi = 0, sum = 0;
      for (std::int64_t l = 0; l < p.k; ++l) {
        const Zd a = op_at(Ad, lda, p.ta, i, l), b = op_at(Bd, ldb, p.tb, l, j);
        const double ar = std::fabs(a.real()), ai = std::fabs(a.imag()), br = std::fabs(b.real()), bi = std::fabs(b.imag());
        mr += ar * br + ai * bi;
        mi += ar * bi + ai * br;
        sum += (ar + ai) * (br + bi);
      }
      const std::size_t x = static_cast<std::size_t>(i + j * ldc);
      const double e_re = mr, e_im = algo == Algo::four_m ? mi : sum + mr;
      const double cre = std::fabs(C0[x].real()), cim = std::fabs(C0[x].imag());
      const double aR = std::fabs(al.real()), aI = std::fabs(al.imag()), bR = std::fabs(be.real()), bI = std::fabs(be.imag());
      const double bound_re = g * (aR * e_re + aI * e_im + bR * cre + bI * cim) + 1e-12 * std::abs(ref[x]);
      const double bound_im = g * (aR * e_im + aI * e_re + bR * cim + bI * cre) + 1e-12 * std::abs(ref[x]);
      const double err_re = std::fabs(double(C[x].x) - ref[x].real()), err_im = std::fabs(double(C[x].y) - ref[x].imag());
      EXPECT_LE(err_re, bound_re) << i << "," << j;
      EXPECT_LE(err_im, bound_im) << i << "," << j;
      const double im_4m = g4m * (aR * mi + aI * mr + bR * cim + bI * cre);
      worst_im_vs_4m = std::max(worst_im_vs_4m, err_im / im_4m);
    }
  for (std::int64_t j = 0; j < p.n; ++j)  // padding rows of C keep their values
    for (std::int64_t i = p.m; i < ldc; ++i) {
      const std::size_t x = static_cast<std::size_t>(i + j * ldc);
      EXPECT_EQ(double(C[x].x), C0[x].real());
      EXPECT_EQ(double(C[x].y), C0[x].imag());
    }
  return worst_im_vs_4m;
}

const trnblasOperation_t kOps[] = {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C};

TEST(TrnblasComplex, CgemmEveryOpWithinTheComponentwiseBound) {
  for (auto ta : kOps)
    for (auto tb : kOps) {
      check<trnComplex>({ta, tb, 70, 45, 130, {0.75, -0.5}, {-1.25, 0.5}}, Algo::four_m, 1);  // complex scalars
      check<trnComplex>({ta, tb, 33, 20, 17, {1.0, 0.0}, {0.0, 0.0}}, Algo::four_m, 2);       // one real GEMM into C
    }
}

TEST(TrnblasComplex, Cgemm3mEveryOpWithinItsBound) {
  for (auto ta : kOps)
    for (auto tb : kOps) check<trnComplex>({ta, tb, 40, 30, 70, {0.5, 1.0}, {0.25, -1.0}}, Algo::three_m, 3);
}

// 3M's imaginary part is bounded by (|Ar| + |Ai|)(|Br| + |Bi|), not by |Ar||Bi| + |Ai||Br|: with
// imaginary parts 1e-4 of the real ones, Im(AB) is ~1e-4 of |Ar||Br| and 3M's error in it exceeds
// the 4M bound, while 4M stays within it (docs/trnblas.md, Higham 1992).
TEST(TrnblasComplex, ThreeMLosesRelativeAccuracyInSmallImaginaryPartsFourMDoesNot) {
  const Problem p{TRNBLAS_OP_N, TRNBLAS_OP_N, 64, 64, 64, {1.0, 0.0}, {0.0, 0.0}};
  const double four = check<trnComplex>(p, Algo::four_m, 7, 1e-4);
  const double three = check<trnComplex>(p, Algo::three_m, 7, 1e-4);
  EXPECT_LE(four, 1.0);
  EXPECT_GT(three, 1.0);         // outside the 4M (componentwise) bound ...
  EXPECT_GT(three, 10.0 * four);  // ... and far less accurate than 4M on the same data
}

TEST(TrnblasComplex, ZgemmAndZgemm3mWithinTheirBounds) {
  check<trnDoubleComplex>({TRNBLAS_OP_C, TRNBLAS_OP_N, 20, 9, 30, {0.5, -2.0}, {1.0, 1.0}}, Algo::four_m, 11);
  check<trnDoubleComplex>({TRNBLAS_OP_N, TRNBLAS_OP_T, 9, 20, 12, {1.0, 0.0}, {0.0, 0.0}}, Algo::four_m, 12);
  check<trnDoubleComplex>({TRNBLAS_OP_T, TRNBLAS_OP_C, 10, 11, 13, {-1.0, 0.5}, {0.0, 2.0}}, Algo::three_m, 13);
}

TEST(TrnblasComplex, CgemmRunsOnTensorEAndVectorE) {
  Handle h;
  const int m = 16, n = 8, k = 8;
  auto A = random_cmatrix<trnComplex>(m * k, 1), B = random_cmatrix<trnComplex>(k * n, 2), C = random_cmatrix<trnComplex>(m * n, 3);
  const trnComplex alpha{1.0f, 2.0f}, beta{0.5f, 0.0f};
  ASSERT_EQ(trnblasCgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), m, B.data(), k, &beta, C.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  trnProfile_t p{};
  ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_TENSOR], 0);
  EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_VECTOR], 0);  // the complex alpha/beta epilogue
}

TEST(TrnblasComplex, CornerCases) {
  Handle h;
  const int m = 5, n = 4, k = 3;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto A = random_cmatrix<trnComplex>(m * k, 1), B = random_cmatrix<trnComplex>(k * n, 2);
  // beta == 0 never reads C (NaN there does not leak), for real and complex alpha.
  for (trnComplex alpha : {trnComplex{1.0f, 0.0f}, trnComplex{0.5f, 0.5f}}) {
    std::vector<trnComplex> C(m * n, trnComplex{nan, nan});
    const trnComplex zero{0.0f, 0.0f};
    ASSERT_EQ(trnblasCgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), m, B.data(), k, &zero, C.data(), m),
              TRNBLAS_STATUS_SUCCESS);
    for (const auto& z : C) EXPECT_TRUE(std::isfinite(z.x) && std::isfinite(z.y));
  }
  // alpha == 0: A and B not read (NULL accepted); C = beta C with complex beta on VectorE.
  std::vector<trnComplex> C = random_cmatrix<trnComplex>(m * n, 3);
  const auto C0 = C;
  const trnComplex zero{0.0f, 0.0f}, beta{0.0f, 1.0f}, one{1.0f, 0.0f};
  ASSERT_EQ(trnblasCgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &zero, nullptr, m, nullptr, k, &beta, C.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  for (int i = 0; i < m * n; ++i) {  // i * (x + iy) = -y + ix: exact
    EXPECT_EQ(C[i].x, -C0[i].y);
    EXPECT_EQ(C[i].y, C0[i].x);
  }
  // Quick returns: m == 0, and k == 0 with beta == 1 (nothing read or written).
  EXPECT_EQ(trnblasCgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 0, n, k, &one, nullptr, 1, nullptr, k, &one, nullptr, 1),
            TRNBLAS_STATUS_SUCCESS);
  {
    std::vector<trnDoubleComplex> Z(m * n, trnDoubleComplex{2.0, -3.0});
    const trnDoubleComplex zone{1.0, 0.0};
    EXPECT_EQ(trnblasZgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, 0, &zone, nullptr, m, nullptr, 1, &zone, Z.data(), m),
              TRNBLAS_STATUS_SUCCESS);
    for (const auto& z : Z) EXPECT_TRUE(z.x == 2.0 && z.y == -3.0);
  }
  // NaN in A(2, 1) reaches row 2 of C in every column, and no other row.
  A[2 + 1 * m].x = nan;
  std::vector<trnComplex> D(m * n, zero);
  ASSERT_EQ(trnblasCgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k, &zero, D.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) EXPECT_EQ(std::isnan(D[i + j * m].x) || std::isnan(D[i + j * m].y), i == 2) << i << "," << j;
}

TEST(TrnblasComplex, StridedBatchEqualsIndividualCallsBitForBit) {
  Handle h;
  const int m = 12, n = 7, k = 9, batch = 3;
  const long long sa = m * k + 5, sb = k * n + 1, sc = m * n + 2;
  auto A = random_cmatrix<trnComplex>(sa * batch, 1), B = random_cmatrix<trnComplex>(sb * batch, 2);
  auto C = random_cmatrix<trnComplex>(sc * batch, 3), D = C;
  const trnComplex alpha{0.5f, -0.25f}, beta{1.0f, 0.5f};
  ASSERT_EQ(trnblasCgemmStridedBatched(h, TRNBLAS_OP_C, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), k, sa, B.data(), k, sb,
                                       &beta, C.data(), m, sc, batch),
            TRNBLAS_STATUS_SUCCESS);
  for (int b = 0; b < batch; ++b)
    ASSERT_EQ(trnblasCgemm(h, TRNBLAS_OP_C, TRNBLAS_OP_N, m, n, k, &alpha, A.data() + b * sa, k, B.data() + b * sb, k,
                           &beta, D.data() + b * sc, m),
              TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(0, std::memcmp(C.data(), D.data(), C.size() * sizeof(trnComplex)));
}

TEST(TrnblasComplex, ErrorsNameTheirPositionAndWriteNothing) {
  Handle h;
  std::vector<trnComplex> A(16, trnComplex{1, 1}), B(16, trnComplex{1, 1}), C(16, trnComplex{3, 3});
  const auto C0 = C;
  const trnComplex one{1, 0};
  const auto N = TRNBLAS_OP_N;
  int i = 0;
  auto expect_at = [&](trnblasStatus_t st, int position) {
    int p = -1;
    trnblasGetLastErrorParameter(h, &p);
    EXPECT_EQ(st, TRNBLAS_STATUS_INVALID_VALUE) << i;
    EXPECT_EQ(p, position) << i;
    ++i;
  };
  expect_at(trnblasCgemm(h, TRNBLAS_OP_CONJG, N, 4, 4, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4), 1);
  expect_at(trnblasCgemm(h, N, static_cast<trnblasOperation_t>(9), 4, 4, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4), 2);
  expect_at(trnblasCgemm(h, N, N, -1, 4, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4), 3);
  expect_at(trnblasCgemm(h, N, N, 4, -1, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4), 4);
  expect_at(trnblasCgemm(h, N, N, 4, 4, -1, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4), 5);
  expect_at(trnblasCgemm(h, N, N, 4, 4, 4, nullptr, A.data(), 4, B.data(), 4, &one, C.data(), 4), 6);
  expect_at(trnblasCgemm3m(h, N, N, 4, 4, 4, &one, nullptr, 4, B.data(), 4, &one, C.data(), 4), 7);
  expect_at(trnblasCgemm3m(h, TRNBLAS_OP_C, N, 4, 4, 2, &one, A.data(), 1, B.data(), 4, &one, C.data(), 4), 8);
  expect_at(trnblasCgemm(h, N, N, 4, 4, 4, &one, A.data(), 4, nullptr, 4, &one, C.data(), 4), 9);
  expect_at(trnblasCgemm(h, N, N, 4, 4, 4, &one, A.data(), 4, B.data(), 3, &one, C.data(), 4), 10);
  expect_at(trnblasCgemm(h, N, N, 4, 4, 4, &one, A.data(), 4, B.data(), 4, nullptr, C.data(), 4), 11);
  expect_at(trnblasCgemm(h, N, N, 4, 4, 4, &one, A.data(), 4, B.data(), 4, &one, nullptr, 4), 12);
  expect_at(trnblasCgemm(h, N, N, 4, 4, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 2), 13);
  // Strided: strideA 9, ldb 11, beta 13, C 14, ldc 15, batchCount 17.
  const long long huge = std::numeric_limits<long long>::max() / 4;
  expect_at(trnblasCgemmStridedBatched(h, N, N, 4, 4, 4, &one, A.data(), 4, huge, B.data(), 4, 0, &one, C.data(), 4, 0, 2), 9);
  expect_at(trnblasCgemmStridedBatched(h, N, N, 4, 4, 4, &one, A.data(), 4, 0, B.data(), 3, 0, &one, C.data(), 4, 0, 1), 11);
  expect_at(trnblasCgemmStridedBatched(h, N, N, 4, 4, 4, &one, A.data(), 4, 0, B.data(), 4, 0, nullptr, C.data(), 4, 0, 1), 13);
  expect_at(trnblasCgemmStridedBatched(h, N, N, 4, 4, 4, &one, A.data(), 4, 0, B.data(), 4, 0, &one, nullptr, 4, 0, 1), 14);
  expect_at(trnblasCgemmStridedBatched(h, N, N, 4, 4, 4, &one, A.data(), 4, 0, B.data(), 4, 0, &one, C.data(), 3, 0, 1), 15);
  expect_at(trnblasZgemmStridedBatched_64(h, N, N, 4, 4, 4, reinterpret_cast<const trnDoubleComplex*>(&A[0]), nullptr, 4, 0,
                                          nullptr, 4, 0, reinterpret_cast<const trnDoubleComplex*>(&A[0]), nullptr, 4, 0, -1),
            17);
  // A stride of LLONG_MIN has no representable magnitude (found by fuzz_trnblas; also SgemmStridedBatched).
  const long long most_negative = std::numeric_limits<long long>::min();
  expect_at(trnblasCgemmStridedBatched(h, N, N, 4, 4, 4, &one, A.data(), 4, 0, B.data(), 4, 0, &one, C.data(), 4,
                                       most_negative, 2),
            16);
  {
    std::vector<float> a(16, 1.0f), c(16, 3.0f);
    const std::vector<float> c0 = c;
    const float f1 = 1.0f;
    expect_at(trnblasSgemmStridedBatched(h, N, N, 4, 4, 4, &f1, a.data(), 4, most_negative, a.data(), 4, 0, &f1,
                                         c.data(), 4, 0, 2),
              9);
    EXPECT_EQ(c, c0);
  }
  EXPECT_EQ(trnblasCgemm(nullptr, N, N, 4, 4, 4, &one, A.data(), 4, B.data(), 4, &one, C.data(), 4),
            TRNBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(0, std::memcmp(C.data(), C0.data(), C.size() * sizeof(trnComplex)));
}

}  // namespace
