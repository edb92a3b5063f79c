// SpMV operands converted once for many products with the same matrix (the role of cuSPARSE's
// cusparseSpMV_preprocess / cusparseSpMM_preprocess: state prepared once for the SpMV calls that
// follow on the same matrix). Here the prepared state holds a copy of the VALUES, so it is valid only
// while they do not change: a caller whose values change builds a new operand.
//
// Why: the fp32 CSR SpMV runs on the TensorE BSR kernel after a host copy of the values into
// zero-padded 128 x 128 blocks (sparse.cpp CsrAsBsr), and the complex-fp32 CSR / BSR SpMV runs it
// on the real 2 x 2 embedding, another host copy (complex_embed.cpp). A Krylov solve multiplies by
// the same operator 20–60 times; re-doing both copies (and re-validating the pattern) every time
// was 12-17 % of an fp32 CSR solve's host instructions (callgrind of csr_bicgstab R_32F,
// docs/trnsparse.md "Session 19"). These classes hold the converted operand; the products they run
// are exactly the ones sparse::spmv / spmm_c32 run on the values the operand saw when it was built
// (same block layout, same values at the same bytes, same kernel and plan): same output bits, trace
// and modeled time -- except the packed C_32F BSR (C32Operand below, s20/krylov), which multiplies
// like the CSR path.
//
// Contract: the operand copies the values at construction and must be destroyed on the thread that
// built it (the fp32 blocks borrow that thread's zeroed block buffer, sparse.cpp ZeroedValues). The
// Krylov solvers build one per solve (krylov_generic.cpp Context), during which the operator is
// read-only; nothing keeps an operand across calls, so a caller may change A's values between solves
// (tested: KrylovPrepared.SecondSolveSeesChangedValues, KrylovPreparedBsr.*).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "trn/sparse/generic.hpp"
#include "trn/sparse/sparse.hpp"

namespace trn::sparse::detail {

// The pmax x pmax tiles of an fp32 matrix that its caller lays out itself instead of handing over a
// CSR (complex_embed.cpp: the 2 x 2 embedding of a complex matrix written straight into the tiles,
// the blocks, columns and bytes csr_to_bsr would make of the embedded CSR, without that CSR).
struct TileSource {
  std::int64_t rows = 0, cols = 0;             // the logical size (the tile grid covers it)
  std::vector<std::int64_t> offsets, columns;  // zero-based int64 tile rows' offsets, sorted tile columns
  std::int64_t entry_bytes = 4;                // bytes of each run the writer records
  // Writes the entries into the all-zero tile values (tile t at values + t pmax^2, `order` inside a
  // tile; offsets / columns: the pattern above, now the operand's) and appends the byte offset of
  // every entry_bytes run it wrote (cleared again afterwards).
  std::function<void(float* values, BlockOrder order, const std::int64_t* offsets, const std::int64_t* columns,
                     std::vector<std::int64_t>& written)>
      write;
};

// An fp32 (or bf16 / f16) CSR matrix as the 128 x 128 BSR the tile SpMM kernel reads.
class CsrTileOperand {
 public:
  // The tiles of `source` (its pattern trusted: no validation), in the block order of A's ctor.
  CsrTileOperand(const Settings& s, TileSource&& source, Op opA);
  // Validates A (InvalidArgument as sparse::spmm) and converts its current values, in the block order
  // whose stationary loads are contiguous for products with opA (sparse.cpp CsrAsBsr; a product
  // with the other op gives the same bits and modeled time, its loads a transposing gather).
  CsrTileOperand(const Settings& s, const CsrView& A, Op opA = Op::N);
  ~CsrTileOperand();
  CsrTileOperand(const CsrTileOperand&) = delete;
  CsrTileOperand& operator=(const CsrTileOperand&) = delete;
  // C = alpha op(A) op(B) + beta C: sparse::spmm(s, opA, opB, alpha, A, B, beta, C, report) on the
  // values converted last. s must name the target the operand was built for (the block size).
  void spmm(const Settings& s, Op opA, Op opB, float alpha, const DenseRef& B, float beta, const MutableDenseRef& C,
            CallReport* report) const;
  const CsrView& csr() const { return csr_; }

 private:
  struct Converted;
  CsrView csr_;
  Generation target_;
  std::unique_ptr<Converted> converted_;
};

// A complex-fp32 CSR (SparseRef) or BSR as its real 2 x 2 embedding E(A) for op N and a real
// alpha (the identity entry map of complex_embed.cpp), ready for the fp32 kernel. A BSR whose
// embedded blocks fill the 128 x 128 tiles densely enough is packed into them (the CSR path's
// tiles, one matmul per tile instead of one per block: complex_embed.cpp "BSR with small blocks,
// packed"); its products then equal the CSR path's on the same entries, not the one-shot BSR
// spmm_c32's (another summation grouping, the same bound).
class C32Operand {
 public:
  C32Operand(const Settings& s, const SparseRef& A);  // CSR, C_32F
  C32Operand(const Settings& s, const BsrView& A);    // BSR, C_32F values
  ~C32Operand();
  C32Operand(const C32Operand&) = delete;
  C32Operand& operator=(const C32Operand&) = delete;
  // C = alpha A B + beta C for real alpha (imaginary part 0): spmm_c32(s, GOp::N, opB, alpha, A, B,
  // beta, C, report) on the values embedded at construction. Throws InvalidArgument for a complex alpha.
  void spmm(const Settings& s, GOp opB, Scalar alpha, const DenseAny& B, Scalar beta, const DenseAny& C,
            CallReport* report) const;

 private:
  struct Embedded;
  std::unique_ptr<Embedded> e_;
};

}  // namespace trn::sparse::detail
