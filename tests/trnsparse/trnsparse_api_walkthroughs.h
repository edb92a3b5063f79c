/* The C99 walkthroughs of trnsparse's C API (trnsparse_api_walkthroughs.c), one per call sequence a
 * cuSPARSE program makes (descriptors, bufferSize / preprocess / analysis / compute, destroy). The
 * caller owns the problem and its expected result (test_trnsparse_samples.cpp: dense reference loops);
 * every walkthrough returns 0, or the source line of the first call that did not return SUCCESS (or
 * of the failed host allocation). Matrices are zero-based with 32-bit indices and fp32 values unless
 * a function says otherwise; dense operands are column-major with the leading dimension = rows unless
 * a function says row-major. */
#ifndef TRNSPARSE_API_WALKTHROUGHS_H
#define TRNSPARSE_API_WALKTHROUGHS_H

#ifdef __cplusplus
extern "C" {
#endif

/* A sparse matrix as a program holds it: CSR (row_index: rows + 1 offsets) or COO (row_index: nnz
 * row indices, sorted by row), zero-based. For the strided-batch walkthroughs the arrays hold `batch`
 * copies back to back (offsets at stride rows + 1 (CSR) or row indices at stride nnz (COO); columns
 * and values at stride nnz). */
typedef struct {
  int rows, cols, nnz;
  const int* row_index;
  const int* columns;
  const float* values;
} walk_sparse_t;

/* Sliced-ELL arrays (trnsparse.h CreateSlicedEll's layout). */
typedef struct {
  int rows, cols, nnz, slice_size, values_size;
  const int* slice_offsets;
  const int* columns;
  const float* values;
} walk_sell_t;

/* y = alpha A x + beta y. */
int walk_spmv_csr(const walk_sparse_t* A, float alpha, const float* x, float beta, float* y);
int walk_spmv_coo(const walk_sparse_t* A, float alpha, const float* x, float beta, float* y);
int walk_spmv_sell(const walk_sell_t* A, float alpha, const float* x, float beta, float* y);
/* C (A.rows x n) = alpha A B + beta C, B A.cols x n; per batch for the _batched ones. */
int walk_spmm_csr(const walk_sparse_t* A, int n, float alpha, const float* B, float beta, float* C);
int walk_spmm_coo(const walk_sparse_t* A, int n, float alpha, const float* B, float beta, float* C);
int walk_spmm_csr_batched(const walk_sparse_t* A, int batch, int n, float alpha, const float* B, float beta, float* C);
int walk_spmm_coo_batched(const walk_sparse_t* A, int batch, int n, float alpha, const float* B, float beta, float* C);
/* A rows x cols in Blocked-ELL (block x block blocks, ell_cols columns of slots; ell_values row-major
 * rows x ell_cols, slot column index -1 = padding); C = A B. */
int walk_spmm_blockedell(int rows, int cols, int block, int ell_cols, const int* ell_columns, const float* ell_values,
                         int n, const float* B, float* C);
/* values of C (CSR pattern offsets / columns, m x n) = alpha (A B) o spy(C) + beta values, A m x k and
 * B k x n row-major; per batch (patterns and operands back to back) for the batched one. */
int walk_sddmm_csr(int m, int k, int n, const float* A, const float* B, int nnz, const int* offsets,
                   const int* columns, float alpha, float beta, float* values);
int walk_sddmm_csr_batched(int batch, int m, int k, int n, const float* A, const float* B, int nnz,
                           const int* offsets, const int* columns, float alpha, float beta, float* values);
/* The same on a BSR pattern of block x block blocks (row-major inside blocks), alpha 1, beta 0. */
int walk_sddmm_bsr(int m, int k, int n, const float* A, const float* B, int block, int bnnz, const int* offsets,
                   const int* columns, float* values);
/* Sparse vector x (size, nnz, indices, x_values) against dense y. */
int walk_spvv(int size, int nnz, const int* indices, const float* x_values, const float* y, float* result);
int walk_axpby(int size, int nnz, const int* indices, const float* x_values, float alpha, float beta, float* y);
int walk_gather(int size, int nnz, const int* indices, const float* y, float* x_values);
int walk_scatter(int size, int nnz, const int* indices, const float* x_values, float* y);
int walk_rot(int size, int nnz, const int* indices, float c, float s, float* x_values, float* y);
/* Dense (row-major rows x cols) -> CSR: offsets (rows + 1), columns / values (capacity), *nnz. */
int walk_dense2sparse_csr(int rows, int cols, const float* dense, int capacity, int* offsets, int* columns,
                          float* values, int* nnz);
/* Dense (row-major) -> Blocked-ELL: the analysis writes ell_columns ((rows / block) x (ell_cols / block)),
 * the conversion ell_values (row-major rows x ell_cols). */
int walk_dense2sparse_blockedell(int rows, int cols, int block, int ell_cols, const float* dense, int* ell_columns,
                                 float* ell_values);
/* CSR -> dense row-major rows x cols. */
int walk_sparse2dense_csr(const walk_sparse_t* A, float* dense);
/* Sorts COO (rows, columns) by row in place; permutation and the fp64 values gathered through it. */
int walk_coosort(int rows, int cols, int nnz, int* coo_rows, int* coo_columns, const double* values,
                 int* permutation, double* sorted_values);
/* Lower-triangular non-unit solves: L y = alpha x (SpSV), L C = alpha B (SpSM, n right-hand sides). */
int walk_spsv_csr(const walk_sparse_t* L, float alpha, const float* x, float* y);
int walk_spsv_coo(const walk_sparse_t* L, float alpha, const float* x, float* y);
int walk_spsv_sell(const walk_sell_t* L, float alpha, const float* x, float* y);
int walk_spsm_csr(const walk_sparse_t* L, int n, float alpha, const float* B, float* C);
int walk_spsm_coo(const walk_sparse_t* L, int n, float alpha, const float* B, float* C);
/* C = alpha A B (CSR x CSR, beta 0): c_offsets (A.rows + 1), c_columns / c_values (capacity), *c_nnz.
 * The _mem one goes through ALG2's estimateMemory and reports getNumProducts in *products. */
int walk_spgemm(const walk_sparse_t* A, const walk_sparse_t* B, float alpha, int capacity, int* c_offsets,
                int* c_columns, float* c_values, int* c_nnz);
int walk_spgemm_mem(const walk_sparse_t* A, const walk_sparse_t* B, float alpha, int capacity, int* c_offsets,
                    int* c_columns, float* c_values, int* c_nnz, long long* products);
/* SpGEMMreuse: C = A B on the pattern computed once, then again after A's values became a_values_2:
 * c_values_1, c_values_2 (capacity each). */
int walk_spgemm_reuse(const walk_sparse_t* A, const walk_sparse_t* B, const float* a_values_2, int capacity,
                      int* c_offsets, int* c_columns, float* c_values_1, float* c_values_2, int* c_nnz);
/* batch pentadiagonal systems of size m (bands ds, dl, d, du, dw and right-hand side b system after
 * system, system s at s * m), interleaved with trnblasSgeam for gpsvInterleavedBatch; x system after
 * system. */
int walk_gpsv_interleaved_batch(int m, int batch, const float* ds, const float* dl, const float* d, const float* du,
                                const float* dw, const float* b, float* x);
/* Preconditioned Krylov solves of A x = b (fp64 CSR, n x n, columns ascending in each row, the
 * diagonal stored): CG with IC(0) (csric02; A symmetric positive definite), BiCGStab with ILU(0)
 * (csrilu02). Two SpSV per preconditioner application (IC(0): L, then L transposed), the vector steps
 * by trnblas; stop when |r|_2 <= tolerance |b|_2 (r the recursively updated residual) or after
 * max_iterations. x in: the start, out: the solution; *iterations done. */
int walk_cg_ic0(int n, int nnz, const int* offsets, const int* columns, const double* values, const double* b,
                double tolerance, int max_iterations, double* x, int* iterations);
int walk_bicgstab_ilu0(int n, int nnz, const int* offsets, const int* columns, const double* values, const double* b,
                       double tolerance, int max_iterations, double* x, int* iterations);

#ifdef __cplusplus
}
#endif

#endif
