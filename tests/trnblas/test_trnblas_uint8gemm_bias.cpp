// trnblasUint8gemmBias against gemmlowp's EightBitIntGemm reference written out below (the
// semantics cuBLAS's undocumented entry point copies; docs/trnblas.md "Uint8gemmBias"): every
// transa/transb/transc, offsets of both signs, shifts 0..31, saturation at both ends, k = 0, padding
// untouched; bad arguments by position with C untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "blas_test_util.hpp"
#include "trnblas.h"

namespace {

using blastest::Handle;

struct Case {
  trnblasOperation_t ta, tb, tc;
  int m, n, k, a_bias, b_bias, c_bias, c_mult, c_shift;
};

// The reference: per output, a 64-bit integer loop over l, the offset, scale, rounding and clamp.
std::vector<unsigned char> reference(const Case& c, const std::vector<unsigned char>& A, int lda,
                                     const std::vector<unsigned char>& B, int ldb, std::vector<unsigned char> C, int ldc) {
  for (int i = 0; i < c.m; ++i)
    for (int j = 0; j < c.n; ++j) {
      long long total = 0;
      for (int l = 0; l < c.k; ++l) {
        const int a = c.ta == TRNBLAS_OP_N ? A[static_cast<std::size_t>(i + l * lda)] : A[static_cast<std::size_t>(l + i * lda)];
        const int b = c.tb == TRNBLAS_OP_N ? B[static_cast<std::size_t>(l + j * ldb)] : B[static_cast<std::size_t>(j + l * ldb)];
        total += static_cast<long long>(a + c.a_bias) * (b + c.b_bias);
      }
      long long v = (total + c.c_bias) * c.c_mult;
      if (c.c_shift > 0) v += 1LL << (c.c_shift - 1);
      v >>= c.c_shift;
      const std::size_t at = c.tc == TRNBLAS_OP_N ? static_cast<std::size_t>(i + j * ldc) : static_cast<std::size_t>(j + i * ldc);
      C[at] = static_cast<unsigned char>(std::clamp(v, 0LL, 255LL));
    }
  return C;
}

void run_case(const Case& c, std::uint64_t seed) {
  Handle h;
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  const int ra = c.ta == TRNBLAS_OP_N ? c.m : c.k, ca = c.ta == TRNBLAS_OP_N ? c.k : c.m;
  const int rb = c.tb == TRNBLAS_OP_N ? c.k : c.n, cb = c.tb == TRNBLAS_OP_N ? c.n : c.k;
  const int rc = c.tc == TRNBLAS_OP_N ? c.m : c.n, cc = c.tc == TRNBLAS_OP_N ? c.n : c.m;
  const int lda = std::max(1, ra) + 1, ldb = std::max(1, rb) + 2, ldc = std::max(1, rc) + 1;
  std::vector<unsigned char> A(static_cast<std::size_t>(lda * std::max(1, ca))), B(static_cast<std::size_t>(ldb * std::max(1, cb))),
      C(static_cast<std::size_t>(ldc * std::max(1, cc)), 201);
  for (auto& v : A) v = static_cast<unsigned char>(byte(g));
  for (auto& v : B) v = static_cast<unsigned char>(byte(g));
  const auto want = reference(c, A, lda, B, ldb, C, ldc);
  ASSERT_EQ(trnblasUint8gemmBias(h, c.ta, c.tb, c.tc, c.m, c.n, c.k, A.data(), c.a_bias, lda, B.data(), c.b_bias, ldb,
                                 C.data(), c.c_bias, ldc, c.c_mult, c.c_shift),
            TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(C, want) << c.m << "x" << c.n << "x" << c.k << " ta " << c.ta << " tb " << c.tb << " tc " << c.tc;
  // Not every output saturated: the case exercises the arithmetic, not only the clamp.
  if (c.k > 0 && c.m * c.n >= 16) {
    const auto mid = std::count_if(want.begin(), want.end(), [](unsigned char v) { return v > 0 && v < 255; });
    EXPECT_GT(mid, 0);
  }
}

TEST(TrnblasUint8gemmBias, MatchesGemmlowpReference) {
  const trnblasOperation_t ops[] = {TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_C};
  std::uint64_t seed = 1;
  for (auto ta : ops)
    for (auto tb : ops)
      for (auto tc : ops) {
        // gemmlowp's usual offsets are minus the zero points; the scale maps the sum into 0..255.
        run_case({ta, tb, tc, 7, 5, 33, -128, -120, 1234, 3, 13}, seed++);
      }
  run_case({TRNBLAS_OP_N, TRNBLAS_OP_N, TRNBLAS_OP_N, 20, 19, 300, -127, -131, -50000, 1, 16}, 100);  // shift 16
  run_case({TRNBLAS_OP_N, TRNBLAS_OP_T, TRNBLAS_OP_N, 9, 4, 2000, -128, -128, 0, 1, 20}, 101);       // k > 1024
  run_case({TRNBLAS_OP_T, TRNBLAS_OP_N, TRNBLAS_OP_T, 6, 6, 16, 3, 7, 0, 1, 0}, 102);                // shift 0, saturates
  run_case({TRNBLAS_OP_N, TRNBLAS_OP_N, TRNBLAS_OP_N, 5, 3, 0, 10, 10, 77, 2, 1}, 103);              // k = 0: the C terms
  run_case({TRNBLAS_OP_N, TRNBLAS_OP_N, TRNBLAS_OP_N, 4, 4, 8, -200, 50, -1, 1, 31}, 104);           // shift 31
}

TEST(TrnblasUint8gemmBias, ArgumentPositions) {
  Handle h;
  std::vector<unsigned char> A(64, 1), B(64, 2), C(64, 9);
  const auto C0 = C;
  const auto expect_pos = [&](trnblasStatus_t st, int pos) {
    EXPECT_EQ(st, TRNBLAS_STATUS_INVALID_VALUE);
    int got = 0;
    ASSERT_EQ(trnblasGetLastErrorParameter(h, &got), TRNBLAS_STATUS_SUCCESS);
    EXPECT_EQ(got, pos);
    EXPECT_EQ(C, C0);
  };
  const auto N = TRNBLAS_OP_N;
  const auto call = [&](int ta, int tb, int tc, int m, int n, int k, const unsigned char* a, int lda,
                        const unsigned char* b, int ldb, unsigned char* c, int ldc, int shift) {
    return trnblasUint8gemmBias(h, static_cast<trnblasOperation_t>(ta), static_cast<trnblasOperation_t>(tb),
                                static_cast<trnblasOperation_t>(tc), m, n, k, a, 0, lda, b, 0, ldb, c, 0, ldc, 1, shift);
  };
  expect_pos(call(5, N, N, 4, 4, 4, A.data(), 4, B.data(), 4, C.data(), 4, 0), 1);
  expect_pos(call(N, -1, N, 4, 4, 4, A.data(), 4, B.data(), 4, C.data(), 4, 0), 2);
  expect_pos(call(N, N, 3, 4, 4, 4, A.data(), 4, B.data(), 4, C.data(), 4, 0), 3);
  expect_pos(call(N, N, N, -1, 4, 4, A.data(), 4, B.data(), 4, C.data(), 4, 0), 4);
  expect_pos(call(N, N, N, 4, -1, 4, A.data(), 4, B.data(), 4, C.data(), 4, 0), 5);
  expect_pos(call(N, N, N, 4, 4, -1, A.data(), 4, B.data(), 4, C.data(), 4, 0), 6);
  expect_pos(call(N, N, N, 4, 4, 4, nullptr, 4, B.data(), 4, C.data(), 4, 0), 7);
  expect_pos(call(N, N, N, 4, 4, 4, A.data(), 3, B.data(), 4, C.data(), 4, 0), 9);
  expect_pos(call(N, N, N, 4, 4, 4, A.data(), 4, nullptr, 4, C.data(), 4, 0), 10);
  expect_pos(call(N, N, N, 4, 4, 4, A.data(), 4, B.data(), 3, C.data(), 4, 0), 12);
  expect_pos(call(N, N, N, 4, 4, 4, A.data(), 4, B.data(), 4, nullptr, 4, 0), 13);
  expect_pos(call(N, N, N, 4, 4, 4, A.data(), 4, B.data(), 4, C.data(), 3, 0), 15);
  expect_pos(call(N, N, TRNBLAS_OP_T, 4, 6, 4, A.data(), 4, B.data(), 4, C.data(), 4, 0), 15);  // ldc >= n for transc
  expect_pos(call(N, N, N, 4, 4, 4, A.data(), 4, B.data(), 4, C.data(), 4, 32), 17);
  expect_pos(call(N, N, N, 4, 4, 4, A.data(), 4, B.data(), 4, C.data(), 4, -1), 17);
  EXPECT_EQ(call(N, N, N, 0, 4, 4, nullptr, 1, nullptr, 4, nullptr, 1, 0), TRNBLAS_STATUS_SUCCESS);
  EXPECT_EQ(trnblasUint8gemmBias(nullptr, TRNBLAS_OP_N, TRNBLAS_OP_N, TRNBLAS_OP_N, 4, 4, 4, A.data(), 0, 4, B.data(), 0,
                                 4, C.data(), 0, 4, 1, 0),
            TRNBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(C, C0);
}

}  // namespace
