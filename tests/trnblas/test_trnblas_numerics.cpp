// trnblas numerics: the bit contract of bf16 GemmEx, every mode's accuracy against its documented
// bound (docs/trnblas.md, Modes: bf16x3 ~4e-6, x6/x9 <= SGEMM), Ozaki DGEMM against OpenBLAS DGEMM
// on GEMMul8's phi generator (Uchino, Ozaki, Imamura, SC '25) with a double-double reference, the
// trn1_measured degradation, SYRK, and determinism across host threads and emulated cores.
#include <cblas.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "blas_test_util.hpp"
#include "trn/blas/modes.hpp"
#include "trnblas.h"

using namespace blastest;

namespace {

using blastest::Handle;

// Relative Frobenius error of C (m x n, column-major ldc = m) against the fp64 product of the fp32 inputs.
double rel_frobenius(const std::vector<float>& C, const std::vector<float>& A, const std::vector<float>& B, int m, int n,
                     int k, bool ta, bool tb) {
  return blastest::rel_frobenius(C, A, ta ? k : m, ta, B, tb ? n : k, tb, m, n, k);
}

float compute_ex(trnblasHandle_t h, trnblasComputeType_t ct, int m, int n, int k, const std::vector<float>& A,
                 const std::vector<float>& B, std::vector<float>& C, bool ta = false, bool tb = false) {
  const float one = 1.0f, zero = 0.0f;
  EXPECT_EQ(trnblasGemmEx(h, ta ? TRNBLAS_OP_T : TRNBLAS_OP_N, tb ? TRNBLAS_OP_T : TRNBLAS_OP_N, m, n, k, &one,
                          A.data(), TRN_R_32F, ta ? k : m, B.data(), TRN_R_32F, tb ? n : k, &zero, C.data(), TRN_R_32F,
                          m, ct, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  return 0;
}

TEST(TrnblasNumerics, Bf16GemmExBitsEqualTheTileByTileFp32Contract) {
  Handle h;
  // Partial tiles in every dimension, 3 K tiles. 70 x 600 runs as one streaming block; 1100 x 300
  // takes the resident plan (op(B) strip loaded once, two passes over m, the second partial).
  for (auto [m, n, k] : {std::tuple{70, 600, 300}, std::tuple{1100, 300, 300}}) {
    auto A = uniform_f(static_cast<std::size_t>(m) * k, 1), B = uniform_f(static_cast<std::size_t>(k) * n, 2);
    std::vector<std::uint16_t> Ab(A.size()), Bb(B.size());
    for (std::size_t i = 0; i < A.size(); ++i) {
      std::uint32_t u;
      std::memcpy(&u, &A[i], 4);
      Ab[i] = static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);  // RNE to bf16
    }
    for (std::size_t i = 0; i < B.size(); ++i) {
      std::uint32_t u;
      std::memcpy(&u, &B[i], 4);
      Bb[i] = static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
    }
    auto widen = [](std::uint16_t b) {
      const std::uint32_t u = std::uint32_t{b} << 16;
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    };
    std::vector<float> C(static_cast<std::size_t>(m) * n, std::numeric_limits<float>::quiet_NaN());
    const float one = 1.0f, zero = 0.0f;
    ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, Ab.data(), TRN_R_16BF, m, Bb.data(), TRN_R_16BF,
                            k, &zero, C.data(), TRN_R_32F, m, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
              TRNBLAS_STATUS_SUCCESS);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        float acc = 0.0f;
        for (int k0 = 0; k0 < k; k0 += 128) {
          float s = 0.0f;
          for (int p = k0; p < std::min(k, k0 + 128); ++p) {
            const float prod = widen(Ab[static_cast<std::size_t>(i + p * m)]) * widen(Bb[static_cast<std::size_t>(p + j * k)]);
            s = s + prod;  // product exact; one fp32 rounding per step
          }
          acc = k0 == 0 ? s : acc + s;
        }
        ASSERT_EQ(C[static_cast<std::size_t>(i + j * m)], acc) << m << "x" << n << ": " << i << "," << j;
      }
  }
}

TEST(TrnblasNumerics, SgemmMatchesOpenBlasWithinTheAccumulationBound) {
  Handle h;
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      const int m = 130, n = 260, k = 200;
      const auto A = uniform_f(static_cast<std::size_t>(m) * k, 3), B = uniform_f(static_cast<std::size_t>(k) * n, 4);
      auto C = uniform_f(static_cast<std::size_t>(m) * n, 5);
      auto R = C;
      const float alpha = 0.75f, beta = -1.25f;
      const int lda = ta ? k : m, ldb = tb ? n : k;
      ASSERT_EQ(trnblasSgemm(h, ta ? TRNBLAS_OP_T : TRNBLAS_OP_N, tb ? TRNBLAS_OP_T : TRNBLAS_OP_N, m, n, k, &alpha,
                             A.data(), lda, B.data(), ldb, &beta, C.data(), m),
                TRNBLAS_STATUS_SUCCESS);
      cblas_sgemm(CblasColMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, alpha,
                  A.data(), lda, B.data(), ldb, beta, R.data(), m);
      // |C - R| <= 2 (k + 2) u (|alpha| sum |a||b| + |beta||c|) componentwise (both are fp32 GEMMs).
      const auto C0 = uniform_f(static_cast<std::size_t>(m) * n, 5);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          double absum = 0;
          for (int p = 0; p < k; ++p) absum += std::fabs(double(at(A, lda, ta, i, p)) * at(B, ldb, tb, p, j));
          const double bound = 2.0 * (k + 2) * 0x1p-24 * (std::fabs(alpha) * absum + std::fabs(beta * C0[i + j * m]));
          ASSERT_LE(std::fabs(double(C[i + j * m]) - R[i + j * m]), bound) << ta << tb << " " << i << "," << j;
        }
    }
}

// Every fp32-input mode of the precision-mode table lands inside its two-sided band (the
// derivations are in trn/blas/modes.hpp; the band is what docs/trnblas.md prints).
TEST(TrnblasNumerics, EveryModeMeetsItsDocumentedAccuracy) {
  Handle h;
  const int n = 256;
  const auto A = uniform_f(static_cast<std::size_t>(n) * n, 7), B = uniform_f(static_cast<std::size_t>(n) * n, 8);
  std::vector<float> C(static_cast<std::size_t>(n) * n), R(C.size());
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A.data(), n, B.data(), n, 0.0f, R.data(), n);
  const double sgemm = rel_frobenius(R, A, B, n, n, n, false, false);
  int checked = 0;
  double x6 = 0, x9 = 0;
  for (const trn::blas::ModeTraits& m : trn::blas::mode_table()) {
    if (m.mode == trn::blas::GemmMode::fp64_ozaki || m.mode == trn::blas::GemmMode::native) continue;
    compute_ex(h, static_cast<trnblasComputeType_t>(m.compute_type), n, n, n, A, B, C);
    const double err = rel_frobenius(C, A, B, n, n, n, false, false);
    const auto [lo, hi] = m.band(n);
    EXPECT_GE(err, lo) << m.name;
    EXPECT_LE(err, hi) << m.name << " (OpenBLAS SGEMM " << sgemm << ")";
    if (m.mode == trn::blas::GemmMode::bf16x6) x6 = err;
    if (m.mode == trn::blas::GemmMode::bf16x9) x9 = err;
    ++checked;
  }
  EXPECT_EQ(checked, 9);
  EXPECT_LE(x6, 1.1 * x9);
  EXPECT_LE(x9, 1.5 * sgemm);  // the 9-product split is fp32-accurate
}

TEST(TrnblasNumerics, ModeTableCoversEveryModeAndComputeType) {
  using trn::blas::GemmMode;
  for (GemmMode m : {GemmMode::fp32, GemmMode::tf32, GemmMode::fp16, GemmMode::bf16, GemmMode::fp8_e4m3,
                     GemmMode::fp8_e5m2, GemmMode::bf16x3, GemmMode::bf16x6, GemmMode::bf16x9, GemmMode::fp64_ozaki,
                     GemmMode::native}) {
    const auto& t = trn::blas::mode_traits(m);
    EXPECT_EQ(t.mode, m);
    EXPECT_EQ(trn::blas::mode_by_name(t.name), &t);
    // A split mode issues one TensorE pass per product of terms; the others one product.
    EXPECT_EQ(t.pairs.size(), t.terms > 1 ? static_cast<std::size_t>(t.tensor_passes) : 1u) << t.name;
    if (t.compute_type >= 0 && m != GemmMode::fp64_ozaki) {
      EXPECT_EQ(trn::blas::mode_by_compute_type(t.compute_type), &t);
    }
  }
  EXPECT_EQ(trn::blas::mode_by_name("no-such-mode"), nullptr);
  EXPECT_EQ(trn::blas::mode_by_compute_type(TRNBLAS_COMPUTE_32F), nullptr);  // follows the math mode
}

TEST(TrnblasNumerics, Trn1MeasuredErasesTheCompensatedGain) {
  Handle h;
  const int n = 128;
  const auto A = uniform_f(static_cast<std::size_t>(n) * n, 9), B = uniform_f(static_cast<std::size_t>(n) * n, 10);
  std::vector<float> C(static_cast<std::size_t>(n) * n);
  compute_ex(h, TRNBLAS_COMPUTE_32F_EMULATED_16BFX3, n, n, n, A, B, C);
  const double ideal = rel_frobenius(C, A, B, n, n, n, false, false);
  ASSERT_EQ(trnblasSetNumericsProfile(h, TRN_NUMERICS_TRN1_MEASURED), TRNBLAS_STATUS_SUCCESS);
  compute_ex(h, TRNBLAS_COMPUTE_32F_EMULATED_16BFX3, n, n, n, A, B, C);
  const double measured = rel_frobenius(C, A, B, n, n, n, false, false);
  compute_ex(h, TRNBLAS_COMPUTE_32F_FAST_16BF, n, n, n, A, B, C);
  const double plain = rel_frobenius(C, A, B, n, n, n, false, false);
  // trnfft on trn1/trn2: compensated ~1.7e-3, no better than plain bf16 ~1.5e-3 (trnfft v0.19.0 CHANGELOG).
  EXPECT_LT(ideal, 5e-6);
  EXPECT_GT(measured, 3e-4);
  EXPECT_GT(measured, 0.2 * plain);
}

struct OzakiError {
  double normwise, maxcomp;
};
OzakiError errors_vs_dd(const std::vector<double>& C, const std::vector<double>& A, const std::vector<double>& B, int m,
                        int n, int k) {
  double num = 0, den = 0, mx = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      DD acc;
      for (int p = 0; p < k; ++p) dd_add_prod(acc, A[static_cast<std::size_t>(i + p * m)], B[static_cast<std::size_t>(p + j * k)]);
      const double ref = acc.hi;
      const double d = C[static_cast<std::size_t>(i + j * m)] - ref;
      num += d * d;
      den += ref * ref;
      if (ref != 0) mx = std::max(mx, std::fabs(d / ref));
    }
  return {std::sqrt(num / den), mx};
}

TEST(TrnblasNumerics, OzakiDgemmIsAtLeastAsAccurateAsOpenBlasDgemm) {
  Handle h;
  const int m = 40, n = 36, k = 300;
  for (double phi : {0.5, 2.0, 4.0}) {
    const auto A = phi_matrix(static_cast<std::size_t>(m) * k, phi, 11), B = phi_matrix(static_cast<std::size_t>(k) * n, phi, 12);
    std::vector<double> C(static_cast<std::size_t>(m) * n, std::numeric_limits<double>::quiet_NaN()), R(C.size());
    const double one = 1.0, zero = 0.0;
    int bits = 0;
    ASSERT_EQ(trnblasSetFixedPointEmulationMantissaBitCountPointer(h, &bits), TRNBLAS_STATUS_SUCCESS);
    ASSERT_EQ(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k, &zero, C.data(), m),
              TRNBLAS_STATUS_SUCCESS);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A.data(), m, B.data(), k, 0.0, R.data(), m);
    const OzakiError oz = errors_vs_dd(C, A, B, m, n, k), nat = errors_vs_dd(R, A, B, m, n, k);
    EXPECT_LE(oz.normwise, std::max(nat.normwise, 1e-17)) << "phi " << phi;
    EXPECT_LE(oz.maxcomp, std::max(nat.maxcomp, 1e-16)) << "phi " << phi;
    EXPECT_GT(bits, 53) << "phi " << phi;
    trnProfile_t p;
    ASSERT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
    EXPECT_GT(p.instructions_per_engine[TRN_ENGINE_TENSOR], 0);
  }
}

TEST(TrnblasNumerics, OzakiMantissaCapTradesAccuracyAndMeasuredProductsDegrade) {
  Handle h;
  const int m = 32, n = 32, k = 256;
  const auto A = phi_matrix(static_cast<std::size_t>(m) * k, 0.5, 13), B = phi_matrix(static_cast<std::size_t>(k) * n, 0.5, 14);
  std::vector<double> C(static_cast<std::size_t>(m) * n);
  const double one = 1.0, zero = 0.0;
  auto run = [&] {
    EXPECT_EQ(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k, &zero, C.data(), m),
              TRNBLAS_STATUS_SUCCESS);
    return errors_vs_dd(C, A, B, m, n, k).normwise;
  };
  const double full = run();
  ASSERT_EQ(trnblasSetFixedPointEmulationMaxMantissaBitCount(h, 24), TRNBLAS_STATUS_SUCCESS);
  const double capped = run();
  EXPECT_LT(full, 1e-15);
  EXPECT_GT(capped, 1e-9);  // ~24 bits kept (scheme II: the fewest moduli keeping >= 24): single-precision class
  EXPECT_LT(capped, 1e-5);
  ASSERT_EQ(trnblasSetFixedPointEmulationMaxMantissaBitCount(h, 0), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSetNumericsProfile(h, TRN_NUMERICS_TRN1_MEASURED), TRNBLAS_STATUS_SUCCESS);
  const double measured = run();
  EXPECT_GT(measured, 1e-4) << "8-bit slice products rounded to bf16 lose the scheme (docs/numerics.md section 1)";
}

TEST(TrnblasNumerics, OzakiPropagatesInfAndNan) {
  Handle h;
  const int m = 4, n = 3, k = 5;
  std::vector<double> A(m * k, 1.0), B(k * n, 2.0), C(m * n, 0.0);
  A[1 + 2 * m] = std::numeric_limits<double>::infinity();  // row 1
  B[3 + 2 * k] = std::numeric_limits<double>::quiet_NaN();  // column 2
  const double one = 1.0, zero = 0.0;
  ASSERT_EQ(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k, &zero, C.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(C[0], 10.0);
  EXPECT_TRUE(std::isinf(C[1]));
  for (int i = 0; i < m; ++i) EXPECT_TRUE(std::isnan(C[i + 2 * m]));
}

TEST(TrnblasNumerics, SyrkWritesOnlyItsTriangle) {
  Handle h;
  for (auto uplo : {TRNBLAS_FILL_MODE_LOWER, TRNBLAS_FILL_MODE_UPPER})
    for (bool trans : {false, true}) {
      for (const int n : {200, 1100}) {  // 1100: resident plan, diagonal tiles in two passes
        const int k = 150;
        const auto A = uniform_f(static_cast<std::size_t>(n) * k, 15);
        std::vector<float> C(static_cast<std::size_t>(n) * n);
        const auto C0 = uniform_f(C.size(), 16);
        C = C0;
        // Poison the other triangle with a NaN payload that must survive bit for bit.
        const std::uint32_t poison = 0x7fa5a5a5u;
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i)
            if (uplo == TRNBLAS_FILL_MODE_LOWER ? i < j : i > j) std::memcpy(&C[i + j * n], &poison, 4);
        const float alpha = 1.5f, beta = 0.5f;
        ASSERT_EQ(trnblasSsyrk(h, uplo, trans ? TRNBLAS_OP_T : TRNBLAS_OP_N, n, k, &alpha, A.data(), trans ? k : n, &beta,
                               C.data(), n),
                  TRNBLAS_STATUS_SUCCESS);
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i) {
            const bool in = uplo == TRNBLAS_FILL_MODE_LOWER ? i >= j : i <= j;
            if (!in) {
              std::uint32_t u;
              std::memcpy(&u, &C[i + j * n], 4);
              ASSERT_EQ(u, poison) << i << "," << j;
              continue;
            }
            double r = 0, absum = 0;
            for (int p = 0; p < k; ++p) {
              const double x = double(at(A, trans ? k : n, trans, i, p)) * at(A, trans ? k : n, trans, j, p);
              r += x;
              absum += std::fabs(x);
            }
            r = alpha * r + beta * C0[i + j * n];
            ASSERT_NEAR(C[i + j * n], r, 2.0 * (k + 2) * 0x1p-24 * (alpha * absum + beta * std::fabs(C0[i + j * n])))
                << "n=" << n << ": " << i << "," << j;
          }
      }
    }
}

TEST(TrnblasNumerics, BitIdenticalForAnyThreadAndCoreCount) {
  const int m = 1100, n = 1100, k = 260;  // two programs (resident plan); SR on the bf16 output cast
  const auto A = uniform_f(static_cast<std::size_t>(m) * k, 17), B = uniform_f(static_cast<std::size_t>(k) * n, 18);
  std::vector<std::uint16_t> first;
  for (auto [threads, cores] : {std::pair{1, 1}, std::pair{2, 2}, std::pair{3, 4}}) {
    setenv("TRN_NUM_THREADS", std::to_string(threads).c_str(), 1);
    Handle h;
    ASSERT_EQ(trnblasSetNumCores(h, cores), TRNBLAS_STATUS_SUCCESS);
    ASSERT_EQ(trnblasSetStochasticRounding(h, 1, 99), TRNBLAS_STATUS_SUCCESS);
    std::vector<std::uint16_t> C(static_cast<std::size_t>(m) * n);  // bf16 C: SR on the final cast
    const float one = 1.0f, zero = 0.0f;
    ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_T, m, n, k, &one, A.data(), TRN_R_32F, m, B.data(), TRN_R_32F, n,
                            &zero, C.data(), TRN_R_16BF, m, TRNBLAS_COMPUTE_32F_EMULATED_16BFX3, TRNBLAS_GEMM_DEFAULT),
              TRNBLAS_STATUS_SUCCESS);
    if (first.empty())
      first = C;
    else
      EXPECT_EQ(C, first) << threads << " threads, " << cores << " cores";
  }
  unsetenv("TRN_NUM_THREADS");
}

TEST(TrnblasNumerics, BatchedEqualsLoopOfSingleGemms) {
  Handle h;
  const int m = 64, n = 96, k = 80, batch = 3;
  const auto A = uniform_f(static_cast<std::size_t>(m) * k * batch, 19), B = uniform_f(static_cast<std::size_t>(k) * n * batch, 20);
  std::vector<float> C1(static_cast<std::size_t>(m) * n * batch), C2(C1.size()), C3(C1.size());
  const float alpha = 2.0f, beta = 0.0f;
  ASSERT_EQ(trnblasSgemmStridedBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data(), m, m * k, B.data(), k,
                                       k * n, &beta, C1.data(), m, m * n, batch),
            TRNBLAS_STATUS_SUCCESS);
  std::vector<const void*> ap, bp;
  std::vector<void*> cp;
  for (int b = 0; b < batch; ++b) {
    ASSERT_EQ(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, A.data() + b * m * k, m,
                           B.data() + b * k * n, k, &beta, C2.data() + b * m * n, m),
              TRNBLAS_STATUS_SUCCESS);
    ap.push_back(A.data() + b * m * k);
    bp.push_back(B.data() + b * k * n);
    cp.push_back(C3.data() + b * m * n);
  }
  ASSERT_EQ(trnblasGemmBatchedEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &alpha, ap.data(), TRN_R_32F, m, bp.data(),
                                 TRN_R_32F, k, &beta, cp.data(), TRN_R_32F, m, batch, TRNBLAS_COMPUTE_32F,
                                 TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(std::memcmp(C1.data(), C2.data(), C1.size() * 4), 0);
  EXPECT_EQ(std::memcmp(C3.data(), C2.data(), C1.size() * 4), 0);
}

}  // namespace
