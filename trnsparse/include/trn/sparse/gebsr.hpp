// trnsparse general (rectangular-block) BSR conversions, cuSPARSE's legacy csr2gebsr,
// gebsr2gebsc, gebsr2gebsr and gebsr2csr: rowBlockDim x colBlockDim blocks, int32 indices. Host index work: values are copied
// into place, never combined (no arithmetic), so every value type and both block orders share one
// byte-moving implementation. docs/trnsparse.md "General BSR conversions".
#pragma once
#include <cstddef>
#include <cstdint>

#include "trn/sparse/sparse.hpp"

namespace trn::sparse {

// The block pattern of a CSR (m x n, validated: sorted columns) in rb x cb blocks: writes
// bsr_row_ptr[ceil(m / rb) + 1] counted from out_base and returns nnzb (cusparseXcsr2gebsrNnz).
// Throws InvalidArgument ("nnzb") if nnzb does not fit an int.
std::int64_t csr_to_gebsr_nnz(const CsrView& csr, std::int64_t rb, std::int64_t cb, IndexBase out_base,
                              std::int32_t* bsr_row_ptr);
// Columns (sorted) and values of that general BSR (cusparse<t>csr2gebsr): bsr_row_ptr must be what
// csr_to_gebsr_nnz wrote (else InvalidArgument "bsrRowPtrC", nothing written); each block's
// rb x cb values (order row: (r, c) at r * cb + c; col: r + c * rb) zero-filled, then the CSR
// entries copied in (value_bytes each).
void csr_to_gebsr(const CsrView& csr, std::int64_t rb, std::int64_t cb, BlockOrder order, IndexBase out_base,
                  const std::int32_t* bsr_row_ptr, std::int32_t* bsr_col_ind, void* bsr_val, std::size_t value_bytes);
// General BSR -> general BSC of the same matrix (cusparse<t>gebsr2gebsc): bsc_col_ptr[nb + 1] and
// bsc_row_ind[nnzb] counted from the input's base, block rows increasing within a block column (a
// stable counting sort); with `numeric` each block's rb * cb values are copied unchanged (the block
// keeps its internal layout). The BSR must pass validate().
void gebsr_to_gebsc(const BsrView& bsr, std::size_t value_bytes, bool numeric, void* bsc_val, std::int32_t* bsc_row_ind,
                    std::int32_t* bsc_col_ptr);

// The rbC x cbC block pattern of a general BSR A (m = brows * row_block, n = bcols * col_block,
// each < 2^31; A passes validate(): offsets, columns in range and strictly increasing per block row):
// writes bsr_row_ptr_c[ceil(m / rbC) + 1] from out_base and returns C's nnzb
// (cusparseXgebsr2gebsrNnz). Every value of every stored A block counts (explicit zeros included),
// so C's blocks are those meeting a stored A block. InvalidArgument ("nnzbC") past INT_MAX blocks.
std::int64_t gebsr_to_gebsr_nnz(const BsrView& a, std::int64_t rbc, std::int64_t cbc, IndexBase out_base,
                               std::int32_t* bsr_row_ptr_c);
// Columns (sorted) and values of that general BSR (cusparse<t>gebsr2gebsr): bsr_row_ptr_c must be
// what gebsr_to_gebsr_nnz wrote (else InvalidArgument "bsrRowPtrC", nothing written); C's blocks
// (A's block order) zero-filled, then every value of A moved to its place (value_bytes each).
void gebsr_to_gebsr(const BsrView& a, std::size_t value_bytes, std::int64_t rbc, std::int64_t cbc, IndexBase out_base,
                    const std::int32_t* bsr_row_ptr_c, std::int32_t* bsr_col_ind_c, void* bsr_val_c);
// General BSR -> CSR (cusparse<t>gebsr2csr, cusparseXgebsr2csr with csr_val NULL): m + 1 row
// offsets, nnzb * rb * cb entries (every value of every stored block), columns increasing per row,
// counted from out_base. The same as gebsr_to_gebsr with 1 x 1 blocks.
void gebsr_to_csr(const BsrView& a, std::size_t value_bytes, IndexBase out_base, std::int32_t* csr_row_ptr,
                  std::int32_t* csr_col_ind, void* csr_val);

}  // namespace trn::sparse
