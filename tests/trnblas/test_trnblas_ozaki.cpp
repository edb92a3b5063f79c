// The fp64 Ozaki schemes (trnblas/src/ozaki.hpp): scheme II (CRT residues, the default) and scheme I
// (8-bit slices) against OpenBLAS DGEMM and independent references (double-double Dot2, Ogita, Rump,
// Oishi, SISC 2005; long double dot products, whose 15-bit exponent holds every fp64 product
// exactly in range), on GEMMul8's phi generator (Uchino, Ozaki, Imamura, arXiv:2504.08009) and on
// subnormal, huge and mixed-range inputs; the C API's scheme and mantissa knobs, the work cap and
// its log line, and bit-identical results across host threads and emulated cores.
#include <cblas.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "blas_test_util.hpp"
#include "trn/blas/blas.hpp"
#include "trnblas.h"

namespace {

using blastest::dd_add_prod;
using blastest::Handle;
using blastest::phi_matrix;
using trn::blas::CallReport;
using trn::blas::Op;
using trn::blas::OzakiScheme;
using trn::blas::Settings;

constexpr double kU = 0x1p-53;  // fp64 unit roundoff
constexpr OzakiScheme kSchemes[] = {OzakiScheme::crt, OzakiScheme::slices};

// The Ozaki schemes at every size (small GEMMs otherwise take the Dot2 operator, tested below).
Settings settings_of(OzakiScheme scheme) {
  Settings s;
  s.ozaki_scheme = scheme;
  s.dgemm_dot2_max_macs = 0;
  return s;
}

// op(X)(r, c) of a column-major matrix with leading dimension ld.
double at(const std::vector<double>& X, std::int64_t ld, Op t, std::int64_t r, std::int64_t c) {
  return blastest::at(X, ld, t == Op::T, r, c);
}

struct Errors {
  double normwise = 0, maxcomp = 0;
};
// Errors of C (m x n, ld m) against the Dot2 value of op(A) op(B).
Errors errors_vs_dd(const std::vector<double>& C, const std::vector<double>& A, std::int64_t lda, Op ta,
                    const std::vector<double>& B, std::int64_t ldb, Op tb, int m, int n, int k) {
  double num = 0, den = 0, mx = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      blastest::DD acc;
      for (int p = 0; p < k; ++p) dd_add_prod(acc, at(A, lda, ta, i, p), at(B, ldb, tb, p, j));
      const double ref = acc.hi + acc.lo;
      const double d = C[static_cast<std::size_t>(i + j * m)] - ref;
      num += d * d;
      den += ref * ref;
      if (ref != 0) mx = std::max(mx, std::fabs(d / ref));
    }
  return {std::sqrt(num / den), mx};
}

// sum_p op(A)(i, p) op(B)(p, j) in long double: products of fp64 values are exact in range (15-bit
// exponent) and rounded to 64 bits; used where every product has one sign (no cancellation), so
// its relative error is <= k 2^-64.
long double ld_dot(const std::vector<double>& A, std::int64_t lda, const std::vector<double>& B, std::int64_t ldb,
                   int i, int j, int k) {
  long double s = 0;
  for (int p = 0; p < k; ++p)
    s += static_cast<long double>(A[static_cast<std::size_t>(i + p * lda)]) *
         static_cast<long double>(B[static_cast<std::size_t>(p + j * ldb)]);
  return s;
}

// Accuracy on GEMMul8's generator (numerics target of issue #12): both schemes at or below OpenBLAS
// DGEMM, normwise and max componentwise against Dot2, with k = 1100 (two CRT chunks of <= 1024,
// five slice chunks of <= 256) and transposed operands. The floors (1e-17 normwise, 1e-16
// componentwise, ~u) only matter if OpenBLAS happens to be exact to better than u.
TEST(TrnblasOzaki, BothSchemesAtLeastAsAccurateAsOpenBlasDgemmOnPhiGenerator) {
  const int m = 40, n = 36, k = 1100;
  for (OzakiScheme scheme : kSchemes)
    for (double phi : {0.5, 2.0, 4.0}) {
      const Op ta = phi == 2.0 ? Op::T : Op::N, tb = phi == 4.0 ? Op::T : Op::N;
      const std::int64_t lda = ta == Op::N ? m : k, ldb = tb == Op::N ? k : n;
      const auto A = phi_matrix(static_cast<std::size_t>(m) * k, phi, 101), B = phi_matrix(static_cast<std::size_t>(k) * n, phi, 102);
      std::vector<double> C(static_cast<std::size_t>(m) * n, std::numeric_limits<double>::quiet_NaN()), R(C.size());
      CallReport rep;
      trn::blas::dgemm(settings_of(scheme), ta, tb, m, n, k, 1.0, A.data(), lda, B.data(), ldb, 0.0, C.data(), m, &rep);
      cblas_dgemm(CblasColMajor, ta == Op::T ? CblasTrans : CblasNoTrans, tb == Op::T ? CblasTrans : CblasNoTrans, m, n,
                  k, 1.0, A.data(), static_cast<int>(lda), B.data(), static_cast<int>(ldb), 0.0, R.data(), m);
      const Errors oz = errors_vs_dd(C, A, lda, ta, B, ldb, tb, m, n, k), nat = errors_vs_dd(R, A, lda, ta, B, ldb, tb, m, n, k);
      const std::string what = std::string(trn::blas::ozaki_scheme_name(scheme)) + " phi " + std::to_string(phi);
      EXPECT_LE(oz.normwise, std::max(nat.normwise, 1e-17)) << what;
      EXPECT_LE(oz.maxcomp, std::max(nat.maxcomp, 1e-16)) << what;
      EXPECT_GE(rep.ozaki_mantissa_bits, 53) << what;
      EXPECT_EQ(rep.ozaki_scheme, scheme);
      EXPECT_FALSE(rep.ozaki_capped) << what;
      // Passes: one nc_matmul per 128-deep K tile of each integer GEMM (m <= 512 rows, n <= 128
      // columns: one output tile); K tiles per product = sum over chunks of ceil(chunk / 128).
      const std::int64_t chunk = scheme == OzakiScheme::crt ? 1024 : 256;
      std::int64_t k_tiles = 0;
      for (std::int64_t k0 = 0; k0 < k; k0 += chunk) k_tiles += (std::min<std::int64_t>(chunk, k - k0) + 127) / 128;
      EXPECT_EQ(rep.ozaki_k_chunks, (k + chunk - 1) / chunk);
      if (scheme == OzakiScheme::crt) {
        EXPECT_GE(rep.ozaki_moduli, 2);
        EXPECT_LE(rep.ozaki_moduli, trn::blas::kOzakiMaxModuli);
        EXPECT_EQ(rep.ozaki_products, rep.ozaki_moduli);
      } else {
        EXPECT_EQ(rep.ozaki_products, rep.ozaki_slices_a * (rep.ozaki_slices_a + 1) / 2);
      }
      EXPECT_EQ(rep.tensor_passes, rep.ozaki_products * k_tiles) << what;
    }
}

// Scheme II needs far fewer TensorE GEMMs than scheme I for the same inputs (one per modulus against
// one per slice pair).
TEST(TrnblasOzaki, SchemeTwoUsesFewerPassesThanSchemeOne) {
  const int m = 32, n = 32, k = 256;
  const auto A = phi_matrix(static_cast<std::size_t>(m) * k, 0.5, 7), B = phi_matrix(static_cast<std::size_t>(k) * n, 0.5, 8);
  std::vector<double> C(static_cast<std::size_t>(m) * n);
  CallReport r1, r2;
  trn::blas::dgemm(settings_of(OzakiScheme::slices), Op::N, Op::N, m, n, k, 1.0, A.data(), m, B.data(), k, 0.0, C.data(), m, &r1);
  trn::blas::dgemm(settings_of(OzakiScheme::crt), Op::N, Op::N, m, n, k, 1.0, A.data(), m, B.data(), k, 0.0, C.data(), m, &r2);
  EXPECT_LT(2 * r2.tensor_passes, r1.tensor_passes);
  EXPECT_LE(r2.ozaki_moduli, 20);
}

// Issue #12's case: a = [1.7e308, 4.9e-324], b = [4.9e-324, 1.7e308]. Each product is exact (a
// power-of-two factor), the sum 1.68e-15 is one fp64 rounding of the exact value. The contraction
// balancing makes both rows uniform: a handful of passes, the answer to within u.
TEST(TrnblasOzaki, HugeTimesTinyTermsAreKeptAndTheWorkIsBounded) {
  const std::vector<double> A = {1.7e308, 4.9e-324}, B = {4.9e-324, 1.7e308};
  const double exact = static_cast<double>(ld_dot(A, 1, B, 2, 0, 0, 2));
  ASSERT_GT(exact, 1e-15);
  for (OzakiScheme scheme : kSchemes) {
    double c = -1;
    CallReport rep;
    trn::blas::dgemm(settings_of(scheme), Op::N, Op::N, 1, 1, 2, 1.0, A.data(), 1, B.data(), 2, 0.0, &c, 1, &rep);
    EXPECT_LE(std::fabs(c - exact), 2 * kU * exact) << trn::blas::ozaki_scheme_name(scheme) << " " << c;
    EXPECT_LE(rep.tensor_passes, 60) << trn::blas::ozaki_scheme_name(scheme);
    EXPECT_FALSE(rep.ozaki_capped);
  }
  // And through the C API (the call).
  Handle h;
  double c = 0;
  const double one = 1, zero = 0;
  ASSERT_EQ(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 1, 2, &one, A.data(), 1, B.data(), 2, &zero, &c, 1),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_LE(std::fabs(c - exact), 2 * kU * exact);
}

// Mixed ranges along the contraction index, subnormal inputs included: A(i, p) = u 2^(e_i + f_p),
// B(p, j) = v 2^(g_j - f_p) with u, v in [0.5, 1), e_i, g_j in [-40, 0], f_p in [-1000, 1000] (both
// reach the subnormal range, neither overflows), so every product is normal and positive. Reference: long double (relative error
// <= k 2^-64). Bounds (derivation): after balancing, the elements of a row of op(A) D lie within a
// factor 4 of each other (u in [0.5, 1), and d_p = floor(...) shifts by at most one binade), and so
// for the columns of op(B); subnormal inputs are exact values like any other.
//  II: the largest element keeps >= 53 bits (reported), so every element >= 2^(bits-3) and its
//      rounding is <= 2^-(bits-2) <= 2^-51 relative; a product <= 2^-50 (+ tiny); a sum of positive
//      terms keeps that relative bound; plus the final rounding u: <= 2^-50 + 2^-53 < 10u.
//  I:  the slices hold every element exactly (56 + spreads <= 8 * slices bits), the dropped pairs are
//      < 2^-56 relative, and the partials are summed in fp64: positive terms, <= (P + 1) u with P the
//      number of scaled partials added (products * chunks).
TEST(TrnblasOzaki, MixedRangeAndSubnormalInputsMatchLongDouble) {
  const int m = 20, n = 18, k = 64;
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> u(0.5, 1.0);
  std::uniform_int_distribution<int> e_row(-40, 0), f_mid(-1000, 1000);
  std::vector<int> e(m), g(n), f(k);
  for (auto& x : e) x = e_row(rng);
  for (auto& x : g) x = e_row(rng);
  for (auto& x : f) x = f_mid(rng);
  f[0] = -1000;  // A's column 0 subnormal for the rows with e_i < -22
  f[1] = 1000;   // B's row 1 subnormal for the columns with g_j < -22
  std::vector<double> A(static_cast<std::size_t>(m) * k), B(static_cast<std::size_t>(k) * n);
  for (int p = 0; p < k; ++p) {
    for (int i = 0; i < m; ++i) A[static_cast<std::size_t>(i + p * m)] = std::ldexp(u(rng), e[i] + f[p]);
    for (int j = 0; j < n; ++j) B[static_cast<std::size_t>(p + j * k)] = std::ldexp(u(rng), g[j] - f[p]);
  }
  int subnormals = 0;
  for (double x : A) subnormals += std::fpclassify(x) == FP_SUBNORMAL;
  ASSERT_GT(subnormals, 0);
  for (OzakiScheme scheme : kSchemes) {
    std::vector<double> C(static_cast<std::size_t>(m) * n);
    CallReport rep;
    trn::blas::dgemm(settings_of(scheme), Op::N, Op::N, m, n, k, 1.0, A.data(), m, B.data(), k, 0.0, C.data(), m, &rep);
    const double bound =
        scheme == OzakiScheme::crt ? 10 * kU : (rep.ozaki_products * rep.ozaki_k_chunks + 1) * kU + 0x1p-56;
    int beyond = 0;  // NaN counts as beyond
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        const long double ref = ld_dot(A, m, B, k, i, j, k);
        const double rel = static_cast<double>(std::fabs((C[static_cast<std::size_t>(i + j * m)] - ref) / ref));
        if (!(rel <= bound)) ++beyond;
      }
    EXPECT_EQ(beyond, 0) << trn::blas::ozaki_scheme_name(scheme);
    EXPECT_FALSE(rep.ozaki_capped);
  }
}

// The contraction balancing serves the rows that set a contraction index's largest exponent and can
// push another row's element far below its new row maximum (found by fuzz_trnblas): op(A) row
// (0.5, -1, 9.01e-14) meets column (-4, -4, -1.5) while 1.4e11 elsewhere in op(A)'s third column
// makes that index's balancing 2^-19; before the normwise check, scheme II dropped the 1.35e-13
// product (error 2.0e-13 after alpha = -1.5, against a normwise bound of 1.1e-13). Every output must
// stay within 2^-50 k max|a_i| max|b_j| of the long-double value (plus its rounding): scheme II's
// automatic bits now cover what the balancing costs, and past the moduli cap the per-output check
// recomputes; random data (GEMMul8's generator, transposed, k over two chunks) and graded-contraction
// data (where the balancing helps) must never reach the fallback.
TEST(TrnblasOzaki, OzakiBalancingNeverDropsAProductBeyondTheNormwiseBound) {
  const int k = 3, n = 3, m = 3;
  // op(A) = A^T (A is k x m, lda 4), op(B) = B^T (B is n x k, ldb 4): the fuzzer's input, and the
  // same with 1e60 in place of -1.37e11 (g ~ 100 bits: beyond the 28 moduli, so the per-output
  // check must recompute).
  const double t = 9.0104695081062725e-14;
  for (const double big : {-137438953472.0, -1e60}) {
    const std::vector<double> A = {0.5, -1, t, 0, t, -452740055040, big, 0, -4, -4, -4};
    const std::vector<double> B = {-8, -4, -4, 0, -4, -4, -4, 0, -1.5, -1.5, -1.5};
    for (OzakiScheme scheme : kSchemes) {
      std::vector<double> C(static_cast<std::size_t>(m) * n, -1);
      CallReport rep;
      trn::blas::dgemm(settings_of(scheme), Op::T, Op::T, m, n, k, 1.0, A.data(), 4, B.data(), 4, 0.0, C.data(), m, &rep);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          long double ref = 0;
          double amax = 0, bmax = 0;
          for (int p = 0; p < k; ++p) {
            const double a = A[static_cast<std::size_t>(p + 4 * i)], b = B[static_cast<std::size_t>(j + 4 * p)];
            ref += static_cast<long double>(a) * static_cast<long double>(b);
            amax = std::max(amax, std::fabs(a));
            bmax = std::max(bmax, std::fabs(b));
          }
          const double c = C[static_cast<std::size_t>(i + j * m)];
          EXPECT_LE(std::fabs(static_cast<long double>(c) - ref), 0x1p-50 * k * amax * bmax + kU * std::fabs(c))
              << trn::blas::ozaki_scheme_name(scheme) << " big " << big << " C(" << i << ", " << j << ") = " << c;
        }
      if (scheme != OzakiScheme::crt) continue;
      if (big > -1e12) {  // the automatic bits cover the balancing's 2^18 (the third index's 2^19 on B);
        // C(0, 0) = -4 + 4 - 1.35e-13 still cancels and is recomputed by the |C'| < 2^20 E check
        EXPECT_GE(rep.ozaki_mantissa_bits, 53 + 17);
        EXPECT_LE(rep.ozaki_host_fallback, 1);
        EXPECT_FALSE(rep.ozaki_capped);
      } else {
        EXPECT_GE(rep.ozaki_host_fallback, 6);  // every output of rows 0 and 2
      }
    }
  }
  // Random and graded data never reach the host fallback.
  for (double phi : {0.5, 4.0}) {
    const int mr = 40, nr = 36, kr = 1100;
    const auto Ar = phi_matrix(static_cast<std::size_t>(kr) * mr, phi, 7), Br = phi_matrix(static_cast<std::size_t>(nr) * kr, phi, 8);
    std::vector<double> C(static_cast<std::size_t>(mr) * nr);
    CallReport rep;
    trn::blas::dgemm(settings_of(OzakiScheme::crt), Op::T, Op::T, mr, nr, kr, 1.0, Ar.data(), kr, Br.data(), nr, 0.0,
                     C.data(), mr, &rep);
    EXPECT_EQ(rep.ozaki_host_fallback, 0) << "phi " << phi;
  }
  {
    const int mg = 16, ng = 12, kg = 64;
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> Ag(static_cast<std::size_t>(mg) * kg), Bg(static_cast<std::size_t>(kg) * ng);
    for (int p = 0; p < kg; ++p) {  // column p of A scaled 2^(10 p), row p of B 2^(-10 p)
      for (int i = 0; i < mg; ++i) Ag[static_cast<std::size_t>(i + p * mg)] = std::ldexp(u(rng), 10 * p - 300);
      for (int j = 0; j < ng; ++j) Bg[static_cast<std::size_t>(p + j * kg)] = std::ldexp(u(rng), 300 - 10 * p);
    }
    std::vector<double> C(static_cast<std::size_t>(mg) * ng);
    CallReport rep;
    trn::blas::dgemm(settings_of(OzakiScheme::crt), Op::N, Op::N, mg, ng, kg, 1.0, Ag.data(), mg, Bg.data(), kg, 0.0,
                     C.data(), mg, &rep);
    EXPECT_EQ(rep.ozaki_host_fallback, 0);
  }
}

// Subnormal A times huge B with random signs (products ~2^-60, normal): both schemes at or below
// OpenBLAS against Dot2 (its TwoProd is exact here: the products and their errors are normal).
TEST(TrnblasOzaki, SubnormalTimesHugeAtLeastAsAccurateAsOpenBlas) {
  const int m = 16, n = 12, k = 50;
  auto A = phi_matrix(static_cast<std::size_t>(m) * k, 0.5, 41), B = phi_matrix(static_cast<std::size_t>(k) * n, 0.5, 42);
  for (auto& x : A) x = std::ldexp(x, -1040);  // |x| < 2^-1022 mostly: subnormal
  for (auto& x : B) x = std::ldexp(x, 980);
  std::vector<double> C(static_cast<std::size_t>(m) * n), R(C.size());
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A.data(), m, B.data(), k, 0.0, R.data(), m);
  const Errors nat = errors_vs_dd(R, A, m, Op::N, B, k, Op::N, m, n, k);
  for (OzakiScheme scheme : kSchemes) {
    trn::blas::dgemm(settings_of(scheme), Op::N, Op::N, m, n, k, 1.0, A.data(), m, B.data(), k, 0.0, C.data(), m);
    const Errors oz = errors_vs_dd(C, A, m, Op::N, B, k, Op::N, m, n, k);
    EXPECT_LE(oz.normwise, std::max(nat.normwise, 1e-17)) << trn::blas::ozaki_scheme_name(scheme);
    EXPECT_LE(oz.maxcomp, std::max(nat.maxcomp, 1e-16)) << trn::blas::ozaki_scheme_name(scheme);
  }
}

// Huge inputs: exact cancellation gives exactly 0 where the naive fp64 sum overflows (1e309 - 1e309),
// a representable 1.5e308 is exact, and a true overflow is +Inf as in IEEE fp64.
TEST(TrnblasOzaki, HugeInputsCancelExactlyAndOverflowToInf) {
  const std::vector<double> A = {1e308, 1e308};  // 1 x 2
  const std::vector<double> B = {10.0, -10.0, 1.0, 0.5, 1.0, 1.0};  // 2 x 3
  for (OzakiScheme scheme : kSchemes) {
    std::vector<double> C(3, -1.0);
    trn::blas::dgemm(settings_of(scheme), Op::N, Op::N, 1, 3, 2, 1.0, A.data(), 1, B.data(), 2, 0.0, C.data(), 1);
    EXPECT_EQ(C[0], 0.0) << trn::blas::ozaki_scheme_name(scheme);
    EXPECT_EQ(C[1], 1.5e308) << trn::blas::ozaki_scheme_name(scheme);
    EXPECT_EQ(C[2], std::numeric_limits<double>::infinity()) << trn::blas::ozaki_scheme_name(scheme);
  }
}

// A loss the balancing cannot undo: A = [1 t; t 1], B = [t 1; 1 t], t = 2^-600, C = [2t 1; 1 2t]
// (1 + t^2 rounds to 1). One scale per row and column drops t against 1 in every row and column.
// Scheme II detects the outputs whose error bound exceeds them and recomputes those two on the host
// (long double dot, then one rounding: exact here); scheme I asks for ~1260 bits (157 slices), is
// capped at kOzakiMaxSlices and says so (report and the C API's log line).
std::mutex g_log_mu;
std::vector<std::string> g_log_lines;
void capture_log(const char* msg) {
  std::lock_guard<std::mutex> lock(g_log_mu);
  g_log_lines.emplace_back(msg);
}

TEST(TrnblasOzaki, UnbalanceableLossIsRecomputedOrCappedAndLogged) {
  const double t = 0x1p-600;
  const std::vector<double> A = {1, t, t, 1}, B = {t, 1, 1, t};
  std::vector<double> C(4, -1);
  CallReport rep;
  trn::blas::dgemm(settings_of(OzakiScheme::crt), Op::N, Op::N, 2, 2, 2, 1.0, A.data(), 2, B.data(), 2, 0.0, C.data(), 2, &rep);
  EXPECT_EQ(C[0], 2 * t);
  EXPECT_EQ(C[1], 1.0);
  EXPECT_EQ(C[2], 1.0);
  EXPECT_EQ(C[3], 2 * t);
  EXPECT_EQ(rep.ozaki_host_fallback, 2);
  EXPECT_FALSE(rep.ozaki_capped);

  trn::blas::dgemm(settings_of(OzakiScheme::slices), Op::N, Op::N, 2, 2, 2, 1.0, A.data(), 2, B.data(), 2, 0.0, C.data(), 2, &rep);
  EXPECT_TRUE(rep.ozaki_capped);
  EXPECT_EQ(rep.ozaki_slices_a, trn::blas::kOzakiMaxSlices);
  EXPECT_EQ(C[1], 1.0);
  EXPECT_LE(rep.tensor_passes, trn::blas::kOzakiMaxSlices * (trn::blas::kOzakiMaxSlices + 1) / 2);

  Handle h;
  trnblasLogCallback old = nullptr;
  ASSERT_EQ(trnblasGetLoggerCallback(&old), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSetLoggerCallback(capture_log), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSetFixedPointEmulationScheme(h, TRNBLAS_EMULATION_SCHEME_OZAKI_I), TRNBLAS_STATUS_SUCCESS);
  const double one = 1, zero = 0;
  EXPECT_EQ(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, A.data(), 2, B.data(), 2, &zero, C.data(), 2),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSetLoggerCallback(old), TRNBLAS_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(g_log_mu);
  bool logged = false;
  for (const auto& l : g_log_lines) logged |= l.find("capped at 24") != std::string::npos;
  EXPECT_TRUE(logged);
}

// The C API's scheme setting: default II, I selectable, bad values rejected at position 1, and the
// handle's knobs reach the scheme (fixed control: the reported bits are the requested ones or, for
// II, the next count the moduli allow).
TEST(TrnblasOzaki, CApiSchemeAndMantissaKnobs) {
  Handle h;
  trnblasEmulationScheme_t s{};
  ASSERT_EQ(trnblasGetFixedPointEmulationScheme(h, &s), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(s, TRNBLAS_EMULATION_SCHEME_OZAKI_II);
  EXPECT_EQ(trnblasSetFixedPointEmulationScheme(h, static_cast<trnblasEmulationScheme_t>(7)), TRNBLAS_STATUS_INVALID_VALUE);
  int pos = 0;
  ASSERT_EQ(trnblasGetLastErrorParameter(h, &pos), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(pos, 1);
  EXPECT_EQ(trnblasGetFixedPointEmulationScheme(nullptr, &s), TRNBLAS_STATUS_NOT_INITIALIZED);

  const int m = 24, n = 24, k = 200;
  const auto A = phi_matrix(static_cast<std::size_t>(m) * k, 0.5, 51), B = phi_matrix(static_cast<std::size_t>(k) * n, 0.5, 52);
  std::vector<double> C(static_cast<std::size_t>(m) * n);
  const double one = 1, zero = 0;
  int bits = -1;
  ASSERT_EQ(trnblasSetFixedPointEmulationMantissaBitCountPointer(h, &bits), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSetFixedPointEmulationMantissaControl(h, TRNBLAS_EMULATION_MANTISSA_CONTROL_FIXED), TRNBLAS_STATUS_SUCCESS);
  for (auto scheme : {TRNBLAS_EMULATION_SCHEME_OZAKI_II, TRNBLAS_EMULATION_SCHEME_OZAKI_I}) {
    ASSERT_EQ(trnblasSetFixedPointEmulationScheme(h, scheme), TRNBLAS_STATUS_SUCCESS);
    double previous = 1;
    for (int want : {24, 40, 64}) {
      ASSERT_EQ(trnblasSetFixedPointEmulationMaxMantissaBitCount(h, want), TRNBLAS_STATUS_SUCCESS);
      ASSERT_EQ(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k, &zero, C.data(), m),
                TRNBLAS_STATUS_SUCCESS);
      EXPECT_GE(bits, want);
      EXPECT_LT(bits, want + (scheme == TRNBLAS_EMULATION_SCHEME_OZAKI_II ? 9 : 8));  // one modulus ~ 4 bits, one slice 8
      const double err = errors_vs_dd(C, A, m, Op::N, B, k, Op::N, m, n, k).normwise;
      // Each input element kept to ~bits bits (relative to its row's largest): error ~2^-bits, and
      // certainly not below 2^-(bits + 16) (below fp64 precision: may be 0) nor above 2^-(bits - 16)
      // for these well-scaled inputs.
      EXPECT_LT(err, std::ldexp(1.0, -(want - 16)) + 1e-16) << want;
      if (want < 53) {
        EXPECT_GT(err, std::ldexp(1.0, -(bits + 16))) << want;
      }
      EXPECT_TRUE(err < previous || err == 0) << want;
      previous = err;
    }
  }
}

// Scheme II's residues of scaled integers whose mantissa lies within p/2 of 2^53 (regression: the
// residual b - A x of a converging refinement, x = 1 - j 2^-53 scaled to ~2^57, returned errors of
// ~1e2 with ||A x|| ~ 1, as p round(mant / p) passed 2^53 and was rounded). Product and residual
// form (alpha = -1, beta = 1, C = b), three right-hand sides, padded leading dimensions, against
// long double: |error| <= 8 u sum_k |a_ik x_kj| (+ u |b_i| for the residual); the defect gave ~1e3
// relative.
TEST(TrnblasOzaki, MantissasJustBelowTwoTo53KeepExactResidues) {
  const int n = 64, nrhs = 3, lda = n + 3, ldx = n + 5, ldc = n + 1;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> j(1, 64);
  std::vector<double> A(static_cast<std::size_t>(lda) * n), X(static_cast<std::size_t>(ldx) * nrhs);
  for (auto& a : A) a = u(rng);
  for (auto& x : X) x = 1.0 - std::ldexp(static_cast<double>(j(rng)), -53);  // significand 2^53 - j
  std::vector<double> b(static_cast<std::size_t>(ldc) * nrhs, 0.0);
  for (int c = 0; c < nrhs; ++c)
    for (int i = 0; i < n; ++i) {
      long double s = 0;
      for (int p = 0; p < n; ++p) s += static_cast<long double>(A[static_cast<std::size_t>(i + p * lda)]);
      b[static_cast<std::size_t>(i + c * ldc)] = static_cast<double>(s);  // A 1: the residual is tiny
    }
  for (OzakiScheme scheme : kSchemes)
    for (bool residual : {false, true}) {
      std::vector<double> C = b;
      trn::blas::dgemm(settings_of(scheme), Op::N, Op::N, n, nrhs, n, residual ? -1.0 : 1.0, A.data(), lda,
                       X.data(), ldx, residual ? 1.0 : 0.0, C.data(), ldc);
      int beyond = 0;
      for (int c = 0; c < nrhs; ++c)
        for (int i = 0; i < n; ++i) {
          long double dot = 0, mag = 0;
          for (int p = 0; p < n; ++p) {
            const long double t = static_cast<long double>(A[static_cast<std::size_t>(i + p * lda)]) *
                                  X[static_cast<std::size_t>(p + c * ldx)];
            dot += t;
            mag += std::fabs(t);
          }
          const double bi = b[static_cast<std::size_t>(i + c * ldc)];
          const long double ref = residual ? bi - dot : dot;
          const double bound = 8 * kU * static_cast<double>(mag) + (residual ? kU * std::fabs(bi) : 0.0);
          if (!(std::fabs(C[static_cast<std::size_t>(i + c * ldc)] - static_cast<double>(ref)) <= bound)) ++beyond;
        }
      EXPECT_EQ(beyond, 0) << trn::blas::ozaki_scheme_name(scheme) << (residual ? " residual" : " product");
    }
}

// Same inputs, same bits for 1, 2 and 3 host threads and 1 or 2 emulated cores (both schemes).
TEST(TrnblasOzaki, BitIdenticalAcrossThreadsAndCores) {
  const int m = 70, n = 50, k = 1200;
  const auto A = phi_matrix(static_cast<std::size_t>(m) * k, 2.0, 61), B = phi_matrix(static_cast<std::size_t>(k) * n, 2.0, 62);
  for (OzakiScheme scheme : kSchemes) {
    std::vector<double> first;
    for (int threads : {1, 2, 3})
      for (int cores : {1, 2}) {
        Settings s = settings_of(scheme);
        s.host_threads = threads;
        s.num_cores = cores;
        std::vector<double> C(static_cast<std::size_t>(m) * n, 0.5);
        trn::blas::dgemm(s, Op::N, Op::N, m, n, k, 1.5, A.data(), m, B.data(), k, -0.25,
                         C.data(), m);
        if (first.empty())
          first = C;
        else
          EXPECT_EQ(std::memcmp(first.data(), C.data(), C.size() * sizeof(double)), 0)
              << trn::blas::ozaki_scheme_name(scheme) << " threads " << threads << " cores " << cores;
      }
  }
}

// ---- small DGEMMs: Dot2 on GpSimdE (ozaki.hpp, gemm_dot2) -----------------------------------------

// Ogita-Rump-Oishi Dot2 (Algorithm 5.3, TwoProduct by fma) of op(A)'s row i and op(B)'s column j,
// written out independently of the library: the operator's bits.
double dot2_reference(const std::vector<double>& A, std::int64_t lda, Op ta, const std::vector<double>& B,
                      std::int64_t ldb, Op tb, int i, int j, int k) {
  double p = at(A, lda, ta, i, 0) * at(B, ldb, tb, 0, j);
  double e = std::fma(at(A, lda, ta, i, 0), at(B, ldb, tb, 0, j), -p);
  for (int kk = 1; kk < k; ++kk) {
    const double a = at(A, lda, ta, i, kk), b = at(B, ldb, tb, kk, j);
    const double h = a * b, r = std::fma(a, b, -h);
    const double s = p + h, z = s - p, q = (p - (s - z)) + (h - z);
    p = s;
    e = e + (q + r);
  }
  return std::isfinite(p) ? p + e : p;
}

// The small shapes LAPACK's test programs call (and the bench's 16^3 / 32^3), both ops, alpha / beta
// (beta 0 with NaN in C: never read), padded leading dimensions: every output bit-equal to the
// reference Dot2 and the alpha / beta epilogue; the report has no TensorE pass and names the plan.
// The settings a caller's own BLAS call gets (the C API, the shim): Dot2 up to kDot2MaxMacs. The
// kit's default keeps the Ozaki scheme (blas.hpp: library-internal products).
Settings dot2_settings() {
  Settings s;
  s.dgemm_dot2_max_macs = trn::blas::kDot2MaxMacs;
  return s;
}

TEST(TrnblasDot2, SmallDgemmsAreDot2OnGpsimdBitForBit) {
  struct Shape { int m, n, k; };
  for (Shape sh : {Shape{16, 16, 16}, Shape{32, 32, 32}, Shape{1, 7, 5}, Shape{5, 1, 9}, Shape{50, 9, 25}, Shape{3, 40, 2}})
    for (Op ta : {Op::N, Op::T})
      for (Op tb : {Op::N, Op::T})
        for (double beta : {0.0, -0.75}) {
          const int m = sh.m, n = sh.n, k = sh.k;
          const int lda = (ta == Op::N ? m : k) + 2, ldb = (tb == Op::N ? k : n) + 1, ldc = m + 3;
          const auto A = phi_matrix(static_cast<std::size_t>(lda) * (ta == Op::N ? k : m), 1.0, 71);
          const auto B = phi_matrix(static_cast<std::size_t>(ldb) * (tb == Op::N ? n : k), 1.0, 72);
          std::vector<double> C(static_cast<std::size_t>(ldc) * n, beta == 0.0 ? std::nan("") : 0.375);
          const std::vector<double> C0 = C;
          CallReport r;
          r.plans_wanted = true;
          const double alpha = 1.25;
          trn::blas::dgemm(dot2_settings(), ta, tb, m, n, k, alpha, A.data(), lda, B.data(), ldb, beta, C.data(), ldc, &r);
          int wrong = 0;
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
              const double v = alpha * dot2_reference(A, lda, ta, B, ldb, tb, i, j, k);
              const double want = beta == 0.0 ? v : v + beta * C0[static_cast<std::size_t>(i + j * ldc)];
              const double got = C[static_cast<std::size_t>(i + j * ldc)];
              wrong += std::memcmp(&want, &got, sizeof got) != 0;
            }
          EXPECT_EQ(wrong, 0) << m << "x" << n << "x" << k << " ta " << (ta == Op::T) << " tb " << (tb == Op::T);
          for (int j = 0; j < n; ++j)  // the padding rows of C untouched
            for (int i = m; i < ldc; ++i)
              EXPECT_TRUE(std::isnan(C[static_cast<std::size_t>(i + j * ldc)]) == std::isnan(C0[static_cast<std::size_t>(i + j * ldc)]));
          EXPECT_EQ(r.tensor_passes, 0);
          EXPECT_NE(r.plan.find("dot2_gpsimd"), std::string::npos) << r.plan;
          EXPECT_GT(r.modeled_ns(), 0.0);
        }
}

// Twice the working precision: cancellation that a plain fp64 dot product (and OpenBLAS) loses
// entirely comes out exact, and on ill-conditioned phi data every output stays within the Dot2 bound
// u |c| + gamma_k^2 |a|^T |b| of the double-double reference.
TEST(TrnblasDot2, CancellationIsKeptWithinTheDot2Bound) {
  const std::vector<double> a = {1e16, 1.0, -1e16, 3.0}, b = {1.0, 1.0, 1.0, 0.5};
  double c = -7;
  trn::blas::dgemm(dot2_settings(), Op::N, Op::N, 1, 1, 4, 1.0, a.data(), 1, b.data(), 4, 0.0, &c, 1);
  EXPECT_EQ(c, 2.5);
  const int m = 20, n = 20, k = 24;
  const auto A = phi_matrix(static_cast<std::size_t>(m) * k, 8.0, 73), B = phi_matrix(static_cast<std::size_t>(k) * n, 8.0, 74);
  std::vector<double> C(static_cast<std::size_t>(m) * n);
  trn::blas::dgemm(dot2_settings(), Op::N, Op::N, m, n, k, 1.0, A.data(), m, B.data(), k, 0.0, C.data(), m);
  const double gk = k * kU / (1 - k * kU);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      blastest::DD acc;
      double abs = 0;
      for (int p = 0; p < k; ++p) {
        dd_add_prod(acc, A[static_cast<std::size_t>(i + p * m)], B[static_cast<std::size_t>(p + j * k)]);
        abs += std::fabs(A[static_cast<std::size_t>(i + p * m)] * B[static_cast<std::size_t>(p + j * k)]);
      }
      const double ref = acc.hi + acc.lo, got = C[static_cast<std::size_t>(i + j * m)];
      EXPECT_LE(std::fabs(got - ref), kU * std::fabs(ref) + 2 * gk * gk * abs + 4 * kU * std::fabs(acc.lo)) << i << "," << j;
    }
}

// Inf and NaN propagate as in an IEEE dot product (OpenBLAS): an Inf times finite nonzero terms stays
// Inf (the compensation's Inf - Inf is not returned), Inf times 0 is NaN.
TEST(TrnblasDot2, InfAndNanPropagateAsOpenBlas) {
  const int m = 3, n = 2, k = 3;
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> A = {inf, 1, 2, 1, 1, 1, 2, 3, 4};  // row 0 holds Inf
  const std::vector<double> B = {1, 2, 3, 0, 1, 1};             // column 1 meets Inf with 0
  std::vector<double> C(m * n), R(m * n);
  trn::blas::dgemm(dot2_settings(), Op::N, Op::N, m, n, k, 1.0, A.data(), m, B.data(), k, 0.0, C.data(), m);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A.data(), m, B.data(), k, 0.0, R.data(), m);
  for (int e = 0; e < m * n; ++e) {
    EXPECT_EQ(std::isnan(C[e]), std::isnan(R[e])) << e;
    if (!std::isnan(R[e])) {
      EXPECT_EQ(C[e], R[e]) << e;
    }
  }
  EXPECT_EQ(C[0], inf);
  EXPECT_TRUE(std::isnan(C[3]));
}

// The knobs: Settings::dgemm_dot2_max_macs = 0, the C API's EMULATION_STRATEGY_EAGER, a fixed
// mantissa count or scheme I keep the Ozaki scheme (TensorE passes in the report); past the size
// limit the Ozaki scheme runs too.
TEST(TrnblasDot2, KnobsAndSizeLimitKeepTheOzakiScheme) {
  const int m = 16, n = 16, k = 16;
  const auto A = phi_matrix(static_cast<std::size_t>(m) * k, 0.5, 75), B = phi_matrix(static_cast<std::size_t>(k) * n, 0.5, 76);
  std::vector<double> C(static_cast<std::size_t>(m) * n);
  const auto passes = [&](const Settings& s, int mm, int nn, int kk) {
    std::vector<double> a(static_cast<std::size_t>(mm) * kk, 0.5), b(static_cast<std::size_t>(kk) * nn, 0.25), c(static_cast<std::size_t>(mm) * nn);
    CallReport r;
    trn::blas::dgemm(s, Op::N, Op::N, mm, nn, kk, 1.0, a.data(), mm, b.data(), kk, 0.0, c.data(), mm, &r);
    return r.tensor_passes;
  };
  EXPECT_EQ(passes(dot2_settings(), m, n, k), 0);
  Settings off;
  off.dgemm_dot2_max_macs = 0;
  EXPECT_GT(passes(off, m, n, k), 0);
  EXPECT_GT(passes(Settings{}, m, n, k), 0);  // the kit's default: library-internal products keep Ozaki
  Settings fixed = dot2_settings();
  fixed.ozaki_fixed = true;
  fixed.ozaki_max_mantissa_bits = 40;
  EXPECT_GT(passes(fixed, m, n, k), 0);
  Settings slices = dot2_settings();
  slices.ozaki_scheme = OzakiScheme::slices;
  EXPECT_GT(passes(slices, m, n, k), 0);
  EXPECT_EQ(passes(dot2_settings(), 129, 4, 4), 0);    // C^T on the partitions: 4 rows
  EXPECT_GT(passes(dot2_settings(), 129, 130, 2), 0);  // more rows and columns than partitions
  EXPECT_GT(passes(dot2_settings(), 64, 64, 64), 0);  // 32 columns x 64 per partition > 512
  Handle h;
  const double one = 1, zero = 0;
  ASSERT_EQ(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k, &zero, C.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  trnProfile_t prof{};
  ASSERT_EQ(trnblasGetLastProfile(h, &prof), TRNBLAS_STATUS_SUCCESS);
  const auto dot2_instructions = prof.instructions;
  ASSERT_EQ(trnblasSetEmulationStrategy(h, TRNBLAS_EMULATION_STRATEGY_EAGER), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k, &zero, C.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGetLastProfile(h, &prof), TRNBLAS_STATUS_SUCCESS);
  EXPECT_GT(prof.instructions, dot2_instructions);
}

// One program: the same bits for 1, 2 and 3 host threads and 1 or 2 emulated cores.
TEST(TrnblasDot2, BitIdenticalAcrossThreadsAndCores) {
  const int m = 24, n = 20, k = 30;
  const auto A = phi_matrix(static_cast<std::size_t>(m) * k, 2.0, 77), B = phi_matrix(static_cast<std::size_t>(k) * n, 2.0, 78);
  std::vector<double> first;
  for (int threads : {1, 2, 3})
    for (int cores : {1, 2}) {
      Settings s = dot2_settings();
      s.host_threads = threads;
      s.num_cores = cores;
      std::vector<double> C(static_cast<std::size_t>(m) * n, 0.5);
      trn::blas::dgemm(s, Op::N, Op::T, m, n, k, 1.5, A.data(), m, B.data(), n, -0.25, C.data(), m);
      if (first.empty())
        first = C;
      else
        EXPECT_EQ(std::memcmp(first.data(), C.data(), C.size() * sizeof(double)), 0) << threads << " " << cores;
    }
}

}  // namespace
