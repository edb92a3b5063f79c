// trnsparse generic API in every value type: SpMV / SpMM over CSR, CSC and COO with fp64, complex-fp32
// and complex-fp64 values, the sparse-vector operations (Axpby, Gather, Scatter, Rot, SpVV), and the
// index conversions (sparse <-> dense, CSR -> CSC, COO <-> CSR, the sorts). The C API (trnsparse.h)
// is a thin shim over this header.
//
// Where the arithmetic runs (docs/trnsparse.md "Generic API: value types"). R_64F / C_64F products
// (SpMV, SpMM, SDDMM) run on TensorE through trnblas's fp64 products (spmm_fp64, sddmm_fp64 below;
// "fp64 CSR, CSC, COO, SELL and SDDMM on TensorE"); C_32F SpMV / SpMM of the C API run on TensorE
// through the real embedding (spmm_c32), and spmm_host / spmv_host with C_32F values remain ONE
// costed host step per call (trn/core/host_step.hpp): the operands cross the host link, a host thread
// runs the entry loop with fp64 (complex<double>) accumulators, the result crosses back; the step's
// time (round trip + bytes / link bandwidth + flops / host fp64 rate) is the call's modeled time.
// The sparse-vector operations below are host steps too. fp32 real values keep the TensorE BSR-block
// path of sparse.hpp. Conversions and sorts move values and indices only (no arithmetic).
//
// Accuracy of the host step (u64 = 2^-53, u32 = 2^-24, gamma_k = k u64 / (1 - k u64); Higham, Accuracy
// and Stability of Numerical Algorithms, 2nd ed., §3.1 and §3.6): each output element of op(A) op(B) is a sum of
// k products accumulated in entry order in fp64, so for real values
//     |y_hat - y| <= gamma_{k+2} (|alpha| |op(A)| |op(B)| + |beta| |C|)        (fp64)
// and for complex values sqrt(2) gamma_{k+4} of the same magnitudes; complex-fp32 outputs add the
// final rounding to fp32: u32 |y| + (1 + u32) sqrt(2) gamma_{k+4} (...). k is the largest number of
// stored entries in one row of op(A).
#pragma once
#include <complex>
#include <cstdint>
#include <string>

#include "trn/sparse/sparse.hpp"

namespace trn::sparse {

// The value types of the generic API (trnDataType_t TRN_R_32F, TRN_R_64F, TRN_C_32F, TRN_C_64F).
enum class Value : std::uint8_t { f32, f64, c32, c64 };
std::size_t value_bytes(Value v);
const char* value_name(Value v);  // "R_32F", "R_64F", "C_32F", "C_64F"
inline bool value_is_complex(Value v) { return v == Value::c32 || v == Value::c64; }
inline bool value_is_single(Value v) { return v == Value::f32 || v == Value::c32; }  // fp32 parts

// op(A) of the generic API: N, T, or C (conjugate transpose).
enum class GOp : std::uint8_t { N, T, C };

// A CSR, CSC or COO matrix of any Value. csr: offsets = row offsets [rows + 1], indices = columns;
// csc: offsets = column offsets [cols + 1], indices = rows; coo: offsets = row indices [nnz],
// indices = column indices [nnz] (both of indices_type). The index rules of sparse.hpp's views
// (sorted, in range) are checked by validate().
struct SparseRef {
  enum class Format : std::uint8_t { csr, csc, coo };
  Format format = Format::csr;
  std::int64_t rows = 0, cols = 0, nnz = 0;
  const void* offsets = nullptr;
  const void* indices = nullptr;
  void* values = nullptr;
  IndexType offsets_type = IndexType::i32, indices_type = IndexType::i32;
  IndexBase base = IndexBase::zero;
  Value value = Value::f32;
};
// Checks the index arrays (throws InvalidArgument naming "offsets", "columns", "nnz", ...).
void validate(const SparseRef& a);

// A dense matrix (or a vector: cols = 1, ld = rows) of any Value.
struct DenseAny {
  void* data = nullptr;
  Value value = Value::f32;
  std::int64_t rows = 0, cols = 0, ld = 0;
  Layout layout = Layout::col_major;
};

using Scalar = std::complex<double>;  // alpha, beta, c, s as given (the real part for real types)

// C = alpha op(A) op(B) + beta C for A, B, C of one Value, not f32 (those take the tile path).
// op(A) M x K, op(B) K x n, C M x n. beta == 0 never reads C. R_64F / C_64F run on TensorE
// (spmm_fp64 below: the function keeps its name for its callers); C_32F runs as the costed host
// step described above (entries accumulated in storage order; C_32F callers that want TensorE call
// spmm_c32). Deterministic.
void spmm_host(const Settings& s, GOp opA, GOp opB, Scalar alpha, const SparseRef& A, const DenseAny& B, Scalar beta,
               const DenseAny& C, CallReport* report = nullptr);
// y = alpha op(A) x + beta y: spmm_host with one column.
void spmv_host(const Settings& s, GOp opA, Scalar alpha, const SparseRef& A, const void* x, Scalar beta, void* y,
               CallReport* report = nullptr);
// The plan text of both: format, value type, shape, where it runs and why.
std::string host_product_plan(const char* routine, GOp opA, const SparseRef& A, std::int64_t n);

// ---- complex-fp32 products on TensorE (complex_embed.cpp) ---------------------------------------
// C = alpha op(A) op(B) + beta C for C_32F values (A, B, C all Value::c32; BsrView / BlockedEllView
// with complex<float> values, their value_type ignored) as ONE real fp32 product on the TensorE BSR
// kernel: the real 2 x 2 embedding [ar -ai; ai ar] of A times the interleaved (re, im) fp32 view of
// op(B) (docs/trnsparse.md "Complex-fp32 on TensorE": algorithm, bound gamma32_{2k+2}, plan).
// Deterministic (the kernel's fixed order); beta == 0 never reads C. SpMV is the n = 1 case.
void spmm_c32(const Settings& s, GOp opA, GOp opB, Scalar alpha, const SparseRef& A, const DenseAny& B, Scalar beta,
              const DenseAny& C, CallReport* report = nullptr);
void spmm_c32(const Settings& s, GOp opA, GOp opB, Scalar alpha, const BsrView& A, const DenseAny& B, Scalar beta,
              const DenseAny& C, CallReport* report = nullptr);
void spmm_c32(const Settings& s, GOp opA, GOp opB, Scalar alpha, const BlockedEllView& A, const DenseAny& B, Scalar beta,
              const DenseAny& C, CallReport* report = nullptr);
// ---- fp64 / complex-fp64 CSR, CSC and COO products on TensorE (rows_fp64.cpp) -----------------
// C = alpha op(A) op(B) + beta C for R_64F or C_64F values (A, B, C of one of them): op(A)'s rows in
// groups of 128, each group's dense panel of its distinct columns gathered with op(B)'s rows, one
// trnblas call per group -- n == 1 the fp64 GEMV (slice pairs: one rounding per output part), n > 1
// the Ozaki GEMM (docs/trnsparse.md "fp64 CSR, CSC, COO, SELL and SDDMM on TensorE": algorithm,
// bounds, plan). Deterministic; beta == 0 never reads C.
void spmm_fp64(const Settings& s, GOp opA, GOp opB, Scalar alpha, const SparseRef& A, const DenseAny& B, Scalar beta,
               const DenseAny& C, CallReport* report = nullptr);
// ---- fp64 / complex-fp64 BSR and Blocked-ELL products on TensorE (block_fp64.cpp) -------------
// C = alpha op(A) op(B) + beta C for R_64F or C_64F values (`value`; the view's value_type is
// ignored): per block row of op(A) one trnblas Ozaki GEMM (dgemm, or zgemm 4M) of the gathered
// block panel and op(B) rows, on TensorE (docs/trnsparse.md "fp64 BSR and Blocked-ELL on TensorE":
// algorithm, bound, plan); an R_64F SpMV whose block rows hold <= 128 stored values on average runs
// the block entries in dgemv row groups instead (exact products, one rounding; docs/trnsparse.md
// "Session 21"). Deterministic; beta == 0 never reads C.
void spmm_fp64(const Settings& s, GOp opA, GOp opB, Scalar alpha, const BsrView& A, Value value, const DenseAny& B,
               Scalar beta, const DenseAny& C, CallReport* report = nullptr);
void spmm_fp64(const Settings& s, GOp opA, GOp opB, Scalar alpha, const BlockedEllView& A, Value value, const DenseAny& B,
               Scalar beta, const DenseAny& C, CallReport* report = nullptr);

// SDDMM C = alpha (op(A) op(B)) o spy(C) + beta C in C_32F on the fp32 TensorE SDDMM kernel (the
// column-interleaved real form: M x 2K times 2K x 2N, C's values in place). CSR pattern (C.format
// csr) or BSR pattern (complex<float> values, value_type ignored). Bound: the SpMM one with k = K.
void sddmm_c32(const Settings& s, GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta,
               const SparseRef& C, CallReport* report = nullptr);
void sddmm_c32(const Settings& s, GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta,
               const BsrView& C, CallReport* report = nullptr);

// ---- SDDMM in fp64 / complex (sddmm_host.cpp) -------------------------------------------------
// C = alpha (op(A) op(B)) o spy(C) + beta C on the stored entries of C's pattern, A, B dense and C
// of one Value (not f32: fp32-class values take sparse.hpp's TensorE kernels). op(A) M x K, op(B)
// K x N, C M x N; op C conjugates (complex). Each stored entry is one K-term dot product in
// increasing k with an fp64 (complex<double>) accumulator, as ONE costed host step per call (the
// header comment above says why). Accuracy per stored entry: the SpMM bound above with k = K.
// beta == 0 never reads C's values. CSR pattern (`C.format` csr) or BSR pattern (block order as
// the view says; C.value_type is ignored: `value` is the values' type).
// R_64F / C_64F run on TensorE (sddmm_fp64 below; the function keeps its name for its callers).
void sddmm_host(const Settings& s, GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta,
                const SparseRef& C, CallReport* report = nullptr);
void sddmm_host(const Settings& s, GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta,
                const BsrView& C, Value value, CallReport* report = nullptr);

// SDDMM in R_64F / C_64F on TensorE (sddmm_host.cpp): C's stored entries grouped by 128 rows of C
// (a BSR pattern as its scalar entries); per group op(A)'s rows times op(B)'s columns at the group's
// distinct stored columns as ONE Ozaki GEMM (dgemm / zgemm 4M) into a tile holding C's stored values
// (beta applied there), the stored entries read back (docs/trnsparse.md "fp64 CSR, CSC, COO, SELL
// and SDDMM on TensorE"). Per stored entry the Ozaki bound with k = K. beta == 0 never reads C.
void sddmm_fp64(const Settings& s, GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta,
                const SparseRef& C, CallReport* report = nullptr);
void sddmm_fp64(const Settings& s, GOp opA, GOp opB, Scalar alpha, const DenseAny& A, const DenseAny& B, Scalar beta,
                const BsrView& C, Value value, CallReport* report = nullptr);

// ---- sparse vectors ---------------------------------------------------------------------------
// nnz entries: values[i] at position indices[i] - base of a vector of `size`; indices in range
// (validate()); duplicates are allowed and processed in storage order.
struct SpVecRef {
  std::int64_t size = 0, nnz = 0;
  const void* indices = nullptr;
  void* values = nullptr;
  IndexType index_type = IndexType::i32;
  IndexBase base = IndexBase::zero;
  Value value = Value::f32;
};
void validate(const SpVecRef& x);

// Y = alpha X + beta Y (Y dense, `size` elements of x.value).
void axpby(const Settings& s, Scalar alpha, const SpVecRef& x, Scalar beta, void* y, CallReport* report = nullptr);
// X.values[i] = Y[X.indices[i]] (moves only: DMA gathers of fp32 words, every value type).
void gather(const Settings& s, const void* y, const SpVecRef& x, CallReport* report = nullptr);
// Y[X.indices[i]] = X.values[i] (moves only: DMA scatters in storage order, every value type).
void scatter(const Settings& s, const SpVecRef& x, void* y, CallReport* report = nullptr);
// X_i, Y[idx_i] = c X_i + s Y[idx_i], c Y[idx_i] - s X_i.
void rot(const Settings& s, Scalar c, Scalar sn, const SpVecRef& x, void* y, CallReport* report = nullptr);
// sum op(X)_i Y[idx_i] (op C conjugates X), rounded once to x.value.
Scalar spvv(const Settings& s, GOp opX, const SpVecRef& x, const void* y, CallReport* report = nullptr);

// ---- conversions (values moved, never combined) ------------------------------------------------
// B = A (B zero-filled first; B of A's value type). The host loop (the reference of the tests).
void sparse_to_dense(const SparseRef& A, const DenseAny& B);
// The same bytes as a device program (SparseToDense's path): B zero-filled by DMA from one VectorE
// memset tile, A's values scattered to their positions by DMA descriptors in storage order.
void sparse_to_dense(const Settings& s, const SparseRef& A, const DenseAny& B, CallReport* report = nullptr);
// Blocked-ELL A (pattern of A, values of v: R_32F / R_64F / C_32F / C_64F) the same way: the stored
// slots' values scattered, empty slots (-1) leave their zeros.
void sparse_to_dense(const Settings& s, const BlockedEllView& A, Value v, const DenseAny& B, CallReport* report = nullptr);
// Entries x != 0 of A (both parts for complex). Returns nnz; for csr/csc also writes the offsets
// array of `out` (out.offsets may not be NULL then). The pattern does not depend on the indices.
std::int64_t dense_to_sparse_analysis(const DenseAny& A, const SparseRef& out);
// Fills out's indices (and COO row indices) and values; out.nnz must be the analysis' count.
void dense_to_sparse_convert(const DenseAny& A, const SparseRef& out);
// CSR (m x n, nnz, int32, base `base`) -> CSC: cscColPtr[n + 1], cscRowInd[nnz] and (numeric)
// cscVal; rows increasing within each column (a stable counting sort). csr_val / csc_val may be
// NULL when !numeric. Validates the CSR's offsets and column range (unsorted columns allowed).
void csr_to_csc(std::int64_t m, std::int64_t n, std::int64_t nnz, const void* csr_val, const std::int32_t* row_ptr,
                const std::int32_t* col_ind, void* csc_val, std::int32_t* col_ptr, std::int32_t* row_ind,
                std::size_t value_bytes, bool numeric, IndexBase base);
// COO sorted row indices -> CSR row offsets (m + 1); CSR offsets -> COO row indices.
void coo_to_csr(const std::int32_t* coo_rows, std::int64_t nnz, std::int64_t m, std::int32_t* row_ptr, IndexBase base);
void csr_to_coo(const std::int32_t* row_ptr, std::int64_t nnz, std::int64_t m, std::int32_t* coo_rows, IndexBase base);
// Stable sorts by (major, minor) key carrying P along: coosort by row (major rows) or column;
// csrsort / cscsort sort the minor indices within each offsets segment.
void coo_sort(std::int64_t m, std::int64_t n, std::int64_t nnz, std::int32_t* rows, std::int32_t* cols,
              std::int32_t* P, bool by_row);
void compressed_sort(std::int64_t major, std::int64_t minor, std::int64_t nnz, const std::int32_t* offsets,
                     std::int32_t* indices, std::int32_t* P, IndexBase base);

}  // namespace trn::sparse
