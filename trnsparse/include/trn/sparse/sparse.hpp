// trnsparse C++ API: block-sparse (BSR) SpMM / SpMV / SDDMM as tile kernels on the emulated
// NeuronCore, plus the index conversions CSR <-> BSR and dense -> BSR. The C API (trnsparse.h) is a
// thin shim over this header. Semantics, accuracy bounds and modeled costs: docs/trnsparse.md.
//
//   SpMM   C = alpha op(A) op(B) + beta C      A sparse (BSR), B and C dense (column- or row-major)
//   SpMV   y = alpha op(A) x + beta y          the SpMM kernel with one moving column
//   SDDMM  C = alpha (op(A) op(B)) o spy(C) + beta C   A, B dense; C sparse (BSR or CSR), only its
//                                              stored entries are computed and written
//
// Where the arithmetic happens: every product and sum runs on TensorE (nc_matmul into fp32 PSUM)
// and VectorE (alpha/beta epilogue). The host does index work only (validation, transposing a block
// pattern, conversions), which performs no floating-point arithmetic.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trn/core/core.hpp"

namespace trn::sparse {

enum class Op : std::uint8_t { N, T };
enum class IndexType : std::uint8_t { i32, i64 };
enum class IndexBase : std::uint8_t { zero, one };
// Order of the values inside each block (cusparseOrder_t for BSR, cusparseDirection_t for legacy).
enum class BlockOrder : std::uint8_t { row, col };
// Dense operand layout.
enum class Layout : std::uint8_t { col_major, row_major };

// A BSR matrix of brows x bcols blocks, each row_block x col_block values, bnnz stored blocks.
// offsets[brows + 1] and columns[bnnz] are of `index_type`, counted from `base`; the values of block
// b are values[b * row_block * col_block ...], element (r, c) of the block at r * col_block + c
// (BlockOrder::row) or r + c * row_block (BlockOrder::col). Column indices within a block row must be
// strictly increasing (sorted, no duplicates): validate() rejects anything else.
struct BsrView {
  std::int64_t brows = 0, bcols = 0, bnnz = 0, row_block = 1, col_block = 1;
  const void* offsets = nullptr;
  const void* columns = nullptr;
  void* values = nullptr;  // written only by SDDMM (the output pattern)
  IndexType offsets_type = IndexType::i32, columns_type = IndexType::i32;
  IndexBase base = IndexBase::zero;
  DType value_type = DType::f32;
  BlockOrder order = BlockOrder::row;
  std::int64_t rows() const { return brows * row_block; }
  std::int64_t cols() const { return bcols * col_block; }
};

// A CSR matrix (rows x cols, nnz entries); the same index rules as BsrView.
struct CsrView {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  const void* offsets = nullptr;
  const void* columns = nullptr;
  void* values = nullptr;
  IndexType offsets_type = IndexType::i32, columns_type = IndexType::i32;
  IndexBase base = IndexBase::zero;
  DType value_type = DType::f32;
};

// A COO matrix: entry e at (row_ind[e], col_ind[e]); both arrays of `index_type`. Entries must be
// sorted by row, then strictly increasing in column within a row (cuSPARSE requires row-sorted COO;
// the column order fixes the accumulation order, so it is required too).
struct CooView {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  const void* row_ind = nullptr;
  const void* col_ind = nullptr;
  void* values = nullptr;
  IndexType index_type = IndexType::i32;
  IndexBase base = IndexBase::zero;
  DType value_type = DType::f32;
};

// A CSC matrix (rows x cols, nnz entries): column offsets[cols + 1] and row indices[nnz], rows
// strictly increasing within a column. It is the CSR of A^T, which is how it is computed
// (transposed() shares every array: no copy).
struct CscView {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  const void* offsets = nullptr;   // cscColOffsets
  const void* row_ind = nullptr;   // cscRowInd
  void* values = nullptr;
  IndexType offsets_type = IndexType::i32, row_ind_type = IndexType::i32;
  IndexBase base = IndexBase::zero;
  DType value_type = DType::f32;
  CsrView transposed() const {
    return CsrView{cols, rows, nnz, offsets, row_ind, values, offsets_type, row_ind_type, base, value_type};
  }
};

// A Blocked-ELL matrix (cusparseCreateBlockedEll): rows x cols in block x block blocks, every block
// row holding ell_cols / block slots. col_ind[(rows / block) x (ell_cols / block)] (row-major) holds
// the block column of each slot counted from `base`, or -1 for an empty slot; values is the
// rows x ell_cols row-major array of the slots' values (slot s of block row i at rows i*block ..,
// columns s*block..). rows, cols and ell_cols must be multiples of block, ell_cols <= cols, and the
// block columns of one block row distinct (any slot order: they are accumulated in increasing block
// column, as BSR).
struct BlockedEllView {
  std::int64_t rows = 0, cols = 0, block = 1, ell_cols = 0;
  const void* col_ind = nullptr;
  void* values = nullptr;
  IndexType index_type = IndexType::i32;
  IndexBase base = IndexBase::zero;
  DType value_type = DType::f32;
};

// A dense rows x cols matrix: element (i, j) at data[i + j * ld] (col_major) or data[i * ld + j].
struct DenseRef {
  const void* data = nullptr;
  DType dtype = DType::f32;
  std::int64_t rows = 0, cols = 0, ld = 0;
  Layout layout = Layout::col_major;
};
struct MutableDenseRef {
  void* data = nullptr;
  DType dtype = DType::f32;
  std::int64_t rows = 0, cols = 0, ld = 0;
  Layout layout = Layout::col_major;
};

// Emulator settings (the handle's state in the C API).
struct Settings : EmulatorSettings {};  // target, numerics, SR, cores, threads, timing_only

// What the last call did: the one trn::Report (modeled profile, trace, the printed kernel plan) and
// trnsparse's counters.
struct CallReport : Report {
  std::int64_t matmuls = 0;         // nc_matmul instructions issued
  std::int64_t blocks = 0;          // stored blocks (or CSR tiles) the kernel visited
  bool b_resident = false;          // SpMM: op(B) strips kept in SBUF (false: streamed per block)
};

// Thrown for an invalid argument or index array: core's one exception for it; `item()` names what
// is wrong ("offsets", "columns", "bnnz", ...) for the C shim.
using trn::InvalidArgument;

// O(bnnz) checks of the index arrays: offsets[0] == base, non-decreasing, offsets[brows] - base ==
// bnnz; every column in [base, bcols + base) and strictly increasing within its row; block sizes
// >= 1; non-null arrays when bnnz > 0. Throws InvalidArgument naming the array.
void validate(const BsrView& a);
void validate(const CsrView& a);
void validate(const CooView& a);
void validate(const CscView& a);  // validate(a.transposed()): column offsets, rows sorted per column
void validate(const BlockedEllView& a);

// C = alpha op(A) op(B) + beta C. op(A) is M x K (A: brows x bcols blocks, op T swaps them), op(B)
// K x n, C M x n. Values of A: f32, bf16 or f16; B: f32, bf16 or f16; C: f32, bf16 or f16. Products
// use fp32 tiles (exact, 4-pass cost) unless A and B are both bf16 or both f16 (then 16-bit tiles);
// accumulation is fp32 in PSUM. beta == 0 never reads C; alpha == 0 never reads A or B.
void spmm(const Settings& s, Op opA, Op opB, float alpha, const BsrView& A, const DenseRef& B, float beta,
          const MutableDenseRef& C, CallReport* report = nullptr);
// y = alpha op(A) x + beta y (x and y contiguous vectors of their dtypes).
void spmv(const Settings& s, Op opA, float alpha, const BsrView& A, const void* x, DType x_type, float beta, void* y,
          DType y_type, CallReport* report = nullptr);
// The same with a CSR matrix: converted on the host to pmax x pmax BSR blocks (values copied into
// zero-padded blocks, no arithmetic), then the BSR kernel. Costs bnnz * 128^2 values of memory.
void spmm(const Settings& s, Op opA, Op opB, float alpha, const CsrView& A, const DenseRef& B, float beta,
          const MutableDenseRef& C, CallReport* report = nullptr);
void spmv(const Settings& s, Op opA, float alpha, const CsrView& A, const void* x, DType x_type, float beta, void* y,
          DType y_type, CallReport* report = nullptr);
// COO: row offsets are built from the sorted row indices (host index work), then the CSR path.
void spmm(const Settings& s, Op opA, Op opB, float alpha, const CooView& A, const DenseRef& B, float beta,
          const MutableDenseRef& C, CallReport* report = nullptr);
void spmv(const Settings& s, Op opA, float alpha, const CooView& A, const void* x, DType x_type, float beta, void* y,
          DType y_type, CallReport* report = nullptr);
// CSC: the CSR kernel path on A^T with op(A) flipped (no copy of the arrays).
void spmm(const Settings& s, Op opA, Op opB, float alpha, const CscView& A, const DenseRef& B, float beta,
          const MutableDenseRef& C, CallReport* report = nullptr);
void spmv(const Settings& s, Op opA, float alpha, const CscView& A, const void* x, DType x_type, float beta, void* y,
          DType y_type, CallReport* report = nullptr);
// Blocked-ELL: the stored slots become BSR blocks of block x block values (a host copy of the
// values, row-major blocks, padding slots dropped), then the BSR kernel.
void spmm(const Settings& s, Op opA, Op opB, float alpha, const BlockedEllView& A, const DenseRef& B, float beta,
          const MutableDenseRef& C, CallReport* report = nullptr);
void spmv(const Settings& s, Op opA, float alpha, const BlockedEllView& A, const void* x, DType x_type, float beta,
          void* y, DType y_type, CallReport* report = nullptr);
// C = alpha (op(A) op(B)) o spy(C) + beta C on the stored entries of C (BSR or CSR pattern).
void sddmm(const Settings& s, Op opA, Op opB, float alpha, const DenseRef& A, const DenseRef& B, float beta,
           const BsrView& C, CallReport* report = nullptr);
void sddmm(const Settings& s, Op opA, Op opB, float alpha, const DenseRef& A, const DenseRef& B, float beta,
           const CsrView& C, CallReport* report = nullptr);

// ---- conversions (host index work: values are copied, never combined) -------------------------
struct FillReport {
  std::int64_t bnnz = 0;        // stored blocks
  std::int64_t nnz = 0;         // nonzero values inside them
  double fill = 0;              // nnz / (bnnz * row_block * col_block); 0 when bnnz == 0
};

// Block pattern of a CSR matrix (m x n) in block_dim x block_dim blocks: writes bsr_offsets
// (ceil(m / block_dim) + 1 entries, int32 or int64 per `out_index`) and returns bnnz
// (cusparseXcsr2bsrNnz). The CSR must pass validate().
std::int64_t csr_to_bsr_nnz(const CsrView& csr, std::int64_t block_dim, IndexBase out_base, void* bsr_offsets,
                            IndexType out_index);
// Values and columns of that BSR (cusparseScsr2bsr): bsr_offsets from csr_to_bsr_nnz; blocks are
// zero-filled then the CSR entries are copied in (order `order`); columns sorted.
FillReport csr_to_bsr(const CsrView& csr, std::int64_t block_dim, BlockOrder order, IndexBase out_base,
                      const void* bsr_offsets, IndexType out_index, void* bsr_columns, void* bsr_values);
// Every value of every stored block becomes a CSR entry (cusparseSbsr2csr): csr_offsets has
// brows * row_block + 1 entries, csr columns sorted within each row; nnz = bnnz * row_block * col_block.
void bsr_to_csr(const BsrView& bsr, IndexBase out_base, void* csr_offsets, void* csr_columns, void* csr_values,
                IndexType out_index);

// Dense -> BSR with a threshold: a block is kept iff one of its entries has |x| > threshold; kept
// entries with |x| <= threshold are stored as 0. Owns its arrays (int64 offsets/columns, base 0).
struct OwnedBsr {
  std::int64_t brows = 0, bcols = 0, row_block = 1, col_block = 1;
  BlockOrder order = BlockOrder::row;
  DType value_type = DType::f32;
  std::vector<std::int64_t> offsets, columns;
  std::vector<std::byte> values;
  FillReport fill;
  BsrView view();
};
OwnedBsr dense_to_bsr(const DenseRef& A, std::int64_t row_block, std::int64_t col_block, float threshold,
                      BlockOrder order = BlockOrder::row);

// ---- SpGEMM C = alpha A B, BSR x BSR (C++ only) -------------------------------------------------
// Two phases as cuSPARSE's SpGEMM (work estimation + compute, then copy): spgemm_symbolic builds
// C's block pattern on the host (index work: the union over k of the block columns of B's rows k
// for every stored A(i, k)), sorted, with zero values (row-major blocks, fp32); spgemm_numeric
// computes every stored C(i, j) = alpha sum_k A(i, k) B(k, j) on TensorE — one nc_matmul per
// contributing pair, in increasing k, into one PSUM accumulator, evacuated once (VectorE alpha).
// Requires A.bcols == B.brows, A.col_block == B.row_block, blocks of at most pmax rows and
// columns, opA = opB = N and beta = 0 (C is overwritten), as cuSPARSE's SpGEMM.
OwnedBsr spgemm_symbolic(const BsrView& A, const BsrView& B);
void spgemm_numeric(const Settings& s, float alpha, const BsrView& A, const BsrView& B, OwnedBsr& C,
                    CallReport* report = nullptr);

// Reverse Cuthill-McKee ordering of a square CSR matrix (George & Liu, "Computer Solution of Large
// Sparse Positive Definite Systems", 1981, §4.3): BFS from a pseudo-peripheral start vertex (the
// George-Liu heuristic) of each connected component, neighbours by increasing degree, then reversed.
// Uses the symmetrised pattern (A + A^T); values are not read. Returns perm with new index i = old
// perm[i]. Host index work: it concentrates nonzeros near the diagonal so that fewer, fuller blocks
// cover them (compare FillReport before and after).
std::vector<std::int64_t> rcm_ordering(const CsrView& A);
// B = P A P^T for the ordering above (new row/column i = old perm[i]); writes a base-0, int64,
// sorted CSR of the same value type into the output vectors.
struct OwnedCsr {
  std::int64_t rows = 0, cols = 0;
  DType value_type = DType::f32;
  std::vector<std::int64_t> offsets, columns;
  std::vector<std::byte> values;
  CsrView view();
};
OwnedCsr permute_symmetric(const CsrView& A, const std::vector<std::int64_t>& perm);
// The same with a report (the reorderings as host index work, docs/cost-model.md section 7): the
// call's profile is its one host round trip, trnsparse.rcm.ordering (the offsets and indices read,
// the permutation written back) or trnsparse.permute.symmetric (the arrays and the permutation
// read, the permuted arrays written back), one declared index operation per stored entry.
std::vector<std::int64_t> rcm_ordering(const Settings& s, const CsrView& A, CallReport* report);
OwnedCsr permute_symmetric(const Settings& s, const CsrView& A, const std::vector<std::int64_t>& perm, CallReport* report);

// ---- Block-sparse attention (extension, not in cuSPARSE) ------------------------------
// O = softmax(scale * Q K^T restricted to the stored blocks of `mask`) V, per query row, for one
// head. Q, K, V, O: seq x head_dim, row-major, ld = head_dim. The mask is a square BSR pattern of
// block b x b (b <= pmax, its values are not read; seq = mask.brows * b); head_dim <= pmax. Fused
// per block row in SBUF/PSUM: the scores never reach HBM. A query row whose block row stores no
// block gets O = 0. tiles: f32 (exact products) or bf16 (Q, K, V rounded by the DMA, probabilities
// rounded to bf16 before the P V matmul); accumulation fp32 in PSUM, softmax in fp32 on
// VectorE/ScalarE. Docs: docs/trnsparse.md "Block-sparse attention".
// logsumexp (optional, seq floats): L_i = log sum_j exp(scale S_ij) over the row's stored keys
// (-inf for a row without stored blocks), what attention_backward needs.
void attention_forward(const Settings& s, const BsrView& mask, std::int64_t head_dim, const float* Q, const float* K,
                       const float* V, float scale, float* O, DType tiles = DType::f32, CallReport* report = nullptr,
                       float* logsumexp = nullptr);
// Backward pass (FlashAttention-2, T. Dao, "FlashAttention-2: Faster Attention with Better
// Parallelism and Work Partitioning", 2023, Algorithm 2): given dO = dLoss/dO and the forward's O
// and logsumexp, writes dQ, dK, dV (seq x head_dim, row-major). P is recomputed per stored block as
// exp(scale S - L) (never stored); delta = rowsum(dO o O); dS = P o (dO V^T - delta). Deterministic:
// dK, dV are accumulated per block column and dQ per block row by two launches (FlashAttention-2
// uses atomic adds for dQ), each recomputing P and dS: 8 TensorE instructions per stored block.
// Keys that no query attends to get dK = dV = 0; query rows without stored blocks dQ = 0.
void attention_backward(const Settings& s, const BsrView& mask, std::int64_t head_dim, const float* Q, const float* K,
                        const float* V, const float* O, const float* dO, const float* logsumexp, float scale, float* dQ,
                        float* dK, float* dV, DType tiles = DType::f32, CallReport* report = nullptr);

// ---- Krylov solvers (extension, not in cuSPARSE) --------------------------------------------
// Conjugate gradients (square SPD operator) and BiCGStab (square, nonsymmetric), optionally
// Jacobi-preconditioned. Every vector operation is a tile kernel: SpMV (the BSR kernel), dot
// products (VectorE multiply + row reduce, then one TensorE matmul with a ones column for the
// cross-partition sum), the scalar recurrences (VectorE divide/multiply on one element) and the
// updates y += a x, p = z + b p (VectorE, with the scalar broadcast across partitions by a
// ones-row matmul). The host reads the scalars its control flow needs (||r||^2 for the stopping
// test, square root and comparison on the host; the breakdown tests' denominators) and nothing
// else runs on the host.
struct KrylovOptions {
  int max_iterations = 1000;
  float tolerance = 1e-5f;  // stop when ||r_k|| <= tolerance * ||b|| (recursively updated residual)
  bool jacobi = true;       // z = D^-1 r with D the diagonal of A (must be nonzero)
  // z = blockdiag(A_ii)^-1 r instead of Jacobi when set: square blocks of at most pmax, the
  // diagonal blocks inverted once by Gauss-Jordan without pivoting (on the engines) and applied as
  // a block-diagonal BSR SpMV; a singular (or unstored) diagonal block is rejected.
  bool block_jacobi = false;
  int restart = 30;         // GMRES: Krylov vectors per cycle (m of GMRES(m)), >= 1
};
struct KrylovResult {
  int iterations = 0;
  bool converged = false;
  bool breakdown = false;                  // CG: p^T A p <= 0 (A not SPD, or lost definiteness in fp32);
                                           // BiCGStab: (r^, r) = 0, (r^, v) = 0 or (t, t) = 0
  bool nonfinite = false;                  // a NaN / Inf scalar stopped the solve (breakdown is set too;
                                           // krylov_generic.hpp's solvers)
  std::vector<double> residual_history;    // ||r_k|| / ||b||, k = 0 .. iterations
  double modeled_ns = 0;                   // sum of the modeled times of every launch (trn target)
  Profile profile;                         // their profiles summed (append_sequential; total_ns = modeled_ns)
  std::int64_t launches = 0;
  std::int64_t host_scalar_reads = 0;      // scalars the host read back for control flow
};
using CgOptions = KrylovOptions;
using CgResult = KrylovResult;
// x holds the initial guess on entry and the solution on exit (fp32, length A.rows()).
CgResult cg(const Settings& s, const BsrView& A, const float* b, float* x, const CgOptions& opt = {});
// BiCGStab with right preconditioning; residual_history has one entry per completed iteration
// (the half-step residual ||s|| when it converges there).
KrylovResult bicgstab(const Settings& s, const BsrView& A, const float* b, float* x, const KrylovOptions& opt = {});
// Restarted GMRES(opt.restart) with right Jacobi preconditioning (modified Gram-Schmidt Arnoldi,
// Givens rotations, back substitution: all tile kernels). residual_history: ||r_0|| / ||b||, then
// the least-squares residual |g_{j+1}| / ||b|| after every Arnoldi step; convergence is declared on
// the true residual b - A x recomputed at a restart (<= tolerance * ||b||). breakdown: R_jj = 0.
KrylovResult gmres(const Settings& s, const BsrView& A, const float* b, float* x, const KrylovOptions& opt = {});

}  // namespace trn::sparse
