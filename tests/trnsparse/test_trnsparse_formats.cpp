// trnsparse CSC and Blocked-ELL descriptors through the C API: SpMM/SpMV against Eigen's sparse
// product in double (CSC arrays taken from an Eigen column-major SparseMatrix) and against a dense
// double product written here (Blocked-ELL), descriptor getters, bad input at its position with
// outputs untouched, SDDMM on these formats NOT_SUPPORTED (as cuSPARSE: CSR and BSR only).
#include <gtest/gtest.h>

#include <Eigen/Sparse>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sparse_test_util.hpp"
#include "c_api_test_util.hpp"
#include "trnsparse.h"
#include "trn/sparse/generic.hpp"

namespace {

using trnsparse_test::bound;

using trnsparse_test::g_lines;
using trnsparse_test::Handle;

// C = alpha op(A) B + beta C through the generic API, B and C column-major (ld = rows).
trnsparseStatus_t spmm(trnsparseHandle_t h, int opA, trnsparseConstSpMatDescr_t A, std::int64_t K, std::int64_t M,
                       std::int64_t n, const std::vector<float>& B, std::vector<float>& C, float alpha, float beta) {
  trnsparseConstDnMatDescr_t mB = nullptr;
  trnsparseDnMatDescr_t mC = nullptr;
  trnsparseCreateConstDnMat(&mB, K, n, K, B.data(), TRN_R_32F, TRNSPARSE_ORDER_COL);
  trnsparseCreateDnMat(&mC, M, n, M, C.data(), TRN_R_32F, TRNSPARSE_ORDER_COL);
  const trnsparseStatus_t st = trnsparseSpMM(h, static_cast<trnsparseOperation_t>(opA), TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                             &alpha, A, mB, &beta, mC, TRN_R_32F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr);
  trnsparseDestroyDnMat(mB);
  trnsparseDestroyDnMat(mC);
  return st;
}

// Checks C (column-major M x n) against alpha op(A) B + beta C0 with A dense (column-major rows x
// cols) in double, elementwise with the documented bound over contraction length K.
void expect_matches(int opA, const std::vector<double>& A, std::int64_t rows, std::int64_t cols,
                    const std::vector<float>& B, const std::vector<float>& C0, const std::vector<float>& C, float alpha,
                    float beta, std::int64_t n) {
  const std::int64_t M = opA == 0 ? rows : cols, K = opA == 0 ? cols : rows;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < M; ++i) {
      double s = 0, sa = 0;
      for (std::int64_t k = 0; k < K; ++k) {
        const double a = opA == 0 ? A[static_cast<std::size_t>(i + k * rows)] : A[static_cast<std::size_t>(k + i * rows)];
        s += a * B[static_cast<std::size_t>(k + j * K)];
        sa += std::fabs(a * B[static_cast<std::size_t>(k + j * K)]);
      }
      const std::size_t q = static_cast<std::size_t>(i + j * M);
      const double exact = alpha * s + beta * double(C0[q]);
      ASSERT_LE(std::fabs(C[q] - exact), bound(K, std::fabs(alpha) * sa + std::fabs(beta * C0[q]))) << i << "," << j;
    }
}

std::vector<float> random_vec(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

// CSC from Eigen: a 150 x 90 matrix (spans two 128-row tiles), ~8% dense; SpMM opA N and T and
// SpMV, int32 base 0 and int64 base 1, against Eigen's sparse x dense in double.
TEST(Csc, SpmmAndSpmvMatchEigenSparse) {
  const std::int64_t m = 150, k = 90, n = 7;
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Eigen::Triplet<float>> trip;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < k; ++j)
      if (u(rng) < 0.08) trip.emplace_back(static_cast<int>(i), static_cast<int>(j), static_cast<float>(2 * u(rng) - 1));
  Eigen::SparseMatrix<float, Eigen::ColMajor, std::int32_t> S(m, k);
  S.setFromTriplets(trip.begin(), trip.end());
  S.makeCompressed();
  const Eigen::MatrixXd Sd = Eigen::MatrixXd(S.cast<double>());
  std::vector<double> Ad(Sd.data(), Sd.data() + m * k);
  for (int variant = 0; variant < 2; ++variant) {
    const bool base1 = variant == 1;
    std::vector<std::int32_t> off32(S.outerIndexPtr(), S.outerIndexPtr() + k + 1), row32(S.innerIndexPtr(), S.innerIndexPtr() + S.nonZeros());
    std::vector<std::int64_t> off64(off32.begin(), off32.end()), row64(row32.begin(), row32.end());
    if (base1) {
      for (auto& x : off64) ++x;
      for (auto& x : row64) ++x;
    }
    std::vector<float> vals(S.valuePtr(), S.valuePtr() + S.nonZeros());
    Handle hd;
    trnsparseConstSpMatDescr_t A = nullptr;
    ASSERT_EQ(trnsparseCreateConstCsc(&A, m, k, S.nonZeros(), base1 ? static_cast<void*>(off64.data()) : off32.data(),
                                      base1 ? static_cast<void*>(row64.data()) : row32.data(), vals.data(),
                                      base1 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I,
                                      base1 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I,
                                      base1 ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F),
              TRNSPARSE_STATUS_SUCCESS);
    trnsparseFormat_t f{};
    ASSERT_EQ(trnsparseSpMatGetFormat(A, &f), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(f, TRNSPARSE_FORMAT_CSC);
    for (int opA : {0, 1}) {
      const std::int64_t M = opA == 0 ? m : k, K = opA == 0 ? k : m;
      const std::vector<float> B = random_vec(static_cast<std::size_t>(K * n), 22), C0 = random_vec(static_cast<std::size_t>(M * n), 23);
      std::vector<float> C = C0;
      ASSERT_EQ(spmm(hd.h, opA, A, K, M, n, B, C, 0.75f, -0.5f), TRNSPARSE_STATUS_SUCCESS);
      expect_matches(opA, Ad, m, k, B, C0, C, 0.75f, -0.5f, n);
      // Eigen's own product as the second oracle (normwise).
      const Eigen::Map<const Eigen::MatrixXf> Bm(B.data(), K, n);
      const Eigen::MatrixXd E = 0.75 * (opA == 0 ? Eigen::MatrixXd(S.cast<double>() * Bm.cast<double>())
                                                 : Eigen::MatrixXd(S.cast<double>().transpose() * Bm.cast<double>())) -
                                0.5 * Eigen::Map<const Eigen::MatrixXf>(C0.data(), M, n).cast<double>();
      EXPECT_LE((Eigen::Map<const Eigen::MatrixXf>(C.data(), M, n).cast<double>() - E).norm(), 1e-5 * E.norm());
    }
    // SpMV: y = A x.
    const std::vector<float> x = random_vec(static_cast<std::size_t>(k), 24);
    std::vector<float> y(static_cast<std::size_t>(m), 0.0f);
    trnsparseConstDnVecDescr_t vx = nullptr;
    trnsparseDnVecDescr_t vy = nullptr;
    trnsparseCreateConstDnVec(&vx, k, x.data(), TRN_R_32F);
    trnsparseCreateDnVec(&vy, m, y.data(), TRN_R_32F);
    const float one = 1.0f, zero = 0.0f;
    ASSERT_EQ(trnsparseSpMV(hd.h, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy, TRN_R_32F,
                            TRNSPARSE_SPMV_ALG_DEFAULT, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    expect_matches(0, Ad, m, k, x, std::vector<float>(static_cast<std::size_t>(m), 0.0f), y, 1.0f, 0.0f, 1);
    trnsparseDestroyDnVec(vx);
    trnsparseDestroyDnVec(vy);
    trnsparseDestroySpMat(A);
  }
}

TEST(Csc, BadArraysAreInvalidValueAndOutputUntouched) {
  Handle hd;
  // 3 x 2: column 0 holds rows 0 and 2, column 1 row 1.
  std::vector<std::int32_t> off = {0, 2, 3}, rows = {0, 2, 1};
  std::vector<float> vals = {1, 2, 3};
  trnsparseSpMatDescr_t A = nullptr;
  EXPECT_EQ(trnsparseCreateCsc(&A, 3, 2, 3, nullptr, rows.data(), vals.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_NE(g_lines.back().find("parameter number 5"), std::string::npos) << g_lines.back();
  ASSERT_EQ(trnsparseCreateCsc(&A, 3, 2, 3, off.data(), rows.data(), vals.data(), TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F),
            TRNSPARSE_STATUS_SUCCESS);
  const std::vector<float> B = {1, 1};
  std::vector<float> C = {9, 9, 9};
  ASSERT_EQ(spmm(hd.h, 0, A, 2, 3, 1, B, C, 1.0f, 0.0f), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(C, (std::vector<float>{1, 3, 2}));
  const std::vector<float> before = C;
  rows = {2, 0, 1};  // not increasing within column 0
  EXPECT_EQ(spmm(hd.h, 0, A, 2, 3, 1, B, C, 1.0f, 0.0f), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(hd.last_param(), 4);
  rows = {0, 3, 1};  // row 3 out of range
  EXPECT_EQ(spmm(hd.h, 0, A, 2, 3, 1, B, C, 1.0f, 0.0f), TRNSPARSE_STATUS_INVALID_VALUE);
  rows = {0, 2, 1};
  off = {0, 2, 4};  // offsets[cols] - base != nnz
  EXPECT_EQ(spmm(hd.h, 0, A, 2, 3, 1, B, C, 1.0f, 0.0f), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(C, before);
  // SDDMM writes CSR or BSR patterns only (cuSPARSE's set).
  off = {0, 2, 3};
  trnsparseConstDnMatDescr_t dA = nullptr, dB = nullptr;
  std::vector<float> a(3, 1.0f), b(2, 1.0f);
  trnsparseCreateConstDnMat(&dA, 3, 1, 3, a.data(), TRN_R_32F, TRNSPARSE_ORDER_COL);
  trnsparseCreateConstDnMat(&dB, 1, 2, 1, b.data(), TRN_R_32F, TRNSPARSE_ORDER_COL);
  const float one = 1.0f, zero = 0.0f;
  EXPECT_EQ(trnsparseSDDMM(hd.h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one, dA, dB, &zero,
                           A, TRN_R_32F, TRNSPARSE_SDDMM_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(vals, (std::vector<float>{1, 2, 3}));
  trnsparseDestroyDnMat(dA);
  trnsparseDestroyDnMat(dB);
  trnsparseDestroySpMat(A);
}

// An empty CSR / CSC (nnz = 0, no column or value array): SpMM scales C by beta and reads nothing
// else (regression: the CSR -> 128-block conversion once passed the NULL value array to memset;
// fuzz corpus 511dfbaa...).
TEST(Csc, EmptyMatricesWithoutArrays) {
  Handle hd;
  std::vector<std::int32_t> off(4, 0);
  const std::vector<float> B(2 * 3, 1.0f);
  for (bool csc : {false, true}) {
    trnsparseSpMatDescr_t A = nullptr;
    ASSERT_EQ(csc ? trnsparseCreateCsc(&A, 2, 3, 0, off.data(), nullptr, nullptr, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                       TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F)
                  : trnsparseCreateCsr(&A, 3, 2, 0, off.data(), nullptr, nullptr, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                       TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F),
              TRNSPARSE_STATUS_SUCCESS);
    // op(A) is 3 x 2 in both cases (the CSC is A^T's storage with opA = T).
    std::vector<float> C(3 * 3, 4.0f);
    ASSERT_EQ(spmm(hd.h, csc ? 1 : 0, A, 2, 3, 3, B, C, 1.0f, 0.5f), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(C, std::vector<float>(9, 2.0f));
    trnsparseDestroySpMat(A);
  }
}

// A Blocked-ELL matrix with `slots` slots per block row, some empty (-1) and the rest in shuffled
// order; its dense column-major expansion computed here.
struct TestEll {
  std::int64_t rows = 0, cols = 0, bs = 0, slots = 0;
  std::vector<std::int64_t> col;  // 0-based block columns, -1 empty
  std::vector<std::int32_t> col32;
  std::vector<std::int64_t> col64;
  std::vector<float> values;  // rows x (slots * bs), row-major
  std::vector<double> dense() const {
    std::vector<double> d(static_cast<std::size_t>(rows * cols), 0.0);
    const std::int64_t ell_cols = slots * bs;
    for (std::int64_t i = 0; i < rows / bs; ++i)
      for (std::int64_t t = 0; t < slots; ++t) {
        const std::int64_t c = col[static_cast<std::size_t>(i * slots + t)];
        if (c < 0) continue;
        for (std::int64_t r = 0; r < bs; ++r)
          for (std::int64_t q = 0; q < bs; ++q)
            d[static_cast<std::size_t>((i * bs + r) + (c * bs + q) * rows)] =
                values[static_cast<std::size_t>((i * bs + r) * ell_cols + t * bs + q)];
      }
    return d;
  }
};

TestEll random_ell(std::int64_t brows, std::int64_t bcols, std::int64_t bs, std::int64_t slots, bool base1,
                   std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  TestEll e;
  e.rows = brows * bs;
  e.cols = bcols * bs;
  e.bs = bs;
  e.slots = slots;
  std::vector<std::int64_t> perm(static_cast<std::size_t>(bcols));
  for (std::int64_t c = 0; c < bcols; ++c) perm[static_cast<std::size_t>(c)] = c;
  for (std::int64_t i = 0; i < brows; ++i) {
    std::shuffle(perm.begin(), perm.end(), rng);
    const std::int64_t used = std::uniform_int_distribution<std::int64_t>(0, slots)(rng);
    for (std::int64_t t = 0; t < slots; ++t) e.col.push_back(t < used ? perm[static_cast<std::size_t>(t)] : -1);
    std::shuffle(e.col.end() - slots, e.col.end(), rng);  // empty slots anywhere
  }
  for (auto c : e.col) {
    e.col32.push_back(static_cast<std::int32_t>(c < 0 ? -1 : c + (base1 ? 1 : 0)));
    e.col64.push_back(c < 0 ? -1 : c + (base1 ? 1 : 0));
  }
  e.values = random_vec(static_cast<std::size_t>(e.rows * slots * bs), seed + 1);
  return e;
}

// Blocked-ELL SpMM (opA N and T) and SpMV against the dense double product; 128-blocks and
// 24-blocks, int32 base 0 and int64 base 1; BlockedEllGet returns what was set.
TEST(BlockedEll, SpmmAndSpmvMatchDenseReference) {
  struct Case {
    std::int64_t brows, bcols, bs, slots;
    bool base1;
  };
  for (const Case cs : {Case{3, 4, 128, 2, false}, Case{5, 6, 24, 3, true}}) {
    const TestEll e = random_ell(cs.brows, cs.bcols, cs.bs, cs.slots, cs.base1, 31 + static_cast<std::uint64_t>(cs.bs));
    const std::vector<double> Ad = e.dense();
    Handle hd;
    trnsparseSpMatDescr_t A = nullptr;
    ASSERT_EQ(trnsparseCreateBlockedEll(&A, e.rows, e.cols, e.bs, e.slots * e.bs,
                                        cs.base1 ? static_cast<void*>(const_cast<std::int64_t*>(e.col64.data()))
                                                 : static_cast<void*>(const_cast<std::int32_t*>(e.col32.data())),
                                        const_cast<float*>(e.values.data()),
                                        cs.base1 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I,
                                        cs.base1 ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F),
              TRNSPARSE_STATUS_SUCCESS);
    std::int64_t r = 0, c = 0, bs = 0, ec = 0;
    void *ci = nullptr, *ev = nullptr;
    trnsparseIndexType_t it{};
    trnsparseIndexBase_t ib{};
    trnDataType_t vt{};
    ASSERT_EQ(trnsparseBlockedEllGet(A, &r, &c, &bs, &ec, &ci, &ev, &it, &ib, &vt), TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(r, e.rows);
    EXPECT_EQ(c, e.cols);
    EXPECT_EQ(bs, e.bs);
    EXPECT_EQ(ec, e.slots * e.bs);
    EXPECT_EQ(ev, e.values.data());
    EXPECT_EQ(it, cs.base1 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I);
    EXPECT_EQ(ib, cs.base1 ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO);
    EXPECT_EQ(vt, TRN_R_32F);
    const std::int64_t n = 5;
    for (int opA : {0, 1}) {
      const std::int64_t M = opA == 0 ? e.rows : e.cols, K = opA == 0 ? e.cols : e.rows;
      const std::vector<float> B = random_vec(static_cast<std::size_t>(K * n), 32), C0 = random_vec(static_cast<std::size_t>(M * n), 33);
      std::vector<float> C = C0;
      ASSERT_EQ(spmm(hd.h, opA, A, K, M, n, B, C, 1.25f, 0.5f), TRNSPARSE_STATUS_SUCCESS);
      expect_matches(opA, Ad, e.rows, e.cols, B, C0, C, 1.25f, 0.5f, n);
    }
    const std::vector<float> x = random_vec(static_cast<std::size_t>(e.cols), 34);
    std::vector<float> y(static_cast<std::size_t>(e.rows), 7.0f);
    trnsparseConstDnVecDescr_t vx = nullptr;
    trnsparseDnVecDescr_t vy = nullptr;
    trnsparseCreateConstDnVec(&vx, e.cols, x.data(), TRN_R_32F);
    trnsparseCreateDnVec(&vy, e.rows, y.data(), TRN_R_32F);
    const float one = 1.0f, zero = 0.0f;
    ASSERT_EQ(trnsparseSpMV(hd.h, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy, TRN_R_32F,
                            TRNSPARSE_SPMV_ALG_DEFAULT, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    expect_matches(0, Ad, e.rows, e.cols, x, std::vector<float>(static_cast<std::size_t>(e.rows), 0.0f), y, 1.0f, 0.0f, 1);
    trnsparseDestroyDnVec(vx);
    trnsparseDestroyDnVec(vy);
    trnsparseDestroySpMat(A);
  }
}

TEST(BlockedEll, BadInputIsInvalidValueAtItsPosition) {
  Handle hd;
  TestEll e = random_ell(2, 3, 4, 2, false, 41);
  e.col32 = {0, 2, -1, 1};
  trnsparseSpMatDescr_t A = nullptr;
  auto create = [&](std::int64_t rows, std::int64_t cols, std::int64_t bs, std::int64_t ell_cols, void* ci, int it) {
    trnsparseSpMatDescr_t d = nullptr;
    const trnsparseStatus_t st = trnsparseCreateBlockedEll(&d, rows, cols, bs, ell_cols, ci, e.values.data(),
                                                           static_cast<trnsparseIndexType_t>(it), TRNSPARSE_INDEX_BASE_ZERO,
                                                           TRN_R_32F);
    if (st == TRNSPARSE_STATUS_SUCCESS) trnsparseDestroySpMat(d);
    return st;
  };
  // (status, logged line) of each bad creation: the position of the offending argument is logged.
  auto expect_bad = [&](trnsparseStatus_t st, int pos, const char* what) {
    EXPECT_EQ(st, TRNSPARSE_STATUS_INVALID_VALUE) << what;
    ASSERT_FALSE(g_lines.empty()) << what;
    EXPECT_NE(g_lines.back().find("parameter number " + std::to_string(pos)), std::string::npos) << what << ": " << g_lines.back();
  };
  expect_bad(create(8, 12, 0, 8, e.col32.data(), TRNSPARSE_INDEX_32I), 4, "block size 0");
  expect_bad(create(9, 12, 4, 8, e.col32.data(), TRNSPARSE_INDEX_32I), 4, "rows not a multiple of the block");
  expect_bad(create(8, 12, 4, 16, e.col32.data(), TRNSPARSE_INDEX_32I), 5, "ellCols > cols");
  expect_bad(create(8, 12, 4, 6, e.col32.data(), TRNSPARSE_INDEX_32I), 5, "ellCols not a multiple");
  expect_bad(create(8, 12, 4, 8, nullptr, TRNSPARSE_INDEX_32I), 6, "NULL ellColInd");
  expect_bad(create(8, 12, 4, 8, e.col32.data(), 1), 8, "16U index type");
  ASSERT_EQ(trnsparseCreateBlockedEll(&A, 8, 12, 4, 8, e.col32.data(), e.values.data(), TRNSPARSE_INDEX_32I,
                                      TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F),
            TRNSPARSE_STATUS_SUCCESS);
  const std::vector<float> B(12, 1.0f);
  std::vector<float> C(8, 5.0f);
  ASSERT_EQ(spmm(hd.h, 0, A, 12, 8, 1, B, C, 1.0f, 0.0f), TRNSPARSE_STATUS_SUCCESS);
  const std::vector<float> before = C;
  for (const std::vector<std::int32_t>& cols : {std::vector<std::int32_t>{0, 3, -1, 1}, std::vector<std::int32_t>{2, 2, -1, 1},
                                                 std::vector<std::int32_t>{0, -2, -1, 1}}) {
    e.col32 = cols;  // out of range, repeated in a block row, negative other than -1
    g_lines.clear();
    EXPECT_EQ(spmm(hd.h, 0, A, 12, 8, 1, B, C, 1.0f, 0.0f), TRNSPARSE_STATUS_INVALID_VALUE);
    EXPECT_EQ(hd.last_param(), 4);
    EXPECT_EQ(C, before);
  }
  trnsparseDestroySpMat(A);
}

// validate() of a CSR's index arrays (sparse.cpp validate_compressed: a branch-free pass over each
// array, then the per-entry loops only to name a fault, session 27): every fault of a 5 x 8 pattern
// is refused with its item and the first fault's text, and the valid pattern -- whose columns fall or
// repeat across row starts, never within a row -- passes, for every index-type pair and base.
// Checked: without the pass's count of places where the columns do not rise, the in-row repeats and
// falls below are accepted (this test and Csc.BadArraysAreInvalidValueAndOutputUntouched fail).
TEST(CompressedValidation, EveryFaultIsNamedAndTheValidPatternPasses) {
  namespace sp = trn::sparse;
  using V = std::vector<std::int64_t>;
  const V off{0, 2, 2, 5, 6, 8}, col{1, 4, 0, 3, 7, 7, 0, 2};
  struct Fault {
    V off, col;
    const char* item;
    const char* text;
  };
  const std::vector<Fault> faults{
      {{0, 2, 1, 5, 6, 8}, col, "offsets", "not monotone at row 1"},
      {{0, 2, 2, 5, 9, 8}, col, "nnz", "exceed the number of stored entries at row 3"},
      {{0, 2, 2, 5, 6, 7}, col, "nnz", "offsets[rows] - base differs from nnz"},
      {{1, 2, 2, 5, 6, 8}, col, "offsets", "differs from the index base"},
      {off, {1, 4, 0, 3, 3, 7, 0, 2}, "columns", "not strictly increasing in row 2"},
      {off, {1, 4, 0, 5, 3, 7, 0, 2}, "columns", "not strictly increasing in row 2"},
      {off, {1, 4, 0, 3, 7, 7, 2, 2}, "columns", "not strictly increasing in row 4"},
      {off, {4, 1, 0, 3, 7, 7, 0, 2}, "columns", "not strictly increasing in row 0"},
      {off, {1, 8, 0, 3, 7, 7, 0, 2}, "columns", "out of range at entry 1"},
      {off, {1, 4, -1, 3, 7, 7, 0, 2}, "columns", "out of range at entry 2"},
  };
  for (const sp::IndexType ot : {sp::IndexType::i32, sp::IndexType::i64})
    for (const sp::IndexType ct : {sp::IndexType::i32, sp::IndexType::i64})
      for (const std::int64_t b : {0, 1}) {
        std::vector<std::int32_t> o32, c32;
        std::vector<std::int64_t> o64, c64;
        float values[8] = {};
        const auto ref = [&](const V& o, const V& c) {
          o32.clear(), c32.clear(), o64.clear(), c64.clear();
          for (const std::int64_t x : o) o32.push_back(static_cast<std::int32_t>(x + b)), o64.push_back(x + b);
          for (const std::int64_t x : c) c32.push_back(static_cast<std::int32_t>(x + b)), c64.push_back(x + b);
          return sp::SparseRef{sp::SparseRef::Format::csr, 5, 8, 8,
                               ot == sp::IndexType::i32 ? static_cast<const void*>(o32.data()) : o64.data(),
                               ct == sp::IndexType::i32 ? static_cast<const void*>(c32.data()) : c64.data(), values, ot, ct,
                               b == 0 ? sp::IndexBase::zero : sp::IndexBase::one, sp::Value::f32};
        };
        const std::string where = "types " + std::to_string(static_cast<int>(ot)) + std::to_string(static_cast<int>(ct)) + " base " +
                                  std::to_string(b);
        EXPECT_NO_THROW(sp::validate(ref(off, col))) << where;
        for (const Fault& f : faults) {
          try {
            sp::validate(ref(f.off, f.col));
            ADD_FAILURE() << where << ": accepted, wanted " << f.text;
          } catch (const sp::InvalidArgument& e) {
            EXPECT_EQ(e.item(), f.item) << where << ": " << e.what();
            EXPECT_NE(std::string(e.what()).find(f.text), std::string::npos) << where << ": " << e.what();
          }
        }
      }
}

}  // namespace
