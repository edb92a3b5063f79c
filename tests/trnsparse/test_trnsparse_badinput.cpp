// Issue #28's bad-input rules across every analysis phase, in one place: a CSR whose column indices
// are unsorted within a row, or out of range (>= n, negative), is INVALID_VALUE at matA's position
// (never an out-of-bounds read: the fuzz harness runs the same phases under AddressSanitizer) for
// SpSV_analysis, SpSM_analysis, SpGEMM_workEstimation, SpGEMMreuse_workEstimation, csrilu02_analysis
// and csric02_analysis, and the phase's outputs (C's offsets) are untouched; a singular triangle
// (a stored zero on the diagonal, or a missing diagonal entry) passes the analysis and makes
// SpSV_solve / SpSM_solve return ZERO_PIVOT with y / C bit-identical (no Inf or NaN written):
// docs/trnsparse.md "Zero pivots" (cuSPARSE's generic API leaves it unspecified).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "trnsparse.h"

namespace {

struct Handle {
  trnsparseHandle_t h = nullptr;
  Handle() { EXPECT_EQ(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS); }
  ~Handle() { trnsparseDestroy(h); }
  int last_param() const {
    int p = -1;
    trnsparseGetLastErrorParameter(h, &p);
    return p;
  }
};

// The 4 x 4 lower triangle with its diagonal (10 entries), and its two corruptions.
enum class Pattern { good, unsorted, out_of_range, negative };
struct Csr {
  std::vector<int> off{0, 1, 3, 6, 10}, col{0, 0, 1, 0, 1, 2, 0, 1, 2, 3};
  std::vector<double> val{4, 1, 4, 1, 1, 4, 1, 1, 1, 4};
  explicit Csr(Pattern p) {
    if (p == Pattern::unsorted) std::swap(col[6], col[7]);  // row 3: 1 0 2 3
    if (p == Pattern::out_of_range) col[7] = 4;             // column n
    if (p == Pattern::negative) col[4] = -1;
  }
  trnsparseSpMatDescr_t create() {
    trnsparseSpMatDescr_t A = nullptr;
    EXPECT_EQ(trnsparseCreateCsr(&A, 4, 4, 10, off.data(), col.data(), val.data(), TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                 TRNSPARSE_INDEX_BASE_ZERO, TRN_R_64F),
              TRNSPARSE_STATUS_SUCCESS);  // creation does not read the arrays (as cuSPARSE)
    return A;
  }
};

constexpr auto N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
const double kOne = 1.0, kZero = 0.0;

class AnalysisRejects : public testing::TestWithParam<Pattern> {};

TEST_P(AnalysisRejects, SpSVAndSpSM) {
  Handle h;
  Csr a(GetParam());
  trnsparseSpMatDescr_t A = a.create();
  std::vector<double> x(4, 1.0), y(4, 7.0), B(8, 1.0), C(8, 7.0);
  trnsparseDnVecDescr_t vx, vy;
  trnsparseDnMatDescr_t mB, mC;
  trnsparseCreateDnVec(&vx, 4, x.data(), TRN_R_64F);
  trnsparseCreateDnVec(&vy, 4, y.data(), TRN_R_64F);
  trnsparseCreateDnMat(&mB, 4, 2, 4, B.data(), TRN_R_64F, TRNSPARSE_ORDER_COL);
  trnsparseCreateDnMat(&mC, 4, 2, 4, C.data(), TRN_R_64F, TRNSPARSE_ORDER_COL);
  trnsparseSpSVDescr_t sv;
  trnsparseSpSMDescr_t sm;
  trnsparseSpSV_createDescr(&sv);
  trnsparseSpSM_createDescr(&sm);
  EXPECT_EQ(trnsparseSpSV_analysis(h.h, N, &kOne, A, vx, vy, TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT, sv, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 3);  // matA
  EXPECT_EQ(trnsparseSpSM_analysis(h.h, N, N, &kOne, A, mB, mC, TRN_R_64F, TRNSPARSE_SPSM_ALG_DEFAULT, sm, nullptr),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 4);  // matA
  // a solve on the rejected analysis is refused too; y and C untouched
  EXPECT_EQ(trnsparseSpSV_solve(h.h, N, &kOne, A, vx, vy, TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT, sv), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsparseSpSM_solve(h.h, N, N, &kOne, A, mB, mC, TRN_R_64F, TRNSPARSE_SPSM_ALG_DEFAULT, sm), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(y, std::vector<double>(4, 7.0));
  EXPECT_EQ(C, std::vector<double>(8, 7.0));
  trnsparseSpSV_destroyDescr(sv);
  trnsparseSpSM_destroyDescr(sm);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vy);
  trnsparseDestroyDnMat(mB);
  trnsparseDestroyDnMat(mC);
  trnsparseDestroySpMat(A);
}

TEST_P(AnalysisRejects, SpGEMMWorkEstimationAndReuse) {
  Handle h;
  Csr a(GetParam()), b(Pattern::good);
  trnsparseSpMatDescr_t A = a.create(), B = b.create(), C = nullptr;
  std::vector<std::int64_t> coff(5, -3);
  ASSERT_EQ(trnsparseCreateCsr(&C, 4, 4, 0, coff.data(), nullptr, nullptr, TRNSPARSE_INDEX_64I, TRNSPARSE_INDEX_64I,
                               TRNSPARSE_INDEX_BASE_ZERO, TRN_R_64F),
            TRNSPARSE_STATUS_SUCCESS);
  for (int reuse = 0; reuse < 2; ++reuse) {
    trnsparseSpGEMMDescr_t d;
    ASSERT_EQ(trnsparseSpGEMM_createDescr(&d), TRNSPARSE_STATUS_SUCCESS);
    size_t bytes = 0;
    // A as matA, then as matB (B good as matA): either position is named
    for (int as_b = 0; as_b < 2; ++as_b) {
      trnsparseSpMatDescr_t L = as_b ? B : A, R = as_b ? A : B;
      const trnsparseStatus_t st =
          reuse ? trnsparseSpGEMMreuse_workEstimation(h.h, N, N, L, R, C, TRNSPARSE_SPGEMM_DEFAULT, d, &bytes, nullptr)
                : trnsparseSpGEMM_workEstimation(h.h, N, N, &kOne, L, R, &kZero, C, TRN_R_64F, TRNSPARSE_SPGEMM_DEFAULT, d,
                                                 &bytes, nullptr);
      EXPECT_EQ(st, TRNSPARSE_STATUS_INVALID_VALUE) << "reuse " << reuse << " as matB " << as_b;
      EXPECT_EQ(h.last_param(), (reuse ? 3 : 4) + as_b);
    }
    EXPECT_EQ(coff, std::vector<std::int64_t>(5, -3));
    trnsparseSpGEMM_destroyDescr(d);
  }
  trnsparseDestroySpMat(A);
  trnsparseDestroySpMat(B);
  trnsparseDestroySpMat(C);
}

TEST_P(AnalysisRejects, IncompleteFactorizationAnalysis) {
  Handle h;
  Csr a(GetParam());
  trnsparseMatDescr_t md;
  trnsparseCreateMatDescr(&md);
  csrilu02Info_t ilu;
  csric02Info_t ic;
  trnsparseCreateCsrilu02Info(&ilu);
  trnsparseCreateCsric02Info(&ic);
  char buffer[4096];
  EXPECT_EQ(trnsparseDcsrilu02_analysis(h.h, 4, 10, md, a.val.data(), a.off.data(), a.col.data(), ilu,
                                        TRNSPARSE_SOLVE_POLICY_USE_LEVEL, buffer),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);  // csrSortedColIndA
  EXPECT_EQ(trnsparseDcsric02_analysis(h.h, 4, 10, md, a.val.data(), a.off.data(), a.col.data(), ic,
                                       TRNSPARSE_SOLVE_POLICY_USE_LEVEL, buffer),
            TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(h.last_param(), 6);
  trnsparseDestroyCsrilu02Info(ilu);
  trnsparseDestroyCsric02Info(ic);
  trnsparseDestroyMatDescr(md);
}

INSTANTIATE_TEST_SUITE_P(BadIndices, AnalysisRejects, testing::Values(Pattern::unsorted, Pattern::out_of_range, Pattern::negative));

// The good pattern is accepted by the same calls (so the rejections above are the pattern's).
TEST(AnalysisAccepts, TheSortedInRangePattern) {
  Handle h;
  Csr a(Pattern::good);
  trnsparseSpMatDescr_t A = a.create();
  std::vector<double> x(4, 1.0), y(4, 7.0);
  trnsparseDnVecDescr_t vx, vy;
  trnsparseCreateDnVec(&vx, 4, x.data(), TRN_R_64F);
  trnsparseCreateDnVec(&vy, 4, y.data(), TRN_R_64F);
  trnsparseSpSVDescr_t sv;
  trnsparseSpSV_createDescr(&sv);
  EXPECT_EQ(trnsparseSpSV_analysis(h.h, N, &kOne, A, vx, vy, TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT, sv, nullptr),
            TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(trnsparseSpSV_solve(h.h, N, &kOne, A, vx, vy, TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT, sv), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(y[0], 0.25);  // 4 y0 = 1
  trnsparseSpSV_destroyDescr(sv);
  trnsparseDestroyDnVec(vx);
  trnsparseDestroyDnVec(vy);
  trnsparseDestroySpMat(A);
}

// A singular triangle: a stored zero on the diagonal (row 2) or no diagonal entry (row 3, upper
// triangle ignored) passes the analysis; the solve returns ZERO_PIVOT and writes nothing.
TEST(SingularTriangle, SpSVAndSpSMReturnZeroPivotAndWriteNothing) {
  for (int structural = 0; structural < 2; ++structural) {
    Handle h;
    Csr a(Pattern::good);
    if (structural) {
      a.off = {0, 1, 3, 6, 9};  // row 3 keeps columns 0 1 2: no diagonal entry
      a.col.resize(9);
      a.val.resize(9);
    } else {
      a.val[5] = 0.0;  // row 2's diagonal
    }
    trnsparseSpMatDescr_t A = nullptr;
    ASSERT_EQ(trnsparseCreateCsr(&A, 4, 4, static_cast<std::int64_t>(a.col.size()), a.off.data(), a.col.data(), a.val.data(),
                                 TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_R_64F),
              TRNSPARSE_STATUS_SUCCESS);
    std::vector<double> x(4, 1.0), y(4, 7.0), B(8, 1.0), C(8, 7.0);
    trnsparseDnVecDescr_t vx, vy;
    trnsparseDnMatDescr_t mB, mC;
    trnsparseCreateDnVec(&vx, 4, x.data(), TRN_R_64F);
    trnsparseCreateDnVec(&vy, 4, y.data(), TRN_R_64F);
    trnsparseCreateDnMat(&mB, 4, 2, 4, B.data(), TRN_R_64F, TRNSPARSE_ORDER_COL);
    trnsparseCreateDnMat(&mC, 4, 2, 4, C.data(), TRN_R_64F, TRNSPARSE_ORDER_COL);
    trnsparseSpSVDescr_t sv;
    trnsparseSpSMDescr_t sm;
    trnsparseSpSV_createDescr(&sv);
    trnsparseSpSM_createDescr(&sm);
    ASSERT_EQ(trnsparseSpSV_analysis(h.h, N, &kOne, A, vx, vy, TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT, sv, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseSpSM_analysis(h.h, N, N, &kOne, A, mB, mC, TRN_R_64F, TRNSPARSE_SPSM_ALG_DEFAULT, sm, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(trnsparseSpSV_solve(h.h, N, &kOne, A, vx, vy, TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT, sv), TRNSPARSE_STATUS_ZERO_PIVOT);
    EXPECT_EQ(trnsparseSpSM_solve(h.h, N, N, &kOne, A, mB, mC, TRN_R_64F, TRNSPARSE_SPSM_ALG_DEFAULT, sm),
              TRNSPARSE_STATUS_ZERO_PIVOT);
    EXPECT_EQ(y, std::vector<double>(4, 7.0)) << "structural " << structural;
    EXPECT_EQ(C, std::vector<double>(8, 7.0)) << "structural " << structural;
    // UNIT diagonal: the same arrays solve (the diagonal is not read)
    trnsparseDiagType_t unit = TRNSPARSE_DIAG_TYPE_UNIT;
    ASSERT_EQ(trnsparseSpMatSetAttribute(A, TRNSPARSE_SPMAT_DIAG_TYPE, &unit, sizeof unit), TRNSPARSE_STATUS_SUCCESS);
    ASSERT_EQ(trnsparseSpSV_analysis(h.h, N, &kOne, A, vx, vy, TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT, sv, nullptr),
              TRNSPARSE_STATUS_SUCCESS);
    EXPECT_EQ(trnsparseSpSV_solve(h.h, N, &kOne, A, vx, vy, TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT, sv), TRNSPARSE_STATUS_SUCCESS);
    for (double v : y) EXPECT_TRUE(std::isfinite(v));
    trnsparseSpSV_destroyDescr(sv);
    trnsparseSpSM_destroyDescr(sm);
    trnsparseDestroyDnVec(vx);
    trnsparseDestroyDnVec(vy);
    trnsparseDestroyDnMat(mB);
    trnsparseDestroyDnMat(mC);
    trnsparseDestroySpMat(A);
  }
}

}  // namespace
