/* Plain-C99 checks of trnsparse.h's generic API on trnsci's own 4 x 4 matrix (the C API tests'
 * CApiSamples): SpMM with A as CSR, COO, BSR (row-major B and C, with _preprocess) and Blocked-ELL
 * (BlockedEllGet), SpMV with A as CSR and as CSC, SDDMM into CSR and BSR patterns, each with the
 * generic call sequence (create descriptors, _bufferSize, buffer, _preprocess where shown, compute,
 * destroy) on host memory; every expected result is computed here by a dense double loop over the
 * same data (exact: small integers). Each function returns 0 when its check passes, the failing line
 * otherwise. Also the C header check (compiles as C, enum values). (An earlier version of this file
 * used the data of NVIDIA's cuSPARSE samples; it now uses the project's own.) */
#include <stdlib.h>

#include "trnsparse.h"

#define TRY(call)                                              \
  do {                                                         \
    if ((call) != TRNSPARSE_STATUS_SUCCESS) return __LINE__;   \
  } while (0)

/* trnsci's 4 x 4 test matrix (row-major; every 2 x 2 block holds a nonzero) and its zero-based CSR. */
static const float kDense[16] = {3, 0, -2, 0, 0, 1, 0, 5, -4, 0, 0, 2, 0, 6, 1, 0};
static const int kOffsets[] = {0, 2, 4, 6, 8};
static const int kColumns[] = {0, 2, 1, 3, 0, 3, 1, 2};
static const float kValues[] = {3.0f, -2.0f, 1.0f, 5.0f, -4.0f, 2.0f, 6.0f, 1.0f};

/* want (rows x n, column-major, ld rows) = a (rows x k, row-major) times b (k x n, column-major). */
static void dense_product(int rows, int k, int n, const float* a, const float* b, float* want) {
  int i, j, l;
  for (j = 0; j < n; ++j)
    for (i = 0; i < rows; ++i) {
      double s = 0;
      for (l = 0; l < k; ++l) s += (double)a[i * k + l] * b[l + j * k];
      want[i + j * rows] = (float)s;
    }
}

/* The operands' small-integer pattern: entry i of an array is i mod `period` minus `shift`. */
static void small_ints(float* v, int count, int period, int shift) {
  int i;
  for (i = 0; i < count; ++i) v[i] = (float)(i % period - shift);
}

/* (A B)(i, j) for row-major A (. x k) and B (k x n), in double. */
static float row_major_entry(const float* a, const float* b, int k, int n, int i, int j) {
  double s = 0;
  int l;
  for (l = 0; l < k; ++l) s += (double)a[i * k + l] * b[l * n + j];
  return (float)s;
}

static int equal(const float* got, const float* want, int n) {
  int i;
  for (i = 0; i < n; ++i)
    if (got[i] != want[i]) return 0;
  return 1;
}

/* SpMM on the 4 x 4 matrix in any format: C (4 x 3, column-major) = A B with B's small integers,
 * column-major, the call sequence (bufferSize, buffer, SpMM) and an exact check. */
static int spmm_4x4(trnsparseHandle_t h, trnsparseConstSpMatDescr_t A, trnsparseSpMMAlg_t alg) {
  float B[12], C[12] = {0}, want[12];
  float alpha = 1.0f, beta = 0.0f;
  trnsparseDnMatDescr_t mB, mC;
  size_t bytes = 0;
  void* buffer;
  small_ints(B, 12, 5, 2);
  dense_product(4, 4, 3, kDense, B, want);
  TRY(trnsparseCreateDnMat(&mB, 4, 3, 4, B, TRN_R_32F, TRNSPARSE_ORDER_COL));
  TRY(trnsparseCreateDnMat(&mC, 4, 3, 4, C, TRN_R_32F, TRNSPARSE_ORDER_COL));
  TRY(trnsparseSpMM_bufferSize(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, mB,
                               &beta, mC, TRN_R_32F, alg, &bytes));
  buffer = malloc(bytes);
  TRY(trnsparseSpMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, mB, &beta, mC,
                    TRN_R_32F, alg, buffer));
  free(buffer);
  TRY(trnsparseDestroyDnMat(mB));
  TRY(trnsparseDestroyDnMat(mC));
  return equal(C, want, 12) ? 0 : __LINE__;
}

/* SpMV on the 4 x 4 matrix: y = A x, x = (1, -2, 3, -1), an exact check. */
static int spmv_4x4(trnsparseHandle_t h, trnsparseConstSpMatDescr_t A) {
  const float x[4] = {1.0f, -2.0f, 3.0f, -1.0f};
  float y[4] = {0}, want[4];
  float alpha = 1.0f, beta = 0.0f;
  trnsparseConstDnVecDescr_t vx;
  trnsparseDnVecDescr_t vy;
  size_t bytes = 0;
  void* buffer;
  dense_product(4, 4, 1, kDense, x, want);
  TRY(trnsparseCreateConstDnVec(&vx, 4, x, TRN_R_32F));
  TRY(trnsparseCreateDnVec(&vy, 4, y, TRN_R_32F));
  TRY(trnsparseSpMV_bufferSize(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, TRN_R_32F,
                               TRNSPARSE_SPMV_ALG_DEFAULT, &bytes));
  buffer = malloc(bytes);
  TRY(trnsparseSpMV(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, TRN_R_32F,
                    TRNSPARSE_SPMV_ALG_DEFAULT, buffer));
  free(buffer);
  TRY(trnsparseDestroyDnVec(vx));
  TRY(trnsparseDestroyDnVec(vy));
  return equal(y, want, 4) ? 0 : __LINE__;
}

/* Runs check(h, A) and destroys A and the handle whatever it returned. */
#define RUN_AND_DESTROY(check)          \
  do {                                  \
    const int failed_line = (check);    \
    TRY(trnsparseDestroySpMat(A));      \
    TRY(trnsparseDestroy(h));           \
    return failed_line;                 \
  } while (0)

int trnsparse_sample_spmm_csr(void) {
  /* C (4 x 3, column-major) = A (CSR) * B (4 x 3, column-major). */
  trnsparseHandle_t h = NULL;
  trnsparseSpMatDescr_t A;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateCsr(&A, 4, 4, 8, (void*)kOffsets, (void*)kColumns, (void*)kValues, TRNSPARSE_INDEX_32I,
                         TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F));
  RUN_AND_DESTROY(spmm_4x4(h, A, TRNSPARSE_SPMM_ALG_DEFAULT));
}

int trnsparse_sample_spmm_bsr(void) {
  /* The same matrix as 2 x 2 blocks (row-major inside blocks, CreateBsr), row-major B and C. */
  const int offsets[] = {0, 2, 4};
  const int columns[] = {0, 1, 0, 1};
  const float values[] = {3.0f, 0.0f,  0.0f, 1.0f, -2.0f, 0.0f, 0.0f, 5.0f,
                          -4.0f, 0.0f, 0.0f, 6.0f, 0.0f,  2.0f, 1.0f, 0.0f};
  float B[12], B_col[12], C[12] = {0}, want[12], want_col[12];
  float alpha = 1.0f, beta = 0.0f;
  trnsparseHandle_t h = NULL;
  trnsparseConstSpMatDescr_t A;
  trnsparseConstDnMatDescr_t mB;
  trnsparseDnMatDescr_t mC;
  size_t bytes = 0;
  void* buffer;
  int i, j;
  small_ints(B_col, 12, 5, 2);
  dense_product(4, 4, 3, kDense, B_col, want_col);
  for (i = 0; i < 4; ++i)
    for (j = 0; j < 3; ++j) { /* the column-major B and want above, stored row-major */
      B[i * 3 + j] = B_col[i + 4 * j];
      want[i * 3 + j] = want_col[i + 4 * j];
    }
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateConstBsr(&A, 2, 2, 4, 2, 2, offsets, columns, values, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                              TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  TRY(trnsparseCreateConstDnMat(&mB, 4, 3, 3, B, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  TRY(trnsparseCreateDnMat(&mC, 4, 3, 3, C, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  TRY(trnsparseSpMM_bufferSize(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, mB,
                               &beta, mC, TRN_R_32F, TRNSPARSE_SPMM_BSR_ALG1, &bytes));
  buffer = malloc(bytes);
  TRY(trnsparseSpMM_preprocess(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, mB,
                               &beta, mC, TRN_R_32F, TRNSPARSE_SPMM_BSR_ALG1, buffer));
  TRY(trnsparseSpMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, mB, &beta, mC,
                    TRN_R_32F, TRNSPARSE_SPMM_BSR_ALG1, buffer));
  free(buffer);
  TRY(trnsparseDestroySpMat(A));
  TRY(trnsparseDestroyDnMat(mB));
  TRY(trnsparseDestroyDnMat(mC));
  TRY(trnsparseDestroy(h));
  return equal(C, want, 12) ? 0 : __LINE__;
}

int trnsparse_sample_spmv_csr(void) {
  trnsparseHandle_t h = NULL;
  trnsparseConstSpMatDescr_t A;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateConstCsr(&A, 4, 4, 8, kOffsets, kColumns, kValues, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                              TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F));
  RUN_AND_DESTROY(spmv_4x4(h, A));
}

int trnsparse_sample_spmm_coo(void) {
  /* The same matrix as COO (row-sorted), C = A B column-major. */
  const int rows[8] = {0, 0, 1, 1, 2, 2, 3, 3};
  trnsparseHandle_t h = NULL;
  trnsparseConstSpMatDescr_t A;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateConstCoo(&A, 4, 4, 8, rows, kColumns, kValues, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                              TRN_R_32F));
  RUN_AND_DESTROY(spmm_4x4(h, A, TRNSPARSE_SPMM_COO_ALG1));
}

int trnsparse_sample_sddmm_csr(void) {
  /* C (4 x 3, CSR pattern) = (A * B) o spy(C), A 4 x 4 and B 4 x 3 row-major small integers. */
  float A[16], B[12];
  const int offsets[] = {0, 2, 3, 6, 8};
  const int columns[] = {0, 2, 1, 0, 1, 2, 1, 2};
  float values[8] = {0}, want[8];
  float alpha = 1.0f, beta = 0.0f;
  trnsparseHandle_t h = NULL;
  trnsparseDnMatDescr_t mA, mB;
  trnsparseSpMatDescr_t C;
  size_t bytes = 0;
  void* buffer;
  int i, e;
  small_ints(A, 16, 7, 3);
  small_ints(B, 12, 5, 2);
  for (i = 0; i < 4; ++i)
    for (e = offsets[i]; e < offsets[i + 1]; ++e) want[e] = row_major_entry(A, B, 4, 3, i, columns[e]);
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateDnMat(&mA, 4, 4, 4, A, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  TRY(trnsparseCreateDnMat(&mB, 4, 3, 3, B, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  TRY(trnsparseCreateCsr(&C, 4, 3, 8, (void*)offsets, (void*)columns, values, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                         TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F));
  TRY(trnsparseSDDMM_bufferSize(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mA, mB,
                                &beta, C, TRN_R_32F, TRNSPARSE_SDDMM_ALG_DEFAULT, &bytes));
  buffer = malloc(bytes);
  TRY(trnsparseSDDMM_preprocess(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mA, mB,
                                &beta, C, TRN_R_32F, TRNSPARSE_SDDMM_ALG_DEFAULT, buffer));
  TRY(trnsparseSDDMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mA, mB, &beta, C,
                     TRN_R_32F, TRNSPARSE_SDDMM_ALG_DEFAULT, buffer));
  free(buffer);
  TRY(trnsparseDestroyDnMat(mA));
  TRY(trnsparseDestroyDnMat(mB));
  TRY(trnsparseDestroySpMat(C));
  TRY(trnsparseDestroy(h));
  return equal(values, want, 8) ? 0 : __LINE__;
}

int trnsparse_sample_sddmm_bsr(void) {
  /* 8 x 8 row-major operands of small integers; C has the two diagonal 4 x 4 blocks (row-major
   * blocks): entry r * 4 + c of block b is (A B)(4 b + r, 4 b + c). */
  float A[64], B[64];
  const int offsets[] = {0, 1, 2};
  const int columns[] = {0, 1};
  float values[32] = {0};
  float want[32];
  float alpha = 1.0f, beta = 0.0f;
  trnsparseHandle_t h = NULL;
  trnsparseDnMatDescr_t mA, mB;
  trnsparseSpMatDescr_t C;
  size_t bytes = 0;
  void* buffer;
  int i;
  small_ints(A, 64, 9, 4);
  small_ints(B, 64, 7, 3);
  for (i = 0; i < 32; ++i) want[i] = row_major_entry(A, B, 8, 8, (i / 16) * 4 + (i % 16) / 4, (i / 16) * 4 + i % 4);
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateDnMat(&mA, 8, 8, 8, A, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  TRY(trnsparseCreateDnMat(&mB, 8, 8, 8, B, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  TRY(trnsparseCreateBsr(&C, 2, 2, 2, 4, 4, (void*)offsets, (void*)columns, values, TRNSPARSE_INDEX_32I,
                         TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  TRY(trnsparseSDDMM_bufferSize(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mA, mB,
                                &beta, C, TRN_R_32F, TRNSPARSE_SDDMM_ALG_DEFAULT, &bytes));
  buffer = malloc(bytes);
  TRY(trnsparseSDDMM(h, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mA, mB, &beta, C,
                     TRN_R_32F, TRNSPARSE_SDDMM_ALG_DEFAULT, buffer));
  free(buffer);
  TRY(trnsparseDestroyDnMat(mA));
  TRY(trnsparseDestroyDnMat(mB));
  TRY(trnsparseDestroySpMat(C));
  TRY(trnsparseDestroy(h));
  return equal(values, want, 32) ? 0 : __LINE__;
}

/* The header as C: enum values that differ between the two block-order enums, statuses, version. */
int trnsparse_sample_spmv_csc(void) {
  /* The SpMV problem with A given as CSC (column offsets, row indices). */
  const int offsets[5] = {0, 2, 4, 6, 8};
  const int rows[8] = {0, 2, 1, 3, 0, 3, 1, 2};
  const float values[8] = {3.0f, -4.0f, 1.0f, 6.0f, -2.0f, 1.0f, 5.0f, 2.0f};
  trnsparseHandle_t h = NULL;
  trnsparseConstSpMatDescr_t A;
  trnsparseFormat_t format;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateConstCsc(&A, 4, 4, 8, offsets, rows, values, TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                              TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F));
  TRY(trnsparseSpMatGetFormat(A, &format));
  if (format != TRNSPARSE_FORMAT_CSC) return __LINE__;
  RUN_AND_DESTROY(spmv_4x4(h, A));
}

int trnsparse_sample_spmm_blockedell(void) {
  /* Blocked-ELL SpMM's call sequence on the 4 x 4 matrix: 2 x 2 blocks, two slots per block row
   * (block row 1 lists its blocks in reverse order), ellValue 4 x 4 row-major. */
  const int ell_columns[4] = {0, 1, 1, 0};
  const float ell_values[16] = {3.0f, 0.0f, -2.0f, 0.0f, 0.0f, 1.0f, 0.0f, 5.0f,
                                0.0f, 2.0f, -4.0f, 0.0f, 1.0f, 0.0f, 0.0f, 6.0f};
  trnsparseHandle_t h = NULL;
  trnsparseSpMatDescr_t A;
  int64_t rows, cols, block, ell_cols;
  void *got_columns, *got_values;
  trnsparseIndexType_t index_type;
  trnsparseIndexBase_t base;
  trnDataType_t value_type;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateBlockedEll(&A, 4, 4, 2, 4, (void*)ell_columns, (void*)ell_values, TRNSPARSE_INDEX_32I,
                                TRNSPARSE_INDEX_BASE_ZERO, TRN_R_32F));
  TRY(trnsparseBlockedEllGet(A, &rows, &cols, &block, &ell_cols, &got_columns, &got_values, &index_type, &base,
                             &value_type));
  if (rows != 4 || cols != 4 || block != 2 || ell_cols != 4 || got_values != (void*)ell_values) return __LINE__;
  RUN_AND_DESTROY(spmm_4x4(h, A, TRNSPARSE_SPMM_BLOCKED_ELL_ALG1));
}

int trnsparse_c_header_check(void) {
  trnsparseHandle_t h = NULL;
  int version = 0;
  if (TRNSPARSE_DIRECTION_ROW != 0 || TRNSPARSE_ORDER_ROW != 2 || TRNSPARSE_ORDER_COL != 1) return __LINE__;
  if (TRNSPARSE_STATUS_INVALID_VALUE != 3 || TRNSPARSE_STATUS_NOT_SUPPORTED != 10) return __LINE__;
  if (TRNSPARSE_FORMAT_BSR != 6 || TRNSPARSE_SPMM_BSR_ALG1 != 14 || TRNSPARSE_INDEX_64I != 3) return __LINE__;
  if (TRNSPARSE_FORMAT_CSC != 2 || TRNSPARSE_FORMAT_BLOCKED_ELL != 5 || TRNSPARSE_SPMM_BLOCKED_ELL_ALG1 != 13) return __LINE__;
  if (TRNSPARSE_PRECOND_NONE != 0 || TRNSPARSE_PRECOND_JACOBI != 1 || TRNSPARSE_PRECOND_BLOCK_JACOBI != 2) return __LINE__;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseGetVersion(h, &version));
  if (version != TRNSPARSE_VERSION) return __LINE__;
  /* An out-of-range enum value, legal in C: a status, never a crash. */
  if (trnsparseSetPointerMode(h, (trnsparsePointerMode_t)77) != TRNSPARSE_STATUS_INVALID_VALUE) return __LINE__;
  TRY(trnsparseDestroy(h));
  if (trnsparseDestroy(h) != TRNSPARSE_STATUS_NOT_INITIALIZED) return __LINE__;
  return 0;
}
