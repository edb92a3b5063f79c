// trnsparse Sliced-ELL (SELL, cusparseCreateSlicedEll, cuSPARSE 12): the format, its index rules and
// how SpMV / SpMM / SpSV run on it.
//
// Format      rows x cols with nnz stored entries in ceil(rows / slice_size) slices of slice_size
//             consecutive rows. Slice s owns the slots slice_offsets[s] .. slice_offsets[s + 1] of
//             `columns` and `values` (values_size slots in all, padding included); its width w_s is
//             (slice_offsets[s + 1] - slice_offsets[s]) / slice_size and its slots are column-major
//             within the slice: slot j of the slice's row r is slice_offsets[s] + j * slice_size + r.
//             A column index counts from `base`; -1 marks a padding slot (its value is not read). The
//             slice offsets are positions in the arrays (slice_offsets[0] = 0, whatever the base).
// Index rules (validate): slice_size >= 1; offsets non-decreasing, every slice a whole number of
//             slice_size-row columns, slice_offsets[last] = values_size; every column -1 or in
//             [base, cols + base); the rows past `rows` in the last slice hold padding only; the
//             stored (non-padding) slots number nnz; no column twice in one row (any slot order).
// How it runs (docs/trnsparse.md "Sliced-ELL"): the pattern is read once on the host (index work):
//             each row's stored slots sorted by column, which gives the CSR of the matrix as a list
//             of slot numbers. SpMV / SpMM gather the values by those slot numbers (a host copy: data
//             movement, no arithmetic) and run the CSR path of the value type (fp32: 128 x 128 BSR
//             tiles on TensorE, sparse.hpp; C_32F: the real embedding on TensorE; R_64F / C_64F: the
//             row groups through trnblas on TensorE, generic.hpp spmm_fp64), so
//             they have the accuracy bounds of those paths with k = the most stored entries of a row.
//             SpSV analyses that CSR pattern and keeps the slot numbers as the entries' positions
//             in A's values array, so the solve (and SpSV_updateMatrix) reads the SELL values array
//             directly (triangular.hpp: same algorithm and bound).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "trn/sparse/generic.hpp"
#include "trn/sparse/triangular.hpp"

namespace trn::sparse {

struct SellView {
  std::int64_t rows = 0, cols = 0, nnz = 0, values_size = 0, slice_size = 1;
  const void* slice_offsets = nullptr;  // [ceil(rows / slice_size) + 1]
  const void* columns = nullptr;        // [values_size], -1 = padding
  void* values = nullptr;               // [values_size]
  IndexType offsets_type = IndexType::i32, columns_type = IndexType::i32;
  IndexBase base = IndexBase::zero;
  DType value_type = DType::f32;  // the tile dtype (fp32-class values); a placeholder for wider ones
};

// Throws InvalidArgument naming "sliceSize", "sellSliceOffsets", "sellValuesSize", "sellColInd",
// "values", "rows", "cols" or "nnz".
void validate(const SellView& a);

// The CSR of a valid SELL matrix as slot numbers: row i's entries are offsets[i] .. offsets[i + 1]
// (base 0), columns strictly increasing (base 0), slot[e] the entry's position in a.values.
struct SellPattern {
  std::vector<std::int64_t> offsets, columns, slot;
};
SellPattern sell_pattern(const SellView& a);  // validates first

// A SELL matrix as an owned CSR (int64 indices, base 0): the pattern and the values gathered from
// a.values (value_bytes each).
struct SellAsCsr {
  SellPattern pattern;
  std::vector<std::byte> values;
  std::int64_t rows = 0, cols = 0;
  CsrView view(DType value_type) const;
  SparseRef ref(Value value) const;
};
SellAsCsr sell_as_csr(const SellView& a, std::size_t value_bytes);

// The fp32-class paths of sparse.hpp over a SELL matrix (gather to CSR, then the CSR kernel).
void spmv(const Settings& s, Op opA, float alpha, const SellView& A, const void* x, DType x_type, float beta, void* y,
          DType y_type, CallReport* report = nullptr);
void spmm(const Settings& s, Op opA, Op opB, float alpha, const SellView& A, const DenseRef& B, float beta,
          const MutableDenseRef& C, CallReport* report = nullptr);

// The generic path over a SELL matrix of fp64 / complex values (`value`): the values gathered to CSR,
// then spmv_host (R_64F / C_64F: the TensorE row groups of spmm_fp64; same bits as spmv_host on that
// CSR); C_32F: spmm_c32 on that CSR instead (TensorE, same bits as a CSR C_32F SpMV).
void spmv_host(const Settings& s, GOp opA, Scalar alpha, const SellView& A, Value value, const void* x, Scalar beta, void* y,
               CallReport* report = nullptr);

// SpSV / SpSM analysis of a SELL matrix (values of `value`): analyze_triangular over its CSR pattern,
// with every entry's source (and each diagonal) the slot number in A's values array; t.nnz is
// values_size, so triangular_solve / first_zero_pivot read A's SELL values array as it is.
TriangularAnalysis analyze_triangular(const SellView& A, Value value, bool lower, bool unit, GOp op);

}  // namespace trn::sparse
