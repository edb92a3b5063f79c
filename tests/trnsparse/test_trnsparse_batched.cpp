// trnsparse strided batches of the fourth slice (issue #28): SDDMM on a CSR strided batch and SpMM
// on a BSR strided batch (BsrSetStridedBatch), each batch checked bit for bit against the single
// call on that batch's arrays; batch counts that do not match, and bad BsrSetStridedBatch
// arguments at their positions.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "c_api_test_util.hpp"
#include "trnsparse.h"

namespace {

using trnsparse_test::Handle;

template <class T>
T draw(std::mt19937_64& g) {
  return static_cast<T>(std::uniform_real_distribution<double>(-1.0, 1.0)(g));
}
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Strided-batch SDDMM (CSR): every batch equals the single call on that batch's arrays; a batch
// count matA does not share is NOT_SUPPORTED with C untouched.
TEST(SddmmBatched, EveryBatchAsASingleCall) {
  Handle h;
  std::mt19937_64 g(21);
  const int M = 9, N = 7, K = 5, nb = 3;
  std::vector<float> A(static_cast<std::size_t>(M * K * nb)), B(static_cast<std::size_t>(K * N * nb));
  for (auto& v : A) v = draw<float>(g);
  for (auto& v : B) v = draw<float>(g);
  std::vector<int> off, col;
  off.push_back(0);
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j)
      if ((i * 3 + j) % 4 != 0) col.push_back(j);
    off.push_back(static_cast<int>(col.size()));
  }
  const int nnz = static_cast<int>(col.size());
  for (int b = 1; b < nb; ++b) col.insert(col.end(), col.begin(), col.begin() + nnz);  // columns per batch (stride nnz)
  std::vector<float> C(static_cast<std::size_t>(nnz * nb)), C1 = C;
  for (auto& v : C) v = draw<float>(g);
  C1 = C;
  const float alpha = 0.75f, beta = -0.5f;
  auto run = [&](float* a, float* b, float* c, int batches, int a_batches) {
    trnsparseDnMatDescr_t da, db;
    trnsparseSpMatDescr_t sc;
    trnsparseCreateDnMat(&da, M, K, K, a, TRN_R_32F, TRNSPARSE_ORDER_ROW);
    trnsparseCreateDnMat(&db, K, N, N, b, TRN_R_32F, TRNSPARSE_ORDER_ROW);
    trnsparseCreateCsr(&sc, M, N, nnz, off.data(), col.data(), c, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                       TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F);
    if (batches > 1) {
      trnsparseDnMatSetStridedBatch(da, a_batches, M * K);
      trnsparseDnMatSetStridedBatch(db, batches, K * N);
      trnsparseCsrSetStridedBatch(sc, batches, 0, nnz);
    }
    const trnsparseStatus_t st = trnsparseSDDMM(h.h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                                da, db, &beta, sc, TRN_R_32F, TRNSPARSE_SDDMM_ALG_DEFAULT, nullptr);
    trnsparseDestroyDnMat(da);
    trnsparseDestroyDnMat(db);
    trnsparseDestroySpMat(sc);
    return st;
  };
  std::vector<float> untouched = C;
  EXPECT_EQ(run(A.data(), B.data(), C.data(), nb, 2), TRNSPARSE_STATUS_NOT_SUPPORTED);
  EXPECT_TRUE(same_bits(C, untouched));
  ASSERT_EQ(run(A.data(), B.data(), C.data(), nb, nb), TRNSPARSE_STATUS_SUCCESS);
  for (int b = 0; b < nb; ++b)
    ASSERT_EQ(run(A.data() + b * M * K, B.data() + b * K * N, C1.data() + b * nnz, 1, 1), TRNSPARSE_STATUS_SUCCESS);
  EXPECT_TRUE(same_bits(C, C1));
}

// BSR strided batch: 3 batches of a 3 x 2 block matrix (2 x 2 blocks), own offsets, columns and
// values per batch; B shared (batch count 1), C strided.
TEST(BsrBatched, SpMMEveryBatchAsASingleCall) {
  Handle h;
  std::mt19937_64 g(5);
  const int mb = 3, kb = 2, bs = 2, n = 5, nb = 3;
  // batch b stores the blocks (i, (i + b) % kb) (every batch has the descriptor's bnnz), plus (i, 1 - (i + b) % kb) in row 0
  std::vector<int> off, col;
  std::vector<int> nnzb;
  for (int b = 0; b < nb; ++b) {
    off.push_back(static_cast<int>(col.size()) - b * 8);
    std::vector<std::vector<int>> rows(mb);
    for (int i = 0; i < mb; ++i) rows[static_cast<std::size_t>(i)].push_back((i + b) % kb);
    rows[0] = {0, 1};
    for (int i = 0; i < mb; ++i) {
      for (int c : rows[static_cast<std::size_t>(i)]) col.push_back(c);
      off.push_back(static_cast<int>(col.size()) - b * 8);
    }
    while (col.size() < static_cast<std::size_t>((b + 1) * 8)) col.push_back(0);  // columns stride 8
  }
  // offsets stride mb + 1 = 4; offsets of batch b are relative to its own columns
  for (int b = 0; b < nb; ++b) nnzb.push_back(off[static_cast<std::size_t>(b * 4 + mb)] - off[static_cast<std::size_t>(b * 4)]);
  std::vector<float> val(static_cast<std::size_t>(8 * bs * bs * nb)), B(static_cast<std::size_t>(kb * bs * n)),
      C(static_cast<std::size_t>(mb * bs * n * nb));
  for (auto& v : val) v = draw<float>(g);
  for (auto& v : B) v = draw<float>(g);
  for (auto& v : C) v = draw<float>(g);
  std::vector<float> C1 = C;
  const float alpha = 1.25f, beta = 0.5f;
  auto run = [&](int batches, const int* o, const int* c, float* v, float* cm, int nnz, int c_batches) {
    trnsparseSpMatDescr_t A;
    trnsparseDnMatDescr_t db, dc;
    trnsparseCreateBsr(&A, mb, kb, nnz, bs, bs, const_cast<int*>(o), const_cast<int*>(c), v, TRNSPARSE_INDEX_32I,
                       TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F, TRNSPARSE_ORDER_ROW);
    trnsparseCreateDnMat(&db, kb * bs, n, kb * bs, B.data(), TRN_R_32F, TRNSPARSE_ORDER_COL);
    trnsparseCreateDnMat(&dc, mb * bs, n, mb * bs, cm, TRN_R_32F, TRNSPARSE_ORDER_COL);
    if (batches > 1) {
      EXPECT_EQ(trnsparseBsrSetStridedBatch(A, batches, mb + 1, 8, 8 * bs * bs), TRNSPARSE_STATUS_SUCCESS);
      trnsparseDnMatSetStridedBatch(dc, c_batches, mb * bs * n);
    }
    const trnsparseStatus_t st = trnsparseSpMM(h.h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                               A, db, &beta, dc, TRN_R_32F, TRNSPARSE_SPMM_ALG_DEFAULT, nullptr);
    trnsparseDestroySpMat(A);
    trnsparseDestroyDnMat(db);
    trnsparseDestroyDnMat(dc);
    return st;
  };
  const std::vector<float> untouched = C;
  EXPECT_EQ(run(nb, off.data(), col.data(), val.data(), C.data(), nnzb[0], 2), TRNSPARSE_STATUS_NOT_SUPPORTED);
  EXPECT_TRUE(same_bits(C, untouched));
  ASSERT_EQ(run(nb, off.data(), col.data(), val.data(), C.data(), nnzb[0], nb), TRNSPARSE_STATUS_SUCCESS);
  for (int b = 0; b < nb; ++b)
    ASSERT_EQ(run(1, off.data() + b * (mb + 1), col.data() + b * 8, val.data() + b * 8 * bs * bs, C1.data() + b * mb * bs * n,
                  nnzb[static_cast<std::size_t>(b)], 1),
              TRNSPARSE_STATUS_SUCCESS);
  EXPECT_TRUE(same_bits(C, C1));
  EXPECT_FALSE(same_bits(C, untouched));
}

TEST(BsrBatched, SetStridedBatchChecksItsArguments) {
  Handle h;
  int off[3] = {0, 1, 2}, col[2] = {0, 1};
  float val[8] = {};
  trnsparseSpMatDescr_t A, csr;
  ASSERT_EQ(trnsparseCreateBsr(&A, 2, 2, 2, 2, 1, off, col, val, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                               TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F, TRNSPARSE_ORDER_ROW),
            0);
  ASSERT_EQ(trnsparseCreateCsr(&csr, 2, 2, 2, off, col, val, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                               TRN_R_32F),
            0);
  EXPECT_EQ(trnsparseBsrSetStridedBatch(csr, 2, 3, 2, 4), TRNSPARSE_STATUS_INVALID_VALUE);  // not a BSR
  EXPECT_EQ(trnsparseBsrSetStridedBatch(nullptr, 2, 3, 2, 4), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsparseBsrSetStridedBatch(A, 0, 3, 2, 4), TRNSPARSE_STATUS_INVALID_VALUE);
  EXPECT_EQ(trnsparseBsrSetStridedBatch(A, 2, 2, 2, 4), TRNSPARSE_STATUS_INVALID_VALUE);  // offsets overlap
  EXPECT_EQ(trnsparseBsrSetStridedBatch(A, 2, 3, 1, 4), TRNSPARSE_STATUS_INVALID_VALUE);  // columns overlap
  EXPECT_EQ(trnsparseBsrSetStridedBatch(A, 2, 3, 2, 3), TRNSPARSE_STATUS_INVALID_VALUE);  // values overlap
  EXPECT_EQ(trnsparseBsrSetStridedBatch(A, 2, 0, 0, 0), TRNSPARSE_STATUS_SUCCESS);        // every batch shares A
  EXPECT_EQ(trnsparseBsrSetStridedBatch(A, 2, 3, 2, 4), TRNSPARSE_STATUS_SUCCESS);
  trnsparseDestroySpMat(A);
  trnsparseDestroySpMat(csr);
}

}  // namespace
