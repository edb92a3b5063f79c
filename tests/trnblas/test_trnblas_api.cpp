// trnblas C API: handles, settings, argument checking with parameter positions (nothing written on
// error), BLAS corner cases (beta == 0 never reads C, alpha == 0 never reads A/B, quick returns),
// NOT_SUPPORTED combinations, logging, and the last-call profile.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "blas_test_util.hpp"
#include "trnblas.h"

namespace {

using blastest::Handle;

std::vector<std::string> g_log;
void capture(const char* msg) { g_log.emplace_back(msg); }

TEST(TrnblasApi, EnumValuesAreCublasValues) {
  EXPECT_EQ(TRNBLAS_STATUS_INVALID_VALUE, 7);
  EXPECT_EQ(TRNBLAS_STATUS_NOT_SUPPORTED, 15);
  EXPECT_EQ(TRNBLAS_COMPUTE_32F, 68);
  EXPECT_EQ(TRNBLAS_COMPUTE_32F_EMULATED_16BFX9, 78);
  EXPECT_EQ(TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT, 79);
  EXPECT_EQ(TRNBLAS_FP32_EMULATED_BF16X9_MATH, 4);
  EXPECT_EQ(TRN_R_16BF, 14);
  EXPECT_EQ(TRN_R_8F_E4M3, 28);
  EXPECT_GE(TRNBLAS_COMPUTE_32F_EMULATED_16BFX3, 1000);
  EXPECT_STREQ(trnblasGetStatusName(TRNBLAS_STATUS_INVALID_VALUE), "TRNBLAS_STATUS_INVALID_VALUE");
  EXPECT_NE(std::string(trnblasGetStatusString(TRNBLAS_STATUS_NOT_SUPPORTED)).size(), 0u);
}

TEST(TrnblasApi, HandleLifecycleAndSettingsRoundTrip) {
  EXPECT_EQ(trnblasCreate(nullptr), TRNBLAS_STATUS_INVALID_VALUE);
  trnblasHandle_t h;
  ASSERT_EQ(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
  int v = 0;
  EXPECT_EQ(trnblasGetVersion(h, &v), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(v, TRNBLAS_VERSION);
  EXPECT_EQ(trnblasSetTarget(h, TRN_TARGET_TRN2), TRNBLAS_STATUS_SUCCESS);
  trnTarget_t t;
  EXPECT_EQ(trnblasGetTarget(h, &t), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(t, TRN_TARGET_TRN2);
  EXPECT_EQ(trnblasSetTarget(h, static_cast<trnTarget_t>(7)), TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnblasSetNumericsProfile(h, TRN_NUMERICS_TRN1_MEASURED), TRNBLAS_STATUS_SUCCESS);
  trnNumerics_t p;
  EXPECT_EQ(trnblasGetNumericsProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(p, TRN_NUMERICS_TRN1_MEASURED);
  EXPECT_EQ(trnblasSetStochasticRounding(h, 1, 1234ull), TRNBLAS_STATUS_SUCCESS);
  int en = 0;
  unsigned long long seed = 0;
  EXPECT_EQ(trnblasGetStochasticRounding(h, &en, &seed), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(en, 1);
  EXPECT_EQ(seed, 1234ull);
  EXPECT_EQ(trnblasSetNumCores(h, 0), TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnblasSetNumCores(h, 2), TRNBLAS_STATUS_SUCCESS);
  int cores = 0;
  EXPECT_EQ(trnblasGetNumCores(h, &cores), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cores, 2);
  int dummy;
  trnStream_t s = &dummy, s2 = nullptr;
  EXPECT_EQ(trnblasSetStream(h, s), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(trnblasGetStream(h, &s2), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(s2, s);
  EXPECT_EQ(trnblasSetMathMode(h, TRNBLAS_TF32_TENSOR_OP_MATH), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(trnblasSetMathMode(h, static_cast<trnblasMath_t>(5)), TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(trnblasSetEmulationStrategy(h, TRNBLAS_EMULATION_STRATEGY_EAGER), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(trnblasSetFixedPointEmulationMaxMantissaBitCount(h, -1), TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnblasSetFixedPointEmulationMantissaBitOffset(h, -8), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(trnblasSetWorkspace(h, nullptr, 0), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(trnblasDestroy(h), TRNBLAS_STATUS_NOT_INITIALIZED);  // destroyed handle
  float x = 1;
  EXPECT_EQ(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 1, 1, &x, &x, 1, &x, 1, &x, &x, 1),
            TRNBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(trnblasSgemm(nullptr, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 1, 1, &x, &x, 1, &x, 1, &x, &x, 1),
            TRNBLAS_STATUS_NOT_INITIALIZED);
}

TEST(TrnblasApi, InvalidArgumentsNameTheirPositionAndWriteNothing) {
  Handle h;
  g_log.clear();
  ASSERT_EQ(trnblasSetLoggerCallback(capture), TRNBLAS_STATUS_SUCCESS);
  const int m = 4, n = 3, k = 5;
  std::vector<float> A(64, 1.0f), B(64, 1.0f), C(64, 7.0f);
  const auto before = C;
  const float one = 1.0f;
  struct Case {
    int position;
    trnblasStatus_t st;
  };
  auto run = [&](trnblasOperation_t ta, trnblasOperation_t tb, int mm, int nn, int kk, const float* al, int lda,
                 int ldb, const float* be, float* c, int ldc) {
    return trnblasSgemm(h, ta, tb, mm, nn, kk, al, A.data(), lda, B.data(), ldb, be, c, ldc);
  };
  const std::pair<int, trnblasStatus_t> cases[] = {
      {1, run(static_cast<trnblasOperation_t>(9), TRNBLAS_OP_N, m, n, k, &one, m, k, &one, C.data(), m)},
      {2, run(TRNBLAS_OP_N, TRNBLAS_OP_CONJG, m, n, k, &one, m, k, &one, C.data(), m)},
      {3, run(TRNBLAS_OP_N, TRNBLAS_OP_N, -1, n, k, &one, m, k, &one, C.data(), m)},
      {4, run(TRNBLAS_OP_N, TRNBLAS_OP_N, m, -1, k, &one, m, k, &one, C.data(), m)},
      {5, run(TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, -1, &one, m, k, &one, C.data(), m)},
      {6, run(TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, nullptr, m, k, &one, C.data(), m)},
      {8, run(TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, m - 1, k, &one, C.data(), m)},
      {8, run(TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, k, &one, k - 1, k, &one, C.data(), m)},
      {10, run(TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, m, k - 1, &one, C.data(), m)},
      {10, run(TRNBLAS_OP_N, TRNBLAS_OP_T, m, n, k, &one, m, n - 1, &one, C.data(), m)},
      {11, run(TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, m, k, nullptr, C.data(), m)},
      {12, run(TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, m, k, &one, nullptr, m)},
      {13, run(TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, m, k, &one, C.data(), m - 1)},
  };
  for (const auto& [pos, st] : cases) {
    EXPECT_EQ(st, TRNBLAS_STATUS_INVALID_VALUE) << "position " << pos;
    int last = 0;
    ASSERT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
    (void)last;
  }
  ASSERT_EQ(g_log.size(), std::size(cases));
  for (std::size_t i = 0; i < g_log.size(); ++i)
    EXPECT_NE(g_log[i].find("trnblasSgemm parameter number " + std::to_string(cases[i].first) + " "), std::string::npos)
        << g_log[i];
  EXPECT_EQ(C, before);
  // SYRK numbering: uplo 1, trans 2, n 3, k 4, lda 7, ldc 10.
  g_log.clear();
  EXPECT_EQ(trnblasSsyrk(h, static_cast<trnblasFillMode_t>(2), TRNBLAS_OP_N, 3, 2, &one, A.data(), 3, &one, C.data(), 3),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnblasSsyrk(h, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N, 3, 2, &one, A.data(), 2, &one, C.data(), 3),
            TRNBLAS_STATUS_INVALID_VALUE);
  int last = 0;
  EXPECT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 7);
  EXPECT_EQ(C, before);
  // GemmEx numbering: Atype 8, lda 9, computeType 17, algo 18.
  EXPECT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, A.data(), static_cast<trnDataType_t>(99)  /* no cudaDataType value */, m,
                          B.data(), TRN_R_32F, k, &one, C.data(), TRN_R_32F, m, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 8);
  EXPECT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, A.data(), TRN_R_32F, m, B.data(), TRN_R_32F, k,
                          &one, C.data(), TRN_R_32F, m, static_cast<trnblasComputeType_t>(66), TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 17);
  EXPECT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, A.data(), TRN_R_32F, m, B.data(), TRN_R_32F, k,
                          &one, C.data(), TRN_R_32F, m, TRNBLAS_COMPUTE_32F, static_cast<trnblasGemmAlgo_t>(50)),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnblasGetLastErrorParameter(h, &last), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(last, 18);
  EXPECT_EQ(C, before);
  trnblasSetLoggerCallback(nullptr);
}

TEST(TrnblasApi, UnsupportedCombinationsSayNotSupported) {
  Handle h;
  std::vector<float> A(16, 1.0f), B(16, 1.0f), C(16, 3.0f);
  const auto before = C;
  const float one = 1.0f;
  // OCP e4m3fn does not exist on trn1/trn2.
  std::vector<std::uint8_t> a8(16, 0x38), b8(16, 0x38);
  EXPECT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 4, 4, 4, &one, a8.data(), TRN_R_8F_E4M3, 4, b8.data(),
                          TRN_R_8F_E4M3, 4, &one, C.data(), TRN_R_32F, 4, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 4, 4, 4, &one, A.data(), TRN_R_32F, 4, B.data(), TRN_R_32F, 4,
                          &one, C.data(), TRN_R_32F, 4, TRNBLAS_COMPUTE_16F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 4, 4, 4, &one, A.data(), TRN_R_32F, 4, a8.data(), TRN_R_8F_E5M2,
                          4, &one, C.data(), TRN_R_32F, 4, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(C, before);
  // On trn3 the OCP format is native: 0x38 = 1.0 in e4m3fn, so C = 4 + beta*3.
  ASSERT_EQ(trnblasSetTarget(h, TRN_TARGET_TRN3), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 4, 4, 4, &one, a8.data(), TRN_R_8F_E4M3, 4, b8.data(),
                          TRN_R_8F_E4M3, 4, &one, C.data(), TRN_R_32F, 4, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(C[5], 7.0f);
}

TEST(TrnblasApi, BetaZeroNeverReadsCAndAlphaZeroNeverReadsAB) {
  Handle h;
  const int m = 5, n = 4, k = 3;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> A(m * k, 1.0f), B(k * n, 2.0f), C(m * n, nan);
  const float one = 1.0f, zero = 0.0f, two = 2.0f;
  ASSERT_EQ(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &one, A.data(), m, B.data(), k, &zero, C.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  for (float c : C) EXPECT_EQ(c, 6.0f);
  std::vector<float> An(m * k, nan), Bn(k * n, nan);
  ASSERT_EQ(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &zero, An.data(), m, Bn.data(), k, &two, C.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  for (float c : C) EXPECT_EQ(c, 12.0f);
  // alpha == 0 and beta == 0: exact zeros, NaN C not read.
  std::fill(C.begin(), C.end(), nan);
  ASSERT_EQ(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &zero, nullptr, m, nullptr, k, &zero, C.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  for (float c : C) EXPECT_EQ(c, 0.0f);
  // k == 0 scales C; m == 0 touches nothing (C may be null).
  std::fill(C.begin(), C.end(), 3.0f);
  ASSERT_EQ(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, 0, &one, nullptr, m, nullptr, 1, &two, C.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  for (float c : C) EXPECT_EQ(c, 6.0f);
  EXPECT_EQ(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 0, n, k, &one, nullptr, 1, nullptr, k, &one, nullptr, 1),
            TRNBLAS_STATUS_SUCCESS);
  // fp64: the same rules.
  std::vector<double> Cd(m * n, std::numeric_limits<double>::quiet_NaN()), Ad(m * k, 1.0), Bd(k * n, 2.0);
  const double d1 = 1.0, d0 = 0.0;
  ASSERT_EQ(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, k, &d1, Ad.data(), m, Bd.data(), k, &d0, Cd.data(), m),
            TRNBLAS_STATUS_SUCCESS);
  for (double c : Cd) EXPECT_EQ(c, 6.0);
}

// beta == 0 means C is not read (BLAS, cuBLAS): with alpha == 0 or k == 0 the result is C := 0, +0.0
// whatever C held. C pre-filled with -0.0 and NaN (real and imaginary parts) must come back +0.0 bit
// for bit (a C scaled by beta = 0 would give -0.0 * 0 = -0.0 and NaN); alpha == 0 with NaN A and B too
// (A and B are not read either).
template <class T>
void expect_positive_zeros(const std::vector<T>& C, const char* what) {
  for (std::size_t i = 0; i < C.size(); ++i) {
    EXPECT_EQ(C[i], T(0)) << what << " element " << i;
    EXPECT_FALSE(std::signbit(C[i])) << what << " element " << i << ": -0.0 (C's old zero kept its sign)";
  }
}
template <class T>
std::vector<T> negative_zeros_and_nans(std::size_t count) {
  std::vector<T> C(count);
  for (std::size_t i = 0; i < count; ++i) C[i] = i % 2 ? std::numeric_limits<T>::quiet_NaN() : -T(0);
  return C;
}

TEST(TrnblasApi, BetaZeroWithAlphaZeroOrKZeroGivesPositiveZerosWhateverCHeld) {
  Handle h;
  const int m = 6, n = 5, k = 3;
  const float f1 = 1.0f, f0 = 0.0f, fnan = std::numeric_limits<float>::quiet_NaN();
  const double d1 = 1.0, d0 = 0.0;
  std::vector<float> A(m * k, 1.5f), B(k * n, -2.0f), An(m * k, fnan), Bn(k * n, fnan);
  std::vector<double> Ad(A.begin(), A.end()), Bd(B.begin(), B.end());
  for (const bool k_zero : {false, true}) {
    const int kk = k_zero ? 0 : k;
    const char* which = k_zero ? "k = 0, alpha = 1" : "alpha = 0";
    const float* fa = k_zero ? &f1 : &f0;
    const double* da = k_zero ? &d1 : &d0;
    auto C = negative_zeros_and_nans<float>(m * n);
    ASSERT_EQ(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, kk, fa, A.data(), m, B.data(), std::max(1, kk), &f0,
                           C.data(), m),
              TRNBLAS_STATUS_SUCCESS);
    expect_positive_zeros(C, which);
    C = negative_zeros_and_nans<float>(m * n);
    ASSERT_EQ(trnblasSgemm(h, TRNBLAS_OP_T, TRNBLAS_OP_N, m, n, kk, fa, An.data(), std::max(1, kk), Bn.data(),
                           std::max(1, kk), &f0, C.data(), m),
              TRNBLAS_STATUS_SUCCESS);
    if (!k_zero) expect_positive_zeros(C, "alpha = 0, NaN A and B");
    auto Cd = negative_zeros_and_nans<double>(m * n);
    ASSERT_EQ(trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, kk, da, Ad.data(), m, Bd.data(), std::max(1, kk), &d0,
                           Cd.data(), m),
              TRNBLAS_STATUS_SUCCESS);
    expect_positive_zeros(Cd, which);
    // Cgemm: the interleaved (re, im) floats, both parts -0.0 or NaN.
    std::vector<float> Ac(2 * m * k, 0.5f), Bc(2 * k * n, -1.0f);
    auto Cc = negative_zeros_and_nans<float>(2 * m * n);
    const trnComplex c1{f1, 0.0f}, c0{0.0f, 0.0f};
    ASSERT_EQ(trnblasCgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_C, m, n, kk, k_zero ? &c1 : &c0,
                           reinterpret_cast<const trnComplex*>(Ac.data()), m, reinterpret_cast<const trnComplex*>(Bc.data()),
                           n, &c0, reinterpret_cast<trnComplex*>(Cc.data()), m),
              TRNBLAS_STATUS_SUCCESS);
    expect_positive_zeros(Cc, which);
    // GemmEx in fp32 (compute 32F and a bf16 fast mode) and fp64.
    for (const trnblasComputeType_t ct : {TRNBLAS_COMPUTE_32F, TRNBLAS_COMPUTE_32F_FAST_16BF}) {
      C = negative_zeros_and_nans<float>(m * n);
      ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, kk, fa, A.data(), TRN_R_32F, m, B.data(), TRN_R_32F,
                              std::max(1, kk), &f0, C.data(), TRN_R_32F, m, ct, TRNBLAS_GEMM_DEFAULT),
                TRNBLAS_STATUS_SUCCESS);
      expect_positive_zeros(C, which);
    }
    Cd = negative_zeros_and_nans<double>(m * n);
    ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, m, n, kk, da, Ad.data(), TRN_R_64F, m, Bd.data(), TRN_R_64F,
                            std::max(1, kk), &d0, Cd.data(), TRN_R_64F, m, TRNBLAS_COMPUTE_64F, TRNBLAS_GEMM_DEFAULT),
              TRNBLAS_STATUS_SUCCESS);
    expect_positive_zeros(Cd, which);
  }
}

TEST(TrnblasApi, LastProfileReflectsTheModeCost) {
  Handle h;
  const int n = 256;
  const auto A = blastest::uniform_f(static_cast<std::size_t>(n) * n, 1), B = blastest::uniform_f(static_cast<std::size_t>(n) * n, 2);
  std::vector<float> C(static_cast<std::size_t>(n) * n);
  const float one = 1.0f, zero = 0.0f;
  auto profile = [&](trnblasComputeType_t ct) {
    EXPECT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, A.data(), TRN_R_32F, n, B.data(), TRN_R_32F, n,
                            &zero, C.data(), TRN_R_32F, n, ct, TRNBLAS_GEMM_DEFAULT),
              TRNBLAS_STATUS_SUCCESS);
    trnProfile_t p;
    EXPECT_EQ(trnblasGetLastProfile(h, &p), TRNBLAS_STATUS_SUCCESS);
    return p;
  };
  const trnProfile_t bf16 = profile(TRNBLAS_COMPUTE_32F_FAST_16BF);
  const trnProfile_t fp32 = profile(TRNBLAS_COMPUTE_32F);
  const trnProfile_t x3 = profile(TRNBLAS_COMPUTE_32F_EMULATED_16BFX3);
  EXPECT_EQ(bf16.target, TRN_TARGET_TRN1);
  EXPECT_GT(bf16.total_ns, 0.0);
  EXPECT_DOUBLE_EQ(bf16.flops >= 2.0 * n * n * n ? 1.0 : 0.0, 1.0);
  EXPECT_EQ(x3.instructions_per_engine[TRN_ENGINE_TENSOR], 3 * bf16.instructions_per_engine[TRN_ENGINE_TENSOR]);
  EXPECT_NEAR(fp32.busy_ns[TRN_ENGINE_TENSOR], 4.0 * bf16.busy_ns[TRN_ENGINE_TENSOR], 1e-6 * fp32.busy_ns[TRN_ENGINE_TENSOR]);
  EXPECT_GT(x3.busy_ns[TRN_ENGINE_VECTOR], bf16.busy_ns[TRN_ENGINE_VECTOR]);  // the bf16 splits run on VectorE
}

TEST(TrnblasApi, MathModeSelectsTheFp32Mode) {
  Handle h;
  const int n = 128;
  const auto A = blastest::uniform_f(static_cast<std::size_t>(n) * n, 3), B = blastest::uniform_f(static_cast<std::size_t>(n) * n, 4);
  std::vector<float> C1(static_cast<std::size_t>(n) * n), C2(C1.size()), C3(C1.size());
  const float one = 1.0f, zero = 0.0f;
  ASSERT_EQ(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, A.data(), n, B.data(), n, &zero, C1.data(), n),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSetMathMode(h, TRNBLAS_TF32_TENSOR_OP_MATH), TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, A.data(), n, B.data(), n, &zero, C2.data(), n),
            TRNBLAS_STATUS_SUCCESS);
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, A.data(), TRN_R_32F, n, B.data(), TRN_R_32F, n,
                          &zero, C3.data(), TRN_R_32F, n, TRNBLAS_COMPUTE_32F_FAST_TF32, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_NE(C1, C2);
  EXPECT_EQ(C2, C3);
  // PEDANTIC compute type ignores the math mode.
  ASSERT_EQ(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, A.data(), TRN_R_32F, n, B.data(), TRN_R_32F, n,
                          &zero, C3.data(), TRN_R_32F, n, TRNBLAS_COMPUTE_32F_PEDANTIC, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(C1, C3);
}


// ---- regressions from the first fuzzing pass (issue: "Ship like the CUDA math libraries") ----------

namespace regress {

int last_param(trnblasHandle_t h) {
  int p = -1;
  trnblasGetLastErrorParameter(h, &p);
  return p;
}

TEST(TrnblasApiRegression, ArgumentsAreCheckedInSignatureOrder) {
  Handle h;
  float A[4] = {1, 2, 3, 4}, C[4] = {7, 7, 7, 7};
  const float one = 1.0f;
  // A bad transa (1) is reported before a bad compute type (17) and a bad Atype (8).
  EXPECT_EQ(trnblasGemmEx(h.h, static_cast<trnblasOperation_t>(9), TRNBLAS_OP_N, 2, 2, 2, &one, A,
                          static_cast<trnDataType_t>(4242), 2, A, TRN_R_32F, 2, &one, C, TRN_R_32F, 2,
                          static_cast<trnblasComputeType_t>(-5), TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_param(h.h), 1);
  // With valid scalars, the compute type (17) is reported.
  EXPECT_EQ(trnblasGemmEx(h.h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, A, TRN_R_32F, 2, A, TRN_R_32F, 2, &one, C,
                          TRN_R_32F, 2, static_cast<trnblasComputeType_t>(-5), TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_param(h.h), 17);
  // A NULL Aarray is reported at its own position (7) after the scalars.
  EXPECT_EQ(trnblasGemmBatchedEx(h.h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, nullptr, TRN_R_32F, 2, nullptr,
                                 TRN_R_32F, 2, &one, nullptr, TRN_R_32F, 2, 3, TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_param(h.h), 7);
  for (float c : C) EXPECT_EQ(c, 7.0f);
}

TEST(TrnblasApiRegression, HugeStridedBatchesNeitherAllocateNorAbort) {
  Handle h;
  const float one = 1.0f;
  // Empty problems: a quick return, whatever batchCount says (this aborted with std::bad_alloc).
  EXPECT_EQ(trnblasSgemmStridedBatched_64(h.h, TRNBLAS_OP_N, TRNBLAS_OP_N, 0, 0, 0, &one, nullptr, 1, 0, nullptr, 1, 0,
                                          &one, nullptr, 1, 0, 1LL << 40),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(trnblasSgemmStridedBatched_64(h.h, TRNBLAS_OP_N, TRNBLAS_OP_N, 0, 0, 0, &one, nullptr, 1, 0, nullptr, 1, 0,
                                          &one, nullptr, 1, 0, std::numeric_limits<int64_t>::max()),
            TRNBLAS_STATUS_SUCCESS);
  // Other invalid arguments are reported before anything is sized by batchCount.
  EXPECT_EQ(trnblasSgemmStridedBatched(h.h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, nullptr, 0, 4, nullptr, 2, 4,
                                       &one, nullptr, 2, 4, std::numeric_limits<int>::max()),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_param(h.h), 8);  // lda
  // A stride whose last entry lies beyond any address is illegal (strideA is parameter 9).
  float A[4] = {1, 2, 3, 4}, C[4] = {0, 0, 0, 0};
  EXPECT_EQ(trnblasSgemmStridedBatched_64(h.h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, A, 2, 1LL << 62, A, 2, 0, &one,
                                          C, 2, 0, 8),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_param(h.h), 9);
}

TEST(TrnblasApiRegression, LeadingDimensionsWhoseExtentOverflowAreRejected) {
  Handle h;
  float A[5] = {1, 1, 1, 1, 1}, C[1] = {3};
  const float one = 1.0f;
  // ldc * (n - 1) overflows int64 (signed-overflow UB in the extent computation before).
  EXPECT_EQ(trnblasSsyrk_64(h.h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, 1, 5, &one, A, 1, &one, C, 4611686018427387903LL),
            TRNBLAS_STATUS_SUCCESS);  // n = 1: one column, extent 1, legal
  EXPECT_EQ(trnblasSsyrk_64(h.h, TRNBLAS_FILL_MODE_UPPER, TRNBLAS_OP_N, 3, 1, &one, A, 3, &one, C,
                            std::numeric_limits<int64_t>::max()),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_param(h.h), 10);
  EXPECT_EQ(trnblasSgemm_64(h.h, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 3, 1, &one, A, 1, A, 1, &one, C,
                            std::numeric_limits<int64_t>::max() / 2),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(last_param(h.h), 13);
  EXPECT_EQ(C[0], 8.0f);  // the legal call above wrote 3 + 5 * 1; the rejected ones nothing
}

TEST(TrnblasApiRegression, MantissaBitCountIsBounded) {
  Handle h;
  EXPECT_EQ(trnblasSetFixedPointEmulationMaxMantissaBitCount(h.h, std::numeric_limits<int>::max()),
            TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnblasSetFixedPointEmulationMaxMantissaBitCount(h.h, 65536), TRNBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnblasSetFixedPointEmulationMaxMantissaBitCount(h.h, 2150), TRNBLAS_STATUS_SUCCESS);
  int bits = 0;
  EXPECT_EQ(trnblasGetFixedPointEmulationMaxMantissaBitCount(h.h, &bits), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(bits, 2150);
}

}  // namespace regress
}  // namespace
