/* trnsparse from plain C99: the project's own walkthroughs of the C API, one per call sequence a
 * cuSPARSE program makes (handle, descriptors, the bufferSize / preprocess / analysis / compute
 * protocol, destroy), written against trnsparse.h as such a program would be against cusparse.h.
 * Declared and described in trnsparse_api_walkthroughs.h; the problems and their expected results
 * belong to test_trnsparse_samples.cpp (dense reference loops there).
 *
 * Algorithm: none here (the C API's protocol only). Engines: those of each entry point.
 * Accuracy: that of each entry point (docs/trnsparse.md). Limits: host memory (trnsci runs on the host;
 * a cudaMalloc'd buffer is a malloc'd one); 32-bit indices; a walkthrough that fails returns at once
 * (the test fails: what it leaked no longer matters). */
#include "trnsparse_api_walkthroughs.h"

#include <stdlib.h>
#include <string.h>

#include "trnblas.h"
#include "trnsparse.h"

/* Return the line of the first call that did not succeed (trnsparse and trnblas both say 0). */
#define TRY(call)                    \
  do {                               \
    if ((int)(call) != 0) return __LINE__; \
  } while (0)
#define ALLOC(p, bytes)                                  \
  do {                                                   \
    (p) = malloc((bytes) > 0 ? (size_t)(bytes) : 1u);     \
    if ((p) == NULL) return __LINE__;                    \
  } while (0)

#define NON_T TRNSPARSE_OPERATION_NON_TRANSPOSE
#define I32 TRNSPARSE_INDEX_32I
#define BASE0 TRNSPARSE_INDEX_BASE_ZERO

/* ---- SpMV ------------------------------------------------------------------------------------------ */

/* bufferSize, buffer, (preprocess), SpMV, destroy the vectors and A, then the handle. */
static int run_spmv(trnsparseHandle_t h, trnsparseSpMatDescr_t A, int rows, int cols, float alpha, const float* x,
                    float beta, float* y, int preprocess) {
  trnsparseConstDnVecDescr_t vx;
  trnsparseDnVecDescr_t vy;
  size_t bytes = 0;
  void* buffer;
  TRY(trnsparseCreateConstDnVec(&vx, cols, x, TRN_R_32F));
  TRY(trnsparseCreateDnVec(&vy, rows, y, TRN_R_32F));
  TRY(trnsparseSpMV_bufferSize(h, NON_T, &alpha, A, vx, &beta, vy, TRN_R_32F, TRNSPARSE_SPMV_ALG_DEFAULT, &bytes));
  ALLOC(buffer, bytes);
  if (preprocess)
    TRY(trnsparseSpMV_preprocess(h, NON_T, &alpha, A, vx, &beta, vy, TRN_R_32F, TRNSPARSE_SPMV_ALG_DEFAULT, buffer));
  TRY(trnsparseSpMV(h, NON_T, &alpha, A, vx, &beta, vy, TRN_R_32F, TRNSPARSE_SPMV_ALG_DEFAULT, buffer));
  free(buffer);
  TRY(trnsparseDestroyDnVec(vx));
  TRY(trnsparseDestroyDnVec(vy));
  TRY(trnsparseDestroySpMat(A));
  TRY(trnsparseDestroy(h));
  return 0;
}

int walk_spmv_csr(const walk_sparse_t* A, float alpha, const float* x, float beta, float* y) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mA;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateCsr(&mA, A->rows, A->cols, A->nnz, (void*)A->row_index, (void*)A->columns, (void*)A->values, I32,
                         I32, BASE0, TRN_R_32F));
  return run_spmv(h, mA, A->rows, A->cols, alpha, x, beta, y, 1);
}

int walk_spmv_coo(const walk_sparse_t* A, float alpha, const float* x, float beta, float* y) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mA;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateCoo(&mA, A->rows, A->cols, A->nnz, (void*)A->row_index, (void*)A->columns, (void*)A->values, I32,
                         BASE0, TRN_R_32F));
  return run_spmv(h, mA, A->rows, A->cols, alpha, x, beta, y, 0);
}

static int create_sell(trnsparseSpMatDescr_t* mA, const walk_sell_t* A) {
  TRY(trnsparseCreateSlicedEll(mA, A->rows, A->cols, A->nnz, A->values_size, A->slice_size, (void*)A->slice_offsets,
                               (void*)A->columns, (void*)A->values, I32, I32, BASE0, TRN_R_32F));
  return 0;
}

int walk_spmv_sell(const walk_sell_t* A, float alpha, const float* x, float beta, float* y) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mA;
  TRY(trnsparseCreate(&h));
  TRY(create_sell(&mA, A));
  return run_spmv(h, mA, A->rows, A->cols, alpha, x, beta, y, 0);
}

/* ---- SpMM ------------------------------------------------------------------------------------------ */

/* B (cols x n) and C (rows x n) column-major, `batch` of each back to back; bufferSize, buffer,
 * (preprocess), SpMM, destroy everything. */
static int run_spmm(trnsparseHandle_t h, trnsparseSpMatDescr_t A, int rows, int cols, int n, int batch, float alpha,
                    const float* B, float beta, float* C, trnsparseSpMMAlg_t alg, int preprocess) {
  trnsparseDnMatDescr_t mB, mC;
  size_t bytes = 0;
  void* buffer;
  TRY(trnsparseCreateDnMat(&mB, cols, n, cols, (void*)B, TRN_R_32F, TRNSPARSE_ORDER_COL));
  TRY(trnsparseCreateDnMat(&mC, rows, n, rows, C, TRN_R_32F, TRNSPARSE_ORDER_COL));
  if (batch > 1) {
    TRY(trnsparseDnMatSetStridedBatch(mB, batch, (int64_t)cols * n));
    TRY(trnsparseDnMatSetStridedBatch(mC, batch, (int64_t)rows * n));
  }
  TRY(trnsparseSpMM_bufferSize(h, NON_T, NON_T, &alpha, A, mB, &beta, mC, TRN_R_32F, alg, &bytes));
  ALLOC(buffer, bytes);
  if (preprocess) TRY(trnsparseSpMM_preprocess(h, NON_T, NON_T, &alpha, A, mB, &beta, mC, TRN_R_32F, alg, buffer));
  TRY(trnsparseSpMM(h, NON_T, NON_T, &alpha, A, mB, &beta, mC, TRN_R_32F, alg, buffer));
  free(buffer);
  TRY(trnsparseDestroyDnMat(mB));
  TRY(trnsparseDestroyDnMat(mC));
  TRY(trnsparseDestroySpMat(A));
  TRY(trnsparseDestroy(h));
  return 0;
}

int walk_spmm_csr(const walk_sparse_t* A, int n, float alpha, const float* B, float beta, float* C) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mA;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateCsr(&mA, A->rows, A->cols, A->nnz, (void*)A->row_index, (void*)A->columns, (void*)A->values, I32,
                         I32, BASE0, TRN_R_32F));
  return run_spmm(h, mA, A->rows, A->cols, n, 1, alpha, B, beta, C, TRNSPARSE_SPMM_ALG_DEFAULT, 1);
}

int walk_spmm_coo(const walk_sparse_t* A, int n, float alpha, const float* B, float beta, float* C) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mA;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateCoo(&mA, A->rows, A->cols, A->nnz, (void*)A->row_index, (void*)A->columns, (void*)A->values, I32,
                         BASE0, TRN_R_32F));
  return run_spmm(h, mA, A->rows, A->cols, n, 1, alpha, B, beta, C, TRNSPARSE_SPMM_ALG_DEFAULT, 0);
}

int walk_spmm_csr_batched(const walk_sparse_t* A, int batch, int n, float alpha, const float* B, float beta,
                          float* C) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mA;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateCsr(&mA, A->rows, A->cols, A->nnz, (void*)A->row_index, (void*)A->columns, (void*)A->values, I32,
                         I32, BASE0, TRN_R_32F));
  TRY(trnsparseCsrSetStridedBatch(mA, batch, A->rows + 1, A->nnz));
  return run_spmm(h, mA, A->rows, A->cols, n, batch, alpha, B, beta, C, TRNSPARSE_SPMM_ALG_DEFAULT, 0);
}

int walk_spmm_coo_batched(const walk_sparse_t* A, int batch, int n, float alpha, const float* B, float beta,
                          float* C) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mA;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateCoo(&mA, A->rows, A->cols, A->nnz, (void*)A->row_index, (void*)A->columns, (void*)A->values, I32,
                         BASE0, TRN_R_32F));
  TRY(trnsparseCooSetStridedBatch(mA, batch, A->nnz));
  return run_spmm(h, mA, A->rows, A->cols, n, batch, alpha, B, beta, C, TRNSPARSE_SPMM_ALG_DEFAULT, 0);
}

int walk_spmm_blockedell(int rows, int cols, int block, int ell_cols, const int* ell_columns, const float* ell_values,
                         int n, const float* B, float* C) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mA;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateBlockedEll(&mA, rows, cols, block, ell_cols, (void*)ell_columns, (void*)ell_values, I32, BASE0,
                                TRN_R_32F));
  return run_spmm(h, mA, rows, cols, n, 1, 1.0f, B, 0.0f, C, TRNSPARSE_SPMM_BLOCKED_ELL_ALG1, 0);
}

/* ---- SDDMM ----------------------------------------------------------------------------------------- */

/* A (m x k) and B (k x n) row-major, `batch` of each back to back; bufferSize, buffer, preprocess,
 * SDDMM into C, destroy everything. */
static int run_sddmm(trnsparseHandle_t h, trnsparseSpMatDescr_t C, int batch, int m, int k, int n, const float* A,
                     const float* B, float alpha, float beta) {
  trnsparseDnMatDescr_t mA, mB;
  size_t bytes = 0;
  void* buffer;
  TRY(trnsparseCreateDnMat(&mA, m, k, k, (void*)A, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  TRY(trnsparseCreateDnMat(&mB, k, n, n, (void*)B, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  if (batch > 1) {
    TRY(trnsparseDnMatSetStridedBatch(mA, batch, (int64_t)m * k));
    TRY(trnsparseDnMatSetStridedBatch(mB, batch, (int64_t)k * n));
  }
  TRY(trnsparseSDDMM_bufferSize(h, NON_T, NON_T, &alpha, mA, mB, &beta, C, TRN_R_32F, TRNSPARSE_SDDMM_ALG_DEFAULT,
                                &bytes));
  ALLOC(buffer, bytes);
  TRY(trnsparseSDDMM_preprocess(h, NON_T, NON_T, &alpha, mA, mB, &beta, C, TRN_R_32F, TRNSPARSE_SDDMM_ALG_DEFAULT,
                                buffer));
  TRY(trnsparseSDDMM(h, NON_T, NON_T, &alpha, mA, mB, &beta, C, TRN_R_32F, TRNSPARSE_SDDMM_ALG_DEFAULT, buffer));
  free(buffer);
  TRY(trnsparseDestroyDnMat(mA));
  TRY(trnsparseDestroyDnMat(mB));
  TRY(trnsparseDestroySpMat(C));
  TRY(trnsparseDestroy(h));
  return 0;
}

int walk_sddmm_csr(int m, int k, int n, const float* A, const float* B, int nnz, const int* offsets,
                   const int* columns, float alpha, float beta, float* values) {
  return walk_sddmm_csr_batched(1, m, k, n, A, B, nnz, offsets, columns, alpha, beta, values);
}

int walk_sddmm_csr_batched(int batch, int m, int k, int n, const float* A, const float* B, int nnz,
                           const int* offsets, const int* columns, float alpha, float beta, float* values) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t C;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateCsr(&C, m, n, nnz, (void*)offsets, (void*)columns, values, I32, I32, BASE0, TRN_R_32F));
  if (batch > 1) TRY(trnsparseCsrSetStridedBatch(C, batch, m + 1, nnz));
  return run_sddmm(h, C, batch, m, k, n, A, B, alpha, beta);
}

int walk_sddmm_bsr(int m, int k, int n, const float* A, const float* B, int block, int bnnz, const int* offsets,
                   const int* columns, float* values) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t C;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateBsr(&C, m / block, n / block, bnnz, block, block, (void*)offsets, (void*)columns, values, I32, I32,
                         BASE0, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  return run_sddmm(h, C, 1, m, k, n, A, B, 1.0f, 0.0f);
}

/* ---- sparse vectors -------------------------------------------------------------------------------- */

/* The handle and the two vector descriptors every sparse-vector walkthrough starts with. */
static int open_vectors(trnsparseHandle_t* h, trnsparseSpVecDescr_t* vx, trnsparseDnVecDescr_t* vy, int size, int nnz,
                        const int* indices, const float* x_values, const float* y) {
  TRY(trnsparseCreate(h));
  TRY(trnsparseCreateSpVec(vx, size, nnz, (void*)indices, (void*)x_values, I32, BASE0, TRN_R_32F));
  TRY(trnsparseCreateDnVec(vy, size, (void*)y, TRN_R_32F));
  return 0;
}

static int close_vectors(trnsparseHandle_t h, trnsparseSpVecDescr_t vx, trnsparseDnVecDescr_t vy) {
  TRY(trnsparseDestroySpVec(vx));
  TRY(trnsparseDestroyDnVec(vy));
  TRY(trnsparseDestroy(h));
  return 0;
}

int walk_spvv(int size, int nnz, const int* indices, const float* x_values, const float* y, float* result) {
  trnsparseHandle_t h;
  trnsparseSpVecDescr_t vx;
  trnsparseDnVecDescr_t vy;
  size_t bytes = 0;
  void* buffer;
  TRY(open_vectors(&h, &vx, &vy, size, nnz, indices, x_values, y));
  TRY(trnsparseSpVV_bufferSize(h, NON_T, vx, vy, result, TRN_R_32F, &bytes));
  ALLOC(buffer, bytes);
  TRY(trnsparseSpVV(h, NON_T, vx, vy, result, TRN_R_32F, buffer));
  free(buffer);
  return close_vectors(h, vx, vy);
}

int walk_axpby(int size, int nnz, const int* indices, const float* x_values, float alpha, float beta, float* y) {
  trnsparseHandle_t h;
  trnsparseSpVecDescr_t vx;
  trnsparseDnVecDescr_t vy;
  TRY(open_vectors(&h, &vx, &vy, size, nnz, indices, x_values, y));
  TRY(trnsparseAxpby(h, &alpha, vx, &beta, vy));
  return close_vectors(h, vx, vy);
}

int walk_gather(int size, int nnz, const int* indices, const float* y, float* x_values) {
  trnsparseHandle_t h;
  trnsparseSpVecDescr_t vx;
  trnsparseDnVecDescr_t vy;
  TRY(open_vectors(&h, &vx, &vy, size, nnz, indices, x_values, y));
  TRY(trnsparseGather(h, vy, vx));
  return close_vectors(h, vx, vy);
}

int walk_scatter(int size, int nnz, const int* indices, const float* x_values, float* y) {
  trnsparseHandle_t h;
  trnsparseSpVecDescr_t vx;
  trnsparseDnVecDescr_t vy;
  TRY(open_vectors(&h, &vx, &vy, size, nnz, indices, x_values, y));
  TRY(trnsparseScatter(h, vx, vy));
  return close_vectors(h, vx, vy);
}

int walk_rot(int size, int nnz, const int* indices, float c, float s, float* x_values, float* y) {
  trnsparseHandle_t h;
  trnsparseSpVecDescr_t vx;
  trnsparseDnVecDescr_t vy;
  TRY(open_vectors(&h, &vx, &vy, size, nnz, indices, x_values, y));
  TRY(trnsparseRot(h, &c, &s, vx, vy));
  return close_vectors(h, vx, vy);
}

/* ---- conversions and sorts ------------------------------------------------------------------------- */

int walk_dense2sparse_csr(int rows, int cols, const float* dense, int capacity, int* offsets, int* columns,
                          float* values, int* nnz) {
  trnsparseHandle_t h;
  trnsparseDnMatDescr_t mA;
  trnsparseSpMatDescr_t mB;
  int64_t got_rows, got_cols, got_nnz;
  size_t bytes = 0;
  void* buffer;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateDnMat(&mA, rows, cols, cols, (void*)dense, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  /* The CSR's size is unknown until the analysis: offsets now, columns and values after it. */
  TRY(trnsparseCreateCsr(&mB, rows, cols, 0, offsets, NULL, NULL, I32, I32, BASE0, TRN_R_32F));
  TRY(trnsparseDenseToSparse_bufferSize(h, mA, mB, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, &bytes));
  ALLOC(buffer, bytes);
  TRY(trnsparseDenseToSparse_analysis(h, mA, mB, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer));
  TRY(trnsparseSpMatGetSize(mB, &got_rows, &got_cols, &got_nnz));
  if (got_rows != rows || got_cols != cols || got_nnz > capacity) return __LINE__;
  *nnz = (int)got_nnz;
  TRY(trnsparseCsrSetPointers(mB, offsets, columns, values));
  TRY(trnsparseDenseToSparse_convert(h, mA, mB, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer));
  free(buffer);
  TRY(trnsparseDestroyDnMat(mA));
  TRY(trnsparseDestroySpMat(mB));
  TRY(trnsparseDestroy(h));
  return 0;
}

int walk_dense2sparse_blockedell(int rows, int cols, int block, int ell_cols, const float* dense, int* ell_columns,
                                 float* ell_values) {
  trnsparseHandle_t h;
  trnsparseDnMatDescr_t mA;
  trnsparseSpMatDescr_t mB;
  size_t bytes = 0;
  void* buffer;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateDnMat(&mA, rows, cols, cols, (void*)dense, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  TRY(trnsparseCreateBlockedEll(&mB, rows, cols, block, ell_cols, ell_columns, ell_values, I32, BASE0, TRN_R_32F));
  TRY(trnsparseDenseToSparse_bufferSize(h, mA, mB, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, &bytes));
  ALLOC(buffer, bytes);
  TRY(trnsparseDenseToSparse_analysis(h, mA, mB, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer));
  TRY(trnsparseDenseToSparse_convert(h, mA, mB, TRNSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer));
  free(buffer);
  TRY(trnsparseDestroyDnMat(mA));
  TRY(trnsparseDestroySpMat(mB));
  TRY(trnsparseDestroy(h));
  return 0;
}

int walk_sparse2dense_csr(const walk_sparse_t* A, float* dense) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mA;
  trnsparseDnMatDescr_t mB;
  size_t bytes = 0;
  void* buffer;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateCsr(&mA, A->rows, A->cols, A->nnz, (void*)A->row_index, (void*)A->columns, (void*)A->values, I32,
                         I32, BASE0, TRN_R_32F));
  TRY(trnsparseCreateDnMat(&mB, A->rows, A->cols, A->cols, dense, TRN_R_32F, TRNSPARSE_ORDER_ROW));
  TRY(trnsparseSparseToDense_bufferSize(h, mA, mB, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, &bytes));
  ALLOC(buffer, bytes);
  TRY(trnsparseSparseToDense(h, mA, mB, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, buffer));
  free(buffer);
  TRY(trnsparseDestroySpMat(mA));
  TRY(trnsparseDestroyDnMat(mB));
  TRY(trnsparseDestroy(h));
  return 0;
}

int walk_coosort(int rows, int cols, int nnz, int* coo_rows, int* coo_columns, const double* values,
                 int* permutation, double* sorted_values) {
  trnsparseHandle_t h;
  trnsparseSpVecDescr_t vsorted;
  trnsparseDnVecDescr_t vvalues;
  size_t bytes = 0;
  void* buffer;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseXcoosort_bufferSizeExt(h, rows, cols, nnz, coo_rows, coo_columns, &bytes));
  ALLOC(buffer, bytes);
  TRY(trnsparseCreateIdentityPermutation(h, nnz, permutation));
  TRY(trnsparseXcoosortByRow(h, rows, cols, nnz, coo_rows, coo_columns, permutation, buffer));
  free(buffer);
  /* The values follow the permutation: gather values[permutation[i]] into sorted_values[i]. */
  TRY(trnsparseCreateSpVec(&vsorted, nnz, nnz, permutation, sorted_values, I32, BASE0, TRN_R_64F));
  TRY(trnsparseCreateDnVec(&vvalues, nnz, (void*)values, TRN_R_64F));
  TRY(trnsparseGather(h, vvalues, vsorted));
  TRY(trnsparseDestroySpVec(vsorted));
  TRY(trnsparseDestroyDnVec(vvalues));
  TRY(trnsparseDestroy(h));
  return 0;
}

/* ---- triangular solves ----------------------------------------------------------------------------- */

/* A triangle's attributes as a cuSPARSE program sets them: lower, non-unit diagonal. */
static int set_lower_non_unit(trnsparseSpMatDescr_t L) {
  trnsparseFillMode_t fill = TRNSPARSE_FILL_MODE_LOWER;
  trnsparseDiagType_t diag = TRNSPARSE_DIAG_TYPE_NON_UNIT;
  TRY(trnsparseSpMatSetAttribute(L, TRNSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
  TRY(trnsparseSpMatSetAttribute(L, TRNSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
  return 0;
}

/* createDescr, bufferSize, buffer, analysis, solve, destroy everything. */
static int run_spsv(trnsparseHandle_t h, trnsparseSpMatDescr_t L, int n, float alpha, const float* x, float* y) {
  trnsparseConstDnVecDescr_t vx;
  trnsparseDnVecDescr_t vy;
  trnsparseSpSVDescr_t descr;
  size_t bytes = 0;
  void* buffer;
  TRY(set_lower_non_unit(L));
  TRY(trnsparseCreateConstDnVec(&vx, n, x, TRN_R_32F));
  TRY(trnsparseCreateDnVec(&vy, n, y, TRN_R_32F));
  TRY(trnsparseSpSV_createDescr(&descr));
  TRY(trnsparseSpSV_bufferSize(h, NON_T, &alpha, L, vx, vy, TRN_R_32F, TRNSPARSE_SPSV_ALG_DEFAULT, descr, &bytes));
  ALLOC(buffer, bytes);
  TRY(trnsparseSpSV_analysis(h, NON_T, &alpha, L, vx, vy, TRN_R_32F, TRNSPARSE_SPSV_ALG_DEFAULT, descr, buffer));
  TRY(trnsparseSpSV_solve(h, NON_T, &alpha, L, vx, vy, TRN_R_32F, TRNSPARSE_SPSV_ALG_DEFAULT, descr));
  free(buffer);
  TRY(trnsparseSpSV_destroyDescr(descr));
  TRY(trnsparseDestroyDnVec(vx));
  TRY(trnsparseDestroyDnVec(vy));
  TRY(trnsparseDestroySpMat(L));
  TRY(trnsparseDestroy(h));
  return 0;
}

int walk_spsv_csr(const walk_sparse_t* L, float alpha, const float* x, float* y) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mL;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateCsr(&mL, L->rows, L->cols, L->nnz, (void*)L->row_index, (void*)L->columns, (void*)L->values, I32,
                         I32, BASE0, TRN_R_32F));
  return run_spsv(h, mL, L->rows, alpha, x, y);
}

int walk_spsv_coo(const walk_sparse_t* L, float alpha, const float* x, float* y) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mL;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateCoo(&mL, L->rows, L->cols, L->nnz, (void*)L->row_index, (void*)L->columns, (void*)L->values, I32,
                         BASE0, TRN_R_32F));
  return run_spsv(h, mL, L->rows, alpha, x, y);
}

int walk_spsv_sell(const walk_sell_t* L, float alpha, const float* x, float* y) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mL;
  TRY(trnsparseCreate(&h));
  TRY(create_sell(&mL, L));
  return run_spsv(h, mL, L->rows, alpha, x, y);
}

/* B, C (n_rows x n) column-major; createDescr, bufferSize, buffer, analysis, solve, destroy everything. */
static int run_spsm(trnsparseHandle_t h, trnsparseSpMatDescr_t L, int n_rows, int n, float alpha, const float* B,
                    float* C) {
  trnsparseDnMatDescr_t mB, mC;
  trnsparseSpSMDescr_t descr;
  size_t bytes = 0;
  void* buffer;
  TRY(set_lower_non_unit(L));
  TRY(trnsparseCreateDnMat(&mB, n_rows, n, n_rows, (void*)B, TRN_R_32F, TRNSPARSE_ORDER_COL));
  TRY(trnsparseCreateDnMat(&mC, n_rows, n, n_rows, C, TRN_R_32F, TRNSPARSE_ORDER_COL));
  TRY(trnsparseSpSM_createDescr(&descr));
  TRY(trnsparseSpSM_bufferSize(h, NON_T, NON_T, &alpha, L, mB, mC, TRN_R_32F, TRNSPARSE_SPSM_ALG_DEFAULT, descr,
                               &bytes));
  ALLOC(buffer, bytes);
  TRY(trnsparseSpSM_analysis(h, NON_T, NON_T, &alpha, L, mB, mC, TRN_R_32F, TRNSPARSE_SPSM_ALG_DEFAULT, descr, buffer));
  TRY(trnsparseSpSM_solve(h, NON_T, NON_T, &alpha, L, mB, mC, TRN_R_32F, TRNSPARSE_SPSM_ALG_DEFAULT, descr));
  free(buffer);
  TRY(trnsparseSpSM_destroyDescr(descr));
  TRY(trnsparseDestroyDnMat(mB));
  TRY(trnsparseDestroyDnMat(mC));
  TRY(trnsparseDestroySpMat(L));
  TRY(trnsparseDestroy(h));
  return 0;
}

int walk_spsm_csr(const walk_sparse_t* L, int n, float alpha, const float* B, float* C) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mL;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateCsr(&mL, L->rows, L->cols, L->nnz, (void*)L->row_index, (void*)L->columns, (void*)L->values, I32,
                         I32, BASE0, TRN_R_32F));
  return run_spsm(h, mL, L->rows, n, alpha, B, C);
}

int walk_spsm_coo(const walk_sparse_t* L, int n, float alpha, const float* B, float* C) {
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mL;
  TRY(trnsparseCreate(&h));
  TRY(trnsparseCreateCoo(&mL, L->rows, L->cols, L->nnz, (void*)L->row_index, (void*)L->columns, (void*)L->values, I32,
                         BASE0, TRN_R_32F));
  return run_spsm(h, mL, L->rows, n, alpha, B, C);
}

/* ---- SpGEMM ---------------------------------------------------------------------------------------- */

/* The handle and CSR descriptors of A, B and of a C (A.rows x B.cols) with nnz 0 and its offsets only:
 * SpGEMM's protocol fills in the rest. a_values: A's values (the reuse walkthrough passes its copy). */
static int open_spgemm(trnsparseHandle_t* h, trnsparseSpMatDescr_t* mA, trnsparseSpMatDescr_t* mB,
                       trnsparseSpMatDescr_t* mC, const walk_sparse_t* A, const float* a_values,
                       const walk_sparse_t* B, int* c_offsets) {
  TRY(trnsparseCreate(h));
  TRY(trnsparseCreateCsr(mA, A->rows, A->cols, A->nnz, (void*)A->row_index, (void*)A->columns, (void*)a_values, I32,
                         I32, BASE0, TRN_R_32F));
  TRY(trnsparseCreateCsr(mB, B->rows, B->cols, B->nnz, (void*)B->row_index, (void*)B->columns, (void*)B->values, I32,
                         I32, BASE0, TRN_R_32F));
  TRY(trnsparseCreateCsr(mC, A->rows, B->cols, 0, c_offsets, NULL, NULL, I32, I32, BASE0, TRN_R_32F));
  return 0;
}

static int close_spgemm(trnsparseHandle_t h, trnsparseSpMatDescr_t mA, trnsparseSpMatDescr_t mB,
                        trnsparseSpMatDescr_t mC, trnsparseSpGEMMDescr_t descr) {
  TRY(trnsparseSpGEMM_destroyDescr(descr));
  TRY(trnsparseDestroySpMat(mA));
  TRY(trnsparseDestroySpMat(mB));
  TRY(trnsparseDestroySpMat(mC));
  TRY(trnsparseDestroy(h));
  return 0;
}

/* nnz(C) once the protocol knows it, checked against the caller's capacity. */
static int c_size(trnsparseSpMatDescr_t mC, int capacity, int* c_nnz) {
  int64_t rows, cols, nnz;
  TRY(trnsparseSpMatGetSize(mC, &rows, &cols, &nnz));
  if (nnz > capacity) return __LINE__;
  *c_nnz = (int)nnz;
  return 0;
}

/* workEstimation twice, (ALG2: getNumProducts, estimateMemory twice), compute (twice without
 * estimateMemory), GetSize, CsrSetPointers, copy. */
static int run_spgemm(const walk_sparse_t* A, const walk_sparse_t* B, float alpha, int capacity, int* c_offsets,
                      int* c_columns, float* c_values, int* c_nnz, long long* products) {
  const trnsparseSpGEMMAlg_t alg = products != NULL ? TRNSPARSE_SPGEMM_ALG2 : TRNSPARSE_SPGEMM_DEFAULT;
  const float beta = 0.0f;
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mA, mB, mC;
  trnsparseSpGEMMDescr_t d;
  size_t size1 = 0, size2 = 0, size3 = 0;
  void *buffer1, *buffer2, *buffer3;
  TRY(open_spgemm(&h, &mA, &mB, &mC, A, A->values, B, c_offsets));
  TRY(trnsparseSpGEMM_createDescr(&d));
  TRY(trnsparseSpGEMM_workEstimation(h, NON_T, NON_T, &alpha, mA, mB, &beta, mC, TRN_R_32F, alg, d, &size1, NULL));
  ALLOC(buffer1, size1);
  TRY(trnsparseSpGEMM_workEstimation(h, NON_T, NON_T, &alpha, mA, mB, &beta, mC, TRN_R_32F, alg, d, &size1, buffer1));
  if (products != NULL) {
    int64_t count = 0;
    TRY(trnsparseSpGEMM_getNumProducts(d, &count));
    *products = (long long)count;
    TRY(trnsparseSpGEMM_estimateMemory(h, NON_T, NON_T, &alpha, mA, mB, &beta, mC, TRN_R_32F, alg, d, 0.5f, &size3,
                                       NULL, NULL));
    ALLOC(buffer3, size3);
    TRY(trnsparseSpGEMM_estimateMemory(h, NON_T, NON_T, &alpha, mA, mB, &beta, mC, TRN_R_32F, alg, d, 0.5f, &size3,
                                       buffer3, &size2));
    free(buffer3);
  } else {
    TRY(trnsparseSpGEMM_compute(h, NON_T, NON_T, &alpha, mA, mB, &beta, mC, TRN_R_32F, alg, d, &size2, NULL));
  }
  ALLOC(buffer2, size2);
  TRY(trnsparseSpGEMM_compute(h, NON_T, NON_T, &alpha, mA, mB, &beta, mC, TRN_R_32F, alg, d, &size2, buffer2));
  TRY(c_size(mC, capacity, c_nnz));
  TRY(trnsparseCsrSetPointers(mC, c_offsets, c_columns, c_values));
  TRY(trnsparseSpGEMM_copy(h, NON_T, NON_T, &alpha, mA, mB, &beta, mC, TRN_R_32F, alg, d));
  free(buffer1);
  free(buffer2);
  return close_spgemm(h, mA, mB, mC, d);
}

int walk_spgemm(const walk_sparse_t* A, const walk_sparse_t* B, float alpha, int capacity, int* c_offsets,
                int* c_columns, float* c_values, int* c_nnz) {
  return run_spgemm(A, B, alpha, capacity, c_offsets, c_columns, c_values, c_nnz, NULL);
}

int walk_spgemm_mem(const walk_sparse_t* A, const walk_sparse_t* B, float alpha, int capacity, int* c_offsets,
                    int* c_columns, float* c_values, int* c_nnz, long long* products) {
  if (products == NULL) return __LINE__;
  return run_spgemm(A, B, alpha, capacity, c_offsets, c_columns, c_values, c_nnz, products);
}

/* The structure of C once (workEstimation, nnz, copy: each twice, a NULL buffer first), then its values
 * twice (compute), A's values changed in place between the two. */
int walk_spgemm_reuse(const walk_sparse_t* A, const walk_sparse_t* B, const float* a_values_2, int capacity,
                      int* c_offsets, int* c_columns, float* c_values_1, float* c_values_2, int* c_nnz) {
  const trnsparseSpGEMMAlg_t alg = TRNSPARSE_SPGEMM_DEFAULT;
  const float alpha = 1.0f, beta = 0.0f;
  trnsparseHandle_t h;
  trnsparseSpMatDescr_t mA, mB, mC;
  trnsparseSpGEMMDescr_t d;
  size_t size1 = 0, size2 = 0, size3 = 0, size4 = 0, size5 = 0;
  void *buffer1, *buffer2, *buffer3, *buffer4, *buffer5;
  float* a_values;
  ALLOC(a_values, sizeof(float) * (size_t)A->nnz);
  memcpy(a_values, A->values, sizeof(float) * (size_t)A->nnz);
  TRY(open_spgemm(&h, &mA, &mB, &mC, A, a_values, B, c_offsets));
  TRY(trnsparseSpGEMM_createDescr(&d));
  TRY(trnsparseSpGEMMreuse_workEstimation(h, NON_T, NON_T, mA, mB, mC, alg, d, &size1, NULL));
  ALLOC(buffer1, size1);
  TRY(trnsparseSpGEMMreuse_workEstimation(h, NON_T, NON_T, mA, mB, mC, alg, d, &size1, buffer1));
  TRY(trnsparseSpGEMMreuse_nnz(h, NON_T, NON_T, mA, mB, mC, alg, d, &size2, NULL, &size3, NULL, &size4, NULL));
  ALLOC(buffer2, size2);
  ALLOC(buffer3, size3);
  ALLOC(buffer4, size4);
  TRY(trnsparseSpGEMMreuse_nnz(h, NON_T, NON_T, mA, mB, mC, alg, d, &size2, buffer2, &size3, buffer3, &size4,
                               buffer4));
  free(buffer1);
  free(buffer2);
  TRY(c_size(mC, capacity, c_nnz));
  TRY(trnsparseCsrSetPointers(mC, c_offsets, c_columns, c_values_2));
  TRY(trnsparseSpGEMMreuse_copy(h, NON_T, NON_T, mA, mB, mC, alg, d, &size5, NULL));
  ALLOC(buffer5, size5);
  TRY(trnsparseSpGEMMreuse_copy(h, NON_T, NON_T, mA, mB, mC, alg, d, &size5, buffer5));
  free(buffer3);
  TRY(trnsparseSpGEMMreuse_compute(h, NON_T, NON_T, &alpha, mA, mB, &beta, mC, TRN_R_32F, alg, d));
  memcpy(c_values_1, c_values_2, sizeof(float) * (size_t)*c_nnz);
  memcpy(a_values, a_values_2, sizeof(float) * (size_t)A->nnz); /* new values, same pattern: no new analysis */
  TRY(trnsparseSpGEMMreuse_compute(h, NON_T, NON_T, &alpha, mA, mB, &beta, mC, TRN_R_32F, alg, d));
  free(buffer4);
  free(buffer5);
  TRY(close_spgemm(h, mA, mB, mC, d));
  free(a_values);
  return 0;
}

/* ---- gpsvInterleavedBatch --------------------------------------------------------------------------- */

/* dst (cols x rows, ld cols) = src^T (src rows x cols, ld rows) by trnblasSgeam with B = NULL, beta 0
 * (cuBLAS's documented in-place-free transpose). */
static int transpose(trnblasHandle_t blas, int rows, int cols, const float* src, float* dst) {
  const float one = 1.0f, zero = 0.0f;
  TRY(trnblasSgeam(blas, TRNBLAS_OP_T, TRNBLAS_OP_N, cols, rows, &one, src, rows, &zero, NULL, cols, dst, cols));
  return 0;
}

int walk_gpsv_interleaved_batch(int m, int batch, const float* ds, const float* dl, const float* d, const float* du,
                                const float* dw, const float* b, float* x) {
  const float* bands[6];
  float* interleaved[6]; /* ds, dl, d, du, dw, x: element i of system s at i * batch + s */
  const size_t bytes_each = sizeof(float) * (size_t)m * (size_t)batch;
  trnsparseHandle_t h;
  trnblasHandle_t blas;
  size_t bytes = 0;
  void* buffer;
  int k;
  bands[0] = ds, bands[1] = dl, bands[2] = d, bands[3] = du, bands[4] = dw, bands[5] = b;
  TRY(trnsparseCreate(&h));
  TRY(trnblasCreate(&blas));
  for (k = 0; k < 6; ++k) {
    ALLOC(interleaved[k], bytes_each);
    TRY(transpose(blas, m, batch, bands[k], interleaved[k]));
  }
  TRY(trnsparseSgpsvInterleavedBatch_bufferSizeExt(h, 0, m, interleaved[0], interleaved[1], interleaved[2],
                                                   interleaved[3], interleaved[4], interleaved[5], batch, &bytes));
  ALLOC(buffer, bytes);
  TRY(trnsparseSgpsvInterleavedBatch(h, 0, m, interleaved[0], interleaved[1], interleaved[2], interleaved[3],
                                     interleaved[4], interleaved[5], batch, buffer));
  free(buffer);
  TRY(transpose(blas, batch, m, interleaved[5], x));
  for (k = 0; k < 6; ++k) free(interleaved[k]);
  TRY(trnblasDestroy(blas));
  TRY(trnsparseDestroy(h));
  return 0;
}

/* ---- preconditioned Krylov solves (fp64): IC(0) + CG, ILU(0) + BiCGStab ------------------------------- */

/* The state both Krylov walkthroughs share: the handles, A and the factor's triangles (lower; upper
 * for ILU(0), NULL for IC(0), whose upper solve is the lower triangle transposed), the SpSV descriptors
 * of the two preconditioner solves, the work vectors and their dense-vector descriptors. */
enum { KRYLOV_VECTORS = 9 };
typedef struct {
  int n;
  trnsparseHandle_t h;
  trnblasHandle_t blas;
  trnsparseSpMatDescr_t A, lower, upper;
  trnsparseSpSVDescr_t lower_solve, upper_solve;
  trnsparseOperation_t upper_op;
  double* factor;
  double* v[KRYLOV_VECTORS];
  trnsparseDnVecDescr_t dn[KRYLOV_VECTORS];
  void* buffers[3]; /* SpMV, lower SpSV, upper SpSV */
} krylov_t;

/* The factor's values by csric02 (ic0 != 0) or csrilu02 on a copy of A's, with cuSPARSE's legacy
 * protocol: matrix descriptor, info, bufferSize, analysis, zeroPivot, factorization, zeroPivot. */
static int factorize(krylov_t* k, int ic0, int nnz, const int* offsets, const int* columns, const double* values) {
  trnsparseMatDescr_t descr;
  csric02Info_t ic;
  csrilu02Info_t ilu;
  int bytes = 0, pivot = -1;
  void* buffer;
  ALLOC(k->factor, sizeof(double) * (size_t)nnz);
  memcpy(k->factor, values, sizeof(double) * (size_t)nnz);
  TRY(trnsparseCreateMatDescr(&descr));
  TRY(trnsparseSetMatIndexBase(descr, BASE0));
  TRY(trnsparseSetMatType(descr, TRNSPARSE_MATRIX_TYPE_GENERAL));
  if (ic0) {
    TRY(trnsparseSetMatFillMode(descr, TRNSPARSE_FILL_MODE_LOWER));
    TRY(trnsparseSetMatDiagType(descr, TRNSPARSE_DIAG_TYPE_NON_UNIT));
    TRY(trnsparseCreateCsric02Info(&ic));
    TRY(trnsparseDcsric02_bufferSize(k->h, k->n, nnz, descr, k->factor, offsets, columns, ic, &bytes));
    ALLOC(buffer, bytes);
    TRY(trnsparseDcsric02_analysis(k->h, k->n, nnz, descr, k->factor, offsets, columns, ic,
                                   TRNSPARSE_SOLVE_POLICY_NO_LEVEL, buffer));
    TRY(trnsparseXcsric02_zeroPivot(k->h, ic, &pivot)); /* ZERO_PIVOT (not 0) would name a structural zero */
    TRY(trnsparseDcsric02(k->h, k->n, nnz, descr, k->factor, offsets, columns, ic, TRNSPARSE_SOLVE_POLICY_NO_LEVEL,
                          buffer));
    TRY(trnsparseXcsric02_zeroPivot(k->h, ic, &pivot));
    TRY(trnsparseDestroyCsric02Info(ic));
  } else {
    TRY(trnsparseCreateCsrilu02Info(&ilu));
    TRY(trnsparseDcsrilu02_bufferSize(k->h, k->n, nnz, descr, k->factor, offsets, columns, ilu, &bytes));
    ALLOC(buffer, bytes);
    TRY(trnsparseDcsrilu02_analysis(k->h, k->n, nnz, descr, k->factor, offsets, columns, ilu,
                                    TRNSPARSE_SOLVE_POLICY_NO_LEVEL, buffer));
    TRY(trnsparseXcsrilu02_zeroPivot(k->h, ilu, &pivot));
    TRY(trnsparseDcsrilu02(k->h, k->n, nnz, descr, k->factor, offsets, columns, ilu, TRNSPARSE_SOLVE_POLICY_NO_LEVEL,
                           buffer));
    TRY(trnsparseXcsrilu02_zeroPivot(k->h, ilu, &pivot));
    TRY(trnsparseDestroyCsrilu02Info(ilu));
  }
  free(buffer);
  TRY(trnsparseDestroyMatDescr(descr));
  return 0;
}

/* A triangle of the factor as a generic descriptor with its fill mode and diagonal type. */
static int factor_triangle(krylov_t* k, trnsparseSpMatDescr_t* M, int nnz, const int* offsets, const int* columns,
                           trnsparseFillMode_t fill, trnsparseDiagType_t diag) {
  TRY(trnsparseCreateCsr(M, k->n, k->n, nnz, (void*)offsets, (void*)columns, k->factor, I32, I32, BASE0, TRN_R_64F));
  TRY(trnsparseSpMatSetAttribute(*M, TRNSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
  TRY(trnsparseSpMatSetAttribute(*M, TRNSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
  return 0;
}

/* SpSV's bufferSize and analysis for solves M out = in with op. */
static int analyse_solve(krylov_t* k, trnsparseOperation_t op, trnsparseSpMatDescr_t M, trnsparseSpSVDescr_t* d,
                         void** buffer, int in, int out) {
  const double one = 1.0;
  size_t bytes = 0;
  TRY(trnsparseSpSV_createDescr(d));
  TRY(trnsparseSpSV_bufferSize(k->h, op, &one, M, k->dn[in], k->dn[out], TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT, *d,
                               &bytes));
  ALLOC(*buffer, bytes);
  TRY(trnsparseSpSV_analysis(k->h, op, &one, M, k->dn[in], k->dn[out], TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT, *d,
                             *buffer));
  return 0;
}

/* Handles, A, the factor and its triangles, the vectors (x is the caller's), the analyses; vector 1 is
 * the residual r = b - A x, vectors 2 and 3 the preconditioner's intermediate and output. */
static int open_krylov(krylov_t* k, int ic0, int n, int nnz, const int* offsets, const int* columns,
                       const double* values, const double* b, double* x) {
  const double minus_one = -1.0, one = 1.0;
  size_t bytes = 0;
  int i;
  memset(k, 0, sizeof *k);
  k->n = n;
  TRY(trnsparseCreate(&k->h));
  TRY(trnblasCreate(&k->blas));
  TRY(trnsparseCreateCsr(&k->A, n, n, nnz, (void*)offsets, (void*)columns, (void*)values, I32, I32, BASE0, TRN_R_64F));
  k->v[0] = x;
  for (i = 1; i < KRYLOV_VECTORS; ++i) ALLOC(k->v[i], sizeof(double) * (size_t)n);
  for (i = 0; i < KRYLOV_VECTORS; ++i) TRY(trnsparseCreateDnVec(&k->dn[i], n, k->v[i], TRN_R_64F));
  TRY(factorize(k, ic0, nnz, offsets, columns, values));
  TRY(factor_triangle(k, &k->lower, nnz, offsets, columns, TRNSPARSE_FILL_MODE_LOWER,
                      ic0 ? TRNSPARSE_DIAG_TYPE_NON_UNIT : TRNSPARSE_DIAG_TYPE_UNIT));
  if (!ic0)
    TRY(factor_triangle(k, &k->upper, nnz, offsets, columns, TRNSPARSE_FILL_MODE_UPPER, TRNSPARSE_DIAG_TYPE_NON_UNIT));
  k->upper_op = ic0 ? TRNSPARSE_OPERATION_TRANSPOSE : NON_T;
  TRY(analyse_solve(k, NON_T, k->lower, &k->lower_solve, &k->buffers[1], 1, 2));
  TRY(analyse_solve(k, k->upper_op, ic0 ? k->lower : k->upper, &k->upper_solve, &k->buffers[2], 2, 3));
  /* r = b - A x: SpMV with alpha -1, beta 1 into a copy of b. */
  TRY(trnblasDcopy(k->blas, n, b, 1, k->v[1], 1));
  TRY(trnsparseSpMV_bufferSize(k->h, NON_T, &minus_one, k->A, k->dn[0], &one, k->dn[1], TRN_R_64F,
                               TRNSPARSE_SPMV_ALG_DEFAULT, &bytes));
  ALLOC(k->buffers[0], bytes);
  TRY(trnsparseSpMV(k->h, NON_T, &minus_one, k->A, k->dn[0], &one, k->dn[1], TRN_R_64F, TRNSPARSE_SPMV_ALG_DEFAULT,
                    k->buffers[0]));
  return 0;
}

/* out = A in (vectors by number). */
static int apply_a(krylov_t* k, int in, int out) {
  const double one = 1.0, zero = 0.0;
  TRY(trnsparseSpMV(k->h, NON_T, &one, k->A, k->dn[in], &zero, k->dn[out], TRN_R_64F, TRNSPARSE_SPMV_ALG_DEFAULT,
                    k->buffers[0]));
  return 0;
}

/* out = M^-1 in through vector 2: the lower solve, then the upper (or the lower transposed). */
static int precondition(krylov_t* k, int in, int out) {
  const double one = 1.0;
  TRY(trnsparseSpSV_solve(k->h, NON_T, &one, k->lower, k->dn[in], k->dn[2], TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT,
                          k->lower_solve));
  TRY(trnsparseSpSV_solve(k->h, k->upper_op, &one, k->upper != NULL ? k->upper : k->lower, k->dn[2], k->dn[out],
                          TRN_R_64F, TRNSPARSE_SPSV_ALG_DEFAULT, k->upper_solve));
  return 0;
}

static int close_krylov(krylov_t* k) {
  int i;
  TRY(trnsparseSpSV_destroyDescr(k->lower_solve));
  TRY(trnsparseSpSV_destroyDescr(k->upper_solve));
  for (i = 0; i < KRYLOV_VECTORS; ++i) TRY(trnsparseDestroyDnVec(k->dn[i]));
  for (i = 1; i < KRYLOV_VECTORS; ++i) free(k->v[i]);
  for (i = 0; i < 3; ++i) free(k->buffers[i]);
  TRY(trnsparseDestroySpMat(k->A));
  TRY(trnsparseDestroySpMat(k->lower));
  if (k->upper != NULL) TRY(trnsparseDestroySpMat(k->upper));
  free(k->factor);
  TRY(trnblasDestroy(k->blas));
  TRY(trnsparseDestroy(k->h));
  return 0;
}

/* Preconditioned CG (Saad, Iterative Methods for Sparse Linear Systems, 2nd ed., Algorithm 9.1):
 * vectors x 0, r 1, z 3, p 4, q 5. */
int walk_cg_ic0(int n, int nnz, const int* offsets, const int* columns, const double* values, const double* b,
                double tolerance, int max_iterations, double* x, int* iterations) {
  enum { X = 0, R = 1, Z = 3, P = 4, Q = 5 };
  krylov_t k;
  double b_norm, r_norm, rz, rz_next, pq, step, beta;
  int it;
  TRY(open_krylov(&k, 1, n, nnz, offsets, columns, values, b, x));
  TRY(trnblasDnrm2(k.blas, n, b, 1, &b_norm));
  TRY(precondition(&k, R, Z));
  TRY(trnblasDcopy(k.blas, n, k.v[Z], 1, k.v[P], 1));
  TRY(trnblasDdot(k.blas, n, k.v[R], 1, k.v[Z], 1, &rz));
  TRY(trnblasDnrm2(k.blas, n, k.v[R], 1, &r_norm));
  for (it = 0; it < max_iterations && r_norm > tolerance * b_norm; ++it) {
    TRY(apply_a(&k, P, Q));
    TRY(trnblasDdot(k.blas, n, k.v[P], 1, k.v[Q], 1, &pq));
    step = rz / pq;
    TRY(trnblasDaxpy(k.blas, n, &step, k.v[P], 1, k.v[X], 1));
    step = -step;
    TRY(trnblasDaxpy(k.blas, n, &step, k.v[Q], 1, k.v[R], 1));
    TRY(trnblasDnrm2(k.blas, n, k.v[R], 1, &r_norm));
    TRY(precondition(&k, R, Z));
    TRY(trnblasDdot(k.blas, n, k.v[R], 1, k.v[Z], 1, &rz_next));
    beta = rz_next / rz;
    rz = rz_next;
    TRY(trnblasDscal(k.blas, n, &beta, k.v[P], 1)); /* p = z + beta p */
    beta = 1.0;
    TRY(trnblasDaxpy(k.blas, n, &beta, k.v[Z], 1, k.v[P], 1));
  }
  *iterations = it;
  return close_krylov(&k);
}

/* Right-preconditioned BiCGStab (van der Vorst 1992; Saad, Algorithm 7.7 with M^-1 applied to p and s):
 * vectors x 0, r (= s) 1, p-hat / s-hat 3, r-hat 4, p 5, v 6, t 7. */
int walk_bicgstab_ilu0(int n, int nnz, const int* offsets, const int* columns, const double* values, const double* b,
                       double tolerance, int max_iterations, double* x, int* iterations) {
  enum { X = 0, R = 1, HAT = 3, R0 = 4, P = 5, V = 6, T = 7 };
  krylov_t k;
  double b_norm, r_norm, rho = 1.0, rho_next, alpha = 1.0, omega = 1.0, beta, dot, tt, scale;
  int it;
  TRY(open_krylov(&k, 0, n, nnz, offsets, columns, values, b, x));
  TRY(trnblasDnrm2(k.blas, n, b, 1, &b_norm));
  TRY(trnblasDnrm2(k.blas, n, k.v[R], 1, &r_norm));
  TRY(trnblasDcopy(k.blas, n, k.v[R], 1, k.v[R0], 1));
  TRY(trnblasDcopy(k.blas, n, k.v[R], 1, k.v[P], 1));
  for (it = 0; it < max_iterations && r_norm > tolerance * b_norm; ++it) {
    TRY(trnblasDdot(k.blas, n, k.v[R0], 1, k.v[R], 1, &rho_next));
    if (it > 0) { /* p = r + beta (p - omega v) */
      beta = (rho_next / rho) * (alpha / omega);
      scale = -omega;
      TRY(trnblasDaxpy(k.blas, n, &scale, k.v[V], 1, k.v[P], 1));
      TRY(trnblasDscal(k.blas, n, &beta, k.v[P], 1));
      scale = 1.0;
      TRY(trnblasDaxpy(k.blas, n, &scale, k.v[R], 1, k.v[P], 1));
    }
    rho = rho_next;
    TRY(precondition(&k, P, HAT));
    TRY(apply_a(&k, HAT, V));
    TRY(trnblasDdot(k.blas, n, k.v[R0], 1, k.v[V], 1, &dot));
    alpha = rho / dot;
    TRY(trnblasDaxpy(k.blas, n, &alpha, k.v[HAT], 1, k.v[X], 1));
    scale = -alpha;
    TRY(trnblasDaxpy(k.blas, n, &scale, k.v[V], 1, k.v[R], 1)); /* s = r - alpha v, kept in r */
    TRY(trnblasDnrm2(k.blas, n, k.v[R], 1, &r_norm));
    if (r_norm <= tolerance * b_norm) {
      ++it;
      break;
    }
    TRY(precondition(&k, R, HAT));
    TRY(apply_a(&k, HAT, T));
    TRY(trnblasDdot(k.blas, n, k.v[T], 1, k.v[R], 1, &dot));
    TRY(trnblasDdot(k.blas, n, k.v[T], 1, k.v[T], 1, &tt));
    omega = dot / tt;
    TRY(trnblasDaxpy(k.blas, n, &omega, k.v[HAT], 1, k.v[X], 1));
    scale = -omega;
    TRY(trnblasDaxpy(k.blas, n, &scale, k.v[T], 1, k.v[R], 1));
    TRY(trnblasDnrm2(k.blas, n, k.v[R], 1, &r_norm));
  }
  *iterations = it;
  return close_krylov(&k);
}
