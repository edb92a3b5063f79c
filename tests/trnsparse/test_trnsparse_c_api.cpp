// trnsparse C API: the plain-C99 generic-API checks on trnsci's own data (trnsparse_samples.c), argument
// checks in signature order with the logged 1-based position, outputs untouched on every error,
// fp64 -> NOT_SUPPORTED, legacy bsrmm/bsrmv and conversions against the generic API, profiles.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "sparse_test_util.hpp"
#include "trnsparse.h"

extern "C" {
int trnsparse_sample_spmm_csr(void);
int trnsparse_sample_spmm_bsr(void);
int trnsparse_sample_spmv_csr(void);
int trnsparse_sample_spmm_coo(void);
int trnsparse_sample_sddmm_csr(void);
int trnsparse_sample_sddmm_bsr(void);
int trnsparse_sample_spmv_csc(void);
int trnsparse_sample_spmm_blockedell(void);
int trnsparse_c_header_check(void);
}

namespace {

TEST(CApiSamples, PortedCusparseSamplesPassTheirChecks) {
  EXPECT_EQ(trnsparse_sample_spmm_csr(), 0);
  EXPECT_EQ(trnsparse_sample_spmm_bsr(), 0);
  EXPECT_EQ(trnsparse_sample_spmv_csr(), 0);
  EXPECT_EQ(trnsparse_sample_spmm_coo(), 0);
  EXPECT_EQ(trnsparse_sample_sddmm_csr(), 0);
  EXPECT_EQ(trnsparse_sample_sddmm_bsr(), 0);
  EXPECT_EQ(trnsparse_sample_spmv_csc(), 0);
  EXPECT_EQ(trnsparse_sample_spmm_blockedell(), 0);
  EXPECT_EQ(trnsparse_c_header_check(), 0);
}

std::vector<std::string> g_lines;
void capture(const char* msg) { g_lines.emplace_back(msg); }

// A small valid SpMM problem through the generic API; tests break one argument at a time.
struct Problem {
  trnsparseHandle_t h = nullptr;
  trnsparse_test::TestBsr A = trnsparse_test::random_bsr(4, 3, 8, 8, 0.6, 5, trnsparse_test::BlockOrder::row,
                                                          trnsparse_test::IndexBase::one, trnsparse_test::IndexType::i32);
  std::vector<float> B = std::vector<float>(24 * 5, 1.0f), C = std::vector<float>(32 * 5, 3.0f);
  trnsparseSpMatDescr_t mA = nullptr;
  trnsparseDnMatDescr_t mB = nullptr, mC = nullptr;
  float alpha = 1.0f, beta = 0.5f;
  Problem() {
    trnsparseCreate(&h);
    make_a();
    trnsparseCreateDnMat(&mB, 24, 5, 24, B.data(), TRN_R_32F, TRNSPARSE_ORDER_COL);
    trnsparseCreateDnMat(&mC, 32, 5, 32, C.data(), TRN_R_32F, TRNSPARSE_ORDER_COL);
    trnsparseSetLoggerCallback(capture);
    g_lines.clear();
  }
  void make_a() {
    if (mA != nullptr) trnsparseDestroySpMat(mA);
    trnsparseCreateBsr(&mA, 4, 3, A.bnnz(), 8, 8, A.off32.data(), A.col32.data(), A.values.data(), TRNSPARSE_INDEX_32I,
                       TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ONE, TRN_R_32F, TRNSPARSE_ORDER_ROW);
  }
  ~Problem() {
    trnsparseSetLoggerCallback(nullptr);
    trnsparseDestroySpMat(mA);
    trnsparseDestroyDnMat(mB);
    trnsparseDestroyDnMat(mC);
    trnsparseDestroy(h);
  }
  trnsparseStatus_t spmm(int opA = 0, int opB = 0, const void* a = nullptr, trnsparseConstSpMatDescr_t A_ = nullptr,
                         trnsparseConstDnMatDescr_t B_ = nullptr, const void* b = nullptr,
                         trnsparseDnMatDescr_t C_ = nullptr, int ct = TRN_R_32F, int alg = 0, bool use_a = true,
                         bool use_b = true) {
    return trnsparseSpMM(h, static_cast<trnsparseOperation_t>(opA), static_cast<trnsparseOperation_t>(opB),
                         use_a ? (a ? a : &alpha) : nullptr, A_ ? A_ : mA, B_ ? B_ : mB, use_b ? (b ? b : &beta) : nullptr,
                         C_ ? C_ : mC, static_cast<trnDataType_t>(ct), static_cast<trnsparseSpMMAlg_t>(alg), nullptr);
  }
  int last_param() {
    int p = -1;
    trnsparseGetLastErrorParameter(h, &p);
    return p;
  }
};

TEST(CApiSpMM, EachBadArgumentIsReportedAtItsPositionAndCIsUntouched) {
  Problem p;
  const std::vector<float> before = p.C;
  struct Case {
    trnsparseStatus_t st;
    int position;
    int recorded;      // trnsparseGetLastErrorParameter
    std::string line;  // the logged line
  };
  std::vector<Case> cases;
  auto add = [&](trnsparseStatus_t st, int position) {
    cases.push_back({st, position, p.last_param(), g_lines.empty() ? std::string() : g_lines.back()});
  };
  add(p.spmm(7), 1);
  add(p.spmm(0, -1), 2);
  add(p.spmm(0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, TRN_R_32F, 0, false), 3);
  add(p.spmm(0, 0, nullptr, reinterpret_cast<trnsparseConstSpMatDescr_t>(&p)), 4);
  add(p.spmm(0, 0, nullptr, nullptr, p.mC), 5);  // 32 x 5 is not K x n
  add(p.spmm(0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, TRN_R_32F, 0, true, false), 6);
  add(p.spmm(0, 0, nullptr, nullptr, nullptr, nullptr, p.mB), 7);
  add(p.spmm(0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, TRN_R_16BF), 8);
  add(p.spmm(0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, TRN_R_32F, 99), 9);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(cases[i].st, TRNSPARSE_STATUS_INVALID_VALUE) << "case " << i;
    EXPECT_EQ(cases[i].recorded, cases[i].position) << "case " << i;
    EXPECT_NE(cases[i].line.find("parameter number " + std::to_string(cases[i].position)), std::string::npos)
        << cases[i].line;
  }
  EXPECT_EQ(p.C, before);
  EXPECT_EQ(p.spmm(), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_NE(p.C, before);
}

TEST(CApiSpMM, BadIndexArraysAreInvalidValueAtMatA) {
  Problem p;
  const std::vector<float> before = p.C;
  auto expect_bad = [&](const char* what) {
    p.make_a();
    EXPECT_EQ(p.spmm(), TRNSPARSE_STATUS_INVALID_VALUE) << what;
    EXPECT_EQ(p.last_param(), 4) << what;
    EXPECT_EQ(p.C, before) << what;
    EXPECT_EQ(trnsparseSpMM_preprocess(p.h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                       &p.alpha, p.mA, p.mB, &p.beta, p.mC, TRN_R_32F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr),
              TRNSPARSE_STATUS_INVALID_VALUE)
        << what;
  };
  const trnsparse_test::TestBsr good = p.A;
  p.A.col32[0] = 4;  // base 1: columns 1..3
  expect_bad("column out of range");
  p.A = good;
  p.A.off32[2] = p.A.off32[1] - 1;
  expect_bad("offsets not monotone");
  p.A = good;
  p.A.off32.back() += 1;
  expect_bad("bnnz inconsistent");
  p.A = good;
  p.A.off32[0] = 0;
  expect_bad("offsets[0] != base");
}

TEST(CApiSpMM, Fp64IsNotSupportedAndLogged) {
  Problem p;
  std::vector<double> d(120, 1.0);
  trnsparseDnMatDescr_t mB64 = nullptr;
  ASSERT_EQ(trnsparseCreateDnMat(&mB64, 24, 5, 24, d.data(), TRN_R_64F, TRNSPARSE_ORDER_COL), TRNSPARSE_STATUS_SUCCESS);
  const std::vector<float> before = p.C;
  EXPECT_EQ(p.spmm(0, 0, nullptr, nullptr, mB64), TRNSPARSE_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(p.C, before);
  trnsparseDestroyDnMat(mB64);
  EXPECT_NE(g_lines.back().find("NOT_SUPPORTED"), std::string::npos);
  // legacy Dbsrmm runs on the host step now (test_trnsparse_csrgeam WideBsr); its chain still logs positions
  double one = 1.0;
  EXPECT_EQ(trnsparseDbsrmm(p.h, TRNSPARSE_DIRECTION_ROW, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                            TRNSPARSE_OPERATION_NON_TRANSPOSE, 1, 1, 1, 0, &one, nullptr, nullptr, nullptr, nullptr, 1,
                            nullptr, 1, &one, nullptr, 1),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_NE(g_lines.back().find("parameter number 9"), std::string::npos);
}

TEST(CApiSpMM, ProfileCountsOneMatmulPerStoredBlock) {
  Problem p;
  ASSERT_EQ(p.spmm(), TRNSPARSE_STATUS_SUCCESS);
  trnProfile_t prof{};
  ASSERT_EQ(trnsparseGetLastProfile(p.h, &prof), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(prof.instructions_per_engine[TRN_ENGINE_TENSOR], p.A.bnnz());
  EXPECT_GT(prof.total_ns, 0.0);
  EXPECT_EQ(prof.target, TRN_TARGET_TRN1);
}

TEST(CApiHandles, NullAndDestroyedHandlesAreNotInitialized) {
  float a = 1.0f;
  EXPECT_EQ(trnsparseSpMM(nullptr, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &a, nullptr,
                          nullptr, &a, nullptr, TRN_R_32F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_NOT_INITIALIZED);
  trnsparseHandle_t h = nullptr;
  ASSERT_EQ(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
  trnStream_t s = reinterpret_cast<trnStream_t>(0x1234), got = nullptr;
  EXPECT_EQ(trnsparseSetStream(h, s), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(trnsparseGetStream(h, &got), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(got, s);
  ASSERT_EQ(trnsparseDestroy(h), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(trnsparseGetStream(h, &got), TRNSPARSE_STATUS_NOT_INITIALIZED);
  EXPECT_STREQ(trnsparseGetErrorName(TRNSPARSE_STATUS_INVALID_VALUE), "TRNSPARSE_STATUS_INVALID_VALUE");
}

TEST(CApiDescriptors, CreateBsrChecksEveryArgument) {
  trnsparseSpMatDescr_t d = nullptr;
  int off[2] = {0, 0};
  std::vector<std::string> before;
  trnsparseSetLoggerCallback(capture);
  auto pos = [&](trnsparseStatus_t st) {
    EXPECT_EQ(st, TRNSPARSE_STATUS_INVALID_VALUE);
    const std::string& l = g_lines.back();
    const std::size_t at = l.find("parameter number ");
    return at == std::string::npos ? -1 : std::stoi(l.substr(at + 17));
  };
  auto mk = [&](trnsparseSpMatDescr_t* out, int64_t brows, int64_t rb, void* offs, int ot, int base, int vt, int order) {
    return trnsparseCreateBsr(out, brows, 1, 0, rb, 1, offs, nullptr, nullptr, static_cast<trnsparseIndexType_t>(ot),
                              TRNSPARSE_INDEX_32I, static_cast<trnsparseIndexBase_t>(base), static_cast<trnDataType_t>(vt),
                              static_cast<trnsparseOrder_t>(order));
  };
  EXPECT_EQ(pos(mk(nullptr, 1, 1, off, 2, 0, 0, 2)), 1);
  EXPECT_EQ(pos(mk(&d, -1, 1, off, 2, 0, 0, 2)), 2);
  EXPECT_EQ(pos(mk(&d, 1, 0, off, 2, 0, 0, 2)), 5);
  EXPECT_EQ(pos(mk(&d, 1, 1, off, 1, 0, 0, 2)), 10);  // 16U
  EXPECT_EQ(pos(mk(&d, 1, 1, off, 2, 2, 0, 2)), 12);
  EXPECT_EQ(pos(mk(&d, 1, 1, off, 2, 0, 77, 2)), 13);
  EXPECT_EQ(pos(mk(&d, 1, 1, off, 2, 0, 0, 0)), 14);  // 0 is DIRECTION_ROW, not an order
  EXPECT_EQ(d, nullptr);
  ASSERT_EQ(mk(&d, 1, 1, off, 2, 0, 0, 2), TRNSPARSE_STATUS_SUCCESS);
  int fill = TRNSPARSE_FILL_MODE_UPPER, got = -1;
  EXPECT_EQ(trnsparseSpMatSetAttribute(d, TRNSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(trnsparseSpMatGetAttribute(d, TRNSPARSE_SPMAT_FILL_MODE, &got, sizeof got), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(got, TRNSPARSE_FILL_MODE_UPPER);
  EXPECT_EQ(trnsparseSpMatGetAttribute(d, TRNSPARSE_SPMAT_DIAG_TYPE, &got, 2), TRNSPARSE_STATUS_INVALID_VALUE);
  trnsparseFormat_t f;
  EXPECT_EQ(trnsparseSpMatGetFormat(d, &f), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(f, TRNSPARSE_FORMAT_BSR);
  EXPECT_EQ(trnsparseDestroySpMat(d), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(trnsparseDestroySpMat(d), TRNSPARSE_STATUS_INVALID_VALUE);
  trnsparseSetLoggerCallback(nullptr);
}

TEST(CApiSpMV, ArgumentsAndIndexArraysChecked) {
  Problem p;
  std::vector<float> x(24, 1.0f), y(32, 2.0f), y_short(31, 2.0f);
  trnsparseDnVecDescr_t vx, vy, vshort;
  ASSERT_EQ(trnsparseCreateDnVec(&vx, 24, x.data(), TRN_R_32F), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseCreateDnVec(&vy, 32, y.data(), TRN_R_32F), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseCreateDnVec(&vshort, 31, y_short.data(), TRN_R_32F), TRNSPARSE_STATUS_SUCCESS);
  const std::vector<float> before = y;
  auto spmv = [&](int opA, trnsparseDnVecDescr_t out, int alg) {
    return trnsparseSpMV(p.h, static_cast<trnsparseOperation_t>(opA), &p.alpha, p.mA, vx, &p.beta, out, TRN_R_32F,
                         static_cast<trnsparseSpMVAlg_t>(alg), nullptr);
  };
  EXPECT_EQ(spmv(5, vy, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(p.last_param(), 1);
  EXPECT_EQ(spmv(0, vshort, 0), TRNSPARSE_STATUS_INVALID_VALUE);  // y must have M = 32 entries
  EXPECT_EQ(p.last_param(), 6);
  EXPECT_EQ(spmv(0, vy, 12), TRNSPARSE_STATUS_INVALID_VALUE);  // 12 is an SpMM algorithm, not SpMV
  EXPECT_EQ(p.last_param(), 8);
  p.A.col32.back() = 0;  // base 1: below the base
  p.make_a();
  EXPECT_EQ(spmv(0, vy, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(p.last_param(), 3);
  EXPECT_EQ(y, before);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vy);
  trnsparseDestroyDnVec(vshort);
}

TEST(CApiSDDMM, ArgumentsAndPatternChecked) {
  Problem p;  // C pattern: p.A (32 x 24, BSR); dense A 32 x 7, B 7 x 24
  std::vector<float> a(32 * 7, 1.0f), b(7 * 24, 1.0f);
  trnsparseDnMatDescr_t mA, mB;
  trnsparseConstDnMatDescr_t mBc;
  ASSERT_EQ(trnsparseCreateDnMat(&mA, 32, 7, 32, a.data(), TRN_R_32F, TRNSPARSE_ORDER_COL), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseCreateDnMat(&mB, 7, 24, 24, b.data(), TRN_R_32F, TRNSPARSE_ORDER_ROW), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseCreateConstDnMat(&mBc, 7, 24, 24, b.data(), TRN_R_32F, TRNSPARSE_ORDER_ROW), TRNSPARSE_STATUS_SUCCESS);
  const trn::sparse::BsrView v = p.A.view();
  const std::vector<float> before = p.A.values.f32;
  auto sddmm = [&](int opB, trnsparseConstDnMatDescr_t B, int alg) {
    return trnsparseSDDMM(p.h, TRNSPARSE_OPERATION_NON_TRANSPOSE, static_cast<trnsparseOperation_t>(opB), &p.alpha, mA, B,
                          &p.beta, p.mA, TRN_R_32F, static_cast<trnsparseSDDMMAlg_t>(alg), nullptr);
  };
  EXPECT_EQ(sddmm(1, mB, 0), TRNSPARSE_STATUS_INVALID_VALUE);  // op(B) = B^T is 24 x 7, not 7 x 24
  EXPECT_EQ(p.last_param(), 5);
  EXPECT_EQ(sddmm(0, mB, 1), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(p.last_param(), 9);
  // A const sparse descriptor cannot be the output.
  trnsparseConstSpMatDescr_t cC;
  ASSERT_EQ(trnsparseCreateConstBsr(&cC, 4, 3, v.bnnz, 8, 8, v.offsets, v.columns, v.values, TRNSPARSE_INDEX_32I,
                                    TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ONE, TRN_R_32F, TRNSPARSE_ORDER_ROW),
            TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(trnsparseSDDMM(p.h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &p.alpha, mA, mBc,
                           &p.beta, const_cast<trnsparseSpMatDescr_t>(cC), TRN_R_32F, TRNSPARSE_SDDMM_ALG_DEFAULT, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(p.last_param(), 7);
  std::swap(p.A.col32[0], p.A.col32[1]);  // unsorted (or duplicate) columns in block row 0
  p.make_a();
  EXPECT_EQ(sddmm(0, mB, 0), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(p.last_param(), 7);
  EXPECT_EQ(p.A.values.f32, before);
  std::swap(p.A.col32[0], p.A.col32[1]);
  p.make_a();
  ASSERT_EQ(sddmm(0, mBc, 0), TRNSPARSE_STATUS_SUCCESS);
  // Every stored value is now alpha * 7 + beta * old (A and B all ones, K = 7).
  for (std::size_t i = 0; i < before.size(); ++i) ASSERT_EQ(p.A.values.f32[i], 7.0f + 0.5f * before[i]) << i;
  trnsparseDestroySpMat(cC);
  trnsparseDestroyDnMat(mA);
  trnsparseDestroyDnMat(mB);
  trnsparseDestroyDnMat(mBc);
}

// Legacy path: CSR -> BSR (Xcsr2bsrNnz + Scsr2bsr), Sbsrmm and Sbsrmv against the generic SpMM/SpMV
// on the CSR matrix; integer values so that every order of summation gives the same bits.
TEST(CApiLegacy, Csr2BsrThenBsrmmEqualsGenericSpMM) {
  const int m = 20, k = 14, n = 6, bd = 4;
  std::vector<int> off{1}, col;
  std::vector<float> val;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < k; ++j)
      if ((i * 7 + j * 3) % 5 == 0) {
        col.push_back(j + 1);
        val.push_back(static_cast<float>((i + 2 * j) % 9 - 4));
      }
    off.push_back(static_cast<int>(col.size()) + 1);
  }
  trnsparseHandle_t h;
  trnsparseCreate(&h);
  trnsparseMatDescr_t dA, dC;
  trnsparseCreateMatDescr(&dA);
  trnsparseCreateMatDescr(&dC);
  trnsparseSetMatIndexBase(dA, TRNSPARSE_INDEX_BASE_ONE);
  const int mb = (m + bd - 1) / bd, kb = (k + bd - 1) / bd;
  std::vector<int> boff(mb + 1);
  int bnnz = -1;
  ASSERT_EQ(trnsparseXcsr2bsrNnz(h, TRNSPARSE_DIRECTION_COLUMN, m, k, dA, off.data(), col.data(), bd, dC, boff.data(), &bnnz),
            TRNSPARSE_STATUS_SUCCESS);
  ASSERT_GT(bnnz, 0);
  std::vector<int> bcol(bnnz);
  std::vector<float> bval(static_cast<std::size_t>(bnnz) * bd * bd);
  ASSERT_EQ(trnsparseScsr2bsr(h, TRNSPARSE_DIRECTION_COLUMN, m, k, dA, val.data(), off.data(), col.data(), bd, dC,
                              bval.data(), boff.data(), bcol.data()),
            TRNSPARSE_STATUS_SUCCESS);
  std::vector<float> B(static_cast<std::size_t>(kb * bd) * n, 0.0f), C1(static_cast<std::size_t>(mb * bd) * n, 0.0f);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < k; ++i) B[static_cast<std::size_t>(i + j * kb * bd)] = static_cast<float>((i * j) % 7 - 3);
  const float one = 1.0f, zero = 0.0f;
  ASSERT_EQ(trnsparseSbsrmm(h, TRNSPARSE_DIRECTION_COLUMN, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                            TRNSPARSE_OPERATION_NON_TRANSPOSE, mb, n, kb, bnnz, &one, dC, bval.data(), boff.data(),
                            bcol.data(), bd, B.data(), kb * bd, &zero, C1.data(), mb * bd),
            TRNSPARSE_STATUS_SUCCESS);
  // A bad ldb is parameter 15 and leaves C alone.
  const std::vector<float> keep = C1;
  EXPECT_EQ(trnsparseSbsrmm(h, TRNSPARSE_DIRECTION_COLUMN, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                            TRNSPARSE_OPERATION_NON_TRANSPOSE, mb, n, kb, bnnz, &one, dC, bval.data(), boff.data(),
                            bcol.data(), bd, B.data(), kb * bd - 1, &zero, C1.data(), mb * bd),
            TRNSPARSE_STATUS_INVALID_VALUE);
  int p = 0;
  trnsparseGetLastErrorParameter(h, &p);
  EXPECT_EQ(p, 15);
  EXPECT_EQ(C1, keep);
  // Generic SpMM on the CSR matrix (B's first k rows).
  std::vector<float> C2(static_cast<std::size_t>(m) * n, 0.0f);
  trnsparseSpMatDescr_t A;
  trnsparseDnMatDescr_t mB, mC;
  trnsparseCreateCsr(&A, m, k, static_cast<int64_t>(col.size()), off.data(), col.data(), val.data(), TRNSPARSE_INDEX_32I,
                     TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ONE, TRN_R_32F);
  trnsparseCreateDnMat(&mB, k, n, kb * bd, B.data(), TRN_R_32F, TRNSPARSE_ORDER_COL);
  trnsparseCreateDnMat(&mC, m, n, m, C2.data(), TRN_R_32F, TRNSPARSE_ORDER_COL);
  ASSERT_EQ(trnsparseSpMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one, A, mB, &zero, mC,
                          TRN_R_32F, TRNSPARSE_SPMM_CSR_ALG1, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) ASSERT_EQ(C1[static_cast<std::size_t>(i + j * mb * bd)], C2[static_cast<std::size_t>(i + j * m)]);
  // Sbsrmv on column 0 of B equals column 0 of C.
  std::vector<float> y(static_cast<std::size_t>(mb * bd), 5.0f);
  ASSERT_EQ(trnsparseSbsrmv(h, TRNSPARSE_DIRECTION_COLUMN, TRNSPARSE_OPERATION_NON_TRANSPOSE, mb, kb, bnnz, &one, dC,
                            bval.data(), boff.data(), bcol.data(), bd, B.data(), &zero, y.data()),
            TRNSPARSE_STATUS_SUCCESS);
  for (int i = 0; i < m; ++i) ASSERT_EQ(y[static_cast<std::size_t>(i)], C2[static_cast<std::size_t>(i)]);
  // Back to CSR: block entries of row 0 appear in column order.
  std::vector<int> coff(mb * bd + 1), ccol(static_cast<std::size_t>(bnnz) * bd * bd);
  std::vector<float> cval(ccol.size());
  ASSERT_EQ(trnsparseSbsr2csr(h, TRNSPARSE_DIRECTION_COLUMN, mb, kb, dC, bval.data(), boff.data(), bcol.data(), bd, dA,
                              cval.data(), coff.data(), ccol.data()),
            TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(coff[0], 1);
  EXPECT_EQ(coff[mb * bd], bnnz * bd * bd + 1);
  trnsparseDestroySpMat(A);
  trnsparseDestroyDnMat(mB);
  trnsparseDestroyDnMat(mC);
  trnsparseDestroyMatDescr(dA);
  trnsparseDestroyMatDescr(dC);
  trnsparseDestroy(h);
}

}  // namespace

namespace {

// Randomised descriptors (a deterministic stand-in for the libFuzzer harness): random
// small BSR matrices, one random corruption of their index arrays or sizes, then CreateBsr +
// SpMM + SpMV. The test's own validator (written here from the documented rules) decides whether
// the input is valid; the library must agree: SUCCESS with the OpenBLAS-checked result when valid,
// INVALID_VALUE with untouched outputs otherwise, never a crash.
bool valid_bsr(std::int64_t brows, std::int64_t bcols, std::int64_t bnnz, std::int64_t rb, std::int64_t cb, int base,
               const std::vector<std::int32_t>& off, const std::vector<std::int32_t>& col) {
  if (brows < 0 || bcols < 0 || bnnz < 0 || rb < 1 || cb < 1) return false;
  if (off.empty() || off[0] != base) return false;
  for (std::int64_t r = 0; r < brows; ++r)
    if (off[static_cast<std::size_t>(r + 1)] < off[static_cast<std::size_t>(r)] || off[static_cast<std::size_t>(r + 1)] - base > bnnz)
      return false;
  if (off[static_cast<std::size_t>(brows)] - base != bnnz) return false;
  for (std::int64_t r = 0; r < brows; ++r)
    for (std::int32_t e = off[static_cast<std::size_t>(r)] - base; e < off[static_cast<std::size_t>(r + 1)] - base; ++e) {
      if (e >= static_cast<std::int32_t>(col.size())) return false;
      const std::int32_t c = col[static_cast<std::size_t>(e)] - base;
      if (c < 0 || c >= bcols) return false;
      if (e > off[static_cast<std::size_t>(r)] - base && c <= col[static_cast<std::size_t>(e - 1)] - base) return false;
    }
  return true;
}

TEST(CApiRandomised, CorruptedDescriptorsAreRejectedExactlyWhenInvalid) {
  std::mt19937_64 rng(2024);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  trnsparseHandle_t h;
  ASSERT_EQ(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
  int valid_runs = 0, invalid_runs = 0;
  for (int iter = 0; iter < 400; ++iter) {
    const int base = pick(0, 1);
    auto A = trnsparse_test::random_bsr(pick(1, 5), pick(1, 5), pick(1, 9), pick(1, 9), 0.5, 1000 + iter,
                                        pick(0, 1) ? trnsparse_test::BlockOrder::row : trnsparse_test::BlockOrder::col,
                                        base ? trnsparse_test::IndexBase::one : trnsparse_test::IndexBase::zero);
    std::int64_t brows = A.brows, bcols = A.bcols, bnnz = A.bnnz(), rb = A.rb, cb = A.cb;
    // One corruption (or none).
    switch (pick(0, 7)) {
      case 0: if (!A.col32.empty()) A.col32[static_cast<std::size_t>(pick(0, static_cast<int>(A.col32.size()) - 1))] += pick(-3, 3); break;
      case 1: A.off32[static_cast<std::size_t>(pick(0, static_cast<int>(A.off32.size()) - 1))] += pick(-2, 2); break;
      case 2: bnnz += pick(-2, 2); break;
      case 3: rb = pick(-1, 0); break;
      case 4: if (A.col32.size() >= 2) std::swap(A.col32[0], A.col32[1]); break;
      case 5: bcols = pick(0, static_cast<int>(bcols)); break;
      default: break;
    }
    // Keep the arrays at least as long as the sizes claim, so that only their contents are wrong.
    A.col32.resize(static_cast<std::size_t>(std::max<std::int64_t>({bnnz, 0, static_cast<std::int64_t>(A.col32.size())})) + 2, base);
    A.values.f32.resize(static_cast<std::size_t>(std::max<std::int64_t>(bnnz, 0) * std::max<std::int64_t>(rb, 1) * cb) + 1, 1.0f);
    const bool expect_valid = valid_bsr(brows, bcols, bnnz, rb, cb, base, A.off32, A.col32);
    trnsparseSpMatDescr_t d = nullptr;
    const trnsparseStatus_t created = trnsparseCreateBsr(
        &d, brows, bcols, bnnz, rb, cb, A.off32.data(), A.col32.data(), A.values.f32.data(), TRNSPARSE_INDEX_32I,
        TRNSPARSE_INDEX_32I, base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F,
        A.order == trnsparse_test::BlockOrder::row ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL);
    if (created != TRNSPARSE_STATUS_SUCCESS) {
      ASSERT_EQ(created, TRNSPARSE_STATUS_INVALID_VALUE);
      ASSERT_FALSE(expect_valid) << "iteration " << iter;
      ++invalid_runs;
      continue;
    }
    const std::int64_t M = brows * rb, K = bcols * cb, n = 3;
    std::vector<float> B(static_cast<std::size_t>(std::max<std::int64_t>(K, 1) * n), 0.5f);
    std::vector<float> C(static_cast<std::size_t>(std::max<std::int64_t>(M, 1) * n), 7.0f);
    const std::vector<float> C0 = C;
    trnsparseDnMatDescr_t mB, mC;
    ASSERT_EQ(trnsparseCreateDnMat(&mB, K, n, std::max<std::int64_t>(K, 1), B.data(), TRN_R_32F, TRNSPARSE_ORDER_COL), 0);
    ASSERT_EQ(trnsparseCreateDnMat(&mC, M, n, std::max<std::int64_t>(M, 1), C.data(), TRN_R_32F, TRNSPARSE_ORDER_COL), 0);
    const float one = 1.0f, zero = 0.0f;
    const trnsparseStatus_t st = trnsparseSpMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                               &one, d, mB, &zero, mC, TRN_R_32F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr);
    if (expect_valid) {
      ASSERT_EQ(st, TRNSPARSE_STATUS_SUCCESS) << "iteration " << iter;
      // Row sums of A times 0.5, checked against the test's own expansion.
      A.columns.assign(A.col32.begin(), A.col32.begin() + bnnz);
      for (auto& c : A.columns) c -= base;
      A.offsets.assign(A.off32.begin(), A.off32.end());
      for (auto& o : A.offsets) o -= base;
      A.bcols = bcols;
      const std::vector<float> dense = A.dense();
      for (std::int64_t i = 0; i < M; ++i) {
        double s = 0;
        for (std::int64_t k = 0; k < K; ++k) s += 0.5 * dense[static_cast<std::size_t>(i + k * M)];
        ASSERT_NEAR(C[static_cast<std::size_t>(i)], s, 1e-5 * (1 + std::fabs(s))) << "iteration " << iter;
      }
      ++valid_runs;
    } else {
      ASSERT_EQ(st, TRNSPARSE_STATUS_INVALID_VALUE) << "iteration " << iter;
      ASSERT_EQ(C, C0);
      ++invalid_runs;
    }
    trnsparseDestroyDnMat(mB);
    trnsparseDestroyDnMat(mC);
    trnsparseDestroySpMat(d);
  }
  EXPECT_GT(valid_runs, 50);
  EXPECT_GT(invalid_runs, 100);
  trnsparseDestroy(h);
}

}  // namespace

namespace {

TEST(CApiStrict, StrictModeRestoresCusparseLimits) {
  Problem p;
  int on = -1;
  ASSERT_EQ(trnsparseGetStrictMode(p.h, &on), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(on, 0);
  // Relaxed (default): CONJUGATE_TRANSPOSE is TRANSPOSE for real values; legacy transA = T and
  // blockDim = 1 are accepted.
  std::vector<float> Ct(24 * 5, 0.0f), Bt(32 * 5, 1.0f);
  trnsparseDnMatDescr_t mBt, mCt;
  trnsparseCreateDnMat(&mBt, 32, 5, 32, Bt.data(), TRN_R_32F, TRNSPARSE_ORDER_COL);
  trnsparseCreateDnMat(&mCt, 24, 5, 24, Ct.data(), TRN_R_32F, TRNSPARSE_ORDER_COL);
  EXPECT_EQ(p.spmm(2, 0, nullptr, nullptr, mBt, nullptr, mCt), TRNSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(trnsparseSetStrictMode(p.h, 1), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(p.spmm(2, 0, nullptr, nullptr, mBt, nullptr, mCt), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(p.last_param(), 1);
  EXPECT_EQ(p.spmm(1, 0, nullptr, nullptr, mBt, nullptr, mCt), TRNSPARSE_STATUS_SUCCESS);  // plain T stays legal
  trnsparseMatDescr_t d;
  trnsparseCreateMatDescr(&d);
  const int off[2] = {0, 1}, col[1] = {0};
  const float val[1] = {2.0f}, x[1] = {3.0f}, one = 1.0f, zero = 0.0f;
  float y[1] = {0.0f};
  EXPECT_EQ(trnsparseSbsrmv(p.h, TRNSPARSE_DIRECTION_ROW, TRNSPARSE_OPERATION_NON_TRANSPOSE, 1, 1, 1, &one, d, val, off, col,
                            1, x, &zero, y),
            TRNSPARSE_STATUS_INVALID_VALUE);  // blockDim 1: cuSPARSE requires > 1
  EXPECT_EQ(p.last_param(), 11);
  EXPECT_EQ(y[0], 0.0f);
  ASSERT_EQ(trnsparseSetStrictMode(p.h, 0), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(trnsparseSbsrmv(p.h, TRNSPARSE_DIRECTION_ROW, TRNSPARSE_OPERATION_NON_TRANSPOSE, 1, 1, 1, &one, d, val, off, col,
                            1, x, &zero, y),
            TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(y[0], 6.0f);
  trnsparseDestroyMatDescr(d);
  trnsparseDestroyDnMat(mBt);
  trnsparseDestroyDnMat(mCt);
}

}  // namespace

namespace {

// SpGEMM through cuSPARSE's phases: workEstimation, compute, SpMatGetSize, allocate,
// BsrSetPointers, copy; C against OpenBLAS on the densified operands (SpMM bound).
TEST(CApiSpGEMM, PhasesProduceTheProductAndCheckTheirOrder) {
  using namespace trnsparse_test;
  TestBsr A = random_bsr(5, 4, 8, 6, 0.4, 171, BlockOrder::col, IndexBase::one, IndexType::i32);
  TestBsr B = random_bsr(4, 6, 6, 10, 0.4, 172, BlockOrder::row, IndexBase::one, IndexType::i32);
  trnsparseHandle_t h;
  trnsparseCreate(&h);
  trnsparseSpMatDescr_t mA, mB, mC;
  ASSERT_EQ(trnsparseCreateBsr(&mA, 5, 4, A.bnnz(), 8, 6, A.off32.data(), A.col32.data(), A.values.data(),
                               TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ONE, TRN_R_32F, TRNSPARSE_ORDER_COL), 0);
  ASSERT_EQ(trnsparseCreateBsr(&mB, 4, 6, B.bnnz(), 6, 10, B.off32.data(), B.col32.data(), B.values.data(),
                               TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ONE, TRN_R_32F, TRNSPARSE_ORDER_ROW), 0);
  ASSERT_EQ(trnsparseCreateBsr(&mC, 5, 6, 0, 8, 10, nullptr, nullptr, nullptr, TRNSPARSE_INDEX_64I, TRNSPARSE_INDEX_64I,
                               TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F, TRNSPARSE_ORDER_COL), 0);
  trnsparseSpGEMMDescr_t g;
  ASSERT_EQ(trnsparseSpGEMM_createDescr(&g), 0);
  const float alpha = 2.0f, beta = 0.0f;
  const auto N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
  size_t b1 = 0, b2 = 0;
  // compute before workEstimation is an ordering error (parameter 10, the descriptor).
  EXPECT_EQ(trnsparseSpGEMM_compute(h, N, N, &alpha, mA, mB, &beta, mC, TRN_R_32F, TRNSPARSE_SPGEMM_DEFAULT, g, &b2, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  const float beta_bad = 1.0f;
  EXPECT_EQ(trnsparseSpGEMM_workEstimation(h, N, N, &alpha, mA, mB, &beta_bad, mC, TRN_R_32F, TRNSPARSE_SPGEMM_DEFAULT, g,
                                           &b1, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnsparseSpGEMM_workEstimation(h, N, N, &alpha, mA, mB, &beta, mC, TRN_R_32F, TRNSPARSE_SPGEMM_DEFAULT, g, &b1,
                                           nullptr), 0);
  std::vector<char> buf1(b1);
  ASSERT_EQ(trnsparseSpGEMM_workEstimation(h, N, N, &alpha, mA, mB, &beta, mC, TRN_R_32F, TRNSPARSE_SPGEMM_DEFAULT, g, &b1,
                                           buf1.data()), 0);
  ASSERT_EQ(trnsparseSpGEMM_compute(h, N, N, &alpha, mA, mB, &beta, mC, TRN_R_32F, TRNSPARSE_SPGEMM_DEFAULT, g, &b2, nullptr), 0);
  int64_t rows = 0, cols = 0, bnnz = 0;
  ASSERT_EQ(trnsparseSpMatGetSize(mC, &rows, &cols, &bnnz), 0);
  EXPECT_EQ(rows, 40);
  EXPECT_EQ(cols, 60);
  ASSERT_GT(bnnz, 0);
  std::vector<std::int64_t> coff(6), ccol(static_cast<std::size_t>(bnnz));
  std::vector<float> cval(static_cast<std::size_t>(bnnz) * 80);
  // copy before the arrays are set: parameter 7 (matC).
  EXPECT_EQ(trnsparseSpGEMM_copy(h, N, N, &alpha, mA, mB, &beta, mC, TRN_R_32F, TRNSPARSE_SPGEMM_DEFAULT, g),
            TRNSPARSE_STATUS_INVALID_VALUE);
  ASSERT_EQ(trnsparseBsrSetPointers(mC, coff.data(), ccol.data(), cval.data()), 0);
  ASSERT_EQ(trnsparseSpGEMM_copy(h, N, N, &alpha, mA, mB, &beta, mC, TRN_R_32F, TRNSPARSE_SPGEMM_DEFAULT, g), 0);
  // Expand C (column-major blocks, base 0) and compare with OpenBLAS.
  TestBsr C;
  C.brows = 5; C.bcols = 6; C.rb = 8; C.cb = 10; C.order = BlockOrder::col;
  C.offsets = coff;
  C.columns = ccol;
  C.values.type = trn::DType::f32;
  C.values.f32 = cval;
  const std::vector<float> zeros(40 * 60, 0.0f);
  const Reference ref = reference_gemm(Op::N, Op::N, 40, 60, 24, 2.0f, A.dense(), 40, B.dense(), 24, 0.0f, zeros);
  const std::vector<float> cd = C.dense();
  for (std::size_t q = 0; q < cd.size(); ++q) ASSERT_LE(std::fabs(cd[q] - ref.c[q]), bound(24, ref.scale[q])) << q;
  trnProfile_t prof{};
  trnsparseGetLastProfile(h, &prof);
  EXPECT_GT(prof.instructions_per_engine[TRN_ENGINE_TENSOR], 0);
  trnsparseSpGEMM_destroyDescr(g);
  trnsparseDestroySpMat(mA);
  trnsparseDestroySpMat(mB);
  trnsparseDestroySpMat(mC);
  trnsparseDestroy(h);
}

}  // namespace
